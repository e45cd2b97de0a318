/* loom-restore.c — backups back into the store: package folders and .loombackup files.
 *
 * Each backup is restored on its own, so that one that is damaged, or whose key is missing,
 * is told with its reason while the others come back. An encrypted one is decrypted into a
 * staging folder beside the store (loom-backup-files.h), never next to the backup, and then
 * imported as a package folder is: verified whole against its manifest, then written in one
 * transaction, which leaves a session that is stored already as it is. The key: the keyring's
 * of the backup's key id first, then the recovery key given, when it is that key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-backup-archive.h"
#include "loom-backup-files.h"
#include "loom-backup-stream.h"
#include "loom-backup.h"
#include "loom-error.h"
#include "loom-package-import.h"

static void
restore_item_free (LoomRestoreItem *item)
{
  g_free (item->path);
  g_free (item->session_id);
  g_free (item->title);
  g_clear_error (&item->error);
  g_free (item);
}

void
loom_restore_result_free (LoomRestoreResult *result)
{
  if (result == NULL)
    return;
  g_ptr_array_unref (result->restored);
  g_ptr_array_unref (result->unchanged);
  g_ptr_array_unref (result->failed);
  g_ptr_array_unref (result->missing_key_ids);
  g_free (result);
}

static LoomRestoreResult *
restore_result_new (void)
{
  LoomRestoreResult *result = g_new0 (LoomRestoreResult, 1);

  result->restored = g_ptr_array_new_with_free_func ((GDestroyNotify)restore_item_free);
  result->unchanged = g_ptr_array_new_with_free_func ((GDestroyNotify)restore_item_free);
  result->failed = g_ptr_array_new_with_free_func ((GDestroyNotify)restore_item_free);
  result->missing_key_ids = g_ptr_array_new_with_free_func (g_free);
  return result;
}

static gboolean
is_backup_file_name (const char *name)
{
  return g_str_has_suffix (name, LOOM_BACKUP_SUFFIX) && name[0] != '.';
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char *const *)a, *(const char *const *)b);
}

/* The backups @path names: itself when it is a package folder or a .loombackup file, else the
 * packages and .loombackup files directly inside it, in the order of their names. Hidden
 * entries (our own temporary names among them) are not backups. */
static gboolean
collect (const char *path,
         GPtrArray  *backups,
         GError    **error)
{
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GPtrArray) names = NULL;
  struct stat st;

  if (lstat (path, &st) != 0)
    {
      g_set_error (error, LOOM_ERROR, errno == ENOENT ? LOOM_ERROR_NOT_FOUND : LOOM_ERROR_IO,
                   "Could not open “%s”: %s", path, g_strerror (errno));
      return FALSE;
    }
  if (S_ISREG (st.st_mode) || (S_ISDIR (st.st_mode) && loom_package_looks_like_package (path)))
    {
      g_ptr_array_add (backups, g_strdup (path));
      return TRUE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "“%s” is neither a backup nor a folder of backups", path);
      return FALSE;
    }

  if (!(dir = g_dir_open (path, 0, error)))
    return FALSE;
  names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      struct stat      child_st;

      if (name[0] == '.' || lstat (child, &child_st) != 0)
        continue;
      if ((S_ISREG (child_st.st_mode) && is_backup_file_name (name)) ||
          (S_ISDIR (child_st.st_mode) && loom_package_looks_like_package (child)))
        g_ptr_array_add (names, g_steal_pointer (&child));
    }
  g_ptr_array_sort (names, compare_paths);
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (backups, g_strdup (names->pdata[i]));
  return TRUE;
}

/* The key that opens a backup of @key_id: the keyring's, else the recovery key's when it is that
 * key. A keyring that fails is not a reason to refuse when the recovery key opens the backup. */
static LoomBackupKey *
find_key (const char               *key_id,
          const LoomRestoreOptions *options,
          GCancellable             *cancellable,
          GError                  **error)
{
  g_autoptr (GError) keyring_error = NULL;
  LoomBackupKey *key;

  if ((key = loom_backup_key_load (key_id, cancellable, &keyring_error)))
    return key;
  if (g_error_matches (keyring_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&keyring_error));
      return NULL;
    }
  if (options->recovery_key != NULL &&
      g_str_equal (loom_backup_key_get_id (options->recovery_key), key_id))
    return loom_backup_key_copy (options->recovery_key);

  if (g_error_matches (keyring_error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND))
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                 "It was encrypted with the backup key %s, which is not in this keyring%s", key_id,
                 options->recovery_key != NULL ? ", and the recovery key given is another key’s"
                                               : ": give its recovery key");
  else
    g_propagate_error (error, g_steal_pointer (&keyring_error));
  return NULL;
}

/* What find_key () said of each key id, for the length of one restore: a folder of a thousand
 * backups made with one key asks the keyring once, not a thousand times over D-Bus. */
typedef struct
{
  const LoomRestoreOptions *options;
  GHashTable               *keys;   /* key id → LoomBackupKey */
  GHashTable               *errors; /* key id → GError */
} KeyCache;

static void
key_cache_init (KeyCache                 *cache,
                const LoomRestoreOptions *options)
{
  cache->options = options;
  cache->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify)loom_backup_key_free);
  cache->errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify)g_error_free);
}

static void
key_cache_clear (KeyCache *cache)
{
  g_hash_table_unref (cache->keys);
  g_hash_table_unref (cache->errors);
}

/* The key of @key_id, which the cache keeps; NULL and the error find_key () gave. */
static const LoomBackupKey *
key_cache_get (KeyCache     *cache,
               const char   *key_id,
               GCancellable *cancellable,
               GError      **error)
{
  const LoomBackupKey *key = g_hash_table_lookup (cache->keys, key_id);
  const GError        *known = g_hash_table_lookup (cache->errors, key_id);
  g_autoptr (GError) local_error = NULL;
  LoomBackupKey *found;

  if (key != NULL)
    return key;
  if (known != NULL)
    {
      g_propagate_error (error, g_error_copy (known));
      return NULL;
    }
  if (!(found = find_key (key_id, cache->options, cancellable, &local_error)))
    {
      /* A cancelled lookup says nothing of the key. */
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_hash_table_insert (cache->errors, g_strdup (key_id), g_error_copy (local_error));
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  g_hash_table_insert (cache->keys, g_strdup (key_id), found);
  return found;
}

/* Decrypts the .loombackup at @path into a new staging folder, whose path it returns, with the
 * package inside it at "package". */
static char *
decrypt_to_staging (LoomStore    *store,
                    const char   *path,
                    KeyCache     *keys,
                    GPtrArray    *missing_key_ids,
                    GCancellable *cancellable,
                    GError      **error)
{
  g_autoptr (GInputStream) file = NULL;
  g_autoptr (GInputStream) plain = NULL;
  const LoomBackupKey *key;
  g_autoptr (GError) key_error = NULL;
  g_autofree char *staging = NULL;
  LoomBackupHeader header;
  int              fd, staging_fd, package_fd = -1;
  gboolean         ok;

  if ((fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not open “%s”: %s", path,
                   errno == ELOOP ? "it is a symbolic link" : g_strerror (errno));
      return NULL;
    }
  file = g_unix_input_stream_new (fd, TRUE);
  if (!loom_backup_read_header (file, path, &header, cancellable, error))
    return NULL;
  if (!(key = key_cache_get (keys, header.key_id, cancellable, &key_error)))
    {
      if (g_error_matches (key_error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND) &&
          !g_ptr_array_find_with_equal_func (missing_key_ids, header.key_id, g_str_equal, NULL))
        g_ptr_array_add (missing_key_ids, g_strdup (header.key_id));
      g_propagate_error (error, g_steal_pointer (&key_error));
      return NULL;
    }

  if (!(staging = loom_backup_make_staging (store, error)))
    return NULL;
  if ((staging_fd = open (staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
      mkdirat (staging_fd, "package", 0700) != 0 ||
      (package_fd = openat (staging_fd, "package",
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not prepare “%s”: %s", staging,
                   g_strerror (errno));
      if (staging_fd >= 0)
        close (staging_fd);
      loom_backup_remove_tree (staging);
      return NULL;
    }
  close (staging_fd);

  plain = loom_backup_decrypt_stream_new (file, &header, key, path);
  ok = loom_backup_archive_extract (plain, path, package_fd, cancellable, error);
  close (package_fd);
  if (!ok)
    {
      loom_backup_remove_tree (staging);
      return NULL;
    }
  return g_steal_pointer (&staging);
}

static void
restore_one (LoomStore         *store,
             const char        *path,
             KeyCache          *keys,
             LoomRestoreResult *result,
             GCancellable      *cancellable)
{
  g_autoptr (LoomPackageImportResult) imported = NULL;
  g_autofree char *staging = NULL;
  g_autofree char *package = NULL;
  g_autoptr (GError) error = NULL;
  LoomRestoreItem *item = g_new0 (LoomRestoreItem, 1);
  gboolean         ok;

  item->path = g_strdup (path);
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    package = g_strdup (path);
  else if ((staging = decrypt_to_staging (store, path, keys, result->missing_key_ids, cancellable,
                                          &error)))
    package = g_build_filename (staging, "package", NULL);

  ok = package != NULL && loom_import_package (store, package, &imported, cancellable, &error);
  if (staging != NULL)
    loom_backup_remove_tree (staging);

  if (!ok)
    {
      /* The errors of the package's import name files inside it: say which backup. */
      if (staging != NULL && error->domain == LOOM_ERROR)
        g_prefix_error (&error, "%s: ", path);
      item->error = g_steal_pointer (&error);
      g_ptr_array_add (result->failed, item);
      return;
    }
  item->session_id = g_strdup (imported->session_id);
  item->title = g_strdup (imported->title);
  g_ptr_array_add (imported->already_stored ? result->unchanged : result->restored, item);
}

LoomRestoreResult *
loom_restore (LoomStore                *store,
              const char *const        *paths,
              const LoomRestoreOptions *options,
              GCancellable             *cancellable,
              GError                  **error)
{
  static const LoomRestoreOptions defaults = LOOM_RESTORE_OPTIONS_INIT;
  g_autoptr (GPtrArray) backups = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (LoomRestoreResult) result = restore_result_new ();
  KeyCache keys;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (paths != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (options == NULL)
    options = &defaults;
  for (guint i = 0; paths[i] != NULL; i++)
    if (!collect (paths[i], backups, error))
      return NULL;

  key_cache_init (&keys, options);
  for (guint i = 0; i < backups->len; i++)
    {
      LoomRestoreProgress progress = { backups->pdata[i], i, backups->len };

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          key_cache_clear (&keys);
          return NULL;
        }
      if (options->progress != NULL)
        options->progress (&progress, options->progress_data);
      restore_one (store, backups->pdata[i], &keys, result, cancellable);
    }
  key_cache_clear (&keys);
  return g_steal_pointer (&result);
}

/* ——— In a thread ——— */

typedef struct
{
  char              *db_path;
  GStrv              paths;
  LoomBackupKey     *recovery_key;
  LoomRestoreOptions options;
} RestoreRequest;

static void
restore_request_free (RestoreRequest *request)
{
  g_free (request->db_path);
  g_strfreev (request->paths);
  g_clear_pointer (&request->recovery_key, loom_backup_key_free);
  g_free (request);
}

static void
restore_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  RestoreRequest *request = task_data;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  LoomRestoreResult *result = NULL;

  /* A LoomStore is used by one thread at a time: the caller's stays with the window. */
  if (!(store = loom_store_open (request->db_path, &error)) ||
      !(result = loom_restore (store, (const char *const *)request->paths, &request->options,
                               cancellable, &error)))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, (GDestroyNotify)loom_restore_result_free);
}

void
loom_restore_async (LoomStore                *store,
                    const char *const        *paths,
                    const LoomRestoreOptions *options,
                    GCancellable             *cancellable,
                    GAsyncReadyCallback       callback,
                    gpointer                  user_data)
{
  g_autoptr (GTask) task = NULL;
  RestoreRequest *request;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (paths != NULL);

  request = g_new0 (RestoreRequest, 1);
  request->db_path = g_strdup (loom_store_get_path (store));
  request->paths = g_strdupv ((char **)paths);
  if (options != NULL)
    {
      request->options = *options;
      /* The caller's key may be freed before the thread reads it. */
      if (options->recovery_key != NULL)
        request->recovery_key = loom_backup_key_copy (options->recovery_key);
      request->options.recovery_key = request->recovery_key;
    }

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_restore_async);
  g_task_set_task_data (task, request, (GDestroyNotify)restore_request_free);
  g_task_run_in_thread (task, restore_thread);
}

LoomRestoreResult *
loom_restore_finish (LoomStore    *store,
                     GAsyncResult *result,
                     GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_restore_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
