/* loom-backup-key-task.h — the backup key's keyring calls (loom-backup-key.h), off the main
 * thread.
 *
 * libsecret's calls block: an unlock prompt, or a keyring daemon that is slow to start, would
 * freeze the window for as long as they take. Each call here runs the core's blocking one in a
 * GTask thread and reports in the main thread; errors are the core's (LOOM_ERROR_KEYRING,
 * LOOM_ERROR_NOT_FOUND, LOOM_ERROR_EXISTS), whose messages say what to do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-backup-key.h"

G_BEGIN_DECLS

/* The id of the key in the keyring; NULL without an error when there is none. */
void  loom_backup_key_find_id_async (GCancellable       *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer            user_data);
char *loom_backup_key_find_id_finish (GAsyncResult *result,
                                      GError      **error);

/* A new key, stored in the keyring. */
void           loom_backup_key_create_async (GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
/* The key of @key_id (NULL: the newest). */
void           loom_backup_key_load_async (const char         *key_id,
                                           GCancellable       *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data);
/* The key in the keyring, created when there is none. */
void           loom_backup_key_load_or_create_async (GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
/* The key of any of the three calls above; @created (may be NULL) tells whether it was made
 * by this call, so that the caller shows its recovery key once. */
LoomBackupKey *loom_backup_key_task_finish (GAsyncResult *result,
                                            gboolean     *created,
                                            GError      **error);

/* Keeps @key (read from a recovery key) in the keyring; copied, the caller keeps its own. */
void     loom_backup_key_store_async (const LoomBackupKey *key,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
gboolean loom_backup_key_store_finish (GAsyncResult *result,
                                       GError      **error);

G_END_DECLS
