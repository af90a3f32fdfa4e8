#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Runs in the test VM with vcuda.ko loaded: the uAPI tests, the API
# conformance tests, the samples and the admin tools. Prints TAP; see
# tests/lib/tap.sh. tests/run-tests boots one VM for each part
# (guest-tests.sh PART, PART one of kselftests, api, graph_cond, tools,
# python); with
# no argument all run in this VM.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
B=build
part=${1:-all}

kselftests() {
	# vcuda_unplug_test unbinds a device: tests/vm/module-reload.sh runs it.
	for t in $B/tests/kselftest/*; do
		[ "$(basename "$t")" = vcuda_unplug_test ] && continue
		[ -x "$t" ] && run_tap "kselftest $(basename "$t")" "$t"
	done
}

api_tests() {
	for name in driver_api runtime_api stream_api limits_api link_api link_log_api \
		link_forms_api memory_api \
		peer_api ipc_api vmm_api mempool_api ctx_api legacy_api library_api \
		warp_api texture_api alloc_api occupancy_api algorithms_api \
		mipmap_api attr_api ptds_api ptds_api_pt \
		cdp_api cdp1_api shared_window_api; do
		run_check "api $name matches the H100" tests/api/compare.sh $name
	done
	# The same CUDA tests built against our libcudart.
	for name in runtime_api stream_api limits_api memory_api peer_api ipc_api \
		vmm_api mempool_api ctx_api legacy_api library_api \
		warp_api texture_api alloc_api occupancy_api algorithms_api \
		mipmap_api attr_api ptds_api ptds_api_pt \
		cdp_api cdp1_api; do
		run_check "api $name (shared cudart) matches the H100" \
			tests/api/compare.sh $name build/tests/api-shared
	done
	run_check "cross-device stream waits" env LD_LIBRARY_PATH=$B/lib \
		$B/tests/api-shared/cross_device_wait
	run_check "a forked child gets CUDA_ERROR_NOT_INITIALIZED" \
		env LD_LIBRARY_PATH=$B/lib $B/tests/api/fork_api
	run_check "api nvjitlink_api matches NVIDIA's libnvJitLink" \
		tests/api/compare.sh nvjitlink_api
	run_check "a kernel linked from LTO-IR by nvJitLink runs" \
		env LD_LIBRARY_PATH=$B/lib $B/tests/api/nvjitlink_launch_api
	run_check "numba's grid-group link: PTX and libcudadevrt.a" \
		env LD_LIBRARY_PATH=$B/lib $B/tests/api/devrt_cg_link_api
	run_check "user objects" env LD_LIBRARY_PATH=$B/lib \
		$B/tests/api/user_object_api
	# Freed memory overwritten, so that a walk of a freed stream crashes.
	run_check "streams destroyed while other threads synchronize" \
		env LD_LIBRARY_PATH=$B/lib \
		GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.perturb=165 \
		$B/tests/api/stream_race_api
	run_check "streams destroyed while another thread's call uses them" \
		env LD_LIBRARY_PATH=$B/lib \
		GLIBC_TUNABLES=glibc.malloc.tcache_count=0:glibc.malloc.perturb=165 \
		$B/tests/api/stream_use_race_api
	run_check "a stream's priority set after its creation" \
		env LD_LIBRARY_PATH=$B/lib $B/tests/api/stream_priority_api
	run_check "the context and device a stream belongs to (as the H200)" \
		tests/api/compare.sh stream_owner_api
	run_check "frees outside the allocating context (as the H200)" \
		tests/api/compare.sh free_owner_api
}

tools_and_samples() {
	run_tap "vcuda-smi" tests/smi/run-smi-tests.sh
	run_tap "libnvidia-ml.so.1 and its clients" tests/nvml/run-nvml-tests.sh
	tests/vm/run-samples.sh
}

# A conditional node runs its body inside one host step on the stream
# (libcuda/graph_cond.c), so a whole WHILE loop is one job: under TCG it
# may outlast the api VM's job_timeout_ms, as no job of a GPU would.
graph_cond_tests() {
	run_check "api graph_cond_api matches the H100" \
		tests/api/compare.sh graph_cond_api
	run_check "api graph_cond_api (shared cudart) matches the H100" \
		tests/api/compare.sh graph_cond_api build/tests/api-shared
}

case $part in
kselftests) kselftests ;;
api) api_tests ;;
graph_cond) graph_cond_tests ;;
tools) tools_and_samples ;;
python) tests/python/run-python-tests.sh ;;
all) kselftests; api_tests; graph_cond_tests; tools_and_samples; tests/python/run-python-tests.sh ;;
*) echo "usage: $0 [kselftests|api|graph_cond|tools|python]" >&2; exit 2 ;;
esac
