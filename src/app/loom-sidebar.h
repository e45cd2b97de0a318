/* loom-sidebar.h — the collections and the folders that the session list shows.
 *
 * Signals: "item-activated" (LoomSidebarItem), the user picked a row; "sessions-dropped" (GStrv
 * uuids, guint LoomCollection target, gint64 folder_id), sessions were dropped on a row: target
 * LOOM_COLLECTION_ARCHIVED or LOOM_COLLECTION_TRASH, or LOOM_COLLECTION_ALL with the folder's
 * id, or with 0 for All Sessions (out of any folder, archive and trash).
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

GtkWidget       *loom_sidebar_new (void);
/* Reads the folders again from @store and recounts every collection and folder; the selection
 * stays on the same item, or goes to All Sessions when its folder is gone. Before the sidebar
 * has been drawn, only the trash is counted at once, the rest at the end of its first frame. */
gboolean         loom_sidebar_reload (LoomSidebar *self,
                                      LoomStore   *store,
                                      GError     **error);
/* A collection, or a folder (LOOM_COLLECTION_ALL with its folder id). */
LoomSidebarItem *loom_sidebar_get_selected_item (LoomSidebar *self);
void             loom_sidebar_select_collection (LoomSidebar   *self,
                                                 LoomCollection collection);
/* FALSE when no such folder is shown. */
gboolean         loom_sidebar_select_folder (LoomSidebar *self,
                                             gint64       folder_id);
/* The rows (LoomSidebarRow), or NULL. */
GtkWidget       *loom_sidebar_get_collection_row (LoomSidebar   *self,
                                                  LoomCollection collection);
GtkWidget       *loom_sidebar_get_folder_row (LoomSidebar *self,
                                              gint64       folder_id);
/* The folder items (LoomSidebarItem), in order. */
GListModel      *loom_sidebar_get_folders (LoomSidebar *self);

G_END_DECLS
