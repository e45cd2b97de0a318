/* loom-store-search.h — the rows a search reads, for search/ (loom-search.c) to rank and cut
 * snippets from. Inside core only.
 *
 * search/ reads the query, builds the FTS5 expression and the filters' conditions, weighs the
 * hits and marks their words; every statement on the store's tables is run here. The rowid
 * layout of the index is loom-search-index.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "loom-store.h"

G_BEGIN_DECLS

/* A value the filters' conditions bind, in order, after the words. */
typedef struct
{
  gboolean    is_text;
  const char *text;
  gint64      number;
} LoomStoreSearchParam;

/* What a search reads: an entry is x (search_entries) and its words i (search_index) when the
 * search has words; the conditions may read the entry's message m or event e, and when
 * @by_session its session s, project p and folder f. */
typedef struct
{
  const char                 *match; /* the FTS5 expression, or NULL: no words */
  const char                 *where; /* " AND …" conditions */
  const LoomStoreSearchParam *params;
  guint                       n_params;
  gboolean                    in_trash; /* across all history: the Trash alone */
  gboolean                    by_session;
  double                      title_weight; /* loom_rank's weight of a title's words */
} LoomStoreSearchFilter;

/* Entries with rowids from @from to @to, inclusive; the @limit newest of them, -1 all. */
typedef struct
{
  gint64 from;
  gint64 to;
  gint64 limit;
} LoomStoreSearchRange;

/* A hit before it is ranked against the others: only what ranking and the filters need. */
typedef struct
{
  gint64      rowid;
  const char *kind; /* interned: "title", "message:user", "event:tool_call", … */
  gint64      at;
  double      score; /* loom_rank's relevance (0 without words); search/ weighs it */
  gint64      seq;   /* within a session only */
} LoomStoreSearchCandidate;

/* Has the connection read the file through a memory map: a search reads pages all over the
 * index, and one the kernel has cached then costs no system call and no copy — most of a first
 * search's time. Only connections that search: mapped pages count in the process's resident
 * memory, which an import would fill with the whole store. */
void loom_store_map_for_searching (LoomStore *self);

/* The row id of the session a uuid or unambiguous prefix names, or 0 with @error set. */
gint64 loom_store_search_find_session (LoomStore  *self,
                                       const char *id,
                                       GError    **error);

/* The rowids a session's entries can have, by kind (events, messages, its title). */
gboolean loom_store_search_session_ranges (LoomStore            *self,
                                           gint64                session_rowid,
                                           LoomStoreSearchRange *ranges,
                                           GError              **error);

/* Appends to @candidates (LoomStoreSearchCandidate) every hit of each of @ranges[3] within
 * one session. */
gboolean loom_store_search_read_ranges (LoomStore                   *self,
                                        const LoomStoreSearchFilter *filter,
                                        gint64                       session_rowid,
                                        const LoomStoreSearchRange  *ranges,
                                        GArray                      *candidates,
                                        GError                     **error);

/* Across all history: the newest hits of each of @ranges[3], in one scan from the top. */
gboolean loom_store_search_read_newest (LoomStore                   *self,
                                        const LoomStoreSearchFilter *filter,
                                        const LoomStoreSearchRange  *ranges,
                                        GArray                      *candidates,
                                        GError                     **error);

/* The same for a match FTS5 answers slowly for each statement (a prefix it expands itself):
 * the words are matched once, and the hits kept are read one by one after. */
gboolean loom_store_search_read_in_one_scan (LoomStore                   *self,
                                             const LoomStoreSearchFilter *filter,
                                             const LoomStoreSearchRange  *ranges,
                                             GArray                      *candidates,
                                             GError                     **error);

/* What a hit of the page shows beyond its candidate; the strings are owned. */
typedef struct
{
  gboolean found;
  char    *uuid;
  char    *title;
  char    *source;
  gint64   seq;
  char    *tool;
  char    *text; /* what the entry indexes, with @with_text; else NULL */
} LoomStoreSearchRow;

/* Reads the row of the entry @rowid; not @found, all NULL and 0, when it is gone. */
void loom_store_search_read_row (LoomStore          *self,
                                 gint64              rowid,
                                 gboolean            with_text,
                                 LoomStoreSearchRow *row);
void loom_store_search_row_clear (LoomStoreSearchRow *row);

/* The indexed terms that start with @prefix (a token, as the tokenizer reads a query) and are
 * not found through a first part already (loom-search-terms.h): at most @limit. */
GPtrArray *loom_store_search_terms_from (LoomStore  *self,
                                         const char *prefix,
                                         guint       limit,
                                         GError    **error);

/* Gives the next term to note in *@term (NUL-terminated) and its head in *@head; FALSE once
 * there is none left. */
typedef gboolean (*LoomStoreNextTerm) (gpointer     data,
                                       const char **term,
                                       int         *head);

/* Writes the terms @next gives into search_terms on @db (a store's connection, in the
 * transaction that indexed them), each with the smallest head seen. */
gboolean loom_store_write_search_terms (sqlite3          *db,
                                        LoomStoreNextTerm next,
                                        gpointer          data,
                                        GError          **error);

G_END_DECLS
