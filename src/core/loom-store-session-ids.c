/* loom-store-session-ids.c — a query's sessions as row ids, and sessions read by row id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-store-private.h"
#include "loom-store-session-ids.h"
#include "loom-time.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)
/* Ids bound per statement when reading sessions by id. */
#define LOAD_CHUNK 500

/* The collections, folder, agent and project of @query as a WHERE clause. It must select what
 * append_query_filter() in loom-store-sessions.c selects: test-session-list-model checks that
 * both give the same sessions for every collection, filter and order. The projects table is
 * joined only when a project is asked for: the join doubles the cost of a full list. */
static void
append_filter (GString                *sql,
               const LoomSessionQuery *query)
{
  if (query->project != NULL)
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
      g_string_append (sql, " WHERE s.trashed_at != 0");
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

/* The order of loom_store_list_sessions(). With an index on (trashed_at, archived,
 * updated_at), the ids of a whole collection come straight from the index, in order, without
 * touching the table: 9 ms for 100,000 sessions, against 70 ms with the index on updated_at
 * alone (measured with bench/loom-bench-window's store). */
static void
append_order (GString                *sql,
              const LoomSessionQuery *query)
{
  const char *direction;

  switch (query->sort)
    {
    case LOOM_SORT_TITLE:
      direction = query->ascending ? "DESC" : "ASC";
      g_string_append_printf (sql, " ORDER BY s.title COLLATE NOCASE %s, s.id %s",
                              direction, direction);
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

static void
bind_int64 (sqlite3_stmt *stmt,
            const char   *name,
            gint64        value)
{
  int index = sqlite3_bind_parameter_index (stmt, name);

  if (index > 0)
    sqlite3_bind_int64 (stmt, index, value);
}

static void
bind_text (sqlite3_stmt *stmt,
           const char   *name,
           const char   *value)
{
  int index = sqlite3_bind_parameter_index (stmt, name);

  if (index > 0)
    sqlite3_bind_text (stmt, index, value, -1, SQLITE_TRANSIENT);
}

GArray *
loom_store_list_session_ids (LoomStore               *self,
                             const LoomSessionQuery  *query,
                             GError                 **error)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;
  g_autoptr(GString) sql = NULL;
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GArray) ids = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (query == NULL)
    query = &default_query;

  sql = g_string_new ("SELECT s.id FROM sessions s");
  append_filter (sql, query);
  append_order (sql, query);

  if (!(stmt = loom_store_prepare (self, sql->str, error)))
    return NULL;
  bind_int64 (stmt, ":now", loom_time_now_ms ());
  bind_int64 (stmt, ":day", DAY_MS);
  bind_int64 (stmt, ":folder", query->folder_id);
  bind_text (stmt, ":source", query->source);
  bind_text (stmt, ":project", query->project);

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
load_chunk (LoomStore     *self,
            const gint64  *ids,
            guint          n_ids,
            GHashTable    *by_id,
            GError       **error)
{
  g_autoptr(GString) sql = g_string_new (loom_store_session_select);
  g_autoptr(sqlite3_stmt) stmt = NULL;
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
      LoomSession *session;

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
loom_store_load_sessions (LoomStore     *self,
                          const gint64  *ids,
                          guint          n_ids,
                          GError       **error)
{
  g_autoptr(GHashTable) by_id = NULL;
  g_autoptr(GPtrArray) sessions = NULL;

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
loom_store_find_session_id (LoomStore   *self,
                            const char  *uuid,
                            GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
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
  g_autoptr(sqlite3_stmt) stmt = NULL;
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
