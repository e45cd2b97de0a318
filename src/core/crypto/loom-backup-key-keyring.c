/* loom-backup-key-keyring.c — the backup key in the login keyring.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The item's secret is the key in base64 (libsecret keeps text secrets). Every buffer that holds
 * it, encoded or not, is wiped before it is freed.
 */
#include <sodium.h>
#include <string.h>

#include "loom-backup-key-private.h"
#include "loom-error.h"
#include "loom-keyring.h"
#include "loom-sodium.h"

#define KEY_BASE64_VARIANT sodium_base64_VARIANT_ORIGINAL

char *
loom_backup_key_find_id (GCancellable *cancellable,
                         GError      **error)
{
  g_auto (GStrv) ids = NULL;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ids = loom_keyring_list_key_ids (cancellable, error);
  if (ids == NULL)
    return NULL;

  return g_strdup (ids[0]);
}

/* Decodes the secret @encoded of the item of @key_id, and checks that it is that key. */
static LoomBackupKey *
loom_backup_key_decode (const char *key_id,
                        const char *encoded,
                        GError    **error)
{
  LoomBackupKey *key = NULL;
  guint8        *bytes;
  size_t         size = 0;

  bytes = sodium_malloc (LOOM_BACKUP_KEY_SIZE);
  if (sodium_base642bin (bytes, LOOM_BACKUP_KEY_SIZE, encoded, strlen (encoded), NULL, &size, NULL,
                         KEY_BASE64_VARIANT) != 0 ||
      size != LOOM_BACKUP_KEY_SIZE)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING,
                   "The login keyring’s item for backup key “%s” does not hold a backup key. "
                   "Remove it (in Passwords and Keys) and store the key again from its recovery "
                   "key",
                   key_id);
      goto out;
    }

  key = loom_backup_key_new_from_bytes (bytes);
  /* The id is the key's own hash: an item whose secret is another key was changed by hand. */
  if (!g_str_equal (loom_backup_key_get_id (key), key_id))
    {
      g_clear_pointer (&key, loom_backup_key_free);
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_KEYRING,
                   "The login keyring’s item for backup key “%s” holds another key. Remove it "
                   "(in Passwords and Keys) and store the key again from its recovery key",
                   key_id);
    }

out:
  sodium_free (bytes);
  return key;
}

LoomBackupKey *
loom_backup_key_load (const char   *key_id,
                      GCancellable *cancellable,
                      GError      **error)
{
  g_autofree char *found_id = NULL;
  LoomBackupKey   *key;
  char            *encoded;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loom_sodium_ensure_init ();

  if (key_id == NULL)
    {
      GError *local_error = NULL;

      found_id = loom_backup_key_find_id (cancellable, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
      if (found_id == NULL)
        {
          g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                               "The login keyring holds no backup key. Create one (loom "
                               "backup-key create), or on a new machine enter the recovery key "
                               "you wrote down");
          return NULL;
        }
      key_id = found_id;
    }

  encoded = loom_keyring_lookup_secret (key_id, cancellable, error);
  if (encoded == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                     "The login keyring holds no backup key “%s”. Enter its recovery key to "
                     "store it again",
                     key_id);
      return NULL;
    }

  key = loom_backup_key_decode (key_id, encoded, error);
  sodium_memzero (encoded, strlen (encoded));
  g_free (encoded);

  return key;
}

gboolean
loom_backup_key_store (const LoomBackupKey *key,
                       GCancellable        *cancellable,
                       GError             **error)
{
  g_autofree char *label = NULL;
  size_t   encoded_size = sodium_base64_ENCODED_LEN (LOOM_BACKUP_KEY_SIZE, KEY_BASE64_VARIANT);
  char    *encoded;
  gboolean ok;

  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  loom_sodium_ensure_init ();

  encoded = sodium_malloc (encoded_size);
  sodium_bin2base64 (encoded, encoded_size, loom_backup_key_get_bytes (key), LOOM_BACKUP_KEY_SIZE,
                     KEY_BASE64_VARIANT);
  label = g_strdup_printf ("Intentloom History backup key %s", loom_backup_key_get_id (key));
  ok = loom_keyring_store_secret (loom_backup_key_get_id (key), label, encoded, cancellable, error);
  sodium_free (encoded);

  return ok;
}

LoomBackupKey *
loom_backup_key_create (GCancellable *cancellable,
                        GError      **error)
{
  g_autoptr (LoomBackupKey) key = NULL;
  g_autofree char *existing = NULL;
  GError          *local_error = NULL;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  existing = loom_backup_key_find_id (cancellable, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  /* A second key would leave the backups made with the first one to a recovery key the person
   * may think replaced. */
  if (existing != NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS,
                   "The login keyring already holds backup key “%s”; it is kept, and no new key "
                   "was made",
                   existing);
      return NULL;
    }

  key = loom_backup_key_generate ();
  if (!loom_backup_key_store (key, cancellable, error))
    return NULL;

  return g_steal_pointer (&key);
}

LoomBackupKey *
loom_backup_key_load_or_create (gboolean     *created,
                                GCancellable *cancellable,
                                GError      **error)
{
  g_autofree char *existing = NULL;
  GError          *local_error = NULL;

  g_return_val_if_fail (created != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  *created = FALSE;
  existing = loom_backup_key_find_id (cancellable, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }

  /* A key that is there but cannot be read (a locked keyring) is an error, never a reason to
   * make another one. */
  if (existing != NULL)
    return loom_backup_key_load (existing, cancellable, error);

  {
    LoomBackupKey *key = loom_backup_key_create (cancellable, error);

    *created = key != NULL;
    return key;
  }
}
