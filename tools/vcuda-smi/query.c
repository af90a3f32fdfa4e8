// SPDX-License-Identifier: MIT
/*
 * vcuda-smi -q [-d TYPES] [-x]: the long report, in text or XML.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vcuda-smi.h"
#include "query.h"

static const struct {
	const char *name;
	int flag;
} display_types[] = {
	{ "MEMORY", D_MEMORY },
	{ "UTILIZATION", D_UTILIZATION },
	{ "ECC", D_ECC },
	{ "TEMPERATURE", D_TEMPERATURE },
	{ "POWER", D_POWER },
	{ "CLOCK", D_CLOCK },
	{ "COMPUTE", D_COMPUTE },
	{ "PIDS", D_PIDS },
	{ "PERFORMANCE", D_PERFORMANCE },
	{ "SUPPORTED_CLOCKS", D_OTHER },
	{ "PAGE_RETIREMENT", D_OTHER },
	{ "ACCOUNTING", D_OTHER },
	{ "ENCODER_STATS", D_OTHER },
	{ "SUPPORTED_GPU_TARGET_TEMP", D_OTHER },
	{ "VOLTAGE", D_OTHER },
	{ "FBC_STATS", D_OTHER },
	{ "ROW_REMAPPER", D_OTHER },
	{ "GSP_FIRMWARE_VERSION", D_OTHER },
	{ "POWER_SMOOTHING", D_OTHER },
	{ "POWER_PROFILES", D_OTHER },
};

/* The -d list as flags; -1 for a name nvidia-smi does not know. */
static int display_flags(const char *display)
{
	char *list, *tok, *save = NULL;
	int flags = 0;
	size_t i;

	if (!display)
		return D_ALL;
	list = strdup(display);
	if (!list)
		return -1;
	for (tok = strtok_r(list, ",", &save); tok && flags >= 0;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(display_types) / sizeof(display_types[0]);
		     i++)
			if (!strcasecmp(tok, display_types[i].name))
				break;
		if (i == sizeof(display_types) / sizeof(display_types[0]))
			flags = -1;
		else
			flags |= display_types[i].flag;
	}
	free(list);
	return flags;
}

int smi_check_display(const char *display)
{
	return display_flags(display) < 0 ? smi_bad_combination() : SMI_OK;
}

static void query_header(struct qout *q, const struct smi_sys *sys)
{
	char ts[64], cuda[16];

	smi_timestamp_long(ts, sizeof(ts));
	smi_cuda_version(cuda, sizeof(cuda));
	if (q->xml) {
		puts("<?xml version=\"1.0\" ?>");
		puts("<!DOCTYPE nvidia_smi_log SYSTEM "
		     "\"nvsmi_device_v13.dtd\">");
		puts("<nvidia_smi_log>");
	} else {
		printf("\n==============%s LOG==============\n\n", SMI_TITLE);
	}
	q_kv(q, "Timestamp", "timestamp", "%s", ts);
	q_kv(q, "Driver Version", "driver_version", "%s", sys->driver_version);
	q_kv(q, "CUDA Version", "cuda_version", "%s", cuda);
	if (!q->xml)
		puts("");
	q_kv(q, "Attached GPUs", "attached_gpus", "%d", sys->ndev);
}

static void query_device_body(struct qout *q, const struct smi_sys *sys,
			      int idx, int flags, bool samples)
{
	const struct vsmi_device *dev = &sys->devs[idx];

	if (flags == D_ALL)
		q_general(q, dev);
	if (flags & D_PERFORMANCE)
		q_performance(q);
	if (flags & D_MEMORY)
		q_memory(q, dev);
	if (flags & D_COMPUTE)
		q_compute(q, dev);
	if (flags & D_UTILIZATION)
		q_utilization(q, dev, samples);
	if (flags & D_ECC)
		q_ecc(q);
	if (flags & D_TEMPERATURE)
		q_temperature(q);
	if (flags & D_POWER)
		q_power(q);
	if (flags & D_CLOCK)
		q_clocks(q, dev);
	if (flags & D_PIDS)
		q_processes(q, sys, idx);
}

static void query_device(struct qout *q, const struct smi_sys *sys, int idx,
			 int flags, bool samples)
{
	char bus[32];

	smi_dev_bus_id(&sys->devs[idx], bus, sizeof(bus));
	if (q->xml)
		printf("\t<gpu id=\"%s\">\n", bus);
	else
		printf("GPU %s\n", bus);
	q->depth++;
	query_device_body(q, sys, idx, flags, samples);
	q->depth--;
	if (q->xml)
		puts("\t</gpu>");
	puts("");
}

int smi_query(const struct smi_opts *o, struct smi_sys *sys)
{
	struct qout q = { .xml = o->xml };
	int flags = o->xml ? D_ALL : display_flags(o->display);
	int i;

	if (flags < 0)
		return smi_bad_combination();
	smi_sys_processes(sys);
	query_header(&q, sys);
	for (i = 0; i < sys->nsel; i++)
		query_device(&q, sys, sys->sel[i], flags,
			     o->display && (flags & D_UTILIZATION));
	if (q.xml)
		puts("</nvidia_smi_log>");
	return SMI_OK;
}
