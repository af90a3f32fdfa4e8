// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: the two spellings of -q. Text: four spaces per level and the
 * colon at column 55. XML: one tab per level below <nvidia_smi_log>.
 */
#include <stdarg.h>

#include "vcuda-smi.h"

#define Q_NAME_WIDTH 55

static void q_indent(const struct qout *q)
{
	int i;

	if (q->xml)
		for (i = 0; i <= q->depth; i++)
			putchar('\t');
	else
		printf("%*s", q->depth * 4, "");
}

void q_section(struct qout *q, const char *text, const char *tag)
{
	q_indent(q);
	if (q->xml)
		printf("<%s>\n", tag);
	else
		printf("%s\n", text);
	q->depth++;
}

void q_end(struct qout *q, const char *tag)
{
	q->depth--;
	if (!q->xml)
		return;
	q_indent(q);
	printf("</%s>\n", tag);
}

static void q_value(struct qout *q, const char *text, const char *tag,
		    const char *value)
{
	q_indent(q);
	if (!q->xml) {
		printf("%-*s: %s\n", Q_NAME_WIDTH - q->depth * 4, text, value);
		return;
	}
	printf("<%s>", tag);
	smi_xml_escape(stdout, value);
	printf("</%s>\n", tag);
}

void q_kv(struct qout *q, const char *text, const char *tag,
	  const char *fmt, ...)
{
	char value[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	q_value(q, text, tag, value);
}

void q_na(struct qout *q, const char *text, const char *tag)
{
	q_value(q, text, tag, NA);
}
