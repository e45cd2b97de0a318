/* test-search-query-text.c — a query's text as the parser reads it: its tokens with their
 * bytes, filters read and written back, and the words; checked against the parser itself on
 * random texts, and on hostile ones (very long, invalid UTF-8, unbalanced quotes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-private.h"
#include "loom-search-query-text.h"

/* Random texts are made of these pieces, so that filters, quotes, exclusions and OR meet in
 * every order; a few bytes are not UTF-8. */
static const char *const pieces[] = {
  " ",        " ",       "  ",    "\t",     "\n",         "a",     "b",      "é",      "東京",
  "\"",       "\"",      ":",     "-",      "*",          "OR",    "or",     "agent:", "AGENT:",
  "project:", "folder:", "has:",  "in:",    "role:",      "tool:", "after:", "model:", "title:",
  "foo:",     "codex",   "error", "my app", "2026-10-01", "\xff",  "\xc3",
};

static const char *const keys[] = {
  "agent", "project", "folder", "tool", "role", "model", "after", "before", "in", "has",
};

static char *
random_text (GRand *rand,
             guint  max_pieces)
{
  GString *text = g_string_new (NULL);
  guint    n = g_rand_int_range (rand, 0, max_pieces + 1);

  for (guint i = 0; i < n; i++)
    g_string_append (text, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
  return g_string_free (text, FALSE);
}

static char *
token_text (const char            *text,
            const LoomSearchToken *token)
{
  return g_strndup (text + token->start, token->end - token->start);
}

/* The tokens of @text but the @key filters, each as "kind|negated|key|value|bytes as typed". */
static GPtrArray *
describe_tokens (const char *text,
                 const char *skip_key)
{
  g_autoptr (GArray) tokens = loom_search_query_text_tokenize (text);
  GPtrArray *described = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < tokens->len; i++)
    {
      const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i);
      g_autofree char       *typed = token_text (text, token);

      if (skip_key != NULL && g_strcmp0 (token->key, skip_key) == 0)
        continue;
      g_ptr_array_add (described, g_strdup_printf ("%d|%d|%s|%s|%s", token->kind, token->negated,
                                                   token->key, token->value, typed));
    }
  return described;
}

static void
assert_same_strings (GPtrArray *a,
                     GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    g_assert_cmpstr (a->pdata[i], ==, b->pdata[i]);
}

static gboolean
has_unclosed (const char *text)
{
  g_autoptr (GArray) tokens = loom_search_query_text_tokenize (text);

  for (guint i = 0; i < tokens->len; i++)
    if (g_array_index (tokens, LoomSearchToken, i).unclosed)
      return TRUE;
  return FALSE;
}

/* The words as "w1|w2*|…", or NULL. */
static char *
joined_words (const char *text)
{
  g_autoptr (GArray) prefix = NULL;
  g_auto (GStrv) words = loom_search_query_text_get_words (text, &prefix);
  GString *joined;

  if (words == NULL)
    {
      g_assert_null (prefix);
      return NULL;
    }
  joined = g_string_new (NULL);
  for (guint w = 0; words[w] != NULL; w++)
    g_string_append_printf (joined, "%s%s%s", w > 0 ? "|" : "", words[w],
                            g_array_index (prefix, gboolean, w) ? "*" : "");
  return g_string_free (joined, FALSE);
}

/* What the parser makes of @text: its expression, conditions and parameters, or its error. */
static char *
describe_query (const char *text)
{
  g_autoptr (LoomSearchQuery) query = NULL;
  g_autoptr (GError) error = NULL;
  GString *described;

  if (!(query = loom_search_query_parse (text, &error)))
    {
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
      return g_strdup_printf ("error: %s", error->message);
    }
  described = g_string_new (NULL);
  g_string_append_printf (described, "%s\n%s\n%d", query->match, query->where->str,
                          query->in_trash);
  for (guint i = 0; i < query->params->len; i++)
    {
      const LoomSearchParam *param = &g_array_index (query->params, LoomSearchParam, i);

      if (param->is_text)
        g_string_append_printf (described, "\n“%s”", param->text);
      else
        g_string_append_printf (described, "\n%" G_GINT64_FORMAT, param->number);
    }
  return g_string_free (described, FALSE);
}

/* ——— Tests ——— */

static void
test_tokens (void)
{
  const char *text = "  flaky -leak pars* \"null pointer\"x OR -\"a b\" Agent:codex "
                     "project:\"my app\"rest -tool:Bash foo:bar agent: \"open";
  struct
  {
    LoomSearchTokenKind kind;
    const char         *typed;
    gboolean            negated;
    const char         *key;
    const char         *value;
    gboolean            unclosed;
  } expected[] = {
    { LOOM_SEARCH_TOKEN_WORD, "flaky", FALSE, NULL, "flaky", FALSE },
    { LOOM_SEARCH_TOKEN_WORD, "-leak", TRUE, NULL, "leak", FALSE },
    { LOOM_SEARCH_TOKEN_WORD, "pars*", FALSE, NULL, "pars*", FALSE },
    { LOOM_SEARCH_TOKEN_PHRASE, "\"null pointer\"", FALSE, NULL, "null pointer", FALSE },
    { LOOM_SEARCH_TOKEN_WORD, "x", FALSE, NULL, "x", FALSE },
    { LOOM_SEARCH_TOKEN_OR, "OR", FALSE, NULL, "OR", FALSE },
    { LOOM_SEARCH_TOKEN_PHRASE, "-\"a b\"", TRUE, NULL, "a b", FALSE },
    { LOOM_SEARCH_TOKEN_FILTER, "Agent:codex", FALSE, "agent", "codex", FALSE },
    { LOOM_SEARCH_TOKEN_FILTER, "project:\"my app\"", FALSE, "project", "my app", FALSE },
    { LOOM_SEARCH_TOKEN_WORD, "rest", FALSE, NULL, "rest", FALSE },
    /* An exclusion is never a filter, and a key the language does not know is a word. */
    { LOOM_SEARCH_TOKEN_WORD, "-tool:Bash", TRUE, NULL, "tool:Bash", FALSE },
    { LOOM_SEARCH_TOKEN_WORD, "foo:bar", FALSE, NULL, "foo:bar", FALSE },
    { LOOM_SEARCH_TOKEN_FILTER, "agent:", FALSE, "agent", "", FALSE },
    { LOOM_SEARCH_TOKEN_PHRASE, "\"open", FALSE, NULL, "open", TRUE },
  };
  g_autoptr (GArray) tokens = loom_search_query_text_tokenize (text);

  g_assert_cmpuint (tokens->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < tokens->len; i++)
    {
      const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i);
      g_autofree char       *typed = token_text (text, token);

      g_assert_cmpint (token->kind, ==, expected[i].kind);
      g_assert_cmpstr (typed, ==, expected[i].typed);
      g_assert_cmpint (token->negated, ==, expected[i].negated);
      g_assert_cmpstr (token->key, ==, expected[i].key);
      g_assert_cmpstr (token->value, ==, expected[i].value);
      g_assert_cmpint (token->unclosed, ==, expected[i].unclosed);
    }

  g_autoptr (GArray) none = loom_search_query_text_tokenize (" \t\n ");
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_filters (void)
{
  struct
  {
    const char *text;
    const char *key;
    const char *value;
    const char *expected_value; /* get_filter (text, key) */
    const char *expected_text;  /* set_filter (text, key, value) */
  } cases[] = {
    { "", "agent", "codex", NULL, "agent:codex" },
    { "token", "agent", "codex", NULL, "token agent:codex" },
    { "agent:claude token", "agent", "codex", "claude", "agent:codex token" },
    { "token  agent:codex  \"a b\"", "agent", NULL, "codex", "token \"a b\"" },
    { "AGENT:codex -agent:gemini x", "agent", "gemini", "codex", "agent:gemini -agent:gemini x" },
    { "project:\"my app\" x", "project", "other app", "my app", "project:\"other app\" x" },
    { "x agent:a agent:b", "agent", "c", "b", "x agent:c" },
    { "\"agent:codex in a phrase\"", "agent", NULL, NULL, "\"agent:codex in a phrase\"" },
    { "after:2026-10-01 has:error", "has", NULL, "error", "after:2026-10-01" },
    { "folder:Work", "folder", "Say \"hi\"", "Work", "folder:\"Say hi\"" },
    /* A quoted value ends at its quote, as the parser reads it; what follows is a word. */
    { "project:\"my app\"rest x", "project", "web", "my app", "project:web rest x" },
    { "project:\"a  b\"", "project", NULL, "a  b", "" },
    /* Keys the language does not know stay words, as typed. */
    { "title:x foo:\"a b\" agent:codex", "agent", "gemini", "codex",
      "title:x foo:\"a b\" agent:gemini" },
    { "model:gpt-5 OR tool:Bash", "tool", "Edit", "Bash", "model:gpt-5 OR tool:Edit" },
    { "in:trash", "in", "", "trash", "in:" },
    { "agent: x", "agent", NULL, "", "x" },
    { "x", "folder", "\t", NULL, "x folder:\"\t\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *value = loom_search_query_text_get_filter (cases[i].text, cases[i].key);
      g_autofree char *text = loom_search_query_text_set_filter (cases[i].text, cases[i].key,
                                                                 cases[i].value);

      g_assert_cmpstr (value, ==, cases[i].expected_value);
      g_assert_cmpstr (text, ==, cases[i].expected_text);
    }
}

static void
test_words (void)
{
  struct
  {
    const char *text;
    const char *words; /* joined by "|", a prefix ending in "*" */
  } cases[] = {
    { "flaky store test", "flaky|store|test" },
    { "\"null pointer\" migrat* -leak agent:codex", "null pointer|migrat*" },
    { "deadlock OR panic has:error", "deadlock|panic" },
    { "project:\"my app\" tool:Bash", NULL },
    { "loadConfig src/auth/login.c", "loadConfig|src/auth/login.c" },
    { "\"pars*\" -agent:codex", "pars*" }, /* a quoted star is no prefix */
    { "\"unclosed phrase", NULL },         /* refused by the parser: no search, no marks */
    { "project:\"unclosed x", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *words = joined_words (cases[i].text);

      g_assert_cmpstr (words, ==, cases[i].words);
    }
}

/* Setting a filter and reading it back, on random texts: the value read is the value written,
 * every other token stays as typed, and the parser reads the same words and the value. */
static void
test_round_trips (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261203);

  for (guint round = 0; round < 20000; round++)
    {
      g_autofree char *text = random_text (rand, 12);
      g_autofree char *raw_value = random_text (rand, 3);
      const char      *key = keys[g_rand_int_range (rand, 0, G_N_ELEMENTS (keys))];
      const char      *value = g_rand_boolean (rand) ? raw_value : NULL;
      g_autofree char *edited = loom_search_query_text_set_filter (text, key, value);
      g_autofree char *again = loom_search_query_text_set_filter (edited, key, value);
      g_autofree char *read = loom_search_query_text_get_filter (edited, key);
      g_autofree char *removed = loom_search_query_text_set_filter (text, key, NULL);
      g_autoptr (GString) clean = g_string_new (value);
      g_autoptr (GArray) tokens = loom_search_query_text_tokenize (text);
      gsize covered = 0;

      /* Between the tokens there is white space only, and they come in order. */
      for (guint i = 0; i < tokens->len; i++)
        {
          const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i);

          g_assert_cmpuint (token->start, >=, covered);
          g_assert_cmpuint (token->end, >, token->start);
          g_assert_cmpuint (token->end, <=, strlen (text));
          for (gsize b = covered; b < token->start; b++)
            g_assert_true (g_ascii_isspace (text[b]));
          g_assert_nonnull (token->value);
          g_assert_true ((token->kind == LOOM_SEARCH_TOKEN_FILTER) == (token->key != NULL));
          covered = token->end;
        }
      for (gsize b = covered; text[b] != '\0'; b++)
        g_assert_true (g_ascii_isspace (text[b]));

      /* A quote left open swallows what is written after it: the parser refuses that text
       * anyway, and it says why. */
      if (has_unclosed (text))
        continue;

      g_assert_cmpstr (again, ==, edited);
      g_string_replace (clean, "\"", "", 0);
      g_assert_cmpstr (read, ==, value != NULL ? clean->str : NULL);

      {
        g_autoptr (GPtrArray) before = describe_tokens (text, key);
        g_autoptr (GPtrArray) after = describe_tokens (edited, key);

        assert_same_strings (before, after);
      }

      /* The parser reads the same words, and the text rebuilt from its tokens as it read the
       * text itself. */
      {
        g_autofree char *words = joined_words (text);
        g_autofree char *removed_words = joined_words (removed);
        g_autofree char *edited_words = joined_words (edited);
        g_autofree char *present = loom_search_query_text_get_filter (text, key);

        if (words != NULL && removed_words != NULL)
          g_assert_cmpstr (removed_words, ==, words);
        if (words != NULL && edited_words != NULL)
          g_assert_cmpstr (edited_words, ==, words);
        if (present == NULL)
          {
            g_autofree char *original = describe_query (text);
            g_autofree char *rebuilt = describe_query (removed);

            g_assert_cmpstr (rebuilt, ==, original);
          }
      }
    }
}

/* The value the popover writes is the value the search looks for, whatever it holds. */
static void
test_written_value_is_searched (void)
{
  static const char *const values[] = {
    "Work",  "my app",    "Say \"hi\"", "a:b",        "-x",        "OR",
    "pars*", "東京 café", "  padded  ", "\"quoted\"", "tab\there",
  };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = loom_search_query_text_set_filter ("migration folder:old", "folder",
                                                                 values[i]);
      g_autoptr (GString) clean = g_string_new (values[i]);
      g_autoptr (LoomSearchQuery) query = NULL;
      g_autoptr (GError) error = NULL;
      const LoomSearchParam *param;

      g_string_replace (clean, "\"", "", 0);
      query = loom_search_query_parse (text, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (query->params->len, ==, 1);
      param = &g_array_index (query->params, LoomSearchParam, 0);
      g_assert_cmpstr (param->text, ==, clean->str);
      g_assert_cmpstr (query->marked->pdata[0], ==, "migration");
      g_assert_cmpuint (query->marked->len, ==, 1);
    }
}

static void
test_unbalanced_quotes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSearchQuery) query = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *value = NULL;

  /* An open phrase runs to the end: the filter typed after it is inside it. */
  value = loom_search_query_text_get_filter ("\"open agent:codex", "agent");
  g_assert_null (value);
  edited = loom_search_query_text_set_filter ("\"open agent:codex", "agent", NULL);
  g_assert_cmpstr (edited, ==, "\"open agent:codex");
  query = loom_search_query_parse (edited, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "quote"));
  g_assert_null (query);
  g_clear_error (&error);
  g_clear_pointer (&edited, g_free);
  g_clear_pointer (&value, g_free);

  /* An open value is the rest of the text, and choosing another closes the matter. */
  value = loom_search_query_text_get_filter ("x project:\"my app", "project");
  g_assert_cmpstr (value, ==, "my app");
  edited = loom_search_query_text_set_filter ("x project:\"my app", "project", "web");
  g_assert_cmpstr (edited, ==, "x project:web");
  query = loom_search_query_parse (edited, &error);
  g_assert_no_error (error);
  g_clear_pointer (&query, loom_search_query_free);
  g_clear_pointer (&edited, g_free);
  g_clear_pointer (&value, g_free);

  /* Three quotes: a phrase, then one left open. */
  {
    g_autoptr (GArray) tokens = loom_search_query_text_tokenize ("\"a\" \"b c");

    g_assert_cmpuint (tokens->len, ==, 2);
    g_assert_false (g_array_index (tokens, LoomSearchToken, 0).unclosed);
    g_assert_true (g_array_index (tokens, LoomSearchToken, 1).unclosed);
    g_assert_cmpstr (g_array_index (tokens, LoomSearchToken, 1).value, ==, "b c");
  }

  query = loom_search_query_parse ("migration -\"", &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_null (query);
}

static void
test_invalid_utf8 (void)
{
  const char *text = "caf\xc3 agent:\xff\xfe \"\xe6\x9d\" x";
  g_autoptr (GArray) tokens = loom_search_query_text_tokenize (text);
  g_autofree char *value = loom_search_query_text_get_filter (text, "agent");
  g_autofree char *edited = loom_search_query_text_set_filter (text, "folder", "Work");
  g_autofree char *words = joined_words (text);
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSearchQuery) query = NULL;

  /* Read and edited byte for byte; the parser refuses the text, as before any editing. */
  g_assert_cmpuint (tokens->len, ==, 4);
  g_assert_cmpstr (value, ==, "\xff\xfe");
  g_assert_cmpstr (edited, ==, "caf\xc3 agent:\xff\xfe \"\xe6\x9d\" x folder:Work");
  g_assert_null (words);
  query = loom_search_query_parse (edited, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_assert_null (query);
}

static void
test_long_text (void)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) word = g_string_new ("project:");
  g_autoptr (GArray) tokens = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *value = NULL;
  g_autofree char *words = NULL;

  /* A quarter of a million tokens, each filter taken out again. */
  for (guint i = 0; i < 50000; i++)
    g_string_append (text, "word agent:codex \"a b\" OR other -not ");
  g_string_append (text, "last");
  tokens = loom_search_query_text_tokenize (text->str);
  g_assert_cmpuint (tokens->len, ==, 50000 * 6 + 1);
  edited = loom_search_query_text_set_filter (text->str, "agent", NULL);
  g_assert_cmpuint (strlen (edited), ==, text->len - 50000 * strlen ("agent:codex "));
  value = loom_search_query_text_get_filter (edited, "agent");
  g_assert_null (value);
  words = joined_words (edited);
  g_assert_true (g_str_has_prefix (words, "word|a b|other|word|"));
  g_assert_nonnull (words);
  g_clear_pointer (&tokens, g_array_unref);
  g_clear_pointer (&edited, g_free);

  /* A million bytes in one word: quoted values one after the other, a value that runs to the
   * end, and colons. */
  for (guint i = 0; i < 1 << 17; i++)
    g_string_append (word, "\"a\"project:");
  g_string_append (word, "x");
  tokens = loom_search_query_text_tokenize (word->str);
  g_assert_cmpuint (tokens->len, ==, (1 << 17) + 1);
  g_assert_cmpstr (g_array_index (tokens, LoomSearchToken, 0).value, ==, "a");
  value = loom_search_query_text_get_filter (word->str, "project");
  g_assert_cmpstr (value, ==, "x");
  edited = loom_search_query_text_set_filter (word->str, "project", "y");
  g_assert_cmpstr (edited, ==, "project:y");
  g_clear_pointer (&tokens, g_array_unref);
  g_clear_pointer (&edited, g_free);

  g_string_assign (word, "foo");
  for (guint i = 0; i < 1 << 18; i++)
    g_string_append (word, ":\"b");
  tokens = loom_search_query_text_tokenize (word->str);
  g_assert_cmpuint (tokens->len, ==, 1);
  g_assert_cmpint (g_array_index (tokens, LoomSearchToken, 0).kind, ==, LOOM_SEARCH_TOKEN_WORD);
  g_clear_pointer (&tokens, g_array_unref);

  /* A quote opened at the start and never closed. */
  g_string_assign (text, "\"");
  for (guint i = 0; i < 1 << 18; i++)
    g_string_append (text, "agent:codex ");
  tokens = loom_search_query_text_tokenize (text->str);
  g_assert_cmpuint (tokens->len, ==, 1);
  g_assert_true (g_array_index (tokens, LoomSearchToken, 0).unclosed);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/search/query-text/tokens", test_tokens);
  g_test_add_func ("/search/query-text/filters", test_filters);
  g_test_add_func ("/search/query-text/words", test_words);
  g_test_add_func ("/search/query-text/round-trips", test_round_trips);
  g_test_add_func ("/search/query-text/written-value-is-searched", test_written_value_is_searched);
  g_test_add_func ("/search/query-text/unbalanced-quotes", test_unbalanced_quotes);
  g_test_add_func ("/search/query-text/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/search/query-text/long-text", test_long_text);

  return g_test_run ();
}
