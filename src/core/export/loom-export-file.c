/* loom-export-file.c — one file of a package, hashed as it is written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-export-private.h"
#include "loom-sha256.h"

/* Large enough that a megabyte of tool output takes a few system calls, small enough that the
 * buffer is no concern beside the item being written. */
#define BUFFER_SIZE (64 * 1024)

struct _LoomExportFile
{
  int           fd;
  char         *name;
  GCancellable *cancellable;
  GString      *buffer;
  LoomSha256   *checksum;
  guint64       size;
  char         *sha256;
};

static gboolean
set_io_error (GError    **error,
              int         saved_errno,
              const char *what,
              const char *name)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not %s “%s”: %s", what, name,
               g_strerror (saved_errno));
  return FALSE;
}

LoomExportFile *
loom_export_file_create (int           dir_fd,
                         const char   *name,
                         GCancellable *cancellable,
                         GError      **error)
{
  LoomExportFile *self;
  int             fd;

  g_return_val_if_fail (dir_fd >= 0, NULL);
  g_return_val_if_fail (name != NULL && strchr (name, '/') == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* O_EXCL and O_NOFOLLOW: the folder is ours and new, so anything already there under this
   * name (a link planted by someone who guessed the temporary name) is refused, not followed.
   * 0600: a session's history holds what people paste into agents. */
  do
    fd = openat (dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    {
      set_io_error (error, errno, "create", name);
      return NULL;
    }

  self = g_new0 (LoomExportFile, 1);
  self->fd = fd;
  self->name = g_strdup (name);
  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  self->buffer = g_string_sized_new (BUFFER_SIZE);
  self->checksum = loom_sha256_new ();
  return self;
}

static gboolean
write_all (LoomExportFile *self,
           const char     *data,
           gsize           left,
           GError        **error)
{
  if (g_cancellable_set_error_if_cancelled (self->cancellable, error))
    return FALSE;

  while (left > 0)
    {
      gssize n = write (self->fd, data, left);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return set_io_error (error, errno, "write", self->name);
      data += n;
      left -= (gsize)n;
    }
  return TRUE;
}

static gboolean
flush (LoomExportFile *self,
       GError        **error)
{
  if (!write_all (self, self->buffer->str, self->buffer->len, error))
    return FALSE;
  g_string_truncate (self->buffer, 0);
  return TRUE;
}

gboolean
loom_export_file_write (LoomExportFile *self,
                        const char     *data,
                        gssize          length,
                        GError        **error)
{
  gsize n;

  g_return_val_if_fail (self != NULL && self->fd >= 0, FALSE);

  n = length < 0 ? strlen (data) : (gsize)length;
  loom_sha256_update (self->checksum, data, n);
  self->size += n;

  if (self->buffer->len + n > BUFFER_SIZE && !flush (self, error))
    return FALSE;
  /* A big item goes out as it is rather than copied through the buffer. */
  if (n >= BUFFER_SIZE)
    return write_all (self, data, n, error);
  g_string_append_len (self->buffer, data, n);
  return TRUE;
}

gboolean
loom_export_file_printf (LoomExportFile *self,
                         GError        **error,
                         const char     *format,
                         ...)
{
  g_autofree char *text = NULL;
  va_list          args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  return loom_export_file_write (self, text, -1, error);
}

gboolean
loom_export_file_close (LoomExportFile *self,
                        GError        **error)
{
  int fd;

  g_return_val_if_fail (self != NULL && self->fd >= 0, FALSE);

  if (!flush (self, error))
    return FALSE;
  /* Made durable with the whole package before the rename that publishes it (loom-export.c). */
  fd = self->fd;
  self->fd = -1;
  if (close (fd) != 0 && errno != EINTR)
    return set_io_error (error, errno, "write", self->name);
  self->sha256 = g_strdup (loom_sha256_get_string (self->checksum));
  return TRUE;
}

const char *
loom_export_file_get_name (LoomExportFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->name;
}

guint64
loom_export_file_get_size (LoomExportFile *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->size;
}

const char *
loom_export_file_get_sha256 (LoomExportFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->sha256;
}

void
loom_export_file_free (LoomExportFile *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  g_free (self->name);
  g_clear_object (&self->cancellable);
  g_string_free (self->buffer, TRUE);
  loom_sha256_free (self->checksum);
  g_free (self->sha256);
  g_free (self);
}
