// SPDX-License-Identifier: MIT
/*
 * vcuda-smi -h, --help-query-*, dmon -h, pmon -h, --version.
 */
#include "vcuda-smi.h"

static const char usage[] =
	"vcuda-smi shows and changes the state of vcuda's virtual GPUs, with the\n"
	"options and formats of nvidia-smi. Properties a virtual GPU does not have\n"
	"(fans, temperatures, power, ECC, MIG, clocks) are reported as N/A.\n\n"
	"vcuda-smi [OPTION1 [ARG1]] [OPTION2 [ARG2]] ...\n\n"
	"    -h,   --help                Print usage information and exit.\n"
	"          --version             Print version information and exit.\n\n"
	"  LIST OPTIONS:\n\n"
	"    -L,   --list-gpus           Display a list of GPUs connected to the system.\n\n"
	"  SUMMARY OPTIONS:\n\n"
	"    <no arguments>              Show a summary of GPUs connected to the system.\n\n"
	"    [plus any of]\n\n"
	"    -i,   --id=                 Target a specific GPU.\n"
	"    -f,   --filename=           Log to a specified file, rather than to stdout.\n"
	"    -l,   --loop=               Probe until Ctrl+C at specified second interval.\n\n"
	"  QUERY OPTIONS:\n\n"
	"    -q,   --query               Display GPU info.\n\n"
	"    [plus any of]\n\n"
	"    -i,   --id=                 Target a specific GPU.\n"
	"    -f,   --filename=           Log to a specified file, rather than to stdout.\n"
	"    -x,   --xml-format          Produce XML output.\n"
	"    -d,   --display=            Display only selected information: MEMORY,\n"
	"                                    UTILIZATION, ECC, TEMPERATURE, POWER, CLOCK,\n"
	"                                    COMPUTE, PIDS, PERFORMANCE, ...\n"
	"                                Flags can be combined with comma e.g. MEMORY,PIDS.\n"
	"                                Doesn't work with -x.\n"
	"    -l,   --loop=               Probe until Ctrl+C at specified second interval.\n"
	"    -lms, --loop-ms=            Probe until Ctrl+C at specified millisecond interval.\n\n"
	"  SELECTIVE QUERY OPTIONS:\n\n"
	"    [one of]\n\n"
	"    --query-gpu                 Information about GPU.\n"
	"                                Call --help-query-gpu for more info.\n"
	"    --query-compute-apps        List of currently active compute processes.\n"
	"                                Call --help-query-compute-apps for more info.\n\n"
	"    [mandatory]\n\n"
	"    --format=                   Comma separated list of format options:\n"
	"                                  csv - comma separated values (MANDATORY)\n"
	"                                  noheader - skip the first line with column headers\n"
	"                                  nounits - don't print units for numerical\n"
	"                                             values\n\n"
	"    [plus any of]\n\n"
	"    -i,   --id=                 Target a specific GPU.\n"
	"    -f,   --filename=           Log to a specified file, rather than to stdout.\n"
	"    -l,   --loop=               Probe until Ctrl+C at specified second interval.\n"
	"    -lms, --loop-ms=            Probe until Ctrl+C at specified millisecond interval.\n\n"
	"  DEVICE MODIFICATION OPTIONS:\n\n"
	"    [any one of]\n\n"
	"    -pm,  --persistence-mode=   Set persistence mode: 0/DISABLED, 1/ENABLED\n"
	"                                (not supported: the devices are always initialized)\n"
	"    -c,   --compute-mode=       Set MODE for compute applications:\n"
	"                                0/DEFAULT, 1/EXCLUSIVE_THREAD (DEPRECATED),\n"
	"                                2/PROHIBITED, 3/EXCLUSIVE_PROCESS\n"
	"    -r    --gpu-reset           Trigger reset of the GPU: every context on it\n"
	"                                faults; the device stays usable.\n\n"
	"   [plus optional]\n\n"
	"    -i,   --id=                 Target a specific GPU.\n\n"
	" Device Monitoring:\n"
	"    dmon                        Displays device stats in scrolling format.\n"
	"                                \"vcuda-smi dmon -h\" for more information.\n\n"
	" Process Monitoring:\n"
	"    pmon                        Displays process stats in scrolling format.\n"
	"                                \"vcuda-smi pmon -h\" for more information.\n\n"
	"-i takes GPU indexes, UUIDs or PCI bus ids, separated by commas.\n";

void smi_help(void)
{
	printf("vcuda System Management Interface -- v%s\n\n", SMI_VERSION);
	fputs(usage, stdout);
}

static const char query_gpu_help[] =
	"List of valid properties to query for the switch \"--query-gpu\":\n\n"
	"Every property name of nvidia-smi 580 is accepted; those a virtual GPU does\nnot have print \"[N/A]\". These have values:\n\n"
	"\"timestamp\"\nThe timestamp of when the query was made in format \"YYYY/MM/DD HH:MM:SS.msec\".\n\n"
	"\"driver_version\"\nThe version of the loaded vcuda module.\n\n"
	"\"count\"\nThe number of vcuda GPUs in the system.\n\n"
	"\"name\" or \"gpu_name\"\nThe product name of the GPU.\n\n"
	"\"uuid\" or \"gpu_uuid\"\nThe UUID of the GPU, GPU-....\n\n"
	"\"pci.bus_id\" or \"gpu_bus_id\"\nThe virtual PCI bus id as \"domain:bus:device.function\", in hex.\n\n"
	"\"pci.domain\", \"pci.bus\", \"pci.device\"\nParts of the virtual PCI bus id, in hex.\n\n"
	"\"index\"\nZero based index of the GPU.\n\n"
	"\"display_attached\", \"display_active\"\nAlways \"No\" and \"Disabled\".\n\n"
	"\"addressing_mode\"\nAlways \"None\".\n\n"
	"\"memory.total\", \"memory.reserved\", \"memory.used\", \"memory.free\"\nDevice memory in MiB; \"used\" is what buffer objects hold.\n\n"
	"\"compute_mode\"\nDefault, Exclusive_Process or Prohibited.\n\n"
	"\"compute_cap\"\nThe CUDA Compute Capability, as Major DOT Minor.\n\n"
	"\"utilization.gpu\"\nPercent of the module's last sampling window (1 s) during which a kernel was running on the GPU.\n\n"
	"\"utilization.memory\"\nPercent of the same window during which a copy engine was busy.\n\n"
	"\"clocks.max.graphics\", \"clocks.max.sm\", \"clocks.max.memory\"\nThe clocks the device reports to CUDA programs, in MHz.\n";

void smi_help_query_gpu(void)
{
	fputs(query_gpu_help, stdout);
}

static const char query_apps_help[] =
	"List of valid properties to query for the switch \"--query-compute-apps\":\n\n"
	"Section about Active Compute Processes properties\n"
	"List of processes holding a vcuda device's DRM file.\n\n"
	"\"timestamp\"\nThe timestamp of when the query was made in format \"YYYY/MM/DD HH:MM:SS.msec\".\n\n"
	"\"gpu_name\"\nThe product name of the GPU.\n\n"
	"\"gpu_bus_id\"\nPCI bus id as \"domain:bus:device.function\", in hex.\n\n"
	"\"gpu_serial\"\nAlways \"[N/A]\".\n\n"
	"\"gpu_uuid\"\nThe UUID of the GPU.\n\n"
	"\"pid\"\nProcess ID of the compute application\n\n"
	"\"process_name\" or \"name\"\nProcess Name\n\n"
	"\"used_gpu_memory\" or \"used_memory\"\nDevice memory held by the process's buffer objects (fdinfo drm-total-vram).\n\n";

void smi_help_query_apps(void)
{
	fputs(query_apps_help, stdout);
}

void smi_help_dmon(void)
{
	puts("Usage: vcuda-smi dmon [options]\n");
	puts("    -i,   --id=        Comma separated enumeration index, PCI bus"
	     " ID or UUID.");
	puts("    -d,   --delay=     Collection delay/interval in seconds "
	     "[default=1sec]");
	puts("    -c,   --count=     Collect specified number of samples and "
	     "exit");
	puts("    -h,   --help       Display help information\n");
	puts("sm is the compute engine's busy percent over each interval, mem"
	     " the copy\nengines'; what a virtual GPU does not have is \"-\".");
}

void smi_help_pmon(void)
{
	puts("Usage: vcuda-smi pmon [options]\n");
	puts("    -i,   --id=        Comma separated enumeration index, PCI bus"
	     " ID or UUID.");
	puts("    -d,   --delay=     Collection delay/interval in seconds "
	     "[default=1sec]");
	puts("    -c,   --count=     Collect specified number of samples and "
	     "exit");
	puts("    -h,   --help       Display help information\n");
	puts("sm and mem are each process's compute and copy busy percent over"
	     " each\ninterval (fdinfo drm-engine-compute, drm-engine-copy).");
}

static void print_param(const char *name, int64_t value)
{
	if (value >= 0)
		printf(" %s=%lld", name, (long long)value);
}

/* Versions, and the module's parameters as libkmod and sysfs tell them. */
void smi_print_version(struct smi_sys *sys)
{
	const struct vsmi_module *m = &sys->mod;
	char cuda[16];

	smi_cuda_version(cuda, sizeof(cuda));
	printf("VCUDA-SMI version  : %s\n", SMI_VERSION);
	printf("DRIVER version     : %s\n", sys->driver_version);
	printf("CUDA Version       : %s\n", cuda);
	printf("MODULE parameters  :");
	print_param("num_devices", m->num_devices);
	print_param("vram_mb", m->vram_mb);
	print_param("sm_count", m->sm_count);
	print_param("cc", m->cc);
	print_param("job_timeout_ms", m->job_timeout_ms);
	printf("\n");
}
