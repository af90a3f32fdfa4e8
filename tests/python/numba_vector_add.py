# SPDX-License-Identifier: MIT
#
# A numba-cuda @cuda.jit vector add on vcuda, checked against numpy: numba
# compiles Python to PTX with the toolkit's NVVM, and vcuda's libcuda
# loads and runs it. Prints TAP; tests/python/run-python-tests.sh runs it
# in the VM.
import sys
import time

start = time.monotonic()
import numpy as np
from numba import cuda
imported = time.monotonic()

results = []


def check(what, ok, detail=""):
    results.append(ok)
    print(("ok" if ok else "not ok") + f" {len(results)} - {what}")
    if detail:
        print(f"#   {detail}")


@cuda.jit
def vector_add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


check("numba.cuda.is_available()", cuda.is_available())
n = 5000  # not a multiple of the block: the bounds check matters
rng = np.random.default_rng(10)
a = rng.standard_normal(n).astype(np.float32)
b = rng.standard_normal(n).astype(np.float32)
d_out = cuda.device_array(n, dtype=np.float32)
threads = 128
vector_add[(n + threads - 1) // threads, threads](
    cuda.to_device(a), cuda.to_device(b), d_out)
out = d_out.copy_to_host()
ran = time.monotonic()
check("@cuda.jit vector add equals numpy's a + b", np.array_equal(out, a + b),
      f"max |diff| {np.max(np.abs(out - (a + b)))}")
print(f"# import {imported - start:.1f} s, compile and run "
      f"{ran - imported:.1f} s")
print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
