// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: submission, syncobjs, the compute hand-off to worker
 * threads, the copy engine, faults and cancellation.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MS 1000000ull

FIXTURE(sub) {
	int fd;
	uint32_t ctx;
	uint32_t compute;
	uint32_t copy;
	uint32_t tl;
};

FIXTURE_SETUP(sub)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &self->ctx));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL,
				     &self->compute));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL,
				     &self->copy));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &self->tl));
}

FIXTURE_TEARDOWN(sub)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Takes one launch by hand and reports it. */
static int take_and_report(int fd, uint32_t ctx, uint64_t *descriptor,
			   uint32_t fault, uint64_t addr)
{
	struct drm_vcuda_compute_wait w;
	int ret = vt_compute_wait(fd, ctx, 2000 * MS, &w);

	if (ret)
		return ret;
	if (descriptor)
		*descriptor = w.descriptor;
	return vt_compute_done(fd, ctx, w.launch_id, fault, addr);
}

TEST_F(sub, launch_with_worker_thread)
{
	struct drm_vcuda_cmd cmd = vt_launch(0x1234);
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 1);
	struct vt_worker w;

	ASSERT_EQ(0, vt_worker_start(&w, self->fd, self->ctx));
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &cmd, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 5000));
	vt_worker_stop(&w);
	ASSERT_EQ(1u, w.count);
	EXPECT_EQ(0x1234ull, w.log[0]);
	EXPECT_EQ(self->compute, w.queue_log[0]);
	EXPECT_EQ(0, w.done_errors);
}

TEST_F(sub, fence_not_signalled_before_done)
{
	struct drm_vcuda_cmd cmds[2] = { vt_launch(1), vt_launch(2) };
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 5);
	struct drm_vcuda_compute_wait w;

	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, cmds, 2, &sig, 1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	EXPECT_EQ(1ull, w.descriptor);
	EXPECT_NE(0ull, w.launch_id);
	/* One launch per queue at a time: the second is not out yet. */
	{
		struct drm_vcuda_compute_wait w2;

		EXPECT_EQ(-ETIMEDOUT, vt_compute_wait(self->fd, self->ctx,
						      50 * MS, &w2));
	}
	EXPECT_EQ(-ETIME, vt_wait_point(self->fd, self->tl, 5, 50));
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
	/* Reported once only. */
	EXPECT_EQ(-ENOENT, vt_compute_done(self->fd, self->ctx, w.launch_id,
					   0, 0));
	EXPECT_EQ(-ETIME, vt_wait_point(self->fd, self->tl, 5, 50));
	ASSERT_EQ(0, take_and_report(self->fd, self->ctx, NULL, 0, 0));
	EXPECT_EQ(0, vt_wait_point(self->fd, self->tl, 5, 2000));
}

TEST_F(sub, fifo_order)
{
	struct drm_vcuda_cmd cmds[3];
	struct drm_vcuda_job jobs[4];
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 10);
	struct vt_worker w;
	int i;

	/* Four jobs in one submission, then twenty single jobs. */
	for (i = 0; i < 3; i++)
		cmds[i] = vt_launch(100 + i);
	for (i = 0; i < 4; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].cmds = VT_ARRAY(3, cmds);
	}
	jobs[3].syncs = VT_ARRAY(1, &sig);
	ASSERT_EQ(0, vt_submit(self->fd, self->compute, jobs, 4));
	for (i = 0; i < 20; i++) {
		struct drm_vcuda_cmd c = vt_launch(200 + i);
		struct drm_vcuda_sync_op s = vt_signal_tl(self->tl, 11 + i);

		ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, &s, 1));
	}
	ASSERT_EQ(0, vt_worker_start(&w, self->fd, self->ctx));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 30, 10000));
	vt_worker_stop(&w);

	ASSERT_EQ(32u, w.count);
	for (i = 0; i < 12; i++)
		EXPECT_EQ(100ull + i % 3, w.log[i]);
	for (i = 0; i < 20; i++)
		EXPECT_EQ(200ull + i, w.log[12 + i]);
	EXPECT_EQ(0, w.done_errors);
}

TEST_F(sub, two_queues_two_workers)
{
	struct vt_worker w1, w2;
	uint32_t q2;
	int i;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q2));
	ASSERT_EQ(0, vt_worker_start(&w1, self->fd, self->ctx));
	ASSERT_EQ(0, vt_worker_start(&w2, self->fd, self->ctx));
	for (i = 0; i < 16; i++) {
		struct drm_vcuda_cmd c = vt_launch(i);
		struct drm_vcuda_sync_op s = vt_signal_tl(self->tl, 1 + i);

		ASSERT_EQ(0, vt_submit1(self->fd, i & 1 ? q2 : self->compute,
					&c, 1, &s, 1));
	}
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 16, 10000));
	vt_worker_stop(&w1);
	vt_worker_stop(&w2);
	EXPECT_EQ(16u, w1.count + w2.count);
	EXPECT_EQ(0, w1.done_errors + w2.done_errors);
}

TEST_F(sub, priority_order)
{
	struct drm_vcuda_compute_wait w;
	uint32_t qlow, qhigh;
	struct drm_vcuda_cmd c;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_LOW, &qlow));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_HIGH, &qhigh));
	c = vt_launch(1);
	ASSERT_EQ(0, vt_submit1(self->fd, qlow, &c, 1, NULL, 0));
	c = vt_launch(2);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, NULL, 0));
	c = vt_launch(3);
	ASSERT_EQ(0, vt_submit1(self->fd, qhigh, &c, 1, NULL, 0));
	/* Let all three be posted before taking any. */
	usleep(500000);
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	EXPECT_EQ(3ull, w.descriptor);
	EXPECT_EQ(qhigh, w.queue_id);
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	EXPECT_EQ(2ull, w.descriptor);
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	EXPECT_EQ(1ull, w.descriptor);
	EXPECT_EQ(qlow, w.queue_id);
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
}

TEST_F(sub, wait_dependency)
{
	struct drm_vcuda_cmd ca = vt_launch(0xa), cb = vt_launch(0xb);
	struct drm_vcuda_sync_op sa = vt_signal_tl(self->tl, 1);
	struct drm_vcuda_sync_op sb[2] = {
		vt_wait_tl(self->tl, 1), vt_signal_tl(self->tl, 2),
	};
	struct drm_vcuda_compute_wait wa, wb;
	uint32_t q2;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_HIGH, &q2));
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &ca, 1, &sa, 1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &wa));
	ASSERT_EQ(0xaull, wa.descriptor);
	/* B, on another (higher-priority) queue, waits for A's point. */
	ASSERT_EQ(0, vt_submit1(self->fd, q2, &cb, 1, sb, 2));
	EXPECT_EQ(-ETIMEDOUT, vt_compute_wait(self->fd, self->ctx, 100 * MS,
					      &wb));
	EXPECT_EQ(-ETIME, vt_wait_point(self->fd, self->tl, 2, 10));
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, wa.launch_id, 0, 0));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 2000));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &wb));
	EXPECT_EQ(0xbull, wb.descriptor);
	EXPECT_EQ(q2, wb.queue_id);
	EXPECT_GT(wb.launch_id, wa.launch_id);
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, wb.launch_id, 0, 0));
	EXPECT_EQ(0, vt_wait_point(self->fd, self->tl, 2, 2000));
}

TEST_F(sub, binary_syncobj)
{
	struct drm_vcuda_cmd c = vt_launch(7);
	struct drm_vcuda_sync_op s;
	uint32_t bin, bin2;

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin2));
	s = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, &s, 1));
	EXPECT_EQ(0, vt_fence_status(self->fd, bin));
	ASSERT_EQ(0, take_and_report(self->fd, self->ctx, NULL, 0, 0));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin, 2000));
	EXPECT_EQ(1, vt_fence_status(self->fd, bin));

	/* A binary wait on it, on the copy queue. */
	{
		struct drm_vcuda_cmd nop = { .op = DRM_VCUDA_CMD_NOP };
		struct drm_vcuda_sync_op ss[2] = { s, vt_signal_bin(bin2) };

		ss[0].flags = DRM_VCUDA_SYNC_OP_HANDLE_TYPE_SYNCOBJ |
			      DRM_VCUDA_SYNC_OP_WAIT;
		ASSERT_EQ(0, vt_submit1(self->fd, self->copy, &nop, 1, ss, 2));
		ASSERT_EQ(0, vt_wait_bin(self->fd, bin2, 2000));
	}
}

TEST_F(sub, copy_fill_timestamp)
{
	uint64_t size = 4 * VT_PAGE, va;
	struct drm_vcuda_cmd cmds[5];
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 1);
	uint8_t *p;
	uint32_t h;
	uint64_t t0, ts;
	unsigned int i;

	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &h));
	va = vt_reserve_va(size);
	ASSERT_NE(0ull, va);
	p = vt_bo_mmap(self->fd, h, size, (void *)(uintptr_t)va);
	ASSERT_EQ((void *)(uintptr_t)va, p);
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, size, 0));

	for (i = 0; i < VT_PAGE + 100; i++)
		p[i] = i * 7;
	memset(cmds, 0, sizeof(cmds));
	/* 1: copy 4196 bytes, crossing pages, to offset 2 pages + 3. */
	cmds[0].op = DRM_VCUDA_CMD_COPY;
	cmds[0].u.copy.src = va;
	cmds[0].u.copy.dst = va + 2 * VT_PAGE + 3;
	cmds[0].u.copy.width = VT_PAGE + 100;
	cmds[0].u.copy.height = 1;
	cmds[0].u.copy.depth = 1;
	/* 2: 16-bit fill of a 3x4 box with pitch 64 at page 1 + 1024. */
	cmds[1].op = DRM_VCUDA_CMD_FILL;
	cmds[1].flags = DRM_VCUDA_CMD_FILL_16;
	cmds[1].u.fill.dst = va + VT_PAGE + 1024;
	cmds[1].u.fill.width = 3;
	cmds[1].u.fill.height = 4;
	cmds[1].u.fill.pitch = 64;
	cmds[1].u.fill.value = 0xbeef;
	/* 3: timestamp at the end of the last page. */
	cmds[2].op = DRM_VCUDA_CMD_TIMESTAMP;
	cmds[2].u.timestamp.dst = va + size - 8;
	/* 4: a 2D copy: 2 rows of 10 bytes, pitches 16 and 32. */
	cmds[3].op = DRM_VCUDA_CMD_COPY;
	cmds[3].u.copy.src = va;
	cmds[3].u.copy.dst = va + VT_PAGE + 2048;
	cmds[3].u.copy.width = 10;
	cmds[3].u.copy.height = 2;
	cmds[3].u.copy.depth = 1;
	cmds[3].u.copy.src_pitch = 16;
	cmds[3].u.copy.dst_pitch = 32;
	cmds[4].op = DRM_VCUDA_CMD_NOP;

	t0 = vt_now_ns();
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, cmds, 5, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 5000));

	for (i = 0; i < VT_PAGE + 100; i++)
		ASSERT_EQ((uint8_t)(i * 7), p[2 * VT_PAGE + 3 + i]);
	EXPECT_EQ(0, p[2 * VT_PAGE + 2]);
	EXPECT_EQ(0, p[3 * VT_PAGE + 103]);
	for (i = 0; i < 4; i++) {
		uint16_t *row = (uint16_t *)(p + VT_PAGE + 1024 + i * 64);

		EXPECT_EQ(0xbeef, row[0]);
		EXPECT_EQ(0xbeef, row[2]);
		EXPECT_EQ(0, row[3]);
	}
	for (i = 0; i < 10; i++) {
		EXPECT_EQ(p[i], p[VT_PAGE + 2048 + i]);
		EXPECT_EQ(p[16 + i], p[VT_PAGE + 2048 + 32 + i]);
	}
	EXPECT_EQ(0, p[VT_PAGE + 2048 + 10]);
	memcpy(&ts, p + size - 8, 8);
	EXPECT_LE(t0, ts);
	EXPECT_GE(vt_now_ns(), ts);
}

TEST_F(sub, timestamp_on_compute_queue)
{
	struct drm_vcuda_cmd cmds[3];
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 1);
	uint64_t va = 0x100000000ull, ts0, ts1;
	uint64_t *p;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h));
	p = vt_bo_mmap(self->fd, h, VT_PAGE, NULL);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, VT_PAGE, 0));
	memset(cmds, 0, sizeof(cmds));
	cmds[0].op = DRM_VCUDA_CMD_TIMESTAMP;
	cmds[0].u.timestamp.dst = va;
	cmds[1] = vt_launch(9);
	cmds[2].op = DRM_VCUDA_CMD_TIMESTAMP;
	cmds[2].u.timestamp.dst = va + 8;
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, cmds, 3, &sig, 1));
	ASSERT_EQ(0, take_and_report(self->fd, self->ctx, NULL, 0, 0));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 2000));
	ts0 = p[0];
	ts1 = p[1];
	EXPECT_NE(0ull, ts0);
	EXPECT_LE(ts0, ts1);
}

TEST_F(sub, fault_from_worker)
{
	struct drm_vcuda_cmd c = vt_launch(VT_FAULT_BIT | 0xdead000);
	struct drm_vcuda_cmd c2 = vt_launch(5);
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_sync_op s;
	struct drm_vcuda_compute_wait w;
	uint32_t bin, bin2, ctx2, q2, q3;
	struct vt_worker wk;
	int i;

	/* A second context of the same file is not affected. */
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx2, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q2));

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin2));
	/* A job queued behind the faulting one, then a worker. */
	s = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, &s, 1));
	s = vt_signal_bin(bin2);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c2, 1, &s, 1));
	ASSERT_EQ(0, vt_worker_start(&wk, self->fd, self->ctx));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin, 5000));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin2, 5000));
	/* The worker is turned away with -EIO. */
	for (i = 0; i < 200 && !wk.exit_error; i++)
		usleep(10000);
	EXPECT_EQ(-EIO, wk.exit_error);
	vt_worker_stop(&wk);
	EXPECT_EQ(1u, wk.count);

	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);
	EXPECT_EQ(0xdead000ull, st.fault_addr);
	EXPECT_EQ(self->compute, st.fault_queue_id);
	/* Both fences carry an error. */
	EXPECT_EQ(-EIO, vt_fence_status(self->fd, bin));
	EXPECT_EQ(-EIO, vt_fence_status(self->fd, bin2));

	/* Sticky: later work fails. */
	EXPECT_EQ(-EIO, vt_submit1(self->fd, self->compute, &c2, 1, NULL, 0));
	EXPECT_EQ(-EIO, vt_submit1(self->fd, self->copy, &c2, 1, NULL, 0));
	EXPECT_EQ(-EIO, vt_queue_create(self->fd, self->ctx,
					DRM_VCUDA_ENGINE_COPY, 0, &q3));
	EXPECT_EQ(-EIO, vt_compute_wait(self->fd, self->ctx, MS, &w));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);

	/* The other context still works. */
	ASSERT_EQ(0, vt_submit1(self->fd, q2, &c2, 1, NULL, 0));
	ASSERT_EQ(0, take_and_report(self->fd, ctx2, NULL, 0, 0));
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx2, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	/* Destroying the faulted context still works. */
	EXPECT_EQ(0, vt_ctx_destroy(self->fd, self->ctx));
}

TEST_F(sub, first_fault_wins)
{
	struct drm_vcuda_cmd c = vt_launch(1);
	struct drm_vcuda_compute_wait w1, w2;
	struct drm_vcuda_ctx_get_state st;
	uint32_t q2;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q2));
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, NULL, 0));
	ASSERT_EQ(0, vt_submit1(self->fd, q2, &c, 1, NULL, 0));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w2));
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w2.launch_id,
				     DRM_VCUDA_FAULT_TRAP, 0));
	/* w1's launch was withdrawn by the fault. */
	EXPECT_EQ(-ENOENT, vt_compute_done(self->fd, self->ctx, w1.launch_id,
					   DRM_VCUDA_FAULT_ASSERT, 0));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_TRAP, st.fault_kind);
	EXPECT_EQ(w2.queue_id, st.fault_queue_id);
}

/* A process with no host memory for a launch reports it as such. */
TEST_F(sub, out_of_resources_fault)
{
	struct drm_vcuda_cmd c = vt_launch(1);
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_compute_wait w;

	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, NULL, 0));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id,
				     DRM_VCUDA_FAULT_RESOURCES, 0));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_RESOURCES, st.fault_kind);
}

TEST_F(sub, copy_fault_unmapped)
{
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_sync_op s;
	struct drm_vcuda_cmd c;
	uint64_t va = 0x100000000ull;
	uint32_t h, bin;

	ASSERT_EQ(0, vt_bo_create(self->fd, 2 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, 2 * VT_PAGE, 0));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
	memset(&c, 0, sizeof(c));
	/* Runs off the end of the mapping into unmapped space. */
	c.op = DRM_VCUDA_CMD_COPY;
	c.u.copy.src = va;
	c.u.copy.dst = va + VT_PAGE + 8;
	c.u.copy.width = VT_PAGE;
	c.u.copy.height = 1;
	c.u.copy.depth = 1;
	s = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, &c, 1, &s, 1));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin, 5000));
	EXPECT_EQ(-EIO, vt_fence_status(self->fd, bin));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);
	EXPECT_EQ(va + 2 * VT_PAGE, st.fault_addr);
	EXPECT_EQ(self->copy, st.fault_queue_id);
	EXPECT_EQ(-EIO, vt_submit1(self->fd, self->copy, &c, 1, NULL, 0));
}

TEST_F(sub, copy_fault_read_only)
{
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_sync_op s;
	struct drm_vcuda_cmd c;
	uint64_t va = 0x100000000ull;
	uint32_t h, bin;

	ASSERT_EQ(0, vt_bo_create(self->fd, 2 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, VT_PAGE, 0));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, VT_PAGE, va + VT_PAGE,
			    VT_PAGE, DRM_VCUDA_VM_BIND_READONLY));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_FILL;
	c.flags = DRM_VCUDA_CMD_FILL_32;
	c.u.fill.dst = va + VT_PAGE - 8;
	c.u.fill.width = 4;
	c.u.fill.height = 1;
	c.u.fill.value = 1;
	s = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, &c, 1, &s, 1));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin, 5000));
	EXPECT_EQ(-EIO, vt_fence_status(self->fd, bin));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_READ_ONLY, st.fault_kind);
	EXPECT_EQ(va + VT_PAGE, st.fault_addr);
}

TEST_F(sub, queue_destroy_cancels)
{
	struct drm_vcuda_cmd c = vt_launch(1);
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op s;
	uint32_t bin1, bin2;

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin1));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin2));
	s = vt_signal_bin(bin1);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, &s, 1));
	s = vt_signal_bin(bin2);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, &s, 1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	ASSERT_EQ(0, vt_queue_destroy(self->fd, self->compute));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin1, 5000));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin2, 5000));
	EXPECT_EQ(-ECANCELED, vt_fence_status(self->fd, bin1));
	EXPECT_EQ(-ECANCELED, vt_fence_status(self->fd, bin2));
	/* The taken launch is gone; the context did not fault. */
	EXPECT_EQ(-ENOENT, vt_compute_done(self->fd, self->ctx, w.launch_id,
					   0, 0));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	EXPECT_EQ(-ENOENT, vt_submit1(self->fd, self->compute, &c, 1, NULL, 0));
}

TEST_F(sub, destroy_with_blocked_dependency)
{
	struct drm_vcuda_cmd c = vt_launch(1), nop = { .op = DRM_VCUDA_CMD_NOP };
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op s[2];
	uint32_t bin;

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
	/* Copy queue job waits for a launch the test holds. */
	s[0] = vt_signal_tl(self->tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, s, 1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	s[0] = vt_wait_tl(self->tl, 1);
	s[1] = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, &nop, 1, s, 2));
	/* Destroying the waiting queue does not block. */
	ASSERT_EQ(0, vt_queue_destroy(self->fd, self->copy));
	EXPECT_EQ(0, vt_fence_status(self->fd, bin));
	/* Once the dependency signals, the job is cancelled, not run. */
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin, 5000));
	EXPECT_EQ(-ECANCELED, vt_fence_status(self->fd, bin));
}

TEST_F(sub, close_with_pending_work)
{
	uint64_t before = vt_sysfs_u64(self->fd, "vram_used");
	int i, status;
	pid_t pid;

	/* A child leaves launches pending, blocked waits and mappings. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct drm_vcuda_cmd c = vt_launch(1);
		struct drm_vcuda_compute_wait w;
		uint32_t ctx, q, h, tl;
		int fd = vt_open();

		if (fd < 0 || vt_ctx_create(fd, &ctx) ||
		    vt_queue_create(fd, ctx, 0, 1, &q) ||
		    vt_bo_create(fd, 16 * VT_PAGE, 0, 0, &h) ||
		    vt_map(fd, ctx, h, 0, 0x100000000ull, 16 * VT_PAGE, 0) ||
		    drmSyncobjCreate(fd, 0, &tl))
			_exit(1);
		for (i = 0; i < 8; i++) {
			struct drm_vcuda_sync_op s = vt_signal_tl(tl, 1 + i);

			if (vt_submit1(fd, q, &c, 1, &s, 1))
				_exit(2);
		}
		if (vt_compute_wait(fd, ctx, 1000 * MS, &w))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	/* Everything of the child is released: its memory first. */
	for (i = 0; i < 100 && vt_sysfs_u64(self->fd, "vram_used") != before; i++)
		usleep(10000);
	EXPECT_EQ(before, vt_sysfs_u64(self->fd, "vram_used"));
}

TEST_F(sub, killed_worker_process)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct drm_vcuda_compute_wait w;
		uint32_t ctx;
		int fd = vt_open();

		if (fd < 0 || vt_ctx_create(fd, &ctx))
			_exit(1);
		/* Blocks until killed. */
		vt_compute_wait(fd, ctx, 0, &w);
		_exit(2);
	}
	usleep(100000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
}

TEST_F(sub, submit_bad_arrays)
{
	struct drm_vcuda_cmd cmds[257];
	struct drm_vcuda_sync_op syncs[65];
	struct drm_vcuda_job jobs[65];
	struct drm_vcuda_submit s;
	int i;

	memset(cmds, 0, sizeof(cmds));
	memset(syncs, 0, sizeof(syncs));
	memset(jobs, 0, sizeof(jobs));
	for (i = 0; i < 65; i++)
		jobs[i].cmds = VT_ARRAY(1, cmds);

	memset(&s, 0, sizeof(s));
	s.queue_id = self->copy;
	/* Jobs: none, too many, bad stride, bad pointer. */
	s.jobs = VT_ARRAY(0, jobs);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.jobs = VT_ARRAY(65, jobs);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.jobs = VT_ARRAY(1, jobs);
	s.jobs.stride = 16;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.jobs.stride = 0;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.jobs = VT_ARRAY(1, jobs);
	s.jobs.array = 0;
	EXPECT_EQ(-EFAULT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.jobs = VT_ARRAY(1, jobs);
	s.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.flags = 0;

	/* Commands: none, too many, bad stride, bad pointer. */
	jobs[0].cmds = VT_ARRAY(0, cmds);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	jobs[0].cmds = VT_ARRAY(257, cmds);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	jobs[0].cmds = VT_ARRAY(1, cmds);
	jobs[0].cmds.stride = sizeof(cmds[0]) - 8;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	jobs[0].cmds = VT_ARRAY(1, cmds);
	jobs[0].cmds.array = 4096;
	EXPECT_EQ(-EFAULT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	jobs[0].cmds = VT_ARRAY(1, cmds);

	/* Syncs: too many, bad stride. */
	jobs[0].syncs = VT_ARRAY(65, syncs);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	jobs[0].syncs = VT_ARRAY(1, syncs);
	jobs[0].syncs.stride = 8;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	jobs[0].syncs = VT_ARRAY(0, syncs);

	/* The largest legal submission works: 64 jobs of 256 NOPs. */
	for (i = 0; i < 64; i++)
		jobs[i].cmds = VT_ARRAY(256, cmds);
	s.jobs = VT_ARRAY(64, jobs);
	EXPECT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	/* Unknown and stale queues. */
	s.jobs = VT_ARRAY(1, jobs);
	s.queue_id = 0;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	s.queue_id = self->copy + 100;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &s));
	{
		int fd2 = vt_open();

		ASSERT_LE(0, fd2);
		s.queue_id = self->copy;
		EXPECT_EQ(-ENOENT, vt_ioctl(fd2, DRM_IOCTL_VCUDA_SUBMIT, &s));
		close(fd2);
	}
}

TEST_F(sub, submit_bad_commands)
{
	struct drm_vcuda_cmd c;
	uint64_t va = 0x100000000ull;

#define BAD(queue, err) EXPECT_EQ(err, vt_submit1(self->fd, queue, &c, 1, NULL, 0))
	memset(&c, 0, sizeof(c));
	c.op = 7;
	BAD(self->copy, -EINVAL);
	c.op = 0xffffffffu;
	BAD(self->copy, -EINVAL);
	/* NOP with flags or arguments. */
	c.op = DRM_VCUDA_CMD_NOP;
	c.flags = 1;
	BAD(self->copy, -EINVAL);
	c.flags = 0;
	c.u.raw[10] = 1;
	BAD(self->copy, -EINVAL);
	/* Engines: launch on copy, copy and fill on compute. */
	c = vt_launch(1);
	BAD(self->copy, -EINVAL);
	c.flags = 1;
	BAD(self->compute, -EINVAL);
	c = vt_launch(1);
	c.u.raw[2] = 1;
	BAD(self->compute, -EINVAL);
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_COPY;
	c.u.copy.src = va;
	c.u.copy.dst = va + VT_PAGE;
	c.u.copy.width = c.u.copy.height = c.u.copy.depth = 1;
	BAD(self->compute, -EINVAL);
	/* Copy geometry. */
	c.u.copy.width = 0;
	BAD(self->copy, -EINVAL);
	c.u.copy.width = 16;
	c.u.copy.height = 2;
	c.u.copy.src_pitch = 8;
	c.u.copy.dst_pitch = 16;
	BAD(self->copy, -EINVAL);
	c.u.copy.src_pitch = 16;
	c.u.copy.depth = 2;
	c.u.copy.src_slice_pitch = 16;
	c.u.copy.dst_slice_pitch = 64;
	BAD(self->copy, -EINVAL);
	c.u.copy.height = 1;
	c.u.copy.depth = 1;
	c.u.copy.src_pitch = 0;
	c.u.copy.dst_pitch = 0;
	c.u.copy.src_slice_pitch = 0;
	c.u.copy.dst_slice_pitch = 0;
	c.flags = 1;
	BAD(self->copy, -EINVAL);
	c.flags = 0;
	c.u.raw[10] = 1;
	BAD(self->copy, -EINVAL);
	c.u.raw[10] = 0;
	/* Overlap, wrap-around, overflow. */
	c.u.copy.dst = va + 8;
	BAD(self->copy, -EINVAL);
	c.u.copy.dst = ~0ull - 4;
	BAD(self->copy, -EINVAL);
	c.u.copy.dst = va + VT_PAGE;
	c.u.copy.width = 1ull << 62;
	c.u.copy.height = 8;
	c.u.copy.src_pitch = c.u.copy.dst_pitch = 1ull << 62;
	BAD(self->copy, -EINVAL);
	/* Fill: size flag, alignment, value range, padding. */
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_FILL;
	c.u.fill.dst = va;
	c.u.fill.width = 1;
	c.u.fill.height = 1;
	c.flags = 3;
	BAD(self->copy, -EINVAL);
	c.flags = DRM_VCUDA_CMD_FILL_32;
	c.u.fill.dst = va + 2;
	BAD(self->copy, -EINVAL);
	c.u.fill.dst = va;
	c.u.fill.height = 2;
	c.u.fill.pitch = 6;
	BAD(self->copy, -EINVAL);
	c.u.fill.pitch = 0;
	BAD(self->copy, -EINVAL);
	c.u.fill.height = 1;
	c.flags = DRM_VCUDA_CMD_FILL_8;
	c.u.fill.value = 0x100;
	BAD(self->copy, -EINVAL);
	c.u.fill.value = 0;
	c.u.fill.pad = 1;
	BAD(self->copy, -EINVAL);
	c.u.fill.pad = 0;
	c.u.fill.width = 0;
	BAD(self->copy, -EINVAL);
	c.u.fill.width = 1;
	BAD(self->compute, -EINVAL);
	/* Timestamp: alignment. */
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_TIMESTAMP;
	c.u.timestamp.dst = va + 4;
	BAD(self->copy, -EINVAL);
	/* Semaphores: condition, flags, alignment, width, arguments. */
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_SEM_ACQUIRE;
	c.u.sem.addr = va;
	c.flags = DRM_VCUDA_SEM_COND_NOR + 1;
	BAD(self->copy, -EINVAL);
	c.flags = 1u << 9;
	BAD(self->copy, -EINVAL);
	c.flags = DRM_VCUDA_SEM_COND_GEQ;
	c.u.sem.addr = va + 2;
	BAD(self->copy, -EINVAL);
	c.u.sem.addr = va + 4;
	c.flags = DRM_VCUDA_SEM_64BIT;
	BAD(self->compute, -EINVAL);
	c.flags = 0;
	c.u.sem.value = 1ull << 32;
	BAD(self->copy, -EINVAL);
	c.u.sem.value = 0;
	c.u.raw[2] = 1;
	BAD(self->copy, -EINVAL);
	c.u.raw[2] = 0;
	c.op = DRM_VCUDA_CMD_SEM_RELEASE;
	c.flags = DRM_VCUDA_SEM_COND_EQ;
	BAD(self->compute, -EINVAL);
#undef BAD
	/* None of it ran or faulted anything. */
	{
		struct drm_vcuda_ctx_get_state st;

		ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
		EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	}
}

TEST_F(sub, submit_bad_syncs)
{
	struct drm_vcuda_cmd nop = { .op = DRM_VCUDA_CMD_NOP };
	struct drm_vcuda_sync_op s;
	uint32_t bin;

	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
#define BAD(err) EXPECT_EQ(err, vt_submit1(self->fd, self->copy, &nop, 1, &s, 1))
	s = vt_signal_bin(bin);
	s.flags |= 1u << 8;
	BAD(-EINVAL);
	s = vt_signal_bin(bin);
	s.flags |= 2;
	BAD(-EINVAL);
	s = vt_signal_bin(bin);
	s.point = 1;
	BAD(-EINVAL);
	s = vt_signal_tl(self->tl, 0);
	BAD(-EINVAL);
	s = vt_signal_bin(0);
	BAD(-ENOENT);
	s = vt_signal_tl(bin + 100, 1);
	BAD(-ENOENT);
	s = vt_wait_tl(bin + 100, 1);
	BAD(-ENOENT);
	/* Waits for points nobody submitted. */
	s = vt_wait_tl(self->tl, 1);
	BAD(-EINVAL);
	s = vt_signal_bin(bin);
	s.flags = DRM_VCUDA_SYNC_OP_HANDLE_TYPE_SYNCOBJ | DRM_VCUDA_SYNC_OP_WAIT;
	BAD(-EINVAL);
	/* A stale syncobj. */
	ASSERT_EQ(0, drmSyncobjDestroy(self->fd, bin));
	s = vt_signal_bin(bin);
	BAD(-ENOENT);
#undef BAD
	/* Nothing was signalled by the failures. */
	{
		uint64_t point = 0;

		ASSERT_EQ(0, drmSyncobjQuery(self->fd, &self->tl, &point, 1));
		EXPECT_EQ(0ull, point);
	}
}

TEST_F(sub, all_or_nothing)
{
	struct drm_vcuda_cmd good = vt_launch(1), bad = vt_launch(2);
	struct drm_vcuda_sync_op s = vt_signal_tl(self->tl, 1);
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_job jobs[2];

	bad.flags = 1;
	memset(jobs, 0, sizeof(jobs));
	jobs[0].cmds = VT_ARRAY(1, &good);
	jobs[0].syncs = VT_ARRAY(1, &s);
	jobs[1].cmds = VT_ARRAY(1, &bad);
	EXPECT_EQ(-EINVAL, vt_submit(self->fd, self->compute, jobs, 2));
	/* The good first job was not queued, nor its point signalled. */
	EXPECT_EQ(-ETIMEDOUT, vt_compute_wait(self->fd, self->ctx, 100 * MS,
					      &w));
	EXPECT_EQ(-ETIME, vt_wait_point(self->fd, self->tl, 1, 10));
}

TEST_F(sub, stride_larger_element)
{
	struct {
		struct drm_vcuda_cmd cmd;
		uint64_t extra;
	} cmds[2];
	struct drm_vcuda_sync_op s = vt_signal_tl(self->tl, 1);
	struct drm_vcuda_job job;

	memset(cmds, 0, sizeof(cmds));
	cmds[0].cmd.op = DRM_VCUDA_CMD_NOP;
	cmds[1].cmd.op = DRM_VCUDA_CMD_NOP;
	memset(&job, 0, sizeof(job));
	job.cmds = VT_ARRAY(2, cmds);
	job.syncs = VT_ARRAY(1, &s);
	cmds[1].extra = 1;
	EXPECT_EQ(-EINVAL, vt_submit(self->fd, self->copy, &job, 1));
	cmds[1].extra = 0;
	EXPECT_EQ(0, vt_submit(self->fd, self->copy, &job, 1));
	EXPECT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 2000));
}

TEST_F(sub, job_timeout)
{
	struct drm_vcuda_cmd c = vt_launch(1);
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op s;
	uint64_t timeout = vt_param("job_timeout_ms");
	uint32_t bin;

	if (!timeout || timeout > 5000)
		SKIP(return, "needs the module loaded with job_timeout_ms=1..5000");
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &bin));
	s = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &c, 1, &s, 1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	/* Never reported: the job times out. */
	ASSERT_EQ(0, vt_wait_bin(self->fd, bin, 4 * timeout + 2000));
	EXPECT_EQ(-ETIMEDOUT, vt_fence_status(self->fd, bin));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_TIMEOUT, st.fault_kind);
	EXPECT_EQ(self->compute, st.fault_queue_id);
	EXPECT_EQ(-ENOENT, vt_compute_done(self->fd, self->ctx, w.launch_id,
					   0, 0));
	EXPECT_EQ(-EIO, vt_submit1(self->fd, self->compute, &c, 1, NULL, 0));
}

static struct drm_vcuda_cmd sem_cmd(uint32_t op, uint32_t flags, uint64_t addr,
				    uint64_t value)
{
	struct drm_vcuda_cmd c = { .op = op, .flags = flags };

	c.u.sem.addr = addr;
	c.u.sem.value = value;
	return c;
}

/* A host BO mapped at the same address in the process and the context. */
static void *map_shared_page(int fd, uint32_t ctx, uint64_t *va)
{
	uint32_t h;
	void *p;

	if (vt_bo_create(fd, VT_PAGE, DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h))
		return NULL;
	*va = vt_reserve_va(VT_PAGE);
	if (!*va)
		return NULL;
	p = vt_bo_mmap(fd, h, VT_PAGE, (void *)(uintptr_t)*va);
	if (p == MAP_FAILED || vt_map(fd, ctx, h, 0, *va, VT_PAGE, 0))
		return NULL;
	return p;
}

TEST_F(sub, sem_release)
{
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 1);
	struct drm_vcuda_cmd cmds[2];
	volatile uint64_t *p;
	uint64_t va;

	p = map_shared_page(self->fd, self->ctx, &va);
	ASSERT_NE(NULL, p);
	p[0] = ~0ull;
	cmds[0] = sem_cmd(DRM_VCUDA_CMD_SEM_RELEASE, 0, va, 0x12345678);
	cmds[1] = sem_cmd(DRM_VCUDA_CMD_SEM_RELEASE, DRM_VCUDA_SEM_64BIT,
			  va + 8, 0x1122334455667788ull);
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, cmds, 2, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 2000));
	/* 32 bits written, the upper half left alone. */
	EXPECT_EQ(0xffffffff12345678ull, p[0]);
	EXPECT_EQ(0x1122334455667788ull, p[1]);
}

TEST_F(sub, sem_acquire_waits_for_cpu)
{
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 1);
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_cmd cmds[2];
	volatile uint32_t *p;
	uint64_t va;

	p = map_shared_page(self->fd, self->ctx, &va);
	ASSERT_NE(NULL, p);
	p[0] = 3;
	cmds[0] = sem_cmd(DRM_VCUDA_CMD_SEM_ACQUIRE, DRM_VCUDA_SEM_COND_GEQ,
			  va, 5);
	cmds[1] = vt_launch(0x55);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, cmds, 2, &sig, 1));
	EXPECT_EQ(-ETIMEDOUT, vt_compute_wait(self->fd, self->ctx, 100 * MS,
					      &w));
	p[0] = 4;
	EXPECT_EQ(-ETIMEDOUT, vt_compute_wait(self->fd, self->ctx, 50 * MS,
					      &w));
	p[0] = 6;
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	EXPECT_EQ(0x55ull, w.descriptor);
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 2000));
}

TEST_F(sub, sem_acquire_released_by_queue)
{
	struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, 1);
	struct drm_vcuda_cmd acq, rel, nop = { .op = DRM_VCUDA_CMD_NOP };
	struct drm_vcuda_cmd cmds[2];
	volatile uint64_t *p;
	uint64_t va;

	p = map_shared_page(self->fd, self->ctx, &va);
	ASSERT_NE(NULL, p);
	acq = sem_cmd(DRM_VCUDA_CMD_SEM_ACQUIRE,
		      DRM_VCUDA_SEM_COND_EQ | DRM_VCUDA_SEM_64BIT, va,
		      0x700000007ull);
	cmds[0] = acq;
	cmds[1] = nop;
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, cmds, 2, &sig, 1));
	EXPECT_EQ(-ETIME, vt_wait_point(self->fd, self->tl, 1, 100));
	rel = sem_cmd(DRM_VCUDA_CMD_SEM_RELEASE, DRM_VCUDA_SEM_64BIT, va,
		      0x700000007ull);
	ASSERT_EQ(0, vt_submit1(self->fd, self->compute, &rel, 1, NULL, 0));
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 2000));
	EXPECT_EQ(0x700000007ull, p[0]);
}

TEST_F(sub, sem_conditions)
{
	static const struct {
		uint32_t flags;
		uint64_t mem, value;
		bool satisfied;
	} cases[] = {
		{ DRM_VCUDA_SEM_COND_GEQ, 5, 5, true },
		{ DRM_VCUDA_SEM_COND_GEQ, 4, 5, false },
		/* Cyclic: 1 is "after" 0xffffffff. */
		{ DRM_VCUDA_SEM_COND_GEQ, 1, 0xffffffffu, true },
		{ DRM_VCUDA_SEM_COND_GEQ, 0xffffffffu, 1, false },
		{ DRM_VCUDA_SEM_COND_GEQ | DRM_VCUDA_SEM_64BIT, 1ull << 40,
		  1ull << 39, true },
		{ DRM_VCUDA_SEM_COND_EQ, 9, 9, true },
		{ DRM_VCUDA_SEM_COND_EQ, 9, 8, false },
		{ DRM_VCUDA_SEM_COND_AND, 6, 2, true },
		{ DRM_VCUDA_SEM_COND_AND, 6, 1, false },
		{ DRM_VCUDA_SEM_COND_NOR, 6, 1, true },
		{ DRM_VCUDA_SEM_COND_NOR, 0xffff0000u, 0xffffu, false },
		{ DRM_VCUDA_SEM_COND_NOR | DRM_VCUDA_SEM_64BIT,
		  0xffff0000u, 0xffffu, true },
	};
	volatile uint64_t *p;
	uint64_t va;
	unsigned int i;

	p = map_shared_page(self->fd, self->ctx, &va);
	ASSERT_NE(NULL, p);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, i + 1);
		struct drm_vcuda_cmd c;
		uint32_t q;

		ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
					     DRM_VCUDA_ENGINE_COPY, 1, &q));
		p[i] = cases[i].mem;
		c = sem_cmd(DRM_VCUDA_CMD_SEM_ACQUIRE, cases[i].flags,
			    va + 8 * i, cases[i].value);
		ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
		if (cases[i].satisfied) {
			EXPECT_EQ(0, vt_wait_point(self->fd, self->tl, i + 1,
						   2000)) TH_LOG("case %u", i);
		} else {
			EXPECT_EQ(-ETIME, vt_wait_point(self->fd, self->tl,
							i + 1, 50))
				TH_LOG("case %u", i);
			/* Destroying the queue cancels the waiting job. */
			ASSERT_EQ(0, vt_queue_destroy(self->fd, q));
			ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, i + 1,
						   2000));
		}
	}
}

TEST_F(sub, device_reset)
{
	struct drm_vcuda_device_reset rs = { 0 };
	struct drm_vcuda_cmd c = vt_launch(1);
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op s;
	uint32_t bin, ctx2, ctx3, q2;
	int fd2 = vt_open();

	ASSERT_LE(0, fd2);
	/* A context of another file, with a launch taken. */
	ASSERT_EQ(0, vt_ctx_create(fd2, &ctx2));
	ASSERT_EQ(0, vt_queue_create(fd2, ctx2, DRM_VCUDA_ENGINE_COMPUTE, 1,
				     &q2));
	ASSERT_EQ(0, drmSyncobjCreate(fd2, 0, &bin));
	s = vt_signal_bin(bin);
	ASSERT_EQ(0, vt_submit1(fd2, q2, &c, 1, &s, 1));
	ASSERT_EQ(0, vt_compute_wait(fd2, ctx2, 2000 * MS, &w));

	rs.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_DEVICE_RESET, &rs));
	rs.flags = 0;
	rs.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_DEVICE_RESET, &rs));
	rs.pad = 0;
	ASSERT_EQ(0, vt_ctx_state(fd2, ctx2, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);

	ASSERT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_DEVICE_RESET, &rs));
	ASSERT_EQ(0, vt_ctx_state(fd2, ctx2, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_RESET, st.fault_kind);
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_RESET, st.fault_kind);
	ASSERT_EQ(0, vt_wait_bin(fd2, bin, 2000));
	EXPECT_EQ(-EIO, vt_fence_status(fd2, bin));
	EXPECT_EQ(-ENOENT, vt_compute_done(fd2, ctx2, w.launch_id, 0, 0));
	EXPECT_EQ(-EIO, vt_submit1(fd2, q2, &c, 1, NULL, 0));
	/* New contexts work. */
	ASSERT_EQ(0, vt_ctx_create(fd2, &ctx3));
	ASSERT_EQ(0, vt_queue_create(fd2, ctx3, DRM_VCUDA_ENGINE_COMPUTE, 1,
				     &q2));
	ASSERT_EQ(0, vt_submit1(fd2, q2, &c, 1, NULL, 0));
	ASSERT_EQ(0, take_and_report(fd2, ctx3, NULL, 0, 0));
	close(fd2);
}

TEST_F(sub, device_reset_needs_cap_sys_admin)
{
	struct drm_vcuda_ctx_get_state st;
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to drop privileges");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct drm_vcuda_device_reset rs = { 0 };

		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(vt_ioctl(self->fd, DRM_IOCTL_VCUDA_DEVICE_RESET, &rs) ==
		      -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
}

TEST_HARNESS_MAIN
