/* test-backup.c — one session's backup, written and verified, and its way back.
 *
 * Real transcripts imported into a real store are backed up into a real folder: a plain
 * backup is the package folder, verified once written; an archive sweep's backup says the
 * session is archived, so that importing it into an empty store brings it back archived, in
 * its folder. A backup folder that is a link, or missing, is refused before anything is
 * written, and nothing is left in the store's staging folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "loom-backup-files.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-package-import.h"
#include "loom-test-utils.h"

typedef struct
{
  LoomTestStore base;
  char         *dir_b;
  char         *db_b;
  LoomStore    *store_b; /* empty, for the restores */
  char         *backups;
  char         *uuid; /* the Claude Code session's */
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *claude = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  const char      *paths[] = { claude, NULL };
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomFolder) folder = NULL;

  loom_test_store_set_up (&f->base, data);
  f->store_b = loom_test_new_store (&f->dir_b, &f->db_b);
  f->backups = g_build_filename (f->base.dir, "backups", NULL);
  g_assert_no_errno (g_mkdir (f->backups, 0700));
  loom_test_store_import_paths (&f->base, NULL, paths);

  f->uuid = loom_test_add_session (f->base.store, "Old work on the parser", "claude", "parser", 6,
                                   2, 1000);
  folder = loom_store_create_folder (f->base.store, "Parsers", &error);
  g_assert_no_error (error);
  g_assert_true (
    loom_store_move_session (f->base.store, f->uuid, loom_folder_get_id (folder), &error));
  g_assert_no_error (error);
  session = loom_store_get_session (f->base.store, f->uuid, &error);
  g_assert_no_error (error);
  g_assert_false (loom_session_get_archived (session));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->store_b);
  loom_test_remove_tree (f->dir_b);
  g_free (f->dir_b);
  g_free (f->db_b);
  g_free (f->backups);
  g_free (f->uuid);
  loom_test_store_tear_down (&f->base, data);
}

static guint
count_entries (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static char *
staging_path (Fixture *f)
{
  return loom_backup_staging_folder (f->base.store, NULL);
}

static void
test_plain_backup_round_trip (Fixture      *f,
                              gconstpointer data)
{
  LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;
  g_autoptr (LoomBackupResult) result = NULL;
  g_autoptr (LoomPackageImportResult) imported = NULL;
  g_autoptr (LoomSession) restored = NULL;
  g_autoptr (GError) error = NULL;
  guint n_verified = 0;

  options.as_archived = TRUE;
  g_assert_true (
    loom_backup_session (f->base.store, f->uuid, f->backups, &options, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (result->session_id, ==, f->uuid);
  g_assert_false (result->encrypted);
  g_assert_null (result->key_id);
  g_assert_true (g_str_has_prefix (result->path, f->backups));
  g_assert_true (g_file_test (result->path, G_FILE_TEST_IS_DIR));
  g_assert_cmpuint (result->n_files, >=, 4);
  g_assert_cmpuint (count_entries (f->backups), ==, 1);

  /* What it reports verified verifies again, and imports as it was, archived, in its folder. */
  g_assert_true (loom_package_verify (result->path, &n_verified, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_verified, ==, result->n_files);
  g_assert_true (loom_import_package (f->store_b, result->path, &imported, NULL, &error));
  g_assert_no_error (error);
  restored = loom_store_get_session (f->store_b, f->uuid, &error);
  g_assert_no_error (error);
  g_assert_true (loom_session_get_archived (restored));
  g_assert_cmpint (loom_session_get_message_count (restored), ==, 6);
  g_assert_cmpint (loom_session_get_folder_id (restored), >, 0);
}

static void
test_plain_backup_not_archived (Fixture      *f,
                                gconstpointer data)
{
  g_autoptr (LoomBackupResult) result = NULL;
  g_autoptr (LoomPackageImportResult) imported = NULL;
  g_autoptr (LoomSession) restored = NULL;
  g_autoptr (LoomSession) original = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (
    loom_backup_session (f->base.store, f->uuid, f->backups, NULL, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (loom_import_package (f->store_b, result->path, &imported, NULL, &error));
  g_assert_no_error (error);
  restored = loom_store_get_session (f->store_b, f->uuid, &error);
  g_assert_false (loom_session_get_archived (restored));
  /* The backup changed nothing in the store it was taken from. */
  original = loom_store_get_session (f->base.store, f->uuid, &error);
  g_assert_false (loom_session_get_archived (original));
}

static void
test_backup_folder_refused (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char *link = g_build_filename (f->base.dir, "link-to-backups", NULL);
  g_autofree char *missing = g_build_filename (f->base.dir, "no-such-folder", NULL);
  g_autofree char *staging = staging_path (f);
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (symlink (f->backups, link));
  g_assert_false (loom_backup_session (f->base.store, f->uuid, link, NULL, NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "symbolic link"));
  g_clear_error (&error);

  g_assert_false (loom_backup_session (f->base.store, f->uuid, missing, NULL, NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_cmpuint (count_entries (f->backups), ==, 0);
  g_assert_cmpuint (count_entries (staging), ==, 0);
}

static void
test_backup_unknown_session (Fixture      *f,
                             gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (loom_backup_session (f->base.store, "00000000-no-such-session", f->backups, NULL,
                                       NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_cmpuint (count_entries (f->backups), ==, 0);
}

static void
on_backed_up (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The async form writes the encrypted backup in a thread of its own with a copy of the key:
 * the caller frees its key at once, and the file still opens with that key. */
static void
test_encrypted_backup_async (Fixture      *f,
                             gconstpointer data)
{
  LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  LoomBackupKey *callers = loom_backup_key_copy (key);
  g_autoptr (GAsyncResult) async_result = NULL;
  g_autoptr (LoomBackupResult) result = NULL;
  g_autoptr (LoomRestoreResult) restored = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *name = g_strconcat (f->uuid, LOOM_BACKUP_SUFFIX, NULL);
  g_autofree char   *expected = g_build_filename (f->backups, name, NULL);
  g_autofree char   *contents = NULL;
  const char        *paths[] = { expected, NULL };
  LoomRestoreOptions restore_options = LOOM_RESTORE_OPTIONS_INIT;
  gsize              length = 0;

  options.key = callers;
  loom_backup_session_async (f->base.store, f->uuid, f->backups, &options, NULL, on_backed_up,
                             &async_result);
  loom_backup_key_free (callers);
  while (async_result == NULL)
    g_main_context_iteration (NULL, TRUE);
  result = loom_backup_session_finish (f->base.store, async_result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_true (result->encrypted);
  g_assert_cmpstr (result->key_id, ==, loom_backup_key_get_id (key));
  g_assert_cmpstr (result->path, ==, expected);
  g_assert_cmpuint (count_entries (f->backups), ==, 1);

  /* One file, its title nowhere in the clear. */
  g_assert_true (g_file_get_contents (expected, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_true (length > 8 && memcmp (contents, "LOOMBKUP", 8) == 0);
  g_assert_null (g_strstr_len (contents, length, "Old work on the parser"));

  /* Restorable into an empty store with the key alone. */
  restore_options.recovery_key = key;
  restored = loom_restore (f->store_b, paths, &restore_options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (restored->restored->len, ==, 1);
  g_assert_cmpuint (restored->failed->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/backup/plain/round-trip-archived", test_plain_backup_round_trip);
  ADD ("/backup/plain/not-archived", test_plain_backup_not_archived);
  ADD ("/backup/folder-refused", test_backup_folder_refused);
  ADD ("/backup/unknown-session", test_backup_unknown_session);
  ADD ("/backup/encrypted-async", test_encrypted_backup_async);
#undef ADD

  return g_test_run ();
}
