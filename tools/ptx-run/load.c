// SPDX-License-Identifier: MIT
/*
 * ptx-run input: a PTX text, a fatbin, or an ELF file (executable or
 * object) whose .nv_fatbin / __nv_relfatbin sections hold fatbins.
 */
#include "ptx-run.h"
#include "fatbin.h"
#include "fatbin_walk.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			uint8_t *b = realloc(buf, cap + 1);
			if (!b)
				break;
			buf = b;
		}
		size_t r = fread(buf + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	*len = n;
	return buf;
}

struct section {
	const char *name;
	const uint8_t *data;
	size_t size;
};

/* Fatbin sections of an ELF64 image, in file order. */
static size_t elf_fatbin_sections(const uint8_t *img, size_t len,
				  struct section *out, size_t max)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	if (len < sizeof(*eh) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len ||
	    eh->e_shstrndx >= eh->e_shnum)
		return 0;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	const char *names = (const char *)img + sh[eh->e_shstrndx].sh_offset;
	size_t n = 0;
	for (unsigned i = 0; i < eh->e_shnum && n < max; i++) {
		const char *name = names + sh[i].sh_name;
		if (strcmp(name, ".nv_fatbin") && strcmp(name, "__nv_relfatbin"))
			continue;
		if (sh[i].sh_type == SHT_NOBITS ||
		    sh[i].sh_offset + sh[i].sh_size > len)
			continue;
		out[n++] = (struct section){ name, img + sh[i].sh_offset,
					     sh[i].sh_size };
	}
	return n;
}

static bool add_source(struct loaded *out, char *text, size_t len,
		       const char *name)
{
	size_t n = out->count + 1;
	struct ptx_source *s = realloc(out->sources, n * sizeof(*s));
	char **t = s ? realloc(out->texts, n * sizeof(*t)) : NULL;
	char **nm = t ? realloc(out->names, n * sizeof(*nm)) : NULL;
	if (s)
		out->sources = s;
	if (t)
		out->texts = t;
	if (!nm)
		return false;
	out->names = nm;
	out->texts[out->count] = text;
	out->names[out->count] = strdup(name);
	out->sources[out->count] = (struct ptx_source){ text, len,
							out->names[out->count] };
	out->count = n;
	return true;
}

static bool add_fatbin(struct loaded *out, const uint8_t *data, size_t size,
		       unsigned arch, const char *what, bool quiet_no_ptx)
{
	struct fatbin_ptx_list list;
	char err[256];
	enum fatbin_status st = fatbin_collect_ptx(data, size, arch, &list, err,
						   sizeof(err));
	if (st == FATBIN_NO_PTX && quiet_no_ptx)
		return true;
	if (st != FATBIN_OK) {
		fprintf(stderr, "%s: %s\n", what, err);
		return false;
	}
	for (size_t i = 0; i < list.count; i++) {
		char name[512];
		snprintf(name, sizeof(name), "%s#%zu%s%s", what, i,
			 list.items[i].source_name ? ":" : "",
			 list.items[i].source_name ? list.items[i].source_name :
						     "");
		if (!add_source(out, list.items[i].text, list.items[i].len,
				name))
			return false;
		list.items[i].text = NULL;
	}
	fatbin_ptx_list_free(&list);
	return true;
}

bool load_ptx(const char *path, unsigned arch, struct loaded *out)
{
	memset(out, 0, sizeof(*out));
	size_t len;
	uint8_t *img = read_file(path, &len);
	if (!img)
		return false;
	bool ok = true;
	uint32_t magic = 0;
	memcpy(&magic, img, len >= 4 ? 4 : len);
	if (len >= 4 && !memcmp(img, ELFMAG, SELFMAG)) {
		struct section secs[16];
		size_t n = elf_fatbin_sections(img, len, secs, 16);
		for (size_t i = 0; ok && i < n; i++) {
			char what[512];
			snprintf(what, sizeof(what), "%s:%s", path,
				 secs[i].name);
			ok = add_fatbin(out, secs[i].data, secs[i].size, arch,
					what, true);
		}
		if (ok && !out->count) {
			fprintf(stderr, "%s: no PTX in its fatbins\n", path);
			ok = false;
		}
		free(img);
	} else if (magic == FATBIN_CONTAINER_MAGIC) {
		ok = add_fatbin(out, img, len, arch, path, false);
		free(img);
	} else {
		ok = add_source(out, (char *)img, len, path);
	}
	return ok;
}

void loaded_free(struct loaded *l)
{
	for (size_t i = 0; i < l->count; i++) {
		free(l->texts[i]);
		free(l->names[i]);
	}
	free(l->texts);
	free(l->names);
	free(l->sources);
	memset(l, 0, sizeof(*l));
}

static enum fatbin_status print_entry(void *user,
				      const struct fatbin_entry_info *e,
				      char *err, size_t err_len)
{
	(void)user;
	(void)err;
	(void)err_len;
	printf("  container %u entry %u @%zu: %s arch %u ptx %u.%u header %u "
	       "flags 0x%x %s payload %llu compressed %llu uncompressed %llu",
	       e->container, e->index, e->offset,
	       e->kind == FATBIN_KIND_PTX ? "PTX" :
	       e->kind == FATBIN_KIND_ELF ? "ELF" : "?",
	       e->arch, e->ptx_major, e->ptx_minor, e->header_size, e->flags,
	       fatbin_compression_name(e->flags),
	       (unsigned long long)e->payload_size,
	       (unsigned long long)e->compressed_size,
	       (unsigned long long)e->uncompressed_size);
	if (e->name)
		printf(" name '%.*s'", (int)e->name_len, e->name);
	if (e->options)
		printf(" options '%.*s'", (int)e->options_len, e->options);
	printf("\n");
	return FATBIN_OK;
}

static bool describe(const char *what, const uint8_t *data, size_t size)
{
	char err[256];
	printf("%s:\n", what);
	if (fatbin_walk(data, size, print_entry, NULL, NULL, err,
			sizeof(err)) != FATBIN_OK) {
		fprintf(stderr, "%s: %s\n", what, err);
		return false;
	}
	return true;
}

bool describe_fatbin(const char *path)
{
	size_t len;
	uint8_t *img = read_file(path, &len);
	if (!img)
		return false;
	bool ok = true;
	if (len >= 4 && !memcmp(img, ELFMAG, SELFMAG)) {
		struct section secs[16];
		size_t n = elf_fatbin_sections(img, len, secs, 16);
		for (size_t i = 0; ok && i < n; i++)
			ok = describe(secs[i].name, secs[i].data, secs[i].size);
	} else {
		ok = describe(path, img, len);
	}
	free(img);
	return ok;
}
