/* loom-importer-claude-private.h — what the Claude Code importer's files share: the names its
 * session files go by, and the finding and recognising of files that the importer's table
 * (loom-importer-claude.c) points to.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-importer.h"

G_BEGIN_DECLS

/* A sub-agent's own transcript (F1.5), which both the import and discovery tell apart. */
static inline gboolean
is_agent_file_name (const char *name)
{
  return g_str_has_prefix (name, "agent-") && g_str_has_suffix (name, ".jsonl");
}

/* loom-importer-claude-discovery.c */
char   **loom_claude_default_roots (void);
void     loom_claude_discover (const char *root,
                               GPtrArray  *files);
gboolean loom_claude_claims (const char *root,
                             const char *path);
gboolean loom_claude_detect (const char *path,
                             const char *head,
                             gsize       head_len);

G_END_DECLS
