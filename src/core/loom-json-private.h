/* loom-json-private.h — the layout of a LoomJson, shared by the parser that builds it and the
 * accessors and writer that read it; and the writer's pieces, shared by both kinds of tree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-json-value.h"

G_BEGIN_DECLS

/* 32 bytes. The elements of an array and the members of an object lie side by side in the
 * document's arena; a member carries its name, so an object is just an array of them. */
struct _LoomJson
{
  const char   *name;         /* a member's name, NUL-terminated; NULL outside objects */
  guint32       name_length;  /* strlen (name), compared before the bytes when looking up */
  guint8        type;         /* LoomJsonType */
  gsize         length;       /* bytes of a string (strlen), elements or members */
  union
  {
    gboolean        boolean;
    gint64          integer;
    double          number;
    const char     *string;
    const LoomJson *children;
  } v;
};

/* JSON text for a string's @length bytes (no quotes added), a gint64 and a double, as
 * loom_json_write() writes them. */
void loom_json_append_escaped (GString    *out,
                               const char *text,
                               gsize       length);
void loom_json_append_int     (GString    *out,
                               gint64      value);
void loom_json_append_double  (GString    *out,
                               double      value);

G_END_DECLS
