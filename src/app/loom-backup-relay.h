/* loom-backup-relay.h — a sweep's or a restore's progress, from its worker to the main thread.
 *
 * loom_sweep_run_async () and loom_restore_async () report in their worker thread, where no
 * widget may be touched. As loom-export-relay.h does for an export, a relay keeps the latest
 * report and hands it to the main thread in one idle at a time; a report still queued once the
 * relay is stopped is dropped. Both kinds of report come down to the same few fields.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-backup.h"
#include "loom-sweep.h"

G_BEGIN_DECLS

typedef struct _LoomBackupRelay LoomBackupRelay;

typedef struct
{
  const char *name;        /* a sweep: the session's title; a restore: the backup's path */
  const char *step;        /* a sweep: "backup", "verify", "archive"; a restore: NULL */
  const char *export_step; /* a sweep's backup: the package's own step, or NULL */
  guint       index;       /* 0-based, of total */
  guint       total;
} LoomBackupReport;

/* Called in the main thread with the latest report; @report is valid during the call. */
typedef void (*LoomBackupRelayFunc) (GObject                *target,
                                     const LoomBackupReport *report);

/* Reports go to @func with @target, which the relay holds weakly. */
LoomBackupRelay *loom_backup_relay_new (GObject            *target,
                                        LoomBackupRelayFunc func);
LoomBackupRelay *loom_backup_relay_ref (LoomBackupRelay *relay);
void             loom_backup_relay_unref (LoomBackupRelay *relay);
/* No report is handed on after this; call it in the main thread. */
void             loom_backup_relay_stop (LoomBackupRelay *relay);
/* For tests: the worker waits in its reports of @step (a sweep's; "" for every report of a
 * restore) once they are handed on, until this is called with NULL or the relay is stopped. */
void             loom_backup_relay_hold (LoomBackupRelay *relay,
                                         const char      *step);

/* The progress callbacks to give the core, with the relay as their data. */
void loom_backup_relay_sweep_progress (const LoomSweepProgress *progress,
                                       gpointer                 relay);
void loom_backup_relay_restore_progress (const LoomRestoreProgress *progress,
                                         gpointer                   relay);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomBackupRelay, loom_backup_relay_unref)

G_END_DECLS
