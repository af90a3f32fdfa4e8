// SPDX-License-Identifier: GPL-2.0-only
/*
 * vcuda: debugfs dumps of a device's contexts, address spaces and page
 * tables.
 */

#include <linux/seq_file.h>
#include <drm/drm_debugfs.h>

#include "vcuda_ctx.h"
#include "vcuda_drv.h"
#include "vcuda_queue.h"
#include "vcuda_vm.h"

/**
 * DOC: debugfs
 *
 * Each device's debugfs directory (``/sys/kernel/debug/dri/<minor>/``,
 * for the render node's minor as for the primary one) has, for
 * debugging and not for parsing:
 *
 * - ``contexts``: one line per live context of any client: its ID, the
 *   client ID (as in fdinfo), process ID and name, fault state, and its
 *   queues as ID:engine:priority;
 * - ``vm``: per context, its mappings (range, permission, kind of object,
 *   device address segment and offset) and reservations;
 * - ``pagetable``: per context, the number of page tables and, for every
 *   mapping, the walk of its range: runs of 4K or 2M leaves and the
 *   device addresses they point to;
 * - ``objects``: the objects of the device alive now (buffer objects,
 *   contexts, queues, jobs, page-table pages), which tests compare
 *   before and after a process dies, and ``sem_polls``, how many times
 *   an unsatisfied semaphore acquire has been looked at since load.
 */

static const char *const vcuda_engine_names[] = {
	[DRM_VCUDA_ENGINE_COMPUTE] = "compute",
	[DRM_VCUDA_ENGINE_COPY] = "copy",
};

static const char *const vcuda_priority_names[] = {
	[DRM_VCUDA_QUEUE_PRIORITY_LOW] = "low",
	[DRM_VCUDA_QUEUE_PRIORITY_NORMAL] = "normal",
	[DRM_VCUDA_QUEUE_PRIORITY_HIGH] = "high",
};

static struct vcuda_device *vcuda_debugfs_dev(struct seq_file *m)
{
	struct drm_debugfs_entry *entry = m->private;

	return to_vcuda_device(entry->dev);
}

static int vcuda_debugfs_contexts(struct seq_file *m, void *data)
{
	struct vcuda_device *vdev = vcuda_debugfs_dev(m);
	struct vcuda_ctx *ctx;

	seq_puts(m, "ctx client pid command fault queues\n");
	mutex_lock(&vdev->ctx_lock);
	list_for_each_entry(ctx, &vdev->ctx_list, dev_link) {
		struct vcuda_queue *q;
		u32 kind, queue_id;
		u64 addr;

		spin_lock(&ctx->fault_lock);
		kind = ctx->fault_kind;
		addr = ctx->fault_addr;
		queue_id = ctx->fault_queue_id;
		spin_unlock(&ctx->fault_lock);

		seq_printf(m, "%u %llu %d %s ", ctx->id, ctx->client_id,
			   ctx->pid, ctx->comm);
		if (kind)
			seq_printf(m, "\"%s at 0x%llx, queue %u\"",
				   vcuda_fault_name(kind), addr, queue_id);
		else
			seq_puts(m, "none");

		mutex_lock(&ctx->queues_lock);
		list_for_each_entry(q, &ctx->queues, ctx_link)
			seq_printf(m, " %u:%s:%s", q->id,
				   vcuda_engine_names[q->engine],
				   vcuda_priority_names[q->priority]);
		mutex_unlock(&ctx->queues_lock);
		seq_putc(m, '\n');
	}
	mutex_unlock(&vdev->ctx_lock);
	return 0;
}

static int vcuda_debugfs_show_vms(struct seq_file *m, bool page_tables)
{
	struct vcuda_device *vdev = vcuda_debugfs_dev(m);
	struct vcuda_ctx *ctx;

	mutex_lock(&vdev->ctx_lock);
	list_for_each_entry(ctx, &vdev->ctx_list, dev_link) {
		seq_printf(m, "ctx %u client %llu pid %d %s\n", ctx->id,
			   ctx->client_id, ctx->pid, ctx->comm);
		vcuda_vm_show(ctx->vm, m, page_tables);
	}
	mutex_unlock(&vdev->ctx_lock);
	return 0;
}

static int vcuda_debugfs_vm(struct seq_file *m, void *data)
{
	return vcuda_debugfs_show_vms(m, false);
}

static int vcuda_debugfs_pagetable(struct seq_file *m, void *data)
{
	return vcuda_debugfs_show_vms(m, true);
}

static int vcuda_debugfs_objects(struct seq_file *m, void *data)
{
	struct vcuda_device *vdev = vcuda_debugfs_dev(m);

	seq_printf(m, "bos %d\n", atomic_read(&vdev->live.bos));
	seq_printf(m, "contexts %d\n", atomic_read(&vdev->live.ctxs));
	seq_printf(m, "queues %d\n", atomic_read(&vdev->live.queues));
	seq_printf(m, "jobs %d\n", atomic_read(&vdev->live.jobs));
	seq_printf(m, "pt_pages %d\n", atomic_read(&vdev->live.pt_pages));
	seq_printf(m, "sem_polls %lld\n", atomic64_read(&vdev->sem_polls));
	seq_printf(m, "vram_used %lld\n", atomic64_read(&vdev->vram_used));
	seq_printf(m, "host_pinned %lld\n",
		   atomic64_read(&vdev->host_pinned));
	return 0;
}

/**
 * vcuda_debugfs_init() - Create a device's debugfs files.
 * @vdev: Device, not yet registered.
 */
void vcuda_debugfs_init(struct vcuda_device *vdev)
{
	drm_debugfs_add_file(&vdev->drm, "contexts", vcuda_debugfs_contexts,
			     NULL);
	drm_debugfs_add_file(&vdev->drm, "vm", vcuda_debugfs_vm, NULL);
	drm_debugfs_add_file(&vdev->drm, "pagetable", vcuda_debugfs_pagetable,
			     NULL);
	drm_debugfs_add_file(&vdev->drm, "objects", vcuda_debugfs_objects,
			     NULL);
}
