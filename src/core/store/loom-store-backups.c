/* loom-store-backups.c — the backups an archive sweep wrote, and the sessions it may sweep.
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
