/* loom-rename-dialog.c — renames a session under the title convention.
 *
 * A title is `<descriptive name> - YYYY-MM-DD`, the date being when the session started. The
 * dialog edits the name alone and shows the date beside it, so that a rename cannot lose or
 * garble the date; it shows the whole title the session will get as the name is typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-naming.h"
#include "loom-rename-dialog.h"

struct _LoomRenameDialog
{
  AdwMessageDialog parent_instance;

  LoomSession *session;
  char        *date;

  GtkLabel     *date_label;
  AdwActionRow *date_row;
  AdwEntryRow  *name_row;
  GtkLabel     *preview_label;
};

G_DEFINE_FINAL_TYPE (LoomRenameDialog, loom_rename_dialog, ADW_TYPE_MESSAGE_DIALOG)

static void
on_name_changed_cb (LoomRenameDialog *self,
                    GtkEditable      *editable)
{
  g_autofree char *title = NULL;
  g_autofree char *preview = NULL;

  g_assert (LOOM_IS_RENAME_DIALOG (self));

  title = loom_rename_dialog_dup_title (self);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "rename", title != NULL);

  /* Translators: %s is the whole title a session will get, name and date. */
  preview = title != NULL ? g_strdup_printf (_ ("New title: %s"), title) : NULL;
  gtk_label_set_label (self->preview_label, preview);
  gtk_widget_set_visible (GTK_WIDGET (self->preview_label), preview != NULL);
}

/* The name is there to be retyped or touched up: it starts out focused and selected. */
static void
loom_rename_dialog_map (GtkWidget *widget)
{
  LoomRenameDialog *self = LOOM_RENAME_DIALOG (widget);

  GTK_WIDGET_CLASS (loom_rename_dialog_parent_class)->map (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
  gtk_editable_select_region (GTK_EDITABLE (self->name_row), 0, -1);
}

static void
loom_rename_dialog_dispose (GObject *object)
{
  LoomRenameDialog *self = LOOM_RENAME_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_RENAME_DIALOG);
  g_clear_object (&self->session);
  g_clear_pointer (&self->date, g_free);

  G_OBJECT_CLASS (loom_rename_dialog_parent_class)->dispose (object);
}

static void
loom_rename_dialog_class_init (LoomRenameDialogClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_rename_dialog_dispose;

  widget_class->map = loom_rename_dialog_map;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-rename-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomRenameDialog, date_label);
  gtk_widget_class_bind_template_child (widget_class, LoomRenameDialog, date_row);
  gtk_widget_class_bind_template_child (widget_class, LoomRenameDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, LoomRenameDialog, preview_label);
  gtk_widget_class_bind_template_callback (widget_class, on_name_changed_cb);
}

static void
loom_rename_dialog_init (LoomRenameDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

LoomRenameDialog *
loom_rename_dialog_new (GtkWindow   *parent,
                        LoomSession *session,
                        const char  *first_prompt)
{
  LoomRenameDialog *self;
  g_autofree char  *name = NULL;
  const char       *title;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LOOM_IS_SESSION (session), NULL);

  self = g_object_new (LOOM_TYPE_RENAME_DIALOG, "transient-for", parent, NULL);
  self->session = g_object_ref (session);

  title = loom_session_get_title (session);
  self->date = loom_naming_session_date (loom_session_get_created_at (session), title);
  name = loom_naming_propose_name (title, first_prompt);

  if (self->date != NULL)
    {
      adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self),
                                   _ ("Titles are a descriptive name followed by the date the "
                                      "session started. Only the name changes."));
      gtk_label_set_label (self->date_label, self->date);
    }
  else
    {
      adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self),
                                   _ ("The date this session started is not known, so its title "
                                      "is the name alone."));
      gtk_widget_set_visible (GTK_WIDGET (self->date_row), FALSE);
    }

  loom_rename_dialog_set_name (self, name);
  /* Setting the same text again emits nothing: make sure the preview is filled in. */
  on_name_changed_cb (self, GTK_EDITABLE (self->name_row));

  return self;
}

LoomSession *
loom_rename_dialog_get_session (LoomRenameDialog *self)
{
  g_return_val_if_fail (LOOM_IS_RENAME_DIALOG (self), NULL);

  return self->session;
}

const char *
loom_rename_dialog_get_name (LoomRenameDialog *self)
{
  g_return_val_if_fail (LOOM_IS_RENAME_DIALOG (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->name_row));
}

void
loom_rename_dialog_set_name (LoomRenameDialog *self,
                             const char       *name)
{
  g_return_if_fail (LOOM_IS_RENAME_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name != NULL ? name : "");
}

const char *
loom_rename_dialog_get_date (LoomRenameDialog *self)
{
  g_return_val_if_fail (LOOM_IS_RENAME_DIALOG (self), NULL);

  return self->date;
}

char *
loom_rename_dialog_dup_title (LoomRenameDialog *self)
{
  g_return_val_if_fail (LOOM_IS_RENAME_DIALOG (self), NULL);

  return loom_naming_build_title (loom_rename_dialog_get_name (self), self->date);
}
