/* test-json-parser.c — loom_json_doc_parse() and the writers against json-glib.
 *
 * The importers were written against the trees JsonParser builds, so every value in the
 * fixtures must come out of the parser as the same tree, down to member order and whether a
 * number is an integer or a double (but for \u0000, which json-glib cut strings at and the
 * parser reads as U+FFFD: see json_glib_parse()); and the writers must give the bytes
 * JsonGenerator gave, since stored payloads are read back and compared. Every parse here goes
 * through one LoomJsonDoc, which each value is turned into a json-glib tree from and written
 * from directly, so the two writers are held to each other as well. Hostile input (deep
 * nesting, truncation, huge strings, repeated names, broken escapes) must give an error or a
 * tree, never a crash, a read past the end or quadratic time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "loom-error.h"
#include "loom-json-value.h"
#include "loom-jsonl-reader.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

/* ——— Helpers ——— */

/* Parses from a buffer of exactly @length bytes with nothing after it, so that a read past
 * the end is caught by AddressSanitizer in the sanitizer build. All parses share one document,
 * as a file's records share the reader's, so each also tests what the one before left in it.
 * The value's own writer must agree with loom_json_write() on its json-glib tree. */
static JsonNode *
parse_exact (const char *text,
             gsize       length,
             GError    **error)
{
  static LoomJsonDoc *doc = NULL;
  g_autofree char    *copy = g_malloc (MAX (length, 1));
  g_autofree char    *direct = NULL;
  g_autofree char    *through_tree = NULL;
  const LoomJson     *root;
  JsonNode           *node;

  if (doc == NULL)
    doc = loom_json_doc_new ();
  memcpy (copy, text, length);
  root = loom_json_doc_parse (doc, copy, length, error);
  if (root == NULL)
    return NULL;
  node = loom_json_value_to_node (root);
  direct = loom_json_value_to_string (root);
  through_tree = loom_json_write (node);
  g_assert_cmpstr (direct, ==, through_tree);
  return node;
}

static JsonNode *
parse_ok (const char *text)
{
  g_autoptr (GError) error = NULL;
  JsonNode *node = parse_exact (text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
assert_refused (const char *text,
                gsize       length)
{
  g_autoptr (GError) error = NULL;
  JsonNode *node = parse_exact (text, length, &error);

  if (node != NULL)
    g_error ("“%.*s” should have been refused", (int)MIN (length, 200), text);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_PARSE);
  g_assert_true (strstr (error->message, " at byte ") != NULL);
}

/* json-glib's tree for @text, with each \u0000 escape read as \ufffd. json-glib cuts a
 * string or a name at its NUL; loom_json_doc_parse() reads \u0000 as U+FFFD instead, so
 * that nothing after it is lost, and on every other byte the two must still agree. Escapes
 * are taken two bytes at a time, so that "\\u0000" (a backslash, then text) is left alone;
 * outside strings a backslash is an error to both, and the rewrite keeps it one. */
static JsonNode *
json_glib_parse (const char *text,
                 gsize       length)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *copy = g_malloc (length + 1);

  memcpy (copy, text, length);
  copy[length] = '\0';
  for (gsize i = 0; i + 1 < length; i++)
    {
      if (copy[i] != '\\')
        continue;
      if (length - i >= 6 && memcmp (copy + i + 1, "u0000", 5) == 0)
        memcpy (copy + i + 2, "fffd", 4);
      i++;
    }
  if (!json_parser_load_from_data (parser, copy, (gssize)length, NULL))
    return NULL;
  return json_parser_steal_root (parser);
}

static char *
json_glib_write (JsonNode *node)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

/* Stricter than json_node_equal(), which takes 1 and 1.0 for equal and ignores member order:
 * both matter to the importers and to the payloads they store. */
static void
assert_identical (JsonNode *a,
                  JsonNode *b)
{
  g_assert_cmpint (json_node_get_node_type (a), ==, json_node_get_node_type (b));

  switch (json_node_get_node_type (a))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *oa = json_node_get_object (a);
        JsonObject *ob = json_node_get_object (b);
        g_autoptr (GList) ma = json_object_get_members (oa);
        g_autoptr (GList) mb = json_object_get_members (ob);
        GList *la, *lb;

        g_assert_cmpuint (g_list_length (ma), ==, g_list_length (mb));
        g_assert_cmpuint (json_object_get_size (oa), ==, g_list_length (ma));
        for (la = ma, lb = mb; la != NULL; la = la->next, lb = lb->next)
          {
            g_assert_cmpstr (la->data, ==, lb->data);
            assert_identical (json_object_get_member (oa, la->data),
                              json_object_get_member (ob, lb->data));
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *aa = json_node_get_array (a);
        JsonArray *ab = json_node_get_array (b);

        g_assert_cmpuint (json_array_get_length (aa), ==, json_array_get_length (ab));
        for (guint i = 0; i < json_array_get_length (aa); i++)
          assert_identical (json_array_get_element (aa, i), json_array_get_element (ab, i));
      }
      break;

    case JSON_NODE_VALUE:
      g_assert_cmpstr (g_type_name (json_node_get_value_type (a)), ==,
                       g_type_name (json_node_get_value_type (b)));
      switch (json_node_get_value_type (a))
        {
        case G_TYPE_INT64:
          g_assert_cmpint (json_node_get_int (a), ==, json_node_get_int (b));
          break;
        case G_TYPE_DOUBLE:
          {
            double da = json_node_get_double (a), db = json_node_get_double (b);

            /* Bit for bit, so that -0.0 and 0.0 differ. */
            g_assert_cmpmem (&da, sizeof da, &db, sizeof db);
          }
          break;
        case G_TYPE_BOOLEAN:
          g_assert_cmpint (json_node_get_boolean (a), ==, json_node_get_boolean (b));
          break;
        case G_TYPE_STRING:
          g_assert_cmpstr (json_node_get_string (a), ==, json_node_get_string (b));
          break;
        default:
          g_assert_not_reached ();
        }
      break;

    case JSON_NODE_NULL:
    default:
      break;
    }
}

/* Both parsers accept @text and agree on its tree; both writers agree on its bytes. */
static void
assert_like_json_glib (const char *text)
{
  g_autoptr (JsonNode) theirs = json_glib_parse (text, strlen (text));
  g_autoptr (JsonNode) ours = parse_ok (text);
  g_autofree char *their_bytes = NULL;
  g_autofree char *our_bytes = NULL;

  if (theirs == NULL)
    g_error ("json-glib refused “%s”", text);
  assert_identical (ours, theirs);
  their_bytes = json_glib_write (theirs);
  our_bytes = loom_json_write (ours);
  g_assert_cmpstr (our_bytes, ==, their_bytes);
}

/* Writes @node, parses the text back and expects the same tree. */
static void
assert_round_trip (JsonNode *node)
{
  g_autofree char *text = loom_json_write (node);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) again = parse_exact (text, strlen (text), &error);

  g_assert_no_error (error);
  assert_identical (again, node);
}

static void
assert_string (const char *json,
               const char *expected)
{
  g_autoptr (JsonNode) node = parse_ok (json);

  g_assert_cmpstr (g_type_name (json_node_get_value_type (node)), ==, "gchararray");
  g_assert_cmpstr (json_node_get_string (node), ==, expected);
}

/* ——— The fixtures ——— */

static void
collect_files (const char *dir,
               GPtrArray  *paths)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_files (path, paths);
      else if (g_str_has_suffix (name, ".jsonl") || g_str_has_suffix (name, ".json"))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
}

/* One value as the reader hands it over: raw is the line as read (made valid UTF-8), fixed is
 * the same after loom_jsonl_fix_surrogates(), which json-glib needed. Returns TRUE when both
 * parsers took it. */
static gboolean
check_value (const char *raw,
             const char *fixed,
             gsize       length)
{
  g_autoptr (JsonNode) theirs = json_glib_parse (fixed, length);
  g_autoptr (JsonNode) ours = parse_exact (fixed, length, NULL);
  g_autoptr (JsonNode) ours_raw = parse_exact (raw, length, NULL);
  g_autofree char *their_bytes = NULL;
  g_autofree char *our_bytes = NULL;

  /* The parser repairs surrogates exactly as the reader's pass does. */
  g_assert_true ((ours == NULL) == (ours_raw == NULL));
  if (ours != NULL)
    assert_identical (ours_raw, ours);

  if (theirs == NULL || ours == NULL)
    {
      if ((theirs == NULL) != (ours == NULL))
        g_error ("the parsers disagree on whether “%.*s” is JSON", (int)MIN (length, 300), fixed);
      return FALSE;
    }

  assert_identical (ours, theirs);
  their_bytes = json_glib_write (theirs);
  our_bytes = loom_json_write (ours);
  g_assert_cmpstr (our_bytes, ==, their_bytes);
  assert_round_trip (ours);
  return TRUE;
}

/* A line of a JSON Lines file, split into values as the reader splits it, or with @whole a
 * .json document, parsed whole as loom_import_file_read_document() parses it. */
static guint
check_text (const char *line,
            gsize       len,
            gboolean    whole)
{
  g_autofree char *raw = NULL;
  g_autofree char *fixed = NULL;
  gsize            ends[64];
  guint            checked = 0;
  int              n;

  raw = g_utf8_validate_len (line, len, NULL) ? g_strndup (line, len)
                                              : g_utf8_make_valid (line, (gssize)len);
  len = strlen (raw);
  fixed = g_strdup (raw);
  loom_jsonl_fix_surrogates (fixed, len);

  if (whole)
    {
      n = 1;
      ends[0] = len;
    }
  else
    n = loom_jsonl_split_values (fixed, len, LOOM_JSONL_MAX_DEPTH, ends, G_N_ELEMENTS (ends));
  for (int i = 0; i < n; i++)
    {
      gsize start = i == 0 ? 0 : ends[i - 1];

      while (start < ends[i] && g_ascii_isspace (fixed[start]))
        start++;
      if (start < ends[i] && check_value (raw + start, fixed + start, ends[i] - start))
        checked++;
    }
  return checked;
}

/* Every value of every fixture (LOOM_TEST_FIXTURES; point it at a bench corpus to check more). */
static void
test_fixtures (void)
{
  const char *root = g_getenv ("LOOM_TEST_FIXTURES");
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  guint values = 0;

  g_assert_nonnull (root);
  collect_files (root, paths);
  g_assert_cmpuint (paths->len, >, 20);

  for (guint i = 0; i < paths->len; i++)
    {
      const char      *path = g_ptr_array_index (paths, i);
      g_autofree char *contents = NULL;
      g_autoptr (GError) error = NULL;
      gsize length;

      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);

      if (g_str_has_suffix (path, ".json"))
        {
          values += check_text (contents, length, TRUE);
          continue;
        }
      for (char *line = contents; line < contents + length;)
        {
          char *newline = memchr (line, '\n', (gsize)(contents + length - line));
          char *end = newline != NULL ? newline : contents + length;
          gsize len = (gsize)(end - line);

          if (len > 0 && line[len - 1] == '\r')
            len--;
          values += check_text (line, len, FALSE);
          line = end + 1;
        }
    }
  /* The fixtures hold about 300 values; far fewer would mean they were not read. */
  g_test_message ("%u values in %u files agree with json-glib", values, paths->len);
  g_assert_cmpuint (values, >, 250);
}

/* ——— Hand-written cases ——— */

static void
test_like_json_glib (void)
{
  static const char *const texts[] = {
    "{}",
    "[]",
    "[[],{}]",
    "{\"a\":{}}",
    "{\"\":1}",
    "null",
    "true",
    "false",
    "0",
    "\"\"",
    "  {\"a\" : [ 1 , 2 ] }  \r\n\t",
    "\r\n[1]\r\n",
    "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}",
    "[0,-1,42,-0.5,1.5,3.14159,0.1,123456789.123,2.5e-7,1E+2,1e3,1e-3,-0.0,1e15,1e16]",
    "[9223372036854775807,-9223372036854775808,4.9406564584124654e-324,1.7976931348623157e308]",
    "[\"\\b\\f\\n\\r\\t\\\"\\\\\\/\"]",
    "\"\\u0041\\u00e9\\u20ac\\uffff\\uFFFD\"",
    "\"\\ud83d\\ude00\"",
    "\"\\uD83D\\uDE00\"",
    "\"é😀ü\"",
    "[\"a\\u2028b\"]",
    "\"\\u0001\\u001e\\u007f\\u0080\"",
    /* Raw control characters: not RFC 8259, but json-glib took them and old imports have them. */
    "\"a\tb\"",
    "\"a\x01"
    "b\"",
    "\"a\x1e"
    "b\"",
    /* A repeated name keeps its first position and takes the last value. */
    "{\"a\":1,\"b\":2,\"a\":3}",
    "{\"a\":1,\"b\":2,\"b\":{\"x\":1}}",
    "{\"a\":[1],\"a\":{\"b\":2},\"a\":null}",
    /* \u0000 is U+FFFD, and the string goes on (json_glib_parse() reads it so too). */
    "\"a\\u0000b\"",
    "{\"a\\u0000b\":1}",
    "[\"\\u0000\"]",
    "{\"a\\u0000b\":1,\"a\":2}",
    "\"\\\\u0000\"",
    "[\"\\u0000\\u0000x\\u00001\"]",
    /* A byte order mark is skipped. */
    "\xef\xbb\xbf[1]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    assert_like_json_glib (texts[i]);
}

static void
assert_int (const char *text,
            gint64      expected)
{
  g_autoptr (JsonNode) node = parse_ok (text);

  g_assert_cmpstr (g_type_name (json_node_get_value_type (node)), ==, "gint64");
  g_assert_cmpint (json_node_get_int (node), ==, expected);
}

static void
assert_double (const char *text,
               double      expected)
{
  g_autoptr (JsonNode) node = parse_ok (text);
  double got;

  g_assert_cmpstr (g_type_name (json_node_get_value_type (node)), ==, "gdouble");
  got = json_node_get_double (node);
  g_assert_cmpmem (&got, sizeof got, &expected, sizeof expected);
}

static void
test_numbers (void)
{
  static const char *const refused[] = {
    "-",  "--1", "+1",  ".5",       "5.",        "1e",    "1e+",   "1E-", "0x10",  "1.e3", "01",
    "00", "-01", "NaN", "Infinity", "-Infinity", "1.5.2", "1e5e5", "- 1", "[1 2]", "[-]",  "1_000",
  };

  assert_int ("0", 0);
  assert_int ("-0", 0); /* json-glib: an integer, and integers have no sign of zero */
  assert_int ("42", 42);
  assert_int ("-42", -42);
  assert_int ("9223372036854775807", G_MAXINT64);
  assert_int ("-9223372036854775808", G_MININT64);
  assert_double ("1.0", 1.0);
  assert_double ("1e3", 1000.0);
  assert_double ("-0.0", -0.0);
  assert_double ("1e400", INFINITY);
  assert_double ("-1e400", -INFINITY);
  assert_double ("1e-400", 0.0);
  /* Beyond gint64: a double, where json-glib 1.6 wrapped around (to -1, or to G_MININT64). */
  assert_double ("9223372036854775808", 9223372036854775808.0);
  assert_double ("-9223372036854775809", -9223372036854775809.0);
  assert_double ("18446744073709551616", 18446744073709551616.0);
  assert_double ("123456789012345678901234567890", 123456789012345678901234567890.0);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i], strlen (refused[i]));
}

static void
test_strings (void)
{
  static const char *const refused[] = {
    "\"abc", "\"abc\\\"", "\"\\x\"", "\"\\'\"", "\"\\u12\"", "\"\\u12G4\"",  "\"\\U0041\"",
    "'a'",   "['a']",     "{'a':1}", "\"\\",    "\"\\u",     "\"\\ud83d\\u", "\"\\ud83d\\ude0",
  };

  assert_string ("\"\\b\\f\\n\\r\\t\\\"\\\\\\/\"", "\b\f\n\r\t\"\\/");
  assert_string ("\"\\u0041\\u00E9\\u20AC\"", "A\xc3\xa9\xe2\x82\xac");
  assert_string ("\"\\ud800\\udc00\\udbff\\udfff\"", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
  /* \u0000 is U+FFFD, so that the C string keeps what follows it. */
  assert_string ("\"a\\u0000b\"", "a" REPLACEMENT "b");
  assert_string ("\"\\u0000\"", REPLACEMENT);
  assert_string ("\"\\u0000\\u0000tail\\n\"", REPLACEMENT REPLACEMENT "tail\n");
  assert_string ("\"\\\\u0000\"", "\\u0000"); /* an escaped backslash, then text */
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    assert_refused (refused[i], strlen (refused[i]));
  /* A raw NUL is refused, as json-glib refuses it, wherever it is. */
  assert_refused ("\"a\0b\"", 5);
  assert_refused ("[1]\0", 4);
}

/* The parser pairs surrogates exactly as loom_jsonl_fix_surrogates() does, so a line reads the
 * same whether the reader repaired it first or not. */
static void
test_lone_surrogates (void)
{
  static const struct
  {
    const char *json;
    const char *expected;
  } cases[] = {
    { "\"\\ud83d\"", REPLACEMENT },
    { "\"\\ude00\"", REPLACEMENT },
    { "\"\\ud83dx\"", REPLACEMENT "x" },
    { "\"\\ud83d\\u0041\"", REPLACEMENT "A" },
    { "\"\\ude00\\ud83d\"", REPLACEMENT REPLACEMENT },
    { "\"\\ud83d\\ud83d\\ude00\"", REPLACEMENT "\xf0\x9f\x98\x80" },
    { "\"\\ud83d\\n\"", REPLACEMENT "\n" },
    { "\"\\\\ud83d\"", "\\ud83d" }, /* an escaped backslash, then text */
    { "\"a\\uDBFF\"", "a" REPLACEMENT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *fixed = g_strdup (cases[i].json);
      g_autoptr (JsonNode) repaired = NULL;
      g_autoptr (JsonNode) theirs = NULL;

      assert_string (cases[i].json, cases[i].expected);
      loom_jsonl_fix_surrogates (fixed, strlen (fixed));
      repaired = parse_ok (fixed);
      g_assert_cmpstr (json_node_get_string (repaired), ==, cases[i].expected);
      theirs = json_glib_parse (fixed, strlen (fixed));
      g_assert_nonnull (theirs);
      g_assert_cmpstr (json_node_get_string (theirs), ==, cases[i].expected);
    }
}

static void
test_repeated_names (void)
{
  g_autoptr (GString) text = g_string_new ("{");
  g_autoptr (JsonNode) node = NULL;
  JsonObject *object;
  guint       n = 200000;

  /* Many repeats of a name far down the member list: json_object_set_member() would walk the
   * list for each, 4 × 10¹⁰ steps in all. */
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "\"k%u\":%u,", i, i);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "\"k%u\":%s,", n - 1, i % 2 ? "[1]" : "{\"x\":true}");
  g_string_append (text, "\"k0\":\"last\"}");

  node = parse_exact (text->str, text->len, NULL);
  g_assert_nonnull (node);
  object = json_node_get_object (node);
  g_assert_cmpuint (json_object_get_size (object), ==, n);
  g_assert_cmpstr (json_object_get_string_member (object, "k0"), ==, "last");
  g_assert_true (JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "k199999")));
  {
    g_autoptr (GList) members = json_object_get_members (object);

    g_assert_cmpstr (members->data, ==, "k0");
    g_assert_cmpstr (g_list_last (members)->data, ==, "k199999");
  }
}

/* The accessors the importers read records with: missing members and members that are null
 * differ, the wrong type gives NULL or the fallback, and NULL is taken everywhere. */
static void
test_values (void)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (GString) big = g_string_new ("{");
  const char     *text = "{\"s\":\"x\\u0000y\",\"n\":null,\"i\":-7,\"d\":2.9,\"t\":true,"
                         "\"f\":false,\"a\":[1,\"two\",{}],\"o\":{\"k\":\"v\"},"
                         "\"r\":1,\"r\":2,\"a\\u0000b\":3,\"a\\u0000c\":4}";
  const LoomJson *root, *member;

  root = loom_json_doc_parse (doc, text, strlen (text), NULL);
  g_assert_true (loom_json_is_object (root));
  /* r came twice: first place, last value. The names holding \u0000 are not cut at it, so
   * they are neither "a" nor each other: U+FFFD stands where the NUL was, and the rest
   * follows. */
  g_assert_cmpuint (loom_json_length (root), ==, 11);
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 8)), ==, "r");
  g_assert_cmpint (loom_json_member_int (root, "r", 0), ==, 2);
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 6)), ==, "a");
  g_assert_true (loom_json_is_array (loom_json_member (root, "a")));
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 9)), ==, "a" REPLACEMENT "b");
  g_assert_cmpint (loom_json_member_int (root, "a" REPLACEMENT "b", 0), ==, 3);
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 10)), ==, "a" REPLACEMENT "c");
  g_assert_cmpint (loom_json_member_int (root, "a" REPLACEMENT "c", 0), ==, 4);
  {
    g_autofree char *written = loom_json_value_to_string (root);

    g_assert_nonnull (strstr (written, ",\"a" REPLACEMENT "b\":3,\"a" REPLACEMENT "c\":4}"));
  }

  g_assert_cmpstr (loom_json_member_string (root, "s"), ==, "x" REPLACEMENT "y");
  g_assert_null (loom_json_member_string (root, "i"));
  member = loom_json_member (root, "n");
  g_assert_nonnull (member);
  g_assert_cmpint (loom_json_type (member), ==, LOOM_JSON_NULL);
  g_assert_null (loom_json_member (root, "missing"));
  g_assert_cmpint (loom_json_member_int (root, "i", 0), ==, -7);
  g_assert_cmpint (loom_json_member_int (root, "d", 0), ==, 2);
  g_assert_cmpint (loom_json_member_int (root, "t", 0), ==, 1);
  g_assert_cmpint (loom_json_member_int (root, "s", 5), ==, 5);
  g_assert_true (loom_json_true (loom_json_member (root, "t")));
  g_assert_false (loom_json_true (loom_json_member (root, "f")));
  g_assert_false (loom_json_true (loom_json_member (root, "i")));
  g_assert_null (loom_json_member_object (root, "a"));
  g_assert_null (loom_json_member_array (root, "o"));
  g_assert_cmpstr (loom_json_member_string (loom_json_member_object (root, "o"), "k"), ==, "v");

  g_assert_null (loom_json_element (root, 11));
  g_assert_cmpuint (loom_json_length (loom_json_member (root, "s")), ==, 0);
  g_assert_null (loom_json_element (loom_json_member (root, "s"), 0));
  g_assert_null (loom_json_name (root));

  g_assert_cmpint (loom_json_type (NULL), ==, LOOM_JSON_NULL);
  g_assert_false (loom_json_is_object (NULL));
  g_assert_null (loom_json_member (NULL, "s"));
  g_assert_null (loom_json_string (NULL));
  g_assert_cmpint (loom_json_int (NULL, 3), ==, 3);
  g_assert_cmpuint (loom_json_length (NULL), ==, 0);
  g_assert_null (loom_json_value_to_string (NULL));
  g_assert_null (loom_json_value_to_node (NULL));

  /* Elements in order, members without names. */
  text = "[1,\"two\",{\"k\":[]}]";
  root = loom_json_doc_parse (doc, text, strlen (text), NULL);
  g_assert_true (loom_json_is_array (root));
  g_assert_cmpuint (loom_json_length (root), ==, 3);
  g_assert_cmpint (loom_json_int (loom_json_element (root, 0), 0), ==, 1);
  g_assert_cmpstr (loom_json_string (loom_json_element (root, 1)), ==, "two");
  g_assert_null (loom_json_name (loom_json_element (root, 1)));
  g_assert_true (loom_json_is_array (loom_json_member (loom_json_element (root, 2), "k")));
  g_assert_null (loom_json_member (root, "k"));

  /* More members than are compared pair by pair: a table finds the repeats, with the same
   * result, and names holding \u0000 are whole in it too, so none of them is taken for "m3",
   * nor for another that differs only after the NUL. */
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (big, "\"m%u\":%u,", i, i);
  g_string_append (big, "\"m3\\u0000tail\":\"late\",\"m3\\u0000other\":\"other\","
                        "\"m3\\u0000tail\":\"later\",\"m39\":\"last\"}");
  root = loom_json_doc_parse (doc, big->str, big->len, NULL);
  g_assert_cmpuint (loom_json_length (root), ==, 42);
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 3)), ==, "m3");
  g_assert_cmpint (loom_json_member_int (root, "m3", -1), ==, 3);
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 40)), ==, "m3" REPLACEMENT "tail");
  g_assert_cmpstr (loom_json_member_string (root, "m3" REPLACEMENT "tail"), ==, "later");
  g_assert_cmpstr (loom_json_name (loom_json_element (root, 41)), ==, "m3" REPLACEMENT "other");
  g_assert_cmpstr (loom_json_member_string (root, "m3" REPLACEMENT "other"), ==, "other");
  g_assert_cmpstr (loom_json_string (loom_json_element (root, 39)), ==, "last");

  /* Containers of a great many values keep them where they gathered (see pop ()): two such
   * arrays side by side, inside an object with members before and after them. */
  g_string_assign (big, "{\"before\":1,\"big\":[[");
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (big, "%s%u", i > 0 ? "," : "", i);
  g_string_append (big, "],[");
  for (guint i = 0; i < 70000; i++)
    g_string_append_printf (big, "%s\"v%u\"", i > 0 ? "," : "", i);
  g_string_append (big, "]],\"after\":[1,2]}");
  root = loom_json_doc_parse (doc, big->str, big->len, NULL);
  g_assert_cmpuint (loom_json_length (root), ==, 3);
  g_assert_cmpint (loom_json_member_int (root, "before", 0), ==, 1);
  member = loom_json_member_array (root, "big");
  g_assert_cmpuint (loom_json_length (member), ==, 2);
  g_assert_cmpuint (loom_json_length (loom_json_element (member, 0)), ==, 100000);
  g_assert_cmpint (loom_json_int (loom_json_element (loom_json_element (member, 0), 99999), 0), ==,
                   99999);
  g_assert_cmpuint (loom_json_length (loom_json_element (member, 1)), ==, 70000);
  g_assert_cmpstr (loom_json_string (loom_json_element (loom_json_element (member, 1), 69999)), ==,
                   "v69999");
  g_assert_cmpuint (loom_json_length (loom_json_member_array (root, "after")), ==, 2);

  /* A failed parse leaves no value, and the document serves the next one. */
  g_assert_null (loom_json_doc_parse (doc, "{\"a\":", 5, NULL));
  root = loom_json_doc_parse (doc, "\"ok\"", 4, NULL);
  g_assert_cmpstr (loom_json_string (root), ==, "ok");
}

static char *
nested (guint       depth,
        const char *open,
        const char *inner,
        const char *close)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (text, open);
  g_string_append (text, inner);
  for (guint i = 0; i < depth; i++)
    g_string_append (text, close);
  return g_string_free (text, FALSE);
}

static void
test_depth (void)
{
  g_autofree char *arrays = nested (LOOM_JSON_MAX_DEPTH, "[", "1", "]");
  g_autofree char *objects = nested (LOOM_JSON_MAX_DEPTH, "{\"a\":", "1", "}");
  g_autofree char *mixed = nested (LOOM_JSON_MAX_DEPTH / 2, "{\"a\":[", "1", "]}");
  g_autofree char *too_deep = nested (LOOM_JSON_MAX_DEPTH + 1, "[", "", "]");
  g_autofree char *objects_too_deep = nested (LOOM_JSON_MAX_DEPTH + 1, "{\"a\":", "1", "}");
  g_autofree char *hostile = g_strnfill (1000000, '[');
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonNode *walk;
  guint     depth = 0;

  node = parse_ok (arrays);
  for (walk = node; JSON_NODE_HOLDS_ARRAY (walk); depth++)
    walk = json_array_get_element (json_node_get_array (walk), 0);
  g_assert_cmpuint (depth, ==, LOOM_JSON_MAX_DEPTH);
  g_assert_cmpint (json_node_get_int (walk), ==, 1);
  assert_round_trip (node);
  g_clear_pointer (&node, json_node_unref);

  node = parse_ok (objects);
  assert_round_trip (node);
  g_clear_pointer (&node, json_node_unref);
  node = parse_ok (mixed);
  assert_round_trip (node);

  /* The limit is the reader's: what its depth guard lets through, the parser takes. */
  g_assert_cmpint (LOOM_JSON_MAX_DEPTH, ==, LOOM_JSONL_MAX_DEPTH);
  g_assert_null (parse_exact (too_deep, strlen (too_deep), &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_PARSE);
  g_assert_true (strstr (error->message, "deeper") != NULL);
  assert_refused (objects_too_deep, strlen (objects_too_deep));
  assert_refused (hostile, strlen (hostile));
}

static void
test_errors (void)
{
  static const struct
  {
    const char *text;
    gsize       offset;
  } cases[] = {
    { "", 0 },
    { "   ", 3 },
    { "[1,]", 3 },
    { "{\"a\":1,}", 7 },
    { "[,]", 1 },
    { "{,}", 1 },
    { "{\"a\" 1}", 5 },
    { "{\"a\":}", 5 },
    { "{a:1}", 1 },
    { "[1 2]", 3 },
    { "1 2", 2 },
    { "[] []", 3 },
    { "{} x", 3 },
    { "[1]]", 3 },
    { "{}{}", 2 },
    { "\"a\" \"b\"", 4 },
    { "{\"a\":1}garbage", 7 },
    { "/*c*/1", 0 },
    { "1 //c", 2 },
    { "#c", 0 },
    { "[", 1 },
    { "{", 1 },
    { "{\"a\"", 4 },
    { "{\"a\":1", 6 },
    { "]", 0 },
    { "TRUE", 0 },
    { "nul", 0 },
    { "nulll", 4 },
    { "[true false]", 6 },
    { "\x0c[1]", 0 },
    { "[1]\x0b", 3 },
    { "\"abc", 0 },
    { "[\"\\q\"]", 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *where = g_strdup_printf (" at byte %" G_GSIZE_FORMAT, cases[i].offset);

      g_assert_null (parse_exact (cases[i].text, strlen (cases[i].text), &error));
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_PARSE);
      if (strstr (error->message, where) == NULL)
        g_error ("“%s”: “%s” does not say%s", cases[i].text, error->message, where);
    }
}

/* Every prefix of a document that uses every construct is refused (only the whole is JSON),
 * each from a buffer that ends exactly there. */
static void
test_truncated (void)
{
  static const char document[] =
    "{\"s\":\"plain \\\"quoted\\\" \\u00e9\\ud83d\\ude00\\n\",\"n\":[0,-1,2.5e-3,1E+9,-0.0,"
    "9223372036854775807],\"b\":[true,false,null],\"o\":{\"\":{},\"a\":[[]]},\"t\":\"\\/\"}";
  gsize length = strlen (document);
  g_autoptr (JsonNode) whole = NULL;

  for (gsize n = 0; n < length; n++)
    assert_refused (document, n);
  whole = parse_ok (document);
  assert_like_json_glib (document);
}

static void
test_huge_strings (void)
{
  gsize            size = 100 * 1024 * 1024;
  g_autofree char *text = g_malloc (size + 2);
  g_autoptr (JsonNode) node = NULL;
  const char *value;
  gsize       i;

  /* Plain: one run of 100 MB between two quotes. */
  text[0] = '"';
  memset (text + 1, 'x', size);
  text[size + 1] = '"';
  node = parse_exact (text, size + 2, NULL);
  g_assert_nonnull (node);
  g_assert_cmpuint (strlen (json_node_get_string (node)), ==, size);
  g_clear_pointer (&node, json_node_unref);

  /* An escape every eight bytes: each must not rescan the rest of the string. */
  for (i = 1; i + 8 <= size + 1; i += 8)
    memcpy (text + i, "ab\\ncd\\\"", 8);
  memset (text + i, 'z', size + 1 - i);
  node = parse_exact (text, size + 2, NULL);
  g_assert_nonnull (node);
  value = json_node_get_string (node);
  g_assert_cmpuint (strlen (value), ==, (size / 8) * 6 + (size + 1 - i));
  g_assert_cmpmem (value, 12, "ab\ncd\"ab\ncd\"", 12);
  g_clear_pointer (&node, json_node_unref);

  /* Unterminated: an error, after one pass. */
  text[size + 1] = 'z';
  assert_refused (text, size + 2);
}

static void
test_write (void)
{
  static const struct
  {
    const char *json;
    const char *written;
  } cases[] = {
    { "{\"a\":[1,2.5,\"x\",true,false,null,{}],\"b\":[]}",
      "{\"a\":[1,2.5,\"x\",true,false,null,{}],\"b\":[]}" },
    { " [ 1 , 2 ] ", "[1,2]" },
    { "[1.0,1e3,-0.0,0.1,-9223372036854775808]",
      "[1.0,1000.0,-0.0,0.10000000000000001,-9223372036854775808]" },
    /* JsonGenerator wrote "1e+17.0" and "inf.0", neither of them JSON. */
    { "[1e17,1e400,-1e400]", "[1e+17,1e999,-1e999]" },
    /* JsonGenerator left 0x1f raw; RFC 8259 wants it escaped. */
    { "\"\\u001f\\u007f\\u0001\"", "\"\\u001f\\u007f\\u0001\"" },
    { "\"\\/\\b\\f\\n\\r\\t\\\"\\\\é\"", "\"/\\b\\f\\n\\r\\t\\\"\\\\é\"" },
    { "{\"k\\n\\\"\":\"v\"}", "{\"k\\n\\\"\":\"v\"}" },
  };
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (JsonNode) parsed = parse_ok (cases[i].json);
      g_autofree char *written = loom_json_write (parsed);

      g_assert_cmpstr (written, ==, cases[i].written);
      assert_round_trip (parsed);
    }

  /* Every ASCII character, as JsonGenerator escapes it (but for 0x1f). */
  {
    g_autoptr (JsonNode) ascii = json_node_new (JSON_NODE_VALUE);
    g_autofree char *all = g_malloc (128);
    g_autofree char *ours = NULL;
    g_autofree char *theirs = NULL;

    for (int c = 1; c < 128; c++)
      all[c - 1] = c == 0x1f ? ' ' : (char)c;
    all[127] = '\0';
    json_node_set_string (ascii, all);
    ours = loom_json_write (ascii);
    theirs = json_glib_write (ascii);
    g_assert_cmpstr (ours, ==, theirs);
    assert_round_trip (ascii);
  }

  /* Each escaped byte at every place in a word, among plain and multi-byte characters. */
  for (guint at = 0; at < 24; at++)
    {
      static const char special[] = { '"', '\\', '\n', '\x01', '\x7f', '\x1e', 'a' };

      for (guint i = 0; i < G_N_ELEMENTS (special); i++)
        {
          g_autoptr (JsonNode) string = json_node_new (JSON_NODE_VALUE);
          g_autoptr (GString) value = g_string_new (NULL);
          g_autofree char *ours = NULL;
          g_autofree char *theirs = NULL;

          for (guint j = 0; j < at; j++)
            g_string_append (value, j % 3 ? "x" : "é");
          g_string_append_c (value, special[i]);
          g_string_append (value, "tail é😀 and more");
          json_node_set_string (string, value->str);
          ours = loom_json_write (string);
          theirs = json_glib_write (string);
          g_assert_cmpstr (ours, ==, theirs);
        }
    }

  /* Doubles that %.17g writes without a point get ".0", so they read back as doubles. */
  json_node_set_double (node, 5e15);
  text = loom_json_write (node);
  g_assert_cmpstr (text, ==, "5000000000000000.0");
  assert_round_trip (node);
  g_clear_pointer (&text, g_free);

  json_node_set_double (node, NAN);
  text = loom_json_write (node);
  g_assert_cmpstr (text, ==, "null");
  g_clear_pointer (&text, g_free);

  json_node_set_string (node, NULL);
  text = loom_json_write (node);
  g_assert_cmpstr (text, ==, "null");
}

/* ——— The reader's passes, against the byte-by-byte versions they replaced ——— */

static int
reference_split_values (const char *text,
                        gsize       len,
                        int         max_depth,
                        gsize      *ends,
                        int         max_values)
{
  gboolean in_string = FALSE, escaped = FALSE, in_value = FALSE;
  int      depth = 0, n = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      switch (c)
        {
        case '"':
          in_string = TRUE;
          in_value = TRUE;
          break;
        case '{':
        case '[':
          if (++depth > max_depth)
            return -1;
          in_value = TRUE;
          break;
        case '}':
        case ']':
          depth--;
          if (depth <= 0)
            {
              depth = 0;
              if (n < max_values)
                ends[n] = i + 1;
              n++;
              in_value = FALSE;
            }
          break;
        case ' ':
        case '\t':
        case '\r':
          break;
        default:
          in_value = TRUE;
          break;
        }
    }
  if (in_value || depth > 0 || in_string)
    {
      if (n < max_values)
        ends[n] = len;
      n++;
    }
  return MIN (n, max_values);
}

static gboolean
reference_is_u_escape (const char *p,
                       const char *end)
{
  return end - p >= 6 && p[0] == '\\' && p[1] == 'u' && g_ascii_isxdigit (p[2]) &&
         g_ascii_isxdigit (p[3]) && g_ascii_isxdigit (p[4]) && g_ascii_isxdigit (p[5]);
}

static guint
reference_read_escape (const char *p)
{
  return (guint)(g_ascii_xdigit_value (p[2]) << 12 | g_ascii_xdigit_value (p[3]) << 8 |
                 g_ascii_xdigit_value (p[4]) << 4 | g_ascii_xdigit_value (p[5]));
}

static guint
reference_fix_surrogates (char *text,
                          gsize len)
{
  char *end = text + len;
  guint fixed = 0;

  for (char *p = text; p < end; p++)
    {
      guint unit;

      if (*p != '\\')
        continue;
      if (!reference_is_u_escape (p, end))
        {
          p++;
          continue;
        }
      unit = reference_read_escape (p);
      if (unit >= 0xD800 && unit <= 0xDBFF && reference_is_u_escape (p + 6, end) &&
          reference_read_escape (p + 6) >= 0xDC00 && reference_read_escape (p + 6) <= 0xDFFF)
        {
          p += 11;
          continue;
        }
      if (unit >= 0xD800 && unit <= 0xDFFF)
        {
          memcpy (p, "\\uFFFD", 6);
          fixed++;
        }
      p += 5;
    }
  return fixed;
}

static const char *const pieces[] = {
  "{",
  "}",
  "[",
  "]",
  "\"",
  "\"",
  "\\",
  "\\\"",
  "\\\\",
  "\\u",
  "\\ud83d",
  "\\ude00",
  "\\u0041",
  "\\n",
  ",",
  ":",
  " ",
  "1",
  "-",
  "0",
  "e",
  ".",
  "a",
  "true",
  "null",
  "\"k\":",
  "\t",
  "d8",
  "DC00",
  "\\uD800",
  "\\udbff\\udfff",
  "é",
};

static const char *const string_pieces[] = {
  "a",
  "key",
  " ",
  "é",
  "😀",
  "\\n",
  "\\\"",
  "\\\\",
  "\\/",
  "\\t",
  "\\u0041",
  "\\u00e9",
  "\\ud83d\\ude00",
  "\\ud83d",
  "\\ude00",
  "\\uDBFF",
  "\\u0000",
  "\t",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "\\b\\f\\r",
};

static const char *const number_pieces[] = {
  "0",
  "-0",
  "1",
  "-1",
  "42",
  "9223372036854775807",
  "-9223372036854775808",
  "0.5",
  "-0.0",
  "1e3",
  "1E-7",
  "2.5e+10",
  "123456.789",
  "1e400",
  "4.9406564584124654e-324",
  "100",
};

/* Random JSON: every construct, escapes and surrogates in strings, names that repeat. */
static void
random_value (GString *text,
              guint    depth)
{
  guint pick = (guint)g_test_rand_int_range (0, depth > 6 ? 6 : 8);
  guint n;

  switch (pick)
    {
    case 0:
      g_string_append (text, "null");
      break;
    case 1:
      g_string_append (text, g_test_rand_bit () ? "true" : "false");
      break;
    case 2:
    case 3:
      g_string_append (text,
                       number_pieces[g_test_rand_int_range (0, G_N_ELEMENTS (number_pieces))]);
      break;
    case 4:
    case 5:
      g_string_append_c (text, '"');
      n = (guint)g_test_rand_int_range (0, 6);
      for (guint i = 0; i < n; i++)
        g_string_append (text,
                         string_pieces[g_test_rand_int_range (0, G_N_ELEMENTS (string_pieces))]);
      g_string_append_c (text, '"');
      break;
    case 6:
      g_string_append_c (text, '[');
      n = (guint)g_test_rand_int_range (0, 5);
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (text, g_test_rand_bit () ? "," : " , ");
          random_value (text, depth + 1);
        }
      g_string_append_c (text, ']');
      break;
    case 7:
    default:
      g_string_append_c (text, '{');
      n = (guint)g_test_rand_int_range (0, 5);
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append_c (text, ',');
          /* Few names, so that some repeat. */
          g_string_append_printf (text, "\"%c%s\":", 'a' + g_test_rand_int_range (0, 4),
                                  g_test_rand_bit () ? "" : "\\u00e9");
          random_value (text, depth + 1);
        }
      g_string_append_c (text, '}');
      break;
    }
}

/* Random text: valid JSON, the same broken by a cut, a deletion or an inserted piece, or
 * JSON's pieces thrown together. */
static char *
random_text (gsize *length)
{
  GString *text = g_string_new (NULL);
  guint    how = (guint)g_test_rand_int_range (0, 5);

  if (how == 4)
    {
      guint n = (guint)g_test_rand_int_range (0, 40);

      for (guint i = 0; i < n; i++)
        g_string_append (text, pieces[g_test_rand_int_range (0, G_N_ELEMENTS (pieces))]);
    }
  else
    {
      random_value (text, 0);
      if (how == 1 && text->len > 0)
        g_string_truncate (text, (gsize)g_test_rand_int_range (0, (gint32)text->len));
      else if (how == 2 && text->len > 0)
        {
          gsize at = (gsize)g_test_rand_int_range (0, (gint32)text->len);
          gsize n = (gsize)g_test_rand_int_range (1, 4);

          g_string_erase (text, (gssize)at, (gssize)MIN (text->len - at, n));
        }
      else if (how == 3)
        g_string_insert (text, g_test_rand_int_range (0, (gint32)text->len + 1),
                         pieces[g_test_rand_int_range (0, G_N_ELEMENTS (pieces))]);
    }
  *length = text->len;
  return g_string_free (text, FALSE);
}

static void
test_reader_passes (void)
{
  for (guint round = 0; round < 20000; round++)
    {
      gsize            length;
      g_autofree char *text = random_text (&length);
      g_autofree char *a = g_memdup2 (text, length + 1);
      g_autofree char *b = g_memdup2 (text, length + 1);
      gsize            ends_a[8], ends_b[8];
      int              max_depth = g_test_rand_int_range (1, 6);
      int              na, nb;

      g_assert_cmpuint (loom_jsonl_fix_surrogates (a, length), ==,
                        reference_fix_surrogates (b, length));
      g_assert_cmpmem (a, length, b, length);

      na = loom_jsonl_split_values (a, length, max_depth, ends_a, G_N_ELEMENTS (ends_a));
      nb = reference_split_values (a, length, max_depth, ends_b, G_N_ELEMENTS (ends_b));
      g_assert_cmpint (na, ==, nb);
      if (na > 0)
        g_assert_cmpmem (ends_a, na * sizeof (gsize), ends_b, nb * sizeof (gsize));
    }
}

/* Through the reader: a byte order mark alone on a line is nothing, as it was to json-glib,
 * one before a value is skipped, and a record stays valid until the next call. */
static void
test_reader_records (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("loom-json-parser-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (LoomJsonlReader) reader = NULL;
  const char *types[] = { "a", "b", "c" };
  guint       records = 0;

  g_assert_no_error (error);
  path = g_build_filename (dir, "bom.jsonl", NULL);
  g_file_set_contents (
    path,
    "\xef\xbb\xbf\n\xef\xbb\xbf{\"type\":\"a\"}\n{\"type\":\"b\"}  \xef\xbb\xbf \n"
    "{\"type\":\"c\"}",
    -1, &error);
  g_assert_no_error (error);

  reader = loom_jsonl_reader_new (path, 0, 0, &error);
  g_assert_no_error (error);
  for (;;)
    {
      g_autofree char *problem = NULL;
      const LoomJson  *record = NULL;
      LoomJsonlResult  result = loom_jsonl_reader_next (reader, &record, &problem, &error);

      g_assert_no_error (error);
      if (result == LOOM_JSONL_END)
        break;
      /* The second line holds two values by the reader's count; that is its only note. */
      if (result == LOOM_JSONL_BAD)
        {
          g_assert_cmpstr (problem, ==, "2 JSON values on one line, read one by one");
          continue;
        }
      g_assert_cmpint (result, ==, LOOM_JSONL_RECORD);
      g_assert_cmpuint (records, <, G_N_ELEMENTS (types));
      g_assert_cmpstr (loom_json_member_string (record, "type"), ==, types[records]);
      records++;
    }
  g_assert_cmpuint (records, ==, 3);
  g_assert_cmpuint (loom_jsonl_reader_get_records (reader), ==, 3);
  g_clear_pointer (&reader, loom_jsonl_reader_free);
  g_unlink (path);
  g_rmdir (dir);
}

/* json-glib 1.6 wraps integers past gint64 around, where loom_json_doc_parse() makes them doubles
 * (see test_numbers()); a run of 19 digits or more may be one. */
static gboolean
has_long_integer (const char *text)
{
  guint run = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      run = g_ascii_isdigit (*p) ? run + 1 : 0;
      if (run >= 19)
        return TRUE;
    }
  return FALSE;
}

/* Random text never crashes or reads past its end. Once made what the reader hands over (valid
 * UTF-8, surrogates repaired), whatever the parser takes json-glib takes as the same tree, and
 * it writes and reads back unchanged. */
static void
test_random_text (void)
{
  guint accepted = 0;

  for (guint round = 0; round < 20000; round++)
    {
      gsize            length;
      g_autofree char *text = random_text (&length);
      g_autofree char *valid = NULL;
      g_autoptr (JsonNode) ours = NULL;
      g_autoptr (JsonNode) theirs = NULL;
      g_autoptr (GError) error = NULL;

      /* Invalid UTF-8 is the caller's to repair, but must be safe to parse anyway. */
      ours = parse_exact (text, length, &error);
      g_assert_true ((ours == NULL) == (error != NULL));
      g_clear_pointer (&ours, json_node_unref);
      g_clear_error (&error);

      valid = g_utf8_make_valid (text, (gssize)length);
      length = strlen (valid);
      loom_jsonl_fix_surrogates (valid, length);
      ours = parse_exact (valid, length, &error);
      if (ours == NULL)
        {
          g_assert_error (error, LOOM_ERROR, LOOM_ERROR_PARSE);
          continue;
        }
      g_assert_no_error (error);
      accepted++;
      theirs = json_glib_parse (valid, length);
      if (theirs == NULL)
        g_error ("json-glib refused “%s”, which loom_json_doc_parse() took", valid);
      if (!has_long_integer (valid))
        {
          g_autofree char *their_bytes = json_glib_write (theirs);
          g_autofree char *our_bytes = loom_json_write (ours);
          g_autoptr (JsonNode) reread = json_glib_parse (their_bytes, strlen (their_bytes));

          assert_identical (ours, theirs);
          /* The same bytes, wherever JsonGenerator's are JSON (not "1e+17.0" or "inf.0"). */
          if (reread != NULL)
            g_assert_cmpstr (our_bytes, ==, their_bytes);
        }
      assert_round_trip (ours);
    }
  g_test_message ("%u random texts were JSON", accepted);
  g_assert_cmpuint (accepted, >, 5000);
}

/* Found by tests/fuzz/fuzz-json: a count of 1e300 tokens was converted to gint64 as it was,
 * which is undefined behaviour; it stops at the edge of the range. */
static void
test_int_of_huge_numbers (void)
{
  static const struct
  {
    const char *text;
    gint64      expected;
  } cases[] = {
    { "1.77246e+129", G_MAXINT64 },
    { "-1e300", G_MININT64 },
    { "1e400", G_MAXINT64 },
    { "-1e400", G_MININT64 },
    { "9223372036854775808", G_MAXINT64 },
    { "-9223372036854775809", G_MININT64 },
    { "-9223372036854775808", G_MININT64 },
    { "12.9", 12 },
    { "-12.9", -12 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
      g_autoptr (GError) error = NULL;
      const LoomJson *value;

      value = loom_json_doc_parse (doc, cases[i].text, strlen (cases[i].text), &error);
      g_assert_no_error (error);
      g_assert_cmpint (loom_json_int (value, -1), ==, cases[i].expected);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-parser/fixtures", test_fixtures);
  g_test_add_func ("/json-parser/like-json-glib", test_like_json_glib);
  g_test_add_func ("/json-parser/numbers", test_numbers);
  g_test_add_func ("/json-parser/strings", test_strings);
  g_test_add_func ("/json-parser/lone-surrogates", test_lone_surrogates);
  g_test_add_func ("/json-parser/repeated-names", test_repeated_names);
  g_test_add_func ("/json-parser/values", test_values);
  g_test_add_func ("/json-parser/depth", test_depth);
  g_test_add_func ("/json-parser/errors", test_errors);
  g_test_add_func ("/json-parser/truncated", test_truncated);
  g_test_add_func ("/json-parser/huge-strings", test_huge_strings);
  g_test_add_func ("/json-parser/write", test_write);
  g_test_add_func ("/json-parser/reader-passes", test_reader_passes);
  g_test_add_func ("/json-parser/reader-records", test_reader_records);
  g_test_add_func ("/json-parser/random-text", test_random_text);
  g_test_add_func ("/json-parser/int-of-huge-numbers", test_int_of_huge_numbers);

  return g_test_run ();
}
