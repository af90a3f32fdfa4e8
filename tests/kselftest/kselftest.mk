# SPDX-License-Identifier: MIT
# uAPI tests of the vcuda kernel module, on the kselftest harness: one
# binary per tests/kselftest/*_test.c, in build/tests/kselftest/. They run
# as root in the test VM with the module loaded (tests/vm/guest-tests.sh):
#
#   tools/vcuda-vm -- build/tests/kselftest/vcuda_submit_test
#
# vcuda_memsoak_test and vcuda_submitsoak_test are soak tests that print
# TAP without the harness and take a duration: [SECONDS [PROCESSES]],
# 10 s and 4 processes by default, which is what the suite runs; "make
# stress" runs them for STRESS_SECONDS (300) each.

KSELFTEST_DIR := $(TOP)/tests/kselftest
# The harness, included as a system header: its own macros trip -Wextra
# (-Wclobbered, -Wunused-parameter); our code still gets every warning.
KSELFTEST_SYSINC := $(patsubst -I%,-isystem %,$(KSELFTEST_CFLAGS))
KSELFTEST_SRCS := $(wildcard $(KSELFTEST_DIR)/*_test.c)
KSELFTEST_BINS := $(patsubst $(KSELFTEST_DIR)/%.c,$(B)/tests/kselftest/%,\
	$(KSELFTEST_SRCS))

$(B)/tests/kselftest/%: $(KSELFTEST_DIR)/%.c $(KSELFTEST_DIR)/vcuda_test.h \
		$(TOP)/uapi/vcuda_drm.h $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) $(USER_CFLAGS) $(KSELFTEST_SYSINC) -o $@ $< \
		$(USER_LDFLAGS) -ldrm -lpthread

.PHONY: kselftests
kselftests: $(KSELFTEST_BINS)
ALL_TARGETS += $(KSELFTEST_BINS)

# make stress: the soak tests at full length (STRESS_SECONDS each, 5
# minutes by default) in a VM with two devices (tests/vm/stress.sh), then
# the ioctl fuzzer for FUZZ_IOCTL_SECONDS (tests/fuzz/fuzz.mk).
STRESS_SECONDS ?= 300

.PHONY: stress
stress: module $(KSELFTEST_BINS)
	tools/vcuda-vm --timeout $$((2 * $(STRESS_SECONDS) + 300)) \
		--param num_devices=2 --param job_timeout_ms=5000 \
		-- tests/vm/stress.sh $(STRESS_SECONDS)
	tools/vcuda-vm --timeout $$(($(FUZZ_IOCTL_SECONDS) + 300)) \
		$(FUZZ_IOCTL_VM_PARAMS) \
		-- tests/vm/fuzz-ioctl.sh $(FUZZ_IOCTL_SECONDS)
