/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcuda: a queue's ring and its execution.
 */
#ifndef _VCUDA_RING_H_
#define _VCUDA_RING_H_

#include <linux/types.h>

struct vcuda_queue;
struct work_struct;

bool vcuda_queue_exec(struct vcuda_queue *q, u64 budget_ns);
void vcuda_queue_exec_work(struct work_struct *work);
void vcuda_queue_poll_work(struct work_struct *work);
void vcuda_queue_cancel(struct vcuda_queue *q, int error);

#endif /* _VCUDA_RING_H_ */
