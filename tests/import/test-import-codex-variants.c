/* test-import-codex-variants.c — Codex CLI rollouts, the variants of FORMATS.md §2 that the
 * generations of fixtures/codex/ do not show: each gives exactly the counts written in
 * fixtures/codex-variants/README.md, computed by hand from the fixtures. The folder is detected
 * whole, importing twice changes nothing, importing in two passes gives what one pass gives,
 * and the agent's files are never modified.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-codex-test.h"

#define VARIANTS "codex-variants"
#define SYSTEM_ROLE \
  "system-role/rollout-2026-04-20T10-30-00-019dadb2-8a40-7c01-9e10-5a1b2c3d4e01.jsonl"
#define REASONING_TEXT \
  "reasoning-text/rollout-2026-04-21T16-05-10-019db2e6-1c70-7d22-8a31-6b2c3d4e5f02.jsonl"
#define NAMESPACE "namespace/rollout-2026-04-22T11-12-00-019db808-3e90-7e33-9b42-7c3d4e5f6a03.jsonl"
#define MCP_RESULTS \
  "mcp-results/rollout-2026-04-23T18-45-30-019dbd2e-5fb0-7f44-8c53-8d4e5f6a7b04.jsonl"
#define ORDINAL "ordinal/rollout-2026-04-24T09-55-00-019dc1f0-7ad0-7a55-9d64-9e5f6a7b8c05.jsonl"
#define REVIEW_MODE \
  "review-mode/rollout-2026-04-25T13-00-00-019dc713-9bf0-7b66-8e75-af6a7b8c9d06.jsonl"
#define COMPACTED_EMPTY \
  "compacted-empty/rollout-2026-04-26T21-20-00-019dcc37-bd10-7c77-9f86-b07b8c9d0e07.jsonl"
#define LONG_LINE "long-line/rollout-2026-04-27T15-00-00-019dd15b-df30-7d88-8a97-c18c9d0e1f08.jsonl"
#define TOKEN_PLACEHOLDERS \
  "token-placeholders/rollout-2026-04-28T12-00-00-019de0a1-2b3c-7d4e-9f50-61728394a5b6.jsonl"

/* The numbers of fixtures/codex-variants/README.md: the variants of FORMATS.md §2 that the
 * generations of fixtures/codex/ do not show, one per file. */
static const Expected variants[] = {
  {
    .root = VARIANTS, .fixture = SYSTEM_ROLE, .session_id = "019dadb2-8a40-7c01-9e10-5a1b2c3d4e01",
    .title = "Why does meson reconfigure on every build? - 2026-04-20",
    .cwd = "/home/ada/src/loom", .project = "loom", .git_branch = "main",
    .git_commit = "7c0ffee1234567890abcdef1234567890abcdef1", .agent_version = "0.145.0",
    .agent_mode = "medium", .selected_agent_id = "codex-tui", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 1, .assistant = 1, .tool_calls = 0, .tool_results = 0, .tool_errors = 0,
    .reasoning = 0, .message_count = 2, .event_count = 2,
    .tokens_input = 3056, .tokens_output = 310, .tokens_cache_read = 6144,
    .tokens_cache_creation = 0, .tokens_reasoning = "120",
    .tools_used = "{}",
    .created_at = "2026-04-20T08:30:00.000Z", .updated_at = "2026-04-20T08:30:14.810Z",
    .stored_messages = 5, .injected = 3, .file_changes = 0, .lifecycle = 2, .raw = 0,
  },
  {
    .root = VARIANTS, .fixture = REASONING_TEXT,
    .session_id = "019db2e6-1c70-7d22-8a31-6b2c3d4e5f02",
    .title = "Which module still imports the old AST API? - 2026-04-21",
    .cwd = "/home/ada/src/atlas", .project = "atlas", .git_branch = "main",
    .git_commit = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70", .agent_version = "0.144.0",
    .agent_mode = "high", .selected_agent_id = "codex_exec", .model = "gpt-oss:20b",
    .models = "[\"gpt-oss:20b\"]", .session_type = "main",
    .user = 1, .assistant = 1, .tool_calls = 1, .tool_results = 1, .tool_errors = 0,
    .reasoning = 2, .message_count = 2, .event_count = 6,
    .tokens_input = 4200, .tokens_output = 380, .tokens_cache_read = 0,
    .tokens_cache_creation = 0, .tokens_reasoning = "260",
    .tools_used = "{\"exec_command\":1}",
    .created_at = "2026-04-21T14:05:10.250Z", .updated_at = "2026-04-21T14:05:16.210Z",
    .stored_messages = 4, .injected = 2, .file_changes = 0, .lifecycle = 2, .raw = 0,
  },
  {
    .root = VARIANTS, .fixture = NAMESPACE, .session_id = "019db808-3e90-7e33-9b42-7c3d4e5f6a03",
    .title = "Open an issue for the flaky watcher test, labelled ci - 2026-04-22",
    .cwd = "/home/ada/src/loom", .project = "loom", .git_branch = "main",
    .git_commit = "7c0ffee1234567890abcdef1234567890abcdef1", .agent_version = "0.145.0",
    .agent_mode = "low", .selected_agent_id = "Codex Desktop", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 1, .assistant = 1, .tool_calls = 3, .tool_results = 3, .tool_errors = 0,
    .reasoning = 0, .message_count = 2, .event_count = 8,
    .tokens_input = 4036, .tokens_output = 520, .tokens_cache_read = 11264,
    .tokens_cache_creation = 0, .tokens_reasoning = "200",
    .tools_used = "{\"github.search_issues\":1,\"github.create_issue\":1,\"exec_command\":1}",
    .created_at = "2026-04-22T09:12:00.000Z", .updated_at = "2026-04-22T09:12:12.210Z",
    .stored_messages = 4, .injected = 2, .file_changes = 0, .lifecycle = 2, .raw = 0,
  },
  {
    .root = VARIANTS, .fixture = MCP_RESULTS, .session_id = "019dbd2e-5fb0-7f44-8c53-8d4e5f6a7b04",
    .title = "Why did last night's deploy fail? Check Sentry. - 2026-04-23",
    .cwd = "/home/ada/src/orbit", .project = "orbit", .git_branch = "main",
    .git_commit = "e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e", .agent_version = "0.144.0",
    .agent_mode = "medium", .selected_agent_id = "codex-tui", .model = "gpt-5.4",
    .models = "[\"gpt-5.4\"]", .session_type = "main",
    .user = 1, .assistant = 1, .tool_calls = 3, .tool_results = 3, .tool_errors = 2,
    .reasoning = 0, .message_count = 2, .event_count = 8,
    .tokens_input = 4616, .tokens_output = 640, .tokens_cache_read = 16384,
    .tokens_cache_creation = 0, .tokens_reasoning = "300",
    .tools_used = "{\"sentry__get_issue\":1,\"grafana__query_logs\":1,"
                  "\"github__list_workflow_runs\":1}",
    .created_at = "2026-04-23T16:45:30.000Z", .updated_at = "2026-04-23T16:45:42.210Z",
    .stored_messages = 4, .injected = 2, .file_changes = 0, .lifecycle = 2, .raw = 0,
  },
  {
    .root = VARIANTS, .fixture = ORDINAL, .session_id = "019dc1f0-7ad0-7a55-9d64-9e5f6a7b8c05",
    .title = "Rename parse_expr to parse_expression - 2026-04-24",
    .cwd = "/home/ada/src/atlas", .project = "atlas", .git_branch = "main",
    .git_commit = "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70", .agent_version = "0.145.0",
    .agent_mode = "high", .selected_agent_id = "codex-tui", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 1, .assistant = 1, .tool_calls = 1, .tool_results = 1, .tool_errors = 0,
    .reasoning = 1, .message_count = 2, .event_count = 6,
    .tokens_input = 3928, .tokens_output = 450, .tokens_cache_read = 3072,
    .tokens_cache_creation = 0, .tokens_reasoning = "180",
    .tools_used = "{\"apply_patch\":1}",
    .created_at = "2026-04-24T07:55:00.000Z", .updated_at = "2026-04-24T07:55:08.210Z",
    .stored_messages = 4, .injected = 2, .file_changes = 1, .lifecycle = 2, .raw = 0,
  },
  {
    .root = VARIANTS, .fixture = REVIEW_MODE, .session_id = "019dc713-9bf0-7b66-8e75-af6a7b8c9d06",
    .title = "Make the watcher debounce 200 ms - 2026-04-25",
    .cwd = "/home/ada/src/loom", .project = "loom", .git_branch = "main",
    .git_commit = "7c0ffee1234567890abcdef1234567890abcdef1", .agent_version = "0.145.0",
    .agent_mode = "high", .selected_agent_id = "codex-tui", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 1, .assistant = 2, .tool_calls = 2, .tool_results = 2, .tool_errors = 0,
    .reasoning = 0, .message_count = 3, .event_count = 12,
    .tokens_input = 5808, .tokens_output = 520, .tokens_cache_read = 8192,
    .tokens_cache_creation = 0, .tokens_reasoning = "200",
    .tools_used = "{\"apply_patch\":1,\"exec_command\":1}",
    .created_at = "2026-04-25T11:00:00.000Z", .updated_at = "2026-04-25T11:01:12.310Z",
    .stored_messages = 5, .injected = 2, .file_changes = 1, .lifecycle = 6, .raw = 1,
  },
  {
    .root = VARIANTS, .fixture = COMPACTED_EMPTY,
    .session_id = "019dcc37-bd10-7c77-9f86-b07b8c9d0e07",
    .title = "Summarise the open TODOs in src/ - 2026-04-26",
    .cwd = "/home/ada/src/orbit", .project = "orbit", .git_branch = "main",
    .git_commit = "e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e", .agent_version = "0.145.0",
    .agent_mode = "medium", .selected_agent_id = "codex-tui", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 2, .assistant = 2, .tool_calls = 2, .tool_results = 2, .tool_errors = 0,
    .reasoning = 0, .message_count = 4, .event_count = 10,
    .tokens_input = 11808, .tokens_output = 700, .tokens_cache_read = 8192,
    .tokens_cache_creation = 0, .tokens_reasoning = "250",
    .tools_used = "{\"exec_command\":1,\"apply_patch\":1}",
    .created_at = "2026-04-26T19:20:00.000Z", .updated_at = "2026-04-26T19:25:15.210Z",
    .stored_messages = 6, .injected = 2, .file_changes = 1, .lifecycle = 4, .raw = 0,
  },
  {
    .root = VARIANTS, .fixture = LONG_LINE, .session_id = "019dd15b-df30-7d88-8a97-c18c9d0e1f08",
    .title = "List every exported symbol of libloom.a - 2026-04-27",
    .cwd = "/home/ada/src/loom", .project = "loom", .git_branch = "main",
    .git_commit = "7c0ffee1234567890abcdef1234567890abcdef1", .agent_version = "0.145.0",
    .agent_mode = "low", .selected_agent_id = "codex-tui", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 1, .assistant = 1, .tool_calls = 1, .tool_results = 1, .tool_errors = 0,
    .reasoning = 0, .message_count = 2, .event_count = 4,
    .tokens_input = 530000, .tokens_output = 90, .tokens_cache_read = 0,
    .tokens_cache_creation = 0, .tokens_reasoning = "20",
    .tools_used = "{\"exec_command\":1}",
    .created_at = "2026-04-27T13:00:00.000Z", .updated_at = "2026-04-27T13:00:30.210Z",
    .stored_messages = 4, .injected = 2, .file_changes = 0, .lifecycle = 2, .raw = 0,
    .warnings = 0,
  },
  /* The last real total is line 20's; the repeat (line 12), the placeholder strings (21) and
   * the zeros (22) keep it. By hand: input = 24000 − 16384 = 7616, output = 1300 (650 of it
   * reasoning), cache_read = 16384; 7616 + 16384 + 1300 = 25300 = total_tokens. */
  {
    .root = VARIANTS, .fixture = TOKEN_PLACEHOLDERS,
    .session_id = "019de0a1-2b3c-7d4e-9f50-61728394a5b6",
    .title = "How big is the search index now? - 2026-04-28",
    .cwd = "/home/ada/src/loom", .project = "loom", .git_branch = "main",
    .git_commit = "7c0ffee1234567890abcdef1234567890abcdef1", .agent_version = "0.145.0",
    .agent_mode = "medium", .selected_agent_id = "codex-tui", .model = "gpt-5.5",
    .models = "[\"gpt-5.5\"]", .session_type = "main",
    .user = 2, .assistant = 2, .tool_calls = 0, .tool_results = 0, .tool_errors = 0,
    .reasoning = 0, .message_count = 4, .event_count = 4,
    .tokens_input = 7616, .tokens_output = 1300, .tokens_cache_read = 16384,
    .tokens_cache_creation = 0, .tokens_reasoning = "650",
    .tools_used = "{}",
    .created_at = "2026-04-28T10:00:00.000Z", .updated_at = "2026-04-28T10:01:09.300Z",
    .stored_messages = 6, .injected = 2, .file_changes = 0, .lifecycle = 4, .raw = 0,
    .warnings = 0,
  },
};

static const Table variants_table = { VARIANTS, variants, G_N_ELEMENTS (variants) };

int
main (int   argc,
      char *argv[])
{
  codex_test_init (&argc, &argv);

  for (guint i = 0; i < G_N_ELEMENTS (variants); i++)
    {
      g_autofree char *base = g_path_get_dirname (variants[i].fixture);
      g_autofree char *name = g_strdup_printf ("/import-codex/variants/fixture/%s/%u", base, i);

      add_fixture_test (name, &variants[i], test_fixture);
    }
  add_fixture_test ("/import-codex/variants/detect-folder", &variants_table, test_detect_folder);
  add_fixture_test ("/import-codex/variants/import-twice", &variants_table, test_import_twice);
  add_fixture_test ("/import-codex/variants/incremental/compacted-empty", &variants[6],
                    test_incremental);
  add_fixture_test ("/import-codex/variants/incremental/long-line", &variants[7],
                    test_incremental);
  add_fixture_test ("/import-codex/variants/incremental/token-placeholders", &variants[8],
                    test_incremental);
  add_fixture_test ("/import-codex/variants/fixtures-unchanged", &variants_table,
                    test_fixtures_unchanged);

  return codex_test_run ();
}
