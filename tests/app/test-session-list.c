/* test-session-list.c — the session list pane on its own, on a store of 500 sessions.
 *
 * The pane sits in a window of its own under a header bar that shows its title and count, as
 * the main window does. The test changes scope, sort and filters through the pane's actions,
 * selects with the list view's own actions, asks the rows' drag sources for what they carry,
 * opens the session menu, and saves screenshots (light and dark, wide and narrow) to
 * tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <sqlite3.h>
#include <string.h>

#include "loom-core.h"
#include "loom-search-tokenizer.h"
#include "loom-session-list.h"
#include "loom-session-row.h"
#include "loom-sidebar-item.h"
#include "loom-sidebar-row.h"
#include "loom-store.h"
#include "loom-store-projects.h"

#include "loom-ui-test.h"

#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)
#define N_SESSIONS        500
#define HOUR_MS           ((gint64)3600 * 1000)

/* ——— Waiting and looking (the common helpers are in loom-ui-test.c) ——— */

static gboolean
is_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (GTK_WIDGET (data));
}

static GtkWidget *sort_root;

static int
compare_y (gconstpointer a,
           gconstpointer b)
{
  graphene_point_t pa, pb;

  g_assert_true (
    gtk_widget_compute_point (*(GtkWidget **)a, sort_root, &GRAPHENE_POINT_INIT (0, 0), &pa));
  g_assert_true (
    gtk_widget_compute_point (*(GtkWidget **)b, sort_root, &GRAPHENE_POINT_INIT (0, 0), &pb));
  return pa.y < pb.y ? -1 : pa.y > pb.y;
}

/* The widgets of @type a user can see under @root, top to bottom (loom_ui_test_find_visible()
 * keeps tree order). */
static GPtrArray *
find_visible (GtkWidget *root,
              GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  loom_ui_test_collect_visible (root, type, found);
  sort_root = root;
  g_ptr_array_sort (found, compare_y);
  return found;
}

static GtkWidget *
find_one (GtkWidget *root,
          GType      type)
{
  g_autoptr (GPtrArray) found = find_visible (root, type);

  g_assert_cmpuint (found->len, ==, 1);
  return found->pdata[0];
}

/* ——— The store ——— */

static const char *const topics[] = {
  "Fix the flaky login test",
  "Port the settings page to libadwaita",
  "Explain the build failure on arm64",
  "Stream huge JSONL lines instead of reading them whole",
  "Draft the release notes",
  "Add keyboard shortcuts to the timeline",
  "Profile the importer on a 2 GB corpus",
  "Review the migration to schema v2",
  "Write the Flatpak manifest",
  "Track down the memory leak in the watcher",
  "Translate the welcome page",
  "Refactor the search query parser",
};
static const char *const projects[] = {
  "intentloom-history", "gnome-app", "webapp", "toolchain", "dotfiles", "gtk",
};

typedef struct
{
  char            *dir;
  char            *db_path;
  LoomStore       *store;
  gint64           now;
  gint64           folder_id;
  gint64           empty_folder_id;
  GtkWidget       *window;
  LoomSessionList *list;
  guint            n_activated;
  guint            n_selection_changed;
  char            *last_activated;
} Fixture;

static void
exec_raw (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  char    *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

/* Session i: updated i hours ago (a few days apart at the end); 60 % Claude Code, 30 % Codex,
 * 10 % Gemini CLI; six projects; some pinned, archived, trashed, or with their source gone. */
static void
fill_store (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (LoomFolder) empty_folder = NULL;

  folder = loom_store_create_folder (f->store, "Release 1.0", &error);
  g_assert_no_error (error);
  f->folder_id = loom_folder_get_id (folder);
  empty_folder = loom_store_create_folder (f->store, "Someday", &error);
  g_assert_no_error (error);
  f->empty_folder_id = loom_folder_get_id (empty_folder);

  for (guint i = 0; i < N_SESSIONS; i++)
    {
      g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
      g_autoptr (GDateTime) created = NULL;
      g_autofree char *date = NULL;
      const char      *project = projects[(i * 7) % G_N_ELEMENTS (projects)];
      guint            kind = i % 10;

      record->updated_at = f->now - (gint64)i * (i < 48 ? 1 : 9) * HOUR_MS - 60 * 1000;
      record->created_at = record->updated_at - (gint64)(i % 5 + 1) * HOUR_MS;
      created = g_date_time_new_from_unix_utc (record->created_at / 1000);
      date = g_date_time_format (created, "%Y-%m-%d");
      record->title = g_strdup_printf ("%s%s - %s", topics[i % G_N_ELEMENTS (topics)],
                                       i >= G_N_ELEMENTS (topics) ? " again" : "", date);
      record->source = g_strdup (kind < 6 ? "claude-code" : kind < 9 ? "codex" : "gemini");
      record->source_session_id = g_strdup_printf ("source-%u", i);
      record->project_name = g_strdup (project);
      record->project_path = g_build_filename ("/home/ada/src", project, NULL);
      record->message_count = 2 + (i * 37) % 400;

      g_assert_true (loom_store_insert_session (f->store, record, &error));
      g_assert_no_error (error);

      if (i % 37 == 1 && !loom_store_set_pinned (f->store, record->uuid, TRUE, &error))
        g_error ("%s", error->message);
      if (i % 41 == 40 && !loom_store_set_archived (f->store, record->uuid, TRUE, &error))
        g_error ("%s", error->message);
      if (i % 43 == 42 && !loom_store_set_trashed (f->store, record->uuid, TRUE, &error))
        g_error ("%s", error->message);
      if (i >= 20 && i < 32 &&
          !loom_store_move_session (f->store, record->uuid, f->folder_id, &error))
        g_error ("%s", error->message);
    }

  /* The agent deleted a few of its files: our copies stay. */
  exec_raw (f->db_path, "UPDATE sessions SET source_missing = 1 WHERE source_session_id IN"
                        " ('source-2', 'source-29', 'source-58')");
}

static guint
count_query (Fixture       *f,
             LoomCollection collection,
             gint64         folder_id,
             const char    *source,
             const char    *project)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  guint n = 0;

  query.collection = collection;
  query.folder_id = folder_id;
  query.source = source;
  query.project = project;
  g_assert_true (loom_store_count_sessions (f->store, &query, &n, &error));
  g_assert_no_error (error);
  return n;
}

static void
on_session_activated_cb (LoomSessionList *list,
                         LoomSession     *session,
                         Fixture         *f)
{
  f->n_activated++;
  g_free (f->last_activated);
  f->last_activated = g_strdup (loom_session_get_uuid (session));
}

static void
on_selection_changed_cb (LoomSessionList *list,
                         Fixture         *f)
{
  f->n_selection_changed++;
}

/* A stand-in for the window's session actions (another part of the window installs them), so
 * that the session menu shows its items as they will be. */
static void
install_session_actions (GtkWidget *window)
{
  static const char *const names[] = {
    "rename",  "copy-rename-command", "pin",   "move-to",
    "archive", "open-source-folder",  "trash", "delete",
  };
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (GSimpleAction) action = g_simple_action_new (names[i], NULL);

      g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
    }
  gtk_widget_insert_action_group (window, "session", G_ACTION_GROUP (group));
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  GtkWidget *header_bar;
  GtkWidget *title;
  GtkWidget *box;

  f->dir = g_dir_make_tmp ("loom-test-session-list-XXXXXX", &error);
  g_assert_no_error (error);
  f->db_path = g_build_filename (f->dir, "history.db", NULL);
  f->store = loom_store_open (f->db_path, &error);
  g_assert_no_error (error);
  f->now = g_get_real_time () / 1000;
  fill_store (f);

  /* As the window will have it: the pane under a header bar that shows its title and count. */
  f->list = g_object_ref_sink (LOOM_SESSION_LIST (loom_session_list_new ()));
  gtk_widget_set_vexpand (GTK_WIDGET (f->list), TRUE);
  title = adw_window_title_new (NULL, NULL);
  g_object_bind_property (f->list, "title", title, "title", G_BINDING_SYNC_CREATE);
  g_object_bind_property (f->list, "subtitle", title, "subtitle", G_BINDING_SYNC_CREATE);
  header_bar = adw_header_bar_new ();
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header_bar), title);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), header_bar);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (f->list));

  f->window = adw_window_new ();
  adw_window_set_content (ADW_WINDOW (f->window), box);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 400, 720);
  install_session_actions (f->window);

  g_signal_connect (f->list, "session-activated", G_CALLBACK (on_session_activated_cb), f);
  g_signal_connect (f->list, "selection-changed", G_CALLBACK (on_selection_changed_cb), f);

  loom_session_list_set_store (f->list, f->store);
  gtk_window_present (GTK_WINDOW (f->window));
  loom_ui_test_wait_for_frames (f->window, 2);
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_assert_cmpint (g_remove (child), ==, 0);
    }
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_assert_true (loom_ui_test_wait_until (is_unmapped, f->list));
  g_assert_finalize_object (f->list);
  g_assert_finalize_object (f->store);
  remove_tree (f->dir);
  g_free (f->db_path);
  g_free (f->dir);
  g_free (f->last_activated);
}

static void
set_dark (Fixture *f,
          gboolean dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
  loom_ui_test_wait_for_frames (f->window, 3);
}

static GtkWidget *
list_view (Fixture *f)
{
  return find_one (GTK_WIDGET (f->list), GTK_TYPE_LIST_VIEW);
}

/* The sessions of the rows on screen, top to bottom. */
static GPtrArray *
visible_sessions (Fixture *f)
{
  g_autoptr (GPtrArray) rows = find_visible (GTK_WIDGET (f->list), LOOM_TYPE_SESSION_ROW);
  GPtrArray *sessions = g_ptr_array_new ();

  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (sessions, loom_session_row_get_session (rows->pdata[i]));
  return sessions;
}

static LoomSessionRow *
visible_row (Fixture *f,
             guint    index)
{
  g_autoptr (GPtrArray) rows = find_visible (GTK_WIDGET (f->list), LOOM_TYPE_SESSION_ROW);

  g_assert_cmpuint (index, <, rows->len);
  return rows->pdata[index];
}

static GtkWidget *
find_menu_button (Fixture    *f,
                  const char *tooltip)
{
  g_autoptr (GPtrArray) buttons = find_visible (GTK_WIDGET (f->list), GTK_TYPE_MENU_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_widget_get_tooltip_text (buttons->pdata[i]), tooltip) == 0)
        return buttons->pdata[i];
    }
  g_assert_not_reached ();
}

static const char *
shown_status_title (Fixture *f)
{
  g_autoptr (GPtrArray) pages = find_visible (GTK_WIDGET (f->list), ADW_TYPE_STATUS_PAGE);

  return pages->len == 1 ? adw_status_page_get_title (pages->pdata[0]) : NULL;
}

static void
activate (Fixture    *f,
          const char *action,
          const char *format,
          ...)
{
  va_list   args;
  GVariant *parameter = NULL;

  if (format != NULL)
    {
      va_start (args, format);
      parameter = g_variant_new_va (format, NULL, &args);
      va_end (args);
    }
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (f->list), action, parameter));
  loom_ui_test_wait_for_frames (f->window, 2);
}

/* ——— Tests ——— */

static void
test_scopes (Fixture      *f,
             gconstpointer data)
{
  guint            n_all = count_query (f, LOOM_COLLECTION_ALL, 0, NULL, NULL);
  guint            n_pinned = count_query (f, LOOM_COLLECTION_PINNED, 0, NULL, NULL);
  g_autofree char *subtitle = NULL;
  g_autoptr (GPtrArray) sessions = NULL;
  LoomSessionListModel *model = loom_session_list_get_model (f->list);

  /* All Sessions, newest first; only the pages on screen (and the rows the list view keeps
   * ready beyond them) were read. */
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==, n_all);
  g_assert_cmpstr (loom_session_list_get_title (f->list), ==, "All Sessions");
  subtitle = g_strdup_printf ("%u sessions", n_all);
  g_assert_cmpstr (loom_session_list_get_subtitle (f->list), ==, subtitle);
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (model), <=, 2);
  sessions = visible_sessions (f);
  g_assert_cmpuint (sessions->len, >=, 8);
  for (guint i = 1; i < sessions->len; i++)
    g_assert_cmpint (loom_session_get_updated_at (sessions->pdata[i - 1]), >=,
                     loom_session_get_updated_at (sessions->pdata[i]));
  g_assert_null (shown_status_title (f));

  set_dark (f, FALSE);
  loom_ui_test_save_screenshot (f->window, "session-list-light");
  set_dark (f, TRUE);
  loom_ui_test_save_screenshot (f->window, "session-list-dark");
  set_dark (f, FALSE);

  loom_session_list_set_scope (f->list, LOOM_COLLECTION_PINNED, 0);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==, n_pinned);
  g_assert_cmpuint (n_pinned, >, 5);
  g_assert_cmpstr (loom_session_list_get_title (f->list), ==, "Pinned");
  g_clear_pointer (&sessions, g_ptr_array_unref);
  sessions = visible_sessions (f);
  g_assert_cmpuint (sessions->len, >, 5);
  g_assert_cmpuint (sessions->len, <=, n_pinned);
  for (guint i = 0; i < sessions->len; i++)
    g_assert_true (loom_session_get_pinned (sessions->pdata[i]));

  loom_session_list_set_scope (f->list, LOOM_COLLECTION_ARCHIVED, 0);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_clear_pointer (&sessions, g_ptr_array_unref);
  sessions = visible_sessions (f);
  g_assert_cmpuint (sessions->len, ==, count_query (f, LOOM_COLLECTION_ARCHIVED, 0, NULL, NULL));
  loom_ui_test_save_screenshot (f->window, "session-list-archived");

  loom_session_list_set_scope (f->list, LOOM_COLLECTION_ALL, f->folder_id);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_assert_cmpstr (loom_session_list_get_title (f->list), ==, "Release 1.0");
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==, 12);
  g_assert_cmpint (loom_session_list_get_folder_id (f->list), ==, f->folder_id);

  /* Empty states, each saying what would be there. */
  loom_session_list_set_scope (f->list, LOOM_COLLECTION_ALL, f->empty_folder_id);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_assert_cmpstr (shown_status_title (f), ==, "Folder Is Empty");
  g_assert_cmpstr (loom_session_list_get_title (f->list), ==, "Someday");
  loom_ui_test_save_screenshot (f->window, "session-list-empty-folder");

  exec_raw (f->db_path, "DELETE FROM sessions WHERE trashed_at != 0");
  loom_session_list_set_scope (f->list, LOOM_COLLECTION_TRASH, 0);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_assert_cmpstr (shown_status_title (f), ==, "Trash Is Empty");
  g_assert_null (loom_session_list_get_subtitle (f->list));

  exec_raw (f->db_path, "UPDATE sessions SET pinned = 0");
  loom_session_list_set_scope (f->list, LOOM_COLLECTION_PINNED, 0);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_assert_cmpstr (shown_status_title (f), ==, "No Pinned Sessions");
  set_dark (f, TRUE);
  loom_ui_test_save_screenshot (f->window, "session-list-empty-dark");
  set_dark (f, FALSE);

  /* A change in the store shows after a reload: the empty state gives way to the list. */
  exec_raw (f->db_path, "UPDATE sessions SET pinned = 1 WHERE source_session_id = 'source-7'");
  loom_session_list_reload (f->list);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_assert_null (shown_status_title (f));
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==, 1);
}

static void
test_sort_and_filter (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (GPtrArray) sessions = NULL;
  g_autoptr (GPtrArray) projects_found = NULL;
  g_autoptr (GError) error = NULL;
  guint       n_codex = count_query (f, LOOM_COLLECTION_ALL, 0, "codex", NULL);
  const char *project_path = "/home/ada/src/gtk";
  GtkWidget  *filter_button;

  /* Title, A first. */
  activate (f, "session-list.sort", "s", "title");
  g_assert_cmpint (loom_session_list_get_sort (f->list), ==, LOOM_SORT_TITLE);
  sessions = visible_sessions (f);
  for (guint i = 1; i < sessions->len; i++)
    g_assert_cmpint (g_ascii_strcasecmp (loom_session_get_title (sessions->pdata[i - 1]),
                                         loom_session_get_title (sessions->pdata[i])),
                     <=, 0);
  g_assert_true (g_str_has_prefix (loom_session_get_title (sessions->pdata[0]), "Add keyboard"));

  /* Created, newest first. */
  activate (f, "session-list.sort", "s", "created");
  g_clear_pointer (&sessions, g_ptr_array_unref);
  sessions = visible_sessions (f);
  for (guint i = 1; i < sessions->len; i++)
    g_assert_cmpint (loom_session_get_created_at (sessions->pdata[i - 1]), >=,
                     loom_session_get_created_at (sessions->pdata[i]));

  /* One agent: every row is of it, and the header says so. */
  activate (f, "session-list.agent", "s", "codex");
  g_assert_cmpstr (loom_session_list_get_agent_filter (f->list), ==, "codex");
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==, n_codex);
  g_assert_true (g_str_has_suffix (loom_session_list_get_subtitle (f->list), " · Codex"));
  g_clear_pointer (&sessions, g_ptr_array_unref);
  sessions = visible_sessions (f);
  g_assert_cmpuint (sessions->len, >, 0);
  for (guint i = 0; i < sessions->len; i++)
    g_assert_cmpstr (loom_session_get_source (sessions->pdata[i]), ==, "codex");
  filter_button = find_menu_button (f, "Filter");
  g_assert_true (gtk_widget_has_css_class (filter_button, "filter-active"));

  /* And one project, as the filter menu lists them. */
  projects_found = loom_store_list_projects (f->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects_found->len, ==, G_N_ELEMENTS (projects));
  activate (f, "session-list.project", "s", project_path);
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==,
                    count_query (f, LOOM_COLLECTION_ALL, 0, "codex", project_path));
  g_assert_true (g_str_has_suffix (loom_session_list_get_subtitle (f->list), " · Codex · gtk"));
  g_clear_pointer (&sessions, g_ptr_array_unref);
  sessions = visible_sessions (f);
  for (guint i = 0; i < sessions->len; i++)
    g_assert_cmpstr (loom_session_get_project_name (sessions->pdata[i]), ==, "gtk");
  loom_ui_test_save_screenshot (f->window, "session-list-filtered");

  /* Opening the filter menu lists the projects. */
  gtk_menu_button_popup (GTK_MENU_BUTTON (filter_button));
  loom_ui_test_wait_for_frames (f->window, 3);
  {
    GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (filter_button)));

    g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, popover));
    /* A popover is a surface of its own: the window's picture does not show it. */
    loom_ui_test_save_screenshot (popover, "session-list-filter-menu");
    gtk_menu_button_popdown (GTK_MENU_BUTTON (filter_button));
  }

  /* A filter that leaves nothing says so, and offers to clear it. */
  activate (f, "session-list.agent", "s", "gemini");
  activate (f, "session-list.project", "s", "/home/ada/src/nowhere");
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==, 0);
  g_assert_cmpstr (shown_status_title (f), ==, "No Matching Sessions");
  loom_ui_test_save_screenshot (f->window, "session-list-no-match");
  activate (f, "session-list.clear-filters", NULL);
  g_assert_null (loom_session_list_get_agent_filter (f->list));
  g_assert_null (loom_session_list_get_project_filter (f->list));
  g_assert_cmpuint (loom_session_list_get_n_sessions (f->list), ==,
                    count_query (f, LOOM_COLLECTION_ALL, 0, NULL, NULL));
  g_assert_false (gtk_widget_has_css_class (filter_button, "filter-active"));
}

static GStrv
drag_uuids (LoomSessionRow *row)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (row));
  g_autoptr (GdkContentProvider) provider = NULL;
  g_auto (GValue) value = G_VALUE_INIT;
  g_autoptr (GError) error = NULL;
  GtkDragSource *source = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DRAG_SOURCE (controller))
        source = GTK_DRAG_SOURCE (controller);
    }
  g_assert_nonnull (source);

  /* What a drag from this row would carry, as GTK asks for it when the drag starts. */
  g_signal_emit_by_name (source, "prepare", 10.0, 10.0, &provider);
  g_assert_nonnull (provider);
  g_value_init (&value, G_TYPE_STRV);
  g_assert_true (gdk_content_provider_get_value (provider, &value, &error));
  g_assert_no_error (error);
  return g_value_dup_boxed (&value);
}

static void
test_selection_and_drag (Fixture      *f,
                         gconstpointer data)
{
  GtkWidget *view = list_view (f);
  g_autoptr (GPtrArray) shown = visible_sessions (f);
  g_autoptr (GPtrArray) selected = NULL;
  g_autofree char *moved = NULL;
  g_auto (GStrv) uuids = NULL;
  guint n_activated;

  g_assert_cmpuint (loom_session_list_get_n_selected (f->list), ==, 0);

  /* A click selects one session: it is chosen. */
  g_assert_true (gtk_widget_activate_action (view, "list.select-item", "(ubb)", 2, FALSE, FALSE));
  g_assert_cmpuint (f->n_activated, ==, 1);
  g_assert_cmpstr (f->last_activated, ==, loom_session_get_uuid (shown->pdata[2]));
  g_assert_cmpuint (f->n_selection_changed, ==, 1);

  /* Shift extends, Ctrl adds: three selected, none chosen alone. */
  g_assert_true (gtk_widget_activate_action (view, "list.select-item", "(ubb)", 4, FALSE, TRUE));
  g_assert_true (gtk_widget_activate_action (view, "list.select-item", "(ubb)", 7, TRUE, FALSE));
  g_assert_cmpuint (f->n_activated, ==, 1);
  g_assert_cmpuint (f->n_selection_changed, ==, 3);
  selected = loom_session_list_get_selected (f->list);
  g_assert_cmpuint (selected->len, ==, 4);
  g_assert_true (selected->pdata[0] == shown->pdata[2]);
  g_assert_true (selected->pdata[1] == shown->pdata[3]);
  g_assert_true (selected->pdata[2] == shown->pdata[4]);
  g_assert_true (selected->pdata[3] == shown->pdata[7]);
  loom_ui_test_wait_for_frames (f->window, 2);
  loom_ui_test_save_screenshot (f->window, "session-list-selection");

  /* A selected row drags the whole selection, another row only itself. */
  uuids = drag_uuids (visible_row (f, 3));
  g_assert_cmpuint (g_strv_length (uuids), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpstr (uuids[i], ==, loom_session_get_uuid (selected->pdata[i]));
  g_clear_pointer (&uuids, g_strfreev);
  uuids = drag_uuids (visible_row (f, 5));
  g_assert_cmpstrv (uuids,
                    ((const char *const[]){ loom_session_get_uuid (shown->pdata[5]), NULL }));

  /* The session menu opens on the selection; it offers to unpin only when all are pinned. */
  activate (f, "session-list.show-menu", NULL);
  {
    GtkWidget *popover = find_one (GTK_WIDGET (f->list), GTK_TYPE_POPOVER_MENU);

    loom_ui_test_save_screenshot (popover, "session-list-menu");
    gtk_popover_popdown (GTK_POPOVER (popover));
    g_assert_true (loom_ui_test_wait_until (is_unmapped, popover));
  }
  g_assert_cmpuint (loom_session_list_get_n_selected (f->list), ==, 4);

  /* Enter activates the focused session. */
  n_activated = f->n_activated;
  g_assert_true (gtk_widget_activate_action (view, "list.activate-item", "u", 5));
  g_assert_cmpuint (f->n_activated, ==, n_activated + 1);
  g_assert_cmpstr (f->last_activated, ==, loom_session_get_uuid (shown->pdata[5]));

  /* A reload keeps the selection, even of a session that moved to the top. */
  moved = g_strdup (loom_session_get_uuid (shown->pdata[7]));
  {
    g_autofree char *sql = g_strdup_printf (
      "UPDATE sessions SET updated_at = %" G_GINT64_FORMAT " WHERE uuid = '%s'", f->now, moved);

    exec_raw (f->db_path, sql);
  }
  n_activated = f->n_activated;
  loom_session_list_reload (f->list);
  loom_ui_test_wait_for_frames (f->window, 2);
  g_clear_pointer (&selected, g_ptr_array_unref);
  selected = loom_session_list_get_selected (f->list);
  g_assert_cmpuint (selected->len, ==, 4);
  g_assert_cmpstr (loom_session_get_uuid (selected->pdata[0]), ==, moved);
  g_assert_cmpuint (f->n_activated, ==, n_activated);

  /* Choosing a session by its id, as the search will. */
  g_assert_true (loom_session_list_select_uuid (f->list, loom_session_get_uuid (shown->pdata[6])));
  g_assert_cmpuint (loom_session_list_get_n_selected (f->list), ==, 1);
  g_assert_cmpstr (f->last_activated, ==, loom_session_get_uuid (shown->pdata[6]));
  g_assert_false (loom_session_list_select_uuid (f->list, "no-such-session"));

  /* A session trashed elsewhere leaves the list and the selection, which says so. */
  g_assert_true (
    loom_store_set_trashed (f->store, loom_session_get_uuid (shown->pdata[6]), TRUE, NULL));
  f->n_selection_changed = 0;
  loom_session_list_reload (f->list);
  g_assert_cmpuint (loom_session_list_get_n_selected (f->list), ==, 0);
  g_assert_cmpuint (f->n_selection_changed, ==, 1);

  /* A new scope starts with nothing selected. */
  g_assert_true (gtk_widget_activate_action (view, "list.select-item", "(ubb)", 0, FALSE, FALSE));
  f->n_selection_changed = 0;
  loom_session_list_set_scope (f->list, LOOM_COLLECTION_RECENT, 0);
  g_assert_cmpuint (loom_session_list_get_n_selected (f->list), ==, 0);
  g_assert_cmpuint (f->n_selection_changed, ==, 1);
}

/* Narrow and wide, as the leaflet gives the pane its room. */
static void
test_sizes (Fixture      *f,
            gconstpointer data)
{
  gtk_window_set_default_size (GTK_WINDOW (f->window), 320, 600);
  loom_ui_test_wait_for_frames (f->window, 3);
  loom_ui_test_save_screenshot (f->window, "session-list-narrow");
  set_dark (f, TRUE);
  loom_ui_test_save_screenshot (f->window, "session-list-narrow-dark");
  set_dark (f, FALSE);

  gtk_window_set_default_size (GTK_WINDOW (f->window), 640, 600);
  loom_ui_test_wait_for_frames (f->window, 3);
  loom_ui_test_save_screenshot (f->window, "session-list-wide");
}

/* Counts are grouped by the locale's rule (main() runs the test in en_US.UTF-8): a history of
 * a hundred thousand sessions reads "100,000 sessions", in the header and in the sidebar. */
static char *
group_digits (guint n)
{
  g_autofree char *digits = g_strdup_printf ("%u", n);
  GString         *grouped = g_string_new (NULL);
  size_t           length = strlen (digits);

  for (size_t i = 0; i < length; i++)
    {
      if (i > 0 && (length - i) % 3 == 0)
        g_string_append_c (grouped, ',');
      g_string_append_c (grouped, digits[i]);
    }
  return g_string_free (grouped, FALSE);
}

static GtkWidget *
find_label_text (GtkWidget  *root,
                 const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_text (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_counts_in_locale (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (LoomSidebarItem) item = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *grouped = NULL;
  GtkWidget       *row;
  guint            n_all;

  g_assert_cmpstr (setlocale (LC_NUMERIC, NULL), ==, "en_US.UTF-8");

  /* 1,200 more sessions, written the quick way: the list only counts them. */
  exec_raw (f->db_path,
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)"
            " INSERT INTO sessions (uuid, source, source_session_id, updated_at)"
            " SELECT 'bulk-' || i, 'codex', 'bulk-' || i, 1000 + i FROM n");
  loom_session_list_reload (f->list);
  loom_ui_test_wait_for_frames (f->window, 2);
  n_all = count_query (f, LOOM_COLLECTION_ALL, 0, NULL, NULL);
  g_assert_cmpuint (n_all, >, 1600);
  grouped = group_digits (n_all);
  expected = g_strdup_printf ("%s sessions", grouped);
  g_assert_cmpstr (loom_session_list_get_subtitle (f->list), ==, expected);

  item = loom_sidebar_item_new_for_collection (LOOM_COLLECTION_ALL);
  loom_sidebar_item_set_count (item, 100000);
  row = g_object_ref_sink (loom_sidebar_row_new (item));
  g_assert_nonnull (find_label_text (row, "100,000"));
  g_assert_null (find_label_text (row, "100000"));
  g_object_unref (row);
}

/* GTK's test setup asks for en_US.UTF-8, which a fresh Debian machine has not generated (it
 * comes with C.UTF-8 only, which groups no digits): make it in a private folder with
 * localedef (package locales), so that the locale-dependent counts are tested for real. */
static void
make_test_locale (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("loom-locale-XXXXXX", &error);
  g_autofree char *target = NULL;
  int              status = 0;

  g_assert_no_error (error);
  target = g_build_filename (dir, "en_US.UTF-8", NULL);
  g_spawn_sync (NULL,
                (char *[]){ (char *)"localedef", (char *)"-i", (char *)"en_US", (char *)"-f",
                            (char *)"UTF-8", target, NULL },
                NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("localedef could not make en_US.UTF-8 (is Debian's locales installed?): %s",
             error->message);
  g_setenv ("LOCPATH", dir, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  make_test_locale ();
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  /* GtkApplication would add the application's icons; this test runs without one. */
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/org/intentloom/History/icons");

  g_test_add ("/app/session-list/scopes", Fixture, NULL, fixture_set_up, test_scopes,
              fixture_tear_down);
  g_test_add ("/app/session-list/sort-and-filter", Fixture, NULL, fixture_set_up,
              test_sort_and_filter, fixture_tear_down);
  g_test_add ("/app/session-list/selection-and-drag", Fixture, NULL, fixture_set_up,
              test_selection_and_drag, fixture_tear_down);
  g_test_add ("/app/session-list/sizes", Fixture, NULL, fixture_set_up, test_sizes,
              fixture_tear_down);
  g_test_add ("/app/session-list/counts-in-locale", Fixture, NULL, fixture_set_up,
              test_counts_in_locale, fixture_tear_down);

  return g_test_run ();
}
