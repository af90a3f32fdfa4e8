// SPDX-License-Identifier: MIT
/*
 * A small list of (device, handle, count): shared handles are few (peer
 * and VMM mappings, imports), so a linear search under one lock will do.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "api.h"
#include "device.h"
#include "gem_ref.h"
#include "kmd.h"

struct gem_ref {
	struct vc_device *dev;
	uint32_t handle;
	unsigned int count;
	struct gem_ref *next;
};

static pthread_mutex_t refs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gem_ref *refs;

static struct gem_ref **find(struct vc_device *dev, uint32_t handle)
{
	struct gem_ref **link = &refs;

	while (*link && ((*link)->dev != dev || (*link)->handle != handle))
		link = &(*link)->next;
	return link;
}

CUresult gem_ref_get(struct vc_device *dev, uint32_t handle)
{
	CUresult res = CUDA_SUCCESS;
	struct gem_ref **link, *r;

	pthread_mutex_lock(&refs_lock);
	link = find(dev, handle);
	if (*link) {
		(*link)->count++;
	} else if ((r = calloc(1, sizeof(*r)))) {
		*r = (struct gem_ref){ .dev = dev, .handle = handle, .count = 1,
				       .next = refs };
		refs = r;
	} else {
		res = CUDA_ERROR_OUT_OF_MEMORY;
	}
	pthread_mutex_unlock(&refs_lock);
	return res;
}

void gem_ref_put(struct vc_device *dev, uint32_t handle)
{
	struct gem_ref **link, *gone = NULL;

	pthread_mutex_lock(&refs_lock);
	link = find(dev, handle);
	if (*link && --(*link)->count == 0) {
		gone = *link;
		*link = gone->next;
	}
	pthread_mutex_unlock(&refs_lock);
	if (gone) {
		kmd_bo_close(dev->fd, handle);
		free(gone);
	}
}

CUresult gem_import_to(struct vc_device *owner, uint32_t handle,
		       struct vc_device *dev, uint32_t *out)
{
	int dmabuf, err;
	CUresult res;

	if (owner == dev) {
		*out = handle;
		return gem_ref_get(dev, handle);
	}
	err = kmd_prime_export(owner->fd, handle, &dmabuf);
	if (err)
		return result_from_errno(err);
	/* The peer object holds the exporter's object: the fd may go. */
	err = kmd_prime_import(dev->fd, dmabuf, out);
	close(dmabuf);
	if (err)
		return result_from_errno(err);
	res = gem_ref_get(dev, *out);
	/* Counting fails only for a handle nobody else counted: ours. */
	if (res != CUDA_SUCCESS)
		kmd_bo_close(dev->fd, *out);
	return res;
}
