/* loom-store-timeline.c — reading a session's messages and events in timeline order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-store-private.h"
#include "loom-timeline-item.h"

static char *
column_strdup (sqlite3_stmt *stmt,
               int           column)
{
  return g_strdup ((const char *)sqlite3_column_text (stmt, column));
}

GListModel *
loom_store_list_timeline (LoomStore  *self,
                          const char *id,
                          guint       offset,
                          guint       limit,
                          GError    **error)
{
  static const char sql[] =
    "SELECT * FROM ("
    "  SELECT id, seq, 1, role, NULL, flags, model, created_at, text, NULL, NULL, 0, NULL,"
    "         NULL, 0 FROM messages WHERE session_id = ?1"
    "  UNION ALL"
    "  SELECT id, seq, 0, NULL, kind, 0, NULL, created_at, text, tool_name, call_id, is_error,"
    "         path, change_kind, payload_size FROM events WHERE session_id = ?1"
    ") ORDER BY 2 LIMIT ?2 OFFSET ?3";
  g_autoptr (GListStore) items = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  gint64 rowid;
  int    rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(rowid = loom_store_resolve_session (self, id, error)))
    return NULL;
  if (!(stmt = loom_store_prepare (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, rowid);
  sqlite3_bind_int64 (stmt, 2, limit > 0 ? (gint64)limit : -1);
  sqlite3_bind_int64 (stmt, 3, offset);

  items = g_list_store_new (LOOM_TYPE_TIMELINE_ITEM);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      LoomTimelineData data = {
        .id = sqlite3_column_int64 (stmt, 0),
        .seq = sqlite3_column_int64 (stmt, 1),
        .is_message = sqlite3_column_int (stmt, 2),
        .role = column_strdup (stmt, 3),
        .kind = column_strdup (stmt, 4),
        .flags = (guint)sqlite3_column_int (stmt, 5),
        .model = column_strdup (stmt, 6),
        .created_at = sqlite3_column_int64 (stmt, 7),
        .text = column_strdup (stmt, 8),
        .tool_name = column_strdup (stmt, 9),
        .call_id = column_strdup (stmt, 10),
        .is_error = sqlite3_column_int (stmt, 11),
        .path = column_strdup (stmt, 12),
        .change_kind = column_strdup (stmt, 13),
        .payload_size = sqlite3_column_int64 (stmt, 14),
      };
      g_autoptr (LoomTimelineItem) item = loom_timeline_item_new (&data);

      g_list_store_append (items, item);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "read the timeline");
      return NULL;
    }
  return G_LIST_MODEL (g_steal_pointer (&items));
}
