/* loom-import-problems-window.h — the records this run's imports could not take whole, listed
 * with their files and lines.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-import-problems.h"

G_BEGIN_DECLS

#define LOOM_TYPE_IMPORT_PROBLEMS_WINDOW (loom_import_problems_window_get_type ())

G_DECLARE_FINAL_TYPE (LoomImportProblemsWindow, loom_import_problems_window, LOOM,
                      IMPORT_PROBLEMS_WINDOW, AdwWindow)

LoomImportProblemsWindow *loom_import_problems_window_new (GtkWindow          *parent,
                                                           LoomImportProblems *problems);

/* How a problem is shown: what happened, and where (the file's name and the line, or the path
 * alone); the whole warning when it names no file. Exposed for the tests. */
void loom_import_problem_split (const char *warning,
                                char      **what,
                                char      **where,
                                char      **path);

G_END_DECLS
