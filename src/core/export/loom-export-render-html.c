/* loom-export-render-html.c — the blocks of a conversation as conversation.html.
 *
 * One page that a browser shows as it is, from a USB stick or an attachment: its style inline,
 * no script, nothing loaded, and a Content-Security-Policy that says so, so that a page made
 * of an agent's texts cannot run or fetch anything even where our escaping would have missed.
 * Prompts and replies are the agents' Markdown made HTML with raw HTML off and links checked
 * (loom-export-html-markdown.c); everything else is escaped text. Tool calls, changes and
 * reasoning are folded in <details>, so that the conversation reads as one and its work opens
 * on a click, without a script.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-export-render.h"

typedef struct
{
  LoomExportRenderer parent;
  /* What closes the entry being written ("</article>"), NULL before the first. */
  const char        *entry_end;
} HtmlRenderer;

/* Light and dark from the reader's preference; one column of readable width; verbatim text
 * that wraps rather than widening the page, and scrolls when it is long. */
static const char style[] =
  ":root{color-scheme:light dark;--bg:#fafafa;--fg:#1e1e1e;--muted:#5e5c64;--card:#fff;"
  "--border:#deddda;--code:#f2f2f0;--accent:#1c63c7;--user:#1c71d8;--assistant:#26a269;"
  "--other:#9a9996;--error:#c01c28;--add:#26772b;--del:#b3141f;--hunk:#7a4ab0}\n"
  "@media (prefers-color-scheme:dark){:root{--bg:#1d1d20;--fg:#e6e6e6;--muted:#a5a4a8;"
  "--card:#27272b;--border:#3d3d42;--code:#18181b;--accent:#78aeed;--user:#62a0ea;"
  "--assistant:#57e389;--other:#77767b;--error:#ff7b63;--add:#8ff0a4;--del:#ff938a;"
  "--hunk:#dc8add}}\n"
  "*{box-sizing:border-box}\n"
  "html{background:var(--bg);color:var(--fg)}\n"
  "body{margin:0;padding:2rem 1rem 4rem;font:16px/1.6 system-ui,-apple-system,'Cantarell',"
  "'Segoe UI',sans-serif}\n"
  "main{max-width:52rem;margin:0 auto}\n"
  /* A link whose address was not allowed is text. */
  "a{color:var(--accent)}a:not([href]){color:inherit}\n"
  "h1{font-size:1.75rem;line-height:1.25;margin:0 0 .75rem;overflow-wrap:anywhere}\n"
  "header.session{border-bottom:1px solid var(--border);padding-bottom:1rem;margin-bottom:1.5rem}\n"
  "header.session dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;"
  "margin:0;font-size:.9rem}\n"
  "header.session dt{color:var(--muted)}\n"
  "header.session dd{margin:0;overflow-wrap:anywhere}\n"
  ".message{background:var(--card);border:1px solid var(--border);border-left:4px solid "
  "var(--other);border-radius:8px;padding:.75rem 1.25rem;margin:1.25rem 0}\n"
  ".message.user{border-left-color:var(--user)}\n"
  ".message.assistant{border-left-color:var(--assistant)}\n"
  ".message.error{border-left-color:var(--error)}\n"
  ".message>h2{font-size:.85rem;margin:0 0 .25rem;color:var(--muted);font-weight:600;"
  "letter-spacing:.02em}\n"
  ".label{color:var(--fg)}\n"
  "time{font-weight:400;color:var(--muted);margin-left:.5rem;font-variant-numeric:tabular-nums}\n"
  ".detail{font-weight:400;overflow-wrap:anywhere}\n"
  ".text{overflow-wrap:anywhere}\n"
  ".text>:first-child{margin-top:.25rem}.text>:last-child{margin-bottom:.25rem}\n"
  ".text h1,.text h2,.text h3,.text h4{font-size:1.05rem;margin:1rem 0 .5rem}\n"
  ".text table{border-collapse:collapse;display:block;overflow-x:auto}\n"
  ".text th,.text td{border:1px solid var(--border);padding:.25rem .6rem}\n"
  /* A column's alignment comes as an attribute, which a rule on th would override. */
  ".text th:not([align]){text-align:left}\n"
  ".text blockquote{margin:.5rem 0;padding-left:1rem;border-left:3px solid var(--border);"
  "color:var(--muted)}\n"
  /* Not an emoji: a system without an emoji font shows it as a box. */
  ".image::before{content:'Image: ';color:var(--muted)}\n"
  "code,pre{font-family:ui-monospace,'DejaVu Sans Mono','Source Code Pro',monospace;"
  "font-size:.85rem}\n"
  ":not(pre)>code{background:var(--code);border-radius:4px;padding:.1em .3em}\n"
  "pre{background:var(--code);border:1px solid var(--border);border-radius:6px;"
  "padding:.6rem .8rem;margin:.5rem 0;white-space:pre-wrap;overflow-wrap:anywhere;"
  "overflow:auto;line-height:1.45;tab-size:4}\n"
  ".event{margin:.35rem 0 .35rem 1.5rem;border-left:2px solid var(--border);padding:0 0 0 .75rem}\n"
  ".event>summary{cursor:pointer;color:var(--muted);font-size:.9rem;padding:.2rem 0;"
  "overflow-wrap:anywhere}\n"
  ".event>summary .label{font-weight:600}\n"
  ".event[open]>summary{margin-bottom:.25rem}\n"
  ".event pre{max-height:32rem}\n"
  ".event.error>summary .label,.block.error .block-label{color:var(--error)}\n"
  ".block-label{font-size:.8rem;font-weight:600;color:var(--muted);margin-top:.5rem}\n"
  ".block.error pre{border-color:var(--error)}\n"
  ".subagent-link{margin:.25rem 0;font-size:.9rem}\n"
  "pre .add{color:var(--add)}pre .del{color:var(--del)}pre .hunk{color:var(--hunk)}\n"
  "@media print{.event pre{max-height:none}body{padding:0}}\n";

/* The words of the walk ("Tool result") as a class name ("tool-result"). */
static char *
class_of (const char *label)
{
  char *name = g_ascii_strdown (label, -1);

  g_strcanon (name, "abcdefghijklmnopqrstuvwxyz0123456789-", '-');
  return name;
}

void
loom_export_html_escape (GString    *out,
                         const char *text,
                         gssize      length)
{
  const char *end = text + (length < 0 ? (gssize)strlen (text) : length);

  for (const char *p = text; p < end; p++)
    {
      switch (*p)
        {
        case '&':
          g_string_append (out, "&amp;");
          break;
        case '<':
          g_string_append (out, "&lt;");
          break;
        case '>':
          g_string_append (out, "&gt;");
          break;
        case '"':
          g_string_append (out, "&quot;");
          break;
        case '\'':
          g_string_append (out, "&#39;");
          break;
        case '\n':
        case '\t':
          g_string_append_c (out, *p);
          break;
        default:
          /* The walk strips control characters already; what a header field holds is left out
           * here too, for a browser shows them as boxes. */
          if ((guchar)*p >= 0x20 && *p != 0x7f)
            g_string_append_c (out, *p);
          break;
        }
    }
}

static gboolean
write_string (HtmlRenderer *self,
              GString      *text,
              GError      **error)
{
  return loom_export_file_write (self->parent.out, text->str, (gssize)text->len, error);
}

static gboolean
html_header (LoomExportRenderer    *renderer,
             const char            *title,
             const LoomExportField *fields,
             guint                  n_fields,
             GError               **error)
{
  HtmlRenderer *self = (HtmlRenderer *)renderer;
  g_autoptr (GString) page = g_string_new (NULL);

  g_string_append (page,
                   "<!DOCTYPE html>\n"
                   "<html>\n"
                   "<head>\n"
                   "<meta charset=\"utf-8\">\n"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
                   "'none'; style-src 'unsafe-inline'; img-src data:\">\n"
                   "<meta name=\"color-scheme\" content=\"light dark\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"generator\" content=\"Intentloom History\">\n"
                   "<title>");
  loom_export_html_escape (page, title, -1);
  g_string_append_printf (page, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", style);
  g_string_append (page, "<header class=\"session\">\n<h1>");
  loom_export_html_escape (page, title, -1);
  g_string_append (page, "</h1>\n<dl>\n");
  for (guint i = 0; i < n_fields; i++)
    {
      g_string_append (page, "<dt>");
      loom_export_html_escape (page, fields[i].label, -1);
      g_string_append (page, "</dt><dd>");
      loom_export_html_escape (page, fields[i].value, -1);
      g_string_append (page, "</dd>\n");
    }
  g_string_append (page, "</dl>\n</header>\n");
  return write_string (self, page, error);
}

/* "2026-04-24T07:55:02.010Z" as a person reads it, "2026-04-24 07:55:02"; the attribute keeps
 * the whole. */
static void
append_shown_time (GString    *html,
                   const char *iso)
{
  gsize length = strlen (iso);

  if (length >= 19 && iso[10] == 'T')
    {
      g_autofree char *shown = g_strndup (iso, 19);

      shown[10] = ' ';
      loom_export_html_escape (html, shown, -1);
    }
  else
    loom_export_html_escape (html, iso, length);
}

static gboolean
html_heading (LoomExportRenderer *renderer,
              LoomExportEntryKind kind,
              const char         *label,
              const char         *detail,
              const char         *when,
              GError            **error)
{
  HtmlRenderer *self = (HtmlRenderer *)renderer;
  g_autoptr (GString) html = g_string_new (self->entry_end);
  g_autofree char *class = class_of (label);

  if (kind == LOOM_EXPORT_ENTRY_MESSAGE)
    {
      g_string_append_printf (html, "<article class=\"message %s\">\n<h2>", class);
      self->entry_end = "</div>\n</article>\n";
    }
  else
    {
      /* A sub-agent's entry is open: it holds the link to its conversation. */
      g_string_append_printf (html, "<details class=\"event %s\"%s>\n<summary>", class,
                              g_str_equal (class, "sub-agent") ? " open" : "");
      self->entry_end = "</div>\n</details>\n";
    }
  g_string_append (html, "<span class=\"label\">");
  loom_export_html_escape (html, label, -1);
  g_string_append (html, "</span>");
  if (detail != NULL)
    {
      g_string_append (html, ": <span class=\"detail\">");
      loom_export_html_escape (html, detail, -1);
      g_string_append (html, "</span>");
    }
  if (when != NULL)
    {
      g_string_append (html, "<time datetime=\"");
      loom_export_html_escape (html, when, -1);
      g_string_append (html, "\">");
      append_shown_time (html, when);
      g_string_append (html, "</time>");
    }
  g_string_append (html, kind == LOOM_EXPORT_ENTRY_MESSAGE ? "</h2>\n<div class=\"text\">\n"
                                                           : "</summary>\n<div class=\"body\">\n");
  return write_string (self, html, error);
}

static gboolean
html_markdown (LoomExportRenderer *renderer,
               const char         *text,
               GError            **error)
{
  gsize            length = 0;
  g_autofree char *html = loom_export_markdown_to_html (text, &length);

  return loom_export_file_write (renderer->out, html, (gssize)length, error);
}

/* A diff's lines coloured by what they do. */
static void
append_diff (GString    *html,
             const char *text)
{
  const char *line = text;

  while (*line != '\0')
    {
      const char *newline = strchr (line, '\n');
      gsize       length = newline != NULL ? (gsize)(newline - line + 1) : strlen (line);
      const char *class = NULL;

      if (g_str_has_prefix (line, "@@"))
        class = "hunk";
      else if (*line == '+' && !g_str_has_prefix (line, "+++"))
        class = "add";
      else if (*line == '-' && !g_str_has_prefix (line, "---"))
        class = "del";
      if (class != NULL)
        g_string_append_printf (html, "<span class=\"%s\">", class);
      loom_export_html_escape (html, line, (gssize)length);
      if (class != NULL)
        g_string_append (html, "</span>");
      line += length;
    }
}

static gboolean
html_verbatim (LoomExportRenderer *renderer,
               const char         *label,
               const char         *info,
               gboolean            is_error,
               const char         *text,
               GError            **error)
{
  HtmlRenderer *self = (HtmlRenderer *)renderer;
  g_autoptr (GString) html = g_string_new (NULL);

  g_string_append_printf (html, "<div class=\"block%s\">\n", is_error ? " error" : "");
  if (label != NULL)
    {
      g_string_append (html, "<div class=\"block-label\">");
      loom_export_html_escape (html, label, -1);
      g_string_append (html, "</div>\n");
    }
  g_string_append_printf (html, "<pre class=\"%s\"><code>", info);
  if (g_str_equal (info, "diff"))
    append_diff (html, text);
  else
    loom_export_html_escape (html, text, -1);
  g_string_append (html, "</code></pre>\n</div>\n");
  return write_string (self, html, error);
}

static gboolean
html_subagent (LoomExportRenderer *renderer,
               const char         *uuid,
               const char         *folder,
               GError            **error)
{
  HtmlRenderer *self = (HtmlRenderer *)renderer;
  g_autoptr (GString) html = g_string_new ("<p class=\"subagent-link\">Session <code>");

  loom_export_html_escape (html, uuid, -1);
  g_string_append (html, "</code>");
  if (folder != NULL)
    {
      g_autofree char *path = g_build_filename (folder, "conversation.html", NULL);
      g_autofree char *escaped = g_uri_escape_string (path, "/", TRUE);

      /* Percent-escaped, the folder's name is a relative address whatever it holds. */
      g_string_append (html, ": <a href=\"");
      loom_export_html_escape (html, escaped, -1);
      g_string_append (html, "\">its conversation</a>");
    }
  g_string_append (html, "</p>\n");
  return write_string (self, html, error);
}

static gboolean
html_finish (LoomExportRenderer *renderer,
             GError            **error)
{
  HtmlRenderer *self = (HtmlRenderer *)renderer;
  g_autoptr (GString) html = g_string_new (self->entry_end);

  self->entry_end = NULL;
  g_string_append (html, "</main>\n</body>\n</html>\n");
  return write_string (self, html, error);
}

static void
html_free (LoomExportRenderer *renderer)
{
  g_free (renderer);
}

static const LoomExportRendererClass html_class = {
  html_header, html_heading, html_markdown, html_verbatim, html_subagent, html_finish, html_free,
};

LoomExportRenderer *
loom_export_renderer_new_html (LoomExportFile *out)
{
  HtmlRenderer *self;

  g_return_val_if_fail (out != NULL, NULL);

  self = g_new0 (HtmlRenderer, 1);
  self->parent.klass = &html_class;
  self->parent.out = out;
  return &self->parent;
}
