/* loom-backup-encrypt-stream.c — the output stream that writes a .loombackup file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plaintext gathers in a buffer of LOOM_BACKUP_CHUNK_SIZE bytes; a full buffer is sealed as a
 * chunk at once, so the final chunk, sealed when the stream is closed, always holds fewer
 * bytes (none when the plaintext filled its last chunk exactly). The decrypting side relies on
 * that: a short chunk must be the final one.
 */
#include <string.h>

#include "loom-backup-stream-private.h"
#include "loom-error.h"
#include "loom-sodium.h"

#define LOOM_TYPE_BACKUP_ENCRYPT_STREAM (loom_backup_encrypt_stream_get_type ())
G_DECLARE_FINAL_TYPE (LoomBackupEncryptStream, loom_backup_encrypt_stream, LOOM,
                      BACKUP_ENCRYPT_STREAM, GFilterOutputStream)

struct _LoomBackupEncryptStream
{
  GFilterOutputStream parent_instance;

  /* Both in guarded memory and wiped when the stream goes: the state holds the chunk key. */
  crypto_secretstream_xchacha20poly1305_state *state;
  guint8                                      *plaintext;
  gsize                                        n_plaintext;
  guint8                                      *sealed;
  guint8                                       header[LOOM_BACKUP_HEADER_SIZE];
  gboolean                                     sealed_first;
  /* A chunk that could not be written leaves a file with a hole: nothing more is written. */
  gboolean                                     broken;
  /* GOutputStream closes a stream that goes away unclosed; that must not seal it. */
  gboolean                                     disposing;
};

G_DEFINE_FINAL_TYPE (LoomBackupEncryptStream, loom_backup_encrypt_stream,
                     G_TYPE_FILTER_OUTPUT_STREAM)

static gboolean
loom_backup_encrypt_stream_seal (LoomBackupEncryptStream *self,
                                 guint8                   tag,
                                 GCancellable            *cancellable,
                                 GError                 **error)
{
  GOutputStream     *base = g_filter_output_stream_get_base_stream (G_FILTER_OUTPUT_STREAM (self));
  unsigned long long sealed_size = 0;

  g_assert (self->n_plaintext <= LOOM_BACKUP_CHUNK_SIZE);

  if (self->broken)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_IO,
                           "An earlier write of the encrypted backup failed");
      return FALSE;
    }

  /* The first chunk authenticates the header, so that a changed magic, version or key id
   * fails like a changed chunk. */
  crypto_secretstream_xchacha20poly1305_push (
    self->state, self->sealed, &sealed_size, self->plaintext, self->n_plaintext,
    self->sealed_first ? NULL : self->header, self->sealed_first ? 0 : sizeof self->header, tag);
  self->sealed_first = TRUE;
  sodium_memzero (self->plaintext, self->n_plaintext);
  self->n_plaintext = 0;

  if (!g_output_stream_write_all (base, self->sealed, sealed_size, NULL, cancellable, error))
    {
      self->broken = TRUE;
      return FALSE;
    }

  return TRUE;
}

static gssize
loom_backup_encrypt_stream_write (GOutputStream *stream,
                                  const void    *buffer,
                                  gsize          count,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  LoomBackupEncryptStream *self = LOOM_BACKUP_ENCRYPT_STREAM (stream);
  gsize                    n;

  if (self->broken)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_IO,
                           "An earlier write of the encrypted backup failed");
      return -1;
    }

  n = MIN (count, LOOM_BACKUP_CHUNK_SIZE - self->n_plaintext);
  memcpy (self->plaintext + self->n_plaintext, buffer, n);
  self->n_plaintext += n;

  if (self->n_plaintext == LOOM_BACKUP_CHUNK_SIZE &&
      !loom_backup_encrypt_stream_seal (self, crypto_secretstream_xchacha20poly1305_TAG_MESSAGE,
                                        cancellable, error))
    return -1;

  return (gssize)n;
}

static gboolean
loom_backup_encrypt_stream_close (GOutputStream *stream,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  LoomBackupEncryptStream *self = LOOM_BACKUP_ENCRYPT_STREAM (stream);
  GFilterOutputStream     *filter = G_FILTER_OUTPUT_STREAM (stream);
  g_autoptr (GError) local_error = NULL;
  gboolean ok = TRUE;

  /* A stream dropped without being closed was abandoned (an error half-way, a cancellation):
   * sealing it would make a partial backup look whole. */
  if (!self->disposing)
    ok = loom_backup_encrypt_stream_seal (self, crypto_secretstream_xchacha20poly1305_TAG_FINAL,
                                          cancellable, &local_error);
  /* Nothing may be written after the final chunk. */
  self->broken = TRUE;

  if (g_filter_output_stream_get_close_base_stream (filter))
    {
      GOutputStream *base = g_filter_output_stream_get_base_stream (filter);

      if (!g_output_stream_close (base, cancellable, ok ? &local_error : NULL))
        ok = FALSE;
    }

  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}

static void
loom_backup_encrypt_stream_dispose (GObject *object)
{
  LoomBackupEncryptStream *self = LOOM_BACKUP_ENCRYPT_STREAM (object);

  self->disposing = TRUE;

  G_OBJECT_CLASS (loom_backup_encrypt_stream_parent_class)->dispose (object);
}

static void
loom_backup_encrypt_stream_finalize (GObject *object)
{
  LoomBackupEncryptStream *self = LOOM_BACKUP_ENCRYPT_STREAM (object);

  g_clear_pointer (&self->state, sodium_free);
  g_clear_pointer (&self->plaintext, sodium_free);
  g_clear_pointer (&self->sealed, g_free);

  G_OBJECT_CLASS (loom_backup_encrypt_stream_parent_class)->finalize (object);
}

static void
loom_backup_encrypt_stream_class_init (LoomBackupEncryptStreamClass *klass)
{
  GObjectClass       *object_class = G_OBJECT_CLASS (klass);
  GOutputStreamClass *stream_class = G_OUTPUT_STREAM_CLASS (klass);

  object_class->dispose = loom_backup_encrypt_stream_dispose;
  object_class->finalize = loom_backup_encrypt_stream_finalize;
  stream_class->write_fn = loom_backup_encrypt_stream_write;
  stream_class->close_fn = loom_backup_encrypt_stream_close;
}

static void
loom_backup_encrypt_stream_init (LoomBackupEncryptStream *self)
{
}

GOutputStream *
loom_backup_encrypt_stream_new (GOutputStream       *base,
                                const LoomBackupKey *key,
                                GCancellable        *cancellable,
                                GError             **error)
{
  g_autoptr (LoomBackupEncryptStream) self = NULL;

  g_return_val_if_fail (G_IS_OUTPUT_STREAM (base), NULL);
  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loom_sodium_ensure_init ();

  self = g_object_new (LOOM_TYPE_BACKUP_ENCRYPT_STREAM, "base-stream", base, NULL);
  self->state = sodium_malloc (sizeof *self->state);
  self->plaintext = sodium_malloc (LOOM_BACKUP_CHUNK_SIZE);
  if (self->state == NULL || self->plaintext == NULL)
    g_error ("Could not allocate guarded memory for an encrypted backup");
  self->sealed = g_malloc (LOOM_BACKUP_SEALED_CHUNK_SIZE);

  loom_backup_header_fill (self->header, loom_backup_key_get_id (key));
  crypto_secretstream_xchacha20poly1305_init_push (
    self->state, self->header + LOOM_BACKUP_NONCE_OFFSET, loom_backup_key_get_bytes (key));

  if (!g_output_stream_write_all (base, self->header, sizeof self->header, NULL, cancellable,
                                  error))
    return NULL;

  return G_OUTPUT_STREAM (g_steal_pointer (&self));
}
