/* loom-search-tokenizer.h — the full-text tokenizer of the search index.
 *
 * unicode61 with diacritics folded, plus what people search their agent history for: text
 * without spaces (Chinese, Japanese, Korean) becomes one token per character, so any substring
 * is found as a phrase; and camelCase identifiers and numbered names ("parser1073") are also
 * indexed by their parts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

#include "loom-search-index.h"
#include "loom-search-terms.h"

G_BEGIN_DECLS

#define LOOM_SEARCH_TOKENIZER LOOM_INDEX_TOKENIZER

/* Registers the tokenizer on a connection; every connection that reads or writes the search
 * index needs it. */
gboolean loom_search_tokenizer_register (sqlite3 *db,
                                         GError **error);

/* Registers it so that it notes every term it indexes (loom-search-terms.h). The log belongs
 * to the connection and goes when it closes. */
LoomSearchTermLog *loom_search_tokenizer_register_logged (sqlite3 *db,
                                                          GError **error);

/* The tokenizer as FTS5 would hand it out (fts5_api.xFindTokenizer), with no connection of the
 * caller's: for reading a query's words and marking them in a text. It notes no terms. It
 * lives as long as the process. */
gboolean loom_search_tokenizer_get (fts5_tokenizer *tokenizer,
                                    void          **user_data,
                                    GError        **error);

/* The connection's FTS5 interface (declared in sqlite3.h), or NULL without FTS5. */
fts5_api *loom_search_get_fts5_api (sqlite3 *db);

G_END_DECLS
