// SPDX-License-Identifier: MIT
/*
 * vcuda-smi -q: the sections of one device, in nvidia-smi's order and
 * names. What a virtual GPU has not (fans, power, ECC, MIG, clocks of its
 * own) is N/A.
 */
#include <string.h>

#include "vcuda-smi.h"
#include "query.h"

static void na_pair(struct qout *q, const char *text, const char *tag,
		    const char *cur_tag, const char *pend_tag)
{
	q_section(q, text, tag);
	q_na(q, "Current", cur_tag);
	q_na(q, "Pending", pend_tag);
	q_end(q, tag);
}

static void na_list(struct qout *q, const char *text, const char *tag,
		    const char *const *items)
{
	q_section(q, text, tag);
	for (; items[0]; items += 2)
		q_na(q, items[0], items[1]);
	q_end(q, tag);
}

static void q_identity(struct qout *q, const struct vsmi_device *dev)
{
	char name[64];

	smi_dev_name(dev, name, sizeof(name));
	q_kv(q, "Product Name", "product_name", "%s", name);
	q_na(q, "Product Brand", "product_brand");
	q_na(q, "Product Architecture", "product_architecture");
	q_na(q, "Display Mode", "display_mode");
	q_kv(q, "Display Attached", "display_attached", "No");
	q_kv(q, "Display Active", "display_active", "Disabled");
	q_na(q, "Persistence Mode", "persistence_mode");
	q_kv(q, "Addressing Mode", "addressing_mode", "None");
	na_pair(q, "MIG Mode", "mig_mode", "current_mig", "pending_mig");
}

static void q_board(struct qout *q, const struct vsmi_device *dev)
{
	char uuid[NVML_DEVICE_UUID_V2_BUFFER_SIZE];
	unsigned int minor;

	q_na(q, "Accounting Mode", "accounting_mode");
	q_na(q, "Accounting Mode Buffer Size", "accounting_mode_buffer_size");
	na_pair(q, "Driver Model", "driver_model", "current_dm", "pending_dm");
	q_na(q, "Serial Number", "serial");
	if (smi_uuid(dev, uuid, sizeof(uuid)))
		q_na(q, "GPU UUID", "uuid");
	else
		q_kv(q, "GPU UUID", "uuid", "%s", uuid);
	q_na(q, "GPU PDI", "pdi");
	if (!nvmlDeviceGetMinorNumber(smi_handle(dev), &minor))
		q_kv(q, "Minor Number", "minor_number", "%u", minor);
	else
		q_na(q, "Minor Number", "minor_number");
	q_na(q, "VBIOS Version", "vbios_version");
	q_kv(q, "MultiGPU Board", "multigpu_board", "No");
	q_na(q, "Board ID", "board_id");
	q_na(q, "Board Part Number", "board_part_number");
	q_na(q, "GPU Part Number", "gpu_part_number");
	na_pair(q, "GPU Operation Mode", "gpu_operation_mode", "current_gom",
		"pending_gom");
	q_na(q, "GPU Recovery Action", "gpu_recovery_action");
}

/* The module's own counter of faults and time-outs (Xid events). */
static void q_faults(struct qout *q, const struct vsmi_device *dev)
{
	uint64_t faults;

	if (vsmi_faults(dev, &faults))
		q_na(q, "Xid Events", "xid_events");
	else
		q_kv(q, "Xid Events", "xid_events", "%llu",
		     (unsigned long long)faults);
}

static void q_pci(struct qout *q, const struct vsmi_device *dev)
{
	char bus[32];
	nvmlPciInfo_t in;

	q_section(q, "PCI", "pci");
	if (!nvmlDeviceGetPciInfo_v3(smi_handle(dev), &in)) {
		q_kv(q, "Bus", "pci_bus", q->xml ? "%02X" : "0x%02X", in.bus);
		q_kv(q, "Device", "pci_device", q->xml ? "%02X" : "0x%02X",
		     in.device);
		q_kv(q, "Domain", "pci_domain", q->xml ? "%04X" : "0x%04X",
		     in.domain);
	} else {
		q_na(q, "Bus", "pci_bus");
		q_na(q, "Device", "pci_device");
		q_na(q, "Domain", "pci_domain");
	}
	q_na(q, "Device Id", "pci_device_id");
	smi_dev_bus_id(dev, bus, sizeof(bus));
	q_kv(q, "Bus Id", "pci_bus_id", "%s", bus);
	q_na(q, "Sub System Id", "pci_sub_system_id");
	q_end(q, "pci");
}

void q_general(struct qout *q, const struct vsmi_device *dev)
{
	q_identity(q, dev);
	q_board(q, dev);
	q_faults(q, dev);
	q_pci(q, dev);
	q_na(q, "Fan Speed", "fan_speed");
}

void q_performance(struct qout *q)
{
	q_na(q, "Performance State", "performance_state");
	q_na(q, "Clocks Event Reasons", "clocks_event_reasons");
}

static void q_mem_block(struct qout *q, const char *text, const char *tag,
			const struct vsmi_memory *m, bool reserved)
{
	q_section(q, text, tag);
	if (!m) {
		q_na(q, "Total", "total");
		if (reserved)
			q_na(q, "Reserved", "reserved");
		q_na(q, "Used", "used");
		q_na(q, "Free", "free");
	} else {
		q_kv(q, "Total", "total", "%llu MiB", smi_mib(m->total));
		if (reserved)
			q_kv(q, "Reserved", "reserved", "0 MiB");
		q_kv(q, "Used", "used", "%llu MiB", smi_mib(m->used));
		q_kv(q, "Free", "free", "%llu MiB",
		     smi_mib(m->total - m->used));
	}
	q_end(q, tag);
}

void q_memory(struct qout *q, const struct vsmi_device *dev)
{
	struct vsmi_memory m;
	bool ok = !smi_dev_memory(dev, &m);

	q_mem_block(q, "FB Memory Usage", "fb_memory_usage", ok ? &m : NULL,
		    true);
	q_mem_block(q, "BAR1 Memory Usage", "bar1_memory_usage", NULL, false);
}

void q_compute(struct qout *q, const struct vsmi_device *dev)
{
	const char *mode = smi_compute_mode_str(dev);

	q_kv(q, "Compute Mode", "compute_mode", "%s", mode ? mode : NA);
}

void q_utilization(struct qout *q, const struct vsmi_device *dev,
		   bool samples)
{
	static const char *const engines[] = {
		"Encoder", "encoder_util", "Decoder", "decoder_util",
		"JPEG", "jpeg_util", "OFA", "ofa_util", NULL,
	};
	unsigned int gpu, mem;
	const char *const *e;

	q_section(q, "Utilization", "utilization");
	if (smi_dev_util(dev, &gpu, &mem)) {
		q_na(q, "GPU", "gpu_util");
		q_na(q, "Memory", "memory_util");
	} else {
		q_kv(q, "GPU", "gpu_util", "%u %%", gpu);
		q_kv(q, "Memory", "memory_util", "%u %%", mem);
	}
	for (e = engines; e[0]; e += 2)
		q_na(q, e[0], e[1]);
	q_end(q, "utilization");
	if (samples)
		q_na(q, "GPU Utilization Samples", "gpu_util_samples");
}

void q_ecc(struct qout *q)
{
	na_pair(q, "ECC Mode", "ecc_mode", "current_ecc", "pending_ecc");
	q_na(q, "ECC Errors", "ecc_errors");
}

void q_temperature(struct qout *q)
{
	static const char *const items[] = {
		"GPU Current Temp", "gpu_temp",
		"GPU Shutdown Temp", "gpu_temp_max_threshold",
		"GPU Slowdown Temp", "gpu_temp_slow_threshold",
		"Memory Current Temp", "memory_temp", NULL,
	};

	na_list(q, "Temperature", "temperature", items);
}

void q_power(struct qout *q)
{
	static const char *const items[] = {
		"Average Power Draw", "average_power_draw",
		"Instantaneous Power Draw", "instant_power_draw",
		"Current Power Limit", "current_power_limit",
		"Default Power Limit", "default_power_limit", NULL,
	};

	na_list(q, "GPU Power Readings", "gpu_power_readings", items);
}

static void q_max_clock(struct qout *q, const struct vsmi_device *dev,
			const char *text, const char *tag, nvmlClockType_t type)
{
	unsigned int mhz;

	if (nvmlDeviceGetMaxClockInfo(smi_handle(dev), type, &mhz))
		q_na(q, text, tag);
	else
		q_kv(q, text, tag, "%u MHz", mhz);
}

/* Current clocks do not exist; the maxima are what the device reports. */
void q_clocks(struct qout *q, const struct vsmi_device *dev)
{
	static const char *const current[] = {
		"Graphics", "graphics_clock", "SM", "sm_clock",
		"Memory", "mem_clock", "Video", "video_clock", NULL,
	};

	na_list(q, "Clocks", "clocks", current);
	q_section(q, "Max Clocks", "max_clocks");
	q_max_clock(q, dev, "Graphics", "graphics_clock", NVML_CLOCK_GRAPHICS);
	q_max_clock(q, dev, "SM", "sm_clock", NVML_CLOCK_SM);
	q_max_clock(q, dev, "Memory", "mem_clock", NVML_CLOCK_MEM);
	q_max_clock(q, dev, "Video", "video_clock", NVML_CLOCK_VIDEO);
	q_end(q, "max_clocks");
}

static void q_process(struct qout *q, const struct vsmi_process *p)
{
	q_na(q, "GPU instance ID", "gpu_instance_id");
	q_na(q, "Compute instance ID", "compute_instance_id");
	q_kv(q, "Process ID", "pid", "%d", (int)p->pid);
	q->depth++;
	q_kv(q, "Type", "type", "C");
	q_kv(q, "Name", "process_name", "%s", p->name);
	if (p->have_vram)
		q_kv(q, "Used GPU Memory", "used_memory", "%llu MiB",
		     smi_mib(p->vram));
	else
		q_na(q, "Used GPU Memory", "used_memory");
	q->depth--;
}

static void q_process_xml(struct qout *q, const struct vsmi_process *p)
{
	q_section(q, "", "process_info");
	q_na(q, "", "gpu_instance_id");
	q_na(q, "", "compute_instance_id");
	q_kv(q, "", "pid", "%d", (int)p->pid);
	q_kv(q, "", "type", "C");
	q_kv(q, "", "process_name", "%s", p->name);
	if (p->have_vram)
		q_kv(q, "", "used_memory", "%llu MiB", smi_mib(p->vram));
	else
		q_na(q, "", "used_memory");
	q_end(q, "process_info");
}

void q_processes(struct qout *q, const struct smi_sys *sys, int dev)
{
	int i, n = 0;

	for (i = 0; i < sys->nproc; i++)
		n += sys->procs[i].dev == dev;
	if (!n && !q->xml) {
		q_kv(q, "Processes", "processes", "None");
		return;
	}
	q_section(q, "Processes", "processes");
	for (i = 0; i < sys->nproc; i++) {
		if (sys->procs[i].dev != dev)
			continue;
		if (q->xml)
			q_process_xml(q, &sys->procs[i]);
		else
			q_process(q, &sys->procs[i]);
	}
	q_end(q, "processes");
}
