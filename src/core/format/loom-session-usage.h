/* loom-session-usage.h — what a session used, its models and its tools, as typed values.
 *
 * The store keeps both as JSON text in the session's row (LoomSessionRecord's models_json and
 * tools_used_json); these read that text with core's parser, so that no front end parses a
 * stored column itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-session.h"

G_BEGIN_DECLS

/* One tool a session called and how many times. */
typedef struct
{
  char  *name;
  gint64 n_calls;
} LoomToolUse;

/* The models the session used: the strings of its models array, in their order (other values
 * skipped). Empty, never NULL, when it has none or its stored text is not a JSON array. */
GStrv loom_session_usage_models (LoomSession *session);

/* The tools the session called, as LoomToolUse values that the array owns: each name once,
 * the most called first, ties in name order. A count that is not an integer reads as
 * json-glib read it: a double truncated, a boolean 0 or 1, anything else 0. Empty, never
 * NULL, when it has none or its stored text is not a JSON object. */
GArray *loom_session_usage_tools (LoomSession *session);

G_END_DECLS
