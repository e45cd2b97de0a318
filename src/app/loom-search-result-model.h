/* loom-search-result-model.h — search hits grouped by session, as one flat list.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-search-worker.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_RESULT_MODEL (loom_search_result_model_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchResultModel, loom_search_result_model, LOOM, SEARCH_RESULT_MODEL,
                      GObject)

/* The items are a LoomSession, the header of its group, followed by its hits (LoomSearchHit)
 * in timeline order; the groups come in the order of their best hit. */
LoomSearchResultModel *loom_search_result_model_new (void);
void                   loom_search_result_model_clear (LoomSearchResultModel *self);
/* Adds a page of hits: to the groups of sessions already listed, or in new groups below. */
void                   loom_search_result_model_add_page (LoomSearchResultModel *self,
                                                          LoomSearchPage        *page);
/* Replaces everything with @page, the same query read again: what is the same stays (the same
 * objects, for the list's rows, its scroll position and selection), and the one stretch from
 * the first difference to the last is reported as changed. FALSE when nothing did. */
gboolean               loom_search_result_model_replace (LoomSearchResultModel *self,
                                                         LoomSearchPage        *page);
guint                  loom_search_result_model_get_n_hits (LoomSearchResultModel *self);
guint                  loom_search_result_model_get_n_sessions (LoomSearchResultModel *self);
/* The first hit of @uuid's group, in timeline order, or NULL. */
LoomSearchHit         *loom_search_result_model_get_first_hit (LoomSearchResultModel *self,
                                                               const char            *uuid);

G_END_DECLS
