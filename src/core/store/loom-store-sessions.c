/* loom-store-sessions.c — reading sessions and the operations a person does on them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-naming.h"
#include "loom-store-private.h"
#include "loom-time.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)

const char loom_store_session_select[] =
  "SELECT s.id, s.uuid, s.title, s.source, s.source_path, s.source_session_id,"
  "       s.source_missing, p.path, p.name, s.cwd, s.git_branch, s.git_commit,"
  "       s.agent_version, s.agent_mode, s.selected_agent_id, s.model, s.models,"
  "       s.created_at, s.updated_at, s.last_opened_at, s.archived_at, s.trashed_at,"
  "       s.message_count, s.event_count, ifnull (s.folder_id, 0), f.name, s.pinned,"
  "       s.archived, s.session_type, fs.uuid, ps.uuid, s.task_objective, s.task_status,"
  "       s.tools_used, s.tokens_input, s.tokens_output, s.tokens_cache_read,"
  "       s.tokens_cache_creation, s.n_user_messages, s.n_assistant_messages,"
  "       s.n_tool_calls, s.n_tool_results, s.n_tool_errors, s.n_reasoning,"
  "       ifnull (s.tokens_reasoning, -1), b.path, ifnull (b.written_at, 0)"
  "  FROM sessions s"
  "  LEFT JOIN projects p ON p.id = s.project_id"
  "  LEFT JOIN folders f ON f.id = s.folder_id"
  "  LEFT JOIN sessions fs ON fs.id = s.fork_source_session_id"
  "  LEFT JOIN sessions ps ON ps.id = s.parent_session_id"
  /* The latest backup only: one seek in backups_session per session, none without backups. */
  "  LEFT JOIN backups b ON b.id = (SELECT id FROM backups WHERE session_id = s.id"
  "                                  ORDER BY written_at DESC, id DESC LIMIT 1)";

static char *
column_strdup (sqlite3_stmt *stmt,
               int           column)
{
  return g_strdup ((const char *)sqlite3_column_text (stmt, column));
}

void
loom_store_read_record (sqlite3_stmt      *stmt,
                        LoomSessionRecord *r)
{
  int c = 0;

  r->id = sqlite3_column_int64 (stmt, c++);
  r->uuid = column_strdup (stmt, c++);
  r->title = column_strdup (stmt, c++);
  r->source = column_strdup (stmt, c++);
  r->source_path = column_strdup (stmt, c++);
  r->source_session_id = column_strdup (stmt, c++);
  r->source_missing = sqlite3_column_int (stmt, c++);
  r->project_path = column_strdup (stmt, c++);
  r->project_name = column_strdup (stmt, c++);
  r->cwd = column_strdup (stmt, c++);
  r->git_branch = column_strdup (stmt, c++);
  r->git_commit = column_strdup (stmt, c++);
  r->agent_version = column_strdup (stmt, c++);
  r->agent_mode = column_strdup (stmt, c++);
  r->selected_agent_id = column_strdup (stmt, c++);
  r->model = column_strdup (stmt, c++);
  r->models_json = column_strdup (stmt, c++);
  r->created_at = sqlite3_column_int64 (stmt, c++);
  r->updated_at = sqlite3_column_int64 (stmt, c++);
  r->last_opened_at = sqlite3_column_int64 (stmt, c++);
  r->archived_at = sqlite3_column_int64 (stmt, c++);
  r->trashed_at = sqlite3_column_int64 (stmt, c++);
  r->message_count = sqlite3_column_int64 (stmt, c++);
  r->event_count = sqlite3_column_int64 (stmt, c++);
  r->folder_id = sqlite3_column_int64 (stmt, c++);
  r->folder_name = column_strdup (stmt, c++);
  r->pinned = sqlite3_column_int (stmt, c++);
  r->archived = sqlite3_column_int (stmt, c++);
  r->session_type = column_strdup (stmt, c++);
  r->fork_source_uuid = column_strdup (stmt, c++);
  r->parent_uuid = column_strdup (stmt, c++);
  r->task_objective = column_strdup (stmt, c++);
  r->task_status = column_strdup (stmt, c++);
  r->tools_used_json = column_strdup (stmt, c++);
  r->tokens_input = sqlite3_column_int64 (stmt, c++);
  r->tokens_output = sqlite3_column_int64 (stmt, c++);
  r->tokens_cache_read = sqlite3_column_int64 (stmt, c++);
  r->tokens_cache_creation = sqlite3_column_int64 (stmt, c++);
  r->n_user_messages = sqlite3_column_int64 (stmt, c++);
  r->n_assistant_messages = sqlite3_column_int64 (stmt, c++);
  r->n_tool_calls = sqlite3_column_int64 (stmt, c++);
  r->n_tool_results = sqlite3_column_int64 (stmt, c++);
  r->n_tool_errors = sqlite3_column_int64 (stmt, c++);
  r->n_reasoning = sqlite3_column_int64 (stmt, c++);
  r->tokens_reasoning = sqlite3_column_int64 (stmt, c++);
  r->backup_path = column_strdup (stmt, c++);
  r->backup_at = sqlite3_column_int64 (stmt, c++);
}

static LoomSession *
session_from_row (sqlite3_stmt *stmt)
{
  LoomSessionRecord record = { 0 };
  LoomSession      *session;

  loom_store_read_record (stmt, &record);
  session = loom_session_new (&record);
  loom_session_record_clear (&record);
  return session;
}

GListModel *
loom_store_collect_sessions (LoomStore    *self,
                             sqlite3_stmt *stmt,
                             const char   *what,
                             GError      **error)
{
  g_autoptr (GListStore) sessions = g_list_store_new (LOOM_TYPE_SESSION);
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (LoomSession) session = session_from_row (stmt);

      g_list_store_append (sessions, session);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, what);
      return NULL;
    }
  return G_LIST_MODEL (g_steal_pointer (&sessions));
}

void
loom_store_append_session_filter (GString                *sql,
                                  const LoomSessionQuery *query,
                                  gboolean                join_projects)
{
  if (join_projects && query->project != NULL)
    g_string_append (sql, " JOIN projects p ON p.id = s.project_id");

  switch (query->collection)
    {
    case LOOM_COLLECTION_ALL:
      g_string_append (sql, " WHERE s.trashed_at = 0 AND s.archived = 0");
      break;

    case LOOM_COLLECTION_RECENT:
      g_string_append (sql, " WHERE s.trashed_at = 0 AND s.archived = 0"
                            " AND s.updated_at >= :now - 7 * :day");
      break;

    case LOOM_COLLECTION_ACTIVE:
      g_string_append (sql, " WHERE s.trashed_at = 0 AND s.archived = 0"
                            " AND s.updated_at >= :now - :day");
      break;

    case LOOM_COLLECTION_PINNED:
      g_string_append (sql, " WHERE s.trashed_at = 0 AND s.pinned = 1");
      break;

    case LOOM_COLLECTION_ARCHIVED:
      g_string_append (sql, " WHERE s.trashed_at = 0 AND s.archived = 1");
      break;

    case LOOM_COLLECTION_TRASH:
      /* Two ranges of the collection index rather than "!= 0", which SQLite answers by
       * reading the whole index: the sidebar counts the trash before the first frame. */
      g_string_append (sql, " WHERE (s.trashed_at > 0 OR s.trashed_at < 0)");
      break;

    case LOOM_COLLECTION_EVERYTHING:
    default:
      g_string_append (sql, " WHERE 1");
      break;
    }

  if (query->folder_id > 0)
    g_string_append (sql, " AND s.folder_id = :folder");
  if (query->source != NULL)
    g_string_append (sql, " AND s.source = :source");
  if (query->project != NULL)
    g_string_append (sql, " AND (p.name = :project OR p.path = :project)");
}

static void
bind_named_int64 (sqlite3_stmt *stmt,
                  const char   *name,
                  gint64        value)
{
  int index = sqlite3_bind_parameter_index (stmt, name);

  if (index > 0)
    sqlite3_bind_int64 (stmt, index, value);
}

static void
bind_named_text (sqlite3_stmt *stmt,
                 const char   *name,
                 const char   *value)
{
  int index = sqlite3_bind_parameter_index (stmt, name);

  if (index > 0)
    sqlite3_bind_text (stmt, index, value, -1, SQLITE_TRANSIENT);
}

void
loom_store_bind_session_query (sqlite3_stmt           *stmt,
                               const LoomSessionQuery *query)
{
  bind_named_int64 (stmt, ":now", loom_time_now_ms ());
  bind_named_int64 (stmt, ":day", DAY_MS);
  bind_named_int64 (stmt, ":folder", query->folder_id);
  bind_named_text (stmt, ":source", query->source);
  bind_named_text (stmt, ":project", query->project);
}

void
loom_store_append_session_order (GString                *sql,
                                 const LoomSessionQuery *query)
{
  const char *direction;

  switch (query->sort)
    {
    case LOOM_SORT_TITLE:
      direction = query->ascending ? "DESC" : "ASC";
      g_string_append_printf (sql, " ORDER BY s.title COLLATE NOCASE %s, s.id %s", direction,
                              direction);
      break;

    case LOOM_SORT_CREATED:
      direction = query->ascending ? "ASC" : "DESC";
      g_string_append_printf (sql, " ORDER BY s.created_at %s, s.id %s", direction, direction);
      break;

    case LOOM_SORT_UPDATED:
    default:
      direction = query->ascending ? "ASC" : "DESC";
      g_string_append_printf (sql, " ORDER BY s.updated_at %s, s.id %s", direction, direction);
      break;
    }
}

GListModel *
loom_store_list_sessions (LoomStore              *self,
                          const LoomSessionQuery *query,
                          GError                **error)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListStore) sessions = NULL;
  g_autoptr (GString) sql = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (query == NULL)
    query = &default_query;

  /* The select joins projects already. */
  sql = g_string_new (loom_store_session_select);
  loom_store_append_session_filter (sql, query, FALSE);

  loom_store_append_session_order (sql, query);

  g_string_append_printf (sql, " LIMIT %d OFFSET %u",
                          query->limit > 0 ? (int)MIN (query->limit, G_MAXINT) : -1, query->offset);

  if (!(stmt = loom_store_prepare (self, sql->str, error)))
    return NULL;
  loom_store_bind_session_query (stmt, query);

  sessions = g_list_store_new (LOOM_TYPE_SESSION);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (LoomSession) session = session_from_row (stmt);
      g_list_store_append (sessions, session);
    }

  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "list sessions");
      return NULL;
    }

  return G_LIST_MODEL (g_steal_pointer (&sessions));
}

gboolean
loom_store_has_sessions (LoomStore *self,
                         gboolean  *has_sessions,
                         GError   **error)
{
  static const char sql[] = "SELECT EXISTS (SELECT 1 FROM sessions)";
  sqlite3_stmt     *stmt;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (has_sessions != NULL, FALSE);

  if (!(stmt = loom_store_cached (self, sql, error)))
    return FALSE;
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      loom_store_set_error (self, error, "look for sessions");
      sqlite3_reset (stmt);
      return FALSE;
    }
  *has_sessions = sqlite3_column_int (stmt, 0) != 0;
  sqlite3_reset (stmt);
  return TRUE;
}

gboolean
loom_store_count_sessions (LoomStore              *self,
                           const LoomSessionQuery *query,
                           guint                  *n_sessions,
                           GError                **error)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GString) sql = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (n_sessions != NULL, FALSE);

  if (query == NULL)
    query = &default_query;

  /* The join only when a project filter needs it: counting is what the sidebar does on every
   * change, and the join makes SQLite walk every session. */
  sql = g_string_new ("SELECT count(*) FROM sessions s");
  loom_store_append_session_filter (sql, query, TRUE);

  if (!(stmt = loom_store_prepare (self, sql->str, error)))
    return FALSE;
  loom_store_bind_session_query (stmt, query);

  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      loom_store_set_error (self, error, "count sessions");
      return FALSE;
    }

  *n_sessions = (guint)sqlite3_column_int64 (stmt, 0);
  return TRUE;
}

/* Looks for a uuid, then an agent's own session id, then a uuid prefix, so that people can
 * paste whichever id they have at hand. */
/* Collects up to two row ids that @sql (with ?1 = @id) yields; 0, 1 or 2 tell none, one, many. */
static guint
find_ids (LoomStore  *self,
          const char *sql,
          const char *id,
          gint64     *rowid,
          GError    **error)
{
  /* An export, a search's filters and the CLI resolve ids over and over: the few lookups are
   * compiled once. */
  g_autoptr (LoomStoreBorrowed) stmt = NULL;
  guint n = 0;
  int   rc;

  if (!(stmt = loom_store_cached (self, sql, error)))
    return G_MAXUINT;
  sqlite3_bind_text (stmt, 1, id, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      *rowid = sqlite3_column_int64 (stmt, 0);
      n++;
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "find the session");
      return G_MAXUINT;
    }
  return n;
}

/* Looks for a uuid, then an agent's own session id, then a uuid prefix, so that people can
 * paste whichever id they have at hand. */
gint64
loom_store_resolve_session (LoomStore  *self,
                            const char *id,
                            GError    **error)
{
  static const char *const lookups[] = {
    "SELECT id FROM sessions WHERE uuid = ?1",
    "SELECT id FROM sessions WHERE source_session_id = ?1 LIMIT 2",
    "SELECT id FROM sessions WHERE uuid >= ?1 AND uuid < ?1 || char (1114111) LIMIT 2",
  };
  gint64 rowid = 0;

  if (id == NULL || *id == '\0')
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT, "No session id given");
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (lookups); i++)
    {
      guint n;

      /* A prefix must be long enough to mean something. */
      if (i == 2 && strlen (id) < 4)
        break;

      n = find_ids (self, lookups[i], id, &rowid, error);
      if (n == G_MAXUINT)
        return 0;
      if (n == 1)
        return rowid;
      if (n > 1)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_AMBIGUOUS,
                       "More than one session matches “%s”; give more of its id", id);
          return 0;
        }
    }

  g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No session with id “%s”", id);
  return 0;
}

LoomSession *
loom_store_load_session (LoomStore *self,
                         gint64     rowid,
                         GError   **error)
{
  g_autofree char *sql = g_strconcat (loom_store_session_select, " WHERE s.id = ?", NULL);
  g_autoptr (LoomStoreBorrowed) stmt = NULL;

  if (!(stmt = loom_store_cached_built (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, rowid);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No session with row %" G_GINT64_FORMAT,
                   rowid);
      return NULL;
    }
  return session_from_row (stmt);
}

LoomSession *
loom_store_get_session (LoomStore  *self,
                        const char *id,
                        GError    **error)
{
  gint64 rowid;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(rowid = loom_store_resolve_session (self, id, error)))
    return NULL;
  return loom_store_load_session (self, rowid, error);
}

/* Runs one UPDATE on one session given by a person's id. The statement's ?1 is the row id and
 * ?2, when present, is @text or else @value. */
static gboolean
update_session (LoomStore  *self,
                const char *id,
                const char *sql,
                const char *doing,
                gint64      value,
                const char *text,
                GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 rowid;

  if (!(rowid = loom_store_resolve_session (self, id, error)))
    return FALSE;
  if (!(stmt = loom_store_prepare (self, sql, error)))
    return FALSE;

  sqlite3_bind_int64 (stmt, 1, rowid);
  if (sqlite3_bind_parameter_count (stmt) >= 2)
    {
      if (text != NULL)
        sqlite3_bind_text (stmt, 2, text, -1, SQLITE_TRANSIENT);
      else
        sqlite3_bind_int64 (stmt, 2, value);
    }

  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, doing);
      return FALSE;
    }
  return loom_store_flush_noted (self, error); /* a new title */
}

gboolean
loom_store_rename_session (LoomStore  *self,
                           const char *id,
                           const char *title,
                           GError    **error)
{
  g_autofree char *trimmed = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (title != NULL, FALSE);

  /* One line of a sane length, whatever was pasted (loom_naming_bound_line()). */
  if (g_utf8_validate (title, -1, NULL))
    trimmed = loom_naming_bound_line (title, LOOM_NAMING_TITLE_LIMIT);
  if (trimmed == NULL)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "A session title cannot be empty");
      return FALSE;
    }

  return update_session (self, id, "UPDATE sessions SET title = ?2, title_locked = 1 WHERE id = ?1",
                         "rename the session", 0, trimmed, error);
}

gboolean
loom_store_set_pinned (LoomStore  *self,
                       const char *id,
                       gboolean    pinned,
                       GError    **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  return update_session (self, id, "UPDATE sessions SET pinned = ?2 WHERE id = ?1",
                         "pin the session", !!pinned, NULL, error);
}

gboolean
loom_store_set_archived (LoomStore  *self,
                         const char *id,
                         gboolean    archived,
                         GError    **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  return update_session (self, id,
                         "UPDATE sessions SET archived = ?2 != 0, archived_at = ?2 WHERE id = ?1",
                         "archive the session", archived ? loom_time_now_ms () : 0, NULL, error);
}

gboolean
loom_store_set_trashed (LoomStore  *self,
                        const char *id,
                        gboolean    trashed,
                        GError    **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  return update_session (self, id, "UPDATE sessions SET trashed_at = ?2 WHERE id = ?1",
                         "move the session to the trash", trashed ? loom_time_now_ms () : 0, NULL,
                         error);
}

gboolean
loom_store_mark_opened (LoomStore  *self,
                        const char *id,
                        GError    **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  return update_session (self, id, "UPDATE sessions SET last_opened_at = ?2 WHERE id = ?1",
                         "mark the session opened", loom_time_now_ms (), NULL, error);
}

gboolean
loom_store_move_session (LoomStore  *self,
                         const char *id,
                         gint64      folder_id,
                         GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (folder_id >= 0, FALSE);

  if (folder_id > 0)
    {
      if (!(stmt = loom_store_prepare (self, "SELECT 1 FROM folders WHERE id = ?", error)))
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, folder_id);
      if (sqlite3_step (stmt) != SQLITE_ROW)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                       "No folder with id %" G_GINT64_FORMAT, folder_id);
          return FALSE;
        }
      /* A statement left stepping holds its read transaction open, and SQLite does not wait
       * for the write lock on behalf of a connection that reads: the move failed at once while
       * an import wrote. */
      g_clear_pointer (&stmt, sqlite3_finalize);
    }

  return update_session (self, id, "UPDATE sessions SET folder_id = nullif (?2, 0) WHERE id = ?1",
                         "move the session", folder_id, NULL, error);
}
