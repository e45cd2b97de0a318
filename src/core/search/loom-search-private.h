/* loom-search-private.h — a parsed query, shared by the parser (loom-search-query.c) and the
 * search itself (loom-search.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-search.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean is_text;
  char    *text;
  gint64   number;
} LoomSearchParam;

struct _LoomSearchQuery
{
  char      *match;
  GString   *where;  /* " AND …" conditions */
  GArray    *params; /* LoomSearchParam, bound after the match */
  gboolean   in_trash;
  gboolean   by_session;    /* where reads the session (s), its project (p) or folder (f) */
  GString   *facets;        /* FTS5 terms the filters need in the facets column, AND-ed */
  GPtrArray *marked;        /* the words to mark in snippets (not the excluded ones) */
  GArray    *marked_prefix; /* gboolean: marked[i] is a prefix */
  GPtrArray *terms;         /* the words as read, for loom_search_query_expand_prefixes () */
};

/* The indexed terms a prefix query for @word must find, or NULL to leave the prefix to FTS5
 * (see loom_search_terms_expand ()); NULL with @error set fails the search. */
typedef GPtrArray *(*LoomSearchExpand) (const char *word,
                                        gpointer    data,
                                        GError    **error);

/* Writes each prefix of the query as the OR of the terms @expand gives for it. @native is set
 * when a prefix is left to FTS5. */
gboolean loom_search_query_expand_prefixes (LoomSearchQuery *query,
                                            LoomSearchExpand expand,
                                            gpointer         data,
                                            gboolean        *native,
                                            GError         **error);

G_END_DECLS
