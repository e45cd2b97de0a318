/* test-cli-sweep.c — `loom sweep`, run as a real process against a store of the fixtures.
 *
 * Beside the options and the output (its JSON exactly), the hostile cases: a backup folder
 * that fills up half-way (the process's file size limit, so that its writes really fail), and
 * the process killed with SIGKILL at several moments. After each, every session the store has
 * archived must have its backup recorded, on disk, verifying; no other session is archived.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loom-backup.h"
#include "loom-backup-key.h"
#include "loom-core.h"
#include "loom-package-import.h"
#include "loom-store.h"
#include "loom-keyring.h"
#include "loom-test-utils.h"
#include "loom-time.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)

/* The file size limit of the sweep that fills its folder: above the store's files, below the
 * big artifact of one session. */
#define FSIZE_LIMIT   (2 * 1024 * 1024)
#define BIG_FILE_SIZE (2 * FSIZE_LIMIT)

typedef struct
{
  char      *dir;
  char      *db;
  LoomStore *store; /* the test's own connection, to set up and check */
  char      *backups;
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
  g_autofree char  *recent = NULL;

  f->store = loom_test_new_store (&f->dir, &f->db);
  loom_import_stats_free (loom_test_import_paths (f->store, NULL, paths));
  recent = loom_test_add_session (f->store, "Active today", "codex", "fresh", 4, 0,
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
  g_free (f->out);
  g_free (f->err);
}

static GPtrArray *
loom_argv (Fixture    *f,
           const char *first,
           va_list     args)
{
  GPtrArray  *argv = g_ptr_array_new ();
  const char *arg;

  g_ptr_array_add (argv, (char *)g_getenv ("LOOM_CLI"));
  g_ptr_array_add (argv, (char *)"--db");
  g_ptr_array_add (argv, f->db);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *)arg);
  g_ptr_array_add (argv, NULL);
  return argv;
}

static void
limit_file_size (gpointer user_data)
{
  struct rlimit limit = { FSIZE_LIMIT, FSIZE_LIMIT };

  /* Writes past the limit fail with EFBIG instead of killing the process. */
  signal (SIGXFSZ, SIG_IGN);
  setrlimit (RLIMIT_FSIZE, &limit);
}

/* Runs `loom --db DB ARGS…` in @envp (NULL: ours), its file size limited when @limited, and
 * keeps its output. */
static int
run_loom_full (Fixture    *f,
               GStrv       envp,
               gboolean    limited,
               const char *first,
               ...)
{
  g_autoptr (GPtrArray) argv = NULL;
  g_autoptr (GError) error = NULL;
  int     wait_status = 0;
  va_list args;

  va_start (args, first);
  argv = loom_argv (f, first, args);
  va_end (args);
  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_spawn_sync (NULL, (char **)argv->pdata, envp, G_SPAWN_DEFAULT, limited ? limit_file_size : NULL,
                NULL, &f->out, &f->err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  f->status = WEXITSTATUS (wait_status);
  return f->status;
}

#define run_loom(f, ...) run_loom_full ((f), NULL, FALSE, __VA_ARGS__, NULL)

static JsonNode *
parse_out (Fixture *f)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
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

/* The uuids of the sessions a sweep at --older-than 30 may take now. */
static GPtrArray *
eligible_ids (Fixture *f)
{
  g_autoptr (JsonNode) root = NULL;
  JsonArray *eligible;
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  g_assert_cmpint (
    run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--dry-run", "--json"), ==, 0);
  root = parse_out (f);
  eligible = json_object_get_array_member (json_node_get_object (root), "eligible");
  for (guint i = 0; i < json_array_get_length (eligible); i++)
    g_ptr_array_add (ids, g_strdup (json_object_get_string_member (
                            json_array_get_object_element (eligible, i), "id")));
  return ids;
}

static void
assert_package_verifies (const char *path,
                         const char *uuid)
{
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) fresh = loom_test_new_store (&dir, &db);
  g_autoptr (LoomPackageImportResult) result = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (loom_import_package (fresh, path, &result, NULL, &error));
  g_assert_no_error (error);
  session = loom_store_get_session (fresh, uuid, &error);
  g_assert_no_error (error);
  g_assert_true (loom_session_get_archived (session));
  g_clear_object (&session);
  g_clear_pointer (&result, loom_package_import_result_free);
  g_assert_finalize_object (g_steal_pointer (&fresh));
  loom_test_remove_tree (dir);
}

/* The same for a .loombackup, restored with the key in the keyring. */
static void
assert_encrypted_verifies (const char *path,
                           const char *uuid)
{
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) fresh = loom_test_new_store (&dir, &db);
  g_autoptr (LoomRestoreResult) result = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  result = loom_restore (fresh, (const char *const[]){ path, NULL }, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->failed->len, ==, 0);
  g_assert_cmpuint (result->restored->len, ==, 1);
  session = loom_store_get_session (fresh, uuid, &error);
  g_assert_no_error (error);
  g_assert_true (loom_session_get_archived (session));
  g_clear_object (&session);
  g_clear_pointer (&result, loom_restore_result_free);
  g_assert_finalize_object (g_steal_pointer (&fresh));
  loom_test_remove_tree (dir);
}

/* The promise of a sweep, whatever stopped it: each session archived has its backup recorded,
 * there, verifying; each of the others has none. Returns how many are archived. */
static guint
assert_archived_have_backups (Fixture   *f,
                              GPtrArray *ids)
{
  guint n_archived = 0;

  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (LoomSession)
        session = loom_store_get_session (f->store, g_ptr_array_index (ids, i), &error);
      const char *path;

      g_assert_no_error (error);
      path = loom_session_get_backup_path (session);
      if (!loom_session_get_archived (session))
        {
          g_assert_null (path);
          continue;
        }
      n_archived++;
      g_assert_nonnull (path);
      if (g_str_has_suffix (path, LOOM_BACKUP_SUFFIX))
        {
          g_autofree char *name = g_path_get_basename (path);

          /* One file named by the session's id — "<id> (2)" when a sweep killed after writing
           * the first left it there, never replaced; it decrypts with the keyring's key and
           * verifies. */
          g_assert_true (g_str_has_prefix (name, loom_session_get_uuid (session)));
          g_assert_true (
            g_str_equal (name + strlen (loom_session_get_uuid (session)), LOOM_BACKUP_SUFFIX) ||
            g_str_has_prefix (name + strlen (loom_session_get_uuid (session)), " ("));
          g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
          assert_encrypted_verifies (path, loom_session_get_uuid (session));
          continue;
        }
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
      assert_package_verifies (path, loom_session_get_uuid (session));
    }
  return n_archived;
}

static void
test_usage (Fixture      *f,
            gconstpointer data)
{
  g_autofree char *link = g_build_filename (f->dir, "link", NULL);
  g_autofree char *file = g_build_filename (f->dir, "file", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);

  /* Both are required: no threshold and no folder the person did not choose. */
  g_assert_cmpint (run_loom (f, "sweep", "--to", f->backups), ==, 2);
  g_assert_nonnull (strstr (f->err, "--older-than"));
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30"), ==, 2);
  g_assert_nonnull (strstr (f->err, "--to"));
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "a month", "--to", f->backups), ==, 2);
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "-3", "--to", f->backups), ==, 2);
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "extra"), ==, 2);

  /* --to must be a folder that exists, and not a link. */
  g_assert_no_errno (symlink (f->backups, link));
  g_file_set_contents (file, "", 0, NULL);
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", link), ==, 1);
  g_assert_nonnull (strstr (f->err, "symbolic link"));
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", file), ==, 1);
  g_assert_nonnull (strstr (f->err, "not a folder"));
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", missing, "--dry-run"), ==,
                   1);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
}

static void
test_nothing_eligible (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (JsonNode) root = NULL;
  JsonObject *object;

  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "36500", "--to", f->backups), ==, 0);
  g_assert_cmpstr (f->out, ==, "No sessions older than 36500 days. Nothing to archive.\n");

  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "36500", "--to", f->backups, "--json"), ==,
                   0);
  root = parse_out (f);
  object = json_node_get_object (root);
  assert_members (
    object, (const char *const[]){ "eligible", "archived", "packages", "failed", "dry_run", NULL });
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "eligible")), ==,
                    0);
  g_assert_false (json_object_get_boolean_member (object, "dry_run"));
}

/* --dry-run lists what would be swept, and changes and writes nothing. */
static void
test_dry_run (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *db_before = NULL;
  g_autofree char *db_after = NULL;
  g_autofree char *tree = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GPtrArray) ids = NULL;
  JsonObject *object;
  JsonArray  *eligible;

  loom_test_exec_sql (f->db, "PRAGMA wal_checkpoint(TRUNCATE);");
  db_before = loom_test_file_checksum (f->db);

  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--dry-run"), ==,
                   0);
  g_assert_nonnull (strstr (f->out, "would be archived"));
  g_assert_null (strstr (f->out, "Active today"));

  g_assert_cmpint (
    run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--dry-run", "--json"), ==, 0);
  root = parse_out (f);
  object = json_node_get_object (root);
  assert_members (
    object, (const char *const[]){ "eligible", "archived", "packages", "failed", "dry_run", NULL });
  g_assert_true (json_object_get_boolean_member (object, "dry_run"));
  eligible = json_object_get_array_member (object, "eligible");
  g_assert_cmpuint (json_array_get_length (eligible), >, 5);
  for (guint i = 0; i < json_array_get_length (eligible); i++)
    {
      JsonObject *candidate = json_array_get_object_element (eligible, i);

      assert_members (candidate, (const char *const[]){ "id", "title", "last_active",
                                                        "message_count", "model", NULL });
      g_assert_nonnull (json_object_get_string_member (candidate, "id"));
      g_assert_nonnull (json_object_get_string_member (candidate, "last_active"));
      g_assert_cmpint (json_object_get_int_member (candidate, "message_count"), >=, 0);
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "archived")), ==,
                    0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "packages")), ==,
                    0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "failed")), ==, 0);

  /* Nothing in the folder, the store's file as it was, every session where it was. */
  tree = loom_test_list_tree (f->backups, FALSE);
  g_assert_cmpstr (tree, ==, "");
  loom_test_exec_sql (f->db, "PRAGMA wal_checkpoint(TRUNCATE);");
  db_after = loom_test_file_checksum (f->db);
  g_assert_cmpstr (db_after, ==, db_before);
  ids = eligible_ids (f);
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, 0);
}

static void
test_sweep_json (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GPtrArray) ids = eligible_ids (f);
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonNode) shown = NULL;
  JsonObject *object, *backup;
  JsonArray  *archived, *packages;

  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--json"), ==,
                   0);
  root = parse_out (f);
  object = json_node_get_object (root);
  assert_members (
    object, (const char *const[]){ "eligible", "archived", "packages", "failed", "dry_run", NULL });
  g_assert_false (json_object_get_boolean_member (object, "dry_run"));
  archived = json_object_get_array_member (object, "archived");
  packages = json_object_get_array_member (object, "packages");
  g_assert_cmpuint (json_array_get_length (archived), ==, ids->len);
  g_assert_cmpuint (json_array_get_length (packages), ==, ids->len);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "failed")), ==, 0);
  for (guint i = 0; i < ids->len; i++)
    g_assert_cmpstr (json_array_get_string_element (archived, i), ==, g_ptr_array_index (ids, i));
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, ids->len);

  /* `sessions show` tells where the backup is, in its JSON and its text. */
  g_assert_cmpint (run_loom (f, "sessions", "show", g_ptr_array_index (ids, 0), "--json"), ==, 0);
  shown = parse_out (f);
  backup = json_object_get_object_member (json_node_get_object (shown), "backup");
  g_assert_nonnull (backup);
  g_assert_cmpstr (json_object_get_string_member (backup, "path"), ==,
                   json_array_get_string_element (packages, 0));
  g_assert_nonnull (json_object_get_string_member (backup, "written_at"));
  g_assert_cmpint (run_loom (f, "sessions", "show", g_ptr_array_index (ids, 0)), ==, 0);
  g_assert_nonnull (strstr (f->out, json_array_get_string_element (packages, 0)));

  /* Swept once, there is nothing left to sweep. */
  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", f->backups), ==, 0);
  g_assert_cmpstr (f->out, ==, "No sessions older than 30 days. Nothing to archive.\n");
}

static void
test_sweep_summary (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GPtrArray) ids = eligible_ids (f);
  g_autofree char *expected = g_strdup_printf ("Archived %u sessions:", ids->len);

  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", f->backups), ==, 0);
  g_test_message ("%s", f->out);
  g_assert_nonnull (strstr (f->out, expected));
  g_assert_nonnull (strstr (f->out, "Fix the flaky store test"));
  g_assert_nonnull (strstr (f->out, "Backups written and verified:"));
  g_assert_nonnull (strstr (f->out, f->backups));
  g_assert_nonnull (strstr (f->out, "backed up."));
  /* Not a terminal: no progress. */
  g_assert_cmpstr (f->err, ==, "");
}

/* On a terminal (script(1) gives it one), the sweep tells where it is on standard error. */
static void
test_progress_on_terminal (Fixture      *f,
                           gconstpointer data)
{
  g_autofree char *script = g_find_program_in_path ("script");
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  if (script == NULL)
    {
      g_test_skip ("script(1), which gives a command a terminal, is not installed");
      return;
    }
  command = g_strdup_printf ("'%s' --db '%s' sweep --older-than 30 --to '%s'",
                             g_getenv ("LOOM_CLI"), f->db, f->backups);
  g_spawn_sync (NULL, (char *[]){ script, (char *)"-qec", command, (char *)"/dev/null", NULL },
                NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 0);
  g_assert_nonnull (strstr (out, "[1/"));
  g_assert_nonnull (strstr (out, "backing up: "));
  g_assert_nonnull (strstr (out, "verifying: "));
  g_assert_nonnull (strstr (out, "archiving: "));
  g_assert_nonnull (strstr (out, "Archived "));
}

/* A Claude Code session in @workspace that read big.txt, a text larger than the sweep's file
 * size limit: its backup copies it into artifacts/files/. */
static void
import_big_session (Fixture    *f,
                    const char *workspace)
{
  static const char session_id[] = "5e0b1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4";
  g_autofree char  *big = g_build_filename (workspace, "big.txt", NULL);
  g_autofree char  *transcript = g_build_filename (f->dir, "big-session.jsonl", NULL);
  g_autofree char  *contents = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (g_mkdir (workspace, 0700));
  for (guint i = 0; text->len < BIG_FILE_SIZE; i++)
    g_string_append_printf (text, "line %u of a large log\n", i);
  g_file_set_contents (big, text->str, (gssize)text->len, &error);
  g_assert_no_error (error);

  contents = g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"%s\",\"cwd\":\"%s\","
    "\"timestamp\":\"2026-05-01T10:00:00.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":\"Read the big log\"}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"%s\","
    "\"cwd\":\"%s\",\"timestamp\":\"2026-05-01T10:00:01.000Z\","
    "\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"Read\","
    "\"input\":{\"file_path\":\"%s\"}}]}}\n",
    session_id, workspace, session_id, workspace, big);
  g_file_set_contents (transcript, contents, -1, &error);
  g_assert_no_error (error);
  loom_import_stats_free (
    loom_test_import_paths (f->store, "claude-code", (const char *const[]){ transcript, NULL }));
}

/* The folder fills up half-way: the session whose backup does not fit is reported and left
 * unarchived, nothing of it is left in the folder, and the sweep goes on with the next. */
static void
test_full_half_way (Fixture      *f,
                    gconstpointer data)
{
  const char      *encrypt = GPOINTER_TO_INT (data) ? "--encrypt" : NULL;
  g_autofree char *workspace = g_build_filename (f->dir, "workspace", NULL);
  g_autoptr (GPtrArray) ids = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (JsonNode) retry = NULL;
  g_autofree char *tree = NULL;
  JsonObject      *object, *failure;
  JsonArray       *failed, *packages;
  const char      *big_id = NULL;
  guint            big_index = 0;
  GStatBuf         st;

  import_big_session (f, workspace);
  ids = eligible_ids (f);
  {
    g_autoptr (LoomSession)
      big = loom_test_find_session (f->store, "5e0b1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4");

    g_assert_nonnull (big);
    for (guint i = 0; i < ids->len; i++)
      if (g_str_equal (g_ptr_array_index (ids, i), loom_session_get_uuid (big)))
        {
          big_id = g_ptr_array_index (ids, i);
          big_index = i;
        }
  }
  /* Half-way: sessions before it and after it. */
  g_assert_nonnull (big_id);
  g_assert_cmpuint (big_index, >, 0);
  g_assert_cmpuint (big_index, <, ids->len - 1);

  /* The store's own files stay under the limit: only the backup can hit it. */
  loom_test_exec_sql (f->db, "PRAGMA wal_checkpoint(TRUNCATE);");
  g_assert_no_errno (g_stat (f->db, &st));
  g_assert_cmpint (st.st_size, <, FSIZE_LIMIT / 2);

  g_assert_cmpint (run_loom_full (f, NULL, TRUE, "sweep", "--older-than", "30", "--to", f->backups,
                                  "--json", encrypt, NULL),
                   ==, 1);
  root = parse_out (f);
  object = json_node_get_object (root);
  failed = json_object_get_array_member (object, "failed");
  packages = json_object_get_array_member (object, "packages");
  g_assert_cmpuint (json_array_get_length (failed), ==, 1);
  failure = json_array_get_object_element (failed, 0);
  g_assert_cmpstr (json_object_get_string_member (failure, "id"), ==, big_id);
  g_test_message ("%s", json_object_get_string_member (failure, "error"));
  /* Plain, the copy of big.txt is what fails; encrypted, its staged copy or the ciphertext. */
  if (encrypt == NULL)
    g_assert_nonnull (strstr (json_object_get_string_member (failure, "error"), "big.txt"));
  g_assert_cmpuint (json_array_get_length (packages), ==, ids->len - 1);
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, ids->len - 1);

  /* Nothing in the folder but the packages reported. */
  tree = loom_test_list_tree (f->backups, FALSE);
  {
    g_auto (GStrv) lines = g_strsplit (tree, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        gboolean in_a_package = FALSE;

        if (*lines[i] == '\0')
          continue;
        for (guint p = 0; p < json_array_get_length (packages); p++)
          {
            g_autofree char *name = g_path_get_basename (
              json_array_get_string_element (packages, p));

            in_a_package |= g_str_has_prefix (lines[i], name);
          }
        g_assert_true (in_a_package);
      }
  }

  /* With room again, the next sweep takes it. */
  g_assert_cmpint (
    run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--json", encrypt), ==, 0);
  retry = parse_out (f);
  g_assert_cmpstr (json_array_get_string_element (
                     json_object_get_array_member (json_node_get_object (retry), "archived"), 0),
                   ==, big_id);
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, ids->len);
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* Starts a sweep and kills it with SIGKILL once @n_new more entries are in the folder (at
 * once when 0), or lets it end if it ends first. Returns whether it was killed. */
static gboolean
sweep_and_kill (Fixture *f,
                guint    n_new,
                gboolean encrypt)
{
  g_autoptr (GError) error = NULL;
  const char *argv[] = {
    g_getenv ("LOOM_CLI"),        "--db", f->db, "sweep", "--older-than", "30", "--to", f->backups,
    encrypt ? "--encrypt" : NULL, NULL
  };
  guint n_before = count_entries (f->backups);
  GPid  pid;
  int   wait_status = 0;

  g_spawn_async (NULL, (char **)argv, NULL,
                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                   G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);

  while (count_entries (f->backups) < n_before + n_new)
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

/* Killed at several moments, a sweep leaves no session archived without its verified backup,
 * and the next sweep picks up where it stopped; encrypted (@data) or not. */
static void
test_killed (Fixture      *f,
             gconstpointer data)
{
  gboolean encrypt = GPOINTER_TO_INT (data);

  static const guint moments[] = { 0, 1, 2, 4, 7 };
  g_autoptr (GPtrArray) ids = NULL;
  guint n_killed = 0, n_archived = 0;

  /* Enough sessions for the sweep to be killed in the middle of them. */
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *title = g_strdup_printf ("Old session %02u - 2026-01-01", i);
      g_free (loom_test_add_session (f->store, title, "codex", "ancient", 30, 10, 1000 + i));
    }
  ids = eligible_ids (f);

  for (guint m = 0; m < G_N_ELEMENTS (moments); m++)
    {
      guint now_archived;

      n_killed += sweep_and_kill (f, moments[m], encrypt);
      now_archived = assert_archived_have_backups (f, ids);
      g_test_message ("killed after %u new entries: %u sessions archived", moments[m],
                      now_archived);
      g_assert_cmpuint (now_archived, >=, n_archived);
      n_archived = now_archived;
    }
  g_assert_cmpuint (n_killed, >, 0);

  /* The rest, to the end. */
  g_assert_cmpint (
    run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, encrypt ? "--encrypt" : NULL),
    ==, 0);
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, ids->len);
}

/* No keyring to be had: the encrypted sweep stops before it writes or archives anything, and
 * never falls back to backups in the clear. */
static void
test_encrypt_no_keyring (Fixture      *f,
                         gconstpointer data)
{
  g_autoptr (GPtrArray) ids = eligible_ids (f);
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "DBUS_SESSION_BUS_ADDRESS",
                                          "unix:path=/nonexistent/loom-test-bus", TRUE);
  g_autofree char *tree = NULL;

  g_assert_cmpint (run_loom_full (f, envp, FALSE, "sweep", "--older-than", "30", "--to", f->backups,
                                  "--encrypt", NULL),
                   ==, 1);
  g_test_message ("%s", f->err);
  g_assert_nonnull (strstr (f->err, "keyring"));
  g_assert_null (strstr (f->err, "recovery key"));
  g_assert_cmpstr (f->out, ==, "");
  tree = loom_test_list_tree (f->backups, FALSE);
  g_assert_cmpstr (tree, ==, "");
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, 0);
}

/* A locked keyring the person does not unlock (no prompt can come here): the encrypted sweep
 * stops with an error that says so, before anything is written or archived, and no second key
 * is made in place of the locked one. */
static void
test_encrypt_locked_keyring (Fixture      *f,
                             gconstpointer data)
{
  g_autoptr (GPtrArray) ids = eligible_ids (f);
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) listed = NULL;
  g_autofree char *tree = NULL;
  gboolean         created = FALSE;

  if (g_getenv ("LOOM_TEST_SESSION") == NULL)
    {
      g_test_skip ("Needs the keyring of the test harness (tests/harness/loom-test-session)");
      return;
    }
  key = loom_backup_key_load_or_create (&created, NULL, &error);
  g_assert_no_error (error);
  loom_test_lock_login_keyring ();

  g_assert_cmpint (run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--encrypt"), ==,
                   1);
  g_test_message ("%s", f->err);
  g_assert_nonnull (strstr (f->err, "locked"));
  g_assert_null (strstr (f->err, "recovery key"));
  tree = loom_test_list_tree (f->backups, FALSE);
  g_assert_cmpstr (tree, ==, "");
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, 0);

  loom_test_unlock_login_keyring ();
  listed = loom_keyring_list_key_ids (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (listed), ==, 1);
  g_assert_cmpstr (listed[0], ==, loom_backup_key_get_id (key));
}

/* The recovery key of @err: 14 groups of 4 characters of Crockford's base32. */
static char *
find_recovery_key (const char *err)
{
  g_autoptr (GRegex) regex = g_regex_new ("[0-9A-Z]{4}(-[0-9A-Z]{4}){13}", G_REGEX_DEFAULT,
                                          G_REGEX_MATCH_DEFAULT, NULL);
  g_autoptr (GMatchInfo) match = NULL;

  if (!g_regex_match (regex, err, G_REGEX_MATCH_DEFAULT, &match))
    return NULL;
  return g_match_info_fetch (match, 0);
}

/* The first encrypted sweep creates the backup key and shows its recovery key once, on
 * standard error; the next uses the same key and shows nothing. Each session archived has
 * its .loombackup. */
static void
test_encrypt (Fixture      *f,
              gconstpointer data)
{
  g_autoptr (GPtrArray) ids = eligible_ids (f);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (LoomBackupKey) written_down = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *recovery = NULL;
  JsonObject      *object;
  guint            n_archived, n_failed;

  if (g_getenv ("LOOM_TEST_SESSION") == NULL)
    {
      g_test_skip ("Needs the keyring of the test harness (tests/harness/loom-test-session)");
      return;
    }
  before = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  if (before != NULL)
    {
      g_test_skip ("The harness's keyring holds a backup key already");
      return;
    }

  run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--encrypt", "--json");
  g_test_message ("%s", f->err);
  after = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (after);
  g_assert_nonnull (strstr (f->err, after));
  g_assert_nonnull (strstr (f->err, "Write down"));
  recovery = find_recovery_key (f->err);
  g_assert_nonnull (recovery);
  written_down = loom_backup_key_new_from_recovery (recovery, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_backup_key_get_id (written_down), ==, after);
  /* Standard output is the JSON alone. */
  g_assert_null (strstr (f->out, recovery));

  root = parse_out (f);
  object = json_node_get_object (root);
  n_archived = json_array_get_length (json_object_get_array_member (object, "archived"));
  n_failed = json_array_get_length (json_object_get_array_member (object, "failed"));
  g_assert_cmpuint (n_failed, ==, 0);
  g_assert_cmpuint (n_archived, ==, ids->len);
  g_assert_cmpint (f->status, ==, 0);
  g_assert_cmpuint (assert_archived_have_backups (f, ids), ==, n_archived);
  for (guint i = 0; i < n_archived; i++)
    g_assert_true (g_str_has_suffix (
      json_array_get_string_element (json_object_get_array_member (object, "packages"), i),
      LOOM_BACKUP_SUFFIX));

  /* The key exists now: it is used, and its recovery key not shown again. */
  run_loom (f, "sweep", "--older-than", "30", "--to", f->backups, "--encrypt");
  g_assert_null (find_recovery_key (f->err));
  g_assert_null (strstr (f->err, "Write down"));
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
#define ADD_ENCRYPTED(path, func) \
  g_test_add (path, Fixture, GINT_TO_POINTER (TRUE), fixture_set_up, func, fixture_tear_down)
  ADD ("/cli/sweep/usage", test_usage);
  ADD ("/cli/sweep/nothing-eligible", test_nothing_eligible);
  ADD ("/cli/sweep/dry-run", test_dry_run);
  ADD ("/cli/sweep/json", test_sweep_json);
  ADD ("/cli/sweep/summary", test_sweep_summary);
  ADD ("/cli/sweep/progress-on-terminal", test_progress_on_terminal);
  ADD ("/cli/sweep/full-half-way", test_full_half_way);
  ADD ("/cli/sweep/killed", test_killed);
  ADD ("/cli/sweep/encrypt-no-keyring", test_encrypt_no_keyring);
  ADD ("/cli/sweep/encrypt", test_encrypt);
  ADD ("/cli/sweep/encrypt-locked-keyring", test_encrypt_locked_keyring);
  ADD_ENCRYPTED ("/cli/sweep/encrypt-full-half-way", test_full_half_way);
  ADD_ENCRYPTED ("/cli/sweep/encrypt-killed", test_killed);
#undef ADD
#undef ADD_ENCRYPTED

  return g_test_run ();
}
