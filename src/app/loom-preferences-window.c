/* loom-preferences-window.c — the preferences, each bound to its GSettings key.
 *
 * Every control writes its key as soon as it changes, as GNOME preferences do: there is no
 * Apply button, and the application follows the keys live.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-preferences-window.h"

struct _LoomPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings *settings;

  GtkSpinButton        *archive_after_days_spin;
  GtkWidget            *clear_export_folder_button;
  AdwComboRow          *color_scheme_row;
  AdwActionRow         *export_folder_row;
  GtkFileChooserNative *export_folder_chooser;
  AdwPreferencesGroup  *extra_folders_group;
  GPtrArray            *extra_folder_rows; /* the rows added to extra_folders_group */
  GtkFileChooserNative *folder_chooser;
  GtkSwitch            *redact_secrets_switch;
  GtkSwitch            *show_reasoning_switch;
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
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_PREFERENCES_WINDOW);
  g_clear_pointer (&self->extra_folder_rows, g_ptr_array_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (loom_preferences_window_parent_class)->dispose (object);
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
  BIND_CHILD (clear_export_folder_button);
  BIND_CHILD (color_scheme_row);
  BIND_CHILD (export_folder_row);
  BIND_CHILD (extra_folders_group);
  BIND_CHILD (redact_secrets_switch);
  BIND_CHILD (show_reasoning_switch);
  BIND_CHILD (watch_sources_switch);

#undef BIND_CHILD

  gtk_widget_class_install_action (widget_class, "preferences.add-folder", NULL, add_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.remove-folder", "s",
                                   remove_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.choose-export-folder", NULL,
                                   choose_export_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.clear-export-folder", NULL,
                                   clear_export_folder_action);
}

static void
loom_preferences_window_init (LoomPreferencesWindow *self)
{
  self->extra_folder_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}

LoomPreferencesWindow *
loom_preferences_window_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (LOOM_TYPE_PREFERENCES_WINDOW, "settings", settings, NULL);
}
