/* loom-session-list.h — the middle pane: the sessions of a collection or folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-session-list-model.h"
#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SESSION_LIST (loom_session_list_get_type ())

G_DECLARE_FINAL_TYPE (LoomSessionList, loom_session_list, LOOM, SESSION_LIST, GtkWidget)

GtkWidget     *loom_session_list_new (void);
LoomStore     *loom_session_list_get_store (LoomSessionList *self);
void           loom_session_list_set_store (LoomSessionList *self,
                                            LoomStore       *store);
/* What the list shows: a collection, or a folder (@folder_id > 0, with LOOM_COLLECTION_ALL).
 * The sort order and the filters stay. */
void           loom_session_list_set_scope (LoomSessionList *self,
                                            LoomCollection   collection,
                                            gint64           folder_id);
LoomCollection loom_session_list_get_collection (LoomSessionList *self);
gint64         loom_session_list_get_folder_id (LoomSessionList *self);
/* Reads the list again after the store changed, keeping the selection and the scroll position
 * where it can. */
void           loom_session_list_reload (LoomSessionList *self);

/* The selected sessions (LoomSession) in list order; an empty array when none. Transfer full.
 * A selection of thousands reads them all: check loom_session_list_get_n_selected() first
 * where only the number matters. */
GPtrArray *loom_session_list_get_selected (LoomSessionList *self);
guint      loom_session_list_get_n_selected (LoomSessionList *self);
/* Selects the session alone and scrolls to it, if the list holds it near the pages it has
 * read; FALSE otherwise. */
gboolean   loom_session_list_select_uuid (LoomSessionList *self,
                                          const char      *uuid);

/* Sort and filters, also offered by the pane's menus. */
LoomSort    loom_session_list_get_sort (LoomSessionList *self);
void        loom_session_list_set_sort (LoomSessionList *self,
                                        LoomSort         sort);
/* A source ("codex"), or NULL for every agent. */
const char *loom_session_list_get_agent_filter (LoomSessionList *self);
void        loom_session_list_set_agent_filter (LoomSessionList *self,
                                                const char      *source);
/* A project's path, or NULL for every project. */
const char *loom_session_list_get_project_filter (LoomSessionList *self);
void        loom_session_list_set_project_filter (LoomSessionList *self,
                                                  const char      *project_path);

/* "All Sessions", a folder's name… and "1,234 sessions · Codex": for the pane's header bar. */
const char *loom_session_list_get_title (LoomSessionList *self);
const char *loom_session_list_get_subtitle (LoomSessionList *self);
guint       loom_session_list_get_n_sessions (LoomSessionList *self);

/* The search of all history: Ctrl+F focuses its entry; while it holds a query, the pane shows
 * the results in place of the list, and "search-hit-activated" reports the one chosen. */
GtkSearchEntry       *loom_session_list_get_search_entry (LoomSessionList *self);
GtkWidget            *loom_session_list_get_search_results (LoomSessionList *self);
gboolean              loom_session_list_get_searching (LoomSessionList *self);
/* For tests and benchmarks. */
LoomSessionListModel *loom_session_list_get_model (LoomSessionList *self);

G_END_DECLS
