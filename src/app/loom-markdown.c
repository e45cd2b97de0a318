/* loom-markdown.c — agents' Markdown, shown as GTK widgets.
 *
 * loom-markdown-blocks.c parses the text into a tree of blocks, escaped and bounded; this file
 * makes a widget of each. Markup goes only into labels that loom_markdown_blocks_parse()
 * escaped, and code into labels as plain text, never as markup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-markdown.h"

/* The narrowest a paragraph or a code block wraps to, in characters. GTK 4.8 measures a
 * wrapping label's minimum width by laying its text out at that width, or at 0 when none is
 * set: one line per character (code) or per word, which for a long message costs more than
 * everything else its row does. No one reads a column narrower than this anyway. */
#define MIN_WRAP_CHARS 12
/* Longer words make word wrapping slow (see loom_markdown_label_set_wrap_for()). */
#define MAX_WORD_BYTES 1000

void
loom_markdown_label_set_literal_wrap (GtkLabel *label)
{
  PangoAttrList *attributes = pango_attr_list_new ();

  g_return_if_fail (GTK_IS_LABEL (label));

  pango_attr_list_insert (attributes, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attributes);
  pango_attr_list_unref (attributes);
}

void
loom_markdown_label_set_wrap_for (GtkLabel   *label,
                                  const char *text)
{
  gsize    run = 0;
  gboolean long_word = FALSE;

  g_return_if_fail (GTK_IS_LABEL (label));

  for (const char *p = text != NULL ? text : ""; *p != '\0' && !long_word; p++)
    {
      if (g_ascii_isspace (*p))
        run = 0;
      else if (++run > MAX_WORD_BYTES)
        long_word = TRUE;
    }
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, long_word ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR);
  /* A word that long is code or data: a hyphen at each line's end would read as part of it. */
  if (long_word)
    loom_markdown_label_set_literal_wrap (label);
}

static GtkWidget *
text_label (const char *markup)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  loom_markdown_label_set_wrap_for (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

static const char *
heading_class (guint level)
{
  switch (level)
    {
    case 1:
      return "title-2";
    case 2:
      return "title-3";
    case 3:
      return "title-4";
    default:
      return "heading";
    }
}

static GtkWidget *
paragraph_new (const LoomMarkdownBlock *block)
{
  GtkWidget *label = text_label (block->markup);

  /* Not in text_label(): a table's cells may well be narrower. */
  gtk_label_set_width_chars (GTK_LABEL (label), MIN_WRAP_CHARS);
  if (block->kind == LOOM_MARKDOWN_HEADING)
    {
      gtk_widget_add_css_class (label, heading_class (block->level));
      gtk_widget_add_css_class (label, "md-heading");
    }
  return label;
}

static GtkWidget *
code_block_new (const LoomMarkdownBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_add_css_class (box, "md-code-block");
  if (block->language != NULL && *block->language != '\0')
    {
      GtkWidget *language = gtk_label_new (block->language);

      gtk_label_set_xalign (GTK_LABEL (language), 0);
      gtk_widget_add_css_class (language, "caption");
      gtk_widget_add_css_class (language, "dim-label");
      gtk_box_append (GTK_BOX (box), language);
    }

  /* Plain text, never markup: code is full of < and &. */
  gtk_label_set_text (GTK_LABEL (label), block->text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), MIN_WRAP_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  loom_markdown_label_set_literal_wrap (GTK_LABEL (label));
  gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (GTK_BOX (box), label);
  return box;
}

static GtkWidget *
table_new (const LoomMarkdownBlock *block)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());

  gtk_grid_set_column_spacing (grid, 18);
  gtk_grid_set_row_spacing (grid, 6);
  gtk_widget_add_css_class (GTK_WIDGET (grid), "md-table");
  for (guint r = 0; block->children != NULL && r < block->children->len; r++)
    {
      const LoomMarkdownBlock *row = block->children->pdata[r];

      for (guint c = 0; row->children != NULL && c < row->children->len; c++)
        {
          const LoomMarkdownBlock *cell = row->children->pdata[c];

          gtk_grid_attach (grid, text_label (cell->markup), (int)c, (int)r, 1, 1);
        }
    }
  return GTK_WIDGET (grid);
}

static GtkWidget *block_new (const LoomMarkdownBlock *block);

static void
append_children (GtkWidget               *box,
                 const LoomMarkdownBlock *block)
{
  for (guint i = 0; block->children != NULL && i < block->children->len; i++)
    {
      GtkWidget *child = block_new (block->children->pdata[i]);

      if (child != NULL)
        gtk_box_append (GTK_BOX (box), child);
    }
}

/* A quote, a list or the document: a vertical box of the block's children. */
static GtkWidget *
container_new (const LoomMarkdownBlock *block,
               int                      spacing,
               const char              *css_class)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, spacing);

  gtk_widget_add_css_class (box, css_class);
  append_children (box, block);
  return box;
}

static GtkWidget *
list_item_new (const LoomMarkdownBlock *block)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *bullet = gtk_label_new (block->marker);
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_set_valign (bullet, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (bullet), 1);
  gtk_label_set_width_chars (GTK_LABEL (bullet), block->ordered ? 3 : 2);
  gtk_widget_add_css_class (bullet, "md-bullet");
  gtk_widget_set_hexpand (content, TRUE);
  gtk_box_append (GTK_BOX (row), bullet);
  gtk_box_append (GTK_BOX (row), content);
  append_children (content, block);
  return row;
}

/* The widget of @block and of what it holds. The recursion is as deep as the tree, which
 * loom_markdown_blocks_parse() keeps to LOOM_MARKDOWN_MAX_DEPTH containers. */
static GtkWidget *
block_new (const LoomMarkdownBlock *block)
{
  switch (block->kind)
    {
    case LOOM_MARKDOWN_PARAGRAPH:
    case LOOM_MARKDOWN_HEADING:
      return paragraph_new (block);

    case LOOM_MARKDOWN_CODE:
      return code_block_new (block);

    case LOOM_MARKDOWN_QUOTE:
      return container_new (block, 8, "md-quote");

    case LOOM_MARKDOWN_LIST:
      return container_new (block, 4, "md-list");

    case LOOM_MARKDOWN_LIST_ITEM:
      return list_item_new (block);

    case LOOM_MARKDOWN_RULE:
      return gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);

    case LOOM_MARKDOWN_TABLE:
      return table_new (block);

    case LOOM_MARKDOWN_DOCUMENT:
      return container_new (block, 10, "markdown");

    case LOOM_MARKDOWN_TABLE_ROW:
    case LOOM_MARKDOWN_TABLE_CELL:
    default:
      return NULL;
    }
}

GtkWidget *
loom_markdown_render (const char *text)
{
  g_autoptr (LoomMarkdownBlock) document = loom_markdown_blocks_parse (text, -1);

  return block_new (document);
}

GtkWidget *
loom_markdown_render_head (const char *text,
                           gsize       max_source,
                           gsize       max_chars,
                           guint       max_lines,
                           gsize      *n_left_out)
{
  g_autoptr (LoomMarkdownBlock) document = NULL;
  gsize length = text != NULL ? strlen (text) : 0;
  gsize parsed = length;
  gsize shown = 0;

  /* md4c reads all it is given before it calls back: what it is given is bounded first. A
   * character cut in two is made valid with the rest of the text. */
  if (parsed > max_source)
    parsed = max_source;
  document = loom_markdown_blocks_parse_head (text, parsed, max_chars, max_lines, &shown);
  if (n_left_out != NULL)
    *n_left_out = length - MIN (shown, length);
  return block_new (document);
}

GtkWidget *
loom_markdown_render_blocks (const LoomMarkdownBlock *document)
{
  g_return_val_if_fail (document != NULL, NULL);

  return block_new (document);
}

char *
loom_markdown_to_markup (const char *text)
{
  g_autoptr (LoomMarkdownBlock) document = loom_markdown_blocks_parse (text, -1);

  return loom_markdown_blocks_to_markup (document);
}
