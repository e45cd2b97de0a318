/* loom-import.h — importing agent sessions into the store: the operation the CLI and the app run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-store.h"

G_BEGIN_DECLS

/* Called from the importing thread between batches: the files that changed since it was last
 * called, NULL-terminated and owned by the caller, or NULL for none. */
typedef GStrv (*LoomImportTakeChanged) (gpointer user_data);
/* Called from the importing thread once the files it took are imported and committed. */
typedef void (*LoomImportChangedDone) (gpointer user_data);

typedef struct
{
  const char           *source; /* NULL: detect each file's format from its content */
  const char *const    *paths;  /* files or folders; NULL or empty: the agents' default roots */
  /* With @paths NULL or empty, a targeted pass: of the agents' default roots, only these files
   * (absolute), each if its agent's discovery would list it; one that is gone marks its session
   * missing, and nothing else is marked. NULL: the whole roots. The file watcher's pass. */
  const char *const    *changed;
  /* Files that changed while the pass runs, imported at once, between its batches and the
   * steps of its index merge, as a targeted pass would: a long pass (a first import of months
   * of history) must not keep the session being written off the screen. NULL: none. */
  LoomImportTakeChanged take_changed;
  gpointer              take_changed_data;
  /* Tells readers (the window) that they can see those files: NULL for no one. */
  LoomImportChangedDone changed_done;
} LoomImportOptions;

typedef struct
{
  guint      files_seen;
  guint      files_imported; /* read (in part or whole) this pass */
  guint      files_unchanged;
  guint      files_failed;
  guint      sessions_touched;
  guint      sessions_new;
  guint64    messages; /* added this pass */
  guint64    events;
  guint64    records; /* JSON records read this pass */
  guint64    bytes;
  guint      sessions_missing; /* sources the agent deleted, marked so */
  GPtrArray *warnings;         /* char *: "FILE:LINE: message" */
  GPtrArray *failed_paths;     /* char *: the files not imported, each also a warning */
  /* char *: copies of those warnings that only say a file is still being written: its last
   * line incomplete, a whole-document file cut short or emptied. No record is lost: the file's
   * next pass reads the rest. The app does not count them as problems, since a live agent's
   * file is often so for a moment. */
  GPtrArray *waiting;
} LoomImportStats;

/* Called from the importing thread after each file; @done and @total are bytes. */
typedef void (*LoomImportProgress) (guint64     done,
                                    guint64     total,
                                    const char *path,
                                    gpointer    user_data);

LoomImportStats *loom_import_stats_new (void);
void             loom_import_stats_free (LoomImportStats *stats);

/* Imports synchronously into @store. Safe in a worker thread with a store of its own. */
gboolean loom_import_run (LoomStore               *store,
                          const LoomImportOptions *options,
                          LoomImportProgress       progress,
                          gpointer                 progress_data,
                          GCancellable            *cancellable,
                          LoomImportStats         *stats,
                          GError                 **error);

/* Runs loom_import_run() in a thread with its own connection to the store at @store_path. */
void             loom_import_run_async (const char              *store_path,
                                        const LoomImportOptions *options,
                                        GCancellable            *cancellable,
                                        GAsyncReadyCallback      callback,
                                        gpointer                 user_data);
LoomImportStats *loom_import_run_finish (GAsyncResult *result,
                                         GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomImportStats, loom_import_stats_free)

G_END_DECLS
