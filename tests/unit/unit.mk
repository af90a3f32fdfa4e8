# SPDX-License-Identifier: MIT
# Host unit tests of the PTX path (no VM, no device): fatbin reader,
# parser/printer/CFG, linker, interpreter. Each prints TAP. They read the
# corpus built by tests/ptx/corpus.mk.
#
#   make unit-tests       build them (and the corpus)
#   make run-unit-tests   build and run them

include $(TOP)/tests/ptx/corpus.mk

UNIT_DIR := $(TOP)/tests/unit
UNIT_OUT := $(B)/tests/unit
UNIT_NAMES := test_fatbin test_parse test_link test_exec test_census_ops \
	test_tex test_mma test_mma_shapes test_runtime test_census \
	test_jit_cache test_jit_parallel test_cdp test_numba_forms \
	test_jit_lanes test_hostobj test_fp8_cvt test_ir_shape test_devrt_cg \
	test_jit_coop test_reg_estimate test_vector_tear test_launch_oom \
	test_jit_turns
UNIT_TESTS := $(addprefix $(UNIT_OUT)/,$(UNIT_NAMES))
HOST_TESTS := $(UNIT_TESTS)
UNIT_COMMON := $(UNIT_OUT)/tap.o $(UNIT_OUT)/harness.o $(UNIT_OUT)/ref_ops.o \
	$(UNIT_OUT)/record.o
UNIT_CFLAGS := $(USER_CFLAGS) -frounding-math -I$(PTX_DIR) $(PTX_LLVM_CFLAGS) \
	-DCORPUS_DIR='"$(CORPUS_OUT)"' \
	-DEXPECTED_DIR='"$(CORPUS_SRC)/expected"' \
	-DHAND_DIR='"$(CORPUS_SRC)/hand"' \
	-DCENSUS_DIR='"$(CORPUS_SRC)/census"'

$(UNIT_OUT)/:
	@mkdir -p $@

$(UNIT_OUT)/%.o: $(UNIT_DIR)/%.c $(wildcard $(UNIT_DIR)/*.h) \
		$(wildcard $(PTX_DIR)/*.h) | $(UNIT_OUT)/
	$(call quiet,CC,$@)$(CC) $(UNIT_CFLAGS) -c $< -o $@

# The corpus is an order-only prerequisite: tests read it when they run.
$(UNIT_OUT)/test_%: $(UNIT_OUT)/test_%.o $(UNIT_COMMON) $(PTX_LIB) | \
		$(CORPUS_ALL)
	$(call quiet,LD,$@)$(CC) $(USER_LDFLAGS) -o $@ $< $(UNIT_COMMON) $(PTX_LIB) \
		$(PTX_LIBS) -lpthread

.SECONDARY: $(UNIT_COMMON) $(addsuffix .o,$(UNIT_TESTS))

.PHONY: unit-tests run-unit-tests
unit-tests: $(UNIT_TESTS)

# Every test on the JIT (VCUDA_EXECUTOR=jit: each launch waits for its
# kernel's compile, so that every kernel the JIT compiles runs compiled),
# then on the interpreter, the reference; test_exec once more on the
# interpreter's baseline handlers, which an x86-64 host with AVX2 (ptx.mk)
# would otherwise never run.
run-unit-tests: $(UNIT_TESTS)
	@fail=0; for t in $(UNIT_TESTS); do \
		echo "== $$t (VCUDA_EXECUTOR=jit)"; \
		VCUDA_EXECUTOR=jit $$t || fail=1; \
		echo "== $$t (VCUDA_EXECUTOR=interp)"; \
		VCUDA_EXECUTOR=interp $$t || fail=1; done; \
	echo "== test_exec (VCUDA_EXECUTOR=interp VCUDA_INTERP_NO_AVX2=1)"; \
	VCUDA_EXECUTOR=interp VCUDA_INTERP_NO_AVX2=1 $(UNIT_OUT)/test_exec || \
		fail=1; exit $$fail

ALL_TARGETS += $(UNIT_TESTS)
include $(TOP)/tests/ptx/gpu/gpu.mk
include $(TOP)/tests/fuzz/fuzz.mk
