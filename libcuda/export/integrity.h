/* SPDX-License-Identifier: MIT */
/*
 * The answer to NVIDIA's runtime's integrity check (integrity.c).
 */
#ifndef VCUDA_EXPORT_INTEGRITY_H
#define VCUDA_EXPORT_INTEGRITY_H

#include <stdint.h>

struct integrity_device {
	uint8_t uuid[16];
	uint32_t pci_domain, pci_bus, pci_device;
};

struct integrity_input {
	uint32_t driver_version, runtime_version, pid, tid;
	uint64_t runtime_table;		/* the runtime-interface table's address */
	uint64_t check_table;		/* the check's own table's address */
	uint64_t check_fn;		/* the check function's address */
	uint64_t timestamp;
	unsigned int ndevices;
	const struct integrity_device *devices;
};

void integrity_answer(const struct integrity_input *in, uint8_t out[16]);

#endif
