/* loom-backup-keeper.h — continuous backup: every session that changed and has gone quiet gets
 * its backup written, or replaced, in the backup folder.
 *
 * Due (loom_store_list_backups_due ()): a session not in the trash, not a sub-agent's, whose
 * last activity (its sub-agents' included) is older than the quiet time, and that has no
 * backup yet or one written before that activity. For each, in turn: its backup
 * (loom-backup.h; as_archived when the session is archived), verified, recorded as its latest;
 * only then the session's previous backup removed, when it is in the same folder. So there is
 * always one verified backup of each session there, never none: a failure leaves the previous
 * one in place. A run killed after recording a new backup, before removing the previous one,
 * leaves it for the next run to remove. A new backup is named as any backup is, never over
 * anything: beside the previous one, the next free name, so a session's backups alternate
 * between two names (<uuid>.loombackup and <uuid> (2).loombackup, or the package's).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-backup-key.h"
#include "loom-store.h"
#include "loom-sweep.h"

G_BEGIN_DECLS

#define LOOM_BACKUP_KEEPER_QUIET_MS (10 * 60 * (gint64)1000)

/* A run's progress and its failures are the sweep's (loom-sweep.h): the same steps, one session
 * after another, with "replace" after "backup" and "verify" when a previous backup is removed. */
typedef LoomSweepProgress     LoomKeeperProgress;
typedef LoomSweepProgressFunc LoomKeeperProgressFunc;
typedef LoomSweepFailure      LoomKeeperFailure;

typedef struct
{
  GPtrArray *backed_up; /* of char *: the uuids backed up, in order */
  GPtrArray *paths;     /* of char *: their new backups, the same order */
  GPtrArray *replaced;  /* of char *: the previous backups removed */
  GPtrArray *failed;    /* of LoomKeeperFailure */
  gboolean   cancelled; /* stopped before the end; what was done stays done */
} LoomKeeperResult;

void loom_keeper_result_free (LoomKeeperResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomKeeperResult, loom_keeper_result_free)

/* Backs up into @backup_dir (an existing folder, not a link) every session due at @now (Unix
 * ms) for @quiet_ms, encrypted with @key when it is not NULL. Blocks. Returns NULL only when
 * the folder cannot be used or the store not read; a session that fails is in the result's
 * failed and the others go on. */
LoomKeeperResult *loom_backup_keep_up (LoomStore             *store,
                                       const char            *backup_dir,
                                       const LoomBackupKey   *key,
                                       gint64                 quiet_ms,
                                       gint64                 now,
                                       LoomKeeperProgressFunc progress,
                                       gpointer               progress_data,
                                       GCancellable          *cancellable,
                                       GError               **error);

/* The same in a GTask thread on a connection of its own to @store's file; @progress is called
 * from that thread. With @load_key, the thread loads the backup key from the keyring itself
 * (@key must then be NULL), so that the caller never blocks on the keyring, and a keyring
 * that fails ends the run before anything is written. */
void              loom_backup_keep_up_async (LoomStore             *store,
                                             const char            *backup_dir,
                                             const LoomBackupKey   *key,
                                             gboolean               load_key,
                                             gint64                 quiet_ms,
                                             gint64                 now,
                                             LoomKeeperProgressFunc progress,
                                             gpointer               progress_data,
                                             GCancellable          *cancellable,
                                             GAsyncReadyCallback    callback,
                                             gpointer               user_data);
LoomKeeperResult *loom_backup_keep_up_finish (LoomStore    *store,
                                              GAsyncResult *result,
                                              GError      **error);

G_END_DECLS
