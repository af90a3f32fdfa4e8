# SPDX-License-Identifier: MIT
#
# Imported by Python at start-up when tests/python/site is on PYTHONPATH
# (tests/python/env.sh puts it there).
#
# Under TCG a fresh Python process takes longer than the 10 s that
# cuda.pathfinder's canary probe (a subprocess that finds the toolkit's
# root when a tool such as nvdisasm is not on its usual paths) allows, and
# the ChildProcessError stops numba-cuda's test loader. Same probe,
# patient. nvJitLink needs nothing here: vcuda's libnvJitLink.so.13 in
# build/lib, first on LD_LIBRARY_PATH, is the one cuda.pathfinder loads.
import functools
import os

import cuda.pathfinder as pathfinder
from cuda.pathfinder._dynamic_libs import load_nvidia_dynamic_lib as _libs

_probe = _libs._resolve_system_loaded_abs_path_in_subprocess


@functools.cache
def _probe_patiently(libname, *, timeout=None):
    return _probe.__wrapped__(libname, timeout=600)


_libs._resolve_system_loaded_abs_path_in_subprocess = _probe_patiently


# VCUDA_HIDE_NVJITLINK=1: cuda.pathfinder answers that nvJitLink is not
# installed, so that numba-cuda links PTX with the driver's cuLink*, as
# on a machine without nvJitLink (how the numba-cuda suite ran before
# vcuda had its own nvJitLink; docs/numba-suite.md).
if os.environ.get("VCUDA_HIDE_NVJITLINK") == "1":
    _load = pathfinder.load_nvidia_dynamic_lib

    @functools.wraps(_load)
    def _load_but_hidden(libname):
        if libname == "nvJitLink":
            raise pathfinder.DynamicLibNotFoundError(
                "libnvJitLink is hidden (VCUDA_HIDE_NVJITLINK=1)")
        return _load(libname)

    pathfinder.load_nvidia_dynamic_lib = _load_but_hidden
