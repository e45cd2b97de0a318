/* loom-store-write.c — adding imported sessions, messages and events.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-store-private.h"
#include "loom-time.h"

/* Returns the project's row id, creating it on first sight; 0 when there is no project. */
static gint64
ensure_project (LoomStore  *self,
                const char *path,
                const char *name,
                gint64      created_at,
                GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *basename = NULL;

  if (path == NULL || *path == '\0')
    return 0;

  if (name == NULL || *name == '\0')
    name = basename = g_path_get_basename (path);

  stmt = loom_store_prepare (self,
                             "INSERT INTO projects (path, name, created_at) VALUES (?1, ?2, ?3)"
                             " ON CONFLICT (path) DO UPDATE SET path = excluded.path"
                             " RETURNING id",
                             error);
  if (stmt == NULL)
    return -1;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, name, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 3, created_at);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      loom_store_set_error (self, error, "record the project");
      return -1;
    }
  return sqlite3_column_int64 (stmt, 0);
}

/* A parent or fork source given by uuid must already be stored. */
static gboolean
resolve_optional (LoomStore  *self,
                  const char *uuid,
                  gint64     *rowid,
                  GError    **error)
{
  *rowid = 0;
  if (uuid == NULL)
    return TRUE;
  *rowid = loom_store_resolve_session (self, uuid, error);
  return *rowid != 0;
}

static void
bind_text_or_null (sqlite3_stmt *stmt,
                   int           index,
                   const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, index);
}

static void
bind_rowid_or_null (sqlite3_stmt *stmt,
                    int           index,
                    gint64        rowid)
{
  if (rowid > 0)
    sqlite3_bind_int64 (stmt, index, rowid);
  else
    sqlite3_bind_null (stmt, index);
}

gboolean
loom_store_insert_session (LoomStore         *self,
                           LoomSessionRecord *r,
                           GError           **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 project_id, parent_id, fork_id;
  int    c = 1;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (r->source != NULL, FALSE);

  if (r->uuid == NULL)
    r->uuid = g_uuid_string_random ();
  if (r->created_at == 0)
    r->created_at = loom_time_now_ms ();
  if (r->updated_at == 0)
    r->updated_at = r->created_at;

  /* Its title is indexed in bulk before the commit, as an import's sessions are. */
  if (!loom_store_begin_indexed (self, error))
    return FALSE;
  if (!resolve_optional (self, r->parent_uuid, &parent_id, error) ||
      !resolve_optional (self, r->fork_source_uuid, &fork_id, error))
    goto fail;
  project_id = ensure_project (self, r->project_path, r->project_name, r->created_at, error);
  if (project_id < 0)
    goto fail;

  stmt = loom_store_prepare (
    self,
    "INSERT INTO sessions (uuid, title, source, source_path, source_session_id, source_missing,"
    "  project_id, cwd, git_branch, git_commit, agent_version, agent_mode, selected_agent_id,"
    "  model, models, created_at, updated_at, last_opened_at, archived_at, trashed_at,"
    "  message_count, event_count, folder_id, pinned, archived, session_type,"
    "  fork_source_session_id, parent_session_id, task_objective, task_status, tools_used,"
    "  tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation,"
    "  n_user_messages, n_assistant_messages, n_tool_calls, n_tool_results, n_tool_errors,"
    "  n_reasoning, tokens_reasoning)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ifnull (?, '[]'), ?, ?, ?, ?, ?, ?, ?,"
    "  ?, ?, ?, ifnull (?, 'main'), ?, ?, ?, ?, ifnull (?, '{}'), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
    "  ?)",
    error);
  if (stmt == NULL)
    goto fail;

  bind_text_or_null (stmt, c++, r->uuid);
  bind_text_or_null (stmt, c++, r->title ? r->title : "");
  bind_text_or_null (stmt, c++, r->source);
  bind_text_or_null (stmt, c++, r->source_path);
  bind_text_or_null (stmt, c++, r->source_session_id);
  sqlite3_bind_int (stmt, c++, !!r->source_missing);
  bind_rowid_or_null (stmt, c++, project_id);
  bind_text_or_null (stmt, c++, r->cwd);
  bind_text_or_null (stmt, c++, r->git_branch);
  bind_text_or_null (stmt, c++, r->git_commit);
  bind_text_or_null (stmt, c++, r->agent_version);
  bind_text_or_null (stmt, c++, r->agent_mode);
  bind_text_or_null (stmt, c++, r->selected_agent_id);
  bind_text_or_null (stmt, c++, r->model);
  bind_text_or_null (stmt, c++, r->models_json);
  sqlite3_bind_int64 (stmt, c++, r->created_at);
  sqlite3_bind_int64 (stmt, c++, r->updated_at);
  sqlite3_bind_int64 (stmt, c++, r->last_opened_at);
  sqlite3_bind_int64 (stmt, c++, r->archived ? MAX (r->archived_at, 1) : 0);
  sqlite3_bind_int64 (stmt, c++, r->trashed_at);
  sqlite3_bind_int64 (stmt, c++, r->message_count);
  sqlite3_bind_int64 (stmt, c++, r->event_count);
  bind_rowid_or_null (stmt, c++, r->folder_id);
  sqlite3_bind_int (stmt, c++, !!r->pinned);
  sqlite3_bind_int (stmt, c++, !!r->archived);
  bind_text_or_null (stmt, c++, r->session_type);
  bind_rowid_or_null (stmt, c++, fork_id);
  bind_rowid_or_null (stmt, c++, parent_id);
  bind_text_or_null (stmt, c++, r->task_objective);
  bind_text_or_null (stmt, c++, r->task_status);
  bind_text_or_null (stmt, c++, r->tools_used_json);
  sqlite3_bind_int64 (stmt, c++, r->tokens_input);
  sqlite3_bind_int64 (stmt, c++, r->tokens_output);
  sqlite3_bind_int64 (stmt, c++, r->tokens_cache_read);
  sqlite3_bind_int64 (stmt, c++, r->tokens_cache_creation);
  sqlite3_bind_int64 (stmt, c++, r->n_user_messages);
  sqlite3_bind_int64 (stmt, c++, r->n_assistant_messages);
  sqlite3_bind_int64 (stmt, c++, r->n_tool_calls);
  sqlite3_bind_int64 (stmt, c++, r->n_tool_results);
  sqlite3_bind_int64 (stmt, c++, r->n_tool_errors);
  sqlite3_bind_int64 (stmt, c++, r->n_reasoning);
  if (r->tokens_reasoning >= 0)
    sqlite3_bind_int64 (stmt, c++, r->tokens_reasoning);
  else
    sqlite3_bind_null (stmt, c++);
  g_assert (c - 1 == sqlite3_bind_parameter_count (stmt));

  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "add the session");
      goto fail;
    }

  r->id = sqlite3_last_insert_rowid (self->db);
  return loom_store_commit_indexed (self, error);

fail:
  loom_store_rollback (self);
  return FALSE;
}

/* The next position in the session's timeline, shared by messages and events. */
#define NEXT_SEQ \
  "(SELECT ifnull (max (seq), 0) + 1 FROM" \
  " (SELECT seq FROM messages WHERE session_id = ?1" \
  "  UNION ALL SELECT seq FROM events WHERE session_id = ?1))"

gint64
loom_store_add_message (LoomStore  *self,
                        gint64      session_id,
                        const char *role,
                        const char *text,
                        gint64      created_at,
                        GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 id;

  g_return_val_if_fail (LOOM_IS_STORE (self), 0);
  g_return_val_if_fail (role != NULL, 0);

  if (!loom_store_begin_indexed (self, error))
    return 0;

  stmt = loom_store_prepare (self,
                             "INSERT INTO messages (session_id, seq, role, text, created_at)"
                             " VALUES (?1, " NEXT_SEQ ", ?2, ?3, ?4)",
                             error);
  if (stmt == NULL)
    goto fail;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_text (stmt, 2, role, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, text ? text : "", -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 4, created_at);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "add a message");
      goto fail;
    }
  id = sqlite3_last_insert_rowid (self->db);

  if (!loom_store_exec (self,
                        "UPDATE sessions SET message_count = message_count + 1"
                        " WHERE id = (SELECT session_id FROM messages"
                        "             WHERE id = last_insert_rowid ())",
                        error))
    goto fail;

  return loom_store_commit_indexed (self, error) ? id : 0;

fail:
  loom_store_rollback (self);
  return 0;
}

gint64
loom_store_add_event (LoomStore  *self,
                      gint64      session_id,
                      const char *kind,
                      const char *tool_name,
                      const char *payload,
                      gint64      created_at,
                      GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 id;

  g_return_val_if_fail (LOOM_IS_STORE (self), 0);
  g_return_val_if_fail (kind != NULL, 0);

  if (!loom_store_begin_indexed (self, error))
    return 0;

  stmt = loom_store_prepare (self,
                             "INSERT INTO events (session_id, seq, kind, tool_name, text, payload,"
                             "                    payload_size, created_at)"
                             " VALUES (?1, " NEXT_SEQ
                             ", ?2, ?3, substr (ifnull (?4, ''), 1, 65536),"
                             "         ?4, length (CAST (?4 AS BLOB)), ?5)",
                             error);
  if (stmt == NULL)
    goto fail;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_text (stmt, 2, kind, -1, SQLITE_STATIC);
  bind_text_or_null (stmt, 3, tool_name);
  bind_text_or_null (stmt, 4, payload);
  sqlite3_bind_int64 (stmt, 5, created_at);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "add an event");
      goto fail;
    }
  id = sqlite3_last_insert_rowid (self->db);

  if (!loom_store_exec (self,
                        "UPDATE sessions SET event_count = event_count + 1"
                        " WHERE id = (SELECT session_id FROM events"
                        "             WHERE id = last_insert_rowid ())",
                        error))
    goto fail;

  return loom_store_commit_indexed (self, error) ? id : 0;

fail:
  loom_store_rollback (self);
  return 0;
}
