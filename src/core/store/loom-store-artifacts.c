/* loom-store-artifacts.c — the events that name a session's files, for its export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-event-kinds.h"
#include "loom-store-artifacts.h"
#include "loom-store-private.h"

gboolean
loom_store_foreach_file_event (LoomStore             *self,
                               const char            *session_id,
                               const char *const     *tool_names,
                               LoomStoreFileEventFunc func,
                               gpointer               user_data,
                               GError               **error)
{
  g_autoptr (GString) sql = g_string_new (NULL);
  guint         n_tools = tool_names != NULL ? g_strv_length ((GStrv)tool_names) : 0;
  sqlite3_stmt *stmt;
  gint64        rowid;
  gboolean      ok = TRUE;
  int           rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  if (!(rowid = loom_store_resolve_session (self, session_id, error)))
    return FALSE;

  /* A file change's result is looked up by its call id: Claude Code keeps the line-numbered
   * patch and whether a write created the file there. INDEXED BY, because for "ORDER BY seq"
   * SQLite otherwise walks the whole session's events_session for each change (a session of
   * 2,461 events and 234 changes took 60 ms so, and nothing with events_call). */
  g_string_append (
    sql, "SELECT e.seq, e.kind, e.tool_name, e.call_id, e.path, e.change_kind, e.payload,"
         "  CASE WHEN e.kind = '" LOOM_EVENT_FILE_CHANGE "' AND e.call_id IS NOT NULL"
         "  THEN (SELECT r.payload FROM events r INDEXED BY events_call"
         "        WHERE r.session_id = e.session_id AND r.call_id = e.call_id"
         "          AND r.kind = '" LOOM_EVENT_TOOL_RESULT "'"
         "        ORDER BY r.seq LIMIT 1) END"
         " FROM events e WHERE e.session_id = ?1 AND (e.kind = '" LOOM_EVENT_FILE_CHANGE "'");
  if (n_tools > 0)
    {
      g_string_append (sql, " OR (e.kind = '" LOOM_EVENT_TOOL_CALL "' AND e.tool_name IN (");
      for (guint i = 0; i < n_tools; i++)
        g_string_append_printf (sql, "%s?%u", i > 0 ? ", " : "", i + 2);
      g_string_append (sql, "))");
    }
  g_string_append (sql, ") ORDER BY e.seq");

  if (!(stmt = loom_store_cached_built (self, sql->str, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, rowid);
  for (guint i = 0; i < n_tools; i++)
    sqlite3_bind_text (stmt, (int)i + 2, tool_names[i], -1, SQLITE_STATIC);

  while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      LoomStoreFileEvent event = {
        .seq = sqlite3_column_int64 (stmt, 0),
        .kind = (const char *)sqlite3_column_text (stmt, 1),
        .tool_name = (const char *)sqlite3_column_text (stmt, 2),
        .call_id = (const char *)sqlite3_column_text (stmt, 3),
        .path = (const char *)sqlite3_column_text (stmt, 4),
        .change_kind = (const char *)sqlite3_column_text (stmt, 5),
        .payload = (const char *)sqlite3_column_text (stmt, 6),
        .result_payload = (const char *)sqlite3_column_text (stmt, 7),
      };

      ok = func (&event, user_data, error);
    }
  if (ok && rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "read the session's file events");
      ok = FALSE;
    }
  sqlite3_reset (stmt);
  return ok;
}
