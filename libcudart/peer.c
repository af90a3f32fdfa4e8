// SPDX-License-Identifier: MIT
/*
 * Peer access and peer copies in the runtime: a device's peer access is
 * its primary context's access to the other device's primary context.
 */
#include <stdint.h>

#include "rt.h"

CUDART_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peer,
						     unsigned int flags)
{
	CUcontext peer_ctx;
	cudaError_t err;

	RT_ENTER();
	err = rt_primary(peer, &peer_ctx);
	if (err == cudaSuccess && flags)
		err = cudaErrorInvalidValue;
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuCtxEnablePeerAccess(peer_ctx, 0)));
}

CUDART_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peer)
{
	CUcontext peer_ctx;
	cudaError_t err;

	RT_ENTER();
	err = rt_primary(peer, &peer_ctx);
	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuCtxDisablePeerAccess(peer_ctx)));
}

CUDART_EXPORT cudaError_t cudaDeviceGetP2PAttribute(int *value,
						    enum cudaDeviceP2PAttr attr,
						    int src, int dst)
{
	cudaError_t err = rt_init();

	if (err != cudaSuccess)
		return rt_return(err);
	/* cudaDevP2PAttr* and CU_DEVICE_P2P_ATTRIBUTE_* share their values. */
	return rt_return(rt_error(cuDeviceGetP2PAttribute(
		value, (CUdevice_P2PAttribute)attr, src, dst)));
}

/* The primary contexts of a copy's two devices. */
static cudaError_t peer_contexts(int dst_dev, CUcontext *dst, int src_dev,
				 CUcontext *src)
{
	cudaError_t err;

	RT_ENTER();
	err = rt_primary(dst_dev, dst);
	if (err == cudaSuccess)
		err = rt_primary(src_dev, src);
	return err;
}

CUDART_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dst_dev,
					 const void *src, int src_dev,
					 size_t count)
{
	CUcontext dc, sc;
	cudaError_t err = peer_contexts(dst_dev, &dc, src_dev, &sc);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuMemcpyPeer((uintptr_t)dst, dc,
					       (uintptr_t)src, sc, count)));
}

CUDART_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_dev,
					      const void *src, int src_dev,
					      size_t count, cudaStream_t stream)
{
	CUcontext dc, sc;
	cudaError_t err = peer_contexts(dst_dev, &dc, src_dev, &sc);

	if (err != cudaSuccess)
		return rt_return(err);
	return rt_return(rt_error(cuMemcpyPeerAsync((uintptr_t)dst, dc,
						    (uintptr_t)src, sc, count,
						    (CUstream)stream)));
}
