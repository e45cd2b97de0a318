/* loom-sidebar.h — the collections (and, later, folders) that the session list shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-sidebar-item.h"
#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SIDEBAR (loom_sidebar_get_type ())

G_DECLARE_FINAL_TYPE (LoomSidebar, loom_sidebar, LOOM, SIDEBAR, GtkWidget)

GtkWidget       *loom_sidebar_new               (void);
/* Recounts every collection in @store. */
gboolean         loom_sidebar_reload            (LoomSidebar  *self,
                                                 LoomStore    *store,
                                                 GError      **error);
LoomSidebarItem *loom_sidebar_get_selected_item (LoomSidebar  *self);
void             loom_sidebar_select_collection (LoomSidebar  *self,
                                                 LoomCollection collection);

G_END_DECLS
