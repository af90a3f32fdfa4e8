// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: --format=csv[,noheader][,nounits], and the field lists of
 * --query-gpu and --query-compute-apps. Values are not quoted, as
 * nvidia-smi's are not; an unavailable value is "[N/A]".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"

int smi_check_format(const struct smi_opts *o)
{
	char *list, *tok, *save = NULL;
	bool csv = false, bad = false;

	if (!o->format) {
		printf("ERROR: Option --format is required with --query-gpu "
		       "and --query-compute-apps. Please run '%s -h'.\n\n",
		       SMI_NAME);
		return SMI_ERR_ARG;
	}
	list = strdup(o->format);
	if (!list)
		return SMI_ERR_UNKNOWN;
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "csv"))
			csv = true;
		else if (strcmp(tok, "noheader") && strcmp(tok, "nounits"))
			bad = true;
	}
	free(list);
	return csv && !bad ? SMI_OK : smi_bad_combination();
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ')
		s++;
	end = s + strlen(s);
	while (end > s && end[-1] == ' ')
		*--end = '\0';
	return s;
}

int field_list_split(const char *fields, struct field_list *list)
{
	char *tok, *save = NULL;

	memset(list, 0, sizeof(*list));
	list->buf = strdup(fields);
	if (!list->buf)
		return -ENOMEM;
	for (tok = strtok_r(list->buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (list->count == MAX_FIELDS)
			return -E2BIG;
		list->names[list->count++] = trim(tok);
	}
	return 0;
}

void field_list_free(struct field_list *list)
{
	free(list->buf);
	list->buf = NULL;
}

int field_invalid(const char *name)
{
	printf("Field \"%s\" is not a valid field to query.\n\n", name);
	return SMI_ERR_ARG;
}

void csv_item(int i, const char *value)
{
	printf("%s%s", i ? ", " : "", value);
}

/* A value with its unit unless nounits; ret < 0 prints "[N/A]". */
void csv_value(int i, const char *unit, bool nounits, int ret,
	       const char *value)
{
	if (ret < 0)
		csv_item(i, "[N/A]");
	else if (unit && !nounits)
		printf("%s%s %s", i ? ", " : "", value, unit);
	else
		csv_item(i, value);
}
