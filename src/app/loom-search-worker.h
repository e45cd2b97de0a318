/* loom-search-worker.h — runs searches in a thread, on a connection of its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-search.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_WORKER (loom_search_worker_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchWorker, loom_search_worker, LOOM, SEARCH_WORKER, GObject)

/* What one search found: a page of hits, best first, and the sessions they are in. */
typedef struct
{
  char       *query;
  guint       offset;
  /* There are no more hits after these. */
  gboolean    complete;
  GListModel *hits; /* LoomSearchHit */
  /* uuid → LoomSession, for a search of all history; NULL within one session. A session that
   * went between the two reads has no entry, and its hits are best left out. */
  GHashTable *sessions;
} LoomSearchPage;

void loom_search_page_free (LoomSearchPage *page);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSearchPage, loom_search_page_free)

LoomSearchWorker *loom_search_worker_new (const char *store_path);
const char       *loom_search_worker_get_store_path (LoomSearchWorker *self);
/* Searches all history, or the session @session_uuid when it is not NULL. Searches run one at
 * a time; one cancelled while it waits for its turn does not run at all. */
void              loom_search_worker_search_async (LoomSearchWorker   *self,
                                                   const char         *query,
                                                   const char         *session_uuid,
                                                   guint               offset,
                                                   guint               limit,
                                                   GCancellable       *cancellable,
                                                   GAsyncReadyCallback callback,
                                                   gpointer            user_data);
LoomSearchPage   *loom_search_worker_search_finish (LoomSearchWorker *self,
                                                    GAsyncResult     *result,
                                                    GError          **error);

G_END_DECLS
