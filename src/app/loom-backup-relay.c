/* loom-backup-relay.c — the latest report of a sweep's or a restore's worker, handed to the
 * main thread.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-backup-relay.h"

struct _LoomBackupRelay
{
  GWeakRef            target;
  LoomBackupRelayFunc func;
  GMutex              lock;
  /* The latest report not yet handed on, and whether an idle is on its way with it. */
  char               *name;
  char               *step;
  char               *export_step;
  guint               index;
  guint               total;
  gboolean            pending;
  gboolean            stopped;
  char               *hold_step;
  GCond               released;
};

static void
relay_clear (gpointer data)
{
  LoomBackupRelay *relay = data;

  g_weak_ref_clear (&relay->target);
  g_mutex_clear (&relay->lock);
  g_cond_clear (&relay->released);
  g_free (relay->hold_step);
  g_free (relay->name);
  g_free (relay->step);
  g_free (relay->export_step);
}

LoomBackupRelay *
loom_backup_relay_new (GObject            *target,
                       LoomBackupRelayFunc func)
{
  LoomBackupRelay *relay;

  g_return_val_if_fail (G_IS_OBJECT (target), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  relay = g_atomic_rc_box_new0 (LoomBackupRelay);
  g_weak_ref_init (&relay->target, target);
  relay->func = func;
  g_mutex_init (&relay->lock);
  g_cond_init (&relay->released);
  return relay;
}

LoomBackupRelay *
loom_backup_relay_ref (LoomBackupRelay *relay)
{
  g_return_val_if_fail (relay != NULL, NULL);

  return g_atomic_rc_box_acquire (relay);
}

void
loom_backup_relay_unref (LoomBackupRelay *relay)
{
  g_return_if_fail (relay != NULL);

  g_atomic_rc_box_release_full (relay, relay_clear);
}

void
loom_backup_relay_stop (LoomBackupRelay *relay)
{
  g_return_if_fail (relay != NULL);

  g_mutex_lock (&relay->lock);
  relay->stopped = TRUE;
  g_clear_pointer (&relay->hold_step, g_free);
  g_cond_broadcast (&relay->released);
  g_mutex_unlock (&relay->lock);
}

void
loom_backup_relay_hold (LoomBackupRelay *relay,
                        const char      *step)
{
  g_return_if_fail (relay != NULL);

  g_mutex_lock (&relay->lock);
  g_free (relay->hold_step);
  relay->hold_step = relay->stopped ? NULL : g_strdup (step);
  if (step == NULL)
    g_cond_broadcast (&relay->released);
  g_mutex_unlock (&relay->lock);
}

/* The main thread. */
static gboolean
deliver (gpointer data)
{
  LoomBackupRelay *relay = data;
  g_autoptr (GObject) target = g_weak_ref_get (&relay->target);
  g_autofree char *name = NULL;
  g_autofree char *step = NULL;
  g_autofree char *export_step = NULL;
  LoomBackupReport report = { NULL };
  gboolean         stopped;

  g_mutex_lock (&relay->lock);
  name = g_steal_pointer (&relay->name);
  step = g_steal_pointer (&relay->step);
  export_step = g_steal_pointer (&relay->export_step);
  report.index = relay->index;
  report.total = relay->total;
  relay->pending = FALSE;
  stopped = relay->stopped;
  g_mutex_unlock (&relay->lock);

  if (target != NULL && !stopped)
    {
      report.name = name;
      report.step = step;
      report.export_step = export_step;
      relay->func (target, &report);
    }
  return G_SOURCE_REMOVE;
}

/* The worker thread: a copy of the report, and an idle unless one is already on its way. */
static void
report (LoomBackupRelay *relay,
        const char      *name,
        const char      *step,
        const char      *export_step,
        guint            index,
        guint            total)
{
  gboolean schedule;

  g_mutex_lock (&relay->lock);
  g_free (relay->name);
  relay->name = g_strdup (name);
  g_free (relay->step);
  relay->step = g_strdup (step);
  g_free (relay->export_step);
  relay->export_step = g_strdup (export_step);
  relay->index = index;
  relay->total = total;
  schedule = !relay->pending && !relay->stopped;
  relay->pending |= schedule;
  if (schedule)
    g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT_IDLE, deliver,
                                g_atomic_rc_box_acquire (relay),
                                (GDestroyNotify)loom_backup_relay_unref);
  /* Held: the report above is shown, and the worker waits there. */
  while (relay->hold_step != NULL &&
         (relay->hold_step[0] == '\0' || g_strcmp0 (relay->hold_step, step) == 0))
    g_cond_wait (&relay->released, &relay->lock);
  g_mutex_unlock (&relay->lock);
}

void
loom_backup_relay_sweep_progress (const LoomSweepProgress *progress,
                                  gpointer                 relay)
{
  report (relay, progress->title, progress->step, progress->export_step, progress->index,
          progress->total);
}

void
loom_backup_relay_restore_progress (const LoomRestoreProgress *progress,
                                    gpointer                   relay)
{
  report (relay, progress->path, NULL, NULL, progress->index, progress->total);
}
