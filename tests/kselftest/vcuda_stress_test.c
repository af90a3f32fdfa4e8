// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: concurrency. Many threads submitting, working,
 * binding and destroying at once; the kernel must neither hang nor lose
 * a launch, and the VM's kernel log must stay clean.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MS 1000000ull

FIXTURE(stress) {
	int fd;
};

FIXTURE_SETUP(stress)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
}

FIXTURE_TEARDOWN(stress)
{
	if (self->fd >= 0)
		close(self->fd);
}

struct submitter {
	int fd;
	uint32_t queue;
	uint32_t syncobj;
	int count;
	int error;
	pthread_t thread;
};

static void *submitter_main(void *arg)
{
	struct submitter *s = arg;
	int i;

	for (i = 0; i < s->count && !s->error; i++) {
		struct drm_vcuda_cmd c = vt_launch(i);
		struct drm_vcuda_sync_op sig = vt_signal_tl(s->syncobj, i + 1);

		s->error = vt_submit1(s->fd, s->queue, &c, 1, &sig, 1);
	}
	return NULL;
}

TEST_F_TIMEOUT(stress, many_submitters_many_workers, 120)
{
	enum { QUEUES = 6, WORKERS = 4, PER_QUEUE = 300 };
	struct submitter subs[QUEUES];
	struct vt_worker workers[WORKERS];
	uint32_t ctx, total = 0;
	int i;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	for (i = 0; i < WORKERS; i++)
		ASSERT_EQ(0, vt_worker_start(&workers[i], self->fd, ctx));
	for (i = 0; i < QUEUES; i++) {
		subs[i].fd = self->fd;
		subs[i].count = PER_QUEUE;
		subs[i].error = 0;
		ASSERT_EQ(0, vt_queue_create(self->fd, ctx,
					     DRM_VCUDA_ENGINE_COMPUTE, i % 3,
					     &subs[i].queue));
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &subs[i].syncobj));
		ASSERT_EQ(0, pthread_create(&subs[i].thread, NULL,
					    submitter_main, &subs[i]));
	}
	for (i = 0; i < QUEUES; i++) {
		pthread_join(subs[i].thread, NULL);
		EXPECT_EQ(0, subs[i].error);
	}
	for (i = 0; i < QUEUES; i++)
		EXPECT_EQ(0, vt_wait_point(self->fd, subs[i].syncobj,
					   PER_QUEUE, 60000));
	for (i = 0; i < WORKERS; i++) {
		vt_worker_stop(&workers[i]);
		EXPECT_EQ(0, workers[i].done_errors);
		total += workers[i].count;
	}
	EXPECT_EQ((uint32_t)(QUEUES * PER_QUEUE), total);
}

TEST_F_TIMEOUT(stress, destroy_while_busy, 120)
{
	int iter;

	for (iter = 0; iter < 60; iter++) {
		struct submitter sub = { .fd = self->fd, .count = 50 };
		struct vt_worker w;
		uint32_t ctx, q2, i;

		ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
		ASSERT_EQ(0, vt_queue_create(self->fd, ctx,
					     DRM_VCUDA_ENGINE_COMPUTE, 1,
					     &sub.queue));
		ASSERT_EQ(0, vt_queue_create(self->fd, ctx,
					     DRM_VCUDA_ENGINE_COPY, 1, &q2));
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &sub.syncobj));
		/* Copy-queue jobs depend on compute points. */
		for (i = 0; i < 10; i++) {
			struct drm_vcuda_cmd nop = { .op = DRM_VCUDA_CMD_NOP };
			struct drm_vcuda_sync_op s = vt_wait_tl(sub.syncobj, 1);
			struct drm_vcuda_cmd c = vt_launch(i);
			struct drm_vcuda_sync_op sig =
				vt_signal_tl(sub.syncobj, 1);

			if (i == 0)
				ASSERT_EQ(0, vt_submit1(self->fd, sub.queue,
							&c, 1, &sig, 1));
			ASSERT_EQ(0, vt_submit1(self->fd, q2, &nop, 1, &s, 1));
		}
		sub.count = 50;
		ASSERT_EQ(0, vt_worker_start(&w, self->fd, ctx));
		ASSERT_EQ(0, pthread_create(&sub.thread, NULL, submitter_main,
					    &sub));
		usleep((iter % 5) * 2000);
		switch (iter % 3) {
		case 0:
			ASSERT_EQ(0, vt_ctx_destroy(self->fd, ctx));
			break;
		case 1:
			ASSERT_EQ(0, vt_queue_destroy(self->fd, sub.queue));
			ASSERT_EQ(0, vt_queue_destroy(self->fd, q2));
			ASSERT_EQ(0, vt_ctx_destroy(self->fd, ctx));
			break;
		default:
			ASSERT_EQ(0, vt_queue_destroy(self->fd, q2));
			ASSERT_EQ(0, vt_ctx_destroy(self->fd, ctx));
			break;
		}
		pthread_join(sub.thread, NULL);
		/* The submitter stops on -ENOENT (or finished first). */
		EXPECT_TRUE(sub.error == 0 || sub.error == -ENOENT);
		for (i = 0; i < 300 && !w.exit_error; i++)
			usleep(10000);
		EXPECT_EQ(-ENOENT, w.exit_error);
		vt_worker_stop(&w);
		drmSyncobjDestroy(self->fd, sub.syncobj);
	}
}

struct binder {
	int fd;
	uint32_t ctx, bo;
	uint64_t va;
	volatile bool stop;
	int errors;
	pthread_t thread;
};

static void *binder_main(void *arg)
{
	struct binder *b = arg;

	while (!b->stop) {
		int ret = vt_unmap(b->fd, b->ctx, b->va + VT_PAGE, VT_PAGE);

		if (ret && ret != -ENOENT)
			b->errors++;
		ret = vt_map(b->fd, b->ctx, b->bo, VT_PAGE, b->va + VT_PAGE,
			     VT_PAGE, 0);
		if (ret && ret != -EEXIST && ret != -ENOENT)
			b->errors++;
	}
	return NULL;
}

TEST_F_TIMEOUT(stress, copies_while_binding, 120)
{
	int iter, faults = 0;

	for (iter = 0; iter < 20; iter++) {
		struct drm_vcuda_ctx_get_state st;
		struct binder b = { .fd = self->fd };
		uint32_t q, tl, i;

		ASSERT_EQ(0, vt_ctx_create(self->fd, &b.ctx));
		ASSERT_EQ(0, vt_queue_create(self->fd, b.ctx,
					     DRM_VCUDA_ENGINE_COPY, 1, &q));
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));
		ASSERT_EQ(0, vt_bo_create(self->fd, 4 * VT_PAGE,
					  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0,
					  &b.bo));
		b.va = 0x100000000ull;
		ASSERT_EQ(0, vt_map(self->fd, b.ctx, b.bo, 0, b.va,
				    4 * VT_PAGE, 0));
		ASSERT_EQ(0, pthread_create(&b.thread, NULL, binder_main, &b));
		/* Copies through the page being unmapped and mapped. */
		for (i = 0; i < 50; i++) {
			struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_COPY };
			struct drm_vcuda_sync_op sig = vt_signal_tl(tl, i + 1);
			int ret;

			c.u.copy.src = b.va;
			c.u.copy.dst = b.va + 2 * VT_PAGE;
			c.u.copy.width = 2 * VT_PAGE;
			c.u.copy.height = 1;
			c.u.copy.depth = 1;
			ret = vt_submit1(self->fd, q, &c, 1, &sig, 1);
			if (ret == -EIO)
				break;
			ASSERT_EQ(0, ret);
		}
		/* Every submitted point signals, with or without a fault. */
		ASSERT_EQ(0, vt_wait_point(self->fd, tl, i, 20000));
		b.stop = true;
		pthread_join(b.thread, NULL);
		EXPECT_EQ(0, b.errors);
		ASSERT_EQ(0, vt_ctx_state(self->fd, b.ctx, &st));
		if (st.fault_kind) {
			EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);
			EXPECT_EQ(b.va + VT_PAGE, st.fault_addr & ~(VT_PAGE - 1));
			faults++;
		}
		ASSERT_EQ(0, vt_ctx_destroy(self->fd, b.ctx));
		ASSERT_EQ(0, vt_bo_close(self->fd, b.bo));
	}
	TH_LOG("%d of 20 rounds faulted", faults);
}

TEST_F_TIMEOUT(stress, processes_exit_with_work, 120)
{
	uint64_t before = vt_sysfs_u64(self->fd, "vram_used");
	int iter, status, i;

	for (iter = 0; iter < 30; iter++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (pid == 0) {
			struct vt_worker w;
			uint32_t ctx, q[3], h, tl;
			int fd = vt_open();

			if (fd < 0 || vt_ctx_create(fd, &ctx) ||
			    drmSyncobjCreate(fd, 0, &tl) ||
			    vt_bo_create(fd, 4 * VT_PAGE, 0, 0, &h) ||
			    vt_map(fd, ctx, h, 0, 0x100000000ull, 4 * VT_PAGE, 0))
				_exit(1);
			for (i = 0; i < 3; i++)
				if (vt_queue_create(fd, ctx, i == 2, i, &q[i]))
					_exit(2);
			if (vt_worker_start(&w, fd, ctx))
				_exit(3);
			for (i = 0; i < 40; i++) {
				struct drm_vcuda_cmd c = vt_launch(i);
				struct drm_vcuda_cmd f = { .op = DRM_VCUDA_CMD_FILL };
				struct drm_vcuda_sync_op s = vt_signal_tl(tl, i + 1);

				f.u.fill.dst = 0x100000000ull;
				f.u.fill.width = 4 * VT_PAGE;
				f.u.fill.height = 1;
				f.u.fill.value = i & 0xff;
				if (vt_submit1(fd, q[i % 3], i % 3 == 2 ? &f : &c,
					       1, &s, 1))
					_exit(4);
			}
			/* Exit, or be killed, in the middle of it all. */
			if (iter % 2)
				kill(getpid(), SIGKILL);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (WIFEXITED(status))
			ASSERT_EQ(0, WEXITSTATUS(status));
	}
	for (i = 0; i < 200 && vt_sysfs_u64(self->fd, "vram_used") != before; i++)
		usleep(10000);
	EXPECT_EQ(before, vt_sysfs_u64(self->fd, "vram_used"));
}

TEST_HARNESS_MAIN
