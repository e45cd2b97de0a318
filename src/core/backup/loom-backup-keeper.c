/* loom-backup-keeper.c — continuous backup: quiet, changed sessions backed up, the previous
 * backup replaced only once the new one verified.
 *
 * The order is what keeps a verified backup of each session in the folder at every moment: the
 * new backup is written and read back first (loom_backup_session () verifies before it
 * returns), recorded as the session's latest, and only then is the previous one removed. A run
 * killed half-way leaves two backups of a session at worst, never none; the store names the
 * newer, and the next run removes the older (remove_superseded ()). The new backup is not
 * renamed afterwards: a rename and its record cannot be one step, and a run killed between the
 * two would leave the store naming a backup that is not there. Written while the previous one
 * holds the usual name, it takes the next free one, so a session's backups alternate between
 * two names rather than fill the folder with "(2)", "(3)"….
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-backup-files.h"
#include "loom-backup-keeper.h"
#include "loom-backup-private.h"
#include "loom-backup.h"
#include "loom-error.h"
#include "loom-export.h"
#include "loom-store-backups.h"

void
loom_keeper_result_free (LoomKeeperResult *result)
{
  if (result == NULL)
    return;
  g_ptr_array_unref (result->backed_up);
  g_ptr_array_unref (result->paths);
  g_ptr_array_unref (result->replaced);
  g_ptr_array_unref (result->failed);
  g_free (result);
}

/* The name of @path when it is an entry of the folder @dir_fd and looks like a backup there:
 * a .loombackup file, or a package folder (one with its manifest). Anything else is left
 * alone, whatever the store says: what is removed here is removed for good, and a path
 * recorded long ago may now name something the person put there. */
static char *
backup_name_in_folder (int         dir_fd,
                       const char *path)
{
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);
  struct stat      dir_st, parent_st, st;

  if (g_str_equal (name, ".") || g_str_equal (name, "..") || g_str_equal (name, G_DIR_SEPARATOR_S))
    return NULL;
  /* The same folder by identity, not by spelling: a trailing slash or another path to it. */
  if (fstat (dir_fd, &dir_st) != 0 || stat (parent, &parent_st) != 0 ||
      dir_st.st_dev != parent_st.st_dev || dir_st.st_ino != parent_st.st_ino)
    return NULL;
  if (fstatat (dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return NULL;
  if (S_ISREG (st.st_mode) && g_str_has_suffix (name, LOOM_BACKUP_SUFFIX))
    return g_steal_pointer (&name);
  if (S_ISDIR (st.st_mode))
    {
      g_autofree char *manifest = g_build_filename (name, "manifest.json", NULL);

      if (fstatat (dir_fd, manifest, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG (st.st_mode))
        return g_steal_pointer (&name);
    }
  return NULL;
}

/* Backs up one due session; the previous backup goes only after the new one is recorded. */
static gboolean
keep_one (LoomStore             *store,
          int                    dir_fd,
          const char            *backup_dir,
          const LoomBackupKey   *key,
          LoomSession           *session,
          LoomBackupRunReporter *reporter,
          LoomKeeperResult      *result,
          GCancellable          *cancellable,
          GError               **error)
{
  LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;
  g_autoptr (LoomBackupResult) backup = NULL;
  g_autofree char *previous = NULL;
  const char      *previous_path = loom_session_get_backup_path (session);

  options.key = key;
  /* The package says what the store says now, so that a restore brings the session back as it
   * is: archived only when it is. */
  options.as_archived = loom_session_get_archived (session);
  options.progress = loom_backup_run_relay_export;
  options.progress_data = reporter;
  if (!loom_backup_session (store, loom_session_get_uuid (session), backup_dir, &options, &backup,
                            cancellable, error))
    return FALSE;

  if (!loom_store_record_backup (store, backup->session_id, backup->path, backup->key_id, error))
    {
      /* Unrecorded, the new backup would be a second one the store does not know; the
       * previous one, still recorded, stays as the session's backup. */
      loom_backup_remove_tree (backup->path);
      return FALSE;
    }

  loom_backup_run_report (reporter, "replace", NULL);
  if (previous_path != NULL && g_strcmp0 (previous_path, backup->path) != 0 &&
      (previous = backup_name_in_folder (dir_fd, previous_path)) != NULL)
    {
      g_autofree char *new_name = g_path_get_basename (backup->path);

      if (!g_str_equal (previous, new_name))
        {
          loom_backup_remove_tree (previous_path);
          g_ptr_array_add (result->replaced, g_strdup (previous_path));
        }
    }

  g_ptr_array_add (result->backed_up, g_strdup (backup->session_id));
  g_ptr_array_add (result->paths, g_strdup (backup->path));
  return TRUE;
}

/* A run killed after it recorded a session's new backup, before it removed the previous one,
 * leaves that one behind; the session is not due again until it changes, so each run looks for
 * such backups, in this folder only, and removes them. Which backup is a session's latest is
 * the store's to say: one that is nobody's latest any more is superseded by a verified one. */
static void
remove_superseded (LoomStore        *store,
                   int               dir_fd,
                   LoomKeeperResult *result)
{
  g_autoptr (GPtrArray) paths = NULL;
  g_autoptr (GError) error = NULL;

  if (!(paths = loom_store_list_superseded_backups (store, &error)))
    {
      g_debug ("Could not look for replaced backups: %s", error->message);
      return;
    }
  for (guint i = 0; i < paths->len;)
    {
      const LoomSupersededBackup *first = g_ptr_array_index (paths, i);
      g_autofree char            *name = backup_name_in_folder (dir_fd, first->path);
      gboolean                    latest_there = TRUE;

      /* Only when every session that has it recorded has its latest backup in this folder, on
       * disk: the store and the folder may disagree (a backup moved or deleted by hand), and
       * then the old one may be the only backup of that session left; and a latest backup
       * elsewhere (a sweep onto another disk) does not make this folder's one superfluous. */
      for (; i < paths->len; i++)
        {
          const LoomSupersededBackup *each = g_ptr_array_index (paths, i);
          g_autofree char            *latest = NULL;

          if (!g_str_equal (each->path, first->path))
            break;
          latest = backup_name_in_folder (dir_fd, each->latest_path);
          latest_there = latest_there && latest != NULL;
        }
      if (name == NULL || !latest_there)
        continue;
      loom_backup_remove_tree (first->path);
      g_ptr_array_add (result->replaced, g_strdup (first->path));
    }
}

LoomKeeperResult *
loom_backup_keep_up (LoomStore             *store,
                     const char            *backup_dir,
                     const LoomBackupKey   *key,
                     gint64                 quiet_ms,
                     gint64                 now,
                     LoomKeeperProgressFunc progress,
                     gpointer               progress_data,
                     GCancellable          *cancellable,
                     GError               **error)
{
  g_autoptr (LoomKeeperResult) result = NULL;
  g_autoptr (GListModel) due = NULL;
  LoomBackupRunReporter reporter = { progress, progress_data, { 0 } };
  guint                 total;
  int                   dir_fd;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (backup_dir != NULL, NULL);
  g_return_val_if_fail (quiet_ms >= 0, NULL);

  if ((dir_fd = loom_backup_open_folder (backup_dir, error)) < 0)
    return NULL;
  if (!(due = loom_store_list_backups_due (store, now - quiet_ms, error)))
    {
      close (dir_fd);
      return NULL;
    }

  result = g_new0 (LoomKeeperResult, 1);
  result->backed_up = g_ptr_array_new_with_free_func (g_free);
  result->paths = g_ptr_array_new_with_free_func (g_free);
  result->replaced = g_ptr_array_new_with_free_func (g_free);
  result->failed = loom_backup_run_failures_new ();

  total = g_list_model_get_n_items (due);
  for (guint i = 0; i < total; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (due, i);
      const char *uuid = loom_session_get_uuid (session);
      const char *title = loom_session_get_title (session);
      GError     *session_error = NULL;

      if (g_cancellable_is_cancelled (cancellable))
        {
          result->cancelled = TRUE;
          break;
        }

      reporter.progress = (LoomKeeperProgress){ uuid, title, i, total, NULL, NULL };
      loom_backup_run_report (&reporter, "backup", NULL);
      if (!keep_one (store, dir_fd, backup_dir, key, session, &reporter, result, cancellable,
                     &session_error))
        {
          /* A cancelled backup leaves nothing behind (loom-backup.h): the run stops there. */
          if (g_error_matches (session_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_clear_error (&session_error);
              result->cancelled = TRUE;
              break;
            }
          loom_backup_run_add_failure (result->failed, uuid, title, session_error);
        }
    }

  if (!result->cancelled)
    remove_superseded (store, dir_fd, result);
  close (dir_fd);
  return g_steal_pointer (&result);
}

/* Async */

typedef struct
{
  char                  *db_path;
  char                  *backup_dir;
  LoomBackupKey         *key;
  gboolean               load_key;
  gint64                 quiet_ms;
  gint64                 now;
  LoomKeeperProgressFunc progress;
  gpointer               progress_data;
} KeepRequest;

static void
keep_request_free (KeepRequest *request)
{
  g_free (request->db_path);
  g_free (request->backup_dir);
  g_clear_pointer (&request->key, loom_backup_key_free);
  g_free (request);
}

static void
keep_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  KeepRequest *request = task_data;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  LoomKeeperResult *result = NULL;

  /* The key before anything else: a keyring that fails, or no key, must stop the run before a
   * single file is written, rather than let a backup go out in the clear. */
  if (request->load_key && request->key == NULL &&
      !(request->key = loom_backup_key_load (NULL, cancellable, &error)))
    {
      if (g_error_matches (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND))
        {
          g_clear_error (&error);
          g_set_error_literal (&error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                               "There is no backup key in the keyring to encrypt the backups "
                               "with: create one, or turn encryption off");
        }
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* A connection of the thread's own: a LoomStore is used by one thread at a time. */
  if (!(store = loom_store_open (request->db_path, &error)) ||
      !(result = loom_backup_keep_up (store, request->backup_dir, request->key, request->quiet_ms,
                                      request->now, request->progress, request->progress_data,
                                      cancellable, &error)))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, (GDestroyNotify)loom_keeper_result_free);
}

void
loom_backup_keep_up_async (LoomStore             *store,
                           const char            *backup_dir,
                           const LoomBackupKey   *key,
                           gboolean               load_key,
                           gint64                 quiet_ms,
                           gint64                 now,
                           LoomKeeperProgressFunc progress,
                           gpointer               progress_data,
                           GCancellable          *cancellable,
                           GAsyncReadyCallback    callback,
                           gpointer               user_data)
{
  g_autoptr (GTask) task = NULL;
  KeepRequest *request;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (backup_dir != NULL);
  g_return_if_fail (key == NULL || !load_key);

  request = g_new0 (KeepRequest, 1);
  request->db_path = g_strdup (loom_store_get_path (store));
  request->backup_dir = g_strdup (backup_dir);
  /* A copy of the thread's own: the caller may free its key as soon as this returns. */
  request->key = key != NULL ? loom_backup_key_copy (key) : NULL;
  request->load_key = load_key;
  request->quiet_ms = quiet_ms;
  request->now = now;
  request->progress = progress;
  request->progress_data = progress_data;

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_backup_keep_up_async);
  g_task_set_task_data (task, request, (GDestroyNotify)keep_request_free);
  g_task_run_in_thread (task, keep_thread);
}

LoomKeeperResult *
loom_backup_keep_up_finish (LoomStore    *store,
                            GAsyncResult *result,
                            GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_backup_keep_up_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
