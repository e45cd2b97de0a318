/* loom-sidebar-row.h — the row that shows one sidebar item: icon, title and count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-sidebar-item.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SIDEBAR_ROW (loom_sidebar_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomSidebarRow, loom_sidebar_row, LOOM, SIDEBAR_ROW, GtkListBoxRow)

GtkWidget       *loom_sidebar_row_new (LoomSidebarItem *item);
LoomSidebarItem *loom_sidebar_row_get_item (LoomSidebarRow *self);
/* Folders and Trash: opens the row's menu, as a right click or the Menu key does. */
void             loom_sidebar_row_show_menu (LoomSidebarRow *self);
/* The row's menu once it has been opened, else NULL. */
GtkPopover      *loom_sidebar_row_get_menu (LoomSidebarRow *self);

G_END_DECLS
