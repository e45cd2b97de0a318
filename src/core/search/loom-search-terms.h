/* loom-search-terms.h — the words of the search index, for prefix queries.
 *
 * FTS5 answers pars* by merging the lists of every term that starts so, whole, before the
 * first hit — 50 to 80 ms on a 1.5 GB history, where its four common terms alone, OR-ed, give
 * the newest hits in a fraction of a millisecond (FTS5 reads an OR lazily). FTS5 has no cheap
 * way to list its terms (fts5vocab counts every term's documents), so the store keeps them in
 * search_terms, and a prefix becomes the OR of its terms.
 *
 * The index's tokenizer logs each term it gives FTS5 while indexing on a store's connection;
 * the store writes the log into search_terms inside the transaction that indexed the terms
 * (loom_store_commit) or right after an autocommitted write. search_terms may hold terms the
 * index no longer has — harmless in an OR — but never lacks one it has (the tests check).
 *
 * A camelCase or numbered word is indexed whole and by its parts (loom-search-tokenizer.c):
 * its entry records the length of its first part ("head"), because a prefix no longer than
 * that part finds the word's entries through the part already and needs no term of its own:
 * the 990 terms of pars* on the bench corpus are mostly parser1073-like names; parse and
 * parser find them all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "loom-store.h"

G_BEGIN_DECLS

typedef struct _LoomSearchTermLog LoomSearchTermLog;

LoomSearchTermLog *loom_search_term_log_new (void);
void               loom_search_term_log_free (LoomSearchTermLog *self);

/* Notes @term (not NUL-terminated); @head is its first part's length for a camelCase or
 * numbered word indexed whole, else 0. */
void loom_search_term_log_add (LoomSearchTermLog *self,
                               const char        *term,
                               int                length,
                               int                head);

/* Writes the terms noted since the last flush into search_terms on @db, a store's connection
 * (loom_store_write_search_terms ()), and forgets them; a flush that fails keeps them. */
gboolean loom_search_term_log_flush (LoomSearchTermLog *self,
                                     sqlite3           *db,
                                     GError           **error);

/* The indexed terms that a prefix query for @word (as typed) must find, or NULL when the
 * prefix is better left to FTS5: @word is more than one token, or it has more than
 * @max_terms terms. An empty array: no term starts so. */
GPtrArray *loom_search_terms_expand (LoomStore  *store,
                                     const char *word,
                                     guint       max_terms,
                                     GError    **error);

G_END_DECLS
