/* loom-window-folder-actions.c — the window's folder actions: new, rename, delete, reorder.
 *
 * Installed on LoomWindow's class: folder.new, folder.rename (x: a folder id), folder.delete
 * (x), folder.move-up (x) and folder.move-down (x); the sidebar's rows forward their menu's
 * items to them. Each write runs in the store's worker (loom-store-async.h), and the window is
 * read again once it lands. A folder is moved from where it is when its move is written, not
 * where the sidebar showed it: moves asked in a row wait for the one before, so that pressing
 * Move Up twice moves the folder up twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-error.h"
#include "loom-folder-dialog.h"
#include "loom-store-async.h"
#include "loom-window-actions.h"
#include "loom-window-private.h"

char *
loom_window_dup_folder_name (LoomWindow *self,
                             gint64      folder_id)
{
  LoomStore *store = loom_window_get_store (self);
  g_autoptr (GListModel) folders = NULL;
  guint n_folders;

  g_assert (LOOM_IS_WINDOW (self));

  folders = store != NULL ? loom_store_list_folders (store, NULL) : NULL;
  n_folders = folders != NULL ? g_list_model_get_n_items (folders) : 0;
  for (guint i = 0; i < n_folders; i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);

      if (loom_folder_get_id (folder) == folder_id)
        return g_strdup (loom_folder_get_name (folder));
    }
  return NULL;
}

/* ——— New and rename ——— */

/* Shows what failed, if anything, and reads the window again. */
static void
end_folder_write (GWeakRef     *ref,
                  const char   *failure,
                  const GError *error)
{
  g_autoptr (LoomWindow) self = loom_window_end_write (ref);

  if (self == NULL)
    return;

  if (error != NULL)
    loom_window_show_error (self, failure, error);
  loom_window_reload (self);
}

static void
on_folder_created_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;

  /* A new folder leaves the selection alone: the sessions on show are the ones about to be
   * dragged into it. */
  folder = loom_store_create_folder_finish (LOOM_STORE (object), result, &error);
  end_folder_write (user_data, _ ("Could not create the folder"), error);
}

static void
on_folder_renamed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr (GError) error = NULL;

  loom_store_rename_folder_finish (LOOM_STORE (object), result, &error);
  end_folder_write (user_data, _ ("Could not rename the folder"), error);
}

static void
on_folder_response_cb (LoomWindow       *self,
                       const char       *response,
                       LoomFolderDialog *dialog)
{
  gint64      folder_id = loom_folder_dialog_get_folder_id (dialog);
  const char *name = loom_folder_dialog_get_name (dialog);
  LoomStore  *store;

  if (!g_str_equal (response, "save") || (store = loom_window_get_store (self)) == NULL)
    return;

  if (folder_id == 0)
    loom_store_create_folder_async (store, name, NULL, on_folder_created_cb,
                                    loom_window_begin_write (self));
  else if (folder_id > 0)
    loom_store_rename_folder_async (store, folder_id, name, NULL, on_folder_renamed_cb,
                                    loom_window_begin_write (self));
}

static void
show_folder_dialog (LoomWindow *self,
                    gint64      folder_id)
{
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (GError) error = NULL;
  LoomStore        *store = loom_window_get_store (self);
  LoomFolderDialog *dialog;

  if (store == NULL)
    return;

  if (!(folders = loom_store_list_folders (store, &error)))
    {
      loom_window_show_error (self, _ ("Could not list the folders"), error);
      return;
    }

  dialog = loom_folder_dialog_new (GTK_WINDOW (self), folders, folder_id);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_folder_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
folder_new_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  show_folder_dialog (LOOM_WINDOW (widget), 0);
}

static void
folder_rename_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  gint64 folder_id = g_variant_get_int64 (parameter);

  if (folder_id > 0)
    show_folder_dialog (LOOM_WINDOW (widget), folder_id);
}

/* ——— Delete ——— */

static void
on_folder_deleted_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr (GError) error = NULL;

  loom_store_delete_folder_finish (LOOM_STORE (object), result, NULL, &error);
  end_folder_write (user_data, _ ("Could not delete the folder"), error);
}

static void
on_folder_delete_response_cb (LoomWindow       *self,
                              const char       *response,
                              AdwMessageDialog *dialog)
{
  gint64    *folder_id = g_object_get_data (G_OBJECT (dialog), "loom-folder-id");
  LoomStore *store;

  if (!g_str_equal (response, "delete") || (store = loom_window_get_store (self)) == NULL)
    return;

  loom_store_delete_folder_async (store, *folder_id, NULL, on_folder_deleted_cb,
                                  loom_window_begin_write (self));
}

static void
folder_delete_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LoomWindow      *self = LOOM_WINDOW (widget);
  gint64           folder_id = g_variant_get_int64 (parameter);
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  LoomStore       *store = loom_window_get_store (self);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;
  GtkWidget       *dialog;
  guint            n_sessions = 0;

  if (store == NULL || folder_id <= 0)
    return;

  /* Every session filed there leaves it, archived and trashed ones too. */
  query.collection = LOOM_COLLECTION_EVERYTHING;
  query.folder_id = folder_id;
  if (!(name = loom_window_dup_folder_name (self, folder_id)) ||
      !loom_store_count_sessions (store, &query, &n_sessions, &error))
    {
      if (error == NULL)
        g_set_error (&error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                     "No folder with id %" G_GINT64_FORMAT, folder_id);
      loom_window_show_error (self, _ ("Could not delete the folder"), error);
      return;
    }

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _ ("Delete Folder?"), NULL);
  if (n_sessions == 0)
    adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                    _ ("“%s” is empty. No session is affected."), name);
  else
    adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                    ngettext ("The %'u session in “%s” is kept and moves out "
                                              "of the folder.",
                                              "The %'u sessions in “%s” are kept and move out "
                                              "of the folder.",
                                              n_sessions),
                                    n_sessions, name);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "delete",
                                    _ ("_Delete"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "loom-folder-id",
                          g_memdup2 (&folder_id, sizeof folder_id), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_folder_delete_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ——— Reorder ——— */

typedef struct
{
  gint64 folder_id;
  int    step;
} FolderMove;

static void start_folder_move (LoomWindow *self);

static void
on_folder_moved_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr (LoomWindow) self = loom_window_end_write (user_data);
  g_autoptr (GError) error = NULL;
  FolderMove move;
  GtkWidget *row;

  loom_store_reorder_folder_finish (LOOM_STORE (object), result, &error);
  if (self == NULL)
    return;

  move = g_array_index (self->folder_moves, FolderMove, 0);
  g_array_remove_index (self->folder_moves, 0);
  if (error != NULL)
    loom_window_show_error (self, _ ("Could not move the folder"), error);

  loom_window_reload (self);

  /* The row was made anew in its new place; the keyboard stays with it, so that pressing
   * Move Up again from the menu key moves the same folder on. */
  row = loom_sidebar_get_folder_row (self->sidebar, move.folder_id);
  if (row != NULL)
    gtk_widget_grab_focus (row);

  start_folder_move (self);
}

/* Writes the first move waiting, from where its folder is now; one at the end of the list it
 * moves towards, or gone, is dropped. */
static void
start_folder_move (LoomWindow *self)
{
  LoomStore *store = loom_window_get_store (self);

  while (self->folder_moves->len > 0)
    {
      FolderMove *move = &g_array_index (self->folder_moves, FolderMove, 0);
      g_autoptr (GListModel) folders = NULL;
      g_autoptr (GError) error = NULL;
      guint n_folders;

      if (store == NULL || !(folders = loom_store_list_folders (store, &error)))
        {
          if (error != NULL)
            loom_window_show_error (self, _ ("Could not move the folder"), error);
          g_array_set_size (self->folder_moves, 0);
          return;
        }

      n_folders = g_list_model_get_n_items (folders);
      for (guint i = 0; i < n_folders; i++)
        {
          g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);

          if (loom_folder_get_id (folder) != move->folder_id)
            continue;
          if ((move->step < 0 && i == 0) || (move->step > 0 && i + 1 == n_folders))
            break;
          loom_store_reorder_folder_async (store, move->folder_id, i + move->step, NULL,
                                           on_folder_moved_cb, loom_window_begin_write (self));
          return;
        }
      g_array_remove_index (self->folder_moves, 0);
    }
}

static void
folder_move_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  FolderMove  move;
  gboolean    idle;

  move.folder_id = g_variant_get_int64 (parameter);
  move.step = g_str_equal (action_name, "folder.move-up") ? -1 : 1;

  if (loom_window_get_store (self) == NULL)
    return;

  if (self->folder_moves == NULL)
    self->folder_moves = g_array_new (FALSE, FALSE, sizeof (FolderMove));
  idle = self->folder_moves->len == 0;
  g_array_append_val (self->folder_moves, move);
  if (idle)
    start_folder_move (self);
}

/* ——— Installing and updating ——— */

void
loom_window_folder_actions_class_init (GtkWidgetClass *widget_class)
{
  g_assert (g_type_is_a (G_TYPE_FROM_CLASS (widget_class), LOOM_TYPE_WINDOW));

  gtk_widget_class_install_action (widget_class, "folder.new", NULL, folder_new_action);
  gtk_widget_class_install_action (widget_class, "folder.rename", "x", folder_rename_action);
  gtk_widget_class_install_action (widget_class, "folder.delete", "x", folder_delete_action);
  gtk_widget_class_install_action (widget_class, "folder.move-up", "x", folder_move_action);
  gtk_widget_class_install_action (widget_class, "folder.move-down", "x", folder_move_action);
}

void
loom_window_folder_actions_update (LoomWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean   has_store;

  g_assert (LOOM_IS_WINDOW (self));

  has_store = loom_window_get_store (self) != NULL;
  gtk_widget_action_set_enabled (widget, "folder.new", has_store);
  gtk_widget_action_set_enabled (widget, "folder.rename", has_store);
  gtk_widget_action_set_enabled (widget, "folder.delete", has_store);
  gtk_widget_action_set_enabled (widget, "folder.move-up", has_store);
  gtk_widget_action_set_enabled (widget, "folder.move-down", has_store);
}
