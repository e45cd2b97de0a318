/* loom-backup-key.c — the backup key, its id and its recovery key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The keyring half (find, load, create, store) is in loom-backup-key-keyring.c.
 */
#include <sodium.h>
#include <string.h>

#include "loom-backup-key-private.h"
#include "loom-error.h"
#include "loom-sodium.h"

struct _LoomBackupKey
{
  guint8 *bytes; /* LOOM_BACKUP_KEY_SIZE, from sodium_malloc (): guarded, and wiped when freed */
  char    id[LOOM_BACKUP_KEY_ID_CHARS + 1];
};

/* The contexts of the two hashes: the id and the checksum must not be the same bytes, or a
 * recovery key would show its own id. */
#define ID_CONTEXT       "org.intentloom.History.BackupKey.id"
#define CHECKSUM_CONTEXT "org.intentloom.History.BackupKey.recovery-checksum"

#define CHECKSUM_SIZE  3
#define RECOVERY_BYTES (LOOM_BACKUP_KEY_SIZE + CHECKSUM_SIZE) /* 35 bytes, 280 bits */
#define RECOVERY_CHARS 56                                     /* 280 / 5 */
#define RECOVERY_GROUP 4

/* Crockford's base32: digits and letters without I, L, O and U, which a person misreads. */
static const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* The first @size bytes of BLAKE2b of @context keyed with the key. */
static void
keyed_hash (const guint8 *key,
            const char   *context,
            guint8       *out,
            gsize         size)
{
  guint8 hash[crypto_generichash_BYTES];

  g_assert (size <= sizeof hash);
  crypto_generichash (hash, sizeof hash, (const guint8 *)context, strlen (context), key,
                      LOOM_BACKUP_KEY_SIZE);
  memcpy (out, hash, size);
  sodium_memzero (hash, sizeof hash);
}

static LoomBackupKey *
loom_backup_key_alloc (void)
{
  LoomBackupKey *key;

  loom_sodium_ensure_init ();
  key = g_new0 (LoomBackupKey, 1);
  key->bytes = sodium_malloc (LOOM_BACKUP_KEY_SIZE);
  if (key->bytes == NULL)
    g_error ("Could not allocate guarded memory for the backup key");
  return key;
}

static void
loom_backup_key_derive_id (LoomBackupKey *key)
{
  guint8 id[LOOM_BACKUP_KEY_ID_CHARS / 2];

  keyed_hash (key->bytes, ID_CONTEXT, id, sizeof id);
  sodium_bin2hex (key->id, sizeof key->id, id, sizeof id);
}

LoomBackupKey *
loom_backup_key_generate (void)
{
  LoomBackupKey *key = loom_backup_key_alloc ();

  randombytes_buf (key->bytes, LOOM_BACKUP_KEY_SIZE);
  loom_backup_key_derive_id (key);
  return key;
}

LoomBackupKey *
loom_backup_key_new_from_bytes (const guint8 *bytes)
{
  LoomBackupKey *key = loom_backup_key_alloc ();

  memcpy (key->bytes, bytes, LOOM_BACKUP_KEY_SIZE);
  loom_backup_key_derive_id (key);
  return key;
}

LoomBackupKey *
loom_backup_key_copy (const LoomBackupKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return loom_backup_key_new_from_bytes (key->bytes);
}

void
loom_backup_key_free (LoomBackupKey *key)
{
  if (key == NULL)
    return;

  sodium_free (key->bytes);
  g_free (key);
}

const char *
loom_backup_key_get_id (const LoomBackupKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return key->id;
}

const guint8 *
loom_backup_key_get_bytes (const LoomBackupKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return key->bytes;
}

char *
loom_backup_key_dup_recovery (const LoomBackupKey *key)
{
  guint8 *raw;
  char   *text;
  gsize   out = 0;
  guint   bits = 0;
  guint32 buffer = 0;

  g_return_val_if_fail (key != NULL, NULL);

  raw = sodium_malloc (RECOVERY_BYTES);
  memcpy (raw, key->bytes, LOOM_BACKUP_KEY_SIZE);
  keyed_hash (key->bytes, CHECKSUM_CONTEXT, raw + LOOM_BACKUP_KEY_SIZE, CHECKSUM_SIZE);

  /* 56 characters and 13 hyphens; g_malloc so that callers free it like any string (after
   * loom_backup_key_free_text () has wiped it). */
  text = g_malloc0 (RECOVERY_CHARS + RECOVERY_CHARS / RECOVERY_GROUP);
  for (gsize i = 0, chars = 0; i < RECOVERY_BYTES; i++)
    {
      buffer = (buffer << 8) | raw[i];
      bits += 8;
      while (bits >= 5)
        {
          bits -= 5;
          if (chars > 0 && chars % RECOVERY_GROUP == 0)
            text[out++] = '-';
          text[out++] = crockford[(buffer >> bits) & 0x1f];
          chars++;
        }
    }
  g_assert (bits == 0);
  buffer = 0;
  sodium_free (raw);

  return text;
}

void
loom_backup_key_free_text (char *text)
{
  if (text == NULL)
    return;

  sodium_memzero (text, strlen (text));
  g_free (text);
}

/* The value of one character a person typed, reading it as Crockford's decoder does; -1 for a
 * character that is none. */
static int
crockford_value (char c)
{
  const char *found;

  c = g_ascii_toupper (c);
  if (c == 'O')
    c = '0';
  else if (c == 'I' || c == 'L')
    c = '1';

  if (c == '\0' || (found = strchr (crockford, c)) == NULL)
    return -1;
  return (int)(found - crockford);
}

LoomBackupKey *
loom_backup_key_new_from_recovery (const char *recovery_text,
                                   GError    **error)
{
  LoomBackupKey *key = NULL;
  guint8        *raw;
  guint8         checksum[CHECKSUM_SIZE];
  gsize          n_chars = 0;
  gsize          n_bytes = 0;
  guint          bits = 0;
  guint32        buffer = 0;

  g_return_val_if_fail (recovery_text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loom_sodium_ensure_init ();
  raw = sodium_malloc (RECOVERY_BYTES);

  for (const char *p = recovery_text; *p != '\0'; p++)
    {
      int value;

      if (*p == '-' || g_ascii_isspace (*p))
        continue;

      value = crockford_value (*p);
      if (value < 0)
        {
          /* The character itself is not said: it is a piece of the key. Its place is. */
          g_set_error (
            error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
            "The recovery key has a character that cannot be in one (character %" G_GSIZE_FORMAT
            "): "
            "it is made of digits and the letters A to Z except U",
            (gsize)(p - recovery_text) + 1);
          goto out;
        }

      n_chars++;
      if (n_chars > RECOVERY_CHARS)
        continue;
      buffer = (buffer << 5) | (guint32)value;
      bits += 5;
      if (bits >= 8)
        {
          bits -= 8;
          raw[n_bytes++] = (buffer >> bits) & 0xff;
        }
    }

  if (n_chars != RECOVERY_CHARS)
    {
      g_set_error (
        error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
        "A recovery key has %d characters (14 groups of 4), this one has %" G_GSIZE_FORMAT ": "
        "check that none is missing or doubled",
        RECOVERY_CHARS, n_chars);
      goto out;
    }
  g_assert (n_bytes == RECOVERY_BYTES && bits == 0);

  keyed_hash (raw, CHECKSUM_CONTEXT, checksum, sizeof checksum);
  if (sodium_memcmp (checksum, raw + LOOM_BACKUP_KEY_SIZE, CHECKSUM_SIZE) != 0)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "The recovery key’s checksum does not match: a character is wrong. "
                           "Check it against what you wrote down");
      goto out;
    }

  key = loom_backup_key_new_from_bytes (raw);

out:
  buffer = 0;
  sodium_memzero (checksum, sizeof checksum);
  sodium_free (raw);
  return key;
}
