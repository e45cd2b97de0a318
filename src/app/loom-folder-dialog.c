/* loom-folder-dialog.c — names a new folder, or renames one.
 *
 * Folder names are unique regardless of case (as the store compares them), so a name that is
 * taken is said so while it is typed, rather than refused after the fact.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-folder.h"
#include "loom-folder-dialog.h"

struct _LoomFolderDialog
{
  AdwMessageDialog parent_instance;

  gint64     folder_id;
  /* The names of the other folders, stripped. */
  GPtrArray *taken;

  GtkLabel    *error_label;
  AdwEntryRow *name_row;
};

G_DEFINE_FINAL_TYPE (LoomFolderDialog, loom_folder_dialog, ADW_TYPE_MESSAGE_DIALOG)

static gboolean
is_taken (LoomFolderDialog *self,
          const char       *name)
{
  for (guint i = 0; i < self->taken->len; i++)
    {
      /* SQLite's NOCASE folds ASCII only; so does this. */
      if (g_ascii_strcasecmp (g_ptr_array_index (self->taken, i), name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
on_name_changed_cb (LoomFolderDialog *self,
                    GtkEditable      *editable)
{
  g_autofree char *name = NULL;
  g_autofree char *error = NULL;
  gboolean         taken;

  g_assert (LOOM_IS_FOLDER_DIALOG (self));

  name = g_strstrip (g_strdup (gtk_editable_get_text (editable)));
  taken = is_taken (self, name);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "save",
                                           *name != '\0' && !taken);

  if (taken)
    {
      error = g_strdup_printf (_ ("A folder named “%s” already exists"), name);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_row), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");
    }
  gtk_label_set_label (self->error_label, error);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), taken);
}

static void
loom_folder_dialog_map (GtkWidget *widget)
{
  LoomFolderDialog *self = LOOM_FOLDER_DIALOG (widget);

  GTK_WIDGET_CLASS (loom_folder_dialog_parent_class)->map (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
  gtk_editable_select_region (GTK_EDITABLE (self->name_row), 0, -1);
}

static void
loom_folder_dialog_dispose (GObject *object)
{
  LoomFolderDialog *self = LOOM_FOLDER_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_FOLDER_DIALOG);
  g_clear_pointer (&self->taken, g_ptr_array_unref);

  G_OBJECT_CLASS (loom_folder_dialog_parent_class)->dispose (object);
}

static void
loom_folder_dialog_class_init (LoomFolderDialogClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_folder_dialog_dispose;

  widget_class->map = loom_folder_dialog_map;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-folder-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomFolderDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, LoomFolderDialog, name_row);
  gtk_widget_class_bind_template_callback (widget_class, on_name_changed_cb);
}

static void
loom_folder_dialog_init (LoomFolderDialog *self)
{
  self->taken = g_ptr_array_new_with_free_func (g_free);

  gtk_widget_init_template (GTK_WIDGET (self));
}

LoomFolderDialog *
loom_folder_dialog_new (GtkWindow  *parent,
                        GListModel *folders,
                        gint64      folder_id)
{
  LoomFolderDialog *self;
  const char       *current = NULL;
  guint             n_folders;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (folders), NULL);

  self = g_object_new (LOOM_TYPE_FOLDER_DIALOG, "transient-for", parent, NULL);
  self->folder_id = folder_id;

  n_folders = g_list_model_get_n_items (folders);
  for (guint i = 0; i < n_folders; i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);

      /* Renaming may change only the case of the folder's own name. */
      if (loom_folder_get_id (folder) == folder_id)
        current = loom_folder_get_name (folder);
      else
        g_ptr_array_add (self->taken, g_strstrip (g_strdup (loom_folder_get_name (folder))));
    }

  if (folder_id > 0)
    {
      adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), _ ("Rename Folder"));
      adw_message_dialog_set_response_label (ADW_MESSAGE_DIALOG (self), "save", _ ("_Rename"));
    }
  loom_folder_dialog_set_name (self, current);
  /* Setting the same (empty) text emits nothing: check it once anyway. */
  on_name_changed_cb (self, GTK_EDITABLE (self->name_row));

  return self;
}

gint64
loom_folder_dialog_get_folder_id (LoomFolderDialog *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER_DIALOG (self), 0);

  return self->folder_id;
}

const char *
loom_folder_dialog_get_name (LoomFolderDialog *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER_DIALOG (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->name_row));
}

void
loom_folder_dialog_set_name (LoomFolderDialog *self,
                             const char       *name)
{
  g_return_if_fail (LOOM_IS_FOLDER_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name != NULL ? name : "");
}
