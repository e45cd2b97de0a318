/* loom-search-marks.h — where a text says the words of a search, as the search means them.
 *
 * What counts as a match is the index's to say, as it says it in the snippets of the search
 * results: the text is read with the index's own tokenizer, so that "cafe" marks "Café",
 * "config" the middle of "loadConfig", and one Chinese character the same character in a
 * sentence. No store and no connection is needed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LoomSearchMarks LoomSearchMarks;

/* @words: what was searched for, as typed (a word, a phrase, an identifier); @prefix[i]: the
 * last token of words[i] may begin a longer one. NULL with @error set should the index's
 * tokenizer be missing, which a search would have found first. */
LoomSearchMarks *loom_search_marks_new (const char *const *words,
                                        const gboolean    *prefix,
                                        guint              n_words,
                                        GError           **error);
void             loom_search_marks_free (LoomSearchMarks *self);

/* Where @text says a searched word: pairs of byte offsets (guint), start and end, in order. */
GArray *loom_search_marks_find (LoomSearchMarks *self,
                                const char      *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSearchMarks, loom_search_marks_free)

G_END_DECLS
