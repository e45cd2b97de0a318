/* test-format.c — stored text and payloads as a person reads them, without a display.
 *
 * The timeline's formatting of diffs, summaries, tool inputs and outputs, on every agent's
 * shapes and on payloads nested far past the parser's limit; and a session's models and tools,
 * read from the JSON text the store keeps, compared with what json-glib made of the same text
 * when the details pane parsed it itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "loom-session-usage.h"
#include "loom-timeline-format.h"

#define DEPTH 100000

static char *
repeat (const char *piece,
        guint       n)
{
  GString *out = g_string_sized_new (strlen (piece) * n + 1);

  for (guint i = 0; i < n; i++)
    g_string_append (out, piece);
  return g_string_free (out, FALSE);
}

/* ——— The timeline's text ——— */

static void
test_timeline_format (void)
{
  g_autofree char *edit = NULL;
  g_autofree char *structured = NULL;
  g_autofree char *patch = NULL;
  g_autofree char *written = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *command = NULL;
  g_autofree char *script = NULL;
  g_autofree char *json = NULL;
  g_autofree char *head = NULL;
  guint            n_lines = 0;

  edit = loom_timeline_format_diff ("{\"file_path\":\"/a.c\",\"old_string\":\"a\\nb\\nc\","
                                    "\"new_string\":\"a\\nB\\nc\"}",
                                    NULL);
  g_assert_cmpstr (edit, ==, " a\n-b\n+B\n c");

  structured = loom_timeline_format_diff ("{\"old_string\":\"x\",\"new_string\":\"y\"}",
                                          "{\"toolUseResult\":{\"structuredPatch\":[{"
                                          "\"oldStart\":3,\"oldLines\":1,\"newStart\":3,"
                                          "\"newLines\":2,\"lines\":[\" ctx\",\"-x\",\"+y\","
                                          "\"+z\"]}]}}");
  g_assert_cmpstr (structured, ==, "@@ -3,1 +3,2 @@\n ctx\n-x\n+y\n+z");

  patch = loom_timeline_format_diff ("*** Update File: src/iva.rs\n@@\n-    total * 21 / 100\n"
                                     "+    total * Decimal::new(21, 2)\n",
                                     NULL);
  g_assert_cmpstr (patch, ==,
                   "@ Update File: src/iva.rs\n@@\n-    total * 21 / 100\n"
                   "+    total * Decimal::new(21, 2)");

  written = loom_timeline_format_diff ("{\"file_path\":\"/n.rs\",\"content\":\"fn main() {}\\n\"}",
                                       NULL);
  g_assert_cmpstr (written, ==, "+fn main() {}");
  g_assert_null (loom_timeline_format_diff ("{\"pattern\":\"x\"}", NULL));
  g_assert_null (loom_timeline_format_diff ("plain words", NULL));

  summary = loom_timeline_format_summary ("*** Begin Patch\n*** Add File: tests/x.c\n+int x;\n");
  g_assert_cmpstr (summary, ==, "tests/x.c");
  g_clear_pointer (&summary, g_free);
  summary = loom_timeline_format_summary ("\n  make check  \nmore");
  g_assert_cmpstr (summary, ==, "make check");

  command = loom_timeline_format_input ("{\"command\":[\"cargo\",\"test\",\"-p\",\"x\"]}");
  g_assert_cmpstr (command, ==, "cargo test -p x");
  script = loom_timeline_format_input ("{\"command\":[\"bash\",\"-lc\",\"du -ah | sort\"]}");
  g_assert_cmpstr (script, ==, "du -ah | sort");
  json = loom_timeline_format_input ("{\"pattern\":\"g_usleep\",\"path\":\"tests\"}");
  g_assert_nonnull (strstr (json, "\"pattern\" : \"g_usleep\""));
  g_assert_nonnull (strchr (json, '\n'));

  {
    g_autofree char *untagged = NULL;
    g_autofree char *stripped = NULL;

    untagged = loom_timeline_format_strip_tags ("<command-name>/compact</command-name>\n"
                                                "<command-message>compact</command-message>"
                                                "<command-args>a < b</command-args>");
    g_assert_cmpstr (untagged, ==, "/compact\ncompact a < b");
    g_assert_null (loom_timeline_format_strip_tags ("if (a <b) x > y; <Tag>"));

    stripped = loom_timeline_format_strip_controls ("\033[2mdim\033[22m \033]0;title\007ok\r\n"
                                                    "tab\there\001");
    g_assert_cmpstr (stripped, ==, "dim ok\ntab\there");
    g_assert_null (loom_timeline_format_strip_controls ("plain\ttext\n"));
  }

  {
    g_autofree char *claude = NULL;
    g_autofree char *blocks = NULL;
    g_autofree char *gemini = NULL;
    g_autofree char *codex = NULL;

    claude = loom_timeline_format_result_output (
      "{\"type\":\"tool_result\",\"content\":\"a\\nb\"}");
    g_assert_cmpstr (claude, ==, "a\nb");
    blocks = loom_timeline_format_result_output ("{\"content\":[{\"type\":\"text\",\"text\":\"x\"},"
                                                 "{\"type\":\"text\",\"text\":\"y\"}]}");
    g_assert_cmpstr (blocks, ==, "x\ny");
    gemini = loom_timeline_format_result_output ("[{\"functionResponse\":{\"response\":"
                                                 "{\"error\":\"denied\"}}}]");
    g_assert_cmpstr (gemini, ==, "denied");
    codex = loom_timeline_format_result_output ("Exit code: 0\nOutput:\nok\n");
    g_assert_cmpstr (codex, ==, "Exit code: 0\nOutput:\nok\n");
  }

  head = loom_timeline_format_head ("1\n2\n3\n4\n", 2, 1000, &n_lines);
  g_assert_cmpstr (head, ==, "1\n2");
  g_assert_cmpuint (n_lines, ==, 4);
  g_assert_null (loom_timeline_format_head ("1\n2\n", 2, 1000, &n_lines));
  g_assert_cmpuint (n_lines, ==, 2);
}

/* What the timeline makes of payloads nested 100,000 deep, had they come in: the text as it
 * is, never a recursion; nested within the parser's limit, JSON indented no deeper than it
 * reads. */
static void
test_deep_json (void)
{
  g_autofree char *open = repeat ("[", DEPTH);
  g_autofree char *close = repeat ("]", DEPTH);
  g_autofree char *deep = g_strconcat ("{\"command\":", open, close, "}", NULL);
  g_autofree char *open_500 = repeat ("{\"a\":", 500);
  g_autofree char *close_500 = repeat ("}", 500);
  g_autofree char *nested = g_strconcat (open_500, "1", close_500, NULL);
  g_autofree char *input = loom_timeline_format_input (deep);
  g_autofree char *output = loom_timeline_format_result_output (deep);
  g_autofree char *prompt = loom_timeline_format_subagent_prompt (deep);
  g_autofree char *diff = loom_timeline_format_diff (deep, deep);
  g_autofree char *indented = loom_timeline_format_input (nested);
  g_auto (GStrv) lines = NULL;

  g_assert_cmpstr (input, ==, deep);
  g_assert_null (output);
  g_assert_cmpstr (prompt, ==, deep);
  g_assert_null (diff);

  lines = g_strsplit (indented, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1001);
  g_assert_cmpstr (lines[1], ==, "  \"a\" : {");
  for (guint i = 0; lines[i] != NULL; i++)
    g_assert_cmpuint (strspn (lines[i], " "), <=, 2 * 32);
}

/* ——— A session's models and tools ——— */

static LoomSession *
session_with (const char *models_json,
              const char *tools_used_json)
{
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();

  record->uuid = g_strdup ("6f1c2a4e-3b5d-4e7f-9a81-0c2d4e6f8a10");
  record->models_json = g_strdup (models_json);
  record->tools_used_json = g_strdup (tools_used_json);
  return loom_session_new (record);
}

/* The models as the details pane read them with json-glib: the string elements of an array. */
static char *
reference_models (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  JsonNode  *root;
  JsonArray *array;

  if (text != NULL && json_parser_load_from_data (parser, text, -1, NULL) &&
      (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_ARRAY (root))
    {
      array = json_node_get_array (root);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *node = json_array_get_element (array, i);

          if (json_node_get_value_type (node) == G_TYPE_STRING)
            g_ptr_array_add (names, (gpointer)json_node_get_string (node));
        }
    }
  g_ptr_array_add (names, NULL);
  return g_strjoinv ("\n", (char **)names->pdata);
}

static char *
models_text (const char *text)
{
  g_autoptr (LoomSession) session = session_with (text, NULL);
  g_auto (GStrv) models = loom_session_usage_models (session);

  g_assert_nonnull (models);
  return g_strjoinv ("\n", models);
}

typedef struct
{
  const char *name;
  gint64      count;
} ToolCount;

static int
compare_tool_counts (gconstpointer a,
                     gconstpointer b)
{
  const ToolCount *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

/* The tools as the details pane read them with json-glib: every member once, with its last
 * value read as an integer, the most called first. One "name=count" line each. */
static char *
reference_tools (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GArray) counts = g_array_new (FALSE, FALSE, sizeof (ToolCount));
  g_autoptr (GString) out = g_string_new (NULL);
  GList      *members = NULL;
  JsonObject *object = NULL;
  JsonNode   *root;

  if (text != NULL && json_parser_load_from_data (parser, text, -1, NULL) &&
      (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      object = json_node_get_object (root);
      members = json_object_get_members (object);
      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonNode *node = json_object_get_member (object, l->data);
          ToolCount count = { l->data, 0 };

          /* json_object_get_int_member_with_default(), without the critical it emitted for
           * an array or an object before it answered the default. */
          if (JSON_NODE_HOLDS_VALUE (node))
            count.count = json_node_get_int (node);
          g_array_append_val (counts, count);
        }
      g_array_sort (counts, compare_tool_counts);
    }
  for (guint i = 0; i < counts->len; i++)
    g_string_append_printf (out, "%s=%" G_GINT64_FORMAT "\n",
                            g_array_index (counts, ToolCount, i).name,
                            g_array_index (counts, ToolCount, i).count);
  g_list_free (members);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
tools_text (const char *text)
{
  g_autoptr (LoomSession) session = session_with (NULL, text);
  g_autoptr (GArray) tools = loom_session_usage_tools (session);
  g_autoptr (GString) out = g_string_new (NULL);

  g_assert_nonnull (tools);
  for (guint i = 0; i < tools->len; i++)
    g_string_append_printf (out, "%s=%" G_GINT64_FORMAT "\n",
                            g_array_index (tools, LoomToolUse, i).name,
                            g_array_index (tools, LoomToolUse, i).n_calls);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* What the stored columns hold, and what an older or damaged store might: the typed values
 * are what json-glib read from them, text for text. */
static void
test_usage_matches_json_glib (void)
{
  static const char *const models[] = {
    NULL,
    "",
    "[]",
    "[\"claude-opus-4-5\"]",
    "[\"gpt-5-codex\",\"gpt-5\"]",
    "[\"a\",1,null,true,\"b\",{\"c\":\"d\"},[\"e\"],2.5,\"f\"]",
    "  [ \"spaced\" , \"out\" ]\n",
    "[\"caf\\u00e9\",\"\u00fc\",\"\\\"q\\\"\"]",
    "{\"a\":\"b\"}",
    "\"opus\"",
    "42",
    "null",
    "not json",
    "[\"cut",
    "[\"a\",]",
    "[\"\xff\xfe\"]",
  };
  static const char *const tools[] = {
    NULL,
    "",
    "{}",
    "{\"Bash\":3,\"Read\":1,\"Edit\":12}",
    "{\"Bash\":1,\"Read\":2,\"Bash\":5}",
    "{\"float\":1.9,\"neg\":-2.7,\"yes\":true,\"no\":false,\"text\":\"7\",\"nil\":null,"
    "\"list\":[1],\"object\":{\"n\":3},\"minus\":-4}",
    "{\"b\":2,\"a\":2,\"c\":2,\"B\":2}",
    "{\"\":1,\"caf\\u00e9\":2,\"\u00fc\":3}",
    "{\"big\":9007199254740993,\"max\":9223372036854775807}",
    "[1,2]",
    "\"Bash\"",
    "broken",
    "{\"a\":1",
    "{\"a\":1,}",
    "{\"a\":\"\xff\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *expected = reference_models (models[i]);
      g_autofree char *got = models_text (models[i]);
      g_autofree char *shown = models[i] != NULL ? g_strescape (models[i], NULL) : NULL;

      g_test_message ("models %s", shown != NULL ? shown : "(null)");
      g_assert_cmpstr (got, ==, expected);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *expected = reference_tools (tools[i]);
      g_autofree char *got = tools_text (tools[i]);
      g_autofree char *shown = tools[i] != NULL ? g_strescape (tools[i], NULL) : NULL;

      g_test_message ("tools %s", shown != NULL ? shown : "(null)");
      g_assert_cmpstr (got, ==, expected);
    }
}

/* A transcript that named thousands of tools: each comes back once, the most called first and
 * ties in name order, as json-glib's reading sorted them. */
static void
test_usage_many_tools (void)
{
  g_autoptr (GString) text = g_string_new ("{");
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GArray) tools = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;

  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (text, "%s\"tool%05u\":%u", i > 0 ? "," : "", i, i % 7);
  g_string_append_c (text, '}');

  session = session_with (NULL, text->str);
  tools = loom_session_usage_tools (session);
  g_assert_cmpuint (tools->len, ==, 20000);
  g_assert_cmpstr (g_array_index (tools, LoomToolUse, 0).name, ==, "tool00006");
  g_assert_cmpint (g_array_index (tools, LoomToolUse, 0).n_calls, ==, 6);
  g_assert_cmpstr (g_array_index (tools, LoomToolUse, tools->len - 1).name, ==, "tool19999");
  g_assert_cmpint (g_array_index (tools, LoomToolUse, tools->len - 1).n_calls, ==, 0);

  expected = reference_tools (text->str);
  got = tools_text (text->str);
  g_assert_cmpstr (got, ==, expected);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/timeline", test_timeline_format);
  g_test_add_func ("/format/deep-json", test_deep_json);
  g_test_add_func ("/format/usage/json-glib", test_usage_matches_json_glib);
  g_test_add_func ("/format/usage/many-tools", test_usage_many_tools);

  return g_test_run ();
}
