/* loom-session-usage.c — a session's models and tools, from the JSON text the store keeps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-json-value.h"
#include "loom-session-usage.h"

/* The root of @text, living in @doc, or NULL. Invalid UTF-8 is refused here, as json-glib
 * refused it: the parser copies such bytes through and leaves the check to its callers. */
static const LoomJson *
parse_column (LoomJsonDoc *doc,
              const char  *text)
{
  gsize length;

  if (text == NULL)
    return NULL;
  length = strlen (text);
  if (!g_utf8_validate (text, length, NULL))
    return NULL;
  return loom_json_doc_parse (doc, text, length, NULL);
}

GStrv
loom_session_usage_models (LoomSession *session)
{
  g_autoptr (LoomJsonDoc) doc = NULL;
  g_autoptr (GStrvBuilder) builder = NULL;
  const LoomJson *root;
  gsize           n;

  g_return_val_if_fail (LOOM_IS_SESSION (session), NULL);

  doc = loom_json_doc_new ();
  builder = g_strv_builder_new ();
  root = parse_column (doc, loom_session_get_record (session)->models_json);
  n = loom_json_is_array (root) ? loom_json_length (root) : 0;
  for (gsize i = 0; i < n; i++)
    {
      const char *name = loom_json_string (loom_json_element (root, i));

      if (name != NULL)
        g_strv_builder_add (builder, name);
    }
  return g_strv_builder_end (builder);
}

static void
tool_use_clear (gpointer data)
{
  LoomToolUse *use = data;

  g_clear_pointer (&use->name, g_free);
}

static int
compare_tool_uses (gconstpointer a,
                   gconstpointer b)
{
  const LoomToolUse *x = a, *y = b;

  if (x->n_calls != y->n_calls)
    return x->n_calls > y->n_calls ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

GArray *
loom_session_usage_tools (LoomSession *session)
{
  g_autoptr (LoomJsonDoc) doc = NULL;
  GArray         *tools;
  const LoomJson *root;
  gsize           n;

  g_return_val_if_fail (LOOM_IS_SESSION (session), NULL);

  doc = loom_json_doc_new ();
  tools = g_array_new (FALSE, FALSE, sizeof (LoomToolUse));
  g_array_set_clear_func (tools, tool_use_clear);
  root = parse_column (doc, loom_session_get_record (session)->tools_used_json);
  /* The parser has already folded a repeated name into one member with the last value, as
   * json-glib's objects do: every member here is a different tool. */
  n = loom_json_is_object (root) ? loom_json_length (root) : 0;
  for (gsize i = 0; i < n; i++)
    {
      const LoomJson *member = loom_json_element (root, i);
      LoomToolUse     use = { g_strdup (loom_json_name (member)), loom_json_int (member, 0) };

      g_array_append_val (tools, use);
    }
  g_array_sort (tools, compare_tool_uses);
  return tools;
}
