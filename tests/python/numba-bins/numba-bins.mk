# SPDX-License-Identifier: MIT
# The prebuilt binaries numba-cuda's tests link (NUMBA_CUDA_TEST_BIN_DIR):
# test_device_functions and nrt_extern, each as CUDA source, PTX, cubin,
# fatbin (one and two architectures), relocatable object, static archive,
# and test_device_functions as raw LTO-IR. The sources are ours
# (numba-cuda's wheel ships none); the forms are those its tests expect.
#
# Built for the cc vcuda presents by default (8.0; the multi-architecture
# fatbin adds 7.5, the oldest CUDA 13 targets). vcuda runs PTX only, so every container that can
# carry PTX beside the machine code does (code=[sm_NN,compute_NN]): the
# fatbin, object and archive then load, and what cannot carry PTX (the
# cubin, LTO-IR) tests vcuda's refusal. tests/python/env.sh points
# NUMBA_CUDA_TEST_BIN_DIR here when the directory exists.
NUMBA_BINS := $(B)/numba-bins
NUMBA_BINS_SRC := $(TOP)/tests/python/numba-bins
NUMBA_BINS_CC ?= 80
NUMBA_BINS_ALT_CC ?= 75
# The venv's numba-cuda (nrt.cuh), globbed when the rule runs: the venv
# may not exist when make reads this.
NUMBA_BINS_NRT_INCLUDE = \
	$(NUMBA_PYDEPS)/lib/python3*/site-packages/numba_cuda/numba/cuda/memory_management
NUMBA_VENV_STAMP := $(NUMBA_PYDEPS)/.requirements

numba_bins_gencode = -gencode arch=compute_$(1),code=[sm_$(1),compute_$(1)]
NUMBA_BINS_FLAGS := -O3 -rdc=true
NUMBA_BINS_ONE := $(call numba_bins_gencode,$(NUMBA_BINS_CC))
NUMBA_BINS_TWO := $(NUMBA_BINS_ONE) $(call numba_bins_gencode,$(NUMBA_BINS_ALT_CC))

NUMBA_BINS_FORMS := cu ptx cubin fatbin o a
NUMBA_BINS_FILES := \
	$(foreach n,test_device_functions nrt_extern, \
		$(foreach f,$(NUMBA_BINS_FORMS),$(NUMBA_BINS)/$(n).$(f)) \
		$(NUMBA_BINS)/$(n)_multi.fatbin) \
	$(NUMBA_BINS)/test_device_functions.ltoir

.PHONY: numba-bins
numba-bins: $(NUMBA_BINS_FILES)

# nrt_extern.cu includes numba's nrt.cuh, from the venv of make deps.
NUMBA_BINS_NRT := $(filter $(NUMBA_BINS)/nrt_extern%,$(NUMBA_BINS_FILES))
$(NUMBA_BINS_NRT): NUMBA_BINS_INC = -I$$(echo $(NUMBA_BINS_NRT_INCLUDE))
$(NUMBA_BINS_NRT): $(NUMBA_VENV_STAMP)
$(NUMBA_VENV_STAMP): $(TOP)/tools/numba/requirements.txt
	@$(TOP)/tools/install-pydeps $(NUMBA_PYDEPS) $<
	@touch $@

$(NUMBA_BINS_FILES): | $(NUMBA_BINS)/
$(NUMBA_BINS)/:
	@mkdir -p $@

$(NUMBA_BINS)/%.cu: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,CP,$@)cp $< $@
$(NUMBA_BINS)/%.ptx: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		-gencode arch=compute_$(NUMBA_BINS_CC),code=compute_$(NUMBA_BINS_CC) -ptx -o $@ $<
$(NUMBA_BINS)/%.cubin: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		-gencode arch=compute_$(NUMBA_BINS_CC),code=sm_$(NUMBA_BINS_CC) -cubin -o $@ $<
$(NUMBA_BINS)/%.fatbin: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		$(NUMBA_BINS_ONE) -fatbin -o $@ $<
$(NUMBA_BINS)/%_multi.fatbin: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		$(NUMBA_BINS_TWO) -fatbin -o $@ $<
$(NUMBA_BINS)/%.o: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		$(NUMBA_BINS_ONE) -dc -o $@ $<
$(NUMBA_BINS)/%.a: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		$(NUMBA_BINS_ONE) -lib -o $@ $<
$(NUMBA_BINS)/%.ltoir: $(NUMBA_BINS_SRC)/%.cu
	$(call quiet,NVCC,$@)$(NVCC) $(NUMBA_BINS_FLAGS) $(NUMBA_BINS_INC) \
		-gencode arch=compute_$(NUMBA_BINS_CC),code=lto_$(NUMBA_BINS_CC) -ltoir -o $@ $<
