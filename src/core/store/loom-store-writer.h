/* loom-store-writer.h — the import's conversation with the store: batches, the files it knows
 * (their cursors), sessions and their links, messages and events, and what is derived from them.
 *
 * Every SQL statement of an import is written behind this header, so that the import framework
 * (loom-import*.c) reads as what it decides, not how rows are kept. Internal to core: the app
 * and the CLI import through loom-import.h, and see none of this.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-session-record.h"
#include "loom-store.h"

G_BEGIN_DECLS

/* A model's name, a version, a mode, a commit: a word or a few. The store keeps such metadata
 * no longer than this (loom_naming_bound_line ()). */
#define LOOM_STORE_WORD_LIMIT 200

/* Writes an import into a store; borrows the store, which must outlive it. */
typedef struct _LoomStoreWriter LoomStoreWriter;

LoomStoreWriter *loom_store_writer_new (LoomStore *store);
void             loom_store_writer_free (LoomStoreWriter *writer);

/* ——— The pass ——— */

/* Sets up the connection for bulk writes, for the rest of its life. */
gboolean loom_store_writer_prepare_bulk (LoomStoreWriter *writer,
                                         GError         **error);

/* See loom_store_hold_index_merges () and the next (loom-store-private.h): the search index's
 * merges held back over a pass, and its segments merged in steps after one that made most of
 * the index. */
gboolean loom_store_writer_hold_index_merges (LoomStoreWriter *writer,
                                              GError         **error);
gboolean loom_store_writer_resume_index_merges (LoomStoreWriter *writer,
                                                GError         **error);
gboolean loom_store_writer_index_wants_merging (LoomStoreWriter *writer,
                                                guint64          added,
                                                gboolean        *wants,
                                                GError         **error);
gboolean loom_store_writer_merge_index_step (LoomStoreWriter *writer,
                                             gboolean         first,
                                             guint            pages,
                                             gboolean        *merged,
                                             GError         **error);

/* A batch: one transaction over consecutive files, whose new messages, events and sessions are
 * indexed for search in bulk just before it commits; on failure, commit rolls it back. */
gboolean loom_store_writer_begin_batch (LoomStoreWriter *writer,
                                        GError         **error);
gboolean loom_store_writer_commit_batch (LoomStoreWriter *writer,
                                         GError         **error);
/* A plain transaction, for what a pass changes of the files it knows outside its batches. */
gboolean loom_store_writer_begin (LoomStoreWriter *writer,
                                  GError         **error);
gboolean loom_store_writer_commit (LoomStoreWriter *writer,
                                   GError         **error);
/* Rolls back the batch or the transaction. */
void     loom_store_writer_rollback (LoomStoreWriter *writer);

/* ——— Files and their cursors (loom-store-writer-cursors.c) ——— */

/* Where the last pass stopped in a file, and what the file looked like then. */
typedef struct
{
  gboolean found;
  guint64  device;
  guint64  inode;
  guint64  size;
  gint64   mtime; /* ns */
  guint64  offset;
  guint64  line;
  char    *prefix_hash; /* may be NULL */
  char    *state;       /* JSON */
} LoomStoreCursor;

/* Frees the strings of a cursor loom_store_writer_load_cursor () filled. */
void loom_store_cursor_clear (LoomStoreCursor *cursor);

/* Fills @cursor with the cursor of the file at @path; found is FALSE when it has none. */
gboolean loom_store_writer_load_cursor (LoomStoreWriter *writer,
                                        const char      *path,
                                        LoomStoreCursor *cursor,
                                        GError         **error);
/* Saves @cursor (whose found is not read) as the cursor of the file at @path, of format
 * @source. */
gboolean loom_store_writer_save_cursor (LoomStoreWriter       *writer,
                                        const char            *path,
                                        const char            *source,
                                        const LoomStoreCursor *cursor,
                                        GError               **error);

typedef void (*LoomStoreCursorFunc) (const char *path,
                                     const char *source,
                                     gint64      device,
                                     gint64      inode,
                                     gpointer    data);
/* Calls @func for the cursor of every file imported, to look for files that moved. */
gboolean loom_store_writer_foreach_cursor (LoomStoreWriter    *writer,
                                           LoomStoreCursorFunc func,
                                           gpointer            data,
                                           GError            **error);

typedef void (*LoomStoreFileFunc) (const char *path,
                                   gpointer    data);
/* Calls @func with the path of every file imported, to look for deleted ones. */
gboolean loom_store_writer_foreach_file (LoomStoreWriter  *writer,
                                         LoomStoreFileFunc func,
                                         gpointer          data,
                                         GError          **error);
/* Sets @known to whether the file at @path was imported (has a cursor). */
gboolean loom_store_writer_knows_file (LoomStoreWriter *writer,
                                       const char      *path,
                                       gboolean        *known,
                                       GError         **error);

/* The cursor and sessions of the file reached as @from move to its resolved path @to. */
gboolean loom_store_writer_rename_file (LoomStoreWriter *writer,
                                        const char      *from,
                                        const char      *to,
                                        GError         **error);
/* Gives the sessions of @from, a path now gone, to @to, where its file is (@device, @inode);
 * and its cursor, @with_cursor, else drops it (the file's own cursor at @to saw it last). */
gboolean loom_store_writer_move_file (LoomStoreWriter *writer,
                                      const char      *from,
                                      const char      *to,
                                      guint64          device,
                                      guint64          inode,
                                      gboolean         with_cursor,
                                      GError         **error);
/* Removes what an earlier pass imported from the file at @path, before it is read again. */
gboolean loom_store_writer_clear_file (LoomStoreWriter *writer,
                                       const char      *path,
                                       GError         **error);
/* Drops the cursor of @path, a file gone, if no session is named by it. */
gboolean loom_store_writer_forget_file (LoomStoreWriter *writer,
                                        const char      *path,
                                        GError         **error);
/* Marks the sessions of @path, a file gone, missing; adds how many to @n_marked. */
gboolean loom_store_writer_mark_file_missing (LoomStoreWriter *writer,
                                              const char      *path,
                                              guint           *n_marked,
                                              GError         **error);
gboolean loom_store_writer_unmark_file_missing (LoomStoreWriter *writer,
                                                const char      *path,
                                                GError         **error);
/* Adds to @paths (char *) the files of the sessions marked missing. */
gboolean loom_store_writer_list_missing_files (LoomStoreWriter *writer,
                                               GPtrArray       *paths,
                                               GError         **error);

/* ——— Sessions (loom-store-writer-sessions.c) ——— */

/* Adds or updates the session (@source, @meta->source_session_id) with @meta, linked to its
 * project and parent (a placeholder until the parent's own file is imported), its source path
 * @path unless @meta names one. Returns its row id; 0 on an error, or when the person deleted
 * it or its parent for good (then without @error). Adds to @n_created the sessions it added, a
 * placeholder parent among them. */
gint64   loom_store_writer_upsert_session (LoomStoreWriter         *writer,
                                           const LoomSessionRecord *meta,
                                           const char              *source,
                                           const char              *path,
                                           guint                   *n_created,
                                           GError                 **error);
/* See loom_import_file_rekey () (loom-importer.h): the sessions of (@source, @old_id) that the
 * file at @path made, and their children, take @new_id. FALSE without @error when both are
 * real sessions. */
gboolean loom_store_writer_rekey_session (LoomStoreWriter *writer,
                                          const char      *source,
                                          const char      *old_id,
                                          const char      *new_id,
                                          const char      *path,
                                          GError         **error);

/* ——— Timelines (loom-store-writer-timeline.c) ——— */

/* A message as the store writes it: what the import's LoomMessageDraft carries. Token counts
 * of -1 mean "not known". */
typedef struct
{
  const char *source_id;
  const char *role;
  const char *text;
  guint       flags;
  const char *model;
  gint64      created_at;
  gint64      input_tokens;
  gint64      output_tokens;
  gint64      cache_read_tokens;
  gint64      cache_creation_tokens;
  gint64      reasoning_tokens;
} LoomStoreMessage;

/* An event as the store writes it: what the import's LoomEventDraft carries. */
typedef struct
{
  const char *kind;
  const char *source_id;
  const char *call_id;
  const char *tool_name;
  gboolean    is_error;
  const char *path;
  const char *change_kind;
  const char *text;
  const char *payload;
  gint64      created_at;
  gint64      message_id; /* 0 if none */
} LoomStoreEvent;

/* The last place taken in the session's timeline (0 for none), -1 on an error. */
gint64 loom_store_writer_last_seq (LoomStoreWriter *writer,
                                   gint64           session_id,
                                   GError         **error);
/* Adds the message at @seq, or updates the one of the same source id, and returns its row id;
 * 0 on an error. Adds 1 to @n_added if the message is new. */
gint64 loom_store_writer_add_message (LoomStoreWriter        *writer,
                                      gint64                  session_id,
                                      gint64                  seq,
                                      const LoomStoreMessage *message,
                                      guint64                *n_added,
                                      GError                **error);
/* Adds the event at @seq, or finds the one of the same kind and source id, and returns its row
 * id; 0 on an error. Adds 1 to @n_added if the event is new. */
gint64 loom_store_writer_add_event (LoomStoreWriter      *writer,
                                    gint64                session_id,
                                    gint64                seq,
                                    const LoomStoreEvent *event,
                                    guint64              *n_added,
                                    GError              **error);

/* Recomputes the session's counts, times, summed tokens, tools and models from its rows. A
 * user message with a flag of @not_a_prompt is not counted, nor an assistant one with a flag of
 * @not_a_reply. */
gboolean loom_store_writer_recount_session (LoomStoreWriter *writer,
                                            gint64           session_id,
                                            guint            not_a_prompt,
                                            guint            not_a_reply,
                                            GError         **error);
/* Sets the session's tokens to the totals its agent reported; a negative count is stored as 0,
 * but a negative @reasoning as not known. */
gboolean loom_store_writer_set_tokens (LoomStoreWriter *writer,
                                       gint64           session_id,
                                       gint64           input,
                                       gint64           output,
                                       gint64           cache_read,
                                       gint64           cache_creation,
                                       gint64           reasoning,
                                       GError         **error);
/* The session's models (a JSON array) and model, as stored; NULL each when there is none. */
gboolean loom_store_writer_get_models (LoomStoreWriter *writer,
                                       gint64           session_id,
                                       char           **models_json,
                                       char           **model,
                                       GError         **error);
gboolean loom_store_writer_set_models (LoomStoreWriter *writer,
                                       gint64           session_id,
                                       const char      *models_json,
                                       const char      *model,
                                       GError         **error);
/* What the session's name is made of: whether a person named it (@locked, and then nothing
 * else is read), the name its agent gave it, the text of its first user message without a flag
 * of @not_a_prompt (NULL each when there is none), and when it began. */
gboolean loom_store_writer_get_title_sources (LoomStoreWriter *writer,
                                              gint64           session_id,
                                              guint            not_a_prompt,
                                              gboolean        *locked,
                                              char           **agent_title,
                                              char           **first_prompt,
                                              gint64          *created_at,
                                              GError         **error);
gboolean loom_store_writer_set_title (LoomStoreWriter *writer,
                                      gint64           session_id,
                                      const char      *title,
                                      GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomStoreWriter, loom_store_writer_free)

G_END_DECLS
