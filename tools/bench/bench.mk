# SPDX-License-Identifier: MIT
# The interpreter's benchmark (tools/bench/): lane-instructions per second
# and time per kernel on one core, against the same algorithms in C
# compiled with -O3, in one run. Part of make bench; results, as numbers,
# in build/bench/interp.tsv.
#
#   make bench-interp

IBENCH_DIR := $(TOP)/tools/bench
IBENCH_OUT := $(B)/bench/interp
IBENCH := $(IBENCH_OUT)/interp-bench
IBENCH_PTX := $(IBENCH_OUT)/kernels.sm75.ptx

$(IBENCH_OUT)/:
	@mkdir -p $@

# -fmad=false: the kernels' float arithmetic as written, like the C's.
$(IBENCH_PTX): $(IBENCH_DIR)/kernels.cu | $(IBENCH_OUT)/
	$(call quiet,NVCC,$@)$(NVCC) -O3 -fmad=false -ptx -arch=compute_75 $< -o $@

$(IBENCH_OUT)/baseline.o: $(IBENCH_DIR)/baseline.c $(IBENCH_DIR)/baseline.h \
		| $(IBENCH_OUT)/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -O3 -c $< -o $@

$(IBENCH_OUT)/interp_bench.o: $(IBENCH_DIR)/interp_bench.c \
		$(IBENCH_DIR)/baseline.h $(wildcard $(PTX_DIR)/*.h) | \
		$(IBENCH_OUT)/
	$(call quiet,LD,$@)$(CC) $(USER_CFLAGS) -std=gnu11 -I$(PTX_DIR) \
		-DBENCH_PTX='"$(IBENCH_PTX)"' -c $< -o $@

$(IBENCH): $(IBENCH_OUT)/interp_bench.o $(IBENCH_OUT)/baseline.o $(PTX_LIB) \
		| $(IBENCH_PTX)
	$(call quiet,LD,$@)$(CC) $(USER_LDFLAGS) -o $@ $^ $(PTX_LIBS) -lpthread

.PHONY: bench-interp
bench-interp: $(IBENCH) $(IBENCH_PTX)
	@$(IBENCH) $(B)/bench/interp.tsv

ALL_TARGETS += $(IBENCH) $(IBENCH_PTX)

# The executor benchmark (tools/bench/exec_bench.c): the six kernels of
# six.cu on the JIT and the interpreter, on one and on every worker,
# against six_c.c built as a C programmer builds for speed and six.cl on
# PoCL; cold and warm module loads (the JIT's disk cache). Numbers in
# build/bench/executors.tsv; the first launches of a module's kernels
# (every kernel compiled at the first, waiting or not) in
# build/bench/first_launch.tsv.
#
#   make bench-exec
EBENCH_OUT := $(B)/bench/exec
EBENCH := $(EBENCH_OUT)/exec-bench
EBENCH_PTX := $(EBENCH_OUT)/six.sm75.ptx

$(EBENCH_OUT)/:
	@mkdir -p $@

$(EBENCH_PTX): $(IBENCH_DIR)/six.cu | $(EBENCH_OUT)/
	$(call quiet,NVCC,$@)$(NVCC) -O3 -ptx -arch=compute_75 $< -o $@

$(EBENCH_OUT)/six_c.o: $(IBENCH_DIR)/six_c.c $(IBENCH_DIR)/six_c.h | \
		$(EBENCH_OUT)/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -O3 -march=native -fopenmp \
		-c $< -o $@

EBENCH_POCL := $(EBENCH_OUT)/pocl-bench

$(EBENCH_OUT)/six_cl.o $(EBENCH_OUT)/six_data.o $(EBENCH_OUT)/pocl_bench.o: \
		$(EBENCH_OUT)/%.o: $(IBENCH_DIR)/%.c $(IBENCH_DIR)/six_cl.h \
		$(IBENCH_DIR)/six_data.h $(IBENCH_DIR)/six_c.h | $(EBENCH_OUT)/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -c $< -o $@

$(EBENCH_OUT)/exec_bench.o: $(IBENCH_DIR)/exec_bench.c $(IBENCH_DIR)/six_c.h \
		$(IBENCH_DIR)/six_data.h $(wildcard $(PTX_DIR)/*.h) | \
		$(EBENCH_OUT)/
	$(call quiet,CC,$@)$(CC) $(USER_CFLAGS) -I$(PTX_DIR) $(PTX_LLVM_CFLAGS) \
		-fopenmp -DBENCH_SIX_PTX='"$(EBENCH_PTX)"' \
		-DBENCH_POCL='"$(EBENCH_POCL)"' \
		-DBENCH_SIX_CL='"$(IBENCH_DIR)/six.cl"' -c $< -o $@

$(EBENCH): $(EBENCH_OUT)/exec_bench.o $(EBENCH_OUT)/six_c.o \
		$(EBENCH_OUT)/six_data.o $(PTX_LIB) | $(EBENCH_PTX) $(EBENCH_POCL)
	$(call quiet,LD,$@)$(CC) $(USER_LDFLAGS) -fopenmp -o $@ $^ $(PTX_LIBS) \
		-lpthread

# PoCL (pocl-opencl-icd) through the ICD loader (ocl-icd-opencl-dev), in a
# process without vcuda's LLVM: PoCL brings another.
$(EBENCH_POCL): $(EBENCH_OUT)/pocl_bench.o $(EBENCH_OUT)/six_cl.o \
		$(EBENCH_OUT)/six_data.o $(EBENCH_OUT)/six_c.o
	$(call quiet,LD,$@)$(CC) $(USER_LDFLAGS) -fopenmp -o $@ $^ -lOpenCL -lm

.PHONY: bench-exec
bench-exec: $(EBENCH) $(EBENCH_PTX)
	@$(EBENCH) $(B)/bench/executors.tsv
	@$(EBENCH) --first-launch $(B)/bench/first_launch.tsv

ALL_TARGETS += $(EBENCH) $(EBENCH_PTX) $(EBENCH_POCL)
