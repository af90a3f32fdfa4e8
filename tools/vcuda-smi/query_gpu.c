// SPDX-License-Identifier: MIT
/*
 * vcuda-smi --query-gpu=FIELDS --format=csv[,noheader][,nounits]: one CSV
 * row per device. Each property with a value on a virtual GPU has a
 * getter here; every other property nvidia-smi knows prints "[N/A]".
 */
#include <errno.h>
#include <string.h>

#include "fields.h"

struct gpu_ctx {
	const struct smi_sys *sys;
	const struct vsmi_device *dev;
};

typedef int (*gpu_getter)(const struct gpu_ctx *c, char *buf, size_t len);

static int g_timestamp(const struct gpu_ctx *c, char *buf, size_t len)
{
	(void)c;
	smi_timestamp_csv(buf, len);
	return 0;
}

static int g_driver_version(const struct gpu_ctx *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s", c->sys->driver_version);
	return strcmp(buf, NA) ? 0 : -ENOENT;
}

static int g_count(const struct gpu_ctx *c, char *buf, size_t len)
{
	snprintf(buf, len, "%d", c->sys->ndev);
	return 0;
}

static int g_name(const struct gpu_ctx *c, char *buf, size_t len)
{
	return smi_name(c->dev, buf, len);
}

static int g_uuid(const struct gpu_ctx *c, char *buf, size_t len)
{
	return smi_uuid(c->dev, buf, len);
}

static int g_bus_id(const struct gpu_ctx *c, char *buf, size_t len)
{
	return smi_bus_id(c->dev, buf, len);
}

/* One of NVML's PCI fields: 'd'omain, 'b'us or de'v'ice. */
static int g_pci_part(const struct gpu_ctx *c, char *buf, size_t len,
		      char which)
{
	nvmlPciInfo_t pci;
	nvmlReturn_t ret = nvmlDeviceGetPciInfo_v3(smi_handle(c->dev), &pci);

	if (ret)
		return smi_nvml_errno(ret);
	if (which == 'd')
		snprintf(buf, len, "0x%04X", pci.domain);
	else
		snprintf(buf, len, "0x%02X", which == 'b' ? pci.bus : pci.device);
	return 0;
}

static int g_pci_domain(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_pci_part(c, buf, len, 'd');
}

static int g_pci_bus(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_pci_part(c, buf, len, 'b');
}

static int g_pci_device(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_pci_part(c, buf, len, 'v');
}

static int g_index(const struct gpu_ctx *c, char *buf, size_t len)
{
	snprintf(buf, len, "%u", c->dev->index);
	return 0;
}

static int g_const(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "%s", s);
	return 0;
}

static int g_display_attached(const struct gpu_ctx *c, char *buf, size_t len)
{
	(void)c;
	return g_const(buf, len, "No");
}

static int g_display_active(const struct gpu_ctx *c, char *buf, size_t len)
{
	(void)c;
	return g_const(buf, len, "Disabled");
}

static int g_addressing_mode(const struct gpu_ctx *c, char *buf, size_t len)
{
	(void)c;
	return g_const(buf, len, "None");
}

/* memory.*: which of total, reserved, used, free. */
static int g_memory(const struct gpu_ctx *c, char *buf, size_t len, char what)
{
	struct vsmi_memory m;
	uint64_t v;
	int ret = smi_dev_memory(c->dev, &m);

	if (ret)
		return ret;
	v = what == 't' ? m.total : what == 'u' ? m.used :
	    what == 'f' ? m.total - m.used : 0;
	snprintf(buf, len, "%llu", smi_mib(v));
	return 0;
}

static int g_mem_total(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_memory(c, buf, len, 't');
}

static int g_mem_reserved(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_memory(c, buf, len, 'r');
}

static int g_mem_used(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_memory(c, buf, len, 'u');
}

static int g_mem_free(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_memory(c, buf, len, 'f');
}

static int g_compute_mode(const struct gpu_ctx *c, char *buf, size_t len)
{
	const char *mode = smi_compute_mode_str(c->dev);

	return mode ? g_const(buf, len, mode) : -ENOENT;
}

static int g_compute_cap(const struct gpu_ctx *c, char *buf, size_t len)
{
	int major, minor;
	nvmlReturn_t ret = nvmlDeviceGetCudaComputeCapability(smi_handle(c->dev),
							      &major, &minor);

	if (ret)
		return smi_nvml_errno(ret);
	snprintf(buf, len, "%d.%d", major, minor);
	return 0;
}

static int g_util(const struct gpu_ctx *c, char *buf, size_t len, bool gpu)
{
	unsigned int g, m;
	int ret = smi_dev_util(c->dev, &g, &m);

	if (ret)
		return ret;
	snprintf(buf, len, "%u", gpu ? g : m);
	return 0;
}

static int g_util_gpu(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_util(c, buf, len, true);
}

static int g_util_memory(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_util(c, buf, len, false);
}

static int g_clock(const struct gpu_ctx *c, char *buf, size_t len,
		   nvmlClockType_t type)
{
	unsigned int mhz;
	nvmlReturn_t ret = nvmlDeviceGetMaxClockInfo(smi_handle(c->dev), type,
						     &mhz);

	if (ret)
		return smi_nvml_errno(ret);
	snprintf(buf, len, "%u", mhz);
	return 0;
}

static int g_clock_max_sm(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_clock(c, buf, len, NVML_CLOCK_SM);
}

static int g_clock_max_mem(const struct gpu_ctx *c, char *buf, size_t len)
{
	return g_clock(c, buf, len, NVML_CLOCK_MEM);
}

static const struct {
	const char *name;
	gpu_getter get;
} getters[] = {
	{ "timestamp", g_timestamp },
	{ "driver_version", g_driver_version },
	{ "count", g_count },
	{ "name", g_name },
	{ "uuid", g_uuid },
	{ "pci.bus_id", g_bus_id },
	{ "pci.domain", g_pci_domain },
	{ "pci.bus", g_pci_bus },
	{ "pci.device", g_pci_device },
	{ "index", g_index },
	{ "display_attached", g_display_attached },
	{ "display_active", g_display_active },
	{ "addressing_mode", g_addressing_mode },
	{ "memory.total", g_mem_total },
	{ "memory.reserved", g_mem_reserved },
	{ "memory.used", g_mem_used },
	{ "memory.free", g_mem_free },
	{ "compute_mode", g_compute_mode },
	{ "compute_cap", g_compute_cap },
	{ "utilization.gpu", g_util_gpu },
	{ "utilization.memory", g_util_memory },
	{ "clocks.max.graphics", g_clock_max_sm },
	{ "clocks.max.sm", g_clock_max_sm },
	{ "clocks.max.memory", g_clock_max_mem },
};

static int gpu_value(const struct gpu_ctx *c, const char *name, char *buf,
		     size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(getters) / sizeof(getters[0]); i++)
		if (!strcmp(name, getters[i].name))
			return getters[i].get(c, buf, len);
	return -ENOENT;
}

int smi_check_gpu_fields(const char *fields)
{
	struct field_list list;
	int i, ret = SMI_OK;

	if (field_list_split(fields, &list)) {
		field_list_free(&list);
		return SMI_ERR_UNKNOWN;
	}
	for (i = 0; i < list.count && !ret; i++)
		if (!gpu_field_find(list.names[i]))
			ret = field_invalid(list.names[i]);
	field_list_free(&list);
	return ret;
}

static void gpu_header(const struct field_list *list)
{
	int i;

	for (i = 0; i < list->count; i++) {
		const struct gpu_field *f = gpu_field_find(list->names[i]);

		printf("%s%s", i ? ", " : "", f->name);
		if (f->unit)
			printf(" [%s]", f->unit);
	}
	puts("");
}

static void gpu_row(const struct gpu_ctx *c, const struct field_list *list,
		    bool nounits)
{
	int i;

	for (i = 0; i < list->count; i++) {
		const struct gpu_field *f = gpu_field_find(list->names[i]);
		char value[256];
		int ret = gpu_value(c, f->name, value, sizeof(value));

		csv_value(i, f->unit, nounits, ret, value);
	}
	puts("");
}

int smi_query_gpu(const struct smi_opts *o, struct smi_sys *sys)
{
	bool noheader = strstr(o->format, "noheader") != NULL;
	bool nounits = strstr(o->format, "nounits") != NULL;
	struct field_list list;
	int i;

	if (field_list_split(o->fields, &list)) {
		field_list_free(&list);
		return SMI_ERR_UNKNOWN;
	}
	if (!noheader)
		gpu_header(&list);
	for (i = 0; i < sys->nsel; i++) {
		struct gpu_ctx c = { sys, &sys->devs[sys->sel[i]] };

		gpu_row(&c, &list, nounits);
	}
	field_list_free(&list);
	return SMI_OK;
}
