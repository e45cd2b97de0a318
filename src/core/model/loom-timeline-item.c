/* loom-timeline-item.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-time.h"
#include "loom-timeline-item.h"

struct _LoomTimelineItem
{
  GObject          parent_instance;
  LoomTimelineData data;
};

G_DEFINE_FINAL_TYPE (LoomTimelineItem, loom_timeline_item, G_TYPE_OBJECT)

static void
loom_timeline_item_finalize (GObject *object)
{
  LoomTimelineItem *self = (LoomTimelineItem *)object;

  g_free (self->data.role);
  g_free (self->data.kind);
  g_free (self->data.model);
  g_free (self->data.text);
  g_free (self->data.tool_name);
  g_free (self->data.call_id);
  g_free (self->data.path);
  g_free (self->data.change_kind);

  G_OBJECT_CLASS (loom_timeline_item_parent_class)->finalize (object);
}

static void
loom_timeline_item_class_init (LoomTimelineItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = loom_timeline_item_finalize;
}

static void
loom_timeline_item_init (LoomTimelineItem *self)
{
}

LoomTimelineItem *
loom_timeline_item_new (LoomTimelineData *data)
{
  LoomTimelineItem *self;

  g_return_val_if_fail (data != NULL, NULL);

  self = g_object_new (LOOM_TYPE_TIMELINE_ITEM, NULL);
  self->data = *data;
  memset (data, 0, sizeof *data);
  return self;
}

const LoomTimelineData *
loom_timeline_item_get_data (LoomTimelineItem *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_ITEM (self), NULL);
  return &self->data;
}

static void
add_optional (JsonBuilder *builder,
              const char  *name,
              const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

JsonNode *
loom_timeline_item_to_json (LoomTimelineItem *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autofree char        *time = NULL;
  const LoomTimelineData *d;

  g_return_val_if_fail (LOOM_IS_TIMELINE_ITEM (self), NULL);

  d = &self->data;
  time = loom_time_to_iso (d->created_at);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, d->id);
  json_builder_set_member_name (builder, "seq");
  json_builder_add_int_value (builder, d->seq);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, d->is_message ? "message" : "event");
  add_optional (builder, "role", d->role);
  add_optional (builder, "kind", d->kind);
  if (d->is_message)
    {
      json_builder_set_member_name (builder, "flags");
      json_builder_add_int_value (builder, d->flags);
    }
  add_optional (builder, "model", d->model);
  add_optional (builder, "created_at", time);
  add_optional (builder, "tool_name", d->tool_name);
  add_optional (builder, "call_id", d->call_id);
  if (!d->is_message)
    {
      json_builder_set_member_name (builder, "is_error");
      json_builder_add_boolean_value (builder, d->is_error);
      json_builder_set_member_name (builder, "payload_size");
      json_builder_add_int_value (builder, d->payload_size);
    }
  add_optional (builder, "path", d->path);
  add_optional (builder, "change_kind", d->change_kind);
  add_optional (builder, "text", d->text);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
