/* test-cli-backup.c — `loom backup`, run as a real process against a store of the fixtures.
 *
 * The options, the JSON exactly, a second run that writes nothing, the quiet time, and the
 * encrypted form: with no keyring it writes nothing at all; with the harness's keyring every
 * backup is one .loombackup file named by its session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loom-backup-key.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-package-import.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-time.h"

typedef struct
{
  char      *dir;
  char      *db;
  LoomStore *store; /* the test's own connection, to set up and check */
  char      *backups;
  char      *recent; /* a session active now */
  char      *out;
  char      *err;
  int        status;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char  *claude = loom_test_fixture_path ("claude", NULL);
  g_autofree char  *codex = loom_test_fixture_path ("codex", NULL);
  const char *const paths[] = { claude, codex, NULL };

  f->store = loom_test_new_store (&f->dir, &f->db);
  loom_import_stats_free (loom_test_import_paths (f->store, NULL, paths));
  f->recent = loom_test_add_session (f->store, "Active now", "codex", "fresh", 4, 0,
                                     loom_time_now_ms ());
  f->backups = g_build_filename (f->dir, "backups", NULL);
  g_assert_no_errno (g_mkdir (f->backups, 0700));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->db);
  g_free (f->backups);
  g_free (f->recent);
  g_free (f->out);
  g_free (f->err);
}

/* Runs `loom --db DB ARGS…` in @envp (NULL: ours) and keeps its output. */
static int
run_loom_env (Fixture    *f,
              GStrv       envp,
              const char *first,
              ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int     wait_status = 0;
  va_list args;

  g_ptr_array_add (argv, (char *)g_getenv ("LOOM_CLI"));
  g_ptr_array_add (argv, (char *)"--db");
  g_ptr_array_add (argv, f->db);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_spawn_sync (NULL, (char **)argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &f->out, &f->err,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  f->status = WEXITSTATUS (wait_status);
  return f->status;
}

#define run_loom(f, ...) run_loom_env ((f), NULL, __VA_ARGS__, NULL)

static JsonObject *
parse_out (Fixture *f)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Fails unless @object has exactly the members @names (NULL-terminated), in any order. */
static void
assert_members (JsonObject        *object,
                const char *const *names)
{
  g_autoptr (GList) members = json_object_get_members (object);

  g_assert_cmpuint (g_list_length (members), ==, g_strv_length ((char **)names));
  for (guint i = 0; names[i] != NULL; i++)
    g_assert_true (json_object_has_member (object, names[i]));
}

static guint
array_length (JsonObject *object,
              const char *name)
{
  return json_array_get_length (json_object_get_array_member (object, name));
}

static gboolean
array_has (JsonObject *object,
           const char *name,
           const char *value)
{
  JsonArray *array = json_object_get_array_member (object, name);

  for (guint i = 0; i < json_array_get_length (array); i++)
    if (g_str_equal (json_array_get_string_element (array, i), value))
      return TRUE;
  return FALSE;
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* How many top-level sessions are quiet now for the default ten minutes (the fixtures are all
 * months old; the session active now is not). */
static guint
count_quiet (Fixture *f)
{
  g_autoptr (GListModel) all = NULL;
  g_autoptr (GError) error = NULL;
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  gint64           cutoff = loom_time_now_ms () - 10 * 60 * 1000;
  guint            n = 0;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  all = loom_store_list_sessions (f->store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (all, i);
      const LoomSessionRecord *r = loom_session_get_record (session);

      n += r->parent_uuid == NULL && r->trashed_at == 0 && r->updated_at < cutoff;
    }
  return n;
}

/* The sessions that have a backup of their own: top-level ones not in the trash. */
static guint
count_top_level (Fixture *f)
{
  g_autoptr (GListModel) all = NULL;
  g_autoptr (GError) error = NULL;
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  guint            n = 0;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  all = loom_store_list_sessions (f->store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (all, i);
      const LoomSessionRecord *r = loom_session_get_record (session);

      n += r->parent_uuid == NULL && r->trashed_at == 0;
    }
  return n;
}

static void
test_usage (Fixture      *f,
            gconstpointer data)
{
  g_autofree char *link = g_build_filename (f->dir, "link", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);

  /* No folder the person did not choose. */
  g_assert_cmpint (run_loom (f, "backup"), ==, 2);
  g_assert_nonnull (strstr (f->err, "--to"));
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--quiet-minutes", "soon"), ==, 2);
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--quiet-minutes", "-1"), ==, 2);
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "extra"), ==, 2);

  /* --to must be a folder that exists, and not a link; nothing is created. */
  g_assert_no_errno (symlink (f->backups, link));
  g_assert_cmpint (run_loom (f, "backup", "--to", link), ==, 1);
  g_assert_nonnull (strstr (f->err, "symbolic link"));
  g_assert_cmpint (run_loom (f, "backup", "--to", missing), ==, 1);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (f->backups), ==, 0);
}

/* The JSON, the backups on disk and recorded, then a second run that finds nothing to do. */
static void
test_json (Fixture      *f,
           gconstpointer data)
{
  const char *const members[] = { "backed_up", "backups", "replaced", "failed", NULL };
  g_autoptr (JsonObject) first = NULL;
  g_autoptr (JsonObject) second = NULL;
  g_autofree char *tree = NULL;
  g_autofree char *tree_after = NULL;
  JsonArray       *ids, *paths;
  guint            n_quiet = count_quiet (f);

  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--json"), ==, 0);
  first = parse_out (f);
  assert_members (first, members);
  ids = json_object_get_array_member (first, "backed_up");
  paths = json_object_get_array_member (first, "backups");
  g_assert_cmpuint (json_array_get_length (ids), ==, n_quiet);
  g_assert_cmpuint (json_array_get_length (paths), ==, n_quiet);
  g_assert_cmpuint (array_length (first, "replaced"), ==, 0);
  g_assert_cmpuint (array_length (first, "failed"), ==, 0);
  g_assert_false (array_has (first, "backed_up", f->recent));
  g_assert_cmpuint (count_entries (f->backups), ==, n_quiet);

  for (guint i = 0; i < json_array_get_length (ids); i++)
    {
      const char      *uuid = json_array_get_string_element (ids, i);
      const char      *path = json_array_get_string_element (paths, i);
      g_autofree char *parent = g_path_get_dirname (path);
      g_autoptr (LoomSession) session = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_cmpstr (parent, ==, f->backups);
      g_assert_true (loom_package_verify (path, NULL, NULL, &error));
      g_assert_no_error (error);
      session = loom_store_get_session (f->store, uuid, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (loom_session_get_backup_path (session), ==, path);
    }

  /* Nothing changed since: nothing written, and it says so. */
  tree = loom_test_list_tree (f->backups, TRUE);
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--json"), ==, 0);
  second = parse_out (f);
  assert_members (second, members);
  g_assert_cmpuint (array_length (second, "backed_up"), ==, 0);
  tree_after = loom_test_list_tree (f->backups, TRUE);
  g_assert_cmpstr (tree_after, ==, tree);
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups), ==, 0);
  g_assert_nonnull (strstr (f->out, "up to date"));
}

/* With no quiet time, the session active now is taken too; the summary lists it. */
static void
test_quiet_minutes (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *line = NULL;

  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--json"), ==, 0);
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--quiet-minutes", "0"), ==, 0);
  g_test_message ("%s", f->out);
  g_assert_nonnull (strstr (f->out, "Backed up 1 session, written and verified:"));
  line = g_strdup_printf ("  %.8s  %s/", f->recent, f->backups);
  g_assert_nonnull (strstr (f->out, line));
  g_assert_cmpuint (count_entries (f->backups), ==, count_quiet (f) + 1);

  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--quiet-minutes", "0"), ==, 0);
  g_assert_nonnull (strstr (f->out, "up to date"));
}

/* No keyring to be had: nothing is written at all, never a backup in the clear. */
static void
test_encrypt_no_keyring (Fixture      *f,
                         gconstpointer data)
{
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "DBUS_SESSION_BUS_ADDRESS",
                                          "unix:path=/nonexistent/loom-test-bus", TRUE);

  g_assert_cmpint (run_loom_env (f, envp, "backup", "--to", f->backups, "--encrypt", NULL), ==, 1);
  g_test_message ("%s", f->err);
  g_assert_nonnull (strstr (f->err, "keyring"));
  g_assert_cmpstr (f->out, ==, "");
  g_assert_cmpuint (count_entries (f->backups), ==, 0);
}

/* With the harness's keyring: one .loombackup per session, named by it, and nothing else. */
static void
test_encrypt (Fixture      *f,
              gconstpointer data)
{
  g_autoptr (JsonObject) result = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *key_id = NULL;
  JsonArray       *ids, *paths;

  if (g_getenv ("LOOM_TEST_SESSION") == NULL)
    {
      g_test_skip ("Needs the keyring of the test harness (tests/harness/loom-test-session)");
      return;
    }

  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--encrypt", "--json"), ==, 0);
  g_test_message ("%s", f->err);
  key_id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (key_id);
  result = parse_out (f);
  ids = json_object_get_array_member (result, "backed_up");
  paths = json_object_get_array_member (result, "backups");
  g_assert_cmpuint (json_array_get_length (ids), ==, count_quiet (f));
  g_assert_cmpuint (count_entries (f->backups), ==, json_array_get_length (ids));
  for (guint i = 0; i < json_array_get_length (ids); i++)
    {
      g_autofree char *name = g_path_get_basename (json_array_get_string_element (paths, i));
      g_autofree char *expected = g_strconcat (json_array_get_string_element (ids, i),
                                               LOOM_BACKUP_SUFFIX, NULL);

      g_assert_cmpstr (name, ==, expected);
    }
}

/* Starts `loom backup --quiet-minutes 0` and kills it with SIGKILL once @n_new more backups
 * are recorded in the store (at once when 0), or lets it end if it ends first. Returns whether
 * it was killed. */
static gboolean
backup_and_kill (Fixture *f,
                 guint    n_new)
{
  g_autoptr (GError) error = NULL;
  const char *argv[] = { g_getenv ("LOOM_CLI"), "--db", f->db, "backup", "--to", f->backups,
                         "--quiet-minutes",     "0",    NULL };
  gint64      n_before = loom_test_count_rows (f->db, "backups");
  GPid        pid;
  int         wait_status = 0;

  g_spawn_async (NULL, (char **)argv, NULL,
                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                   G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);

  while (loom_test_count_rows (f->db, "backups") < n_before + n_new)
    {
      if (waitpid (pid, &wait_status, WNOHANG) == pid)
        return FALSE;
      g_usleep (200);
    }
  g_assert_no_errno (kill (pid, SIGKILL));
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  /* It may have finished just before the signal. */
  return WIFSIGNALED (wait_status);
}

/* Every session of @ids has its recorded backup in the folder, and it verifies. */
static void
assert_backups_verify (Fixture   *f,
                       GPtrArray *ids)
{
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (LoomSession) session = NULL;
      g_autoptr (GError) error = NULL;
      const char *path;

      session = loom_store_get_session (f->store, g_ptr_array_index (ids, i), &error);
      g_assert_no_error (error);
      path = loom_session_get_backup_path (session);
      g_assert_nonnull (path);
      g_assert_true (loom_package_verify (path, NULL, NULL, &error));
      g_assert_no_error (error);
    }
}

/* Killed at several moments while it replaces backups, `loom backup` leaves every session with
 * its recorded backup in the folder, verifying: the new one goes in before the old one goes. */
static void
test_killed (Fixture      *f,
             gconstpointer data)
{
  static const guint moments[] = { 0, 1, 3, 6, 10 };
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *sql = NULL;
  guint            n_killed = 0;

  /* Enough sessions for the run to be killed in the middle of them, each backed up once. */
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *title = g_strdup_printf ("Old session %02u - 2026-01-01", i);

      g_ptr_array_add (
        ids, loom_test_add_session (f->store, title, "codex", "ancient", 30, 10, 1000 + i));
    }
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups), ==, 0);
  assert_backups_verify (f, ids);

  /* Every one of them changed since (as an agent going on in each would make it). */
  sql = g_strdup_printf ("UPDATE sessions SET updated_at = %" G_GINT64_FORMAT
                         " WHERE title LIKE 'Old session %%'",
                         loom_time_now_ms () + 1);
  loom_test_exec_sql (f->db, sql);

  for (guint m = 0; m < G_N_ELEMENTS (moments); m++)
    {
      n_killed += backup_and_kill (f, moments[m]);
      g_test_message ("killed after %u new backups: %u entries in the folder", moments[m],
                      count_entries (f->backups));
      assert_backups_verify (f, ids);
    }
  g_assert_cmpuint (n_killed, >, 0);

  /* The rest, to the end; then nothing is due. */
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--quiet-minutes", "0"), ==, 0);
  assert_backups_verify (f, ids);
  g_assert_cmpint (run_loom (f, "backup", "--to", f->backups, "--quiet-minutes", "0"), ==, 0);
  g_assert_nonnull (strstr (f->out, "up to date"));
  /* A backup recorded before the kill replaced its previous one at the next run; what a kill
   * can leave is the one it was writing, unrecorded: at most one entry per kill. */
  g_test_message ("%u entries for %u sessions after %u kills", count_entries (f->backups),
                  count_top_level (f), n_killed);
  g_assert_cmpuint (count_entries (f->backups), <=, count_top_level (f) + n_killed);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  if (g_getenv ("LOOM_CLI") == NULL)
    g_error ("LOOM_CLI must name the loom executable under test");

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/cli/backup/usage", test_usage);
  ADD ("/cli/backup/json", test_json);
  ADD ("/cli/backup/quiet-minutes", test_quiet_minutes);
  ADD ("/cli/backup/killed", test_killed);
  ADD ("/cli/backup/encrypt-no-keyring", test_encrypt_no_keyring);
  ADD ("/cli/backup/encrypt", test_encrypt);
#undef ADD

  return g_test_run ();
}
