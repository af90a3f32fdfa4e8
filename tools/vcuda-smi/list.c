// SPDX-License-Identifier: MIT
/*
 * vcuda-smi -L: one line per device.
 */
#include "vcuda-smi.h"

int smi_list(const struct smi_opts *o, struct smi_sys *sys)
{
	int i;

	(void)o;
	for (i = 0; i < sys->nsel; i++) {
		const struct vsmi_device *dev = &sys->devs[sys->sel[i]];
		char name[64];

		smi_dev_name(dev, name, sizeof(name));
		printf("GPU %u: %s (UUID: %s)\n", dev->index, name,
		       dev->uuid[0] ? dev->uuid : NA);
	}
	return SMI_OK;
}
