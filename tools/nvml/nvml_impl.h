/* SPDX-License-Identifier: MIT */
/*
 * vcuda's libnvidia-ml.so.1: NVIDIA's NVML interface (nvml.h, included
 * as published) over the vsmi queries of tools/smi, which read only the
 * module's public interface (docs/admin-interface.md). What a virtual GPU
 * does not have is NVML_ERROR_NOT_SUPPORTED: every entry point of nvml.h
 * this library does not define is generated as such a stub at build time
 * (gen-stubs.py).
 *
 * Built with NVML_NO_UNVERSIONED_FUNC_DEFS so that the older versions of
 * an entry point (nvmlInit, nvmlDeviceGetCount, ...) are functions of
 * their own, as in NVIDIA's library, and not macros for the newest one.
 */
#ifndef NVML_IMPL_H
#define NVML_IMPL_H

#define NVML_NO_UNVERSIONED_FUNC_DEFS
#include <nvml.h>

#include <stdbool.h>

#include "vsmi.h"

/* The library is built with -fvisibility=hidden; NVML's API is exported. */
#define NVML_API __attribute__((visibility("default")))

#define VNVML_MAX_DEVICES	64

/* What an nvmlDevice_t points to: one slot of vnvml.devs, stable for as
 * long as the library is loaded, so a handle survives shutdown and init. */
struct nvmlDevice_st {
	struct vsmi_device dev;
	unsigned int index;	/* NVML's index: position in index order */
};

struct vnvml_state {
	int count;
	struct nvmlDevice_st devs[VNVML_MAX_DEVICES];
	char driver_version[32];
};

extern struct vnvml_state vnvml;

/* NVML_ERROR_UNINITIALIZED unless nvmlInit has been called. */
nvmlReturn_t vnvml_ready(void);
/* vnvml_ready(), then NVML_ERROR_INVALID_ARGUMENT unless D is a handle. */
nvmlReturn_t vnvml_check_device(nvmlDevice_t d);
/* A negative errno of vsmi as NVML's return code. */
nvmlReturn_t vnvml_from_errno(int err);
/* Copies S to BUF of LEN bytes, NUL included; INSUFFICIENT_SIZE if short. */
nvmlReturn_t vnvml_copy_string(char *buf, unsigned int len, const char *s);

/* The devices' processes (process.c), for the process and event queries. */
int vnvml_processes(struct vsmi_process **procs, int *count);
/* Takes each process's first utilization reading (at nvmlInit). */
void vnvml_processes_baseline(void);

#endif /* NVML_IMPL_H */
