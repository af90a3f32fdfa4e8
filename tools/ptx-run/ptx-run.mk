# SPDX-License-Identifier: MIT
# ptx-run: host harness running a kernel on the PTX interpreter with
# plain host buffers (no driver). Built to $(PTX_RUN).

PTX_RUN_DIR := $(TOP)/tools/ptx-run
PTX_RUN := $(B)/bin/ptx-run
PTX_RUN_OBJS := $(patsubst $(PTX_RUN_DIR)/%.c,$(B)/tools/ptx-run/%.o,\
	$(wildcard $(PTX_RUN_DIR)/*.c))

$(B)/tools/ptx-run/%.o: $(PTX_RUN_DIR)/%.c $(PTX_RUN_DIR)/ptx-run.h \
		$(wildcard $(PTX_DIR)/*.h) | $(B)/tools/ptx-run/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(PTX_DIR) -c $< -o $@

$(B)/tools/ptx-run/ $(B)/bin/:
	@mkdir -p $@

$(PTX_RUN): $(PTX_RUN_OBJS) $(PTX_LIB) | $(B)/bin/
	$(call quiet,LD,$@)$(CC) $(USER_LDFLAGS) -o $@ $(PTX_RUN_OBJS) $(PTX_LIB) $(PTX_LIBS) \
		-lpthread

.PHONY: ptx-run
ptx-run: $(PTX_RUN)

ALL_TARGETS += $(PTX_RUN)
