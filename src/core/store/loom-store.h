/* loom-store.h — the private SQLite store and the operations on it.
 *
 * Every front end goes through these operations: the CLI prints their results, the app shows
 * them. A LoomStore holds one connection; a worker thread opens its own store on the same path.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-delete-plan.h"
#include "loom-folder.h"
#include "loom-session.h"
#include "loom-session-record.h"
#include "loom-store-naming.h"
#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_STORE_SCHEMA_VERSION 8

#define LOOM_TYPE_STORE (loom_store_get_type ())

G_DECLARE_FINAL_TYPE (LoomStore, loom_store, LOOM, STORE, GObject)

typedef struct
{
  LoomCollection collection;
  gint64         folder_id; /* 0: any folder (or none) */
  const char    *source;    /* NULL: every agent */
  const char    *project;   /* NULL: every project; else a project name or path */
  LoomSort       sort;
  gboolean       ascending; /* default is newest / A first for title */
  guint          offset;
  guint          limit; /* 0: no limit */
} LoomSessionQuery;

#define LOOM_SESSION_QUERY_INIT \
  { LOOM_COLLECTION_ALL, 0, NULL, NULL, LOOM_SORT_UPDATED, FALSE, 0, 0 }

/* $LOOM_DB, else $XDG_DATA_HOME/intentloom-history/history.db */
char *loom_store_default_path (void);

/* Opens (creating and migrating as needed) the store at @path, or the default when NULL. A store
 * of a newer schema fails with LOOM_ERROR_NEWER_SCHEMA and is left untouched. A file that is not
 * a readable database is renamed aside, and a fresh store is opened in its place; the name it
 * was given is then returned by loom_store_get_recovered_path(). */
LoomStore  *loom_store_open (const char *path,
                             GError    **error);
const char *loom_store_get_path (LoomStore *self);
const char *loom_store_get_recovered_path (LoomStore *self);
int         loom_store_get_schema_version (LoomStore *self);

/* The reads that follow, until loom_store_end_read (), see one snapshot of the store and take
 * its lock once: an export reads a session in hundreds of queries, and each would otherwise
 * begin and end a transaction of its own (a sixth of an export's time), and could see a
 * session half-way through an import's next batch. Sets @began to whether a transaction was
 * begun (none is when one is open already); give it to loom_store_end_read (). No write may
 * be made in between. */
gboolean loom_store_begin_read (LoomStore *self,
                                gboolean  *began,
                                GError   **error);
void     loom_store_end_read (LoomStore *self,
                              gboolean   began);

/* Sessions */
GListModel     *loom_store_list_sessions (LoomStore              *self,
                                          const LoomSessionQuery *query,
                                          GError                **error);
gboolean        loom_store_count_sessions (LoomStore              *self,
                                           const LoomSessionQuery *query,
                                           guint                  *n_sessions,
                                           GError                **error);
/* Whether the store has any session at all, trashed ones included; cheaper than a count. */
gboolean        loom_store_has_sessions (LoomStore *self,
                                         gboolean  *has_sessions,
                                         GError   **error);
/* @id is a session's uuid or an unambiguous prefix of it (at least 4 characters). */
LoomSession    *loom_store_get_session (LoomStore  *self,
                                        const char *id,
                                        GError    **error);
gboolean        loom_store_rename_session (LoomStore  *self,
                                           const char *id,
                                           const char *title,
                                           GError    **error);
gboolean        loom_store_set_pinned (LoomStore  *self,
                                       const char *id,
                                       gboolean    pinned,
                                       GError    **error);
gboolean        loom_store_set_archived (LoomStore  *self,
                                         const char *id,
                                         gboolean    archived,
                                         GError    **error);
gboolean        loom_store_set_trashed (LoomStore  *self,
                                        const char *id,
                                        gboolean    trashed,
                                        GError    **error);
gboolean        loom_store_mark_opened (LoomStore  *self,
                                        const char *id,
                                        GError    **error);
/* @folder_id 0 takes the session out of its folder. */
gboolean        loom_store_move_session (LoomStore  *self,
                                         const char *id,
                                         gint64      folder_id,
                                         GError    **error);
LoomDeletePlan *loom_store_plan_delete (LoomStore         *self,
                                        const char *const *ids,
                                        GError           **error);
LoomDeletePlan *loom_store_plan_empty_trash (LoomStore *self,
                                             GError   **error);
gboolean        loom_store_execute_delete (LoomStore      *self,
                                           LoomDeletePlan *plan,
                                           GError        **error);

/* Folders */
GListModel *loom_store_list_folders (LoomStore *self,
                                     GError   **error);
/* @name_or_id: a folder's name (case-insensitive) or its numeric id. */
LoomFolder *loom_store_find_folder (LoomStore  *self,
                                    const char *name_or_id,
                                    GError    **error);
LoomFolder *loom_store_create_folder (LoomStore  *self,
                                      const char *name,
                                      GError    **error);
gboolean    loom_store_rename_folder (LoomStore  *self,
                                      gint64      folder_id,
                                      const char *name,
                                      GError    **error);
/* Sessions in the folder are kept and leave the folder; @n_released says how many. */
gboolean    loom_store_delete_folder (LoomStore *self,
                                      gint64     folder_id,
                                      guint     *n_released,
                                      GError   **error);
gboolean    loom_store_reorder_folder (LoomStore *self,
                                       gint64     folder_id,
                                       guint      position,
                                       GError   **error);

/* Writing imported data. @record->id and ->uuid are filled in on success. */
gboolean loom_store_insert_session (LoomStore         *self,
                                    LoomSessionRecord *record,
                                    GError           **error);
gint64   loom_store_add_message (LoomStore  *self,
                                 gint64      session_id,
                                 const char *role,
                                 const char *text,
                                 gint64      created_at,
                                 GError    **error);
gint64   loom_store_add_event (LoomStore  *self,
                               gint64      session_id,
                               const char *kind,
                               const char *tool_name,
                               const char *payload,
                               gint64      created_at,
                               GError    **error);

/* A session's messages and events (LoomTimelineItem) in order; @limit 0: all. */
GListModel *loom_store_list_timeline (LoomStore  *self,
                                      const char *id,
                                      guint       offset,
                                      guint       limit,
                                      GError    **error);

/* The derived full-text index. */
gboolean loom_store_rebuild_index (LoomStore *self,
                                   GError   **error);

G_END_DECLS
