/* loom-restore-window.h — backups restored (loom_restore_async ()), with progress and a
 * summary.
 *
 * The window takes the paths chosen (package folders, .loombackup files, folders of them),
 * restores them in a worker thread and says what came back, what was here already and what
 * failed, with the reason. Backups whose key is not in the keyring (a new computer) make it
 * ask for the recovery key (loom-recovery-key-dialog.h) and try those again with it, and keep
 * the key in the keyring when the person agrees.
 *
 * Actions ("restore."): cancel (stops a running restore, or closes). Escape closes (and
 * cancels). Signal: restored, once a restore is over (the main window reloads its list).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_RESTORE_WINDOW (loom_restore_window_get_type ())

G_DECLARE_FINAL_TYPE (LoomRestoreWindow, loom_restore_window, LOOM, RESTORE_WINDOW, AdwWindow)

/* Starts restoring @paths (NULL-terminated, absolute) into @store at once. */
LoomRestoreWindow *loom_restore_window_new (GtkWindow         *parent,
                                            LoomStore         *store,
                                            const char *const *paths);

/* For tests: the restore waits at each report of its progress, once it is shown, until this
 * is called with FALSE (or the restore is cancelled). Call it before the main loop runs again
 * after _new (), which starts the restore from an idle. */
void        loom_restore_window_hold (LoomRestoreWindow *self,
                                      gboolean           hold);
/* "progress" or "summary". */
const char *loom_restore_window_get_page (LoomRestoreWindow *self);
gboolean    loom_restore_window_get_running (LoomRestoreWindow *self);
/* Whether the recovery key is being asked for. */
gboolean    loom_restore_window_get_asking (LoomRestoreWindow *self);
/* What the restore did so far: sessions restored, unchanged, backups failed. */
guint       loom_restore_window_get_n_restored (LoomRestoreWindow *self);
guint       loom_restore_window_get_n_unchanged (LoomRestoreWindow *self);
guint       loom_restore_window_get_n_failed (LoomRestoreWindow *self);

G_END_DECLS
