/* loom-timeline-search-bar.h — searching the open session, from hit to hit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_SEARCH_BAR (loom_timeline_search_bar_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineSearchBar, loom_timeline_search_bar, LOOM, TIMELINE_SEARCH_BAR,
                      GtkWidget)

GtkWidget *loom_timeline_search_bar_new (void);
/* Searches run on a connection of their own to @store's file. */
void       loom_timeline_search_bar_set_store (LoomTimelineSearchBar *self,
                                               LoomStore             *store);
/* The session searched (the one the timeline shows), or NULL. An open bar searches the new
 * session for what it holds. */
void       loom_timeline_search_bar_set_session (LoomTimelineSearchBar *self,
                                                 const char            *session_uuid);
/* Opens the bar and puts the focus in its entry (Ctrl+F in the timeline). */
void       loom_timeline_search_bar_open (LoomTimelineSearchBar *self);
void       loom_timeline_search_bar_close (LoomTimelineSearchBar *self);
gboolean   loom_timeline_search_bar_get_open (LoomTimelineSearchBar *self);
/* A hit of @query chosen elsewhere (the search of all history): the bar opens with @query,
 * without taking the focus, and counts the session's hits from the one at @seq. */
void       loom_timeline_search_bar_show_hit (LoomTimelineSearchBar *self,
                                              const char            *session_uuid,
                                              const char            *query,
                                              gint64                 seq);
/* The session changed (an import added to it): its hits are counted again, from the one gone
 * to. */
void       loom_timeline_search_bar_refresh (LoomTimelineSearchBar *self);
/* Go to the next or the previous hit, round at the ends ("hit-chosen"). FALSE when there is
 * no hit to go to. */
gboolean   loom_timeline_search_bar_next (LoomTimelineSearchBar *self);
gboolean   loom_timeline_search_bar_previous (LoomTimelineSearchBar *self);

/* The hits' places in the timeline, in order, and which one was gone to last (-1: none). */
guint           loom_timeline_search_bar_get_n_hits (LoomTimelineSearchBar *self);
int             loom_timeline_search_bar_get_position (LoomTimelineSearchBar *self);
gint64          loom_timeline_search_bar_get_hit_seq (LoomTimelineSearchBar *self,
                                                      guint                  index);
/* What the hits are of: the query searched for, NULL when there is none (the bar is closed,
 * empty, or the query is malformed). */
const char     *loom_timeline_search_bar_get_query (LoomTimelineSearchBar *self);
/* A search is under way. */
gboolean        loom_timeline_search_bar_get_searching (LoomTimelineSearchBar *self);
/* The first hits are in, and all of them are being counted ("1 of 1,000+" for now). */
gboolean        loom_timeline_search_bar_get_counting (LoomTimelineSearchBar *self);
/* "3 of 12", "No matches", or what is wrong with the query. */
const char     *loom_timeline_search_bar_get_status (LoomTimelineSearchBar *self);
GtkSearchEntry *loom_timeline_search_bar_get_entry (LoomTimelineSearchBar *self);

G_END_DECLS
