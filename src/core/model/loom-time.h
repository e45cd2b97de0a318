/* loom-time.h — the store keeps times as Unix milliseconds (UTC); people and JSON see ISO 8601.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gint64 loom_time_now_ms (void);
/* Returns NULL for 0 (unknown). Always UTC with milliseconds: 2026-11-29T18:42:28.123Z */
char  *loom_time_to_iso (gint64 ms);
/* Returns 0 when @iso is NULL or not an ISO 8601 time. */
gint64 loom_time_from_iso (const char *iso);
/* "YYYY-MM-DD" in local time, for the title convention; NULL for 0. */
char  *loom_time_to_date (gint64 ms);

G_END_DECLS
