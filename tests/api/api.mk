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

$(B)/tests/api/link_api: $(TOP)/tests/api/link_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

# The JIT log sizes written back (recorded on an NVIDIA H200, driver
# 580.159.04, CUDA 13.0).
API_TESTS += $(B)/tests/api/link_log_api
$(B)/tests/api/link_log_api: $(TOP)/tests/api/link_log_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

# cuLinkAddFile with each binary form of link_forms_lib.cu (recorded on
# an NVIDIA H200, driver 580.159.04, CUDA 13.0.88, 2026-11-27): compute_75
# PTX beside sm_75 SASS, and sm_75 SASS alone.
LINK_FORMS := $(B)/tests/api/link_forms
LINK_FORMS_FILES := $(addprefix $(LINK_FORMS)/,lib.fatbin lib.o lib.a \
	lib.sm75.cubin lib.sass75.fatbin lib.sass75.o lib.sass75.a)
LINK_FORMS_PTX := -gencode arch=compute_75,code=[compute_75,sm_75]
LINK_FORMS_SASS := -gencode arch=compute_75,code=sm_75
API_TESTS += $(B)/tests/api/link_forms_api
$(B)/tests/api/link_forms_api: $(TOP)/tests/api/link_forms_api.c $(LIBCUDA) \
		$(LINK_FORMS_FILES)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -DLINK_FORMS_DIR='"$(LINK_FORMS)"' \
		-o $@ $< -L$(B)/lib -lcuda
LINK_FORMS_lib.fatbin := $(LINK_FORMS_PTX) -fatbin
LINK_FORMS_lib.o := $(LINK_FORMS_PTX) -dc
LINK_FORMS_lib.a := $(LINK_FORMS_PTX) -lib
LINK_FORMS_lib.sm75.cubin := $(LINK_FORMS_SASS) -cubin
LINK_FORMS_lib.sass75.fatbin := $(LINK_FORMS_SASS) -fatbin
LINK_FORMS_lib.sass75.o := $(LINK_FORMS_SASS) -dc
LINK_FORMS_lib.sass75.a := $(LINK_FORMS_SASS) -lib
$(LINK_FORMS_FILES): $(LINK_FORMS)/%: $(TOP)/tests/api/link_forms_lib.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)rm -f $@ && $(NVCC) -rdc=true -O2 \
		$(LINK_FORMS_$*) -o $@ $<

# nvJitLink: what each call returns (recorded with NVIDIA's
# libnvJitLink.so.13 of CUDA 13.0.88, which needs no GPU), and numba's use
# of it, a kernel linked from LTO-IR and launched (its own checks).
NVJITLINK_INPUTS := $(B)/tests/api/nvjitlink
NVJITLINK_INPUT_FILES := $(addprefix $(NVJITLINK_INPUTS)/,k.ltoir full.ltoir \
	ext.ptx ext.fatbin ext.cubin k.ptx ext.ltoir)
NVJITLINK_k.ltoir := -DKERNEL -dlto -ltoir -arch=sm_80
NVJITLINK_full.ltoir := -DWHOLE -dlto -ltoir -arch=sm_80
NVJITLINK_ext.ptx := -DEXT -ptx -arch=sm_80
NVJITLINK_ext.fatbin := -DEXT -fatbin -gencode arch=compute_80,code=[compute_80,sm_80]
NVJITLINK_ext.cubin := -DEXT -cubin -arch=sm_80
NVJITLINK_k.ptx := -DKERNEL -ptx -arch=sm_80
NVJITLINK_ext.ltoir := -DEXT -dlto -ltoir -arch=sm_80
$(NVJITLINK_INPUT_FILES): $(NVJITLINK_INPUTS)/%: $(TOP)/tests/api/nvjitlink_inputs.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)rm -f $@ && $(NVCC) -rdc=true -x cu \
		$(NVJITLINK_$*) -o $@ $<
API_TESTS += $(B)/tests/api/nvjitlink_api $(B)/tests/api/nvjitlink_launch_api
$(B)/tests/api/nvjitlink_api: $(TOP)/tests/api/nvjitlink_api.c $(LIBNVJITLINK) \
		$(NVJITLINK_INPUT_FILES)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -DNVJITLINK_INPUTS='"$(NVJITLINK_INPUTS)"' \
		-o $@ $< -L$(B)/lib -lnvJitLink
$(B)/tests/api/nvjitlink_launch_api: $(TOP)/tests/api/nvjitlink_launch_api.c \
		$(LIBNVJITLINK) $(LIBCUDA) $(NVJITLINK_INPUT_FILES)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -DNVJITLINK_INPUTS='"$(NVJITLINK_INPUTS)"' \
		-o $@ $< -L$(B)/lib -lnvJitLink -lcuda

# CUDA_VISIBLE_DEVICES (recorded on an NVIDIA H200 with one GPU).
API_TESTS += $(B)/tests/api/visible_devices_api
$(B)/tests/api/visible_devices_api: $(TOP)/tests/api/visible_devices_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

# Their own checks (exit 0 or 1): what NVIDIA documents, not a recording.
API_TESTS += $(B)/tests/api/fork_api $(B)/tests/api/user_object_api
$(B)/tests/api/fork_api: $(TOP)/tests/api/fork_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

$(B)/tests/api/user_object_api: $(TOP)/tests/api/user_object_api.c $(LIBCUDART)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda -lcudart \
		-lpthread

# numba-cuda's link inputs for a grid-group kernel: PTX calling the
# device runtime's cudaCG* functions, and libcudadevrt.a (its own check).
API_TESTS += $(B)/tests/api/devrt_cg_link_api
$(B)/tests/api/devrt_cg_link_api: $(TOP)/tests/api/devrt_cg_link_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) \
		-DCUDADEVRT='"$(CUDA_HOME)/lib64/libcudadevrt.a"' \
		-o $@ $< -L$(B)/lib -lcuda

API_TESTS += $(B)/tests/api/stream_race_api $(B)/tests/api/stream_priority_api \
	$(B)/tests/api/stream_use_race_api
$(B)/tests/api/stream_race_api: $(TOP)/tests/api/stream_race_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda -lpthread

$(B)/tests/api/stream_use_race_api: $(TOP)/tests/api/stream_use_race_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda -lpthread

$(B)/tests/api/stream_priority_api: $(TOP)/tests/api/stream_priority_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

API_TESTS += $(B)/tests/api/free_owner_api
$(B)/tests/api/free_owner_api: $(TOP)/tests/api/free_owner_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda -lpthread

API_TESTS += $(B)/tests/api/stream_owner_api
$(B)/tests/api/stream_owner_api: $(TOP)/tests/api/stream_owner_api.c $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -o $@ $< -L$(B)/lib -lcuda

# The CUDA tests, built twice: as nvcc builds by default (NVIDIA's static
# runtime, build/tests/api/) and against our libcudart (build/tests/api-shared/).
API_CU_TESTS := runtime_api stream_api limits_api memory_api legacy_api \
	peer_api ipc_api vmm_api mempool_api ctx_api library_api
API_TESTS += $(addprefix $(B)/tests/api/,library_api)
# Found by programs of issue 15.
API_CU_TESTS += texture_api alloc_api occupancy_api mipmap_api graph_cond_api
API_TESTS += $(addprefix $(B)/tests/api/,texture_api alloc_api occupancy_api mipmap_api \
	graph_cond_api)
# Dynamic parallelism: launches from the device need libcudadevrt, as
# on NVIDIA's stack (vcuda runs its functions itself).
API_CU_TESTS += cdp_api cdp1_api
API_TESTS += $(addprefix $(B)/tests/api/,cdp_api cdp1_api)
API_LIBS_cdp_api := -lcudadevrt
API_LIBS_cdp1_api := -lcudadevrt -DCUDA_FORCE_CDP1_IF_SUPPORTED \
	-D__CDPRT_SUPPRESS_SYNC_DEPRECATION_WARNING
# Found by numba's dynamic shared slices (issue 14). The executors' bound,
# not the runtime's: built only as nvcc builds by default.
API_TESTS += $(B)/tests/api/shared_window_api
API_TESTS += $(addprefix $(B)/tests/api-shared/,$(API_CU_TESTS))

# Tests that call the driver API too link libcuda (at run time
# LD_LIBRARY_PATH picks ours either way).
API_LIBS := -L$(B)/lib -lcuda
API_LIBS_legacy_api := -ldl
API_RUNTIME_ONLY := runtime_api stream_api limits_api

$(B)/tests/api/%: $(TOP)/tests/api/%.cu $(TOP)/tests/api/api_test.h $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $< \
		$(if $(filter $*,$(API_RUNTIME_ONLY)),,$(API_LIBS)) $(API_LIBS_$*)

$(B)/tests/api-shared/%: $(TOP)/tests/api/%.cu $(TOP)/tests/api/api_test.h $(LIBCUDA) $(LIBCUDART)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SHARED_NVCC_FLAGS) -o $@ $< \
		$(if $(filter $*,$(API_RUNTIME_ONLY)),,$(API_LIBS)) $(API_LIBS_$*)

# compute_80, as recorded: cooperative groups then reduce with redux.sync,
# whose member masks are part of the test.
API_TESTS += $(B)/tests/api/warp_api $(B)/tests/api-shared/warp_api
$(B)/tests/api/warp_api: $(TOP)/tests/api/warp_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) -rdc=true \
		-gencode arch=compute_80,code=compute_80 -O2 -o $@ $<
$(B)/tests/api-shared/warp_api: $(TOP)/tests/api/warp_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) -rdc=true \
		-gencode arch=compute_80,code=compute_80 -O2 -cudart shared -o $@ $<

# Issue 15 (recorded on an NVIDIA H200, driver 580.159.04, CUDA 13.0.88):
# attributes, and per-thread default streams, the latter also
# built with --default-stream per-thread (the _ptsz/_ptds entry points:
# ptds_api_pt.expected differs from ptds_api's where a synchronous copy
# runs on the per-thread stream instead of the legacy stream).
API_CU_TESTS += attr_api ptds_api
API_TESTS += $(addprefix $(B)/tests/api/,attr_api ptds_api ptds_api_pt)
API_TESTS += $(B)/tests/api-shared/attr_api $(B)/tests/api-shared/ptds_api \
	$(B)/tests/api-shared/ptds_api_pt
$(B)/tests/api/ptds_api_pt: $(TOP)/tests/api/ptds_api.cu $(TOP)/tests/api/api_test.h $(LIBCUDA)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) --default-stream per-thread \
		-o $@ $< $(API_LIBS)
$(B)/tests/api-shared/ptds_api_pt: $(TOP)/tests/api/ptds_api.cu $(TOP)/tests/api/api_test.h $(LIBCUDA) $(LIBCUDART)
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SHARED_NVCC_FLAGS) --default-stream per-thread \
		-o $@ $< $(API_LIBS)

# Needs two devices; its own check (the H100 machine has one GPU).
API_TESTS += $(B)/tests/api-shared/cross_device_wait

# Without -rdc (recorded with it; the results are the same).
API_TESTS += $(B)/tests/api/algorithms_api $(B)/tests/api-shared/algorithms_api
$(B)/tests/api/algorithms_api: $(TOP)/tests/api/algorithms_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) -gencode arch=compute_75,code=[compute_75,sm_75] -O2 \
		-Xcompiler -Wno-deprecated-declarations -o $@ $<
$(B)/tests/api-shared/algorithms_api: $(TOP)/tests/api/algorithms_api.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) -gencode arch=compute_75,code=[compute_75,sm_75] -O2 \
		-Xcompiler -Wno-deprecated-declarations -cudart shared -o $@ $<

ALL_TARGETS += $(API_TESTS)
