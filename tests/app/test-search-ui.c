/* test-search-ui.c — the search of all history: its results, its filters, and results that
 * follow imports.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) against a store
 * prepared by importing the Claude Code and Codex fixtures (loom-search-ui-test.c), types into
 * the search entry as a person does, waits for the worker thread's results, and checks what is
 * on screen: results grouped under their sessions with the matches in bold, the empty state,
 * the message of a malformed query, a hit opening its session scrolled to it (highlighted), the
 * next and the previous hit, the filters written into the query, searches typed over
 * cancelled, results a page at a time, and results that follow what the source watcher imports
 * from a watched folder. The search bar of the open session is test-search-in-session.c's.
 * Screenshots, light and dark, go to tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "loom-application.h"
#include "loom-search-filter-popover.h"
#include "loom-search-format.h"
#include "loom-search-query-text.h"
#include "loom-search-result-row.h"
#include "loom-search-results.h"
#include "loom-session-list.h"
#include "loom-source-watcher.h"
#include "loom-store.h"
#include "loom-timeline-search-bar.h"
#include "loom-window.h"

#include "loom-search-ui-test.h"
#include "loom-ui-test.h"

/* ——— Helpers that need no window ——— */

static void
test_query_text (void)
{
  struct
  {
    const char *text;
    const char *key;
    const char *value;
    const char *expected_value; /* get_filter (text, key) */
    const char *expected_text;  /* set_filter (text, key, value) */
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
    struct
    {
      const char *text;
      const char *words; /* joined by "|", a prefix ending in "*" */
    } word_cases[] = {
      { "flaky store test", "flaky|store|test" },
      { "\"null pointer\" migrat* -leak agent:codex", "null pointer|migrat*" },
      { "deadlock OR panic has:error", "deadlock|panic" },
      { "project:\"my app\" tool:Bash", NULL },
      { "loadConfig src/auth/login.c", "loadConfig|src/auth/login.c" },
      { "\"unclosed phrase", NULL }, /* refused by the parser: no search, no marks */
    };

    for (guint i = 0; i < G_N_ELEMENTS (word_cases); i++)
      {
        g_autoptr (GArray) prefix = NULL;
        g_auto (GStrv) words = loom_search_query_text_get_words (word_cases[i].text, &prefix);
        g_autoptr (GString) joined = g_string_new (NULL);

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
  struct
  {
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
  g_autofree char  *kind = NULL;

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

/* ——— Looking (the common helpers are in loom-ui-test.c and loom-search-ui-test.c) ——— */

/* A key press as @widget's own key controllers see it (the entry's Down, say). */
static gboolean
send_key (GtkWidget *widget,
          guint      keyval)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint    n_controllers = g_list_model_get_n_items (controllers);
  gboolean handled = FALSE;

  for (guint c = 0; c < n_controllers && !handled; c++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, c);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, (GdkModifierType)0, &handled);
    }
  return handled;
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

/* ——— Tests ——— */

static void
search_body (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  LoomStore *store = loom_window_get_store (fixture->window);
  g_autoptr (GListModel) expected = NULL;
  g_autoptr (GHashTable) expected_sessions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (GError) error = NULL;
  GListModel      *model;
  const char      *current_uuid = NULL;
  gint64           last_seq = -1;
  guint            n_items, n_headers = 0, n_bold = 0;
  int              position, n_hits;
  g_autofree char *summary = NULL;
  GtkWidget       *focus;
  GtkWidget       *back;
  GtkWidget       *empty_page;
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
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (expected, i);

      g_hash_table_add (expected_sessions, (gpointer)loom_search_hit_get_data (hit)->session_uuid);
    }
  g_assert_cmpuint (g_hash_table_size (expected_sessions), >=, 3);

  model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  n_items = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_items, ==,
                    g_list_model_get_n_items (expected) + g_hash_table_size (expected_sessions));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

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
  summary = g_strdup_printf ("%u results in %u sessions", g_list_model_get_n_items (expected),
                             n_headers);
  g_assert_cmpstr (loom_session_list_get_title (fixture->list), ==, "Search");
  g_assert_cmpstr (loom_session_list_get_subtitle (fixture->list), ==, summary);

  /* On screen: the sessions' titles, and snippets with the matches in bold, told apart by
   * kind for a screen reader too. */
  rows = visible_result_rows (fixture);
  g_assert_cmpuint (rows->len, >=, 8);
  for (guint i = 0; i < rows->len; i++)
    {
      GObject    *item = loom_search_result_row_get_item (rows->pdata[i]);
      GtkLabel   *snippet = loom_search_result_row_get_snippet_label (rows->pdata[i]);
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
    g_autoptr (GObject) first = g_list_model_get_item (model, 1);

    g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                     loom_search_hit_get_data (LOOM_SEARCH_HIT (first))->session_uuid);
  }

  /* A narrow window shows one pane: the timeline of the hit, with a way back to the results,
   * and from the results, a hit chosen goes to the timeline again. */
  loom_ui_test_set_window_size (window, 400, 700);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (fixture->results)));
  loom_ui_test_save_screenshot (window, "search-narrow-hit");
  back = loom_ui_test_find_visible_button (window, "go-previous-symbolic");
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
  g_assert_nonnull (
    strstr (adw_status_page_get_description (ADW_STATUS_PAGE (empty_page)), "zzyzzyva"));
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
  guint       n_items;

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
      g_autoptr (GObject) item = g_list_model_get_item (model, i);
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
           wait->n_hits &&
         !loom_search_results_get_searching (wait->results);
}

/* Scrolls the results to their end, as a reader going down does. */
static void
scroll_results_to_end (Fixture *fixture)
{
  GtkWidget     *scrolled = loom_ui_test_find_any (GTK_WIDGET (fixture->results),
                                                   GTK_TYPE_SCROLLED_WINDOW);
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
  g_autoptr (GHashTable) headers = g_hash_table_new (g_str_hash, g_str_equal);
  const char      *current_uuid = NULL;
  gint64           last_seq = -1;
  HitsWait         wait = { fixture->results, 0 };
  g_autofree char *summary = NULL;
  guint            n_items;

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
      g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (model), i);

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
  GtkWidget               *window = GTK_WIDGET (fixture->window);
  GtkWidget               *button = NULL;
  LoomSearchFilterPopover *popover;
  GListModel              *model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  g_autoptr (GPtrArray) buttons = NULL;
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
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

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
    g_autoptr (GDateTime) now = g_date_time_new_now_local ();
    g_autoptr (GDateTime) week = g_date_time_add_days (now, -6);
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
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (fixture->entry)), ==, "token agent:claude");
  wait_for_results (fixture, "token agent:claude");
  g_assert_true (gtk_widget_has_css_class (button, "filter-active"));
  gtk_popover_popdown (GTK_POPOVER (popover));
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
  g_autoptr (LoomStore) store = loom_store_open (wait->db_path, NULL);
  g_autoptr (GListModel) hits = NULL;

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

static gboolean
is_not_importing (gpointer data)
{
  return !loom_source_watcher_get_importing (data);
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

static GtkAdjustment *
results_vadjustment (Fixture *fixture)
{
  GtkWidget *scrolled = loom_ui_test_find_any (GTK_WIDGET (fixture->results),
                                               GTK_TYPE_SCROLLED_WINDOW);

  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
}

/* The results shown follow what the source watcher imports: an agent that goes on writing adds
 * hits under the search while it is shown, the reader's selection and place stay, and reading
 * the query again changes nothing on screen when nothing changed. However often the store
 * changes meanwhile, the query is read again once; how often at most (about once a second) is
 * a matter of time, not checked here. */
static void
live_body (Fixture *fixture)
{
  GtkWidget             *window = GTK_WIDGET (fixture->window);
  LoomSourceWatcher     *watcher = loom_application_get_source_watcher (fixture->app);
  LoomSearchResultModel *model = loom_search_results_get_model (fixture->results);
  GtkSelectionModel     *selection = results_selection (fixture);
  GtkAdjustment         *adjustment = results_vadjustment (fixture);
  StoreWait              store_wait = { fixture->db_path, "zebrafinch", 1 };
  RefreshWait            refresh_wait = { fixture->results, 0 };
  HitsWait               hits_wait = { fixture->results, 0 };
  g_autoptr (GString) records = g_string_new (NULL);
  g_autofree char *second = NULL;
  g_autoptr (GObject) selected = NULL;
  guint  n_changes = 0;
  gulong handler;
  double value;

  /* The first pass imported the session the folder holds. */
  g_assert_true (loom_source_watcher_get_watching (watcher));
  if (!loom_ui_test_wait_until (store_has_hits, &store_wait))
    g_error ("The watched folder's session was not imported");

  /* Reading the query again when nothing changed: nothing moves, nothing is reported. */
  search_for (fixture, "pagingword");
  g_assert_cmpuint (loom_search_result_model_get_n_hits (model), ==, PAGE_SIZE);
  gtk_adjustment_set_value (
    adjustment,
    (gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment)) / 3);
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
  selected = g_object_ref (
    gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)));
  g_assert_true (LOOM_IS_SEARCH_HIT (selected));

  add_prompt_record (records, LIVE_SESSION_ID, 1, "Still hangs: the zebrafinch cache is stale");
  append_file (fixture->live_file, records);
  g_string_truncate (records, 0);
  second = g_build_filename (fixture->watched, LIVE_SECOND_ID ".jsonl", NULL);
  add_prompt_record (records, LIVE_SECOND_ID, 0, "Port the zebrafinch fix to the CLI");
  append_file (second, records);

  hits_wait.n_hits = 5;
  if (!loom_ui_test_wait_until (has_hits, &hits_wait))
    g_error ("The results did not follow the import: %u hits",
             loom_search_result_model_get_n_hits (model));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_search_result_model_get_n_sessions (model), ==, 2);
  g_assert_cmpstr (loom_session_list_get_subtitle (fixture->list), ==, "5 results in 2 sessions");
  g_assert_true (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection)) ==
                 (gpointer)selected);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 7);

  /* The session shown counts its new hit too. */
  if (!loom_ui_test_wait_until (bar_says_two, fixture->bar))
    g_error ("The session's search bar did not count the new hit: %s",
             loom_timeline_search_bar_get_status (fixture->bar));
  loom_ui_test_save_screenshots (fixture->app, window, "search-live");

  /* However often the store changes before the query is read again, it is read again once;
   * and so again for the next changes. */
  g_assert_true (loom_ui_test_wait_until (is_not_importing, watcher));
  loom_ui_test_wait_for_frames (window, 3);
  for (guint burst = 0; burst < 2; burst++)
    {
      refresh_wait.n_refreshes = loom_search_results_get_n_refreshes (fixture->results);
      for (guint i = 0; i < 60; i++)
        loom_search_results_refresh (fixture->results);
      g_assert_true (loom_ui_test_wait_until (refreshed, &refresh_wait));
      loom_ui_test_wait_for_frames (window, 3);
      g_assert_cmpuint (loom_search_results_get_n_refreshes (fixture->results), ==,
                        refresh_wait.n_refreshes + 1);
    }
}

static void
test_live (Fixture      *fixture,
           gconstpointer user_data)
{
  fixture_run (fixture, live_body);
}

static void
test_search (Fixture      *fixture,
             gconstpointer user_data)
{
  fixture_run (fixture, search_body);
}

static void
test_cancel (Fixture      *fixture,
             gconstpointer user_data)
{
  fixture_run (fixture, cancel_body);
}

static void
test_pages (Fixture      *fixture,
            gconstpointer user_data)
{
  fixture_run (fixture, pages_body);
}

static void
test_filters (Fixture      *fixture,
              gconstpointer user_data)
{
  fixture_run (fixture, filters_body);
}

int
main (int   argc,
      char *argv[])
{
  search_ui_test_init (&argc, &argv);

  g_test_add_func ("/app/search/query-text", test_query_text);
  g_test_add_func ("/app/search/snippet-markup", test_snippet_markup);
  g_test_add ("/app/search/results", Fixture, NULL, fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/app/search/cancel", Fixture, NULL, fixture_set_up, test_cancel, fixture_tear_down);
  g_test_add ("/app/search/pages", Fixture, GINT_TO_POINTER (WITH_PAGED_SESSIONS), fixture_set_up,
              test_pages, fixture_tear_down);
  g_test_add ("/app/search/filters", Fixture, NULL, fixture_set_up, test_filters,
              fixture_tear_down);
  g_test_add ("/app/search/live", Fixture,
              GINT_TO_POINTER (WITH_PAGED_SESSIONS | WITH_WATCHED_FOLDER), fixture_set_up,
              test_live, fixture_tear_down);

  return g_test_run ();
}
