// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda uAPI tests: page tables (checked through VM_TRANSLATE against the
 * binds), address reservations, dma-buf sharing within and between
 * devices (peer objects), and the release of everything a killed process
 * held.
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "vcuda_test.h"

#define MiB (1ull << 20)
#define LARGE (2 * MiB)

FIXTURE(pt) {
	int fd;
	uint32_t ctx;
};

FIXTURE_SETUP(pt)
{
	self->fd = vt_open();
	if (self->fd < 0)
		SKIP(return, "no vcuda device");
	ASSERT_EQ(0, vt_ctx_create(self->fd, &self->ctx));
}

FIXTURE_TEARDOWN(pt)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Expects @va to translate to @h at @off, at @level. */
#define EXPECT_XLATE(x_fd, x_ctx, x_va, x_h, x_off, x_level, x_ro) do {	\
	struct drm_vcuda_vm_translate _t;				\
	ASSERT_EQ(0, vt_translate(x_fd, x_ctx, x_va, &_t));		\
	EXPECT_EQ((uint32_t)(x_h), _t.bo_handle);			\
	EXPECT_EQ((uint64_t)(x_off), _t.bo_offset);			\
	EXPECT_EQ((uint32_t)(x_level), _t.level);			\
	EXPECT_EQ((x_ro) ? DRM_VCUDA_VM_BIND_READONLY : 0u, _t.flags);	\
} while (0)

#define EXPECT_UNMAPPED(fd, ctx, va) do {				\
	struct drm_vcuda_vm_translate _t;				\
	EXPECT_EQ(-ENOENT, vt_translate(fd, ctx, va, &_t));		\
} while (0)

TEST_F(pt, large_pages_where_aligned)
{
	uint64_t base = 0x1000000000ull;	/* 64 GiB, 2 MiB-aligned */
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, 8 * MiB,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));

	/* Aligned address and offset: 2 MiB pages throughout. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, base, 8 * MiB, 0));
	EXPECT_XLATE(self->fd, self->ctx, base, h, 0, 1, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 5 * MiB + 123, h,
		     5 * MiB + 123, 1, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 8 * MiB - 1, h, 8 * MiB - 1,
		     1, 0);
	EXPECT_UNMAPPED(self->fd, self->ctx, base + 8 * MiB);
	EXPECT_UNMAPPED(self->fd, self->ctx, base - 1);

	/* Aligned address, offset 4 KiB: small pages only. */
	base += 16 * MiB;
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, VT_PAGE, base, 4 * MiB,
			    0));
	EXPECT_XLATE(self->fd, self->ctx, base, h, VT_PAGE, 0, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 3 * MiB, h,
		     3 * MiB + VT_PAGE, 0, 0);

	/* 3 MiB: one large page, then small ones. */
	base += 16 * MiB;
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, base, 3 * MiB,
			    DRM_VCUDA_VM_BIND_READONLY));
	EXPECT_XLATE(self->fd, self->ctx, base + MiB, h, MiB, 1, 1);
	EXPECT_XLATE(self->fd, self->ctx, base + 2 * MiB, h, 2 * MiB, 0, 1);
	EXPECT_XLATE(self->fd, self->ctx, base + 3 * MiB - 8, h, 3 * MiB - 8,
		     0, 1);

	/* Unaligned but congruent: small at the ends, large between. */
	base += 16 * MiB;
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, LARGE - VT_PAGE,
			    base + LARGE - VT_PAGE, 4 * MiB, 0));
	EXPECT_XLATE(self->fd, self->ctx, base + LARGE - VT_PAGE, h,
		     LARGE - VT_PAGE, 0, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + LARGE, h, LARGE, 1, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 2 * LARGE - 1, h,
		     2 * LARGE - 1, 1, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 2 * LARGE, h, 2 * LARGE, 0,
		     0);
	EXPECT_XLATE(self->fd, self->ctx, base + 3 * LARGE - 2 * VT_PAGE, h,
		     3 * LARGE - 2 * VT_PAGE, 0, 0);
	EXPECT_UNMAPPED(self->fd, self->ctx, base + 3 * LARGE - VT_PAGE);
}

TEST_F(pt, partial_unmap_splits_large_page)
{
	uint64_t base = 0x2000000000ull, a;
	uint32_t h, h2;

	ASSERT_EQ(0, vt_bo_create(self->fd, 4 * MiB,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_HOST, 0, &h2));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, base, 4 * MiB, 0));
	EXPECT_XLATE(self->fd, self->ctx, base + 100 * VT_PAGE, h,
		     100 * VT_PAGE, 1, 0);

	/* A hole of one page in the first large page. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, base + 100 * VT_PAGE,
			      VT_PAGE));
	EXPECT_UNMAPPED(self->fd, self->ctx, base + 100 * VT_PAGE);
	EXPECT_XLATE(self->fd, self->ctx, base + 99 * VT_PAGE, h,
		     99 * VT_PAGE, 0, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 101 * VT_PAGE + 7, h,
		     101 * VT_PAGE + 7, 0, 0);
	EXPECT_XLATE(self->fd, self->ctx, base, h, 0, 0, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + LARGE - 1, h, LARGE - 1, 0,
		     0);
	/* The other large page is untouched. */
	EXPECT_XLATE(self->fd, self->ctx, base + LARGE, h, LARGE, 1, 0);

	/* Another object in the hole. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h2, 0, base + 100 * VT_PAGE,
			    VT_PAGE, DRM_VCUDA_VM_BIND_READONLY));
	EXPECT_XLATE(self->fd, self->ctx, base + 100 * VT_PAGE + 5, h2, 5, 0,
		     1);

	/* Cutting across the boundary of the second large page. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, base + LARGE - VT_PAGE,
			      2 * VT_PAGE));
	EXPECT_UNMAPPED(self->fd, self->ctx, base + LARGE);
	EXPECT_XLATE(self->fd, self->ctx, base + LARGE + VT_PAGE, h,
		     LARGE + VT_PAGE, 0, 0);
	EXPECT_XLATE(self->fd, self->ctx, base + 4 * MiB - VT_PAGE, h,
		     4 * MiB - VT_PAGE, 0, 0);

	/* Everything goes; the address space is empty again. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, base, LARGE - VT_PAGE));
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, base + LARGE + VT_PAGE,
			      LARGE - VT_PAGE));
	for (a = base; a < base + 4 * MiB; a += VT_PAGE)
		EXPECT_UNMAPPED(self->fd, self->ctx, a);
	/* Large again once mapped whole. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, base, 4 * MiB, 0));
	EXPECT_XLATE(self->fd, self->ctx, base + 100 * VT_PAGE, h,
		     100 * VT_PAGE, 1, 0);
}

TEST_F(pt, translate_handles)
{
	uint64_t va = 0x3000000000ull;
	struct drm_vcuda_vm_translate t;
	uint32_t h;

	ASSERT_EQ(0, vt_bo_create(self->fd, 2 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, va, 2 * VT_PAGE, 0));
	/* A mapping outlives the handle: the handle reads as zero. */
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	ASSERT_EQ(0, vt_translate(self->fd, self->ctx, va + VT_PAGE, &t));
	EXPECT_EQ(0u, t.bo_handle);
	EXPECT_EQ(VT_PAGE, t.bo_offset);
	/* Bad input. */
	EXPECT_EQ(-ENOENT, vt_translate(self->fd, self->ctx + 100, va, &t));
	EXPECT_EQ(-EINVAL, vt_translate(self->fd, self->ctx, 0, &t));
	EXPECT_EQ(-EINVAL, vt_translate(self->fd, self->ctx, 1ull << 47, &t));
}

/*
 * A model of an address space of NPAGES pages: which object (index into
 * the handles, or -1) and page backs each page, whether it is read-only,
 * and whether each 2 MiB chunk is one large page.
 */
#define NPAGES (8 * 512)
#define NOBJ 3

struct model {
	int obj[NPAGES];
	uint32_t page[NPAGES];
	bool ro[NPAGES];
	bool large[NPAGES / 512];
};

static void model_map(struct model *m, int obj, uint32_t first, uint32_t n,
		      uint32_t objpage, bool ro)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		m->obj[first + i] = obj;
		m->page[first + i] = objpage + i;
		m->ro[first + i] = ro;
	}
	/* Whole chunks with 2 MiB-aligned object pages become large. */
	for (i = first; i < first + n; i++)
		if (!(i % 512) && i + 512 <= first + n &&
		    !(m->page[i] % 512))
			m->large[i / 512] = true;
}

static void model_unmap(struct model *m, uint32_t first, uint32_t n)
{
	uint32_t i;

	for (i = first; i < first + n; i++)
		m->obj[i] = -1;
	/* A large page partly or wholly unmapped is a large page no more. */
	for (i = first / 512; i <= (first + n - 1) / 512; i++)
		m->large[i] = false;
}

static bool model_mapped(const struct model *m, uint32_t first, uint32_t n,
			 bool all)
{
	uint32_t i;

	for (i = first; i < first + n; i++)
		if ((m->obj[i] >= 0) != all)
			return !all;
	return all;
}

TEST_F(pt, random_binds_match_page_tables)
{
	uint64_t base = 0x4000000000ull;
	uint32_t h[NOBJ], i, iter;
	struct model *m;
	int mismatches = 0;

	m = calloc(1, sizeof(*m));
	ASSERT_NE(NULL, m);
	for (i = 0; i < NPAGES; i++)
		m->obj[i] = -1;
	for (i = 0; i < NOBJ; i++)
		ASSERT_EQ(0, vt_bo_create(self->fd, 8 * MiB, i == 2 ?
					  DRM_VCUDA_BO_PLACEMENT_HOST :
					  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0,
					  &h[i]));
	srandom(1234);
	for (iter = 0; iter < 600; iter++) {
		/* Sizes from a page to 3 large pages, often 2 MiB-aligned. */
		bool aligned = random() % 3 == 0;
		uint32_t n = aligned ? 512 * (1 + random() % 3) :
			     1 + random() % 700;
		uint32_t first = aligned ? 512 * (random() % (NPAGES / 512)) :
				 random() % NPAGES;
		int obj = random() % NOBJ;
		uint32_t objpage = aligned ? 512 * (random() % 2) :
				   random() % 1024;
		bool ro = random() % 4 == 0;
		int ret;

		if (first + n > NPAGES)
			n = NPAGES - first;
		if (random() % 2) {
			ret = vt_map(self->fd, self->ctx, h[obj],
				     objpage * VT_PAGE, base + first * VT_PAGE,
				     n * VT_PAGE,
				     ro ? DRM_VCUDA_VM_BIND_READONLY : 0);
			if (model_mapped(m, first, n, false)) {
				ASSERT_EQ(-EEXIST, ret);
			} else {
				ASSERT_EQ(0, ret);
				model_map(m, obj, first, n, objpage, ro);
			}
		} else {
			ret = vt_unmap(self->fd, self->ctx,
				       base + first * VT_PAGE, n * VT_PAGE);
			if (model_mapped(m, first, n, true)) {
				ASSERT_EQ(0, ret);
				model_unmap(m, first, n);
			} else {
				ASSERT_EQ(-ENOENT, ret);
			}
		}
		/* Spot checks every time, everything every 100 ops. */
		for (i = 0; i < NPAGES; i += (iter % 100 == 99) ? 1 : 97) {
			struct drm_vcuda_vm_translate t;
			uint64_t va = base + i * VT_PAGE + (i % 61) * 8;

			ret = vt_translate(self->fd, self->ctx, va, &t);
			if (m->obj[i] < 0) {
				mismatches += ret != -ENOENT;
				continue;
			}
			if (ret || t.bo_handle != h[m->obj[i]] ||
			    t.bo_offset != m->page[i] * VT_PAGE + (i % 61) * 8 ||
			    t.level != m->large[i / 512] ||
			    !!t.flags != m->ro[i]) {
				if (mismatches++ < 10)
					TH_LOG("page %u: ret %d h %u/%u off %llx/%llx level %u/%u",
					       i, ret, t.bo_handle, h[m->obj[i]],
					       (unsigned long long)t.bo_offset,
					       (unsigned long long)m->page[i] * VT_PAGE,
					       t.level, m->large[i / 512]);
			}
		}
		ASSERT_EQ(0, mismatches);
	}
	free(m);
}

static struct drm_vcuda_cmd copy_cmd(uint64_t dst, uint64_t src, uint64_t n)
{
	struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_COPY };

	c.u.copy.src = src;
	c.u.copy.dst = dst;
	c.u.copy.width = n;
	c.u.copy.height = 1;
	c.u.copy.depth = 1;
	return c;
}

TEST_F(pt, copy_engine_walks_large_and_small_pages)
{
	uint64_t size = 6 * MiB, src = 0x5000000000ull;
	uint64_t dst = 0x5100000000ull + VT_PAGE;
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd c;
	uint32_t hs, hd, q, tl;
	uint8_t *ps, *pd;
	uint64_t i;

	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &hs));
	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &hd));
	ps = vt_bo_mmap(self->fd, hs, size, NULL);
	pd = vt_bo_mmap(self->fd, hd, size, NULL);
	ASSERT_NE(MAP_FAILED, ps);
	ASSERT_NE(MAP_FAILED, pd);
	for (i = 0; i < size; i++)
		ps[i] = (i * 131) >> 7;
	/* Source in large pages, destination in small ones. */
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, hs, 0, src, size, 0));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, hd, 0, dst, size, 0));
	ASSERT_EQ(0, vt_queue_create(self->fd, self->ctx, DRM_VCUDA_ENGINE_COPY,
				     1, &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));
	c = copy_cmd(dst + 3, src + 1, size - 5);
	sig = vt_signal_tl(tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, tl, 1, 30000));
	for (i = 0; i < size - 5; i++)
		if (pd[i + 3] != ps[i + 1])
			break;
	EXPECT_EQ(size - 5, i);
}

TEST_F(pt, reservations)
{
	uint64_t r = 0x6000000000ull, rsize = 8 * MiB;
	struct drm_vcuda_vm_bind_op op = {
		.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE, .va = r, .size = rsize,
	};
	struct drm_vcuda_ctx_get_state st;
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd c;
	uint32_t h, q, tl, ctx2;

	ASSERT_EQ(0, vt_bo_create(self->fd, 4 * MiB,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	ASSERT_EQ(0, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	EXPECT_UNMAPPED(self->fd, self->ctx, r);
	/* No overlapping reservation, not even the same one. */
	EXPECT_EQ(-EEXIST, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	op.va = r - VT_PAGE;
	op.size = 2 * VT_PAGE;
	EXPECT_EQ(-EEXIST, vt_bind(self->fd, self->ctx, &op, 1, NULL));
	/* Maps inside it only. */
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0, r - VT_PAGE,
				  2 * VT_PAGE, 0));
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0,
				  r + rsize - VT_PAGE, 2 * VT_PAGE, 0));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, r + LARGE, 4 * MiB, 0));
	EXPECT_XLATE(self->fd, self->ctx, r + LARGE + 5, h, 5, 1, 0);
	EXPECT_UNMAPPED(self->fd, self->ctx, r);
	/* Unmapping a part of the reservation that is not mapped fails. */
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, r, VT_PAGE));
	/* The whole reservation cannot go while something is mapped. */
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, r, rsize));
	/* A reservation over a mapping is refused. */
	op.va = r + 3 * MiB;
	op.size = VT_PAGE;
	EXPECT_EQ(-EEXIST, vt_bind(self->fd, self->ctx, &op, 1, NULL));

	/* An access to a reserved page faults as unmapped. */
	ASSERT_EQ(0, vt_ctx_create(self->fd, &ctx2));
	{
		struct drm_vcuda_vm_bind_op op2 = {
			.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE,
			.va = r, .size = rsize,
		};

		ASSERT_EQ(0, vt_bind(self->fd, ctx2, &op2, 1, NULL));
	}
	ASSERT_EQ(0, vt_queue_create(self->fd, ctx2, DRM_VCUDA_ENGINE_COPY, 1,
				     &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd, 0, &tl));
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_FILL;
	c.u.fill.dst = r + 100;
	c.u.fill.width = 1;
	c.u.fill.height = 1;
	sig = vt_signal_tl(tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd, tl, 1, 5000));
	ASSERT_EQ(0, vt_ctx_state(self->fd, ctx2, &st));
	EXPECT_EQ(DRM_VCUDA_FAULT_UNMAPPED, st.fault_kind);
	EXPECT_EQ(r + 100, st.fault_addr);

	/* Unmapping the mapping gives its pages back to the reservation. */
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, r + LARGE, 4 * MiB));
	EXPECT_EQ(-EEXIST, vt_map(self->fd, self->ctx, h, 0, r - VT_PAGE,
				  2 * VT_PAGE, 0));
	ASSERT_EQ(0, vt_map(self->fd, self->ctx, h, 0, r, VT_PAGE, 0));
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, r, VT_PAGE));
	/* Only the exact range releases it. */
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, r, rsize - VT_PAGE));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, r, rsize + VT_PAGE));
	ASSERT_EQ(0, vt_unmap(self->fd, self->ctx, r, rsize));
	EXPECT_EQ(-ENOENT, vt_unmap(self->fd, self->ctx, r, rsize));
	/* Gone: maps across its old edge are fine now. */
	EXPECT_EQ(0, vt_map(self->fd, self->ctx, h, 0, r - VT_PAGE,
			    2 * VT_PAGE, 0));
	/* Reservations of a destroyed context go with it. */
	EXPECT_EQ(0, vt_ctx_destroy(self->fd, ctx2));
}

TEST_F(pt, reservations_in_one_bind)
{
	uint64_t r = 0x6100000000ull;
	struct drm_vcuda_vm_bind_op ops[4];
	uint32_t h, done;

	ASSERT_EQ(0, vt_bo_create(self->fd, 4 * VT_PAGE,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h));
	memset(ops, 0, sizeof(ops));
	ops[0].flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE;
	ops[0].va = r;
	ops[0].size = 16 * VT_PAGE;
	ops[1].flags = DRM_VCUDA_VM_BIND_OP_MAP;
	ops[1].bo_handle = h;
	ops[1].va = r + 4 * VT_PAGE;
	ops[1].size = 4 * VT_PAGE;
	ops[2].flags = DRM_VCUDA_VM_BIND_OP_UNMAP;
	ops[2].va = r + 4 * VT_PAGE;
	ops[2].size = 4 * VT_PAGE;
	ops[3].flags = DRM_VCUDA_VM_BIND_OP_UNMAP;
	ops[3].va = r;
	ops[3].size = 16 * VT_PAGE;
	ASSERT_EQ(0, vt_bind(self->fd, self->ctx, ops, 4, &done));
	/* All gone: the same again works. */
	ASSERT_EQ(0, vt_bind(self->fd, self->ctx, ops, 4, &done));
	/* Releasing first fails at the fourth operation. */
	ops[2] = ops[3];
	EXPECT_EQ(-ENOENT, vt_bind(self->fd, self->ctx, ops, 4, &done));
	EXPECT_EQ(2u, done);
}

static int prime_export(int fd, uint32_t h, int *dmabuf)
{
	return drmPrimeHandleToFD(fd, h, DRM_CLOEXEC | DRM_RDWR, dmabuf) ?
	       -errno : 0;
}

static int prime_import(int fd, int dmabuf, uint32_t *h)
{
	return drmPrimeFDToHandle(fd, dmabuf, h) ? -errno : 0;
}

TEST_F(pt, prime_within_a_device)
{
	uint64_t size = 3 * VT_PAGE, used;
	uint32_t h, h2, hh, hu, ctx2;
	uint32_t *p, *p2;
	int dmabuf, fd2;
	void *mem;

	used = vt_sysfs_u64(self->fd, "vram_used");
	ASSERT_EQ(0, vt_bo_create(self->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE,
				  0, &h));
	p = vt_bo_mmap(self->fd, h, size, NULL);
	ASSERT_NE(MAP_FAILED, p);
	p[5] = 0x5a5a;
	ASSERT_EQ(0, prime_export(self->fd, h, &dmabuf));
	/* Into the same file: the same handle. */
	ASSERT_EQ(0, prime_import(self->fd, dmabuf, &h2));
	EXPECT_EQ(h, h2);
	/* Into another file: the same object, not charged twice. */
	fd2 = vt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, prime_import(fd2, dmabuf, &h2));
	EXPECT_EQ(used + size, vt_sysfs_u64(self->fd, "vram_used"));
	p2 = vt_bo_mmap(fd2, h2, size, NULL);
	ASSERT_NE(MAP_FAILED, p2);
	EXPECT_EQ(0x5a5au, p2[5]);
	p2[6] = 0xa5a5;
	EXPECT_EQ(0xa5a5u, p[6]);
	ASSERT_EQ(0, vt_ctx_create(fd2, &ctx2));
	ASSERT_EQ(0, vt_map(fd2, ctx2, h2, 0, 0x7000000000ull, size, 0));
	EXPECT_XLATE(fd2, ctx2, 0x7000000000ull + 4, h2, 4, 0, 0);
	/* The dma-buf itself maps the object too. */
	{
		uint32_t *pb = mmap(NULL, size, PROT_READ | PROT_WRITE,
				    MAP_SHARED, dmabuf, 0);

		ASSERT_NE(MAP_FAILED, pb);
		EXPECT_EQ(0xa5a5u, pb[6]);
		munmap(pb, size);
	}
	/* Host objects export too; userptr objects do not. */
	ASSERT_EQ(0, vt_bo_create(self->fd, VT_PAGE, DRM_VCUDA_BO_PLACEMENT_HOST,
				  0, &hh));
	{
		int d;

		EXPECT_EQ(0, prime_export(self->fd, hh, &d));
		close(d);
	}
	mem = mmap(NULL, VT_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mem);
	{
		struct drm_vcuda_bo_userptr u = {
			.addr = (uintptr_t)mem, .size = VT_PAGE,
		};
		int d;

		ASSERT_EQ(0, vt_ioctl(self->fd, DRM_IOCTL_VCUDA_BO_USERPTR, &u));
		hu = u.handle;
		EXPECT_EQ(-EOPNOTSUPP, prime_export(self->fd, hu, &d));
	}
	/* Everything is released with the last user. */
	munmap(p, size);
	munmap(p2, size);
	close(dmabuf);
	ASSERT_EQ(0, vt_bo_close(self->fd, h));
	EXPECT_EQ(used + size, vt_sysfs_u64(self->fd, "vram_used"));
	close(fd2);
	EXPECT_EQ(used, vt_sysfs_u64(self->fd, "vram_used"));
}

TEST_F(pt, prime_foreign_dmabuf_refused)
{
	struct {
		int memfd;
		uint32_t flags;
		uint64_t offset;
		uint64_t size;
	} create;
	int fd, dev, dmabuf;
	uint32_t h;

	/* A memfd is no dma-buf at all. */
	fd = memfd_create("x", MFD_ALLOW_SEALING);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EINVAL, prime_import(self->fd, fd, &h));
	/* A dma-buf of another driver (udmabuf) is refused. */
	dev = open("/dev/udmabuf", O_RDWR);
	if (dev < 0) {
		close(fd);
		SKIP(return, "no /dev/udmabuf");
	}
	ASSERT_EQ(0, ftruncate(fd, VT_PAGE));
	ASSERT_EQ(0, fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK));
	memset(&create, 0, sizeof(create));
	create.memfd = fd;
	create.size = VT_PAGE;
	/* UDMABUF_CREATE */
	dmabuf = ioctl(dev, _IOW('u', 0x42, create), &create);
	ASSERT_LE(0, dmabuf);
	EXPECT_EQ(-EOPNOTSUPP, prime_import(self->fd, dmabuf, &h));
	close(dmabuf);
	close(dev);
	close(fd);
}

FIXTURE(peer) {
	int fd0, fd1;
	uint32_t ctx0, ctx1;
};

FIXTURE_SETUP(peer)
{
	self->fd0 = vt_open_index(0);
	self->fd1 = vt_open_index(1);
	if (self->fd0 < 0 || self->fd1 < 0)
		SKIP(return, "needs two vcuda devices");
	ASSERT_EQ(0, vt_ctx_create(self->fd0, &self->ctx0));
	ASSERT_EQ(0, vt_ctx_create(self->fd1, &self->ctx1));
}

FIXTURE_TEARDOWN(peer)
{
	if (self->fd0 >= 0)
		close(self->fd0);
	if (self->fd1 >= 0)
		close(self->fd1);
}

TEST_F(peer, dmabuf_between_devices)
{
	uint64_t size = 4 * MiB, va, used0, used1;
	struct drm_vcuda_sync_op sig;
	struct drm_vcuda_cmd c;
	uint32_t h0, h1, hb, q, tl;
	uint8_t *p0, *p1;
	uint64_t i;
	int dmabuf;

	used0 = vt_sysfs_u64(self->fd0, "vram_used");
	used1 = vt_sysfs_u64(self->fd1, "vram_used");
	ASSERT_EQ(0, vt_bo_create(self->fd0, size,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &h0));
	va = vt_reserve_va(2 * size);
	ASSERT_NE(0ull, va);
	va = (va + LARGE - 1) & ~(LARGE - 1);
	p0 = vt_bo_mmap(self->fd0, h0, size, (void *)(uintptr_t)va);
	ASSERT_EQ((void *)(uintptr_t)va, p0);
	ASSERT_EQ(0, vt_map(self->fd0, self->ctx0, h0, 0, va, size, 0));
	for (i = 0; i < size; i++)
		p0[i] = i % 251;

	/* Device 1 imports it: a peer object, charged to nobody new. */
	ASSERT_EQ(0, prime_export(self->fd0, h0, &dmabuf));
	ASSERT_EQ(0, prime_import(self->fd1, dmabuf, &h1));
	EXPECT_EQ(used0 + size, vt_sysfs_u64(self->fd0, "vram_used"));
	EXPECT_EQ(used1, vt_sysfs_u64(self->fd1, "vram_used"));
	EXPECT_EQ(0ull, vt_fdinfo_u64(self->fd1, "drm-total-vram"));
	/* Mapped in a context of device 1 at the address it has on 0. */
	ASSERT_EQ(0, vt_map(self->fd1, self->ctx1, h1, 0, va, size, 0));
	EXPECT_XLATE(self->fd1, self->ctx1, va + LARGE + 9, h1, LARGE + 9, 1,
		     0);

	/* Device 1's copy engine reads and writes device 0's memory. */
	ASSERT_EQ(0, vt_bo_create(self->fd1, size,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &hb));
	p1 = vt_bo_mmap(self->fd1, hb, size, NULL);
	ASSERT_NE(MAP_FAILED, p1);
	ASSERT_EQ(0, vt_map(self->fd1, self->ctx1, hb, 0, 0x7100000000ull,
			    size, 0));
	ASSERT_EQ(0, vt_queue_create(self->fd1, self->ctx1,
				     DRM_VCUDA_ENGINE_COPY, 1, &q));
	ASSERT_EQ(0, drmSyncobjCreate(self->fd1, 0, &tl));
	c = copy_cmd(0x7100000000ull, va, size);
	sig = vt_signal_tl(tl, 1);
	ASSERT_EQ(0, vt_submit1(self->fd1, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd1, tl, 1, 30000));
	for (i = 0; i < size; i++)
		if (p1[i] != i % 251)
			break;
	EXPECT_EQ(size, i);
	memset(&c, 0, sizeof(c));
	c.op = DRM_VCUDA_CMD_FILL;
	c.u.fill.dst = va + 10;
	c.u.fill.width = 5;
	c.u.fill.height = 1;
	c.u.fill.value = 0xee;
	sig = vt_signal_tl(tl, 2);
	ASSERT_EQ(0, vt_submit1(self->fd1, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd1, tl, 2, 30000));
	EXPECT_EQ(0xee, p0[10]);
	EXPECT_EQ(0xee, p0[14]);
	EXPECT_EQ(15 % 251, p0[15]);

	/* The peer object maps through device 1's file, same memory. */
	{
		uint8_t *pp = vt_bo_mmap(self->fd1, h1, size, NULL);

		ASSERT_NE(MAP_FAILED, pp);
		EXPECT_EQ(0xee, pp[12]);
		pp[20] = 0x77;
		EXPECT_EQ(0x77, p0[20]);
		munmap(pp, size);
	}

	/* Exported again from device 1, it is device 0's object on 0. */
	{
		uint32_t back;
		int d;

		ASSERT_EQ(0, prime_export(self->fd1, h1, &d));
		ASSERT_EQ(0, prime_import(self->fd0, d, &back));
		EXPECT_EQ(h0, back);
		close(d);
	}

	/*
	 * Device 0's last handle and mapping go: device 1 keeps the memory
	 * (and device 0 keeps it charged) until it lets go too.
	 */
	close(dmabuf);
	munmap(p0, size);
	ASSERT_EQ(0, vt_ctx_destroy(self->fd0, self->ctx0));
	ASSERT_EQ(0, vt_bo_close(self->fd0, h0));
	EXPECT_EQ(used0 + size, vt_sysfs_u64(self->fd0, "vram_used"));
	sig = vt_signal_tl(tl, 3);
	c = copy_cmd(0x7100000000ull, va, size);
	ASSERT_EQ(0, vt_submit1(self->fd1, q, &c, 1, &sig, 1));
	ASSERT_EQ(0, vt_wait_point(self->fd1, tl, 3, 30000));
	EXPECT_EQ(0x77, p1[20]);
	ASSERT_EQ(0, vt_bo_close(self->fd1, h1));
	EXPECT_EQ(used0 + size, vt_sysfs_u64(self->fd0, "vram_used"));
	ASSERT_EQ(0, vt_unmap(self->fd1, self->ctx1, va, size));
	EXPECT_EQ(used0, vt_sysfs_u64(self->fd0, "vram_used"));
	munmap(p1, size);
}

TEST_F(peer, host_memory_between_devices_and_processes)
{
	uint64_t size = 2 * VT_PAGE, used0, pinned0;
	uint32_t h0, *p0;
	int dmabuf, status;
	pid_t pid;

	used0 = vt_sysfs_u64(self->fd0, "vram_used");
	pinned0 = vt_sysfs_u64(self->fd0, "host_pinned");
	ASSERT_EQ(0, vt_bo_create(self->fd0, size, DRM_VCUDA_BO_PLACEMENT_HOST,
				  DRM_VCUDA_BO_HOST_PORTABLE, &h0));
	p0 = vt_bo_mmap(self->fd0, h0, size, NULL);
	ASSERT_NE(MAP_FAILED, p0);
	ASSERT_EQ(0, prime_export(self->fd0, h0, &dmabuf));
	/* Another process imports it into device 1 and writes to it. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = vt_open_index(1);
		uint32_t h, ctx, q, tl;
		struct drm_vcuda_cmd c = { .op = DRM_VCUDA_CMD_FILL };
		struct drm_vcuda_sync_op sig = vt_signal_tl(1, 1);

		if (fd < 0 || prime_import(fd, dmabuf, &h) ||
		    vt_ctx_create(fd, &ctx) ||
		    vt_map(fd, ctx, h, 0, 0x7200000000ull, size, 0) ||
		    vt_queue_create(fd, ctx, DRM_VCUDA_ENGINE_COPY, 1, &q) ||
		    drmSyncobjCreate(fd, 0, &tl))
			_exit(1);
		c.flags = DRM_VCUDA_CMD_FILL_32;
		c.u.fill.dst = 0x7200000000ull + VT_PAGE;
		c.u.fill.width = 4;
		c.u.fill.height = 1;
		c.u.fill.value = 0xfeedf00d;
		sig.handle = tl;
		if (vt_submit1(fd, q, &c, 1, &sig, 1) ||
		    vt_wait_point(fd, tl, 1, 10000))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0xfeedf00du, p0[VT_PAGE / 4 + 3]);
	EXPECT_EQ(used0, vt_sysfs_u64(self->fd0, "vram_used"));
	close(dmabuf);
	munmap(p0, size);
	ASSERT_EQ(0, vt_bo_close(self->fd0, h0));
	EXPECT_EQ(pinned0, vt_sysfs_u64(self->fd0, "host_pinned"));
}

/*
 * A process with thousands of objects of every kind, mapped, shared and
 * imported, is killed: every byte and every object comes back.
 */
TEST_F(pt, killed_with_thousands_of_objects)
{
	uint64_t used = vt_sysfs_u64(self->fd, "vram_used");
	uint64_t pinned = vt_sysfs_u64(self->fd, "host_pinned");
	int ready[2], status, fd1 = vt_open_index(1);
	long long before[5], before1[5];
	char c;
	pid_t pid;

	vt_objects_snapshot(self->fd, before);
	if (fd1 >= 0)
		vt_objects_snapshot(fd1, before1);
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fd = vt_open(), fdb = vt_open_index(1);
		uint64_t va = 0x10000000000ull;
		uint32_t ctx, ctxb = 0, h, i;
		char *mem;

		mem = mmap(NULL, 256 * VT_PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (fd < 0 || mem == MAP_FAILED || vt_ctx_create(fd, &ctx) ||
		    (fdb >= 0 && vt_ctx_create(fdb, &ctxb)))
			_exit(1);
		for (i = 0; i < 3000; i++) {
			uint32_t kind = i % 3;

			if (kind == 2 && i < 768) {
				struct drm_vcuda_bo_userptr u = {
					.addr = (uintptr_t)mem +
						(i / 3 % 256) * VT_PAGE,
					.size = VT_PAGE,
				};

				if (vt_ioctl(fd, DRM_IOCTL_VCUDA_BO_USERPTR, &u))
					_exit(2);
				h = u.handle;
			} else if (vt_bo_create(fd, (1 + i % 4) * VT_PAGE,
						kind ? DRM_VCUDA_BO_PLACEMENT_HOST :
						DRM_VCUDA_BO_PLACEMENT_DEVICE,
						0, &h)) {
				_exit(3);
			}
			if (i % 2 && vt_map(fd, ctx, h, 0, va, VT_PAGE, 0))
				_exit(4);
			va += 4 * VT_PAGE;
			if (i % 50 == 0 && kind != 2) {
				int d;
				uint32_t hb;

				if (prime_export(fd, h, &d))
					_exit(5);
				if (fdb >= 0 && (prime_import(fdb, d, &hb) ||
						 vt_map(fdb, ctxb, hb, 0, va,
							VT_PAGE, 0)))
					_exit(6);
				if (i % 100)
					close(d);
			}
		}
		/* Reservations too. */
		for (i = 0; i < 100; i++) {
			struct drm_vcuda_vm_bind_op op = {
				.flags = DRM_VCUDA_VM_BIND_OP_MAP_SPARSE,
				.va = va + i * MiB, .size = MiB,
			};

			if (vt_bind(fd, ctx, &op, 1, NULL))
				_exit(7);
		}
		if (write(ready[1], "r", 1) != 1)
			_exit(8);
		pause();
		_exit(9);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	EXPECT_LT(used, vt_sysfs_u64(self->fd, "vram_used"));
	EXPECT_LE(before[0] + 3000, vt_objects(self->fd, "bos"));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(0, vt_objects_settle(self->fd, before, 5000));
	EXPECT_EQ(used, vt_sysfs_u64(self->fd, "vram_used"));
	EXPECT_EQ(pinned, vt_sysfs_u64(self->fd, "host_pinned"));
	if (fd1 >= 0) {
		EXPECT_EQ(0, vt_objects_settle(fd1, before1, 5000));
		close(fd1);
	}
}

TEST_HARNESS_MAIN
