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

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_program;
struct ptx_kernel;
struct ptx_worker;
struct ptx_heap;
struct ptx_printf_fifo;

enum ptx_status {
	PTX_OK = 0,
	PTX_ERR_SYNTAX,		/* bad PTX; the log says file:line:col */
	PTX_ERR_LINK,		/* unresolved or duplicate symbol */
	PTX_ERR_UNSUPPORTED,	/* valid PTX this executor lacks; log names it */
	PTX_ERR_NO_MEMORY,
	PTX_ERR_INVALID,	/* bad argument */
	PTX_ERR_DEVSIDE_SYNC,	/* calls cudaDeviceSynchronize (CDP1) */
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

/*
 * Parses @source alone, as CUDA compiles each PTX input of a link when
 * it is added: PTX_ERR_SYNTAX (message in @log) for text that no link
 * could make valid. Symbols it leaves to other inputs are not looked up.
 */
enum ptx_status ptx_source_check(const struct ptx_source *source, char *log,
				 size_t log_len);

void ptx_program_destroy(struct ptx_program *prog);

/* State space of a module-scope variable that needs device storage. */
enum ptx_var_space {
	PTX_VAR_GLOBAL,
	PTX_VAR_CONST,
	PTX_VAR_MANAGED,	/* .global .attribute(.managed): __managed__ */
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

/* The @index-th entry (.entry) of the program, in no set order, or NULL
 * past the last. */
const struct ptx_kernel *ptx_program_kernel_at(const struct ptx_program *prog,
					       size_t index);

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
	uint32_t const_size;		/* bytes of the program's .const bank */
	uint32_t local_size;		/* bytes of .local per thread */
	uint32_t max_threads;		/* from .maxntid / .reqntid, or 0 */
	uint32_t reqntid[3];		/* 0 when not required */
	uint32_t num_regs;		/* registers per thread, estimated */
	uint32_t ptx_arch;		/* .target sm_XX of its module: 75 */
};

void ptx_kernel_get_info(const struct ptx_kernel *kernel,
			 struct ptx_kernel_info *info);

/*
 * Has @kernel compiled for the JIT if that has not been asked yet
 * (otherwise its first ptx_run_ctas does). The driver calls it when a
 * launch is submitted: it compiles the kernel before it returns, so that
 * compile time is not run time of the launch (nor counted against the
 * job's time-out). Under VCUDA_JIT_ASYNC=1 it only starts the compile:
 * until the code is ready the kernel's CTAs run on the interpreter.
 */
void ptx_kernel_prepare(const struct ptx_kernel *kernel);
/* The same for a launch of blocks of @block threads: the first such
 * call (or launch) before the compile picks the JIT's vector width. */
void ptx_kernel_prepare_for(const struct ptx_kernel *kernel,
			    const uint32_t block[3]);
/*
 * Compiles @kernel for the JIT now, or waits for its compile under way;
 * true when it runs compiled code, false when it runs on the interpreter
 * (VCUDA_EXECUTOR=interp, or the JIT cannot compile it). A kernel that
 * may wait for other threads runs compiled in cooperative launches only.
 */
bool ptx_kernel_compile(const struct ptx_kernel *kernel);

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

	/*
	 * ---- Fields added later (zero keeps the earlier behaviour) ----
	 * See "Launch extensions" below for what each one means.
	 */
	uint32_t flags;			/* PTX_LAUNCH_* */
	uint32_t envreg[32];		/* %envreg0 .. %envreg31 */
	struct ptx_heap *heap;		/* device malloc/free, or NULL */
	struct ptx_printf_fifo *printf_fifo;	/* vprintf, or NULL */
	uint32_t sm_count;		/* %nsmid; 0 reads as 1 */
	/*
	 * Stops the launch once set, from any thread: each CTA stops where
	 * its warps next switch (a barrier, an exit, a yield, or every
	 * BRANCH_BUDGET taken backward branches, so even an endless loop),
	 * and ptx_run_ctas() returns false with a PTX_FAULT_KILLED fault.
	 * NULL: the launch runs to its end.
	 */
	const atomic_bool *kill;
	/*
	 * The grid's place in its launch tree (dynamic parallelism, below):
	 * where its device-side launches go. NULL: they fail with
	 * cudaErrorNotSupported.
	 */
	struct ptx_cdp_grid *cdp;
};

enum ptx_fault_kind {
	PTX_FAULT_NONE = 0,
	PTX_FAULT_UNMAPPED,		/* outside every range */
	PTX_FAULT_READ_ONLY,		/* write to a read-only range */
	PTX_FAULT_MISALIGNED,
	PTX_FAULT_TRAP,
	PTX_FAULT_ASSERT,
	PTX_FAULT_ILLEGAL_INSTRUCTION,
	PTX_FAULT_KILLED,		/* stopped through ptx_launch.kill */
	/* the host had no memory for the launch's CTAs or fibers */
	PTX_FAULT_OUT_OF_RESOURCES,
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

/* ======================================================================
 * Launch extensions, device heap, printf FIFO, textures and surfaces.
 * Added for the executor's runtime inputs; the driver implements the API
 * side as each block describes.
 * ====================================================================== */

/* ---- launch flags (ptx_launch.flags) ---- */

/*
 * A cooperative launch (cuLaunchCooperativeKernel): every CTA of the
 * grid is resident at once, so that grid-wide barriers can complete.
 * With this flag, ptx_run_ctas(worker, launch, first, count, fault)
 * makes all @count CTAs resident on the calling thread and interleaves
 * them (a warp that spins, sleeps or waits lets the others run), instead
 * of running them one after the other. The driver must therefore:
 *  - reject grids larger than (CTAs per SM at the occupancy the device
 *    reports) x (worker threads), as CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
 *  - give every worker thread its share of the grid in ONE call, and
 *    make all those calls run at the same time (each worker its own
 *    range, e.g. ceil(total / workers) CTAs each; no worker may take two
 *    ranges of the same cooperative grid, and no other launch may hold
 *    a worker until the cooperative one has all of them);
 *  - point %envreg1:%envreg2 at the grid workspace (below).
 * Without the flag, CTAs of a range still run one at a time.
 */
#define PTX_LAUNCH_COOPERATIVE 0x1u

/*
 * The grid workspace of a cooperative launch, in device memory (inside a
 * range of the launch), as CUDA's cooperative_groups reads it: envreg[1]
 * holds the HIGH 32 bits of its address and envreg[2] the LOW 32 bits
 * (cooperative_groups::details::get_grid_workspace()). @barrier must
 * start at any value every CTA agrees on (zero when allocated) and may
 * be reused by later cooperative launches one at a time; grid.sync()
 * flips its top bit once per barrier. Other %envreg values read as the
 * launch sets them (zero by default).
 */
struct ptx_grid_workspace {
	uint32_t size;		/* sizeof(struct ptx_grid_workspace) */
	uint32_t barrier;
};

/* %smid of the CTAs a worker runs (its index in the SM pool); 0 by
 * default. */
void ptx_worker_set_smid(struct ptx_worker *worker, uint32_t smid);

/* ---- device heap: malloc and free in kernels ---- */

/*
 * The heap of a context: allocations persist across launches until the
 * kernel frees them (or the context goes). The driver allocates @size
 * bytes of device memory (cudaLimitMallocHeapSize, 8 MiB by default,
 * fixed once the first kernel using malloc has launched, as in CUDA),
 * includes it in the ranges of every launch, and points
 * ptx_launch.heap at the result of ptx_heap_create. Blocks are 16-byte
 * aligned; malloc returns NULL when the heap is exhausted; free(NULL) is
 * a no-op; freeing anything else not returned by malloc faults the
 * launch. The allocator's bookkeeping lives outside [base, base + size),
 * so kernels that overrun a block cannot corrupt it. Thread-safe.
 * A launch with heap == NULL gets NULL from every malloc.
 */
struct ptx_heap *ptx_heap_create(void *base, size_t size);
void ptx_heap_destroy(struct ptx_heap *heap);
/* Bytes currently allocated (for tests and diagnostics). */
size_t ptx_heap_used(const struct ptx_heap *heap);

/* ---- printf FIFO ---- */

/*
 * Device printf output of a context, as CUDA buffers it: each vprintf
 * call appends one record (formatted when the kernel calls printf, so
 * %s arguments are read at that time), in the order the calls execute;
 * nothing is printed until the driver flushes. Capacity @size is
 * cudaLimitPrintfFifoSize; the buffer is circular, as CUDA documents: a
 * record that does not fit in what is left overwrites the oldest ones
 * (counted), so a flush prints the newest output that fits.
 * cuCtxSetLimit must round the size as the driver does: an H100 (driver
 * 580) reports 524288 from cuCtxGetLimit after being asked for 8192, so
 * the effective size is max(requested, 512 KiB) (libcuda/limits.c).
 * The driver creates one per context, points ptx_launch.printf_fifo at
 * it, and calls ptx_printf_fifo_flush at the points CUDA documents:
 * cudaDeviceSynchronize/cuCtxSynchronize, cudaStreamSynchronize/
 * cuStreamSynchronize, cudaEventSynchronize/cuEventSynchronize, blocking
 * memory copies (cudaMemcpy and cuMemcpy calls without Async), cuModuleLoad and
 * cuModuleUnload, context destruction (cudaDeviceReset/cuCtxDestroy),
 * before a stream callback runs, and at the start of each kernel launch
 * (what is left from earlier launches comes out first). Flushing writes
 * the records through @fn (NULL: stdout; called with the FIFO's lock
 * held, so it must not call back into the FIFO) and empties the FIFO;
 * it is thread-safe against running kernels. With printf_fifo == NULL,
 * vprintf writes through ptx_set_print_handler at once (the host
 * harness).
 */
struct ptx_printf_fifo *ptx_printf_fifo_create(size_t size);
void ptx_printf_fifo_destroy(struct ptx_printf_fifo *fifo);
/* Returns the number of records overwritten since the last flush. */
size_t ptx_printf_fifo_flush(struct ptx_printf_fifo *fifo, ptx_print_fn fn,
			     void *user);

/* ---- textures and surfaces ---- */

/* Texel formats: the values of CUarray_format (cuda.h), so that the
 * driver API can pass them through. */
enum ptx_tex_format {
	PTX_FMT_U8 = 0x01,
	PTX_FMT_U16 = 0x02,
	PTX_FMT_U32 = 0x03,
	PTX_FMT_S8 = 0x08,
	PTX_FMT_S16 = 0x09,
	PTX_FMT_S32 = 0x0a,
	PTX_FMT_F16 = 0x10,
	PTX_FMT_F32 = 0x20,
};

/* Shape of the resource (what tex.1d/2d/3d/a1d/a2d/cube/acube read). */
enum ptx_tex_shape {
	PTX_TEX_1D,		/* width */
	PTX_TEX_2D,		/* width x height */
	PTX_TEX_3D,		/* width x height x depth */
	PTX_TEX_1D_LAYERED,	/* width, @layers layers */
	PTX_TEX_2D_LAYERED,	/* width x height, @layers layers */
	PTX_TEX_CUBE,		/* 6 faces of width x width */
	PTX_TEX_CUBE_LAYERED,	/* @layers cubes: 6 * layers faces */
};

/* cudaTextureAddressMode / CUaddress_mode values. */
enum ptx_tex_address {
	PTX_ADDR_WRAP = 0,
	PTX_ADDR_CLAMP = 1,
	PTX_ADDR_MIRROR = 2,
	PTX_ADDR_BORDER = 3,
};

/* cudaTextureFilterMode / CUfilter_mode values. */
enum ptx_tex_filter {
	PTX_FILTER_POINT = 0,
	PTX_FILTER_LINEAR = 1,
};

#define PTX_TEX_MAX_LEVELS 16

/* One mipmap level's texels (level 0 is the texture itself). */
struct ptx_tex_level {
	const void *data;	/* texel (0,0,0) of the first layer/face */
	uint64_t pitch;		/* bytes from one row to the next */
	uint64_t slice_pitch;	/* bytes from one 2D slice (depth, layer or
				 * face) to the next; 0 for 1D/2D */
};

/*
 * What a texture or surface object reads: the resource (memory, format
 * and shape) and, for textures, how it is sampled (cudaTextureDesc).
 *
 * Memory layout: texels are packed (channels x channel bytes each) along
 * a row; rows are @pitch bytes apart; 2D slices (the z of a 3D texture,
 * the layers of a layered one, the faces of a cubemap: +X, -X, +Y, -Y,
 * +Z, -Z, then the next cube of a layered cubemap) are @slice_pitch
 * bytes apart. A CUDA array is whatever layout the driver picks for it,
 * described this way; linear memory (cudaResourceTypeLinear) is a 1D
 * texture of width = size / texel bytes; pitched memory is 2D.
 * Mipmapped arrays fill levels[0 .. num_levels); level i is
 * max(1, width >> i) x max(1, height >> i) x max(1, depth >> i).
 */
struct ptx_texture_desc {
	/* resource */
	uint32_t format;		/* enum ptx_tex_format */
	uint32_t channels;		/* 1, 2 or 4 */
	uint32_t shape;			/* enum ptx_tex_shape */
	uint32_t width, height, depth;	/* in texels; unused ones 1 */
	uint32_t layers;		/* layered shapes; else 1 */
	uint32_t num_levels;		/* 1, or a mipmapped array's levels */
	struct ptx_tex_level levels[PTX_TEX_MAX_LEVELS];
	bool linear_memory;		/* cudaResourceTypeLinear: tex1Dfetch */
	/* sampling (textures only; surfaces ignore it) */
	uint8_t address_mode[3];	/* enum ptx_tex_address, x, y, z */
	uint8_t filter_mode;		/* enum ptx_tex_filter */
	uint8_t mipmap_filter_mode;	/* enum ptx_tex_filter */
	bool read_normalized_float;	/* cudaReadModeNormalizedFloat */
	bool normalized_coords;
	bool srgb;
	bool disable_trilinear_optimization;
	float border_color[4];
	float mipmap_level_bias;
	float min_mipmap_level_clamp, max_mipmap_level_clamp;
	uint32_t max_anisotropy;
};

/*
 * Texture and surface objects. A handle is the 64-bit value a kernel
 * receives as a cudaTextureObject_t / cudaSurfaceObject_t parameter;
 * the executor keeps the descriptor (copied) in a process-wide table, so
 * any value a kernel passes is checked: an unknown, destroyed or
 * wrong-kind handle faults the launch instead of being dereferenced.
 * Handles are never 0. The texel memory must stay valid while the object
 * exists (the driver destroys objects before freeing their arrays, or
 * reports the array busy). Thread-safe. Create returns 0 on a bad
 * descriptor or when out of memory.
 */
uint64_t ptx_texture_create(const struct ptx_texture_desc *desc);
uint64_t ptx_surface_create(const struct ptx_texture_desc *desc);
/* Destroys either kind; false if @handle is not a live object. */
bool ptx_texobj_destroy(uint64_t handle);
/* The descriptor of a live object (cuTexObjectGetResourceDesc, ...). */
bool ptx_texobj_get(uint64_t handle, struct ptx_texture_desc *desc);

/* ---- dynamic parallelism: launches from the device (CDP2) ---- */

/*
 * What the device runtime answers that only the driver knows. The
 * limits are the context's when the host launch is run.
 */
struct ptx_cdp_config {
	uint32_t pending_limit;		/* cudaLimitDevRuntimePendingLaunchCount */
	uint64_t stack_size;		/* cudaLimitStackSize */
	uint64_t printf_fifo_size;	/* cudaLimitPrintfFifoSize */
	uint64_t heap_size;		/* cudaLimitMallocHeapSize */
	uint32_t max_threads;		/* per block */
	uint32_t max_block[3];
	uint32_t max_grid[3];
	uint32_t max_shared;		/* shared memory per block, bytes */
	int device;			/* cudaGetDevice */
	int device_count;		/* cudaGetDeviceCount */
};

/*
 * Whether @kernel's program calls the device runtime (launches, device
 * streams and events, their errors): only its launches need a tree.
 */
bool ptx_kernel_uses_cdp(const struct ptx_kernel *kernel);

/*
 * Makes @launch (a host launch) the root of a launch tree: its kernels'
 * <<<>>> launches are recorded in the tree (copies of @config and of
 * the launch's ranges, heap, printf FIFO and kill flag go to every
 * child), and sets launch->cdp. NULL when out of memory.
 */
struct ptx_cdp_grid *ptx_cdp_root(struct ptx_launch *launch,
				  const struct ptx_cdp_config *config);

/* Runs one grid's CTAs (all of them) on the caller's SMs. */
typedef bool (*ptx_cdp_run_fn)(void *user, const struct ptx_launch *launch,
			       struct ptx_fault *fault);

/*
 * Called once the root grid's CTAs have run (@root_ok: without a fault):
 * runs every grid the tree's kernels launched, in an order CUDA allows
 * (each grid's children in launch order, each with all its descendants,
 * then its tail launches in order), each through @run, and frees the
 * tree. The first fault stops the tree; true when everything ran.
 */
bool ptx_cdp_finish(struct ptx_cdp_grid *root, bool root_ok,
		    ptx_cdp_run_fn run, void *user, struct ptx_fault *fault);

#endif
