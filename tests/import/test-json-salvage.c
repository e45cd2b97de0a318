/* test-json-salvage.c — loom_json_salvage(): what a whole document that does not parse still
 * gives, and what it says it left out.
 *
 * Every salvaged text must parse; the parts kept must be exactly the complete ones that parse on
 * their own; each part left out must be named by the line it starts on.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-json-salvage.h"
#include "loom-json-value.h"

/* ——— Helpers ——— */

typedef struct
{
  LoomJsonDoc    *doc;
  GPtrArray      *problems;
  char           *text;
  const LoomJson *root;
} Salvaged;

/* Salvages from a buffer of exactly @length bytes, so that a read past the end is caught by
 * AddressSanitizer, and parses what comes back: it must parse whenever it is not NULL. */
static void
salvage (Salvaged   *s,
         const char *text,
         gsize       length,
         guint       max_depth)
{
  g_autofree char *copy = g_memdup2 (text, MAX (length, 1));
  g_autoptr (GError) error = NULL;

  if (s->doc == NULL)
    s->doc = loom_json_doc_new ();
  g_clear_pointer (&s->problems, g_ptr_array_unref);
  g_clear_pointer (&s->text, g_free);
  s->problems = g_ptr_array_new_with_free_func (loom_json_problem_free);
  s->text = loom_json_salvage (copy, length, max_depth, s->problems);
  s->root = NULL;
  if (s->text == NULL)
    return;
  s->root = loom_json_doc_parse (s->doc, s->text, strlen (s->text), &error);
  if (s->root == NULL)
    g_test_message ("salvaged text: %s", s->text);
  g_assert_no_error (error);
  g_assert_true (loom_json_is_object (s->root));
}

static void
salvaged_clear (Salvaged *s)
{
  g_clear_pointer (&s->doc, loom_json_doc_free);
  g_clear_pointer (&s->problems, g_ptr_array_unref);
  g_clear_pointer (&s->text, g_free);
}

static void
assert_problem (Salvaged   *s,
                guint       index,
                guint64     line,
                const char *words)
{
  LoomJsonProblem *problem;

  g_assert_cmpuint (index, <, s->problems->len);
  problem = g_ptr_array_index (s->problems, index);
  g_test_message ("problem %u: line %" G_GUINT64_FORMAT ": %s", index, problem->line,
                  problem->message);
  g_assert_cmpuint (problem->line, ==, line);
  g_assert_nonnull (strstr (problem->message, words));
}

/* The ids of the objects in the root's array @member, comma-separated. */
static char *
ids_of (Salvaged   *s,
        const char *member)
{
  const LoomJson *array = loom_json_member_array (s->root, member);
  g_autoptr (GString) ids = g_string_new (NULL);

  for (gsize i = 0; i < loom_json_length (array); i++)
    {
      const char *id = loom_json_member_string (loom_json_element (array, i), "id");

      g_string_append_printf (ids, "%s%s", i > 0 ? "," : "", id ? id : "?");
    }
  return g_string_free (g_steal_pointer (&ids), FALSE);
}

/* ——— Truncated anywhere ——— */

/* A small pretty-printed session, as the agents write them, with the offsets where each part
 * ends: a prefix holds a part whole when it reaches that far. */
typedef struct
{
  GString *text;
  gsize    session_end;     /* just past the closing quote of sessionId's value */
  gsize    message_ends[4]; /* just past each message's closing brace */
  gsize    messages_start;  /* just past the messages member's [ */
  gsize    summary_end;
} Document;

static void
document_build (Document *d)
{
  static const char *const messages[] = {
    "    {\n      \"id\": \"m1\",\n      \"type\": \"user\",\n"
    "      \"content\": \"brackets } ] { [ and \\\"quotes\\\" \\\\\"\n    }",
    "    {\n      \"id\": \"m2\",\n      \"type\": \"gemini\",\n      \"content\": [\n"
    "        { \"text\": \"two\" },\n        { \"text\": \"parts\" }\n      ],\n"
    "      \"tokens\": { \"input\": 10, \"output\": -2.5e3 }\n    }",
    "    {\n      \"id\": \"m3\",\n      \"type\": \"info\",\n      \"ok\": true,\n"
    "      \"none\": null,\n      \"content\": \"caf\\u00e9 \xe6\x9d\xb1\xe4\xba\xac\"\n    }",
    "    {\n      \"id\": \"m4\",\n      \"type\": \"user\",\n      \"content\": []\n    }",
  };

  d->text = g_string_new ("{\n  \"sessionId\": \"s-1\"");
  d->session_end = d->text->len;
  g_string_append (d->text, ",\n  \"startTime\": 1757844131512,\n  \"messages\": [");
  d->messages_start = d->text->len;
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    {
      g_string_append (d->text, i == 0 ? "\n" : ",\n");
      g_string_append (d->text, messages[i]);
      d->message_ends[i] = d->text->len;
    }
  g_string_append (d->text, "\n  ],\n  \"summary\": \"a \\\"short\\\" one\"");
  d->summary_end = d->text->len;
  g_string_append (d->text, "\n}\n");
}

/* Every prefix of the document gives NULL (no root yet) or a text that parses, holding exactly
 * the messages the prefix holds whole, and a problem on the line where the prefix ends. */
static void
test_every_prefix (void)
{
  Salvaged s = { 0 };
  Document d;

  document_build (&d);
  for (gsize length = 0; length <= d.text->len; length++)
    {
      guint   expected_messages = 0;
      guint64 last_line = 1;

      for (gsize i = 0; i < length; i++)
        if (d.text->str[i] == '\n')
          last_line++;
      for (guint i = 0; i < G_N_ELEMENTS (d.message_ends); i++)
        if (d.message_ends[i] <= length)
          expected_messages++;

      salvage (&s, d.text->str, length, LOOM_JSON_MAX_DEPTH);
      if (length == 0)
        {
          g_assert_null (s.text);
          continue;
        }
      g_assert_nonnull (s.text);
      g_assert_cmpuint (loom_json_length (loom_json_member_array (s.root, "messages")), ==,
                        expected_messages);
      g_assert_cmpstr (loom_json_member_string (s.root, "sessionId"), ==,
                       length >= d.session_end ? "s-1" : NULL);
      /* The messages member is kept, empty, as soon as its [ is there. */
      g_assert_cmpint (loom_json_is_array (loom_json_member (s.root, "messages")), ==,
                       length >= d.messages_start);

      g_assert_cmpstr (loom_json_member_string (s.root, "summary"), ==,
                       length >= d.summary_end ? "a \"short\" one" : NULL);
      if (length < d.text->len - 1) /* the closing brace is missing: said where */
        {
          g_assert_cmpuint (s.problems->len, >=, 1);
          assert_problem (&s, s.problems->len - 1, last_line, "the document ends here");
          g_assert_nonnull (strstr (
            ((LoomJsonProblem *)g_ptr_array_index (s.problems, s.problems->len - 1))->message,
            "read again when the file changes"));
        }
      else
        g_assert_cmpuint (s.problems->len, ==, 0);
    }

  /* The whole document comes back as it was, byte for byte between the parts. */
  salvage (&s, d.text->str, d.text->len, LOOM_JSON_MAX_DEPTH);
  g_assert_cmpuint (s.problems->len, ==, 0);
  {
    g_autofree char *ids = ids_of (&s, "messages");

    g_assert_cmpstr (ids, ==, "m1,m2,m3,m4");
  }
  g_assert_cmpint (loom_json_member_int (s.root, "startTime", 0), ==, 1757844131512);
  g_assert_cmpstr (loom_json_member_string (
                     loom_json_element (loom_json_member_array (s.root, "messages"), 0), "content"),
                   ==, "brackets } ] { [ and \"quotes\" \\");

  g_string_free (d.text, TRUE);
  salvaged_clear (&s);
}

/* ——— Records left out ——— */

/* One message nests too deep: it alone is left out, named by the line it starts on. A member
 * that is not an array (Codex's session object) is one part. */
static void
test_deep_element (void)
{
  g_autoptr (GString) text = g_string_new ("{\n  \"session\": {\"id\": ");
  Salvaged         s = { 0 };
  g_autofree char *ids = NULL;

  for (guint i = 0; i < 512; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < 512; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "},\n  \"messages\": [\n    {\"id\": \"a\"},\n    ");
  /* Line 5: an object holding 600 nested arrays. */
  g_string_append (text, "{\"id\": \"deep\", \"x\": ");
  for (guint i = 0; i < 600; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < 600; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "},\n    {\"id\": \"b\"}\n  ]\n}\n");

  salvage (&s, text->str, text->len, LOOM_JSON_MAX_DEPTH);
  ids = ids_of (&s, "messages");
  /* The one left out is a null: "b" is still the third. */
  g_assert_cmpstr (ids, ==, "a,?,b");
  g_assert_cmpint (
    loom_json_type (loom_json_element (loom_json_member_array (s.root, "messages"), 1)), ==,
    LOOM_JSON_NULL);
  g_assert_null (loom_json_member (s.root, "session"));
  g_assert_cmpuint (s.problems->len, ==, 2);
  assert_problem (&s, 0, 2, "the member “session” nests deeper than 512 levels and was left out");
  assert_problem (&s, 1, 5,
                  "element 1 of “messages” nests deeper than 512 levels and was left out");
  salvaged_clear (&s);
}

/* Nesting counts the containers around a part: the root and its array. */
static void
test_depth_limit (void)
{
  Salvaged s = { 0 };

  for (guint depth = 508; depth <= 512; depth++)
    {
      g_autoptr (GString) text = g_string_new ("{\"r\":[{\"id\":\"x\",\"v\":");
      g_autofree char *ids = NULL;

      /* The element's object and @depth - 1 arrays: @depth containers, @depth + 2 with the
       * root and the array. */
      for (guint i = 1; i < depth; i++)
        g_string_append_c (text, '[');
      for (guint i = 1; i < depth; i++)
        g_string_append_c (text, ']');
      g_string_append (text, "}]}");

      salvage (&s, text->str, text->len, 512);
      ids = ids_of (&s, "r");
      g_assert_cmpstr (ids, ==, depth + 2 <= 512 ? "x" : "?");
      g_assert_cmpuint (s.problems->len, ==, depth + 2 <= 512 ? 0 : 1);
    }
  salvaged_clear (&s);
}

/* A million levels, opened and never closed, then opened and closed: no recursion anywhere. */
static void
test_very_deep (void)
{
  const gsize levels = 1000000;
  g_autoptr (GString) text = g_string_new ("{\"keep\": 1,\n\"deep\": ");
  Salvaged s = { 0 };

  for (gsize i = 0; i < levels; i++)
    g_string_append_c (text, '[');
  for (gsize i = 0; i < levels; i++)
    g_string_append_c (text, ']');
  g_string_append (text, ",\n\"after\": 2,\n\"open\": ");
  for (gsize i = 0; i < levels; i++)
    g_string_append_c (text, '{');

  salvage (&s, text->str, text->len, LOOM_JSON_MAX_DEPTH);
  g_assert_cmpint (loom_json_member_int (s.root, "keep", 0), ==, 1);
  g_assert_cmpint (loom_json_member_int (s.root, "after", 0), ==, 2);
  /* An array is a member of records: it stays, without the one too deep. */
  g_assert_true (loom_json_is_array (loom_json_member (s.root, "deep")));
  g_assert_cmpuint (loom_json_length (loom_json_member (s.root, "deep")), ==, 1);
  g_assert_cmpuint (s.problems->len, ==, 2);
  assert_problem (&s, 0, 2, "element 0 of “deep” nests deeper than 512 levels");
  assert_problem (&s, 1, 4, "the document ends here");
  salvaged_clear (&s);
}

/* A message that does not parse in the middle: left out, those after it kept. */
static void
test_bad_element (void)
{
  static const char text[] = "{\n"
                             "  \"messages\": [\n"
                             "    {\"id\": \"a\"},\n"
                             "    {\"id\": \"bad\",\n"
                             "     \"v\": tru},\n"
                             "    {\"id\": \"also-bad\", \"v\": \"\\q\"},\n"
                             "    {\"id\": \"b\", \"text\": \"]}\\\"{[\"},\n"
                             "    7,\n"
                             "    {\"id\": \"c\"}\n"
                             "  ],\n"
                             "  \"items\": [1, 2,],\n"
                             "  \"never\": true\n"
                             "}\n";
  Salvaged          s = { 0 };
  g_autofree char  *ids = NULL;

  salvage (&s, text, sizeof text - 1, LOOM_JSON_MAX_DEPTH);
  ids = ids_of (&s, "messages");
  g_assert_cmpstr (ids, ==, "a,?,?,b,?,c");
  g_assert_cmpuint (s.problems->len, ==, 3);
  assert_problem (&s, 0, 4, "element 1 of “messages” is not valid JSON and was left out");
  assert_problem (&s, 1, 6, "element 2 of “messages” is not valid JSON and was left out");
  /* A trailing comma is not JSON: the rest is left out, what came before kept. */
  assert_problem (&s, 2, 11, "not valid JSON from here on");
  g_assert_cmpuint (loom_json_length (loom_json_member_array (s.root, "items")), ==, 2);
  g_assert_null (loom_json_member (s.root, "never"));
  salvaged_clear (&s);
}

/* Member names with escapes are kept as they are written; one whose escape is broken goes with
 * its value. */
static void
test_names_with_escapes (void)
{
  static const char text[] = "{\n"
                             "  \"we\\\"ird\\\\name\\u00e9\": [{\"id\": \"a\"}, {\"id\": ]],\n"
                             "  \"a\\u0022b\": \"quoted\",\n"
                             "  \"bad\\x\": [1, 2],\n"
                             "  \"\\ud83d\\ude00\": 3\n"
                             "}";
  Salvaged          s = { 0 };

  salvage (&s, text, sizeof text - 1, LOOM_JSON_MAX_DEPTH);
  g_assert_cmpuint (loom_json_length (loom_json_member_array (s.root, "we\"ird\\name\xc3\xa9")), ==,
                    2);
  g_assert_cmpstr (loom_json_member_string (s.root, "a\"b"), ==, "quoted");
  g_assert_cmpint (loom_json_member_int (s.root, "\xf0\x9f\x98\x80", 0), ==, 3);
  g_assert_cmpuint (loom_json_length (s.root), ==, 3);
  g_assert_cmpuint (s.problems->len, ==, 2);
  assert_problem (&s, 0, 2, "element 1 of “we\"ird\\name\xc3\xa9” is not valid JSON");
  assert_problem (&s, 1, 4, "a member whose name is not valid JSON was left out");
  salvaged_clear (&s);
}

/* Only an object has parts; after its end, nothing more is taken. */
static void
test_roots (void)
{
  static const char *const nothing[] = { "", "   \n", "[{\"a\": 1}]", "\"x\"", "7", "nul" };
  static const char        after[] = "{\"a\": 1}\n\n{\"b\": 2}";
  static const char        bom[] = "\xef\xbb\xbf{\"a\": [\xef\xbb\xbf"
                                   "1, 2]}";
  Salvaged                 s = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (nothing); i++)
    {
      salvage (&s, nothing[i], strlen (nothing[i]), LOOM_JSON_MAX_DEPTH);
      g_assert_null (s.text);
      g_assert_cmpuint (s.problems->len, ==, 0);
    }

  salvage (&s, after, sizeof after - 1, LOOM_JSON_MAX_DEPTH);
  g_assert_cmpstr (s.text, ==, "{\"a\": 1}");
  g_assert_cmpuint (s.problems->len, ==, 1);
  assert_problem (&s, 0, 3, "text after the end of the document was left out");

  /* A byte order mark starts a text, not an element. */
  salvage (&s, bom, sizeof bom - 1, LOOM_JSON_MAX_DEPTH);
  g_assert_cmpstr (s.text, ==, "{\"a\": [null,2]}");
  g_assert_cmpuint (s.problems->len, ==, 1);
  assert_problem (&s, 0, 1, "element 0 of “a” is not valid JSON");
  salvaged_clear (&s);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-salvage/every-prefix", test_every_prefix);
  g_test_add_func ("/json-salvage/deep-element", test_deep_element);
  g_test_add_func ("/json-salvage/depth-limit", test_depth_limit);
  g_test_add_func ("/json-salvage/very-deep", test_very_deep);
  g_test_add_func ("/json-salvage/bad-element", test_bad_element);
  g_test_add_func ("/json-salvage/names-with-escapes", test_names_with_escapes);
  g_test_add_func ("/json-salvage/roots", test_roots);

  return g_test_run ();
}
