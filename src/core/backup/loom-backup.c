/* loom-backup.c — one session's backup: its full package, written, read back and verified.
 *
 * A plain backup is the package folder loom_export_session () writes; the encrypted form is in
 * loom-backup-encrypted.c. Either is verified from what is in the backup folder now, not from
 * what was meant to be written: a disk that drops writes, or fills up in a way the writes did
 * not report, is caught here, and the backup removed rather than trusted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-backup-files.h"
#include "loom-backup-private.h"
#include "loom-error.h"
#include "loom-package-import.h"

void
loom_backup_result_free (LoomBackupResult *result)
{
  if (result == NULL)
    return;
  g_free (result->session_id);
  g_free (result->path);
  g_free (result->key_id);
  g_free (result);
}

void
loom_backup_report (const LoomBackupOptions *options,
                    const char              *session_id,
                    const char              *step)
{
  LoomExportProgress progress = { .session_id = session_id, .step = step };

  if (options->progress != NULL)
    options->progress (&progress, options->progress_data);
}

static gboolean
write_plain (LoomStore               *store,
             const char              *session_id,
             const char              *backup_dir,
             const LoomBackupOptions *options,
             LoomBackupResult       **result,
             GCancellable            *cancellable,
             GError                 **error)
{
  LoomExportOptions export_options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) exported = NULL;
  g_autoptr (GError) verify_error = NULL;
  guint n_verified = 0;

  export_options.as_archived = options->as_archived;
  export_options.progress = options->progress;
  export_options.progress_data = options->progress_data;
  if (!loom_export_session (store, session_id, backup_dir, &export_options, &exported, cancellable,
                            error))
    return FALSE;

  loom_backup_report (options, exported->session_id, "verify");
  if (!loom_package_verify (exported->path, &n_verified, cancellable, &verify_error))
    {
      loom_backup_remove_tree (exported->path);
      if (g_error_matches (verify_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&verify_error));
      else
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                     "The backup “%s” did not verify once written, and was removed: %s",
                     exported->path, verify_error->message);
      return FALSE;
    }

  if (result != NULL)
    {
      LoomBackupResult *r = g_new0 (LoomBackupResult, 1);

      r->session_id = g_strdup (exported->session_id);
      r->path = g_strdup (exported->path);
      r->n_files = n_verified;
      r->n_bytes = exported->n_bytes;
      r->n_artifacts = exported->n_artifacts;
      r->n_subagents = exported->n_subagents;
      *result = r;
    }
  return TRUE;
}

gboolean
loom_backup_session (LoomStore               *store,
                     const char              *session_id,
                     const char              *backup_dir,
                     const LoomBackupOptions *options,
                     LoomBackupResult       **result,
                     GCancellable            *cancellable,
                     GError                 **error)
{
  static const LoomBackupOptions defaults = LOOM_BACKUP_OPTIONS_INIT;

  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);
  g_return_val_if_fail (backup_dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    options = &defaults;
  if (options->key != NULL)
    return loom_backup_write_encrypted (store, session_id, backup_dir, options, result, cancellable,
                                        error);
  return write_plain (store, session_id, backup_dir, options, result, cancellable, error);
}

/* ——— Async ——— */

typedef struct
{
  char             *db_path;
  char             *session_id;
  char             *backup_dir;
  LoomBackupKey    *key; /* the thread's own copy: the caller may free its key meanwhile */
  LoomBackupOptions options;
} BackupRequest;

static void
backup_request_free (BackupRequest *request)
{
  g_free (request->db_path);
  g_free (request->session_id);
  g_free (request->backup_dir);
  g_clear_pointer (&request->key, loom_backup_key_free);
  g_free (request);
}

static void
backup_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  BackupRequest *request = task_data;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  LoomBackupResult *result = NULL;

  /* A LoomStore is used by one thread at a time: the caller's stays with the window. */
  if (!(store = loom_store_open (request->db_path, &error)) ||
      !loom_backup_session (store, request->session_id, request->backup_dir, &request->options,
                            &result, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, (GDestroyNotify)loom_backup_result_free);
}

void
loom_backup_session_async (LoomStore               *store,
                           const char              *session_id,
                           const char              *backup_dir,
                           const LoomBackupOptions *options,
                           GCancellable            *cancellable,
                           GAsyncReadyCallback      callback,
                           gpointer                 user_data)
{
  static const LoomBackupOptions defaults = LOOM_BACKUP_OPTIONS_INIT;
  g_autoptr (GTask) task = NULL;
  BackupRequest *request;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (backup_dir != NULL);

  request = g_new0 (BackupRequest, 1);
  request->db_path = g_strdup (loom_store_get_path (store));
  request->session_id = g_strdup (session_id);
  request->backup_dir = g_strdup (backup_dir);
  request->options = options != NULL ? *options : defaults;
  if (request->options.key != NULL)
    request->key = loom_backup_key_copy (request->options.key);
  request->options.key = request->key;

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_backup_session_async);
  g_task_set_task_data (task, request, (GDestroyNotify)backup_request_free);
  g_task_run_in_thread (task, backup_thread);
}

LoomBackupResult *
loom_backup_session_finish (LoomStore    *store,
                            GAsyncResult *result,
                            GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_backup_session_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
