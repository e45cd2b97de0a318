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
