/* loom-timeline-message-row.h — a message, or the agent's reasoning, in the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-timeline-context.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_MESSAGE_ROW (loom_timeline_message_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineMessageRow, loom_timeline_message_row, LOOM, TIMELINE_MESSAGE_ROW,
                      GtkWidget)

GtkWidget *loom_timeline_message_row_new (LoomTimelineContext *context);
/* @item: a message, or a reasoning event; NULL unbinds. */
void       loom_timeline_message_row_set_item (LoomTimelineMessageRow *self,
                                               LoomTimelineItem       *item);
/* Whether the whole message is being parsed in a worker (the row says "Loading…"). */
gboolean   loom_timeline_message_row_get_loading (LoomTimelineMessageRow *self);
/* What a screen reader says for the row ("You said …"). */
char      *loom_timeline_message_row_describe (LoomTimelineContext *context,
                                               LoomTimelineItem    *item);

G_END_DECLS
