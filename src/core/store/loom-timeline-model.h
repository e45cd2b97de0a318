/* loom-timeline-model.h — a session's timeline as a lazy GListModel of LoomTimelineItem.
 *
 * Creating the model reads only the ordered keys of the shown items; whole items are read a
 * page at a time when asked for, and only a bounded number of pages stays in memory. A tool
 * call comes with its result, and a sub-agent start with the session it started (see the
 * loom_timeline_model_item_* accessors), read with the page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"
#include "loom-timeline-item.h"

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_MODEL (loom_timeline_model_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineModel, loom_timeline_model, LOOM, TIMELINE_MODEL, GObject)

/* @session_id is the session's row id (loom_session_get_id()). */
LoomTimelineModel *loom_timeline_model_new (LoomStore *store,
                                            gint64     session_id,
                                            GError   **error);
/* Reads the keys again after an import into the session: what was appended is announced as
 * added, and the last page before it as changed (a call's result may have arrived), so that
 * a view keeps its place. */
gboolean           loom_timeline_model_reload (LoomTimelineModel *self,
                                               GError           **error);
LoomStore         *loom_timeline_model_get_store (LoomTimelineModel *self);
gint64             loom_timeline_model_get_session_id (LoomTimelineModel *self);
/* The position of the item at @seq or, when that one is not shown (a result inside its call),
 * of the last shown item before it; 0 when there is none before it. */
guint              loom_timeline_model_find_seq (LoomTimelineModel *self,
                                                 gint64             seq);
/* How many pages of items are held now (for tests and the benchmark). */
guint              loom_timeline_model_get_n_loaded_pages (LoomTimelineModel *self);

/* The result of a call, file change or sub-agent start that came from a timeline model. */
LoomTimelineItem *loom_timeline_model_item_get_result (LoomTimelineItem *item);
/* The uuid of the session a sub-agent start started, when it was imported. */
const char       *loom_timeline_model_item_get_child_uuid (LoomTimelineItem *item);

G_END_DECLS
