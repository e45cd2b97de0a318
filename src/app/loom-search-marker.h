/* loom-search-marker.h — the words of a search marked wherever a label shows them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LOOM_TYPE_SEARCH_MARKER (loom_search_marker_get_type ())

G_DECLARE_FINAL_TYPE (LoomSearchMarker, loom_search_marker, LOOM, SEARCH_MARKER, GObject)

/* A marker of @query's words, or NULL when it has none to mark (only filters, say). */
LoomSearchMarker *loom_search_marker_new (const char *query);
const char       *loom_search_marker_get_query (LoomSearchMarker *self);
/* Where @text says a searched word: pairs of byte offsets (guint), start and end, in order. */
GArray           *loom_search_marker_find (LoomSearchMarker *self,
                                           const char       *text);

/* Marks what @marker finds in @label's text, over the attributes of its own; a NULL @marker
 * takes the marks away. Call it again whenever the label's text changes: the marks stay where
 * they were. */
void loom_search_marker_mark_label (LoomSearchMarker *marker,
                                    GtkLabel         *label);
/* The same for every visible label under @root, but those in buttons and those told apart with
 * loom_search_marker_skip(). */
void loom_search_marker_mark_tree (LoomSearchMarker *marker,
                                   GtkWidget        *root);
/* @label shows no text a search looks in (an author, a time, a heading). */
void loom_search_marker_skip (GtkWidget *label);

G_END_DECLS
