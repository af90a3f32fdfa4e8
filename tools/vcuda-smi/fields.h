/* SPDX-License-Identifier: MIT */
/*
 * vcuda-smi --query-gpu and --query-compute-apps: field names and the CSV
 * they print.
 */
#ifndef VCUDA_SMI_FIELDS_H
#define VCUDA_SMI_FIELDS_H

#include "vcuda-smi.h"

struct gpu_field {
	const char *name;	/* as the CSV header prints it */
	const char *alias;	/* the other accepted name, or NULL */
	const char *unit;	/* "MiB", "%", "W", "MHz", "us", or NULL */
};

const struct gpu_field *gpu_field_find(const char *name);

/* A field list split at commas; names point into buf. */
#define MAX_FIELDS 256
struct field_list {
	char *buf;
	const char *names[MAX_FIELDS];
	int count;
};

int field_list_split(const char *fields, struct field_list *list);
void field_list_free(struct field_list *list);
int field_invalid(const char *name);

/* CSV: one row, items separated by ", ". */
void csv_item(int i, const char *value);
void csv_value(int i, const char *unit, bool nounits, int ret,
	       const char *value);

#endif /* VCUDA_SMI_FIELDS_H */
