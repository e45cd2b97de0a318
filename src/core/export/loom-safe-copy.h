/* loom-safe-copy.h — copying a file a session named out of its workspace, and only from there.
 *
 * The path comes from a transcript, which an agent (or whatever it read) wrote: it is untrusted.
 * The copy resolves it against the workspace, walks it one component at a time from the
 * workspace's descriptor without following any symbolic link, copies only regular files, within
 * caps, and writes only below the destination's descriptor, never over anything.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define LOOM_ARTIFACT_DEFAULT_MAX_FILE_SIZE  (10 * 1000 * 1000)
#define LOOM_ARTIFACT_DEFAULT_MAX_TOTAL_SIZE (200 * 1000 * 1000)
/* Binary detection looks for a NUL byte in this much of the start of a file. */
#define LOOM_ARTIFACT_SNIFF_SIZE             8192

/* What became of one artifact. Only COPIED wrote anything. */
typedef enum
{
  LOOM_ARTIFACT_COPIED,
  LOOM_ARTIFACT_MISSING,            /* nothing there (any more) */
  LOOM_ARTIFACT_TOO_LARGE,          /* over the per-file cap, or the package's would be */
  LOOM_ARTIFACT_OUTSIDE_WORKSPACE,  /* ".." above the workspace, or an absolute path elsewhere */
  LOOM_ARTIFACT_NOT_A_REGULAR_FILE, /* a folder, device, FIFO or socket */
  LOOM_ARTIFACT_SYMLINK,            /* a symbolic link in the path, its last component included */
  LOOM_ARTIFACT_BINARY,             /* binary, and the limits exclude binaries */
  LOOM_ARTIFACT_UNREADABLE,         /* there, but we may not read it */
} LoomArtifactStatus;

/* Rewrites the contents of a text file before they are written (the artifacts of a redacted
 * package): a new buffer of *@out_length bytes, or NULL to write them as they are. A copy that
 * has one reads the whole file first, so that a secret is never cut between two reads: the
 * per-file cap bounds what it holds. */
typedef char *(*LoomArtifactTransform) (const char *data,
                                        gsize       length,
                                        gsize      *out_length,
                                        gpointer    user_data);

/* The caps of one package. Set up with loom_artifact_limits_init (); @total_size grows with
 * each copy, so one struct serves a whole package. */
typedef struct
{
  guint64  max_file_size;          /* a larger file is TOO_LARGE */
  guint64  max_total_size;         /* a file that would take the package past this is TOO_LARGE */
  guint64  total_size;             /* bytes copied so far */
  gboolean exclude_binary;         /* binary files are then BINARY and not copied */
  LoomArtifactTransform transform; /* NULL: copied byte for byte */
  gpointer              transform_data;
} LoomArtifactLimits;

typedef struct
{
  LoomArtifactStatus status;
  char    *relative_path; /* below the workspace (and the destination); NULL when outside */
  guint64  size;          /* the file's size, when it was found */
  char    *sha256;        /* lowercase hex of what was copied; NULL unless COPIED */
  gboolean is_binary;     /* a NUL byte in its first LOOM_ARTIFACT_SNIFF_SIZE bytes */
  char    *detail;        /* why it was left out, for a person; NULL when COPIED */
} LoomArtifactInfo;

void loom_artifact_limits_init (LoomArtifactLimits *limits);
void loom_artifact_info_clear (LoomArtifactInfo *info);

/* The status as the manifest writes it: "copied", "missing", "too-large", "outside-workspace",
 * "not-a-regular-file", "symlink", "binary", "unreadable". */
const char *loom_artifact_status_to_string (LoomArtifactStatus status);

/* @path_as_recorded below the workspace @workspace_path, as a relative path with no "." or ".."
 * left and no empty components: an absolute path must lie under @workspace_path (compared as
 * text, after removing "." and ".." there too), a relative one is taken from it, and ".." may
 * not climb above it. NULL when the path leaves the workspace or names the workspace itself.
 * @workspace_path may be NULL: then only relative paths resolve. */
char *loom_artifact_resolve_path (const char *path_as_recorded,
                                  const char *workspace_path);

/* Copies the file @path_as_recorded names from the workspace (opened as @workspace_dirfd, at
 * @workspace_path) to the same relative path below @dest_dirfd, creating the folders it needs.
 * A text file goes through @limits->transform when there is one; its size and hash are then
 * those of what was written. Returns TRUE with @out filled in whatever became of it, FALSE with @error only when the
 * copy itself failed (writing the destination, a destination that already holds the path,
 * cancellation): nothing is then left of the file. @limits->total_size grows by what was
 * copied. */
gboolean loom_artifact_copy (int                 workspace_dirfd,
                             const char         *path_as_recorded,
                             const char         *workspace_path,
                             int                 dest_dirfd,
                             LoomArtifactLimits *limits,
                             LoomArtifactInfo   *out,
                             GCancellable       *cancellable,
                             GError            **error);

G_END_DECLS
