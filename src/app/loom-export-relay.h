/* loom-export-relay.h — an export's progress, from the thread that exports to the main thread.
 *
 * loom_export_session_async() reports its progress in its worker thread, where no widget may
 * be touched. A relay is what the export's options carry instead: it keeps the latest report
 * and hands it to the main thread in one idle at a time, so that a package of thousands of
 * artifacts queues one redraw, not thousands; a report still queued once the relay is stopped
 * is dropped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-export.h"

G_BEGIN_DECLS

typedef struct _LoomExportRelay LoomExportRelay;

/* Called in the main thread with the latest report; @progress is valid during the call. */
typedef void (*LoomExportRelayFunc) (GObject                  *target,
                                     const LoomExportProgress *progress);

/* Reports go to @func with @target, which the relay holds weakly. */
LoomExportRelay *loom_export_relay_new (GObject            *target,
                                        LoomExportRelayFunc func);
void             loom_export_relay_unref (LoomExportRelay *relay);
/* No report is handed on after this; call it in the main thread. */
void             loom_export_relay_stop (LoomExportRelay *relay);
/* Has the worker wait in its reports of @step ("conversation", "artifacts"…; see
 * LoomExportProgress) once it has handed them on, until this is called again with NULL or the
 * relay is stopped: for tests, which look at a progress an export would otherwise be through
 * before it is drawn. */
void             loom_export_relay_hold (LoomExportRelay *relay,
                                         const char      *step);
/* Sets @options' progress callback and data to @relay, which must outlive the export. */
void             loom_export_relay_attach (LoomExportRelay   *relay,
                                           LoomExportOptions *options);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomExportRelay, loom_export_relay_unref)

G_END_DECLS
