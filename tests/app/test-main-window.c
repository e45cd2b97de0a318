/* test-main-window.c — the main window as people use it: browsing, organising, the keyboard.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) against a store
 * prepared by importing the Claude Code and Codex fixtures, clicks its way through the three
 * panes, organises sessions through the drop handler, the actions and the keyboard, and checks
 * each time that the store changed (and changed back on undo). A first-run test starts from an
 * empty store and loads the sample history and a folder. Screenshots, light and dark, wide and
 * narrow, go to tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-application.h"
#include "loom-core.h"
#include "loom-export.h"
#include "loom-import.h"
#include "loom-import-problems-window.h"
#include "loom-session-details.h"
#include "loom-session-list.h"
#include "loom-session-row.h"
#include "loom-sidebar.h"
#include "loom-sidebar-row.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-timeline-row.h"
#include "loom-timeline-view.h"
#include "loom-window.h"

#include "loom-ui-test.h"

/* Generous: llvmpipe and a busy CI machine can be slow to draw the first frame. */
#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

#define N_FIXTURE_SESSIONS 19 /* tests/import/fixtures/claude + codex, sub-agents included */
#define N_SAMPLE_SESSIONS  7  /* data/samples/README.md */

/* ——— Waiting and looking (the common helpers are in loom-ui-test.c) ——— */

static void
on_clicked_cb (GtkButton *button,
               gboolean  *clicked)
{
  *clicked = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *)data;
}

/* Activates @button as Enter or a click does, and waits for it to report the click: a button
 * stays pressed for a moment first. */
static void
click_button (GtkWidget *button)
{
  gboolean clicked = FALSE;
  gulong   handler;

  g_assert_nonnull (button);
  handler = g_signal_connect (button, "clicked", G_CALLBACK (on_clicked_cb), &clicked);
  gtk_widget_activate (button);
  g_assert_true (loom_ui_test_wait_until (is_true, &clicked));
  g_signal_handler_disconnect (button, handler);
}

/* ——— Fixture: a store and a running application ——— */

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *db_path;
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
};

static char *
fixture_path (const char *name)
{
  const char *srcdir = g_getenv ("LOOM_TEST_SRCDIR");

  g_assert_nonnull (srcdir);
  return g_build_filename (srcdir, "import", "fixtures", name, NULL);
}

/* Imports the Claude Code and Codex fixtures, as `loom import` would, before the application
 * starts. */
static void
prepare_store (Fixture *fixture)
{
  g_autofree char  *claude = fixture_path ("claude");
  g_autofree char  *codex = fixture_path ("codex");
  const char       *paths[] = { claude, codex, NULL };
  LoomImportOptions options = { NULL, paths };
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->sessions_new, ==, N_FIXTURE_SESSIONS);
}

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;

  /* TMPDIR is inside the harness's throwaway folder, so this never reaches a real store. */
  fixture->dir = g_dir_make_tmp ("loom-test-main-window-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);

  if (GPOINTER_TO_INT (user_data))
    prepare_store (fixture);

  loom_ui_test_prepare_settings (1280, 800);
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  /* Once closed, nothing may hold the window, nor the application once it has shut down. */
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  loom_ui_test_reset_settings ();
  g_unsetenv ("LOOM_DB");
  loom_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->db_path, g_free);
  g_clear_pointer (&fixture->dir, g_free);
}

/* The test body runs inside g_application_run(), from an idle callback once the window is open,
 * so that the application starts up and shuts down exactly as it does for a user. */
static gboolean
run_body_cb (gpointer user_data)
{
  Fixture   *fixture = user_data;
  GtkWidget *window = GTK_WIDGET (fixture->window);

  loom_ui_test_wait_for_frames (window, 2);
  fixture->body (fixture);

  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture *fixture,
             TestBody body)
{
  /* Non-unique: each test starts its own instance on the private bus. */
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;

  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

/* ——— What the window shows ——— */

static guint
count_sessions (LoomStore     *store,
                LoomCollection collection)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  guint n_sessions = 0;

  query.collection = collection;
  g_assert_true (loom_store_count_sessions (store, &query, &n_sessions, &error));
  g_assert_no_error (error);
  return n_sessions;
}

static LoomSession *
get_session (LoomStore  *store,
             const char *uuid)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session = loom_store_get_session (store, uuid, &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

/* The session a visible list row shows, by title. */
static LoomSession *
find_listed_session (GtkWidget  *window,
                     const char *title)
{
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (window, LOOM_TYPE_SESSION_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      LoomSession *session = loom_session_row_get_session (rows->pdata[i]);

      if (session != NULL && g_strcmp0 (loom_session_get_title (session), title) == 0)
        return session;
    }
  return NULL;
}

/* The session list's selection model: the visible list view whose items are sessions. */
static GtkSelectionModel *
session_selection (GtkWidget *window)
{
  g_autoptr (GPtrArray) lists = loom_ui_test_find_visible (window, GTK_TYPE_LIST_VIEW);

  for (guint i = 0; i < lists->len; i++)
    {
      GtkSelectionModel *model = gtk_list_view_get_model (lists->pdata[i]);
      g_autoptr (GObject) first = NULL;

      /* GTK 4.8's selection models say their items are GObjects: look at one. */
      if (model != NULL && (first = g_list_model_get_item (G_LIST_MODEL (model), 0)) != NULL &&
          LOOM_IS_SESSION (first))
        return model;
    }
  g_assert_not_reached ();
}

/* Selects the session with @uuid alone in the list, as a click on its row does. */
static void
select_session (GtkWidget  *window,
                const char *uuid)
{
  GtkSelectionModel *selection = session_selection (window);
  guint              n_items = g_list_model_get_n_items (G_LIST_MODEL (selection));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_uuid (session), uuid))
        {
          g_assert_true (gtk_selection_model_select_item (selection, i, TRUE));
          /* Showing a session writes when it was opened. */
          loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
          loom_ui_test_wait_for_frames (window, 2);
          return;
        }
    }
  g_assert_not_reached ();
}

static LoomCollection
selected_collection (GtkWidget *window)
{
  LoomSidebar     *sidebar = LOOM_SIDEBAR (loom_ui_test_find_any (window, LOOM_TYPE_SIDEBAR));
  LoomSidebarItem *item = loom_sidebar_get_selected_item (sidebar);

  g_assert_nonnull (item);
  return loom_sidebar_item_get_collection (item);
}

typedef struct
{
  GtkWidget  *window;
  const char *text;
} LabelWait;

static gboolean
shows_label (gpointer data)
{
  LabelWait *wait = data;

  return loom_ui_test_find_visible_label (wait->window, wait->text) != NULL;
}

static void
wait_for_label (GtkWidget  *window,
                const char *text)
{
  LabelWait wait = { window, text };

  if (!loom_ui_test_wait_until (shows_label, &wait))
    g_error ("“%s” was not shown", text);
}

/* ——— First run ——— */

static gboolean
has_sessions_page (gpointer data)
{
  return loom_ui_test_count_visible (data, LOOM_TYPE_SIDEBAR) > 0;
}

static GtkWindow *
wait_for_toplevel (GType type)
{
  GtkWindow *window = NULL;
  gint64     deadline = g_get_monotonic_time () + WAIT_TIMEOUT_USEC;

  while (window == NULL && g_get_monotonic_time () < deadline)
    {
      window = loom_ui_test_find_toplevel (type);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (window);
  loom_ui_test_wait_for_frames (GTK_WIDGET (window), 2);
  return window;
}

/* Imports @folder as a person does: "Import Folder…", the folder chosen in the chooser, whose
 * screenshot is @screenshot (NULL: none). */
static void
import_folder (GtkWidget  *window,
               const char *folder,
               const char *screenshot)
{
  g_autoptr (GFile) folder_file = g_file_new_for_path (folder);
  g_autoptr (GFile) chosen = NULL;
  GtkWindow *chooser;

  g_assert_true (gtk_widget_activate_action (window, "win.import-folder", NULL));
  chooser = wait_for_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_true (gtk_window_get_transient_for (chooser) == GTK_WINDOW (window));
  g_assert_true (gtk_window_get_modal (chooser));
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)), ==,
                   GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  g_assert_true (
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder_file, NULL));
  loom_ui_test_wait_for_frames (GTK_WIDGET (chooser), 3);
  chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_assert_true (g_file_equal (chosen, folder_file));
  if (screenshot != NULL)
    loom_ui_test_save_screenshot (GTK_WIDGET (chooser), screenshot);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
}

/* A package of a session with sub-agents, exported from a store of its own: the window's store
 * does not have it. Sets @title to its title and @n_subagents to its sub-agents. */
static char *
export_package (Fixture *fixture,
                char   **title,
                guint   *n_subagents)
{
  g_autofree char *db = g_build_filename (fixture->dir, "other.db", NULL);
  g_autofree char *dest = g_build_filename (fixture->dir, "packages", NULL);
  g_autofree char *claude = fixture_path ("claude");
  g_autofree char *folder = g_build_filename (claude, "v2.1-progress", NULL);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomExportResult) result = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  LoomImportOptions options = { NULL, (const char *const[]){ folder, NULL } };
  LoomSessionQuery  query = LOOM_SESSION_QUERY_INIT;

  store = loom_store_open (db, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; session == NULL && i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) candidate = g_list_model_get_item (sessions, i);

      if (loom_session_get_record (candidate)->parent_uuid == NULL)
        session = g_steal_pointer (&candidate);
    }
  g_assert_nonnull (session);
  g_assert_cmpint (g_mkdir (dest, 0700), ==, 0);
  g_assert_true (loom_export_session (store, loom_session_get_uuid (session), dest, NULL, &result,
                                      NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (result->n_subagents, >, 0);
  *title = g_strdup (loom_session_get_title (session));
  *n_subagents = result->n_subagents;
  return g_strdup (result->path);
}

/* A package chosen in "Import Folder…" is imported back, its sub-agents with it; chosen again,
 * it changes nothing and says so. */
static void
import_package (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *title = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *again = NULL;
  guint            n_subagents = 0;
  guint            n_before = count_sessions (store, LOOM_COLLECTION_EVERYTHING);
  g_autofree char *package = export_package (fixture, &title, &n_subagents);

  import_folder (window, package, NULL);
  expected = g_strdup_printf (n_subagents == 1
                                ? "Imported “%s” and %u sub-agent’s session from its package"
                                : "Imported “%s” and %u sub-agents’ sessions from its package",
                              title, n_subagents);
  wait_for_label (window, expected);
  g_assert_cmpuint (count_sessions (store, LOOM_COLLECTION_EVERYTHING), ==,
                    n_before + 1 + n_subagents);
  loom_ui_test_save_screenshot (window, "import-package-done");

  import_folder (window, package, NULL);
  again = g_strdup_printf ("“%s” is already in your history", title);
  wait_for_label (window, again);
  g_assert_cmpuint (count_sessions (store, LOOM_COLLECTION_EVERYTHING), ==,
                    n_before + 1 + n_subagents);
}

static void
first_run_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *samples = NULL;
  g_autofree char *gemini = fixture_path ("gemini");
  GtkWidget       *load_button;

  /* Someone without any agent history is offered a way in. */
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "No Sessions Yet"));
  g_assert_nonnull (loom_ui_test_find_visible_button_labelled (window, "_Import Folder…"));
  load_button = loom_ui_test_find_visible_button_labelled (window, "_Load Sample History");
  g_assert_nonnull (load_button);
  loom_ui_test_save_screenshots (fixture->app, window, "first-run");
  loom_ui_test_set_window_size (window, 400, 700);
  loom_ui_test_save_screenshot (window, "first-run-narrow");
  loom_ui_test_set_window_size (window, 1280, 800);

  /* The sample history: copied beside the store, imported, and the sessions shown at once. */
  click_button (load_button);
  wait_for_label (window, "Loaded 7 sample sessions");
  g_assert_true (loom_ui_test_wait_until (has_sessions_page, window));
  g_assert_cmpuint (count_sessions (store, LOOM_COLLECTION_EVERYTHING), ==, N_SAMPLE_SESSIONS);
  samples = g_build_filename (fixture->dir, "samples", "codex", "2026", "11", "20", NULL);
  g_assert_true (g_file_test (samples, G_FILE_TEST_IS_DIR));
  g_assert_cmpuint (selected_collection (window), ==, LOOM_COLLECTION_ALL);
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==,
                    N_SAMPLE_SESSIONS);
  loom_ui_test_save_screenshots (fixture->app, window, "samples");

  /* Loading them again changes nothing. */
  g_assert_true (gtk_widget_activate_action (window, "win.load-samples", NULL));
  wait_for_label (window, "The sample history is already loaded");
  g_assert_cmpuint (count_sessions (store, LOOM_COLLECTION_EVERYTHING), ==, N_SAMPLE_SESSIONS);

  /* A folder, through the folder chooser. */
  import_folder (window, gemini, "import-folder-chooser");
  /* Five rows: a sub-agent's file sorts before its parent's, whose session it makes first. */
  wait_for_label (window, "Imported 5 sessions from “gemini”");
  g_assert_cmpuint (count_sessions (store, LOOM_COLLECTION_EVERYTHING), ==, N_SAMPLE_SESSIONS + 5);
  loom_ui_test_save_screenshot (window, "import-folder-done");

  import_package (fixture);
}

/* Whether a button for @action is on screen somewhere in @root. */
static gboolean
has_mapped_action_button (GtkWidget  *root,
                          const char *action)
{
  if (GTK_IS_BUTTON (root) && gtk_widget_get_mapped (root) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_mapped_action_button (child, action))
      return TRUE;
  return FALSE;
}

static void
test_first_run (Fixture      *fixture,
                gconstpointer user_data)
{
  fixture_run (fixture, first_run_body);
}

/* ——— Import problems ——— */

#define DAMAGED_SESSION "d0000000-0000-4000-8000-000000000001"

/* A Claude Code session with a broken second line, and a third still being written. */
static char *
write_damaged_folder (Fixture *fixture)
{
  g_autofree char *folder = g_build_filename (fixture->dir, "damaged", NULL);
  g_autofree char *path = g_build_filename (folder, DAMAGED_SESSION ".jsonl", NULL);
  g_autoptr (GError) error = NULL;
  static const char contents[] =
    "{\"parentUuid\":null,\"isSidechain\":false,\"userType\":\"external\","
    "\"cwd\":\"/tmp/proj\",\"sessionId\":\"" DAMAGED_SESSION "\",\"version\":\"2.1.100\","
    "\"gitBranch\":\"main\",\"type\":\"user\",\"message\":{\"role\":\"user\","
    "\"content\":\"Fix the parser\"},\"uuid\":\"a0000000-0000-4000-8000-000000000001\","
    "\"timestamp\":\"2026-11-20T10:00:00.000Z\"}\n"
    "{\"type\":\"assistant\", \"message\": {oops\n"
    "{\"parentUuid\":\"a0000000-0000-4000-8000-000000000001\",\"type\":\"user\",\"mess";

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&folder);
}

/* Closes @window as Escape or the close button does, and waits until it is gone. */
static void
close_window (GtkWindow *window)
{
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "window.close", NULL));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &window));
}

/* The one problem listed: its message and its place, the two labels of its row. */
static GtkWidget *
find_problem_row (GtkWidget *root,
                  GtkLabel **what,
                  GtkLabel **where)
{
  g_autoptr (GPtrArray) lists = loom_ui_test_find_visible (root, GTK_TYPE_LIST_VIEW);
  g_autoptr (GPtrArray) labels = NULL;

  g_assert_cmpuint (lists->len, ==, 1);
  labels = loom_ui_test_find_visible (lists->pdata[0], GTK_TYPE_LABEL);

  g_assert_cmpuint (labels->len, ==, 2);
  *what = labels->pdata[0];
  *where = labels->pdata[1];
  return gtk_widget_get_parent (labels->pdata[0]);
}

typedef struct
{
  char    *text;
  gboolean done;
} ClipboardRead;

static void
on_clipboard_read_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  ClipboardRead *read = user_data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  read->done = TRUE;
}

static char *
read_clipboard (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, on_clipboard_read_cb,
                                 &read);
  g_assert_true (loom_ui_test_wait_until (is_true, &read.done));
  return read.text;
}

static void
import_problems_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  g_autofree char *folder = write_damaged_folder (fixture);
  g_autofree char *copied = NULL;
  g_autofree char *expected = NULL;
  GtkWindow       *problems;
  GtkLabel        *what, *where;
  GtkWidget       *row, *focus;

  /* Before any import, the list says what it is for. */
  g_assert_true (gtk_widget_activate_action (window, "win.show-import-problems", NULL));
  problems = wait_for_toplevel (LOOM_TYPE_IMPORT_PROBLEMS_WINDOW);
  g_assert_true (gtk_window_get_transient_for (problems) == GTK_WINDOW (window));
  g_assert_nonnull (
    loom_ui_test_find_visible_status_page (GTK_WIDGET (problems), "No Import Problems"));
  loom_ui_test_save_screenshot (GTK_WIDGET (problems), "import-problems-none");
  close_window (problems);

  /* A folder with a broken line: the session comes in, and a toast offers the details. The line
   * still being written is no problem: the next pass reads it. */
  import_folder (window, folder, NULL);
  wait_for_label (window, "Imported 1 session from “damaged”, with 1 problem");
  loom_ui_test_save_screenshot (window, "import-problems-toast");

  click_button (loom_ui_test_find_visible_button_labelled (window, "_Details"));
  problems = wait_for_toplevel (LOOM_TYPE_IMPORT_PROBLEMS_WINDOW);
  row = find_problem_row (GTK_WIDGET (problems), &what, &where);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (what), "Not valid JSON ("));
  g_assert_true (
    g_str_has_suffix (gtk_label_get_text (where), "/damaged/" DAMAGED_SESSION ".jsonl, line 2"));
  g_assert_true (
    g_str_has_suffix (gtk_widget_get_tooltip_text (row), "/damaged/" DAMAGED_SESSION ".jsonl"));
  /* The keyboard starts in the list, not on Clear. */
  focus = gtk_root_get_focus (GTK_ROOT (problems));
  g_test_message ("focus: %s", focus != NULL ? G_OBJECT_TYPE_NAME (focus) : "none");
  g_assert_nonnull (focus);
  g_assert_true (focus == gtk_widget_get_ancestor (row, GTK_TYPE_LIST_VIEW) ||
                 gtk_widget_is_ancestor (focus, gtk_widget_get_ancestor (row, GTK_TYPE_LIST_VIEW)));
  loom_ui_test_save_screenshots (fixture->app, GTK_WIDGET (problems), "import-problems");

  /* "Copy All" gives the warnings as `loom import` prints them. */
  click_button (loom_ui_test_find_visible_button (GTK_WIDGET (problems), "edit-copy-symbolic"));
  copied = read_clipboard (GTK_WIDGET (problems));
  expected = g_strdup_printf ("%s/%s.jsonl:2: not valid JSON (", folder, DAMAGED_SESSION);
  g_assert_nonnull (copied);
  g_assert_true (g_str_has_prefix (copied, expected));
  g_assert_true (g_str_has_suffix (copied, ")\n"));
  g_assert_true (strchr (copied, '\n') == copied + strlen (copied) - 1);

  /* Clearing empties the list. */
  click_button (loom_ui_test_find_visible_button_labelled (GTK_WIDGET (problems), "C_lear"));
  g_assert_nonnull (
    loom_ui_test_find_visible_status_page (GTK_WIDGET (problems), "No Import Problems"));
  close_window (problems);
}

static void
test_import_problems (Fixture      *fixture,
                      gconstpointer user_data)
{
  fixture_run (fixture, import_problems_body);
}

/* ——— Browsing ——— */

#define BROWSED_TITLE   "Run the test suite and fix what fails - 2026-03-05"
/* Its 17 messages and events, each tool result shown within its call: 11 rows. */
#define N_BROWSED_ITEMS 11

/* Whether a header bar on screen has @title as its title. */
static gboolean
shows_title (GtkWidget  *window,
             const char *title)
{
  g_autoptr (GPtrArray) titles = loom_ui_test_find_visible (window, ADW_TYPE_WINDOW_TITLE);

  for (guint i = 0; i < titles->len; i++)
    {
      if (g_strcmp0 (adw_window_title_get_title (titles->pdata[i]), title) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
browse_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autoptr (LoomSession) before = NULL;
  g_autoptr (LoomSession) after = NULL;
  g_autofree char *uuid = NULL;
  LoomSession     *listed;
  GtkWidget       *back_button;
  GtkWidget       *details_button;

  /* Wide: the three panes side by side, All selected, no session yet. */
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 1);
  g_assert_cmpuint (selected_collection (window), ==, LOOM_COLLECTION_ALL);
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "Select a Session"));
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), >, 5);
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-no-session");

  /* A session: its timeline and its title; opening it is remembered. */
  listed = find_listed_session (window, BROWSED_TITLE);
  g_assert_nonnull (listed);
  uuid = g_strdup (loom_session_get_uuid (listed));
  before = get_session (store, uuid);
  g_assert_cmpint (loom_session_get_record (before)->last_opened_at, ==, 0);
  select_session (window, uuid);
  g_assert_null (loom_ui_test_find_visible_status_page (window, "Select a Session"));
  g_assert_true (shows_title (window, BROWSED_TITLE));
  g_assert_true (loom_window_get_shown_session (fixture->window) != NULL);
  g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                   uuid);
  after = get_session (store, uuid);
  g_assert_cmpint (loom_session_get_record (after)->last_opened_at, >, 0);

  /* Its timeline: every message and event of the session, the first of them on screen. */
  {
    LoomTimelineView *timeline = LOOM_TIMELINE_VIEW (
      loom_ui_test_find_any (window, LOOM_TYPE_TIMELINE_VIEW));
    g_autoptr (GPtrArray) rows = NULL;

    g_assert_true (loom_timeline_view_get_session (timeline) != NULL);
    g_assert_cmpstr (loom_session_get_uuid (loom_timeline_view_get_session (timeline)), ==, uuid);
    g_assert_cmpuint (g_list_model_get_n_items (loom_timeline_view_get_model (timeline)), ==,
                      N_BROWSED_ITEMS);
    rows = loom_ui_test_find_visible (window, LOOM_TYPE_TIMELINE_ROW);
    g_assert_cmpuint (rows->len, >=, 5);
    g_assert_cmpstr (loom_timeline_row_get_accessible_label (rows->pdata[0]), ==,
                     "You said: Run the test suite and fix what fails");
  }
  {
    g_autoptr (GPtrArray) selected = loom_window_get_selected_sessions (fixture->window);

    g_assert_cmpuint (selected->len, ==, 1);
    g_assert_cmpstr (loom_session_get_uuid (selected->pdata[0]), ==, uuid);
  }
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-session");

  /* The details flap, by its button and by F9. */
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_F9, 0));
  loom_ui_test_wait_for_frames (window, 3);
  details_button = loom_ui_test_find_visible_button (window, "sidebar-show-right-symbolic");
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (details_button)));
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_DETAILS), ==, 1);
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-details");
  click_button (details_button);
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (details_button)));

  /* Ctrl+1…6 pick the collections; an empty one says so. */
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_2, GDK_CONTROL_MASK));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_cmpuint (selected_collection (window), ==, LOOM_COLLECTION_RECENT);
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "No Recent Sessions"));
  /* The session left the list: the content pane follows. */
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "Select a Session"));
  loom_ui_test_save_screenshot (window, "main-window-recent-empty");
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_6, GDK_CONTROL_MASK));
  g_assert_cmpuint (selected_collection (window), ==, LOOM_COLLECTION_TRASH);
  /* The Trash shows its Empty Trash button; other collections do not. */
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_true (has_mapped_action_button (window, "win.empty-trash"));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_3, GDK_CONTROL_MASK));
  g_assert_cmpuint (selected_collection (window), ==, LOOM_COLLECTION_PINNED);
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_false (has_mapped_action_button (window, "win.empty-trash"));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_1, GDK_CONTROL_MASK));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_cmpuint (selected_collection (window), ==, LOOM_COLLECTION_ALL);

  /* Ctrl+F: the search entry of the list gets the keyboard. */
  {
    LoomSessionList *list = LOOM_SESSION_LIST (
      loom_ui_test_find_any (window, LOOM_TYPE_SESSION_LIST));
    GtkWidget *entry = GTK_WIDGET (loom_session_list_get_search_entry (list));
    GtkWidget *focus;

    g_assert_true (loom_ui_test_press_key (window, GDK_KEY_f, GDK_CONTROL_MASK));
    focus = gtk_root_get_focus (GTK_ROOT (window));
    g_assert_nonnull (focus);
    g_assert_true (focus == entry || gtk_widget_is_ancestor (focus, entry));
  }

  /* Narrow: one pane at a time, each with a way back. */
  select_session (window, uuid);
  loom_ui_test_set_window_size (window, 400, 720);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 0);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 0);
  g_assert_true (shows_title (window, BROWSED_TITLE));
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-narrow-session");

  back_button = loom_ui_test_find_visible_button (window, "go-previous-symbolic");
  g_assert_nonnull (back_button);
  click_button (back_button);
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), >, 0);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 0);
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-narrow-list");

  back_button = loom_ui_test_find_visible_button (window, "go-previous-symbolic");
  g_assert_nonnull (back_button);
  click_button (back_button);
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 1);
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-narrow-sidebar");

  /* Ctrl+2 in a folded window goes to the list it picked. */
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_2, GDK_CONTROL_MASK));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 0);
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "No Recent Sessions"));
  loom_ui_test_set_window_size (window, 1280, 800);
}

static void
test_browse (Fixture      *fixture,
             gconstpointer user_data)
{
  fixture_run (fixture, browse_body);
}

/* ——— Organising ——— */

#define OTHER_TITLE "Codex importer test - 2026-03-02"

typedef struct
{
  gint64   folder_id;
  gboolean pinned;
  gboolean archived;
  gboolean trashed;
  char    *title;
} State;

static State
read_state (LoomStore  *store,
            const char *uuid)
{
  g_autoptr (LoomSession) session = get_session (store, uuid);
  State state = {
    loom_session_get_folder_id (session),        loom_session_get_pinned (session),
    loom_session_get_archived (session),         loom_session_get_trashed (session),
    g_strdup (loom_session_get_title (session)),
  };

  return state;
}

static void
assert_state (LoomStore  *store,
              const char *uuid,
              gint64      folder_id,
              gboolean    pinned,
              gboolean    archived,
              gboolean    trashed)
{
  State state = read_state (store, uuid);

  g_assert_cmpint (state.folder_id, ==, folder_id);
  g_assert_cmpint (state.pinned, ==, pinned);
  g_assert_cmpint (state.archived, ==, archived);
  g_assert_cmpint (state.trashed, ==, trashed);
  g_free (state.title);
}

static gboolean
shows_undo (gpointer window)
{
  return loom_ui_test_find_visible_button_labelled (window, "_Undo") != NULL;
}

/* Clicks the Undo button of the toast on screen, once it is there: it may wait for another
 * toast to go. */
static void
undo (GtkWidget *window)
{
  g_assert_true (loom_ui_test_wait_until (shows_undo, window));
  click_button (loom_ui_test_find_visible_button_labelled (window, "_Undo"));
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  loom_ui_test_wait_for_frames (window, 2);
}

static const char *
listed_uuid (GtkWidget  *window,
             const char *title)
{
  LoomSession *session = find_listed_session (window, title);

  g_assert_nonnull (session);
  return loom_session_get_uuid (session);
}

/* Adds the session with @uuid to the list's selection, as Ctrl+click does. */
static void
add_to_selection (GtkWidget  *window,
                  const char *uuid)
{
  GtkSelectionModel *selection = session_selection (window);
  guint              n_items = g_list_model_get_n_items (G_LIST_MODEL (selection));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_uuid (session), uuid))
        {
          g_assert_true (gtk_selection_model_select_item (selection, i, FALSE));
          loom_ui_test_wait_for_frames (window, 2);
          return;
        }
    }
  g_assert_not_reached ();
}

static void
organise_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  LoomSidebar     *sidebar;
  GtkWindow       *dialog;
  gint64           folder_id;

  /* A folder to file sessions in, made as the CLI would. */
  folder = loom_store_create_folder (store, "Releases", &error);
  g_assert_no_error (error);
  folder_id = loom_folder_get_id (folder);
  loom_window_reload (fixture->window);
  loom_ui_test_wait_for_frames (window, 2);

  a = g_strdup (listed_uuid (window, BROWSED_TITLE));
  b = g_strdup (listed_uuid (window, OTHER_TITLE));
  assert_state (store, a, 0, FALSE, FALSE, FALSE);
  assert_state (store, b, 0, FALSE, FALSE, FALSE);

  /* Two sessions selected: the content pane says so, and both go where they are dropped. */
  select_session (window, a);
  add_to_selection (window, b);
  {
    g_autoptr (GPtrArray) selected = loom_window_get_selected_sessions (fixture->window);

    g_assert_cmpuint (selected->len, ==, 2);
  }
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "2 Sessions Selected"));
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-several");

  sidebar = LOOM_SIDEBAR (loom_ui_test_find_any (window, LOOM_TYPE_SIDEBAR));
  g_signal_emit_by_name (sidebar, "sessions-dropped", (const char *const[]){ a, b, NULL },
                         LOOM_COLLECTION_ALL, folder_id);
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, folder_id, FALSE, FALSE, FALSE);
  assert_state (store, b, folder_id, FALSE, FALSE, FALSE);
  wait_for_label (window, "2 sessions moved to “Releases”");
  loom_ui_test_save_screenshot (window, "main-window-dropped");
  undo (window);
  assert_state (store, a, 0, FALSE, FALSE, FALSE);
  assert_state (store, b, 0, FALSE, FALSE, FALSE);

  /* Dropped on the trash, then brought back. */
  g_signal_emit_by_name (sidebar, "sessions-dropped", (const char *const[]){ a, NULL },
                         LOOM_COLLECTION_TRASH, (gint64)0);
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, 0, FALSE, FALSE, TRUE);
  g_assert_null (find_listed_session (window, BROWSED_TITLE));
  undo (window);
  assert_state (store, a, 0, FALSE, FALSE, FALSE);
  g_assert_nonnull (find_listed_session (window, BROWSED_TITLE));

  /* By action, on the selected session: into the folder, which then lists it. */
  select_session (window, a);
  g_assert_true (gtk_widget_activate_action (window, "session.move-to-folder", "x", folder_id));
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, folder_id, FALSE, FALSE, FALSE);
  g_assert_true (loom_sidebar_select_folder (sidebar, folder_id));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_true (shows_title (window, "Releases"));
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 1);
  loom_ui_test_save_screenshots (fixture->app, window, "main-window-folder");
  undo (window);
  assert_state (store, a, 0, FALSE, FALSE, FALSE);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 0);
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_1, GDK_CONTROL_MASK));
  loom_ui_test_wait_for_frames (window, 2);

  /* Pin and unpin. */
  select_session (window, a);
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, 0, TRUE, FALSE, FALSE);
  g_assert_true (gtk_widget_activate_action (window, "session.pin", NULL));
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, 0, FALSE, FALSE, FALSE);

  /* Archive: the session leaves All, and the content pane with it; undo brings it back. */
  g_assert_true (gtk_widget_activate_action (window, "session.archive", NULL));
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, 0, FALSE, TRUE, FALSE);
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_null (find_listed_session (window, BROWSED_TITLE));
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "Select a Session"));
  undo (window);
  assert_state (store, a, 0, FALSE, FALSE, FALSE);

  /* Delete moves the selected session to the trash; undo restores it. */
  select_session (window, a);
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_Delete, 0));
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  assert_state (store, a, 0, FALSE, FALSE, TRUE);
  loom_ui_test_wait_for_frames (window, 2);
  loom_ui_test_save_screenshot (window, "main-window-trashed");
  undo (window);
  assert_state (store, a, 0, FALSE, FALSE, FALSE);

  /* F2 renames, keeping the creation date; the header follows. */
  select_session (window, a);
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_F2, 0));
  dialog = wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG);
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (window));
  loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "main-window-rename");
  {
    GtkWidget *entry = loom_ui_test_find_any (GTK_WIDGET (dialog), GTK_TYPE_EDITABLE);

    g_assert_nonnull (entry);
    gtk_editable_set_text (GTK_EDITABLE (entry), "Make the test runner pass");
    loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
  }
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "rename");
  loom_ui_test_wait_for_writes (LOOM_WINDOW (window));
  {
    State state = read_state (store, a);

    g_assert_cmpstr (state.title, ==, "Make the test runner pass - 2026-03-05");
    g_free (state.title);
  }
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_true (shows_title (window, "Make the test runner pass - 2026-03-05"));
  g_assert_nonnull (find_listed_session (window, "Make the test runner pass - 2026-03-05"));
}

static void
test_organise (Fixture      *fixture,
               gconstpointer user_data)
{
  fixture_run (fixture, organise_body);
}

int
main (int   argc,
      char *argv[])
{
  /* The cairo renderer draws the first frame fastest under Xvfb, and gives stable screenshots.
   * Without portals, the folder chooser is a GtkFileChooserDialog the test can drive. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GDK_DEBUG", "no-portals", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);

  /* Screenshots must not catch a transition half-way. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add ("/app/main-window/first-run", Fixture, GINT_TO_POINTER (FALSE), fixture_set_up,
              test_first_run, fixture_tear_down);
  g_test_add ("/app/main-window/import-problems", Fixture, GINT_TO_POINTER (FALSE), fixture_set_up,
              test_import_problems, fixture_tear_down);
  g_test_add ("/app/main-window/browse", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up,
              test_browse, fixture_tear_down);
  g_test_add ("/app/main-window/organise", Fixture, GINT_TO_POINTER (TRUE), fixture_set_up,
              test_organise, fixture_tear_down);

  return g_test_run ();
}
