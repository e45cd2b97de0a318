/* loom-backup-stream.c — the header of a .loombackup file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The two streams are in loom-backup-encrypt-stream.c and loom-backup-decrypt-stream.c.
 */
#include <string.h>

#include "loom-backup-stream-private.h"
#include "loom-error.h"
#include "loom-sodium.h"

void
loom_backup_header_fill (guint8     *header,
                         const char *key_id)
{
  size_t size = 0;

  memset (header, 0, LOOM_BACKUP_HEADER_SIZE);
  memcpy (header, LOOM_BACKUP_MAGIC, LOOM_BACKUP_MAGIC_SIZE);
  header[LOOM_BACKUP_VERSION_OFFSET] = LOOM_BACKUP_VERSION;
  if (sodium_hex2bin (header + LOOM_BACKUP_KEY_ID_OFFSET, LOOM_BACKUP_KEY_ID_SIZE, key_id,
                      strlen (key_id), NULL, &size, NULL) != 0 ||
      size != LOOM_BACKUP_KEY_ID_SIZE)
    g_assert_not_reached ();
}

void
loom_backup_set_corrupt (GError    **error,
                         const char *name,
                         guint64     offset,
                         const char *format,
                         ...)
{
  g_autofree char *problem = NULL;
  va_list          args;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
               "“%s” is damaged at byte %" G_GUINT64_FORMAT ": %s", name, offset, problem);
}

gboolean
loom_backup_read_header (GInputStream     *stream,
                         const char       *name,
                         LoomBackupHeader *header,
                         GCancellable     *cancellable,
                         GError          **error)
{
  guint8 bytes[LOOM_BACKUP_HEADER_SIZE];
  gsize  n_read = 0;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (header != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  loom_sodium_ensure_init ();
  memset (header, 0, sizeof *header);

  if (!g_input_stream_read_all (stream, bytes, sizeof bytes, &n_read, cancellable, error))
    return FALSE;

  if (n_read < LOOM_BACKUP_MAGIC_SIZE ||
      memcmp (bytes, LOOM_BACKUP_MAGIC, LOOM_BACKUP_MAGIC_SIZE) != 0)
    {
      loom_backup_set_corrupt (error, name, 0,
                               "it does not start with “%s”: it is not an encrypted backup of "
                               "Intentloom History",
                               LOOM_BACKUP_MAGIC);
      return FALSE;
    }
  if (n_read < sizeof bytes)
    {
      loom_backup_set_corrupt (error, name, n_read, "the file ends inside its %d-byte header",
                               LOOM_BACKUP_HEADER_SIZE);
      return FALSE;
    }
  if (bytes[LOOM_BACKUP_VERSION_OFFSET] != LOOM_BACKUP_VERSION)
    {
      loom_backup_set_corrupt (error, name, LOOM_BACKUP_VERSION_OFFSET,
                               "its format version is %u; this version of Intentloom History "
                               "reads version %d",
                               bytes[LOOM_BACKUP_VERSION_OFFSET], LOOM_BACKUP_VERSION);
      return FALSE;
    }
  for (guint i = LOOM_BACKUP_RESERVED_OFFSET; i < LOOM_BACKUP_KEY_ID_OFFSET; i++)
    if (bytes[i] != 0)
      {
        loom_backup_set_corrupt (error, name, i, "a reserved byte of the header is not zero");
        return FALSE;
      }

  header->version = bytes[LOOM_BACKUP_VERSION_OFFSET];
  sodium_bin2hex (header->key_id, sizeof header->key_id, bytes + LOOM_BACKUP_KEY_ID_OFFSET,
                  LOOM_BACKUP_KEY_ID_SIZE);
  memcpy (header->bytes, bytes, sizeof bytes);

  return TRUE;
}
