/* loom-search-results.h — the hits of a search of all history, grouped by session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-search-result-model.h"
#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_RESULTS (loom_search_results_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchResults, loom_search_results, LOOM, SEARCH_RESULTS, GtkWidget)

GtkWidget             *loom_search_results_new (void);
/* Searches run on a connection of their own to @store's file. */
void                   loom_search_results_set_store (LoomSearchResults *self,
                                                      LoomStore         *store);
/* Searches for @query at once (the entry has waited for the typing to pause), cancelling the
 * search under way; its results, should they still come, are dropped. "" clears. */
void                   loom_search_results_set_query (LoomSearchResults *self,
                                                      const char        *query);
const char            *loom_search_results_get_query (LoomSearchResults *self);
/* A search is under way. */
gboolean               loom_search_results_get_searching (LoomSearchResults *self);
/* "12 results in 3 sessions", or NULL while there is nothing to count. */
const char            *loom_search_results_get_summary (LoomSearchResults *self);
/* The message of a query that could not be run, or NULL. */
const char            *loom_search_results_get_error (LoomSearchResults *self);
LoomSearchResultModel *loom_search_results_get_model (LoomSearchResults *self);
/* The store changed (an import): the query is read again once the changes pause, at most once
 * a second while they go on, and what changed goes into the list without moving the rest. */
void                   loom_search_results_refresh (LoomSearchResults *self);
/* How many times the query was read again so far (for tests and logs). */
guint                  loom_search_results_get_n_refreshes (LoomSearchResults *self);

/* Enter in the entry: opens the first hit. FALSE when there is none. */
gboolean loom_search_results_activate_first (LoomSearchResults *self);
/* Down in the entry: moves the focus to the first result. FALSE when there is none. */
gboolean loom_search_results_focus_first (LoomSearchResults *self);

G_END_DECLS
