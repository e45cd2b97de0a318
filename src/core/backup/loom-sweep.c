/* loom-sweep.c — the archive sweep: old sessions backed up, verified, then archived.
 *
 * The order is what makes a sweep safe to interrupt. A session is archived only once its
 * backup has been written and read back (loom_backup_session () verifies before it returns),
 * and the archive and the record of the backup are one transaction: a sweep killed at any
 * moment leaves each session either unarchived, or archived with a backup that verified.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "loom-backup-private.h"
#include "loom-backup.h"
#include "loom-error.h"
#include "loom-store-backups.h"
#include "loom-sweep.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)

void
loom_sweep_candidate_free (LoomSweepCandidate *candidate)
{
  if (candidate == NULL)
    return;
  g_free (candidate->session_id);
  g_free (candidate->title);
  g_free (candidate->model);
  g_free (candidate);
}

void
loom_sweep_result_free (LoomSweepResult *result)
{
  if (result == NULL)
    return;
  g_ptr_array_unref (result->archived);
  g_ptr_array_unref (result->titles);
  g_ptr_array_unref (result->packages);
  g_ptr_array_unref (result->failed);
  g_free (result);
}

GPtrArray *
loom_sweep_find_eligible (LoomStore *store,
                          guint      older_than_days,
                          gint64     now,
                          GError   **error)
{
  g_autoptr (GListModel) sessions = NULL;
  GPtrArray *candidates;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);

  if (!(sessions = loom_store_list_sweep_candidates (store, now - older_than_days * DAY_MS, error)))
    return NULL;

  candidates = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_sweep_candidate_free);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      LoomSweepCandidate *candidate = g_new0 (LoomSweepCandidate, 1);

      candidate->session_id = g_strdup (loom_session_get_uuid (session));
      candidate->title = g_strdup (loom_session_get_title (session));
      candidate->last_active = loom_session_get_updated_at (session);
      candidate->message_count = (guint64)MAX (loom_session_get_message_count (session), 0);
      candidate->model = g_strdup (loom_session_get_model (session));
      g_ptr_array_add (candidates, candidate);
    }
  return candidates;
}

/* Where the sweep is, handed to each report of the package's own steps. */
/* The folder must be there already, and be a folder of its own: a link could be turned to
 * somewhere else between the check and the writes, which loom_backup_session () refuses
 * anyway, once per session. */
static gboolean
check_backup_dir (const char *backup_dir,
                  GError    **error)
{
  GStatBuf st;

  if (g_lstat (backup_dir, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Cannot use the backup folder “%s”: %s",
                   backup_dir, g_strerror (saved));
      return FALSE;
    }
  if (S_ISLNK (st.st_mode) || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The backup folder “%s” is not a folder (a symbolic link is not taken)",
                   backup_dir);
      return FALSE;
    }
  return TRUE;
}

LoomSweepResult *
loom_sweep_run (LoomStore            *store,
                const char *const    *session_ids,
                const char           *backup_dir,
                const LoomBackupKey  *key,
                LoomSweepProgressFunc progress,
                gpointer              progress_data,
                GCancellable         *cancellable,
                GError              **error)
{
  g_autoptr (LoomSweepResult) result = NULL;
  LoomBackupRunReporter reporter = { progress, progress_data, { 0 } };
  guint                 total;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (session_ids != NULL, NULL);
  g_return_val_if_fail (backup_dir != NULL, NULL);

  if (!check_backup_dir (backup_dir, error))
    return NULL;

  result = g_new0 (LoomSweepResult, 1);
  result->archived = g_ptr_array_new_with_free_func (g_free);
  result->titles = g_ptr_array_new_with_free_func (g_free);
  result->packages = g_ptr_array_new_with_free_func (g_free);
  result->failed = loom_backup_run_failures_new ();

  total = g_strv_length ((char **)session_ids);
  for (guint i = 0; i < total; i++)
    {
      LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;
      g_autoptr (LoomBackupResult) backup = NULL;
      g_autoptr (LoomSession) session = NULL;
      GError     *session_error = NULL;
      const char *uuid;
      const char *title;

      /* Between sessions only: a backup that was written and verified is archived before the
       * sweep stops, rather than left in the folder for a session still unarchived, which the
       * next sweep would back up a second time. */
      if (g_cancellable_is_cancelled (cancellable))
        {
          result->cancelled = TRUE;
          break;
        }

      if (!(session = loom_store_get_session (store, session_ids[i], &session_error)))
        {
          loom_backup_run_add_failure (result->failed, session_ids[i], NULL, session_error);
          continue;
        }
      uuid = loom_session_get_uuid (session);
      title = loom_session_get_title (session);

      reporter.progress = (LoomSweepProgress){ uuid, title, i, total, NULL, NULL };
      loom_backup_run_report (&reporter, "backup", NULL);
      options.key = key;
      options.as_archived = TRUE;
      options.progress = loom_backup_run_relay_export;
      options.progress_data = &reporter;
      if (!loom_backup_session (store, uuid, backup_dir, &options, &backup, cancellable,
                                &session_error))
        {
          /* A cancelled backup leaves nothing behind (loom-backup.h): the sweep stops there. */
          if (g_error_matches (session_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_clear_error (&session_error);
              result->cancelled = TRUE;
              break;
            }
          loom_backup_run_add_failure (result->failed, uuid, title, session_error);
          continue;
        }

      loom_backup_run_report (&reporter, "archive", NULL);
      if (!loom_store_archive_with_backup (store, uuid, backup->path, backup->key_id,
                                           &session_error))
        {
          /* The backup stays: it verified, and holds the session as it was. The session stays
           * unarchived, as the sweep promises for one it could not finish. */
          loom_backup_run_add_failure (result->failed, uuid, title, session_error);
          continue;
        }

      g_ptr_array_add (result->archived, g_strdup (uuid));
      g_ptr_array_add (result->titles, g_strdup (title));
      g_ptr_array_add (result->packages, g_strdup (backup->path));
      result->n_artifacts += backup->n_artifacts;
    }

  return g_steal_pointer (&result);
}

/* Async */

typedef struct
{
  char                 *db_path;
  GStrv                 session_ids;
  char                 *backup_dir;
  LoomBackupKey        *key;
  LoomSweepProgressFunc progress;
  gpointer              progress_data;
} SweepRequest;

static void
sweep_request_free (SweepRequest *request)
{
  g_free (request->db_path);
  g_strfreev (request->session_ids);
  g_free (request->backup_dir);
  g_clear_pointer (&request->key, loom_backup_key_free);
  g_free (request);
}

static void
sweep_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  SweepRequest *request = task_data;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  LoomSweepResult *result = NULL;

  /* A connection of the thread's own: a LoomStore is used by one thread at a time, and the
   * caller's stays free for the window meanwhile. */
  if (!(store = loom_store_open (request->db_path, &error)) ||
      !(result = loom_sweep_run (store, (const char *const *)request->session_ids,
                                 request->backup_dir, request->key, request->progress,
                                 request->progress_data, cancellable, &error)))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, (GDestroyNotify)loom_sweep_result_free);
}

void
loom_sweep_run_async (LoomStore            *store,
                      const char *const    *session_ids,
                      const char           *backup_dir,
                      const LoomBackupKey  *key,
                      LoomSweepProgressFunc progress,
                      gpointer              progress_data,
                      GCancellable         *cancellable,
                      GAsyncReadyCallback   callback,
                      gpointer              user_data)
{
  g_autoptr (GTask) task = NULL;
  SweepRequest *request;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (session_ids != NULL);
  g_return_if_fail (backup_dir != NULL);

  request = g_new0 (SweepRequest, 1);
  request->db_path = g_strdup (loom_store_get_path (store));
  request->session_ids = g_strdupv ((char **)session_ids);
  request->backup_dir = g_strdup (backup_dir);
  /* A copy of the thread's own: the caller may free its key as soon as this returns. */
  request->key = key != NULL ? loom_backup_key_copy (key) : NULL;
  request->progress = progress;
  request->progress_data = progress_data;

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_sweep_run_async);
  g_task_set_task_data (task, request, (GDestroyNotify)sweep_request_free);
  g_task_run_in_thread (task, sweep_thread);
}

LoomSweepResult *
loom_sweep_run_finish (LoomStore    *store,
                       GAsyncResult *result,
                       GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_sweep_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
