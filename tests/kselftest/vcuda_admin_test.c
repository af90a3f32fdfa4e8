// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: the admin interface of docs/admin-interface.md
 * (sysfs, fdinfo, debugfs), the compute mode and device resets.
 */
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MS 1000000ull

FIXTURE(admin) {
	int fd;
};

FIXTURE_SETUP(admin)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
}

FIXTURE_TEARDOWN(admin)
{
	if (self->fd >= 0) {
		vt_sysfs_write(self->fd, "compute_mode", "Default");
		close(self->fd);
	}
}

TEST_F(admin, attributes)
{
	static const char *const names[] = {
		"index", "uuid", "name", "vram_total", "vram_used",
		"host_pinned", "compute_mode", "busy_compute_ns",
		"busy_copy_ns", "utilization_compute", "utilization_copy",
		"utilization_window_ms", "faults",
	};
	struct drm_vcuda_device_info info;
	char buf[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		ASSERT_EQ(0, vt_sysfs_read(self->fd, names[i], buf,
					   sizeof(buf)));
		/* One value, one newline. */
		EXPECT_NE(0u, strlen(buf));
		EXPECT_EQ('\n', buf[strlen(buf) - 1]);
		EXPECT_EQ(strlen(buf) - 1, strcspn(buf, "\n"));
	}
	ASSERT_EQ(0, vt_device_info(self->fd, &info));
	ASSERT_EQ(0, vt_sysfs_read(self->fd, "name", buf, sizeof(buf)));
	buf[strcspn(buf, "\n")] = 0;
	EXPECT_STREQ(info.name, buf);
	EXPECT_EQ(1000ull, vt_sysfs_u64(self->fd, "utilization_window_ms"));
	EXPECT_GE(100ull, vt_sysfs_u64(self->fd, "utilization_compute"));
	EXPECT_GE(100ull, vt_sysfs_u64(self->fd, "utilization_copy"));
	/* reset is write-only. */
	EXPECT_EQ(-EACCES, vt_sysfs_read(self->fd, "reset", buf, sizeof(buf)));
}

TEST_F(admin, compute_mode_names_and_numbers)
{
	static const struct {
		const char *in;
		const char *out;
		uint32_t mode;
	} cases[] = {
		{ "Exclusive_Process", "Exclusive_Process\n", 3 },
		{ "Default\n", "Default\n", 0 },
		{ "prohibited", "Prohibited\n", 2 },
		{ "3", "Exclusive_Process\n", 3 },
		{ "2\n", "Prohibited\n", 2 },
		{ "0", "Default\n", 0 },
	};
	struct drm_vcuda_device_info info;
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, vt_sysfs_write(self->fd, "compute_mode",
					    cases[i].in));
		ASSERT_EQ(0, vt_sysfs_read(self->fd, "compute_mode", buf,
					   sizeof(buf)));
		EXPECT_STREQ(cases[i].out, buf);
		ASSERT_EQ(0, vt_device_info(self->fd, &info));
		EXPECT_EQ(cases[i].mode, info.compute_mode);
	}
	/* Exclusive_Thread (1) is gone from CUDA; nonsense is refused. */
	EXPECT_EQ(-EINVAL, vt_sysfs_write(self->fd, "compute_mode", "1"));
	EXPECT_EQ(-EINVAL, vt_sysfs_write(self->fd, "compute_mode", "4"));
	EXPECT_EQ(-EINVAL, vt_sysfs_write(self->fd, "compute_mode", "Defaul"));
	EXPECT_EQ(-EINVAL, vt_sysfs_write(self->fd, "compute_mode", "\n"));
	ASSERT_EQ(0, vt_sysfs_read(self->fd, "compute_mode", buf, sizeof(buf)));
	EXPECT_STREQ("Default\n", buf);
}

TEST_F(admin, compute_mode_root_only)
{
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (vt_sysfs_write(self->fd, "compute_mode", "Prohibited") !=
		    -EACCES)
			_exit(3);
		if (vt_sysfs_write(self->fd, "reset", "1") != -EACCES)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Creates a context in a new process with its own file; its -errno. */
static int ctx_create_in_child(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = vt_open();
		uint32_t ctx;

		if (fd < 0)
			_exit(100);
		_exit(-vt_ctx_create(fd, &ctx));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1000;
	return -WEXITSTATUS(status);
}

TEST_F(admin, compute_mode_prohibited)
{
	uint32_t ctx, ctx2;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vt_sysfs_write(self->fd, "compute_mode", "Prohibited"));
	EXPECT_EQ(-EPERM, vt_ctx_create(self->fd, &ctx2));
	EXPECT_EQ(-EPERM, ctx_create_in_child());
	/* The context that exists is not affected. */
	{
		uint32_t q;

		EXPECT_EQ(0, vt_queue_create(self->fd, ctx,
					     DRM_VCUDA_ENGINE_COMPUTE, 1, &q));
	}
	ASSERT_EQ(0, vt_sysfs_write(self->fd, "compute_mode", "Default"));
	EXPECT_EQ(0, vt_ctx_create(self->fd, &ctx2));
	EXPECT_EQ(0, ctx_create_in_child());
}

TEST_F(admin, compute_mode_exclusive_process)
{
	uint32_t ctx, ctx2, ctx3;
	int fd2;

	ASSERT_EQ(0, vt_sysfs_write(self->fd, "compute_mode",
				    "Exclusive_Process"));
	/* Free device: any process may take it. */
	EXPECT_EQ(0, ctx_create_in_child());
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	/* This process may have more, through any file. */
	EXPECT_EQ(0, vt_ctx_create(self->fd, &ctx2));
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, vt_ctx_create(fd2, &ctx3));
	close(fd2);
	/* Another process may not. */
	EXPECT_EQ(-EBUSY, ctx_create_in_child());
	/* Once this process's contexts are gone, it may. */
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, ctx2));
	EXPECT_EQ(-EBUSY, ctx_create_in_child());
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, ctx));
	EXPECT_EQ(0, ctx_create_in_child());
}

TEST_F(admin, compute_mode_per_device)
{
	int fd1 = vt_open_index(1);
	uint32_t ctx;

	if (fd1 < 0)
		SKIP(return, "one device only");
	ASSERT_EQ(0, vt_sysfs_write(self->fd, "compute_mode", "Prohibited"));
	EXPECT_EQ(-EPERM, vt_ctx_create(self->fd, &ctx));
	EXPECT_EQ(0, vt_ctx_create(fd1, &ctx));
	close(fd1);
}

TEST_F(admin, busy_time_and_fdinfo_engines)
{
	uint64_t c0 = vt_sysfs_u64(self->fd, "busy_compute_ns");
	uint64_t k0 = vt_sysfs_u64(self->fd, "busy_copy_ns");
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_cmd c;
	uint32_t ctx, q, cq, tl, h;
	uint64_t va, t, fc, fk;
	int fd2;

	/* A fresh client has used nothing. */
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0ull, vt_fdinfo_u64(fd2, "drm-engine-compute"));
	EXPECT_EQ(0ull, vt_fdinfo_u64(fd2, "drm-engine-copy"));
	EXPECT_EQ(0ull, vt_fdinfo_u64(fd2, "drm-total-vram"));
	close(fd2);

	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx, DRM_VCUDA_ENGINE_COMPUTE,
				     1, &q));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx, DRM_VCUDA_ENGINE_COPY, 1,
				     &cq));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));

	/* A launch held by a "worker" for 300 ms is 300 ms of compute. */
	c = vt_launch(1);
	sig = vt_signal_tl(tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_compute_wait(self->fd, ctx, 2000 * MS, &w));
	t = vt_now_ns();
	usleep(300000);
	/* While it runs, the time in progress counts. */
	EXPECT_LE(250 * MS, vt_fdinfo_u64(self->fd, "drm-engine-compute"));
	ASSERT_EQ(0, vt_compute_done(self->fd, ctx, w.launch_id, 0, 0));
	t = vt_now_ns() - t;
	ASSERT_EQ(0, vt_wait_point(self->fd, tl, 1, 2000));
	fc = vt_fdinfo_u64(self->fd, "drm-engine-compute");
	EXPECT_LE(300 * MS, fc);
	EXPECT_GE(t + 50 * MS, fc);
	EXPECT_LE(c0 + 300 * MS, vt_sysfs_u64(self->fd, "busy_compute_ns"));
	/* Idle time does not count. */
	usleep(100000);
	EXPECT_EQ(fc, vt_fdinfo_u64(self->fd, "drm-engine-compute"));

	/* A 16 MiB fill keeps a copy engine busy for a while. */
	ASSERT_EQ(0, vt_bo_create(self->fd, 16 << 20,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	va = 0x200000000ull;
	ASSERT_EQ(0, vt_map(self->fd, ctx, h, 0, va, 16 << 20, 0));
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_FILL;
	c.flags = DRM_VCUDA_CMD_FILL_32;
	c.u.fill.dst = va;
	c.u.fill.width = (16 << 20) / 4;
	c.u.fill.height = 1;
	c.u.fill.value = 0x12345678;
	sig = vt_signal_tl(tl, 2);
	ASSERT_EQ(0, vt_submit1(self->fd, cq, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, tl, 2, 20000));
	fk = vt_fdinfo_u64(self->fd, "drm-engine-copy");
	EXPECT_LT(0ull, fk);
	EXPECT_LE(k0 + fk, vt_sysfs_u64(self->fd, "busy_copy_ns"));
	TH_LOG("16 MiB fill: %llu us of copy engine",
	       (unsigned long long)fk / 1000);
}

TEST_F(admin, utilization_window)
{
	struct drm_vcuda_compute_wait w;
	struct drm_vcuda_cmd c = vt_launch(1);
	uint32_t ctx, q;
	uint64_t util;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx, DRM_VCUDA_ENGINE_COMPUTE,
				     1, &q));
	/* Busy through more than two whole windows: the last one is 100%. */
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, NULL, 0));
	ASSERT_EQ(0, vt_compute_wait(self->fd, ctx, 2000 * MS, &w));
	usleep(2300000);
	util = vt_sysfs_u64(self->fd, "utilization_compute");
	EXPECT_EQ(100ull, util);
	ASSERT_EQ(0, vt_compute_done(self->fd, ctx, w.launch_id, 0, 0));
	/* Idle through two whole windows: 0%. */
	usleep(2300000);
	EXPECT_EQ(0ull, vt_sysfs_u64(self->fd, "utilization_compute"));
}

TEST_F(admin, faults_count_and_sysfs_reset)
{
	uint64_t faults = vt_sysfs_u64(self->fd, "faults");
	struct drm_vcuda_ctx_get_state st;
	uint32_t ctx, ctx2, q, tl;
	struct drm_vcuda_cmd c;
	struct drm_vcuda_sync_op sig;

	if (geteuid() != 0)
		SKIP(return, "needs root");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx, DRM_VCUDA_ENGINE_COPY, 1,
				     &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));
	/* A copy fault: one Xid. */
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_FILL;
	c.u.fill.dst = 0x300000000ull;
	c.u.fill.width = 1;
	c.u.fill.height = 1;
	sig = vt_signal_tl(tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, tl, 1, 5000));
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);
	EXPECT_EQ(faults + 1, vt_sysfs_u64(self->fd, "faults"));

	/* Reset through sysfs: only 1 is accepted. */
	EXPECT_EQ(-EINVAL, vt_sysfs_write(self->fd, "reset", "0"));
	EXPECT_EQ(-EINVAL, vt_sysfs_write(self->fd, "reset", "yes"));
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx2, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_NONE, st.fault_kind);
	ASSERT_EQ(0, vt_sysfs_write(self->fd, "reset", "1\n"));
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx2, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_RESET, st.fault_kind);
	/* The first context keeps its first fault. */
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);
	/* Only ctx2 got a new Xid (and any context of other tests alive). */
	EXPECT_LE(faults + 2, vt_sysfs_u64(self->fd, "faults"));
	/* The device is usable. */
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx, DRM_VCUDA_ENGINE_COPY, 1,
				     &q));
}

static bool file_has_line(const char *path, const char *needle)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, needle);
	fclose(f);
	return found;
}

TEST_F(admin, debugfs_dumps)
{
	uint64_t va = 0x40000000ull;
	char path[128], needle[128];
	uint32_t ctx, q, h;

	vt_debugfs_path(self->fd, "contexts", path, sizeof(path));
	if (access(path, R_OK))
		SKIP(return, "no debugfs");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx));
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx, DRM_VCUDA_ENGINE_COPY,
				     DRM_VCUDA_QUEUE_PRIORITY_HIGH, &q));
	ASSERT_EQ(0, vt_bo_create(self->fd, 4 << 20,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, ctx, h, 0, va, 4 << 20, 0));
	ASSERT_EQ(0, vt_map(self->fd, ctx, h, VT_PAGE, va + (8 << 20),
			    2 * VT_PAGE, DRM_VCUDA_VM_BIND_READONLY));

	snprintf(needle, sizeof(needle), " %d ", getpid());
	EXPECT_TRUE(file_has_line(path, needle));
	snprintf(needle, sizeof(needle), " %u:copy:high", q);
	EXPECT_TRUE(file_has_line(path, needle));

	vt_debugfs_path(self->fd, "vm", path, sizeof(path));
	snprintf(needle, sizeof(needle), "0x%012llx-0x%012llx rw device",
		 (unsigned long long)va, (unsigned long long)va + (4 << 20));
	EXPECT_TRUE(file_has_line(path, needle));
	vt_debugfs_path(self->fd, "pagetable", path, sizeof(path));
	snprintf(needle, sizeof(needle), "0x%012llx-0x%012llx 2 x 2M rw",
		 (unsigned long long)va, (unsigned long long)va + (4 << 20));
	EXPECT_TRUE(file_has_line(path, needle));
	snprintf(needle, sizeof(needle), "0x%012llx-0x%012llx 2 x 4K ro",
		 (unsigned long long)va + (8 << 20),
		 (unsigned long long)va + (8 << 20) + 2 * VT_PAGE);
	EXPECT_TRUE(file_has_line(path, needle));
	EXPECT_LE(1, vt_objects(self->fd, "contexts"));
	EXPECT_LE(1, vt_objects(self->fd, "bos"));
}

TEST_HARNESS_MAIN
