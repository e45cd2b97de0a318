/* loom-backup-private.h — what the files of backup/ share and no one else sees.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-backup.h"
#include "loom-sweep.h"

G_BEGIN_DECLS

/* Reports @step ("verify") of @session_id through @options' progress function. */
void loom_backup_report (const LoomBackupOptions *options,
                         const char              *session_id,
                         const char              *step);

/* The encrypted form of loom_backup_session (): the package staged, streamed through the key
 * into <uuid>.loombackup in @backup_dir, then read back, decrypted and verified. */
gboolean loom_backup_write_encrypted (LoomStore               *store,
                                      const char              *session_id,
                                      const char              *backup_dir,
                                      const LoomBackupOptions *options,
                                      LoomBackupResult       **result,
                                      GCancellable            *cancellable,
                                      GError                 **error);

/* Reads back the .loombackup at @path (a file of @dir_fd named @name), decrypts it with @key
 * and verifies the package inside against its manifest. */
gboolean loom_backup_verify_encrypted (int                  dir_fd,
                                       const char          *name,
                                       const char          *path,
                                       const LoomBackupKey *key,
                                       guint               *n_files,
                                       GCancellable        *cancellable,
                                       GError             **error);

/* ——— A run of backups over many sessions: the sweep's and continuous backup's ——— */

typedef struct
{
  LoomSweepProgressFunc func; /* may be NULL */
  gpointer              data;
  LoomSweepProgress     progress; /* the session being backed up: set by the run */
} LoomBackupRunReporter;

void       loom_backup_run_report (LoomBackupRunReporter *reporter,
                                   const char            *step,
                                   const char            *export_step);
/* A LoomExportProgressFunc whose data is a LoomBackupRunReporter: the package's steps as
 * "backup" with their export_step, its reading back as "verify". */
void       loom_backup_run_relay_export (const LoomExportProgress *progress,
                                         gpointer                  reporter);
/* An array of LoomSweepFailure, and one added to it, taking @error. */
GPtrArray *loom_backup_run_failures_new (void);
void       loom_backup_run_add_failure (GPtrArray  *failed,
                                        const char *session_id,
                                        const char *title,
                                        GError     *error);

G_END_DECLS
