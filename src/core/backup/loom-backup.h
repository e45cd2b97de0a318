/* loom-backup.h — one session's backup, verified, and the restore of backups.
 *
 * A backup is the session's full package (loom-export.h, detail full, mode full). Plain, it is
 * the package folder. Encrypted, it is one file, <session uuid>.loombackup: the package as a
 * container (loom-backup-archive.h) through the backup key's stream (loom-backup-stream.h), so
 * that its name and size are all it shows. It is written beside its final name under a
 * temporary one (ciphertext only) and renamed into place, never over anything that exists;
 * the package it encrypts is staged in the store's own private folder, which already holds
 * the same text in the clear, and never in the backup folder.
 *
 * A backup is verified before it is reported written: every file read back from the backup
 * folder (decrypted, for an encrypted one) and compared with the manifest's size and SHA-256.
 * One that does not verify is removed and the error says why.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-backup-key.h"
#include "loom-export.h"
#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_BACKUP_SUFFIX ".loombackup"

typedef struct
{
  /* NULL: a plain package folder; else an encrypted .loombackup with this key. */
  const LoomBackupKey   *key;
  /* The package records the session as archived now (an archive sweep's backup), so that a
   * restore brings it back archived. */
  gboolean               as_archived;
  /* May be NULL; as loom_export_session ()'s. */
  LoomExportProgressFunc progress;
  gpointer               progress_data;
} LoomBackupOptions;

#define LOOM_BACKUP_OPTIONS_INIT { NULL, FALSE, NULL, NULL }

typedef struct
{
  char    *session_id; /* the session's uuid */
  char    *path;       /* the package folder or the .loombackup file */
  gboolean encrypted;
  char    *key_id;      /* encrypted: the backup key's id; else NULL */
  guint    n_files;     /* files of the package, verified */
  guint64  n_bytes;     /* their bytes (for an encrypted one, the plaintext's) */
  guint    n_artifacts; /* files copied into artifacts/files/ */
  guint    n_subagents;
} LoomBackupResult;

void loom_backup_result_free (LoomBackupResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomBackupResult, loom_backup_result_free)

/* Writes and verifies the backup of @session_id in the existing folder @backup_dir (not a
 * symbolic link); @options NULL: LOOM_BACKUP_OPTIONS_INIT. Blocks. On failure or cancellation
 * nothing is left in @backup_dir. */
gboolean loom_backup_session (LoomStore               *store,
                              const char              *session_id,
                              const char              *backup_dir,
                              const LoomBackupOptions *options,
                              LoomBackupResult       **result,
                              GCancellable            *cancellable,
                              GError                 **error);

/* The same in a GTask thread on a connection of its own to @store's file, so that a window
 * never waits on it. @options' key is copied for the thread; its progress is called from that
 * thread. */
void              loom_backup_session_async (LoomStore               *store,
                                             const char              *session_id,
                                             const char              *backup_dir,
                                             const LoomBackupOptions *options,
                                             GCancellable            *cancellable,
                                             GAsyncReadyCallback      callback,
                                             gpointer                 user_data);
LoomBackupResult *loom_backup_session_finish (LoomStore    *store,
                                              GAsyncResult *result,
                                              GError      **error);

/* ——— Restore ——— */

/* Where a restore is, for a progress bar. Valid during the call only. */
typedef struct
{
  const char *path; /* the backup being restored */
  guint       index;
  guint       total;
} LoomRestoreProgress;

typedef void (*LoomRestoreProgressFunc) (const LoomRestoreProgress *progress,
                                         gpointer                   user_data);

typedef struct
{
  /* Opens backups whose key is not in the keyring (a new machine). May be NULL. */
  const LoomBackupKey    *recovery_key;
  LoomRestoreProgressFunc progress;
  gpointer                progress_data;
} LoomRestoreOptions;

#define LOOM_RESTORE_OPTIONS_INIT { NULL, NULL, NULL }

typedef struct
{
  char   *path;
  char   *session_id; /* NULL when it failed before the session was known */
  char   *title;
  GError *error; /* failed only */
} LoomRestoreItem;

typedef struct
{
  GPtrArray *restored;  /* of LoomRestoreItem: sessions written into the store */
  GPtrArray *unchanged; /* stored already: nothing written */
  GPtrArray *failed;    /* with their error; LOOM_ERROR_NOT_FOUND when the key is missing */
  /* The ids of keys that were needed and neither in the keyring nor the recovery key's. */
  GPtrArray *missing_key_ids;
} LoomRestoreResult;

void loom_restore_result_free (LoomRestoreResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomRestoreResult, loom_restore_result_free)

/* Restores each of @paths (NULL-terminated): a package folder, a .loombackup file, or a folder
 * holding them (its entries, not deeper). Each is verified, decrypted (the keyring's key of its
 * id first, else the recovery key when it is that key), imported; a session that a sweep
 * archived comes back archived, in its folder (created when missing). Restoring twice changes
 * nothing. A backup that fails is listed with its error and the others go on. Returns NULL only
 * when @paths cannot be read at all or the call was cancelled. Blocks. */
LoomRestoreResult *loom_restore (LoomStore                *store,
                                 const char *const        *paths,
                                 const LoomRestoreOptions *options,
                                 GCancellable             *cancellable,
                                 GError                  **error);

/* The same in a GTask thread on a connection of its own to @store's file. @options' progress is
 * called from that thread. */
void               loom_restore_async (LoomStore                *store,
                                       const char *const        *paths,
                                       const LoomRestoreOptions *options,
                                       GCancellable             *cancellable,
                                       GAsyncReadyCallback       callback,
                                       gpointer                  user_data);
LoomRestoreResult *loom_restore_finish (LoomStore    *store,
                                        GAsyncResult *result,
                                        GError      **error);

G_END_DECLS
