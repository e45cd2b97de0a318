/* loom-markdown-blocks.c — agents' Markdown as a tree of blocks, without GTK.
 *
 * md4c parses and calls back; this file walks the callbacks once and builds the tree. Every
 * piece of the agent's text goes through loom_markdown_escape() before it is markup, and code
 * is kept as plain text, never as markup.
 *
 * md4c itself nests without recursion and has no depth limit: the bounds are kept here, by
 * not building what is past them. The tree is at most LOOM_MARKDOWN_MAX_DEPTH containers
 * deep, so walking it recursively (to free it, to build widgets) is safe.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <md4c.h>
#include <string.h>

#include "loom-markdown-blocks.h"

/* GitHub's dialect as agents write it, without raw HTML: a `<b>` in a message is text. */
#define PARSER_FLAGS \
  (MD_FLAG_NOHTML | MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | \
   MD_FLAG_PERMISSIVEURLAUTOLINKS | MD_FLAG_PERMISSIVEEMAILAUTOLINKS)

/* md4c 0.4.8 counts a table's columns in 16 bits: a row of more cells than that loses the
 * ones past the count. Such a "table" is read as the text it is. */
#define MAX_TABLE_PIPES 65000

/* Inline code stands out by a faint grey that reads on light and dark backgrounds alike. */
#define CODE_SPAN_OPEN  "<span font_family=\"monospace\" background=\"#808080\" bgalpha=\"18%\">"
#define CODE_SPAN_CLOSE "</span>"

/* Between the cells of a table row written as a line. */
#define CELL_SEPARATOR "  \342\224\202  "

typedef struct
{
  gboolean ordered;
  guint    next;
} ListState;

typedef struct
{
  LoomMarkdownBlock *root;
  GPtrArray         *open;           /* the containers built, innermost last; [0] is root */
  GArray            *built;          /* gboolean per quote, list and item open in md4c */
  GArray            *lists;          /* ListState per list open in md4c, built or not */
  GArray            *spans;          /* const char * per open span: its closing tag or NULL */
  GString           *inline_markup;  /* the open block's text, as markup */
  char              *pending_marker; /* a list item drawn flat: its marker, for its text */
  GString           *code;           /* the open code block's text, or NULL */
  char              *code_language;
  gboolean           in_table;
  LoomMarkdownBlock *table;      /* the open table, NULL when it goes to @rest */
  LoomMarkdownBlock *row;        /* the open row, NULL when it goes to lines */
  GString           *table_rest; /* the open table's rows past the cell bound */
  guint              table_cells;
  guint              table_column;
  gboolean           table_head;
  guint              heading_level;
  guint              n_blocks;
  GString           *rest; /* everything past the block bound, a line each */
  gboolean           in_cell;
  /* The head: how much text and how many lines the blocks may hold (0: no bound), what they
   * hold, and how far into the source that is. */
  const char        *source;
  gsize              source_size;
  gsize              max_chars;
  guint              max_lines;
  gsize              n_chars;
  guint              n_lines;
  gsize              shown_end;
  gboolean           stopped;
} Builder;

char *
loom_markdown_escape (const char *text,
                      gssize      length)
{
  g_autofree char *valid = NULL;

  if (text == NULL)
    return g_strdup ("");

  /* g_utf8_make_valid() also replaces NUL bytes, which Pango would stop at. */
  valid = g_utf8_make_valid (text, length);
  return g_markup_escape_text (valid, -1);
}

gboolean
loom_markdown_is_safe_link (const char *uri)
{
  g_autofree char *scheme = NULL;

  if (uri == NULL)
    return FALSE;
  scheme = g_uri_parse_scheme (uri);
  return scheme != NULL &&
         (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0 ||
          g_ascii_strcasecmp (scheme, "mailto") == 0);
}

static void
append_escaped (GString    *out,
                const char *text,
                gssize      length)
{
  g_autofree char *escaped = loom_markdown_escape (text, length);

  g_string_append (out, escaped);
}

/* md4c hands entities over verbatim; a few named ones and numeric ones are worth decoding,
 * anything else is shown as written. */
static void
append_entity (GString    *out,
               const char *text,
               gsize       length)
{
  static const struct
  {
    const char *name;
    const char *text;
  } named[] = {
    { "&amp;", "&" },
    { "&lt;", "<" },
    { "&gt;", ">" },
    { "&quot;", "\"" },
    { "&apos;", "'" },
    { "&nbsp;", "\302\240" },
    { "&copy;", "\302\251" },
    { "&mdash;", "\342\200\224" },
    { "&ndash;", "\342\200\223" },
    { "&hellip;", "\342\200\246" },
  };
  g_autofree char *entity = g_strndup (text, length);

  for (guint i = 0; i < G_N_ELEMENTS (named); i++)
    {
      if (g_str_equal (entity, named[i].name))
        {
          append_escaped (out, named[i].text, -1);
          return;
        }
    }

  if (length > 3 && entity[1] == '#')
    {
      gboolean hex = entity[2] == 'x' || entity[2] == 'X';
      char    *end = NULL;
      guint64  value = g_ascii_strtoull (entity + (hex ? 3 : 2), &end, hex ? 16 : 10);

      if (end != NULL && *end == ';' && value > 0 && value <= G_MAXUINT32 &&
          g_unichar_validate ((gunichar)value))
        {
          char utf8[7] = { 0 };

          g_unichar_to_utf8 ((gunichar)value, utf8);
          append_escaped (out, utf8, -1);
          return;
        }
    }

  append_escaped (out, text, length);
}

/* An attribute's text as valid UTF-8 (a code block's language goes into a label as it is). */
static char *
attribute_strdup (const MD_ATTRIBUTE *attribute)
{
  if (attribute == NULL || attribute->text == NULL || attribute->size == 0)
    return NULL;
  return g_utf8_make_valid (attribute->text, attribute->size);
}

/* The tree */

void
loom_markdown_block_free (LoomMarkdownBlock *block)
{
  if (block == NULL)
    return;
  /* Recursion is bounded by the depth the builder keeps to. */
  if (block->children != NULL)
    g_ptr_array_unref (block->children);
  g_free (block->markup);
  g_free (block->text);
  g_free (block->language);
  g_free (block->marker);
  g_free (block);
}

static LoomMarkdownBlock *
current (Builder *b)
{
  return b->open->pdata[b->open->len - 1];
}

static gboolean
over_budget (Builder *b)
{
  return b->n_blocks >= LOOM_MARKDOWN_MAX_BLOCKS;
}

/* A new block, the last child of @parent. */
static LoomMarkdownBlock *
add_block (Builder           *b,
           LoomMarkdownBlock *parent,
           LoomMarkdownKind   kind)
{
  LoomMarkdownBlock *block = g_new0 (LoomMarkdownBlock, 1);

  block->kind = kind;
  block->depth = b->open->len - 1;
  if (parent->kind == LOOM_MARKDOWN_TABLE || parent->kind == LOOM_MARKDOWN_TABLE_ROW)
    block->depth = parent->depth;
  if (parent->children == NULL)
    parent->children = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_markdown_block_free);
  g_ptr_array_add (parent->children, block);
  b->n_blocks++;
  return block;
}

static void
append_line (GString    *out,
             const char *markup)
{
  if (out->len > 0)
    g_string_append_c (out, '\n');
  g_string_append (out, markup);
}

/* Closes the spans still open, innermost first. md4c 0.4.8 can leave one open: a `~` in a
 * link's destination ends the strikethrough around the link without a leave_span. Markup
 * that does not close would be refused by Pango (and the label left empty). */
static void
close_spans (Builder *b)
{
  for (guint i = b->spans->len; i > 0; i--)
    {
      const char *close = g_array_index (b->spans, const char *, i - 1);

      if (close != NULL)
        g_string_append (b->inline_markup, close);
    }
  g_array_set_size (b->spans, 0);
}

/* Ends the open run of inline text as a paragraph or heading. Empty runs leave nothing. */
static void
flush_inline (Builder *b)
{
  LoomMarkdownBlock *block;

  close_spans (b);
  if (b->inline_markup->len == 0)
    return;

  /* A list item drawn flat starts with its marker, as in a plain-text list. */
  if (b->pending_marker != NULL)
    {
      g_autofree char *marker = g_markup_escape_text (b->pending_marker, -1);

      g_string_prepend_c (b->inline_markup, ' ');
      g_string_prepend (b->inline_markup, marker);
      g_clear_pointer (&b->pending_marker, g_free);
    }

  if (over_budget (b))
    {
      if (b->heading_level > 0)
        {
          g_string_prepend (b->inline_markup, "<b>");
          g_string_append (b->inline_markup, "</b>");
        }
      append_line (b->rest, b->inline_markup->str);
    }
  else
    {
      block = add_block (b, current (b),
                         b->heading_level > 0 ? LOOM_MARKDOWN_HEADING : LOOM_MARKDOWN_PARAGRAPH);
      block->level = b->heading_level;
      block->markup = g_strndup (b->inline_markup->str, b->inline_markup->len);
    }
  g_string_truncate (b->inline_markup, 0);
  b->n_lines++;
}

/* Opens a quote, list or item: a block inside the current one while the bounds allow, else
 * nothing (its content goes to the current block). Returns the block or NULL. */
static LoomMarkdownBlock *
enter_container (Builder         *b,
                 LoomMarkdownKind kind)
{
  LoomMarkdownBlock *block = NULL;
  gboolean           built = b->open->len - 1 < LOOM_MARKDOWN_MAX_DEPTH && !over_budget (b);

  g_array_append_val (b->built, built);
  if (!built)
    return NULL;
  block = add_block (b, current (b), kind);
  g_ptr_array_add (b->open, block);
  return block;
}

static void
leave_container (Builder *b)
{
  gboolean built;

  /* md4c balances its blocks; should it not, nothing is left that was not entered. */
  if (b->built->len == 0)
    return;
  built = g_array_index (b->built, gboolean, b->built->len - 1);
  g_array_set_size (b->built, b->built->len - 1);
  if (built)
    {
      g_assert (b->open->len > 1);
      g_ptr_array_set_size (b->open, b->open->len - 1);
    }
}

static void
add_code_block (Builder *b)
{
  g_autofree char *text = NULL;
  gsize            length = b->code->len;

  /* The last line's newline would show as an empty line. */
  while (length > 0 && b->code->str[length - 1] == '\n')
    length--;
  text = g_utf8_make_valid (b->code->str, length);
  /* Its lines were counted as they came. */
  b->n_lines++;

  if (over_budget (b))
    {
      g_autofree char *escaped = g_markup_escape_text (text, -1);
      g_autofree char *line = g_strconcat ("<tt>", escaped, "</tt>", NULL);

      append_line (b->rest, line);
    }
  else
    {
      LoomMarkdownBlock *block = add_block (b, current (b), LOOM_MARKDOWN_CODE);

      block->text = g_steal_pointer (&text);
      block->language = g_steal_pointer (&b->code_language);
    }

  g_string_free (b->code, TRUE);
  b->code = NULL;
  g_clear_pointer (&b->code_language, g_free);
}

static void
enter_list_item (Builder            *b,
                 MD_BLOCK_LI_DETAIL *detail)
{
  ListState  none = { FALSE, 1 };
  ListState *list = b->lists->len > 0 ? &g_array_index (b->lists, ListState, b->lists->len - 1)
                                      : &none;
  LoomMarkdownBlock *block;
  char              *marker;

  if (detail != NULL && detail->is_task)
    marker = g_strdup (detail->task_mark == ' ' ? "\342\230\220" : "\342\230\221");
  else if (list->ordered)
    marker = g_strdup_printf ("%u.", list->next++);
  else
    marker = g_strdup (b->lists->len > 1 ? "\342\227\246" : "\342\200\242");

  if ((block = enter_container (b, LOOM_MARKDOWN_LIST_ITEM)))
    {
      block->marker = marker;
      block->ordered = list->ordered;
    }
  else
    {
      /* Items in items past the bound: only the innermost marker before the text. */
      g_free (b->pending_marker);
      b->pending_marker = marker;
    }
}

/* Where the rows of a table go once they are lines: after the table, or with the rest. */
static GString *
table_lines (Builder *b)
{
  return b->table != NULL ? b->table_rest : b->rest;
}

static void leave_cell (Builder *b);
static void leave_table (Builder *b);

/* The head */

static gboolean
is_full (Builder *b)
{
  return (b->max_chars > 0 && b->n_chars >= b->max_chars) ||
         (b->max_lines > 0 && b->n_lines >= b->max_lines);
}

/* Non-zero ends md4c's walk. */
static int
stop_if_full (Builder *b)
{
  if (!is_full (b))
    return 0;
  b->stopped = TRUE;
  return 1;
}

/* Of @size bytes of text at @text, how many fit in the head: all, or as many whole
 * characters as there is room for. */
static gsize
room_for (Builder    *b,
          const char *text,
          gsize       size)
{
  gsize room;

  if (b->max_chars == 0)
    return size;
  room = b->max_chars > b->n_chars ? b->max_chars - b->n_chars : 0;
  if (size <= room)
    return size;
  /* At the end of a word when there is one near, else between two characters. */
  for (gsize back = room; back > 0 && room - back < 64; back--)
    {
      if (g_ascii_isspace (text[back - 1]))
        return back;
    }
  while (room > 0 && ((guchar)text[room] & 0xc0) == 0x80)
    room--;
  return room;
}

/* Notes that the blocks show the source up to the end of @size bytes at @text. */
static void
shown_up_to (Builder    *b,
             const char *text,
             gsize       size)
{
  if (text >= b->source && text <= b->source + b->source_size)
    b->shown_end = MAX (b->shown_end, (gsize)(text - b->source) + size);
}

/* md4c stopped in the middle of things: what it opened is closed here. */
static void
finish_head (Builder *b)
{
  close_spans (b);
  if (b->code != NULL)
    add_code_block (b);
  if (b->in_cell)
    leave_cell (b);
  if (b->in_table)
    leave_table (b);
  flush_inline (b);
}

/* md4c callbacks */

static int
enter_block_cb (MD_BLOCKTYPE type,
                void        *detail,
                void        *user_data)
{
  Builder           *b = user_data;
  LoomMarkdownBlock *block;

  /* md4c may still close what it opened after a callback asked it to stop. */
  if (b->stopped)
    return 1;

  /* Text of a tight list item comes without a paragraph: close it before a nested block.
   * Table cells are the exception: their text is the cell's. */
  if (type != MD_BLOCK_DOC && type != MD_BLOCK_TH && type != MD_BLOCK_TD)
    flush_inline (b);

  switch (type)
    {
    case MD_BLOCK_H:
      b->heading_level = ((MD_BLOCK_H_DETAIL *)detail)->level;
      break;

    case MD_BLOCK_QUOTE:
      enter_container (b, LOOM_MARKDOWN_QUOTE);
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      {
        ListState list = { type == MD_BLOCK_OL, 1 };

        if (type == MD_BLOCK_OL)
          list.next = ((MD_BLOCK_OL_DETAIL *)detail)->start;
        g_array_append_val (b->lists, list);
        if ((block = enter_container (b, LOOM_MARKDOWN_LIST)))
          {
            block->ordered = list.ordered;
            block->level = b->lists->len;
          }
      }
      break;

    case MD_BLOCK_LI:
      enter_list_item (b, detail);
      break;

    case MD_BLOCK_HR:
      if (!over_budget (b))
        add_block (b, current (b), LOOM_MARKDOWN_RULE);
      break;

    case MD_BLOCK_CODE:
    case MD_BLOCK_HTML:
      if (b->code != NULL)
        g_string_free (b->code, TRUE);
      b->code = g_string_new (NULL);
      g_clear_pointer (&b->code_language, g_free);
      if (type == MD_BLOCK_CODE)
        b->code_language = attribute_strdup (&((MD_BLOCK_CODE_DETAIL *)detail)->lang);
      break;

    case MD_BLOCK_TABLE:
      b->in_table = TRUE;
      b->table = over_budget (b) ? NULL : add_block (b, current (b), LOOM_MARKDOWN_TABLE);
      b->table_cells = 0;
      if (b->table_rest == NULL)
        b->table_rest = g_string_new (NULL);
      g_string_truncate (b->table_rest, 0);
      if (b->table != NULL)
        b->table->level = ((MD_BLOCK_TABLE_DETAIL *)detail)->col_count;
      break;

    case MD_BLOCK_THEAD:
      b->table_head = TRUE;
      break;

    case MD_BLOCK_TBODY:
      b->table_head = FALSE;
      break;

    case MD_BLOCK_TR:
      b->table_column = 0;
      b->row = NULL;
      if (b->table != NULL && b->table_cells < LOOM_MARKDOWN_MAX_TABLE_CELLS)
        {
          b->row = add_block (b, b->table, LOOM_MARKDOWN_TABLE_ROW);
          b->row->header = b->table_head;
        }
      else if (table_lines (b)->len > 0)
        g_string_append_c (table_lines (b), '\n');
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      b->in_cell = TRUE;
      g_string_truncate (b->inline_markup, 0);
      if (b->table_head)
        g_string_append (b->inline_markup, "<b>");
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_P:
    default:
      break;
    }
  return 0;
}

static void
leave_cell (Builder *b)
{
  close_spans (b);
  if (b->table_head)
    g_string_append (b->inline_markup, "</b>");

  /* A row wider than the bound goes on as a line of its own. */
  if (b->row != NULL && b->table_cells >= LOOM_MARKDOWN_MAX_TABLE_CELLS)
    {
      b->row = NULL;
      if (table_lines (b)->len > 0)
        g_string_append_c (table_lines (b), '\n');
      b->table_column = 0;
    }

  if (b->row != NULL)
    {
      LoomMarkdownBlock *cell = add_block (b, b->row, LOOM_MARKDOWN_TABLE_CELL);

      cell->markup = g_strndup (b->inline_markup->str, b->inline_markup->len);
      cell->header = b->table_head;
      cell->level = b->table_column;
    }
  else if (b->in_table)
    {
      if (b->table_column > 0)
        g_string_append (table_lines (b), CELL_SEPARATOR);
      g_string_append (table_lines (b), b->inline_markup->str);
    }
  g_string_truncate (b->inline_markup, 0);
  b->table_column++;
  b->table_cells++;
  b->in_cell = FALSE;
}

static void
leave_table (Builder *b)
{
  /* The rows past the bound follow the table as lines of one paragraph. */
  if (b->table != NULL && b->table_rest->len > 0)
    {
      LoomMarkdownBlock *block = add_block (b, current (b), LOOM_MARKDOWN_PARAGRAPH);

      block->markup = g_strdup (b->table_rest->str);
    }
  g_string_truncate (b->table_rest, 0);
  b->table = NULL;
  b->row = NULL;
  b->in_table = FALSE;
  b->table_head = FALSE;
}

static int
leave_block_cb (MD_BLOCKTYPE type,
                void        *detail,
                void        *user_data)
{
  Builder *b = user_data;

  /* md4c may still close what it opened after a callback asked it to stop. */
  if (b->stopped)
    return 1;

  switch (type)
    {
    case MD_BLOCK_P:
      flush_inline (b);
      break;

    case MD_BLOCK_H:
      flush_inline (b);
      b->heading_level = 0;
      break;

    case MD_BLOCK_QUOTE:
      flush_inline (b);
      leave_container (b);
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      flush_inline (b);
      if (b->lists->len > 0)
        g_array_set_size (b->lists, b->lists->len - 1);
      leave_container (b);
      break;

    case MD_BLOCK_LI:
      flush_inline (b);
      g_clear_pointer (&b->pending_marker, g_free);
      leave_container (b);
      break;

    case MD_BLOCK_CODE:
    case MD_BLOCK_HTML:
      if (b->code != NULL)
        add_code_block (b);
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      leave_cell (b);
      break;

    case MD_BLOCK_TR:
      b->row = NULL;
      b->n_lines++;
      break;

    case MD_BLOCK_TABLE:
      leave_table (b);
      break;

    case MD_BLOCK_DOC:
      flush_inline (b);
      break;

    case MD_BLOCK_HR:
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
    default:
      break;
    }
  return stop_if_full (b);
}

static int
enter_span_cb (MD_SPANTYPE type,
               void       *detail,
               void       *user_data)
{
  Builder         *b = user_data;
  const char      *open = NULL;
  const char      *close = NULL;
  g_autofree char *href = NULL;

  /* md4c may still close what it opened after a callback asked it to stop. */
  if (b->stopped)
    return 1;

  switch (type)
    {
    case MD_SPAN_EM:
    case MD_SPAN_IMG:
      open = "<i>", close = "</i>";
      break;

    case MD_SPAN_STRONG:
      open = "<b>", close = "</b>";
      break;

    case MD_SPAN_DEL:
      open = "<s>", close = "</s>";
      break;

    case MD_SPAN_U:
      open = "<u>", close = "</u>";
      break;

    case MD_SPAN_CODE:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
      open = CODE_SPAN_OPEN, close = CODE_SPAN_CLOSE;
      break;

    case MD_SPAN_A:
      href = attribute_strdup (&((MD_SPAN_A_DETAIL *)detail)->href);
      if (loom_markdown_is_safe_link (href))
        close = "</a>";
      break;

    case MD_SPAN_WIKILINK:
    default:
      break;
    }

  /* Past the bound a span is its text alone: still closed in order, as nothing was opened. */
  if (b->spans->len >= LOOM_MARKDOWN_MAX_SPAN_DEPTH)
    close = NULL;

  if (close != NULL && href != NULL)
    {
      g_string_append (b->inline_markup, "<a href=\"");
      append_escaped (b->inline_markup, href, -1);
      g_string_append (b->inline_markup, "\">");
    }
  else if (close != NULL)
    g_string_append (b->inline_markup, open);
  g_array_append_val (b->spans, close);
  return 0;
}

static int
leave_span_cb (MD_SPANTYPE type,
               void       *detail,
               void       *user_data)
{
  Builder    *b = user_data;
  const char *close;

  /* md4c may still close what it opened after a callback asked it to stop. */
  if (b->stopped)
    return 1;

  if (b->spans->len == 0)
    return 0;
  close = g_array_index (b->spans, const char *, b->spans->len - 1);
  g_array_set_size (b->spans, b->spans->len - 1);
  if (close != NULL)
    g_string_append (b->inline_markup, close);
  return 0;
}

static int
text_cb (MD_TEXTTYPE type,
         const char *text,
         MD_SIZE     size,
         void       *user_data)
{
  Builder *b = user_data;
  gsize    kept = size;

  /* md4c may still close what it opened after a callback asked it to stop. */
  if (b->stopped)
    return 1;

  if (type != MD_TEXT_BR && type != MD_TEXT_SOFTBR && type != MD_TEXT_NULLCHAR)
    kept = room_for (b, text, size);
  if (kept < size)
    b->stopped = TRUE;
  b->n_chars += kept;
  shown_up_to (b, text, kept);

  if (b->code != NULL)
    {
      for (const char *p = text; p < text + kept && (p = memchr (p, '\n', text + kept - p)); p++)
        b->n_lines++;
      g_string_append_len (b->code, text, kept);
      return b->stopped ? 1 : stop_if_full (b);
    }

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      g_string_append (b->inline_markup, "\357\277\275");
      break;

    case MD_TEXT_BR:
    case MD_TEXT_SOFTBR:
      /* People and agents break lines on purpose in chat text: keep them. */
      g_string_append_c (b->inline_markup, '\n');
      b->n_lines++;
      break;

    case MD_TEXT_ENTITY:
      /* An entity is whole or not at all. */
      if (kept == size)
        append_entity (b->inline_markup, text, size);
      break;

    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      append_escaped (b->inline_markup, text, kept);
      break;
    }
  return b->stopped ? 1 : stop_if_full (b);
}

/* Whether a line of @text has more cell separators than md4c can count. */
static gboolean
has_wide_line (const char *text,
               gsize       size)
{
  guint pipes = 0;

  for (gsize i = 0; i < size; i++)
    {
      if (text[i] == '\n')
        pipes = 0;
      else if (text[i] == '|' && ++pipes > MAX_TABLE_PIPES)
        return TRUE;
    }
  return FALSE;
}

LoomMarkdownBlock *
loom_markdown_blocks_parse_head (const char *text,
                                 gssize      length,
                                 gsize       max_chars,
                                 guint       max_lines,
                                 gsize      *n_shown)
{
  MD_PARSER parser = {
    .abi_version = 0,
    .flags = PARSER_FLAGS,
    .enter_block = enter_block_cb,
    .leave_block = leave_block_cb,
    .enter_span = enter_span_cb,
    .leave_span = leave_span_cb,
    .text = text_cb,
  };
  Builder          b = { 0 };
  g_autofree char *copy = NULL;
  gsize            size;

  if (text == NULL)
    size = 0;
  else
    size = length < 0 ? strlen (text) : (gsize)length;
  /* md4c takes a 32-bit size; no one reads past 4 GiB of a message anyway. */
  if (size > G_MAXUINT32)
    {
      size = G_MAXUINT32;
      length = (gssize)size;
    }
  /* md4c 0.4.8 reads the byte after the end it is given (valgrind, on what the fuzzer found),
   * and past a buffer's end it once read a size of gigabytes there. It gets a copy that ends
   * in NUL, unless @text is a C string read to its end. */
  if (length >= 0 && size > 0)
    {
      copy = g_malloc (size + 1);
      memcpy (copy, text, size);
      copy[size] = '\0';
      text = copy;
    }

  b.root = g_new0 (LoomMarkdownBlock, 1);
  b.root->kind = LOOM_MARKDOWN_DOCUMENT;
  b.open = g_ptr_array_new ();
  g_ptr_array_add (b.open, b.root);
  b.built = g_array_new (FALSE, FALSE, sizeof (gboolean));
  b.lists = g_array_new (FALSE, FALSE, sizeof (ListState));
  b.spans = g_array_new (FALSE, FALSE, sizeof (const char *));
  b.inline_markup = g_string_new (NULL);
  b.rest = g_string_new (NULL);
  b.source = text;
  b.source_size = size;
  b.max_chars = max_chars;
  b.max_lines = max_lines;
  if (has_wide_line (text, size))
    parser.flags &= ~MD_FLAG_TABLES;

  if (size > 0 && md_parse (text, (MD_SIZE)size, &parser, &b) != 0)
    {
      if (b.stopped)
        finish_head (&b);
      else
        {
          /* md4c only fails when out of memory: show the text as it is rather than nothing. */
          g_clear_pointer (&b.root->children, g_ptr_array_unref);
          g_string_truncate (b.rest, 0);
          g_string_truncate (b.inline_markup, 0);
          g_clear_pointer (&b.pending_marker, g_free);
          append_escaped (b.inline_markup, text, size);
          g_ptr_array_set_size (b.open, 1);
          b.n_blocks = 0;
          b.heading_level = 0;
          flush_inline (&b);
        }
    }
  if (n_shown != NULL)
    *n_shown = b.stopped ? b.shown_end : size;

  if (b.rest->len > 0)
    {
      LoomMarkdownBlock *block;

      /* Past the bound: the rest as lines of one paragraph, at the top. */
      g_ptr_array_set_size (b.open, 1);
      block = add_block (&b, b.root, LOOM_MARKDOWN_PARAGRAPH);
      block->markup = g_strdup (b.rest->str);
    }

  if (b.code != NULL)
    g_string_free (b.code, TRUE);
  if (b.table_rest != NULL)
    g_string_free (b.table_rest, TRUE);
  g_free (b.code_language);
  g_free (b.pending_marker);
  g_string_free (b.inline_markup, TRUE);
  g_string_free (b.rest, TRUE);
  g_ptr_array_unref (b.open);
  g_array_unref (b.built);
  g_array_unref (b.lists);
  g_array_unref (b.spans);
  return b.root;
}

LoomMarkdownBlock *
loom_markdown_blocks_parse (const char *text,
                            gssize      length)
{
  return loom_markdown_blocks_parse_head (text, length, 0, 0, NULL);
}

/* One string of markup */

static void
end_block (GString *out,
           guint    lists)
{
  /* Blocks are paragraphs apart, list items a line apart. */
  if (out->len > 0 && lists == 0)
    g_string_append_c (out, '\n');
}

static void write_markup (const LoomMarkdownBlock *block,
                          GString                 *out,
                          guint                    lists);

static void
write_children (const LoomMarkdownBlock *block,
                GString                 *out,
                guint                    lists,
                guint                    from)
{
  for (guint i = from; block->children != NULL && i < block->children->len; i++)
    write_markup (block->children->pdata[i], out, lists);
}

static void
write_table (const LoomMarkdownBlock *table,
             GString                 *out)
{
  for (guint r = 0; table->children != NULL && r < table->children->len; r++)
    {
      const LoomMarkdownBlock *row = table->children->pdata[r];

      if (out->len > 0)
        g_string_append_c (out, '\n');
      for (guint c = 0; row->children != NULL && c < row->children->len; c++)
        {
          const LoomMarkdownBlock *cell = row->children->pdata[c];

          if (c > 0)
            g_string_append (out, CELL_SEPARATOR);
          g_string_append (out, cell->markup);
        }
    }
}

static void
write_markup (const LoomMarkdownBlock *block,
              GString                 *out,
              guint                    lists)
{
  /* Recursion is bounded by the depth the builder keeps to. */
  switch (block->kind)
    {
    case LOOM_MARKDOWN_PARAGRAPH:
      append_line (out, block->markup);
      end_block (out, lists);
      break;

    case LOOM_MARKDOWN_HEADING:
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (out, "<span weight=\"bold\" size=\"%s\">%s</span>",
                              block->level <= 2 ? "larger" : "medium", block->markup);
      end_block (out, lists);
      break;

    case LOOM_MARKDOWN_CODE:
      {
        g_autofree char *escaped = g_markup_escape_text (block->text, -1);

        if (out->len > 0)
          g_string_append_c (out, '\n');
        g_string_append_printf (out, "<tt>%s</tt>\n", escaped);
      }
      break;

    case LOOM_MARKDOWN_LIST:
      write_children (block, out, lists + 1, 0);
      if (lists == 0)
        g_string_append_c (out, '\n');
      break;

    case LOOM_MARKDOWN_LIST_ITEM:
      {
        const LoomMarkdownBlock *first = NULL;
        g_autofree char         *marker = g_markup_escape_text (block->marker, -1);

        if (out->len > 0)
          g_string_append_c (out, '\n');
        for (guint i = 1; i < lists; i++)
          g_string_append (out, "    ");
        g_string_append_printf (out, "%s ", marker);
        if (block->children != NULL && block->children->len > 0)
          first = block->children->pdata[0];
        /* The item's first paragraph shares the marker's line. */
        if (first != NULL && first->kind == LOOM_MARKDOWN_PARAGRAPH)
          {
            g_string_append (out, first->markup);
            write_children (block, out, lists, 1);
          }
        else
          write_children (block, out, lists, 0);
      }
      break;

    case LOOM_MARKDOWN_TABLE:
      write_table (block, out);
      g_string_append_c (out, '\n');
      break;

    case LOOM_MARKDOWN_DOCUMENT:
    case LOOM_MARKDOWN_QUOTE:
      write_children (block, out, lists, 0);
      break;

    case LOOM_MARKDOWN_RULE:
    case LOOM_MARKDOWN_TABLE_ROW:
    case LOOM_MARKDOWN_TABLE_CELL:
    default:
      break;
    }
}

char *
loom_markdown_blocks_to_markup (const LoomMarkdownBlock *document)
{
  GString *out = g_string_new (NULL);

  if (document != NULL)
    write_markup (document, out, 0);
  while (out->len > 0 && g_ascii_isspace (out->str[out->len - 1]))
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}
