// SPDX-License-Identifier: MIT
/*
 * Texture instructions through object handles (unified mode): tex (1D,
 * 2D, 3D, layered, cubemap; .level and .grad), tld4 and txq, sampled as
 * CUDA's programming guide ("Texture Fetching") defines it:
 *
 *  - normalized coordinates are scaled by the level's size;
 *  - nearest-point sampling reads texel floor(x);
 *  - linear filtering blends texels floor(x - 0.5) and the next one with
 *    the weight frac(x - 0.5) held in 9-bit fixed point (8 fraction
 *    bits), per dimension; in 2D the corners' weights are 8-bit too
 *    (bilinear_weights);
 *  - address modes act on texel indices: clamp, border (the border
 *    colour), wrap and mirror (normalized coordinates only; others
 *    clamp);
 *  - 8- and 16-bit integer texels read as normalized floats if asked
 *    (cudaReadModeNormalizedFloat), missing channels read as 0, and
 *    alpha as 1;
 *  - cubemap coordinates pick the face of the major axis.
 */
#include "f16.h"
#include "lanes.h"
#include "tex.h"

#include <math.h>

enum tex_kind { TK_TEX, TK_TLD4, TK_TXQ };
enum lod_kind { LOD_NONE, LOD_LEVEL, LOD_GRAD };
enum txq_query { Q_WIDTH, Q_HEIGHT, Q_DEPTH, Q_ARRAY_SIZE, Q_LEVELS,
		 Q_NORMALIZED, Q_FILTER, Q_ADDR0, Q_ADDR1, Q_ADDR2,
		 Q_SAMPLES };

struct tex_op {
	uint8_t kind;		/* enum tex_kind */
	uint8_t geom;		/* MOD_G1D ... MOD_GACUBE */
	uint8_t dtype, ctype;	/* destination and coordinate types */
	uint8_t lod;		/* enum lod_kind */
	uint8_t comp;		/* tld4: channel 0-3 */
	uint8_t query;		/* txq */
	uint8_t ncoord, noffset, ngrad;
	xref handle;
	xref dst[4];
	xref coord[4];
	xref offset[3];
	xref lodref;
	xref grad[2][3];
};

/* What a geometry reads. */
struct geom_info {
	uint8_t dims;		/* 1, 2, 3 spatial coordinates */
	bool layered;		/* first coordinate: the layer */
	bool cube;
};

static struct geom_info geom_of(unsigned geom)
{
	switch (geom) {
	case MOD_G1D: return (struct geom_info){ 1, false, false };
	case MOD_G2D: return (struct geom_info){ 2, false, false };
	case MOD_G3D: return (struct geom_info){ 3, false, false };
	case MOD_GA1D: return (struct geom_info){ 1, true, false };
	case MOD_GA2D: return (struct geom_info){ 2, true, false };
	case MOD_GCUBE: return (struct geom_info){ 3, false, true };
	default: return (struct geom_info){ 3, true, true };
	}
}

/* ---- coordinates to texel indices ---- */

/* floor() of a coordinate as an int, saturated (NaN reads as 0). */
static inline int32_t floor_int(double x)
{
	if (!(x == x))
		return 0;
	x = floor(x);
	return x < -1e9 ? -1000000000 : x > 1e9 ? 1000000000 : (int32_t)x;
}

/* Applies the address mode to index @i of a dimension of @n texels;
 * false: the border. */
static inline bool address(int32_t *i, int32_t n, unsigned mode, bool norm)
{
	if (!norm && (mode == PTX_ADDR_WRAP || mode == PTX_ADDR_MIRROR))
		mode = PTX_ADDR_CLAMP;
	switch (mode) {
	case PTX_ADDR_WRAP:
		*i %= n;
		if (*i < 0)
			*i += n;
		return true;
	case PTX_ADDR_MIRROR: {
		int32_t m = *i % (2 * n);
		if (m < 0)
			m += 2 * n;
		*i = m >= n ? 2 * n - 1 - m : m;
		return true;
	}
	case PTX_ADDR_BORDER:
		return *i >= 0 && *i < n;
	default:
		*i = *i < 0 ? 0 : *i >= n ? n - 1 : *i;
		return true;
	}
}

/* One texel's four channels as floats (float reads) or raw bits. */
struct texel4 {
	uint32_t v[4];
};

static void fetch(const struct texobj *t, unsigned lev, const int32_t *idx,
		  unsigned dims, uint32_t slice, const int32_t *size,
		  bool as_float, struct texel4 *out)
{
	int32_t i[3] = { idx[0], dims > 1 ? idx[1] : 0, dims > 2 ? idx[2] : 0 };
	bool in = true;
	if (t->d.linear_memory)	/* tex1Dfetch: outside reads zero */
		in = i[0] >= 0 && i[0] < size[0];
	else
		for (unsigned d = 0; d < dims; d++)
			in &= address(&i[d], size[d], t->d.address_mode[d],
				      t->d.normalized_coords);
	for (unsigned c = 0; c < 4; c++) {
		if (!in) {
			out->v[c] = t->d.linear_memory ? 0 :
				    bits_f32(t->d.border_color[c]);
			continue;
		}
		if (c >= t->d.channels) {
			out->v[c] = 0;	/* alpha too, on the GPU */
			continue;
		}
		const uint8_t *p = texel_at(t, lev, (uint32_t)i[0],
					    (uint32_t)i[1],
					    slice + (uint32_t)i[2]);
		out->v[c] = as_float ? bits_f32(texel_channel_float(t, p, c)) :
				       texel_channel_raw(t, p, c);
	}
}

/* A normalized coordinate as the sampler holds it: truncated to a fixed
 * point of 20 fraction bits. Measured: x = fl(i / n) just above i / n
 * still selects texel i - 1, so bits of x are dropped before scaling by
 * n; every truncation to 8 to 22 bits matches the H100's 8192 recorded
 * nearest-texel reads, 23 bits does not; 20 is assumed. */
static inline double norm_fixed(double x)
{
	return floor(x * 0x1p20) * 0x1p-20;
}

/* Splits x - 0.5 into its texel index and the 8-bit filter weight. */
static inline int32_t linear_split(double x, float *alpha)
{
	if (!(x == x))
		x = 0;
	double f = floor((x - 0.5) * 256.0 + 0.5);
	f = f < -1e11 ? -1e11 : f > 1e11 ? 1e11 : f;
	double i = floor(f / 256.0);
	*alpha = (float)((f - i * 256.0) / 256.0);
	return (int32_t)(i < -1e9 ? -1e9 : i > 1e9 ? 1e9 : i);
}

struct sample_at {
	const struct texobj *t;
	unsigned lev, dims;
	uint32_t slice;
	int32_t size[3];
	double u[3];		/* unnormalized coordinates */
	int32_t offset[3];
	bool as_float;
};

static void sample_point(const struct sample_at *s, struct texel4 *out)
{
	int32_t idx[3] = { 0, 0, 0 };
	for (unsigned d = 0; d < s->dims; d++)
		idx[d] = floor_int(s->u[d]) + s->offset[d];
	fetch(s->t, s->lev, idx, s->dims, s->slice, s->size, s->as_float,
	      out);
}

/*
 * Normalized 8- and 16-bit texels are filtered in fixed point: the blend
 * of their integer values (8-bit ones widened to t * 257, 16 bits) is
 * rounded to an integer, then scaled to [0, 1] or [-1, 1]. Of recorded
 * H100 results, 2008 of 2048 unorm8 ones equal this (the float blend:
 * 919), and 913 of 1024 snorm16 ones (410). Returns the scale from the
 * float a texel reads as to that integer, or 0 for a float blend.
 */
static double fixed_scale(const struct texobj *t)
{
	if (!t->d.read_normalized_float || t->d.srgb)
		return 0;
	switch (t->d.format) {
	case PTX_FMT_U8: case PTX_FMT_U16: return 65535.0;
	case PTX_FMT_S16: return 32767.0;
	default: return 0;
	}
}

/* A blend of texels as the filter returns it: see fixed_scale; half
 * texels' blends rounded to half (489 of 512 recorded results equal
 * this, 397 the f32 blend). */
static float filtered_value(const struct texobj *t, double v, double scale)
{
	if (scale) {
		double r = floor(v + 0.5) / scale;
		return (float)(r < -1.0 ? -1.0 : r);
	}
	if (t->d.format == PTX_FMT_F16)
		return f16_to_f32(f64_to_f16(v, RND_NEAREST));
	return (float)v;
}

/*
 * The weight of each corner of a bilinear footprint, in 256ths, as the
 * H100 computes it: the far corner's is the product of the axes' 8-bit
 * weights p and q rounded half up to 8 bits, the others what is left of
 * each axis' weight, so that the four sum to 256. @corner bit 0 is x's
 * upper texel, bit 1 y's.
 */
static void bilinear_weights(uint32_t p, uint32_t q, uint32_t w[4])
{
	uint32_t w11 = (p * q + 128) / 256;
	w[3] = w11;
	w[1] = p - w11;
	w[2] = q - w11;
	w[0] = 256 - p - q + w11;
}

/* The weights of the 2^dims corners, in units of 1/(the return value). */
static double corner_weights(const float *a, unsigned dims, double *w)
{
	uint32_t p[3], bw[4];
	for (unsigned d = 0; d < dims; d++)
		p[d] = (uint32_t)(a[d] * 256.0f);
	if (dims == 1) {
		w[0] = 256 - p[0];
		w[1] = p[0];
		return 256;
	}
	bilinear_weights(p[0], p[1], bw);
	for (unsigned c = 0; c < 4; c++)
		w[c] = bw[c];
	if (dims == 2)
		return 256;
	/* 3D: the two slices' bilinear blends, blended by z's weight (the
	 * H100 rounds differently in 7% of recorded cases: not modelled). */
	for (unsigned c = 0; c < 4; c++) {
		w[c + 4] = bw[c] * (double)p[2];
		w[c] = bw[c] * (double)(256 - p[2]);
	}
	return 65536;
}

static void sample_linear(const struct sample_at *s, struct texel4 *out)
{
	int32_t base[3] = { 0, 0, 0 };
	float a[3] = { 0, 0, 0 };
	double acc[4] = { 0, 0, 0, 0 }, weight[8];
	double scale = fixed_scale(s->t);
	for (unsigned d = 0; d < s->dims; d++)
		base[d] = linear_split(s->u[d], &a[d]) + s->offset[d];
	double unit = corner_weights(a, s->dims, weight);
	for (unsigned corner = 0; corner < (1u << s->dims); corner++) {
		int32_t idx[3] = { 0, 0, 0 };
		double w = weight[corner] / unit;	/* exact */
		for (unsigned d = 0; d < s->dims; d++)
			idx[d] = base[d] + (corner >> d & 1);
		if (w == 0.0)
			continue;	/* an infinite texel with no weight */
		struct texel4 t;
		fetch(s->t, s->lev, idx, s->dims, s->slice, s->size, true, &t);
		for (unsigned c = 0; c < 4; c++)
			acc[c] += w * (scale ? nearbyint(f32_of(t.v[c]) *
							 scale) :
					       f32_of(t.v[c]));
	}
	for (unsigned c = 0; c < 4; c++)
		out->v[c] = bits_f32(filtered_value(s->t, acc[c], scale));
}

/* tld4: channel @comp of the four texels of the bilinear footprint, in
 * the order (0,1), (1,1), (1,0), (0,0). */
static void gather(const struct sample_at *s, unsigned comp,
		   struct texel4 *out)
{
	static const uint8_t order[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 },
					     { 0, 0 } };
	int32_t base[2];
	float a;
	for (unsigned d = 0; d < 2; d++)
		base[d] = linear_split(s->u[d], &a) + s->offset[d];
	for (unsigned k = 0; k < 4; k++) {
		int32_t idx[2] = { base[0] + order[k][0],
				   base[1] + order[k][1] };
		struct texel4 t;
		fetch(s->t, s->lev, idx, 2, s->slice, s->size, s->as_float, &t);
		out->v[k] = t.v[comp];
	}
}

/* ---- cubemaps ---- */

/* Face (+X, -X, +Y, -Y, +Z, -Z) and its coordinates in [0, 1]. Ties
 * between axes go to z, then y (measured). */
static unsigned cube_face(double x, double y, double z, double *u,
			  double *v)
{
	double ax = fabs(x), ay = fabs(y), az = fabs(z), m, s, t;
	unsigned face;
	if (ax > ay && ax > az) {
		face = x >= 0 ? 0 : 1;
		m = ax;
		s = x >= 0 ? -z : z;
		t = -y;
	} else if (ay > az) {
		face = y >= 0 ? 2 : 3;
		m = ay;
		s = x;
		t = y >= 0 ? z : -z;
	} else {
		face = z >= 0 ? 4 : 5;
		m = az;
		s = z >= 0 ? x : -x;
		t = -y;
	}
	if (m == 0)
		m = 1;
	*u = (s / m + 1) * 0.5;
	*v = (t / m + 1) * 0.5;
	return face;
}

/* ---- one lane ---- */

struct lane_in {
	double c[4];		/* coordinates as written */
	uint32_t layer;
	int32_t offset[3];
	double lod;
};

/* Level of detail for tex.grad: log2 of the longer gradient in texels. */
static double grad_lod(const struct texobj *t, const double g[2][3],
		       unsigned dims)
{
	double len[2] = { 0, 0 };
	const uint32_t n[3] = { t->d.width, t->d.height, t->d.depth };
	for (unsigned k = 0; k < 2; k++) {
		for (unsigned d = 0; d < dims; d++) {
			double x = g[k][d] * (t->d.normalized_coords ? n[d] : 1);
			len[k] += x * x;
		}
		len[k] = sqrt(len[k]);
	}
	double m = len[0] > len[1] ? len[0] : len[1];
	return m > 0 ? log2(m) : -INFINITY;
}

static void sample_level(const struct texobj *t, const struct tex_op *op,
			 const struct lane_in *in, unsigned lev,
			 struct texel4 *out)
{
	struct geom_info g = geom_of(op->geom);
	struct sample_at s = { .t = t, .lev = lev, .dims = g.dims,
			       .as_float = texobj_reads_float(t) ||
					   op->dtype == PTX_T_F32 };
	double x[3] = { in->c[0], in->c[1], in->c[2] };
	uint32_t nlayers = t->d.layers ? t->d.layers : 1;
	uint32_t layer = in->layer < nlayers ? in->layer : nlayers - 1;
	s.size[0] = (int32_t)level_size(t->d.width, lev);
	s.size[1] = (int32_t)level_size(t->d.height, lev);
	s.size[2] = (int32_t)level_size(t->d.depth, lev);
	bool norm = t->d.normalized_coords;
	if (g.cube) {
		s.dims = 2;
		s.slice = cube_face(x[0], x[1], x[2], &x[0], &x[1]) +
			  6 * (g.layered ? layer : 0);
		norm = true;
	} else if (g.layered) {
		s.slice = layer;
	}
	for (unsigned d = 0; d < s.dims; d++) {
		s.u[d] = norm ? norm_fixed(x[d]) * s.size[d] : x[d];
		s.offset[d] = in->offset[d];
	}
	if (op->ctype == PTX_T_S32) {	/* integer coordinates: no filter */
		for (unsigned d = 0; d < s.dims; d++)
			s.u[d] = x[d];
		sample_point(&s, out);
	} else if (op->kind == TK_TLD4) {
		gather(&s, op->comp, out);
	} else if (t->d.filter_mode == PTX_FILTER_LINEAR &&
		   texobj_reads_float(t)) {
		sample_linear(&s, out);
	} else {
		sample_point(&s, out);
	}
}

static void sample(const struct texobj *t, const struct tex_op *op,
		   const struct lane_in *in, struct texel4 *out)
{
	if (t->d.num_levels <= 1 || op->kind == TK_TLD4) {
		sample_level(t, op, in, 0, out);
		return;
	}
	double lod = in->lod + t->d.mipmap_level_bias;
	double lo = t->d.min_mipmap_level_clamp;
	double hi = t->d.max_mipmap_level_clamp;
	double top = t->d.num_levels - 1;
	if (hi <= 0 || hi > top)
		hi = top;
	lod = !(lod >= lo) ? lo : lod > hi ? hi : lod;
	if (t->d.mipmap_filter_mode != PTX_FILTER_LINEAR ||
	    !texobj_reads_float(t)) {
		sample_level(t, op, in, (unsigned)floor(lod + 0.5), out);
		return;
	}
	/* Between levels, as measured on the GPU: an 8-bit weight, the
	 * fraction truncated, and a + w (b - a) with one rounding after
	 * the difference and one after a fused multiply-add. */
	unsigned l0 = (unsigned)floor(lod);
	unsigned w = (unsigned)floor((lod - l0) * 256);
	struct texel4 a, b;
	sample_level(t, op, in, l0, &a);
	if (w == 0 || l0 + 1 > top) {
		*out = a;
		return;
	}
	sample_level(t, op, in, l0 + 1, &b);
	for (unsigned c = 0; c < 4; c++) {
		float lo = f32_of(a.v[c]), hi = f32_of(b.v[c]);

		out->v[c] = bits_f32(fmaf(hi - lo, (float)w / 256, lo));
	}
}

static double coord_value(const uint64_t *p, uint32_t lane, unsigned ctype)
{
	return ctype == PTX_T_S32 ? (double)(int32_t)p[lane] :
				    (double)f32_of(p[lane]);
}

static bool lane_inputs(struct warp *w, const struct tex_op *op,
			uint32_t l, const struct texobj *t, struct lane_in *in)
{
	struct geom_info g = geom_of(op->geom);
	unsigned first = g.layered ? 1 : 0;
	memset(in, 0, sizeof(*in));
	if (g.layered)
		in->layer = (uint32_t)xr(w, op->coord[0])[l];
	for (unsigned d = 0; d < g.dims && first + d < op->ncoord; d++)
		in->c[d] = coord_value(xr(w, op->coord[first + d]), l,
				       op->ctype);
	for (unsigned d = 0; d < op->noffset; d++)
		in->offset[d] = (int32_t)xr(w, op->offset[d])[l];
	if (op->lod == LOD_LEVEL) {
		in->lod = f32_of(xr(w, op->lodref)[l]);
	} else if (op->lod == LOD_GRAD) {
		double gr[2][3] = { { 0 } };
		for (unsigned k = 0; k < 2; k++)
			for (unsigned d = 0; d < op->ngrad; d++)
				gr[k][d] = f32_of(xr(w, op->grad[k][d])[l]);
		in->lod = grad_lod(t, gr, g.dims);
	}
	return true;
}

static const struct xinsn *x_tex(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct tex_op *op = ip->aux;
	const uint64_t *ph = xr(w, op->handle);
	uint32_t out[4][WARP_SIZE];
	FOR_LANES(m, l) {
		const struct texobj *t = texobj_lookup(ph[l], TEXOBJ_TEXTURE);
		if (!t)
			return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, l,
				      ph[l], "not a texture object: 0x%llx",
				      (unsigned long long)ph[l]);
		struct lane_in in;
		struct texel4 v;
		lane_inputs(w, op, l, t, &in);
		sample(t, op, &in, &v);
		for (unsigned c = 0; c < 4; c++)
			out[c][l] = v.v[c];
	}
	for (unsigned c = 0; c < 4; c++) {
		if (!op->dst[c])
			continue;
		uint64_t *d = xr(w, op->dst[c]);
		FOR_LANES(m, l)
			d[l] = out[c][l];
	}
	return ip + 1;
}

static uint32_t query(const struct texobj *t, unsigned q)
{
	switch (q) {
	case Q_WIDTH: return t->d.width;
	case Q_HEIGHT: return t->d.height;
	case Q_DEPTH: return t->d.depth;
	case Q_ARRAY_SIZE: return t->d.layers;
	case Q_LEVELS: return t->d.num_levels;
	case Q_NORMALIZED: return t->d.normalized_coords;
	case Q_FILTER: return t->d.filter_mode;
	case Q_ADDR0: return t->d.address_mode[0];
	case Q_ADDR1: return t->d.address_mode[1];
	case Q_ADDR2: return t->d.address_mode[2];
	default: return 1;	/* samples */
	}
}

static const struct xinsn *x_txq(struct warp *w, const struct xinsn *ip)
{
	uint32_t m = xmask(w, ip);
	const struct tex_op *op = ip->aux;
	const uint64_t *ph = xr(w, op->handle);
	uint64_t *d = xr(w, op->dst[0]);
	FOR_LANES(m, l) {
		const struct texobj *t = texobj_lookup(ph[l], TEXOBJ_TEXTURE);
		if (!t)
			t = texobj_lookup(ph[l], TEXOBJ_SURFACE);
		if (!t)
			return xfault(w, ip, PTX_FAULT_ILLEGAL_INSTRUCTION, l,
				      ph[l], "not a texture object: 0x%llx",
				      (unsigned long long)ph[l]);
		d[l] = query(t, op->query);
	}
	return ip + 1;
}

/* ---- lowering ---- */

/* Spelling of modifier @i of the instruction being lowered. */
static const char *word(const struct lower_ctx *c, unsigned i)
{
	return ir_mod_name(c->m, c->in->mods[i]);
}

static bool has_word(const struct lower_ctx *c, const char *w)
{
	for (unsigned i = 0; i < c->in->nmods; i++)
		if (!strcmp(word(c, i), w))
			return true;
	return false;
}

/* Registers of a {..} vector (or a single register) into @out. */
static bool refs_of(struct lower_ctx *c, const struct ir_operand *o,
		    bool dst, unsigned type, xref *out, unsigned max,
		    uint8_t *n)
{
	const struct ir_operand *e = o;
	unsigned count = 1;
	if (o->kind == OPND_VEC) {
		e = ir_vec_elems(c->f, o);
		count = o->reg2;
	}
	if (count > max)
		return lower_unsupported(c, "vector size");
	for (unsigned i = 0; i < count; i++) {
		if (dst && e[i].kind == OPND_SINK) {
			out[i] = 0;
			continue;
		}
		if (!(dst ? ref_dst(c, &e[i], &out[i]) :
			    ref_src(c, &e[i], type, &out[i])))
			return false;
	}
	if (n)
		*n = (uint8_t)count;
	return true;
}

/* [handle, {coords}] or [handle] */
static bool tex_address(struct lower_ctx *c, const struct ir_operand *o,
			struct tex_op *op, bool coords)
{
	const struct ir_operand *e = o;
	unsigned n = 1;
	if (o->kind == OPND_VEC && o->comp == '[') {
		e = ir_vec_elems(c->f, o);
		n = o->reg2;
	} else if (o->kind == OPND_ADDR && o->addr_base == ADDR_REG &&
		   !o->offset && !coords) {
		return ref_src(c, &(struct ir_operand){ .kind = OPND_REG,
							 .reg = o->reg },
			       PTX_T_U64, &op->handle);
	} else {
		return lower_unsupported(c, "texture operand");
	}
	if (e[0].kind != OPND_REG || n != (coords ? 2u : 1u))
		return lower_unsupported(c, "texture references (only "
					    "texture objects are supported)");
	if (!ref_src(c, &e[0], PTX_T_U64, &op->handle))
		return false;
	return !coords || refs_of(c, &e[1], false, op->ctype, op->coord, 4,
				  &op->ncoord);
}

static bool emit_tex(struct lower_ctx *c, struct tex_op *op, xhandler h)
{
	struct tex_op *copy = arena_alloc(&c->prog->arena, sizeof(*copy));
	if (!copy)
		return lower_nomem(c);
	*copy = *op;
	struct xinsn *x = emit(c, h);
	if (!x)
		return lower_nomem(c);
	x->aux = copy;
	return true;
}

/* The geometry word (.1d, .2d, ...), which these opcodes keep raw. */
unsigned geom_word(const struct lower_ctx *c)
{
	for (unsigned i = 0; i < c->in->nmods; i++) {
		unsigned m = c->in->mods[i];
		if (m < MOD_STATIC_COUNT && ptx_mod_info(m)->cat == MC_GEOM)
			return m;
	}
	return 0;
}

static int channel_of(const struct lower_ctx *c)
{
	static const char *const names[] = { "r", "g", "b", "a" };
	for (int i = 0; i < 4; i++)
		if (has_word(c, names[i]))
			return i;
	return -1;
}

static bool lower_tex_like(struct lower_ctx *c, const struct ir_insn *in,
			   bool tld4)
{
	unsigned geom = geom_word(c);
	struct tex_op op = { .kind = tld4 ? TK_TLD4 : TK_TEX,
			     .geom = (uint8_t)geom };
	if (in->ntypes != 2 || in->vec != 4 || !geom ||
	    geom == MOD_G2DMS || geom == MOD_GA2DMS)
		return lower_unsupported(c, "shape or types");
	op.dtype = in->types[0];
	op.ctype = in->types[1];
	if ((op.dtype != PTX_T_F32 && op.dtype != PTX_T_S32 &&
	     op.dtype != PTX_T_U32) ||
	    (op.ctype != PTX_T_F32 && op.ctype != PTX_T_S32))
		return lower_unsupported(c, "types");
	op.lod = has_word(c, "level") ? LOD_LEVEL :
		 has_word(c, "grad") ? LOD_GRAD : LOD_NONE;
	unsigned known = 4 + (op.lod != LOD_NONE) + (tld4 ? 1 : 0);
	if (in->nmods != known)
		return lower_unsupported(c, NULL);
	if (tld4) {
		int ch = channel_of(c);
		if (ch < 0 || (geom != MOD_G2D && geom != MOD_GA2D &&
			       geom != MOD_GCUBE &&
			       geom != MOD_GACUBE))
			return lower_unsupported(c, NULL);
		op.comp = (uint8_t)ch;
	}
	unsigned need = 2 + (op.lod == LOD_LEVEL) + 2 * (op.lod == LOD_GRAD);
	if (in->nopnds != need && in->nopnds != need + 1)
		return lower_unsupported(c, "operands (depth compare)");
	if (in->opnd[0].kind != OPND_VEC || in->opnd[0].pair)
		return lower_unsupported(c, "destination");
	if (!refs_of(c, &in->opnd[0], true, 0, op.dst, 4, NULL) ||
	    !tex_address(c, &in->opnd[1], &op, true))
		return false;
	unsigned next = 2;
	if (op.lod == LOD_LEVEL &&
	    !ref_src(c, &in->opnd[next++], PTX_T_F32, &op.lodref))
		return false;
	if (op.lod == LOD_GRAD) {
		uint8_t n0, n1;
		if (!refs_of(c, &in->opnd[next], false, PTX_T_F32,
			     op.grad[0], 3, &n0) ||
		    !refs_of(c, &in->opnd[next + 1], false, PTX_T_F32,
			     op.grad[1], 3, &n1))
			return false;
		op.ngrad = n0 < n1 ? n0 : n1;
		next += 2;
	}
	if (next < in->nopnds &&
	    !refs_of(c, &in->opnd[next], false, PTX_T_S32, op.offset, 3,
		     &op.noffset))
		return false;
	return emit_tex(c, &op, x_tex);
}

static bool lower_txq(struct lower_ctx *c, const struct ir_insn *in)
{
	static const char *const names[] = {
		"width", "height", "depth", "array_size", "num_mipmap_levels",
		"normalized_coords", "filter_mode", "addr_mode_0",
		"addr_mode_1", "addr_mode_2", "num_samples" };
	struct tex_op op = { .kind = TK_TXQ };
	int q = -1;
	for (unsigned i = 0; i < ARRAY_SIZE(names) && q < 0; i++)
		if (has_word(c, names[i]))
			q = (int)i;
	if (q < 0 || has_word(c, "level") || in->nopnds != 2)
		return lower_unsupported(c, "query");
	op.query = (uint8_t)q;
	if (!ref_dst(c, &in->opnd[0], &op.dst[0]) ||
	    !tex_address(c, &in->opnd[1], &op, false))
		return false;
	return emit_tex(c, &op, x_txq);
}

bool lower_tex(struct lower_ctx *c, const struct ir_insn *in)
{
	switch (in->op) {
	case OP_TEX:
		return lower_tex_like(c, in, false);
	case OP_TLD4:
		return lower_tex_like(c, in, true);
	case OP_TXQ:
		return lower_txq(c, in);
	default:
		return lower_unsupported(c, NULL);
	}
}
