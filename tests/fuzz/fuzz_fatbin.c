// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the fatbin reader on arbitrary images of known size —
 * containers, entries, compressed payloads, PTX text — for a device of
 * each compute capability the corpus targets. Reads must stay within
 * the image; any input ends in a list or an error, never a crash.
 * Registration wrappers are left out: they hold absolute pointers into
 * the process (fatbin.h), which a fuzzed image would aim anywhere.
 */
#include "fatbin.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* Fields the reader decodes, as little-endian bytes. */
const char *const fuzz_dictionary[] = {
	"\x50\xed\x55\xba", "\x01\x00\x10\x00",
	"\x02\x00", "\x01\x00", "\x40\x00\x00\x00", "\x00\x00\x00\x00",
	"\xff\xff\xff\xff", "\x00\x00\x00\x80", "\x4b\x00\x00\x00",
	"\x50\x00\x00\x00", "\x5a\x00\x00\x00", "\x28\xb5\x2f\xfd",
	".version 7.5\n.target sm_75\n.address_size 64\n", NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned archs[] = { 75, 80, 90 };
	if (!size || (size >= 4 && !memcmp(data, "\xb1\x43\x62\x46", 4)))
		return 0;	/* size 0 means "unknown"; wrappers: above */
	/* a copy of exactly @size bytes, so ASan sees any overread */
	uint8_t *image = malloc(size ? size : 1);
	if (!image)
		return 0;
	memcpy(image, data, size);
	for (size_t i = 0; i < sizeof(archs) / sizeof(archs[0]); i++) {
		struct fatbin_ptx_list list = { 0 };
		char err[256];
		if (fatbin_collect_ptx(image, size, archs[i], &list, err,
				       sizeof(err)) == FATBIN_OK)
			fatbin_ptx_list_free(&list);
	}
	free(image);
	return 0;
}
