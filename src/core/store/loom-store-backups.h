/* loom-store-backups.h — the backups a sweep or the backup keeper wrote, and the sessions
 * either has to take.
 *
 * A session's latest backup is part of its record (LoomSession's backup path and time); what
 * is here writes it and finds the sessions old enough to be swept (loom-sweep.h) or due for a
 * new backup (loom-backup-keeper.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"

G_BEGIN_DECLS

/* Archives the session @id, with its sub-agents' sessions (in its package), and records its
 * backup at @backup_path (encrypted with the key @key_id, or plain when NULL) for each of them,
 * in one transaction: a session is never archived by a sweep without the backup that allowed
 * it, nor a backup recorded for a session left unarchived. */
gboolean loom_store_archive_with_backup (LoomStore  *self,
                                         const char *id,
                                         const char *backup_path,
                                         const char *key_id,
                                         GError    **error);

/* The sessions a sweep may archive: not archived, not in the trash, not a sub-agent's (they
 * travel in their parent's package), and last active (updated) before @cutoff (Unix ms). A
 * list of LoomSession, the oldest activity first. */
GListModel *loom_store_list_sweep_candidates (LoomStore *self,
                                              gint64     cutoff,
                                              GError   **error);

/* Records the backup at @backup_path (encrypted with the key @key_id, or plain when NULL) as
 * the latest of the session @id and of its sub-agents' sessions (in its package), written now,
 * without changing anything else about them: the backup keeper's, which archives nothing. */
gboolean loom_store_record_backup (LoomStore  *self,
                                   const char *id,
                                   const char *backup_path,
                                   const char *key_id,
                                   GError    **error);

typedef struct
{
  char *path;        /* a recorded backup that is no session's latest any more */
  char *latest_path; /* the latest backup of a session that has it recorded */
} LoomSupersededBackup;

void loom_superseded_backup_free (LoomSupersededBackup *backup);

/* The recorded backups that are no session's latest any more (a run killed after it recorded a
 * new backup, before it removed the one before), as an array of LoomSupersededBackup: one per
 * such path and latest backup of a session that has it. */
GPtrArray *loom_store_list_superseded_backups (LoomStore *self,
                                               GError   **error);

/* The sessions due for a backup: not in the trash, not a sub-agent's (they travel in their
 * parent's package), quiet (their last activity, and their sub-agents', before @quiet_cutoff,
 * Unix ms), and with no backup recorded or a latest backup written before that activity. A
 * list of LoomSession (whose backup path is the one to replace), the oldest activity first. */
GListModel *loom_store_list_backups_due (LoomStore *self,
                                         gint64     quiet_cutoff,
                                         GError   **error);

G_END_DECLS
