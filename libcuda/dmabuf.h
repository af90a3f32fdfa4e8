/* SPDX-License-Identifier: MIT */
/*
 * dma-buf file descriptors as CUDA's POSIX shareable handles (VMM
 * allocations, memory pools). A dma-buf does not say which vcuda device
 * exported it, and an importer needs to know (it is the allocation's
 * location): the exporter names the dma-buf after its device with
 * DMA_BUF_SET_NAME, which any holder of the fd reads in its fdinfo.
 */
#ifndef VCUDA_DMABUF_H
#define VCUDA_DMABUF_H

#include <stdint.h>

#include <cuda.h>

struct vc_device;

/* A named dma-buf fd for object @bo of @dev. */
CUresult dmabuf_export(struct vc_device *dev, uint32_t bo, int *fd);
/* The device that exported @fd, or NULL if it is no named vcuda dma-buf. */
struct vc_device *dmabuf_device(int fd);
/* Size of the dma-buf, or 0 if @fd is none. */
uint64_t dmabuf_size(int fd);

#endif
