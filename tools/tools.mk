# SPDX-License-Identifier: MIT
# Tools: the test VM (tools/vcuda-vm) and, later, vcuda-smi.
