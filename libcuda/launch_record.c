// SPDX-License-Identifier: MIT
/*
 * A launch record's end: what it holds goes back when the stream that
 * submitted it sees its timeline pass the record's point.
 */
#include <stdlib.h>

#include "launch_record.h"
#include "slots.h"

void launch_record_free(struct launch_record *rec)
{
	if (rec->workspace)
		slot_free(rec->ctx, rec->workspace);
	range_snapshot_put(rec->ranges);
	free(rec);
}
