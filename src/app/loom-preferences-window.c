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
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;

  GtkSpinButton        *archive_after_days_spin;
  AdwComboRow          *color_scheme_row;
  GtkSwitch            *redact_secrets_switch;
  GtkSwitch            *show_reasoning_switch;
  GtkSwitch            *watch_sources_switch;
};

G_DEFINE_FINAL_TYPE (LoomPreferencesWindow, loom_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* In the order of the combo row's items. */
static const char * const color_schemes[] = { "default", "light", "dark" };

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
loom_preferences_window_constructed (GObject *object)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (loom_preferences_window_parent_class)->constructed (object);

  g_assert (G_IS_SETTINGS (self->settings));

  g_settings_bind_with_mapping (self->settings, "color-scheme",
                                self->color_scheme_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                color_scheme_get_mapping, color_scheme_set_mapping,
                                NULL, NULL);
  g_settings_bind (self->settings, "watch-sources",
                   self->watch_sources_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  /* GSettings converts between the key's uint and the adjustment's double. */
  g_settings_bind (self->settings, "archive-after-days",
                   gtk_spin_button_get_adjustment (self->archive_after_days_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "show-reasoning",
                   self->show_reasoning_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "redact-secrets-on-export",
                   self->redact_secrets_switch, "active",
                   G_SETTINGS_BIND_DEFAULT);
}

static void
loom_preferences_window_dispose (GObject *object)
{
  LoomPreferencesWindow *self = LOOM_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_PREFERENCES_WINDOW);
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
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = loom_preferences_window_constructed;
  object_class->dispose = loom_preferences_window_dispose;
  object_class->get_property = loom_preferences_window_get_property;
  object_class->set_property = loom_preferences_window_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL,
                         G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

#define BIND_CHILD(name) \
  gtk_widget_class_bind_template_child (widget_class, LoomPreferencesWindow, name)

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/"
                                               "loom-preferences-window.ui");
  BIND_CHILD (archive_after_days_spin);
  BIND_CHILD (color_scheme_row);
  BIND_CHILD (redact_secrets_switch);
  BIND_CHILD (show_reasoning_switch);
  BIND_CHILD (watch_sources_switch);

#undef BIND_CHILD
}

static void
loom_preferences_window_init (LoomPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

LoomPreferencesWindow *
loom_preferences_window_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (LOOM_TYPE_PREFERENCES_WINDOW,
                       "settings", settings,
                       NULL);
}
