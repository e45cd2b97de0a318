/* loom-search-query-text.h — a query's text as the parser reads it: its tokens, its filters
 * read and edited, and its words.
 *
 * The filter popover edits the query as text, so that the search entry stays the one place that
 * says what is searched for; the timeline marks the query's words in what it shows. Both read
 * the text with the lexer that loom_search_query_parse () reads it with (loom-search.h), so that
 * the language has one grammar. Reading never fails: a text the parser refuses (an unclosed
 * quote, invalid UTF-8) still has tokens, so that it can be edited as typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  LOOM_SEARCH_TOKEN_WORD,   /* a word as typed, "prefix*" with its star */
  LOOM_SEARCH_TOKEN_PHRASE, /* a "quoted phrase" */
  LOOM_SEARCH_TOKEN_OR,     /* OR, joining the words on each side */
  LOOM_SEARCH_TOKEN_FILTER, /* key:value or key:"a value", for a key that is a filter */
} LoomSearchTokenKind;

typedef struct
{
  LoomSearchTokenKind kind;
  gsize               start; /* the token's bytes in the text, [start, end), as typed */
  gsize               end;
  gboolean            negated;  /* -word, -"a phrase" (a filter never is) */
  gboolean            unclosed; /* its quote runs to the end: the parser refuses the text */
  char               *key;      /* a filter's key, in lower case; NULL for the others */
  char               *value;    /* a filter's value or a word's or phrase's text, unquoted */
} LoomSearchToken;

/* The tokens of @text in order, LoomSearchToken elements that the array frees. */
GArray *loom_search_query_text_tokenize (const char *text);

/* The value of the last "@key:value" in @text, unquoted, or NULL. */
char *loom_search_query_text_get_filter (const char *text,
                                         const char *key);
/* @text with "@key:@value" in place of its "@key:…" filters (the first keeps its place, any
 * other goes), or added at the end; a NULL @value takes the filter out. @value is quoted when
 * it has white space; a quote in it is dropped, as the language has no escaped quote. The other
 * tokens stay as typed, one space apart. */
char *loom_search_query_text_set_filter (const char *text,
                                         const char *key,
                                         const char *value);
/* The words and phrases of @text that hits are found by, unquoted, as the parser reads them
 * (loom_search_query_get_words): not the filters, the -exclusions or OR. A word typed as
 * "pars*" comes without its star, with TRUE at its index in @prefix (gboolean). NULL when
 * there is none or the query is refused. */
GStrv loom_search_query_text_get_words (const char *text,
                                        GArray    **prefix);

G_END_DECLS
