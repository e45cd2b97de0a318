/* loom-search.c — the search over the full-text index: candidates of each kind, ranked, with
 * snippets for the page. The query language is read in loom-search-query.c; the store reads
 * the rows (loom-store-search.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-index.h"
#include "loom-search-private.h"
#include "loom-search-snippet.h"
#include "loom-search-terms.h"
#include "loom-store-search.h"

/* A person's prompts and the assistant's replies above tool output; titles above all. The
 * relevance is negative, lower is better: a larger weight pulls a hit up. */
static double
score_weight (const char *kind)
{
  if (g_strcmp0 (kind, "title") == 0)
    return 4.0;
  if (g_strcmp0 (kind, "message:user") == 0)
    return 2.5;
  if (g_strcmp0 (kind, "message:assistant") == 0)
    return 2.0;
  if (g_strcmp0 (kind, "event:reasoning") == 0)
    return 1.0;
  if (g_strcmp0 (kind, "message:context") == 0 || g_strcmp0 (kind, "message:system") == 0)
    return 0.8;
  return 0.6;
}

/* How much more a word counts in a title than in a body (loom_rank, loom-search-rank.h). */
#define TITLE_WEIGHT 10.0

/* A common word is in hundreds of thousands of entries, and ranking them all takes seconds.
 * Across all history, each kind's newest matches are ranked (the rowid ranges of
 * loom-search-index.h keep each kind in import order, and FTS5 seeks to their end): a word
 * with fewer matches is ranked whole; for a common one the first pages are the best of the
 * recent hits, which is where people look. Within one session every hit is read. */
#define MESSAGE_CANDIDATES 300
#define EVENT_CANDIDATES   200
#define TITLE_CANDIDATES   100

#define SNIPPET_TOKENS 16

/* A prefix with more terms than this is left to FTS5: each term of an OR costs a seek in
 * every segment of the index, about as much as merging the lists of a few hundred rare terms. */
#define MAX_PREFIX_TERMS 200

typedef LoomStoreSearchCandidate Candidate;
typedef LoomStoreSearchRange     Range;

static const char *
display_kind (const char *kind)
{
  if (g_strcmp0 (kind, "title") == 0)
    return "title";
  if (g_strcmp0 (kind, "message:user") == 0)
    return "prompt";
  if (g_strcmp0 (kind, "message:context") == 0)
    return "context";
  if (g_strcmp0 (kind, "message:assistant") == 0)
    return "reply";
  if (g_strcmp0 (kind, "message:system") == 0)
    return "system";
  if (g_strcmp0 (kind, "event:tool_call") == 0 || g_strcmp0 (kind, "event:tool_result") == 0)
    return "tool";
  if (g_strcmp0 (kind, "event:reasoning") == 0)
    return "reasoning";
  if (g_strcmp0 (kind, "event:file_change") == 0)
    return "file";
  return kind != NULL && g_str_has_prefix (kind, "event:") ? kind + strlen ("event:") : kind;
}

static gboolean
has_prefix (LoomSearchQuery *query)
{
  for (guint i = 0; i < query->marked_prefix->len; i++)
    if (g_array_index (query->marked_prefix, gboolean, i))
      return TRUE;
  return FALSE;
}

static GPtrArray *
expand_prefix (const char *word,
               gpointer    data,
               GError    **error)
{
  LoomStore *store = data;

  return loom_search_terms_expand (store, word, MAX_PREFIX_TERMS, error);
}

#define PREVIEW_CHARACTERS 200

/* The snippet of a hit of the page, cut from the text the entry indexes (see
 * loom-search-snippet.h) by @maker, or the start of that text when the query has no words. */
static char *
cut_snippet (LoomSnippetMaker *maker,
             const char       *text)
{
  if (maker != NULL)
    return loom_snippet_maker_make (maker, text, SNIPPET_TOKENS);
  if (text != NULL && g_utf8_strlen (text, PREVIEW_CHARACTERS + 1) > PREVIEW_CHARACTERS)
    return g_utf8_substring (text, 0, PREVIEW_CHARACTERS);
  return g_strdup (text);
}

/* The base row an entry stands for: a message's or event's id, 0 for a title. */
static gint64
item_of (gint64 rowid)
{
  if (rowid >= LOOM_INDEX_TITLES_FROM)
    return 0;
  if (rowid >= LOOM_INDEX_MESSAGES_FROM)
    return rowid - LOOM_INDEX_MESSAGES_FROM;
  return rowid;
}

/* Best first, then the most recent; in a session, the timeline's order. */
static int
compare_by_score (gconstpointer a,
                  gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  if (x->at != y->at)
    return x->at > y->at ? -1 : 1;
  return x->rowid > y->rowid ? -1 : x->rowid < y->rowid;
}

static int
compare_by_seq (gconstpointer a,
                gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return x->rowid < y->rowid ? -1 : x->rowid > y->rowid;
}

static GListModel *
run_search (LoomStore       *store,
            LoomSearchQuery *query,
            gint64           session_rowid,
            guint            offset,
            guint            limit,
            gboolean         with_snippets,
            GError         **error)
{
  g_autoptr (GListStore) hits = g_list_store_new (LOOM_TYPE_SEARCH_HIT);
  g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_autoptr (LoomSnippetMaker) maker = NULL;
  gint64 page_end = (gint64)offset + (limit > 0 ? limit : G_MAXUINT);
  Range  ranges[3] = {
    { 0, LOOM_INDEX_MESSAGES_FROM - 1, MAX (EVENT_CANDIDATES, page_end) },
    { LOOM_INDEX_MESSAGES_FROM, LOOM_INDEX_TITLES_FROM - 1, MAX (MESSAGE_CANDIDATES, page_end) },
    { LOOM_INDEX_TITLES_FROM, G_MAXINT64, MAX (TITLE_CANDIDATES, page_end) },
  };
  g_autoptr (GArray) params = g_array_new (FALSE, TRUE, sizeof (LoomStoreSearchParam));
  LoomStoreSearchFilter filter;
  gboolean              native_prefix = FALSE;
  gboolean              ok;

  loom_store_map_for_searching (store);

  /* pars* as parse OR parser OR …: FTS5 reads an OR lazily, newest first (loom-search-terms.h). */
  if (query->match != NULL && has_prefix (query) &&
      !loom_search_query_expand_prefixes (query, expand_prefix, store, &native_prefix, error))
    return NULL;

  if (session_rowid > 0 && !loom_store_search_session_ranges (store, session_rowid, ranges, error))
    return NULL;
  if (query->match != NULL && with_snippets &&
      !(maker = loom_snippet_maker_new ((const char *const *)query->marked->pdata,
                                        (const gboolean *)(gpointer)query->marked_prefix->data,
                                        query->marked->len, error)))
    return NULL;

  for (guint i = 0; i < query->params->len; i++)
    {
      const LoomSearchParam *param = &g_array_index (query->params, LoomSearchParam, i);
      LoomStoreSearchParam   bound = { param->is_text, param->text, param->number };

      g_array_append_val (params, bound);
    }
  /* The match is read only now: expanding the prefixes rewrote it. */
  filter = (LoomStoreSearchFilter){
    .match = query->match,
    .where = query->where->str,
    .params = (const LoomStoreSearchParam *)(gpointer)params->data,
    .n_params = params->len,
    .in_trash = query->in_trash,
    .by_session = query->by_session,
    .title_weight = TITLE_WEIGHT,
  };

  if (session_rowid == 0 && query->match != NULL && native_prefix)
    ok = loom_store_search_read_in_one_scan (store, &filter, ranges, candidates, error);
  else if (session_rowid > 0)
    ok = loom_store_search_read_ranges (store, &filter, session_rowid, ranges, candidates, error);
  else
    ok = loom_store_search_read_newest (store, &filter, ranges, candidates, error);
  if (!ok)
    return NULL;

  /* The relevance as the index gives it, weighed by the kind of entry. */
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);

      c->score *= score_weight (c->kind);
    }

  /* Within a session, hits come in the timeline's order, for going from one to the next. */
  g_array_sort (candidates, session_rowid > 0 ? compare_by_seq : compare_by_score);

  for (guint i = offset; i < candidates->len && (gint64)i < page_end; i++)
    {
      Candidate         *c = &g_array_index (candidates, Candidate, i);
      LoomStoreSearchRow row;
      LoomSearchHitData  data;
      char              *snippet;

      loom_store_search_read_row (store, c->rowid, with_snippets, &row);
      snippet = row.found && with_snippets ? cut_snippet (maker, row.text) : NULL;
      data = (LoomSearchHitData){
        .session_uuid = g_steal_pointer (&row.uuid),
        .session_title = g_steal_pointer (&row.title),
        .source = g_steal_pointer (&row.source),
        .item_type = g_strdup (c->rowid >= LOOM_INDEX_TITLES_FROM     ? "title"
                               : c->rowid >= LOOM_INDEX_MESSAGES_FROM ? "message"
                                                                      : "event"),
        .item_id = item_of (c->rowid),
        .seq = row.seq,
        .kind = g_strdup (display_kind (c->kind)),
        .tool_name = g_steal_pointer (&row.tool),
        .created_at = c->at,
        .snippet = snippet,
        .score = c->score,
      };
      g_autoptr (LoomSearchHit) hit = loom_search_hit_new (&data);

      loom_store_search_row_clear (&row);

      g_list_store_append (hits, hit);
    }
  return G_LIST_MODEL (g_steal_pointer (&hits));
}

GListModel *
loom_store_search (LoomStore  *store,
                   const char *text,
                   guint       offset,
                   guint       limit,
                   GError    **error)
{
  g_autoptr (LoomSearchQuery) query = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!(query = loom_search_query_parse (text, error)))
    return NULL;
  return run_search (store, query, 0, offset, limit, TRUE, error);
}

static GListModel *
search_session (LoomStore  *store,
                const char *session_id,
                const char *text,
                guint       limit,
                gboolean    with_snippets,
                GError    **error)
{
  g_autoptr (LoomSearchQuery) query = NULL;
  gint64 rowid;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!(rowid = loom_store_search_find_session (store, session_id, error)) ||
      !(query = loom_search_query_parse (text, error)))
    return NULL;
  return run_search (store, query, rowid, 0, limit, with_snippets, error);
}

GListModel *
loom_store_search_session (LoomStore  *store,
                           const char *session_id,
                           const char *text,
                           guint       limit,
                           GError    **error)
{
  return search_session (store, session_id, text, limit, TRUE, error);
}

GListModel *
loom_store_search_session_positions (LoomStore  *store,
                                     const char *session_id,
                                     const char *text,
                                     guint       limit,
                                     GError    **error)
{
  return search_session (store, session_id, text, limit, FALSE, error);
}
