/* loom-json-private.h — the layout of a LoomJson, shared by the parser that builds it and the
 * accessors and writer that read it.
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
  const char *name;        /* a member's name, NUL-terminated; NULL outside objects */
  guint32     name_length; /* strlen (name), compared before the bytes when looking up */
  guint8      type;        /* LoomJsonType */
  gsize       length;      /* bytes of a string (strlen), elements or members */
  union
  {
    gboolean        boolean;
    gint64          integer;
    double          number;
    const char     *string;
    const LoomJson *children;
  } v;
};

G_END_DECLS
