# SPDX-License-Identifier: MIT
# Tests: host unit tests, kselftest-style uAPI tests (run in the VM) and
# sample programs. tests/run-tests runs them all and prints the closing
# line "N passed, N failed".

-include $(TOP)/tests/unit/unit.mk
-include $(TOP)/tests/kselftest/kselftest.mk
include $(TOP)/tests/api/api.mk
include $(TOP)/tests/export/export.mk
include $(TOP)/tests/bench/bench.mk
include $(TOP)/tests/python/python.mk

# Sample programs: our own CUDA programs, built by nvcc as cuda-samples
# are, and run against our libraries through LD_LIBRARY_PATH: once with
# nvcc's default static runtime (build/samples/), once with our shared
# libcudart (build/samples-shared/).
SAMPLE_DIRS := $(filter-out %/common,$(wildcard $(TOP)/tests/samples/*))
SAMPLE_NAMES := $(notdir $(SAMPLE_DIRS))
SAMPLES := $(foreach n,$(SAMPLE_NAMES),$(B)/samples/$(n)/$(n))
SHARED_SAMPLES := $(foreach n,$(SAMPLE_NAMES),$(B)/samples-shared/$(n)/$(n))

# Samples that call the driver API as well link libcuda (NVIDIA's stub
# would do as well; at run time LD_LIBRARY_PATH picks ours).
DRIVER_SAMPLES := $(B)/samples/vmmVectorAdd/vmmVectorAdd \
	$(B)/samples-shared/vmmVectorAdd/vmmVectorAdd
$(DRIVER_SAMPLES): SAMPLE_LIBS := -L$(B)/lib -lcuda
$(DRIVER_SAMPLES): $(LIBCUDA)

# Samples that launch from the device link NVIDIA's device runtime, as
# nvcc -rdc programs do (vcuda runs its functions itself).
CDP_SAMPLES := $(B)/samples/cdpTree/cdpTree $(B)/samples-shared/cdpTree/cdpTree
$(CDP_SAMPLES): SAMPLE_LIBS := -lcudadevrt

# tests/samples/NAME/NAME.cu -> build/samples/NAME/NAME, samples-shared/...
.SECONDEXPANSION:
$(SAMPLES): $$(TOP)/tests/samples/$$(notdir $$@)/$$(notdir $$@).cu \
		$(TOP)/tests/samples/common/check.h
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $< $(SAMPLE_LIBS)
$(SHARED_SAMPLES): $$(TOP)/tests/samples/$$(notdir $$@)/$$(notdir $$@).cu \
		$(TOP)/tests/samples/common/check.h $(LIBCUDART)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SHARED_NVCC_FLAGS) -o $@ $< $(SAMPLE_LIBS)

# One program as a new user builds it: nvcc with no flags at all.
PLAIN_SAMPLE := $(B)/samples-plain/vectorAdd/vectorAdd
$(PLAIN_SAMPLE): $(TOP)/tests/samples/vectorAdd/vectorAdd.cu \
		$(TOP)/tests/samples/common/check.h
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) -o $@ $<

.PHONY: samples
samples: $(SAMPLES) $(SHARED_SAMPLES) $(PLAIN_SAMPLE)
ALL_TARGETS += $(SAMPLES) $(SHARED_SAMPLES) $(PLAIN_SAMPLE)
