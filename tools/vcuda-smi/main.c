// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: nvidia-smi for vcuda's virtual GPUs. See the README's
 * "vcuda-smi" section and docs/admin-interface.md for what it reads.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vcuda-smi.h"

typedef int (*smi_report)(const struct smi_opts *o, struct smi_sys *sys);

static const smi_report reports[] = {
	[MODE_VIEW] = smi_view,
	[MODE_LIST] = smi_list,
	[MODE_QUERY] = smi_query,
	[MODE_QUERY_GPU] = smi_query_gpu,
	[MODE_QUERY_APPS] = smi_query_apps,
	[MODE_DMON] = smi_dmon,
	[MODE_PMON] = smi_pmon,
	[MODE_COMPUTE_MODE] = smi_compute_mode,
	[MODE_RESET] = smi_reset,
	[MODE_PERSISTENCE] = smi_persistence,
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Modes that need no device; returns -1 for the others. */
static int help_mode(const struct smi_opts *o)
{
	struct smi_sys sys;
	int ret;

	switch (o->mode) {
	case MODE_HELP:
		smi_help();
		return SMI_OK;
	case MODE_HELP_QUERY_GPU:
		smi_help_query_gpu();
		return SMI_OK;
	case MODE_HELP_QUERY_APPS:
		smi_help_query_apps();
		return SMI_OK;
	case MODE_VERSION:
		ret = smi_sys_load(&sys, NULL);
		if (ret == SMI_OK)
			smi_print_version(&sys);
		smi_sys_free(&sys);
		return ret;
	case MODE_DMON:
	case MODE_PMON:
		if (!o->value)
			return -1;
		(o->mode == MODE_DMON ? smi_help_dmon : smi_help_pmon)();
		return SMI_OK;
	default:
		return -1;
	}
}

/* Errors in the arguments themselves come before any device is read. */
static int check_args(const struct smi_opts *o)
{
	int ret = SMI_OK;

	if (o->mode == MODE_QUERY_GPU)
		ret = smi_check_gpu_fields(o->fields);
	else if (o->mode == MODE_QUERY_APPS)
		ret = smi_check_app_fields(o->fields);
	if (!ret && (o->mode == MODE_QUERY_GPU || o->mode == MODE_QUERY_APPS))
		ret = smi_check_format(o);
	if (!ret && o->display && o->mode == MODE_QUERY && !o->xml)
		ret = smi_check_display(o->display);
	if (!ret && (o->display || o->xml) && o->mode != MODE_QUERY)
		ret = smi_bad_combination();
	return ret;
}

static int report_once(const struct smi_opts *o)
{
	struct smi_sys sys;
	int ret = smi_sys_load(&sys, o->ids);

	if (ret == SMI_OK)
		ret = reports[o->mode](o, &sys);
	smi_sys_free(&sys);
	fflush(stdout);
	return ret;
}

/*
 * -l / -lms: report, wait, until interrupted. NVML stays initialized for
 * the whole loop (each report's own init and shutdown only count), so it
 * reads the devices once rather than at every report.
 */
static int report_loop(const struct smi_opts *o)
{
	bool held = nvmlInit_v2() == NVML_SUCCESS;
	int ret;

	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	do {
		struct timespec ts = {
			.tv_sec = o->loop_ms / 1000,
			.tv_nsec = (long)(o->loop_ms % 1000) * 1000000,
		};

		ret = report_once(o);
		if (ret != SMI_OK)
			break;
		while (!interrupted && nanosleep(&ts, &ts))
			;
	} while (!interrupted);
	if (held)
		nvmlShutdown();
	return ret;
}

int main(int argc, char **argv)
{
	struct smi_opts o;
	int ret = smi_parse_args(argc, argv, &o);

	if (ret)
		return ret;
	ret = help_mode(&o);
	if (ret >= 0)
		return ret;
	ret = check_args(&o);
	if (ret)
		return ret;
	if (o.filename && !freopen(o.filename, "w", stdout)) {
		printf("Failed to open file %s for writing.\n", o.filename);
		return SMI_ERR_UNKNOWN;
	}
	if (o.loop_ms && o.mode <= MODE_QUERY_APPS)
		return report_loop(&o);
	return report_once(&o);
}
