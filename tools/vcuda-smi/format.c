// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: values as every report spells them.
 */
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "vcuda-smi.h"

/* "Sun Nov 22 04:18:49 2026", as the view and -q print it. */
void smi_timestamp_long(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, len, "%a %b %d %H:%M:%S %Y", &tm);
}

/* "2026/11/22 04:18:49.123", as --query-* print it. */
void smi_timestamp_csv(char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char date[32];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y/%m/%d %H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03ld", date, (long)(tv.tv_usec / 1000));
}

unsigned long long smi_mib(uint64_t bytes)
{
	return (unsigned long long)(bytes >> 20);
}

/* 13000 -> "13.0" */
void smi_cuda_version(char *buf, size_t len)
{
	int v = vsmi_cuda_version();

	snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

void smi_dev_name(const struct vsmi_device *dev, char *buf, size_t len)
{
	if (vsmi_name(dev, buf, len))
		snprintf(buf, len, NA);
}

void smi_dev_bus_id(const struct vsmi_device *dev, char *buf, size_t len)
{
	if (vsmi_bus_id(dev, buf, len))
		snprintf(buf, len, NA);
}

/*
 * Utilization of the kernel's last window: "GPU" is the compute engine,
 * "memory" the copy engines (the device's memory traffic that is not a
 * kernel's own).
 */
int smi_dev_util(const struct vsmi_device *dev, unsigned int *gpu,
		 unsigned int *mem)
{
	struct vsmi_util u;
	int ret = vsmi_utilization(dev, &u);

	if (ret)
		return ret;
	*gpu = u.compute;
	*mem = u.copy;
	return 0;
}

const char *smi_compute_mode_str(const struct vsmi_device *dev)
{
	int mode;

	if (vsmi_compute_mode(dev, &mode))
		return NULL;
	return vsmi_compute_mode_name(mode);
}

void smi_xml_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}
