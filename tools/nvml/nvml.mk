# SPDX-License-Identifier: MIT
# libnvidia-ml.so.1: NVIDIA's NVML interface for vcuda's devices, over the
# vsmi queries ($(VSMI_LIB)), built against NVIDIA's nvml.h from PyPI's
# nvidia-nvml-dev (make deps puts it in $(PYDEPS)). Every entry point of
# nvml.h that tools/nvml/*.c does not define is generated as a
# NOT_SUPPORTED stub; $(NVML_UNSUPPORTED) lists them for the docs check.
# The test probe of tests/nvml/ is built here too. Included from
# tools/tools.mk, after vcuda-smi.mk.

NVML_DIR := $(TOP)/tools/nvml
NVML_INC := $(firstword $(wildcard $(PYDEPS)/lib/python3*/site-packages/nvidia/cu13/include))
ifeq ($(NVML_INC),)
# Not installed yet: make names this path as missing, which says what to do.
NVML_INC := $(PYDEPS)/not-installed-run-make-deps
endif
NVML_H := $(NVML_INC)/nvml.h
LIBNVML := $(B)/lib/libnvidia-ml.so.1
NVML_UNSUPPORTED := $(B)/nvml/unsupported.txt
NVML_OBJS := $(patsubst $(NVML_DIR)/%.c,$(B)/tools/nvml/%.o,\
	$(wildcard $(NVML_DIR)/*.c))
NVML_CFLAGS := $(USER_CFLAGS) -I$(NVML_INC) -I$(VSMI_DIR)
NVML_EXPORTS_H100 := $(TOP)/tests/nvml/nvidia-ml-symbols-h100.txt
NVML_PROBE := $(B)/tests/nvml/nvml-probe
NVML_HOLDER := $(B)/tests/nvml/nvml-holder

$(B)/tools/nvml/%.o: $(NVML_DIR)/%.c $(NVML_DIR)/nvml_impl.h \
		$(VSMI_DIR)/vsmi.h $(NVML_H)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(NVML_CFLAGS) -c $< -o $@

# The header with every version of every entry point declared.
$(B)/nvml/nvml.i: $(NVML_H)
	@mkdir -p $(@D)
	$(call quiet,CPP,$@)$(CC) -E -P -DNVML_NO_UNVERSIONED_FUNC_DEFS $< -o $@

$(B)/nvml/defined.txt: $(NVML_OBJS)
	@mkdir -p $(@D)
	$(call quiet,NM,$@)nm -g --defined-only $^ | \
		awk '$$2 == "T" { print $$3 }' | sort -u >$@

$(B)/nvml/stubs.c $(NVML_UNSUPPORTED) &: $(NVML_DIR)/gen-stubs.py \
		$(B)/nvml/nvml.i $(B)/nvml/defined.txt $(NVML_EXPORTS_H100)
	$(call quiet,GEN,$@)$(NVML_DIR)/gen-stubs.py $(B)/nvml/nvml.i \
		$(B)/nvml/defined.txt $(NVML_EXPORTS_H100) $(B)/nvml/stubs.c \
		$(NVML_UNSUPPORTED)

# A stub names its parameters and uses none of them.
$(B)/nvml/stubs.o: $(B)/nvml/stubs.c $(NVML_DIR)/nvml_impl.h
	$(call quiet,CC,$@)$(CC) $(NVML_CFLAGS) -I$(NVML_DIR) \
		-Wno-unused-parameter -c $< -o $@

$(LIBNVML): $(NVML_OBJS) $(B)/nvml/stubs.o $(VSMI_LIB)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) -shared -Wl,-soname,libnvidia-ml.so.1 \
		$(USER_LDFLAGS) -o $@ $(NVML_OBJS) $(B)/nvml/stubs.o \
		$(VSMI_LIB) $(VSMI_LIBS) -lpthread
	@ln -sf libnvidia-ml.so.1 $(B)/lib/libnvidia-ml.so

# The probe of tests/nvml: the same source ran on an H100 against NVIDIA's.
$(NVML_PROBE): $(TOP)/tests/nvml/nvml-probe.c $(LIBNVML)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) $(USER_CFLAGS) -I$(NVML_INC) -o $@ $< \
		$(USER_LDFLAGS) -L$(B)/lib -lnvidia-ml

# A CUDA program holding device memory, for the NVML clients to see (our
# libcudart.so.13, as the test runs it with LD_LIBRARY_PATH=build/lib).
$(NVML_HOLDER): $(TOP)/tests/nvml/nvml-holder.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SHARED_NVCC_FLAGS) -o $@ $<

.PHONY: nvml
nvml: $(LIBNVML) $(NVML_UNSUPPORTED) $(NVML_PROBE) $(NVML_HOLDER)
ALL_TARGETS += $(LIBNVML) $(NVML_UNSUPPORTED) $(NVML_PROBE) $(NVML_HOLDER)
