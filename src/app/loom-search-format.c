/* loom-search-format.c — search hits in words a person reads: snippets and kinds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-search-format.h"

/* Appends @text[0..@length) to @out, escaped for markup when @markup, with every run of white
 * space made one space: a snippet is read on one or two lines, where a newline would waste
 * one. */
static void
append_flat (GString    *out,
             const char *text,
             gsize       length,
             gboolean    markup)
{
  g_autoptr (GString) flat = g_string_sized_new (length);
  gboolean in_space = out->len > 0 && out->str[out->len - 1] == ' ';

  for (gsize i = 0; i < length; i++)
    {
      if (g_ascii_isspace (text[i]))
        {
          if (!in_space)
            g_string_append_c (flat, ' ');
          in_space = TRUE;
          continue;
        }
      g_string_append_c (flat, text[i]);
      in_space = FALSE;
    }

  if (markup)
    {
      g_autofree char *escaped = g_markup_escape_text (flat->str, (gssize)flat->len);

      g_string_append (out, escaped);
    }
  else
    g_string_append_len (out, flat->str, (gssize)flat->len);
}

static char *
format_snippet (const char *snippet,
                gboolean    markup)
{
  g_autoptr (GString) out = g_string_new (NULL);
  const char *p = snippet != NULL ? snippet : "";
  gboolean    open = FALSE;

  /* The core marks each match with \002 … \003. A snippet cut inside a match may lack the
   * end: the bold then ends with the text rather than running into the markup. */
  while (*p != '\0')
    {
      gsize run = strcspn (p, LOOM_SEARCH_MARK_START LOOM_SEARCH_MARK_END);

      append_flat (out, p, run, markup);
      p += run;
      if (*p == '\0')
        break;

      if (*p == LOOM_SEARCH_MARK_START[0] && !open)
        {
          if (markup)
            g_string_append (out, "<b>");
          open = TRUE;
        }
      else if (*p == LOOM_SEARCH_MARK_END[0] && open)
        {
          if (markup)
            g_string_append (out, "</b>");
          open = FALSE;
        }
      p++;
    }
  if (open && markup)
    g_string_append (out, "</b>");

  /* Leading and trailing blanks are no part of what matched. */
  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  if (out->len > 0 && out->str[0] == ' ')
    g_string_erase (out, 0, 1);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
loom_search_format_snippet_markup (const char *snippet)
{
  return format_snippet (snippet, TRUE);
}

char *
loom_search_format_snippet_text (const char *snippet)
{
  return format_snippet (snippet, FALSE);
}

char *
loom_search_format_kind (const LoomSearchHitData *data)
{
  static const struct
  {
    const char *kind;
    const char *name;
  } kinds[] = {
    { "prompt", N_ ("Prompt") },
    { "reply", N_ ("Reply") },
    { "tool", N_ ("Tool") },
    { "reasoning", N_ ("Reasoning") },
    { "title", N_ ("Title") },
    { "context", N_ ("Context") },
    { "system", N_ ("System") },
    { "file", N_ ("File Change") },
    { "compaction", N_ ("Compaction") },
    { "api_error", N_ ("API Error") },
    { "subagent", N_ ("Sub-agent") },
    { "lifecycle", N_ ("Event") },
  };
  const char *name = NULL;

  g_return_val_if_fail (data != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (kinds) && data->kind != NULL; i++)
    {
      if (g_str_equal (data->kind, kinds[i].kind))
        {
          name = _ (kinds[i].name);
          break;
        }
    }

  /* A kind the core learns before this list does is still better shown than hidden. */
  if (name == NULL)
    name = data->kind != NULL ? data->kind : "";

  if (data->tool_name != NULL && *data->tool_name != '\0')
    /* Translators: a search hit's kind and its tool, e.g. "Tool · Bash". */
    return g_strdup_printf (_ ("%s · %s"), name, data->tool_name);
  return g_strdup (name);
}
