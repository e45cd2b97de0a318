/* loom-markdown.c — agents' Markdown, shown as GTK widgets.
 *
 * md4c parses; this file walks its callbacks once and builds either widgets or one markup
 * string. Every piece of the agent's text goes through loom_markdown_escape() before it meets
 * Pango, and code goes into labels as plain text, never as markup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <md4c.h>
#include <string.h>

#include "loom-markdown.h"

/* GitHub's dialect as agents write it, without raw HTML: a `<b>` in a message is text. */
#define PARSER_FLAGS \
  (MD_FLAG_NOHTML | MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | \
   MD_FLAG_PERMISSIVEURLAUTOLINKS | MD_FLAG_PERMISSIVEEMAILAUTOLINKS)

/* The narrowest a paragraph or a code block wraps to, in characters. GTK 4.8 measures a
 * wrapping label's minimum width by laying its text out at that width, or at 0 when none is
 * set: one line per character (code) or per word, which for a long message costs more than
 * everything else its row does. No one reads a column narrower than this anyway. */
#define MIN_WRAP_CHARS 12

/* Inline code stands out by a faint grey that reads on light and dark backgrounds alike. */
#define CODE_SPAN_OPEN "<span font_family=\"monospace\" background=\"#808080\" bgalpha=\"18%\">"
#define CODE_SPAN_CLOSE "</span>"

typedef struct
{
  gboolean ordered;
  guint    next;
} ListState;

typedef struct
{
  gboolean   widgets;        /* build widgets; otherwise only the markup string */
  GString   *inline_markup;  /* the open block's text, as markup */
  GString   *document;       /* markup mode: the whole document */
  GPtrArray *boxes;          /* widget mode: the stack of containers, innermost last */
  GArray    *lists;          /* ListState, innermost last */
  GArray    *links;          /* gboolean per open link: whether an <a> was written */
  GString   *code;           /* the open code block's text, or NULL */
  char      *code_language;
  GtkGrid   *table;
  int        table_row;
  int        table_column;
  gboolean   table_head;
  guint      heading_level;
} Renderer;

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
         (g_ascii_strcasecmp (scheme, "http") == 0 ||
          g_ascii_strcasecmp (scheme, "https") == 0 ||
          g_ascii_strcasecmp (scheme, "mailto") == 0);
}

static void
append_escaped (GString    *out,
                const char *text,
                gsize       length)
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
  static const struct {
    const char *name;
    const char *text;
  } named[] = {
    { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
    { "&apos;", "'" }, { "&nbsp;", "\302\240" }, { "&copy;", "\302\251" },
    { "&mdash;", "\342\200\224" }, { "&ndash;", "\342\200\223" }, { "&hellip;", "\342\200\246" },
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
      char *end = NULL;
      guint64 value = g_ascii_strtoull (entity + (hex ? 3 : 2), &end, hex ? 16 : 10);

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

static char *
attribute_strdup (const MD_ATTRIBUTE *attribute)
{
  if (attribute == NULL || attribute->text == NULL)
    return NULL;
  return g_strndup (attribute->text, attribute->size);
}

void
loom_markdown_label_set_literal_wrap (GtkLabel *label)
{
  PangoAttrList *attributes = pango_attr_list_new ();

  g_return_if_fail (GTK_IS_LABEL (label));

  pango_attr_list_insert (attributes, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attributes);
  pango_attr_list_unref (attributes);
}

/* Widgets */

static GtkWidget *
current_box (Renderer *r)
{
  return r->boxes->pdata[r->boxes->len - 1];
}

static void
push_box (Renderer  *r,
          GtkWidget *box)
{
  gtk_box_append (GTK_BOX (current_box (r)), box);
  g_ptr_array_add (r->boxes, box);
}

static void
pop_box (Renderer *r)
{
  g_assert (r->boxes->len > 1);
  g_ptr_array_set_size (r->boxes, r->boxes->len - 1);
}

static GtkWidget *
text_label (const char *markup)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
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

/* Ends the open run of inline text: a label in widget mode, a line of the document in markup
 * mode. Empty runs leave nothing behind. */
static void
flush_inline (Renderer *r)
{
  if (r->inline_markup->len == 0)
    return;

  if (r->widgets)
    {
      GtkWidget *label = text_label (r->inline_markup->str);

      /* Not in text_label(): a table's cells may well be narrower. */
      gtk_label_set_width_chars (GTK_LABEL (label), MIN_WRAP_CHARS);
      if (r->heading_level > 0)
        {
          gtk_widget_add_css_class (label, heading_class (r->heading_level));
          gtk_widget_add_css_class (label, "md-heading");
        }
      gtk_box_append (GTK_BOX (current_box (r)), label);
    }
  else
    {
      if (r->document->len > 0)
        g_string_append_c (r->document, '\n');
      if (r->heading_level > 0)
        g_string_append_printf (r->document, "<span weight=\"bold\" size=\"%s\">%s</span>",
                                r->heading_level <= 2 ? "larger" : "medium",
                                r->inline_markup->str);
      else
        g_string_append (r->document, r->inline_markup->str);
    }
  g_string_truncate (r->inline_markup, 0);
}

static void
end_block (Renderer *r)
{
  flush_inline (r);
  /* Markup mode: blocks are paragraphs apart, list items a line apart. */
  if (!r->widgets && r->document->len > 0 && r->lists->len == 0)
    g_string_append_c (r->document, '\n');
}

static void
add_code_block (Renderer *r)
{
  g_autofree char *text = NULL;
  gsize length = r->code->len;

  /* The last line's newline would show as an empty line. */
  while (length > 0 && r->code->str[length - 1] == '\n')
    length--;
  text = g_utf8_make_valid (r->code->str, length);

  if (r->widgets)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_widget_add_css_class (box, "md-code-block");
      if (r->code_language != NULL && *r->code_language != '\0')
        {
          GtkWidget *language = gtk_label_new (r->code_language);

          gtk_label_set_xalign (GTK_LABEL (language), 0);
          gtk_widget_add_css_class (language, "caption");
          gtk_widget_add_css_class (language, "dim-label");
          gtk_box_append (GTK_BOX (box), language);
        }

      /* Plain text, never markup: code is full of < and &. */
      gtk_label_set_text (GTK_LABEL (label), text);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_CHAR);
      gtk_label_set_width_chars (GTK_LABEL (label), MIN_WRAP_CHARS);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      loom_markdown_label_set_literal_wrap (GTK_LABEL (label));
      gtk_widget_add_css_class (label, "monospace");
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (current_box (r)), box);
    }
  else
    {
      g_autofree char *escaped = g_markup_escape_text (text, -1);

      if (r->document->len > 0)
        g_string_append_c (r->document, '\n');
      g_string_append_printf (r->document, "<tt>%s</tt>\n", escaped);
    }

  g_string_free (r->code, TRUE);
  r->code = NULL;
  g_clear_pointer (&r->code_language, g_free);
}

static void
enter_list_item (Renderer           *r,
                 MD_BLOCK_LI_DETAIL *detail)
{
  ListState *list = &g_array_index (r->lists, ListState, r->lists->len - 1);
  g_autofree char *marker = NULL;

  if (detail != NULL && detail->is_task)
    marker = g_strdup (detail->task_mark == ' ' ? "\342\230\220" : "\342\230\221");
  else if (list->ordered)
    marker = g_strdup_printf ("%u.", list->next++);
  else
    marker = g_strdup (r->lists->len > 1 ? "\342\227\246" : "\342\200\242");

  if (r->widgets)
    {
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *bullet = gtk_label_new (marker);
      GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

      gtk_widget_set_valign (bullet, GTK_ALIGN_START);
      gtk_label_set_xalign (GTK_LABEL (bullet), 1);
      gtk_label_set_width_chars (GTK_LABEL (bullet), list->ordered ? 3 : 2);
      gtk_widget_add_css_class (bullet, "md-bullet");
      gtk_widget_set_hexpand (content, TRUE);
      gtk_box_append (GTK_BOX (row), bullet);
      gtk_box_append (GTK_BOX (row), content);
      gtk_box_append (GTK_BOX (current_box (r)), row);
      g_ptr_array_add (r->boxes, content);
    }
  else
    {
      for (guint i = 1; i < r->lists->len; i++)
        g_string_append (r->inline_markup, "    ");
      g_string_append_printf (r->inline_markup, "%s ", marker);
    }
}

/* md4c callbacks */

static int
enter_block_cb (MD_BLOCKTYPE  type,
                void         *detail,
                void         *user_data)
{
  Renderer *r = user_data;

  /* Text of a tight list item comes without a paragraph: close it before a nested block.
   * Table cells are the exception: in markup mode a row's cells share one line. */
  if (type != MD_BLOCK_DOC && type != MD_BLOCK_TH && type != MD_BLOCK_TD)
    flush_inline (r);

  switch (type)
    {
    case MD_BLOCK_H:
      r->heading_level = ((MD_BLOCK_H_DETAIL *)detail)->level;
      break;

    case MD_BLOCK_QUOTE:
      if (r->widgets)
        {
          GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);

          gtk_widget_add_css_class (box, "md-quote");
          push_box (r, box);
        }
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      {
        ListState list = { type == MD_BLOCK_OL, 1 };

        if (type == MD_BLOCK_OL)
          list.next = ((MD_BLOCK_OL_DETAIL *)detail)->start;
        g_array_append_val (r->lists, list);
        if (r->widgets)
          {
            GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

            gtk_widget_add_css_class (box, "md-list");
            push_box (r, box);
          }
      }
      break;

    case MD_BLOCK_LI:
      enter_list_item (r, detail);
      break;

    case MD_BLOCK_HR:
      if (r->widgets)
        gtk_box_append (GTK_BOX (current_box (r)), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
      break;

    case MD_BLOCK_CODE:
    case MD_BLOCK_HTML:
      r->code = g_string_new (NULL);
      if (type == MD_BLOCK_CODE)
        r->code_language = attribute_strdup (&((MD_BLOCK_CODE_DETAIL *)detail)->lang);
      break;

    case MD_BLOCK_TABLE:
      if (r->widgets)
        {
          r->table = GTK_GRID (gtk_grid_new ());
          gtk_grid_set_column_spacing (r->table, 18);
          gtk_grid_set_row_spacing (r->table, 6);
          gtk_widget_add_css_class (GTK_WIDGET (r->table), "md-table");
          gtk_box_append (GTK_BOX (current_box (r)), GTK_WIDGET (r->table));
        }
      r->table_row = -1;
      break;

    case MD_BLOCK_THEAD:
      r->table_head = TRUE;
      break;

    case MD_BLOCK_TBODY:
      r->table_head = FALSE;
      break;

    case MD_BLOCK_TR:
      r->table_row++;
      r->table_column = 0;
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (!r->widgets && r->table_column > 0)
        g_string_append (r->inline_markup, "  \342\224\202  ");
      if (r->table_head)
        g_string_append (r->inline_markup, "<b>");
      break;

    case MD_BLOCK_DOC:
    case MD_BLOCK_P:
    default:
      break;
    }
  return 0;
}

static int
leave_block_cb (MD_BLOCKTYPE  type,
                void         *detail,
                void         *user_data)
{
  Renderer *r = user_data;

  switch (type)
    {
    case MD_BLOCK_P:
      end_block (r);
      break;

    case MD_BLOCK_H:
      end_block (r);
      r->heading_level = 0;
      break;

    case MD_BLOCK_QUOTE:
      flush_inline (r);
      if (r->widgets)
        pop_box (r);
      break;

    case MD_BLOCK_UL:
    case MD_BLOCK_OL:
      flush_inline (r);
      g_array_set_size (r->lists, r->lists->len - 1);
      if (r->widgets)
        pop_box (r);
      else if (r->lists->len == 0)
        g_string_append_c (r->document, '\n');
      break;

    case MD_BLOCK_LI:
      flush_inline (r);
      if (r->widgets)
        pop_box (r);
      break;

    case MD_BLOCK_CODE:
    case MD_BLOCK_HTML:
      add_code_block (r);
      break;

    case MD_BLOCK_TH:
    case MD_BLOCK_TD:
      if (r->table_head)
        g_string_append (r->inline_markup, "</b>");
      if (r->widgets)
        {
          GtkWidget *label = text_label (r->inline_markup->str);

          gtk_grid_attach (r->table, label, r->table_column, r->table_row, 1, 1);
          g_string_truncate (r->inline_markup, 0);
        }
      r->table_column++;
      break;

    case MD_BLOCK_TR:
      if (!r->widgets)
        flush_inline (r);
      break;

    case MD_BLOCK_TABLE:
      r->table = NULL;
      if (!r->widgets)
        g_string_append_c (r->document, '\n');
      break;

    case MD_BLOCK_DOC:
      flush_inline (r);
      break;

    case MD_BLOCK_HR:
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
    default:
      break;
    }
  return 0;
}

static int
enter_span_cb (MD_SPANTYPE  type,
               void        *detail,
               void        *user_data)
{
  Renderer *r = user_data;

  switch (type)
    {
    case MD_SPAN_EM:
      g_string_append (r->inline_markup, "<i>");
      break;

    case MD_SPAN_STRONG:
      g_string_append (r->inline_markup, "<b>");
      break;

    case MD_SPAN_DEL:
      g_string_append (r->inline_markup, "<s>");
      break;

    case MD_SPAN_U:
      g_string_append (r->inline_markup, "<u>");
      break;

    case MD_SPAN_CODE:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
      g_string_append (r->inline_markup, CODE_SPAN_OPEN);
      break;

    case MD_SPAN_IMG:
      g_string_append (r->inline_markup, "<i>");
      break;

    case MD_SPAN_A:
      {
        g_autofree char *href = attribute_strdup (&((MD_SPAN_A_DETAIL *)detail)->href);
        gboolean linked = loom_markdown_is_safe_link (href);

        if (linked)
          {
            g_string_append (r->inline_markup, "<a href=\"");
            append_escaped (r->inline_markup, href, -1);
            g_string_append (r->inline_markup, "\">");
          }
        g_array_append_val (r->links, linked);
      }
      break;

    case MD_SPAN_WIKILINK:
    default:
      break;
    }
  return 0;
}

static int
leave_span_cb (MD_SPANTYPE  type,
               void        *detail,
               void        *user_data)
{
  Renderer *r = user_data;

  switch (type)
    {
    case MD_SPAN_EM:
    case MD_SPAN_IMG:
      g_string_append (r->inline_markup, "</i>");
      break;

    case MD_SPAN_STRONG:
      g_string_append (r->inline_markup, "</b>");
      break;

    case MD_SPAN_DEL:
      g_string_append (r->inline_markup, "</s>");
      break;

    case MD_SPAN_U:
      g_string_append (r->inline_markup, "</u>");
      break;

    case MD_SPAN_CODE:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
      g_string_append (r->inline_markup, CODE_SPAN_CLOSE);
      break;

    case MD_SPAN_A:
      if (g_array_index (r->links, gboolean, r->links->len - 1))
        g_string_append (r->inline_markup, "</a>");
      g_array_set_size (r->links, r->links->len - 1);
      break;

    case MD_SPAN_WIKILINK:
    default:
      break;
    }
  return 0;
}

static int
text_cb (MD_TEXTTYPE  type,
         const char  *text,
         MD_SIZE      size,
         void        *user_data)
{
  Renderer *r = user_data;

  if (r->code != NULL)
    {
      g_string_append_len (r->code, text, size);
      return 0;
    }

  switch (type)
    {
    case MD_TEXT_NULLCHAR:
      g_string_append (r->inline_markup, "\357\277\275");
      break;

    case MD_TEXT_BR:
    case MD_TEXT_SOFTBR:
      /* People and agents break lines on purpose in chat text: keep them. */
      g_string_append_c (r->inline_markup, '\n');
      break;

    case MD_TEXT_ENTITY:
      append_entity (r->inline_markup, text, size);
      break;

    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:
    case MD_TEXT_LATEXMATH:
    default:
      append_escaped (r->inline_markup, text, size);
      break;
    }
  return 0;
}

static void
render (Renderer   *r,
        const char *text)
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
  gsize length = text != NULL ? strlen (text) : 0;

  r->inline_markup = g_string_new (NULL);
  r->lists = g_array_new (FALSE, FALSE, sizeof (ListState));
  r->links = g_array_new (FALSE, FALSE, sizeof (gboolean));

  if (length > 0 && md_parse (text, (MD_SIZE)MIN (length, G_MAXUINT32), &parser, r) != 0)
    {
      /* md4c only fails when out of memory: show the text as it is rather than nothing. */
      g_string_assign (r->inline_markup, "");
      append_escaped (r->inline_markup, text, length);
      flush_inline (r);
    }

  if (r->code != NULL)
    g_string_free (r->code, TRUE);
  g_free (r->code_language);
  g_string_free (r->inline_markup, TRUE);
  g_array_unref (r->lists);
  g_array_unref (r->links);
}

GtkWidget *
loom_markdown_render (const char *text)
{
  Renderer r = { .widgets = TRUE };
  GtkWidget *root = gtk_box_new (GTK_ORIENTATION_VERTICAL, 10);

  gtk_widget_add_css_class (root, "markdown");
  r.boxes = g_ptr_array_new ();
  g_ptr_array_add (r.boxes, root);
  render (&r, text);
  g_ptr_array_unref (r.boxes);
  return root;
}

char *
loom_markdown_to_markup (const char *text)
{
  Renderer r = { .widgets = FALSE };

  r.document = g_string_new (NULL);
  render (&r, text);
  while (r.document->len > 0 && g_ascii_isspace (r.document->str[r.document->len - 1]))
    g_string_truncate (r.document, r.document->len - 1);
  return g_string_free (r.document, FALSE);
}
