/* loom-store-private.h — what the store's own files share. Nothing outside src/core uses it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "loom-store-hooks.h"
#include "loom-store.h"

G_BEGIN_DECLS

struct _LoomStore
{
  GObject     parent_instance;
  sqlite3    *db;
  char       *path;
  char       *recovered_path;
  GHashTable *statements; /* SQL literal's address → prepared statement (imports) */
  GHashTable *built;      /* SQL text → prepared statement (searches) */
  /* owned by db: what each connection hook noted and has yet to write (loom-store-hooks.h) */
  gpointer    noted[LOOM_STORE_MAX_CONNECTION_HOOKS];
  gboolean    mapped; /* reads go through a memory map */
};

/* Like loom_store_cached (), for SQL built at run time, keyed by its text. Reset the statement
 * once done with it: a statement left stepping holds its read transaction open. */
sqlite3_stmt *loom_store_cached_built (LoomStore  *self,
                                       const char *sql,
                                       GError    **error);

/* Holds back FTS5's merging of the index's segments as they are written, until
 * loom_store_resume_index_merges (); an import writes a segment per batch. */
gboolean loom_store_hold_index_merges (LoomStore *self,
                                       GError   **error);
gboolean loom_store_resume_index_merges (LoomStore *self,
                                         GError   **error);

/* Sets @wants to whether an import that added @added entries made most of the index (a first
 * import, a large catch-up): then its segments are best merged into one
 * (loom_store_merge_index_step ()). */
gboolean loom_store_index_wants_merging (LoomStore *self,
                                         guint64    added,
                                         gboolean  *wants,
                                         GError   **error);

/* Merges the index's segments into one, about @pages pages at a time, each step committed on
 * its own; the @first step starts the merge and the next go on with it. Sets @merged to
 * whether the step found anything to merge: once it does not, the merge is done. */
gboolean loom_store_merge_index_step (LoomStore *self,
                                      gboolean   first,
                                      guint      pages,
                                      gboolean  *merged,
                                      GError   **error);

/* Has the connection hooks write what they noted (the search index's new terms): loom_store_commit
 * () does it before it commits; a write that indexes text outside a transaction does it right
 * after. */
gboolean loom_store_flush_noted (LoomStore *self,
                                 GError   **error);

/* Sets @error from the connection's last error, saying what was being done. */
void                 loom_store_set_error (LoomStore  *self,
                                           GError    **error,
                                           const char *doing);
sqlite3_stmt        *loom_store_prepare (LoomStore  *self,
                                         const char *sql,
                                         GError    **error);
/* A prepared statement kept for the store's lifetime, reset and unbound, ready to bind.
 * @sql must be a static string (a literal): statements are found by its address. */
sqlite3_stmt        *loom_store_cached (LoomStore  *self,
                                        const char *sql,
                                        GError    **error);
/* A statement of loom_store_cached () or loom_store_cached_built () used for one scope:
 * g_autoptr (LoomStoreBorrowed) resets it when the scope ends, where g_autoptr (sqlite3_stmt)
 * would finalize a statement the cache still holds. */
typedef sqlite3_stmt LoomStoreBorrowed;

static inline void
loom_store_borrowed_reset (LoomStoreBorrowed *stmt)
{
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomStoreBorrowed, loom_store_borrowed_reset)

gboolean loom_store_exec (LoomStore  *self,
                          const char *sql,
                          GError    **error);
gboolean loom_store_begin (LoomStore *self,
                           GError   **error);
gboolean loom_store_commit (LoomStore *self,
                            GError   **error);
void     loom_store_rollback (LoomStore *self);

/* A transaction whose new messages, events and sessions are indexed for search in bulk, just
 * before it commits. Messages and events are indexed no other way (schema v5): whatever adds
 * them does so in such a transaction. On failure both roll the transaction back. */
gboolean loom_store_begin_indexed (LoomStore *self,
                                   GError   **error);
gboolean loom_store_commit_indexed (LoomStore *self,
                                    GError   **error);

/* Resolves a uuid or unambiguous prefix to a row id. */
gint64       loom_store_resolve_session (LoomStore  *self,
                                         const char *id,
                                         GError    **error);
LoomSession *loom_store_load_session (LoomStore *self,
                                      gint64     rowid,
                                      GError   **error);

/* The WHERE clause of a session query (after " FROM sessions s"), with the projects table
 * joined first when @join_projects and the query filters by project; its parameters are bound
 * by name with loom_store_bind_session_query(). Shared by the list, the count and the ids, so
 * that all three always mean the same sessions. */
void loom_store_append_session_filter (GString                *sql,
                                       const LoomSessionQuery *query,
                                       gboolean                join_projects);
void loom_store_append_session_order (GString                *sql,
                                      const LoomSessionQuery *query);
void loom_store_bind_session_query (sqlite3_stmt           *stmt,
                                    const LoomSessionQuery *query);

/* The SELECT list and joins that read a LoomSessionRecord; see loom_store_read_record(). */
extern const char loom_store_session_select[];
void              loom_store_read_record (sqlite3_stmt      *stmt,
                                          LoomSessionRecord *record);
/* Steps @stmt, a loom_store_session_select, to its end: a GListModel of LoomSession in its
 * order, or NULL with an error saying what could not be done (@what: "list the sessions"). */
GListModel       *loom_store_collect_sessions (LoomStore    *self,
                                               sqlite3_stmt *stmt,
                                               const char   *what,
                                               GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (sqlite3_stmt, sqlite3_finalize)

G_END_DECLS
