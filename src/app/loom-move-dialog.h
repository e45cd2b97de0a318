/* loom-move-dialog.h — "Move to…": where the selected sessions go, chosen from a list.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_TYPE_MOVE_DIALOG (loom_move_dialog_get_type ())

G_DECLARE_FINAL_TYPE (LoomMoveDialog, loom_move_dialog, LOOM, MOVE_DIALOG, AdwWindow)

/* @folders: LoomFolder, in the sidebar's order. @uuids: the sessions to move. The sessions'
 * present place is marked when they share one: @current_collection LOOM_COLLECTION_ALL with
 * @current_folder_id (0: no folder), ARCHIVED or TRASH; LOOM_COLLECTION_EVERYTHING when they
 * are in different places. */
LoomMoveDialog    *loom_move_dialog_new (GtkWindow         *parent,
                                         GListModel        *folders,
                                         const char *const *uuids,
                                         LoomCollection     current_collection,
                                         gint64             current_folder_id);
const char *const *loom_move_dialog_get_uuids (LoomMoveDialog *self);
/* What activating a row does: emits "target-chosen" and closes the dialog. */
void               loom_move_dialog_choose (LoomMoveDialog *self,
                                            LoomCollection  target,
                                            gint64          folder_id);

G_END_DECLS
