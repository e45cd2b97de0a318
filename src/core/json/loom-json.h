/* loom-json.h — tolerant accessors for json-glib objects of unknown shape.
 *
 * Small helpers for the formats' state objects (json-glib, kept between passes). json-glib's
 * getters emit criticals on a wrong type; these return NULL or a fallback instead. Records are
 * read with the accessors of loom-json-value.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

const char *loom_json_get_string (JsonObject *object,
                                  const char *member);
gint64      loom_json_get_int (JsonObject *object,
                               const char *member,
                               gint64      fallback);
JsonObject *loom_json_get_object (JsonObject *object,
                                  const char *member);
JsonArray  *loom_json_get_array (JsonObject *object,
                                 const char *member);
char       *loom_json_to_string (JsonNode *node);

G_END_DECLS
