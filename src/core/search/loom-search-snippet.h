/* loom-search-snippet.h — a few words of a hit around the words searched for, marked.
 *
 * FTS5's snippet() must run the whole query again for each hit, which for a prefix such as
 * pars* means merging every term that starts so — tens of milliseconds a hit. A snippet needs
 * none of that: the entry's text is tokenized with the index's own tokenizer and the tokens
 * that equal (or start with) a searched word are marked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LoomSnippetMaker LoomSnippetMaker;

/* @words: what was searched for, as typed (a word, a phrase, an identifier); @prefix[i]: the
 * last token of words[i] may begin a longer one. It needs no connection: the tokenizer is
 * loom_search_tokenizer_get ()'s. */
LoomSnippetMaker *loom_snippet_maker_new (const char *const *words,
                                          const gboolean    *prefix,
                                          guint              n_words,
                                          GError           **error);
void              loom_snippet_maker_free (LoomSnippetMaker *self);

/* About @n_tokens tokens of @text where most searched words are, each between
 * LOOM_SEARCH_MARK_START and LOOM_SEARCH_MARK_END, with "…" where the text was cut. */
char *loom_snippet_maker_make (LoomSnippetMaker *self,
                               const char       *text,
                               guint             n_tokens);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSnippetMaker, loom_snippet_maker_free)

G_END_DECLS
