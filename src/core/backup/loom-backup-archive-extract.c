/* loom-backup-archive-extract.c — a container's entries created below a folder of ours.
 *
 * The reader has refused every path that could climb out ("..", absolute, empty components)
 * and every entry whose folder was not listed before it. Extract does not rely on that alone:
 * each entry's folder is reached from the target's descriptor one component at a time with
 * O_NOFOLLOW, and each entry is created, never opened, with O_EXCL, so that a link or a file
 * put in the target by anyone else stops the extract instead of leading it out. What it makes
 * is private (0700, 0600) until the restore has imported it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-backup-archive-private.h"
#include "loom-error.h"

static gboolean
set_errno_error (GError    **error,
                 int         saved_errno,
                 const char *doing,
                 const char *path)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not %s “%s” from the backup: %s", doing,
               path, g_strerror (saved_errno));
  return FALSE;
}

/* The folder that holds @path below @dir_fd, reached without following a link; *@leaf is the
 * last component of @path. -1 with @error otherwise. */
static int
open_parent (int          dir_fd,
             const char  *path,
             const char **leaf,
             GError     **error)
{
  g_autofree char *copy = g_strdup (path);
  char            *component = copy;
  char            *slash;
  int              fd = fcntl (dir_fd, F_DUPFD_CLOEXEC, 3);

  if (fd < 0)
    {
      set_errno_error (error, errno, "open the folder of", path);
      return -1;
    }
  while ((slash = strchr (component, '/')) != NULL)
    {
      int next;

      *slash = '\0';
      next = openat (fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (next < 0)
        {
          set_errno_error (error, errno, "open the folder of", path);
          close (fd);
          return -1;
        }
      close (fd);
      fd = next;
      component = slash + 1;
    }
  *leaf = path + (component - copy);
  return fd;
}

static gboolean
write_all_fd (int           fd,
              const guint8 *data,
              gsize         length)
{
  while (length > 0)
    {
      ssize_t n = write (fd, data, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      data += n;
      length -= (gsize)n;
    }
  return TRUE;
}

static gboolean
extract_file (LoomBackupArchiveReader *reader,
              int                      parent_fd,
              const char              *leaf,
              const char              *path,
              guint8                  *buffer,
              GCancellable            *cancellable,
              GError                 **error)
{
  int    fd = openat (parent_fd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  gssize n;

  if (fd < 0)
    return set_errno_error (error, errno, "create", path);
  while ((n = loom_backup_archive_reader_read (reader, buffer, LOOM_BACKUP_ARCHIVE_CHUNK,
                                               cancellable, error)) > 0)
    {
      if (!write_all_fd (fd, buffer, (gsize)n))
        {
          set_errno_error (error, errno, "write", path);
          close (fd);
          return FALSE;
        }
    }
  if (close (fd) != 0 && n == 0)
    return set_errno_error (error, errno, "write", path);
  return n == 0;
}

gboolean
loom_backup_archive_extract (GInputStream *stream,
                             const char   *name,
                             int           dir_fd,
                             GCancellable *cancellable,
                             GError      **error)
{
  g_autoptr (LoomBackupArchiveReader) reader = NULL;
  g_autofree guint8  *buffer = NULL;
  LoomBackupEntryKind kind;
  const char         *path;
  GError             *local = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (dir_fd >= 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reader = loom_backup_archive_reader_new (stream, name);
  buffer = g_malloc (LOOM_BACKUP_ARCHIVE_CHUNK);
  while (loom_backup_archive_reader_next (reader, &kind, &path, NULL, cancellable, &local))
    {
      const char *leaf;
      int         parent_fd = open_parent (dir_fd, path, &leaf, &local);
      gboolean    ok;

      if (parent_fd < 0)
        break;
      if (kind == LOOM_BACKUP_ENTRY_FOLDER)
        ok = mkdirat (parent_fd, leaf, 0700) == 0 ||
             set_errno_error (&local, errno, "create the folder", path);
      else
        ok = extract_file (reader, parent_fd, leaf, path, buffer, cancellable, &local);
      close (parent_fd);
      if (!ok)
        break;
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}
