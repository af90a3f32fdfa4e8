// SPDX-License-Identifier: MIT
/*
 * vsmi: whether vcuda.ko is loaded (libkmod) and with which parameters
 * (/sys/module/vcuda/parameters).
 */
#include <errno.h>
#include <string.h>

#include <libkmod.h>

#include "vsmi.h"

static int64_t module_param(const char *name)
{
	uint64_t val;

	if (vsmi_attr_u64(VSMI_MODULE_DIR "/parameters", name, &val))
		return -1;
	return (int64_t)val;
}

static void module_params(struct vsmi_module *mod)
{
	mod->num_devices = module_param("num_devices");
	mod->vram_mb = module_param("vram_mb");
	mod->sm_count = module_param("sm_count");
	mod->cc = module_param("cc");
	mod->job_timeout_ms = module_param("job_timeout_ms");
	if (vsmi_attr_read(VSMI_MODULE_DIR, "version", mod->version,
			   sizeof(mod->version)))
		mod->version[0] = '\0';
}

/* libkmod's view: is the module live, and how many users does it have. */
static int module_kmod(struct vsmi_module *mod)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *km = NULL;
	int ret;

	if (!ctx)
		return -ENOMEM;
	ret = kmod_module_new_from_name(ctx, "vcuda", &km);
	if (ret == 0) {
		mod->loaded = kmod_module_get_initstate(km) ==
			      KMOD_MODULE_LIVE;
		mod->refcnt = mod->loaded ? kmod_module_get_refcnt(km) : -1;
		kmod_module_unref(km);
	}
	kmod_unref(ctx);
	return ret;
}

int vsmi_module_state(struct vsmi_module *mod)
{
	int ret;

	memset(mod, 0, sizeof(*mod));
	mod->refcnt = -1;
	ret = module_kmod(mod);
	if (ret)
		return ret;
	if (mod->loaded)
		module_params(mod);
	else
		mod->num_devices = mod->vram_mb = mod->sm_count = mod->cc =
			mod->job_timeout_ms = -1;
	return 0;
}
