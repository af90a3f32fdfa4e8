// SPDX-License-Identifier: MIT
/*
 * smi-load: known work on a vcuda device for the vcuda-smi tests, through
 * the raw uAPI (tests/kselftest/vcuda_test.h), so that the figures the
 * tool shows can be checked against what this program did.
 *
 *   smi-load [-d DEV] [-m MIB] [-b PERCENT] [-t SECONDS] [-r]
 *
 *   -d DEV      device index (default 0)
 *   -m MIB      device memory to allocate, in MiB (default 0)
 *   -b PERCENT  keep the compute engine busy PERCENT of every 100 ms: a
 *               launch whose worker (a thread of this process) holds it
 *               for PERCENT ms (default 0: no launches)
 *   -t SECONDS  how long to run (default 30)
 *   -r          wait for a device reset: once the context has faulted
 *               with DRM_VCUDA_FAULT_RESET, make a new context, fill a
 *               buffer on the copy engine and check it; exit 0 if it works
 *
 * Prints "ready" once set up, "reset-seen" and "recovered" for -r. If the
 * context cannot be created, prints "ctx-create: -ERRNO" and exits 3.
 */
#include "vcuda_test.h"

#define MS 1000000ull

struct load {
	int dev, fd;
	unsigned int mib, busy_pct, seconds;
	bool wait_reset;
	uint32_t ctx, bo, queue, syncobj;
	volatile bool stop;
};

static void usage(void)
{
	fprintf(stderr, "usage: smi-load [-d DEV] [-m MIB] [-b PERCENT] "
		"[-t SECONDS] [-r]\n");
	exit(2);
}

static void parse(int argc, char **argv, struct load *l)
{
	int c;

	l->seconds = 30;
	while ((c = getopt(argc, argv, "d:m:b:t:r")) != -1) {
		switch (c) {
		case 'd':
			l->dev = atoi(optarg);
			break;
		case 'm':
			l->mib = (unsigned int)atoi(optarg);
			break;
		case 'b':
			l->busy_pct = (unsigned int)atoi(optarg);
			break;
		case 't':
			l->seconds = (unsigned int)atoi(optarg);
			break;
		case 'r':
			l->wait_reset = true;
			break;
		default:
			usage();
		}
	}
	if (l->busy_pct > 100)
		usage();
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

/* The compute engine's worker: holds each launch busy_pct ms. */
static void *worker(void *arg)
{
	struct load *l = arg;
	struct drm_vcuda_compute_wait w;

	while (!l->stop) {
		int ret = vt_compute_wait(l->fd, l->ctx, 200 * MS, &w);

		if (ret == -ETIMEDOUT)
			continue;
		if (ret)
			break;
		sleep_ms(l->busy_pct);
		vt_compute_done(l->fd, l->ctx, w.launch_id, 0, 0);
	}
	return NULL;
}

/* One launch per 100 ms, waited for, until the time is up. */
static int busy_loop(struct load *l, uint64_t end_ns)
{
	struct drm_vcuda_cmd cmd = vt_launch(1);
	uint64_t point = 0;
	pthread_t thr;
	int ret = 0;

	if (vt_queue_create(l->fd, l->ctx, DRM_VCUDA_ENGINE_COMPUTE,
			    DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &l->queue) ||
	    drmSyncobjCreate(l->fd, 0, &l->syncobj))
		return 1;
	pthread_create(&thr, NULL, worker, l);
	while (!ret && vt_now_ns() < end_ns) {
		struct drm_vcuda_sync_op sig = vt_signal_tl(l->syncobj, ++point);

		ret = vt_submit1(l->fd, l->queue, &cmd, 1, &sig, 1) ||
		      vt_wait_point(l->fd, l->syncobj, point, 5000);
		if (!ret && l->busy_pct < 100)
			sleep_ms(100 - l->busy_pct);
	}
	l->stop = true;
	pthread_join(thr, NULL);
	return ret ? 1 : 0;
}

/* After a reset: a new context fills a buffer on the copy engine. */
static int recover(struct load *l)
{
	const uint64_t size = 1 << 20;
	struct drm_vcuda_cmd cmd = { .op = DRM_VCUDA_CMD_FILL,
				     .flags = DRM_VCUDA_CMD_FILL_32 };
	uint32_t ctx, bo, q, sync;
	uint64_t va = vt_reserve_va(size);
	struct drm_vcuda_sync_op sig;
	uint32_t *p;
	size_t i;

	vt_ctx_destroy(l->fd, l->ctx);
	if (!va || vt_ctx_create(l->fd, &ctx) ||
	    vt_bo_create(l->fd, size, DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &bo) ||
	    vt_map(l->fd, ctx, bo, 0, va, size, 0) ||
	    vt_queue_create(l->fd, ctx, DRM_VCUDA_ENGINE_COPY,
			    DRM_VCUDA_QUEUE_PRIORITY_NORMAL, &q) ||
	    drmSyncobjCreate(l->fd, 0, &sync))
		return 1;
	p = vt_bo_mmap(l->fd, bo, size, (void *)(uintptr_t)va);
	if (p == MAP_FAILED)
		return 1;
	cmd.u.fill.dst = va;
	cmd.u.fill.width = size / 4;
	cmd.u.fill.height = 1;
	cmd.u.fill.pitch = size;
	cmd.u.fill.value = 0x5eedf00d;
	sig = vt_signal_bin(sync);
	if (vt_submit1(l->fd, q, &cmd, 1, &sig, 1) ||
	    vt_wait_bin(l->fd, sync, 5000))
		return 1;
	for (i = 0; i < size / 4; i++)
		if (p[i] != 0x5eedf00d)
			return 1;
	return 0;
}

static int wait_reset(struct load *l, uint64_t end_ns)
{
	struct drm_vcuda_ctx_get_state st;

	while (vt_now_ns() < end_ns) {
		if (vt_ctx_state(l->fd, l->ctx, &st))
			return 1;
		if (st.fault_kind == DRM_VCUDA_FAULT_RESET) {
			printf("reset-seen\n");
			fflush(stdout);
			if (recover(l))
				return 1;
			printf("recovered\n");
			return 0;
		}
		sleep_ms(20);
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct load l = { 0 };
	uint64_t end_ns;
	int ret;

	parse(argc, argv, &l);
	end_ns = vt_now_ns() + l.seconds * 1000 * MS;
	l.fd = vt_open_index(l.dev);
	if (l.fd < 0)
		return 1;
	ret = vt_ctx_create(l.fd, &l.ctx);
	if (ret) {
		printf("ctx-create: %d\n", ret);
		return 3;
	}
	if (l.mib && vt_bo_create(l.fd, (uint64_t)l.mib << 20,
				  DRM_VCUDA_BO_PLACEMENT_DEVICE, 0, &l.bo))
		return 1;
	printf("ready\n");
	fflush(stdout);
	if (l.wait_reset)
		return wait_reset(&l, end_ns);
	if (l.busy_pct)
		return busy_loop(&l, end_ns);
	while (vt_now_ns() < end_ns)
		sleep_ms(50);
	return 0;
}
