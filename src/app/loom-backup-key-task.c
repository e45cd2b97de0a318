/* loom-backup-key-task.c — the backup key's blocking keyring calls, in GTask threads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-backup-key-task.h"

typedef enum
{
  KEY_CALL_FIND_ID,
  KEY_CALL_CREATE,
  KEY_CALL_LOAD,
  KEY_CALL_LOAD_OR_CREATE,
  KEY_CALL_STORE,
} KeyCall;

typedef struct
{
  KeyCall        call;
  char          *key_id; /* load: which, or NULL */
  LoomBackupKey *key;    /* store: the key to keep; else the key found */
  gboolean       created;
} KeyTask;

static void
key_task_free (gpointer data)
{
  KeyTask *task = data;

  g_free (task->key_id);
  g_clear_pointer (&task->key, loom_backup_key_free);
  g_free (task);
}

/* The worker: the key bytes stay in the core's wiped memory, handed over by pointer only. */
static void
run_key_call (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  KeyTask *data = task_data;
  GError  *error = NULL;

  switch (data->call)
    {
    case KEY_CALL_FIND_ID:
      {
        char *id = loom_backup_key_find_id (cancellable, &error);

        if (error != NULL)
          g_task_return_error (task, error);
        else
          g_task_return_pointer (task, id, g_free);
        return;
      }

    case KEY_CALL_CREATE:
      data->key = loom_backup_key_create (cancellable, &error);
      data->created = data->key != NULL;
      break;

    case KEY_CALL_LOAD:
      data->key = loom_backup_key_load (data->key_id, cancellable, &error);
      break;

    case KEY_CALL_LOAD_OR_CREATE:
      data->key = loom_backup_key_load_or_create (&data->created, cancellable, &error);
      break;

    case KEY_CALL_STORE:
      if (loom_backup_key_store (data->key, cancellable, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;

    default:
      g_assert_not_reached ();
    }

  if (data->key == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
start (KeyCall              call,
       const char          *key_id,
       const LoomBackupKey *key,
       gpointer             source_tag,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  KeyTask *data = g_new0 (KeyTask, 1);

  data->call = call;
  data->key_id = g_strdup (key_id);
  data->key = key != NULL ? loom_backup_key_copy (key) : NULL;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, data, key_task_free);
  /* A keyring prompt is waited for, not cut short: the person may be typing a password. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, run_key_call);
}

void
loom_backup_key_find_id_async (GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  start (KEY_CALL_FIND_ID, NULL, NULL, loom_backup_key_find_id_async, cancellable, callback,
         user_data);
}

char *
loom_backup_key_find_id_finish (GAsyncResult *result,
                                GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_backup_key_find_id_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
loom_backup_key_create_async (GCancellable       *cancellable,
                              GAsyncReadyCallback callback,
                              gpointer            user_data)
{
  start (KEY_CALL_CREATE, NULL, NULL, loom_backup_key_create_async, cancellable, callback,
         user_data);
}

void
loom_backup_key_load_async (const char         *key_id,
                            GCancellable       *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer            user_data)
{
  start (KEY_CALL_LOAD, key_id, NULL, loom_backup_key_load_async, cancellable, callback, user_data);
}

void
loom_backup_key_load_or_create_async (GCancellable       *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer            user_data)
{
  start (KEY_CALL_LOAD_OR_CREATE, NULL, NULL, loom_backup_key_load_or_create_async, cancellable,
         callback, user_data);
}

LoomBackupKey *
loom_backup_key_task_finish (GAsyncResult *result,
                             gboolean     *created,
                             GError      **error)
{
  KeyTask *data;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  data = g_task_get_task_data (G_TASK (result));
  if (created != NULL)
    *created = data->created;
  return g_steal_pointer (&data->key);
}

void
loom_backup_key_store_async (const LoomBackupKey *key,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (key != NULL);

  start (KEY_CALL_STORE, NULL, key, loom_backup_key_store_async, cancellable, callback, user_data);
}

gboolean
loom_backup_key_store_finish (GAsyncResult *result,
                              GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_backup_key_store_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
