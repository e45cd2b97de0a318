/* bench-gen.c — random numbers, output files and JSON helpers of the corpus generator.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bench-gen.h"

/* Buffers are written out once they pass this size, keeping the last line in memory so that a
 * half-written tail can still be cut from it. */
#define FLUSH_AT (8 * 1024 * 1024)

/* ——— Random numbers ——— */

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

void
bench_rng_seed (BenchRng *rng,
                guint64   seed)
{
  for (guint i = 0; i < 4; i++)
    rng->s[i] = splitmix64 (&seed);
}

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

guint64
bench_rng_next (BenchRng *rng)
{
  guint64 *s = rng->s;
  guint64  result = rotl (s[1] * 5, 7) * 9;
  guint64  t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

guint32
bench_rng_below (BenchRng *rng,
                 guint32   n)
{
  /* Lemire's multiply-shift: unbiased enough for a corpus, and fast. */
  return (guint32)(((bench_rng_next (rng) >> 32) * (guint64)n) >> 32);
}

gint64
bench_rng_range (BenchRng *rng,
                 gint64    lo,
                 gint64    hi)
{
  if (hi <= lo)
    return lo;
  return lo + (gint64)(bench_rng_next (rng) % (guint64)(hi - lo + 1));
}

double
bench_rng_double (BenchRng *rng)
{
  return (double)(bench_rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

gboolean
bench_rng_chance (BenchRng *rng,
                  double    p)
{
  return bench_rng_double (rng) < p;
}

double
bench_rng_normal (BenchRng *rng)
{
  double u1 = bench_rng_double (rng);
  double u2 = bench_rng_double (rng);

  if (u1 < 1e-300)
    u1 = 1e-300;
  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

gsize
bench_rng_lognormal (BenchRng *rng,
                     double    median,
                     double    sigma,
                     gsize     min,
                     gsize     max)
{
  double v = median * exp (sigma * bench_rng_normal (rng));

  if (v < (double)min)
    return min;
  if (v > (double)max)
    return max;
  return (gsize)v;
}

gsize
bench_big_line_size (BenchGen *gen)
{
  double u = bench_rng_double (&gen->rng);

  /* Claude stores a tool's output twice on its line (content and toolUseResult) and escaping
   * adds a little: the lines land between 0.4 and 3 MB. */
  return (gsize)(380000.0 * exp (u * log (2550000.0 / 380000.0)));
}

void
bench_utf8_copy (char       *dst,
                 const char *src,
                 gsize       size)
{
  const char *end = NULL;
  gsize       len = MIN (strlen (src), size - 1);

  g_utf8_validate_len (src, len, &end);
  len = (gsize)(end - src);
  memcpy (dst, src, len);
  dst[len] = '\0';
}

/* ——— The generator ——— */

BenchGen *
bench_gen_new (const char *out_dir,
               guint64     seed)
{
  BenchGen *gen = g_new0 (BenchGen, 1);

  bench_rng_seed (&gen->rng, seed);
  gen->out_dir = g_strdup (out_dir);
  gen->scratch = g_string_sized_new (64 * 1024);
  gen->scratch2 = g_string_sized_new (64 * 1024);
  gen->inner = g_string_sized_new (64 * 1024);
  return gen;
}

void
bench_gen_free (BenchGen *gen)
{
  if (gen == NULL)
    return;
  g_free (gen->out_dir);
  g_free (gen->totals.max_line_path);
  g_string_free (gen->scratch, TRUE);
  g_string_free (gen->scratch2, TRUE);
  g_string_free (gen->inner, TRUE);
  g_free (gen);
}

void
bench_gen_begin_session (BenchGen           *gen,
                         const BenchSession *session)
{
  gen->session = session;
  gen->session_bytes = 0;
  gen->pending_two_values = session->two_values;
  gen->pending_invalid_utf8 = session->invalid_utf8;
  gen->pending_surrogate = session->lone_surrogate;
  gen->pending_big = session->big_lines;
}

gboolean
bench_gen_session_full (BenchGen  *gen,
                        BenchFile *file)
{
  return gen->session_bytes + file->buf->len >= gen->session->budget && gen->pending_big == 0;
}

/* ——— Files ——— */

BenchFile *
bench_file_open (BenchGen   *gen,
                 BenchSource source,
                 const char *relpath,
                 gboolean    jsonl)
{
  static char     *last_dir = NULL;
  BenchFile       *file = g_new0 (BenchFile, 1);
  g_autofree char *dir = NULL;

  file->path = g_build_filename (gen->out_dir, relpath, NULL);
  dir = g_path_get_dirname (file->path);
  if (g_strcmp0 (dir, last_dir) != 0)
    {
      if (g_mkdir_with_parents (dir, 0755) != 0)
        g_error ("Could not create %s: %s", dir, g_strerror (errno));
      g_free (last_dir);
      last_dir = g_strdup (dir);
    }

  file->fp = fopen (file->path, "wbe");
  if (file->fp == NULL)
    g_error ("Could not write %s: %s", file->path, g_strerror (errno));
  file->buf = g_string_sized_new (256 * 1024);
  file->source = source;
  file->jsonl = jsonl;
  gen->totals.by_source[source].files++;
  return file;
}

static void
file_write (BenchGen   *gen,
            BenchFile  *file,
            const char *data,
            gsize       len)
{
  if (len > 0 && fwrite (data, 1, len, file->fp) != len)
    g_error ("Could not write %s: %s", file->path, g_strerror (errno));
  file->bytes += len;
  gen->session_bytes += len;
}

static void
note_line (BenchGen  *gen,
           BenchFile *file,
           gsize      len)
{
  if (len > gen->totals.max_line)
    {
      gen->totals.max_line = len;
      g_free (gen->totals.max_line_path);
      gen->totals.max_line_path = g_strdup (file->path);
    }
}

void
bench_file_end_record (BenchGen  *gen,
                       BenchFile *file)
{
  BenchCounts *counts = &gen->totals.by_source[file->source];
  gsize        line_len;

  file->records++;
  counts->records++;

  if (gen->pending_two_values && file->records > 3 && bench_rng_chance (&gen->rng, 0.25))
    {
      /* The next record follows on this line, as when a writer lost a newline. */
      gen->pending_two_values = FALSE;
      gen->totals.two_values_lines++;
      return;
    }

  g_string_append_c (file->buf, '\n');
  line_len = file->buf->len - file->line_start - 1;
  note_line (gen, file, line_len);
  file->lines++;
  counts->lines++;

  if (file->buf->len >= FLUSH_AT && file->line_start > 0)
    {
      /* Keep the last line: bench_file_finish_jsonl() may cut it. */
      file_write (gen, file, file->buf->str, file->line_start);
      g_string_erase (file->buf, 0, (gssize)file->line_start);
    }
  file->line_start = file->buf->len;
}

void
bench_file_close (BenchGen  *gen,
                  BenchFile *file,
                  gboolean   final_newline)
{
  BenchCounts *counts = &gen->totals.by_source[file->source];

  if (!final_newline && file->buf->len > 0 && file->buf->str[file->buf->len - 1] == '\n')
    g_string_truncate (file->buf, file->buf->len - 1);
  file_write (gen, file, file->buf->str, file->buf->len);
  counts->bytes += file->bytes;
  if (fclose (file->fp) != 0)
    g_error ("Could not write %s: %s", file->path, g_strerror (errno));
  g_string_free (file->buf, TRUE);
  g_free (file->path);
  g_free (file);
}

void
bench_file_finish_jsonl (BenchGen  *gen,
                         BenchFile *file)
{
  gboolean final_newline = !bench_rng_chance (&gen->rng, 0.08);
  GString *buf = file->buf;

  if (buf->len > 0 && buf->str[buf->len - 1] != '\n')
    {
      /* The file ended on a two-values record that waits for its partner: it is complete. */
      gen->totals.two_values_lines--;
      g_string_append_c (buf, '\n');
    }

  if (gen->session->truncate_tail && buf->len > 0 && file->lines > 1)
    {
      /* The last line in the buffer, cut in half: an agent still writing it. */
      gsize end = buf->len - 1;
      gsize start = end;

      while (start > 0 && buf->str[start - 1] != '\n')
        start--;
      if (end - start > 16)
        {
          g_string_truncate (buf, start + (end - start) / 2);
          file->records--;
          file->lines--;
          gen->totals.by_source[file->source].records--;
          gen->totals.by_source[file->source].lines--;
          gen->totals.truncated_tails++;
          bench_file_close (gen, file, FALSE);
          return;
        }
    }

  if (!final_newline)
    gen->totals.no_final_newline++;
  bench_file_close (gen, file, final_newline);
}

/* ——— JSON ——— */

static const char hex_digits[] = "0123456789abcdef";

/* Characters that need a backslash in a JSON string. */
static const guint8 needs_escape[256] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

void
bj_escape (GString    *o,
           const char *s,
           gsize       len)
{
  const guchar *p = (const guchar *)s;
  const guchar *end = p + len;

  while (p < end)
    {
      const guchar *run = p;

      while (p < end && !needs_escape[*p])
        p++;
      if (p > run)
        g_string_append_len (o, (const char *)run, p - run);
      if (p == end)
        break;

      switch (*p)
        {
        case '"':
          BJ_LIT (o, "\\\"");
          break;
        case '\\':
          BJ_LIT (o, "\\\\");
          break;
        case '\n':
          BJ_LIT (o, "\\n");
          break;
        case '\t':
          BJ_LIT (o, "\\t");
          break;
        case '\r':
          BJ_LIT (o, "\\r");
          break;
        default:
          BJ_LIT (o, "\\u00");
          g_string_append_c (o, hex_digits[*p >> 4]);
          g_string_append_c (o, hex_digits[*p & 15]);
          break;
        }
      p++;
    }
}

void
bj_str (GString    *o,
        const char *s)
{
  g_string_append_c (o, '"');
  bj_escape (o, s, strlen (s));
  g_string_append_c (o, '"');
}

void
bj_gstr (GString       *o,
         const GString *s)
{
  g_string_append_c (o, '"');
  bj_escape (o, s->str, s->len);
  g_string_append_c (o, '"');
}

void
bench_json_text (BenchGen      *gen,
                 GString       *o,
                 const GString *text)
{
  g_string_append_c (o, '"');
  bj_escape (o, text->str, text->len);
  if (gen->pending_invalid_utf8)
    {
      /* A lone lead byte, as from a tool that cut a multi-byte character in half. */
      g_string_append (o, " caf\xc3 ");
      gen->pending_invalid_utf8 = FALSE;
      gen->totals.invalid_utf8_lines++;
    }
  if (gen->pending_surrogate)
    {
      /* Half of an emoji's surrogate pair, as JavaScript writers produce when they cut one. */
      g_string_append (o, " \\ud83d ");
      gen->pending_surrogate = FALSE;
      gen->totals.lone_surrogates++;
    }
  g_string_append_c (o, '"');
}

void
bj_int (GString *o,
        gint64   v)
{
  char    buf[24];
  int     i = sizeof buf;
  guint64 u = v < 0 ? (guint64)(-(v + 1)) + 1 : (guint64)v;

  do
    {
      buf[--i] = (char)('0' + u % 10);
      u /= 10;
    }
  while (u > 0);
  if (v < 0)
    buf[--i] = '-';
  g_string_append_len (o, buf + i, sizeof buf - i);
}

void
bj_bool (GString *o,
         gboolean v)
{
  if (v)
    BJ_LIT (o, "true");
  else
    BJ_LIT (o, "false");
}

void
bench_civil (gint64 ms,
             int   *year,
             int   *month,
             int   *day,
             int   *hour,
             int   *minute,
             int   *second)
{
  /* Howard Hinnant's civil_from_days. */
  gint64 secs = ms / 1000;
  gint64 days = secs / 86400;
  gint64 rem = secs % 86400;
  gint64 z = days + 719468;
  gint64 era = (z >= 0 ? z : z - 146096) / 146097;
  gint64 doe = z - era * 146097;
  gint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  gint64 y = yoe + era * 400;
  gint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  gint64 mp = (5 * doy + 2) / 153;
  gint64 d = doy - (153 * mp + 2) / 5 + 1;
  gint64 m = mp < 10 ? mp + 3 : mp - 9;

  *year = (int)(y + (m <= 2));
  *month = (int)m;
  *day = (int)d;
  *hour = (int)(rem / 3600);
  *minute = (int)(rem / 60 % 60);
  *second = (int)(rem % 60);
}

static inline void
put2 (char *p,
      int   v)
{
  p[0] = (char)('0' + v / 10);
  p[1] = (char)('0' + v % 10);
}

void
bench_format_ts (char   out[25],
                 gint64 ms)
{
  int y, mo, d, h, mi, s;
  int milli = (int)(ms % 1000);

  bench_civil (ms, &y, &mo, &d, &h, &mi, &s);
  put2 (out, y / 100);
  put2 (out + 2, y % 100);
  out[4] = '-';
  put2 (out + 5, mo);
  out[7] = '-';
  put2 (out + 8, d);
  out[10] = 'T';
  put2 (out + 11, h);
  out[13] = ':';
  put2 (out + 14, mi);
  out[16] = ':';
  put2 (out + 17, s);
  out[19] = '.';
  out[20] = (char)('0' + milli / 100);
  put2 (out + 21, milli % 100);
  out[23] = 'Z';
  out[24] = '\0';
}

void
bj_ts (GString *o,
       gint64   ms)
{
  char ts[25];

  bench_format_ts (ts, ms);
  g_string_append_c (o, '"');
  g_string_append_len (o, ts, 24);
  g_string_append_c (o, '"');
}

static void
format_uuid (guint64 hi,
             guint64 lo,
             char    out[37])
{
  int j = 0;

  for (int i = 0; i < 32; i++)
    {
      guint64 word = i < 16 ? hi : lo;
      int     shift = (15 - (i % 16)) * 4;

      if (i == 8 || i == 12 || i == 16 || i == 20)
        out[j++] = '-';
      out[j++] = hex_digits[(word >> shift) & 15];
    }
  out[36] = '\0';
}

void
bench_uuid (BenchRng *rng,
            char      out[37])
{
  guint64 hi = bench_rng_next (rng);
  guint64 lo = bench_rng_next (rng);

  hi = (hi & ~G_GUINT64_CONSTANT (0xF000)) | G_GUINT64_CONSTANT (0x4000);
  lo = (lo & ~(G_GUINT64_CONSTANT (0xC) << 60)) | (G_GUINT64_CONSTANT (0x8) << 60);
  format_uuid (hi, lo, out);
}

void
bench_uuid7 (BenchRng *rng,
             gint64    ms,
             char      out[37])
{
  guint64 hi = ((guint64)ms << 16) | 0x7000 | (bench_rng_next (rng) & 0x0FFF);
  guint64 lo = bench_rng_next (rng);

  lo = (lo & ~(G_GUINT64_CONSTANT (0xC) << 60)) | (G_GUINT64_CONSTANT (0x8) << 60);
  format_uuid (hi, lo, out);
}

void
bench_random_chars (BenchRng   *rng,
                    const char *alphabet,
                    char       *out,
                    gsize       n)
{
  guint32 k = (guint32)strlen (alphabet);

  for (gsize i = 0; i < n; i++)
    out[i] = alphabet[bench_rng_below (rng, k)];
  out[n] = '\0';
}

void
bench_pretty_json (GString    *out,
                   const char *in,
                   gsize       len)
{
  int depth = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = in[i];

      switch (c)
        {
        case '"':
          {
            gsize start = i++;

            while (i < len && in[i] != '"')
              i += in[i] == '\\' ? 2 : 1;
            g_string_append_len (out, in + start, (gssize)(i - start + 1));
          }
          break;

        case '{':
        case '[':
          if (i + 1 < len && (in[i + 1] == '}' || in[i + 1] == ']'))
            {
              g_string_append_c (out, c);
              g_string_append_c (out, in[++i]);
              break;
            }
          g_string_append_c (out, c);
          g_string_append_c (out, '\n');
          depth++;
          for (int d = 0; d < depth; d++)
            BJ_LIT (out, "  ");
          break;

        case '}':
        case ']':
          g_string_append_c (out, '\n');
          depth--;
          for (int d = 0; d < depth; d++)
            BJ_LIT (out, "  ");
          g_string_append_c (out, c);
          break;

        case ',':
          BJ_LIT (out, ",\n");
          for (int d = 0; d < depth; d++)
            BJ_LIT (out, "  ");
          break;

        case ':':
          BJ_LIT (out, ": ");
          break;

        default:
          g_string_append_c (out, c);
          break;
        }
    }
}
