// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: page tables of a GPU address space, and their walker.
 */

#include <linux/align.h>
#include <linux/bug.h>
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/rwsem.h>
#include <linux/string.h>

#include "vcuda_drv.h"
#include "vcuda_gem.h"
#include "vcuda_pt.h"

/**
 * DOC: Page tables
 *
 * Each address space has a four-level page table over its 47-bit GPU
 * virtual addresses, laid out as x86-64's: every table is one 4 KiB page
 * of 512 64-bit entries, indexed by 9 bits of the address (bits 39-47 at
 * level 3, the root; 30-38 at level 2; 21-29 at level 1; 12-20 at level
 * 0). An entry is
 *
 * ====== =====================================================
 * bit 0  VALID
 * bit 1  READONLY (leaves): the device may not write
 * bit 2  LEAF (level 1): a 2 MiB page instead of a table
 * 12-63  a level-0 or LEAF entry: the device address of the
 *        page; a directory entry: the physical address of the
 *        next table
 * ====== =====================================================
 *
 * Device addresses are those of vcuda_gem.c: a buffer object's segment
 * and the offset in it. A 2 MiB page is used wherever a mapping covers a
 * whole 2 MiB-aligned range of virtual addresses whose device addresses
 * are 2 MiB-aligned too, which holds when the binding's address and
 * object offset are both 2 MiB-aligned (or congruent modulo 2 MiB);
 * anything else is mapped with 4 KiB pages.
 *
 * vcuda_vm.c keeps the tables in step with the address space's mappings
 * on every bind and unbind: vcuda_pt_map() writes the entries of a new
 * mapping, vcuda_pt_unmap() clears those of a range (splitting a 2 MiB
 * page into a level-0 table when only part of it goes), and a table left
 * empty is freed at once, so the tables hold exactly the mappings. Both
 * run under the address space's lock held for writing, and allocate
 * nothing: the tables they may need are allocated beforehand, outside
 * the lock (vcuda_pt_map_need(), vcuda_pt_cache_fill()), and the unused
 * ones freed afterwards.
 *
 * vcuda_pt_walk() is the device's MMU: it walks from the root to the leaf
 * of an address, under the address space's lock held for reading, and
 * returns the device address, the level of the leaf and its permission.
 * The copy engine translates every access with it (vcuda_vm_resolve()),
 * VM_TRANSLATE reports what it finds, and debugfs prints it.
 */

static u32 vcuda_pt_index(u64 va, int level)
{
	return (va >> (VCUDA_PT_SHIFT + level * VCUDA_PT_BITS)) &
	       (VCUDA_PT_ENTRIES - 1);
}

static u64 *vcuda_pt_table(u64 entry)
{
	return phys_to_virt(entry & VCUDA_PTE_ADDR_MASK);
}

static u64 vcuda_pt_dir_entry(u64 *table)
{
	return virt_to_phys(table) | VCUDA_PTE_VALID;
}

static bool vcuda_pt_empty(const u64 *table)
{
	return !memchr_inv(table, 0, VCUDA_PT_ENTRIES * sizeof(u64));
}

static u64 *vcuda_pt_alloc_table(void)
{
	return (u64 *)get_zeroed_page(VCUDA_GFP_CLIENT);
}

static void vcuda_pt_free_table(struct vcuda_pt *pt, u64 *table)
{
	free_page((unsigned long)table);
	pt->tables--;
	atomic_dec(&pt->vdev->live.pt_pages);
}

/**
 * vcuda_pt_init() - Initialize empty page tables.
 * @pt: Page tables.
 * @vdev: Device.
 * @lock: The address space's lock, asserted by the functions that need
 *	it.
 *
 * Return: 0 or -ENOMEM.
 */
int vcuda_pt_init(struct vcuda_pt *pt, struct vcuda_device *vdev,
		  struct rw_semaphore *lock)
{
	pt->vdev = vdev;
	pt->lock = lock;
	pt->root = vcuda_pt_alloc_table();
	if (!pt->root)
		return -ENOMEM;
	pt->tables = 1;
	atomic_inc(&vdev->live.pt_pages);
	return 0;
}

static void vcuda_pt_free_level(struct vcuda_pt *pt, u64 *table, int level)
{
	u32 i;

	for (i = 0; level > 0 && i < VCUDA_PT_ENTRIES; i++) {
		u64 e = table[i];

		if ((e & VCUDA_PTE_VALID) && !(e & VCUDA_PTE_LEAF))
			vcuda_pt_free_level(pt, vcuda_pt_table(e), level - 1);
	}
	vcuda_pt_free_table(pt, table);
}

/**
 * vcuda_pt_fini() - Free page tables.
 * @pt: Page tables, normally empty by now.
 */
void vcuda_pt_fini(struct vcuda_pt *pt)
{
	if (!pt->root)
		return;
	WARN_ON(!vcuda_pt_empty(pt->root));
	vcuda_pt_free_level(pt, pt->root, VCUDA_PT_LEVELS - 1);
	pt->root = NULL;
}

/* Number of @level-entry regions [va, va + size) touches. */
static unsigned long vcuda_pt_regions(u64 va, u64 size, int level)
{
	int shift = VCUDA_PT_SHIFT + level * VCUDA_PT_BITS;

	return ((va + size - 1) >> shift) - (va >> shift) + 1;
}

/**
 * vcuda_pt_map_need() - Tables a map may need.
 * @va: Virtual address, page-aligned.
 * @size: Size, non-zero, page-aligned.
 * @addr: Device address of @va.
 *
 * Return: The most tables vcuda_pt_map() can take from its cache.
 */
unsigned long vcuda_pt_map_need(u64 va, u64 size, u64 addr)
{
	const u64 large = VCUDA_PT_LEVEL_SIZE(1);
	unsigned long need;

	/* Tables of levels 2 and 1, then level-0 tables. */
	need = vcuda_pt_regions(va, size, 3) + vcuda_pt_regions(va, size, 2);
	need += vcuda_pt_regions(va, size, 1);
	if (IS_ALIGNED(va ^ addr, large)) {
		u64 lo = ALIGN(va, large), hi = ALIGN_DOWN(va + size, large);

		/* Whole 2 MiB ranges become large pages. */
		if (hi > lo)
			need -= (hi - lo) / large;
	}
	return need;
}

/**
 * vcuda_pt_unmap_need() - Tables an unmap may need.
 *
 * Return: The most tables vcuda_pt_unmap() can take from its cache: one
 * to split a large page at each end of the range.
 */
unsigned long vcuda_pt_unmap_need(void)
{
	return 2;
}

/**
 * vcuda_pt_cache_fill() - Allocate tables ahead of a change.
 * @cache: Cache, empty or not.
 * @count: Tables it must hold.
 *
 * Return: 0 or -ENOMEM (the cache keeps what it got).
 */
int vcuda_pt_cache_fill(struct vcuda_pt_cache *cache, unsigned long count)
{
	while (cache->count < count) {
		u64 *t = vcuda_pt_alloc_table();

		if (!t)
			return -ENOMEM;
		t[0] = (u64)(uintptr_t)cache->head;
		cache->head = t;
		cache->count++;
	}
	return 0;
}

/**
 * vcuda_pt_cache_drain() - Free the tables a change did not use.
 * @cache: Cache, empty afterwards.
 */
void vcuda_pt_cache_drain(struct vcuda_pt_cache *cache)
{
	while (cache->head) {
		u64 *t = cache->head;

		cache->head = (u64 *)(uintptr_t)t[0];
		free_page((unsigned long)t);
	}
	cache->count = 0;
}

static u64 *vcuda_pt_cache_take(struct vcuda_pt *pt,
				struct vcuda_pt_cache *cache)
{
	u64 *t = cache->head;

	if (WARN_ON(!t))
		return NULL;
	cache->head = (u64 *)(uintptr_t)t[0];
	cache->count--;
	t[0] = 0;
	pt->tables++;
	atomic_inc(&pt->vdev->live.pt_pages);
	return t;
}

/* The table of @level entries covering @va, made if missing. */
static u64 *vcuda_pt_get_table(struct vcuda_pt *pt,
			       struct vcuda_pt_cache *cache, u64 va, int level)
{
	u64 *t = pt->root;
	int l;

	for (l = VCUDA_PT_LEVELS - 1; l > level; l--) {
		u64 *e = &t[vcuda_pt_index(va, l)];

		if (!(*e & VCUDA_PTE_VALID)) {
			u64 *n = vcuda_pt_cache_take(pt, cache);

			if (!n)
				return NULL;
			*e = vcuda_pt_dir_entry(n);
		} else if (WARN_ON(*e & VCUDA_PTE_LEAF)) {
			return NULL;
		}
		t = vcuda_pt_table(*e);
	}
	return t;
}

/**
 * vcuda_pt_map() - Write the entries of a new mapping.
 * @pt: Page tables.
 * @cache: Tables filled for vcuda_pt_map_need() of the same range.
 * @va: Virtual address, page-aligned, unmapped.
 * @size: Size, page-aligned.
 * @addr: Device address of @va.
 * @readonly: Whether the device may only read.
 *
 * Context: The address space's lock held for writing.
 */
void vcuda_pt_map(struct vcuda_pt *pt, struct vcuda_pt_cache *cache, u64 va,
		  u64 size, u64 addr, bool readonly)
{
	const u64 large = VCUDA_PT_LEVEL_SIZE(1);
	u64 flags = VCUDA_PTE_VALID | (readonly ? VCUDA_PTE_READONLY : 0);
	u64 end = va + size;

	lockdep_assert_held_write(pt->lock);

	while (va < end) {
		u64 next = min(ALIGN_DOWN(va, large) + large, end);
		u64 *t;

		if (next - va == large && IS_ALIGNED(addr, large)) {
			t = vcuda_pt_get_table(pt, cache, va, 1);
			if (!t)
				return;
			/* An unmapped 2 MiB range has no table: see unmap. */
			if (!WARN_ON(t[vcuda_pt_index(va, 1)])) {
				t[vcuda_pt_index(va, 1)] = addr | flags |
							   VCUDA_PTE_LEAF;
				addr += large;
				va = next;
				continue;
			}
		}

		t = vcuda_pt_get_table(pt, cache, va, 0);
		if (!t)
			return;
		for (; va < next; va += PAGE_SIZE, addr += PAGE_SIZE) {
			WARN_ON(t[vcuda_pt_index(va, 0)]);
			t[vcuda_pt_index(va, 0)] = addr | flags;
		}
	}
}

/* Replaces a 2 MiB leaf with a table of the same 512 pages. */
static u64 *vcuda_pt_split(struct vcuda_pt *pt, struct vcuda_pt_cache *cache,
			   u64 *entry)
{
	u64 base = *entry & VCUDA_PTE_ADDR_MASK;
	u64 flags = *entry & (VCUDA_PTE_VALID | VCUDA_PTE_READONLY);
	u64 *t = vcuda_pt_cache_take(pt, cache);
	u32 i;

	if (!t)
		return NULL;
	for (i = 0; i < VCUDA_PT_ENTRIES; i++)
		t[i] = (base + (u64)i * PAGE_SIZE) | flags;
	*entry = vcuda_pt_dir_entry(t);
	return t;
}

/* Frees the table *@entry points to if it is empty. */
static void vcuda_pt_prune(struct vcuda_pt *pt, u64 *entry)
{
	u64 *t = vcuda_pt_table(*entry);

	if (vcuda_pt_empty(t)) {
		*entry = 0;
		vcuda_pt_free_table(pt, t);
	}
}

/**
 * vcuda_pt_unmap() - Clear the entries of a range.
 * @pt: Page tables.
 * @cache: Tables filled for vcuda_pt_unmap_need().
 * @va: Virtual address, page-aligned.
 * @size: Size, page-aligned.
 *
 * Entries already clear stay so; tables left empty are freed.
 *
 * Context: The address space's lock held for writing.
 */
void vcuda_pt_unmap(struct vcuda_pt *pt, struct vcuda_pt_cache *cache, u64 va,
		    u64 size)
{
	const u64 large = VCUDA_PT_LEVEL_SIZE(1);
	u64 end = va + size;

	lockdep_assert_held_write(pt->lock);

	while (va < end) {
		u64 next = min(ALIGN_DOWN(va, large) + large, end);
		u64 *e3, *e2, *e1, *t;

		e3 = &pt->root[vcuda_pt_index(va, 3)];
		if (!(*e3 & VCUDA_PTE_VALID)) {
			va = min(ALIGN_DOWN(va, VCUDA_PT_LEVEL_SIZE(3)) +
				 VCUDA_PT_LEVEL_SIZE(3), end);
			continue;
		}
		e2 = &vcuda_pt_table(*e3)[vcuda_pt_index(va, 2)];
		if (!(*e2 & VCUDA_PTE_VALID)) {
			va = min(ALIGN_DOWN(va, VCUDA_PT_LEVEL_SIZE(2)) +
				 VCUDA_PT_LEVEL_SIZE(2), end);
			continue;
		}
		e1 = &vcuda_pt_table(*e2)[vcuda_pt_index(va, 1)];

		if ((*e1 & VCUDA_PTE_LEAF) && next - va == large) {
			*e1 = 0;
		} else if (*e1 & VCUDA_PTE_VALID) {
			t = (*e1 & VCUDA_PTE_LEAF) ?
			    vcuda_pt_split(pt, cache, e1) : vcuda_pt_table(*e1);
			if (!t) {
				/* Cannot happen: drop the whole page. */
				*e1 = 0;
			} else {
				u64 a;

				for (a = va; a < next; a += PAGE_SIZE)
					t[vcuda_pt_index(a, 0)] = 0;
				vcuda_pt_prune(pt, e1);
			}
		}

		vcuda_pt_prune(pt, e2);
		vcuda_pt_prune(pt, e3);
		va = next;
	}
}

/**
 * vcuda_pt_walk() - Translate a virtual address.
 * @pt: Page tables.
 * @va: Virtual address.
 * @leaf: Output: where the walk ended.
 *
 * Context: The address space's lock held.
 *
 * Return: True if @va is mapped.
 */
bool vcuda_pt_walk(const struct vcuda_pt *pt, u64 va,
		   struct vcuda_pt_leaf *leaf)
{
	const u64 *t = pt->root;
	int level;

	lockdep_assert_held(pt->lock);

	for (level = VCUDA_PT_LEVELS - 1; level >= 0; level--) {
		u64 e = t[vcuda_pt_index(va, level)];

		if (!(e & VCUDA_PTE_VALID))
			return false;
		if (level == 0 || (e & VCUDA_PTE_LEAF)) {
			u64 in_leaf = va & (VCUDA_PT_LEVEL_SIZE(level) - 1);

			leaf->addr = (e & VCUDA_PTE_ADDR_MASK) +
				     (in_leaf & PAGE_MASK);
			leaf->level = level;
			leaf->readonly = e & VCUDA_PTE_READONLY;
			return true;
		}
		t = vcuda_pt_table(e);
	}
	return false;
}

struct vcuda_pt_run {
	u64 va;
	u64 addr;
	u64 size;
	u32 level;
	bool readonly;
	bool mapped;
	u32 leaves;
};

static void vcuda_pt_run_show(struct seq_file *m, const struct vcuda_pt_run *r)
{
	if (!r->size)
		return;
	if (!r->mapped) {
		seq_printf(m, "    0x%012llx-0x%012llx unmapped\n", r->va,
			   r->va + r->size);
		return;
	}
	seq_printf(m,
		   "    0x%012llx-0x%012llx %u x %s %s -> seg %llu +0x%llx\n",
		   r->va, r->va + r->size, r->leaves,
		   r->level ? "2M" : "4K", r->readonly ? "ro" : "rw",
		   r->addr >> VCUDA_DEVADDR_SEG_SHIFT,
		   r->addr & (VCUDA_BO_MAX_SIZE - 1));
}

/**
 * vcuda_pt_dump() - Print the walk of a range, for debugfs.
 * @pt: Page tables.
 * @m: Where to print.
 * @va: Virtual address, page-aligned.
 * @size: Size, page-aligned.
 *
 * Prints runs of leaves of one level and permission whose device
 * addresses follow each other.
 *
 * Context: The address space's lock held.
 */
void vcuda_pt_dump(const struct vcuda_pt *pt, struct seq_file *m, u64 va,
		   u64 size)
{
	struct vcuda_pt_run run = {};
	u64 end = va + size;

	lockdep_assert_held(pt->lock);

	while (va < end) {
		struct vcuda_pt_leaf leaf = {};
		bool mapped = vcuda_pt_walk(pt, va, &leaf);
		u64 step = PAGE_SIZE;

		if (mapped && leaf.level)
			step = min(ALIGN_DOWN(va, VCUDA_PT_LEVEL_SIZE(1)) +
				   VCUDA_PT_LEVEL_SIZE(1), end) - va;

		if (run.size && run.mapped == mapped &&
		    (!mapped || (run.level == leaf.level &&
				 run.readonly == leaf.readonly &&
				 run.addr + run.size == leaf.addr))) {
			run.size += step;
			run.leaves += !leaf.level || !(va & (VCUDA_PT_LEVEL_SIZE(1) - 1));
		} else {
			vcuda_pt_run_show(m, &run);
			run.va = va;
			run.addr = leaf.addr;
			run.size = step;
			run.level = leaf.level;
			run.readonly = leaf.readonly;
			run.mapped = mapped;
			run.leaves = 1;
		}
		va += step;
	}
	vcuda_pt_run_show(m, &run);
}
