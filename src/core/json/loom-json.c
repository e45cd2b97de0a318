/* loom-json.c — tolerant accessors for records of unknown shape.
 *
 * Agent records change between versions: a member can be missing, null or of another type.
 * json-glib's getters emit criticals on a wrong type; these return NULL or a fallback instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-json-value.h"
#include "loom-json.h"

static JsonNode *
member (JsonObject *object,
        const char *name)
{
  if (object == NULL || name == NULL)
    return NULL;
  return json_object_get_member (object, name);
}

const char *
loom_json_get_string (JsonObject *object,
                      const char *name)
{
  JsonNode *node = member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

gint64
loom_json_get_int (JsonObject *object,
                   const char *name,
                   gint64      fallback)
{
  JsonNode *node = member (object, name);
  GType     type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return json_node_get_int (node);
  if (type == G_TYPE_DOUBLE)
    return (gint64)json_node_get_double (node);
  if (type == G_TYPE_BOOLEAN)
    return json_node_get_boolean (node);
  return fallback;
}

JsonObject *
loom_json_get_object (JsonObject *object,
                      const char *name)
{
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
loom_json_get_array (JsonObject *object,
                     const char *name)
{
  JsonNode *node = member (object, name);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

char *
loom_json_to_string (JsonNode *node)
{
  if (node == NULL)
    return NULL;
  return loom_json_write (node);
}
