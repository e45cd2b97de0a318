/* test-restore.c — backups back into a store: plain and encrypted, damaged, and without the key.
 *
 * Real transcripts imported into a real store are backed up into a real folder, plain and
 * encrypted with a key that is not in the keyring (as on a new machine), then restored into an
 * empty store: with the recovery key every session comes back, archived and in its folder when a
 * sweep's backup said so; again, nothing changes; without the key, or with another, each is
 * refused for that reason and the id of the key it needs is told; a flipped byte, a file cut
 * short or a header swapped from another backup is refused, naming the file, and nothing is
 * written. Nothing is left in the staging folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-backup-files.h"
#include "loom-backup-stream.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-test-utils.h"

typedef struct
{
  LoomTestStore  base;
  char          *dir_b;
  char          *db_b;
  LoomStore     *store_b; /* empty, for the restores */
  char          *backups;
  LoomBackupKey *key;   /* not in the keyring: what a recovery key gives a new machine */
  GPtrArray     *uuids; /* of the sessions backed up */
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *claude = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  const char      *paths[] = { claude, NULL };

  loom_test_store_set_up (&f->base, data);
  f->store_b = loom_test_new_store (&f->dir_b, &f->db_b);
  f->backups = g_build_filename (f->base.dir, "backups", NULL);
  g_assert_no_errno (g_mkdir (f->backups, 0700));
  loom_test_store_import_paths (&f->base, NULL, paths);
  f->key = loom_backup_key_generate ();
  f->uuids = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (
    f->uuids, loom_test_add_session (f->base.store, "Parser work", "claude", "parser", 6, 2, 1000));
  g_ptr_array_add (
    f->uuids, loom_test_add_session (f->base.store, "Tide tables", "codex", "tide", 4, 3, 2000));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_autofree char *staging_b = loom_backup_staging_folder (f->store_b, NULL);
  g_autoptr (GDir) staging = g_dir_open (staging_b, 0, NULL);

  /* Whatever happened, no decrypted package stays behind. */
  g_assert_null (staging != NULL ? g_dir_read_name (staging) : NULL);
  g_assert_finalize_object (f->store_b);
  loom_test_remove_tree (f->dir_b);
  g_free (f->dir_b);
  g_free (f->db_b);
  g_free (f->backups);
  loom_backup_key_free (f->key);
  g_ptr_array_unref (f->uuids);
  loom_test_store_tear_down (&f->base, data);
}

/* Backs every session of the fixture up into backups/, encrypted with the fixture's key or
 * plain, as a sweep's backups (archived) when @as_archived; returns their paths. */
static GPtrArray *
back_up (Fixture *f,
         gboolean encrypted,
         gboolean as_archived)
{
  GPtrArray        *paths = g_ptr_array_new_with_free_func (g_free);
  LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;

  options.key = encrypted ? f->key : NULL;
  options.as_archived = as_archived;
  for (guint i = 0; i < f->uuids->len; i++)
    {
      g_autoptr (LoomBackupResult) result = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (loom_backup_session (f->base.store, f->uuids->pdata[i], f->backups, &options,
                                          &result, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (result->encrypted == encrypted);
      if (encrypted)
        {
          g_autofree char *name = g_path_get_basename (result->path);
          g_autofree char *expected = g_strconcat (f->uuids->pdata[i], LOOM_BACKUP_SUFFIX, NULL);

          g_assert_cmpstr (name, ==, expected);
          g_assert_cmpstr (result->key_id, ==, loom_backup_key_get_id (f->key));
        }
      g_ptr_array_add (paths, g_strdup (result->path));
    }
  return paths;
}

static LoomRestoreResult *
restore (Fixture             *f,
         const char          *path,
         const LoomBackupKey *recovery_key)
{
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;
  const char        *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  LoomRestoreResult *result;

  options.recovery_key = recovery_key;
  result = loom_restore (f->store_b, paths, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static void
assert_restored_as_backed_up (Fixture *f,
                              gboolean archived)
{
  for (guint i = 0; i < f->uuids->len; i++)
    {
      g_autoptr (LoomSession) original = NULL;
      g_autoptr (LoomSession) restored = NULL;
      g_autoptr (GError) error = NULL;

      original = loom_store_get_session (f->base.store, f->uuids->pdata[i], &error);
      g_assert_no_error (error);
      restored = loom_store_get_session (f->store_b, f->uuids->pdata[i], &error);
      g_assert_no_error (error);
      g_assert_cmpstr (loom_session_get_title (restored), ==, loom_session_get_title (original));
      g_assert_cmpint (loom_session_get_message_count (restored), ==,
                       loom_session_get_message_count (original));
      g_assert_true (loom_session_get_archived (restored) == archived);
    }
}

static void
test_plain_folder (Fixture      *f,
                   gconstpointer data)
{
  g_autoptr (GPtrArray) paths = back_up (f, FALSE, TRUE);
  g_autoptr (LoomRestoreResult) first = restore (f, f->backups, NULL);
  g_autoptr (LoomRestoreResult) again = NULL;

  g_assert_cmpuint (first->restored->len, ==, f->uuids->len);
  g_assert_cmpuint (first->failed->len, ==, 0);
  assert_restored_as_backed_up (f, TRUE);

  again = restore (f, f->backups, NULL);
  g_assert_cmpuint (again->restored->len, ==, 0);
  g_assert_cmpuint (again->unchanged->len, ==, f->uuids->len);
  g_assert_cmpuint (again->failed->len, ==, 0);
}

static void
test_encrypted_with_recovery_key (Fixture      *f,
                                  gconstpointer data)
{
  g_autoptr (GPtrArray) paths = back_up (f, TRUE, TRUE);
  g_autoptr (LoomRestoreResult) first = NULL;
  g_autoptr (LoomRestoreResult) again = NULL;
  g_autoptr (LoomBackupKey) written_down = NULL;
  g_autoptr (GError) error = NULL;
  char *recovery = loom_backup_key_dup_recovery (f->key);

  /* What a person types on the new machine: the recovery key, in lower case this time. */
  for (char *c = recovery; *c; c++)
    *c = g_ascii_tolower (*c);
  written_down = loom_backup_key_new_from_recovery (recovery, &error);
  loom_backup_key_free_text (recovery);
  g_assert_no_error (error);

  first = restore (f, f->backups, written_down);
  g_assert_cmpuint (first->failed->len, ==, 0);
  g_assert_cmpuint (first->restored->len, ==, f->uuids->len);
  g_assert_cmpuint (first->missing_key_ids->len, ==, 0);
  assert_restored_as_backed_up (f, TRUE);

  again = restore (f, f->backups, written_down);
  g_assert_cmpuint (again->unchanged->len, ==, f->uuids->len);
  g_assert_cmpuint (again->restored->len, ==, 0);
}

static void
test_encrypted_not_archived (Fixture      *f,
                             gconstpointer data)
{
  g_autoptr (GPtrArray) paths = back_up (f, TRUE, FALSE);
  g_autoptr (LoomRestoreResult) result = restore (f, paths->pdata[0], f->key);

  g_assert_cmpuint (result->restored->len, ==, 1);
  g_assert_cmpstr (((LoomRestoreItem *)result->restored->pdata[0])->session_id, ==,
                   f->uuids->pdata[0]);
}

static void
test_encrypted_without_key (Fixture      *f,
                            gconstpointer data)
{
  g_autoptr (GPtrArray) paths = back_up (f, TRUE, TRUE);
  g_autoptr (LoomBackupKey) other = loom_backup_key_generate ();
  g_autoptr (LoomRestoreResult) none = restore (f, f->backups, NULL);
  g_autoptr (LoomRestoreResult) wrong = restore (f, f->backups, other);

  for (guint pass = 0; pass < 2; pass++)
    {
      LoomRestoreResult *result = pass == 0 ? none : wrong;

      g_assert_cmpuint (result->restored->len, ==, 0);
      g_assert_cmpuint (result->failed->len, ==, f->uuids->len);
      for (guint i = 0; i < result->failed->len; i++)
        {
          LoomRestoreItem *item = result->failed->pdata[i];

          g_assert_error (item->error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
          g_assert_nonnull (strstr (item->error->message, loom_backup_key_get_id (f->key)));
        }
      g_assert_cmpuint (result->missing_key_ids->len, ==, 1);
      g_assert_cmpstr (result->missing_key_ids->pdata[0], ==, loom_backup_key_get_id (f->key));
    }
  g_assert_null (loom_store_get_session (f->store_b, f->uuids->pdata[0], NULL));
}

static void
assert_refused (Fixture    *f,
                const char *path,
                const char *what)
{
  g_autoptr (LoomRestoreResult) result = restore (f, path, f->key);
  LoomRestoreItem *item;

  g_test_message ("%s", what);
  g_assert_cmpuint (result->restored->len, ==, 0);
  g_assert_cmpuint (result->failed->len, ==, 1);
  item = result->failed->pdata[0];
  g_assert_error (item->error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
  g_assert_nonnull (strstr (item->error->message, path));
  g_assert_null (loom_store_get_session (f->store_b, f->uuids->pdata[0], NULL));
}

static void
test_tampered (Fixture      *f,
               gconstpointer data)
{
  g_autoptr (GPtrArray) paths = back_up (f, TRUE, TRUE);
  g_autofree char *bytes = NULL;
  g_autofree char *other = NULL;
  g_autofree char *damaged = g_build_filename (f->base.dir, "damaged" LOOM_BACKUP_SUFFIX, NULL);
  g_autoptr (GError) error = NULL;
  gsize length = 0, other_length = 0;

  g_assert_true (g_file_get_contents (paths->pdata[0], &bytes, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, LOOM_BACKUP_HEADER_SIZE + 100);

  /* A flipped byte in the stream's header, in the first chunk, in the last. */
  {
    const gsize positions[] = { 30, LOOM_BACKUP_HEADER_SIZE + 40, length - 1 };

    for (guint i = 0; i < G_N_ELEMENTS (positions); i++)
      {
        bytes[positions[i]] ^= 0x20;
        g_assert_true (g_file_set_contents (damaged, bytes, (gssize)length, &error));
        bytes[positions[i]] ^= 0x20;
        assert_refused (f, damaged, "a flipped byte");
      }
  }

  /* Cut short: the final chunk is missing. */
  g_assert_true (g_file_set_contents (damaged, bytes, (gssize)length - 100, &error));
  assert_refused (f, damaged, "cut short");

  /* Another backup's header (nonce and all) on this one's chunks. */
  g_assert_true (g_file_get_contents (paths->pdata[1], &other, &other_length, &error));
  memcpy (bytes, other, LOOM_BACKUP_HEADER_SIZE);
  g_assert_true (g_file_set_contents (damaged, bytes, (gssize)length, &error));
  assert_refused (f, damaged, "a swapped header");
}

static void
test_not_a_backup (Fixture      *f,
                   gconstpointer data)
{
  g_autofree char *text = g_build_filename (f->base.dir, "notes" LOOM_BACKUP_SUFFIX, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomRestoreResult) result = NULL;

  g_assert_true (g_file_set_contents (text, "just some notes\n", -1, &error));
  result = restore (f, text, NULL);
  g_assert_cmpuint (result->failed->len, ==, 1);
  g_assert_nonnull (strstr (((LoomRestoreItem *)result->failed->pdata[0])->error->message, text));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/restore/plain/folder-twice", test_plain_folder);
  ADD ("/restore/encrypted/recovery-key-twice", test_encrypted_with_recovery_key);
  ADD ("/restore/encrypted/not-archived", test_encrypted_not_archived);
  ADD ("/restore/encrypted/without-key", test_encrypted_without_key);
  ADD ("/restore/encrypted/tampered", test_tampered);
  ADD ("/restore/not-a-backup", test_not_a_backup);
#undef ADD

  return g_test_run ();
}
