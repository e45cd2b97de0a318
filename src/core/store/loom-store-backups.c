/* loom-store-backups.c — the backups a sweep or the keeper wrote, and the sessions they take.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-store-backups.h"
#include "loom-store-private.h"
#include "loom-time.h"

/* The session and its sub-agents' sessions, at every depth: they are in its package. */
#define SESSION_TREE \
  "WITH RECURSIVE tree (id) AS (" \
  "  SELECT ?1" \
  "  UNION SELECT s.id FROM sessions s JOIN tree ON s.parent_session_id = tree.id" \
  ") "

gboolean
loom_store_archive_with_backup (LoomStore  *self,
                                const char *id,
                                const char *backup_path,
                                const char *key_id,
                                GError    **error)
{
  /* The sub-agents go with their session: they were backed up in its package (their own
   * folders in subagents/), and a sweep never takes them on their own, so left behind they
   * would stay among the active sessions for good. Each gets the package's path as its
   * backup, so that every session a sweep archived tells where its backup is. */
  static const char archive_sql[] = SESSION_TREE
    "UPDATE sessions SET archived = 1, archived_at = ?2"
    " WHERE id IN (SELECT id FROM tree) AND archived = 0";
  static const char record_sql[] = SESSION_TREE
    "INSERT INTO backups (session_id, path, key_id, written_at)"
    " SELECT id, ?2, ?3, ?4 FROM tree";
  g_autoptr (LoomStoreBorrowed) archive = NULL;
  g_autoptr (LoomStoreBorrowed) record = NULL;
  gint64 rowid;
  gint64 now = loom_time_now_ms ();

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (backup_path != NULL && *backup_path != '\0', FALSE);

  /* The write lock first: the session is resolved and changed in the same transaction, so
   * that an import or a delete in another process cannot come in between. */
  if (!loom_store_begin (self, error))
    return FALSE;
  if (!(rowid = loom_store_resolve_session (self, id, error)) ||
      !(archive = loom_store_cached (self, archive_sql, error)) ||
      !(record = loom_store_cached (self, record_sql, error)))
    goto fail;

  sqlite3_bind_int64 (archive, 1, rowid);
  sqlite3_bind_int64 (archive, 2, now);
  if (sqlite3_step (archive) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "archive the session");
      goto fail;
    }

  sqlite3_bind_int64 (record, 1, rowid);
  sqlite3_bind_text (record, 2, backup_path, -1, SQLITE_TRANSIENT);
  if (key_id != NULL)
    sqlite3_bind_text (record, 3, key_id, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (record, 3);
  sqlite3_bind_int64 (record, 4, now);
  if (sqlite3_step (record) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "record the session's backup");
      goto fail;
    }

  /* Reset before the commit: a statement left stepping would hold the transaction open. */
  g_clear_pointer (&archive, loom_store_borrowed_reset);
  g_clear_pointer (&record, loom_store_borrowed_reset);
  return loom_store_commit (self, error);

fail:
  g_clear_pointer (&archive, loom_store_borrowed_reset);
  g_clear_pointer (&record, loom_store_borrowed_reset);
  loom_store_rollback (self);
  return FALSE;
}

GListModel *
loom_store_list_sweep_candidates (LoomStore *self,
                                  gint64     cutoff,
                                  GError   **error)
{
  g_autofree char *sql = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  /* The range of the collection index that the All collection reads, its oldest end. */
  sql = g_strconcat (loom_store_session_select,
                     " WHERE s.trashed_at = 0 AND s.archived = 0 AND s.updated_at < ?1"
                     "   AND s.parent_session_id IS NULL"
                     " ORDER BY s.updated_at, s.id",
                     NULL);
  if (!(stmt = loom_store_prepare (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, cutoff);

  return loom_store_collect_sessions (self, stmt, "find the sessions to sweep", error);
}

/* One row per session of the tree, as loom_store_archive_with_backup () records them. */
static gboolean
insert_backup_rows (LoomStore  *self,
                    gint64      rowid,
                    const char *backup_path,
                    const char *key_id,
                    GError    **error)
{
  static const char record_sql[] = SESSION_TREE
    "INSERT INTO backups (session_id, path, key_id, written_at)"
    " SELECT id, ?2, ?3, ?4 FROM tree";
  g_autoptr (LoomStoreBorrowed) record = NULL;
  gboolean ok;

  if (!(record = loom_store_cached (self, record_sql, error)))
    return FALSE;
  sqlite3_bind_int64 (record, 1, rowid);
  sqlite3_bind_text (record, 2, backup_path, -1, SQLITE_TRANSIENT);
  if (key_id != NULL)
    sqlite3_bind_text (record, 3, key_id, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (record, 3);
  sqlite3_bind_int64 (record, 4, loom_time_now_ms ());
  if (!(ok = sqlite3_step (record) == SQLITE_DONE))
    loom_store_set_error (self, error, "record the session's backup");
  return ok;
}

gboolean
loom_store_record_backup (LoomStore  *self,
                          const char *id,
                          const char *backup_path,
                          const char *key_id,
                          GError    **error)
{
  gint64 rowid;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (backup_path != NULL && *backup_path != '\0', FALSE);

  /* Resolved inside the transaction, as for the sweep: a delete in another process cannot
   * come in between. */
  if (!loom_store_begin (self, error))
    return FALSE;
  if (!(rowid = loom_store_resolve_session (self, id, error)) ||
      !insert_backup_rows (self, rowid, backup_path, key_id, error))
    {
      loom_store_rollback (self);
      return FALSE;
    }
  return loom_store_commit (self, error);
}

void
loom_superseded_backup_free (LoomSupersededBackup *backup)
{
  if (backup == NULL)
    return;
  g_free (backup->path);
  g_free (backup->latest_path);
  g_free (backup);
}

GPtrArray *
loom_store_list_superseded_backups (LoomStore *self,
                                    GError   **error)
{
  /* A path can be recorded again as a later latest (a backup written under a name its
   * session's backups had before), so a row is superseded by its path, not by its id. */
#define LATEST_OF(session) \
  "(SELECT id FROM backups WHERE session_id = " session " ORDER BY written_at DESC, id DESC" \
  " LIMIT 1)"
  static const char sql[] =
    "SELECT DISTINCT old.path, latest.path FROM backups old"
    "  JOIN backups latest ON latest.id = " LATEST_OF (
      "old.session_id") " WHERE old.path NOT IN (SELECT b.path FROM sessions s"
                        "                          JOIN backups b ON b.id = " LATEST_OF (
                          "s.id") ")"
                                  " ORDER BY old.path";
#undef LATEST_OF
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GPtrArray) paths = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(stmt = loom_store_prepare (self, sql, error)))
    return NULL;
  paths = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_superseded_backup_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      LoomSupersededBackup *backup = g_new0 (LoomSupersededBackup, 1);

      backup->path = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
      backup->latest_path = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
      g_ptr_array_add (paths, backup);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "find the backups replaced since");
      return NULL;
    }
  return g_steal_pointer (&paths);
}

GListModel *
loom_store_list_backups_due (LoomStore *self,
                             gint64     quiet_cutoff,
                             GError   **error)
{
  g_autofree char *sql = NULL;
  g_autoptr (GListStore) sessions = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  /* A session's activity is its own and its sub-agents': they are in its package, and an
   * agent that goes on working in a sub-agent changes what the backup must hold. UNION, not
   * UNION ALL: a cycle of parents, which no agent writes but a damaged file might, ends. */
  sql = g_strconcat ("WITH RECURSIVE tree (root, id) AS ("
                     "  SELECT id, id FROM sessions"
                     "   WHERE parent_session_id IS NULL AND trashed_at = 0"
                     "  UNION SELECT tree.root, c.id FROM sessions c"
                     "   JOIN tree ON c.parent_session_id = tree.id"
                     "), activity (root, last) AS ("
                     "  SELECT tree.root, max (t.updated_at) FROM tree"
                     "   JOIN sessions t ON t.id = tree.id GROUP BY tree.root"
                     ") ",
                     loom_store_session_select,
                     "  JOIN activity a ON a.root = s.id"
                     " WHERE a.last < ?1 AND (b.id IS NULL OR b.written_at < a.last)"
                     " ORDER BY a.last, s.id",
                     NULL);
  if (!(stmt = loom_store_prepare (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, quiet_cutoff);

  sessions = g_list_store_new (LOOM_TYPE_SESSION);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      LoomSessionRecord record = { 0 };
      g_autoptr (LoomSession) session = NULL;

      loom_store_read_record (stmt, &record);
      session = loom_session_new (&record);
      loom_session_record_clear (&record);
      g_list_store_append (sessions, session);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "find the sessions due for a backup");
      return NULL;
    }
  return G_LIST_MODEL (g_steal_pointer (&sessions));
}
