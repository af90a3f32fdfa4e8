// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unplug: unbinding the platform driver from a device while a file is
 * open on it. The file stays valid but every ioctl fails with -ENODEV, a
 * worker waiting in COMPUTE_WAIT wakes up (its context is faulted), and
 * closing the file afterwards releases everything. The device is bound
 * again at the end, as a fresh device, for the tests that follow.
 */
#include <libgen.h>
#include <limits.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define VT_DRIVER_DIR "/sys/bus/platform/drivers/" DRM_VCUDA_DRIVER_NAME

/* The platform device of @fd ("vcuda.0"), from its sysfs link. */
static int vt_platform_name(int fd, char *name, size_t len)
{
	char link[128], target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st))
		return -errno;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = 0;
	snprintf(name, len, "%s", basename(target));
	return 0;
}

/* Writes @name to the driver's bind or unbind file. */
static int vt_driver_write(const char *file, const char *name)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), VT_DRIVER_DIR "/%s", file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, name, strlen(name));
	n = n < 0 ? -errno : 0;
	close(fd);
	return n;
}

struct vt_waiter {
	int fd;
	uint32_t ctx_id;
	volatile pid_t tid;
	int ret;
};

static void *vt_waiter_main(void *arg)
{
	struct vt_waiter *w = arg;
	struct drm_vcuda_compute_wait cw;

	w->tid = gettid();
	/* Far longer than the test: only the unplug ends it. */
	w->ret = vt_compute_wait(w->fd, w->ctx_id, 60ull * 1000000000, &cw);
	return NULL;
}

/* Whether thread @tid sleeps (in COMPUTE_WAIT: it does nothing else). */
static bool vt_thread_sleeps(pid_t tid)
{
	char path[64], buf[256], *state;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	/* "tid (comm) S ...": the state follows the last ')'. */
	state = strrchr(buf, ')');
	return state && state[1] == ' ' && state[2] == 'S';
}

TEST(unbind_with_open_file)
{
	struct vt_waiter waiter = {};
	struct drm_vcuda_device_info info;
	char name[64];
	pthread_t thread;
	uint32_t ctx, queue, ctx2;
	int fd, fd2, i;

	fd = vt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_platform_name(fd, name, sizeof(name)));
	ASSERT_EQ(0, strncmp(name, DRM_VCUDA_DRIVER_NAME ".", 6));
	ASSERT_EQ(0, vt_ctx_create(fd, &ctx));
	ASSERT_EQ(0, vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COMPUTE,
				     DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &queue));

	waiter.fd = fd;
	waiter.ctx_id = ctx;
	waiter.ret = 1;
	ASSERT_EQ(0, pthread_create(&thread, NULL, vt_waiter_main, &waiter));
	/* The worker must be inside COMPUTE_WAIT when the device goes. */
	for (i = 0; i < 1000 && !(waiter.tid && vt_thread_sleeps(waiter.tid));
	     i++)
		usleep(10000);
	ASSERT_GT(1000, i);

	ASSERT_EQ(0, vt_driver_write("unbind", name));

	/* The unplug faulted the context, which woke the worker. */
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(-EIO, waiter.ret);

	EXPECT_EQ(-ENODEV, vt_device_info(fd, &info));
	EXPECT_EQ(-ENODEV, vt_ctx_create(fd, &ctx2));
	EXPECT_EQ(-ENODEV, vt_queue_destroy(fd, queue));
	EXPECT_EQ(-ENODEV, vt_ctx_destroy(fd, ctx));
	EXPECT_EQ(0, close(fd));

	/* Bound again, it is a new device that works. */
	ASSERT_EQ(0, vt_driver_write("bind", name));
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(0, vt_device_info(fd2, &info));
	EXPECT_EQ(0, vt_ctx_create(fd2, &ctx2));
	EXPECT_EQ(0, vt_ctx_destroy(fd2, ctx2));
	close(fd2);
}

TEST_HARNESS_MAIN
