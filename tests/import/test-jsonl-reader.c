/* test-jsonl-reader.c — the reader against every hazard of real agent files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "loom-jsonl-reader.h"
#include "loom-test-utils.h"

typedef struct
{
  guint      records;
  guint      bad;
  GPtrArray *problems; /* "LINE: problem" */
  GPtrArray *types;    /* the "type" member of each record, or "-" */
  guint64    offset;
  guint64    lines;
  gboolean   pending;
} Outcome;

static void
outcome_clear (Outcome *o)
{
  g_clear_pointer (&o->problems, g_ptr_array_unref);
  g_clear_pointer (&o->types, g_ptr_array_unref);
}

static char *
write_file (const char *dir,
            const char *name,
            const char *contents,
            gssize      length)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  return path;
}

static void
read_all (const char *path,
          guint64     offset,
          guint64     line,
          Outcome    *o)
{
  g_autoptr (LoomJsonlReader) reader = NULL;
  g_autoptr (GError) error = NULL;

  memset (o, 0, sizeof *o);
  o->problems = g_ptr_array_new_with_free_func (g_free);
  o->types = g_ptr_array_new_with_free_func (g_free);

  reader = loom_jsonl_reader_new (path, offset, line, &error);
  g_assert_no_error (error);

  for (;;)
    {
      g_autofree char *problem = NULL;
      const LoomJson  *record = NULL;
      LoomJsonlResult  result = loom_jsonl_reader_next (reader, &record, &problem, &error);

      g_assert_no_error (error);
      if (result == LOOM_JSONL_END)
        break;
      g_assert_cmpint (result, !=, LOOM_JSONL_ERROR);
      if (result == LOOM_JSONL_BAD)
        {
          o->bad++;
          g_ptr_array_add (o->problems,
                           g_strdup_printf ("%" G_GUINT64_FORMAT ": %s",
                                            loom_jsonl_reader_get_line (reader), problem));
          continue;
        }
      o->records++;
      if (loom_json_member_string (record, "type") != NULL)
        g_ptr_array_add (o->types, g_strdup (loom_json_member_string (record, "type")));
      else
        g_ptr_array_add (o->types, g_strdup ("-"));
    }
  o->offset = loom_jsonl_reader_get_offset (reader);
  o->lines = loom_jsonl_reader_get_lines_consumed (reader);
  o->pending = loom_jsonl_reader_has_pending_tail (reader);
}

static void
test_plain_and_no_final_newline (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = write_file (dir, "a.jsonl",
                                      "{\"type\":\"a\"}\n\n{\"type\":\"b\"}\n{\"type\":\"c\"}", -1);
  Outcome          o;

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 3);
  g_assert_cmpuint (o.bad, ==, 0);
  g_assert_cmpstr (g_ptr_array_index (o.types, 2), ==, "c");
  g_assert_false (o.pending);
  /* The complete last line was taken although it has no newline. */
  g_assert_cmpuint (o.offset, ==,
                    strlen ("{\"type\":\"a\"}\n\n{\"type\":\"b\"}\n{\"type\":\"c\"}"));
  g_assert_cmpuint (o.lines, ==, 4);
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

static void
test_two_objects_on_a_line (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = write_file (dir, "two.jsonl",
                                      "{\"type\":\"a\",\"s\":\"}{\"}{\"type\":\"b\"}\n"
                                      "{\"type\":\"c\"}\n",
                                      -1);
  Outcome          o;

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (o.types, 0), ==, "a");
  g_assert_cmpstr (g_ptr_array_index (o.types, 1), ==, "b");
  g_assert_cmpuint (o.bad, ==, 1); /* a note that two values shared line 1 */
  g_assert_true (g_str_has_prefix (g_ptr_array_index (o.problems, 0), "1: 2 JSON values"));
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

static void
test_malformed_line_named (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = write_file (dir, "bad.jsonl",
                                      "{\"type\":\"a\"}\n{\"type\": oops}\nnot json at all\n"
                                      "{\"type\":\"d\"}\n",
                                      -1);
  Outcome          o;

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 2);
  g_assert_cmpuint (o.bad, ==, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (o.problems, 0), "2: not valid JSON"));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (o.problems, 1), "3: not valid JSON"));
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

static void
test_invalid_utf8_and_surrogates (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = write_file (dir, "enc.jsonl",
                                      "{\"type\":\"bad \xff\xfe bytes\"}\n"
                                      "{\"type\":\"lone \\ud800 high\"}\n"
                                      "{\"type\":\"pair \\ud83d\\ude00 ok\"}\n"
                                      "{\"type\":\"literal \xef\xbf\xbd and 日本語\"}\n",
                                      -1);
  Outcome          o;

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 4);
  g_assert_cmpuint (o.bad, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (o.types, 0), ==, "bad \xef\xbf\xbd\xef\xbf\xbd bytes");
  g_assert_cmpstr (g_ptr_array_index (o.types, 1), ==, "lone \xef\xbf\xbd high");
  g_assert_cmpstr (g_ptr_array_index (o.types, 2), ==, "pair \xf0\x9f\x98\x80 ok");
  g_assert_cmpstr (g_ptr_array_index (o.types, 3), ==, "literal \xef\xbf\xbd and 日本語");
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

/* A byte that is not UTF-8, or a NUL, is found wherever it falls among the plain ASCII the
 * reader skips eight bytes at a time: at each of the first positions of a line, and at its end. */
static void
test_bad_byte_anywhere (void)
{
  g_autofree char  *dir = loom_test_make_tmpdir ();
  static const char bad[] = { '\xff', '\0' };

  for (guint b = 0; b < G_N_ELEMENTS (bad); b++)
    for (gsize at = 9; at < 40; at++)
      {
        g_autofree char *path = NULL;
        g_autoptr (GString) line = g_string_new ("{\"type\":\"");
        Outcome o;

        while (line->len < 44)
          g_string_append_c (line, 'a');
        line->str[at] = bad[b];
        g_string_append (line, "\"}\n");
        path = write_file (dir, "bad.jsonl", line->str, (gssize)line->len);

        read_all (path, 0, 0, &o);
        g_assert_cmpuint (o.records, ==, 1);
        g_assert_cmpuint (o.bad, ==, 1);
        g_assert_cmpstr (g_ptr_array_index (o.problems, 0), ==,
                         "1: invalid UTF-8 was replaced by U+FFFD");
        g_assert_nonnull (strstr (g_ptr_array_index (o.types, 0), "\xef\xbf\xbd"));
        outcome_clear (&o);
      }
  loom_test_remove_tree (dir);
}

static void
test_deep_nesting_refused (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autoptr (GString) deep = g_string_new ("{\"type\":\"ok\"}\n{\"type\":\"deep\",\"x\":");
  g_autofree char *path = NULL;
  Outcome          o;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, ']');
  g_string_append (deep, "}\n{\"type\":\"after\"}\n");
  path = write_file (dir, "deep.jsonl", deep->str, (gssize)deep->len);

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 2);
  g_assert_cmpuint (o.bad, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (o.problems, 0), "2: the record nests deeper"));
  g_assert_cmpstr (g_ptr_array_index (o.types, 1), ==, "after");
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

/* A half-written last line waits; once the agent finishes it, the next pass reads it once. */
static void
test_half_written_tail (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  const char      *first = "{\"type\":\"a\"}\n{\"type\":\"b\",\"text\":\"hal";
  g_autofree char *path = write_file (dir, "tail.jsonl", first, -1);
  g_autoptr (GError) error = NULL;
  Outcome o;
  guint64 offset, lines;

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 1);
  g_assert_cmpuint (o.bad, ==, 0);
  g_assert_true (o.pending);
  g_assert_cmpuint (o.offset, ==, strlen ("{\"type\":\"a\"}\n"));
  offset = o.offset;
  lines = o.lines;
  outcome_clear (&o);

  g_file_set_contents (
    path, "{\"type\":\"a\"}\n{\"type\":\"b\",\"text\":\"half\"}\n{\"type\":\"c\"}\n", -1, &error);
  g_assert_no_error (error);
  read_all (path, offset, lines, &o);
  g_assert_cmpuint (o.records, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (o.types, 0), ==, "b");
  g_assert_cmpstr (g_ptr_array_index (o.types, 1), ==, "c");
  g_assert_cmpuint (o.lines, ==, 3);
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

static void
test_empty_file (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = write_file (dir, "empty.jsonl", "", 0);
  Outcome          o;

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 0);
  g_assert_cmpuint (o.bad, ==, 0);
  g_assert_false (o.pending);
  outcome_clear (&o);
  loom_test_remove_tree (dir);
}

/* A 100 MB line is one record like any other. */
static void
test_huge_line (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "huge.jsonl", NULL);
  g_autoptr (GError) error = NULL;
  FILE            *fp = fopen (path, "wb");
  gsize            chunk = 1 << 20;
  g_autofree char *block = g_malloc (chunk);
  Outcome          o;

  memset (block, 'x', chunk);
  fputs ("{\"type\":\"small\"}\n{\"type\":\"huge\",\"data\":\"", fp);
  for (guint i = 0; i < 100; i++)
    fwrite (block, 1, chunk, fp);
  fputs ("\"}\n{\"type\":\"after\"}\n", fp);
  fclose (fp);

  read_all (path, 0, 0, &o);
  g_assert_cmpuint (o.records, ==, 3);
  g_assert_cmpuint (o.bad, ==, 0);
  g_assert_cmpstr (g_ptr_array_index (o.types, 1), ==, "huge");
  g_assert_cmpstr (g_ptr_array_index (o.types, 2), ==, "after");
  outcome_clear (&o);
  loom_test_remove_tree (dir);
  (void)error;
}

static void
test_split_values (void)
{
  gsize ends[4];

  g_assert_cmpint (loom_jsonl_split_values ("{}", 2, 8, ends, 4), ==, 1);
  g_assert_cmpuint (ends[0], ==, 2);
  /* A brace inside a string, after an escaped quote, does not end the value. */
  g_assert_cmpint (loom_jsonl_split_values ("{\"a\":\"\\\"}\"} [1]", 15, 8, ends, 4), ==, 2);
  g_assert_cmpuint (ends[0], ==, 11);
  g_assert_cmpuint (ends[1], ==, 15);
  g_assert_cmpint (loom_jsonl_split_values ("[[[[", 4, 3, ends, 4), ==, -1);
  g_assert_cmpint (loom_jsonl_split_values ("{\"a\":1", 6, 8, ends, 4), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/jsonl/plain-and-no-final-newline", test_plain_and_no_final_newline);
  g_test_add_func ("/jsonl/two-objects-on-a-line", test_two_objects_on_a_line);
  g_test_add_func ("/jsonl/malformed-line-named", test_malformed_line_named);
  g_test_add_func ("/jsonl/invalid-utf8-and-surrogates", test_invalid_utf8_and_surrogates);
  g_test_add_func ("/jsonl/bad-byte-anywhere", test_bad_byte_anywhere);
  g_test_add_func ("/jsonl/deep-nesting-refused", test_deep_nesting_refused);
  g_test_add_func ("/jsonl/half-written-tail", test_half_written_tail);
  g_test_add_func ("/jsonl/empty-file", test_empty_file);
  g_test_add_func ("/jsonl/huge-line", test_huge_line);
  g_test_add_func ("/jsonl/split-values", test_split_values);

  return g_test_run ();
}
