/* loom-search-format.h — search hits in words a person reads: snippets and kinds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-search.h"

G_BEGIN_DECLS

/* Pango markup of a hit's snippet: the matches in bold, everything else escaped, on one line. */
char *loom_search_format_snippet_markup (const char *snippet);
/* The same as plain text, for screen readers and tooltips. */
char *loom_search_format_snippet_text (const char *snippet);
/* "Prompt", "Reply", "Tool · Bash", "Reasoning", "Title"… */
char *loom_search_format_kind (const LoomSearchHitData *data);

G_END_DECLS
