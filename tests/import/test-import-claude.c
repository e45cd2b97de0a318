/* test-import-claude.c — Claude Code transcripts: every generation and hazard of FORMATS.md §1
 * gives exactly the counts written in fixtures/claude/README.md, and every format variant that
 * those do not show the counts written in fixtures/claude-variants/README.md, computed by hand
 * from the fixtures. The format is detected without being named, the default root is found through
 * CLAUDE_CONFIG_DIR, importing twice changes nothing, importing in two passes (split at every
 * line, and inside every line) gives what one pass gives, and the agent's files are never
 * modified.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-import.h"
#include "loom-importer.h"
#include "loom-store-timeline-pages.h"
#include "loom-test-utils.h"
#include "loom-timeline-item.h"

typedef struct
{
  const char *fixture;    /* folder below the fixture root (FixtureRoot) */
  const char *session_id; /* the agent's id for the session */
  const char *parent;     /* the parent's agent session id, or NULL */
  const char *title;
  const char *cwd;
  const char *project;
  const char *git_branch;
  const char *agent_version;
  const char *agent_mode;
  const char *model;
  const char *models; /* JSON array, in order of first use */
  gint64      user, assistant, tool_calls, tool_results, tool_errors, reasoning;
  gint64      message_count, event_count;
  gint64      tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation;
  const char *tools_used; /* JSON object */
  const char *created_at;
  const char *updated_at;
  guint       stored_messages; /* every message kept, flagged ones and system notices too */
  guint       flagged;         /* of which not a person's prompt (LOOM_MESSAGE_NOT_A_PROMPT) */
  guint       file_changes;
  guint       subagents;
  guint       compactions;
  guint       api_errors;
  guint       lifecycle;
  guint       raw;
} Expected;

#define V10       "v1.0-inline-sidechain"
#define V20       "v2.0-agent-files"
#define V21       "v2.1-progress"
#define V212      "v2.1.2xx-titles"
#define STREAMED  "streamed-tool-error"
#define TWO_IDS   "two-session-ids"
#define NON_ASCII "non-ascii"

#define A_ID "6f2c1a9e-3b7d-4e21-9c55-0a8d2f4e7b13"
#define B_ID "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80"
#define C_ID "4b8d2e6f-1a3c-4f57-8e9b-2c6d0a4f8e31"

/* The numbers of fixtures/claude/README.md. */
static const Expected expected[] = {
  {
    .fixture = V10,
    .session_id = A_ID,
    .title = "Fix the flaky store test - 2025-09-14",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "1.0.98",
    .model = "claude-opus-4-1-20250805",
    .models = "[\"claude-opus-4-1-20250805\",\"claude-sonnet-4-20250514\"]",
    .user = 1,
    .assistant = 3,
    .tool_calls = 2,
    .tool_results = 2,
    .message_count = 4,
    .event_count = 8,
    .tokens_input = 14,
    .tokens_output = 358,
    .tokens_cache_read = 40600,
    .tokens_cache_creation = 2550,
    .tools_used = "{\"Task\":1,\"Edit\":1}",
    .created_at = "2025-09-14T12:00:00.000Z",
    .updated_at = "2025-09-14T12:01:02.020Z",
    .stored_messages = 8,
    .flagged = 3,
    .file_changes = 1,
    .subagents = 1,
    .lifecycle = 2,
  },
  {
    .fixture = V10,
    .session_id = A_ID "/sidechain-9e6c3a8d-4f1b-4d72-a3e9-5c2b8f6d1a34",
    .parent = A_ID,
    .title = "Find what makes tests/core/test-store.c flaky. - 2025-09-14",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "1.0.98",
    .model = "claude-opus-4-1-20250805",
    .models = "[\"claude-opus-4-1-20250805\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 2,
    .tokens_input = 8,
    .tokens_output = 160,
    .tokens_cache_read = 10800,
    .tokens_cache_creation = 1000,
    .tools_used = "{\"Grep\":1}",
    .created_at = "2025-09-14T12:00:05.700Z",
    .updated_at = "2025-09-14T12:00:14.020Z",
    .stored_messages = 3,
  },
  {
    .fixture = V20,
    .session_id = B_ID,
    .title = "Add a CSV export to the tide report command - 2025-12-03",
    .cwd = "/home/ada/src/tide",
    .project = "tide",
    .git_branch = "feature/tide-export",
    .agent_version = "2.0.76",
    .agent_mode = "acceptEdits",
    .model = "claude-sonnet-4-5-20250929",
    .models = "[\"claude-sonnet-4-5-20250929\"]",
    .user = 2,
    .assistant = 4,
    .tool_calls = 2,
    .tool_results = 2,
    .reasoning = 1,
    .message_count = 6,
    .event_count = 12,
    .tokens_input = 27,
    .tokens_output = 620,
    .tokens_cache_read = 46600,
    .tokens_cache_creation = 3680,
    .tools_used = "{\"Task\":1,\"Write\":1}",
    .created_at = "2025-12-03T12:00:10.000Z",
    .updated_at = "2025-12-03T12:00:41.300Z",
    .stored_messages = 6,
    .file_changes = 1,
    .subagents = 1,
    .api_errors = 1,
    .lifecycle = 4,
  },
  {
    .fixture = V20,
    .session_id = B_ID "/agent-a3f9c2d1",
    .parent = B_ID,
    .title = "List the functions in src/report.rs that build rows. - 2025-12-03",
    .cwd = "/home/ada/src/tide",
    .project = "tide",
    .git_branch = "feature/tide-export",
    .agent_version = "2.0.76",
    .model = "claude-haiku-4-5-20251001",
    .models = "[\"claude-haiku-4-5-20251001\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 2,
    .tokens_input = 9,
    .tokens_output = 140,
    .tokens_cache_read = 9200,
    .tokens_cache_creation = 2100,
    .tools_used = "{\"Read\":1}",
    .created_at = "2025-12-03T12:00:15.100Z",
    .updated_at = "2025-12-03T12:00:27.500Z",
    .stored_messages = 3,
  },
  {
    .fixture = V20,
    .session_id = B_ID "/agent-7e1d0c42",
    .parent = B_ID,
    .title = "Warmup - 2025-12-03",
    .cwd = "/home/ada/src/tide",
    .project = "tide",
    .git_branch = "feature/tide-export",
    .agent_version = "2.0.76",
    .model = "claude-haiku-4-5-20251001",
    .models = "[\"claude-haiku-4-5-20251001\"]",
    .user = 1,
    .assistant = 1,
    .message_count = 2,
    .event_count = 0,
    .tokens_input = 3,
    .tokens_output = 20,
    .tokens_cache_read = 0,
    .tokens_cache_creation = 2500,
    .tools_used = "{}",
    .created_at = "2025-12-03T12:00:01.000Z",
    .updated_at = "2025-12-03T12:00:02.700Z",
    .stored_messages = 2,
  },
  {
    .fixture = V21,
    .session_id = C_ID,
    .title = "Review the importer for token double counting - 2026-02-10",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.42",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 3,
    .assistant = 4,
    .tool_calls = 3,
    .tool_results = 3,
    .message_count = 7,
    .event_count = 15,
    .tokens_input = 28,
    .tokens_output = 495,
    .tokens_cache_read = 60500,
    .tokens_cache_creation = 8800,
    .tools_used = "{\"Task\":2,\"Bash\":1}",
    .created_at = "2026-02-10T12:00:00.000Z",
    .updated_at = "2026-02-10T12:07:12.000Z",
    .stored_messages = 11,
    .flagged = 4,
    .subagents = 2,
    .compactions = 1,
    .api_errors = 2,
    .lifecycle = 4,
  },
  {
    .fixture = V21,
    .session_id = C_ID "/agent-a91c3e5f20b7d4e68",
    .parent = C_ID,
    .title = "Find tokens summed twice in src/core/loom-import.c - 2026-02-10",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.42",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .reasoning = 1,
    .message_count = 3,
    .event_count = 3,
    .tokens_input = 7,
    .tokens_output = 145,
    .tokens_cache_read = 17500,
    .tokens_cache_creation = 2100,
    .tools_used = "{\"Grep\":1}",
    .created_at = "2026-02-10T12:00:05.300Z",
    .updated_at = "2026-02-10T12:00:15.000Z",
    .stored_messages = 3,
  },
  {
    .fixture = V21,
    .session_id = C_ID "/agent-b27e4d1c90a3f5b86",
    .parent = C_ID,
    .title = "List the tests that cover token totals. - 2026-02-10",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.42",
    .model = "claude-haiku-4-5-20251001",
    .models = "[\"claude-haiku-4-5-20251001\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 2,
    .tokens_input = 10,
    .tokens_output = 75,
    .tokens_cache_read = 6900,
    .tokens_cache_creation = 1200,
    .tools_used = "{\"Glob\":1}",
    .created_at = "2026-02-10T12:00:05.400Z",
    .updated_at = "2026-02-10T12:00:12.000Z",
    .stored_messages = 3,
  },
  {
    .fixture = V212,
    .session_id = "8e3a6c1f-5b9d-4e72-a1c8-3f0b7d2e9a64",
    .title = "Agent-provided titles - 2026-06-18",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "fix/titles",
    .agent_version = "2.1.201",
    .agent_mode = "acceptEdits",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 2,
    .assistant = 3,
    .tool_calls = 2,
    .tool_results = 2,
    .reasoning = 1,
    .message_count = 5,
    .event_count = 17,
    .tokens_input = 18,
    .tokens_output = 605,
    .tokens_cache_read = 58000,
    .tokens_cache_creation = 7200,
    .tools_used = "{\"Read\":1,\"MultiEdit\":1}",
    .created_at = "2026-06-18T12:00:00.000Z",
    .updated_at = "2026-06-18T12:02:06.000Z",
    .stored_messages = 5,
    .file_changes = 1,
    .lifecycle = 10,
    .raw = 1,
  },
  {
    .fixture = STREAMED,
    .session_id = "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47",
    .title = "Run the test suite and fix what fails - 2026-03-05",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 2,
    .assistant = 5,
    .tool_calls = 4,
    .tool_results = 4,
    .tool_errors = 2,
    .reasoning = 1,
    .message_count = 7,
    .event_count = 9,
    .tokens_input = 20,
    .tokens_output = 298,
    .tokens_cache_read = 70700,
    .tokens_cache_creation = 5800,
    .tools_used = "{\"Bash\":3,\"Read\":1}",
    .created_at = "2026-03-05T12:00:00.000Z",
    .updated_at = "2026-03-05T12:01:23.000Z",
    .stored_messages = 8,
    .flagged = 1,
  },
  {
    .fixture = TWO_IDS,
    .session_id = "5a1e9c3b-7d2f-4b86-8e40-1c9f6a3d5b72",
    .title = "Plan the folder drag and drop - 2026-01-20",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.32",
    .agent_mode = "acceptEdits",
    .model = "claude-opus-4-5-20251101",
    .models = "[\"claude-opus-4-5-20251101\"]",
    .user = 2,
    .assistant = 3,
    .tool_calls = 2,
    .tool_results = 2,
    .message_count = 5,
    .event_count = 5,
    .tokens_input = 15,
    .tokens_output = 550,
    .tokens_cache_read = 28800,
    .tokens_cache_creation = 2600,
    .tools_used = "{\"ExitPlanMode\":1,\"Edit\":1}",
    .created_at = "2026-01-20T12:00:00.000Z",
    .updated_at = "2026-01-21T12:00:15.000Z",
    .stored_messages = 5,
    .file_changes = 1,
  },
  {
    .fixture = NON_ASCII,
    .session_id = "3e6b9d2a-4c8f-4a17-b5e3-7d1a0c9f2e58",
    .title = "日本語のコメントを直して 🙏 — también en español, por favor - 2026-04-01",
    .cwd = "/home/ada/プロジェクト/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-sonnet-4-5-20250929",
    .models = "[\"claude-sonnet-4-5-20250929\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 3,
    .tokens_input = 6,
    .tokens_output = 190,
    .tokens_cache_read = 6900,
    .tokens_cache_creation = 850,
    .tools_used = "{\"Edit\":1}",
    .created_at = "2026-04-01T12:00:00.000Z",
    .updated_at = "2026-04-01T12:00:09.000Z",
    .stored_messages = 3,
    .file_changes = 1,
  },
};

static const char *const folders[] = {
  V10, V20, V21, V212, STREAMED, TWO_IDS, NON_ASCII,
};

#define BLOCKS              "content-blocks"
#define TOOL_NAMES          "tool-names"
#define SYSTEM_PROGRESS     "system-and-progress"
#define QUEUE_NAMES         "queue-and-names"
#define PLACEHOLDERS        "placeholder-usage"
#define REWINDS             "rewinds"
#define V10_CWD             "v1.0-sidechain-cwd"
#define TYPED_BESIDE_RESULT "typed-beside-result"
#define USAGE_REPEATS       "usage-repeats"
#define TYPED_ID            "c4e8a2d6-1f3b-4a57-9c0e-6b2d8f4a1e39"

#define D_ID "d8e3a7c1-4b6f-4a29-9e5d-7c2b1f0a3d86"

/* The numbers of fixtures/claude-variants/README.md: the variants of FORMATS.md §1 that no
 * generation above shows, kept apart so that the folders above keep the sessions other tests
 * count. */
static const Expected variants[] = {
  {
    .fixture = BLOCKS,
    .session_id = "7d4a1f8e-2c6b-4e93-a5d0-3b9e8c1f6a27",
    .title = "The depth chart renders blank. This is what I see: [image] - 2026-03-12",
    .cwd = "/home/ada/src/tide",
    .project = "tide",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 1,
    .assistant = 3,
    .tool_calls = 3,
    .tool_results = 3,
    .reasoning = 2,
    .message_count = 4,
    .event_count = 8,
    .tokens_input = 13,
    .tokens_output = 260,
    .tokens_cache_read = 47500,
    .tokens_cache_creation = 7300,
    .tools_used = "{\"Read\":2,\"Bash\":1}",
    .created_at = "2026-03-12T12:00:00.000Z",
    .updated_at = "2026-03-12T12:00:18.000Z",
    .stored_messages = 5,
    .flagged = 1,
  },
  {
    .fixture = TOOL_NAMES,
    .session_id = "e2b7c49a-5f13-4d8e-9a6c-0d3f7b1e5c84",
    .title = "File an issue for the flaky test, note it, find others - 2026-03-20",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "acceptEdits",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 1,
    .assistant = 4,
    .tool_calls = 3,
    .tool_results = 3,
    .message_count = 5,
    .event_count = 8,
    .tokens_input = 18,
    .tokens_output = 325,
    .tokens_cache_read = 63300,
    .tokens_cache_creation = 7400,
    .tools_used = "{\"mcp__github__create_issue\":1,\"NotebookEdit\":1,\"Agent\":1}",
    .created_at = "2026-03-20T12:00:00.000Z",
    .updated_at = "2026-03-20T12:00:34.000Z",
    .stored_messages = 5,
    .file_changes = 1,
    .subagents = 1,
  },
  {
    .fixture = SYSTEM_PROGRESS,
    .session_id = "9a5c3e1b-7f2d-4b68-8e04-6c1a9d3f5b72",
    .title = "Rebuild the docs and find the libadwaita 1.2 release notes - 2026-03-25",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 2,
    .assistant = 7,
    .tool_calls = 5,
    .tool_results = 5,
    .message_count = 9,
    .event_count = 16,
    .tokens_input = 24,
    .tokens_output = 288,
    .tokens_cache_read = 108500,
    .tokens_cache_creation = 7250,
    .tools_used = "{\"Bash\":2,\"WebSearch\":1,\"mcp__gitlab__get_file_contents\":1,"
                  "\"BashOutput\":1}",
    .created_at = "2026-03-25T12:00:00.000Z",
    .updated_at = "2026-03-25T12:25:33.000Z",
    .stored_messages = 12,
    .flagged = 2,
    .compactions = 1,
    .lifecycle = 5,
  },
  {
    .fixture = QUEUE_NAMES,
    .session_id = "4f8e2a6c-1d9b-4c37-b5e2-8a0d6f3c1e95",
    .title = "csv-port - 2026-06-02",
    .cwd = "/home/ada/src/tide",
    .project = "tide",
    .git_branch = "main",
    .agent_version = "2.1.201",
    .agent_mode = "acceptEdits",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 1,
    .assistant = 3,
    .tool_calls = 2,
    .tool_results = 2,
    .message_count = 4,
    .event_count = 12,
    .tokens_input = 14,
    .tokens_output = 245,
    .tokens_cache_read = 35600,
    .tokens_cache_creation = 5400,
    .tools_used = "{\"Agent\":1,\"Edit\":1}",
    .created_at = "2026-06-02T12:00:00.000Z",
    .updated_at = "2026-06-02T12:00:45.000Z",
    .stored_messages = 5,
    .flagged = 1,
    .file_changes = 1,
    .subagents = 1,
    .lifecycle = 6,
  },
  {
    .fixture = PLACEHOLDERS,
    .session_id = "b6d1e9f3-8a2c-4e75-9c3b-5f0a7d2e8b14",
    .title = "Summarise what changed in the store this week - 2026-04-08",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 2,
    .tokens_input = 4,
    .tokens_output = 144,
    .tokens_cache_read = 15000,
    .tokens_cache_creation = 700,
    .tools_used = "{\"Bash\":1}",
    .created_at = "2026-04-08T12:00:00.000Z",
    .updated_at = "2026-04-08T12:00:09.000Z",
    .stored_messages = 3,
  },
  {
    .fixture = REWINDS,
    .session_id = "3c7f5b2e-9d4a-4f16-8b3e-2a6d0c8f4e59",
    .title = "Write a commit message for the staged changes - 2026-04-15",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 4,
    .assistant = 5,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 9,
    .event_count = 2,
    .tokens_input = 16,
    .tokens_output = 130,
    .tokens_cache_read = 48400,
    .tokens_cache_creation = 2340,
    .tools_used = "{\"Bash\":1}",
    .created_at = "2026-04-15T12:00:00.000Z",
    .updated_at = "2026-04-15T12:01:12.000Z",
    .stored_messages = 9,
  },
  {
    .fixture = V10_CWD,
    .session_id = D_ID,
    .title = "Check why the sync job in tools/sync is slow - 2025-09-20",
    .cwd = "/home/ada/src/tide",
    .project = "tide",
    .git_branch = "main",
    .agent_version = "1.0.98",
    .model = "claude-opus-4-1-20250805",
    .models = "[\"claude-opus-4-1-20250805\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 3,
    .tokens_input = 9,
    .tokens_output = 110,
    .tokens_cache_read = 20000,
    .tokens_cache_creation = 2100,
    .tools_used = "{\"Task\":1}",
    .created_at = "2025-09-20T12:00:00.000Z",
    .updated_at = "2025-09-20T12:00:13.000Z",
    .stored_messages = 3,
    .subagents = 1,
  },
  {
    .fixture = TYPED_BESIDE_RESULT,
    .session_id = TYPED_ID,
    .title = "Run the store tests - 2026-04-20",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 3,
    .assistant = 3,
    .tool_calls = 2,
    .tool_results = 2,
    .message_count = 6,
    .event_count = 4,
    .tokens_input = 12,
    .tokens_output = 95,
    .tokens_cache_read = 28300,
    .tokens_cache_creation = 1000,
    .tools_used = "{\"Bash\":2}",
    .created_at = "2026-04-20T12:00:00.000Z",
    .updated_at = "2026-04-20T12:00:45.000Z",
    .stored_messages = 7,
    .flagged = 1,
  },
  {
    .fixture = USAGE_REPEATS,
    .session_id = "e1f5b9c3-7a2d-4e68-8b4f-0c6a2e8d5b17",
    .title = "Why is the list slow to scroll? - 2026-04-22",
    .cwd = "/home/ada/src/loom",
    .project = "loom",
    .git_branch = "main",
    .agent_version = "2.1.81",
    .agent_mode = "default",
    .model = "claude-opus-4-6",
    .models = "[\"claude-opus-4-6\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 2,
    .tokens_input = 11,
    .tokens_output = 210,
    .tokens_cache_read = 29300,
    .tokens_cache_creation = 1500,
    .tools_used = "{\"Bash\":1}",
    .created_at = "2026-04-22T12:00:00.000Z",
    .updated_at = "2026-04-22T12:00:12.000Z",
    .stored_messages = 3,
  },
  {
    .fixture = V10_CWD,
    .session_id = D_ID "/sidechain-86467a72-c688-48bf-9f61-9738345e4ee9",
    .parent = D_ID,
    .title = "Find what makes the sync job slow. - 2025-09-20",
    .cwd = "/home/ada/src/tide/tools/sync",
    .project = "sync",
    .git_branch = "main",
    .agent_version = "1.0.98",
    .model = "claude-opus-4-1-20250805",
    .models = "[\"claude-opus-4-1-20250805\"]",
    .user = 1,
    .assistant = 2,
    .tool_calls = 1,
    .tool_results = 1,
    .message_count = 3,
    .event_count = 2,
    .tokens_input = 7,
    .tokens_output = 85,
    .tokens_cache_read = 8600,
    .tokens_cache_creation = 700,
    .tools_used = "{\"Grep\":1}",
    .created_at = "2025-09-20T12:00:04.000Z",
    .updated_at = "2025-09-20T12:00:10.000Z",
    .stored_messages = 3,
  },
};

static const char *const variant_folders[] = {
  BLOCKS,  TOOL_NAMES, SYSTEM_PROGRESS,     QUEUE_NAMES,   PLACEHOLDERS,
  REWINDS, V10_CWD,    TYPED_BESIDE_RESULT, USAGE_REPEATS,
};

/* A folder of LOOM_TEST_FIXTURES, with the sessions its README counts in each of its folders. */
typedef struct
{
  const char        *name;
  const Expected    *expected;
  guint              n_expected;
  const char *const *folders;
  guint              n_folders;
} FixtureRoot;

static const FixtureRoot claude_root = {
  "claude", expected, G_N_ELEMENTS (expected), folders, G_N_ELEMENTS (folders),
};

static const FixtureRoot variants_root = {
  "claude-variants",
  variants,
  G_N_ELEMENTS (variants),
  variant_folders,
  G_N_ELEMENTS (variant_folders),
};

typedef LoomTestStore Fixture;

static char *
root_path (const FixtureRoot *root,
           const char        *relative)
{
  return loom_test_fixture_path (root->name, relative, NULL);
}

static char *
fixture_path (const char *relative)
{
  return root_path (&claude_root, relative);
}

static void
open_store (Fixture *f)
{
  g_autoptr (GError) error = NULL;

  if (f->store != NULL)
    g_assert_finalize_object (f->store);
  g_remove (f->db);
  f->store = loom_store_open (f->db, &error);
  g_assert_no_error (error);
}

static GListModel *
list_sessions (Fixture *f)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  GListModel *sessions;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (f->store, &query, &error);
  g_assert_no_error (error);
  return sessions;
}

/* The session the agent calls @session_id, or NULL. */
static LoomSession *
find_session (Fixture    *f,
              const char *session_id)
{
  return loom_test_find_session (f->store, session_id);
}

static char *
sessions_json (Fixture *f)
{
  g_autoptr (GListModel) sessions = list_sessions (f);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

      json_builder_add_value (builder, loom_session_to_json (session));
    }
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  return loom_json_to_string (root);
}

static void
assert_json_text_equal (const char *what,
                        JsonNode   *actual,
                        const char *expected_text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonNode *wanted;

  json_parser_load_from_data (parser, expected_text, -1, &error);
  g_assert_no_error (error);
  wanted = json_parser_get_root (parser);
  if (!json_node_equal (actual, wanted))
    {
      g_autofree char *text = loom_json_to_string (actual);

      g_error ("%s: expected %s, got %s", what, expected_text, text);
    }
}

static gint64
member_int (JsonObject *object,
            const char *group,
            const char *name)
{
  JsonObject *inner = json_object_get_object_member (object, group);

  return json_object_get_int_member (inner, name);
}

static void
assert_timeline (Fixture        *f,
                 LoomSession    *session,
                 const Expected *e)
{
  g_autoptr (GListModel) timeline = NULL;
  g_autoptr (GError) error = NULL;
  guint messages = 0, flagged = 0, file_changes = 0, subagents = 0, compactions = 0;
  guint api_errors = 0, lifecycle = 0, raw = 0;

  timeline = loom_store_list_timeline (f->store, loom_session_get_uuid (session), 0, 0, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      if (d->is_message)
        {
          messages++;
          flagged += (d->flags & LOOM_MESSAGE_NOT_A_PROMPT) != 0;
        }
      else if (g_strcmp0 (d->kind, LOOM_EVENT_FILE_CHANGE) == 0)
        file_changes++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_SUBAGENT) == 0)
        subagents++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_COMPACTION) == 0)
        compactions++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_API_ERROR) == 0)
        api_errors++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_LIFECYCLE) == 0)
        lifecycle++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_RAW) == 0)
        raw++;
    }
  g_assert_cmpuint (messages, ==, e->stored_messages);
  g_assert_cmpuint (flagged, ==, e->flagged);
  g_assert_cmpuint (file_changes, ==, e->file_changes);
  g_assert_cmpuint (subagents, ==, e->subagents);
  g_assert_cmpuint (compactions, ==, e->compactions);
  g_assert_cmpuint (api_errors, ==, e->api_errors);
  g_assert_cmpuint (lifecycle, ==, e->lifecycle);
  g_assert_cmpuint (raw, ==, e->raw);
}

static void
assert_session (Fixture        *f,
                const Expected *e)
{
  g_autoptr (LoomSession) session = find_session (f, e->session_id);
  g_autoptr (JsonNode) node = NULL;
  JsonObject *o;

  g_test_message ("checking %s", e->session_id);
  g_assert_nonnull (session);
  node = loom_session_to_json (session);
  o = json_node_get_object (node);

  g_assert_cmpstr (json_object_get_string_member (o, "source"), ==, "claude-code");
  g_assert_cmpstr (json_object_get_string_member (o, "session_type"), ==,
                   e->parent ? "subagent" : "main");
  if (e->parent != NULL)
    {
      g_autoptr (LoomSession) parent = find_session (f, e->parent);

      g_assert_nonnull (parent);
      g_assert_cmpstr (json_object_get_string_member (o, "parent_session_id"), ==,
                       loom_session_get_uuid (parent));
    }
  else
    g_assert_true (json_object_get_null_member (o, "parent_session_id"));

  g_assert_cmpstr (json_object_get_string_member (o, "title"), ==, e->title);
  g_assert_cmpstr (json_object_get_string_member (o, "cwd"), ==, e->cwd);
  g_assert_cmpstr (json_object_get_string_member (o, "project"), ==, e->project);
  g_assert_cmpstr (json_object_get_string_member (o, "git_branch"), ==, e->git_branch);
  g_assert_cmpstr (json_object_get_string_member (o, "agent_version"), ==, e->agent_version);
  g_assert_cmpstr (json_object_get_string_member (o, "agent_mode"), ==, e->agent_mode);
  g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, e->model);
  assert_json_text_equal ("models", json_object_get_member (o, "models"), e->models);
  g_assert_cmpstr (json_object_get_string_member (o, "created_at"), ==, e->created_at);
  g_assert_cmpstr (json_object_get_string_member (o, "updated_at"), ==, e->updated_at);

  g_assert_cmpint (member_int (o, "counts", "user_messages"), ==, e->user);
  g_assert_cmpint (member_int (o, "counts", "assistant_messages"), ==, e->assistant);
  g_assert_cmpint (member_int (o, "counts", "tool_calls"), ==, e->tool_calls);
  g_assert_cmpint (member_int (o, "counts", "tool_results"), ==, e->tool_results);
  g_assert_cmpint (member_int (o, "counts", "tool_errors"), ==, e->tool_errors);
  g_assert_cmpint (member_int (o, "counts", "reasoning"), ==, e->reasoning);
  g_assert_cmpint (json_object_get_int_member (o, "message_count"), ==, e->message_count);
  g_assert_cmpint (json_object_get_int_member (o, "event_count"), ==, e->event_count);
  g_assert_cmpint (member_int (o, "tokens", "input"), ==, e->tokens_input);
  g_assert_cmpint (member_int (o, "tokens", "output"), ==, e->tokens_output);
  g_assert_cmpint (member_int (o, "tokens", "cache_read"), ==, e->tokens_cache_read);
  g_assert_cmpint (member_int (o, "tokens", "cache_creation"), ==, e->tokens_cache_creation);
  /* Claude Code does not tell reasoning apart from output. */
  g_assert_true (
    json_object_get_null_member (json_object_get_object_member (o, "tokens"), "reasoning"));
  assert_json_text_equal ("tools_used", json_object_get_member (o, "tools_used"), e->tools_used);

  assert_timeline (f, session, e);
}

/* The sessions of @fixture, a folder of @root; of every folder for NULL. */
static guint
expected_in (const FixtureRoot *root,
             const char        *fixture)
{
  guint n = 0;

  for (guint i = 0; i < root->n_expected; i++)
    n += fixture == NULL || strcmp (root->expected[i].fixture, fixture) == 0;
  return n;
}

static void
assert_fixture_in (Fixture           *f,
                   const FixtureRoot *root,
                   const char        *fixture)
{
  g_autoptr (GListModel) sessions = list_sessions (f);

  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, expected_in (root, fixture));
  for (guint i = 0; i < root->n_expected; i++)
    if (fixture == NULL || strcmp (root->expected[i].fixture, fixture) == 0)
      assert_session (f, &root->expected[i]);
  loom_test_assert_index_in_sync (loom_store_get_path (f->store));
}

static void
assert_fixture (Fixture    *f,
                const char *fixture)
{
  assert_fixture_in (f, &claude_root, fixture);
}

/* ——— Copies and checksums ——— */

static void
list_files (const char *dir,
            GPtrArray  *files)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        list_files (path, files);
      else
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  list_files (from, files);
  for (guint i = 0; i < files->len; i++)
    {
      const char      *source = g_ptr_array_index (files, i);
      g_autofree char *target = g_build_filename (to, source + strlen (from), NULL);
      g_autofree char *target_dir = g_path_get_dirname (target);
      g_autofree char *contents = NULL;
      g_autoptr (GError) error = NULL;
      gsize length;

      g_assert_cmpint (g_mkdir_with_parents (target_dir, 0700), ==, 0);
      g_file_get_contents (source, &contents, &length, &error);
      g_assert_no_error (error);
      g_file_set_contents (target, contents, (gssize)length, &error);
      g_assert_no_error (error);
    }
}

static GHashTable *
checksums (const char *dir)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  list_files (dir, files);
  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);

      g_hash_table_insert (sums, g_strdup (path), loom_test_file_checksum (path));
    }
  return sums;
}

static void
assert_same_checksums (GHashTable *before,
                       GHashTable *after)
{
  GHashTableIter iter;
  gpointer       path, sum;

  g_assert_cmpuint (g_hash_table_size (before), ==, g_hash_table_size (after));
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &path, &sum))
    g_assert_cmpstr (g_hash_table_lookup (after, path), ==, sum);
}

/* ——— Tests ——— */

/* Each folder of the root on its own, named as Claude Code, gives the README's sessions and
 * numbers; a warning would mean a variant was not understood (placeholder usage included). */
static void
test_fixtures (Fixture      *f,
               gconstpointer data)
{
  const FixtureRoot *root = data;

  for (guint i = 0; i < root->n_folders; i++)
    {
      g_autofree char *path = root_path (root, root->folders[i]);

      g_test_message ("fixture %s", root->folders[i]);
      open_store (f);
      loom_test_store_import_path (f, "claude-code", path);
      g_assert_cmpuint (f->stats->warnings->len, ==, 0);
      g_assert_cmpuint (f->stats->files_failed, ==, 0);
      assert_fixture_in (f, root, root->folders[i]);
    }
}

/* Without --source, every file is recognised as Claude Code from its content, and the agent's
 * files come out byte for byte as they went in. */
static void
test_detection (Fixture      *f,
                gconstpointer data)
{
  const FixtureRoot *fixtures = data;
  g_autofree char   *root = root_path (fixtures, "");
  g_autoptr (GHashTable) before = checksums (root);
  g_autoptr (GHashTable) after = NULL;

  loom_test_store_import_path (f, NULL, root);
  g_assert_cmpuint (f->stats->warnings->len, ==, 0);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  assert_fixture_in (f, fixtures, NULL);

  after = checksums (root);
  assert_same_checksums (before, after);
}

/* A second pass over unchanged files changes nothing, not even row order. */
static void
test_twice (Fixture      *f,
            gconstpointer data)
{
  g_autofree char *root = fixture_path ("");
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  gint64           events, messages;

  loom_test_store_import_path (f, "claude-code", root);
  first = sessions_json (f);
  messages = loom_test_count_rows (f->db, "messages");
  events = loom_test_count_rows (f->db, "events");

  loom_test_store_import_path (f, "claude-code", root);
  g_assert_cmpuint (f->stats->messages, ==, 0);
  g_assert_cmpuint (f->stats->events, ==, 0);
  second = sessions_json (f);
  g_assert_cmpstr (first, ==, second);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);
  assert_fixture (f, NULL);
}

/* A sub-agent's file read on its own first gives its parent a placeholder session; the parent's
 * file, read by a later import, names it, and the search index forgets the placeholder's title
 * (schema v4's index_retitled). */
static void
test_parent_after_child (Fixture      *f,
                         gconstpointer data)
{
  g_autofree char *folder = fixture_path ("v2.0-agent-files");
  g_autofree char *project = g_build_filename (folder, "-home-ada-src-tide", NULL);
  g_autofree char *child = g_build_filename (project, "agent-a3f9c2d1.jsonl", NULL);
  g_autofree char *parent = g_build_filename (project, "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80.jsonl",
                                              NULL);

  loom_test_store_import_path (f, "claude-code", child);
  g_assert_cmpint (loom_test_count_matches (f->db, "imported"), ==, 1);
  loom_test_assert_index_in_sync (f->db);

  loom_test_store_import_path (f, "claude-code", parent);
  g_assert_cmpuint (f->stats->sessions_new, ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->db, "imported"), ==, 0);
  loom_test_assert_index_in_sync (f->db);

  loom_test_store_import_path (f, "claude-code", folder);
  assert_fixture (f, "v2.0-agent-files");
}

/* One prompt of session @sid in /home/ada/src/tide at @timestamp, as Claude Code writes it. */
static char *
write_prompt_file (Fixture    *f,
                   const char *sid,
                   const char *timestamp)
{
  g_autofree char *folder = g_build_filename (f->dir, "projects", "-home-ada-src-tide", NULL);
  g_autofree char *name = g_strconcat (sid, ".jsonl", NULL);
  g_autofree char *line = g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"%s-u1\",\"parentUuid\":null,\"sessionId\":\"%s\","
    "\"timestamp\":\"%s\",\"cwd\":\"/home/ada/src/tide\",\"version\":\"2.0.1\","
    "\"message\":{\"role\":\"user\",\"content\":\"Fix the tide tables\"}}\n",
    sid, sid, timestamp);
  char *path = g_build_filename (folder, name, NULL);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, line, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* A session is created with its project, and the project dates from its earliest session,
 * whichever file is read first. */
static void
test_project_dates (Fixture      *f,
                    gconstpointer data)
{
  static const char sql[] = "SELECT created_at FROM projects WHERE path = ?1";
  g_autofree char  *later = write_prompt_file (f, "5b0e0c4e-later", "2025-03-10T10:00:00.000Z");
  g_autofree char  *earlier = write_prompt_file (f, "1a7d3f2c-earlier", "2025-01-05T09:30:00.000Z");

  loom_test_store_import_path (f, "claude-code", later);
  g_assert_cmpint (loom_test_query_int (f->db, sql, "/home/ada/src/tide"), ==, 1741600800000);
  loom_test_store_import_path (f, "claude-code", earlier);
  g_assert_cmpint (loom_test_query_int (f->db, sql, "/home/ada/src/tide"), ==, 1736069400000);
  loom_test_store_import_path (f, "claude-code", later);
  g_assert_cmpint (loom_test_query_int (f->db, sql, "/home/ada/src/tide"), ==, 1736069400000);

  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM sessions"
                                        " WHERE project_id = (SELECT id FROM projects"
                                        "                     WHERE path = ?1)",
                                        "/home/ada/src/tide"),
                   ==, 2);
  loom_test_assert_index_in_sync (f->db);
}

/* The default root is $CLAUDE_CONFIG_DIR/projects; only session files are taken from it. */
static void
test_default_root (Fixture      *f,
                   gconstpointer data)
{
  g_autofree char *config = g_build_filename (f->dir, "claude-config", NULL);
  g_autofree char *projects = g_build_filename (config, "projects", NULL);
  g_autofree char *stray = g_build_filename (projects, "-home-ada-src-loom", "notes.jsonl", NULL);
  g_autofree char *history = g_build_filename (config, "history.jsonl", NULL);
  g_autoptr (GError) error = NULL;

  /* Claude Code keeps every project under one folder: the generations share project folders. */
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *path = fixture_path (folders[i]);

      copy_tree (path, projects);
    }
  g_file_set_contents (stray, "{\"display\":\"not a session\"}\n", -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (history, "{\"display\":\"/init\",\"project\":\"/home/ada\"}\n", -1, &error);
  g_assert_no_error (error);

  g_setenv ("CLAUDE_CONFIG_DIR", config, TRUE);
  loom_test_store_import_paths (f, "claude-code", NULL);
  g_unsetenv ("CLAUDE_CONFIG_DIR");

  g_assert_cmpuint (f->stats->warnings->len, ==, 0);
  assert_fixture (f, NULL);
}

/* Writes the first @cut bytes of @source's contents to @target (creating or truncating). */
static void
write_prefix (const char *target,
              const char *contents,
              gsize       cut)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (target, contents, (gssize)cut, &error);
  g_assert_no_error (error);
}

static void
append_rest (const char *target,
             const char *contents,
             gsize       cut,
             gsize       length)
{
  FILE *out = fopen (target, "ab");

  g_assert_nonnull (out);
  g_assert_cmpuint (fwrite (contents + cut, 1, length - cut, out), ==, length - cut);
  g_assert_cmpint (fclose (out), ==, 0);
}

/* One file of @folder (of @root) grows in two steps, cut at byte @cut: the store ends up as
 * after a single import of the whole folder. */
static void
import_in_two_passes (Fixture           *f,
                      const FixtureRoot *root,
                      const char        *folder,
                      const char        *copy,
                      const char        *target,
                      const char        *contents,
                      gsize              length,
                      gsize              cut)
{
  write_prefix (target, contents, cut);
  open_store (f);
  loom_test_store_import_path (f, "claude-code", copy);
  append_rest (target, contents, cut, length);
  loom_test_store_import_path (f, "claude-code", copy);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  assert_fixture_in (f, root, folder);
}

/* Every file of every folder, cut after each line and in the middle of each line (a record the
 * agent is still writing), imports to the same numbers as one pass. */
static void
test_incremental (Fixture      *f,
                  gconstpointer data)
{
  const FixtureRoot *root = data;

  for (guint i = 0; i < root->n_folders; i++)
    {
      g_autofree char *path = root_path (root, root->folders[i]);
      g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

      list_files (path, files);
      for (guint j = 0; j < files->len; j++)
        {
          const char      *source = g_ptr_array_index (files, j);
          g_autofree char *copy = g_build_filename (f->dir, "copy", NULL);
          g_autofree char *target = g_build_filename (copy, source + strlen (path), NULL);
          g_autofree char *contents = NULL;
          g_autoptr (GError) error = NULL;
          gsize length, start = 0;

          if (!g_str_has_suffix (source, ".jsonl"))
            continue;
          g_file_get_contents (source, &contents, &length, &error);
          g_assert_no_error (error);

          g_test_message ("splitting %s", source);
          loom_test_remove_tree (copy);
          copy_tree (path, copy);
          while (start < length)
            {
              const char *newline = memchr (contents + start, '\n', length - start);
              gsize       end = newline ? (gsize)(newline - contents) + 1 : length;

              /* After the line, and in its middle (not always on a character boundary). */
              import_in_two_passes (f, root, root->folders[i], copy, target, contents, length, end);
              import_in_two_passes (f, root, root->folders[i], copy, target, contents, length,
                                    start + (end - start) / 2);
              start = end;
            }
          loom_test_remove_tree (copy);
        }
    }
}

/* The sampled hash of the first cursor version: 64 KiB from the start and before @offset,
 * then the offset, SHA-256, no prefix. */
static char *
legacy_sample_hash (const char *contents,
                    gsize       offset)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *length = g_strdup_printf ("%" G_GSIZE_FORMAT, offset);
  gsize            sample = 64 * 1024;
  gsize            tail = offset > sample ? offset - sample : 0;

  g_checksum_update (checksum, (const guchar *)contents, MIN (sample, offset));
  g_checksum_update (checksum, (const guchar *)contents + tail, MIN (sample, offset - tail));
  g_checksum_update (checksum, (const guchar *)length, -1);
  return g_strdup (g_checksum_get_string (checksum));
}

/* A cursor saved by the first version still lets a grown file be read on from where it was
 * (rather than read again whole), and a rewrite is still noticed. */
static void
test_legacy_cursor (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *folder = fixture_path ("streamed-tool-error");
  g_autofree char *copy = g_build_filename (f->dir, "copy", NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *contents = NULL;
  g_autofree char *target = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *sql = NULL;
  g_autoptr (GError) error = NULL;
  const char *last_line;
  char       *changed;
  gsize       length, cut;
  sqlite3    *db = NULL;

  list_files (folder, files);
  for (guint i = 0; i < files->len && target == NULL; i++)
    if (g_str_has_suffix (g_ptr_array_index (files, i), ".jsonl"))
      target = g_build_filename (copy, (char *)g_ptr_array_index (files, i) + strlen (folder),
                                 NULL);
  g_assert_nonnull (target);
  copy_tree (folder, copy);
  g_file_get_contents (target, &contents, &length, &error);
  g_assert_no_error (error);

  /* Everything but the last line, imported with a cursor as the first version saved it. */
  g_assert_cmpint (contents[length - 1], ==, '\n');
  last_line = g_strrstr_len (contents, (gssize)length - 1, "\n");
  g_assert_nonnull (last_line);
  cut = (gsize)(last_line - contents) + 1;
  write_prefix (target, contents, cut);
  loom_test_store_import_path (f, "claude-code", copy);

  hash = legacy_sample_hash (contents, cut);
  sql = sqlite3_mprintf ("UPDATE import_cursors SET prefix_hash = %Q WHERE source_path = %Q", hash,
                         target);
  g_assert_cmpint (sqlite3_open (f->db, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);
  sqlite3_free (g_steal_pointer (&sql));

  append_rest (target, contents, cut, length);
  loom_test_store_import_path (f, "claude-code", copy);
  g_assert_cmpuint (f->stats->records, ==, 1);
  assert_fixture (f, "streamed-tool-error");

  /* The first record edited and a line added: the file is read again, whole. */
  changed = strstr (contents, "\"uuid\":\"");
  g_assert_nonnull (changed);
  changed += strlen ("\"uuid\":\"");
  *changed = *changed == 'a' ? 'b' : 'a';
  write_prefix (target, contents, length);
  append_rest (target, "\n", 0, 1);
  loom_test_store_import_path (f, "claude-code", copy);
  g_assert_cmpuint (f->stats->records, >, 1);
  g_assert_cmpuint (f->stats->warnings->len, ==, 0);
}

/* One item of a session's timeline as a test expects it. */
typedef struct
{
  const char *role_or_kind;
  const char *tool_name;
  gboolean    is_error;
  guint       flags;
  const char *text; /* NULL: not checked */
} ExpectedItem;

/* Imports @relative below @root and fails unless the timeline of the session the agent calls
 * @session_id is @items, item by item; @check_errors: whether is_error is compared too. */
static void
assert_timeline_items (Fixture            *f,
                       const FixtureRoot  *root,
                       const char         *relative,
                       const char         *session_id,
                       const ExpectedItem *items,
                       guint               n_items,
                       gboolean            check_errors)
{
  g_autofree char *path = root_path (root, relative);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GListModel) timeline = NULL;
  g_autoptr (GError) error = NULL;

  loom_test_store_import_path (f, "claude-code", path);
  session = find_session (f, session_id);
  g_assert_nonnull (session);
  timeline = loom_store_list_timeline (f->store, loom_session_get_uuid (session), 0, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (timeline), ==, n_items);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      g_test_message ("item %u", i);
      g_assert_cmpstr (d->is_message ? d->role : d->kind, ==, items[i].role_or_kind);
      g_assert_cmpstr (d->tool_name, ==, items[i].tool_name);
      if (check_errors)
        g_assert_cmpint (d->is_error, ==, items[i].is_error);
      g_assert_cmpuint (d->flags, ==, items[i].flags);
      if (items[i].text != NULL)
        g_assert_cmpstr (d->text, ==, items[i].text);
      if (!d->is_message && g_str_has_prefix (d->kind, "tool_"))
        g_assert_nonnull (d->call_id);
    }
}

/* The three records of one streamed message are one message, its blocks events in order. */
static void
test_streamed_timeline (Fixture      *f,
                        gconstpointer data)
{
  static const ExpectedItem items[] = {
    { "user", NULL, FALSE, 0, "Run the test suite and fix what fails" },
    { "assistant", NULL, FALSE, 0, "Running the suite." },
    { "reasoning", NULL, FALSE, 0, "The suite runs with meson test; start with the error logs." },
    { "tool_call", "Bash", FALSE, 0, "meson test -C build \\ …" },
    { "tool_result", "Bash", TRUE, 0, NULL },
    { "assistant", NULL, FALSE, 0, "One test fails; reading it." },
    { "tool_call", "Read", FALSE, 0, "/home/ada/src/loom/tests/import/test-import-claude.c" },
    { "tool_result", "Read", FALSE, 0, NULL },
    { "assistant", NULL, FALSE, 0, "" },
    { "tool_call", "Bash", FALSE, 0, "ninja -C build && meson test -C build import-claude" },
    { "tool_result", "Bash", TRUE, 0, NULL },
    { "user", NULL, FALSE, LOOM_MESSAGE_INJECTED, "[Request interrupted by user for tool use]" },
    { "user", NULL, FALSE, 0, "keep going, but print the error logs" },
    { "assistant", NULL, FALSE, 0, "" },
    { "tool_call", "Bash", FALSE, 0, NULL },
    { "tool_result", "Bash", FALSE, 0, "ninja: no work to do.\n 7/12 import-claude  OK  0.39s" },
    { "assistant", NULL, FALSE, 0, "All green now." },
  };

  assert_timeline_items (f, &claude_root, STREAMED, "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47", items,
                         G_N_ELEMENTS (items), TRUE);
}

/* What a person typed while a tool ran comes in the record of the tool's result: it is their
 * prompt, shown after the result, which still answers its call; a hook's words beside it stay
 * flagged, apart. */
static void
test_typed_beside_result (Fixture      *f,
                          gconstpointer data)
{
  /* is_error is not compared here. */
  static const ExpectedItem items[] = {
    { "user", NULL, FALSE, 0, "Run the store tests" },
    { "assistant", NULL, FALSE, 0, "Running them." },
    { "tool_call", "Bash", FALSE, 0, NULL },
    { "tool_result", "Bash", FALSE, 0, "24/24 subtests passed" },
    { "user", NULL, FALSE, 0, "While that ran: also run the import-cli test, please." },
    { "assistant", NULL, FALSE, 0, "" },
    { "tool_call", "Bash", FALSE, 0, NULL },
    { "tool_result", "Bash", FALSE, 0, "12/12 subtests passed" },
    { "user", NULL, FALSE, LOOM_MESSAGE_INJECTED,
      "PostToolUse:Bash hook feedback:\nthe build took 41 s" },
    { "user", NULL, FALSE, 0, "Thanks. Now sum up both runs." },
    { "assistant", NULL, FALSE, 0, "Both pass: store 24 of 24, import-cli 12 of 12." },
  };

  assert_timeline_items (f, &variants_root, TYPED_BESIDE_RESULT, TYPED_ID, items,
                         G_N_ELEMENTS (items), FALSE);
}

/* claims () says of each file what discover () says, on a tree with every name and place the
 * rules tell apart: sessions, their sub-agents, the files beside them, too deep, links. A file
 * that is gone is still claimed by its name, so that its session can be marked. */
static void
test_claims (Fixture      *f,
             gconstpointer data)
{
  static const char *const files[] = {
    /* Listed. */
    "-p/11111111-1111-4111-8111-111111111111.jsonl", "-p/agent-a1.jsonl",
    "-p/11111111-1111-4111-8111-111111111111/subagents/agent-b2.jsonl",
    "22222222-2222-4222-8222-222222222222.jsonl",
    "a/b/c/d/e/33333333-3333-4333-8333-333333333333.jsonl",
    "-p/44444444-4444-4444-8444-444444444444.jsonl/agent-c3.jsonl",
    /* Not listed. */
    "-p/11111111-1111-4111-8111-111111111111/subagents/agent-b2.meta.json",
    "-p/11111111-1111-4111-8111-111111111111/tool-results/toolu_1.txt", "-p/history.jsonl",
    "-p/notes.jsonl", "-p/11111111-1111-4111-8111-11111111111.jsonl", "-p/agent-x.json",
    "a/b/c/d/e/f/55555555-5555-4555-8555-555555555555.jsonl", NULL
  };
  const LoomImporter *claude = loom_importer_claude ();
  g_autofree char    *root = g_build_filename (f->dir, "projects", NULL);
  g_autofree char    *gone = g_build_filename (root, files[0], NULL);
  g_autofree char    *gone_folder = g_build_filename (root, "a", NULL);
  g_autofree char    *gone_deep = g_build_filename (root, files[4], NULL);
  g_autofree char    *link = g_build_filename (root, "-p",
                                               "66666666-6666-4666-8666-666666666666.jsonl", NULL);
  g_autofree char    *folder_link = g_build_filename (root, "-link", NULL);

  loom_test_make_files (root, files, "{}\n");
  g_assert_cmpint (symlink ("agent-a1.jsonl", link), ==, 0);
  g_assert_cmpint (symlink ("-p", folder_link), ==, 0);

  g_assert_cmpuint (loom_test_assert_claims_as_discovered (claude, root), ==, 6);

  g_assert_cmpint (g_remove (gone), ==, 0);
  g_assert_true (claude->claims (root, gone));
  loom_test_remove_tree (gone_folder);
  g_assert_true (claude->claims (root, gone_deep));
}

/* Counts the sessions whose source is @path, all or only those marked missing. */
static gint64
count_sessions_of (Fixture    *f,
                   const char *path,
                   gboolean    missing_only)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM sessions WHERE source_path = ?1%s",
                                          missing_only ? " AND source_missing = 1" : "");

  return loom_test_query_int (f->db, sql, path);
}

/* A targeted pass (the watcher's) imports only the changed files the agent's rules list, spelt
 * as discovery spells them, and marks only the sessions of those that are gone. */
static void
test_changed (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *config = g_build_filename (f->dir, "claude-config", NULL);
  g_autofree char *projects = g_build_filename (config, "projects", NULL);
  g_autofree char *project = g_build_filename (projects, "-home-ada-src-loom", NULL);
  g_autofree char *kept = g_build_filename (project, "6f2c1a9e-3b7d-4e21-9c55-0a8d2f4e7b13.jsonl",
                                            NULL);
  g_autofree char *kept_typed = g_build_filename (
    projects, ".", "-home-ada-src-loom", "..", "-home-ada-src-loom",
    "6f2c1a9e-3b7d-4e21-9c55-0a8d2f4e7b13.jsonl", NULL);
  g_autofree char *deleted = g_build_filename (project,
                                               "8e3a6c1f-5b9d-4e72-a1c8-3f0b7d2e9a64.jsonl", NULL);
  g_autofree char *unlisted = g_build_filename (project,
                                                "5a1e9c3b-7d2f-4b86-8e40-1c9f6a3d5b72.jsonl", NULL);
  g_autofree char *history = g_build_filename (project, "history.jsonl", NULL);
  g_autofree char *outside = g_build_filename (f->dir, "4b8d2e6f-1a3c-4f57-8e9b-2c6d0a4f8e31.jsonl",
                                               NULL);
  g_autofree char *contents = NULL;
  const char      *changed[] = { kept_typed, deleted, history, outside, NULL };
  LoomImportOptions options = { NULL, NULL, changed };
  const char       *one_path[] = { project, NULL };
  LoomImportOptions both = { NULL, one_path, changed };
  g_autoptr (GError) error = NULL;
  gint64 deleted_sessions, sessions;
  guint  whole_files;

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *path = fixture_path (folders[i]);

      copy_tree (path, projects);
    }
  g_setenv ("CLAUDE_CONFIG_DIR", config, TRUE);
  loom_test_store_import_paths (f, NULL, NULL);
  whole_files = f->stats->files_seen;
  g_assert_cmpuint (whole_files, >, 3);
  sessions = loom_test_count_rows (f->db, "sessions");
  deleted_sessions = count_sessions_of (f, deleted, FALSE);
  g_assert_cmpint (deleted_sessions, >=, 1);

  /* A file Claude Code does not write sessions to, though its records look like theirs. */
  g_file_get_contents (kept, &contents, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (history, contents, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (outside, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_remove (deleted), ==, 0);
  g_assert_cmpint (g_remove (unlisted), ==, 0);

  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_import_stats_new ();
  g_assert_true (loom_import_run (f->store, &options, NULL, NULL, NULL, f->stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->stats->files_seen, ==, 1);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 1); /* its cursor, under its own spelling */
  g_assert_cmpuint (f->stats->sessions_missing, ==, deleted_sessions);
  g_assert_cmpint (count_sessions_of (f, deleted, TRUE), ==, deleted_sessions);
  g_assert_cmpint (count_sessions_of (f, unlisted, TRUE), ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->db, "sessions"), ==, sessions);

  /* A whole pass finds the rest. */
  loom_test_store_import_paths (f, NULL, NULL);
  g_assert_cmpuint (f->stats->files_seen, ==, whole_files - 2);
  g_assert_cmpuint (f->stats->sessions_missing, ==, count_sessions_of (f, unlisted, FALSE));

  /* Changed files belong to the agents' own folders. */
  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_import_stats_new ();
  g_assert_false (loom_import_run (f->store, &both, NULL, NULL, NULL, f->stats, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_unsetenv ("CLAUDE_CONFIG_DIR");
}

/* A \u0000 escape in a prompt or a tool's output (a binary file shown by cat) does not cut the
 * text at it: the message, the event and the stored payload keep everything after it, with
 * U+FFFD where the NUL was. */
static void
test_nul_escape (Fixture      *f,
                 gconstpointer data)
{
#define NUL_SID "7a3e9c1d-2b4f-4e68-9a0c-5d1f3b7e2a96"
#define NUL_ENVELOPE \
  "\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"/home/ada/src/tide\"," \
  "\"sessionId\":\"" NUL_SID "\",\"version\":\"2.1.81\",\"gitBranch\":\"main\"," \
  "\"entrypoint\":\"cli\""
#define REPLACEMENT "\xef\xbf\xbd"
  static const char lines[] =
    "{\"parentUuid\":null," NUL_ENVELOPE ",\"type\":\"user\",\"message\":{\"role\":\"user\","
    "\"content\":\"Show me the header bytes\\u0000 of file\"},"
    "\"uuid\":\"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\",\"timestamp\":\"2026-03-05T12:00:00.000Z\","
    "\"permissionMode\":\"default\"}\n"
    "{\"parentUuid\":\"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\"," NUL_ENVELOPE ","
    "\"message\":{\"model\":\"claude-opus-4-6\",\"id\":\"msg_01Nn1uU2lL3bB4yY5tT6eE7s\","
    "\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\","
    "\"id\":\"toolu_01Nu1lL2bB3yY4tT5eE6sS7x\",\"name\":\"Bash\",\"input\":{\"command\":"
    "\"head -c 24 build/tide\",\"description\":\"Show the header bytes\"}}],"
    "\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,"
    "\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":40}},"
    "\"requestId\":\"req_011NuLbYtEsAfTeRnUlL01\",\"type\":\"assistant\","
    "\"uuid\":\"1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e\","
    "\"timestamp\":\"2026-03-05T12:00:02.000Z\"}\n"
    "{\"parentUuid\":\"1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e\"," NUL_ENVELOPE ",\"type\":\"user\","
    "\"message\":{\"role\":\"user\",\"content\":["
    "{\"tool_use_id\":\"toolu_01Nu1lL2bB3yY4tT5eE6sS7x\","
    "\"type\":\"tool_result\",\"content\":"
    "\"\\u007fELF\\u0002\\u0001\\u0001\\u0000\\u0000\\u0000TAIL-AFTER-NUL\","
    "\"is_error\":false}]},\"uuid\":\"2c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f\","
    "\"timestamp\":\"2026-03-05T12:00:03.000Z\",\"toolUseResult\":{\"stdout\":"
    "\"\\u007fELF\\u0002\\u0001\\u0001\\u0000\\u0000\\u0000TAIL-AFTER-NUL\",\"stderr\":\"\","
    "\"interrupted\":false,\"isImage\":false},"
    "\"sourceToolAssistantUUID\":\"1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e\"}\n";
  g_autofree char *folder = g_build_filename (f->dir, "projects", "-home-ada-src-tide", NULL);
  g_autofree char *path = g_build_filename (folder, NUL_SID ".jsonl", NULL);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GListModel) timeline = NULL;
  g_autoptr (GError) error = NULL;
  gboolean saw_prompt = FALSE, saw_result = FALSE;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, lines, -1, &error);
  g_assert_no_error (error);

  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  g_assert_cmpuint (f->stats->warnings->len, ==, 0);
  session = find_session (f, NUL_SID);
  g_assert_nonnull (session);
  timeline = loom_store_list_timeline (f->store, loom_session_get_uuid (session), 0, 0, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      if (d->is_message && g_strcmp0 (d->role, "user") == 0)
        {
          g_assert_cmpstr (d->text, ==, "Show me the header bytes" REPLACEMENT " of file");
          saw_prompt = TRUE;
        }
      else if (!d->is_message && g_strcmp0 (d->kind, "tool_result") == 0)
        {
          g_autofree char *payload = loom_store_get_event_payload (f->store, d->id, &error);
          g_autoptr (JsonParser) parser = json_parser_new ();

          g_assert_no_error (error);
          g_assert_cmpstr (d->tool_name, ==, "Bash");
          g_assert_nonnull (strstr (d->text, "ELF"));
          g_assert_nonnull (strstr (d->text, REPLACEMENT REPLACEMENT REPLACEMENT "TAIL-AFTER-NUL"));
          g_assert_nonnull (payload);
          g_assert_nonnull (strstr (payload, REPLACEMENT REPLACEMENT REPLACEMENT "TAIL-AFTER-NUL"));
          /* The payload is still JSON, and reads back with the whole text. */
          json_parser_load_from_data (parser, payload, -1, &error);
          g_assert_no_error (error);
          g_assert_cmpint (d->payload_size, ==, (gint64)strlen (payload));
          saw_result = TRUE;
        }
    }
  g_assert_true (saw_prompt);
  g_assert_true (saw_result);
  loom_test_assert_index_in_sync (f->db);
#undef REPLACEMENT
#undef NUL_ENVELOPE
#undef NUL_SID
}

/* A summary appended in a later pass whose leaf is a record an earlier pass read names the
 * session, as it does when the whole file is read at once; whitespace in the records (a file
 * written by other tools) does not hide the leaf. */
static void
test_summary_of_earlier_record (Fixture      *f,
                                gconstpointer data)
{
#define SUM_SID "5e8c2a71-9d3b-4f06-b1e4-7a2c9d5f3e81"
#define SUM_ENVELOPE \
  "\"isSidechain\": false, \"userType\": \"external\", \"cwd\": \"/home/ada/src/tide\", " \
  "\"sessionId\": \"" SUM_SID "\", \"version\": \"1.0.98\", \"gitBranch\": \"main\""
  static const char conversation[] =
    "{\"parentUuid\": null, " SUM_ENVELOPE ", \"type\": \"user\", \"message\": {\"role\": "
    "\"user\", \"content\": \"Investigate slow startup\"}, \"uuid\": "
    "\"a1000000-0000-4000-8000-000000000001\", \"timestamp\": \"2026-03-05T12:00:00.000Z\"}\n"
    "{\"parentUuid\": \"a1000000-0000-4000-8000-000000000001\", " SUM_ENVELOPE ", \"type\": "
    "\"assistant\", \"message\": {\"model\": \"claude-opus-4-6\", \"id\": \"msg_sum1\", "
    "\"type\": \"message\", \"role\": \"assistant\", \"content\": [{\"type\": \"text\", "
    "\"text\": \"Fonts load first.\"}], \"usage\": {\"input_tokens\": 3, \"output_tokens\": 5}}, "
    "\"uuid\": \"a1000000-0000-4000-8000-000000000002\", "
    "\"timestamp\": \"2026-03-05T12:00:02.000Z\"}\n"
    "{\"parentUuid\": \"a1000000-0000-4000-8000-000000000002\", " SUM_ENVELOPE ", \"type\": "
    "\"user\", \"message\": {\"role\": \"user\", \"content\": \"And the icons?\"}, \"uuid\": "
    "\"a1000000-0000-4000-8000-000000000003\", \"timestamp\": \"2026-03-05T12:00:05.000Z\"}\n";
  static const char summary[] =
    "{\"type\": \"summary\", \"summary\": \"Startup performance investigation\", "
    "\"leafUuid\": \"a1000000-0000-4000-8000-000000000002\"}\n";
  g_autofree char *folder = g_build_filename (f->dir, "projects", "-home-ada-src-tide", NULL);
  g_autofree char *path = g_build_filename (folder, SUM_SID ".jsonl", NULL);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  FILE *out;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (path, conversation, -1, &error);
  g_assert_no_error (error);
  loom_test_store_import_path (f, "claude-code", path);
  session = find_session (f, SUM_SID);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Investigate slow startup - 2026-03-05");
  g_clear_object (&session);

  out = fopen (path, "a");
  g_assert_nonnull (out);
  g_assert_cmpint (fputs (summary, out), >=, 0);
  g_assert_cmpint (fclose (out), ==, 0);
  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpuint (f->stats->files_imported, ==, 1);
  session = find_session (f, SUM_SID);
  g_assert_cmpstr (loom_session_get_title (session), ==,
                   "Startup performance investigation - 2026-03-05");
  g_clear_object (&session);

  /* A leaf the file names only as a record's parent (resumed from another session) is not a
   * record of the file: that summary is another session's. */
  open_store (f);
  {
    g_autofree char *resumed = g_strconcat (
      conversation,
      "{\"parentUuid\": \"c3000000-0000-4000-8000-000000000007\", " SUM_ENVELOPE ", \"type\": "
      "\"user\", \"message\": {\"role\": \"user\", \"content\": \"Carry on\"}, \"uuid\": "
      "\"a1000000-0000-4000-8000-000000000004\", \"timestamp\": \"2026-03-05T12:01:00.000Z\"}\n",
      NULL);

    g_file_set_contents (path, resumed, -1, &error);
    g_assert_no_error (error);
  }
  loom_test_store_import_path (f, "claude-code", path);
  out = fopen (path, "a");
  g_assert_nonnull (out);
  g_assert_cmpint (fputs ("{\"type\": \"summary\", \"summary\": \"Someone else's session\", "
                          "\"leafUuid\": \"c3000000-0000-4000-8000-000000000007\"}\n",
                          out),
                   >=, 0);
  g_assert_cmpint (fclose (out), ==, 0);
  loom_test_store_import_path (f, "claude-code", path);
  session = find_session (f, SUM_SID);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Investigate slow startup - 2026-03-05");
#undef SUM_ENVELOPE
#undef SUM_SID
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  g_test_add ("/import/claude/fixtures", Fixture, &claude_root, loom_test_store_set_up,
              test_fixtures, loom_test_store_tear_down);
  g_test_add ("/import/claude/detection", Fixture, &claude_root, loom_test_store_set_up,
              test_detection, loom_test_store_tear_down);
  g_test_add ("/import/claude/twice", Fixture, NULL, loom_test_store_set_up, test_twice,
              loom_test_store_tear_down);
  g_test_add ("/import/claude/legacy-cursor", Fixture, NULL, loom_test_store_set_up,
              test_legacy_cursor, loom_test_store_tear_down);
  g_test_add ("/import/claude/parent-after-child", Fixture, NULL, loom_test_store_set_up,
              test_parent_after_child, loom_test_store_tear_down);
  g_test_add ("/import/claude/project-dates", Fixture, NULL, loom_test_store_set_up,
              test_project_dates, loom_test_store_tear_down);
  g_test_add ("/import/claude/default-root", Fixture, NULL, loom_test_store_set_up,
              test_default_root, loom_test_store_tear_down);
  g_test_add ("/import/claude/incremental", Fixture, &claude_root, loom_test_store_set_up,
              test_incremental, loom_test_store_tear_down);
  g_test_add ("/import/claude/streamed-timeline", Fixture, NULL, loom_test_store_set_up,
              test_streamed_timeline, loom_test_store_tear_down);
  g_test_add ("/import/claude/typed-beside-result", Fixture, NULL, loom_test_store_set_up,
              test_typed_beside_result, loom_test_store_tear_down);
  g_test_add ("/import/claude/claims", Fixture, NULL, loom_test_store_set_up, test_claims,
              loom_test_store_tear_down);
  g_test_add ("/import/claude/changed", Fixture, NULL, loom_test_store_set_up, test_changed,
              loom_test_store_tear_down);
  g_test_add ("/import/claude/nul-escape", Fixture, NULL, loom_test_store_set_up, test_nul_escape,
              loom_test_store_tear_down);
  g_test_add ("/import/claude/summary-of-earlier-record", Fixture, NULL, loom_test_store_set_up,
              test_summary_of_earlier_record, loom_test_store_tear_down);
  g_test_add ("/import/claude/variants/fixtures", Fixture, &variants_root, loom_test_store_set_up,
              test_fixtures, loom_test_store_tear_down);
  g_test_add ("/import/claude/variants/detection", Fixture, &variants_root, loom_test_store_set_up,
              test_detection, loom_test_store_tear_down);
  g_test_add ("/import/claude/variants/incremental", Fixture, &variants_root,
              loom_test_store_set_up, test_incremental, loom_test_store_tear_down);

  return g_test_run ();
}
