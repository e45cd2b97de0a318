/* loom-search-tokenizer.h — the full-text tokenizer of the search index.
 *
 * unicode61 with diacritics folded, plus what people search their agent history for: text
 * without spaces (Chinese, Japanese, Korean) becomes one token per character, so any substring
 * is found as a phrase; and camelCase identifiers are also indexed by their parts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

#define LOOM_SEARCH_TOKENIZER "loom"

/* Registers the tokenizer on a connection; every connection that reads or writes the search
 * index needs it. */
gboolean loom_search_tokenizer_register (sqlite3  *db,
                                         GError  **error);

G_END_DECLS
