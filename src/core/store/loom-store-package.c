/* loom-store-package.c — a session's rows read for a package and written back from one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-naming.h"
#include "loom-store-package.h"
#include "loom-store-writer-private.h"
#include "loom-time.h"

/* What is shown and searched of an event, as loom-store-writer-timeline.c bounds it. */
/* What a task set out to do, as loom-store-writer-sessions.c bounds it. */
#define TASK_OBJECTIVE_LIMIT 2000

static const char *
column_text (sqlite3_stmt *stmt,
             int           column)
{
  return (const char *)sqlite3_column_text (stmt, column);
}

static gint64
column_count (sqlite3_stmt *stmt,
              int           column)
{
  return sqlite3_column_type (stmt, column) == SQLITE_NULL ? -1
                                                           : sqlite3_column_int64 (stmt, column);
}

static void
read_message (sqlite3_stmt *stmt,
              LoomStoreRow *row)
{
  *row = (LoomStoreRow){ .is_message = TRUE, .message_seq = -1 };
  row->seq = sqlite3_column_int64 (stmt, 0);
  row->role = column_text (stmt, 1);
  row->flags = (guint)sqlite3_column_int64 (stmt, 2);
  row->source_id = column_text (stmt, 3);
  row->model = column_text (stmt, 4);
  row->created_at = sqlite3_column_int64 (stmt, 5);
  row->text = column_text (stmt, 6);
  row->input_tokens = column_count (stmt, 7);
  row->output_tokens = column_count (stmt, 8);
  row->cache_read_tokens = column_count (stmt, 9);
  row->cache_creation_tokens = column_count (stmt, 10);
  row->reasoning_tokens = column_count (stmt, 11);
}

static void
read_event (sqlite3_stmt *stmt,
            LoomStoreRow *row)
{
  *row = (LoomStoreRow){ .is_message = FALSE };
  row->seq = sqlite3_column_int64 (stmt, 0);
  row->kind = column_text (stmt, 1);
  row->message_seq = column_count (stmt, 2);
  row->call_id = column_text (stmt, 3);
  row->tool_name = column_text (stmt, 4);
  row->is_error = sqlite3_column_int (stmt, 5) != 0;
  row->path = column_text (stmt, 6);
  row->change_kind = column_text (stmt, 7);
  row->source_id = column_text (stmt, 8);
  row->created_at = sqlite3_column_int64 (stmt, 9);
  row->text = column_text (stmt, 10);
  row->payload = column_text (stmt, 11);
  row->payload_size = sqlite3_column_int64 (stmt, 12);
  row->input_tokens = row->output_tokens = row->cache_read_tokens = -1;
  row->cache_creation_tokens = row->reasoning_tokens = -1;
}

/* Steps @stmt: TRUE with *@has_row when it gave a row, FALSE with @error on a failure. */
static gboolean
step_row (LoomStore    *self,
          sqlite3_stmt *stmt,
          gboolean     *has_row,
          GError      **error)
{
  int rc = sqlite3_step (stmt);

  *has_row = rc == SQLITE_ROW;
  if (rc == SQLITE_ROW || rc == SQLITE_DONE)
    return TRUE;
  loom_store_set_error (self, error, "read the session’s timeline");
  return FALSE;
}

gboolean
loom_store_foreach_session_row (LoomStore       *self,
                                gint64           session_id,
                                LoomStoreRowFunc func,
                                gpointer         data,
                                GError         **error)
{
  /* Two statements stepped side by side and merged by seq: each holds one row, and the
   * second, started while the first is active, reads in the same transaction, so both see
   * one snapshot. A UNION ordered by seq could make SQLite sort every row, texts and payloads
   * with them, before giving the first. */
  g_autoptr (LoomStoreBorrowed) messages = NULL;
  g_autoptr (LoomStoreBorrowed) events = NULL;
  gboolean has_message, has_event;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  messages = loom_store_cached (
    self,
    "SELECT seq, role, flags, source_id, model, created_at, text, input_tokens, output_tokens,"
    "       cache_read_tokens, cache_creation_tokens, reasoning_tokens"
    " FROM messages WHERE session_id = ?1 ORDER BY seq, id",
    error);
  if (messages == NULL)
    return FALSE;
  events = loom_store_cached (
    self,
    "SELECT seq, kind, (SELECT m.seq FROM messages m WHERE m.id = e.message_id), call_id,"
    "       tool_name, is_error, path, change_kind, source_id, created_at, text, payload,"
    "       payload_size"
    " FROM events e WHERE session_id = ?1 ORDER BY seq, id",
    error);
  if (events == NULL)
    return FALSE;
  sqlite3_bind_int64 (messages, 1, session_id);
  sqlite3_bind_int64 (events, 1, session_id);

  if (!step_row (self, messages, &has_message, error) ||
      !step_row (self, events, &has_event, error))
    return FALSE;
  while (has_message || has_event)
    {
      gboolean take_message = has_message && (!has_event || sqlite3_column_int64 (messages, 0) <=
                                                              sqlite3_column_int64 (events, 0));
      LoomStoreRow row;

      if (take_message)
        read_message (messages, &row);
      else
        read_event (events, &row);
      if (!func (&row, data, error))
        return FALSE;
      if (!step_row (self, take_message ? messages : events,
                     take_message ? &has_message : &has_event, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_foreach_session_summary (LoomStore           *self,
                                    gint64               session_id,
                                    LoomStoreSummaryFunc func,
                                    gpointer             data,
                                    GError             **error)
{
  g_autoptr (LoomStoreBorrowed) stmt = NULL;
  gboolean has_row;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  stmt = loom_store_cached (self,
                            "SELECT kind, text, model, created_at FROM summaries"
                            " WHERE session_id = ?1 ORDER BY id",
                            error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  while (step_row (self, stmt, &has_row, error) && has_row)
    {
      LoomStoreSummary summary = {
        column_text (stmt, 0),
        column_text (stmt, 1),
        column_text (stmt, 2),
        sqlite3_column_int64 (stmt, 3),
      };

      if (!func (&summary, data, error))
        return FALSE;
    }
  return error == NULL || *error == NULL;
}

gboolean
loom_store_get_session_naming (LoomStore *self,
                               gint64     session_id,
                               gboolean  *title_locked,
                               char     **agent_title,
                               GError   **error)
{
  g_autoptr (LoomStoreBorrowed) stmt = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (title_locked != NULL && agent_title != NULL, FALSE);

  *title_locked = FALSE;
  *agent_title = NULL;
  stmt = loom_store_cached (self, "SELECT title_locked, agent_title FROM sessions WHERE id = ?1",
                            error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  switch (sqlite3_step (stmt))
    {
    case SQLITE_ROW:
      *title_locked = sqlite3_column_int (stmt, 0) != 0;
      *agent_title = g_strdup (column_text (stmt, 1));
      return TRUE;
    case SQLITE_DONE:
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No session %" G_GINT64_FORMAT,
                   session_id);
      return FALSE;
    default:
      loom_store_set_error (self, error, "read the session");
      return FALSE;
    }
}

/* ——— Restoring ——— */

/* The row an INSERT added, 0 on an error. */
static gint64
inserted (LoomStoreWriter *writer,
          sqlite3_stmt    *stmt,
          const char      *doing,
          GError         **error)
{
  gint64 id = loom_store_writer_step_inserting (writer, stmt, doing, error);

  return id > 0 ? id : 0;
}

gint64
loom_store_writer_find_package_session (LoomStoreWriter *writer,
                                        const char      *uuid,
                                        const char      *source,
                                        const char      *source_session_id,
                                        GError         **error)
{
  static const char sql[] =
    "SELECT id FROM sessions WHERE uuid = ?1"
    " UNION ALL SELECT id FROM sessions WHERE source = ?2 AND source_session_id = ?3 LIMIT 1";
  sqlite3_stmt *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return -1;
  loom_store_writer_bind_text (stmt, 1, uuid);
  loom_store_writer_bind_text (stmt, 2, source);
  loom_store_writer_bind_text (stmt, 3, source_session_id);
  return loom_store_writer_step (writer, stmt, "look for the session", error);
}

/* The row of the session @uuid, 0 when it is not stored (or @uuid is NULL), -1 on an error. */
static gint64
find_uuid (LoomStoreWriter *writer,
           const char      *uuid,
           GError         **error)
{
  static const char sql[] = "SELECT id FROM sessions WHERE uuid = ?1";
  sqlite3_stmt     *stmt;

  if (uuid == NULL)
    return 0;
  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return -1;
  loom_store_writer_bind_text (stmt, 1, uuid);
  return loom_store_writer_step (writer, stmt, "find a linked session", error);
}

/* The row of the project at @path, made when missing; 0 for no path. */
static gint64
ensure_project (LoomStoreWriter *writer,
                const char      *path,
                const char      *name,
                gint64           created_at,
                GError         **error)
{
  static const char add_sql[] = "INSERT INTO projects (path, name, created_at) VALUES (?1, ?2, ?3)"
                                " ON CONFLICT (path) DO NOTHING";
  static const char find_sql[] = "SELECT id FROM projects WHERE path = ?1";
  g_autofree char  *bounded = loom_naming_bound_path (path, LOOM_NAMING_PATH_LIMIT);
  g_autofree char  *basename = NULL;
  sqlite3_stmt     *stmt;

  if (bounded == NULL || *bounded == '\0')
    return 0;
  if (name == NULL || *name == '\0')
    name = basename = g_path_get_basename (bounded);
  if (!(stmt = loom_store_cached (writer->store, add_sql, error)))
    return -1;
  loom_store_writer_bind_text (stmt, 1, bounded);
  loom_store_writer_bind_line (stmt, 2, name, LOOM_NAMING_TITLE_LIMIT);
  sqlite3_bind_int64 (stmt, 3, MAX (created_at, 0));
  if (loom_store_writer_step (writer, stmt, "record the project", error) < 0 ||
      !(stmt = loom_store_cached (writer->store, find_sql, error)))
    return -1;
  loom_store_writer_bind_text (stmt, 1, bounded);
  return loom_store_writer_step (writer, stmt, "find the project", error);
}

/* The row of the folder called @name (its case aside, as folders are named), made when
 * missing; 0 for no name. */
static gint64
ensure_folder (LoomStoreWriter *writer,
               const char      *name,
               GError         **error)
{
  static const char add_sql[] =
    "INSERT INTO folders (name, position, created_at)"
    " VALUES (?1, (SELECT ifnull (max (position) + 1, 0) FROM folders), ?2)"
    " ON CONFLICT (name) DO NOTHING";
  static const char find_sql[] = "SELECT id FROM folders WHERE name = ?1";
  g_autofree char  *line = loom_naming_bound_line (name, LOOM_NAMING_TITLE_LIMIT);
  sqlite3_stmt     *stmt;

  if (line == NULL)
    return 0;
  g_strstrip (line);
  if (*line == '\0')
    return 0;
  if (!(stmt = loom_store_cached (writer->store, add_sql, error)))
    return -1;
  loom_store_writer_bind_text (stmt, 1, line);
  sqlite3_bind_int64 (stmt, 2, loom_time_now_ms ());
  if (loom_store_writer_step (writer, stmt, "make the session’s folder", error) < 0 ||
      !(stmt = loom_store_cached (writer->store, find_sql, error)))
    return -1;
  loom_store_writer_bind_text (stmt, 1, line);
  return loom_store_writer_step (writer, stmt, "find the session’s folder", error);
}

gint64
loom_store_writer_restore_session (LoomStoreWriter         *writer,
                                   const LoomSessionRecord *r,
                                   gboolean                 title_locked,
                                   const char              *agent_title,
                                   GError                 **error)
{
  static const char sql[] =
    "INSERT INTO sessions (uuid, title, title_locked, agent_title, source, source_session_id,"
    "  project_id, cwd, git_branch, git_commit, agent_version, agent_mode, selected_agent_id,"
    "  model, models, created_at, updated_at, last_opened_at, archived_at, trashed_at,"
    "  message_count, event_count, folder_id, pinned, archived, session_type,"
    "  fork_source_session_id, parent_session_id, task_objective, task_status, tools_used,"
    "  tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation, tokens_reasoning,"
    "  n_user_messages, n_assistant_messages, n_tool_calls, n_tool_results, n_tool_errors,"
    "  n_reasoning)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ifnull (?15, '[]'),"
    "  ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ifnull (?26, 'main'), ?27, ?28, ?29,"
    "  ?30, ifnull (?31, '{}'), ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42)";
  gint64        project_id, folder_id, parent_id, fork_id;
  sqlite3_stmt *stmt;
  int           c = 1;

  g_return_val_if_fail (writer != NULL && r != NULL, 0);
  g_return_val_if_fail (r->uuid != NULL && r->source != NULL, 0);

  if ((project_id = ensure_project (writer, r->project_path ? r->project_path : r->cwd,
                                    r->project_name, r->created_at, error)) < 0 ||
      (folder_id = ensure_folder (writer, r->folder_name, error)) < 0 ||
      (parent_id = find_uuid (writer, r->parent_uuid, error)) < 0 ||
      (fork_id = find_uuid (writer, r->fork_source_uuid, error)) < 0)
    return 0;
  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return 0;

  loom_store_writer_bind_text (stmt, c++, r->uuid);
  loom_store_writer_bind_text (stmt, c++, r->title ? r->title : "");
  sqlite3_bind_int (stmt, c++, !!title_locked);
  loom_store_writer_bind_line (stmt, c++, agent_title, LOOM_NAMING_TITLE_LIMIT);
  loom_store_writer_bind_text (stmt, c++, r->source);
  loom_store_writer_bind_text (stmt, c++, r->source_session_id);
  loom_store_writer_bind_row (stmt, c++, project_id);
  loom_store_writer_bind_path (stmt, c++, r->cwd);
  loom_store_writer_bind_line (stmt, c++, r->git_branch, LOOM_NAMING_TITLE_LIMIT);
  loom_store_writer_bind_line (stmt, c++, r->git_commit, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, c++, r->agent_version, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, c++, r->agent_mode, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, c++, r->selected_agent_id, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, c++, r->model, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_text (stmt, c++, r->models_json);
  sqlite3_bind_int64 (stmt, c++, MAX (r->created_at, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->updated_at, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->last_opened_at, 0));
  sqlite3_bind_int64 (stmt, c++, r->archived ? MAX (r->archived_at, 1) : 0);
  sqlite3_bind_int64 (stmt, c++, MAX (r->trashed_at, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->message_count, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->event_count, 0));
  loom_store_writer_bind_row (stmt, c++, folder_id);
  sqlite3_bind_int (stmt, c++, !!r->pinned);
  sqlite3_bind_int (stmt, c++, !!r->archived);
  loom_store_writer_bind_line (stmt, c++, r->session_type, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_row (stmt, c++, fork_id);
  loom_store_writer_bind_row (stmt, c++, parent_id);
  loom_store_writer_bind_line (stmt, c++, r->task_objective, TASK_OBJECTIVE_LIMIT);
  loom_store_writer_bind_line (stmt, c++, r->task_status, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_text (stmt, c++, r->tools_used_json);
  sqlite3_bind_int64 (stmt, c++, MAX (r->tokens_input, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->tokens_output, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->tokens_cache_read, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->tokens_cache_creation, 0));
  loom_store_writer_bind_count (stmt, c++, r->tokens_reasoning);
  sqlite3_bind_int64 (stmt, c++, MAX (r->n_user_messages, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->n_assistant_messages, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->n_tool_calls, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->n_tool_results, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->n_tool_errors, 0));
  sqlite3_bind_int64 (stmt, c++, MAX (r->n_reasoning, 0));
  g_assert (c - 1 == sqlite3_bind_parameter_count (stmt));
  return inserted (writer, stmt, "restore the session", error);
}

static gint64
find_message_at (LoomStoreWriter *writer,
                 gint64           session_id,
                 gint64           seq,
                 GError         **error)
{
  static const char sql[] =
    "SELECT id FROM messages WHERE session_id = ?1 AND seq = ?2 ORDER BY id LIMIT 1";
  sqlite3_stmt *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, seq);
  return loom_store_writer_step (writer, stmt, "link an event to its message", error);
}

gint64
loom_store_writer_restore_row (LoomStoreWriter    *writer,
                               gint64              session_id,
                               const LoomStoreRow *row,
                               GError            **error)
{
  static const char message_sql[] =
    "INSERT INTO messages (session_id, seq, role, flags, source_id, model, created_at, text,"
    "                      input_tokens, output_tokens, cache_read_tokens, cache_creation_tokens,"
    "                      reasoning_tokens)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
  static const char event_sql[] =
    "INSERT INTO events (session_id, seq, kind, message_id, call_id, tool_name, is_error, path,"
    "                    change_kind, source_id, created_at, text, payload, payload_size)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)";
  sqlite3_stmt *stmt;
  gint64        message_id = 0;

  g_return_val_if_fail (writer != NULL && row != NULL, 0);

  if (row->is_message)
    {
      if (!(stmt = loom_store_cached (writer->store, message_sql, error)))
        return 0;
      sqlite3_bind_int64 (stmt, 1, session_id);
      sqlite3_bind_int64 (stmt, 2, row->seq);
      loom_store_writer_bind_line (stmt, 3, row->role ? row->role : "user", LOOM_STORE_WORD_LIMIT);
      sqlite3_bind_int64 (stmt, 4, row->flags);
      loom_store_writer_bind_text (stmt, 5, row->source_id);
      loom_store_writer_bind_line (stmt, 6, row->model, LOOM_STORE_WORD_LIMIT);
      sqlite3_bind_int64 (stmt, 7, row->created_at);
      loom_store_writer_bind_text (stmt, 8, row->text ? row->text : "");
      loom_store_writer_bind_count (stmt, 9, row->input_tokens);
      loom_store_writer_bind_count (stmt, 10, row->output_tokens);
      loom_store_writer_bind_count (stmt, 11, row->cache_read_tokens);
      loom_store_writer_bind_count (stmt, 12, row->cache_creation_tokens);
      loom_store_writer_bind_count (stmt, 13, row->reasoning_tokens);
      return inserted (writer, stmt, "restore a message", error);
    }

  if (row->message_seq >= 0 &&
      (message_id = find_message_at (writer, session_id, row->message_seq, error)) < 0)
    return 0;
  if (!(stmt = loom_store_cached (writer->store, event_sql, error)))
    return 0;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, row->seq);
  loom_store_writer_bind_line (stmt, 3, row->kind ? row->kind : "raw", LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_row (stmt, 4, message_id);
  loom_store_writer_bind_text (stmt, 5, row->call_id);
  loom_store_writer_bind_line (stmt, 6, row->tool_name, LOOM_STORE_WORD_LIMIT);
  sqlite3_bind_int (stmt, 7, !!row->is_error);
  loom_store_writer_bind_path (stmt, 8, row->path);
  loom_store_writer_bind_line (stmt, 9, row->change_kind, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_text (stmt, 10, row->source_id);
  sqlite3_bind_int64 (stmt, 11, row->created_at);
  loom_store_writer_bind_event_text (stmt, 12, row->text);
  loom_store_writer_bind_text (stmt, 13, row->payload);
  /* The size the store counted, whatever the package claims: a reader sizes its buffer by it. */
  sqlite3_bind_int64 (stmt, 14, row->payload != NULL ? (gint64)strlen (row->payload) : 0);
  return inserted (writer, stmt, "restore an event", error);
}

gboolean
loom_store_writer_restore_summary (LoomStoreWriter        *writer,
                                   gint64                  session_id,
                                   const LoomStoreSummary *summary,
                                   GError                **error)
{
  static const char sql[] =
    "INSERT INTO summaries (session_id, kind, text, model, created_at) VALUES (?1, ?2, ?3, ?4, ?5)";
  sqlite3_stmt *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  loom_store_writer_bind_line (stmt, 2, summary->kind ? summary->kind : "summary",
                               LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_text (stmt, 3, summary->text ? summary->text : "");
  loom_store_writer_bind_line (stmt, 4, summary->model, LOOM_STORE_WORD_LIMIT);
  sqlite3_bind_int64 (stmt, 5, summary->created_at);
  return loom_store_writer_step (writer, stmt, "restore a summary", error) >= 0;
}
