/* loom-search.h — searching all history, the same query language in the app and the CLI.
 *
 *   words            every word must occur (diacritics ignored, parts of identifiers and paths
 *                    found too, text without spaces found by any substring)
 *   "exact phrase"   the words in this order
 *   prefix*          words starting so
 *   a OR b           either
 *   -word, -"a b"    not this
 *   agent:codex  project:NAME  folder:NAME  tool:Bash  role:user|assistant|tool|reasoning|system
 *   model:NAME  after:2026-10-01  before:2026-11-01  in:archived|trash|pinned  has:error
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_HIT (loom_search_hit_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchHit, loom_search_hit, LOOM, SEARCH_HIT, GObject)

/* Highlighted text in a snippet is between these two characters. */
#define LOOM_SEARCH_MARK_START "\002"
#define LOOM_SEARCH_MARK_END   "\003"

typedef struct
{
  char  *session_uuid;
  char  *session_title;
  char  *source;
  char  *item_type; /* "message", "event" or "title" */
  gint64 item_id;   /* the message's or event's id; 0 for a title */
  gint64 seq;       /* its place in the session's timeline; 0 for a title */
  char  *kind;      /* "prompt", "reply", "tool", "reasoning", "title", … */
  char  *tool_name;
  gint64 created_at;
  char  *snippet; /* with LOOM_SEARCH_MARK_* around the matches */
  double score;   /* lower is better */
} LoomSearchHitData;

/* Takes ownership of the strings in @data. */
LoomSearchHit           *loom_search_hit_new (LoomSearchHitData *data);
const LoomSearchHitData *loom_search_hit_get_data (LoomSearchHit *self);
JsonNode                *loom_search_hit_to_json (LoomSearchHit *self);

/* A query as parsed: exposed for tests and for the app's filter popover. */
typedef struct _LoomSearchQuery LoomSearchQuery;

LoomSearchQuery *loom_search_query_parse (const char *text,
                                          GError    **error);
void             loom_search_query_free (LoomSearchQuery *query);
/* Whether "key:value" is a filter (in lower case: agent, project, …); any other is a word. */
gboolean         loom_search_is_filter_key (const char *key);

/* The FTS5 expression, or NULL when neither words nor facet filters narrow the search. */
const char        *loom_search_query_get_match (LoomSearchQuery *query);
/* The words and phrases hits are found by, as typed, that snippets mark (not the excluded
 * ones); @prefix[i] says whether words[i] is a prefix. */
const char *const *loom_search_query_get_words (LoomSearchQuery *query,
                                                const gboolean **prefix,
                                                guint           *n_words);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSearchQuery, loom_search_query_free)

/* Hits, best first. A malformed query fails with LOOM_ERROR_INVALID_ARGUMENT and a message
 * that says what to change, never an SQL error. */
GListModel *loom_store_search (LoomStore  *store,
                               const char *query,
                               guint       offset,
                               guint       limit,
                               GError    **error);

/* The same within one session (search in the open timeline). */
GListModel *loom_store_search_session (LoomStore  *store,
                                       const char *session_id,
                                       const char *query,
                                       guint       limit,
                                       GError    **error);
/* The same without snippets (the hits' snippet is NULL): what counting the hits and going from
 * one to the next need. A snippet tokenizes the hit's text up to its first match, which for
 * thousands of hits deep in long tool outputs took more than a second. */
GListModel *loom_store_search_session_positions (LoomStore  *store,
                                                 const char *session_id,
                                                 const char *query,
                                                 guint       limit,
                                                 GError    **error);

G_END_DECLS
