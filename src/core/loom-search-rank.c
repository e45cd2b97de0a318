/* loom-search-rank.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-search-rank.h"
#include "loom-search-tokenizer.h"

/* bm25's usual constants: how fast repeats saturate, and how much length matters. */
#define K1 1.2
#define B  0.75

/* The columns of the search index that hold text (after session_id, kind and created_at);
 * facets, the last, only serve filters. */
#define TITLE_COLUMN 3
#define BODY_COLUMN  4

static void
rank_function (const Fts5ExtensionApi  *api,
               Fts5Context             *fts,
               sqlite3_context         *context,
               int                      n_values,
               sqlite3_value          **values)
{
  double title_weight = n_values > 0 ? sqlite3_value_double (values[0]) : 1.0;
  int n_phrases = api->xPhraseCount (fts);
  g_autofree double *frequency = g_new0 (double, MAX (n_phrases, 1));
  sqlite3_int64 n_rows = 0, total_title = 0, total_body = 0;
  int title_tokens = 0, body_tokens = 0, n_inst = 0, rc;
  double average, norm, score = 0;

  if ((rc = api->xInstCount (fts, &n_inst)) != SQLITE_OK ||
      (rc = api->xColumnSize (fts, TITLE_COLUMN, &title_tokens)) != SQLITE_OK ||
      (rc = api->xColumnSize (fts, BODY_COLUMN, &body_tokens)) != SQLITE_OK ||
      (rc = api->xRowCount (fts, &n_rows)) != SQLITE_OK ||
      (rc = api->xColumnTotalSize (fts, TITLE_COLUMN, &total_title)) != SQLITE_OK ||
      (rc = api->xColumnTotalSize (fts, BODY_COLUMN, &total_body)) != SQLITE_OK)
    {
      sqlite3_result_error_code (context, rc);
      return;
    }

  for (int i = 0; i < n_inst; i++)
    {
      int phrase, column, offset;

      if ((rc = api->xInst (fts, i, &phrase, &column, &offset)) != SQLITE_OK)
        {
          sqlite3_result_error_code (context, rc);
          return;
        }
      if (phrase < 0 || phrase >= n_phrases)
        continue;
      if (column == TITLE_COLUMN)
        frequency[phrase] += title_weight;
      else if (column == BODY_COLUMN)
        frequency[phrase] += 1.0;
    }

  average = n_rows > 0 ? (double)(total_title + total_body) / (double)n_rows : 1.0;
  norm = K1 * (1.0 - B + B * (double)(title_tokens + body_tokens) / MAX (average, 1.0));
  for (int p = 0; p < n_phrases; p++)
    score += frequency[p] * (K1 + 1.0) / (frequency[p] + norm);

  sqlite3_result_double (context, -score);
}

gboolean
loom_search_rank_register (sqlite3  *db,
                           GError  **error)
{
  fts5_api *api;

  g_return_val_if_fail (db != NULL, FALSE);

  api = loom_search_get_fts5_api (db);
  if (api == NULL || api->iVersion < 2 ||
      api->xCreateFunction (api, LOOM_SEARCH_RANK, NULL, rank_function, NULL) != SQLITE_OK)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "This SQLite has no full-text search (FTS5)");
      return FALSE;
    }
  return TRUE;
}
