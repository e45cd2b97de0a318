/* loom-store-writer-sessions.c — the sessions an import writes, linked to their projects and
 * parents, and re-keyed when their agent's own id comes to light.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-naming.h"
#include "loom-store-writer-private.h"

/* What a task set out to do: a paragraph, shown on a few lines. */
#define TASK_OBJECTIVE_LIMIT 2000

static gboolean
is_tombstoned (LoomStoreWriter *writer,
               const char      *source,
               const char      *source_session_id,
               GError         **error)
{
  static const char sql[] = "SELECT 1 FROM tombstones WHERE source = ?1 AND source_session_id = ?2";
  sqlite3_stmt     *stmt = loom_store_cached (writer->store, sql, error);

  if (stmt == NULL)
    return FALSE;
  loom_store_writer_bind_text (stmt, 1, source);
  loom_store_writer_bind_text (stmt, 2, source_session_id);
  return loom_store_writer_step (writer, stmt, "check deleted sessions", error) > 0;
}

/* The session's row id, 0 when there is none, -1 on an error; and when asked, the project and
 * the parent it links to (0 for none). */
static gint64
find_session (LoomStoreWriter *writer,
              const char      *source,
              const char      *source_session_id,
              gint64          *project_id,
              gint64          *parent_id,
              GError         **error)
{
  static const char sql[] =
    "SELECT id, ifnull (project_id, 0), ifnull (parent_session_id, 0) FROM sessions"
    " WHERE source = ?1 AND source_session_id = ?2";
  sqlite3_stmt *stmt = loom_store_cached (writer->store, sql, error);
  gint64        id = 0;
  int           rc;

  if (stmt == NULL)
    return -1;
  loom_store_writer_bind_text (stmt, 1, source);
  loom_store_writer_bind_text (stmt, 2, source_session_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      id = sqlite3_column_int64 (stmt, 0);
      if (project_id != NULL)
        *project_id = sqlite3_column_int64 (stmt, 1);
      if (parent_id != NULL)
        *parent_id = sqlite3_column_int64 (stmt, 2);
    }
  else if (rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "find the session");
      id = -1;
    }
  sqlite3_reset (stmt);
  return id;
}

/* A new session, linked to its project and parent when they are known (> 0): an INSERT of one
 * row sets foreign keys without the statement journal an UPDATE needs for them. */
static gint64
create_session (LoomStoreWriter *writer,
                const char      *source,
                const char      *source_session_id,
                gint64           project_id,
                gint64           parent_id,
                guint           *n_created,
                GError         **error)
{
  static const char sql[] =
    "INSERT INTO sessions (uuid, source, source_session_id, project_id, parent_session_id)"
    " VALUES (?1, ?2, ?3, ?4, ?5)";
  g_autofree char *uuid = g_uuid_string_random ();
  sqlite3_stmt    *stmt = loom_store_cached (writer->store, sql, error);
  gint64           id;

  if (stmt == NULL)
    return -1;
  loom_store_writer_bind_text (stmt, 1, uuid);
  loom_store_writer_bind_text (stmt, 2, source);
  loom_store_writer_bind_text (stmt, 3, source_session_id);
  loom_store_writer_bind_row (stmt, 4, project_id);
  loom_store_writer_bind_row (stmt, 5, parent_id);
  id = loom_store_writer_step_inserting (writer, stmt, "add the session", error);
  /* Counted here, so that a placeholder parent (a sub-agent's file read before its parent's)
   * is new once, and not its parent's file, which finds it there. */
  if (id > 0)
    (*n_created)++;
  return id;
}

static gint64
ensure_project (LoomStoreWriter *writer,
                const char      *path,
                gint64           created_at,
                GError         **error)
{
  static const char find_sql[] = "SELECT id FROM projects WHERE path = ?1";
  static const char add_sql[] = "INSERT INTO projects (path, name, created_at) VALUES (?1, ?2, ?3)";
  /* A project began with its earliest session, whichever file is read first. */
  static const char earlier_sql[] =
    "UPDATE projects SET created_at = ?2 WHERE id = ?1 AND (created_at = 0 OR ?2 < created_at)";
  g_autofree char *name = NULL;
  sqlite3_stmt    *stmt;
  gint64           id;

  if (path == NULL || *path == '\0')
    return 0;
  if (!(stmt = loom_store_cached (writer->store, find_sql, error)))
    return -1;
  loom_store_writer_bind_text (stmt, 1, path);
  if ((id = loom_store_writer_step (writer, stmt, "find the project", error)) != 0)
    {
      if (id < 0 || created_at <= 0)
        return id;
      if (!(stmt = loom_store_cached (writer->store, earlier_sql, error)))
        return -1;
      sqlite3_bind_int64 (stmt, 1, id);
      sqlite3_bind_int64 (stmt, 2, created_at);
      return loom_store_writer_step (writer, stmt, "date the project", error) < 0 ? -1 : id;
    }
  if (!(stmt = loom_store_cached (writer->store, add_sql, error)))
    return -1;
  name = g_path_get_basename (path);
  loom_store_writer_bind_text (stmt, 1, path);
  loom_store_writer_bind_text (stmt, 2, name);
  sqlite3_bind_int64 (stmt, 3, created_at);
  return loom_store_writer_step_inserting (writer, stmt, "record the project", error);
}

/* The parent's row id (a placeholder until its own file is imported), 0 for none, -1 on an
 * error, -2 when the person deleted the parent for good. */
#define PARENT_DELETED (-2)

static gint64
ensure_parent (LoomStoreWriter *writer,
               const char      *source,
               const char      *parent_source_id,
               guint           *n_created,
               GError         **error)
{
  gint64 parent;

  if (parent_source_id == NULL)
    return 0;
  /* The person deleted the parent for good: its sub-agents must not bring it back. */
  if (is_tombstoned (writer, source, parent_source_id, error))
    return PARENT_DELETED;
  parent = find_session (writer, source, parent_source_id, NULL, NULL, error);
  if (parent == 0)
    {
      static const char name_sql[] = "UPDATE sessions SET title = ?2 WHERE id = ?1";
      g_autofree char  *title = NULL;
      sqlite3_stmt     *stmt;

      /* A placeholder until the parent's own file is imported, which names it properly. */
      parent = create_session (writer, source, parent_source_id, 0, 0, n_created, error);
      if (parent <= 0 || !(stmt = loom_store_cached (writer->store, name_sql, error)))
        return -1;
      title = g_strdup_printf ("Session %s (not imported yet)", parent_source_id);
      sqlite3_bind_int64 (stmt, 1, parent);
      loom_store_writer_bind_text (stmt, 2, title);
      if (loom_store_writer_step (writer, stmt, "name the parent session", error) < 0)
        return -1;
    }
  return parent;
}

/* The rows of (@source, @old_id) and of its children "@old_id/…" re-keyed to @new_id: see
 * loom_import_file_rekey () (loom-importer.h). SQL matches a child by its prefix with
 * substr (), not LIKE, whose wildcards an id may hold. */
#define OF_OLD_ID \
  " source = ?1 AND (source_session_id = ?2 OR" \
  "  substr (source_session_id, 1, length (?2) + 1) = ?2 || '/')"
#define NEW_ID "?3 || substr (sessions.source_session_id, length (?2) + 1)"

gboolean
loom_store_writer_rekey_session (LoomStoreWriter *writer,
                                 const char      *source,
                                 const char      *old_id,
                                 const char      *new_id,
                                 const char      *path,
                                 GError         **error)
{
  static const char find_sql[] =
    "SELECT id, source_path IS ?4 FROM sessions WHERE source = ?1 AND source_session_id = ?2";
  /* A sub-agent's file read first made its parent a placeholder under the new id: its
   * children go to the real row, which takes the id. */
  static const char adopt_sql[] =
    "UPDATE sessions SET parent_session_id = ?2 WHERE parent_session_id = ?1";
  static const char drop_sql[] = "DELETE FROM sessions WHERE id = ?1";
  static const char rename_sql[] = "UPDATE sessions SET source_session_id = " NEW_ID
                                   " WHERE" OF_OLD_ID " AND source_path IS ?4"
                                   "  AND NOT EXISTS (SELECT 1 FROM sessions t WHERE t.source = ?1"
                                   "                  AND t.source_session_id = " NEW_ID ")";
  /* Deleted for good under the old id is deleted under the new one. */
  static const char tombstones_sql[] =
    "INSERT OR IGNORE INTO tombstones (source, source_session_id, deleted_at)"
    " SELECT source, ?3 || substr (source_session_id, length (?2) + 1), deleted_at"
    " FROM tombstones WHERE" OF_OLD_ID;
  gint64        old_row = 0, new_row = 0;
  gboolean      old_ours = FALSE, new_placeholder = FALSE;
  sqlite3_stmt *stmt;

  if (g_strcmp0 (old_id, new_id) == 0)
    return TRUE;

  for (guint i = 0; i < 2; i++)
    {
      if (!(stmt = loom_store_cached (writer->store, find_sql, error)))
        return FALSE;
      loom_store_writer_bind_text (stmt, 1, source);
      loom_store_writer_bind_text (stmt, 2, i == 0 ? old_id : new_id);
      loom_store_writer_bind_text (stmt, 4, i == 0 ? path : NULL);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        {
          *(i == 0 ? &old_row : &new_row) = sqlite3_column_int64 (stmt, 0);
          *(i == 0 ? &old_ours : &new_placeholder) = sqlite3_column_int (stmt, 1);
        }
      sqlite3_reset (stmt);
    }

  /* Only what this file made is re-keyed: an old id some other file holds stays its. */
  if (old_row > 0 && !old_ours)
    old_row = 0;
  /* Both ids are real sessions: the file keeps the one it had, and nothing merges. */
  if (old_row > 0 && new_row > 0 && !new_placeholder)
    return FALSE;

  if (old_row > 0 && new_row > 0)
    {
      if (!(stmt = loom_store_cached (writer->store, adopt_sql, error)))
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, new_row);
      sqlite3_bind_int64 (stmt, 2, old_row);
      if (loom_store_writer_step (writer, stmt, "adopt a placeholder's sub-agents", error) < 0 ||
          !(stmt = loom_store_cached (writer->store, drop_sql, error)))
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, new_row);
      if (loom_store_writer_step (writer, stmt, "drop a placeholder session", error) < 0)
        return FALSE;
    }

  for (guint i = 0; i < 2; i++)
    {
      if (!(stmt = loom_store_cached (writer->store, i == 0 ? rename_sql : tombstones_sql, error)))
        return FALSE;
      loom_store_writer_bind_text (stmt, 1, source);
      loom_store_writer_bind_text (stmt, 2, old_id);
      loom_store_writer_bind_text (stmt, 3, new_id);
      if (i == 0)
        loom_store_writer_bind_text (stmt, 4, path);
      if (loom_store_writer_step (writer, stmt, "give a session its agent's id", error) < 0)
        return FALSE;
    }
  return TRUE;
}

/* What loom_store_writer_upsert_session () sets, but for the links to the project and the
 * parent. */
#define SESSION_METADATA \
  "UPDATE sessions SET" \
  "  source_path = coalesce (?2, source_path), source_missing = 0," \
  "  agent_title = coalesce (?3, agent_title)," \
  "  cwd = coalesce (?5, cwd), git_branch = coalesce (?6, git_branch)," \
  "  git_commit = coalesce (?7, git_commit), agent_version = coalesce (?8, agent_version)," \
  "  agent_mode = coalesce (?9, agent_mode)," \
  "  selected_agent_id = coalesce (?10, selected_agent_id)," \
  "  session_type = coalesce (?11, session_type)," \
  "  task_objective = coalesce (?13, task_objective)," \
  "  task_status = coalesce (?14, task_status)," \
  "  created_at = CASE WHEN ?15 > 0 AND (created_at = 0 OR ?15 < created_at) THEN ?15" \
  "               ELSE created_at END," \
  "  updated_at = max (updated_at, ?16)"

gint64
loom_store_writer_upsert_session (LoomStoreWriter         *writer,
                                  const LoomSessionRecord *meta,
                                  const char              *source,
                                  const char              *path,
                                  guint                   *n_created,
                                  GError                 **error)
{
  /* The project and the parent are foreign keys, set only when they change: an UPDATE that
   * sets a foreign key may fail after changing the row, so SQLite first copies every page it
   * changes to a statement journal. Most calls bring the links the session already has. */
  static const char sql[] = SESSION_METADATA " WHERE id = ?1";
  static const char linking_sql[] = SESSION_METADATA
    ", project_id = coalesce (?4, project_id),"
    "  parent_session_id = coalesce (?12, parent_session_id)"
    " WHERE id = ?1";
  g_autofree char *project_path = loom_naming_bound_path (
    meta->project_path ? meta->project_path : meta->cwd, LOOM_NAMING_PATH_LIMIT);
  sqlite3_stmt *stmt;
  gint64        id, project_id, parent_id;
  gint64        linked_project = 0, linked_parent = 0;

  if (is_tombstoned (writer, source, meta->source_session_id, error))
    return 0;
  if (error != NULL && *error != NULL)
    return 0;

  /* The parent first: a sub-agent of a session deleted for good is not imported either. */
  parent_id = ensure_parent (writer, source, meta->parent_uuid, n_created, error);
  if (parent_id < 0) /* an error, or PARENT_DELETED */
    return 0;

  project_id = ensure_project (writer, project_path, meta->created_at, error);
  if (project_id < 0)
    return 0;

  id = find_session (writer, source, meta->source_session_id, &linked_project, &linked_parent,
                     error);
  if (id == 0)
    {
      id = create_session (writer, source, meta->source_session_id, project_id, parent_id,
                           n_created, error);
      linked_project = project_id;
      linked_parent = parent_id;
    }
  if (id <= 0)
    return 0;

  stmt = loom_store_cached (writer->store,
                            (project_id > 0 && project_id != linked_project) ||
                                (parent_id > 0 && parent_id != linked_parent)
                              ? linking_sql
                              : sql,
                            error);
  if (stmt == NULL)
    return 0;

  sqlite3_bind_int64 (stmt, 1, id);
  loom_store_writer_bind_text (stmt, 2, meta->source_path ? meta->source_path : path);
  loom_store_writer_bind_line (stmt, 3, meta->title, LOOM_NAMING_TITLE_LIMIT);
  loom_store_writer_bind_row (stmt, 4, project_id);
  loom_store_writer_bind_path (stmt, 5, meta->cwd);
  loom_store_writer_bind_line (stmt, 6, meta->git_branch, LOOM_NAMING_TITLE_LIMIT);
  loom_store_writer_bind_line (stmt, 7, meta->git_commit, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, 8, meta->agent_version, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, 9, meta->agent_mode, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, 10, meta->selected_agent_id, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_line (stmt, 11, meta->session_type, LOOM_STORE_WORD_LIMIT);
  loom_store_writer_bind_row (stmt, 12, parent_id);
  loom_store_writer_bind_line (stmt, 13, meta->task_objective, TASK_OBJECTIVE_LIMIT);
  loom_store_writer_bind_line (stmt, 14, meta->task_status, LOOM_STORE_WORD_LIMIT);
  sqlite3_bind_int64 (stmt, 15, meta->created_at);
  sqlite3_bind_int64 (stmt, 16, meta->updated_at);
  if (loom_store_writer_step (writer, stmt, "update the session", error) < 0)
    return 0;
  return id;
}
