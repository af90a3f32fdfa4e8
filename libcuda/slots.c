// SPDX-License-Identifier: MIT
/*
 * A list of pages, each with a bitmap of its 512 slots. Events and
 * callbacks are few, so a first-fit scan is plenty.
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "context_hooks.h"
#include "memory.h"
#include "slots.h"

#define SLOT_PAGE_SIZE 4096
#define SLOTS_PER_PAGE (SLOT_PAGE_SIZE / 8)

struct slot_page {
	uint64_t va;
	uint64_t used[SLOTS_PER_PAGE / 64];
	struct slot_page *next;
};

static int take_free_slot(struct slot_page *page, uint64_t *va)
{
	for (int w = 0; w < SLOTS_PER_PAGE / 64; w++) {
		if (page->used[w] == UINT64_MAX)
			continue;
		int bit = __builtin_ctzll(~page->used[w]);

		page->used[w] |= 1ull << bit;
		*va = page->va + (uint64_t)(w * 64 + bit) * 8;
		memset((void *)(uintptr_t)*va, 0, 8);
		return 1;
	}
	return 0;
}

CUresult slot_alloc(struct CUctx_st *ctx, uint64_t *va)
{
	struct slot_page *page;
	CUresult res = CUDA_SUCCESS;

	pthread_mutex_lock(&ctx->slots_lock);
	for (page = ctx->slots; page; page = page->next)
		if (take_free_slot(page, va))
			goto out;
	page = calloc(1, sizeof(*page));
	res = page ? mem_alloc(ctx, SLOT_PAGE_SIZE, ALLOC_DEVICE, 0, &page->va)
		   : CUDA_ERROR_OUT_OF_MEMORY;
	if (res != CUDA_SUCCESS) {
		free(page);
		goto out;
	}
	page->next = ctx->slots;
	ctx->slots = page;
	take_free_slot(page, va);
out:
	pthread_mutex_unlock(&ctx->slots_lock);
	return res;
}

void slot_free(struct CUctx_st *ctx, uint64_t va)
{
	pthread_mutex_lock(&ctx->slots_lock);
	for (struct slot_page *page = ctx->slots; page; page = page->next) {
		if (va - page->va < SLOT_PAGE_SIZE) {
			uint64_t i = (va - page->va) / 8;

			page->used[i / 64] &= ~(1ull << (i % 64));
			break;
		}
	}
	pthread_mutex_unlock(&ctx->slots_lock);
}

static void slots_release_all(struct CUctx_st *ctx)
{
	while (ctx->slots) {
		struct slot_page *page = ctx->slots;

		ctx->slots = page->next;
		free(page);
	}
}

static CUresult slots_ctx_init(struct CUctx_st *ctx)
{
	pthread_mutex_init(&ctx->slots_lock, NULL);
	return CUDA_SUCCESS;
}

/* After the kernel context: the pages' memory went with it. */
static void slots_ctx_release(struct CUctx_st *ctx)
{
	slots_release_all(ctx);
	pthread_mutex_destroy(&ctx->slots_lock);
}

static const struct ctx_hooks slots_hooks = {
	.name = "slots",
	.order = CTX_HOOKS_SLOTS,
	.init = slots_ctx_init,
	.release = slots_ctx_release,
};
CTX_HOOKS_REGISTER(slots_hooks)
