// SPDX-License-Identifier: MIT
/*
 * vcuda-smi: nvidia-smi's command line. Options take their value as the
 * next argument or after '=' ("-i 0", "-i=0", "--id=0", "--id 0").
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vcuda-smi.h"

struct parser {
	int argc;
	char **argv;
	int i;			/* current argument */
	const char *name;	/* option being parsed, without "=value" */
	char namebuf[64];
	const char *inline_val;	/* value after '=', or NULL */
};

int smi_bad_option(const char *opt)
{
	printf("ERROR: Option %s is not recognized. Please run '%s -h'.\n\n",
	       opt, SMI_NAME);
	return SMI_ERR_UNKNOWN;
}

int smi_bad_combination(void)
{
	printf("Invalid combination of input arguments. Please run '%s -h' "
	       "for help.\n", SMI_NAME);
	return SMI_ERR_ARG;
}

static void split_option(struct parser *p)
{
	const char *arg = p->argv[p->i], *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (n >= sizeof(p->namebuf))
		n = sizeof(p->namebuf) - 1;
	memcpy(p->namebuf, arg, n);
	p->namebuf[n] = '\0';
	p->name = p->namebuf;
	p->inline_val = eq ? eq + 1 : NULL;
}

static bool is(const struct parser *p, const char *s, const char *l)
{
	return (s && !strcmp(p->name, s)) || (l && !strcmp(p->name, l));
}

/* The option's value; NULL (after the error message) when it has none. */
static const char *value(struct parser *p)
{
	if (p->inline_val)
		return p->inline_val;
	if (p->i + 1 < p->argc)
		return p->argv[++p->i];
	printf("ERROR: Option %s requires a value. Please run '%s -h'.\n\n",
	       p->name, SMI_NAME);
	return NULL;
}

static bool parse_uint(const char *s, unsigned long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	*out = strtoul(s, &end, 10);
	return !*end;
}

/* Each mode may be asked for once; a second one is a bad combination. */
static int set_mode(struct smi_opts *o, enum smi_mode mode)
{
	if (o->mode != MODE_VIEW && o->mode != mode)
		return smi_bad_combination();
	o->mode = mode;
	return 0;
}

static int parse_enum(const char *v, const char *const *names, int n)
{
	unsigned long num;
	int i;

	if (parse_uint(v, &num))
		return num < (unsigned long)n && names[num] ? (int)num : -1;
	for (i = 0; i < n; i++)
		if (names[i] && !strcasecmp(v, names[i]))
			return i;
	return -1;
}

static int parse_compute_mode(struct smi_opts *o, const char *v)
{
	static const char *const names[] = {
		"DEFAULT", "EXCLUSIVE_THREAD", "PROHIBITED",
		"EXCLUSIVE_PROCESS",
	};

	o->value = parse_enum(v, names, 4);
	if (o->value < 0)
		return smi_bad_combination();
	return set_mode(o, MODE_COMPUTE_MODE);
}

static int parse_persistence(struct smi_opts *o, const char *v)
{
	static const char *const names[] = { "DISABLED", "ENABLED" };

	o->value = parse_enum(v, names, 2);
	if (o->value < 0)
		return smi_bad_combination();
	return set_mode(o, MODE_PERSISTENCE);
}

/* -l takes an optional number of seconds (5 by default). */
static int parse_loop(struct parser *p, struct smi_opts *o)
{
	unsigned long sec = 5;

	if (p->inline_val) {
		if (!parse_uint(p->inline_val, &sec) || !sec)
			return smi_bad_combination();
	} else if (p->i + 1 < p->argc && parse_uint(p->argv[p->i + 1], &sec)) {
		p->i++;
		if (!sec)
			return smi_bad_combination();
	}
	o->loop_ms = (unsigned int)sec * 1000;
	return 0;
}

static int parse_loop_ms(struct parser *p, struct smi_opts *o)
{
	const char *v = value(p);
	unsigned long ms;

	if (!v)
		return SMI_ERR_UNKNOWN;
	if (!parse_uint(v, &ms) || !ms)
		return smi_bad_combination();
	o->loop_ms = (unsigned int)ms;
	return 0;
}

/* Options that take a string value. */
static int parse_valued(struct parser *p, struct smi_opts *o, bool *done)
{
	const char **slot = NULL;
	enum smi_mode mode = MODE_VIEW;
	const char *v;

	*done = true;
	if (is(p, "-i", "--id"))
		slot = &o->ids;
	else if (is(p, "-d", "--display"))
		slot = &o->display;
	else if (is(p, "-f", "--filename"))
		slot = &o->filename;
	else if (is(p, NULL, "--format"))
		slot = &o->format;
	else if (is(p, NULL, "--query-gpu"))
		slot = &o->fields, mode = MODE_QUERY_GPU;
	else if (is(p, NULL, "--query-compute-apps"))
		slot = &o->fields, mode = MODE_QUERY_APPS;
	if (!slot) {
		*done = false;
		return 0;
	}
	v = value(p);
	if (!v)
		return SMI_ERR_UNKNOWN;
	*slot = v;
	return mode == MODE_VIEW ? 0 : set_mode(o, mode);
}

/* Options without a value, and those with a value of their own kind. */
static int parse_one(struct parser *p, struct smi_opts *o)
{
	bool done;
	int ret = parse_valued(p, o, &done);

	if (done)
		return ret;
	if (is(p, "-h", "--help"))
		return set_mode(o, MODE_HELP);
	if (is(p, NULL, "--version"))
		return set_mode(o, MODE_VERSION);
	if (is(p, NULL, "--help-query-gpu"))
		return set_mode(o, MODE_HELP_QUERY_GPU);
	if (is(p, NULL, "--help-query-compute-apps"))
		return set_mode(o, MODE_HELP_QUERY_APPS);
	if (is(p, "-L", "--list-gpus"))
		return set_mode(o, MODE_LIST);
	if (is(p, "-q", "--query"))
		return set_mode(o, MODE_QUERY);
	if (is(p, "-x", "--xml-format")) {
		o->xml = true;
		return 0;
	}
	if (is(p, "-r", "--gpu-reset"))
		return set_mode(o, MODE_RESET);
	if (is(p, "-l", "--loop"))
		return parse_loop(p, o);
	if (is(p, "-lms", "--loop-ms"))
		return parse_loop_ms(p, o);
	if (is(p, "-c", "--compute-mode")) {
		const char *v = value(p);

		return v ? parse_compute_mode(o, v) : SMI_ERR_UNKNOWN;
	}
	if (is(p, "-pm", "--persistence-mode")) {
		const char *v = value(p);

		return v ? parse_persistence(o, v) : SMI_ERR_UNKNOWN;
	}
	return smi_bad_option(p->argv[p->i]);
}

/* dmon and pmon: -i, -c COUNT, -d SECONDS, -h. */
static int parse_monitor(struct parser *p, struct smi_opts *o)
{
	for (p->i = 2; p->i < p->argc; p->i++) {
		unsigned long n;
		const char *v;

		split_option(p);
		if (is(p, "-h", "--help")) {
			o->value = 1;
			return 0;
		}
		if (!is(p, "-i", "--id") && !is(p, "-c", "--count") &&
		    !is(p, "-d", "--delay"))
			return smi_bad_option(p->argv[p->i]);
		v = value(p);
		if (!v)
			return SMI_ERR_UNKNOWN;
		if (is(p, "-i", "--id")) {
			o->ids = v;
			continue;
		}
		if (!parse_uint(v, &n) || (!n && is(p, "-d", "--delay")))
			return smi_bad_combination();
		if (is(p, "-c", "--count"))
			o->count = (long)n;
		else
			o->delay_s = (unsigned int)n;
	}
	return 0;
}

int smi_parse_args(int argc, char **argv, struct smi_opts *o)
{
	struct parser p = { .argc = argc, .argv = argv };
	int ret;

	memset(o, 0, sizeof(*o));
	o->count = -1;
	o->delay_s = 1;
	if (argc > 1 && (!strcmp(argv[1], "dmon") || !strcmp(argv[1], "pmon"))) {
		o->mode = argv[1][0] == 'd' ? MODE_DMON : MODE_PMON;
		return parse_monitor(&p, o);
	}
	for (p.i = 1; p.i < argc; p.i++) {
		split_option(&p);
		ret = parse_one(&p, o);
		if (ret)
			return ret;
	}
	return 0;
}
