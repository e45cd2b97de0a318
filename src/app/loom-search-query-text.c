/* loom-search-query-text.c — reading a query's text: its filters, edited, and its words.
 *
 * A query is a row of tokens separated by white space: words, "quoted phrases", -exclusions
 * and key:value filters, whose value may be quoted (project:"my app"). Editing keeps every
 * other token exactly as typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-search-query-text.h"
#include "loom-search.h"

typedef struct
{
  const char *start;
  const char *end;
  char       *key;       /* lower case, for a filter; NULL for anything else */
  char       *value;     /* unquoted, for a filter */
} Token;

static void
token_clear (gpointer data)
{
  Token *token = data;

  g_free (token->key);
  g_free (token->value);
}

static const char *
skip_quoted (const char *p)
{
  const char *end;

  g_assert (*p == '"');

  /* An unclosed quote runs to the end, as far as editing is concerned; the core says what is
   * wrong with it. */
  end = strchr (p + 1, '"');
  return end != NULL ? end + 1 : p + strlen (p);
}

static GArray *
tokenize (const char *text)
{
  GArray *tokens = g_array_new (FALSE, TRUE, sizeof (Token));
  const char *p = text;

  g_array_set_clear_func (tokens, token_clear);

  while (*p != '\0')
    {
      Token token = { 0 };
      gboolean negated = FALSE;
      const char *colon = NULL;

      if (g_ascii_isspace (*p))
        {
          p++;
          continue;
        }

      token.start = p;
      if (*p == '-' && p[1] != '\0' && !g_ascii_isspace (p[1]))
        {
          negated = TRUE;
          p++;
        }

      if (*p == '"')
        p = skip_quoted (p);
      else
        {
          while (*p != '\0' && !g_ascii_isspace (*p))
            {
              if (*p == ':' && colon == NULL)
                {
                  colon = p;
                  /* key:"a value with spaces" */
                  if (p[1] == '"')
                    {
                      p = skip_quoted (p + 1);
                      continue;
                    }
                }
              p++;
            }
        }
      token.end = p;

      if (!negated && colon != NULL)
        {
          g_autofree char *key = g_ascii_strdown (token.start, colon - token.start);

          if (loom_search_is_filter_key (key))
            {
              const char *value = colon + 1;
              gsize length = token.end - value;

              if (length >= 1 && *value == '"')
                {
                  value++;
                  length--;
                  if (length >= 1 && value[length - 1] == '"')
                    length--;
                }
              token.key = g_steal_pointer (&key);
              token.value = g_strndup (value, length);
            }
        }

      g_array_append_val (tokens, token);
    }

  return tokens;
}

char *
loom_search_query_text_get_filter (const char *text,
                                   const char *key)
{
  g_autoptr(GArray) tokens = NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  tokens = tokenize (text);
  for (guint i = tokens->len; i > 0; i--)
    {
      Token *token = &g_array_index (tokens, Token, i - 1);

      if (g_strcmp0 (token->key, key) == 0)
        return g_strdup (token->value);
    }
  return NULL;
}

static void
append_filter (GString    *out,
               const char *key,
               const char *value)
{
  g_autoptr(GString) clean = g_string_new (value);
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
  g_autoptr(GArray) tokens = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean placed = value == NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (key != NULL && loom_search_is_filter_key (key), NULL);

  tokens = tokenize (text);
  for (guint i = 0; i < tokens->len; i++)
    {
      Token *token = &g_array_index (tokens, Token, i);

      if (g_strcmp0 (token->key, key) == 0)
        {
          if (!placed)
            append_filter (out, key, value);
          placed = TRUE;
          continue;
        }

      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_len (out, token->start, token->end - token->start);
    }

  if (!placed)
    append_filter (out, key, value);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

GStrv
loom_search_query_text_get_words (const char  *text,
                                  GArray     **prefix)
{
  g_autoptr(LoomSearchQuery) query = NULL;
  const char * const *words;
  const gboolean *prefixes;
  guint n_words = 0;
  GStrv copy;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (prefix != NULL, NULL);

  /* The core's parser decides; a query it refuses finds nothing to mark. */
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
