/* loom-store-folders.c — folders (categories). A session is in at most one folder; deleting a
 * folder keeps its sessions and only takes them out of it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-store-private.h"
#include "loom-time.h"

#define FOLDER_SELECT \
  "SELECT f.id, f.name, f.position, f.created_at," \
  "       (SELECT count(*) FROM sessions s WHERE s.folder_id = f.id AND s.trashed_at = 0)" \
  "  FROM folders f"

static LoomFolder *
folder_from_row (sqlite3_stmt *stmt)
{
  return loom_folder_new (
    sqlite3_column_int64 (stmt, 0), (const char *)sqlite3_column_text (stmt, 1),
    sqlite3_column_int64 (stmt, 2), sqlite3_column_int64 (stmt, 4), sqlite3_column_int64 (stmt, 3));
}

GListModel *
loom_store_list_folders (LoomStore *self,
                         GError   **error)
{
  g_autoptr (GListStore) folders = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(stmt = loom_store_prepare (self, FOLDER_SELECT " ORDER BY f.position, f.id", error)))
    return NULL;

  folders = g_list_store_new (LOOM_TYPE_FOLDER);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (LoomFolder) folder = folder_from_row (stmt);
      g_list_store_append (folders, folder);
    }
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "list folders");
      return NULL;
    }
  return G_LIST_MODEL (g_steal_pointer (&folders));
}

static LoomFolder *
load_folder (LoomStore  *self,
             const char *where,
             gint64      id,
             const char *name,
             GError    **error)
{
  g_autofree char *sql = g_strconcat (FOLDER_SELECT " WHERE ", where, NULL);
  g_autoptr (sqlite3_stmt) stmt = NULL;
  int rc;

  if (!(stmt = loom_store_prepare (self, sql, error)))
    return NULL;
  if (name != NULL)
    sqlite3_bind_text (stmt, 1, name, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_int64 (stmt, 1, id);

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return folder_from_row (stmt);
  if (rc != SQLITE_DONE)
    loom_store_set_error (self, error, "find the folder");
  else if (name != NULL)
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No folder named “%s”", name);
  else
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No folder with id %" G_GINT64_FORMAT,
                 id);
  return NULL;
}

LoomFolder *
loom_store_find_folder (LoomStore  *self,
                        const char *name_or_id,
                        GError    **error)
{
  g_autoptr (GError) local_error = NULL;
  LoomFolder *folder;
  char       *end = NULL;
  gint64      id;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);
  g_return_val_if_fail (name_or_id != NULL, NULL);

  /* A name wins over an id, so that a folder called "2024" is found by its name. */
  folder = load_folder (self, "f.name = ?1", 0, name_or_id, &local_error);
  if (folder != NULL)
    return folder;
  if (!g_error_matches (local_error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  id = g_ascii_strtoll (name_or_id, &end, 10);
  if (end != name_or_id && *end == '\0' && id > 0)
    return load_folder (self, "f.id = ?1", id, NULL, error);

  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}

static char *
clean_name (const char *name,
            GError    **error)
{
  g_autofree char *trimmed = NULL;

  if (name == NULL || !g_utf8_validate (name, -1, NULL))
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "A folder name must be valid text");
      return NULL;
    }
  trimmed = g_strstrip (g_strdup (name));
  if (*trimmed == '\0')
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "A folder name cannot be empty");
      return NULL;
    }
  return g_steal_pointer (&trimmed);
}

static void
set_folder_write_error (LoomStore  *self,
                        const char *name,
                        GError    **error)
{
  if ((sqlite3_errcode (self->db) & 0xff) == SQLITE_CONSTRAINT)
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS, "A folder named “%s” already exists", name);
  else
    loom_store_set_error (self, error, "save the folder");
}

LoomFolder *
loom_store_create_folder (LoomStore  *self,
                          const char *name,
                          GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *clean = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(clean = clean_name (name, error)))
    return NULL;

  stmt = loom_store_prepare (
    self,
    "INSERT INTO folders (name, position, created_at)"
    " VALUES (?1, (SELECT ifnull (max (position) + 1, 0) FROM folders), ?2)",
    error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, clean, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, loom_time_now_ms ());
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      set_folder_write_error (self, clean, error);
      return NULL;
    }

  return load_folder (self, "f.id = ?1", sqlite3_last_insert_rowid (self->db), NULL, error);
}

static gboolean
require_folder (LoomStore *self,
                gint64     folder_id,
                GError   **error)
{
  g_autoptr (LoomFolder) folder = load_folder (self, "f.id = ?1", folder_id, NULL, error);
  return folder != NULL;
}

gboolean
loom_store_rename_folder (LoomStore  *self,
                          gint64      folder_id,
                          const char *name,
                          GError    **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;
  g_autofree char *clean = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  if (!(clean = clean_name (name, error)) || !require_folder (self, folder_id, error))
    return FALSE;
  if (!(stmt = loom_store_prepare (self, "UPDATE folders SET name = ?2 WHERE id = ?1", error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, folder_id);
  sqlite3_bind_text (stmt, 2, clean, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      set_folder_write_error (self, clean, error);
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_delete_folder (LoomStore *self,
                          gint64     folder_id,
                          guint     *n_released,
                          GError   **error)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  if (!require_folder (self, folder_id, error) || !loom_store_begin (self, error))
    return FALSE;

  /* Count every session in it, trashed ones too: all of them leave the folder. */
  stmt = loom_store_prepare (self, "UPDATE sessions SET folder_id = NULL WHERE folder_id = ?1",
                             error);
  if (stmt == NULL)
    goto fail;
  sqlite3_bind_int64 (stmt, 1, folder_id);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "empty the folder");
      goto fail;
    }
  if (n_released != NULL)
    *n_released = (guint)sqlite3_changes (self->db);
  g_clear_pointer (&stmt, sqlite3_finalize);

  if (!(stmt = loom_store_prepare (self, "DELETE FROM folders WHERE id = ?1", error)))
    goto fail;
  sqlite3_bind_int64 (stmt, 1, folder_id);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "delete the folder");
      goto fail;
    }

  return loom_store_commit (self, error);

fail:
  loom_store_rollback (self);
  return FALSE;
}

gboolean
loom_store_reorder_folder (LoomStore *self,
                           gint64     folder_id,
                           guint      position,
                           GError   **error)
{
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (GPtrArray) order = NULL;
  g_autoptr (sqlite3_stmt) stmt = NULL;
  LoomFolder *moving = NULL;
  guint       n;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  if (!loom_store_begin (self, error))
    return FALSE;
  if (!(folders = loom_store_list_folders (self, error)))
    goto fail;

  n = g_list_model_get_n_items (folders);
  order = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      LoomFolder *folder = g_list_model_get_item (folders, i);

      if (loom_folder_get_id (folder) == folder_id)
        moving = folder;
      else
        g_ptr_array_add (order, folder);
    }
  if (moving == NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No folder with id %" G_GINT64_FORMAT,
                   folder_id);
      goto fail;
    }
  g_ptr_array_insert (order, (int)MIN (position, order->len), moving);

  if (!(stmt = loom_store_prepare (self, "UPDATE folders SET position = ?2 WHERE id = ?1", error)))
    goto fail;
  for (guint i = 0; i < order->len; i++)
    {
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, loom_folder_get_id (g_ptr_array_index (order, i)));
      sqlite3_bind_int64 (stmt, 2, i);
      if (sqlite3_step (stmt) != SQLITE_DONE)
        {
          loom_store_set_error (self, error, "reorder folders");
          goto fail;
        }
    }
  return loom_store_commit (self, error);

fail:
  loom_store_rollback (self);
  return FALSE;
}
