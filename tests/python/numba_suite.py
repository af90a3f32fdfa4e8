# SPDX-License-Identifier: MIT
#
# numba-cuda's test suite, run module by module in one Python process
# (tests/python/run-numba-suite.sh runs this in the VM; see
# docs/numba-suite.md). Why not numba.runtests: under TCG every Python
# start and every import over 9p costs seconds, one crash or time-out
# loses every count of the run, and a module that cannot be imported
# under unittest (a pytest.importorskip at import) stops the loader.
#
# usage: numba_suite.py [--chunk K/N] [--results DIR] [--list] NAME...
#   NAME      a test package (numba.cuda.tests, numba.cuda.tests.cudapy)
#             or a test module; packages expand into their test modules
#   --chunk   run only the K-th of N slices of the module list (1-based)
#   --results where each finished module's counts are appended as it
#             finishes (modules.tsv) with the tests that did not pass
#             (tests.tsv); modules already in modules.tsv are not run
#             again, so a chunk cut short by a crash or time-out resumes
#             where it stopped; a module started but never finished is
#             recorded as "crashed" and skipped
#   --list    print the modules NAME... expands into, run nothing
#   --report DIR  print DIR/modules.tsv (one or many chunks' results) as
#             a Markdown table with its totals, run nothing
#
# Prints one line per module and a last line
#   numba-cuda: N run, N passed, N failed, N errors, N skipped[, ...]
# "run" and "passed" count tests; "failed" and "errors" count failing
# tests and failing subtests, as unittest does, so a test with three
# failing subtests is 1 run, 0 passed, 3 failed.
# Exit status: 0 when every module run passed, 1 otherwise.
import argparse
import importlib.util
import inspect
import os
import sys
import time
import traceback
import unittest

# numba.cuda.tests' own load_tests reads these directories, in this order;
# core/ (name mangling, pickling of dispatchers) is not among them, but
# pytest, numba-cuda's own runner, collects it, so it runs here too, last.
# benchmarks/ is left out: its tests need pytest-benchmark's fixture.
SUITE_DIRS = ("nocuda", "cudasim", "cudadrv", "cudapy", "nrt",
              "doc_examples", "core")
TOP_PACKAGE = "numba.cuda.tests"
FIELDS = ("run", "passed", "failed", "errors", "skipped", "xfail",
          "xpass")


def package_dir(name):
    """The directory of package NAME, or None for a plain module or a
    test within one (module.Class or module.Class.test_name)."""
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:  # a parent is a module: NAME is a test
        return None
    if spec is None:
        raise SystemExit(f"numba_suite: no module named {name}")
    if spec.submodule_search_locations:
        return list(spec.submodule_search_locations)[0]
    return None


def modules_of_package(name, directory):
    """Test modules of a package: its test_*.py files, then subpackages."""
    names = sorted(os.listdir(directory))
    if name == TOP_PACKAGE:
        subdirs = [d for d in SUITE_DIRS if d in names]
        files = []
    else:
        subdirs = [d for d in names
                   if os.path.isfile(os.path.join(directory, d,
                                                  "__init__.py"))]
        files = [f for f in names
                 if f.startswith("test_") and f.endswith(".py")]
    found = [f"{name}.{f[:-3]}" for f in files]
    for sub in subdirs:
        found += modules_of_package(f"{name}.{sub}",
                                    os.path.join(directory, sub))
    return found


def expand(names):
    modules = []
    for name in names:
        directory = package_dir(name)
        modules += modules_of_package(name, directory) if directory \
            else [name]
    return list(dict.fromkeys(modules))


def chunk_of(modules, chunk):
    """The K-th of N round-robin slices: big and small modules mix."""
    k, n = (int(x) for x in chunk.split("/"))
    if not 1 <= k <= n:
        raise SystemExit(f"numba_suite: bad chunk {chunk} (want K/N, "
                         "1 <= K <= N)")
    return modules[k - 1::n]


def is_pytest_skip(kind):
    """pytest.skip() and pytest.importorskip() inside a test raise
    pytest's Skipped, which pytest (numba-cuda's own runner) reports as a
    skip and unittest would report as an error."""
    outcomes = sys.modules.get("_pytest.outcomes")  # loaded by pytest
    return outcomes is not None and issubclass(kind, outcomes.Skipped)


class CountingResult(unittest.TextTestResult):
    """Keeps each test that did not pass, its outcome and first reason
    line, and how long each test took."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = []
        self.passed = 0
        self._started = 0.0

    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def _note(self, test, outcome, reason="", subtest=False):
        # a subtest's time is its test's, counted once, when it ends
        took = 0.0 if subtest else time.monotonic() - self._started
        lines = [ln for ln in str(reason).strip().splitlines() if ln]
        self.outcomes.append((test.id(), outcome, took,
                              lines[-1] if lines else ""))

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1
        self._note(test, "ok")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._note(test, "FAIL", self.failures[-1][1])

    def addError(self, test, err):
        if is_pytest_skip(err[0]):
            self.addSkip(test, str(err[1]))
            return
        super().addError(test, err)
        self._note(test, "ERROR", self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._note(test, "skip", reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._note(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._note(test, "XPASS")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            kind = "FAIL" if issubclass(err[0], test.failureException) \
                else "ERROR"
            self._note(subtest, kind, self._exc_info_to_string(err, test),
                       subtest=True)

    def counts(self):
        return {"run": self.testsRun, "passed": self.passed,
                "failed": len(self.failures), "errors": len(self.errors),
                "skipped": len(self.skipped),
                "xfail": len(self.expectedFailures),
                "xpass": len(self.unexpectedSuccesses)}


class Results:
    """modules.tsv and tests.tsv under DIR, appended and synced line by
    line so that a VM killed mid-chunk keeps every finished module."""

    def __init__(self, directory):
        self.dir = directory
        self.done = {}
        self.modules = self.tests = None
        if not directory:
            return
        os.makedirs(directory, exist_ok=True)
        self.modules = os.path.join(directory, "modules.tsv")
        self.tests = os.path.join(directory, "tests.tsv")
        if os.path.exists(self.modules):
            with open(self.modules) as f:
                for line in f:
                    cols = line.rstrip("\n").split("\t")
                    if cols[0] != "module":
                        self.done[cols[0]] = cols[1]

    def _append(self, path, line):
        if not path:
            return
        with open(path, "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())

    def start(self, module):
        self._append(self.modules, f"{module}\tstarted")

    def finish(self, module, status, counts, seconds, note=""):
        cols = [module, status] + [str(counts.get(k, 0)) for k in FIELDS]
        cols += [f"{seconds:.0f}", note.replace("\t", " ")]
        self._append(self.modules, "\t".join(cols))
        self.done[module] = status

    def outcome(self, module, test, outcome, seconds, reason):
        self._append(self.tests, "\t".join(
            [module, test, outcome, f"{seconds:.1f}",
             reason.replace("\t", " ")[:300]]))


def pytest_functions(module):
    """Module-level test_* functions, which pytest collects and unittest
    does not (cudapy.test_matmul, doc_examples.test_matmul), as test
    cases; only those that take no argument (a fixture or a parameter
    would need pytest itself)."""
    found = []
    for name, obj in sorted(vars(sys.modules[module]).items()):
        if name.startswith("test_") and inspect.isfunction(obj) and \
                obj.__module__ == module and \
                not inspect.signature(obj).parameters:
            found.append(unittest.FunctionTestCase(obj))
    return found


def load(module):
    """The module's tests, or the reason it cannot be loaded."""
    try:
        suite = unittest.defaultTestLoader.loadTestsFromName(module)
        if module in sys.modules:  # a module, not a class or a test
            suite.addTests(pytest_functions(module))
        return suite, ""
    except BaseException as e:  # pytest's Skipped derives from it
        if isinstance(e, KeyboardInterrupt):
            raise
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        return None, last


def run_module(module, results, stream):
    started = time.monotonic()
    suite, why = load(module)
    if suite is None:
        results.finish(module, "unloadable", {}, 0, why)
        return "unloadable", {}, why
    result = CountingResult(unittest.runner._WritelnDecorator(stream),
                            descriptions=False, verbosity=2)
    suite.run(result)
    took = time.monotonic() - started
    counts = result.counts()
    ok = not (counts["failed"] or counts["errors"] or counts["xpass"])
    status = "ok" if ok else "failed"
    for test, outcome, seconds, reason in result.outcomes:
        if outcome != "ok":
            results.outcome(module, test, outcome, seconds, reason)
    slowest = max(result.outcomes, key=lambda o: o[2], default=None)
    note = f"slowest {slowest[0].split(' ')[0].rsplit('.', 1)[-1]} " \
        f"{slowest[2]:.0f}s" \
        if slowest else ""
    results.finish(module, status, counts, took, note)
    return status, counts, f"{took:.0f}s"


def report(directory):
    """The latest record of each module in DIR/modules.tsv, as a table."""
    path = os.path.join(directory, "modules.tsv")
    if not os.path.exists(path):
        print(f"numba_suite: no results in {directory}")
        return 1
    latest = {}
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            latest[cols[0]] = cols
    total = dict.fromkeys(FIELDS, 0)
    print("| module | status | " + " | ".join(FIELDS) + " | s | note |")
    print("|---" * (len(FIELDS) + 4) + "|")
    for module, cols in latest.items():
        cols += [""] * (len(FIELDS) + 4 - len(cols))
        for k, v in zip(FIELDS, cols[2:]):
            total[k] += int(v or 0)
        short = module.removeprefix(TOP_PACKAGE + ".")
        print(f"| {short} | " + " | ".join(cols[1:]) + " |")
    print(f"numba-cuda ({len(latest)} modules): "
          + ", ".join(f"{total[k]} {k}" for k in FIELDS))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chunk")
    parser.add_argument("--results")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--report")
    parser.add_argument("names", nargs="*", default=[TOP_PACKAGE])
    args = parser.parse_args()
    if args.report:
        return report(args.report)

    modules = expand(args.names)
    if args.chunk:
        modules = chunk_of(modules, args.chunk)
    if args.list:
        print("\n".join(modules))
        return 0

    results = Results(args.results)
    total = dict.fromkeys(FIELDS, 0)
    bad = 0
    for module in modules:
        before = results.done.get(module)
        if before == "started":
            results.finish(module, "crashed", {}, 0,
                           "the run stopped inside this module")
        if before is not None:
            print(f"== {module}: {results.done[module]} before, not run")
            continue
        results.start(module)
        print(f"== {module}", flush=True)
        status, counts, note = run_module(module, results, sys.stdout)
        for k in FIELDS:
            total[k] += counts.get(k, 0)
        bad += status != "ok"
        summary = ", ".join(f"{counts.get(k, 0)} {k}" for k in FIELDS)
        print(f"== {module}: {status} ({summary}; {note})", flush=True)
    print("numba-cuda: " + ", ".join(f"{total[k]} {k}" for k in FIELDS)
          + f"; {bad} of {len(modules)} modules not ok", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
