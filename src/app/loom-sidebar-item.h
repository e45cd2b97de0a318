/* loom-sidebar-item.h — one entry of the sidebar: a collection with its count.
 *
 * Folders will be items too, so the sidebar's model stays one list of one type.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SIDEBAR_ITEM (loom_sidebar_item_get_type ())

G_DECLARE_FINAL_TYPE (LoomSidebarItem, loom_sidebar_item, LOOM, SIDEBAR_ITEM, GObject)

LoomSidebarItem *loom_sidebar_item_new_for_collection (LoomCollection   collection);
LoomCollection   loom_sidebar_item_get_collection     (LoomSidebarItem *self);
const char      *loom_sidebar_item_get_title          (LoomSidebarItem *self);
const char      *loom_sidebar_item_get_icon_name      (LoomSidebarItem *self);
/* What the session list shows when the collection is empty. */
const char      *loom_sidebar_item_get_empty_title    (LoomSidebarItem *self);
const char      *loom_sidebar_item_get_empty_description (LoomSidebarItem *self);
guint            loom_sidebar_item_get_count          (LoomSidebarItem *self);
void             loom_sidebar_item_set_count          (LoomSidebarItem *self,
                                                       guint            count);

G_END_DECLS
