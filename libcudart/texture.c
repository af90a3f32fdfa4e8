// SPDX-License-Identifier: MIT
/*
 * Texture and surface descriptions. Texture objects themselves are not
 * supported yet (see unsupported.def); describing a channel format is
 * plain data and already right.
 */
#include "rt.h"

CUDART_EXPORT struct cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = { x, y, z, w, f };

	return desc;
}
