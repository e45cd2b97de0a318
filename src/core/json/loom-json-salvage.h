/* loom-json-salvage.h — what can still be read of a whole JSON document that does not parse.
 *
 * Gemini CLI's legacy sessions and the first Codex CLI's are one pretty-printed document per
 * file, which the agent rewrites in place on every change. A pass can find one half-written, or
 * holding one record the parser refuses (nesting thousands deep, a bad escape). Refusing the
 * whole document would cost the whole session for one record; salvage keeps every record that
 * reads on its own and says, by line, what it left out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Something salvage left out: where it starts (1-based line of the text) and why. */
typedef struct
{
  guint64  line;
  char    *message;
  gboolean truncated; /* the text ends here: the file is most likely still being written */
} LoomJsonProblem;

void loom_json_problem_free (gpointer problem);

/* Rebuilds @length bytes of @text, a document whose root is an object, from the parts that
 * parse: each member of the root, and each element of a member that is an array (the records).
 * A part that does not parse alone, or that nests, with the containers around it, deeper than
 * @max_depth, is left out — an element leaves a null in its place, so that those after it keep
 * their positions; where the text ends or stops being JSON, the rest is left out and the
 * containers still open are closed. Kept parts are copied byte for byte.
 *
 * Returns the rebuilt text, NUL-terminated, which loom_json_doc_parse() accepts; or NULL when
 * the root is not an object, and nothing can be salvaged. Adds a LoomJsonProblem to @problems
 * for each part left out, and for where the text ends early. */
char *loom_json_salvage (const char *text,
                         gsize       length,
                         guint       max_depth,
                         GPtrArray  *problems);

/* Finds where the value at @start of @text ends (*@end, just past it) without judging it, and
 * how deep its containers nest (*@deepest): strings by their quotes, containers by their
 * brackets, without recursion. FALSE when the text ends inside the value. */
gboolean loom_json_find_value_end (const char *text,
                                   gsize       length,
                                   gsize       start,
                                   gsize      *end,
                                   guint      *deepest);

G_END_DECLS
