# SPDX-License-Identifier: MIT
# libcudart.so.13: the CUDA runtime API over libcuda.
