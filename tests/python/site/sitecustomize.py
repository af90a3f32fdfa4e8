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


# Under TCG a fresh Python process takes longer than the 10 s that
# pathfinder's canary probe (a subprocess that finds the toolkit's root
# when a tool such as nvdisasm is not on its usual paths) allows, and the
# ChildProcessError stops numba-cuda's test loader. Same probe, patient.
from cuda.pathfinder._dynamic_libs import load_nvidia_dynamic_lib as _libs

_probe = _libs._resolve_system_loaded_abs_path_in_subprocess


@functools.cache
def _probe_patiently(libname, *, timeout=None):
    return _probe.__wrapped__(libname, timeout=600)


_libs._resolve_system_loaded_abs_path_in_subprocess = _probe_patiently
