/* loom-store-search.c — the statements of a search: candidates of each kind, the rows of the
 * page, and the index's terms. What the hits mean and how they rank is search/'s
 * (loom-search.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-search-index.h"
#include "loom-store-private.h"
#include "loom-store-search.h"

gint64
loom_store_search_find_session (LoomStore  *self,
                                const char *id,
                                GError    **error)
{
  return loom_store_resolve_session (self, id, error);
}

/* The columns a candidate is read from, after its rowid; @score_sql is its relevance. An
 * entry is x (search_entries, narrow and dense) and its words i (search_index) when the query
 * has words. The joins to messages and events cost nothing unless a filter or @with_seq reads
 * them: SQLite leaves out a LEFT JOIN on a primary key that nothing uses. The session is
 * joined only for filters that read it: a session's row is wide, and reading it was most of
 * the cost of a candidate. A title's time is its session's, read for titles only. */
static void
append_candidate_columns (GString                     *sql,
                          const LoomStoreSearchFilter *filter,
                          const char                  *score_sql,
                          gboolean                     from_words,
                          gboolean                     with_seq)
{
  g_string_append_printf (
    sql,
    "x.kind, coalesce (nullif (x.created_at, 0),"
    "  (SELECT created_at FROM sessions WHERE id = x.session_id)),"
    " %s, %s"
    " FROM %s%s"
    " LEFT JOIN messages m ON x.id >= " LOOM_INDEX_MESSAGES_FROM_SQL
    "   AND x.id < " LOOM_INDEX_TITLES_FROM_SQL "   AND m.id = x.id - " LOOM_INDEX_MESSAGES_FROM_SQL
    " LEFT JOIN events e ON x.id < " LOOM_INDEX_MESSAGES_FROM_SQL "   AND e.id = x.id",
    score_sql, with_seq ? "coalesce (m.seq, e.seq, 0)" : "0",
    from_words ? "search_index i"
                 " CROSS JOIN search_entries x ON x.id = i.rowid"
               : "search_entries x",
    filter->by_session ? " CROSS JOIN sessions s ON s.id = x.session_id"
                         " LEFT JOIN projects p ON p.id = s.project_id"
                         " LEFT JOIN folders f ON f.id = s.folder_id"
                       : "");
}

/* The filters' conditions. Across all history, the Trash is left out (or searched alone, for
 * in:trash) through the few trashed sessions' ids, not each candidate's session row; a search
 * within one session reads all of it, wherever the session is. */
static void
append_conditions (GString                     *sql,
                   const LoomStoreSearchFilter *filter,
                   gint64                       session_rowid)
{
  g_string_append (sql, filter->where);
  if (session_rowid == 0)
    g_string_append_printf (sql,
                            " AND x.session_id %s (SELECT id FROM sessions"
                            " WHERE trashed_at > 0)",
                            filter->in_trash ? "IN" : "NOT IN");
}

/* The relevance of an entry's words, as loom_rank gives it (loom-search-index.h). */
static char *
rank_sql (const LoomStoreSearchFilter *filter)
{
  char weight[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_dtostr (weight, sizeof weight, filter->title_weight);
  return g_strdup_printf (LOOM_INDEX_RANK " (search_index, %s)", weight);
}

static void
read_candidate (sqlite3_stmt *stmt,
                int           first,
                gint64        rowid,
                double        relevance,
                GArray       *candidates)
{
  LoomStoreSearchCandidate candidate = {
    .rowid = rowid,
    .kind = g_intern_string ((const char *)sqlite3_column_text (stmt, first)),
    .at = sqlite3_column_int64 (stmt, first + 1),
    .score = relevance * sqlite3_column_double (stmt, first + 2),
    .seq = sqlite3_column_int64 (stmt, first + 3),
  };

  g_array_append_val (candidates, candidate);
}

static void
bind_filters (sqlite3_stmt                *stmt,
              int                         *index,
              const LoomStoreSearchFilter *filter)
{
  for (guint i = 0; i < filter->n_params; i++)
    {
      const LoomStoreSearchParam *param = &filter->params[i];

      if (param->is_text)
        sqlite3_bind_text (stmt, (*index)++, param->text, -1, SQLITE_STATIC);
      else
        sqlite3_bind_int64 (stmt, (*index)++, param->number);
    }
}

static gboolean
step_failed (LoomStore *store,
             int        rc,
             GError   **error)
{
  if (rc == SQLITE_DONE)
    return FALSE;
  /* The expression is built from quoted strings only; should FTS5 still refuse it, say so in
   * the query's terms. */
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT, "The search could not be run: %s",
               sqlite3_errmsg (store->db));
  return TRUE;
}

/* The statement that reads candidates: the entry's rowid @bound ("<= ?" or "BETWEEN ? AND ?",
 * bound first), the words (MATCH ?), the session (= ?) when searching one, the filters, then
 * newest first and @tail. */
static GString *
candidate_sql (const LoomStoreSearchFilter *filter,
               const char                  *bound,
               gint64                       session_rowid,
               const char                  *tail)
{
  gboolean         words = filter->match != NULL;
  const char      *id = words ? "i.rowid" : "x.id";
  g_autofree char *rank = words ? rank_sql (filter) : g_strdup ("0.0");
  GString         *sql = g_string_new ("SELECT ");

  g_string_append_printf (sql, "%s, ", id);
  append_candidate_columns (sql, filter, rank, words, session_rowid > 0);
  g_string_append_printf (sql, " WHERE %s %s", id, bound);
  if (words)
    g_string_append (sql, " AND search_index MATCH ?");
  if (session_rowid > 0)
    g_string_append (sql, " AND x.session_id = ?");
  append_conditions (sql, filter, session_rowid);
  g_string_append_printf (sql, " ORDER BY %s DESC%s", id, tail);
  return sql;
}

/* Within one session: every hit of each of the session's rowid ranges, one statement per
 * range. The index drives the join (CROSS JOIN keeps it the outer loop, so that its rowid
 * order answers ORDER BY), and FTS5 seeks to the end of each range. */
gboolean
loom_store_search_read_ranges (LoomStore                   *store,
                               const LoomStoreSearchFilter *filter,
                               gint64                       session_rowid,
                               const LoomStoreSearchRange  *ranges,
                               GArray                      *candidates,
                               GError                     **error)
{
  g_autoptr (GString) sql = candidate_sql (filter, "BETWEEN ? AND ?", session_rowid, " LIMIT ?");
  sqlite3_stmt *stmt;
  int           rc = SQLITE_DONE;

  if (!(stmt = loom_store_cached_built (store, sql->str, error)))
    return FALSE;

  for (guint r = 0; r < 3 && rc == SQLITE_DONE; r++)
    {
      int index = 1;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, index++, ranges[r].from);
      sqlite3_bind_int64 (stmt, index++, ranges[r].to);
      if (filter->match != NULL)
        sqlite3_bind_text (stmt, index++, filter->match, -1, SQLITE_STATIC);
      if (session_rowid > 0)
        sqlite3_bind_int64 (stmt, index++, session_rowid);
      bind_filters (stmt, &index, filter);
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
gboolean
loom_store_search_read_newest (LoomStore                   *store,
                               const LoomStoreSearchFilter *filter,
                               const LoomStoreSearchRange  *ranges,
                               GArray                      *candidates,
                               GError                     **error)
{
  gboolean words = filter->match != NULL;
  g_autoptr (GString) sql = candidate_sql (filter, "<= ?", 0, "");
  sqlite3_stmt *stmt;
  gint64        taken[3] = { 0, 0, 0 };
  gint64        below = G_MAXINT64;
  int           rc = SQLITE_DONE;

  if (!(stmt = loom_store_cached_built (store, sql->str, error)))
    return FALSE;

  while (below >= 0)
    {
      gint64 next = -1;
      int    index = 1;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, index++, below);
      if (words)
        sqlite3_bind_text (stmt, index++, filter->match, -1, SQLITE_STATIC);
      bind_filters (stmt, &index, filter);

      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          gint64 rowid = sqlite3_column_int64 (stmt, 0);
          guint  r = loom_index_range_of (rowid);

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
gboolean
loom_store_search_read_in_one_scan (LoomStore                   *store,
                                    const LoomStoreSearchFilter *filter,
                                    const LoomStoreSearchRange  *ranges,
                                    GArray                      *candidates,
                                    GError                     **error)
{
  g_autofree char *rank = rank_sql (filter);
  g_autofree char *scan_sql = g_strdup_printf ("SELECT rowid, CASE WHEN " LOOM_INDEX_TAKE
                                               " (rowid, ?2) THEN %s END"
                                               " FROM search_index WHERE search_index MATCH ?1"
                                               " ORDER BY rowid DESC",
                                               rank);
  g_autoptr (GString) sql = g_string_new ("SELECT ");
  g_autoptr (GArray) kept = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) relevance = g_array_new (FALSE, FALSE, sizeof (double));
  sqlite3_stmt  *details;
  LoomIndexQuota quota = { { 0 }, { ranges[0].limit, ranges[1].limit, ranges[2].limit } };
  sqlite3_stmt  *scan;
  int            rc;

  if (!(scan = loom_store_cached_built (store, scan_sql, error)))
    return FALSE;
  sqlite3_bind_text (scan, 1, filter->match, -1, SQLITE_STATIC);
  sqlite3_bind_pointer (scan, 2, &quota, LOOM_INDEX_QUOTA_TYPE, NULL);
  while ((rc = sqlite3_step (scan)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (scan, 0);
      double score = sqlite3_column_double (scan, 1);

      if (sqlite3_column_type (scan, 1) != SQLITE_NULL)
        {
          g_array_append_val (kept, rowid);
          g_array_append_val (relevance, score);
        }
      if (loom_index_range_of (rowid) == 0 && quota.taken[0] >= quota.limits[0])
        break;
    }
  sqlite3_reset (scan);
  sqlite3_clear_bindings (scan);
  if (rc != SQLITE_ROW && step_failed (store, rc, error))
    return FALSE;

  append_candidate_columns (sql, filter, "1.0", FALSE, FALSE);
  g_string_append (sql, " WHERE x.id = ?");
  append_conditions (sql, filter, 0);
  if (!(details = loom_store_cached_built (store, sql->str, error)))
    return FALSE;
  for (guint i = 0; i < kept->len; i++)
    {
      int index = 1;

      sqlite3_reset (details);
      sqlite3_bind_int64 (details, index++, g_array_index (kept, gint64, i));
      bind_filters (details, &index, filter);
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

/* The rowids a session's entries can have: its messages' and events' ids are mostly
 * consecutive, since a session is imported a file at a time. */
gboolean
loom_store_search_session_ranges (LoomStore            *store,
                                  gint64                session_rowid,
                                  LoomStoreSearchRange *ranges,
                                  GError              **error)
{
  static const char sql[] = "SELECT (SELECT min (id) FROM events WHERE session_id = ?1),"
                            "       (SELECT max (id) FROM events WHERE session_id = ?1),"
                            "       (SELECT min (id) FROM messages WHERE session_id = ?1),"
                            "       (SELECT max (id) FROM messages WHERE session_id = ?1)";
  sqlite3_stmt     *stmt = loom_store_cached (store, sql, error);

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
  ranges[0] = (LoomStoreSearchRange){ sqlite3_column_int64 (stmt, 0),
                                      sqlite3_column_int64 (stmt, 1), -1 };
  ranges[1] = (LoomStoreSearchRange){ LOOM_INDEX_MESSAGES_FROM + sqlite3_column_int64 (stmt, 2),
                                      LOOM_INDEX_MESSAGES_FROM + sqlite3_column_int64 (stmt, 3),
                                      -1 };
  if (sqlite3_column_type (stmt, 0) == SQLITE_NULL)
    ranges[0] = (LoomStoreSearchRange){ 1, 0, 0 };
  if (sqlite3_column_type (stmt, 2) == SQLITE_NULL)
    ranges[1] = (LoomStoreSearchRange){ 1, 0, 0 };
  ranges[2] = (LoomStoreSearchRange){ LOOM_INDEX_TITLES_FROM + session_rowid,
                                      LOOM_INDEX_TITLES_FROM + session_rowid, 1 };
  sqlite3_reset (stmt);
  return TRUE;
}

#define ROW_SQL(body_of_message, body_of_event, body_of_title) \
  "SELECT m.seq, NULL, " body_of_message ", s.uuid, s.title, s.source" \
  " FROM messages m JOIN sessions s ON s.id = m.session_id" \
  " WHERE ?1 >= " LOOM_INDEX_MESSAGES_FROM_SQL " AND ?1 < " LOOM_INDEX_TITLES_FROM_SQL \
  "   AND m.id = ?1 - " LOOM_INDEX_MESSAGES_FROM_SQL " UNION ALL" \
  " SELECT e.seq, e.tool_name, " body_of_event ", s.uuid, s.title, s.source" \
  " FROM events e JOIN sessions s ON s.id = e.session_id" \
  " WHERE ?1 < " LOOM_INDEX_MESSAGES_FROM_SQL " AND e.id = ?1" \
  " UNION ALL" \
  " SELECT 0, NULL, " body_of_title ", s.uuid, s.title, s.source FROM sessions s" \
  " WHERE ?1 >= " LOOM_INDEX_TITLES_FROM_SQL " AND s.id = ?1 - " LOOM_INDEX_TITLES_FROM_SQL

void
loom_store_search_read_row (LoomStore          *store,
                            gint64              rowid,
                            gboolean            with_text,
                            LoomStoreSearchRow *row)
{
  /* The text is what the entry indexes, so that a snippet is cut from the words it matched. */
  static const char with_text_sql[] = ROW_SQL (LOOM_INDEX_MESSAGE_BODY ("m"),
                                               LOOM_INDEX_EVENT_BODY ("e"), "s.title");
  static const char without_text_sql[] = ROW_SQL ("NULL", "NULL", "NULL");
  const char       *sql = with_text ? with_text_sql : without_text_sql;
  sqlite3_stmt     *stmt = loom_store_cached (store, sql, NULL);

  *row = (LoomStoreSearchRow){ 0 };
  if (stmt == NULL)
    return;
  sqlite3_bind_int64 (stmt, 1, rowid);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      row->found = TRUE;
      row->seq = sqlite3_column_int64 (stmt, 0);
      row->tool = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
      row->text = g_strdup ((const char *)sqlite3_column_text (stmt, 2));
      row->uuid = g_strdup ((const char *)sqlite3_column_text (stmt, 3));
      row->title = g_strdup ((const char *)sqlite3_column_text (stmt, 4));
      row->source = g_strdup ((const char *)sqlite3_column_text (stmt, 5));
    }
  sqlite3_reset (stmt);
}

void
loom_store_search_row_clear (LoomStoreSearchRow *row)
{
  g_clear_pointer (&row->uuid, g_free);
  g_clear_pointer (&row->title, g_free);
  g_clear_pointer (&row->source, g_free);
  g_clear_pointer (&row->tool, g_free);
  g_clear_pointer (&row->text, g_free);
}

GPtrArray *
loom_store_search_terms_from (LoomStore  *store,
                              const char *prefix,
                              guint       limit,
                              GError    **error)
{
  /* Above every term that starts with ?1 in BINARY order: U+10FFFF, UTF-8's largest. */
  static const char sql[] =
    "SELECT term FROM search_terms"
    " WHERE term >= ?1 AND term < ?1 || char (1114111) AND (head = 0 OR head < length (?1))"
    " LIMIT ?2";
  g_autoptr (GPtrArray) terms = NULL;
  sqlite3_stmt *stmt = NULL;
  int           rc;

  g_return_val_if_fail (prefix != NULL, NULL);

  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not list the words “%s*”: %s",
                   prefix, sqlite3_errmsg (store->db));
      return NULL;
    }
  sqlite3_bind_text (stmt, 1, prefix, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, (sqlite3_int64)limit);

  terms = g_ptr_array_new_with_free_func (g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (terms, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not list the words “%s*”: %s",
                   prefix, sqlite3_errmsg (store->db));
      return NULL;
    }
  return g_steal_pointer (&terms);
}

gboolean
loom_store_write_search_terms (sqlite3          *db,
                               LoomStoreNextTerm next,
                               gpointer          data,
                               GError          **error)
{
  static const char sql[] =
    "INSERT INTO search_terms (term, head) VALUES (?1, ?2)"
    " ON CONFLICT (term) DO UPDATE SET head = excluded.head WHERE excluded.head < head";
  sqlite3_stmt *stmt = NULL;
  int           rc = SQLITE_DONE;
  const char   *term;
  int           head;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    rc = sqlite3_errcode (db);

  while (stmt != NULL && rc == SQLITE_DONE && next (data, &term, &head))
    {
      sqlite3_bind_text (stmt, 1, term, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 2, head);
      rc = sqlite3_step (stmt);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                   "Could not note the search index's words: %s", sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
