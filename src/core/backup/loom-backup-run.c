/* loom-backup-run.c — what a run of backups over many sessions (an archive sweep, continuous
 * backup) tells as it goes: its progress, a package's own steps folded in, and its failures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-backup-private.h"

void
loom_backup_run_report (LoomBackupRunReporter *reporter,
                        const char            *step,
                        const char            *export_step)
{
  if (reporter->func == NULL)
    return;
  reporter->progress.step = step;
  reporter->progress.export_step = export_step;
  reporter->func (&reporter->progress, reporter->data);
}

void
loom_backup_run_relay_export (const LoomExportProgress *progress,
                              gpointer                  reporter)
{
  /* The backup's reading back of its package comes as its step "verify". */
  if (g_strcmp0 (progress->step, "verify") == 0)
    loom_backup_run_report (reporter, "verify", NULL);
  else
    loom_backup_run_report (reporter, "backup", progress->step);
}

static void
failure_free (LoomSweepFailure *failure)
{
  g_free (failure->session_id);
  g_free (failure->title);
  g_clear_error (&failure->error);
  g_free (failure);
}

GPtrArray *
loom_backup_run_failures_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify)failure_free);
}

void
loom_backup_run_add_failure (GPtrArray  *failed,
                             const char *session_id,
                             const char *title,
                             GError     *error)
{
  LoomSweepFailure *failure = g_new0 (LoomSweepFailure, 1);

  failure->session_id = g_strdup (session_id);
  failure->title = g_strdup (title);
  failure->error = error;
  g_ptr_array_add (failed, failure);
}
