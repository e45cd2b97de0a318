/* loom-export-render-markdown.c — the blocks of a conversation as conversation.md.
 *
 * Prompts and replies are Markdown already and are written as they are; everything else is in
 * fenced blocks that nothing in the text can close.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-export-render.h"

/* The longest run of backticks in @text, for a fence that it cannot close. */
static guint
longest_backtick_run (const char *text)
{
  guint longest = 0, run = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }
  return longest;
}

static gboolean
markdown_header (LoomExportRenderer    *self,
                 const char            *title,
                 const LoomExportField *fields,
                 guint                  n_fields,
                 GError               **error)
{
  g_autoptr (GString) header = g_string_new (NULL);

  g_string_append_printf (header, "# %s\n\n", title);
  for (guint i = 0; i < n_fields; i++)
    g_string_append_printf (header, "- %s: %s\n", fields[i].label, fields[i].value);
  g_string_append (header, "\n---\n\n");
  return loom_export_file_write (self->out, header->str, (gssize)header->len, error);
}

static gboolean
markdown_heading (LoomExportRenderer *self,
                  LoomExportEntryKind kind,
                  const char         *label,
                  const char         *detail,
                  const char         *when,
                  GError            **error)
{
  return loom_export_file_printf (self->out, error, "%s %s%s%s%s%s\n\n",
                                  kind == LOOM_EXPORT_ENTRY_MESSAGE ? "##" : "###", label,
                                  detail != NULL ? ": " : "", detail != NULL ? detail : "",
                                  when != NULL ? " · " : "", when != NULL ? when : "");
}

static gboolean
markdown_markdown (LoomExportRenderer *self,
                   const char         *text,
                   GError            **error)
{
  gsize length = strlen (text);

  return loom_export_file_write (self->out, text, (gssize)length, error) &&
         loom_export_file_write (self->out, "\n\n", length > 0 && text[length - 1] == '\n' ? 1 : 2,
                                 error);
}

static gboolean
markdown_verbatim (LoomExportRenderer *self,
                   const char         *label,
                   const char         *info,
                   gboolean            is_error,
                   const char         *text,
                   GError            **error)
{
  g_autofree char *fence = g_strnfill (MAX (3, longest_backtick_run (text) + 1), '`');
  gsize            length = strlen (text);

  /* The label says it already ("Result (error)"). */
  (void)is_error;
  if (label != NULL && !loom_export_file_printf (self->out, error, "**%s**\n\n", label))
    return FALSE;
  return loom_export_file_printf (self->out, error, "%s%s\n", fence, info) &&
         loom_export_file_write (self->out, text, (gssize)length, error) &&
         (length == 0 || text[length - 1] == '\n' ||
          loom_export_file_write (self->out, "\n", 1, error)) &&
         loom_export_file_printf (self->out, error, "%s\n\n", fence);
}

static gboolean
markdown_subagent (LoomExportRenderer *self,
                   const char         *uuid,
                   const char         *folder,
                   GError            **error)
{
  g_autofree char *path = NULL;
  g_autofree char *escaped = NULL;

  if (folder == NULL)
    return loom_export_file_printf (self->out, error, "Session %s\n\n", uuid);
  /* Its path, escaped as a URL, works in every Markdown reader whatever its folder's name
   * holds. */
  path = g_build_filename (folder, "conversation.md", NULL);
  escaped = g_uri_escape_string (path, "/", TRUE);
  return loom_export_file_printf (self->out, error, "Session %s: [its conversation](%s)\n\n", uuid,
                                  escaped);
}

static gboolean
markdown_finish (LoomExportRenderer *self,
                 GError            **error)
{
  return TRUE;
}

static void
markdown_free (LoomExportRenderer *self)
{
  g_free (self);
}

static const LoomExportRendererClass markdown_class = {
  markdown_header,   markdown_heading, markdown_markdown, markdown_verbatim,
  markdown_subagent, markdown_finish,  markdown_free,
};

LoomExportRenderer *
loom_export_renderer_new_markdown (LoomExportFile *out)
{
  LoomExportRenderer *self;

  g_return_val_if_fail (out != NULL, NULL);

  self = g_new0 (LoomExportRenderer, 1);
  self->klass = &markdown_class;
  self->out = out;
  return self;
}
