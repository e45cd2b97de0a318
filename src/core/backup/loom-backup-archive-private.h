/* loom-backup-archive-private.h — what the container's writer, reader, extract and verify share:
 * its limits, the check of an entry's path, and the form of its errors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-backup-archive.h"

G_BEGIN_DECLS

#define LOOM_BACKUP_ARCHIVE_MAGIC_SIZE  8
#define LOOM_BACKUP_ARCHIVE_MAX_PATH    4096
#define LOOM_BACKUP_ARCHIVE_MAX_DEPTH   64
#define LOOM_BACKUP_ARCHIVE_MAX_ENTRIES 1000000
/* What is read or written at once: a file's bytes stream through a buffer of this size. */
#define LOOM_BACKUP_ARCHIVE_CHUNK       (64 * 1024)

/* NULL when the @length bytes of @path may be an entry's path, else what is wrong with it, as
 * the end of a sentence. The writer asks it too, so that it never writes what the reader
 * refuses. */
const char *loom_backup_archive_path_problem (const char *path,
                                              gsize       length);

/* Whether the @length bytes of @path may be shown in a message: UTF-8 without a NUL. */
gboolean loom_backup_archive_path_printable (const char *path,
                                             gsize       length);

/* Where the current entry begins in the plaintext, for the errors of extract and verify. */
guint64     loom_backup_archive_reader_get_entry_offset (LoomBackupArchiveReader *self);
const char *loom_backup_archive_reader_get_name (LoomBackupArchiveReader *self);

/* Sets a LOOM_ERROR_CORRUPT error that names the container @name, the entry @path (NULL when
 * unknown or not printable) and the @offset in the plaintext, then says what is wrong. */
gboolean loom_backup_archive_set_corrupt (GError    **error,
                                          const char *name,
                                          const char *path,
                                          guint64     offset,
                                          const char *format,
                                          ...) G_GNUC_PRINTF (5,
                                                              6);

G_END_DECLS
