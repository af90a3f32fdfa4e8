# SPDX-License-Identifier: MIT
# The PTX path: fatbin reader, parser, IR, linker, interpreter.
# Produces $(PTX_LIB), a static archive linked into libcuda.so.1
# (with -lzstd -llz4).
#
#   make ptx          build $(PTX_LIB) only

PTX_DIR := $(TOP)/libcuda/ptx
PTX_LIB := $(B)/libcuda/ptx/libptx.a
# The JIT (jit*.c) is built on LLVM 14's C API (Debian's llvm-14-dev).
LLVM_CONFIG ?= llvm-config-14
PTX_LLVM_CFLAGS := -isystem $(shell $(LLVM_CONFIG) --includedir)
PTX_LLVM_LIBS := -L$(shell $(LLVM_CONFIG) --libdir) -lLLVM-14
PTX_LIBS := -lzstd -llz4 -lm $(PTX_LLVM_LIBS)
PTX_SRCS := $(wildcard $(PTX_DIR)/*.c)
PTX_OBJS := $(patsubst $(PTX_DIR)/%.c,$(B)/libcuda/ptx/%.o,$(PTX_SRCS))

# Directed rounding modes (add.rz, cvt.rm, ...) switch the FPU rounding
# mode around plain C arithmetic: those files must not let the compiler
# fold or move floating-point operations across fesetround.
PTX_FENV_CFLAGS := -frounding-math -fno-fast-math
# Handlers loop over the 32 lanes of a warp: let -O2 vectorise them.
PTX_VEC_CFLAGS := -fvect-cost-model=dynamic

$(B)/libcuda/ptx/%.o: $(PTX_DIR)/%.c $(wildcard $(PTX_DIR)/*.h) | $(B)/libcuda/ptx/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) $(PTX_FENV_CFLAGS) $(PTX_VEC_CFLAGS) \
		$(PTX_TWICE_CFLAGS) $(PTX_LLVM_CFLAGS) -c $< -o $@

# The integer, move, compare, memory and float handlers are built twice on
# x86-64: for the baseline and with AVX2 (their lane loops twice as
# wide); lower.c picks where the host has AVX2. Not -mfma: the compiler
# would fuse multiplies and adds.
PTX_WIDE := $(if $(filter x86_64%,$(shell $(CC) -dumpmachine)),\
	exec_int exec_mov exec_cmp exec_mem exec_float)
PTX_AVX2_CFLAGS := -mavx2 -ffp-contract=off -DPTX_AVX2
# what tells lower.c the second builds are there (the one condition)
PTX_TWICE_CFLAGS := $(if $(PTX_WIDE),-DPTX_AVX2_BUILD)
PTX_OBJS += $(patsubst %,$(B)/libcuda/ptx/%.avx2.o,$(PTX_WIDE))

$(B)/libcuda/ptx/%.avx2.o: $(PTX_DIR)/%.c $(wildcard $(PTX_DIR)/*.h) | \
		$(B)/libcuda/ptx/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) $(PTX_FENV_CFLAGS) $(PTX_VEC_CFLAGS) \
		$(PTX_AVX2_CFLAGS) $(PTX_LLVM_CFLAGS) -c $< -o $@

$(B)/libcuda/ptx/:
	@mkdir -p $@

$(PTX_LIB): $(PTX_OBJS)
	@rm -f $@
	$(call quiet,AR,$@)ar rcs $@ $^

.PHONY: ptx
ptx: $(PTX_LIB)

ALL_TARGETS += $(PTX_LIB)
