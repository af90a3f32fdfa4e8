// SPDX-License-Identifier: GPL-2.0-only
/*
 * MODULE_IMPORT_NS() takes a bare identifier (before 6.13); newer kernels
 * take a string literal, and this does not compile with them.
 */
#include <linux/module.h>

MODULE_IMPORT_NS(VCUDA_PROBE_NS);
