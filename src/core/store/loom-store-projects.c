/* loom-store-projects.c — the projects that sessions belong to, for filtering by project.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-store-private.h"
#include "loom-store-projects.h"

void
loom_project_summary_free (LoomProjectSummary *summary)
{
  if (summary == NULL)
    return;

  g_free (summary->name);
  g_free (summary->path);
  g_free (summary);
}

GPtrArray *
loom_store_list_projects (LoomStore *self,
                          GError   **error)
{
  g_autoptr (GPtrArray) projects = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  /* Counted from the sessions' index on project_id, so that a store of 100,000 sessions
   * answers quickly enough for a menu that is about to open. */
  stmt = loom_store_prepare (self,
                             "SELECT p.name, p.path, count(*) AS n"
                             "  FROM sessions s JOIN projects p ON p.id = s.project_id"
                             " WHERE s.trashed_at = 0"
                             " GROUP BY p.id"
                             " ORDER BY n DESC, p.name COLLATE NOCASE, p.path",
                             error);
  if (stmt == NULL)
    return NULL;

  projects = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_project_summary_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      LoomProjectSummary *summary = g_new0 (LoomProjectSummary, 1);

      summary->name = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
      summary->path = g_strdup ((const char *)sqlite3_column_text (stmt, 1));
      summary->n_sessions = (guint)sqlite3_column_int64 (stmt, 2);
      g_ptr_array_add (projects, summary);
    }

  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "list the projects");
      return NULL;
    }

  return g_steal_pointer (&projects);
}
