/* loom-search-query-text.c — the query language's lexer, and a query's text read and edited.
 *
 * A query is a row of tokens separated by white space: words, "quoted phrases", -exclusions,
 * OR, and key:value filters whose value may be quoted (project:"my app"). This file says where
 * each token begins and ends and what it holds; what the tokens mean is the parser's to say
 * (loom-search-query.c), which reads the text through these tokens. Editing keeps every other
 * token exactly as typed.
 *
 * The lexer looks only at ASCII bytes (white space, quotes, the minus, the colon), which never
 * occur inside a UTF-8 sequence: it reads any text, valid or not, and each token's bytes are
 * the text's own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-search-query-text.h"
#include "loom-search.h"

static void
token_clear (gpointer data)
{
  LoomSearchToken *token = data;

  g_free (token->key);
  g_free (token->value);
}

/* Reads the quoted text whose opening quote is at @quote into the token's value, and returns
 * where the token ends: after the closing quote, or at the end of the text when there is none. */
static const char *
read_quoted (const char      *quote,
             LoomSearchToken *token)
{
  const char *start = quote + 1;
  const char *end = strchr (start, '"');

  g_assert (*quote == '"');

  if (end == NULL)
    {
      token->unclosed = TRUE;
      token->value = g_strdup (start);
      return start + strlen (start);
    }
  token->value = g_strndup (start, end - start);
  return end + 1;
}

/* Reads "key:value" into @token when @colon, the first of the word at @key, ends a filter's
 * key, and returns where the filter ends; NULL when the word is no filter. */
static const char *
read_filter (const char      *key,
             const char      *colon,
             LoomSearchToken *token)
{
  g_autofree char *folded = g_ascii_strdown (key, colon - key);
  const char      *end;

  g_assert (*colon == ':');

  if (!loom_search_is_filter_key (folded))
    return NULL;

  token->kind = LOOM_SEARCH_TOKEN_FILTER;
  token->key = g_steal_pointer (&folded);
  /* key:"quoted value", whose closing quote may lie past white space. */
  if (colon[1] == '"')
    return read_quoted (colon + 1, token);

  for (end = colon + 1; *end != '\0' && !g_ascii_isspace (*end); end++)
    ;
  token->value = g_strndup (colon + 1, end - (colon + 1));
  return end;
}

/* Reads the token that begins at @p (not white space) and returns where it ends. */
static const char *
read_token (const char      *text,
            const char      *p,
            LoomSearchToken *token)
{
  const char *colon;
  const char *end;

  g_assert (*p != '\0' && !g_ascii_isspace (*p));

  token->start = p - text;
  if (*p == '-' && p[1] != '\0' && !g_ascii_isspace (p[1]))
    {
      token->negated = TRUE;
      p++;
    }

  if (*p == '"')
    {
      token->kind = LOOM_SEARCH_TOKEN_PHRASE;
      end = read_quoted (p, token);
      token->end = end - text;
      return end;
    }

  /* The word is read up to its first colon before the rest: a quoted value ends the filter
   * at its closing quote, and reading every word to its end first would read
   * project:"a"project:"a"… to its end once for each of its tokens. An exclusion is never a
   * filter: -agent:codex looks for those words. */
  for (colon = p; *colon != '\0' && !g_ascii_isspace (*colon) && *colon != ':'; colon++)
    ;
  if (*colon == ':' && !token->negated && (end = read_filter (p, colon, token)) != NULL)
    {
      token->end = end - text;
      return end;
    }

  for (end = colon; *end != '\0' && !g_ascii_isspace (*end); end++)
    ;
  token->value = g_strndup (p, end - p);
  token->kind = !token->negated && g_str_equal (token->value, "OR") ? LOOM_SEARCH_TOKEN_OR
                                                                    : LOOM_SEARCH_TOKEN_WORD;
  token->end = end - text;
  return end;
}

GArray *
loom_search_query_text_tokenize (const char *text)
{
  GArray     *tokens;
  const char *p = text;

  g_return_val_if_fail (text != NULL, NULL);

  tokens = g_array_new (FALSE, TRUE, sizeof (LoomSearchToken));
  g_array_set_clear_func (tokens, token_clear);

  while (*p != '\0')
    {
      LoomSearchToken token = { 0 };

      if (g_ascii_isspace (*p))
        {
          p++;
          continue;
        }
      p = read_token (text, p, &token);
      g_array_append_val (tokens, token);
    }

  return tokens;
}

char *
loom_search_query_text_get_filter (const char *text,
                                   const char *key)
{
  g_autoptr (GArray) tokens = NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  tokens = loom_search_query_text_tokenize (text);
  for (guint i = tokens->len; i > 0; i--)
    {
      const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i - 1);

      if (token->kind == LOOM_SEARCH_TOKEN_FILTER && g_str_equal (token->key, key))
        return g_strdup (token->value);
    }
  return NULL;
}

static void
append_filter (GString    *out,
               const char *key,
               const char *value)
{
  g_autoptr (GString) clean = g_string_new (value);
  gboolean quote = FALSE;

  /* The query language has no escaped quote: a value keeps none. */
  g_string_replace (clean, "\"", "", 0);
  for (gsize i = 0; i < clean->len && !quote; i++)
    quote = g_ascii_isspace (clean->str[i]);

  if (out->len > 0)
    g_string_append_c (out, ' ');
  g_string_append_printf (out, quote ? "%s:\"%s\"" : "%s:%s", key, clean->str);
}

char *
loom_search_query_text_set_filter (const char *text,
                                   const char *key,
                                   const char *value)
{
  g_autoptr (GArray) tokens = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  gboolean placed = value == NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (key != NULL && loom_search_is_filter_key (key), NULL);

  tokens = loom_search_query_text_tokenize (text);
  for (guint i = 0; i < tokens->len; i++)
    {
      const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i);

      if (token->kind == LOOM_SEARCH_TOKEN_FILTER && g_str_equal (token->key, key))
        {
          if (!placed)
            append_filter (out, key, value);
          placed = TRUE;
          continue;
        }

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_len (out, text + token->start, token->end - token->start);
    }

  if (!placed)
    append_filter (out, key, value);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

GStrv
loom_search_query_text_get_words (const char *text,
                                  GArray    **prefix)
{
  g_autoptr (LoomSearchQuery) query = NULL;
  const char *const *words;
  const gboolean    *prefixes;
  guint              n_words = 0;
  GStrv              copy;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (prefix != NULL, NULL);

  /* The parser decides; a query it refuses finds nothing to mark. */
  *prefix = NULL;
  if (!(query = loom_search_query_parse (text, NULL)))
    return NULL;
  words = loom_search_query_get_words (query, &prefixes, &n_words);
  if (n_words == 0)
    return NULL;

  copy = g_new0 (char *, n_words + 1);
  for (guint i = 0; i < n_words; i++)
    copy[i] = g_strdup (words[i]);
  *prefix = g_array_sized_new (FALSE, FALSE, sizeof (gboolean), n_words);
  g_array_append_vals (*prefix, prefixes, n_words);
  return copy;
}
