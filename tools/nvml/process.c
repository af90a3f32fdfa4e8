// SPDX-License-Identifier: MIT
/*
 * NVML: the processes using a device (every process holding one of its
 * DRM files, with the device memory its clients' fdinfo reports) and
 * their utilization. A process's utilization is the share of the time
 * since the previous sample that its compute (sm) and copy (mem) queues
 * were busy; the first sample of a process is taken when the library
 * first sees it (nvmlInit, or an earlier query), so the first query after
 * that has nothing to report for it yet.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvml_impl.h"

int vnvml_processes(struct vsmi_process **procs, int *count)
{
	struct vsmi_device devs[VNVML_MAX_DEVICES];
	int i;

	for (i = 0; i < vnvml.count; i++)
		devs[i] = vnvml.devs[i].dev;
	return vsmi_processes(devs, vnvml.count, procs, count);
}

/* The processes on DEVICE: *procs (malloc'ed) holds them first. */
static nvmlReturn_t device_processes(nvmlDevice_t device,
				     struct vsmi_process **procs, int *count)
{
	int i, n = 0;

	if (vnvml_processes(procs, count))
		return NVML_ERROR_UNKNOWN;
	for (i = 0; i < *count; i++)
		if ((*procs)[i].dev == (int)device->index)
			(*procs)[n++] = (*procs)[i];
	*count = n;
	return NVML_SUCCESS;
}

/* Fills INFOS (elements of SIZE bytes, pid and usedGpuMemory first, as
 * every version of nvmlProcessInfo is), or says how many are needed. */
static nvmlReturn_t running(nvmlDevice_t device, unsigned int *infoCount,
			    void *infos, size_t size, bool v2)
{
	struct vsmi_process *procs;
	nvmlReturn_t ret = vnvml_check_device(device);
	int i, n;

	if (ret)
		return ret;
	if (!infoCount || (*infoCount && !infos))
		return NVML_ERROR_INVALID_ARGUMENT;
	ret = device_processes(device, &procs, &n);
	if (ret)
		return ret;
	if ((unsigned int)n > *infoCount) {
		*infoCount = (unsigned int)n;
		free(procs);
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	for (i = 0; i < n; i++) {
		nvmlProcessInfo_t p = {
			.pid = (unsigned int)procs[i].pid,
			.usedGpuMemory = procs[i].have_vram ?
				procs[i].vram :
				(unsigned long long)NVML_VALUE_NOT_AVAILABLE,
			.gpuInstanceId = 0xFFFFFFFF,
			.computeInstanceId = 0xFFFFFFFF,
		};

		if (v2)
			memcpy((char *)infos + i * size, &p, size);
		else
			memcpy((char *)infos + i * size, &p,
			       sizeof(nvmlProcessInfo_v1_t));
	}
	*infoCount = (unsigned int)n;
	free(procs);
	return NVML_SUCCESS;
}

NVML_API nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device,
					unsigned int *infoCount,
					nvmlProcessInfo_t *infos)
{
	return running(device, infoCount, infos, sizeof(*infos), true);
}

NVML_API nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device,
					unsigned int *infoCount,
					nvmlProcessInfo_v2_t *infos)
{
	return running(device, infoCount, infos, sizeof(*infos), true);
}

NVML_API nvmlReturn_t
nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t device,
				     unsigned int *infoCount,
				     nvmlProcessInfo_v1_t *infos)
{
	return running(device, infoCount, infos, sizeof(*infos), false);
}

/* No process draws on a virtual GPU, and there is no MPS server. */
static nvmlReturn_t none_running(nvmlDevice_t device, unsigned int *infoCount)
{
	nvmlReturn_t ret = vnvml_check_device(device);

	if (ret)
		return ret;
	if (!infoCount)
		return NVML_ERROR_INVALID_ARGUMENT;
	*infoCount = 0;
	return NVML_SUCCESS;
}

#define NONE_RUNNING(name, type)					\
	NVML_API nvmlReturn_t name(nvmlDevice_t device,			\
				   unsigned int *infoCount, type *infos)	\
	{								\
		(void)infos;						\
		return none_running(device, infoCount);			\
	}

NONE_RUNNING(nvmlDeviceGetGraphicsRunningProcesses_v3, nvmlProcessInfo_t)
NONE_RUNNING(nvmlDeviceGetGraphicsRunningProcesses_v2, nvmlProcessInfo_v2_t)
NONE_RUNNING(nvmlDeviceGetGraphicsRunningProcesses, nvmlProcessInfo_v1_t)
NONE_RUNNING(nvmlDeviceGetMPSComputeRunningProcesses_v3, nvmlProcessInfo_t)
NONE_RUNNING(nvmlDeviceGetMPSComputeRunningProcesses_v2, nvmlProcessInfo_v2_t)
NONE_RUNNING(nvmlDeviceGetMPSComputeRunningProcesses, nvmlProcessInfo_v1_t)

/* ---- utilization samples ---- */

#define MAX_SEEN 256

/* The last reading of each process the library has seen. */
static struct seen {
	pid_t pid;
	int dev;
	uint64_t compute_ns, copy_ns, when_ns;
} seen[MAX_SEEN];
static int nseen;
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

/* P's reading; a new process takes a free slot, else the stalest one
 * (a process that has exited is read no more). */
static struct seen *seen_find(const struct vsmi_process *p)
{
	struct seen *s;
	int i, stalest = 0;

	for (i = 0; i < nseen; i++) {
		if (seen[i].pid == p->pid && seen[i].dev == p->dev)
			return &seen[i];
		if (seen[i].when_ns < seen[stalest].when_ns)
			stalest = i;
	}
	s = nseen < MAX_SEEN ? &seen[nseen++] : &seen[stalest];
	*s = (struct seen){ .pid = p->pid, .dev = p->dev };
	return s;
}

static unsigned long long realtime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000ull +
	       (unsigned long long)ts.tv_nsec / 1000;
}

/* The sample of P since its last reading, which P's reading replaces. */
static bool sample(const struct vsmi_process *p, unsigned long long now_us,
		   nvmlProcessUtilizationSample_t *out)
{
	struct seen *s;
	bool have;

	if (!p->have_engines)
		return false;
	s = seen_find(p);
	have = s->when_ns && s->when_ns < p->when_ns;
	if (have)
		*out = (nvmlProcessUtilizationSample_t){
			.pid = (unsigned int)p->pid,
			.timeStamp = now_us,
			.smUtil = vsmi_busy_percent(s->compute_ns, p->compute_ns,
						    s->when_ns, p->when_ns),
			.memUtil = vsmi_busy_percent(s->copy_ns, p->copy_ns,
						     s->when_ns, p->when_ns),
		};
	s->compute_ns = p->compute_ns;
	s->copy_ns = p->copy_ns;
	s->when_ns = p->when_ns;
	return have;
}

/*
 * With utilization NULL, says in *count how many samples there can be
 * (INSUFFICIENT_SIZE, as NVIDIA's NVML answers that question) and reads
 * nothing; otherwise takes a sample of every process, NOT_FOUND if none
 * has one newer than lastSeenTimeStamp.
 */
NVML_API nvmlReturn_t
nvmlDeviceGetProcessUtilization(nvmlDevice_t device,
				nvmlProcessUtilizationSample_t *utilization,
				unsigned int *count,
				unsigned long long lastSeenTimeStamp)
{
	unsigned long long now_us = realtime_us();
	struct vsmi_process *procs;
	nvmlReturn_t ret = vnvml_check_device(device);
	unsigned int out = 0;
	int i, n;

	if (ret)
		return ret;
	if (!count)
		return NVML_ERROR_INVALID_ARGUMENT;
	ret = device_processes(device, &procs, &n);
	if (ret)
		return ret;
	if (!utilization || *count < (unsigned int)n) {
		*count = (unsigned int)(n ? n : 1);
		free(procs);
		return NVML_ERROR_INSUFFICIENT_SIZE;
	}
	pthread_mutex_lock(&seen_lock);
	for (i = 0; i < n; i++)
		if (sample(&procs[i], now_us, &utilization[out]) &&
		    now_us > lastSeenTimeStamp)
			out++;
	pthread_mutex_unlock(&seen_lock);
	free(procs);
	*count = out;
	return out ? NVML_SUCCESS : NVML_ERROR_NOT_FOUND;
}

/* A first reading of every process, so that the first query has samples. */
void vnvml_processes_baseline(void)
{
	nvmlProcessUtilizationSample_t dummy;
	struct vsmi_process *procs;
	int i, n;

	if (vnvml_processes(&procs, &n))
		return;
	pthread_mutex_lock(&seen_lock);
	for (i = 0; i < n; i++)
		sample(&procs[i], 0, &dummy);
	pthread_mutex_unlock(&seen_lock);
	free(procs);
}
