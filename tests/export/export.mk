# SPDX-License-Identifier: MIT
# Host tests of the doors NVIDIA's static runtime uses (no VM, no device):
# cuGetProcAddress against the H100's answers (tests/procaddr/h100.txt)
# and the private export tables against tools/cudalog's recordings.

EXPORT_TESTS := $(B)/tests/export/check_procaddr $(B)/tests/export/check_export
HOST_TESTS += $(EXPORT_TESTS)
ALL_TARGETS += $(EXPORT_TESTS)

$(B)/tests/export/check_procaddr: $(TOP)/tests/procaddr/check_procaddr.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -ldl

$(B)/tests/export/check_export: $(TOP)/tests/export/check_export.c \
		$(TOP)/libcuda/export/integrity.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(TOP)/libcuda/export -o $@ \
		$< $(TOP)/libcuda/export/integrity.c -ldl
