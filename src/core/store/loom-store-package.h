/* loom-store-package.h — a session's rows as a package keeps them, and put back from one.
 *
 * An export writes every row the store keeps of a session into the package's session.jsonl,
 * so that importing the package restores the session exactly: these read the rows one at a
 * time, in timeline order, never the whole session at once. A restore writes them back
 * through the import's writer (loom-store-writer.h), in one of its batches, so that the
 * restored rows are indexed for search like imported ones.
 *
 * Internal to core: the app and the CLI go through loom-export.h and loom-package-import.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-session-record.h"
#include "loom-store-writer.h"
#include "loom-store.h"

G_BEGIN_DECLS

/* One message or event with every column the store keeps but its row ids. Counts of -1 and
 * a message_seq of -1 mean "none" (NULL in the store). The strings live until the callback
 * returns. */
typedef struct
{
  gboolean    is_message;
  gint64      seq;
  const char *source_id;
  const char *model; /* messages */
  gint64      created_at;
  const char *text;

  /* Messages */
  const char *role;
  guint       flags;
  gint64      input_tokens;
  gint64      output_tokens;
  gint64      cache_read_tokens;
  gint64      cache_creation_tokens;
  gint64      reasoning_tokens;

  /* Events */
  const char *kind;
  gint64      message_seq; /* the seq of the message the event belongs to */
  const char *call_id;
  const char *tool_name;
  gboolean    is_error;
  const char *path;
  const char *change_kind;
  const char *payload;
  gint64      payload_size;
} LoomStoreRow;

/* A summary of the session (the summaries table). */
typedef struct
{
  const char *kind;
  const char *text;
  const char *model;
  gint64      created_at;
} LoomStoreSummary;

typedef gboolean (*LoomStoreRowFunc) (const LoomStoreRow *row,
                                      gpointer            data,
                                      GError            **error);
typedef gboolean (*LoomStoreSummaryFunc) (const LoomStoreSummary *summary,
                                          gpointer                data,
                                          GError                **error);

/* Calls @func for every message and event of the session @session_id (a row id), in seq
 * order (a message before an event of the same seq), one row in memory at a time, all of them
 * from one snapshot of the store. Stops at the first @func that fails, with its error. */
gboolean loom_store_foreach_session_row (LoomStore       *self,
                                         gint64           session_id,
                                         LoomStoreRowFunc func,
                                         gpointer         data,
                                         GError         **error);
gboolean loom_store_foreach_session_summary (LoomStore           *self,
                                             gint64               session_id,
                                             LoomStoreSummaryFunc func,
                                             gpointer             data,
                                             GError             **error);

/* What LoomSessionRecord does not carry of the session's name: whether a person chose it, and
 * the agent's own name for the session (NULL when none). */
gboolean loom_store_get_session_naming (LoomStore *self,
                                        gint64     session_id,
                                        gboolean  *title_locked,
                                        char     **agent_title,
                                        GError   **error);

/* ——— Restoring, inside a batch of @writer ——— */

/* The row id of the session called @uuid, or (@source, @source_session_id) by its agent; 0
 * when neither is stored, -1 on an error. */
gint64 loom_store_writer_find_package_session (LoomStoreWriter *writer,
                                               const char      *uuid,
                                               const char      *source,
                                               const char      *source_session_id,
                                               GError         **error);

/* Adds the session of @record as it was: its uuid, source ids, every field and count, linked
 * to its project (by path, made when missing), its folder (by name, made when missing), and
 * its parent and fork source when they are stored (by uuid). No source_path: the package is
 * not the agent's file. Returns the row id, 0 on an error. */
gint64   loom_store_writer_restore_session (LoomStoreWriter         *writer,
                                            const LoomSessionRecord *record,
                                            gboolean                 title_locked,
                                            const char              *agent_title,
                                            GError                 **error);
/* Adds @row to the session @session_id as it is; an event's message_seq is looked up among the
 * messages restored before it. Returns the row id, 0 on an error. */
gint64   loom_store_writer_restore_row (LoomStoreWriter    *writer,
                                        gint64              session_id,
                                        const LoomStoreRow *row,
                                        GError            **error);
gboolean loom_store_writer_restore_summary (LoomStoreWriter        *writer,
                                            gint64                  session_id,
                                            const LoomStoreSummary *summary,
                                            GError                **error);

G_END_DECLS
