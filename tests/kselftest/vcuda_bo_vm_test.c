// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: buffer objects, mmap and VM_BIND.
 */
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

FIXTURE(bo) {
	int fd;
	uint32_t ctx;
	struct drm_vcuda_device_info info;
};

FIXTURE_SETUP(bo)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_device_info(self->fd, &self->info));
	ASSERT_EQ(0, vt_ctx_create(self->fd, &self->ctx));
}

FIXTURE_TEARDOWN(bo)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(bo, create_sizes)
{
	struct drm_vcuda_bo_create c = {
		.size = 1, .placement = DRM_VCUDA_BO_PLACEMENT_DEVICE,
	};

	ASSERT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	EXPECT_EQ(VT_PAGE, c.size);
	EXPECT_NE(0u, c.handle);

	c.size = 3 * VT_PAGE;
	c.handle = 0;
	ASSERT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	EXPECT_EQ(3 * VT_PAGE, c.size);

	c.size = VT_PAGE + 1;
	c.placement = DRM_VCUDA_BO_PLACEMENT_HOST;
	c.flags = DRM_VCUDA_BO_HOST_PORTABLE | DRM_VCUDA_BO_HOST_MAPPED |
		  DRM_VCUDA_BO_HOST_WRITE_COMBINED;
	ASSERT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	EXPECT_EQ(2 * VT_PAGE, c.size);
}

TEST_F(bo, create_bad_input)
{
	struct drm_vcuda_bo_create c;

	memset(&c, 0, sizeof(c));
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	c.size = VT_PAGE;
	c.placement = 2;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	c.placement = DRM_VCUDA_BO_PLACEMENT_DEVICE;
	c.flags = DRM_VCUDA_BO_HOST_PORTABLE;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	c.placement = DRM_VCUDA_BO_PLACEMENT_HOST;
	c.flags = 1u << 3;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	c.pad = 0;
	c.size = ~0ull;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
	c.size = ~0ull - VT_PAGE + 2;
	c.placement = DRM_VCUDA_BO_PLACEMENT_DEVICE;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_CREATE, &c));
}

TEST_F(bo, vram_exhaustion)
{
	struct drm_vcuda_memory_info mem;
	uint32_t h, h2;

	ASSERT_EQ(0, vt_memory_info(self->fd, &mem));
	/* More than the device has: refused without allocating. */
	EXPECT_EQ(-ENOMEM, vt_bo_create(self->fd, mem.vram_size + VT_PAGE,
					DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	/* One page more than what is left, after a first object. */
	ASSERT_EQ(0, vt_bo_create(self->fd, 16 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_memory_info(self->fd, &mem));
	EXPECT_EQ(-ENOMEM, vt_bo_create(self->fd,
					mem.vram_size - mem.vram_used + VT_PAGE,
					DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h2));
	/* The failures charged nothing. */
	{
		struct drm_vcuda_memory_info again;

		ASSERT_EQ(0, vt_memory_info(self->fd, &again));
		EXPECT_EQ(mem.vram_used, again.vram_used);
	}
	/* Freeing gives it back. */
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	ASSERT_EQ(0, vt_memory_info(self->fd, &mem));
	EXPECT_EQ(0ull, mem.vram_used % VT_PAGE);
}

TEST_F(bo, vram_back_to_zero_on_close)
{
	struct drm_vcuda_memory_info mem;
	uint64_t before, va;
	uint32_t h, q;
	int fd2 = vt_open();

	ASSERT_LE(0, fd2);
	before = vt_sysfs_u64(self->fd, "vram_used");
	ASSERT_EQ(0, vt_bo_create(fd2, 8 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_memory_info(fd2, &mem));
	EXPECT_EQ(before + 8 * VT_PAGE, mem.vram_used);
	/* Mapped in a context, mmapped, with a queue: still all released. */
	{
		uint32_t ctx;
		void *p;

		ASSERT_EQ(0, vt_ctx_create(fd2, &ctx));
		va = vt_reserve_va(8 * VT_PAGE);
		ASSERT_NE(0ull, va);
		p = vt_bo_mmap(fd2, h, 8 * VT_PAGE, (void *)(uintptr_t)va);
		ASSERT_NE(MAP_FAILED, p);
		ASSERT_EQ(0, vt_map(fd2, ctx, h, 0, va, 8 * VT_PAGE, 0));
		ASSERT_EQ(0, vt_queue_create(fd2, ctx, DRM_VCUDA_ENGINE_COPY,
					     DRM_VCUDA_QUEUE_PRIORITY_NORMAL,
					     &q));
		munmap(p, 8 * VT_PAGE);
	}
	close(fd2);
	EXPECT_EQ(before, vt_sysfs_u64(self->fd, "vram_used"));
}

TEST_F(bo, mmap_offset)
{
	struct drm_vcuda_bo_mmap_offset m = { 0 };
	uint64_t off1, off2;
	uint32_t h1, h2;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h1));
	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h2));
	ASSERT_EQ(0, vt_bo_offset(self->fd, h1, &off1));
	ASSERT_EQ(0, vt_bo_offset(self->fd, h2, &off2));
	EXPECT_NE(off1, off2);
	EXPECT_EQ(0ull, off1 % VT_PAGE);

	m.handle = h1;
	m.pad = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_MMAP_OFFSET, &m));
	EXPECT_EQ(-ENOENT, vt_bo_offset(self->fd, 0, &off1));
	EXPECT_EQ(-ENOENT, vt_bo_offset(self->fd, h2 + 100, &off1));
	ASSERT_EQ(0, vt_bo_close(self->fd, h2));
	EXPECT_EQ(-ENOENT, vt_bo_offset(self->fd, h2, &off1));
}

TEST_F(bo, mmap_coherent)
{
	uint64_t size = 4 * VT_PAGE;
	uint32_t *a, *b;
	uint32_t h;
	unsigned int i;

	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &h));
	a = vt_bo_mmap(self->fd, h, size, NULL);
	ASSERT_NE(MAP_FAILED, a);
	b = vt_bo_mmap(self->fd, h, size, NULL);
	ASSERT_NE(MAP_FAILED, b);
	ASSERT_NE(a, b);

	/* New objects are zeroed. */
	for (i = 0; i < size / 4; i++)
		ASSERT_EQ(0u, b[i]);
	for (i = 0; i < size / 4; i++)
		a[i] = i * 2654435761u;
	for (i = 0; i < size / 4; i++)
		ASSERT_EQ(i * 2654435761u, b[i]);

	/* The data outlives the mappings and the handle's first user. */
	munmap(a, size);
	b[7] = 77;
	munmap(b, size);
	a = vt_bo_mmap(self->fd, h, size, NULL);
	ASSERT_NE(MAP_FAILED, a);
	EXPECT_EQ(77u, a[7]);
	EXPECT_EQ(8 * 2654435761u, a[8]);
	munmap(a, size);
}

TEST_F(bo, mmap_private_refused)
{
	uint64_t off;
	uint32_t h;
	void *p;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_bo_offset(self->fd, h, &off));
	p = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		 self->fd, off);
	EXPECT_EQ(MAP_FAILED, p);
	/* Larger than the object. */
	p = mmap(NULL, 2 * VT_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->fd, off);
	EXPECT_EQ(MAP_FAILED, p);
}

TEST_F(bo, map_at_same_address)
{
	struct drm_vcuda_vm_translate t;
	uint64_t size = 4 * VT_PAGE, va;
	uint32_t h;
	char *p;

	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &h));
	va = vt_reserve_va(size);
	ASSERT_NE(0ull, va);
	p = vt_bo_mmap(self->fd, h, size, (void *)(uintptr_t)va);
	ASSERT_EQ((void *)(uintptr_t)va, p);
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, size, 0));

	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + 2 * VT_PAGE + 5, &t));
	EXPECT_EQ(h, t.bo_handle);
	EXPECT_EQ(2 * VT_PAGE + 5, t.bo_offset);
	EXPECT_EQ(0u, t.flags);
	EXPECT_EQ(0u, t.level);

	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, va, size));
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx, va, &t));
	munmap(p, size);
}

TEST_F(bo, map_offset_and_readonly)
{
	struct drm_vcuda_vm_translate t;
	uint64_t va = 0x200000000ull;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, 8 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 4 * VT_PAGE, va,
			    2 * VT_PAGE, DRM_VCUDA_VM_BIND_READONLY));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + VT_PAGE, &t));
	EXPECT_EQ(5 * VT_PAGE, t.bo_offset);
	EXPECT_EQ(DRM_VCUDA_VM_BIND_READONLY, t.flags);
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx, va + 2 * VT_PAGE,
					&t));
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx, va - 1, &t));
	/* Same object, same VM, another range: read-write. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va + 2 * VT_PAGE,
			    VT_PAGE, 0));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + 2 * VT_PAGE, &t));
	EXPECT_EQ(0u, t.flags);
	EXPECT_EQ(0ull, t.bo_offset);
	/* Outside the device's range. */
	EXPECT_EQ(-EINVAL, vt_translate(self->fd, self->ctx, 0, &t));
	EXPECT_EQ(-EINVAL, vt_translate(self->fd, self->ctx,
					self->info.va_end, &t));
}

TEST_F(bo, overlapping_map)
{
	uint64_t va = 0x300000000ull;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, 4 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, 4 * VT_PAGE, 0));
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0, va, VT_PAGE, 0));
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0,
				  va + 3 * VT_PAGE, 2 * VT_PAGE, 0));
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0, va - VT_PAGE,
				  2 * VT_PAGE, 0));
	/* Adjacent is fine. */
	EXPECT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va + 4 * VT_PAGE,
			    VT_PAGE, 0));
	EXPECT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va - VT_PAGE,
			    VT_PAGE, 0));
}

TEST_F(bo, unmap_unmapped)
{
	uint64_t va = 0x400000000ull;
	uint32_t h;

	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va, VT_PAGE));
	ASSERT_EQ(0, vt_bo_create(self->fd, 4 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, 2 * VT_PAGE, 0));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va + 3 * VT_PAGE,
			    VT_PAGE, 0));
	/* A hole in the middle, or past either end. */
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va, 4 * VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va - VT_PAGE,
				    2 * VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va + 3 * VT_PAGE,
				    2 * VT_PAGE));
	/* Nothing was unmapped by the failures. */
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0, va, VT_PAGE, 0));
	/* Twice. */
	EXPECT_EQ(0, vt_unmap(self->fd, self->ctx, va, 2 * VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va, 2 * VT_PAGE));
}

TEST_F(bo, partial_unmap_splits)
{
	struct drm_vcuda_vm_translate t;
	uint64_t va = 0x500000000ull;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, 8 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, 8 * VT_PAGE,
			    DRM_VCUDA_VM_BIND_READONLY));
	/* Punch pages 2-3 out of the middle. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, va + 2 * VT_PAGE,
			      2 * VT_PAGE));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + VT_PAGE, &t));
	EXPECT_EQ(VT_PAGE, t.bo_offset);
	EXPECT_EQ(DRM_VCUDA_VM_BIND_READONLY, t.flags);
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx, va + 2 * VT_PAGE,
					&t));
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx, va + 3 * VT_PAGE,
					&t));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + 5 * VT_PAGE, &t));
	EXPECT_EQ(5 * VT_PAGE, t.bo_offset);
	EXPECT_EQ(DRM_VCUDA_VM_BIND_READONLY, t.flags);
	/* The hole can be mapped again; the head and tail unmapped. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va + 2 * VT_PAGE,
			    2 * VT_PAGE, 0));
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, va, 3 * VT_PAGE));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + 3 * VT_PAGE, &t));
	EXPECT_EQ(VT_PAGE, t.bo_offset);
	EXPECT_EQ(0u, t.flags);
	/* One unmap across several mappings. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, va + 3 * VT_PAGE,
			      5 * VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx, va + 7 * VT_PAGE,
					&t));
}

TEST_F(bo, bind_keeps_object_alive)
{
	struct drm_vcuda_vm_translate t;
	uint64_t va = 0x600000000ull, used;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, 2 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, 2 * VT_PAGE, 0));
	used = vt_sysfs_u64(self->fd, "vram_used");
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	/* Still mapped, still charged, but has no handle any more. */
	EXPECT_EQ(used, vt_sysfs_u64(self->fd, "vram_used"));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va, &t));
	EXPECT_EQ(0u, t.bo_handle);
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, va, 2 * VT_PAGE));
	EXPECT_EQ(used - 2 * VT_PAGE, vt_sysfs_u64(self->fd, "vram_used"));
}

TEST_F(bo, ctx_destroy_drops_mappings)
{
	uint64_t va = 0x600000000ull, used;
	uint32_t h, ctx2;

	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx2));
	ASSERT_EQ(0, vt_bo_create(self->fd, 2 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, ctx2, h, 0, va, 2 * VT_PAGE, 0));
	used = vt_sysfs_u64(self->fd, "vram_used");
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	EXPECT_EQ(used, vt_sysfs_u64(self->fd, "vram_used"));
	ASSERT_EQ(0, vt_ctx_destroy(self->fd, ctx2));
	EXPECT_EQ(used - 2 * VT_PAGE, vt_sysfs_u64(self->fd, "vram_used"));
}

TEST_F(bo, bind_bad_input)
{
	uint64_t va = 0x700000000ull;
	struct drm_vcuda_vm_bind_op op;
	uint32_t h, h2;

	ASSERT_EQ(0, vt_bo_create(self->fd, 4 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	/* Unaligned address, size, offset; zero size. */
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0, va + 1, VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0, va, VT_PAGE + 1, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 512, va, VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0, va, 0, 0));
	EXPECT_EQ(-EINVAL, vt_unmap(self->fd, self->ctx, va + 16, VT_PAGE));
	EXPECT_EQ(-EINVAL, vt_unmap(self->fd, self->ctx, va, 0));
	/* Past the object. */
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0, va, 5 * VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 4 * VT_PAGE, va,
				  VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, ~0ull & ~(VT_PAGE - 1),
				  va, 2 * VT_PAGE, 0));
	/* Outside [va_start, va_end), or wrapping. */
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0, 0, VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0,
				  self->info.va_start - VT_PAGE, VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0,
				  self->info.va_end - VT_PAGE, 2 * VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_map(self->fd, self->ctx, h, 0,
				  self->info.va_end, VT_PAGE, 0));
	EXPECT_EQ(-EINVAL, vt_unmap(self->fd, self->ctx,
				    ~0ull & ~(VT_PAGE - 1), 2 * VT_PAGE));
	/* The highest and lowest pages are fine. */
	EXPECT_EQ(0, vt_map(self->fd, self->ctx, h, 0,
			    self->info.va_end - VT_PAGE, VT_PAGE, 0));
	EXPECT_EQ(0, vt_map(self->fd, self->ctx, h, 0, self->info.va_start,
			    VT_PAGE, 0));
	/* Unknown and stale handles. */
	EXPECT_EQ(-ENOENT, vt_map(self->fd, self->ctx, 0, 0, va, VT_PAGE, 0));
	EXPECT_EQ(-ENOENT, vt_map(self->fd, self->ctx, h + 100, 0, va, VT_PAGE, 0));
	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h2));
	ASSERT_EQ(0, vt_bo_close(self->fd, h2));
	EXPECT_EQ(-ENOENT, vt_map(self->fd, self->ctx, h2, 0, va, VT_PAGE, 0));
	/* Unknown context. */
	EXPECT_EQ(-ENOENT, vt_map(self->fd, self->ctx + 100, h, 0, va, VT_PAGE, 0));
	/* Unknown op and flags. */
	memset(&op, 0, sizeof(op));
	op.bo_handle = h;
	op.va = va;
	op.size = VT_PAGE;
	op.flags = 3;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.flags = 0xff;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.flags = DRM_VCUDA_VM_BIND_OP_MAP | (1u << 9);
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.flags = DRM_VCUDA_VM_BIND_OP_MAP | (1u << 31);
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	/* Unmaps take no object, offset or read-only flag. */
	op.flags = DRM_VCUDA_VM_BIND_OP_UNMAP;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.bo_handle = 0;
	op.bo_offset = VT_PAGE;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.bo_offset = 0;
	op.flags = DRM_VCUDA_VM_BIND_OP_UNMAP | DRM_VCUDA_VM_BIND_READONLY;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	/* Reservations take no object, offset or read-only flag. */
	op.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE;
	op.bo_handle = h;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.bo_handle = 0;
	op.bo_offset = VT_PAGE;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.bo_offset = 0;
	op.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE | DRM_VCUDA_VM_BIND_READONLY;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE;
	op.va = va + 1;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.va = va;
	op.size = 0;
	EXPECT_EQ(-EINVAL, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.size = VT_PAGE;
	EXPECT_EQ(0, vt_bind(self->fd, self->ctx, &op, 1, NULL));
}

TEST_F(bo, bind_bad_arrays)
{
	struct drm_vcuda_vm_bind_op ops[2];
	struct drm_vcuda_vm_bind b;
	struct {
		struct drm_vcuda_vm_bind_op op;
		uint64_t extra;
	} big[1];
	uint64_t va = 0x800000000ull;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	memset(ops, 0, sizeof(ops));
	ops[0].bo_handle = h;
	ops[0].va = va;
	ops[0].size = VT_PAGE;

	memset(&b, 0, sizeof(b));
	b.ctx_id = self->ctx;
	/* Empty. */
	b.ops = VT_ARRAY(0, ops);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	/* Huge. */
	b.ops = VT_ARRAY(100000, ops);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	/* Stride smaller than the element, zero, absurd. */
	b.ops = VT_ARRAY(1, ops);
	b.ops.stride = sizeof(ops[0]) - 8;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	b.ops.stride = 0;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	b.ops.stride = 1u << 20;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	/* Bad pointer. */
	b.ops = VT_ARRAY(1, ops);
	b.ops.array = 8;
	EXPECT_EQ(-EFAULT, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	/* Flags and syncs are reserved. */
	b.ops = VT_ARRAY(1, ops);
	b.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	b.flags = 0;
	b.syncs.count = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	b.syncs.count = 0;
	/* A larger element: zero tail accepted, non-zero tail refused. */
	memset(big, 0, sizeof(big));
	big[0].op = ops[0];
	big[0].extra = 1;
	b.ops = VT_ARRAY(1, big);
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	big[0].extra = 0;
	EXPECT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_VM_BIND, &b));
	/* Nothing else got mapped by the failures. */
	EXPECT_EQ(0, vt_unmap(self->fd, self->ctx, va, VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va, VT_PAGE));
}

TEST_F(bo, bind_partial_failure_count)
{
	struct drm_vcuda_vm_bind_op ops[4];
	uint64_t va = 0x900000000ull;
	uint32_t h, done = 99;
	int i;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	memset(ops, 0, sizeof(ops));
	for (i = 0; i < 4; i++) {
		ops[i].flags = DRM_VCUDA_VM_BIND_OP_MAP;
		ops[i].bo_handle = h;
		ops[i].va = va + i * VT_PAGE;
		ops[i].size = VT_PAGE;
	}
	/* The third overlaps the first: two are done, then -EEXIST. */
	ops[2].va = va;
	EXPECT_EQ(-EEXIST, vt_bind(self->fd, self->ctx, ops, 4, &done));
	EXPECT_EQ(2u, done);
	EXPECT_EQ(0, vt_unmap(self->fd, self->ctx, va, 2 * VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va + 3 * VT_PAGE,
				    VT_PAGE));
	/* All good: the count is left alone. */
	ops[2].va = va + 2 * VT_PAGE;
	EXPECT_EQ(0, vt_bind(self->fd, self->ctx, ops, 4, &done));
	EXPECT_EQ(4u, done);
	/* Map then unmap in one call. */
	ops[0].va = va + 8 * VT_PAGE;
	ops[1].flags = DRM_VCUDA_VM_BIND_OP_UNMAP;
	ops[1].bo_handle = 0;
	ops[1].va = va + 8 * VT_PAGE;
	EXPECT_EQ(0, vt_bind(self->fd, self->ctx, ops, 2, &done));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, va + 8 * VT_PAGE,
				    VT_PAGE));
}

TEST_F(bo, many_mappings)
{
	uint64_t va = 0xa00000000ull;
	uint32_t h;
	int i;

	ASSERT_EQ(0, vt_bo_create(self->fd, 16 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	for (i = 0; i < 512; i++)
		ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, (i % 16) * VT_PAGE,
				    va + i * VT_PAGE, VT_PAGE, 0));
	/* One unmap of all of them. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, va, 512 * VT_PAGE));
	/* Map again, leave for close(). */
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0,
				    va + i * 16 * VT_PAGE, 16 * VT_PAGE, 0));
}

static int userptr(int fd, uint64_t addr, uint64_t size, uint32_t *handle)
{
	struct drm_vcuda_bo_userptr u = { .addr = addr, .size = size };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_BO_USERPTR, &u);

	*handle = u.handle;
	return ret;
}

TEST_F(bo, userptr_shared_with_device)
{
	uint64_t size = 4 * VT_PAGE, pinned, dva;
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd cmds[2];
	uint32_t h, hd, q, tl;
	uint32_t *mem, *dev;
	unsigned int i;

	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	for (i = 0; i < size / 4; i++)
		mem[i] = i;
	pinned = vt_sysfs_u64(self->fd, "host_pinned");
	ASSERT_EQ(0, userptr(self->fd, (uintptr_t)mem, size, &h));
	EXPECT_EQ(pinned + size, vt_sysfs_u64(self->fd, "host_pinned"));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, (uintptr_t)mem, size, 0));

	/* A device buffer, and the copy engine between the two. */
	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &hd));
	dva = vt_reserve_va(size);
	dev = vt_bo_mmap(self->fd, hd, size, (void *)(uintptr_t)dva);
	ASSERT_EQ((void *)(uintptr_t)dva, dev);
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, hd, 0, dva, size, 0));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     1, &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));
	memset(cmds, 0, sizeof(cmds));
	cmds[0].op = DRM_VCUDA_CMD_COPY;
	cmds[0].u.copy.src = (uintptr_t)mem;
	cmds[0].u.copy.dst = dva;
	cmds[0].u.copy.width = size;
	cmds[0].u.copy.height = 1;
	cmds[0].u.copy.depth = 1;
	cmds[1].op = DRM_VCUDA_CMD_FILL;
	cmds[1].flags = DRM_VCUDA_CMD_FILL_32;
	cmds[1].u.fill.dst = (uintptr_t)mem + VT_PAGE;
	cmds[1].u.fill.width = 2;
	cmds[1].u.fill.height = 1;
	cmds[1].u.fill.value = 0xcafef00d;
	sig = vt_signal_tl(tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, q, cmds, 2, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, tl, 1, 5000));
	for (i = 0; i < size / 4; i++)
		ASSERT_EQ(i, dev[i]);
	EXPECT_EQ(0xcafef00du, mem[VT_PAGE / 4]);
	EXPECT_EQ(0xcafef00du, mem[VT_PAGE / 4 + 1]);
	EXPECT_EQ(VT_PAGE / 4 + 2, mem[VT_PAGE / 4 + 2]);

	/* Not mmappable through the DRM file, not exportable. */
	{
		uint64_t off;
		int dmabuf;

		EXPECT_EQ(-EINVAL, vt_bo_offset(self->fd, h, &off));
		EXPECT_NE(0, drmPrimeHandleToFD(self->fd, h, 0, &dmabuf));
	}
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, (uintptr_t)mem, size));
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	EXPECT_EQ(pinned, vt_sysfs_u64(self->fd, "host_pinned"));
	munmap(mem, size);
}

TEST_F(bo, userptr_bad_input)
{
	struct drm_vcuda_bo_userptr u;
	uint64_t size = 2 * VT_PAGE;
	uint32_t h;
	char *mem;

	/* Two pages mapped, then a hole. */
	mem = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	ASSERT_EQ(0, munmap(mem + size, size));
	memset(&u, 0, sizeof(u));
	u.addr = (uintptr_t)mem;
	u.size = size;
	u.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_USERPTR, &u));
	EXPECT_EQ(-EINVAL, userptr(self->fd, (uintptr_t)mem + 8, VT_PAGE, &h));
	EXPECT_EQ(-EINVAL, userptr(self->fd, (uintptr_t)mem, VT_PAGE + 8, &h));
	EXPECT_EQ(-EINVAL, userptr(self->fd, (uintptr_t)mem, 0, &h));
	EXPECT_EQ(-EINVAL, userptr(self->fd, ~0ull & ~(VT_PAGE - 1),
				   2 * VT_PAGE, &h));
	/* Not all mapped; read-only; kernel addresses. */
	EXPECT_EQ(-EFAULT, userptr(self->fd, (uintptr_t)mem, 4 * VT_PAGE, &h));
	ASSERT_EQ(0, mprotect(mem, size, PROT_READ));
	EXPECT_EQ(-EFAULT, userptr(self->fd, (uintptr_t)mem, size, &h));
	EXPECT_EQ(-EFAULT, userptr(self->fd, 0xffff888000000000ull, VT_PAGE,
				   &h));
	munmap(mem, size);
}

TEST_F(bo, userptr_memlock_limit)
{
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to drop CAP_IPC_LOCK");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit rl = { 64 * 1024, 64 * 1024 };
		uint64_t size = 64 * VT_PAGE;
		uint32_t h;
		void *mem;

		mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		if (mem == MAP_FAILED || setrlimit(RLIMIT_MEMLOCK, &rl) ||
		    setgid(65534) || setuid(65534))
			_exit(2);
		if (userptr(self->fd, (uintptr_t)mem, size, &h) != -ENOMEM)
			_exit(3);
		/* Within the limit is fine. */
		if (userptr(self->fd, (uintptr_t)mem, 4 * VT_PAGE, &h))
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static int ipc_export(int fd, uint32_t handle, struct drm_vcuda_ipc_handle *t)
{
	struct drm_vcuda_ipc_export e = { .handle = handle };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_IPC_EXPORT, &e);

	*t = e.token;
	return ret;
}

static int ipc_import(int fd, const struct drm_vcuda_ipc_handle *t,
		      uint32_t *handle, uint64_t *size)
{
	struct drm_vcuda_ipc_import i = { .token = *t };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_IPC_IMPORT, &i);

	*handle = i.handle;
	if (size)
		*size = i.size;
	return ret;
}

TEST_F(bo, ipc_between_processes)
{
	struct drm_vcuda_ipc_handle t, t2;
	uint64_t size = 3 * VT_PAGE;
	uint32_t h, *p;
	int status;
	pid_t pid;

	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &h));
	p = vt_bo_mmap(self->fd, h, size, NULL);
	ASSERT_NE(MAP_FAILED, p);
	p[100] = 0x600d;
	ASSERT_EQ(0, ipc_export(self->fd, h, &t));
	/* Exporting again gives the same token. */
	ASSERT_EQ(0, ipc_export(self->fd, h, &t2));
	EXPECT_EQ(0, memcmp(&t, &t2, sizeof(t)));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* Another process, with its own file. */
		int fd = vt_open();
		uint64_t isize;
		uint32_t ih, ctx;
		uint32_t *q;

		if (fd < 0 || ipc_import(fd, &t, &ih, &isize))
			_exit(1);
		if (isize != size)
			_exit(2);
		q = vt_bo_mmap(fd, ih, size, NULL);
		if (q == MAP_FAILED || q[100] != 0x600d)
			_exit(3);
		q[200] = 0xbeef;
		if (vt_ctx_create(fd, &ctx) ||
		    vt_map(fd, ctx, ih, 0, 0x100000000ull, size, 0))
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0xbeefu, p[200]);

	/* Another user may not import it. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		uint32_t ih;
		int fd = vt_open();

		if (fd < 0 || setgid(65534) || setuid(65534))
			_exit(2);
		_exit(ipc_import(fd, &t, &ih, NULL) == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* Once the object is freed, the token is dead. */
	munmap(p, size);
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	EXPECT_EQ(-ENOENT, ipc_import(self->fd, &t, &h, NULL));
}

TEST_F(bo, ipc_bad_input)
{
	struct drm_vcuda_ipc_export e = { 0 };
	struct drm_vcuda_ipc_handle t, bad;
	uint32_t h, h2;
	void *mem;

	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h));
	e.handle = h;
	e.flags = 1;
	EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_IPC_EXPORT, &e));
	EXPECT_EQ(-ENOENT, ipc_export(self->fd, h + 100, &t));
	ASSERT_EQ(0, ipc_export(self->fd, h, &t));
	/* Importing into the same file gives a second handle. */
	ASSERT_EQ(0, ipc_import(self->fd, &t, &h2, NULL));
	EXPECT_NE(h, h2);

	/* Malformed tokens. */
	memset(&bad, 0, sizeof(bad));
	EXPECT_EQ(-EINVAL, ipc_import(self->fd, &bad, &h2, NULL));
	bad = t;
	bad.data[55] = 1;
	EXPECT_EQ(-EINVAL, ipc_import(self->fd, &bad, &h2, NULL));
	bad = t;
	bad.data[4] ^= 0x10;	/* device index */
	EXPECT_EQ(-EINVAL, ipc_import(self->fd, &bad, &h2, NULL));
	/* Unknown ID, wrong secret. */
	bad = t;
	bad.data[8] ^= 0x40;
	EXPECT_EQ(-ENOENT, ipc_import(self->fd, &bad, &h2, NULL));
	bad = t;
	bad.data[20] ^= 1;
	EXPECT_EQ(-ENOENT, ipc_import(self->fd, &bad, &h2, NULL));
	{
		struct drm_vcuda_ipc_import i = { .token = t, .flags = 1 };

		EXPECT_EQ(-EINVAL, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_IPC_IMPORT,
					    &i));
	}

	/* Userptr objects cannot be shared. */
	mem = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	ASSERT_EQ(0, userptr(self->fd, (uintptr_t)mem, VT_PAGE, &h2));
	EXPECT_EQ(-EINVAL, ipc_export(self->fd, h2, &t));
}

TEST_HARNESS_MAIN
