// SPDX-License-Identifier: MIT
/*
 * Host object and archive reader (hostobj.h): finds the fatbin sections
 * of 64-bit little-endian ELF relocatable objects, alone or as members
 * of a System V ar archive, and hands them to the fatbin reader.
 */
#include "hostobj.h"
#include "fatbin_walk.h"
#include "le_read.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	ELF_HEADER = 64,
	ELF_SECTION_HEADER = 64,
	EM_CUDA = 190,
	AR_MAGIC_LEN = 8,
	AR_HEADER = 60,
};

static const char ar_magic[AR_MAGIC_LEN] = "!<arch>\n";
/* nvcc's sections: relocatable device code (-rdc/-dc), whole program */
static const char *const fatbin_sections[] = { "__nv_relfatbin",
					       ".nv_fatbin" };

/* A 64-bit little-endian ELF file for the host: not a cubin (EM_CUDA). */
static bool is_host_elf(const uint8_t *p, size_t size)
{
	return size >= ELF_HEADER && !memcmp(p, "\x7f" "ELF", 4) &&
	       p[4] == 2 && p[5] == 1 && rd16(p + 18) != EM_CUDA;
}

static bool is_archive(const uint8_t *p, size_t size)
{
	return size >= AR_MAGIC_LEN && !memcmp(p, ar_magic, AR_MAGIC_LEN);
}

/* Moves every item of @from to the end of @to; @from ends empty. */
static enum fatbin_status list_append(struct fatbin_ptx_list *to,
				      struct fatbin_ptx_list *from)
{
	struct fatbin_ptx *items;

	if (!from->count)
		return FATBIN_OK;
	items = realloc(to->items,
			(to->count + from->count) * sizeof(*items));
	if (!items)
		return FATBIN_NO_MEMORY;
	memcpy(items + to->count, from->items,
	       from->count * sizeof(*items));
	to->items = items;
	to->count += from->count;
	free(from->items);
	from->items = NULL;
	from->count = 0;
	return FATBIN_OK;
}

static bool is_fatbin_section(const char *name, size_t avail)
{
	for (size_t i = 0; i < sizeof(fatbin_sections) /
				       sizeof(fatbin_sections[0]); i++) {
		size_t len = strlen(fatbin_sections[i]);

		if (avail > len && !memcmp(name, fatbin_sections[i], len + 1))
			return true;
	}
	return false;
}

/* The section table, checked to lie inside the image. */
static bool section_table(const uint8_t *p, size_t size, uint64_t *shoff,
			  unsigned *shnum, const uint8_t **strtab,
			  size_t *strtab_size)
{
	unsigned shstrndx = rd16(p + 62);
	const uint8_t *sh;

	*shoff = rd64(p + 40);
	*shnum = rd16(p + 60);
	if (rd16(p + 58) != ELF_SECTION_HEADER || shstrndx >= *shnum ||
	    *shoff > size || *shnum > (size - *shoff) / ELF_SECTION_HEADER)
		return false;
	sh = p + *shoff + (size_t)shstrndx * ELF_SECTION_HEADER;
	if (rd64(sh + 24) > size || rd64(sh + 32) > size - rd64(sh + 24))
		return false;
	*strtab = p + rd64(sh + 24);
	*strtab_size = rd64(sh + 32);
	return true;
}

/*
 * The PTX of every fatbin section of one host object. @found counts the
 * fatbin sections, so that an object without device code is told apart
 * from one whose device code is SASS only.
 */
static enum fatbin_status object_ptx(const uint8_t *p, size_t size,
				     unsigned device_arch,
				     struct fatbin_ptx_list *out,
				     unsigned *found, char *err,
				     size_t err_len)
{
	const uint8_t *strtab;
	size_t strtab_size;
	uint64_t shoff;
	unsigned shnum;
	enum fatbin_status st = FATBIN_OK;

	if (!section_table(p, size, &shoff, &shnum, &strtab, &strtab_size))
		return fatbin_fail(FATBIN_INVALID, err, err_len,
				   "host object: bad section table");
	for (unsigned i = 0; i < shnum && st == FATBIN_OK; i++) {
		const uint8_t *sh = p + shoff + (size_t)i * ELF_SECTION_HEADER;
		uint64_t name = rd32(sh), off = rd64(sh + 24),
			 len = rd64(sh + 32);
		struct fatbin_ptx_list one = { 0 };

		if (name >= strtab_size ||
		    !is_fatbin_section((const char *)strtab + name,
				       strtab_size - name))
			continue;
		if (off > size || len > size - off || !len)
			return fatbin_fail(FATBIN_INVALID, err, err_len,
					   "host object: section %u out of bounds",
					   i);
		(*found)++;
		st = fatbin_collect_ptx(p + off, len, device_arch, &one, err,
					err_len);
		if (st == FATBIN_OK)
			st = list_append(out, &one);
		fatbin_ptx_list_free(&one);
	}
	return st;
}

static enum fatbin_status object_collect(const uint8_t *p, size_t size,
					 unsigned device_arch,
					 struct fatbin_ptx_list *out,
					 char *err, size_t err_len)
{
	unsigned found = 0;
	enum fatbin_status st = object_ptx(p, size, device_arch, out, &found,
					   err, err_len);

	if (st == FATBIN_OK && !found)
		return fatbin_fail(FATBIN_NO_PTX, err, err_len,
				   "host object carries no device code");
	return st;
}

/* A member's size: the decimal field of its header. */
static bool member_size(const uint8_t *hdr, size_t *size)
{
	char field[11];
	char *end;

	if (hdr[58] != '`' || hdr[59] != '\n')
		return false;
	memcpy(field, hdr + 48, 10);
	field[10] = 0;
	*size = strtoul(field, &end, 10);
	return end != field;
}

/*
 * Each ELF member's PTX. The symbol table and long-name members are not
 * ELF and are passed over, as are members with nothing for this device.
 */
static enum fatbin_status archive_collect(const uint8_t *p, size_t size,
					  unsigned device_arch,
					  struct fatbin_ptx_list *out,
					  char *err, size_t err_len)
{
	size_t at = AR_MAGIC_LEN, members = 0;
	char why[256] = "";

	while (at + AR_HEADER <= size) {
		size_t len;
		const uint8_t *data = p + at + AR_HEADER;
		enum fatbin_status st;

		if (!member_size(p + at, &len) ||
		    len > size - at - AR_HEADER)
			return fatbin_fail(FATBIN_INVALID, err, err_len,
					   "archive: bad member header at %zu", at);
		if (is_host_elf(data, len)) {
			members++;
			st = object_collect(data, len, device_arch, out, why,
					    sizeof(why));
			if (st != FATBIN_OK && st != FATBIN_NO_PTX)
				return fatbin_fail(st, err, err_len,
						   "archive member at %zu: %s", at,
						   why);
		}
		at += AR_HEADER + len + (len & 1);
	}
	if (!out->count)
		return fatbin_fail(FATBIN_NO_PTX, err, err_len,
				   "archive: none of its %zu objects carries PTX "
				   "for sm_%u%s%s", members, device_arch,
				   why[0] ? "; last: " : "", why);
	return FATBIN_OK;
}

enum fatbin_status hostobj_collect_ptx(const void *image, size_t size,
				       unsigned device_arch,
				       struct fatbin_ptx_list *out,
				       char *err, size_t err_len)
{
	const uint8_t *p = image;
	enum fatbin_status st;

	out->items = NULL;
	out->count = 0;
	if (err && err_len)
		err[0] = 0;
	if (!p || !size)
		return fatbin_fail(FATBIN_INVALID, err, err_len, "empty image");
	if (is_archive(p, size))
		st = archive_collect(p, size, device_arch, out, err, err_len);
	else if (is_host_elf(p, size))
		st = object_collect(p, size, device_arch, out, err, err_len);
	else
		st = fatbin_fail(FATBIN_INVALID, err, err_len,
				 "neither a host ELF object nor an archive");
	if (st != FATBIN_OK)
		fatbin_ptx_list_free(out);
	return st;
}
