/* loom-markdown.h — agents' Markdown, shown as GTK widgets.
 *
 * Text from agents is hostile input: nothing in it is ever taken as Pango markup or HTML. Raw
 * HTML shows as the text it is, and links open only for http, https and mailto.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A vertical box of blocks: labels for paragraphs, headings and list items, monospace boxes
 * for code blocks, indented boxes for quotes, grids for tables. Every label is selectable. */
GtkWidget *loom_markdown_render        (const char *text);
/* The same document as one string of Pango markup (blocks separated by blank lines), for
 * places that show a single label. */
char      *loom_markdown_to_markup     (const char *text);
/* @text escaped for Pango markup, with invalid UTF-8 and NUL characters replaced. */
char      *loom_markdown_escape        (const char *text,
                                        gssize      length);
/* Keeps Pango from breaking paths, ids and code with hyphens it adds: "a.j-" "sonl". */
void       loom_markdown_label_set_literal_wrap (GtkLabel *label);
/* Whether a link to @uri may be opened from an agent's text. */
gboolean   loom_markdown_is_safe_link  (const char *uri);

G_END_DECLS
