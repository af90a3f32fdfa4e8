/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: the virtual CUDA GPU driver, shared definitions.
 */
#ifndef _VCUDA_DRV_H_
#define _VCUDA_DRV_H_

#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/ratelimit.h>
#include <linux/uuid.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "vcuda_drm.h"
#include "vcuda_engine.h"
#include "vcuda_usage.h"

#define VCUDA_DRIVER_VERSION \
	(DRM_VCUDA_VERSION_MAJOR << 16 | DRM_VCUDA_VERSION_MINOR << 8 | \
	 DRM_VCUDA_VERSION_PATCH)

/*
 * Memory the module allocates for a client: charged to the client's
 * memory cgroup, and past the cgroup's limit a clean -ENOMEM for the
 * ioctl (no OOM kill, no allocation-failure splat) rather than the OOM
 * killer.
 */
#define VCUDA_GFP_CLIENT \
	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/* Limits of the ioctl arrays. */
#define VCUDA_MAX_JOBS		64
#define VCUDA_MAX_CMDS		256
#define VCUDA_MAX_SYNCS		64
#define VCUDA_MAX_BIND_OPS	1024
/* Largest element stride accepted in a &struct drm_vcuda_obj_array. */
#define VCUDA_MAX_STRIDE	4096

/* Module parameters, read-only once the module is loaded (vcuda_drv.c). */
extern unsigned int vcuda_num_devices;
extern unsigned int vcuda_vram_mb;
extern unsigned int vcuda_sm_count;
unsigned int vcuda_device_cc(unsigned int index);
extern unsigned int vcuda_job_timeout_ms;
extern unsigned int vcuda_max_contexts;
extern unsigned int vcuda_max_queues;
extern unsigned int vcuda_max_queued_jobs;
extern unsigned int vcuda_max_mappings;
extern unsigned int vcuda_compute_timeout_ms;

/*
 * vcuda_wq runs job execution, vcuda_fini_wq queue tear-down (which may
 * wait for jobs, so it must not hold up execution) and vcuda_sched_wq the
 * schedulers' own work items (vcuda_drv.c).
 */
extern struct workqueue_struct *vcuda_wq;
extern struct workqueue_struct *vcuda_fini_wq;
extern struct workqueue_struct *vcuda_sched_wq;

extern const struct drm_driver vcuda_drm_driver;
extern struct platform_driver vcuda_platform_driver;

/**
 * struct vcuda_device - One virtual GPU.
 */
struct vcuda_device {
	/** @drm: The DRM device; its parent is a platform device. */
	struct drm_device drm;

	/** @index: Index among the module's devices. */
	u32 index;

	/** @uuid: Random, generated when the device is created. */
	uuid_t uuid;

	/** @vram_size: Device memory, in bytes. */
	u64 vram_size;

	/** @vram_used: Bytes of device buffer objects. */
	atomic64_t vram_used;

	/** @host_pinned: Bytes of host buffer objects. */
	atomic64_t host_pinned;

	/**
	 * @ctx_lock: Protects @ctx_list, and @compute_mode against changes
	 * while a context is created.
	 */
	struct mutex ctx_lock;

	/** @ctx_list: Live contexts of every file, by &vcuda_ctx.dev_link. */
	struct list_head ctx_list;

	/**
	 * @compute_mode: &enum drm_vcuda_compute_mode, written under
	 * @ctx_lock, read with READ_ONCE().
	 */
	u32 compute_mode;

	/** @faults: Faults and time-outs (Xid events) since load. */
	atomic64_t faults;

	/** @xid_ratelimit: Bounds the Xid lines logged (vcuda_ctx.c). */
	struct ratelimit_state xid_ratelimit;

	/** @sem_polls: Looks at unsatisfied semaphores, for debugfs. */
	atomic64_t sem_polls;

	/** @busy: Busy time per &enum drm_vcuda_engine (vcuda_usage.c). */
	struct vcuda_busy busy[VCUDA_ENGINE_CLASSES];

	/** @copy_engines: The copy engines and their run list. */
	struct vcuda_engines copy_engines;

	/**
	 * @bo_ids: Segment number of the device address space to
	 * &struct vcuda_bo (vcuda_gem.c); no reference held.
	 */
	struct xarray bo_ids;

	/** @next_bo_id: Cursor of the cyclic segment allocation. */
	u32 next_bo_id;

	/** @live: Objects alive, for debugfs and leak checks. */
	struct {
		/** @live.bos: Buffer objects. */
		atomic_t bos;
		/** @live.ctxs: Contexts, until freed. */
		atomic_t ctxs;
		/** @live.queues: Queues, until freed. */
		atomic_t queues;
		/** @live.jobs: Jobs, until freed. */
		atomic_t jobs;
		/** @live.pt_pages: Page-table pages. */
		atomic_t pt_pages;
	} live;

	/** @ipc_lock: Serializes IPC exports. */
	struct mutex ipc_lock;

	/** @ipc: IPC ID to exported &struct vcuda_bo (no reference held). */
	struct xarray ipc;

	/** @next_ipc_id: Cursor of the cyclic IPC ID allocation. */
	u32 next_ipc_id;

	/** @sm_count: Streaming multiprocessors reported. */
	u32 sm_count;

	/** @job_timeout: Job time-out, jiffies, or MAX_SCHEDULE_TIMEOUT. */
	long job_timeout;

	/**
	 * @compute_timeout: Time-out of compute queues' jobs, jiffies, or
	 * MAX_SCHEDULE_TIMEOUT.
	 */
	long compute_timeout;

	/** @info: What DRM_VCUDA_DEV_QUERY_DEVICE_INFO returns. */
	struct drm_vcuda_device_info info;
};

static inline struct vcuda_device *to_vcuda_device(struct drm_device *drm)
{
	return container_of(drm, struct vcuda_device, drm);
}

/**
 * struct vcuda_file - What a DRM file of a vcuda device owns.
 *
 * Context and queue IDs are per file: another file's IDs are unknown
 * (-ENOENT). IDs are allocated cyclically so that a destroyed object's ID
 * stays stale for a long time instead of naming a new object at once.
 */
struct vcuda_file {
	/** @vdev: The device. */
	struct vcuda_device *vdev;

	/**
	 * @lock: Serializes the creation and destruction of contexts and
	 * queues. Lookups take the xarrays' own locks.
	 */
	struct mutex lock;

	/** @ctxs: Context ID to &struct vcuda_ctx, holding a reference. */
	struct xarray ctxs;

	/** @queues: Queue ID to &struct vcuda_queue, holding a reference. */
	struct xarray queues;

	/** @next_ctx_id: Cursor of the cyclic context ID allocation. */
	u32 next_ctx_id;

	/** @next_queue_id: Cursor of the cyclic queue ID allocation. */
	u32 next_queue_id;

	/** @nr_ctxs: Live contexts of the file (``max_contexts``), under @lock. */
	u32 nr_ctxs;

	/** @nr_queues: Live queues of the file (``max_queues``), under @lock. */
	u32 nr_queues;

	/** @usage: Busy time of the file's queues, shared with them. */
	struct vcuda_usage *usage;
};

static inline struct vcuda_file *to_vcuda_file(struct drm_file *file)
{
	return file->driver_priv;
}

void *vcuda_obj_array_copy(const struct drm_vcuda_obj_array *arr,
			   u32 min_count, u32 max_count, size_t elem_size);

/* vcuda_device.c */
int vcuda_vram_charge(struct vcuda_device *vdev, u64 size);
void vcuda_vram_uncharge(struct vcuda_device *vdev, u64 size);
int vcuda_ioctl_dev_query(struct drm_device *drm, void *data,
			  struct drm_file *file);

/* vcuda_sysfs.c */
extern const struct attribute_group *vcuda_sysfs_groups[];

/* vcuda_debugfs.c */
void vcuda_debugfs_init(struct vcuda_device *vdev);

#endif /* _VCUDA_DRV_H_ */
