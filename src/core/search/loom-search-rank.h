/* loom-search-rank.h — the relevance of a search hit, cheap enough for the first page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "loom-search-index.h"

G_BEGIN_DECLS

/* The names the store's queries call them by, and the quota of loom_take: loom-search-index.h. */
#define LOOM_SEARCH_RANK       LOOM_INDEX_RANK
#define LOOM_SEARCH_TAKE       LOOM_INDEX_TAKE
#define LOOM_SEARCH_QUOTA_TYPE LOOM_INDEX_QUOTA_TYPE

typedef LoomIndexQuota LoomSearchQuota;

/* Registers loom_take and loom_rank (search_index, title_weight), an FTS5 auxiliary function. Like bm25 it
 * returns a negative number, lower for a better match, and saturates repeated terms; unlike
 * bm25 it leaves out how rare each term is in the whole index, which bm25 learns by reading
 * every match of the term — for a common word longer than the rest of the search — and the
 * entry's length (see loom-search-rank.c). Every hit ranked together answers the same query,
 * so the rarity of its terms changes little in their order. */
gboolean loom_search_rank_register (sqlite3 *db,
                                    GError **error);

G_END_DECLS
