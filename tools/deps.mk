# SPDX-License-Identifier: MIT
# Dependencies: packages (make deps) and files taken from Debian's kernel
# source at build time, never committed: the kselftest harness and
# checkpatch and kernel-doc.

.PHONY: deps
deps:
	@$(TOP)/tools/install-deps
	@$(TOP)/tools/install-pydeps $(PYDEPS)
	@$(TOP)/tools/install-pydeps $(NUMBA_PYDEPS) $(TOP)/tools/numba/requirements.txt

# Python packages, pinned (tools/nvml/requirements.txt): NVIDIA's nvml.h,
# and the NVML clients the tests run in the VM.
PYDEPS := $(B)/py
# cuda-python and numba-cuda (tools/numba/requirements.txt), which the
# CUDA Python tests run in the VM.
NUMBA_PYDEPS := $(B)/numba

LINUX_SOURCE_TAR ?= /usr/src/linux-source-6.12.tar.xz
KSRC := $(B)/linux-source
KSRC_FILES := \
	tools/testing/selftests/kselftest.h \
	tools/testing/selftests/kselftest_harness.h \
	scripts/checkpatch.pl \
	scripts/kernel-doc \
	scripts/spelling.txt \
	scripts/const_structs.checkpatch

# Re-extracted when the list of files changes.
$(KSRC)/.stamp: $(LINUX_SOURCE_TAR) $(TOP)/tools/deps.mk
	@mkdir -p $(KSRC)
	tar -xJf $< -C $(KSRC) --strip-components=1 \
		$(addprefix linux-source-6.12/,$(KSRC_FILES))
	@touch $@

# Include path for tests built on the kselftest harness.
KSELFTEST_CFLAGS := -I$(KSRC)/tools/testing/selftests
