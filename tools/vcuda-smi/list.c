// SPDX-License-Identifier: MIT
/*
 * vcuda-smi -L: one line per device.
 */
#include <string.h>

#include "vcuda-smi.h"

int smi_list(const struct smi_opts *o, struct smi_sys *sys)
{
	int i;

	(void)o;
	for (i = 0; i < sys->nsel; i++) {
		const struct vsmi_device *dev = &sys->devs[sys->sel[i]];
		char name[64], uuid[NVML_DEVICE_UUID_V2_BUFFER_SIZE];

		smi_dev_name(dev, name, sizeof(name));
		if (smi_uuid(dev, uuid, sizeof(uuid)))
			strcpy(uuid, NA);
		printf("GPU %u: %s (UUID: %s)\n", dev->index, name, uuid);
	}
	return SMI_OK;
}
