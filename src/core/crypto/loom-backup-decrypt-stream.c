/* loom-backup-decrypt-stream.c — the input stream of the plaintext of a .loombackup file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Chunks are read whole and opened one at a time; nothing of a chunk reaches the reader before
 * it authenticated. A full-sized chunk must be followed by another; a shorter one must be the
 * final one; after the final one the file must end. The first failure is kept and returned by
 * every later read, so a reader that retries never gets past it.
 */
#include <string.h>

#include "loom-backup-stream-private.h"
#include "loom-error.h"
#include "loom-sodium.h"

#define LOOM_TYPE_BACKUP_DECRYPT_STREAM (loom_backup_decrypt_stream_get_type ())
G_DECLARE_FINAL_TYPE (LoomBackupDecryptStream, loom_backup_decrypt_stream, LOOM,
                      BACKUP_DECRYPT_STREAM, GInputStream)

struct _LoomBackupDecryptStream
{
  GInputStream parent_instance;

  GInputStream                                *base;
  char                                        *name;
  crypto_secretstream_xchacha20poly1305_state *state;
  guint8                                      *plaintext; /* guarded, wiped when freed */
  gsize                                        n_plaintext;
  gsize                                        plaintext_pos;
  guint8                                      *sealed;
  guint8                                       header[LOOM_BACKUP_HEADER_SIZE];
  guint64                                      offset; /* of the next chunk in the file */
  gboolean                                     opened_first;
  gboolean                                     finished;
  GError                                      *failure;
};

G_DEFINE_FINAL_TYPE (LoomBackupDecryptStream, loom_backup_decrypt_stream, G_TYPE_INPUT_STREAM)

/* Reads and opens the next chunk into the plaintext buffer. FALSE with @error on failure. */
static gboolean
loom_backup_decrypt_stream_open_chunk (LoomBackupDecryptStream *self,
                                       GCancellable            *cancellable,
                                       GError                 **error)
{
  unsigned long long n_plaintext = 0;
  unsigned char      tag = 0;
  gsize              n_read = 0;
  gsize              n_extra = 0;
  guint8             extra;

  if (!g_input_stream_read_all (self->base, self->sealed, LOOM_BACKUP_SEALED_CHUNK_SIZE, &n_read,
                                cancellable, error))
    return FALSE;

  if (n_read < crypto_secretstream_xchacha20poly1305_ABYTES)
    {
      loom_backup_set_corrupt (error, self->name, self->offset + n_read,
                               "the file ends before its final chunk (it was cut short)");
      return FALSE;
    }

  if (crypto_secretstream_xchacha20poly1305_pull (
        self->state, self->plaintext, &n_plaintext, &tag, self->sealed, n_read,
        self->opened_first ? NULL : self->header,
        self->opened_first ? 0 : sizeof self->header) != 0)
    {
      if (n_read < LOOM_BACKUP_SEALED_CHUNK_SIZE)
        loom_backup_set_corrupt (error, self->name, self->offset,
                                 "the chunk there does not authenticate: it was changed, moved, "
                                 "cut short or followed by other data, or the file was "
                                 "encrypted with another key");
      else
        loom_backup_set_corrupt (error, self->name, self->offset,
                                 "the chunk there does not authenticate: it was changed or moved, "
                                 "or the file was encrypted with another key");
      return FALSE;
    }
  self->opened_first = TRUE;

  if (tag == crypto_secretstream_xchacha20poly1305_TAG_FINAL)
    {
      /* Nothing may follow the final chunk: what did was appended. */
      if (!g_input_stream_read_all (self->base, &extra, 1, &n_extra, cancellable, error))
        return FALSE;
      if (n_extra != 0)
        {
          sodium_memzero (self->plaintext, n_plaintext);
          loom_backup_set_corrupt (error, self->name, self->offset + n_read,
                                   "data follows the final chunk");
          return FALSE;
        }
      self->finished = TRUE;
    }
  else if (tag != crypto_secretstream_xchacha20poly1305_TAG_MESSAGE ||
           n_read < LOOM_BACKUP_SEALED_CHUNK_SIZE)
    {
      /* Our writer seals every chunk but the last one full and as a message. */
      sodium_memzero (self->plaintext, n_plaintext);
      loom_backup_set_corrupt (error, self->name, self->offset,
                               "the chunk there is not one this format writes");
      return FALSE;
    }

  self->offset += n_read;
  self->n_plaintext = n_plaintext;
  self->plaintext_pos = 0;
  return TRUE;
}

static gssize
loom_backup_decrypt_stream_read (GInputStream *stream,
                                 void         *buffer,
                                 gsize         count,
                                 GCancellable *cancellable,
                                 GError      **error)
{
  LoomBackupDecryptStream *self = LOOM_BACKUP_DECRYPT_STREAM (stream);
  g_autoptr (GError) local_error = NULL;
  gsize n;

  if (self->failure != NULL)
    {
      g_propagate_error (error, g_error_copy (self->failure));
      return -1;
    }

  while (self->plaintext_pos == self->n_plaintext && !self->finished)
    {
      sodium_memzero (self->plaintext, self->n_plaintext);
      self->n_plaintext = self->plaintext_pos = 0;
      if (!loom_backup_decrypt_stream_open_chunk (self, cancellable, &local_error))
        {
          /* A cancelled read may be tried again; a damaged file stays damaged. */
          if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            self->failure = g_error_copy (local_error);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return -1;
        }
    }

  n = MIN (count, self->n_plaintext - self->plaintext_pos);
  memcpy (buffer, self->plaintext + self->plaintext_pos, n);
  self->plaintext_pos += n;
  return (gssize)n;
}

static gboolean
loom_backup_decrypt_stream_close (GInputStream *stream,
                                  GCancellable *cancellable,
                                  GError      **error)
{
  LoomBackupDecryptStream *self = LOOM_BACKUP_DECRYPT_STREAM (stream);

  sodium_memzero (self->plaintext, LOOM_BACKUP_CHUNK_SIZE);
  self->n_plaintext = self->plaintext_pos = 0;

  return g_input_stream_close (self->base, cancellable, error);
}

static void
loom_backup_decrypt_stream_finalize (GObject *object)
{
  LoomBackupDecryptStream *self = LOOM_BACKUP_DECRYPT_STREAM (object);

  g_clear_object (&self->base);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->state, sodium_free);
  g_clear_pointer (&self->plaintext, sodium_free);
  g_clear_pointer (&self->sealed, g_free);
  g_clear_error (&self->failure);

  G_OBJECT_CLASS (loom_backup_decrypt_stream_parent_class)->finalize (object);
}

static void
loom_backup_decrypt_stream_class_init (LoomBackupDecryptStreamClass *klass)
{
  GObjectClass      *object_class = G_OBJECT_CLASS (klass);
  GInputStreamClass *stream_class = G_INPUT_STREAM_CLASS (klass);

  object_class->finalize = loom_backup_decrypt_stream_finalize;
  stream_class->read_fn = loom_backup_decrypt_stream_read;
  stream_class->close_fn = loom_backup_decrypt_stream_close;
}

static void
loom_backup_decrypt_stream_init (LoomBackupDecryptStream *self)
{
}

GInputStream *
loom_backup_decrypt_stream_new (GInputStream           *base,
                                const LoomBackupHeader *header,
                                const LoomBackupKey    *key,
                                const char             *name)
{
  LoomBackupDecryptStream *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (base), NULL);
  g_return_val_if_fail (header != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  loom_sodium_ensure_init ();

  self = g_object_new (LOOM_TYPE_BACKUP_DECRYPT_STREAM, NULL);
  self->base = g_object_ref (base);
  self->name = g_strdup (name);
  self->state = sodium_malloc (sizeof *self->state);
  self->plaintext = sodium_malloc (LOOM_BACKUP_CHUNK_SIZE);
  if (self->state == NULL || self->plaintext == NULL)
    g_error ("Could not allocate guarded memory for an encrypted backup");
  self->sealed = g_malloc (LOOM_BACKUP_SEALED_CHUNK_SIZE);
  memcpy (self->header, header->bytes, sizeof self->header);
  self->offset = LOOM_BACKUP_HEADER_SIZE;

  /* Reading with the wrong key would only say that the first chunk does not authenticate:
   * the ids tell the person which key the file wants. */
  if (!g_str_equal (header->key_id, loom_backup_key_get_id (key)))
    g_set_error (&self->failure, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                 "“%s” was encrypted with backup key “%s”, not with key “%s”", name, header->key_id,
                 loom_backup_key_get_id (key));
  else if (crypto_secretstream_xchacha20poly1305_init_pull (self->state,
                                                            self->header + LOOM_BACKUP_NONCE_OFFSET,
                                                            loom_backup_key_get_bytes (key)) != 0)
    loom_backup_set_corrupt (&self->failure, name, LOOM_BACKUP_NONCE_OFFSET,
                             "the header of the encryption is not valid");

  return G_INPUT_STREAM (self);
}
