/* loom-search-result-row.h — one row of the search results: a session's header, or a hit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_RESULT_ROW (loom_search_result_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchResultRow, loom_search_result_row, LOOM, SEARCH_RESULT_ROW,
                      GtkWidget)

GtkWidget  *loom_search_result_row_new (void);
/* A LoomSession shows as its group's header, a LoomSearchHit as a hit; NULL unbinds. */
void        loom_search_result_row_set_item (LoomSearchResultRow *self,
                                             GObject             *item);
GObject    *loom_search_result_row_get_item (LoomSearchResultRow *self);
/* The snippet's label, for tests: its markup carries the highlighted matches. */
GtkLabel   *loom_search_result_row_get_snippet_label (LoomSearchResultRow *self);
/* What the row says to a screen reader. */
const char *loom_search_result_row_get_accessible_label (LoomSearchResultRow *self);

G_END_DECLS
