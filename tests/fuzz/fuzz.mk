# SPDX-License-Identifier: MIT
# Fuzz targets of the PTX front end (tests/fuzz/): the parser and the
# fatbin reader, each run for a bounded time by the test suite under
# ASan and UBSan (with their own build of the PTX sources).
#
#   make fuzz-tests         build them
#   FUZZ_SECONDS=600 build/tests/fuzz/fuzz_ptx     a longer run
#   make fuzz-libfuzzer     the same targets under clang's libFuzzer

FUZZ_DIR := $(TOP)/tests/fuzz
FUZZ_OUT := $(B)/tests/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
FUZZ_CFLAGS := $(USER_CFLAGS) -O1 $(FUZZ_SAN) $(PTX_FENV_CFLAGS) \
	$(PTX_LLVM_CFLAGS) \
	-I$(PTX_DIR) -I$(FUZZ_DIR)
FUZZ_PTX_OBJS := $(patsubst $(PTX_DIR)/%.c,$(FUZZ_OUT)/ptx/%.o,$(PTX_SRCS)) \
	$(patsubst %,$(FUZZ_OUT)/ptx/%.avx2.o,$(PTX_WIDE))
# Seeds: the corpus's small PTX texts and its fatbins. Time: 30 s + 20 s.
FUZZ_TARGETS := fuzz_ptx fuzz_fatbin
FUZZ_SEEDS_fuzz_ptx := -DFUZZ_SEED_SUFFIXES='".ptx"' -DFUZZ_SEED_MAX=65536
FUZZ_SEEDS_fuzz_fatbin := -DFUZZ_SEED_SUFFIXES='".fatbin,hand.legacy.ptx"' \
	-DFUZZ_SEED_MAX=1048576
FUZZ_TIME_fuzz_ptx := 30
FUZZ_TIME_fuzz_fatbin := 20

$(FUZZ_OUT)/ $(FUZZ_OUT)/ptx/:
	@mkdir -p $@

$(FUZZ_OUT)/ptx/%.o: $(PTX_DIR)/%.c $(wildcard $(PTX_DIR)/*.h) | \
		$(FUZZ_OUT)/ptx/
	$(call quiet,CC,$@)$(CC) $(FUZZ_CFLAGS) $(PTX_TWICE_CFLAGS) -c $< -o $@

$(FUZZ_OUT)/ptx/%.avx2.o: $(PTX_DIR)/%.c $(wildcard $(PTX_DIR)/*.h) | \
		$(FUZZ_OUT)/ptx/
	$(call quiet,CC,$@)$(CC) $(FUZZ_CFLAGS) $(PTX_AVX2_CFLAGS) -c $< -o $@

$(FUZZ_OUT)/%.o: $(FUZZ_DIR)/%.c $(FUZZ_DIR)/fuzz.h | $(FUZZ_OUT)/
	$(call quiet,CC,$@)$(CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_OUT)/driver-%.o: $(FUZZ_DIR)/driver.c $(FUZZ_DIR)/fuzz.h | \
		$(FUZZ_OUT)/
	$(call quiet,LD,$@)$(CC) $(FUZZ_CFLAGS) -DFUZZ_SEED_DIR='"$(CORPUS_OUT)"' \
		$(FUZZ_SEEDS_$*) -DFUZZ_SECONDS_DEFAULT=$(FUZZ_TIME_$*) \
		-c $< -o $@

# The corpus is order-only: the seeds are read when the test runs.
$(FUZZ_OUT)/fuzz_%: $(FUZZ_OUT)/fuzz_%.o $(FUZZ_OUT)/driver-fuzz_%.o \
		$(FUZZ_PTX_OBJS) | $(CORPUS_ALL)
	$(call quiet,LD,$@)$(CC) $(FUZZ_SAN) -o $@ $^ $(PTX_LIBS) -lpthread

.SECONDARY: $(FUZZ_PTX_OBJS) $(FUZZ_OUT)/fuzz_ptx.o $(FUZZ_OUT)/fuzz_fatbin.o \
	$(FUZZ_OUT)/driver-fuzz_ptx.o $(FUZZ_OUT)/driver-fuzz_fatbin.o

FUZZ_TESTS := $(addprefix $(FUZZ_OUT)/,$(FUZZ_TARGETS))
HOST_TESTS += $(FUZZ_TESTS)
ALL_TARGETS += $(FUZZ_TESTS)

.PHONY: fuzz-tests fuzz-libfuzzer
fuzz-tests: $(FUZZ_TESTS)

# libFuzzer (clang): open-ended runs, e.g.
#   build/tests/fuzz/libfuzzer/fuzz_ptx -max_total_time=3600 build/tests/ptx
fuzz-libfuzzer: $(CORPUS_ALL)
	@mkdir -p $(FUZZ_OUT)/libfuzzer
	for t in $(FUZZ_TARGETS); do \
		clang -std=c11 -D_GNU_SOURCE -O1 -g \
			-fsanitize=fuzzer,address,undefined \
			$(PTX_FENV_CFLAGS) -I$(PTX_DIR) -I$(FUZZ_DIR) \
			$(FUZZ_DIR)/$$t.c $(PTX_SRCS) -o \
			$(FUZZ_OUT)/libfuzzer/$$t $(PTX_LIBS) -lpthread || \
			exit 1; \
	done

# The ioctl fuzzer of vcuda.ko (fuzz_ioctl.c): libFuzzer, coverage-guided,
# run in the test VM against the render node (as uid nobody in a 64 MiB
# memory cgroup, unless told root). Its target is the kernel, so the
# harness has no ASan: it runs three times faster. Its seed corpus is
# tests/fuzz/ioctl-corpus/. tests/vm/fuzz-ioctl.sh runs it: make test for
# 30 s (tests/run-tests), make stress for FUZZ_IOCTL_SECONDS. The VM has
# 64 MiB of device memory (bounded allocations) and a 200 ms job time-out
# (jobs the fuzzer leaves waiting on a semaphore fault their context),
# and runs with --debug (SLUB debugging, KFENCE: tools/vcuda-vm).
FUZZ_IOCTL := $(FUZZ_OUT)/libfuzzer/fuzz_ioctl
FUZZ_IOCTL_SRCS := $(FUZZ_DIR)/fuzz_ioctl.c $(FUZZ_DIR)/ioctl_cov.c
FUZZ_IOCTL_CC ?= clang-14

$(FUZZ_IOCTL): $(FUZZ_IOCTL_SRCS) $(FUZZ_DIR)/fuzz.mk $(FUZZ_DIR)/ioctl_cov.h \
		$(FUZZ_DIR)/fuzz.h $(TOP)/tests/kselftest/vcuda_test.h \
		$(TOP)/uapi/vcuda_drm.h
	@mkdir -p $(@D)
	$(call quiet,LD,$@)$(FUZZ_IOCTL_CC) -std=c11 -D_GNU_SOURCE -O1 -g \
		-Wall -Wextra -Werror -fsanitize=fuzzer \
		-I$(TOP)/uapi $(shell pkg-config --cflags libdrm) \
		$(FUZZ_IOCTL_SRCS) -o $@ -ldrm

ALL_TARGETS += $(FUZZ_IOCTL)
fuzz-tests: $(FUZZ_IOCTL)

FUZZ_IOCTL_SECONDS ?= 600
FUZZ_IOCTL_VM_PARAMS := --debug --param vram_mb=64 --param job_timeout_ms=200
stress: $(FUZZ_IOCTL)
