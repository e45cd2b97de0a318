/* loom-timeline-view.h — a session's conversation: messages, tool calls and events, in order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_VIEW (loom_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineView, loom_timeline_view, LOOM, TIMELINE_VIEW, GtkWidget)

GtkWidget   *loom_timeline_view_new (void);
/* Shows @session's timeline from @store, from its start; NULL shows that nothing is chosen.
 * Only the first page of a long session is read now, the rest as it scrolls into view. The
 * session already shown (by uuid) is read again in place instead: the view keeps its place
 * and what was opened, and shows what an import added. */
void         loom_timeline_view_set_session (LoomTimelineView *self,
                                             LoomStore        *store,
                                             LoomSession      *session);
LoomSession *loom_timeline_view_get_session (LoomTimelineView *self);
/* The LoomTimelineModel shown, or NULL. */
GListModel  *loom_timeline_view_get_model (LoomTimelineView *self);
void         loom_timeline_view_scroll_to_start (LoomTimelineView *self);
void         loom_timeline_view_scroll_to_end (LoomTimelineView *self);
/* Scrolls to the item at @seq (or the call whose result it is); @highlight marks it for a
 * moment, as a search hit. */
void         loom_timeline_view_scroll_to_seq (LoomTimelineView *self,
                                               gint64            seq,
                                               gboolean          highlight);
/* A search hit: scrolled to and highlighted as above, and opened when it is folded (a tool
 * call, reasoning), so that its marked words show. */
void         loom_timeline_view_show_hit (LoomTimelineView *self,
                                          gint64            seq);
/* Marks the words of @query in the rows on screen; NULL or "" takes the marks away. */
void         loom_timeline_view_set_search (LoomTimelineView *self,
                                            const char       *query);
const char  *loom_timeline_view_get_search (LoomTimelineView *self);

G_END_DECLS
