// SPDX-License-Identifier: MIT
/*
 * The key of a kernel's compiled code, for the disk cache (jit_cache.c):
 * a SHA-256 over everything the code depends on. The PTX (all of the
 * program's texts) and the kernel's name decide the IR (the variables'
 * addresses are not in the code: it reads them from a table, so they
 * are no part of the key); the vector form's width (jit_vec_width: it
 * may differ between launches' block shapes and settings) and the
 * CPU's features decide the
 * instructions; and vcuda's and LLVM's builds decide how the IR becomes
 * code, so the file holding this code (its path, size and modification
 * time) stands for the build: a rebuilt vcuda never runs an older
 * build's code.
 */
#include "jit.h"
#include "jit_cache.h"
#include "vcuda_drm.h"

#include <dlfcn.h>
#include <llvm/Config/llvm-config.h>
#include <string.h>
#include <sys/stat.h>

/* Adds a length, then the bytes: no two lists of items hash alike. */
static void add_item(struct sha256 *s, const void *p, size_t len)
{
	uint64_t n = len;
	sha256_add(s, &n, sizeof(n));
	sha256_add(s, p, len);
}

static void add_string(struct sha256 *s, const char *str)
{
	add_item(s, str, strlen(str));
}

static void add_u64(struct sha256 *s, uint64_t v)
{
	add_item(s, &v, sizeof(v));
}

/* The shared object or executable this code was loaded from. */
static bool add_build(struct sha256 *s)
{
	Dl_info info;
	struct stat st;
	if (!dladdr((void *)jit_kernel_key, &info) || !info.dli_fname ||
	    stat(info.dli_fname, &st))
		return false;
	add_string(s, info.dli_fname);
	add_u64(s, (uint64_t)st.st_size);
	add_u64(s, (uint64_t)st.st_mtim.tv_sec);
	add_u64(s, (uint64_t)st.st_mtim.tv_nsec);
	add_u64(s, (uint64_t)st.st_ino);
	return true;
}


bool jit_kernel_key(const struct ptx_kernel *k, const char *target,
		    unsigned width, uint8_t key[32])
{
	struct sha256 s;
	sha256_init(&s);
	add_string(&s, "vcuda jit");
	add_u64(&s, JIT_CACHE_FORMAT);
	add_u64(&s, DRM_VCUDA_VERSION_MAJOR << 16 |
			    DRM_VCUDA_VERSION_MINOR << 8 |
			    DRM_VCUDA_VERSION_PATCH);
	add_string(&s, LLVM_VERSION_STRING);
	if (!add_build(&s))
		return false;
	add_string(&s, target);
	add_u64(&s, width);
	add_item(&s, k->prog->source_digest, sizeof(k->prog->source_digest));
	add_string(&s, k->sym->name);
	add_u64(&s, k->prog->placed);	/* variables' addresses known */
	sha256_finish(&s, key);
	return true;
}
