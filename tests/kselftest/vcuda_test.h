/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the vcuda uAPI tests (kselftest harness).
 *
 * Every helper returns 0 or a negative errno, so that tests can assert
 * the exact error of an ioctl: ASSERT_EQ(-EINVAL, vt_ioctl(...)).
 */
#ifndef VCUDA_TEST_H
#define VCUDA_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "vcuda_drm.h"

#define VT_PAGE 4096ull
#define VT_ARRAY(cnt, ptr) ((struct drm_vcuda_obj_array)DRM_VCUDA_OBJ_ARRAY(cnt, ptr))

/* ioctl returning 0 or -errno, retrying on EINTR like drmIoctl(). */
static inline int vt_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

/*
 * Opens the render node of the index-th vcuda device (the one whose DRM
 * driver name is "vcuda"); -ENODEV if there is none.
 */
static inline int vt_open_index(int index)
{
	int minor, found = 0;

	for (minor = 128; minor < 192; minor++) {
		char path[64];
		drmVersionPtr v;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, DRM_VCUDA_DRIVER_NAME)) {
			drmFreeVersion(v);
			if (found++ == index)
				return fd;
		} else if (v) {
			drmFreeVersion(v);
		}
		close(fd);
	}
	return -ENODEV;
}

static inline int vt_open(void)
{
	return vt_open_index(0);
}

static inline uint64_t vt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline int vt_query(int fd, uint32_t type, void *buf, uint32_t *size)
{
	struct drm_vcuda_dev_query q = {
		.type = type,
		.size = size ? *size : 0,
		.pointer = (uintptr_t)buf,
	};
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_DEV_QUERY, &q);

	if (size)
		*size = q.size;
	return ret;
}

static inline int vt_device_info(int fd, struct drm_vcuda_device_info *info)
{
	uint32_t size = sizeof(*info);

	return vt_query(fd, DRM_VCUDA_DEV_QUERY_DEVICE_INFO, info, &size);
}

static inline int vt_memory_info(int fd, struct drm_vcuda_memory_info *mem)
{
	uint32_t size = sizeof(*mem);

	return vt_query(fd, DRM_VCUDA_DEV_QUERY_MEMORY_INFO, mem, &size);
}

static inline int vt_ctx_create(int fd, uint32_t *ctx_id)
{
	struct drm_vcuda_ctx_create c = { 0 };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_CTX_CREATE, &c);

	*ctx_id = c.ctx_id;
	return ret;
}

static inline int vt_ctx_destroy(int fd, uint32_t ctx_id)
{
	struct drm_vcuda_ctx_destroy d = { .ctx_id = ctx_id };

	return vt_ioctl(fd, DRM_IOCTL_VCUDA_CTX_DESTROY, &d);
}

static inline int vt_ctx_state(int fd, uint32_t ctx_id,
			       struct drm_vcuda_ctx_get_state *st)
{
	memset(st, 0, sizeof(*st));
	st->ctx_id = ctx_id;
	return vt_ioctl(fd, DRM_IOCTL_VCUDA_CTX_GET_STATE, st);
}

static inline int vt_bo_create(int fd, uint64_t size, uint32_t placement,
			       uint32_t flags, uint32_t *handle)
{
	struct drm_vcuda_bo_create c = {
		.size = size, .placement = placement, .flags = flags,
	};
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_BO_CREATE, &c);

	*handle = c.handle;
	return ret;
}

static inline int vt_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return vt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static inline int vt_bo_offset(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_vcuda_bo_mmap_offset m = { .handle = handle };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_BO_MMAP_OFFSET, &m);

	*offset = m.offset;
	return ret;
}

/* Maps a BO with MAP_SHARED, at @addr (MAP_FIXED) if non-NULL. */
static inline void *vt_bo_mmap(int fd, uint32_t handle, uint64_t size,
			       void *addr)
{
	uint64_t offset;

	if (vt_bo_offset(fd, handle, &offset))
		return MAP_FAILED;
	return mmap(addr, size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | (addr ? MAP_FIXED : 0), fd, offset);
}

/* Reserves process address space to use as a GPU virtual address. */
static inline uint64_t vt_reserve_va(uint64_t size)
{
	void *p = mmap(NULL, size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? 0 : (uintptr_t)p;
}

static inline int vt_bind(int fd, uint32_t ctx_id,
			  struct drm_vcuda_vm_bind_op *ops, uint32_t count,
			  uint32_t *done)
{
	struct drm_vcuda_vm_bind b = {
		.ctx_id = ctx_id,
		.ops = VT_ARRAY(count, ops),
	};
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_VM_BIND, &b);

	if (done)
		*done = b.ops.count;
	return ret;
}

static inline int vt_map(int fd, uint32_t ctx_id, uint32_t handle,
			 uint64_t bo_offset, uint64_t va, uint64_t size,
			 uint32_t flags)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP | flags,
		.bo_handle = handle, .bo_offset = bo_offset,
		.va = va, .size = size,
	};

	return vt_bind(fd, ctx_id, &op, 1, NULL);
}

static inline int vt_unmap(int fd, uint32_t ctx_id, uint64_t va,
			   uint64_t size)
{
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_UNMAP, .va = va, .size = size,
	};

	return vt_bind(fd, ctx_id, &op, 1, NULL);
}

static inline int vt_translate(int fd, uint32_t ctx_id, uint64_t va,
			       struct drm_vcuda_vm_translate *t)
{
	memset(t, 0, sizeof(*t));
	t->ctx_id = ctx_id;
	t->va = va;
	return vt_ioctl(fd, DRM_IOCTL_VCUDA_VM_TRANSLATE, t);
}

static inline int vt_queue_create(int fd, uint32_t ctx_id, uint32_t engine,
				  uint32_t priority, uint32_t *queue_id)
{
	struct drm_vcuda_queue_create c = {
		.ctx_id = ctx_id, .engine = engine, .priority = priority,
	};
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_QUEUE_CREATE, &c);

	*queue_id = c.queue_id;
	return ret;
}

static inline int vt_queue_destroy(int fd, uint32_t queue_id)
{
	struct drm_vcuda_queue_destroy d = { .queue_id = queue_id };

	return vt_ioctl(fd, DRM_IOCTL_VCUDA_QUEUE_DESTROY, &d);
}

static inline int vt_submit(int fd, uint32_t queue_id,
			    struct drm_vcuda_job *jobs, uint32_t count)
{
	struct drm_vcuda_submit s = {
		.queue_id = queue_id,
		.jobs = VT_ARRAY(count, jobs),
	};

	return vt_ioctl(fd, DRM_IOCTL_VCUDA_SUBMIT, &s);
}

/* Submits one job of @ncmds commands and @nsyncs sync operations. */
static inline int vt_submit1(int fd, uint32_t queue_id,
			     struct drm_vcuda_cmd *cmds, uint32_t ncmds,
			     struct drm_vcuda_sync_op *syncs, uint32_t nsyncs)
{
	struct drm_vcuda_job job = {
		.cmds = VT_ARRAY(ncmds, cmds),
		.syncs = VT_ARRAY(nsyncs, syncs),
	};

	return vt_submit(fd, queue_id, &job, 1);
}

static inline struct drm_vcuda_cmd vt_launch(uint64_t descriptor)
{
	struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_LAUNCH };

	c.u.launch.descriptor = descriptor;
	c.u.launch.threads = 1;
	return c;
}

static inline struct drm_vcuda_sync_op vt_signal_tl(uint32_t handle,
						    uint64_t point)
{
	struct drm_vcuda_sync_op s = {
		.flags = DRM_VCUDA_SYNC_OP_HANDLE_TYPE_TIMELINE_SYNCOBJ |
			 DRM_VCUDA_SYNC_OP_SIGNAL,
		.handle = handle, .point = point,
	};
	return s;
}

static inline struct drm_vcuda_sync_op vt_wait_tl(uint32_t handle,
						  uint64_t point)
{
	struct drm_vcuda_sync_op s = {
		.flags = DRM_VCUDA_SYNC_OP_HANDLE_TYPE_TIMELINE_SYNCOBJ |
			 DRM_VCUDA_SYNC_OP_WAIT,
		.handle = handle, .point = point,
	};
	return s;
}

static inline struct drm_vcuda_sync_op vt_signal_bin(uint32_t handle)
{
	struct drm_vcuda_sync_op s = {
		.flags = DRM_VCUDA_SYNC_OP_HANDLE_TYPE_SYNCOBJ |
			 DRM_VCUDA_SYNC_OP_SIGNAL,
		.handle = handle,
	};
	return s;
}

static inline int vt_compute_wait(int fd, uint32_t ctx_id,
				  uint64_t timeout_ns,
				  struct drm_vcuda_compute_wait *w)
{
	memset(w, 0, sizeof(*w));
	w->ctx_id = ctx_id;
	w->timeout_ns = timeout_ns;
	return vt_ioctl(fd, DRM_IOCTL_VCUDA_COMPUTE_WAIT, w);
}

static inline int vt_compute_done(int fd, uint32_t ctx_id, uint64_t launch_id,
				  uint32_t fault_kind, uint64_t fault_addr)
{
	struct drm_vcuda_compute_done d = {
		.ctx_id = ctx_id, .fault_kind = fault_kind,
		.launch_id = launch_id, .fault_addr = fault_addr,
	};

	return vt_ioctl(fd, DRM_IOCTL_VCUDA_COMPUTE_DONE, &d);
}

/* Waits (up to @timeout_ms) for a timeline point; 0 or -errno. */
static inline int vt_wait_point(int fd, uint32_t handle, uint64_t point,
				int timeout_ms)
{
	uint64_t deadline = vt_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	int ret = drmSyncobjTimelineWait(fd, &handle, &point, 1, deadline,
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
					 NULL);

	return ret ? -errno : 0;
}

/* Waits for a binary syncobj; 0 or -errno. */
static inline int vt_wait_bin(int fd, uint32_t handle, int timeout_ms)
{
	uint64_t deadline = vt_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	int ret = drmSyncobjWait(fd, &handle, 1, deadline,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);

	return ret ? -errno : 0;
}

/*
 * Status of a binary syncobj's fence, through a sync file: 1 signalled,
 * 0 active, negative: the fence's error. -ENOENT-like errors of the export
 * come back as they are.
 */
static inline int vt_fence_status(int fd, uint32_t handle)
{
	struct sync_file_info info = { 0 };
	int sync_fd, ret;

	if (drmSyncobjExportSyncFile(fd, handle, &sync_fd))
		return -errno;
	ret = ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info);
	close(sync_fd);
	return ret ? -errno : info.status;
}

static inline uint64_t vt_sysfs_u64(int fd, const char *attr)
{
	char path[256], buf[64] = "";
	unsigned long long val = ~0ull;
	struct stat st;
	FILE *f;

	if (fstat(fd, &st))
		return ~0ull;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/%s",
		 major(st.st_rdev), minor(st.st_rdev), attr);
	f = fopen(path, "r");
	if (!f)
		return ~0ull;
	if (fgets(buf, sizeof(buf), f))
		val = strtoull(buf, NULL, 10);
	fclose(f);
	return val;
}

/* Reads a sysfs attribute of the device of @fd into @buf; 0 or -errno. */
static inline int vt_sysfs_read(int fd, const char *attr, char *buf,
				size_t len)
{
	char path[256];
	struct stat st;
	ssize_t n;
	int afd;

	if (fstat(fd, &st))
		return -errno;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/%s",
		 major(st.st_rdev), minor(st.st_rdev), attr);
	afd = open(path, O_RDONLY);
	if (afd < 0)
		return -errno;
	n = read(afd, buf, len - 1);
	close(afd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

/* Writes @val to a sysfs attribute of the device of @fd; 0 or -errno. */
static inline int vt_sysfs_write(int fd, const char *attr, const char *val)
{
	char path[256];
	struct stat st;
	ssize_t n;
	int afd;

	if (fstat(fd, &st))
		return -errno;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/%s",
		 major(st.st_rdev), minor(st.st_rdev), attr);
	afd = open(path, O_WRONLY);
	if (afd < 0)
		return -errno;
	n = write(afd, val, strlen(val));
	n = n < 0 ? -errno : 0;
	close(afd);
	return n;
}

/*
 * The number of a "key:\t<n> unit" line of /proc/self/fdinfo/@fd, ~0 if
 * there is none.
 */
static inline uint64_t vt_fdinfo_u64(int fd, const char *key)
{
	unsigned long long val = ~0ull;
	char path[64], line[256];
	size_t len = strlen(key);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return ~0ull;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ':') {
			val = strtoull(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

/* The path of a debugfs file of the device of @fd. */
static inline void vt_debugfs_path(int fd, const char *file, char *path,
				   size_t len)
{
	struct stat st;

	if (fstat(fd, &st))
		st.st_rdev = 0;
	snprintf(path, len, "/sys/kernel/debug/dri/%u/%s", minor(st.st_rdev),
		 file);
}

/* A "name <n>" line of the device's debugfs "objects" file, or -1. */
static inline long long vt_objects(int fd, const char *name)
{
	char path[128], line[128];
	size_t len = strlen(name);
	long long val = -1;
	FILE *f;

	vt_debugfs_path(fd, "objects", path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, name, len) && line[len] == ' ') {
			val = strtoll(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return val;
}

/*
 * Waits up to @timeout_ms for the device's live objects (debugfs
 * "objects": bos, contexts, queues, jobs, pt_pages) to come back to
 * what @before holds (5 values, from vt_objects_snapshot()); 0 or -1.
 */
static inline void vt_objects_snapshot(int fd, long long *out)
{
	static const char *const names[] = {
		"bos", "contexts", "queues", "jobs", "pt_pages",
	};
	int i;

	for (i = 0; i < 5; i++)
		out[i] = vt_objects(fd, names[i]);
}

static inline int vt_objects_settle(int fd, const long long *before,
				    int timeout_ms)
{
	long long now[5];
	int t;

	for (t = 0; t <= timeout_ms; t += 10) {
		vt_objects_snapshot(fd, now);
		if (!memcmp(now, before, sizeof(now)))
			return 0;
		usleep(10000);
	}
	return -1;
}

/* A vcuda module parameter, or ~0 if it cannot be read. */
static inline uint64_t vt_param(const char *name)
{
	unsigned long long val = ~0ull;
	char path[128], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vcuda/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return ~0ull;
	if (fgets(buf, sizeof(buf), f))
		val = strtoull(buf, NULL, 10);
	fclose(f);
	return val;
}

/*
 * A compute worker thread: takes launches of a context with
 * COMPUTE_WAIT, records their descriptors in order and reports them with
 * COMPUTE_DONE. A descriptor with VT_FAULT_BIT set is reported as an
 * UNMAPPED fault at its low bits. Stops on -ENOENT/-EIO or when told to.
 */
#define VT_FAULT_BIT (1ull << 63)
#define VT_MAX_LOG 256

struct vt_worker {
	int fd;
	uint32_t ctx_id;
	pthread_t thread;
	volatile bool stop;
	pthread_mutex_t lock;
	uint32_t count;
	uint64_t log[VT_MAX_LOG];
	uint32_t queue_log[VT_MAX_LOG];
	int exit_error;
	int done_errors;
};

static inline void *vt_worker_main(void *arg)
{
	struct vt_worker *w = arg;

	while (!w->stop) {
		struct drm_vcuda_compute_wait wt;
		uint32_t kind = DRM_VCUDA_FAULT_NONE;
		uint64_t addr = 0;
		int ret;

		ret = vt_compute_wait(w->fd, w->ctx_id, 20000000ull, &wt);
		if (ret == -ETIMEDOUT)
			continue;
		if (ret) {
			w->exit_error = ret;
			break;
		}
		pthread_mutex_lock(&w->lock);
		if (w->count < VT_MAX_LOG) {
			w->log[w->count] = wt.descriptor;
			w->queue_log[w->count] = wt.queue_id;
		}
		w->count++;
		pthread_mutex_unlock(&w->lock);
		if (wt.descriptor & VT_FAULT_BIT) {
			kind = DRM_VCUDA_FAULT_UNMAPPED;
			addr = wt.descriptor & ~VT_FAULT_BIT;
		}
		if (vt_compute_done(w->fd, w->ctx_id, wt.launch_id, kind, addr))
			w->done_errors++;
	}
	return NULL;
}

static inline int vt_worker_start(struct vt_worker *w, int fd, uint32_t ctx)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->ctx_id = ctx;
	pthread_mutex_init(&w->lock, NULL);
	return -pthread_create(&w->thread, NULL, vt_worker_main, w);
}

static inline void vt_worker_stop(struct vt_worker *w)
{
	w->stop = true;
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
}

#endif /* VCUDA_TEST_H */
