/* loom-markdown.h — agents' Markdown, shown as GTK widgets.
 *
 * Text from agents is hostile input: nothing in it is ever taken as Pango markup or HTML. Raw
 * HTML shows as the text it is, and links open only for http, https and mailto.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-markdown-blocks.h"

G_BEGIN_DECLS

/* A vertical box of blocks: labels for paragraphs, headings and list items, monospace boxes
 * for code blocks, indented boxes for quotes, grids for tables. Every label is selectable.
 * The blocks are loom_markdown_blocks_parse()'s, with its bounds on depth and size. */
GtkWidget *loom_markdown_render (const char *text);
/* The head of @text as loom_markdown_render() draws it: no more than @max_source bytes of it
 * are parsed, and the blocks hold about @max_chars characters and @max_lines lines (nesting
 * is not text: a deep quote does not use them up). Sets @n_left_out to how many bytes of
 * @text are not shown, 0 when all of it is. */
GtkWidget *loom_markdown_render_head (const char *text,
                                      gsize       max_source,
                                      gsize       max_chars,
                                      guint       max_lines,
                                      gsize      *n_left_out);
/* The widgets of blocks loom_markdown_blocks_parse_head() made (in any thread). */
GtkWidget *loom_markdown_render_blocks (const LoomMarkdownBlock *document);
/* The same document as one string of Pango markup (blocks separated by blank lines), for
 * places that show a single label. */
char      *loom_markdown_to_markup (const char *text);
/* Wraps @label at words, or at any character when @text (its text or markup) has a word too
 * long for that: Pango 1.50 lays out a 40,000-character word in seconds when it may break only
 * at words, in a fraction of that when it may break anywhere. */
void       loom_markdown_label_set_wrap_for (GtkLabel   *label,
                                             const char *text);
/* Keeps Pango from breaking paths, ids and code with hyphens it adds: "a.j-" "sonl". */
void       loom_markdown_label_set_literal_wrap (GtkLabel *label);

G_END_DECLS
