/* loom-backup-archive-writer.c — a package folder written as one container.
 *
 * The folder is walked from its descriptor, each entry looked at without following a link
 * and opened with O_NOFOLLOW: a package holds only folders and regular files, so anything else
 * is an error naming it, never something to follow out of the folder. The order is fixed
 * (manifest.json first, then every folder before what it holds, names in byte order), so that
 * the same package gives the same bytes, and verify reads the manifest before the files it
 * lists. A path the reader would refuse is refused here first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-backup-archive-private.h"
#include "loom-error.h"

#define MANIFEST "manifest.json"

typedef struct
{
  GOutputStream *stream;
  GCancellable  *cancellable;
  guint          n_entries;
  guint          n_files;
  guint64        n_bytes;
  guint8         buffer[LOOM_BACKUP_ARCHIVE_CHUNK];
} Writer;

static gboolean
set_errno_error (GError    **error,
                 int         saved_errno,
                 const char *doing,
                 const char *path)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not %s “%s” for the backup: %s", doing,
               path, g_strerror (saved_errno));
  return FALSE;
}

static gboolean
write_entry_header (Writer             *w,
                    LoomBackupEntryKind kind,
                    const char         *path,
                    guint64             size,
                    GError            **error)
{
  gsize       length = strlen (path);
  const char *problem = loom_backup_archive_path_problem (path, length);
  guint8      header[3] = { (guint8)kind, (guint8)(length >> 8), (guint8)length };
  guint8      size_bytes[8];

  if (problem != NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "“%s” cannot be put in a backup: %s",
                   loom_backup_archive_path_printable (path, length) ? path : "(a name)", problem);
      return FALSE;
    }
  if (++w->n_entries > LOOM_BACKUP_ARCHIVE_MAX_ENTRIES)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The package holds more than 1,000,000 entries: it cannot be put in a backup");
      return FALSE;
    }
  for (guint i = 0; i < sizeof size_bytes; i++)
    size_bytes[i] = (guint8)(size >> (56 - 8 * i));
  return g_output_stream_write_all (w->stream, header, sizeof header, NULL, w->cancellable,
                                    error) &&
         g_output_stream_write_all (w->stream, path, length, NULL, w->cancellable, error) &&
         (kind != LOOM_BACKUP_ENTRY_FILE ||
          g_output_stream_write_all (w->stream, size_bytes, sizeof size_bytes, NULL, w->cancellable,
                                     error));
}

/* A file changed while it was written: the size in its header would no longer hold. */
static gboolean
set_changed_error (GError    **error,
                   const char *path)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO,
               "“%s” changed while it was written into the backup", path);
  return FALSE;
}

static gboolean
write_file (Writer     *w,
            int         dir_fd,
            const char *name,
            const char *path,
            GError    **error)
{
  /* O_NONBLOCK: a FIFO swapped in after the look at it must not hang the open. */
  int         fd = openat (dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  struct stat st;
  guint64     left;
  gboolean    ok = FALSE;

  if (fd < 0)
    return set_errno_error (error, errno, "open", path);
  if (fstat (fd, &st) != 0)
    {
      set_errno_error (error, errno, "look at", path);
      goto out;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“%s” in the package is not a regular file: refused", path);
      goto out;
    }
  if (!write_entry_header (w, LOOM_BACKUP_ENTRY_FILE, path, (guint64)st.st_size, error))
    goto out;

  for (left = (guint64)st.st_size;;)
    {
      gsize   want = left > 0 ? (gsize)MIN (left, sizeof w->buffer) : 1;
      ssize_t n = read (fd, w->buffer, want);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_errno_error (error, errno, "read", path);
          goto out;
        }
      if (left == 0)
        {
          /* One byte more than its size: there must be none. */
          if (n > 0)
            {
              set_changed_error (error, path);
              goto out;
            }
          break;
        }
      if (n == 0)
        {
          set_changed_error (error, path);
          goto out;
        }
      if (!g_output_stream_write_all (w->stream, w->buffer, (gsize)n, NULL, w->cancellable, error))
        goto out;
      left -= (guint64)n;
    }
  w->n_files++;
  w->n_bytes += (guint64)st.st_size;
  ok = TRUE;

out:
  close (fd);
  return ok;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

/* The names in the folder @dir_fd, sorted; NULL with @error. */
static GPtrArray *
list_names (int         dir_fd,
            const char *path,
            GError    **error)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  /* A descriptor of its own: readdir moves the offset of the one it reads. */
  int            fd = openat (dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR           *dir;
  struct dirent *entry;

  if (fd < 0 || !(dir = fdopendir (fd)))
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      set_errno_error (error, saved, "list", path);
      return NULL;
    }
  while ((errno = 0, entry = readdir (dir)) != NULL)
    {
      if (!g_str_equal (entry->d_name, ".") && !g_str_equal (entry->d_name, ".."))
        g_ptr_array_add (names, g_strdup (entry->d_name));
    }
  if (errno != 0)
    {
      set_errno_error (error, errno, "list", path);
      closedir (dir);
      return NULL;
    }
  closedir (dir);
  g_ptr_array_sort (names, compare_names);
  return g_steal_pointer (&names);
}

static gboolean
write_folder (Writer     *w,
              int         dir_fd,
              const char *prefix,
              GError    **error)
{
  g_autoptr (GPtrArray) names = NULL;

  if (!(names = list_names (dir_fd, *prefix ? prefix : ".", error)))
    return FALSE;
  for (guint i = 0; i < names->len; i++)
    {
      const char      *name = names->pdata[i];
      g_autofree char *path = *prefix ? g_strconcat (prefix, "/", name, NULL) : g_strdup (name);
      struct stat      st;

      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
      /* Written first, by the caller. */
      if (!*prefix && g_str_equal (name, MANIFEST))
        continue;
      if (fstatat (dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return set_errno_error (error, errno, "look at", path);
      if (S_ISREG (st.st_mode))
        {
          if (!write_file (w, dir_fd, name, path, error))
            return FALSE;
        }
      else if (S_ISDIR (st.st_mode))
        {
          int      sub;
          gboolean ok;

          if (!write_entry_header (w, LOOM_BACKUP_ENTRY_FOLDER, path, 0, error))
            return FALSE;
          if ((sub = openat (dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
            return set_errno_error (error, errno, "open", path);
          ok = write_folder (w, sub, path, error);
          close (sub);
          if (!ok)
            return FALSE;
        }
      else
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT, "“%s” in the package is %s: refused",
                       path,
                       S_ISLNK (st.st_mode) ? "a symbolic link" : "not a regular file or a folder");
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
loom_backup_archive_write (int            dir_fd,
                           GOutputStream *stream,
                           guint         *n_files,
                           guint64       *n_bytes,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autofree Writer  *w = NULL;
  static const guint8 end[3] = { LOOM_BACKUP_ENTRY_END, 0, 0 };
  struct stat         st;

  g_return_val_if_fail (dir_fd >= 0, FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (fstatat (dir_fd, MANIFEST, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The folder has no “%s”: it is not a package", MANIFEST);
      return FALSE;
    }

  w = g_new0 (Writer, 1);
  w->stream = stream;
  w->cancellable = cancellable;
  if (!g_output_stream_write_all (stream, LOOM_BACKUP_ARCHIVE_MAGIC, LOOM_BACKUP_ARCHIVE_MAGIC_SIZE,
                                  NULL, cancellable, error) ||
      !write_file (w, dir_fd, MANIFEST, MANIFEST, error) || !write_folder (w, dir_fd, "", error) ||
      !g_output_stream_write_all (stream, end, sizeof end, NULL, cancellable, error))
    return FALSE;

  if (n_files != NULL)
    *n_files = w->n_files;
  if (n_bytes != NULL)
    *n_bytes = w->n_bytes;
  return TRUE;
}
