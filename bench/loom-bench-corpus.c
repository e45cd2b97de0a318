/* loom-bench-corpus.c — writes a realistic corpus of agent sessions for the import benchmark.
 *
 *   loom-bench-corpus --out DIR [--sessions N] [--target-bytes B] [--seed S] [--quick]
 *
 * DIR receives claude/projects/…, codex/sessions/… and gemini/tmp/… trees (60/30/10 % of the
 * sessions by count), session sizes log-normally distributed so that most sessions are small
 * and a few hold thousands of records, a few lines of 0.4–3 MB (pasted screenshots, huge tool
 * outputs), and a handful of the hazards real files have, so that the importer's warnings can
 * be accounted for. The same seed writes the same bytes. DIR/manifest.json records what was
 * written; loom-bench-import reads it to check the importer's record count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bench-gen.h"

/* Sessions start between 2025-06-01 and 2026-07-20 (UTC). */
#define START_MS G_GINT64_CONSTANT (1748736000000)
#define END_MS   G_GINT64_CONSTANT (1784505600000)

/* One deliberate long line per this many bytes of corpus. */
#define BYTES_PER_BIG_LINE (40.0 * 1000 * 1000)

static const char *const source_names[] = { "claude-code", "codex", "gemini" };

typedef struct
{
  BenchSource  source;
  double       weight;
  BenchSession session;
} Plan;

static gboolean
parse_size (const char *text,
            double     *value)
{
  char *end = NULL;

  *value = g_ascii_strtod (text, &end);
  if (end == text || *value <= 0)
    return FALSE;
  switch (g_ascii_tolower (*end))
    {
    case 'k':
      *value *= 1e3;
      end++;
      break;
    case 'm':
      *value *= 1e6;
      end++;
      break;
    case 'g':
      *value *= 1e9;
      end++;
      break;
    default:
      break;
    }
  return *end == '\0';
}

static gboolean
dir_is_empty_or_missing (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  return dir != NULL && g_dir_read_name (dir) == NULL;
}

/* Picks @n distinct sessions of Claude or Codex (JSON Lines) that have no hazard yet. */
static void
place_hazard (BenchRng *rng,
              Plan     *plans,
              guint     n_plans,
              guint     n,
              gsize     member_offset)
{
  guint placed = 0;

  for (guint attempts = 0; placed < n && attempts < 100000; attempts++)
    {
      Plan         *plan = &plans[bench_rng_below (rng, n_plans)];
      BenchSession *s = &plan->session;
      gboolean     *flag = (gboolean *)(gpointer)((char *)s + member_offset);

      if (plan->source == BENCH_SOURCE_GEMINI || s->two_values || s->invalid_utf8 ||
          s->lone_surrogate || s->truncate_tail)
        continue;
      *flag = TRUE;
      placed++;
    }
}

static void
write_manifest (BenchGen   *gen,
                const char *out_dir,
                guint64     seed,
                double      seconds)
{
  const BenchTotals *t = &gen->totals;
  g_autoptr (GString) o = g_string_new ("{\n  \"generator\": \"loom-bench-corpus\",\n");
  g_autofree char *path = g_build_filename (out_dir, "manifest.json", NULL);
  g_autoptr (GError) error = NULL;

  g_string_append_printf (o, "  \"seed\": %" G_GUINT64_FORMAT ",\n  \"seconds\": %.1f,\n", seed,
                          seconds);
  g_string_append (o, "  \"sources\": {\n");
  for (guint i = 0; i < BENCH_N_SOURCES; i++)
    {
      const BenchCounts *c = &t->by_source[i];

      g_string_append_printf (o,
                              "    \"%s\": {\"sessions\": %" G_GUINT64_FORMAT ", "
                              "\"subagent_files\": %" G_GUINT64_FORMAT ", "
                              "\"files\": %" G_GUINT64_FORMAT ", "
                              "\"records\": %" G_GUINT64_FORMAT ", "
                              "\"lines\": %" G_GUINT64_FORMAT ", "
                              "\"documents\": %" G_GUINT64_FORMAT ", "
                              "\"document_messages\": %" G_GUINT64_FORMAT ", "
                              "\"bytes\": %" G_GUINT64_FORMAT "}%s\n",
                              source_names[i], c->sessions, c->subagent_files, c->files, c->records,
                              c->lines, c->documents, c->document_messages, c->bytes,
                              i + 1 < BENCH_N_SOURCES ? "," : "");
    }
  g_string_append_printf (o,
                          "  },\n  \"largest_line\": %" G_GSIZE_FORMAT ",\n"
                          "  \"big_lines\": %u,\n"
                          "  \"hazards\": {\"two_values_lines\": %u, \"invalid_utf8_lines\": %u, "
                          "\"lone_surrogates\": %u, \"truncated_tails\": %u, "
                          "\"no_final_newline\": %u}\n}\n",
                          t->max_line, t->big_lines, t->two_values_lines, t->invalid_utf8_lines,
                          t->lone_surrogates, t->truncated_tails, t->no_final_newline);
  if (!g_file_set_contents (path, o->str, (gssize)o->len, &error))
    g_printerr ("Could not write %s: %s\n", path, error->message);
}

static void
print_summary (BenchGen   *gen,
               const char *out_dir,
               double      seconds)
{
  const BenchTotals *t = &gen->totals;
  BenchCounts        sum = { 0 };

  g_print ("\nCorpus written to %s in %.1f s\n\n", out_dir, seconds);
  g_print ("%-12s %9s %9s %9s %11s %11s %9s %12s\n", "source", "sessions", "sub-agent", "files",
           "records", "lines", "documents", "bytes");
  for (guint i = 0; i < BENCH_N_SOURCES; i++)
    {
      const BenchCounts *c = &t->by_source[i];

      g_print ("%-12s %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
               " %11" G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
               " %12" G_GUINT64_FORMAT "\n",
               source_names[i], c->sessions, c->subagent_files, c->files, c->records, c->lines,
               c->documents, c->bytes);
      sum.sessions += c->sessions;
      sum.subagent_files += c->subagent_files;
      sum.files += c->files;
      sum.records += c->records;
      sum.lines += c->lines;
      sum.documents += c->documents;
      sum.document_messages += c->document_messages;
      sum.bytes += c->bytes;
    }
  g_print ("%-12s %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
           " %11" G_GUINT64_FORMAT " %11" G_GUINT64_FORMAT " %9" G_GUINT64_FORMAT
           " %12" G_GUINT64_FORMAT "\n\n",
           "total", sum.sessions, sum.subagent_files, sum.files, sum.records, sum.lines,
           sum.documents, sum.bytes);
  g_print ("Records the importer should count: %" G_GUINT64_FORMAT
           " (JSON Lines records + whole documents; the documents hold %" G_GUINT64_FORMAT
           " messages)\n",
           sum.records + sum.documents, sum.document_messages);
  g_print ("Bytes: %.3f GB (%.1f MB/s written)\n", sum.bytes / 1e9, sum.bytes / 1e6 / seconds);
  g_print ("Largest line: %.2f MB in %s\n", t->max_line / 1e6,
           t->max_line_path ? t->max_line_path : "-");
  g_print ("Lines over 0.4 MB (deliberate): %u\n", t->big_lines);
  g_print ("Hazards: %u line(s) with two records, %u line(s) with invalid UTF-8, %u lone "
           "surrogate escape(s), %u half-written last line(s); %u file(s) without a final "
           "newline\n",
           t->two_values_lines, t->invalid_utf8_lines, t->lone_surrogates, t->truncated_tails,
           t->no_final_newline);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *out_dir = NULL;
  g_autofree char   *target_text = NULL;
  gint64             seed = 1;
  int                n_sessions = 10000;
  gboolean           quick = FALSE;
  gboolean           no_hazards = FALSE;
  double             target = 1.5e9;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir, "Folder to write (new or empty)", "DIR" },
    { "sessions", 'n', 0, G_OPTION_ARG_INT, &n_sessions, "Sessions (default 10000)", "N" },
    { "target-bytes", 'b', 0, G_OPTION_ARG_STRING, &target_text,
      "Approximate corpus size (default 1.5e9; k/M/G suffixes)", "BYTES" },
    { "seed", 's', 0, G_OPTION_ARG_INT64, &seed, "Random seed (default 1)", "SEED" },
    { "quick", 'q', 0, G_OPTION_ARG_NONE, &quick, "A small corpus: 300 sessions, 40 MB", NULL },
    { "no-hazards", 0, 0, G_OPTION_ARG_NONE, &no_hazards,
      "Leave out the deliberate hazards (two records on a line, bad UTF-8, ...)", NULL },
    { NULL }
  };
  g_autofree Plan *plans = NULL;
  g_autoptr (GTimer) timer = g_timer_new ();
  BenchGen *gen;
  BenchRng  plan_rng;
  double    total_weight = 0, remaining_weight;
  guint     n_big;
  int       exit_status = 0;

  context = g_option_context_new ("- write a realistic corpus of agent sessions");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (quick)
    {
      n_sessions = 300;
      target = 40e6;
    }
  if (target_text != NULL && !parse_size (target_text, &target))
    {
      g_printerr ("--target-bytes: \"%s\" is not a size\n", target_text);
      return 2;
    }
  if (out_dir == NULL || n_sessions <= 0)
    {
      g_printerr ("Usage: %s --out DIR [--sessions N] [--target-bytes B] [--seed S] [--quick]\n",
                  g_get_prgname ());
      return 2;
    }
  if (!dir_is_empty_or_missing (out_dir))
    {
      g_printerr ("%s is not empty: remove it or choose another folder\n", out_dir);
      return 2;
    }

  /* The plan comes from a random stream of its own, so that the sessions' contents do not
   * shift when the plan draws one more number. */
  bench_rng_seed (&plan_rng, (guint64)seed ^ G_GUINT64_CONSTANT (0x5eed5eed5eed5eed));
  plans = g_new0 (Plan, n_sessions);
  for (int i = 0; i < n_sessions; i++)
    {
      double u = bench_rng_double (&plan_rng);

      plans[i].source = u < 0.6   ? BENCH_SOURCE_CLAUDE
                        : u < 0.9 ? BENCH_SOURCE_CODEX
                                  : BENCH_SOURCE_GEMINI;
      /* σ = 1.5: the median session is a fifth of the mean, the largest a hundred times it. */
      plans[i].weight = exp (1.5 * bench_rng_normal (&plan_rng));
      plans[i].session.start_ms = bench_rng_range (&plan_rng, START_MS, END_MS);
      total_weight += plans[i].weight;
    }

  n_big = target >= 4e6 ? MAX (1, (guint)(target / BYTES_PER_BIG_LINE + 0.5)) : 0;
  for (guint i = 0; i < n_big; i++)
    plans[bench_rng_below (&plan_rng, n_sessions)].session.big_lines++;

  if (!no_hazards && n_sessions >= 20)
    {
      place_hazard (&plan_rng, plans, n_sessions, 5, G_STRUCT_OFFSET (BenchSession, two_values));
      place_hazard (&plan_rng, plans, n_sessions, 2, G_STRUCT_OFFSET (BenchSession, invalid_utf8));
      place_hazard (&plan_rng, plans, n_sessions, 1,
                    G_STRUCT_OFFSET (BenchSession, lone_surrogate));
      place_hazard (&plan_rng, plans, n_sessions, 1, G_STRUCT_OFFSET (BenchSession, truncate_tail));
    }

  if (g_mkdir_with_parents (out_dir, 0755) != 0)
    {
      g_printerr ("Could not create %s: %s\n", out_dir, g_strerror (errno));
      return 1;
    }

  gen = bench_gen_new (out_dir, (guint64)seed);
  remaining_weight = total_weight;
  for (int i = 0; i < n_sessions; i++)
    {
      Plan   *plan = &plans[i];
      guint64 written = 0;
      double  remaining;

      for (guint s = 0; s < BENCH_N_SOURCES; s++)
        written += gen->totals.by_source[s].bytes;
      remaining = MAX (0.0, target - (double)written);

      /* Each session gets its share of what is left, so the total lands near the target
       * whatever the record sizes turn out to be. */
      plan->session.budget = (guint64)MAX (2000.0, remaining * plan->weight / remaining_weight);
      remaining_weight -= plan->weight;

      bench_gen_begin_session (gen, &plan->session);
      switch (plan->source)
        {
        case BENCH_SOURCE_CLAUDE:
          bench_claude_session (gen);
          break;
        case BENCH_SOURCE_CODEX:
          bench_codex_session (gen);
          break;
        case BENCH_SOURCE_GEMINI:
        case BENCH_N_SOURCES:
        default:
          bench_gemini_session (gen);
          break;
        }

      if ((i + 1) % 1000 == 0 && isatty (2))
        g_printerr ("\r%d/%d sessions, %.2f GB", i + 1, n_sessions, written / 1e9);
    }
  if (isatty (2))
    g_printerr ("\n");

  print_summary (gen, out_dir, g_timer_elapsed (timer, NULL));
  write_manifest (gen, out_dir, (guint64)seed, g_timer_elapsed (timer, NULL));
  bench_gen_free (gen);
  return exit_status;
}
