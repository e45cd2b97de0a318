/* loom-export-batch.c — several sessions exported at once, one package each.
 *
 * A package is written by one thread on one connection, and most of its time is the CPU's:
 * reading the store, formatting, hashing. Sessions exported together are shared out between
 * workers, each with a connection of its own to the store's file, so that a machine's cores
 * write as many packages at a time. Each package is still written, named and published
 * exactly as loom_export_session () does it alone: two workers that name a package alike get
 * " (2)" from the same no-replace rename, and a package's redaction is its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-error.h"
#include "loom-export.h"

/* More workers than this wait on the disk rather than compute. */
#define MAX_WORKERS 8

typedef struct
{
  const char *const       *session_ids;
  guint                    n_sessions;
  const char              *db_path;
  const char              *destination_dir;
  const LoomExportOptions *options;
  GCancellable            *cancellable;
  int                      next; /* the next session to take, atomically */
  LoomExportResult       **results;
  GError                 **errors;
} Batch;

/* Takes the batch's sessions one after the other until none is left, exporting them through
 * @store (NULL: could not be opened, for @open_error). */
static void
export_through (Batch        *batch,
                LoomStore    *store,
                const GError *open_error)
{
  guint i;

  while ((i = (guint)g_atomic_int_add (&batch->next, 1)) < batch->n_sessions)
    {
      if (store == NULL)
        batch->errors[i] = g_error_copy (open_error);
      else if (!loom_export_session (store, batch->session_ids[i], batch->destination_dir,
                                     batch->options, &batch->results[i], batch->cancellable,
                                     &batch->errors[i]))
        g_assert (batch->errors[i] != NULL);
    }
}

static gpointer
worker (gpointer data)
{
  Batch *batch = data;
  g_autoptr (GError) open_error = NULL;
  g_autoptr (LoomStore) store = loom_store_open (batch->db_path, &open_error);

  export_through (batch, store, open_error);
  return NULL;
}

void
loom_export_sessions (LoomStore               *store,
                      const char *const       *session_ids,
                      const char              *destination_dir,
                      const LoomExportOptions *options,
                      guint                    n_workers,
                      LoomExportResult      ***results,
                      GError                ***errors,
                      GCancellable            *cancellable)
{
  Batch    batch = { 0 };
  GThread *threads[MAX_WORKERS];
  guint    n_threads;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (session_ids != NULL);
  g_return_if_fail (destination_dir != NULL);
  g_return_if_fail (results != NULL && errors != NULL);

  batch.session_ids = session_ids;
  batch.n_sessions = g_strv_length ((GStrv)session_ids);
  batch.db_path = loom_store_get_path (store);
  batch.destination_dir = destination_dir;
  batch.options = options;
  batch.cancellable = cancellable;
  batch.results = g_new0 (LoomExportResult *, batch.n_sessions + 1);
  batch.errors = g_new0 (GError *, batch.n_sessions + 1);

  if (n_workers == 0)
    n_workers = g_get_num_processors ();
  n_threads = CLAMP (MIN (n_workers, batch.n_sessions), 1, MAX_WORKERS);
  /* One at a time needs no thread, nor a second connection: the caller's does. */
  if (n_threads == 1)
    {
      export_through (&batch, store, NULL);
      *results = batch.results;
      *errors = batch.errors;
      return;
    }
  for (guint t = 0; t < n_threads; t++)
    threads[t] = g_thread_new ("loom-export", worker, &batch);
  for (guint t = 0; t < n_threads; t++)
    g_thread_join (threads[t]);

  *results = batch.results;
  *errors = batch.errors;
}

void
loom_export_results_free (LoomExportResult **results,
                          GError           **errors,
                          guint              n_sessions)
{
  for (guint i = 0; i < n_sessions; i++)
    {
      g_clear_pointer (&results[i], loom_export_result_free);
      g_clear_error (&errors[i]);
    }
  g_free (results);
  g_free (errors);
}
