# SPDX-License-Identifier: MIT
# The kernel module: kernel/vcuda.ko, built by Kbuild against $(KDIR).
# (owned by the kernel work; see kernel/Kbuild)
