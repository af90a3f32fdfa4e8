// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: contexts and queues.
 */
#include "kselftest_harness.h"
#include "vcuda_test.h"

FIXTURE(ctx) {
	int fd;
};

FIXTURE_SETUP(ctx)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
}

FIXTURE_TEARDOWN(ctx)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(ctx, create_destroy)
{
	struct drm_vcuda_ctx_get_state st;
	uint32_t a, b;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &a));
	ASSERT_EQ(0, vt_ctx_create(self->fd, &b));
	EXPECT_NE(0u, a);
	EXPECT_NE(0u, b);
	EXPECT_NE(a, b);

	ASSERT_EQ(0, vt_ctx_state(self->fd, a, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	EXPECT_EQ(0ull, st.fault_addr);
	EXPECT_EQ(0u, st.fault_queue_id);

	EXPECT_EQ(0, vt_ctx_destroy(self->fd, a));
	EXPECT_EQ(0, vt_ctx_destroy(self->fd, b));
}

TEST_F(ctx, stale_id)
{
	struct drm_vcuda_ctx_get_state st;
	uint32_t a, b;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &a));
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, a));
	EXPECT_EQ(-ENOENT, vt_ctx_destroy(self->fd, a));
	EXPECT_EQ(-ENOENT, vt_ctx_state(self->fd, a, &st));
	/* A new context does not take the stale ID. */
	ASSERT_EQ(0, vt_ctx_create(self->fd, &b));
	EXPECT_NE(a, b);
	EXPECT_EQ(-ENOENT, vt_ctx_state(self->fd, a, &st));
}

TEST_F(ctx, bad_ids)
{
	struct drm_vcuda_ctx_get_state st;

	EXPECT_EQ(-ENOENT, vt_ctx_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, vt_ctx_destroy(self->fd, 12345));
	EXPECT_EQ(-ENOENT, vt_ctx_destroy(self->fd, 0xffffffffu));
	EXPECT_EQ(-ENOENT, vt_ctx_state(self->fd, 0, &st));
}

TEST_F(ctx, other_file)
{
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_compute_wait w;
	uint32_t id, q;
	int fd2 = vt_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	EXPECT_EQ(-ENOENT, vt_ctx_state(fd2, id, &st));
	EXPECT_EQ(-ENOENT, vt_ctx_destroy(fd2, id));
	EXPECT_EQ(-ENOENT, vt_queue_create(fd2, id, DRM_VCUDA_ENGINE_COMPUTE,
					   DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q));
	EXPECT_EQ(-ENOENT, vt_compute_wait(fd2, id, 1000, &w));
	EXPECT_EQ(-ENOENT, vt_map(fd2, id, 1, 0, 0x100000, VT_PAGE, 0));
	/* Still alive for its own file. */
	EXPECT_EQ(0, vt_ctx_state(self->fd, id, &st));
	close(fd2);
}

TEST_F(ctx, bad_flags_and_padding)
{
	struct drm_vcuda_ctx_create c = { .flags = 1 };
	struct drm_vcuda_ctx_destroy d = { 0 };
	struct drm_vcuda_ctx_get_state st = { 0 };
	uint32_t id;

	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_CTX_CREATE, &c));
	c.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_CTX_CREATE, &c));

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	d.ctx_id = id;
	d.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_CTX_DESTROY, &d));
	st.ctx_id = id;
	st.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_CTX_GET_STATE, &st));
	/* The failed destroy did nothing. */
	EXPECT_EQ(0, vt_ctx_state(self->fd, id, &st));
	EXPECT_EQ(0, vt_ctx_destroy(self->fd, id));
}

TEST_F(ctx, many)
{
	uint32_t ids[256];
	int i;

	for (i = 0; i < 256; i++)
		ASSERT_EQ(0, vt_ctx_create(self->fd, &ids[i]));
	for (i = 0; i < 256; i += 2)
		ASSERT_EQ(0, vt_ctx_destroy(self->fd, ids[i]));
	/* The odd ones are left for close() to clean up. */
}

TEST_F(ctx, queue_create_destroy)
{
	uint32_t id, qc, qk, qh, ql;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &qc));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &qk));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_HIGH, &qh));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_LOW, &ql));
	EXPECT_NE(0u, qc);
	EXPECT_NE(qc, qk);
	EXPECT_NE(qk, qh);
	EXPECT_NE(qh, ql);
	EXPECT_EQ(0, vt_queue_destroy(self->fd, qc));
	EXPECT_EQ(-ENOENT, vt_queue_destroy(self->fd, qc));
	EXPECT_EQ(0, vt_queue_destroy(self->fd, qk));
	/* qh and ql go with the context. */
	EXPECT_EQ(0, vt_ctx_destroy(self->fd, id));
	EXPECT_EQ(-ENOENT, vt_queue_destroy(self->fd, qh));
	EXPECT_EQ(-ENOENT, vt_queue_destroy(self->fd, ql));
}

TEST_F(ctx, queue_bad_input)
{
	struct drm_vcuda_queue_create c;
	struct drm_vcuda_queue_destroy d = { 0 };
	uint32_t id, q;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));

	memset(&c, 0, sizeof(c));
	c.ctx_id = id;
	c.engine = 2;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));
	c.engine = 0xffffffffu;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));
	c.engine = DRM_VCUDA_ENGINE_COMPUTE;
	c.priority = 3;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));
	c.priority = DRM_VCUDA_QUEUE_PRIORITY_NORMAL;
	c.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));
	c.pad = 0;
	c.ctx_id = 0;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));
	c.ctx_id = id + 1000;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c));

	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q));
	d.queue_id = q;
	d.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_QUEUE_DESTROY, &d));
	EXPECT_EQ(-ENOENT, vt_queue_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, vt_queue_destroy(self->fd, q + 1000));
	EXPECT_EQ(0, vt_queue_destroy(self->fd, q));
}

TEST_F(ctx, queue_other_file)
{
	uint32_t id, q;
	int fd2 = vt_open();

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q));
	EXPECT_EQ(-ENOENT, vt_queue_destroy(fd2, q));
	close(fd2);
	EXPECT_EQ(0, vt_queue_destroy(self->fd, q));
}

TEST_F(ctx, stale_queue_id)
{
	uint32_t id, q1, q2;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q1));
	ASSERT_EQ(0, vt_queue_destroy(self->fd, q1));
	ASSERT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q2));
	EXPECT_NE(q1, q2);
	EXPECT_EQ(-ENOENT, vt_queue_destroy(self->fd, q1));
}

TEST_F(ctx, many_queues)
{
	uint32_t id, q[64];
	int i;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, vt_queue_create(self->fd, id, i & 1,
					     i % 3, &q[i]));
	for (i = 0; i < 64; i += 3)
		ASSERT_EQ(0, vt_queue_destroy(self->fd, q[i]));
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, id));
}

TEST_F(ctx, worker_woken_on_destroy)
{
	struct vt_worker w;
	uint32_t id;
	int i;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	ASSERT_EQ(0, vt_worker_start(&w, self->fd, id));
	usleep(50000);
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, id));
	/* The worker gets -ENOENT and stops on its own. */
	for (i = 0; i < 200 && !w.exit_error; i++)
		usleep(10000);
	EXPECT_EQ(-ENOENT, w.exit_error);
	vt_worker_stop(&w);
}

TEST_F(ctx, compute_wait_timeout)
{
	struct drm_vcuda_compute_wait w;
	uint64_t t0;
	uint32_t id;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	t0 = vt_now_ns();
	EXPECT_EQ(-ETIMEDOUT, vt_compute_wait(self->fd, id, 50000000ull, &w));
	EXPECT_LE(40000000ull, vt_now_ns() - t0);
}

TEST_F(ctx, compute_bad_input)
{
	struct drm_vcuda_compute_wait w = { 0 };
	struct drm_vcuda_compute_done d = { 0 };
	uint32_t id;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &id));
	w.ctx_id = id;
	w.timeout_ns = 1000;
	w.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_WAIT, &w));
	w.flags = 0;
	w.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_WAIT, &w));
	w.pad = 0;
	w.ctx_id = 0;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_WAIT, &w));

	d.ctx_id = id;
	d.launch_id = 1;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &d));
	d.launch_id = 0;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &d));
	d.fault_kind = DRM_VCUDA_FAULT_RESOURCES + 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &d));
	d.fault_kind = DRM_VCUDA_FAULT_NONE;
	d.fault_addr = 0x1000;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &d));
	d.fault_addr = 0;
	d.ctx_id = id + 1000;
	EXPECT_EQ(-ENOENT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &d));
	/* Nothing faulted. */
	{
		struct drm_vcuda_ctx_get_state st;

		ASSERT_EQ(0, vt_ctx_state(self->fd, id, &st));
		EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	}
}

TEST_HARNESS_MAIN
