/* loom-store-async.h — the store's session and folder writes, run in a worker thread.
 *
 * A window must not write on its own connection: while an import holds the store's write lock,
 * a write waits for it, up to the busy timeout, and the window would freeze that long. These
 * operations do what their namesakes in loom-store.h do, on a connection of their own to the
 * same file, in a GTask thread; their callbacks run in the thread-default main context of the
 * call. The writes asked of one store are done one at a time in the order they were asked, and
 * their callbacks come in that order too, so that an undo asked after a move lands after it.
 *
 * Nothing is told of a write but its callback: the caller reads the store again then (its own
 * connection sees the write once the callback runs).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-delete-plan.h"
#include "loom-folder.h"
#include "loom-store.h"

G_BEGIN_DECLS

/* Sessions; @id is a uuid or an unambiguous prefix, as for the sync calls. */
void     loom_store_rename_session_async (LoomStore          *self,
                                          const char         *id,
                                          const char         *title,
                                          GCancellable       *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
gboolean loom_store_rename_session_finish (LoomStore    *self,
                                           GAsyncResult *result,
                                           GError      **error);
void     loom_store_set_pinned_async (LoomStore          *self,
                                      const char         *id,
                                      gboolean            pinned,
                                      GCancellable       *cancellable,
                                      GAsyncReadyCallback callback,
                                      gpointer            user_data);
gboolean loom_store_set_pinned_finish (LoomStore    *self,
                                       GAsyncResult *result,
                                       GError      **error);
void     loom_store_set_archived_async (LoomStore          *self,
                                        const char         *id,
                                        gboolean            archived,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
gboolean loom_store_set_archived_finish (LoomStore    *self,
                                         GAsyncResult *result,
                                         GError      **error);
void     loom_store_set_trashed_async (LoomStore          *self,
                                       const char         *id,
                                       gboolean            trashed,
                                       GCancellable       *cancellable,
                                       GAsyncReadyCallback callback,
                                       gpointer            user_data);
gboolean loom_store_set_trashed_finish (LoomStore    *self,
                                        GAsyncResult *result,
                                        GError      **error);
void     loom_store_mark_opened_async (LoomStore          *self,
                                       const char         *id,
                                       GCancellable       *cancellable,
                                       GAsyncReadyCallback callback,
                                       gpointer            user_data);
gboolean loom_store_mark_opened_finish (LoomStore    *self,
                                        GAsyncResult *result,
                                        GError      **error);
/* @folder_id 0 takes the session out of its folder. */
void     loom_store_move_session_async (LoomStore          *self,
                                        const char         *id,
                                        gint64              folder_id,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
gboolean loom_store_move_session_finish (LoomStore    *self,
                                         GAsyncResult *result,
                                         GError      **error);
/* The plan is read in the worker: do not change it until the callback. */
void     loom_store_execute_delete_async (LoomStore          *self,
                                          LoomDeletePlan     *plan,
                                          GCancellable       *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
gboolean loom_store_execute_delete_finish (LoomStore    *self,
                                           GAsyncResult *result,
                                           GError      **error);

/* Folders */
void        loom_store_create_folder_async (LoomStore          *self,
                                            const char         *name,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
LoomFolder *loom_store_create_folder_finish (LoomStore    *self,
                                             GAsyncResult *result,
                                             GError      **error);
void        loom_store_rename_folder_async (LoomStore          *self,
                                            gint64              folder_id,
                                            const char         *name,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
gboolean    loom_store_rename_folder_finish (LoomStore    *self,
                                             GAsyncResult *result,
                                             GError      **error);
void        loom_store_delete_folder_async (LoomStore          *self,
                                            gint64              folder_id,
                                            GCancellable       *cancellable,
                                            GAsyncReadyCallback callback,
                                            gpointer            user_data);
/* @n_released (may be NULL) says how many sessions left the folder. */
gboolean    loom_store_delete_folder_finish (LoomStore    *self,
                                             GAsyncResult *result,
                                             guint        *n_released,
                                             GError      **error);
void        loom_store_reorder_folder_async (LoomStore          *self,
                                             gint64              folder_id,
                                             guint               position,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
gboolean    loom_store_reorder_folder_finish (LoomStore    *self,
                                              GAsyncResult *result,
                                              GError      **error);

G_END_DECLS
