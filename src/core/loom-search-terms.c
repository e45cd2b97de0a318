/* loom-search-terms.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-terms.h"
#include "loom-search-tokenizer.h"

struct _LoomSearchTermLog
{
  GHashTable *pending;   /* term → its smallest head, as a pointer */
};

LoomSearchTermLog *
loom_search_term_log_new (void)
{
  LoomSearchTermLog *self = g_new0 (LoomSearchTermLog, 1);

  self->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

void
loom_search_term_log_free (LoomSearchTermLog *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->pending);
  g_free (self);
}

void
loom_search_term_log_add (LoomSearchTermLog *self,
                          const char        *term,
                          int                length,
                          int                head)
{
  char buffer[128];
  g_autofree char *allocated = NULL;
  const char *key;
  gpointer known;

  g_assert (self != NULL);
  g_assert (length >= 0);

  /* Every token of every indexed entry passes here: look it up without allocating. */
  if ((gsize)length < sizeof buffer)
    {
      memcpy (buffer, term, (gsize)length);
      buffer[length] = '\0';
      key = buffer;
    }
  else
    key = allocated = g_strndup (term, (gsize)length);

  if (!g_hash_table_lookup_extended (self->pending, key, NULL, &known))
    g_hash_table_insert (self->pending, g_strdup (key), GINT_TO_POINTER (head));
  else if (head < GPOINTER_TO_INT (known))
    g_hash_table_insert (self->pending, g_strdup (key), GINT_TO_POINTER (head));
}

gboolean
loom_search_term_log_flush (LoomSearchTermLog  *self,
                            sqlite3            *db,
                            GError            **error)
{
  static const char sql[] =
    "INSERT INTO search_terms (term, head) VALUES (?1, ?2)"
    " ON CONFLICT (term) DO UPDATE SET head = excluded.head WHERE excluded.head < head";
  sqlite3_stmt *stmt = NULL;
  GHashTableIter iter;
  gpointer term, head;
  int rc = SQLITE_DONE;

  g_assert (self != NULL);

  if (g_hash_table_size (self->pending) == 0)
    return TRUE;
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    rc = sqlite3_errcode (db);

  g_hash_table_iter_init (&iter, self->pending);
  while (stmt != NULL && rc == SQLITE_DONE && g_hash_table_iter_next (&iter, &term, &head))
    {
      sqlite3_bind_text (stmt, 1, term, -1, SQLITE_STATIC);
      sqlite3_bind_int (stmt, 2, GPOINTER_TO_INT (head));
      rc = sqlite3_step (stmt);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                   "Could not note the search index's words: %s", sqlite3_errmsg (db));
      return FALSE;
    }
  g_hash_table_remove_all (self->pending);
  return TRUE;
}

static int
on_token (void       *user_data,
          int         flags,
          const char *token,
          int         length,
          int         start,
          int         end)
{
  GPtrArray *tokens = user_data;

  g_ptr_array_add (tokens, g_strndup (token, (gsize)length));
  return SQLITE_OK;
}

/* @word's tokens as the index's tokenizer reads a query. */
static GPtrArray *
tokenize_query (sqlite3    *db,
                const char *word,
                GError    **error)
{
  g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  fts5_api *api = loom_search_get_fts5_api (db);
  fts5_tokenizer tokenizer;
  Fts5Tokenizer *instance = NULL;
  void *user_data = NULL;
  int rc;

  if (api == NULL ||
      api->xFindTokenizer (api, LOOM_SEARCH_TOKENIZER, &user_data, &tokenizer) != SQLITE_OK ||
      tokenizer.xCreate (user_data, NULL, 0, &instance) != SQLITE_OK)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "The search index's tokenizer is not available");
      return NULL;
    }
  rc = tokenizer.xTokenize (instance, tokens, FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX, word,
                            (int)strlen (word), on_token);
  tokenizer.xDelete (instance);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not read “%s”: %s", word,
                   sqlite3_errstr (rc));
      return NULL;
    }
  return g_steal_pointer (&tokens);
}

GPtrArray *
loom_search_terms_expand (sqlite3     *db,
                          const char  *word,
                          guint        max_terms,
                          GError     **error)
{
  /* Above every term that starts with ?1 in BINARY order: U+10FFFF, UTF-8's largest. */
  static const char sql[] =
    "SELECT term FROM search_terms"
    " WHERE term >= ?1 AND term < ?1 || char (1114111) AND (head = 0 OR head < length (?1))"
    " LIMIT ?2";
  g_autoptr(GPtrArray) tokens = NULL;
  g_autoptr(GPtrArray) terms = NULL;
  sqlite3_stmt *stmt = NULL;
  const char *prefix;
  int rc;

  g_return_val_if_fail (db != NULL, NULL);
  g_return_val_if_fail (word != NULL, NULL);

  if (!(tokens = tokenize_query (db, word, error)))
    return NULL;
  if (tokens->len != 1)
    return NULL;
  prefix = g_ptr_array_index (tokens, 0);

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not list the words “%s*”: %s",
                   word, sqlite3_errmsg (db));
      return NULL;
    }
  sqlite3_bind_text (stmt, 1, prefix, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, (sqlite3_int64)max_terms + 1);

  terms = g_ptr_array_new_with_free_func (g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (terms, g_strdup ((const char *)sqlite3_column_text (stmt, 0)));
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not list the words “%s*”: %s",
                   word, sqlite3_errmsg (db));
      return NULL;
    }
  if (terms->len > max_terms)
    return NULL;
  return g_steal_pointer (&terms);
}
