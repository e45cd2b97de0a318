/* loom-export-artifacts.h — the files a session touched, and the changes it made to them, for
 * its package's artifacts/ folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-safe-copy.h"
#include "loom-store.h"

G_BEGIN_DECLS

/* How a session touched a file; a file touched several ways has several. */
typedef enum
{
  LOOM_ARTIFACT_TOUCH_READ = 1 << 0,
  LOOM_ARTIFACT_TOUCH_WRITTEN = 1 << 1, /* written whole, over what was there or not known */
  LOOM_ARTIFACT_TOUCH_EDITED = 1 << 2,
  LOOM_ARTIFACT_TOUCH_CREATED = 1 << 3,
  LOOM_ARTIFACT_TOUCH_DELETED = 1 << 4,
} LoomArtifactTouch;

typedef struct
{
  char             *path; /* as the session first named it */
  LoomArtifactTouch how;
} LoomTouchedPath;

void loom_touched_path_free (LoomTouchedPath *touched);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomTouchedPath, loom_touched_path_free)

/* The names of @how's flags, in the order of LoomArtifactTouch ("read", "written", "edited",
 * "created", "deleted"), joined with ", ". */
char *loom_artifact_touch_to_string (LoomArtifactTouch how);

/* The distinct files (LoomTouchedPath) the session @session_id (a uuid or an unambiguous
 * prefix) read, wrote, edited, created or deleted, in the order it first touched them: from
 * its file changes and the file-path inputs of the tools that read files (Claude Code's Read,
 * Gemini's read_file, …). Shell commands are not read for paths. With @workspace_path, two
 * spellings of one file in the workspace (absolute and relative) are one entry. */
GPtrArray *loom_export_list_touched_paths (LoomStore  *store,
                                           const char *session_id,
                                           const char *workspace_path,
                                           GError    **error);

typedef struct
{
  guint index; /* from 1, in the session's order */
  char *name;  /* the file name in artifacts/changes/: "001-main.c.diff" */
  char *path;  /* the file changed, as recorded (for a rename, where it went) */
  char *kind;  /* the change as stored: add, write, edit, insert, delete, rename */
  char *diff;  /* a unified diff, "--- " and "+++ " headers first, ending in a newline */
} LoomArtifactChange;

void loom_artifact_change_free (LoomArtifactChange *change);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomArtifactChange, loom_artifact_change_free)

/* Every change (LoomArtifactChange) the session @session_id made to a file, as a unified diff
 * built from what the agent recorded (an edit's old and new text, a patch, a written file's
 * content) through loom_timeline_format_diff (), so that the package shows what the agent did
 * even when the file has changed since. Headers name the path relative to @workspace_path when
 * it lies inside (a/… and b/…, for `patch -p1` and `git apply`), else as recorded. Hunks whose
 * place in the file was not recorded start at line 1: `patch` finds them by their context. A
 * change that recorded nothing to show is left out, but for a deletion. */
GPtrArray *loom_export_list_changes (LoomStore  *store,
                                     const char *session_id,
                                     const char *workspace_path,
                                     GError    **error);

/* Both lists in one walk of the session's events: what a package's artifacts/ needs, its
 * session read once instead of twice. */
gboolean loom_export_list_artifacts (LoomStore  *store,
                                     const char *session_id,
                                     const char *workspace_path,
                                     GPtrArray **touched,
                                     GPtrArray **changes,
                                     GError    **error);

G_END_DECLS
