// SPDX-License-Identifier: MIT
/*
 * nvJitLink's options, read as NVIDIA's nvJitLinkCreate reads them: the
 * target (-arch=sm_NN, required), LTO and the PTX output, which change
 * what this library does, and the code generation options, which it
 * checks by name and hands to NVIDIA's nvJitLink for the LTO-IR step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jitlink.h"

/* Options that only tune code generation: known, passed on. */
static const char *const tuning_prefixes[] = {
	"-O", "-g", "-lineinfo", "-ftz=", "-prec-div=", "-prec-sqrt=",
	"-fma=", "-kernels-used=", "-variables-used=",
	"-optimize-unused-variables", "-Xptxas", "-Xnvvm", "-split-compile",
	"-jump-table-density=", "-no-cache", "-device-stack-protector",
	"-time",
};

static bool is_tuning(const char *opt)
{
	for (size_t i = 0; i < sizeof(tuning_prefixes) /
			       sizeof(tuning_prefixes[0]); i++)
		if (!strncmp(opt, tuning_prefixes[i],
			     strlen(tuning_prefixes[i])))
			return true;
	return false;
}

/*
 * -arch=sm_NN (or sm_NNa, sm_NNf), or compute_NN (*@virtual set): NN.
 * 0 when it is neither form.
 */
static unsigned int read_arch(const char *value, bool *virtual)
{
	size_t skip = 3;
	char *end;
	unsigned long nn;

	*virtual = !strncmp(value, "compute_", 8);
	if (*virtual)
		skip = 8;
	else if (strncmp(value, "sm_", 3))
		return 0;
	nn = strtoul(value + skip, &end, 10);
	if (end == value + skip ||
	    (*end && strcmp(end, "a") && strcmp(end, "f")))
		return 0;
	return nn >= 10 && nn < 1000 ? (unsigned int)nn : 0;
}

static nvJitLinkResult read_one(struct jitlink_options *o, const char *opt,
				char **error)
{
	if (!strncmp(opt, "-arch=", 6)) {
		o->arch = read_arch(opt + 6, &o->virtual_arch);
		if (!o->arch) {
			jitlink_log(error, "ERROR: unrecognized -arch value "
				    "'%s'", opt + 6);
			return NVJITLINK_ERROR_UNRECOGNIZED_ARCH;
		}
	} else if (!strcmp(opt, "-lto")) {
		o->lto = true;
	} else if (!strcmp(opt, "-ptx")) {
		o->ptx = true;
	} else if (!strcmp(opt, "-verbose")) {
		o->verbose = true;
	} else if (!strncmp(opt, "-maxrregcount=", 14)) {
		o->max_registers = (uint32_t)strtoul(opt + 14, NULL, 10);
	} else if (!is_tuning(opt)) {
		jitlink_log(error, "ERROR: unrecognized option '%s'", opt);
		return NVJITLINK_ERROR_UNRECOGNIZED_OPTION;
	}
	return NVJITLINK_SUCCESS;
}

nvJitLinkResult jitlink_options_read(struct jitlink_options *o, uint32_t n,
				     const char *const *options, char **error)
{
	nvJitLinkResult res = NVJITLINK_SUCCESS;

	*o = (struct jitlink_options){ 0 };
	if (n && !options)
		return NVJITLINK_ERROR_INVALID_INPUT;
	o->all = calloc(n + 1, sizeof(*o->all));
	if (!o->all)
		return NVJITLINK_ERROR_INTERNAL;
	for (uint32_t i = 0; i < n && res == NVJITLINK_SUCCESS; i++) {
		if (!options[i]) {
			res = NVJITLINK_ERROR_INVALID_INPUT;
			break;
		}
		o->all[i] = strdup(options[i]);
		if (!o->all[i])
			res = NVJITLINK_ERROR_INTERNAL;
		else
			o->count++;
		if (res == NVJITLINK_SUCCESS)
			res = read_one(o, options[i], error);
	}
	if (res == NVJITLINK_SUCCESS && !o->arch) {
		jitlink_log(error, "ERROR: -arch=sm_NN must be given");
		res = NVJITLINK_ERROR_MISSING_ARCH;
	}
	/* As NVIDIA's: a virtual target is an output of LTO only. */
	if (res == NVJITLINK_SUCCESS && o->virtual_arch && !o->lto) {
		jitlink_log(error, "ERROR: -arch=compute_NN needs -lto");
		res = NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS;
	}
	if (res != NVJITLINK_SUCCESS)
		jitlink_options_free(o);
	return res;
}

void jitlink_options_free(struct jitlink_options *o)
{
	for (uint32_t i = 0; i < o->count; i++)
		free((char *)o->all[i]);
	free(o->all);
	*o = (struct jitlink_options){ 0 };
}
