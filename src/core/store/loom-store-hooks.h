/* loom-store-hooks.h — what a layer above the store sets up on each connection the store opens.
 *
 * The search index is made with a tokenizer and read with functions that search/ writes, and
 * the index's tokenizer notes the terms it indexes, to be written before each commit
 * (loom-search-terms.h). The store must not know any of that: search/ installs a hook, once,
 * from loom_core_init (), and the store runs it on every connection. Inside core only: the app
 * and the CLI call loom_core_init () (loom-core.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

typedef struct
{
  /* Readies @db, just opened, before anything reads it: registers tokenizers and functions.
   * What it sets in *@noted belongs to the connection (it goes when the connection closes)
   * and is handed to @flush; NULL when there is nothing to flush. */
  gboolean (*connect) (sqlite3  *db,
                       gpointer *noted,
                       GError  **error);
  /* Writes what the connection noted since the last flush (may be NULL): before each commit,
   * right after a write outside a transaction, and when the store closes. */
  gboolean (*flush) (sqlite3 *db,
                     gpointer noted,
                     GError **error);
} LoomStoreConnectionHook;

#define LOOM_STORE_MAX_CONNECTION_HOOKS 4

/* Adds @hook, which must live as long as the process, to those every connection gets; adding
 * one twice adds it once. Call it before any store is opened (loom_core_init () does). */
void loom_store_add_connection_hook (const LoomStoreConnectionHook *hook);

/* Whether any hook was added: a store opened without them could not read its own index. */
gboolean loom_store_has_connection_hooks (void);

G_END_DECLS
