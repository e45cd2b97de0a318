/* loom-window-actions.h — the window's session and folder actions.
 *
 * Installed on LoomWindow's class: session.rename, session.copy-rename-command, session.pin,
 * session.archive, session.trash, session.delete, session.move-to (opens "Move to…"),
 * session.move-to-folder (x: a folder id, 0 for no folder), session.open-source-folder,
 * win.empty-trash, win.export-sessions (loom-window-export.c), and the folder actions of loom-window-folder-actions.c: folder.new,
 * folder.rename (x), folder.delete (x), folder.move-up (x) and folder.move-down (x). The session
 * actions act on loom_window_get_selected_sessions(). Their writes land after the action
 * returns (loom_window_has_pending_writes()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-window.h"

G_BEGIN_DECLS

/* Call from LoomWindow's class_init. */
void loom_window_actions_class_init (GtkWidgetClass *widget_class);
/* Enables the actions that apply to the present selection and store; call when they change. */
void loom_window_actions_update (LoomWindow *self);
/* Moves sessions as a drop or "Move to…" does, with an undo toast. @target:
 * LOOM_COLLECTION_ALL files them in @folder_id (0: in no folder) and brings them back from the
 * archive and the trash; LOOM_COLLECTION_ARCHIVED archives them (out of the trash, folder kept);
 * LOOM_COLLECTION_TRASH moves them to the trash (folder and archive kept for a restore). */
void loom_window_move_sessions (LoomWindow        *self,
                                const char *const *uuids,
                                LoomCollection     target,
                                gint64             folder_id);

G_END_DECLS
