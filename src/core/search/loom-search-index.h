/* loom-search-index.h — how entries of the search index map to the rows they index.
 *
 * An entry's rowid tells what it indexes: events keep their id, messages and session titles
 * are moved into ranges of their own above. Each range is in the order of its base table, which
 * is the order of import, so the newest entries of a kind are at the end of its range, where
 * FTS5 can seek to them (loom-search.c reads the newest hits of each kind first). Events, the
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

#define LOOM_INDEX_MESSAGES_FROM_SQL "1099511627776"   /* 2^40 */
#define LOOM_INDEX_TITLES_FROM_SQL   "2199023255552"   /* 2^41 */

#define LOOM_INDEX_MESSAGES_FROM (G_GINT64_CONSTANT (1) << 40)
#define LOOM_INDEX_TITLES_FROM   (G_GINT64_CONSTANT (1) << 41)

/* The text an entry indexes, from a base row named @t: the index is contentless, so these
 * expressions are also how the words of an entry are found again — to forget it
 * (loom-schema.c) and to cut its snippet (loom-search.c). A title indexes the title alone.
 * Search uses a bounded prefix of long texts. */
#define LOOM_INDEX_BODY_LIMIT_SQL "65536"
#define LOOM_INDEX_MESSAGE_BODY(t) "substr (" t ".text, 1, " LOOM_INDEX_BODY_LIMIT_SQL ")"
#define LOOM_INDEX_EVENT_BODY(t) \
  "substr (ifnull (" t ".tool_name, '') || ' ' || ifnull (" t ".path, '') || ' ' || " t ".text," \
  " 1, " LOOM_INDEX_BODY_LIMIT_SQL ")"

/* Words of the facets column, each joined to its value ("xkindtool_call xagentcodex
 * xtoolbash xerror"). They go through the tokenizer like any text, so a filter finds one as
 * the same phrase ("xkindtool call"). */
#define LOOM_FACET_KIND  "xkind"    /* title, user, assistant, system, or an event's kind */
#define LOOM_FACET_AGENT "xagent"   /* the session's source */
#define LOOM_FACET_TOOL  "xtool"    /* the tool's name in lower case, results included */
#define LOOM_FACET_ERROR "xerror"   /* a failed tool call or an API error */
