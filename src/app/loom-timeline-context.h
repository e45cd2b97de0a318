/* loom-timeline-context.h — what the rows of one timeline share.
 *
 * Rows are recycled as the list scrolls, so whatever a person changes in a row (a tool call
 * opened, "Show More" pressed) lives here, keyed by the item, and survives the row. The context
 * also holds the store and the session for the few reads a person asks for (a call's input).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-search-marker.h"
#include "loom-store.h"
#include "loom-timeline-loader.h"
#include "loom-timeline-item.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_CONTEXT (loom_timeline_context_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineContext, loom_timeline_context, LOOM, TIMELINE_CONTEXT, GObject)

typedef enum
{
  LOOM_TIMELINE_STATE_EXPANDED,  /* a tool call, reasoning or flagged message opened */
  LOOM_TIMELINE_STATE_SHOW_MORE, /* a long text or output shown whole */
} LoomTimelineState;

LoomTimelineContext *loom_timeline_context_new (void);
void                 loom_timeline_context_set_session (LoomTimelineContext *self,
                                                        LoomStore           *store,
                                                        LoomSession         *session);
/* The same session, newer metadata: the rows' state is kept. */
void                 loom_timeline_context_set_session_data (LoomTimelineContext *self,
                                                             LoomSession         *session);
LoomStore           *loom_timeline_context_get_store (LoomTimelineContext *self);
LoomSession         *loom_timeline_context_get_session (LoomTimelineContext *self);
/* The name of the session's agent, for its messages ("Claude Code"). */
const char          *loom_timeline_context_get_agent_name (LoomTimelineContext *self);
/* @path relative to the session's working folder when it is inside it. */
char                *loom_timeline_context_display_path (LoomTimelineContext *self,
                                                         const char          *path);

gboolean loom_timeline_context_get_state (LoomTimelineContext *self,
                                          LoomTimelineItem    *item,
                                          LoomTimelineState    state,
                                          gboolean             fallback);
void     loom_timeline_context_set_state (LoomTimelineContext *self,
                                          LoomTimelineItem    *item,
                                          LoomTimelineState    state,
                                          gboolean             value);

gboolean loom_timeline_context_get_show_reasoning (LoomTimelineContext *self);
void     loom_timeline_context_set_show_reasoning (LoomTimelineContext *self,
                                                   gboolean             show);
/* The seq of the item to draw attention to (a search hit), or -1. */
gint64   loom_timeline_context_get_highlight (LoomTimelineContext *self);
void     loom_timeline_context_set_highlight (LoomTimelineContext *self,
                                              gint64               seq);

/* The words of the search over the timeline, marked in the rows on screen; NULL: none. Each
 * change counts up the serial, so that a row tells whether its marks are of the search now. */
LoomSearchMarker *loom_timeline_context_get_marker (LoomTimelineContext *self);
guint             loom_timeline_context_get_marker_serial (LoomTimelineContext *self);
void              loom_timeline_context_set_marker (LoomTimelineContext *self,
                                                    LoomSearchMarker    *marker);
/* Marks the search's words in the labels under @root that show the item's text. */
void              loom_timeline_context_mark (LoomTimelineContext *self,
                                              GtkWidget           *root);

/* An event's whole payload, read from the store the first time a row opens it and kept while
 * the session is shown, so that a recycled row never reads it again. NULL when it has none. */
const char *loom_timeline_context_get_payload (LoomTimelineContext *self,
                                               gint64               event_id);

/* What rows make of whole payloads, made in a worker and kept while the session is shown. */
LoomTimelineLoader *loom_timeline_context_get_loader (LoomTimelineContext *self);

/* Rows that were mapped before the list placed them wait here until it has: a row the list
 * then keeps off screen is never built. The view builds the rest after each layout. */
void       loom_timeline_context_defer_build (LoomTimelineContext *self,
                                              GtkWidget           *row);
void       loom_timeline_context_cancel_build (LoomTimelineContext *self,
                                               GtkWidget           *row);
/* The rows waiting, in no order (transfer container); none wait afterwards. */
GPtrArray *loom_timeline_context_take_deferred (LoomTimelineContext *self);

/* A row asks for a sub-agent's session: emits "open-session". */
void loom_timeline_context_open_session (LoomTimelineContext *self,
                                         const char          *uuid);

/* Shared formatting: a local clock time for a row, and the full date for its tooltip. */
char *loom_timeline_format_time (gint64 ms);
char *loom_timeline_format_date_time (gint64 ms);

/* Gives @widget the tooltip @text (NULL or "" for none), handed to GTK only when it asks for
 * it: gtk_widget_set_tooltip_text() on a visible widget asks the display server where the
 * pointer is, a round trip per call, which rows being built must not pay. */
void loom_timeline_set_tooltip (GtkWidget  *widget,
                                const char *text);

G_END_DECLS
