/* loom-backup-encrypted.c — a backup as one encrypted file, <session uuid>.loombackup.
 *
 * The package is written first into a staging folder beside the store (loom-backup-files.h):
 * the store holds the same text in the clear already, where the backup folder (a synced folder,
 * a USB disk, a share) must never see it. The key is in hand before anything is written, so a
 * keyring that fails leaves nothing anywhere. The package is then streamed as a container
 * through the key into a hidden temporary file in the backup folder, synced, renamed into place
 * without replacing anything, and read back: decrypted and checked against the manifest it
 * holds. The staging is removed whatever happens.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <unistd.h>

#include "loom-backup-archive.h"
#include "loom-backup-files.h"
#include "loom-backup-private.h"
#include "loom-backup-stream.h"
#include "loom-error.h"

#define MAX_TEMP_ATTEMPTS 100

static int
open_package (const char *path,
              GError    **error)
{
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (fd < 0)
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not open the staged package “%s”: %s",
                 path, g_strerror (errno));
  return fd;
}

/* A hidden temporary file of ours in the backup folder, created, never opened through a link. */
static int
create_temp_file (int         dir_fd,
                  const char *dir_path,
                  const char *uuid,
                  char      **temp_name,
                  GError    **error)
{
  for (guint attempt = 0; attempt < MAX_TEMP_ATTEMPTS; attempt++)
    {
      g_autofree char *name = g_strdup_printf (".%s%s.partial-%06x", uuid, LOOM_BACKUP_SUFFIX,
                                               g_random_int_range (0, 0xffffff));
      int fd = openat (dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

      if (fd >= 0)
        {
          *temp_name = g_steal_pointer (&name);
          return fd;
        }
      if (errno != EEXIST)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not create a file in “%s”: %s",
                       dir_path, g_strerror (errno));
          return -1;
        }
    }
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS, "Could not find a free temporary name in “%s”",
               dir_path);
  return -1;
}

/* Streams the package folder @package_fd through @key into the file @fd, and syncs it. */
static gboolean
encrypt_into (int                  package_fd,
              int                  fd,
              const char          *path,
              const LoomBackupKey *key,
              guint               *n_files,
              guint64             *n_bytes,
              GCancellable        *cancellable,
              GError             **error)
{
  g_autoptr (GOutputStream) file = g_unix_output_stream_new (fd, FALSE);
  g_autoptr (GOutputStream) sealed = NULL;
  g_autoptr (GError) local_error = NULL;

  if (!(sealed = loom_backup_encrypt_stream_new (file, key, cancellable, &local_error)) ||
      !loom_backup_archive_write (package_fd, sealed, n_files, n_bytes, cancellable,
                                  &local_error) ||
      !g_output_stream_close (sealed, cancellable, &local_error))
    {
      if (sealed != NULL)
        g_output_stream_close (sealed, NULL, NULL);
      if (local_error->domain == G_IO_ERROR && local_error->code != G_IO_ERROR_CANCELLED)
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not write “%s”: %s", path,
                     local_error->message);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (fsync (fd) != 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not write “%s”: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_backup_verify_encrypted (int                  dir_fd,
                              const char          *name,
                              const char          *path,
                              const LoomBackupKey *key,
                              guint               *n_files,
                              GCancellable        *cancellable,
                              GError             **error)
{
  g_autoptr (GInputStream) file = NULL;
  g_autoptr (GInputStream) plain = NULL;
  LoomBackupHeader header;
  int              fd;

  if ((fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not read back “%s”: %s", path,
                   g_strerror (errno));
      return FALSE;
    }
  file = g_unix_input_stream_new (fd, TRUE);
  if (!loom_backup_read_header (file, path, &header, cancellable, error))
    return FALSE;
  if (!g_str_equal (header.key_id, loom_backup_key_get_id (key)))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“%s” names the key %s, not the key %s it was written with", path, header.key_id,
                   loom_backup_key_get_id (key));
      return FALSE;
    }
  plain = loom_backup_decrypt_stream_new (file, &header, key, path);
  return loom_backup_archive_verify (plain, path, n_files, cancellable, error);
}

gboolean
loom_backup_write_encrypted (LoomStore               *store,
                             const char              *session_id,
                             const char              *backup_dir,
                             const LoomBackupOptions *options,
                             LoomBackupResult       **result,
                             GCancellable            *cancellable,
                             GError                 **error)
{
  LoomExportOptions export_options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) exported = NULL;
  g_autofree char *staging = NULL;
  g_autofree char *temp_name = NULL;
  g_autofree char *final = NULL;
  g_autofree char *path = NULL;
  guint            n_files = 0, n_verified = 0;
  guint64          n_bytes = 0;
  int              dir_fd = -1, package_fd = -1, fd = -1;
  gboolean         ok = FALSE;

  if ((dir_fd = loom_backup_open_folder (backup_dir, error)) < 0 ||
      !(staging = loom_backup_make_staging (store, error)))
    goto out;

  export_options.as_archived = options->as_archived;
  export_options.transient = TRUE;
  export_options.progress = options->progress;
  export_options.progress_data = options->progress_data;
  if (!loom_export_session (store, session_id, staging, &export_options, &exported, cancellable,
                            error) ||
      (package_fd = open_package (exported->path, error)) < 0 ||
      (fd = create_temp_file (dir_fd, backup_dir, exported->session_id, &temp_name, error)) < 0)
    goto out;

  path = g_build_filename (backup_dir, temp_name, NULL);
  loom_backup_report (options, exported->session_id, "encrypt");
  if (!encrypt_into (package_fd, fd, path, options->key, &n_files, &n_bytes, cancellable, error))
    goto out;
  close (fd);
  fd = -1;
  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(final = loom_backup_publish_file (dir_fd, backup_dir, temp_name, exported->session_id,
                                          LOOM_BACKUP_SUFFIX, error)))
    goto out;
  g_clear_pointer (&temp_name, g_free);
  g_free (path);
  path = g_build_filename (backup_dir, final, NULL);

  loom_backup_report (options, exported->session_id, "verify");
  {
    g_autoptr (GError) verify_error = NULL;

    if (!loom_backup_verify_encrypted (dir_fd, final, path, options->key, &n_verified, cancellable,
                                       &verify_error))
      {
        unlinkat (dir_fd, final, 0);
        if (g_error_matches (verify_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
          g_propagate_error (error, g_steal_pointer (&verify_error));
        else
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The backup “%s” did not verify once written, and was removed: %s", path,
                       verify_error->message);
        goto out;
      }
  }

  if (result != NULL)
    {
      LoomBackupResult *r = g_new0 (LoomBackupResult, 1);

      r->session_id = g_strdup (exported->session_id);
      r->path = g_steal_pointer (&path);
      r->encrypted = TRUE;
      r->key_id = g_strdup (loom_backup_key_get_id (options->key));
      r->n_files = n_verified;
      r->n_bytes = n_bytes;
      r->n_artifacts = exported->n_artifacts;
      r->n_subagents = exported->n_subagents;
      *result = r;
    }
  ok = TRUE;

out:
  if (fd >= 0)
    close (fd);
  if (temp_name != NULL)
    unlinkat (dir_fd, temp_name, 0);
  if (package_fd >= 0)
    close (package_fd);
  if (staging != NULL)
    loom_backup_remove_tree (staging);
  if (dir_fd >= 0)
    close (dir_fd);
  return ok;
}
