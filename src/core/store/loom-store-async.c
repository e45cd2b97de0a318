/* loom-store-async.c — the store's session and folder writes, run in a worker thread.
 *
 * Each store the writes are asked of gets a writer: a second connection to the same file,
 * opened by the first write and kept, and the queue of writes waiting for it. One GTask thread
 * at a time drains the queue, so that the writes land, and their callbacks come, in the order
 * they were asked; the other writes wait in the queue, not in threads of GLib's pool, which the
 * searches and the timeline's loads share. The writer hangs on the store object itself, so it
 * lives exactly as long as the connection it writes beside.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-store-async.h"

#define WRITER_KEY "loom-store-writer"

typedef enum
{
  OP_RENAME_SESSION,
  OP_SET_PINNED,
  OP_SET_ARCHIVED,
  OP_SET_TRASHED,
  OP_MARK_OPENED,
  OP_MOVE_SESSION,
  OP_EXECUTE_DELETE,
  OP_CREATE_FOLDER,
  OP_RENAME_FOLDER,
  OP_DELETE_FOLDER,
  OP_REORDER_FOLDER,
} OpKind;

/* What one write is asked to do; which fields count depends on the kind. */
typedef struct
{
  OpKind          kind;
  char           *id;
  char           *text;
  gint64          number;
  guint           position;
  gboolean        flag;
  LoomDeletePlan *plan;
} Op;

static void
op_free (gpointer data)
{
  Op *op = data;

  g_free (op->id);
  g_free (op->text);
  g_clear_object (&op->plan);
  g_free (op);
}

typedef struct
{
  char      *path;
  GMutex     mutex;
  GQueue     waiting;  /* GTask, guarded by mutex */
  gboolean   draining; /* a thread is at the queue; guarded by mutex */
  LoomStore *store;    /* the writer's connection, used only by the draining thread */
} Writer;

static void
writer_free (gpointer data)
{
  Writer *writer = data;

  /* Every waiting write holds the store, so none is left when the store goes. */
  g_assert (g_queue_is_empty (&writer->waiting));
  g_clear_object (&writer->store);
  g_mutex_clear (&writer->mutex);
  g_free (writer->path);
  g_free (writer);
}

/* Writes are asked from one thread in practice, but nothing says so: the writer is made under a
 * lock, so that two first writes cannot make two. */
G_LOCK_DEFINE_STATIC (writers);

static Writer *
get_writer (LoomStore *store)
{
  Writer *writer;

  G_LOCK (writers);
  writer = g_object_get_data (G_OBJECT (store), WRITER_KEY);
  if (writer == NULL)
    {
      writer = g_new0 (Writer, 1);
      writer->path = g_strdup (loom_store_get_path (store));
      g_mutex_init (&writer->mutex);
      g_queue_init (&writer->waiting);
      g_object_set_data_full (G_OBJECT (store), WRITER_KEY, writer, writer_free);
    }
  G_UNLOCK (writers);
  return writer;
}

static void
run_op (Writer *writer,
        GTask  *task)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  guint    n_released = 0;
  gboolean ok = FALSE;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* A failed open is tried again by the next write: the file may be back by then. */
  if (writer->store == NULL && !(writer->store = loom_store_open (writer->path, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  switch (op->kind)
    {
    case OP_RENAME_SESSION:
      ok = loom_store_rename_session (writer->store, op->id, op->text, &error);
      break;
    case OP_SET_PINNED:
      ok = loom_store_set_pinned (writer->store, op->id, op->flag, &error);
      break;
    case OP_SET_ARCHIVED:
      ok = loom_store_set_archived (writer->store, op->id, op->flag, &error);
      break;
    case OP_SET_TRASHED:
      ok = loom_store_set_trashed (writer->store, op->id, op->flag, &error);
      break;
    case OP_MARK_OPENED:
      ok = loom_store_mark_opened (writer->store, op->id, &error);
      break;
    case OP_MOVE_SESSION:
      ok = loom_store_move_session (writer->store, op->id, op->number, &error);
      break;
    case OP_EXECUTE_DELETE:
      ok = loom_store_execute_delete (writer->store, op->plan, &error);
      break;
    case OP_CREATE_FOLDER:
      folder = loom_store_create_folder (writer->store, op->text, &error);
      ok = folder != NULL;
      break;
    case OP_RENAME_FOLDER:
      ok = loom_store_rename_folder (writer->store, op->number, op->text, &error);
      break;
    case OP_DELETE_FOLDER:
      ok = loom_store_delete_folder (writer->store, op->number, &n_released, &error);
      break;
    case OP_REORDER_FOLDER:
      ok = loom_store_reorder_folder (writer->store, op->number, op->position, &error);
      break;
    default:
      g_assert_not_reached ();
    }

  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else if (op->kind == OP_CREATE_FOLDER)
    g_task_return_pointer (task, g_steal_pointer (&folder), g_object_unref);
  else if (op->kind == OP_DELETE_FOLDER)
    g_task_return_int (task, n_released);
  else
    g_task_return_boolean (task, TRUE);
}

/* Runs the write it was started for, then those asked meanwhile, until the queue is empty.
 * Each is returned before the next runs, so that the callbacks keep the order. */
static void
drain_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Writer *writer = get_writer (LOOM_STORE (source_object));
  GTask  *next = NULL;

  run_op (writer, task);
  for (;;)
    {
      g_mutex_lock (&writer->mutex);
      next = g_queue_pop_head (&writer->waiting);
      if (next == NULL)
        writer->draining = FALSE;
      g_mutex_unlock (&writer->mutex);

      if (next == NULL)
        break;
      run_op (writer, next);
      g_object_unref (next);
    }
}

static void
submit (LoomStore          *self,
        Op                 *op,
        gpointer            source_tag,
        GCancellable       *cancellable,
        GAsyncReadyCallback callback,
        gpointer            user_data)
{
  Writer *writer = get_writer (self);
  g_autoptr (GTask) task = NULL;
  gboolean start;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, op_free);

  g_mutex_lock (&writer->mutex);
  start = !writer->draining;
  if (start)
    writer->draining = TRUE;
  else
    g_queue_push_tail (&writer->waiting, g_object_ref (task));
  g_mutex_unlock (&writer->mutex);

  if (start)
    g_task_run_in_thread (task, drain_thread);
}

static Op *
op_new (OpKind      kind,
        const char *id,
        const char *text)
{
  Op *op = g_new0 (Op, 1);

  op->kind = kind;
  op->id = g_strdup (id);
  op->text = g_strdup (text);
  return op;
}

static gboolean
finish_boolean (LoomStore    *self,
                GAsyncResult *result,
                gpointer      source_tag,
                GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Sessions */

void
loom_store_rename_session_async (LoomStore          *self,
                                 const char         *id,
                                 const char         *title,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (title != NULL);

  submit (self, op_new (OP_RENAME_SESSION, id, title), loom_store_rename_session_async, cancellable,
          callback, user_data);
}

gboolean
loom_store_rename_session_finish (LoomStore    *self,
                                  GAsyncResult *result,
                                  GError      **error)
{
  return finish_boolean (self, result, loom_store_rename_session_async, error);
}

void
loom_store_set_pinned_async (LoomStore          *self,
                             const char         *id,
                             gboolean            pinned,
                             GCancellable       *cancellable,
                             GAsyncReadyCallback callback,
                             gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (id != NULL);

  op = op_new (OP_SET_PINNED, id, NULL);
  op->flag = pinned;
  submit (self, op, loom_store_set_pinned_async, cancellable, callback, user_data);
}

gboolean
loom_store_set_pinned_finish (LoomStore    *self,
                              GAsyncResult *result,
                              GError      **error)
{
  return finish_boolean (self, result, loom_store_set_pinned_async, error);
}

void
loom_store_set_archived_async (LoomStore          *self,
                               const char         *id,
                               gboolean            archived,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (id != NULL);

  op = op_new (OP_SET_ARCHIVED, id, NULL);
  op->flag = archived;
  submit (self, op, loom_store_set_archived_async, cancellable, callback, user_data);
}

gboolean
loom_store_set_archived_finish (LoomStore    *self,
                                GAsyncResult *result,
                                GError      **error)
{
  return finish_boolean (self, result, loom_store_set_archived_async, error);
}

void
loom_store_set_trashed_async (LoomStore          *self,
                              const char         *id,
                              gboolean            trashed,
                              GCancellable       *cancellable,
                              GAsyncReadyCallback callback,
                              gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (id != NULL);

  op = op_new (OP_SET_TRASHED, id, NULL);
  op->flag = trashed;
  submit (self, op, loom_store_set_trashed_async, cancellable, callback, user_data);
}

gboolean
loom_store_set_trashed_finish (LoomStore    *self,
                               GAsyncResult *result,
                               GError      **error)
{
  return finish_boolean (self, result, loom_store_set_trashed_async, error);
}

void
loom_store_mark_opened_async (LoomStore          *self,
                              const char         *id,
                              GCancellable       *cancellable,
                              GAsyncReadyCallback callback,
                              gpointer            user_data)
{
  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (id != NULL);

  submit (self, op_new (OP_MARK_OPENED, id, NULL), loom_store_mark_opened_async, cancellable,
          callback, user_data);
}

gboolean
loom_store_mark_opened_finish (LoomStore    *self,
                               GAsyncResult *result,
                               GError      **error)
{
  return finish_boolean (self, result, loom_store_mark_opened_async, error);
}

void
loom_store_move_session_async (LoomStore          *self,
                               const char         *id,
                               gint64              folder_id,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (id != NULL);
  g_return_if_fail (folder_id >= 0);

  op = op_new (OP_MOVE_SESSION, id, NULL);
  op->number = folder_id;
  submit (self, op, loom_store_move_session_async, cancellable, callback, user_data);
}

gboolean
loom_store_move_session_finish (LoomStore    *self,
                                GAsyncResult *result,
                                GError      **error)
{
  return finish_boolean (self, result, loom_store_move_session_async, error);
}

void
loom_store_execute_delete_async (LoomStore          *self,
                                 LoomDeletePlan     *plan,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (LOOM_IS_DELETE_PLAN (plan));

  op = op_new (OP_EXECUTE_DELETE, NULL, NULL);
  op->plan = g_object_ref (plan);
  submit (self, op, loom_store_execute_delete_async, cancellable, callback, user_data);
}

gboolean
loom_store_execute_delete_finish (LoomStore    *self,
                                  GAsyncResult *result,
                                  GError      **error)
{
  return finish_boolean (self, result, loom_store_execute_delete_async, error);
}

/* Folders */

void
loom_store_create_folder_async (LoomStore          *self,
                                const char         *name,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (name != NULL);

  submit (self, op_new (OP_CREATE_FOLDER, NULL, name), loom_store_create_folder_async, cancellable,
          callback, user_data);
}

LoomFolder *
loom_store_create_folder_finish (LoomStore    *self,
                                 GAsyncResult *result,
                                 GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_store_create_folder_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
loom_store_rename_folder_async (LoomStore          *self,
                                gint64              folder_id,
                                const char         *name,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));
  g_return_if_fail (name != NULL);

  op = op_new (OP_RENAME_FOLDER, NULL, name);
  op->number = folder_id;
  submit (self, op, loom_store_rename_folder_async, cancellable, callback, user_data);
}

gboolean
loom_store_rename_folder_finish (LoomStore    *self,
                                 GAsyncResult *result,
                                 GError      **error)
{
  return finish_boolean (self, result, loom_store_rename_folder_async, error);
}

void
loom_store_delete_folder_async (LoomStore          *self,
                                gint64              folder_id,
                                GCancellable       *cancellable,
                                GAsyncReadyCallback callback,
                                gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));

  op = op_new (OP_DELETE_FOLDER, NULL, NULL);
  op->number = folder_id;
  submit (self, op, loom_store_delete_folder_async, cancellable, callback, user_data);
}

gboolean
loom_store_delete_folder_finish (LoomStore    *self,
                                 GAsyncResult *result,
                                 guint        *n_released,
                                 GError      **error)
{
  gssize released;

  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_store_delete_folder_async,
                        FALSE);

  released = g_task_propagate_int (G_TASK (result), error);
  if (released < 0)
    return FALSE;
  if (n_released != NULL)
    *n_released = (guint)released;
  return TRUE;
}

void
loom_store_reorder_folder_async (LoomStore          *self,
                                 gint64              folder_id,
                                 guint               position,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  Op *op;

  g_return_if_fail (LOOM_IS_STORE (self));

  op = op_new (OP_REORDER_FOLDER, NULL, NULL);
  op->number = folder_id;
  op->position = position;
  submit (self, op, loom_store_reorder_folder_async, cancellable, callback, user_data);
}

gboolean
loom_store_reorder_folder_finish (LoomStore    *self,
                                  GAsyncResult *result,
                                  GError      **error)
{
  return finish_boolean (self, result, loom_store_reorder_folder_async, error);
}
