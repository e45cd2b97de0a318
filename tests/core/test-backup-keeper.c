/* test-backup-keeper.c — continuous backup on a real store made from the agents' fixtures.
 *
 * The fixtures' sessions are months old, so quiet; one session is added as active now, and one
 * old one put in the trash. One Claude Code session is imported from a copy of its fixture, so
 * that the test can make it change for real: a line appended, and imported again. The keeper
 * must back up exactly the quiet, live, top-level sessions; change nothing when run again;
 * back up a session that changed again and replace its previous backup (one backup per session
 * in the folder, and it verifies or restores), plain and encrypted; remove, at the next run,
 * the previous backup a killed run recorded a successor for; and keep the previous backup of a
 * session whose new one cannot be written or recorded.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "loom-backup-keeper.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-package-import.h"
#include "loom-store-backups.h"
#include "loom-test-utils.h"
#include "loom-time.h"

#define MINUTE_MS (60 * (gint64)1000)
#define HOUR_MS   (60 * MINUTE_MS)
#define QUIET_MS  (10 * MINUTE_MS)

/* The Claude Code session the test changes, by the agent's own id. */
#define CHANGING_ID   "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47"
#define CHANGING_FILE "streamed-tool-error/-home-ada-src-loom/" CHANGING_ID ".jsonl"

typedef struct
{
  LoomTestStore base;
  char         *backups;  /* base.dir/backups */
  char         *agent;    /* base.dir/agent: the copy of the changing session's folder */
  char         *jsonl;    /* its file */
  char         *changing; /* its uuid in the store */
  char         *recent;   /* the uuid of the session active now */
  char         *trashed;  /* an old session in the trash */
  gint64        now;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *codex = loom_test_fixture_path ("codex", NULL);
  g_autofree char *subagents = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  g_autofree char *original = loom_test_fixture_path ("claude", CHANGING_FILE, NULL);
  g_autofree char *project = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (LoomSession) changing = NULL;
  g_autoptr (GListModel) old = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;

  loom_test_store_set_up (&f->base, data);

  f->agent = g_build_filename (f->base.dir, "agent", NULL);
  project = g_build_filename (f->agent, "-home-ada-src-loom", NULL);
  g_assert_no_errno (g_mkdir_with_parents (project, 0700));
  f->jsonl = g_build_filename (project, CHANGING_ID ".jsonl", NULL);
  g_assert_true (g_file_get_contents (original, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (f->jsonl, contents, length, &error));
  g_assert_no_error (error);

  loom_test_store_import_path (&f->base, "codex", codex);
  loom_test_store_import_path (&f->base, "claude-code", subagents);
  loom_test_store_import_path (&f->base, "claude-code", f->agent);

  changing = loom_test_find_session (f->base.store, CHANGING_ID);
  g_assert_nonnull (changing);
  f->changing = g_strdup (loom_session_get_uuid (changing));

  f->now = loom_time_now_ms ();
  f->recent = loom_test_add_session (f->base.store, "Active now", "codex", "fresh", 4, 0, f->now);

  /* The oldest top-level session goes in the trash: the keeper leaves it alone. */
  old = loom_store_list_sweep_candidates (f->base.store, f->now - HOUR_MS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (old), >=, 3);
  {
    g_autoptr (LoomSession) first = g_list_model_get_item (old, 0);

    f->trashed = g_strdup (loom_session_get_uuid (first));
    g_assert_cmpstr (f->trashed, !=, f->changing);
  }
  g_assert_true (loom_store_set_trashed (f->base.store, f->trashed, TRUE, &error));
  g_assert_no_error (error);

  f->backups = g_build_filename (f->base.dir, "backups", NULL);
  g_assert_no_errno (g_mkdir (f->backups, 0700));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  /* A test that made the folder read-only gives it back, for the removal. */
  g_chmod (f->backups, 0700);
  g_free (f->backups);
  g_free (f->agent);
  g_free (f->jsonl);
  g_free (f->changing);
  g_free (f->recent);
  g_free (f->trashed);
  loom_test_store_tear_down (&f->base, data);
}

static LoomKeeperResult *
keep_up (Fixture             *f,
         const LoomBackupKey *key,
         gint64               now)
{
  g_autoptr (GError) error = NULL;
  LoomKeeperResult *result = loom_backup_keep_up (f->base.store, f->backups, key, QUIET_MS, now,
                                                  NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_false (result->cancelled);
  for (guint i = 0; i < result->failed->len; i++)
    {
      const LoomKeeperFailure *failure = g_ptr_array_index (result->failed, i);

      g_test_message ("failed: %s: %s", failure->session_id, failure->error->message);
    }
  g_assert_cmpuint (result->paths->len, ==, result->backed_up->len);
  return result;
}

static LoomSession *
reload (Fixture    *f,
        const char *uuid)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session = loom_store_get_session (f->base.store, uuid, &error);

  g_assert_no_error (error);
  return session;
}

static gboolean
has_string (GPtrArray  *strings,
            const char *string)
{
  for (guint i = 0; i < strings->len; i++)
    if (g_str_equal (g_ptr_array_index (strings, i), string))
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

/* The path recorded as @uuid's latest backup, which must name @expected when not NULL. */
static char *
backup_path_of (Fixture    *f,
                const char *uuid)
{
  g_autoptr (LoomSession) session = reload (f, uuid);

  g_assert_nonnull (loom_session_get_backup_path (session));
  g_assert_cmpint (loom_session_get_backup_at (session), >, 0);
  return g_strdup (loom_session_get_backup_path (session));
}

/* The package at @path verifies, imports into a store of its own, and brings back @uuid with
 * its messages; returns how many. */
static gint64
plain_backup_messages (const char *path,
                       const char *uuid)
{
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) fresh = loom_test_new_store (&dir, &db);
  g_autoptr (LoomPackageImportResult) result = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  gint64 n_messages;

  g_assert_true (loom_package_verify (path, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (loom_import_package (fresh, path, &result, NULL, &error));
  g_assert_no_error (error);
  session = loom_store_get_session (fresh, uuid, &error);
  g_assert_no_error (error);
  n_messages = loom_session_get_message_count (session);
  g_clear_object (&session);
  g_clear_pointer (&result, loom_package_import_result_free);
  g_assert_finalize_object (g_steal_pointer (&fresh));
  loom_test_remove_tree (dir);
  return n_messages;
}

/* The same for an encrypted backup, restored with @key as the recovery key. */
static gint64
encrypted_backup_messages (const char          *path,
                           const char          *uuid,
                           const LoomBackupKey *key)
{
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) fresh = loom_test_new_store (&dir, &db);
  g_autoptr (LoomRestoreResult) result = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;
  const char *const  paths[] = { path, NULL };
  gint64             n_messages;

  options.recovery_key = key;
  result = loom_restore (fresh, paths, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->failed->len, ==, 0);
  g_assert_cmpuint (result->restored->len, ==, 1);
  session = loom_store_get_session (fresh, uuid, &error);
  g_assert_no_error (error);
  n_messages = loom_session_get_message_count (session);
  g_clear_object (&session);
  g_clear_pointer (&result, loom_restore_result_free);
  g_assert_finalize_object (g_steal_pointer (&fresh));
  loom_test_remove_tree (dir);
  return n_messages;
}

/* The agent writes one more answer, dated a moment from now (after any backup written so far),
 * and the store imports it. */
static void
change_session (Fixture *f)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr (GDateTime) later = g_date_time_add_seconds (now, 2);
  g_autofree char *stamp = g_date_time_format (later, "%Y-%m-%dT%H:%M:%S.000Z");
  g_autofree char *uuid = g_uuid_string_random ();
  g_autofree char *line = NULL;
  g_autoptr (LoomSession) before = reload (f, f->changing);
  g_autoptr (LoomSession) after = NULL;
  FILE *file;

  line = g_strdup_printf (
    "{\"parentUuid\":\"f5e6f708-92a3-44b5-86d7-e8f90a1b2c3d\",\"isSidechain\":false,"
    "\"userType\":\"external\",\"cwd\":\"/home/ada/src/loom\",\"sessionId\":\"" CHANGING_ID "\","
    "\"version\":\"2.1.81\",\"gitBranch\":\"main\",\"type\":\"assistant\",\"message\":{"
    "\"model\":\"claude-opus-4-6\",\"id\":\"msg_keeper_%s\",\"type\":\"message\","
    "\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"One more thing: the "
    "backups.\"}],\"stop_reason\":\"end_turn\"},\"uuid\":\"%s\",\"timestamp\":\"%s\"}\n",
    stamp, uuid, stamp);
  g_assert_nonnull ((file = fopen (f->jsonl, "a")));
  g_assert_cmpint (fputs (line, file), >=, 0);
  g_assert_no_errno (fclose (file));
  loom_test_store_import_path (&f->base, "claude-code", f->agent);

  after = reload (f, f->changing);
  g_assert_cmpint (loom_session_get_message_count (after), ==,
                   loom_session_get_message_count (before) + 1);
  g_assert_cmpint (loom_session_get_updated_at (after), >, loom_session_get_backup_at (before));
}

/* Every quiet, live, top-level session gets a backup in the folder, the one active now and the
 * one in the trash none; a second run changes nothing; an hour on, the one active now is quiet
 * too. */
static void
test_quiet_backed_up (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (LoomKeeperResult) first = keep_up (f, NULL, f->now);
  g_autoptr (LoomKeeperResult) again = NULL;
  g_autoptr (LoomKeeperResult) later = NULL;
  g_autoptr (GListModel) all = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *tree = NULL;
  g_autofree char *tree_again = NULL;
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  guint            n_expected = 0, n_subagents = 0;

  g_assert_cmpuint (first->failed->len, ==, 0);
  g_assert_cmpuint (first->replaced->len, ==, 0);

  query.collection = LOOM_COLLECTION_EVERYTHING;
  all = loom_store_list_sessions (f->base.store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (all, i);
      const LoomSessionRecord *r = loom_session_get_record (session);
      gboolean                 expected = r->trashed_at == 0 && r->parent_uuid == NULL &&
                                          r->updated_at < f->now - QUIET_MS;

      n_expected += expected;
      g_assert_cmpint (has_string (first->backed_up, r->uuid), ==, expected);
      if (expected)
        {
          g_autofree char *parent = g_path_get_dirname (r->backup_path);

          g_assert_cmpstr (parent, ==, f->backups);
          g_assert_true (has_string (first->paths, r->backup_path));
          g_assert_cmpint (plain_backup_messages (r->backup_path, r->uuid), ==, r->message_count);
        }
      else if (r->parent_uuid != NULL)
        {
          g_autoptr (LoomSession) parent = reload (f, r->parent_uuid);

          /* In its session's package, and recorded with it. */
          n_subagents++;
          g_assert_cmpstr (r->backup_path, ==, loom_session_get_backup_path (parent));
        }
      else
        g_assert_null (r->backup_path);
    }
  g_assert_cmpuint (n_subagents, >, 0);
  g_assert_cmpuint (first->backed_up->len, ==, n_expected);
  g_assert_false (has_string (first->backed_up, f->recent));
  g_assert_false (has_string (first->backed_up, f->trashed));
  g_assert_cmpuint (count_entries (f->backups), ==, n_expected);

  /* Nothing changed: nothing is written, the folder is as it was. */
  tree = loom_test_list_tree (f->backups, TRUE);
  again = keep_up (f, NULL, f->now);
  g_assert_cmpuint (again->backed_up->len, ==, 0);
  g_assert_cmpuint (again->replaced->len, ==, 0);
  g_assert_cmpuint (again->failed->len, ==, 0);
  tree_again = loom_test_list_tree (f->backups, TRUE);
  g_assert_cmpstr (tree_again, ==, tree);

  later = keep_up (f, NULL, f->now + HOUR_MS);
  g_assert_cmpuint (later->backed_up->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (later->backed_up, 0), ==, f->recent);
  g_assert_cmpuint (count_entries (f->backups), ==, n_expected + 1);
}

/* A session that changed again is backed up again, its previous backup replaced: the folder
 * holds one backup per session, under its usual name, and it has the new message. */
static void
check_replaced (Fixture             *f,
                const LoomBackupKey *key)
{
  g_autoptr (LoomKeeperResult) first = keep_up (f, key, f->now);
  g_autoptr (LoomKeeperResult) second = NULL;
  g_autoptr (LoomKeeperResult) third = NULL;
  g_autofree char *before = backup_path_of (f, f->changing);
  g_autofree char *after = NULL;
  g_autofree char *name = NULL;
  g_autoptr (LoomSession) session = NULL;
  guint n_backups = first->backed_up->len;

  g_assert_cmpuint (first->failed->len, ==, 0);
  g_assert_cmpuint (count_entries (f->backups), ==, n_backups);
  if (key != NULL)
    {
      g_autofree char *usual = g_strconcat (f->changing, LOOM_BACKUP_SUFFIX, NULL);

      name = g_path_get_basename (before);
      g_assert_cmpstr (name, ==, usual);
      g_clear_pointer (&name, g_free);
    }

  change_session (f);
  /* Still within its quiet time: not yet. */
  second = keep_up (f, key, loom_time_now_ms ());
  g_assert_cmpuint (second->backed_up->len, ==, 0);

  third = keep_up (f, key, loom_time_now_ms () + HOUR_MS);
  g_assert_cmpuint (third->failed->len, ==, 0);
  g_assert_true (has_string (third->backed_up, f->changing));
  g_assert_cmpuint (third->replaced->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (third->replaced, 0), ==, before);

  /* The new backup is beside where the previous one was, which is gone; the store names it. */
  after = backup_path_of (f, f->changing);
  g_assert_cmpstr (after, !=, before);
  g_assert_true (has_string (third->paths, after));
  g_assert_false (g_file_test (before, G_FILE_TEST_EXISTS));
  {
    g_autofree char *parent = g_path_get_dirname (after);

    g_assert_cmpstr (parent, ==, f->backups);
  }
  if (key != NULL)
    {
      g_autofree char *second_name = g_strconcat (f->changing, " (2)", LOOM_BACKUP_SUFFIX, NULL);

      name = g_path_get_basename (after);
      g_assert_cmpstr (name, ==, second_name);
      g_clear_pointer (&name, g_free);
    }
  g_assert_cmpuint (count_entries (f->backups), ==,
                    n_backups + third->backed_up->len - third->replaced->len);

  session = reload (f, f->changing);
  if (key == NULL)
    g_assert_cmpint (plain_backup_messages (after, f->changing), ==,
                     loom_session_get_message_count (session));
  else
    g_assert_cmpint (encrypted_backup_messages (after, f->changing, key), ==,
                     loom_session_get_message_count (session));
}

static void
test_replaced_plain (Fixture      *f,
                     gconstpointer data)
{
  check_replaced (f, NULL);
}

static void
test_replaced_encrypted (Fixture      *f,
                         gconstpointer data)
{
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  g_autofree char *tree = NULL;

  check_replaced (f, key);

  /* Nothing in the folder but the encrypted files: no package, no temporary name. */
  tree = loom_test_list_tree (f->backups, FALSE);
  {
    g_auto (GStrv) lines = g_strsplit (tree, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (*lines[i] != '\0')
        g_assert_true (g_str_has_suffix (lines[i], LOOM_BACKUP_SUFFIX));
  }
}

/* Turning encryption on replaces the plain backup of a session that changed by its encrypted
 * one: the plaintext package leaves the folder once the encrypted file verified. */
static void
test_plain_replaced_by_encrypted (Fixture      *f,
                                  gconstpointer data)
{
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  g_autoptr (LoomKeeperResult) first = keep_up (f, NULL, f->now);
  g_autoptr (LoomKeeperResult) second = NULL;
  g_autofree char *plain = backup_path_of (f, f->changing);
  g_autofree char *encrypted = NULL;

  g_assert_true (g_file_test (plain, G_FILE_TEST_IS_DIR));
  change_session (f);
  second = keep_up (f, key, loom_time_now_ms () + HOUR_MS);
  g_assert_cmpuint (second->failed->len, ==, 0);
  g_assert_true (has_string (second->replaced, plain));
  g_assert_false (g_file_test (plain, G_FILE_TEST_EXISTS));
  encrypted = backup_path_of (f, f->changing);
  g_assert_true (g_str_has_suffix (encrypted, LOOM_BACKUP_SUFFIX));
  g_assert_true (g_file_test (encrypted, G_FILE_TEST_IS_REGULAR));
}

/* How the folder is made read-only for real: without write permission, or for root (whom
 * permissions do not stop) the immutable flag, where the file system has one. */
static gboolean
make_read_only (const char *path,
                gboolean    read_only)
{
  int      fd, flags = 0;
  gboolean ok;

  if (geteuid () != 0)
    return g_chmod (path, read_only ? 0500 : 0700) == 0;

  if ((fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return FALSE;
  ok = ioctl (fd, FS_IOC_GETFLAGS, &flags) == 0;
  if (ok)
    {
      flags = read_only ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
      ok = ioctl (fd, FS_IOC_SETFLAGS, &flags) == 0;
    }
  close (fd);
  return ok;
}

/* The folder turned read-only: the changed session's new backup cannot be written; it is
 * reported, and its previous backup stays, recorded, and still verifies. */
static void
test_unwritable_keeps_previous (Fixture      *f,
                                gconstpointer data)
{
  g_autoptr (LoomKeeperResult) first = keep_up (f, NULL, f->now);
  g_autoptr (LoomKeeperResult) second = NULL;
  g_autofree char         *before = backup_path_of (f, f->changing);
  g_autofree char         *after = NULL;
  g_autofree char         *tree = NULL;
  g_autofree char         *tree_after = NULL;
  const LoomKeeperFailure *failure;
  gint64                   n_messages = plain_backup_messages (before, f->changing);

  change_session (f);
  if (!make_read_only (f->backups, TRUE))
    {
      g_test_skip ("Running as root on a file system without the immutable flag: nothing "
                   "really makes the backup folder read-only here");
      return;
    }
  tree = loom_test_list_tree (f->backups, TRUE);
  second = keep_up (f, NULL, loom_time_now_ms () + HOUR_MS);
  g_assert_true (make_read_only (f->backups, FALSE));

  /* The changed session and the one active at the start, both due now, both failed. */
  g_assert_cmpuint (second->backed_up->len, ==, 0);
  g_assert_cmpuint (second->replaced->len, ==, 0);
  g_assert_cmpuint (second->failed->len, ==, 2);
  failure = g_ptr_array_index (second->failed, 0);
  g_assert_nonnull (failure->error);
  tree_after = loom_test_list_tree (f->backups, TRUE);
  g_assert_cmpstr (tree_after, ==, tree);
  after = backup_path_of (f, f->changing);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (plain_backup_messages (before, f->changing), ==, n_messages);
}

/* The new backup written but not recorded (the store refuses): it is removed, the previous one
 * stays the session's, and the other sessions due are backed up all the same. */
static void
test_unrecorded_keeps_previous (Fixture      *f,
                                gconstpointer data)
{
  g_autoptr (LoomKeeperResult) first = keep_up (f, NULL, f->now);
  g_autoptr (LoomKeeperResult) second = NULL;
  g_autoptr (LoomSession) changing = reload (f, f->changing);
  g_autofree char         *before = backup_path_of (f, f->changing);
  g_autofree char         *after = NULL;
  g_autofree char         *sql = NULL;
  const LoomKeeperFailure *failure;
  guint                    n_entries = count_entries (f->backups);

  change_session (f);
  sql = g_strdup_printf ("CREATE TRIGGER refuse_backup BEFORE INSERT ON backups"
                         " WHEN NEW.session_id = %" G_GINT64_FORMAT
                         " BEGIN SELECT RAISE (ABORT, 'the disk is full'); END;",
                         loom_session_get_record (changing)->id);
  loom_test_exec_sql (f->base.db, sql);

  second = keep_up (f, NULL, loom_time_now_ms () + HOUR_MS);
  g_assert_cmpuint (second->failed->len, ==, 1);
  failure = g_ptr_array_index (second->failed, 0);
  g_assert_cmpstr (failure->session_id, ==, f->changing);
  g_assert_nonnull (strstr (failure->error->message, "the disk is full"));
  /* The session active at the start went on to its backup. */
  g_assert_cmpuint (second->backed_up->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (second->backed_up, 0), ==, f->recent);
  g_assert_cmpuint (second->replaced->len, ==, 0);

  g_assert_cmpuint (count_entries (f->backups), ==, n_entries + 1);
  after = backup_path_of (f, f->changing);
  g_assert_cmpstr (after, ==, before);
  g_assert_true (g_file_test (before, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (plain_backup_messages (before, f->changing), ==,
                   loom_session_get_message_count (changing));
}

/* A run killed after it recorded a session's new backup, before it removed the previous one:
 * the next run, with nothing due, removes the previous one, and only when the new one is there. */
static void
test_superseded_removed (Fixture      *f,
                         gconstpointer data)
{
  g_autoptr (LoomKeeperResult) first = keep_up (f, NULL, f->now);
  g_autoptr (LoomKeeperResult) gone = NULL;
  g_autoptr (LoomKeeperResult) second = NULL;
  g_autoptr (LoomBackupResult) written = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *before = backup_path_of (f, f->changing);
  g_autofree char *hidden = g_build_filename (f->base.dir, "moved-away", NULL);
  guint            n_entries = count_entries (f->backups);

  /* A later backup elsewhere (a sweep onto another disk) leaves this folder's one alone. */
  {
    g_autofree char *elsewhere = g_build_filename (f->base.dir, "elsewhere", NULL);
    g_autoptr (LoomBackupResult) other = NULL;
    g_autoptr (LoomKeeperResult) after_other = NULL;

    g_assert_no_errno (g_mkdir (elsewhere, 0700));
    g_assert_true (
      loom_backup_session (f->base.store, f->changing, elsewhere, NULL, &other, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (
      loom_store_record_backup (f->base.store, f->changing, other->path, NULL, &error));
    g_assert_no_error (error);
    after_other = keep_up (f, NULL, f->now);
    g_assert_cmpuint (after_other->replaced->len, ==, 0);
    g_assert_cmpuint (after_other->backed_up->len, ==, 0);
    g_assert_true (g_file_test (before, G_FILE_TEST_IS_DIR));
  }

  /* What the killed run did: a verified backup written and recorded. */
  g_assert_true (
    loom_backup_session (f->base.store, f->changing, f->backups, NULL, &written, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (
    loom_store_record_backup (f->base.store, f->changing, written->path, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_entries (f->backups), ==, n_entries + 1);

  /* The new one gone from the folder (moved away by hand): the old one is all there is, and
   * stays. */
  g_assert_no_errno (g_rename (written->path, hidden));
  gone = keep_up (f, NULL, f->now);
  g_assert_cmpuint (gone->replaced->len, ==, 0);
  g_assert_true (g_file_test (before, G_FILE_TEST_IS_DIR));
  g_assert_no_errno (g_rename (hidden, written->path));

  second = keep_up (f, NULL, f->now);
  g_assert_cmpuint (second->backed_up->len, ==, 0);
  g_assert_cmpuint (second->replaced->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (second->replaced, 0), ==, before);
  g_assert_false (g_file_test (before, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (f->backups), ==, n_entries);
  {
    g_autofree char *latest = backup_path_of (f, f->changing);

    g_assert_cmpstr (latest, ==, written->path);
    g_assert_cmpint (plain_backup_messages (latest, f->changing), >, 0);
  }
}

/* A folder that is not a folder of its own is refused before anything is done. */
static void
test_bad_folder (Fixture      *f,
                 gconstpointer data)
{
  g_autofree char *link = g_build_filename (f->base.dir, "link", NULL);
  g_autofree char *missing = g_build_filename (f->base.dir, "missing", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (symlink (f->backups, link));
  g_assert_null (
    loom_backup_keep_up (f->base.store, link, NULL, QUIET_MS, f->now, NULL, NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (
    loom_backup_keep_up (f->base.store, missing, NULL, QUIET_MS, f->now, NULL, NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_cmpuint (count_entries (f->backups), ==, 0);
}

static void
keep_up_done (GObject      *source,
              GAsyncResult *res,
              gpointer      user_data)
{
  LoomKeeperResult **result = user_data;
  g_autoptr (GError) error = NULL;

  *result = loom_backup_keep_up_finish (LOOM_STORE (source), res, &error);
  g_assert_no_error (error);
}

/* In a thread on a connection of its own; the caller's sees the backups after. */
static void
test_async (Fixture      *f,
            gconstpointer data)
{
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  g_autoptr (LoomKeeperResult) result = NULL;
  g_autoptr (LoomKeeperResult) again = NULL;
  g_autofree char *path = NULL;

  loom_backup_keep_up_async (f->base.store, f->backups, key, FALSE, QUIET_MS, f->now, NULL, NULL,
                             NULL, keep_up_done, &result);
  g_clear_pointer (&key, loom_backup_key_free);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (result->failed->len, ==, 0);
  g_assert_true (has_string (result->backed_up, f->changing));
  path = backup_path_of (f, f->changing);
  g_assert_true (g_str_has_suffix (path, LOOM_BACKUP_SUFFIX));
  again = keep_up (f, NULL, f->now);
  g_assert_cmpuint (again->backed_up->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/backup-keeper/quiet-backed-up", test_quiet_backed_up);
  ADD ("/backup-keeper/replaced/plain", test_replaced_plain);
  ADD ("/backup-keeper/replaced/encrypted", test_replaced_encrypted);
  ADD ("/backup-keeper/replaced/plain-by-encrypted", test_plain_replaced_by_encrypted);
  ADD ("/backup-keeper/unwritable-keeps-previous", test_unwritable_keeps_previous);
  ADD ("/backup-keeper/unrecorded-keeps-previous", test_unrecorded_keeps_previous);
  ADD ("/backup-keeper/superseded-removed", test_superseded_removed);
  ADD ("/backup-keeper/bad-folder", test_bad_folder);
  ADD ("/backup-keeper/async", test_async);
#undef ADD

  return g_test_run ();
}
