/* loom-importer-codex-tools.c — Codex tool calls and their results (FORMATS.md §2): function,
 * custom (apply_patch, code-mode exec), local shell, web search and other hosted `*_call` items,
 * their `*_call_output` results paired by call_id, whether a result is an error, and the files
 * an apply_patch touched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-importer-codex-private.h"
#include "loom-json-parser.h"

/* Function arguments are JSON inside a JSON string, so the reader's depth guard never saw
 * them; they are held to a tighter limit than records, since nothing real nests this deep. */
#define CODEX_MAX_ARGUMENT_DEPTH 64

/* Refuses deeply nested text before it is parsed. */
static gboolean
json_text_depth_ok (const char *text,
                    int         max_depth)
{
  gboolean in_string = FALSE;
  int depth = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if (*p == '{' || *p == '[')
        {
          if (++depth > max_depth)
            return FALSE;
        }
      else if (*p == '}' || *p == ']')
        depth--;
    }
  return TRUE;
}

/* Parses JSON that an agent put inside a string (function arguments, legacy tool output). */
static JsonNode *
parse_embedded_json (const char *text)
{
  if (is_empty (text) || !json_text_depth_ok (text, CODEX_MAX_ARGUMENT_DEPTH))
    return NULL;
  return loom_json_parse (text, strlen (text), NULL);
}

/* Joins the strings of an array (a command vector); a `bash -lc SCRIPT` shows just the script. */
static char *
join_command (JsonArray *array)
{
  g_autoptr(GString) joined = g_string_new (NULL);
  guint n = array != NULL ? json_array_get_length (array) : 0;

  if (n == 0)
    return NULL;
  if (n == 3)
    {
      const char *flag = node_string (json_array_get_element (array, 1));
      const char *script = node_string (json_array_get_element (array, 2));

      if (script != NULL && (g_strcmp0 (flag, "-lc") == 0 || g_strcmp0 (flag, "-c") == 0))
        return g_strdup (script);
    }
  for (guint i = 0; i < n; i++)
    {
      const char *part = node_string (json_array_get_element (array, i));

      if (part == NULL)
        continue;
      if (joined->len > 0)
        g_string_append_c (joined, ' ');
      g_string_append (joined, part);
    }
  return g_string_free (g_steal_pointer (&joined), FALSE);
}

/* The strings worth showing for a call, by the argument names Codex's tools use. */
static char *
summarize_arguments (JsonNode *arguments)
{
  static const char * const keys[] = {
    "cmd", "command", "query", "q", "path", "file_path", "pattern", "url", "message",
    "prompt", "input", "chars", "explanation", NULL
  };
  JsonObject *object = node_object (arguments);

  for (guint k = 0; object != NULL && keys[k] != NULL; k++)
    {
      JsonNode *node = json_object_get_member (object, keys[k]);

      if (node_string (node) != NULL)
        return g_strdup (node_string (node));
      if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
        {
          char *joined = join_command (json_node_get_array (node));

          if (joined != NULL)
            return joined;
        }
    }
  return NULL;
}

/* Where a path in a patch points: patches name files relative to the turn's working folder. */
static char *
resolve_path (CodexImport *ci,
              const char  *path,
              const char  *workdir)
{
  const char *base = !is_empty (workdir) ? workdir : loom_json_get_string (ci->state, STATE_CWD);

  if (g_path_is_absolute (path))
    return g_canonicalize_filename (path, NULL);
  if (base != NULL && g_path_is_absolute (base))
    return g_canonicalize_filename (path, base);
  return g_strdup (path);
}

static void
codex_file_change (CodexImport *ci,
                   const char  *call_id,
                   const char  *path,
                   const char  *kind,
                   const char  *diff,
                   const char  *workdir)
{
  g_autofree char *resolved = resolve_path (ci, path, workdir);
  g_autofree char *source_id = NULL;
  g_autofree char *text = NULL;
  LoomEventDraft event = { 0 };

  /* Keyed by call and path: patch_apply_end lists the same files as the patch text. */
  source_id = g_strdup_printf ("%s:%s:%s", call_id != NULL ? call_id : ci->source_id,
                               kind, resolved);
  text = g_strdup_printf ("%s %s", kind, resolved);
  event.kind = LOOM_EVENT_FILE_CHANGE;
  event.source_id = source_id;
  event.call_id = call_id;
  event.path = resolved;
  event.change_kind = kind;
  event.text = text;
  event.payload = diff;
  loom_codex_add_event (ci, &event);
}

typedef struct
{
  const char *header;
  const char *kind;
} PatchHeader;

static const PatchHeader patch_headers[] = {
  { "*** Add File: ", "add" },
  { "*** Update File: ", "edit" },
  { "*** Delete File: ", "delete" },
};

static const PatchHeader *
patch_header (const char *line)
{
  for (guint i = 0; i < G_N_ELEMENTS (patch_headers); i++)
    if (g_str_has_prefix (line, patch_headers[i].header))
      return &patch_headers[i];
  return NULL;
}

static char *
patch_line_value (const char *line,
                  gsize       len,
                  gsize       prefix_len)
{
  g_autofree char *value = g_strndup (line + prefix_len, len - prefix_len);

  return g_strdup (g_strstrip (value));
}

/* apply_patch text: "*** Begin Patch", then per file "*** Add File: p" / "*** Update File: p"
 * (optionally "*** Move to: q") / "*** Delete File: p" and its hunk, then "*** End Patch". Each
 * file becomes a file change carrying its own section as the diff. Returns how many. */
static guint
codex_patch_changes (CodexImport *ci,
                     const char  *patch,
                     const char  *call_id,
                     const char  *workdir)
{
  const PatchHeader *current = NULL;
  g_autofree char *path = NULL;
  g_autofree char *move_to = NULL;
  const char *section = NULL;
  const char *p = patch;
  guint n = 0;

  while (TRUE)
    {
      const char *eol = strchr (p, '\n');
      gsize len = eol != NULL ? (gsize) (eol - p) : strlen (p);
      const PatchHeader *next = patch_header (p);
      gboolean end = *p == '\0' || g_str_has_prefix (p, "*** End Patch");

      if ((next != NULL || end) && current != NULL && path != NULL && *path != '\0')
        {
          g_autofree char *diff = g_strndup (section, p - section);

          codex_file_change (ci, call_id, path, current->kind, diff, workdir);
          n++;
          if (move_to != NULL && *move_to != '\0')
            {
              codex_file_change (ci, call_id, move_to, "rename", diff, workdir);
              n++;
            }
          current = NULL;
        }
      if (next != NULL)
        {
          current = next;
          section = p;
          g_free (path);
          path = patch_line_value (p, len, strlen (next->header));
          g_clear_pointer (&move_to, g_free);
        }
      else if (current != NULL && g_str_has_prefix (p, "*** Move to: "))
        {
          g_free (move_to);
          move_to = patch_line_value (p, len, strlen ("*** Move to: "));
        }
      if (end)
        break;
      p = eol != NULL ? eol + 1 : p + len;  /* a last line without newline ends the text */
    }
  return n;
}

static void
codex_patch_from_call (CodexImport *ci,
                       const char  *patch,
                       const char  *call_id,
                       const char  *workdir)
{
  const char *begin = patch != NULL ? strstr (patch, "*** Begin Patch") : NULL;

  if (begin == NULL)
    return;
  if (codex_patch_changes (ci, begin, call_id, workdir) > 0 && call_id != NULL)
    loom_codex_state_set_bool (ci, STATE_PATCHED, call_id, TRUE);
}

static char *
tool_name_for (JsonObject *payload,
               const char *type)
{
  const char *name = loom_json_get_string (payload, "name");
  const char *space = loom_json_get_string (payload, "namespace");

  if (g_strcmp0 (type, "local_shell_call") == 0)
    return g_strdup ("local_shell");
  if (g_strcmp0 (type, "web_search_call") == 0)
    return g_strdup ("web_search");
  if (!is_empty (name) && !is_empty (space) && !g_str_has_prefix (name, space))
    return g_strdup_printf ("%s.%s", space, name);
  if (!is_empty (name))
    return g_strdup (name);
  /* Other hosted tools (image_generation_call, …): the item type names the tool. */
  return g_strndup (type, strlen (type) - strlen ("_call"));
}

/* function_call / custom_tool_call / local_shell_call / web_search_call, and any other `*_call`
 * item: a tool invocation by the agent (the count definition). */
void
loom_codex_tool_call (CodexImport *ci,
                      JsonNode    *payload_node,
                      const char  *type)
{
  JsonObject *payload = node_object (payload_node);
  const char *call_id = loom_json_get_string (payload, "call_id");
  g_autofree char *name = tool_name_for (payload, type);
  g_autofree char *input = NULL;
  g_autofree char *summary = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  const char *workdir = NULL;
  const char *patch = NULL;
  LoomEventDraft event = { 0 };

  if (call_id == NULL)
    call_id = loom_json_get_string (payload, "id");
  if (!loom_codex_session_ready (ci))
    return;

  if (g_strcmp0 (type, "function_call") == 0)
    {
      JsonNode *node = json_object_get_member (payload, "arguments");

      /* arguments is a JSON *string*: keep it as written, parse it only to summarise. */
      input = node_string (node) != NULL ? g_strdup (node_string (node))
                                         : loom_json_to_string (node);
      arguments = parse_embedded_json (input);
      summary = summarize_arguments (arguments);
      workdir = loom_json_get_string (node_object (arguments), "workdir");
      if (g_strcmp0 (name, "apply_patch") == 0)
        patch = loom_json_get_string (node_object (arguments), "input");
      if (patch == NULL)
        patch = summary;  /* `apply_patch` run through the shell tool (0.4x–0.6x) */
    }
  else if (g_strcmp0 (type, "custom_tool_call") == 0)
    {
      input = g_strdup (loom_json_get_string (payload, "input"));
      if (g_strcmp0 (name, "apply_patch") == 0)
        patch = input;
    }
  else if (g_strcmp0 (type, "local_shell_call") == 0)
    {
      JsonObject *action = loom_json_get_object (payload, "action");
      JsonObject *exec = loom_json_get_object (action, "exec");

      input = loom_json_to_string (json_object_get_member (payload, "action"));
      summary = join_command (loom_json_get_array (exec != NULL ? exec : action, "command"));
      workdir = loom_json_get_string (exec != NULL ? exec : action, "working_directory");
      patch = summary;
    }
  else if (g_strcmp0 (type, "web_search_call") == 0)
    {
      JsonObject *action = loom_json_get_object (payload, "action");

      input = loom_json_to_string (json_object_get_member (payload, "action"));
      summary = g_strdup (loom_json_get_string (action, "query"));
    }
  else
    {
      input = loom_json_to_string (payload_node);
      summary = g_strdup (name);
    }

  event.kind = LOOM_EVENT_TOOL_CALL;
  event.call_id = call_id;
  event.tool_name = name;
  event.text = summary != NULL ? summary : input;
  event.payload = input;
  loom_codex_add_event (ci, &event);

  if (call_id != NULL)
    loom_codex_state_set_string (ci, STATE_CALLS, call_id, name);
  if (patch != NULL)
    codex_patch_from_call (ci, patch, call_id, workdir);
}

/* The exit code in the header Codex writes above a command's output:
 * "Exit code: N" (0.4x+ freeform shell / apply_patch) or "Process exited with code N"
 * (0.14x exec_command). Only the lines before "Output:" are looked at. */
static int
exit_code_header_failed (const char *text)
{
  const char *p = text;

  for (guint line = 0; p != NULL && *p != '\0' && line < 8; line++)
    {
      const char *value = NULL;

      if (g_str_has_prefix (p, "Output:"))
        break;
      if (g_str_has_prefix (p, "Exit code: "))
        value = p + strlen ("Exit code: ");
      else if (g_str_has_prefix (p, "Process exited with code "))
        value = p + strlen ("Process exited with code ");
      if (value != NULL && g_ascii_isdigit (*value))
        return g_ascii_strtoll (value, NULL, 10) != 0;
      p = strchr (p, '\n');
      if (p != NULL)
        p++;
    }
  return -1;
}

/* function_call_output / custom_tool_call_output (and any `*_call_output`), paired by call_id.
 *
 * is_error, first rule that applies:
 *  1. the output says so itself: an object with success:false/true, or the 0.4x–0.6x JSON string
 *     {"output":…, "metadata":{"exit_code":N}} with N != 0;
 *  2. the output text's header "Exit code: N" / "Process exited with code N" with N != 0;
 *  3. what the harness reported for that call before the output: exec_command_end exit_code
 *     != 0, patch_apply_end success:false, mcp_tool_call_end with an error result.
 * Otherwise the result is not an error. */
void
loom_codex_tool_output (CodexImport *ci,
                        JsonObject  *payload)
{
  const char *call_id = loom_json_get_string (payload, "call_id");
  JsonNode *output = json_object_get_member (payload, "output");
  JsonObject *calls = loom_json_get_object (ci->state, STATE_CALLS);
  JsonObject *failed = loom_json_get_object (ci->state, STATE_FAILED);
  g_autofree char *raw = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) legacy = NULL;
  LoomEventDraft event = { 0 };
  int error = -1;

  if (!loom_codex_session_ready (ci))
    return;

  if (node_string (output) != NULL)
    {
      const char *s = node_string (output);
      JsonObject *object;

      raw = g_strdup (s);
      if (g_str_has_prefix (skip_blanks (s), "{\"output\"") &&
          (object = node_object (legacy = parse_embedded_json (s))) != NULL &&
          loom_json_get_string (object, "output") != NULL)
        {
          JsonObject *metadata = loom_json_get_object (object, "metadata");

          text = g_strdup (loom_json_get_string (object, "output"));
          if (has_int (metadata, "exit_code"))
            error = loom_json_get_int (metadata, "exit_code", 0) != 0;
        }
      else
        text = g_strdup (s);
    }
  else if (output != NULL && JSON_NODE_HOLDS_ARRAY (output))
    {
      gboolean ignored = FALSE;

      raw = loom_json_to_string (output);
      text = loom_codex_content_text (output, &ignored, &ignored);
    }
  else if (node_object (output) != NULL)
    {
      gboolean ignored = FALSE;
      JsonObject *object = node_object (output);

      raw = loom_json_to_string (output);
      text = loom_codex_content_text (json_object_get_member (object, "content"),
                                      &ignored, &ignored);
      error = get_bool (object, "success") == 0 ? 1 : get_bool (object, "success") == 1 ? 0 : -1;
    }
  else
    raw = loom_json_to_string (output);

  if (error < 0 && text != NULL)
    error = exit_code_header_failed (text);
  if (error < 0 && call_id != NULL)
    error = get_bool (failed, call_id) == 1;

  event.kind = LOOM_EVENT_TOOL_RESULT;
  event.call_id = call_id;
  event.tool_name = call_id != NULL ? loom_json_get_string (calls, call_id) : NULL;
  event.is_error = error == 1;
  event.text = text != NULL ? text : raw;
  event.payload = raw;
  loom_codex_add_event (ci, &event);

  loom_codex_state_remove (ci, STATE_CALLS, call_id);
  loom_codex_state_remove (ci, STATE_FAILED, call_id);
}

void
loom_codex_exec_command_end (CodexImport *ci,
                             JsonObject  *payload)
{
  const char *call_id = loom_json_get_string (payload, "call_id");

  if (call_id != NULL && has_int (payload, "exit_code"))
    loom_codex_state_set_bool (ci, STATE_FAILED, call_id,
                               loom_json_get_int (payload, "exit_code", 0) != 0);
}

void
loom_codex_mcp_tool_call_end (CodexImport *ci,
                              JsonObject  *payload)
{
  const char *call_id = loom_json_get_string (payload, "call_id");
  JsonObject *result = loom_json_get_object (payload, "result");
  JsonObject *ok = loom_json_get_object (result, "Ok");

  if (call_id == NULL || result == NULL)
    return;
  /* result is Result<CallToolResult, String>: {"Err": "…"} or {"Ok": {…, "isError": bool}}. */
  loom_codex_state_set_bool (ci, STATE_FAILED, call_id,
                             json_object_has_member (result, "Err") ||
                             get_bool (ok, "isError") == 1);
}

/* patch_apply_end{call_id, success, changes{path: {type|add|update|delete …}}}. The changes are
 * the files the patch touched; they become file changes only when the call's own patch text did
 * not already give them (apply_patch run through a shell command the importer could not read). */
void
loom_codex_patch_apply_end (CodexImport *ci,
                            JsonObject  *payload)
{
  const char *call_id = loom_json_get_string (payload, "call_id");
  JsonObject *changes = loom_json_get_object (payload, "changes");
  JsonObject *patched = loom_json_get_object (ci->state, STATE_PATCHED);
  g_autoptr(GList) paths = NULL;

  if (call_id != NULL && get_bool (payload, "success") >= 0)
    loom_codex_state_set_bool (ci, STATE_FAILED, call_id, get_bool (payload, "success") == 0);
  if (call_id != NULL && get_bool (patched, call_id) == 1)
    {
      loom_codex_state_remove (ci, STATE_PATCHED, call_id);
      return;
    }
  if (changes == NULL || !loom_codex_session_ready (ci))
    return;

  paths = json_object_get_members (changes);
  for (GList *l = paths; l != NULL; l = l->next)
    {
      JsonNode *change_node = json_object_get_member (changes, l->data);
      JsonObject *change = node_object (change_node);
      const char *kind = loom_json_get_string (change, "type");
      JsonObject *detail = change;
      g_autofree char *diff = loom_json_to_string (change_node);
      g_autoptr(GList) keys = NULL;
      const char *move_path;

      if (kind == NULL && change != NULL && json_object_get_size (change) == 1)
        {
          /* Externally tagged: {"update": {"unified_diff": …, "move_path": …}}. */
          keys = json_object_get_members (change);
          kind = keys->data;
          detail = loom_json_get_object (change, kind);
        }
      if (g_strcmp0 (kind, "update") == 0)
        kind = "edit";
      else if (g_strcmp0 (kind, "add") != 0 && g_strcmp0 (kind, "delete") != 0)
        kind = "patch";
      codex_file_change (ci, call_id, l->data, kind, diff, NULL);
      move_path = loom_json_get_string (detail, "move_path");
      if (!is_empty (move_path))
        codex_file_change (ci, call_id, move_path, "rename", diff, NULL);
    }
}
