/* SPDX-License-Identifier: MIT */
/*
 * Coverage of the ioctl fuzzer (fuzz_ioctl.c), fed to libFuzzer as extra
 * counters. Two sources, and the run says which one it has:
 *
 *  - "kcov": the kernel PCs of vcuda.ko that each input executed, from
 *    /sys/kernel/debug/kcov on the calling thread. This needs a kernel
 *    built with CONFIG_KCOV, vcuda.ko built with KCOV_INSTRUMENT=y, and
 *    the fuzzer running as root. Debian's kernels have no KCOV, so this
 *    path has not run in the test VM.
 *  - "proxy": without KCOV, what the harness saw of each call: (ioctl,
 *    errno, argument class) and (previous ioctl, ioctl, errno). This is
 *    NOT kernel coverage, only a stand-in that rewards inputs reaching new
 *    outcomes of the interface.
 */
#ifndef VCUDA_IOCTL_COV_H
#define VCUDA_IOCTL_COV_H

#include <stdbool.h>
#include <stdint.h>

/* Opens KCOV when the kernel has it; says which source is in use. */
void ioctl_cov_init(void);
bool ioctl_cov_have_kcov(void);

/* Around each input: collect its kernel PCs (KCOV mode only). */
void ioctl_cov_input_begin(void);
void ioctl_cov_input_end(void);

/* After each call: the proxy features (always recorded). */
void ioctl_cov_call(unsigned int op, unsigned int arg_class, int err);

/* Distinct kernel PCs or proxy features seen since the start. */
uint64_t ioctl_cov_distinct(void);

#endif
