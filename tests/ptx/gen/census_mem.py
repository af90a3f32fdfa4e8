#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
Generates tests/ptx/census_mem.cu and tests/ptx/census_mem.h: every
census load, store and atomic form (../shared/reference/ptx_census_*.tsv)
as one inline PTX statement, on per-thread data so that results are
deterministic (contention is tested elsewhere), so that each form runs on
the interpreter and on a real GPU (tests/unit/test_census_ops.c).

    tests/ptx/gen/census_mem.py   (from the top of the tree)

Kernel mem_ops(in, out, n): thread i reads its 32 input bytes at
in + 32 * i; form k writes 32 bytes at out + (k * n + i) * 32.
"""
import os

LOADS = """
ld.acquire.cta.b64 ld.acquire.cta.u32 ld.acquire.gpu.u32 ld.ca.u32 ld.cg.u32
ld.f32 ld.f64 ld.global.f32 ld.global.f64 ld.global.nc.f32 ld.global.nc.f64
ld.global.nc.u32 ld.global.nc.u64 ld.global.nc.v2.f32 ld.global.nc.v2.u32
ld.global.nc.v4.u32 ld.global.s8 ld.global.u16 ld.global.u32 ld.global.u64
ld.global.u8 ld.global.v2.f32 ld.global.v2.u32 ld.global.v4.f32
ld.global.v4.u32 ld.local.f64 ld.local.u32 ld.local.u64 ld.relaxed.cta.b32
ld.relaxed.gpu.u32 ld.relaxed.gpu.v2.u32 ld.relaxed.gpu.v2.u64 ld.s16
ld.shared.f32 ld.shared.f64 ld.shared.s16 ld.shared.s8 ld.shared.u16
ld.shared.u32 ld.shared.u64 ld.shared.u8 ld.shared.v2.f64 ld.shared.v2.u16
ld.shared.v2.u32 ld.shared.v2.u64 ld.shared.v4.f32 ld.shared.v4.u32 ld.u16
ld.u32 ld.u64 ld.v2.u16 ld.v4.u32 ld.volatile.global.u32
ld.volatile.shared.f32 ld.volatile.shared.u32 ld.volatile.u32
ld.const.f32 ld.const.u16 ld.const.u32
ld.global.s16 ld.global.s32 ld.local.s8 ld.global.b128 ld.shared.b128
ld.global.v2.u64 ld.global.v4.u16 ld.global.v2.s8 ld.global.cs.u32
ld.global.lu.u32 ld.global.cv.u32 ldu.global.u32 ldu.global.v2.f32
ld.global.nc.L1::no_allocate.u32 ld.global.L2::64B.u32
"""

STORES = """
st.cg.u32 st.f32 st.f64 st.global.f32 st.global.f64 st.global.u16
st.global.u32 st.global.u64 st.global.u8 st.global.v2.f32 st.global.v2.u32
st.global.v2.u64 st.global.v2.u8 st.global.v4.f32 st.global.v4.u32
st.local.f64 st.local.u32 st.local.u64 st.local.u8 st.local.v2.u32
st.local.v2.u64 st.local.v4.u8 st.relaxed.cta.b32 st.relaxed.gpu.v2.u32
st.relaxed.gpu.v2.u64 st.release.gpu.u32 st.shared.f32 st.shared.f64
st.shared.u16 st.shared.u32 st.shared.u64 st.shared.u8 st.shared.v2.u16
st.shared.v2.u32 st.shared.v4.u32 st.u16 st.u32 st.u64 st.v2.u16 st.v2.u32
st.volatile.global.u32 st.volatile.shared.f32 st.volatile.shared.u32
st.volatile.u32 st.global.b128 st.shared.b128 st.global.wt.u32
st.global.cs.v2.u32 st.global.v4.u16
"""

ATOMS = """
atom.add.acq_rel.cta.u64 atom.add.acquire.cta.u32 atom.add.relaxed.cta.u32
atom.add.relaxed.cta.u64 atom.add.release.gpu.u32 atom.add.u32
atom.exch.b32 atom.global.add.f64 atom.global.add.u32 atom.global.add.u64
atom.global.and.b32 atom.global.cas.b32 atom.global.dec.u32
atom.global.exch.b32 atom.global.inc.u32 atom.global.max.s32
atom.global.max.u32 atom.global.min.s32 atom.global.or.b32
atom.global.sys.add.u32 atom.global.sys.and.b32 atom.global.sys.cas.b32
atom.global.sys.dec.u32 atom.global.sys.exch.b32 atom.global.sys.inc.u32
atom.global.sys.max.s32 atom.global.sys.min.s32 atom.global.sys.or.b32
atom.global.sys.xor.b32 atom.global.xor.b32 atom.max.s32
atom.or.acq_rel.cta.b32 atom.shared.add.f64 atom.shared.add.u32
atom.shared.exch.b32 red.and.release.cta.b32
atom.global.add.f32 atom.shared.add.f32 atom.global.add.noftz.f16
atom.global.add.noftz.f16x2 atom.global.add.noftz.bf16x2
atom.global.min.u64 atom.global.max.s64 atom.global.and.b64
atom.global.cas.b64 atom.global.exch.b64 atom.shared.cas.b32
atom.shared.inc.u32 atom.shared.dec.u32 atom.shared.min.s32
atom.shared.max.u32 atom.shared.xor.b32 atom.global.cas.b16
red.global.add.u32 red.global.add.f32 red.shared.max.s32
red.global.add.f64 red.relaxed.gpu.global.or.b32 red.global.inc.u32
red.global.add.noftz.f16x2
"""

SIZES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2,
         "bf16": 2, "b32": 4, "u32": 4, "s32": 4, "f32": 4, "f16x2": 4,
         "bf16x2": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8, "b128": 16}


def reg(t):
    n = SIZES[t]
    if t == "f32":
        return "f", "float"
    if t == "f64":
        return "d", "double"
    if n <= 2:
        return "h", "unsigned short"
    if n == 4:
        return "r", "unsigned"
    return "l", "unsigned long long"


def words(name):
    w = name.split(".")
    t = w[-1]
    space = next((x for x in w if x in ("global", "shared", "local",
                                        "const")), "")
    vec = next((int(x[1]) for x in w if x in ("v2", "v4")), 1)
    return w[0], space, vec, t


def as_u64(t, var):
    c, ct = reg(t)
    if c == "f":
        return f"(unsigned long long)__float_as_uint({var})"
    if c == "d":
        return f"(unsigned long long)__double_as_longlong({var})"
    return f"(unsigned long long){var}"


def from_in(t, j):
    """value of type t from this thread's input bytes, element j"""
    c, ct = reg(t)
    n = SIZES[t]
    if c == "f":
        return f"__uint_as_float(((const unsigned *)src)[{j}])"
    if c == "d":
        return f"__longlong_as_double(((const unsigned long long *)src)[{j}])"
    if n <= 2:
        return f"(unsigned short)((const unsigned short *)src)[{j}]"
    if n == 4:
        return f"((const unsigned *)src)[{j}]"
    return f"((const unsigned long long *)src)[{j}]"


def address(space, dst):
    """operand constraint and C expression for the address of @dst"""
    if space == "shared":
        return '"r"', f"(unsigned)__cvta_generic_to_shared({dst})"
    if space == "local":
        return '"l"', f"local_addr({dst})"
    return '"l"', f"{dst}"


def emit_load(k, name):
    op, space, vec, t = words(name)
    lines = [f"\t{{ /* {k}: {name} */"]
    c, ct = reg(t) if t != "b128" else ("l", "unsigned long long")
    n = vec * (2 if t == "b128" else 1)
    if space == "const":
        pass
    elif space == "shared":
        lines.append(f"\t\tunsigned char *p = sbank + threadIdx.x * 32;")
        lines.append(f"\t\tfor (int b = 0; b < 32; b++) p[b] = src[b];")
    elif space == "local":
        lines.append(f"\t\tunsigned char lbuf[32] __attribute__((aligned(16)));")
        lines.append(f"\t\tfor (int b = 0; b < 32; b++) lbuf[b] = src[b];")
        lines.append(f"\t\tunsigned char *p = lbuf;")
    else:
        lines.append(f"\t\tconst unsigned char *p = src;")
    lines.append(f"\t\t{ct} v[{n}];")
    if space == "const":
        addr = "{ .reg .u64 %%a; mov.u64 %%a, cbank; add.u64 %%a, %%a, %" \
               + str(n) + "; "
        ac, ae = '"l"', "(unsigned long long)((i % 16) * 32)"
        vals = ", ".join(f"%{j}" for j in range(n))
        inst = f"{name} {{{vals}}}, [%%a]; }}" if vec > 1 else \
               f"{name} %0, [%%a]; }}"
        text = addr + inst
    else:
        ac, ae = address(space, "p")
        if t == "b128":
            text = (f"{{ .reg .b128 %%q; {name} %%q, [%{n}]; "
                    f"mov.b128 {{%0, %1}}, %%q; }}")
        elif vec > 1:
            vals = ", ".join(f"%{j}" for j in range(n))
            text = f"{name} {{{vals}}}, [%{n}];"
        else:
            text = f"{name} %0, [%{n}];"
    outs = ", ".join(f'"={c}"(v[{j}])' for j in range(n))
    lines.append(f'\t\tasm volatile("{text}" : {outs} : {ac}({ae}) : "memory");')
    for j in range(n):
        lines.append(f"\t\to[{j}] = {as_u64(t if t != 'b128' else 'u64', f'v[{j}]')};")
    lines.append("\t}")
    return "\n".join(lines)


def emit_store(k, name):
    op, space, vec, t = words(name)
    lines = [f"\t{{ /* {k}: {name} */"]
    c, ct = reg(t) if t != "b128" else ("l", "unsigned long long")
    n = vec * (2 if t == "b128" else 1)
    et = t if t != "b128" else "u64"
    if space == "shared":
        lines.append(f"\t\tunsigned char *p = sbank + threadIdx.x * 32;")
    elif space == "local":
        lines.append(f"\t\tunsigned char lbuf[32] __attribute__((aligned(16)));")
        lines.append(f"\t\tunsigned char *p = lbuf;")
    else:
        lines.append(f"\t\tunsigned char *p = (unsigned char *)o;")
    lines.append(f"\t\tfor (int b = 0; b < 32; b++) p[b] = 0xa5;")
    ac, ae = address(space, "p")
    ins = ", ".join(f'"{c}"({from_in(et, j)})' for j in range(n))
    if t == "b128":
        text = f"{{ .reg .b128 %%q; mov.b128 %%q, {{%1, %2}}; {name} [%0], %%q; }}"
    elif vec > 1:
        vals = ", ".join(f"%{j + 1}" for j in range(n))
        text = f"{name} [%0], {{{vals}}};"
    else:
        text = f"{name} [%0], %1;"
    lines.append(f'\t\tasm volatile("{text}" :: {ac}({ae}), {ins} : "memory");')
    if space in ("shared", "local"):
        lines.append("\t\tfor (int b = 0; b < 32; b++) ((unsigned char *)o)[b] = p[b];")
    lines.append("\t}")
    return "\n".join(lines)


def emit_atom(k, name):
    w = name.split(".")
    red = w[0] == "red"
    t = w[-1]
    op = next(x for x in w if x in ("add", "min", "max", "inc", "dec", "and",
                                      "or", "xor", "exch", "cas"))
    space = next((x for x in w if x in ("global", "shared")), "")
    c, ct = reg(t)
    size = SIZES[t]
    lines = [f"\t{{ /* {k}: {name} */"]
    if space == "shared":
        lines.append(f"\t\tunsigned char *p = sbank + threadIdx.x * 32;")
    else:
        lines.append(f"\t\tunsigned char *p = (unsigned char *)o + 16;")
    # the word starts as input element 0; b and c are elements 1, 2
    lines.append(f"\t\tfor (int b = 0; b < 16; b++) p[b] = src[b];")
    ac, ae = address(space, "p")
    b = from_in(t, 1)
    cc = from_in(t, 2)
    if op == "cas" and size <= 8:
        # half the threads compare with the current value: they swap
        b = f"(i & 1) ? {from_in(t, 0)} : {from_in(t, 1)}"
    if red:
        text = f"{name} [%0], %1;"
        lines.append(f'\t\tasm volatile("{text}" :: {ac}({ae}), "{c}"(({ct})({b})) : "memory");')
        lines.append(f"\t\to[0] = 0;")
    else:
        extra = f', "{c}"(({ct})({cc}))' if op == "cas" else ""
        text = f"{name} %0, [%1], %2{', %3' if op == 'cas' else ''};"
        lines.append(f"\t\t{ct} d;")
        lines.append(f'\t\tasm volatile("{text}" : "={c}"(d) : {ac}({ae}), "{c}"(({ct})({b})){extra} : "memory");')
        lines.append(f"\t\to[0] = {as_u64(t, 'd')};")
    if space == "shared":
        lines.append("\t\tfor (int b = 0; b < 16; b++) ((unsigned char *)o)[16 + b] = p[b];")
    lines.append("\t}")
    return "\n".join(lines)


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    forms = []
    for group, fn in ((LOADS, emit_load), (STORES, emit_store),
                      (ATOMS, emit_atom)):
        for n in group.split():
            forms.append((n, fn))
    body = []
    for k, (n, fn) in enumerate(forms):
        body.append(f"\to = out + ((size_t){k} * n + i) * 4;")
        body.append(fn(k, n))
    vals = [(j * 37 + 11) & 255 for j in range(16 * 32)]
    cinit = ",\n".join("\t" + ", ".join(str(v) for v in vals[r:r + 16])
                       for r in range(0, len(vals), 16))
    cu = f"""// SPDX-License-Identifier: MIT
// GENERATED by tests/ptx/gen/census_mem.py: do not edit.
// Every census load, store and atomic form, one inline PTX statement each,
// on per-thread data; see tests/unit/test_census_ops.c.
#include <cuda_fp16.h>

extern "C" __constant__ unsigned char cbank[16 * 32] = {{
{cinit}
}};

static __device__ __forceinline__ unsigned long long local_addr(void *p)
{{
\tunsigned long long a;
\tasm("cvta.to.local.u64 %0, %1;" : "=l"(a) : "l"(p));
\treturn a;
}}

extern "C" __global__ void mem_ops(const unsigned char *in,
\t\t\t\t   unsigned long long *out, int n)
{{
\t__shared__ __align__(16) unsigned char sbank[128 * 32];
\tint i = blockIdx.x * blockDim.x + threadIdx.x;
\tif (i >= n)
\t\treturn;
\tconst unsigned char *src = in + (size_t)i * 32;
\tunsigned long long *o;
{chr(10).join(body)}
}}
"""
    with open(os.path.join(top, "census_mem.cu"), "w") as fh:
        fh.write(cu)
    rows = "\n".join(f'\t"{n}",' for n, _ in forms)
    h = f"""/* SPDX-License-Identifier: MIT */
/* GENERATED by tests/ptx/gen/census_mem.py: do not edit. */
#ifndef TESTS_PTX_CENSUS_MEM_H
#define TESTS_PTX_CENSUS_MEM_H

static const char *const mem_forms[] = {{
{rows}
}};

#define MEM_FORMS (sizeof(mem_forms) / sizeof(mem_forms[0]))

#endif
"""
    with open(os.path.join(top, "census_mem.h"), "w") as fh:
        fh.write(h)
    print(f"{len(forms)} forms")


main()
