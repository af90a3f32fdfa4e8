/* SPDX-License-Identifier: MIT */
/*
 * libcudart internals shared by the files that implement runtime API
 * entry points. The runtime is a thin layer over libcuda: it owns the
 * per-thread current device and last error, binds each thread to its
 * device's primary context, and turns registered host functions into
 * kernels of lazily loaded modules.
 */
#ifndef VCUDA_RT_H
#define VCUDA_RT_H

#include <stdbool.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

/* Marks a definition as part of libcudart.so.13's ABI. */
#define CUDART_EXPORT __attribute__((visibility("default")))

#define RT_MAX_DEVICES 64

/* The runtime error for a driver result. */
cudaError_t rt_error(CUresult res);

/*
 * Records @err as the thread's last error (unless it is cudaSuccess) and
 * returns it: every entry point returns through this.
 */
cudaError_t rt_return(cudaError_t err);

/* Initialises the driver once; the runtime error if that failed. */
cudaError_t rt_init(void);

/*
 * Returns the context runtime calls work in: one the driver API made
 * current, or else the calling thread's device's primary context, made
 * current (and retained on first use in the process).
 */
cudaError_t rt_enter(CUcontext *ctx);

/*
 * The prologue of an entry point that works in a context: rt_enter(), or
 * return its error through rt_return(). RT_ENTER_CTX() also gives the
 * context to the caller, through @ctx (a CUcontext *).
 */
#define RT_ENTER_CTX(ctx)						\
	do {								\
		cudaError_t enter_err_ = rt_enter(ctx);			\
									\
		if (enter_err_ != cudaSuccess)				\
			return rt_return(enter_err_);			\
	} while (0)

#define RT_ENTER()							\
	do {								\
		CUcontext enter_ctx_;					\
									\
		RT_ENTER_CTX(&enter_ctx_);				\
	} while (0)

/* An entry point that is one driver call made in the context. */
#define RT_CALL(call)							\
	do {								\
		RT_ENTER();						\
		return rt_return(rt_error(call));			\
	} while (0)

/* Whether the current context is the thread's device's primary one. */
bool rt_current_is_primary(void);

/*
 * @device's primary context, retained by the runtime on first use,
 * without making it current (cudaErrorInvalidDevice for a bad ordinal).
 */
cudaError_t rt_primary(int device, CUcontext *ctx);

/* The calling thread's current device ordinal. */
int rt_current_device(void);

/* Releases state bound to @device's primary context (cudaDeviceReset). */
void rt_forget_device(int device);

/* Module of the registered image @fatbin on @device, loaded on demand. */
struct rt_fatbin;
cudaError_t rt_fatbin_module(struct rt_fatbin *fatbin, int device,
			     CUmodule *module);

/* Bytes of one element of @array (texture.c); 0 for a bad array. */
size_t rt_array_element_bytes(cudaArray_t array);

/* The driver's CUDA_MEMCPY3D for runtime 3D copy parameters. */
struct cudaMemcpy3DParms;
cudaError_t rt_memcpy3d_params(const struct cudaMemcpy3DParms *p,
			       CUDA_MEMCPY3D *d);

/* Memory types of a copy's sides for a runtime copy direction. */
cudaError_t rt_memory_types(enum cudaMemcpyKind kind, CUmemorytype *src,
			 CUmemorytype *dst);

/* Drops modules and functions of @device (its context was reset). */
void rt_fatbins_forget_device(int device);

#endif
