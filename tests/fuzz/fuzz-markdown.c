/* fuzz-markdown.c — libFuzzer target: the timeline's Markdown block builder on any bytes.
 *
 * The bytes are an agent's message or a tool's output as the timeline would render it: parsed
 * into blocks, written out as one markup string as well, and freed. The builder must not
 * crash, leak or recurse on them, and what it writes must be markup that GMarkup (hence Pango)
 * accepts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "loom-markdown-blocks.h"

static void
ignore_text_cb (GMarkupParseContext *context,
                const char          *text,
                gsize                length,
                gpointer             user_data,
                GError             **error)
{
}

/* Aborts (a crash libFuzzer reports) when @markup is not well-formed. */
static void
check_markup (const char *markup)
{
  static const GMarkupParser parser = { .text = ignore_text_cb };
  g_autofree char           *wrapped = g_strconcat ("<markup>", markup, "</markup>", NULL);
  GMarkupParseContext       *context = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  gboolean                   ok;

  ok = g_markup_parse_context_parse (context, wrapped, -1, NULL) &&
       g_markup_parse_context_end_parse (context, NULL);
  g_markup_parse_context_free (context);
  if (!ok)
    abort ();
}

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  LoomMarkdownBlock *document;
  char              *markup;

  /* Not NUL-terminated, as the builder must take it. */
  document = loom_markdown_blocks_parse ((const char *)data, (gssize)size);
  markup = loom_markdown_blocks_to_markup (document);
  check_markup (markup);
  g_free (markup);
  loom_markdown_block_free (document);
  return 0;
}
