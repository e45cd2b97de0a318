/* loom-search-worker.c — runs searches in a thread, on a connection of its own.
 *
 * The window's store belongs to the UI thread, which only reads through it; a search of a long
 * history can take longer than a frame, so it runs in a GTask thread instead, on a second
 * connection to the same file that the worker opens on first use and keeps. One connection
 * serves one search at a time: the searches take turns on a mutex, and one that was cancelled
 * while it waited (the person typed on) gives up without touching the store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-search-worker.h"

struct _LoomSearchWorker
{
  GObject parent_instance;

  char      *store_path;
  GMutex     mutex;
  LoomStore *store; /* guarded by mutex; opened by the first search */
};

G_DEFINE_FINAL_TYPE (LoomSearchWorker, loom_search_worker, G_TYPE_OBJECT)

typedef struct
{
  char *query;
  char *session_uuid;
  guint offset;
  guint limit;
} SearchRequest;

static void
search_request_free (SearchRequest *request)
{
  g_free (request->query);
  g_free (request->session_uuid);
  g_free (request);
}

void
loom_search_page_free (LoomSearchPage *page)
{
  if (page == NULL)
    return;

  g_free (page->query);
  g_clear_object (&page->hits);
  g_clear_pointer (&page->sessions, g_hash_table_unref);
  g_free (page);
}

/* The sessions of @hits, read once each: the results show each one's title, agent and date. */
static GHashTable *
read_sessions (LoomStore    *store,
               GListModel   *hits,
               GCancellable *cancellable)
{
  GHashTable *sessions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_autoptr (GHashTable) missing = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_hits = g_list_model_get_n_items (hits);

  for (guint i = 0; i < n_hits && !g_cancellable_is_cancelled (cancellable); i++)
    {
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (hits, i);
      const char *uuid = loom_search_hit_get_data (hit)->session_uuid;
      g_autoptr (GError) error = NULL;
      LoomSession *session;

      if (g_hash_table_contains (sessions, uuid) || g_hash_table_contains (missing, uuid))
        continue;

      session = loom_store_get_session (store, uuid, &error);
      if (session != NULL)
        g_hash_table_insert (sessions, g_strdup (uuid), session);
      else
        {
          g_debug ("Search hit in session %s, which cannot be read: %s", uuid, error->message);
          g_hash_table_add (missing, (gpointer)uuid);
        }
    }

  return sessions;
}

static void
search_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  LoomSearchWorker *self = source_object;
  SearchRequest    *request = task_data;
  g_autoptr (GMutexLocker) locker = NULL;
  g_autoptr (LoomSearchPage) page = NULL;
  g_autoptr (GListModel) hits = NULL;
  g_autoptr (GError) error = NULL;
  guint limit;

  locker = g_mutex_locker_new (&self->mutex);

  if (g_task_return_error_if_cancelled (task))
    return;

  if (self->store == NULL && !(self->store = loom_store_open (self->store_path, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* One hit more than asked for tells whether there are more, without a search for nothing
   * at the end. */
  limit = request->limit > 0 ? request->limit + 1 : 0;
  page = g_new0 (LoomSearchPage, 1);
  page->query = g_strdup (request->query);
  page->offset = request->offset;
  /* Searches within a session serve the timeline's search bar, which shows no snippets. */
  if (request->session_uuid != NULL)
    hits = loom_store_search_session_positions (self->store, request->session_uuid, request->query,
                                                limit, &error);
  else
    hits = loom_store_search (self->store, request->query, request->offset, limit, &error);
  if (hits == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  page->complete = limit == 0 || g_list_model_get_n_items (hits) < limit;
  if (page->complete)
    page->hits = g_steal_pointer (&hits);
  else
    {
      GListStore *store = g_list_store_new (LOOM_TYPE_SEARCH_HIT);

      for (guint i = 0; i < request->limit; i++)
        {
          g_autoptr (LoomSearchHit) hit = g_list_model_get_item (hits, i);

          g_list_store_append (store, hit);
        }
      page->hits = G_LIST_MODEL (store);
    }
  if (request->session_uuid == NULL)
    page->sessions = read_sessions (self->store, page->hits, cancellable);

  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, g_steal_pointer (&page), (GDestroyNotify)loom_search_page_free);
}

void
loom_search_worker_search_async (LoomSearchWorker   *self,
                                 const char         *query,
                                 const char         *session_uuid,
                                 guint               offset,
                                 guint               limit,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;
  SearchRequest *request;

  g_return_if_fail (LOOM_IS_SEARCH_WORKER (self));
  g_return_if_fail (query != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  request = g_new0 (SearchRequest, 1);
  request->query = g_strdup (query);
  request->session_uuid = g_strdup (session_uuid);
  request->offset = offset;
  request->limit = limit;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_search_worker_search_async);
  g_task_set_task_data (task, request, (GDestroyNotify)search_request_free);
  g_task_run_in_thread (task, search_thread);
}

LoomSearchPage *
loom_search_worker_search_finish (LoomSearchWorker *self,
                                  GAsyncResult     *result,
                                  GError          **error)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_WORKER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_search_worker_search_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
loom_search_worker_finalize (GObject *object)
{
  LoomSearchWorker *self = LOOM_SEARCH_WORKER (object);

  /* The last search may have held the last reference: this runs in whichever thread let go,
   * which SQLite allows as the connection is no longer in use anywhere. */
  g_clear_object (&self->store);
  g_mutex_clear (&self->mutex);
  g_free (self->store_path);

  G_OBJECT_CLASS (loom_search_worker_parent_class)->finalize (object);
}

static void
loom_search_worker_class_init (LoomSearchWorkerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = loom_search_worker_finalize;
}

static void
loom_search_worker_init (LoomSearchWorker *self)
{
  g_mutex_init (&self->mutex);
}

LoomSearchWorker *
loom_search_worker_new (const char *store_path)
{
  LoomSearchWorker *self;

  g_return_val_if_fail (store_path != NULL, NULL);

  self = g_object_new (LOOM_TYPE_SEARCH_WORKER, NULL);
  self->store_path = g_strdup (store_path);
  return self;
}

const char *
loom_search_worker_get_store_path (LoomSearchWorker *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_WORKER (self), NULL);

  return self->store_path;
}
