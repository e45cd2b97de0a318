/* loom-folder-dialog.h — names a new folder, or renames one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LOOM_TYPE_FOLDER_DIALOG (loom_folder_dialog_get_type ())

G_DECLARE_FINAL_TYPE (LoomFolderDialog, loom_folder_dialog, LOOM, FOLDER_DIALOG, AdwMessageDialog)

/* @folders: the existing LoomFolders, whose names are taken. @folder_id: the folder to rename, or
 * 0 for a new folder. Answers "save" or "cancel". */
LoomFolderDialog *loom_folder_dialog_new (GtkWindow  *parent,
                                          GListModel *folders,
                                          gint64      folder_id);
gint64            loom_folder_dialog_get_folder_id (LoomFolderDialog *self);
const char       *loom_folder_dialog_get_name (LoomFolderDialog *self);
void              loom_folder_dialog_set_name (LoomFolderDialog *self,
                                               const char       *name);

G_END_DECLS
