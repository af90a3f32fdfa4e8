# SPDX-License-Identifier: MIT
# Ground truth from a real GPU (tests/ptx/expected/README.md says how it
# was recorded):
#
#   make ptx-record        run the unit tests, recording every launch and
#                          expectation into build/record/
#   make replay            build/gpu/replay, which replays build/record on
#                          an NVIDIA GPU (tests/ptx/gpu/record.sh runs it)
#   make replay-selftest   replay build/record on the interpreter through
#                          a mock driver; outputs must equal the tests' own

GPU_DIR := $(TOP)/tests/ptx/gpu
GPU_OUT := $(B)/gpu
REPLAY := $(GPU_OUT)/replay
REPLAY_MOCK := $(GPU_OUT)/replay-mock
RECORD_DIR := $(B)/record
REPLAY_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g \
	-I$(CUDA_HOME)/include -pthread

$(GPU_OUT)/:
	@mkdir -p $@

$(REPLAY): $(GPU_DIR)/replay.c | $(GPU_OUT)/
	$(CC) $(REPLAY_CFLAGS) $< -o $@ -L$(CUDA_HOME)/lib64/stubs -lcuda

$(REPLAY_MOCK): $(GPU_DIR)/replay.c $(GPU_DIR)/mock_cuda.c $(PTX_LIB) | \
		$(GPU_OUT)/
	$(CC) $(REPLAY_CFLAGS) -Wno-unused-parameter -I$(PTX_DIR) \
		$(GPU_DIR)/replay.c $(GPU_DIR)/mock_cuda.c -o $@ $(PTX_LIB) \
		$(PTX_LIBS) -lpthread

.PHONY: ptx-record replay replay-selftest
ptx-record: $(UNIT_TESTS)
	rm -rf $(RECORD_DIR) $(B)/record-results
	mkdir -p $(RECORD_DIR) $(B)/record-results
	@for t in $(UNIT_TESTS); do \
		PTX_RECORD=$(RECORD_DIR) PTX_WRITE_RESULTS=$(B)/record-results \
		$$t >/dev/null || true; done
	@echo "recorded: $$(grep -c '^launch' $(RECORD_DIR)/*.manifest | \
		awk -F: '{s += $$2} END {print s}') launches, $$(du -sh \
		$(RECORD_DIR) | cut -f1)"

replay: $(REPLAY)

replay-selftest: $(REPLAY_MOCK) ptx-record
	rm -rf $(GPU_OUT)/mock-out && mkdir -p $(GPU_OUT)/mock-out
	$(REPLAY_MOCK) $(RECORD_DIR) $(GPU_OUT)/mock-out 2>$(GPU_OUT)/mock.log
	$(GPU_DIR)/compare.sh $(GPU_OUT)/mock-out $(B)/record-results
