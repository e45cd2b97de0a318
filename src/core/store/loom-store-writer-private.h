/* loom-store-writer-private.h — what the writer's files (loom-store-writer*.c) share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store-private.h"
#include "loom-store-writer.h"

G_BEGIN_DECLS

struct _LoomStoreWriter
{
  LoomStore *store;
};

/* Steps @stmt to its end and resets it: the first column of its row if it gives one (a
 * RETURNING id), else 0; -1 with @error set (saying what it was @doing) on a failure. */
gint64 loom_store_writer_step (LoomStoreWriter *writer,
                               sqlite3_stmt    *stmt,
                               const char      *doing,
                               GError         **error);
/* The row an INSERT … ON CONFLICT DO NOTHING added, 0 when it met a conflict, -1 on an error. */
gint64 loom_store_writer_step_inserting (LoomStoreWriter *writer,
                                         sqlite3_stmt    *stmt,
                                         const char      *doing,
                                         GError         **error);

/* Binders that store NULL for what is not there. */
void loom_store_writer_bind_text (sqlite3_stmt *stmt,
                                  int           index,
                                  const char   *text);
void loom_store_writer_bind_line (sqlite3_stmt *stmt,
                                  int           index,
                                  const char   *text,
                                  glong         max_chars);
void loom_store_writer_bind_path (sqlite3_stmt *stmt,
                                  int           index,
                                  const char   *path);
/* An event's text, bounded for display and search: at most LOOM_STORE_EVENT_TEXT_LIMIT bytes,
 * cut on a character boundary; "" for NULL. Its payload keeps the whole. */
#define LOOM_STORE_EVENT_TEXT_LIMIT 65536
void loom_store_writer_bind_event_text (sqlite3_stmt *stmt,
                                        int           index,
                                        const char   *text);
void loom_store_writer_bind_count (sqlite3_stmt *stmt,
                                   int           index,
                                   gint64        value);
void loom_store_writer_bind_row (sqlite3_stmt *stmt,
                                 int           index,
                                 gint64        row);

G_END_DECLS
