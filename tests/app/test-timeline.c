/* test-timeline.c — reading a session: the timeline and the details pane, as a person sees them.
 *
 * Imports hand-written Claude Code fixtures with the real importer, shows LoomTimelineView and
 * LoomSessionDetails in a window on a real X server (Xvfb, from the test harness), and checks
 * what is on screen: messages, a failed tool call opened to its input and output, folded
 * reasoning, a coloured diff, sub-agent links, the details' values, and that an agent's text
 * never turns into markup. A synthetic 20,000-item session measures the time to the first
 * frame. Screenshots go to tests/app/screenshots/ in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>

#include "loom-core.h"
#include "loom-import.h"
#include "loom-markdown.h"
#include "loom-session-details.h"
#include "loom-store.h"
#include "loom-test-timeline.h"
#include "loom-timeline-message-row.h"
#include "loom-timeline-model.h"
#include "loom-timeline-notice-row.h"
#include "loom-timeline-row.h"
#include "loom-timeline-tool-row.h"
#include "loom-timeline-view.h"

#include "loom-ui-test.h"

#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

#define STREAMED_ID "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47"
#define PROGRESS_ID "4b8d2e6f-1a3c-4f57-8e9b-2c6d0a4f8e31"
#define PLAN_ID     "5a1e9c3b-7d2f-4b86-8e40-1c9f6a3d5b72"

/* ——— Waiting, finding, screenshots (the common helpers are in loom-ui-test.c) ——— */

/* The visible label under @root whose text contains @text. */
static GtkLabel *
find_label (GtkWidget  *root,
            const char *text)
{
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    {
      if (strstr (gtk_label_get_text (labels->pdata[i]), text) != NULL)
        return labels->pdata[i];
    }
  return NULL;
}

static void
set_dark (GtkWidget *window,
          gboolean   dark)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
  loom_ui_test_wait_for_frames (window, 3);
}

/* ——— Fixture: a store with the Claude Code fixtures, and a window ——— */

typedef struct
{
  char               *dir;
  LoomStore          *store;
  GtkWidget          *window;
  LoomTimelineView   *view;
  LoomSessionDetails *details;
} Fixture;

static void
import_claude_fixtures (LoomStore *store)
{
  g_autofree char *path = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "import", "fixtures",
                                            "claude", NULL);
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;
  const char       *paths[] = { path, NULL };
  LoomImportOptions options = { "claude-code", paths };

  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->files_failed, ==, 0);
}

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autofree char *db_path = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *box;

  fixture->dir = g_dir_make_tmp ("loom-test-timeline-XXXXXX", &error);
  g_assert_no_error (error);
  db_path = g_build_filename (fixture->dir, "history.db", NULL);
  fixture->store = loom_store_open (db_path, &error);
  g_assert_no_error (error);
  import_claude_fixtures (fixture->store);

  fixture->window = g_object_ref_sink (adw_window_new ());
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1180, 820);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  fixture->view = LOOM_TIMELINE_VIEW (loom_timeline_view_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (fixture->view), TRUE);
  fixture->details = LOOM_SESSION_DETAILS (loom_session_details_new ());
  gtk_widget_set_size_request (GTK_WIDGET (fixture->details), 380, -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (fixture->view));
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (fixture->details));
  adw_window_set_content (ADW_WINDOW (fixture->window), box);
  gtk_window_present (GTK_WINDOW (fixture->window));
  set_dark (fixture->window, FALSE);
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

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_assert_finalize_object (g_steal_pointer (&fixture->window));
  g_assert_finalize_object (g_steal_pointer (&fixture->store));
  remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
}

static LoomSession *
get_session (Fixture    *fixture,
             const char *id)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session = loom_store_get_session (fixture->store, id, &error);

  g_assert_no_error (error);
  return session;
}

static void
show_session (Fixture    *fixture,
              const char *id)
{
  g_autoptr (LoomSession) session = get_session (fixture, id);

  loom_timeline_view_set_session (fixture->view, fixture->store, session);
  loom_session_details_set_session (fixture->details, fixture->store, session);
  loom_ui_test_wait_for_frames (fixture->window, 3);
}

/* The rows on screen, in order, and the one showing an item that matches. */
static GPtrArray *
visible_rows (Fixture *fixture)
{
  return loom_ui_test_find_visible (GTK_WIDGET (fixture->view), LOOM_TYPE_TIMELINE_ROW);
}

typedef gboolean (*ItemMatch) (const LoomTimelineData *d,
                               gconstpointer           data);

static LoomTimelineRow *
find_row (Fixture      *fixture,
          ItemMatch     match,
          gconstpointer data)
{
  g_autoptr (GPtrArray) rows = visible_rows (fixture);

  for (guint i = 0; i < rows->len; i++)
    {
      LoomTimelineItem *item = loom_timeline_row_get_item (rows->pdata[i]);

      if (item != NULL && match (loom_timeline_item_get_data (item), data))
        return rows->pdata[i];
    }
  return NULL;
}

static gboolean
match_kind (const LoomTimelineData *d,
            gconstpointer           kind)
{
  return !d->is_message && g_strcmp0 (d->kind, kind) == 0;
}

static gboolean
match_tool (const LoomTimelineData *d,
            gconstpointer           tool)
{
  return !d->is_message && g_strcmp0 (d->kind, "tool_call") == 0 &&
         g_strcmp0 (d->tool_name, tool) == 0;
}

static gboolean
match_message_text (const LoomTimelineData *d,
                    gconstpointer           text)
{
  return d->is_message && d->text != NULL && strstr (d->text, text) != NULL;
}

static gboolean
is_expanded (gpointer data)
{
  return loom_timeline_tool_row_get_expanded (data);
}

static guint
count_rows (Fixture *fixture)
{
  g_autoptr (GPtrArray) rows = visible_rows (fixture);

  return rows->len;
}

/* ——— Markdown, without a window ——— */

static void
test_markdown_markup (void)
{
  static const char hostile[] =
    "<b>not bold</b> & <span foreground=\"red\">not red</span> &amp; &#60;i&#62; \x01";
  g_autofree char *markup = loom_markdown_to_markup (hostile);
  g_autofree char *links = NULL;
  g_autofree char *rich = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  PangoAttrList   *attributes = NULL;

  /* What Pango makes of the markup is the literal text. */
  g_assert_true (pango_parse_markup (markup, -1, 0, &attributes, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "<b>not bold</b> & <span foreground=\"red\">not red</span>"));
  g_assert_nonnull (strstr (text, "& <i>"));
  pango_attr_list_unref (attributes);

  links = loom_markdown_to_markup ("[safe](https://example.org/?a=1&b=\"2\") "
                                   "[unsafe](javascript:alert(1)) [file](file:///etc/passwd)");
  g_assert_nonnull (strstr (links, "<a href=\"https://example.org/?a=1&amp;b=&quot;2&quot;\">"));
  g_assert_null (strstr (links, "javascript"));
  g_assert_null (strstr (links, "file:"));
  /* Links are GtkLabel's markup, not Pango's: the label must take it, and show the words. */
  {
    g_autoptr (GtkWidget) label = g_object_ref_sink (gtk_label_new (NULL));

    gtk_label_set_markup (GTK_LABEL (label), links);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "safe unsafe file");
  }

  rich = loom_markdown_to_markup ("# Title\n\nSome *emphasis*, **strong**, `a < b && c`.\n\n"
                                  "- one\n- two\n  1. nested\n\n> quoted\n\n"
                                  "| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                                  "```c\nif (a < b && c) {}\n```\n");
  g_assert_true (pango_parse_markup (rich, -1, 0, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (rich, "<i>emphasis</i>"));
  g_assert_nonnull (strstr (rich, "<b>strong</b>"));
  g_assert_nonnull (strstr (rich, "a &lt; b &amp;&amp; c"));
  g_assert_nonnull (strstr (rich, "• one"));
  g_assert_nonnull (strstr (rich, "1. nested"));
  g_assert_nonnull (strstr (rich, "<tt>if (a &lt; b &amp;&amp; c) {}</tt>"));

  g_assert_true (loom_markdown_is_safe_link ("HTTPS://example.org"));
  g_assert_true (loom_markdown_is_safe_link ("mailto:ada@example.org"));
  g_assert_false (loom_markdown_is_safe_link ("javascript:alert(1)"));
  g_assert_false (loom_markdown_is_safe_link ("relative/path"));
}

static void
collect_labels (GtkWidget *root,
                GPtrArray *found)
{
  if (GTK_IS_LABEL (root))
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, found);
}

static gboolean
has_label (GtkWidget  *root,
           const char *text,
           const char *css_class)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();

  collect_labels (root, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      if (g_str_equal (gtk_label_get_text (labels->pdata[i]), text) &&
          (css_class == NULL || gtk_widget_has_css_class (labels->pdata[i], css_class)))
        return TRUE;
    }
  return FALSE;
}

static void
test_markdown_widgets (void)
{
  g_autoptr (GtkWidget) widget = NULL;

  widget = g_object_ref_sink (
    loom_markdown_render ("## Plan\n\nRun `make <all> && test`. <b>Not bold</b>.\n\n"
                          "1. first\n2. second\n\n"
                          "```sh\necho \"<tag>\" && exit 1\n```\n\n> a quote\n\n"
                          "| Tool | Calls |\n|---|---|\n| Bash | 3 |\n"));

  /* The shown text is the agent's, character for character. */
  g_assert_true (has_label (widget, "Plan", "title-3"));
  g_assert_true (has_label (widget, "Run make <all> && test. <b>Not bold</b>.", NULL));
  g_assert_true (has_label (widget, "echo \"<tag>\" && exit 1", "monospace"));
  g_assert_true (has_label (widget, "first", NULL));
  g_assert_true (has_label (widget, "2.", "md-bullet"));
  g_assert_true (has_label (widget, "a quote", NULL));
  g_assert_true (has_label (widget, "Bash", NULL));
  g_assert_true (has_label (widget, "Calls", NULL));
  g_assert_true (has_label (widget, "sh", "caption"));
}

/* ——— The timeline and the details on screen ——— */

static void
test_session (Fixture      *fixture,
              gconstpointer user_data)
{
  g_autoptr (GPtrArray) rows = NULL;
  LoomTimelineRow *row;
  GtkWidget       *content;
  GtkLabel        *label;
  g_autoptr (GPtrArray) buttons = NULL;

  show_session (fixture, STREAMED_ID);

  /* The person's prompt comes first, headed "You"; the agent's reply under its name. */
  rows = visible_rows (fixture);
  g_assert_cmpuint (rows->len, >=, 6);
  content = loom_timeline_row_get_content (rows->pdata[0]);
  g_assert_true (LOOM_IS_TIMELINE_MESSAGE_ROW (content));
  g_assert_nonnull (find_label (content, "You"));
  g_assert_nonnull (find_label (content, "Run the test suite and fix what fails"));
  content = loom_timeline_row_get_content (rows->pdata[1]);
  g_assert_nonnull (find_label (content, "Claude Code"));
  g_assert_nonnull (find_label (content, "claude-opus-4-6"));
  g_assert_nonnull (find_label (content, "Running the suite."));

  /* A copy button per message copies its text. */
  buttons = loom_ui_test_find_visible (loom_timeline_row_get_content (rows->pdata[0]),
                                       GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_button_get_icon_name (buttons->pdata[i]), "edit-copy-symbolic") == 0)
        gtk_widget_activate (buttons->pdata[i]);
    }

  /* Reasoning is folded to a dim line with its first words. */
  row = find_row (fixture, match_kind, "reasoning");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  label = find_label (content, "The suite runs with meson test");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "preview"));
  g_assert_nonnull (find_label (content, "Thinking"));

  /* The failed Bash call: marked, folded, and opened it shows its input and output. */
  row = find_row (fixture, match_tool, "Bash");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_assert_true (LOOM_IS_TIMELINE_TOOL_ROW (content));
  g_assert_false (loom_timeline_tool_row_get_expanded (LOOM_TIMELINE_TOOL_ROW (content)));
  g_assert_nonnull (find_label (content, "meson test -C build"));
  g_assert_null (find_label (content, "--print-errorlogs"));
  {
    g_autoptr (GPtrArray) images = loom_ui_test_find_visible (content, GTK_TYPE_IMAGE);
    gboolean error_icon = FALSE;

    for (guint i = 0; i < images->len; i++)
      error_icon |= g_strcmp0 (gtk_image_get_icon_name (images->pdata[i]),
                               "dialog-error-symbolic") == 0;
    g_assert_true (error_icon);
  }
  g_assert_cmpstr (loom_timeline_row_get_accessible_label (row), ==,
                   "Tool call Bash: meson test -C build \\ …, failed");
  g_assert_cmpstr (loom_timeline_row_get_accessible_label (rows->pdata[0]), ==,
                   "You said: Run the test suite and fix what fails");

  /* A click on the header, as a person opens it. */
  {
    g_autoptr (GPtrArray) header_buttons = loom_ui_test_find_visible (content, GTK_TYPE_BUTTON);

    /* Activating a button presses it for a moment before it reports the click. */
    gtk_widget_activate (header_buttons->pdata[0]);
  }
  g_assert_true (loom_ui_test_wait_until (is_expanded, content));
  loom_ui_test_wait_for_frames (fixture->window, 4);
  g_assert_nonnull (find_label (content, "Input"));
  g_assert_nonnull (find_label (content, "meson test -C build \\\n  --print-errorlogs"));
  g_assert_nonnull (find_label (content, "Error"));
  label = find_label (content, "expected 3 tool calls, got 2");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "output"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "failed"));

  /* The same session again (the window reloads after an import): still opened. */
  show_session (fixture, STREAMED_ID);
  row = find_row (fixture, match_tool, "Bash");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_assert_true (loom_timeline_tool_row_get_expanded (LOOM_TIMELINE_TOOL_ROW (content)));
  g_assert_nonnull (find_label (content, "expected 3 tool calls, got 2"));

  loom_ui_test_save_screenshot (fixture->window, "timeline-tool-light");
  set_dark (fixture->window, TRUE);
  loom_ui_test_save_screenshot (fixture->window, "timeline-tool-dark");
  loom_ui_test_save_screenshot (GTK_WIDGET (fixture->details), "details-dark");
  set_dark (fixture->window, FALSE);
  loom_ui_test_save_screenshot (GTK_WIDGET (fixture->details), "details-light");
  {
    g_autoptr (GPtrArray) scrolled = loom_ui_test_find_visible (GTK_WIDGET (fixture->details),
                                                                GTK_TYPE_SCROLLED_WINDOW);
    GtkAdjustment *adjustment;

    g_assert_cmpuint (scrolled->len, ==, 1);
    adjustment = gtk_scrolled_window_get_vadjustment (scrolled->pdata[0]);
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
    loom_ui_test_save_screenshot (GTK_WIDGET (fixture->details), "details-light-end");
    gtk_adjustment_set_value (adjustment, 0);
  }

  /* A narrow window: the timeline alone, as the folded window shows it. */
  gtk_widget_set_visible (GTK_WIDGET (fixture->details), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 420, 760);
  loom_ui_test_wait_for_frames (fixture->window, 4);
  loom_ui_test_save_screenshot (fixture->window, "timeline-narrow-light");
  gtk_widget_set_visible (GTK_WIDGET (fixture->details), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1180, 820);
  loom_ui_test_wait_for_frames (fixture->window, 4);

  /* The injected notice after the rejected call is kept, dim and folded, and says what it is. */
  row = find_row (fixture, match_message_text, "[Request interrupted");
  if (row == NULL)
    {
      loom_timeline_view_scroll_to_end (fixture->view);
      loom_ui_test_wait_for_frames (fixture->window, 6);
      row = find_row (fixture, match_message_text, "[Request interrupted");
    }
  g_assert_nonnull (row);
  g_assert_nonnull (find_label (loom_timeline_row_get_content (row), "Injected context"));

  /* The details: every field the session has, as the store has it. */
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Title"), ==,
                   "Run the test suite and fix what fails - 2026-03-05");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Agent"), ==, "Claude Code");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Model"), ==,
                   "claude-opus-4-6");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Agent mode"), ==, "default");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Working folder"), ==,
                   "/home/ada/src/loom");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Branch"), ==, "main");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Session type"), ==,
                   "Main session");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Tool calls"), ==,
                   "4 (2 failed)");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Messages"), ==,
                   "7 (2 from you, 5 from the agent)");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Last opened"), ==, "Never");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Pinned"), ==, "No");
  g_assert_nonnull (
    strstr (loom_session_details_get_value (fixture->details, "Tokens"), "298 out"));
  /* Claude Code does not tell its reasoning apart: nothing is said of it. */
  g_assert_null (strstr (loom_session_details_get_value (fixture->details, "Tokens"), "reasoning"));
  g_assert_nonnull (strstr (loom_session_details_get_value (fixture->details, "Source file"),
                            STREAMED_ID ".jsonl"));
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "ID"), ==,
                   loom_session_get_uuid (loom_session_details_get_session (fixture->details)));
  g_assert_null (loom_session_details_get_value (fixture->details, "Parent session"));
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->details), "Bash"));
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->details), "3 calls"));

  /* An agent that reports it (Codex, Gemini): the part of the output spent reasoning. */
  {
    g_autofree char *path = g_build_filename (fixture->dir, "history.db", NULL);
    sqlite3         *db = NULL;

    g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db,
                                   "UPDATE sessions SET tokens_reasoning = 120"
                                   " WHERE source_session_id = '" STREAMED_ID "'",
                                   NULL, NULL, NULL),
                     ==, SQLITE_OK);
    sqlite3_close (db);
    show_session (fixture, STREAMED_ID);
    g_assert_nonnull (strstr (loom_session_details_get_value (fixture->details, "Tokens"),
                              "298 out (120 reasoning)"));
  }

  /* The copy button of the id puts it on the clipboard. */
  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (fixture->details), "details.copy", "i", 1));

  loom_timeline_view_set_session (fixture->view, NULL, NULL);
  loom_session_details_set_session (fixture->details, NULL, NULL);
  loom_ui_test_wait_for_frames (fixture->window, 2);
  g_assert_cmpuint (count_rows (fixture), ==, 0);
}

/* Two sessions' file changes: an Edit with old and new text, a Write of a new file. */
static void
test_file_change (Fixture      *fixture,
                  gconstpointer user_data)
{
  LoomTimelineRow *row;
  GtkWidget       *content;
  g_autoptr (GPtrArray) labels = NULL;
  gboolean added = FALSE, context = FALSE;

  show_session (fixture, PLAN_ID);

  row = find_row (fixture, match_kind, "file_change");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_assert_true (LOOM_IS_TIMELINE_TOOL_ROW (content));
  /* The path, relative to the session's folder. */
  g_assert_nonnull (find_label (content, "src/app/loom-sidebar.c"));
  g_assert_null (find_label (content, "/home/ada/src/loom/src/app/loom-sidebar.c"));
  g_assert_cmpstr (loom_timeline_row_get_accessible_label (row), ==,
                   "File change Edit: src/app/loom-sidebar.c");

  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  loom_ui_test_wait_for_frames (fixture->window, 4);

  /* Runs of added and unchanged lines, coloured by their class. */
  labels = loom_ui_test_find_visible (content, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (labels->pdata[i]);

      if (gtk_widget_has_css_class (labels->pdata[i], "diff-added"))
        {
          g_assert_cmpstr (text, ==,
                           "+  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (drop));");
          added = TRUE;
        }
      if (gtk_widget_has_css_class (labels->pdata[i], "diff-context"))
        {
          g_assert_cmpstr (text, ==, "   gtk_widget_add_controller (row, click);");
          context = TRUE;
        }
    }
  g_assert_true (added);
  g_assert_true (context);
  loom_ui_test_save_screenshot (fixture->window, "timeline-diff-light");

  /* The Write of v2.0: a new file, every line added. */
  show_session (fixture, "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80");
  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (fixture->window, 6);
  row = find_row (fixture, match_kind, "file_change");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  loom_ui_test_wait_for_frames (fixture->window, 4);
  g_assert_nonnull (find_label (content, "+use crate::report::Row;"));
  set_dark (fixture->window, TRUE);
  loom_ui_test_save_screenshot (fixture->window, "timeline-diff-dark");
  set_dark (fixture->window, FALSE);
}

static gboolean
is_set (gpointer data)
{
  return *(char **)data != NULL;
}

static void
on_open_session_cb (LoomTimelineView *view,
                    const char       *uuid,
                    char            **out)
{
  g_free (*out);
  *out = g_strdup (uuid);
}

/* v2.1: sub-agents lead to their sessions; compaction and API errors show as such. */
static void
test_subagents (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autofree char *opened = NULL;
  g_autoptr (LoomSession) child = NULL;
  g_autoptr (GPtrArray) buttons = NULL;
  LoomTimelineRow *row;
  GtkWidget       *content;
  GtkWidget       *open = NULL;

  g_signal_connect (fixture->view, "open-session", G_CALLBACK (on_open_session_cb), &opened);
  show_session (fixture, PROGRESS_ID);

  row = find_row (fixture, match_kind, "subagent");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_assert_nonnull (find_label (content, "Sub-agent"));
  g_assert_nonnull (find_label (content, "Audit token counting (general-purpose)"));
  buttons = loom_ui_test_find_visible (content, GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), "Open Session") == 0)
        open = buttons->pdata[i];
    }
  g_assert_nonnull (open);
  gtk_widget_activate (open);
  g_assert_true (loom_ui_test_wait_until (is_set, &opened));
  child = get_session (fixture, PROGRESS_ID "/agent-a91c3e5f20b7d4e68");
  g_assert_cmpstr (opened, ==, loom_session_get_uuid (child));

  /* Opened, the sub-agent shows its task and its report. */
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  loom_ui_test_wait_for_frames (fixture->window, 4);
  g_assert_nonnull (find_label (content, "Find tokens summed twice in src/core/loom-import.c"));
  g_assert_nonnull (find_label (content, "No double counting"));

  /* The details list the two sub-agent sessions. */
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->details), "Sub-agent Sessions"));

  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (fixture->window, 6);
  row = find_row (fixture, match_kind, "api_error");
  g_assert_nonnull (row);
  g_assert_true (LOOM_IS_TIMELINE_NOTICE_ROW (loom_timeline_row_get_content (row)));
  g_assert_nonnull (find_label (loom_timeline_row_get_content (row), "API Error"));
  loom_timeline_view_scroll_to_seq (fixture->view, 15, TRUE);
  loom_ui_test_wait_for_frames (fixture->window, 6);
  row = find_row (fixture, match_kind, "compaction");
  g_assert_nonnull (row);
  g_assert_nonnull (find_label (loom_timeline_row_get_content (row), "Conversation compacted"));
  g_assert_nonnull (
    find_label (loom_timeline_row_get_content (row), "manual, 48210 tokens before"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (row), "highlighted"));
  loom_ui_test_save_screenshot (fixture->window, "timeline-subagents-light");

  /* The details pane offers the parent of a child session. */
  show_session (fixture, loom_session_get_uuid (child));
  g_assert_nonnull (strstr (loom_session_details_get_value (fixture->details, "Parent session"),
                            "Review the importer for token double counting"));
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Session type"), ==,
                   "Sub-agent");
  g_signal_handlers_disconnect_by_func (fixture->view, on_open_session_cb, &opened);
}

/* An agent's text is never markup, and the preference shows reasoning unfolded. */
static void
test_hostile_text (Fixture      *fixture,
                   gconstpointer user_data)
{
  static const char hostile[] = "<b>not bold</b> & <span foreground=\"red\">x</span>\n\n"
                                "```html\n<script>alert(\"&amp;\")</script>\n```";
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);
  g_autoptr (GError) error = NULL;
  LoomTimelineRow *row;
  GtkWidget       *content;
  GtkLabel        *label;

  record->title = g_strdup ("Hostile text - 2026-11-29");
  record->source = g_strdup ("codex");
  record->cwd = g_strdup ("/home/ada/src/loom");
  g_assert_true (loom_store_insert_session (fixture->store, record, &error));
  g_assert_no_error (error);
  g_assert_cmpint (loom_store_add_message (fixture->store, record->id, "user", hostile, 1, &error),
                   >, 0);
  g_assert_cmpint (loom_store_add_event (fixture->store, record->id, "reasoning", NULL,
                                         "{\"summary\":\"<i>thinking</i> & more\"}", 2, &error),
                   >, 0);
  g_assert_cmpint (loom_store_add_message (fixture->store, record->id, "assistant",
                                           "Done: **bold** and `<code>`", 3, &error),
                   >, 0);
  g_assert_no_error (error);

  show_session (fixture, record->uuid);
  row = find_row (fixture, match_message_text, "not bold");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  label = find_label (content, "<b>not bold</b>");
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (label), ==,
                   "<b>not bold</b> & <span foreground=\"red\">x</span>");
  label = find_label (content, "<script>");
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (label), ==, "<script>alert(\"&amp;\")</script>");
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->view), "Done: bold and <code>"));

  /* Folded reasoning shows its first line; with the preference, the whole of it. */
  row = find_row (fixture, match_kind, "reasoning");
  g_assert_nonnull (row);
  label = find_label (loom_timeline_row_get_content (row), "<i>thinking</i>");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (label), "preview"));
  g_settings_set_boolean (settings, "show-reasoning", TRUE);
  loom_ui_test_wait_for_frames (fixture->window, 4);
  row = find_row (fixture, match_kind, "reasoning");
  g_assert_nonnull (row);
  label = find_label (loom_timeline_row_get_content (row), "thinking");
  g_assert_nonnull (label);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (label), "preview"));
  loom_ui_test_save_screenshot (fixture->window, "timeline-hostile-light");
  g_settings_reset (settings, "show-reasoning");
}

static gboolean
match_any_event (const LoomTimelineData *d,
                 gconstpointer           kind)
{
  return !d->is_message && g_strcmp0 (d->kind, kind) == 0;
}

static GtkButton *find_button_with_label (GtkWidget  *root,
                                          const char *prefix);

static gboolean
shows_less_button (gpointer data)
{
  return find_button_with_label (data, "Show Less") != NULL;
}

static GtkButton *
find_button_with_label (GtkWidget  *root,
                        const char *prefix)
{
  g_autoptr (GPtrArray) buttons = loom_ui_test_find_visible (root, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      const char *label = gtk_button_get_label (buttons->pdata[i]);

      if (label != NULL && g_str_has_prefix (label, prefix))
        return buttons->pdata[i];
    }
  return NULL;
}

/* An output longer than the stored text's bound: folded, then read whole from the payload. */
static void
test_long_output (Fixture      *fixture,
                  gconstpointer user_data)
{
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
  g_autoptr (GString) output = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  LoomTimelineRow *row;
  GtkWidget       *content;
  GtkButton       *more;

  for (guint i = 0; i < 12000; i++)
    g_string_append_printf (output, "line %05u of the build log\n", i);
  g_assert_cmpuint (output->len, >, 65536);

  record->title = g_strdup ("Long output - 2026-11-29");
  record->source = g_strdup ("codex");
  g_assert_true (loom_store_insert_session (fixture->store, record, &error));
  g_assert_cmpint (
    loom_store_add_message (fixture->store, record->id, "user", "Build it", 1, &error), >, 0);
  g_assert_cmpint (loom_store_add_event (fixture->store, record->id, "tool_result", "shell",
                                         output->str, 2, &error),
                   >, 0);
  g_assert_no_error (error);

  show_session (fixture, record->uuid);
  row = find_row (fixture, match_any_event, "tool_result");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_assert_nonnull (find_label (content, "line 00000 of the build log"));
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  loom_ui_test_wait_for_frames (fixture->window, 4);

  /* Folded to its first lines. */
  g_assert_nonnull (find_label (content, "line 00011 of the build log"));
  g_assert_null (find_label (content, "line 00012 of the build log"));
  more = find_button_with_label (content, "Show More");
  g_assert_nonnull (more);
  loom_ui_test_save_screenshot (fixture->window, "timeline-output-folded-light");

  /* Unfolded as far as a label stays fast, with the whole of it, past the stored bound, one
   * copy away. */
  gtk_widget_activate (GTK_WIDGET (more));
  g_assert_true (loom_ui_test_wait_until (shows_less_button, content));
  loom_ui_test_wait_for_frames (fixture->window, 4);
  g_assert_nonnull (find_label (content, "line 00999 of the build log"));
  g_assert_null (find_label (content, "line 01000 of the build log"));
  g_assert_nonnull (find_label (content, "Showing the first 1000 of 12000 lines"));
  more = find_button_with_label (content, "Copy All");
  g_assert_nonnull (more);
  g_assert_nonnull (loom_timeline_tool_row_get_copy_text (more));
  g_assert_nonnull (
    strstr (loom_timeline_tool_row_get_copy_text (more)->text, "line 11999 of the build log"));
  gtk_widget_activate (GTK_WIDGET (more));
}

/* The agent deleted its file: the details say so, and the session stays readable. */
static void
test_source_deleted (Fixture      *fixture,
                     gconstpointer user_data)
{
  g_autofree char *fixture_file = g_build_filename (
    g_getenv ("LOOM_TEST_SRCDIR"), "import", "fixtures", "claude", "streamed-tool-error",
    "-home-ada-src-loom", STREAMED_ID ".jsonl", NULL);
  g_autofree char *agent_dir = g_build_filename (fixture->dir, "agent", NULL);
  g_autofree char *project = g_build_filename (agent_dir, "-home-other-loom", NULL);
  g_autofree char *copy = g_build_filename (project, "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5.jsonl",
                                            NULL);
  g_autofree char *contents = NULL;
  g_autofree char *renamed = NULL;
  g_autoptr (GError) error = NULL;
  const char       *paths[] = { agent_dir, NULL };
  LoomImportOptions options = { "claude-code", paths };
  gsize             length = 0;
  g_auto (GStrv) pieces = NULL;

  g_assert_true (g_file_get_contents (fixture_file, &contents, &length, &error));
  /* Another session: its records carry its id, which is the session's, not the file's name. */
  pieces = g_strsplit (contents, STREAMED_ID, -1);
  renamed = g_strjoinv ("0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5", pieces);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  g_assert_true (g_file_set_contents (copy, renamed, -1, &error));
  g_assert_no_error (error);

  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr (LoomImportStats) stats = loom_import_stats_new ();

      if (pass == 1)
        g_assert_cmpint (g_remove (copy), ==, 0);
      g_assert_true (loom_import_run (fixture->store, &options, NULL, NULL, NULL, stats, &error));
      g_assert_no_error (error);
      if (pass == 1)
        g_assert_cmpuint (stats->sessions_missing, ==, 1);
    }

  show_session (fixture, "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5");
  g_assert_cmpstr (loom_session_details_get_value (fixture->details, "Source file"), ==, copy);
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->details), "Source deleted"));
  g_assert_cmpuint (count_rows (fixture), >, 3);
}

static gboolean
frame_painted (gpointer data)
{
  return *(guint *)data > 0;
}

/* 20,000 items: the first frame needs a few pages only, the ends are one action away, memory
 * stays flat. How soon that frame comes is the benchmark's (bench/loom-bench-window: "long
 * session shown"), against the target of 150 ms. */
static void
test_long_session (Fixture      *fixture,
                   gconstpointer user_data)
{
  const guint      n_turns = 5000;
  g_autofree char *agent_dir = g_build_filename (fixture->dir, "long", NULL);
  g_autofree char *uuid = loom_test_import_long_session (fixture->store, agent_dir, n_turns);
  g_autoptr (LoomSession) session = get_session (fixture, uuid);
  GdkFrameClock *frame_clock = gtk_widget_get_frame_clock (fixture->window);
  g_autoptr (GPtrArray) rows = NULL;
  GListModel *model;
  guint       n_frames = 0;
  gulong      handler;
  guint       n_items;

  show_session (fixture, STREAMED_ID);

  /* From the click to the frame that shows the new session. */
  handler = g_signal_connect (frame_clock, "after-paint", G_CALLBACK (loom_ui_test_on_after_paint),
                              &n_frames);
  loom_timeline_view_set_session (fixture->view, fixture->store, session);
  loom_session_details_set_session (fixture->details, fixture->store, session);
  g_assert_true (loom_ui_test_wait_until (frame_painted, &n_frames));
  g_signal_handler_disconnect (frame_clock, handler);

  model = loom_timeline_view_get_model (fixture->view);
  n_items = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_items, ==, n_turns * LOOM_TEST_LONG_ITEMS_PER_TURN);
  /* Only what the screen needed was read. */
  g_test_message ("pages read for the first frame: %u",
                  loom_timeline_model_get_n_loaded_pages (LOOM_TIMELINE_MODEL (model)));
  g_assert_cmpuint (loom_timeline_model_get_n_loaded_pages (LOOM_TIMELINE_MODEL (model)), <=, 5);

  loom_ui_test_wait_for_frames (fixture->window, 2);
  rows = visible_rows (fixture);
  g_assert_cmpuint (rows->len, >, 3);
  g_assert_cmpuint (rows->len, <, 200);
  g_assert_cmpint (loom_timeline_item_get_data (loom_timeline_row_get_item (rows->pdata[0]))->seq,
                   ==, 1);
  g_clear_pointer (&rows, g_ptr_array_unref);
  loom_ui_test_save_screenshot (fixture->window, "timeline-long-start");

  /* End, as the End key does. */
  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (fixture->view), "timeline.scroll-to-end", NULL));
  loom_ui_test_wait_for_frames (fixture->window, 8);
  rows = visible_rows (fixture);
  g_assert_cmpuint (rows->len, >, 0);
  {
    LoomTimelineItem *last = loom_timeline_row_get_item (rows->pdata[rows->len - 1]);
    g_autoptr (LoomTimelineItem) expected = g_list_model_get_item (model, n_items - 1);

    g_assert_cmpint (loom_timeline_item_get_data (last)->seq, ==,
                     loom_timeline_item_get_data (expected)->seq);
  }
  g_clear_pointer (&rows, g_ptr_array_unref);
  loom_ui_test_save_screenshot (fixture->window, "timeline-long-end");

  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (fixture->view), "timeline.scroll-to-start", NULL));
  loom_ui_test_wait_for_frames (fixture->window, 8);
  rows = visible_rows (fixture);
  g_assert_cmpint (loom_timeline_item_get_data (loom_timeline_row_get_item (rows->pdata[0]))->seq,
                   ==, 1);
  g_assert_cmpuint (loom_timeline_model_get_n_loaded_pages (LOOM_TIMELINE_MODEL (model)), <=, 32);
}

int
main (int   argc,
      char *argv[])
{
  /* The cairo renderer draws the first frame fastest under Xvfb, and gives stable screenshots. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/timeline/markdown/markup", test_markdown_markup);
  g_test_add_func ("/timeline/markdown/widgets", test_markdown_widgets);
  g_test_add ("/timeline/session", Fixture, NULL, fixture_set_up, test_session, fixture_tear_down);
  g_test_add ("/timeline/file-change", Fixture, NULL, fixture_set_up, test_file_change,
              fixture_tear_down);
  g_test_add ("/timeline/subagents", Fixture, NULL, fixture_set_up, test_subagents,
              fixture_tear_down);
  g_test_add ("/timeline/hostile-text", Fixture, NULL, fixture_set_up, test_hostile_text,
              fixture_tear_down);
  g_test_add ("/timeline/long-output", Fixture, NULL, fixture_set_up, test_long_output,
              fixture_tear_down);
  g_test_add ("/timeline/source-deleted", Fixture, NULL, fixture_set_up, test_source_deleted,
              fixture_tear_down);
  g_test_add ("/timeline/long-session", Fixture, NULL, fixture_set_up, test_long_session,
              fixture_tear_down);

  return g_test_run ();
}
