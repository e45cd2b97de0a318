/* loom-export-assistant.h — the assistant that exports sessions as packages (loom-export.h).
 *
 * Its pages come in seed 000's order: the detail level, the mode, the destination, the
 * progress, the result. The sessions are exported one after the other through
 * loom_export_session_async(), so the window never waits for a package to be written; each
 * session gets its own package in the destination.
 *
 * Actions (installed on the class, "assistant."): back, next, export, cancel (stops a running
 * export, or closes), choose-folder, open-folder, copy-path. Enter moves on, Escape cancels
 * and closes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-export.h"
#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_EXPORT_ASSISTANT (loom_export_assistant_get_type ())

G_DECLARE_FINAL_TYPE (LoomExportAssistant, loom_export_assistant, LOOM, EXPORT_ASSISTANT, AdwWindow)

/* Exports the sessions @uuids, whose titles are @titles (as many), from @store. @settings
 * gives the default mode (redact-secrets-on-export) and the remembered folder
 * (export-folder). */
LoomExportAssistant *loom_export_assistant_new (GtkWindow         *parent,
                                                LoomStore         *store,
                                                GSettings         *settings,
                                                const char *const *uuids,
                                                const char *const *titles);

/* The page on show: "detail", "mode", "destination", "progress" or "result". */
const char      *loom_export_assistant_get_page (LoomExportAssistant *self);
LoomExportDetail loom_export_assistant_get_detail (LoomExportAssistant *self);
void             loom_export_assistant_set_detail (LoomExportAssistant *self,
                                                   LoomExportDetail     detail);
LoomExportMode   loom_export_assistant_get_mode (LoomExportAssistant *self);
void             loom_export_assistant_set_mode (LoomExportAssistant *self,
                                                 LoomExportMode       mode);
/* The folder the packages go to, or NULL when none is chosen yet. Setting it is what the
 * folder chooser does once a folder is picked; tests call it instead of the chooser. */
const char      *loom_export_assistant_get_destination (LoomExportAssistant *self);
void             loom_export_assistant_set_destination (LoomExportAssistant *self,
                                                        const char          *path);
/* Whether an export is under way. */
/* Encrypt with the backup key: possible with detail full and mode full only, which
 * get_can_encrypt () tells; set_encrypt (TRUE) does nothing otherwise. */
gboolean         loom_export_assistant_get_encrypt (LoomExportAssistant *self);
gboolean         loom_export_assistant_get_can_encrypt (LoomExportAssistant *self);
void             loom_export_assistant_set_encrypt (LoomExportAssistant *self,
                                                    gboolean             encrypt);
gboolean         loom_export_assistant_get_running (LoomExportAssistant *self);
/* For tests: the exports started from now on wait at their first report of @step
 * (loom_export_relay_hold ()) until this is called with NULL, or the export is cancelled. */
void             loom_export_assistant_hold_export (LoomExportAssistant *self,
                                                    const char          *step);

G_END_DECLS
