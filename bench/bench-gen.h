/* bench-gen.h — what the corpus generator's formats share: a seeded random source, buffered
 * output files with line statistics, JSON writing helpers and realistic text.
 *
 * Everything is deterministic for a given seed: the same seed writes the same bytes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

/* ——— Random numbers (xoshiro256**) ——— */

typedef struct
{
  guint64 s[4];
} BenchRng;

void     bench_rng_seed (BenchRng *rng,
                         guint64   seed);
guint64  bench_rng_next (BenchRng *rng);
/* Uniform in [0, n). */
guint32  bench_rng_below (BenchRng *rng,
                          guint32   n);
/* Uniform in [lo, hi]. */
gint64   bench_rng_range (BenchRng *rng,
                          gint64    lo,
                          gint64    hi);
double   bench_rng_double (BenchRng *rng);
gboolean bench_rng_chance (BenchRng *rng,
                           double    p);
double   bench_rng_normal (BenchRng *rng);
/* Log-normally distributed around @median, clamped to [@min, @max]. */
gsize    bench_rng_lognormal (BenchRng *rng,
                              double    median,
                              double    sigma,
                              gsize     min,
                              gsize     max);

#define BENCH_PICK(rng, array) ((array)[bench_rng_below ((rng), G_N_ELEMENTS (array))])

/* ——— Output files ——— */

typedef enum
{
  BENCH_SOURCE_CLAUDE,
  BENCH_SOURCE_CODEX,
  BENCH_SOURCE_GEMINI,
  BENCH_N_SOURCES
} BenchSource;

typedef struct
{
  guint64 files;
  guint64 sessions; /* main sessions (not sub-agent files) */
  guint64 subagent_files;
  guint64 records;   /* complete JSON values in JSON Lines files */
  guint64 lines;     /* physical lines of JSON Lines files */
  guint64 documents; /* whole-document .json files (one record each for the importer) */
  guint64 document_messages;
  guint64 bytes;
} BenchCounts;

typedef struct
{
  BenchCounts by_source[BENCH_N_SOURCES];
  gsize       max_line;
  char       *max_line_path;
  guint       big_lines;
  /* Deliberate hazards, so that the warnings the importer prints can be accounted for. */
  guint       two_values_lines;
  guint       invalid_utf8_lines;
  guint       lone_surrogates;
  guint       truncated_tails;
  guint       no_final_newline;
} BenchTotals;

/* Per-session requests from the driver. */
typedef struct
{
  guint64  budget; /* bytes this session should write, sub-agent files included */
  gint64   start_ms;
  guint    big_lines;      /* lines of 0.4–3 MB to include */
  gboolean two_values;     /* write two records on one physical line once */
  gboolean invalid_utf8;   /* one record carries a byte that is not UTF-8 */
  gboolean lone_surrogate; /* one record carries an unpaired \ud83d escape */
  gboolean truncate_tail;  /* the last line is cut in half, without a newline */
} BenchSession;

typedef struct
{
  FILE       *fp;
  char       *path;
  GString    *buf;
  BenchSource source;
  gsize       line_start; /* where the current line starts in buf */
  guint64     line_carry; /* bytes of the current line already flushed */
  guint64     bytes;
  guint64     lines;
  guint64     records;
  gboolean    jsonl;
} BenchFile;

typedef struct
{
  BenchRng            rng;
  char               *out_dir;
  BenchTotals         totals;
  GString            *scratch; /* raw text before it is escaped into a record */
  GString            *scratch2;
  GString            *inner; /* JSON that is itself stored as a JSON string */
  const BenchSession *session;
  guint64             session_bytes; /* written so far for the current session */
  /* Hazards still to place in the current session. */
  gboolean            pending_two_values;
  gboolean            pending_invalid_utf8;
  gboolean            pending_surrogate;
  guint               pending_big;
} BenchGen;

BenchGen *bench_gen_new (const char *out_dir,
                         guint64     seed);
void      bench_gen_free (BenchGen *gen);
void      bench_gen_begin_session (BenchGen           *gen,
                                   const BenchSession *session);
/* Whether the current session has written its budget, counting what @file still buffers. */
gboolean  bench_gen_session_full (BenchGen  *gen,
                                  BenchFile *file);

/* @relpath is below the output folder; parent folders are created. */
BenchFile *bench_file_open (BenchGen   *gen,
                            BenchSource source,
                            const char *relpath,
                            gboolean    jsonl);
/* Ends the record just appended to file->buf with a newline (or, for the two-values hazard,
 * with nothing, so that the next record follows on the same line). */
void       bench_file_end_record (BenchGen  *gen,
                                  BenchFile *file);
/* Writes the rest and closes. @final_newline FALSE drops the newline after the last line. */
void       bench_file_close (BenchGen  *gen,
                             BenchFile *file,
                             gboolean   final_newline);
/* Closes a JSON Lines file the way an agent would: mostly with a final newline, sometimes
 * without, and with a half-written last line when the session asks for it. */
void       bench_file_finish_jsonl (BenchGen  *gen,
                                    BenchFile *file);

/* ——— JSON ——— */

#define BJ_LIT(o, s) g_string_append_len ((o), "" s "", sizeof (s) - 1)

void bj_escape (GString    *o,
                const char *s,
                gsize       len);
void bj_str (GString    *o,
             const char *s);
void bj_gstr (GString       *o,
              const GString *s);
/* A quoted string of @text, with the session's JSON-level hazards (an unpaired surrogate
 * escape, a byte that is not UTF-8) placed in it when they are still pending. */
void bench_json_text (BenchGen      *gen,
                      GString       *o,
                      const GString *text);
void bj_int (GString *o,
             gint64   v);
void bj_bool (GString *o,
              gboolean v);
/* "2025-10-01T12:34:56.789Z", quoted. */
void bj_ts (GString *o,
            gint64   ms);
void bench_format_ts (char   out[25],
                      gint64 ms);
/* UTC calendar parts of @ms. */
void bench_civil (gint64 ms,
                  int   *year,
                  int   *month,
                  int   *day,
                  int   *hour,
                  int   *minute,
                  int   *second);

/* Writes a v4 UUID (36 characters + NUL). */
void bench_uuid (BenchRng *rng,
                 char      out[37]);
/* A UUID v7 whose time prefix is @ms (Codex ids). */
void bench_uuid7 (BenchRng *rng,
                  gint64    ms,
                  char      out[37]);
/* @n random characters of @alphabet (NUL-terminated in @out, which holds n + 1). */
void bench_random_chars (BenchRng   *rng,
                         const char *alphabet,
                         char       *out,
                         gsize       n);
#define BENCH_BASE62 "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#define BENCH_HEX    "0123456789abcdef"

/* Payload size of one of the deliberate long lines: log-uniform, 0.38–2.55 MB. */
gsize bench_big_line_size (BenchGen *gen);
/* Copies at most @size - 1 bytes of @src, cut on a character boundary. */
void  bench_utf8_copy (char       *dst,
                       const char *src,
                       gsize       size);

/* Pretty-prints compact JSON @in as JSON.stringify (value, null, 2) does. */
void bench_pretty_json (GString    *out,
                        const char *in,
                        gsize       len);

/* ——— Text ——— (appended raw to @dst; the caller escapes it into a record) */

void bench_text_prose (BenchGen *gen,
                       GString  *dst,
                       gsize     bytes);
void bench_text_prompt (BenchGen *gen,
                        GString  *dst,
                        gsize     bytes);
void bench_text_markdown (BenchGen *gen,
                          GString  *dst,
                          gsize     bytes);
void bench_text_code (BenchGen *gen,
                      GString  *dst,
                      gsize     bytes);
/* Like `cat -n`: "     1→code" (@arrow) or "     1\tcode". */
void bench_text_numbered_code (BenchGen *gen,
                               GString  *dst,
                               gsize     bytes,
                               gboolean  arrow);
void bench_text_shell (BenchGen *gen,
                       GString  *dst,
                       gsize     bytes);
void bench_text_diff (BenchGen   *gen,
                      GString    *dst,
                      const char *path,
                      gsize       bytes);
void bench_text_base64 (BenchGen *gen,
                        GString  *dst,
                        gsize     bytes);
void bench_text_words (BenchGen *gen,
                       GString  *dst,
                       guint     n_words);
void bench_text_title (BenchGen *gen,
                       GString  *dst);
void bench_text_command (BenchGen *gen,
                         GString  *dst);
void bench_text_identifier (BenchGen *gen,
                            GString  *dst);

/* A project working directory, its weight skewed so that a few projects hold most sessions. */
const char *bench_pick_cwd (BenchGen *gen);
/* A file path below @cwd. */
void        bench_path (BenchGen   *gen,
                        const char *cwd,
                        GString    *dst);
const char *bench_pick_branch (BenchGen *gen);
/* A Claude-style slug: "glowing-dreaming-cloud". */
void        bench_slug (BenchGen *gen,
                        GString  *dst);

void bench_claude_session (BenchGen *gen);
void bench_codex_session (BenchGen *gen);
void bench_gemini_session (BenchGen *gen);

G_END_DECLS
