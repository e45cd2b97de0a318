/* loom-timeline-notice-row.h — the small print of a timeline: lifecycle records, compactions,
 * API errors.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-timeline-context.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_NOTICE_ROW (loom_timeline_notice_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineNoticeRow, loom_timeline_notice_row, LOOM, TIMELINE_NOTICE_ROW,
                      GtkWidget)

GtkWidget *loom_timeline_notice_row_new (LoomTimelineContext *context);
/* @item: an event that is neither a tool nor reasoning, or a message flagged as an API error;
 * NULL unbinds. */
void       loom_timeline_notice_row_set_item (LoomTimelineNoticeRow *self,
                                              LoomTimelineItem      *item);
char      *loom_timeline_notice_row_describe (LoomTimelineContext *context,
                                              LoomTimelineItem    *item);

G_END_DECLS
