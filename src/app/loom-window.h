/* loom-window.h — the main window: collections and folders, the session list, the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-application.h"

G_BEGIN_DECLS

#define LOOM_TYPE_WINDOW (loom_window_get_type ())

G_DECLARE_FINAL_TYPE (LoomWindow, loom_window, LOOM, WINDOW, AdwApplicationWindow)

LoomWindow  *loom_window_new (LoomApplication *application);
/* NULL when the application could not open the store. */
LoomStore   *loom_window_get_store (LoomWindow *self);
/* Reads the counts, the folders, the shown collection and the shown session again from the
 * store, keeping the selection. Call it after changing the store. */
void         loom_window_reload (LoomWindow *self);
/* Restores @paths (backups, or folders of them) in a restore window, as choosing them after
 * "Restore from Backup…" does (loom-window-backup.c). */
void         loom_window_restore_backups (LoomWindow        *self,
                                          const char *const *paths);
/* The sessions selected in the list (LoomSession), in list order; an empty array when none.
 * Transfer full. */
GPtrArray   *loom_window_get_selected_sessions (LoomWindow *self);
/* Cheap, unlike reading the selected sessions themselves when thousands are selected. */
guint        loom_window_get_n_selected_sessions (LoomWindow *self);
/* The session the content pane shows, or NULL. */
LoomSession *loom_window_get_shown_session (LoomWindow *self);
/* Whether a store write the window started (a move, a rename, a folder…) has yet to call
 * back: the window shows its outcome once it has. */
gboolean     loom_window_has_pending_writes (LoomWindow *self);
/* Shows @toast once the toasts before it are gone (loom-toast-queue.h); takes ownership of it. */
void         loom_window_add_toast (LoomWindow *self,
                                    AdwToast   *toast);

G_END_DECLS
