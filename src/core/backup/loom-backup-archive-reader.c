/* loom-backup-archive-reader.c — the container read back, one entry at a time.
 *
 * Its bytes come out of a decrypted .loombackup, but whoever holds the key can write any
 * plaintext: the reader trusts none of it. It keeps no more than the entry it is at and the
 * paths it has seen (to refuse a path twice, or one whose folder was not listed), each of them
 * read from the stream, never a buffer sized by a field; a file's bytes stream through the
 * caller's buffer. The first refusal stops it for good.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-backup-archive-private.h"
#include "loom-error.h"

/* The kind, the path's length. */
#define ENTRY_HEADER_SIZE 3

struct _LoomBackupArchiveReader
{
  GInputStream       *stream;
  char               *name;
  guint64             offset;       /* bytes of the plaintext read so far */
  guint64             entry_offset; /* where the current entry began */
  gboolean            started;      /* the magic was read */
  gboolean            ended;        /* the end entry was read, and nothing after it */
  gboolean            failed;
  guint               n_entries;
  LoomBackupEntryKind kind;
  guint64             remaining; /* of the current file's bytes */
  char                path[LOOM_BACKUP_ARCHIVE_MAX_PATH + 1];
  GStringChunk       *paths;
  GHashTable         *seen; /* path (in paths) → its LoomBackupEntryKind */
};

gboolean
loom_backup_archive_set_corrupt (GError    **error,
                                 const char *name,
                                 const char *path,
                                 guint64     offset,
                                 const char *format,
                                 ...)
{
  g_autofree char *what = NULL;
  va_list          args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  if (path != NULL)
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                 "The backup “%s” is damaged at byte %" G_GUINT64_FORMAT
                 " of its contents, entry “%s”: %s",
                 name, offset, path, what);
  else
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                 "The backup “%s” is damaged at byte %" G_GUINT64_FORMAT " of its contents: %s",
                 name, offset, what);
  return FALSE;
}

gboolean
loom_backup_archive_path_printable (const char *path,
                                    gsize       length)
{
  return memchr (path, '\0', length) == NULL && g_utf8_validate (path, (gssize)length, NULL);
}

const char *
loom_backup_archive_path_problem (const char *path,
                                  gsize       length)
{
  guint depth = 0;

  if (length == 0)
    return "its path is empty";
  if (length > LOOM_BACKUP_ARCHIVE_MAX_PATH)
    return "its path is longer than 4,096 bytes";
  if (memchr (path, '\0', length) != NULL)
    return "its path holds a NUL byte";
  if (!g_utf8_validate (path, (gssize)length, NULL))
    return "its path is not UTF-8";
  if (path[0] == '/')
    return "its path is absolute";
  if (memchr (path, '\\', length) != NULL)
    return "its path holds a backslash";
  for (gsize start = 0; start <= length;)
    {
      const char *slash = memchr (path + start, '/', length - start);
      gsize       end = slash != NULL ? (gsize)(slash - path) : length;
      gsize       n = end - start;

      if (n == 0)
        return "its path has an empty component";
      if ((n == 1 && path[start] == '.') ||
          (n == 2 && path[start] == '.' && path[start + 1] == '.'))
        return "its path has a “.” or “..” component";
      if (slash == NULL)
        break;
      if (++depth > LOOM_BACKUP_ARCHIVE_MAX_DEPTH)
        return "its path is deeper than 64 folders";
      start = end + 1;
    }
  return NULL;
}

LoomBackupArchiveReader *
loom_backup_archive_reader_new (GInputStream *stream,
                                const char   *name)
{
  LoomBackupArchiveReader *self;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), NULL);

  self = g_new0 (LoomBackupArchiveReader, 1);
  self->stream = g_object_ref (stream);
  self->name = g_strdup (name != NULL ? name : "(a stream)");
  self->kind = LOOM_BACKUP_ENTRY_END;
  self->paths = g_string_chunk_new (64 * 1024);
  self->seen = g_hash_table_new (g_str_hash, g_str_equal);
  return self;
}

void
loom_backup_archive_reader_free (LoomBackupArchiveReader *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->stream);
  g_free (self->name);
  g_hash_table_unref (self->seen);
  g_string_chunk_free (self->paths);
  g_free (self);
}

guint64
loom_backup_archive_reader_get_entry_offset (LoomBackupArchiveReader *self)
{
  return self->entry_offset;
}

const char *
loom_backup_archive_reader_get_name (LoomBackupArchiveReader *self)
{
  return self->name;
}

/* Sets the error about the current entry and stops the reader. */
static gboolean
refuse (LoomBackupArchiveReader *self,
        gboolean                 with_path,
        GError                 **error,
        const char              *what)
{
  self->failed = TRUE;
  return loom_backup_archive_set_corrupt (error, self->name, with_path ? self->path : NULL,
                                          self->entry_offset, "%s", what);
}

/* Reads exactly @count bytes; a stream that ends first is a container cut short. */
static gboolean
read_exact (LoomBackupArchiveReader *self,
            void                    *buffer,
            gsize                    count,
            gboolean                 with_path,
            GCancellable            *cancellable,
            GError                 **error)
{
  gsize got = 0;

  if (!g_input_stream_read_all (self->stream, buffer, count, &got, cancellable, error))
    {
      self->failed = TRUE;
      return FALSE;
    }
  self->offset += got;
  if (got < count)
    return refuse (self, with_path, error, "the contents end before their end entry");
  return TRUE;
}

/* Skips what the caller did not read of the current file. */
static gboolean
skip_rest (LoomBackupArchiveReader *self,
           GCancellable            *cancellable,
           GError                 **error)
{
  while (self->remaining > 0)
    {
      gsize  want = (gsize)MIN (self->remaining, (guint64)G_MAXSSIZE);
      gssize n = g_input_stream_skip (self->stream, want, cancellable, error);

      if (n < 0)
        {
          self->failed = TRUE;
          return FALSE;
        }
      if (n == 0)
        return refuse (self, TRUE, error, "the file’s bytes end before its size");
      self->offset += (guint64)n;
      self->remaining -= (guint64)n;
    }
  return TRUE;
}

/* After the end entry, the stream must end too. */
static gboolean
check_nothing_after (LoomBackupArchiveReader *self,
                     GCancellable            *cancellable,
                     GError                 **error)
{
  guint8 byte;
  gssize n = g_input_stream_read (self->stream, &byte, 1, cancellable, error);

  if (n < 0)
    {
      self->failed = TRUE;
      return FALSE;
    }
  if (n > 0)
    {
      self->entry_offset = self->offset;
      return refuse (self, FALSE, error, "more follows its end entry");
    }
  return TRUE;
}

/* The path just read, against the rules of the header and the paths seen before it. */
static gboolean
check_path (LoomBackupArchiveReader *self,
            gsize                    length,
            GError                 **error)
{
  const char *problem = loom_backup_archive_path_problem (self->path, length);
  const char *slash;

  if (problem != NULL)
    return refuse (self, loom_backup_archive_path_printable (self->path, length), error, problem);
  if (g_hash_table_contains (self->seen, self->path))
    return refuse (self, TRUE, error, "its path is listed twice");
  if ((slash = strrchr (self->path, '/')) != NULL)
    {
      g_autofree char *folder = g_strndup (self->path, (gsize)(slash - self->path));
      gpointer         kind;

      if (!g_hash_table_lookup_extended (self->seen, folder, NULL, &kind) ||
          GPOINTER_TO_INT (kind) != LOOM_BACKUP_ENTRY_FOLDER)
        return refuse (self, TRUE, error, "its folder is not listed before it");
    }
  return TRUE;
}

gboolean
loom_backup_archive_reader_next (LoomBackupArchiveReader *self,
                                 LoomBackupEntryKind     *kind,
                                 const char             **path,
                                 guint64                 *size,
                                 GCancellable            *cancellable,
                                 GError                 **error)
{
  guint8 header[ENTRY_HEADER_SIZE];
  guint8 size_bytes[8];
  gsize  length;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *kind = LOOM_BACKUP_ENTRY_END;
  if (path != NULL)
    *path = NULL;
  if (size != NULL)
    *size = 0;
  if (self->failed)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_FAILED,
                   "The backup “%s” was not read further after an error", self->name);
      return FALSE;
    }
  if (self->ended)
    return FALSE;
  /* Streams need not look at it (a GMemoryInputStream does not): once an entry, and below,
   * once a read. */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      self->failed = TRUE;
      return FALSE;
    }

  if (!self->started)
    {
      char magic[LOOM_BACKUP_ARCHIVE_MAGIC_SIZE];

      if (!read_exact (self, magic, sizeof magic, FALSE, cancellable, error))
        return FALSE;
      if (memcmp (magic, LOOM_BACKUP_ARCHIVE_MAGIC, sizeof magic) != 0)
        return refuse (self, FALSE, error, "it does not begin as a package does (LOOMPKG1)");
      self->started = TRUE;
    }
  else if (!skip_rest (self, cancellable, error))
    return FALSE;

  self->kind = LOOM_BACKUP_ENTRY_END;
  self->path[0] = '\0';
  self->entry_offset = self->offset;
  if (!read_exact (self, header, sizeof header, FALSE, cancellable, error))
    return FALSE;
  length = (gsize)header[1] << 8 | header[2];

  if (header[0] == LOOM_BACKUP_ENTRY_END)
    {
      if (length != 0)
        return refuse (self, FALSE, error, "its end entry has a path");
      if (!check_nothing_after (self, cancellable, error))
        return FALSE;
      self->ended = TRUE;
      return FALSE;
    }
  if (header[0] != LOOM_BACKUP_ENTRY_FOLDER && header[0] != LOOM_BACKUP_ENTRY_FILE)
    return refuse (self, FALSE, error, "an entry is of an unknown kind");
  if (self->n_entries >= LOOM_BACKUP_ARCHIVE_MAX_ENTRIES)
    return refuse (self, FALSE, error, "it holds more than 1,000,000 entries");
  /* Refused before a byte of it is read: the buffer holds no more than the limit. */
  if (length > LOOM_BACKUP_ARCHIVE_MAX_PATH)
    return refuse (self, FALSE, error, "its path is longer than 4,096 bytes");
  if (!read_exact (self, self->path, length, FALSE, cancellable, error))
    return FALSE;
  self->path[length] = '\0';
  if (!check_path (self, length, error))
    return FALSE;

  self->remaining = 0;
  if (header[0] == LOOM_BACKUP_ENTRY_FILE)
    {
      if (!read_exact (self, size_bytes, sizeof size_bytes, TRUE, cancellable, error))
        return FALSE;
      for (guint i = 0; i < sizeof size_bytes; i++)
        self->remaining = self->remaining << 8 | size_bytes[i];
    }

  self->kind = (LoomBackupEntryKind)header[0];
  self->n_entries++;
  g_hash_table_insert (self->seen,
                       g_string_chunk_insert_len (self->paths, self->path, (gssize)length),
                       GINT_TO_POINTER (self->kind));
  *kind = self->kind;
  if (path != NULL)
    *path = self->path;
  if (size != NULL)
    *size = self->remaining;
  return TRUE;
}

gssize
loom_backup_archive_reader_read (LoomBackupArchiveReader *self,
                                 void                    *buffer,
                                 gsize                    count,
                                 GCancellable            *cancellable,
                                 GError                 **error)
{
  gssize n;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (error == NULL || *error == NULL, -1);

  if (self->failed)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_FAILED,
                   "The backup “%s” was not read further after an error", self->name);
      return -1;
    }
  if (self->kind != LOOM_BACKUP_ENTRY_FILE || self->remaining == 0 || count == 0)
    return 0;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      self->failed = TRUE;
      return -1;
    }
  count = (gsize)MIN ((guint64)MIN (count, (gsize)G_MAXSSIZE), self->remaining);
  n = g_input_stream_read (self->stream, buffer, count, cancellable, error);
  if (n < 0)
    {
      self->failed = TRUE;
      return -1;
    }
  if (n == 0)
    {
      refuse (self, TRUE, error, "the file’s bytes end before its size");
      return -1;
    }
  self->offset += (guint64)n;
  self->remaining -= (guint64)n;
  return n;
}
