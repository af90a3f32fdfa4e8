// SPDX-License-Identifier: MIT
/*
 * CUDA_VISIBLE_DEVICES, as the CUDA Programming Guide describes it: a
 * comma-separated list of device indices or UUIDs ("GPU-8932f937-...",
 * or enough of its leading digits to name one device). The devices listed
 * are the ones the process sees, in the list's order; an entry that
 * names no device ends the list, so "0,2,-1,1" shows devices 0 and 2.
 * What the guide leaves open is as an H200 answered
 * (tests/api/visible_devices_api.expected): an index is read as strtol
 * reads it (" 0", "+0", "00" name device 0), an empty entry ends the
 * list, and a device listed twice fails cuInit (CUDA_ERROR_INVALID_DEVICE).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "visible.h"

/* A UUID as nvidia-smi prints it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx. */
static void uuid_text(const uint8_t u[16], char out[41])
{
	int n = sprintf(out, "GPU-");

	for (int i = 0; i < 16; i++) {
		n += sprintf(out + n, "%02x", u[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			out[n++] = '-';
	}
	out[n] = '\0';
}

/* The device whose UUID @tok begins, if exactly one; else -1. */
static int by_uuid(const char *tok, size_t len, const uint8_t (*uuids)[16],
		   int count)
{
	char text[41];
	int found = -1;

	for (int i = 0; i < count; i++) {
		uuid_text(uuids[i], text);
		if (len > strlen(text) || strncasecmp(text, tok, len))
			continue;
		if (found >= 0)
			return -1;	/* ambiguous */
		found = i;
	}
	return found;
}

/* The device @tok names (an index or a UUID prefix), or -1. */
static int entry(const char *tok, size_t len, const uint8_t (*uuids)[16],
		 int count)
{
	char digits[16];
	char *end;
	long index;

	if (len > 4 && !strncasecmp(tok, "GPU-", 4))
		return by_uuid(tok, len, uuids, count);
	if (!len || len >= sizeof(digits))
		return -1;
	memcpy(digits, tok, len);
	digits[len] = '\0';
	index = strtol(digits, &end, 10);
	if (end == digits || *end || index < 0 || index >= count)
		return -1;
	return (int)index;
}

int visible_devices(const char *spec, const uint8_t (*uuids)[16], int count,
		    int *order)
{
	bool listed[count > 0 ? count : 1];
	int shown = 0;

	memset(listed, 0, sizeof(listed));
	while (*spec) {
		size_t len = strcspn(spec, ",");
		const char *tok = spec;
		int dev;

		while (len && isspace((unsigned char)*tok)) {
			tok++;
			len--;
		}
		while (len && isspace((unsigned char)tok[len - 1]))
			len--;
		dev = entry(tok, len, uuids, count);
		if (dev < 0)
			break;
		if (listed[dev])
			return -1;
		listed[dev] = true;
		order[shown++] = dev;
		spec += strcspn(spec, ",");
		if (*spec == ',')
			spec++;
	}
	return shown;
}
