/* test-timeline-hostile.c — transcripts made to break the timeline open, scroll and search.
 *
 * Writes real Claude Code transcripts into the test's folder: a reply of 100,000 nested quotes,
 * one of 100,000 nested list items, a sub-agent task nested as deep, a tool output of 50 MB on
 * one line, and tool inputs nested 400 and 100,000 deep. Imports them with the real importer,
 * runs the application on them under Xvfb (the test harness), opens each session, scrolls it
 * to the end and back, searches it with the session's bar (Ctrl+F) and the search of all
 * history, and checks what a person would see: the row, the words after the deep part, and
 * the note that says how much of a huge text is not shown. Warnings and criticals are fatal
 * (G_DEBUG=fatal-warnings, g_test_init()); a crash or a hang fails the test by itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-import.h"
#include "loom-naming.h"
#include "loom-search.h"
#include "loom-search-result-row.h"
#include "loom-session-details.h"
#include "loom-session-list.h"
#include "loom-store.h"
#include "loom-timeline-item.h"
#include "loom-timeline-loader.h"
#include "loom-timeline-message-row.h"
#include "loom-timeline-model.h"
#include "loom-timeline-row.h"
#include "loom-timeline-search-bar.h"
#include "loom-timeline-tool-row.h"
#include "loom-timeline-view.h"
#include "loom-window.h"

#include "loom-search-ui-test.h"
#include "loom-ui-test.h"

#define DEPTH            100000
#define BIG_OUTPUT_BYTES (50 * 1000 * 1000)

#define QUOTES_ID "0badc0de-0000-4000-8000-000000000001"
#define LIST_ID   "0badc0de-0000-4000-8000-000000000002"
#define OUTPUT_ID "0badc0de-0000-4000-8000-000000000003"
#define JSON_ID   "0badc0de-0000-4000-8000-000000000004"
#define TITLE_ID  "0badc0de-0000-4000-8000-000000000005"
#define MEGABYTE  (1024 * 1024)
#define N_TOOLS   55

/* ——— Transcripts, as Claude Code writes them ——— */

static char *
repeat (const char *piece,
        guint       n)
{
  GString *out = g_string_sized_new (strlen (piece) * n + 1);

  for (guint i = 0; i < n; i++)
    g_string_append (out, piece);
  return g_string_free (out, FALSE);
}

/* @text as a JSON string, quotes included. */
static char *
json_string (const char *text)
{
  GString *out = g_string_sized_new (strlen (text) + 16);

  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

/* One record: @type "user" or "assistant", @message its message object as JSON, @extra
 * more members ("\"a\":1,") or "". */
static void
add_record_with (GString    *out,
                 const char *session_id,
                 guint       n,
                 const char *type,
                 const char *message,
                 const char *extra)
{
  g_autofree char *parent = n > 0 ? g_strdup_printf ("\"%.24s%012x\"", session_id, n - 1)
                                  : g_strdup ("null");

  g_string_append_printf (out,
                          "{\"parentUuid\":%s,\"isSidechain\":false,\"userType\":\"external\","
                          "\"cwd\":\"/tmp/hostile\",\"sessionId\":\"%s\",\"version\":\"2.1.81\","
                          "\"gitBranch\":\"main\",\"type\":\"%s\",\"message\":%s,%s"
                          "\"uuid\":\"%.24s%012x\",\"timestamp\":\"2026-03-05T12:%02u:00.000Z\"}\n",
                          parent, session_id, type, message, extra, session_id, n, n);
}

static void
add_record (GString    *out,
            const char *session_id,
            guint       n,
            const char *type,
            const char *message)
{
  add_record_with (out, session_id, n, type, message, "");
}

static void
add_prompt (GString    *out,
            const char *session_id,
            guint       n,
            const char *prompt)
{
  g_autofree char *text = json_string (prompt);
  g_autofree char *message = g_strdup_printf ("{\"role\":\"user\",\"content\":%s}", text);

  add_record (out, session_id, n, "user", message);
}

static void
add_reply (GString    *out,
           const char *session_id,
           guint       n,
           const char *reply)
{
  g_autofree char *text = json_string (reply);
  g_autofree char *message = g_strdup_printf (
    "{\"model\":\"claude-opus-4-6\",\"id\":\"msg_%u\",\"type\":\"message\","
    "\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":%s}],"
    "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}",
    n, text);

  add_record (out, session_id, n, "assistant", message);
}

/* A tool call with @input (JSON) as its input. */
static void
add_tool_use (GString    *out,
              const char *session_id,
              guint       n,
              const char *tool_id,
              const char *name,
              const char *input)
{
  g_autofree char *message = g_strdup_printf (
    "{\"model\":\"claude-opus-4-6\",\"id\":\"msg_%u\",\"type\":\"message\","
    "\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"%s\",\"name\":\"%s\","
    "\"input\":%s}],\"stop_reason\":\"tool_use\","
    "\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}",
    n, tool_id, name, input);

  add_record (out, session_id, n, "assistant", message);
}

/* @output: its JSON string, quotes included. */
static void
add_tool_result (GString    *out,
                 const char *session_id,
                 guint       n,
                 const char *tool_id,
                 const char *output)
{
  g_autofree char *message = g_strdup_printf (
    "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"%s\","
    "\"content\":%s}]}",
    tool_id, output);

  add_record (out, session_id, n, "user", message);
}

static void
write_transcript (const char *folder,
                  const char *session_id,
                  GString    *records)
{
  g_autofree char *name = g_strconcat (session_id, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_set_contents (path, records->str, records->len, &error));
  g_assert_no_error (error);
}

static void
write_transcripts (const char *folder)
{
  g_autofree char *quotes = repeat ("> ", DEPTH);
  g_autofree char *items = repeat ("- ", DEPTH);
  g_autofree char *brackets_open = repeat ("[", DEPTH);
  g_autofree char *brackets_close = repeat ("]", DEPTH);
  g_autofree char *shallow_open = repeat ("[", 400);
  g_autofree char *shallow_close = repeat ("]", 400);
  g_autofree char *reply = NULL;
  g_autofree char *task = NULL;
  g_autofree char *task_input = NULL;
  g_autofree char *input = NULL;
  g_autofree char *output = NULL;
  g_autoptr (GString) records = g_string_new (NULL);

  /* 100,000 nested quotes: once a SIGSEGV, a 54,598-frame recursion in gtk_widget_map(). The
   * index keeps a message's first 64 KiB: the word to search for comes first. */
  add_prompt (records, QUOTES_ID, 0, "Quote the hostile file quotesession");
  reply = g_strconcat ("quotesbegin Here is the file:\n\n", quotes,
                       "innermost quoted words\n\nquotesdone after the quotes", NULL);
  add_reply (records, QUOTES_ID, 1, reply);
  /* A sub-agent's task renders Markdown in a tool row. */
  task = g_strconcat ("taskwords\n\n", quotes, "innermost task words", NULL);
  g_clear_pointer (&reply, g_free);
  reply = json_string (task);
  task_input = g_strdup_printf ("{\"description\":\"Read the quotes\",\"prompt\":%s,"
                                "\"subagent_type\":\"general-purpose\"}",
                                reply);
  add_tool_use (records, QUOTES_ID, 2, "toolu_task", "Task", task_input);
  add_tool_result (records, QUOTES_ID, 3, "toolu_task", "\"Done reading the quotes\"");
  write_transcript (folder, QUOTES_ID, records);

  /* 100,000 list items, each in the one before. */
  g_string_truncate (records, 0);
  g_clear_pointer (&reply, g_free);
  add_prompt (records, LIST_ID, 0, "List the hostile file listsession");
  reply = g_strconcat ("listbegin The list:\n\n", items,
                       "innermost list item\n\n"
                       "listdone after the list",
                       NULL);
  add_reply (records, LIST_ID, 1, reply);
  write_transcript (folder, LIST_ID, records);

  /* A 50 MB line of output, written in pieces: one copy of it is enough. */
  g_string_truncate (records, 0);
  add_prompt (records, OUTPUT_ID, 0, "Print the huge file outputsession");
  add_tool_use (records, OUTPUT_ID, 1, "toolu_cat", "Bash",
                "{\"command\":\"cat huge.txt\",\"description\":\"Print it\"}");
  {
    g_autofree char *filler = repeat ("x", BIG_OUTPUT_BYTES);

    output = g_strconcat ("\"bigoutputstart ", filler, " bigoutputend\"", NULL);
  }
  add_tool_result (records, OUTPUT_ID, 2, "toolu_cat", output);
  g_clear_pointer (&output, g_free);
  add_reply (records, OUTPUT_ID, 3, "outputdone The file is one long line.");
  /* A message is stored whole, however long: 2 MB of words. */
  add_prompt (records, OUTPUT_ID, 4, "And paste it");
  {
    g_autofree char *words = repeat ("word ", 400000);

    g_clear_pointer (&reply, g_free);
    reply = g_strconcat ("longmessagestart ", words, "longmessageend", NULL);
  }
  add_reply (records, OUTPUT_ID, 5, reply);
  /* An API error whose message is a megabyte on one line: the notice row's label. */
  {
    g_autofree char *filler = repeat ("e", 1000000);
    g_autofree char *message = g_strdup_printf (
      "{\"model\":\"<synthetic>\",\"id\":\"msg_error\",\"type\":\"message\","
      "\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
      "\"text\":\"apierrorstart %s\"}]}",
      filler);

    add_record_with (records, OUTPUT_ID, 6, "assistant", message,
                     "\"isApiErrorMessage\":true,\"error\":\"unknown\",");
  }
  write_transcript (folder, OUTPUT_ID, records);

  /* Tool inputs nested 400 deep (the core's parser reads it; shown indented) and 100,000
   * deep (past the parser's limit: the record is salvaged or refused, never recursed into). */
  g_string_truncate (records, 0);
  add_prompt (records, JSON_ID, 0, "Search with the nested input jsonsession");
  input = g_strdup_printf ("{\"pattern\":\"jsonpattern\",\"nested\":%s1%s}", shallow_open,
                           shallow_close);
  add_tool_use (records, JSON_ID, 1, "toolu_grep", "Grep", input);
  add_tool_result (records, JSON_ID, 2, "toolu_grep", "\"No matches found\"");
  g_clear_pointer (&input, g_free);
  input = g_strdup_printf ("{\"pattern\":\"deeppattern\",\"nested\":%s1%s}", brackets_open,
                           brackets_close);
  add_tool_use (records, JSON_ID, 3, "toolu_deep", "Grep", input);
  add_tool_result (records, JSON_ID, 4, "toolu_deep", "\"No matches found either\"");
  add_reply (records, JSON_ID, 5, "jsondone Nothing matched.");
  write_transcript (folder, JSON_ID, records);

  /* A title of a megabyte, lines and control characters in it, from Claude Code's
   * custom-title record, and a first prompt that is one word of a megabyte. */
  g_string_truncate (records, 0);
  {
    g_autofree char *word = repeat ("w", MEGABYTE);
    g_autoptr (GString) title = g_string_new ("titlesession");

    memcpy (word, "hugeprompt", 10);
    add_prompt (records, TITLE_ID, 0, word);
    while (title->len < MEGABYTE)
      g_string_append (title, " a line\\nof\\u0007 a title\\t");
    /* 55 tools, one of them named with a megabyte: the details pane lists the most called. */
    for (guint i = 1; i <= N_TOOLS; i++)
      {
        g_autofree char *name = g_strdup_printf ("tool%u", i);
        g_autofree char *id = g_strdup_printf ("toolu_%u", i);

        if (i == 1)
          {
            g_free (name);
            name = repeat ("n", MEGABYTE);
            memcpy (name, "hugetool", 8);
          }
        add_tool_use (records, TITLE_ID, i, id, name, "{}");
      }
    add_reply (records, TITLE_ID, N_TOOLS + 1, "titledone The title is long.");
    g_string_append_printf (records,
                            "{\"type\":\"custom-title\",\"customTitle\":\"%s\","
                            "\"sessionId\":\"%s\"}\n",
                            title->str, TITLE_ID);
  }
  write_transcript (folder, TITLE_ID, records);
}

/* ——— Fixture: the transcripts imported, and the application ——— */

static void
hostile_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autofree char *claude = NULL;
  g_autofree char *project = NULL;
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  const char       *paths[] = { NULL, NULL };
  LoomImportOptions options = { "claude-code", paths };

  /* TMPDIR is inside the harness's throwaway folder, so this never reaches a real store. */
  fixture->dir = g_dir_make_tmp ("loom-test-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);

  claude = g_build_filename (fixture->dir, "claude", NULL);
  project = g_build_filename (claude, "-tmp-hostile", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  write_transcripts (project);

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  paths[0] = claude;
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->files_failed, ==, 0);
  g_assert_cmpuint (stats->sessions_new, ==, 5);
  /* The record nested past the JSON parser's depth is a warning naming its line; the rest of
   * its file is imported. */
  for (guint i = 0; i < stats->warnings->len; i++)
    g_test_message ("Import warning: %s", (const char *)stats->warnings->pdata[i]);
  g_assert_cmpuint (stats->warnings->len, ==, 1);
  g_assert_nonnull (strstr (stats->warnings->pdata[0], JSON_ID ".jsonl:4:"));

  loom_ui_test_prepare_settings (1280, 860);
}

/* The store's uuid of the session whose title says @word. */
static char *
uuid_of_session_saying (LoomStore  *store,
                        const char *word)
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

      if (strstr (loom_session_get_title (session), word) != NULL)
        return g_strdup (loom_session_get_uuid (session));
    }
  g_error ("No session's title says “%s”", word);
}

/* ——— Looking at the window ——— */

/* The label on screen under @root whose text contains @text, or NULL. */
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

typedef struct
{
  GtkWidget  *root;
  const char *text;
} LabelWait;

static gboolean
label_shown (gpointer data)
{
  LabelWait *wait = data;

  return find_label (wait->root, wait->text) != NULL;
}

static GtkLabel *
wait_for_label (GtkWidget  *root,
                const char *text)
{
  LabelWait wait = { root, text };

  if (!loom_ui_test_wait_until (label_shown, &wait))
    {
      g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

      for (guint i = 0; i < labels->len; i++)
        g_test_message ("On screen: “%.80s”", gtk_label_get_text (labels->pdata[i]));
      g_error ("No label on screen says “%s”", text);
    }
  return find_label (root, text);
}

/* The row on screen whose item says @word, or is a tool call of @word. */
static LoomTimelineRow *
find_row (Fixture    *fixture,
          const char *word)
{
  g_autoptr (GPtrArray)
    rows = loom_ui_test_find_visible (GTK_WIDGET (fixture->view), LOOM_TYPE_TIMELINE_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      LoomTimelineItem       *item = loom_timeline_row_get_item (rows->pdata[i]);
      const LoomTimelineData *d = item != NULL ? loom_timeline_item_get_data (item) : NULL;

      if (d == NULL)
        continue;
      if ((d->text != NULL && strstr (d->text, word) != NULL) ||
          (!d->is_message && g_strcmp0 (d->tool_name, word) == 0))
        return rows->pdata[i];
    }
  return NULL;
}

static GtkButton *
find_button_labelled (GtkWidget  *root,
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

static gboolean
shows_less_button (gpointer data)
{
  return find_button_labelled (data, "Show Less") != NULL;
}

/* Opens the session as a click in the list does, and waits for its timeline. */
static void
open_session (Fixture    *fixture,
              const char *uuid)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);

  g_assert_true (loom_session_list_select_uuid (fixture->list, uuid));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                   uuid);
}

/* To the end of the timeline and back, drawn each way. */
static void
scroll_through (Fixture *fixture)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);

  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  loom_timeline_view_scroll_to_start (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
}

/* Ctrl+F over the timeline, @word typed: the session's bar finds it at least once. */
static void
search_in_session (Fixture    *fixture,
                   const char *word)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  GtkWidget *timeline_list = loom_ui_test_find_any (GTK_WIDGET (fixture->view), GTK_TYPE_LIST_VIEW);

  g_assert_true (gtk_widget_child_focus (timeline_list, GTK_DIR_TAB_FORWARD) ||
                 gtk_widget_grab_focus (timeline_list));
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_f, GDK_CONTROL_MASK));
  g_assert_true (loom_timeline_search_bar_get_open (fixture->bar));
  gtk_editable_set_text (GTK_EDITABLE (loom_timeline_search_bar_get_entry (fixture->bar)), word);
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  g_assert_cmpuint (loom_timeline_search_bar_get_n_hits (fixture->bar), >=, 1);
  wait_for_highlight (fixture, loom_timeline_search_bar_get_hit_seq (fixture->bar, 0));
  loom_ui_test_wait_for_frames (window, 3);
  g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  loom_ui_test_wait_for_frames (window, 3);
}

/* The search of all history for @word: a hit in @uuid, opened as a click does; then the
 * search is cleared, back to the list. */
static void
search_everything (Fixture    *fixture,
                   const char *word,
                   const char *uuid)
{
  GListModel *model;
  int         position = -1;
  gint64      seq = 0;

  search_for (fixture, word);
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 3);
  /* Every result on screen shows a bounded snippet, however long the words it matched. */
  {
    g_autoptr (GPtrArray)
      rows = loom_ui_test_find_visible (GTK_WIDGET (fixture->results), LOOM_TYPE_SEARCH_RESULT_ROW);
    guint n_snippets = 0;

    for (guint i = 0; i < rows->len; i++)
      {
        GtkLabel   *label = loom_search_result_row_get_snippet_label (rows->pdata[i]);
        const char *text = gtk_label_get_text (label);

        if (!gtk_widget_get_visible (GTK_WIDGET (label)) || *text == '\0')
          continue;
        n_snippets++;
        g_assert_cmpint (g_utf8_strlen (text, -1), <=, 401);
      }
    g_test_message ("%u snippets shown for “%s”", n_snippets, word);
  }
  model = G_LIST_MODEL (loom_search_results_get_model (fixture->results));
  for (guint i = 0; i < g_list_model_get_n_items (model) && position < 0; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

      if (LOOM_IS_SEARCH_HIT (item) &&
          g_str_equal (loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->session_uuid, uuid) &&
          loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq > 0)
        {
          position = (int)i;
          seq = loom_search_hit_get_data (LOOM_SEARCH_HIT (item))->seq;
        }
    }
  if (position < 0)
    g_error ("The search for “%s” found nothing in the session's timeline", word);
  g_assert_true (gtk_selection_model_select_item (results_selection (fixture), position, TRUE));
  wait_for_highlight (fixture, seq);
  g_assert_true (loom_ui_test_wait_until (bar_done, fixture->bar));
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 3);
  g_assert_cmpstr (loom_session_get_uuid (loom_window_get_shown_session (fixture->window)), ==,
                   uuid);

  gtk_editable_set_text (GTK_EDITABLE (fixture->entry), "");
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 6);
  if (loom_timeline_search_bar_get_open (fixture->bar))
    g_signal_emit_by_name (loom_timeline_search_bar_get_entry (fixture->bar), "stop-search");
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 3);
}

/* The ticks of a timeout: the UI thread kept serving. */
#define MIN_TICKS 5

typedef struct
{
  guint n;
  guint source;
} TickCount;

static gboolean
count_tick_cb (gpointer data)
{
  ((TickCount *)data)->n++;
  return G_SOURCE_CONTINUE;
}

static gboolean
ticked_enough (gpointer data)
{
  return ((TickCount *)data)->n >= MIN_TICKS;
}

typedef struct
{
  gboolean done;
  char    *text;
} ClipboardRead;

static void
on_clipboard_read_cb (GObject      *source,
                      GAsyncResult *result,
                      gpointer      data)
{
  ClipboardRead *read = data;
  g_autoptr (GError) error = NULL;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

static gboolean
clipboard_read_done (gpointer data)
{
  return ((ClipboardRead *)data)->done;
}

/* What the clipboard holds, read as another application would, through its text. */
static char *
read_clipboard (GtkWidget *widget)
{
  ClipboardRead read = { 0 };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, on_clipboard_read_cb,
                                 &read);
  g_assert_true (loom_ui_test_wait_until (clipboard_read_done, &read));
  return read.text;
}

/* ——— Tests ——— */

static void
deep_markdown_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *quotes_uuid = uuid_of_session_saying (store, "quotesession");
  g_autofree char *list_uuid = uuid_of_session_saying (store, "listsession");
  LoomTimelineRow *row;
  GtkWidget       *content;

  /* 100,000 nested quotes: the reply is there, with the words inside and after the quotes. */
  open_session (fixture, quotes_uuid);
  row = find_row (fixture, "quotesbegin");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_assert_true (LOOM_IS_TIMELINE_MESSAGE_ROW (content));
  wait_for_label (content, "innermost quoted words");
  wait_for_label (content, "quotesdone after the quotes");
  loom_ui_test_save_screenshot (window, "hostile-quotes-light");

  /* The sub-agent's task, nested as deep, opened. */
  row = find_row (fixture, "Task");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  loom_ui_test_wait_for_frames (window, 4);
  wait_for_label (content, "innermost task words");
  loom_ui_test_save_screenshot (window, "hostile-quotes-task-light");

  scroll_through (fixture);
  search_in_session (fixture, "quotesbegin");
  search_everything (fixture, "quotesbegin", quotes_uuid);

  /* 100,000 nested list items: drawn flat past the bound, the innermost item's marker kept. */
  open_session (fixture, list_uuid);
  row = find_row (fixture, "listbegin");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  wait_for_label (content, "\342\227\246 innermost list item");
  wait_for_label (content, "listdone after the list");
  loom_ui_test_save_screenshots (fixture->app, window, "hostile-list");

  scroll_through (fixture);
  search_in_session (fixture, "listbegin");
  search_everything (fixture, "listbegin", list_uuid);
}

static void
huge_output_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *uuid = uuid_of_session_saying (store, "outputsession");
  g_autofree char *shown = g_format_size (32768);
  g_autofree char *whole = g_format_size (BIG_OUTPUT_BYTES + strlen ("bigoutputstart  "
                                                                     "bigoutputend"));
  g_autofree char *note = g_strdup_printf ("Showing the first %s of %s", shown, whole);
  LoomTimelineRow *row;
  GtkWidget       *content;
  g_autoptr (LoomTimelineContext) context = NULL;
  LoomTimelineLoader *loader;
  GtkButton          *button;
  GtkLabel           *label;
  char               *copied;
  TickCount           ticks = { 0 };
  guint               n_loaded;

  open_session (fixture, uuid);
  wait_for_label (GTK_WIDGET (fixture->view), "outputdone");
  row = find_row (fixture, "Bash");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  g_object_get (content, "context", &context, NULL);
  loader = loom_timeline_context_get_loader (context);

  /* Opened: the output's first lines, and how much more there is. */
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  loom_ui_test_wait_for_frames (window, 4);
  label = wait_for_label (content, "bigoutputstart");
  g_assert_cmpuint (strlen (gtk_label_get_text (label)), <, 10000);
  label = wait_for_label (content, "… about ");
  g_assert_nonnull (strstr (gtk_label_get_text (label), "MB more"));
  g_test_message ("Folded: “%s”", gtk_label_get_text (label));
  button = find_button_labelled (content, "Show More");
  g_assert_nonnull (button);
  loom_ui_test_save_screenshot (window, "hostile-output-folded-light");
  loom_ui_test_save_screenshot (content, "hostile-output-folded-row-light");

  /* Shown whole: the 50 MB payload is read and parsed in a worker. The loads are held in
   * their worker until the UI thread has served a few ticks of a 10 ms timeout, counted
   * from the click: a read on the UI thread would have ended before the first. Meanwhile
   * the row says it is loading and its button waits. */
  n_loaded = loom_timeline_loader_get_n_loaded (loader);
  loom_timeline_loader_hold_for_testing (TRUE);
  ticks.source = g_timeout_add (10, count_tick_cb, &ticks);
  /* Clicked now: gtk_widget_activate() clicks after a quarter second's animation. */
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpuint (ticks.n, ==, 0);
  g_assert_true (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  wait_for_label (content, "Loading…");
  button = find_button_labelled (content, "Show More");
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  g_assert_true (loom_ui_test_wait_until (ticked_enough, &ticks));
  g_assert_true (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  loom_ui_test_save_screenshot (content, "hostile-output-loading-row-light");
  loom_timeline_loader_hold_for_testing (FALSE);
  g_assert_true (loom_ui_test_wait_until (shows_less_button, content));
  g_source_remove (ticks.source);
  g_test_message ("%u ticks of a 10 ms timeout between Show More and the whole output", ticks.n);
  g_assert_cmpuint (ticks.n, >=, MIN_TICKS);
  g_assert_cmpuint (loom_timeline_loader_get_n_loaded (loader), ==, n_loaded + 1);
  g_assert_false (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  g_assert_null (find_label (content, "Loading…"));

  /* Still only a head laid out, said so, and all of it one copy away. */
  loom_ui_test_wait_for_frames (window, 4);
  label = wait_for_label (content, "bigoutputstart");
  g_assert_cmpuint (strlen (gtk_label_get_text (label)), <=, 32768);
  wait_for_label (content, note);
  button = find_button_labelled (content, "Copy All");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");
  copied = read_clipboard (window);
  g_assert_nonnull (copied);
  g_assert_cmpuint (strlen (copied), ==,
                    BIG_OUTPUT_BYTES + strlen ("bigoutputstart  bigoutputend"));
  g_assert_true (g_str_has_prefix (copied, "bigoutputstart "));
  g_assert_true (g_str_has_suffix (copied, " bigoutputend"));
  g_clear_pointer (&copied, g_free);

  /* Folded and opened again, shown whole at once: the text was kept, nothing read again. */
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), FALSE);
  loom_ui_test_wait_for_frames (window, 2);
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  g_assert_false (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  g_assert_nonnull (find_button_labelled (content, "Show Less"));
  g_assert_cmpuint (loom_timeline_loader_get_n_loaded (loader), ==, n_loaded + 1);

  /* A load the row no longer wants is dropped: the texts forgotten (as when the session
   * changes), the row opened, loading, and folded before the load ends. */
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), FALSE);
  loom_timeline_loader_set_store_path (loader, loom_store_get_path (store));
  loom_timeline_loader_hold_for_testing (TRUE);
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  g_assert_true (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), FALSE);
  g_assert_false (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  loom_timeline_loader_hold_for_testing (FALSE);
  loom_ui_test_wait_for_frames (window, 10);
  g_assert_cmpuint (loom_timeline_loader_get_n_loaded (loader), ==, n_loaded + 1);
  /* Opened again, it loads again, and shows it. */
  loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
  g_assert_true (loom_timeline_tool_row_get_loading (LOOM_TIMELINE_TOOL_ROW (content)));
  g_assert_true (loom_ui_test_wait_until (shows_less_button, content));
  g_assert_cmpuint (loom_timeline_loader_get_n_loaded (loader), ==, n_loaded + 2);
  wait_for_label (content, note);
  loom_ui_test_save_screenshots (fixture->app, window, "hostile-output");
  /* The row whole, its note included, below the window's edge. */
  loom_ui_test_save_screenshot (content, "hostile-output-row-light");

  /* The 2 MB message: a screenful, how much more there is, and on asking, still a bounded
   * part of it, said so. */
  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  row = find_row (fixture, "longmessagestart");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  label = wait_for_label (content, "longmessagestart");
  g_assert_cmpuint (strlen (gtk_label_get_text (label)), <=, 12000);
  label = wait_for_label (content, "MB more");
  g_test_message ("Message folded: “%s”", gtk_label_get_text (label));
  button = find_button_labelled (content, "Show Full Message");
  g_assert_nonnull (button);
  /* Parsed whole in a worker, held there while the UI thread serves a few ticks. */
  n_loaded = loom_timeline_loader_get_n_loaded (loader);
  loom_timeline_loader_hold_for_testing (TRUE);
  ticks.n = 0;
  ticks.source = g_timeout_add (10, count_tick_cb, &ticks);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (loom_timeline_message_row_get_loading (LOOM_TIMELINE_MESSAGE_ROW (content)));
  wait_for_label (content, "Loading…");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (button)));
  g_assert_true (loom_ui_test_wait_until (ticked_enough, &ticks));
  g_assert_true (loom_timeline_message_row_get_loading (LOOM_TIMELINE_MESSAGE_ROW (content)));
  loom_timeline_loader_hold_for_testing (FALSE);
  label = wait_for_label (content, "not shown. Copy takes the whole message.");
  g_source_remove (ticks.source);
  g_test_message ("%u ticks of a 10 ms timeout between Show Full Message and the message", ticks.n);
  g_assert_cmpuint (ticks.n, >=, MIN_TICKS);
  g_assert_cmpuint (loom_timeline_loader_get_n_loaded (loader), ==, n_loaded + 1);
  g_assert_false (loom_timeline_message_row_get_loading (LOOM_TIMELINE_MESSAGE_ROW (content)));
  g_test_message ("Message shown: “%s”", gtk_label_get_text (label));
  label = wait_for_label (content, "longmessagestart");
  g_assert_cmpuint (strlen (gtk_label_get_text (label)), <=, 32768);
  g_assert_null (find_label (content, "longmessageend"));
  g_assert_null (find_button_labelled (content, "Show Full Message"));
  g_assert_null (find_label (content, "Loading…"));
  loom_ui_test_save_screenshot (content, "hostile-long-message-row-light");
  /* Copy takes the whole message. */
  {
    g_autoptr (GPtrArray) buttons = loom_ui_test_find_visible (content, GTK_TYPE_BUTTON);
    GtkWidget *copy = NULL;

    for (guint i = 0; i < buttons->len && copy == NULL; i++)
      if (g_strcmp0 (gtk_button_get_icon_name (buttons->pdata[i]), "edit-copy-symbolic") == 0)
        copy = buttons->pdata[i];
    g_assert_nonnull (copy);
    g_signal_emit_by_name (copy, "clicked");
    copied = read_clipboard (window);
    g_assert_true (g_str_has_prefix (copied, "longmessagestart "));
    g_assert_true (g_str_has_suffix (copied, "longmessageend"));
    g_assert_cmpuint (strlen (copied), ==,
                      strlen ("longmessagestart longmessageend") + 400000 * strlen ("word "));
    g_clear_pointer (&copied, g_free);
  }

  /* The megabyte API error: its head, and how much more. */
  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  row = find_row (fixture, "apierrorstart");
  g_assert_nonnull (row);
  content = loom_timeline_row_get_content (row);
  label = wait_for_label (content, "apierrorstart");
  g_assert_cmpuint (strlen (gtk_label_get_text (label)), <, 8100);
  g_test_message ("API error: “…%s”",
                  gtk_label_get_text (label) + strlen (gtk_label_get_text (label)) - 40);
  g_assert_true (g_str_has_suffix (gtk_label_get_text (label), " more"));
  loom_ui_test_save_screenshot (window, "hostile-api-error-light");

  scroll_through (fixture);
  search_in_session (fixture, "bigoutputstart");
  search_everything (fixture, "bigoutputstart", uuid);
  search_everything (fixture, "longmessagestart", uuid);
}

static void
deep_json_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *uuid = uuid_of_session_saying (store, "jsonsession");
  g_autoptr (GPtrArray) rows = NULL;
  guint n_grep = 0;

  open_session (fixture, uuid);
  wait_for_label (GTK_WIDGET (fixture->view), "jsondone");

  /* Every Grep row opens; the one nested 400 deep shows its input indented. */
  rows = loom_ui_test_find_visible (GTK_WIDGET (fixture->view), LOOM_TYPE_TIMELINE_ROW);
  for (guint i = 0; i < rows->len; i++)
    {
      LoomTimelineItem *item = loom_timeline_row_get_item (rows->pdata[i]);
      GtkWidget        *content = loom_timeline_row_get_content (rows->pdata[i]);

      if (item == NULL || loom_timeline_item_get_data (item)->is_message ||
          g_strcmp0 (loom_timeline_item_get_data (item)->tool_name, "Grep") != 0)
        continue;
      loom_timeline_tool_row_set_expanded (LOOM_TIMELINE_TOOL_ROW (content), TRUE);
      loom_ui_test_wait_for_frames (window, 4);
      wait_for_label (content, "Input");
      n_grep++;
    }
  g_test_message ("%u Grep rows opened", n_grep);
  g_assert_cmpuint (n_grep, >=, 1);
  wait_for_label (GTK_WIDGET (fixture->view), "\"pattern\" : \"jsonpattern\"");
  loom_ui_test_save_screenshot (window, "hostile-json-light");

  scroll_through (fixture);
  search_in_session (fixture, "jsondone");
  search_everything (fixture, "jsondone", uuid);
}

/* The session of the megabyte title opens, its details pane shown: every title on screen is
 * a line of a title's length. */
static void
huge_title_body (Fixture *fixture)
{
  GtkWidget       *window = GTK_WIDGET (fixture->window);
  LoomStore       *store = loom_window_get_store (fixture->window);
  g_autofree char *uuid = uuid_of_session_saying (store, "titlesession");
  g_autoptr (GPtrArray) labels = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *details;
  guint      n_titles = 0;

  session = loom_store_get_session (store, uuid, &error);
  g_assert_no_error (error);
  g_test_message ("Title: %s", loom_session_get_title (session));
  g_assert_cmpint (g_utf8_strlen (loom_session_get_title (session), -1), <=,
                   LOOM_NAMING_TITLE_LIMIT + 13);
  g_assert_null (strchr (loom_session_get_title (session), '\n'));

  open_session (fixture, uuid);
  wait_for_label (GTK_WIDGET (fixture->view), "hugeprompt");
  loom_timeline_view_scroll_to_end (fixture->view);
  loom_ui_test_wait_for_frames (window, 6);
  wait_for_label (GTK_WIDGET (fixture->view), "titledone");
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_F9, 0));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_DETAILS), ==, 1);
  details = loom_ui_test_find_any (window, LOOM_TYPE_SESSION_DETAILS);
  wait_for_label (details, "titlesession");
  loom_ui_test_save_screenshot (window, "hostile-title-details-light");

  /* No label anywhere lays out more than a bounded part of the megabyte. */
  labels = loom_ui_test_find_visible (window, GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_text (labels->pdata[i]);

      if (strstr (text, "titlesession") != NULL)
        n_titles++;
      g_assert_cmpuint (strlen (text), <=, 32768);
    }
  g_test_message ("%u labels show the title", n_titles);
  g_assert_cmpuint (n_titles, >=, 2);

  /* The tools: the 50 most called, the rest counted in one row, each name a bounded line. */
  {
    g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (details, ADW_TYPE_ACTION_ROW);
    guint    n_tool_rows = 0;
    gboolean others = FALSE;

    for (guint i = 0; i < rows->len; i++)
      {
        const char *title = adw_preferences_row_get_title (rows->pdata[i]);

        if (g_str_has_prefix (title, "tool") || g_str_has_prefix (title, "hugetool"))
          {
            n_tool_rows++;
            g_assert_cmpint (g_utf8_strlen (title, -1), <=, 200);
          }
        if (g_str_equal (title, "5 Other Tools"))
          others = TRUE;
      }
    g_test_message ("%u tool rows", n_tool_rows);
    g_assert_cmpuint (n_tool_rows, ==, 50);
    g_assert_true (others);
  }

  scroll_through (fixture);
  search_everything (fixture, "titledone", uuid);
  g_assert_true (loom_ui_test_press_key (window, GDK_KEY_F9, 0));
  loom_ui_test_wait_for_frames (window, 3);
}

static void
test_huge_title (Fixture      *fixture,
                 gconstpointer user_data)
{
  fixture_run (fixture, huge_title_body);
}

static void
test_deep_markdown (Fixture      *fixture,
                    gconstpointer user_data)
{
  fixture_run (fixture, deep_markdown_body);
}

static void
test_huge_output (Fixture      *fixture,
                  gconstpointer user_data)
{
  fixture_run (fixture, huge_output_body);
}

static void
test_deep_json (Fixture      *fixture,
                gconstpointer user_data)
{
  fixture_run (fixture, deep_json_body);
}

int
main (int   argc,
      char *argv[])
{
  search_ui_test_init (&argc, &argv);

  g_test_add ("/timeline-hostile/deep-markdown", Fixture, NULL, hostile_set_up, test_deep_markdown,
              fixture_tear_down);
  g_test_add ("/timeline-hostile/huge-output", Fixture, NULL, hostile_set_up, test_huge_output,
              fixture_tear_down);
  g_test_add ("/timeline-hostile/deep-json", Fixture, NULL, hostile_set_up, test_deep_json,
              fixture_tear_down);
  g_test_add ("/timeline-hostile/huge-title", Fixture, NULL, hostile_set_up, test_huge_title,
              fixture_tear_down);

  return g_test_run ();
}
