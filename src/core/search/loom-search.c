/* loom-search.c — the search over the full-text index: candidates of each kind, ranked, with
 * snippets for the page. The query language is read in loom-search-query.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-index.h"
#include "loom-search-private.h"
#include "loom-search-rank.h"
#include "loom-search-snippet.h"
#include "loom-search-terms.h"
#include "loom-store-private.h"

/* A person's prompts and the assistant's replies above tool output; titles above all. The
 * relevance is negative, lower is better: a larger weight pulls a hit up. */
#define SCORE_WEIGHT \
  "(CASE x.kind WHEN 'title' THEN 4.0 WHEN 'message:user' THEN 2.5" \
  "  WHEN 'message:assistant' THEN 2.0 WHEN 'event:reasoning' THEN 1.0" \
  "  WHEN 'message:context' THEN 0.8 WHEN 'message:system' THEN 0.8 ELSE 0.6 END)"

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

typedef struct
{
  gint64 from;     /* rowids from … */
  gint64 to;       /* … to, inclusive */
  gint64 limit;    /* how many of the newest; -1 all */
} Range;

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

/* A hit before it is ranked against the others. Only what ranking and the filters need is
 * read for every candidate; the rest, for the page alone (read_page_hit). */
typedef struct
{
  gint64      rowid;
  const char *kind;      /* interned */
  gint64      at;
  double      score;
  gint64      seq;       /* within a session only */
} Candidate;

/* The columns a candidate is read from, after its rowid; @score_sql is its relevance. An
 * entry is x (search_entries, narrow and dense) and its words i (search_index) when the query
 * has words. The joins to messages and events cost nothing unless a filter or @with_seq reads
 * them: SQLite leaves out a LEFT JOIN on a primary key that nothing uses. The session is
 * joined only for filters that read it: a session's row is wide, and reading it was most of
 * the cost of a candidate. A title's time is its session's, read for titles only. */
static void
append_candidate_columns (GString         *sql,
                          LoomSearchQuery *query,
                          const char      *score_sql,
                          gboolean         from_words,
                          gboolean         with_seq)
{
  g_string_append_printf (sql,
                          "x.kind, coalesce (nullif (x.created_at, 0),"
                          "  (SELECT created_at FROM sessions WHERE id = x.session_id)),"
                          " %s * " SCORE_WEIGHT ", %s"
                          " FROM %s%s"
                          " LEFT JOIN messages m ON x.id >= " LOOM_INDEX_MESSAGES_FROM_SQL
                          "   AND x.id < " LOOM_INDEX_TITLES_FROM_SQL
                          "   AND m.id = x.id - " LOOM_INDEX_MESSAGES_FROM_SQL
                          " LEFT JOIN events e ON x.id < " LOOM_INDEX_MESSAGES_FROM_SQL
                          "   AND e.id = x.id",
                          score_sql, with_seq ? "coalesce (m.seq, e.seq, 0)" : "0",
                          from_words ? "search_index i"
                                       " CROSS JOIN search_entries x ON x.id = i.rowid"
                                     : "search_entries x",
                          query->by_session ? " CROSS JOIN sessions s ON s.id = x.session_id"
                                              " LEFT JOIN projects p ON p.id = s.project_id"
                                              " LEFT JOIN folders f ON f.id = s.folder_id"
                                            : "");
}

/* The filters' conditions. Across all history, the Trash is left out (or searched alone, for
 * in:trash) through the few trashed sessions' ids, not each candidate's session row; a search
 * within one session reads all of it, wherever the session is. */
static void
append_conditions (GString         *sql,
                   LoomSearchQuery *query,
                   gint64           session_rowid)
{
  g_string_append (sql, query->where->str);
  if (session_rowid == 0)
    g_string_append_printf (sql, " AND x.session_id %s (SELECT id FROM sessions"
                                 " WHERE trashed_at > 0)",
                            query->in_trash ? "IN" : "NOT IN");
}

static void
read_candidate (sqlite3_stmt *stmt,
                int           first,
                gint64        rowid,
                double        relevance,
                GArray       *candidates)
{
  Candidate candidate = {
    .rowid = rowid,
    .kind = g_intern_string ((const char *)sqlite3_column_text (stmt, first)),
    .at = sqlite3_column_int64 (stmt, first + 1),
    .score = relevance * sqlite3_column_double (stmt, first + 2),
    .seq = sqlite3_column_int64 (stmt, first + 3),
  };

  g_array_append_val (candidates, candidate);
}

static void
bind_filters (sqlite3_stmt    *stmt,
              int             *index,
              LoomSearchQuery *query)
{
  for (guint i = 0; i < query->params->len; i++)
    {
      LoomSearchParam *param = &g_array_index (query->params, LoomSearchParam, i);

      if (param->is_text)
        sqlite3_bind_text (stmt, (*index)++, param->text, -1, SQLITE_STATIC);
      else
        sqlite3_bind_int64 (stmt, (*index)++, param->number);
    }
}

static gboolean
step_failed (LoomStore  *store,
             int         rc,
             GError    **error)
{
  if (rc == SQLITE_DONE)
    return FALSE;
  /* The expression is built from quoted strings only; should FTS5 still refuse it, say so in
   * the query's terms. */
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
               "The search could not be run: %s", sqlite3_errmsg (store->db));
  return TRUE;
}

/* The statement that reads candidates: the entry's rowid @bound ("<= ?" or "BETWEEN ? AND ?",
 * bound first), the words (MATCH ?), the session (= ?) when searching one, the filters, then
 * newest first and @tail. */
static GString *
candidate_sql (LoomSearchQuery *query,
               const char      *bound,
               gint64           session_rowid,
               const char      *tail)
{
  gboolean words = query->match != NULL;
  const char *id = words ? "i.rowid" : "x.id";
  GString *sql = g_string_new ("SELECT ");

  g_string_append_printf (sql, "%s, ", id);
  append_candidate_columns (sql, query, words ? LOOM_SEARCH_RANK " (search_index, 10.0)" : "0.0",
                            words, session_rowid > 0);
  g_string_append_printf (sql, " WHERE %s %s", id, bound);
  if (words)
    g_string_append (sql, " AND search_index MATCH ?");
  if (session_rowid > 0)
    g_string_append (sql, " AND x.session_id = ?");
  append_conditions (sql, query, session_rowid);
  g_string_append_printf (sql, " ORDER BY %s DESC%s", id, tail);
  return sql;
}

/* Within one session: every hit of each of the session's rowid ranges, one statement per
 * range. The index drives the join (CROSS JOIN keeps it the outer loop, so that its rowid
 * order answers ORDER BY), and FTS5 seeks to the end of each range. */
static gboolean
read_ranges (LoomStore        *store,
             LoomSearchQuery  *query,
             gint64            session_rowid,
             const Range      *ranges,
             GArray           *candidates,
             GError          **error)
{
  g_autoptr(GString) sql = candidate_sql (query, "BETWEEN ? AND ?", session_rowid, " LIMIT ?");
  sqlite3_stmt *stmt;
  int rc = SQLITE_DONE;

  if (!(stmt = loom_store_cached_built (store, sql->str, error)))
    return FALSE;

  for (guint r = 0; r < 3 && rc == SQLITE_DONE; r++)
    {
      int index = 1;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, index++, ranges[r].from);
      sqlite3_bind_int64 (stmt, index++, ranges[r].to);
      if (query->match != NULL)
        sqlite3_bind_text (stmt, index++, query->match, -1, SQLITE_STATIC);
      if (session_rowid > 0)
        sqlite3_bind_int64 (stmt, index++, session_rowid);
      bind_filters (stmt, &index, query);
      sqlite3_bind_int64 (stmt, index++, ranges[r].limit);

      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        read_candidate (stmt, 1, sqlite3_column_int64 (stmt, 0), 1.0, candidates);
    }
  sqlite3_reset (stmt);
  return !step_failed (store, rc, error);
}

/* Across all history: one scan from the newest entry down, through titles, then messages,
 * then events. Each kind takes its quota of the newest hits; once a kind has it, the scan
 * starts again below that kind's range. One scan rather than a statement per range, because
 * FTS5 finds a statement's next match before it looks at the range's end: for words that are
 * common but seldom together ("let me check"), the statement for titles walked on through
 * every message and event, and so did the one for messages. */
static gboolean
read_newest (LoomStore        *store,
             LoomSearchQuery  *query,
             const Range      *ranges,
             GArray           *candidates,
             GError          **error)
{
  gboolean words = query->match != NULL;
  g_autoptr(GString) sql = candidate_sql (query, "<= ?", 0, "");
  sqlite3_stmt *stmt;
  gint64 taken[3] = { 0, 0, 0 };
  gint64 below = G_MAXINT64;
  int rc = SQLITE_DONE;

  if (!(stmt = loom_store_cached_built (store, sql->str, error)))
    return FALSE;

  while (below >= 0)
    {
      gint64 next = -1;
      int index = 1;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, index++, below);
      if (words)
        sqlite3_bind_text (stmt, index++, query->match, -1, SQLITE_STATIC);
      bind_filters (stmt, &index, query);

      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          gint64 rowid = sqlite3_column_int64 (stmt, 0);
          guint r = loom_search_range_of (rowid);

          if (taken[r] < ranges[r].limit)
            {
              read_candidate (stmt, 1, rowid, 1.0, candidates);
              taken[r]++;
            }
          if (taken[r] >= ranges[r].limit)
            {
              next = ranges[r].from - 1;
              break;
            }
        }
      if (rc != SQLITE_ROW)
        break;
      below = next;
    }
  sqlite3_reset (stmt);
  return !step_failed (store, rc == SQLITE_ROW ? SQLITE_DONE : rc, error);
}

/* A prefix such as pars* makes FTS5 merge every term that starts so — tens of milliseconds on
 * a large index — once for each statement, so the ranges are read in one scan from the top:
 * titles, then messages, then events, the most numerous, last, where the scan stops. Only the
 * rowids pass through the ranges' extra matches; the hits kept are read one by one after. */
static gboolean
read_ranges_in_one_scan (LoomStore        *store,
                         LoomSearchQuery  *query,
                         const Range      *ranges,
                         GArray           *candidates,
                         GError          **error)
{
  static const char scan_sql[] =
    "SELECT rowid, CASE WHEN " LOOM_SEARCH_TAKE " (rowid, ?2)"
    " THEN " LOOM_SEARCH_RANK " (search_index, 10.0) END"
    " FROM search_index WHERE search_index MATCH ?1 ORDER BY rowid DESC";
  g_autoptr(GString) sql = g_string_new ("SELECT ");
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) relevance = g_array_new (FALSE, FALSE, sizeof (double));
  sqlite3_stmt *details;
  LoomSearchQuota quota = { { 0 }, { ranges[0].limit, ranges[1].limit, ranges[2].limit } };
  sqlite3_stmt *scan;
  int rc;

  if (!(scan = loom_store_cached (store, scan_sql, error)))
    return FALSE;
  sqlite3_bind_text (scan, 1, query->match, -1, SQLITE_STATIC);
  sqlite3_bind_pointer (scan, 2, &quota, LOOM_SEARCH_QUOTA_TYPE, NULL);
  while ((rc = sqlite3_step (scan)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (scan, 0);
      double rank = sqlite3_column_double (scan, 1);

      if (sqlite3_column_type (scan, 1) != SQLITE_NULL)
        {
          g_array_append_val (kept, rowid);
          g_array_append_val (relevance, rank);
        }
      if (loom_search_range_of (rowid) == 0 && quota.taken[0] >= quota.limits[0])
        break;
    }
  sqlite3_reset (scan);
  sqlite3_clear_bindings (scan);
  if (rc != SQLITE_ROW && step_failed (store, rc, error))
    return FALSE;

  append_candidate_columns (sql, query, "1.0", FALSE, FALSE);
  g_string_append (sql, " WHERE x.id = ?");
  append_conditions (sql, query, 0);
  if (!(details = loom_store_cached_built (store, sql->str, error)))
    return FALSE;
  for (guint i = 0; i < kept->len; i++)
    {
      int index = 1;

      sqlite3_reset (details);
      sqlite3_bind_int64 (details, index++, g_array_index (kept, gint64, i));
      bind_filters (details, &index, query);
      if ((rc = sqlite3_step (details)) == SQLITE_ROW)
        read_candidate (details, 0, g_array_index (kept, gint64, i),
                        g_array_index (relevance, double, i), candidates);
      else if (step_failed (store, rc, error))
        {
          sqlite3_reset (details);
          return FALSE;
        }
    }
  sqlite3_reset (details);
  return TRUE;
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
expand_prefix (const char  *word,
               gpointer     data,
               GError     **error)
{
  LoomStore *store = data;

  return loom_search_terms_expand (store->db, word, MAX_PREFIX_TERMS, error);
}

/* The rowids a session's entries can have: its messages' and events' ids are mostly
 * consecutive, since a session is imported a file at a time. */
static gboolean
session_ranges (LoomStore  *store,
                gint64      session_rowid,
                Range      *ranges,
                GError    **error)
{
  static const char sql[] =
    "SELECT (SELECT min (id) FROM events WHERE session_id = ?1),"
    "       (SELECT max (id) FROM events WHERE session_id = ?1),"
    "       (SELECT min (id) FROM messages WHERE session_id = ?1),"
    "       (SELECT max (id) FROM messages WHERE session_id = ?1)";
  sqlite3_stmt *stmt = loom_store_cached (store, sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_rowid);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      loom_store_set_error (store, error, "Could not search the session");
      sqlite3_reset (stmt);
      return FALSE;
    }
  /* A kind the session has none of gets an empty range. */
  ranges[0] = (Range) { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1), -1 };
  ranges[1] = (Range) { LOOM_INDEX_MESSAGES_FROM + sqlite3_column_int64 (stmt, 2),
                        LOOM_INDEX_MESSAGES_FROM + sqlite3_column_int64 (stmt, 3), -1 };
  if (sqlite3_column_type (stmt, 0) == SQLITE_NULL)
    ranges[0] = (Range) { 1, 0, 0 };
  if (sqlite3_column_type (stmt, 2) == SQLITE_NULL)
    ranges[1] = (Range) { 1, 0, 0 };
  ranges[2] = (Range) { LOOM_INDEX_TITLES_FROM + session_rowid,
                        LOOM_INDEX_TITLES_FROM + session_rowid, 1 };
  sqlite3_reset (stmt);
  return TRUE;
}

/* What a hit of the page shows beyond its candidate: its session, its place in the timeline,
 * its tool and its snippet, cut from the text the entry indexes (see loom-search-snippet.h),
 * or the start of that text when the query has no words. */
typedef struct
{
  char   *uuid;
  char   *title;
  char   *source;
  gint64  seq;
  char   *tool;
  char   *snippet;
} PageHit;

#define PREVIEW_CHARACTERS 200

#define PAGE_HIT_SQL(body_of_message, body_of_event, body_of_title) \
    "SELECT m.seq, NULL, " body_of_message ", s.uuid, s.title, s.source" \
    " FROM messages m JOIN sessions s ON s.id = m.session_id" \
    " WHERE ?1 >= " LOOM_INDEX_MESSAGES_FROM_SQL " AND ?1 < " LOOM_INDEX_TITLES_FROM_SQL \
    "   AND m.id = ?1 - " LOOM_INDEX_MESSAGES_FROM_SQL \
    " UNION ALL" \
    " SELECT e.seq, e.tool_name, " body_of_event ", s.uuid, s.title, s.source" \
    " FROM events e JOIN sessions s ON s.id = e.session_id" \
    " WHERE ?1 < " LOOM_INDEX_MESSAGES_FROM_SQL " AND e.id = ?1" \
    " UNION ALL" \
    " SELECT 0, NULL, " body_of_title ", s.uuid, s.title, s.source FROM sessions s" \
    " WHERE ?1 >= " LOOM_INDEX_TITLES_FROM_SQL " AND s.id = ?1 - " LOOM_INDEX_TITLES_FROM_SQL

/* @with_text: the hit gets a snippet (from @maker) or the start of its text; without, none. */
static void
read_page_hit (LoomStore        *store,
               LoomSnippetMaker *maker,
               gboolean          with_text,
               gint64            rowid,
               PageHit          *hit)
{
  static const char with_text_sql[] =
    PAGE_HIT_SQL (LOOM_INDEX_MESSAGE_BODY ("m"), LOOM_INDEX_EVENT_BODY ("e"), "s.title");
  static const char without_text_sql[] = PAGE_HIT_SQL ("NULL", "NULL", "NULL");
  const char *sql = with_text ? with_text_sql : without_text_sql;
  sqlite3_stmt *stmt = loom_store_cached (store, sql, NULL);

  *hit = (PageHit) { 0 };
  if (stmt == NULL)
    return;
  sqlite3_bind_int64 (stmt, 1, rowid);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *text = (const char *)sqlite3_column_text (stmt, 2);

      hit->seq = sqlite3_column_int64 (stmt, 0);
      hit->tool = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
      hit->uuid = g_strdup ((const char *)sqlite3_column_text (stmt, 3));
      hit->title = g_strdup ((const char *)sqlite3_column_text (stmt, 4));
      hit->source = g_strdup ((const char *)sqlite3_column_text (stmt, 5));
      if (!with_text)
        hit->snippet = NULL;
      else if (maker != NULL)
        hit->snippet = loom_snippet_maker_make (maker, text, SNIPPET_TOKENS);
      else if (text != NULL && g_utf8_strlen (text, PREVIEW_CHARACTERS + 1) > PREVIEW_CHARACTERS)
        hit->snippet = g_utf8_substring (text, 0, PREVIEW_CHARACTERS);
      else
        hit->snippet = g_strdup (text);
    }
  sqlite3_reset (stmt);
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
run_search (LoomStore        *store,
            LoomSearchQuery  *query,
            gint64            session_rowid,
            guint             offset,
            guint             limit,
            gboolean          with_snippets,
            GError          **error)
{
  g_autoptr(GListStore) hits = g_list_store_new (LOOM_TYPE_SEARCH_HIT);
  g_autoptr(GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_autoptr(LoomSnippetMaker) maker = NULL;
  gint64 page_end = (gint64)offset + (limit > 0 ? limit : G_MAXUINT);
  Range ranges[3] = {
    { 0, LOOM_INDEX_MESSAGES_FROM - 1, MAX (EVENT_CANDIDATES, page_end) },
    { LOOM_INDEX_MESSAGES_FROM, LOOM_INDEX_TITLES_FROM - 1, MAX (MESSAGE_CANDIDATES, page_end) },
    { LOOM_INDEX_TITLES_FROM, G_MAXINT64, MAX (TITLE_CANDIDATES, page_end) },
  };
  gboolean native_prefix = FALSE;
  gboolean ok;

  loom_store_map_for_searching (store);

  /* pars* as parse OR parser OR …: FTS5 reads an OR lazily, newest first (loom-search-terms.h). */
  if (query->match != NULL && has_prefix (query) &&
      !loom_search_query_expand_prefixes (query, expand_prefix, store, &native_prefix, error))
    return NULL;

  if (session_rowid > 0 && !session_ranges (store, session_rowid, ranges, error))
    return NULL;
  if (query->match != NULL && with_snippets &&
      !(maker = loom_snippet_maker_new (store->db,
                                        (const char * const *)query->marked->pdata,
                                        (const gboolean *)(gpointer)query->marked_prefix->data,
                                        query->marked->len, error)))
    return NULL;

  if (session_rowid == 0 && query->match != NULL && native_prefix)
    ok = read_ranges_in_one_scan (store, query, ranges, candidates, error);
  else
    ok = session_rowid > 0 ? read_ranges (store, query, session_rowid, ranges, candidates, error)
                           : read_newest (store, query, ranges, candidates, error);
  if (!ok)
    return NULL;

  /* Within a session, hits come in the timeline's order, for going from one to the next. */
  g_array_sort (candidates, session_rowid > 0 ? compare_by_seq : compare_by_score);

  for (guint i = offset; i < candidates->len && (gint64)i < page_end; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      PageHit page_hit;
      LoomSearchHitData data;

      read_page_hit (store, maker, with_snippets, c->rowid, &page_hit);
      data = (LoomSearchHitData) {
        .session_uuid = page_hit.uuid,
        .session_title = page_hit.title,
        .source = page_hit.source,
        .item_type = g_strdup (c->rowid >= LOOM_INDEX_TITLES_FROM ? "title" :
                               c->rowid >= LOOM_INDEX_MESSAGES_FROM ? "message" : "event"),
        .item_id = item_of (c->rowid),
        .seq = page_hit.seq,
        .kind = g_strdup (display_kind (c->kind)),
        .tool_name = page_hit.tool,
        .created_at = c->at,
        .snippet = page_hit.snippet,
        .score = c->score,
      };
      g_autoptr(LoomSearchHit) hit = loom_search_hit_new (&data);

      g_list_store_append (hits, hit);
    }
  return G_LIST_MODEL (g_steal_pointer (&hits));
}

GListModel *
loom_store_search (LoomStore   *store,
                   const char  *text,
                   guint        offset,
                   guint        limit,
                   GError     **error)
{
  g_autoptr(LoomSearchQuery) query = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!(query = loom_search_query_parse (text, error)))
    return NULL;
  return run_search (store, query, 0, offset, limit, TRUE, error);
}

static GListModel *
search_session (LoomStore   *store,
                const char  *session_id,
                const char  *text,
                guint        limit,
                gboolean     with_snippets,
                GError     **error)
{
  g_autoptr(LoomSearchQuery) query = NULL;
  gint64 rowid;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!(rowid = loom_store_resolve_session (store, session_id, error)) ||
      !(query = loom_search_query_parse (text, error)))
    return NULL;
  return run_search (store, query, rowid, 0, limit, with_snippets, error);
}

GListModel *
loom_store_search_session (LoomStore   *store,
                           const char  *session_id,
                           const char  *text,
                           guint        limit,
                           GError     **error)
{
  return search_session (store, session_id, text, limit, TRUE, error);
}

GListModel *
loom_store_search_session_positions (LoomStore   *store,
                                     const char  *session_id,
                                     const char  *text,
                                     guint        limit,
                                     GError     **error)
{
  return search_session (store, session_id, text, limit, FALSE, error);
}
