/* loom-export-relay.c — the latest report of an export's worker, handed to the main thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-export-relay.h"

struct _LoomExportRelay
{
  GWeakRef            target;
  LoomExportRelayFunc func;
  GMutex              lock;
  /* The latest report not yet handed on, and whether an idle is on its way with it. */
  char               *session_id;
  char               *step;
  char               *artifact;
  guint               n_done;
  guint               n_total;
  gboolean            pending;
  /* Set in the main thread when the export is over: reports still queued are stale. */
  gboolean            stopped;
  /* While set, the worker waits in its reports of this step (loom_export_relay_hold ()). */
  char               *hold_step;
  GCond               released;
};

static void
relay_clear (gpointer data)
{
  LoomExportRelay *relay = data;

  g_weak_ref_clear (&relay->target);
  g_mutex_clear (&relay->lock);
  g_cond_clear (&relay->released);
  g_free (relay->hold_step);
  g_free (relay->session_id);
  g_free (relay->step);
  g_free (relay->artifact);
}

LoomExportRelay *
loom_export_relay_new (GObject            *target,
                       LoomExportRelayFunc func)
{
  LoomExportRelay *relay;

  g_return_val_if_fail (G_IS_OBJECT (target), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  relay = g_atomic_rc_box_new0 (LoomExportRelay);
  g_weak_ref_init (&relay->target, target);
  relay->func = func;
  g_mutex_init (&relay->lock);
  g_cond_init (&relay->released);
  return relay;
}

void
loom_export_relay_unref (LoomExportRelay *relay)
{
  g_return_if_fail (relay != NULL);

  g_atomic_rc_box_release_full (relay, relay_clear);
}

void
loom_export_relay_stop (LoomExportRelay *relay)
{
  g_return_if_fail (relay != NULL);

  g_mutex_lock (&relay->lock);
  relay->stopped = TRUE;
  g_clear_pointer (&relay->hold_step, g_free);
  g_cond_broadcast (&relay->released);
  g_mutex_unlock (&relay->lock);
}

void
loom_export_relay_hold (LoomExportRelay *relay,
                        const char      *step)
{
  g_return_if_fail (relay != NULL);

  g_mutex_lock (&relay->lock);
  g_free (relay->hold_step);
  relay->hold_step = g_strdup (step);
  if (step == NULL)
    g_cond_broadcast (&relay->released);
  g_mutex_unlock (&relay->lock);
}

/* The main thread. */
static gboolean
deliver (gpointer data)
{
  LoomExportRelay *relay = data;
  g_autoptr (GObject) target = g_weak_ref_get (&relay->target);
  g_autofree char   *session_id = NULL;
  g_autofree char   *step = NULL;
  g_autofree char   *artifact = NULL;
  LoomExportProgress progress = { NULL };
  gboolean           stopped;

  g_mutex_lock (&relay->lock);
  session_id = g_steal_pointer (&relay->session_id);
  step = g_steal_pointer (&relay->step);
  artifact = g_steal_pointer (&relay->artifact);
  progress.n_artifacts_done = relay->n_done;
  progress.n_artifacts_total = relay->n_total;
  relay->pending = FALSE;
  stopped = relay->stopped;
  g_mutex_unlock (&relay->lock);

  if (target != NULL && !stopped)
    {
      progress.session_id = session_id;
      progress.step = step;
      progress.artifact = artifact;
      relay->func (target, &progress);
    }
  return G_SOURCE_REMOVE;
}

/* The worker thread: a copy of the report, and an idle unless one is already on its way. */
static void
report (const LoomExportProgress *progress,
        gpointer                  user_data)
{
  LoomExportRelay *relay = user_data;
  gboolean         schedule;

  g_mutex_lock (&relay->lock);
  g_free (relay->session_id);
  relay->session_id = g_strdup (progress->session_id);
  g_free (relay->step);
  relay->step = g_strdup (progress->step);
  g_free (relay->artifact);
  relay->artifact = g_strdup (progress->artifact);
  relay->n_done = progress->n_artifacts_done;
  relay->n_total = progress->n_artifacts_total;
  schedule = !relay->pending && !relay->stopped;
  relay->pending |= schedule;
  if (schedule)
    g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT_IDLE, deliver,
                                g_atomic_rc_box_acquire (relay),
                                (GDestroyNotify)loom_export_relay_unref);
  /* Held: the report above is shown, and the export waits there. */
  while (relay->hold_step != NULL && g_strcmp0 (relay->hold_step, progress->step) == 0)
    g_cond_wait (&relay->released, &relay->lock);
  g_mutex_unlock (&relay->lock);
}

void
loom_export_relay_attach (LoomExportRelay   *relay,
                          LoomExportOptions *options)
{
  g_return_if_fail (relay != NULL);
  g_return_if_fail (options != NULL);

  options->progress = report;
  options->progress_data = relay;
}
