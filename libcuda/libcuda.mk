# SPDX-License-Identifier: MIT
# libcuda.so.1: the CUDA driver API over the vcuda DRM device, with the
# PTX path ($(PTX_LIB)) linked in.

LIBCUDA := $(B)/lib/libcuda.so.1
LIBCUDA_SRCS := $(wildcard $(TOP)/libcuda/*.c)
LIBCUDA_OBJS := $(patsubst $(TOP)/%.c,$(B)/obj/%.o,$(LIBCUDA_SRCS))

$(B)/obj/libcuda/%.o: $(TOP)/libcuda/%.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(TOP)/libcuda -MMD -MP -c $< -o $@

$(LIBCUDA): $(LIBCUDA_OBJS) $(PTX_LIB)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) -shared -Wl,-soname,libcuda.so.1 $(USER_LDFLAGS) -o $@ \
		$(LIBCUDA_OBJS) $(PTX_LIB) -ldrm -lzstd -llz4 -lpthread -lm
	@ln -sf libcuda.so.1 $(B)/lib/libcuda.so

-include $(LIBCUDA_OBJS:.o=.d)

.PHONY: libcuda
libcuda: $(LIBCUDA)
ALL_TARGETS += $(LIBCUDA)
