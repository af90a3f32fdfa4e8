// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: reading the system once per report, and -i's choice of
 * devices (indexes, UUIDs or PCI bus ids, comma-separated). The devices'
 * values and processes are NVML's; the module's state and the devices'
 * sysfs directories (for what NVML has no call for) are vsmi's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vcuda-smi.h"

static int driver_failed(void)
{
	printf("%s has failed because it couldn't communicate with the vcuda "
	       "driver. Make sure that the latest vcuda driver is installed "
	       "and running.\n\n", SMI_TITLE);
	return SMI_ERR_DRIVER;
}

static int no_devices(void)
{
	printf("No devices were found\n");
	return SMI_ERR_NOT_FOUND;
}

/* Whether ID names the device: its index, its UUID, or its bus id. */
static bool id_matches(const struct vsmi_device *dev, const char *id)
{
	char bus[32];
	char *end;
	unsigned long n = strtoul(id, &end, 10);

	if (*id && !*end)
		return n == dev->index;
	if (dev->uuid[0] && (!strcasecmp(id, dev->uuid) ||
			     !strcasecmp(id, dev->uuid + 4)))
		return true;
	if (smi_bus_id(dev, bus, sizeof(bus)))
		return false;
	/* 00000000:80:00.0, or the short 0000:80:00.0 of older tools */
	return !strcasecmp(id, bus) || (strlen(id) == 12 &&
					!strcasecmp(id, bus + 4));
}

static int select_one(struct smi_sys *sys, const char *id)
{
	int i;

	for (i = 0; i < sys->ndev; i++) {
		if (!id_matches(&sys->devs[i], id))
			continue;
		sys->sel[sys->nsel++] = i;
		return 0;
	}
	return -ENODEV;
}

static int by_value(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Devices in index order, each once, whatever order -i named them in. */
static void sort_unique(struct smi_sys *sys)
{
	int i, n = 0;

	qsort(sys->sel, (size_t)sys->nsel, sizeof(*sys->sel), by_value);
	for (i = 0; i < sys->nsel; i++)
		if (!n || sys->sel[n - 1] != sys->sel[i])
			sys->sel[n++] = sys->sel[i];
	sys->nsel = n;
}

static int select_devices(struct smi_sys *sys, const char *ids)
{
	char *list, *tok, *save = NULL;
	int i, ret = 0;

	sys->sel = calloc((size_t)sys->ndev + 1, sizeof(*sys->sel));
	if (!sys->sel)
		return -ENOMEM;
	if (!ids) {
		for (i = 0; i < sys->ndev; i++)
			sys->sel[sys->nsel++] = i;
		return 0;
	}
	list = strdup(ids);
	if (!list)
		return -ENOMEM;
	for (tok = strtok_r(list, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sys->nsel == sys->ndev)
			sort_unique(sys);
		if (sys->nsel < sys->ndev)
			ret = select_one(sys, tok);
	}
	free(list);
	if (ret || !sys->nsel)
		return -ENODEV;
	sort_unique(sys);
	return 0;
}

int smi_sys_load(struct smi_sys *sys, const char *ids)
{
	memset(sys, 0, sizeof(*sys));
	if (vsmi_module_state(&sys->mod) || !sys->mod.loaded ||
	    vsmi_devices(&sys->devs, &sys->ndev) || nvmlInit_v2())
		return driver_failed();
	sys->nvml = true;
	if (!sys->ndev || select_devices(sys, ids))
		return no_devices();
	if (nvmlSystemGetDriverVersion(sys->driver_version,
				       sizeof(sys->driver_version)))
		strcpy(sys->driver_version, NA);
	return SMI_OK;
}

bool smi_proc_selected(const struct smi_sys *sys, const struct vsmi_process *p)
{
	int i;

	for (i = 0; i < sys->nsel; i++)
		if (sys->sel[i] == p->dev)
			return true;
	return false;
}

/* Appends DEV's NVML compute processes (pid, name, memory) to sys->procs. */
static int device_processes(struct smi_sys *sys, int dev)
{
	nvmlDevice_t h = smi_handle(&sys->devs[dev]);
	nvmlProcessInfo_t *infos = NULL;
	struct vsmi_process *more;
	unsigned int n = 0, i;
	nvmlReturn_t ret;

	ret = nvmlDeviceGetComputeRunningProcesses_v3(h, &n, NULL);
	while (ret == NVML_ERROR_INSUFFICIENT_SIZE) {
		free(infos);
		n += 4;		/* room for processes starting meanwhile */
		infos = calloc(n, sizeof(*infos));
		if (!infos)
			return -ENOMEM;
		ret = nvmlDeviceGetComputeRunningProcesses_v3(h, &n, infos);
	}
	if (ret || !n) {
		free(infos);
		return smi_nvml_errno(ret);
	}
	more = realloc(sys->procs, sizeof(*more) * (size_t)(sys->nproc + (int)n));
	if (!more) {
		free(infos);
		return -ENOMEM;
	}
	sys->procs = more;
	for (i = 0; i < n; i++) {
		struct vsmi_process *p = &sys->procs[sys->nproc++];

		memset(p, 0, sizeof(*p));
		p->pid = (pid_t)infos[i].pid;
		p->dev = dev;
		p->have_vram = infos[i].usedGpuMemory !=
			       (unsigned long long)NVML_VALUE_NOT_AVAILABLE;
		p->vram = p->have_vram ? infos[i].usedGpuMemory : 0;
		if (nvmlSystemGetProcessName(infos[i].pid, p->name,
					     sizeof(p->name)))
			strcpy(p->name, NA);
	}
	free(infos);
	return 0;
}

/* Every device's compute processes, as NVML lists them. */
int smi_sys_processes(struct smi_sys *sys)
{
	int i, ret = 0;

	free(sys->procs);
	sys->procs = NULL;
	sys->nproc = 0;
	for (i = 0; i < sys->ndev && !ret; i++)
		ret = device_processes(sys, i);
	return ret;
}

void smi_sys_free(struct smi_sys *sys)
{
	if (sys->nvml)
		nvmlShutdown();
	free(sys->devs);
	free(sys->sel);
	free(sys->procs);
	memset(sys, 0, sizeof(*sys));
}
