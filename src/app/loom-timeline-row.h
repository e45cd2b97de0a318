/* loom-timeline-row.h — one recycled row of the timeline list, whatever the item's kind.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-timeline-context.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_ROW (loom_timeline_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineRow, loom_timeline_row, LOOM, TIMELINE_ROW, GtkWidget)

GtkWidget        *loom_timeline_row_new (LoomTimelineContext *context);
LoomTimelineItem *loom_timeline_row_get_item (LoomTimelineRow *self);
/* NULL unbinds: the row lets go of the item and of what it showed for it. */
void              loom_timeline_row_set_item (LoomTimelineRow  *self,
                                              LoomTimelineItem *item);
/* What the row says to a screen reader ("You said …", "Tool call Bash: make, failed"), once it
 * is built; NULL before. */
const char       *loom_timeline_row_get_accessible_label (LoomTimelineRow *self);
/* Builds what the item shows, when the row is on screen and has not yet. */
void              loom_timeline_row_build (LoomTimelineRow *self);
/* Marks the words of the context's search again, when the row is on screen (its search changed). */
void              loom_timeline_row_update_marks (LoomTimelineRow *self);
/* Binds the item's content again, to show a state changed behind the row's back. */
void              loom_timeline_row_rebuild (LoomTimelineRow *self);
/* Shows the context's highlight again (after a jump to a search hit). */
void              loom_timeline_row_update_highlight (LoomTimelineRow *self);
/* The row that shows the item now: a LoomTimelineMessageRow, LoomTimelineToolRow or
 * LoomTimelineNoticeRow. */
GtkWidget        *loom_timeline_row_get_content (LoomTimelineRow *self);

G_END_DECLS
