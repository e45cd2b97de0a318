/* loom-session-list-model.h — the sessions of a query as a lazy list model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-store.h"

G_BEGIN_DECLS

/* Rows are read from the store a page at a time, and only the pages last used are kept. */
#define LOOM_SESSION_LIST_MODEL_PAGE_SIZE 200
#define LOOM_SESSION_LIST_MODEL_MAX_PAGES 16

#define LOOM_TYPE_SESSION_LIST_MODEL (loom_session_list_model_get_type ())

G_DECLARE_FINAL_TYPE (LoomSessionListModel, loom_session_list_model, LOOM, SESSION_LIST_MODEL,
                      GObject)

/* The offset and limit of @query are ignored: the model pages through all of its sessions. */
LoomSessionListModel   *loom_session_list_model_new (LoomStore              *store,
                                                     const LoomSessionQuery *query);
LoomStore              *loom_session_list_model_get_store (LoomSessionListModel *self);
const LoomSessionQuery *loom_session_list_model_get_query (LoomSessionListModel *self);
/* Shows the sessions of @query instead: the whole list is replaced. */
gboolean                loom_session_list_model_set_query (LoomSessionListModel   *self,
                                                           const LoomSessionQuery *query,
                                                           GError                **error);
/* Reads the query again after the store changed. Sessions still listed keep their objects
 * (updated in place), and the model reports the smallest change it can tell, or none. */
gboolean                loom_session_list_model_reload (LoomSessionListModel *self,
                                                        GError              **error);
/* Looks for @uuid in the pages already read (and the first pages, read if need be), so that
 * it stays cheap on a long list; FALSE when not found there. */
gboolean                loom_session_list_model_find (LoomSessionListModel *self,
                                                      const char           *uuid,
                                                      guint                *position);
/* The sessions at @position .. @position + @n_items - 1, reading what is not in memory with
 * one query rather than page by page: for large selections. */
GPtrArray              *loom_session_list_model_get_range (LoomSessionListModel *self,
                                                           guint                 position,
                                                           guint                 n_items,
                                                           GError              **error);

/* For tests and benchmarks: pages read from the store so far, and pages held now. */
guint loom_session_list_model_get_n_page_loads (LoomSessionListModel *self);
guint loom_session_list_model_get_n_cached_pages (LoomSessionListModel *self);

G_END_DECLS
