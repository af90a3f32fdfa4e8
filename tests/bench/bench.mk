# SPDX-License-Identifier: MIT
# Benchmarks (make bench): the interpreter on one core against C -O3
# (tools/bench, build/bench/interp.tsv), then tests/bench/run-bench: the
# executor on the host and the whole stack in the VM
# (build/bench/results.tsv).

BENCH_OUT := $(B)/bench
BENCH_PTX := $(BENCH_OUT)/kernels.sm75.ptx
BENCH_VM := $(BENCH_OUT)/vm_bench

$(BENCH_PTX): $(TOP)/tests/bench/kernels.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) -O2 -rdc=true -ptx -arch=compute_75 $< -o $@

$(BENCH_VM): $(TOP)/tests/bench/vm_bench.cu
	@mkdir -p $(@D)
	$(call quiet,NVCC,$@)$(NVCC) $(SAMPLE_NVCC_FLAGS) -o $@ $<

ALL_TARGETS += $(BENCH_PTX) $(BENCH_VM)

.PHONY: bench
bench:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory bench-interp
	$(TOP)/tests/bench/run-bench
