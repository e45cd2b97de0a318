/* loom-bench-sweep.c — how long an archive sweep of 1,000 sessions takes, and their restore on
 * a fresh profile.
 *
 * The store given is never changed: a sweep archives the sessions it backs up, so the program
 * first copies the store (SQLite's backup API, on a read-only connection) into a new temporary
 * folder, and sweeps the copy. Then two phases, each in a child process of its own so that its
 * peak memory (ru_maxrss from wait4) and CPU time are its own, with a sync () before each:
 *
 *   sweep    the oldest N sessions that have no parent (made eligible by a `now` just after
 *            the store's newest session), loom_sweep_run () into a new backup folder, each
 *            package encrypted with a key generated for the run (no keyring is involved: the
 *            key is passed to the sweep), or plain with --plain;
 *   restore  a new, empty store in a new profile folder (HOME and the XDG folders point into it,
 *            as on a new machine), and loom_restore () of the backup folder with the recovery
 *            key read back from its text, typed as a person might (lower case, spaces).
 *
 * Then the sessions and messages the restore wrote are compared with those the sweep archived
 * (the swept sessions and their sub-agents, whose packages travel in their parent's).
 *
 * Usage: loom-bench-sweep --store STORE [--sessions 1000] [--out DIR] [--keep] [--plain]
 *        loom-bench-sweep --quick    (a small corpus generated and imported first)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "loom-backup-key.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-import.h"
#include "loom-store.h"
#include "loom-sweep.h"

extern char **environ;

typedef struct
{
  gboolean  ran;
  int       exit_status;
  long      maxrss_kb;
  double    load;
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

/* The machine's 1-minute load average: on a shared machine, what else was running. */
static double
load_average (void)
{
  double load = 0;

  return getloadavg (&load, 1) == 1 ? load : 0;
}

static void
remove_tree (const char *path)
{
  const char *argv[] = { "rm", "-rf", "--", path, NULL };

  g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
}

/* ——— Counting, outside the timed parts ——— */

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

/* The one integer @sql gives, with @text bound to ?1 when not NULL; -1 on error. */
static gint64
query_int (sqlite3    *db,
           const char *sql,
           const char *text)
{
  sqlite3_stmt *stmt = NULL;
  gint64        v = -1;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_printerr ("%s\n", sqlite3_errmsg (db));
      return -1;
    }
  if (text != NULL)
    sqlite3_bind_text (stmt, 1, text, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return v;
}

/* A session's tree: itself and its sub-agents, at any depth. */
#define TREE_CTE \
  "WITH RECURSIVE tree (id) AS (" \
  "  SELECT id FROM sessions WHERE uuid = ?1" \
  "  UNION SELECT s.id FROM sessions s JOIN tree ON s.parent_session_id = tree.id) "

/* The size of the files under @path (a file or a folder), in bytes; links are not followed. */
static guint64
bytes_under (const char *path)
{
  g_autoptr (GDir) dir = NULL;
  struct stat st;
  guint64     bytes = 0;

  if (lstat (path, &st) != 0)
    return 0;
  if (S_ISREG (st.st_mode))
    return st.st_size;
  if (!S_ISDIR (st.st_mode) || !(dir = g_dir_open (path, 0, NULL)))
    return 0;
  for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      bytes += bytes_under (child);
    }
  return bytes;
}

/* ——— The copy of the person's store ——— */

/* Copies @from into the new file @to with SQLite's backup API: a consistent copy even when the
 * store is in WAL mode, and @from opened read-only, never changed. */
static gboolean
copy_store (const char *from,
            const char *to)
{
  sqlite3        *src = open_read_only (from);
  sqlite3        *dst = NULL;
  sqlite3_backup *backup;
  int             rc;

  if (src == NULL)
    return FALSE;
  if (sqlite3_open_v2 (to, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      g_printerr ("Could not create %s: %s\n", to, sqlite3_errmsg (dst));
      sqlite3_close (dst);
      sqlite3_close (src);
      return FALSE;
    }
  if (!(backup = sqlite3_backup_init (dst, "main", src, "main")))
    {
      g_printerr ("Could not copy %s: %s\n", from, sqlite3_errmsg (dst));
      sqlite3_close (dst);
      sqlite3_close (src);
      return FALSE;
    }
  while ((rc = sqlite3_backup_step (backup, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED)
    sqlite3_sleep (50);
  sqlite3_backup_finish (backup);
  if (rc != SQLITE_DONE)
    g_printerr ("Could not copy %s: %s\n", from, sqlite3_errstr (rc));
  sqlite3_close (dst);
  sqlite3_close (src);
  return rc == SQLITE_DONE;
}

/* ——— Phase 1, in its child: the sweep ——— */

static gboolean
save_result (GKeyFile   *out,
             const char *result_path)
{
  g_autoptr (GError) error = NULL;

  if (!g_key_file_save_to_file (out, result_path, &error))
    {
      g_printerr ("Could not write %s: %s\n", result_path, error->message);
      return FALSE;
    }
  return TRUE;
}

/* When each item of a sweep or a restore started, to tell whether the later ones are slower. */
typedef struct
{
  GArray *starts; /* of double, seconds; starts[i] is item i's */
} Pace;

static void
pace_mark (Pace *pace,
           guint index)
{
  double t = now_s ();

  while (pace->starts->len <= index)
    g_array_append_val (pace->starts, t);
}

static void
sweep_progress (const LoomSweepProgress *progress,
                gpointer                 user_data)
{
  pace_mark (user_data, progress->index);
}

static void
restore_progress (const LoomRestoreProgress *progress,
                  gpointer                   user_data)
{
  pace_mark (user_data, progress->index);
}

/* The seconds each tenth of the items took, "a;b;…", from @pace and the time the last ended. */
static void
save_tenths (GKeyFile *out,
             Pace     *pace,
             double    end)
{
  guint  n = pace->starts->len;
  double tenths[10];

  if (n < 10)
    return;
  for (guint k = 0; k < 10; k++)
    {
      double from = g_array_index (pace->starts, double, k *n / 10);
      double to = k == 9 ? end : g_array_index (pace->starts, double, (k + 1) * n / 10);

      tenths[k] = to - from;
    }
  g_key_file_set_double_list (out, "phase", "tenths", tenths, 10);
}

static int
run_sweep (const char *store_path,
           const char *backup_dir,
           gint64      n_sessions,
           gboolean    plain,
           const char *recovery_path,
           const char *result_path)
{
  g_autoptr (GKeyFile) out = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GPtrArray) eligible = NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (LoomBackupKey) key = NULL;
  Pace     pace = { g_array_new (FALSE, FALSE, sizeof (double)) };
  gint64   newest, tree_sessions = 0, tree_messages = 0;
  double   start, start_cpu, seconds, cpu;
  sqlite3 *db;

  if (!(db = open_read_only (store_path)))
    return 1;
  newest = query_int (db, "SELECT max (updated_at) FROM sessions", NULL);
  sqlite3_close (db);
  if (newest < 0)
    return 1;

  if (!(store = loom_store_open (store_path, &error)))
    {
      g_printerr ("Could not open the store %s: %s\n", store_path, error->message);
      return 1;
    }
  /* With `now` just after the newest session and no days of quiet asked, every live top-level
   * session is eligible, oldest first: the first N are the oldest N. */
  if (!(eligible = loom_sweep_find_eligible (store, 0, newest + 1, &error)))
    {
      g_printerr ("Could not list the eligible sessions: %s\n", error->message);
      return 1;
    }
  for (guint i = 0; i < eligible->len && i < n_sessions; i++)
    g_ptr_array_add (ids, ((LoomSweepCandidate *)eligible->pdata[i])->session_id);
  g_ptr_array_add (ids, NULL);
  if (ids->len == 1)
    {
      g_printerr ("The store has no sessions to sweep\n");
      return 1;
    }

  if (!plain)
    {
      char *recovery;

      key = loom_backup_key_generate ();
      recovery = loom_backup_key_dup_recovery (key);
      /* For the restore's child, which reads it back as a person types it; a throwaway key,
       * in a folder only this user reads, removed by the parent. */
      if (!g_file_set_contents_full (recovery_path, recovery, -1, G_FILE_SET_CONTENTS_CONSISTENT,
                                     0600, &error))
        {
          loom_backup_key_free_text (recovery);
          g_printerr ("Could not write %s: %s\n", recovery_path, error->message);
          return 1;
        }
      loom_backup_key_free_text (recovery);
    }
  if (g_mkdir (backup_dir, 0700) != 0)
    {
      g_printerr ("Could not create %s: %s\n", backup_dir, g_strerror (errno));
      return 1;
    }

  start = now_s ();
  start_cpu = cpu_s ();
  result = loom_sweep_run (store, (const char *const *)ids->pdata, backup_dir, key, sweep_progress,
                           &pace, NULL, &error);
  seconds = now_s () - start;
  cpu = cpu_s () - start_cpu;
  save_tenths (out, &pace, start + seconds);
  g_array_unref (pace.starts);
  if (result == NULL)
    {
      g_printerr ("The sweep failed: %s\n", error->message);
      return 1;
    }
  for (guint i = 0; i < result->failed->len; i++)
    {
      LoomSweepFailure *failure = result->failed->pdata[i];

      if (i < 10)
        g_printerr ("Not swept: %s: %s\n", failure->session_id, failure->error->message);
    }
  g_clear_object (&store);

  /* What the restore must give back: the archived sessions and their sub-agents. */
  if (!(db = open_read_only (store_path)))
    return 1;
  for (guint i = 0; i < result->archived->len; i++)
    {
      const char *uuid = result->archived->pdata[i];

      tree_sessions += query_int (db, TREE_CTE "SELECT count (*) FROM tree", uuid);
      tree_messages += query_int (
        db, TREE_CTE "SELECT count (*) FROM messages WHERE session_id IN tree", uuid);
    }
  sqlite3_close (db);

  g_key_file_set_double (out, "phase", "seconds", seconds);
  g_key_file_set_double (out, "phase", "cpu_seconds", cpu);
  g_key_file_set_uint64 (out, "phase", "asked", ids->len - 1);
  g_key_file_set_uint64 (out, "phase", "sessions", result->archived->len);
  g_key_file_set_uint64 (out, "phase", "failed", result->failed->len);
  g_key_file_set_uint64 (out, "phase", "backups", result->packages->len);
  g_key_file_set_uint64 (out, "phase", "artifacts", result->n_artifacts);
  g_key_file_set_uint64 (out, "phase", "bytes", bytes_under (backup_dir));
  g_key_file_set_int64 (out, "phase", "tree_sessions", tree_sessions);
  g_key_file_set_int64 (out, "phase", "tree_messages", tree_messages);
  return save_result (out, result_path) ? 0 : 1;
}

/* ——— Phase 2, in its child: the restore on a fresh profile ——— */

/* The recovery key as a person types it from paper: lower case, groups apart with spaces. */
static char *
typed_recovery (const char *written)
{
  char *typed = g_ascii_strdown (written, -1);

  g_strdelimit (typed, "-", ' ');
  return typed;
}

static int
run_restore (const char *profile,
             const char *backup_dir,
             const char *recovery_path,
             const char *result_path)
{
  g_autoptr (GKeyFile) out = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (LoomRestoreResult) result = NULL;
  g_autofree char   *store_path = g_build_filename (profile, "store.db", NULL);
  const char *const  paths[] = { backup_dir, NULL };
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;
  Pace               pace = { g_array_new (FALSE, FALSE, sizeof (double)) };
  double             start, start_cpu, seconds, cpu;
  gint64             sessions, messages, archived;
  sqlite3           *db;

  if (recovery_path != NULL)
    {
      g_autofree char *written = NULL;
      g_autofree char *typed = NULL;

      if (!g_file_get_contents (recovery_path, &written, NULL, &error))
        {
          g_printerr ("Could not read the recovery key: %s\n", error->message);
          return 1;
        }
      typed = typed_recovery (written);
      key = loom_backup_key_new_from_recovery (typed, &error);
      memset (written, 0, strlen (written));
      memset (typed, 0, strlen (typed));
      if (key == NULL)
        {
          g_printerr ("The recovery key was refused: %s\n", error->message);
          return 1;
        }
      options.recovery_key = key;
    }

  start = now_s ();
  start_cpu = cpu_s ();
  if (!(store = loom_store_open (store_path, &error)))
    {
      g_printerr ("Could not open the store %s: %s\n", store_path, error->message);
      return 1;
    }
  options.progress = restore_progress;
  options.progress_data = &pace;
  result = loom_restore (store, paths, &options, NULL, &error);
  g_clear_object (&store);
  seconds = now_s () - start;
  cpu = cpu_s () - start_cpu;
  save_tenths (out, &pace, start + seconds);
  g_array_unref (pace.starts);
  if (result == NULL)
    {
      g_printerr ("The restore failed: %s\n", error->message);
      return 1;
    }
  for (guint i = 0; i < result->failed->len && i < 10; i++)
    {
      LoomRestoreItem *item = result->failed->pdata[i];

      g_printerr ("Not restored: %s: %s\n", item->path, item->error->message);
    }

  if (!(db = open_read_only (store_path)))
    return 1;
  sessions = query_int (db, "SELECT count (*) FROM sessions", NULL);
  messages = query_int (db, "SELECT count (*) FROM messages", NULL);
  archived = query_int (db, "SELECT count (*) FROM sessions WHERE archived = 1", NULL);
  sqlite3_close (db);

  g_key_file_set_double (out, "phase", "seconds", seconds);
  g_key_file_set_double (out, "phase", "cpu_seconds", cpu);
  g_key_file_set_uint64 (out, "phase", "restored", result->restored->len);
  g_key_file_set_uint64 (out, "phase", "unchanged", result->unchanged->len);
  g_key_file_set_uint64 (out, "phase", "failed", result->failed->len);
  g_key_file_set_int64 (out, "phase", "store_sessions", sessions);
  g_key_file_set_int64 (out, "phase", "store_messages", messages);
  g_key_file_set_int64 (out, "phase", "store_archived", archived);
  return save_result (out, result_path) ? 0 : 1;
}

/* ——— The parent ——— */

/* The environment of a new machine's profile: HOME and the XDG folders inside @profile. */
static char **
fresh_profile_environment (const char *profile)
{
  static const char *const folders[][2] = {
    { "HOME", "home" },
    { "XDG_CONFIG_HOME", "home/.config" },
    { "XDG_DATA_HOME", "home/.local/share" },
    { "XDG_STATE_HOME", "home/.local/state" },
    { "XDG_CACHE_HOME", "home/.cache" },
  };
  char **env = g_get_environ ();

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *path = g_build_filename (profile, folders[i][1], NULL);

      g_mkdir_with_parents (path, 0700);
      env = g_environ_setenv (env, folders[i][0], path, TRUE);
    }
  return env;
}

static gboolean
spawn_phase (const char *const *argv,
             char *const       *env,
             const char        *name,
             const char        *result_path,
             Phase             *phase)
{
  g_autoptr (GError) error = NULL;
  struct rusage usage;
  pid_t         pid;
  int           status = 0;

  /* What the previous phase wrote is on disk before this one starts. */
  sync ();
  phase->load = load_average ();
  if (posix_spawn (&pid, argv[0], NULL, NULL, (char *const *)argv, env) != 0)
    {
      g_printerr ("Could not start the %s phase: %s\n", name, g_strerror (errno));
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
      g_printerr ("The %s phase reported nothing (exit status %d)\n", name, phase->exit_status);
      return FALSE;
    }
  g_unlink (result_path);
  return phase->exit_status == 0;
}

/* A small corpus generated by loom-bench-corpus and imported into a new store in @work_dir. */
static char *
make_quick_store (const char *self,
                  const char *work_dir)
{
  g_autofree char *bindir = g_path_get_dirname (self);
  g_autofree char *generator = g_build_filename (bindir, "loom-bench-corpus", NULL);
  g_autofree char *corpus = g_build_filename (work_dir, "corpus", NULL);
  g_autofree char *store_path = g_build_filename (work_dir, "quick.db", NULL);
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

/* The tenths of @phase, "1.2 1.3 …" (the items in ten equal groups, in order), or "-". */
static char *
tenths_text (Phase      *phase,
             const char *separator)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree double *tenths = NULL;
  gsize              n = 0;

  if (phase->values == NULL ||
      !(tenths = g_key_file_get_double_list (phase->values, "phase", "tenths", &n, NULL)))
    return g_strdup ("-");
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (text, "%s%.2f", i > 0 ? separator : "", tenths[i]);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static double
dvalue (Phase      *phase,
        const char *key)
{
  return phase->values != NULL ? g_key_file_get_double (phase->values, "phase", key, NULL) : 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *phase = NULL;
  g_autofree char *result = NULL;
  g_autofree char *store = NULL;
  g_autofree char *out = NULL;
  g_autofree char *profile = NULL;
  g_autofree char *recovery = NULL;
  g_autofree char *self = NULL;
  g_autofree char *work_dir = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *backups = NULL;
  g_autofree char *sessions_text = NULL;
  g_autofree char *sweep_result = NULL;
  g_autofree char *restore_result = NULL;
  g_auto (GStrv) profile_env = NULL;
  gint64             n_sessions = 1000;
  gboolean           keep = FALSE, quick = FALSE, plain = FALSE, match = FALSE;
  const char        *mode;
  double             start, mb, sweep_s, restore_s;
  const GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store,
      "The store to sweep a copy of (the store itself is not changed)", "STORE" },
    { "sessions", 'n', 0, G_OPTION_ARG_INT64, &n_sessions,
      "How many sessions to sweep, the oldest (default 1000)", "N" },
    { "out", 0, 0, G_OPTION_ARG_FILENAME, &out,
      "Where to make the new folder for the copy, the backups and the restored store "
      "(default: $TMPDIR); it is removed afterwards",
      "DIR" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the copy, the backups and the restored store",
      NULL },
    { "plain", 0, 0, G_OPTION_ARG_NONE, &plain, "Sweep into plain package folders, unencrypted",
      NULL },
    { "quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
      "Generate a small corpus (loom-bench-corpus --quick), import it and benchmark that", NULL },
    { "phase", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &phase, NULL, NULL },
    { "result", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &result, NULL, NULL },
    { "backups", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &backups, NULL, NULL },
    { "profile", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &profile, NULL, NULL },
    { "recovery", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &recovery, NULL, NULL },
    { NULL }
  };
  Phase sweep = { 0 }, restore = { 0 };

  loom_core_init ();
  context = g_option_context_new ("- time an archive sweep and the restore of its backups");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (g_strcmp0 (phase, "sweep") == 0)
    return store != NULL && backups != NULL && result != NULL && recovery != NULL
             ? run_sweep (store, backups, n_sessions, plain, recovery, result)
             : 2;
  if (g_strcmp0 (phase, "restore") == 0)
    return profile != NULL && backups != NULL && result != NULL
             ? run_restore (profile, backups, plain ? NULL : recovery, result)
             : 2;
  /* In a child, so that the import's memory is not the phases': a process that posix_spawn ()
   * starts begins with its parent's peak RSS in ru_maxrss. */
  if (g_strcmp0 (phase, "quick") == 0)
    {
      g_autofree char *quick_store = NULL;

      if (out == NULL || !(self = g_file_read_link ("/proc/self/exe", &error)))
        return 2;
      return (quick_store = make_quick_store (self, out)) != NULL ? 0 : 1;
    }
  if (phase != NULL)
    return 2;

  if (!(self = g_file_read_link ("/proc/self/exe", &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  if (out != NULL && g_mkdir_with_parents (out, 0700) != 0)
    {
      g_printerr ("Could not create %s: %s\n", out, g_strerror (errno));
      return 1;
    }
  work_dir = g_build_filename (out != NULL ? out : g_get_tmp_dir (), "loom-bench-sweep-XXXXXX",
                               NULL);
  if (!g_mkdtemp_full (work_dir, 0700))
    {
      g_printerr ("Could not create %s: %s\n", work_dir, g_strerror (errno));
      return 1;
    }
  if (quick && store == NULL)
    {
      const char *quick_argv[] = { self, "--phase", "quick", "--out", work_dir, NULL };
      int         status = 0;

      if (!g_spawn_sync (NULL, (char **)quick_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                         NULL, NULL, &status, &error) ||
          !g_spawn_check_wait_status (status, &error))
        {
          g_printerr ("Could not make the quick store: %s\n", error->message);
          remove_tree (work_dir);
          return 1;
        }
      store = g_build_filename (work_dir, "quick.db", NULL);
    }
  if (store == NULL)
    {
      g_printerr ("Give --store STORE (a store `loom import` filled) or --quick\n");
      remove_tree (work_dir);
      return 2;
    }

  copy = g_build_filename (work_dir, "store-copy.db", NULL);
  g_free (backups);
  backups = g_build_filename (work_dir, "backups", NULL);
  profile = g_build_filename (work_dir, "new-machine", NULL);
  g_free (recovery);
  recovery = g_build_filename (work_dir, "recovery-key.txt", NULL);
  sweep_result = g_build_filename (work_dir, "sweep.result", NULL);
  restore_result = g_build_filename (work_dir, "restore.result", NULL);
  sessions_text = g_strdup_printf ("%" G_GINT64_FORMAT, n_sessions);
  mode = plain ? "plain" : "encrypted";

  start = now_s ();
  if (!copy_store (store, copy))
    {
      remove_tree (work_dir);
      return 1;
    }
  g_print ("Copied %s (%.1f MB) to %s in %.1f s; the sweep archives sessions of the copy only\n",
           store, bytes_under (copy) / 1e6, copy, now_s () - start);
  g_print ("Mode: %s\n\n", mode);

  {
    const char *sweep_argv[] = { self,          "--phase",
                                 "sweep",       "--store",
                                 copy,          "--backups",
                                 backups,       "--sessions",
                                 sessions_text, "--recovery",
                                 recovery,      "--result",
                                 sweep_result,  plain ? "--plain" : NULL,
                                 NULL };

    if (!spawn_phase (sweep_argv, environ, "sweep", sweep_result, &sweep))
      goto out;
  }
  sweep_s = dvalue (&sweep, "seconds");
  mb = value (&sweep, "bytes") / 1e6;
  g_print ("sweep:   %.2f s (CPU %.2f s), %" G_GUINT64_FORMAT
           " sessions archived (%" G_GUINT64_FORMAT " asked, %" G_GUINT64_FORMAT
           " failed), %" G_GUINT64_FORMAT " backups, %.1f MB written, "
           "%.1f MB/s, peak %.1f MB\n",
           sweep_s, dvalue (&sweep, "cpu_seconds"), value (&sweep, "sessions"),
           value (&sweep, "asked"), value (&sweep, "failed"), value (&sweep, "backups"), mb,
           sweep_s > 0 ? mb / sweep_s : 0, sweep.maxrss_kb / 1024.0);

  profile_env = fresh_profile_environment (profile);
  {
    const char *restore_argv[] = { self,     "--phase",   "restore",      "--profile",
                                   profile,  "--backups", backups,        "--recovery",
                                   recovery, "--result",  restore_result, plain ? "--plain" : NULL,
                                   NULL };

    if (!spawn_phase (restore_argv, profile_env, "restore", restore_result, &restore))
      goto out;
  }
  restore_s = dvalue (&restore, "seconds");
  g_print (
    "restore: %.2f s (CPU %.2f s), %" G_GUINT64_FORMAT " sessions restored (%" G_GUINT64_FORMAT
    " unchanged, %" G_GUINT64_FORMAT " failed), %.1f sessions/s, peak %.1f MB\n",
    restore_s, dvalue (&restore, "cpu_seconds"), value (&restore, "restored"),
    value (&restore, "unchanged"), value (&restore, "failed"),
    restore_s > 0 ? value (&restore, "restored") / restore_s : 0, restore.maxrss_kb / 1024.0);

  match = value (&restore, "restored") == value (&sweep, "sessions") &&
          value (&restore, "store_sessions") == value (&sweep, "tree_sessions") &&
          value (&restore, "store_messages") == value (&sweep, "tree_messages") &&
          value (&restore, "store_archived") == value (&sweep, "tree_sessions");
  {
    g_autofree char *sweep_tenths = tenths_text (&sweep, " ");
    g_autofree char *restore_tenths = tenths_text (&restore, " ");

    g_print ("each tenth of the sessions, in order, s: sweep %s; restore %s\n", sweep_tenths,
             restore_tenths);
  }
  g_print ("counts:  swept %" G_GUINT64_FORMAT " sessions with their sub-agents: %" G_GUINT64_FORMAT
           " sessions, %" G_GUINT64_FORMAT " messages; restored: %" G_GUINT64_FORMAT
           " sessions (%" G_GUINT64_FORMAT " archived), %" G_GUINT64_FORMAT " messages: %s\n",
           value (&sweep, "sessions"), value (&sweep, "tree_sessions"),
           value (&sweep, "tree_messages"), value (&restore, "store_sessions"),
           value (&restore, "store_archived"), value (&restore, "store_messages"),
           match ? "they match" : "they DO NOT match");
  if (sweep.load > 1.5 || restore.load > 1.5)
    g_print ("Load average %.2f / %.2f when the phases started: other work was running, the "
             "figures are pessimistic\n",
             sweep.load, restore.load);

  g_print ("\nmode=%s\n", mode);
  g_print ("sweep_seconds=%.2f\n", sweep_s);
  g_print ("sweep_cpu_seconds=%.2f\n", dvalue (&sweep, "cpu_seconds"));
  g_print ("sweep_sessions=%" G_GUINT64_FORMAT "\n", value (&sweep, "sessions"));
  g_print ("sweep_backups=%" G_GUINT64_FORMAT "\n", value (&sweep, "backups"));
  g_print ("sweep_mb_written=%.1f\n", mb);
  g_print ("sweep_mb_per_s=%.1f\n", sweep_s > 0 ? mb / sweep_s : 0);
  g_print ("sweep_peak_mb=%.1f\n", sweep.maxrss_kb / 1024.0);
  g_print ("restore_seconds=%.2f\n", restore_s);
  g_print ("restore_cpu_seconds=%.2f\n", dvalue (&restore, "cpu_seconds"));
  g_print ("restore_sessions=%" G_GUINT64_FORMAT "\n", value (&restore, "restored"));
  g_print ("restore_sessions_per_s=%.1f\n",
           restore_s > 0 ? value (&restore, "restored") / restore_s : 0);
  g_print ("restore_peak_mb=%.1f\n", restore.maxrss_kb / 1024.0);
  g_print ("restored_sessions_with_subagents=%" G_GUINT64_FORMAT "\n",
           value (&restore, "store_sessions"));
  g_print ("restored_messages=%" G_GUINT64_FORMAT "\n", value (&restore, "store_messages"));
  {
    g_autofree char *sweep_tenths = tenths_text (&sweep, ",");
    g_autofree char *restore_tenths = tenths_text (&restore, ",");

    g_print ("sweep_tenths_seconds=%s\n", sweep_tenths);
    g_print ("restore_tenths_seconds=%s\n", restore_tenths);
  }
  g_print ("counts_match=%s\n", match ? "yes" : "no");
  g_print ("load_average=%.2f,%.2f\n", sweep.load, restore.load);

out:
  g_unlink (recovery);
  if (!keep)
    remove_tree (work_dir);
  else
    g_print ("Kept: %s\n", work_dir);
  g_clear_pointer (&sweep.values, g_key_file_unref);
  g_clear_pointer (&restore.values, g_key_file_unref);
  return sweep.exit_status == 0 && restore.ran && restore.exit_status == 0 && match ? 0 : 1;
}
