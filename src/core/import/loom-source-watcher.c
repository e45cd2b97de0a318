/* loom-source-watcher.c — watching the agents' folders and importing what changes, in a thread.
 *
 * GIO monitors one folder at a time, so the watcher keeps a monitor on every folder under each
 * root (Codex nests sessions by year, month and day; Claude keeps sub-agents in a folder per
 * session), and on the nearest existing parent of a root that does not exist yet, to notice
 * when an agent is installed. Changes come in bursts (an agent appends a record per streamed
 * block), so they are gathered until the folders have been quiet for a moment, but never for
 * longer than a second: a session that grows steadily still shows up promptly.
 *
 * Each burst runs one import pass in a worker thread with a connection of its own, so the UI
 * thread never reads a file. Usually the pass is a targeted one: it imports the session files
 * the monitors reported since the last pass, each only if its agent's discovery would list it
 * (LoomImporter.claims), and marks the sessions of those that were deleted. A whole pass walks
 * every folder and stats every file and every cursor: on a history of some 13,000 files that is
 * 0.15 s of CPU, which once a second while an agent streams would burn a core for nothing.
 *
 * The whole pass stays where the reports cannot be trusted to be complete: the first pass (what
 * changed while nobody watched), after a pass that failed, when folders came or went (files in
 * a new folder may predate its monitor), when the poll for folders past the monitor limit fires
 * (nothing reports their changes), for a change under an extra folder (there each file's format
 * is told from its content, not by an agent's rules), and past MAX_TARGETED_FILES reports.
 *
 * At most one pass runs at a time; changes that arrive meanwhile are kept for one more pass
 * once it ends, and a pass that fails or is cancelled hands its files back to the next one, as
 * a pass does with each file it could not import.
 *
 * Listing the folders to monitor happens in the same thread, only when folders may have come or
 * gone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "loom-importer.h"
#include "loom-source-watcher.h"
#include "loom-store.h"

/* How long the folders must be quiet before a pass starts, and how long a steady stream of
 * changes may hold it back: together with the pass itself this keeps a change on screen
 * within two seconds. */
#define QUIET_MSEC    250
#define MAX_WAIT_MSEC 1000

/* GIO holds back repeated changes to one file for 800 ms by default; the debounce above
 * already gathers them. */
#define MONITOR_RATE_LIMIT_MSEC 100

/* inotify watches are a per-user resource shared with every other application. Past this many
 * folders, the rest are polled instead. */
#define MAX_MONITORS 16384
#define MAX_DEPTH    32
#define POLL_SECONDS 30

/* A pass that failed whole (the store locked by another writer past the busy timeout, a full
 * disk) is tried again after this long, doubling up to the longest, until one succeeds: the
 * changes it had are given back, and no other change may come to start the next pass. */
#define RETRY_FIRST_MSEC   1000
#define RETRY_LONGEST_MSEC 60000

/* A targeted pass is worth it for a few files; a burst of more (a history copied in, an agent
 * rewriting its folder) is a whole pass, and the list of reports stops growing. */
#define MAX_TARGETED_FILES 512

/* The worker reports progress at most this often. */
#define PROGRESS_INTERVAL_USEC (100 * 1000)

typedef enum
{
  WATCH_FOLDER = 1, /* a folder under a root: its session files matter */
  WATCH_PARENT,     /* the nearest parent of a missing root: only new folders matter */
} WatchKind;

typedef struct
{
  LoomSourceWatcher *watcher; /* unowned: the watcher owns the watch */
  char              *path;
  WatchKind          kind;
  GFileMonitor      *monitor;
} Watch;

struct _LoomSourceWatcher
{
  GObject parent_instance;

  char         *store_path;
  GStrv         extra_folders;
  GMainContext *context;

  GHashTable *watches;       /* folder path → Watch */
  GPtrArray  *missing_roots; /* char *: roots that do not exist (yet) */
  GHashTable *changed_files; /* session files reported since the last pass began */

  GCancellable *cancellable; /* of the pass that runs */
  guint         generation;  /* of the pass that runs, to drop late progress */
  double        progress;

  GSource     *debounce_source;
  gint64       first_change; /* monotonic µs of the oldest change not acted on, or 0 */
  gint64       last_change;
  GSource     *poll_source;
  GSource     *retry_source;
  GAsyncQueue *meanwhile;  /* the running pass's ImportJob.meanwhile */
  guint        retry_msec; /* the wait before the next retry; 0 after a pass that ran */

  guint watching : 1;
  guint importing : 1;
  guint import_queued : 1;
  guint folders_changed : 1;  /* list the folders again on the next pass */
  guint whole_pass_due : 1;   /* the next pass walks every folder */
  guint too_many_changes : 1; /* more than MAX_TARGETED_FILES since the last pass */
};

G_DEFINE_FINAL_TYPE (LoomSourceWatcher, loom_source_watcher, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_STORE_PATH,
  PROP_EXTRA_FOLDERS,
  PROP_WATCHING,
  PROP_IMPORTING,
  PROP_PROGRESS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  CHANGED,
  CHANGES_IMPORTED,
  IMPORTED,
  IMPORT_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void loom_source_watcher_request_import (LoomSourceWatcher *self);

/* Timers go to the watcher's context, like its monitors and passes; g_source_remove() would
 * look for them in the global default one. */
static GSource *
add_timeout (LoomSourceWatcher *self,
             guint              msec,
             GSourceFunc        callback)
{
  GSource *source = g_timeout_source_new (msec);

  g_source_set_callback (source, callback, self, NULL);
  g_source_set_static_name (source, "[loom] source watcher");
  g_source_attach (source, self->context);
  return source;
}

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

/* ——— The worker: list folders, then import ——— */

typedef struct
{
  char         *store_path;
  GStrv         roots;
  GStrv         extra_folders;
  GStrv         changed;   /* the files of a targeted pass; NULL for a whole one */
  GAsyncQueue  *meanwhile; /* char *: files that change while it runs */
  gboolean      list_folders;
  GMainContext *context;
  GWeakRef      watcher;
  guint         generation;
  guint         pass;
  guint         n_passes;
  gint64        last_report;
} ImportJob;

typedef struct
{
  LoomImportStats *stats;
  GError          *error;
  gboolean         listed;
  gboolean         overflowed;
  GHashTable      *folders; /* path → WatchKind */
  GPtrArray       *missing_roots;
} ImportOutcome;

/* What the worker tells the watcher during a pass: how far it got, or that the changes made
 * meanwhile are in. */
typedef struct
{
  GWeakRef watcher;
  guint    generation;
  double   fraction;
} ProgressReport;

static void
import_job_free (gpointer data)
{
  ImportJob *job = data;

  g_free (job->store_path);
  g_clear_pointer (&job->meanwhile, g_async_queue_unref);
  g_strfreev (job->roots);
  g_strfreev (job->extra_folders);
  g_strfreev (job->changed);
  g_main_context_unref (job->context);
  g_weak_ref_clear (&job->watcher);
  g_free (job);
}

static void
import_outcome_free (ImportOutcome *outcome)
{
  g_clear_pointer (&outcome->stats, loom_import_stats_free);
  g_clear_error (&outcome->error);
  g_clear_pointer (&outcome->folders, g_hash_table_unref);
  g_clear_pointer (&outcome->missing_roots, g_ptr_array_unref);
  g_free (outcome);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ImportOutcome, import_outcome_free)

static void
progress_report_free (gpointer data)
{
  ProgressReport *report = data;

  g_weak_ref_clear (&report->watcher);
  g_free (report);
}

static gboolean
is_folder (const char    *parent,
           struct dirent *entry,
           char         **path)
{
  struct stat st;

  *path = NULL;
  if (g_str_equal (entry->d_name, ".") || g_str_equal (entry->d_name, ".."))
    return FALSE;

  /* d_type spares a stat per session file; links are not followed out of the tree, as in the
   * import's own walk. */
  if (entry->d_type != DT_DIR && entry->d_type != DT_UNKNOWN)
    return FALSE;

  *path = g_build_filename (parent, entry->d_name, NULL);
  if (entry->d_type == DT_UNKNOWN && (lstat (*path, &st) != 0 || !S_ISDIR (st.st_mode)))
    {
      g_clear_pointer (path, g_free);
      return FALSE;
    }
  return TRUE;
}

/* Adds @folder and the folders below it to @folders; FALSE once there are too many. */
static gboolean
list_folders (const char *folder,
              GHashTable *folders,
              guint       depth)
{
  struct dirent *entry;
  gboolean       complete = TRUE;
  DIR           *dir;

  if (g_hash_table_size (folders) >= MAX_MONITORS)
    return FALSE;
  if (g_hash_table_lookup (folders, folder) == GINT_TO_POINTER (WATCH_FOLDER))
    return TRUE;
  g_hash_table_insert (folders, g_strdup (folder), GINT_TO_POINTER (WATCH_FOLDER));

  if (depth >= MAX_DEPTH || (dir = opendir (folder)) == NULL)
    return TRUE;

  while (complete && (entry = readdir (dir)) != NULL)
    {
      g_autofree char *path = NULL;

      if (is_folder (folder, entry, &path))
        complete = list_folders (path, folders, depth + 1);
    }
  closedir (dir);
  return complete;
}

static char *
nearest_existing_parent (const char *path)
{
  g_autofree char *parent = g_path_get_dirname (path);

  while (!g_file_test (parent, G_FILE_TEST_IS_DIR))
    {
      char *up = g_path_get_dirname (parent);

      if (g_str_equal (up, parent))
        {
          g_free (up);
          return NULL;
        }
      g_free (parent);
      parent = up;
    }
  return g_steal_pointer (&parent);
}

static void
list_watched_folders (ImportJob     *job,
                      ImportOutcome *outcome)
{
  outcome->folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  outcome->missing_roots = g_ptr_array_new_with_free_func (g_free);
  outcome->listed = TRUE;

  for (guint i = 0; job->roots[i] != NULL && !outcome->overflowed; i++)
    {
      if (g_file_test (job->roots[i], G_FILE_TEST_IS_DIR))
        {
          outcome->overflowed = !list_folders (job->roots[i], outcome->folders, 0);
        }
      else
        {
          g_autofree char *parent = nearest_existing_parent (job->roots[i]);

          g_ptr_array_add (outcome->missing_roots, g_strdup (job->roots[i]));
          /* A folder under another root stays a folder: it matters more. */
          if (parent != NULL && !g_hash_table_contains (outcome->folders, parent))
            g_hash_table_insert (outcome->folders, g_steal_pointer (&parent),
                                 GINT_TO_POINTER (WATCH_PARENT));
        }
    }
}

/* Hands @callback a report of the pass of @job, in the watcher's context. The report may arrive
 * after the watcher is gone: it holds a weak reference only. */
static void
send_report (ImportJob  *job,
             double      fraction,
             GSourceFunc callback)
{
  g_autoptr (GObject) watcher = g_weak_ref_get (&job->watcher);
  ProgressReport *report = g_new0 (ProgressReport, 1);

  g_weak_ref_init (&report->watcher, watcher);
  report->generation = job->generation;
  report->fraction = fraction;
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, callback, report,
                              progress_report_free);
}

static gboolean
report_progress_cb (gpointer data)
{
  ProgressReport *report = data;
  g_autoptr (LoomSourceWatcher) self = g_weak_ref_get (&report->watcher);

  if (self == NULL || !self->importing || self->generation != report->generation)
    return G_SOURCE_REMOVE;

  if (self->progress != report->fraction)
    {
      self->progress = report->fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  return G_SOURCE_REMOVE;
}

/* Runs in the worker, after each file. */
static void
import_progress_cb (guint64     done,
                    guint64     total,
                    const char *path,
                    gpointer    user_data)
{
  ImportJob *job = user_data;
  gint64     now = g_get_monotonic_time ();
  double     fraction;

  if (now - job->last_report < PROGRESS_INTERVAL_USEC || total == 0)
    return;
  job->last_report = now;

  fraction = ((double)job->pass + (double)done / (double)total) / (double)job->n_passes;

  send_report (job, CLAMP (fraction, 0.0, 1.0), report_progress_cb);
}

static gboolean
report_changes_imported_cb (gpointer data)
{
  ProgressReport *report = data;
  g_autoptr (LoomSourceWatcher) self = g_weak_ref_get (&report->watcher);

  if (self != NULL && self->importing && self->generation == report->generation)
    g_signal_emit (self, signals[CHANGES_IMPORTED], 0);
  return G_SOURCE_REMOVE;
}

/* LoomImportChangedDone: what changed during the pass is in the store; the pass goes on. */
static void
changes_imported (gpointer user_data)
{
  send_report (user_data, 0.0, report_changes_imported_cb);
}

/* LoomImportTakeChanged: what changed since the pass began, or since it last asked. */
static GStrv
take_meanwhile (gpointer user_data)
{
  ImportJob *job = user_data;
  g_autoptr (GStrvBuilder) builder = NULL;
  char *path;

  if (!(path = g_async_queue_try_pop (job->meanwhile)))
    return NULL;
  builder = g_strv_builder_new ();
  do
    {
      g_strv_builder_add (builder, path);
      g_free (path);
    }
  while ((path = g_async_queue_try_pop (job->meanwhile)) != NULL);
  return g_strv_builder_end (builder);
}

static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ImportJob *job = task_data;
  g_autoptr (ImportOutcome) outcome = g_new0 (ImportOutcome, 1);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GPtrArray) extra = g_ptr_array_new ();
  LoomImportOptions options = { NULL,           NULL, (const char *const *)job->changed,
                                take_meanwhile, job,  changes_imported };

  if (job->list_folders)
    list_watched_folders (job, outcome);

  /* Extra folders that are gone are not worth a warning on every pass. A targeted pass has no
   * business there: a change under an extra folder makes a whole one. */
  for (guint i = 0;
       job->changed == NULL && job->extra_folders != NULL && job->extra_folders[i] != NULL; i++)
    if (g_file_test (job->extra_folders[i], G_FILE_TEST_IS_DIR))
      g_ptr_array_add (extra, job->extra_folders[i]);
  g_ptr_array_add (extra, NULL);
  job->n_passes = extra->len > 1 ? 2 : 1;

  outcome->stats = loom_import_stats_new ();
  if (!(store = loom_store_open (job->store_path, &outcome->error)))
    goto out;

  /* The agents' own folders, found by each format's discovery (or the changed files it would
   * find); then the extra folders, where each file's format is told from its content. Both
   * passes add to the same stats. */
  job->pass = 0;
  if (!loom_import_run (store, &options, import_progress_cb, job, cancellable, outcome->stats,
                        &outcome->error))
    goto out;

  if (extra->len > 1)
    {
      LoomImportOptions extra_options = { NULL, (const char *const *)extra->pdata,
                                          NULL, take_meanwhile,
                                          job,  changes_imported };

      job->pass = 1;
      loom_import_run (store, &extra_options, import_progress_cb, job, cancellable, outcome->stats,
                       &outcome->error);
    }

out:
  g_task_return_pointer (task, g_steal_pointer (&outcome), (GDestroyNotify)import_outcome_free);
}

/* ——— Monitors ——— */

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_signal_handlers_disconnect_by_data (watch->monitor, watch);
  g_file_monitor_cancel (watch->monitor);
  g_object_unref (watch->monitor);
  g_free (watch->path);
  g_free (watch);
}

static gboolean
is_session_file (GFile *file)
{
  g_autofree char *name = file != NULL ? g_file_get_basename (file) : NULL;

  return name != NULL && (g_str_has_suffix (name, ".jsonl") || g_str_has_suffix (name, ".json"));
}

static gboolean
is_folder_now (GFile *file)
{
  return file != NULL && g_file_query_file_type (file, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL) ==
                           G_FILE_TYPE_DIRECTORY;
}

static gboolean
is_watched_folder (LoomSourceWatcher *self,
                   GFile             *file)
{
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

  return path != NULL && g_hash_table_contains (self->watches, path);
}

/* Whether @file is a missing root or a folder on the way to one. */
static gboolean
leads_to_missing_root (LoomSourceWatcher *self,
                       GFile             *file)
{
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

  for (guint i = 0; path != NULL && i < self->missing_roots->len; i++)
    {
      const char *root = g_ptr_array_index (self->missing_roots, i);
      gsize       length = strlen (path);

      if (g_str_has_prefix (root, path) && (root[length] == '\0' || root[length] == '/'))
        return TRUE;
    }
  return FALSE;
}

/* Keeps @path for the next pass, until there are too many to be worth a targeted one. */
static void
note_changed_path (LoomSourceWatcher *self,
                   const char        *path)
{
  /* A pass that runs takes it between two of its steps: a long one (a first import of
   * months of history) would otherwise keep the session being written off screen until it
   * ends. The next pass still sees it, and finds it read. */
  if (self->meanwhile != NULL)
    g_async_queue_push (self->meanwhile, g_strdup (path));

  if (self->too_many_changes || g_hash_table_contains (self->changed_files, path))
    return;

  if (g_hash_table_size (self->changed_files) >= MAX_TARGETED_FILES)
    {
      self->too_many_changes = TRUE;
      g_hash_table_remove_all (self->changed_files);
      return;
    }
  g_hash_table_add (self->changed_files, g_strdup (path));
}

/* Which files changed matters only to a targeted pass; the importer judges whether they are
 * sessions. */
static void
note_changed_file (LoomSourceWatcher *self,
                   GFile             *file)
{
  g_autofree char *path = NULL;

  if (is_session_file (file) && (path = g_file_get_path (file)) != NULL)
    note_changed_path (self, path);
}

static gboolean
debounce_cb (gpointer user_data)
{
  LoomSourceWatcher *self = user_data;
  gint64             now = g_get_monotonic_time ();
  gint64             due = MIN (self->last_change + QUIET_MSEC * 1000,
                                self->first_change + MAX_WAIT_MSEC * 1000);

  clear_source (&self->debounce_source);

  /* Still busy: look again when it is due rather than re-arming a timer for every event. */
  if (now < due)
    {
      self->debounce_source = add_timeout (self, (guint)MAX (1, (due - now) / 1000), debounce_cb);
      return G_SOURCE_REMOVE;
    }

  self->first_change = 0;
  self->last_change = 0;

  g_signal_emit (self, signals[CHANGED], 0);
  loom_source_watcher_request_import (self);

  return G_SOURCE_REMOVE;
}

static void
note_change (LoomSourceWatcher *self)
{
  gint64 now = g_get_monotonic_time ();

  if (self->first_change == 0)
    self->first_change = now;
  self->last_change = now;

  if (self->debounce_source == NULL)
    self->debounce_source = add_timeout (self, QUIET_MSEC, debounce_cb);
}

static void
on_monitor_changed_cb (GFileMonitor     *monitor,
                       GFile            *file,
                       GFile            *other_file,
                       GFileMonitorEvent event,
                       gpointer          user_data)
{
  Watch             *watch = user_data;
  LoomSourceWatcher *self = watch->watcher;
  gboolean           in_root = watch->kind == WATCH_FOLDER;
  gboolean           relevant = FALSE;
  gboolean           folders = FALSE;

  switch (event)
    {
    case G_FILE_MONITOR_EVENT_CHANGED:
    case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT:
      relevant = in_root && is_session_file (file);
      break;

    case G_FILE_MONITOR_EVENT_CREATED:
    case G_FILE_MONITOR_EVENT_MOVED_IN:
      if (is_folder_now (file))
        folders = in_root || leads_to_missing_root (self, file);
      else
        relevant = in_root && is_session_file (file);
      break;

    case G_FILE_MONITOR_EVENT_DELETED:
    case G_FILE_MONITOR_EVENT_MOVED_OUT:
      /* A deleted session file marks its session; a deleted folder takes its monitors. */
      folders = is_watched_folder (self, file);
      relevant = in_root && is_session_file (file);
      break;

    case G_FILE_MONITOR_EVENT_RENAMED:
      folders = is_watched_folder (self, file) ||
                (is_folder_now (other_file) &&
                 (in_root || leads_to_missing_root (self, other_file)));
      relevant = in_root && (is_session_file (file) || is_session_file (other_file));
      break;

    case G_FILE_MONITOR_EVENT_PRE_UNMOUNT:
    case G_FILE_MONITOR_EVENT_UNMOUNTED:
      folders = TRUE;
      break;

    case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED:
    default:
      break;
    }

  if (relevant)
    {
      /* A rename within a folder names both files: the old one is gone, the new one came. */
      note_changed_file (self, file);
      if (event == G_FILE_MONITOR_EVENT_RENAMED)
        note_changed_file (self, other_file);
    }

  if (folders)
    self->folders_changed = TRUE;
  if (folders || relevant)
    note_change (self);
}

static Watch *
watch_new (LoomSourceWatcher *self,
           const char        *path,
           WatchKind          kind)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  Watch        *watch;
  GFileMonitor *monitor;

  monitor = g_file_monitor_directory (file, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (monitor == NULL)
    {
      g_debug ("Not watching %s: %s", path, error->message);
      return NULL;
    }
  g_file_monitor_set_rate_limit (monitor, MONITOR_RATE_LIMIT_MSEC);

  watch = g_new0 (Watch, 1);
  watch->watcher = self;
  watch->path = g_strdup (path);
  watch->kind = kind;
  watch->monitor = monitor;
  g_signal_connect (monitor, "changed", G_CALLBACK (on_monitor_changed_cb), watch);
  return watch;
}

/* Makes the monitors match the folders a pass listed. Returns how many were added. */
static guint
apply_folders (LoomSourceWatcher *self,
               ImportOutcome     *outcome)
{
  GHashTableIter iter;
  gpointer       key, value;
  guint          n_added = 0;

  g_hash_table_iter_init (&iter, self->watches);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Watch *watch = value;

      if (g_hash_table_lookup (outcome->folders, key) != GINT_TO_POINTER (watch->kind))
        g_hash_table_iter_remove (&iter);
    }

  g_hash_table_iter_init (&iter, outcome->folders);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Watch *watch;

      if (g_hash_table_contains (self->watches, key) ||
          !(watch = watch_new (self, key, GPOINTER_TO_INT (value))))
        continue;
      g_hash_table_insert (self->watches, watch->path, watch);
      n_added++;
    }

  g_ptr_array_unref (self->missing_roots);
  self->missing_roots = g_ptr_array_ref (outcome->missing_roots);

  return n_added;
}

static gboolean
poll_cb (gpointer user_data)
{
  LoomSourceWatcher *self = user_data;

  self->folders_changed = TRUE;
  loom_source_watcher_request_import (self);
  return G_SOURCE_CONTINUE;
}

/* ——— Passes ——— */

static void
loom_source_watcher_set_importing (LoomSourceWatcher *self,
                                   gboolean           importing)
{
  g_assert (LOOM_IS_SOURCE_WATCHER (self));

  importing = !!importing;
  if (self->importing == importing)
    return;

  self->importing = importing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IMPORTING]);

  if (self->progress != 0.0)
    {
      self->progress = 0.0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
}

/* Adds @path to @builder once, in the form GIO reports paths in ("/a/b", never "/a/b/" or
 * "/a/./b"), so that events find their folder. Relative paths have no meaning here. */
static void
add_root (GStrvBuilder *builder,
          GHashTable   *seen,
          const char   *path)
{
  g_autofree char *canonical = NULL;

  if (!g_path_is_absolute (path))
    return;
  canonical = g_canonicalize_filename (path, NULL);
  if (!g_hash_table_contains (seen, canonical))
    {
      g_strv_builder_add (builder, canonical);
      g_hash_table_add (seen, g_steal_pointer (&canonical));
    }
}

/* Every root, in a stable order without duplicates: the agents' default folders, then the
 * extra ones (those alone when @extra_only). */
static GStrv
collect_roots (LoomSourceWatcher *self,
               gboolean           extra_only)
{
  const LoomImporter *const *importers = loom_importers ();
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; !extra_only && importers[i] != NULL; i++)
    {
      g_auto (GStrv) roots = NULL;

      if (importers[i]->default_roots == NULL || importers[i]->discover == NULL)
        continue;
      roots = importers[i]->default_roots ();
      for (guint r = 0; roots != NULL && roots[r] != NULL; r++)
        add_root (builder, seen, roots[r]);
    }

  for (guint i = 0; self->extra_folders != NULL && self->extra_folders[i] != NULL; i++)
    add_root (builder, seen, self->extra_folders[i]);

  return g_strv_builder_end (builder);
}

/* Whether @path lies below one of @folders. */
static gboolean
is_below_any (const char        *path,
              const char *const *folders)
{
  for (guint i = 0; folders != NULL && folders[i] != NULL; i++)
    {
      g_autofree char *relative = loom_importer_relative_path (folders[i], path);

      if (relative != NULL)
        return TRUE;
    }
  return FALSE;
}

/* Whether the next pass may import just the files reported since the last one (see the top of
 * the file for when it may not). */
static gboolean
can_target (LoomSourceWatcher *self,
            const char *const *extra_folders)
{
  GHashTableIter iter;
  gpointer       path;

  if (self->whole_pass_due || self->folders_changed || self->too_many_changes)
    return FALSE;

  g_hash_table_iter_init (&iter, self->changed_files);
  while (g_hash_table_iter_next (&iter, &path, NULL))
    if (is_below_any (path, extra_folders))
      return FALSE;
  return TRUE;
}

/* The reported files, for the pass that starts: later reports are the next pass's. */
static GStrv
take_changed_files (LoomSourceWatcher *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  GHashTableIter iter;
  gpointer       path;

  g_hash_table_iter_init (&iter, self->changed_files);
  while (g_hash_table_iter_next (&iter, &path, NULL))
    g_strv_builder_add (builder, path);
  g_hash_table_remove_all (self->changed_files);
  return g_strv_builder_end (builder);
}

/* A pass that failed or was cancelled did not do its work: its files go back to the list for
 * the next pass, and a whole pass is due again. */
static void
give_back_changes (LoomSourceWatcher *self,
                   ImportJob         *job)
{
  if (job->changed == NULL)
    {
      self->whole_pass_due = TRUE;
      return;
    }
  for (guint i = 0; job->changed[i] != NULL; i++)
    note_changed_path (self, job->changed[i]);
}

static gboolean
retry_cb (gpointer user_data)
{
  LoomSourceWatcher *self = user_data;

  g_clear_pointer (&self->retry_source, g_source_unref);
  loom_source_watcher_request_import (self);
  return G_SOURCE_REMOVE;
}

/* After a pass that failed whole: another, later, unless one is already coming. */
static void
schedule_retry (LoomSourceWatcher *self)
{
  self->retry_msec = self->retry_msec == 0 ? RETRY_FIRST_MSEC
                                           : MIN (self->retry_msec * 2, RETRY_LONGEST_MSEC);
  if (self->retry_source == NULL && !self->import_queued)
    self->retry_source = add_timeout (self, self->retry_msec, retry_cb);
}

static void
import_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (LoomSourceWatcher) self = user_data;
  g_autoptr (ImportOutcome) outcome = NULL;

  g_assert (g_task_get_source_tag (G_TASK (result)) == loom_source_watcher_request_import);

  outcome = g_task_propagate_pointer (G_TASK (result), NULL);
  g_assert (outcome != NULL);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->meanwhile, g_async_queue_unref);
  loom_source_watcher_set_importing (self, FALSE);

  if (outcome->error != NULL && self->watching)
    give_back_changes (self, g_task_get_task_data (G_TASK (result)));
  if (outcome->error != NULL && self->watching &&
      !g_error_matches (outcome->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    schedule_retry (self);
  else if (outcome->error == NULL)
    self->retry_msec = 0;

  /* A file that failed (a half-written document, say) is tried again with the next pass,
   * targeted or not, as a whole pass would; not sooner, or a file that stays broken would
   * keep the watcher busy. */
  if (outcome->error == NULL && self->watching)
    for (guint i = 0; i < outcome->stats->failed_paths->len; i++)
      note_changed_path (self, g_ptr_array_index (outcome->stats->failed_paths, i));

  if (self->watching && outcome->listed)
    {
      /* Something written to a new folder before its monitor existed, and after the pass read
       * it, would wait for the next change there: one more whole pass closes that gap. */
      if (apply_folders (self, outcome) > 0)
        {
          self->import_queued = TRUE;
          self->whole_pass_due = TRUE;
        }

      if (outcome->overflowed && self->poll_source == NULL)
        self->poll_source = add_timeout (self, POLL_SECONDS * 1000, poll_cb);
      else if (!outcome->overflowed)
        clear_source (&self->poll_source);
    }

  /* Even a pass cancelled at its end may have changed the store: say what it did. */
  if (outcome->error == NULL)
    g_signal_emit (self, signals[IMPORTED], 0, outcome->stats);
  else if (!g_error_matches (outcome->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[IMPORT_FAILED], 0, outcome->error);

  if (self->import_queued)
    loom_source_watcher_request_import (self);
}

static void
loom_source_watcher_request_import (LoomSourceWatcher *self)
{
  g_autoptr (GTask) task = NULL;
  ImportJob *job;

  g_assert (LOOM_IS_SOURCE_WATCHER (self));

  if (self->importing)
    {
      self->import_queued = TRUE;
      return;
    }
  self->import_queued = FALSE;
  clear_source (&self->retry_source); /* this pass is the retry */

  job = g_new0 (ImportJob, 1);
  job->store_path = g_strdup (self->store_path);
  job->meanwhile = g_async_queue_new_full (g_free);
  g_clear_pointer (&self->meanwhile, g_async_queue_unref);
  self->meanwhile = g_async_queue_ref (job->meanwhile);
  job->roots = collect_roots (self, FALSE);
  job->extra_folders = collect_roots (self, TRUE);
  if (can_target (self, (const char *const *)job->extra_folders))
    job->changed = take_changed_files (self);
  else
    g_hash_table_remove_all (self->changed_files); /* a whole pass sees them all */
  self->whole_pass_due = FALSE;
  self->too_many_changes = FALSE;
  job->list_folders = self->watching && self->folders_changed;
  job->context = g_main_context_ref (self->context);
  job->generation = ++self->generation;
  job->n_passes = 1;
  g_weak_ref_init (&job->watcher, self);
  self->folders_changed = FALSE;

  self->cancellable = g_cancellable_new ();
  loom_source_watcher_set_importing (self, TRUE);

  /* The watcher rides along as callback data rather than as the source object: the worker may
   * drop the task's last reference after the callback ran, and the watcher must not be kept
   * alive, or finalized, by another thread. */
  task = g_task_new (NULL, self->cancellable, import_done_cb, g_object_ref (self));
  g_task_set_source_tag (task, loom_source_watcher_request_import);
  g_task_set_name (task, "[loom] import from watched folders");
  /* The outcome says what a cancelled pass did; GTask would drop it for a cancelled error. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, job, import_job_free);
  g_task_run_in_thread (task, import_thread);
}

/* ——— GObject ——— */

static void
loom_source_watcher_dispose (GObject *object)
{
  LoomSourceWatcher *self = LOOM_SOURCE_WATCHER (object);

  /* A pass holds a reference until its result is back, so none runs here. */
  clear_source (&self->debounce_source);
  clear_source (&self->poll_source);
  clear_source (&self->retry_source);
  g_clear_pointer (&self->meanwhile, g_async_queue_unref);
  g_hash_table_remove_all (self->watches);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (loom_source_watcher_parent_class)->dispose (object);
}

static void
loom_source_watcher_finalize (GObject *object)
{
  LoomSourceWatcher *self = LOOM_SOURCE_WATCHER (object);

  g_clear_pointer (&self->watches, g_hash_table_unref);
  g_clear_pointer (&self->missing_roots, g_ptr_array_unref);
  g_clear_pointer (&self->changed_files, g_hash_table_unref);
  g_clear_pointer (&self->store_path, g_free);
  g_clear_pointer (&self->extra_folders, g_strfreev);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (loom_source_watcher_parent_class)->finalize (object);
}

static void
loom_source_watcher_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  LoomSourceWatcher *self = LOOM_SOURCE_WATCHER (object);

  switch (prop_id)
    {
    case PROP_STORE_PATH:
      g_value_set_string (value, self->store_path);
      break;

    case PROP_EXTRA_FOLDERS:
      g_value_set_boxed (value, self->extra_folders);
      break;

    case PROP_WATCHING:
      g_value_set_boolean (value, self->watching);
      break;

    case PROP_IMPORTING:
      g_value_set_boolean (value, self->importing);
      break;

    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_source_watcher_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  LoomSourceWatcher *self = LOOM_SOURCE_WATCHER (object);

  switch (prop_id)
    {
    case PROP_STORE_PATH:
      self->store_path = g_value_dup_string (value);
      break;

    case PROP_EXTRA_FOLDERS:
      loom_source_watcher_set_extra_folders (self, g_value_get_boxed (value));
      break;

    case PROP_WATCHING:
      loom_source_watcher_set_watching (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_source_watcher_class_init (LoomSourceWatcherClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = loom_source_watcher_dispose;
  object_class->finalize = loom_source_watcher_finalize;
  object_class->get_property = loom_source_watcher_get_property;
  object_class->set_property = loom_source_watcher_set_property;

  properties[PROP_STORE_PATH] = g_param_spec_string ("store-path", NULL, NULL, NULL,
                                                     G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                       G_PARAM_STATIC_STRINGS);
  properties[PROP_EXTRA_FOLDERS] = g_param_spec_boxed ("extra-folders", NULL, NULL, G_TYPE_STRV,
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                         G_PARAM_STATIC_STRINGS);
  properties[PROP_WATCHING] = g_param_spec_boolean ("watching", NULL, NULL, FALSE,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                      G_PARAM_STATIC_STRINGS);
  properties[PROP_IMPORTING] = g_param_spec_boolean ("importing", NULL, NULL, FALSE,
                                                     G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                       G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS] = g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The watched folders changed and settled; a pass follows. */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);

  /* What changed while a long pass runs was imported between two of its steps, and can be
   * read; the pass goes on. */
  signals[CHANGES_IMPORTED] = g_signal_new ("changes-imported", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /* A pass ended: its `const LoomImportStats *`, valid during the emission. */
  signals[IMPORTED] = g_signal_new ("imported", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  /* A pass could not run at all (the store could not be opened, …). */
  signals[IMPORT_FAILED] = g_signal_new ("import-failed", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                         G_TYPE_ERROR);
}

static void
loom_source_watcher_init (LoomSourceWatcher *self)
{
  self->watches = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, watch_free);
  self->missing_roots = g_ptr_array_new_with_free_func (g_free);
  self->changed_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Monitors and passes report to the context of the thread that made the watcher. */
  self->context = g_main_context_ref_thread_default ();
}

LoomSourceWatcher *
loom_source_watcher_new (const char *store_path)
{
  g_return_val_if_fail (store_path != NULL, NULL);

  return g_object_new (LOOM_TYPE_SOURCE_WATCHER, "store-path", store_path, NULL);
}

const char *
loom_source_watcher_get_store_path (LoomSourceWatcher *self)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), NULL);

  return self->store_path;
}

const char *const *
loom_source_watcher_get_extra_folders (LoomSourceWatcher *self)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), NULL);

  return (const char *const *)self->extra_folders;
}

void
loom_source_watcher_set_extra_folders (LoomSourceWatcher *self,
                                       const char *const *folders)
{
  static const char *const none[] = { NULL };

  g_return_if_fail (LOOM_IS_SOURCE_WATCHER (self));

  if (g_strv_equal (folders != NULL ? folders : none,
                    self->extra_folders != NULL ? (const char *const *)self->extra_folders : none))
    return;

  g_strfreev (self->extra_folders);
  self->extra_folders = g_strdupv ((char **)folders);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXTRA_FOLDERS]);

  if (self->watching)
    {
      self->folders_changed = TRUE;
      loom_source_watcher_request_import (self);
    }
}

gboolean
loom_source_watcher_get_watching (LoomSourceWatcher *self)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), FALSE);

  return self->watching;
}

void
loom_source_watcher_set_watching (LoomSourceWatcher *self,
                                  gboolean           watching)
{
  g_return_if_fail (LOOM_IS_SOURCE_WATCHER (self));

  watching = !!watching;
  if (self->watching == watching)
    return;

  self->watching = watching;

  if (watching)
    {
      /* Catching up with what changed while nobody watched. */
      self->folders_changed = TRUE;
      self->whole_pass_due = TRUE;
      loom_source_watcher_request_import (self);
    }
  else
    {
      clear_source (&self->debounce_source);
      clear_source (&self->poll_source);
      clear_source (&self->retry_source);
      self->retry_msec = 0;
      self->first_change = 0;
      self->last_change = 0;
      self->import_queued = FALSE;
      g_hash_table_remove_all (self->changed_files);
      self->too_many_changes = FALSE;
      g_hash_table_remove_all (self->watches);
      g_ptr_array_set_size (self->missing_roots, 0);
      g_cancellable_cancel (self->cancellable);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATCHING]);
}

gboolean
loom_source_watcher_get_importing (LoomSourceWatcher *self)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), FALSE);

  return self->importing;
}

double
loom_source_watcher_get_progress (LoomSourceWatcher *self)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), 0.0);

  return self->progress;
}

void
loom_source_watcher_import (LoomSourceWatcher *self)
{
  g_return_if_fail (LOOM_IS_SOURCE_WATCHER (self));

  /* Whoever asks knows no better than the monitors what changed. */
  self->whole_pass_due = TRUE;
  loom_source_watcher_request_import (self);
}

void
loom_source_watcher_stop (LoomSourceWatcher *self)
{
  g_return_if_fail (LOOM_IS_SOURCE_WATCHER (self));

  g_object_ref (self);
  loom_source_watcher_set_watching (self, FALSE);
  self->import_queued = FALSE;
  g_cancellable_cancel (self->cancellable);

  /* The pass stops at the next file; its result comes back through this context. */
  while (self->importing)
    g_main_context_iteration (self->context, TRUE);
  g_object_unref (self);
}

guint
loom_source_watcher_get_n_monitors (LoomSourceWatcher *self)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), 0);

  return g_hash_table_size (self->watches);
}

gboolean
loom_source_watcher_is_monitored (LoomSourceWatcher *self,
                                  const char        *folder)
{
  g_return_val_if_fail (LOOM_IS_SOURCE_WATCHER (self), FALSE);
  g_return_val_if_fail (folder != NULL, FALSE);

  return g_hash_table_contains (self->watches, folder);
}
