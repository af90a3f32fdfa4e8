/* SPDX-License-Identifier: MIT */
/*
 * vcuda-smi -q: the sections of one device (qsections.c) and -d's choice
 * among them (query.c).
 */
#ifndef VCUDA_SMI_QUERY_H
#define VCUDA_SMI_QUERY_H

#include "vcuda-smi.h"

/* -d's display types. */
enum {
	D_MEMORY = 1 << 0,
	D_UTILIZATION = 1 << 1,
	D_ECC = 1 << 2,
	D_TEMPERATURE = 1 << 3,
	D_POWER = 1 << 4,
	D_CLOCK = 1 << 5,
	D_COMPUTE = 1 << 6,
	D_PIDS = 1 << 7,
	D_PERFORMANCE = 1 << 8,
	D_OTHER = 1 << 9,	/* accepted, nothing of ours to show */
	D_ALL = (1 << 10) - 1,
};

void q_general(struct qout *q, const struct vsmi_device *dev);
void q_performance(struct qout *q);
void q_memory(struct qout *q, const struct vsmi_device *dev);
void q_compute(struct qout *q, const struct vsmi_device *dev);
void q_utilization(struct qout *q, const struct vsmi_device *dev,
		   bool samples);
void q_ecc(struct qout *q);
void q_temperature(struct qout *q);
void q_power(struct qout *q);
void q_clocks(struct qout *q, const struct vsmi_device *dev);
void q_processes(struct qout *q, const struct smi_sys *sys, int dev);

#endif /* VCUDA_SMI_QUERY_H */
