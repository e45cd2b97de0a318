/* loom-bench-window.c — the main window on a long history: first frame, memory, a long session;
 * and following an agent live (--watch).
 *
 *   loom-bench-window [--runs 3] [--store-dir DIR] [--fresh] [--sessions 100000]
 *                     [--records 2000000] [--big-items 20000] [--watch-only | --no-watch]
 *
 * Run it on a display: `xvfb-run -a loom-bench-window` (see README.md).
 *
 * It writes a store of 100,000 sessions and 2 million records (messages and events) straight
 * with SQLite, one session of them with 20,000 items, and keeps it in the store folder for the
 * next run. The search index is left empty: the window never reads it, and filling it would
 * take minutes. Then it starts the real application in a child process per measurement, on an
 * empty store and on the full one, in turns, and each child reports:
 *
 *   first frame   from g_application_run() to the main window's first "after-paint"
 *   memory        the resident set (VmRSS) at the first frame and one second later, and its peak
 *                 (VmHWM)
 *   show          (full store) from selecting the 20,000-item session in the session list to
 *                 the first paint on which the timeline shows rows with their content; the
 *                 timeline's core model alone (creation and its first 50 items) is timed too
 *   scroll        (full store) from asking the session list to show its middle session to the
 *                 paint that shows its row, built: the cost of reading a page deep in the list
 *
 * The figures printed are the medians over the runs, against the targets: the first frame with
 * the full store within 1.5 times that with an empty one, under 150 MB more memory, and the long
 * session shown in under 150 ms.
 *
 * Then (unless --no-watch; alone with --watch-only) the window following Claude Code live, in
 * a child per run with an agent folder of its own (loom-bench-watch.c): how soon a new session,
 * an appended prompt and a deleted file show in the list, and during a long import the UI
 * thread's longest pause (target: under 50 ms) and how soon a session written meanwhile is
 * listed. These figures are printed against their targets and do not change the exit status.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "loom-application.h"
#include "loom-bench-watch.h"
#include "loom-core.h"
#include "loom-session-list.h"
#include "loom-session-row.h"
#include "loom-store.h"
#include "loom-timeline-model.h"

#define TARGET_FIRST_FRAME_RATIO 1.5
#define TARGET_EXTRA_MEMORY_MB   150.0
#define TARGET_SHOW_MS           150.0
#define TARGET_PAUSE_MS          50.0
#define TARGET_LISTED_MS         2000.0
#define WAIT_TIMEOUT_USEC        (20 * G_USEC_PER_SEC)
#define DAY_MS                   ((gint64)24 * 3600 * 1000)

/* ——— The store ——— */

static const char *const topics[] = {
  "Fix the flaky login test",
  "Port the settings page to libadwaita",
  "Explain the build failure on arm64",
  "Stream huge JSONL lines",
  "Draft the release notes",
  "Add keyboard shortcuts",
  "Profile the importer",
  "Review the schema migration",
  "Write the Flatpak manifest",
  "Track down a memory leak",
  "Translate the welcome page",
  "Refactor the query parser",
  "Speed up the test suite",
  "Add dark mode screenshots",
};

static const char *const words[] = {
  "the",        "build", "fails",   "because", "meson",  "cannot", "find",    "a",
  "dependency", "on",    "arm64",   "so",      "we",     "should", "pin",     "version",
  "and",        "retry", "test",    "list",    "view",   "model",  "page",    "query",
  "index",      "store", "session", "import",  "commit", "branch", "diff",    "function",
  "returns",    "error", "when",    "called",  "with",   "NULL",   "pointer", "fixed",
};

static const char *const tools[] = { "Bash", "Read", "Edit", "Grep", "Write", "Glob" };

/* A small, fast, reproducible generator (xorshift64*): the same store every time. */
static guint64
next_random (guint64 *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 2685821657736338717ULL;
}

static void
append_words (GString *text,
              guint64 *state,
              guint    n_words)
{
  for (guint i = 0; i < n_words; i++)
    {
      if (i > 0)
        g_string_append_c (text, ' ');
      g_string_append (text, words[next_random (state) % G_N_ELEMENTS (words)]);
    }
}

static void
exec_or_die (sqlite3    *db,
             const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static sqlite3_stmt *
prepare_or_die (sqlite3    *db,
                const char *sql)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  return stmt;
}

static void
step_or_die (sqlite3      *db,
             sqlite3_stmt *stmt)
{
  if (sqlite3_step (stmt) != SQLITE_DONE)
    g_error ("insert: %s", sqlite3_errmsg (db));
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

static char *
make_uuid (guint64 *state)
{
  guint64 a = next_random (state), b = next_random (state);
  guint64 node = b & G_GUINT64_CONSTANT (0xffffffffffff);

  return g_strdup_printf ("%08x-%04x-4%03x-%04x-%012" G_GINT64_MODIFIER "x", (guint)(a >> 32),
                          (guint)(a >> 16) & 0xffff, (guint)a & 0xfff,
                          0x8000 | ((guint)(b >> 48) & 0x3fff), node);
}

typedef struct
{
  sqlite3      *db;
  sqlite3_stmt *session;
  sqlite3_stmt *message;
  sqlite3_stmt *event;
  guint64       random;
  gint64        now;
  guint64       n_records;
} Writer;

/* One session of @n_items records: prompts and replies, with tool calls and their results in
 * between, as Claude Code sessions go. */
static void
write_session (Writer     *w,
               guint       index,
               guint       n_sessions,
               guint       n_items,
               const char *title_prefix,
               char      **uuid_out)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *uuid = make_uuid (&w->random);
  g_autofree char *source_id = make_uuid (&w->random);
  g_autofree char *title = NULL;
  g_autofree char *source_path = NULL;
  g_autofree char *tools_used = NULL;
  g_autoptr (GDateTime) created = NULL;
  g_autofree char *date = NULL;
  guint            kind = (guint)(next_random (&w->random) % 10);
  const char      *source = kind < 6 ? "claude-code" : kind < 9 ? "codex" : "gemini";
  guint            project = (guint)(next_random (&w->random) % 400);
  /* Newest first: two years of history, the first session the most recent. */
  gint64        updated_at = w->now - (gint64)((double)index / n_sessions * 730 * DAY_MS) - 60000;
  gint64        created_at = updated_at - (gint64)(next_random (&w->random) % (6 * 3600)) * 1000;
  guint         n_messages = 0, n_events = 0, n_calls = 0, n_user = 0, n_assistant = 0;
  sqlite3_int64 session_id;

  created = g_date_time_new_from_unix_utc (created_at / 1000);
  date = g_date_time_format (created, "%Y-%m-%d");
  title = g_strdup_printf ("%s%s %u - %s", title_prefix,
                           topics[next_random (&w->random) % G_N_ELEMENTS (topics)], index, date);
  source_path = g_strdup_printf ("/home/ada/.claude/projects/-home-ada-src-project%u/%s.jsonl",
                                 project, source_id);

  /* The counts are written after the records; insert the row first for its id. */
  sqlite3_bind_text (w->session, 1, uuid, -1, SQLITE_STATIC);
  sqlite3_bind_text (w->session, 2, title, -1, SQLITE_STATIC);
  sqlite3_bind_text (w->session, 3, source, -1, SQLITE_STATIC);
  sqlite3_bind_text (w->session, 4, source_path, -1, SQLITE_STATIC);
  sqlite3_bind_text (w->session, 5, source_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (w->session, 6, project + 1);
  sqlite3_bind_int64 (w->session, 7, created_at);
  sqlite3_bind_int64 (w->session, 8, updated_at);
  step_or_die (w->db, w->session);
  session_id = sqlite3_last_insert_rowid (w->db);

  for (guint seq = 0; seq < n_items; seq++)
    {
      gint64 at = created_at + (gint64)seq * 1000;
      guint  step = seq % 5;

      g_string_truncate (text, 0);
      if (step == 0 || step == 3)
        {
          const char *role = step == 0 ? "user" : "assistant";

          append_words (text, &w->random, 8 + next_random (&w->random) % 40);
          sqlite3_bind_int64 (w->message, 1, session_id);
          sqlite3_bind_int64 (w->message, 2, seq);
          sqlite3_bind_text (w->message, 3, role, -1, SQLITE_STATIC);
          sqlite3_bind_int64 (w->message, 4, at);
          sqlite3_bind_text (w->message, 5, text->str, (int)text->len, SQLITE_STATIC);
          step_or_die (w->db, w->message);
          n_messages++;
          if (step == 0)
            n_user++;
          else
            n_assistant++;
        }
      else
        {
          g_autofree char *call_id = g_strdup_printf ("call_%u_%u", index, seq / 5);
          const char      *tool = tools[(seq / 5) % G_N_ELEMENTS (tools)];
          gboolean         is_call = step == 1;

          append_words (text, &w->random, is_call ? 6 : 20 + next_random (&w->random) % 60);
          sqlite3_bind_int64 (w->event, 1, session_id);
          sqlite3_bind_int64 (w->event, 2, seq);
          sqlite3_bind_text (w->event, 3,
                             is_call     ? "tool_call"
                             : step == 2 ? "tool_result"
                                         : "reasoning",
                             -1, SQLITE_STATIC);
          if (step != 4)
            {
              sqlite3_bind_text (w->event, 4, call_id, -1, SQLITE_TRANSIENT);
              sqlite3_bind_text (w->event, 5, tool, -1, SQLITE_STATIC);
            }
          sqlite3_bind_int64 (w->event, 6, at);
          sqlite3_bind_text (w->event, 7, text->str, (int)text->len, SQLITE_STATIC);
          sqlite3_bind_int64 (w->event, 8, (sqlite3_int64)text->len);
          step_or_die (w->db, w->event);
          n_events++;
          n_calls += is_call;
        }
    }

  tools_used = g_strdup_printf ("{\"Bash\": %u, \"Read\": %u}", n_calls / 2 + n_calls % 2,
                                n_calls / 2);
  {
    g_autofree char *sql = g_strdup_printf (
      "UPDATE sessions SET message_count = %u, event_count = %u, n_user_messages = %u,"
      " n_assistant_messages = %u, n_tool_calls = %u, n_tool_results = %u, tools_used = '%s'"
      " WHERE id = %" G_GINT64_FORMAT,
      n_messages, n_events, n_user, n_assistant, n_calls, n_calls, tools_used, (gint64)session_id);

    exec_or_die (w->db, sql);
  }

  w->n_records += n_items;
  if (uuid_out != NULL)
    *uuid_out = g_steal_pointer (&uuid);
}

/* Writes the store at @path: the schema by the core, the rows straight with SQLite. The search
 * index triggers are dropped for the bulk insert and put back afterwards, empty. */
static void
generate_store (const char *path,
                guint       n_sessions,
                guint64     n_records,
                guint       big_items)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) triggers = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *big_uuid = NULL;
  sqlite3_stmt    *stmt;
  Writer           w = { 0 };
  gint64           started = g_get_monotonic_time ();
  guint64          budget;

  store = loom_store_open (path, &error);
  if (store == NULL)
    g_error ("%s", error->message);
  g_clear_object (&store);

  if (sqlite3_open (path, &w.db) != SQLITE_OK)
    g_error ("%s: %s", path, sqlite3_errmsg (w.db));
  exec_or_die (w.db, "PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;");

  stmt = prepare_or_die (w.db, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
                               " AND sql LIKE '%search_index%'");
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_autofree char *drop = g_strdup_printf ("DROP TRIGGER %s", sqlite3_column_text (stmt, 0));

      g_ptr_array_add (triggers, g_strdup ((const char *)sqlite3_column_text (stmt, 1)));
      exec_or_die (w.db, drop);
    }
  sqlite3_finalize (stmt);

  exec_or_die (w.db, "BEGIN");
  stmt = prepare_or_die (w.db, "INSERT INTO projects (path, name) VALUES (?1, ?2)");
  for (guint i = 0; i < 400; i++)
    {
      g_autofree char *name = g_strdup_printf ("project%u", i);
      g_autofree char *project_path = g_strdup_printf ("/home/ada/src/%s", name);

      sqlite3_bind_text (stmt, 1, project_path, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, name, -1, SQLITE_STATIC);
      step_or_die (w.db, stmt);
    }
  sqlite3_finalize (stmt);

  w.session = prepare_or_die (w.db,
                              "INSERT INTO sessions (uuid, title, source, source_path,"
                              " source_session_id, project_id, created_at, updated_at, model,"
                              " git_branch, cwd)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'claude-opus-4', 'main',"
                              " '/home/ada/src/project' || (?6 - 1))");
  w.message = prepare_or_die (w.db, "INSERT INTO messages (session_id, seq, role, created_at, text)"
                                    " VALUES (?1, ?2, ?3, ?4, ?5)");
  w.event = prepare_or_die (w.db, "INSERT INTO events (session_id, seq, kind, call_id, tool_name,"
                                  " created_at, text, payload_size) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                                  " ?7, ?8)");
  w.random = 0x9e3779b97f4a7c15ULL;
  w.now = g_get_real_time () / 1000;

  /* The long session is the newest, at the top of the list. */
  write_session (&w, 0, n_sessions, big_items, "Long session: ", &big_uuid);
  budget = n_records > big_items ? n_records - big_items : 0;
  for (guint i = 1; i < n_sessions; i++)
    {
      guint64 left = budget > w.n_records - big_items ? budget - (w.n_records - big_items) : 0;
      guint   mean = (guint)MAX (1, left / (n_sessions - i));
      guint   n_items = (guint)MAX (1, (gint64)mean - 12 + (gint64)(next_random (&w.random) % 25));

      write_session (&w, i, n_sessions, MIN (n_items, 2000), "", NULL);
      if (i % 10000 == 0)
        g_printerr ("  %u sessions, %" G_GUINT64_FORMAT " records\n", i, w.n_records);
    }

  sqlite3_finalize (w.session);
  sqlite3_finalize (w.message);
  sqlite3_finalize (w.event);

  for (guint i = 0; i < triggers->len; i++)
    exec_or_die (w.db, triggers->pdata[i]);

  /* The uuid of the long session, for the children. */
  exec_or_die (w.db, "CREATE TABLE bench_info (key TEXT PRIMARY KEY, value TEXT)");
  {
    g_autofree char *sql = g_strdup_printf ("INSERT INTO bench_info VALUES ('big', '%s'),"
                                            " ('records', '%" G_GUINT64_FORMAT "')",
                                            big_uuid, w.n_records);

    exec_or_die (w.db, sql);
  }
  exec_or_die (w.db, "COMMIT");
  exec_or_die (w.db, "PRAGMA wal_checkpoint(TRUNCATE); ANALYZE;");
  sqlite3_close (w.db);

  g_printerr ("  wrote %u sessions, %" G_GUINT64_FORMAT " records in %.1f s\n", n_sessions,
              w.n_records, (g_get_monotonic_time () - started) / 1e6);
}

/* The long session's uuid and the record count of a store written here, or NULL. */
static char *
read_bench_info (const char *path,
                 const char *key)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char         *value = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS) ||
      sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      return NULL;
    }
  if (sqlite3_prepare_v2 (db, "SELECT value FROM bench_info WHERE key = ?", -1, &stmt, NULL) ==
      SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) == SQLITE_ROW)
        value = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

static guint
count_sessions (const char *path)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint         n = 0;

  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2 (db, "SELECT count(*) FROM sessions", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    n = (guint)sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return n;
}

/* ——— The child: the real application ——— */

typedef struct
{
  gint64           started;
  LoomApplication *app;
  GtkWidget       *window;
  GdkFrameClock   *frame_clock;
  const char      *big_uuid; /* NULL: the empty store */

  double       activated_ms;
  double       first_frame_ms;
  guint64      rss_first_kb;
  guint64      rss_settled_kb;
  double       show_ms;
  const char  *show_how;
  double       core_show_ms;
  double       scroll_ms;
  LoomSession *middle; /* the session the scroll goes to */

  /* What the current phase waits for, checked at every paint. */
  gboolean (*done) (gpointer data);
  gint64     phase_started;
  double    *phase_result;
  GMainLoop *phase_loop;
} Child;

static guint64
read_status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char      *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, field)) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen (field) + 1, NULL, 10);
}

static void
collect (GtkWidget *root,
         GType      type,
         GPtrArray *found)
{
  if (!gtk_widget_get_mapped (root) || !gtk_widget_get_child_visible (root))
    return;
  if (g_type_is_a (G_OBJECT_TYPE (root), type))
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, type, found);
}

static GtkWidget *
find_first (GtkWidget *root,
            GType      type)
{
  g_autoptr (GPtrArray) found = g_ptr_array_new ();

  if (type == 0)
    return NULL;
  collect (root, type, found);
  return found->len > 0 ? found->pdata[0] : NULL;
}

/* The list view of sessions, whichever widget holds it. */
static GtkListView *
find_session_list_view (GtkWidget *window)
{
  g_autoptr (GPtrArray) views = g_ptr_array_new ();

  collect (window, GTK_TYPE_LIST_VIEW, views);
  for (guint i = 0; i < views->len; i++)
    {
      GtkSelectionModel *model = gtk_list_view_get_model (views->pdata[i]);
      g_autoptr (GObject) first = NULL;

      /* Selection models of GTK 4.8 report G_TYPE_OBJECT as their item type: look at one. */
      if (model != NULL && (first = g_list_model_get_item (G_LIST_MODEL (model), 0)) != NULL &&
          LOOM_IS_SESSION (first))
        return views->pdata[i];
    }
  return NULL;
}

/* Rows build their content once on screen (loom-timeline-row.c, loom-session-row.c): a row
 * counts as shown only with its content, not as the empty widget that holds its place. */
static gboolean
row_is_built (GtkWidget *row)
{
  return gtk_widget_get_first_child (row) != NULL;
}

static gboolean
timeline_has_rows (gpointer data)
{
  Child     *child = data;
  GtkWidget *timeline = find_first (child->window, g_type_from_name ("LoomTimelineView"));
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  GType      row_type = g_type_from_name ("LoomTimelineRow");
  GtkWidget *list;

  if (timeline == NULL || (list = find_first (timeline, GTK_TYPE_LIST_VIEW)) == NULL)
    return FALSE;

  /* A build without LoomTimelineRow: any row the list shows. */
  if (row_type == 0)
    {
      for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL;
           row = gtk_widget_get_next_sibling (row))
        {
          if (gtk_widget_get_mapped (row) && gtk_widget_get_child_visible (row))
            return TRUE;
        }
      return FALSE;
    }

  collect (list, row_type, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      if (row_is_built (rows->pdata[i]))
        return TRUE;
    }
  return FALSE;
}

static gboolean
always_done (gpointer data)
{
  return TRUE;
}

static void
on_after_paint_cb (GdkFrameClock *frame_clock,
                   Child         *child)
{
  if (child->started != 0)
    {
      /* The very first frame. */
      child->first_frame_ms = (g_get_monotonic_time () - child->started) / 1000.0;
      child->rss_first_kb = read_status_kb ("VmRSS:");
      child->started = 0;
    }

  if (child->phase_loop != NULL && child->done (child))
    {
      *child->phase_result = (g_get_monotonic_time () - child->phase_started) / 1000.0;
      g_main_loop_quit (child->phase_loop);
    }
}

static gboolean
phase_timeout_cb (gpointer data)
{
  Child *child = data;

  *child->phase_result = -1;
  g_main_loop_quit (child->phase_loop);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done holds at a paint (after @started), into @result in ms. */
static void
wait_for_paint (Child *child,
                gboolean (*done) (gpointer data),
                gint64  started,
                double *result)
{
  guint timeout = g_timeout_add (WAIT_TIMEOUT_USEC / 1000, phase_timeout_cb, child);

  child->done = done;
  child->phase_started = started;
  child->phase_result = result;
  child->phase_loop = g_main_loop_new (NULL, FALSE);
  gtk_widget_queue_draw (child->window);
  g_main_loop_run (child->phase_loop);
  g_clear_pointer (&child->phase_loop, g_main_loop_unref);
  if (*result >= 0)
    g_source_remove (timeout);
}

static void
sleep_in_loop (guint ms)
{
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_timeout_add_once (ms, (GSourceOnceFunc)g_main_loop_quit, loop);
  g_main_loop_run (loop);
}

static void
measure_long_session (Child *child)
{
  LoomStore   *store = loom_application_get_store (child->app);
  GtkWidget   *list = find_first (child->window, LOOM_TYPE_SESSION_LIST);
  GtkListView *view = find_session_list_view (child->window);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  gint64 started;

  /* The core alone: the timeline's model and the items a view binds first. */
  session = loom_store_get_session (store, child->big_uuid, &error);
  if (session != NULL)
    {
      g_autoptr (LoomTimelineModel) model = NULL;

      started = g_get_monotonic_time ();
      model = loom_timeline_model_new (store, loom_session_get_id (session), &error);
      for (guint i = 0; model != NULL && i < 50; i++)
        {
          g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (model), i);
        }
      child->core_show_ms = (g_get_monotonic_time () - started) / 1000.0;
    }

  /* The window: select the session as a click does, and wait for the timeline's rows. */
  child->show_how = "n/a";
  started = g_get_monotonic_time ();
  if (list != NULL)
    {
      if (!loom_session_list_select_uuid (LOOM_SESSION_LIST (list), child->big_uuid))
        return;
    }
  else if (view != NULL)
    {
      GtkSelectionModel *model = gtk_list_view_get_model (view);
      guint              n = MIN (g_list_model_get_n_items (G_LIST_MODEL (model)), 200);
      guint              position = G_MAXUINT;

      for (guint i = 0; i < n && position == G_MAXUINT; i++)
        {
          g_autoptr (LoomSession) item = g_list_model_get_item (G_LIST_MODEL (model), i);

          if (g_strcmp0 (loom_session_get_uuid (item), child->big_uuid) == 0)
            position = i;
        }
      if (position == G_MAXUINT)
        return;
      gtk_selection_model_select_item (model, position, TRUE);
    }
  else
    {
      return;
    }

  if (g_type_from_name ("LoomTimelineView") == 0)
    {
      /* No timeline in this build: time the paint that follows the selection. */
      child->show_how = "selection only (no LoomTimelineView in this build)";
      wait_for_paint (child, always_done, started, &child->show_ms);
      return;
    }

  child->show_how = "timeline rows painted";
  wait_for_paint (child, timeline_has_rows, started, &child->show_ms);
}

/* The session row that shows child->middle, built. */
static gboolean
middle_row_shown (gpointer data)
{
  Child *child = data;
  g_autoptr (GPtrArray) rows = g_ptr_array_new ();

  collect (child->window, LOOM_TYPE_SESSION_ROW, rows);
  for (guint i = 0; i < rows->len; i++)
    {
      if (loom_session_row_get_session (rows->pdata[i]) == child->middle &&
          row_is_built (rows->pdata[i]))
        return TRUE;
    }
  return FALSE;
}

static void
measure_scroll (Child *child)
{
  GtkListView *view = find_session_list_view (child->window);
  GListModel  *model;
  guint        n;
  gint64       started;

  if (view == NULL)
    return;

  model = G_LIST_MODEL (gtk_list_view_get_model (view));
  n = g_list_model_get_n_items (model);
  started = g_get_monotonic_time ();
  gtk_widget_activate_action (GTK_WIDGET (view), "list.scroll-to-item", "u", n / 2);
  /* Read after the scroll, as the row reads it; the model hands out one object per session. */
  child->middle = g_list_model_get_item (model, n / 2);
  wait_for_paint (child, middle_row_shown, started, &child->scroll_ms);
  g_clear_object (&child->middle);
}

static gboolean
run_phases_cb (gpointer data)
{
  Child *child = data;

  /* Let the first frame's follow-ups (the rows read, the sidebar counted) settle. */
  sleep_in_loop (1000);
  child->rss_settled_kb = read_status_kb ("VmRSS:");

  if (child->big_uuid != NULL)
    {
      measure_long_session (child);
      sleep_in_loop (300);
      measure_scroll (child);
    }

  gtk_window_destroy (GTK_WINDOW (child->window));
  return G_SOURCE_REMOVE;
}

static void
on_activate_cb (GApplication *app,
                Child        *child)
{
  /* The window is built and has read the store: what is left is layout and drawing. */
  child->activated_ms = (g_get_monotonic_time () - child->started) / 1000.0;
  child->window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert (child->window != NULL);

  gtk_widget_realize (child->window);
  child->frame_clock = gtk_widget_get_frame_clock (child->window);
  g_signal_connect (child->frame_clock, "after-paint", G_CALLBACK (on_after_paint_cb), child);
}

static gboolean
first_frame_then_run_cb (gpointer data)
{
  Child *child = data;

  if (child->first_frame_ms == 0)
    return G_SOURCE_CONTINUE;
  g_idle_add (run_phases_cb, child);
  return G_SOURCE_REMOVE;
}

static int
run_child (const char *big_uuid)
{
  Child child = { 0 };
  int   status;

  child.big_uuid = big_uuid;
  child.show_ms = child.scroll_ms = child.core_show_ms = -1;
  child.app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (child.app, "activate", G_CALLBACK (on_activate_cb), &child);
  g_timeout_add (10, first_frame_then_run_cb, &child);

  child.started = g_get_monotonic_time ();
  status = g_application_run (G_APPLICATION (child.app), 0, NULL);

  /* The frame clock went with the window, and the handler with it. */
  printf ("activated_ms=%.1f\n", child.activated_ms);
  printf ("first_frame_ms=%.1f\n", child.first_frame_ms);
  printf ("rss_first_kb=%" G_GUINT64_FORMAT "\n", child.rss_first_kb);
  printf ("rss_settled_kb=%" G_GUINT64_FORMAT "\n", child.rss_settled_kb);
  printf ("hwm_kb=%" G_GUINT64_FORMAT "\n", read_status_kb ("VmHWM:"));
  if (big_uuid != NULL)
    {
      printf ("show_ms=%.1f\n", child.show_ms);
      printf ("show_how=%s\n", child.show_how);
      printf ("core_show_ms=%.1f\n", child.core_show_ms);
      printf ("scroll_ms=%.1f\n", child.scroll_ms);
    }
  fflush (stdout);

  g_object_unref (child.app);
  return status;
}

/* ——— The parent ——— */

typedef struct
{
  GArray *activated_ms;
  GArray *first_frame_ms;
  GArray *rss_first_mb;
  GArray *rss_settled_mb;
  GArray *hwm_mb;
  GArray *show_ms;
  GArray *core_show_ms;
  GArray *scroll_ms;
  char   *show_how;
} Runs;

static void
runs_init (Runs *runs)
{
  runs->activated_ms = g_array_new (FALSE, FALSE, sizeof (double));
  runs->first_frame_ms = g_array_new (FALSE, FALSE, sizeof (double));
  runs->rss_first_mb = g_array_new (FALSE, FALSE, sizeof (double));
  runs->rss_settled_mb = g_array_new (FALSE, FALSE, sizeof (double));
  runs->hwm_mb = g_array_new (FALSE, FALSE, sizeof (double));
  runs->show_ms = g_array_new (FALSE, FALSE, sizeof (double));
  runs->core_show_ms = g_array_new (FALSE, FALSE, sizeof (double));
  runs->scroll_ms = g_array_new (FALSE, FALSE, sizeof (double));
  runs->show_how = NULL;
}

static void
runs_clear (Runs *runs)
{
  g_array_unref (runs->activated_ms);
  g_array_unref (runs->first_frame_ms);
  g_array_unref (runs->rss_first_mb);
  g_array_unref (runs->rss_settled_mb);
  g_array_unref (runs->hwm_mb);
  g_array_unref (runs->show_ms);
  g_array_unref (runs->core_show_ms);
  g_array_unref (runs->scroll_ms);
  g_free (runs->show_how);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
median (GArray *values)
{
  g_autoptr (GArray) sorted = NULL;

  if (values->len == 0)
    return NAN;
  sorted = g_array_copy (values);
  g_array_sort (sorted, compare_doubles);
  if (sorted->len % 2 == 1)
    return g_array_index (sorted, double, sorted->len / 2);
  return (g_array_index (sorted, double, sorted->len / 2 - 1) +
          g_array_index (sorted, double, sorted->len / 2)) /
         2;
}

static void
add_value (GArray     *array,
           const char *text,
           double      scale)
{
  double value = g_ascii_strtod (text, NULL) * scale;

  g_array_append_val (array, value);
}

/* The environment of a child: the application must neither see the person's agent history nor
 * their settings. */
static GStrv
child_environ (const char *home,
               const char *db_path)
{
  GStrv env = g_get_environ ();

  env = g_environ_setenv (env, "HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", home, TRUE);
  env = g_environ_setenv (env, "LOOM_DB", db_path, TRUE);
  env = g_environ_setenv (env, "GSETTINGS_BACKEND", "memory", TRUE);
  env = g_environ_setenv (env, "GSETTINGS_SCHEMA_DIR", LOOM_BENCH_SCHEMA_DIR, TRUE);
  env = g_environ_setenv (env, "GIO_USE_VFS", "local", TRUE);
  env = g_environ_setenv (env, "NO_AT_BRIDGE", "1", TRUE);
  return env;
}

/* Runs this program as `--child @child` in @env; returns what it printed. */
static char *
run_child_process (const char *self_path,
                   GStrv       env,
                   const char *child)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  g_autofree char *dbus_run_session = NULL;
  char            *out = NULL;
  int              status;

  /* A private session bus, or GLib would start a stray one. */
  if (g_environ_getenv (env, "DBUS_SESSION_BUS_ADDRESS") == NULL &&
      (dbus_run_session = g_find_program_in_path ("dbus-run-session")) != NULL)
    {
      g_ptr_array_add (argv, (char *)"dbus-run-session");
      g_ptr_array_add (argv, (char *)"--");
    }
  g_ptr_array_add (argv, (char *)self_path);
  g_ptr_array_add (argv, (char *)"--child");
  g_ptr_array_add (argv, (char *)child);
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_sync (NULL, (char **)argv->pdata, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                     &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("The application failed: %s\n%s", error->message, err != NULL ? err : "");
  return out;
}

static void
run_one (const char *self_path,
         const char *home,
         const char *db_path,
         const char *big_uuid,
         Runs       *runs)
{
  g_auto (GStrv) env = child_environ (home, db_path);
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;

  out = run_child_process (self_path, env, big_uuid != NULL ? big_uuid : "empty");
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *eq = strchr (lines[i], '=');

      if (eq == NULL)
        continue;
      *eq = '\0';
      if (g_str_equal (lines[i], "activated_ms"))
        add_value (runs->activated_ms, eq + 1, 1);
      else if (g_str_equal (lines[i], "first_frame_ms"))
        add_value (runs->first_frame_ms, eq + 1, 1);
      else if (g_str_equal (lines[i], "rss_first_kb"))
        add_value (runs->rss_first_mb, eq + 1, 1 / 1024.0);
      else if (g_str_equal (lines[i], "rss_settled_kb"))
        add_value (runs->rss_settled_mb, eq + 1, 1 / 1024.0);
      else if (g_str_equal (lines[i], "hwm_kb"))
        add_value (runs->hwm_mb, eq + 1, 1 / 1024.0);
      else if (g_str_equal (lines[i], "show_ms"))
        add_value (runs->show_ms, eq + 1, 1);
      else if (g_str_equal (lines[i], "core_show_ms"))
        add_value (runs->core_show_ms, eq + 1, 1);
      else if (g_str_equal (lines[i], "scroll_ms"))
        add_value (runs->scroll_ms, eq + 1, 1);
      else if (g_str_equal (lines[i], "show_how"))
        {
          g_free (runs->show_how);
          runs->show_how = g_strdup (eq + 1);
        }
    }
}

/* A negative value is a measurement that could not be made (or timed out). */
static void
print_values (const char *what,
              GArray     *values,
              const char *unit)
{
  g_autoptr (GString) all = g_string_new (NULL);
  double m = median (values);

  for (guint i = 0; i < values->len; i++)
    {
      double value = g_array_index (values, double, i);

      if (value < 0)
        g_string_append_printf (all, "%sn/a", i > 0 ? ", " : "");
      else
        g_string_append_printf (all, "%s%.1f", i > 0 ? ", " : "", value);
    }
  if (m < 0 || isnan (m))
    printf ("  %-36s %8s %-3s (runs: %s)\n", what, "n/a", "", all->str);
  else
    printf ("  %-36s %8.1f %-3s (runs: %s)\n", what, m, unit, all->str);
}

/* ——— Watching ——— */

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

/* One run of the watch child, in a folder of its own under @store_dir: its figures go into
 * @values (key → GArray of doubles). */
static void
run_watch (const char *self_path,
           const char *store_dir,
           GHashTable *values)
{
  g_autofree char *dir = g_build_filename (store_dir, "watch", NULL);
  g_autofree char *home = g_build_filename (dir, "home", NULL);
  g_autofree char *db_path = g_build_filename (dir, "history.db", NULL);
  g_autofree char *claude = g_build_filename (dir, "claude", NULL);
  g_autofree char *codex = g_build_filename (dir, "codex", NULL);
  g_autofree char *gemini = g_build_filename (dir, "gemini", NULL);
  g_auto (GStrv) env = NULL;
  g_auto (GStrv) lines = NULL;
  g_autofree char *out = NULL;

  remove_tree (dir);
  g_mkdir_with_parents (home, 0700);
  env = child_environ (home, db_path);
  /* Claude Code's folder is the child's; the other agents' do not exist. */
  env = g_environ_setenv (env, "CLAUDE_CONFIG_DIR", claude, TRUE);
  env = g_environ_setenv (env, "CODEX_HOME", codex, TRUE);
  env = g_environ_setenv (env, "GEMINI_CLI_HOME", gemini, TRUE);
  out = run_child_process (self_path, env, "watch");
  remove_tree (dir);

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char   *eq = strchr (lines[i], '=');
      GArray *array;

      if (eq == NULL)
        continue;
      *eq = '\0';
      if (!(array = g_hash_table_lookup (values, lines[i])))
        {
          array = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (values, g_strdup (lines[i]), array);
        }
      add_value (array, eq + 1, 1);
    }
}

static GArray *
watch_values (GHashTable *values,
              const char *key)
{
  GArray *array = g_hash_table_lookup (values, key);

  if (array == NULL)
    {
      array = g_array_new (FALSE, FALSE, sizeof (double));
      g_hash_table_insert (values, g_strdup (key), array);
    }
  return array;
}

static void
print_target (const char *what,
              double      value,
              double      target)
{
  if (value < 0 || isnan (value))
    printf ("  %-36s   n/a    (target < %.0f ms) NOT MEASURED\n", what, target);
  else
    printf ("  %-36s %7.1f ms (target < %.0f ms) %s\n", what, value, target,
            value < target ? "met" : "MISSED");
}

static void
measure_watch (const char *self_path,
               const char *store_dir,
               int         n_runs)
{
  g_autoptr (GHashTable)
    values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
  GArray *before_end;
  guint   n_before_end = 0;

  for (int i = 0; i < n_runs; i++)
    run_watch (self_path, store_dir, values);

  printf ("\nWatching Claude Code's folder (%d runs, medians; a long import of %u sessions, "
          "%u MB)\n",
          n_runs, 150, 90);
  print_values ("new session listed", watch_values (values, "new_ms"), "ms");
  print_values ("appended prompt counted", watch_values (values, "append_ms"), "ms");
  print_values ("deleted file marked", watch_values (values, "delete_ms"), "ms");
  print_values ("long import: pass started", watch_values (values, "pass_start_ms"), "ms");
  print_values ("long import: pass", watch_values (values, "pass_ms"), "ms");
  print_values ("long import: longest UI pause", watch_values (values, "max_gap_ms"), "ms");
  print_values ("long import: UI pulses (5 ms)", watch_values (values, "pulses"), "");
  print_values ("session written meanwhile listed", watch_values (values, "during_ms"), "ms");
  before_end = watch_values (values, "during_before_end");
  for (guint i = 0; i < before_end->len; i++)
    n_before_end += g_array_index (before_end, double, i) > 0;
  printf ("  %-36s %u of %u runs\n", "  listed before the pass ended", n_before_end,
          before_end->len);

  printf ("\nTargets (watching; reported, not checked)\n");
  print_target ("longest UI pause, long import", median (watch_values (values, "max_gap_ms")),
                TARGET_PAUSE_MS);
  print_target ("new session listed", median (watch_values (values, "new_ms")), TARGET_LISTED_MS);
  print_target ("appended prompt counted", median (watch_values (values, "append_ms")),
                TARGET_LISTED_MS);
  print_target ("deleted file marked", median (watch_values (values, "delete_ms")),
                TARGET_LISTED_MS);
  print_target ("session written during the import", median (watch_values (values, "during_ms")),
                TARGET_LISTED_MS);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *child = NULL;
  g_autofree char   *store_dir = NULL;
  g_autofree char   *self_path = NULL;
  g_autofree char   *full_path = NULL;
  g_autofree char   *empty_path = NULL;
  g_autofree char   *home = NULL;
  g_autofree char   *big_uuid = NULL;
  g_autofree char   *records = NULL;
  gboolean           fresh = FALSE, watch_only = FALSE, no_watch = FALSE;
  int                n_runs = 3, n_sessions = 100000, n_records = 2000000, big_items = 20000;
  const GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &n_runs, "Runs of each measurement (3)", "N" },
    { "store-dir", 0, 0, G_OPTION_ARG_FILENAME, &store_dir,
      "Where the stores are kept between runs (default: $TMPDIR/loom-bench-window)", "DIR" },
    { "fresh", 0, 0, G_OPTION_ARG_NONE, &fresh, "Write the full store again", NULL },
    { "sessions", 0, 0, G_OPTION_ARG_INT, &n_sessions, "Sessions in the full store", "N" },
    { "records", 0, 0, G_OPTION_ARG_INT, &n_records, "Messages and events in it", "N" },
    { "big-items", 0, 0, G_OPTION_ARG_INT, &big_items, "Items of the long session", "N" },
    { "watch-only", 0, 0, G_OPTION_ARG_NONE, &watch_only,
      "Only the figures of the window following an agent live", NULL },
    { "no-watch", 0, 0, G_OPTION_ARG_NONE, &no_watch,
      "Not the figures of the window following an agent live", NULL },
    { "child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &child, NULL, NULL },
    { NULL }
  };
  Runs     empty_runs, full_runs;
  double   ratio, extra_mb, show;
  gboolean ok = TRUE;

  loom_core_init ();

  setlocale (LC_ALL, "");
  context = g_option_context_new ("— the main window on a long history");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (child != NULL && g_str_equal (child, "watch"))
    return loom_bench_watch_child ();
  if (child != NULL)
    return run_child (g_str_equal (child, "empty") ? NULL : child);

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_printerr ("No display: run it as `xvfb-run -a %s`\n", argv[0]);
      return 2;
    }

  if (store_dir == NULL)
    store_dir = g_build_filename (g_get_tmp_dir (), "loom-bench-window", NULL);
  g_mkdir_with_parents (store_dir, 0700);
  full_path = g_build_filename (store_dir, "full.db", NULL);
  empty_path = g_build_filename (store_dir, "empty.db", NULL);
  home = g_build_filename (store_dir, "home", NULL);
  g_mkdir_with_parents (home, 0700);
  self_path = g_file_read_link ("/proc/self/exe", NULL);

  if (watch_only)
    {
      measure_watch (self_path, store_dir, n_runs);
      return 0;
    }

  big_uuid = read_bench_info (full_path, "big");
  if (fresh || big_uuid == NULL || count_sessions (full_path) != (guint)n_sessions)
    {
      g_autofree char *wal = g_strconcat (full_path, "-wal", NULL);
      g_autofree char *shm = g_strconcat (full_path, "-shm", NULL);

      g_printerr ("Writing %d sessions and %d records to %s…\n", n_sessions, n_records, full_path);
      g_remove (full_path);
      g_remove (wal);
      g_remove (shm);
      generate_store (full_path, n_sessions, n_records, big_items);
      g_free (big_uuid);
      big_uuid = read_bench_info (full_path, "big");
    }
  records = read_bench_info (full_path, "records");

  /* The empty store is made anew each time, by the core, as a first start makes it. */
  {
    g_autofree char *wal = g_strconcat (empty_path, "-wal", NULL);
    g_autofree char *shm = g_strconcat (empty_path, "-shm", NULL);
    g_autoptr (LoomStore) store = NULL;

    g_remove (empty_path);
    g_remove (wal);
    g_remove (shm);
    if (!(store = loom_store_open (empty_path, &error)))
      g_error ("%s", error->message);
  }

  runs_init (&empty_runs);
  runs_init (&full_runs);
  /* One untimed start of each warms the page cache and the font caches. */
  run_one (self_path, home, empty_path, NULL, &empty_runs);
  run_one (self_path, home, full_path, big_uuid, &full_runs);
  runs_clear (&empty_runs);
  runs_clear (&full_runs);
  runs_init (&empty_runs);
  runs_init (&full_runs);
  for (int i = 0; i < n_runs; i++)
    {
      run_one (self_path, home, empty_path, NULL, &empty_runs);
      run_one (self_path, home, full_path, big_uuid, &full_runs);
    }

  ratio = median (full_runs.first_frame_ms) / median (empty_runs.first_frame_ms);
  extra_mb = median (full_runs.rss_settled_mb) - median (empty_runs.rss_settled_mb);
  show = median (full_runs.show_ms);

  printf ("Main window benchmark (%d runs each, medians; GSK_RENDERER=%s)\n", n_runs,
          g_getenv ("GSK_RENDERER") != NULL ? g_getenv ("GSK_RENDERER") : "default");
  printf ("Full store: %d sessions, %s records, long session of %d items (%s)\n\n", n_sessions,
          records != NULL ? records : "?", big_items, full_path);
  printf ("Empty store\n");
  print_values ("window built (\"activate\" done)", empty_runs.activated_ms, "ms");
  print_values ("first frame", empty_runs.first_frame_ms, "ms");
  print_values ("RSS at first frame", empty_runs.rss_first_mb, "MB");
  print_values ("RSS 1 s later", empty_runs.rss_settled_mb, "MB");
  print_values ("peak RSS", empty_runs.hwm_mb, "MB");
  printf ("Full store\n");
  print_values ("window built (\"activate\" done)", full_runs.activated_ms, "ms");
  print_values ("first frame", full_runs.first_frame_ms, "ms");
  print_values ("RSS at first frame", full_runs.rss_first_mb, "MB");
  print_values ("RSS 1 s later", full_runs.rss_settled_mb, "MB");
  print_values ("peak RSS", full_runs.hwm_mb, "MB");
  print_values ("long session shown", full_runs.show_ms, "ms");
  printf ("  %-36s %s\n", "  measured as", full_runs.show_how != NULL ? full_runs.show_how : "?");
  print_values ("long session, core model + 50 items", full_runs.core_show_ms, "ms");
  print_values ("scroll to the middle of the list", full_runs.scroll_ms, "ms");

  printf ("\nTargets\n");
  printf ("  first frame, full / empty          %5.2f×   (target ≤ %.1f×)   %s\n", ratio,
          TARGET_FIRST_FRAME_RATIO, ratio <= TARGET_FIRST_FRAME_RATIO ? "met" : "MISSED");
  printf ("  memory, full − empty (1 s later)   %5.1f MB (target < %.0f MB) %s\n", extra_mb,
          TARGET_EXTRA_MEMORY_MB, extra_mb < TARGET_EXTRA_MEMORY_MB ? "met" : "MISSED");
  if (show >= 0)
    printf ("  long session shown                 %5.1f ms (target < %.0f ms) %s\n", show,
            TARGET_SHOW_MS, show < TARGET_SHOW_MS ? "met" : "MISSED");
  else
    printf ("  long session shown                   n/a    (target < %.0f ms) NOT MEASURED\n",
            TARGET_SHOW_MS);
  ok = ratio <= TARGET_FIRST_FRAME_RATIO && extra_mb < TARGET_EXTRA_MEMORY_MB && show >= 0 &&
       show < TARGET_SHOW_MS;

  if (!no_watch)
    measure_watch (self_path, store_dir, n_runs);

  runs_clear (&empty_runs);
  runs_clear (&full_runs);
  return ok ? 0 : 1;
}
