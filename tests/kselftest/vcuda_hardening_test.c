// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: what a hostile process could do to the kernel and to
 * other users (issue 16). Each test reproduces one hole that was found
 * and checks the fix: object lifetimes through re-exported peer objects,
 * the per-file limits on kernel memory, RLIMIT_MEMLOCK for pinned host
 * buffers, the rate of fault reports, semaphore polling, and arguments
 * that must be refused.
 */
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MiB (1ull << 20)

static int prime_export(int fd, uint32_t h, int *dmabuf)
{
	return drmPrimeHandleToFD(fd, h, DRM_CLOEXEC | DRM_RDWR, dmabuf) ?
	       -errno : 0;
}

static int prime_import(int fd, int dmabuf, uint32_t *h)
{
	return drmPrimeFDToHandle(fd, dmabuf, h) ? -errno : 0;
}

static int ipc_export(int fd, uint32_t handle, struct drm_vcuda_ipc_handle *t)
{
	struct drm_vcuda_ipc_export e = { .handle = handle };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_IPC_EXPORT, &e);

	*t = e.token;
	return ret;
}

static int ipc_import(int fd, const struct drm_vcuda_ipc_handle *t,
		      uint32_t *handle)
{
	struct drm_vcuda_ipc_import i = { .token = *t };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_IPC_IMPORT, &i);

	*handle = i.handle;
	return ret;
}

FIXTURE(peer) {
	int fd0, fd1;
	uint32_t ctx1;
};

FIXTURE_SETUP(peer)
{
	self->fd0 = vt_open_index(0);
	self->fd1 = vt_open_index(1);
	if (self->fd0 < 0 || self->fd1 < 0)
		SKIP(return, "needs two vcuda devices");
	ASSERT_EQ(0, vt_ctx_create(self->fd1, &self->ctx1));
}

FIXTURE_TEARDOWN(peer)
{
	if (self->fd0 >= 0)
		close(self->fd0);
	if (self->fd1 >= 0)
		close(self->fd1);
}

/*
 * Issue 16, item 1: a peer object kept alive by a binding only, given a
 * handle again through IPC and exported as a dma-buf of its own. Mapping
 * that dma-buf used to leave the mapping's private data pointing at the
 * unreferenced peer object under the shmem helper's vm_ops: SIGBUS on
 * read, refcount underflow on munmap, and device 0's VRAM leaked.
 */
TEST_F(peer, reexported_peer_dmabuf_mmap)
{
	uint64_t size = 2 * MiB, used0, va = 0x7300000000ull;
	struct drm_vcuda_ipc_handle token;
	uint32_t h0, h1, h1b;
	uint8_t *p0, *pd;
	int dmabuf, d2;

	used0 = vt_sysfs_u64(self->fd0, "vram_used");
	ASSERT_EQ(0, vt_bo_create(self->fd0, size,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h0));
	p0 = vt_bo_mmap(self->fd0, h0, size, NULL);
	ASSERT_NE(MAP_FAILED, p0);
	memset(p0, 0x5a, size);
	ASSERT_EQ(0, prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);
	ASSERT_EQ(0, vt_map(self->fd1, self->ctx1, h1, 0, va, size, 0));

	/* Only the binding holds the peer object now. */
	ASSERT_EQ(0, ipc_export(self->fd1, h1, &token));
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1));
	ASSERT_EQ(0, ipc_import(self->fd1, &token, &h1b));
	ASSERT_EQ(0, prime_export(self->fd1, h1b, &d2));

	pd = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, d2, 0);
	ASSERT_NE(MAP_FAILED, pd);
	EXPECT_EQ(0x5a, pd[0]);
	EXPECT_EQ(0x5a, pd[size - 1]);
	pd[100] = 0x11;
	EXPECT_EQ(0x11, p0[100]);
	EXPECT_EQ(0, munmap(pd, size));

	/* Everything goes: device 0's memory comes back. */
	close(d2);
	EXPECT_EQ(0, vt_bo_close(self->fd1, h1b));
	EXPECT_EQ(0, vt_unmap(self->fd1, self->ctx1, va, size));
	EXPECT_EQ(0, munmap(p0, size));
	EXPECT_EQ(0, vt_bo_close(self->fd0, h0));
	EXPECT_EQ(used0, vt_sysfs_u64(self->fd0, "vram_used"));
}

/*
 * The mapping of a peer object's own dma-buf outlives every handle, the
 * binding and the dma-buf's fd: it keeps the memory until it goes.
 */
TEST_F(peer, peer_dmabuf_mapping_outlives_handles)
{
	uint64_t size = 2 * MiB, used0, va = 0x7400000000ull;
	struct drm_vcuda_ipc_handle token;
	uint32_t h0, h1, h1b;
	int dmabuf, d2;
	uint8_t *pd;

	used0 = vt_sysfs_u64(self->fd0, "vram_used");
	ASSERT_EQ(0, vt_bo_create(self->fd0, size,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h0));
	ASSERT_EQ(0, prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);
	ASSERT_EQ(0, vt_bo_close(self->fd0, h0));
	ASSERT_EQ(0, vt_map(self->fd1, self->ctx1, h1, 0, va, size, 0));
	ASSERT_EQ(0, ipc_export(self->fd1, h1, &token));
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1));
	ASSERT_EQ(0, ipc_import(self->fd1, &token, &h1b));
	ASSERT_EQ(0, prime_export(self->fd1, h1b, &d2));
	pd = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, d2, 0);
	ASSERT_NE(MAP_FAILED, pd);

	close(d2);
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1b));
	ASSERT_EQ(0, vt_unmap(self->fd1, self->ctx1, va, size));
	EXPECT_EQ(used0 + size, vt_sysfs_u64(self->fd0, "vram_used"));
	pd[size - 1] = 0x42;
	EXPECT_EQ(0x42, pd[size - 1]);
	EXPECT_EQ(0, pd[0]);
	EXPECT_EQ(0, munmap(pd, size));
	EXPECT_EQ(used0, vt_sysfs_u64(self->fd0, "vram_used"));
}

FIXTURE(dev) {
	int fd;
	uint32_t ctx;
};

FIXTURE_SETUP(dev)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &self->ctx));
}

FIXTURE_TEARDOWN(dev)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Issue 16, item 8: VM_BIND's reserved syncs are reserved entirely. */
TEST_F(dev, vm_bind_reserved_syncs)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE,
		.va = 0x7500000000ull, .size = VT_PAGE,
	};
	struct drm_vcuda_vm_bind b = {
		.ctx_id = self->ctx, .ops = VT_ARRAY(1, &op),
	};

	b.syncs.stride = sizeof(struct drm_vcuda_sync_op);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	b.syncs.stride = 0;
	b.syncs.array = (uintptr_t)&op;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	b.syncs.array = 0;
	EXPECT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
}

/*
 * Issue 16, item 8: DEV_QUERY zero-filled whatever @size said, up to
 * 4 GiB past the structure. Past 4096 bytes it is refused, untouched.
 */
TEST_F(dev, dev_query_size_bounded)
{
	static uint8_t buf[8192];
	uint32_t size = 4097;
	size_t i;

	memset(buf, 0xa5, sizeof(buf));
	EXPECT_EQ(-EINVAL, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO,
				    buf, &size));
	for (i = 0; i < sizeof(buf) && buf[i] == 0xa5; i++)
		;
	EXPECT_EQ(sizeof(buf), i);
	size = 0xffffffffu;
	EXPECT_EQ(-EINVAL, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_MEMORY_INFO,
				    buf, &size));
	EXPECT_EQ(0xa5, buf[0]);
	/* 4096 is the largest accepted: filled, then zero-filled. */
	size = 4096;
	EXPECT_EQ(0, vt_query(self->fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO, buf,
			      &size));
	EXPECT_EQ(sizeof(struct drm_vcuda_device_info), size);
	EXPECT_EQ(0, buf[4095]);
	EXPECT_EQ(0xa5, buf[4096]);
}

/* Kernel log records since @kfd was opened that contain @needle. */
static int kmsg_count(int kfd, const char *needle, const char *bad,
		      int *bad_seen)
{
	char rec[2048];
	int n = 0;
	ssize_t len;

	for (;;) {
		len = read(kfd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = 0;
		if (!strstr(rec, needle))
			continue;
		n++;
		if (bad && strstr(rec, bad))
			(*bad_seen)++;
	}
	return n;
}

static int kmsg_open_at_end(void)
{
	int kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	return kfd;
}

/*
 * Issue 16, item 8: a process names itself, and its name went raw into
 * the Xid line (a newline forged a log line); every first fault of a
 * context logged a line, 2000 faults in 1.5 s pushed older messages out.
 */
TEST_F(dev, xid_lines_sanitized_and_rate_limited)
{
	char path[128], line[512], needle[64];
	int kfd, status, forged = 0, named = 0, lines;
	struct drm_vcuda_device_reset r = { 0 };
	FILE *f;
	pid_t pid;

	kfd = kmsg_open_at_end();
	ASSERT_LE(0, kfd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		uint32_t ctx;
		int fd, i;

		/* The name is the thread group leader's: this process's. */
		prctl(PR_SET_NAME, "vt\nforged\x01", 0, 0, 0);
		fd = vt_open();
		for (i = 0; i < 60; i++)
			if (fd < 0 || vt_ctx_create(fd, &ctx))
				_exit(1);
		vt_debugfs_path(fd, "contexts", path, sizeof(path));
		f = fopen(path, "r");
		if (!f)
			_exit(2);
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "forged", 6))
				forged++;
			if (strstr(line, " vt?forged? "))
				named++;
		}
		fclose(f);
		if (forged || named != 60)
			_exit(3);
		/* Faults all 60 contexts at once: 60 first faults. */
		if (vt_ioctl(fd, DRM_IOCTL_VCUDA_DEVICE_RESET, &r))
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	snprintf(needle, sizeof(needle), "pid=%d,", pid);
	lines = kmsg_count(kfd, needle, "\\x0a", &forged);
	close(kfd);
	/* Ten lines per five seconds per device, whatever came before. */
	EXPECT_GE(10, lines);
	EXPECT_EQ(0, forged);
}

/*
 * Issue 16, item 8: every queue waiting on a semaphore polled it every
 * jiffy (2000 waiting queues kept half the CPUs busy). Polls back off.
 */
TEST_F(dev, semaphore_polls_back_off)
{
	enum { NQ = 20 };
	uint32_t q[NQ], tl, h;
	long long before, polls;
	volatile uint32_t *slot;
	uint64_t va;
	int i;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h));
	slot = vt_bo_mmap(self->fd, h, VT_PAGE, NULL);
	ASSERT_NE(MAP_FAILED, slot);
	va = (uintptr_t)slot;
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, VT_PAGE, 0));
	*slot = 0;
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));
	before = vt_objects(self->fd, "sem_polls");
	ASSERT_LE(0, before);
	for (i = 0; i < NQ; i++) {
		struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_SEM_ACQUIRE };
		struct drm_vcuda_sync_op sig = vt_signal_tl(tl, i + 1);

		c.flags = DRM_VCUDA_SEM_COND_EQ;
		c.u.sem.addr = va;
		c.u.sem.value = 1;
		ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
					     DRM_VCUDA_ENGINE_COPY, 1, &q[i]));
		ASSERT_EQ(0, vt_submit1(self->fd, q[i], &c, 1, &sig, 1));
	}
	sleep(2);
	polls = vt_objects(self->fd, "sem_polls") - before;
	/*
	 * Every jiffy would be 500 polls per queue in 2 s at HZ=250; backing
	 * off by an eighth of the wait makes it about 50.
	 */
	EXPECT_GT(100ll * NQ, polls);
	TH_LOG("%lld polls of %d queues in 2 s", polls, NQ);

	/* The CPU's write is still noticed. */
	*slot = 1;
	for (i = 0; i < NQ; i++)
		EXPECT_EQ(0, vt_wait_point(self->fd, tl, i + 1, 10000));
}

/* A "Key: <n> kB" line of /proc/self/status or /proc/meminfo, in bytes. */
static long long proc_kb(const char *file, const char *key)
{
	size_t len = strlen(key);
	long long val = -1;
	char line[256];
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			val = strtoll(line + len + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return val;
}

/* Drops root (and CAP_IPC_LOCK with it) with a 64 KiB RLIMIT_MEMLOCK. */
static int become_nobody_64k(void)
{
	struct rlimit rl = { 64 * 1024, 64 * 1024 };

	if (setrlimit(RLIMIT_MEMLOCK, &rl) || setgid(65534) ||
	    setuid(65534))
		return -1;
	return 0;
}

/*
 * Issue 16, item 3: with RLIMIT_MEMLOCK at 64 KiB, 1 GiB of host
 * buffers could be pinned while userptr was refused. Host buffers are
 * charged to the creator's pinned memory (VmPin) as userptr is.
 */
TEST_F(dev, host_buffers_charged_to_memlock)
{
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to drop CAP_IPC_LOCK");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		uint32_t h[17], big;
		void *p;
		int i;

		if (become_nobody_64k())
			_exit(1);
		if (vt_bo_create(self->fd, 1ull << 30,
				 DRM_VCUDA_BO_PLACEMENT_HOST, 0, &big) !=
		    -ENOMEM)
			_exit(2);
		for (i = 0; i < 16; i++)
			if (vt_bo_create(self->fd, VT_PAGE,
					 DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h[i]))
				_exit(3);
		if (proc_kb("/proc/self/status", "VmPin") != 64 * 1024)
			_exit(4);
		if (vt_bo_create(self->fd, VT_PAGE,
				 DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h[16]) !=
		    -ENOMEM)
			_exit(5);
		/* Device memory is not the host's: still fine. */
		if (vt_bo_create(self->fd, MiB, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				 0, &big))
			_exit(6);
		/*
		 * The last reference going in munmap(), under the mmap
		 * lock, gives the charge back too.
		 */
		p = vt_bo_mmap(self->fd, h[0], VT_PAGE, NULL);
		if (p == MAP_FAILED || vt_bo_close(self->fd, h[0]) ||
		    munmap(p, VT_PAGE))
			_exit(7);
		if (vt_bo_close(self->fd, h[1]))
			_exit(8);
		if (proc_kb("/proc/self/status", "VmPin") != 56 * 1024)
			_exit(9);
		for (i = 0; i < 2; i++)
			if (vt_bo_create(self->fd, VT_PAGE,
					 DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h[i]))
				_exit(10);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Issue 16, item 3: vram_mb larger than the machine's RAM let device
 * buffers exhaust the host. Device memory is capped at the RAM (the VM
 * has 2 GiB and the default vram_mb is 4096).
 */
TEST_F(dev, vram_not_larger_than_ram)
{
	long long ram = proc_kb("/proc/meminfo", "MemTotal");
	uint64_t vram = vt_sysfs_u64(self->fd, "vram_total");

	ASSERT_LT(0, ram);
	EXPECT_GE((uint64_t)ram, vram);
	if (vt_param("vram_mb") << 20 <= (uint64_t)ram)
		EXPECT_EQ(vt_param("vram_mb") << 20, vram);
}

/*
 * Issue 16, item 2: per-file limits on kernel objects. A file has at
 * most max_contexts contexts and max_queues queues (-ENOSPC past them);
 * another file is not affected, and destroying one makes room.
 */
TEST_F(dev, contexts_and_queues_per_file)
{
	uint64_t max_ctx = vt_param("max_contexts");
	uint64_t max_q = vt_param("max_queues");
	uint32_t id, last = 0, other;
	uint64_t i;
	int fd2;

	ASSERT_GT(100000ull, max_ctx);
	ASSERT_GT(100000ull, max_q);
	/* The fixture made one context. */
	for (i = 1; i < max_ctx; i++)
		ASSERT_EQ(0, vt_ctx_create(self->fd, &last));
	EXPECT_EQ(-ENOSPC, vt_ctx_create(self->fd, &id));
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, vt_ctx_create(fd2, &other));
	close(fd2);
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, last));
	EXPECT_EQ(0, vt_ctx_create(self->fd, &id));

	for (i = 0; i < max_q; i++)
		ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
					     DRM_VCUDA_ENGINE_COPY, 1, &last));
	EXPECT_EQ(-ENOSPC, vt_queue_create(self->fd, id,
					   DRM_VCUDA_ENGINE_COMPUTE, 1, &other));
	ASSERT_EQ(0, vt_queue_destroy(self->fd, last));
	EXPECT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COMPUTE,
				     1, &other));
	/* Destroying a context gives its queues back. */
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, self->ctx));
	EXPECT_EQ(0, vt_queue_create(self->fd, id, DRM_VCUDA_ENGINE_COPY, 1,
				     &other));
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * Issue 16, item 2: 48,000 jobs queued behind a launch nobody takes
 * held 1.58 GB of unreclaimable kernel memory. A file has at most
 * max_queued_jobs jobs alive; past it SUBMIT waits for room (a signal
 * interrupts it), and the room comes back as jobs are freed.
 */
TEST_F(dev, queued_jobs_per_file)
{
	uint64_t max = vt_param("max_queued_jobs"), n;
	struct sigaction sa = { .sa_handler = on_alarm };
	struct drm_vcuda_job jobs[64];
	struct drm_vcuda_cmd c = vt_launch(1);
	struct drm_vcuda_submit sub;
	uint32_t q, q2, i;
	uint64_t t0;
	int ret;

	ASSERT_GE(1ull << 20, max);
	ASSERT_EQ(0, max % 64);
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE, 1, &q));
	memset(jobs, 0, sizeof(jobs));
	for (i = 0; i < 64; i++)
		jobs[i].cmds = VT_ARRAY(1, &c);
	/* Nobody takes the first launch: every job stays. */
	for (n = 0; n < max; n += 64)
		ASSERT_EQ(0, vt_submit(self->fd, q, jobs, 64));
	EXPECT_LE((long long)max, vt_objects(self->fd, "jobs"));

	/* One more waits, until a signal. */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	sub = (struct drm_vcuda_submit){
		.queue_id = q, .jobs = VT_ARRAY(1, jobs),
	};
	t0 = vt_now_ns();
	alarm(1);
	ret = ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &sub);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINTR, errno);
	EXPECT_LE(900000000ull, vt_now_ns() - t0);

	/* Destroying the queue frees its jobs: room again, on any queue. */
	ASSERT_EQ(0, vt_queue_destroy(self->fd, q));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx,
				     DRM_VCUDA_ENGINE_COMPUTE, 1, &q2));
	sub.queue_id = q2;
	alarm(20);
	EXPECT_EQ(0, ioctl(self->fd, DRM_IOCTL_VCUDA_SUBMIT, &sub));
	alarm(0);
}

/*
 * Issue 16, item 2: ~296,000 mappings of one 4 KiB object took 1.16 GiB
 * of page tables. An address space holds at most max_mappings mappings
 * and reservations; an unmap that would cut one in two past it fails.
 */
TEST_F(dev, mappings_per_address_space)
{
	uint64_t max = vt_param("max_mappings"), n = 0, base = 1ull << 40;
	static struct drm_vcuda_vm_bind_op ops[1024];
	uint32_t h, i, done;

	ASSERT_GE(1ull << 20, max);
	ASSERT_EQ(0, vt_bo_create(self->fd, 3 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	/* One three-page mapping, then single pages up to the limit. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, base, 3 * VT_PAGE, 0));
	n = 1;
	base += 4 * VT_PAGE;
	while (n < max) {
		uint32_t batch = max - n < 1024 ? max - n : 1024;

		for (i = 0; i < batch; i++)
			ops[i] = (struct drm_vcuda_vm_bind_op){
				.flags = DRM_VCUDA_VM_BIND_OP_MAP,
				.bo_handle = h, .va = base, .size = VT_PAGE,
			}, base += VT_PAGE;
		ASSERT_EQ(0, vt_bind(self->fd, self->ctx, ops, batch, &done));
		n += batch;
	}
	EXPECT_EQ(-ENOSPC, vt_map(self->fd, self->ctx, h, 0, base, VT_PAGE,
				  0));
	ops[0] = (struct drm_vcuda_vm_bind_op){
		.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE,
		.va = base, .size = VT_PAGE,
	};
	EXPECT_EQ(-ENOSPC, vt_bind(self->fd, self->ctx, ops, 1, NULL));
	/* Cutting the first mapping in two would add one: refused. */
	EXPECT_EQ(-ENOSPC, vt_unmap(self->fd, self->ctx,
				    (1ull << 40) + VT_PAGE, VT_PAGE));
	/* Cutting its end keeps one piece: fine, and leaves room. */
	EXPECT_EQ(0, vt_unmap(self->fd, self->ctx, (1ull << 40) + 2 * VT_PAGE,
			      VT_PAGE));
	EXPECT_EQ(0, vt_unmap(self->fd, self->ctx, base - VT_PAGE, VT_PAGE));
	EXPECT_EQ(0, vt_map(self->fd, self->ctx, h, 0, base, VT_PAGE, 0));
	EXPECT_EQ(-ENOSPC, vt_map(self->fd, self->ctx, h, 0, base + VT_PAGE,
				  VT_PAGE, 0));
}

/* A memory cgroup of our own (cgroup v2, mounted if need be), or -1. */
static int cgroup_make(char *dir, size_t len, const char *max)
{
	char path[256];
	int fd;

	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK) &&
	    mount("none", "/sys/fs/cgroup", "cgroup2", 0, NULL))
		return -1;
	fd = open("/sys/fs/cgroup/cgroup.subtree_control", O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, "+memory", 7) < 0 && errno != EBUSY) {
		close(fd);
		return -1;
	}
	close(fd);
	snprintf(dir, len, "/sys/fs/cgroup/vcuda-hardening-%d", getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, max, strlen(max)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static long long cgroup_read(const char *dir, const char *file)
{
	char path[256], buf[64] = "";
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		val = strtoll(buf, NULL, 10);
	fclose(f);
	return val;
}

static int cgroup_enter(const char *dir)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, "0", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * Issue 16, item 2, and the acceptance check: as uid nobody in a 64 MiB
 * memory cgroup, page tables and mappings (the kernel memory a process
 * can make the module allocate fastest) are charged to the cgroup, and
 * its limit stops them: the binds fail, or the OOM killer takes the
 * attacker, never memory outside the cgroup.
 */
TEST_F(dev, kernel_memory_charged_to_cgroup)
{
	char dir[128];
	long long before, peak, slab0, slab1;
	int status;
	pid_t pid;

	if (geteuid() != 0 || cgroup_make(dir, sizeof(dir), "64M"))
		SKIP(return, "needs root and a memory cgroup");
	slab0 = proc_kb("/proc/meminfo", "SUnreclaim") +
		proc_kb("/proc/meminfo", "PageTables") +
		proc_kb("/proc/meminfo", "SecPageTables");
	before = cgroup_read(dir, "memory.current");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		uint32_t h, ctx, i;
		int fd, ret = 0;

		/* The render node may be root's: opened first, as a client would. */
		fd = vt_open();
		if (cgroup_enter(dir) || become_nobody_64k())
			_exit(1);
		if (fd < 0 || vt_ctx_create(fd, &ctx) ||
		    vt_bo_create(fd, VT_PAGE, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				 0, &h))
			_exit(2);
		/*
		 * One page every 1 GiB: two page tables (8 KiB) each. 64 MiB
		 * of them is 8192 mappings; the limit allows 65536.
		 */
		for (i = 0; i < 65536 && !ret; i++)
			ret = vt_map(fd, ctx, h, 0, (1ull << 40) +
				     ((uint64_t)i << 30), VT_PAGE, 0);
		if (ret != -ENOMEM)
			_exit(3);
		if (i < 1024)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	peak = cgroup_read(dir, "memory.peak");
	slab1 = proc_kb("/proc/meminfo", "SUnreclaim") +
		proc_kb("/proc/meminfo", "PageTables") +
		proc_kb("/proc/meminfo", "SecPageTables");
	TH_LOG("cgroup: %lld before, peak %lld; unreclaimable %+lld KiB",
	       before, peak, (slab1 - slab0) / 1024);
	/* Killed by the cgroup's OOM killer, or stopped with -ENOMEM. */
	if (WIFSIGNALED(status)) {
		EXPECT_EQ(SIGKILL, WTERMSIG(status));
	} else {
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	/* The cgroup paid for the tables: at least 8 MiB of them. */
	EXPECT_LT(before + (8ll << 20), peak);
	/* And the process's exit gave everything back. */
	EXPECT_GT(64ll << 20, slab1 - slab0);
	rmdir(dir);
}

static long long unreclaimable_kernel(void)
{
	return proc_kb("/proc/meminfo", "SUnreclaim") +
	       proc_kb("/proc/meminfo", "PageTables");
}

/*
 * Issue 16, item 2, the acceptance check for jobs: as nobody in a 64 MiB
 * memory cgroup, jobs queued behind a launch nobody takes raise the
 * machine's unreclaimable kernel memory by about what the cgroup is
 * charged, not by memory nobody pays for (1.58 GB against 0.9 MB before).
 */
TEST_F(dev, queued_jobs_charged_to_cgroup)
{
	long long cg0, cg1, un0, un1;
	int status, ready[2];
	char dir[128], c;
	pid_t pid;

	if (geteuid() != 0 || cgroup_make(dir, sizeof(dir), "64M"))
		SKIP(return, "needs root and a memory cgroup");
	ASSERT_EQ(0, pipe(ready));
	cg0 = cgroup_read(dir, "memory.current");
	un0 = unreclaimable_kernel();
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		static struct drm_vcuda_cmd cmds[256];
		struct drm_vcuda_job jobs[64];
		uint32_t ctx, q, i, n;
		int fd = vt_open();

		if (cgroup_enter(dir) || become_nobody_64k())
			_exit(1);
		if (fd < 0 || vt_ctx_create(fd, &ctx) ||
		    vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COMPUTE, 1, &q))
			_exit(2);
		/* A launch nobody takes, then 255 NOPs, in every job. */
		cmds[0] = vt_launch(1);
		for (i = 1; i < 256; i++)
			cmds[i].op = DRM_VCUDA_CMD_NOP;
		memset(jobs, 0, sizeof(jobs));
		for (i = 0; i < 64; i++)
			jobs[i].cmds = VT_ARRAY(256, cmds);
		/* 1024 jobs of 24 KiB of commands, within the limit. */
		for (n = 0; n < 1024; n += 64)
			if (vt_submit(fd, q, jobs, 64))
				_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	cg1 = cgroup_read(dir, "memory.current");
	un1 = unreclaimable_kernel();
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	TH_LOG("1024 jobs: cgroup %+lld KiB, unreclaimable %+lld KiB",
	       (cg1 - cg0) / 1024, (un1 - un0) / 1024);
	/* The commands alone are 24 MiB: the cgroup pays for them. */
	EXPECT_LT(24ll << 20, cg1 - cg0);
	/* What nobody pays for (the scheduler's fences): a few MiB. */
	EXPECT_GT(4ll << 20, (un1 - un0) - (cg1 - cg0));
	rmdir(dir);
}

TEST_HARNESS_MAIN
