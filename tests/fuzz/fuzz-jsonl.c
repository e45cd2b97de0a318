/* fuzz-jsonl.c — the JSON Lines splitter and surrogate repair on the bytes of one line, then the
 * reader on a file of them: every line a record, a warning or a tail left for later, and a
 * second pass from the saved cursor reading nothing twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-fuzz.h"
#include "loom-jsonl-reader.h"

#define MAX_VALUES 8

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  return 0;
}

static void
split (const uint8_t *data,
       size_t         size)
{
  gsize ends[MAX_VALUES];
  gsize last = 0;
  int   n;

  n = loom_jsonl_split_values ((const char *)data, size, LOOM_JSONL_MAX_DEPTH, ends, MAX_VALUES);
  g_assert_cmpint (n, >=, -1);
  g_assert_cmpint (n, <=, MAX_VALUES);
  for (int i = 0; i < n; i++)
    {
      g_assert_cmpuint (ends[i], >, last);
      g_assert_cmpuint (ends[i], <=, size);
      last = ends[i];
    }
  /* Shallow: the refusal of deep values. */
  n = loom_jsonl_split_values ((const char *)data, size, 2, ends, MAX_VALUES);
  g_assert_cmpint (n, <=, MAX_VALUES);
}

static void
fix_surrogates (const uint8_t *data,
                size_t         size)
{
  /* Never NULL, as no line the reader repairs is, even when empty. */
  g_autofree char *copy = g_malloc (size + 1);
  gsize            first = G_MAXSIZE;
  guint            fixed;

  memcpy (copy, data, size);
  fixed = loom_jsonl_fix_surrogates_full (copy, size, &first);
  if (fixed > 0)
    {
      g_assert_cmpuint (first, <, size);
      g_assert_true (memcmp (copy + first, "\\uFFFD", 6) == 0);
    }
  /* What it leaves is repaired: a second pass finds nothing. */
  g_assert_cmpuint (loom_jsonl_fix_surrogates (copy, size), ==, 0);
}

/* Reads the file to its end; returns the records read. */
static guint64
read_all (const char *path,
          guint64     offset,
          guint64     line,
          guint64     size,
          guint64    *next_offset,
          guint64    *next_line,
          guint      *bad)
{
  g_autoptr (LoomJsonlReader) reader = NULL;
  g_autoptr (GError) error = NULL;
  LoomJsonlResult result;
  guint64         last_line = line;

  reader = loom_jsonl_reader_new (path, offset, line, &error);
  g_assert_no_error (error);

  for (;;)
    {
      g_autofree char *problem = NULL;
      const LoomJson  *record = NULL;

      result = loom_jsonl_reader_next (reader, &record, &problem, &error);
      if (result == LOOM_JSONL_END)
        break;
      g_assert_cmpint (result, !=, LOOM_JSONL_ERROR);
      g_assert_no_error (error);
      g_assert_cmpuint (loom_jsonl_reader_get_line (reader), >=, last_line);
      last_line = loom_jsonl_reader_get_line (reader);
      if (result == LOOM_JSONL_RECORD)
        {
          g_assert_nonnull (record);
          g_assert_null (problem);
        }
      else
        {
          g_assert_cmpint (result, ==, LOOM_JSONL_BAD);
          g_assert_nonnull (problem);
          g_assert_true (g_utf8_validate (problem, -1, NULL));
          (*bad)++;
        }
    }
  g_assert_no_error (error);

  *next_offset = loom_jsonl_reader_get_offset (reader);
  *next_line = loom_jsonl_reader_get_lines_consumed (reader);
  g_assert_cmpuint (*next_offset, <=, size);
  g_assert_cmpuint (*next_line, <=, loom_jsonl_reader_get_line (reader) + 1);
  return loom_jsonl_reader_get_records (reader);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = g_build_filename (loom_fuzz_tmpdir (), "records.jsonl", NULL);
  guint64          offset, line, offset_again, line_again;
  guint            bad = 0, bad_again = 0;

  split (data, size);
  fix_surrogates (data, size);

  loom_fuzz_write_file (path, data, size);
  read_all (path, 0, 0, size, &offset, &line, &bad);

  /* The next pass over the same bytes starts at the cursor and finds nothing new. */
  g_assert_cmpuint (read_all (path, offset, line, size, &offset_again, &line_again, &bad_again), ==,
                    0);
  g_assert_cmpuint (bad_again, ==, 0);
  g_assert_cmpuint (offset_again, ==, offset);
  g_assert_cmpuint (line_again, ==, line);

  /* The same under a limit most lines here are over: skipped lines are consumed like any. */
  g_setenv ("LOOM_MAX_RECORD_BYTES", "40", TRUE);
  bad = 0;
  read_all (path, 0, 0, size, &offset, &line, &bad);
  bad_again = 0;
  g_assert_cmpuint (read_all (path, offset, line, size, &offset_again, &line_again, &bad_again), ==,
                    0);
  g_unsetenv ("LOOM_MAX_RECORD_BYTES");
  g_assert_cmpuint (bad_again, ==, 0);
  g_assert_cmpuint (offset_again, ==, offset);
  g_assert_cmpuint (line_again, ==, line);
  return 0;
}
