/* loom-store-writer.c — the writer itself, its batches and what its files share.
 *
 * The rest is in loom-store-writer-cursors.c (the files a pass knows), -sessions.c and
 * -timeline.c (what a file writes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-naming.h"
#include "loom-store-writer-private.h"

LoomStoreWriter *
loom_store_writer_new (LoomStore *store)
{
  LoomStoreWriter *writer;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);

  writer = g_new0 (LoomStoreWriter, 1);
  writer->store = store;
  return writer;
}

void
loom_store_writer_free (LoomStoreWriter *writer)
{
  g_free (writer);
}

/* ——— Steps and binders ——— */

void
loom_store_writer_bind_text (sqlite3_stmt *stmt,
                             int           index,
                             const char   *text)
{
  /* Static: every statement here is stepped and reset before its caller's strings go, and a
   * copy of each payload (megabytes, some of them) was a tenth of the writing. */
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, index);
}

void
loom_store_writer_bind_event_text (sqlite3_stmt *stmt,
                                   int           index,
                                   const char   *text)
{
  gsize length;

  if (text == NULL)
    {
      sqlite3_bind_text (stmt, index, "", 0, SQLITE_STATIC);
      return;
    }
  length = strlen (text);
  if (length > LOOM_STORE_EVENT_TEXT_LIMIT)
    {
      const char *end = g_utf8_find_prev_char (text, text + LOOM_STORE_EVENT_TEXT_LIMIT + 1);

      length = end != NULL ? (gsize)(end - text) : LOOM_STORE_EVENT_TEXT_LIMIT;
    }
  /* The bound is a length, not a copy: the statement is stepped before @text goes. */
  sqlite3_bind_text (stmt, index, text, (int)length, SQLITE_STATIC);
}

/* Metadata is shown on one line (a title, a model, a branch), and the transcript bounds none
 * of it: the store keeps a line of a sane length, valid UTF-8, without control characters
 * (loom_naming_bound_line()). */
void
loom_store_writer_bind_line (sqlite3_stmt *stmt,
                             int           index,
                             const char   *text,
                             glong         max_chars)
{
  char *line = loom_naming_bound_line (text, max_chars);

  if (line != NULL)
    sqlite3_bind_text (stmt, index, line, -1, g_free);
  else
    sqlite3_bind_null (stmt, index);
}

/* A path is kept as it is, but valid and no longer than any real one. */
void
loom_store_writer_bind_path (sqlite3_stmt *stmt,
                             int           index,
                             const char   *path)
{
  char *bounded = loom_naming_bound_path (path, LOOM_NAMING_PATH_LIMIT);

  if (bounded != NULL)
    sqlite3_bind_text (stmt, index, bounded, -1, g_free);
  else
    sqlite3_bind_null (stmt, index);
}

void
loom_store_writer_bind_count (sqlite3_stmt *stmt,
                              int           index,
                              gint64        value)
{
  if (value >= 0)
    sqlite3_bind_int64 (stmt, index, value);
  else
    sqlite3_bind_null (stmt, index);
}

/* A link to another row; 0 for none. */
void
loom_store_writer_bind_row (sqlite3_stmt *stmt,
                            int           index,
                            gint64        row)
{
  if (row > 0)
    sqlite3_bind_int64 (stmt, index, row);
  else
    sqlite3_bind_null (stmt, index);
}

gint64
loom_store_writer_step (LoomStoreWriter *writer,
                        sqlite3_stmt    *stmt,
                        const char      *doing,
                        GError         **error)
{
  int    rc = sqlite3_step (stmt);
  gint64 id = 0;

  if (rc == SQLITE_ROW)
    {
      id = sqlite3_column_int64 (stmt, 0);
      rc = sqlite3_step (stmt);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (writer->store, error, doing);
      sqlite3_reset (stmt);
      return -1;
    }
  sqlite3_reset (stmt);
  return id;
}

/* Not RETURNING: SQLite gathers returned rows in a temporary table, opened and closed for
 * every statement — per message and event, a twentieth of an import. */
gint64
loom_store_writer_step_inserting (LoomStoreWriter *writer,
                                  sqlite3_stmt    *stmt,
                                  const char      *doing,
                                  GError         **error)
{
  sqlite3 *db = sqlite3_db_handle (stmt);

  if (loom_store_writer_step (writer, stmt, doing, error) < 0)
    return -1;
  return sqlite3_changes (db) > 0 ? sqlite3_last_insert_rowid (db) : 0;
}

/* ——— The pass ——— */

gboolean
loom_store_writer_prepare_bulk (LoomStoreWriter *writer,
                                GError         **error)
{
  /* Bulk writes touch the tables, their indexes and the full-text index at once: a larger page
   * cache keeps them in memory between files, and fewer checkpoints spare the disk. */
  return loom_store_exec (writer->store,
                          "PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 16384;", error);
}

gboolean
loom_store_writer_hold_index_merges (LoomStoreWriter *writer,
                                     GError         **error)
{
  return loom_store_hold_index_merges (writer->store, error);
}

gboolean
loom_store_writer_resume_index_merges (LoomStoreWriter *writer,
                                       GError         **error)
{
  return loom_store_resume_index_merges (writer->store, error);
}

gboolean
loom_store_writer_index_wants_merging (LoomStoreWriter *writer,
                                       guint64          added,
                                       gboolean        *wants,
                                       GError         **error)
{
  return loom_store_index_wants_merging (writer->store, added, wants, error);
}

gboolean
loom_store_writer_merge_index_step (LoomStoreWriter *writer,
                                    gboolean         first,
                                    guint            pages,
                                    gboolean        *merged,
                                    GError         **error)
{
  return loom_store_merge_index_step (writer->store, first, pages, merged, error);
}

/* ——— Transactions ——— */

gboolean
loom_store_writer_begin_batch (LoomStoreWriter *writer,
                               GError         **error)
{
  return loom_store_begin_indexed (writer->store, error);
}

gboolean
loom_store_writer_commit_batch (LoomStoreWriter *writer,
                                GError         **error)
{
  return loom_store_commit_indexed (writer->store, error);
}

gboolean
loom_store_writer_begin (LoomStoreWriter *writer,
                         GError         **error)
{
  return loom_store_begin (writer->store, error);
}

gboolean
loom_store_writer_commit (LoomStoreWriter *writer,
                          GError         **error)
{
  return loom_store_commit (writer->store, error);
}

void
loom_store_writer_rollback (LoomStoreWriter *writer)
{
  loom_store_rollback (writer->store);
}
