// SPDX-License-Identifier: MIT
/*
 * replay: runs the launches recorded by the unit tests ($PTX_RECORD, see
 * tests/unit/record.h) on a real NVIDIA GPU through the CUDA driver API,
 * and writes what each "expect" line names, as the GPU computed it, to
 * OUT/NAME.bin (NAME.txt for printed text). Those files are the ground
 * truth in tests/ptx/expected/.
 *
 *   replay RECORD_DIR OUT_DIR [MANIFEST]
 *
 * Every *.manifest in RECORD_DIR (or only MANIFEST) is replayed in order.
 * A launch that runs longer than $REPLAY_TIMEOUT seconds (default 20)
 * ends the process with status 3, naming it; $REPLAY_SKIP lists launch
 * ids (id,id,...) not to run. Same PTX, same
 * inputs, same launch configuration as on the interpreter; pointers in
 * parameters are relocated to the GPU's copies of the test buffers, and
 * texture and surface objects are rebuilt from their recorded
 * descriptors as CUDA arrays.
 */
#include <cuda.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_IDS 4096

static const char *rec_dir, *out_dir;
static CUdevice dev;
static CUcontext ctx;
static int failures;

struct program {
	int nsrc;
	char blobs[16][24];
	CUmodule mod;
};

struct texrec {
	bool surface;
	unsigned format, channels, shape, w, h, d, layers, levels;
	unsigned addr[3], filter, mipfilter, readnorm, normcoords, srgb;
	int linear;
	float border[4], bias, minc, maxc;
	unsigned aniso;
	long buf[16];
	size_t off[16];
	unsigned long long pitch[16], slice[16];
};

static struct program *programs[MAX_IDS];
static struct texrec *textures[MAX_IDS];
static CUdeviceptr dbuf[MAX_IDS];
static size_t dsize[MAX_IDS];
static char *last_text;
static bool last_ok;
static unsigned long long heap_limit, printf_limit;

static void *read_blob(const char *name, size_t *len)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/blobs/%s.bin", rec_dir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (b) {
		b[n] = 0;
		*len = (size_t)n;
	}
	return b;
}

static bool check(CUresult r, const char *what)
{
	if (r == CUDA_SUCCESS)
		return true;
	const char *s = NULL;
	cuGetErrorName(r, &s);
	fprintf(stderr, "replay: %s: %s\n", what, s ? s : "?");
	return false;
}

/* A fresh context (after a fault, or for new limits): everything the
 * old one held is gone. */
static void new_context(void)
{
	if (ctx) {
		cuDevicePrimaryCtxRelease(dev);
		cuDevicePrimaryCtxReset(dev);
	}
	check(cuDevicePrimaryCtxRetain(&ctx, dev), "context");
	check(cuCtxSetCurrent(ctx), "set context");
	for (int i = 0; i < MAX_IDS; i++) {
		if (programs[i])
			programs[i]->mod = NULL;
		dbuf[i] = 0;
		dsize[i] = 0;
	}
	if (heap_limit)
		check(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, heap_limit),
		      "heap limit");
	if (printf_limit) {
		size_t got = 0;
		check(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, printf_limit),
		      "printf limit");
		cuCtxGetLimit(&got, CU_LIMIT_PRINTF_FIFO_SIZE);
		fprintf(stderr, "replay: printf FIFO %zu bytes (asked %zu)\n",
			got, (size_t)printf_limit);
	}
}

static CUmodule module_of(int pid)
{
	struct program *p = programs[pid];
	if (!p)
		return NULL;
	if (p->mod)
		return p->mod;
	char log[8192] = "";
	CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER,
			       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { log, (void *)(uintptr_t)sizeof(log) };
	CUlinkState ls;
	void *cubin;
	size_t cubin_size;
	if (!check(cuLinkCreate(2, opt, val, &ls), "link create"))
		return NULL;
	bool ok = true;
	for (int i = 0; i < p->nsrc && ok; i++) {
		size_t len;
		char *text = read_blob(p->blobs[i], &len);
		ok = text && check(cuLinkAddData(ls, CU_JIT_INPUT_PTX, text,
						 len + 1, p->blobs[i], 0, NULL,
						 NULL), "link add");
		free(text);
	}
	ok = ok && check(cuLinkComplete(ls, &cubin, &cubin_size),
			 "link complete") &&
	     check(cuModuleLoadData(&p->mod, cubin), "module load");
	if (!ok)
		fprintf(stderr, "replay: program %d: %s\n", pid, log);
	cuLinkDestroy(ls);
	return ok ? p->mod : NULL;
}

static CUdeviceptr buffer(long id, size_t size)
{
	if (id < 0 || id >= MAX_IDS)
		return 0;
	if (!dbuf[id] || dsize[id] < size) {
		if (dbuf[id])
			cuMemFree(dbuf[id]);
		dbuf[id] = 0;
		check(cuMemAlloc(&dbuf[id], size ? size : 1), "alloc");
		dsize[id] = size;
	}
	return dbuf[id];
}

/* ---- textures and surfaces as CUDA arrays ---- */

static unsigned texel_bytes(const struct texrec *t)
{
	unsigned c = t->format == 0x01 || t->format == 0x08 ? 1 :
		     t->format == 0x02 || t->format == 0x09 ||
		     t->format == 0x10 ? 2 : 4;
	return c * t->channels;
}

static unsigned slices_of(const struct texrec *t)
{
	switch (t->shape) {
	case 2: return t->d;
	case 3: case 4: return t->layers;
	case 5: return 6;
	case 6: return 6 * t->layers;
	default: return 1;
	}
}

static void array_desc(const struct texrec *t, unsigned lev,
		       CUDA_ARRAY3D_DESCRIPTOR *a)
{
	memset(a, 0, sizeof(*a));
	a->Width = t->w >> lev ? t->w >> lev : 1;
	a->Height = t->shape == 0 || t->shape == 3 ? 0 :
		    (t->h >> lev ? t->h >> lev : 1);
	a->Depth = t->shape == 2 ? (t->d >> lev ? t->d >> lev : 1) :
		   t->shape >= 3 ? slices_of(t) : 0;
	a->Format = (CUarray_format)t->format;
	a->NumChannels = t->channels;
	if (t->shape == 3 || t->shape == 4 || t->shape == 6)
		a->Flags |= CUDA_ARRAY3D_LAYERED;
	if (t->shape == 5 || t->shape == 6)
		a->Flags |= CUDA_ARRAY3D_CUBEMAP;
	if (t->surface)
		a->Flags |= CUDA_ARRAY3D_SURFACE_LDST;
}

static void copy_level(const struct texrec *t, unsigned lev, CUarray arr,
		       bool to_array)
{
	CUDA_ARRAY3D_DESCRIPTOR a;
	array_desc(t, lev, &a);
	CUDA_MEMCPY3D c;
	memset(&c, 0, sizeof(c));
	CUdeviceptr p = dbuf[t->buf[lev]] + t->off[lev];
	size_t rows = a.Height ? a.Height : 1;
	if (to_array) {
		c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		c.srcDevice = p;
		c.srcPitch = t->pitch[lev];
		c.srcHeight = rows;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = arr;
	} else {
		c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		c.srcArray = arr;
		c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		c.dstDevice = p;
		c.dstPitch = t->pitch[lev];
		c.dstHeight = rows;
	}
	c.WidthInBytes = a.Width * texel_bytes(t);
	c.Height = rows;
	c.Depth = a.Depth ? a.Depth : 1;
	check(cuMemcpy3D(&c), "array copy");
}

struct live_obj {
	unsigned long long handle;
	CUarray arr;
	CUmipmappedArray mip;
	struct texrec *t;
};

static bool make_object(struct texrec *t, struct live_obj *o)
{
	CUDA_RESOURCE_DESC r;
	memset(&r, 0, sizeof(r));
	memset(o, 0, sizeof(*o));
	o->t = t;
	if (t->linear) {
		r.resType = CU_RESOURCE_TYPE_LINEAR;
		r.res.linear.devPtr = dbuf[t->buf[0]] + t->off[0];
		r.res.linear.format = (CUarray_format)t->format;
		r.res.linear.numChannels = t->channels;
		r.res.linear.sizeInBytes = (size_t)t->w * texel_bytes(t);
	} else if (t->levels > 1) {
		CUDA_ARRAY3D_DESCRIPTOR a;
		array_desc(t, 0, &a);
		if (!check(cuMipmappedArrayCreate(&o->mip, &a, t->levels),
			   "mipmapped array"))
			return false;
		for (unsigned l = 0; l < t->levels; l++) {
			CUarray lev;
			check(cuMipmappedArrayGetLevel(&lev, o->mip, l), "level");
			copy_level(t, l, lev, true);
		}
		r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		r.res.mipmap.hMipmappedArray = o->mip;
	} else {
		CUDA_ARRAY3D_DESCRIPTOR a;
		array_desc(t, 0, &a);
		if (!check(cuArray3DCreate(&o->arr, &a), "array"))
			return false;
		copy_level(t, 0, o->arr, true);
		r.resType = CU_RESOURCE_TYPE_ARRAY;
		r.res.array.hArray = o->arr;
	}
	if (t->surface)
		return check(cuSurfObjectCreate(&o->handle, &r), "surface");
	CUDA_TEXTURE_DESC td;
	memset(&td, 0, sizeof(td));
	for (int i = 0; i < 3; i++)
		td.addressMode[i] = (CUaddress_mode)t->addr[i];
	td.filterMode = (CUfilter_mode)t->filter;
	td.mipmapFilterMode = (CUfilter_mode)t->mipfilter;
	if (!t->readnorm && t->format != CU_AD_FORMAT_HALF &&
	    t->format != CU_AD_FORMAT_FLOAT)	/* integer texels */
		td.flags |= CU_TRSF_READ_AS_INTEGER;
	if (t->normcoords)
		td.flags |= CU_TRSF_NORMALIZED_COORDINATES;
	if (t->srgb)
		td.flags |= CU_TRSF_SRGB;
	td.maxAnisotropy = t->aniso;
	td.mipmapLevelBias = t->bias;
	td.minMipmapLevelClamp = t->minc;
	td.maxMipmapLevelClamp = t->maxc;
	memcpy(td.borderColor, t->border, sizeof(td.borderColor));
	return check(cuTexObjectCreate(&o->handle, &r, &td, NULL), "texture");
}

static void drop_object(struct live_obj *o)
{
	if (o->t->surface) {
		if (o->arr)
			copy_level(o->t, 0, o->arr, false);
		cuSurfObjectDestroy(o->handle);
	} else {
		cuTexObjectDestroy(o->handle);
	}
	if (o->arr)
		cuArrayDestroy(o->arr);
	if (o->mip)
		cuMipmappedArrayDestroy(o->mip);
}

/* ---- one launch ---- */

struct launch {
	unsigned id, flags, shared, psize, nparams;
	int pid;
	char kernel[1024];
	unsigned grid[3], block[3];
	char pblob[24];
	unsigned poff[256], plen[256];
	uint8_t *params;
	struct live_obj objs[32];
	unsigned nobjs;
	long reloc[64][3];	/* param offset, buffer, offset in it */
	unsigned nrelocs;
};

/* ---- a watchdog for launches that never finish ---- */

static pthread_mutex_t dog_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dog_cond = PTHREAD_COND_INITIALIZER;
static bool dog_armed;
static unsigned long dog_gen;	/* one per launch */
static unsigned dog_id;
static char dog_kernel[1024];

static void *watchdog(void *arg)
{
	unsigned limit = *(unsigned *)arg;
	pthread_mutex_lock(&dog_lock);
	for (;;) {
		while (!dog_armed)
			pthread_cond_wait(&dog_cond, &dog_lock);
		unsigned long gen = dog_gen;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += limit;
		int r = 0;
		while (dog_armed && dog_gen == gen && r == 0)
			r = pthread_cond_timedwait(&dog_cond, &dog_lock, &ts);
		if (dog_armed && dog_gen == gen) {
			fprintf(stderr, "replay: TIMEOUT launch %u (%s)\n", dog_id,
				dog_kernel);
			fflush(stderr);
			_exit(3);
		}
	}
	return NULL;
}

static void dog_arm(unsigned id, const char *kernel)
{
	pthread_mutex_lock(&dog_lock);
	dog_id = id;
	snprintf(dog_kernel, sizeof(dog_kernel), "%s", kernel);
	dog_armed = true;
	dog_gen++;
	pthread_cond_broadcast(&dog_cond);
	pthread_mutex_unlock(&dog_lock);
}

static void dog_disarm(void)
{
	pthread_mutex_lock(&dog_lock);
	dog_armed = false;
	pthread_cond_broadcast(&dog_cond);
	pthread_mutex_unlock(&dog_lock);
}

static char *run_captured(CUfunction f, struct launch *L, CUresult *res)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/stdout.tmp", out_dir);
	fflush(stdout);
	int saved = dup(1);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	size_t psize = L->psize;
	void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, L->params,
			  CU_LAUNCH_PARAM_BUFFER_SIZE, &psize,
			  CU_LAUNCH_PARAM_END };
	void *kp[256];
	for (unsigned i = 0; i < L->nparams; i++)
		kp[i] = L->params + L->poff[i];
	dog_arm(L->id, L->kernel);
	if (L->flags & 1)
		*res = cuLaunchCooperativeKernel(f, L->grid[0], L->grid[1],
						 L->grid[2], L->block[0],
						 L->block[1], L->block[2],
						 L->shared, NULL, kp);
	else
		*res = cuLaunchKernel(f, L->grid[0], L->grid[1], L->grid[2],
				      L->block[0], L->block[1], L->block[2],
				      L->shared, NULL, NULL, extra);
	if (*res == CUDA_SUCCESS)
		*res = cuCtxSynchronize();
	dog_disarm();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	off_t n = lseek(fd, 0, SEEK_END);
	char *text = calloc(1, (size_t)n + 1);
	if (text && n > 0 && pread(fd, text, (size_t)n, 0) != n)
		text[0] = 0;
	close(fd);
	unlink(path);
	return text;
}

static bool skipped(unsigned id)
{
	const char *s = getenv("REPLAY_SKIP");
	while (s && *s) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);
		if (end == s)
			break;
		if (v == id)
			return true;
		s = *end ? end + 1 : end;
	}
	return false;
}

static void do_launch(struct launch *L)
{
	if (skipped(L->id)) {
		fprintf(stderr, "replay: launch %u (%s) skipped\n", L->id,
			L->kernel);
		free(last_text);
		last_text = NULL;
		last_ok = false;
		for (unsigned i = 0; i < L->nobjs; i++)
			drop_object(&L->objs[i]);
		return;
	}
	fprintf(stderr, "replay: launch %u (%s)\n", L->id, L->kernel);
	fflush(stderr);
	CUmodule m = module_of(L->pid);
	CUfunction f;
	CUresult res = CUDA_ERROR_INVALID_IMAGE;
	free(last_text);
	last_text = NULL;
	last_ok = false;
	if (m && check(cuModuleGetFunction(&f, m, L->kernel), L->kernel)) {
		if (L->shared > 48 * 1024)
			cuFuncSetAttribute(
				f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
				(int)L->shared);
		last_text = run_captured(f, L, &res);
	}
	for (unsigned i = 0; i < L->nobjs; i++)
		drop_object(&L->objs[i]);
	if (res != CUDA_SUCCESS) {
		const char *s = NULL;
		cuGetErrorName(res, &s);
		fprintf(stderr, "replay: launch %u (%s) failed: %s\n", L->id,
			L->kernel, s ? s : "?");
		failures++;
		new_context();
		return;
	}
	last_ok = true;
}

/* ---- the manifest ---- */

static void write_out(const char *name, const char *ext, const void *p,
		      size_t n)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/%s.%s", out_dir, name, ext);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

static void parse_texture(char *line)
{
	struct texrec *t = calloc(1, sizeof(*t));
	int id, surf, n = 0, pos = 0;
	if (sscanf(line,
		   "texture %d %d %u %u %u %u %u %u %u %u %u %u %u %u %u %u %u "
		   "%u %d %a %a %a %a %a %a %a %u%n",
		   &id, &surf, &t->format, &t->channels, &t->shape, &t->w,
		   &t->h, &t->d, &t->layers, &t->levels, &t->addr[0],
		   &t->addr[1], &t->addr[2], &t->filter, &t->mipfilter,
		   &t->readnorm, &t->normcoords, &t->srgb, &t->linear,
		   &t->border[0], &t->border[1], &t->border[2], &t->border[3],
		   &t->bias, &t->minc, &t->maxc, &t->aniso, &pos) < 27 ||
	    id < 0 || id >= MAX_IDS) {
		fprintf(stderr, "replay: bad texture line\n");
		free(t);
		return;
	}
	t->surface = surf;
	char *p = line + pos;
	for (unsigned l = 0; l < (t->levels ? t->levels : 1) && l < 16; l++) {
		if (sscanf(p, " %ld %zu %llu %llu%n", &t->buf[l], &t->off[l],
			   &t->pitch[l], &t->slice[l], &n) < 4)
			break;
		p += n;
	}
	free(textures[id]);
	textures[id] = t;
}

static void parse_program(char *line)
{
	struct program *p = calloc(1, sizeof(*p));
	int id, pos;
	if (sscanf(line, "program %d %d%n", &id, &p->nsrc, &pos) < 2 ||
	    id < 0 || id >= MAX_IDS || p->nsrc > 16) {
		free(p);
		return;
	}
	char *s = line + pos;
	for (int i = 0; i < p->nsrc; i++) {
		int n;
		if (sscanf(s, " %23s%n", p->blobs[i], &n) < 1)
			break;
		s += n;
	}
	free(programs[id]);
	programs[id] = p;
}

static void parse_launch(char *line, struct launch *L)
{
	int pos = 0, n;
	memset(L, 0, sizeof(*L));
	sscanf(line,
	       "launch %u %d %1023s %u %u %u %u %u %u %u %u %23s %u %u%n",
	       &L->id, &L->pid, L->kernel, &L->grid[0], &L->grid[1],
	       &L->grid[2], &L->block[0], &L->block[1], &L->block[2],
	       &L->shared, &L->flags, L->pblob, &L->psize, &L->nparams, &pos);
	char *s = line + pos;
	for (unsigned i = 0; i < L->nparams && i < 256; i++) {
		if (sscanf(s, " %u:%u%n", &L->poff[i], &L->plen[i], &n) < 2)
			break;
		s += n;
	}
	size_t len = 0;
	uint8_t *p = read_blob(L->pblob, &len);
	L->params = calloc(1, L->psize + 16);
	if (p && L->params)
		memcpy(L->params, p, len < L->psize ? len : L->psize);
	free(p);
}

/* The indented lines of a launch, up to "go". */
static void launch_line(char *line, struct launch *L)
{
	long id, off, at;
	char name[24];
	size_t size;
	int changed;
	if (sscanf(line, " state %ld %zu %23s %d", &id, &size, name,
		   &changed) == 4) {
		/* what the GPU left is kept unless the host changed it, or
		 * a new context lost it */
		bool lost = id < 0 || id >= MAX_IDS || !dbuf[id];
		if (!changed && !lost)
			return;
		size_t len = 0;
		uint8_t *b = read_blob(name, &len);
		CUdeviceptr d = buffer(id, size);
		if (b && d && size)
			check(cuMemcpyHtoD(d, b, size), "upload");
		free(b);
	} else if (sscanf(line, " reloc %ld %ld %ld", &off, &id, &at) == 3) {
		if (L->nrelocs < 64) {
			L->reloc[L->nrelocs][0] = off;
			L->reloc[L->nrelocs][1] = id;
			L->reloc[L->nrelocs++][2] = at;
		}
	} else if (sscanf(line, " texobj %ld %ld", &off, &id) == 2) {
		/* objects are built at "go", once the buffers are there */
		L->objs[L->nobjs].handle = (unsigned long long)off;
		L->objs[L->nobjs++].t = id >= 0 && id < MAX_IDS ?
						textures[id] : NULL;
	} else if (!strncmp(line, "  go", 4)) {
		for (unsigned i = 0; i < L->nrelocs; i++) {
			id = L->reloc[i][1];
			uint64_t v = (uint64_t)(id >= 0 && id < MAX_IDS ?
						dbuf[id] : 0) +
				     (uint64_t)L->reloc[i][2];
			memcpy(L->params + L->reloc[i][0], &v, 8);
		}
		for (unsigned i = 0; i < L->nobjs; i++) {
			off = (long)L->objs[i].handle;
			struct texrec *t = L->objs[i].t;
			if (!t || !make_object(t, &L->objs[i]))
				continue;
			memcpy(L->params + off, &L->objs[i].handle, 8);
		}
		do_launch(L);
		free(L->params);
		L->params = NULL;
	}
}

static void expect_line(char *line)
{
	char name[512];
	long id;
	size_t off, bytes;
	if (sscanf(line, "expect %511s %ld %zu %zu", name, &id, &off,
		   &bytes) == 4) {
		if (!last_ok || id < 0 || id >= MAX_IDS || !dbuf[id])
			return;
		uint8_t *b = malloc(bytes ? bytes : 1);
		if (b && check(cuMemcpyDtoH(b, dbuf[id] + off, bytes),
			       "download"))
			write_out(name, "bin", b, bytes);
		free(b);
	} else if (sscanf(line, "expect_text %511s", name) == 1 && last_ok) {
		write_out(name, "txt", last_text ? last_text : "",
			  last_text ? strlen(last_text) : 0);
	}
}

static void limit_line(char *line)
{
	unsigned long long v;
	if (sscanf(line, "limit heap %llu", &v) == 1 && v != heap_limit) {
		heap_limit = v;
		new_context();
	} else if (sscanf(line, "limit printf %llu", &v) == 1 &&
		   v != printf_limit) {
		printf_limit = v;
		new_context();
	}
}

static void replay_manifest(const char *path)
{
	FILE *f = fopen(path, "r");
	static char line[1 << 16];
	struct launch L = { 0 };
	if (!f)
		return;
	fprintf(stderr, "replay: %s\n", path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "program ", 8))
			parse_program(line);
		else if (!strncmp(line, "texture ", 8))
			parse_texture(line);
		else if (!strncmp(line, "limit ", 6))
			limit_line(line);
		else if (!strncmp(line, "launch ", 7))
			parse_launch(line, &L);
		else if (line[0] == ' ')
			launch_line(line, &L);
		else if (!strncmp(line, "expect", 6))
			expect_line(line);
	}
	fclose(f);
	for (int i = 0; i < MAX_IDS; i++) {
		free(programs[i]);
		programs[i] = NULL;
		free(textures[i]);
		textures[i] = NULL;
	}
	heap_limit = printf_limit = 0;
	new_context();
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_manifest(const struct dirent *e)
{
	size_t n = strlen(e->d_name);
	return n > 9 && !strcmp(e->d_name + n - 9, ".manifest");
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: replay RECORD_DIR OUT_DIR [MANIFEST]\n");
		return 2;
	}
	rec_dir = argv[1];
	out_dir = argv[2];
	static unsigned limit = 20;
	pthread_t dog;
	if (getenv("REPLAY_TIMEOUT"))
		limit = (unsigned)atoi(getenv("REPLAY_TIMEOUT"));
	pthread_create(&dog, NULL, watchdog, &limit);
	if (!check(cuInit(0), "init") || !check(cuDeviceGet(&dev, 0), "device"))
		return 1;
	new_context();
	if (argc == 4) {
		char path[2048];
		snprintf(path, sizeof(path), "%s/%s", rec_dir, argv[3]);
		replay_manifest(path);
		fprintf(stderr, "replay: %d launches failed\n", failures);
		return 0;
	}
	struct dirent **list;
	int n = scandir(rec_dir, &list, is_manifest, by_name);
	for (int i = 0; i < n; i++) {
		char path[2048];
		snprintf(path, sizeof(path), "%s/%s", rec_dir, list[i]->d_name);
		replay_manifest(path);
		free(list[i]);
	}
	free(list);
	fprintf(stderr, "replay: %d launches failed\n", failures);
	return 0;
}
