/* loom-move-dialog.c — "Move to…": where the selected sessions go, chosen from a list.
 *
 * The keyboard and menu way to do what dragging onto the sidebar does: one list of the places a
 * session can be — no folder, each folder, Archived, Trash — where the arrow keys move, Enter
 * chooses and Escape cancels. The sessions' present place is marked with a check.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-folder.h"
#include "loom-move-dialog.h"

struct _LoomMoveDialog
{
  AdwWindow parent_instance;

  GStrv uuids;

  GtkListBox     *list_box;
  AdwWindowTitle *window_title;
};

G_DEFINE_FINAL_TYPE (LoomMoveDialog, loom_move_dialog, ADW_TYPE_WINDOW)

enum
{
  TARGET_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Each row carries its place. */
#define TARGET_COLLECTION_KEY "loom-target-collection"
#define TARGET_FOLDER_KEY     "loom-target-folder"

static void
on_row_activated_cb (LoomMoveDialog *self,
                     GtkListBoxRow  *row,
                     GtkListBox     *list_box)
{
  gint64 *folder_id;

  g_assert (LOOM_IS_MOVE_DIALOG (self));

  folder_id = g_object_get_data (G_OBJECT (row), TARGET_FOLDER_KEY);
  loom_move_dialog_choose (
    self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), TARGET_COLLECTION_KEY)), *folder_id);
}

/* The keyboard starts in the list, where the choice is made, not on Cancel. */
static void
loom_move_dialog_map (GtkWidget *widget)
{
  LoomMoveDialog *self = LOOM_MOVE_DIALOG (widget);
  GtkListBoxRow  *first;

  GTK_WIDGET_CLASS (loom_move_dialog_parent_class)->map (widget);

  first = gtk_list_box_get_row_at_index (self->list_box, 0);
  if (first != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (first));
}

static void
loom_move_dialog_finalize (GObject *object)
{
  LoomMoveDialog *self = LOOM_MOVE_DIALOG (object);

  g_clear_pointer (&self->uuids, g_strfreev);

  G_OBJECT_CLASS (loom_move_dialog_parent_class)->finalize (object);
}

static void
loom_move_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), LOOM_TYPE_MOVE_DIALOG);

  G_OBJECT_CLASS (loom_move_dialog_parent_class)->dispose (object);
}

static void
loom_move_dialog_class_init (LoomMoveDialogClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_move_dialog_dispose;
  object_class->finalize = loom_move_dialog_finalize;

  widget_class->map = loom_move_dialog_map;

  /**
   * LoomMoveDialog::target-chosen:
   * @target: LOOM_COLLECTION_ALL (into @folder_id, 0 for none), ARCHIVED or TRASH, as a uint
   * @folder_id: the folder, or 0
   */
  signals[TARGET_CHOSEN] = g_signal_new ("target-chosen", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                         G_TYPE_UINT, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-move-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomMoveDialog, list_box);
  gtk_widget_class_bind_template_child (widget_class, LoomMoveDialog, window_title);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
loom_move_dialog_init (LoomMoveDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static void
add_row (LoomMoveDialog *self,
         const char     *icon_name,
         const char     *title,
         const char     *subtitle,
         LoomCollection  target,
         gint64          folder_id,
         gboolean        current)
{
  GtkWidget *row = adw_action_row_new ();
  /* The title says it all; the icon is decoration. */
  GtkWidget *icon = g_object_new (GTK_TYPE_IMAGE, "icon-name", icon_name, "accessible-role",
                                  GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);

  /* A folder's name is the user's text, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);

  if (current)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

      gtk_widget_set_tooltip_text (check, _ ("Where the sessions are now"));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), check);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                      _ ("Where the sessions are now"), -1);
    }

  g_object_set_data (G_OBJECT (row), TARGET_COLLECTION_KEY, GUINT_TO_POINTER (target));
  g_object_set_data_full (G_OBJECT (row), TARGET_FOLDER_KEY,
                          g_memdup2 (&folder_id, sizeof folder_id), g_free);
  gtk_list_box_append (self->list_box, row);
}

LoomMoveDialog *
loom_move_dialog_new (GtkWindow         *parent,
                      GListModel        *folders,
                      const char *const *uuids,
                      LoomCollection     current_collection,
                      gint64             current_folder_id)
{
  LoomMoveDialog  *self;
  g_autofree char *subtitle = NULL;
  guint            n_sessions, n_folders;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (folders), NULL);
  g_return_val_if_fail (uuids != NULL && uuids[0] != NULL, NULL);

  self = g_object_new (LOOM_TYPE_MOVE_DIALOG, "transient-for", parent, NULL);
  self->uuids = g_strdupv ((char **)uuids);

  n_sessions = g_strv_length (self->uuids);
  subtitle = g_strdup_printf (ngettext ("%'u session", "%'u sessions", n_sessions), n_sessions);
  adw_window_title_set_subtitle (self->window_title, subtitle);

  add_row (self, "view-list-bullet-symbolic", _ ("No Folder"), _ ("Listed in All Sessions alone"),
           LOOM_COLLECTION_ALL, 0,
           current_collection == LOOM_COLLECTION_ALL && current_folder_id == 0);

  n_folders = g_list_model_get_n_items (folders);
  for (guint i = 0; i < n_folders; i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);
      gint64 id = loom_folder_get_id (folder);

      add_row (self, "folder-symbolic", loom_folder_get_name (folder), NULL, LOOM_COLLECTION_ALL,
               id, current_collection == LOOM_COLLECTION_ALL && current_folder_id == id);
    }

  add_row (self, "package-x-generic-symbolic", _ ("Archived"), NULL, LOOM_COLLECTION_ARCHIVED, 0,
           current_collection == LOOM_COLLECTION_ARCHIVED);
  add_row (self, "user-trash-symbolic", _ ("Trash"), NULL, LOOM_COLLECTION_TRASH, 0,
           current_collection == LOOM_COLLECTION_TRASH);

  return self;
}

const char *const *
loom_move_dialog_get_uuids (LoomMoveDialog *self)
{
  g_return_val_if_fail (LOOM_IS_MOVE_DIALOG (self), NULL);

  return (const char *const *)self->uuids;
}

void
loom_move_dialog_choose (LoomMoveDialog *self,
                         LoomCollection  target,
                         gint64          folder_id)
{
  g_return_if_fail (LOOM_IS_MOVE_DIALOG (self));
  g_return_if_fail (target == LOOM_COLLECTION_ALL || target == LOOM_COLLECTION_ARCHIVED ||
                    target == LOOM_COLLECTION_TRASH);

  g_signal_emit (self, signals[TARGET_CHOSEN], 0, (guint)target, folder_id);
  gtk_window_close (GTK_WINDOW (self));
}
