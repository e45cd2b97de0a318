/* test-search-in-session.c — the search bar of the open session: Ctrl+F over the timeline, the
 * session's hits counted and gone through, the searched words marked in the rows on screen (and
 * only there), and an exact count for a session with more hits than the bar reads at first.
 *
 * Runs the real application on a real X server (Xvfb, from the test harness) against a store
 * prepared by importing the Claude Code and Codex fixtures (loom-search-ui-test.c), opens a
 * session from the search of all history as a person does, types into the session's search
 * bar, and checks what is on screen: the bar's count and status, the hit highlighted, the
 * marks drawn in the rows' labels, the focus going back. The search of all history is
 * test-search-ui.c's. Screenshots, light and dark, go to tests/app/screenshots/ in the build
 * folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "loom-application.h"
#include "loom-search-marker.h"
#include "loom-search-results.h"
#include "loom-sidebar.h"
#include "loom-store.h"
#include "loom-timeline-row.h"
#include "loom-timeline-search-bar.h"
#include "loom-timeline-view.h"
#include "loom-window.h"

#include "loom-search-ui-test.h"
#include "loom-ui-test.h"

/* ——— Helpers that need no window ——— */

/* The marker finds what the index's tokenizer matches: folded accents, prefixes, the parts of
 * identifiers, characters of text without spaces; never an excluded word or a filter. */
static void
test_marker (void)
{
  struct
  {
    const char *query;
    const char *text;
    const char *marked; /* the marked stretches, joined by "|" */
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
      g_autoptr (LoomSearchMarker) marker = loom_search_marker_new (cases[i].query);
      g_autoptr (GArray) found = NULL;
      g_autoptr (GString) marked = g_string_new (NULL);

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
  GSList  *list = attributes != NULL ? pango_attr_list_get_attributes (attributes) : NULL;
  gboolean found = FALSE;

  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attribute = l->data;

      if (is_mark (attribute) && (start < 0 || (attribute->start_index <= (guint)start &&
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
  PangoAttrList   *attributes = drawn_attributes (label);
  gsize            length = strlen (needle);
  guint            n = 0;

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
  guint n_words;  /* times the word is said in the labels looked at */
  guint n_marked; /* labels with marks */
  guint n_wrong;  /* labels marked where the word is not, or the word unmarked */
} MarkCount;

/* Looks at every label under @root: each says @word marked or not at all. */
static void
count_marks (GtkWidget  *root,
             const char *word,
             MarkCount  *count)
{
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    {
      gboolean all_marked;
      guint    n = count_word (labels->pdata[i], word, &all_marked);
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
  guint    n = 0;

  if (GTK_IS_LABEL (widget))
    return is_marked (GTK_LABEL (widget)) &&
           count_word (GTK_LABEL (widget), word, &all_marked) > 0 && all_marked;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
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

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_marked_off_screen (child, word);
  return n;
}

/* ——— Tests ——— */

/* Ctrl+F in the timeline searches the open session; elsewhere, all history. */
static void
session_search_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *codex_uuid = session_uuid_titled (store, CODEX_TITLE);
  GtkWidget       *timeline_list;
  GtkWidget       *sidebar;
  GtkWidget       *focus;
  int              position;

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
  timeline_list = loom_ui_test_find_any (GTK_WIDGET (fixture->view), GTK_TYPE_LIST_VIEW);
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
  g_assert_nonnull (strstr (loom_timeline_search_bar_get_status (fixture->bar), "Unknown role"));
  loom_ui_test_save_screenshots (fixture->app, window, "search-in-session-error");

  /* Escape closes it, and the focus goes back to the timeline. */
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  g_assert_false (loom_timeline_search_bar_get_open (fixture->bar));
  loom_ui_test_wait_for_frames (window, 3);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->view)));

  /* Ctrl+F again: the bar opens on the last words, selected, to be typed over; and again, with
   * the focus in the bar. */
  for (guint i = 0; i < 2; i++)
    {
      int start = -1, end = -1;

      g_assert_true (loom_ui_test_press_key (window, GDK_KEY_f, GDK_CONTROL_MASK));
      g_assert_true (loom_timeline_search_bar_get_open (fixture->bar));
      g_assert_true (gtk_editable_get_selection_bounds (
        GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar)), &start, &end));
      g_assert_cmpint (start, ==, 0);
      g_assert_cmpint (end, ==, strlen ("role:nobody"));
      if (i == 0)
        gtk_editable_select_region (
          GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar)), 2, 2);
    }
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  loom_ui_test_wait_for_frames (window, 3);

  /* Ctrl+F anywhere else: the search of all history. */
  sidebar = loom_ui_test_find_any (window, LOOM_TYPE_SIDEBAR);
  g_assert_true (gtk_widget_child_focus (sidebar, GTK_DIR_TAB_FORWARD));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, sidebar));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_f, GDK_CONTROL_MASK));
  g_assert_false (loom_timeline_search_bar_get_open (fixture->bar));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && (focus == GTK_WIDGET (fixture->entry) ||
                                   gtk_widget_is_ancestor (focus, GTK_WIDGET (fixture->entry))));
}

/* The words searched for are marked in the rows on screen, and only there: opening a hit from
 * the results marks its query, the session's own search bar marks what it searches for (and
 * opens the folded tool call whose output says it), and closing the bar takes the marks away. */
static void
marks_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  GtkWidget       *view = GTK_WIDGET (fixture->view);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *codex_uuid = session_uuid_titled (store, CODEX_TITLE);
  GtkEditable     *bar_entry = GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar));
  MarkCount        count = { 0 };
  int              position;

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
  count = (MarkCount){ 0 };
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
  count = (MarkCount){ 0 };
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
  count = (MarkCount){ 0 };
  count_marks (GTK_WIDGET (highlighted_row (fixture)), "exited", &count);
  g_assert_cmpuint (count.n_words, >=, 1);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  count = (MarkCount){ 0 };
  count_marks (view, "exited", &count);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  g_assert_cmpuint (count_marked_off_screen (view, "exited"), ==, 0);
  loom_ui_test_save_screenshots (fixture->app, window, "search-marks-tool");

  /* Rows that come into view catch up: no "token" left, "exited" where it is said. */
  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  count = (MarkCount){ 0 };
  count_marks (view, "exited", &count);
  g_assert_cmpuint (count.n_wrong, ==, 0);
  count = (MarkCount){ 0 };
  count_marks (view, "token", &count);
  g_assert_cmpuint (count.n_marked, ==, 0);

  /* Closed: no marks at all. */
  loom_timeline_view_scroll_to_start (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_null (loom_timeline_view_get_search (fixture->view));
  count = (MarkCount){ 0 };
  count_marks (view, "exited", &count);
  g_assert_cmpuint (count.n_marked, ==, 0);
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
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *uuid = session_uuid_titled (store, MANY_TITLE);
  GListModel      *results = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  g_autoptr (GPtrArray) statuses = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GObject) item = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *last = NULL;
  gboolean         counted_later = FALSE;
  gint64           seq;
  int              position = -1;
  guint            index = 0;

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
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  if (!loom_ui_test_wait_until (bar_counted, fixture->bar))
    g_error ("The session's hits were not counted: %s",
             loom_timeline_search_bar_get_status (fixture->bar));
  g_test_message ("%u hits counted", loom_timeline_search_bar_get_n_hits (fixture->bar));
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
  wait_for_highlight (fixture,
                      loom_timeline_search_bar_get_hit_seq (fixture->bar, N_MANY_MESSAGES - 1));
}

static void
test_many_hits (Fixture      *fixture,
                gconstpointer user_data)
{
  fixture_run (fixture, many_hits_body);
}

static void
test_marks (Fixture      *fixture,
            gconstpointer user_data)
{
  fixture_run (fixture, marks_body);
}

static void
test_session_search (Fixture      *fixture,
                     gconstpointer user_data)
{
  fixture_run (fixture, session_search_body);
}

int
main (int   argc,
      char *argv[])
{
  search_ui_test_init (&argc, &argv);

  g_test_add_func ("/app/search/marker", test_marker);
  g_test_add ("/app/search/in-session", Fixture, NULL, fixture_set_up, test_session_search,
              fixture_tear_down);
  g_test_add ("/app/search/marks", Fixture, NULL, fixture_set_up, test_marks, fixture_tear_down);
  g_test_add ("/app/search/many-hits", Fixture, GINT_TO_POINTER (WITH_MANY_HITS), fixture_set_up,
              test_many_hits, fixture_tear_down);

  return g_test_run ();
}
