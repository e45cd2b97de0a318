/* loom-search-hook.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-search-hook.h"
#include "loom-search-rank.h"
#include "loom-search-terms.h"
#include "loom-search-tokenizer.h"
#include "loom-store-hooks.h"

/* The connection's term log is noted for the store to flush before each commit; it belongs to
 * the tokenizer's registration, and so goes with the connection. */
static gboolean
connect_search (sqlite3  *db,
                gpointer *noted,
                GError  **error)
{
  LoomSearchTermLog *log;

  if (!(log = loom_search_tokenizer_register_logged (db, error)))
    return FALSE;
  *noted = log;
  return loom_search_rank_register (db, error);
}

static gboolean
flush_terms (sqlite3 *db,
             gpointer noted,
             GError **error)
{
  return loom_search_term_log_flush (noted, db, error);
}

static const LoomStoreConnectionHook search_hook = {
  .connect = connect_search,
  .flush = flush_terms,
};

void
loom_search_install_store_hook (void)
{
  loom_store_add_connection_hook (&search_hook);
}
