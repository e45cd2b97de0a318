/* loom-keyring.c — the one place that talks to libsecret.
 *
 * Reading a secret goes through SecretService rather than secret_password_lookup_sync (): on a
 * locked collection the latter returns NULL without an error, exactly what it returns when there
 * is no such item, and a caller would then take a locked keyring for a missing key (and make a
 * new one). Searching ourselves tells the two apart. Unlocking is asked for (a desktop shows its
 * prompt); where no prompter can come (a headless session, the tests) gnome-keyring dismisses
 * the prompt at once and the item stays locked, which is reported, never waited for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <libsecret/secret.h>
#include <string.h>

#include "loom-error.h"
#include "loom-keyring.h"

typedef enum
{
  LOOM_KEYRING_STORE,
  LOOM_KEYRING_LOOKUP,
  LOOM_KEYRING_CLEAR,
  LOOM_KEYRING_LIST,
} LoomKeyringOperation;

static const SecretSchema *
loom_keyring_get_schema (void)
{
  /* The attributes not named here are zero, which ends the list. */
  static const SecretSchema schema = {
    .name = "org.intentloom.History.BackupKey",
    .flags = SECRET_SCHEMA_NONE,
    .attributes = {
      { .name = "key-id", .type = SECRET_SCHEMA_ATTRIBUTE_STRING },
    },
  };

  return &schema;
}

/* Whether @error says that nothing answers for the Secret Service: no bus, or a bus on which no
 * keyring runs nor can be started. */
static gboolean
loom_keyring_is_unavailable (const GError *error)
{
  if (error->domain == G_IO_ERROR)
    return TRUE;

  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_SERVER) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_FILE_NOT_FOUND) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_EXEC_FAILED) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_CHILD_EXITED) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND);
}

/* What went wrong, said so that the person knows what to do about it. */
static char *
loom_keyring_describe (const GError *error)
{
  if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED))
    return g_strdup ("the login keyring is locked. Unlock it (log in again, or unlock “Login” "
                     "in Passwords and Keys) and try again");

  if (loom_keyring_is_unavailable (error))
    return g_strdup_printf ("no keyring service is running (nothing on the session bus answers "
                            "for the Secret Service: %s). Start your desktop’s keyring, "
                            "gnome-keyring for example, and try again",
                            error->message);

  if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT))
    return g_strdup_printf ("the keyring item went away meanwhile (%s); try again", error->message);

  return g_strdup (error->message);
}

/* Takes @error and returns the error to report. Cancellation is not a keyring failure: it stays
 * G_IO_ERROR_CANCELLED so that the UI can ignore it. */
static GError *
loom_keyring_wrap_error (LoomKeyringOperation operation,
                         const char          *key_id,
                         GError              *error)
{
  g_autofree char *problem = NULL;
  GError          *wrapped = NULL;

  g_assert (key_id != NULL);
  g_assert (error != NULL);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return error;

  problem = loom_keyring_describe (error);
  switch (operation)
    {
    case LOOM_KEYRING_STORE:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not store key “%s” in the login keyring: %s", key_id, problem);
      break;

    case LOOM_KEYRING_LOOKUP:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not read key “%s” from the login keyring: %s", key_id, problem);
      break;

    case LOOM_KEYRING_CLEAR:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not remove key “%s” from the login keyring: %s", key_id,
                             problem);
      break;

    case LOOM_KEYRING_LIST:
      wrapped = g_error_new (LOOM_ERROR, LOOM_ERROR_KEYRING,
                             "Could not look for keys in the login keyring: %s", problem);
      break;

    default:
      g_assert_not_reached ();
    }

  g_error_free (error);

  return wrapped;
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

/* The items of our schema, and with @key_id only that key's: locked ones too, unlocked first
 * when @flags asks for it. */
static GList *
loom_keyring_search (const char       *key_id,
                     SecretSearchFlags flags,
                     GCancellable     *cancellable,
                     GError          **error)
{
  g_autoptr (SecretService) service = NULL;
  g_autoptr (GHashTable) attributes = g_hash_table_new (g_str_hash, g_str_equal);

  service = secret_service_get_sync (SECRET_SERVICE_NONE, cancellable, error);
  if (service == NULL)
    return NULL;

  if (key_id != NULL)
    g_hash_table_insert (attributes, (char *)"key-id", (char *)key_id);

  return secret_service_search_sync (service, loom_keyring_get_schema (), attributes,
                                     SECRET_SEARCH_ALL | flags, cancellable, error);
}

char *
loom_keyring_lookup_secret (const char   *key_id,
                            GCancellable *cancellable,
                            GError      **error)
{
  g_autoptr (GError) local_error = NULL;
  GList   *items;
  char    *found = NULL;
  gboolean locked = FALSE;

  g_return_val_if_fail (key_id != NULL && *key_id != '\0', NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  items = loom_keyring_search (key_id, SECRET_SEARCH_UNLOCK | SECRET_SEARCH_LOAD_SECRETS,
                               cancellable, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, loom_keyring_wrap_error (LOOM_KEYRING_LOOKUP, key_id,
                                                         g_steal_pointer (&local_error)));
      return NULL;
    }

  for (GList *l = items; l != NULL && found == NULL; l = l->next)
    {
      SecretItem *item = l->data;
      g_autoptr (SecretValue) value = NULL;
      const char *text;

      if (secret_item_get_locked (item))
        {
          locked = TRUE;
          continue;
        }

      value = secret_item_get_secret (item);
      text = value != NULL ? secret_value_get_text (value) : NULL;
      if (text != NULL)
        found = g_strdup (text);
    }
  g_list_free_full (items, g_object_unref);

  /* An item there but locked is not a missing key: the caller must not go on as if there
   * were none. */
  if (found == NULL && locked)
    {
      g_propagate_error (error,
                         loom_keyring_wrap_error (
                           LOOM_KEYRING_LOOKUP, key_id,
                           g_error_new_literal (SECRET_ERROR, SECRET_ERROR_IS_LOCKED, "locked")));
      return NULL;
    }

  return found;
}

static void
loom_keyring_lookup_thread (GTask        *task,
                            gpointer      source_object,
                            gpointer      task_data,
                            GCancellable *cancellable)
{
  GError *error = NULL;
  char   *found;

  found = loom_keyring_lookup_secret (task_data, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    /* NULL, without an error, when there is no such secret. */
    g_task_return_pointer (task, found, g_free);
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

  /* In a thread, since the lookup is several calls in a row (the service, a search, maybe an
   * unlock and the secrets), each blocking. */
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_keyring_lookup_secret_async);
  g_task_set_task_data (task, g_strdup (key_id), g_free);
  g_task_run_in_thread (task, loom_keyring_lookup_thread);
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

/* Newest first: by creation time, then by modification time, and in a tie (two items stored in
 * the same second) by the item's object path, which gnome-keyring numbers in order. */
static int
loom_keyring_compare_newest_first (gconstpointer a,
                                   gconstpointer b)
{
  SecretItem *item_a = (SecretItem *)a;
  SecretItem *item_b = (SecretItem *)b;
  const char *path_a = g_dbus_proxy_get_object_path (G_DBUS_PROXY (item_a));
  const char *path_b = g_dbus_proxy_get_object_path (G_DBUS_PROXY (item_b));
  guint64     created_a = secret_item_get_created (item_a);
  guint64     created_b = secret_item_get_created (item_b);
  guint64     modified_a = secret_item_get_modified (item_a);
  guint64     modified_b = secret_item_get_modified (item_b);
  gsize       length_a = strlen (path_a);
  gsize       length_b = strlen (path_b);

  if (created_a != created_b)
    return created_a > created_b ? -1 : 1;
  if (modified_a != modified_b)
    return modified_a > modified_b ? -1 : 1;
  if (length_a != length_b)
    return length_a > length_b ? -1 : 1;
  return -strcmp (path_a, path_b);
}

char **
loom_keyring_list_key_ids (GCancellable *cancellable,
                           GError      **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  GList *items;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Neither unlocked nor read: the attributes of a locked item are readable, and naming a key
   * needs no secret. */
  items = loom_keyring_search (NULL, SECRET_SEARCH_NONE, cancellable, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (
        error, loom_keyring_wrap_error (LOOM_KEYRING_LIST, "", g_steal_pointer (&local_error)));
      return NULL;
    }

  items = g_list_sort (items, loom_keyring_compare_newest_first);
  for (GList *l = items; l != NULL; l = l->next)
    {
      g_autoptr (GHashTable) attributes = secret_item_get_attributes (l->data);
      const char *key_id = g_hash_table_lookup (attributes, "key-id");

      if (key_id != NULL && *key_id != '\0' &&
          !g_ptr_array_find_with_equal_func (ids, key_id, g_str_equal, NULL))
        g_ptr_array_add (ids, g_strdup (key_id));
    }
  g_list_free_full (items, g_object_unref);
  g_ptr_array_add (ids, NULL);

  return (char **)g_ptr_array_free (g_steal_pointer (&ids), FALSE);
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
