/* loom-window.c — the main window: the collections, the session list and, later, the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-session-row.h"
#include "loom-sidebar.h"
#include "loom-window.h"

struct _LoomWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  LoomStore            *store;

  AdwStatusPage        *collection_empty_page;
  GtkWidget            *content_pane;
  AdwWindowTitle       *content_title;
  AdwLeaflet           *leaflet;
  GtkStack             *list_stack;
  GtkSingleSelection   *selection;
  GtkListView          *session_list;
  LoomSidebar          *sidebar;
  GtkStack             *stack;
  AdwToastOverlay      *toast_overlay;
  AdwStatusPage        *unavailable_page;
};

G_DEFINE_FINAL_TYPE (LoomWindow, loom_window, ADW_TYPE_APPLICATION_WINDOW)

static void
loom_window_show_error (LoomWindow   *self,
                        const char   *what,
                        const GError *error)
{
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  /* A toast's title is markup; the message may quote a path or a title with an "&" in it. */
  /* Translators: the first %s says what failed, the second why. */
  title = g_strdup_printf (_("%s: %s"), what, error->message);
  escaped = g_markup_escape_text (title, -1);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
}

/* Lists the sessions of the collection chosen in the sidebar. */
static gboolean
loom_window_reload_sessions (LoomWindow  *self,
                             GError     **error)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr(GListModel) sessions = NULL;
  g_autofree char *subtitle = NULL;
  LoomSidebarItem *item;
  guint n_sessions;

  g_assert (LOOM_IS_WINDOW (self));

  if (self->store == NULL)
    return TRUE;

  item = loom_sidebar_get_selected_item (self->sidebar);
  if (item == NULL)
    return TRUE;

  query.collection = loom_sidebar_item_get_collection (item);
  sessions = loom_store_list_sessions (self->store, &query, error);
  if (sessions == NULL)
    return FALSE;

  n_sessions = g_list_model_get_n_items (sessions);
  gtk_single_selection_set_model (self->selection, sessions);

  subtitle = g_strdup_printf (ngettext ("%u session", "%u sessions", n_sessions), n_sessions);
  adw_window_title_set_title (self->content_title, loom_sidebar_item_get_title (item));
  adw_window_title_set_subtitle (self->content_title, n_sessions > 0 ? subtitle : NULL);

  adw_status_page_set_icon_name (self->collection_empty_page,
                                 loom_sidebar_item_get_icon_name (item));
  adw_status_page_set_title (self->collection_empty_page,
                             loom_sidebar_item_get_empty_title (item));
  adw_status_page_set_description (self->collection_empty_page,
                                   loom_sidebar_item_get_empty_description (item));
  gtk_stack_set_visible_child_name (self->list_stack, n_sessions > 0 ? "list" : "empty");

  return TRUE;
}

static void
on_back_clicked_cb (LoomWindow *self,
                    GtkButton  *button)
{
  g_assert (LOOM_IS_WINDOW (self));

  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
on_bind_session_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    LoomWindow               *self)
{
  LoomSessionRow *row = LOOM_SESSION_ROW (gtk_list_item_get_child (list_item));

  loom_session_row_set_session (row, gtk_list_item_get_item (list_item));
}

static void
on_setup_session_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     LoomWindow               *self)
{
  gtk_list_item_set_child (list_item, loom_session_row_new ());
}

static void
on_sidebar_item_activated_cb (LoomWindow      *self,
                              LoomSidebarItem *item,
                              LoomSidebar     *sidebar)
{
  g_assert (LOOM_IS_WINDOW (self));

  /* Only a folded window needs to move: unfolded, both panes are on screen. */
  adw_leaflet_set_visible_child (self->leaflet, self->content_pane);
}

static void
on_sidebar_selected_item_changed_cb (LoomWindow  *self,
                                     GParamSpec  *pspec,
                                     LoomSidebar *sidebar)
{
  g_autoptr(GError) error = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  if (!loom_window_reload_sessions (self, &error))
    loom_window_show_error (self, _("Could not list the sessions"), error);
}

static void
on_unbind_session_cb (GtkSignalListItemFactory *factory,
                      GtkListItem              *list_item,
                      LoomWindow               *self)
{
  LoomSessionRow *row = LOOM_SESSION_ROW (gtk_list_item_get_child (list_item));

  /* A recycled row must not keep an unrelated session alive or follow its changes. */
  loom_session_row_set_session (row, NULL);
}

/* The store belongs to the application, which is set after construction (GtkWindow's
 * "application" is not a construct property), so the window takes the store when it joins it. */
static void
on_application_changed_cb (LoomWindow *self,
                           GParamSpec *pspec,
                           gpointer    user_data)
{
  GtkApplication *application;

  g_assert (LOOM_IS_WINDOW (self));

  application = gtk_window_get_application (GTK_WINDOW (self));
  if (!LOOM_IS_APPLICATION (application) || self->store != NULL)
    return;

  if (loom_application_get_store (LOOM_APPLICATION (application)) != NULL)
    {
      self->store = g_object_ref (loom_application_get_store (LOOM_APPLICATION (application)));
    }
  else
    {
      const GError *error = loom_application_get_store_error (LOOM_APPLICATION (application));

      /* The description is markup, and a path may well hold an "&". */
      if (error != NULL)
        {
          g_autofree char *escaped = g_markup_escape_text (error->message, -1);

          adw_status_page_set_description (self->unavailable_page, escaped);
        }
    }

  loom_window_reload (self);
}

/* The size was held back while the user resized: write it once, on the way out. */
static gboolean
loom_window_close_request (GtkWindow *window)
{
  LoomWindow *self = LOOM_WINDOW (window);

  g_settings_apply (self->settings);

  return GTK_WINDOW_CLASS (loom_window_parent_class)->close_request (window);
}

static void
loom_window_dispose (GObject *object)
{
  LoomWindow *self = LOOM_WINDOW (object);

  /* A window destroyed without being closed still keeps its size. */
  if (self->settings != NULL)
    g_settings_apply (self->settings);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (loom_window_parent_class)->dispose (object);
}

static void
loom_window_class_init (LoomWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = loom_window_dispose;

  window_class->close_request = loom_window_close_request;

  g_type_ensure (LOOM_TYPE_SIDEBAR);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, collection_empty_page);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, content_pane);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, list_stack);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, selection);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, session_list);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, unavailable_page);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_bind_session_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_setup_session_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_item_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_selected_item_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_unbind_session_cb);

  /* GtkWindow provides window.close; Ctrl+W is the shortcut GNOME applications give it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK,
                                       "window.close", NULL);
}

static void
loom_window_init (LoomWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_changed_cb), NULL);

  /* Delayed, so that resizing does not write to dconf on every step; closing applies it. */
  self->settings = g_settings_new (APP_ID);
  g_settings_delay (self->settings);
  g_settings_bind (self->settings, "window-width", self, "default-width",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized",
                   G_SETTINGS_BIND_DEFAULT);
}

LoomWindow *
loom_window_new (LoomApplication *application)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (application), NULL);

  return g_object_new (LOOM_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

LoomStore *
loom_window_get_store (LoomWindow *self)
{
  g_return_val_if_fail (LOOM_IS_WINDOW (self), NULL);

  return self->store;
}

void
loom_window_reload (LoomWindow *self)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr(GError) error = NULL;
  guint n_sessions = 0;

  g_return_if_fail (LOOM_IS_WINDOW (self));

  if (self->store == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "unavailable");
      return;
    }

  /* The sidebar is worth showing as soon as any session exists, even one in the trash. */
  query.collection = LOOM_COLLECTION_EVERYTHING;
  if (!loom_store_count_sessions (self->store, &query, &n_sessions, &error))
    {
      loom_window_show_error (self, _("Could not read the history"), error);
      return;
    }

  if (n_sessions == 0)
    {
      gtk_single_selection_set_model (self->selection, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  if (!loom_sidebar_reload (self->sidebar, self->store, &error) ||
      !loom_window_reload_sessions (self, &error))
    {
      loom_window_show_error (self, _("Could not list the sessions"), error);
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "sessions");
}
