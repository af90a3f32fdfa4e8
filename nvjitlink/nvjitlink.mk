# SPDX-License-Identifier: MIT
# libnvJitLink.so.13: NVIDIA's nvJitLink API linking for vcuda (PTX link
# images, LTO-IR through NVIDIA's library), over libcuda's link set.

LIBNVJITLINK := $(B)/lib/libnvJitLink.so.13
LIBNVJITLINK_SRCS := $(wildcard $(TOP)/nvjitlink/*.c)
LIBNVJITLINK_OBJS := $(patsubst $(TOP)/%.c,$(B)/obj/%.o,$(LIBNVJITLINK_SRCS)) \
	$(B)/obj/libcuda/link_set.o $(B)/obj/libcuda/file.o

$(B)/obj/nvjitlink/%.o: $(TOP)/nvjitlink/%.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(TOP)/libcuda -MMD -MP -c $< -o $@

$(LIBNVJITLINK): $(LIBNVJITLINK_OBJS) $(PTX_LIB) $(TOP)/nvjitlink/libnvJitLink.map
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(CC) -shared -Wl,-soname,libnvJitLink.so.13 $(USER_LDFLAGS) \
		-Wl,--version-script=$(TOP)/nvjitlink/libnvJitLink.map -o $@ \
		$(LIBNVJITLINK_OBJS) $(PTX_LIB) -lzstd -llz4 -lpthread -lm -ldl \
		$(PTX_LLVM_LIBS)
	@ln -sf libnvJitLink.so.13 $(B)/lib/libnvJitLink.so

-include $(LIBNVJITLINK_OBJS:.o=.d)

.PHONY: libnvjitlink
libnvjitlink: $(LIBNVJITLINK)
ALL_TARGETS += $(LIBNVJITLINK)
