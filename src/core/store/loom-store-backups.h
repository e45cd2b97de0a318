/* loom-store-backups.h — the backups an archive sweep wrote, and the sessions it may sweep.
 *
 * A session's latest backup is part of its record (LoomSession's backup path and time); what
 * is here writes it and finds the sessions old enough to be swept (loom-sweep.h).
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

G_END_DECLS
