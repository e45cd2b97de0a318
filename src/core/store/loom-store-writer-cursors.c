/* loom-store-writer-cursors.c — the files an import knows: their cursors (import_cursors), and
 * the sessions named by their paths as files move, are read again or go.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-store-writer-private.h"
#include "loom-time.h"

void
loom_store_cursor_clear (LoomStoreCursor *cursor)
{
  g_clear_pointer (&cursor->prefix_hash, g_free);
  g_clear_pointer (&cursor->state, g_free);
}

gboolean
loom_store_writer_load_cursor (LoomStoreWriter *writer,
                               const char      *path,
                               LoomStoreCursor *cursor,
                               GError         **error)
{
  static const char sql[] = "SELECT device, inode, size, mtime, offset, line, prefix_hash, state"
                            " FROM import_cursors WHERE source_path = ?1";
  sqlite3_stmt     *stmt = loom_store_cached (writer->store, sql, error);
  int               rc;

  memset (cursor, 0, sizeof *cursor);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      cursor->found = TRUE;
      cursor->device = (guint64)sqlite3_column_int64 (stmt, 0);
      cursor->inode = (guint64)sqlite3_column_int64 (stmt, 1);
      cursor->size = (guint64)sqlite3_column_int64 (stmt, 2);
      cursor->mtime = sqlite3_column_int64 (stmt, 3);
      cursor->offset = (guint64)sqlite3_column_int64 (stmt, 4);
      cursor->line = (guint64)sqlite3_column_int64 (stmt, 5);
      cursor->prefix_hash = g_strdup ((const char *)sqlite3_column_text (stmt, 6));
      cursor->state = g_strdup ((const char *)sqlite3_column_text (stmt, 7));
      rc = sqlite3_step (stmt);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "read the import cursor");
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_writer_save_cursor (LoomStoreWriter       *writer,
                               const char            *path,
                               const char            *source,
                               const LoomStoreCursor *cursor,
                               GError               **error)
{
  static const char sql[] =
    "INSERT INTO import_cursors (source_path, source, device, inode, size, mtime, offset, line,"
    "                            prefix_hash, state, updated_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
    " ON CONFLICT (source_path) DO UPDATE SET source = excluded.source,"
    "  device = excluded.device, inode = excluded.inode, size = excluded.size,"
    "  mtime = excluded.mtime, offset = excluded.offset, line = excluded.line,"
    "  prefix_hash = excluded.prefix_hash, state = excluded.state,"
    "  updated_at = excluded.updated_at";
  sqlite3_stmt *stmt;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, source, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 3, (gint64)cursor->device);
  sqlite3_bind_int64 (stmt, 4, (gint64)cursor->inode);
  sqlite3_bind_int64 (stmt, 5, (gint64)cursor->size);
  sqlite3_bind_int64 (stmt, 6, cursor->mtime);
  sqlite3_bind_int64 (stmt, 7, (gint64)cursor->offset);
  sqlite3_bind_int64 (stmt, 8, (gint64)cursor->line);
  if (cursor->prefix_hash != NULL)
    sqlite3_bind_text (stmt, 9, cursor->prefix_hash, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 10, cursor->state, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 11, loom_time_now_ms ());
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "save the import cursor");
      sqlite3_reset (stmt);
      return FALSE;
    }
  sqlite3_reset (stmt);
  return TRUE;
}

gboolean
loom_store_writer_foreach_cursor (LoomStoreWriter    *writer,
                                  LoomStoreCursorFunc func,
                                  gpointer            data,
                                  GError            **error)
{
  static const char sql[] = "SELECT source_path, source, device, inode FROM import_cursors";
  sqlite3_stmt     *stmt;
  int               rc;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    func ((const char *)sqlite3_column_text (stmt, 0), (const char *)sqlite3_column_text (stmt, 1),
          (gint64)sqlite3_column_int64 (stmt, 2), (gint64)sqlite3_column_int64 (stmt, 3), data);
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "look for moved agent files");
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_writer_foreach_file (LoomStoreWriter  *writer,
                                LoomStoreFileFunc func,
                                gpointer          data,
                                GError          **error)
{
  static const char sql[] = "SELECT source_path FROM import_cursors";
  sqlite3_stmt     *stmt;
  int               rc;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    func ((const char *)sqlite3_column_text (stmt, 0), data);
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "check for deleted agent files");
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_writer_knows_file (LoomStoreWriter *writer,
                              const char      *path,
                              gboolean        *known,
                              GError         **error)
{
  static const char sql[] = "SELECT 1 FROM import_cursors WHERE source_path = ?1";
  sqlite3_stmt     *stmt;
  int               rc;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "check for deleted agent files");
      return FALSE;
    }
  *known = rc == SQLITE_ROW;
  return TRUE;
}

gboolean
loom_store_writer_rename_file (LoomStoreWriter *writer,
                               const char      *from,
                               const char      *to,
                               GError         **error)
{
  static const char *const statements[] = {
    "UPDATE import_cursors SET source_path = ?2 WHERE source_path = ?1",
    "UPDATE sessions SET source_path = ?2 WHERE source_path = ?1",
  };

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      sqlite3_stmt *stmt = loom_store_cached (writer->store, statements[i], error);

      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_text (stmt, 1, from, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, to, -1, SQLITE_STATIC);
      if (loom_store_writer_step (writer, stmt, "rename an agent file's records", error) < 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_writer_move_file (LoomStoreWriter *writer,
                             const char      *from,
                             const char      *to,
                             guint64          device,
                             guint64          inode,
                             gboolean         with_cursor,
                             GError         **error)
{
  static const char move_sql[] =
    "UPDATE import_cursors SET source_path = ?2, device = ?3, inode = ?4 WHERE source_path = ?1";
  static const char drop_sql[] = "DELETE FROM import_cursors WHERE source_path = ?1";
  static const char sessions_sql[] =
    "UPDATE sessions SET source_path = ?2, source_missing = 0 WHERE source_path = ?1";
  const char *const statements[] = { with_cursor ? move_sql : drop_sql, sessions_sql };

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      sqlite3_stmt *stmt = loom_store_cached (writer->store, statements[i], error);

      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_text (stmt, 1, from, -1, SQLITE_STATIC);
      if (statements[i] != drop_sql)
        sqlite3_bind_text (stmt, 2, to, -1, SQLITE_STATIC);
      if (statements[i] == move_sql)
        {
          /* Vouched for by its content: a copy to another disk has another inode. */
          sqlite3_bind_int64 (stmt, 3, (gint64)device);
          sqlite3_bind_int64 (stmt, 4, (gint64)inode);
        }
      if (loom_store_writer_step (writer, stmt, "follow a moved agent file", error) < 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_writer_clear_file (LoomStoreWriter *writer,
                              const char      *path,
                              GError         **error)
{
  /* Rows are indexed at the batch's end if their id is past the last one indexed before it
   * (index_deferred). SQLite gives a new row the highest id plus one: once the file's rows,
   * the newest, are gone, the rows read again would take ids at or below that mark, and never
   * be indexed. The mark comes down to the highest id left, below which every row was indexed
   * before the batch. */
  static const char *const statements[] = {
    "DELETE FROM events WHERE session_id IN (SELECT id FROM sessions WHERE source_path = ?1)",
    "DELETE FROM messages WHERE session_id IN (SELECT id FROM sessions WHERE source_path = ?1)",
    "UPDATE index_deferred SET after_id = min (after_id, (SELECT ifnull (max (id), 0) FROM events))"
    " WHERE base = 'events'",
    "UPDATE index_deferred SET after_id = min (after_id, (SELECT ifnull (max (id), 0) FROM messages))"
    " WHERE base = 'messages'",
  };

  for (guint i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      sqlite3_stmt *stmt = loom_store_cached (writer->store, statements[i], error);

      if (stmt == NULL)
        return FALSE;
      loom_store_writer_bind_text (stmt, 1, path);
      if (loom_store_writer_step (writer, stmt, "clear a re-read file", error) < 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_writer_forget_file (LoomStoreWriter *writer,
                               const char      *path,
                               GError         **error)
{
  static const char sql[] = "DELETE FROM import_cursors WHERE source_path = ?1"
                            " AND NOT EXISTS (SELECT 1 FROM sessions WHERE source_path = ?1)";
  sqlite3_stmt     *stmt;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  return loom_store_writer_step (writer, stmt, "forget a deleted agent file", error) >= 0;
}

gboolean
loom_store_writer_mark_file_missing (LoomStoreWriter *writer,
                                     const char      *path,
                                     guint           *n_marked,
                                     GError         **error)
{
  static const char sql[] =
    "UPDATE sessions SET source_missing = 1 WHERE source_path = ?1 AND source_missing = 0";
  sqlite3_stmt *stmt;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "mark deleted agent files");
      sqlite3_reset (stmt);
      return FALSE;
    }
  *n_marked += (guint)sqlite3_changes (writer->store->db);
  sqlite3_reset (stmt);
  return TRUE;
}

gboolean
loom_store_writer_unmark_file_missing (LoomStoreWriter *writer,
                                       const char      *path,
                                       GError         **error)
{
  static const char sql[] =
    "UPDATE sessions SET source_missing = 0 WHERE source_path = ?1 AND source_missing = 1";
  sqlite3_stmt *stmt;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  sqlite3_bind_text (stmt, 1, path, -1, SQLITE_STATIC);
  return loom_store_writer_step (writer, stmt, "unmark sessions whose file is there", error) >= 0;
}

gboolean
loom_store_writer_list_missing_files (LoomStoreWriter *writer,
                                      GPtrArray       *paths,
                                      GError         **error)
{
  static const char sql[] = "SELECT DISTINCT source_path FROM sessions"
                            " WHERE source_missing = 1 AND source_path IS NOT NULL";
  sqlite3_stmt     *stmt;
  int               rc;

  if (!(stmt = loom_store_cached (writer->store, sql, error)))
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (paths, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, "look for sessions marked missing");
      return FALSE;
    }
  return TRUE;
}
