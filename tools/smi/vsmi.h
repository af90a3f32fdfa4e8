/* SPDX-License-Identifier: MIT */
/*
 * vsmi: the queries behind vcuda-smi, kept apart from its output so that
 * an NVML-compatible libnvidia-ml.so.1 can reuse them.
 *
 * Every source is a stable interface of vcuda.ko (docs/admin-interface.md):
 * sysfs attributes of the devices, the device query ioctl of their render
 * nodes, the DRM fdinfo of the processes' files, and libkmod with
 * /sys/module/vcuda for the module itself. Nothing is invented: a value the
 * loaded module does not provide makes its function return -ENOENT, which
 * callers show as "N/A".
 *
 * Functions return 0 or a negative errno. The library is built as a static
 * archive of position-independent code (build/lib/libvsmi.a); it needs
 * -lkmod.
 */
#ifndef VSMI_H
#define VSMI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "vcuda_drm.h"

#define VSMI_PATH_MAX		256
#define VSMI_UUID_LEN		48	/* "GPU-" + 36 + NUL, rounded */
#define VSMI_MAX_NODES		4	/* DRM minors of one device */
#define VSMI_PROC_NAME_MAX	256

/* Where the module's devices are bound (docs/admin-interface.md). */
#define VSMI_DRIVER_DIR		"/sys/bus/platform/drivers/vcuda"
#define VSMI_MODULE_DIR		"/sys/module/vcuda"

/* ---- sysfs attributes (sysfs.c) ---- */

/* Reads DIR/ATTR without its trailing newline. */
int vsmi_attr_read(const char *dir, const char *attr, char *buf, size_t len);
/* Reads DIR/ATTR as an unsigned decimal number. */
int vsmi_attr_u64(const char *dir, const char *attr, uint64_t *val);
/* Writes VALUE to DIR/ATTR. */
int vsmi_attr_write(const char *dir, const char *attr, const char *value);

/* ---- the module (module.c) ---- */

/* Module parameters; a parameter the module lacks reads as -1. */
struct vsmi_module {
	bool loaded;		/* libkmod: initstate "live" */
	int refcnt;		/* libkmod: users of the module, or -1 */
	char version[32];	/* /sys/module/vcuda/version, or "" */
	int64_t num_devices;
	int64_t vram_mb;
	int64_t sm_count;
	int64_t cc;
	int64_t job_timeout_ms;
};

int vsmi_module_state(struct vsmi_module *mod);

/* ---- devices (device.c) ---- */

struct vsmi_device {
	unsigned int index;
	char sysfs[VSMI_PATH_MAX];	/* /sys/bus/platform/devices/vcuda.N */
	char uuid[VSMI_UUID_LEN];	/* "GPU-…", or "" if unknown */
	char render[32];		/* /dev/dri/renderDM, or "" */
	int render_minor;		/* M, or -1 */
	dev_t nodes[VSMI_MAX_NODES];	/* every DRM node: to match fds */
	int nnodes;
	bool have_info;			/* the device query answered */
	struct drm_vcuda_device_info info;
};

/*
 * The module's devices, ordered by index. *devs is malloc'ed (free()).
 * -ENODEV if the module's driver is not registered (module not loaded).
 */
int vsmi_devices(struct vsmi_device **devs, int *count);

/* Static properties. */
int vsmi_name(const struct vsmi_device *dev, char *buf, size_t len);
int vsmi_bus_id(const struct vsmi_device *dev, char *buf, size_t len);
int vsmi_driver_version(const struct vsmi_device *devs, int count,
			const struct vsmi_module *mod, char *buf, size_t len);
/* The CUDA driver API version libcuda reports (cuDriverGetVersion). */
int vsmi_cuda_version(void);

/* ---- dynamic state (state.c) ---- */

struct vsmi_memory {
	uint64_t total;		/* vram_total */
	uint64_t used;		/* vram_used */
	uint64_t host_pinned;	/* host_pinned */
};

int vsmi_memory(const struct vsmi_device *dev, struct vsmi_memory *mem);

/* drm_vcuda_compute_mode values: CUDA's 0, 2, 3. */
int vsmi_compute_mode(const struct vsmi_device *dev, int *mode);
/* "Default", "Exclusive_Process", "Prohibited", as sysfs spells them. */
const char *vsmi_compute_mode_name(int mode);

/* The kernel's own sampling window (utilization_* attributes). */
struct vsmi_util {
	unsigned int compute;	/* percent */
	unsigned int copy;	/* percent */
	unsigned int window_ms;
};

int vsmi_utilization(const struct vsmi_device *dev, struct vsmi_util *util);

/* Busy-time counters, for utilization over an interval of one's own. */
struct vsmi_busy {
	uint64_t compute_ns;
	uint64_t copy_ns;
	uint64_t when_ns;	/* CLOCK_MONOTONIC of the reading */
};

int vsmi_busy(const struct vsmi_device *dev, struct vsmi_busy *busy);
/* Percent of the time between two readings an engine was busy. */
unsigned int vsmi_busy_percent(uint64_t busy0, uint64_t busy1,
			       uint64_t when0, uint64_t when1);

int vsmi_faults(const struct vsmi_device *dev, uint64_t *faults);

uint64_t vsmi_now_ns(void);

/* ---- changes, root only (control.c) ---- */

/* -EPERM/-EACCES for non-root, -EOPNOTSUPP if the module cannot. */
int vsmi_set_compute_mode(const struct vsmi_device *dev, int mode);
int vsmi_reset(const struct vsmi_device *dev);

/* ---- processes (process.c) ---- */

/* One process's use of one device, summed over its DRM clients. */
struct vsmi_process {
	pid_t pid;
	int dev;			/* index into the devices array */
	char name[VSMI_PROC_NAME_MAX];	/* argv[0], or comm */
	bool have_vram;			/* fdinfo has drm-total-vram */
	uint64_t vram;			/* bytes */
	bool have_engines;		/* fdinfo has drm-engine-* */
	uint64_t compute_ns;
	uint64_t copy_ns;
	uint64_t when_ns;
};

/*
 * Every process holding a DRM file of one of DEVS, ordered by device then
 * pid. Processes whose /proc/PID/fd cannot be read (another user's, for a
 * non-root caller) are not seen. *procs is malloc'ed (free()).
 */
int vsmi_processes(const struct vsmi_device *devs, int ndev,
		   struct vsmi_process **procs, int *count);

#endif /* VSMI_H */
