# SPDX-License-Identifier: MIT
#
# Sourced by the CUDA Python scripts in the checkout's root: the venv of
# tools/numba/requirements.txt, our libcuda.so.1 and libnvJitLink.so.13
# ahead of any other, the toolkit whose NVVM and libdevice numba compiles
# with (and whose nvJitLink ours calls for LTO-IR), and tests/python/site
# (see its sitecustomize.py).
PY=build/numba/bin/python
export LD_LIBRARY_PATH=$PWD/build/lib
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PYTHONPATH=$PWD/tests/python/site${PYTHONPATH:+:$PYTHONPATH}
# cuobjdump, which numba runs on fatbins and objects it links with LTO.
for bin in "$PWD"/build/numba/lib/python3*/site-packages/nvidia/cu13/bin; do
	[ -d "$bin" ] && export PATH=$bin:$PATH
done
# numba-cuda's tests that link prebuilt binaries find them here (built by
# make numba-bins, which make numba-test runs; they skip without it).
if [ -d "$PWD/build/numba-bins" ]; then
	export NUMBA_CUDA_TEST_BIN_DIR=$PWD/build/numba-bins
fi
