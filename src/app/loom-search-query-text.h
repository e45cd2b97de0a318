/* loom-search-query-text.h — reading and editing the filters of a query's text.
 *
 * The filter popover edits the query as text, so that the entry stays the one place that says
 * what is searched for. These read the text the way the core's parser does (loom-search.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The value of the last "@key:value" in @text, unquoted, or NULL. */
char *loom_search_query_text_get_filter (const char *text,
                                         const char *key);
/* @text with "@key:@value" in place of its "@key:…" filters (the first keeps its place, any
 * other goes), or added at the end; a NULL @value takes the filter out. */
char *loom_search_query_text_set_filter (const char *text,
                                         const char *key,
                                         const char *value);

G_END_DECLS
