// SPDX-License-Identifier: MIT
/*
 * The unversioned entry points NVIDIA's library also exports (the header
 * inlines them into calls of the _13_0 names; dlsym users such as
 * cuda.bindings look them up by these).
 */
#include "jitlink.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle *h, uint32_t n,
				       const char *const *o)
{
	return __nvJitLinkCreate_13_0(h, n, o);
}

EXPORT nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle *h)
{
	return __nvJitLinkDestroy_13_0(h);
}

EXPORT nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle h,
					nvJitLinkInputType t, const void *d,
					size_t s, const char *n)
{
	return __nvJitLinkAddData_13_0(h, t, d, s, n);
}

EXPORT nvJitLinkResult nvJitLinkAddFile(nvJitLinkHandle h,
					nvJitLinkInputType t, const char *p)
{
	return __nvJitLinkAddFile_13_0(h, t, p);
}

EXPORT nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle h)
{
	return __nvJitLinkComplete_13_0(h);
}

EXPORT nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle h,
						   size_t *s)
{
	return __nvJitLinkGetLinkedCubinSize_13_0(h, s);
}

EXPORT nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle h, void *c)
{
	return __nvJitLinkGetLinkedCubin_13_0(h, c);
}

EXPORT nvJitLinkResult nvJitLinkGetLinkedPtxSize(nvJitLinkHandle h,
						 size_t *s)
{
	return __nvJitLinkGetLinkedPtxSize_13_0(h, s);
}

EXPORT nvJitLinkResult nvJitLinkGetLinkedPtx(nvJitLinkHandle h, char *p)
{
	return __nvJitLinkGetLinkedPtx_13_0(h, p);
}

EXPORT nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle h,
						size_t *s)
{
	return __nvJitLinkGetErrorLogSize_13_0(h, s);
}

EXPORT nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle h, char *l)
{
	return __nvJitLinkGetErrorLog_13_0(h, l);
}

EXPORT nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle h, size_t *s)
{
	return __nvJitLinkGetInfoLogSize_13_0(h, s);
}

EXPORT nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle h, char *l)
{
	return __nvJitLinkGetInfoLog_13_0(h, l);
}
