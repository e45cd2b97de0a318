/* loom-search-query-text.h — reading a query's text: its filters, edited, and its words.
 *
 * The filter popover edits the query as text, so that the entry stays the one place that says
 * what is searched for; the timeline marks the query's words in what it shows. These read the
 * text the way the core's parser does (loom-search.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The value of the last "@key:value" in @text, unquoted, or NULL. */
char  *loom_search_query_text_get_filter (const char  *text,
                                          const char  *key);
/* @text with "@key:@value" in place of its "@key:…" filters (the first keeps its place, any
 * other goes), or added at the end; a NULL @value takes the filter out. */
char  *loom_search_query_text_set_filter (const char  *text,
                                          const char  *key,
                                          const char  *value);
/* The words and phrases of @text that hits are found by, unquoted, as the core's parser reads
 * them (loom_search_query_get_words): not the filters, the -exclusions or OR. A word typed as
 * "pars*" comes without its star, with TRUE at its index in @prefix (gboolean). NULL when
 * there is none or the query is refused. */
GStrv  loom_search_query_text_get_words  (const char  *text,
                                          GArray     **prefix);

G_END_DECLS
