# SPDX-License-Identifier: MIT
# vcuda-smi: nvidia-smi for the virtual GPUs ($(VCUDA_SMI)), built on
# vcuda's libnvidia-ml.so.1 (tools/nvml/nvml.mk, found through its rpath)
# and on the vsmi query library in tools/smi/ ($(VSMI_LIB): a static
# archive of PIC objects, which libnvidia-ml.so.1 is built on too), and
# the test load generator of tests/smi/ ($(SMI_LOAD)). Included from
# tools/tools.mk, before nvml.mk: NVML_INC is used in recipes only.

VSMI_DIR := $(TOP)/tools/smi
VSMI_LIB := $(B)/lib/libvsmi.a
# The ioctls go through libcuda's wrappers (libcuda/kmd.c), built in.
VSMI_OBJS := $(patsubst $(VSMI_DIR)/%.c,$(B)/tools/smi/%.o,\
	$(wildcard $(VSMI_DIR)/*.c)) $(B)/tools/smi/kmd.o
VSMI_LIBS := -lkmod -ldrm

VCUDA_SMI_DIR := $(TOP)/tools/vcuda-smi
VCUDA_SMI := $(B)/bin/vcuda-smi
VCUDA_SMI_OBJS := $(patsubst $(VCUDA_SMI_DIR)/%.c,$(B)/tools/vcuda-smi/%.o,\
	$(wildcard $(VCUDA_SMI_DIR)/*.c))

SMI_LOAD := $(B)/tests/smi/smi-load

$(B)/tools/smi/%.o: $(VSMI_DIR)/%.c $(VSMI_DIR)/vsmi.h $(TOP)/uapi/vcuda_drm.h \
		$(TOP)/libcuda/kmd.h
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(VSMI_DIR) -I$(TOP)/libcuda \
		-c $< -o $@

$(B)/tools/smi/kmd.o: $(TOP)/libcuda/kmd.c $(TOP)/libcuda/kmd.h \
		$(TOP)/uapi/vcuda_drm.h
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -c $< -o $@

$(VSMI_LIB): $(VSMI_OBJS)
	@mkdir -p $(@D)
	@rm -f $@
	$(call quiet,AR,$@)ar rcs $@ $^

$(B)/tools/vcuda-smi/%.o: $(VCUDA_SMI_DIR)/%.c $(wildcard $(VCUDA_SMI_DIR)/*.h) \
		$(VSMI_DIR)/vsmi.h $(TOP)/uapi/vcuda_drm.h
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(VSMI_DIR) -I$(NVML_INC) -c $< -o $@

$(VCUDA_SMI): $(VCUDA_SMI_OBJS) $(VSMI_LIB) $(B)/lib/libnvidia-ml.so.1
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) $(USER_LDFLAGS) -o $@ $(VCUDA_SMI_OBJS) \
		-L$(B)/lib -lnvidia-ml -Wl,-rpath,'$$ORIGIN/../lib' \
		$(VSMI_LIB) $(VSMI_LIBS)

# The test program: allocates and keeps the device busy with the raw uAPI.
$(SMI_LOAD): $(TOP)/tests/smi/smi-load.c $(TOP)/tests/kselftest/vcuda_test.h \
		$(TOP)/uapi/vcuda_drm.h
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) $(USER_CFLAGS) -I$(TOP)/tests/kselftest -o $@ $< \
		$(USER_LDFLAGS) -ldrm -lpthread

.PHONY: vcuda-smi
vcuda-smi: $(VCUDA_SMI) $(SMI_LOAD)
ALL_TARGETS += $(VCUDA_SMI) $(VSMI_LIB) $(SMI_LOAD)

# make build/bin/vcuda-smi, relative to the top, works too.
build/bin/vcuda-smi: $(VCUDA_SMI)
