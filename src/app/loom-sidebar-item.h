/* loom-sidebar-item.h — one entry of the sidebar: a collection or a folder, with its count.
 *
 * Folders are items too, so the sidebar's models hold one type. A folder item is the collection
 * All narrowed to the folder: its collection is LOOM_COLLECTION_ALL and its folder id is set.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SIDEBAR_ITEM (loom_sidebar_item_get_type ())

G_DECLARE_FINAL_TYPE (LoomSidebarItem, loom_sidebar_item, LOOM, SIDEBAR_ITEM, GObject)

LoomSidebarItem *loom_sidebar_item_new_for_collection (LoomCollection collection);
LoomSidebarItem *loom_sidebar_item_new_for_folder (gint64      folder_id,
                                                   const char *name);
LoomCollection   loom_sidebar_item_get_collection (LoomSidebarItem *self);
/* 0 for a collection. */
gint64           loom_sidebar_item_get_folder_id (LoomSidebarItem *self);
gboolean         loom_sidebar_item_is_folder (LoomSidebarItem *self);
const char      *loom_sidebar_item_get_title (LoomSidebarItem *self);
/* Folders only: follows a rename. */
void             loom_sidebar_item_set_title (LoomSidebarItem *self,
                                              const char      *title);
const char      *loom_sidebar_item_get_icon_name (LoomSidebarItem *self);
/* What the session list shows when the collection is empty. */
const char      *loom_sidebar_item_get_empty_title (LoomSidebarItem *self);
const char      *loom_sidebar_item_get_empty_description (LoomSidebarItem *self);
guint            loom_sidebar_item_get_count (LoomSidebarItem *self);
void             loom_sidebar_item_set_count (LoomSidebarItem *self,
                                              guint            count);

G_END_DECLS
