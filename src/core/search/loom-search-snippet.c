/* loom-search-snippet.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-snippet.h"
#include "loom-search-tokenizer.h"
#include "loom-search.h"

typedef struct
{
  char    *text;
  gboolean prefix;
} Wanted;

struct _LoomSnippetMaker
{
  fts5_tokenizer api;
  Fts5Tokenizer *tokenizer;
  GArray        *wanted; /* Wanted: the searched words' tokens */
};

typedef struct
{
  int      start;
  int      end;
  gboolean matched;
} Token;

typedef struct
{
  LoomSnippetMaker *self;
  GArray           *tokens; /* Token, or Wanted while the words are read */
  gboolean          prefix;
  guint             enough; /* tokens wanted after the first mark; 0: all */
  guint             first_mark;
  gboolean          stopped; /* the text goes on after the last token */
} Collect;

static void
wanted_clear (gpointer data)
{
  g_free (((Wanted *)data)->text);
}

static int
on_query_token (void       *user_data,
                int         flags,
                const char *token,
                int         length,
                int         start,
                int         end)
{
  Collect *collect = user_data;
  Wanted   wanted = { g_strndup (token, (gsize)length), FALSE };

  g_array_append_val (collect->tokens, wanted);
  return SQLITE_OK;
}

static gboolean
token_is_wanted (LoomSnippetMaker *self,
                 const char       *token,
                 int               length)
{
  for (guint i = 0; i < self->wanted->len; i++)
    {
      const Wanted *wanted = &g_array_index (self->wanted, Wanted, i);
      size_t        wanted_length = strlen (wanted->text);

      if (wanted->prefix ? wanted_length <= (size_t)length : wanted_length == (size_t)length)
        if (memcmp (wanted->text, token, wanted_length) == 0)
          return TRUE;
    }
  return FALSE;
}

static int
on_document_token (void       *user_data,
                   int         flags,
                   const char *token,
                   int         length,
                   int         start,
                   int         end)
{
  Collect *collect = user_data;
  gboolean matched = token_is_wanted (collect->self, token, length);

  /* A camelCase part shares its word's place: it marks the word. */
  if ((flags & FTS5_TOKEN_COLOCATED) && collect->tokens->len > 0)
    {
      Token *last = &g_array_index (collect->tokens, Token, collect->tokens->len - 1);

      if (matched && !last->matched && collect->first_mark == G_MAXUINT)
        collect->first_mark = collect->tokens->len - 1;
      last->matched |= matched;
      return SQLITE_OK;
    }

  /* A window's worth of tokens after the first mark is enough: a tool's output can be 64 KiB,
   * and tokenizing all of it for each hit of a page took longer than finding the hits. */
  if (collect->enough > 0 && collect->first_mark != G_MAXUINT &&
      collect->tokens->len >= collect->first_mark + collect->enough)
    {
      collect->stopped = TRUE;
      return SQLITE_DONE;
    }
  if (matched && collect->first_mark == G_MAXUINT)
    collect->first_mark = collect->tokens->len;
  g_array_append_val (collect->tokens, ((Token){ start, end, matched }));
  return SQLITE_OK;
}

LoomSnippetMaker *
loom_snippet_maker_new (const char *const *words,
                        const gboolean    *prefix,
                        guint              n_words,
                        GError           **error)
{
  g_autoptr (LoomSnippetMaker) self = g_new0 (LoomSnippetMaker, 1);
  void *user_data = NULL;

  self->wanted = g_array_new (FALSE, TRUE, sizeof (Wanted));
  g_array_set_clear_func (self->wanted, wanted_clear);

  if (!loom_search_tokenizer_get (&self->api, &user_data, error))
    return NULL;
  if (self->api.xCreate (user_data, NULL, 0, &self->tokenizer) != SQLITE_OK)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "The search index's tokenizer is not available");
      return NULL;
    }

  for (guint i = 0; i < n_words; i++)
    {
      Collect collect = { self, self->wanted, prefix[i], 0, G_MAXUINT, FALSE };
      guint   before = self->wanted->len;

      self->api.xTokenize (self->tokenizer, &collect, FTS5_TOKENIZE_QUERY, words[i],
                           (int)strlen (words[i]), on_query_token);
      if (prefix[i] && self->wanted->len > before)
        g_array_index (self->wanted, Wanted, self->wanted->len - 1).prefix = TRUE;
    }
  return g_steal_pointer (&self);
}

void
loom_snippet_maker_free (LoomSnippetMaker *self)
{
  if (self == NULL)
    return;
  if (self->tokenizer != NULL)
    self->api.xDelete (self->tokenizer);
  g_clear_pointer (&self->wanted, g_array_unref);
  g_free (self);
}

/* The first window of @n tokens with the most marked ones. */
static guint
best_window (GArray *tokens,
             guint   n)
{
  guint best = 0, best_count = 0, count = 0;

  for (guint i = 0; i < tokens->len; i++)
    {
      if (g_array_index (tokens, Token, i).matched)
        count++;
      if (i >= n && g_array_index (tokens, Token, i - n).matched)
        count--;
      if (count > best_count)
        {
          best_count = count;
          best = i + 1 > n ? i + 1 - n : 0;
        }
    }
  /* Some words before the first mark, for context. */
  if (best_count > 0 && best > 0)
    {
      guint lead = MIN (best, n / 4);
      guint first = best;

      while (first < tokens->len && !g_array_index (tokens, Token, first).matched)
        first++;
      if (first - best < lead)
        best -= lead - (first - best);
    }
  return best;
}

char *
loom_snippet_maker_make (LoomSnippetMaker *self,
                         const char       *text,
                         guint             n_tokens)
{
  g_autoptr (GArray) tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  Collect  collect = { self, tokens, FALSE, MAX (n_tokens, 1), G_MAXUINT, FALSE };
  GString *snippet;
  gboolean marking = FALSE;
  guint    first, last;
  int      from, to;

  g_return_val_if_fail (self != NULL, NULL);

  if (text == NULL)
    return g_strdup ("");
  self->api.xTokenize (self->tokenizer, &collect, FTS5_TOKENIZE_DOCUMENT, text, (int)strlen (text),
                       on_document_token);
  if (tokens->len == 0)
    return g_strdup ("");

  n_tokens = MAX (n_tokens, 1);
  first = best_window (tokens, n_tokens);
  last = MIN (first + n_tokens, tokens->len) - 1;

  snippet = g_string_new (NULL);
  from = first == 0 ? 0 : g_array_index (tokens, Token, first).start;
  to = last + 1 == tokens->len && !collect.stopped ? (int)strlen (text)
                                                   : g_array_index (tokens, Token, last).end;
  if (first > 0)
    g_string_append (snippet, "…");
  for (guint i = first; i <= last; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);
      /* Marked characters of text without spaces make one mark, not one each. */
      gboolean     continues = marking && token->matched && token->start == from;

      if (marking && !continues)
        g_string_append (snippet, LOOM_SEARCH_MARK_END);
      g_string_append_len (snippet, text + from, token->start - from);
      if (token->matched && !continues)
        g_string_append (snippet, LOOM_SEARCH_MARK_START);
      g_string_append_len (snippet, text + token->start, token->end - token->start);
      marking = token->matched;
      from = token->end;
    }
  if (marking)
    g_string_append (snippet, LOOM_SEARCH_MARK_END);
  g_string_append_len (snippet, text + from, to - from);
  if (last + 1 < tokens->len || collect.stopped)
    g_string_append (snippet, "…");
  return g_string_free (snippet, FALSE);
}
