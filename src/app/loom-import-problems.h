/* loom-import-problems.h — what the imports of this run could not take whole, for the person to
 * see: the warnings that name a file and line, kept once each, the latest import's first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-import.h"

G_BEGIN_DECLS

#define LOOM_TYPE_IMPORT_PROBLEMS (loom_import_problems_get_type ())

G_DECLARE_FINAL_TYPE (LoomImportProblems, loom_import_problems, LOOM, IMPORT_PROBLEMS, GObject)

/* At most this many are kept: the earliest imports' go first, and an import with more lists
 * its first ones. */
#define LOOM_IMPORT_PROBLEMS_MAX 1000

LoomImportProblems *loom_import_problems_new (void);
/* GtkStringObject items, each a warning ("FILE:LINE: what happened", bytes that are not UTF-8
 * written as \xNN): the latest import's first, each import's in the order it found them. */
GListModel         *loom_import_problems_get_model (LoomImportProblems *self);
/* Adds the warnings of an import that are problems and not listed yet: not those that only
 * say a last line is still being written (@stats->waiting), since the next pass reads it.
 * Emits "added" with their number when there are any, and returns it. */
guint               loom_import_problems_add (LoomImportProblems    *self,
                                              const LoomImportStats *stats);
void                loom_import_problems_clear (LoomImportProblems *self);
/* Every problem, one per line, newest first: what "Copy All" puts on the clipboard. */
char               *loom_import_problems_to_text (LoomImportProblems *self);

G_END_DECLS
