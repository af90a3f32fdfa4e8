#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
Generates tests/ptx/census_alu.cu and tests/ptx/census_alu.h: one inline
PTX statement per arithmetic, logic, comparison, selection and conversion
form that the census lists (../shared/reference/ptx_census_*.tsv), plus
every rounding mode and the flags the census does not happen to use, so
that each form runs on the interpreter and on a real GPU with the same
edge inputs (tests/unit/test_census_ops.c compares them).

    tests/ptx/gen/census_alu.py   (from the top of the tree)

The kernel takes operand banks by class: I (64-bit integers), F (f32
bits), D (f64 bits), H (f16/bf16 bits); bank X holds 3 * n values, operand
j of thread i at X[j * n + i]. Each form writes one 64-bit result per
thread: out[k * n + i].
"""
import os

# ---- the forms -------------------------------------------------------

# census ALU forms (both census files), verbatim
CENSUS = """
mov.u32 add.s64 add.s32 mad.lo.s32 mul.wide.s32 shl.b32 setp.ne.s32 mul.lo.s32
setp.eq.s32 and.b32 mul.wide.u32 shr.u32 setp.ge.s32 setp.lt.u32 mov.u64
setp.lt.s32 sub.s32 cvt.u64.u32 fma.rn.f32 add.f32 shl.b64 mul.f32 cvt.s64.s32
mov.f32 setp.ge.u32 shr.s32 setp.gt.s32 setp.gt.u32 or.pred xor.b32 or.b32
sub.f32 cvt.u32.u64 cvt.rn.f32.s32 div.rn.f32 add.u64 setp.eq.s64 not.pred
neg.s32 cvt.rn.f32.u32 not.b32 shr.u64 selp.u32 selp.f32 div.u32 and.pred
mul.lo.s64 mov.u16 mov.b64 setp.lt.f32 cvt.u16.u32 and.b64 sub.s64 mov.b32
setp.eq.s16 setp.le.u32 setp.ne.s64 popc.b32 setp.ge.u64 mul.f64 brev.b32
setp.lt.u64 max.s32 shr.s64 setp.gt.u64 mov.f64 min.u32 neg.f32
bfind.shiftamt.u32 setp.eq.b32 selp.u16 add.f64 and.b16 cvt.u32.u16 mov.pred
add.s16 setp.ne.s16 setp.gt.f32 xor.pred abs.f32 setp.le.s32 max.f32
setp.le.u64 fma.rn.f64 setp.lt.f64 setp.eq.f32 cvt.f64.f32 setp.lt.s64
clz.b32 min.s32 ex2.approx.f32 xor.b64 setp.geu.f32 or.b64 cvt.rn.f32.f64
bfi.b64 rem.u32 setp.gt.s64 lg2.approx.f32 selp.b64 mov.s32 neg.f64 max.f64
cvt.rzi.u32.f32 cvt.u16.u64 rcp.rn.f32 mul.rn.f32 cos.approx.f32
sin.approx.f32 sqrt.rn.f32 cvt.rn.f64.s64 mad.wide.u32 or.b16 div.rn.f64
setp.le.s64 cvt.rn.f64.u64 max.u32 div.s32 shr.u16 neg.s64 cvt.rni.s32.f32
setp.ge.s64 setp.gt.s16 setp.ltu.f32 setp.ne.u32 selp.b16 bmsk.clamp.b32
shr.b32 add.u32 selp.f64 cvt.s32.s8 min.u64 setp.ltu.f64 cvt.sat.f32.f32
div.approx.f32 abs.f64 setp.neu.f64 cvt.u64.u16 cvt.rzi.s32.f32 not.b64
shl.b16 bfi.b32 rsqrt.approx.f32 rem.s32 sqrt.rn.f64 mul.lo.u64 div.u16
mul.rp.f64 add.rp.f64 selp.u64 mul.rm.f64 add.rm.f64 setp.nan.f64
setp.gtu.f64 div.rp.f64 setp.eq.f64 cvt.rni.f32.f32 min.f64 div.rm.f64
mul.wide.s16 add.f16x2 cvt.rn.f32.u16 setp.le.f64 mul.hi.s32 cvt.s32.u16
setp.gt.f64 cvt.rn.f64.s32 mov.s64 setp.neu.f32 sub.f64 setp.geu.f64
cvt.f32.f16 cvt.rn.f16.f32 setp.ge.f32 bfind.u32 ex2.approx.ftz.f32
fma.rm.f32 mul.rn.f64 add.rn.f64 clz.b64 max.u64 mul24.lo.s32 setp.le.u16
setp.leu.f64 setp.num.f64 sub.u64 abs.s32 add.rz.f32 copysign.f32
cvt.rn.f32.s16 cvt.rn.f64.u32 cvt.rni.f64.f64 cvt.rpi.f32.f32 cvt.rzi.f32.f32
cvt.rzi.f64.f64 cvt.rzi.s64.f64 fma.rn.f16x2 max.u16 min.f32 min.u16
mul.f16x2 mul.lo.s16 rcp.approx.ftz.f64 setp.eq.b16 setp.eq.b64 setp.ge.u16
setp.leu.f32 setp.lt.s16 setp.lt.u16 shr.s16 sub.s16
vabsdiff4.u32.u32.u32.add cvt.rna.tf32.f32 mul.wide.u16 not.b16
shf.l.wrap.b32
"""

# beyond the census: every rounding mode, flags, types and families the
# executor implements, so each has ground truth too
EXTRA = []
for t in ("f32", "f64"):
    for r in ("rn", "rz", "rm", "rp"):
        for op in ("add", "sub", "mul", "div"):
            EXTRA.append(f"{op}.{r}.{t}")
        EXTRA += [f"fma.{r}.{t}", f"sqrt.{r}.{t}", f"rcp.{r}.{t}"]
for r in ("rn", "rz", "rm", "rp"):
    EXTRA += [f"add.{r}.ftz.f32", f"mul.{r}.ftz.f32", f"fma.{r}.sat.f32",
              f"div.{r}.ftz.f32", f"sqrt.{r}.ftz.f32"]
EXTRA += ["add.sat.f32", "add.ftz.sat.f32", "mul.ftz.f32", "min.NaN.f32",
          "max.NaN.f32", "min.ftz.f32", "max.ftz.NaN.f32", "abs.ftz.f32",
          "neg.ftz.f32", "copysign.f64", "div.full.f32", "div.full.ftz.f32",
          "div.approx.ftz.f32", "rcp.approx.f32", "rcp.approx.ftz.f32",
          "sqrt.approx.f32", "sqrt.approx.ftz.f32", "rsqrt.approx.ftz.f32",
          "rsqrt.approx.f64", "lg2.approx.ftz.f32", "sin.approx.ftz.f32",
          "cos.approx.ftz.f32", "tanh.approx.f32", "testp.finite.f32",
          "testp.infinite.f32", "testp.number.f32", "testp.notanumber.f32",
          "testp.normal.f32", "testp.subnormal.f32", "testp.normal.f64",
          "testp.subnormal.f64", "setp.equ.f32", "setp.nan.f32",
          "setp.num.f32", "setp.gtu.f32", "setp.lt.ftz.f32"]
for r in ("rn", "rz", "rm", "rp"):
    EXTRA += [f"cvt.{r}.f32.f64", f"cvt.{r}.f16.f32", f"cvt.{r}.f32.s64",
              f"cvt.{r}.f64.u64", f"cvt.{r}.f32.u64", f"cvt.{r}.bf16.f32",
              f"cvt.{r}.f16.f64"]
for r in ("rni", "rzi", "rmi", "rpi"):
    EXTRA += [f"cvt.{r}.s32.f64", f"cvt.{r}.u64.f32", f"cvt.{r}.s16.f32",
              f"cvt.{r}.u8.f64", f"cvt.{r}.f64.f64", f"cvt.{r}.f32.f32",
              f"cvt.{r}.ftz.f32.f32"]
EXTRA += ["cvt.rn.sat.f32.f64", "cvt.ftz.f32.f16", "cvt.f32.bf16",
          "cvt.f64.f16", "cvt.rn.relu.f16.f32", "cvt.rn.satfinite.f16.f32",
          "cvt.sat.u8.s32", "cvt.sat.s8.u32", "cvt.sat.s16.s64",
          "cvt.sat.u32.s64", "cvt.s8.s32", "cvt.u8.u16", "cvt.s16.s8",
          "cvt.s64.s8", "cvt.u32.s16", "cvt.rzi.sat.u8.f32",
          "cvt.rn.f16x2.f32", "cvt.rn.bf16x2.f32", "cvt.rna.satfinite.tf32.f32"]
for t in ("u32", "s32", "u64", "s64"):
    EXTRA += [f"mul.hi.{t}", f"mad.hi.{t}", f"mad.lo.{t}", f"div.{t}",
              f"rem.{t}", f"min.{t}", f"max.{t}", f"sad.{t}",
              f"shr.{t}" if t[0] == "s" else f"bfe.{t}"]
EXTRA += ["bfe.s32", "bfe.s64", "bfe.u64", "bfi.b64", "brev.b64",
          "popc.b64", "clz.b64", "bfind.s32", "bfind.u64",
          "bfind.shiftamt.s64", "prmt.b32", "prmt.b32.f4e", "prmt.b32.b4e",
          "prmt.b32.rc8", "prmt.b32.ecl", "prmt.b32.ecr", "prmt.b32.rc16",
          "lop3.b32", "shf.l.clamp.b32", "shf.r.wrap.b32", "shf.r.clamp.b32",
          "bmsk.wrap.b32", "dp4a.u32.u32", "dp4a.s32.s32", "dp4a.s32.u32",
          "dp2a.lo.u32.u32", "dp2a.hi.s32.s32", "mul24.hi.u32",
          "mul24.hi.s32", "mul24.lo.u32", "mad24.lo.u32", "mad24.lo.s32",
          "add.sat.s32", "sub.sat.s32", "mad.hi.sat.s32", "abs.s16",
          "abs.s64", "neg.s16", "cnot.b32", "cnot.b16", "mul.wide.s32",
          "mad.wide.s32", "mad.wide.s16", "mul.hi.u16", "mul.hi.s16",
          "div.s16", "rem.u16", "rem.s64", "min.s16", "max.s16",
          "sub.f16", "add.f16", "mul.f16", "fma.rn.f16", "neg.f16",
          "abs.f16", "min.f16", "max.f16", "add.ftz.f16x2",
          "fma.rn.sat.f16x2", "sub.f16x2", "neg.f16x2", "min.f16x2",
          "max.NaN.f16x2", "add.bf16", "mul.bf16x2", "fma.rn.bf16",
          "fma.rn.bf16x2", "min.bf16", "max.bf16x2", "neg.bf16",
          "setp.lt.f16", "setp.neu.bf16", "ex2.approx.f16",
          "tanh.approx.f16", "slct.s32.s32", "slct.f32.f32",
          "slct.u32.f32", "selp.s32", "set.lt.u32.f32", "set.eq.u32.s32",
          "set.gt.f32.f32", "set.ne.s32.u64", "setp.lo.u32", "setp.hs.u64",
          "vabsdiff4.s32.s32.s32.add", "vabsdiff4.u32.u32.u32.add",
          "vadd4.u32.u32.u32.sat", "vsub2.s32.s32.s32.sat",
          "vmax4.u32.u32.u32", "vmin2.s32.s32.s32", "vavrg4.u32.u32.u32",
          "vabsdiff2.u32.u32.u32", "vset4.u32.u32.lt",
          "vset2.s32.s32.ne"]

FLOAT_CVT = {"f16", "bf16", "f32", "f64", "tf32"}
INT_BITS = {"b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16,
            "b32": 32, "u32": 32, "s32": 32, "b64": 64, "u64": 64,
            "s64": 64}
TYPES = set(INT_BITS) | {"f16", "bf16", "f16x2", "bf16x2", "f32", "f64",
                         "tf32", "pred"}

# approximate forms: tolerance (relative, absolute) and input domain
APPROX = {
    "ex2": ("0x1p-21", "0", "60"), "lg2": ("0x1p-21", "0x1p-21", "0"),
    "sin": ("0", "0x1p-19", "3.1416"), "cos": ("0", "0x1p-19", "3.1416"),
    "rsqrt": ("0x1p-21", "0", "0"), "tanh": ("0x1p-10", "0x1p-10", "0"),
}


def reg(t):
    """asm constraint and C type of a register holding type t"""
    if t in ("f32",):
        return "f", "float"
    if t == "f64":
        return "d", "double"
    if t in ("f16", "bf16"):
        return "h", "unsigned short"
    if t in ("f16x2", "bf16x2", "tf32"):
        return "r", "unsigned"
    bits = INT_BITS[t]
    if bits <= 32 and bits != 16:
        return "r", "unsigned"
    if bits == 16:
        return "h", "unsigned short"
    return "l", "unsigned long long"


def source(t, j):
    """C expression for operand j of type t from the banks"""
    if j >= 3:
        return source(t, j % 3).replace("+ i]", "+ (i + 17) % n]")
    if t == "f32":
        return f"__uint_as_float(F[{j} * n + i])"
    if t == "f64":
        return f"__longlong_as_double(D[{j} * n + i])"
    if t in ("f16", "bf16"):
        return f"H[{j} * n + i]"
    if t in ("f16x2", "bf16x2"):
        return f"(unsigned)H[{j} * n + i] | (unsigned)H[{j} * n + (i ^ 1)] << 16"
    if t == "tf32":
        return f"F[{j} * n + i]"
    c, ct = reg(t)
    return f"({ct})I[{j} * n + i]"


def result(t, var):
    if t == "f32":
        return f"__float_as_uint({var})"
    if t == "f64":
        return f"__double_as_longlong({var})"
    return f"(unsigned long long){var}"


class Form:
    def __init__(self, name):
        self.name = name
        self.words = name.split(".")
        self.op = self.words[0]
        self.types = [w for w in self.words[1:] if w in TYPES]

    def sig(self):
        """(dst type, [source types], template) or None"""
        op, ts, w = self.op, self.types, self.words
        t = ts[-1] if ts else None
        if op == "setp" or op == "set":
            dst = "pred" if op == "setp" else ts[0]
            st = ts[-1]
            return dst, [st, st], None
        if op in ("and", "or", "xor") and t == "pred":
            return "pred", ["pred", "pred"], None
        if op in ("not", "mov") and t == "pred":
            return "pred", ["pred"], None
        if op == "selp":
            return t, [t, t, "pred"], None
        if op == "slct":
            return ts[0], [ts[0], ts[0], ts[1]], None
        if op == "cvt" and ts[0] in ("f16x2", "bf16x2"):
            return ts[0], [ts[1], ts[1]], None
        if op == "cvt":
            return ts[0], [ts[1]], None
        if op in ("mul", "mad") and "wide" in w:
            wide = {"u16": "u32", "s16": "s32", "u32": "u64", "s32": "s64"}[t]
            return wide, [t, t] + ([wide] if op == "mad" else []), None
        if op in ("shl", "shr"):
            return t, [t, "u32"], None
        if op in ("popc", "clz", "bfind"):
            return "u32", [t], None
        if op == "bfe":
            return t, [t, "u32", "u32"], None
        if op == "bfi":
            return t, [t, t, "u32", "u32"], None
        if op == "testp":
            return "pred", [t], None
        if op in ("dp4a", "dp2a"):
            return "u32", [ts[0], ts[1], "u32"], None
        if op.startswith("v") and op[-1] in "24":
            return "u32", ["u32", "u32", "u32"], None
        if op in ("prmt", "lop3", "shf"):
            return t, ["b32", "b32", "u32"], None
        if op == "bmsk":
            return t, ["u32", "u32"], None
        if op in ("mad", "fma", "sad", "mad24", "madc"):
            return t, [t, t, t], None
        if op in ("neg", "not", "abs", "rcp", "sqrt", "rsqrt", "sin", "cos",
                  "ex2", "lg2", "tanh", "brev", "cnot", "mov"):
            return t, [t], None
        return t, [t, t], None


def c_type_bank(t):
    return t


def emit_form(k, f):
    dst, srcs, _ = f.sig()
    preds = [j for j, s in enumerate(srcs) if s == "pred"]
    lines = []
    inputs = []
    text_ops = []
    num = 1
    for j, s in enumerate(srcs):
        if s == "pred":
            inputs.append(f'"r"((unsigned)(I[{j} * n + i] & 1))')
        else:
            c, _ = reg(s)
            inputs.append(f'"{c}"({source(s, j)})')
    # operand list in the instruction
    name = f.name
    extra = ""
    if f.op == "lop3":
        extra = ", 0x96"
        name = f.name
    pred_decl = ""
    pre = ""
    ops = []
    for j, s in enumerate(srcs):
        if s == "pred":
            pre += f"setp.ne.u32 %%p{j}, %{j + 1}, 0; "
            ops.append(f"%%p{j}")
        else:
            ops.append(f"%{j + 1}")
    if f.op == "bfi":
        ops = ops  # a, b, pos, len
    if dst == "pred":
        body = f"{name} %%pd, {', '.join(ops)}{extra}; selp.u32 %0, 1, 0, %%pd;"
        outc, outt = "r", "unsigned"
    else:
        body = f"{name} %0, {', '.join(ops)}{extra};"
        outc, outt = reg(dst)
    decl = " ".join(f".reg .pred %%p{j};" for j in preds)
    if dst == "pred":
        decl += " .reg .pred %%pd;"
    asm = f"{{ {decl} {pre}{body} }}" if decl else body
    lines.append(f"\t{{ /* {k}: {f.name} */")
    lines.append(f"\t\t{outt} d;")
    lines.append(f'\t\tasm volatile("{asm}" : "={outc}"(d) : {", ".join(inputs)});')
    lines.append(f"\t\tout[{k} * n + i] = {result(dst if dst != 'pred' else 'u32', 'd')};")
    lines.append("\t}")
    return "\n".join(lines)


def tolerance(f):
    op = f.op
    if "approx" in f.words:
        if op in APPROX:
            return APPROX[op]
        if op in ("rcp", "sqrt"):
            return ("0x1p-22", "0", "0") if f.types[-1] == "f32" else \
                   ("0x1p-19", "0", "0")
        if op == "div":
            return ("0x1p-21", "0", "0")
    if f.name in ("div.full.f32", "div.full.ftz.f32"):
        return ("0x1p-22", "0", "0")
    return None


def main():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    names = []
    for n in CENSUS.split() + EXTRA:
        if n not in names:
            names.append(n)
    forms = [Form(n) for n in names]
    body = "\n".join(emit_form(k, f) for k, f in enumerate(forms))
    cu = f"""// SPDX-License-Identifier: MIT
// GENERATED by tests/ptx/gen/census_alu.py: do not edit.
// Every census arithmetic/logic/comparison/conversion form (and more
// rounding modes and flags), one inline PTX statement each, applied to
// edge inputs; see tests/unit/test_census_ops.c.
#include <cuda_fp16.h>

extern "C" __global__ void alu_ops(const unsigned long long *I,
\t\t\t\t   const unsigned *F,
\t\t\t\t   const unsigned long long *D,
\t\t\t\t   const unsigned short *H,
\t\t\t\t   unsigned long long *out, int n)
{{
\tint i = blockIdx.x * blockDim.x + threadIdx.x;
\tif (i >= n)
\t\treturn;
{body}
}}
"""
    with open(os.path.join(top, "census_alu.cu"), "w") as fh:
        fh.write(cu)
    rows = []
    for f in forms:
        tol = tolerance(f)
        dst, srcs, _ = f.sig()
        bits = 1 if dst == "pred" else {"f32": 32, "f64": 64, "f16": 16,
                                        "bf16": 16}.get(dst, INT_BITS.get(dst, 32))
        if tol:
            rows.append(f'\t{{ "{f.name}", {bits}, {tol[0]}, {tol[1]}, {tol[2]} }},')
        else:
            rows.append(f'\t{{ "{f.name}", {bits}, 0, 0, 0 }},')
    h = f"""/* SPDX-License-Identifier: MIT */
/* GENERATED by tests/ptx/gen/census_alu.py: do not edit. */
#ifndef TESTS_PTX_CENSUS_ALU_H
#define TESTS_PTX_CENSUS_ALU_H

/* One form of census_alu.cu: its result bits, and for approximate forms
 * the tolerance (relative, absolute) and the input domain |x| <= dom
 * where it applies (0: everywhere). */
struct alu_form {{
\tconst char *name;
\tunsigned bits;
\tdouble rel, abs, dom;
}};

static const struct alu_form alu_forms[] = {{
{chr(10).join(rows)}
}};

#define ALU_FORMS (sizeof(alu_forms) / sizeof(alu_forms[0]))

#endif
"""
    with open(os.path.join(top, "census_alu.h"), "w") as fh:
        fh.write(h)
    print(f"{len(forms)} forms")


main()
