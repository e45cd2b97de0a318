/* loom-search-rank.h — the relevance of a search hit, cheap enough for the first page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

#define LOOM_SEARCH_RANK "loom_rank"
#define LOOM_SEARCH_TAKE "loom_take"
#define LOOM_SEARCH_QUOTA_TYPE "loom-search-quota"

/* How many hits of each rowid range (loom-search-index.h: events, messages, titles) a scan
 * still takes: loom_take (rowid, quota), with the quota bound as a pointer of
 * LOOM_SEARCH_QUOTA_TYPE, is true while the rowid's range has room, and counts it. */
typedef struct
{
  gint64 taken[3];
  gint64 limits[3];
} LoomSearchQuota;

/* 0 for an event's entry, 1 for a message's, 2 for a title's. */
guint    loom_search_range_of      (gint64    rowid);

/* Registers loom_take and loom_rank (search_index, title_weight), an FTS5 auxiliary function. Like bm25 it
 * returns a negative number, lower for a better match, and saturates repeated terms; unlike
 * bm25 it leaves out how rare each term is in the whole index, which bm25 learns by reading
 * every match of the term — for a common word longer than the rest of the search — and the
 * entry's length (see loom-search-rank.c). Every hit ranked together answers the same query,
 * so the rarity of its terms changes little in their order. */
gboolean loom_search_rank_register (sqlite3  *db,
                                    GError  **error);

G_END_DECLS
