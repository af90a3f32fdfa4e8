/* SPDX-License-Identifier: MIT */
/*
 * The PTX path's public interface, as libcuda and the host harness use it:
 * build a program from PTX texts (parse, link, lower to the IR), place its
 * variables, look up kernels, and run CTAs of a launch on the calling
 * thread. Nothing here knows about the DRM device: memory is plain process
 * memory, and device memory is process memory at its GPU virtual address.
 */
#ifndef VCUDA_PTX_H
#define VCUDA_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_program;
struct ptx_kernel;
struct ptx_worker;

enum ptx_status {
	PTX_OK = 0,
	PTX_ERR_SYNTAX,		/* bad PTX; the log says file:line:col */
	PTX_ERR_LINK,		/* unresolved or duplicate symbol */
	PTX_ERR_UNSUPPORTED,	/* valid PTX this executor lacks; log names it */
	PTX_ERR_NO_MEMORY,
	PTX_ERR_INVALID,	/* bad argument */
};

/* One PTX text to build from; @name is used in error messages. */
struct ptx_source {
	const char *text;
	size_t len;
	const char *name;
};

/*
 * Parses, links and lowers @count sources into one program (several
 * sources are linked as nvlink would: .extern resolved against .visible,
 * .weak overridden). On failure returns an error and writes a
 * human-readable message to @log (NUL-terminated, truncated to @log_len).
 */
enum ptx_status ptx_program_build(const struct ptx_source *sources,
				  size_t count, struct ptx_program **out,
				  char *log, size_t log_len);

void ptx_program_destroy(struct ptx_program *prog);

/* State space of a module-scope variable that needs device storage. */
enum ptx_var_space {
	PTX_VAR_GLOBAL,
	PTX_VAR_CONST,
};

/*
 * Allocator for module variables: returns the address (host pointer, equal
 * to the device address) of @size zeroed bytes aligned to @align, or NULL.
 */
typedef void *(*ptx_alloc_fn)(void *user, size_t size, size_t align,
			      enum ptx_var_space space);

/*
 * Gives every .global and .const variable of the program storage from
 * @alloc and writes its initial value (address-of initialisers included).
 * Must be called once before any launch.
 */
enum ptx_status ptx_program_place_variables(struct ptx_program *prog,
					    ptx_alloc_fn alloc, void *user,
					    char *log, size_t log_len);

/* Address and size of a placed variable, for cuModuleGetGlobal. */
bool ptx_program_variable(const struct ptx_program *prog, const char *name,
			  uint64_t *addr, size_t *size);

/* Entry (.entry) by its mangled name, or NULL. */
const struct ptx_kernel *ptx_program_kernel(const struct ptx_program *prog,
					    const char *name);

struct ptx_param_info {
	uint32_t offset;	/* in the packed parameter buffer */
	uint32_t size;
	uint32_t align;
};

struct ptx_kernel_info {
	const char *name;
	uint32_t param_count;
	const struct ptx_param_info *params;
	uint32_t param_size;		/* bytes of the packed buffer */
	uint32_t static_shared_size;	/* bytes of .shared variables */
	uint32_t local_size;		/* bytes of .local per thread */
	uint32_t max_threads;		/* from .maxntid / .reqntid, or 0 */
	uint32_t reqntid[3];		/* 0 when not required */
	uint32_t num_regs;		/* registers per thread, estimated */
};

void ptx_kernel_get_info(const struct ptx_kernel *kernel,
			 struct ptx_kernel_info *info);

/* A readable or writable range of memory kernels may access. */
struct ptx_mem_range {
	uint64_t start;
	uint64_t end;		/* exclusive */
	bool writable;
};

/* One launch of one kernel; the same record is shared by all workers. */
struct ptx_launch {
	const struct ptx_kernel *kernel;
	uint32_t grid[3];
	uint32_t block[3];
	uint32_t dynamic_shared_size;
	const void *params;		/* packed as ptx_kernel_info::params */
	/*
	 * Global memory the kernel may touch, sorted by start and disjoint;
	 * an access outside them faults the launch. NULL means unchecked
	 * (host harness with its own buffers).
	 */
	const struct ptx_mem_range *ranges;
	size_t range_count;
};

enum ptx_fault_kind {
	PTX_FAULT_NONE = 0,
	PTX_FAULT_UNMAPPED,		/* outside every range */
	PTX_FAULT_READ_ONLY,		/* write to a read-only range */
	PTX_FAULT_MISALIGNED,
	PTX_FAULT_TRAP,
	PTX_FAULT_ASSERT,
	PTX_FAULT_ILLEGAL_INSTRUCTION,
};

struct ptx_fault {
	enum ptx_fault_kind kind;
	uint64_t addr;
	uint32_t cta[3];
	uint32_t thread[3];
	char message[256];
};

/* Per-thread execution state (register files, shared and local memory). */
struct ptx_worker *ptx_worker_create(void);
void ptx_worker_destroy(struct ptx_worker *worker);

/*
 * Runs CTAs [@first, @first + @count) of @launch, in linear CTA order
 * (x fastest), on the calling thread. Returns true when they all ran;
 * false with @fault filled when one faulted (the remaining ones of the
 * range are not run).
 */
bool ptx_run_ctas(struct ptx_worker *worker, const struct ptx_launch *launch,
		  uint64_t first, uint64_t count, struct ptx_fault *fault);

/*
 * Where device printf output goes (vprintf): @fn receives each thread's
 * formatted text. NULL restores the default, stdout. Process-wide.
 */
typedef void (*ptx_print_fn)(void *user, const char *text, size_t len);
void ptx_set_print_handler(ptx_print_fn fn, void *user);

#endif
