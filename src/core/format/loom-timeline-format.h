/* loom-timeline-format.h — turning events' stored text and payloads into what a person reads.
 *
 * Plain text in, plain text out: no widgets and no markup here, so that every agent's format
 * quirk can be tested on its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @text without terminal escape sequences (colours, cursor moves) and other control characters
 * but newlines and tabs: tools' output is full of them, and they would show as boxes. NULL when
 * there is nothing to remove. */
char *loom_timeline_format_strip_controls (const char *text);

/* @text without the XML-like tags Claude Code wraps slash commands in
 * ("<command-name>/compact</command-name>" → "/compact"); NULL when it has none. */
char *loom_timeline_format_strip_tags (const char *text);

/* The first meaningful line of an event's text, for a collapsed row (a patch gives the file it
 * touches). */
char *loom_timeline_format_summary (const char *text);

/* A tool call's input as a person reads it: the command line for shells, else indented JSON,
 * else the payload as it is. */
char *loom_timeline_format_input (const char *payload);

/* A tool result's whole output from its payload, for when the stored text was cut to its
 * bound: Claude Code's content (a string or text blocks), Codex's output, Gemini's response.
 * NULL when the payload says nothing more. */
char *loom_timeline_format_result_output (const char *payload);

/* What a sub-agent was asked to do: its prompt (Claude Code) or message (Codex), else the
 * input as loom_timeline_format_input() shows it. */
char *loom_timeline_format_subagent_prompt (const char *payload);

/* A file change as unified diff lines (each starting with '+', '-', ' ' or "@@"), from the
 * change's payload (a patch, a fileDiff, old and new strings, edits, or a new file's content)
 * or its result's structuredPatch; NULL when neither says what changed. */
char *loom_timeline_format_diff (const char *payload,
                                 const char *result_payload);

/* At most @max_lines lines and about @max_chars characters of @text; sets @n_lines to the
 * number of lines in the whole text. Returns NULL when the text fits as it is. */
char *loom_timeline_format_head (const char *text,
                                 guint       max_lines,
                                 gsize       max_chars,
                                 guint      *n_lines);

/* How much of a text is not shown, for a note under its head: "… 49.9 MB more", or with
 * @estimate (the size is the payload's, not the text's) "… about 49.9 MB more". */
char *loom_timeline_format_left_out (guint64  n_bytes,
                                     gboolean estimate);

/* At most about @max_bytes of @text, cut on a character boundary, followed by a
 * loom_timeline_format_left_out() note; NULL when the text fits as it is. For labels that
 * show a text whole: Pango lays out all it is given, and megabytes hang the window.
 * @whole_size, when not 0, is about how long the whole text is (an event's text is only the
 * stored part of it: its payload's size). */
char *loom_timeline_format_bounded (const char *text,
                                    gsize       max_bytes,
                                    guint64     whole_size);

/* The symbolic icon for a tool, by its name and the event's kind. */
const char *loom_timeline_format_tool_icon (const char *tool_name,
                                            const char *kind,
                                            const char *change_kind);

G_END_DECLS
