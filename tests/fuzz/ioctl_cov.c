// SPDX-License-Identifier: MIT
/*
 * Coverage features of the ioctl fuzzer: see ioctl_cov.h.
 */
#include "ioctl_cov.h"

#include <fcntl.h>
#include <linux/kcov.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define COUNTERS (1u << 16)
#define KCOV_WORDS (1u << 18)	/* PCs one input may record */
#define SEEN_SLOTS (1u << 18)	/* distinct features remembered: 2 MiB */

/*
 * libFuzzer treats this section as coverage counters of its own: it
 * clears them before each input and keeps an input that sets a new one.
 */
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t counters[COUNTERS];

static int kcov_fd = -1;
static unsigned long *kcov_area;
static uint64_t seen[SEEN_SLOTS];
static uint64_t seen_count;
static unsigned int prev_op;

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Counts @feature once in the run, and bumps its counter for this input. */
static void feature(uint64_t feature)
{
	uint64_t h = mix(feature) | 1;	/* 0 marks a free slot */
	size_t slot = h & (SEEN_SLOTS - 1);

	if (counters[h % COUNTERS] < 255)
		counters[h % COUNTERS]++;
	while (seen[slot] && seen[slot] != h)
		slot = (slot + 1) & (SEEN_SLOTS - 1);
	if (!seen[slot] && seen_count < SEEN_SLOTS / 2) {
		seen[slot] = h;
		seen_count++;
	}
}

void ioctl_cov_init(void)
{
	int fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		goto proxy;
	if (ioctl(fd, KCOV_INIT_TRACE, (unsigned long)KCOV_WORDS))
		goto close_fd;
	kcov_area = mmap(NULL, KCOV_WORDS * sizeof(unsigned long),
			 PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (kcov_area == MAP_FAILED)
		goto close_fd;
	kcov_fd = fd;
	fprintf(stderr, "fuzz_ioctl: coverage: kcov (vcuda.ko's kernel PCs)\n");
	return;
close_fd:
	close(fd);
proxy:
	kcov_area = NULL;
	fprintf(stderr, "fuzz_ioctl: coverage: proxy (no KCOV in this kernel: "
		"(ioctl, errno, argument class) features, not kernel coverage)\n");
}

bool ioctl_cov_have_kcov(void)
{
	return kcov_fd >= 0;
}

void ioctl_cov_input_begin(void)
{
	prev_op = 0xff;
	if (kcov_fd < 0)
		return;
	__atomic_store_n(&kcov_area[0], 0, __ATOMIC_RELAXED);
	if (ioctl(kcov_fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
		perror("fuzz_ioctl: KCOV_ENABLE");
		close(kcov_fd);
		kcov_fd = -1;
	}
}

void ioctl_cov_input_end(void)
{
	unsigned long n, i;

	if (kcov_fd < 0)
		return;
	n = __atomic_load_n(&kcov_area[0], __ATOMIC_RELAXED);
	ioctl(kcov_fd, KCOV_DISABLE, 0);
	if (n > KCOV_WORDS - 1)
		n = KCOV_WORDS - 1;
	for (i = 1; i <= n; i++)
		feature(kcov_area[i]);
}

void ioctl_cov_call(unsigned int op, unsigned int arg_class, int err)
{
	uint64_t outcome = (uint64_t)op << 16 | (uint64_t)(-err & 0xff) << 8;

	if (kcov_fd < 0) {
		feature(1ull << 56 | outcome | (arg_class & 0xff));
		feature(2ull << 56 | (uint64_t)prev_op << 32 | outcome);
	}
	prev_op = op;
}

uint64_t ioctl_cov_distinct(void)
{
	return seen_count;
}
