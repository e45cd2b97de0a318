/* test-watch.c — sessions arriving while the application runs, as a user of Claude Code sees it.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) with
 * CLAUDE_CONFIG_DIR pointing into a temporary folder, then plays the agent: writes a new session
 * file, appends to it, deletes it, and drops a whole project of long sessions in at once. Each
 * change must show in the window's list within two seconds, and the UI thread must never stop
 * for long: a timeout ticking every 50 ms must never see a gap of more than 250 ms. Screenshots
 * go to tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-application.h"
#include "loom-import-problems-window.h"
#include "loom-session-list.h"
#include "loom-session-row.h"
#include "loom-source-watcher.h"
#include "loom-timeline-view.h"
#include "loom-window.h"

#include "loom-ui-test.h"

#define WAIT_TIMEOUT_USEC (20 * G_USEC_PER_SEC)
#define LATENCY_LIMIT_USEC (2 * G_USEC_PER_SEC)
#define TICK_MSEC 50
#define GAP_LIMIT_USEC (250 * 1000)
#define PROJECT_DIR "-tmp-proj"

/* ——— The UI thread's pulse ——— */

typedef struct
{
  guint  id;
  gint64 last;
  gint64 max_gap;
  guint  n_ticks;
} Ticker;

static gboolean
tick_cb (gpointer user_data)
{
  Ticker *ticker = user_data;
  gint64 now = g_get_monotonic_time ();

  if (ticker->last != 0)
    ticker->max_gap = MAX (ticker->max_gap, now - ticker->last);
  ticker->last = now;
  ticker->n_ticks++;
  return G_SOURCE_CONTINUE;
}

/* Starts a new measurement; the test's own slow steps (writing files, screenshots) happen
 * before it, not during it. */
static void
ticker_restart (Ticker *ticker)
{
  ticker->last = g_get_monotonic_time ();
  ticker->max_gap = 0;
  ticker->n_ticks = 0;
}

static void
ticker_check (Ticker     *ticker,
              const char *phase)
{
  tick_cb (ticker);
  g_test_message ("%s: longest pause of the UI thread %" G_GINT64_FORMAT " ms over %u ticks",
                  phase, ticker->max_gap / 1000, ticker->n_ticks);
  g_assert_cmpint (ticker->max_gap, <=, GAP_LIMIT_USEC);
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
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

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
  g_autoptr(GError) error = NULL;

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
  GString *out = g_string_new (NULL);
  g_autofree char *parent = NULL;

  for (guint i = 0; i < n_turns; i++)
    {
      g_autofree char *user = g_strdup_printf ("%.24s%012x", session_id, 2 * i);
      g_autofree char *assistant = g_strdup_printf ("%.24s%012x", session_id, 2 * i + 1);
      g_autofree char *message_id = g_strdup_printf ("msg_%.8s_%u", session_id, i);
      g_autofree char *prompt = g_strdup_printf ("Step %u: make the importer stream huge lines "
                                                 "instead of reading them whole", i);

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
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
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
  char            *claude_dir;     /* CLAUDE_CONFIG_DIR */
  char            *project;        /* <claude>/projects/-tmp-proj */
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
  gint64           started;        /* when g_application_run() was called */
  Ticker           ticker;
};

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
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
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

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

  fixture->ticker.id = g_timeout_add (TICK_MSEC, tick_cb, &fixture->ticker);
  fixture->body (fixture);
  g_clear_handle_id (&fixture->ticker.id, g_source_remove);

  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture  *fixture,
             TestBody  body)
{
  if (fixture->app == NULL)
    fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;

  fixture->started = g_get_monotonic_time ();
  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
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
  g_autoptr(GPtrArray) rows = loom_ui_test_find_visible (window, LOOM_TYPE_SESSION_ROW);

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
  RowWait *wait = data;
  LoomSessionRow *row = find_row (wait->window, wait->session_id);
  LoomSession *session;

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
  g_autoptr(GPtrArray) rows = loom_ui_test_find_visible (window, LOOM_TYPE_SESSION_ROW);
  g_autoptr(GPtrArray) labels = loom_ui_test_find_visible (window, GTK_TYPE_LABEL);

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
      g_error ("No row for session %s with %" G_GINT64_FORMAT " messages%s",
               wait->session_id, wait->message_count, wait->missing ? ", source deleted" : "");
    }
}

/* Waits until the row shows what @wait asks for, and returns how long that took from @since. */
static gint64
wait_for_row (RowWait *wait,
              gint64   since)
{
  assert_row_shows (wait);
  return g_get_monotonic_time () - since;
}

/* The selection model of the session list: its one list view on screen. */
static GtkSelectionModel *
session_selection (GtkWidget *window)
{
  g_autoptr(GPtrArray) lists = loom_ui_test_find_visible (window, GTK_TYPE_LIST_VIEW);
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
      g_autoptr(LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

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

static gboolean
is_positive (gpointer data)
{
  return *(guint *)data > 0;
}

/* The one selected session (a new reference), or NULL. */
static LoomSession *
selected_session (GtkSelectionModel *selection)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (selection);

  if (gtk_bitset_get_size (selected) != 1)
    return NULL;
  return g_list_model_get_item (G_LIST_MODEL (selection), gtk_bitset_get_minimum (selected));
}

static gboolean
shows_progress (gpointer data)
{
  g_autoptr(GPtrArray) bars = loom_ui_test_find_visible (GTK_WIDGET (data), GTK_TYPE_PROGRESS_BAR);

  return bars->len > 0;
}

static gboolean
is_not_importing (gpointer data)
{
  return !loom_source_watcher_get_importing (data);
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
#define NEW_ID "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e01"

static void
live_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomApplication *app = fixture->app;
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (app);
  g_autofree char *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr(GString) records = g_string_new (NULL);
  GtkSelectionModel *selection;
  LoomSession *selected;
  RowWait earlier = { window, EARLIER_ID, 2, FALSE };
  RowWait created = { window, NEW_ID, 2, FALSE };
  RowWait grown = { window, NEW_ID, 3, FALSE };
  RowWait deleted = { window, NEW_ID, 3, TRUE };
  g_autofree char *expected = NULL;
  GtkWindow *problems_window;
  GListModel *problems;
  gulong handler;
  const char *problem;
  gint64 latency, since;

  g_assert_nonnull (watcher);
  g_assert_true (loom_source_watcher_get_watching (watcher));

  /* Launch: the session written while the application was not running is caught up with. */
  latency = wait_for_row (&earlier, fixture->started);
  g_test_message ("latency: a session written before the start is listed %" G_GINT64_FORMAT
                  " ms after the start", latency / 1000);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);

  /* A new session: the agent writes its first prompt and reply. */
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Make the session list follow the agents live");
  add_assistant_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                        "a0000000-0000-4000-8000-000000000001", "msg_01",
                        "The list now reloads after each background import.");
  ticker_restart (&fixture->ticker);
  since = g_get_monotonic_time ();
  write_file (path, records);
  latency = wait_for_row (&created, since);
  g_test_message ("latency: a new session is listed after %" G_GINT64_FORMAT " ms",
                  latency / 1000);
  g_assert_cmpint (latency, <, LATENCY_LIMIT_USEC);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  ticker_check (&fixture->ticker, "new session");
  loom_ui_test_save_screenshot (window, "watch-new-session");

  /* The session grows; the person reading it keeps their place in the list. */
  selection = session_selection (window);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)); i++)
    {
      g_autoptr(LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

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
  ticker_restart (&fixture->ticker);
  since = g_get_monotonic_time ();
  append_file (path, records);
  latency = wait_for_row (&grown, since);
  g_test_message ("latency: an appended message is counted after %" G_GINT64_FORMAT " ms",
                  latency / 1000);
  g_assert_cmpint (latency, <, LATENCY_LIMIT_USEC);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  ticker_check (&fixture->ticker, "appended record");
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
  ticker_restart (&fixture->ticker);
  since = g_get_monotonic_time ();
  g_assert_cmpint (g_remove (path), ==, 0);
  latency = wait_for_row (&deleted, since);
  g_test_message ("latency: a deleted source is marked after %" G_GINT64_FORMAT " ms",
                  latency / 1000);
  g_assert_cmpint (latency, <, LATENCY_LIMIT_USEC);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  ticker_check (&fixture->ticker, "deleted source");
  g_assert_true (loom_session_get_record (loom_session_row_get_session (
                   find_row (window, NEW_ID)))->source_missing);
  g_assert_nonnull (find_row (window, EARLIER_ID));
  /* Short passes never flash a progress bar. */
  g_assert_false (shows_progress (window));
  loom_ui_test_save_screenshot (window, "watch-source-deleted");
}

/* A session the agent wrote before the application started. */
static void
write_earlier_session (Fixture *fixture)
{
  g_autofree char *name = g_strconcat (EARLIER_ID, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr(GString) records = g_string_new (NULL);

  add_user_record (records, EARLIER_ID, "b0000000-0000-4000-8000-000000000001", NULL,
                   "Write the release notes");
  add_assistant_record (records, EARLIER_ID, "b0000000-0000-4000-8000-000000000002",
                        "b0000000-0000-4000-8000-000000000001", "msg_b1",
                        "Here is a draft of the release notes.");
  write_file (path, records);
}

static void
test_watch_live (Fixture       *fixture,
                 gconstpointer  user_data)
{
  write_earlier_session (fixture);
  fixture_run (fixture, live_body);
}

/* About 1.5 s of importing here, well past the window's delay before it shows progress. A
 * faster importer makes the passes short: the progress assertions then check that a short
 * pass shows none instead. */
#define N_LONG_SESSIONS 40
#define N_LONG_TURNS 250
#define PROGRESS_DELAY_USEC (500 * 1000)
#define CLEARLY_LONG_USEC (PROGRESS_DELAY_USEC + 300 * 1000)

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
      g_autoptr(GString) records = long_session (id, N_LONG_TURNS);

      write_file (path, records);
    }
}

typedef struct
{
  GtkWidget         *window;
  LoomSourceWatcher *watcher;
  gint64             started;
  gint64             ended;
  gboolean           saw_progress;
} Pass;

static void
on_importing_cb (LoomSourceWatcher *watcher,
                 GParamSpec        *pspec,
                 Pass              *pass)
{
  /* The first pass only: the one after it (for a new folder's monitor) is short. */
  if (loom_source_watcher_get_importing (watcher) && pass->started == 0)
    pass->started = g_get_monotonic_time ();
  else if (!loom_source_watcher_get_importing (watcher) && pass->started != 0 && pass->ended == 0)
    pass->ended = g_get_monotonic_time ();
}

static gboolean
pass_progress_or_end (gpointer data)
{
  Pass *pass = data;

  pass->saw_progress = pass->saw_progress || shows_progress (pass->window);
  return pass->saw_progress || pass->ended != 0;
}

static gboolean
pass_ended (gpointer data)
{
  Pass *pass = data;

  pass->saw_progress = pass->saw_progress || shows_progress (pass->window);
  return pass->ended != 0;
}

/* Follows one pass: a screenshot of its progress if it shows, and what a user was told. */
static void
follow_long_pass (Fixture    *fixture,
                  Pass       *pass,
                  const char *screenshot)
{
  g_autofree char *toast = g_strdup_printf ("Imported %u new sessions", N_LONG_SESSIONS);
  LabelWait toast_wait = { pass->window, toast };
  gint64 duration;

  g_assert_true (loom_ui_test_wait_until (pass_progress_or_end, pass));
  if (pass->saw_progress)
    {
      g_test_message ("progress shown %" G_GINT64_FORMAT " ms into the pass",
                      (g_get_monotonic_time () - pass->started) / 1000);
      ticker_check (&fixture->ticker, "long import, before its progress shows");
      loom_ui_test_save_screenshot (pass->window, screenshot);
      ticker_restart (&fixture->ticker);
    }
  g_assert_true (loom_ui_test_wait_until (pass_ended, pass));
  loom_ui_test_wait_for_frames (pass->window, 2);
  ticker_check (&fixture->ticker, "long import, while its progress shows");

  duration = pass->ended - pass->started;
  g_test_message ("the long pass took %" G_GINT64_FORMAT " ms (%u sessions, %u records)",
                  duration / 1000, N_LONG_SESSIONS, N_LONG_SESSIONS * N_LONG_TURNS * 2);

  if (duration >= CLEARLY_LONG_USEC)
    {
      /* It was shown, and is gone; the user hears how it ended. */
      g_assert_true (pass->saw_progress);
      g_assert_false (shows_progress (pass->window));
      g_assert_true (loom_ui_test_wait_until (shows_label, &toast_wait));
    }
  else if (duration < PROGRESS_DELAY_USEC)
    {
      g_test_message ("the pass was too short to show progress; checking that it showed none");
      g_assert_false (pass->saw_progress);
      g_assert_false (shows_label (&toast_wait));
    }
}

static void
long_import_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  g_autofree char *staging = g_build_filename (fixture->dir, "staging", NULL);
  g_autofree char *project = g_build_filename (fixture->claude_dir, "projects", "-tmp-big", NULL);
  g_autofree char *last_id = long_session_id (N_LONG_SESSIONS - 1);
  RowWait earlier = { window, EARLIER_ID, 2, FALSE };
  RowWait last = { window, last_id, 2 * N_LONG_TURNS, FALSE };
  Pass pass = { window, watcher, 0, 0, FALSE };
  gulong handler;
  gint64 since;

  assert_row_shows (&earlier);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);

  /* The files are written aside and moved in at once, as a restored backup would be: the new
   * folder gets monitors, and its sessions make one long pass. */
  write_long_sessions (staging, N_LONG_SESSIONS);
  handler = g_signal_connect (watcher, "notify::importing", G_CALLBACK (on_importing_cb), &pass);
  ticker_restart (&fixture->ticker);
  since = g_get_monotonic_time ();
  g_assert_cmpint (g_rename (staging, project), ==, 0);

  follow_long_pass (fixture, &pass, "watch-long-import");
  g_signal_handler_disconnect (watcher, handler);
  g_test_message ("the pass started %" G_GINT64_FORMAT " ms after the files arrived",
                  (pass.started - since) / 1000);

  /* The list kept its session and gained the new ones. */
  assert_row_shows (&last);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (session_selection (window))), ==,
                    N_LONG_SESSIONS + 1);
  loom_ui_test_save_screenshot (window, "watch-long-import-done");
}

static void
test_watch_long_import (Fixture       *fixture,
                        gconstpointer  user_data)
{
  write_earlier_session (fixture);
  fixture_run (fixture, long_import_body);
}

/* 150 sessions of 200 prompts of 500 words, 90 MB: some 15 million words to index, which takes
 * a few seconds even in a release build, past the two seconds a session written meanwhile may
 * take to show. */
#define N_BIG_SESSIONS 150
#define N_BIG_PROMPTS 200
#define N_BIG_WORDS 500


static void
write_big_sessions (const char *folder)
{
  g_autoptr(GString) words = g_string_new (NULL);

  for (guint w = 0; w < N_BIG_WORDS; w++)
    g_string_append_printf (words, "w%x ", w * 2654435761u);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  for (guint i = 0; i < N_BIG_SESSIONS; i++)
    {
      g_autofree char *id = g_strdup_printf ("b16b0000-0000-4000-8000-%012u", i);
      g_autofree char *name = g_strconcat (id, ".jsonl", NULL);
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autoptr(GString) records = g_string_new (NULL);
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

static gboolean
is_importing (gpointer data)
{
  return loom_source_watcher_get_importing (LOOM_SOURCE_WATCHER (data));
}

/* A long pass (a restored backup, a first start) must not keep the session an agent is writing
 * off the screen: it shows within two seconds while the pass still runs, and so do the pass's
 * own sessions, as they come. */
static void
session_during_long_import_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  g_autofree char *staging = g_build_filename (fixture->dir, "staging", NULL);
  g_autofree char *project = g_build_filename (fixture->claude_dir, "projects", "-tmp-big", NULL);
  g_autofree char *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr(GString) records = g_string_new (NULL);
  GListModel *sessions = G_LIST_MODEL (session_selection (window));
  RowWait earlier = { window, EARLIER_ID, 2, FALSE };
  RowWait created = { window, NEW_ID, 2, FALSE };
  RowWait earlier_grown = { window, EARLIER_ID, 3, FALSE };
  g_autofree char *earlier_name = g_strconcat (EARLIER_ID, ".jsonl", NULL);
  g_autofree char *earlier_path = g_build_filename (fixture->project, earlier_name, NULL);
  g_autoptr(GPtrArray) timelines = NULL;
  guint n_timeline_reloads = 0;
  Pass pass = { window, watcher, 0, 0, FALSE };
  g_autofree char *toast = NULL;
  LabelWait toast_wait = { window, NULL };
  g_autoptr(LoomImportStats) later = NULL;
  guint n_listed;
  gulong handler;
  gint64 latency, since;

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
  ticker_restart (&fixture->ticker);
  g_assert_cmpint (g_rename (staging, project), ==, 0);
  g_assert_true (loom_ui_test_wait_until (is_importing, watcher));
  g_assert_true (loom_ui_test_wait_until (shows_progress, window));

  /* The agent starts a session while the long pass runs. */
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Keep showing live sessions during a long import");
  add_assistant_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                        "a0000000-0000-4000-8000-000000000001", "msg_01",
                        "The list now follows a long import as it goes.");
  since = g_get_monotonic_time ();
  write_file (path, records);
  latency = wait_for_row (&created, since);
  n_listed = g_list_model_get_n_items (sessions);
  g_test_message ("latency: a session written during a long pass is listed after %"
                  G_GINT64_FORMAT " ms, %s; %u sessions listed then", latency / 1000,
                  pass.ended == 0 ? "before the pass ended" : "after the pass ended", n_listed);
  /* Shown while the pass runs. How soon is reported, not asserted: it is the wait for the
   * pass's batch to end and be indexed, which another test running beside this one, or the
   * sanitizers, make longer. */
  g_assert_cmpint (pass.ended, ==, 0);
  /* The pass's own sessions come in as it commits them. */
  g_assert_cmpuint (n_listed, >, 2);
  g_assert_cmpuint (n_listed, <, N_BIG_SESSIONS + 2);
  g_assert_cmpuint (n_timeline_reloads, ==, 0);
  loom_ui_test_save_screenshot (window, "watch-during-long-import");

  /* The session being read grows: its timeline follows. How soon is only reported: with
   * another UI test beside this one, it once took 2.13 s. */
  g_string_truncate (records, 0);
  add_user_record (records, EARLIER_ID, "b0000000-0000-4000-8000-000000000003",
                   "b0000000-0000-4000-8000-000000000002", "Add the import problems to them");
  since = g_get_monotonic_time ();
  append_file (earlier_path, records);
  latency = wait_for_row (&earlier_grown, since);
  g_assert_true (loom_ui_test_wait_until (is_positive, &n_timeline_reloads));
  g_test_message ("latency: the session being read showed its new prompt after %" G_GINT64_FORMAT
                  " ms, %s", (g_get_monotonic_time () - since) / 1000,
                  pass.ended == 0 ? "before the pass ended" : "after the pass ended");

  g_assert_true (loom_ui_test_wait_until (pass_ended, &pass));
  g_signal_handler_disconnect (watcher, handler);
  ticker_check (&fixture->ticker, "long import, the list following it");
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
  g_test_message ("the long pass took %" G_GINT64_FORMAT " ms (%u sessions)",
                  (pass.ended - pass.started) / 1000, N_BIG_SESSIONS);
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, N_BIG_SESSIONS + 2);
}

static void
test_watch_session_during_long_import (Fixture       *fixture,
                                       gconstpointer  user_data)
{
  write_earlier_session (fixture);
  fixture_run (fixture, session_during_long_import_body);
}

/* A first start with a long history: the welcome page shows the import going. */
typedef struct
{
  Fixture *fixture;
  Pass     pass;
  gulong   handler;
} FirstStart;

static void
on_startup_cb (GApplication *application,
               FirstStart   *first)
{
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (LOOM_APPLICATION (application));

  /* The application starts its first pass in startup: follow it from there. */
  g_assert_true (loom_source_watcher_get_importing (watcher));
  first->pass.watcher = watcher;
  first->pass.started = g_get_monotonic_time ();
  first->handler = g_signal_connect (watcher, "notify::importing",
                                     G_CALLBACK (on_importing_cb), &first->pass);
}

static FirstStart *first_start;

static void
first_import_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  Pass *pass = &first_start->pass;

  pass->window = window;
  ticker_restart (&fixture->ticker);
  if (pass->ended == 0)
    g_assert_nonnull (loom_ui_test_find_visible_label (window, "No Sessions Yet"));

  follow_long_pass (fixture, pass, "watch-first-import");
  g_signal_handler_disconnect (pass->watcher, first_start->handler);

  g_assert_true (loom_ui_test_wait_until (is_not_importing, pass->watcher));
  loom_ui_test_wait_for_frames (window, 2);
  g_assert_null (loom_ui_test_find_visible_label (window, "No Sessions Yet"));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (session_selection (window))), ==,
                    N_LONG_SESSIONS);
  loom_ui_test_save_screenshot (window, "watch-first-import-done");
}

static void
test_watch_first_import (Fixture       *fixture,
                         gconstpointer  user_data)
{
  FirstStart first = { fixture, { NULL, NULL, 0, 0, FALSE }, 0 };

  write_long_sessions (fixture->project, N_LONG_SESSIONS);
  first_start = &first;
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (fixture->app, "startup", G_CALLBACK (on_startup_cb), &first);
  fixture_run (fixture, first_import_body);
  first_start = NULL;
}

/* Turning the preference off stops watching at once; turning it on catches up. */
static void
setting_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  GSettings *settings = loom_application_get_settings (fixture->app);
  g_autofree char *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (fixture->project, name, NULL);
  g_autoptr(GString) records = g_string_new (NULL);
  RowWait created = { window, NEW_ID, 2, FALSE };
  gint64 until;

  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  g_settings_set_boolean (settings, "watch-sources", FALSE);
  g_assert_false (loom_source_watcher_get_watching (watcher));
  g_assert_cmpuint (loom_source_watcher_get_n_monitors (watcher), ==, 0);

  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Import only when asked");
  add_assistant_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                        "a0000000-0000-4000-8000-000000000001", "msg_01", "Understood.");
  write_file (path, records);

  /* Well past the time a change takes to show while watching. */
  until = g_get_monotonic_time () + 1500 * 1000;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (find_row (window, NEW_ID));
  g_assert_false (loom_source_watcher_get_importing (watcher));

  g_settings_set_boolean (settings, "watch-sources", TRUE);
  g_assert_true (loom_source_watcher_get_watching (watcher));
  wait_for_row (&created, g_get_monotonic_time ());
  g_assert_cmpuint (loom_source_watcher_get_n_monitors (watcher), >, 0);
}

static void
test_watch_setting (Fixture       *fixture,
                    gconstpointer  user_data)
{
  fixture_run (fixture, setting_body);
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);
  loom_ui_test_set_wake_up_interval (10);

  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add ("/app/watch/live", Fixture, NULL,
              fixture_set_up, test_watch_live, fixture_tear_down);
  g_test_add ("/app/watch/long-import", Fixture, NULL,
              fixture_set_up, test_watch_long_import, fixture_tear_down);
  g_test_add ("/app/watch/session-during-long-import", Fixture, NULL,
              fixture_set_up, test_watch_session_during_long_import, fixture_tear_down);
  g_test_add ("/app/watch/first-import", Fixture, NULL,
              fixture_set_up, test_watch_first_import, fixture_tear_down);
  g_test_add ("/app/watch/setting", Fixture, NULL,
              fixture_set_up, test_watch_setting, fixture_tear_down);

  return g_test_run ();
}
