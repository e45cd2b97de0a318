/* loom-store-session-ids.h — a query's sessions as row ids, and sessions read by row id.
 *
 * What the lazy session list is built on: the ordered ids of 100,000 sessions take one narrow
 * query and 800 kB, and any page of them is then read by id, as fast deep in the list as at
 * its top (LIMIT … OFFSET reads every row it skips).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"

G_BEGIN_DECLS

/* The row ids (gint64) of the sessions of @query, in its order; offset and limit are ignored.
 * The same sessions in the same order as loom_store_list_sessions(). */
GArray    *loom_store_list_session_ids (LoomStore              *self,
                                        const LoomSessionQuery *query,
                                        GError                **error);
/* The sessions of @ids (row ids) in that order; ids of sessions deleted since are left out. */
GPtrArray *loom_store_load_sessions (LoomStore    *self,
                                     const gint64 *ids,
                                     guint         n_ids,
                                     GError      **error);
/* A value that changes whenever the store changes, through this store or any other connection
 * (an import in a worker thread, the CLI): a list read at one stamp is still right at the same
 * stamp, unless it depends on the time (Recent, Active). */
guint64    loom_store_get_change_stamp (LoomStore *self);
/* The row id of the session with exactly this @uuid, or 0. */
gint64     loom_store_find_session_id (LoomStore  *self,
                                       const char *uuid,
                                       GError    **error);

G_END_DECLS
