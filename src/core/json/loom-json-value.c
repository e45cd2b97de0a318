/* loom-json-value.c — reading LoomJson values, and turning them into json-glib trees.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "loom-json-private.h"

LoomJsonType
loom_json_type (const LoomJson *value)
{
  return value != NULL ? (LoomJsonType)value->type : LOOM_JSON_NULL;
}

gboolean
loom_json_is_object (const LoomJson *value)
{
  return value != NULL && value->type == LOOM_JSON_OBJECT;
}

gboolean
loom_json_is_array (const LoomJson *value)
{
  return value != NULL && value->type == LOOM_JSON_ARRAY;
}

gboolean
loom_json_is_string (const LoomJson *value)
{
  return value != NULL && value->type == LOOM_JSON_STRING;
}

const char *
loom_json_string (const LoomJson *value)
{
  return loom_json_is_string (value) ? value->v.string : NULL;
}

gint64
loom_json_int (const LoomJson *value,
               gint64          fallback)
{
  switch (loom_json_type (value))
    {
    case LOOM_JSON_INT:
      return value->v.integer;
    case LOOM_JSON_DOUBLE:
      /* A hostile count of 1e300 tokens: converting a double gint64 cannot hold is undefined
       * behaviour, so it stops at the edge of the range, and NaN is no number at all. */
      if (isnan (value->v.number))
        return fallback;
      if (value->v.number >= 0x1p63)
        return G_MAXINT64;
      if (value->v.number < -0x1p63)
        return G_MININT64;
      return (gint64)value->v.number;
    case LOOM_JSON_BOOLEAN:
      return value->v.boolean ? 1 : 0;
    case LOOM_JSON_NULL:
    case LOOM_JSON_STRING:
    case LOOM_JSON_ARRAY:
    case LOOM_JSON_OBJECT:
    default:
      return fallback;
    }
}

gboolean
loom_json_true (const LoomJson *value)
{
  return value != NULL && value->type == LOOM_JSON_BOOLEAN && value->v.boolean;
}

gsize
loom_json_length (const LoomJson *value)
{
  return loom_json_is_object (value) || loom_json_is_array (value) ? value->length : 0;
}

const LoomJson *
loom_json_element (const LoomJson *value,
                   gsize           index)
{
  return index < loom_json_length (value) ? &value->v.children[index] : NULL;
}

const char *
loom_json_name (const LoomJson *member)
{
  return member != NULL ? member->name : NULL;
}

/* A linear search: records have a dozen members or so, and most lookups hit early. The lengths
 * are compared first, so most members cost one comparison of integers. */
const LoomJson *
loom_json_member (const LoomJson *object,
                  const char     *name)
{
  gsize length;

  if (!loom_json_is_object (object) || name == NULL)
    return NULL;
  length = strlen (name);
  for (gsize i = 0; i < object->length; i++)
    {
      const LoomJson *member = &object->v.children[i];

      if (member->name_length == length && memcmp (member->name, name, length) == 0)
        return member;
    }
  return NULL;
}

const char *
loom_json_member_string (const LoomJson *object,
                         const char     *name)
{
  return loom_json_string (loom_json_member (object, name));
}

gint64
loom_json_member_int (const LoomJson *object,
                      const char     *name,
                      gint64          fallback)
{
  return loom_json_int (loom_json_member (object, name), fallback);
}

const LoomJson *
loom_json_member_object (const LoomJson *object,
                         const char     *name)
{
  const LoomJson *member = loom_json_member (object, name);

  return loom_json_is_object (member) ? member : NULL;
}

const LoomJson *
loom_json_member_array (const LoomJson *object,
                        const char     *name)
{
  const LoomJson *member = loom_json_member (object, name);

  return loom_json_is_array (member) ? member : NULL;
}

/* Recursive: values come from loom_json_doc_parse (), which bounds their depth. Names are
 * unique within an object by then, so json_object_set_member () never replaces one. */
JsonNode *
loom_json_value_to_node (const LoomJson *value)
{
  if (value == NULL)
    return NULL;
  switch (loom_json_type (value))
    {
    case LOOM_JSON_BOOLEAN:
      return json_node_init_boolean (json_node_alloc (), value->v.boolean);
    case LOOM_JSON_INT:
      return json_node_init_int (json_node_alloc (), value->v.integer);
    case LOOM_JSON_DOUBLE:
      return json_node_init_double (json_node_alloc (), value->v.number);
    case LOOM_JSON_STRING:
      return json_node_init_string (json_node_alloc (), value->v.string);

    case LOOM_JSON_ARRAY:
      {
        JsonArray *array = json_array_sized_new ((guint)value->length);
        JsonNode  *node;

        for (gsize i = 0; i < value->length; i++)
          json_array_add_element (array, loom_json_value_to_node (&value->v.children[i]));
        node = json_node_init_array (json_node_alloc (), array);
        json_array_unref (array);
        return node;
      }

    case LOOM_JSON_OBJECT:
      {
        JsonObject *object = json_object_new ();
        JsonNode   *node;

        for (gsize i = 0; i < value->length; i++)
          json_object_set_member (object, value->v.children[i].name,
                                  loom_json_value_to_node (&value->v.children[i]));
        node = json_node_init_object (json_node_alloc (), object);
        json_object_unref (object);
        return node;
      }

    case LOOM_JSON_NULL:
    default:
      return json_node_init_null (json_node_alloc ());
    }
}
