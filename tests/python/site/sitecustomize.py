# SPDX-License-Identifier: MIT
#
# Imported by Python at start-up when tests/python/site is on PYTHONPATH
# (tests/python/env.sh puts it there): NVIDIA's library finder answers
# that nvJitLink is not installed, as on a machine without it.
#
# Why: vcuda runs PTX, never SASS. With nvJitLink, numba-cuda compiles
# kernels to LTO-IR and cuda.core links them into an sm_XX cubin, machine
# code vcuda cannot run. Without it, both fall back to what they support
# for drivers without nvJitLink: numba hands PTX to the driver's cuLink*
# APIs, which vcuda implements.
import functools

import cuda.pathfinder as pathfinder

_HIDDEN = {"nvJitLink"}
_load = pathfinder.load_nvidia_dynamic_lib


@functools.wraps(_load)
def _load_but_hidden(libname):
    if libname in _HIDDEN:
        raise pathfinder.DynamicLibNotFoundError(
            f"lib{libname} is hidden on vcuda (tests/python/site)")
    return _load(libname)


pathfinder.load_nvidia_dynamic_lib = _load_but_hidden
