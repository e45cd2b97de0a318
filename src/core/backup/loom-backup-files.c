/* loom-backup-files.c — staging, cleaning up and publishing the files of backups.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "loom-backup-files.h"
#include "loom-error.h"

#define STAGING_FOLDER         "staging"
#define STAGING_NAME           "intentloom-history-staging"
/* Room for a package at its caps (200 MB of artifacts) several times over. */
#define STAGING_MIN_FREE_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define STALE_STAGING_SECS     (60 * 60)
#define MAX_SUFFIX             99

static gboolean
set_errno_error (GError    **error,
                 int         saved_errno,
                 const char *what,
                 const char *path)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not %s “%s”: %s", what, path,
               g_strerror (saved_errno));
  return FALSE;
}

static void
remove_tree_at (int         parent_fd,
                const char *name)
{
  struct stat st;
  int         fd;
  DIR        *dir;

  if (fstatat (parent_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return;
  if (!S_ISDIR (st.st_mode))
    {
      unlinkat (parent_fd, name, 0);
      return;
    }
  if ((fd = openat (parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    return;
  if (!(dir = fdopendir (fd)))
    {
      close (fd);
      return;
    }
  for (struct dirent *entry; (entry = readdir (dir)) != NULL;)
    if (!g_str_equal (entry->d_name, ".") && !g_str_equal (entry->d_name, ".."))
      remove_tree_at (dirfd (dir), entry->d_name);
  closedir (dir);
  unlinkat (parent_fd, name, AT_REMOVEDIR);
}

void
loom_backup_remove_tree (const char *path)
{
  g_autofree char *parent = NULL;
  g_autofree char *name = NULL;
  int              parent_fd;

  g_return_if_fail (path != NULL);

  parent = g_path_get_dirname (path);
  name = g_path_get_basename (path);
  if ((parent_fd = open (parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return;
  remove_tree_at (parent_fd, name);
  close (parent_fd);
}

/* A killed export or restore leaves its staging behind; one still running is younger than
 * this, as a staging lives for the time of one package. */
static void
remove_stale_stagings (const char *staging)
{
  g_autoptr (GDir) dir = g_dir_open (staging, 0, NULL);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  for (const char *name; dir != NULL && (name = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *path = g_build_filename (staging, name, NULL);
      GStatBuf         st;

      if (g_lstat (path, &st) == 0 && now - st.st_mtime > STALE_STAGING_SECS)
        loom_backup_remove_tree (path);
    }
}

/* Whether @path is a folder on a filesystem in memory with room for a large package. */
static gboolean
is_roomy_tmpfs (const char *path)
{
  struct statfs fs;

  return path != NULL && statfs (path, &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
         (guint64)fs.f_bavail * (guint64)fs.f_bsize >= STAGING_MIN_FREE_BYTES;
}

/* Our folder @name in @parent, made 0700 when missing; one that is not a folder of ours alone
 * (a link, another user's, open to others) is not used. */
static char *
own_folder (const char *parent,
            const char *name)
{
  g_autofree char *path = g_build_filename (parent, name, NULL);
  struct stat      st;

  if (mkdir (path, 0700) != 0 && errno != EEXIST)
    return NULL;
  if (lstat (path, &st) != 0 || !S_ISDIR (st.st_mode) || st.st_uid != getuid () ||
      (st.st_mode & 0077) != 0)
    return NULL;
  return g_steal_pointer (&path);
}

char *
loom_backup_staging_folder (LoomStore *store,
                            GError   **error)
{
  g_autofree char *store_dir = NULL;
  g_autofree char *per_user = NULL;
  g_autofree char *base = NULL;
  const char      *runtime = g_getenv ("XDG_RUNTIME_DIR");
  char            *staging = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);

  /* In memory when there is room: the package is never on a disk, and creating and removing
   * thousands of files on a disk filesystem (ext4 scans past the inodes just freed) took half
   * the time of an encrypted sweep or restore. The runtime folder is the person's own; /dev/shm
   * is everyone's, so our folder in it is named by user and checked to be ours alone. */
  if (is_roomy_tmpfs (runtime))
    base = own_folder (runtime, STAGING_NAME);
  if (base == NULL && is_roomy_tmpfs ("/dev/shm"))
    {
      per_user = g_strdup_printf ("%s-%u", STAGING_NAME, (guint)getuid ());
      base = own_folder ("/dev/shm", per_user);
    }
  /* One folder a store, so that the stagings of two stores (two profiles, tests) stay apart. */
  if (base != NULL)
    {
      g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256,
                                                               loom_store_get_path (store), -1);

      digest[16] = '\0';
      if ((staging = own_folder (base, digest)))
        return staging;
    }

  /* Else beside the store, which holds the same text in the clear already. */
  store_dir = g_path_get_dirname (loom_store_get_path (store));
  staging = g_build_filename (store_dir, STAGING_FOLDER, NULL);
  if (g_mkdir (staging, 0700) != 0 && errno != EEXIST)
    {
      set_errno_error (error, errno, "create the staging folder", staging);
      g_free (staging);
      return NULL;
    }
  return staging;
}

char *
loom_backup_make_staging (LoomStore *store,
                          GError   **error)
{
  g_autofree char *staging = NULL;
  g_autofree char *path = NULL;

  if (!(staging = loom_backup_staging_folder (store, error)))
    return NULL;
  remove_stale_stagings (staging);

  path = g_build_filename (staging, "backup-XXXXXX", NULL);
  if (!g_mkdtemp_full (path, 0700))
    {
      set_errno_error (error, errno, "create a folder in", staging);
      return NULL;
    }
  return g_steal_pointer (&path);
}

int
loom_backup_open_folder (const char *path,
                         GError    **error)
{
  struct stat st;
  int         fd;

  if (lstat (path, &st) != 0)
    {
      if (errno == ENOENT)
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                     "The backup folder “%s” does not exist", path);
      else
        set_errno_error (error, errno, "open the backup folder", path);
      return -1;
    }
  /* As for exports: a link is refused rather than followed, the person chose a folder. */
  if (S_ISLNK (st.st_mode) || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   S_ISLNK (st.st_mode)
                     ? "The backup folder “%s” is a symbolic link; give the folder it points to"
                     : "The backup folder “%s” is not a folder",
                   path);
      return -1;
    }
  if ((fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
    set_errno_error (error, errno, "open the backup folder", path);
  return fd;
}

/* A file is named without replacing one: renameat2 (RENAME_NOREPLACE) where the filesystem has
 * it, else a hard link, which fails on an existing name too, then the temporary name removed. */
static gboolean
rename_file_no_replace (int         dir_fd,
                        const char *from,
                        const char *to)
{
#ifdef RENAME_NOREPLACE
  if (renameat2 (dir_fd, from, dir_fd, to, RENAME_NOREPLACE) == 0)
    return TRUE;
  if (errno != EINVAL && errno != ENOSYS)
    return FALSE;
#endif
  if (linkat (dir_fd, from, dir_fd, to, 0) != 0)
    return FALSE;
  unlinkat (dir_fd, from, 0);
  return TRUE;
}

char *
loom_backup_publish_file (int         dir_fd,
                          const char *dir_path,
                          const char *temp_name,
                          const char *stem,
                          const char *suffix,
                          GError    **error)
{
  for (guint n = 1; n <= MAX_SUFFIX; n++)
    {
      g_autofree char *name = n == 1 ? g_strconcat (stem, suffix, NULL)
                                     : g_strdup_printf ("%s (%u)%s", stem, n, suffix);

      if (rename_file_no_replace (dir_fd, temp_name, name))
        {
          if (fsync (dir_fd) != 0)
            g_debug ("Could not sync “%s”: %s", dir_path, g_strerror (errno));
          return g_steal_pointer (&name);
        }
      if (errno != EEXIST)
        {
          set_errno_error (error, errno, "name the backup in", dir_path);
          return NULL;
        }
    }
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS, "“%s%s” and %u more like it exist in “%s”",
               stem, suffix, MAX_SUFFIX - 1, dir_path);
  return NULL;
}
