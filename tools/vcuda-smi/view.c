// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: the default view, nvidia-smi's 91-column summary: one block
 * per device, then the processes.
 */
#include <string.h>

#include "vcuda-smi.h"

#define RULE "+-----------------------------------------------------------" \
	     "------------------------------+"
#define DEV_RULE "+-----------------------------------------+--------------" \
		 "----------+----------------------+"
#define DEV_HEAD_RULE "|=========================================+=========" \
		      "===============+======================|"
#define PROC_HEAD_RULE "|=================================================" \
		       "========================================|"

static void view_header(const struct smi_sys *sys)
{
	char ts[64], title[64], cuda[16];

	smi_timestamp_long(ts, sizeof(ts));
	smi_cuda_version(cuda, sizeof(cuda));
	snprintf(title, sizeof(title), "%s %s", SMI_TITLE, SMI_VERSION);
	printf("%s       \n%s\n", ts, RULE);
	printf("| %-34sDriver Version: %-15sCUDA Version: %-9s|\n", title,
	       sys->driver_version, cuda);
	puts(DEV_RULE);
	puts("| GPU  Name                 Persistence-M | Bus-Id          Disp.A"
	     " | Volatile Uncorr. ECC |");
	puts("| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage"
	     " | GPU-Util  Compute M. |");
	puts("|                                         |                       "
	     " |               MIG M. |");
	puts(DEV_HEAD_RULE);
}

/* The view's short names for the compute modes. */
static const char *compute_mode_short(const struct vsmi_device *dev)
{
	const char *mode = smi_compute_mode_str(dev);

	if (!mode)
		return NA;
	if (!strcmp(mode, "Exclusive_Process"))
		return "E. Process";
	return mode;
}

static void view_device(const struct vsmi_device *dev)
{
	char name[64], bus[32], mem[32] = NA, total[32] = NA, util[16] = NA;
	struct vsmi_memory m;
	unsigned int gpu, copy;

	smi_dev_name(dev, name, sizeof(name));
	smi_dev_bus_id(dev, bus, sizeof(bus));
	if (!smi_dev_memory(dev, &m)) {
		snprintf(mem, sizeof(mem), "%lluMiB", smi_mib(m.used));
		snprintf(total, sizeof(total), "%lluMiB", smi_mib(m.total));
	}
	if (!smi_dev_util(dev, &gpu, &copy))
		snprintf(util, sizeof(util), "%u%%", gpu);
	printf("|%4u  %-31.30s%-4s|   %-16s %3s |%21s |\n", dev->index, name,
	       NA, bus, "Off", NA);
	printf("| %3s   %3s%6s%16s /  %-4s |%11s / %9s |%8s %12s |\n", NA, NA,
	       NA, NA, NA, mem, total, util, compute_mode_short(dev));
	printf("|                                         |                    "
	       "    |%21s |\n", NA);
	puts(DEV_RULE);
}

/* "...tail" of a name too long for its column, as nvidia-smi shortens. */
static void shorten(const char *in, char *out, size_t width)
{
	size_t n = strlen(in);

	if (n <= width)
		snprintf(out, width + 1, "%s", in);
	else
		snprintf(out, width + 1, "...%s", in + n - (width - 3));
}

static void view_process(const struct smi_sys *sys,
			 const struct vsmi_process *p)
{
	char name[40], mem[32] = NA;

	shorten(p->name, name, 35);
	if (p->have_vram)
		snprintf(mem, sizeof(mem), "%lluMiB", smi_mib(p->vram));
	printf("|%5u   %3s  %3s%16d%7s   %-35s %10s |\n",
	       sys->devs[p->dev].index, NA, NA, (int)p->pid, "C", name, mem);
}

static void view_processes(const struct smi_sys *sys)
{
	int i, shown = 0;

	puts("");
	puts(RULE);
	puts("| Processes:                                                     "
	     "                         |");
	puts("|  GPU   GI   CI              PID   Type   Process name         "
	     "               GPU Memory |");
	puts("|        ID   ID                                                 "
	     "              Usage      |");
	puts(PROC_HEAD_RULE);
	for (i = 0; i < sys->nproc; i++) {
		if (!smi_proc_selected(sys, &sys->procs[i]))
			continue;
		view_process(sys, &sys->procs[i]);
		shown++;
	}
	if (!shown)
		printf("|  %-87s|\n", "No running processes found");
	puts(RULE);
}

int smi_view(const struct smi_opts *o, struct smi_sys *sys)
{
	int i;

	(void)o;
	smi_sys_processes(sys);
	view_header(sys);
	for (i = 0; i < sys->nsel; i++)
		view_device(&sys->devs[sys->sel[i]]);
	view_processes(sys);
	return SMI_OK;
}
