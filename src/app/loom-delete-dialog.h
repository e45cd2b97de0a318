/* loom-delete-dialog.h — asks before deleting sessions for good, listing exactly what goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-delete-plan.h"

G_BEGIN_DECLS

#define LOOM_TYPE_DELETE_DIALOG (loom_delete_dialog_get_type ())

G_DECLARE_FINAL_TYPE (LoomDeleteDialog, loom_delete_dialog, LOOM, DELETE_DIALOG, AdwMessageDialog)

/* Shows @plan, the core's dry run. @empty_trash words it as emptying the trash. Answers "delete"
 * or "cancel". */
LoomDeleteDialog *loom_delete_dialog_new (GtkWindow      *parent,
                                          LoomDeletePlan *plan,
                                          gboolean        empty_trash);
LoomDeletePlan   *loom_delete_dialog_get_plan (LoomDeleteDialog *self);
/* "12 messages, 30 events, 42 search entries", and artifacts and summaries when there are any. */
char             *loom_delete_dialog_describe_rows (LoomDeletePlan *plan);

G_END_DECLS
