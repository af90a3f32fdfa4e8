/* SPDX-License-Identifier: MIT */
/*
 * Vocabulary of PTX: types, opcodes, instruction modifiers and special
 * registers, each an enum with its spelling. Modifiers are interned to
 * small integers at parse time, so nothing downstream compares strings.
 */
#ifndef VCUDA_PTX_TABLES_H
#define VCUDA_PTX_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- types ---- */

enum type_kind { TK_NONE, TK_PRED, TK_BIT, TK_UINT, TK_SINT, TK_FLOAT };

/* id, spelling, size in bytes (0: sub-byte or none), kind */
#define PTX_TYPES(X)                                   \
	X(PRED, "pred", 0, TK_PRED)                    \
	X(B8, "b8", 1, TK_BIT)                         \
	X(B16, "b16", 2, TK_BIT)                       \
	X(B32, "b32", 4, TK_BIT)                       \
	X(B64, "b64", 8, TK_BIT)                       \
	X(B128, "b128", 16, TK_BIT)                    \
	X(U8, "u8", 1, TK_UINT)                        \
	X(U16, "u16", 2, TK_UINT)                      \
	X(U32, "u32", 4, TK_UINT)                      \
	X(U64, "u64", 8, TK_UINT)                      \
	X(S8, "s8", 1, TK_SINT)                        \
	X(S16, "s16", 2, TK_SINT)                      \
	X(S32, "s32", 4, TK_SINT)                      \
	X(S64, "s64", 8, TK_SINT)                      \
	X(F16, "f16", 2, TK_FLOAT)                     \
	X(F16X2, "f16x2", 4, TK_FLOAT)                 \
	X(BF16, "bf16", 2, TK_FLOAT)                   \
	X(BF16X2, "bf16x2", 4, TK_FLOAT)               \
	X(TF32, "tf32", 4, TK_FLOAT)                   \
	X(F32, "f32", 4, TK_FLOAT)                     \
	X(F64, "f64", 8, TK_FLOAT)                     \
	X(U16X2, "u16x2", 4, TK_UINT)                  \
	X(S16X2, "s16x2", 4, TK_SINT)                  \
	X(E4M3, "e4m3", 1, TK_FLOAT)                   \
	X(E5M2, "e5m2", 1, TK_FLOAT)                   \
	X(E4M3X2, "e4m3x2", 2, TK_FLOAT)               \
	X(E5M2X2, "e5m2x2", 2, TK_FLOAT)               \
	X(E4M3X4, "e4m3x4", 4, TK_FLOAT)               \
	X(E5M2X4, "e5m2x4", 4, TK_FLOAT)               \
	X(E2M1X2, "e2m1x2", 1, TK_FLOAT)               \
	X(E2M3X2, "e2m3x2", 2, TK_FLOAT)               \
	X(E3M2X2, "e3m2x2", 2, TK_FLOAT)               \
	X(UE8M0X2, "ue8m0x2", 2, TK_FLOAT)             \
	X(E2M1X4, "e2m1x4", 2, TK_FLOAT)               \
	X(E2M1, "e2m1", 0, TK_FLOAT)                   \
	X(E2M3, "e2m3", 1, TK_FLOAT)                   \
	X(E3M2, "e3m2", 1, TK_FLOAT)                   \
	X(UE8M0, "ue8m0", 1, TK_FLOAT)                 \
	X(UE4M3, "ue4m3", 1, TK_FLOAT)                 \
	X(S4, "s4", 0, TK_SINT)                        \
	X(U4, "u4", 0, TK_UINT)                        \
	X(B1, "b1", 0, TK_BIT)                         \
	X(S2F6X2, "s2f6x2", 2, TK_FLOAT)

enum ptx_type {
	PTX_T_NONE = 0,
#define X(id, s, size, kind) PTX_T_##id,
	PTX_TYPES(X)
#undef X
	PTX_T_COUNT
};

const char *ptx_type_name(unsigned t);
unsigned ptx_type_size(unsigned t);
enum type_kind ptx_type_kind(unsigned t);
static inline bool ptx_type_is_float(unsigned t)
{
	return ptx_type_kind(t) == TK_FLOAT;
}
static inline bool ptx_type_is_signed(unsigned t)
{
	return ptx_type_kind(t) == TK_SINT;
}

/* ---- state spaces ---- */

enum ptx_space {
	SPACE_NONE = 0,		/* generic addressing */
	SPACE_REG,
	SPACE_SREG,
	SPACE_CONST,
	SPACE_GLOBAL,
	SPACE_LOCAL,
	SPACE_PARAM,
	SPACE_SHARED,
	SPACE_TEX,
	SPACE_SURF,
	SPACE_SAMPLER,
};

const char *ptx_space_name(unsigned s);

/* ---- modifier categories ---- */

enum mod_cat {
	MC_NONE,
	MC_TYPE,	/* value: enum ptx_type */
	MC_RND,		/* rounding */
	MC_CMP,		/* comparison */
	MC_BOOL,	/* and / or / xor */
	MC_SPACE,	/* value: enum ptx_space */
	MC_SEM,		/* memory ordering */
	MC_SCOPE,
	MC_VEC,		/* value: element count */
	MC_CACHE,	/* cache operator */
	MC_HINT,	/* L1::/L2:: hints: accepted, ignored */
	MC_FLAG,	/* value: bit number in ir_insn.flags */
	MC_MODE,	/* meaningful only through an opcode's mode list */
	MC_GEOM,	/* texture geometry */
	MC_RAW,		/* unknown word, kept for printing */
};

/* Bits of ir_insn.flags. */
enum {
	FL_FTZ, FL_SAT, FL_APPROX, FL_FULL, FL_UNI, FL_CC, FL_VOLATILE,
	FL_NC, FL_SYNC, FL_ALIGNED, FL_TO, FL_SHIFTAMT, FL_RELU,
	FL_SATFINITE, FL_NAN, FL_XORSIGN, FL_ABS, FL_NOFTZ, FL_OOB, FL_TRAP,
	FL_ZERO, FL_WARP, FL_PARITY, FL_NORETURN, FL_NOINC, FL_SHARED_BANK,
	FL_COUNT
};

/*
 * id, spelling, category, value. Order matters only inside a category
 * where handlers index tables by (mod - first of category).
 */
#define PTX_MODS(X)                                             \
	X(RN, "rn", MC_RND, 0)                                  \
	X(RZ, "rz", MC_RND, 0)                                  \
	X(RM, "rm", MC_RND, 0)                                  \
	X(RP, "rp", MC_RND, 0)                                  \
	X(RNA, "rna", MC_RND, 0)                                \
	X(RS, "rs", MC_RND, 0)                                  \
	X(RNI, "rni", MC_RND, 0)                                \
	X(RZI, "rzi", MC_RND, 0)                                \
	X(RMI, "rmi", MC_RND, 0)                                \
	X(RPI, "rpi", MC_RND, 0)                                \
	X(EQ, "eq", MC_CMP, 0)                                  \
	X(NE, "ne", MC_CMP, 0)                                  \
	X(LT, "lt", MC_CMP, 0)                                  \
	X(LE, "le", MC_CMP, 0)                                  \
	X(GT, "gt", MC_CMP, 0)                                  \
	X(GE, "ge", MC_CMP, 0)                                  \
	X(LO, "lo", MC_CMP, 0)                                  \
	X(LS, "ls", MC_CMP, 0)                                  \
	X(HI, "hi", MC_CMP, 0)                                  \
	X(HS, "hs", MC_CMP, 0)                                  \
	X(EQU, "equ", MC_CMP, 0)                                \
	X(NEU, "neu", MC_CMP, 0)                                \
	X(LTU, "ltu", MC_CMP, 0)                                \
	X(LEU, "leu", MC_CMP, 0)                                \
	X(GTU, "gtu", MC_CMP, 0)                                \
	X(GEU, "geu", MC_CMP, 0)                                \
	X(NUM, "num", MC_CMP, 0)                                \
	X(NAN, "nan", MC_CMP, 0)                                \
	X(AND, "and", MC_BOOL, 0)                               \
	X(OR, "or", MC_BOOL, 0)                                 \
	X(XOR, "xor", MC_BOOL, 0)                               \
	X(CONST, "const", MC_SPACE, SPACE_CONST)                \
	X(GLOBAL, "global", MC_SPACE, SPACE_GLOBAL)             \
	X(LOCAL, "local", MC_SPACE, SPACE_LOCAL)                \
	X(PARAM, "param", MC_SPACE, SPACE_PARAM)                \
	X(PARAM_ENTRY, "param::entry", MC_SPACE, SPACE_PARAM)   \
	X(PARAM_FUNC, "param::func", MC_SPACE, SPACE_PARAM)     \
	X(SHARED, "shared", MC_SPACE, SPACE_SHARED)             \
	X(SHARED_CTA, "shared::cta", MC_SPACE, SPACE_SHARED)    \
	X(SHARED_CLUSTER, "shared::cluster", MC_SPACE, SPACE_SHARED) \
	X(TEX, "tex", MC_SPACE, SPACE_TEX)                      \
	X(WEAK, "weak", MC_SEM, 0)                              \
	X(RELAXED, "relaxed", MC_SEM, 0)                        \
	X(ACQUIRE, "acquire", MC_SEM, 0)                        \
	X(RELEASE, "release", MC_SEM, 0)                        \
	X(ACQ_REL, "acq_rel", MC_SEM, 0)                        \
	X(SC, "sc", MC_SEM, 0)                                  \
	X(MMIO, "mmio", MC_SEM, 0)                              \
	X(CTA, "cta", MC_SCOPE, 0)                              \
	X(CLUSTER, "cluster", MC_SCOPE, 0)                      \
	X(GPU, "gpu", MC_SCOPE, 0)                              \
	X(SYS, "sys", MC_SCOPE, 0)                              \
	X(GL, "gl", MC_SCOPE, 0)                                \
	X(V2, "v2", MC_VEC, 2)                                  \
	X(V4, "v4", MC_VEC, 4)                                  \
	X(V8, "v8", MC_VEC, 8)                                  \
	X(CA, "ca", MC_CACHE, 0)                                \
	X(CG, "cg", MC_CACHE, 0)                                \
	X(CS, "cs", MC_CACHE, 0)                                \
	X(LU, "lu", MC_CACHE, 0)                                \
	X(CV, "cv", MC_CACHE, 0)                                \
	X(WB, "wb", MC_CACHE, 0)                                \
	X(WT, "wt", MC_CACHE, 0)                                \
	X(FTZ, "ftz", MC_FLAG, FL_FTZ)                          \
	X(SAT, "sat", MC_FLAG, FL_SAT)                          \
	X(APPROX, "approx", MC_FLAG, FL_APPROX)                 \
	X(FULL, "full", MC_FLAG, FL_FULL)                       \
	X(UNI, "uni", MC_FLAG, FL_UNI)                          \
	X(CC, "cc", MC_FLAG, FL_CC)                             \
	X(VOLATILE, "volatile", MC_FLAG, FL_VOLATILE)           \
	X(NC, "nc", MC_FLAG, FL_NC)                             \
	X(SYNC, "sync", MC_FLAG, FL_SYNC)                       \
	X(ALIGNED, "aligned", MC_FLAG, FL_ALIGNED)              \
	X(TO, "to", MC_FLAG, FL_TO)                             \
	X(SHIFTAMT, "shiftamt", MC_FLAG, FL_SHIFTAMT)           \
	X(RELU, "relu", MC_FLAG, FL_RELU)                       \
	X(SATFINITE, "satfinite", MC_FLAG, FL_SATFINITE)        \
	X(NAN_MINMAX, "NaN", MC_FLAG, FL_NAN)                   \
	X(XORSIGN, "xorsign", MC_FLAG, FL_XORSIGN)              \
	X(ABS, "abs", MC_FLAG, FL_ABS)                          \
	X(NOFTZ, "noftz", MC_FLAG, FL_NOFTZ)                    \
	X(OOB, "oob", MC_FLAG, FL_OOB)                          \
	X(TRAP, "trap", MC_FLAG, FL_TRAP)                       \
	X(ZERO, "zero", MC_FLAG, FL_ZERO)                       \
	X(WARP, "warp", MC_FLAG, FL_WARP)                       \
	X(PARITY, "parity", MC_FLAG, FL_PARITY)                 \
	X(NOINC, "noinc", MC_FLAG, FL_NOINC)                    \
	X(WIDE, "wide", MC_MODE, 0)                             \
	X(ADD, "add", MC_MODE, 0)                               \
	X(MIN, "min", MC_MODE, 0)                               \
	X(MAX, "max", MC_MODE, 0)                               \
	X(INC, "inc", MC_MODE, 0)                               \
	X(DEC, "dec", MC_MODE, 0)                               \
	X(EXCH, "exch", MC_MODE, 0)                             \
	X(CAS, "cas", MC_MODE, 0)                               \
	X(POPC, "popc", MC_MODE, 0)                             \
	X(UP, "up", MC_MODE, 0)                                 \
	X(DOWN, "down", MC_MODE, 0)                             \
	X(BFLY, "bfly", MC_MODE, 0)                             \
	X(IDX, "idx", MC_MODE, 0)                               \
	X(ALL, "all", MC_MODE, 0)                               \
	X(ANY, "any", MC_MODE, 0)                               \
	X(BALLOT, "ballot", MC_MODE, 0)                         \
	X(ARRIVE, "arrive", MC_MODE, 0)                         \
	X(RED, "red", MC_MODE, 0)                               \
	X(L, "l", MC_MODE, 0)                                   \
	X(R, "r", MC_MODE, 0)                                   \
	X(WRAP, "wrap", MC_MODE, 0)                             \
	X(CLAMP, "clamp", MC_MODE, 0)                           \
	X(F4E, "f4e", MC_MODE, 0)                               \
	X(B4E, "b4e", MC_MODE, 0)                               \
	X(RC8, "rc8", MC_MODE, 0)                               \
	X(ECL, "ecl", MC_MODE, 0)                               \
	X(ECR, "ecr", MC_MODE, 0)                               \
	X(RC16, "rc16", MC_MODE, 0)                             \
	X(FINITE, "finite", MC_MODE, 0)                         \
	X(INFINITE, "infinite", MC_MODE, 0)                     \
	X(NUMBER, "number", MC_MODE, 0)                         \
	X(NOTANUMBER, "notanumber", MC_MODE, 0)                 \
	X(NORMAL, "normal", MC_MODE, 0)                         \
	X(SUBNORMAL, "subnormal", MC_MODE, 0)                   \
	X(ASYNC, "async", MC_MODE, 0)                           \
	X(COMMIT_GROUP, "commit_group", MC_MODE, 0)             \
	X(WAIT_GROUP, "wait_group", MC_MODE, 0)                 \
	X(WAIT_ALL, "wait_all", MC_MODE, 0)                     \
	X(INIT, "init", MC_MODE, 0)                             \
	X(INVAL, "inval", MC_MODE, 0)                           \
	X(ARRIVE_DROP, "arrive_drop", MC_MODE, 0)               \
	X(TEST_WAIT, "test_wait", MC_MODE, 0)                   \
	X(TRY_WAIT, "try_wait", MC_MODE, 0)                     \
	X(PENDING_COUNT, "pending_count", MC_MODE, 0)           \
	X(EXPECT_TX, "expect_tx", MC_MODE, 0)                   \
	X(COMPLETE_TX, "complete_tx", MC_MODE, 0)               \
	X(MBARRIER, "mbarrier", MC_MODE, 0)                     \
	X(PROXY, "proxy", MC_MODE, 0)                           \
	X(NOCOMPLETE, "noComplete", MC_MODE, 0)                 \
	X(G1D, "1d", MC_GEOM, 0)                                \
	X(G2D, "2d", MC_GEOM, 0)                                \
	X(G3D, "3d", MC_GEOM, 0)                                \
	X(GA1D, "a1d", MC_GEOM, 0)                              \
	X(GA2D, "a2d", MC_GEOM, 0)                              \
	X(GCUBE, "cube", MC_GEOM, 0)                            \
	X(GACUBE, "acube", MC_GEOM, 0)                          \
	X(G2DMS, "2dms", MC_GEOM, 0)                            \
	X(GA2DMS, "a2dms", MC_GEOM, 0)

enum ptx_mod {
	MOD_NONE = 0,
#define X(id, s, cat, val) MOD_##id,
	PTX_MODS(X)
#undef X
	MOD_TYPE_FIRST,		/* MOD_TYPE_FIRST + t spells type t */
	MOD_STATIC_COUNT = MOD_TYPE_FIRST + PTX_T_COUNT,
	/* Ids from here on are raw words interned per module. */
};

struct mod_info {
	const char *name;
	uint8_t cat;
	uint8_t value;
};

/* Known modifier by spelling (without the dot), or MOD_NONE. */
unsigned ptx_mod_lookup(const char *s, size_t len);
const struct mod_info *ptx_mod_info(unsigned mod);
static inline unsigned ptx_mod_of_type(unsigned t)
{
	return MOD_TYPE_FIRST + t;
}

/* ---- opcodes ---- */

/*
 * id, spelling, allowed categories (bit per enum mod_cat), mode list,
 * second mode list, opcode flags. Mode lists are space-separated
 * modifier spellings; a word in an opcode's list is its mode (mode2)
 * whatever its global category.
 */
#define C(cat) (1u << (cat))
#define C_ALU (C(MC_TYPE) | C(MC_FLAG) | C(MC_RND))
#define C_MEM (C(MC_TYPE) | C(MC_SPACE) | C(MC_SEM) | C(MC_SCOPE) | \
	       C(MC_VEC) | C(MC_CACHE) | C(MC_HINT) | C(MC_FLAG))

/* Opcode flags. */
enum {
	OPF_LENIENT = 1,	/* parse-only family: unknown words kept raw */
	OPF_BRANCH = 2,		/* ends a basic block */
	OPF_RETURN = 4,		/* leaves the function */
};

#define PTX_OPCODES(X)                                                        \
	X(ABS, "abs", C_ALU, "", "", 0)                                       \
	X(ACTIVEMASK, "activemask", C_ALU, "", "", 0)                         \
	X(ADD, "add", C_ALU, "", "", 0)                                       \
	X(ADDC, "addc", C_ALU, "", "", 0)                                     \
	X(ALLOCA, "alloca", C_ALU | C(MC_SPACE), "", "", 0)                   \
	X(AND, "and", C_ALU, "", "", 0)                                       \
	X(APPLYPRIORITY, "applypriority", C_MEM, "", "", OPF_LENIENT)         \
	X(ATOM, "atom", C_MEM, "add min max inc dec and or xor exch cas",     \
	  "", 0)                                                              \
	X(BAR, "bar", C_ALU, "sync arrive red", "popc and or", 0)             \
	X(BARRIER, "barrier", C_ALU | C(MC_SCOPE) | C(MC_SEM),                \
	  "sync arrive red", "popc and or", 0)                                \
	X(BFE, "bfe", C_ALU, "", "", 0)                                       \
	X(BFI, "bfi", C_ALU, "", "", 0)                                       \
	X(BFIND, "bfind", C_ALU, "", "", 0)                                   \
	X(BMSK, "bmsk", C_ALU, "clamp wrap", "", 0)                           \
	X(BRA, "bra", C_ALU, "", "", OPF_BRANCH)                              \
	X(BREV, "brev", C_ALU, "", "", 0)                                     \
	X(BRKPT, "brkpt", C_ALU, "", "", 0)                                   \
	X(BRX, "brx", C_ALU, "idx", "", OPF_BRANCH)                           \
	X(CALL, "call", C_ALU, "", "", 0)                                     \
	X(CLZ, "clz", C_ALU, "", "", 0)                                       \
	X(CNOT, "cnot", C_ALU, "", "", 0)                                     \
	X(COPYSIGN, "copysign", C_ALU, "", "", 0)                             \
	X(COS, "cos", C_ALU, "", "", 0)                                       \
	X(CP, "cp", C_MEM, "async", "commit_group wait_group wait_all",       \
	  OPF_LENIENT)                                                        \
	X(CREATEPOLICY, "createpolicy", C_ALU, "", "", OPF_LENIENT)           \
	X(CVT, "cvt", C_ALU, "", "", 0)                                       \
	X(CVTA, "cvta", C_ALU | C(MC_SPACE), "", "", 0)                       \
	X(DISCARD, "discard", C_MEM, "", "", OPF_LENIENT)                     \
	X(DIV, "div", C_ALU, "", "", 0)                                       \
	X(DP2A, "dp2a", C_ALU, "lo hi", "", 0)                                \
	X(DP4A, "dp4a", C_ALU, "", "", 0)                                     \
	X(ELECT, "elect", C_ALU, "", "", 0)                                   \
	X(EX2, "ex2", C_ALU, "", "", 0)                                       \
	X(EXIT, "exit", C_ALU, "", "", OPF_RETURN)                            \
	X(FENCE, "fence", C_MEM, "proxy", "", OPF_LENIENT)                    \
	X(FMA, "fma", C_ALU, "", "", 0)                                       \
	X(FNS, "fns", C_ALU, "", "", 0)                                       \
	X(GETCTARANK, "getctarank", C_MEM, "", "", 0)                         \
	X(GRIDDEPCONTROL, "griddepcontrol", C_ALU, "", "", OPF_LENIENT)       \
	X(ISSPACEP, "isspacep", C_ALU | C(MC_SPACE), "", "", 0)               \
	X(ISTYPEOF, "istypeof", C_ALU, "", "", OPF_LENIENT)                   \
	X(LD, "ld", C_MEM, "", "", 0)                                         \
	X(LDMATRIX, "ldmatrix", C_MEM, "", "", OPF_LENIENT)                   \
	X(LDU, "ldu", C_MEM, "", "", 0)                                       \
	X(LG2, "lg2", C_ALU, "", "", 0)                                       \
	X(LOP3, "lop3", C_ALU, "", "", 0)                                     \
	X(MAD, "mad", C_ALU, "lo hi wide", "", 0)                             \
	X(MAD24, "mad24", C_ALU, "lo hi", "", 0)                              \
	X(MADC, "madc", C_ALU, "lo hi", "", 0)                                \
	X(MAPA, "mapa", C_MEM, "", "", 0)                                     \
	X(MATCH, "match", C_ALU, "any all", "", 0)                            \
	X(MAX, "max", C_ALU, "", "", 0)                                       \
	X(MBARRIER, "mbarrier", C_MEM,                                        \
	  "init inval arrive arrive_drop test_wait try_wait pending_count "   \
	  "expect_tx complete_tx", "noComplete", OPF_LENIENT)                 \
	X(MEMBAR, "membar", C_MEM, "", "", 0)                                 \
	X(MIN, "min", C_ALU, "", "", 0)                                       \
	X(MMA, "mma", C_ALU, "", "", OPF_LENIENT)                             \
	X(MOV, "mov", C_ALU, "", "", 0)                                       \
	X(MOVMATRIX, "movmatrix", C_ALU, "", "", OPF_LENIENT)                 \
	X(MUL, "mul", C_ALU, "lo hi wide", "", 0)                             \
	X(MUL24, "mul24", C_ALU, "lo hi", "", 0)                              \
	X(MULTIMEM, "multimem", C_MEM, "", "", OPF_LENIENT)                   \
	X(NANOSLEEP, "nanosleep", C_ALU, "", "", 0)                           \
	X(NEG, "neg", C_ALU, "", "", 0)                                       \
	X(NOT, "not", C_ALU, "", "", 0)                                       \
	X(OR, "or", C_ALU, "", "", 0)                                         \
	X(PMEVENT, "pmevent", C_ALU, "", "", 0)                               \
	X(POPC, "popc", C_ALU, "", "", 0)                                     \
	X(PREFETCH, "prefetch", C_MEM, "", "", OPF_LENIENT)                   \
	X(PREFETCHU, "prefetchu", C_MEM, "", "", OPF_LENIENT)                 \
	X(PRMT, "prmt", C_ALU, "f4e b4e rc8 ecl ecr rc16", "", 0)             \
	X(RCP, "rcp", C_ALU, "", "", 0)                                       \
	X(RED, "red", C_MEM, "add min max inc dec and or xor", "", 0)         \
	X(REDUX, "redux", C_ALU, "add min max and or xor", "", 0)             \
	X(REM, "rem", C_ALU, "", "", 0)                                       \
	X(RET, "ret", C_ALU, "", "", OPF_RETURN)                              \
	X(RSQRT, "rsqrt", C_ALU, "", "", 0)                                   \
	X(SAD, "sad", C_ALU, "", "", 0)                                       \
	X(SELP, "selp", C_ALU, "", "", 0)                                     \
	X(SET, "set", C_ALU | C(MC_CMP) | C(MC_BOOL), "", "", 0)              \
	X(SETMAXNREG, "setmaxnreg", C_ALU, "", "", OPF_LENIENT)               \
	X(SETP, "setp", C_ALU | C(MC_CMP) | C(MC_BOOL), "", "", 0)            \
	X(SHF, "shf", C_ALU, "l r", "clamp wrap", 0)                          \
	X(SHFL, "shfl", C_ALU, "up down bfly idx", "", 0)                     \
	X(SHL, "shl", C_ALU, "", "", 0)                                       \
	X(SHR, "shr", C_ALU, "", "", 0)                                       \
	X(SIN, "sin", C_ALU, "", "", 0)                                       \
	X(SLCT, "slct", C_ALU, "", "", 0)                                     \
	X(SQRT, "sqrt", C_ALU, "", "", 0)                                     \
	X(ST, "st", C_MEM, "", "", 0)                                         \
	X(STACKRESTORE, "stackrestore", C_ALU, "", "", 0)                     \
	X(STACKSAVE, "stacksave", C_ALU, "", "", 0)                           \
	X(STMATRIX, "stmatrix", C_MEM, "", "", OPF_LENIENT)                   \
	X(SUB, "sub", C_ALU, "", "", 0)                                       \
	X(SUBC, "subc", C_ALU, "", "", 0)                                     \
	X(SULD, "suld", C_MEM, "", "", OPF_LENIENT)                           \
	X(SUQ, "suq", C_MEM, "", "", OPF_LENIENT)                             \
	X(SURED, "sured", C_MEM, "", "", OPF_LENIENT)                         \
	X(SUST, "sust", C_MEM, "", "", OPF_LENIENT)                           \
	X(SZEXT, "szext", C_ALU, "", "", OPF_LENIENT)                         \
	X(TANH, "tanh", C_ALU, "", "", 0)                                     \
	X(TCGEN05, "tcgen05", C_MEM, "", "", OPF_LENIENT)                     \
	X(TENSORMAP, "tensormap", C_MEM, "", "", OPF_LENIENT)                 \
	X(TESTP, "testp", C_ALU,                                              \
	  "finite infinite number notanumber normal subnormal", "", 0)        \
	X(TEX, "tex", C_MEM, "", "", OPF_LENIENT)                             \
	X(TLD4, "tld4", C_MEM, "", "", OPF_LENIENT)                           \
	X(TRAP, "trap", C_ALU, "", "", OPF_RETURN)                            \
	X(TXQ, "txq", C_MEM, "", "", OPF_LENIENT)                             \
	X(VABSDIFF, "vabsdiff", C_ALU, "", "", OPF_LENIENT)                   \
	X(VABSDIFF2, "vabsdiff2", C_ALU, "", "", OPF_LENIENT)                 \
	X(VABSDIFF4, "vabsdiff4", C_ALU, "add min max", "", OPF_LENIENT)      \
	X(VADD, "vadd", C_ALU, "", "", OPF_LENIENT)                           \
	X(VADD2, "vadd2", C_ALU, "", "", OPF_LENIENT)                         \
	X(VADD4, "vadd4", C_ALU, "", "", OPF_LENIENT)                         \
	X(VAVRG2, "vavrg2", C_ALU, "", "", OPF_LENIENT)                       \
	X(VAVRG4, "vavrg4", C_ALU, "", "", OPF_LENIENT)                       \
	X(VMAD, "vmad", C_ALU, "", "", OPF_LENIENT)                           \
	X(VMAX, "vmax", C_ALU, "", "", OPF_LENIENT)                           \
	X(VMAX2, "vmax2", C_ALU, "", "", OPF_LENIENT)                         \
	X(VMAX4, "vmax4", C_ALU, "", "", OPF_LENIENT)                         \
	X(VMIN, "vmin", C_ALU, "", "", OPF_LENIENT)                           \
	X(VMIN2, "vmin2", C_ALU, "", "", OPF_LENIENT)                         \
	X(VMIN4, "vmin4", C_ALU, "", "", OPF_LENIENT)                         \
	X(VOTE, "vote", C_ALU, "all any uni ballot", "", 0)                   \
	X(VSET, "vset", C_ALU, "", "", OPF_LENIENT)                           \
	X(VSET2, "vset2", C_ALU, "", "", OPF_LENIENT)                         \
	X(VSET4, "vset4", C_ALU, "", "", OPF_LENIENT)                         \
	X(VSHL, "vshl", C_ALU, "", "", OPF_LENIENT)                           \
	X(VSHR, "vshr", C_ALU, "", "", OPF_LENIENT)                           \
	X(VSUB, "vsub", C_ALU, "", "", OPF_LENIENT)                           \
	X(VSUB2, "vsub2", C_ALU, "", "", OPF_LENIENT)                         \
	X(VSUB4, "vsub4", C_ALU, "", "", OPF_LENIENT)                         \
	X(WGMMA, "wgmma", C_MEM, "", "", OPF_LENIENT)                         \
	X(WMMA, "wmma", C_MEM, "", "", OPF_LENIENT)                           \
	X(XOR, "xor", C_ALU, "", "", 0)                                       \
	X(CLUSTERLAUNCHCONTROL, "clusterlaunchcontrol", C_MEM, "", "",        \
	  OPF_LENIENT)

enum ptx_opcode {
	OP_NONE = 0,
#define X(id, s, cats, modes, modes2, fl) OP_##id,
	PTX_OPCODES(X)
#undef X
	OP_COUNT
};

unsigned ptx_opcode_lookup(const char *s, size_t len);
const char *ptx_opcode_name(unsigned op);
uint32_t ptx_opcode_cats(unsigned op);
unsigned ptx_opcode_flags(unsigned op);
/* 1 if @mod is a mode of @op, 2 if a second mode, else 0. */
int ptx_opcode_mode_slot(unsigned op, unsigned mod);

/* ---- special registers ---- */

#define PTX_SREGS(X)                                \
	X(TID, "%tid", 3, PTX_T_U32)                \
	X(NTID, "%ntid", 3, PTX_T_U32)              \
	X(CTAID, "%ctaid", 3, PTX_T_U32)            \
	X(NCTAID, "%nctaid", 3, PTX_T_U32)          \
	X(LANEID, "%laneid", 0, PTX_T_U32)          \
	X(WARPID, "%warpid", 0, PTX_T_U32)          \
	X(NWARPID, "%nwarpid", 0, PTX_T_U32)        \
	X(SMID, "%smid", 0, PTX_T_U32)              \
	X(NSMID, "%nsmid", 0, PTX_T_U32)            \
	X(GRIDID, "%gridid", 0, PTX_T_U64)          \
	X(LANEMASK_EQ, "%lanemask_eq", 0, PTX_T_U32) \
	X(LANEMASK_LE, "%lanemask_le", 0, PTX_T_U32) \
	X(LANEMASK_LT, "%lanemask_lt", 0, PTX_T_U32) \
	X(LANEMASK_GE, "%lanemask_ge", 0, PTX_T_U32) \
	X(LANEMASK_GT, "%lanemask_gt", 0, PTX_T_U32) \
	X(CLOCK, "%clock", 0, PTX_T_U32)            \
	X(CLOCK_HI, "%clock_hi", 0, PTX_T_U32)      \
	X(CLOCK64, "%clock64", 0, PTX_T_U64)        \
	X(GLOBALTIMER, "%globaltimer", 0, PTX_T_U64) \
	X(GLOBALTIMER_LO, "%globaltimer_lo", 0, PTX_T_U32) \
	X(GLOBALTIMER_HI, "%globaltimer_hi", 0, PTX_T_U32) \
	X(ENVREG, "%envreg", 32, PTX_T_U32)         \
	X(PM, "%pm", 8, PTX_T_U32)                  \
	X(PM64, "%pm_64", 8, PTX_T_U64)             \
	X(TOTAL_SMEM, "%total_smem_size", 0, PTX_T_U32) \
	X(AGGR_SMEM, "%aggr_smem_size", 0, PTX_T_U32) \
	X(DYNAMIC_SMEM, "%dynamic_smem_size", 0, PTX_T_U32) \
	X(RSMEM_BEGIN, "%reserved_smem_offset_begin", 0, PTX_T_U32) \
	X(RSMEM_END, "%reserved_smem_offset_end", 0, PTX_T_U32) \
	X(RSMEM_CAP, "%reserved_smem_offset_cap", 0, PTX_T_U32) \
	X(RSMEM_2, "%reserved_smem_offset_", 2, PTX_T_U32) \
	X(GRAPH_EXEC, "%current_graph_exec", 0, PTX_T_U64) \
	X(IS_EXPLICIT_CLUSTER, "%is_explicit_cluster", 0, PTX_T_PRED) \
	X(CLUSTERID, "%clusterid", 3, PTX_T_U32)    \
	X(NCLUSTERID, "%nclusterid", 3, PTX_T_U32)  \
	X(CLUSTER_CTAID, "%cluster_ctaid", 3, PTX_T_U32) \
	X(CLUSTER_NCTAID, "%cluster_nctaid", 3, PTX_T_U32) \
	X(CLUSTER_CTARANK, "%cluster_ctarank", 0, PTX_T_U32) \
	X(CLUSTER_NCTARANK, "%cluster_nctarank", 0, PTX_T_U32)

enum ptx_sreg {
	SREG_NONE = 0,
#define X(id, s, n, t) SREG_##id,
	PTX_SREGS(X)
#undef X
	SREG_COUNT
};

/*
 * Parses a special register spelling ("%tid.y", "%envreg3", "%pm2_64")
 * into its id and component (x/y/z 0..2, or the index); false if none.
 */
bool ptx_sreg_lookup(const char *s, size_t len, unsigned *sreg,
		     unsigned *comp);
/* Spelling of (sreg, comp) into @buf. */
const char *ptx_sreg_name(unsigned sreg, unsigned comp, char *buf,
			  size_t len);
unsigned ptx_sreg_type(unsigned sreg);
unsigned ptx_sreg_components(unsigned sreg);

#endif
