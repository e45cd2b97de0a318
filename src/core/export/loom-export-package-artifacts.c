/* loom-export-package-artifacts.c — a package's artifacts/ folder.
 *
 *   artifacts/files/<path below the workspace>   the files the session touched, as they are now
 *   artifacts/changes/NNN-<name>.diff            each change the session made, as it recorded it
 *
 * Copies and diffs live in two folders so that they can never meet: every name below files/
 * is the workspace's, every name below changes/ is ours. A workspace that holds a
 * changes/001-main.c.diff of its own has it copied to files/changes/001-main.c.diff, beside
 * nothing of ours. Both folders are always there, empty when there is nothing to put in them,
 * so that a reader (and the import of a package) finds one layout.
 *
 * The workspace is the session's cwd, opened once as a descriptor without following a link in
 * its last component; every copy walks from that descriptor (loom_artifact_copy ()), so a path
 * the transcript names cannot lead out of it. A session without a workspace, or whose workspace
 * is not on this machine, still gets its package: every file it touched is listed, none copied,
 * each with its reason. Only what we made is removed when the export fails, by walking the
 * same folders again without following links.
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
#include "loom-export-artifacts.h"
#include "loom-export-private.h"

#define ARTIFACTS_FOLDER "artifacts"
#define FILES_FOLDER     "files"
#define CHANGES_FOLDER   "changes"

/* The status of a file whose copy found its name taken in the package: on a destination that
 * ignores case (an exFAT stick), "README" and "readme" of one workspace are one name. */
#define STATUS_NAME_TAKEN     "name-taken"
/* The status of a file a redacted package leaves out because its path holds a secret: a name
 * cannot be redacted and still be the file's. */
#define STATUS_SECRET_IN_NAME "secret-in-name"

typedef struct
{
  LoomTouchedPath *touched;
  const char      *status; /* the manifest's word */
  LoomArtifactInfo info;
} ArtifactRecord;

struct _LoomPackageArtifacts
{
  int         package_fd; /* borrowed: the package's folder */
  int         artifacts_fd;
  int         files_fd;
  int         changes_fd;
  gboolean    made_artifacts;
  gboolean    made_files;
  gboolean    made_changes;
  GPtrArray  *records;    /* ArtifactRecord, one per touched path, in the session's order */
  GPtrArray  *copies;     /* ArtifactRecord in records that were copied */
  GPtrArray  *folders;    /* below files/, the copies' folders, each after its parent */
  GHashTable *folder_set; /* the same, to add each once */
  GPtrArray  *changes;    /* LoomArtifactChange, their texts freed once written */
  GPtrArray  *diffs;      /* LoomExportFile in changes/, as many as were created */
  guint       n_missing;  /* touched but not copied, whatever the reason */
  guint64     n_bytes;    /* of the copies and the diffs */
};

static void
artifact_record_free (ArtifactRecord *record)
{
  loom_touched_path_free (record->touched);
  loom_artifact_info_clear (&record->info);
  g_free (record);
}

static LoomPackageArtifacts *
package_artifacts_new (int package_fd)
{
  LoomPackageArtifacts *self = g_new0 (LoomPackageArtifacts, 1);

  self->package_fd = package_fd;
  self->artifacts_fd = self->files_fd = self->changes_fd = -1;
  self->records = g_ptr_array_new_with_free_func ((GDestroyNotify)artifact_record_free);
  self->copies = g_ptr_array_new ();
  self->folders = g_ptr_array_new_with_free_func (g_free);
  self->folder_set = g_hash_table_new (g_str_hash, g_str_equal);
  self->changes = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_artifact_change_free);
  self->diffs = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_export_file_free);
  return self;
}

void
loom_package_artifacts_free (LoomPackageArtifacts *self)
{
  if (self == NULL)
    return;
  if (self->artifacts_fd >= 0)
    close (self->artifacts_fd);
  if (self->files_fd >= 0)
    close (self->files_fd);
  if (self->changes_fd >= 0)
    close (self->changes_fd);
  g_ptr_array_unref (self->copies);
  g_ptr_array_unref (self->records);
  g_hash_table_unref (self->folder_set);
  g_ptr_array_unref (self->folders);
  g_ptr_array_unref (self->changes);
  g_ptr_array_unref (self->diffs);
  g_free (self);
}

/* Folders */

/* A new folder @name in @parent_fd, opened; @made says whether it was made, for the removal. */
static gboolean
make_folder (int         parent_fd,
             const char *name,
             const char *shown,
             int        *fd,
             gboolean   *made,
             GError    **error)
{
  /* Never EEXIST: the package's folder is new and ours, so anything there was planted. */
  if (mkdirat (parent_fd, name, 0755) != 0)
    return loom_export_set_io_error (error, errno, "create", shown);
  *made = TRUE;
  *fd = openat (parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (*fd < 0)
    return loom_export_set_io_error (error, errno, "open", shown);
  return TRUE;
}

/* The folder @relative below @dir_fd, walked a component at a time without following a link:
 * our own folders, but walked as the copy walks them, so that a link put in their place
 * meanwhile leads nowhere. */
static int
open_folder_below (int         dir_fd,
                   const char *relative)
{
  g_auto (GStrv) parts = g_strsplit (relative, "/", -1);
  int fd = fcntl (dir_fd, F_DUPFD_CLOEXEC, 3);

  for (guint i = 0; fd >= 0 && parts[i] != NULL; i++)
    {
      int next = openat (fd, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      int saved = errno;

      close (fd);
      fd = next;
      errno = saved;
    }
  return fd;
}

/* Removes the file or empty folder @relative below @dir_fd. */
static void
remove_below (int         dir_fd,
              const char *relative,
              gboolean    folder)
{
  g_autofree char *parent = g_path_get_dirname (relative);
  g_autofree char *name = g_path_get_basename (relative);
  int              fd = g_str_equal (parent, ".") ? fcntl (dir_fd, F_DUPFD_CLOEXEC, 3)
                                                  : open_folder_below (dir_fd, parent);

  if (fd < 0)
    return;
  if (unlinkat (fd, name, folder ? AT_REMOVEDIR : 0) != 0)
    g_debug ("Could not remove “%s” from the package: %s", relative, g_strerror (errno));
  close (fd);
}

/* Adds the folders of the copy @relative (below files/) to those to sync and to remove. */
static void
add_copy_folders (LoomPackageArtifacts *self,
                  const char           *relative)
{
  for (const char *slash = strchr (relative, '/'); slash != NULL; slash = strchr (slash + 1, '/'))
    {
      g_autofree char *folder = g_strndup (relative, (gsize)(slash - relative));

      if (!g_hash_table_contains (self->folder_set, folder))
        {
          g_hash_table_add (self->folder_set, folder);
          g_ptr_array_add (self->folders, g_steal_pointer (&folder));
        }
    }
}

void
loom_package_artifacts_remove (LoomPackageArtifacts *self)
{
  g_return_if_fail (self != NULL);

  if (self->files_fd >= 0)
    {
      for (guint i = self->copies->len; i-- > 0;)
        {
          ArtifactRecord *record = self->copies->pdata[i];

          remove_below (self->files_fd, record->info.relative_path, FALSE);
        }
      /* Children were added after their parents: backwards, each is empty when its turn
       * comes. */
      for (guint i = self->folders->len; i-- > 0;)
        remove_below (self->files_fd, self->folders->pdata[i], TRUE);
    }
  if (self->changes_fd >= 0)
    for (guint i = 0; i < self->diffs->len; i++)
      unlinkat (self->changes_fd, loom_export_file_get_name (self->diffs->pdata[i]), 0);
  if (self->made_files)
    unlinkat (self->artifacts_fd, FILES_FOLDER, AT_REMOVEDIR);
  if (self->made_changes)
    unlinkat (self->artifacts_fd, CHANGES_FOLDER, AT_REMOVEDIR);
  if (self->made_artifacts)
    unlinkat (self->package_fd, ARTIFACTS_FOLDER, AT_REMOVEDIR);
  g_ptr_array_set_size (self->copies, 0);
  g_ptr_array_set_size (self->diffs, 0);
  self->made_files = self->made_changes = self->made_artifacts = FALSE;
}

/* The workspace */

/* The session's workspace as a descriptor, or -1 with the reason none of its files can be
 * copied. */
static int
open_workspace (const char *cwd,
                char      **reason)
{
  struct stat st;
  int         fd;

  if (cwd == NULL || *cwd == '\0')
    {
      *reason = g_strdup ("the session recorded no workspace");
      return -1;
    }
  /* A relative one would be taken from wherever we run. */
  if (!g_path_is_absolute (cwd))
    {
      *reason = g_strdup_printf ("the session's workspace “%s” is not an absolute path", cwd);
      return -1;
    }
  /* O_NOFOLLOW: the workspace is the folder the agent ran in, not wherever a link by its name
   * points now. */
  fd = open (cwd, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0)
    return fd;
  if (lstat (cwd, &st) == 0 && S_ISLNK (st.st_mode))
    *reason = g_strdup_printf ("the session's workspace “%s” is a symbolic link", cwd);
  else if (errno == ENOENT)
    *reason = g_strdup_printf ("the session's workspace “%s” is not on this machine", cwd);
  else if (errno == ENOTDIR)
    *reason = g_strdup_printf ("the session's workspace “%s” is not a folder", cwd);
  else
    *reason = g_strdup_printf ("could not open the session's workspace “%s”: %s", cwd,
                               g_strerror (errno));
  return -1;
}

/* What a file becomes without a workspace to copy it from. */
static void
record_uncopied (ArtifactRecord *record,
                 const char     *cwd,
                 const char     *reason)
{
  const char *workspace = cwd != NULL && g_path_is_absolute (cwd) ? cwd : NULL;

  record->info.relative_path = loom_artifact_resolve_path (record->touched->path, workspace);
  if (record->info.relative_path == NULL)
    {
      record->info.status = LOOM_ARTIFACT_OUTSIDE_WORKSPACE;
      record->info.detail = g_strdup ("not inside the session's workspace");
    }
  else
    {
      record->info.status = LOOM_ARTIFACT_MISSING;
      record->info.detail = g_strdup (reason);
    }
  record->status = loom_artifact_status_to_string (record->info.status);
}

static gboolean
copy_one (LoomPackageArtifacts *self,
          int                   workspace_fd,
          const char           *cwd,
          LoomArtifactLimits   *limits,
          ArtifactRecord       *record,
          GCancellable         *cancellable,
          GError              **error)
{
  g_autoptr (GError) local = NULL;

  if (!loom_artifact_copy (workspace_fd, record->touched->path, cwd, self->files_fd, limits,
                           &record->info, cancellable, &local))
    {
      if (!g_error_matches (local, LOOM_ERROR, LOOM_ERROR_EXISTS))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      /* Nothing of this copy was written; the package goes on without it. */
      record->info.status = LOOM_ARTIFACT_UNREADABLE;
      record->status = STATUS_NAME_TAKEN;
      g_free (record->info.detail);
      record->info.detail = g_strdup ("another file of the package has this name on the "
                                      "destination's filesystem");
      return TRUE;
    }
  record->status = loom_artifact_status_to_string (record->info.status);
  if (record->info.status == LOOM_ARTIFACT_COPIED)
    {
      g_ptr_array_add (self->copies, record);
      add_copy_folders (self, record->info.relative_path);
      self->n_bytes += record->info.size;
    }
  return TRUE;
}

static void
record_secret_in_name (ArtifactRecord *record,
                       const char     *cwd)
{
  const char *workspace = cwd != NULL && g_path_is_absolute (cwd) ? cwd : NULL;

  record->info.relative_path = loom_artifact_resolve_path (record->touched->path, workspace);
  record->info.status = LOOM_ARTIFACT_UNREADABLE;
  record->info.detail = g_strdup ("its path holds a secret, and a redacted package does not "
                                  "write it");
  record->status = STATUS_SECRET_IN_NAME;
}

/* A diff's name in a redacted package: its own, "NNN-<file>.diff", unless the file's name holds
 * a secret; then "NNN-redacted.diff", which keeps its place in the order. */
static void
redact_change_name (LoomArtifactChange *change,
                    LoomExportFilter   *filter)
{
  const char *dash = strchr (change->name, '-');

  if (!loom_export_filter_finds_secret (filter, change->name))
    return;
  {
    g_autofree char *number = dash != NULL ? g_strndup (change->name, (gsize)(dash - change->name))
                                           : g_strdup ("000");

    g_free (change->name);
    change->name = g_strdup_printf ("%s-redacted.diff", number);
  }
}

static gboolean
write_change (LoomPackageArtifacts *self,
              LoomArtifactChange   *change,
              LoomExportFilter     *filter,
              GCancellable         *cancellable,
              GError              **error)
{
  g_autofree char *redacted = NULL;
  LoomExportFile  *file;
  const char      *diff;

  redact_change_name (change, filter);
  diff = loom_export_filter_apply (filter, change->diff, &redacted);
  if (!(file = loom_export_file_create (self->changes_fd, change->name, cancellable, error)))
    return FALSE;
  /* Listed as soon as it exists, so that a failure while writing it removes it too. */
  g_ptr_array_add (self->diffs, file);
  if (!loom_export_file_write (file, diff, -1, error) || !loom_export_file_close (file, error))
    return FALSE;
  self->n_bytes += loom_export_file_get_size (file);
  /* The manifest needs its name, path and kind, not the text again. */
  g_clear_pointer (&change->diff, g_free);
  return TRUE;
}

LoomPackageArtifacts *
loom_package_artifacts_write (LoomStore               *store,
                              LoomSession             *session,
                              int                      package_fd,
                              const LoomExportOptions *options,
                              LoomExportFilter        *filter,
                              GCancellable            *cancellable,
                              GError                 **error)
{
  LoomPackageArtifacts *self;
  g_autoptr (GPtrArray) touched = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char   *reason = NULL;
  const char        *uuid = loom_session_get_uuid (session);
  const char        *cwd = loom_session_get_cwd (session);
  LoomArtifactLimits limits;
  int                workspace_fd = -1;
  gboolean           ok = FALSE;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (LOOM_IS_SESSION (session), NULL);
  g_return_val_if_fail (package_fd >= 0, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  loom_artifact_limits_init (&limits);
  if (options->max_artifact_size > 0)
    limits.max_file_size = options->max_artifact_size;
  if (options->max_artifacts_size > 0)
    limits.max_total_size = options->max_artifacts_size;
  /* A binary file cannot be searched for secrets, so a redacted package leaves them out. */
  limits.exclude_binary = loom_export_filter_redacts (filter);
  if (loom_export_filter_redacts (filter))
    {
      limits.transform = loom_export_filter_bytes;
      limits.transform_data = filter;
    }

  self = package_artifacts_new (package_fd);
  if (!make_folder (package_fd, ARTIFACTS_FOLDER, ARTIFACTS_FOLDER, &self->artifacts_fd,
                    &self->made_artifacts, error))
    goto out;
  if (!loom_export_list_artifacts (store, uuid, cwd, &touched, &changes, error))
    goto out;

  /* files/ and changes/ only when something may go in them: an empty folder tells nothing
   * the manifest does not, and costs the filesystem an inode and a block in each package. */
  workspace_fd = open_workspace (cwd, &reason);
  if (workspace_fd >= 0 && touched->len > 0 &&
      !make_folder (self->artifacts_fd, FILES_FOLDER, ARTIFACTS_FOLDER "/" FILES_FOLDER,
                    &self->files_fd, &self->made_files, error))
    goto out;
  if (changes->len > 0 &&
      !make_folder (self->artifacts_fd, CHANGES_FOLDER, ARTIFACTS_FOLDER "/" CHANGES_FOLDER,
                    &self->changes_fd, &self->made_changes, error))
    goto out;
  for (guint i = 0; i < touched->len; i++)
    {
      ArtifactRecord *record = g_new0 (ArtifactRecord, 1);

      record->touched = g_steal_pointer (&touched->pdata[i]);
      g_ptr_array_add (self->records, record);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      loom_export_report (options, uuid, "artifacts", record->touched->path, i, touched->len);
      if (workspace_fd < 0)
        record_uncopied (record, cwd, reason);
      else if (loom_export_filter_finds_secret (filter, record->touched->path))
        record_secret_in_name (record, cwd);
      else if (!copy_one (self, workspace_fd, cwd, &limits, record, cancellable, error))
        goto out;
      if (record->info.status != LOOM_ARTIFACT_COPIED)
        self->n_missing++;
    }

  for (guint i = 0; i < changes->len; i++)
    {
      LoomArtifactChange *change = g_steal_pointer (&changes->pdata[i]);

      g_ptr_array_add (self->changes, change);
      if (!write_change (self, change, filter, cancellable, error))
        goto out;
    }

  /* Made durable with the whole package before it is published (loom-export.c). */
  ok = TRUE;

out:
  if (workspace_fd >= 0)
    close (workspace_fd);
  if (!ok)
    {
      loom_package_artifacts_remove (self);
      g_clear_pointer (&self, loom_package_artifacts_free);
    }
  return self;
}

/* The manifest */

static void
add_member_string (JsonBuilder *builder,
                   const char  *name,
                   const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_record (JsonBuilder          *builder,
            const ArtifactRecord *record)
{
  const LoomArtifactInfo *info = &record->info;
  gboolean                copied = info->status == LOOM_ARTIFACT_COPIED;
  /* The size is known of a regular file that was found; of nothing else. */
  gboolean                found = copied || info->status == LOOM_ARTIFACT_TOO_LARGE ||
                                  info->status == LOOM_ARTIFACT_BINARY;
  g_autofree char        *package_path = NULL;

  json_builder_begin_object (builder);
  add_member_string (builder, "path", record->touched->path);
  json_builder_set_member_name (builder, "how");
  json_builder_begin_array (builder);
  /* One word a flag, in the flags' order: an array reads better to a program than the
   * ", "-joined text a person gets. */
  for (guint flag = 1; flag <= LOOM_ARTIFACT_TOUCH_DELETED; flag <<= 1)
    if (record->touched->how & flag)
      {
        g_autofree char *word = loom_artifact_touch_to_string ((LoomArtifactTouch)flag);

        json_builder_add_string_value (builder, word);
      }
  json_builder_end_array (builder);
  add_member_string (builder, "status", record->status);
  if (copied)
    package_path = g_build_filename (ARTIFACTS_FOLDER, FILES_FOLDER, info->relative_path, NULL);
  add_member_string (builder, "package_path", package_path);
  json_builder_set_member_name (builder, "size");
  if (found)
    json_builder_add_int_value (builder, (gint64)info->size);
  else
    json_builder_add_null_value (builder);
  add_member_string (builder, "sha256", copied ? info->sha256 : NULL);
  if (!copied)
    add_member_string (builder, "reason", info->detail != NULL ? info->detail : record->status);
  json_builder_end_object (builder);
}

void
loom_package_artifacts_build_manifest (LoomPackageArtifacts *self,
                                       JsonBuilder          *builder)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (JSON_IS_BUILDER (builder));

  json_builder_set_member_name (builder, "artifact_count");
  json_builder_add_int_value (builder, self->copies->len);
  json_builder_set_member_name (builder, "artifacts");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->records->len; i++)
    add_record (builder, self->records->pdata[i]);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "changes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->changes->len; i++)
    {
      LoomArtifactChange *change = self->changes->pdata[i];
      g_autofree char    *diff = g_build_filename (ARTIFACTS_FOLDER, CHANGES_FOLDER, change->name,
                                                   NULL);

      json_builder_begin_object (builder);
      add_member_string (builder, "diff", diff);
      add_member_string (builder, "path", change->path);
      add_member_string (builder, "kind", change->kind);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_file (JsonBuilder *builder,
          const char  *prefix,
          const char  *path,
          guint64      size,
          const char  *sha256)
{
  g_autofree char *full = g_strconcat (prefix, path, NULL);

  json_builder_begin_object (builder);
  add_member_string (builder, "path", full);
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, (gint64)size);
  add_member_string (builder, "sha256", sha256);
  json_builder_end_object (builder);
}

void
loom_package_artifacts_add_files (LoomPackageArtifacts *self,
                                  JsonBuilder          *builder,
                                  const char           *prefix)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (JSON_IS_BUILDER (builder));

  for (guint i = 0; i < self->copies->len; i++)
    {
      ArtifactRecord  *record = self->copies->pdata[i];
      g_autofree char *path = g_build_filename (ARTIFACTS_FOLDER, FILES_FOLDER,
                                                record->info.relative_path, NULL);

      add_file (builder, prefix, path, record->info.size, record->info.sha256);
    }
  for (guint i = 0; i < self->diffs->len; i++)
    {
      LoomExportFile  *file = self->diffs->pdata[i];
      g_autofree char *path = g_build_filename (ARTIFACTS_FOLDER, CHANGES_FOLDER,
                                                loom_export_file_get_name (file), NULL);

      add_file (builder, prefix, path, loom_export_file_get_size (file),
                loom_export_file_get_sha256 (file));
    }
}

guint
loom_package_artifacts_get_n_copied (LoomPackageArtifacts *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->copies->len;
}

guint
loom_package_artifacts_get_n_missing (LoomPackageArtifacts *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_missing;
}

guint
loom_package_artifacts_get_n_files (LoomPackageArtifacts *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->copies->len + self->diffs->len;
}

guint64
loom_package_artifacts_get_n_bytes (LoomPackageArtifacts *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_bytes;
}
