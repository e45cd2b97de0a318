/* loom-store-artifacts.h — the events that name a session's files, for its export.
 *
 * Not a public header: the export layer reads through it, the app and the CLI ask the export.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"

G_BEGIN_DECLS

/* One event that names a file, valid only during the callback it is given to. */
typedef struct
{
  gint64      seq;
  const char *kind; /* LOOM_EVENT_FILE_CHANGE or LOOM_EVENT_TOOL_CALL */
  const char *tool_name;
  const char *call_id;
  const char *path;        /* file changes: the file, as the importer stored it */
  const char *change_kind; /* file changes: add, write, edit, insert, delete, rename */
  const char *payload;
  const char *result_payload; /* file changes: the payload of their call's first result */
} LoomStoreFileEvent;

/* Returns FALSE with @error set to stop the walk. */
typedef gboolean (*LoomStoreFileEventFunc) (const LoomStoreFileEvent *event,
                                            gpointer                  user_data,
                                            GError                  **error);

/* Calls @func, in timeline order, for every file change of the session @session_id (a uuid or
 * an unambiguous prefix) and every tool call of it whose tool is one of @tool_names
 * (NULL-terminated; NULL for none). One event at a time, so that memory is bounded by the
 * largest event rather than the session. @func must not use @self: the statement is still
 * stepping. */
gboolean loom_store_foreach_file_event (LoomStore             *self,
                                        const char            *session_id,
                                        const char *const     *tool_names,
                                        LoomStoreFileEventFunc func,
                                        gpointer               user_data,
                                        GError               **error);

G_END_DECLS
