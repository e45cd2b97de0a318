/* loom-window-backup.c — the window's way to the archive sweep and to the restore:
 * win.archive-old-sessions (Ctrl+Alt+A: Ctrl+Shift+A is the lists' Unselect All) and
 * win.restore-backup (folders: a folder of backups, or package folders) and
 * win.restore-backup-files (.loombackup files: the one on a USB stick), all in the main menu.
 *
 * Both run in windows of their own (loom-sweep-assistant.h, loom-restore-window.h), which say
 * when they changed the store; the window then reads its list again: archived sessions leave
 * it, restored ones come in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-restore-window.h"
#include "loom-sweep-assistant.h"
#include "loom-window-private.h"

static void
on_store_changed (LoomWindow *self)
{
  loom_window_reload (self);
}

static void
archive_old_sessions_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  LoomStore  *store = loom_window_get_store (self);
  /* Its own, not the window's: those delay their writes until the window closes, and the
   * remembered backup folder must be there at the next sweep. */
  g_autoptr (GSettings) settings = NULL;
  LoomSweepAssistant *assistant;

  if (store == NULL)
    return;

  settings = g_settings_new (APP_ID);
  assistant = loom_sweep_assistant_new (GTK_WINDOW (self), store, settings);
  g_signal_connect_object (assistant, "swept", G_CALLBACK (on_store_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (assistant));
}

static void
on_backups_chosen (LoomWindow           *self,
                   int                   response,
                   GtkFileChooserNative *chooser)
{
  g_autoptr (GListModel) files = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) paths = NULL;
  LoomStore *store = loom_window_get_store (self);

  if (response == GTK_RESPONSE_ACCEPT && store != NULL)
    {
      files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        {
          g_autoptr (GFile) file = g_list_model_get_item (files, i);
          g_autofree char *path = g_file_get_path (file);

          if (path != NULL)
            g_strv_builder_add (builder, path);
        }
      paths = g_strv_builder_end (builder);
      if (paths[0] != NULL)
        loom_window_restore_backups (self, (const char *const *)paths);
    }
  g_object_set_data (G_OBJECT (self), "loom-backup-chooser", NULL);
}

/* A chooser of several folders, or of several .loombackup files, whose choice goes to the
 * restore window. Native, so that in a sandbox the portal grants access to what is chosen. */
static void
choose_backups (LoomWindow *self,
                gboolean    files)
{
  GtkFileChooserNative *chooser;

  if (loom_window_get_store (self) == NULL ||
      g_object_get_data (G_OBJECT (self), "loom-backup-chooser") != NULL)
    return;

  chooser = gtk_file_chooser_native_new (
    files ? _ ("Restore from Backup Files") : _ ("Restore from Backup"), GTK_WINDOW (self),
    files ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Restore"),
    _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  if (files)
    {
      g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, _ ("Encrypted Backups"));
      gtk_file_filter_add_suffix (filter, "loombackup");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
    }
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_backups_chosen), self,
                           G_CONNECT_SWAPPED);
  /* The window holds the chooser while it is open. */
  g_object_set_data_full (G_OBJECT (self), "loom-backup-chooser", chooser, g_object_unref);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* A folder of backups, or the package folders themselves: both are folders. */
static void
restore_backup_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  choose_backups (LOOM_WINDOW (widget), FALSE);
}

/* One encrypted backup, or a few, picked as files: a folder chooser cannot pick them. */
static void
restore_backup_files_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  choose_backups (LOOM_WINDOW (widget), TRUE);
}

void
loom_window_restore_backups (LoomWindow        *self,
                             const char *const *paths)
{
  LoomRestoreWindow *restore;
  LoomStore         *store;

  g_return_if_fail (LOOM_IS_WINDOW (self));
  g_return_if_fail (paths != NULL && paths[0] != NULL);

  store = loom_window_get_store (self);
  if (store == NULL)
    return;
  restore = loom_restore_window_new (GTK_WINDOW (self), store, paths);
  g_signal_connect_object (restore, "restored", G_CALLBACK (on_store_changed), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (restore));
}

void
loom_window_backup_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.archive-old-sessions", NULL,
                                   archive_old_sessions_action);
  gtk_widget_class_install_action (widget_class, "win.restore-backup", NULL, restore_backup_action);
  gtk_widget_class_install_action (widget_class, "win.restore-backup-files", NULL,
                                   restore_backup_files_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK | GDK_ALT_MASK,
                                       "win.archive-old-sessions", NULL);
}
