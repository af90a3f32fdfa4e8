// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: work that must end. A huge copy engine command stops
 * writing once its job times out or its queue is destroyed, and leaves
 * the engines to other queues meanwhile; a launch its process took and
 * never reported does not keep other processes waiting forever.
 */
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

/* One object mapped over and over: a huge range that costs little. */
#define BIG_BO		(64 * MiB)
#define BIG_MAPS	2048ull		/* 128 GiB of GPU addresses */
#define HUGE_ALIGN	(2 * MiB)

FIXTURE(cancel) {
	int fd;
	uint32_t ctx;
	uint32_t bo;
	uint32_t *cpu;		/* the object, as the CPU sees it */
	uint64_t big;		/* GPU address of the huge range */
};

FIXTURE_SETUP(cancel)
{
	uint64_t va, i;

	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &self->ctx));
	ASSERT_EQ(0, vt_bo_create(self->fd, BIG_BO,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &self->bo));
	self->cpu = vt_bo_mmap(self->fd, self->bo, BIG_BO, NULL);
	ASSERT_NE(MAP_FAILED, self->cpu);
	/* 2 MiB-aligned, so that the page tables use 2 MiB pages. */
	va = vt_reserve_va(BIG_MAPS * BIG_BO + HUGE_ALIGN);
	ASSERT_NE(0ull, va);
	self->big = (va + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
	for (i = 0; i < BIG_MAPS; i++)
		ASSERT_EQ(0, vt_map(self->fd, self->ctx, self->bo, 0,
				    self->big + i * BIG_BO, BIG_BO, 0));
}

FIXTURE_TEARDOWN(cancel)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* A 32-bit fill of the whole huge range. */
static struct drm_vcuda_cmd huge_fill(uint64_t dst, uint32_t value)
{
	struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_FILL };

	c.flags = DRM_VCUDA_CMD_FILL_32;
	c.u.fill.dst = dst;
	c.u.fill.width = BIG_MAPS * BIG_BO / 4;
	c.u.fill.height = 1;
	c.u.fill.value = value;
	return c;
}

/* Waits up to 10 s until the engine wrote @value at the object's start. */
static int wait_started(volatile uint32_t *p, uint32_t value)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (p[0] == value)
			return 0;
		usleep(10000);
	}
	return -1;
}

/*
 * Zeroes the object, waits @ms and counts the pages something wrote
 * into meanwhile: 0 once no engine writes the range any more.
 */
static uint64_t pages_written_within(uint32_t *p, int ms)
{
	uint64_t i, written = 0;

	memset(p, 0, BIG_BO);
	usleep(ms * 1000);
	for (i = 0; i < BIG_BO / 4; i += VT_PAGE / 4)
		written += __atomic_load_n(&p[i], __ATOMIC_RELAXED) != 0;
	return written;
}

TEST_F_TIMEOUT(cancel, huge_copy_stops_writing_once_timed_out, 120)
{
	uint64_t timeout_ms = vt_param("job_timeout_ms");
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd c;
	uint32_t q, done;

	if (!timeout_ms || timeout_ms > 10000)
		SKIP(return, "job_timeout_ms is %llu: no time-out to test",
		     (unsigned long long)timeout_ms);
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &done));
	c = huge_fill(self->big, 0x5a5a5a5a);
	sig = vt_signal_bin(done);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, wait_started(self->cpu, 0x5a5a5a5a));

	/* 128 GiB take far longer than the time-out. */
	ASSERT_EQ(0, vt_wait_bin(self->fd, done, timeout_ms + 30000));
	EXPECT_EQ(-ETIMEDOUT, vt_fence_status(self->fd, done));
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_TIMEOUT, st.fault_kind);

	/* Within a chunk of the time-out the engine lets go of the memory. */
	usleep(200000);
	EXPECT_EQ(0ull, pages_written_within(self->cpu, 1000));
}

TEST_F_TIMEOUT(cancel, queue_destroy_stops_a_huge_copy, 120)
{
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_sync_op sig;
	long long queues;
	struct drm_vcuda_cmd c;
	uint32_t q, done;
	uint64_t t0;
	int i;

	queues = vt_objects(self->fd, "queues");
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &done));
	c = huge_fill(self->big, 0x6b6b6b6b);
	sig = vt_signal_bin(done);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, wait_started(self->cpu, 0x6b6b6b6b));

	t0 = vt_now_ns();
	ASSERT_EQ(0, vt_queue_destroy(self->fd, q));
	TH_LOG("QUEUE_DESTROY took %llu us",
	       (unsigned long long)(vt_now_ns() - t0) / 1000);
	ASSERT_EQ(0, vt_wait_bin(self->fd, done, 10000));
	EXPECT_EQ(-ECANCELED, vt_fence_status(self->fd, done));

	usleep(200000);
	EXPECT_EQ(0ull, pages_written_within(self->cpu, 1000));
	/* The queue's tear-down finishes: it was not stuck behind the copy. */
	for (i = 0; i < 1000 && vt_objects(self->fd, "queues") != queues; i++)
		usleep(10000);
	EXPECT_EQ(queues, vt_objects(self->fd, "queues"));
	/* Destroying a queue is no fault of the context. */
	ASSERT_EQ(0, vt_ctx_state(self->fd, self->ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
}

TEST_F_TIMEOUT(cancel, small_copy_runs_beside_two_huge_ones, 120)
{
	uint32_t q[2], done[2], i, ctx2, qh, small, h2;
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd c;
	uint8_t *mem;
	uint64_t va;
	int fd2;

	/* Two huge fills, one per copy engine... */
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
					     DRM_VCUDA_ENGINE_COPY,
					     DRM_VCUDA_QUEUE_PRIORITY_NORMAL,
					     &q[i]));
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &done[i]));
		c = huge_fill(self->big, 0x7c7c7c7c);
		sig = vt_signal_bin(done[i]);
		ASSERT_EQ(0, vt_submit1(self->fd, q[i], &c, 1, &sig, 1));
	}
	ASSERT_EQ(0, wait_started(self->cpu, 0x7c7c7c7c));

	/* ...and another client's high-priority 4 KiB copy. */
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, vt_ctx_create(fd2, &ctx2));
	ASSERT_EQ(0, vt_queue_create(fd2, ctx2, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_HIGH, &qh));
	ASSERT_EQ(0, vt_bo_create(fd2, 2 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h2));
	va = vt_reserve_va(2 * VT_PAGE);
	ASSERT_NE(0ull, va);
	mem = vt_bo_mmap(fd2, h2, 2 * VT_PAGE, (void *)(uintptr_t)va);
	ASSERT_EQ((void *)(uintptr_t)va, mem);
	ASSERT_EQ(0, vt_map(fd2, ctx2, h2, 0, va, 2 * VT_PAGE, 0));
	memset(mem, 0x21, VT_PAGE);
	memset(mem + VT_PAGE, 0, VT_PAGE);
	ASSERT_EQ(0, drmSyncobjCreate(fd2, 0, &small));
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_COPY;
	c.u.copy.src = va;
	c.u.copy.dst = va + VT_PAGE;
	c.u.copy.width = VT_PAGE;
	c.u.copy.height = 1;
	c.u.copy.depth = 1;
	sig = vt_signal_bin(small);
	ASSERT_EQ(0, vt_submit1(fd2, qh, &c, 1, &sig, 1));

	ASSERT_EQ(0, vt_wait_bin(fd2, small, 60000));
	/* It ran while both huge fills were still running. */
	EXPECT_EQ(0, vt_fence_status(self->fd, done[0]));
	EXPECT_EQ(0, vt_fence_status(self->fd, done[1]));
	EXPECT_EQ(1, vt_fence_status(fd2, small));
	EXPECT_EQ(0x21, mem[2 * VT_PAGE - 1]);
	close(fd2);
	/* Destroying their context stops the huge ones too. */
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, self->ctx));
	usleep(200000);
	EXPECT_EQ(0ull, pages_written_within(self->cpu, 1000));
}

#define MS 1000000ull

/* Status of a sync file: 1 signalled, 0 active, or the fence's error. */
static int sync_file_status(int sync_fd)
{
	struct sync_file_info info = { 0 };

	return ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info) ? -errno : info.status;
}

/*
 * The owner of a launch: submits it (signalling the syncobj @sfd), takes
 * it as a worker would, says so on @ready, and once told on @go exits
 * without reporting it. With @keeper, a child of it keeps the DRM file
 * open meanwhile, as a process that forked or passed its descriptor on.
 */
static void launch_owner(int sfd, int ready, int go, bool keeper)
{
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op s;
	struct drm_vcuda_cmd c;
	uint32_t ctx, q, so;
	int fd = vt_open();
	char b;

	if (fd < 0 || drmSyncobjFDToHandle(fd, sfd, &so) ||
	    vt_ctx_create(fd, &ctx) ||
	    vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COMPUTE, 1, &q))
		_exit(1);
	c = vt_launch(0x77);
	s = vt_signal_bin(so);
	if (vt_submit1(fd, q, &c, 1, &s, 1) ||
	    vt_compute_wait(fd, ctx, 2000 * MS, &w))
		_exit(2);
	if (keeper) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(3);
		if (pid == 0) {
			pause();	/* holds fd until killed */
			_exit(0);
		}
		if (write(ready, &pid, sizeof(pid)) != sizeof(pid))
			_exit(4);
	} else if (write(ready, "r", 1) != 1) {
		_exit(4);
	}
	if (read(go, &b, 1) != 1)
		_exit(5);
	_exit(0);
}

/* Another process waits on a sync file for a launch whose owner exits. */
static void owner_exits(struct __test_metadata *_metadata, bool keeper,
			int want)
{
	uint64_t timeout_ms = vt_param("job_timeout_ms");
	int fd = vt_open(), sfd, sync_fd, ready[2], go[2], status;
	pid_t owner, keep = 0;
	struct pollfd pfd;
	uint32_t so;
	char b;

	if (fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &so));
	ASSERT_EQ(0, drmSyncobjHandleToFD(fd, so, &sfd));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	owner = fork();
	ASSERT_LE(0, owner);
	if (owner == 0)
		launch_owner(sfd, ready[1], go[0], keeper);
	if (keeper) {
		ASSERT_EQ(sizeof(keep), read(ready[0], &keep, sizeof(keep)));
	} else {
		ASSERT_EQ(1, read(ready[0], &b, 1));
	}
	ASSERT_EQ(0, drmSyncobjExportSyncFile(fd, so, &sync_fd));
	EXPECT_EQ(0, sync_file_status(sync_fd));

	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(owner, waitpid(owner, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	/* Released by the owner's exit, not by a time-out. */
	pfd = (struct pollfd){ .fd = sync_fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, (int)(timeout_ms ? timeout_ms : 10000) +
				     20000));
	EXPECT_EQ(want, sync_file_status(sync_fd));
	if (keep) {
		kill(keep, SIGKILL);
		waitpid(keep, &status, 0);
	}
	close(sync_fd);
	close(sfd);
	close(fd);
}

/* These tests make their own files. */
FIXTURE(owner) {
	int unused;
};

FIXTURE_SETUP(owner)
{
}

FIXTURE_TEARDOWN(owner)
{
}

/* Either way the launch fails as a launch failure would: -EIO. */
TEST_F_TIMEOUT(owner, exit_with_a_taken_launch_releases_waiters, 120)
{
	owner_exits(_metadata, false, -EIO);
}

TEST_F_TIMEOUT(owner, exit_releases_waiters_while_its_file_lives_on, 120)
{
	owner_exits(_metadata, true, -EIO);
}

TEST_F_TIMEOUT(owner, unreported_launch_times_out_by_default, 120)
{
	uint64_t job_ms = vt_param("job_timeout_ms");
	uint64_t compute_ms = vt_param("compute_timeout_ms");
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op s;
	struct drm_vcuda_cmd c;
	uint32_t ctx, q, done;
	int fd;

	if (job_ms != 0 || !compute_ms || compute_ms > 10000)
		SKIP(return, "job_timeout_ms %llu, compute_timeout_ms %llu: %s",
		     (unsigned long long)job_ms,
		     (unsigned long long)compute_ms,
		     "tested with 0 and at most 10000");
	fd = vt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_ctx_create(fd, &ctx));
	ASSERT_EQ(0, vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COMPUTE, 1, &q));
	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &done));
	c = vt_launch(0x99);
	s = vt_signal_bin(done);
	ASSERT_EQ(0, vt_submit1(fd, q, &c, 1, &s, 1));
	/* Taken, and never reported by this live process. */
	ASSERT_EQ(0, vt_compute_wait(fd, ctx, 2000 * MS, &w));
	ASSERT_EQ(0, vt_wait_bin(fd, done, compute_ms + 20000));
	EXPECT_EQ(-ETIMEDOUT, vt_fence_status(fd, done));
	ASSERT_EQ(0, vt_ctx_state(fd, ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_TIMEOUT, st.fault_kind);
	/* Reporting it late changes nothing. */
	EXPECT_EQ(-ENOENT, vt_compute_done(fd, ctx, w.launch_id, 0, 0));
	close(fd);
}

TEST_HARNESS_MAIN
