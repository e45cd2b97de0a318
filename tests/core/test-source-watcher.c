/* test-source-watcher.c — the watcher on real folders: bursts of changes make one pass, a steady
 * stream still makes passes before it ends, new and deleted folders gain and lose their monitors,
 * roots that appear later are picked up, and stopping leaves nothing behind. In an agent's own
 * folder a pass reads just the session files that changed, unless a whole pass is needed.
 *
 * What is checked is what happened, and in what order: several writes make one pass, a stream
 * of them brings passes before it stops. How soon is the benchmark's business
 * (bench/loom-bench-window --watch); the limits of the waits here only guard against a hang.
 *
 * Everything happens in a temporary folder that also serves as HOME, so the agents' default
 * roots point into it (and do not exist, but Claude Code's in the tests of targeted passes)
 * rather than at the real ones.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-core.h"
#include "loom-importer.h"
#include "loom-source-watcher.h"
#include "loom-store.h"
#include "loom-test-timeout.h"
#include "loom-test-utils.h"

#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

typedef struct
{
  char              *dir;  /* everything, and HOME */
  char              *root; /* the extra folder being watched */
  char              *db_path;
  char              *claude_root; /* Claude Code's projects folder, for targeted passes */
  LoomSourceWatcher *watcher;
  guint              n_changed;
  guint              n_imported;
  guint              n_changes_imported; /* during passes */
  guint              n_failed;
  guint              sessions_new;
  guint              sessions_touched;
  guint              sessions_missing;
  guint              files_seen;     /* by all passes */
  guint              max_files_seen; /* by one pass */
  guint              files_failed;
} Fixture;

static char *test_home;

static gboolean
wake_up_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

typedef gboolean (*Condition) (Fixture *fixture);

static gboolean
wait_until (Fixture  *fixture,
            Condition condition,
            gint64    timeout_usec)
{
  gint64   deadline = g_get_monotonic_time () + timeout_usec;
  guint    wake_up = g_timeout_add (10, wake_up_cb, NULL);
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
  guint  wake_up = g_timeout_add (10, wake_up_cb, NULL);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (wake_up);
}

static gboolean
is_idle (Fixture *fixture)
{
  return !loom_source_watcher_get_importing (fixture->watcher);
}

/* Waits until no pass runs or waits to run, and none starts for a while after. */
static void
wait_until_settled (Fixture *fixture)
{
  do
    {
      g_assert_true (wait_until (fixture, is_idle, WAIT_TIMEOUT_USEC));
      spin (400);
    }
  while (!is_idle (fixture));
}

static void
on_changed_cb (LoomSourceWatcher *watcher,
               Fixture           *fixture)
{
  fixture->n_changed++;
}

static void
on_changes_imported_cb (LoomSourceWatcher *watcher,
                        Fixture           *fixture)
{
  g_assert_true (loom_source_watcher_get_importing (watcher));
  fixture->n_changes_imported++;
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
  fixture->files_seen += stats->files_seen;
  fixture->max_files_seen = MAX (fixture->max_files_seen, stats->files_seen);
  fixture->files_failed += stats->files_failed;
  g_test_message ("pass: %u files seen, %u imported, %u sessions marked missing", stats->files_seen,
                  stats->files_imported, stats->sessions_missing);
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
  g_autoptr (GError) error = NULL;

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
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
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
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("loom-test-watcher-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->dir, "sessions", NULL);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_assert_cmpint (g_mkdir (fixture->root, 0700), ==, 0);
}

/* Starts watching @folders (the fixture's root when NULL) and waits until the first passes
 * (the catch-up, and the one after the monitors came) are over. */
static void
fixture_start (Fixture           *fixture,
               const char *const *folders)
{
  const char *root_only[] = { fixture->root, NULL };

  fixture->watcher = loom_source_watcher_new (fixture->db_path);
  g_signal_connect (fixture->watcher, "changed", G_CALLBACK (on_changed_cb), fixture);
  g_signal_connect (fixture->watcher, "imported", G_CALLBACK (on_imported_cb), fixture);
  g_signal_connect (fixture->watcher, "changes-imported", G_CALLBACK (on_changes_imported_cb),
                    fixture);
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
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  if (fixture->watcher != NULL)
    {
      loom_source_watcher_stop (fixture->watcher);
      g_assert_cmpuint (loom_source_watcher_get_n_monitors (fixture->watcher), ==, 0);
      g_assert_false (loom_source_watcher_get_importing (fixture->watcher));
      /* No pass, timer or monitor may keep it alive. */
      g_assert_finalize_object (g_steal_pointer (&fixture->watcher));
    }

  if (fixture->claude_root != NULL)
    {
      g_autofree char *config = g_path_get_dirname (fixture->claude_root);

      remove_tree (config);
    }
  remove_tree (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->root, g_free);
  g_clear_pointer (&fixture->db_path, g_free);
  g_clear_pointer (&fixture->claude_root, g_free);
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
  fixture->n_changes_imported = 0;
  fixture->sessions_new = 0;
  fixture->sessions_touched = 0;
  fixture->sessions_missing = 0;
  fixture->files_seen = 0;
  fixture->max_files_seen = 0;
  fixture->files_failed = 0;
}

/* A burst of writes to many files is one change, and one pass. The writes are made without
 * turning the main loop, where the monitors' reports and the watcher's timer are: however long
 * the writing takes, the watcher hears of them all together. */
static void
test_burst (Fixture      *fixture,
            gconstpointer user_data)
{
  fixture_start (fixture, NULL);
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, fixture->root));

  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("session-%02u.jsonl", i % 10);
      g_autofree char *path = g_build_filename (fixture->root, name, NULL);

      append_file (path, "{\"type\":\"summary\"}\n");
    }
  g_assert_cmpuint (fixture->n_changed, ==, 0);

  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));

  /* Nothing else follows. */
  wait_until_settled (fixture);
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

/* A file that never stops growing still gets passes: the watcher waits for a quiet moment, but
 * not for ever. The stream goes on until two passes came: a watcher that waited for the stream
 * to end would bring none, and the guard would end the test. (That several writes make one
 * pass is the burst's test: here, how many make one depends on how fast they come.) */
static void
test_steady_stream (Fixture      *fixture,
                    gconstpointer user_data)
{
  g_autofree char *path = g_build_filename (fixture->root, "growing.jsonl", NULL);
  gint64           deadline;
  guint            n_appends = 0;

  fixture_start (fixture, NULL);

  deadline = g_get_monotonic_time () + WAIT_TIMEOUT_USEC;
  while (fixture->n_imported < 2 && g_get_monotonic_time () < deadline)
    {
      append_file (path, "{\"type\":\"summary\"}\n");
      n_appends++;
      spin (50);
    }

  g_test_message ("%u passes during a stream of %u appends", fixture->n_imported, n_appends);
  g_assert_cmpuint (fixture->n_imported, >=, 2);
}

static gboolean
monitors_are (Fixture *fixture,
              guint    n_monitors)
{
  return is_idle (fixture) && loom_source_watcher_get_n_monitors (fixture->watcher) == n_monitors;
}

static guint expected_monitors;

static gboolean
has_expected_monitors (Fixture *fixture)
{
  return monitors_are (fixture, expected_monitors);
}

/* Folders made later get monitors, down to any depth; deleted ones lose theirs. */
static void
test_folders (Fixture      *fixture,
              gconstpointer user_data)
{
  g_autofree char *a = g_build_filename (fixture->root, "2026", NULL);
  g_autofree char *b = g_build_filename (a, "11", NULL);
  g_autofree char *c = g_build_filename (b, "29", NULL);
  g_autofree char *renamed = g_build_filename (fixture->root, "2027", NULL);
  g_autofree char *file = g_build_filename (c, "rollout-1.jsonl", NULL);
  g_autofree char *top_file = g_build_filename (fixture->root, "rollout-2.jsonl", NULL);
  guint            before;

  fixture_start (fixture, NULL);
  before = loom_source_watcher_get_n_monitors (fixture->watcher);
  g_test_message ("%u monitors at the start (the root, and the parent of the missing default "
                  "roots)",
                  before);
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

  /* Renamed: the monitors follow the new names, once a pass saw the change. */
  wait_until_settled (fixture);
  reset_counts (fixture);
  g_assert_cmpint (g_rename (a, renamed), ==, 0);
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  expected_monitors = before + 3;
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
test_missing_root (Fixture      *fixture,
                   gconstpointer user_data)
{
  g_autofree char *later = g_build_filename (fixture->dir, "later", NULL);
  g_autofree char *root = g_build_filename (later, "sessions", NULL);
  g_autofree char *unrelated = g_build_filename (fixture->dir, "unrelated", NULL);
  g_autofree char *file = g_build_filename (root, "a.jsonl", NULL);
  /* As a person may type it in the preferences: the watcher goes by the canonical form. */
  g_autofree char *typed = g_strconcat (later, "/./sessions/", NULL);
  const char      *folders[] = { typed, NULL };

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
test_one_pass_at_a_time (Fixture      *fixture,
                         gconstpointer user_data)
{
  fixture_start (fixture, NULL);

  /* Ask three times while the first pass runs: one more follows it, not three. */
  loom_source_watcher_import (fixture->watcher);
  g_assert_true (loom_source_watcher_get_importing (fixture->watcher));
  loom_source_watcher_import (fixture->watcher);
  loom_source_watcher_import (fixture->watcher);
  loom_source_watcher_import (fixture->watcher);

  wait_until_settled (fixture);
  g_assert_cmpuint (fixture->n_imported, ==, 2);
}

/* A real pass: a new Claude Code file in an extra folder becomes a session of the agent's own
 * id, told from its content; a deleted one stays, marked. */
static void
test_imports (Fixture      *fixture,
              gconstpointer user_data)
{
  g_autofree char *project = g_build_filename (fixture->root, "-tmp-proj", NULL);
  g_autofree char *path = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSession) session = NULL;
  const char      *session_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e01";
  g_autofree char *name = g_strconcat (session_id, ".jsonl", NULL);
  g_autofree char *records = NULL;

  g_assert_nonnull (loom_importer_claude ()->import_file);
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
  g_assert_cmpstr (loom_session_get_record (session)->source, ==, "claude-code");
  g_assert_cmpstr (loom_session_get_record (session)->source_session_id, ==, session_id);
  g_assert_cmpstr (loom_session_get_record (session)->source_path, ==, path);
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

/* ——— Targeted passes ——— */

#define PROJECT          "-tmp-proj"
#define N_OTHER_SESSIONS 50

/* Claude Code's folder exists (see main ()), with many sessions that a targeted pass must
 * leave alone. The extra folder stays. */
static void
fixture_set_up_claude (Fixture      *fixture,
                       gconstpointer user_data)
{
  g_autofree char *project = NULL;

  fixture_set_up (fixture, user_data);
  fixture->claude_root = g_build_filename (g_getenv ("CLAUDE_CONFIG_DIR"), "projects", NULL);
  project = g_build_filename (fixture->claude_root, PROJECT, NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
}

/* One user record of session @session_id, the @index-th: one message. */
static char *
claude_record (const char *session_id,
               guint       index)
{
  return g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"a0000000-0000-4000-8000-%012u\",\"parentUuid\":null,"
    "\"sessionId\":\"%s\",\"timestamp\":\"2026-11-29T10:%02u:00.000Z\",\"cwd\":\"/tmp/proj\","
    "\"version\":\"2.1.100\",\"userType\":\"external\",\"isSidechain\":false,"
    "\"message\":{\"role\":\"user\",\"content\":\"Prompt %u\"}}\n",
    index, session_id, index % 60, index);
}

static char *
claude_session_path (Fixture    *fixture,
                     const char *folder,
                     const char *session_id)
{
  g_autofree char *name = g_strconcat (session_id, ".jsonl", NULL);

  return g_build_filename (fixture->claude_root, folder, name, NULL);
}

static void
write_claude_sessions (Fixture *fixture,
                       guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *session_id = g_strdup_printf ("%08x-0000-4000-8000-000000000000", i);
      g_autofree char *path = claude_session_path (fixture, PROJECT, session_id);
      g_autofree char *record = claude_record (session_id, 0);

      write_file (path, record);
    }
}

/* The sessions as the store has them now, read through a connection of the test's own. */
static GListModel *
list_sessions (Fixture *fixture)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  GListModel *sessions;

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  sessions = loom_store_list_sessions (store, NULL, &error);
  g_assert_no_error (error);
  return sessions;
}

/* The session @session_id as the store has it now, or NULL. */
static LoomSession *
find_session (Fixture    *fixture,
              const char *session_id)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  return loom_test_find_session (store, session_id);
}

static guint
count_sessions (Fixture *fixture)
{
  g_autoptr (GListModel) sessions = list_sessions (fixture);

  return g_list_model_get_n_items (sessions);
}

/* Waits until the watcher acted on a change and stays idle, then starts counting anew. */
static void
wait_for_passes (Fixture *fixture)
{
  g_assert_true (wait_until (fixture, has_changed_and_imported, WAIT_TIMEOUT_USEC));
  wait_until_settled (fixture);
  g_assert_cmpuint (fixture->n_failed, ==, 0);
}

/* A session growing in an agent's folder is imported by passes that read that file alone,
 * however many sessions sit beside it; a file of the same folder that is not a session by the
 * agent's rules is not imported, whatever its content; a deleted session gets marked. */
static void
test_targeted (Fixture      *fixture,
               gconstpointer user_data)
{
  const char      *session_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e01";
  const char      *stray_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e02";
  g_autofree char *path = claude_session_path (fixture, PROJECT, session_id);
  g_autofree char *history = g_build_filename (fixture->claude_root, PROJECT, "history.jsonl",
                                               NULL);
  g_autofree char *meta = g_build_filename (fixture->claude_root, PROJECT, "agent-1.meta.json",
                                            NULL);
  g_autoptr (LoomSession) session = NULL;
  g_autofree char *first = claude_record (session_id, 1);
  g_autofree char *second = claude_record (session_id, 2);
  g_autofree char *records = NULL;

  write_claude_sessions (fixture, N_OTHER_SESSIONS);
  fixture_start (fixture, NULL);
  g_assert_cmpuint (count_sessions (fixture), ==, N_OTHER_SESSIONS);
  reset_counts (fixture);

  /* Written, then growing. */
  records = g_strconcat (first, second, NULL);
  write_file (path, records);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->max_files_seen, ==, 1);
  g_assert_cmpuint (fixture->sessions_new, ==, 1);
  session = find_session (fixture, session_id);
  g_assert_nonnull (session);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 2);
  g_clear_object (&session);

  for (guint i = 3; i < 6; i++)
    {
      g_autofree char *record = claude_record (session_id, i);

      reset_counts (fixture);
      append_file (path, record);
      wait_for_passes (fixture);
      g_assert_cmpuint (fixture->max_files_seen, ==, 1);
      session = find_session (fixture, session_id);
      g_assert_cmpint (loom_session_get_message_count (session), ==, i);
      g_clear_object (&session);
    }

  /* Files beside the sessions that are not sessions, though one reads like a session. */
  reset_counts (fixture);
  g_clear_pointer (&records, g_free);
  records = claude_record (stray_id, 1);
  write_file (history, records);
  write_file (meta, "{\"agentType\":\"Explore\"}\n");
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->files_seen, ==, 0);
  g_assert_null (find_session (fixture, stray_id));
  g_assert_cmpuint (count_sessions (fixture), ==, N_OTHER_SESSIONS + 1);

  /* Deleted: its session stays, marked, and nothing else is looked at. */
  reset_counts (fixture);
  g_assert_cmpint (g_remove (path), ==, 0);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->files_seen, ==, 0);
  g_assert_cmpuint (fixture->sessions_missing, ==, 1);
  session = find_session (fixture, session_id);
  g_assert_true (loom_session_get_record (session)->source_missing);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 5);
}

/* A file that failed is tried again by the next pass, though that pass is about another file:
 * a targeted pass would otherwise leave it until it changed again. */
static void
test_failed_file_retried (Fixture      *fixture,
                          gconstpointer user_data)
{
  const char      *failing_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e04";
  const char      *other_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e05";
  g_autofree char *failing = claude_session_path (fixture, PROJECT, failing_id);
  g_autofree char *other = claude_session_path (fixture, PROJECT, other_id);
  g_autofree char *failing_record = claude_record (failing_id, 1);
  g_autofree char *other_record = claude_record (other_id, 1);
  g_autofree char *poison = g_strdup_printf ("CREATE TRIGGER poison BEFORE INSERT ON sessions"
                                             " WHEN new.source_session_id = '%s'"
                                             " BEGIN SELECT RAISE (ABORT, 'poisoned'); END",
                                             failing_id);
  g_autoptr (LoomSession) session = NULL;

  write_claude_sessions (fixture, N_OTHER_SESSIONS);
  fixture_start (fixture, NULL);
  reset_counts (fixture);

  loom_test_exec_sql (fixture->db_path, poison);
  write_file (failing, failing_record);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->files_failed, ==, 1);
  g_assert_null (find_session (fixture, failing_id));

  loom_test_exec_sql (fixture->db_path, "DROP TRIGGER poison");
  reset_counts (fixture);
  write_file (other, other_record);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->max_files_seen, ==, 2);
  g_assert_cmpuint (fixture->files_failed, ==, 0);
  g_assert_cmpuint (fixture->sessions_new, ==, 2);
  session = find_session (fixture, failing_id);
  g_assert_nonnull (session);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 1);
}

/* Whole passes stay where the reports are not the whole story: a change under an extra folder
 * (files there are told apart by their content), a new folder (files may predate its monitor),
 * and more changes than a targeted pass is worth. */
static void
test_whole_passes (Fixture      *fixture,
                   gconstpointer user_data)
{
  g_autofree char *extra_file = g_build_filename (fixture->root, "notes.jsonl", NULL);
  g_autofree char *folder = g_build_filename (fixture->claude_root, "-tmp-other", NULL);
  g_autofree char *in_folder = claude_session_path (fixture, "-tmp-other",
                                                    "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e03");
  g_autofree char *record = claude_record ("7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e03", 1);

  write_claude_sessions (fixture, N_OTHER_SESSIONS);
  fixture_start (fixture, NULL);
  reset_counts (fixture);

  write_file (extra_file, "{\"type\":\"summary\"}\n");
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->max_files_seen, >=, N_OTHER_SESSIONS);

  /* A new folder, then a session in it: the monitor came in time, so it is targeted. */
  reset_counts (fixture);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->max_files_seen, >=, N_OTHER_SESSIONS);
  g_assert_true (loom_source_watcher_is_monitored (fixture->watcher, folder));

  reset_counts (fixture);
  write_file (in_folder, record);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->max_files_seen, ==, 1);
  g_assert_cmpuint (fixture->sessions_new, ==, 1);

  /* A burst of more sessions than a targeted pass takes. */
  reset_counts (fixture);
  for (guint i = 0; i < 600; i++)
    {
      g_autofree char *session_id = g_strdup_printf ("%08x-1111-4000-8000-000000000000", i);
      g_autofree char *path = claude_session_path (fixture, "-tmp-other", session_id);
      g_autofree char *line = claude_record (session_id, 0);

      write_file (path, line);
    }
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->sessions_new, ==, 600);
  g_assert_cmpuint (fixture->max_files_seen, >=, N_OTHER_SESSIONS + 601);
}

static gboolean
has_failed (Fixture *fixture)
{
  return fixture->n_failed > 0 && is_idle (fixture);
}

/* A pass that fails loses nothing: the files it was to import go to the next pass. */
static void
test_failed_pass (Fixture      *fixture,
                  gconstpointer user_data)
{
  const char      *first_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e04";
  const char      *second_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e05";
  g_autofree char *first = claude_session_path (fixture, PROJECT, first_id);
  g_autofree char *second = claude_session_path (fixture, PROJECT, second_id);
  g_autofree char *away = g_strconcat (fixture->db_path, ".away", NULL);
  g_autofree char *first_record = claude_record (first_id, 1);
  g_autofree char *second_record = claude_record (second_id, 1);
  g_autoptr (LoomSession) session = NULL;

  write_claude_sessions (fixture, N_OTHER_SESSIONS);
  fixture_start (fixture, NULL);
  reset_counts (fixture);

  /* A folder where the store was: no pass can open it. */
  g_assert_cmpint (g_rename (fixture->db_path, away), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->db_path, 0700), ==, 0);
  write_file (first, first_record);
  g_assert_true (wait_until (fixture, has_failed, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->n_failed, ==, 1);
  g_assert_cmpuint (fixture->n_imported, ==, 0);

  g_assert_cmpint (g_rmdir (fixture->db_path), ==, 0);
  g_assert_cmpint (g_rename (away, fixture->db_path), ==, 0);
  fixture->n_failed = 0;
  reset_counts (fixture);

  write_file (second, second_record);
  wait_for_passes (fixture);
  g_assert_cmpuint (fixture->max_files_seen, ==, 2);
  g_assert_cmpuint (fixture->sessions_new, ==, 2);
  session = find_session (fixture, first_id);
  g_assert_nonnull (session);
}

static gboolean
has_imported (Fixture *fixture)
{
  return fixture->n_imported > 0 && is_idle (fixture);
}

/* A pass that failed whole is tried again by itself, later: nothing else need change for the
 * files it had to come in. The store locked by another writer past the busy timeout is the
 * common case; a folder where the store was fails every pass until it goes. */
static void
test_failed_pass_retried (Fixture      *fixture,
                          gconstpointer user_data)
{
  const char      *session_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e06";
  g_autofree char *path = claude_session_path (fixture, PROJECT, session_id);
  g_autofree char *away = g_strconcat (fixture->db_path, ".away", NULL);
  g_autofree char *record = claude_record (session_id, 1);
  g_autoptr (LoomSession) session = NULL;

  write_claude_sessions (fixture, N_OTHER_SESSIONS);
  fixture_start (fixture, NULL);
  reset_counts (fixture);

  g_assert_cmpint (g_rename (fixture->db_path, away), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->db_path, 0700), ==, 0);
  write_file (path, record);
  g_assert_true (wait_until (fixture, has_failed, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->n_imported, ==, 0);

  /* No other change: the retry alone brings the session in. */
  g_assert_cmpint (g_rmdir (fixture->db_path), ==, 0);
  g_assert_cmpint (g_rename (away, fixture->db_path), ==, 0);
  g_assert_true (wait_until (fixture, has_imported, WAIT_TIMEOUT_USEC));
  session = find_session (fixture, session_id);
  g_assert_nonnull (session);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 1);
}

/* The session the next condition waits for, and how often it was looked at. */
static const char *awaited_session;
static guint       n_looks;

static gboolean
has_awaited_session (Fixture *fixture)
{
  g_autoptr (LoomSession) session = NULL;

  /* A connection per question: not at every wake-up. */
  if (n_looks++ % 10 != 0)
    return FALSE;
  session = find_session (fixture, awaited_session);
  return session != NULL;
}

static gboolean
has_changes_imported (Fixture *fixture)
{
  return fixture->n_changes_imported > 0;
}

static gboolean
is_importing (Fixture *fixture)
{
  return loom_source_watcher_get_importing (fixture->watcher);
}

/* A history moved in whole makes a long pass. A session written meanwhile comes in between
 * two of its batches, long before it ends, and the pass still imports all it had. */
static void
test_change_during_long_pass (Fixture      *fixture,
                              gconstpointer user_data)
{
  const char      *session_id = "7f1c9a52-3c1d-4d53-9a43-0d8f1b9c1e07";
  g_autofree char *path = claude_session_path (fixture, PROJECT, session_id);
  g_autofree char *record = claude_record (session_id, 1);
  g_autoptr (GString) filler = g_string_new (NULL);
  g_autofree char *history = g_build_filename (fixture->dir, "history", NULL);
  g_autofree char *moved_in = g_build_filename (fixture->claude_root, "projects-moved", NULL);

  fixture_start (fixture, NULL);

  /* 150 sessions of 200 records of 500 words, 90 MB, written outside and moved in at once:
   * some 15 million words to index. */
  for (guint w = 0; w < 500; w++)
    g_string_append_printf (filler, "w%x ", w * 2654435761u);
  g_assert_cmpint (g_mkdir (history, 0700), ==, 0);
  for (guint i = 0; i < 150; i++)
    {
      g_autofree char *id = g_strdup_printf ("%08x-1111-4000-8000-000000000000", i);
      g_autofree char *name = g_strconcat (id, ".jsonl", NULL);
      g_autofree char *file = g_build_filename (history, name, NULL);
      g_autoptr (GString) text = g_string_new (NULL);

      for (guint r = 0; r < 200; r++)
        g_string_append_printf (
          text,
          "{\"type\":\"user\",\"uuid\":\"b%07u-0000-4000-8000-%012u\",\"parentUuid\":null,"
          "\"sessionId\":\"%s\",\"timestamp\":\"2026-11-29T10:00:00.000Z\","
          "\"cwd\":\"/tmp/proj\",\"version\":\"2.1.100\",\"userType\":\"external\","
          "\"isSidechain\":false,\"message\":{\"role\":\"user\",\"content\":\"%u %s\"}}\n",
          i, r, id, r, filler->str);
      write_file (file, text->str);
    }
  reset_counts (fixture);
  g_assert_cmpint (g_rename (history, moved_in), ==, 0);
  g_assert_true (wait_until (fixture, is_importing, WAIT_TIMEOUT_USEC));
  spin (300);

  write_file (path, record);
  awaited_session = session_id;
  n_looks = 0;
  g_assert_true (wait_until (fixture, has_awaited_session, WAIT_TIMEOUT_USEC));
  /* In the store while the long pass still runs: its end has not been signalled. How soon
   * depends on the build (a batch, and its indexing, come first); bench/ measures it. */
  g_assert_cmpuint (fixture->n_imported, ==, 0);
  /* And the watcher says so while the pass runs, for the window to show the session then. */
  g_assert_true (wait_until (fixture, has_changes_imported, WAIT_TIMEOUT_USEC));
  g_assert_cmpuint (fixture->n_imported, ==, 0);

  /* The long pass ends in its own time: most of a minute under the sanitizers. */
  g_assert_true (wait_until (fixture, is_idle, 3 * WAIT_TIMEOUT_USEC));
  wait_until_settled (fixture);
  g_assert_cmpuint (fixture->n_failed, ==, 0);
  g_assert_cmpuint (count_sessions (fixture), ==, 151);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  g_autofree char *claude_config = NULL;
  int              status;

  /* Before GLib reads HOME for the first time: the agents' default roots go there. */
  test_home = g_dir_make_tmp ("loom-test-watcher-home-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", test_home, TRUE);
  /* Claude Code's folder, made by the tests of targeted passes, gone for the others. */
  claude_config = g_build_filename (test_home, "claude", NULL);
  g_setenv ("CLAUDE_CONFIG_DIR", claude_config, TRUE);
  g_unsetenv ("CODEX_HOME");
  g_unsetenv ("GEMINI_CLI_HOME");
  g_unsetenv ("LOOM_DB");

  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  g_test_add ("/source-watcher/burst", Fixture, NULL, fixture_set_up, test_burst,
              fixture_tear_down);
  g_test_add ("/source-watcher/steady-stream", Fixture, NULL, fixture_set_up, test_steady_stream,
              fixture_tear_down);
  g_test_add ("/source-watcher/folders", Fixture, NULL, fixture_set_up, test_folders,
              fixture_tear_down);
  g_test_add ("/source-watcher/missing-root", Fixture, NULL, fixture_set_up, test_missing_root,
              fixture_tear_down);
  g_test_add ("/source-watcher/one-pass-at-a-time", Fixture, NULL, fixture_set_up,
              test_one_pass_at_a_time, fixture_tear_down);
  g_test_add ("/source-watcher/imports", Fixture, NULL, fixture_set_up, test_imports,
              fixture_tear_down);
  g_test_add ("/source-watcher/targeted", Fixture, NULL, fixture_set_up_claude, test_targeted,
              fixture_tear_down);
  g_test_add ("/source-watcher/failed-file-retried", Fixture, NULL, fixture_set_up_claude,
              test_failed_file_retried, fixture_tear_down);
  g_test_add ("/source-watcher/whole-passes", Fixture, NULL, fixture_set_up_claude,
              test_whole_passes, fixture_tear_down);
  g_test_add ("/source-watcher/failed-pass", Fixture, NULL, fixture_set_up_claude, test_failed_pass,
              fixture_tear_down);
  g_test_add ("/source-watcher/failed-pass-retried", Fixture, NULL, fixture_set_up_claude,
              test_failed_pass_retried, fixture_tear_down);
  g_test_add ("/source-watcher/change-during-long-pass", Fixture, NULL, fixture_set_up_claude,
              test_change_during_long_pass, fixture_tear_down);

  status = g_test_run ();

  remove_tree (test_home);
  g_free (test_home);
  return status;
}
