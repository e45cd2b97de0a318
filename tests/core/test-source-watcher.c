/* test-source-watcher.c — the watcher on real folders: bursts of changes make one pass, a steady
 * stream still makes passes every second, new and deleted folders gain and lose their monitors,
 * roots that appear later are picked up, and stopping leaves nothing behind.
 *
 * Everything happens in a temporary folder that also serves as HOME, so the agents' default
 * roots point into it (and do not exist) rather than at the real ones.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-importer.h"
#include "loom-source-watcher.h"
#include "loom-store.h"

#define WAIT_TIMEOUT_USEC (10 * G_USEC_PER_SEC)

typedef struct
{
  char              *dir;       /* everything, and HOME */
  char              *root;      /* the extra folder being watched */
  char              *db_path;
  LoomSourceWatcher *watcher;
  guint              n_changed;
  guint              n_imported;
  guint              n_failed;
  gint64             last_changed;   /* monotonic µs */
  guint              sessions_new;
  guint              sessions_touched;
  guint              sessions_missing;
} Fixture;

static char *test_home;

static gboolean
wake_up_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

typedef gboolean (*Condition) (Fixture *fixture);

static gboolean
wait_until (Fixture   *fixture,
            Condition  condition,
            gint64     timeout_usec)
{
  gint64 deadline = g_get_monotonic_time () + timeout_usec;
  guint wake_up = g_timeout_add (10, wake_up_cb, NULL);
  gboolean met;

  while (!(met = condition (fixture)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_up);
  return met;
}

/* Lets the main loop run for @msec whatever happens. */
static void
spin (guint msec)
{
  gint64 until = g_get_monotonic_time () + msec * 1000;
  guint wake_up = g_timeout_add (10, wake_up_cb, NULL);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_up);
}

static gboolean
is_idle (Fixture *fixture)
{
  return !loom_source_watcher_get_importing (fixture->watcher);
}

static void
on_changed_cb (LoomSourceWatcher *watcher,
               Fixture           *fixture)
{
  fixture->n_changed++;
  fixture->last_changed = g_get_monotonic_time ();
}

static void
on_imported_cb (LoomSourceWatcher     *watcher,
                const LoomImportStats *stats,
                Fixture               *fixture)
{
  g_assert_false (loom_source_watcher_get_importing (watcher));
  fixture->n_imported++;
  fixture->sessions_new += stats->sessions_new;
  fixture->sessions_touched += stats->sessions_touched;
  fixture->sessions_missing += stats->sessions_missing;
}

static void
on_import_failed_cb (LoomSourceWatcher *watcher,
                     const GError      *error,
                     Fixture           *fixture)
{
  g_test_message ("import failed: %s", error->message);
  fixture->n_failed++;
}

static void
write_file (const char *path,
            const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
append_file (const char *path,
             const char *contents)
{
  FILE *file = fopen (path, "a");

  g_assert_nonnull (file);
  g_assert_cmpint (fputs (contents, file), >=, 0);
  g_assert_cmpint (fclose (file), ==, 0);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_assert_cmpint (g_remove (child), ==, 0);
    }
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("loom-test-watcher-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->dir, "sessions", NULL);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_assert_cmpint (g_mkdir (fixture->root, 0700), ==, 0);
}

/* Starts watching @folders (the fixture's root when NULL) and waits until the first passes
 * (the catch-up, and the one after the monitors came) are over. */
static void
fixture_start (Fixture            *fixture,
               const char * const *folders)
{
  const char *root_only[] = { fixture->root, NULL };

  fixture->watcher = loom_source_watcher_new (fixture->db_path);
  g_signal_connect (fixture->watcher, "changed", G_CALLBACK (on_changed_cb), fixture);
  g_signal_connect (fixture->watcher, "imported", G_CALLBACK (on_imported_cb), fixture);
  g_signal_connect (fixture->watcher, "import-failed", G_CALLBACK (on_import_failed_cb), fixture);

  loom_source_watcher_set_extra_folders (fixture->watcher, folders != NULL ? folders : root_only);
  g_assert_cmpuint (loom_source_watcher_get_n_monitors (fixture->watcher), ==, 0);
  loom_source_watcher_set_watching (fixture->watcher, TRUE);
  g_assert_true (loom_source_watcher_get_importing (fixture->watcher));

  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->n_failed, ==, 0);
  g_assert_cmpuint (fixture->n_imported, >=, 1);
  g_assert_cmpuint (fixture->n_changed, ==, 0);
  fixture->n_imported = 0;
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  user_data)
{
  if (fixture->watcher != NULL)
    {
      loom_source_watcher_stop (fixture->watcher);
      g_assert_cmpuint (loom_source_watcher_get_n_monitors (fixture->watcher), ==, 0);
      g_assert_false (loom_source_watcher_get_importing (fixture->watcher));
      /* No pass, timer or monitor may keep it alive. */
      g_assert_finalize_object (g_steal_pointer (&fixture->watcher));
    }

  remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->root, g_free);
  g_clear_pointer (&fixture->db_path, g_free);
}

static gboolean
has_changed (Fixture *fixture)
{
  return fixture->n_changed > 0;
}

static gboolean
has_changed_and_imported (Fixture *fixture)
{
  return fixture->n_changed > 0 && fixture->n_imported > 0 && is_idle (fixture);
}

static void
reset_counts (Fixture *fixture)
{
  fixture->n_changed = 0;
  fixture->n_imported = 0;
  fixture->sessions_new = 0;
  fixture->sessions_touched = 0;
  fixture->sessions_missing = 0;
}

/* A burst of writes to many files is one change, acted on shortly after it ends. */
static void
test_burst (Fixture       *fixture,
            gconstpointer  user_data)
{
  gint64 started, ended;

  fixture_start (fixture, NULL);
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, fixture->root));

  started = g_get_monotonic_time ();
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("session-%02u.jsonl", i % 10);
      g_autofree char *path = g_build_filename (fixture->root, name, NULL);

      append_file (path, "{\"type\":\"summary\"}\n");
    }
  ended = g_get_monotonic_time ();
  g_assert_cmpint (ended - started, <, 200 * 1000);

  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  g_test_message ("burst acted on %" G_GINT64_FORMAT " ms after its last write",
                  (fixture->last_changed - ended) / 1000);
  g_assert_cmpint (fixture->last_changed - ended, >=, 200 * 1000);
  g_assert_cmpint (fixture->last_changed - ended, <, 1000 * 1000);

  /* Nothing else follows. */
  spin (600);
  g_assert_cmpuint (fixture->n_changed, ==, 1);
  g_assert_cmpuint (fixture->n_imported, ==, 1);

  /* Files that are not sessions do not count. */
  reset_counts (fixture);
  {
    g_autofree char *path = g_build_filename (fixture->root, "notes.txt", NULL);

    write_file (path, "not a session\n");
  }
  spin (600);
  g_assert_cmpuint (fixture->n_changed, ==, 0);

  /* A deleted session file does: its session gets marked. */
  {
    g_autofree char *path = g_build_filename (fixture->root, "session-03.jsonl", NULL);

    g_assert_cmpint (g_remove (path), ==, 0);
  }
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->n_changed, ==, 1);
}

/* A file that never stops growing still gets passes, at least one a second. */
static void
test_steady_stream (Fixture       *fixture,
                    gconstpointer  user_data)
{
  g_autofree char *path = g_build_filename (fixture->root, "growing.jsonl", NULL);
  gint64 started, first = 0;

  fixture_start (fixture, NULL);

  started = g_get_monotonic_time ();
  while (g_get_monotonic_time () - started < 2600 * 1000)
    {
      append_file (path, "{\"type\":\"summary\"}\n");
      spin (100);
      if (first == 0 && fixture->n_changed > 0)
        first = fixture->last_changed;
    }

  g_assert_cmpint (first, >, 0);
  g_test_message ("first pass %" G_GINT64_FORMAT " ms into the stream, %u changes in 2.6 s",
                  (first - started) / 1000, fixture->n_changed);
  g_assert_cmpint (first - started, <=, 1300 * 1000);
  g_assert_cmpuint (fixture->n_changed, >=, 2);
  g_assert_cmpuint (fixture->n_changed, <=, 6);
}

static gboolean
monitors_are (Fixture *fixture,
              guint    n_monitors)
{
  return is_idle (fixture) &&
         loom_source_watcher_get_n_monitors (fixture->watcher) == n_monitors;
}

static guint expected_monitors;

static gboolean
has_expected_monitors (Fixture *fixture)
{
  return monitors_are (fixture, expected_monitors);
}

/* Folders made later get monitors, down to any depth; deleted ones lose theirs. */
static void
test_folders (Fixture       *fixture,
              gconstpointer  user_data)
{
  g_autofree char *a = g_build_filename (fixture->root, "2026", NULL);
  g_autofree char *b = g_build_filename (a, "11", NULL);
  g_autofree char *c = g_build_filename (b, "29", NULL);
  g_autofree char *renamed = g_build_filename (fixture->root, "2027", NULL);
  g_autofree char *file = g_build_filename (c, "rollout-1.jsonl", NULL);
  g_autofree char *top_file = g_build_filename (fixture->root, "rollout-2.jsonl", NULL);
  guint before;

  fixture_start (fixture, NULL);
  before = loom_source_watcher_get_n_monitors (fixture->watcher);
  g_test_message ("%u monitors at the start (the root, and the parent of the missing default "
                  "roots)", before);
  g_assert_cmpuint (before, >=, 1);

  /* Made all at once, as Codex makes a day's folder. */
  g_assert_cmpint (g_mkdir_with_parents (c, 0700), ==, 0);
  expected_monitors = before + 3;
  g_assert_true (wait_until (fixture, has_expected_monitors, WAIT_TIMEOUT_USEC));
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, a));
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, b));
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, c));

  /* The deepest one reports its files. */
  spin (300);
  reset_counts (fixture);
  write_file (file, "{}\n");
  g_assert_true (wait_until (fixture, has_changed, WAIT_TIMEOUT_USEC));

  /* Renamed: the monitors follow the new names. */
  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  g_assert_cmpint (g_rename (a, renamed), ==, 0);
  expected_monitors = before + 3;
  spin (400);
  g_assert_true (wait_until (fixture, has_expected_monitors, WAIT_TIMEOUT_USEC));
  g_assert_false (loom_source_watcher_is_monitored (fixture->watcher, a));
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, renamed));

  /* Deleted: their monitors go, none leaks. */
  remove_tree (renamed);
  expected_monitors = before;
  g_assert_true (wait_until (fixture, has_expected_monitors, WAIT_TIMEOUT_USEC));
  g_assert_false (loom_source_watcher_is_monitored (fixture->watcher, renamed));

  /* Turning watching off drops them all; nothing is reported any more. */
  loom_source_watcher_set_watching (fixture->watcher, FALSE);
  g_assert_cmpuint (loom_source_watcher_get_n_monitors (fixture->watcher), ==, 0);
  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  reset_counts (fixture);
  write_file (top_file, "{}\n");
  spin (600);
  g_assert_cmpuint (fixture->n_changed, ==, 0);
  g_assert_cmpuint (fixture->n_imported, ==, 0);

  /* And on again: the catch-up pass, and the same monitors as before. */
  loom_source_watcher_set_watching (fixture->watcher, TRUE);
  g_assert_true (loom_source_watcher_get_importing (fixture->watcher));
  expected_monitors = before;
  g_assert_true (wait_until (fixture, has_expected_monitors, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->n_imported, >=, 1);
}

/* A root that does not exist yet (an agent not installed) is picked up once it appears. */
static void
test_missing_root (Fixture       *fixture,
                   gconstpointer  user_data)
{
  g_autofree char *later = g_build_filename (fixture->dir, "later", NULL);
  g_autofree char *root = g_build_filename (later, "sessions", NULL);
  g_autofree char *unrelated = g_build_filename (fixture->dir, "unrelated", NULL);
  g_autofree char *file = g_build_filename (root, "a.jsonl", NULL);
  /* As a person may type it in the preferences: the watcher goes by the canonical form. */
  g_autofree char *typed = g_strconcat (later, "/./sessions/", NULL);
  const char *folders[] = { typed, NULL };

  fixture_start (fixture, folders);
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, fixture->dir));
  g_assert_false (loom_source_watcher_is_monitored (fixture->watcher, root));

  /* A folder that leads nowhere near the root is no reason for a pass. */
  g_assert_cmpint (g_mkdir (unrelated, 0700), ==, 0);
  spin (600);
  g_assert_cmpuint (fixture->n_changed, ==, 0);

  g_assert_cmpint (g_mkdir (later, 0700), ==, 0);
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, later));

  reset_counts (fixture);
  g_assert_cmpint (g_mkdir (root, 0700), ==, 0);
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, root));
  g_assert_false (loom_source_watcher_is_monitored (fixture->watcher, later));

  spin (300);
  reset_counts (fixture);
  write_file (file, "{}\n");
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));

  /* Changing the extra folders takes effect at once: the old root is no longer watched. */
  loom_source_watcher_set_extra_folders (fixture->watcher, NULL);
  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  g_assert_false (loom_source_watcher_is_monitored (fixture->watcher, root));
}

/* Changes during a pass are served by exactly one more pass, never by two at once. */
static void
test_one_pass_at_a_time (Fixture       *fixture,
                         gconstpointer  user_data)
{
  fixture_start (fixture, NULL);

  /* Ask three times while the first pass runs: one more follows it, not three. */
  loom_source_watcher_import (fixture->watcher);
  g_assert_true (loom_source_watcher_get_importing (fixture->watcher));
  loom_source_watcher_import (fixture->watcher);
  loom_source_watcher_import (fixture->watcher);
  loom_source_watcher_import (fixture->watcher);

  /* Idle, and staying so. */
  do
    {
      g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
      spin (300);
    }
  while (!is_idle (fixture));
  g_assert_cmpuint (fixture->n_imported, ==, 2);
}

/* A real pass, when the Claude Code importer is there: a new file becomes a session, a
 * deleted one stays, marked. */
static void
test_imports (Fixture       *fixture,
              gconstpointer  user_data)
{
  g_autofree char *project = g_build_filename (fixture->root, "-tmp-proj", NULL);
  g_autofree char *path = NULL;
  g_autoptr(LoomStore) store = NULL;
  g_autoptr(GListModel) sessions = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LoomSession) session = NULL;
  const char *session_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e01";
  g_autofree char *name = g_strconcat (session_id, ".jsonl", NULL);
  g_autofree char *records = NULL;

  if (loom_importer_claude ()->import_file == NULL)
    {
      g_test_skip ("The Claude Code importer is not there yet");
      return;
    }

  g_assert_cmpint (g_mkdir (project, 0700), ==, 0);
  fixture_start (fixture, NULL);
  path = g_build_filename (project, name, NULL);

  records = g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"a0000000-0000-4000-8000-000000000001\",\"parentUuid\":null,"
    "\"sessionId\":\"%s\",\"timestamp\":\"2026-11-29T10:00:00.000Z\",\"cwd\":\"/tmp/proj\","
    "\"version\":\"2.1.100\",\"userType\":\"external\",\"isSidechain\":false,"
    "\"message\":{\"role\":\"user\",\"content\":\"Say hello\"}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"a0000000-0000-4000-8000-000000000002\","
    "\"parentUuid\":\"a0000000-0000-4000-8000-000000000001\",\"sessionId\":\"%s\","
    "\"timestamp\":\"2026-11-29T10:00:02.000Z\",\"cwd\":\"/tmp/proj\",\"version\":\"2.1.100\","
    "\"userType\":\"external\",\"isSidechain\":false,\"requestId\":\"req_1\","
    "\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
    "\"model\":\"claude-sonnet-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"Hello!\"}],"
    "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":10,\"output_tokens\":3,"
    "\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0}}}\n",
    session_id, session_id);
  write_file (path, records);
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->sessions_new, ==, 1);

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  sessions = loom_store_list_sessions (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 1);
  session = g_list_model_get_item (sessions, 0);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 2);
  g_assert_false (loom_session_get_record (session)->source_missing);
  g_clear_object (&session);
  g_clear_object (&sessions);

  reset_counts (fixture);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->sessions_missing, ==, 1);

  sessions = loom_store_list_sessions (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 1);
  session = g_list_model_get_item (sessions, 0);
  g_assert_true (loom_session_get_record (session)->source_missing);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* Before GLib reads HOME for the first time: the agents' default roots go there. */
  test_home = g_dir_make_tmp ("loom-test-watcher-home-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", test_home, TRUE);
  g_unsetenv ("CLAUDE_CONFIG_DIR");
  g_unsetenv ("CODEX_HOME");
  g_unsetenv ("GEMINI_CLI_HOME");
  g_unsetenv ("LOOM_DB");

  g_test_init (&argc, &argv, NULL);

  g_test_add ("/source-watcher/burst", Fixture, NULL,
              fixture_set_up, test_burst, fixture_tear_down);
  g_test_add ("/source-watcher/steady-stream", Fixture, NULL,
              fixture_set_up, test_steady_stream, fixture_tear_down);
  g_test_add ("/source-watcher/folders", Fixture, NULL,
              fixture_set_up, test_folders, fixture_tear_down);
  g_test_add ("/source-watcher/missing-root", Fixture, NULL,
              fixture_set_up, test_missing_root, fixture_tear_down);
  g_test_add ("/source-watcher/one-pass-at-a-time", Fixture, NULL,
              fixture_set_up, test_one_pass_at_a_time, fixture_tear_down);
  g_test_add ("/source-watcher/imports", Fixture, NULL,
              fixture_set_up, test_imports, fixture_tear_down);

  status = g_test_run ();

  remove_tree (test_home);
  g_free (test_home);
  return status;
}
