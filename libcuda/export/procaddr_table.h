/* SPDX-License-Identifier: MIT */
/*
 * The table cuGetProcAddress answers from, generated at build time from
 * the toolkit's headers by gen-procaddr.py: one entry per generation of
 * each driver entry point, sorted by name, then version.
 */
#ifndef VCUDA_EXPORT_PROCADDR_TABLE_H
#define VCUDA_EXPORT_PROCADDR_TABLE_H

struct procaddr_entry {
	const char *name;	/* the base name a program asks for */
	int version;		/* the CUDA version that introduced it */
	int per_thread;		/* a _ptds/_ptsz (per-thread stream) form */
	void *fn;
};

extern const struct procaddr_entry procaddr_table[];
extern const unsigned int procaddr_table_len;

#endif
