/* loom-timeline-item.h — one entry of a session's timeline: a message or an event.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define LOOM_TYPE_TIMELINE_ITEM (loom_timeline_item_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineItem, loom_timeline_item, LOOM, TIMELINE_ITEM, GObject)

typedef struct
{
  gint64   id;
  gint64   seq;
  gboolean is_message;
  char    *role;  /* messages: user, assistant, system */
  char    *kind;  /* events: tool_call, tool_result, reasoning, … */
  guint    flags; /* messages: LoomMessageFlags */
  char    *model;
  gint64   created_at;
  char    *text; /* bounded for events; the payload is read on demand */
  char    *tool_name;
  char    *call_id;
  gboolean is_error;
  char    *path;
  char    *change_kind;
  gint64   payload_size;
} LoomTimelineData;

/* Takes ownership of the strings in @data. */
LoomTimelineItem       *loom_timeline_item_new (LoomTimelineData *data);
const LoomTimelineData *loom_timeline_item_get_data (LoomTimelineItem *self);
JsonNode               *loom_timeline_item_to_json (LoomTimelineItem *self);

G_END_DECLS
