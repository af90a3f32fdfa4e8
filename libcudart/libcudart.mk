# SPDX-License-Identifier: MIT
# libcudart.so.13: the CUDA runtime API over libcuda.so.1.

LIBCUDART := $(B)/lib/libcudart.so.13
LIBCUDART_SRCS := $(wildcard $(TOP)/libcudart/*.c)
LIBCUDART_OBJS := $(patsubst $(TOP)/%.c,$(B)/obj/%.o,$(LIBCUDART_SRCS))

$(B)/obj/libcudart/%.o: $(TOP)/libcudart/%.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

$(LIBCUDART): $(LIBCUDART_OBJS) $(TOP)/libcudart/libcudart.map $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) -shared -Wl,-soname,libcudart.so.13 $(USER_LDFLAGS) \
		-Wl,--version-script=$(TOP)/libcudart/libcudart.map -o $@ \
		$(LIBCUDART_OBJS) -L$(B)/lib -lcuda -lpthread
	@ln -sf libcudart.so.13 $(B)/lib/libcudart.so

-include $(LIBCUDART_OBJS:.o=.d)

.PHONY: libcudart
libcudart: $(LIBCUDART)
ALL_TARGETS += $(LIBCUDART)
