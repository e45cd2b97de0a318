/* test-backup-stream.c — the encrypted stream of a .loombackup file, on real files: round trips
 * at the chunk boundaries, and every kind of damage refused with the file's name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <sodium.h>
#include <string.h>

#include "loom-backup-key-private.h"
#include "loom-backup-stream.h"
#include "loom-error.h"
#include "loom-test-utils.h"

#define SEALED_CHUNK (LOOM_BACKUP_CHUNK_SIZE + crypto_secretstream_xchacha20poly1305_ABYTES)
#define ABYTES       crypto_secretstream_xchacha20poly1305_ABYTES

typedef struct
{
  char          *dir;
  LoomBackupKey *key;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  f->dir = loom_test_make_tmpdir ();
  f->key = loom_backup_key_generate ();
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  loom_backup_key_free (f->key);
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
}

/* Plaintext that differs from chunk to chunk, so that a moved chunk is a different file. */
static GBytes *
make_plaintext (gsize size)
{
  guint8 *data = g_malloc (size + 1);

  for (gsize i = 0; i < size; i++)
    data[i] = (guint8)((i * 7 + i / LOOM_BACKUP_CHUNK_SIZE * 13 + 1) & 0xff);
  return g_bytes_new_take (data, size);
}

/* Writes @plaintext encrypted to @path, in writes of uneven sizes: the chunking must not
 * depend on how the caller cuts its writes. */
static void
encrypt_to_file (const char          *path,
                 GBytes              *plaintext,
                 const LoomBackupKey *key)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileOutputStream) out = NULL;
  g_autoptr (GOutputStream) encrypted = NULL;
  g_autoptr (GError) error = NULL;
  gsize         size = 0;
  const guint8 *data = g_bytes_get_data (plaintext, &size);
  gsize         done = 0;
  gsize         step = 1;

  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_PRIVATE, NULL, &error);
  g_assert_no_error (error);
  encrypted = loom_backup_encrypt_stream_new (G_OUTPUT_STREAM (out), key, NULL, &error);
  g_assert_no_error (error);
  while (done < size)
    {
      gsize n = MIN (step, size - done);

      g_assert_true (g_output_stream_write_all (encrypted, data + done, n, NULL, NULL, &error));
      g_assert_no_error (error);
      done += n;
      step = step * 3 + 5;
    }
  g_assert_true (g_output_stream_close (encrypted, NULL, &error));
  g_assert_no_error (error);
}

/* Decrypts @path with @key into @plaintext (what was read before any failure). */
static gboolean
decrypt_file (const char          *path,
              const LoomBackupKey *key,
              GByteArray          *plaintext,
              GError             **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = NULL;
  g_autoptr (GInputStream) decrypted = NULL;
  LoomBackupHeader header;
  guint8           buffer[10000];
  gssize           n;

  in = g_file_read (file, NULL, error);
  g_assert_nonnull (in);
  if (!loom_backup_read_header (G_INPUT_STREAM (in), path, &header, NULL, error))
    return FALSE;
  decrypted = loom_backup_decrypt_stream_new (G_INPUT_STREAM (in), &header, key, path);
  while ((n = g_input_stream_read (decrypted, buffer, sizeof buffer, NULL, error)) > 0)
    g_byte_array_append (plaintext, buffer, (guint)n);
  if (n < 0)
    {
      /* A failed read fails again: a retrying reader never gets past damage. */
      g_autoptr (GError) again = NULL;

      g_assert_cmpint (g_input_stream_read (decrypted, buffer, sizeof buffer, NULL, &again), ==,
                       -1);
      g_assert_nonnull (again);
      return FALSE;
    }
  g_assert_true (g_input_stream_close (decrypted, NULL, error));
  return TRUE;
}

static GBytes *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize size = 0;

  g_file_get_contents (path, &contents, &size, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, size);
}

static void
write_file (const char   *path,
            const guint8 *data,
            gsize         size)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, (const char *)data, (gssize)size, &error);
  g_assert_no_error (error);
}

/* Asserts that @path does not decrypt with @key, with @code, naming the file and, when
 * @offset is not -1, that byte; and that no plaintext past @good_prefix came out. */
static void
assert_refused (const char          *path,
                const LoomBackupKey *key,
                int                  code,
                gint64               offset,
                GBytes              *plaintext,
                gsize                good_prefix)
{
  g_autoptr (GByteArray) got = g_byte_array_new ();
  g_autoptr (GError) error = NULL;

  g_assert_false (decrypt_file (path, key, got, &error));
  g_assert_error (error, LOOM_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, path));
  if (offset >= 0)
    {
      g_autofree char *at = g_strdup_printf ("at byte %" G_GINT64_FORMAT ":", offset);
      g_assert_nonnull (strstr (error->message, at));
    }
  g_assert_cmpuint (got->len, <=, good_prefix);
  if (plaintext != NULL)
    g_assert_cmpmem (got->data, got->len, g_bytes_get_data (plaintext, NULL), got->len);
}

static gsize
expected_file_size (gsize plaintext_size)
{
  return LOOM_BACKUP_HEADER_SIZE + plaintext_size / LOOM_BACKUP_CHUNK_SIZE * SEALED_CHUNK +
         plaintext_size % LOOM_BACKUP_CHUNK_SIZE + ABYTES;
}

static void
test_round_trip (Fixture      *f,
                 gconstpointer data)
{
  const gsize sizes[] = { 0, 1, 65535, 65536, 65537, 3 * 65536, 1000003 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%" G_GSIZE_FORMAT ".loombackup", f->dir,
                                               sizes[i]);
      g_autoptr (GBytes) plaintext = make_plaintext (sizes[i]);
      g_autoptr (GByteArray) got = g_byte_array_new ();
      g_autoptr (GBytes) file = NULL;
      g_autoptr (GError) error = NULL;
      const guint8 *bytes;

      encrypt_to_file (path, plaintext, f->key);
      file = read_file (path);
      g_assert_cmpuint (g_bytes_get_size (file), ==, expected_file_size (sizes[i]));

      /* The header in the clear: magic, version, zeros, the key id; the plaintext nowhere. */
      bytes = g_bytes_get_data (file, NULL);
      g_assert_cmpmem (bytes, 8, "LOOMBKUP", 8);
      g_assert_cmpuint (bytes[8], ==, 1);
      for (guint j = 9; j < 16; j++)
        g_assert_cmpuint (bytes[j], ==, 0);

      g_assert_true (decrypt_file (path, f->key, got, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (got->data, got->len, g_bytes_get_data (plaintext, NULL), sizes[i]);
    }
}

static void
test_header (Fixture      *f,
             gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "h.loombackup", NULL);
  g_autoptr (GBytes) plaintext = make_plaintext (10);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  LoomBackupHeader header;

  encrypt_to_file (path, plaintext, f->key);
  in = g_file_read (file, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (loom_backup_read_header (G_INPUT_STREAM (in), path, &header, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (header.version, ==, LOOM_BACKUP_VERSION);
  g_assert_cmpstr (header.key_id, ==, loom_backup_key_get_id (f->key));
}

/* Three full chunks and a short final one. */
#define DAMAGE_SIZE (3 * LOOM_BACKUP_CHUNK_SIZE + 1000)

static gsize
chunk_offset (guint chunk)
{
  return LOOM_BACKUP_HEADER_SIZE + chunk * SEALED_CHUNK;
}

static void
test_flipped_bytes (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "good.loombackup", NULL);
  g_autofree char *damaged = g_build_filename (f->dir, "flipped.loombackup", NULL);
  g_autoptr (GBytes) plaintext = make_plaintext (DAMAGE_SIZE);
  g_autoptr (GBytes) file = NULL;
  g_autoptr (GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize         size = 0;
  const guint8 *bytes;

  encrypt_to_file (path, plaintext, f->key);
  file = read_file (path);
  bytes = g_bytes_get_data (file, &size);

  /* Every byte of the header, then in each chunk its first bytes, its middle, and its tag. */
  for (gsize i = 0; i < LOOM_BACKUP_HEADER_SIZE; i++)
    g_array_append_val (offsets, i);
  for (guint c = 0; c < 4; c++)
    {
      gsize start = chunk_offset (c);
      gsize end = MIN (chunk_offset (c + 1), size);
      gsize at[] = { start, start + 1, (start + end) / 2, end - ABYTES, end - 1 };

      for (guint j = 0; j < G_N_ELEMENTS (at); j++)
        g_array_append_val (offsets, at[j]);
    }

  for (guint i = 0; i < offsets->len; i++)
    {
      gsize              at = g_array_index (offsets, gsize, i);
      g_autofree guint8 *copy = g_memdup2 (bytes, size);
      gint64             reported = -1;
      int                code = LOOM_ERROR_CORRUPT;
      gsize              good_prefix = 0;

      copy[at] ^= 0x20;
      write_file (damaged, copy, size);

      if (at < 8)
        reported = 0; /* the magic */
      else if (at < 16)
        reported = (gint64)at; /* the version, the reserved bytes */
      else if (at < 24)
        code = LOOM_ERROR_INVALID_ARGUMENT; /* the key id: another key's file */
      else
        {
          /* The nonce header or a chunk: the chunk that no longer authenticates. */
          guint chunk = at < LOOM_BACKUP_HEADER_SIZE
                          ? 0
                          : (at - LOOM_BACKUP_HEADER_SIZE) / SEALED_CHUNK;

          reported = (gint64)chunk_offset (chunk);
          good_prefix = chunk * LOOM_BACKUP_CHUNK_SIZE;
        }
      assert_refused (damaged, f->key, code, reported, plaintext, good_prefix);
    }
}

static void
test_truncated (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "good.loombackup", NULL);
  g_autofree char *damaged = g_build_filename (f->dir, "cut.loombackup", NULL);
  g_autoptr (GBytes) plaintext = make_plaintext (DAMAGE_SIZE);
  g_autoptr (GBytes) file = NULL;
  gsize         size = 0;
  const guint8 *bytes;

  encrypt_to_file (path, plaintext, f->key);
  file = read_file (path);
  bytes = g_bytes_get_data (file, &size);

  {
    const gsize cuts[] = { 0,
                           5,
                           8,
                           47,
                           48,
                           49,
                           48 + ABYTES,
                           chunk_offset (1) - 1,
                           chunk_offset (1),
                           chunk_offset (2) + 100,
                           chunk_offset (3),
                           chunk_offset (3) + ABYTES - 1,
                           chunk_offset (3) + ABYTES,
                           size - 1 };

    for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
      {
        write_file (damaged, bytes, cuts[i]);
        assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, -1, plaintext,
                        cuts[i] < LOOM_BACKUP_HEADER_SIZE
                          ? 0
                          : (cuts[i] - LOOM_BACKUP_HEADER_SIZE) / SEALED_CHUNK *
                              LOOM_BACKUP_CHUNK_SIZE);
      }
  }

  /* Cut exactly after a chunk: said to be cut short, at the end of the file. */
  write_file (damaged, bytes, chunk_offset (2));
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (2), plaintext,
                  2 * LOOM_BACKUP_CHUNK_SIZE);
}

/* Writes the chunks of @bytes named by @order (indexes, -1 ending) after its header. */
static void
write_chunks (const char   *path,
              const guint8 *bytes,
              gsize         size,
              const int    *order)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();

  g_byte_array_append (out, bytes, LOOM_BACKUP_HEADER_SIZE);
  for (guint i = 0; order[i] >= 0; i++)
    {
      gsize start = chunk_offset ((guint)order[i]);
      gsize end = MIN (chunk_offset ((guint)order[i] + 1), size);

      g_byte_array_append (out, bytes + start, (guint)(end - start));
    }
  write_file (path, out->data, out->len);
}

static void
test_reordered (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "good.loombackup", NULL);
  g_autofree char *other = g_build_filename (f->dir, "other.loombackup", NULL);
  g_autofree char *damaged = g_build_filename (f->dir, "moved.loombackup", NULL);
  g_autoptr (GBytes) plaintext = make_plaintext (DAMAGE_SIZE);
  g_autoptr (GBytes) file = NULL;
  g_autoptr (GBytes) other_file = NULL;
  g_autoptr (GByteArray) spliced = NULL;
  gsize         size = 0;
  const guint8 *bytes;
  const int     identity[] = { 0, 1, 2, 3, -1 };
  const int     swapped[] = { 0, 2, 1, 3, -1 };
  const int     removed[] = { 0, 2, 3, -1 };
  const int     doubled[] = { 0, 1, 1, 2, 3, -1 };
  const int     no_final[] = { 0, 1, 2, -1 };
  const int     final_early[] = { 0, 3, -1 };

  encrypt_to_file (path, plaintext, f->key);
  file = read_file (path);
  bytes = g_bytes_get_data (file, &size);

  /* The splicing itself changes nothing. */
  write_chunks (damaged, bytes, size, identity);
  {
    g_autoptr (GByteArray) got = g_byte_array_new ();
    g_autoptr (GError) error = NULL;

    g_assert_true (decrypt_file (damaged, f->key, got, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (got->len, ==, DAMAGE_SIZE);
  }

  write_chunks (damaged, bytes, size, swapped);
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (1), plaintext,
                  LOOM_BACKUP_CHUNK_SIZE);
  write_chunks (damaged, bytes, size, removed);
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (1), plaintext,
                  LOOM_BACKUP_CHUNK_SIZE);
  write_chunks (damaged, bytes, size, doubled);
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (2), plaintext,
                  2 * LOOM_BACKUP_CHUNK_SIZE);
  write_chunks (damaged, bytes, size, no_final);
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (3), plaintext,
                  3 * LOOM_BACKUP_CHUNK_SIZE);
  write_chunks (damaged, bytes, size, final_early);
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (1), plaintext,
                  LOOM_BACKUP_CHUNK_SIZE);

  /* A chunk from another file of the same key and the same plaintext, at its own place. */
  encrypt_to_file (other, plaintext, f->key);
  other_file = read_file (other);
  spliced = g_byte_array_new ();
  g_byte_array_append (spliced, bytes, (guint)chunk_offset (1));
  g_byte_array_append (
    spliced, (const guint8 *)g_bytes_get_data (other_file, NULL) + chunk_offset (1), SEALED_CHUNK);
  g_byte_array_append (spliced, bytes + chunk_offset (2), (guint)(size - chunk_offset (2)));
  write_file (damaged, spliced->data, spliced->len);
  assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)chunk_offset (1), plaintext,
                  LOOM_BACKUP_CHUNK_SIZE);
}

static void
test_trailing_data (Fixture      *f,
                    gconstpointer data)
{
  const gsize sizes[] = { 0, 100, LOOM_BACKUP_CHUNK_SIZE };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_build_filename (f->dir, "good.loombackup", NULL);
      g_autofree char *damaged = g_build_filename (f->dir, "longer.loombackup", NULL);
      g_autoptr (GBytes) plaintext = make_plaintext (sizes[i]);
      g_autoptr (GBytes) file = NULL;
      g_autoptr (GByteArray) longer = g_byte_array_new ();
      gsize         final_offset = chunk_offset (sizes[i] / LOOM_BACKUP_CHUNK_SIZE);
      gsize         size = 0;
      const guint8 *bytes;

      encrypt_to_file (path, plaintext, f->key);
      file = read_file (path);
      bytes = g_bytes_get_data (file, &size);

      g_byte_array_append (longer, bytes, (guint)size);
      g_byte_array_append (longer, (const guint8 *)"\n", 1);
      write_file (damaged, longer->data, longer->len);
      /* The final chunk is short: what follows it is read with it, and it fails there. */
      assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)final_offset, plaintext,
                      sizes[i] / LOOM_BACKUP_CHUNK_SIZE * LOOM_BACKUP_CHUNK_SIZE);

      /* The final chunk twice. */
      g_byte_array_append (longer, bytes + size - (sizes[i] % LOOM_BACKUP_CHUNK_SIZE + ABYTES),
                           (guint)(sizes[i] % LOOM_BACKUP_CHUNK_SIZE + ABYTES));
      write_file (damaged, longer->data, longer->len);
      assert_refused (damaged, f->key, LOOM_ERROR_CORRUPT, (gint64)final_offset, plaintext,
                      sizes[i] / LOOM_BACKUP_CHUNK_SIZE * LOOM_BACKUP_CHUNK_SIZE);
    }
}

static void
test_wrong_key (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "good.loombackup", NULL);
  g_autofree char *forged = g_build_filename (f->dir, "forged.loombackup", NULL);
  g_autoptr (LoomBackupKey) other = loom_backup_key_generate ();
  g_autoptr (GBytes) plaintext = make_plaintext (70000);
  g_autoptr (GBytes) file = NULL;
  g_autoptr (GByteArray) got = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *copy = NULL;
  gsize              size = 0;

  encrypt_to_file (path, plaintext, f->key);

  /* Another key: refused before reading anything, saying which key the file wants. */
  g_assert_false (decrypt_file (path, other, got, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, loom_backup_key_get_id (f->key)));
  g_assert_nonnull (strstr (error->message, loom_backup_key_get_id (other)));
  g_assert_cmpuint (got->len, ==, 0);

  /* The header made to name the other key: the chunks still say no. */
  file = read_file (path);
  copy = g_memdup2 (g_bytes_get_data (file, &size), g_bytes_get_size (file));
  g_assert_cmpint (
    sodium_hex2bin (copy + 16, 8, loom_backup_key_get_id (other), 16, NULL, NULL, NULL), ==, 0);
  write_file (forged, copy, size);
  assert_refused (forged, other, LOOM_ERROR_CORRUPT, LOOM_BACKUP_HEADER_SIZE, NULL, 0);
}

static void
test_not_closed (Fixture      *f,
                 gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "abandoned.loombackup", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileOutputStream) out = NULL;
  g_autoptr (GError) error = NULL;
  GOutputStream *encrypted;
  guint8         data_[1000] = { 0 };

  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_PRIVATE, NULL, &error);
  g_assert_no_error (error);
  encrypted = loom_backup_encrypt_stream_new (G_OUTPUT_STREAM (out), f->key, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (encrypted, data_, sizeof data_, NULL, NULL, &error));
  /* Dropped without closing, as a writer that failed half-way does. */
  g_object_unref (encrypted);
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_no_error (error);

  assert_refused (path, f->key, LOOM_ERROR_CORRUPT, LOOM_BACKUP_HEADER_SIZE, NULL, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/backup-stream/round-trip", test_round_trip);
  ADD ("/backup-stream/header", test_header);
  ADD ("/backup-stream/flipped-bytes", test_flipped_bytes);
  ADD ("/backup-stream/truncated", test_truncated);
  ADD ("/backup-stream/reordered", test_reordered);
  ADD ("/backup-stream/trailing-data", test_trailing_data);
  ADD ("/backup-stream/wrong-key", test_wrong_key);
  ADD ("/backup-stream/not-closed", test_not_closed);
#undef ADD

  return g_test_run ();
}
