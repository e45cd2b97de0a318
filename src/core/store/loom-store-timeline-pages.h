/* loom-store-timeline-pages.h — reading a session's timeline in pieces, for the lazy model.
 *
 * A long session (tens of thousands of items) must open at once: the timeline model first reads
 * only the ordered keys of what it shows, then whole items a page at a time, by seq range, as
 * the view asks for them. Payloads are read one at a time, when a person opens a tool call.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"
#include "loom-timeline-item.h"

G_BEGIN_DECLS

/* One entry of a shown timeline: enough to find the item again. */
typedef struct
{
  gint64   seq;
  gint64   id; /* a message's or an event's row id, by is_message */
  gboolean is_message;
} LoomTimelineKey;

/* The keys of the items a timeline shows, in order, as a GArray of LoomTimelineKey. Left out:
 * messages without text (an assistant turn that only called tools), synthetic error messages
 * that an api_error event already reports, results that belong to a call shown elsewhere
 * (loom_store_read_tool_results() reads them with their call), and tool calls that a file
 * change or a sub-agent start of the same call stands for. */
GArray *loom_store_read_timeline_keys (LoomStore *self,
                                       gint64     session_id,
                                       GError   **error);

/* Every message and event (LoomTimelineItem) of the session with @first_seq <= seq <=
 * @last_seq, in timeline order: a page of the model. */
GPtrArray *loom_store_read_timeline_range (LoomStore *self,
                                           gint64     session_id,
                                           gint64     first_seq,
                                           gint64     last_seq,
                                           GError   **error);

/* The tool results (LoomTimelineItem) of the session whose call id is one of @call_ids, in no
 * particular order. */
GPtrArray *loom_store_read_tool_results (LoomStore         *self,
                                         gint64             session_id,
                                         const char *const *call_ids,
                                         GError           **error);

/* The complete payload of one event, as the agent wrote it (NULL and no error when it has
 * none). */
char *loom_store_get_event_payload (LoomStore *self,
                                    gint64     event_id,
                                    GError   **error);

/* The sessions (LoomSession) whose parent is @id (a uuid or a prefix), oldest first. */
GListModel *loom_store_list_child_sessions (LoomStore  *self,
                                            const char *id,
                                            GError    **error);

/* The uuid of the session a sub-agent event (kind "subagent") started, or NULL and no error
 * when it was not imported. Found by the agent's thread id, the agent id its result names, or
 * the prompt it was given. */
char *loom_store_find_subagent_session (LoomStore *self,
                                        gint64     event_id,
                                        GError   **error);

G_END_DECLS
