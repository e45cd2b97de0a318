/* loom-session-selection.h — a multi-selection that never reads the list it selects in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LOOM_TYPE_SESSION_SELECTION (loom_session_selection_get_type ())

G_DECLARE_FINAL_TYPE (LoomSessionSelection, loom_session_selection, LOOM, SESSION_SELECTION,
                      GObject)

LoomSessionSelection *loom_session_selection_new (GListModel *model);
GListModel           *loom_session_selection_get_model (LoomSessionSelection *self);
void                  loom_session_selection_set_model (LoomSessionSelection *self,
                                                        GListModel           *model);

G_END_DECLS
