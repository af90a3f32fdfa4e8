# SPDX-License-Identifier: MIT
# libcuda.so.1: the CUDA driver API over the vcuda DRM device, with the
# PTX path ($(PTX_LIB)) linked in.

LIBCUDA := $(B)/lib/libcuda.so.1
LIBCUDA_SRCS := $(wildcard $(TOP)/libcuda/*.c $(TOP)/libcuda/export/*.c)
LIBCUDA_OBJS := $(patsubst $(TOP)/%.c,$(B)/obj/%.o,$(LIBCUDA_SRCS))
LIBCUDA_CFLAGS := $(USER_CFLAGS) -I$(TOP)/libcuda -I$(TOP)/libcuda/export

$(B)/obj/libcuda/%.o: $(TOP)/libcuda/%.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(LIBCUDA_CFLAGS) -MMD -MP -c $< -o $@

# cuGetProcAddress's table and the per-thread-stream entry points, from
# the toolkit's headers (libcuda/export/gen-procaddr.py).
PROCADDR_GEN := $(TOP)/libcuda/export/gen-procaddr.py
$(B)/gen/procaddr_table.c: $(PROCADDR_GEN) $(CUDA_HOME)/include/cudaTypedefs.h
	@mkdir -p $(@D)
	$(call quiet,GEN,$@)python3 $< $(CUDA_HOME)/include >$@
$(B)/gen/per_thread.S: $(PROCADDR_GEN) $(CUDA_HOME)/include/cudaTypedefs.h
	@mkdir -p $(@D)
	$(call quiet,GEN,$@)python3 $< $(CUDA_HOME)/include --per-thread-stubs >$@
$(B)/obj/gen/procaddr_table.o: $(B)/gen/procaddr_table.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(LIBCUDA_CFLAGS) -Wno-builtin-declaration-mismatch -c $< -o $@
$(B)/obj/gen/per_thread.o: $(B)/gen/per_thread.S
	@mkdir -p $(@D)
	$(call quiet,AS,$@)$(CC) -c $< -o $@
LIBCUDA_OBJS += $(B)/obj/gen/procaddr_table.o $(B)/obj/gen/per_thread.o

$(LIBCUDA): $(LIBCUDA_OBJS) $(PTX_LIB)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) -shared -Wl,-soname,libcuda.so.1 $(USER_LDFLAGS) -o $@ \
		$(LIBCUDA_OBJS) $(PTX_LIB) -ldrm -lzstd -llz4 -lpthread -lm \
		$(PTX_LLVM_LIBS)
	@ln -sf libcuda.so.1 $(B)/lib/libcuda.so

-include $(LIBCUDA_OBJS:.o=.d)

.PHONY: libcuda
libcuda: $(LIBCUDA)
ALL_TARGETS += $(LIBCUDA)
