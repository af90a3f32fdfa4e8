# SPDX-License-Identifier: MIT
# Tests: host unit tests, kselftest-style uAPI tests (run in the VM) and
# sample programs. tests/run-tests runs them all and prints the closing
# line "N passed, N failed".

-include $(TOP)/tests/unit/unit.mk
-include $(TOP)/tests/kselftest/kselftest.mk
include $(TOP)/tests/api/api.mk

# Sample programs: our own CUDA programs, built by nvcc as cuda-samples
# are, and run against our libraries through LD_LIBRARY_PATH.
SAMPLE_DIRS := $(wildcard $(TOP)/tests/samples/*)
SAMPLES := $(foreach d,$(SAMPLE_DIRS),$(B)/samples/$(notdir $(d))/$(notdir $(d)))

# tests/samples/NAME/NAME.cu -> build/samples/NAME/NAME
.SECONDEXPANSION:
$(SAMPLES): $$(TOP)/tests/samples/$$(notdir $$@)/$$(notdir $$@).cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $<

.PHONY: samples
samples: $(SAMPLES)
ALL_TARGETS += $(SAMPLES)
