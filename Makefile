# SPDX-License-Identifier: MIT
#
# vcuda top-level build. Userspace objects go to build/; the kernel module
# is built by Kbuild (see Kbuild and kernel/Kbuild) into kernel/vcuda.ko.
#
#   make            build the module, the libraries, the tools and the tests
#   make deps       install what the build and the test VM need (apt-get)
#   make run        build, boot the VM, load the module, run the samples
#   make test       build and run every test; ends with "N passed, N failed"
#   make bench      run the benchmarks, writing numbers to build/bench/
#
# Each directory adds its rules in a fragment included below.

.DEFAULT_GOAL := all
SHELL := /bin/bash
.DELETE_ON_ERROR:

TOP := $(CURDIR)
B := $(TOP)/build
CUDA_HOME ?= /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc

# Kernel headers: the newest installed Debian 6.12 build, the one the test
# VM boots. On your own machine: make KDIR=/lib/modules/$(uname -r)/build
KDIR ?= $(shell $(TOP)/tools/kernel-version --kdir)

CC := gcc
USER_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC \
	-D_GNU_SOURCE -fvisibility=hidden \
	-I$(TOP)/uapi -I$(CUDA_HOME)/include \
	$(shell pkg-config --cflags libdrm)
USER_LDFLAGS := -Wl,--as-needed -Wl,-z,defs -Wl,-z,now

# Sample programs and API tests are built as cuda-samples' CMake builds
# them: separable compilation, an sm_75 target that also carries PTX, and
# NVIDIA's static runtime (nvcc's and CMake's default), which reaches our
# libcuda.so.1 through cuGetProcAddress. Each is built a second time
# against our libcudart.so.13 (SHARED_NVCC_FLAGS), into a *-shared
# directory, and both run in the tests.
SAMPLE_NVCC_FLAGS := -rdc=true \
	-gencode arch=compute_75,code=[compute_75,sm_75] -O2
SHARED_NVCC_FLAGS := $(SAMPLE_NVCC_FLAGS) -cudart shared

# Quiet rules: "  CC      libcuda/foo.o"; make V=1 prints the commands.
quiet = $(if $(V),,@printf '  %-7s %s\n' '$(1)' '$(patsubst $(TOP)/%,%,$(2))';)

ALL_TARGETS :=
TEST_TARGETS :=
CLEAN_DIRS := $(B)

include tools/deps.mk
include kernel/kernel.mk
include libcuda/ptx/ptx.mk
include libcuda/libcuda.mk
include libcudart/libcudart.mk
include nvjitlink/nvjitlink.mk
include tools/tools.mk
include tests/tests.mk

.PHONY: all clean
all: $(ALL_TARGETS)

clean:
	rm -rf $(CLEAN_DIRS)
	$(MAKE) -C $(KDIR) M=$(TOP) clean >/dev/null 2>&1 || true

# The README's two commands.
.PHONY: run test
# Each first installs what is missing, then builds in a fresh make so that
# KDIR is found once the kernel headers are there, on every CPU unless
# make was given -j (JOBS=N to choose).
JOBS ?= $(if $(filter -j%,$(MAKEFLAGS)),,$(shell nproc))
BUILD_ALL = $(MAKE) --no-print-directory $(if $(JOBS),-j$(JOBS)) all
run:
	@$(MAKE) --no-print-directory deps
	@$(BUILD_ALL)
	tools/vcuda-vm --param num_devices=$(or $(NUM_DEVICES),1) -- tools/vm/demo.sh

test:
	@$(MAKE) --no-print-directory deps
	@$(BUILD_ALL)
	HOST_TESTS="$(HOST_TESTS)" tests/run-tests
