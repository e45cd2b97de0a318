/* loom-source-watcher.h — watching the agents' folders and importing what changes, in a thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-import.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SOURCE_WATCHER (loom_source_watcher_get_type ())

G_DECLARE_FINAL_TYPE (LoomSourceWatcher, loom_source_watcher, LOOM, SOURCE_WATCHER, GObject)

/* Imports into the store at @store_path, with a connection of its own in a worker thread. The
 * watcher does nothing until "watching" is set. */
LoomSourceWatcher *loom_source_watcher_new (const char *store_path);
const char        *loom_source_watcher_get_store_path (LoomSourceWatcher *self);

/* Folders watched and imported besides the agents' default ones (absolute paths). */
const char *const *loom_source_watcher_get_extra_folders (LoomSourceWatcher *self);
void               loom_source_watcher_set_extra_folders (LoomSourceWatcher *self,
                                                          const char *const *folders);

/* Turning watching on imports at once, to catch up with what changed while nobody watched;
 * turning it off drops every monitor and cancels the import that runs. */
gboolean loom_source_watcher_get_watching (LoomSourceWatcher *self);
void     loom_source_watcher_set_watching (LoomSourceWatcher *self,
                                           gboolean           watching);

/* Whether an import runs now, and how far it got (0 to 1). */
gboolean loom_source_watcher_get_importing (LoomSourceWatcher *self);
double   loom_source_watcher_get_progress (LoomSourceWatcher *self);

/* Asks for a whole import pass now (not just of the files the monitors reported); one that
 * runs already is followed by one more. */
void loom_source_watcher_import (LoomSourceWatcher *self);

/* Stops watching and waits for a running import to end (it is cancelled between two files),
 * iterating the thread-default main context meanwhile: for shutting down. */
void loom_source_watcher_stop (LoomSourceWatcher *self);

/* The folders with a monitor now: folders under the roots, and the nearest existing parents
 * of roots that do not exist yet. */
guint    loom_source_watcher_get_n_monitors (LoomSourceWatcher *self);
gboolean loom_source_watcher_is_monitored (LoomSourceWatcher *self,
                                           const char        *folder);

G_END_DECLS
