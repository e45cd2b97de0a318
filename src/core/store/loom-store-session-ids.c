/* loom-store-session-ids.c — a query's sessions as row ids, and sessions read by row id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-store-private.h"
#include "loom-store-session-ids.h"
#include "loom-time.h"

/* Ids bound per statement when reading sessions by id. */
#define LOAD_CHUNK 500

GArray *
loom_store_list_session_ids (LoomStore              *self,
                             const LoomSessionQuery *query,
                             GError                **error)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GString) sql = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GArray) ids = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (query == NULL)
    query = &default_query;

  /* With the index on (trashed_at, archived, updated_at), the ids of a whole collection come
   * straight from the index, in order, without touching the table. */
  sql = g_string_new ("SELECT s.id FROM sessions s");
  loom_store_append_session_filter (sql, query, TRUE);
  loom_store_append_session_order (sql, query);

  if (!(stmt = loom_store_prepare (self, sql->str, error)))
    return NULL;
  loom_store_bind_session_query (stmt, query);

  ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);

      g_array_append_val (ids, id);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "list sessions");
      return NULL;
    }

  return g_steal_pointer (&ids);
}

static gboolean
load_chunk (LoomStore    *self,
            const gint64 *ids,
            guint         n_ids,
            GHashTable   *by_id,
            GError      **error)
{
  g_autoptr (GString) sql = g_string_new (loom_store_session_select);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_string_append (sql, " WHERE s.id IN (");
  for (guint i = 0; i < n_ids; i++)
    g_string_append (sql, i == 0 ? "?" : ", ?");
  g_string_append_c (sql, ')');

  if (!(stmt = loom_store_prepare (self, sql->str, error)))
    return FALSE;
  for (guint i = 0; i < n_ids; i++)
    sqlite3_bind_int64 (stmt, i + 1, ids[i]);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      LoomSessionRecord record = { 0 };
      LoomSession      *session;

      loom_store_read_record (stmt, &record);
      session = loom_session_new (&record);
      g_hash_table_insert (by_id, &((LoomSessionRecord *)loom_session_get_record (session))->id,
                           session);
      loom_session_record_clear (&record);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "read sessions");
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
loom_store_load_sessions (LoomStore    *self,
                          const gint64 *ids,
                          guint         n_ids,
                          GError      **error)
{
  g_autoptr (GHashTable) by_id = NULL;
  g_autoptr (GPtrArray) sessions = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);
  g_return_val_if_fail (ids != NULL || n_ids == 0, NULL);

  by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_object_unref);
  for (guint start = 0; start < n_ids; start += LOAD_CHUNK)
    {
      if (!load_chunk (self, ids + start, MIN (LOAD_CHUNK, n_ids - start), by_id, error))
        return NULL;
    }

  sessions = g_ptr_array_new_full (n_ids, g_object_unref);
  for (guint i = 0; i < n_ids; i++)
    {
      gpointer key, session;

      if (g_hash_table_steal_extended (by_id, &ids[i], &key, &session))
        g_ptr_array_add (sessions, session);
    }
  return g_steal_pointer (&sessions);
}

gint64
loom_store_find_session_id (LoomStore  *self,
                            const char *uuid,
                            GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), 0);
  g_return_val_if_fail (uuid != NULL, 0);

  if (!(stmt = loom_store_prepare (self, "SELECT id FROM sessions WHERE uuid = ?", error)))
    return 0;
  sqlite3_bind_text (stmt, 1, uuid, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return sqlite3_column_int64 (stmt, 0);
  if (rc != SQLITE_DONE)
    loom_store_set_error (self, error, "find the session");
  return 0;
}

guint64
loom_store_get_change_stamp (LoomStore *self)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  guint64 version = 0;

  g_return_val_if_fail (LOOM_IS_STORE (self), 0);

  /* data_version moves when another connection commits; the change count, when this one
   * writes. Neither costs more than a few microseconds. (sqlite3_total_changes64() would need
   * SQLite 3.37; the build asks for 3.35, and a count that wraps still tells a change.) */
  if ((stmt = loom_store_prepare (self, "PRAGMA data_version", NULL)) != NULL &&
      sqlite3_step (stmt) == SQLITE_ROW)
    version = (guint64)sqlite3_column_int64 (stmt, 0);

  return (version << 32) ^ (guint32)sqlite3_total_changes (self->db);
}
