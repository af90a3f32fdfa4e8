/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: page tables of a GPU address space.
 */
#ifndef _VCUDA_PT_H_
#define _VCUDA_PT_H_

#include <linux/bits.h>
#include <linux/types.h>

struct rw_semaphore;
struct seq_file;
struct vcuda_device;

/* Levels of the tables: 0 maps 4 KiB pages, 1 may map 2 MiB pages. */
#define VCUDA_PT_LEVELS		4
#define VCUDA_PT_SHIFT		12
#define VCUDA_PT_BITS		9
#define VCUDA_PT_ENTRIES	BIT(VCUDA_PT_BITS)

/* Bytes a leaf of @level maps. */
#define VCUDA_PT_LEVEL_SIZE(level) \
	BIT_ULL(VCUDA_PT_SHIFT + (level) * VCUDA_PT_BITS)

/* Bits of a page-table entry. */
#define VCUDA_PTE_VALID		BIT_ULL(0)
#define VCUDA_PTE_READONLY	BIT_ULL(1)
#define VCUDA_PTE_LEAF		BIT_ULL(2)
#define VCUDA_PTE_ADDR_MASK	(~(u64)(BIT_ULL(VCUDA_PT_SHIFT) - 1))

/**
 * struct vcuda_pt - The page tables of one address space.
 */
struct vcuda_pt {
	/** @vdev: Device, which counts the tables' pages. */
	struct vcuda_device *vdev;

	/**
	 * @lock: The address space's lock, which every change (for
	 * writing) and walk (for reading) of the tables holds.
	 */
	struct rw_semaphore *lock;

	/** @root: The level-3 table. */
	u64 *root;

	/** @tables: Tables allocated, the root included. */
	unsigned long tables;
};

/**
 * struct vcuda_pt_cache - Tables allocated ahead of a change.
 *
 * Free tables are chained through their first entry.
 */
struct vcuda_pt_cache {
	/** @head: First free table, or NULL. */
	u64 *head;

	/** @count: Free tables. */
	unsigned long count;
};

/**
 * struct vcuda_pt_leaf - Where a walk ends.
 */
struct vcuda_pt_leaf {
	/** @addr: Device address of the page of the walked address. */
	u64 addr;

	/** @level: Level of the leaf entry: 0 (4 KiB) or 1 (2 MiB). */
	u32 level;

	/** @readonly: The entry forbids writes. */
	bool readonly;
};

int vcuda_pt_init(struct vcuda_pt *pt, struct vcuda_device *vdev,
		  struct rw_semaphore *lock);
void vcuda_pt_fini(struct vcuda_pt *pt);

unsigned long vcuda_pt_map_need(u64 va, u64 size, u64 addr);
unsigned long vcuda_pt_unmap_need(void);
int vcuda_pt_cache_fill(struct vcuda_pt_cache *cache, unsigned long count);
void vcuda_pt_cache_drain(struct vcuda_pt_cache *cache);

void vcuda_pt_map(struct vcuda_pt *pt, struct vcuda_pt_cache *cache, u64 va,
		  u64 size, u64 addr, bool readonly);
void vcuda_pt_unmap(struct vcuda_pt *pt, struct vcuda_pt_cache *cache, u64 va,
		    u64 size);
bool vcuda_pt_walk(const struct vcuda_pt *pt, u64 va,
		   struct vcuda_pt_leaf *leaf);
void vcuda_pt_dump(const struct vcuda_pt *pt, struct seq_file *m, u64 va,
		   u64 size);

#endif /* _VCUDA_PT_H_ */
