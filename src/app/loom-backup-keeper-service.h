/* loom-backup-keeper-service.h — the app's continuous backup: while "keep-backups" is on and
 * "backup-folder" is set, the backup keeper (loom-backup-keeper.h) runs in a worker every few
 * minutes and after each import pass, one run at a time, encrypted when "encrypt-backups" is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_BACKUP_KEEPER_SERVICE (loom_backup_keeper_service_get_type ())

G_DECLARE_FINAL_TYPE (LoomBackupKeeperService, loom_backup_keeper_service, LOOM,
                      BACKUP_KEEPER_SERVICE, GObject)

/* Reads the keys of @settings (the app's schema) and follows their changes. The store is used
 * for its path only: the worker opens a connection of its own. Signals:
 *  "ran" (guint n_backed_up, guint n_failed): a run ended; windows may reload.
 *  "failed" (const char *message): a run could not be made at all (a keyring error, no key, a
 *  folder gone), told once per message until a run succeeds. */
LoomBackupKeeperService *loom_backup_keeper_service_new (LoomStore *store,
                                                         GSettings *settings);

/* Asks for a run soon: now when none is running and keeping is on, else once the one running
 * ends. Does nothing while keeping is off. */
void     loom_backup_keeper_service_queue (LoomBackupKeeperService *self);
/* Whether a run is going on now. */
gboolean loom_backup_keeper_service_is_running (LoomBackupKeeperService *self);
/* Cancels a run (a backup stops between files and leaves nothing behind) and waits for its
 * thread, so that none outlives the application. No run starts after. */
void     loom_backup_keeper_service_stop (LoomBackupKeeperService *self);

G_END_DECLS
