/* loom-recovery-key-dialog.c — the recovery key, shown and asked for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-recovery-key-dialog.h"

/* ——— Shown ——— */

static void
on_copy_clicked (GtkButton *button,
                 gpointer   user_data)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)),
                          g_object_get_data (G_OBJECT (button), "loom-recovery-key"));
  gtk_button_set_label (button, _ ("Copied"));
}

/* Five groups a line: a line break never falls inside a group, nor leaves a hyphen at the end
 * of a line for a person to copy down as part of the key. */
static char *
layout_in_lines (const char *text)
{
  char   **groups = g_strsplit (text, "-", -1);
  GString *lines = g_string_new (NULL);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (lines, i % 5 == 0 ? '\n' : '-');
      g_string_append (lines, groups[i]);
    }
  /* The groups are the key too: wiped. */
  for (guint i = 0; groups[i] != NULL; i++)
    loom_backup_key_free_text (groups[i]);
  g_free (groups);
  return g_string_free (lines, FALSE);
}

AdwMessageDialog *
loom_recovery_key_dialog_show (GtkWindow           *parent,
                               const LoomBackupKey *key)
{
  GtkWidget *dialog;
  GtkWidget *box;
  GtkWidget *label;
  GtkWidget *copy;
  char      *text;
  char      *shown;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  dialog = adw_message_dialog_new (
    parent, _ ("Your Recovery Key"),
    _ ("Write it down and keep it somewhere safe, away from this computer. With it alone, a new "
       "computer can open every backup; without it, backups can only be opened here."));

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  text = loom_backup_key_dup_recovery (key);
  shown = layout_in_lines (text);
  label = gtk_label_new (shown);
  /* The label keeps its own copy; ours is wiped. */
  loom_backup_key_free_text (shown);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "title-4");
  gtk_accessible_update_property (GTK_ACCESSIBLE (label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Recovery key"), -1);
  gtk_box_append (GTK_BOX (box), label);

  copy = gtk_button_new_with_mnemonic (_ ("_Copy"));
  gtk_widget_set_halign (copy, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (copy, "pill");
  gtk_accessible_update_property (GTK_ACCESSIBLE (copy), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Copy the recovery key"), -1);
  /* Copied as one line, the form the restore reads; wiped with the button. */
  g_object_set_data_full (G_OBJECT (copy), "loom-recovery-key", text,
                          (GDestroyNotify)loom_backup_key_free_text);
  g_signal_connect (copy, "clicked", G_CALLBACK (on_copy_clicked), NULL);
  gtk_box_append (GTK_BOX (box), copy);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close",
                                   _ ("I Have Written It _Down"));
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "close",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
  return ADW_MESSAGE_DIALOG (dialog);
}

/* ——— Asked for ——— */

typedef struct
{
  GtkEntry       *entry;
  GtkLabel       *error_label;
  GtkCheckButton *keep_check;
  LoomBackupKey  *key; /* what the entry reads as, while it is a key */
} AskData;

static void
ask_data_free (gpointer data)
{
  AskData *ask = data;

  g_clear_pointer (&ask->key, loom_backup_key_free);
  g_clear_object (&ask->entry);
  g_clear_object (&ask->error_label);
  g_clear_object (&ask->keep_check);
  g_free (ask);
}

/* Checked as it is typed: the response can only be given to a key, and the checksum's error
 * (a typo) is said at once. */
static void
on_entry_changed (GtkEditable *editable,
                  GTask       *task)
{
  AskData    *ask = g_task_get_task_data (task);
  GtkWidget  *dialog = gtk_widget_get_ancestor (GTK_WIDGET (editable), ADW_TYPE_MESSAGE_DIALOG);
  const char *text = gtk_editable_get_text (editable);
  g_autoptr (GError) error = NULL;

  g_clear_pointer (&ask->key, loom_backup_key_free);
  if (text[0] != '\0')
    ask->key = loom_backup_key_new_from_recovery (text, &error);
  gtk_label_set_text (ask->error_label, error != NULL ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (ask->error_label), error != NULL);
  if (dialog != NULL)
    adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "use", ask->key != NULL);
}

static void
on_ask_response (AdwMessageDialog *dialog,
                 const char       *response,
                 GTask            *task)
{
  AskData *ask = g_task_get_task_data (task);

  g_signal_handlers_disconnect_by_data (ask->entry, task);
  g_signal_handlers_disconnect_by_data (dialog, task);
  if (g_str_equal (response, "use") && ask->key != NULL)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                             _ ("No recovery key was given"));
  g_object_unref (task);
}

void
loom_recovery_key_ask_async (GtkWindow          *parent,
                             const char *const  *key_ids,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  GTask           *task = g_task_new (NULL, cancellable, callback, user_data);
  AskData         *ask = g_new0 (AskData, 1);
  GtkWidget       *dialog;
  GtkWidget       *box;
  GtkWidget       *entry;
  GtkWidget       *error_label;
  GtkWidget       *keep;
  g_autofree char *body = NULL;

  g_task_set_source_tag (task, loom_recovery_key_ask_async);
  g_task_set_task_data (task, ask, ask_data_free);

  if (key_ids != NULL && key_ids[0] != NULL)
    {
      g_autofree char *ids = g_strjoinv (", ", (char **)key_ids);

      /* Translators: %s: the ids of backup keys, "3f2a9c0d1e4b5a6f". */
      body = g_strdup_printf (_ ("These backups were encrypted with a backup key that is not in "
                                 "this computer’s keyring (%s). Type the recovery key you wrote "
                                 "down when it was created."),
                              ids);
    }
  else
    {
      body = g_strdup (_ ("Type the recovery key you wrote down when the backup key was created."));
    }

  dialog = adw_message_dialog_new (parent, _ ("Recovery Key Needed"), body);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), "XXXX-XXXX-XXXX-…");
  gtk_widget_add_css_class (entry, "monospace");
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Recovery key"), -1);
  gtk_box_append (GTK_BOX (box), entry);
  error_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (error_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (error_label), 0.0);
  gtk_widget_add_css_class (error_label, "error");
  gtk_widget_add_css_class (error_label, "caption");
  gtk_widget_set_visible (error_label, FALSE);
  gtk_box_append (GTK_BOX (box), error_label);
  keep = gtk_check_button_new_with_mnemonic (_ ("_Keep this key in the keyring"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (keep), TRUE);
  gtk_box_append (GTK_BOX (box), keep);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "use",
                                    _ ("_Restore"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "use",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "use", FALSE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "use");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  ask->entry = g_object_ref (GTK_ENTRY (entry));
  ask->error_label = g_object_ref (GTK_LABEL (error_label));
  ask->keep_check = g_object_ref (GTK_CHECK_BUTTON (keep));
  g_signal_connect (entry, "changed", G_CALLBACK (on_entry_changed), task);
  g_signal_connect (dialog, "response", G_CALLBACK (on_ask_response), task);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

LoomBackupKey *
loom_recovery_key_ask_finish (GAsyncResult *result,
                              gboolean     *keep,
                              GError      **error)
{
  AskData *ask;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_recovery_key_ask_async,
                        NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  ask = g_task_get_task_data (G_TASK (result));
  if (keep != NULL)
    *keep = gtk_check_button_get_active (ask->keep_check);
  return g_steal_pointer (&ask->key);
}
