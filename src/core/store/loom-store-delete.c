/* loom-store-delete.c — permanent deletion, planned first and executed exactly as planned.
 *
 * A session's sub-agent sessions go with it. Its search-index entries go with its rows (the
 * schema's triggers remove them), and a tombstone keeps the next import from bringing the
 * session back from the agent's file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-index.h"
#include "loom-store-private.h"
#include "loom-time.h"

/* What goes with a session, table by table, in the order the plan reports them. Index entries
 * are found by the same rowid mapping the triggers delete by (see loom-schema.c). */
static const struct
{
  const char *table;
  const char *sql;
} plan_queries[] = {
  { "sessions", "SELECT ?1" },
  { "messages", "SELECT id FROM messages WHERE session_id = ?1 ORDER BY id" },
  { "events", "SELECT id FROM events WHERE session_id = ?1 ORDER BY id" },
  { "artifacts", "SELECT id FROM artifacts WHERE session_id = ?1 ORDER BY id" },
  { "summaries", "SELECT id FROM summaries WHERE session_id = ?1 ORDER BY id" },
  /* The index holds no rows of its own to count; search_entries has one per entry. */
  { "search_index", "SELECT id FROM search_entries WHERE id = " LOOM_INDEX_TITLES_FROM_SQL " + ?1"
                    " UNION ALL"
                    " SELECT x.id FROM (SELECT id FROM messages WHERE session_id = ?1) m"
                    "   JOIN search_entries x ON x.id = " LOOM_INDEX_MESSAGES_FROM_SQL " + m.id"
                    " UNION ALL"
                    " SELECT x.id FROM (SELECT id FROM events WHERE session_id = ?1) e"
                    "   JOIN search_entries x ON x.id = e.id" },
};

static gboolean
collect_tree (LoomStore  *self,
              gint64      root,
              GArray     *rowids,
              GHashTable *seen,
              GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = loom_store_prepare (self,
                             "WITH RECURSIVE tree (id) AS ("
                             "  SELECT ?1"
                             "  UNION SELECT s.id FROM sessions s"
                             "    JOIN tree ON s.parent_session_id = tree.id"
                             ") SELECT id FROM tree",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, root);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);

      if (g_hash_table_add (seen, g_memdup2 (&rowid, sizeof rowid)))
        g_array_append_val (rowids, rowid);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "find sub-agent sessions");
      return FALSE;
    }
  return TRUE;
}

static LoomDeletePlan *
plan_for_rowids (LoomStore *self,
                 GArray    *rowids,
                 GError   **error)
{
  g_autoptr (LoomDeletePlan) plan = loom_delete_plan_new ();

  for (guint t = 0; t < G_N_ELEMENTS (plan_queries); t++)
    loom_delete_plan_add_table (plan, plan_queries[t].table);

  for (guint i = 0; i < rowids->len; i++)
    {
      gint64 rowid = g_array_index (rowids, gint64, i);
      g_autoptr (LoomSession) session = NULL;

      if (!(session = loom_store_load_session (self, rowid, error)))
        return NULL;
      loom_delete_plan_add_session (plan, session);

      for (guint t = 0; t < G_N_ELEMENTS (plan_queries); t++)
        {
          g_autoptr (sqlite3_stmt) stmt = NULL;
          int rc;

          if (!(stmt = loom_store_prepare (self, plan_queries[t].sql, error)))
            return NULL;
          sqlite3_bind_int64 (stmt, 1, rowid);
          while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
            loom_delete_plan_add_row (plan, plan_queries[t].table, sqlite3_column_int64 (stmt, 0));
          if (rc != SQLITE_DONE)
            {
              loom_store_set_error (self, error, "plan the deletion");
              return NULL;
            }
        }
    }

  return g_steal_pointer (&plan);
}

LoomDeletePlan *
loom_store_plan_delete (LoomStore         *self,
                        const char *const *ids,
                        GError           **error)
{
  g_autoptr (GArray) rowids = NULL;
  g_autoptr (GHashTable) seen = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);
  g_return_val_if_fail (ids != NULL, NULL);

  rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; ids[i] != NULL; i++)
    {
      gint64 rowid = loom_store_resolve_session (self, ids[i], error);

      if (rowid == 0 || !collect_tree (self, rowid, rowids, seen, error))
        return NULL;
    }

  return plan_for_rowids (self, rowids, error);
}

LoomDeletePlan *
loom_store_plan_empty_trash (LoomStore *self,
                             GError   **error)
{
  g_autoptr (GArray) rowids = NULL;
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autoptr (GArray) roots = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  roots = g_array_new (FALSE, FALSE, sizeof (gint64));
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  stmt = loom_store_prepare (self, "SELECT id FROM sessions WHERE trashed_at != 0 ORDER BY id",
                             error);
  if (stmt == NULL)
    return NULL;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (stmt, 0);
      g_array_append_val (roots, rowid);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "list the trash");
      return NULL;
    }

  for (guint i = 0; i < roots->len; i++)
    if (!collect_tree (self, g_array_index (roots, gint64, i), rowids, seen, error))
      return NULL;

  return plan_for_rowids (self, rowids, error);
}

static gboolean
plans_equal (LoomDeletePlan *a,
             LoomDeletePlan *b)
{
  for (guint t = 0; t < G_N_ELEMENTS (plan_queries); t++)
    {
      gsize         n_a, n_b;
      const gint64 *rows_a = loom_delete_plan_get_rows (a, plan_queries[t].table, &n_a);
      const gint64 *rows_b = loom_delete_plan_get_rows (b, plan_queries[t].table, &n_b);

      if (n_a != n_b || (n_a > 0 && memcmp (rows_a, rows_b, n_a * sizeof (gint64)) != 0))
        return FALSE;
    }
  return TRUE;
}

static gboolean
run_for_each_session (LoomStore      *self,
                      LoomDeletePlan *plan,
                      const char     *sql,
                      gint64          now,
                      GError        **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  if (!(stmt = loom_store_prepare (self, sql, error)))
    return FALSE;

  for (guint i = 0; i < loom_delete_plan_get_n_sessions (plan); i++)
    {
      LoomSession *session = loom_delete_plan_get_session (plan, i);

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, loom_session_get_id (session));
      sqlite3_bind_int64 (stmt, 2, now);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        {
          loom_store_set_error (self, error, "delete the session");
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
loom_store_execute_delete (LoomStore      *self,
                           LoomDeletePlan *plan,
                           GError        **error)
{
  g_autoptr (GArray) rowids = NULL;
  g_autoptr (LoomDeletePlan) current = NULL;
  gint64 now = loom_time_now_ms ();

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (plan), FALSE);

  if (!loom_store_begin (self, error))
    return FALSE;

  /* The plan is what the person agreed to. If an import added rows since, stop rather than
   * delete more than was shown. */
  rowids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < loom_delete_plan_get_n_sessions (plan); i++)
    {
      gint64 rowid = loom_session_get_id (loom_delete_plan_get_session (plan, i));
      g_array_append_val (rowids, rowid);
    }

  current = plan_for_rowids (self, rowids, error);
  if (current == NULL)
    {
      loom_store_rollback (self);
      return FALSE;
    }
  if (!plans_equal (plan, current))
    {
      loom_store_rollback (self);
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_FAILED,
                           "The sessions changed since the deletion was planned; nothing was "
                           "deleted. Review what would be removed and try again.");
      return FALSE;
    }

  if (!run_for_each_session (
        self, plan,
        "INSERT OR REPLACE INTO tombstones (source, source_session_id, deleted_at)"
        " SELECT source, source_session_id, ?2 FROM sessions"
        " WHERE id = ?1 AND source_session_id IS NOT NULL",
        now, error) ||
      !run_for_each_session (self, plan, "DELETE FROM sessions WHERE id = ?1 AND ?2 IS NOT NULL",
                             now, error))
    {
      loom_store_rollback (self);
      return FALSE;
    }

  return loom_store_commit (self, error);
}
