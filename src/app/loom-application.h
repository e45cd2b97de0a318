/* loom-application.h — the application: actions, settings, style and the one store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-import-problems.h"
#include "loom-source-watcher.h"
#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_APPLICATION (loom_application_get_type ())

G_DECLARE_FINAL_TYPE (LoomApplication, loom_application, LOOM, APPLICATION, AdwApplication)

LoomApplication    *loom_application_new (const char       *application_id,
                                          GApplicationFlags flags);
/* NULL when the store could not be opened; loom_application_get_store_error() says why. */
LoomStore          *loom_application_get_store (LoomApplication *self);
const GError       *loom_application_get_store_error (LoomApplication *self);
GSettings          *loom_application_get_settings (LoomApplication *self);
/* Watches the agents' folders and imports in the background while "watch-sources" is set;
 * NULL when the store could not be opened. */
LoomSourceWatcher  *loom_application_get_source_watcher (LoomApplication *self);
/* What the imports of this run, in the background or asked for, could not take whole. */
LoomImportProblems *loom_application_get_import_problems (LoomApplication *self);

G_END_DECLS
