/* loom-bench-search.c — search latency on an imported corpus, beside ripgrep on the raw files.
 *
 * For each of a set of realistic queries (rare and common words, phrases, prefixes, filters,
 * identifiers, paths, text without spaces) the first page of hits is fetched several times;
 * the program prints p50/p95 over all queries, the time `rg` needs to answer the same words over
 * the corpus files, their ratio, and the search index's share of the store.
 *
 * Usage: loom-bench-search --store STORE --corpus DIR [--runs N]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "loom-core.h"
#include "loom-search.h"
#include "loom-search-tokenizer.h"
#include "loom-store.h"

typedef struct
{
  const char *query; /* as typed in the app or given to loom search */
  const char *rg;    /* what a person would give rg for the same question */
} Query;

static const Query queries[] = {
  /* rare words */
  { "lifetime", "lifetime" },
  { "borrow", "borrow" },
  { "benchmark", "benchmark" },
  { "pipeline deploy", "pipeline" },
  { "panic", "panic" },
  { "closure iterator", "closure" },
  /* common words */
  { "error", "error" },
  { "test", "test" },
  { "the file", "the file" },
  { "build", "build" },
  { "session", "session" },
  /* phrases */
  { "\"memory leak\"", "memory leak" },
  { "\"the build\"", "the build" },
  { "\"null pointer\"", "null pointer" },
  { "\"let me check\"", "let me check" },
  /* prefixes */
  { "migrat*", "migrat" },
  { "pars*", "pars" },
  { "config*", "config" },
  /* filters */
  { "error agent:codex", "error" },
  { "timeout role:user", "timeout" },
  { "crash tool:Bash", "crash" },
  { "deadlock OR panic", "deadlock|panic" },
  { "leak -test", "leak" },
  { "latency has:error", "latency" },
  { "cache after:2026-01-01", "cache" },
  /* identifiers and paths */
  { "parse_record", "parse_record" },
  { "loadConfig", "loadConfig" },
  { "session_store", "session_store" },
  { "TenantLibrary", "TenantLibrary" },
  { "apply_patch", "apply_patch" },
  { "src/parser.rs", "src/parser.rs" },
  /* text without spaces */
  { "失敗", "失敗" },
  { "内存泄漏", "内存泄漏" },
};

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static double
percentile (GArray *values,
            double  p)
{
  guint index;

  g_array_sort (values, compare_doubles);
  index = (guint)(p * (values->len - 1) + 0.5);
  return g_array_index (values, double, index);
}

/* Seconds rg needs to list every file containing @pattern (case-insensitive), or -1: the
 * sessions that answer the question, which is what a person asks rg for. (--quiet would stop
 * at the first match in the whole corpus.) */
static double
time_rg (const char *corpus,
         const char *pattern)
{
  const char *argv[] = { "rg", "--files-with-matches", "-i", "-e", pattern, corpus, NULL };
  g_autoptr (GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  int    status = 0;

  if (!g_spawn_sync (NULL, (char **)argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    return -1;
  return (g_get_monotonic_time () - start) / 1e6;
}

static void
print_index_share (const char *store_path)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  double        index = 0, total = 0;

  if (sqlite3_open_v2 (store_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2 (db,
                          "SELECT name LIKE 'search_index%' OR name = 'search_entries',"
                          " sum (pgsize) FROM dbstat"
                          " GROUP BY 1",
                          -1, &stmt, NULL) != SQLITE_OK)
    {
      printf ("index share:       (dbstat is not available in this SQLite)\n");
      sqlite3_close (db);
      return;
    }
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      double size = sqlite3_column_double (stmt, 1);

      total += size;
      if (sqlite3_column_int (stmt, 0))
        index += size;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  printf ("store size:        %.1f MB, of which the search index %.1f MB (%.0f%%)\n", total / 1e6,
          index / 1e6, total > 0 ? 100 * index / total : 0);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *store_path = NULL;
  g_autofree char *corpus = NULL;
  int              runs = 5;
  GOptionEntry     entries[] = {
    { "store", 0, 0, G_OPTION_ARG_FILENAME, &store_path, "An imported store", "STORE" },
    { "corpus", 0, 0, G_OPTION_ARG_FILENAME, &corpus, "The corpus's files, for rg", "DIR" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Runs per query (default 5)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- search latency beside rg");
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (double));
  double rg_total = 0, loom_total = 0;
  guint  rg_count = 0;

  loom_core_init ();

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || store_path == NULL)
    {
      g_printerr ("%s\n", error ? error->message : "--store is required");
      return 2;
    }

  if (!(store = loom_store_open (store_path, &error)))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  printf ("%-28s %8s %8s %6s %9s %8s\n", "query", "p50 ms", "max ms", "hits", "rg ms", "rg/p50");
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      g_autoptr (GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
      guint  hits = 0;
      double rg = corpus ? time_rg (corpus, queries[q].rg) : -1;
      double p50;

      for (int r = 0; r < runs; r++)
        {
          g_autoptr (GListModel) model = NULL;
          gint64 start = g_get_monotonic_time ();
          double ms;

          model = loom_store_search (store, queries[q].query, 0, 20, &error);
          ms = (g_get_monotonic_time () - start) / 1e3;
          if (model == NULL)
            {
              g_printerr ("%s: %s\n", queries[q].query, error->message);
              return 1;
            }
          hits = g_list_model_get_n_items (model);
          g_array_append_val (times, ms);
          g_array_append_val (all, ms);
        }
      p50 = percentile (times, 0.5);
      loom_total += p50;
      if (rg >= 0)
        {
          rg_total += rg * 1e3;
          rg_count++;
        }
      printf ("%-28s %8.2f %8.2f %6u %9.0f %8.0f\n", queries[q].query, p50,
              g_array_index (times, double, times->len - 1), hits, rg * 1e3,
              rg >= 0 && p50 > 0 ? rg * 1e3 / p50 : 0);
    }

  printf ("\nqueries:           %u, %d runs each, first page of 20 hits\n",
          (guint)G_N_ELEMENTS (queries), runs);
  printf ("latency:           p50 %.2f ms, p95 %.2f ms (target: p95 under 50 ms)\n",
          percentile (all, 0.5), percentile (all, 0.95));
  if (rg_count > 0)
    printf ("rg on the corpus:  %.0f ms a query on average; loom %.0fx faster (target: 100x)\n",
            rg_total / rg_count, (rg_total / rg_count) / (loom_total / G_N_ELEMENTS (queries)));
  print_index_share (store_path);
  return 0;
}
