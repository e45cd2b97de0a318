/* loom-bench-export.c — how fast a package is written, and in how much memory.
 *
 * Two phases, each in a child process of its own so that its peak memory (ru_maxrss from
 * wait4) and CPU time are its own: the export of the store's largest session, and of 1,000
 * sessions (the most recent that have no parent: a parent's package holds its sub-agents'), each
 * at detail "full", mode "full", into a new folder. The program prints seconds, packages,
 * files, MB written, MB/s and peak memory beside the largest item (message text or event
 * payload) of the sessions exported: memory is meant to follow that item, not the session.
 * Target: at least 100 MB/s of package written.
 *
 * Usage: loom-bench-export --store STORE [--sessions 1000] [--out DIR] [--keep]
 *        loom-bench-export --quick    (a small corpus generated and imported first)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "loom-core.h"
#include "loom-export.h"
#include "loom-import.h"
#include "loom-store.h"

extern char **environ;

#define TARGET_MB_PER_S 100.0

typedef struct
{
  const char *name;
  const char *what;
} PhaseName;

static const PhaseName phase_names[] = {
  { "largest", "the largest session" },
  { "many", "many sessions" },
};

typedef struct
{
  gboolean  ran;
  int       exit_status;
  long      maxrss_kb;
  double    cpu_seconds;
  GKeyFile *values;
} Phase;

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* The CPU time this process has used, user and system. */
static double
cpu_s (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
         usage.ru_stime.tv_usec / 1e6;
}

/* ——— Choosing the sessions, outside the timed part ——— */

static sqlite3 *
open_read_only (const char *store_path)
{
  sqlite3 *db = NULL;

  if (sqlite3_open_v2 (store_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      g_printerr ("Could not open %s: %s\n", store_path, sqlite3_errmsg (db));
      sqlite3_close (db);
      return NULL;
    }
  return db;
}

/* The uuids @sql selects (one column). */
static GPtrArray *
select_uuids (sqlite3    *db,
              const char *sql,
              gint64      limit)
{
  GPtrArray    *uuids = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_printerr ("%s\n", sqlite3_errmsg (db));
      return uuids;
    }
  sqlite3_bind_int64 (stmt, 1, limit);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_ptr_array_add (uuids, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
  sqlite3_finalize (stmt);
  return uuids;
}

/* The session with the most bytes of text and payloads. */
static const char largest_sql[] =
  "SELECT uuid FROM sessions s WHERE parent_session_id IS NULL AND trashed_at = 0 "
  "ORDER BY (SELECT ifnull (sum (payload_size + length (ifnull (text, ''))), 0) FROM events "
  "          WHERE session_id = s.id) "
  "       + (SELECT ifnull (sum (length (text)), 0) FROM messages WHERE session_id = s.id) DESC "
  "LIMIT ?1";

static const char recent_sql[] =
  "SELECT uuid FROM sessions WHERE parent_session_id IS NULL AND trashed_at = 0 "
  "ORDER BY updated_at DESC LIMIT ?1";

/* The largest message text or event payload of @uuid and its sub-agents, in bytes. */
static gint64
largest_item (sqlite3    *db,
              const char *uuid)
{
  static const char sql[] =
    "WITH RECURSIVE tree (id) AS ("
    "  SELECT id FROM sessions WHERE uuid = ?1"
    "  UNION SELECT s.id FROM sessions s JOIN tree ON s.parent_session_id = tree.id) "
    "SELECT max ((SELECT ifnull (max (max (payload_size, length (ifnull (text, '')))), 0) "
    "             FROM events WHERE session_id IN tree), "
    "            (SELECT ifnull (max (length (text)), 0) FROM messages "
    "             WHERE session_id IN tree))";
  sqlite3_stmt *stmt = NULL;
  gint64        bytes = 0;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    return 0;
  sqlite3_bind_text (stmt, 1, uuid, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    bytes = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return bytes;
}

/* ——— A phase, in its child ——— */

static int
run_phase (const char *phase,
           const char *store_path,
           const char *out_dir,
           gint64      n_sessions,
           gint64      jobs,
           gint64      repeat,
           const char *result_path)
{
  g_autoptr (GKeyFile) out = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) uuids = NULL;
  g_autoptr (LoomStore) store = NULL;
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  guint64           bytes = 0, files = 0, subagents = 0, artifacts = 0;
  gint64            item = 0;
  double            start, start_cpu, seconds, cpu;
  sqlite3          *db;

  if (!(db = open_read_only (store_path)))
    return 1;
  if (g_str_equal (phase, "largest"))
    uuids = select_uuids (db, largest_sql, 1);
  else
    uuids = select_uuids (db, recent_sql, n_sessions);
  if (uuids->len == 0)
    {
      g_printerr ("The store has no sessions to export\n");
      sqlite3_close (db);
      return 1;
    }

  if (!(store = loom_store_open (store_path, &error)))
    {
      g_printerr ("Could not open the store %s: %s\n", store_path, error->message);
      sqlite3_close (db);
      return 1;
    }
  if (g_mkdir (out_dir, 0700) != 0)
    {
      g_printerr ("Could not create %s: %s\n", out_dir, g_strerror (errno));
      sqlite3_close (db);
      return 1;
    }

  start = now_s ();
  start_cpu = cpu_s ();
  for (gint64 r = 0; r < MAX (repeat, 1); r++)
    {
      LoomExportResult **results = NULL;
      GError           **errors = NULL;

      /* As `loom sessions export ID…` does: the sessions shared out between workers. */
      g_ptr_array_add (uuids, NULL);
      loom_export_sessions (store, (const char *const *)uuids->pdata, out_dir, &options,
                            (guint)jobs, &results, &errors, NULL);
      g_ptr_array_remove_index (uuids, uuids->len - 1);
      for (guint i = 0; i < uuids->len; i++)
        {
          if (results[i] == NULL)
            {
              g_printerr ("Export of %s failed: %s\n", (char *)uuids->pdata[i], errors[i]->message);
              loom_export_results_free (results, errors, uuids->len);
              sqlite3_close (db);
              return 1;
            }
          bytes += results[i]->n_bytes;
          files += results[i]->n_files;
          subagents += results[i]->n_subagents;
          artifacts += results[i]->n_artifacts + results[i]->n_artifacts_missing;
        }
      loom_export_results_free (results, errors, uuids->len);
    }
  seconds = now_s () - start;
  cpu = cpu_s () - start_cpu;

  for (guint i = 0; i < uuids->len; i++)
    item = MAX (item, largest_item (db, uuids->pdata[i]));
  sqlite3_close (db);

  g_key_file_set_double (out, "phase", "seconds", seconds);
  g_key_file_set_double (out, "phase", "cpu_seconds", cpu);
  g_key_file_set_uint64 (out, "phase", "packages", uuids->len);
  g_key_file_set_uint64 (out, "phase", "subagents", subagents);
  g_key_file_set_uint64 (out, "phase", "files", files);
  g_key_file_set_uint64 (out, "phase", "bytes", bytes);
  g_key_file_set_uint64 (out, "phase", "artifacts", artifacts);
  g_key_file_set_int64 (out, "phase", "largest_item", item);
  if (!g_key_file_save_to_file (out, result_path, &error))
    {
      g_printerr ("Could not write %s: %s\n", result_path, error->message);
      return 1;
    }
  return 0;
}

/* ——— The parent ——— */

static gboolean
spawn_phase (const char *self,
             const char *phase_name,
             const char *store_path,
             const char *out_dir,
             gint64      n_sessions,
             gint64      jobs,
             const char *work_dir,
             Phase      *phase)
{
  g_autofree char *result_path = g_strdup_printf ("%s/%s.result", work_dir, phase_name);
  g_autofree char *sessions = g_strdup_printf ("%" G_GINT64_FORMAT, n_sessions);
  g_autofree char *jobs_text = g_strdup_printf ("%" G_GINT64_FORMAT, jobs);
  g_autoptr (GError) error = NULL;
  const char   *argv[] = { self,      "--phase",  phase_name, "--result", result_path,
                           "--store", store_path, "--out",    out_dir,    "--sessions",
                           sessions,  "--jobs",   jobs_text,  NULL };
  struct rusage usage;
  pid_t         pid;
  int           status = 0;

  /* What the previous phase wrote is on disk before this one starts. */
  sync ();
  if (posix_spawn (&pid, self, NULL, NULL, (char *const *)argv, environ) != 0)
    {
      g_printerr ("Could not start the %s phase: %s\n", phase_name, g_strerror (errno));
      return FALSE;
    }
  while (wait4 (pid, &status, 0, &usage) < 0)
    if (errno != EINTR)
      {
        g_printerr ("wait4: %s\n", g_strerror (errno));
        return FALSE;
      }

  phase->ran = TRUE;
  phase->exit_status = WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
  phase->maxrss_kb = usage.ru_maxrss;
  phase->values = g_key_file_new ();
  if (!g_key_file_load_from_file (phase->values, result_path, G_KEY_FILE_NONE, &error))
    {
      g_printerr ("The %s phase reported nothing (exit status %d)\n", phase_name,
                  phase->exit_status);
      return FALSE;
    }
  /* The export's own, without choosing the sessions before it and measuring them after. */
  phase->cpu_seconds = g_key_file_get_double (phase->values, "phase", "cpu_seconds", NULL);
  g_unlink (result_path);
  return phase->exit_status == 0;
}

static void
remove_tree (const char *path)
{
  const char *argv[] = { "rm", "-rf", "--", path, NULL };

  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* A small corpus generated by loom-bench-corpus and imported into a new store in @work_dir. */
static char *
make_quick_store (const char *self,
                  const char *work_dir)
{
  g_autofree char *bindir = g_path_get_dirname (self);
  g_autofree char *generator = g_build_filename (bindir, "loom-bench-corpus", NULL);
  g_autofree char *corpus = g_build_filename (work_dir, "corpus", NULL);
  g_autofree char *store_path = g_build_filename (work_dir, "store.db", NULL);
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  const char *gen_argv[] = { generator, "--quick", "--out", corpus, NULL };
  const char *folders[][2] = { { "claude", "claude-code" },
                               { "codex", "codex" },
                               { "gemini", "gemini" } };
  int         status = 0;

  if (!g_spawn_sync (NULL, (char **)gen_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL,
                     NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("Could not generate the corpus: %s\n", error->message);
      return NULL;
    }
  if (!(store = loom_store_open (store_path, &error)))
    {
      g_printerr ("Could not open %s: %s\n", store_path, error->message);
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char  *root = g_build_filename (corpus, folders[i][0], NULL);
      const char       *paths[] = { root, NULL };
      LoomImportOptions options = { folders[i][1], paths };

      if (g_file_test (root, G_FILE_TEST_IS_DIR) &&
          !loom_import_run (store, &options, NULL, NULL, NULL, stats, &error))
        {
          g_printerr ("Import of %s failed: %s\n", root, error->message);
          return NULL;
        }
    }
  g_print ("Quick corpus: %u sessions, %.1f MB imported\n", stats->sessions_new,
           stats->bytes / 1e6);
  remove_tree (corpus);
  return g_steal_pointer (&store_path);
}

static guint64
value (Phase      *phase,
       const char *key)
{
  return phase->values != NULL ? g_key_file_get_uint64 (phase->values, "phase", key, NULL) : 0;
}

static double
seconds_of (Phase *phase)
{
  return phase->values != NULL ? g_key_file_get_double (phase->values, "phase", "seconds", NULL)
                               : 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *phase = NULL;
  g_autofree char   *result = NULL;
  g_autofree char   *store = NULL;
  g_autofree char   *out = NULL;
  g_autofree char   *self = NULL;
  g_autofree char   *work_dir = NULL;
  gint64             n_sessions = 1000, repeat = 1, jobs = 0;
  gboolean           keep = FALSE, quick = FALSE, met = TRUE;
  const GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store, "The store to export from (not changed)",
      "STORE" },
    { "sessions", 'n', 0, G_OPTION_ARG_INT64, &n_sessions,
      "How many sessions the second phase exports (default 1000)", "N" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out,
      "Where the packages go (default: a new folder in $TMPDIR, removed afterwards)", "DIR" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the packages afterwards", NULL },
    { "jobs", 'j', 0, G_OPTION_ARG_INT64, &jobs,
      "Packages written at a time (default: one per processor, as loom does)", "N" },
    { "quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
      "Generate a small corpus (loom-bench-corpus --quick), import it and benchmark that", NULL },
    { "phase", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &phase, NULL, NULL },
    /* For a profiler: one phase, run by hand, exports its sessions this many times. */
    { "repeat", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64, &repeat, NULL, NULL },
    { "result", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &result, NULL, NULL },
    { NULL }
  };
  Phase phases[G_N_ELEMENTS (phase_names)] = { { 0 } };

  loom_core_init ();
  context = g_option_context_new ("- time the export of the largest session and of many");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (phase != NULL)
    return store != NULL && out != NULL && result != NULL
             ? run_phase (phase, store, out, n_sessions, jobs, repeat, result)
             : 2;

  if (!(self = g_file_read_link ("/proc/self/exe", &error)) ||
      !(work_dir = g_dir_make_tmp ("loom-bench-export-XXXXXX", &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  if (quick && store == NULL && !(store = make_quick_store (self, work_dir)))
    return 1;
  if (store == NULL)
    {
      g_printerr ("Give --store STORE (a store `loom import` filled) or --quick\n");
      return 2;
    }
  if (out == NULL)
    out = g_build_filename (work_dir, "packages", NULL);
  if (g_mkdir_with_parents (out, 0700) != 0)
    {
      g_printerr ("Could not create %s: %s\n", out, g_strerror (errno));
      return 1;
    }

  g_print ("%-22s %8s %8s %9s %8s %10s %8s %10s %12s\n", "phase", "wall s", "cpu s", "packages",
           "files", "MB", "MB/s", "peak MB", "largest KB");
  for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
    {
      g_autofree char *phase_out = g_build_filename (out, phase_names[i].name, NULL);
      Phase           *p = &phases[i];
      double           mb, rate;

      if (!spawn_phase (self, phase_names[i].name, store, phase_out, n_sessions, jobs, work_dir, p))
        {
          met = FALSE;
          continue;
        }
      mb = value (p, "bytes") / 1e6;
      rate = seconds_of (p) > 0 ? mb / seconds_of (p) : 0;
      g_print ("%-22s %8.2f %8.2f %9" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT
               " %10.1f %8.1f %10.1f %12.1f\n",
               phase_names[i].what, seconds_of (p), p->cpu_seconds, value (p, "packages"),
               value (p, "files"), mb, rate, p->maxrss_kb / 1024.0,
               value (p, "largest_item") / 1e3);
      g_print ("%-22s sub-agents' packages: %" G_GUINT64_FORMAT
               ", artifacts listed: %" G_GUINT64_FORMAT "\n",
               "", value (p, "subagents"), value (p, "artifacts"));
      g_print ("  target >= %.0f MB/s of package written: %s\n", TARGET_MB_PER_S,
               rate >= TARGET_MB_PER_S ? "met" : "MISSED");
      met = met && rate >= TARGET_MB_PER_S;
    }

  /* Removed only now: ext4 without a journal passes over the inodes freed in the last minute or
   * so when it makes new ones, and a phase right after the removal of thousands of files pays
   * for it (twice the time, here). The same goes for a run right after another. */
  if (!keep)
    {
      for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
        {
          g_autofree char *phase_out = g_build_filename (out, phase_names[i].name, NULL);

          remove_tree (phase_out);
        }
      remove_tree (work_dir);
    }
  else
    g_print ("Kept: %s\n", work_dir);
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    g_clear_pointer (&phases[i].values, g_key_file_unref);
  return met ? 0 : 1;
}
