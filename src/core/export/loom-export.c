/* loom-export.c — writing a session's package atomically.
 *
 * The package is written into a new folder of ours beside its final name, on the same
 * filesystem, made durable whole (one syncfs, below), then renamed into place in one step that
 * never replaces what exists. Everything is done relative to descriptors of the destination and of the temporary
 * folder, never by path again, so that a folder swapped for a link halfway cannot redirect the
 * writes elsewhere. A failure removes the temporary folder and the files we made in it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-export-private.h"
#include "loom-time.h"

/* How many " (N)" names are tried before the export gives up. */
#define MAX_SUFFIX        999
/* How many random temporary names are tried. */
#define MAX_TEMP_ATTEMPTS 100

typedef struct
{
  int                dest_fd;
  char              *dest_path;
  int                temp_fd;
  char              *temp_name; /* in dest_fd, NULL once published */
  LoomPackageWriter *contents;
  LoomExportFilter  *filter;
} Package;

static const char *const detail_names[] = { "messages", "tools", "full" };
static const char *const mode_names[] = { "full", "redacted", "compact" };

const char *
loom_export_detail_to_string (LoomExportDetail detail)
{
  g_return_val_if_fail ((guint)detail < G_N_ELEMENTS (detail_names), NULL);

  return detail_names[detail];
}

gboolean
loom_export_detail_from_string (const char       *text,
                                LoomExportDetail *detail)
{
  g_return_val_if_fail (detail != NULL, FALSE);

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (detail_names); i++)
    {
      if (g_str_equal (text, detail_names[i]))
        {
          *detail = (LoomExportDetail)i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
loom_export_mode_to_string (LoomExportMode mode)
{
  g_return_val_if_fail ((guint)mode < G_N_ELEMENTS (mode_names), NULL);

  return mode_names[mode];
}

gboolean
loom_export_mode_from_string (const char     *text,
                              LoomExportMode *mode)
{
  g_return_val_if_fail (mode != NULL, FALSE);

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (mode_names); i++)
    {
      if (g_str_equal (text, mode_names[i]))
        {
          *mode = (LoomExportMode)i;
          return TRUE;
        }
    }
  return FALSE;
}

void
loom_export_result_free (LoomExportResult *result)
{
  if (result == NULL)
    return;
  g_free (result->session_id);
  g_free (result->path);
  g_free (result);
}

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

/* Package */

static void
package_clear (Package *p)
{
  if (p->temp_name != NULL && p->temp_fd >= 0)
    {
      /* Only what we made ourselves is removed: the files by the names we created them with,
       * then the folder, which is empty unless someone else wrote into it (and then stays). */
      if (p->contents != NULL)
        loom_package_writer_remove (p->contents);
      if (unlinkat (p->dest_fd, p->temp_name, AT_REMOVEDIR) != 0)
        g_warning ("Could not remove the temporary folder “%s” in “%s”: %s", p->temp_name,
                   p->dest_path, g_strerror (errno));
    }
  if (p->temp_fd >= 0)
    close (p->temp_fd);
  if (p->dest_fd >= 0)
    close (p->dest_fd);
  g_clear_pointer (&p->contents, loom_package_writer_free);
  g_clear_pointer (&p->filter, loom_export_filter_free);
  g_free (p->temp_name);
  g_free (p->dest_path);
}

static gboolean
open_destination (Package    *p,
                  const char *path,
                  GError    **error)
{
  struct stat st;

  p->dest_path = g_strdup (path);
  if (lstat (path, &st) != 0)
    {
      if (errno == ENOENT)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND,
                       "The destination “%s” does not exist", path);
          return FALSE;
        }
      return set_errno_error (error, errno, "open the destination", path);
    }
  /* A link is refused rather than followed: the person chose a folder, and a package written
   * wherever a link points (perhaps changed since) is not what they chose. */
  if (S_ISLNK (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The destination “%s” is a symbolic link; give the folder it points to", path);
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The destination “%s” is not a folder", path);
      return FALSE;
    }
  p->dest_fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (p->dest_fd < 0)
    return set_errno_error (error, errno, "open the destination", path);
  return TRUE;
}

/* A new folder of ours in the destination, hidden (a leading dot) and named after the package
 * so that a person who sees it knows what it is. mkdirat () on the destination's descriptor
 * rather than g_mkdtemp_full () on a path: the folder lands where the descriptor is. */
static gboolean
make_temp_folder (Package    *p,
                  const char *name,
                  GError    **error)
{
  for (guint attempt = 0; attempt < MAX_TEMP_ATTEMPTS; attempt++)
    {
      g_autofree char *temp = g_strdup_printf (".%s.partial-%06x", name,
                                               g_random_int_range (0, 0xffffff));

      if (mkdirat (p->dest_fd, temp, 0700) != 0)
        {
          if (errno == EEXIST)
            continue;
          return set_errno_error (error, errno, "create a folder in", p->dest_path);
        }
      p->temp_name = g_steal_pointer (&temp);
      p->temp_fd = openat (p->dest_fd, p->temp_name,
                           O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (p->temp_fd < 0)
        {
          int saved = errno;

          unlinkat (p->dest_fd, p->temp_name, AT_REMOVEDIR);
          g_clear_pointer (&p->temp_name, g_free);
          return set_errno_error (error, saved, "open a new folder in", p->dest_path);
        }
      return TRUE;
    }
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS, "Could not find a free temporary name in “%s”",
               p->dest_path);
  return FALSE;
}

static gboolean
rename_no_replace (int         dir_fd,
                   const char *from,
                   const char *to)
{
#ifdef RENAME_NOREPLACE
  if (renameat2 (dir_fd, from, dir_fd, to, RENAME_NOREPLACE) == 0)
    return TRUE;
  if (errno != EINVAL && errno != ENOSYS)
    return FALSE;
#endif
  {
    struct stat st;

    /* A filesystem without RENAME_NOREPLACE: look first. renameat () still refuses a folder or
     * a file that appears meanwhile (ENOTEMPTY, ENOTDIR); only an empty folder made in that
     * instant could be replaced, and nothing would be lost with it. */
    if (fstatat (dir_fd, to, &st, AT_SYMLINK_NOFOLLOW) == 0)
      {
        errno = EEXIST;
        return FALSE;
      }
    if (errno != ENOENT)
      return FALSE;
    return renameat (dir_fd, from, dir_fd, to) == 0;
  }
}

/* Renames the finished folder to @name, or "@name (2)", "(3)"… when that exists. */
static char *
publish (Package    *p,
         const char *name,
         gboolean    durable,
         GError    **error)
{
  /* The rename must not reach the disk before the package's files and folders. One syncfs of
   * the destination's filesystem makes all of them durable at once, where an fsync of each file
   * and folder waits for the disk as many times: a package of a few hundred small files was
   * written ten times slower so. It reports a failed write-back of any of them (Linux 5.8). */
  if (durable && syncfs (p->temp_fd) != 0)
    {
      set_errno_error (error, errno, "write", p->temp_name);
      return NULL;
    }

  for (guint n = 1; n <= MAX_SUFFIX; n++)
    {
      g_autofree char *final = n == 1 ? g_strdup (name) : g_strdup_printf ("%s (%u)", name, n);

      if (rename_no_replace (p->dest_fd, p->temp_name, final))
        {
          g_clear_pointer (&p->temp_name, g_free);
          /* The rename itself is made durable with the destination's entry. */
          if (durable && fsync (p->dest_fd) != 0)
            g_debug ("Could not sync “%s”: %s", p->dest_path, g_strerror (errno));
          return g_steal_pointer (&final);
        }
      if (errno != EEXIST && errno != ENOTEMPTY && errno != ENOTDIR)
        {
          set_errno_error (error, errno, "name the package in", p->dest_path);
          return NULL;
        }
    }
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS, "“%s” and %u more like it exist in “%s”", name,
               MAX_SUFFIX - 1, p->dest_path);
  return NULL;
}

static gboolean
check_options (const LoomExportOptions *options,
               GError                 **error)
{
  if ((guint)options->detail >= G_N_ELEMENTS (detail_names))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT, "Unknown detail level %d",
                   (int)options->detail);
      return FALSE;
    }
  if ((guint)options->mode >= G_N_ELEMENTS (mode_names))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT, "Unknown export mode %d",
                   (int)options->mode);
      return FALSE;
    }
  /* 0 is the default budget; below the least, the header alone would not fit. */
  if (options->mode == LOOM_EXPORT_MODE_COMPACT && options->budget != 0 &&
      (options->budget < LOOM_EXPORT_MIN_BUDGET || options->budget > LOOM_EXPORT_MAX_BUDGET))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "A token budget of %u is out of bounds: give from %u to %u tokens",
                   options->budget, LOOM_EXPORT_MIN_BUDGET, LOOM_EXPORT_MAX_BUDGET);
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_export_session (LoomStore               *store,
                     const char              *session_id,
                     const char              *destination_dir,
                     const LoomExportOptions *options,
                     LoomExportResult       **result,
                     GCancellable            *cancellable,
                     GError                 **error)
{
  static const LoomExportOptions defaults = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomSession) session = NULL;
  g_autofree char *redacted_title = NULL;
  g_autofree char *name = NULL;
  g_autofree char *final = NULL;
  const char      *title;
  Package          p = { .dest_fd = -1, .temp_fd = -1 };
  gboolean         began_read;
  gboolean         ok = FALSE;

  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);
  g_return_val_if_fail (destination_dir != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    options = &defaults;
  if (!check_options (options, error))
    return FALSE;
  if (!(session = loom_store_get_session (store, session_id, error)))
    return FALSE;

  p.filter = loom_export_filter_new (options->mode);
  /* The folder's name shows the title as the package does: a secret pasted as the first prompt
   * is often the title too. */
  redacted_title = loom_export_filter_title (p.filter, loom_session_get_title (session));
  title = redacted_title != NULL ? redacted_title : loom_session_get_title (session);
  name = loom_export_package_name (title, loom_session_get_created_at (session));
  if (!open_destination (&p, destination_dir, error) || !make_temp_folder (&p, name, error))
    goto out;

  /* One snapshot for the whole package, sub-agents included. */
  if (!loom_store_begin_read (store, &began_read, error))
    goto out;
  p.contents = loom_package_writer_write (store, session, p.temp_fd, options, p.filter, cancellable,
                                          error);
  loom_store_end_read (store, began_read);
  if (p.contents == NULL)
    goto out;

  if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
      !(final = publish (&p, name, !options->transient, error)))
    goto out;

  if (result != NULL)
    {
      LoomExportResult *r = g_new0 (LoomExportResult, 1);

      r->session_id = g_strdup (loom_session_get_uuid (session));
      r->path = g_build_filename (destination_dir, final, NULL);
      r->n_files = loom_package_writer_get_n_files (p.contents);
      r->n_bytes = loom_package_writer_get_n_bytes (p.contents);
      r->n_artifacts = loom_package_writer_get_n_artifacts (p.contents);
      r->n_artifacts_missing = loom_package_writer_get_n_artifacts_missing (p.contents);
      r->n_subagents = loom_package_writer_get_n_subagents (p.contents);
      r->n_redactions = loom_package_writer_get_n_redactions (p.contents);
      *result = r;
    }
  ok = TRUE;

out:
  package_clear (&p);
  return ok;
}

/* Async */

typedef struct
{
  char             *db_path;
  char             *session_id;
  char             *destination_dir;
  LoomExportOptions options;
} ExportRequest;

static void
export_request_free (ExportRequest *request)
{
  g_free (request->db_path);
  g_free (request->session_id);
  g_free (request->destination_dir);
  g_free (request);
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportRequest *request = task_data;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  LoomExportResult *result = NULL;

  /* A connection of the thread's own: a LoomStore is used by one thread at a time, and the
   * caller's stays free for the window meanwhile. */
  if (!(store = loom_store_open (request->db_path, &error)) ||
      !loom_export_session (store, request->session_id, request->destination_dir, &request->options,
                            &result, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, (GDestroyNotify)loom_export_result_free);
}

void
loom_export_session_async (LoomStore               *store,
                           const char              *session_id,
                           const char              *destination_dir,
                           const LoomExportOptions *options,
                           GCancellable            *cancellable,
                           GAsyncReadyCallback      callback,
                           gpointer                 user_data)
{
  static const LoomExportOptions defaults = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (GTask) task = NULL;
  ExportRequest *request;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (session_id != NULL);
  g_return_if_fail (destination_dir != NULL);

  request = g_new0 (ExportRequest, 1);
  request->db_path = g_strdup (loom_store_get_path (store));
  request->session_id = g_strdup (session_id);
  request->destination_dir = g_strdup (destination_dir);
  request->options = options != NULL ? *options : defaults;

  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_export_session_async);
  g_task_set_task_data (task, request, (GDestroyNotify)export_request_free);
  g_task_run_in_thread (task, export_thread);
}

LoomExportResult *
loom_export_session_finish (LoomStore    *store,
                            GAsyncResult *result,
                            GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_export_session_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
