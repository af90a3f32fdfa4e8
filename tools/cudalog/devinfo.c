// SPDX-License-Identifier: MIT
/*
 * Prints what the driver's integrity check hashes about the machine: the
 * driver version and, per device, its UUID and PCI domain, bus and device
 * numbers. Run beside cudalog's logs so a recorded check can be verified.
 */
#include <stdio.h>

#include <cuda.h>

int main(void)
{
	int version = 0, count = 0;

	if (cuInit(0) || cuDriverGetVersion(&version) || cuDeviceGetCount(&count))
		return 1;
	printf("driver_version %d devices %d\n", version, count);
	for (int d = 0; d < count; d++) {
		CUuuid uuid;
		int domain = 0, bus = 0, dev = 0;

		cuDeviceGetUuid(&uuid, d);
		cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
		cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
		cuDeviceGetAttribute(&dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
		printf("device %d uuid ", d);
		for (int i = 0; i < 16; i++)
			printf("%02x", (unsigned char)uuid.bytes[i]);
		printf(" pci_domain %d pci_bus %d pci_device %d\n", domain, bus, dev);
	}
	return 0;
}
