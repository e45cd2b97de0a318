/* loom-search-ui-test.c — the search UI tests' fixture: a store prepared by importing the
 * Claude Code and Codex fixtures (with more sessions, or a watched folder, as a test asks), the
 * real application running on it, and the waits for search results and for a hit highlighted
 * in the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-core.h"
#include "loom-import.h"
#include "loom-search-ui-test.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-timeline-item.h"

#include "loom-ui-test.h"

/* Generous: llvmpipe and a busy CI machine can be slow to draw the first frame. */
#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

void
search_ui_test_init (int    *argc,
                     char ***argv)
{
  /* The cairo renderer draws the first frame fastest under Xvfb, and gives stable
   * screenshots. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (argc, argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);

  /* Screenshots must not catch a transition half-way. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

/* ——— Waiting and looking (the common helpers are in loom-ui-test.c) ——— */

/* ——— Fixture: a store and a running application ——— */

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

  /* More hits of one word in one session than its search bar reads at first. */
  if (fixture->flags & WITH_MANY_HITS)
    {
      g_autofree char *uuid = loom_test_add_session (store, MANY_TITLE, "codex", "capword",
                                                     N_MANY_MESSAGES, 0, g_get_real_time () / 1000);
    }

  /* More hits of one word than a page holds, in many sessions. */
  if (fixture->flags & WITH_PAGED_SESSIONS)
    {
      gint64 now = g_get_real_time () / 1000;

      for (guint i = 0; i < N_PAGED_SESSIONS; i++)
        {
          g_autofree char *title = g_strdup_printf ("Paging session %u - 2026-11-29", i);
          g_autofree char *uuid = loom_test_add_session (
            store, title, "codex", "pagingword", N_PAGED_MESSAGES, 0, now - (gint64)i * 60 * 1000);
        }
    }
}

/* ——— Playing Claude Code in a watched folder ——— */

static char *
iso_now (void)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.000Z");
}

/* A typed prompt, as Claude Code writes it. */
void
add_prompt_record (GString    *out,
                   const char *session_id,
                   guint       n,
                   const char *prompt)
{
  g_autofree char *now = iso_now ();
  g_autofree char *parent = n > 0 ? g_strdup_printf ("\"%.24s%012x\"", session_id, n - 1)
                                  : g_strdup ("null");

  g_string_append_printf (out,
                          "{\"parentUuid\":%s,\"isSidechain\":false,\"userType\":\"external\","
                          "\"cwd\":\"/tmp/proj\",\"sessionId\":\"%s\",\"version\":\"2.1.100\","
                          "\"gitBranch\":\"main\",\"type\":\"user\","
                          "\"message\":{\"role\":\"user\",\"content\":\"%s\"},"
                          "\"uuid\":\"%.24s%012x\",\"timestamp\":\"%s\"}\n",
                          parent, session_id, prompt, session_id, n, now);
}

/* Appends the way the agent does: to the open file, no rename. */
void
append_file (const char *path,
             GString    *contents)
{
  FILE *file = fopen (path, "a");

  g_assert_nonnull (file);
  g_assert_cmpuint (fwrite (contents->str, 1, contents->len, file), ==, contents->len);
  g_assert_cmpint (fclose (file), ==, 0);
}

/* A folder the application watches, with one session that says "zebrafinch" once; the agents'
 * own folders point where nothing is. */
static void
prepare_watched_folder (Fixture *fixture)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_autoptr (GString) records = g_string_new (NULL);
  g_autofree char *nowhere = g_build_filename (fixture->dir, "nowhere", NULL);
  const char      *folders[] = { NULL, NULL };

  fixture->watched = g_build_filename (fixture->dir, "agent", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->watched, 0700), ==, 0);
  fixture->live_file = g_build_filename (fixture->watched, LIVE_SESSION_ID ".jsonl", NULL);
  add_prompt_record (records, LIVE_SESSION_ID, 0, "Why does the zebrafinch build hang?");
  append_file (fixture->live_file, records);

  g_setenv ("CLAUDE_CONFIG_DIR", nowhere, TRUE);
  g_setenv ("CODEX_HOME", nowhere, TRUE);
  g_setenv ("GEMINI_CLI_HOME", nowhere, TRUE);
  folders[0] = fixture->watched;
  g_settings_set_strv (settings, "extra-source-folders", folders);
  g_settings_set_boolean (settings, "watch-sources", TRUE);
}

void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;

  /* TMPDIR is inside the harness's throwaway folder, so this never reaches a real store. */
  fixture->dir = g_dir_make_tmp ("loom-test-search-ui-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);
  fixture->flags = GPOINTER_TO_INT (user_data);
  prepare_store (fixture);

  loom_ui_test_prepare_settings (1280, 800);
  if (fixture->flags & WITH_WATCHED_FOLDER)
    prepare_watched_folder (fixture);
}

void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  /* Once closed, nothing may hold the window, nor the application once it has shut down. */
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  loom_ui_test_reset_settings ();
  if (fixture->flags & WITH_WATCHED_FOLDER)
    {
      g_autoptr (GSettings) settings = g_settings_new (APP_ID);

      g_settings_reset (settings, "extra-source-folders");
      g_unsetenv ("CLAUDE_CONFIG_DIR");
      g_unsetenv ("CODEX_HOME");
      g_unsetenv ("GEMINI_CLI_HOME");
    }
  g_clear_pointer (&fixture->watched, g_free);
  g_clear_pointer (&fixture->live_file, g_free);
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

  fixture->list = LOOM_SESSION_LIST (loom_ui_test_find_any (window, LOOM_TYPE_SESSION_LIST));
  fixture->entry = loom_session_list_get_search_entry (fixture->list);
  fixture->results = LOOM_SEARCH_RESULTS (loom_session_list_get_search_results (fixture->list));
  fixture->bar = LOOM_TIMELINE_SEARCH_BAR (
    loom_ui_test_find_any (window, LOOM_TYPE_TIMELINE_SEARCH_BAR));
  fixture->view = LOOM_TIMELINE_VIEW (loom_ui_test_find_any (window, LOOM_TYPE_TIMELINE_VIEW));
  fixture->body (fixture);

  return G_SOURCE_REMOVE;
}

void
fixture_run (Fixture *fixture,
             TestBody body)
{
  /* Non-unique: each test starts its own instance on the private bus. */
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;

  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

/* The uuid the store gave the session titled @title. */
char *
session_uuid_titled (LoomStore  *store,
                     const char *title)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

      if (g_str_equal (loom_session_get_title (session), title))
        return g_strdup (loom_session_get_uuid (session));
    }
  g_assert_not_reached ();
}

/* ——— Searching ——— */

typedef struct
{
  LoomSearchResults *results;
  const char        *query;
} SearchWait;

static gboolean
search_done (gpointer data)
{
  SearchWait *wait = data;

  return g_strcmp0 (loom_search_results_get_query (wait->results), wait->query) == 0 &&
         !loom_search_results_get_searching (wait->results);
}

void
wait_for_results (Fixture    *fixture,
                  const char *query)
{
  SearchWait wait = { fixture->results, query };

  if (!loom_ui_test_wait_until (search_done, &wait))
    g_error ("The search for “%s” did not finish: the results are of “%s”, %s, %s", query,
             loom_search_results_get_query (fixture->results),
             loom_search_results_get_searching (fixture->results) ? "searching" : "not searching",
             loom_search_results_get_error (fixture->results));
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 3);
}

/* Types @text into the search entry, as a person does, and waits for its results. */
void
search_for (Fixture    *fixture,
            const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), text);
  wait_for_results (fixture, text);
}

GtkSelectionModel *
results_selection (Fixture *fixture)
{
  GtkWidget *list_view = loom_ui_test_find_any (GTK_WIDGET (fixture->results), GTK_TYPE_LIST_VIEW);

  return gtk_list_view_get_model (GTK_LIST_VIEW (list_view));
}

/* The position of the hit at @seq of @session_uuid in the results, or -1. */
int
find_result (Fixture    *fixture,
             const char *session_uuid,
             gint64      seq)
{
  GListModel *model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  guint       n_items = g_list_model_get_n_items (model);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

      if (LOOM_IS_SEARCH_HIT (item) &&
          g_str_equal (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->session_uuid,
                       session_uuid) &&
          loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq == seq)
        return (int)i;
    }
  return -1;
}

/* The timeline row on screen that is highlighted, as a search hit is after the jump. */
LoomTimelineRow *
highlighted_row (Fixture *fixture)
{
  g_autoptr (GPtrArray)
    rows = loom_ui_test_find_visible (GTK_WIDGET (fixture->view), LOOM_TYPE_TIMELINE_ROW);
  LoomTimelineRow *found = NULL;

  for (guint i = 0; i < rows->len; i++)
    {
      if (gtk_widget_has_css_class (rows->pdata[i], "highlighted"))
        {
          g_assert_null (found);
          found = rows->pdata[i];
        }
    }
  return found;
}

/* The seq of the highlighted row on screen; -1 when none is. A tool's result shows in its
 * call's row: the row's item is the call, just before the result. */
gint64
highlighted_seq (Fixture *fixture)
{
  LoomTimelineRow *row = highlighted_row (fixture);

  if (row == NULL || loom_timeline_row_get_item (row) == NULL)
    return -1;
  return loom_timeline_item_get_data (loom_timeline_row_get_item (row))->seq;
}

typedef struct
{
  Fixture *fixture;
  gint64   seq;
} HighlightWait;

/* The row of @seq, or of the call whose result @seq is, is on screen and highlighted. */
static gboolean
shows_highlighted (gpointer data)
{
  HighlightWait *wait = data;
  gint64         seq = highlighted_seq (wait->fixture);

  return seq >= 0 && seq <= wait->seq && seq >= wait->seq - 1;
}

void
wait_for_highlight (Fixture *fixture,
                    gint64   seq)
{
  HighlightWait wait = { fixture, seq };

  if (!loom_ui_test_wait_until (shows_highlighted, &wait))
    g_error ("The timeline does not show #%" G_GINT64_FORMAT
             " highlighted (it shows #%" G_GINT64_FORMAT ")",
             seq, highlighted_seq (fixture));
}

gboolean
bar_done (gpointer data)
{
  LoomTimelineSearchBar *bar = data;

  return !loom_timeline_search_bar_get_searching (bar) &&
         *loom_timeline_search_bar_get_status (bar) != '\0';
}
