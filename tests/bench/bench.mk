# SPDX-License-Identifier: MIT
# Benchmarks (make bench): the JIT and the interpreter against C -O3
# -march=native -fopenmp on six kernels (tools/bench/exec_bench.c,
# build/bench/executors.tsv), the interpreter's lane-instruction rates
# (build/bench/interp.tsv), then tests/bench/run-bench: the
# executor on the host and the whole stack in the VM
# (build/bench/results.tsv).

BENCH_OUT := $(B)/bench
BENCH_VM := $(BENCH_OUT)/vm_bench

$(BENCH_VM): $(TOP)/tests/bench/vm_bench.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $<

ALL_TARGETS += $(BENCH_VM)

.PHONY: bench
bench:
	@$(MAKE) --no-print-directory deps
	@$(BUILD_ALL)
	@$(MAKE) --no-print-directory bench-exec
	@$(MAKE) --no-print-directory bench-interp
	$(TOP)/tests/bench/run-bench
