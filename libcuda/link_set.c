// SPDX-License-Identifier: MIT
/*
 * A link set (link_set.h): PTX texts checked one by one as a link adds
 * them, linked as one program at the end, laid out as a link image.
 */
#include <stdlib.h>
#include <string.h>

#include "link_image.h"
#include "link_set.h"
#include "ptx/hostobj.h"

enum ptx_status link_set_add_ptx(struct link_set *set, const char *text,
				 size_t len, const char *name, char *log,
				 size_t log_len)
{
	/* sizes may count the terminating NUL */
	struct ptx_source source = { text, strnlen(text, len),
				     name ? name : "<input>" };
	struct link_set_input *grown, *in;
	enum ptx_status ps;

	/* CUDA compiles each input as it is added: bad PTX fails here, an
	 * unresolved symbol only when the link completes (link_log_api). */
	ps = ptx_source_check(&source, log, log_len);
	if (ps != PTX_OK)
		return ps;
	grown = realloc(set->inputs, (set->count + 1) * sizeof(*grown));
	if (!grown)
		return PTX_ERR_NO_MEMORY;
	set->inputs = grown;
	in = &set->inputs[set->count];
	in->text = strndup(text, source.len);
	in->len = in->text ? strlen(in->text) : 0;
	in->name = strdup(source.name);
	if (!in->text || !in->name) {
		free(in->text);
		free(in->name);
		return PTX_ERR_NO_MEMORY;
	}
	set->count++;
	return PTX_OK;
}

enum fatbin_status link_binary_collect(enum link_binary kind,
				       const void *data, size_t size,
				       unsigned int arch,
				       struct fatbin_ptx_list *out,
				       char *reason, size_t reason_len)
{
	if (kind == LINK_BINARY_HOSTOBJ)
		return hostobj_collect_ptx(data, size, arch, out, reason,
					   reason_len);
	return fatbin_collect_ptx(data, size, arch, out, reason, reason_len);
}

enum ptx_status link_set_add_list(struct link_set *set,
				  const struct fatbin_ptx_list *list,
				  const char *name, char *log, size_t log_len)
{
	enum ptx_status ps = PTX_OK;

	for (size_t i = 0; i < list->count && ps == PTX_OK; i++)
		ps = link_set_add_ptx(set, list->items[i].text,
				      list->items[i].len, name, log, log_len);
	return ps;
}

enum ptx_status link_set_check(const struct link_set *set, char *log,
			       size_t log_len)
{
	struct ptx_source *sources = calloc(set->count, sizeof(*sources));
	struct ptx_program *prog;
	enum ptx_status ps;

	if (!sources)
		return PTX_ERR_NO_MEMORY;
	for (size_t i = 0; i < set->count; i++)
		sources[i] = (struct ptx_source){ set->inputs[i].text,
						  set->inputs[i].len,
						  set->inputs[i].name };
	ps = ptx_program_build(sources, set->count, &prog, log, log_len);
	free(sources);
	if (ps == PTX_OK)
		ptx_program_destroy(prog);
	return ps;
}

void *link_set_image(const struct link_set *set, uint32_t max_registers,
		     size_t *size)
{
	size_t total = sizeof(struct link_image_header) +
		       set->count * sizeof(struct link_image_entry);
	struct link_image_header *h;
	struct link_image_entry *e;
	char *p;

	for (size_t i = 0; i < set->count; i++)
		total += set->inputs[i].len + 1 +
			 strlen(set->inputs[i].name) + 1;
	h = calloc(1, total);
	if (!h)
		return NULL;
	*h = (struct link_image_header){ LINK_IMAGE_MAGIC, LINK_IMAGE_VERSION,
					 (uint32_t)set->count, max_registers,
					 total };
	e = (struct link_image_entry *)(h + 1);
	p = (char *)(e + set->count);
	for (size_t i = 0; i < set->count; i++) {
		e[i].text_offset = (uint64_t)(p - (char *)h);
		e[i].text_len = set->inputs[i].len;
		memcpy(p, set->inputs[i].text, set->inputs[i].len + 1);
		p += set->inputs[i].len + 1;
		e[i].name_offset = (uint64_t)(p - (char *)h);
		strcpy(p, set->inputs[i].name);
		p += strlen(set->inputs[i].name) + 1;
	}
	*size = total;
	return h;
}

void link_set_clear(struct link_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		free(set->inputs[i].text);
		free(set->inputs[i].name);
	}
	free(set->inputs);
	*set = (struct link_set){ 0 };
}
