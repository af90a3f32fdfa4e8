/* SPDX-License-Identifier: MIT */
/*
 * vcuda: the ioctl interface of the vcuda virtual CUDA GPU.
 *
 * This one header is shared by the kernel module (kernel/) and userspace
 * (libcuda/, tools/, tests/). It is append-only: existing structures,
 * fields, flags and ioctl numbers never change meaning.
 */
#ifndef _VCUDA_DRM_H_
#define _VCUDA_DRM_H_

#ifdef __KERNEL__
#include <drm/drm.h>
#else
#include "drm.h"	/* libdrm's copy: pkg-config --cflags libdrm */
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: Introduction
 *
 * vcuda exposes each virtual GPU as a DRM render node whose driver name is
 * "vcuda". A process opens the render node and, through the ioctls below:
 *
 * - queries the device (&struct drm_vcuda_dev_query);
 * - creates contexts (&struct drm_vcuda_ctx_create); each context owns one
 *   GPU virtual address space covering the process's user address range,
 *   so that a buffer can live at the same address for the CPU and the GPU;
 * - creates buffer objects (&struct drm_vcuda_bo_create), maps them into the
 *   process with mmap() through the offset from
 *   &struct drm_vcuda_bo_mmap_offset, and into a context's address space
 *   with &struct drm_vcuda_vm_bind;
 * - creates queues on an engine (&struct drm_vcuda_queue_create) and submits
 *   jobs to them (&struct drm_vcuda_submit); jobs wait for and signal DRM
 *   syncobjs (binary or timeline);
 * - runs the compute engine's work in its own threads: a launch command is
 *   handed to a thread of the owning process blocked in
 *   &struct drm_vcuda_compute_wait, which runs the kernel and reports with
 *   &struct drm_vcuda_compute_done.
 *
 * Conventions, which every ioctl follows:
 *
 * - Every structure has an explicit size and natural alignment; padding is
 *   named (@pad) and must be zero, or the ioctl fails with -EINVAL.
 * - Arrays are passed as &struct drm_vcuda_obj_array, whose stride is the
 *   size of the element as userspace knows it. A kernel that knows a larger
 *   element zero-fills what userspace did not pass; a kernel that knows a
 *   smaller one requires the bytes it does not know to be zero.
 * - Unknown flags, unknown enum values and reserved bits fail with -EINVAL.
 *   An operation that is defined here but not implemented by this kernel
 *   fails with -EOPNOTSUPP, never silently.
 * - Unknown handles and IDs fail with -ENOENT; bad user pointers with
 *   -EFAULT; exhausted device memory with -ENOMEM; work on a context that
 *   has faulted with -EIO.
 * - Kernel memory is charged to the caller's memory cgroup: past its limit
 *   an ioctl fails with -ENOMEM. Per-file limits set by module parameters
 *   (contexts, queues, mappings per address space) fail with -ENOSPC;
 *   past the limit on jobs alive, SUBMIT waits for room instead, and a
 *   signal interrupts it (-EINTR).
 */

/**
 * DOC: Sharing buffers between processes and devices
 *
 * Besides IPC tokens (&struct drm_vcuda_ipc_export, one device, processes
 * of one user), buffer objects are shared as dma-bufs with the DRM core's
 * PRIME ioctls, DRM_IOCTL_PRIME_HANDLE_TO_FD and
 * DRM_IOCTL_PRIME_FD_TO_HANDLE (libdrm's drmPrimeHandleToFD() and
 * drmPrimeFDToHandle()):
 *
 * - every buffer object can be exported but those of
 *   DRM_IOCTL_VCUDA_BO_USERPTR (-EOPNOTSUPP);
 * - importing a dma-buf of the same device gives the same object (as with
 *   IPC, nothing is charged twice);
 * - importing a dma-buf of another vcuda device gives a *peer object*: an
 *   object of the importing device whose pages are the exporter's. It is
 *   mapped with DRM_IOCTL_VCUDA_VM_BIND, mmap()ed and exported like any
 *   other object, charged to neither device (the exporter's object stays
 *   charged to the exporter's VRAM for as long as a peer object uses
 *   it), and the importing device's copy engine and workers reach it
 *   through its own page tables. This is peer access: to let contexts of
 *   device B use an allocation of device A (cuCtxEnablePeerAccess()),
 *   export it from A, import it into B and bind it in B's contexts at the
 *   address it has in A;
 * - a dma-buf of another driver cannot be imported (-EOPNOTSUPP).
 */

#define DRM_VCUDA_DRIVER_NAME		"vcuda"

/* Version of this interface, also returned by DRM_IOCTL_VERSION. */
#define DRM_VCUDA_VERSION_MAJOR		1
#define DRM_VCUDA_VERSION_MINOR		0
#define DRM_VCUDA_VERSION_PATCH		0

/** @DRM_VCUDA_PAGE_SIZE: Granule of every size, offset and address. */
#define DRM_VCUDA_PAGE_SIZE		4096ULL
/** @DRM_VCUDA_LARGE_PAGE_SIZE: Large page used where bindings allow it. */
#define DRM_VCUDA_LARGE_PAGE_SIZE	(2ULL << 20)

/**
 * enum drm_vcuda_ioctl_id - ioctl numbers, relative to DRM_COMMAND_BASE.
 *
 * @DRM_VCUDA_DEV_QUERY: Query device properties.
 * @DRM_VCUDA_CTX_CREATE: Create a context and its address space.
 * @DRM_VCUDA_CTX_DESTROY: Destroy a context.
 * @DRM_VCUDA_CTX_GET_STATE: Read a context's sticky fault state.
 * @DRM_VCUDA_BO_CREATE: Create a buffer object.
 * @DRM_VCUDA_BO_USERPTR: Make a buffer object of the caller's own pages.
 * @DRM_VCUDA_BO_MMAP_OFFSET: Get the fake offset to mmap() a buffer object.
 * @DRM_VCUDA_VM_BIND: Map or unmap buffer objects in a context's address
 *	space.
 * @DRM_VCUDA_VM_TRANSLATE: Translate a GPU virtual address (for tests).
 * @DRM_VCUDA_QUEUE_CREATE: Create a queue on an engine.
 * @DRM_VCUDA_QUEUE_DESTROY: Destroy a queue.
 * @DRM_VCUDA_SUBMIT: Submit jobs to a queue.
 * @DRM_VCUDA_COMPUTE_WAIT: Take the next launch for a context's workers.
 * @DRM_VCUDA_COMPUTE_DONE: Report the end of a launch.
 * @DRM_VCUDA_IPC_EXPORT: Export a buffer object as an IPC token.
 * @DRM_VCUDA_IPC_IMPORT: Import a buffer object from an IPC token.
 * @DRM_VCUDA_DEVICE_RESET: Reset the device (CAP_SYS_ADMIN).
 */
enum drm_vcuda_ioctl_id {
	DRM_VCUDA_DEV_QUERY = 0,
	DRM_VCUDA_CTX_CREATE,
	DRM_VCUDA_CTX_DESTROY,
	DRM_VCUDA_CTX_GET_STATE,
	DRM_VCUDA_BO_CREATE,
	DRM_VCUDA_BO_USERPTR,
	DRM_VCUDA_BO_MMAP_OFFSET,
	DRM_VCUDA_VM_BIND,
	DRM_VCUDA_VM_TRANSLATE,
	DRM_VCUDA_QUEUE_CREATE,
	DRM_VCUDA_QUEUE_DESTROY,
	DRM_VCUDA_SUBMIT,
	DRM_VCUDA_COMPUTE_WAIT,
	DRM_VCUDA_COMPUTE_DONE,
	DRM_VCUDA_IPC_EXPORT,
	DRM_VCUDA_IPC_IMPORT,
	DRM_VCUDA_DEVICE_RESET,
};

/**
 * struct drm_vcuda_obj_array - An array of structures of versioned size.
 *
 * Fill it with DRM_VCUDA_OBJ_ARRAY() so that @stride is the element size
 * userspace was built with.
 */
struct drm_vcuda_obj_array {
	/** @stride: Size of one element, in bytes. */
	__u32 stride;

	/** @count: Number of elements. */
	__u32 count;

	/** @array: User pointer to the first element. */
	__u64 array;
};

#define DRM_VCUDA_OBJ_ARRAY(cnt, ptr) \
	{ .stride = sizeof((ptr)[0]), .count = (cnt), \
	  .array = (__u64)(__UINTPTR_TYPE__)(ptr) }

/**
 * enum drm_vcuda_dev_query_type - What &struct drm_vcuda_dev_query asks.
 *
 * @DRM_VCUDA_DEV_QUERY_DEVICE_INFO: &struct drm_vcuda_device_info.
 * @DRM_VCUDA_DEV_QUERY_MEMORY_INFO: &struct drm_vcuda_memory_info.
 */
enum drm_vcuda_dev_query_type {
	DRM_VCUDA_DEV_QUERY_DEVICE_INFO = 0,
	DRM_VCUDA_DEV_QUERY_MEMORY_INFO,
};

/**
 * struct drm_vcuda_dev_query - Arguments of DRM_IOCTL_VCUDA_DEV_QUERY.
 *
 * With @pointer zero, the kernel sets @size to the size of the structure
 * it knows for @type. Otherwise it copies min(@size, its size) bytes to
 * @pointer, zero-fills the rest of @size, and sets @size to the number of
 * bytes it knows. A @size above 4096 bytes (the largest element stride of
 * &struct drm_vcuda_obj_array) fails with -EINVAL and writes nothing: no
 * structure of this interface will grow that large.
 */
struct drm_vcuda_dev_query {
	/** @type: One of &enum drm_vcuda_dev_query_type. */
	__u32 type;

	/** @size: Size of the buffer at @pointer, in bytes. */
	__u32 size;

	/** @pointer: User pointer to the buffer to fill, or zero. */
	__u64 pointer;
};

/**
 * enum drm_vcuda_compute_mode - Who may create contexts on a device.
 *
 * The values are CUDA's &enum cudaComputeMode values.
 *
 * @DRM_VCUDA_COMPUTE_MODE_DEFAULT: Any process, any number of contexts.
 * @DRM_VCUDA_COMPUTE_MODE_PROHIBITED: No context may be created.
 * @DRM_VCUDA_COMPUTE_MODE_EXCLUSIVE_PROCESS: Contexts of one process only.
 */
enum drm_vcuda_compute_mode {
	DRM_VCUDA_COMPUTE_MODE_DEFAULT = 0,
	DRM_VCUDA_COMPUTE_MODE_PROHIBITED = 2,
	DRM_VCUDA_COMPUTE_MODE_EXCLUSIVE_PROCESS = 3,
};

/**
 * struct drm_vcuda_device_info - Static properties of a virtual device.
 *
 * The limits are those the device enforces and that CUDA's device
 * attributes report.
 */
struct drm_vcuda_device_info {
	/** @name: NUL-terminated marketing name. */
	char name[64];

	/** @uuid: Stable per device index and module instance. */
	__u8 uuid[16];

	/** @vram_size: Device memory, in bytes. */
	__u64 vram_size;

	/** @va_start: Lowest GPU virtual address a binding may use. */
	__u64 va_start;

	/** @va_end: One past the highest GPU virtual address. */
	__u64 va_end;

	/**
	 * @driver_version: Kernel driver version,
	 * major << 16 | minor << 8 | patch.
	 */
	__u32 driver_version;

	/** @index: Index of the device among vcuda devices. */
	__u32 index;

	/** @cc_major: Compute capability, major number. */
	__u32 cc_major;

	/** @cc_minor: Compute capability, minor number. */
	__u32 cc_minor;

	/** @sm_count: Number of streaming multiprocessors. */
	__u32 sm_count;

	/** @warp_size: Threads per warp. */
	__u32 warp_size;

	/** @max_threads_per_block: Threads per block. */
	__u32 max_threads_per_block;

	/** @max_block_dim: Block dimensions x, y, z. */
	__u32 max_block_dim[3];

	/** @max_grid_dim: Grid dimensions x, y, z. */
	__u32 max_grid_dim[3];

	/** @max_threads_per_sm: Resident threads per SM. */
	__u32 max_threads_per_sm;

	/** @max_blocks_per_sm: Resident blocks per SM. */
	__u32 max_blocks_per_sm;

	/** @regs_per_block: 32-bit registers per block. */
	__u32 regs_per_block;

	/** @regs_per_sm: 32-bit registers per SM. */
	__u32 regs_per_sm;

	/** @shared_mem_per_block: Static shared memory per block, bytes. */
	__u32 shared_mem_per_block;

	/** @shared_mem_per_block_optin: Opt-in shared memory per block. */
	__u32 shared_mem_per_block_optin;

	/** @shared_mem_per_sm: Shared memory per SM, bytes. */
	__u32 shared_mem_per_sm;

	/** @const_mem_size: Constant memory, bytes. */
	__u32 const_mem_size;

	/** @l2_cache_size: L2 cache size reported, bytes. */
	__u32 l2_cache_size;

	/** @clock_rate_khz: SM clock reported, kHz. */
	__u32 clock_rate_khz;

	/** @memory_clock_rate_khz: Memory clock reported, kHz. */
	__u32 memory_clock_rate_khz;

	/** @memory_bus_width: Memory bus width reported, bits. */
	__u32 memory_bus_width;

	/** @copy_engine_count: Copy engines (CUDA's asyncEngineCount). */
	__u32 copy_engine_count;

	/** @compute_engine_count: Compute engines. */
	__u32 compute_engine_count;

	/** @compute_mode: &enum drm_vcuda_compute_mode now in force. */
	__u32 compute_mode;

	/** @pci_domain: Virtual PCI domain shown to tools. */
	__u32 pci_domain;

	/** @pci_bus: Virtual PCI bus shown to tools. */
	__u32 pci_bus;

	/** @pci_device: Virtual PCI device shown to tools. */
	__u32 pci_device;

	/** @pad: Zero. */
	__u32 pad;
};

/**
 * struct drm_vcuda_memory_info - Device memory use now.
 */
struct drm_vcuda_memory_info {
	/** @vram_size: Device memory, in bytes. */
	__u64 vram_size;

	/** @vram_used: Device memory held by buffer objects, in bytes. */
	__u64 vram_used;

	/** @host_pinned: Host memory pinned for the device, in bytes. */
	__u64 host_pinned;
};

/**
 * struct drm_vcuda_ctx_create - Arguments of DRM_IOCTL_VCUDA_CTX_CREATE.
 *
 * A context owns an address space, queues and a sticky fault state. It may
 * only be used through the file that created it. Creation fails with
 * -EPERM when the device's compute mode forbids it, or with -EBUSY when
 * another process holds the device in exclusive-process mode.
 */
struct drm_vcuda_ctx_create {
	/** @flags: Must be zero. */
	__u32 flags;

	/** @ctx_id: Output: the new context's ID, never zero. */
	__u32 ctx_id;
};

/**
 * struct drm_vcuda_ctx_destroy - Arguments of DRM_IOCTL_VCUDA_CTX_DESTROY.
 *
 * Destroys the context's queues (their pending jobs fail with -ECANCELED),
 * wakes its workers with -ENOENT and drops its address space.
 */
struct drm_vcuda_ctx_destroy {
	/** @ctx_id: Context to destroy. */
	__u32 ctx_id;

	/** @pad: Must be zero. */
	__u32 pad;
};

/**
 * enum drm_vcuda_fault_kind - Why a context faulted.
 *
 * @DRM_VCUDA_FAULT_NONE: No fault.
 * @DRM_VCUDA_FAULT_UNMAPPED: Access to an address with no binding.
 * @DRM_VCUDA_FAULT_READ_ONLY: Write through a read-only binding.
 * @DRM_VCUDA_FAULT_MISALIGNED: Misaligned access.
 * @DRM_VCUDA_FAULT_TRAP: The kernel executed trap.
 * @DRM_VCUDA_FAULT_ASSERT: A device-side assertion failed.
 * @DRM_VCUDA_FAULT_ILLEGAL_INSTRUCTION: An instruction could not execute.
 * @DRM_VCUDA_FAULT_TIMEOUT: A job ran past the time-out.
 * @DRM_VCUDA_FAULT_RESET: The device was reset.
 * @DRM_VCUDA_FAULT_LAUNCH: The launch itself was invalid.
 * @DRM_VCUDA_FAULT_RESOURCES: The process running the launch had no host
 *	memory for its CTAs (CUDA's launch out of resources).
 */
enum drm_vcuda_fault_kind {
	DRM_VCUDA_FAULT_NONE = 0,
	DRM_VCUDA_FAULT_UNMAPPED,
	DRM_VCUDA_FAULT_READ_ONLY,
	DRM_VCUDA_FAULT_MISALIGNED,
	DRM_VCUDA_FAULT_TRAP,
	DRM_VCUDA_FAULT_ASSERT,
	DRM_VCUDA_FAULT_ILLEGAL_INSTRUCTION,
	DRM_VCUDA_FAULT_TIMEOUT,
	DRM_VCUDA_FAULT_RESET,
	DRM_VCUDA_FAULT_LAUNCH,
	DRM_VCUDA_FAULT_RESOURCES,
};

/**
 * struct drm_vcuda_ctx_get_state - Arguments of
 * DRM_IOCTL_VCUDA_CTX_GET_STATE.
 *
 * The first fault of a context is sticky: every later job of the context
 * fails, and submissions fail with -EIO.
 */
struct drm_vcuda_ctx_get_state {
	/** @ctx_id: Context to query. */
	__u32 ctx_id;

	/** @fault_kind: Output: &enum drm_vcuda_fault_kind. */
	__u32 fault_kind;

	/** @fault_addr: Output: faulting GPU virtual address, or zero. */
	__u64 fault_addr;

	/** @fault_queue_id: Output: queue of the faulting job, or zero. */
	__u32 fault_queue_id;

	/** @pad: Must be zero. */
	__u32 pad;
};

/**
 * enum drm_vcuda_bo_placement - Where a buffer object's pages live.
 *
 * @DRM_VCUDA_BO_PLACEMENT_DEVICE: Device memory, charged to VRAM.
 * @DRM_VCUDA_BO_PLACEMENT_HOST: Pinned host memory, not charged to VRAM.
 */
enum drm_vcuda_bo_placement {
	DRM_VCUDA_BO_PLACEMENT_DEVICE = 0,
	DRM_VCUDA_BO_PLACEMENT_HOST,
};

/* Flags of host buffer objects, as cudaHostAlloc's; recorded, not enforced. */
#define DRM_VCUDA_BO_HOST_PORTABLE		(1u << 0)
#define DRM_VCUDA_BO_HOST_MAPPED		(1u << 1)
#define DRM_VCUDA_BO_HOST_WRITE_COMBINED	(1u << 2)

/**
 * struct drm_vcuda_bo_create - Arguments of DRM_IOCTL_VCUDA_BO_CREATE.
 *
 * Device buffers fail with -ENOMEM when the device's VRAM would be
 * exceeded.
 */
struct drm_vcuda_bo_create {
	/**
	 * @size: Size in bytes, non-zero. Output: the size rounded up to
	 * DRM_VCUDA_PAGE_SIZE.
	 */
	__u64 size;

	/** @placement: One of &enum drm_vcuda_bo_placement. */
	__u32 placement;

	/** @flags: DRM_VCUDA_BO_HOST_* for host buffers, else zero. */
	__u32 flags;

	/** @handle: Output: the GEM handle. */
	__u32 handle;

	/** @pad: Must be zero. */
	__u32 pad;
};

/**
 * struct drm_vcuda_bo_userptr - Arguments of DRM_IOCTL_VCUDA_BO_USERPTR.
 *
 * Pins the caller's pages in [@addr, @addr + @size), charged to
 * RLIMIT_MEMLOCK, and makes a buffer object of them.
 */
struct drm_vcuda_bo_userptr {
	/** @addr: Page-aligned start of the range. */
	__u64 addr;

	/** @size: Page-aligned size of the range, non-zero. */
	__u64 size;

	/** @flags: Must be zero. */
	__u32 flags;

	/** @handle: Output: the GEM handle. */
	__u32 handle;
};

/**
 * struct drm_vcuda_bo_mmap_offset - Arguments of
 * DRM_IOCTL_VCUDA_BO_MMAP_OFFSET.
 */
struct drm_vcuda_bo_mmap_offset {
	/** @handle: GEM handle. */
	__u32 handle;

	/** @pad: Must be zero. */
	__u32 pad;

	/** @offset: Output: the offset to pass to mmap() on the DRM file. */
	__u64 offset;
};

/* Operation of a &struct drm_vcuda_vm_bind_op, in its flags' low byte. */
#define DRM_VCUDA_VM_BIND_OP_MASK		0xffu
#define DRM_VCUDA_VM_BIND_OP_MAP		0u
#define DRM_VCUDA_VM_BIND_OP_UNMAP		1u
/*
 * Reserve a range without mapping anything (cuMemAddressReserve): an access
 * to a reserved page faults as an unmapped one would; MAP operations may
 * then place mappings inside the reservation (and only there may a map
 * overlap it); an UNMAP of such a mapping returns its pages to the
 * reservation; an UNMAP of a whole reservation with nothing mapped in it
 * releases it. bo_handle and bo_offset must be zero.
 */
#define DRM_VCUDA_VM_BIND_OP_MAP_SPARSE		2u
/* The mapping may only be read by the device. */
#define DRM_VCUDA_VM_BIND_READONLY		(1u << 8)

/**
 * struct drm_vcuda_vm_bind_op - One map or unmap.
 *
 * @va, @size and @bo_offset are multiples of DRM_VCUDA_PAGE_SIZE, and the
 * range lies within the device's [va_start, va_end). A map must not
 * overlap an existing mapping (-EEXIST); an unmap may split mappings but
 * must cover only mapped pages (-ENOENT).
 */
struct drm_vcuda_vm_bind_op {
	/** @flags: DRM_VCUDA_VM_BIND_OP_* and DRM_VCUDA_VM_BIND_READONLY. */
	__u32 flags;

	/** @bo_handle: Buffer object to map; zero for unmaps. */
	__u32 bo_handle;

	/** @bo_offset: Offset in the buffer object; zero for unmaps. */
	__u64 bo_offset;

	/** @va: GPU virtual address of the range. */
	__u64 va;

	/** @size: Size of the range. */
	__u64 size;
};

/**
 * struct drm_vcuda_vm_bind - Arguments of DRM_IOCTL_VCUDA_VM_BIND.
 *
 * The operations run in order; on error, the operations before the failing
 * one stay done and @ops.count is set to their number.
 */
struct drm_vcuda_vm_bind {
	/** @ctx_id: Context whose address space changes. */
	__u32 ctx_id;

	/** @flags: Must be zero (asynchronous binds are reserved). */
	__u32 flags;

	/** @ops: Array of &struct drm_vcuda_vm_bind_op. */
	struct drm_vcuda_obj_array ops;

	/**
	 * @syncs: Reserved for asynchronous binds; all of it (count, stride
	 * and array) must be zero.
	 */
	struct drm_vcuda_obj_array syncs;
};

/**
 * struct drm_vcuda_vm_translate - Arguments of
 * DRM_IOCTL_VCUDA_VM_TRANSLATE.
 *
 * Walks the context's page tables, as the device does for every access.
 * For tests: the result says which buffer object page backs @va, and at
 * which level of the tables the walk ended. A binding uses 2 MiB pages
 * (level 1) for every whole 2 MiB-aligned range of addresses it covers
 * whose object offsets are 2 MiB-aligned too, and 4 KiB pages (level 0)
 * elsewhere; unmapping part of a 2 MiB page turns the rest of it into
 * 4 KiB pages. Reserved but unmapped addresses are not mapped (-ENOENT).
 */
struct drm_vcuda_vm_translate {
	/** @ctx_id: Context to walk. */
	__u32 ctx_id;

	/** @flags: Output: DRM_VCUDA_VM_BIND_READONLY if read-only. */
	__u32 flags;

	/** @va: GPU virtual address to translate. */
	__u64 va;

	/** @bo_handle: Output: handle of the backing object in this file. */
	__u32 bo_handle;

	/** @level: Output: page-table level of the leaf (0 = 4 KiB). */
	__u32 level;

	/** @bo_offset: Output: offset of @va in the backing object. */
	__u64 bo_offset;
};

/**
 * enum drm_vcuda_engine - Engine class of a queue.
 *
 * @DRM_VCUDA_ENGINE_COMPUTE: Launches, run by the owning process's workers.
 * @DRM_VCUDA_ENGINE_COPY: Copies and fills, run by kernel workers.
 */
enum drm_vcuda_engine {
	DRM_VCUDA_ENGINE_COMPUTE = 0,
	DRM_VCUDA_ENGINE_COPY,
};

/**
 * enum drm_vcuda_queue_priority - Scheduling priority of a queue.
 *
 * @DRM_VCUDA_QUEUE_PRIORITY_LOW: Below normal.
 * @DRM_VCUDA_QUEUE_PRIORITY_NORMAL: Default.
 * @DRM_VCUDA_QUEUE_PRIORITY_HIGH: Above normal.
 */
enum drm_vcuda_queue_priority {
	DRM_VCUDA_QUEUE_PRIORITY_LOW = 0,
	DRM_VCUDA_QUEUE_PRIORITY_NORMAL,
	DRM_VCUDA_QUEUE_PRIORITY_HIGH,
};

/**
 * struct drm_vcuda_queue_create - Arguments of
 * DRM_IOCTL_VCUDA_QUEUE_CREATE.
 */
struct drm_vcuda_queue_create {
	/** @ctx_id: Context the queue belongs to. */
	__u32 ctx_id;

	/** @engine: One of &enum drm_vcuda_engine. */
	__u32 engine;

	/** @priority: One of &enum drm_vcuda_queue_priority. */
	__u32 priority;

	/** @flags: Must be zero. */
	__u32 flags;

	/** @queue_id: Output: the new queue's ID, never zero. */
	__u32 queue_id;

	/** @pad: Must be zero. */
	__u32 pad;
};

/**
 * struct drm_vcuda_queue_destroy - Arguments of
 * DRM_IOCTL_VCUDA_QUEUE_DESTROY.
 *
 * Jobs not yet finished fail with -ECANCELED.
 */
struct drm_vcuda_queue_destroy {
	/** @queue_id: Queue to destroy. */
	__u32 queue_id;

	/** @pad: Must be zero. */
	__u32 pad;
};

/* Handle type of a &struct drm_vcuda_sync_op, in its flags' low byte. */
#define DRM_VCUDA_SYNC_OP_HANDLE_TYPE_MASK		0xffu
#define DRM_VCUDA_SYNC_OP_HANDLE_TYPE_SYNCOBJ		0u
#define DRM_VCUDA_SYNC_OP_HANDLE_TYPE_TIMELINE_SYNCOBJ	1u
/* Direction: wait before the job runs, or signal when it ends. */
#define DRM_VCUDA_SYNC_OP_WAIT				(0u << 31)
#define DRM_VCUDA_SYNC_OP_SIGNAL			(1u << 31)

/**
 * struct drm_vcuda_sync_op - A syncobj a job waits for or signals.
 *
 * A signal of a timeline syncobj adds the job's fence at @point, which
 * must be non-zero; for binary syncobjs @point must be zero.
 */
struct drm_vcuda_sync_op {
	/** @flags: Handle type and direction. */
	__u32 flags;

	/** @handle: Syncobj handle. */
	__u32 handle;

	/** @point: Timeline point, or zero. */
	__u64 point;
};

/**
 * enum drm_vcuda_cmd_op - Operation of a &struct drm_vcuda_cmd.
 *
 * @DRM_VCUDA_CMD_NOP: Does nothing.
 * @DRM_VCUDA_CMD_COPY: &struct drm_vcuda_cmd_copy (copy engine).
 * @DRM_VCUDA_CMD_FILL: &struct drm_vcuda_cmd_fill (copy engine).
 * @DRM_VCUDA_CMD_LAUNCH: &struct drm_vcuda_cmd_launch (compute engine).
 * @DRM_VCUDA_CMD_TIMESTAMP: &struct drm_vcuda_cmd_timestamp (any engine).
 * @DRM_VCUDA_CMD_SEM_ACQUIRE: &struct drm_vcuda_cmd_semaphore: wait until
 *	a memory value satisfies a condition (any engine).
 * @DRM_VCUDA_CMD_SEM_RELEASE: &struct drm_vcuda_cmd_semaphore: write a
 *	memory value (any engine).
 */
enum drm_vcuda_cmd_op {
	DRM_VCUDA_CMD_NOP = 0,
	DRM_VCUDA_CMD_COPY,
	DRM_VCUDA_CMD_FILL,
	DRM_VCUDA_CMD_LAUNCH,
	DRM_VCUDA_CMD_TIMESTAMP,
	DRM_VCUDA_CMD_SEM_ACQUIRE,
	DRM_VCUDA_CMD_SEM_RELEASE,
};

/**
 * struct drm_vcuda_cmd_copy - Copy a 1D, 2D or 3D box of bytes.
 *
 * Addresses are GPU virtual addresses of the queue's context; any
 * alignment. Row r of slice s starts at src + s * src_slice_pitch +
 * r * src_pitch (likewise for dst). Pitches may be zero when the
 * corresponding dimension is 1. Source and destination must not overlap.
 */
struct drm_vcuda_cmd_copy {
	/** @src: Source address. */
	__u64 src;
	/** @dst: Destination address. */
	__u64 dst;
	/** @width: Bytes per row, non-zero. */
	__u64 width;
	/** @height: Rows per slice, non-zero. */
	__u64 height;
	/** @depth: Slices, non-zero. */
	__u64 depth;
	/** @src_pitch: Bytes between source rows, >= @width. */
	__u64 src_pitch;
	/** @dst_pitch: Bytes between destination rows, >= @width. */
	__u64 dst_pitch;
	/** @src_slice_pitch: Bytes between source slices. */
	__u64 src_slice_pitch;
	/** @dst_slice_pitch: Bytes between destination slices. */
	__u64 dst_slice_pitch;
};

/**
 * struct drm_vcuda_cmd_fill - Fill a 1D or 2D box with a pattern.
 *
 * The element size is given by the command's flags
 * (DRM_VCUDA_CMD_FILL_8/16/32); @dst and @pitch are multiples of it.
 */
struct drm_vcuda_cmd_fill {
	/** @dst: Destination address. */
	__u64 dst;
	/** @width: Elements per row, non-zero. */
	__u64 width;
	/** @height: Rows, non-zero. */
	__u64 height;
	/** @pitch: Bytes between rows. */
	__u64 pitch;
	/** @value: Pattern, in the low bits for 8 and 16-bit fills. */
	__u32 value;
	/** @pad: Must be zero. */
	__u32 pad;
};

#define DRM_VCUDA_CMD_FILL_8		0u
#define DRM_VCUDA_CMD_FILL_16		1u
#define DRM_VCUDA_CMD_FILL_32		2u

/**
 * struct drm_vcuda_cmd_launch - Hand a launch to the context's workers.
 *
 * The kernel does not interpret @descriptor: a worker receives it from
 * DRM_IOCTL_VCUDA_COMPUTE_WAIT, runs the launch it describes, and reports
 * with DRM_IOCTL_VCUDA_COMPUTE_DONE. Valid on compute queues only.
 */
struct drm_vcuda_cmd_launch {
	/** @descriptor: Opaque to the kernel: userspace's launch record. */
	__u64 descriptor;
	/** @threads: Threads in the launch, for accounting. */
	__u64 threads;
};

/**
 * struct drm_vcuda_cmd_timestamp - Write the device time.
 *
 * Writes a 64-bit nanosecond count of CLOCK_MONOTONIC to @dst, which is
 * 8-byte aligned.
 */
struct drm_vcuda_cmd_timestamp {
	/** @dst: Destination address. */
	__u64 dst;
};

/* Conditions of DRM_VCUDA_CMD_SEM_ACQUIRE, in the command's flags. */
#define DRM_VCUDA_SEM_COND_MASK		0xfu
#define DRM_VCUDA_SEM_COND_GEQ		0u
#define DRM_VCUDA_SEM_COND_EQ		1u
#define DRM_VCUDA_SEM_COND_AND		2u
#define DRM_VCUDA_SEM_COND_NOR		3u
/* The semaphore is 64 bits wide (32 otherwise). */
#define DRM_VCUDA_SEM_64BIT		(1u << 8)

/**
 * struct drm_vcuda_cmd_semaphore - A memory semaphore.
 */
struct drm_vcuda_cmd_semaphore {
	/** @addr: Address of the value, aligned to its width. */
	__u64 addr;
	/** @value: Value to compare with or to write. */
	__u64 value;
};

/**
 * struct drm_vcuda_cmd - One command of a job.
 */
struct drm_vcuda_cmd {
	/** @op: One of &enum drm_vcuda_cmd_op. */
	__u32 op;

	/** @flags: Operation-specific flags; zero where none are defined. */
	__u32 flags;

	/** @u: Operation-specific arguments; unused bytes must be zero. */
	union {
		struct drm_vcuda_cmd_copy copy;
		struct drm_vcuda_cmd_fill fill;
		struct drm_vcuda_cmd_launch launch;
		struct drm_vcuda_cmd_timestamp timestamp;
		struct drm_vcuda_cmd_semaphore sem;
		__u64 raw[11];
	} u;
};

/**
 * struct drm_vcuda_job - One job: commands run in order, with syncs.
 *
 * The job starts once every wait has signalled, and its fence is added to
 * every signal when it is queued. A job whose command faults fails; the
 * context becomes faulted (see &struct drm_vcuda_ctx_get_state).
 */
struct drm_vcuda_job {
	/** @cmds: Array of &struct drm_vcuda_cmd, 1 to 256 commands. */
	struct drm_vcuda_obj_array cmds;

	/** @syncs: Array of &struct drm_vcuda_sync_op, at most 64. */
	struct drm_vcuda_obj_array syncs;
};

/**
 * struct drm_vcuda_submit - Arguments of DRM_IOCTL_VCUDA_SUBMIT.
 *
 * Jobs are queued in order. Either all jobs are queued or none is.
 */
struct drm_vcuda_submit {
	/** @queue_id: Queue to submit to. */
	__u32 queue_id;

	/** @flags: Must be zero. */
	__u32 flags;

	/** @jobs: Array of &struct drm_vcuda_job, 1 to 64 jobs. */
	struct drm_vcuda_obj_array jobs;
};

/**
 * struct drm_vcuda_compute_wait - Arguments of
 * DRM_IOCTL_VCUDA_COMPUTE_WAIT.
 *
 * Blocks, interruptibly, until a launch of the context is ready to run or
 * @timeout_ns passes (-ETIMEDOUT). Fails with -ENOENT once the context is
 * destroyed. Each launch is handed to exactly one caller, which must
 * report it with DRM_IOCTL_VCUDA_COMPUTE_DONE.
 */
struct drm_vcuda_compute_wait {
	/** @ctx_id: Context whose launches this worker runs. */
	__u32 ctx_id;

	/** @flags: Must be zero. */
	__u32 flags;

	/** @timeout_ns: Relative time-out; zero waits without limit. */
	__u64 timeout_ns;

	/** @launch_id: Output: token to report the launch with. */
	__u64 launch_id;

	/** @descriptor: Output: the launch command's descriptor. */
	__u64 descriptor;

	/** @queue_id: Output: the queue the launch came from. */
	__u32 queue_id;

	/** @pad: Must be zero. */
	__u32 pad;
};

/**
 * struct drm_vcuda_compute_done - Arguments of
 * DRM_IOCTL_VCUDA_COMPUTE_DONE.
 *
 * Reports the end of a launch taken with DRM_IOCTL_VCUDA_COMPUTE_WAIT. A
 * @fault_kind other than DRM_VCUDA_FAULT_NONE faults the context. Fails
 * with -ENOENT if the launch is not outstanding (already reported, or
 * cancelled by a time-out or reset).
 */
struct drm_vcuda_compute_done {
	/** @ctx_id: Context of the launch. */
	__u32 ctx_id;

	/** @fault_kind: &enum drm_vcuda_fault_kind. */
	__u32 fault_kind;

	/** @launch_id: Token from DRM_IOCTL_VCUDA_COMPUTE_WAIT. */
	__u64 launch_id;

	/** @fault_addr: Faulting address, or zero. */
	__u64 fault_addr;
};

/**
 * struct drm_vcuda_ipc_handle - Opaque token for another process.
 *
 * Fits in CUDA's 64-byte cudaIpcMemHandle_t.
 */
struct drm_vcuda_ipc_handle {
	/** @data: Token bytes. */
	__u8 data[56];
};

/**
 * struct drm_vcuda_ipc_export - Arguments of DRM_IOCTL_VCUDA_IPC_EXPORT.
 */
struct drm_vcuda_ipc_export {
	/** @handle: GEM handle to export. */
	__u32 handle;

	/** @flags: Must be zero. */
	__u32 flags;

	/** @token: Output: the token. */
	struct drm_vcuda_ipc_handle token;
};

/**
 * struct drm_vcuda_ipc_import - Arguments of DRM_IOCTL_VCUDA_IPC_IMPORT.
 *
 * Fails with -EACCES for a token of another user's process.
 */
struct drm_vcuda_ipc_import {
	/** @token: Token from DRM_IOCTL_VCUDA_IPC_EXPORT. */
	struct drm_vcuda_ipc_handle token;

	/** @flags: Must be zero. */
	__u32 flags;

	/** @handle: Output: GEM handle in this file. */
	__u32 handle;

	/** @size: Output: size of the object. */
	__u64 size;
};

/**
 * struct drm_vcuda_device_reset - Arguments of
 * DRM_IOCTL_VCUDA_DEVICE_RESET.
 *
 * Faults every context of the device with DRM_VCUDA_FAULT_RESET.
 */
struct drm_vcuda_device_reset {
	/** @flags: Must be zero. */
	__u32 flags;

	/** @pad: Must be zero. */
	__u32 pad;
};

#define DRM_VCUDA_IOCTL(dir, id, type) \
	DRM_##dir(DRM_COMMAND_BASE + DRM_VCUDA_##id, struct drm_vcuda_##type)

#define DRM_IOCTL_VCUDA_DEV_QUERY \
	DRM_VCUDA_IOCTL(IOWR, DEV_QUERY, dev_query)
#define DRM_IOCTL_VCUDA_CTX_CREATE \
	DRM_VCUDA_IOCTL(IOWR, CTX_CREATE, ctx_create)
#define DRM_IOCTL_VCUDA_CTX_DESTROY \
	DRM_VCUDA_IOCTL(IOW, CTX_DESTROY, ctx_destroy)
#define DRM_IOCTL_VCUDA_CTX_GET_STATE \
	DRM_VCUDA_IOCTL(IOWR, CTX_GET_STATE, ctx_get_state)
#define DRM_IOCTL_VCUDA_BO_CREATE \
	DRM_VCUDA_IOCTL(IOWR, BO_CREATE, bo_create)
#define DRM_IOCTL_VCUDA_BO_USERPTR \
	DRM_VCUDA_IOCTL(IOWR, BO_USERPTR, bo_userptr)
#define DRM_IOCTL_VCUDA_BO_MMAP_OFFSET \
	DRM_VCUDA_IOCTL(IOWR, BO_MMAP_OFFSET, bo_mmap_offset)
#define DRM_IOCTL_VCUDA_VM_BIND \
	DRM_VCUDA_IOCTL(IOWR, VM_BIND, vm_bind)
#define DRM_IOCTL_VCUDA_VM_TRANSLATE \
	DRM_VCUDA_IOCTL(IOWR, VM_TRANSLATE, vm_translate)
#define DRM_IOCTL_VCUDA_QUEUE_CREATE \
	DRM_VCUDA_IOCTL(IOWR, QUEUE_CREATE, queue_create)
#define DRM_IOCTL_VCUDA_QUEUE_DESTROY \
	DRM_VCUDA_IOCTL(IOW, QUEUE_DESTROY, queue_destroy)
#define DRM_IOCTL_VCUDA_SUBMIT \
	DRM_VCUDA_IOCTL(IOW, SUBMIT, submit)
#define DRM_IOCTL_VCUDA_COMPUTE_WAIT \
	DRM_VCUDA_IOCTL(IOWR, COMPUTE_WAIT, compute_wait)
#define DRM_IOCTL_VCUDA_COMPUTE_DONE \
	DRM_VCUDA_IOCTL(IOW, COMPUTE_DONE, compute_done)
#define DRM_IOCTL_VCUDA_IPC_EXPORT \
	DRM_VCUDA_IOCTL(IOWR, IPC_EXPORT, ipc_export)
#define DRM_IOCTL_VCUDA_IPC_IMPORT \
	DRM_VCUDA_IOCTL(IOWR, IPC_IMPORT, ipc_import)
#define DRM_IOCTL_VCUDA_DEVICE_RESET \
	DRM_VCUDA_IOCTL(IOW, DEVICE_RESET, device_reset)

#if defined(__cplusplus)
}
#endif

#endif /* _VCUDA_DRM_H_ */
