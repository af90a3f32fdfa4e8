// SPDX-License-Identifier: MIT
/*
 * vcuda-smi dmon / pmon: one row per device (or process) every -d seconds,
 * -c times. Utilization is measured over each interval: dmon's from the
 * devices' busy-time counters (sysfs busy_*_ns, which NVML has no call
 * for), pmon's from NVML's process utilization samples (fdinfo's
 * drm-engine-*): "sm" is the compute engine, "mem" the copy engines. What a virtual GPU
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

/*
 * NVML's samples of DEV's processes since its previous reading (taken at
 * the start, then at every row), as nvidia-smi's pmon reads them. *n is 0
 * when there are none. Freed by the caller.
 */
static nvmlProcessUtilizationSample_t *
pmon_samples(const struct vsmi_device *dev, unsigned int *n)
{
	nvmlProcessUtilizationSample_t *s = NULL;
	nvmlDevice_t h = smi_handle(dev);

	*n = 0;
	if (nvmlDeviceGetProcessUtilization(h, NULL, n, 0) !=
	    NVML_ERROR_INSUFFICIENT_SIZE)
		return NULL;
	*n += 4;	/* room for processes starting meanwhile */
	s = calloc(*n, sizeof(*s));
	if (!s || nvmlDeviceGetProcessUtilization(h, s, n, 0))
		*n = 0;
	return s;
}

static void pmon_row(const struct vsmi_device *dev,
		     const struct vsmi_process *p,
		     const nvmlProcessUtilizationSample_t *sample)
{
	char pid[16] = "-", type[4] = "-", sm[8] = "-", mem[8] = "-";
	const char *cmd = "-", *slash;

	if (p) {
		snprintf(pid, sizeof(pid), "%d", (int)p->pid);
		strcpy(type, "C");
		slash = strrchr(p->name, '/');
		cmd = slash ? slash + 1 : p->name;
	}
	if (sample) {
		snprintf(sm, sizeof(sm), "%u", sample->smUtil);
		snprintf(mem, sizeof(mem), "%u", sample->memUtil);
	}
	printf("%5u %10s %5s %6s %6s %6s %6s %6s %6s    %-15.15s\n",
	       dev->index, pid, type, sm, mem, "-", "-", "-", "-", cmd);
}

static void pmon_device(const struct smi_sys *sys, int dev)
{
	unsigned int nsamples, j;
	nvmlProcessUtilizationSample_t *samples =
		pmon_samples(&sys->devs[dev], &nsamples);
	int i, shown = 0;

	for (i = 0; i < sys->nproc; i++) {
		const struct vsmi_process *p = &sys->procs[i];
		const nvmlProcessUtilizationSample_t *sample = NULL;

		if (p->dev != dev)
			continue;
		for (j = 0; j < nsamples; j++)
			if (samples[j].pid == (unsigned int)p->pid)
				sample = &samples[j];
		pmon_row(&sys->devs[dev], p, sample);
		shown++;
	}
	if (!shown)
		pmon_row(&sys->devs[dev], NULL, NULL);
	free(samples);
}

int smi_pmon(const struct smi_opts *o, struct smi_sys *sys)
{
	unsigned int dummy;
	int i;
	long n;

	puts("# gpu         pid   type     sm    mem    enc    dec    jpg    "
	     "ofa    command ");
	puts("# Idx           #    C/G      %      %      %      %      %    "
	     "  %    name ");
	fflush(stdout);
	for (i = 0; i < sys->nsel; i++)	/* the intervals start now */
		free(pmon_samples(&sys->devs[sys->sel[i]], &dummy));
	for (n = 0; o->count < 0 || n < o->count; n++) {
		sleep_s(o->delay_s);
		smi_sys_processes(sys);
		for (i = 0; i < sys->nsel; i++)
			pmon_device(sys, sys->sel[i]);
		fflush(stdout);
	}
	return SMI_OK;
}
