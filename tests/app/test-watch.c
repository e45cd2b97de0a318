/* test-watch.c — sessions arriving while the application runs, as a user of Claude Code sees it.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) with
 * CLAUDE_CONFIG_DIR pointing into a temporary folder, then plays the agent: writes a new session
 * file, appends to it, deletes it, and drops a whole project of long sessions in at once. Each
 * change must show in the window's list, a long pass shows its progress and then how it ended,
 * and the UI thread keeps serving while a pass runs: a timeout on its main loop goes on
 * ticking, and the list shows what the pass commits before it ends. What is checked is what
 * happened and in what order, never how soon: how long each took is measured by
 * bench/loom-bench-window --watch, against its targets. Screenshots go to
 * tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-application.h"
#include "loom-core.h"
#include "loom-import-problems-window.h"
#include "loom-session-list.h"
#include "loom-session-row.h"
#include "loom-source-watcher.h"
#include "loom-timeline-view.h"
#include "loom-window.h"
#include "loom-window-private.h"

#include "loom-ui-test.h"

#define WAIT_TIMEOUT_USEC     loom_test_guard_usec (LOOM_TEST_GUARD_USEC)
/* Ticks of the UI thread's pulse a long pass must see: a pass run on the UI thread, or one
 * that blocks it, sees none. The passes here take a tenth of a second and more on any machine,
 * and longer on a busy one: the pulse is fine enough for a few ticks in that. */
#define TICK_MSEC             10
#define MIN_TICKS_DURING_PASS 3
#define PROJECT_DIR           "-tmp-proj"

/* ——— The UI thread's pulse ——— */

/* A timeout on the UI thread's main context: it ticks as long as that thread serves its main
 * loop. How many ticks come in a given time depends on the machine; that some come while a
 * pass runs does not. */
typedef struct
{
  guint id;
  guint n_ticks;
} Ticker;

static gboolean
tick_cb (gpointer user_data)
{
  Ticker *ticker = user_data;

  ticker->n_ticks++;
  return G_SOURCE_CONTINUE;
}

/* ——— Waiting and looking (the common helpers are in loom-ui-test.c) ——— */

static void
show_problems_cb (GtkWidget *window)
{
  g_assert_true (gtk_widget_activate_action (window, "win.show-import-problems", NULL));
}

static gboolean
shows_problems_window (gpointer data)
{
  return loom_ui_test_find_toplevel (LOOM_TYPE_IMPORT_PROBLEMS_WINDOW) != NULL;
}

static gboolean
shows_problem_toast (gpointer data)
{
  return loom_ui_test_find_visible_label (data, "1 import problem") != NULL;
}

/* ——— Playing Claude Code ——— */

static char *
iso_now (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.000Z");
}

/* A typed prompt, as Claude Code writes it (FORMATS.md §1.2). */
static void
add_user_record (GString    *out,
                 const char *session_id,
                 const char *uuid,
                 const char *parent,
                 const char *prompt)
{
  g_autofree char *now = iso_now ();
  g_autofree char *parent_json = parent != NULL ? g_strdup_printf ("\"%s\"", parent)
                                                : g_strdup ("null");

  g_string_append_printf (out,
                          "{\"parentUuid\":%s,\"isSidechain\":false,\"userType\":\"external\","
                          "\"cwd\":\"/tmp/proj\",\"sessionId\":\"%s\",\"version\":\"2.1.100\","
                          "\"gitBranch\":\"main\",\"type\":\"user\","
                          "\"message\":{\"role\":\"user\",\"content\":\"%s\"},"
                          "\"uuid\":\"%s\",\"timestamp\":\"%s\"}\n",
                          parent_json, session_id, prompt, uuid, now);
}

/* An assistant reply, one record per content block (§1.3): a single text block here. */
static void
add_assistant_record (GString    *out,
                      const char *session_id,
                      const char *uuid,
                      const char *parent,
                      const char *message_id,
                      const char *text)
{
  g_autofree char *now = iso_now ();

  g_string_append_printf (out,
                          "{\"parentUuid\":\"%s\",\"isSidechain\":false,\"userType\":\"external\","
                          "\"cwd\":\"/tmp/proj\",\"sessionId\":\"%s\",\"version\":\"2.1.100\","
                          "\"gitBranch\":\"main\",\"type\":\"assistant\",\"requestId\":\"req_%s\","
                          "\"message\":{\"id\":\"%s\",\"type\":\"message\",\"role\":\"assistant\","
                          "\"model\":\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\","
                          "\"text\":\"%s\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
                          "\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":0,"
                          "\"cache_read_input_tokens\":0,\"output_tokens\":7}},"
                          "\"uuid\":\"%s\",\"timestamp\":\"%s\"}\n",
                          parent, session_id, message_id, message_id, text, uuid, now);
}

static void
write_file (const char *path,
            GString    *contents)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, contents->str, contents->len, &error);
  g_assert_no_error (error);
}

/* Appends the way the agent does: to the open file, no rename. */
static void
append_file (const char *path,
             GString    *contents)
{
  FILE *file = fopen (path, "a");

  g_assert_nonnull (file);
  g_assert_cmpuint (fwrite (contents->str, 1, contents->len, file), ==, contents->len);
  g_assert_cmpint (fclose (file), ==, 0);
}

/* A session of @n_turns prompts and replies. */
static GString *
long_session (const char *session_id,
              guint       n_turns)
{
  GString         *out = g_string_new (NULL);
  g_autofree char *parent = NULL;

  for (guint i = 0; i < n_turns; i++)
    {
      g_autofree char *user = g_strdup_printf ("%.24s%012x", session_id, 2 * i);
      g_autofree char *assistant = g_strdup_printf ("%.24s%012x", session_id, 2 * i + 1);
      g_autofree char *message_id = g_strdup_printf ("msg_%.8s_%u", session_id, i);
      g_autofree char *prompt = g_strdup_printf ("Step %u: make the importer stream huge lines "
                                                 "instead of reading them whole",
                                                 i);

      add_user_record (out, session_id, user, parent, prompt);
      add_assistant_record (out, session_id, assistant, user, message_id,
                            "Done: the reader now keeps one record in memory at a time, and "
                            "the tests for lines of 100 MB pass.");
      g_free (parent);
      parent = g_steal_pointer (&assistant);
    }
  return out;
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_assert_cmpint (g_remove (child), ==, 0);
    }
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

/* ——— Fixture: an agent's folder and a running application ——— */

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *claude_dir; /* CLAUDE_CONFIG_DIR */
  char            *project;    /* <claude>/projects/-tmp-proj */
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
  Ticker           ticker;
};

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GSettings) settings = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *db_path = NULL;
  g_autofree char *codex = NULL;
  g_autofree char *gemini = NULL;

  /* TMPDIR is inside the harness's throwaway folder. */
  fixture->dir = g_dir_make_tmp ("loom-test-watch-XXXXXX", &error);
  g_assert_no_error (error);
  db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", db_path, TRUE);

  /* Claude Code's folder is ours; the other agents' point at folders that do not exist. */
  fixture->claude_dir = g_build_filename (fixture->dir, "claude", NULL);
  fixture->project = g_build_filename (fixture->claude_dir, "projects", PROJECT_DIR, NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->project, 0700), ==, 0);
  g_setenv ("CLAUDE_CONFIG_DIR", fixture->claude_dir, TRUE);
  codex = g_build_filename (fixture->dir, "codex", NULL);
  g_setenv ("CODEX_HOME", codex, TRUE);
  gemini = g_build_filename (fixture->dir, "gemini", NULL);
  g_setenv ("GEMINI_CLI_HOME", gemini, TRUE);

  settings = g_settings_new (APP_ID);
  g_settings_reset (settings, "watch-sources");
  g_settings_reset (settings, "extra-source-folders");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "window-maximized");
  g_settings_reset (settings, "color-scheme");
  g_assert_true (g_settings_get_boolean (settings, "watch-sources"));
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  loom_window_set_progress_at_once (FALSE);
  g_unsetenv ("LOOM_DB");
  g_unsetenv ("CLAUDE_CONFIG_DIR");
  g_unsetenv ("CODEX_HOME");
  g_unsetenv ("GEMINI_CLI_HOME");
  remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->claude_dir, g_free);
  g_clear_pointer (&fixture->project, g_free);
}

static gboolean
run_body_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  fixture->body (fixture);
  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture *fixture,
             TestBody body)
{
  if (fixture->app == NULL)
    fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;

  /* From the start: the first pass begins in the application's startup. */
  fixture->ticker.id = g_timeout_add (TICK_MSEC, tick_cb, &fixture->ticker);
  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
  g_clear_handle_id (&fixture->ticker.id, g_source_remove);
}

/* ——— What the window shows ——— */

typedef struct
{
  GtkWidget  *window;
  const char *session_id;    /* the agent's session id */
  gint64      message_count; /* wanted, or 0 for any */
  gboolean    missing;       /* wanted: marked "source deleted" */
} RowWait;

static LoomSessionRow *
find_row (GtkWidget  *window,
          const char *session_id)
{
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (window, LOOM_TYPE_SESSION_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      LoomSession *session = loom_session_row_get_session (rows->pdata[i]);

      if (session != NULL &&
          g_strcmp0 (loom_session_get_record (session)->source_session_id, session_id) == 0)
        return rows->pdata[i];
    }
  return NULL;
}

static gboolean
row_shows (gpointer data)
{
  RowWait        *wait = data;
  LoomSessionRow *row = find_row (wait->window, wait->session_id);
  LoomSession    *session;

  if (row == NULL)
    return FALSE;
  session = loom_session_row_get_session (row);
  if (wait->message_count != 0 && loom_session_get_message_count (session) != wait->message_count)
    return FALSE;
  return (loom_ui_test_find_visible_label (GTK_WIDGET (row), "Source deleted") != NULL) ==
         wait->missing;
}

/* Says what the list shows, for a test that failed to find what it wanted there. */
static void
describe_rows (GtkWidget *window)
{
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (window, LOOM_TYPE_SESSION_ROW);
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (window, GTK_TYPE_LABEL);

  for (guint i = 0; i < rows->len; i++)
    {
      LoomSession *session = loom_session_row_get_session (rows->pdata[i]);

      g_test_message ("row %u: %s, %" G_GINT64_FORMAT " messages%s", i,
                      loom_session_get_record (session)->source_session_id,
                      loom_session_get_message_count (session),
                      loom_session_get_record (session)->source_missing ? ", source missing" : "");
    }
  for (guint i = 0; i < labels->len; i++)
    g_test_message ("label: %s", gtk_label_get_label (labels->pdata[i]));
}

static void
assert_row_shows (RowWait *wait)
{
  if (!loom_ui_test_wait_until (row_shows, wait))
    {
      describe_rows (wait->window);
      g_error ("No row for session %s with %" G_GINT64_FORMAT " messages%s", wait->session_id,
               wait->message_count, wait->missing ? ", source deleted" : "");
    }
}

/* The selection model of the session list: its one list view on screen. */
static GtkSelectionModel *
session_selection (GtkWidget *window)
{
  g_autoptr (GPtrArray) lists = loom_ui_test_find_visible (window, GTK_TYPE_LIST_VIEW);
  GtkSelectionModel *selection = NULL;

  for (guint i = 0; i < lists->len; i++)
    {
      if (gtk_widget_get_ancestor (lists->pdata[i], LOOM_TYPE_SESSION_LIST) == NULL)
        continue;
      g_assert_null (selection);
      selection = gtk_list_view_get_model (lists->pdata[i]);
    }
  g_assert_nonnull (selection);
  return selection;
}

/* Selects the row of @session_id in the list, which shows the session. */
static void
select_session (GtkWidget  *window,
                const char *session_id)
{
  GtkSelectionModel *selection = session_selection (window);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_record (session)->source_session_id, session_id))
        {
          gtk_selection_model_select_item (selection, i, TRUE);
          return;
        }
    }
  g_assert_not_reached ();
}

static void
on_count_cb (GObject    *object,
             GParamSpec *pspec,
             guint      *count)
{
  (*count)++;
}

static void
on_changed_count_cb (LoomSourceWatcher *watcher,
                     guint             *count)
{
  (*count)++;
}

static gboolean
lists_more_than_one (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (data)) > 1;
}

static gboolean
is_positive (gpointer data)
{
  return *(guint *)data > 0;
}

/* The one selected session (a new reference), or NULL. */
static LoomSession *
selected_session (GtkSelectionModel *selection)
{
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (selection);

  if (gtk_bitset_get_size (selected) != 1)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (selection), gtk_bitset_get_minimum (selected));
}

static gboolean
shows_progress (gpointer data)
{
  g_autoptr (GPtrArray) bars = loom_ui_test_find_visible (GTK_WIDGET (data), GTK_TYPE_PROGRESS_BAR);

  return bars->len > 0;
}

static gboolean
is_not_importing (gpointer data)
{
  return !loom_source_watcher_get_importing (data);
}

static gboolean
is_importing (gpointer data)
{
  return loom_source_watcher_get_importing (LOOM_SOURCE_WATCHER (data));
}

/* Whether @widget is where it would be drawn once the window is: shown, and on the visible page
 * of every stack above it. */
static gboolean
is_on_screen_page (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (!gtk_widget_get_visible (w) || !gtk_widget_get_child_visible (w))
      return FALSE;
  return TRUE;
}

/* The status page titled @title under @root, drawn yet or not, or NULL. */
static GtkWidget *
find_status_page (GtkWidget  *root,
                  const char *title)
{
  if (ADW_IS_STATUS_PAGE (root) &&
      g_strcmp0 (adw_status_page_get_title (ADW_STATUS_PAGE (root)), title) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_status_page (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
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

/* ——— Tests ——— */

#define EARLIER_ID "0b5e3a43-1d6e-4c55-8f1e-0c8d4f4f0a10"
#define NEW_ID     "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e01"

static void
live_body (Fixture *fixture)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  LoomApplication   *app = fixture->app;
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (app);
  g_autofree char   *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char   *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr (GString) records = g_string_new (NULL);
  GtkSelectionModel *selection;
  LoomSession       *selected;
  RowWait            earlier = { window, EARLIER_ID, 2, FALSE };
  RowWait            created = { window, NEW_ID, 2, FALSE };
  RowWait            grown = { window, NEW_ID, 3, FALSE };
  RowWait            deleted = { window, NEW_ID, 3, TRUE };
  g_autofree char   *expected = NULL;
  GtkWindow         *problems_window;
  GListModel        *problems;
  gulong             handler;
  const char        *problem;

  g_assert_nonnull (watcher);
  g_assert_true (loom_source_watcher_get_watching (watcher));

  /* Launch: the session written while the application was not running is caught up with. */
  assert_row_shows (&earlier);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);

  /* A new session: the agent writes its first prompt and reply. */
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Make the session list follow the agents live");
  add_assistant_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                        "a0000000-0000-4000-8000-000000000001", "msg_01",
                        "The list now reloads after each background import.");
  write_file (path, records);
  assert_row_shows (&created);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_save_screenshot (window, "watch-new-session");

  /* The session grows; the person reading it keeps their place in the list. */
  selection = session_selection (window);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_record (session)->source_session_id, NEW_ID))
        gtk_selection_model_select_item (selection, i, TRUE);
    }
  selected = selected_session (selection);
  g_assert_nonnull (selected);
  g_object_unref (selected);

  /* A line the agent broke comes first: the rest still comes in, and a toast tells of it.
   * Someone opens the list at once, while the toast still slides in (with animations on, as a
   * person has them; the screenshots need them off). */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", TRUE, NULL);
  handler = g_signal_connect_swapped (loom_application_get_import_problems (app), "added",
                                      G_CALLBACK (show_problems_cb), window);
  g_string_assign (records, "{\"type\":\"user\",\"message\":\n");
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000003",
                   "a0000000-0000-4000-8000-000000000002", "Now show when a file is deleted");
  append_file (path, records);
  assert_row_shows (&grown);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  g_assert_true (loom_ui_test_wait_until (shows_problems_window, NULL));
  problems_window = loom_ui_test_find_toplevel (LOOM_TYPE_IMPORT_PROBLEMS_WINDOW);
  g_object_add_weak_pointer (G_OBJECT (problems_window), (gpointer *)&problems_window);
  loom_ui_test_wait_for_frames (GTK_WIDGET (problems_window), 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (problems_window), "window.close", NULL));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &problems_window));
  g_signal_handler_disconnect (loom_application_get_import_problems (app), handler);
  g_assert_true (loom_ui_test_wait_until (shows_problem_toast, window));
  loom_ui_test_wait_for_frames (window, 30);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  problems = loom_import_problems_get_model (loom_application_get_import_problems (app));
  g_assert_cmpuint (g_list_model_get_n_items (problems), ==, 1);
  problem = gtk_string_list_get_string (GTK_STRING_LIST (problems), 0);
  expected = g_strdup_printf ("%s:3: not valid JSON (", path);
  g_assert_true (g_str_has_prefix (problem, expected));
  selected = selected_session (selection);
  g_assert_nonnull (selected);
  g_assert_cmpstr (loom_session_get_record (selected)->source_session_id, ==, NEW_ID);
  g_object_unref (selected);

  /* The agent cleans up: the session stays, marked. */
  g_assert_cmpint (g_remove (path), ==, 0);
  assert_row_shows (&deleted);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  g_assert_true (loom_session_get_record (loom_session_row_get_session (find_row (window, NEW_ID)))
                   ->source_missing);
  g_assert_nonnull (find_row (window, EARLIER_ID));
  /* No progress bar is left over once the passes ended. */
  g_assert_false (shows_progress (window));
  loom_ui_test_save_screenshot (window, "watch-source-deleted");
}

/* A session the agent wrote before the application started. */
static void
write_earlier_session (Fixture *fixture)
{
  g_autofree char *name = g_strconcat (EARLIER_ID, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr (GString) records = g_string_new (NULL);

  add_user_record (records, EARLIER_ID, "b0000000-0000-4000-8000-000000000001", NULL,
                   "Write the release notes");
  add_assistant_record (records, EARLIER_ID, "b0000000-0000-4000-8000-000000000002",
                        "b0000000-0000-4000-8000-000000000001", "msg_b1",
                        "Here is a draft of the release notes.");
  write_file (path, records);
}

static void
test_watch_live (Fixture      *fixture,
                 gconstpointer user_data)
{
  write_earlier_session (fixture);
  fixture_run (fixture, live_body);
}

/* 40 sessions of 250 turns: a pass long enough to matter. How long it takes depends on the
 * machine; what it shows does not, as every pass of these tests shows its progress from its
 * start (loom_window_set_progress_at_once ()). */
#define N_LONG_SESSIONS 40
#define N_LONG_TURNS    250

static char *
long_session_id (guint i)
{
  return g_strdup_printf ("c0ffee00-0000-4000-8000-%012u", i);
}

/* Writes a project of @n_sessions long sessions into @folder. */
static void
write_long_sessions (const char *folder,
                     guint       n_sessions)
{
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint i = 0; i < n_sessions; i++)
    {
      g_autofree char *id = long_session_id (i);
      g_autofree char *name = g_strconcat (id, ".jsonl", NULL);
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autoptr (GString) records = long_session (id, N_LONG_TURNS);

      write_file (path, records);
    }
}

/* One pass followed from its start to its end: what the UI thread did meanwhile, and whether
 * the window showed its progress. */
typedef struct
{
  GtkWidget         *window;
  LoomSourceWatcher *watcher;
  Ticker            *ticker;
  gboolean           started;
  gboolean           ended;
  guint              ticks_at_start;
  guint              n_ticks;      /* of the UI thread's pulse, while the pass ran */
  gboolean           saw_progress; /* a progress bar of the window was shown */
  GPtrArray         *bars;
} Pass;

static void
on_importing_cb (LoomSourceWatcher *watcher,
                 GParamSpec        *pspec,
                 Pass              *pass)
{
  /* The first pass only: the one after it (for a new folder's monitor) is short. */
  if (loom_source_watcher_get_importing (watcher) && !pass->started)
    {
      pass->started = TRUE;
      pass->ticks_at_start = pass->ticker->n_ticks;
    }
  else if (!loom_source_watcher_get_importing (watcher) && pass->started && !pass->ended)
    {
      pass->ended = TRUE;
      pass->n_ticks = pass->ticker->n_ticks - pass->ticks_at_start;
    }
}

/* Every progress bar of @root, shown or not. */
static void
collect_progress_bars (GtkWidget *root,
                       GPtrArray *bars)
{
  if (GTK_IS_PROGRESS_BAR (root))
    g_ptr_array_add (bars, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_progress_bars (child, bars);
}

static void
on_bar_visible_cb (GtkWidget  *bar,
                   GParamSpec *pspec,
                   Pass       *pass)
{
  pass->saw_progress = pass->saw_progress || gtk_widget_get_visible (bar);
}

/* Follows whether the window's progress bars are shown, from now on: a signal, not a look now
 * and then, so that a bar shown briefly between two looks still counts. */
static void
pass_watch_progress (Pass      *pass,
                     GtkWidget *window)
{
  pass->window = window;
  pass->bars = g_ptr_array_new ();
  collect_progress_bars (window, pass->bars);
  g_assert_cmpuint (pass->bars->len, >, 0);
  for (guint i = 0; i < pass->bars->len; i++)
    {
      g_signal_connect (pass->bars->pdata[i], "notify::visible", G_CALLBACK (on_bar_visible_cb),
                        pass);
      on_bar_visible_cb (pass->bars->pdata[i], NULL, pass);
    }
}

static void
pass_clear (Pass *pass)
{
  for (guint i = 0; pass->bars != NULL && i < pass->bars->len; i++)
    g_signal_handlers_disconnect_by_data (pass->bars->pdata[i], pass);
  g_clear_pointer (&pass->bars, g_ptr_array_unref);
}

static gboolean
pass_ended (gpointer data)
{
  return ((Pass *)data)->ended;
}

/* The pass kept the UI thread serving: its pulse ticked while the pass ran. */
static void
assert_ui_served (Pass *pass)
{
  g_test_message ("the UI thread ticked %u times while the pass ran", pass->n_ticks);
  g_assert_cmpuint (pass->n_ticks, >=, MIN_TICKS_DURING_PASS);
}

/* Follows one pass to its end: a screenshot of its progress if the pass still runs, and what a
 * user was told. */
static void
follow_long_pass (Fixture    *fixture,
                  Pass       *pass,
                  const char *screenshot)
{
  g_autofree char *toast = g_strdup_printf ("Imported %u new sessions", N_LONG_SESSIONS);
  LabelWait        toast_wait = { pass->window, toast };

  if (!pass->ended && shows_progress (pass->window))
    loom_ui_test_save_screenshot (pass->window, screenshot);
  g_assert_true (loom_ui_test_wait_until (pass_ended, pass));
  loom_ui_test_wait_for_frames (pass->window, 2);

  /* Its progress was shown, and is gone once the passes ended (a new folder's monitors make a
   * short one after it); the user hears how it ended. */
  g_assert_true (pass->saw_progress);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, pass->watcher));
  loom_ui_test_wait_for_frames (pass->window, 2);
  g_assert_false (shows_progress (pass->window));
  g_assert_true (loom_ui_test_wait_until (shows_label, &toast_wait));
}

static void
long_import_body (Fixture *fixture)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  g_autofree char   *staging = g_build_filename (fixture->dir, "staging", NULL);
  g_autofree char   *project = g_build_filename (fixture->claude_dir, "projects", "-tmp-big", NULL);
  g_autofree char   *last_id = long_session_id (N_LONG_SESSIONS - 1);
  RowWait            earlier = { window, EARLIER_ID, 2, FALSE };
  RowWait            last = { window, last_id, 2 * N_LONG_TURNS, FALSE };
  Pass               pass = { window, watcher, &fixture->ticker, FALSE, FALSE, 0, 0, FALSE, NULL };
  gulong             handler;

  assert_row_shows (&earlier);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);

  /* The files are written aside and moved in at once, as a restored backup would be: the new
   * folder gets monitors, and its sessions make one long pass. */
  write_long_sessions (staging, N_LONG_SESSIONS);
  handler = g_signal_connect (watcher, "notify::importing", G_CALLBACK (on_importing_cb), &pass);
  pass_watch_progress (&pass, window);
  g_assert_cmpint (g_rename (staging, project), ==, 0);
  g_assert_true (loom_ui_test_wait_until (is_importing, watcher));

  follow_long_pass (fixture, &pass, "watch-long-import");
  g_signal_handler_disconnect (watcher, handler);
  pass_clear (&pass);
  assert_ui_served (&pass);

  /* The list kept its session and gained the new ones. */
  assert_row_shows (&last);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (session_selection (window))), ==,
                    N_LONG_SESSIONS + 1);
  loom_ui_test_save_screenshot (window, "watch-long-import-done");
}

static void
test_watch_long_import (Fixture      *fixture,
                        gconstpointer user_data)
{
  write_earlier_session (fixture);
  loom_window_set_progress_at_once (TRUE);
  fixture_run (fixture, long_import_body);
}

/* 150 sessions of 200 prompts of 500 words, 90 MB: some 15 million words to index, a pass that
 * commits what it read several times before it ends. */
#define N_BIG_SESSIONS 150
#define N_BIG_PROMPTS  200
#define N_BIG_WORDS    500

static void
write_big_sessions (const char *folder)
{
  g_autoptr (GString) words = g_string_new (NULL);

  for (guint w = 0; w < N_BIG_WORDS; w++)
    g_string_append_printf (words, "w%x ", w * 2654435761u);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint i = 0; i < N_BIG_SESSIONS; i++)
    {
      g_autofree char *id = g_strdup_printf ("b16b0000-0000-4000-8000-%012u", i);
      g_autofree char *name = g_strconcat (id, ".jsonl", NULL);
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autoptr (GString) records = g_string_new (NULL);
      g_autofree char *parent = NULL;

      for (guint r = 0; r < N_BIG_PROMPTS; r++)
        {
          g_autofree char *uuid = g_strdup_printf ("%.24s%012u", id, r);
          g_autofree char *prompt = g_strdup_printf ("%u %s", r, words->str);

          add_user_record (records, id, uuid, parent, prompt);
          g_free (parent);
          parent = g_steal_pointer (&uuid);
          /* One broken line in the whole pass: a problem its toast tells of. */
          if (i == 0 && r == 0)
            g_string_append (records, "{\"type\":\"user\",\"message\":\n");
        }
      write_file (path, records);
    }
}

/* A long pass (a restored backup, a first start) must not keep the session an agent is writing
 * off the screen: it shows while the pass still runs, and so do the pass's own sessions, as
 * they come. */
static void
session_during_long_import_body (Fixture *fixture)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  g_autofree char   *staging = g_build_filename (fixture->dir, "staging", NULL);
  g_autofree char   *project = g_build_filename (fixture->claude_dir, "projects", "-tmp-big", NULL);
  g_autofree char   *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char   *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr (GString) records = g_string_new (NULL);
  GListModel      *sessions = G_LIST_MODEL (session_selection (window));
  RowWait          earlier = { window, EARLIER_ID, 2, FALSE };
  RowWait          created = { window, NEW_ID, 2, FALSE };
  RowWait          earlier_grown = { window, EARLIER_ID, 3, FALSE };
  g_autofree char *earlier_name = g_strconcat (EARLIER_ID, ".jsonl", NULL);
  g_autofree char *earlier_path = g_build_filename (fixture->project, earlier_name, NULL);
  g_autoptr (GPtrArray) timelines = NULL;
  guint            n_timeline_reloads = 0;
  Pass             pass = { window, watcher, &fixture->ticker, FALSE, FALSE, 0, 0, FALSE, NULL };
  g_autofree char *toast = NULL;
  LabelWait        toast_wait = { window, NULL };
  g_autoptr (LoomImportStats) later = NULL;
  guint  n_listed;
  gulong handler;

  assert_row_shows (&earlier);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);

  /* Someone reads the earlier session meanwhile: the list's reloads leave it alone until the
   * import adds to it. */
  select_session (window, EARLIER_ID);
  loom_ui_test_wait_for_frames (window, 2);
  timelines = loom_ui_test_find_visible (window, LOOM_TYPE_TIMELINE_VIEW);
  g_assert_cmpuint (timelines->len, ==, 1);
  g_signal_connect (timelines->pdata[0], "notify::session", G_CALLBACK (on_count_cb),
                    &n_timeline_reloads);

  write_big_sessions (staging);
  handler = g_signal_connect (watcher, "notify::importing", G_CALLBACK (on_importing_cb), &pass);
  g_assert_cmpint (g_rename (staging, project), ==, 0);
  g_assert_true (loom_ui_test_wait_until (is_importing, watcher));
  g_assert_true (loom_ui_test_wait_until (shows_progress, window));

  /* The pass's own sessions come in as it commits them, before it ends. */
  g_assert_true (loom_ui_test_wait_until (lists_more_than_one, sessions));
  g_assert_false (pass.ended);
  n_listed = g_list_model_get_n_items (sessions);

  /* The agent starts a session while the long pass runs. */
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Keep showing live sessions during a long import");
  add_assistant_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                        "a0000000-0000-4000-8000-000000000001", "msg_01",
                        "The list now follows a long import as it goes.");
  write_file (path, records);
  assert_row_shows (&created);
  g_test_message ("a session written during a long pass is listed, %u sessions listed then",
                  g_list_model_get_n_items (sessions));
  /* Shown while the pass runs: the UI thread served the list meanwhile. How soon is measured
   * by the benchmark, not here. */
  g_assert_false (pass.ended);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), >, n_listed);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), <, N_BIG_SESSIONS + 2);
  g_assert_cmpuint (n_timeline_reloads, ==, 0);
  loom_ui_test_save_screenshot (window, "watch-during-long-import");

  /* The session being read grows: its timeline follows. */
  g_string_truncate (records, 0);
  add_user_record (records, EARLIER_ID, "b0000000-0000-4000-8000-000000000003",
                   "b0000000-0000-4000-8000-000000000002", "Add the import problems to them");
  append_file (earlier_path, records);
  assert_row_shows (&earlier_grown);
  g_assert_true (loom_ui_test_wait_until (is_positive, &n_timeline_reloads));

  g_assert_true (loom_ui_test_wait_until (pass_ended, &pass));
  g_signal_handler_disconnect (watcher, handler);
  assert_ui_served (&pass);
  /* One toast tells how the pass ended, its problem included (the session written meanwhile
   * was new to it too). */
  toast = g_strdup_printf ("Imported %u new sessions, with 1 problem", N_BIG_SESSIONS + 1);
  toast_wait.text = toast;
  g_assert_true (loom_ui_test_wait_until (shows_label, &toast_wait));
  loom_ui_test_save_screenshot (window, "watch-long-import-problem");
  /* A problem that comes while that toast is shown is counted in it, in the same sentence. */
  later = loom_import_stats_new ();
  g_ptr_array_add (later->warnings, g_strconcat (earlier_path, ":9: not valid JSON", NULL));
  loom_import_problems_add (loom_application_get_import_problems (fixture->app), later);
  g_free (toast);
  toast = g_strdup_printf ("Imported %u new sessions, with 2 problems", N_BIG_SESSIONS + 1);
  toast_wait.text = toast;
  g_assert_true (loom_ui_test_wait_until (shows_label, &toast_wait));
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, N_BIG_SESSIONS + 2);
}

static void
test_watch_session_during_long_import (Fixture      *fixture,
                                       gconstpointer user_data)
{
  write_earlier_session (fixture);
  loom_window_set_progress_at_once (TRUE);
  fixture_run (fixture, session_during_long_import_body);
}

/* A first start with a long history: the window shows the import going from the start, on the
 * welcome page, or on the list when the pass committed sessions before the window read the store
 * (which one depends on the machine). */
typedef struct
{
  Fixture *fixture;
  Pass     pass;
  gulong   handler;
  gboolean welcome_shown;
  gboolean progress_on_screen;
} FirstStart;

static void
on_startup_cb (GApplication *application,
               FirstStart   *first)
{
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (LOOM_APPLICATION (application));

  /* The application starts its first pass in startup: follow it from there. */
  g_assert_true (loom_source_watcher_get_importing (watcher));
  first->pass.watcher = watcher;
  first->pass.started = TRUE;
  first->pass.ticks_at_start = first->pass.ticker->n_ticks;
  first->handler = g_signal_connect (watcher, "notify::importing", G_CALLBACK (on_importing_cb),
                                     &first->pass);
}

/* The window is built, in the same turn of the main loop as the startup: the first pass cannot
 * have ended yet, whatever the machine, and the page the window shows has its progress bar on. */
static void
on_activate_cb (GApplication *application,
                FirstStart   *first)
{
  GtkWidget *window = GTK_WIDGET (
    gtk_application_get_active_window (GTK_APPLICATION (application)));
  LoomWindow *self = LOOM_WINDOW (window);
  const char *page;
  GtkWidget  *welcome;

  g_assert_nonnull (window);
  g_assert_false (first->pass.ended);
  welcome = find_status_page (window, "No Sessions Yet");
  first->welcome_shown = welcome != NULL && is_on_screen_page (welcome);
  pass_watch_progress (&first->pass, window);

  /* The page's own bar (loom-window-private.h): the welcome page's, or the list's. */
  page = gtk_stack_get_visible_child_name (self->stack);
  g_assert_true (g_strcmp0 (page, "empty") == 0 || g_strcmp0 (page, "sessions") == 0);
  g_assert_true (first->welcome_shown == (g_strcmp0 (page, "empty") == 0));
  first->progress_on_screen = gtk_widget_get_visible (
    GTK_WIDGET (g_str_equal (page, "empty") ? self->empty_progress : self->list_progress));
}

static FirstStart *first_start;

static void
first_import_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  Pass      *pass = &first_start->pass;

  /* The UI thread's pulse is not asked for here: the pass runs while that thread builds the
   * window, which on a slow display takes as long as the pass, or longer. */
  g_test_message ("the window came up on %s",
                  first_start->welcome_shown ? "the welcome page" : "the session list");
  g_assert_true (first_start->progress_on_screen);
  g_assert_true (pass->window == window);
  follow_long_pass (fixture, pass, "watch-first-import");
  g_signal_handler_disconnect (pass->watcher, first_start->handler);
  pass_clear (pass);

  g_assert_true (loom_ui_test_wait_until (is_not_importing, pass->watcher));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_null (loom_ui_test_find_visible_label (window, "No Sessions Yet"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (session_selection (window))), ==,
                    N_LONG_SESSIONS);
  loom_ui_test_save_screenshot (window, "watch-first-import-done");
}

static void
test_watch_first_import (Fixture      *fixture,
                         gconstpointer user_data)
{
  FirstStart first = {
    fixture, { NULL, NULL, &fixture->ticker, FALSE, FALSE, 0, 0, FALSE, NULL }, 0, FALSE, FALSE
  };

  write_long_sessions (fixture->project, N_LONG_SESSIONS);
  loom_window_set_progress_at_once (TRUE);
  first_start = &first;
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (fixture->app, "startup", G_CALLBACK (on_startup_cb), &first);
  g_signal_connect_after (fixture->app, "activate", G_CALLBACK (on_activate_cb), &first);
  fixture_run (fixture, first_import_body);
  first_start = NULL;
}

/* Turning the preference off stops watching at once; turning it on catches up. */
static void
setting_body (Fixture *fixture)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  GSettings         *settings = loom_application_get_settings (fixture->app);
  g_autofree char   *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char   *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr (GString) records = g_string_new (NULL);
  RowWait created = { window, NEW_ID, 2, FALSE };
  guint   n_changed = 0, n_importing = 0;
  gulong  changed_handler, importing_handler;

  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  changed_handler = g_signal_connect (watcher, "changed", G_CALLBACK (on_changed_count_cb),
                                      &n_changed);
  importing_handler = g_signal_connect (watcher, "notify::importing", G_CALLBACK (on_count_cb),
                                        &n_importing);
  g_settings_set_boolean (settings, "watch-sources", FALSE);
  g_assert_false (loom_source_watcher_get_watching (watcher));
  g_assert_cmpuint (loom_source_watcher_get_n_monitors (watcher), ==, 0);

  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Import only when asked");
  add_assistant_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                        "a0000000-0000-4000-8000-000000000001", "msg_01", "Understood.");
  write_file (path, records);

  /* Nothing hears of it: no monitor is left to report it (above), and in the frames that follow
   * no change is reported and no pass starts. */
  loom_ui_test_wait_for_frames (window, 30);
  g_assert_cmpuint (n_changed, ==, 0);
  g_assert_cmpuint (n_importing, ==, 0);
  g_assert_null (find_row (window, NEW_ID));

  /* On again: the catch-up pass brings it. */
  g_settings_set_boolean (settings, "watch-sources", TRUE);
  g_assert_true (loom_source_watcher_get_watching (watcher));
  g_assert_cmpuint (n_importing, ==, 1);
  assert_row_shows (&created);
  g_assert_cmpuint (loom_source_watcher_get_n_monitors (watcher), >, 0);
  g_signal_handler_disconnect (watcher, changed_handler);
  g_signal_handler_disconnect (watcher, importing_handler);
}

static void
test_watch_setting (Fixture      *fixture,
                    gconstpointer user_data)
{
  fixture_run (fixture, setting_body);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);
  loom_ui_test_set_wake_up_interval (10);

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add ("/app/watch/live", Fixture, NULL, fixture_set_up, test_watch_live, fixture_tear_down);
  g_test_add ("/app/watch/long-import", Fixture, NULL, fixture_set_up, test_watch_long_import,
              fixture_tear_down);
  g_test_add ("/app/watch/session-during-long-import", Fixture, NULL, fixture_set_up,
              test_watch_session_during_long_import, fixture_tear_down);
  g_test_add ("/app/watch/first-import", Fixture, NULL, fixture_set_up, test_watch_first_import,
              fixture_tear_down);
  g_test_add ("/app/watch/setting", Fixture, NULL, fixture_set_up, test_watch_setting,
              fixture_tear_down);

  return g_test_run ();
}
