# SPDX-License-Identifier: MIT
#
# numba-cuda linking a device function from each binary form of
# NUMBA_CUDA_TEST_BIN_DIR (make numba-bins): the forms that carry PTX
# (PTX, CUDA source, fatbins, nvcc -dc object, nvcc -lib archive) link and
# run, and LTO-IR through vcuda's nvJitLink; a cubin (SASS only) is
# refused. With VCUDA_HIDE_NVJITLINK=1 (tests/python/site) numba links
# with the driver's cuLink*, and cuda.core refuses LTO-IR. One numba
# process for all forms, unlike numba's own tests, which stop at the
# first form that fails. Prints TAP; tests/python/run-python-tests.sh runs it in the VM
# (a skip where make numba-bins has not run).
import os
import sys

import numpy as np
from numba import cuda

BIN_DIR = os.environ.get("NUMBA_CUDA_TEST_BIN_DIR")
RUNS = ["test_device_functions.ptx", "test_device_functions.cu",
        "test_device_functions.fatbin", "test_device_functions_multi.fatbin",
        "test_device_functions.o", "test_device_functions.a"]
# The cubin is refused by vcuda (both linkers say it is SASS only).
REFUSED = {"test_device_functions.cubin": "SASS only"}
if os.environ.get("VCUDA_HIDE_NVJITLINK") == "1":
    # cuda.core's Linker links LTO-IR only through nvJitLink.
    REFUSED["test_device_functions.ltoir"] = "ltoir"
else:
    RUNS.append("test_device_functions.ltoir")
results = []


def check(what, ok, detail=""):
    results.append(ok)
    print(("ok" if ok else "not ok") + f" {len(results)} - {what}")
    if detail:
        print("#   " + detail.replace("\n", "\n#   "))


def add_through(name):
    """1 + 2 through add_from_numba linked from BIN_DIR/name."""
    add = cuda.declare_device("add_from_numba", "uint32(uint32, uint32)",
                              link=[os.path.join(BIN_DIR, name)])

    @cuda.jit
    def kernel(out):
        out[0] = add(1, 2)

    out = np.zeros(1, dtype=np.uint32)
    kernel[1, 1](out)
    return int(out[0])


def main():
    if not BIN_DIR or not os.path.isdir(BIN_DIR):
        print("ok 1 - binary forms # SKIP NUMBA_CUDA_TEST_BIN_DIR not "
              "built (make numba-bins)")
        print("1..1")
        return 0
    for name in RUNS:
        try:
            got = add_through(name)
            check(f"{name} links and runs", got == 3, f"result {got}")
        except Exception as e:  # any failure is this form's
            check(f"{name} links and runs", False, f"{type(e).__name__}: {e}")
    for name, why in REFUSED.items():
        try:
            got = add_through(name)
            check(f"{name} is refused", False, f"ran, result {got}")
        except Exception as e:
            text = f"{type(e).__name__}: {e}"
            check(f"{name} is refused ({why})", why in text, text)
    print(f"1..{len(results)}")
    return 0 if all(results) else 1


sys.exit(main())
