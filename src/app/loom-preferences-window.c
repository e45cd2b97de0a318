/* loom-preferences-window.c — the preferences, each bound to its GSettings key.
 *
 * Every control writes its key as soon as it changes, as GNOME preferences do: there is no
 * Apply button, and the application follows the keys live.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-backup-key-task.h"
#include "loom-error.h"
#include "loom-preferences-window.h"
#include "loom-recovery-key-dialog.h"

struct _LoomPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings *settings;

  /* The keyring's calls (loom-backup-key-task.h), cancelled when the window goes. */
  GCancellable *key_cancellable;
  char         *key_id;   /* the backup key's, or NULL when there is none (or it is not known) */
  guint         key_busy; /* keyring calls under way */

  GtkSpinButton        *archive_after_days_spin;
  GtkImage             *backup_key_error_icon;
  AdwActionRow         *backup_key_row;
  AdwActionRow         *backup_folder_row;
  GtkFileChooserNative *backup_folder_chooser;
  GtkWidget            *clear_export_folder_button;
  AdwComboRow          *color_scheme_row;
  GtkWidget            *create_key_button;
  GtkSwitch            *encrypt_backups_switch;
  GtkSwitch            *keep_backups_switch;
  AdwActionRow         *export_folder_row;
  GtkFileChooserNative *export_folder_chooser;
  AdwPreferencesGroup  *extra_folders_group;
  GPtrArray            *extra_folder_rows; /* the rows added to extra_folders_group */
  GtkFileChooserNative *folder_chooser;
  GtkSwitch            *redact_secrets_switch;
  GtkWidget            *retry_key_button;
  GtkSwitch            *show_reasoning_switch;
  GtkWidget            *show_recovery_button;
  GtkSwitch            *watch_sources_switch;
};

G_DEFINE_FINAL_TYPE (LoomPreferencesWindow, loom_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum
{
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* In the order of the combo row's items. */
static const char *const color_schemes[] = { "default", "light", "dark" };

static gboolean
color_scheme_get_mapping (GValue   *value,
                          GVariant *variant,
                          gpointer  user_data)
{
  const char *scheme = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (color_schemes); i++)
    {
      if (g_str_equal (scheme, color_schemes[i]))
        {
          g_value_set_uint (value, i);
          return TRUE;
        }
    }

  return FALSE;
}

static GVariant *
color_scheme_set_mapping (const GValue       *value,
                          const GVariantType *expected_type,
                          gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  if (selected >= G_N_ELEMENTS (color_schemes))
    return NULL;

  return g_variant_new_string (color_schemes[selected]);
}

static void
rebuild_extra_folders (LoomPreferencesWindow *self)
{
  g_auto (GStrv) folders = g_settings_get_strv (self->settings, "extra-source-folders");

  for (guint i = 0; i < self->extra_folder_rows->len; i++)
    adw_preferences_group_remove (self->extra_folders_group,
                                  g_ptr_array_index (self->extra_folder_rows, i));
  g_ptr_array_set_size (self->extra_folder_rows, 0);

  for (guint i = 0; folders[i] != NULL; i++)
    {
      g_autofree char *name = g_path_get_basename (folders[i]);
      GtkWidget       *row = adw_action_row_new ();
      GtkWidget       *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *label = g_strdup_printf (_ ("Stop importing from “%s”"), folders[i]);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), folders[i]);
      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _ ("Remove"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                      -1);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "preferences.remove-folder");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", folders[i]);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);

      adw_preferences_group_add (self->extra_folders_group, row);
      g_ptr_array_add (self->extra_folder_rows, row);
    }
}

static void
on_extra_folders_changed (LoomPreferencesWindow *self)
{
  rebuild_extra_folders (self);
}

void
loom_preferences_window_add_folder (LoomPreferencesWindow *self,
                                    const char            *path)
{
  g_auto (GStrv) folders = NULL;
  g_autoptr (GStrvBuilder) builder = NULL;
  g_auto (GStrv) updated = NULL;

  g_return_if_fail (LOOM_IS_PREFERENCES_WINDOW (self));
  g_return_if_fail (path != NULL);

  folders = g_settings_get_strv (self->settings, "extra-source-folders");
  if (g_strv_contains ((const char *const *)folders, path))
    return;

  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **)folders);
  g_strv_builder_add (builder, path);
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "extra-source-folders", (const char *const *)updated);
}

static void
remove_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);
  const char            *path = g_variant_get_string (parameter, NULL);
  g_auto (GStrv) folders = g_settings_get_strv (self->settings, "extra-source-folders");
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) updated = NULL;

  for (guint i = 0; folders[i] != NULL; i++)
    if (!g_str_equal (folders[i], path))
      g_strv_builder_add (builder, folders[i]);
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "extra-source-folders", (const char *const *)updated);
}

static void
on_folder_chosen (LoomPreferencesWindow *self,
                  int                    response,
                  GtkFileChooserNative  *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        loom_preferences_window_add_folder (self, path);
    }
  g_clear_object (&self->folder_chooser);
}

static void
add_folder_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);

  if (self->folder_chooser != NULL)
    return;

  /* Native, so that in a sandbox the portal grants access to the folder chosen. */
  self->folder_chooser = gtk_file_chooser_native_new (_ ("Import Sessions From"), GTK_WINDOW (self),
                                                      GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                      _ ("_Add"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->folder_chooser), TRUE);
  g_signal_connect_object (self->folder_chooser, "response", G_CALLBACK (on_folder_chosen), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->folder_chooser));
}

/* ——— The export folder: the one the export assistant offers first ——— */

static void
update_export_folder (LoomPreferencesWindow *self)
{
  g_autofree char *folder = g_settings_get_string (self->settings, "export-folder");
  g_autofree char *escaped = g_markup_escape_text (folder, -1);

  adw_action_row_set_subtitle (self->export_folder_row,
                               folder[0] != '\0' ? escaped : _ ("Chosen at each export"));
  gtk_widget_set_visible (self->clear_export_folder_button, folder[0] != '\0');
}

static void
on_export_folder_chosen (LoomPreferencesWindow *self,
                         int                    response,
                         GtkFileChooserNative  *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        g_settings_set_string (self->settings, "export-folder", path);
    }
  g_clear_object (&self->export_folder_chooser);
}

static void
choose_export_folder_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);

  if (self->export_folder_chooser != NULL)
    return;

  self->export_folder_chooser = gtk_file_chooser_native_new (_ ("Export To"), GTK_WINDOW (self),
                                                             GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                             _ ("_Select"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->export_folder_chooser), TRUE);
  g_signal_connect_object (self->export_folder_chooser, "response",
                           G_CALLBACK (on_export_folder_chosen), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->export_folder_chooser));
}

static void
clear_export_folder_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);

  g_settings_set_string (self->settings, "export-folder", "");
}

/* ——— Backups: the folder sweeps write to, and the backup key ——— */

static void
update_backup_folder (LoomPreferencesWindow *self)
{
  g_autofree char *folder = g_settings_get_string (self->settings, "backup-folder");
  g_autofree char *escaped = g_markup_escape_text (folder, -1);

  adw_action_row_set_subtitle (self->backup_folder_row,
                               folder[0] != '\0' ? escaped : _ ("Not chosen"));
}

static void
on_backup_folder_chosen (LoomPreferencesWindow *self,
                         int                    response,
                         GtkFileChooserNative  *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        g_settings_set_string (self->settings, "backup-folder", path);
    }
  g_clear_object (&self->backup_folder_chooser);
}

static void
choose_backup_folder_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);

  if (self->backup_folder_chooser != NULL)
    return;

  self->backup_folder_chooser = gtk_file_chooser_native_new (_ ("Back Up To"), GTK_WINDOW (self),
                                                             GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                             _ ("_Select"), _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->backup_folder_chooser), TRUE);
  g_signal_connect_object (self->backup_folder_chooser, "response",
                           G_CALLBACK (on_backup_folder_chosen), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->backup_folder_chooser));
}

/* The key's row says what the keyring holds, or why it could not be asked; its buttons are
 * those that make sense then, and none while a call is under way. */
static void
show_key_status (LoomPreferencesWindow *self,
                 const GError          *error)
{
  gboolean known = error == NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->backup_key_error_icon), !known);
  gtk_widget_set_visible (self->retry_key_button, !known);
  /* An error is shown whole: its end says what to do. */
  adw_action_row_set_subtitle_lines (self->backup_key_row, known ? 3 : 0);
  if (!known)
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_action_row_set_subtitle (self->backup_key_row, escaped);
    }
  else if (self->key_id != NULL)
    {
      /* Translators: the backup key's id, 16 hex digits. */
      g_autofree char *text = g_strdup_printf (_ ("In the login keyring · %s"), self->key_id);

      adw_action_row_set_subtitle (self->backup_key_row, text);
    }
  else
    {
      adw_action_row_set_subtitle (self->backup_key_row, _ ("No backup key yet"));
    }

  gtk_widget_set_visible (self->create_key_button, known && self->key_id == NULL);
  gtk_widget_set_visible (self->show_recovery_button, known && self->key_id != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preferences.create-backup-key",
                                 self->key_busy == 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preferences.show-recovery-key",
                                 self->key_busy == 0);
}

static void
on_key_id_found (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr (LoomPreferencesWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *id = loom_backup_key_find_id_finish (result, &error);

  self->key_busy--;
  /* The window went while the keyring was asked: nothing is left to show it on. */
  if (g_cancellable_is_cancelled (self->key_cancellable))
    return;
  g_free (self->key_id);
  self->key_id = g_steal_pointer (&id);
  show_key_status (self, error);
}

void
loom_preferences_window_refresh_backup_key (LoomPreferencesWindow *self)
{
  g_return_if_fail (LOOM_IS_PREFERENCES_WINDOW (self));

  self->key_busy++;
  adw_action_row_set_subtitle (self->backup_key_row, _ ("Looking in the keyring…"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preferences.create-backup-key", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "preferences.show-recovery-key", FALSE);
  loom_backup_key_find_id_async (self->key_cancellable, on_key_id_found, g_object_ref (self));
}

const char *
loom_preferences_window_get_backup_key_id (LoomPreferencesWindow *self)
{
  g_return_val_if_fail (LOOM_IS_PREFERENCES_WINDOW (self), NULL);

  return self->key_id;
}

gboolean
loom_preferences_window_get_backup_key_busy (LoomPreferencesWindow *self)
{
  g_return_val_if_fail (LOOM_IS_PREFERENCES_WINDOW (self), FALSE);

  return self->key_busy > 0;
}

static void
refresh_backup_key_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);

  if (self->key_busy == 0)
    loom_preferences_window_refresh_backup_key (self);
}

/* A key just created, or loaded after the person confirmed: its recovery key is shown. */
static void
on_key_ready (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (LoomPreferencesWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomBackupKey) key = loom_backup_key_task_finish (result, NULL, &error);

  self->key_busy--;
  /* The window went while the keyring was asked: nothing is left to show it on. */
  if (g_cancellable_is_cancelled (self->key_cancellable))
    return;
  if (key != NULL)
    {
      g_free (self->key_id);
      self->key_id = g_strdup (loom_backup_key_get_id (key));
      loom_recovery_key_dialog_show (GTK_WINDOW (self), key);
    }
  show_key_status (self, error);
}

static void
create_backup_key_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);

  if (self->key_busy > 0)
    return;
  self->key_busy++;
  show_key_status (self, NULL);
  loom_backup_key_create_async (self->key_cancellable, on_key_ready, g_object_ref (self));
}

static void
on_show_recovery_confirmed (AdwMessageDialog      *dialog,
                            const char            *response,
                            LoomPreferencesWindow *self)
{
  if (!g_str_equal (response, "show") || self->key_busy > 0)
    return;
  self->key_busy++;
  show_key_status (self, NULL);
  loom_backup_key_load_async (self->key_id, self->key_cancellable, on_key_ready,
                              g_object_ref (self));
}

static void
show_recovery_key_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (widget);
  GtkWidget             *dialog;

  /* Anyone who sees the recovery key can open every backup: asked first. */
  dialog = adw_message_dialog_new (
    GTK_WINDOW (self), _ ("Show the Recovery Key?"),
    _ ("Anyone who sees it can open your backups. Make sure no one else can see your screen."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "show",
                                    _ ("_Show"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "show",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_show_recovery_confirmed), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
loom_preferences_window_constructed (GObject *object)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (loom_preferences_window_parent_class)->constructed (object);

  g_assert (G_IS_SETTINGS (self->settings));

  g_settings_bind_with_mapping (self->settings, "color-scheme", self->color_scheme_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, color_scheme_get_mapping,
                                color_scheme_set_mapping, NULL, NULL);
  g_settings_bind (self->settings, "watch-sources", self->watch_sources_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  /* GSettings converts between the key's uint and the adjustment's double. */
  g_settings_bind (self->settings, "archive-after-days",
                   gtk_spin_button_get_adjustment (self->archive_after_days_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "show-reasoning", self->show_reasoning_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "redact-secrets-on-export", self->redact_secrets_switch,
                   "active", G_SETTINGS_BIND_DEFAULT);

  g_signal_connect_object (self->settings, "changed::extra-source-folders",
                           G_CALLBACK (on_extra_folders_changed), self, G_CONNECT_SWAPPED);
  rebuild_extra_folders (self);

  g_signal_connect_object (self->settings, "changed::export-folder",
                           G_CALLBACK (update_export_folder), self, G_CONNECT_SWAPPED);
  update_export_folder (self);

  g_settings_bind (self->settings, "encrypt-backups", self->encrypt_backups_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  /* Continuous backup (loom-backup-keeper-service.h) follows the key, into the folder above. */
  g_settings_bind (self->settings, "keep-backups", self->keep_backups_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_signal_connect_object (self->settings, "changed::backup-folder",
                           G_CALLBACK (update_backup_folder), self, G_CONNECT_SWAPPED);
  update_backup_folder (self);
  loom_preferences_window_refresh_backup_key (self);
}

static void
loom_preferences_window_dispose (GObject *object)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  if (self->folder_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->folder_chooser));
  g_clear_object (&self->folder_chooser);
  if (self->export_folder_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export_folder_chooser));
  g_clear_object (&self->export_folder_chooser);
  if (self->backup_folder_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->backup_folder_chooser));
  g_clear_object (&self->backup_folder_chooser);
  g_cancellable_cancel (self->key_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_PREFERENCES_WINDOW);
  g_clear_pointer (&self->extra_folder_rows, g_ptr_array_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (loom_preferences_window_parent_class)->dispose (object);
}

static void
loom_preferences_window_finalize (GObject *object)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  g_clear_object (&self->key_cancellable);
  g_clear_pointer (&self->key_id, g_free);

  G_OBJECT_CLASS (loom_preferences_window_parent_class)->finalize (object);
}

static void
loom_preferences_window_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_preferences_window_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_preferences_window_class_init (LoomPreferencesWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = loom_preferences_window_constructed;
  object_class->dispose = loom_preferences_window_dispose;
  object_class->finalize = loom_preferences_window_finalize;
  object_class->get_property = loom_preferences_window_get_property;
  object_class->set_property = loom_preferences_window_set_property;

  properties[PROP_SETTINGS] = g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                     G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

#define BIND_CHILD(name) \
  gtk_widget_class_bind_template_child (widget_class, LoomPreferencesWindow, name)

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-preferences-window.ui");
  BIND_CHILD (archive_after_days_spin);
  BIND_CHILD (backup_folder_row);
  BIND_CHILD (backup_key_error_icon);
  BIND_CHILD (backup_key_row);
  BIND_CHILD (clear_export_folder_button);
  BIND_CHILD (color_scheme_row);
  BIND_CHILD (create_key_button);
  BIND_CHILD (encrypt_backups_switch);
  BIND_CHILD (keep_backups_switch);
  BIND_CHILD (export_folder_row);
  BIND_CHILD (extra_folders_group);
  BIND_CHILD (redact_secrets_switch);
  BIND_CHILD (retry_key_button);
  BIND_CHILD (show_reasoning_switch);
  BIND_CHILD (show_recovery_button);
  BIND_CHILD (watch_sources_switch);

#undef BIND_CHILD

  gtk_widget_class_install_action (widget_class, "preferences.add-folder", NULL, add_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.remove-folder", "s",
                                   remove_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.choose-export-folder", NULL,
                                   choose_export_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.clear-export-folder", NULL,
                                   clear_export_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.choose-backup-folder", NULL,
                                   choose_backup_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.refresh-backup-key", NULL,
                                   refresh_backup_key_action);
  gtk_widget_class_install_action (widget_class, "preferences.create-backup-key", NULL,
                                   create_backup_key_action);
  gtk_widget_class_install_action (widget_class, "preferences.show-recovery-key", NULL,
                                   show_recovery_key_action);
}

static void
loom_preferences_window_init (LoomPreferencesWindow *self)
{
  self->extra_folder_rows = g_ptr_array_new ();
  self->key_cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

LoomPreferencesWindow *
loom_preferences_window_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (LOOM_TYPE_PREFERENCES_WINDOW, "settings", settings, NULL);
}
