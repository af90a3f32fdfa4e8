// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: what a hostile process could do to the kernel and to
 * other users (issue 16). Each test reproduces one hole that was found
 * and checks the fix: object lifetimes through re-exported peer objects,
 * the per-file limits on kernel memory, RLIMIT_MEMLOCK for pinned host
 * buffers, the rate of fault reports, semaphore polling, and arguments
 * that must be refused.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MiB (1ull << 20)

static int prime_export(int fd, uint32_t h, int *dmabuf)
{
	return drmPrimeHandleToFD(fd, h, DRM_CLOEXEC | DRM_RDWR, dmabuf) ?
	       -errno : 0;
}

static int prime_import(int fd, int dmabuf, uint32_t *h)
{
	return drmPrimeFDToHandle(fd, dmabuf, h) ? -errno : 0;
}

static int ipc_export(int fd, uint32_t handle, struct drm_vcuda_ipc_handle *t)
{
	struct drm_vcuda_ipc_export e = { .handle = handle };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_IPC_EXPORT, &e);

	*t = e.token;
	return ret;
}

static int ipc_import(int fd, const struct drm_vcuda_ipc_handle *t,
		      uint32_t *handle)
{
	struct drm_vcuda_ipc_import i = { .token = *t };
	int ret = vt_ioctl(fd, DRM_IOCTL_VCUDA_IPC_IMPORT, &i);

	*handle = i.handle;
	return ret;
}

FIXTURE(peer) {
	int fd0, fd1;
	uint32_t ctx1;
};

FIXTURE_SETUP(peer)
{
	self->fd0 = vt_open_index(0);
	self->fd1 = vt_open_index(1);
	if (self->fd0 < 0 || self->fd1 < 0)
		SKIP(return, "needs two vcuda devices");
	ASSERT_EQ(0, vt_ctx_create(self->fd1, &self->ctx1));
}

FIXTURE_TEARDOWN(peer)
{
	if (self->fd0 >= 0)
		close(self->fd0);
	if (self->fd1 >= 0)
		close(self->fd1);
}

/*
 * Issue 16, item 1: a peer object kept alive by a binding only, given a
 * handle again through IPC and exported as a dma-buf of its own. Mapping
 * that dma-buf used to leave the mapping's private data pointing at the
 * unreferenced peer object under the shmem helper's vm_ops: SIGBUS on
 * read, refcount underflow on munmap, and device 0's VRAM leaked.
 */
TEST_F(peer, reexported_peer_dmabuf_mmap)
{
	uint64_t size = 2 * MiB, used0, va = 0x7300000000ull;
	struct drm_vcuda_ipc_handle token;
	uint32_t h0, h1, h1b;
	uint8_t *p0, *pd;
	int dmabuf, d2;

	used0 = vt_sysfs_u64(self->fd0, "vram_used");
	ASSERT_EQ(0, vt_bo_create(self->fd0, size,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h0));
	p0 = vt_bo_mmap(self->fd0, h0, size, NULL);
	ASSERT_NE(MAP_FAILED, p0);
	memset(p0, 0x5a, size);
	ASSERT_EQ(0, prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);
	ASSERT_EQ(0, vt_map(self->fd1, self->ctx1, h1, 0, va, size, 0));

	/* Only the binding holds the peer object now. */
	ASSERT_EQ(0, ipc_export(self->fd1, h1, &token));
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1));
	ASSERT_EQ(0, ipc_import(self->fd1, &token, &h1b));
	ASSERT_EQ(0, prime_export(self->fd1, h1b, &d2));

	pd = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, d2, 0);
	ASSERT_NE(MAP_FAILED, pd);
	EXPECT_EQ(0x5a, pd[0]);
	EXPECT_EQ(0x5a, pd[size - 1]);
	pd[100] = 0x11;
	EXPECT_EQ(0x11, p0[100]);
	EXPECT_EQ(0, munmap(pd, size));

	/* Everything goes: device 0's memory comes back. */
	close(d2);
	EXPECT_EQ(0, vt_bo_close(self->fd1, h1b));
	EXPECT_EQ(0, vt_unmap(self->fd1, self->ctx1, va, size));
	EXPECT_EQ(0, munmap(p0, size));
	EXPECT_EQ(0, vt_bo_close(self->fd0, h0));
	EXPECT_EQ(used0, vt_sysfs_u64(self->fd0, "vram_used"));
}

/*
 * The mapping of a peer object's own dma-buf outlives every handle, the
 * binding and the dma-buf's fd: it keeps the memory until it goes.
 */
TEST_F(peer, peer_dmabuf_mapping_outlives_handles)
{
	uint64_t size = 2 * MiB, used0, va = 0x7400000000ull;
	struct drm_vcuda_ipc_handle token;
	uint32_t h0, h1, h1b;
	int dmabuf, d2;
	uint8_t *pd;

	used0 = vt_sysfs_u64(self->fd0, "vram_used");
	ASSERT_EQ(0, vt_bo_create(self->fd0, size,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h0));
	ASSERT_EQ(0, prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, prime_import(self->fd1, dmabuf, &h1));
	close(dmabuf);
	ASSERT_EQ(0, vt_bo_close(self->fd0, h0));
	ASSERT_EQ(0, vt_map(self->fd1, self->ctx1, h1, 0, va, size, 0));
	ASSERT_EQ(0, ipc_export(self->fd1, h1, &token));
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1));
	ASSERT_EQ(0, ipc_import(self->fd1, &token, &h1b));
	ASSERT_EQ(0, prime_export(self->fd1, h1b, &d2));
	pd = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, d2, 0);
	ASSERT_NE(MAP_FAILED, pd);

	close(d2);
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1b));
	ASSERT_EQ(0, vt_unmap(self->fd1, self->ctx1, va, size));
	EXPECT_EQ(used0 + size, vt_sysfs_u64(self->fd0, "vram_used"));
	pd[size - 1] = 0x42;
	EXPECT_EQ(0x42, pd[size - 1]);
	EXPECT_EQ(0, pd[0]);
	EXPECT_EQ(0, munmap(pd, size));
	EXPECT_EQ(used0, vt_sysfs_u64(self->fd0, "vram_used"));
}

TEST_HARNESS_MAIN
