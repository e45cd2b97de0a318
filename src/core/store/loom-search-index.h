/* loom-search-index.h — how entries of the search index map to the rows they index: the
 * layout of the store's search tables, which the store's queries and search/ both read.
 *
 * An entry's rowid tells what it indexes: events keep their id, messages and session titles
 * are moved into ranges of their own above. Each range is in the order of its base table, which
 * is the order of import, so the newest entries of a kind are at the end of its range, where
 * FTS5 can seek to them (loom-store-search.c reads the newest hits of each kind first). Events, the
 * most numerous, are lowest: a scan from the top meets them last.
 *
 *   event e          →  e
 *   message m        →  LOOM_INDEX_MESSAGES_FROM + m
 *   session title s  →  LOOM_INDEX_TITLES_FROM + s
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#define LOOM_INDEX_MESSAGES_FROM_SQL "1099511627776" /* 2^40 */
#define LOOM_INDEX_TITLES_FROM_SQL   "2199023255552" /* 2^41 */

#define LOOM_INDEX_MESSAGES_FROM (G_GINT64_CONSTANT (1) << 40)
#define LOOM_INDEX_TITLES_FROM   (G_GINT64_CONSTANT (1) << 41)

/* The text an entry indexes, from a base row named @t: the index is contentless, so these
 * expressions are also how the words of an entry are found again — to forget it
 * (loom-schema.c) and to cut its snippet (loom-store-search.c). A title indexes the title alone.
 * Search uses a bounded prefix of long texts. */
#define LOOM_INDEX_BODY_LIMIT_SQL  "65536"
#define LOOM_INDEX_MESSAGE_BODY(t) "substr (" t ".text, 1, " LOOM_INDEX_BODY_LIMIT_SQL ")"
#define LOOM_INDEX_EVENT_BODY(t) \
  "substr (ifnull (" t ".tool_name, '') || ' ' || ifnull (" t ".path, '') || ' ' || " t ".text," \
  " 1, " LOOM_INDEX_BODY_LIMIT_SQL ")"

/* Words of the facets column, each joined to its value ("xkindtool_call xagentcodex
 * xtoolbash xerror"). They go through the tokenizer like any text, so a filter finds one as
 * the same phrase ("xkindtool call"). */
#define LOOM_FACET_KIND  "xkind"  /* title, user, assistant, system, or an event's kind */
#define LOOM_FACET_AGENT "xagent" /* the session's source */
#define LOOM_FACET_TOOL  "xtool"  /* the tool's name in lower case, results included */
#define LOOM_FACET_ERROR "xerror" /* a failed tool call or an API error */

/* 0 for an event's entry, 1 for a message's, 2 for a title's. */
static inline guint
loom_index_range_of (gint64 rowid)
{
  return rowid >= LOOM_INDEX_TITLES_FROM ? 2 : rowid >= LOOM_INDEX_MESSAGES_FROM ? 1 : 0;
}

/* What search/ registers on every connection of the store (loom-store-hooks.h), by the names
 * the schema and the store's queries call it: the tokenizer the index is made with, the
 * relevance of a hit (loom_rank (search_index, title_weight), an FTS5 auxiliary function), and
 * how many hits of each rowid range a scan still takes (loom_take (rowid, quota), with the
 * quota bound as a pointer of LOOM_INDEX_QUOTA_TYPE: true while the rowid's range has room,
 * and counts it). */
#define LOOM_INDEX_TOKENIZER  "loom"
#define LOOM_INDEX_RANK       "loom_rank"
#define LOOM_INDEX_TAKE       "loom_take"
#define LOOM_INDEX_QUOTA_TYPE "loom-search-quota"

typedef struct
{
  gint64 taken[3];
  gint64 limits[3];
} LoomIndexQuota;
