/* loom-search.c — the query language and the search over the full-text index.
 *
 * A query becomes an FTS5 expression (every word quoted, so that nothing a person types can be
 * read as FTS5 syntax) plus SQL conditions for the filters, with every value bound as a
 * parameter. Errors speak of the query, never of SQL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "loom-error.h"
#include "loom-importer.h"
#include "loom-search-index.h"
#include "loom-search-rank.h"
#include "loom-search-snippet.h"
#include "loom-search.h"
#include "loom-store-private.h"

typedef struct
{
  char     *text;
  gboolean  prefix;
  gboolean  negated;
  gboolean  or_before;   /* "OR" stood between this term and the one before */
} Term;

typedef struct
{
  gboolean  is_text;
  char     *text;
  gint64    number;
} Param;

struct _LoomSearchQuery
{
  char      *match;
  GString   *where;      /* " AND …" conditions */
  GArray    *params;     /* Param, bound after the match */
  gboolean   in_trash;
  GString   *facets;     /* FTS5 terms the filters need in the facets column, AND-ed */
  GPtrArray *marked;     /* the words to mark in snippets (not the excluded ones) */
  GArray    *marked_prefix;   /* gboolean: marked[i] is a prefix */
};

static void
param_clear (gpointer data)
{
  Param *param = data;

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
  g_free (query);
}

const char *
loom_search_query_get_match (LoomSearchQuery *query)
{
  g_return_val_if_fail (query != NULL, NULL);
  return query->match;
}

static void
add_text_param (LoomSearchQuery *query,
                const char      *text)
{
  Param param = { TRUE, g_strdup (text), 0 };

  g_array_append_val (query->params, param);
}

static void
add_number_param (LoomSearchQuery *query,
                  gint64           number)
{
  Param param = { FALSE, NULL, number };

  g_array_append_val (query->params, param);
}

/* A filter that is also a facet (loom-search-index.h) narrows the full-text query itself;
 * its SQL condition stays, exact, for the rows the index returns. @alternatives are OR-ed. */
static void
add_facet (LoomSearchQuery    *query,
           const char * const *alternatives)
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
  const char *alternatives[] = { facet, NULL };

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
parse_date (const char  *text,
            gint64      *ms)
{
  g_autoptr(GDateTime) date = NULL;
  guint year = 0, month = 1, day = 1;
  int n = sscanf (text, "%4u-%2u-%2u", &year, &month, &day);

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
add_filter (LoomSearchQuery  *query,
            const char       *key,
            const char       *value,
            GError          **error)
{
  if (*value == '\0')
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "“%s:” needs a value, for example %s", key,
                   g_str_equal (key, "agent") ? "agent:codex" :
                   g_str_equal (key, "after") ? "after:2026-10-01" : "tool:Bash");
      return FALSE;
    }

  if (g_str_equal (key, "agent"))
    {
      const char *source = value;

      if (g_ascii_strcasecmp (value, "claude") == 0 || g_ascii_strcasecmp (value, "claude-code") == 0)
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
      add_text_param (query, source);
      add_one_facet (query, LOOM_FACET_AGENT, source);
    }
  else if (g_str_equal (key, "project"))
    {
      g_string_append (query->where, " AND (p.name = ? COLLATE NOCASE OR p.path = ?)");
      add_text_param (query, value);
      add_text_param (query, value);
    }
  else if (g_str_equal (key, "folder"))
    {
      g_string_append (query->where, " AND f.name = ? COLLATE NOCASE");
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
          g_string_append_printf (query->where,
                                  " AND x.kind = 'message:user' AND m.flags & %d = 0",
                                  LOOM_MESSAGE_NOT_A_PROMPT);
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
          static const char * const tool_kinds[] = {
            LOOM_FACET_KIND "tool_call", LOOM_FACET_KIND "tool_result",
            LOOM_FACET_KIND "file_change", NULL,
          };

          g_string_append (query->where,
                           " AND x.kind IN ('event:tool_call', 'event:tool_result',"
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
                       "role:reasoning or role:system", value);
          return FALSE;
        }
    }
  else if (g_str_equal (key, "model"))
    {
      g_autofree char *pattern = g_strdup_printf ("%%%s%%", value);

      g_string_append (query->where, " AND (s.models LIKE ? OR m.model LIKE ?)");
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
      add_number_param (query, ms);
    }
  else if (g_str_equal (key, "in"))
    {
      if (g_ascii_strcasecmp (value, "archived") == 0 || g_ascii_strcasecmp (value, "archive") == 0)
        g_string_append (query->where, " AND s.archived = 1");
      else if (g_ascii_strcasecmp (value, "trash") == 0)
        query->in_trash = TRUE;
      else if (g_ascii_strcasecmp (value, "pinned") == 0)
        g_string_append (query->where, " AND s.pinned = 1");
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
  static const char * const keys[] = {
    "agent", "project", "folder", "tool", "role", "model", "after", "before", "in", "has",
  };

  g_return_val_if_fail (key != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (g_str_equal (key, keys[i]))
      return TRUE;
  return FALSE;
}

/* Reads a quoted string starting at *p (on the opening quote). */
static char *
read_quoted (const char  **p,
             GError      **error)
{
  const char *start = *p + 1;
  const char *end = strchr (start, '"');

  if (end == NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "A quote is not closed: add a \" after “%s”", start);
      return NULL;
    }
  *p = end + 1;
  return g_strndup (start, end - start);
}

static char *
read_bare (const char **p)
{
  const char *start = *p;

  while (**p != '\0' && !g_ascii_isspace (**p))
    (*p)++;
  return g_strndup (start, *p - start);
}

static void
append_fts_string (GString    *fts,
                   const Term *term)
{
  g_string_append_c (fts, '"');
  for (const char *c = term->text; *c != '\0'; c++)
    {
      if (*c == '"')
        g_string_append_c (fts, '"');  /* FTS5 escapes a quote by doubling it */
      g_string_append_c (fts, *c);
    }
  g_string_append_c (fts, '"');
  if (term->prefix)
    g_string_append (fts, " *");
}

static char *
build_match (GPtrArray  *terms,
             GError    **error)
{
  g_autoptr(GString) positive = g_string_new (NULL);
  g_autoptr(GString) negative = g_string_new (NULL);
  gboolean group_open = FALSE;

  for (guint i = 0; i < terms->len; i++)
    {
      const Term *term = g_ptr_array_index (terms, i);
      const Term *next = i + 1 < terms->len ? g_ptr_array_index (terms, i + 1) : NULL;
      gboolean joins_next = next != NULL && next->or_before;

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
          append_fts_string (negative, term);
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
      append_fts_string (positive, term);
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

LoomSearchQuery *
loom_search_query_parse (const char  *text,
                         GError     **error)
{
  g_autoptr(LoomSearchQuery) query = g_new0 (LoomSearchQuery, 1);
  g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func (term_free);
  gboolean or_pending = FALSE;
  gboolean filters = FALSE;
  const char *p = text;

  g_return_val_if_fail (text != NULL, NULL);

  query->where = g_string_new (NULL);
  query->params = g_array_new (FALSE, TRUE, sizeof (Param));
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

  while (*p != '\0')
    {
      g_autofree char *word = NULL;
      gboolean negated = FALSE, quoted = FALSE;
      const char *colon;
      Term *term;

      if (g_ascii_isspace (*p))
        {
          p++;
          continue;
        }
      if (*p == '-' && p[1] != '\0' && !g_ascii_isspace (p[1]))
        {
          negated = TRUE;
          p++;
        }

      if (*p == '"')
        {
          if (!(word = read_quoted (&p, error)))
            return NULL;
          quoted = TRUE;
        }
      else
        {
          word = read_bare (&p);

          /* key:value, or key:"quoted value" */
          colon = strchr (word, ':');
          if (colon != NULL && !negated)
            {
              g_autofree char *key = g_ascii_strdown (word, colon - word);

              if (loom_search_is_filter_key (key))
                {
                  g_autofree char *value = NULL;

                  if (colon[1] == '\0' && *p == '"')
                    value = read_quoted (&p, error);
                  else if (colon[1] == '"')
                    {
                      const char *q = p - strlen (colon + 1);

                      value = read_quoted (&q, error);
                      p = q;
                    }
                  else
                    value = g_strdup (colon + 1);
                  if (value == NULL || !add_filter (query, key, value, error))
                    return NULL;
                  filters = TRUE;
                  continue;
                }
            }

          if (!negated && g_str_equal (word, "OR"))
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
        }

      term = g_new0 (Term, 1);
      term->negated = negated;
      term->prefix = !quoted && g_str_has_suffix (word, "*");
      if (term->prefix)
        word[strlen (word) - 1] = '\0';
      term->text = g_steal_pointer (&word);
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

  query->match = build_match (terms, error);
  if (query->match == NULL && error != NULL && *error != NULL)
    return NULL;
  /* Facet words occur in their column only, and no column filter is needed: FTS5 checks one
   * by reading the positions of every candidate, which made a common word ten times slower. */
  if (query->facets->len > 0)
    {
      char *both = query->match != NULL
                     ? g_strdup_printf ("(%s) AND %s", query->match, query->facets->str)
                     : g_strdup (query->facets->str);

      g_free (query->match);
      query->match = both;
    }
  if (query->match == NULL && !filters)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                           "Type a word to search for, or a filter such as agent:codex");
      return NULL;
    }

  if (!query->in_trash)
    g_string_append (query->where, " AND s.trashed_at = 0");
  else
    g_string_append (query->where, " AND s.trashed_at != 0");

  return g_steal_pointer (&query);
}

/* ——— Running ——— */

/* A person's prompts and the assistant's replies above tool output; titles above all. The
 * relevance is negative, lower is better: a larger weight pulls a hit up. */
#define SCORE_WEIGHT \
  "(CASE x.kind WHEN 'title' THEN 4.0" \
  "  WHEN 'message:user' THEN (CASE WHEN m.flags & %d = 0 THEN 2.5 ELSE 0.8 END)" \
  "  WHEN 'message:assistant' THEN 2.0 WHEN 'event:reasoning' THEN 1.0" \
  "  WHEN 'message:system' THEN 0.8 ELSE 0.6 END)"

/* A common word is in hundreds of thousands of entries, and ranking them all takes seconds.
 * Across all history, each kind's newest matches are ranked (the rowid ranges of
 * loom-search-index.h keep each kind in import order, and FTS5 seeks to their end): a word
 * with fewer matches is ranked whole; for a common one the first pages are the best of the
 * recent hits, which is where people look. Within one session every hit is read. */
#define MESSAGE_CANDIDATES 300
#define EVENT_CANDIDATES   200
#define TITLE_CANDIDATES   100

#define SNIPPET_TOKENS 16

typedef struct
{
  gint64 from;     /* rowids from … */
  gint64 to;       /* … to, inclusive */
  gint64 limit;    /* how many of the newest; -1 all */
} Range;

static const char *
display_kind (const char *kind,
              guint       flags)
{
  if (g_strcmp0 (kind, "title") == 0)
    return "title";
  if (g_strcmp0 (kind, "message:user") == 0)
    return (flags & LOOM_MESSAGE_NOT_A_PROMPT) ? "context" : "prompt";
  if (g_strcmp0 (kind, "message:assistant") == 0)
    return "reply";
  if (g_strcmp0 (kind, "message:system") == 0)
    return "system";
  if (g_strcmp0 (kind, "event:tool_call") == 0 || g_strcmp0 (kind, "event:tool_result") == 0)
    return "tool";
  if (g_strcmp0 (kind, "event:reasoning") == 0)
    return "reasoning";
  if (g_strcmp0 (kind, "event:file_change") == 0)
    return "file";
  return kind != NULL && g_str_has_prefix (kind, "event:") ? kind + strlen ("event:") : kind;
}

/* A hit before it is ranked against the others. */
typedef struct
{
  gint64  rowid;
  char   *kind;
  char   *uuid;
  char   *title;
  char   *source;
  gint64  at;
  double  score;
  gint64  seq;
  char   *tool;
  guint   flags;
  gint64  item;
  char   *preview;
} Candidate;

static void
candidate_clear (gpointer data)
{
  Candidate *candidate = data;

  g_free (candidate->kind);
  g_free (candidate->uuid);
  g_free (candidate->title);
  g_free (candidate->source);
  g_free (candidate->tool);
  g_free (candidate->preview);
}

/* The columns a candidate is read from, after the rowid; @score_sql is its relevance. */
static void
append_candidate_columns (GString    *sql,
                          const char *score_sql,
                          gboolean    with_preview)
{
  g_string_append_printf (sql,
                          "x.kind, s.uuid, s.title, s.source,"
                          " coalesce (nullif (x.created_at, 0), s.created_at),"
                          " %s * " SCORE_WEIGHT ","
                          " coalesce (m.seq, e.seq, 0), e.tool_name, ifnull (m.flags, 0),"
                          " coalesce (m.id, e.id, 0), %s"
                          " FROM search_index x"
                          " CROSS JOIN sessions s ON s.id = x.session_id"
                          " LEFT JOIN projects p ON p.id = s.project_id"
                          " LEFT JOIN folders f ON f.id = s.folder_id"
                          " LEFT JOIN messages m ON x.rowid >= " LOOM_INDEX_MESSAGES_FROM_SQL
                          "   AND x.rowid < " LOOM_INDEX_TITLES_FROM_SQL
                          "   AND m.id = x.rowid - " LOOM_INDEX_MESSAGES_FROM_SQL
                          " LEFT JOIN events e ON x.rowid < " LOOM_INDEX_MESSAGES_FROM_SQL
                          "   AND e.id = x.rowid",
                          score_sql, LOOM_MESSAGE_NOT_A_PROMPT,
                          with_preview ? "substr (x.title || x.body, 1, 200)" : "NULL");
}

static void
read_candidate (sqlite3_stmt *stmt,
                int           first,
                gint64        rowid,
                double        relevance,
                GArray       *candidates)
{
  Candidate candidate = {
    .rowid = rowid,
    .kind = g_strdup ((const char *)sqlite3_column_text (stmt, first)),
    .uuid = g_strdup ((const char *)sqlite3_column_text (stmt, first + 1)),
    .title = g_strdup ((const char *)sqlite3_column_text (stmt, first + 2)),
    .source = g_strdup ((const char *)sqlite3_column_text (stmt, first + 3)),
    .at = sqlite3_column_int64 (stmt, first + 4),
    .score = relevance * sqlite3_column_double (stmt, first + 5),
    .seq = sqlite3_column_int64 (stmt, first + 6),
    .tool = g_strdup ((const char *)sqlite3_column_text (stmt, first + 7)),
    .flags = (guint)sqlite3_column_int (stmt, first + 8),
    .item = sqlite3_column_int64 (stmt, first + 9),
    .preview = g_strdup ((const char *)sqlite3_column_text (stmt, first + 10)),
  };

  g_array_append_val (candidates, candidate);
}

static void
bind_filters (sqlite3_stmt    *stmt,
              int             *index,
              LoomSearchQuery *query)
{
  for (guint i = 0; i < query->params->len; i++)
    {
      Param *param = &g_array_index (query->params, Param, i);

      if (param->is_text)
        sqlite3_bind_text (stmt, (*index)++, param->text, -1, SQLITE_STATIC);
      else
        sqlite3_bind_int64 (stmt, (*index)++, param->number);
    }
}

static gboolean
step_failed (LoomStore  *store,
             int         rc,
             GError    **error)
{
  if (rc == SQLITE_DONE)
    return FALSE;
  /* The expression is built from quoted strings only; should FTS5 still refuse it, say so in
   * the query's terms. */
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
               "The search could not be run: %s", sqlite3_errmsg (store->db));
  return TRUE;
}

/* Each range's newest hits, one statement per range: the index drives the join (CROSS JOIN
 * keeps it the outer loop, so that its rowid order answers ORDER BY and the LIMIT stops the
 * scan), and FTS5 seeks to the end of each range. */
static gboolean
read_ranges (LoomStore        *store,
             LoomSearchQuery  *query,
             gint64            session_rowid,
             const Range      *ranges,
             GArray           *candidates,
             GError          **error)
{
  g_autoptr(GString) sql = g_string_new ("SELECT x.rowid, ");
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc = SQLITE_DONE;

  append_candidate_columns (sql, query->match != NULL ? LOOM_SEARCH_RANK " (search_index, 10.0)"
                                                      : "0.0",
                            query->match == NULL);
  g_string_append (sql, " WHERE x.rowid BETWEEN ? AND ?");
  if (query->match != NULL)
    g_string_append (sql, " AND search_index MATCH ?");
  if (session_rowid > 0)
    g_string_append (sql, " AND x.session_id = ?");
  g_string_append (sql, query->where->str);
  g_string_append (sql, " ORDER BY x.rowid DESC LIMIT ?");

  if (!(stmt = loom_store_prepare (store, sql->str, error)))
    return FALSE;

  for (guint r = 0; r < 3 && rc == SQLITE_DONE; r++)
    {
      int index = 1;

      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, index++, ranges[r].from);
      sqlite3_bind_int64 (stmt, index++, ranges[r].to);
      if (query->match != NULL)
        sqlite3_bind_text (stmt, index++, query->match, -1, SQLITE_STATIC);
      if (session_rowid > 0)
        sqlite3_bind_int64 (stmt, index++, session_rowid);
      bind_filters (stmt, &index, query);
      sqlite3_bind_int64 (stmt, index++, ranges[r].limit);

      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        read_candidate (stmt, 1, sqlite3_column_int64 (stmt, 0), 1.0, candidates);
    }
  return !step_failed (store, rc, error);
}

/* A prefix such as pars* makes FTS5 merge every term that starts so — tens of milliseconds on
 * a large index — once for each statement, so the ranges are read in one scan from the top:
 * titles, then messages, then events, the most numerous, last, where the scan stops. Only the
 * rowids pass through the ranges' extra matches; the hits kept are read one by one after. */
static gboolean
read_ranges_in_one_scan (LoomStore        *store,
                         LoomSearchQuery  *query,
                         const Range      *ranges,
                         GArray           *candidates,
                         GError          **error)
{
  static const char scan_sql[] =
    "SELECT rowid, CASE WHEN " LOOM_SEARCH_TAKE " (rowid, ?2)"
    " THEN " LOOM_SEARCH_RANK " (search_index, 10.0) END"
    " FROM search_index WHERE search_index MATCH ?1 ORDER BY rowid DESC";
  g_autoptr(GString) sql = g_string_new ("SELECT ");
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) relevance = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(sqlite3_stmt) details = NULL;
  LoomSearchQuota quota = { { 0 }, { ranges[0].limit, ranges[1].limit, ranges[2].limit } };
  sqlite3_stmt *scan;
  int rc;

  if (!(scan = loom_store_cached (store, scan_sql, error)))
    return FALSE;
  sqlite3_bind_text (scan, 1, query->match, -1, SQLITE_STATIC);
  sqlite3_bind_pointer (scan, 2, &quota, LOOM_SEARCH_QUOTA_TYPE, NULL);
  while ((rc = sqlite3_step (scan)) == SQLITE_ROW)
    {
      gint64 rowid = sqlite3_column_int64 (scan, 0);
      double rank = sqlite3_column_double (scan, 1);

      if (sqlite3_column_type (scan, 1) != SQLITE_NULL)
        {
          g_array_append_val (kept, rowid);
          g_array_append_val (relevance, rank);
        }
      if (loom_search_range_of (rowid) == 0 && quota.taken[0] >= quota.limits[0])
        break;
    }
  sqlite3_reset (scan);
  sqlite3_clear_bindings (scan);
  if (rc != SQLITE_ROW && step_failed (store, rc, error))
    return FALSE;

  append_candidate_columns (sql, "1.0", FALSE);
  g_string_append (sql, " WHERE x.rowid = ?");
  g_string_append (sql, query->where->str);
  if (!(details = loom_store_prepare (store, sql->str, error)))
    return FALSE;
  for (guint i = 0; i < kept->len; i++)
    {
      int index = 1;

      sqlite3_reset (details);
      sqlite3_bind_int64 (details, index++, g_array_index (kept, gint64, i));
      bind_filters (details, &index, query);
      if ((rc = sqlite3_step (details)) == SQLITE_ROW)
        read_candidate (details, 0, g_array_index (kept, gint64, i),
                        g_array_index (relevance, double, i), candidates);
      else if (step_failed (store, rc, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
has_prefix (LoomSearchQuery *query)
{
  for (guint i = 0; i < query->marked_prefix->len; i++)
    if (g_array_index (query->marked_prefix, gboolean, i))
      return TRUE;
  return FALSE;
}

/* The rowids a session's entries can have: its messages' and events' ids are mostly
 * consecutive, since a session is imported a file at a time. */
static gboolean
session_ranges (LoomStore  *store,
                gint64      session_rowid,
                Range      *ranges,
                GError    **error)
{
  static const char sql[] =
    "SELECT (SELECT min (id) FROM events WHERE session_id = ?1),"
    "       (SELECT max (id) FROM events WHERE session_id = ?1),"
    "       (SELECT min (id) FROM messages WHERE session_id = ?1),"
    "       (SELECT max (id) FROM messages WHERE session_id = ?1)";
  sqlite3_stmt *stmt = loom_store_cached (store, sql, error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_rowid);
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      loom_store_set_error (store, error, "Could not search the session");
      sqlite3_reset (stmt);
      return FALSE;
    }
  /* A kind the session has none of gets an empty range. */
  ranges[0] = (Range) { sqlite3_column_int64 (stmt, 0), sqlite3_column_int64 (stmt, 1), -1 };
  ranges[1] = (Range) { LOOM_INDEX_MESSAGES_FROM + sqlite3_column_int64 (stmt, 2),
                        LOOM_INDEX_MESSAGES_FROM + sqlite3_column_int64 (stmt, 3), -1 };
  if (sqlite3_column_type (stmt, 0) == SQLITE_NULL)
    ranges[0] = (Range) { 1, 0, 0 };
  if (sqlite3_column_type (stmt, 2) == SQLITE_NULL)
    ranges[1] = (Range) { 1, 0, 0 };
  ranges[2] = (Range) { LOOM_INDEX_TITLES_FROM + session_rowid,
                        LOOM_INDEX_TITLES_FROM + session_rowid, 1 };
  sqlite3_reset (stmt);
  return TRUE;
}

/* Snippets are made for the page only, from the entry's text (see loom-search-snippet.h). */
static char *
make_snippet (LoomStore        *store,
              LoomSnippetMaker *maker,
              gint64            rowid)
{
  static const char sql[] = "SELECT title || body FROM search_index WHERE rowid = ?1";
  sqlite3_stmt *stmt = loom_store_cached (store, sql, NULL);
  char *snippet = NULL;

  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, rowid);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    snippet = loom_snippet_maker_make (maker, (const char *)sqlite3_column_text (stmt, 0),
                                       SNIPPET_TOKENS);
  sqlite3_reset (stmt);
  return snippet;
}

/* Best first, then the most recent; in a session, the timeline's order. */
static int
compare_by_score (gconstpointer a,
                  gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  if (x->at != y->at)
    return x->at > y->at ? -1 : 1;
  return x->rowid > y->rowid ? -1 : x->rowid < y->rowid;
}

static int
compare_by_seq (gconstpointer a,
                gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  return x->rowid < y->rowid ? -1 : x->rowid > y->rowid;
}

static GListModel *
run_search (LoomStore        *store,
            LoomSearchQuery  *query,
            gint64            session_rowid,
            guint             offset,
            guint             limit,
            GError          **error)
{
  g_autoptr(GListStore) hits = g_list_store_new (LOOM_TYPE_SEARCH_HIT);
  g_autoptr(GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_autoptr(LoomSnippetMaker) maker = NULL;
  gint64 page_end = (gint64)offset + (limit > 0 ? limit : G_MAXUINT);
  Range ranges[3] = {
    { 0, LOOM_INDEX_MESSAGES_FROM - 1, MAX (EVENT_CANDIDATES, page_end) },
    { LOOM_INDEX_MESSAGES_FROM, LOOM_INDEX_TITLES_FROM - 1, MAX (MESSAGE_CANDIDATES, page_end) },
    { LOOM_INDEX_TITLES_FROM, G_MAXINT64, MAX (TITLE_CANDIDATES, page_end) },
  };
  gboolean ok;

  g_array_set_clear_func (candidates, candidate_clear);

  if (session_rowid > 0 && !session_ranges (store, session_rowid, ranges, error))
    return NULL;
  if (query->match != NULL &&
      !(maker = loom_snippet_maker_new (store->db,
                                        (const char * const *)query->marked->pdata,
                                        (const gboolean *)(gpointer)query->marked_prefix->data,
                                        query->marked->len, error)))
    return NULL;

  if (session_rowid == 0 && query->match != NULL && has_prefix (query))
    ok = read_ranges_in_one_scan (store, query, ranges, candidates, error);
  else
    ok = read_ranges (store, query, session_rowid, ranges, candidates, error);
  if (!ok)
    return NULL;

  /* Within a session, hits come in the timeline's order, for going from one to the next. */
  g_array_sort (candidates, session_rowid > 0 ? compare_by_seq : compare_by_score);

  for (guint i = offset; i < candidates->len && (gint64)i < page_end; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      LoomSearchHitData data = {
        .session_uuid = g_steal_pointer (&c->uuid),
        .session_title = g_steal_pointer (&c->title),
        .source = g_steal_pointer (&c->source),
        .item_type = g_strdup (c->rowid >= LOOM_INDEX_TITLES_FROM ? "title" :
                               c->rowid >= LOOM_INDEX_MESSAGES_FROM ? "message" : "event"),
        .item_id = c->item,
        .seq = c->seq,
        .kind = g_strdup (display_kind (c->kind, c->flags)),
        .tool_name = g_steal_pointer (&c->tool),
        .created_at = c->at,
        .snippet = maker != NULL ? make_snippet (store, maker, c->rowid)
                                 : g_steal_pointer (&c->preview),
        .score = c->score,
      };
      g_autoptr(LoomSearchHit) hit = loom_search_hit_new (&data);

      g_list_store_append (hits, hit);
    }
  return G_LIST_MODEL (g_steal_pointer (&hits));
}

GListModel *
loom_store_search (LoomStore   *store,
                   const char  *text,
                   guint        offset,
                   guint        limit,
                   GError     **error)
{
  g_autoptr(LoomSearchQuery) query = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!(query = loom_search_query_parse (text, error)))
    return NULL;
  return run_search (store, query, 0, offset, limit, error);
}

GListModel *
loom_store_search_session (LoomStore   *store,
                           const char  *session_id,
                           const char  *text,
                           guint        limit,
                           GError     **error)
{
  g_autoptr(LoomSearchQuery) query = NULL;
  gint64 rowid;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!(rowid = loom_store_resolve_session (store, session_id, error)) ||
      !(query = loom_search_query_parse (text, error)))
    return NULL;
  return run_search (store, query, rowid, 0, limit, error);
}
