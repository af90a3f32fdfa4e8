// SPDX-License-Identifier: MIT
/*
 * LTO-IR is NVVM's own container, which only NVIDIA's nvJitLink reads.
 * vcuda runs PTX, and NVIDIA's nvJitLink can emit PTX after link-time
 * optimisation (-lto -ptx): this file loads NVIDIA's library from the
 * toolkit, by path (ours has its soname and comes first on the library
 * path), and links the LTO-IR inputs into PTX with it. What that PTX
 * declares .extern (functions the PTX inputs define) is resolved by the
 * link set afterwards.
 *
 * VCUDA_NVJITLINK names NVIDIA's library; else the toolkit's is found as
 * toolkit.c finds it.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jitlink.h"

#define NVIDIA_SONAME "libnvJitLink.so.13"

struct nvidia_jitlink {
	void *dl;
	char path[512];
	nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t,
				  const char *const *);
	nvJitLinkResult (*destroy)(nvJitLinkHandle *);
	nvJitLinkResult (*add_data)(nvJitLinkHandle, nvJitLinkInputType,
				    const void *, size_t, const char *);
	nvJitLinkResult (*complete)(nvJitLinkHandle);
	nvJitLinkResult (*ptx_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*ptx)(nvJitLinkHandle, char *);
	nvJitLinkResult (*error_log_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*error_log)(nvJitLinkHandle, char *);
};

static struct nvidia_jitlink nvidia;
static pthread_once_t nvidia_once = PTHREAD_ONCE_INIT;

/* Whether @dl is this library itself (a path that leads back to us). */
static bool is_ourselves(void *dl)
{
	return dlsym(dl, "__nvJitLinkCreate_13_0") ==
	       (void *)__nvJitLinkCreate_13_0;
}

static bool bind(struct nvidia_jitlink *n, void *dl)
{
	*(void **)&n->create = dlsym(dl, "__nvJitLinkCreate_13_0");
	*(void **)&n->destroy = dlsym(dl, "__nvJitLinkDestroy_13_0");
	*(void **)&n->add_data = dlsym(dl, "__nvJitLinkAddData_13_0");
	*(void **)&n->complete = dlsym(dl, "__nvJitLinkComplete_13_0");
	*(void **)&n->ptx_size = dlsym(dl, "__nvJitLinkGetLinkedPtxSize_13_0");
	*(void **)&n->ptx = dlsym(dl, "__nvJitLinkGetLinkedPtx_13_0");
	*(void **)&n->error_log_size =
		dlsym(dl, "__nvJitLinkGetErrorLogSize_13_0");
	*(void **)&n->error_log = dlsym(dl, "__nvJitLinkGetErrorLog_13_0");
	return n->create && n->destroy && n->add_data && n->complete &&
	       n->ptx_size && n->ptx && n->error_log_size && n->error_log;
}

static bool accept_nvidia(void *dl)
{
	if (!is_ourselves(dl) && bind(&nvidia, dl))
		return true;
	nvidia = (struct nvidia_jitlink){ 0 };
	return false;
}

/*
 * RTLD_DEEPBIND: NVIDIA's library must call its own entry points, not
 * this library's, which the process found first under the same names.
 */
#define NVIDIA_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)

static void *open_named(const char *path)
{
	void *dl = dlopen(path, NVIDIA_DLOPEN_FLAGS);

	if (!dl)
		return NULL;
	if (!accept_nvidia(dl)) {
		dlclose(dl);
		return NULL;
	}
	snprintf(nvidia.path, sizeof(nvidia.path), "%s", path);
	return dl;
}

static void load_nvidia(void)
{
	static const char *const tails[] = { "lib64/" NVIDIA_SONAME };
	const char *named = getenv("VCUDA_NVJITLINK");

	if (named && *named)
		nvidia.dl = open_named(named);
	else
		nvidia.dl = toolkit_open(tails, 1, NVIDIA_DLOPEN_FLAGS,
					 accept_nvidia, nvidia.path,
					 sizeof(nvidia.path));
}

static nvJitLinkResult nvidia_error(struct nvJitLink *link,
				    nvJitLinkHandle h, nvJitLinkResult res)
{
	size_t size = 0;
	char *text;

	if (nvidia.error_log_size(h, &size) == NVJITLINK_SUCCESS && size) {
		text = calloc(1, size + 1);
		if (text && nvidia.error_log(h, text) == NVJITLINK_SUCCESS &&
		    *text)
			jitlink_log(&link->error_log, "%s", text);
		free(text);
	}
	return res;
}

/* The options for NVIDIA's link: the caller's (-lto among them), and -ptx. */
static const char **lto_options(const struct jitlink_options *o,
				uint32_t *count)
{
	const char **opts = calloc(o->count + 1, sizeof(*opts));
	uint32_t n = 0;

	if (!opts)
		return NULL;
	for (uint32_t i = 0; i < o->count; i++)
		opts[n++] = o->all[i];
	if (!o->ptx)
		opts[n++] = "-ptx";
	*count = n;
	return opts;
}

static nvJitLinkResult link_ltoir(struct nvJitLink *link, nvJitLinkHandle h,
				  char **ptx)
{
	nvJitLinkResult res = NVJITLINK_SUCCESS;
	size_t size = 0, keeper_size = 0;
	void *keeper;

	for (size_t i = 0; i < link->ltoir_count && !res; i++)
		res = nvidia.add_data(h, NVJITLINK_INPUT_LTOIR,
				      link->ltoir[i].data, link->ltoir[i].size,
				      link->ltoir[i].name);
	/* Last, so that the real modules' declarations win (keep.c). */
	keeper = res ? NULL : jitlink_keeper(link, &keeper_size);
	if (keeper) {
		res = nvidia.add_data(h, NVJITLINK_INPUT_LTOIR, keeper,
				      keeper_size, "<vcuda-keep>");
		free(keeper);
	}
	if (!res)
		res = nvidia.complete(h);
	if (!res)
		res = nvidia.ptx_size(h, &size);
	if (res)
		return nvidia_error(link, h, res);
	*ptx = calloc(1, size + 1);
	if (!*ptx)
		return NVJITLINK_ERROR_INTERNAL;
	res = nvidia.ptx(h, *ptx);
	if (res) {
		free(*ptx);
		*ptx = NULL;
	}
	return res;
}

nvJitLinkResult jitlink_lto_to_ptx(struct nvJitLink *link, char **ptx)
{
	nvJitLinkHandle h = NULL;
	nvJitLinkResult res;
	const char **opts;
	uint32_t count;

	pthread_once(&nvidia_once, load_nvidia);
	if (!nvidia.dl) {
		jitlink_log(&link->error_log, "ERROR: LTO-IR needs NVIDIA's "
			    "nvJitLink (" NVIDIA_SONAME " of the CUDA toolkit; "
			    "set CUDA_HOME or VCUDA_NVJITLINK)");
		return NVJITLINK_ERROR_UNRECOGNIZED_INPUT;
	}
	opts = lto_options(&link->options, &count);
	if (!opts)
		return NVJITLINK_ERROR_INTERNAL;
	res = nvidia.create(&h, count, opts);
	free(opts);
	if (res) {
		jitlink_log(&link->error_log, "ERROR: NVIDIA's nvJitLink (%s) "
			    "refused the options: %d", nvidia.path, (int)res);
		return res;
	}
	res = link_ltoir(link, h, ptx);
	nvidia.destroy(&h);
	return res;
}
