/* loom-search-query.c — the query language, read into an FTS5 expression and SQL conditions.
 *
 * Every word is quoted, so that nothing a person types can be read as FTS5 syntax; filters
 * become SQL conditions with every value bound as a parameter, and facet words where the index
 * has them (loom-search-index.h). Errors speak of the query, never of SQL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "loom-error.h"
#include "loom-event-kinds.h"
#include "loom-search-index.h"
#include "loom-search-private.h"
#include "loom-search-query-text.h"

typedef struct
{
  char    *text;
  gboolean prefix;
  gboolean negated;
  gboolean or_before; /* "OR" stood between this term and the one before */
} Term;

static void
param_clear (gpointer data)
{
  LoomSearchParam *param = data;

  g_free (param->text);
}

static void
term_free (gpointer data)
{
  Term *term = data;

  g_free (term->text);
  g_free (term);
}

void
loom_search_query_free (LoomSearchQuery *query)
{
  if (query == NULL)
    return;
  g_free (query->match);
  g_string_free (query->where, TRUE);
  g_array_unref (query->params);
  g_string_free (query->facets, TRUE);
  g_ptr_array_unref (query->marked);
  g_array_unref (query->marked_prefix);
  g_clear_pointer (&query->terms, g_ptr_array_unref);
  g_free (query);
}

const char *
loom_search_query_get_match (LoomSearchQuery *query)
{
  g_return_val_if_fail (query != NULL, NULL);
  return query->match;
}

const char *const *
loom_search_query_get_words (LoomSearchQuery *query,
                             const gboolean **prefix,
                             guint           *n_words)
{
  g_return_val_if_fail (query != NULL, NULL);

  if (prefix != NULL)
    *prefix = (const gboolean *)(gpointer)query->marked_prefix->data;
  if (n_words != NULL)
    *n_words = query->marked->len;
  return (const char *const *)query->marked->pdata;
}

static void
add_text_param (LoomSearchQuery *query,
                const char      *text)
{
  LoomSearchParam param = { TRUE, g_strdup (text), 0 };

  g_array_append_val (query->params, param);
}

static void
add_number_param (LoomSearchQuery *query,
                  gint64           number)
{
  LoomSearchParam param = { FALSE, NULL, number };

  g_array_append_val (query->params, param);
}

/* A filter that is also a facet (loom-search-index.h) narrows the full-text query itself;
 * its SQL condition stays, exact, for the rows the index returns. @alternatives are OR-ed. */
static void
add_facet (LoomSearchQuery   *query,
           const char *const *alternatives)
{
  if (query->facets->len > 0)
    g_string_append (query->facets, " AND ");
  g_string_append_c (query->facets, '(');
  for (guint i = 0; alternatives[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append (query->facets, " OR ");
      g_string_append_c (query->facets, '"');
      for (const char *c = alternatives[i]; *c != '\0'; c++)
        {
          if (*c == '"')
            g_string_append_c (query->facets, '"');
          g_string_append_c (query->facets, *c);
        }
      g_string_append_c (query->facets, '"');
    }
  g_string_append_c (query->facets, ')');
}

static void
add_one_facet (LoomSearchQuery *query,
               const char      *prefix,
               const char      *value)
{
  g_autofree char *folded = g_utf8_strdown (value, -1);
  g_autofree char *facet = g_strconcat (prefix, folded, NULL);
  const char      *alternatives[] = { facet, NULL };

  add_facet (query, alternatives);
}

/* A word that the index can find: it has a letter or a digit somewhere. */
static gboolean
is_searchable (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isalnum (g_utf8_get_char (p)))
      return TRUE;
  return FALSE;
}

static gboolean
parse_date (const char *text,
            gint64     *ms)
{
  g_autoptr (GDateTime) date = NULL;
  guint year = 0, month = 1, day = 1;
  int   n = sscanf (text, "%4u-%2u-%2u", &year, &month, &day);

  if (n < 1 || year < 1970 || month < 1 || month > 12 || day < 1 || day > 31)
    return FALSE;
  /* A date means the start of that day (or month, or year) where the person is. */
  date = g_date_time_new_local ((int)year, (int)month, (int)day, 0, 0, 0);
  if (date == NULL)
    return FALSE;
  *ms = g_date_time_to_unix (date) * 1000;
  return TRUE;
}

static gboolean
add_filter (LoomSearchQuery *query,
            const char      *key,
            const char      *value,
            GError         **error)
{
  if (*value == '\0')
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "“%s:” needs a value, for example %s", key,
                   g_str_equal (key, "agent")   ? "agent:codex"
                   : g_str_equal (key, "after") ? "after:2026-10-01"
                                                : "tool:Bash");
      return FALSE;
    }

  if (g_str_equal (key, "agent"))
    {
      const char *source = value;

      if (g_ascii_strcasecmp (value, "claude") == 0 ||
          g_ascii_strcasecmp (value, "claude-code") == 0)
        source = "claude-code";
      else if (g_ascii_strcasecmp (value, "gemini") == 0 ||
               g_ascii_strcasecmp (value, "gemini-cli") == 0)
        source = "gemini";
      else if (g_ascii_strcasecmp (value, "codex") == 0)
        source = "codex";
      else
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                       "Unknown agent “%s”: use agent:claude-code, agent:codex or agent:gemini",
                       value);
          return FALSE;
        }
      g_string_append (query->where, " AND s.source = ?");
      query->by_session = TRUE;
      add_text_param (query, source);
      add_one_facet (query, LOOM_FACET_AGENT, source);
    }
  else if (g_str_equal (key, "project"))
    {
      g_string_append (query->where, " AND (p.name = ? COLLATE NOCASE OR p.path = ?)");
      query->by_session = TRUE;
      add_text_param (query, value);
      add_text_param (query, value);
    }
  else if (g_str_equal (key, "folder"))
    {
      g_string_append (query->where, " AND f.name = ? COLLATE NOCASE");
      query->by_session = TRUE;
      add_text_param (query, value);
    }
  else if (g_str_equal (key, "tool"))
    {
      /* A tool's results carry its name only through the call they answer. */
      g_string_append (query->where,
                       " AND e.id IS NOT NULL AND (e.tool_name = ? COLLATE NOCASE OR EXISTS"
                       " (SELECT 1 FROM events c WHERE c.session_id = e.session_id"
                       "  AND c.call_id = e.call_id AND c.kind = 'tool_call'"
                       "  AND c.tool_name = ? COLLATE NOCASE))");
      add_text_param (query, value);
      add_text_param (query, value);
      add_one_facet (query, LOOM_FACET_TOOL, value);
    }
  else if (g_str_equal (key, "role"))
    {
      if (g_ascii_strcasecmp (value, "user") == 0 || g_ascii_strcasecmp (value, "prompt") == 0)
        {
          /* Injected context and commands are 'message:context' (loom-schema.c). */
          g_string_append (query->where, " AND x.kind = 'message:user'");
          add_one_facet (query, LOOM_FACET_KIND, "user");
        }
      else if (g_ascii_strcasecmp (value, "assistant") == 0 ||
               g_ascii_strcasecmp (value, "reply") == 0)
        {
          g_string_append (query->where, " AND x.kind = 'message:assistant'");
          add_one_facet (query, LOOM_FACET_KIND, "assistant");
        }
      else if (g_ascii_strcasecmp (value, "tool") == 0)
        {
          static const char *const tool_kinds[] = {
            LOOM_FACET_KIND "tool_call",
            LOOM_FACET_KIND "tool_result",
            LOOM_FACET_KIND "file_change",
            NULL,
          };

          g_string_append (query->where, " AND x.kind IN ('event:tool_call', 'event:tool_result',"
                                         " 'event:file_change')");
          add_facet (query, tool_kinds);
        }
      else if (g_ascii_strcasecmp (value, "reasoning") == 0)
        {
          g_string_append (query->where, " AND x.kind = 'event:reasoning'");
          add_one_facet (query, LOOM_FACET_KIND, "reasoning");
        }
      else if (g_ascii_strcasecmp (value, "system") == 0)
        {
          g_string_append (query->where, " AND x.kind = 'message:system'");
          add_one_facet (query, LOOM_FACET_KIND, "system");
        }
      else
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                       "Unknown role “%s”: use role:user, role:assistant, role:tool, "
                       "role:reasoning or role:system",
                       value);
          return FALSE;
        }
    }
  else if (g_str_equal (key, "model"))
    {
      g_autofree char *pattern = g_strdup_printf ("%%%s%%", value);

      g_string_append (query->where, " AND (s.models LIKE ? OR m.model LIKE ?)");
      query->by_session = TRUE;
      add_text_param (query, pattern);
      add_text_param (query, pattern);
    }
  else if (g_str_equal (key, "after") || g_str_equal (key, "before"))
    {
      gint64 ms;

      if (!parse_date (value, &ms))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                       "“%s:%s” is not a date: write it as %s:2026-10-01", key, value, key);
          return FALSE;
        }
      /* A title carries the session's creation; other hits their own time. */
      g_string_append_printf (query->where,
                              " AND coalesce (nullif (x.created_at, 0), s.created_at) %s ?",
                              g_str_equal (key, "after") ? ">=" : "<");
      query->by_session = TRUE;
      add_number_param (query, ms);
    }
  else if (g_str_equal (key, "in"))
    {
      if (g_ascii_strcasecmp (value, "archived") == 0 || g_ascii_strcasecmp (value, "archive") == 0)
        {
          g_string_append (query->where, " AND s.archived = 1");
          query->by_session = TRUE;
        }
      else if (g_ascii_strcasecmp (value, "trash") == 0)
        query->in_trash = TRUE;
      else if (g_ascii_strcasecmp (value, "pinned") == 0)
        {
          g_string_append (query->where, " AND s.pinned = 1");
          query->by_session = TRUE;
        }
      else
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                       "Unknown place “%s”: use in:archived, in:trash or in:pinned", value);
          return FALSE;
        }
    }
  else if (g_str_equal (key, "has"))
    {
      if (g_ascii_strcasecmp (value, "error") != 0 && g_ascii_strcasecmp (value, "errors") != 0)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                       "Unknown “has:%s”: use has:error", value);
          return FALSE;
        }
      g_string_append_printf (query->where,
                              " AND (e.is_error = 1 OR x.kind = 'event:api_error'"
                              " OR m.flags & %d != 0)",
                              LOOM_MESSAGE_API_ERROR);
      add_one_facet (query, LOOM_FACET_ERROR, "");
    }
  else
    g_assert_not_reached ();

  return TRUE;
}

gboolean
loom_search_is_filter_key (const char *key)
{
  static const char *const keys[] = {
    "agent", "project", "folder", "tool", "role", "model", "after", "before", "in", "has",
  };

  g_return_val_if_fail (key != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (key, keys[i]))
      return TRUE;
  return FALSE;
}

static void
append_quoted (GString    *fts,
               const char *text)
{
  g_string_append_c (fts, '"');
  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append_c (fts, '"'); /* FTS5 escapes a quote by doubling it */
      g_string_append_c (fts, *c);
    }
  g_string_append_c (fts, '"');
}

/* How a prefix is written is up to @expand, if any (see loom_search_query_expand_prefixes). */
typedef struct
{
  LoomSearchExpand expand;
  gpointer         data;
  gboolean         native; /* a prefix was left to FTS5 */
} Expansion;

static gboolean
append_fts_string (GString    *fts,
                   const Term *term,
                   Expansion  *expansion,
                   GError    **error)
{
  g_autoptr (GPtrArray) terms = NULL;
  GError *local_error = NULL;

  if (term->prefix && expansion != NULL && expansion->expand != NULL)
    {
      terms = expansion->expand (term->text, expansion->data, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return FALSE;
        }
    }

  if (terms != NULL && terms->len > 0)
    {
      g_string_append_c (fts, '(');
      for (guint i = 0; i < terms->len; i++)
        {
          if (i > 0)
            g_string_append (fts, " OR ");
          append_quoted (fts, g_ptr_array_index (terms, i));
        }
      g_string_append_c (fts, ')');
      return TRUE;
    }

  append_quoted (fts, term->text);
  if (term->prefix)
    {
      g_string_append (fts, " *");
      if (expansion != NULL)
        expansion->native = TRUE;
    }
  return TRUE;
}

static char *
build_match (GPtrArray *terms,
             Expansion *expansion,
             GError   **error)
{
  g_autoptr (GString) positive = g_string_new (NULL);
  g_autoptr (GString) negative = g_string_new (NULL);
  gboolean group_open = FALSE;

  for (guint i = 0; i < terms->len; i++)
    {
      const Term *term = g_ptr_array_index (terms, i);
      const Term *next = i + 1 < terms->len ? g_ptr_array_index (terms, i + 1) : NULL;
      gboolean    joins_next = next != NULL && next->or_before;

      if (term->negated)
        {
          if (term->or_before || joins_next)
            {
              g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                                   "OR cannot join an excluded word: write “a OR b -c”");
              return NULL;
            }
          if (negative->len > 0)
            g_string_append (negative, " OR ");
          if (!append_fts_string (negative, term, expansion, error))
            return NULL;
          continue;
        }

      if (term->or_before)
        g_string_append (positive, " OR ");
      else if (positive->len > 0)
        {
          if (group_open)
            g_string_append_c (positive, ')');
          group_open = FALSE;
          g_string_append (positive, " AND ");
        }
      if (joins_next && !term->or_before)
        {
          g_string_append_c (positive, '(');
          group_open = TRUE;
        }
      if (!append_fts_string (positive, term, expansion, error))
        return NULL;
    }
  if (group_open)
    g_string_append_c (positive, ')');

  if (positive->len == 0)
    {
      if (negative->len > 0)
        g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                             "Say what to search for, not only what to leave out");
      return NULL;
    }
  if (negative->len > 0)
    g_string_append_printf (positive, " NOT (%s)", negative->str);
  return g_string_free (g_steal_pointer (&positive), FALSE);
}

/* The FTS5 expression: the words, and the facets the filters need. */
static gboolean
compose_match (LoomSearchQuery *query,
               Expansion       *expansion,
               GError         **error)
{
  GError *local_error = NULL;
  char   *match = build_match (query->terms, expansion, &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  /* Facet words occur in their column only, and no column filter is needed: FTS5 checks one
   * by reading the positions of every candidate, which made a common word ten times slower. */
  if (query->facets->len > 0)
    {
      char *both = match != NULL ? g_strdup_printf ("(%s) AND %s", match, query->facets->str)
                                 : g_strdup (query->facets->str);

      g_free (match);
      match = both;
    }
  g_free (query->match);
  query->match = match;
  return TRUE;
}

gboolean
loom_search_query_expand_prefixes (LoomSearchQuery *query,
                                   LoomSearchExpand expand,
                                   gpointer         data,
                                   gboolean        *native,
                                   GError         **error)
{
  Expansion expansion = { expand, data, FALSE };

  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (expand != NULL, FALSE);

  if (!compose_match (query, &expansion, error))
    return FALSE;
  if (native != NULL)
    *native = expansion.native;
  return TRUE;
}

LoomSearchQuery *
loom_search_query_parse (const char *text,
                         GError    **error)
{
  g_autoptr (LoomSearchQuery) query = g_new0 (LoomSearchQuery, 1);
  g_autoptr (GPtrArray) terms = g_ptr_array_new_with_free_func (term_free);
  gboolean or_pending = FALSE;
  g_autoptr (GArray) tokens = NULL;
  gboolean filters = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  query->where = g_string_new (NULL);
  query->params = g_array_new (FALSE, TRUE, sizeof (LoomSearchParam));
  g_array_set_clear_func (query->params, param_clear);
  query->facets = g_string_new (NULL);
  query->marked = g_ptr_array_new_with_free_func (g_free);
  query->marked_prefix = g_array_new (FALSE, FALSE, sizeof (gboolean));

  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "The query is not valid text");
      return NULL;
    }

  /* The lexer says where each token is (loom-search-query-text.c); what it means is said here,
   * in the order typed, so that the first mistake is the one reported. */
  tokens = loom_search_query_text_tokenize (text);
  for (guint i = 0; i < tokens->len; i++)
    {
      const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i);
      Term                  *term;

      if (token->unclosed)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                       "A quote is not closed: add a \" after “%s”", token->value);
          return NULL;
        }

      if (token->kind == LOOM_SEARCH_TOKEN_FILTER)
        {
          if (!add_filter (query, token->key, token->value, error))
            return NULL;
          filters = TRUE;
          continue;
        }

      if (token->kind == LOOM_SEARCH_TOKEN_OR)
        {
          if (terms->len == 0 || or_pending)
            {
              g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                                   "OR needs a word on each side: “migration OR schema”");
              return NULL;
            }
          or_pending = TRUE;
          continue;
        }

      term = g_new0 (Term, 1);
      term->negated = token->negated;
      term->text = g_strdup (token->value);
      term->prefix = token->kind == LOOM_SEARCH_TOKEN_WORD && g_str_has_suffix (term->text, "*");
      if (term->prefix)
        term->text[strlen (term->text) - 1] = '\0';
      term->or_before = or_pending;
      or_pending = FALSE;

      /* Punctuation alone finds nothing; leave it out rather than fail. */
      if (!is_searchable (term->text))
        {
          term_free (term);
          continue;
        }
      g_ptr_array_add (terms, term);
    }

  if (or_pending)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "OR needs a word on each side: “migration OR schema”");
      return NULL;
    }

  for (guint i = 0; i < terms->len; i++)
    {
      const Term *term = g_ptr_array_index (terms, i);

      if (term->negated)
        continue;
      g_ptr_array_add (query->marked, g_strdup (term->text));
      g_array_append_val (query->marked_prefix, term->prefix);
    }

  query->terms = g_steal_pointer (&terms);
  if (!compose_match (query, NULL, error))
    return NULL;
  if (query->match == NULL && !filters)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "Type a word to search for, or a filter such as agent:codex");
      return NULL;
    }

  return g_steal_pointer (&query);
}
