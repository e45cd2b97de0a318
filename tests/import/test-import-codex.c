/* test-import-codex.c — Codex CLI rollouts: every generation and hazard of FORMATS.md §2 gives
 * exactly the counts written in fixtures/codex/README.md, all computed by hand from the
 * fixtures. Importing twice changes nothing, importing in two passes (at every line, and with a
 * half-written last line) gives what one pass gives, and the agent's files are never modified.
 * The other variants of the format are in test-import-codex-variants.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "loom-codex-test.h"
#include "loom-import.h"
#include "loom-importer.h"
#include "loom-test-utils.h"

#define CURRENT "current/rollout-2026-03-02T10-15-42-019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77.jsonl"
#define PARENT  "subagent/rollout-2026-04-11T09-00-00-019d7a10-4c2b-7e01-9f10-00000000a001.jsonl"
#define CHILD   "subagent/rollout-2026-04-11T09-00-05-019d7a10-4c2b-7e01-9f10-00000000a002.jsonl"
#define LEGACY  "legacy-0.4x/rollout-2025-10-14T18-22-05-0199e2c4-7a10-7d42-b3f1-5c6d7e8f9a0b.jsonl"
#define BARE "pre-envelope/rollout-2025-07-21T16-40-12-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl"
#define TYPESCRIPT "typescript/rollout-2025-04-18-9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b.json"
#define HAZARDS    "hazards/rollout-2026-01-05T23-10-00-019b8e4d-1111-7222-8333-444455556666.jsonl"

/* The numbers of fixtures/codex/README.md. */
static const Expected expected[] = {
  {
    .fixture = CURRENT,
    .session_id = "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77",
    .title = "Codex importer test - 2026-03-02",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "feature/importers",
    .git_commit = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
    .agent_version = "0.143.0",
    .agent_mode = "medium",
    .selected_agent_id = "codex-tui",
    .model = "gpt-5.4",
    .models = "[\"gpt-5.4\",\"gpt-5.5\"]",
    .session_type = "main",
    .user = 3,
    .assistant = 3,
    .tool_calls = 5,
    .tool_results = 3,
    .tool_errors = 1,
    .reasoning = 2,
    .message_count = 6,
    .event_count = 20,
    .tokens_input = 12952,
    .tokens_output = 1900,
    .tokens_cache_read = 45000,
    .tokens_cache_creation = 2048,
    .tokens_reasoning = "1040",
    .tools_used = "{\"exec_command\":3,\"apply_patch\":1,\"web_search\":1}",
    .created_at = "2026-03-02T10:15:42.118Z",
    .updated_at = "2026-03-04T17:31:00.200Z",
    .stored_messages = 11,
    .injected = 5,
    .file_changes = 2,
    .lifecycle = 6,
    .raw = 1,
  },
  {
    .fixture = PARENT,
    .session_id = "019d7a10-4c2b-7e01-9f10-00000000a001",
    .title = "Split the migration: one agent per module - 2026-04-11",
    .cwd = "/home/ada/src/atlas",
    .project = "atlas",
    .git_branch = "main",
    .git_commit = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70",
    .agent_version = "0.145.0",
    .agent_mode = "high",
    .selected_agent_id = "Codex Desktop",
    .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]",
    .session_type = "main",
    .user = 1,
    .assistant = 1,
    .tool_calls = 2,
    .tool_results = 2,
    .tool_errors = 0,
    .reasoning = 0,
    .message_count = 2,
    .event_count = 7,
    .tokens_input = 5000,
    .tokens_output = 700,
    .tokens_cache_read = 4000,
    .tokens_cache_creation = 0,
    .tokens_reasoning = "300",
    .tools_used = "{\"spawn_agent\":1,\"wait_agent\":1}",
    .created_at = "2026-04-11T09:00:00.250Z",
    .updated_at = "2026-04-11T09:01:33.000Z",
    .stored_messages = 3,
    .injected = 1,
    .file_changes = 0,
    .lifecycle = 1,
    .raw = 1,
  },
  {
    .fixture = CHILD,
    .session_id = "019d7a10-4c2b-7e01-9f10-00000000a002",
    .title = "Migrate the parser module to the new AST API - 2026-04-11",
    .cwd = "/home/ada/src/atlas",
    .project = "atlas",
    .git_branch = "main",
    .git_commit = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70",
    .agent_version = "0.145.0",
    .agent_mode = "low",
    .selected_agent_id = "Codex Desktop",
    .model = "gpt-5.5-mini",
    .models = "[\"gpt-5.5-mini\"]",
    .session_type = "subagent",
    .parent = "019d7a10-4c2b-7e01-9f10-00000000a001",
    .user = 1,
    .assistant = 1,
    .tool_calls = 1,
    .tool_results = 1,
    .tool_errors = 0,
    .reasoning = 1,
    .message_count = 2,
    .event_count = 7,
    .tokens_input = 2000,
    .tokens_output = 250,
    .tokens_cache_read = 1000,
    .tokens_cache_creation = 0,
    .tokens_reasoning = "120",
    .tools_used = "{\"apply_patch\":1}",
    .created_at = "2026-04-11T09:00:05.100Z",
    .updated_at = "2026-04-11T09:01:29.300Z",
    .stored_messages = 2,
    .injected = 0,
    .file_changes = 3,
    .lifecycle = 1,
    .raw = 0,
  },
  {
    .fixture = LEGACY,
    .session_id = "0199e2c4-7a10-7d42-b3f1-5c6d7e8f9a0b",
    .title = "¿Por qué falla cargo test en facturación? Arréglalo. - 2025-10-14",
    .cwd = "/home/ada/src/taller",
    .project = "taller",
    .git_branch = "main",
    .git_commit = "9a8b7c6d5e4f30211203f4e5d6c7b8a990817263",
    .agent_version = "0.46.0",
    .agent_mode = "medium",
    .selected_agent_id = "codex_cli_rs",
    .model = "gpt-5-codex",
    .models = "[\"gpt-5-codex\"]",
    .session_type = "main",
    .user = 1,
    .assistant = 1,
    .tool_calls = 3,
    .tool_results = 3,
    .tool_errors = 1,
    .reasoning = 1,
    .message_count = 2,
    .event_count = 9,
    .tokens_input = 9520,
    .tokens_output = 1400,
    .tokens_cache_read = 20480,
    .tokens_cache_creation = 0,
    .tokens_reasoning = "700",
    .tools_used = "{\"shell\":2,\"local_shell\":1}",
    .created_at = "2025-10-14T16:22:05.731Z",
    .updated_at = "2025-10-14T16:40:00.000Z",
    .stored_messages = 4,
    .injected = 2,
    .file_changes = 1,
    .lifecycle = 0,
    .raw = 0,
  },
  {
    .fixture = BARE,
    .session_id = "5973b6c0-94b8-487b-a530-2aeb6098ae0e",
    .title = "Fix the UTF-8 handling in reader.rs, it panics on “smart… - 2025-07-21",
    .cwd = "/home/ada/src/legacy",
    .project = "legacy",
    .git_branch = "fix/utf8",
    .git_commit = "5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b",
    .models = "[]",
    .session_type = "main",
    .user = 1,
    .assistant = 1,
    .tool_calls = 1,
    .tool_results = 1,
    .tool_errors = 0,
    .reasoning = 1,
    .message_count = 2,
    .event_count = 3,
    .tokens_reasoning = "null",
    .tools_used = "{\"shell\":1}",
    .created_at = "2025-07-21T16:40:12.345Z",
    .updated_at = "2025-07-21T16:40:12.345Z",
    .stored_messages = 3,
    .injected = 1,
  },
  {
    .fixture = TYPESCRIPT,
    .session_id = "9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b",
    .title = "List the largest files in this repo - 2025-04-18",
    .models = "[]",
    .session_type = "main",
    .user = 1,
    .assistant = 1,
    .tool_calls = 1,
    .tool_results = 1,
    .tool_errors = 0,
    .reasoning = 1,
    .message_count = 2,
    .event_count = 3,
    .tokens_reasoning = "null",
    .tools_used = "{\"shell\":1}",
    .created_at = "2025-04-18T09:12:33.000Z",
    .updated_at = "2025-04-18T09:12:33.000Z",
    .stored_messages = 2,
  },
  {
    .fixture = HAZARDS,
    .session_id = "019b8e4d-1111-7222-8333-444455556666",
    .title = "Привет! Explain ğ, 中文 and a literal � (U+FFFD) 🎉 - 2026-01-05",
    .cwd = "/home/ada/src/ñandú",
    .project = "ñandú",
    .agent_version = "0.128.0",
    .agent_mode = "xhigh",
    .selected_agent_id = "codex_exec",
    .model = "gpt-5.2-codex",
    .models = "[\"gpt-5.2-codex\"]",
    .session_type = "main",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .tool_errors = 0,
    .reasoning = 0,
    .message_count = 3,
    .event_count = 6,
    .tokens_input = 5000,
    .tokens_output = 300,
    .tokens_reasoning = "200",
    .tools_used = "{\"update_plan\":1}",
    .created_at = "2026-01-05T22:10:00.000Z",
    .updated_at = "2026-01-05T22:10:12.000Z",
    .stored_messages = 3,
    .injected = 0,
    .raw = 4,
    .warnings = 3,
  },
};

static const Table codex_table = { "codex", expected, G_N_ELEMENTS (expected) };

static char *
fixture_path (const char *relative)
{
  return fixture_in ("codex", relative);
}

static gboolean
has_warning (Fixture    *f,
             const char *path,
             guint       line,
             const char *words)
{
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);

  for (guint i = 0; i < f->stats->warnings->len; i++)
    {
      const char *warning = g_ptr_array_index (f->stats->warnings, i);

      if (g_str_has_prefix (warning, prefix) && strstr (warning, words) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* Bad records are warnings naming file and line; the rest of the file still imports. */
static void
test_hazard_warnings (Fixture      *f,
                      gconstpointer data)
{
  g_autofree char *path = fixture_path (HAZARDS);

  import_path (f, "codex", path);
  g_assert_cmpuint (f->stats->warnings->len, ==, 3);
  g_assert_true (has_warning (f, path, 2, "2 JSON values on one line"));
  g_assert_true (has_warning (f, path, 4, "not valid JSON"));
  g_assert_true (has_warning (f, path, 10, "not a JSON object"));
}

/* The parent's child, whichever file is imported first: the placeholder parent is filled in. */
static void
test_child_before_parent (Fixture      *f,
                          gconstpointer data)
{
  g_autofree char *parent = fixture_path (PARENT);
  g_autofree char *child = fixture_path (CHILD);
  g_autoptr (GHashTable) sessions = NULL;

  import_path (f, "codex", child);
  /* The child, and its parent as a placeholder: two rows the store did not have. */
  g_assert_cmpuint (f->stats->sessions_new, ==, 2);
  import_path (f, "codex", parent);
  /* The parent's file fills the placeholder: nothing new. */
  g_assert_cmpuint (f->stats->sessions_new, ==, 0);
  g_assert_cmpuint (f->stats->sessions_touched, ==, 1);
  sessions = sessions_by_source_id (f);
  g_assert_cmpuint (g_hash_table_size (sessions), ==, 2);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (g_str_has_prefix (expected[i].fixture, "subagent/"))
      assert_session (f, sessions, &expected[i]);
}

/* The format's own detection, file by file, and what it must not claim. */
static void
test_detect_heads (void)
{
  const LoomImporter *codex = loom_importer_find ("codex");
  static const char   envelope[] =
    "{\"timestamp\":\"2026-03-02T10:15:42.118Z\",\"type\":\"session_meta\","
    "\"payload\":{\"id\":\"x\"}}\n";
  static const char cut[] =
    "{\"timestamp\":\"2026-03-02T10:15:42.118Z\",\"type\":\"session_meta\",\"pay";
  static const char bare[] = "{\"id\":\"5973b6c0\",\"timestamp\":\"2025-07-21T16:40:12.345Z\"}\n";
  static const char claude[] = "{\"parentUuid\":null,\"type\":\"user\","
                               "\"message\":{\"content\":\"\\\"type\\\":\\\"session_meta\\\"\"}}\n";
  static const char nested[] =
    "{\"sessionId\":\"a\",\"type\":\"user\",\"payload\":{\"type\":\"session_meta\"}}\n";
  static const char document[] =
    "{\n  \"session\": {\n    \"id\": \"9b2f\"\n  },\n  \"items\": []\n}\n";

  g_assert_nonnull (codex);
  g_assert_true (codex->detect ("/x/any-name.jsonl", envelope, strlen (envelope)));
  g_assert_true (codex->detect ("/x/any-name.jsonl", cut, strlen (cut)));
  g_assert_true (
    codex->detect ("/x/rollout-2025-07-21T16-40-12-5973b6c0.jsonl", bare, strlen (bare)));
  g_assert_false (codex->detect ("/x/other.jsonl", bare, strlen (bare)));
  g_assert_false (codex->detect ("/x/s.jsonl", claude, strlen (claude)));
  g_assert_false (codex->detect ("/x/s.jsonl", nested, strlen (nested)));
  g_assert_true (codex->detect ("/x/rollout-2025-04-18-9b2f.json", document, strlen (document)));
  g_assert_false (codex->detect ("/x/session-2025.json", document, strlen (document)));
  g_assert_false (codex->detect ("/x/rollout-empty.jsonl", "", 0));
}

/* A TypeScript-era document rewritten whole with more items is read again, without doubles. */
static void
test_document_rewrite (Fixture      *f,
                       gconstpointer data)
{
  g_autofree char *fixture = fixture_path (TYPESCRIPT);
  g_autofree char *name = g_path_get_basename (fixture);
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GHashTable) sessions = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject       *s;
  static const char shorter[] =
    "{\"session\":{\"timestamp\":\"2025-04-18T09:12:33.000Z\","
    "\"id\":\"9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b\",\"instructions\":\"\"},"
    "\"items\":[{\"role\":\"user\",\"type\":\"message\","
    "\"content\":[{\"type\":\"input_text\",\"text\":\"List the largest files in this repo\"}]}]}";
  g_autofree char *full = NULL;

  write_bytes (path, shorter, strlen (shorter));
  import_path (f, "codex", path);
  g_file_get_contents (fixture, &full, NULL, &error);
  g_assert_no_error (error);
  write_bytes (path, full, strlen (full));
  import_path (f, "codex", path);

  sessions = sessions_by_source_id (f);
  g_assert_cmpuint (g_hash_table_size (sessions), ==, 1);
  s = json_node_get_object (g_hash_table_lookup (sessions, "9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b"));
  assert_member_int (s, "message_count", 2);
  assert_member_int (s, "event_count", 3);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, 2);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, 3);
}

static void
copy_fixture (const char *relative,
              const char *folder)
{
  g_autofree char *from = fixture_path (relative);
  g_autofree char *name = g_path_get_basename (from);
  g_autofree char *to = g_build_filename (folder, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize length = 0;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  write_bytes (to, contents, length);
}

/* The TypeScript CLI's document, damaged: an empty file, then one cut short after its first
 * item. Each is a warning, not a failed file; the cut one gives its whole first item. The
 * whole document, once written, gives what one import of it gives. */
static void
test_document_damaged (Fixture      *f,
                       gconstpointer data)
{
  g_autofree char *fixture = fixture_path (TYPESCRIPT);
  g_autofree char *name = g_path_get_basename (fixture);
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr (GHashTable) sessions = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *full = NULL;
  const char      *second_item;
  JsonObject      *s;

  g_file_get_contents (fixture, &full, NULL, &error);
  g_assert_no_error (error);
  second_item = strstr (strstr (full, "\"items\""), "},");
  g_assert_nonnull (second_item);

  write_bytes (path, "", 0);
  import_path (f, "codex", path);
  g_assert_cmpuint (f->stats->warnings->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (f->stats->warnings, 0),
                                   ": the file is empty; it is read again when it is written"));
  g_assert_cmpint (loom_test_count_rows (f->db, "sessions"), ==, 0);

  /* Cut inside the second item: the first, the prompt, is whole. */
  write_bytes (path, full, (gsize)(second_item - full) + 10);
  import_path (f, "codex", path);
  g_assert_cmpuint (f->stats->warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (f->stats->warnings, 0),
                            ": the document ends here, before it is complete"));
  sessions = sessions_by_source_id (f);
  s = json_node_get_object (g_hash_table_lookup (sessions, "9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b"));
  g_assert_cmpint (
    json_object_get_int_member (json_object_get_object_member (s, "counts"), "user_messages"), ==,
    1);
  g_clear_pointer (&sessions, g_hash_table_unref);

  write_bytes (path, full, strlen (full));
  import_path (f, "codex", path);
  g_assert_cmpuint (f->stats->warnings->len, ==, 0);
  sessions = sessions_by_source_id (f);
  s = json_node_get_object (g_hash_table_lookup (sessions, "9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b"));
  assert_member_int (s, "message_count", 2);
  assert_member_int (s, "event_count", 3);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, 2);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, 3);
  loom_test_assert_index_in_sync (f->db);
}

/* No path: the rollout-*.jsonl files anywhere below $CODEX_HOME/sessions, and
 * $CODEX_HOME/archived_sessions. */
static void
test_default_roots (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *home = g_build_filename (f->dir, "codex-home", NULL);
  g_autofree char *day = g_build_filename (home, "sessions", "2026", "03", "02", NULL);
  g_autofree char *archive = g_build_filename (home, "archived_sessions", NULL);
  g_autofree char *stray = g_build_filename (home, "sessions", "notes.jsonl", NULL);
  g_autofree char *history = g_build_filename (home, "history.jsonl", NULL);
  g_autoptr (GHashTable) sessions = NULL;
  g_auto (GStrv) roots = NULL;
  g_autofree char  *old_home = g_strdup (g_getenv ("CODEX_HOME"));
  static const char history_line[] = "{\"session_id\":\"x\",\"ts\":1,\"text\":\"hi\"}\n";

  copy_fixture (CURRENT, day);
  copy_fixture (LEGACY, archive);
  write_bytes (stray, "{}\n", strlen ("{}\n"));
  write_bytes (history, history_line, strlen (history_line));
  g_setenv ("CODEX_HOME", home, TRUE);

  roots = loom_importer_codex ()->default_roots ();
  g_assert_cmpuint (g_strv_length (roots), ==, 2);
  g_assert_true (g_str_has_prefix (roots[0], home));

  import_paths (f, "codex", NULL);
  g_assert_cmpuint (f->stats->files_imported, ==, 2);
  sessions = sessions_by_source_id (f);
  g_assert_cmpuint (g_hash_table_size (sessions), ==, 2);
  g_assert_true (g_hash_table_contains (sessions, expected[0].session_id));
  g_assert_true (g_hash_table_contains (sessions, expected[3].session_id));

  if (old_home != NULL)
    g_setenv ("CODEX_HOME", old_home, TRUE);
  else
    g_unsetenv ("CODEX_HOME");
}

/* `--source codex` on ~/.codex: history.jsonl and other agents' files are not sessions. */
static void
test_foreign_files (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *home = g_build_filename (f->dir, "dot-codex", NULL);
  g_autofree char *day = g_build_filename (home, "sessions", "2026", "03", "02", NULL);
  g_autofree char *history = g_build_filename (home, "history.jsonl", NULL);
  g_autofree char *claude = g_build_filename (home, "0b5e7a52-claude.jsonl", NULL);
  g_autoptr (GHashTable) sessions = NULL;
  static const char history_lines[] =
    "{\"session_id\":\"019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77\",\"ts\":1772446544,\"text\":\"hi\"}\n"
    "{\"session_id\":\"019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77\",\"ts\":1772446600,\"text\":\"go\"}\n";
  static const char claude_line[] =
    "{\"parentUuid\":null,\"type\":\"user\",\"sessionId\":\"0b5e7a52\","
    "\"message\":{\"role\":\"user\",\"content\":\"hello\"}}\n";
  guint skipped = 0;

  copy_fixture (CURRENT, day);
  write_bytes (history, history_lines, strlen (history_lines));
  write_bytes (claude, claude_line, strlen (claude_line));

  import_path (f, "codex", home);
  sessions = sessions_by_source_id (f);
  g_assert_cmpuint (g_hash_table_size (sessions), ==, 1);
  assert_session (f, sessions, &expected[0]);
  /* In a folder, --source only narrows which format may claim a file: the framework asks the
   * format's detector, and files it does not recognise are passed over without a warning. */
  for (guint i = 0; i < f->stats->warnings->len; i++)
    if (strstr (g_ptr_array_index (f->stats->warnings, i), "history.jsonl") ||
        strstr (g_ptr_array_index (f->stats->warnings, i), "claude.jsonl"))
      skipped++;
  g_assert_cmpuint (skipped, ==, 0);
  g_assert_cmpuint (f->stats->files_seen, ==, 1);
}

/* Codex moves a session's file to archived_sessions/: the session is the same, nothing doubles,
 * and the file, recognised by its name and content, is not read again. */
static void
test_archived_move (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *sessions_dir = g_build_filename (f->dir, "sessions", NULL);
  g_autofree char *archive = g_build_filename (f->dir, "archived_sessions", NULL);
  g_autofree char *name = g_path_get_basename (CURRENT);
  g_autofree char *from = g_build_filename (sessions_dir, name, NULL);
  g_autofree char *to = g_build_filename (archive, name, NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gint64           messages, events;
  const char      *paths[] = { sessions_dir, archive, NULL };

  copy_fixture (CURRENT, sessions_dir);
  g_assert_cmpint (g_mkdir_with_parents (archive, 0700), ==, 0);
  import_paths (f, "codex", paths);
  before = comparable_session (f, expected[0].session_id);
  messages = loom_test_count_rows (f->db, "messages");
  events = loom_test_count_rows (f->db, "events");

  g_assert_cmpint (g_rename (from, to), ==, 0);
  import_paths (f, "codex", paths);
  g_assert_cmpuint (f->stats->files_imported, ==, 0);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 1);
  g_assert_cmpint (loom_test_count_rows (f->db, "import_cursors"), ==, 1);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);
  /* The moved file is read from its start while the old path's rows stay: every message comes
   * again with the same source_id and must not grow by its own text. */
  after = comparable_session (f, expected[0].session_id);
  g_assert_cmpstr (after, ==, before);
}

/* The same move as the watcher reports it, to a targeted pass: the old path's name and the new
 * one. The new file takes the old one's cursor, the session is not marked missing, and nothing
 * doubles. */
static void
test_archived_move_changed (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char  *home = g_build_filename (f->dir, "codex-home", NULL);
  g_autofree char  *day = g_build_filename (home, "sessions", "2026", "03", "02", NULL);
  g_autofree char  *archive = g_build_filename (home, "archived_sessions", NULL);
  g_autofree char  *name = g_path_get_basename (CURRENT);
  g_autofree char  *from = g_build_filename (day, name, NULL);
  g_autofree char  *to = g_build_filename (archive, name, NULL);
  g_autofree char  *old_home = g_strdup (g_getenv ("CODEX_HOME"));
  g_autofree char  *before = NULL;
  g_autofree char  *after = NULL;
  const char       *changed[] = { from, to, NULL };
  LoomImportOptions options = { "codex", NULL, changed };
  g_autoptr (GError) error = NULL;
  gint64 messages, events;

  copy_fixture (CURRENT, day);
  g_assert_cmpint (g_mkdir_with_parents (archive, 0700), ==, 0);
  g_setenv ("CODEX_HOME", home, TRUE);
  import_paths (f, "codex", NULL);
  before = comparable_session (f, expected[0].session_id);
  messages = loom_test_count_rows (f->db, "messages");
  events = loom_test_count_rows (f->db, "events");

  g_assert_cmpint (g_rename (from, to), ==, 0);
  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_import_stats_new ();
  g_assert_true (loom_import_run (f->store, &options, NULL, NULL, NULL, f->stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->stats->files_seen, ==, 1);
  g_assert_cmpuint (f->stats->files_imported, ==, 0);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 1);
  g_assert_cmpuint (f->stats->sessions_missing, ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);
  after = comparable_session (f, expected[0].session_id);
  g_assert_cmpstr (after, ==, before);

  if (old_home != NULL)
    g_setenv ("CODEX_HOME", old_home, TRUE);
  else
    g_unsetenv ("CODEX_HOME");
}

/* Archived and unarchived again: the file comes back to where it was first read. The session
 * follows it back, is not marked missing, and nothing doubles. */
static void
test_archived_and_back (Fixture      *f,
                        gconstpointer data)
{
  g_autofree char *home = g_build_filename (f->dir, "codex-home", NULL);
  g_autofree char *day = g_build_filename (home, "sessions", "2026", "03", "02", NULL);
  g_autofree char *archive = g_build_filename (home, "archived_sessions", NULL);
  g_autofree char *name = g_path_get_basename (CURRENT);
  g_autofree char *from = g_build_filename (day, name, NULL);
  g_autofree char *to = g_build_filename (archive, name, NULL);
  g_autofree char *old_home = g_strdup (g_getenv ("CODEX_HOME"));
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (GHashTable) sessions = NULL;
  JsonObject *session;
  gint64      messages, events;

  copy_fixture (CURRENT, day);
  g_assert_cmpint (g_mkdir_with_parents (archive, 0700), ==, 0);
  g_setenv ("CODEX_HOME", home, TRUE);
  import_paths (f, "codex", NULL);
  before = comparable_session (f, expected[0].session_id);
  messages = loom_test_count_rows (f->db, "messages");
  events = loom_test_count_rows (f->db, "events");

  g_assert_cmpint (g_rename (from, to), ==, 0);
  import_paths (f, "codex", NULL);
  g_assert_cmpuint (f->stats->sessions_missing, ==, 0);
  g_assert_cmpint (g_rename (to, from), ==, 0);
  import_paths (f, "codex", NULL);
  g_assert_cmpuint (f->stats->files_imported, ==, 0);
  g_assert_cmpuint (f->stats->sessions_missing, ==, 0);

  sessions = sessions_by_source_id (f);
  session = json_node_get_object (g_hash_table_lookup (sessions, expected[0].session_id));
  assert_member_string (session, "source_path", from);
  g_assert_false (json_object_get_boolean_member (session, "source_missing"));
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);
  after = comparable_session (f, expected[0].session_id);
  g_assert_cmpstr (after, ==, before);
  /* The archive's cursor went with the file: the one where it is now is the only one. */
  g_assert_cmpint (loom_test_count_rows (f->db, "import_cursors"), ==, 1);

  if (old_home != NULL)
    g_setenv ("CODEX_HOME", old_home, TRUE);
  else
    g_unsetenv ("CODEX_HOME");
}

/* A rollout whose session_meta carries 20 KB of instructions before its git details. */
static char *
rollout_with_long_first_line (const char *commit,
                              gboolean    answered)
{
  g_autoptr (GString) instructions = g_string_new (NULL);
  GString *out = g_string_new (NULL);

  while (instructions->len < 20000)
    g_string_append (instructions, "You are Codex, a coding agent. ");
  g_string_append_printf (
    out,
    "{\"timestamp\":\"2026-05-07T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{"
    "\"id\":\"019e0007-0000-7000-8000-000000000001\",\"timestamp\":\"2026-05-07T10:00:00.000Z\","
    "\"cwd\":\"/home/ada/src/proj\",\"originator\":\"codex-tui\",\"cli_version\":\"0.144.0\","
    "\"base_instructions\":{\"text\":\"%s\"},"
    "\"git\":{\"commit_hash\":\"%s\",\"branch\":\"main\"}}}\n",
    instructions->str, commit);
  /* Prompts enough that the git details lie more than 4 KiB before the end. */
  for (guint i = 0; i < 30; i++)
    g_string_append_printf (
      out,
      "{\"timestamp\":\"2026-05-07T10:00:%02u.000Z\",\"type\":\"response_item\",\"payload\":{"
      "\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
      "\"text\":\"Profile the startup, step %u of the plan we agreed on this morning\"}]}}\n",
      i + 5, i + 1);
  if (answered)
    g_string_append (
      out, "{\"timestamp\":\"2026-05-07T10:00:40.000Z\",\"type\":\"response_item\",\"payload\":{"
           "\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
           "\"text\":\"Startup spends most of its time loading fonts.\"}]}}\n");
  return g_string_free (out, FALSE);
}

/* Codex writes session_meta again on resume. Rewritten in place, past its first 4 KiB, with a
 * line appended after: the file is read again, not read on, and ends as a fresh import. */
static void
test_first_line_rewritten (Fixture      *f,
                           gconstpointer data)
{
  static const char session_id[] = "019e0007-0000-7000-8000-000000000001";
  static const char new_commit[] = "2222222222222222222222222222222222222222";
  g_autofree char  *folder = g_build_filename (f->dir, "rollouts", NULL);
  g_autofree char  *path = g_build_filename (folder,
                                             "rollout-2026-05-07T10-00-00-"
                                             "019e0007-0000-7000-8000-000000000001.jsonl",
                                             NULL);
  g_autofree char *first = rollout_with_long_first_line ("1111111111111111111111111111111111111111",
                                                         FALSE);
  g_autofree char *second = rollout_with_long_first_line (new_commit, TRUE);
  g_autofree char *stepwise = NULL;
  g_autofree char *fresh = NULL;
  g_autoptr (GHashTable) sessions = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  write_bytes (path, first, strlen (first));
  import_path (f, "codex", folder);
  /* In place, as the CLI does: a new file (g_file_set_contents ()) would be read again anyway. */
  {
    FILE *out = fopen (path, "r+");

    g_assert_nonnull (out);
    g_assert_cmpuint (fwrite (second, 1, strlen (second), out), ==, strlen (second));
    g_assert_cmpint (fclose (out), ==, 0);
  }
  import_path (f, "codex", folder);
  g_assert_cmpuint (f->stats->files_imported, ==, 1);

  sessions = sessions_by_source_id (f);
  assert_member_string (json_node_get_object (g_hash_table_lookup (sessions, session_id)),
                        "git_commit", new_commit);
  stepwise = comparable_session (f, session_id);

  /* The same file into a new store. */
  g_assert_finalize_object (f->store);
  g_assert_cmpint (g_unlink (f->db), ==, 0);
  f->store = loom_store_open (f->db, &error);
  g_assert_no_error (error);
  import_path (f, "codex", folder);
  fresh = comparable_session (f, session_id);
  g_assert_cmpstr (stepwise, ==, fresh);
}

/* apply_patch run through the shell after `cd`: the patch's paths are relative to that folder
 * (the one patch_apply_end names too), not to the turn's. */
static void
test_patch_after_cd (Fixture      *f,
                     gconstpointer data)
{
  static const char rollout[] =
    "{\"timestamp\":\"2026-05-10T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{"
    "\"id\":\"019e000a-0000-7000-8000-000000000001\",\"timestamp\":\"2026-05-10T10:00:00.000Z\","
    "\"cwd\":\"/home/bob/mono\",\"cli_version\":\"0.144.0\",\"source\":\"cli\"}}\n"
    "{\"timestamp\":\"2026-05-10T10:00:01.000Z\",\"type\":\"turn_context\",\"payload\":{"
    "\"turn_id\":\"t1\",\"cwd\":\"/home/bob/mono\",\"model\":\"gpt-5.5\"}}\n"
    "{\"timestamp\":\"2026-05-10T10:00:02.000Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
    "\"text\":\"fix lib in crates/core and the docs\"}]}}\n"
    /* Two cd steps, the second relative to the first, and a quoted one. */
    "{\"timestamp\":\"2026-05-10T10:00:03.000Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"function_call\",\"name\":\"exec_command\",\"arguments\":\"{\\\"cmd\\\": "
    "\\\"cd crates && cd 'core' && apply_patch <<'EOF'\\\\n*** Begin Patch\\\\n"
    "*** Update File: src/lib.rs\\\\n@@\\\\n-old\\\\n+new\\\\n*** End Patch\\\\nEOF\\\\n\\\"}\","
    "\"call_id\":\"call_p\"}}\n"
    "{\"timestamp\":\"2026-05-10T10:00:04.000Z\",\"type\":\"event_msg\",\"payload\":{"
    "\"type\":\"patch_apply_end\",\"call_id\":\"call_p\",\"success\":true,\"changes\":{"
    "\"/home/bob/mono/crates/core/src/lib.rs\":{\"type\":\"update\","
    "\"unified_diff\":\"@@\\n-old\\n+new\\n\",\"move_path\":null}}}}\n"
    /* Not a cd: the paths stay the turn's. */
    "{\"timestamp\":\"2026-05-10T10:00:05.000Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"function_call\",\"name\":\"exec_command\",\"arguments\":\"{\\\"cmd\\\": "
    "\\\"git stash; apply_patch <<'EOF'\\\\n*** Begin Patch\\\\n"
    "*** Add File: docs/notes.md\\\\n+notes\\\\n*** End Patch\\\\nEOF\\\\n\\\"}\","
    "\"call_id\":\"call_q\"}}\n";
  g_autofree char *folder = g_build_filename (f->dir, "rollouts", NULL);
  g_autofree char *path = g_build_filename (folder,
                                            "rollout-2026-05-10T10-00-00-"
                                            "019e000a-0000-7000-8000-000000000001.jsonl",
                                            NULL);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  write_bytes (path, rollout, strlen (rollout));
  import_path (f, "codex", folder);

  g_assert_cmpint (loom_test_count_rows (f->db, "events"), >, 0);
  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM events"
                                        " WHERE kind = 'file_change'",
                                        NULL),
                   ==, 2);
  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM events"
                                        " WHERE kind = 'file_change' AND path = ?1"
                                        " AND change_kind = 'edit'",
                                        "/home/bob/mono/crates/core/src/lib.rs"),
                   ==, 1);
  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM events"
                                        " WHERE kind = 'file_change' AND path = ?1"
                                        " AND change_kind = 'add'",
                                        "/home/bob/mono/docs/notes.md"),
                   ==, 1);
}

/* A turn interrupted before any reply used its model all the same (reasoning, a tool call,
 * tokens): the session names it, read in one pass or two, before the next turn's model. */
static void
test_models_of_unanswered_turns (Fixture      *f,
                                 gconstpointer data)
{
  static const char first_turn[] =
    "{\"timestamp\":\"2026-05-05T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{"
    "\"id\":\"019e0005-0000-7000-8000-000000000001\",\"timestamp\":\"2026-05-05T10:00:00.000Z\","
    "\"cwd\":\"/home/bob/proj\",\"originator\":\"codex-tui\",\"cli_version\":\"0.144.0\"}}\n"
    "{\"timestamp\":\"2026-05-05T10:00:01.000Z\",\"type\":\"turn_context\",\"payload\":{"
    "\"turn_id\":\"t1\",\"cwd\":\"/home/bob/proj\",\"model\":\"gpt-5.5\",\"effort\":\"medium\"}}\n"
    "{\"timestamp\":\"2026-05-05T10:00:01.100Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
    "\"text\":\"Find the slow test\"}]}}\n"
    "{\"timestamp\":\"2026-05-05T10:00:03.000Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"Looking\"}]}}\n"
    "{\"timestamp\":\"2026-05-05T10:00:04.000Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"function_call\",\"name\":\"exec_command\","
    "\"arguments\":\"{\\\"cmd\\\":\\\"pytest --durations=5\\\"}\",\"call_id\":\"call_a\"}}\n"
    "{\"timestamp\":\"2026-05-05T10:00:09.000Z\",\"type\":\"event_msg\",\"payload\":{"
    "\"type\":\"turn_aborted\",\"turn_id\":\"t1\",\"reason\":\"interrupted\"}}\n";
  static const char second_turn[] =
    "{\"timestamp\":\"2026-05-05T10:01:00.000Z\",\"type\":\"turn_context\",\"payload\":{"
    "\"turn_id\":\"t2\",\"cwd\":\"/home/bob/proj\",\"model\":\"gpt-5.4-mini\"}}\n"
    "{\"timestamp\":\"2026-05-05T10:01:00.100Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
    "\"text\":\"Just tell me which one\"}]}}\n"
    "{\"timestamp\":\"2026-05-05T10:01:04.000Z\",\"type\":\"response_item\",\"payload\":{"
    "\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\","
    "\"text\":\"test_import_all takes 41 s.\"}]}}\n";
  static const char session_id[] = "019e0005-0000-7000-8000-000000000001";
  g_autofree char  *folder = g_build_filename (f->dir, "rollouts", NULL);
  g_autofree char  *path = g_build_filename (folder,
                                             "rollout-2026-05-05T10-00-00-"
                                             "019e0005-0000-7000-8000-000000000001.jsonl",
                                             NULL);
  g_autofree char  *both = g_strconcat (first_turn, second_turn, NULL);
  g_autofree char  *stepwise = NULL;
  g_autofree char  *fresh = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *s;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  write_bytes (path, first_turn, strlen (first_turn));
  import_path (f, "codex", folder);
  {
    g_autoptr (GHashTable) sessions = sessions_by_source_id (f);

    s = json_node_get_object (g_hash_table_lookup (sessions, session_id));
    assert_member_string (s, "model", "gpt-5.5");
    assert_json_equal (json_object_get_member (s, "models"), "[\"gpt-5.5\"]", "models");
  }

  {
    FILE *out = fopen (path, "a");

    g_assert_nonnull (out);
    g_assert_cmpint (fputs (second_turn, out), >=, 0);
    g_assert_cmpint (fclose (out), ==, 0);
  }
  import_path (f, "codex", folder);
  {
    g_autoptr (GHashTable) sessions = sessions_by_source_id (f);

    s = json_node_get_object (g_hash_table_lookup (sessions, session_id));
    /* The one reply was gpt-5.4-mini's: the session's model is the one its messages name. */
    assert_member_string (s, "model", "gpt-5.4-mini");
    assert_json_equal (json_object_get_member (s, "models"), "[\"gpt-5.5\",\"gpt-5.4-mini\"]",
                       "models");
  }
  stepwise = comparable_session (f, session_id);

  g_assert_finalize_object (f->store);
  g_assert_cmpint (g_unlink (f->db), ==, 0);
  f->store = loom_store_open (f->db, &error);
  g_assert_no_error (error);
  write_bytes (path, both, strlen (both));
  import_path (f, "codex", folder);
  fresh = comparable_session (f, session_id);
  g_assert_cmpstr (stepwise, ==, fresh);
}

/* claims () says of each file what discover () says, on a tree with every name and place the
 * rules tell apart: rollouts by date, flat and too deep, other files, links to a file (taken)
 * and to a folder (not entered). A file that is gone is still claimed by its name. */
static void
test_claims (Fixture      *f,
             gconstpointer data)
{
  static const char *const files[] = {
    /* Listed. */
    "2026/03/02/rollout-2026-03-02T10-15-42-019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77.jsonl",
    "rollout-2025-04-18-9b2f6a1e-3c4d-4e5f-8a7b-1c2d3e4f5a6b.json",
    "a/b/c/d/e/f/g/h/rollout-deep.jsonl", "rollout-folder.jsonl/rollout-inner.jsonl",
    /* Not listed. */
    "2026/03/02/notes.jsonl", "2026/03/02/rollout-partial.jsonl.tmp",
    "a/b/c/d/e/f/g/h/i/rollout-too-deep.jsonl", "history.jsonl", NULL
  };
  const LoomImporter *codex = loom_importer_codex ();
  g_autofree char    *root = g_build_filename (f->dir, "sessions", NULL);
  g_autofree char    *gone = g_build_filename (root, files[0], NULL);
  g_autofree char *link = g_build_filename (root, "2026", "03", "02", "rollout-link.jsonl", NULL);
  g_autofree char *dangling = g_build_filename (root, "rollout-dangling.jsonl", NULL);
  g_autofree char *folder_link = g_build_filename (root, "2027", NULL);

  loom_test_make_files (root, files, "{}\n");
  g_assert_cmpint (symlink (files[0] + strlen ("2026/03/02/"), link), ==, 0);
  g_assert_cmpint (symlink ("nowhere.jsonl", dangling), ==, 0);
  g_assert_cmpint (symlink ("2026", folder_link), ==, 0);

  g_assert_cmpuint (loom_test_assert_claims_as_discovered (codex, root), ==, 5);

  g_assert_cmpint (g_remove (gone), ==, 0);
  g_assert_true (codex->claims (root, gone));
}

int
main (int   argc,
      char *argv[])
{
  codex_test_init (&argc, &argv);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *base = g_path_get_dirname (expected[i].fixture);
      g_autofree char *name = g_strdup_printf ("/import-codex/fixture/%s/%u", base, i);

      add_fixture_test (name, &expected[i], test_fixture);
    }
  add_fixture_test ("/import-codex/hazard-warnings", NULL, test_hazard_warnings);
  add_fixture_test ("/import-codex/child-before-parent", NULL, test_child_before_parent);
  add_fixture_test ("/import-codex/detect-folder", &codex_table, test_detect_folder);
  g_test_add_func ("/import-codex/detect-heads", test_detect_heads);
  add_fixture_test ("/import-codex/import-twice", &codex_table, test_import_twice);
  add_fixture_test ("/import-codex/incremental/current", &expected[0], test_incremental);
  add_fixture_test ("/import-codex/incremental/legacy", &expected[3], test_incremental);
  add_fixture_test ("/import-codex/incremental/pre-envelope", &expected[4], test_incremental);
  add_fixture_test ("/import-codex/incremental/hazards", &expected[6], test_incremental);
  add_fixture_test ("/import-codex/document-rewrite", NULL, test_document_rewrite);
  add_fixture_test ("/import-codex/document-damaged", NULL, test_document_damaged);
  add_fixture_test ("/import-codex/default-roots", NULL, test_default_roots);
  add_fixture_test ("/import-codex/foreign-files", NULL, test_foreign_files);
  add_fixture_test ("/import-codex/archived-move", NULL, test_archived_move);
  add_fixture_test ("/import-codex/archived-move-changed", NULL, test_archived_move_changed);
  add_fixture_test ("/import-codex/archived-and-back", NULL, test_archived_and_back);
  add_fixture_test ("/import-codex/first-line-rewritten", NULL, test_first_line_rewritten);
  add_fixture_test ("/import-codex/patch-after-cd", NULL, test_patch_after_cd);
  add_fixture_test ("/import-codex/models-of-unanswered-turns", NULL,
                    test_models_of_unanswered_turns);
  add_fixture_test ("/import-codex/fixtures-unchanged", &codex_table, test_fixtures_unchanged);
  add_fixture_test ("/import-codex/claims", NULL, test_claims);

  return codex_test_run ();
}
