/* loom-importer-codex-tools.c — Codex tool calls and their results (FORMATS.md §2): function,
 * custom (apply_patch, code-mode exec), local shell, web search and other hosted `*_call` items,
 * their `*_call_output` results paired by call_id, whether a result is an error, and the files
 * an apply_patch touched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-importer-codex-private.h"

/* Function arguments are JSON inside a JSON string, so the reader's depth guard never saw
 * them; they are held to a tighter limit than records, since nothing real nests this deep. */
#define CODEX_MAX_ARGUMENT_DEPTH 64

/* Refuses deeply nested text before it is parsed. */
static gboolean
json_text_depth_ok (const char *text,
                    int         max_depth)
{
  gboolean in_string = FALSE;
  int      depth = 0;

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

/* Parses JSON that an agent put inside a string (function arguments, legacy tool output). The
 * value lives in ci->embedded until the next call, so it must not outlive the record either. */
static const LoomJson *
parse_embedded_json (CodexImport *ci,
                     const char  *text)
{
  if (is_empty (text) || !json_text_depth_ok (text, CODEX_MAX_ARGUMENT_DEPTH))
    return NULL;
  if (ci->embedded == NULL)
    ci->embedded = loom_json_doc_new ();
  return loom_json_doc_parse (ci->embedded, text, strlen (text), NULL);
}

/* Joins the strings of an array (a command vector); a `bash -lc SCRIPT` shows just the script. */
static char *
join_command (const LoomJson *array)
{
  g_autoptr (GString) joined = g_string_new (NULL);
  gsize n = loom_json_is_array (array) ? loom_json_length (array) : 0;

  if (n == 0)
    return NULL;
  if (n == 3)
    {
      const char *flag = loom_json_string (loom_json_element (array, 1));
      const char *script = loom_json_string (loom_json_element (array, 2));

      if (script != NULL && (g_strcmp0 (flag, "-lc") == 0 || g_strcmp0 (flag, "-c") == 0))
        return g_strdup (script);
    }
  for (gsize i = 0; i < n; i++)
    {
      const char *part = loom_json_string (loom_json_element (array, i));

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
summarize_arguments (const LoomJson *arguments)
{
  static const char *const keys[] = { "cmd",       "command", "query",       "q",       "path",
                                      "file_path", "pattern", "url",         "message", "prompt",
                                      "input",     "chars",   "explanation", NULL };

  for (guint k = 0; loom_json_is_object (arguments) && keys[k] != NULL; k++)
    {
      const LoomJson *value = loom_json_member (arguments, keys[k]);

      if (loom_json_string (value) != NULL)
        return g_strdup (loom_json_string (value));
      if (loom_json_is_array (value))
        {
          char *joined = join_command (value);

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
  LoomEventDraft   event = { 0 };

  /* Keyed by call and path: patch_apply_end lists the same files as the patch text. */
  source_id = g_strdup_printf ("%s:%s:%s", call_id != NULL ? call_id : ci->source_id, kind,
                               resolved);
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
  g_autofree char   *path = NULL;
  g_autofree char   *move_to = NULL;
  const char        *section = NULL;
  const char        *p = patch;
  guint              n = 0;

  while (TRUE)
    {
      const char        *eol = strchr (p, '\n');
      gsize              len = eol != NULL ? (gsize)(eol - p) : strlen (p);
      const PatchHeader *next = patch_header (p);
      gboolean           end = *p == '\0' || g_str_has_prefix (p, "*** End Patch");

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
      p = eol != NULL ? eol + 1 : p + len; /* a last line without newline ends the text */
    }
  return n;
}

/* A patch run through the shell may first change folder: `cd crates/core && apply_patch <<EOF`.
 * Its paths are then relative to that folder, not to the turn's. Returns the folder the `cd`
 * commands before @end lead to (each relative to the one before), or NULL when there are none
 * or something else runs before the patch. */
static char *
folder_of_shell_prefix (CodexImport *ci,
                        const char  *command,
                        const char  *end,
                        const char  *workdir)
{
  g_autofree char *prefix = g_strndup (command, (gsize)(end - command));
  g_autofree char *folder = NULL;
  g_auto (GStrv) steps = NULL;
  const char *apply = strstr (prefix, "apply_patch");

  if (apply == NULL)
    return NULL;
  prefix[apply - prefix] = '\0';
  g_strdelimit (prefix, ";", '\n');
  steps = g_regex_split_simple ("&&|\n", prefix, 0, 0);
  for (guint i = 0; steps[i] != NULL; i++)
    {
      char            *step = g_strstrip (steps[i]);
      g_autofree char *resolved = NULL;
      gsize            length;

      if (*step == '\0' && steps[i + 1] == NULL)
        break; /* what ran the patch itself: "… && apply_patch" */
      if (!g_str_has_prefix (step, "cd ") || !*(step += 3))
        return NULL;
      step = g_strstrip (step);
      length = strlen (step);
      if (length >= 2 && (step[0] == '\'' || step[0] == '"') && step[length - 1] == step[0])
        {
          step[length - 1] = '\0';
          step++;
        }
      resolved = resolve_path (ci, step, folder != NULL ? folder : workdir);
      g_free (folder);
      folder = g_steal_pointer (&resolved);
    }
  return g_steal_pointer (&folder);
}

static void
codex_patch_from_call (CodexImport *ci,
                       const char  *patch,
                       const char  *call_id,
                       const char  *workdir)
{
  const char      *begin = patch != NULL ? strstr (patch, "*** Begin Patch") : NULL;
  g_autofree char *moved_to = NULL;

  if (begin == NULL)
    return;
  if (begin > patch)
    moved_to = folder_of_shell_prefix (ci, patch, begin, workdir);
  if (codex_patch_changes (ci, begin, call_id, moved_to != NULL ? moved_to : workdir) > 0 &&
      call_id != NULL)
    loom_codex_state_set_bool (ci, STATE_PATCHED, call_id, TRUE);
}

static char *
tool_name_for (const LoomJson *payload,
               const char     *type)
{
  const char *name = loom_json_member_string (payload, "name");
  const char *space = loom_json_member_string (payload, "namespace");

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
loom_codex_tool_call (CodexImport    *ci,
                      const LoomJson *payload,
                      const char     *type)
{
  const char      *call_id = loom_json_member_string (payload, "call_id");
  g_autofree char *name = tool_name_for (payload, type);
  g_autofree char *input = NULL;
  g_autofree char *summary = NULL;
  const LoomJson  *arguments = NULL;
  const char      *workdir = NULL;
  const char      *patch = NULL;
  LoomEventDraft   event = { 0 };

  if (call_id == NULL)
    call_id = loom_json_member_string (payload, "id");
  if (!loom_codex_session_ready (ci))
    return;

  if (g_strcmp0 (type, "function_call") == 0)
    {
      const LoomJson *value = loom_json_member (payload, "arguments");

      /* arguments is a JSON *string*: keep it as written, parse it only to summarise. */
      input = loom_json_string (value) != NULL ? g_strdup (loom_json_string (value))
                                               : loom_json_value_to_string (value);
      arguments = parse_embedded_json (ci, input);
      summary = summarize_arguments (arguments);
      workdir = loom_json_member_string (arguments, "workdir");
      if (g_strcmp0 (name, "apply_patch") == 0)
        patch = loom_json_member_string (arguments, "input");
      if (patch == NULL)
        patch = summary; /* `apply_patch` run through the shell tool (0.4x–0.6x) */
    }
  else if (g_strcmp0 (type, "custom_tool_call") == 0)
    {
      input = g_strdup (loom_json_member_string (payload, "input"));
      if (g_strcmp0 (name, "apply_patch") == 0)
        patch = input;
    }
  else if (g_strcmp0 (type, "local_shell_call") == 0)
    {
      const LoomJson *action = loom_json_member_object (payload, "action");
      const LoomJson *exec = loom_json_member_object (action, "exec");

      input = loom_json_value_to_string (loom_json_member (payload, "action"));
      summary = join_command (loom_json_member_array (exec != NULL ? exec : action, "command"));
      workdir = loom_json_member_string (exec != NULL ? exec : action, "working_directory");
      patch = summary;
    }
  else if (g_strcmp0 (type, "web_search_call") == 0)
    {
      const LoomJson *action = loom_json_member_object (payload, "action");

      input = loom_json_value_to_string (loom_json_member (payload, "action"));
      summary = g_strdup (loom_json_member_string (action, "query"));
    }
  else
    {
      input = loom_json_value_to_string (payload);
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
loom_codex_tool_output (CodexImport    *ci,
                        const LoomJson *payload)
{
  const char      *call_id = loom_json_member_string (payload, "call_id");
  const LoomJson  *output = loom_json_member (payload, "output");
  JsonObject      *calls = loom_json_get_object (ci->state, STATE_CALLS);
  JsonObject      *failed = loom_json_get_object (ci->state, STATE_FAILED);
  g_autofree char *raw = NULL;
  g_autofree char *text = NULL;
  LoomEventDraft   event = { 0 };
  int              error = -1;

  if (!loom_codex_session_ready (ci))
    return;

  if (loom_json_string (output) != NULL)
    {
      const char     *s = loom_json_string (output);
      const LoomJson *legacy;

      raw = g_strdup (s);
      if (g_str_has_prefix (skip_blanks (s), "{\"output\"") &&
          loom_json_is_object (legacy = parse_embedded_json (ci, s)) &&
          loom_json_member_string (legacy, "output") != NULL)
        {
          const LoomJson *metadata = loom_json_member_object (legacy, "metadata");

          text = g_strdup (loom_json_member_string (legacy, "output"));
          if (has_int (metadata, "exit_code"))
            error = loom_json_member_int (metadata, "exit_code", 0) != 0;
        }
      else
        text = g_strdup (s);
    }
  else if (loom_json_is_array (output))
    {
      gboolean ignored = FALSE;

      raw = loom_json_value_to_string (output);
      text = loom_codex_content_text (output, &ignored, &ignored);
    }
  else if (loom_json_is_object (output))
    {
      gboolean ignored = FALSE;
      int      success = member_bool (output, "success");

      raw = loom_json_value_to_string (output);
      text = loom_codex_content_text (loom_json_member (output, "content"), &ignored, &ignored);
      error = success == 0 ? 1 : success == 1 ? 0 : -1;
    }
  else
    raw = loom_json_value_to_string (output);

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
loom_codex_exec_command_end (CodexImport    *ci,
                             const LoomJson *payload)
{
  const char *call_id = loom_json_member_string (payload, "call_id");

  if (call_id != NULL && has_int (payload, "exit_code"))
    loom_codex_state_set_bool (ci, STATE_FAILED, call_id,
                               loom_json_member_int (payload, "exit_code", 0) != 0);
}

void
loom_codex_mcp_tool_call_end (CodexImport    *ci,
                              const LoomJson *payload)
{
  const char     *call_id = loom_json_member_string (payload, "call_id");
  const LoomJson *result = loom_json_member_object (payload, "result");
  const LoomJson *ok = loom_json_member_object (result, "Ok");

  if (call_id == NULL || result == NULL)
    return;
  /* result is Result<CallToolResult, String>: {"Err": "…"} or {"Ok": {…, "isError": bool}}. */
  loom_codex_state_set_bool (ci, STATE_FAILED, call_id,
                             loom_json_member (result, "Err") != NULL ||
                               member_bool (ok, "isError") == 1);
}

/* patch_apply_end{call_id, success, changes{path: {type|add|update|delete …}}}. The changes are
 * the files the patch touched; they become file changes only when the call's own patch text did
 * not already give them (apply_patch run through a shell command the importer could not read). */
void
loom_codex_patch_apply_end (CodexImport    *ci,
                            const LoomJson *payload)
{
  const char     *call_id = loom_json_member_string (payload, "call_id");
  const LoomJson *changes = loom_json_member_object (payload, "changes");
  JsonObject     *patched = loom_json_get_object (ci->state, STATE_PATCHED);

  if (call_id != NULL && member_bool (payload, "success") >= 0)
    loom_codex_state_set_bool (ci, STATE_FAILED, call_id, member_bool (payload, "success") == 0);
  if (call_id != NULL && get_bool (patched, call_id) == 1)
    {
      loom_codex_state_remove (ci, STATE_PATCHED, call_id);
      return;
    }
  if (changes == NULL || !loom_codex_session_ready (ci))
    return;

  for (gsize i = 0; i < loom_json_length (changes); i++)
    {
      /* The member accessors answer NULL for a change that is not an object. */
      const LoomJson  *change = loom_json_element (changes, i);
      const char      *path = loom_json_name (change);
      const char      *kind = loom_json_member_string (change, "type");
      const LoomJson  *detail = change;
      g_autofree char *diff = loom_json_value_to_string (change);
      const char      *move_path;

      if (kind == NULL && loom_json_is_object (change) && loom_json_length (change) == 1)
        {
          /* Externally tagged: {"update": {"unified_diff": …, "move_path": …}}. */
          kind = loom_json_name (loom_json_element (change, 0));
          detail = loom_json_member_object (change, kind);
        }
      if (g_strcmp0 (kind, "update") == 0)
        kind = "edit";
      else if (g_strcmp0 (kind, "add") != 0 && g_strcmp0 (kind, "delete") != 0)
        kind = "patch";
      codex_file_change (ci, call_id, path, kind, diff, NULL);
      move_path = loom_json_member_string (detail, "move_path");
      if (!is_empty (move_path))
        codex_file_change (ci, call_id, move_path, "rename", diff, NULL);
    }
}
