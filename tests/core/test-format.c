/* test-format.c — stored text and payloads as a person reads them, without a display.
 *
 * The timeline's formatting of diffs, summaries, tool inputs and outputs, on every agent's
 * shapes and on payloads nested far past the parser's limit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

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
  guint n_lines = 0;

  edit = loom_timeline_format_diff ("{\"file_path\":\"/a.c\",\"old_string\":\"a\\nb\\nc\","
                                    "\"new_string\":\"a\\nB\\nc\"}", NULL);
  g_assert_cmpstr (edit, ==, " a\n-b\n+B\n c");

  structured = loom_timeline_format_diff ("{\"old_string\":\"x\",\"new_string\":\"y\"}",
                                          "{\"toolUseResult\":{\"structuredPatch\":[{"
                                          "\"oldStart\":3,\"oldLines\":1,\"newStart\":3,"
                                          "\"newLines\":2,\"lines\":[\" ctx\",\"-x\",\"+y\","
                                          "\"+z\"]}]}}");
  g_assert_cmpstr (structured, ==, "@@ -3,1 +3,2 @@\n ctx\n-x\n+y\n+z");

  patch = loom_timeline_format_diff ("*** Update File: src/iva.rs\n@@\n-    total * 21 / 100\n"
                                     "+    total * Decimal::new(21, 2)\n", NULL);
  g_assert_cmpstr (patch, ==, "@ Update File: src/iva.rs\n@@\n-    total * 21 / 100\n"
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

    claude = loom_timeline_format_result_output ("{\"type\":\"tool_result\",\"content\":\"a\\nb\"}");
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
  g_auto(GStrv) lines = NULL;

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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/timeline", test_timeline_format);
  g_test_add_func ("/format/deep-json", test_deep_json);

  return g_test_run ();
}
