# SPDX-License-Identifier: MIT
# API conformance tests: programs that print what each call returns; their
# expected output (tests/api/*.expected) was recorded on an NVIDIA H100.

API_TESTS := $(B)/tests/api/driver_api $(B)/tests/api/error_strings \
	$(B)/tests/api/stream_api $(B)/tests/api/limits_api \
	$(B)/tests/api/link_api $(B)/tests/api/memory_api \
	$(B)/tests/api/runtime_api $(B)/tests/api/peer_api \
	$(B)/tests/api/ipc_api $(B)/tests/api/vmm_api \
	$(B)/tests/api/mempool_api $(B)/tests/api/ctx_api \
	$(B)/tests/api/legacy_api

$(B)/tests/api/driver_api: $(TOP)/tests/api/driver_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

$(B)/tests/api/error_strings: $(TOP)/tests/api/error_strings.c $(LIBCUDART)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda -lcudart

$(B)/tests/api/runtime_api: $(TOP)/tests/api/runtime_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $<

ALL_TARGETS += $(API_TESTS)

$(B)/tests/api/stream_api: $(TOP)/tests/api/stream_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $<

$(B)/tests/api/limits_api: $(TOP)/tests/api/limits_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $<

$(B)/tests/api/link_api: $(TOP)/tests/api/link_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

$(B)/tests/api/memory_api: $(TOP)/tests/api/memory_api.cu $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -L$(B)/lib -lcuda -o $@ $<

$(B)/tests/api/legacy_api: $(TOP)/tests/api/legacy_api.cu $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -L$(B)/lib -lcuda -ldl -o $@ $<

# Multi-device and sharing tests: runtime and driver calls, two processes.
$(B)/tests/api/peer_api $(B)/tests/api/ipc_api $(B)/tests/api/vmm_api \
$(B)/tests/api/mempool_api $(B)/tests/api/ctx_api: \
		$(B)/tests/api/%: $(TOP)/tests/api/%.cu \
		$(TOP)/tests/api/api_test.h $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -L$(B)/lib -lcuda -o $@ $<
