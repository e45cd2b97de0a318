/* loom-search-filter-popover.h — the search's filters, chosen rather than typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_FILTER_POPOVER (loom_search_filter_popover_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchFilterPopover, loom_search_filter_popover, LOOM,
                      SEARCH_FILTER_POPOVER, GtkPopover)

GtkWidget  *loom_search_filter_popover_new (void);
/* Shows the filters of @query, and the projects and folders of @store to choose from. Call
 * it as the popover opens: both change behind its back. */
void        loom_search_filter_popover_update (LoomSearchFilterPopover *self,
                                               LoomStore               *store,
                                               const char              *query);
/* The query with the chosen filters; "notify::query" reports each choice. */
const char *loom_search_filter_popover_get_query (LoomSearchFilterPopover *self);
/* Chooses the value at @index (0: any) of the filter @key, as a click does; for tests. */
void        loom_search_filter_popover_choose (LoomSearchFilterPopover *self,
                                               const char              *key,
                                               guint                    index);
/* Whether @query holds any filter the popover offers. */
gboolean    loom_search_filter_popover_has_filters (const char *query);

G_END_DECLS
