/* SPDX-License-Identifier: MIT */
/*
 * Contexts: one kernel context (and so one GPU address space) each, with
 * its streams, its compute workers and its sticky error.
 */
#ifndef VCUDA_CONTEXT_H
#define VCUDA_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <cuda.h>

#include "device.h"

struct sm_pool;
struct range_snapshot;
struct slot_page;
struct ptx_printf_fifo;
struct ptx_heap;
struct foreign_binding;

#define CTX_DISPATCHERS 2
/* Size of CUlimit's range (CU_LIMIT_MAX). */
#define CTX_LIMITS CU_LIMIT_MAX

struct CUctx_st {
	struct vc_device *dev;
	uint32_t ctx_id;		/* the kernel's context */
	unsigned int flags;
	int is_primary;

	pthread_mutex_t lock;		/* streams list, range snapshot */
	struct CUstream_st *streams;	/* every stream, for synchronize */
	struct CUstream_st *null_stream;
	/*
	 * Streams made and not yet released (stream.c, under @lock): those
	 * destroyed may live on while another thread holds them, and the
	 * context's teardown waits for them (@streams_released).
	 */
	unsigned int streams_alive;
	pthread_cond_t streams_released;

	/* Compute engine side: threads that take launches, and the SMs. */
	struct sm_pool *pool;
	pthread_t dispatchers[CTX_DISPATCHERS];
	int ndispatchers;
	/*
	 * Stops every running launch (ptx_launch.kill): set once the
	 * context has faulted (a time-out included) or is being destroyed,
	 * so that no kernel runs on for a job that has already ended.
	 */
	atomic_bool kill;
	/* Launches dispatchers are running, under @running_lock. */
	pthread_mutex_t running_lock;
	pthread_cond_t running_changed;	/* @running or @watchdog_stop did */
	unsigned int running;
	/* Looks for the kernel's fault while launches run (compute.c). */
	pthread_t watchdog;
	bool watchdog_started;
	bool watchdog_stop;		/* under @running_lock */

	/* The allocations a kernel of this context may touch. */
	struct range_snapshot *ranges;
	uint64_t ranges_generation;
	uint64_t ranges_foreign_generation;

	/* Memory of others bound here (binding.c), under @lock. */
	struct foreign_binding *foreign;
	size_t nforeign, foreign_cap;
	uint64_t foreign_generation;

	/* Peer access (peer.c), under peer.c's lock. */
	struct CUctx_st **peers;	/* contexts whose memory we may use */
	size_t npeers;
	struct CUctx_st **peer_users;	/* contexts that may use ours */
	size_t npeer_users;

	/* Loaded modules, unloaded with the context. */
	struct CUmod_st *modules;

	/* Device-visible 8-byte slots (slots.c). */
	pthread_mutex_t slots_lock;
	struct slot_page *slots;

	/* Host callbacks not yet finished (callback.c). */
	pthread_mutex_t callbacks_lock;
	pthread_cond_t callbacks_done;
	unsigned int callbacks_running;

	/* cuCtxSetLimit values, by CUlimit (limits.c). */
	size_t limits[CTX_LIMITS];

	/* Device printf buffer and malloc heap, made at the first launch. */
	struct ptx_printf_fifo *printf_fifo;
	struct ptx_heap *heap;

	/* First error that poisoned the context (CUDA_SUCCESS if none). */
	_Atomic CUresult sticky;
	char fault_message[320];
};

/*
 * @dev's primary context, created (not retained) if it does not exist:
 * NVIDIA's runtime asks for it before its first retain, and libraries
 * load into it when no context is current.
 */
CUresult ctx_primary_unretained(CUdevice dev, struct CUctx_st **out);

/* Creates a context on @dev: its kernel context, then every hook's init. */
CUresult ctx_create(struct vc_device *dev, unsigned int flags, int primary,
		    struct CUctx_st **out);
/* Synchronizes @ctx, unwinds its hooks and frees it (context_life.c). */
void ctx_destroy(struct CUctx_st *ctx);

/* Whether @ctx is a context that exists (not destroyed). */
bool ctx_is_live(struct CUctx_st *ctx);
/* Calls @fn for every live context, with the list locked (devmap.c). */
void ctx_for_each_live(void (*fn)(struct CUctx_st *ctx, void *arg), void *arg);

/* The calling thread's current context, or NULL. */
struct CUctx_st *ctx_current(void);

/* Pushes @ctx on this thread's stack (CUDA_ERROR_OUT_OF_MEMORY if full). */
CUresult ctx_push(struct CUctx_st *ctx);
/* A destroyed @ctx leaves this thread's stack (its slots become NULL). */
void ctx_stack_forget(struct CUctx_st *ctx);
/* Pops the top of the stack if a destroyed context left it NULL. */
void ctx_stack_drop_forgotten(void);

/*
 * Prologue of most API calls: the current context, or an error (not
 * initialised, no context, or the context's sticky error).
 */
CUresult ctx_enter(struct CUctx_st **ctx);

/*
 * Waits for all work of all streams; returns the sticky error if any
 * (stream.c, which owns the streams).
 */
CUresult ctx_synchronize(struct CUctx_st *ctx);

/* Reads the kernel's fault state into the sticky error; returns it. */
CUresult ctx_check_fault(struct CUctx_st *ctx);

/* Records the first fault of the context, with a message for VCUDA_DEBUG. */
void ctx_set_fault(struct CUctx_st *ctx, CUresult error, const char *message);

/* The CUresult a kernel fault kind becomes. */
CUresult fault_kind_result(uint32_t fault_kind);

#endif
