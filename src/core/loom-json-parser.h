/* loom-json-parser.h — JSON text to json-glib trees and back, fast and safe on hostile input.
 *
 * The trees are the ones JsonParser builds, so every importer reads them unchanged. Where
 * json-glib 1.6 is lenient or wrong the parser follows RFC 8259 instead; the differences are
 * listed at the top of loom-json-parser.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Arrays and objects nest at most this deep; deeper text is an error, never a deep recursion. */
#define LOOM_JSON_MAX_DEPTH 512

/* Parses exactly one JSON value, with whitespace around it, from @length bytes of @text (which
 * need not end in NUL). Returns a new tree, or NULL with a LOOM_ERROR_PARSE error that names
 * the byte offset of the problem. */
JsonNode *loom_json_parse (const char  *text,
                           gsize        length,
                           GError     **error);

/* Compact JSON for @node, as JsonGenerator writes it without pretty-printing, except that the
 * output is always valid JSON (see loom-json-parser.c). */
char     *loom_json_write (JsonNode    *node);

G_END_DECLS
