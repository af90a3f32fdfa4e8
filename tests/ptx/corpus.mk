# SPDX-License-Identifier: MIT
# The PTX test corpus: our own kernels (tests/ptx/*.cu), compiled by nvcc
# into build/tests/ptx/ as PTX for several targets, fatbins with every
# compression mode, and executables (plain and -rdc) whose embedded
# fatbins the fatbin tests read.

CORPUS_SRC := $(TOP)/tests/ptx
CORPUS_OUT := $(B)/tests/ptx
CORPUS_NAMES := $(basename $(notdir $(wildcard $(CORPUS_SRC)/*.cu)))
CORPUS_RDC_NAMES := rdc_a rdc_b
CORPUS_NVCC := $(NVCC) -O2 -Wno-deprecated-gpu-targets
CORPUS_GENCODE := -gencode arch=compute_75,code=[compute_75,sm_75] \
	-gencode arch=compute_80,code=compute_80
CORPUS_COMPRESS := none speed size default balance

CORPUS_PTX := \
	$(patsubst %,$(CORPUS_OUT)/%.sm75.ptx,$(CORPUS_NAMES)) \
	$(patsubst %,$(CORPUS_OUT)/%.sm80.ptx,$(CORPUS_NAMES)) \
	$(patsubst %,$(CORPUS_OUT)/%.sm90.ptx,$(CORPUS_NAMES)) \
	$(CORPUS_OUT)/control.g.ptx $(CORPUS_OUT)/float_ops.lineinfo.ptx
CORPUS_FATBINS := \
	$(patsubst %,$(CORPUS_OUT)/vector_add.%.fatbin,$(CORPUS_COMPRESS)) \
	$(CORPUS_OUT)/rdc_a.rdc.fatbin $(CORPUS_OUT)/vector_add.sm75.cubin
CORPUS_EXES := $(CORPUS_OUT)/vector_add.exe $(CORPUS_OUT)/vector_add.rdc.exe \
	$(CORPUS_OUT)/vector_add.speed.exe $(CORPUS_OUT)/rdc.exe \
	$(CORPUS_OUT)/vector_add.rdcptx.exe
# Hand-written PTX (tests/ptx/hand/) for what nvcc rarely emits.
CORPUS_HAND := $(patsubst $(CORPUS_SRC)/hand/%.ptx,$(CORPUS_OUT)/hand.%.ptx,\
	$(wildcard $(CORPUS_SRC)/hand/*.ptx))
# Host objects and archives (nvcc -dc, nvcc -lib), the forms
# cuLinkAddData takes as CU_JIT_INPUT_OBJECT and CU_JIT_INPUT_LIBRARY:
# with PTX beside the SASS, and with SASS alone.
CORPUS_HOSTOBJS := $(CORPUS_OUT)/rdc_a.dc.o $(CORPUS_OUT)/rdc_a.sass.o \
	$(CORPUS_OUT)/rdc.lib.a $(CORPUS_OUT)/rdc.sass.a
CORPUS_ALL := $(CORPUS_PTX) $(CORPUS_HAND) $(CORPUS_FATBINS) $(CORPUS_EXES) \
	$(CORPUS_HOSTOBJS)

$(CORPUS_OUT)/:
	@mkdir -p $@

# -rdc=true as cuda-samples build; compute_80 without it (where a unit
# stands alone) so that both shapes of PTX are covered.
$(CORPUS_OUT)/%.sm75.ptx: $(CORPUS_SRC)/%.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -rdc=true -ptx -arch=compute_75 $< -o $@
$(CORPUS_OUT)/%.sm80.ptx: $(CORPUS_SRC)/%.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) $(if $(filter $*,$(CORPUS_RDC_NAMES)),-rdc=true) \
		-ptx -arch=compute_80 $< -o $@
$(CORPUS_OUT)/%.sm90.ptx: $(CORPUS_SRC)/%.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -rdc=true -ptx -arch=compute_90 $< -o $@
$(CORPUS_OUT)/%.g.ptx: $(CORPUS_SRC)/%.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -G -rdc=true -ptx -arch=compute_75 $< -o $@
$(CORPUS_OUT)/%.lineinfo.ptx: $(CORPUS_SRC)/%.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -lineinfo -rdc=true -ptx -arch=compute_75 $< -o $@

$(CORPUS_OUT)/hand.%.ptx: $(CORPUS_SRC)/hand/%.ptx | $(CORPUS_OUT)/
	@cp $< $@

$(CORPUS_OUT)/vector_add.%.fatbin: $(CORPUS_SRC)/vector_add.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -fatbin --compress-mode=$* $(CORPUS_GENCODE) $< -o $@
$(CORPUS_OUT)/rdc_a.rdc.fatbin: $(CORPUS_SRC)/rdc_a.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -fatbin -rdc=true $(CORPUS_GENCODE) $< -o $@
# A bare cubin (ELF, SASS only), as nvJitLink and cuLinkComplete make them.
$(CORPUS_OUT)/vector_add.sm75.cubin: $(CORPUS_SRC)/vector_add.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -cubin -arch=sm_75 $< -o $@

$(CORPUS_OUT)/vector_add.exe: $(CORPUS_SRC)/vector_add.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -DWITH_MAIN $(CORPUS_GENCODE) $< -o $@
$(CORPUS_OUT)/vector_add.rdc.exe: $(CORPUS_SRC)/vector_add.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -DWITH_MAIN -rdc=true -cudart shared \
		$(CORPUS_GENCODE) $< -o $@
# -rdc with PTX alone (cuda-samples' CMake default): nothing is device-linked,
# and libcudadevrt rides along as SASS plus compute_121 PTX.
$(CORPUS_OUT)/vector_add.rdcptx.exe: $(CORPUS_SRC)/vector_add.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -DWITH_MAIN -rdc=true -cudart shared \
		-gencode arch=compute_75,code=compute_75 $< -o $@
$(CORPUS_OUT)/vector_add.speed.exe: $(CORPUS_SRC)/vector_add.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -DWITH_MAIN --compress-mode=speed $(CORPUS_GENCODE) \
		$< -o $@
$(CORPUS_OUT)/rdc.exe: $(CORPUS_SRC)/rdc_a.cu $(CORPUS_SRC)/rdc_b.cu | \
		$(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -DWITH_MAIN -rdc=true $(CORPUS_GENCODE) $^ -o $@

CORPUS_SASS_GENCODE := -gencode arch=compute_75,code=sm_75
$(CORPUS_OUT)/rdc_a.dc.o: $(CORPUS_SRC)/rdc_a.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -dc $(CORPUS_GENCODE) $< -o $@
$(CORPUS_OUT)/rdc_a.sass.o: $(CORPUS_SRC)/rdc_a.cu | $(CORPUS_OUT)/
	$(call quiet,NVCC,$@)$(CORPUS_NVCC) -dc $(CORPUS_SASS_GENCODE) $< -o $@
$(CORPUS_OUT)/rdc.lib.a: $(CORPUS_SRC)/rdc_a.cu $(CORPUS_SRC)/rdc_b.cu | \
		$(CORPUS_OUT)/
	$(call quiet,NVCC,$@)rm -f $@ && $(CORPUS_NVCC) -lib -rdc=true $(CORPUS_GENCODE) $^ -o $@
$(CORPUS_OUT)/rdc.sass.a: $(CORPUS_SRC)/rdc_a.cu $(CORPUS_SRC)/rdc_b.cu | \
		$(CORPUS_OUT)/
	$(call quiet,NVCC,$@)rm -f $@ && $(CORPUS_NVCC) -lib -rdc=true $(CORPUS_SASS_GENCODE) $^ -o $@

.PHONY: ptx-corpus
ptx-corpus: $(CORPUS_ALL)
