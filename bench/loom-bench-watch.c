/* loom-bench-watch.c — the window following Claude Code live: how soon a change shows, and the
 * UI thread's longest pause while a long import runs. Part of loom-bench-window (--watch).
 *
 * The child runs the real application with CLAUDE_CONFIG_DIR in a folder of its own and plays
 * the agent, as tests/app/test-watch.c does; the test checks what happens, this measures how
 * soon:
 *
 *   new / append / delete   from writing a session file (appending to it, deleting it) to the
 *                           main loop turn on which the session list shows it so
 *   long import             150 sessions of 200 prompts of 500 words (90 MB) moved in at once:
 *                           the pass's duration, the longest interval between two turns of a
 *                           5 ms timeout on the UI thread while it ran (the longest pause), and
 *                           how soon a session written during the pass is listed
 *
 * Each figure is printed as key=value for the parent, which prints medians against the targets:
 * the longest pause under 50 ms, each change listed within 2 s. Nothing is asserted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "loom-application.h"
#include "loom-bench-watch.h"
#include "loom-source-watcher.h"

#define GUARD_USEC     (300 * G_USEC_PER_SEC)
#define PULSE_MSEC     5
#define N_BIG_SESSIONS 150
#define N_BIG_PROMPTS  200
#define N_BIG_WORDS    500
#define PROJECT_DIR    "-tmp-proj"
#define NEW_ID         "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e01"
#define DURING_ID      "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e02"

typedef struct
{
  LoomApplication   *app;
  GtkWidget         *window;
  LoomSourceWatcher *watcher;
  char              *claude_dir;
  char              *project;
  char              *staging;

  /* The UI thread's pulse. */
  guint  pulse_id;
  gint64 last_pulse;
  gint64 max_gap;
  guint  n_pulses;

  /* What a wait waits for. */
  const char *session_id;
  gint64      message_count;
  gboolean    missing;
  gint64      listed_at; /* when the last wait ended, monotonic µs, or 0 */
} Watch;

/* ——— Playing Claude Code ——— */

static void
add_user_record (GString    *out,
                 const char *session_id,
                 const char *uuid,
                 const char *parent,
                 const char *prompt)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S.000Z");
  g_autofree char *parent_json = parent != NULL ? g_strdup_printf ("\"%s\"", parent)
                                                : g_strdup ("null");

  g_string_append_printf (out,
                          "{\"parentUuid\":%s,\"isSidechain\":false,\"userType\":\"external\","
                          "\"cwd\":\"/tmp/proj\",\"sessionId\":\"%s\",\"version\":\"2.1.100\","
                          "\"gitBranch\":\"main\",\"type\":\"user\","
                          "\"message\":{\"role\":\"user\",\"content\":\"%s\"},"
                          "\"uuid\":\"%s\",\"timestamp\":\"%s\"}\n",
                          parent_json, session_id, prompt, uuid, stamp);
}

static void
write_file (const char *path,
            GString    *contents)
{
  g_autoptr (GError) error = NULL;

  if (!g_file_set_contents (path, contents->str, contents->len, &error))
    g_error ("%s", error->message);
}

static void
append_file (const char *path,
             GString    *contents)
{
  FILE *file = fopen (path, "a");

  if (file == NULL || fwrite (contents->str, 1, contents->len, file) != contents->len ||
      fclose (file) != 0)
    g_error ("Could not append to %s", path);
}

static void
write_big_sessions (const char *folder)
{
  g_autoptr (GString) words = g_string_new (NULL);

  for (guint w = 0; w < N_BIG_WORDS; w++)
    g_string_append_printf (words, "w%x ", w * 2654435761u);

  g_mkdir_with_parents (folder, 0700);
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
        }
      write_file (path, records);
    }
}

/* ——— The UI thread's pulse ——— */

static gboolean
pulse_cb (gpointer data)
{
  Watch *watch = data;
  gint64 now = g_get_monotonic_time ();

  if (watch->last_pulse != 0)
    watch->max_gap = MAX (watch->max_gap, now - watch->last_pulse);
  watch->last_pulse = now;
  watch->n_pulses++;
  return G_SOURCE_CONTINUE;
}

static void
pulse_restart (Watch *watch)
{
  watch->last_pulse = g_get_monotonic_time ();
  watch->max_gap = 0;
  watch->n_pulses = 0;
}

/* ——— Waiting ——— */

typedef gboolean (*Condition) (Watch *watch);

/* Turns the main loop until @condition holds; the pulse wakes it every few ms. Returns when,
 * in monotonic µs, or 0 when the guard ran out. */
static gint64
wait_until (Watch    *watch,
            Condition condition)
{
  gint64 deadline = g_get_monotonic_time () + GUARD_USEC;

  while (!condition (watch))
    {
      if (g_get_monotonic_time () > deadline)
        return 0;
      g_main_context_iteration (NULL, TRUE);
    }
  return g_get_monotonic_time ();
}

static gboolean
is_idle (Watch *watch)
{
  return !loom_source_watcher_get_importing (watch->watcher);
}

static gboolean
is_importing (Watch *watch)
{
  return loom_source_watcher_get_importing (watch->watcher);
}

/* The session list's model: that of the list view whose items are sessions. */
static GListModel *
session_model (GtkWidget *root)
{
  if (GTK_IS_LIST_VIEW (root))
    {
      GtkSelectionModel *model = gtk_list_view_get_model (GTK_LIST_VIEW (root));
      g_autoptr (GObject) first = NULL;

      if (model != NULL && (first = g_list_model_get_item (G_LIST_MODEL (model), 0)) != NULL &&
          LOOM_IS_SESSION (first))
        return G_LIST_MODEL (model);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GListModel *found = session_model (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
lists_session (Watch *watch)
{
  GListModel *model = session_model (watch->window);

  for (guint i = 0; model != NULL && i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (model, i);
      const LoomSessionRecord *record = loom_session_get_record (session);

      if (g_strcmp0 (record->source_session_id, watch->session_id) == 0)
        return (watch->message_count == 0 ||
                loom_session_get_message_count (session) == watch->message_count) &&
               !!record->source_missing == !!watch->missing;
    }
  return FALSE;
}

/* How long, in ms, from @since to the session list showing what @watch asks for; -1 when it
 * never did. */
static double
ms_until_listed (Watch      *watch,
                 gint64      since,
                 const char *session_id,
                 gint64      message_count,
                 gboolean    missing)
{
  watch->session_id = session_id;
  watch->message_count = message_count;
  watch->missing = missing;
  watch->listed_at = wait_until (watch, lists_session);
  return watch->listed_at == 0 ? -1 : (watch->listed_at - since) / 1000.0;
}

/* ——— The run ——— */

static void
measure (Watch *watch)
{
  g_autofree char *name = g_strconcat (NEW_ID, ".jsonl", NULL);
  g_autofree char *path = g_build_filename (watch->project, name, NULL);
  g_autofree char *during_name = g_strconcat (DURING_ID, ".jsonl", NULL);
  g_autofree char *during_path = g_build_filename (watch->project, during_name, NULL);
  g_autofree char *big = g_build_filename (watch->claude_dir, "projects", "-tmp-big", NULL);
  g_autoptr (GString) records = g_string_new (NULL);
  gint64 since, started, ended;
  double during_ms;

  wait_until (watch, is_idle);

  /* A new session, a prompt appended, the file deleted. */
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000001", NULL,
                   "Make the session list follow the agents live");
  since = g_get_monotonic_time ();
  write_file (path, records);
  printf ("new_ms=%.1f\n", ms_until_listed (watch, since, NEW_ID, 1, FALSE));
  wait_until (watch, is_idle);

  g_string_truncate (records, 0);
  add_user_record (records, NEW_ID, "a0000000-0000-4000-8000-000000000002",
                   "a0000000-0000-4000-8000-000000000001", "Now show when a file is deleted");
  since = g_get_monotonic_time ();
  append_file (path, records);
  printf ("append_ms=%.1f\n", ms_until_listed (watch, since, NEW_ID, 2, FALSE));
  wait_until (watch, is_idle);

  since = g_get_monotonic_time ();
  g_remove (path);
  printf ("delete_ms=%.1f\n", ms_until_listed (watch, since, NEW_ID, 2, TRUE));
  wait_until (watch, is_idle);

  /* A long import, moved in at once; a session written as soon as it runs. */
  write_big_sessions (watch->staging);
  pulse_restart (watch);
  since = g_get_monotonic_time ();
  if (g_rename (watch->staging, big) != 0)
    g_error ("Could not move the long history in");
  started = wait_until (watch, is_importing);
  g_string_truncate (records, 0);
  add_user_record (records, DURING_ID, "c0000000-0000-4000-8000-000000000001", NULL,
                   "Keep showing live sessions during a long import");
  write_file (during_path, records);
  during_ms = ms_until_listed (watch, g_get_monotonic_time (), DURING_ID, 1, FALSE);
  ended = wait_until (watch, is_idle);
  pulse_cb (watch);

  printf ("during_ms=%.1f\n", during_ms);
  printf ("during_before_end=%d\n",
          watch->listed_at != 0 && ended != 0 && watch->listed_at < ended);
  printf ("pass_start_ms=%.1f\n", started != 0 ? (started - since) / 1000.0 : -1);
  printf ("pass_ms=%.1f\n", started != 0 && ended != 0 ? (ended - started) / 1000.0 : -1);
  printf ("max_gap_ms=%.1f\n", watch->max_gap / 1000.0);
  printf ("pulses=%u\n", watch->n_pulses);
  fflush (stdout);
}

static gboolean
run_cb (gpointer data)
{
  Watch *watch = data;

  measure (watch);
  gtk_window_destroy (GTK_WINDOW (watch->window));
  return G_SOURCE_REMOVE;
}

static void
on_activate_cb (GApplication *app,
                Watch        *watch)
{
  watch->window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (app)));
  watch->watcher = loom_application_get_source_watcher (LOOM_APPLICATION (app));
  g_assert (watch->window != NULL && watch->watcher != NULL);
  g_idle_add (run_cb, watch);
}

/* The child: the environment (CLAUDE_CONFIG_DIR, LOOM_DB, a throwaway HOME) was set by the
 * parent, which made the folders. */
int
loom_bench_watch_child (void)
{
  Watch watch = { 0 };
  int   status;

  watch.claude_dir = g_strdup (g_getenv ("CLAUDE_CONFIG_DIR"));
  watch.project = g_build_filename (watch.claude_dir, "projects", PROJECT_DIR, NULL);
  watch.staging = g_build_filename (g_getenv ("HOME"), "staging", NULL);
  g_mkdir_with_parents (watch.project, 0700);

  watch.pulse_id = g_timeout_add (PULSE_MSEC, pulse_cb, &watch);
  watch.app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (watch.app, "activate", G_CALLBACK (on_activate_cb), &watch);
  status = g_application_run (G_APPLICATION (watch.app), 0, NULL);
  g_source_remove (watch.pulse_id);

  g_object_unref (watch.app);
  g_free (watch.claude_dir);
  g_free (watch.project);
  g_free (watch.staging);
  return status;
}
