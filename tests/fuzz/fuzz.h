/* SPDX-License-Identifier: MIT */
/*
 * Fuzz targets of the PTX front end. Each target file defines
 * LLVMFuzzerTestOneInput, libFuzzer's entry point, so that the same code
 * runs under libFuzzer (make fuzz-libfuzzer, clang) or under driver.c, a
 * bounded-time mutation loop built with gcc's ASan/UBSan that the test
 * suite runs (make test).
 */
#ifndef VCUDA_FUZZ_H
#define VCUDA_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the driver's mutations should favour: tokens of the input
 * language, spliced in whole. NULL-terminated; per target. */
extern const char *const fuzz_dictionary[];

#endif
