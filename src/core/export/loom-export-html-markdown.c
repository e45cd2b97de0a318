/* loom-export-html-markdown.c — an agent's Markdown as HTML for conversation.html.
 *
 * md4c's HTML renderer does the work, with raw HTML off: a "<script>" in a prompt is then text,
 * escaped, and every tag of its output is md4c's own. What md4c lets through is the address of
 * a link or an image, whatever its scheme; its output is therefore read once more, tag by tag
 * (only md4c's tags start with "<" there, and its attribute values hold no quote), and each
 * address is checked against an allow-list, as the app's timeline does (loom-markdown-blocks.c):
 * http, https, mailto and relative addresses stay, "javascript:" and every other scheme go. An
 * image becomes a link to it, so that the page loads nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <md4c-html.h>
#include <string.h>

#include "loom-export-render.h"

/* As the app's timeline reads agents' Markdown, but for raw HTML, which is never markup here. */
#define PARSER_FLAGS \
  (MD_FLAG_NOHTML | MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_TASKLISTS | \
   MD_FLAG_PERMISSIVEURLAUTOLINKS | MD_FLAG_PERMISSIVEEMAILAUTOLINKS)

static void
append_output (const MD_CHAR *text,
               MD_SIZE        size,
               void          *user_data)
{
  g_string_append_len (user_data, text, (gssize)size);
}

/* Whether the address @url (as md4c wrote it in an attribute: percent-escaped, "&" as "&amp;")
 * may stay: a scheme of the allow-list, or none. A colon before the first "/", "?" or "#"
 * that does not end an allowed scheme makes it go, even where a browser would read a relative
 * path: what a browser does with an odd address is not ours to guess. */
static gboolean
url_is_allowed (const char *url,
                gsize       length)
{
  static const char *const allowed[] = { "http", "https", "mailto" };
  gsize                    colon;

  for (colon = 0; colon < length; colon++)
    {
      if (url[colon] == ':')
        break;
      if (url[colon] == '/' || url[colon] == '?' || url[colon] == '#')
        return TRUE;
    }
  if (colon == length)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    if (colon == strlen (allowed[i]) && g_ascii_strncasecmp (url, allowed[i], colon) == 0)
      return TRUE;
  return FALSE;
}

/* The value of the attribute @name ("href") in the tag @tag of @length bytes, or NULL. */
static const char *
find_attribute (const char *tag,
                gsize       length,
                const char *name,
                gsize      *value_length)
{
  g_autofree char *pattern = g_strdup_printf (" %s=\"", name);
  const char      *end = tag + length;
  const char      *value;
  const char      *close;

  if (!(value = g_strstr_len (tag, (gssize)length, pattern)))
    return NULL;
  value += strlen (pattern);
  if (!(close = memchr (value, '"', (gsize)(end - value))))
    return NULL;
  *value_length = (gsize)(close - value);
  return value;
}

static void
append_attribute (GString    *out,
                  const char *name,
                  const char *value,
                  gsize       length)
{
  g_string_append_printf (out, " %s=\"", name);
  g_string_append_len (out, value, (gssize)length);
  g_string_append_c (out, '"');
}

/* <a href="…" title="…">: the address only when it is allowed; a link without one reads as
 * its text. */
static void
rewrite_link (GString    *out,
              const char *tag,
              gsize       length)
{
  const char *href, *title;
  gsize       href_length = 0, title_length = 0;

  g_string_append (out, "<a");
  if ((href = find_attribute (tag, length, "href", &href_length)) &&
      url_is_allowed (href, href_length))
    append_attribute (out, "href", href, href_length);
  if ((title = find_attribute (tag, length, "title", &title_length)))
    append_attribute (out, "title", title, title_length);
  g_string_append_c (out, '>');
}

/* <img src="…" alt="…" title="…">: a link to the image, with its description for text (the
 * description is escaped as an attribute, which is also right for text), or the description
 * alone when the address is not allowed or the image is inside a link already. */
static void
rewrite_image (GString    *out,
               const char *tag,
               gsize       length,
               gboolean    in_link)
{
  const char *src, *alt, *title;
  gsize       src_length = 0, alt_length = 0, title_length = 0;
  gboolean    linked;

  src = find_attribute (tag, length, "src", &src_length);
  alt = find_attribute (tag, length, "alt", &alt_length);
  title = find_attribute (tag, length, "title", &title_length);
  linked = !in_link && src != NULL && url_is_allowed (src, src_length);

  g_string_append (out, linked ? "<a class=\"image\"" : "<span class=\"image\"");
  if (linked)
    append_attribute (out, "href", src, src_length);
  if (title != NULL)
    append_attribute (out, "title", title, title_length);
  g_string_append_c (out, '>');
  if (alt != NULL && alt_length > 0)
    g_string_append_len (out, alt, (gssize)alt_length);
  else
    g_string_append (out, "image");
  g_string_append (out, linked ? "</a>" : "</span>");
}

char *
loom_export_markdown_to_html (const char *text,
                              gsize      *length)
{
  g_autoptr (GString) rendered = g_string_new (NULL);
  GString    *out;
  const char *p, *end;
  gboolean    in_link = FALSE;

  g_return_val_if_fail (text != NULL, NULL);

  if (md_html (text, (MD_SIZE)strlen (text), append_output, rendered, PARSER_FLAGS, 0) != 0)
    {
      /* md4c fails only when it runs out of memory; the text is then shown as it is. */
      g_string_truncate (rendered, 0);
      g_string_append (rendered, "<pre>");
      loom_export_html_escape (rendered, text, -1);
      g_string_append (rendered, "</pre>\n");
    }

  out = g_string_sized_new (rendered->len + 64);
  p = rendered->str;
  end = rendered->str + rendered->len;
  while (p < end)
    {
      const char *open = memchr (p, '<', (gsize)(end - p));
      const char *close;
      gsize       tag_length;

      if (open == NULL || !(close = memchr (open, '>', (gsize)(end - open))))
        {
          g_string_append_len (out, p, end - p);
          break;
        }
      g_string_append_len (out, p, open - p);
      tag_length = (gsize)(close + 1 - open);
      if (g_str_has_prefix (open, "<a "))
        {
          rewrite_link (out, open, tag_length);
          in_link = TRUE;
        }
      else if (g_str_has_prefix (open, "<img "))
        rewrite_image (out, open, tag_length, in_link);
      else
        {
          if (g_str_has_prefix (open, "</a>"))
            in_link = FALSE;
          g_string_append_len (out, open, (gssize)tag_length);
        }
      p = close + 1;
    }

  if (length != NULL)
    *length = out->len;
  return g_string_free (out, FALSE);
}
