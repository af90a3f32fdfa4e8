// SPDX-License-Identifier: MIT
/*
 * vcuda-smi dmon / pmon: one row per device (or process) every -d seconds,
 * -c times. Utilization is measured over each interval from the busy-time
 * counters (sysfs busy_*_ns per device, fdinfo drm-engine-* per process):
 * "sm" is the compute engine, "mem" the copy engines. What a virtual GPU
 * has not (power, temperatures, clocks, video engines) is "-".
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vcuda-smi.h"

static void sleep_s(unsigned int s)
{
	struct timespec ts = { .tv_sec = s };

	while (nanosleep(&ts, &ts))
		;
}

/* ---- dmon ---- */

static void dmon_row(const struct vsmi_device *dev,
		     const struct vsmi_busy *b0, const struct vsmi_busy *b1,
		     bool have_busy)
{
	char sm[8] = "-", mem[8] = "-";
	unsigned int g, m;

	if (have_busy) {
		snprintf(sm, sizeof(sm), "%u",
			 vsmi_busy_percent(b0->compute_ns, b1->compute_ns,
					   b0->when_ns, b1->when_ns));
		snprintf(mem, sizeof(mem), "%u",
			 vsmi_busy_percent(b0->copy_ns, b1->copy_ns,
					   b0->when_ns, b1->when_ns));
	} else if (!smi_dev_util(dev, &g, &m)) {
		snprintf(sm, sizeof(sm), "%u", g);
		snprintf(mem, sizeof(mem), "%u", m);
	}
	printf("%5u %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s \n",
	       dev->index, "-", "-", "-", sm, mem, "-", "-", "-", "-", "-",
	       "-");
}

int smi_dmon(const struct smi_opts *o, struct smi_sys *sys)
{
	struct vsmi_busy *b0 = calloc((size_t)sys->nsel, sizeof(*b0));
	struct vsmi_busy *b1 = calloc((size_t)sys->nsel, sizeof(*b1));
	bool *have = calloc((size_t)sys->nsel, sizeof(*have));
	long n;
	int i;

	if (!b0 || !b1 || !have)
		return SMI_ERR_UNKNOWN;
	puts("# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg  "
	     "  ofa   mclk   pclk ");
	puts("# Idx      W      C      C      %      %      %      %      %  "
	     "    %    MHz    MHz ");
	fflush(stdout);
	for (i = 0; i < sys->nsel; i++)
		have[i] = !vsmi_busy(&sys->devs[sys->sel[i]], &b0[i]);
	for (n = 0; o->count < 0 || n < o->count; n++) {
		sleep_s(o->delay_s);
		for (i = 0; i < sys->nsel; i++) {
			have[i] &= !vsmi_busy(&sys->devs[sys->sel[i]], &b1[i]);
			dmon_row(&sys->devs[sys->sel[i]], &b0[i], &b1[i],
				 have[i]);
			b0[i] = b1[i];
		}
		fflush(stdout);
	}
	free(b0);
	free(b1);
	free(have);
	return SMI_OK;
}

/* ---- pmon ---- */

static const struct vsmi_process *
proc_find(const struct vsmi_process *procs, int n, pid_t pid, int dev)
{
	int i;

	for (i = 0; i < n; i++)
		if (procs[i].pid == pid && procs[i].dev == dev)
			return &procs[i];
	return NULL;
}

static void pmon_row(const struct vsmi_device *dev,
		     const struct vsmi_process *p0,
		     const struct vsmi_process *p1)
{
	char pid[16] = "-", type[4] = "-", sm[8] = "-", mem[8] = "-";
	const char *cmd = "-", *slash;

	if (p1) {
		snprintf(pid, sizeof(pid), "%d", (int)p1->pid);
		strcpy(type, "C");
		slash = strrchr(p1->name, '/');
		cmd = slash ? slash + 1 : p1->name;
	}
	if (p0 && p1 && p1->have_engines) {
		snprintf(sm, sizeof(sm), "%u",
			 vsmi_busy_percent(p0->compute_ns, p1->compute_ns,
					   p0->when_ns, p1->when_ns));
		snprintf(mem, sizeof(mem), "%u",
			 vsmi_busy_percent(p0->copy_ns, p1->copy_ns,
					   p0->when_ns, p1->when_ns));
	}
	printf("%5u %10s %5s %6s %6s %6s %6s %6s %6s    %-15.15s\n",
	       dev->index, pid, type, sm, mem, "-", "-", "-", "-", cmd);
}

static void pmon_device(const struct smi_sys *sys, int dev,
			const struct vsmi_process *prev, int nprev)
{
	int i, shown = 0;

	for (i = 0; i < sys->nproc; i++) {
		const struct vsmi_process *p = &sys->procs[i];

		if (p->dev != dev)
			continue;
		pmon_row(&sys->devs[dev], proc_find(prev, nprev, p->pid, dev),
			 p);
		shown++;
	}
	if (!shown)
		pmon_row(&sys->devs[dev], NULL, NULL);
}

int smi_pmon(const struct smi_opts *o, struct smi_sys *sys)
{
	struct vsmi_process *prev;
	int nprev, i;
	long n;

	puts("# gpu         pid   type     sm    mem    enc    dec    jpg    "
	     "ofa    command ");
	puts("# Idx           #    C/G      %      %      %      %      %    "
	     "  %    name ");
	fflush(stdout);
	smi_sys_processes_busy(sys);
	for (n = 0; o->count < 0 || n < o->count; n++) {
		prev = sys->procs;
		nprev = sys->nproc;
		sys->procs = NULL;
		sleep_s(o->delay_s);
		smi_sys_processes_busy(sys);
		for (i = 0; i < sys->nsel; i++)
			pmon_device(sys, sys->sel[i], prev, nprev);
		free(prev);
		fflush(stdout);
	}
	return SMI_OK;
}
