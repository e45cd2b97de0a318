/* fuzz-backup-stream.c — a .loombackup file's header and its decryption with a fixed key
 * (loom-backup-stream.h): whatever the bytes, the header is read or refused, and the plaintext
 * comes out whole or the stream fails with LOOM_ERROR naming the file; never a crash, a hang,
 * or plaintext from a chunk that did not authenticate.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seeds (seeds/backup-stream/) are real files encrypted with the key below, so that the
 * mutations start from chunks that open.
 */
#include <string.h>

#include "loom-backup-key-private.h"
#include "loom-backup-stream.h"
#include "loom-error.h"
#include "loom-fuzz.h"

#define NAME "fuzz.loombackup"

static LoomBackupKey *key;

/* The fuzzing key, and the key of the seeds: bytes 0, 1, 2, … 31. */
static LoomBackupKey *
make_key (void)
{
  guint8 bytes[LOOM_BACKUP_KEY_SIZE];

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8)i;
  return loom_backup_key_new_from_bytes (bytes);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  key = make_key ();
  return 0;
}

static void
assert_our_error (const GError *error)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == LOOM_ERROR);
  g_assert_true (error->code == LOOM_ERROR_CORRUPT || error->code == LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, NAME));
}

/* Reads @data through the decrypting stream in reads of @step bytes. */
static void
decrypt (const uint8_t          *data,
         size_t                  size,
         const LoomBackupHeader *header,
         gsize                   step)
{
  g_autoptr (GInputStream) base = NULL;
  g_autoptr (GInputStream) plain = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc (step);
  gsize              total = 0;
  gssize             n;

  base = g_memory_input_stream_new_from_data (data + LOOM_BACKUP_HEADER_SIZE,
                                              (gssize)(size - LOOM_BACKUP_HEADER_SIZE), NULL);
  plain = loom_backup_decrypt_stream_new (base, header, key, NAME);
  while ((n = g_input_stream_read (plain, buffer, step, NULL, &error)) > 0)
    {
      total += (gsize)n;
      /* Plaintext is never longer than what carried it. */
      g_assert_cmpuint (total, <=, size - LOOM_BACKUP_HEADER_SIZE);
    }
  if (n < 0)
    {
      assert_our_error (error);
      g_clear_error (&error);
      /* And a failed stream stays failed. */
      g_assert_cmpint (g_input_stream_read (plain, buffer, step, NULL, &error), ==, -1);
      assert_our_error (error);
    }
  else
    g_assert_no_error (error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GInputStream) stream = NULL;
  g_autoptr (GError) error = NULL;
  LoomBackupHeader header;

  stream = g_memory_input_stream_new_from_data (data, (gssize)size, NULL);
  if (!loom_backup_read_header (stream, NAME, &header, NULL, &error))
    {
      assert_our_error (error);
      return 0;
    }
  g_assert_cmpuint (size, >=, LOOM_BACKUP_HEADER_SIZE);
  g_assert_cmpuint (header.version, ==, LOOM_BACKUP_VERSION);
  g_assert_cmpuint (strlen (header.key_id), ==, LOOM_BACKUP_KEY_ID_CHARS);

  decrypt (data, size, &header, 4096);
  /* Other read sizes cross the chunks' edges elsewhere. */
  decrypt (data, size, &header, 1 + size % 977);
  return 0;
}
