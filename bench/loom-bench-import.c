/* loom-bench-import.c — how fast the importer is on a corpus, against parsing alone.
 *
 *   loom-bench-import [--detect] [--keep-store] [--store-dir DIR] CORPUS
 *   loom-bench-import --quick          (generates a 40 MB corpus with loom-bench-corpus first)
 *
 * Each phase runs in a child process of its own, one after the other, so that its peak memory
 * (ru_maxrss from wait4) and CPU time are its own and no phase inherits another's heap:
 *
 *   read      every file read once (untimed warm-up of the page cache, and the I/O floor)
 *   parse     every record parsed as the importer parses it: one loom_json_doc_parse() per
 *             JSON Lines line, the whole file for .json documents
 *   json-glib the same with json-glib's JsonParser, which the importer used before, for reference
 *   reader    the same through the importer's own LoomJsonlReader (UTF-8 check, splitting of
 *             lines with several values, surrogate repair, depth guard)
 *   import    loom_import_run() into a fresh store: all of claude/, codex/ and gemini/
 *   reimport  loom_import_run() again on the unchanged corpus
 *
 * The import target is judged against "parse": parsing is the work no importer can avoid,
 * while what the reader adds is part of the importer's own cost.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "loom-core.h"
#include "loom-import.h"
#include "loom-json-value.h"
#include "loom-jsonl-reader.h"
#include "loom-store.h"

extern char **environ;

#define TARGET_RECORDS_PER_S 50000.0
#define TARGET_RATIO         3.0
#define TARGET_REIMPORT_S    1.0

static const struct
{
  const char *folder;
  const char *source;
} roots[] = {
  { "claude", "claude-code" },
  { "codex", "codex" },
  { "gemini", "gemini" },
};

static const char *const phase_names[] = { "read",   "parse",    "json-glib", "reader",
                                           "import", "reimport", "index" };

typedef struct
{
  double    load_before; /* the machine's 1-minute load average when the phase started */
  gboolean  ran;
  int       exit_status;
  double    seconds;     /* wall time of the measured work, from the child */
  double    cpu_seconds; /* user + system of the whole child */
  glong     maxrss_kb;
  GKeyFile *values; /* what the child reported */
} Phase;

/* ——— Walking the corpus ——— */

static void
collect_files (const char *dir,
               GPtrArray  *files)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  if (listing == NULL)
    return;
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      struct stat      st;

      if (lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        collect_files (path, files);
      else if (S_ISREG (st.st_mode) &&
               (g_str_has_suffix (name, ".jsonl") || g_str_has_suffix (name, ".json")))
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

static GPtrArray *
corpus_files (const char *corpus)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    {
      g_autofree char *root = g_build_filename (corpus, roots[i].folder, NULL);

      collect_files (root, files);
    }
  g_ptr_array_sort (files, compare_paths);
  return files;
}

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* ——— Phases (in the child) ——— */

static gboolean
phase_read (const char *corpus,
            GKeyFile   *out)
{
  g_autoptr (GPtrArray) files = corpus_files (corpus);
  g_autofree char *buffer = g_malloc (1 << 20);
  guint64          bytes = 0;
  double           start = now_s ();

  for (guint i = 0; i < files->len; i++)
    {
      int     fd = open (g_ptr_array_index (files, i), O_RDONLY | O_CLOEXEC);
      ssize_t n;

      if (fd < 0)
        continue;
      while ((n = read (fd, buffer, 1 << 20)) > 0)
        bytes += (guint64)n;
      close (fd);
    }

  g_key_file_set_double (out, "phase", "seconds", now_s () - start);
  g_key_file_set_uint64 (out, "phase", "files", files->len);
  g_key_file_set_uint64 (out, "phase", "bytes", bytes);
  return TRUE;
}

/* One text into a tree with the importer's parser, or with json-glib's when @parser is set.
 * The importer's reader keeps one document for all the records of a file; here one serves the
 * whole phase, which runs in a process of its own. */
static gboolean
parse_text (JsonParser *parser,
            const char *text,
            gsize       length)
{
  static LoomJsonDoc *doc = NULL;

  if (parser != NULL)
    return json_parser_load_from_data (parser, text, (gssize)length, NULL);
  if (doc == NULL)
    doc = loom_json_doc_new ();
  return loom_json_doc_parse (doc, text, length, NULL) != NULL;
}

static gboolean
phase_parse (const char *corpus,
             gboolean    with_json_glib,
             GKeyFile   *out)
{
  g_autoptr (GPtrArray) files = corpus_files (corpus);
  g_autoptr (JsonParser) parser = with_json_glib ? json_parser_new_immutable () : NULL;
  char   *line = NULL;
  size_t  capacity = 0;
  guint64 records = 0, errors = 0, bytes = 0;
  double  start = now_s ();

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      if (g_str_has_suffix (path, ".json"))
        {
          g_autofree char *contents = NULL;
          gsize            length = 0;

          if (!g_file_get_contents (path, &contents, &length, NULL))
            continue;
          bytes += length;
          if (parse_text (parser, contents, length))
            records++;
          else
            errors++;
        }
      else
        {
          FILE   *fp = fopen (path, "rbe");
          ssize_t n;

          if (fp == NULL)
            continue;
          while ((n = getline (&line, &capacity, fp)) > 0)
            {
              gsize len = (gsize)n;

              bytes += len;
              while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
                len--;
              if (len == 0)
                continue;
              if (parse_text (parser, line, len))
                records++;
              else
                errors++;
            }
          fclose (fp);
        }
    }
  free (line);

  g_key_file_set_double (out, "phase", "seconds", now_s () - start);
  g_key_file_set_uint64 (out, "phase", "files", files->len);
  g_key_file_set_uint64 (out, "phase", "records", records);
  g_key_file_set_uint64 (out, "phase", "errors", errors);
  g_key_file_set_uint64 (out, "phase", "bytes", bytes);
  return TRUE;
}

/* The document path of loom-import-file.c: map, check UTF-8, copy, repair, parse. */
static gboolean
reader_document (const char *path,
                 guint64    *bytes)
{
  g_autoptr (GMappedFile) mapped = g_mapped_file_new (path, FALSE, NULL);
  g_autofree char *copy = NULL;
  const char      *contents;
  gsize            length, ends[2];

  if (mapped == NULL)
    return FALSE;
  contents = g_mapped_file_get_contents (mapped);
  length = g_mapped_file_get_length (mapped);
  *bytes += length;
  if (contents == NULL || length == 0 ||
      loom_jsonl_split_values (contents, length, LOOM_JSONL_MAX_DEPTH, ends, 2) < 0)
    return FALSE;
  if (!g_utf8_validate_len (contents, length, NULL))
    {
      copy = g_utf8_make_valid (contents, (gssize)length);
      length = strlen (copy);
    }
  else
    copy = g_strndup (contents, length);
  loom_jsonl_fix_surrogates (copy, length);
  return parse_text (NULL, copy, length);
}

static gboolean
phase_reader (const char *corpus,
              GKeyFile   *out)
{
  g_autoptr (GPtrArray) files = corpus_files (corpus);
  guint64 records = 0, problems = 0, bytes = 0;
  double  start = now_s ();

  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr (LoomJsonlReader) reader = NULL;
      LoomJsonlResult result;

      if (g_str_has_suffix (path, ".json"))
        {
          if (reader_document (path, &bytes))
            records++;
          else
            problems++;
          continue;
        }

      if (!(reader = loom_jsonl_reader_new (path, 0, 0, NULL)))
        continue;
      do
        {
          g_autofree char *problem = NULL;
          const LoomJson  *record = NULL;

          result = loom_jsonl_reader_next (reader, &record, &problem, NULL);
          if (result == LOOM_JSONL_RECORD)
            records++;
          else if (result == LOOM_JSONL_BAD)
            problems++;
        }
      while (result == LOOM_JSONL_RECORD || result == LOOM_JSONL_BAD);
      bytes += loom_jsonl_reader_get_offset (reader);
    }

  g_key_file_set_double (out, "phase", "seconds", now_s () - start);
  g_key_file_set_uint64 (out, "phase", "files", files->len);
  g_key_file_set_uint64 (out, "phase", "records", records);
  g_key_file_set_uint64 (out, "phase", "errors", problems);
  g_key_file_set_uint64 (out, "phase", "bytes", bytes);
  return TRUE;
}

typedef struct
{
  guint64 done_before;
  guint64 grand_total;
  int     last_percent;
} Progress;

static void
on_progress (guint64     done,
             guint64     total,
             const char *path,
             gpointer    user_data)
{
  Progress *progress = user_data;
  int       percent;

  if (progress->grand_total == 0)
    return;
  percent = (int)((progress->done_before + done) * 100 / progress->grand_total);
  if (percent != progress->last_percent)
    {
      progress->last_percent = percent;
      g_printerr ("\r  importing... %3d %%", percent);
    }
}

static gboolean
phase_import (const char *corpus,
              const char *store_path,
              gboolean    detect,
              GKeyFile   *out)
{
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) sources = g_ptr_array_new ();
  Progress   progress = { 0, 0, -1 };
  gboolean   show_progress = isatty (2);
  LoomStore *store;
  double     start, imported, closed;

  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    {
      char *root = g_build_filename (corpus, roots[i].folder, NULL);

      if (!g_file_test (root, G_FILE_TEST_IS_DIR))
        {
          g_free (root);
          continue;
        }
      g_ptr_array_add (paths, root);
      g_ptr_array_add (sources, (gpointer)roots[i].source);
    }

  if (show_progress)
    {
      g_autoptr (GPtrArray) files = corpus_files (corpus);

      for (guint i = 0; i < files->len; i++)
        {
          struct stat st;

          if (stat (g_ptr_array_index (files, i), &st) == 0)
            progress.grand_total += (guint64)st.st_size;
        }
    }

  start = now_s ();
  store = loom_store_open (store_path, &error);
  if (store == NULL)
    {
      g_printerr ("Could not open the store %s: %s\n", store_path, error->message);
      return FALSE;
    }

  if (detect)
    {
      /* One pass over every folder, each file's format detected from its content. */
      LoomImportOptions options = { NULL, NULL };

      g_ptr_array_add (paths, NULL);
      options.paths = (const char *const *)paths->pdata;
      if (!loom_import_run (store, &options, show_progress ? on_progress : NULL, &progress, NULL,
                            stats, &error))
        {
          g_printerr ("Import failed: %s\n", error->message);
          g_object_unref (store);
          return FALSE;
        }
    }
  else
    for (guint i = 0; i < paths->len; i++)
      {
        const char       *one[] = { g_ptr_array_index (paths, i), NULL };
        LoomImportOptions options = { g_ptr_array_index (sources, i), one };

        if (!loom_import_run (store, &options, show_progress ? on_progress : NULL, &progress, NULL,
                              stats, &error))
          {
            g_printerr ("Import of %s failed: %s\n", one[0], error->message);
            g_object_unref (store);
            return FALSE;
          }
        /* The callback reports bytes within one run; carry them over to the next. */
        if (show_progress)
          {
            g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

            collect_files (one[0], files);
            for (guint f = 0; f < files->len; f++)
              {
                struct stat st;

                if (stat (g_ptr_array_index (files, f), &st) == 0)
                  progress.done_before += (guint64)st.st_size;
              }
          }
      }
  imported = now_s ();
  /* Closing the last connection checkpoints the WAL into the database: part of the cost. */
  g_object_unref (store);
  closed = now_s ();
  if (show_progress)
    g_printerr ("\r                      \r");

  g_key_file_set_double (out, "phase", "seconds", closed - start);
  g_key_file_set_double (out, "phase", "close_seconds", closed - imported);
  g_key_file_set_uint64 (out, "phase", "files_seen", stats->files_seen);
  g_key_file_set_uint64 (out, "phase", "files_imported", stats->files_imported);
  g_key_file_set_uint64 (out, "phase", "files_unchanged", stats->files_unchanged);
  g_key_file_set_uint64 (out, "phase", "files_failed", stats->files_failed);
  g_key_file_set_uint64 (out, "phase", "sessions_touched", stats->sessions_touched);
  g_key_file_set_uint64 (out, "phase", "sessions_new", stats->sessions_new);
  g_key_file_set_uint64 (out, "phase", "messages", stats->messages);
  g_key_file_set_uint64 (out, "phase", "events", stats->events);
  g_key_file_set_uint64 (out, "phase", "records", stats->records);
  g_key_file_set_uint64 (out, "phase", "bytes", stats->bytes);
  g_key_file_set_uint64 (out, "phase", "warnings", stats->warnings->len);
  if (stats->warnings->len > 0)
    {
      guint n = MIN (stats->warnings->len, 40);

      g_ptr_array_add (stats->warnings, NULL);
      g_key_file_set_string_list (out, "phase", "warning_list",
                                  (const char *const *)stats->warnings->pdata, n);
      g_ptr_array_remove_index (stats->warnings, stats->warnings->len - 1);
    }
  return TRUE;
}

/* Indexes again every title, message and event the import stored, as `loom index rebuild`
 * does: what the search index alone costs, of the import's time. */
static gboolean
phase_index (const char *store_path,
             GKeyFile   *out)
{
  g_autoptr (GError) error = NULL;
  LoomStore *store;
  double     start;

  start = now_s ();
  store = loom_store_open (store_path, &error);
  if (store == NULL || !loom_store_rebuild_index (store, &error))
    {
      g_printerr ("Could not rebuild the search index of %s: %s\n", store_path, error->message);
      g_clear_object (&store);
      return FALSE;
    }
  g_object_unref (store);
  g_key_file_set_double (out, "phase", "seconds", now_s () - start);
  return TRUE;
}

static int
run_phase (const char *phase,
           const char *corpus,
           const char *store_path,
           gboolean    detect,
           const char *result_path)
{
  g_autoptr (GKeyFile) out = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  gboolean ok;

  if (g_strcmp0 (phase, "read") == 0)
    ok = phase_read (corpus, out);
  else if (g_strcmp0 (phase, "parse") == 0)
    ok = phase_parse (corpus, FALSE, out);
  else if (g_strcmp0 (phase, "json-glib") == 0)
    ok = phase_parse (corpus, TRUE, out);
  else if (g_strcmp0 (phase, "reader") == 0)
    ok = phase_reader (corpus, out);
  else if (g_strcmp0 (phase, "import") == 0 || g_strcmp0 (phase, "reimport") == 0)
    ok = phase_import (corpus, store_path, detect, out);
  else if (g_strcmp0 (phase, "index") == 0)
    ok = phase_index (store_path, out);
  else
    {
      g_printerr ("Unknown phase %s\n", phase);
      return 2;
    }

  if (!g_key_file_save_to_file (out, result_path, &error))
    {
      g_printerr ("Could not write %s: %s\n", result_path, error->message);
      return 1;
    }
  return ok ? 0 : 1;
}

/* ——— The parent ——— */

static gboolean
spawn_phase (const char *self,
             const char *phase_name,
             const char *corpus,
             const char *store_path,
             gboolean    detect,
             const char *work_dir,
             Phase      *phase)
{
  g_autofree char *result_path = g_strdup_printf ("%s/%s.result", work_dir, phase_name);
  g_autoptr (GError) error = NULL;
  const char   *argv[12];
  struct rusage usage;
  pid_t         pid;
  int           status = 0, n = 0;

  argv[n++] = self;
  argv[n++] = "--phase";
  argv[n++] = phase_name;
  argv[n++] = "--result";
  argv[n++] = result_path;
  argv[n++] = "--store";
  argv[n++] = store_path;
  if (detect)
    argv[n++] = "--detect";
  argv[n++] = "--";
  argv[n++] = corpus;
  argv[n] = NULL;

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
  phase->cpu_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                       usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  phase->values = g_key_file_new ();
  if (!g_key_file_load_from_file (phase->values, result_path, G_KEY_FILE_NONE, &error))
    {
      g_printerr ("The %s phase reported nothing (exit status %d)\n", phase_name,
                  phase->exit_status);
      return FALSE;
    }
  phase->seconds = g_key_file_get_double (phase->values, "phase", "seconds", NULL);
  g_unlink (result_path);
  return phase->exit_status == 0;
}

static guint64
value (Phase      *phase,
       const char *key)
{
  return phase->values ? g_key_file_get_uint64 (phase->values, "phase", key, NULL) : 0;
}

/* The 1-minute load average: other work on the machine makes every figure worse. */
static double
load_average (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return -1;
  return g_ascii_strtod (text, NULL);
}

static guint64
file_size (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 ? (guint64)st.st_size : 0;
}

/* Sizes of the store's tables and indexes, from SQLite's dbstat. */
static void
print_store (const char *store_path)
{
  g_autofree char *wal = g_strconcat (store_path, "-wal", NULL);
  guint64          on_disk = file_size (store_path) + file_size (wal);
  sqlite3         *db = NULL;
  sqlite3_stmt    *stmt = NULL;
  gint64           total = 0, index = 0;
  GString         *top = g_string_new (NULL);

  g_print ("Store on disk: %.1f MB", on_disk / 1e6);
  if (sqlite3_open_v2 (store_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db,
                          "SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name"
                          " ORDER BY size DESC",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      g_print (" (no dbstat: %s)\n", db ? sqlite3_errmsg (db) : "?");
      sqlite3_close (db);
      g_string_free (top, TRUE);
      return;
    }
  for (guint row = 0; sqlite3_step (stmt) == SQLITE_ROW; row++)
    {
      const char *name = (const char *)sqlite3_column_text (stmt, 0);
      gint64      size = sqlite3_column_int64 (stmt, 1);

      total += size;
      if (g_str_has_prefix (name, "search_index") || g_str_equal (name, "search_entries"))
        index += size;
      if (row < 8)
        g_string_append_printf (top, "    %-28s %10.1f MB\n", name, size / 1e6);
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  g_print ("; the search index (search_index*, search_entries) takes %.1f MB, "
           "%.0f %% of the pages\n",
           index / 1e6, total > 0 ? 100.0 * index / total : 0);
  g_print ("  largest objects:\n%s", top->str);
  g_string_free (top, TRUE);
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);

        if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
          remove_tree (child);
        else
          g_unlink (child);
      }
  g_rmdir (path);
}

static guint64
manifest_records (const char *corpus)
{
  g_autofree char *path = g_build_filename (corpus, "manifest.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *sources;
  GList      *members;
  guint64     records = 0;

  if (!json_parser_load_from_file (parser, path, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return 0;
  sources = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                           "sources");
  if (sources == NULL)
    return 0;
  members = json_object_get_values (sources);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonObject *counts = json_node_get_object (l->data);

      records += (guint64)json_object_get_int_member_with_default (counts, "records", 0);
      records += (guint64)json_object_get_int_member_with_default (counts, "documents", 0);
    }
  g_list_free (members);
  return records;
}

static void
print_row (const char *name,
           Phase      *phase,
           guint64     records)
{
  double  s = phase->seconds;
  guint64 bytes = value (phase, "bytes");

  if (!phase->ran)
    return;
  g_print ("%-30s %9.2f s %9.2f s %12.0f %9.1f %9.1f MB\n", name, s, phase->cpu_seconds,
           s > 0 && records > 0 ? records / s : 0, s > 0 ? bytes / 1e6 / s : 0,
           phase->maxrss_kb / 1024.0);
}

static const char *
verdict (gboolean met)
{
  return met ? "met" : "MISSED";
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
  g_autofree char *store_dir = NULL;
  g_autofree char *self = NULL;
  g_autofree char *work_dir = NULL;
  g_autofree char *store_path = NULL;
  g_autofree char *quick_corpus = NULL;
  g_auto (GStrv) rest = NULL;
  gboolean           detect = FALSE, keep_store = FALSE, quick = FALSE;
  const GOptionEntry entries[] = {
    { "detect", 0, 0, G_OPTION_ARG_NONE, &detect,
      "Detect each file's format instead of naming the agent per folder", NULL },
    { "keep-store", 0, 0, G_OPTION_ARG_NONE, &keep_store, "Keep the store afterwards", NULL },
    { "store-dir", 0, 0, G_OPTION_ARG_FILENAME, &store_dir,
      "Where the temporary store goes (default: a new folder in $TMPDIR)", "DIR" },
    { "quick", 'q', 0, G_OPTION_ARG_NONE, &quick,
      "Generate a small corpus (loom-bench-corpus --quick) and benchmark it", NULL },
    { "phase", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &phase, NULL, NULL },
    { "result", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &result, NULL, NULL },
    { "store", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &store, NULL, NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, "CORPUS" },
    { NULL }
  };
  Phase       phases[G_N_ELEMENTS (phase_names)] = { { 0 } };
  Phase      *read_p = &phases[0], *parse_p = &phases[1], *glib_p = &phases[2];
  Phase      *reader_p = &phases[3], *import_p = &phases[4], *reimport_p = &phases[5];
  Phase      *index_p = &phases[6];
  const char *corpus;
  guint64     expected, records, bytes;
  double      import_s, parse_s, ratio, rate;
  gboolean    ok = TRUE;

  loom_core_init ();

  context = g_option_context_new ("CORPUS - time the importer against parsing alone");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (phase != NULL)
    {
      if (rest == NULL || rest[0] == NULL || result == NULL)
        return 2;
      return run_phase (phase, rest[0], store, detect, result);
    }

  self = g_file_read_link ("/proc/self/exe", &error);
  if (self == NULL)
    {
      g_printerr ("Could not find this program: %s\n", error->message);
      return 1;
    }
  work_dir = g_dir_make_tmp ("loom-bench-XXXXXX", &error);
  if (work_dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  if (quick && (rest == NULL || rest[0] == NULL))
    {
      g_autofree char *bindir = g_path_get_dirname (self);
      g_autofree char *generator = g_build_filename (bindir, "loom-bench-corpus", NULL);
      const char      *gen_argv[] = { generator, "--quick", "--out", NULL, NULL };
      int              status = 0;

      quick_corpus = g_build_filename (work_dir, "corpus", NULL);
      gen_argv[3] = quick_corpus;
      if (!g_spawn_sync (NULL, (char **)gen_argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                         NULL, NULL, &status, &error) ||
          !g_spawn_check_wait_status (status, &error))
        {
          g_printerr ("Could not generate a corpus with %s: %s\n", generator, error->message);
          return 1;
        }
      corpus = quick_corpus;
    }
  else if (rest != NULL && rest[0] != NULL)
    corpus = rest[0];
  else
    {
      g_printerr ("Usage: %s [--detect] [--keep-store] CORPUS | --quick\n", g_get_prgname ());
      return 2;
    }

  if (store_dir != NULL)
    {
      g_mkdir_with_parents (store_dir, 0700);
      store_path = g_build_filename (store_dir, "history.db", NULL);
      if (g_file_test (store_path, G_FILE_TEST_EXISTS))
        {
          g_printerr ("%s exists: the benchmark needs a fresh store\n", store_path);
          return 2;
        }
    }
  else
    store_path = g_build_filename (work_dir, "history.db", NULL);

  g_print ("Corpus %s; store %s; one process per phase, one after the other\n\n", corpus,
           store_path);
  for (guint i = 0; i < G_N_ELEMENTS (phase_names) && ok; i++)
    {
      if (isatty (1))
        {
          g_print ("phase %-9s ...", phase_names[i]);
          fflush (stdout);
        }
      /* The previous phase's writes go to disk first, so that no phase waits for another's. */
      sync ();
      phases[i].load_before = load_average ();
      ok = spawn_phase (self, phase_names[i], corpus, store_path, detect, work_dir, &phases[i]);
      g_print ("%sphase %-9s %8.2f s, peak %7.1f MB\n", isatty (1) ? "\r" : "", phase_names[i],
               phases[i].seconds, phases[i].maxrss_kb / 1024.0);
      fflush (stdout);
    }

  expected = manifest_records (corpus);
  records = value (import_p, "records");
  bytes = value (import_p, "bytes");
  import_s = import_p->seconds;
  parse_s = parse_p->seconds;
  rate = import_s > 0 ? records / import_s : 0;
  ratio = parse_s > 0 ? import_s / parse_s : 0;

  g_print ("\n%-30s %11s %11s %12s %9s %12s\n", "phase", "wall", "CPU", "records/s", "MB/s",
           "peak RSS");
  print_row ("read files (warm-up)", read_p, 0);
  print_row ("parse-only, loom_json_doc_parse", parse_p, value (parse_p, "records"));
  print_row ("json-glib parse for reference", glib_p, value (glib_p, "records"));
  print_row ("parse-only, LoomJsonlReader", reader_p, value (reader_p, "records"));
  print_row ("import (fresh store)", import_p, records);
  print_row ("re-import (no change)", reimport_p, value (reimport_p, "records"));
  print_row ("search index alone (rebuilt)", index_p, records);

  g_print ("\nCorpus: %" G_GUINT64_FORMAT " files, %.3f GB", value (read_p, "files"),
           value (read_p, "bytes") / 1e9);
  if (expected > 0)
    g_print ("; the generator wrote %" G_GUINT64_FORMAT " complete records", expected);
  g_print ("\nParse-only: %" G_GUINT64_FORMAT " records parsed, %" G_GUINT64_FORMAT
           " lines refused (json-glib: %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
           "); the reader: %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT
           " problems reported\n",
           value (parse_p, "records"), value (parse_p, "errors"), value (glib_p, "records"),
           value (glib_p, "errors"), value (reader_p, "records"), value (reader_p, "errors"));
  if (import_p->ran)
    {
      g_print ("Import: %" G_GUINT64_FORMAT " records, %.1f MB; files %" G_GUINT64_FORMAT
               " seen, %" G_GUINT64_FORMAT " imported, %" G_GUINT64_FORMAT
               " failed; sessions %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT
               " new); messages %" G_GUINT64_FORMAT "; events %" G_GUINT64_FORMAT
               "; warnings %" G_GUINT64_FORMAT "; final checkpoint and close %.2f s\n",
               records, bytes / 1e6, value (import_p, "files_seen"),
               value (import_p, "files_imported"), value (import_p, "files_failed"),
               value (import_p, "sessions_touched"), value (import_p, "sessions_new"),
               value (import_p, "messages"), value (import_p, "events"),
               value (import_p, "warnings"),
               g_key_file_get_double (import_p->values, "phase", "close_seconds", NULL));
      if (expected > 0 && records != expected)
        g_print ("  records differ from the generator's count by %" G_GINT64_FORMAT "\n",
                 (gint64)records - (gint64)expected);
      {
        g_auto (GStrv) warnings = g_key_file_get_string_list (import_p->values, "phase",
                                                              "warning_list", NULL, NULL);

        for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
          g_print ("  warning: %s\n", warnings[i]);
        if (value (import_p, "warnings") > 40)
          g_print ("  ... and %" G_GUINT64_FORMAT " more\n", value (import_p, "warnings") - 40);
      }
    }
  if (reimport_p->ran)
    g_print ("Re-import: %" G_GUINT64_FORMAT " files unchanged, %" G_GUINT64_FORMAT
             " read again, %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT
             " messages, %" G_GUINT64_FORMAT " events added\n",
             value (reimport_p, "files_unchanged"), value (reimport_p, "files_imported"),
             value (reimport_p, "records"), value (reimport_p, "messages"),
             value (reimport_p, "events"));
  if (index_p->ran && import_s > 0)
    g_print ("Where the import's time goes, roughly: reading and parsing %.1f s (the reader "
             "phase), the search index %.1f s (indexing it all again), the rest %.1f s "
             "(storing rows, sessions and cursors)\n",
             reader_p->seconds, index_p->seconds,
             MAX (import_s - reader_p->seconds - index_p->seconds, 0));
  if (import_p->ran)
    print_store (store_path);

  {
    double max_load = 0;

    g_print ("\nLoad average (1 min) when each phase started:");
    for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
      if (phases[i].ran)
        {
          g_print (" %s %.2f", phase_names[i], phases[i].load_before);
          max_load = MAX (max_load, phases[i].load_before);
        }
    g_print ("\n");
    if (max_load > 1.5)
      g_print ("  The machine was busy with other work (%u cores): the figures are pessimistic.\n",
               g_get_num_processors ());
  }

  if (import_p->ran && parse_p->ran)
    {
      g_print ("\nTargets (indexing on, one core):\n");
      g_print ("  import >= %.0f records/s:       %10.0f records/s  %s\n", TARGET_RECORDS_PER_S,
               rate, verdict (rate >= TARGET_RECORDS_PER_S));
      g_print ("  import <= %.0fx parse-only:          %10.2fx          %s"
               "  (%.2fx the LoomJsonlReader pass)\n",
               TARGET_RATIO, ratio, verdict (ratio <= TARGET_RATIO),
               reader_p->seconds > 0 ? import_s / reader_p->seconds : 0);
      if (reimport_p->ran)
        g_print ("  no-change re-import < %.0f s:        %10.2f s          %s\n", TARGET_REIMPORT_S,
                 reimport_p->seconds, verdict (reimport_p->seconds < TARGET_REIMPORT_S));
    }

  if (!keep_store)
    {
      g_autofree char *wal = g_strconcat (store_path, "-wal", NULL);
      g_autofree char *shm = g_strconcat (store_path, "-shm", NULL);

      g_unlink (store_path);
      g_unlink (wal);
      g_unlink (shm);
    }
  else
    g_print ("\nThe store was kept: %s\n", store_path);
  if (quick_corpus != NULL)
    remove_tree (quick_corpus);
  if (!keep_store || store_dir != NULL)
    g_rmdir (work_dir);

  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    g_clear_pointer (&phases[i].values, g_key_file_free);
  return ok ? 0 : 1;
}
