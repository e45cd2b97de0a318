/* loom-backup-stream.h — a stream encrypted with the backup key: the body of a .loombackup file.
 *
 * The layout (all integers big-endian):
 *   header, 48 bytes: magic "LOOMBKUP" (8), format version (1 byte, 1), 7 zero bytes, the key
 *     id as 8 raw bytes (16 hex digits of loom-backup-key.h), the 24-byte header of libsodium's
 *     crypto_secretstream_xchacha20poly1305;
 *   then chunks, each the encryption of LOOM_BACKUP_CHUNK_SIZE bytes of plaintext (the last one
 *     fewer, possibly none) plus crypto_secretstream_xchacha20poly1305_ABYTES; the first
 *     chunk's additional data is the whole 48-byte header, so that a changed magic, version or
 *     key id fails; the last chunk, and only it, is tagged TAG_FINAL.
 * A flipped byte anywhere, a missing or reordered chunk, a file cut short (no final chunk) or
 * data after the final chunk fail with LOOM_ERROR_CORRUPT naming the file and the offset.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-backup-key.h"

G_BEGIN_DECLS

#define LOOM_BACKUP_MAGIC       "LOOMBKUP"
#define LOOM_BACKUP_VERSION     1
#define LOOM_BACKUP_HEADER_SIZE 48
#define LOOM_BACKUP_CHUNK_SIZE  65536

/* What the header of a .loombackup says, read without the key. */
typedef struct
{
  guint  version;
  char   key_id[LOOM_BACKUP_KEY_ID_CHARS + 1];
  /* The 48 bytes as read: the decrypting stream needs the secretstream header in them and
   * authenticates the whole of them. */
  guint8 bytes[LOOM_BACKUP_HEADER_SIZE];
} LoomBackupHeader;

/* Reads and checks the header at the start of @stream (magic, version). @name (a path) is for
 * the errors. */
gboolean loom_backup_read_header (GInputStream     *stream,
                                  const char       *name,
                                  LoomBackupHeader *header,
                                  GCancellable     *cancellable,
                                  GError          **error);

/* An output stream that writes the header to @base at once, then encrypts what is written to
 * it in chunks; closing it writes the final chunk (and closes @base). Closing is what makes
 * the file whole: a stream not closed leaves a file that does not decrypt. */
GOutputStream *loom_backup_encrypt_stream_new (GOutputStream       *base,
                                               const LoomBackupKey *key,
                                               GCancellable        *cancellable,
                                               GError             **error);

/* An input stream of the plaintext of @base, whose header loom_backup_read_header () has
 * read already into @header; @key must have its id (with another key, every read fails with
 * LOOM_ERROR_INVALID_ARGUMENT naming @name and both ids). Reads fail (LOOM_ERROR_CORRUPT, naming
 * @name) at the first chunk that does not authenticate, and at the end when there was no
 * final chunk or data follows it. */
GInputStream *loom_backup_decrypt_stream_new (GInputStream           *base,
                                              const LoomBackupHeader *header,
                                              const LoomBackupKey    *key,
                                              const char             *name);

G_END_DECLS
