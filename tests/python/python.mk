# SPDX-License-Identifier: MIT
# CUDA Python: NVIDIA's cuda-python and numba-cuda (pinned in
# tools/numba/requirements.txt, installed into build/numba by make deps)
# on vcuda. tests/vm/guest-tests.sh runs tests/python/run-python-tests.sh;
# make numba-test runs numba-cuda's own tests in the VM, by default its
# driver module (NUMBA_TESTS=numba.cuda.tests for all of it: hours).
NUMBA_TESTS ?= numba.cuda.tests.cudadrv
NUMBA_TEST_TIMEOUT ?= 7200

.PHONY: numba-test
numba-test: module $(LIBCUDA)
	@$(TOP)/tools/install-pydeps $(NUMBA_PYDEPS) $(TOP)/tools/numba/requirements.txt
	tools/vcuda-vm --timeout $(NUMBA_TEST_TIMEOUT) -- \
		tests/python/run-numba-suite.sh $(NUMBA_TESTS)
