/* loom-naming.h — the title convention, `<descriptive name> - YYYY-MM-DD`.
 *
 * The date is the session's creation date and belongs to the session, not to the person naming
 * it: a rename edits the name and keeps the date. These helpers split a title into the two,
 * suggest a name from a prompt, and put a title back together, so that the app, the CLI and the
 * agents' own `/rename` command all agree on what a title looks like.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-types.h"

G_BEGIN_DECLS

/* Longest name loom_naming_suggest_name() proposes, in characters. */
#define LOOM_NAMING_SUGGESTION_LIMIT 50

/* Longest title, agent's title or other line of a session's metadata the store keeps, in
 * characters: transcripts are not bounded, and a label lays out all it is given. */
#define LOOM_NAMING_TITLE_LIMIT 500
/* Longest path (a working folder) the store keeps, in bytes. */
#define LOOM_NAMING_PATH_LIMIT  4096

/* @text as one line a label can show: valid UTF-8 (a bad byte becomes U+FFFD), runs of white
 * space, newlines and control characters one space, the ends trimmed, and at most @max_chars
 * characters, the last of them "…" when it was cut. NULL for NULL or when nothing is left. */
char *loom_naming_bound_line (const char *text,
                              glong       max_chars);
/* @text as valid UTF-8 (bad bytes become U+FFFD), at most @max_bytes bytes, cut at a
 * character boundary and ended with "…" when it was longer. Nothing else changes: a path's
 * spaces are its own. NULL for NULL. */
char *loom_naming_bound_path (const char *text,
                              gsize       max_bytes);

/* TRUE when @text is exactly a valid calendar date written YYYY-MM-DD. */
gboolean loom_naming_is_date (const char *text);

/* Splits @title at a trailing " - YYYY-MM-DD" (or the importer's " - undated"). Returns TRUE when
 * the title ends in a date; @name then gets what comes before it and @date the date. Otherwise
 * @name gets the whole title and @date NULL. Both are trimmed; either may be NULL. */
gboolean loom_naming_split_title (const char *title,
                                  char      **name,
                                  char      **date);

/* A short descriptive name from the first prompt of a session: its first sentence without
 * greetings or requests ("please", "can you"), cut at a word boundary. NULL when nothing usable
 * remains. */
char *loom_naming_suggest_name (const char *text);

/* TRUE when @name is a stand-in rather than a name: empty, the importer's "Untitled session", or
 * a prompt cut short with "…". */
gboolean loom_naming_is_placeholder_name (const char *name);

/* The name a rename starts from: the name part of @title, or, when that is a placeholder, a
 * suggestion from @first_prompt (nullable); never NULL, possibly empty. */
char *loom_naming_propose_name (const char *title,
                                const char *first_prompt);

/* The date a title carries: the local date of @created_at (Unix ms), else the date already in
 * @title, else NULL. */
char *loom_naming_session_date (gint64      created_at,
                                const char *title);

/* `<name> - <date>`, or @name alone without a date. Whitespace in @name is collapsed, and a date
 * typed at its end is dropped, since the date is kept apart. NULL when the name is empty. */
char *loom_naming_build_title (const char *name,
                               const char *date);

/* The conventional title of a session, as a rename would propose it. */
char *loom_naming_conventional_title (const char *title,
                                      gint64      created_at,
                                      const char *first_prompt);

/* What to paste into the agent to give it the same title: `/rename <title>`. */
char *loom_naming_rename_command (const char *title);

G_END_DECLS
