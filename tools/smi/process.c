// SPDX-License-Identifier: MIT
/*
 * vsmi: the processes using the devices, from /proc/PID/fd (which files
 * are vcuda DRM nodes) and /proc/PID/fdinfo (the DRM client usage stats,
 * Documentation/gpu/drm-usage-stats.rst).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsmi.h"

#define MAX_CLIENTS 64	/* distinct DRM clients of one process and device */

/* One DRM file's fdinfo. */
struct client {
	bool vcuda;
	uint64_t id;
	bool have_vram, have_engines;
	uint64_t vram, compute_ns, copy_ns;
};

/* A process being gathered: its clients per device, to count each once. */
struct scan {
	const struct vsmi_device *devs;
	int ndev;
	struct vsmi_process *procs;
	int count;
	uint64_t seen[MAX_CLIENTS];
	int nseen;
};

/* "1234 KiB" -> bytes; a bare number is bytes. */
static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);

	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		return v << 10;
	if (!strncmp(end, "MiB", 3))
		return v << 20;
	if (!strncmp(end, "GiB", 3))
		return v << 30;
	return v;
}

static void client_line(struct client *c, const char *key, const char *val)
{
	if (!strcmp(key, "drm-driver")) {
		c->vcuda = !strcmp(val, DRM_VCUDA_DRIVER_NAME);
	} else if (!strcmp(key, "drm-client-id")) {
		c->id = strtoull(val, NULL, 10);
	} else if (!strcmp(key, "drm-total-vram") ||
		   (!strcmp(key, "drm-memory-vram") && !c->have_vram)) {
		c->vram = parse_size(val);
		c->have_vram = true;
	} else if (!strcmp(key, "drm-engine-compute")) {
		c->compute_ns = strtoull(val, NULL, 10);
		c->have_engines = true;
	} else if (!strcmp(key, "drm-engine-copy")) {
		c->copy_ns = strtoull(val, NULL, 10);
		c->have_engines = true;
	}
}

static int client_read(pid_t pid, const char *fd, struct client *c)
{
	char path[96], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%.16s", (int)pid, fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	memset(c, 0, sizeof(*c));
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *val, *end;

		if (!colon)
			continue;
		*colon = '\0';
		for (val = colon + 1; *val == ' ' || *val == '\t'; val++)
			;
		end = val + strlen(val);
		while (end > val && isspace((unsigned char)end[-1]))
			*--end = '\0';
		client_line(c, line, val);
	}
	fclose(f);
	return c->vcuda ? 0 : -ENODEV;
}

/* Which device (index into devs) a file of the process is a node of. */
static int fd_device(const struct scan *s, pid_t pid, const char *fd)
{
	char path[96];
	struct stat st;
	int i, j;

	snprintf(path, sizeof(path), "/proc/%d/fd/%.16s", (int)pid, fd);
	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		return -1;
	for (i = 0; i < s->ndev; i++)
		for (j = 0; j < s->devs[i].nnodes; j++)
			if (s->devs[i].nodes[j] == st.st_rdev)
				return i;
	return -1;
}

static void process_name(pid_t pid, char *buf, size_t len)
{
	char path[64];
	size_t n = 0;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		buf[n] = '\0';
		fclose(f);
	}
	if (buf[0])
		return;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (vsmi_attr_read(path, "comm", buf, len))
		snprintf(buf, len, "[%d]", (int)pid);
}

/* The entry of (pid, dev), created on first use. */
static struct vsmi_process *process_entry(struct scan *s, pid_t pid, int dev)
{
	struct vsmi_process *p;
	int i;

	for (i = 0; i < s->count; i++)
		if (s->procs[i].pid == pid && s->procs[i].dev == dev)
			return &s->procs[i];
	p = realloc(s->procs, sizeof(*p) * (size_t)(s->count + 1));
	if (!p)
		return NULL;
	s->procs = p;
	p = &p[s->count++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->dev = dev;
	process_name(pid, p->name, sizeof(p->name));
	return p;
}

/* Whether a client was counted already (dup'ed or inherited fds). */
static bool client_seen(struct scan *s, int dev, uint64_t id)
{
	uint64_t key = id * 64 + (uint64_t)dev;
	int i;

	for (i = 0; i < s->nseen; i++)
		if (s->seen[i] == key)
			return true;
	if (s->nseen < MAX_CLIENTS)
		s->seen[s->nseen++] = key;
	return false;
}

static void process_add(struct scan *s, pid_t pid, int dev,
			const struct client *c)
{
	struct vsmi_process *p = process_entry(s, pid, dev);

	if (!p || client_seen(s, dev, c->id))
		return;
	p->have_vram |= c->have_vram;
	p->vram += c->vram;
	p->have_engines |= c->have_engines;
	p->compute_ns += c->compute_ns;
	p->copy_ns += c->copy_ns;
	p->when_ns = vsmi_now_ns();
}

static void scan_pid(struct scan *s, pid_t pid)
{
	char path[64];
	struct dirent *de;
	struct client c;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	s->nseen = 0;
	while ((de = readdir(d))) {
		int dev;

		if (de->d_name[0] == '.')
			continue;
		dev = fd_device(s, pid, de->d_name);
		if (dev < 0 || client_read(pid, de->d_name, &c))
			continue;
		process_add(s, pid, dev, &c);
	}
	closedir(d);
}

static int by_device_pid(const void *a, const void *b)
{
	const struct vsmi_process *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev - y->dev;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int vsmi_processes(const struct vsmi_device *devs, int ndev,
		   struct vsmi_process **procs, int *count)
{
	struct scan s = { .devs = devs, .ndev = ndev };
	struct dirent *de;
	DIR *d = opendir("/proc");

	*procs = NULL;
	*count = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (isdigit((unsigned char)de->d_name[0]))
			scan_pid(&s, (pid_t)strtol(de->d_name, NULL, 10));
	}
	closedir(d);
	if (s.count)
		qsort(s.procs, (size_t)s.count, sizeof(*s.procs),
		      by_device_pid);
	*procs = s.procs;
	*count = s.count;
	return 0;
}
