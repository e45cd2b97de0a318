/* loom-markdown-blocks.h — agents' Markdown as a tree of blocks, without GTK.
 *
 * Text from agents is hostile input: nothing in it is ever taken as Pango markup or HTML. Raw
 * HTML is text, every piece of the agent's text is escaped, and only http, https and mailto
 * links are kept. A transcript also decides how deep and how big the tree is, so both are
 * bounded: containers (quotes, lists, list items) nest at most LOOM_MARKDOWN_MAX_DEPTH deep,
 * and deeper ones are drawn flat at the deepest level, their text kept. Past
 * LOOM_MARKDOWN_MAX_BLOCKS blocks, or LOOM_MARKDOWN_MAX_TABLE_CELLS cells in a table, the rest
 * is one paragraph of lines. Nothing of the text is ever dropped.
 *
 * This file builds no widgets, so that it can be fuzzed without a display
 * (tests/fuzz/fuzz-markdown.c); loom-markdown.c turns the blocks into widgets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* GTK maps a widget tree recursively: a transcript of 11,000 nested quotes overflowed its
 * stack. No one reads a quote in a quote 32 levels down. */
#define LOOM_MARKDOWN_MAX_DEPTH       32
/* Each block becomes a widget or a few; a person pasting 100,000 paragraphs reads them as
 * well in one label. */
#define LOOM_MARKDOWN_MAX_BLOCKS      4000
#define LOOM_MARKDOWN_MAX_TABLE_CELLS 2000
/* Emphasis in emphasis: Pango lays out every nested attribute; past this, spans are text. */
#define LOOM_MARKDOWN_MAX_SPAN_DEPTH  32

typedef enum
{
  LOOM_MARKDOWN_DOCUMENT,  /* the root: children */
  LOOM_MARKDOWN_PARAGRAPH, /* markup */
  LOOM_MARKDOWN_HEADING,   /* markup, level 1 to 6 */
  LOOM_MARKDOWN_CODE,      /* text (plain, valid UTF-8), language (plain) or NULL */
  LOOM_MARKDOWN_QUOTE,     /* children */
  LOOM_MARKDOWN_LIST,      /* children: items; ordered; level 1 for the outermost list */
  LOOM_MARKDOWN_LIST_ITEM, /* marker (plain: "•", "3.", "☐"), ordered, children */
  LOOM_MARKDOWN_RULE,
  LOOM_MARKDOWN_TABLE,      /* children: rows; level: the number of columns */
  LOOM_MARKDOWN_TABLE_ROW,  /* children: cells; header */
  LOOM_MARKDOWN_TABLE_CELL, /* markup; header */
} LoomMarkdownKind;

typedef struct _LoomMarkdownBlock LoomMarkdownBlock;

struct _LoomMarkdownBlock
{
  LoomMarkdownKind kind;
  /* Quotes, lists and list items around this block: 0 at the top, at most
   * LOOM_MARKDOWN_MAX_DEPTH. */
  guint            depth;
  guint            level;
  gboolean         ordered;
  gboolean         header;
  char            *markup; /* Pango markup, escaped: safe for gtk_label_set_markup() */
  char            *text;
  char            *language;
  char            *marker;
  GPtrArray       *children; /* of LoomMarkdownBlock; NULL for leaves */
};

/* The blocks of @length bytes of @text (-1: up to its NUL). Never NULL: a document that md4c
 * cannot parse (out of memory) is one paragraph of its text. */
LoomMarkdownBlock *loom_markdown_blocks_parse (const char *text,
                                               gssize      length);
/* The same, but only the head of the document: blocks that hold about @max_chars characters
 * of its text and @max_lines lines (0: no bound). Sets @n_shown to the number of bytes of
 * @text that the blocks show: all of them unless it stopped early. md4c still reads all of
 * @length bytes, so the caller bounds that too. */
LoomMarkdownBlock *loom_markdown_blocks_parse_head (const char *text,
                                                    gssize      length,
                                                    gsize       max_chars,
                                                    guint       max_lines,
                                                    gsize      *n_shown);
void               loom_markdown_block_free (LoomMarkdownBlock *block);

/* The same document as one string of Pango markup (blocks separated by blank lines), for
 * places that show a single label. */
char *loom_markdown_blocks_to_markup (const LoomMarkdownBlock *document);

/* @length bytes of @text escaped for Pango markup, with invalid UTF-8 and NUL characters
 * replaced. */
char    *loom_markdown_escape (const char *text,
                               gssize      length);
/* Whether a link to @uri may be opened from an agent's text. */
gboolean loom_markdown_is_safe_link (const char *uri);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomMarkdownBlock, loom_markdown_block_free)

G_END_DECLS
