/* loom-claude-lines.h — minimal Claude Code records for the framework's tests, in the shape
 * shared/FORMATS.md §1 gives (the format's own tests use fuller fixtures).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CLAUDE_SESSION "5f0c9a52-1b7e-4c55-9d0e-3a8b2f6d1c01"

/* A typed prompt (one user message). */
static inline char *
claude_user_line_in (const char *session,
                     guint       n,
                     const char *text)
{
  return g_strdup_printf ("{\"type\":\"user\",\"uuid\":\"00000000-0000-4000-8000-%012u\","
                          "\"parentUuid\":null,\"sessionId\":\"%s\","
                          "\"timestamp\":\"2026-11-20T10:%02u:00.000Z\",\"cwd\":\"/tmp/proj\","
                          "\"version\":\"2.1.81\",\"isSidechain\":false,\"userType\":\"external\","
                          "\"message\":{\"role\":\"user\",\"content\":\"%s\"}}",
                          n, session, n % 60, text);
}

/* A complete assistant reply (one API message, one text block). */
static inline char *
claude_assistant_line_in (const char *session,
                          guint       n,
                          const char *text)
{
  return g_strdup_printf ("{\"type\":\"assistant\",\"uuid\":\"00000000-0000-4000-9000-%012u\","
                          "\"parentUuid\":null,\"sessionId\":\"%s\","
                          "\"timestamp\":\"2026-11-20T10:%02u:30.000Z\",\"cwd\":\"/tmp/proj\","
                          "\"version\":\"2.1.81\",\"isSidechain\":false,\"userType\":\"external\","
                          "\"requestId\":\"req_%u\",\"message\":{\"model\":\"claude-sonnet-4-5\","
                          "\"id\":\"msg_%u\",\"type\":\"message\",\"role\":\"assistant\","
                          "\"content\":[{\"type\":\"text\",\"text\":\"%s\"}],"
                          "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":10,"
                          "\"output_tokens\":5,\"cache_read_input_tokens\":0,"
                          "\"cache_creation_input_tokens\":0}}}",
                          n, session, n % 60, n, n, text);
}

#define claude_user_line(n, text)      claude_user_line_in (CLAUDE_SESSION, (n), (text))
#define claude_assistant_line(n, text) claude_assistant_line_in (CLAUDE_SESSION, (n), (text))

G_END_DECLS
