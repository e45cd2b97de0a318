/* loom-timeline-tool-row.h — a tool call, file change or sub-agent start, folded to one line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-timeline-context.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_TOOL_ROW (loom_timeline_tool_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineToolRow, loom_timeline_tool_row, LOOM, TIMELINE_TOOL_ROW,
                      GtkWidget)

GtkWidget *loom_timeline_tool_row_new (LoomTimelineContext *context);
/* @item: an event of kind tool_call, file_change, subagent or tool_result; NULL unbinds. */
void       loom_timeline_tool_row_set_item (LoomTimelineToolRow *self,
                                            LoomTimelineItem    *item);
gboolean   loom_timeline_tool_row_get_expanded (LoomTimelineToolRow *self);
void       loom_timeline_tool_row_set_expanded (LoomTimelineToolRow *self,
                                                gboolean             expanded);
/* What a screen reader says for the row ("Tool call Bash: make, failed"). */
char      *loom_timeline_tool_row_describe (LoomTimelineContext *context,
                                            LoomTimelineItem    *item);

/* Whether a payload is being read and made in a worker for the details shown; the row
 * shows a spinner and "Loading…" meanwhile. */
gboolean          loom_timeline_tool_row_get_loading (LoomTimelineToolRow *self);
/* The text a "Copy All" button under the details puts on the clipboard, for tests. */
LoomTimelineText *loom_timeline_tool_row_get_copy_text (GtkButton *button);

/* A coloured diff of unified diff lines (see loom_timeline_format_diff()). */
GtkWidget *loom_timeline_diff_view_new (const char *diff);

G_END_DECLS
