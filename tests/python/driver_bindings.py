# SPDX-License-Identifier: MIT
#
# NVIDIA's cuda.bindings.driver on vcuda: cuInit, the device count and
# name, a cuMemAlloc / cuMemcpyHtoD / cuMemcpyDtoH round trip, and an IPC
# handle's bytes as numba-cuda reads and writes them. Prints
# TAP; tests/python/run-python-tests.sh runs it in the VM.
import os
import sys

from cuda.bindings import driver

results = []


def check(what, ok, detail=""):
    results.append(ok)
    print(("ok" if ok else "not ok") + f" {len(results)} - {what}")
    if detail:
        print(f"#   {detail}")


def call(fn, *args):
    """Calls a driver function; returns (status, values) without raising."""
    out = fn(*args)
    return out[0], out[1:]


err, _ = call(driver.cuInit, 0)
check("cuInit(0) succeeds", err == driver.CUresult.CUDA_SUCCESS, str(err))

with open("/proc/self/maps") as maps:
    loaded = {line.split()[-1] for line in maps if "libcuda.so" in line}
ours = os.path.join(os.environ.get("LD_LIBRARY_PATH", ""), "libcuda.so.1")
check("the libcuda.so.1 loaded is vcuda's",
      {os.path.realpath(p) for p in loaded} == {os.path.realpath(ours)},
      " ".join(sorted(loaded)))

err, (version,) = call(driver.cuDriverGetVersion)
check("cuDriverGetVersion reports a CUDA 13 driver",
      err == driver.CUresult.CUDA_SUCCESS and version >= 13000, str(version))

err, (count,) = call(driver.cuDeviceGetCount)
check("cuDeviceGetCount finds at least one device",
      err == driver.CUresult.CUDA_SUCCESS and count >= 1, str(count))

err, (dev,) = call(driver.cuDeviceGet, 0)
err, (name,) = call(driver.cuDeviceGetName, 64, dev)
name = name.split(b"\0", 1)[0].decode()
check("cuDeviceGetName names device 0",
      err == driver.CUresult.CUDA_SUCCESS and len(name) > 0, name)

err, (ctx,) = call(driver.cuDevicePrimaryCtxRetain, dev)
check("cuDevicePrimaryCtxRetain", err == driver.CUresult.CUDA_SUCCESS,
      str(err))
err, _ = call(driver.cuCtxSetCurrent, ctx)

size = 1 << 20
pattern = bytes((i * 7 + 3) & 0xFF for i in range(size))
back = bytearray(size)
err, (dptr,) = call(driver.cuMemAlloc, size)
check("cuMemAlloc 1 MiB", err == driver.CUresult.CUDA_SUCCESS, str(err))
err1, _ = call(driver.cuMemcpyHtoD, dptr, pattern, size)
err2, _ = call(driver.cuMemcpyDtoH, back, dptr, size)
check("cuMemcpyHtoD then cuMemcpyDtoH gives the bytes back",
      err1 == err2 == driver.CUresult.CUDA_SUCCESS and bytes(back) == pattern,
      f"{err1} {err2}")
# numba-cuda 0.30.4 pickles an IPC handle as its .reserved bytes and sets
# them on a new handle in the other process; cuda-bindings 13.4 made the
# handles opaque, so tools/numba/requirements.txt pins 13.3.1.
err, (handle,) = call(driver.cuIpcGetMemHandle, dptr)
raw = getattr(handle, "reserved", None)
check("cuIpcGetMemHandle's handle shows its 64 bytes as .reserved",
      err == driver.CUresult.CUDA_SUCCESS and isinstance(raw, bytes) and
      len(raw) == 64 and any(raw), f"{err} {type(raw).__name__}")
rebuilt = driver.CUipcMemHandle()
if isinstance(raw, bytes):
    rebuilt.reserved = raw
check("an IPC handle rebuilt from those bytes holds them",
      isinstance(raw, bytes) and bytes(rebuilt.reserved) == raw)
err, _ = call(driver.cuMemFree, dptr)
check("cuMemFree", err == driver.CUresult.CUDA_SUCCESS, str(err))
err, _ = call(driver.cuDevicePrimaryCtxRelease, dev)

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
