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
  gboolean  is_text;
  char     *text;
  gint64    number;
} LoomSearchParam;

struct _LoomSearchQuery
{
  char      *match;
  GString   *where;      /* " AND …" conditions */
  GArray    *params;     /* LoomSearchParam, bound after the match */
  gboolean   in_trash;
  GString   *facets;     /* FTS5 terms the filters need in the facets column, AND-ed */
  GPtrArray *marked;     /* the words to mark in snippets (not the excluded ones) */
  GArray    *marked_prefix;   /* gboolean: marked[i] is a prefix */
};

G_END_DECLS
