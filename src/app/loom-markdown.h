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
GtkWidget *loom_markdown_render        (const char *text);
/* The same document as one string of Pango markup (blocks separated by blank lines), for
 * places that show a single label. */
char      *loom_markdown_to_markup     (const char *text);
/* Keeps Pango from breaking paths, ids and code with hyphens it adds: "a.j-" "sonl". */
void       loom_markdown_label_set_literal_wrap (GtkLabel *label);

G_END_DECLS
