/* loom-safe-copy.c — copying a file a session named out of its workspace, and only from there.
 *
 * Why each step is as it is:
 *  - The path is resolved as text first (loom_artifact_resolve_path ()), so that ".." and
 *    absolute paths are judged before anything is opened.
 *  - Then it is walked one component at a time with openat (O_NOFOLLOW | O_DIRECTORY) from the
 *    workspace's descriptor: a symbolic link anywhere in it stops the walk. Resolving the whole
 *    path with one open would follow a link in a middle component, out of the workspace.
 *  - The last component is looked at with fstatat (AT_SYMLINK_NOFOLLOW) before it is opened, so
 *    that a device is never opened at all (opening one can act: a tape rewinds, a terminal
 *    becomes ours), and opened O_NONBLOCK so that a FIFO swapped in meanwhile cannot hang us;
 *    fstat on the open descriptor is what decides, since the name may have changed in between.
 *  - The caps are checked on the size before reading and again while copying: a file may grow.
 *  - The destination is written with mkdirat and openat (O_CREAT | O_EXCL | O_NOFOLLOW) below
 *    its own descriptor: nothing is overwritten, and a link planted in the destination is not
 *    followed. What a failed copy created is removed again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-safe-copy.h"
#include "loom-sha256.h"

#define CHUNK_SIZE (64 * 1024)

void
loom_artifact_limits_init (LoomArtifactLimits *limits)
{
  g_return_if_fail (limits != NULL);

  limits->max_file_size = LOOM_ARTIFACT_DEFAULT_MAX_FILE_SIZE;
  limits->max_total_size = LOOM_ARTIFACT_DEFAULT_MAX_TOTAL_SIZE;
  limits->total_size = 0;
  limits->exclude_binary = FALSE;
  limits->transform = NULL;
  limits->transform_data = NULL;
}

void
loom_artifact_info_clear (LoomArtifactInfo *info)
{
  g_return_if_fail (info != NULL);

  g_clear_pointer (&info->relative_path, g_free);
  g_clear_pointer (&info->sha256, g_free);
  g_clear_pointer (&info->detail, g_free);
  memset (info, 0, sizeof *info);
}

const char *
loom_artifact_status_to_string (LoomArtifactStatus status)
{
  switch (status)
    {
    case LOOM_ARTIFACT_COPIED:
      return "copied";
    case LOOM_ARTIFACT_MISSING:
      return "missing";
    case LOOM_ARTIFACT_TOO_LARGE:
      return "too-large";
    case LOOM_ARTIFACT_OUTSIDE_WORKSPACE:
      return "outside-workspace";
    case LOOM_ARTIFACT_NOT_A_REGULAR_FILE:
      return "not-a-regular-file";
    case LOOM_ARTIFACT_SYMLINK:
      return "symlink";
    case LOOM_ARTIFACT_BINARY:
      return "binary";
    case LOOM_ARTIFACT_UNREADABLE:
      return "unreadable";
    default:
      g_return_val_if_reached ("unreadable");
    }
}

/* Path resolution, as text */

/* Pushes the components of @path onto @stack, "." dropped and ".." popping one. A ".." with
 * nothing left to pop stays at the root of an @absolute path, and fails a relative one: it
 * would climb out of the workspace. */
static gboolean
push_components (GPtrArray  *stack,
                 const char *path,
                 gboolean    absolute)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*parts[i] == '\0' || g_str_equal (parts[i], "."))
        continue;
      if (g_str_equal (parts[i], ".."))
        {
          if (stack->len == 0 && !absolute)
            return FALSE;
          if (stack->len > 0)
            g_ptr_array_remove_index (stack, stack->len - 1);
          continue;
        }
      g_ptr_array_add (stack, g_strdup (parts[i]));
    }
  return TRUE;
}

char *
loom_artifact_resolve_path (const char *path_as_recorded,
                            const char *workspace_path)
{
  g_autoptr (GPtrArray) workspace = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) path = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) relative = g_string_new (NULL);
  guint start = 0;

  g_return_val_if_fail (path_as_recorded != NULL, NULL);

  if (*path_as_recorded == '\0')
    return NULL;

  if (g_path_is_absolute (path_as_recorded))
    {
      /* An absolute path is compared with the workspace's, both without "." and "..": at the
       * root, ".." stays at the root, as the kernel has it. */
      if (workspace_path == NULL || !g_path_is_absolute (workspace_path))
        return NULL;
      push_components (workspace, workspace_path, TRUE);
      push_components (path, path_as_recorded, TRUE);
      if (path->len <= workspace->len)
        return NULL;
      for (guint i = 0; i < workspace->len; i++)
        if (!g_str_equal (g_ptr_array_index (workspace, i), g_ptr_array_index (path, i)))
          return NULL;
      start = workspace->len;
    }
  else if (!push_components (path, path_as_recorded, FALSE) || path->len == 0)
    return NULL;

  for (guint i = start; i < path->len; i++)
    {
      if (relative->len > 0)
        g_string_append_c (relative, '/');
      g_string_append (relative, g_ptr_array_index (path, i));
    }
  return g_string_free (g_steal_pointer (&relative), FALSE);
}

/* Copying */

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

static void
set_status (LoomArtifactInfo  *out,
            LoomArtifactStatus status,
            const char        *detail)
{
  out->status = status;
  g_free (out->detail);
  out->detail = g_strdup (detail);
}

/* The status of a source that would not open or stat, by its errno. */
static void
set_status_from_errno (LoomArtifactInfo *out,
                       int               dirfd,
                       const char       *name,
                       int               saved_errno)
{
  struct stat st;

  /* With O_NOFOLLOW a link is ELOOP, but some kernels say ENOTDIR when O_DIRECTORY meets a
   * link to a file: ask the name itself. */
  if (fstatat (dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK (st.st_mode))
    set_status (out, LOOM_ARTIFACT_SYMLINK, "a symbolic link is in its path");
  else if (saved_errno == ENOENT || saved_errno == ENOTDIR)
    set_status (out, LOOM_ARTIFACT_MISSING, "no such file in the workspace");
  else if (saved_errno == ELOOP)
    set_status (out, LOOM_ARTIFACT_SYMLINK, "a symbolic link is in its path");
  else
    set_status (out, LOOM_ARTIFACT_UNREADABLE, g_strerror (saved_errno));
}

static gboolean
set_io_error (GError    **error,
              int         saved_errno,
              const char *doing,
              const char *path)
{
  g_set_error (error, LOOM_ERROR, saved_errno == EEXIST ? LOOM_ERROR_EXISTS : LOOM_ERROR_IO,
               "Could not %s “%s” in the package: %s", doing, path, g_strerror (saved_errno));
  return FALSE;
}

static gssize
read_full (int   fd,
           char *buffer,
           gsize size)
{
  gsize done = 0;

  while (done < size)
    {
      gssize n = read (fd, buffer + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += (gsize)n;
    }
  return (gssize)done;
}

static gboolean
write_full (int         fd,
            const char *buffer,
            gsize       size)
{
  while (size > 0)
    {
      gssize n = write (fd, buffer, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      buffer += n;
      size -= (gsize)n;
    }
  return TRUE;
}

/* Writes @length bytes of @data, adding them to @checksum. */
static gboolean
write_chunk (int         fd,
             LoomSha256 *checksum,
             const char *data,
             gsize       length)
{
  loom_sha256_update (checksum, data, length);
  return write_full (fd, data, length);
}

/* Opens the folder holding the last of @parts, walking from @workspace_dirfd; -1 with @out's
 * status set when the walk stops. */
static int
open_source_parent (int               workspace_dirfd,
                    GStrv             parts,
                    guint             n_parts,
                    LoomArtifactInfo *out)
{
  int dirfd = fcntl (workspace_dirfd, F_DUPFD_CLOEXEC, 3);

  if (dirfd < 0)
    {
      set_status (out, LOOM_ARTIFACT_UNREADABLE, g_strerror (errno));
      return -1;
    }
  for (guint i = 0; i + 1 < n_parts; i++)
    {
      int next = openat (dirfd, parts[i], O_RDONLY | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);

      if (next < 0)
        {
          set_status_from_errno (out, dirfd, parts[i], errno);
          close_fd (&dirfd);
          return -1;
        }
      close_fd (&dirfd);
      dirfd = next;
    }
  return dirfd;
}

/* Opens the last of @parts below @dirfd as a regular file and fills @st; -1 with @out's status
 * set when it is anything else. */
static int
open_source_file (int               dirfd,
                  const char       *name,
                  struct stat      *st,
                  LoomArtifactInfo *out)
{
  int fd;

  if (fstatat (dirfd, name, st, AT_SYMLINK_NOFOLLOW) != 0)
    {
      set_status_from_errno (out, dirfd, name, errno);
      return -1;
    }
  if (S_ISLNK (st->st_mode))
    {
      set_status (out, LOOM_ARTIFACT_SYMLINK, "a symbolic link");
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      set_status (out, LOOM_ARTIFACT_NOT_A_REGULAR_FILE,
                  S_ISDIR (st->st_mode) ? "a folder" : "a device, FIFO or socket");
      return -1;
    }

  fd = openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    {
      set_status_from_errno (out, dirfd, name, errno);
      return -1;
    }
  if (fstat (fd, st) != 0 || !S_ISREG (st->st_mode))
    {
      set_status (out, LOOM_ARTIFACT_NOT_A_REGULAR_FILE, "replaced while it was opened");
      close_fd (&fd);
      return -1;
    }
  return fd;
}

/* The folders of the destination, as far as they were walked: descriptors, and whether we
 * created each, to remove them again when the copy fails. fds[i] is the folder parts[i - 1],
 * held open in fds[i - 1]; fds[0] is the destination itself. */
typedef struct
{
  GArray *fds;     /* int */
  GArray *created; /* gboolean */
} DestWalk;

static int
dest_walk_top (DestWalk *walk)
{
  return g_array_index (walk->fds, int, walk->fds->len - 1);
}

static void
dest_walk_push (DestWalk *walk,
                int       fd,
                gboolean  created)
{
  g_array_append_val (walk->fds, fd);
  g_array_append_val (walk->created, created);
}

static void
dest_walk_undo (DestWalk *walk,
                GStrv     parts)
{
  for (guint i = walk->fds->len; i-- > 1;)
    {
      close_fd (&g_array_index (walk->fds, int, i));
      if (g_array_index (walk->created, gboolean, i))
        unlinkat (g_array_index (walk->fds, int, i - 1), parts[i - 1], AT_REMOVEDIR);
    }
}

static void
dest_walk_clear (DestWalk *walk)
{
  if (walk->fds == NULL)
    return;
  for (guint i = 0; i < walk->fds->len; i++)
    close_fd (&g_array_index (walk->fds, int, i));
  g_clear_pointer (&walk->fds, g_array_unref);
  g_clear_pointer (&walk->created, g_array_unref);
}

/* Opens (making as needed) the destination's folders for all but the last of @parts. */
static gboolean
open_dest_parent (int         dest_dirfd,
                  GStrv       parts,
                  guint       n_parts,
                  const char *relative_path,
                  DestWalk   *walk,
                  GError    **error)
{
  int fd;

  walk->fds = g_array_sized_new (FALSE, FALSE, sizeof (int), n_parts);
  walk->created = g_array_sized_new (FALSE, FALSE, sizeof (gboolean), n_parts);
  if ((fd = fcntl (dest_dirfd, F_DUPFD_CLOEXEC, 3)) < 0)
    return set_io_error (error, errno, "open the folder of", relative_path);
  dest_walk_push (walk, fd, FALSE);

  for (guint i = 0; i + 1 < n_parts; i++)
    {
      int      parent = dest_walk_top (walk);
      gboolean created = mkdirat (parent, parts[i], 0755) == 0;

      if (!created && errno != EEXIST)
        return set_io_error (error, errno, "make the folder of", relative_path);
      fd = openat (parent, parts[i], O_RDONLY | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0)
        {
          int saved_errno = errno;

          if (created)
            unlinkat (parent, parts[i], AT_REMOVEDIR);
          return set_io_error (error, saved_errno, "open the folder of", relative_path);
        }
      dest_walk_push (walk, fd, created);
    }
  return TRUE;
}

static gboolean
check_caps (const LoomArtifactLimits *limits,
            guint64                   size,
            LoomArtifactInfo         *out)
{
  g_autofree char *cap = NULL;
  g_autofree char *detail = NULL;

  if (size > limits->max_file_size)
    {
      cap = g_format_size (limits->max_file_size);
      detail = g_strdup_printf ("larger than the %s a file may take", cap);
    }
  else if (size > limits->max_total_size || limits->total_size > limits->max_total_size - size)
    {
      cap = g_format_size (limits->max_total_size);
      detail = g_strdup_printf ("the package would pass its %s", cap);
    }
  else
    return TRUE;
  set_status (out, LOOM_ARTIFACT_TOO_LARGE, detail);
  return FALSE;
}

gboolean
loom_artifact_copy (int                 workspace_dirfd,
                    const char         *path_as_recorded,
                    const char         *workspace_path,
                    int                 dest_dirfd,
                    LoomArtifactLimits *limits,
                    LoomArtifactInfo   *out,
                    GCancellable       *cancellable,
                    GError            **error)
{
  g_autoptr (LoomSha256) checksum = NULL;
  g_autoptr (GByteArray) whole = NULL;
  g_auto (GStrv) parts = NULL;
  g_autofree char *buffer = NULL;
  DestWalk         walk = { 0 };
  struct stat      st;
  const char      *name;
  guint            n_parts;
  guint64          copied = 0;
  gssize           n;
  int              source_dir = -1, source = -1, dest = -1;
  gboolean         ok = FALSE;

  g_return_val_if_fail (workspace_dirfd >= 0, FALSE);
  g_return_val_if_fail (path_as_recorded != NULL, FALSE);
  g_return_val_if_fail (dest_dirfd >= 0, FALSE);
  g_return_val_if_fail (limits != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  if (!(out->relative_path = loom_artifact_resolve_path (path_as_recorded, workspace_path)))
    {
      set_status (out, LOOM_ARTIFACT_OUTSIDE_WORKSPACE, "not inside the session's workspace");
      return TRUE;
    }
  parts = g_strsplit (out->relative_path, "/", -1);
  n_parts = g_strv_length (parts);
  name = parts[n_parts - 1];

  if ((source_dir = open_source_parent (workspace_dirfd, parts, n_parts, out)) < 0 ||
      (source = open_source_file (source_dir, name, &st, out)) < 0)
    {
      close_fd (&source_dir);
      return TRUE;
    }
  close_fd (&source_dir);

  out->size = (guint64)st.st_size;
  if (!check_caps (limits, out->size, out))
    {
      close_fd (&source);
      return TRUE;
    }

  buffer = g_malloc (CHUNK_SIZE);
  if ((n = read_full (source, buffer, LOOM_ARTIFACT_SNIFF_SIZE)) < 0)
    {
      set_status (out, LOOM_ARTIFACT_UNREADABLE, g_strerror (errno));
      close_fd (&source);
      return TRUE;
    }
  out->is_binary = memchr (buffer, '\0', (gsize)n) != NULL;
  if (out->is_binary && limits->exclude_binary)
    {
      set_status (out, LOOM_ARTIFACT_BINARY, "a binary file");
      close_fd (&source);
      return TRUE;
    }

  if (!open_dest_parent (dest_dirfd, parts, n_parts, out->relative_path, &walk, error))
    goto out;
  /* Never wider than the source's own permissions: an artifact may be private. */
  dest = openat (dest_walk_top (&walk), name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                 (st.st_mode & 0644) | 0600);
  if (dest < 0)
    {
      set_io_error (error, errno, "create", out->relative_path);
      goto out;
    }

  checksum = loom_sha256_new ();
  /* A binary file is not text to rewrite: it is copied as it is, or was excluded above. */
  if (limits->transform != NULL && !out->is_binary)
    whole = g_byte_array_new ();
  while (n > 0)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      copied += (guint64)n;
      if (!check_caps (limits, copied, out))
        {
          out->size = copied;
          ok = TRUE; /* a status, not an error: it grew past a cap while it was copied */
          goto out;
        }
      if (whole != NULL)
        g_byte_array_append (whole, (const guint8 *)buffer, (guint)n);
      else if (!write_chunk (dest, checksum, buffer, (gsize)n))
        {
          set_io_error (error, errno, "write", out->relative_path);
          goto out;
        }
      if ((n = read_full (source, buffer, CHUNK_SIZE)) < 0)
        {
          set_status (out, LOOM_ARTIFACT_UNREADABLE, g_strerror (errno));
          ok = TRUE;
          goto out;
        }
    }
  if (whole != NULL)
    {
      gsize            length = 0;
      g_autofree char *rewritten = limits->transform ((const char *)whole->data, whole->len,
                                                      &length, limits->transform_data);
      gboolean written = rewritten != NULL
                           ? write_chunk (dest, checksum, rewritten, length)
                           : write_chunk (dest, checksum, (const char *)whole->data, whole->len);

      if (!written)
        {
          set_io_error (error, errno, "write", out->relative_path);
          goto out;
        }
      copied = rewritten != NULL ? length : whole->len;
    }
  if (close (dest) != 0)
    {
      set_io_error (error, errno, "write", out->relative_path);
      dest = -1;
      unlinkat (dest_walk_top (&walk), name, 0);
      goto out;
    }
  dest = -1;

  out->status = LOOM_ARTIFACT_COPIED;
  out->size = copied;
  out->sha256 = g_strdup (loom_sha256_get_string (checksum));
  limits->total_size += copied;
  close_fd (&source);
  dest_walk_clear (&walk);
  return TRUE;

out:
  /* Nothing of a copy that did not finish stays: not the file, not the folders made for it. */
  if (dest >= 0)
    {
      close_fd (&dest);
      unlinkat (dest_walk_top (&walk), name, 0);
    }
  if (walk.fds != NULL)
    dest_walk_undo (&walk, parts);
  dest_walk_clear (&walk);
  close_fd (&source);
  if (!ok)
    {
      g_clear_pointer (&out->sha256, g_free);
      out->status = LOOM_ARTIFACT_UNREADABLE;
    }
  return ok;
}
