// SPDX-License-Identifier: MIT
/*
 * vcuda-smi -c, -r, -pm: changes root may make, reported as nvidia-smi
 * reports them. The exit status is NVML's error code, as nvidia-smi's is.
 */
#include <errno.h>
#include <unistd.h>

#include "vcuda-smi.h"

/* NVML's error string and code for an errno. */
static const char *error_string(int err, int *status)
{
	switch (err) {
	case -EPERM:
	case -EACCES:
		*status = SMI_ERR_PERM;
		return "Insufficient Permissions";
	case -EOPNOTSUPP:
		*status = SMI_ERR_NOT_SUPPORTED;
		return "Not Supported";
	case -EINVAL:
		*status = SMI_ERR_ARG;
		return "Invalid Argument";
	default:
		*status = SMI_ERR_UNKNOWN;
		return "Unknown Error";
	}
}

/* "Unable to set the compute mode for GPU 00000000:80:00.0: Not Supported" */
static int failed(const char *what, const struct vsmi_device *dev, int err)
{
	char bus[32];
	int status;
	const char *msg = error_string(err, &status);

	smi_dev_bus_id(dev, bus, sizeof(bus));
	printf("Unable to %s %s: %s\n", what, bus, msg);
	printf("Terminating early due to previous errors.\n");
	return status;
}

static const char *mode_upper(int mode)
{
	switch (mode) {
	case DRM_VCUDA_COMPUTE_MODE_DEFAULT:
		return "DEFAULT";
	case DRM_VCUDA_COMPUTE_MODE_PROHIBITED:
		return "PROHIBITED";
	default:
		return "EXCLUSIVE_PROCESS";
	}
}

int smi_compute_mode(const struct smi_opts *o, struct smi_sys *sys)
{
	int i, ret;

	if (o->value == 1) {
		printf("Exclusive_Thread was deprecated! Use value "
		       "3:Exclusive_Process instead.\n"
		       "Treating as warning and moving on.\nAll done.\n");
		return SMI_OK;
	}
	for (i = 0; i < sys->nsel; i++) {
		const struct vsmi_device *dev = &sys->devs[sys->sel[i]];
		char bus[32];

		ret = smi_nvml_errno(nvmlDeviceSetComputeMode(smi_handle(dev),
						(nvmlComputeMode_t)o->value));
		if (ret)
			return failed("set the compute mode for GPU", dev, ret);
		smi_dev_bus_id(dev, bus, sizeof(bus));
		printf("Set compute mode to %s for GPU %s.\n",
		       mode_upper(o->value), bus);
	}
	printf("All done.\n");
	return SMI_OK;
}

/*
 * A reset faults every context of the device (their owners see
 * CUDA_ERROR_LAUNCH_FAILED-like errors) and leaves it usable; unlike a
 * real GPU's, it does not wait for the device to be idle.
 */
int smi_reset(const struct smi_opts *o, struct smi_sys *sys)
{
	int i, ret;

	(void)o;
	for (i = 0; i < sys->nsel; i++) {
		const struct vsmi_device *dev = &sys->devs[sys->sel[i]];
		char bus[32];

		ret = vsmi_reset(dev);
		if (ret)
			return failed("reset GPU", dev, ret);
		smi_dev_bus_id(dev, bus, sizeof(bus));
		printf("GPU %s was successfully reset.\n", bus);
	}
	printf("All done.\n");
	return SMI_OK;
}

/* The module stays loaded and its devices initialized: nothing to set. */
int smi_persistence(const struct smi_opts *o, struct smi_sys *sys)
{
	const struct vsmi_device *dev = &sys->devs[sys->sel[0]];

	(void)o;
	return failed("set persistence mode for GPU", dev,
		      geteuid() ? -EPERM : -EOPNOTSUPP);
}
