/* test-markdown-blocks.c — the Markdown block builder on hostile documents, without a display.
 *
 * What a transcript can make of the tree: how deep it is, how many blocks it has, and that
 * every word of the text is still in it, as markup Pango accepts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-markdown-blocks.h"

#define HOSTILE_DEPTH 100000

typedef struct
{
  guint    max_depth; /* containers around the deepest block, counted on the tree */
  guint    max_field; /* the deepest block's depth field */
  guint    n_blocks;
  guint    n_cells;
  GString *text; /* every paragraph's, heading's, cell's and code block's text */
} Walk;

static void
markup_text_cb (GMarkupParseContext *context,
                const char          *text,
                gsize                length,
                gpointer             user_data,
                GError             **error)
{
  g_string_append_len (user_data, text, length);
}

/* The text Pango would show for @markup; fails the test when @markup is not valid. */
static void
append_markup_text (GString    *out,
                    const char *markup)
{
  static const GMarkupParser parser = { .text = markup_text_cb };
  g_autoptr (GMarkupParseContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *wrapped = g_strconcat ("<markup>", markup, "</markup>", NULL);

  context = g_markup_parse_context_new (&parser, 0, out, NULL);
  g_markup_parse_context_parse (context, wrapped, -1, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
  g_string_append_c (out, '\n');
}

/* Without recursion: a tree that were as deep as the document must fail, not crash. */
static void
walk (const LoomMarkdownBlock *root,
      Walk                    *w)
{
  g_autoptr (GPtrArray) stack = g_ptr_array_new ();
  g_autoptr (GArray) depths = g_array_new (FALSE, FALSE, sizeof (guint));
  guint zero = 0;

  memset (w, 0, sizeof *w);
  w->text = g_string_new (NULL);
  g_ptr_array_add (stack, (gpointer)root);
  g_array_append_val (depths, zero);
  while (stack->len > 0)
    {
      const LoomMarkdownBlock *block = stack->pdata[stack->len - 1];
      guint                    depth = g_array_index (depths, guint, depths->len - 1);
      gboolean                 container;

      g_ptr_array_set_size (stack, stack->len - 1);
      g_array_set_size (depths, depths->len - 1);
      w->n_blocks++;
      w->max_field = MAX (w->max_field, block->depth);
      w->max_depth = MAX (w->max_depth, depth);

      if (block->kind == LOOM_MARKDOWN_TABLE_CELL)
        w->n_cells++;
      if (block->markup != NULL)
        append_markup_text (w->text, block->markup);
      if (block->text != NULL)
        {
          g_assert_true (g_utf8_validate (block->text, -1, NULL));
          g_string_append (w->text, block->text);
          g_string_append_c (w->text, '\n');
        }
      if (block->marker != NULL)
        g_assert_true (g_utf8_validate (block->marker, -1, NULL));

      container = block->kind == LOOM_MARKDOWN_QUOTE || block->kind == LOOM_MARKDOWN_LIST ||
                  block->kind == LOOM_MARKDOWN_LIST_ITEM;
      /* Last child first, so that the text comes out in the document's order. */
      for (guint i = block->children != NULL ? block->children->len : 0; i > 0; i--)
        {
          guint child_depth = depth + (container ? 1 : 0);

          g_ptr_array_add (stack, block->children->pdata[i - 1]);
          g_array_append_val (depths, child_depth);
        }
    }
}

static void
walk_clear (Walk *w)
{
  g_string_free (w->text, TRUE);
}

static char *
repeat (const char *piece,
        guint       n)
{
  GString *out = g_string_sized_new (strlen (piece) * n + 1);

  for (guint i = 0; i < n; i++)
    g_string_append (out, piece);
  return g_string_free (out, FALSE);
}

/* The words of @expected appear in @text in this order. */
static void
assert_words_in_order (const char *text,
                       const char *expected)
{
  g_auto (GStrv) words = g_strsplit (expected, " ", -1);
  const char *from = text;

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *found = strstr (from, words[i]);

      if (found == NULL)
        g_error ("\"%s\" is missing from the text after offset %zu", words[i],
                 (gsize)(from - text));
      from = found + strlen (words[i]);
    }
}

static void
test_deep_quotes (void)
{
  g_autofree char *quotes = repeat ("> ", HOSTILE_DEPTH);
  g_autofree char *document = g_strconcat ("before\n\n", quotes, "deep *words* here\n\n",
                                           "after the quotes", NULL);
  g_autoptr (LoomMarkdownBlock) root = loom_markdown_blocks_parse (document, -1);
  Walk w;

  walk (root, &w);
  g_assert_cmpuint (w.max_depth, <=, LOOM_MARKDOWN_MAX_DEPTH);
  g_assert_cmpuint (w.max_depth, >=, LOOM_MARKDOWN_MAX_DEPTH - 1);
  g_assert_cmpuint (w.max_field, <=, LOOM_MARKDOWN_MAX_DEPTH);
  /* The quotes past the bound are not blocks: a few dozen blocks, not 100,000. */
  g_assert_cmpuint (w.n_blocks, <, 100);
  assert_words_in_order (w.text->str, "before deep words here after the quotes");
  walk_clear (&w);
}

static void
test_deep_list (void)
{
  g_autofree char *items = repeat ("- ", HOSTILE_DEPTH);
  g_autofree char *ordered = repeat ("1. ", HOSTILE_DEPTH);
  g_autofree char *mixed = repeat ("> - ", HOSTILE_DEPTH / 2);
  g_autofree char *document = g_strconcat (items, "innermost item\n\nafter the list\n\n", ordered,
                                           "numbered\n\n", mixed, "mixed end\n", NULL);
  g_autoptr (LoomMarkdownBlock) root = loom_markdown_blocks_parse (document, -1);
  Walk w;

  walk (root, &w);
  g_assert_cmpuint (w.max_depth, <=, LOOM_MARKDOWN_MAX_DEPTH);
  g_assert_cmpuint (w.max_field, <=, LOOM_MARKDOWN_MAX_DEPTH);
  g_assert_cmpuint (w.n_blocks, <, 400);
  assert_words_in_order (w.text->str, "innermost item after the list numbered mixed end");
  /* A flat item keeps its marker before its text, as a plain-text list would. */
  g_assert_nonnull (strstr (w.text->str, "\342\227\246 innermost item"));
  walk_clear (&w);
}

static void
test_many_blocks (void)
{
  GString *document = g_string_new (NULL);
  g_autoptr (LoomMarkdownBlock) root = NULL;
  g_autofree char *markup = NULL;
  Walk             w;

  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (document, "paragraph%u\n\n", i);
  g_string_append (document, "```\ncode after all of it\n```\n\n# last heading\n");
  root = loom_markdown_blocks_parse (document->str, document->len);
  walk (root, &w);
  g_assert_cmpuint (w.n_blocks, <=, LOOM_MARKDOWN_MAX_BLOCKS + 2);
  assert_words_in_order (w.text->str, "paragraph0 paragraph3999 paragraph4000 paragraph99999 "
                                      "code after all of it last heading");
  walk_clear (&w);

  markup = loom_markdown_blocks_to_markup (root);
  g_assert_nonnull (strstr (markup, "paragraph99999"));
  g_assert_nonnull (strstr (markup, "<tt>code after all of it</tt>"));
  g_string_free (document, TRUE);
}

static void
test_big_tables (void)
{
  GString *rows = g_string_new ("| a | b |\n|---|---|\n");
  GString *columns = g_string_new ("|");
  g_autoptr (LoomMarkdownBlock) root = NULL;
  g_autoptr (LoomMarkdownBlock) wide = NULL;
  Walk w;

  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (rows, "| r%u | x |\n", i);
  root = loom_markdown_blocks_parse (rows->str, rows->len);
  walk (root, &w);
  g_assert_cmpuint (w.n_cells, <=, LOOM_MARKDOWN_MAX_TABLE_CELLS + 128);
  g_assert_cmpuint (w.n_blocks, <=, LOOM_MARKDOWN_MAX_BLOCKS + 2);
  assert_words_in_order (w.text->str, "a b r0 r998 r999 r1000 r99999");
  walk_clear (&w);

  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (columns, " c%u |", i);
  g_string_append (columns, "\n|");
  for (guint i = 0; i < 100000; i++)
    g_string_append (columns, "---|");
  g_string_append (columns, "\n| v |\n");
  wide = loom_markdown_blocks_parse (columns->str, columns->len);
  walk (wide, &w);
  g_assert_cmpuint (w.n_cells, <=, LOOM_MARKDOWN_MAX_TABLE_CELLS + 128);
  assert_words_in_order (w.text->str, "c0 c1 c99999 v");
  walk_clear (&w);

  g_string_free (rows, TRUE);
  g_string_free (columns, TRUE);
}

static void
test_deep_spans (void)
{
  g_autofree char *open = repeat ("*a ", 20000);
  g_autofree char *close = repeat (" b*", 20000);
  g_autofree char *strong = repeat ("**", 30000);
  g_autofree char *links = repeat ("[", 30000);
  g_autofree char *document = g_strconcat (open, "middle", close, "\n\n", strong, "x", strong,
                                           "\n\n", links, "end](https://example.org)", NULL);
  g_autoptr (LoomMarkdownBlock) root = loom_markdown_blocks_parse (document, -1);
  Walk w;

  /* Walking parses every markup: it is valid however deep the emphasis went. */
  walk (root, &w);
  assert_words_in_order (w.text->str, "a middle b x end");
  walk_clear (&w);

  for (guint i = 0; i < root->children->len; i++)
    {
      const LoomMarkdownBlock *block = root->children->pdata[i];
      guint                    open_tags = 0;

      for (const char *p = block->markup; p != NULL && *p != '\0'; p++)
        if (p[0] == '<' && p[1] != '/')
          open_tags++;
      g_assert_cmpuint (open_tags, <=, 2 * LOOM_MARKDOWN_MAX_SPAN_DEPTH + 2);
    }
}

static void
test_escaping (void)
{
  g_autoptr (LoomMarkdownBlock) root = loom_markdown_blocks_parse (
    "<b>bold?</b> <span foreground=\"red\">red?</span> &amp; \001 "
    "[safe](https://example.org/?a=1&b=\"2\") [unsafe](javascript:alert(1)) "
    "[file](file:///etc/passwd)\n\n```\n\xff<code>\n```\n",
    -1);
  const LoomMarkdownBlock *paragraph = root->children->pdata[0];
  const LoomMarkdownBlock *code = root->children->pdata[1];
  Walk                     w;

  g_assert_cmpint (paragraph->kind, ==, LOOM_MARKDOWN_PARAGRAPH);
  g_assert_null (strstr (paragraph->markup, "<b>"));
  g_assert_null (strstr (paragraph->markup, "<span"));
  g_assert_nonnull (
    strstr (paragraph->markup, "<a href=\"https://example.org/?a=1&amp;b=&quot;2&quot;\">"));
  g_assert_null (strstr (paragraph->markup, "javascript"));
  g_assert_null (strstr (paragraph->markup, "file:"));
  g_assert_cmpint (code->kind, ==, LOOM_MARKDOWN_CODE);
  g_assert_cmpstr (code->text, ==, "\357\277\275<code>");

  walk (root, &w);
  assert_words_in_order (w.text->str, "<b>bold?</b> <span foreground=\"red\">red?</span> &");
  walk_clear (&w);
}

/* The head of a document: whole characters, closed spans, and how far into the source. */
static void
test_head (void)
{
  g_autofree char   *quotes = repeat ("> ", HOSTILE_DEPTH);
  g_autofree char   *long_words = repeat ("word\u00e9 ", 5000);
  g_autofree char   *lines = repeat ("line\n", 5000);
  g_autofree char   *deep = g_strconcat (quotes, "deep text\n\nafter", NULL);
  g_autofree char   *spans = g_strconcat ("**bold *and em ", long_words,
                                          "* end**\n\n| a |\n|---|\n| ", long_words, " |\n", NULL);
  g_autofree char   *code = g_strconcat ("```\n", lines, "```\n\nlast", NULL);
  LoomMarkdownBlock *root;
  gsize              shown = 0;
  Walk               w;

  /* The nesting is markup, not text: the head reaches the words after it. */
  root = loom_markdown_blocks_parse_head (deep, -1, 12000, 200, &shown);
  walk (root, &w);
  assert_words_in_order (w.text->str, "deep text after");
  g_assert_cmpuint (shown, ==, strlen (deep));
  walk_clear (&w);
  loom_markdown_block_free (root);

  /* Cut in the middle of emphasis: still valid markup (the walk parses it), and short. */
  root = loom_markdown_blocks_parse_head (spans, -1, 1000, 200, &shown);
  walk (root, &w);
  g_assert_cmpuint (w.text->len, <=, 1000 + 10);
  g_assert_cmpuint (w.text->len, >=, 900);
  assert_words_in_order (w.text->str, "bold and em word\u00e9");
  g_assert_null (strstr (w.text->str, " end"));
  g_assert_cmpuint (shown, >, 900);
  g_assert_cmpuint (shown, <, 1100);
  walk_clear (&w);
  loom_markdown_block_free (root);

  /* Cut in a table cell, and by lines in a code block. */
  root = loom_markdown_blocks_parse_head (spans, -1, 40000, 0, &shown);
  walk (root, &w);
  assert_words_in_order (w.text->str, "end a word\u00e9");
  g_assert_cmpuint (shown, <, strlen (spans));
  walk_clear (&w);
  loom_markdown_block_free (root);

  root = loom_markdown_blocks_parse_head (code, -1, 0, 100, &shown);
  walk (root, &w);
  g_assert_cmpuint (w.text->len, <=, 101 * strlen ("line\n"));
  g_assert_null (strstr (w.text->str, "last"));
  g_assert_cmpuint (shown, <, strlen (code));
  walk_clear (&w);
  loom_markdown_block_free (root);

  /* Room for all of it: all of it, and said so. */
  root = loom_markdown_blocks_parse_head (code, -1, 0, 0, &shown);
  walk (root, &w);
  assert_words_in_order (w.text->str, "line line last");
  g_assert_cmpuint (shown, ==, strlen (code));
  walk_clear (&w);
  loom_markdown_block_free (root);
}

/* Found by tests/fuzz/fuzz-markdown.c: md4c opens a strikethrough here and never closes it. */
static void
test_unbalanced_spans (void)
{
  static const char *const documents[] = {
    "~x [y](z~.)",
    "| ~x [y](c~.) |\n|---|\n| d |\n",
    "- ~x [y](z~.)\n  - nested\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (documents); i++)
    {
      g_autoptr (LoomMarkdownBlock) root = loom_markdown_blocks_parse (documents[i], -1);
      g_autofree char *markup = loom_markdown_blocks_to_markup (root);
      Walk             w;

      /* The walk parses each block's markup, and this the whole document's. */
      walk (root, &w);
      assert_words_in_order (w.text->str, "x y");
      walk_clear (&w);
      {
        g_autoptr (GString) text = g_string_new (NULL);

        append_markup_text (text, markup);
      }
    }
}

static void
test_empty (void)
{
  g_autoptr (LoomMarkdownBlock) none = loom_markdown_blocks_parse (NULL, -1);
  g_autoptr (LoomMarkdownBlock) empty = loom_markdown_blocks_parse ("", 0);
  g_autoptr (LoomMarkdownBlock) nul = loom_markdown_blocks_parse ("a\0b", 3);
  g_autofree char *markup = loom_markdown_blocks_to_markup (none);
  Walk             w;

  g_assert_cmpint (none->kind, ==, LOOM_MARKDOWN_DOCUMENT);
  g_assert_null (none->children);
  g_assert_null (empty->children);
  g_assert_cmpstr (markup, ==, "");
  walk (nul, &w);
  assert_words_in_order (w.text->str, "a b");
  walk_clear (&w);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown-blocks/deep-quotes", test_deep_quotes);
  g_test_add_func ("/markdown-blocks/deep-list", test_deep_list);
  g_test_add_func ("/markdown-blocks/many-blocks", test_many_blocks);
  g_test_add_func ("/markdown-blocks/big-tables", test_big_tables);
  g_test_add_func ("/markdown-blocks/deep-spans", test_deep_spans);
  g_test_add_func ("/markdown-blocks/escaping", test_escaping);
  g_test_add_func ("/markdown-blocks/head", test_head);
  g_test_add_func ("/markdown-blocks/unbalanced-spans", test_unbalanced_spans);
  g_test_add_func ("/markdown-blocks/empty", test_empty);

  return g_test_run ();
}
