# SPDX-License-Identifier: MIT
# CUDA Python: NVIDIA's cuda-python and numba-cuda (pinned in
# tools/numba/requirements.txt, installed into build/numba by make deps)
# on vcuda. tests/vm/guest-tests.sh runs tests/python/run-python-tests.sh;
# make numba-test runs numba-cuda's own tests in the VM, by default its
# driver tests. The whole suite takes hours under TCG: run it in chunks,
#   make numba-test NUMBA_TESTS=numba.cuda.tests NUMBA_CHUNK=3/12
# Each finished module's counts go to $(NUMBA_RESULTS)/modules.tsv as it
# finishes; a chunk run again skips the modules already there (see
# docs/numba-suite.md).
NUMBA_TESTS ?= numba.cuda.tests.cudadrv
NUMBA_TEST_TIMEOUT ?= 7200
NUMBA_CHUNK ?=
# Options for tools/vcuda-vm, e.g. NUMBA_VM_PARAMS="--param cc=90" to
# present compute capability 9.0 (the tests that need cc >= 9.0 run).
NUMBA_VM_PARAMS ?=
# Always: no compute time-out (under TCG doc_examples.test_random's kernel
# runs past the default 10 minutes, and the sticky LAUNCH_TIMEOUT spoils
# every later test of the chunk), and 4 GiB for its 1.8 GB array.
NUMBA_VM_FIXED := --param compute_timeout_ms=0 --memory 4G
NUMBA_RESULTS ?= build/numba-results/$(shell git -C $(TOP) rev-parse --short HEAD 2>/dev/null || echo unknown)

include $(TOP)/tests/python/numba-bins/numba-bins.mk

.PHONY: numba-test
numba-test: module $(LIBCUDA) $(LIBNVJITLINK) numba-bins
	@$(TOP)/tools/install-pydeps $(NUMBA_PYDEPS) $(TOP)/tools/numba/requirements.txt
	tools/vcuda-vm --timeout $(NUMBA_TEST_TIMEOUT) $(NUMBA_VM_FIXED) $(NUMBA_VM_PARAMS) \
		--env NUMBA_RESULTS=$(NUMBA_RESULTS) \
		$(if $(NUMBA_CHUNK),--env NUMBA_CHUNK=$(NUMBA_CHUNK)) -- \
		tests/python/run-numba-suite.sh $(NUMBA_TESTS); \
	status=$$?; \
	python3 tests/python/numba_suite.py --report $(NUMBA_RESULTS); \
	exit $$status
