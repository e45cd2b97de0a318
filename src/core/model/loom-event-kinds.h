/* loom-event-kinds.h — the words the store keeps for what a session holds: the kinds of event
 * and the flags of a message.
 *
 * The importers write them, the store's schema and the search's filters read them back, and the
 * app shows them: they are values of the model, so they live at the bottom where every layer can
 * see them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Message flags: kept and shown, but not a person's prompt. */
typedef enum
{
  LOOM_MESSAGE_INJECTED = 1 << 0,        /* context the harness added: AGENTS.md, environment */
  LOOM_MESSAGE_META = 1 << 1,            /* Claude isMeta: caveats, expanded slash commands */
  LOOM_MESSAGE_COMPACT_SUMMARY = 1 << 2, /* the summary that continues a compacted session */
  LOOM_MESSAGE_COMMAND = 1 << 3,         /* slash-command XML and local command output */
  LOOM_MESSAGE_API_ERROR = 1 << 4,       /* a synthetic assistant message reporting an error */
} LoomMessageFlags;

#define LOOM_MESSAGE_NOT_A_PROMPT \
  (LOOM_MESSAGE_INJECTED | LOOM_MESSAGE_META | LOOM_MESSAGE_COMPACT_SUMMARY | \
   LOOM_MESSAGE_COMMAND | LOOM_MESSAGE_API_ERROR)

/* Event kinds, as stored. */
#define LOOM_EVENT_TOOL_CALL   "tool_call"
#define LOOM_EVENT_TOOL_RESULT "tool_result"
#define LOOM_EVENT_REASONING   "reasoning"
#define LOOM_EVENT_FILE_CHANGE "file_change"
#define LOOM_EVENT_COMPACTION  "compaction"
#define LOOM_EVENT_LIFECYCLE   "lifecycle"
#define LOOM_EVENT_API_ERROR   "api_error"
#define LOOM_EVENT_SUBAGENT    "subagent"
#define LOOM_EVENT_RAW         "raw" /* a record we do not understand, kept whole */

G_END_DECLS
