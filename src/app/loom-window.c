/* loom-window.c — the main window: the collections, the session list and, later, the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-session-row.h"
#include "loom-sidebar.h"
#include "loom-window.h"

/* A pass that ends within this time shows no progress at all: most live passes take a few
 * milliseconds, and a bar flashing at every change would only distract. */
#define PROGRESS_DELAY_MSEC 500
#define PULSE_MSEC 150

struct _LoomWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  LoomStore            *store;
  LoomSourceWatcher    *watcher;
  /* What the list shows. Reloads merge into it, so that the selection and the scroll position
   * survive the reloads that background imports cause. */
  GListStore           *sessions;

  guint                 progress_delay_id;
  guint                 pulse_id;
  char                 *last_import_error;
  guint                 progress_shown : 1;
  guint                 long_import : 1;

  AdwStatusPage        *collection_empty_page;
  GtkWidget            *content_pane;
  AdwWindowTitle       *content_title;
  GtkProgressBar       *empty_progress;
  AdwLeaflet           *leaflet;
  GtkProgressBar       *list_progress;
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

static gpointer
list_store_peek (GListStore *store,
                 guint       position)
{
  g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (store), position);

  /* The store keeps it alive; only its address is wanted. */
  return item;
}

/* Makes @store hold the sessions of @fresh, in its order, keeping the objects of sessions it
 * already holds (updated in place, so their rows update) and replacing only the range that
 * differs. A selected session that is kept stays selected, even when it moves. */
static void
merge_sessions (GListStore *store,
                GListModel *fresh)
{
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (store));
  guint n_new = g_list_model_get_n_items (fresh);
  g_autoptr(GHashTable) by_uuid = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) items = g_ptr_array_new_full (n_new, g_object_unref);
  guint prefix = 0, suffix = 0;

  for (guint i = 0; i < n_old; i++)
    {
      LoomSession *session = list_store_peek (store, i);

      g_hash_table_insert (by_uuid, g_strdup (loom_session_get_uuid (session)), session);
    }

  for (guint i = 0; i < n_new; i++)
    {
      g_autoptr(LoomSession) session = g_list_model_get_item (fresh, i);
      LoomSession *known = g_hash_table_lookup (by_uuid, loom_session_get_uuid (session));
      const LoomSessionRecord *record = loom_session_get_record (session);

      /* LoomSession does not notify "source deleted": a row learns it from a new object. */
      if (known != NULL &&
          (loom_session_get_record (known)->source_missing != 0) == (record->source_missing != 0))
        {
          loom_session_update (known, record);
          g_ptr_array_add (items, g_object_ref (known));
        }
      else
        {
          g_ptr_array_add (items, g_steal_pointer (&session));
        }
    }

  while (prefix < MIN (n_old, n_new) && list_store_peek (store, prefix) == items->pdata[prefix])
    prefix++;
  while (suffix < MIN (n_old, n_new) - prefix &&
         list_store_peek (store, n_old - 1 - suffix) == items->pdata[n_new - 1 - suffix])
    suffix++;

  if (prefix + suffix < MAX (n_old, n_new))
    g_list_store_splice (store, prefix, n_old - prefix - suffix,
                         items->pdata + prefix, n_new - prefix - suffix);
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
  GtkAdjustment *vadjustment;
  gboolean at_top;
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

  /* The list view keeps its first visible session in place when sessions arrive above it. That
   * is right for someone scrolled down to an older session, but someone at the top of the list
   * wants to see the new ones come in. */
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->session_list));
  at_top = vadjustment == NULL ||
           gtk_adjustment_get_value (vadjustment) <= gtk_adjustment_get_lower (vadjustment);
  merge_sessions (self->sessions, sessions);
  if (at_top && n_sessions > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->session_list), "list.scroll-to-item", "u", 0);

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

/* ——— Background imports ——— */

static gboolean
pulse_cb (gpointer user_data)
{
  LoomWindow *self = user_data;

  gtk_progress_bar_pulse (self->empty_progress);
  gtk_progress_bar_pulse (self->list_progress);
  return G_SOURCE_CONTINUE;
}

static void
loom_window_update_progress (LoomWindow *self)
{
  double fraction = 0.0;

  g_assert (LOOM_IS_WINDOW (self));

  if (self->watcher != NULL)
    fraction = loom_source_watcher_get_progress (self->watcher);

  gtk_widget_set_visible (GTK_WIDGET (self->empty_progress), self->progress_shown);
  gtk_widget_set_visible (GTK_WIDGET (self->list_progress), self->progress_shown);

  /* Progress is counted in whole files: until the first one is done (a single big file, say),
   * the bar pulses to show that something is going on. */
  if (self->progress_shown && fraction <= 0.0)
    {
      if (self->pulse_id == 0)
        self->pulse_id = g_timeout_add (PULSE_MSEC, pulse_cb, self);
      return;
    }

  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_progress_bar_set_fraction (self->empty_progress, fraction);
  gtk_progress_bar_set_fraction (self->list_progress, fraction);
}

static gboolean
progress_delay_cb (gpointer user_data)
{
  LoomWindow *self = user_data;

  self->progress_delay_id = 0;
  self->progress_shown = TRUE;
  loom_window_update_progress (self);
  return G_SOURCE_REMOVE;
}

static void
on_importing_changed_cb (LoomWindow        *self,
                         GParamSpec        *pspec,
                         LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  if (loom_source_watcher_get_importing (watcher))
    {
      self->long_import = FALSE;
      if (self->progress_delay_id == 0 && !self->progress_shown)
        self->progress_delay_id = g_timeout_add (PROGRESS_DELAY_MSEC, progress_delay_cb, self);
      return;
    }

  g_clear_handle_id (&self->progress_delay_id, g_source_remove);
  /* "imported" follows: a pass the user saw going gets a word on how it ended. */
  self->long_import = self->progress_shown;
  self->progress_shown = FALSE;
  loom_window_update_progress (self);
}

static void
on_progress_changed_cb (LoomWindow        *self,
                        GParamSpec        *pspec,
                        LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  if (self->progress_shown)
    loom_window_update_progress (self);
}

static void
on_imported_cb (LoomWindow            *self,
                const LoomImportStats *stats,
                LoomSourceWatcher     *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  g_clear_pointer (&self->last_import_error, g_free);

  /* Most passes find nothing new: the list is read again only when the store changed. */
  if (stats->sessions_touched > 0 || stats->sessions_missing > 0)
    loom_window_reload (self);

  if (self->long_import && stats->sessions_new > 0)
    {
      g_autofree char *title = NULL;

      title = g_strdup_printf (ngettext ("Imported %u new session",
                                         "Imported %u new sessions",
                                         stats->sessions_new),
                               stats->sessions_new);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
    }
  self->long_import = FALSE;
}

static void
on_import_failed_cb (LoomWindow        *self,
                     const GError      *error,
                     LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  self->long_import = FALSE;

  /* Every change would fail the same way again: say it once, until a pass succeeds. */
  if (g_strcmp0 (self->last_import_error, error->message) == 0)
    return;
  g_free (self->last_import_error);
  self->last_import_error = g_strdup (error->message);
  loom_window_show_error (self, _("Could not import sessions"), error);
}

static void
loom_window_set_watcher (LoomWindow        *self,
                         LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));
  g_assert (self->watcher == NULL);

  if (watcher == NULL)
    return;

  self->watcher = g_object_ref (watcher);
  g_signal_connect_object (watcher, "notify::importing",
                           G_CALLBACK (on_importing_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "notify::progress",
                           G_CALLBACK (on_progress_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "imported",
                           G_CALLBACK (on_imported_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "import-failed",
                           G_CALLBACK (on_import_failed_cb), self, G_CONNECT_SWAPPED);

  /* The application starts its first pass before any window exists. */
  if (loom_source_watcher_get_importing (watcher))
    on_importing_changed_cb (self, NULL, watcher);
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
      LoomApplication *app = LOOM_APPLICATION (application);

      self->store = g_object_ref (loom_application_get_store (app));
      loom_window_set_watcher (self, loom_application_get_source_watcher (app));
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

  /* The watcher outlives the window, and reports until the application shuts down. */
  if (self->watcher != NULL)
    g_signal_handlers_disconnect_by_data (self->watcher, self);
  g_clear_object (&self->watcher);
  g_clear_handle_id (&self->progress_delay_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_pointer (&self->last_import_error, g_free);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->store);
  g_clear_object (&self->sessions);

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
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, empty_progress);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, list_progress);
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

  self->sessions = g_list_store_new (LOOM_TYPE_SESSION);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->sessions));

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
      g_list_store_remove_all (self->sessions);
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
