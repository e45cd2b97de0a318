/* loom-timeline-format.c — turning events' stored text and payloads into what a person reads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "loom-json-value.h"
#include "loom-timeline-format.h"

/* Past this, a payload is shown as text: parsing megabytes on the UI thread is a stall. */
#define MAX_JSON_SIZE        (1024 * 1024)
/* A person asked for the whole output: a longer stall is what they asked for. */
#define MAX_RESULT_JSON_SIZE (256 * 1024 * 1024)
#define SUMMARY_CHARS        200
#define CONTEXT_LINES        3
/* Indented JSON stops indenting here: a payload nested 500 deep would otherwise be mostly
 * spaces. The parser itself stops at LOOM_JSON_MAX_DEPTH. */
#define MAX_INDENT_DEPTH     32

static gboolean
looks_like_json (const char *payload)
{
  const char *p = payload;

  if (payload == NULL)
    return FALSE;
  while (g_ascii_isspace (*p))
    p++;
  return *p == '{' || *p == '[';
}

/* The payload's JSON root, living in @doc, or NULL when it is not JSON (a Codex patch is
 * plain text). The core's own parser: one parser for untrusted text, and it stops at
 * LOOM_JSON_MAX_DEPTH instead of following any nesting. */
static const LoomJson *
parse_json_limited (LoomJsonDoc *doc,
                    const char  *payload,
                    gsize        max_size)
{
  gsize length;

  if (!looks_like_json (payload))
    return NULL;
  length = strlen (payload);
  if (length > max_size)
    return NULL;
  return loom_json_doc_parse (doc, payload, length, NULL);
}

static const LoomJson *
parse_json (LoomJsonDoc *doc,
            const char  *payload)
{
  return parse_json_limited (doc, payload, MAX_JSON_SIZE);
}

/* JSON as json-glib's generator indents it, without its recursion past what was parsed. */
static void
append_json_string (GString    *out,
                    const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if ((guchar)*p < 0x20)
            g_string_append_printf (out, "\\u%04x", (guint)(guchar)*p);
          else
            g_string_append_c (out, *p);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_indent (GString *out,
               guint    depth)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < MIN (depth, MAX_INDENT_DEPTH); i++)
    g_string_append (out, "  ");
}

/* Recursion is bounded by the parser's LOOM_JSON_MAX_DEPTH. */
static void
append_pretty (GString        *out,
               const LoomJson *value,
               guint           depth)
{
  gboolean object = loom_json_is_object (value);
  gsize    n = loom_json_length (value);

  if (!object && !loom_json_is_array (value))
    {
      g_autofree char *scalar = NULL;

      if (loom_json_is_string (value))
        append_json_string (out, loom_json_string (value));
      else if ((scalar = loom_json_value_to_string (value)))
        g_string_append (out, scalar);
      return;
    }

  g_string_append_c (out, object ? '{' : '[');
  for (gsize i = 0; i < n; i++)
    {
      const LoomJson *element = loom_json_element (value, i);

      append_indent (out, depth + 1);
      if (object)
        {
          append_json_string (out, loom_json_name (element));
          g_string_append (out, " : ");
        }
      append_pretty (out, element, depth + 1);
      if (i + 1 < n)
        g_string_append_c (out, ',');
    }
  if (n > 0)
    append_indent (out, depth);
  g_string_append_c (out, object ? '}' : ']');
}

static char *
truncate_chars (const char *text,
                gsize       max_chars)
{
  g_autofree char *head = NULL;

  if (g_utf8_strlen (text, -1) <= (glong)max_chars)
    return g_strdup (text);
  head = g_utf8_substring (text, 0, max_chars - 1);
  return g_strconcat (head, "…", NULL);
}

static gboolean
is_dropped_control (guchar c)
{
  return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

char *
loom_timeline_format_strip_controls (const char *text)
{
  GString    *out;
  const char *p;

  if (text == NULL)
    return NULL;
  for (p = text; *p != '\0' && !is_dropped_control ((guchar)*p); p++)
    ;
  if (*p == '\0')
    return NULL;

  out = g_string_sized_new (strlen (text));
  g_string_append_len (out, text, p - text);
  while (*p != '\0')
    {
      if (*p == '\033' && p[1] == '[')
        {
          /* CSI: parameters and intermediates, then one final byte in @..~. */
          p += 2;
          while (*p != '\0' && !((guchar)*p >= 0x40 && (guchar)*p <= 0x7e))
            p++;
          if (*p != '\0')
            p++;
        }
      else if (*p == '\033' && p[1] == ']')
        {
          /* OSC: up to BEL or ST (ESC \\). */
          p += 2;
          while (*p != '\0' && *p != '\007' && !(*p == '\033' && p[1] == '\\'))
            p++;
          if (*p == '\007')
            p++;
          else if (*p == '\033')
            p += 2;
        }
      else if (*p == '\r' && p[1] == '\n')
        p++;
      else if (is_dropped_control ((guchar)*p))
        p++;
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* A tag of lowercase letters and dashes, opening or closing: "<command-name>", "</x-y>". */
static gsize
tag_length (const char *p)
{
  const char *q = p + 1;

  if (*q == '/')
    q++;
  if (!g_ascii_islower (*q))
    return 0;
  while (g_ascii_islower (*q) || *q == '-')
    q++;
  return *q == '>' ? (gsize)(q - p + 1) : 0;
}

char *
loom_timeline_format_strip_tags (const char *text)
{
  GString    *out = NULL;
  const char *start;
  const char *p;

  if (text == NULL)
    return NULL;
  for (start = p = text; *p != '\0'; p++)
    {
      gsize length;

      if (*p != '<' || (length = tag_length (p)) == 0)
        continue;
      if (out == NULL)
        out = g_string_new (NULL);
      g_string_append_len (out, start, p - start);
      /* Adjacent elements stay apart: "</a> <b>" keeps its space, "</a><b>" gains one. */
      if (out->len > 0 && !g_ascii_isspace (out->str[out->len - 1]) && p[1] != '/')
        g_string_append_c (out, ' ');
      p += length - 1;
      start = p + 1;
    }
  if (out == NULL)
    return NULL;
  g_string_append (out, start);
  return g_strstrip (g_string_free (out, FALSE));
}

char *
loom_timeline_format_summary (const char *text)
{
  g_auto (GStrv) lines = NULL;
  gboolean patch;

  if (text == NULL)
    return g_strdup ("");

  lines = g_strsplit (text, "\n", 200);
  patch = g_str_has_prefix (text, "*** Begin Patch");
  for (guint i = 0; lines[i] != NULL; i++)
    {
      static const char *const file_markers[] = {
        "*** Update File: ",
        "*** Add File: ",
        "*** Delete File: ",
      };
      char *line = g_strstrip (lines[i]);

      if (*line == '\0')
        continue;
      if (!patch)
        return truncate_chars (line, SUMMARY_CHARS);
      for (guint m = 0; m < G_N_ELEMENTS (file_markers); m++)
        {
          if (g_str_has_prefix (line, file_markers[m]))
            return truncate_chars (line + strlen (file_markers[m]), SUMMARY_CHARS);
        }
    }
  return g_strdup ("");
}

char *
loom_timeline_format_input (const char *payload)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  const LoomJson *root;
  const LoomJson *command;
  const char     *text;
  GString        *out;

  if (payload == NULL)
    return g_strdup ("");
  if (!(root = parse_json (doc, payload)))
    return g_utf8_make_valid (payload, -1);

  /* Shells: what a person would have typed. */
  if ((text = loom_json_member_string (root, "command")) ||
      (text = loom_json_member_string (root, "cmd")))
    return g_strdup (text);
  if ((command = loom_json_member_array (root, "command")))
    {
      g_autoptr (GPtrArray) words = g_ptr_array_new ();
      gsize n = loom_json_length (command);

      for (gsize i = 0; i < n; i++)
        {
          const char *word = loom_json_string (loom_json_element (command, i));

          if (word != NULL)
            g_ptr_array_add (words, (gpointer)word);
        }
      /* ["bash", "-lc", "script"] is the script. */
      if (words->len == 3 && g_str_has_suffix (words->pdata[0], "sh") &&
          g_str_equal (words->pdata[1], "-lc"))
        return g_strdup (words->pdata[2]);
      g_ptr_array_add (words, NULL);
      return g_strjoinv (" ", (char **)words->pdata);
    }

  out = g_string_new (NULL);
  append_pretty (out, root, 0);
  return g_string_free (out, FALSE);
}

/* Text blocks ([{"type":"text","text":…}, …]) joined by newlines. */
static char *
join_text_blocks (const LoomJson *blocks)
{
  g_autoptr (GString) out = g_string_new (NULL);
  gsize n = loom_json_length (blocks);

  for (gsize i = 0; i < n; i++)
    {
      const LoomJson *block = loom_json_element (blocks, i);
      const char     *text = loom_json_is_string (block) ? loom_json_string (block)
                                                         : loom_json_member_string (block, "text");

      if (text == NULL)
        continue;
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, text);
    }
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

char *
loom_timeline_format_result_output (const char *payload)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  const LoomJson *root;
  const LoomJson *blocks;
  const char     *text;

  if (payload == NULL)
    return NULL;
  if (!looks_like_json (payload))
    return g_utf8_make_valid (payload, -1);
  if (!(root = parse_json_limited (doc, payload, MAX_RESULT_JSON_SIZE)))
    return NULL;

  /* Gemini: [{"functionResponse": {"response": {"output" or "error": …}}}] */
  if (loom_json_is_array (root) && loom_json_length (root) > 0)
    {
      const LoomJson *first = loom_json_element (root, 0);
      const LoomJson *response;

      if (!loom_json_is_object (first))
        return join_text_blocks (root);
      response = loom_json_member_object (loom_json_member_object (first, "functionResponse"),
                                          "response");
      if ((text = loom_json_member_string (response, "output")) ||
          (text = loom_json_member_string (response, "error")))
        return g_strdup (text);
      return join_text_blocks (root);
    }

  if ((text = loom_json_member_string (root, "content")) ||
      (text = loom_json_member_string (root, "output")))
    return g_strdup (text);
  if ((blocks = loom_json_member_array (root, "content")))
    return join_text_blocks (blocks);
  return NULL;
}

char *
loom_timeline_format_subagent_prompt (const char *payload)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  const LoomJson *root = parse_json (doc, payload);
  const char     *text;

  if ((text = loom_json_member_string (root, "prompt")) ||
      (text = loom_json_member_string (root, "message")))
    return g_strdup (text);
  return loom_timeline_format_input (payload);
}

/* Diffs */

static void
append_prefixed (GString    *out,
                 char        prefix,
                 const char *line)
{
  if (out->len > 0)
    g_string_append_c (out, '\n');
  g_string_append_c (out, prefix);
  g_string_append (out, line);
}

static GStrv
split_lines (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text != NULL ? text : "", "\n", -1);
  guint n = g_strv_length (lines);

  /* "a\n" is one line, not two. */
  if (n > 0 && *lines[n - 1] == '\0')
    g_clear_pointer (&lines[n - 1], g_free);
  return g_steal_pointer (&lines);
}

/* Old and new text without a patch: the lines they share at both ends become context. */
static void
append_replacement (GString    *out,
                    const char *old_text,
                    const char *new_text)
{
  g_auto (GStrv) old_lines = split_lines (old_text);
  g_auto (GStrv) new_lines = split_lines (new_text);
  guint n_old = g_strv_length (old_lines);
  guint n_new = g_strv_length (new_lines);
  guint prefix = 0, suffix = 0;

  while (prefix < n_old && prefix < n_new && g_str_equal (old_lines[prefix], new_lines[prefix]))
    prefix++;
  while (suffix < n_old - prefix && suffix < n_new - prefix &&
         g_str_equal (old_lines[n_old - 1 - suffix], new_lines[n_new - 1 - suffix]))
    suffix++;

  for (guint i = prefix > CONTEXT_LINES ? prefix - CONTEXT_LINES : 0; i < prefix; i++)
    append_prefixed (out, ' ', old_lines[i]);
  for (guint i = prefix; i < n_old - suffix; i++)
    append_prefixed (out, '-', old_lines[i]);
  for (guint i = prefix; i < n_new - suffix; i++)
    append_prefixed (out, '+', new_lines[i]);
  for (guint i = n_old - suffix; i < n_old && i < n_old - suffix + CONTEXT_LINES; i++)
    append_prefixed (out, ' ', old_lines[i]);
}

/* A unified diff or a Codex patch, without its file headers. */
static void
append_patch (GString    *out,
              const char *patch)
{
  g_auto (GStrv) lines = split_lines (patch);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "Index: ") || g_str_has_prefix (line, "====") ||
          g_str_has_prefix (line, "--- ") || g_str_has_prefix (line, "+++ ") ||
          g_str_has_prefix (line, "*** Begin Patch") || g_str_has_prefix (line, "*** End Patch"))
        continue;
      if (g_str_has_prefix (line, "*** "))
        append_prefixed (out, '@', line + 3);
      else if (line[0] == '@' || line[0] == '+' || line[0] == '-' || line[0] == ' ')
        append_prefixed (out, line[0], line + 1);
      else
        append_prefixed (out, ' ', line);
    }
}

/* Claude Code's toolUseResult.structuredPatch: hunks with their own line prefixes. */
static gboolean
append_structured_patch (GString        *out,
                         const LoomJson *result)
{
  const LoomJson *tool_result = loom_json_member_object (result, "toolUseResult");
  const LoomJson *hunks = loom_json_member_array (tool_result, "structuredPatch");
  gsize           n_hunks = loom_json_length (hunks);

  for (gsize h = 0; h < n_hunks; h++)
    {
      const LoomJson *hunk = loom_json_element (hunks, h);
      const LoomJson *lines = loom_json_member_array (hunk, "lines");
      gsize           n_lines = loom_json_length (lines);

      if (!loom_json_is_object (hunk))
        continue;
      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append_printf (
        out,
        "@@ -%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT " +%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
        " @@",
        loom_json_member_int (hunk, "oldStart", 0), loom_json_member_int (hunk, "oldLines", 0),
        loom_json_member_int (hunk, "newStart", 0), loom_json_member_int (hunk, "newLines", 0));
      for (gsize i = 0; i < n_lines; i++)
        {
          const char *text = loom_json_string (loom_json_element (lines, i));

          if (text == NULL)
            continue;
          if (text[0] == '+' || text[0] == '-' || text[0] == ' ')
            append_prefixed (out, text[0], text + 1);
          else
            append_prefixed (out, ' ', text);
        }
    }
  return n_hunks > 0;
}

char *
loom_timeline_format_diff (const char *payload,
                           const char *result_payload)
{
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (LoomJsonDoc) result_doc = NULL;
  const LoomJson *object = parse_json (doc, payload);
  const LoomJson *edits;
  const char     *text;

  /* Not JSON: a Codex patch, or nothing we know. */
  if (object == NULL)
    {
      if (payload == NULL || !(strstr (payload, "\n+") || strstr (payload, "\n-") ||
                               g_str_has_prefix (payload, "*** ")))
        return NULL;
      append_patch (out, payload);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if ((text = loom_json_member_string (object, "fileDiff")) ||
      (text = loom_json_member_string (object, "patch")) ||
      (text = loom_json_member_string (object, "diff")))
    {
      append_patch (out, text);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  /* The result's patch has line numbers and real context: better than old and new. */
  result_doc = loom_json_doc_new ();
  if (append_structured_patch (out, parse_json (result_doc, result_payload)))
    return g_string_free (g_steal_pointer (&out), FALSE);

  if ((edits = loom_json_member_array (object, "edits")))
    {
      gsize n = loom_json_length (edits);

      for (gsize i = 0; i < n; i++)
        {
          const LoomJson *edit = loom_json_element (edits, i);

          if (i > 0)
            append_prefixed (out, '@', "@ …");
          append_replacement (out, loom_json_member_string (edit, "old_string"),
                              loom_json_member_string (edit, "new_string"));
        }
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if (loom_json_member_string (object, "old_string") ||
      loom_json_member_string (object, "new_string"))
    {
      append_replacement (out, loom_json_member_string (object, "old_string"),
                          loom_json_member_string (object, "new_string"));
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  if ((text = loom_json_member_string (object, "content")) ||
      (text = loom_json_member_string (object, "newContent")))
    {
      append_replacement (out, "", text);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  return NULL;
}

char *
loom_timeline_format_head (const char *text,
                           guint       max_lines,
                           gsize       max_chars,
                           guint      *n_lines)
{
  const char *cut = NULL;
  guint       lines = 1;
  gsize       length;

  if (text == NULL)
    text = "";
  length = strlen (text);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p != '\n' || p[1] == '\0')
        continue;
      if (lines == max_lines && cut == NULL)
        cut = p;
      lines++;
    }
  if (n_lines != NULL)
    *n_lines = lines;

  if (cut == NULL && length <= max_chars)
    return NULL;
  if (cut == NULL || (gsize)(cut - text) > max_chars)
    {
      /* Cut on a character boundary. */
      cut = g_utf8_find_prev_char (text, text + MIN (length, max_chars) + 1);
      if (cut == NULL)
        cut = text;
    }
  return g_strndup (text, cut - text);
}

char *
loom_timeline_format_left_out (guint64  n_bytes,
                               gboolean estimate)
{
  g_autofree char *size = g_format_size (n_bytes);

  if (estimate)
    /* Translators: under the head of a very long text; %s is a size ("49.9 MB"). */
    return g_strdup_printf (_ ("… about %s more"), size);
  /* Translators: under the head of a very long text; %s is a size ("49.9 MB"). */
  return g_strdup_printf (_ ("… %s more"), size);
}

char *
loom_timeline_format_bounded (const char *text,
                              gsize       max_bytes,
                              guint64     whole_size)
{
  g_autofree char *note = NULL;
  const char      *cut;
  gsize            length;
  gboolean         estimate;

  if (text == NULL || (length = strlen (text)) <= max_bytes)
    return NULL;
  cut = g_utf8_find_prev_char (text, text + max_bytes + 1);
  if (cut == NULL)
    cut = text;
  estimate = whole_size > length;
  note = loom_timeline_format_left_out ((estimate ? whole_size : length) - (gsize)(cut - text),
                                        estimate);
  return g_strdup_printf ("%.*s %s", (int)(cut - text), text, note);
}

const char *
loom_timeline_format_tool_icon (const char *tool_name,
                                const char *kind,
                                const char *change_kind)
{
  static const struct
  {
    const char *word;
    const char *icon;
  } tools[] = {
    { "bash", "utilities-terminal-symbolic" }, { "shell", "utilities-terminal-symbolic" },
    { "exec", "utilities-terminal-symbolic" }, { "grep", "system-search-symbolic" },
    { "glob", "system-search-symbolic" },      { "search", "system-search-symbolic" },
    { "find", "system-search-symbolic" },      { "list", "system-search-symbolic" },
    { "web", "web-browser-symbolic" },         { "fetch", "web-browser-symbolic" },
    { "read", "text-x-generic-symbolic" },     { "view", "text-x-generic-symbolic" },
    { "edit", "document-edit-symbolic" },      { "write", "document-edit-symbolic" },
    { "replace", "document-edit-symbolic" },   { "patch", "document-edit-symbolic" },
    { "task", "system-users-symbolic" },       { "agent", "system-users-symbolic" },
    { "todo", "view-list-bullet-symbolic" },   { "plan", "view-list-bullet-symbolic" },
  };
  g_autofree char *name = NULL;

  if (g_strcmp0 (kind, "subagent") == 0)
    return "system-users-symbolic";
  if (g_strcmp0 (kind, "file_change") == 0)
    {
      if (g_strcmp0 (change_kind, "add") == 0 || g_strcmp0 (change_kind, "write") == 0 ||
          g_strcmp0 (change_kind, "create") == 0)
        return "document-new-symbolic";
      if (g_strcmp0 (change_kind, "delete") == 0)
        return "user-trash-symbolic";
      if (g_strcmp0 (change_kind, "rename") == 0 || g_strcmp0 (change_kind, "move") == 0)
        return "document-save-as-symbolic";
      return "document-edit-symbolic";
    }

  if (tool_name == NULL)
    return "emblem-system-symbolic";
  name = g_ascii_strdown (tool_name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      if (strstr (name, tools[i].word) != NULL)
        return tools[i].icon;
    }
  return "emblem-system-symbolic";
}
