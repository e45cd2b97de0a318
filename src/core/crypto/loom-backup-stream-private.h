/* loom-backup-stream-private.h — what the two halves of the encrypted stream share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sodium.h>

#include "loom-backup-stream.h"

G_BEGIN_DECLS

#define LOOM_BACKUP_MAGIC_SIZE      8
#define LOOM_BACKUP_VERSION_OFFSET  8
#define LOOM_BACKUP_RESERVED_OFFSET 9
#define LOOM_BACKUP_KEY_ID_OFFSET   16
#define LOOM_BACKUP_KEY_ID_SIZE     8
#define LOOM_BACKUP_NONCE_OFFSET    24
#define LOOM_BACKUP_SEALED_CHUNK_SIZE \
  (LOOM_BACKUP_CHUNK_SIZE + crypto_secretstream_xchacha20poly1305_ABYTES)

G_STATIC_ASSERT (LOOM_BACKUP_NONCE_OFFSET + crypto_secretstream_xchacha20poly1305_HEADERBYTES ==
                 LOOM_BACKUP_HEADER_SIZE)
;

/* Fills @header with everything but the secretstream header, for @key_id. */
void loom_backup_header_fill (guint8     *header,
                              const char *key_id);

/* A LOOM_ERROR_CORRUPT error about @name at @offset. */
void loom_backup_set_corrupt (GError    **error,
                              const char *name,
                              guint64     offset,
                              const char *format,
                              ...) G_GNUC_PRINTF (4,
                                                  5);

G_END_DECLS
