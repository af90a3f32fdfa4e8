// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: the engines. Copies of every size and alignment
 * against the CPU, timestamps against elapsed time, priorities under
 * contention on the compute hand-off and on the copy engines, faults,
 * traps and hangs poisoning only their own context, processes killed
 * with jobs in flight, dependencies across processes, and 64 queues on
 * each of 8 contexts at once.
 */
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MS 1000000ull
#define MiB (1ull << 20)

FIXTURE(eng) {
	int fd;
	uint32_t ctx;
	uint32_t copy;
	uint32_t tl;
	uint64_t point;
};

FIXTURE_SETUP(eng)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &self->ctx));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL,
				     &self->copy));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &self->tl));
	self->point = 0;
}

FIXTURE_TEARDOWN(eng)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Maps a new object of @size at its CPU address, returns it. */
static uint8_t *map_bo(int fd, uint32_t ctx, uint64_t size, uint32_t placement,
		       uint32_t *handle)
{
	uint64_t va = vt_reserve_va(size);
	void *p;

	if (!va || vt_bo_create(fd, size, placement, 0, handle))
		return NULL;
	p = vt_bo_mmap(fd, *handle, size, (void *)(uintptr_t)va);
	if (p != (void *)(uintptr_t)va ||
	    vt_map(fd, ctx, *handle, 0, va, size, 0))
		return NULL;
	return p;
}

/* Runs @n commands on @q and waits for them; 0 or -errno. */
static int run_cmds(int fd, uint32_t q, uint32_t tl, uint64_t *point,
		    struct drm_vcuda_cmd *cmds, uint32_t n)
{
	struct drm_vcuda_sync_op sig = vt_signal_tl(tl, ++*point);
	int ret = vt_submit1(fd, q, cmds, n, &sig, 1);

	return ret ? ret : vt_wait_point(fd, tl, *point, 60000);
}

static struct drm_vcuda_cmd copy_cmd(uint64_t dst, uint64_t src, uint64_t n)
{
	struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_COPY };

	c.u.copy.src = src;
	c.u.copy.dst = dst;
	c.u.copy.width = n;
	c.u.copy.height = 1;
	c.u.copy.depth = 1;
	return c;
}

TEST_F_TIMEOUT(eng, copies_every_size_and_alignment, 300)
{
	static const uint64_t sizes[] = {
		1, 2, 3, 7, 8, 100, 4095, 4096, 4097, 8191, 65537,
		MiB + 3, 16 * MiB - 1, 64 * MiB,
	};
	uint64_t cap = 64 * MiB + 2 * 4096;
	uint8_t *src, *dst;
	uint32_t hs, hd;
	size_t i;

	src = map_bo(self->fd, self->ctx, cap, DRM_VCUDA_BO_PLACEMENT_DEVICE,
		     &hs);
	dst = map_bo(self->fd, self->ctx, cap, DRM_VCUDA_BO_PLACEMENT_HOST,
		     &hd);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	for (i = 0; i < cap; i++)
		src[i] = (i * 2654435761u) >> 24;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t so = (i * 5) % 4096 + (i % 3), d_o = (i * 11) % 4096;
		uint64_t n = sizes[i], k;
		struct drm_vcuda_cmd c;

		memset(dst, 0xcc, n + d_o + 1);
		c = copy_cmd((uintptr_t)dst + d_o, (uintptr_t)src + so, n);
		ASSERT_EQ(0, run_cmds(self->fd, self->copy, self->tl,
				      &self->point, &c, 1));
		for (k = 0; k < n; k++)
			if (dst[d_o + k] != src[so + k])
				break;
		EXPECT_EQ(n, k);
		if (d_o)
			EXPECT_EQ(0xcc, dst[d_o - 1]);
		EXPECT_EQ(0xcc, dst[d_o + n]);
	}
}

TEST_F(eng, copies_across_objects_and_memory_kinds)
{
	uint64_t va = vt_reserve_va(16 * 4096), k;
	uint32_t h[3], hu;
	uint8_t *p[3], *user;
	struct drm_vcuda_cmd c[2];
	int i;

	ASSERT_NE(0ull, va);
	/* Three objects of three kinds back to back, then user memory. */
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, vt_bo_create(self->fd, 4 * 4096, i == 1 ?
					  DRM_VCUDA_BO_PLACEMENT_HOST :
					  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0,
					  &h[i]));
		p[i] = vt_bo_mmap(self->fd, h[i], 4 * 4096,
				  (void *)(uintptr_t)(va + i * 4 * 4096));
		ASSERT_EQ((void *)(uintptr_t)(va + i * 4 * 4096), p[i]);
		ASSERT_EQ(0, vt_map(self->fd, self->ctx, h[i], 0,
				    va + i * 4 * 4096, 4 * 4096, 0));
		memset(p[i], 0x10 * (i + 1), 4 * 4096);
	}
	user = mmap((void *)(uintptr_t)(va + 12 * 4096), 4 * 4096,
		    PROT_READ | PROT_WRITE,
		    MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_EQ((void *)(uintptr_t)(va + 12 * 4096), user);
	{
		struct drm_vcuda_bo_userptr u = {
			.addr = (uintptr_t)user, .size = 4 * 4096,
		};

		ASSERT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_USERPTR, &u));
		hu = u.handle;
	}
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, hu, 0, (uintptr_t)user,
			    4 * 4096, 0));
	/* One copy reads across all three objects into user memory... */
	c[0] = copy_cmd((uintptr_t)user + 1, va + 4096 + 17, 10000);
	/* ...and a 3D copy of 3 slices of 4 rows of 33 bytes back. */
	c[1] = copy_cmd(va + 5, (uintptr_t)user + 3, 33);
	c[1].u.copy.height = 4;
	c[1].u.copy.depth = 3;
	c[1].u.copy.src_pitch = 37;
	c[1].u.copy.src_slice_pitch = 4 * 37 + 1;
	c[1].u.copy.dst_pitch = 1000;
	c[1].u.copy.dst_slice_pitch = 5003;
	ASSERT_EQ(0, run_cmds(self->fd, self->copy, self->tl, &self->point, c,
			      2));
	for (k = 0; k < 10000; k++) {
		uint64_t a = 4096 + 17 + k;
		uint8_t want = 0x10 * (a / (4 * 4096) + 1);

		ASSERT_EQ(want, user[1 + k]);
	}
	for (k = 0; k < 3 * 4 * 33; k++) {
		uint64_t z = k / (4 * 33), y = k / 33 % 4, x = k % 33;
		uint64_t d = 5 + z * 5003 + y * 1000 + x;

		ASSERT_EQ(user[3 + z * (4 * 37 + 1) + y * 37 + x],
			  p[d / (4 * 4096)][d % (4 * 4096)]);
	}
}

TEST_F(eng, fills_8_16_32_1d_2d)
{
	uint32_t h;
	uint8_t *p = map_bo(self->fd, self->ctx, 8 * 4096,
			    DRM_VCUDA_BO_PLACEMENT_DEVICE, &h);
	struct drm_vcuda_cmd c[3];
	uint64_t base;
	int y, x;

	ASSERT_NE(NULL, p);
	base = (uintptr_t)p;
	memset(c, 0, sizeof(c));
	c[0].op = DRM_VCUDA_CMD_FILL;
	c[0].flags = DRM_VCUDA_CMD_FILL_8;
	c[0].u.fill.dst = base + 4093;		/* across a page */
	c[0].u.fill.width = 7;
	c[0].u.fill.height = 1;
	c[0].u.fill.value = 0xab;
	c[1].op = DRM_VCUDA_CMD_FILL;
	c[1].flags = DRM_VCUDA_CMD_FILL_16;
	c[1].u.fill.dst = base + 2 * 4096 + 2;
	c[1].u.fill.width = 3000;		/* 6000 bytes, across a page */
	c[1].u.fill.height = 1;
	c[1].u.fill.value = 0x1234;
	c[2].op = DRM_VCUDA_CMD_FILL;
	c[2].flags = DRM_VCUDA_CMD_FILL_32;
	c[2].u.fill.dst = base + 5 * 4096 - 64;
	c[2].u.fill.width = 9;
	c[2].u.fill.height = 20;
	c[2].u.fill.pitch = 260;
	c[2].u.fill.value = 0xdeadbeef;
	ASSERT_EQ(0, run_cmds(self->fd, self->copy, self->tl, &self->point, c,
			      3));
	EXPECT_EQ(0, p[4092]);
	for (x = 0; x < 7; x++)
		EXPECT_EQ(0xab, p[4093 + x]);
	EXPECT_EQ(0, p[4100]);
	for (x = 0; x < 3000; x++) {
		uint16_t v;

		memcpy(&v, p + 2 * 4096 + 2 + 2 * x, 2);
		ASSERT_EQ(0x1234, v);
	}
	for (y = 0; y < 20; y++) {
		for (x = 0; x < 10; x++) {
			uint32_t v;

			memcpy(&v, p + 5 * 4096 - 64 + y * 260 + 4 * x, 4);
			ASSERT_EQ(x < 9 ? 0xdeadbeefu : 0u, v);
		}
	}
}

TEST_F(eng, timestamps_follow_elapsed_time)
{
	uint32_t h;
	uint64_t *p = (uint64_t *)map_bo(self->fd, self->ctx, 4096,
					 DRM_VCUDA_BO_PLACEMENT_HOST, &h);
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd c[4];
	uint64_t t0, t1, base;

	ASSERT_NE(NULL, p);
	base = (uintptr_t)p;
	memset(c, 0, sizeof(c));
	c[0].op = DRM_VCUDA_CMD_TIMESTAMP;
	c[0].u.timestamp.dst = base + 8;
	/* Wait until the CPU writes 1 at offset 0. */
	c[1].op = DRM_VCUDA_CMD_SEM_ACQUIRE;
	c[1].flags = DRM_VCUDA_SEM_COND_EQ | DRM_VCUDA_SEM_64BIT;
	c[1].u.sem.addr = base;
	c[1].u.sem.value = 1;
	c[2].op = DRM_VCUDA_CMD_TIMESTAMP;
	c[2].u.timestamp.dst = base + 16;
	c[3].op = DRM_VCUDA_CMD_TIMESTAMP;
	c[3].u.timestamp.dst = base + 24;
	t0 = vt_now_ns();
	sig = vt_signal_tl(self->tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, self->copy, c, 4, &sig, 1));
	usleep(250000);
	__atomic_store_n(&p[0], 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 1, 5000));
	t1 = vt_now_ns();
	/* Same clock as CLOCK_MONOTONIC, in order, spaced by the wait. */
	EXPECT_LE(t0, p[1]);
	EXPECT_LE(p[1] + 250 * MS, p[2]);
	EXPECT_LE(p[2], p[3]);
	EXPECT_GE(t1, p[3]);
	EXPECT_GE(t1 - t0, p[3] - p[1]);
}

TEST_F(eng, compute_priorities_under_contention)
{
	enum { PER_QUEUE = 10 };
	uint32_t q[3], order[3 * PER_QUEUE];
	struct drm_vcuda_compute_wait w;
	int prio, i;

	for (prio = 0; prio < 3; prio++)
		ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
					     DRM_VCUDA_ENGINE_COMPUTE, prio,
					     &q[prio]));
	/* Low first, high last: submission order does not matter. */
	for (prio = 0; prio < 3; prio++) {
		for (i = 0; i < PER_QUEUE; i++) {
			struct drm_vcuda_cmd c = vt_launch(prio << 8 | i);

			ASSERT_EQ(0, vt_submit1(self->fd, q[prio], &c, 1,
						NULL, 0));
		}
	}
	usleep(300000);
	/* One worker: every launch waits for it. */
	for (i = 0; i < 3 * PER_QUEUE; i++) {
		ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS,
					     &w));
		order[i] = w.descriptor;
		ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id,
					     0, 0));
	}
	/* High, normal, low; in order within each queue. */
	for (i = 0; i < 3 * PER_QUEUE; i++)
		EXPECT_EQ((uint32_t)((2 - i / PER_QUEUE) << 8 | i % PER_QUEUE),
			  order[i]);
}

TEST_F_TIMEOUT(eng, copy_priorities_under_contention, 120)
{
	enum { LOW = 4, JOBS = 6 };
	uint64_t fill = 4 * MiB, low_last = ~0ull, high_last;
	uint32_t ql[LOW], qh, h, hts, i, j, ctx2;
	uint64_t *ts, dst;
	uint8_t *mem;
	int fd2;

	/* Low-priority queues of two clients, more than there are engines. */
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, vt_ctx_create(fd2, &ctx2));
	mem = map_bo(self->fd, self->ctx, fill, DRM_VCUDA_BO_PLACEMENT_DEVICE,
		     &h);
	ASSERT_NE(NULL, mem);
	dst = (uintptr_t)mem;
	ts = (uint64_t *)map_bo(self->fd, self->ctx, 4096,
				DRM_VCUDA_BO_PLACEMENT_HOST, &hts);
	ASSERT_NE(NULL, ts);
	{
		uint32_t h2, hts2;
		uint8_t *m2 = map_bo(fd2, ctx2, fill,
				     DRM_VCUDA_BO_PLACEMENT_DEVICE, &h2);
		int dmabuf;

		ASSERT_NE(NULL, m2);
		/* fd2's timestamps land in the same page. */
		ASSERT_EQ(0, drmPrimeHandleToFD(self->fd, hts, 0, &dmabuf));
		ASSERT_EQ(0, drmPrimeFDToHandle(fd2, dmabuf, &hts2));
		ASSERT_EQ(0, vt_map(fd2, ctx2, hts2, 0, (uintptr_t)ts, 4096,
				    0));
		close(dmabuf);
		ASSERT_EQ((uintptr_t)m2 != 0, 1);
		/* Both contexts fill the memory at their own address. */
		for (i = 0; i < LOW; i++)
			ASSERT_EQ(0, vt_queue_create(i % 2 ? fd2 : self->fd,
						     i % 2 ? ctx2 : self->ctx,
						     DRM_VCUDA_ENGINE_COPY,
						     DRM_VCUDA_QUEUE_PRIORITY_LOW,
						     &ql[i]));
		for (j = 0; j < JOBS; j++) {
			for (i = 0; i < LOW; i++) {
				struct drm_vcuda_cmd c[2];

				memset(c, 0, sizeof(c));
				c[0].op = DRM_VCUDA_CMD_FILL;
				c[0].flags = DRM_VCUDA_CMD_FILL_32;
				c[0].u.fill.dst = i % 2 ? (uintptr_t)m2 : dst;
				c[0].u.fill.width = fill / 4;
				c[0].u.fill.height = 1;
				c[0].u.fill.value = j;
				c[1].op = DRM_VCUDA_CMD_TIMESTAMP;
				c[1].u.timestamp.dst = (uintptr_t)&ts[i];
				ASSERT_EQ(0, vt_submit1(i % 2 ? fd2 : self->fd,
							ql[i], c, 2, NULL, 0));
			}
		}
	}
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_HIGH, &qh));
	for (j = 0; j < JOBS; j++) {
		struct drm_vcuda_cmd c[2];
		struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, j + 1);

		memset(c, 0, sizeof(c));
		c[0].op = DRM_VCUDA_CMD_FILL;
		c[0].flags = DRM_VCUDA_CMD_FILL_32;
		c[0].u.fill.dst = dst;
		c[0].u.fill.width = fill / 4;
		c[0].u.fill.height = 1;
		c[1].op = DRM_VCUDA_CMD_TIMESTAMP;
		c[1].u.timestamp.dst = (uintptr_t)&ts[LOW];
		ASSERT_EQ(0, vt_submit1(self->fd, qh, c, 2, &sig, 1));
	}
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, JOBS, 60000));
	high_last = __atomic_load_n(&ts[LOW], __ATOMIC_ACQUIRE);
	/* Let the low queues finish. */
	for (i = 0; i < 6000; i++) {
		for (j = 0; j < LOW; j++)
			if (!__atomic_load_n(&ts[j], __ATOMIC_ACQUIRE))
				break;
		if (j == LOW && vt_objects(self->fd, "jobs") <= 0)
			break;
		usleep(10000);
	}
	for (j = 0; j < LOW; j++)
		if (ts[j] < low_last)
			low_last = ts[j];
	/* The high queue, submitted last, finished before any low one. */
	EXPECT_NE(0ull, high_last);
	EXPECT_LT(high_last, low_last);
	TH_LOG("high queue done %llu ms before the first low queue",
	       (unsigned long long)(low_last - high_last) / MS);
	close(fd2);
}

/* Waits for a context's fault, up to 10 s. */
static uint32_t wait_fault(int fd, uint32_t ctx, uint64_t *addr)
{
	struct drm_vcuda_ctx_get_state st = { 0 };
	int i;

	for (i = 0; i < 1000; i++) {
		if (vt_ctx_state(fd, ctx, &st))
			return ~0u;
		if (st.fault_kind)
			break;
		usleep(10000);
	}
	if (addr)
		*addr = st.fault_addr;
	return st.fault_kind;
}

TEST_F_TIMEOUT(eng, fault_trap_hang_poison_only_their_context, 60)
{
	uint64_t timeout_ms = vt_param("job_timeout_ms"), addr;
	uint32_t ctx[4], q[4], i, n;
	struct vt_worker good;
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_cmd c;
	struct drm_vcuda_ctx_get_state st;
	int hang = timeout_ms && timeout_ms <= 10000;

	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx[i]));
		ASSERT_EQ(0, vt_queue_create(self->fd, ctx[i],
					     DRM_VCUDA_ENGINE_COMPUTE, 1, &q[i]));
	}
	/* ctx[3] works on throughout, with its own worker. */
	ASSERT_EQ(0, vt_worker_start(&good, self->fd, ctx[3]));
	for (i = 0; i < 3; i++) {
		c = vt_launch(0x100 + i);
		ASSERT_EQ(0, vt_submit1(self->fd, q[i], &c, 1, NULL, 0));
		ASSERT_EQ(0, vt_compute_wait(self->fd, ctx[i], 2000 * MS, &w));
		/* ctx[2]'s launch is never reported: a hang. */
		if (i == 2)
			continue;
		ASSERT_EQ(0, vt_compute_done(self->fd, ctx[i], w.launch_id,
					     i ? DRM_VCUDA_FAULT_TRAP :
					     DRM_VCUDA_FAULT_UNMAPPED,
					     i ? 0 : 0xbad000));
	}
	for (n = 0; n < 20; n++) {
		c = vt_launch(n);
		ASSERT_EQ(0, vt_submit1(self->fd, q[3], &c, 1, NULL, 0));
	}
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, wait_fault(self->fd, ctx[0], &addr));
	EXPECT_EQ(0xbad000ull, addr);
	EXPECT_EQ(DRM_VCUDA_FAULT_TRAP, wait_fault(self->fd, ctx[1], NULL));
	if (hang)
		EXPECT_EQ(DRM_VCUDA_FAULT_TIMEOUT,
			  wait_fault(self->fd, ctx[2], NULL));
	/* The faulted contexts refuse work; the good one takes more. */
	c = vt_launch(1);
	EXPECT_EQ(-EIO, vt_submit1(self->fd, q[0], &c, 1, NULL, 0));
	EXPECT_EQ(-EIO, vt_submit1(self->fd, q[1], &c, 1, NULL, 0));
	for (; n < 40; n++) {
		struct drm_vcuda_sync_op sig = vt_signal_tl(self->tl, n - 19);

		c = vt_launch(n);
		ASSERT_EQ(0, vt_submit1(self->fd, q[3], &c, 1, &sig, 1));
	}
	ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, 20, 10000));
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx[3], &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	vt_worker_stop(&good);
	EXPECT_EQ(40u, good.count);
	EXPECT_EQ(0, good.done_errors);
	if (!hang)
		SKIP(return, "job_timeout_ms is %llu: hang not tested",
		     (unsigned long long)timeout_ms);
}

TEST_F(eng, cross_process_syncobj_dependencies)
{
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_sync_op sig;
	uint32_t q, shared;
	uint64_t t_done, *ts;
	struct drm_vcuda_cmd c;
	int sfd, status, go[2], back[2];
	uint32_t h;
	pid_t pid;
	char b;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE, 1, &q));
	ts = (uint64_t *)map_bo(self->fd, self->ctx, 4096,
				DRM_VCUDA_BO_PLACEMENT_HOST, &h);
	ASSERT_NE(NULL, ts);
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &shared));
	ASSERT_EQ(0, drmSyncobjHandleToFD(self->fd, shared, &sfd));
	/* Point 1: a launch of this process, held by hand. */
	c = vt_launch(0x51);
	sig = vt_signal_tl(shared, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(back));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The other process waits for 1 and signals 2 on its queue. */
		int fd = vt_open();
		uint32_t ctx, cq, tl, hc;
		uint64_t *cts;
		struct drm_vcuda_cmd t = { .op = DRM_VCUDA_CMD_TIMESTAMP };
		struct drm_vcuda_sync_op s[2];

		if (fd < 0 || drmSyncobjFDToHandle(fd, sfd, &tl) ||
		    vt_ctx_create(fd, &ctx) ||
		    vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COPY, 1, &cq))
			_exit(1);
		cts = (uint64_t *)map_bo(fd, ctx, 4096,
					 DRM_VCUDA_BO_PLACEMENT_HOST, &hc);
		if (!cts)
			_exit(2);
		t.u.timestamp.dst = (uintptr_t)cts;
		s[0] = vt_wait_tl(tl, 1);
		s[1] = vt_signal_tl(tl, 2);
		if (vt_submit1(fd, cq, &t, 1, s, 2))
			_exit(3);
		if (write(back[1], "s", 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(4);
		if (vt_wait_point(fd, tl, 2, 10000))
			_exit(5);
		/* Report the device time of our job to the parent. */
		if (write(back[1], cts, 8) != 8)
			_exit(6);
		_exit(0);
	}
	ASSERT_EQ(1, read(back[0], &b, 1));
	/* The other process's job waits for our launch. */
	usleep(200000);
	EXPECT_EQ(-ETIME, vt_wait_point(self->fd, shared, 2, 10));
	ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS, &w));
	EXPECT_EQ(0x51ull, w.descriptor);
	t_done = vt_now_ns();
	ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id, 0, 0));
	ASSERT_EQ(1, write(go[1], "g", 1));
	/* Our own wait for its point. */
	ASSERT_EQ(0, vt_wait_point(self->fd, shared, 2, 10000));
	{
		uint64_t child_ts = 0;

		ASSERT_EQ(8, read(back[0], &child_ts, 8));
		EXPECT_LE(t_done, child_ts);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* And the other way: a job here waits for the other process. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = vt_open();
		uint32_t ctx, cq, tl;
		struct drm_vcuda_cmd sem = { .op = DRM_VCUDA_CMD_SEM_ACQUIRE };
		struct drm_vcuda_sync_op s;
		uint32_t hc;
		uint32_t *flag;

		if (fd < 0 || drmSyncobjFDToHandle(fd, sfd, &tl) ||
		    vt_ctx_create(fd, &ctx) ||
		    vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COPY, 1, &cq))
			_exit(1);
		flag = (uint32_t *)map_bo(fd, ctx, 4096,
					  DRM_VCUDA_BO_PLACEMENT_HOST, &hc);
		if (!flag)
			_exit(2);
		/* Point 3 once this process's CPU writes its flag. */
		sem.flags = DRM_VCUDA_SEM_COND_GEQ;
		sem.u.sem.addr = (uintptr_t)flag;
		sem.u.sem.value = 1;
		s = vt_signal_tl(tl, 3);
		if (vt_submit1(fd, cq, &sem, 1, &s, 1))
			_exit(3);
		if (write(back[1], "s", 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(4);
		__atomic_store_n(flag, 1, __ATOMIC_RELEASE);
		_exit(vt_wait_point(fd, tl, 3, 10000) ? 5 : 0);
	}
	ASSERT_EQ(1, read(back[0], &b, 1));
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_TIMESTAMP;
	c.u.timestamp.dst = (uintptr_t)ts;
	{
		struct drm_vcuda_sync_op s[2] = {
			vt_wait_tl(shared, 3), vt_signal_tl(shared, 4),
		};

		ASSERT_EQ(0, vt_submit1(self->fd, self->copy, &c, 1, s, 2));
	}
	usleep(200000);
	EXPECT_EQ(0ull, ts[0]);
	t_done = vt_now_ns();
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, shared, 4, 10000));
	EXPECT_LE(t_done, ts[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(sfd);
}

TEST_F_TIMEOUT(eng, killed_with_jobs_in_flight, 120)
{
	uint64_t used = vt_sysfs_u64(self->fd, "vram_used");
	struct drm_vcuda_compute_wait mw;
	long long before[5];
	uint32_t qmine;
	int round;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE, 1, &qmine));
	vt_objects_snapshot(self->fd, before);
	for (round = 0; round < 6; round++) {
		int ready[2], status, bfd;
		uint32_t blocker;
		pid_t pid;
		char b;

		/*
		 * A point of ours, signalled only after the victim is dead,
		 * that some of its jobs wait for.
		 */
		ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &blocker));
		{
			struct drm_vcuda_cmd c = vt_launch(round);
			struct drm_vcuda_sync_op s = vt_signal_tl(blocker, 1);

			ASSERT_EQ(0, vt_submit1(self->fd, qmine, &c, 1, &s, 1));
		}
		ASSERT_EQ(0, drmSyncobjHandleToFD(self->fd, blocker, &bfd));
		ASSERT_EQ(0, pipe(ready));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			int fd = vt_open();
			uint32_t ctx[2], qc[4], qk[4], tl, h, i, hs, bl;
			struct drm_vcuda_compute_wait w;
			uint8_t *big;
			uint32_t *sem;

			if (fd < 0 || drmSyncobjFDToHandle(fd, bfd, &bl))
				_exit(1);
			for (i = 0; i < 2; i++)
				if (vt_ctx_create(fd, &ctx[i]))
					_exit(2);
			for (i = 0; i < 4; i++)
				if (vt_queue_create(fd, ctx[i % 2],
						    DRM_VCUDA_ENGINE_COMPUTE,
						    i % 3, &qc[i]) ||
				    vt_queue_create(fd, ctx[i % 2],
						    DRM_VCUDA_ENGINE_COPY,
						    i % 3, &qk[i]))
					_exit(3);
			if (drmSyncobjCreate(fd, 0, &tl))
				_exit(4);
			big = map_bo(fd, ctx[0], 16 * MiB,
				     DRM_VCUDA_BO_PLACEMENT_DEVICE, &h);
			sem = (uint32_t *)map_bo(fd, ctx[1], 4096,
						 DRM_VCUDA_BO_PLACEMENT_HOST,
						 &hs);
			if (!big || !sem ||
			    vt_map(fd, ctx[0], hs, 0, (uintptr_t)sem, 4096, 0))
				_exit(5);
			for (i = 0; i < 32; i++) {
				struct drm_vcuda_cmd c = vt_launch(i);
				struct drm_vcuda_sync_op s = vt_signal_tl(tl,
									  i + 1);

				if (i % 8 == 3) {
					/* Waits for the other process. */
					struct drm_vcuda_sync_op ws[2] = {
						vt_wait_tl(bl, 1), s,
					};

					if (vt_submit1(fd, qc[3], &c, 1, ws, 2))
						_exit(12);
				} else if (i % 4 == 1) {
					/* Big fills on copy engines. */
					memset(&c, 0, sizeof(c));
					c.op = DRM_VCUDA_CMD_FILL;
					c.u.fill.dst = (uintptr_t)big;
					c.u.fill.width = 16 * MiB;
					c.u.fill.height = 1;
					if (vt_submit1(fd, qk[0], &c, 1, &s, 1))
						_exit(6);
				} else if (i % 4 == 2) {
					/* Semaphores never released. */
					memset(&c, 0, sizeof(c));
					c.op = DRM_VCUDA_CMD_SEM_ACQUIRE;
					c.flags = DRM_VCUDA_SEM_COND_EQ;
					c.u.sem.addr = (uintptr_t)sem;
					c.u.sem.value = 7;
					if (vt_submit1(fd, qk[1 + i % 3], &c, 1,
						       &s, 1))
						_exit(7);
				} else if (vt_submit1(fd, qc[i % 2], &c, 1, &s,
						      1)) {
					_exit(8);
				}
			}
			/* Launches taken and never reported. */
			for (i = 0; i < 2; i++)
				if (vt_compute_wait(fd, ctx[i], 2000 * MS, &w))
					_exit(9);
			if (write(ready[1], "r", 1) != 1)
				_exit(10);
			/* And a worker blocked waiting. */
			vt_compute_wait(fd, ctx[0], 0, &w);
			vt_compute_wait(fd, ctx[0], 0, &w);
			pause();
			_exit(11);
		}
		close(ready[1]);
		ASSERT_EQ(1, read(ready[0], &b, 1));
		close(ready[0]);
		usleep((round % 3) * 20000);
		ASSERT_EQ(0, kill(pid, SIGKILL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status));
		/* The dead process's waiters go once the point signals. */
		ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS,
					     &mw));
		ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, mw.launch_id,
					     0, 0));
		ASSERT_EQ(0, vt_wait_point(self->fd, blocker, 1, 5000));
		close(bfd);
		drmSyncobjDestroy(self->fd, blocker);
	}
	EXPECT_EQ(0, vt_objects_settle(self->fd, before, 10000));
	EXPECT_EQ(used, vt_sysfs_u64(self->fd, "vram_used"));
}

struct ctx_load {
	int fd;
	uint32_t ctx;
	uint32_t bo;
	uint32_t q[64];
	uint32_t tl;
	uint64_t dst;
	struct vt_worker w[2];
	int error;
	pthread_t thread;
};

enum { STRESS_CTX = 8, STRESS_QUEUES = 64, STRESS_JOBS = 8 };

static void *ctx_load_main(void *arg)
{
	struct ctx_load *l = arg;
	uint32_t i, j;

	for (j = 0; j < STRESS_JOBS && !l->error; j++) {
		for (i = 0; i < STRESS_QUEUES && !l->error; i++) {
			struct drm_vcuda_sync_op s[2];
			struct drm_vcuda_cmd c = vt_launch(j);
			uint64_t p = (uint64_t)j * STRESS_QUEUES + i + 1;
			uint32_t ns = 1;

			if (i % 2) {
				memset(&c, 0, sizeof(c));
				c.op = DRM_VCUDA_CMD_FILL;
				c.u.fill.dst = l->dst + i * 256;
				c.u.fill.width = 256;
				c.u.fill.height = 1;
				c.u.fill.value = j;
			}
			/* Each job also waits for the previous point. */
			s[0] = vt_signal_tl(l->tl, p);
			if (p > STRESS_QUEUES) {
				s[1] = vt_wait_tl(l->tl, p - STRESS_QUEUES);
				ns = 2;
			}
			l->error = vt_submit1(l->fd, l->q[i], &c, 1, s, ns);
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(eng, stress_64_queues_8_contexts, 300)
{
	struct ctx_load *l;
	long long before[5];
	uint32_t i, k, launches = 0;
	uint64_t t0;

	l = calloc(STRESS_CTX, sizeof(*l));
	ASSERT_NE(NULL, l);
	vt_objects_snapshot(self->fd, before);
	t0 = vt_now_ns();
	for (k = 0; k < STRESS_CTX; k++) {
		uint32_t h;
		uint8_t *p;

		/* Half the contexts on their own file. */
		l[k].fd = k % 2 ? vt_open() : self->fd;
		ASSERT_LE(0, l[k].fd);
		ASSERT_EQ(0, vt_ctx_create(l[k].fd, &l[k].ctx));
		for (i = 0; i < STRESS_QUEUES; i++)
			ASSERT_EQ(0, vt_queue_create(l[k].fd, l[k].ctx,
						     i % 2, i % 3, &l[k].q[i]));
		ASSERT_EQ(0, drmSyncobjCreate(l[k].fd, 0, &l[k].tl));
		p = map_bo(l[k].fd, l[k].ctx, STRESS_QUEUES * 256,
			   DRM_VCUDA_BO_PLACEMENT_DEVICE, &h);
		ASSERT_NE(NULL, p);
		l[k].bo = h;
		l[k].dst = (uintptr_t)p;
		ASSERT_EQ(0, vt_worker_start(&l[k].w[0], l[k].fd, l[k].ctx));
		ASSERT_EQ(0, vt_worker_start(&l[k].w[1], l[k].fd, l[k].ctx));
	}
	for (k = 0; k < STRESS_CTX; k++)
		ASSERT_EQ(0, pthread_create(&l[k].thread, NULL, ctx_load_main,
					    &l[k]));
	for (k = 0; k < STRESS_CTX; k++) {
		struct drm_vcuda_ctx_get_state st;

		pthread_join(l[k].thread, NULL);
		EXPECT_EQ(0, l[k].error);
		EXPECT_EQ(0, vt_wait_point(l[k].fd, l[k].tl,
					   STRESS_JOBS * STRESS_QUEUES, 120000));
		ASSERT_EQ(0, vt_ctx_state(l[k].fd, l[k].ctx, &st));
		EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
		vt_worker_stop(&l[k].w[0]);
		vt_worker_stop(&l[k].w[1]);
		launches += l[k].w[0].count + l[k].w[1].count;
		EXPECT_EQ(0, l[k].w[0].done_errors + l[k].w[1].done_errors);
	}
	EXPECT_EQ((uint32_t)(STRESS_CTX * STRESS_QUEUES / 2 * STRESS_JOBS),
		  launches);
	TH_LOG("%u jobs on %u queues in %llu ms",
	       STRESS_CTX * STRESS_QUEUES * STRESS_JOBS,
	       STRESS_CTX * STRESS_QUEUES,
	       (unsigned long long)(vt_now_ns() - t0) / MS);
	for (k = 0; k < STRESS_CTX; k++) {
		munmap((void *)(uintptr_t)l[k].dst, STRESS_QUEUES * 256);
		if (l[k].fd != self->fd) {
			close(l[k].fd);
		} else {
			vt_ctx_destroy(self->fd, l[k].ctx);
			vt_bo_close(self->fd, l[k].bo);
		}
	}
	EXPECT_EQ(0, vt_objects_settle(self->fd, before, 10000));
	free(l);
}

TEST_F(eng, launch_latency)
{
	struct drm_vcuda_compute_wait w;
	uint64_t lat[200], t, sum = 0;
	uint32_t q, i, j;

	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE, 1, &q));
	for (i = 0; i < 200; i++) {
		struct drm_vcuda_cmd c = vt_launch(i);
		struct drm_vcuda_sync_op s = vt_signal_tl(self->tl, i + 1);

		t = vt_now_ns();
		ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &s, 1));
		ASSERT_EQ(0, vt_compute_wait(self->fd, self->ctx, 2000 * MS,
					     &w));
		ASSERT_EQ(0, vt_compute_done(self->fd, self->ctx, w.launch_id,
					     0, 0));
		ASSERT_EQ(0, vt_wait_point(self->fd, self->tl, i + 1, 2000));
		lat[i] = vt_now_ns() - t;
		sum += lat[i];
	}
	for (i = 1; i < 200; i++)
		for (j = i; j > 0 && lat[j - 1] > lat[j]; j--) {
			t = lat[j];
			lat[j] = lat[j - 1];
			lat[j - 1] = t;
		}
	TH_LOG("submit -> worker -> done -> fence: median %llu us, p90 %llu us, mean %llu us",
	       (unsigned long long)lat[100] / 1000,
	       (unsigned long long)lat[180] / 1000,
	       (unsigned long long)sum / 200 / 1000);
	EXPECT_GT(100 * MS, lat[100]);
}

TEST_HARNESS_MAIN
