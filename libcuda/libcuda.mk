# SPDX-License-Identifier: MIT
# libcuda.so.1: the CUDA driver API over the vcuda DRM device.
