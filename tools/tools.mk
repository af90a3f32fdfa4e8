# SPDX-License-Identifier: MIT
# Tools: the test VM (tools/vcuda-vm, a script), ptx-run (a PTX kernel on
# the interpreter with host memory) and vcuda-smi (nvidia-smi for vcuda).

include $(TOP)/tools/ptx-run/ptx-run.mk
include $(TOP)/tools/vcuda-smi/vcuda-smi.mk
include $(TOP)/tools/nvml/nvml.mk
include $(TOP)/tools/bench/bench.mk
