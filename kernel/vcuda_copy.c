// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: the copy engine: COPY, FILL and TIMESTAMP commands.
 */

#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "vcuda_copy.h"
#include "vcuda_ctx.h"
#include "vcuda_job.h"
#include "vcuda_queue.h"
#include "vcuda_vm.h"

/* Bytes a copy or fill moves between two looks at its job and the clock. */
#define VCUDA_COPY_CHUNK	SZ_64K

/**
 * DOC: Copy engine
 *
 * Copy queues run COPY and FILL commands; every queue runs TIMESTAMP,
 * NOP, SEM_ACQUIRE and SEM_RELEASE. They run in the kernel, in
 * vcuda_queue_exec() (on a copy engine for copy queues, vcuda_engine.c),
 * on the context's address space: every access translates its GPU
 * virtual address with vcuda_vm_resolve(), which walks the context's page
 * tables (vcuda_pt.c), one page at a time, and copies with the page
 * mapped by kmap_local_page(). An address that is not mapped (reserved
 * addresses included), or a write through a read-only mapping, stops the
 * command and faults the context with the address, as a GPU's MMU would.
 *
 * SUBMIT validates the commands (vcuda_copy_check_cmd()) before anything
 * is queued: sizes non-zero, pitches large enough for the rows they
 * separate, alignment of fills and timestamps, no arithmetic overflow of
 * the address ranges, and source and destination extents of a copy not
 * overlapping (the extent of a strided copy is the range from its first
 * to its last byte, so interleaved boxes also count as overlapping).
 *
 * Copies and fills run in chunks of %VCUDA_COPY_CHUNK bytes (and at least
 * one chunk per row). Between two chunks the command looks whether its
 * job is still on the ring, so that a time-out, QUEUE_DESTROY, a fault of
 * its context or the closing of its file stops it within one chunk, and
 * whether its engine's time slice is spent: then it yields, keeping how
 * far it got in &vcuda_job.progress, and its engine serves other queues
 * (vcuda_engine.c) before it goes on.
 *
 * Semaphores are CUDA's stream memory operations (cuStreamWaitValue and
 * cuStreamWriteValue, 32 or 64 bits): SEM_RELEASE writes a value, and
 * SEM_ACQUIRE holds its queue until the value in memory satisfies the
 * condition: GEQ is the cyclic comparison (signed)(mem - value) >= 0, EQ
 * mem == value, AND (mem & value) != 0, NOR ~(mem | value) != 0. An
 * unsatisfied acquire leaves its job at that command; the queue polls the
 * value (memory written by the CPU or by kernels of the process has no
 * other way to be noticed), backing off from every jiffy to every 250 ms
 * as the wait grows (vcuda_job.c), and is also run again at once when a
 * SEM_RELEASE of its context executes. A job waiting too long is
 * timed out like any other (``job_timeout_ms``).
 */

/* Bytes from the first to the last byte of a strided box, inclusive. */
static int vcuda_box_extent(u64 width, u64 height, u64 depth, u64 pitch,
			    u64 slice_pitch, u64 *extent)
{
	u64 rows, slices;

	if (!width || !height || !depth)
		return -EINVAL;

	if (height > 1 ? pitch < width : pitch && pitch < width)
		return -EINVAL;
	if (check_mul_overflow(height - 1, pitch, &rows) ||
	    check_add_overflow(rows, width, &rows))
		return -EINVAL;

	if (depth > 1 ? slice_pitch < rows : slice_pitch && slice_pitch < rows)
		return -EINVAL;
	if (check_mul_overflow(depth - 1, slice_pitch, &slices) ||
	    check_add_overflow(slices, rows, extent))
		return -EINVAL;
	return 0;
}

/* [addr, addr + extent) must not wrap around. */
static bool vcuda_range_ok(u64 addr, u64 extent)
{
	u64 end;

	return !check_add_overflow(addr, extent, &end) || end == 0;
}

static bool vcuda_unused_zero(const struct drm_vcuda_cmd *cmd, size_t used)
{
	size_t i;

	for (i = DIV_ROUND_UP(used, sizeof(u64)); i < ARRAY_SIZE(cmd->u.raw); i++)
		if (cmd->u.raw[i])
			return false;
	return true;
}

static int vcuda_check_copy(const struct drm_vcuda_cmd *cmd)
{
	const struct drm_vcuda_cmd_copy *c = &cmd->u.copy;
	u64 src_ext, dst_ext;

	if (cmd->flags || !vcuda_unused_zero(cmd, sizeof(*c)))
		return -EINVAL;
	if (vcuda_box_extent(c->width, c->height, c->depth, c->src_pitch,
			     c->src_slice_pitch, &src_ext) ||
	    vcuda_box_extent(c->width, c->height, c->depth, c->dst_pitch,
			     c->dst_slice_pitch, &dst_ext))
		return -EINVAL;
	if (!vcuda_range_ok(c->src, src_ext) || !vcuda_range_ok(c->dst, dst_ext))
		return -EINVAL;
	/* Overlap of [src, src + src_ext) and [dst, dst + dst_ext). */
	if (c->src - c->dst < dst_ext || c->dst - c->src < src_ext)
		return -EINVAL;
	return 0;
}

static u32 vcuda_fill_elem_size(u32 flags)
{
	switch (flags) {
	case DRM_VCUDA_CMD_FILL_8:
		return 1;
	case DRM_VCUDA_CMD_FILL_16:
		return 2;
	case DRM_VCUDA_CMD_FILL_32:
		return 4;
	default:
		return 0;
	}
}

static int vcuda_check_fill(const struct drm_vcuda_cmd *cmd)
{
	const struct drm_vcuda_cmd_fill *f = &cmd->u.fill;
	u32 esize = vcuda_fill_elem_size(cmd->flags);
	u64 row, extent;

	if (!esize || f->pad || !vcuda_unused_zero(cmd, sizeof(*f)))
		return -EINVAL;
	if (esize < 4 && f->value >> (esize * 8))
		return -EINVAL;
	if (!IS_ALIGNED(f->dst, esize) || !IS_ALIGNED(f->pitch, esize))
		return -EINVAL;
	if (check_mul_overflow(f->width, (u64)esize, &row))
		return -EINVAL;
	if (vcuda_box_extent(row, f->height, 1, f->pitch, 0, &extent) ||
	    !vcuda_range_ok(f->dst, extent))
		return -EINVAL;
	return 0;
}

static int vcuda_check_sem(const struct drm_vcuda_cmd *cmd)
{
	const struct drm_vcuda_cmd_semaphore *sem = &cmd->u.sem;
	bool wide = cmd->flags & DRM_VCUDA_SEM_64BIT;
	u32 cond = cmd->flags & DRM_VCUDA_SEM_COND_MASK;

	if (cmd->flags & ~(DRM_VCUDA_SEM_COND_MASK | DRM_VCUDA_SEM_64BIT))
		return -EINVAL;
	if (cmd->op == DRM_VCUDA_CMD_SEM_ACQUIRE ?
	    cond > DRM_VCUDA_SEM_COND_NOR : cond != 0)
		return -EINVAL;
	if (!vcuda_unused_zero(cmd, sizeof(*sem)))
		return -EINVAL;
	if (!IS_ALIGNED(sem->addr, wide ? 8 : 4))
		return -EINVAL;
	if (!wide && upper_32_bits(sem->value))
		return -EINVAL;
	return 0;
}

static int vcuda_check_timestamp(const struct drm_vcuda_cmd *cmd)
{
	if (cmd->flags || !vcuda_unused_zero(cmd, sizeof(cmd->u.timestamp)))
		return -EINVAL;
	if (!IS_ALIGNED(cmd->u.timestamp.dst, sizeof(u64)))
		return -EINVAL;
	return 0;
}

/**
 * vcuda_copy_check_cmd() - Validate a NOP, COPY, FILL, TIMESTAMP,
 * SEM_ACQUIRE or SEM_RELEASE command.
 * @cmd: Command.
 *
 * Return: 0 or -EINVAL.
 */
int vcuda_copy_check_cmd(const struct drm_vcuda_cmd *cmd)
{
	switch (cmd->op) {
	case DRM_VCUDA_CMD_NOP:
		return cmd->flags || !vcuda_unused_zero(cmd, 0) ? -EINVAL : 0;
	case DRM_VCUDA_CMD_COPY:
		return vcuda_check_copy(cmd);
	case DRM_VCUDA_CMD_FILL:
		return vcuda_check_fill(cmd);
	case DRM_VCUDA_CMD_TIMESTAMP:
		return vcuda_check_timestamp(cmd);
	case DRM_VCUDA_CMD_SEM_ACQUIRE:
	case DRM_VCUDA_CMD_SEM_RELEASE:
		return vcuda_check_sem(cmd);
	default:
		return -EINVAL;
	}
}

static bool vcuda_job_cancelled(struct vcuda_job *job)
{
	return !READ_ONCE(job->in_ring);
}

/*
 * Between two chunks of a copy or fill: whether to stop, and how. A
 * cancelled job (timed out, its queue or context gone or faulted) stops
 * at once; one whose time slice is spent yields its engine.
 */
static bool vcuda_chunk_stop(struct vcuda_job *job, u64 deadline,
			     enum vcuda_cmd_status *status)
{
	if (vcuda_job_cancelled(job)) {
		*status = VCUDA_CMD_DONE;
		return true;
	}
	if (deadline && ktime_get_ns() >= deadline) {
		*status = VCUDA_CMD_YIELD;
		return true;
	}
	cond_resched();
	return false;
}

static bool vcuda_resolve(struct vcuda_vm *vm, u64 addr, bool write,
			  struct vcuda_vm_page *res, struct vcuda_fault *fault)
{
	if (!vcuda_vm_resolve(vm, addr, write, res))
		return true;
	fault->kind = res->fault_kind;
	fault->addr = addr;
	return false;
}

/* Copies @len bytes, page by page; false if it faulted. */
static bool vcuda_copy_bytes(struct vcuda_vm *vm, u64 dst, u64 src, u64 len,
			     struct vcuda_fault *fault)
{
	while (len) {
		struct vcuda_vm_page s, d;
		void *sp, *dp;
		u64 n;

		if (!vcuda_resolve(vm, src, false, &s, fault))
			return false;
		if (!vcuda_resolve(vm, dst, true, &d, fault)) {
			put_page(s.page);
			return false;
		}

		n = min3(len, (u64)s.len, (u64)d.len);
		sp = kmap_local_page(s.page);
		dp = kmap_local_page(d.page);
		memcpy(dp + d.offset, sp + s.offset, n);
		kunmap_local(dp);
		kunmap_local(sp);
		put_page(d.page);
		put_page(s.page);

		src += n;
		dst += n;
		len -= n;
	}
	return true;
}

/* Runs a copy from where it got to, chunk by chunk. */
static enum vcuda_cmd_status vcuda_exec_copy(struct vcuda_job *job,
					     struct vcuda_vm *vm,
					     const struct drm_vcuda_cmd_copy *c,
					     u64 deadline,
					     struct vcuda_fault *fault)
{
	struct vcuda_cmd_progress *p = &job->progress;
	enum vcuda_cmd_status status;

	for (; p->slice < c->depth; p->slice++, p->row = 0) {
		for (; p->row < c->height; p->row++, p->offset = 0) {
			u64 src = c->src + p->slice * c->src_slice_pitch +
				  p->row * c->src_pitch;
			u64 dst = c->dst + p->slice * c->dst_slice_pitch +
				  p->row * c->dst_pitch;

			while (p->offset < c->width) {
				u64 n = min_t(u64, c->width - p->offset,
					      VCUDA_COPY_CHUNK);

				if (!vcuda_copy_bytes(vm, dst + p->offset,
						      src + p->offset, n,
						      fault))
					return VCUDA_CMD_DONE;
				p->offset += n;
				if (vcuda_chunk_stop(job, deadline, &status))
					return status;
			}
		}
	}
	return VCUDA_CMD_DONE;
}

/* Writes @len bytes of a pattern of @esize-byte elements, page by page. */
static bool vcuda_fill_bytes(struct vcuda_vm *vm, u64 dst, u64 len, u32 esize,
			     u32 value, struct vcuda_fault *fault)
{
	while (len) {
		struct vcuda_vm_page d;
		void *base;
		u8 *p;
		u64 n, i;

		if (!vcuda_resolve(vm, dst, true, &d, fault))
			return false;

		/* dst is element-aligned, so elements never straddle pages. */
		n = min_t(u64, len, d.len);
		base = kmap_local_page(d.page);
		p = (u8 *)base + d.offset;
		switch (esize) {
		case 1:
			memset(p, value, n);
			break;
		case 2:
			for (i = 0; i < n; i += 2)
				*(u16 *)(p + i) = value;
			break;
		default:
			for (i = 0; i < n; i += 4)
				*(u32 *)(p + i) = value;
			break;
		}
		kunmap_local(base);
		put_page(d.page);

		dst += n;
		len -= n;
	}
	return true;
}

/* Runs a fill from where it got to, chunk by chunk. */
static enum vcuda_cmd_status vcuda_exec_fill(struct vcuda_job *job,
					     struct vcuda_vm *vm,
					     const struct drm_vcuda_cmd *cmd,
					     u64 deadline,
					     struct vcuda_fault *fault)
{
	const struct drm_vcuda_cmd_fill *f = &cmd->u.fill;
	u32 esize = vcuda_fill_elem_size(cmd->flags);
	struct vcuda_cmd_progress *p = &job->progress;
	enum vcuda_cmd_status status;
	/* Validated: the row's size does not overflow. */
	u64 row_bytes = f->width * esize;

	for (; p->row < f->height; p->row++, p->offset = 0) {
		u64 dst = f->dst + p->row * f->pitch;

		while (p->offset < row_bytes) {
			/* A multiple of every element size. */
			u64 n = min_t(u64, row_bytes - p->offset,
				      VCUDA_COPY_CHUNK);

			if (!vcuda_fill_bytes(vm, dst + p->offset, n, esize,
					      f->value, fault))
				return VCUDA_CMD_DONE;
			p->offset += n;
			if (vcuda_chunk_stop(job, deadline, &status))
				return status;
		}
	}
	return VCUDA_CMD_DONE;
}

static void vcuda_exec_timestamp(struct vcuda_vm *vm, u64 dst,
				 struct vcuda_fault *fault)
{
	struct vcuda_vm_page d;
	void *p;

	if (!vcuda_resolve(vm, dst, true, &d, fault))
		return;
	p = kmap_local_page(d.page);
	*(u64 *)(p + d.offset) = ktime_get_ns();
	kunmap_local(p);
	put_page(d.page);
}

static bool vcuda_sem_satisfied(u32 cond, bool wide, u64 mem, u64 value)
{
	switch (cond) {
	case DRM_VCUDA_SEM_COND_GEQ:
		return wide ? (s64)(mem - value) >= 0 :
			      (s32)((u32)mem - (u32)value) >= 0;
	case DRM_VCUDA_SEM_COND_EQ:
		return mem == value;
	case DRM_VCUDA_SEM_COND_AND:
		return (mem & value) != 0;
	default:
		return (wide ? ~(mem | value) : (u32)~(mem | value)) != 0;
	}
}

/* Returns whether the command is done: an acquire may not be yet. */
static bool vcuda_exec_sem(struct vcuda_job *job, struct vcuda_vm *vm,
			   const struct drm_vcuda_cmd *cmd,
			   struct vcuda_fault *fault)
{
	bool acquire = cmd->op == DRM_VCUDA_CMD_SEM_ACQUIRE;
	bool wide = cmd->flags & DRM_VCUDA_SEM_64BIT;
	const struct drm_vcuda_cmd_semaphore *sem = &cmd->u.sem;
	struct vcuda_vm_page pg;
	bool done = true;
	void *p, *base;
	u64 mem;

	if (!vcuda_resolve(vm, sem->addr, !acquire, &pg, fault))
		return true;

	base = kmap_local_page(pg.page);
	p = base + pg.offset;
	if (acquire) {
		mem = wide ? READ_ONCE(*(u64 *)p) : READ_ONCE(*(u32 *)p);
		done = vcuda_sem_satisfied(cmd->flags & DRM_VCUDA_SEM_COND_MASK,
					   wide, mem, sem->value);
	} else if (wide) {
		/* Earlier writes of the queue are visible before the value. */
		smp_store_release((u64 *)p, sem->value);
	} else {
		/* Likewise for 32 bits. */
		smp_store_release((u32 *)p, (u32)sem->value);
	}
	kunmap_local(base);
	put_page(pg.page);

	if (!acquire)
		vcuda_queue_kick_sem_waiters(job->queue->ctx);
	return done;
}

/**
 * vcuda_copy_exec_cmd() - Run a NOP, COPY, FILL, TIMESTAMP, SEM_ACQUIRE
 * or SEM_RELEASE command.
 * @job: Job of the command, referenced by the caller, who holds its
 *	queue's &vcuda_queue.exec_lock.
 * @cmd: Command, validated.
 * @deadline: ktime_get_ns() time at which a copy or fill yields, or zero
 *	for none.
 * @fault: Output: the fault, if any (zeroed by the caller).
 *
 * Return: &enum vcuda_cmd_status.
 */
enum vcuda_cmd_status vcuda_copy_exec_cmd(struct vcuda_job *job,
					  const struct drm_vcuda_cmd *cmd,
					  u64 deadline,
					  struct vcuda_fault *fault)
{
	struct vcuda_vm *vm = job->queue->ctx->vm;

	switch (cmd->op) {
	case DRM_VCUDA_CMD_SEM_ACQUIRE:
	case DRM_VCUDA_CMD_SEM_RELEASE:
		return vcuda_exec_sem(job, vm, cmd, fault) ? VCUDA_CMD_DONE :
							     VCUDA_CMD_WAIT;
	case DRM_VCUDA_CMD_COPY:
		return vcuda_exec_copy(job, vm, &cmd->u.copy, deadline, fault);
	case DRM_VCUDA_CMD_FILL:
		return vcuda_exec_fill(job, vm, cmd, deadline, fault);
	case DRM_VCUDA_CMD_TIMESTAMP:
		vcuda_exec_timestamp(vm, cmd->u.timestamp.dst, fault);
		break;
	default:
		break;
	}
	return VCUDA_CMD_DONE;
}
