// SPDX-License-Identifier: MIT
/*
 * A libFuzzer target over vcuda.ko's ioctls: each input is a recorded
 * sequence of calls, replayed on two fresh files of the first vcuda render
 * node, which are closed at the end (so that teardown runs on whatever
 * state the sequence left). Runs as root in the test VM:
 *
 *   tools/vcuda-vm --debug --param vram_mb=64 --param job_timeout_ms=200 \
 *       -- tests/vm/fuzz-ioctl.sh SECONDS
 *
 * The input format: a call is one opcode byte, then that call's argument
 * bytes (a short input reads zeros). Opcode bit 7 picks the second file;
 * the low bits pick one of enum op modulo OP_COUNT. Arguments that name an
 * object (context, queue, buffer, syncobj, launch, token, dma-buf) are a
 * byte choosing among the objects earlier calls created, of any file (a
 * byte of 0xf0 or more gives a wild value instead), so sequences build on
 * their own results and also try other files' handles. Sizes, addresses
 * and flags are drawn from classes (valid, boundary, wild) chosen by
 * argument bytes. Every call is bounded in time: waits get time-outs of
 * at most a few milliseconds, and jobs that never finish are cancelled by
 * the close (or by the module's job_timeout_ms).
 *
 * Coverage: ioctl_cov.c, kernel PCs with KCOV, a named proxy without.
 * At exit the target prints its executions and distinct features. With
 * FUZZ_IOCTL_TRACE=1 it prints each call and its result (to read what a
 * saved crash or slow input does: fuzz_ioctl FILE).
 */
#include "fuzz.h"
#include "ioctl_cov.h"
#include "../kselftest/vcuda_test.h"

#define MAX_OBJS 32
#define WINDOW_PAGES 1024u	/* GPU addresses used: 4 MiB from va_start */
#define HOST_PAGES 16u		/* harness memory for userptr and pointers */
#define MAX_MAPS 16

enum op {
	OP_DEV_QUERY, OP_CTX_CREATE, OP_CTX_DESTROY, OP_CTX_GET_STATE,
	OP_BO_CREATE, OP_BO_USERPTR, OP_BO_MMAP, OP_VM_BIND, OP_VM_TRANSLATE,
	OP_QUEUE_CREATE, OP_QUEUE_DESTROY, OP_SUBMIT, OP_COMPUTE_WAIT,
	OP_COMPUTE_DONE, OP_IPC_EXPORT, OP_IPC_IMPORT, OP_DEVICE_RESET,
	OP_GEM_CLOSE, OP_PRIME_EXPORT, OP_PRIME_IMPORT, OP_SYNCOBJ_CREATE,
	OP_SYNCOBJ_DESTROY, OP_SYNCOBJ_WAIT, OP_SYNCOBJ_SIGNAL,
	OP_SYNCOBJ_QUERY, OP_SYNCOBJ_TRANSFER, OP_SYNCOBJ_RESET,
	OP_COUNT
};

enum kind { K_CTX, K_QUEUE, K_BO, K_SYNCOBJ, K_LAUNCH, K_DMABUF, K_COUNT };

struct objs {
	uint64_t v[MAX_OBJS];
	unsigned int n;
};

struct reader {
	const uint8_t *p;
	size_t left;
};

struct run {
	struct reader in;
	int fd[2];
	struct objs obj[K_COUNT];
	struct drm_vcuda_ipc_handle tokens[4];
	unsigned int ntokens;
	void *maps[MAX_MAPS];
	size_t map_len[MAX_MAPS];
	unsigned int nmaps;
};

static const char *const op_names[OP_COUNT] = {
	"DEV_QUERY", "CTX_CREATE", "CTX_DESTROY", "CTX_GET_STATE",
	"BO_CREATE", "BO_USERPTR", "BO_MMAP", "VM_BIND", "VM_TRANSLATE",
	"QUEUE_CREATE", "QUEUE_DESTROY", "SUBMIT", "COMPUTE_WAIT",
	"COMPUTE_DONE", "IPC_EXPORT", "IPC_IMPORT", "DEVICE_RESET",
	"GEM_CLOSE", "PRIME_EXPORT", "PRIME_IMPORT", "SYNCOBJ_CREATE",
	"SYNCOBJ_DESTROY", "SYNCOBJ_WAIT", "SYNCOBJ_SIGNAL",
	"SYNCOBJ_QUERY", "SYNCOBJ_TRANSFER", "SYNCOBJ_RESET",
};

static bool trace;
static uint64_t va_start;
static uint8_t *host;		/* HOST_PAGES of harness memory */
static uint64_t execs;

static uint8_t u8(struct reader *r)
{
	if (!r->left)
		return 0;
	r->left--;
	return *r->p++;
}

static uint16_t u16(struct reader *r)
{
	return u8(r) | (uint16_t)u8(r) << 8;
}

static uint32_t u32(struct reader *r)
{
	return u16(r) | (uint32_t)u16(r) << 16;
}

static uint64_t u64(struct reader *r)
{
	return u32(r) | (uint64_t)u32(r) << 32;
}

static void keep(struct run *run, enum kind k, uint64_t v)
{
	struct objs *o = &run->obj[k];

	if (o->n < MAX_OBJS)
		o->v[o->n++] = v;
	else
		o->v[v % MAX_OBJS] = v;
}

/* An object of kind @k made earlier, or a wild value. */
static uint64_t pick(struct run *run, enum kind k)
{
	uint8_t b = u8(&run->in);
	struct objs *o = &run->obj[k];

	if (b < 0xf0 && o->n)
		return o->v[b % o->n];
	switch (b & 3) {
	case 0: return 0;
	case 1: return 1 + (b >> 2 & 3);
	case 2: return 0xffffffffu;
	default: return u32(&run->in);
	}
}

/* The file of this call (the opcode's bit 7 swapped the two). */
static int pick_fd(struct run *run)
{
	return run->fd[0];
}

/* A GPU address: page-aligned in the window, or off by a class. */
static uint64_t gpu_addr(struct run *run)
{
	uint8_t cls = u8(&run->in);
	uint64_t page = u16(&run->in) % WINDOW_PAGES;
	uint64_t va = va_start + page * VT_PAGE;

	switch (cls & 7) {
	case 5: return va + (cls >> 3);			/* misaligned */
	case 6: return va_start - VT_PAGE;		/* below the range */
	case 7: return u64(&run->in);			/* wild */
	default: return va;
	}
}

/* A size: pages, a large page, or a boundary or wild value. */
static uint64_t byte_size(struct run *run)
{
	uint8_t cls = u8(&run->in);

	switch (cls & 7) {
	case 4: return DRM_VCUDA_LARGE_PAGE_SIZE;
	case 5: return 0;
	case 6: return 1 + (cls >> 3);
	case 7: return u64(&run->in);
	default: return (uint64_t)(1 + (cls >> 3)) * VT_PAGE;
	}
}

/* A user pointer for the kernel to read or write: class in @cls. */
static uint64_t user_ptr(uint8_t cls)
{
	switch (cls & 3) {
	case 0: return (uint64_t)(uintptr_t)host;
	case 1: return 0;
	case 2: return 1;
	default: return 0xffff800000000000ull;		/* kernel half */
	}
}

static int call(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static void keep_map(struct run *run, void *p, size_t len)
{
	if (run->nmaps == MAX_MAPS) {
		munmap(p, len);
		return;
	}
	run->maps[run->nmaps] = p;
	run->map_len[run->nmaps++] = len;
}

static int do_dev_query(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_dev_query q = { 0 };
	uint8_t c = u8(&run->in);

	q.type = c & 3;
	q.size = c & 0x80 ? u16(&run->in) : u8(&run->in);
	q.pointer = (c & 0x40) ? 0 : user_ptr(c >> 2);
	if (q.pointer == (uint64_t)(uintptr_t)host && q.size > HOST_PAGES * VT_PAGE)
		q.size = HOST_PAGES * VT_PAGE;
	*cls = c;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_DEV_QUERY, &q);
}

static int do_ctx_create(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_ctx_create c = { 0 };
	uint8_t f = u8(&run->in);
	int err;

	c.flags = f >= 0xf0 ? f : 0;
	*cls = !!c.flags;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_CTX_CREATE, &c);
	if (!err)
		keep(run, K_CTX, c.ctx_id);
	return err;
}

static int do_ctx_destroy(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_ctx_destroy d = { .ctx_id = pick(run, K_CTX) };
	int fd = pick_fd(run);

	d.pad = u8(&run->in) == 0xff;
	*cls = d.pad;
	return call(fd, DRM_IOCTL_VCUDA_CTX_DESTROY, &d);
}

static int do_ctx_get_state(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_ctx_get_state s = { .ctx_id = pick(run, K_CTX) };

	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_CTX_GET_STATE, &s);
}

static int do_bo_create(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_bo_create b = { 0 };
	uint8_t c = u8(&run->in);
	int err;

	b.size = byte_size(run);
	b.placement = c & 3;
	b.flags = c >> 2 & 0xf;
	b.pad = c >> 6 == 3;
	*cls = c;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_BO_CREATE, &b);
	if (!err)
		keep(run, K_BO, b.handle);
	return err;
}

static int do_bo_userptr(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_bo_userptr u = { 0 };
	uint8_t c = u8(&run->in);
	uint8_t page = u8(&run->in) % HOST_PAGES;
	int err;

	u.addr = (uint64_t)(uintptr_t)host + page * VT_PAGE;
	u.size = (uint64_t)(1 + (c & 15)) * VT_PAGE;
	if (c & 0x10)
		u.addr += 8;			/* misaligned */
	if (c & 0x20)
		u.size = u64(&run->in);		/* wild, may overflow */
	if (c & 0x40)
		u.addr = user_ptr(c >> 6);
	u.flags = c == 0xff;
	*cls = c >> 4;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_BO_USERPTR, &u);
	if (!err)
		keep(run, K_BO, u.handle);
	return err;
}

/* The fake offset, then a mapping of it that the harness touches. */
static int do_bo_mmap(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_bo_mmap_offset m = { .handle = pick(run, K_BO) };
	uint8_t c = u8(&run->in);
	int fd = pick_fd(run);
	size_t len = (size_t)(1 + (c & 7)) * VT_PAGE;
	uint8_t *p;
	int err;

	*cls = c & 0x18;
	err = call(fd, DRM_IOCTL_VCUDA_BO_MMAP_OFFSET, &m);
	if (err || !(c & 0x18))
		return err;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (p == MAP_FAILED)
		return -errno;
	/* Only the first page is surely backed: bigger maps may SIGBUS. */
	p[c >> 5] = c;
	keep_map(run, p, len);
	return 0;
}

static int do_vm_bind(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_vm_bind_op ops[4] = { 0 };
	struct drm_vcuda_vm_bind b = { .ctx_id = pick(run, K_CTX) };
	uint8_t c = u8(&run->in);
	unsigned int i, n = 1 + (c & 3);

	for (i = 0; i < n; i++) {
		uint8_t f = u8(&run->in);

		ops[i].flags = (f & 3) | (f & 4 ? DRM_VCUDA_VM_BIND_READONLY : 0);
		if (f & 8)
			ops[i].flags |= 1u << 12;	/* undefined */
		ops[i].bo_handle = (f & 3) == DRM_VCUDA_VM_BIND_OP_MAP ?
				   pick(run, K_BO) : 0;
		ops[i].bo_offset = f & 0x10 ? byte_size(run) : 0;
		ops[i].va = gpu_addr(run);
		ops[i].size = byte_size(run);
	}
	b.ops = VT_ARRAY(n, ops);
	if (c & 4)
		b.ops.stride = u8(&run->in);
	if (c & 8)
		b.syncs.count = 1;
	if (c & 0x10)
		b.flags = 1;
	*cls = c >> 2;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_VM_BIND, &b);
}

static int do_vm_translate(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_vm_translate t = { .ctx_id = pick(run, K_CTX) };

	t.va = gpu_addr(run);
	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_VM_TRANSLATE, &t);
}

static int do_queue_create(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_queue_create q = { .ctx_id = pick(run, K_CTX) };
	uint8_t c = u8(&run->in);
	int err;

	q.engine = c & 1 ? DRM_VCUDA_ENGINE_COPY : DRM_VCUDA_ENGINE_COMPUTE;
	if ((c & 0x30) == 0x30)
		q.engine = 2 + (c >> 6);
	q.priority = c >> 1 & 3;
	q.flags = (c & 0xc0) == 0xc0;
	*cls = c;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_QUEUE_CREATE, &q);
	if (!err)
		keep(run, K_QUEUE, q.queue_id);
	return err;
}

static int do_queue_destroy(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_queue_destroy d = { .queue_id = pick(run, K_QUEUE) };

	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_QUEUE_DESTROY, &d);
}

/* One command; its arguments stay inside the GPU window mostly. */
static void make_cmd(struct run *run, struct drm_vcuda_cmd *cmd)
{
	uint8_t c = u8(&run->in);

	cmd->op = c % 8;	/* 7: undefined */
	cmd->flags = c & 0x80 ? u8(&run->in) & 0x10f : 0;
	switch (cmd->op) {
	case DRM_VCUDA_CMD_COPY:
		cmd->u.copy.src = gpu_addr(run);
		cmd->u.copy.dst = gpu_addr(run);
		cmd->u.copy.width = 1 + u16(&run->in);
		cmd->u.copy.height = 1 + (u8(&run->in) & 3);
		cmd->u.copy.depth = 1 + (c >> 3 & 1);
		cmd->u.copy.src_pitch = cmd->u.copy.width + (c >> 4 & 1) * 64;
		cmd->u.copy.dst_pitch = cmd->u.copy.src_pitch;
		cmd->u.copy.src_slice_pitch = cmd->u.copy.src_pitch * 4;
		cmd->u.copy.dst_slice_pitch = cmd->u.copy.src_slice_pitch;
		break;
	case DRM_VCUDA_CMD_FILL:
		cmd->u.fill.dst = gpu_addr(run);
		cmd->u.fill.width = 1 + u16(&run->in);
		cmd->u.fill.height = 1 + (u8(&run->in) & 3);
		cmd->u.fill.pitch = cmd->u.fill.width * 4;
		cmd->u.fill.value = u32(&run->in);
		break;
	case DRM_VCUDA_CMD_LAUNCH:
		cmd->u.launch.descriptor = u64(&run->in);
		cmd->u.launch.threads = u16(&run->in);
		break;
	case DRM_VCUDA_CMD_TIMESTAMP:
		cmd->u.timestamp.dst = gpu_addr(run);
		break;
	case DRM_VCUDA_CMD_SEM_ACQUIRE:
	case DRM_VCUDA_CMD_SEM_RELEASE:
		cmd->u.sem.addr = gpu_addr(run);
		cmd->u.sem.value = u8(&run->in);
		break;
	default:
		if (c & 0x40)
			cmd->u.raw[10] = 1;	/* unused bytes must be zero */
		break;
	}
}

static void make_sync(struct run *run, struct drm_vcuda_sync_op *s)
{
	uint8_t c = u8(&run->in);

	s->handle = pick(run, K_SYNCOBJ);
	s->flags = (c & 1) | (c & 2 ? DRM_VCUDA_SYNC_OP_SIGNAL : 0);
	if (c & 4)
		s->flags |= 1u << 20;		/* undefined */
	s->point = c & 8 ? 1 + (c >> 4) : 0;
}

static int do_submit(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_cmd cmds[3][4];
	struct drm_vcuda_sync_op syncs[3][2];
	struct drm_vcuda_job jobs[3];
	struct drm_vcuda_submit s = { .queue_id = pick(run, K_QUEUE) };
	uint8_t c = u8(&run->in);
	unsigned int j, i, njobs = 1 + c % 3;

	memset(cmds, 0, sizeof(cmds));
	memset(syncs, 0, sizeof(syncs));
	for (j = 0; j < njobs; j++) {
		uint8_t shape = u8(&run->in);
		unsigned int ncmds = shape & 3, nsyncs = shape >> 2 & 3;

		ncmds = ncmds ? ncmds : 4;
		nsyncs = nsyncs > 2 ? 2 : nsyncs;
		for (i = 0; i < ncmds; i++)
			make_cmd(run, &cmds[j][i]);
		for (i = 0; i < nsyncs; i++)
			make_sync(run, &syncs[j][i]);
		jobs[j].cmds = VT_ARRAY(shape & 0x40 ? 0 : ncmds, cmds[j]);
		jobs[j].syncs = VT_ARRAY(nsyncs, syncs[j]);
		if (shape & 0x80)
			jobs[j].cmds.stride = 8;	/* shorter than known */
	}
	s.jobs = VT_ARRAY(njobs, jobs);
	s.flags = (c & 0xf0) == 0xf0;
	*cls = c >> 2;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_SUBMIT, &s);
}

static int do_compute_wait(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_compute_wait w = { .ctx_id = pick(run, K_CTX) };
	int err;

	/* Never zero (no limit): at most about 1 ms. */
	w.timeout_ns = 1000ull * (1 + u8(&run->in) % 1000 / 4);
	*cls = 0;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_COMPUTE_WAIT, &w);
	if (!err)
		keep(run, K_LAUNCH, w.launch_id);
	return err;
}

static int do_compute_done(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_compute_done d = { .ctx_id = pick(run, K_CTX) };
	uint8_t c = u8(&run->in);

	d.launch_id = pick(run, K_LAUNCH);
	d.fault_kind = c & 0xf;		/* 10 and above: undefined */
	d.fault_addr = c & 0x10 ? gpu_addr(run) : 0;
	*cls = d.fault_kind;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_COMPUTE_DONE, &d);
}

static int do_ipc_export(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_ipc_export e = { .handle = pick(run, K_BO) };
	int err;

	e.flags = u8(&run->in) == 0xff;
	*cls = e.flags;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_IPC_EXPORT, &e);
	if (!err)
		run->tokens[run->ntokens++ % 4] = e.token;
	return err;
}

static int do_ipc_import(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_ipc_import im = { 0 };
	uint8_t c = u8(&run->in);
	int err;

	if (run->ntokens)
		im.token = run->tokens[c % (run->ntokens < 4 ? run->ntokens : 4)];
	if (c & 0x80)
		im.token.data[u8(&run->in) % sizeof(im.token.data)] ^= u8(&run->in);
	im.flags = (c & 0x60) == 0x60;
	*cls = c >> 5;
	err = call(pick_fd(run), DRM_IOCTL_VCUDA_IPC_IMPORT, &im);
	if (!err)
		keep(run, K_BO, im.handle);
	return err;
}

static int do_device_reset(struct run *run, unsigned int *cls)
{
	struct drm_vcuda_device_reset r = { 0 };

	r.flags = u8(&run->in) == 0xff;
	*cls = r.flags;
	return call(pick_fd(run), DRM_IOCTL_VCUDA_DEVICE_RESET, &r);
}

static int do_gem_close(struct run *run, unsigned int *cls)
{
	struct drm_gem_close g = { .handle = pick(run, K_BO) };

	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_GEM_CLOSE, &g);
}

static int do_prime_export(struct run *run, unsigned int *cls)
{
	struct drm_prime_handle p = { .handle = pick(run, K_BO) };
	uint8_t c = u8(&run->in);
	int err;

	p.flags = DRM_CLOEXEC | (c & 1 ? DRM_RDWR : 0);
	*cls = c & 1;
	err = call(pick_fd(run), DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	if (!err)
		keep(run, K_DMABUF, p.fd);
	return err;
}

static int do_prime_import(struct run *run, unsigned int *cls)
{
	struct drm_prime_handle p = { .fd = pick(run, K_DMABUF) };
	int err;

	*cls = 0;
	err = call(pick_fd(run), DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);
	if (!err)
		keep(run, K_BO, p.handle);
	return err;
}

static int do_syncobj_create(struct run *run, unsigned int *cls)
{
	struct drm_syncobj_create s = { 0 };
	int err;

	s.flags = u8(&run->in) & 1 ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
	*cls = s.flags;
	err = call(pick_fd(run), DRM_IOCTL_SYNCOBJ_CREATE, &s);
	if (!err)
		keep(run, K_SYNCOBJ, s.handle);
	return err;
}

static int do_syncobj_destroy(struct run *run, unsigned int *cls)
{
	struct drm_syncobj_destroy s = { .handle = pick(run, K_SYNCOBJ) };

	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_SYNCOBJ_DESTROY, &s);
}

/* A timeline wait with an absolute deadline about 1 ms away. */
static int do_syncobj_wait(struct run *run, unsigned int *cls)
{
	uint32_t handle = pick(run, K_SYNCOBJ);
	uint64_t point = u8(&run->in) & 7;
	uint8_t c = u8(&run->in);
	struct drm_syncobj_timeline_wait w = {
		.handles = (uint64_t)(uintptr_t)&handle,
		.points = (uint64_t)(uintptr_t)&point,
		.timeout_nsec = (int64_t)vt_now_ns() + 1000000,
		.count_handles = 1,
	};

	if (c & 1)
		w.flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	if (c & 2)
		w.flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
	*cls = c & 3;
	return call(pick_fd(run), DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

static int do_syncobj_signal(struct run *run, unsigned int *cls)
{
	uint32_t handle = pick(run, K_SYNCOBJ);
	uint64_t point = u8(&run->in) & 7;
	struct drm_syncobj_timeline_array a = {
		.handles = (uint64_t)(uintptr_t)&handle,
		.points = (uint64_t)(uintptr_t)&point,
		.count_handles = 1,
	};

	*cls = !!point;
	return call(pick_fd(run), DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a);
}

static int do_syncobj_query(struct run *run, unsigned int *cls)
{
	uint32_t handle = pick(run, K_SYNCOBJ);
	uint64_t point = 0;
	struct drm_syncobj_timeline_array a = {
		.handles = (uint64_t)(uintptr_t)&handle,
		.points = (uint64_t)(uintptr_t)&point,
		.count_handles = 1,
	};

	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_SYNCOBJ_QUERY, &a);
}

static int do_syncobj_transfer(struct run *run, unsigned int *cls)
{
	struct drm_syncobj_transfer t = { 0 };
	uint8_t c = u8(&run->in);

	t.src_handle = pick(run, K_SYNCOBJ);
	t.dst_handle = pick(run, K_SYNCOBJ);
	t.src_point = c & 3;
	t.dst_point = c >> 2 & 3;
	*cls = c & 15;
	return call(pick_fd(run), DRM_IOCTL_SYNCOBJ_TRANSFER, &t);
}

static int do_syncobj_reset(struct run *run, unsigned int *cls)
{
	uint32_t handle = pick(run, K_SYNCOBJ);
	struct drm_syncobj_array a = {
		.handles = (uint64_t)(uintptr_t)&handle,
		.count_handles = 1,
	};

	*cls = 0;
	return call(pick_fd(run), DRM_IOCTL_SYNCOBJ_RESET, &a);
}

typedef int (*op_fn)(struct run *run, unsigned int *cls);

static const op_fn ops[OP_COUNT] = {
	[OP_DEV_QUERY] = do_dev_query,
	[OP_CTX_CREATE] = do_ctx_create,
	[OP_CTX_DESTROY] = do_ctx_destroy,
	[OP_CTX_GET_STATE] = do_ctx_get_state,
	[OP_BO_CREATE] = do_bo_create,
	[OP_BO_USERPTR] = do_bo_userptr,
	[OP_BO_MMAP] = do_bo_mmap,
	[OP_VM_BIND] = do_vm_bind,
	[OP_VM_TRANSLATE] = do_vm_translate,
	[OP_QUEUE_CREATE] = do_queue_create,
	[OP_QUEUE_DESTROY] = do_queue_destroy,
	[OP_SUBMIT] = do_submit,
	[OP_COMPUTE_WAIT] = do_compute_wait,
	[OP_COMPUTE_DONE] = do_compute_done,
	[OP_IPC_EXPORT] = do_ipc_export,
	[OP_IPC_IMPORT] = do_ipc_import,
	[OP_DEVICE_RESET] = do_device_reset,
	[OP_GEM_CLOSE] = do_gem_close,
	[OP_PRIME_EXPORT] = do_prime_export,
	[OP_PRIME_IMPORT] = do_prime_import,
	[OP_SYNCOBJ_CREATE] = do_syncobj_create,
	[OP_SYNCOBJ_DESTROY] = do_syncobj_destroy,
	[OP_SYNCOBJ_WAIT] = do_syncobj_wait,
	[OP_SYNCOBJ_SIGNAL] = do_syncobj_signal,
	[OP_SYNCOBJ_QUERY] = do_syncobj_query,
	[OP_SYNCOBJ_TRANSFER] = do_syncobj_transfer,
	[OP_SYNCOBJ_RESET] = do_syncobj_reset,
};

static void report(void)
{
	fprintf(stderr, "fuzz_ioctl: %llu executions, %llu distinct %s\n",
		(unsigned long long)execs,
		(unsigned long long)ioctl_cov_distinct(),
		ioctl_cov_have_kcov() ? "vcuda.ko PCs (kcov)" :
		"proxy features (not kernel coverage)");
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct drm_vcuda_device_info info;
	int fd = vt_open();

	(void)argc;
	(void)argv;
	if (fd < 0 || vt_device_info(fd, &info)) {
		fprintf(stderr, "fuzz_ioctl: no vcuda render node (%s)\n",
			strerror(fd < 0 ? -fd : errno));
		exit(77);
	}
	va_start = info.va_start;
	close(fd);
	host = mmap(NULL, HOST_PAGES * VT_PAGE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (host == MAP_FAILED) {
		perror("fuzz_ioctl: mmap");
		exit(1);
	}
	ioctl_cov_init();
	trace = getenv("FUZZ_IOCTL_TRACE") != NULL;
	atexit(report);
	return 0;
}

static void finish(struct run *run)
{
	unsigned int i;

	for (i = 0; i < run->obj[K_DMABUF].n; i++)
		close((int)run->obj[K_DMABUF].v[i]);
	for (i = 0; i < run->nmaps; i++)
		munmap(run->maps[i], run->map_len[i]);
	close(run->fd[0]);
	close(run->fd[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run = { .in = { data, size } };
	unsigned int calls = 0;

	run.fd[0] = vt_open();
	run.fd[1] = vt_open();
	if (run.fd[0] < 0 || run.fd[1] < 0) {
		fprintf(stderr, "fuzz_ioctl: cannot open the render node\n");
		abort();
	}
	execs++;
	ioctl_cov_input_begin();
	while (run.in.left && calls++ < 64) {
		uint8_t b = u8(&run.in);
		unsigned int op = (b & 0x7f) % OP_COUNT, cls = 0;
		int fd0 = run.fd[0];
		int err;

		if (b & 0x80) {		/* the second file for this call */
			run.fd[0] = run.fd[1];
			run.fd[1] = fd0;
		}
		err = ops[op](&run, &cls);
		if (b & 0x80) {
			run.fd[1] = run.fd[0];
			run.fd[0] = fd0;
		}
		ioctl_cov_call(op, cls, err);
		if (trace)
			fprintf(stderr, "fuzz_ioctl: %s (file %d, class %#x): %s\n",
				op_names[op], b >> 7, cls, strerror(-err));
	}
	finish(&run);
	ioctl_cov_input_end();
	return 0;
}
