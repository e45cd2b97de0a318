/* loom-window.c — the main window: collections and folders, the session list, the timeline.
 *
 * Three panes in an AdwLeaflet: the sidebar, the sessions of what the sidebar selects, and the
 * selected session's timeline with its details in a flap. A narrow window folds them into one
 * pane at a time, each with a way back.
 *
 * Search: the session list's entry searches all history, and a result chosen there opens its
 * session here, scrolled to the hit, with the timeline's search bar counting the session's hits
 * from it (Ctrl+G for the next). Ctrl+F in the timeline opens that bar for the open session
 * alone; anywhere else it goes to the search of all history.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-session-row.h"
#include "loom-store-async.h"
#include "loom-window-actions.h"
#include "loom-window-private.h"

#define MAX_MENU_SELECTION 1000

G_DEFINE_FINAL_TYPE (LoomWindow, loom_window, ADW_TYPE_APPLICATION_WINDOW)

void
loom_window_show_error (LoomWindow   *self,
                        const char   *what,
                        const GError *error)
{
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  /* A toast's title is markup; the message may quote a path or a title with an "&" in it. */
  /* Translators: the first %s says what failed, the second why. */
  title = g_strdup_printf (_ ("%s: %s"), what, error->message);
  escaped = g_markup_escape_text (title, -1);
  loom_window_add_toast (self, adw_toast_new (escaped));
}

/* ——— Writes ——— */

GWeakRef *
loom_window_begin_write (LoomWindow *self)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_assert (LOOM_IS_WINDOW (self));

  g_weak_ref_init (ref, self);
  self->n_pending_writes++;
  return ref;
}

LoomWindow *
loom_window_end_write (GWeakRef *ref)
{
  LoomWindow *self = g_weak_ref_get (ref);

  g_weak_ref_clear (ref);
  g_free (ref);
  if (self != NULL)
    {
      g_assert (self->n_pending_writes > 0);
      self->n_pending_writes--;
    }
  return self;
}

gboolean
loom_window_has_pending_writes (LoomWindow *self)
{
  g_return_val_if_fail (LOOM_IS_WINDOW (self), FALSE);

  return self->n_pending_writes > 0;
}

/* ——— The content pane ——— */

typedef struct
{
  GWeakRef *window;
  char     *uuid;
} MarkOpened;

static MarkOpened *
mark_opened_new (LoomWindow *self,
                 const char *uuid)
{
  MarkOpened *mark = g_new0 (MarkOpened, 1);

  mark->window = loom_window_begin_write (self);
  mark->uuid = g_strdup (uuid);
  return mark;
}

/* Reads the session back so that its details show when it was opened, if it is still shown. */
static void
on_marked_opened_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  LoomStore  *store = LOOM_STORE (object);
  MarkOpened *mark = user_data;
  g_autoptr (LoomWindow) self = loom_window_end_write (mark->window);
  g_autofree char *uuid = mark->uuid;
  g_autoptr (LoomSession) fresh = NULL;
  g_autoptr (GError) error = NULL;

  g_free (mark);
  if (loom_store_mark_opened_finish (store, result, &error) && self != NULL &&
      self->store == store && self->shown_session != NULL &&
      g_str_equal (loom_session_get_uuid (self->shown_session), uuid) &&
      (fresh = loom_store_get_session (store, uuid, &error)))
    {
      loom_session_update (self->shown_session, loom_session_get_record (fresh));
      loom_session_details_set_session (self->details, self->store, self->shown_session);
    }
  if (error != NULL)
    g_debug ("Could not mark %s as opened: %s", uuid, error->message);
}

/* Shows @session's timeline and details, or the page that says what to do when it is NULL.
 * @n_selected tells that page apart from the one for several selected sessions. */
static void
loom_window_show_session (LoomWindow  *self,
                          LoomSession *session,
                          guint        n_selected)
{
  g_assert (LOOM_IS_WINDOW (self));
  g_assert (session == NULL || LOOM_IS_SESSION (session));

  if (session != NULL && session == self->shown_session)
    return;

  /* "Last opened" is what the user did, not what the list did: it is set only here. The
   * details show it once the write lands (on_marked_opened_cb). */
  if (session != NULL && self->store != NULL)
    loom_store_mark_opened_async (self->store, loom_session_get_uuid (session), NULL,
                                  on_marked_opened_cb,
                                  mark_opened_new (self, loom_session_get_uuid (session)));

  g_set_object (&self->shown_session, session);
  g_clear_pointer (&self->shown_record, loom_session_record_free);
  if (session != NULL)
    self->shown_record = loom_session_record_copy (loom_session_get_record (session));
  loom_timeline_view_set_session (self->timeline_view, self->store, session);
  loom_timeline_search_bar_set_session (self->timeline_search,
                                        session != NULL ? loom_session_get_uuid (session) : NULL);
  if (session == NULL)
    loom_timeline_search_bar_close (self->timeline_search);
  loom_session_details_set_session (self->details, self->store, session);

  if (session != NULL)
    {
      g_autofree char *project = loom_session_row_display_text (
        loom_session_get_project_name (session));
      g_autofree char *title = loom_session_row_display_text (loom_session_get_title (session));
      const char      *agent = loom_session_row_agent_name (loom_session_get_source (session));
      g_autofree char *subtitle = NULL;

      /* Translators: the subtitle of a session's timeline: a project, then an agent. */
      subtitle = project != NULL ? g_strdup_printf (_ ("%s · %s"), project, agent)
                                 : g_strdup (agent);
      adw_window_title_set_title (self->content_title, title);
      adw_window_title_set_subtitle (self->content_title, subtitle);
      gtk_stack_set_visible_child_name (self->content_stack, "timeline");
    }
  else if (n_selected > 1)
    {
      g_autofree char *title = NULL;

      title = g_strdup_printf (
        ngettext ("%'u Session Selected", "%'u Sessions Selected", n_selected), n_selected);
      adw_status_page_set_title (self->several_page, title);
      adw_window_title_set_title (self->content_title, NULL);
      adw_window_title_set_subtitle (self->content_title, NULL);
      gtk_stack_set_visible_child_name (self->content_stack, "several");
    }
  else
    {
      adw_window_title_set_title (self->content_title, NULL);
      adw_window_title_set_subtitle (self->content_title, NULL);
      gtk_stack_set_visible_child_name (self->content_stack, "none");
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->details_button), session != NULL);
  if (session == NULL)
    adw_flap_set_reveal_flap (self->flap, FALSE);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.jump-to-start", session != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.jump-to-end", session != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-details", session != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.search-session", session != NULL);
}

/* The session shown may have been renamed, moved or deleted behind the window's back. With
 * @only_if_grown, it is read again only when an import added to it or renamed it. */
static void
loom_window_refresh_shown_session (LoomWindow *self,
                                   gboolean    only_if_grown)
{
  g_autoptr (LoomSession) fresh = NULL;
  g_autoptr (GError) error = NULL;
  const LoomSessionRecord *now, *shown;

  g_assert (LOOM_IS_WINDOW (self));

  if (self->shown_session == NULL || self->store == NULL)
    return;

  fresh = loom_store_get_session (self->store, loom_session_get_uuid (self->shown_session), &error);
  if (fresh == NULL)
    {
      loom_window_show_session (self, NULL, 0);
      return;
    }

  /* What an import changes of a session: its rows, its time, its title. */
  now = loom_session_get_record (fresh);
  shown = self->shown_record;
  if (only_if_grown && now->updated_at == shown->updated_at &&
      now->message_count == shown->message_count && now->event_count == shown->event_count &&
      g_strcmp0 (now->title, shown->title) == 0)
    return;

  loom_session_update (self->shown_session, now);
  loom_session_record_free (self->shown_record);
  self->shown_record = loom_session_record_copy (now);
  {
    g_autofree char *title = loom_session_row_display_text (
      loom_session_get_title (self->shown_session));

    adw_window_title_set_title (self->content_title, title);
  }
  /* The details show the folder, the pin, the archive: read them again. Given the session it
   * already shows, the timeline reloads in place: the reader keeps their place and sees what
   * an import added. */
  loom_session_details_set_session (self->details, self->store, self->shown_session);
  loom_timeline_view_set_session (self->timeline_view, self->store, self->shown_session);
  loom_timeline_search_bar_refresh (self->timeline_search);
}

static void
on_session_activated_cb (LoomWindow      *self,
                         LoomSession     *session,
                         LoomSessionList *session_list)
{
  g_assert (LOOM_IS_WINDOW (self));

  loom_window_show_session (self, session, 1);

  /* The content pane is the one to show once the window folds, and a folded window goes
   * there at once: after a click or Enter, that is. Someone going down the list with the
   * arrow keys selects each session on the way, and wants to stay in the list. */
  if (!self->moving_by_key || !adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->content_pane);
}

static gboolean
on_list_key_pressed_cb (LoomWindow            *self,
                        guint                  keyval,
                        guint                  keycode,
                        GdkModifierType        state,
                        GtkEventControllerKey *controller)
{
  g_assert (LOOM_IS_WINDOW (self));

  /* Seen before the list moves its selection, which reports "session-activated". */
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_Down:
    case GDK_KEY_KP_Up:
    case GDK_KEY_KP_Down:
    case GDK_KEY_Page_Up:
    case GDK_KEY_Page_Down:
    case GDK_KEY_KP_Page_Up:
    case GDK_KEY_KP_Page_Down:
    case GDK_KEY_Home:
    case GDK_KEY_End:
    case GDK_KEY_KP_Home:
    case GDK_KEY_KP_End:
      self->moving_by_key = TRUE;
      break;

    default:
      self->moving_by_key = FALSE;
      break;
    }

  return GDK_EVENT_PROPAGATE;
}

static void
on_list_key_released_cb (LoomWindow            *self,
                         guint                  keyval,
                         guint                  keycode,
                         GdkModifierType        state,
                         GtkEventControllerKey *controller)
{
  g_assert (LOOM_IS_WINDOW (self));

  self->moving_by_key = FALSE;
}

static void
on_session_selection_changed_cb (LoomWindow      *self,
                                 LoomSessionList *session_list)
{
  guint n_selected;

  g_assert (LOOM_IS_WINDOW (self));

  /* One selected session is shown through "session-activated"; none or several replace it with
   * a page that says so. */
  n_selected = loom_session_list_get_n_selected (session_list);
  if (n_selected != 1)
    loom_window_show_session (self, NULL, n_selected);

  loom_window_actions_update (self);
}

/* A related session (the parent, the fork source, a sub-agent) asked for from the details or
 * the timeline: selected in the list when the list holds it, else shown on its own. */
static void
on_open_session_cb (LoomWindow *self,
                    const char *uuid,
                    GtkWidget  *source)
{
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  if (self->store == NULL)
    return;

  if (loom_session_list_select_uuid (self->session_list, uuid))
    return;

  session = loom_store_get_session (self->store, uuid, &error);
  if (session == NULL)
    {
      loom_window_show_error (self, _ ("Could not open the session"), error);
      return;
    }
  loom_window_show_session (self, session, 1);
}

/* ——— Search ——— */

static gboolean
is_shown (LoomWindow *self,
          const char *session_uuid)
{
  return self->shown_session != NULL &&
         g_strcmp0 (loom_session_get_uuid (self->shown_session), session_uuid) == 0;
}

/* A search result chosen: its session is shown as a click in the list shows it (selected there
 * when the list holds it), scrolled to the hit, and the timeline's search bar counts on from
 * there. */
static void
on_search_hit_activated_cb (LoomWindow      *self,
                            const char      *session_uuid,
                            gint64           seq,
                            const char      *query,
                            LoomSessionList *session_list)
{
  g_assert (LOOM_IS_WINDOW (self));

  if (self->store == NULL)
    return;

  /* Selected in the list when the list holds it, which shows it; else (a session outside the
   * list, or one selected there already) shown here. */
  if (!is_shown (self, session_uuid))
    loom_session_list_select_uuid (session_list, session_uuid);
  if (!is_shown (self, session_uuid))
    {
      g_autoptr (LoomSession) session = NULL;
      g_autoptr (GError) error = NULL;

      if (!(session = loom_store_get_session (self->store, session_uuid, &error)))
        {
          loom_window_show_error (self, _ ("Could not open the session"), error);
          return;
        }
      loom_window_show_session (self, session, 1);
    }

  /* The words are marked as soon as the rows are built: the query found this hit already. */
  loom_timeline_view_set_search (self->timeline_view, query);
  loom_timeline_search_bar_show_hit (self->timeline_search, session_uuid, query, seq);
  /* A title has no place in the timeline: its start, then. */
  if (seq > 0)
    loom_timeline_view_show_hit (self->timeline_view, seq);
  else
    loom_timeline_view_scroll_to_start (self->timeline_view);

  if (!self->moving_by_key || !adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->content_pane);
}

static void
on_timeline_hit_chosen_cb (LoomWindow            *self,
                           gint64                 seq,
                           LoomTimelineSearchBar *search_bar)
{
  g_assert (LOOM_IS_WINDOW (self));

  loom_timeline_view_show_hit (self->timeline_view, seq);
}

/* The timeline marks the words of what its bar searches for, while it does. */
static void
on_timeline_search_query_changed_cb (LoomWindow            *self,
                                     GParamSpec            *pspec,
                                     LoomTimelineSearchBar *search_bar)
{
  g_assert (LOOM_IS_WINDOW (self));

  loom_timeline_view_set_search (self->timeline_view,
                                 loom_timeline_search_bar_get_query (search_bar));
}

/* The bar closed (Escape) with the focus in it: the focus goes back to the timeline rather
 * than to nowhere. */
static void
on_timeline_search_open_changed_cb (LoomWindow            *self,
                                    GParamSpec            *pspec,
                                    LoomTimelineSearchBar *search_bar)
{
  GtkWidget *focus;

  g_assert (LOOM_IS_WINDOW (self));

  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (!loom_timeline_search_bar_get_open (search_bar) && focus != NULL &&
      gtk_widget_is_ancestor (focus, GTK_WIDGET (search_bar)))
    gtk_widget_child_focus (GTK_WIDGET (self->timeline_view), GTK_DIR_TAB_FORWARD);
}

/* The header bar's session menu: the same as the list's context menu, its toggles saying what
 * they will do to the selected sessions, plus the jumps, which a narrow window's header bar has
 * no room for. Built when it opens, so that it is never stale. */
static void
update_session_menu_cb (GtkMenuButton *button,
                        gpointer       user_data)
{
  LoomWindow *self = user_data;
  g_autoptr (GPtrArray) sessions = NULL;
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) jump = g_menu_new ();
  g_autoptr (GMenu) edit = g_menu_new ();
  g_autoptr (GMenu) file = g_menu_new ();
  g_autoptr (GMenu) source = g_menu_new ();
  g_autoptr (GMenu) remove = g_menu_new ();
  gboolean all_pinned, all_archived, all_trashed;

  g_assert (LOOM_IS_WINDOW (self));

  /* A selection of thousands is not read whole for three labels: they then offer to pin,
   * archive and trash, which is what most of such a selection wants. */
  if (loom_session_list_get_n_selected (self->session_list) <= MAX_MENU_SELECTION)
    sessions = loom_window_get_selected_sessions (self);
  else
    sessions = g_ptr_array_new ();
  all_pinned = all_archived = all_trashed = sessions->len > 0;
  for (guint i = 0; i < sessions->len; i++)
    {
      all_pinned &= loom_session_get_pinned (sessions->pdata[i]);
      all_archived &= loom_session_get_archived (sessions->pdata[i]);
      all_trashed &= loom_session_get_trashed (sessions->pdata[i]);
    }

  g_menu_append (jump, _ ("Jump to _Start"), "win.jump-to-start");
  g_menu_append (jump, _ ("Jump to _End"), "win.jump-to-end");
  g_menu_append (edit, _ ("_Rename…"), "session.rename");
  g_menu_append (edit, _ ("Copy Rename _Command"), "session.copy-rename-command");
  g_menu_append (file, all_pinned ? _ ("Un_pin") : _ ("_Pin"), "session.pin");
  g_menu_append (file, _ ("_Move to…"), "session.move-to");
  g_menu_append (file, all_archived ? _ ("Restore from _Archive") : _ ("_Archive"),
                 "session.archive");
  g_menu_append (source, _ ("_Export…"), "win.export-sessions");
  g_menu_append (source, _ ("_Open Source Folder"), "session.open-source-folder");
  g_menu_append (remove, all_trashed ? _ ("Restore from _Trash") : _ ("Move to _Trash"),
                 "session.trash");
  g_menu_append (remove, _ ("_Delete Permanently…"), "session.delete");

  g_menu_append_section (menu, NULL, G_MENU_MODEL (jump));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (file));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (source));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (remove));
  gtk_menu_button_set_menu_model (button, G_MENU_MODEL (menu));
}

/* ——— Navigation ——— */

static void
on_back_clicked_cb (LoomWindow *self,
                    GtkButton  *button)
{
  g_assert (LOOM_IS_WINDOW (self));

  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
on_leaflet_folded_changed_cb (LoomWindow *self,
                              GParamSpec *pspec,
                              AdwLeaflet *leaflet)
{
  g_assert (LOOM_IS_WINDOW (self));

  /* A window that folds while the content pane is chosen but empty would open on "Select a
   * Session" with nothing to select from: the list is the better place to land. */
  if (adw_leaflet_get_folded (leaflet) &&
      adw_leaflet_get_visible_child (leaflet) == self->content_pane && self->shown_session == NULL)
    adw_leaflet_set_visible_child (leaflet, self->list_pane);
}

static void
on_sidebar_item_activated_cb (LoomWindow      *self,
                              LoomSidebarItem *item,
                              LoomSidebar     *sidebar)
{
  g_assert (LOOM_IS_WINDOW (self));

  /* Going to a collection or a folder is leaving the search for its sessions. */
  if (loom_session_list_get_searching (self->session_list))
    gtk_editable_set_text (GTK_EDITABLE (loom_session_list_get_search_entry (self->session_list)),
                           "");
  adw_leaflet_set_visible_child (self->leaflet, self->list_pane);
}

static void
on_sidebar_selected_item_changed_cb (LoomWindow  *self,
                                     GParamSpec  *pspec,
                                     LoomSidebar *sidebar)
{
  LoomSidebarItem *item;

  g_assert (LOOM_IS_WINDOW (self));

  item = loom_sidebar_get_selected_item (sidebar);
  if (item == NULL)
    return;

  loom_session_list_set_scope (self->session_list, loom_sidebar_item_get_collection (item),
                               loom_sidebar_item_get_folder_id (item));
}

static void
on_sessions_dropped_cb (LoomWindow        *self,
                        const char *const *uuids,
                        guint              target,
                        gint64             folder_id,
                        LoomSidebar       *sidebar)
{
  g_assert (LOOM_IS_WINDOW (self));

  loom_window_move_sessions (self, uuids, (LoomCollection)target, folder_id);
}

/* ——— Window actions ——— */

static void
show_collection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  LoomWindow    *self = LOOM_WINDOW (widget);
  LoomCollection collection;

  if (!loom_collection_from_string (g_variant_get_string (parameter, NULL), &collection) ||
      collection == LOOM_COLLECTION_EVERYTHING)
    return;

  /* The shortcuts work from the welcome page too, where there is nothing to show. */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "sessions") != 0)
    return;

  loom_sidebar_select_collection (self->sidebar, collection);
  if (adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->list_pane);
}

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  GtkWidget  *focus;

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "sessions") != 0)
    return;

  /* In the timeline (or its search bar), Ctrl+F searches the session it shows. */
  focus = gtk_root_get_focus (GTK_ROOT (self));
  if (self->shown_session != NULL && focus != NULL &&
      gtk_widget_is_ancestor (focus, self->content_pane))
    {
      loom_timeline_search_bar_open (self->timeline_search);
      return;
    }

  if (adw_leaflet_get_folded (self->leaflet))
    adw_leaflet_set_visible_child (self->leaflet, self->list_pane);
  gtk_widget_grab_focus (GTK_WIDGET (loom_session_list_get_search_entry (self->session_list)));
}

static void
search_session_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);

  if (self->shown_session != NULL)
    loom_timeline_search_bar_open (self->timeline_search);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);

  if (g_str_equal (action_name, "win.find-next"))
    loom_timeline_search_bar_next (self->timeline_search);
  else
    loom_timeline_search_bar_previous (self->timeline_search);
}

static void
toggle_details_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

static void
jump_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);

  if (self->shown_session == NULL)
    return;

  if (g_str_equal (action_name, "win.jump-to-start"))
    loom_timeline_view_scroll_to_start (self->timeline_view);
  else
    loom_timeline_view_scroll_to_end (self->timeline_view);
}

/* ——— Life cycle ——— */

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
      loom_session_list_set_store (self->session_list, self->store);
      loom_timeline_search_bar_set_store (self->timeline_search, self->store);
      loom_window_set_watcher (self, loom_application_get_source_watcher (app));
      loom_window_set_import_problems (self, loom_application_get_import_problems (app));
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

      /* Without a store there is nothing to import into, nor problems to list. */
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-folder", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.load-samples", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-import-problems", FALSE);
    }

  loom_window_reload (self);
}

/* The size was held back while the user resized: write it once, on the way out. */
static gboolean
loom_window_close_request (GtkWindow *window)
{
  LoomWindow *self = LOOM_WINDOW (window);

  g_settings_apply (self->settings);
  /* An import the user started ends with the window rather than reporting to nobody. */
  g_cancellable_cancel (self->import_cancellable);

  return GTK_WINDOW_CLASS (loom_window_parent_class)->close_request (window);
}

static void
loom_window_dispose (GObject *object)
{
  LoomWindow *self = LOOM_WINDOW (object);

  /* A window destroyed without being closed still keeps its size. */
  if (self->settings != NULL)
    g_settings_apply (self->settings);

  loom_window_import_dispose (self);
  g_clear_object (&self->toasts);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->shown_session);
  g_clear_pointer (&self->shown_record, loom_session_record_free);
  g_clear_pointer (&self->folder_moves, g_array_unref);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (loom_window_parent_class)->dispose (object);
}

static void
loom_window_class_init (LoomWindowClass *klass)
{
  static const char *const collections[] = {
    "all", "recent", "pinned", "active", "archived", "trash",
  };
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = loom_window_dispose;

  window_class->close_request = loom_window_close_request;

  g_type_ensure (LOOM_TYPE_SESSION_DETAILS);
  g_type_ensure (LOOM_TYPE_SESSION_LIST);
  g_type_ensure (LOOM_TYPE_SIDEBAR);
  g_type_ensure (LOOM_TYPE_TIMELINE_SEARCH_BAR);
  g_type_ensure (LOOM_TYPE_TIMELINE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, content_pane);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, details);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, details_button);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, empty_progress);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, list_pane);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, list_progress);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, session_list);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, several_page);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, session_menu_button);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, sidebar_pane);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, timeline_search);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, LoomWindow, unavailable_page);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_leaflet_folded_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_open_session_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_search_hit_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_session_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_session_selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sessions_dropped_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_item_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_selected_item_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_hit_chosen_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_search_open_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_search_query_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.show-collection", "s",
                                   show_collection_action);
  gtk_widget_class_install_action (widget_class, "win.focus-search", NULL, focus_search_action);
  gtk_widget_class_install_action (widget_class, "win.search-session", NULL, search_session_action);
  gtk_widget_class_install_action (widget_class, "win.find-next", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.find-previous", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-details", NULL, toggle_details_action);
  gtk_widget_class_install_action (widget_class, "win.jump-to-start", NULL, jump_action);
  gtk_widget_class_install_action (widget_class, "win.jump-to-end", NULL, jump_action);
  loom_window_import_class_init (widget_class);
  loom_window_actions_class_init (widget_class);

  /* GtkWindow provides window.close; Ctrl+W is the shortcut GNOME applications give it. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "win.focus-search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-details", NULL);
  /* From hit to hit in the open session, as in GNOME's editors and browsers. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "win.find-next",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.find-previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, 0, "win.find-next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F3, GDK_SHIFT_MASK,
                                       "win.find-previous", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (collections); i++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + i, GDK_CONTROL_MASK,
                                         "win.show-collection", "s", collections[i]);

  /* The session actions' own shortcuts. A text entry that has the focus handles Delete itself
   * before the window sees it, so typing in the search entry deletes text, not sessions. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "session.trash", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "session.trash", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "session.rename", NULL);
  /* As in Files. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "folder.new", NULL);
}

static void
loom_window_init (LoomWindow *self)
{
  GtkEventController *keys;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->toasts = loom_toast_queue_new (self->toast_overlay);

  gtk_menu_button_set_create_popup_func (self->session_menu_button, update_session_menu_cb, self,
                                         NULL);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_list_key_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (keys, "key-released", G_CALLBACK (on_list_key_released_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->session_list), keys);
  update_session_menu_cb (self->session_menu_button, self);
  loom_window_show_session (self, NULL, 0);
  loom_window_actions_update (self);

  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_changed_cb), NULL);

  /* Delayed, so that resizing does not write to dconf on every step; closing applies it. */
  self->settings = g_settings_new (APP_ID);
  g_settings_delay (self->settings);
  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
}

LoomWindow *
loom_window_new (LoomApplication *application)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (application), NULL);

  return g_object_new (LOOM_TYPE_WINDOW, "application", application, NULL);
}

LoomStore *
loom_window_get_store (LoomWindow *self)
{
  g_return_val_if_fail (LOOM_IS_WINDOW (self), NULL);

  return self->store;
}

static void
reload (LoomWindow *self,
        gboolean    following_import)
{
  g_autoptr (GError) error = NULL;
  gboolean any = FALSE;

  if (self->store == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "unavailable");
      return;
    }

  /* The sidebar is worth showing as soon as any session exists, even one in the trash. */
  if (!loom_store_has_sessions (self->store, &any, &error))
    {
      loom_window_show_error (self, _ ("Could not read the history"), error);
      return;
    }

  if (!any)
    {
      loom_window_show_session (self, NULL, 0);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      loom_window_actions_update (self);
      return;
    }

  /* The sidebar first: a folder that is gone moves its selection, and so the list's scope. */
  if (!loom_sidebar_reload (self->sidebar, self->store, &error))
    loom_window_show_error (self, _ ("Could not list the folders"), error);
  loom_session_list_reload (self->session_list);
  loom_window_refresh_shown_session (self, following_import);
  loom_window_actions_update (self);

  gtk_stack_set_visible_child_name (self->stack, "sessions");
}

void
loom_window_reload (LoomWindow *self)
{
  g_return_if_fail (LOOM_IS_WINDOW (self));

  reload (self, FALSE);
}

/* While a long import runs, the list is read again every 0.7 s (loom-window-import.c). The
 * session being read is read again only when the import added to it: its details and its
 * timeline, a long one maybe, need not be read anew at every tick. */
void
loom_window_reload_following_import (LoomWindow *self)
{
  g_assert (LOOM_IS_WINDOW (self));

  reload (self, TRUE);
}

GPtrArray *
loom_window_get_selected_sessions (LoomWindow *self)
{
  g_return_val_if_fail (LOOM_IS_WINDOW (self), NULL);

  return loom_session_list_get_selected (self->session_list);
}

guint
loom_window_get_n_selected_sessions (LoomWindow *self)
{
  g_return_val_if_fail (LOOM_IS_WINDOW (self), 0);

  return loom_session_list_get_n_selected (self->session_list);
}

LoomSession *
loom_window_get_shown_session (LoomWindow *self)
{
  g_return_val_if_fail (LOOM_IS_WINDOW (self), NULL);

  return self->shown_session;
}

void
loom_window_add_toast (LoomWindow *self,
                       AdwToast   *toast)
{
  g_return_if_fail (LOOM_IS_WINDOW (self));
  g_return_if_fail (ADW_IS_TOAST (toast));

  loom_toast_queue_add (self->toasts, toast, FALSE);
}
