/* loom-importer-gemini.c — Gemini CLI sessions under ~/.gemini/tmp/<project>/chats/.
 *
 * Two generations of the format live side by side (shared/FORMATS.md §3):
 *
 * - session-*.json, the legacy whole document {sessionId, projectHash, startTime, lastUpdated,
 *   summary?, kind?, messages[]}, pretty-printed and rewritten on every change. The framework
 *   reads a changed .json again from its start (loom-import.c treats any change to a .json as a
 *   rewrite), so this file only has to read the document.
 * - session-*.jsonl and, for sub-agents, chats/<parentSessionId>/<sessionId>.jsonl: a metadata
 *   line, then MessageRecords, {"$set":{…}} metadata updates and {"$rewindTo":id} truncations.
 *   The CLI appends a message again, whole, each time it adds tokens or tool calls to it: a later
 *   record with a seen id supersedes the earlier one.
 *
 * A session is keyed by the sessionId of its document or metadata line, the full UUID that
 * `gemini --resume <id>` takes, never by the file's name (which holds only its first 8 hex
 * digits); a file with a second sessionId keeps the first. A sub-agent's parent is the folder
 * it is written to, named after the parent's sessionId: its records do not say.
 *
 * The agent does not record the working folder; the project's temporary folder is named after
 * the SHA-256 of its root (or, in newer CLIs, a slug whose .project_root file names the root).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "loom-importer.h"
#include "loom-time.h"

#define SOURCE_NAME "gemini"

/* ~/.gemini/tmp/<project>/chats is two levels down; a folder added by hand may be a bit deeper. */
#define DISCOVER_DEPTH    4
/* Enough for the keys at the start of the metadata line or of a pretty-printed document. */
#define HEAD_LIMIT        8192
/* The start of a pretty-printed legacy document, where sessionId and projectHash sit. */
#define PRETTY_HEAD_LIMIT 1024
#define MARKER_LIMIT      4096

/* What the file's cursor keeps between passes. */
#define STATE_SESSION "session" /* the sessionId of the metadata line */
#define STATE_HASH    "projectHash"
#define STATE_SEEN    "seen" /* message id → whether its stored text is not empty */

typedef struct
{
  LoomImportFile *file;
  JsonObject     *state;
  JsonObject     *seen;       /* borrowed from state */
  char           *parent_id;  /* the parent's sessionId, from chats/<parent>/<id>.jsonl */
  gint64          session_id; /* the session's row, 0 until known */
  gboolean        deleted;    /* the person deleted the session for good: skip it */
  gboolean        warned_orphan;
  gboolean        marker_tried;

  /* Metadata, written when the session is first seen and again at the end of the file. */
  char    *title;
  char    *cwd;
  gint64   created_at;
  gint64   updated_at;
  gboolean subagent;
  gboolean dirty;

  gint64 last_time; /* the latest record time, for records that have none */
} GeminiImport;

static void
gemini_import_clear (GeminiImport *ctx)
{
  g_clear_pointer (&ctx->parent_id, g_free);
  g_clear_pointer (&ctx->title, g_free);
  g_clear_pointer (&ctx->cwd, g_free);
}

/* ——— Names and places ——— */

static gboolean
is_session_name (const char *name)
{
  return g_str_has_prefix (name, "session-") &&
         (g_str_has_suffix (name, ".json") || g_str_has_suffix (name, ".jsonl"));
}

/* Files of the CLI's that sit beside the sessions but are not sessions: logs.json (the prompts
 * only, a copy of what the sessions hold) and /chat save checkpoints (bare model contents). */
static gboolean
is_companion_name (const char *name)
{
  return g_strcmp0 (name, "logs.json") == 0 ||
         (g_str_has_prefix (name, "checkpoint-") && g_str_has_suffix (name, ".json"));
}

/* A legacy session-X.json is migrated to session-X.jsonl when it is resumed, and left behind.
 * The .jsonl starts with everything the .json held, so the .json is then redundant. */
static gboolean
is_migrated_document (const char *path)
{
  g_autofree char *jsonl = NULL;

  if (!g_str_has_suffix (path, ".json"))
    return FALSE;
  jsonl = g_strconcat (path, "l", NULL);
  return g_file_test (jsonl, G_FILE_TEST_IS_REGULAR);
}

/* Sub-agent sessions are written to chats/<parentSessionId>/<sessionId>.jsonl. */
static char *
parent_id_from_path (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *grand = g_path_get_dirname (dir);
  g_autofree char *dir_name = g_path_get_basename (dir);
  g_autofree char *grand_name = g_path_get_basename (grand);

  if (g_strcmp0 (dir_name, "chats") != 0 && g_strcmp0 (grand_name, "chats") == 0)
    return g_steal_pointer (&dir_name);
  return NULL;
}

/* The project's temporary folder: the parent of the chats folder that holds @path. */
static char *
project_dir_from_path (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  for (guint up = 0; up < 2; up++)
    {
      g_autofree char *name = g_path_get_basename (dir);
      g_autofree char *parent = g_path_get_dirname (dir);

      if (g_strcmp0 (name, "chats") == 0)
        return g_steal_pointer (&parent);
      g_free (dir);
      dir = g_steal_pointer (&parent);
    }
  return NULL;
}

/* ——— Finding the project root ——— */

/* Workspace folders are recorded for sub-agents and after /dir add; the one whose SHA-256 is the
 * projectHash is the project root (the hash is of the root path, FORMATS.md §3). */
static char *
root_from_directories (const LoomJson *directories,
                       const char     *project_hash)
{
  gsize n = loom_json_length (directories);

  if (project_hash == NULL)
    return NULL;
  for (gsize i = 0; i < n; i++)
    {
      const LoomJson  *element = loom_json_element (directories, i);
      g_autofree char *hash = NULL;
      const char      *dir;

      if (!loom_json_is_string (element))
        continue;
      dir = loom_json_string (element);
      hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, dir, -1);
      if (g_ascii_strcasecmp (hash, project_hash) == 0)
        return g_strdup (dir);
    }
  return NULL;
}

/* Newer CLIs name the project folder with a slug and write its owner's path into .project_root. */
static char *
root_from_marker (const char *path)
{
  g_autofree char *project_dir = project_dir_from_path (path);
  g_autofree char *marker = NULL;
  g_autofree char *contents = NULL;
  GStatBuf         st;
  gsize            length;

  if (project_dir == NULL)
    return NULL;
  marker = g_build_filename (project_dir, ".project_root", NULL);
  if (g_stat (marker, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > MARKER_LIMIT ||
      !g_file_get_contents (marker, &contents, &length, NULL))
    return NULL;
  if (!g_utf8_validate_len (contents, length, NULL) || strlen (contents) != length)
    return NULL;
  g_strstrip (contents);
  if (!g_path_is_absolute (contents) || strchr (contents, '\n') != NULL)
    return NULL;
  return g_steal_pointer (&contents);
}

/* ——— What a message says ——— */

/* Appends a placeholder or a block on a line of its own. */
static void
append_block (GString    *text,
              const char *block)
{
  if (text->len > 0 && text->str[text->len - 1] != '\n')
    g_string_append_c (text, '\n');
  g_string_append (text, block);
}

static void
append_part (GString        *text,
             const LoomJson *part)
{
  const LoomJson *data;
  const char     *value;

  if (loom_json_is_string (part))
    {
      g_string_append (text, loom_json_string (part));
      return;
    }
  if (!loom_json_is_object (part))
    return;

  /* Thought parts are the model's reasoning; the message's thoughts[] carries it. */
  if (loom_json_member_int (part, "thought", 0) != 0)
    return;

  if ((value = loom_json_member_string (part, "text")) != NULL)
    g_string_append (text, value);
  else if ((data = loom_json_member_object (part, "inlineData")) != NULL)
    {
      const char      *mime = loom_json_member_string (data, "mimeType");
      g_autofree char *label = NULL;

      /* The base64 data stays out of the text: it is neither readable nor searchable. */
      if (mime == NULL || g_str_has_prefix (mime, "image/"))
        label = g_strdup ("[image]");
      else
        label = g_strdup_printf ("[attachment: %s]", mime);
      append_block (text, label);
    }
  else if ((data = loom_json_member_object (part, "fileData")) != NULL)
    {
      g_autofree char *label = g_strdup_printf ("[file: %s]",
                                                loom_json_member_string (data, "fileUri")
                                                  ? loom_json_member_string (data, "fileUri")
                                                  : "?");
      append_block (text, label);
    }
  else if ((data = loom_json_member_object (part, "functionCall")) != NULL)
    {
      g_autofree char *label = g_strdup_printf (
        "[tool call: %s]",
        loom_json_member_string (data, "name") ? loom_json_member_string (data, "name") : "?");
      append_block (text, label);
    }
  else if ((data = loom_json_member_object (part, "functionResponse")) != NULL)
    {
      g_autofree char *label = g_strdup_printf (
        "[tool result: %s]",
        loom_json_member_string (data, "name") ? loom_json_member_string (data, "name") : "?");
      append_block (text, label);
    }
  else if ((data = loom_json_member_object (part, "executableCode")) != NULL &&
           (value = loom_json_member_string (data, "code")) != NULL)
    append_block (text, value);
  else if ((data = loom_json_member_object (part, "codeExecutionResult")) != NULL &&
           (value = loom_json_member_string (data, "output")) != NULL)
    append_block (text, value);
}

/* content and displayContent are a PartListUnion: a string, one Part, or an array of them. */
static char *
content_text (const LoomJson *content)
{
  GString *text = g_string_new (NULL);

  if (loom_json_type (content) == LOOM_JSON_NULL) /* missing, or null */
    return g_string_free (text, FALSE);

  if (loom_json_is_array (content))
    for (gsize i = 0; i < loom_json_length (content); i++)
      append_part (text, loom_json_element (content, i));
  else
    append_part (text, content);
  return g_string_free (text, FALSE);
}

/* A "user" turn that only returns function responses is the harness feeding tool results back
 * (the CLI writes those when it syncs its history), not something a person typed. */
static gboolean
only_function_responses (const LoomJson *content)
{
  gsize n;

  if (!loom_json_is_array (content))
    return FALSE;
  n = loom_json_length (content);
  for (gsize i = 0; i < n; i++)
    {
      const LoomJson *part = loom_json_element (content, i);

      if (!loom_json_is_object (part) || loom_json_member_object (part, "functionResponse") == NULL)
        return FALSE;
    }
  return n > 0;
}

/* tokens{input, output, cached, thoughts, tool, total}: input is promptTokenCount, cached is
 * cachedContentTokenCount (a part of the prompt), tool is toolUsePromptTokenCount, output is
 * candidatesTokenCount and thoughts is thoughtsTokenCount. The store's input, cache_read and
 * cache_creation are disjoint, as Claude reports them, so input is the prompt without its
 * cached part, plus the tool prompts; thoughts are billed as output, and output holds them as
 * Claude's and Codex's output do, with reasoning saying how much of it they were. So input +
 * cache_read + output = total. */
static void
set_usage (LoomMessageDraft *draft,
           const LoomJson   *tokens)
{
  gint64 input, output, cached, thoughts, tool;

  if (tokens == NULL)
    return;
  input = loom_json_member_int (tokens, "input", -1);
  output = loom_json_member_int (tokens, "output", -1);
  cached = loom_json_member_int (tokens, "cached", -1);
  thoughts = loom_json_member_int (tokens, "thoughts", -1);
  tool = loom_json_member_int (tokens, "tool", -1);

  if (input >= 0 || tool >= 0)
    draft->input_tokens = MAX (MAX (input, 0) - MAX (cached, 0), 0) + MAX (tool, 0);
  if (output >= 0 || thoughts >= 0)
    draft->output_tokens = MAX (output, 0) + MAX (thoughts, 0);
  if (cached >= 0)
    draft->cache_read_tokens = cached;
  if (thoughts >= 0)
    draft->reasoning_tokens = thoughts;
}

static gint64
record_time (GeminiImport   *ctx,
             const LoomJson *object)
{
  gint64 at = loom_time_from_iso (loom_json_member_string (object, "timestamp"));

  if (at > ctx->last_time)
    ctx->last_time = at;
  return at;
}

/* ——— The session ——— */

static gboolean
write_session (GeminiImport *ctx,
               GError      **error)
{
  LoomSessionRecord meta = { 0 };

  meta.source = (char *)SOURCE_NAME;
  meta.source_session_id = (char *)loom_json_get_string (ctx->state, STATE_SESSION);
  meta.title = ctx->title;
  meta.cwd = ctx->cwd;
  meta.project_path = ctx->cwd;
  meta.created_at = ctx->created_at;
  meta.updated_at = ctx->updated_at;
  meta.session_type = (char *)(ctx->subagent || ctx->parent_id != NULL ? "subagent" : NULL);
  meta.parent_uuid = ctx->parent_id;

  ctx->session_id = loom_import_file_session (ctx->file, &meta, error);
  ctx->dirty = FALSE;
  if (ctx->session_id == 0)
    {
      if (error != NULL && *error != NULL)
        return FALSE;
      ctx->deleted = TRUE;
    }
  return TRUE;
}

/* On an appending pass the metadata line was read by an earlier pass: its sessionId is in the
 * cursor's state. */
static gboolean
ensure_session (GeminiImport *ctx,
                GError      **error)
{
  if (ctx->session_id > 0 || ctx->deleted)
    return TRUE;
  if (loom_json_get_string (ctx->state, STATE_SESSION) != NULL)
    return write_session (ctx, error);
  if (!ctx->warned_orphan)
    loom_import_file_warn (ctx->file, "records before the session's metadata were skipped");
  ctx->warned_orphan = TRUE;
  return TRUE;
}

/* Takes what is known from a metadata object: the first line of a .jsonl, the legacy document,
 * or a $set update. */
static void
take_metadata (GeminiImport   *ctx,
               const LoomJson *metadata)
{
  const char *summary = loom_json_member_string (metadata, "summary");
  const char *kind = loom_json_member_string (metadata, "kind");
  const char *hash = loom_json_member_string (metadata, "projectHash");
  gint64      start = loom_time_from_iso (loom_json_member_string (metadata, "startTime"));
  gint64      last = loom_time_from_iso (loom_json_member_string (metadata, "lastUpdated"));
  gboolean    had_cwd = ctx->cwd != NULL;

  if (hash != NULL && loom_json_get_string (ctx->state, STATE_HASH) == NULL)
    json_object_set_string_member (ctx->state, STATE_HASH, hash);
  hash = loom_json_get_string (ctx->state, STATE_HASH);

  if (summary != NULL && *summary != '\0' && g_strcmp0 (summary, ctx->title) != 0)
    {
      g_free (ctx->title);
      ctx->title = g_strdup (summary);
      ctx->dirty = TRUE;
    }
  if (start > 0 && (ctx->created_at == 0 || start < ctx->created_at))
    {
      ctx->created_at = start;
      ctx->dirty = TRUE;
    }
  if (last > ctx->updated_at)
    {
      ctx->updated_at = last;
      ctx->dirty = TRUE;
    }
  if (g_strcmp0 (kind, "subagent") == 0 && !ctx->subagent)
    {
      ctx->subagent = TRUE;
      ctx->dirty = TRUE;
    }
  if (ctx->cwd == NULL)
    ctx->cwd = root_from_directories (loom_json_member_array (metadata, "directories"), hash);
  /* The marker is looked for once per pass: $set records come after every message. */
  if (ctx->cwd == NULL && !ctx->marker_tried)
    {
      ctx->marker_tried = TRUE;
      ctx->cwd = root_from_marker (loom_import_file_get_path (ctx->file));
    }
  if (ctx->cwd != NULL && !had_cwd)
    ctx->dirty = TRUE;
}

/* ——— Messages ——— */

/* Adds a message, or updates one seen before in this file. The framework appends the text of a
 * draft whose id it has seen; Gemini appends the whole message again each time it adds tokens or
 * tool calls, so the text is given once: the first non-empty one wins. Usage only grows: a
 * later record's placeholder tokens (zeros, or fields missing) keep the earlier figures. */
static gint64
add_message (GeminiImport     *ctx,
             LoomMessageDraft *draft,
             const char       *text,
             GError          **error)
{
  gboolean had_text = loom_json_get_int (ctx->seen, draft->source_id, 0) != 0;
  gint64   row;

  draft->text = had_text ? "" : text;
  row = loom_import_file_add_message (ctx->file, ctx->session_id, draft, error);
  if (row > 0)
    json_object_set_boolean_member (ctx->seen, draft->source_id,
                                    had_text || (text != NULL && *text != '\0'));
  return row;
}

static gboolean
add_event (GeminiImport         *ctx,
           const LoomEventDraft *event,
           GError              **error)
{
  return loom_import_file_add_event (ctx->file, ctx->session_id, event, error) > 0;
}

static gboolean
import_raw (GeminiImport   *ctx,
            const LoomJson *value,
            const char     *source_id,
            const char     *what,
            GError        **error)
{
  LoomEventDraft   event = { 0 };
  g_autofree char *payload = loom_json_value_to_string (value);

  if (!ensure_session (ctx, error))
    return FALSE;
  if (ctx->session_id == 0)
    return TRUE;

  event.kind = LOOM_EVENT_RAW;
  event.source_id = source_id;
  event.text = what;
  event.payload = payload;
  event.created_at = ctx->last_time;
  return add_event (ctx, &event, error);
}

static gboolean
import_user (GeminiImport   *ctx,
             const LoomJson *record,
             const char     *id,
             GError        **error)
{
  LoomMessageDraft draft = LOOM_MESSAGE_DRAFT_INIT;
  const LoomJson  *content = loom_json_member (record, "content");
  const LoomJson  *display = loom_json_member (record, "displayContent");
  g_autofree char *text = NULL;

  /* displayContent is what the person typed and saw; content is what went to the model, with
   * @file references expanded. The prompt is the person's words. */
  text = content_text (loom_json_type (display) != LOOM_JSON_NULL ? display : content);

  draft.source_id = id;
  draft.role = "user";
  draft.created_at = record_time (ctx, record);
  if (only_function_responses (content))
    draft.flags |= LOOM_MESSAGE_INJECTED;
  return add_message (ctx, &draft, text, error) > 0;
}

/* info, warning and error records are notices the CLI showed the person. An error (a failed API
 * call, quota, a bad command) is also an api_error event so that the timeline marks it. */
static gboolean
import_notice (GeminiImport   *ctx,
               const LoomJson *record,
               const char     *id,
               const char     *type,
               GError        **error)
{
  LoomMessageDraft draft = LOOM_MESSAGE_DRAFT_INIT;
  LoomEventDraft   event = { 0 };
  g_autofree char *text = content_text (loom_json_member (record, "content"));
  gint64           row;

  draft.source_id = id;
  draft.role = "system";
  draft.created_at = record_time (ctx, record);
  if ((row = add_message (ctx, &draft, text, error)) == 0)
    return FALSE;
  if (g_strcmp0 (type, "error") != 0)
    return TRUE;

  event.kind = LOOM_EVENT_API_ERROR;
  event.source_id = id;
  event.is_error = TRUE;
  event.text = text;
  event.created_at = draft.created_at;
  event.message_id = row;
  return add_event (ctx, &event, error);
}

static gboolean
import_thoughts (GeminiImport   *ctx,
                 const LoomJson *thoughts,
                 const char     *message_id,
                 GError        **error)
{
  guint n = loom_json_length (thoughts);

  for (guint i = 0; i < n; i++)
    {
      const LoomJson  *thought = loom_json_element (thoughts, i);
      LoomEventDraft   event = { 0 };
      g_autofree char *source_id = g_strdup_printf ("%s/thought/%u", message_id, i);
      g_autofree char *payload = loom_json_value_to_string (thought);
      g_autofree char *text = NULL;
      const char      *subject, *description;

      if (!loom_json_is_object (thought))
        {
          loom_import_file_warn (ctx->file, "message %s: thought %u is not an object", message_id,
                                 i);
          continue;
        }
      subject = loom_json_member_string (thought, "subject");
      description = loom_json_member_string (thought, "description");
      if (subject != NULL && *subject != '\0' && description != NULL && *description != '\0')
        text = g_strconcat (subject, "\n\n", description, NULL);
      else
        text = g_strdup (subject != NULL && *subject != '\0' ? subject
                         : description                       ? description
                                                             : "");

      event.kind = LOOM_EVENT_REASONING;
      event.source_id = source_id;
      event.text = text;
      event.payload = payload;
      event.created_at = record_time (ctx, thought);
      if (!add_event (ctx, &event, error))
        return FALSE;
    }
  return TRUE;
}

/* The functionResponse part of a tool call's result: [{functionResponse{id, name, response}}],
 * sometimes preceded by the functionCall part (cancelled calls) or followed by inlineData. */
static const LoomJson *
find_function_response (const LoomJson *result,
                        const char     *call_id)
{
  const LoomJson *first = NULL;

  if (loom_json_is_object (result))
    return loom_json_member_object (result, "functionResponse");
  if (!loom_json_is_array (result))
    return NULL;

  for (gsize i = 0; i < loom_json_length (result); i++)
    {
      const LoomJson *part = loom_json_element (result, i);
      const LoomJson *response;

      if (!loom_json_is_object (part) ||
          !(response = loom_json_member_object (part, "functionResponse")))
        continue;
      if (call_id == NULL || g_strcmp0 (loom_json_member_string (response, "id"), call_id) == 0)
        return response;
      if (first == NULL)
        first = response;
    }
  return first;
}

static gboolean
is_finished (const char *status)
{
  return g_strcmp0 (status, "success") == 0 || g_strcmp0 (status, "error") == 0 ||
         g_strcmp0 (status, "cancelled") == 0;
}

/* What the model got back: response{output} or response{error}. A cancelled call returns
 * {error: "[Operation Cancelled] …"} to the model, so it counts as an error like a failed one. */
static gboolean
import_tool_result (GeminiImport   *ctx,
                    const LoomJson *call,
                    const char     *call_id,
                    const char     *name,
                    gint64          created_at,
                    gint64          message_row,
                    gboolean       *is_error,
                    GError        **error)
{
  const char      *status = loom_json_member_string (call, "status");
  const LoomJson  *result = loom_json_member (call, "result");
  const LoomJson  *function_response = find_function_response (result, call_id);
  const LoomJson  *response = loom_json_member_object (function_response, "response");
  const LoomJson  *display = loom_json_member (call, "resultDisplay");
  LoomEventDraft   event = { 0 };
  g_autofree char *payload = NULL;
  g_autofree char *owned = NULL;
  const char      *text = NULL;

  *is_error = g_strcmp0 (status, "error") == 0 || g_strcmp0 (status, "cancelled") == 0;

  if (function_response != NULL)
    {
      payload = loom_json_value_to_string (result);
      if (response != NULL && loom_json_member (response, "error") != NULL)
        *is_error = TRUE;
      if ((text = loom_json_member_string (response, "output")) == NULL &&
          (text = loom_json_member_string (response, "error")) == NULL)
        text = owned = loom_json_value_to_string (loom_json_member (function_response, "response"));
    }
  else if (is_finished (status))
    {
      /* A finished call whose result was not kept still returned something to the model; what
       * the person saw of it is all there is. */
      payload = loom_json_value_to_string (display);
      if (loom_json_is_string (display))
        text = loom_json_string (display);
      else
        text = payload;
    }
  else
    return TRUE; /* still running when the record was written: a later record brings it */

  event.kind = LOOM_EVENT_TOOL_RESULT;
  event.source_id = call_id;
  event.call_id = call_id;
  event.tool_name = name;
  event.is_error = *is_error;
  event.text = text;
  event.payload = payload;
  event.created_at = created_at;
  event.message_id = message_row;
  return add_event (ctx, &event, error);
}

static const char *
file_change_kind (const char *tool)
{
  if (g_strcmp0 (tool, "write_file") == 0)
    return "write";
  if (g_strcmp0 (tool, "replace") == 0 || g_strcmp0 (tool, "edit") == 0 ||
      g_strcmp0 (tool, "smart_edit") == 0)
    return "edit";
  return NULL;
}

/* write_file and replace change a file only when they succeed; a failed or cancelled call left
 * it as it was. resultDisplay holds the diff the person saw. */
static gboolean
import_file_change (GeminiImport   *ctx,
                    const LoomJson *call,
                    const char     *call_id,
                    const char     *name,
                    const LoomJson *args,
                    gint64          created_at,
                    gint64          message_row,
                    GError        **error)
{
  const char      *kind = file_change_kind (name);
  const char      *status = loom_json_member_string (call, "status");
  const LoomJson  *display = loom_json_member (call, "resultDisplay");
  LoomEventDraft   event = { 0 };
  g_autofree char *payload = NULL;
  const char      *path;

  if (kind == NULL || g_strcmp0 (status, "success") != 0)
    return TRUE;
  if ((path = loom_json_member_string (args, "file_path")) == NULL &&
      (path = loom_json_member_string (args, "absolute_path")) == NULL &&
      (path = loom_json_member_string (args, "path")) == NULL)
    return TRUE;

  if (loom_json_is_object (display))
    payload = loom_json_value_to_string (display);
  else
    payload = loom_json_value_to_string (loom_json_member (call, "args"));

  event.kind = LOOM_EVENT_FILE_CHANGE;
  event.source_id = call_id;
  event.call_id = call_id;
  event.tool_name = name;
  event.path = path;
  event.change_kind = kind;
  event.text = path;
  event.payload = payload;
  event.created_at = created_at;
  event.message_id = message_row;
  return add_event (ctx, &event, error);
}

/* A tool call that ran a sub-agent carries its agentId; the sub-agent's own session is
 * chats/<this sessionId>/<its id>.jsonl. The parent's timeline marks the start right after the
 * call, as the Claude and Codex importers do, once per agent: the event's source id is the
 * agent's, so a later call of the same agent, a record seen again and a new pass add nothing. */
static gboolean
import_subagent_start (GeminiImport   *ctx,
                       const LoomJson *call,
                       const char     *call_id,
                       const char     *name,
                       const char     *args_text,
                       gint64          created_at,
                       gint64          message_row,
                       GError        **error)
{
  const char      *agent_id = loom_json_member_string (call, "agentId");
  const char      *what;
  LoomEventDraft   event = { 0 };
  g_autofree char *text = NULL;

  /* A sub-agent's own calls may name the sub-agent itself: that is no start. */
  if (agent_id == NULL || *agent_id == '\0' ||
      g_strcmp0 (agent_id, loom_json_get_string (ctx->state, STATE_SESSION)) == 0)
    return TRUE;

  if ((what = loom_json_member_string (call, "description")) == NULL || *what == '\0')
    if ((what = loom_json_member_string (call, "displayName")) == NULL || *what == '\0')
      what = name;
  text = g_strdup_printf ("%s (sub-agent %s)", what, agent_id);

  event.kind = LOOM_EVENT_SUBAGENT;
  event.source_id = agent_id;
  event.call_id = call_id;
  event.tool_name = name;
  event.text = text;
  event.payload = args_text;
  event.created_at = created_at;
  event.message_id = message_row;
  return add_event (ctx, &event, error);
}

static gboolean
import_tool_call (GeminiImport   *ctx,
                  const LoomJson *call,
                  const char     *message_id,
                  guint           index,
                  gint64          message_row,
                  GError        **error)
{
  LoomEventDraft   event = { 0 };
  g_autofree char *fallback_id = NULL;
  g_autofree char *args_text = NULL;
  const LoomJson  *args;
  const char      *call_id, *name, *command;
  gboolean         is_error = FALSE;

  if (!loom_json_is_object (call))
    {
      loom_import_file_warn (ctx->file, "message %s: tool call %u is not an object", message_id,
                             index);
      return TRUE;
    }
  if ((call_id = loom_json_member_string (call, "id")) == NULL || *call_id == '\0')
    call_id = fallback_id = g_strdup_printf ("%s/call/%u", message_id, index);
  if ((name = loom_json_member_string (call, "name")) == NULL)
    name = "unknown";
  args = loom_json_member_object (call, "args");
  args_text = loom_json_value_to_string (loom_json_member (call, "args"));

  event.kind = LOOM_EVENT_TOOL_CALL;
  event.source_id = call_id;
  event.call_id = call_id;
  event.tool_name = name;
  /* A shell call reads best as its command line; other calls as their arguments. */
  command = loom_json_member_string (args, "command");
  event.text = command != NULL ? command : args_text;
  event.payload = args_text;
  event.created_at = record_time (ctx, call);
  event.message_id = message_row;
  if (!add_event (ctx, &event, error) ||
      !import_subagent_start (ctx, call, call_id, name, args_text, event.created_at, message_row,
                              error))
    return FALSE;

  return import_tool_result (ctx, call, call_id, name, event.created_at, message_row, &is_error,
                             error) &&
         import_file_change (ctx, call, call_id, name, args, event.created_at, message_row, error);
}

/* A gemini message: the reply, its model and usage, the thoughts that led to it and the tools it
 * called, with their results inside the same record. */
static gboolean
import_gemini (GeminiImport   *ctx,
               const LoomJson *record,
               const char     *id,
               GError        **error)
{
  LoomMessageDraft draft = LOOM_MESSAGE_DRAFT_INIT;
  g_autofree char *text = content_text (loom_json_member (record, "content"));
  const LoomJson  *calls = loom_json_member_array (record, "toolCalls");
  guint            n_calls = loom_json_length (calls);
  gint64           row;

  draft.source_id = id;
  draft.role = "assistant";
  draft.model = loom_json_member_string (record, "model");
  draft.created_at = record_time (ctx, record);
  set_usage (&draft, loom_json_member_object (record, "tokens"));

  /* Thoughts come before the reply they led to. */
  if (!import_thoughts (ctx, loom_json_member_array (record, "thoughts"), id, error))
    return FALSE;
  if ((row = add_message (ctx, &draft, text, error)) == 0)
    return FALSE;

  for (guint i = 0; i < n_calls; i++)
    if (!import_tool_call (ctx, loom_json_element (calls, i), id, i, row, error))
      return FALSE;
  return TRUE;
}

static gboolean
import_message (GeminiImport   *ctx,
                const LoomJson *record,
                GError        **error)
{
  const char      *id = loom_json_member_string (record, "id");
  const char      *type = loom_json_member_string (record, "type");
  g_autofree char *raw_id = NULL;
  g_autofree char *label = NULL;

  if (!ensure_session (ctx, error))
    return FALSE;
  if (ctx->session_id == 0)
    return TRUE;

  if (g_strcmp0 (type, "user") == 0)
    return import_user (ctx, record, id, error);
  if (g_strcmp0 (type, "gemini") == 0)
    return import_gemini (ctx, record, id, error);
  if (g_strcmp0 (type, "info") == 0 || g_strcmp0 (type, "warning") == 0 ||
      g_strcmp0 (type, "error") == 0)
    return import_notice (ctx, record, id, type, error);

  raw_id = g_strdup_printf ("message/%s", id);
  label = g_strdup_printf ("Unknown Gemini CLI message type: %s", type ? type : "(none)");
  return import_raw (ctx, record, raw_id, label, error);
}

/* ——— JSON Lines records ——— */

static gboolean
import_metadata_line (GeminiImport   *ctx,
                      const LoomJson *record,
                      GError        **error)
{
  const char *session = loom_json_member_string (record, "sessionId");
  const char *known = loom_json_get_string (ctx->state, STATE_SESSION);

  if (known != NULL && g_strcmp0 (known, session) != 0)
    {
      loom_import_file_warn (ctx->file, "a second session id (%s) in the file was ignored",
                             session);
      return TRUE;
    }
  if (known == NULL)
    json_object_set_string_member (ctx->state, STATE_SESSION, session);
  take_metadata (ctx, record);
  return write_session (ctx, error);
}

/* {"$set":{…}}: summary, lastUpdated, directories, and — when the CLI syncs its history — the
 * whole message list again. */
static gboolean
import_update (GeminiImport   *ctx,
               const LoomJson *update,
               GError        **error)
{
  const LoomJson *messages = loom_json_member_array (update, "messages");
  guint           n = loom_json_length (messages);

  take_metadata (ctx, update);
  for (guint i = 0; i < n; i++)
    {
      const LoomJson *message = loom_json_element (messages, i);

      if (!loom_json_is_object (message) || loom_json_member_string (message, "id") == NULL)
        {
          loom_import_file_warn (ctx->file, "message %u of a $set has no id and was skipped", i);
          continue;
        }
      if (!import_message (ctx, message, error))
        return FALSE;
    }
  return TRUE;
}

/* {"$rewindTo": id}: the person went back to before message @id. The CLI drops that message and
 * every later one from the conversation it resumes; here they stay (they were said, their tools
 * ran, their tokens were spent) and the rewind is marked in the timeline. */
static gboolean
import_rewind (GeminiImport   *ctx,
               const LoomJson *record,
               const char     *target,
               GError        **error)
{
  LoomEventDraft   event = { 0 };
  g_autofree char *source_id = NULL;
  g_autofree char *text = NULL;
  g_autofree char *payload = NULL;

  if (!ensure_session (ctx, error))
    return FALSE;
  if (ctx->session_id == 0)
    return TRUE;

  /* The line number is stable: the file only grows, and a rewrite clears the file's rows. */
  source_id = g_strdup_printf ("rewind/%" G_GUINT64_FORMAT, loom_import_file_get_line (ctx->file));
  text = g_strdup_printf ("Rewound to before message %s", target);
  payload = loom_json_value_to_string (record);

  event.kind = LOOM_EVENT_LIFECYCLE;
  event.source_id = source_id;
  event.text = text;
  event.payload = payload;
  event.created_at = ctx->last_time;
  return add_event (ctx, &event, error);
}

/* The same order as the CLI's own loader (loadConversationRecord): rewind, message, update,
 * metadata. */
static gboolean
import_record (GeminiImport   *ctx,
               const LoomJson *record,
               GError        **error)
{
  g_autofree char *raw_id = NULL;
  g_autofree char *label = NULL;
  const LoomJson  *update;
  const char      *target, *type;

  raw_id = g_strdup_printf ("line/%" G_GUINT64_FORMAT, loom_import_file_get_line (ctx->file));
  if (!loom_json_is_object (record))
    return import_raw (ctx, record, raw_id, "Unknown Gemini CLI record", error);

  if ((target = loom_json_member_string (record, "$rewindTo")) != NULL)
    return import_rewind (ctx, record, target, error);
  if (loom_json_member_string (record, "id") != NULL)
    return import_message (ctx, record, error);
  if ((update = loom_json_member_object (record, "$set")) != NULL)
    return import_update (ctx, update, error);
  if (loom_json_member_string (record, "sessionId") != NULL &&
      loom_json_member_string (record, "projectHash") != NULL)
    return import_metadata_line (ctx, record, error);

  type = loom_json_member_string (record, "type");
  label = g_strdup_printf ("Unknown Gemini CLI record%s%s", type ? ": " : "", type ? type : "");
  return import_raw (ctx, record, raw_id, label, error);
}

static gboolean
import_lines (GeminiImport *ctx,
              GError      **error)
{
  const LoomJson *record;

  while (loom_import_file_next_record (ctx->file, &record))
    if (!import_record (ctx, record, error))
      return FALSE;
  return TRUE;
}

/* ——— The legacy document ——— */

static gboolean
import_document (GeminiImport *ctx,
                 GError      **error)
{
  const LoomJson *document, *messages;
  guint           n;

  /* A document that does not parse may be half-written (the CLI rewrites it in place): failing
   * the file keeps its cursor, so the next pass reads it again. */
  if ((document = loom_import_file_read_document (ctx->file, error)) == NULL)
    return FALSE;

  /* Emptied, or cut short before its first member, while the CLI rewrites it: reading it said
   * so already, and the next pass reads it whole. */
  if (loom_json_is_object (document) && loom_json_length (document) == 0)
    return TRUE;
  if (!loom_json_is_object (document) || loom_json_member_string (document, "sessionId") == NULL)
    {
      loom_import_file_warn (ctx->file, "not a Gemini CLI session: no sessionId");
      return TRUE;
    }
  json_object_set_string_member (ctx->state, STATE_SESSION,
                                 loom_json_member_string (document, "sessionId"));
  take_metadata (ctx, document);
  if (!write_session (ctx, error))
    return FALSE;

  messages = loom_json_member_array (document, "messages");
  n = loom_json_length (messages);
  for (guint i = 0; i < n; i++)
    {
      const LoomJson  *message = loom_json_element (messages, i);
      g_autofree char *raw_id = NULL;

      /* A message the framework could not read (too deep, malformed) is a null in its place,
       * already reported with its line. */
      if (loom_json_type (message) == LOOM_JSON_NULL)
        continue;
      if (loom_json_is_object (message) && loom_json_member_string (message, "id") != NULL)
        {
          if (!import_message (ctx, message, error))
            return FALSE;
          continue;
        }
      raw_id = g_strdup_printf ("messages/%u", i);
      if (!import_raw (ctx, message, raw_id, "Gemini CLI message without an id", error))
        return FALSE;
    }
  return TRUE;
}

/* ——— The format ——— */

/* A session starts with its metadata: on the first line of a .jsonl, or at the top of a
 * pretty-printed .json. The CLI's own loader does not insist on the first line, so any line of
 * the head that is an object with both keys will do. Claude's records carry a sessionId too, but
 * never a projectHash; inside a JSON string the quotes around the names would be escaped. */
static gboolean
head_looks_like_session (const char *head,
                         gsize       head_len)
{
  const char *p = head, *end = head + head_len;

  if (head_len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;

  while (p < end)
    {
      const char *line_end;
      gsize       span;

      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p >= end)
        break;
      line_end = memchr (p, '\n', (gsize)(end - p));
      span = (gsize)((line_end != NULL ? line_end : end) - p);

      if (*p == '{')
        {
          if (span <= 2) /* "{" alone: a pretty-printed document */
            span = MIN ((gsize)(end - p), (gsize)PRETTY_HEAD_LIMIT);
          if (g_strstr_len (p, (gssize)span, "\"sessionId\"") != NULL &&
              g_strstr_len (p, (gssize)span, "\"projectHash\"") != NULL)
            return TRUE;
        }
      if (line_end == NULL)
        break;
      p = line_end + 1;
    }
  return FALSE;
}

/* An empty file passes: the agent empties a document before writing it again, and a pass that
 * finds it so must say that it waits for the rest, not that it is some other file. */
static gboolean
file_looks_like_session (const char *path)
{
  g_autofree char *head = g_malloc (HEAD_LIMIT);
  ssize_t          n;
  int              fd;

  if ((fd = g_open (path, O_RDONLY | O_CLOEXEC, 0)) < 0)
    return FALSE;
  n = read (fd, head, HEAD_LIMIT);
  close (fd);
  return n == 0 || (n > 0 && head_looks_like_session (head, (gsize)n));
}

static char **
gemini_default_roots (void)
{
  /* The CLI's homedir() is $GEMINI_CLI_HOME when set; .gemini is a fixed name beneath it. */
  const char *home = g_getenv ("GEMINI_CLI_HOME");
  char      **roots = g_new0 (char *, 2);

  if (home == NULL || *home == '\0')
    home = g_get_home_dir ();
  roots[0] = g_build_filename (home, ".gemini", "tmp", NULL);
  return roots;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

/* The entries of @dir, sorted so that imports run in a stable order. */
static GPtrArray *
list_sorted (const char *dir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static gboolean
is_plain_dir (const char *path)
{
  GStatBuf st;

  return g_lstat (path, &st) == 0 && S_ISDIR (st.st_mode);
}

static gboolean
is_plain_file (const char *path)
{
  GStatBuf st;

  return g_lstat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/* Discovery's rules, which claims follows too. Below the root, down to DISCOVER_DEPTH, it takes
 * session-*.json(l) files; a chats folder holds the same, and one folder per parent session
 * with its sub-agents' <sessionId>.jsonl. Each folder on the way down is a place that decides
 * which folders below it are entered and which files in it are taken. */
typedef enum
{
  PLACE_NONE, /* not entered */
  PLACE_TREE, /* the root and the folders below it, but chats */
  PLACE_CHATS,
  PLACE_SUBAGENTS, /* chats/<parentSessionId>/ */
} PlaceKind;

typedef struct
{
  PlaceKind kind;
  guint     depth; /* below the root, in the tree */
} Place;

static Place
root_place (const char *root)
{
  g_autofree char *canonical = g_canonicalize_filename (root, NULL);
  g_autofree char *name = g_path_get_basename (canonical);

  if (g_strcmp0 (name, "chats") == 0)
    return (Place){ PLACE_CHATS, 0 };
  return (Place){ PLACE_TREE, 0 };
}

/* The place of the folder @name in @place: PLACE_NONE when discovery does not enter it. */
static Place
enter_folder (Place       place,
              const char *name)
{
  switch (place.kind)
    {
    case PLACE_TREE:
      if (g_strcmp0 (name, "chats") == 0)
        return (Place){ PLACE_CHATS, 0 };
      if (place.depth < DISCOVER_DEPTH)
        return (Place){ PLACE_TREE, place.depth + 1 };
      break;

    case PLACE_CHATS:
      return (Place){ PLACE_SUBAGENTS, 0 };

    case PLACE_SUBAGENTS:
    case PLACE_NONE:
    default:
      break;
    }
  return (Place){ PLACE_NONE, 0 };
}

/* Whether a plain file named @name in @place is a session, unless a migrated document. */
static gboolean
takes_file (Place       place,
            const char *name)
{
  switch (place.kind)
    {
    case PLACE_TREE:
    case PLACE_CHATS:
      return is_session_name (name);

    case PLACE_SUBAGENTS:
      return g_str_has_suffix (name, ".jsonl");

    case PLACE_NONE:
    default:
      return FALSE;
    }
}

static void
discover_in (const char *dir,
             Place       place,
             GPtrArray  *files)
{
  g_autoptr (GPtrArray) names = list_sorted (dir);

  for (guint i = 0; i < names->len; i++)
    {
      const char      *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (is_plain_dir (path))
        {
          Place inner = enter_folder (place, name);

          if (inner.kind != PLACE_NONE)
            discover_in (path, inner, files);
        }
      else if (takes_file (place, name) && is_plain_file (path) && !is_migrated_document (path))
        {
          g_ptr_array_add (files, g_steal_pointer (&path));
        }
    }
}

static void
gemini_discover (const char *root,
                 GPtrArray  *files)
{
  discover_in (root, root_place (root), files);
}

static gboolean
gemini_claims (const char *root,
               const char *path)
{
  g_auto (GStrv) parts = loom_importer_split_path (root, path);
  Place    place;
  GStatBuf st;
  guint    n;

  if (parts == NULL)
    return FALSE;
  n = g_strv_length (parts);
  place = root_place (root);
  for (guint i = 0; i + 1 < n && place.kind != PLACE_NONE; i++)
    place = enter_folder (place, parts[i]);

  /* A file that is gone was a plain one. */
  return takes_file (place, parts[n - 1]) && (g_lstat (path, &st) != 0 || S_ISREG (st.st_mode)) &&
         !is_migrated_document (path);
}

static gboolean
gemini_detect (const char *path,
               const char *head,
               gsize       head_len)
{
  g_autofree char *name = g_path_get_basename (path);

  if (is_companion_name (name))
    return FALSE;
  return head_looks_like_session (head, head_len);
}

static gboolean
gemini_import_file (LoomImportFile *file,
                    GError        **error)
{
  const char      *path = loom_import_file_get_path (file);
  g_autofree char *name = g_path_get_basename (path);
  GeminiImport     ctx = { 0 };
  gboolean         ok;

  /* With --source gemini every .json and .jsonl of a folder arrives here, unsniffed; a file
   * read from where it stopped was a session on its first pass. */
  if (is_companion_name (name) || is_migrated_document (path))
    return TRUE;
  if (loom_import_file_is_reset (file) && !file_looks_like_session (path))
    {
      loom_import_file_warn (file, "not a Gemini CLI session file");
      return TRUE;
    }

  ctx.file = file;
  ctx.state = loom_import_file_get_state (file);
  if (loom_import_file_is_reset (file))
    {
      json_object_remove_member (ctx.state, STATE_SESSION);
      json_object_remove_member (ctx.state, STATE_HASH);
      json_object_remove_member (ctx.state, STATE_SEEN);
    }
  if ((ctx.seen = loom_json_get_object (ctx.state, STATE_SEEN)) == NULL)
    {
      ctx.seen = json_object_new ();
      json_object_set_object_member (ctx.state, STATE_SEEN, ctx.seen);
    }
  ctx.parent_id = parent_id_from_path (path);

  if (g_str_has_suffix (path, ".json"))
    ok = import_document (&ctx, error);
  else
    ok = import_lines (&ctx, error);

  /* $set records changed the title or the last update: write them once, at the end — also when
   * an appending pass brought nothing but $set lines. */
  if (ok && ctx.dirty && !ctx.deleted && loom_json_get_string (ctx.state, STATE_SESSION) != NULL)
    ok = write_session (&ctx, error);

  gemini_import_clear (&ctx);
  return ok;
}

static const LoomImporter importer = {
  .name = SOURCE_NAME,
  .title = "Gemini CLI",
  .default_roots = gemini_default_roots,
  .discover = gemini_discover,
  .claims = gemini_claims,
  .detect = gemini_detect,
  /* Legacy .json files are whole documents, .jsonl files are appended to: the framework reads
   * any changed .json again in full, and a .jsonl from where it stopped. */
  .whole_document = FALSE,
  .import_file = gemini_import_file,
};

const LoomImporter *
loom_importer_gemini (void)
{
  return &importer;
}
