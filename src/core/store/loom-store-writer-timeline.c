/* loom-store-writer-timeline.c — the messages and events an import adds to a session, and
 * what is derived from them once its file is read: counts, tokens, models and its name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-store-writer-private.h"

/* What is shown and searched of an event; the payload keeps everything. */

gint64
loom_store_writer_last_seq (LoomStoreWriter *writer,
                            gint64           session_id,
                            GError         **error)
{
  static const char sql[] =
    "SELECT max (ifnull ((SELECT max (seq) FROM messages WHERE session_id = ?1), 0),"
    "            ifnull ((SELECT max (seq) FROM events WHERE session_id = ?1), 0))";
  sqlite3_stmt *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, session_id);
  return loom_store_writer_step (writer, stmt, "order the timeline", error);
}

static gint64
find_message (LoomStoreWriter *writer,
              gint64           session_id,
              const char      *source_id,
              GError         **error)
{
  static const char sql[] = "SELECT id FROM messages WHERE session_id = ?1 AND source_id = ?2";
  sqlite3_stmt     *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, session_id);
  loom_store_writer_bind_text (stmt, 2, source_id);
  return loom_store_writer_step (writer, stmt, "find the message", error);
}

/* A message seen again (Claude writes one record per content block) grows by its new text.
 * Each count of its usage keeps the largest value a record gave (RAISED): the records repeat
 * one response's usage, which only grows as it streams, so a smaller count is a placeholder (a
 * copy tool's 0, a record written again before the final one) and must not replace the real
 * figure. */
#define RAISED(column, param) \
  "  " column " = max (coalesce (" param ", " column "), coalesce (" column ", " param "))"
static gint64
update_message (LoomStoreWriter        *writer,
                gint64                  id,
                const LoomStoreMessage *m,
                GError                **error)
{
  static const char update_sql[] =
    "UPDATE messages SET"
    "  text = CASE WHEN ?2 = '' OR ?2 = text THEN text WHEN text = '' THEN ?2"
    "              ELSE text || char (10) || char (10) || ?2 END,"
    "  flags = flags | ?3, model = coalesce (?4, model)," RAISED ("input_tokens", "?5") "," RAISED (
      "output_tokens", "?6") "," RAISED ("cache_read_tokens",
                                         "?7") "," RAISED ("cache_creation_tokens",
                                                           "?8") "," RAISED ("reasoning_tokens",
                                                                             "?9") " WHERE id = ?1";
  /* The same without text and flags, whose update trigger keeps the search index current. A
   * statement that may fire a trigger is one SQLite must be able to undo halfway, so it copies
   * each page it changes to a statement journal first: most updates (Claude's records of a
   * message's tool calls and thinking) only bring the usage, and need none of that. */
  static const char update_usage_sql[] =
    "UPDATE messages SET"
    "  model = coalesce (?4, model)," RAISED ("input_tokens", "?5") "," RAISED (
      "output_tokens", "?6") "," RAISED ("cache_read_tokens",
                                         "?7") "," RAISED ("cache_creation_tokens",
                                                           "?8") "," RAISED ("reasoning_tokens",
                                                                             "?9") " WHERE id = ?1";
  gboolean      has_text = m->text != NULL && *m->text != '\0';
  sqlite3_stmt *stmt;

  /* Nothing to add: spare the write (and the index update it would trigger). */
  if (!has_text && m->flags == 0 && m->model == NULL && m->input_tokens < 0 &&
      m->output_tokens < 0 && m->cache_read_tokens < 0 && m->cache_creation_tokens < 0 &&
      m->reasoning_tokens < 0)
    return id;

  stmt = loom_store_cached (writer->store,
                            has_text || m->flags != 0 ? update_sql : update_usage_sql, error);
  if (stmt == NULL)
    return 0;
  sqlite3_bind_int64 (stmt, 1, id);
  loom_store_writer_bind_text (stmt, 2, m->text ? m->text : "");
  sqlite3_bind_int (stmt, 3, (int)m->flags);
  loom_store_writer_bind_line (stmt, 4, m->model, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_count (stmt, 5, m->input_tokens);
  loom_store_writer_bind_count (stmt, 6, m->output_tokens);
  loom_store_writer_bind_count (stmt, 7, m->cache_read_tokens);
  loom_store_writer_bind_count (stmt, 8, m->cache_creation_tokens);
  loom_store_writer_bind_count (stmt, 9, m->reasoning_tokens);
  return loom_store_writer_step (writer, stmt, "update a message", error) < 0 ? 0 : id;
}

gint64
loom_store_writer_add_message (LoomStoreWriter        *writer,
                               gint64                  session_id,
                               gint64                  seq,
                               const LoomStoreMessage *m,
                               guint64                *n_added,
                               GError                **error)
{
  /* Insert first, the common case; a conflict on (session, source_id) means the message was
   * seen before, and it is updated instead. */
  static const char insert_sql[] =
    "INSERT INTO messages (session_id, seq, role, flags, source_id, model, created_at, text,"
    "                      input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,"
    "                      reasoning_tokens)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
    " ON CONFLICT (session_id, source_id) WHERE source_id IS NOT NULL DO NOTHING";
  sqlite3_stmt *stmt;
  gint64        id;

  if (!(stmt = loom_store_cached (writer->store, insert_sql, error)))
    return 0;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, seq);
  loom_store_writer_bind_text (stmt, 3, m->role);
  sqlite3_bind_int (stmt, 4, (int)m->flags);
  loom_store_writer_bind_text (stmt, 5, m->source_id);
  loom_store_writer_bind_line (stmt, 6, m->model, LOOM_STORE_WORD_LIMIT);
  sqlite3_bind_int64 (stmt, 7, m->created_at);
  loom_store_writer_bind_text (stmt, 8, m->text ? m->text : "");
  loom_store_writer_bind_count (stmt, 9, m->input_tokens);
  loom_store_writer_bind_count (stmt, 10, m->output_tokens);
  loom_store_writer_bind_count (stmt, 11, m->cache_read_tokens);
  loom_store_writer_bind_count (stmt, 12, m->cache_creation_tokens);
  loom_store_writer_bind_count (stmt, 13, m->reasoning_tokens);
  id = loom_store_writer_step_inserting (writer, stmt, "add a message", error);
  if (id < 0)
    return 0;
  if (id > 0)
    {
      (*n_added)++;
      return id;
    }

  if ((id = find_message (writer, session_id, m->source_id, error)) <= 0)
    return 0;
  return update_message (writer, id, m, error);
}

static gint64
find_event (LoomStoreWriter *writer,
            gint64           session_id,
            const char      *kind,
            const char      *source_id,
            GError         **error)
{
  static const char sql[] =
    "SELECT id FROM events WHERE session_id = ?1 AND kind = ?2 AND source_id = ?3";
  sqlite3_stmt *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, session_id);
  loom_store_writer_bind_text (stmt, 2, kind);
  loom_store_writer_bind_text (stmt, 3, source_id);
  return loom_store_writer_step (writer, stmt, "find the event", error);
}

gint64
loom_store_writer_add_event (LoomStoreWriter      *writer,
                             gint64                session_id,
                             gint64                seq,
                             const LoomStoreEvent *e,
                             guint64              *n_added,
                             GError              **error)
{
  static const char sql[] =
    "INSERT INTO events (session_id, seq, kind, message_id, call_id, tool_name, is_error, path,"
    "                    change_kind, source_id, created_at, text, payload, payload_size)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
    " ON CONFLICT (session_id, kind, source_id) WHERE source_id IS NOT NULL DO NOTHING";
  sqlite3_stmt *stmt;
  gint64        id;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return 0;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, seq);
  loom_store_writer_bind_text (stmt, 3, e->kind);
  if (e->message_id > 0)
    sqlite3_bind_int64 (stmt, 4, e->message_id);
  loom_store_writer_bind_text (stmt, 5, e->call_id);
  loom_store_writer_bind_line (stmt, 6, e->tool_name, LOOM_STORE_WORD_LIMIT);
  sqlite3_bind_int (stmt, 7, !!e->is_error);
  loom_store_writer_bind_path (stmt, 8, e->path);
  loom_store_writer_bind_line (stmt, 9, e->change_kind, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_text (stmt, 10, e->source_id);
  sqlite3_bind_int64 (stmt, 11, e->created_at);
  loom_store_writer_bind_event_text (stmt, 12, e->text);
  loom_store_writer_bind_text (stmt, 13, e->payload);
  sqlite3_bind_int64 (stmt, 14, e->payload ? (gint64)strlen (e->payload) : 0);
  id = loom_store_writer_step_inserting (writer, stmt, "add an event", error);
  if (id < 0)
    return 0;
  if (id == 0) /* seen before: the same kind and source id */
    return MAX (find_event (writer, session_id, e->kind, e->source_id, error), 0);
  (*n_added)++;
  return id;
}

/* ——— After the file ——— */

/* A session's counts, times and summed tokens from its rows: one pass over its messages and
 * one over its events (the table's rows, through messages_session and events_session), where a
 * subquery per column read them eleven times over. The tokens are summed from the messages
 * only if some message has them; an agent that reports a session's totals overwrites them
 * after (reported_tokens_sql). Reasoning is NULL unless some message tells it apart (Claude's
 * never do: their output holds it unsaid). */
#define SUMMED_TOKENS(column, sum) \
  "  " column " = CASE WHEN m.n_tokens > 0 THEN ifnull (m." sum ", 0) ELSE " column " END,"
static const char recompute_sql[] =
  "UPDATE sessions SET"
  "  n_user_messages = m.n_user, n_assistant_messages = m.n_assistant,"
  "  message_count = m.n_user + m.n_assistant," SUMMED_TOKENS (
    "tokens_input",
    "input") SUMMED_TOKENS ("tokens_output", "output")
    SUMMED_TOKENS ("tokens_cache_read", "cache_read") SUMMED_TOKENS (
      "tokens_cache_creation",
      "cache_creation") "  tokens_reasoning = CASE WHEN m.n_tokens > 0 THEN m.reasoning ELSE tokens_reasoning END,"
                        "  n_tool_calls = e.n_calls, n_tool_results = e.n_results, n_tool_errors = e.n_errors,"
                        "  n_reasoning = e.n_reasoning, event_count = e.n,"
                        "  tools_used = (SELECT ifnull (json_group_object (tool_name, n), '{}') FROM"
                        "                (SELECT tool_name, count(*) AS n FROM events"
                        "                 WHERE session_id = ?1 AND kind = 'tool_call' AND tool_name IS NOT NULL"
                        "                 GROUP BY tool_name ORDER BY n DESC, tool_name)),"
                        "  models = (SELECT ifnull (json_group_array (model), '[]') FROM"
                        "            (SELECT model, min (seq) AS first FROM messages"
                        "             WHERE session_id = ?1 AND model IS NOT NULL AND model != ''"
                        "             GROUP BY model ORDER BY first)),"
                        "  model = coalesce ((SELECT model FROM messages"
                        "                     WHERE session_id = ?1 AND model IS NOT NULL AND model != ''"
                        "                     GROUP BY model ORDER BY count(*) DESC, min (seq) LIMIT 1), model),"
                        "  created_at = (SELECT ifnull (min (t), 0) FROM (SELECT nullif (sessions.created_at, 0) AS t"
                        "                UNION ALL SELECT m.first UNION ALL SELECT e.first)),"
                        "  updated_at = (SELECT ifnull (max (t), 0) FROM (SELECT sessions.updated_at AS t"
                        "                UNION ALL SELECT m.last UNION ALL SELECT e.last))"
                        " FROM (SELECT count(*) FILTER (WHERE role = 'user' AND flags & ?2 = 0) AS n_user,"
                        "              count(*) FILTER (WHERE role = 'assistant' AND flags & ?3 = 0) AS n_assistant,"
                        "              min (nullif (created_at, 0)) AS first, max (created_at) AS last,"
                        "              sum (input_tokens) AS input, sum (output_tokens) AS output,"
                        "              sum (cache_read_tokens) AS cache_read,"
                        "              sum (cache_creation_tokens) AS cache_creation,"
                        "              sum (reasoning_tokens) AS reasoning,"
                        "              count (input_tokens) + count (output_tokens) AS n_tokens"
                        "       FROM messages WHERE session_id = ?1) AS m,"
                        "      (SELECT count(*) FILTER (WHERE kind = 'tool_call') AS n_calls,"
                        "              count(*) FILTER (WHERE kind = 'tool_result') AS n_results,"
                        "              count(*) FILTER (WHERE kind = 'tool_result' AND is_error) AS n_errors,"
                        "              count(*) FILTER (WHERE kind = 'reasoning') AS n_reasoning,"
                        "              count(*) AS n,"
                        "              min (nullif (created_at, 0)) AS first, max (created_at) AS last"
                        "       FROM events WHERE session_id = ?1) AS e"
                        " WHERE sessions.id = ?1";

static const char reported_tokens_sql[] =
  "UPDATE sessions SET tokens_input = ?2, tokens_output = ?3, tokens_cache_read = ?4,"
  "  tokens_cache_creation = ?5, tokens_reasoning = ?6 WHERE id = ?1";

gboolean
loom_store_writer_recount_session (LoomStoreWriter *writer,
                                   gint64           session_id,
                                   guint            not_a_prompt,
                                   guint            not_a_reply,
                                   GError         **error)
{
  sqlite3_stmt *stmt = loom_store_cached (writer->store, recompute_sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int (stmt, 2, (int)not_a_prompt);
  sqlite3_bind_int (stmt, 3, (int)not_a_reply);
  return loom_store_writer_step (writer, stmt, "count the session", error) >= 0;
}

gboolean
loom_store_writer_set_tokens (LoomStoreWriter *writer,
                              gint64           session_id,
                              gint64           input,
                              gint64           output,
                              gint64           cache_read,
                              gint64           cache_creation,
                              gint64           reasoning,
                              GError         **error)
{
  sqlite3_stmt *stmt = loom_store_cached (writer->store, reported_tokens_sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, MAX (input, 0));
  sqlite3_bind_int64 (stmt, 3, MAX (output, 0));
  sqlite3_bind_int64 (stmt, 4, MAX (cache_read, 0));
  sqlite3_bind_int64 (stmt, 5, MAX (cache_creation, 0));
  loom_store_writer_bind_count (stmt, 6, reasoning);
  return loom_store_writer_step (writer, stmt, "record the tokens", error) >= 0;
}

gboolean
loom_store_writer_get_models (LoomStoreWriter *writer,
                              gint64           session_id,
                              char           **models_json,
                              char           **model,
                              GError         **error)
{
  static const char sql[] = "SELECT models, model FROM sessions WHERE id = ?1";
  sqlite3_stmt     *stmt;

  *models_json = NULL;
  *model = NULL;
  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    {
      *models_json = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
      *model = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
    }
  sqlite3_reset (stmt);
  return TRUE;
}

gboolean
loom_store_writer_set_models (LoomStoreWriter *writer,
                              gint64           session_id,
                              const char      *models_json,
                              const char      *model,
                              GError         **error)
{
  static const char sql[] = "UPDATE sessions SET models = ?2, model = ?3 WHERE id = ?1";
  sqlite3_stmt     *stmt;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  loom_store_writer_bind_text (stmt, 2, models_json);
  loom_store_writer_bind_text (stmt, 3, model);
  return loom_store_writer_step (writer, stmt, "record the models", error) >= 0;
}

gboolean
loom_store_writer_get_title_sources (LoomStoreWriter *writer,
                                     gint64           session_id,
                                     guint            not_a_prompt,
                                     gboolean        *locked,
                                     char           **agent_title,
                                     char           **first_prompt,
                                     gint64          *created_at,
                                     GError         **error)
{
  static const char sql[] =
    "SELECT s.title_locked, s.agent_title, s.created_at,"
    "       (SELECT text FROM messages WHERE session_id = s.id AND role = 'user'"
    "        AND flags & ?2 = 0 AND text != '' ORDER BY seq LIMIT 1)"
    " FROM sessions s WHERE s.id = ?1";
  sqlite3_stmt *stmt;
  int           rc;

  *locked = FALSE;
  *agent_title = NULL;
  *first_prompt = NULL;
  *created_at = 0;
  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int (stmt, 2, (int)not_a_prompt);
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      loom_store_set_error (writer->store, error, "name the session");
      sqlite3_reset (stmt);
      return FALSE;
    }
  if (sqlite3_column_int (stmt, 0))
    {
      *locked = TRUE;
      sqlite3_reset (stmt);
      return TRUE;
    }

  if (sqlite3_column_type (stmt, 1) != SQLITE_NULL)
    *agent_title = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
  if (sqlite3_column_type (stmt, 3) != SQLITE_NULL)
    *first_prompt = g_strdup ((const char *)sqlite3_column_text (stmt, 3));
  *created_at = sqlite3_column_int64 (stmt, 2);
  sqlite3_reset (stmt);
  return TRUE;
}

gboolean
loom_store_writer_set_title (LoomStoreWriter *writer,
                             gint64           session_id,
                             const char      *title,
                             GError         **error)
{
  /* Most passes find the name unchanged: then the row is not written at all. */
  static const char sql[] = "UPDATE sessions SET title = ?2 WHERE id = ?1 AND title IS NOT ?2";
  sqlite3_stmt     *stmt;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  loom_store_writer_bind_text (stmt, 2, title);
  return loom_store_writer_step (writer, stmt, "name the session", error) >= 0;
}
