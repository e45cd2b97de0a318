/* loom-window-export.c — the window's way to the export assistant: win.export-sessions.
 *
 * The action takes the sessions selected in the list, one or many, and opens the assistant on
 * them (loom-export-assistant.h); the session menus, the header bar and Ctrl+E reach it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-export-assistant.h"
#include "loom-window-private.h"

static void
export_sessions_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);
  g_autoptr (GStrvBuilder) uuids = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) titles = g_strv_builder_new ();
  g_auto (GStrv) uuid_list = NULL;
  g_auto (GStrv) title_list = NULL;
  /* Its own, not the window's: those delay their writes until the window closes, and the
   * assistant's remembered folder must be there at the next export. */
  g_autoptr (GSettings) settings = NULL;
  LoomExportAssistant *assistant;
  LoomStore           *store = loom_window_get_store (self);

  if (store == NULL || sessions->len == 0)
    return;

  for (guint i = 0; i < sessions->len; i++)
    {
      LoomSession *session = g_ptr_array_index (sessions, i);
      const char  *title = loom_session_get_title (session);

      g_strv_builder_add (uuids, loom_session_get_uuid (session));
      g_strv_builder_add (titles, title != NULL ? title : "");
    }
  uuid_list = g_strv_builder_end (uuids);
  title_list = g_strv_builder_end (titles);

  settings = g_settings_new (APP_ID);
  assistant = loom_export_assistant_new (GTK_WINDOW (self), store, settings,
                                         (const char *const *)uuid_list,
                                         (const char *const *)title_list);
  gtk_window_present (GTK_WINDOW (assistant));
}

void
loom_window_export_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-sessions", NULL,
                                   export_sessions_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK,
                                       "win.export-sessions", NULL);
}

void
loom_window_export_update (LoomWindow *self)
{
  gboolean any = loom_window_get_store (self) != NULL &&
                 loom_window_get_n_selected_sessions (self) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-sessions", any);
}
