/* loom-schema.h — the store's schema and its migrations (private to the core).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Brings the database from its user_version up to LOOM_STORE_SCHEMA_VERSION in one transaction.
 * A database of a newer version is refused before anything is written. */
gboolean loom_schema_migrate (sqlite3    *db,
                              const char *path,
                              GError    **error);

/* The statements that (re)create the derived full-text index from the base tables. */
extern const char loom_schema_index_rebuild_sql[];

/* Bulk indexing for import batches: the first marks where the batch starts, the second indexes
 * every message and event added since and clears the mark (see schema_v2). */
extern const char loom_schema_index_defer_sql[];
extern const char loom_schema_index_deferred_sql[];

G_END_DECLS
