/* loom-test-timeline.c — long sessions for the timeline tests, written as an agent writes them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "loom-import.h"
#include "loom-test-timeline.h"

#define COMMON \
  "\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"/home/ada/src/loom\"," \
  "\"sessionId\":\"" LOOM_TEST_LONG_SESSION_ID "\",\"version\":\"2.1.81\"," \
  "\"gitBranch\":\"main\""

static char *
timestamp (guint seconds)
{
  g_autoptr (GDateTime) start = g_date_time_new_utc (2026, 3, 5, 12, 0, 0);
  g_autoptr (GDateTime) when = g_date_time_add_seconds (start, seconds);

  return g_date_time_format (when, "%Y-%m-%dT%H:%M:%S.000Z");
}

/* Record uuids only need to be unique and chained. */
static void
append_uuid (GString *out,
             guint    n)
{
  g_string_append_printf (out, "\"00000000-0000-4000-8000-%012x\"", n);
}

static void
append_record_start (GString *out,
                     guint    n)
{
  g_string_append (out, "{\"parentUuid\":");
  if (n == 0)
    g_string_append (out, "null");
  else
    append_uuid (out, n - 1);
  g_string_append (out, "," COMMON ",\"uuid\":");
  append_uuid (out, n);
}

static void
append_assistant (GString    *out,
                  guint      *n,
                  guint       turn,
                  const char *time,
                  const char *content)
{
  append_record_start (out, (*n)++);
  g_string_append_printf (out,
                          ",\"timestamp\":\"%s\",\"type\":\"assistant\",\"requestId\":\"req_%06u\","
                          "\"message\":{\"model\":\"claude-opus-4-6\",\"id\":\"msg_%06u\","
                          "\"type\":\"message\",\"role\":\"assistant\",\"content\":[%s],"
                          "\"usage\":{\"input_tokens\":3,\"output_tokens\":40}}}\n",
                          time, turn, turn, content);
}

static void
write_turn (GString *out,
            guint   *n,
            guint    turn)
{
  g_autofree char *time = timestamp (turn * 10);
  g_autofree char *later = timestamp (turn * 10 + 5);
  g_autofree char *content = NULL;
  gboolean         edit = turn % 5 == 3;

  append_record_start (out, (*n)++);
  g_string_append_printf (out,
                          ",\"timestamp\":\"%s\",\"type\":\"user\",\"message\":{\"role\":\"user\","
                          "\"content\":\"Step %u: check that **the build** still passes after "
                          "the change to `loom-store.c`\"}}\n",
                          time, turn);

  content = g_strdup_printf ("{\"type\":\"thinking\",\"thinking\":\"Turn %u: run the tests first, "
                             "then read the failures.\",\"signature\":\"c2ln\"}",
                             turn);
  append_assistant (out, n, turn, time, content);
  g_clear_pointer (&content, g_free);

  content = g_strdup_printf ("{\"type\":\"text\",\"text\":\"Running step %u.\\n\\n"
                             "- builds the tree\\n- runs `meson test`\"}",
                             turn);
  append_assistant (out, n, turn, time, content);
  g_clear_pointer (&content, g_free);

  if (edit)
    content = g_strdup_printf ("{\"type\":\"tool_use\",\"id\":\"toolu_%06u\",\"name\":\"Edit\","
                               "\"input\":{\"file_path\":\"/home/ada/src/loom/src/step-%u.c\","
                               "\"old_string\":\"int step = %u;\","
                               "\"new_string\":\"int step = %u;\"}}",
                               turn, turn, turn, turn + 1);
  else
    content = g_strdup_printf ("{\"type\":\"tool_use\",\"id\":\"toolu_%06u\",\"name\":\"Bash\","
                               "\"input\":{\"command\":\"meson test -C build step-%u\","
                               "\"description\":\"Run the tests\"}}",
                               turn, turn);
  append_assistant (out, n, turn, time, content);

  append_record_start (out, (*n)++);
  g_string_append_printf (out,
                          ",\"timestamp\":\"%s\",\"type\":\"user\",\"message\":{\"role\":\"user\","
                          "\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_%06u\","
                          "\"content\":\"Ok: %u tests passed\",\"is_error\":false}]}}\n",
                          later, turn, turn);
}

char *
loom_test_import_long_session (LoomStore  *store,
                               const char *dir,
                               guint       n_turns)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char  *project = g_build_filename (dir, "-home-ada-src-loom", NULL);
  g_autofree char  *path = NULL;
  const char       *paths[] = { dir, NULL };
  LoomImportOptions options = { "claude-code", paths };
  guint             n = 0;

  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  path = g_build_filename (project, LOOM_TEST_LONG_SESSION_ID ".jsonl", NULL);

  for (guint turn = 0; turn < n_turns; turn++)
    write_turn (out, &n, turn);
  g_file_set_contents (path, out->str, out->len, &error);
  g_assert_no_error (error);

  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->files_failed, ==, 0);

  session = loom_store_get_session (store, LOOM_TEST_LONG_SESSION_ID, &error);
  g_assert_no_error (error);
  return g_strdup (loom_session_get_uuid (session));
}
