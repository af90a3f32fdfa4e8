# SPDX-License-Identifier: MIT
# The kernel module: kernel/vcuda.ko, built by Kbuild against $(KDIR).
#
#   make module         kernel/vcuda.ko against $(KDIR)
#   make module-check   the module against every installed 6.12 kernel,
#                       each in its own tree under build/module-check/,
#                       failing on any warning
#   make checkpatch     checkpatch --strict over kernel/ and the uAPI, and
#                       kernel-doc -Wall over kernel/
#
# API differences between kernels are found by compiling the snippets of
# kernel/compat/ against the kernel (kernel/compat/gen-compat.sh), which
# writes build/kernel/<headers dir>/vcuda_compat_gen.h.

KERNEL_DIR := $(TOP)/kernel
KERNEL_SRCS := $(wildcard $(KERNEL_DIR)/*.c $(KERNEL_DIR)/*.h) \
	$(KERNEL_DIR)/Kbuild $(TOP)/Kbuild $(TOP)/uapi/vcuda_drm.h
KERNEL_PROBES := $(wildcard $(KERNEL_DIR)/compat/*.c) \
	$(KERNEL_DIR)/compat/gen-compat.sh
KERNEL_GEN := $(B)/kernel/$(notdir $(KDIR))

.PHONY: module module-check checkpatch
ALL_TARGETS += module

$(KERNEL_GEN)/vcuda_compat_gen.h: $(KERNEL_PROBES)
	@mkdir -p $(@D)
	$(KERNEL_DIR)/compat/gen-compat.sh $(KDIR) $@

module: $(KERNEL_GEN)/vcuda_compat_gen.h
	$(MAKE) -C $(KDIR) M=$(TOP) VCUDA_TOP=$(TOP) VCUDA_GEN=$(KERNEL_GEN) \
		VCUDA_WERROR=y modules

module-check:
	$(KERNEL_DIR)/module-check.sh $(TOP) $(B)/module-check \
		$$($(TOP)/tools/kernel-version --all-kdirs)

CHECKPATCH := $(KSRC)/scripts/checkpatch.pl --strict --no-tree --file --quiet
CHECKPATCH_FILES := $(filter-out %.mod.c,$(wildcard $(KERNEL_DIR)/*.[ch]))
# -none checks the comments without printing documentation; kernel-doc
# only warns, so any line it writes fails the target.
KERNEL_DOC := $(KSRC)/scripts/kernel-doc -none -Wall

# checkpatch exempts include/uapi/ from BIT_MACRO (BIT() is not exported
# to userspace); our uAPI header lives in uapi/, so say so explicitly.
checkpatch: $(KSRC)/.stamp
	$(CHECKPATCH) $(CHECKPATCH_FILES)
	$(CHECKPATCH) --ignore BIT_MACRO $(TOP)/uapi/vcuda_drm.h
	@out=$$($(KERNEL_DOC) $(CHECKPATCH_FILES) $(TOP)/uapi/vcuda_drm.h 2>&1); \
	if [ -n "$$out" ]; then echo "$$out"; exit 1; fi
