/* loom-rename-dialog.h — renames a session under the title convention.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-session.h"

G_BEGIN_DECLS

#define LOOM_TYPE_RENAME_DIALOG (loom_rename_dialog_get_type ())

G_DECLARE_FINAL_TYPE (LoomRenameDialog, loom_rename_dialog, LOOM, RENAME_DIALOG, AdwMessageDialog)

/* @first_prompt (nullable) suggests a name when the title has none worth keeping. Answers
 * "rename" or "cancel". */
LoomRenameDialog *loom_rename_dialog_new (GtkWindow   *parent,
                                          LoomSession *session,
                                          const char  *first_prompt);
LoomSession      *loom_rename_dialog_get_session (LoomRenameDialog *self);
const char       *loom_rename_dialog_get_name (LoomRenameDialog *self);
void              loom_rename_dialog_set_name (LoomRenameDialog *self,
                                               const char       *name);
/* The session's date, kept as it is; NULL when the session has none. */
const char       *loom_rename_dialog_get_date (LoomRenameDialog *self);
/* The title the session gets: `<name> - <date>`; NULL while the name is empty. */
char             *loom_rename_dialog_dup_title (LoomRenameDialog *self);

G_END_DECLS
