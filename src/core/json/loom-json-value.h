/* loom-json-value.h — parsed JSON records that live in one arena, read-only.
 *
 * The importers read each record once and throw it away. Building json-glib trees for that
 * (a GHashTable and a GQueue per object, a JsonNode and a copied name per member, then freeing
 * all of it) cost more than the parse itself. A LoomJsonDoc parses into memory it reuses from
 * record to record; a LoomJson is one value in it: an object's members and an array's
 * elements lie side by side, and an object member carries its name.
 *
 * Every accessor takes NULL and values of the wrong type, and answers NULL, 0 or the fallback:
 * agent records change shape between versions, and a missing member is normal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  LOOM_JSON_NULL,
  LOOM_JSON_BOOLEAN,
  LOOM_JSON_INT,    /* an integer that fits a gint64 */
  LOOM_JSON_DOUBLE, /* every other number */
  LOOM_JSON_STRING,
  LOOM_JSON_ARRAY,
  LOOM_JSON_OBJECT,
} LoomJsonType;

typedef struct _LoomJson    LoomJson;
typedef struct _LoomJsonDoc LoomJsonDoc;

/* Arrays and objects nest at most this deep; deeper text is an error, never a deep recursion. */
#define LOOM_JSON_MAX_DEPTH 512

/* ——— Parsing ——— */

LoomJsonDoc *loom_json_doc_new (void);
void         loom_json_doc_free (LoomJsonDoc *doc);

/* Parses exactly one JSON value, with whitespace around it, from @length bytes of @text (which
 * need not end in NUL), with the rules listed in loom-json-parser.c. Returns the root, which
 * lives in @doc until its next parse or its free, or NULL with a LOOM_ERROR_PARSE error naming
 * the byte offset of the problem. Whatever @doc held before is gone either way. */
const LoomJson *loom_json_doc_parse (LoomJsonDoc *doc,
                                     const char  *text,
                                     gsize        length,
                                     GError     **error);

/* ——— Reading a value ——— */

/* LOOM_JSON_NULL for NULL too. */
LoomJsonType loom_json_type (const LoomJson *value);
gboolean     loom_json_is_object (const LoomJson *value);
gboolean     loom_json_is_array (const LoomJson *value);
gboolean     loom_json_is_string (const LoomJson *value);

/* The string, NUL-terminated; NULL unless @value is a string. A \u0000 escape is U+FFFD in it,
 * so that the C string holds all of the text. */
const char *loom_json_string (const LoomJson *value);
/* An integer; a double truncated (clamped to gint64's range); a boolean as 0 or 1; else
 * @fallback. */
gint64      loom_json_int (const LoomJson *value,
                           gint64          fallback);
/* TRUE only for the boolean true. */
gboolean    loom_json_true (const LoomJson *value);

/* The number of elements of an array or members of an object; 0 for anything else. */
gsize           loom_json_length (const LoomJson *value);
/* The @index-th element of an array or member of an object (in the text's order), or NULL. */
const LoomJson *loom_json_element (const LoomJson *value,
                                   gsize           index);
/* The name of an object's member (a value loom_json_element() returned for an object), or
 * NULL for a value that is not a member. */
const char     *loom_json_name (const LoomJson *member);

/* The member of @object called @name, or NULL when it has none. A member that is null is a
 * value of type LOOM_JSON_NULL, not NULL. A name that came more than once has kept its first
 * position and its last value, as json-glib keeps them. */
const LoomJson *loom_json_member (const LoomJson *object,
                                  const char     *name);
/* Shorthands for loom_json_string (loom_json_member (…)) and the like. */
const char     *loom_json_member_string (const LoomJson *object,
                                         const char     *name);
gint64          loom_json_member_int (const LoomJson *object,
                                      const char     *name,
                                      gint64          fallback);
/* NULL unless the member is an object (an array). */
const LoomJson *loom_json_member_object (const LoomJson *object,
                                         const char     *name);
const LoomJson *loom_json_member_array (const LoomJson *object,
                                        const char     *name);

/* ——— Writing ——— */

/* Compact JSON for @value, byte for byte what loom_json_write() gives for the same json-glib
 * tree. NULL for NULL. */
char     *loom_json_value_to_string (const LoomJson *value);
/* A json-glib tree of the same value, NULL for NULL: what the parser's tests compare with
 * json-glib's own. */
JsonNode *loom_json_value_to_node (const LoomJson *value);

/* Compact JSON for a json-glib tree (the importers' state), as JsonGenerator writes it without
 * pretty-printing, except that the output is always valid JSON (see loom-json-writer.c). */
char *loom_json_write (JsonNode *node);

/* Appends @text (@length bytes, or up to its NUL when -1) to @out as a JSON string, quotes
 * included, escaped as loom_json_write () escapes it: for a writer that streams its lines. */
void loom_json_append_string (GString    *out,
                              const char *text,
                              gssize      length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomJsonDoc, loom_json_doc_free)

G_END_DECLS
