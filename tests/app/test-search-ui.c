/* test-search-ui.c — finding things in the window: the search of all history, its filters, and
 * the search bar of the open session.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) against a store
 * prepared by importing the Claude Code and Codex fixtures, types into the search entry as a
 * person does, waits for the worker thread's results, and checks what is on screen: results
 * grouped under their sessions with the matches in bold, the empty state, the message of a
 * malformed query, a hit opening its session scrolled to it (highlighted), the next and the
 * previous hit, the filters written into the query, searches typed over cancelled, the search
 * bar over the timeline, the searched words marked in the rows on screen (and only there),
 * results that follow what the source watcher imports from a watched folder, and an exact count
 * for a session with more hits than the bar reads at first. Screenshots, light and dark, go to
 * tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "loom-application.h"
#include "loom-import.h"
#include "loom-search-filter-popover.h"
#include "loom-search-format.h"
#include "loom-search-marker.h"
#include "loom-search-query-text.h"
#include "loom-search-result-row.h"
#include "loom-search-results.h"
#include "loom-session-list.h"
#include "loom-sidebar.h"
#include "loom-source-watcher.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-timeline-item.h"
#include "loom-timeline-row.h"
#include "loom-timeline-search-bar.h"
#include "loom-timeline-view.h"
#include "loom-window.h"

#include "loom-ui-test.h"

/* Generous: llvmpipe and a busy CI machine can be slow to draw the first frame. */
#define WAIT_TIMEOUT_USEC (20 * G_USEC_PER_SEC)

#define N_FIXTURE_SESSIONS 19  /* tests/import/fixtures/claude + codex, sub-agents included */
/* The Codex fixture session that says "token" four times in its timeline, and "exited" in two
 * tool results. */
#define CODEX_TITLE "Codex importer test - 2026-03-02"

/* 300 hits of "pagingword": three pages of results. */
#define N_PAGED_SESSIONS 60
#define N_PAGED_MESSAGES 5
#define PAGE_SIZE        100

/* One session that says "capword" in more messages than the session's search bar reads at
 * first. */
#define MANY_TITLE       "Many hits - 2026-11-29"
#define N_MANY_MESSAGES  1500
#define FIRST_HITS       1000

/* What a test needs in its store and around the application. */
typedef enum
{
  WITH_PAGED_SESSIONS  = 1 << 0,   /* N_PAGED_SESSIONS sessions saying "pagingword" */
  WITH_MANY_HITS       = 1 << 1,   /* MANY_TITLE */
  WITH_WATCHED_FOLDER  = 1 << 2,   /* a Claude Code session in a folder the application watches */
} FixtureFlags;

/* The session the watched folder starts with, and what the agent adds to it. */
#define LIVE_SESSION_ID  "5e55a0a0-0000-4000-8000-000000000001"
#define LIVE_SECOND_ID   "5e55a0a0-0000-4000-8000-000000000002"

/* ——— Helpers that need no window ——— */

static void
test_query_text (void)
{
  struct {
    const char *text;
    const char *key;
    const char *value;
    const char *expected_value;   /* get_filter (text, key) */
    const char *expected_text;    /* set_filter (text, key, value) */
  } cases[] = {
    { "", "agent", "codex", NULL, "agent:codex" },
    { "token", "agent", "codex", NULL, "token agent:codex" },
    { "agent:claude token", "agent", "codex", "claude", "agent:codex token" },
    { "token  agent:codex  \"a b\"", "agent", NULL, "codex", "token \"a b\"" },
    { "AGENT:codex -agent:gemini x", "agent", "gemini", "codex", "agent:gemini -agent:gemini x" },
    { "project:\"my app\" x", "project", "other app", "my app", "project:\"other app\" x" },
    { "x agent:a agent:b", "agent", "c", "b", "x agent:c" },
    { "\"agent:codex in a phrase\"", "agent", NULL, NULL, "\"agent:codex in a phrase\"" },
    { "after:2026-10-01 has:error", "has", NULL, "error", "after:2026-10-01" },
    { "folder:Work", "folder", "Say \"hi\"", "Work", "folder:\"Say hi\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *value = loom_search_query_text_get_filter (cases[i].text, cases[i].key);
      g_autofree char *text = loom_search_query_text_set_filter (cases[i].text, cases[i].key,
                                                                 cases[i].value);

      g_assert_cmpstr (value, ==, cases[i].expected_value);
      g_assert_cmpstr (text, ==, cases[i].expected_text);
    }

  /* The words a hit is found by, as the core marks them: no filters, exclusions or OR. */
  {
    struct {
      const char *text;
      const char *words;     /* joined by "|", a prefix ending in "*" */
    } word_cases[] = {
      { "flaky store test", "flaky|store|test" },
      { "\"null pointer\" migrat* -leak agent:codex", "null pointer|migrat*" },
      { "deadlock OR panic has:error", "deadlock|panic" },
      { "project:\"my app\" tool:Bash", NULL },
      { "loadConfig src/auth/login.c", "loadConfig|src/auth/login.c" },
      { "\"unclosed phrase", NULL },   /* refused by the parser: no search, no marks */
    };

    for (guint i = 0; i < G_N_ELEMENTS (word_cases); i++)
      {
        g_autoptr(GArray) prefix = NULL;
        g_auto(GStrv) words = loom_search_query_text_get_words (word_cases[i].text, &prefix);
        g_autoptr(GString) joined = g_string_new (NULL);

        for (guint w = 0; words != NULL && words[w] != NULL; w++)
          g_string_append_printf (joined, "%s%s%s", w > 0 ? "|" : "", words[w],
                                  g_array_index (prefix, gboolean, w) ? "*" : "");
        g_assert_cmpstr (words != NULL ? joined->str : NULL, ==, word_cases[i].words);
      }
  }

  g_assert_true (loom_search_filter_popover_has_filters ("x role:user"));
  g_assert_true (loom_search_filter_popover_has_filters ("has:error"));
  g_assert_false (loom_search_filter_popover_has_filters ("x tool:Bash"));
}

static void
test_snippet_markup (void)
{
  struct {
    const char *snippet;
    const char *markup;
    const char *text;
  } cases[] = {
    { "a \002match\003 here", "a <b>match</b> here", "a match here" },
    { "<b>not bold</b> & \002x\003", "&lt;b&gt;not bold&lt;/b&gt; &amp; <b>x</b>",
      "<b>not bold</b> & x" },
    { "line one\n\n  line\ttwo \002cut", "line one line two <b>cut</b>", "line one line two cut" },
    { "\003stray end and \002a\003\002b\003", "stray end and <b>a</b><b>b</b>",
      "stray end and ab" },
    { "", "", "" },
  };
  LoomSearchHitData data = { 0 };
  g_autofree char *kind = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *markup = loom_search_format_snippet_markup (cases[i].snippet);
      g_autofree char *text = loom_search_format_snippet_text (cases[i].snippet);

      g_assert_cmpstr (markup, ==, cases[i].markup);
      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_true (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, NULL));
    }

  data.kind = (char *)"tool";
  data.tool_name = (char *)"Bash";
  kind = loom_search_format_kind (&data);
  g_assert_cmpstr (kind, ==, "Tool · Bash");
}

/* The marker finds what the index's tokenizer matches: folded accents, prefixes, the parts of
 * identifiers, characters of text without spaces; never an excluded word or a filter. */
static void
test_marker (void)
{
  struct {
    const char *query;
    const char *text;
    const char *marked;   /* the marked stretches, joined by "|" */
  } cases[] = {
    { "cafe", "Un Café, deux cafés: CAFE.", "Café|CAFE" },
    { "pars*", "The parser parses; a spare parsnip.", "parser|parses|parsnip" },
    { "config", "call loadConfig() or config_load()", "loadConfig|config" },
    { "\"null pointer\"", "A null pointer, then null again.", "null|pointer|null" },
    { "token -test agent:codex", "test the token counter", "token" },
    { "日本", "日本語のテキスト", "日本" },
    { "zzz", "nothing here", "" },
    { "mark", "stray \002 mark \003 chars", "mark" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(LoomSearchMarker) marker = loom_search_marker_new (cases[i].query);
      g_autoptr(GArray) found = NULL;
      g_autoptr(GString) marked = g_string_new (NULL);

      g_assert_nonnull (marker);
      found = loom_search_marker_find (marker, cases[i].text);
      for (guint r = 0; r + 1 < found->len; r += 2)
        {
          guint start = g_array_index (found, guint, r);
          guint end = g_array_index (found, guint, r + 1);

          g_assert_cmpuint (start, <, end);
          g_assert_cmpuint (end, <=, strlen (cases[i].text));
          g_string_append_printf (marked, "%s%.*s", r > 0 ? "|" : "", (int)(end - start),
                                  cases[i].text + start);
        }
      g_assert_cmpstr (marked->str, ==, cases[i].marked);
    }

  /* Only filters: nothing to mark. */
  g_assert_null (loom_search_marker_new ("agent:codex has:error"));
  g_assert_null (loom_search_marker_new (""));
}

/* ——— Waiting and looking (the common helpers are in loom-ui-test.c) ——— */

/* The first widget of @type under @root, seen or not. */
static GtkWidget *
find_any (GtkWidget *root,
          GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (root), type))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_any (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_visible_button (GtkWidget  *root,
                     const char *icon_name)
{
  g_autoptr(GPtrArray) buttons = loom_ui_test_find_visible (root, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_button_get_icon_name (buttons->pdata[i]), icon_name) == 0)
        return buttons->pdata[i];
    }
  return NULL;
}

/* A key press as @widget's own key controllers see it (the entry's Down, say). */
static gboolean
send_key (GtkWidget *widget,
          guint      keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint n_controllers = g_list_model_get_n_items (controllers);
  gboolean handled = FALSE;

  for (guint c = 0; c < n_controllers && !handled; c++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, c);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, (GdkModifierType)0,
                               &handled);
    }
  return handled;
}

/* ——— Fixture: a store and a running application ——— */

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char              *dir;
  char              *db_path;
  LoomApplication   *app;
  LoomWindow        *window;
  TestBody           body;
  FixtureFlags       flags;
  char              *watched;   /* WITH_WATCHED_FOLDER: the folder, and its session file */
  char              *live_file;

  /* What the body works with, found once the window is open. */
  LoomSessionList   *list;
  GtkSearchEntry    *entry;
  LoomSearchResults *results;
  LoomTimelineSearchBar *bar;
  LoomTimelineView  *view;
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
  g_autofree char *claude = fixture_path ("claude");
  g_autofree char *codex = fixture_path ("codex");
  const char *paths[] = { claude, codex, NULL };
  LoomImportOptions options = { NULL, paths };
  g_autoptr(LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr(LoomStore) store = NULL;
  g_autoptr(GError) error = NULL;

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->sessions_new, ==, N_FIXTURE_SESSIONS);

  /* More hits of one word in one session than its search bar reads at first. */
  if (fixture->flags & WITH_MANY_HITS)
    {
      g_autofree char *uuid = loom_test_add_session (store, MANY_TITLE, "codex", "capword",
                                                     N_MANY_MESSAGES, 0,
                                                     g_get_real_time () / 1000);
    }

  /* More hits of one word than a page holds, in many sessions. */
  if (fixture->flags & WITH_PAGED_SESSIONS)
    {
      gint64 now = g_get_real_time () / 1000;

      for (guint i = 0; i < N_PAGED_SESSIONS; i++)
        {
          g_autofree char *title = g_strdup_printf ("Paging session %u - 2026-11-29", i);
          g_autofree char *uuid = loom_test_add_session (store, title, "codex", "pagingword",
                                                         N_PAGED_MESSAGES, 0,
                                                         now - (gint64)i * 60 * 1000);
        }
    }
}

/* ——— Playing Claude Code in a watched folder ——— */

static char *
iso_now (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  return g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.000Z");
}

/* A typed prompt, as Claude Code writes it. */
static void
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
static void
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
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(GString) records = g_string_new (NULL);
  g_autofree char *nowhere = g_build_filename (fixture->dir, "nowhere", NULL);
  const char *folders[] = { NULL, NULL };

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

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;

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

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{

  /* Once closed, nothing may hold the window, nor the application once it has shut down. */
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  loom_ui_test_reset_settings ();
  if (fixture->flags & WITH_WATCHED_FOLDER)
    {
      g_autoptr(GSettings) settings = g_settings_new (APP_ID);

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
  Fixture *fixture = user_data;
  GtkWidget *window = GTK_WIDGET (fixture->window);

  loom_ui_test_wait_for_frames (window, 2);

  fixture->list = LOOM_SESSION_LIST (find_any (window, LOOM_TYPE_SESSION_LIST));
  fixture->entry = loom_session_list_get_search_entry (fixture->list);
  fixture->results = LOOM_SEARCH_RESULTS (loom_session_list_get_search_results (fixture->list));
  fixture->bar = LOOM_TIMELINE_SEARCH_BAR (find_any (window, LOOM_TYPE_TIMELINE_SEARCH_BAR));
  fixture->view = LOOM_TIMELINE_VIEW (find_any (window, LOOM_TYPE_TIMELINE_VIEW));
  fixture->body (fixture);

  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture  *fixture,
             TestBody  body)
{
  /* Non-unique: each test starts its own instance on the private bus. */
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;

  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

/* The uuid the store gave the session titled @title. */
static char *
session_uuid_titled (LoomStore  *store,
                     const char *title)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr(GListModel) sessions = NULL;
  g_autoptr(GError) error = NULL;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr(LoomSession) session = g_list_model_get_item (sessions, i);

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

static void
wait_for_results (Fixture    *fixture,
                  const char *query)
{
  SearchWait wait = { fixture->results, query };

  if (!loom_ui_test_wait_until (search_done, &wait))
    g_error ("The search for “%s” did not finish: the results are of “%s”, %s, %s",
             query, loom_search_results_get_query (fixture->results),
             loom_search_results_get_searching (fixture->results) ? "searching" : "not searching",
             loom_search_results_get_error (fixture->results));
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 3);
}

/* Types @text into the search entry, as a person does, and waits for its results. */
static void
search_for (Fixture    *fixture,
            const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), text);
  wait_for_results (fixture, text);
}

static GtkSelectionModel *
results_selection (Fixture *fixture)
{
  GtkWidget *list_view = find_any (GTK_WIDGET (fixture->results), GTK_TYPE_LIST_VIEW);

  return gtk_list_view_get_model (GTK_LIST_VIEW (list_view));
}

/* The position of the hit at @seq of @session_uuid in the results, or -1. */
static int
find_result (Fixture    *fixture,
             const char *session_uuid,
             gint64      seq)
{
  GListModel *model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  guint n_items = g_list_model_get_n_items (model);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (LOOM_IS_SEARCH_HIT (item) &&
          g_str_equal (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->session_uuid,
                       session_uuid) &&
          loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq == seq)
        return (int)i;
    }
  return -1;
}

/* The timeline row on screen that is highlighted, as a search hit is after the jump. */
static LoomTimelineRow *
highlighted_row (Fixture *fixture)
{
  g_autoptr(GPtrArray) rows = loom_ui_test_find_visible (GTK_WIDGET (fixture->view),
                                                         LOOM_TYPE_TIMELINE_ROW);
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
static gint64
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
  gint64 seq = highlighted_seq (wait->fixture);

  return seq >= 0 && seq <= wait->seq && seq >= wait->seq - 1;
}

static void
wait_for_highlight (Fixture *fixture,
                    gint64   seq)
{
  HighlightWait wait = { fixture, seq };

  if (!loom_ui_test_wait_until (shows_highlighted, &wait))
    g_error ("The timeline does not show #%" G_GINT64_FORMAT " highlighted (it shows #%"
             G_GINT64_FORMAT ")", seq, highlighted_seq (fixture));
}

static gboolean
bar_done (gpointer data)
{
  LoomTimelineSearchBar *bar = data;

  return !loom_timeline_search_bar_get_searching (bar) &&
         *loom_timeline_search_bar_get_status (bar) != '\0';
}

static gboolean
is_searching_list (gpointer data)
{
  return !loom_session_list_get_searching (data);
}

/* The visible result rows, headers and hits. */
static GPtrArray *
visible_result_rows (Fixture *fixture)
{
  return loom_ui_test_find_visible (GTK_WIDGET (fixture->results), LOOM_TYPE_SEARCH_RESULT_ROW);
}

/* ——— Marks in the timeline ——— */

/* A mark's background: a highlighter's yellow, unlike inline code's grey. */
static gboolean
is_mark (PangoAttribute *attribute)
{
  PangoColor *color;

  if (attribute->klass->type != PANGO_ATTR_BACKGROUND)
    return FALSE;
  color = &((PangoAttrColor *)attribute)->color;
  return color->red > 0xe000 && color->green > 0xc000 && color->blue < 0xa000;
}

/* What @label draws with: its markup's attributes and those set on it, merged. */
static PangoAttrList *
drawn_attributes (GtkLabel *label)
{
  return pango_layout_get_attributes (gtk_label_get_layout (label));
}

/* Whether @attributes mark [@start, @end) with @start ≥ 0, or anything when @start < 0. */
static gboolean
has_mark (PangoAttrList *attributes,
          int            start,
          int            end)
{
  GSList *list = attributes != NULL ? pango_attr_list_get_attributes (attributes) : NULL;
  gboolean found = FALSE;

  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attribute = l->data;

      if (is_mark (attribute) &&
          (start < 0 || (attribute->start_index <= (guint)start &&
                         attribute->end_index >= (guint)end)))
        found = TRUE;
    }
  g_slist_free_full (list, (GDestroyNotify)pango_attribute_destroy);
  return found;
}

/* Whether @label draws any mark. */
static gboolean
is_marked (GtkLabel *label)
{
  return has_mark (drawn_attributes (label), -1, -1);
}

/* How often @label's text says @word as a word of its own (ASCII, any case), and whether each
 * time is drawn marked. */
static guint
count_word (GtkLabel   *label,
            const char *word,
            gboolean   *all_marked)
{
  g_autofree char *text = g_ascii_strdown (gtk_label_get_text (label), -1);
  g_autofree char *needle = g_ascii_strdown (word, -1);
  PangoAttrList *attributes = drawn_attributes (label);
  gsize length = strlen (needle);
  guint n = 0;

  *all_marked = TRUE;
  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    {
      int start = (int)(p - text);

      if ((p > text && g_ascii_isalnum (p[-1])) || g_ascii_isalnum (p[length]))
        continue;
      n++;
      if (!has_mark (attributes, start, start + (int)length))
        *all_marked = FALSE;
    }
  return n;
}

typedef struct
{
  guint n_words;       /* times the word is said in the labels looked at */
  guint n_marked;      /* labels with marks */
  guint n_wrong;       /* labels marked where the word is not, or the word unmarked */
} MarkCount;

/* Looks at every label under @root: each says @word marked or not at all. */
static void
count_marks (GtkWidget  *root,
             const char *word,
             MarkCount  *count)
{
  g_autoptr(GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    {
      gboolean all_marked;
      guint n = count_word (labels->pdata[i], word, &all_marked);
      gboolean marked = is_marked (labels->pdata[i]);

      count->n_words += n;
      count->n_marked += marked;
      if ((n > 0 && !all_marked) || (marked && n == 0))
        {
          g_test_message ("Label “%.60s” %s “%s”", gtk_label_get_text (labels->pdata[i]),
                          marked ? "marked, without" : "with, not marked:", word);
          count->n_wrong++;
        }
    }
}

/* The labels under @widget, seen or not, with @word marked. */
static guint
count_marked_labels (GtkWidget  *widget,
                     const char *word)
{
  gboolean all_marked;
  guint n = 0;

  if (GTK_IS_LABEL (widget))
    return is_marked (GTK_LABEL (widget)) &&
           count_word (GTK_LABEL (widget), word, &all_marked) > 0 && all_marked;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_marked_labels (child, word);
  return n;
}

/* The labels with @word marked in the timeline's rows that are not on screen. */
static guint
count_marked_off_screen (GtkWidget  *widget,
                         const char *word)
{
  guint n = 0;

  if (LOOM_IS_TIMELINE_ROW (widget))
    return gtk_widget_get_mapped (widget) ? 0 : count_marked_labels (widget, word);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_marked_off_screen (child, word);
  return n;
}

/* ——— Tests ——— */

static void
search_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autoptr(GListModel) expected = NULL;
  g_autoptr(GHashTable) expected_sessions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *model;
  const char *current_uuid = NULL;
  gint64 last_seq = -1;
  guint n_items, n_headers = 0, n_bold = 0;
  int position, n_hits;
  g_autofree char *summary = NULL;
  GtkWidget *focus;
  GtkWidget *back;
  GtkWidget *empty_page;
  g_autofree char *codex_uuid = session_uuid_titled (store, CODEX_TITLE);

  /* Before anything is typed: the list, and no results. */
  g_assert_false (loom_session_list_get_searching (fixture->list));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->results)));

  /* Typing searches all history: the results take the list's place, grouped by session. */
  search_for (fixture, "token");
  g_assert_true (loom_session_list_get_searching (fixture->list));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->results)));
  g_assert_null (loom_search_results_get_error (fixture->results));

  expected = loom_store_search (store, "token", 0, 100, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (expected); i++)
    {
      g_autoptr(LoomSearchHit) hit = g_list_model_get_item (expected, i);

      g_hash_table_add (expected_sessions, (gpointer)loom_search_hit_get_data (hit)->session_uuid);
    }
  g_assert_cmpuint (g_hash_table_size (expected_sessions), >=, 3);

  model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  n_items = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_items, ==, g_list_model_get_n_items (expected) +
                                 g_hash_table_size (expected_sessions));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (LOOM_IS_SESSION (item))
        {
          /* Each session once, with its hits under it in timeline order. */
          current_uuid = loom_session_get_uuid (LOOM_SESSION (item));
          g_assert_true (g_hash_table_remove (expected_sessions, current_uuid));
          last_seq = -1;
          n_headers++;
          continue;
        }

      g_assert_true (LOOM_IS_SEARCH_HIT (item));
      g_assert_cmpstr (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->session_uuid, ==,
                       current_uuid);
      g_assert_cmpint (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq, >=, last_seq);
      last_seq = loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq;
    }
  g_assert_cmpuint (g_hash_table_size (expected_sessions), ==, 0);

  /* The header says how many. */
  summary = g_strdup_printf ("%u results in %u sessions",
                             g_list_model_get_n_items (expected), n_headers);
  g_assert_cmpstr (loom_session_list_get_title (fixture->list), ==, "Search");
  g_assert_cmpstr (loom_session_list_get_subtitle (fixture->list), ==, summary);

  /* On screen: the sessions' titles, and snippets with the matches in bold, told apart by
   * kind for a screen reader too. */
  rows = visible_result_rows (fixture);
  g_assert_cmpuint (rows->len, >=, 8);
  for (guint i = 0; i < rows->len; i++)
    {
      GObject *item = loom_search_result_row_get_item (rows->pdata[i]);
      GtkLabel *snippet = loom_search_result_row_get_snippet_label (rows->pdata[i]);
      const char *label = loom_search_result_row_get_accessible_label (rows->pdata[i]);

      g_assert_nonnull (label);
      if (LOOM_IS_SESSION (item))
        {
          g_assert_true (g_str_has_prefix (label, "Session "));
          continue;
        }
      g_assert_null (strchr (gtk_label_get_text (snippet), '\002'));
      g_assert_null (strchr (gtk_label_get_text (snippet), '\003'));
      if (strstr (gtk_label_get_label (snippet), "<b>token</b>") != NULL ||
          strstr (gtk_label_get_label (snippet), "<b>Token</b>") != NULL)
        n_bold++;
    }
  g_assert_cmpuint (n_bold, >=, 4);
  loom_ui_test_save_screenshots (fixture->app, window, "search-results");

  /* A hit chosen: its session opens in the timeline, scrolled to the hit, highlighted, and
   * the search bar counts the session's hits from it. */
  position = find_result (fixture, codex_uuid, 10);
  g_assert_cmpint (position, >, 0);
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  wait_for_highlight (fixture, 10);
  g_assert_nonnull (loom_window_get_shown_session (fixture->window));
  g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                   codex_uuid);
  g_assert_true (loom_timeline_search_bar_get_open (fixture->bar));
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  n_hits = (int)loom_timeline_search_bar_get_n_hits (fixture->bar);
  g_assert_cmpint (n_hits, ==, 4);
  g_assert_cmpint (loom_timeline_search_bar_get_position (fixture->bar), ==, 1);
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "2 of 4");
  /* The results keep the focus for the arrow keys; the bar does not take it. */
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->bar)));
  loom_ui_test_save_screenshots (fixture->app, window, "search-hit-opened");

  /* Ctrl+G and Shift+Ctrl+G, F3: from hit to hit, round at the ends. */
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_g, GDK_CONTROL_MASK));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "3 of 4");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 2));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_F3, 0));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "4 of 4");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 3));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_g, GDK_CONTROL_MASK));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "1 of 4");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 0));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "4 of 4");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 3));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_F3, GDK_SHIFT_MASK));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "3 of 4");

  /* Down goes from the entry into the results; Enter in the entry opens the first hit. */
  gtk_widget_grab_focus (GTK_WIDGET (fixture->entry));
  g_assert_true (send_key (GTK_WIDGET (fixture->entry), GDK_KEY_Down));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->results)));
  gtk_widget_grab_focus (GTK_WIDGET (fixture->entry));
  g_signal_emit_by_name (fixture->entry, "activate");
  loom_ui_test_wait_for_frames (window, 3);
  {
    g_autoptr(GObject) first = g_list_model_get_item (model, 1);

    g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                     loom_search_hit_get_data (LOOM_SEARCH_HIT (first))->session_uuid);
  }

  /* A narrow window shows one pane: the timeline of the hit, with a way back to the results,
   * and from the results, a hit chosen goes to the timeline again. */
  loom_ui_test_set_window_size (window, 400, 700);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->results)));
  loom_ui_test_save_screenshot (window, "search-narrow-hit");
  back = find_visible_button (window, "go-previous-symbolic");
  g_assert_nonnull (back);
  gtk_widget_activate (back);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, fixture->results));
  loom_ui_test_save_screenshot (window, "search-narrow");
  position = find_result (fixture, codex_uuid, 21);
  g_assert_cmpint (position, >, 0);
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  wait_for_highlight (fixture, 21);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->results)));
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "3 of 4");
  loom_ui_test_set_window_size (window, 1280, 800);

  /* Nothing found: says so, with what was searched for. */
  search_for (fixture, "zzyzzyva");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  empty_page = loom_ui_test_find_visible_status_page (window, "No Results");
  g_assert_nonnull (empty_page);
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (empty_page)),
                            "zzyzzyva"));
  g_assert_cmpstr (loom_session_list_get_subtitle (fixture->list), ==, "0 results in 0 sessions");
  loom_ui_test_save_screenshots (fixture->app, window, "search-empty");

  /* A malformed query: the core's message, in place of the results, not in a dialog. */
  search_for (fixture, "agent:");
  g_assert_nonnull (loom_search_results_get_error (fixture->results));
  g_assert_nonnull (strstr (loom_search_results_get_error (fixture->results), "needs a value"));
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "Check the Search"));
  g_assert_null (loom_session_list_get_subtitle (fixture->list));
  g_assert_null (loom_ui_test_find_toplevel (ADW_TYPE_MESSAGE_DIALOG));
  loom_ui_test_save_screenshots (fixture->app, window, "search-error");
  search_for (fixture, "\"token");
  g_assert_nonnull (strstr (loom_search_results_get_error (fixture->results), "quote"));

  /* Clearing the entry (Escape) brings the list back. */
  g_signal_emit_by_name (fixture->entry, "stop-search");
  g_assert_true (loom_ui_test_wait_until (is_searching_list, fixture->list));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->results)));
  g_assert_cmpstr (loom_session_list_get_title (fixture->list), ==, "All Sessions");
}

/* Typing on cancels the search under way: only the last query's results ever show. */
static void
cancel_body (Fixture *fixture)
{
  GListModel *model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  guint n_items;

  /* Without the entry's pause, each query starts a search at once, cancelling the one
   * before; the last finds nothing, so any stale result would show. */
  for (guint round = 0; round < 5; round++)
    {
      loom_search_results_set_query (fixture->results, "token");
      loom_search_results_set_query (fixture->results, "importer");
      loom_search_results_set_query (fixture->results, "Directory");
      loom_search_results_set_query (fixture->results, "zzyzzyva");
      g_assert_true (loom_search_results_get_searching (fixture->results));
      wait_for_results (fixture, "zzyzzyva");
      /* Time for a stale callback to come in, had one been let through. */
      loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 5);
      g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
    }

  /* And through the entry, typed letter by letter: one search, of the whole word. */
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), "D");
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), "Di");
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), "Dir");
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), "Directory");
  wait_for_results (fixture, "Directory");
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 5);
  g_assert_cmpstr (loom_search_results_get_query (fixture->results), ==, "Directory");
  n_items = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_items, >=, 2);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);
      g_autofree char *text = NULL;

      if (!LOOM_IS_SEARCH_HIT (item))
        continue;
      text = loom_search_format_snippet_markup (
        loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->snippet);
      g_assert_nonnull (strstr (text, "<b>Directory</b>"));
    }
}

typedef struct
{
  LoomSearchResults *results;
  guint              n_hits;
} HitsWait;

static gboolean
has_hits (gpointer data)
{
  HitsWait *wait = data;

  return loom_search_result_model_get_n_hits (loom_search_results_get_model (wait->results)) >=
         wait->n_hits && !loom_search_results_get_searching (wait->results);
}

/* Scrolls the results to their end, as a reader going down does. */
static void
scroll_results_to_end (Fixture *fixture)
{
  GtkWidget *scrolled = find_any (GTK_WIDGET (fixture->results), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));

  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) -
                                        gtk_adjustment_get_page_size (adjustment));
}

/* Results come a page at a time, the next one as the list scrolls near its end, into the
 * groups they belong to. */
static void
pages_body (Fixture *fixture)
{
  LoomSearchResultModel *model = loom_search_results_get_model (fixture->results);
  g_autoptr(GHashTable) headers = g_hash_table_new (g_str_hash, g_str_equal);
  const char *current_uuid = NULL;
  gint64 last_seq = -1;
  HitsWait wait = { fixture->results, 0 };
  g_autofree char *summary = NULL;
  guint n_items;

  search_for (fixture, "pagingword");
  g_assert_cmpuint (loom_search_result_model_get_n_hits (model), ==, PAGE_SIZE);
  g_assert_true (g_str_has_prefix (loom_session_list_get_subtitle (fixture->list), "100+ results"));

  for (guint page = 2; page <= 3; page++)
    {
      wait.n_hits = page * PAGE_SIZE;
      scroll_results_to_end (fixture);
      if (!loom_ui_test_wait_until (has_hits, &wait))
        g_error ("Page %u of the results did not come", page);
      loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 2);
    }
  g_assert_cmpuint (loom_search_result_model_get_n_hits (model), ==,
                    N_PAGED_SESSIONS * N_PAGED_MESSAGES);
  summary = g_strdup_printf ("%u results in %u sessions", N_PAGED_SESSIONS * N_PAGED_MESSAGES,
                             N_PAGED_SESSIONS);
  g_assert_cmpstr (loom_session_list_get_subtitle (fixture->list), ==, summary);

  /* Each session once, its hits under it in timeline order, whichever page they came in. */
  n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
  g_assert_cmpuint (n_items, ==, N_PAGED_SESSIONS * (N_PAGED_MESSAGES + 1));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (model), i);

      if (LOOM_IS_SESSION (item))
        {
          current_uuid = loom_session_get_uuid (LOOM_SESSION (item));
          g_assert_true (g_hash_table_add (headers, (gpointer)current_uuid));
          last_seq = -1;
          continue;
        }
      g_assert_cmpstr (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->session_uuid, ==,
                       current_uuid);
      g_assert_cmpint (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq, >, last_seq);
      last_seq = loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq;
    }
  g_assert_cmpuint (g_hash_table_size (headers), ==, N_PAGED_SESSIONS);

  /* Nothing more to read at the end. */
  scroll_results_to_end (fixture);
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 3);
  g_assert_false (loom_search_results_get_searching (fixture->results));
  g_assert_cmpuint (loom_search_result_model_get_n_hits (model), ==,
                    N_PAGED_SESSIONS * N_PAGED_MESSAGES);
}

/* The filter popover writes its choices into the query, and reads them back from it. */
static void
filters_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *button = NULL;
  LoomSearchFilterPopover *popover;
  GListModel *model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  g_autoptr(GPtrArray) buttons = NULL;
  guint n_items;

  search_for (fixture, "token");
  buttons = loom_ui_test_find_visible (window, GTK_TYPE_MENU_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_widget_get_tooltip_text (buttons->pdata[i]), "Search Filters") == 0)
        button = buttons->pdata[i];
    }
  g_assert_nonnull (button);
  /* The list's own sort and filter menus give way to it while searching. */
  for (guint i = 0; i < buttons->len; i++)
    g_assert_cmpstr (gtk_widget_get_tooltip_text (buttons->pdata[i]), !=, "Sort");

  popover = LOOM_SEARCH_FILTER_POPOVER (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, popover));
  loom_ui_test_wait_for_frames (GTK_WIDGET (popover), 3);

  /* Codex (the third agent choice): written into the query; the results follow. */
  loom_search_filter_popover_choose (popover, "agent", 2);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==, "token agent:codex");
  wait_for_results (fixture, "token agent:codex");
  n_items = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_items, >, 0);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (LOOM_IS_SESSION (item))
        g_assert_cmpstr (loom_session_get_source (LOOM_SESSION (item)), ==, "codex");
    }

  /* Errors only, and a date: added beside it. */
  loom_search_filter_popover_choose (popover, "has", 1);
  loom_search_filter_popover_choose (popover, "after", 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==,
                   "token agent:codex has:error");
  loom_ui_test_save_screenshot (GTK_WIDGET (popover), "search-filters");

  /* "Last 7 Days": after: the start of the sixth day back; "Any Time" takes it out again. */
  loom_search_filter_popover_choose (popover, "after", 2);
  {
    g_autoptr(GDateTime) now = g_date_time_new_now_local ();
    g_autoptr(GDateTime) week = g_date_time_add_days (now, -6);
    g_autofree char *date = g_date_time_format (week, "%Y-%m-%d");
    g_autofree char *expected = g_strdup_printf ("token agent:codex has:error after:%s", date);

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==, expected);
  }
  loom_search_filter_popover_choose (popover, "after", 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==,
                   "token agent:codex has:error");

  /* Typed by hand, read back as it opens: agent:claude is Claude Code. */
  gtk_popover_popdown (GTK_POPOVER (popover));
  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), "token agent:claude role:prompt");
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  loom_ui_test_wait_for_frames (GTK_WIDGET (popover), 2);
  g_assert_cmpstr (loom_search_filter_popover_get_query (popover), ==,
                   "token agent:claude role:prompt");
  loom_search_filter_popover_choose (popover, "role", 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==,
                   "token agent:claude");
  wait_for_results (fixture, "token agent:claude");
  g_assert_true (gtk_widget_has_css_class (button, "filter-active"));
  gtk_popover_popdown (GTK_POPOVER (popover));
}

/* Ctrl+F in the timeline searches the open session; elsewhere, all history. */
static void
session_search_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autofree char *codex_uuid = session_uuid_titled (store, CODEX_TITLE);
  GtkWidget *timeline_list;
  GtkWidget *sidebar;
  GtkWidget *focus;
  int position;

  /* The Codex session, opened from a search for its title's words (its title's hit opens it
   * at its start). */
  search_for (fixture, "\"Codex importer test\"");
  position = find_result (fixture, codex_uuid, 0);
  g_assert_cmpint (position, >, 0);
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                   codex_uuid);
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  loom_timeline_search_bar_close (fixture->bar);
  g_assert_false (loom_timeline_search_bar_get_open (fixture->bar));

  /* The timeline has the focus: Ctrl+F opens the bar over it, with the focus in its entry. */
  timeline_list = find_any (GTK_WIDGET (fixture->view), GTK_TYPE_LIST_VIEW);
  g_assert_true (gtk_widget_child_focus (timeline_list, GTK_DIR_TAB_FORWARD) ||
                 gtk_widget_grab_focus (timeline_list));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->view)));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_f, GDK_CONTROL_MASK));
  g_assert_true (loom_timeline_search_bar_get_open (fixture->bar));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->bar)));

  /* Typed: the session's hits, counted, and the first one gone to. */
  gtk_editable_set_text (GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar)),
                         "exited");
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  g_assert_cmpuint (loom_timeline_search_bar_get_n_hits (fixture->bar), ==, 2);
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "1 of 2");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 0));
  loom_ui_test_save_screenshots (fixture->app, window, "search-in-session");

  /* Enter goes on, and round. */
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "activate");
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "2 of 2");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 1));
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "activate");
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "1 of 2");

  /* Nothing, and a malformed query, said in the bar. */
  gtk_editable_set_text (GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar)),
                         "zzyzzyva");
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "No matches");
  g_assert_false (loom_timeline_search_bar_next (fixture->bar));
  gtk_editable_set_text (GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar)),
                         "role:nobody");
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  g_assert_nonnull (strstr (loom_timeline_search_bar_get_status (fixture->bar),
                            "Unknown role"));
  loom_ui_test_save_screenshots (fixture->app, window, "search-in-session-error");

  /* Escape closes it, and the focus goes back to the timeline. */
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  g_assert_false (loom_timeline_search_bar_get_open (fixture->bar));
  loom_ui_test_wait_for_frames (window, 3);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->view)));

  /* Ctrl+F anywhere else: the search of all history. */
  sidebar = find_any (window, LOOM_TYPE_SIDEBAR);
  g_assert_true (gtk_widget_child_focus (sidebar, GTK_DIR_TAB_FORWARD));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, sidebar));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_f, GDK_CONTROL_MASK));
  g_assert_false (loom_timeline_search_bar_get_open (fixture->bar));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL &&
                 (focus == GTK_WIDGET (fixture->entry) ||
                  gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->entry))));
}

/* The words searched for are marked in the rows on screen, and only there: opening a hit from
 * the results marks its query, the session's own search bar marks what it searches for (and
 * opens the folded tool call whose output says it), and closing the bar takes the marks away. */
static void
marks_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *view = GTK_WIDGET (fixture->view);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autofree char *codex_uuid = session_uuid_titled (store, CODEX_TITLE);
  GtkEditable *bar_entry = GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar));
  MarkCount count = { 0 };
  int position;

  /* A hit chosen in the results: the timeline marks its query's words. */
  search_for (fixture, "token");
  position = find_result (fixture, codex_uuid, 10);
  g_assert_cmpint (position, >, 0);
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  wait_for_highlight (fixture, 10);
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpstr (loom_timeline_view_get_search (fixture->view), ==, "token");

  count_marks (GTK_WIDGET (highlighted_row (fixture)), "token", &count);
  g_assert_cmpuint (count.n_words, >=, 1);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  count = (MarkCount) { 0 };
  count_marks (view, "token", &count);
  g_test_message ("“token”: said %u times on screen, %u labels marked", count.n_words,
                  count.n_marked);
  g_assert_cmpuint (count.n_marked, >=, 1);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  loom_ui_test_save_screenshots (fixture->app, window, "search-marks");

  /* Typed in the session's bar: the new words, and only those, even in text rendered from
   * Markdown (GTK parses markup into attributes of its own, where marks could stay). */
  gtk_editable_set_text (bar_entry, "importer");
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  loom_ui_test_wait_for_frames (window, 3);
  count = (MarkCount) { 0 };
  count_marks (view, "importer", &count);
  g_assert_cmpuint (count.n_marked, >=, 1);
  g_assert_cmpuint (count.n_wrong, ==, 0);

  /* The first hit of the next words is a folded tool call: it opens to show them. Rows off
   * screen are not marked. */
  gtk_editable_set_text (bar_entry, "exited");
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, "1 of 2");
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 0));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpstr (loom_timeline_view_get_search (fixture->view), ==, "exited");
  count = (MarkCount) { 0 };
  count_marks (GTK_WIDGET (highlighted_row (fixture)), "exited", &count);
  g_assert_cmpuint (count.n_words, >=, 1);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  count = (MarkCount) { 0 };
  count_marks (view, "exited", &count);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  g_assert_cmpuint (count_marked_off_screen (view, "exited"), ==, 0);
  loom_ui_test_save_screenshots (fixture->app, window, "search-marks-tool");

  /* Rows that come into view catch up: no "token" left, "exited" where it is said. */
  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  count = (MarkCount) { 0 };
  count_marks (view, "exited", &count);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  count = (MarkCount) { 0 };
  count_marks (view, "token", &count);
  g_assert_cmpuint (count.n_marked, ==, 0);

  /* Closed: no marks at all. */
  loom_timeline_view_scroll_to_start (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_null (loom_timeline_view_get_search (fixture->view));
  count = (MarkCount) { 0 };
  count_marks (view, "exited", &count);
  g_assert_cmpuint (count.n_marked, ==, 0);
}

/* ——— Results that follow imports ——— */

typedef struct
{
  const char *db_path;
  const char *query;
  guint       n_hits;
} StoreWait;

/* The store holds @n_hits hits of @query, read on a connection of the test's own. */
static gboolean
store_has_hits (gpointer data)
{
  StoreWait *wait = data;
  g_autoptr(LoomStore) store = loom_store_open (wait->db_path, NULL);
  g_autoptr(GListModel) hits = NULL;

  if (store == NULL || !(hits = loom_store_search (store, wait->query, 0, 0, NULL)))
    return FALSE;
  return g_list_model_get_n_items (hits) >= wait->n_hits;
}

typedef struct
{
  LoomSearchResults *results;
  guint              n_refreshes;
} RefreshWait;

static gboolean
refreshed (gpointer data)
{
  RefreshWait *wait = data;

  return loom_search_results_get_n_refreshes (wait->results) > wait->n_refreshes;
}

static void
count_changes_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  guint      *n_changes)
{
  (*n_changes)++;
}

static gboolean
bar_says_two (gpointer data)
{
  return g_strcmp0 (loom_timeline_search_bar_get_status (data), "2 matches") == 0;
}

static gboolean
call_refresh_cb (gpointer user_data)
{
  loom_search_results_refresh (user_data);
  return G_SOURCE_CONTINUE;
}

static GtkAdjustment *
results_vadjustment (Fixture *fixture)
{
  GtkWidget *scrolled = find_any (GTK_WIDGET (fixture->results), GTK_TYPE_SCROLLED_WINDOW);

  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
}

/* The results shown follow what the source watcher imports: an agent that goes on writing adds
 * hits under the search while it is shown, the reader's selection and place stay, and reading
 * the query again changes nothing on screen when nothing changed. Reading it again happens at
 * most about once a second, however often the store changes. */
static void
live_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher *watcher = loom_application_get_source_watcher (fixture->app);
  LoomSearchResultModel *model = loom_search_results_get_model (fixture->results);
  GtkSelectionModel *selection = results_selection (fixture);
  GtkAdjustment *adjustment = results_vadjustment (fixture);
  StoreWait store_wait = { fixture->db_path, "zebrafinch", 1 };
  RefreshWait refresh_wait = { fixture->results, 0 };
  HitsWait hits_wait = { fixture->results, 0 };
  g_autoptr(GString) records = g_string_new (NULL);
  g_autofree char *second = NULL;
  g_autoptr(GObject) selected = NULL;
  guint n_changes = 0, n_refreshes, tick_id;
  gulong handler;
  double value;
  gint64 started;

  /* The first pass imported the session the folder holds. */
  g_assert_true (loom_source_watcher_get_watching (watcher));
  if (!loom_ui_test_wait_until (store_has_hits, &store_wait))
    g_error ("The watched folder's session was not imported");

  /* Reading the query again when nothing changed: nothing moves, nothing is reported. */
  search_for (fixture, "pagingword");
  g_assert_cmpuint (loom_search_result_model_get_n_hits (model), ==, PAGE_SIZE);
  gtk_adjustment_set_value (adjustment, (gtk_adjustment_get_upper (adjustment) -
                                         gtk_adjustment_get_page_size (adjustment)) / 3);
  loom_ui_test_wait_for_frames (window, 3);
  value = gtk_adjustment_get_value (adjustment);
  g_assert_cmpfloat (value, >, 0);
  handler = g_signal_connect (model, "items-changed", G_CALLBACK (count_changes_cb), &n_changes);
  refresh_wait.n_refreshes = loom_search_results_get_n_refreshes (fixture->results);
  loom_search_results_refresh (fixture->results);
  g_assert_true (loom_ui_test_wait_until (refreshed, &refresh_wait));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (n_changes, ==, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, value);
  g_signal_handler_disconnect (model, handler);

  /* A hit chosen (the session's title, which its first prompt gave it), then the agent writes
   * on: its new prompt joins the results, and a new session (title and prompt) a group of its
   * own, with the chosen hit still chosen. */
  search_for (fixture, "zebrafinch");
  g_assert_cmpuint (loom_search_result_model_get_n_hits (model), ==, 2);
  g_assert_true (gtk_selection_model_select_item (selection, 1, TRUE));
  loom_ui_test_wait_for_frames (window, 3);
  selected = g_object_ref (gtk_single_selection_get_selected_item (
    GTK_SINGLE_SELECTION (selection)));
  g_assert_true (LOOM_IS_SEARCH_HIT (selected));

  add_prompt_record (records, LIVE_SESSION_ID, 1, "Still hangs: the zebrafinch cache is stale");
  append_file (fixture->live_file, records);
  g_string_truncate (records, 0);
  second = g_build_filename (fixture->watched, LIVE_SECOND_ID ".jsonl", NULL);
  add_prompt_record (records, LIVE_SECOND_ID, 0, "Port the zebrafinch fix to the CLI");
  append_file (second, records);

  started = g_get_monotonic_time ();
  hits_wait.n_hits = 5;
  if (!loom_ui_test_wait_until (has_hits, &hits_wait))
    g_error ("The results did not follow the import: %u hits",
             loom_search_result_model_get_n_hits (model));
  g_test_message ("New hits shown %" G_GINT64_FORMAT " ms after the files were written",
                  (g_get_monotonic_time () - started) / 1000);
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_search_result_model_get_n_sessions (model), ==, 2);
  g_assert_cmpstr (loom_session_list_get_subtitle (fixture->list), ==,
                   "5 results in 2 sessions");
  g_assert_true (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)) ==
                 (gpointer)selected);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 7);

  /* The session shown counts its new hit too. */
  if (!loom_ui_test_wait_until (bar_says_two, fixture->bar))
    g_error ("The session's search bar did not count the new hit: %s",
             loom_timeline_search_bar_get_status (fixture->bar));
  loom_ui_test_save_screenshots (fixture->app, window, "search-live");

  /* However often the store changes, the query is read again about once a second. */
  n_refreshes = loom_search_results_get_n_refreshes (fixture->results);
  tick_id = g_timeout_add (50, call_refresh_cb, fixture->results);
  loom_ui_test_wait_for_frames (window, 1);
  started = g_get_monotonic_time ();
  while (g_get_monotonic_time () - started < 3 * G_USEC_PER_SEC)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick_id);
  n_refreshes = loom_search_results_get_n_refreshes (fixture->results) - n_refreshes;
  g_test_message ("Asked 60 times in 3 s: read again %u times", n_refreshes);
  g_assert_cmpuint (n_refreshes, >=, 2);
  g_assert_cmpuint (n_refreshes, <=, 4);
}

static void
test_live (Fixture       *fixture,
           gconstpointer  user_data)
{
  fixture_run (fixture, live_body);
}

/* ——— A session with more hits than its bar reads at first ——— */

static void
record_status_cb (LoomTimelineSearchBar *bar,
                  GParamSpec            *pspec,
                  GPtrArray             *statuses)
{
  g_ptr_array_add (statuses, g_strdup (loom_timeline_search_bar_get_status (bar)));
}

static gboolean
bar_counted (gpointer data)
{
  LoomTimelineSearchBar *bar = data;

  return bar_done (bar) && !loom_timeline_search_bar_get_counting (bar);
}

/* "n of m" is exact past the first thousand hits: the bar says "1000+" while it counts the
 * rest, which it does in the background, and the hit chosen in the results (beyond the first
 * thousand) is where the count starts. */
static void
many_hits_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autofree char *uuid = session_uuid_titled (store, MANY_TITLE);
  GListModel *results = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  g_autoptr(GPtrArray) statuses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GObject) item = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *last = NULL;
  gboolean counted_later = FALSE;
  gint64 seq, started;
  int position = -1;
  guint index = 0;

  search_for (fixture, "capword");
  /* The newest hits rank first: one late in the session. */
  for (guint i = 0; i < g_list_model_get_n_items (results) && position < 0; i++)
    {
      item = g_list_model_get_item (results, i);
      if (LOOM_IS_SEARCH_HIT (item) &&
          g_str_equal (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->session_uuid, uuid))
        position = (int)i;
      else
        g_clear_object (&item);
    }
  g_assert_cmpint (position, >, 0);
  seq = loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq;
  g_assert_cmpint (seq, >, FIRST_HITS);

  g_signal_connect (fixture->bar, "notify::status", G_CALLBACK (record_status_cb), statuses);
  started = g_get_monotonic_time ();
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  if (!loom_ui_test_wait_until (bar_counted, fixture->bar))
    g_error ("The session's hits were not counted: %s",
             loom_timeline_search_bar_get_status (fixture->bar));
  g_test_message ("%u hits counted in %" G_GINT64_FORMAT " ms",
                  loom_timeline_search_bar_get_n_hits (fixture->bar),
                  (g_get_monotonic_time () - started) / 1000);
  g_signal_handlers_disconnect_by_func (fixture->bar, record_status_cb, statuses);
  /* Far down a session just opened, and there to stay (GTK 4.8 once lost such a scroll). */
  wait_for_highlight (fixture, seq);
  loom_ui_test_wait_for_frames (window, 5);
  g_assert_cmpint (highlighted_seq (fixture), ==, seq);

  /* Every hit counted, and "1000+" said honestly while they were. */
  g_assert_cmpuint (loom_timeline_search_bar_get_n_hits (fixture->bar), ==, N_MANY_MESSAGES);
  for (guint i = 0; i < statuses->len; i++)
    {
      g_test_message ("Status: %s", (const char *)statuses->pdata[i]);
      if (g_str_has_suffix (statuses->pdata[i], "+ matches"))
        counted_later = TRUE;
    }
  g_assert_true (counted_later);

  /* Counted from the hit chosen. */
  while (index < N_MANY_MESSAGES &&
         loom_timeline_search_bar_get_hit_seq (fixture->bar, index) < seq)
    index++;
  g_assert_cmpint (loom_timeline_search_bar_get_hit_seq (fixture->bar, index), ==, seq);
  expected = g_strdup_printf ("%'u of %'u", index + 1, N_MANY_MESSAGES);
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, expected);
  loom_ui_test_save_screenshots (fixture->app, window, "search-many-hits");

  /* Round the end: the last hit is the session's last, past the first thousand. */
  while (loom_timeline_search_bar_get_position (fixture->bar) != 0)
    g_assert_true (loom_timeline_search_bar_next (fixture->bar));
  g_assert_true (loom_timeline_search_bar_previous (fixture->bar));
  last = g_strdup_printf ("%'u of %'u", N_MANY_MESSAGES, N_MANY_MESSAGES);
  g_assert_cmpstr (loom_timeline_search_bar_get_status (fixture->bar), ==, last);
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar,
                                                                      N_MANY_MESSAGES - 1));
}

static void
test_many_hits (Fixture       *fixture,
                gconstpointer  user_data)
{
  fixture_run (fixture, many_hits_body);
}

static void
test_marks (Fixture       *fixture,
            gconstpointer  user_data)
{
  fixture_run (fixture, marks_body);
}

static void
test_search (Fixture       *fixture,
             gconstpointer  user_data)
{
  fixture_run (fixture, search_body);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  user_data)
{
  fixture_run (fixture, cancel_body);
}

static void
test_pages (Fixture       *fixture,
            gconstpointer  user_data)
{
  fixture_run (fixture, pages_body);
}

static void
test_filters (Fixture       *fixture,
              gconstpointer  user_data)
{
  fixture_run (fixture, filters_body);
}

static void
test_session_search (Fixture       *fixture,
                     gconstpointer  user_data)
{
  fixture_run (fixture, session_search_body);
}

int
main (int   argc,
      char *argv[])
{
  /* The cairo renderer draws the first frame fastest under Xvfb, and gives stable
   * screenshots. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);

  /* Screenshots must not catch a transition half-way. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/app/search/query-text", test_query_text);
  g_test_add_func ("/app/search/snippet-markup", test_snippet_markup);
  g_test_add_func ("/app/search/marker", test_marker);
  g_test_add ("/app/search/results", Fixture, NULL,
              fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/app/search/cancel", Fixture, NULL,
              fixture_set_up, test_cancel, fixture_tear_down);
  g_test_add ("/app/search/pages", Fixture, GINT_TO_POINTER (WITH_PAGED_SESSIONS),
              fixture_set_up, test_pages, fixture_tear_down);
  g_test_add ("/app/search/filters", Fixture, NULL,
              fixture_set_up, test_filters, fixture_tear_down);
  g_test_add ("/app/search/in-session", Fixture, NULL,
              fixture_set_up, test_session_search, fixture_tear_down);
  g_test_add ("/app/search/marks", Fixture, NULL,
              fixture_set_up, test_marks, fixture_tear_down);
  g_test_add ("/app/search/live", Fixture,
              GINT_TO_POINTER (WITH_PAGED_SESSIONS | WITH_WATCHED_FOLDER),
              fixture_set_up, test_live, fixture_tear_down);
  g_test_add ("/app/search/many-hits", Fixture, GINT_TO_POINTER (WITH_MANY_HITS),
              fixture_set_up, test_many_hits, fixture_tear_down);

  return g_test_run ();
}
