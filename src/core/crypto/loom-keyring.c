/* loom-keyring.c — the one place that talks to libsecret.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <libsecret/secret.h>

#include "loom-error.h"
#include "loom-keyring.h"

typedef enum
{
  LOOM_KEYRING_STORE,
  LOOM_KEYRING_LOOKUP,
  LOOM_KEYRING_CLEAR,
} LoomKeyringOperation;

static const SecretSchema *
loom_keyring_get_schema (void)
{
  /* The attributes not named here are zero, which ends the list. */
  static const SecretSchema schema = {
    .name = "org.intentloom.History.Key",
    .flags = SECRET_SCHEMA_NONE,
    .attributes = {
      { .name = "key-id", .type = SECRET_SCHEMA_ATTRIBUTE_STRING },
    },
  };

  return &schema;
}

/* Takes @error and returns the error to report. Cancellation is not a keyring failure: it stays
 * G_IO_ERROR_CANCELLED so that the UI can ignore it. */
static GError *
loom_keyring_wrap_error (LoomKeyringOperation operation,
                         const char          *key_id,
                         GError              *error)
{
  GError *wrapped = NULL;

  g_assert (key_id != NULL);
  g_assert (error != NULL);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error;

  switch (operation)
    {
    case LOOM_KEYRING_STORE:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not store key “%s” in the login keyring: %s", key_id,
                             error->message);
      break;

    case LOOM_KEYRING_LOOKUP:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not read key “%s” from the login keyring: %s", key_id,
                             error->message);
      break;

    case LOOM_KEYRING_CLEAR:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not remove key “%s” from the login keyring: %s", key_id,
                             error->message);
      break;

    default:
      g_assert_not_reached ();
    }

  g_error_free (error);

  return wrapped;
}

/* libsecret hands out passwords in its own locked memory, which only secret_password_free() may
 * release: give callers a copy they can free with g_free() like any other string. */
static char *
loom_keyring_take_password (char *password)
{
  char *copy;

  if (password == NULL)
    return NULL;

  copy = g_strdup (password);
  secret_password_free (password);

  return copy;
}

gboolean
loom_keyring_store_secret (const char   *key_id,
                           const char   *label,
                           const char   *secret,
                           GCancellable *cancellable,
                           GError      **error)
{
  g_autoptr (GError) local_error = NULL;

  g_return_val_if_fail (key_id != NULL && *key_id != '\0', FALSE);
  g_return_val_if_fail (label != NULL, FALSE);
  /* A secret that is not UTF-8 would be stored, but libsecret would never give it back. */
  g_return_val_if_fail (secret != NULL && g_utf8_validate (secret, -1, NULL), FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!secret_password_store_sync (loom_keyring_get_schema (), SECRET_COLLECTION_DEFAULT, label,
                                   secret, cancellable, &local_error, "key-id", key_id, NULL))
    {
      g_propagate_error (error, loom_keyring_wrap_error (LOOM_KEYRING_STORE, key_id,
                                                         g_steal_pointer (&local_error)));
      return FALSE;
    }

  return TRUE;
}

static void
loom_keyring_store_cb (GObject      *source_object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  g_autoptr (GError) error = NULL;

  g_assert (G_IS_TASK (task));

  if (!secret_password_store_finish (result, &error))
    {
      const char *key_id = g_task_get_task_data (task);

      g_task_return_error (
        task, loom_keyring_wrap_error (LOOM_KEYRING_STORE, key_id, g_steal_pointer (&error)));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

void
loom_keyring_store_secret_async (const char         *key_id,
                                 const char         *label,
                                 const char         *secret,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (key_id != NULL && *key_id != '\0');
  g_return_if_fail (label != NULL);
  g_return_if_fail (secret != NULL && g_utf8_validate (secret, -1, NULL));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_keyring_store_secret_async);
  g_task_set_task_data (task, g_strdup (key_id), g_free);

  secret_password_store (loom_keyring_get_schema (), SECRET_COLLECTION_DEFAULT, label, secret,
                         cancellable, loom_keyring_store_cb, g_steal_pointer (&task), "key-id",
                         key_id, NULL);
}

gboolean
loom_keyring_store_secret_finish (GAsyncResult *result,
                                  GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_keyring_store_secret_async,
                        FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

char *
loom_keyring_lookup_secret (const char   *key_id,
                            GCancellable *cancellable,
                            GError      **error)
{
  g_autoptr (GError) local_error = NULL;
  char *password;

  g_return_val_if_fail (key_id != NULL && *key_id != '\0', NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  password = secret_password_lookup_sync (loom_keyring_get_schema (), cancellable, &local_error,
                                          "key-id", key_id, NULL);
  if (local_error != NULL)
    {
      g_clear_pointer (&password, secret_password_free);
      g_propagate_error (error, loom_keyring_wrap_error (LOOM_KEYRING_LOOKUP, key_id,
                                                         g_steal_pointer (&local_error)));
      return NULL;
    }

  return loom_keyring_take_password (password);
}

static void
loom_keyring_lookup_cb (GObject      *source_object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr (GTask) task = user_data;
  g_autoptr (GError) error = NULL;
  char *password;

  g_assert (G_IS_TASK (task));

  password = secret_password_lookup_finish (result, &error);
  if (error != NULL)
    {
      const char *key_id = g_task_get_task_data (task);

      g_clear_pointer (&password, secret_password_free);
      g_task_return_error (
        task, loom_keyring_wrap_error (LOOM_KEYRING_LOOKUP, key_id, g_steal_pointer (&error)));
      return;
    }

  /* NULL, without an error, when there is no such secret. */
  g_task_return_pointer (task, loom_keyring_take_password (password), g_free);
}

void
loom_keyring_lookup_secret_async (const char         *key_id,
                                  GCancellable       *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;

  g_return_if_fail (key_id != NULL && *key_id != '\0');
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_keyring_lookup_secret_async);
  g_task_set_task_data (task, g_strdup (key_id), g_free);

  secret_password_lookup (loom_keyring_get_schema (), cancellable, loom_keyring_lookup_cb,
                          g_steal_pointer (&task), "key-id", key_id, NULL);
}

char *
loom_keyring_lookup_secret_finish (GAsyncResult *result,
                                   GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_keyring_lookup_secret_async,
                        NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
loom_keyring_clear_secret (const char   *key_id,
                           GCancellable *cancellable,
                           GError      **error)
{
  g_autoptr (GError) local_error = NULL;

  g_return_val_if_fail (key_id != NULL && *key_id != '\0', FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* FALSE without an error only means that there was nothing to remove. */
  if (!secret_password_clear_sync (loom_keyring_get_schema (), cancellable, &local_error, "key-id",
                                   key_id, NULL) &&
      local_error != NULL)
    {
      g_propagate_error (error, loom_keyring_wrap_error (LOOM_KEYRING_CLEAR, key_id,
                                                         g_steal_pointer (&local_error)));
      return FALSE;
    }

  return TRUE;
}
