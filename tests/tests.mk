# SPDX-License-Identifier: MIT
# Tests: host unit tests, kselftest-style uAPI tests (run in the VM) and
# sample programs. tests/run-tests runs them all and prints the closing
# line "N passed, N failed".

-include $(TOP)/tests/unit/unit.mk
-include $(TOP)/tests/kselftest/kselftest.mk
include $(TOP)/tests/api/api.mk
include $(TOP)/tests/bench/bench.mk

# Sample programs: our own CUDA programs, built by nvcc as cuda-samples
# are, and run against our libraries through LD_LIBRARY_PATH.
SAMPLE_DIRS := $(filter-out %/common,$(wildcard $(TOP)/tests/samples/*))
SAMPLES := $(foreach d,$(SAMPLE_DIRS),$(B)/samples/$(notdir $(d))/$(notdir $(d)))

# Samples that call the driver API as well link libcuda (NVIDIA's stub
# would do as well; at run time LD_LIBRARY_PATH picks ours).
DRIVER_SAMPLES := $(B)/samples/vmmVectorAdd/vmmVectorAdd
$(DRIVER_SAMPLES): SAMPLE_LIBS := -L$(B)/lib -lcuda
$(DRIVER_SAMPLES): $(LIBCUDA)

# tests/samples/NAME/NAME.cu -> build/samples/NAME/NAME
.SECONDEXPANSION:
$(SAMPLES): $$(TOP)/tests/samples/$$(notdir $$@)/$$(notdir $$@).cu \
		$(TOP)/tests/samples/common/check.h
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $< $(SAMPLE_LIBS)

.PHONY: samples
samples: $(SAMPLES)
ALL_TARGETS += $(SAMPLES)
