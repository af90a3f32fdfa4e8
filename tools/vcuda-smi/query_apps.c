// SPDX-License-Identifier: MIT
/*
 * vcuda-smi --query-compute-apps=FIELDS --format=csv[,...]: one CSV row
 * per process using a selected device.
 */
#include <errno.h>
#include <string.h>

#include "fields.h"

static const struct {
	const char *name;
	const char *alias;
	const char *unit;
} app_fields[] = {
	{ "timestamp", NULL, NULL },
	{ "gpu_name", NULL, NULL },
	{ "gpu_bus_id", NULL, NULL },
	{ "gpu_serial", NULL, NULL },
	{ "gpu_uuid", NULL, NULL },
	{ "pid", NULL, NULL },
	{ "process_name", "name", NULL },
	{ "used_gpu_memory", "used_memory", "MiB" },
};

#define N_APP_FIELDS ((int)(sizeof(app_fields) / sizeof(app_fields[0])))

static int app_field_find(const char *name)
{
	int i;

	for (i = 0; i < N_APP_FIELDS; i++)
		if (!strcmp(name, app_fields[i].name) ||
		    (app_fields[i].alias && !strcmp(name, app_fields[i].alias)))
			return i;
	return -1;
}

int smi_check_app_fields(const char *fields)
{
	struct field_list list;
	int i, ret = SMI_OK;

	if (field_list_split(fields, &list)) {
		field_list_free(&list);
		return SMI_ERR_UNKNOWN;
	}
	for (i = 0; i < list.count && !ret; i++)
		if (app_field_find(list.names[i]) < 0)
			ret = field_invalid(list.names[i]);
	field_list_free(&list);
	return ret;
}

static int app_value(const struct smi_sys *sys, const struct vsmi_process *p,
		     int field, char *buf, size_t len)
{
	const struct vsmi_device *dev = &sys->devs[p->dev];

	switch (field) {
	case 0:
		smi_timestamp_csv(buf, len);
		return 0;
	case 1:
		return smi_name(dev, buf, len);
	case 2:
		return smi_bus_id(dev, buf, len);
	case 4:
		return smi_uuid(dev, buf, len);
	case 5:
		snprintf(buf, len, "%d", (int)p->pid);
		return 0;
	case 6:
		snprintf(buf, len, "%s", p->name);
		return 0;
	case 7:
		if (!p->have_vram)
			return -ENOENT;
		snprintf(buf, len, "%llu", smi_mib(p->vram));
		return 0;
	}
	return -ENOENT;
}

static void app_header(const struct field_list *list)
{
	int i;

	for (i = 0; i < list->count; i++) {
		int f = app_field_find(list->names[i]);

		printf("%s%s", i ? ", " : "", app_fields[f].name);
		if (app_fields[f].unit)
			printf(" [%s]", app_fields[f].unit);
	}
	puts("");
}

static void app_row(const struct smi_sys *sys, const struct vsmi_process *p,
		    const struct field_list *list, bool nounits)
{
	int i;

	for (i = 0; i < list->count; i++) {
		int f = app_field_find(list->names[i]);
		char value[VSMI_PROC_NAME_MAX + 16];
		int ret = app_value(sys, p, f, value, sizeof(value));

		csv_value(i, app_fields[f].unit, nounits, ret, value);
	}
	puts("");
}

int smi_query_apps(const struct smi_opts *o, struct smi_sys *sys)
{
	bool noheader = strstr(o->format, "noheader") != NULL;
	bool nounits = strstr(o->format, "nounits") != NULL;
	struct field_list list;
	int i;

	if (field_list_split(o->fields, &list)) {
		field_list_free(&list);
		return SMI_ERR_UNKNOWN;
	}
	smi_sys_processes(sys);
	if (!noheader)
		app_header(&list);
	for (i = 0; i < sys->nproc; i++)
		if (smi_proc_selected(sys, &sys->procs[i]))
			app_row(sys, &sys->procs[i], &list, nounits);
	field_list_free(&list);
	return SMI_OK;
}
