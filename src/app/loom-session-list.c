/* loom-session-list.c — the middle pane: the sessions of a collection or folder.
 *
 * The list is a GtkListView over LoomSessionListModel, which reads the store a page at a time:
 * sorting and filtering happen in the store's query, never in a sort or filter model over the
 * whole list, so that 100,000 sessions open as fast as ten. For the same reason the selection
 * is a LoomSessionSelection, which keeps positions, rather than a GtkMultiSelection, which reads
 * every item it selects. The rows' drag source and session menu are in loom-session-list-rows.c.
 *
 * The search entry at the top searches all history, whatever the list shows: while it holds a
 * query, the pane shows the results (LoomSearchResults) in the list's place, its header says
 * how many, and the sort and filter menus give way to the search's own filters. Clearing the
 * entry brings the list back as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "loom-session-list-private.h"
#include "loom-session-row.h"
#include "loom-session-selection.h"
#include "loom-store-projects.h"
#include "loom-style.h"

/* The filter menu lists the projects with the most sessions; a long tail would make it a
 * menu to scroll rather than to read. */
#define MAX_MENU_PROJECTS 25

G_DEFINE_FINAL_TYPE (LoomSessionList, loom_session_list, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_AGENT,
  PROP_N_SESSIONS,
  PROP_PROJECT,
  PROP_SORT,
  PROP_STORE,
  PROP_SUBTITLE,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SESSION_ACTIVATED,
  SELECTION_CHANGED,
  SEARCH_HIT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct
{
  const char *title;
  const char *icon_name;
  const char *empty_title;
  const char *empty_description;
} ScopeInfo;

/* Indexed by LoomCollection; the sidebar uses the same words. Marked here, translated where
 * read. */
static const ScopeInfo collection_info[] = {
  [LOOM_COLLECTION_ALL] = {
    N_("All Sessions"), "view-list-bullet-symbolic",
    N_("No Sessions"),
    N_("Archived sessions and sessions in the trash are listed apart"),
  },
  [LOOM_COLLECTION_RECENT] = {
    N_("Recent"), "document-open-recent-symbolic",
    N_("No Recent Sessions"),
    N_("Sessions updated in the last seven days appear here"),
  },
  [LOOM_COLLECTION_PINNED] = {
    N_("Pinned"), "view-pin-symbolic",
    N_("No Pinned Sessions"),
    N_("Pin the sessions you come back to, to keep them at hand here"),
  },
  [LOOM_COLLECTION_ACTIVE] = {
    N_("Active"), "media-playback-start-symbolic",
    N_("No Active Sessions"),
    N_("Sessions updated in the last 24 hours appear here"),
  },
  [LOOM_COLLECTION_ARCHIVED] = {
    N_("Archived"), "package-x-generic-symbolic",
    N_("No Archived Sessions"),
    N_("Older sessions move here, each with a verified backup"),
  },
  [LOOM_COLLECTION_TRASH] = {
    N_("Trash"), "user-trash-symbolic",
    N_("Trash Is Empty"),
    N_("Sessions moved to the trash stay here until it is emptied"),
  },
  [LOOM_COLLECTION_EVERYTHING] = {
    N_("Every Session"), "view-list-bullet-symbolic",
    N_("No Sessions"),
    N_("Sessions appear here once they are imported"),
  },
};

static const ScopeInfo folder_info = {
  NULL,
  "folder-symbolic",
  N_ ("Folder Is Empty"),
  N_ ("Drag sessions onto the folder in the sidebar, or use “Move to…” in a session’s menu"),
};

static const ScopeInfo *
get_scope_info (LoomSessionList *self)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  if (self->folder_id > 0)
    return &folder_info;
  g_assert (self->collection < G_N_ELEMENTS (collection_info));
  return &collection_info[self->collection];
}

static gboolean
has_filters (LoomSessionList *self)
{
  return self->agent != NULL || self->project != NULL;
}

static void
build_query (LoomSessionList  *self,
             LoomSessionQuery *query)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;

  *query = default_query;
  query->collection = self->collection;
  query->folder_id = self->folder_id;
  query->source = self->agent;
  query->project = self->project;
  query->sort = self->sort;
}

/* ——— Header and state ——— */

static void
set_string_property (LoomSessionList *self,
                     char           **field,
                     const char      *value,
                     GParamSpec      *pspec)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

static void
loom_session_list_update_header (LoomSessionList *self)
{
  g_autoptr (GString) subtitle = NULL;
  g_autofree char *count = NULL;
  guint            n_sessions = loom_session_list_get_n_sessions (self);
  const char      *title;

  g_assert (LOOM_IS_SESSION_LIST (self));

  /* While searching, the header is the search's. */
  if (self->searching)
    {
      const char *query = loom_search_results_get_query (self->search_results);

      set_string_property (self, &self->title, _ ("Search"), properties[PROP_TITLE]);
      set_string_property (self, &self->subtitle,
                           loom_search_results_get_summary (self->search_results),
                           properties[PROP_SUBTITLE]);
      if (query != NULL && loom_search_filter_popover_has_filters (query))
        gtk_widget_add_css_class (GTK_WIDGET (self->search_filter_button), "filter-active");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->search_filter_button), "filter-active");
      return;
    }

  if (self->folder_id > 0)
    title = self->folder_name != NULL ? self->folder_name : "";
  else
    title = _ (get_scope_info (self)->title);

  /* Grouped by the locale's rule: "1,234" reads better than "1234" in a long history. */
  count = g_strdup_printf ("%'u", n_sessions);
  subtitle = g_string_new (NULL);
  g_string_printf (subtitle, ngettext ("%s session", "%s sessions", n_sessions), count);
  if (self->agent != NULL)
    /* Translators: a filter added to the session count, e.g. "12 sessions · Codex". */
    g_string_append_printf (subtitle, _ (" · %s"), loom_session_row_agent_name (self->agent));
  if (self->project != NULL)
    g_string_append_printf (subtitle, _ (" · %s"),
                            self->project_name != NULL ? self->project_name : self->project);

  set_string_property (self, &self->title, title, properties[PROP_TITLE]);
  /* An empty list says so in its own page; the header needs no "0 sessions" then, unless
   * the filters are what empties it. */
  set_string_property (self, &self->subtitle,
                       self->store != NULL && (n_sessions > 0 || has_filters (self)) ? subtitle->str
                                                                                     : NULL,
                       properties[PROP_SUBTITLE]);

  /* A filter that hides sessions must not be forgotten: its button says it is on. */
  if (has_filters (self))
    gtk_widget_add_css_class (GTK_WIDGET (self->filter_button), "filter-active");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->filter_button), "filter-active");
}

static void
loom_session_list_update_state (LoomSessionList *self)
{
  const ScopeInfo *info = get_scope_info (self);

  g_assert (LOOM_IS_SESSION_LIST (self));

  if (self->searching)
    {
      gtk_stack_set_visible_child_name (self->stack, "search");
      return;
    }

  if (self->failed)
    {
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }

  if (loom_session_list_get_n_sessions (self) > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }

  if (has_filters (self))
    {
      adw_status_page_set_icon_name (self->empty_page, "edit-find-symbolic");
      adw_status_page_set_title (self->empty_page, _ ("No Matching Sessions"));
      adw_status_page_set_description (self->empty_page,
                                       _ ("No session here matches the chosen agent and project"));
    }
  else
    {
      adw_status_page_set_icon_name (self->empty_page, info->icon_name);
      adw_status_page_set_title (self->empty_page, _ (info->empty_title));
      adw_status_page_set_description (self->empty_page, _ (info->empty_description));
    }
  gtk_widget_set_visible (self->clear_filters_button, has_filters (self));
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
loom_session_list_show_error (LoomSessionList *self,
                              const GError    *error)
{
  g_autofree char *escaped = NULL;

  g_assert (LOOM_IS_SESSION_LIST (self));

  /* The description is markup; the message may quote a path with an "&" in it. */
  escaped = g_markup_escape_text (error->message, -1);
  adw_status_page_set_description (self->error_page, escaped);
  self->failed = TRUE;
}

static void
loom_session_list_update_folder_name (LoomSessionList *self)
{
  g_autoptr (LoomFolder) folder = NULL;
  g_autofree char *id = NULL;

  g_assert (LOOM_IS_SESSION_LIST (self));

  g_clear_pointer (&self->folder_name, g_free);
  if (self->folder_id <= 0 || self->store == NULL)
    return;

  /* A folder that has just been deleted keeps no name; the window moves away from it. */
  id = g_strdup_printf ("%" G_GINT64_FORMAT, self->folder_id);
  folder = loom_store_find_folder (self->store, id, NULL);
  if (folder != NULL)
    self->folder_name = g_strdup (loom_folder_get_name (folder));
}

/* ——— Selection ——— */

void
loom_session_list_activate (LoomSessionList *self,
                            LoomSession     *session)
{
  g_assert (LOOM_IS_SESSION_LIST (self));
  g_assert (LOOM_IS_SESSION (session));

  g_free (self->activated_uuid);
  self->activated_uuid = g_strdup (loom_session_get_uuid (session));
  g_signal_emit (self, signals[SESSION_ACTIVATED], 0, session);
}

static void
loom_session_list_selection_changed (LoomSessionList *self)
{
  g_autoptr (GtkBitset) selected = NULL;

  g_assert (LOOM_IS_SESSION_LIST (self));

  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_get_size (selected) == 1)
    {
      guint position = gtk_bitset_get_minimum (selected);
      g_autoptr (LoomSession)
        session = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

      if (session != NULL && g_strcmp0 (loom_session_get_uuid (session), self->activated_uuid) != 0)
        loom_session_list_activate (self, session);
    }
  else
    {
      g_clear_pointer (&self->activated_uuid, g_free);
    }

  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static void
on_selection_changed_cb (LoomSessionList   *self,
                         guint              position,
                         guint              n_items,
                         GtkSelectionModel *selection)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  if (!self->restoring)
    loom_session_list_selection_changed (self);
}

GPtrArray *
loom_session_list_get_selected_uuids (LoomSessionList *self)
{
  g_autoptr (GPtrArray) sessions = loom_session_list_get_selected (self);
  GPtrArray *uuids = g_ptr_array_new_full (sessions->len + 1, g_free);

  for (guint i = 0; i < sessions->len; i++)
    g_ptr_array_add (uuids, g_strdup (loom_session_get_uuid (sessions->pdata[i])));
  return uuids;
}

static gboolean
same_uuids (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      if (g_strcmp0 (a->pdata[i], b->pdata[i]) != 0)
        return FALSE;
    }
  return TRUE;
}

/* After a reload: selects again the sessions of @uuids that moved, and reports a selection
 * that changed in the end (a session gone, say). */
static void
restore_selection (LoomSessionList *self,
                   GPtrArray       *uuids)
{
  g_autoptr (GPtrArray) now = loom_session_list_get_selected_uuids (self);
  g_autoptr (GtkBitset) selected = NULL;
  g_autoptr (GtkBitset) mask = NULL;
  guint n_items;

  if (same_uuids (uuids, now))
    return;

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  selected = gtk_bitset_new_empty ();
  for (guint i = 0; i < uuids->len; i++)
    {
      guint position;

      if (loom_session_list_model_find (self->model, uuids->pdata[i], &position))
        gtk_bitset_add (selected, position);
    }
  mask = gtk_bitset_new_range (0, n_items);

  self->restoring = TRUE;
  gtk_selection_model_set_selection (GTK_SELECTION_MODEL (self->selection), selected, mask);
  self->restoring = FALSE;

  g_ptr_array_unref (now);
  now = loom_session_list_get_selected_uuids (self);
  if (!same_uuids (uuids, now))
    loom_session_list_selection_changed (self);
}

static void
on_setup_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             LoomSessionList          *self)
{
  loom_session_list_setup_row (self, list_item);
}

static void
on_bind_cb (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            LoomSessionList          *self)
{
  LoomSessionRow *row = LOOM_SESSION_ROW (gtk_list_item_get_child (list_item));

  loom_session_row_set_session (row, gtk_list_item_get_item (list_item));
}

static void
on_unbind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              LoomSessionList          *self)
{
  LoomSessionRow *row = LOOM_SESSION_ROW (gtk_list_item_get_child (list_item));

  /* A recycled row must not keep an unrelated session alive or follow its changes. */
  loom_session_row_set_session (row, NULL);
}

/* Enter or a double click: the window shows the session (and, folded, goes to it). */
static void
on_activate_cb (LoomSessionList *self,
                guint            position,
                GtkListView     *list_view)
{
  g_autoptr (LoomSession) session = NULL;

  g_assert (LOOM_IS_SESSION_LIST (self));

  session = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  if (session != NULL)
    loom_session_list_activate (self, session);
}

/* ——— Search ——— */

static void
loom_session_list_update_search (LoomSessionList *self)
{
  g_autofree char *text = NULL;
  gboolean         searching;

  g_assert (LOOM_IS_SESSION_LIST (self));

  text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))));
  searching = *text != '\0';
  /* The entry also reports an emptiness it already had (as the window opens): there is then
   * no search to end. */
  if (!searching && !self->searching)
    return;
  loom_search_results_set_query (self->search_results, text);

  if (searching != self->searching)
    {
      self->searching = searching;
      gtk_widget_set_visible (GTK_WIDGET (self->search_filter_button), searching);
      gtk_widget_set_visible (GTK_WIDGET (self->sort_button), !searching);
      gtk_widget_set_visible (GTK_WIDGET (self->filter_button), !searching);
      gtk_widget_set_visible (self->empty_trash_button,
                              !searching && self->collection == LOOM_COLLECTION_TRASH &&
                                self->folder_id == 0);
    }

  loom_session_list_update_header (self);
  loom_session_list_update_state (self);
}

static gboolean
search_cleared_cb (gpointer user_data)
{
  LoomSessionList *self = user_data;

  self->search_cleared_id = 0;
  loom_session_list_update_search (self);
  return G_SOURCE_REMOVE;
}

static void
on_search_changed_cb (LoomSessionList *self,
                      GtkSearchEntry  *entry)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  g_clear_handle_id (&self->search_cleared_id, g_source_remove);

  /* An entry emptied reports it at once, without the pause; but replacing its text (a filter
   * chosen) empties it for a moment too, and leaving the search then would close the filter
   * popover and cancel the search. An entry still empty once the main loop is idle is empty. */
  if (*gtk_editable_get_text (GTK_EDITABLE (entry)) == '\0')
    {
      self->search_cleared_id = g_idle_add (search_cleared_cb, self);
      return;
    }

  loom_session_list_update_search (self);
}

/* Enter: the first hit, as in GNOME's search boxes. */
static void
on_search_activate_cb (LoomSessionList *self,
                       GtkSearchEntry  *entry)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  if (self->searching)
    loom_search_results_activate_first (self->search_results);
}

/* Escape empties the entry, and the list comes back. */
static void
on_search_stop_cb (LoomSessionList *self,
                   GtkSearchEntry  *entry)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

/* Ctrl+G and Shift+Ctrl+G in the entry go from hit to hit in the open session, as they do
 * elsewhere in the window; the entry would keep them for itself. */
static void
on_search_next_match_cb (LoomSessionList *self,
                         GtkSearchEntry  *entry)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.find-next", NULL);
}

static void
on_search_previous_match_cb (LoomSessionList *self,
                             GtkSearchEntry  *entry)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.find-previous", NULL);
}

/* Down goes from the entry into the results. */
static gboolean
on_search_key_pressed_cb (LoomSessionList       *self,
                          guint                  keyval,
                          guint                  keycode,
                          GdkModifierType        state,
                          GtkEventControllerKey *controller)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  if ((keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down) &&
      (state & GDK_MODIFIER_MASK & ~GDK_LOCK_MASK) == 0 && self->searching &&
      loom_search_results_focus_first (self->search_results))
    return GDK_EVENT_STOP;

  return GDK_EVENT_PROPAGATE;
}

static void
on_search_summary_changed_cb (LoomSessionList   *self,
                              GParamSpec        *pspec,
                              LoomSearchResults *results)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  if (self->searching)
    loom_session_list_update_header (self);
}

static void
on_search_hit_activated_cb (LoomSessionList   *self,
                            const char        *session_uuid,
                            gint64             seq,
                            LoomSearchResults *results)
{
  g_assert (LOOM_IS_SESSION_LIST (self));

  g_signal_emit (self, signals[SEARCH_HIT_ACTIVATED], 0, session_uuid, seq,
                 loom_search_results_get_query (results));
}

/* The popover reads the filters of the query as it opens; the projects and folders to offer
 * change with every import, and are read then too. */
static void
update_search_filters_cb (GtkMenuButton *button,
                          gpointer       user_data)
{
  LoomSessionList *self = LOOM_SESSION_LIST (user_data);

  loom_search_filter_popover_update (self->search_filter_popover, self->store,
                                     gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/* A filter chosen: the entry shows the query with it, and searches. */
static void
on_search_filter_query_changed_cb (LoomSessionList         *self,
                                   GParamSpec              *pspec,
                                   LoomSearchFilterPopover *popover)
{
  const char *query = loom_search_filter_popover_get_query (popover);

  g_assert (LOOM_IS_SESSION_LIST (self));

  if (g_strcmp0 (query, gtk_editable_get_text (GTK_EDITABLE (self->search_entry))) == 0)
    return;

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), query);
  gtk_editable_set_position (GTK_EDITABLE (self->search_entry), -1);
}

/* ——— Actions ——— */

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LoomSessionList *self = LOOM_SESSION_LIST (widget);

  g_object_freeze_notify (G_OBJECT (self));
  loom_session_list_set_agent_filter (self, NULL);
  loom_session_list_set_project_filter (self, NULL);
  g_object_thaw_notify (G_OBJECT (self));
}

static int
compare_project_names (gconstpointer a,
                       gconstpointer b)
{
  const LoomProjectSummary *pa = *(LoomProjectSummary *const *)a;
  const LoomProjectSummary *pb = *(LoomProjectSummary *const *)b;
  int                       cmp = g_utf8_collate (pa->name, pb->name);

  return cmp != 0 ? cmp : strcmp (pa->path, pb->path);
}

/* Fills the projects' part of the filter menu as it opens. */
static void
refresh_projects_cb (GtkMenuButton *button,
                     gpointer       user_data)
{
  LoomSessionList *self = LOOM_SESSION_LIST (user_data);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) projects = NULL;
  gboolean current_listed = self->project == NULL;
  guint    n_shown;

  g_menu_remove_all (self->project_section);
  g_menu_append (self->project_section, _ ("All _Projects"), "session-list.project::");

  if (self->store == NULL || !(projects = loom_store_list_projects (self->store, NULL)))
    return;

  /* The projects with the most sessions, and the chosen one so that the menu shows what
   * filters; listed by name, which is how people look for them. */
  n_shown = MIN (projects->len, MAX_MENU_PROJECTS);
  for (guint i = n_shown; i < projects->len && !current_listed; i++)
    {
      if (g_strcmp0 (((LoomProjectSummary *)projects->pdata[i])->path, self->project) == 0)
        {
          g_ptr_array_insert (projects, n_shown, g_ptr_array_steal_index (projects, i));
          n_shown++;
          break;
        }
    }
  g_ptr_array_set_size (projects, n_shown);
  g_ptr_array_sort (projects, compare_project_names);

  for (guint i = 0; i < projects->len; i++)
    {
      LoomProjectSummary *summary = projects->pdata[i];
      guint               n = GPOINTER_TO_UINT (g_hash_table_lookup (names, summary->name));

      g_hash_table_insert (names, summary->name, GUINT_TO_POINTER (n + 1));
    }

  for (guint i = 0; i < projects->len; i++)
    {
      LoomProjectSummary *summary = projects->pdata[i];
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      /* Two projects of the same name are told apart by their folder. */
      if (GPOINTER_TO_UINT (g_hash_table_lookup (names, summary->name)) > 1)
        /* Translators: a project in the filter menu that shares its name with another:
         * its name, then its folder. */
        label = g_strdup_printf (_ ("%s (%s)"), summary->name, summary->path);
      else
        label = g_strdup (summary->name);

      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "session-list.project",
                                               g_variant_new_string (summary->path));
      g_menu_append_item (self->project_section, item);
    }
}

/* ——— Queries ——— */

/* Shows the query of the scope, sort and filters from the start: the selection goes. */
static void
loom_session_list_requery (LoomSessionList *self)
{
  g_autoptr (GError) error = NULL;
  LoomSessionQuery query;
  gboolean         had_selection;

  g_assert (LOOM_IS_SESSION_LIST (self));

  if (self->model == NULL)
    {
      loom_session_list_update_header (self);
      loom_session_list_update_state (self);
      return;
    }

  had_selection = loom_session_list_get_n_selected (self) > 0 || self->activated_uuid != NULL;

  build_query (self, &query);
  self->failed = FALSE;
  if (!loom_session_list_model_set_query (self->model, &query, &error))
    loom_session_list_show_error (self, error);

  loom_session_list_update_folder_name (self);
  loom_session_list_update_header (self);
  loom_session_list_update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SESSIONS]);

  if (loom_session_list_get_n_sessions (self) > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);

  /* A new list has nothing selected; the selection model drops it silently. */
  if (had_selection)
    {
      g_clear_pointer (&self->activated_uuid, g_free);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
}

/* ——— GObject ——— */

static void
loom_session_list_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  LoomSessionList *self = LOOM_SESSION_LIST (widget);

  GTK_WIDGET_CLASS (loom_session_list_parent_class)
    ->size_allocate (widget, width, height, baseline);

  /* A popover is not laid out with the other children: it follows its parent from here. */
  if (self->context_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
}

static void
loom_session_list_dispose (GObject *object)
{
  LoomSessionList *self = LOOM_SESSION_LIST (object);

  g_clear_handle_id (&self->search_cleared_id, g_source_remove);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SESSION_LIST);

  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (loom_session_list_parent_class)->dispose (object);
}

static void
loom_session_list_finalize (GObject *object)
{
  LoomSessionList *self = LOOM_SESSION_LIST (object);

  g_free (self->folder_name);
  g_free (self->agent);
  g_free (self->project);
  g_free (self->project_name);
  g_free (self->title);
  g_free (self->subtitle);
  g_free (self->activated_uuid);

  G_OBJECT_CLASS (loom_session_list_parent_class)->finalize (object);
}

static void
loom_session_list_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  LoomSessionList *self = LOOM_SESSION_LIST (object);

  switch (prop_id)
    {
    /* Property actions keep their state in a string: "" stands for no filter. */
    case PROP_AGENT:
      g_value_set_string (value, self->agent != NULL ? self->agent : "");
      break;

    case PROP_N_SESSIONS:
      g_value_set_uint (value, loom_session_list_get_n_sessions (self));
      break;

    case PROP_PROJECT:
      g_value_set_string (value, self->project != NULL ? self->project : "");
      break;

    case PROP_SORT:
      g_value_set_string (value, loom_sort_to_string (self->sort));
      break;

    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_SUBTITLE:
      g_value_set_string (value, self->subtitle);
      break;

    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_list_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  LoomSessionList *self = LOOM_SESSION_LIST (object);
  const char      *text;
  LoomSort         sort;

  switch (prop_id)
    {
    case PROP_AGENT:
      text = g_value_get_string (value);
      loom_session_list_set_agent_filter (self, text != NULL && *text != '\0' ? text : NULL);
      break;

    case PROP_PROJECT:
      text = g_value_get_string (value);
      loom_session_list_set_project_filter (self, text != NULL && *text != '\0' ? text : NULL);
      break;

    case PROP_SORT:
      if (loom_sort_from_string (g_value_get_string (value), &sort))
        loom_session_list_set_sort (self, sort);
      break;

    case PROP_STORE:
      loom_session_list_set_store (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_list_class_init (LoomSessionListClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags     flags = G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = loom_session_list_dispose;
  object_class->finalize = loom_session_list_finalize;
  object_class->get_property = loom_session_list_get_property;
  object_class->set_property = loom_session_list_set_property;

  widget_class->size_allocate = loom_session_list_size_allocate;

  properties[PROP_AGENT] = g_param_spec_string ("agent", NULL, NULL, "", G_PARAM_READWRITE | flags);
  properties[PROP_N_SESSIONS] = g_param_spec_uint ("n-sessions", NULL, NULL, 0, G_MAXUINT, 0,
                                                   G_PARAM_READABLE | flags);
  properties[PROP_PROJECT] = g_param_spec_string ("project", NULL, NULL, "",
                                                  G_PARAM_READWRITE | flags);
  properties[PROP_SORT] = g_param_spec_string ("sort", NULL, NULL, "updated",
                                               G_PARAM_READWRITE | flags);
  properties[PROP_STORE] = g_param_spec_object ("store", NULL, NULL, LOOM_TYPE_STORE,
                                                G_PARAM_READWRITE | flags);
  properties[PROP_SUBTITLE] = g_param_spec_string ("subtitle", NULL, NULL, NULL,
                                                   G_PARAM_READABLE | flags);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READABLE | flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LoomSessionList::session-activated:
   * @session: the session
   *
   * A session was chosen: selected alone, or activated (Enter, double click, a click on the
   * session already selected).
   */
  signals[SESSION_ACTIVATED] = g_signal_new ("session-activated", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                             LOOM_TYPE_SESSION);

  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass),
                                             G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                             0);

  /**
   * LoomSessionList::search-hit-activated:
   * @session_uuid: the session of the hit
   * @seq: the hit's place in the session's timeline; 0 for its title
   * @query: what was searched for
   *
   * A search result was chosen.
   */
  signals[SEARCH_HIT_ACTIVATED] = g_signal_new ("search-hit-activated", G_TYPE_FROM_CLASS (klass),
                                                G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE,
                                                3, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_STRING);

  g_type_ensure (LOOM_TYPE_SEARCH_FILTER_POPOVER);
  g_type_ensure (LOOM_TYPE_SEARCH_RESULTS);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-session-list.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, clear_filters_button);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, empty_page);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, error_page);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, empty_trash_button);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, filter_button);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, list_view);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, project_section);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, search_entry);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, search_filter_button);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, search_filter_popover);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, search_results);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, sort_button);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, stack);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionList, toolbar);
  gtk_widget_class_bind_template_callback (widget_class, on_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_unbind_cb);

  gtk_widget_class_install_property_action (widget_class, "session-list.sort", "sort");
  gtk_widget_class_install_property_action (widget_class, "session-list.agent", "agent");
  gtk_widget_class_install_property_action (widget_class, "session-list.project", "project");
  gtk_widget_class_install_action (widget_class, "session-list.clear-filters", NULL,
                                   clear_filters_action);
  gtk_widget_class_install_action (widget_class, "session-list.show-menu", NULL,
                                   loom_session_list_show_menu_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "session-list.show-menu",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "session-list.show-menu", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsessionlist");
}

static void
loom_session_list_init (LoomSessionList *self)
{
  GtkEventController *search_keys;
  GtkLayoutManager   *layout;

  self->collection = LOOM_COLLECTION_ALL;
  self->sort = LOOM_SORT_UPDATED;

  gtk_widget_init_template (GTK_WIDGET (self));
  loom_style_add (GTK_WIDGET (self), "/org/intentloom/History/ui/loom-session-list.css");
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);

  self->selection = loom_session_selection_new (NULL);
  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (on_selection_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  self->context_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));

  gtk_menu_button_set_create_popup_func (self->filter_button, refresh_projects_cb, self, NULL);
  refresh_projects_cb (self->filter_button, self);

  g_signal_connect_object (self->search_entry, "search-changed", G_CALLBACK (on_search_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "activate", G_CALLBACK (on_search_activate_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "stop-search", G_CALLBACK (on_search_stop_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "next-match", G_CALLBACK (on_search_next_match_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_entry, "previous-match",
                           G_CALLBACK (on_search_previous_match_cb), self, G_CONNECT_SWAPPED);
  search_keys = gtk_event_controller_key_new ();
  g_signal_connect_object (search_keys, "key-pressed", G_CALLBACK (on_search_key_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->search_entry), search_keys);
  g_signal_connect_object (self->search_results, "notify::summary",
                           G_CALLBACK (on_search_summary_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->search_results, "hit-activated",
                           G_CALLBACK (on_search_hit_activated_cb), self, G_CONNECT_SWAPPED);
  gtk_menu_button_set_create_popup_func (self->search_filter_button, update_search_filters_cb, self,
                                         NULL);
  g_signal_connect_object (self->search_filter_popover, "notify::query",
                           G_CALLBACK (on_search_filter_query_changed_cb), self, G_CONNECT_SWAPPED);

  loom_session_list_update_header (self);
  loom_session_list_update_state (self);
}

/* ——— Public ——— */

GtkWidget *
loom_session_list_new (void)
{
  return g_object_new (LOOM_TYPE_SESSION_LIST, NULL);
}

LoomStore *
loom_session_list_get_store (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->store;
}

void
loom_session_list_set_store (LoomSessionList *self,
                             LoomStore       *store)
{
  LoomSessionQuery query;

  g_return_if_fail (LOOM_IS_SESSION_LIST (self));
  g_return_if_fail (store == NULL || LOOM_IS_STORE (store));

  if (!g_set_object (&self->store, store))
    return;

  g_clear_object (&self->model);
  g_clear_pointer (&self->activated_uuid, g_free);
  self->failed = FALSE;

  if (store != NULL)
    {
      build_query (self, &query);
      self->model = loom_session_list_model_new (store, &query);
    }
  loom_session_selection_set_model (self->selection, G_LIST_MODEL (self->model));
  loom_search_results_set_store (self->search_results, store);

  loom_session_list_update_folder_name (self);
  loom_session_list_update_header (self);
  loom_session_list_update_state (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SESSIONS]);
}

void
loom_session_list_set_scope (LoomSessionList *self,
                             LoomCollection   collection,
                             gint64           folder_id)
{
  g_return_if_fail (LOOM_IS_SESSION_LIST (self));
  g_return_if_fail (collection < G_N_ELEMENTS (collection_info));
  g_return_if_fail (folder_id >= 0);

  if (self->collection == collection && self->folder_id == folder_id)
    return;

  self->collection = collection;
  self->folder_id = folder_id;
  gtk_widget_set_visible (self->empty_trash_button, !self->searching &&
                                                      collection == LOOM_COLLECTION_TRASH &&
                                                      folder_id == 0);
  loom_session_list_requery (self);
}

LoomCollection
loom_session_list_get_collection (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), LOOM_COLLECTION_ALL);

  return self->collection;
}

gint64
loom_session_list_get_folder_id (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), 0);

  return self->folder_id;
}

void
loom_session_list_reload (LoomSessionList *self)
{
  g_autoptr (GPtrArray) uuids = NULL;
  g_autoptr (GError) error = NULL;
  GtkAdjustment *vadjustment;
  gboolean       at_top;
  guint          n_before;

  g_return_if_fail (LOOM_IS_SESSION_LIST (self));

  if (self->model == NULL)
    return;

  n_before = loom_session_list_get_n_sessions (self);
  if (loom_session_list_get_n_selected (self) <= MAX_KEPT_SELECTION)
    uuids = loom_session_list_get_selected_uuids (self);

  /* Someone at the top of the list wants to see new sessions come in; someone scrolled down
   * to an older one wants it to stay put, which the list view does by itself. */
  vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->list_view));
  at_top = vadjustment == NULL ||
           gtk_adjustment_get_value (vadjustment) <= gtk_adjustment_get_lower (vadjustment);

  self->failed = FALSE;
  if (!loom_session_list_model_reload (self->model, &error))
    loom_session_list_show_error (self, error);

  if (uuids != NULL)
    restore_selection (self, uuids);

  loom_session_list_update_folder_name (self);
  loom_session_list_update_header (self);
  loom_session_list_update_state (self);
  if (n_before != loom_session_list_get_n_sessions (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SESSIONS]);

  if (at_top && loom_session_list_get_n_sessions (self) > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);

  /* The search shown instead answers for the store as it was: it follows, in its own time. */
  if (self->searching)
    loom_search_results_refresh (self->search_results);
}

GPtrArray *
loom_session_list_get_selected (LoomSessionList *self)
{
  g_autoptr (GtkBitset) selected = NULL;
  GPtrArray    *sessions;
  GtkBitsetIter iter;
  guint         position;
  gboolean      valid;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  sessions = g_ptr_array_new_with_free_func (g_object_unref);
  if (self->model == NULL)
    return sessions;

  /* Read in runs of neighbours: a selection of thousands is a few queries, not thousands. */
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  valid = gtk_bitset_iter_init_first (&iter, selected, &position);
  while (valid)
    {
      g_autoptr (GPtrArray) run = NULL;
      g_autoptr (GError) error = NULL;
      guint start = position, end = position + 1;

      while ((valid = gtk_bitset_iter_next (&iter, &position)) && position == end)
        end++;

      if (!(run = loom_session_list_model_get_range (self->model, start, end - start, &error)))
        {
          g_warning ("Could not read the selected sessions: %s", error->message);
          continue;
        }
      for (guint i = 0; i < run->len; i++)
        g_ptr_array_add (sessions, g_object_ref (run->pdata[i]));
    }

  return sessions;
}

guint
loom_session_list_get_n_selected (LoomSessionList *self)
{
  g_autoptr (GtkBitset) selected = NULL;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), 0);

  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  return (guint)MIN (gtk_bitset_get_size (selected), G_MAXUINT);
}

gboolean
loom_session_list_select_uuid (LoomSessionList *self,
                               const char      *uuid)
{
  guint position;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), FALSE);
  g_return_val_if_fail (uuid != NULL, FALSE);

  if (self->model == NULL || !loom_session_list_model_find (self->model, uuid, &position))
    return FALSE;

  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
  return TRUE;
}

LoomSort
loom_session_list_get_sort (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), LOOM_SORT_UPDATED);

  return self->sort;
}

void
loom_session_list_set_sort (LoomSessionList *self,
                            LoomSort         sort)
{
  g_return_if_fail (LOOM_IS_SESSION_LIST (self));
  g_return_if_fail (sort <= LOOM_SORT_TITLE);

  if (self->sort == sort)
    return;

  self->sort = sort;
  loom_session_list_requery (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SORT]);
}

const char *
loom_session_list_get_agent_filter (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->agent;
}

void
loom_session_list_set_agent_filter (LoomSessionList *self,
                                    const char      *source)
{
  g_return_if_fail (LOOM_IS_SESSION_LIST (self));

  if (g_strcmp0 (self->agent, source) == 0)
    return;

  g_free (self->agent);
  self->agent = g_strdup (source);
  loom_session_list_requery (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AGENT]);
}

const char *
loom_session_list_get_project_filter (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->project;
}

void
loom_session_list_set_project_filter (LoomSessionList *self,
                                      const char      *project_path)
{
  g_return_if_fail (LOOM_IS_SESSION_LIST (self));

  if (g_strcmp0 (self->project, project_path) == 0)
    return;

  g_free (self->project);
  self->project = g_strdup (project_path);
  g_clear_pointer (&self->project_name, g_free);
  if (project_path != NULL)
    {
      const char *slash = strrchr (project_path, '/');

      /* The header shows the name people know the project by: its folder's. */
      self->project_name = g_strdup (slash != NULL && slash[1] != '\0' ? slash + 1 : project_path);
    }
  loom_session_list_requery (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECT]);
}

const char *
loom_session_list_get_title (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->title;
}

const char *
loom_session_list_get_subtitle (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->subtitle;
}

guint
loom_session_list_get_n_sessions (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), 0);

  return self->model != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->model)) : 0;
}

GtkSearchEntry *
loom_session_list_get_search_entry (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->search_entry;
}

GtkWidget *
loom_session_list_get_search_results (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return GTK_WIDGET (self->search_results);
}

gboolean
loom_session_list_get_searching (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), FALSE);

  return self->searching;
}

LoomSessionListModel *
loom_session_list_get_model (LoomSessionList *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST (self), NULL);

  return self->model;
}
