/* SPDX-License-Identifier: MIT */
/*
 * Peer access between contexts of different devices: once a context has
 * access to a peer context, every allocation of the peer, those made
 * before and those made after, is bound in its address space at the
 * address it has in the peer (see binding.h).
 */
#ifndef VCUDA_PEER_H
#define VCUDA_PEER_H

#include <stdbool.h>

#include <cuda.h>

struct CUctx_st;
struct vc_alloc;

/* Hooks of allocation and release in a context (memory.c). */
void peer_alloc_added(const struct vc_alloc *alloc);
void peer_alloc_removed(const struct vc_alloc *alloc);

/* Whether two devices can reach each other's memory. */
bool peer_devices_can_access(int dev, int peer);

#endif
