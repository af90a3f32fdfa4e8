/* SPDX-License-Identifier: MIT */
/*
 * What nvcc-generated host code registers at start-up: device images
 * (fatbins), their kernels by host stub address, and their variables by
 * host shadow address. Modules are loaded per device on first use.
 */
#ifndef VCUDA_RT_REGISTER_H
#define VCUDA_RT_REGISTER_H

#include <pthread.h>
#include <stddef.h>

#include "rt.h"

struct rt_fatbin {
	const void *image;		/* the registration wrapper */
	pthread_mutex_t lock;		/* modules */
	CUmodule modules[RT_MAX_DEVICES];
	struct rt_fatbin *next;
};

/* What a cudaKernel_t points to. */
struct rt_function {
	struct rt_fatbin *fatbin;
	const void *host_fun;
	const char *device_name;
	CUfunction functions[RT_MAX_DEVICES];
	struct rt_function *next;	/* hash chain */
};

struct rt_variable {
	struct rt_fatbin *fatbin;
	const void *host_var;
	const char *device_name;
	size_t size;
	/* __managed__: where host code reads the variable's address. */
	void **managed_ptr;
	struct rt_variable *next;	/* hash chain */
};

/* The kernel registered for host stub @host_fun, or NULL. */
struct rt_function *rt_function_find(const void *host_fun);
/* The variable registered for host shadow @host_var, or NULL. */
struct rt_variable *rt_variable_find(const void *host_var);

/* The host stub of a device function the runtime looked up, or NULL. */
const void *rt_function_stub(CUfunction f);

/* The device function of @fn on the current device, loading on demand. */
cudaError_t rt_function_get(struct rt_function *fn, CUfunction *out);

/* The driver's kernel node parameters for the runtime's (graph.c). */
cudaError_t rt_kernel_node_params(const struct cudaKernelNodeParams *p,
				  CUDA_KERNEL_NODE_PARAMS *d);

#endif
