# SPDX-License-Identifier: MIT
# Tools: the test VM (tools/vcuda-vm, a script) and ptx-run, which runs a
# PTX kernel on the interpreter with host memory.

include $(TOP)/tools/ptx-run/ptx-run.mk
