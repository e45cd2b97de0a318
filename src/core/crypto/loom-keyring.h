/* loom-keyring.h — secrets (backup keys) kept in the user's login keyring through libsecret.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Every item carries the schema "org.intentloom.History.BackupKey" and a string attribute "key-id",
 * so `secret-tool lookup key-id ID` finds it too. Items go to the default collection, which is
 * the login keyring on a GNOME desktop.
 *
 * Failures are LOOM_ERROR_KEYRING errors that name the key; a cancelled call fails with
 * G_IO_ERROR_CANCELLED, unchanged, so that callers can tell it apart and stay silent.
 *
 * A secret returned to the caller is a copy in ordinary memory: free it with g_free(), after
 * wiping it when it is key material. */

/* Stores @secret under @key_id, replacing the secret that was there. */
gboolean loom_keyring_store_secret (const char   *key_id,
                                    const char   *label,
                                    const char   *secret,
                                    GCancellable *cancellable,
                                    GError      **error);
void     loom_keyring_store_secret_async (const char         *key_id,
                                          const char         *label,
                                          const char         *secret,
                                          GCancellable       *cancellable,
                                          GAsyncReadyCallback callback,
                                          gpointer            user_data);
gboolean loom_keyring_store_secret_finish (GAsyncResult *result,
                                           GError      **error);

/* Returns NULL without setting @error when the keyring holds no secret for @key_id. An item
 * that is there but stays locked (the person did not unlock it, or no prompt could be shown) is
 * a LOOM_ERROR_KEYRING error, never NULL. */
char *loom_keyring_lookup_secret (const char   *key_id,
                                  GCancellable *cancellable,
                                  GError      **error);
void  loom_keyring_lookup_secret_async (const char         *key_id,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
char *loom_keyring_lookup_secret_finish (GAsyncResult *result,
                                         GError      **error);

/* The key ids of every item of the schema, newest first, each once; an empty array when there
 * are none. Works on a locked collection too: it reads no secret. */
char **loom_keyring_list_key_ids (GCancellable *cancellable,
                                  GError      **error);

/* Removes the secret of @key_id. Returns TRUE when none is left, whether there was one or not. */
gboolean loom_keyring_clear_secret (const char   *key_id,
                                    GCancellable *cancellable,
                                    GError      **error);

G_END_DECLS
