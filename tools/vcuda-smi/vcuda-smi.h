/* SPDX-License-Identifier: MIT */
/*
 * vcuda-smi: nvidia-smi for vcuda's virtual GPUs. As nvidia-smi is built
 * on NVIDIA's NVML, vcuda-smi is built on vcuda's libnvidia-ml.so.1
 * (tools/nvml/), so that the two always agree: names, bus ids, memory,
 * utilization, compute mode, versions and processes come from NVML. What
 * NVML has no call for (the module's state, the fault count, reset, the
 * engines' busy time of dmon and pmon) comes from the vsmi queries
 * (tools/smi/) NVML itself is built on. This program parses nvidia-smi's
 * options and prints nvidia-smi's formats.
 */
#ifndef VCUDA_SMI_H
#define VCUDA_SMI_H

#include <stdbool.h>
#include <stdio.h>

#include <nvml.h>

#include "vsmi.h"

#define SMI_NAME	"vcuda-smi"
#define SMI_TITLE	"VCUDA-SMI"
#define SMI_VERSION	"1.0.0"

/* nvidia-smi's exit statuses. */
enum smi_status {
	SMI_OK = 0,
	SMI_ERR_ARG = 2,		/* invalid argument or field */
	SMI_ERR_NOT_SUPPORTED = 3,
	SMI_ERR_PERM = 4,		/* insufficient permissions */
	SMI_ERR_NOT_FOUND = 6,		/* no devices were found */
	SMI_ERR_DRIVER = 9,		/* driver not loaded */
	SMI_ERR_UNKNOWN = 255,		/* bad option, other errors */
};

enum smi_mode {
	MODE_VIEW,
	MODE_LIST,
	MODE_QUERY,
	MODE_QUERY_GPU,
	MODE_QUERY_APPS,
	MODE_DMON,
	MODE_PMON,
	MODE_COMPUTE_MODE,
	MODE_RESET,
	MODE_PERSISTENCE,
	MODE_HELP,
	MODE_HELP_QUERY_GPU,
	MODE_HELP_QUERY_APPS,
	MODE_VERSION,
};

struct smi_opts {
	enum smi_mode mode;
	const char *ids;	/* -i: indexes, UUIDs or bus ids, comma list */
	const char *display;	/* -q -d */
	bool xml;		/* -q -x */
	const char *fields;	/* --query-gpu= / --query-compute-apps= */
	const char *format;	/* --format= */
	bool noheader, nounits;
	unsigned int loop_ms;	/* -l, -lms: 0 = once */
	const char *filename;	/* -f */
	int value;		/* -c, -pm argument */
	long count;		/* dmon/pmon -c; -1 = forever */
	unsigned int delay_s;	/* dmon/pmon -d */
};

/* The system as read for one report. */
struct smi_sys {
	struct vsmi_module mod;
	struct vsmi_device *devs;	/* every device, by index */
	int ndev;
	int *sel;			/* -i's choice: indexes into devs */
	int nsel;
	bool nvml;			/* nvmlInit succeeded */
	char driver_version[32];	/* or "N/A" */
	struct vsmi_process *procs;	/* of the selected devices */
	int nproc;
};

/* args.c */
int smi_parse_args(int argc, char **argv, struct smi_opts *o);
int smi_bad_option(const char *opt);
int smi_bad_combination(void);

/* sys.c */
int smi_sys_load(struct smi_sys *sys, const char *ids);
int smi_sys_processes(struct smi_sys *sys);
void smi_sys_free(struct smi_sys *sys);
bool smi_proc_selected(const struct smi_sys *sys, const struct vsmi_process *p);

/* format.c */
#define NA "N/A"
void smi_timestamp_long(char *buf, size_t len);
void smi_timestamp_csv(char *buf, size_t len);
unsigned long long smi_mib(uint64_t bytes);
void smi_cuda_version(char *buf, size_t len);
nvmlDevice_t smi_handle(const struct vsmi_device *dev);
int smi_nvml_errno(nvmlReturn_t ret);
int smi_dev_memory(const struct vsmi_device *dev, struct vsmi_memory *m);
int smi_name(const struct vsmi_device *dev, char *buf, size_t len);
int smi_uuid(const struct vsmi_device *dev, char *buf, size_t len);
int smi_bus_id(const struct vsmi_device *dev, char *buf, size_t len);
void smi_dev_name(const struct vsmi_device *dev, char *buf, size_t len);
void smi_dev_bus_id(const struct vsmi_device *dev, char *buf, size_t len);
int smi_dev_util(const struct vsmi_device *dev, unsigned int *gpu,
		 unsigned int *mem);
const char *smi_compute_mode_str(const struct vsmi_device *dev);
void smi_xml_escape(FILE *f, const char *s);

/* Report writers, one per mode. Each returns an smi_status. */
int smi_view(const struct smi_opts *o, struct smi_sys *sys);
int smi_list(const struct smi_opts *o, struct smi_sys *sys);
int smi_query(const struct smi_opts *o, struct smi_sys *sys);
int smi_query_gpu(const struct smi_opts *o, struct smi_sys *sys);
int smi_query_apps(const struct smi_opts *o, struct smi_sys *sys);
int smi_dmon(const struct smi_opts *o, struct smi_sys *sys);
int smi_pmon(const struct smi_opts *o, struct smi_sys *sys);
int smi_compute_mode(const struct smi_opts *o, struct smi_sys *sys);
int smi_reset(const struct smi_opts *o, struct smi_sys *sys);
int smi_persistence(const struct smi_opts *o, struct smi_sys *sys);

/* Field checks before any device is read (query errors come first). */
int smi_check_gpu_fields(const char *fields);
int smi_check_app_fields(const char *fields);
int smi_check_format(const struct smi_opts *o);
int smi_check_display(const char *display);

/* qout.c: -q's two spellings, text ("Name   : value") and XML. */
struct qout {
	bool xml;
	int depth;
};

void q_section(struct qout *q, const char *text, const char *tag);
void q_end(struct qout *q, const char *tag);
void q_kv(struct qout *q, const char *text, const char *tag,
	  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void q_na(struct qout *q, const char *text, const char *tag);

/* help.c */
void smi_help(void);
void smi_help_query_gpu(void);
void smi_help_query_apps(void);
void smi_help_dmon(void);
void smi_help_pmon(void);
void smi_print_version(struct smi_sys *sys);

#endif /* VCUDA_SMI_H */
