/* loom-backup-archive.h — a package folder as one stream, and back: the plaintext inside a
 * .loombackup file. A container of our own rather than tar, so that its reader is small enough
 * to trust with hostile input and has no names longer than tar allows.
 *
 * The layout (integers big-endian):
 *   magic "LOOMPKG1" (8 bytes);
 *   entries, each: kind (1 byte: 1 folder, 2 file, 0 the end), the path's length (2 bytes),
 *     the path (UTF-8, relative, '/'-separated), and for a file its size (8 bytes) and bytes;
 *   the end entry (kind 0, length 0); nothing after it.
 * The writer puts manifest.json first, then the other entries, a folder before what it holds,
 * in sorted order. The reader refuses, with LOOM_ERROR_CORRUPT naming the entry and its offset
 * in the plaintext: an unknown kind, a path that is empty, absolute, has an empty, "." or ".."
 * component, a NUL or a backslash, is not UTF-8, is longer than 4,096 bytes or deeper than 64
 * folders; an entry whose folder was not listed before it, a path listed twice, more than
 * 1,000,000 entries, a stream that ends before the end entry or goes on after it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LOOM_BACKUP_ARCHIVE_MAGIC "LOOMPKG1"

typedef enum
{
  LOOM_BACKUP_ENTRY_END = 0,
  LOOM_BACKUP_ENTRY_FOLDER = 1,
  LOOM_BACKUP_ENTRY_FILE = 2,
} LoomBackupEntryKind;

/* Writes the package folder open at @dir_fd, everything below it, into @stream (which it does
 * not close). A symbolic link or anything but a regular file or a folder is an error: packages
 * hold none. Sets @n_files and @n_bytes (either may be NULL) to the files and their bytes. */
gboolean loom_backup_archive_write (int            dir_fd,
                                    GOutputStream *stream,
                                    guint         *n_files,
                                    guint64       *n_bytes,
                                    GCancellable  *cancellable,
                                    GError       **error);

typedef struct _LoomBackupArchiveReader LoomBackupArchiveReader;

/* @name (the .loombackup's path) is for the errors. */
LoomBackupArchiveReader *loom_backup_archive_reader_new (GInputStream *stream,
                                                         const char   *name);
void                     loom_backup_archive_reader_free (LoomBackupArchiveReader *self);

/* Moves to the next entry (skipping what was not read of a file's bytes) and sets @kind, @path
 * (valid until the next call) and, for a file, @size. Returns FALSE with @kind
 * LOOM_BACKUP_ENTRY_END and no error at the end. */
gboolean loom_backup_archive_reader_next (LoomBackupArchiveReader *self,
                                          LoomBackupEntryKind     *kind,
                                          const char             **path,
                                          guint64                 *size,
                                          GCancellable            *cancellable,
                                          GError                 **error);
/* Reads up to @count bytes of the current file; 0 at its end. */
gssize   loom_backup_archive_reader_read (LoomBackupArchiveReader *self,
                                          void                    *buffer,
                                          gsize                    count,
                                          GCancellable            *cancellable,
                                          GError                 **error);

/* Reads the whole container from @stream and creates its entries below the empty folder open at
 * @dir_fd, each reached one component at a time without following links and created with
 * O_EXCL, so nothing lands outside it. Stops at the first error, leaving what it created for
 * the caller to remove with the folder. */
gboolean loom_backup_archive_extract (GInputStream *stream,
                                      const char   *name,
                                      int           dir_fd,
                                      GCancellable *cancellable,
                                      GError      **error);

/* Reads the whole container and checks it against the manifest.json it starts with, without
 * writing anything: every file the manifest lists is there with its size and SHA-256, and
 * nothing is there that it does not list (manifest.json aside). LOOM_ERROR_CORRUPT naming the
 * file otherwise. Sets @n_files (may be NULL) to the files read. */
gboolean loom_backup_archive_verify (GInputStream *stream,
                                     const char   *name,
                                     guint        *n_files,
                                     GCancellable *cancellable,
                                     GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomBackupArchiveReader, loom_backup_archive_reader_free)

G_END_DECLS
