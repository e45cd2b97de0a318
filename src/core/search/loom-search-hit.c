/* loom-search-hit.c — one search result.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-search.h"
#include "loom-time.h"

struct _LoomSearchHit
{
  GObject           parent_instance;
  LoomSearchHitData data;
};

G_DEFINE_FINAL_TYPE (LoomSearchHit, loom_search_hit, G_TYPE_OBJECT)

static void
loom_search_hit_finalize (GObject *object)
{
  LoomSearchHit *self = (LoomSearchHit *)object;

  g_free (self->data.session_uuid);
  g_free (self->data.session_title);
  g_free (self->data.source);
  g_free (self->data.item_type);
  g_free (self->data.kind);
  g_free (self->data.tool_name);
  g_free (self->data.snippet);

  G_OBJECT_CLASS (loom_search_hit_parent_class)->finalize (object);
}

static void
loom_search_hit_class_init (LoomSearchHitClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = loom_search_hit_finalize;
}

static void
loom_search_hit_init (LoomSearchHit *self)
{
}

LoomSearchHit *
loom_search_hit_new (LoomSearchHitData *data)
{
  LoomSearchHit *self;

  g_return_val_if_fail (data != NULL, NULL);

  self = g_object_new (LOOM_TYPE_SEARCH_HIT, NULL);
  self->data = *data;
  memset (data, 0, sizeof *data);
  return self;
}

const LoomSearchHitData *
loom_search_hit_get_data (LoomSearchHit *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_HIT (self), NULL);
  return &self->data;
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* The snippet's marks as **bold** Markdown-style, which survives any JSON consumer. */
static char *
snippet_for_json (const char *snippet)
{
  g_autoptr (GString) text = g_string_new (snippet);

  g_string_replace (text, LOOM_SEARCH_MARK_START, "**", 0);
  g_string_replace (text, LOOM_SEARCH_MARK_END, "**", 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

JsonNode *
loom_search_hit_to_json (LoomSearchHit *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autofree char         *date = NULL;
  g_autofree char         *snippet = NULL;
  const LoomSearchHitData *d;

  g_return_val_if_fail (LOOM_IS_SEARCH_HIT (self), NULL);

  d = &self->data;
  date = loom_time_to_iso (d->created_at);
  snippet = snippet_for_json (d->snippet ? d->snippet : "");

  json_builder_begin_object (builder);
  add_string (builder, "session_id", d->session_uuid);
  add_string (builder, "session_title", d->session_title);
  add_string (builder, "agent", d->source);
  add_string (builder, "item_type", d->item_type);
  json_builder_set_member_name (builder, "item_id");
  json_builder_add_int_value (builder, d->item_id);
  json_builder_set_member_name (builder, "seq");
  json_builder_add_int_value (builder, d->seq);
  add_string (builder, "kind", d->kind);
  add_string (builder, "tool_name", d->tool_name);
  add_string (builder, "date", date);
  add_string (builder, "snippet", snippet);
  json_builder_set_member_name (builder, "score");
  json_builder_add_double_value (builder, d->score);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
