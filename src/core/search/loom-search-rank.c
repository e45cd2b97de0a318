/* loom-search-rank.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-search-index.h"
#include "loom-search-rank.h"
#include "loom-search-tokenizer.h"

/* bm25's constant for how fast repeats saturate. Unlike bm25 the entry's length is left out:
 * reading it costs a lookup in the index's docsize table for every candidate, 40 % of a
 * search for a common word, and the kind of entry says more than its length (a long tool
 * output ranks below a prompt by its kind's weight; repeats in it saturate at 2.2 times one). */
#define K1 1.2

/* The columns of the search index that hold text (see loom-schema.c); facets, the last, only
 * serve filters. */
#define TITLE_COLUMN 0
#define BODY_COLUMN  1

static void
rank_function (const Fts5ExtensionApi *api,
               Fts5Context            *fts,
               sqlite3_context        *context,
               int                     n_values,
               sqlite3_value         **values)
{
  double             title_weight = n_values > 0 ? sqlite3_value_double (values[0]) : 1.0;
  int                n_phrases = api->xPhraseCount (fts);
  g_autofree double *frequency = g_new0 (double, MAX (n_phrases, 1));
  int                n_inst = 0, rc;
  double             score = 0;

  if ((rc = api->xInstCount (fts, &n_inst)) != SQLITE_OK)
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

  for (int p = 0; p < n_phrases; p++)
    score += frequency[p] * (K1 + 1.0) / (frequency[p] + K1);

  sqlite3_result_double (context, -score);
}

static void
take_function (sqlite3_context *context,
               int              n_values,
               sqlite3_value  **values)
{
  LoomSearchQuota *quota = sqlite3_value_pointer (values[1], LOOM_SEARCH_QUOTA_TYPE);
  guint            range;

  if (quota == NULL)
    {
      sqlite3_result_int (context, 0);
      return;
    }
  range = loom_index_range_of (sqlite3_value_int64 (values[0]));
  if (quota->taken[range] >= quota->limits[range])
    {
      sqlite3_result_int (context, 0);
      return;
    }
  quota->taken[range]++;
  sqlite3_result_int (context, 1);
}

gboolean
loom_search_rank_register (sqlite3 *db,
                           GError **error)
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
  if (sqlite3_create_function (db, LOOM_SEARCH_TAKE, 2, SQLITE_UTF8, NULL, take_function, NULL,
                               NULL) != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not set up searching: %s",
                   sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
