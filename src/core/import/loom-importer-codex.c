/* loom-importer-codex.c — OpenAI Codex CLI rollouts (FORMATS.md §2).
 *
 * Three generations share this importer:
 *  - the envelope (0.4x onwards): every line is {timestamp, type, payload}, type one of
 *    session_meta / turn_context / response_item / event_msg / compacted / …;
 *  - codex-rs before the envelope (summer 2025): a bare {id, timestamp, instructions, git?} first
 *    line, then bare ResponseItems and {"record_type":"state"} lines;
 *  - the original TypeScript CLI: one JSON document {session:{…}, items:[ResponseItem…]} in a
 *    `.json` file. The framework has one whole_document flag per format and Codex is JSON Lines,
 *    so a `.json` path is read with loom_import_file_read_document() inside import_file().
 *
 * The main trap is double bookkeeping: Codex writes each prompt, reply and reasoning twice, as a
 * response_item (the model-visible history) and as an event_msg (what the UI showed). The
 * response_items are the source of truth here: they carry the full content list, the role that
 * tells injected context apart, the reasoning summary and encrypted content, and they are the
 * only copy in the pre-envelope and TypeScript generations. The event_msg duplicates
 * (user_message, agent_message, agent_reasoning, web_search_end, context_compacted) are skipped;
 * the harness-only events (token counts, command exit codes, patch results, turn lifecycle,
 * thread names) are used. Tool calls and their results are in loom-importer-codex-tools.c.
 *
 * A rollout is the session of its first session_meta's id, the one `codex resume <id>` takes
 * and the uuid the file name ends in while the file keeps its name. A later session_meta with
 * another id is history copied from the session this one was forked from. A sub-agent's parent
 * is the parent_thread_id of its session_meta source.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-importer-codex-private.h"
#include "loom-time.h"

#define CODEX_SOURCE "codex"

/* Text that Codex puts in role:user items itself (codex-rs contextual user fragments, plus the
 * older <user_instructions> and the developer-side <permissions instructions>). Matched at the
 * start of a content part, ignoring case and leading blanks, as Codex does. */
static const char *const injected_markers[] = { "<environment_context>",
                                                "# AGENTS.md instructions for",
                                                "<permissions instructions>",
                                                "<user_instructions>",
                                                "<INSTRUCTIONS>",
                                                "<skill>",
                                                "<turn_aborted>",
                                                "<subagents>",
                                                "<subagent_notification>",
                                                NULL };

/* A shell command the person ran with `!`: typed by them, but not a prompt to the model. */
#define COMMAND_MARKER "<user_shell_command>"

/* ——— small helpers ——— */

static gboolean
str_has_prefix_nocase (const char *text,
                       const char *prefix)
{
  return g_ascii_strncasecmp (text, prefix, strlen (prefix)) == 0;
}

/* ——— per-file state ——— */

static JsonObject *
state_map (CodexImport *ci,
           const char  *name)
{
  JsonObject *map = loom_json_get_object (ci->state, name);

  if (map == NULL)
    {
      map = json_object_new ();
      json_object_set_object_member (ci->state, name, map);
    }
  return map;
}

void
loom_codex_state_set_string (CodexImport *ci,
                             const char  *name,
                             const char  *key,
                             const char  *value)
{
  JsonObject *map = state_map (ci, name);

  if (json_object_get_size (map) >= CODEX_MAX_PENDING)
    {
      /* Calls that never got a result: forget them rather than grow. */
      json_object_remove_member (ci->state, name);
      map = state_map (ci, name);
    }
  json_object_set_string_member (map, key, value);
}

void
loom_codex_state_set_bool (CodexImport *ci,
                           const char  *name,
                           const char  *key,
                           gboolean     value)
{
  JsonObject *map = state_map (ci, name);

  if (json_object_get_size (map) >= CODEX_MAX_PENDING)
    {
      json_object_remove_member (ci->state, name);
      map = state_map (ci, name);
    }
  json_object_set_boolean_member (map, key, value);
}

void
loom_codex_state_remove (CodexImport *ci,
                         const char  *name,
                         const char  *key)
{
  JsonObject *map = loom_json_get_object (ci->state, name);

  if (map != NULL && key != NULL && json_object_has_member (map, key))
    json_object_remove_member (map, key);
}

static void
state_clear (JsonObject *state)
{
  GList *members = json_object_get_members (state);

  for (GList *l = members; l != NULL; l = l->next)
    json_object_remove_member (state, l->data);
  g_list_free (members);
}

/* ——— the session ——— */

/* rollout-2026-03-02T10-15-42-019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77.jsonl → the uuid. */
static char *
session_id_from_name (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  char            *dot = strrchr (base, '.');
  gsize            len;
  const char      *tail;

  if (dot != NULL)
    *dot = '\0';
  len = strlen (base);
  if (len < 36)
    return NULL;
  tail = base + len - 36;
  for (guint i = 0; i < 36; i++)
    {
      gboolean dash = i == 8 || i == 13 || i == 18 || i == 23;

      if (dash ? tail[i] != '-' : !g_ascii_isxdigit (tail[i]))
        return NULL;
    }
  return g_strdup (tail);
}

/* Creates or updates the session; afterwards ci->session is its row id, or ci->deleted is set. */
static gboolean
codex_open_session (CodexImport       *ci,
                    LoomSessionRecord *meta)
{
  gint64 id;

  if (ci->error != NULL)
    return FALSE;
  g_clear_pointer (&meta->source, g_free);
  meta->source = g_strdup (CODEX_SOURCE);
  id = loom_import_file_session (ci->file, meta, &ci->error);
  if (id == 0)
    {
      ci->deleted = ci->error == NULL;
      ci->session = 0;
      return FALSE;
    }
  ci->session = id;
  if (loom_json_get_string (ci->state, STATE_SESSION) == NULL)
    json_object_set_string_member (ci->state, STATE_SESSION, meta->source_session_id);
  return TRUE;
}

/* The session row for a record: the one this file already belongs to, else the id in the file
 * name (a file whose session_meta was lost still imports), else the file name itself. */
gboolean
loom_codex_session_ready (CodexImport *ci)
{
  g_autoptr (LoomSessionRecord) meta = NULL;
  const char *known;

  if (ci->session != 0)
    return TRUE;
  if (ci->deleted || ci->error != NULL)
    return FALSE;

  meta = loom_session_record_new ();
  known = loom_json_get_string (ci->state, STATE_SESSION);
  if (known != NULL)
    meta->source_session_id = g_strdup (known);
  else if (ci->name_id != NULL)
    meta->source_session_id = g_strdup (ci->name_id);
  else
    meta->source_session_id = g_path_get_basename (loom_import_file_get_path (ci->file));
  return codex_open_session (ci, meta);
}

/* session_meta.source is "cli", "vscode", "exec"… for a person's session, and an object such as
 * {"subagent":{"thread_spawn":{"parent_thread_id":…}}} for a sub-agent thread [source only]; the
 * nesting has changed between releases, so the parent id is looked for at any depth. */
static const char *
find_parent_thread_id (const LoomJson *object,
                       guint           depth)
{
  const char *found;

  if (!loom_json_is_object (object) || depth > 4)
    return NULL;
  if ((found = loom_json_member_string (object, "parent_thread_id")) != NULL)
    return found;
  for (gsize i = 0; i < loom_json_length (object); i++)
    if ((found = find_parent_thread_id (loom_json_element (object, i), depth + 1)) != NULL)
      return found;
  return NULL;
}

static void
codex_fill_meta (CodexImport       *ci,
                 const LoomJson    *payload,
                 LoomSessionRecord *meta)
{
  const LoomJson *git = loom_json_member_object (payload, "git");
  const LoomJson *source = loom_json_member_object (payload, "source");
  const char     *cwd = loom_json_member_string (payload, "cwd");

  meta->cwd = g_strdup (cwd);
  meta->agent_version = g_strdup (loom_json_member_string (payload, "cli_version"));
  meta->selected_agent_id = g_strdup (loom_json_member_string (payload, "originator"));
  meta->git_branch = g_strdup (loom_json_member_string (git, "branch"));
  meta->git_commit = g_strdup (loom_json_member_string (git, "commit_hash"));
  /* Objects also name internal and custom sources ({"internal":"memory_consolidation"}): only
   * a sub-agent source, or one that names a parent thread, makes a child session. */
  if (source != NULL)
    {
      const char *parent = find_parent_thread_id (source, 0);

      if (parent != NULL || loom_json_member (source, "subagent") != NULL ||
          loom_json_member (source, "sub_agent") != NULL)
        meta->session_type = g_strdup ("subagent");
      meta->parent_uuid = g_strdup (parent);
    }
  if (!is_empty (cwd))
    {
      json_object_set_boolean_member (ci->state, STATE_HAS_CWD, TRUE);
      if (loom_json_get_string (ci->state, STATE_CWD) == NULL)
        json_object_set_string_member (ci->state, STATE_CWD, cwd);
    }
}

/* session_meta (and the bare first line before the envelope). Codex appends it again, same id,
 * on every resume (3× and 5× seen): the first one creates the session, the others only update
 * its metadata (a resume with a newer CLI updates agent_version). */
static void
codex_session_meta (CodexImport    *ci,
                    const LoomJson *payload)
{
  g_autoptr (LoomSessionRecord) meta = loom_session_record_new ();
  const char *id = loom_json_member_string (payload, "id");
  const char *known = loom_json_get_string (ci->state, STATE_SESSION);

  if (id == NULL)
    id = loom_json_member_string (payload, "session_id");
  if (id == NULL)
    {
      loom_import_file_warn (ci->file, "session_meta without an id");
      return;
    }

  /* The first session_meta is the file's own (`codex resume <id>` takes its id): a rollout
   * renamed, or copied under another session's name, keeps it only there. Earlier versions
   * took the file name's id when the two disagreed: that session is re-keyed. */
  if (known == NULL && ci->name_id != NULL && g_ascii_strcasecmp (id, ci->name_id) != 0 &&
      !loom_import_file_rekey (ci->file, CODEX_SOURCE, ci->name_id, id, &ci->error))
    known = ci->name_id; /* another file's session has the id: this one keeps its own */
  if (ci->error != NULL)
    return;

  if (known != NULL && g_ascii_strcasecmp (id, known) != 0)
    {
      /* Another session's metadata inside this file: history copied from the session this one
       * was forked from. Keep the fact, not the identity. */
      g_autofree char *text = g_strdup_printf ("Continues session %s", id);
      g_autofree char *source_id = g_strdup_printf ("fork:%s", id);
      LoomEventDraft   event = { 0 };

      if (!loom_codex_session_ready (ci))
        return;
      event.kind = LOOM_EVENT_LIFECYCLE;
      event.source_id = source_id;
      event.text = text;
      loom_codex_add_event (ci, &event);
      return;
    }

  meta->source_session_id = g_strdup (id);
  codex_fill_meta (ci, payload, meta);
  /* Only the first session_meta dates the session: a resume's copy may carry the resume time. */
  if (known == NULL)
    meta->created_at = loom_time_from_iso (loom_json_member_string (payload, "timestamp"));
  codex_open_session (ci, meta);
}

/* Updates session metadata after the session exists (agent mode, title, late cwd). */
static void
codex_update_session (CodexImport       *ci,
                      LoomSessionRecord *meta)
{
  if (!loom_codex_session_ready (ci))
    return;
  /* loom_codex_session_ready() recorded which session this file belongs to. */
  meta->source_session_id = g_strdup (loom_json_get_string (ci->state, STATE_SESSION));
  if (meta->source_session_id == NULL)
    return;
  codex_open_session (ci, meta);
}

/* The pre-envelope generation has no cwd in its first line; its <environment_context> has. */
static void
codex_cwd_from_context (CodexImport *ci,
                        const char  *text)
{
  g_autoptr (LoomSessionRecord) meta = NULL;
  const char *start = strstr (text, "<cwd>");
  const char *end;

  if (start == NULL || loom_json_get_int (ci->state, STATE_HAS_CWD, 0))
    return;
  start += strlen ("<cwd>");
  end = strstr (start, "</cwd>");
  if (end == NULL || end == start)
    return;

  meta = loom_session_record_new ();
  meta->cwd = g_strndup (start, end - start);
  json_object_set_boolean_member (ci->state, STATE_HAS_CWD, TRUE);
  if (loom_json_get_string (ci->state, STATE_CWD) == NULL)
    json_object_set_string_member (ci->state, STATE_CWD, meta->cwd);
  codex_update_session (ci, meta);
}

/* ——— writing ——— */

void
loom_codex_add_event (CodexImport    *ci,
                      LoomEventDraft *event)
{
  if (ci->error != NULL || ci->session == 0)
    return;
  if (event->source_id == NULL)
    event->source_id = ci->source_id;
  if (event->created_at == 0)
    event->created_at = ci->time;
  loom_import_file_add_event (ci->file, ci->session, event, &ci->error);
}

static void
codex_add_message (CodexImport      *ci,
                   LoomMessageDraft *message)
{
  if (ci->error != NULL || ci->session == 0)
    return;
  if (message->source_id == NULL)
    message->source_id = ci->source_id;
  if (message->created_at == 0)
    message->created_at = ci->time;
  loom_import_file_add_message (ci->file, ci->session, message, &ci->error);
}

/* Keeps the record whole: a type we do not know yet, or one of a known type in a shape we do not
 * understand. */
static void
codex_add_raw (CodexImport    *ci,
               const LoomJson *record,
               const char     *what)
{
  g_autofree char *payload = loom_json_value_to_string (record);
  LoomEventDraft   event = { 0 };

  if (!loom_codex_session_ready (ci))
    return;
  event.kind = LOOM_EVENT_RAW;
  event.text = what != NULL ? what : "unknown record";
  event.payload = payload;
  loom_codex_add_event (ci, &event);
}

/* ——— content ——— */

/* Whether a text part is one of the fragments Codex injects, or a `!` shell command. */
static void
classify_fragment (const char *piece,
                   gboolean   *injected,
                   gboolean   *command)
{
  const char *start = skip_blanks (piece);

  for (guint m = 0; injected_markers[m] != NULL; m++)
    if (str_has_prefix_nocase (start, injected_markers[m]))
      *injected = TRUE;
  if (str_has_prefix_nocase (start, COMMAND_MARKER))
    *command = TRUE;
}

/* The text of a content list: input_text / output_text / text parts, images as a marker. */
char *
loom_codex_content_text (const LoomJson *content,
                         gboolean       *injected,
                         gboolean       *command)
{
  g_autoptr (GString) text = g_string_new (NULL);

  if (loom_json_string (content) != NULL)
    {
      classify_fragment (loom_json_string (content), injected, command);
      return g_strdup (loom_json_string (content));
    }
  if (!loom_json_is_array (content))
    return NULL;

  for (gsize i = 0; i < loom_json_length (content); i++)
    {
      /* The member accessors answer NULL for a part that is not an object. */
      const LoomJson *part = loom_json_element (content, i);
      const char     *type = loom_json_member_string (part, "type");
      const char     *piece = loom_json_member_string (part, "text");

      if (piece == NULL && g_strcmp0 (type, "refusal") == 0)
        piece = loom_json_member_string (part, "refusal");
      if (piece == NULL && type != NULL && g_str_has_suffix (type, "image"))
        piece = "[image]";
      if (piece == NULL)
        continue;

      /* Codex itself treats a message as context as soon as one part is a fragment. */
      if (g_strcmp0 (type, "input_text") == 0)
        classify_fragment (piece, injected, command);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, piece);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* ——— response items ——— */

static void
codex_message (CodexImport    *ci,
               const LoomJson *payload)
{
  LoomMessageDraft message = LOOM_MESSAGE_DRAFT_INIT;
  const char      *role = loom_json_member_string (payload, "role");
  gboolean         injected = FALSE;
  gboolean         command = FALSE;
  g_autofree char *text = NULL;

  text = loom_codex_content_text (loom_json_member (payload, "content"), &injected, &command);
  if (!loom_codex_session_ready (ci))
    return;

  if (g_strcmp0 (role, "assistant") == 0)
    {
      message.role = "assistant";
      message.model = loom_json_get_string (ci->state, STATE_MODEL);
    }
  else if (g_strcmp0 (role, "user") == 0)
    {
      message.role = "user";
      if (command)
        message.flags |= LOOM_MESSAGE_COMMAND;
      else if (injected)
        message.flags |= LOOM_MESSAGE_INJECTED;
      if (injected && text != NULL)
        codex_cwd_from_context (ci, text);
    }
  else
    {
      /* developer / system: the harness's instructions, never typed by the person. */
      message.role = "system";
      message.flags |= LOOM_MESSAGE_INJECTED;
    }
  message.text = text != NULL ? text : "";
  codex_add_message (ci, &message);
}

/* agent_message{author, recipient, content} (0.14x multi-agent): what a sub-agent reported to
 * this thread. It reaches the model like a user item, but no person typed it. */
static void
codex_agent_message (CodexImport    *ci,
                     const LoomJson *payload)
{
  LoomMessageDraft message = LOOM_MESSAGE_DRAFT_INIT;
  gboolean         injected = FALSE;
  gboolean         command = FALSE;
  g_autofree char *body = loom_codex_content_text (loom_json_member (payload, "content"), &injected,
                                                   &command);
  g_autofree char *text = g_strdup_printf (
    "[%s → %s] %s", loom_json_member_string (payload, "author") ?: "agent",
    loom_json_member_string (payload, "recipient") ?: "", body != NULL ? body : "");

  if (!loom_codex_session_ready (ci))
    return;
  message.role = "user";
  message.flags = LOOM_MESSAGE_INJECTED;
  message.text = text;
  codex_add_message (ci, &message);
}

/* reasoning{summary[{summary_text}], content?[reasoning_text], encrypted_content}: the summary is
 * what can be shown; encrypted_content is opaque and only kept in the payload. */
static void
codex_reasoning (CodexImport    *ci,
                 const LoomJson *payload)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *raw = NULL;
  LoomEventDraft   event = { 0 };
  const char      *lists[] = { "summary", "content" };

  if (!loom_codex_session_ready (ci))
    return;

  for (guint l = 0; l < G_N_ELEMENTS (lists) && text->len == 0; l++)
    {
      const LoomJson *parts = loom_json_member_array (payload, lists[l]);

      for (gsize i = 0; i < loom_json_length (parts); i++)
        {
          const LoomJson *part = loom_json_element (parts, i);
          const char     *piece = loom_json_string (part);

          if (piece == NULL)
            piece = loom_json_member_string (part, "text");
          if (piece == NULL)
            continue;
          if (text->len > 0)
            g_string_append (text, "\n\n");
          g_string_append (text, piece);
        }
    }

  /* Without a summary only the encrypted blob is left: say so rather than show nothing. */
  if (text->len == 0 && !is_empty (loom_json_member_string (payload, "encrypted_content")))
    g_string_append (text, "[encrypted reasoning]");

  raw = loom_json_value_to_string (payload);
  event.kind = LOOM_EVENT_REASONING;
  event.text = text->str;
  event.payload = raw;
  loom_codex_add_event (ci, &event);
}

static void
codex_response_item (CodexImport    *ci,
                     const LoomJson *payload,
                     const LoomJson *record)
{
  const char *type = loom_json_member_string (payload, "type");

  if (type == NULL)
    codex_add_raw (ci, record, "response_item");
  else if (g_strcmp0 (type, "message") == 0)
    codex_message (ci, payload);
  else if (g_strcmp0 (type, "reasoning") == 0)
    codex_reasoning (ci, payload);
  else if (g_strcmp0 (type, "agent_message") == 0)
    codex_agent_message (ci, payload);
  else if (g_str_has_suffix (type, "_call_output"))
    loom_codex_tool_output (ci, payload);
  else if (g_str_has_suffix (type, "_call") && strlen (type) > strlen ("_call"))
    loom_codex_tool_call (ci, payload, type);
  else
    codex_add_raw (ci, record, type); /* ghost_snapshot, compaction items, future types */
}

/* ——— event messages ——— */

/* Tokens: the cumulative info.total_token_usage of the last token_count (info is null before the
 * first answer). The totals only grow, so each field keeps the largest value seen: in a file as
 * Codex writes it that is the last one, and a placeholder (info null, a total of zeros, a field
 * missing or not a number, a total repeated) never lowers or doubles it. OpenAI's input_tokens
 * INCLUDES the cached (and cache-written) tokens; the store's columns follow the Claude meaning,
 * where input, cache_read and cache_creation are disjoint (codex_flush_tokens). */
static void
codex_token_count (CodexImport    *ci,
                   const LoomJson *payload)
{
  static const char *const fields[] = {
    "input_tokens",  "cached_input_tokens",     "cache_write_input_tokens",
    "output_tokens", "reasoning_output_tokens",
  };
  const LoomJson *info = loom_json_member_object (payload, "info");
  const LoomJson *total = loom_json_member_object (info, "total_token_usage");
  JsonObject     *tokens = loom_json_get_object (ci->state, STATE_TOKENS);
  gboolean        counted = FALSE;

  if (total == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      gint64 value;

      if (!has_int (total, fields[i]))
        continue;
      value = MAX (loom_json_member_int (total, fields[i], 0), 0);
      if (tokens == NULL)
        {
          tokens = json_object_new ();
          json_object_set_object_member (ci->state, STATE_TOKENS, tokens);
        }
      if (!json_object_has_member (tokens, fields[i]) ||
          value > loom_json_get_int (tokens, fields[i], 0))
        json_object_set_int_member (tokens, fields[i], value);
      counted = TRUE;
    }
  if (counted)
    loom_codex_session_ready (ci);
}

static void
codex_lifecycle (CodexImport    *ci,
                 const LoomJson *payload,
                 const char     *text)
{
  g_autofree char *raw = loom_json_value_to_string (payload);
  LoomEventDraft   event = { 0 };

  if (!loom_codex_session_ready (ci))
    return;
  event.kind = LOOM_EVENT_LIFECYCLE;
  event.text = text;
  event.payload = raw;
  loom_codex_add_event (ci, &event);
}

static void
codex_turn_aborted (CodexImport    *ci,
                    const LoomJson *payload)
{
  const char      *reason = loom_json_member_string (payload, "reason");
  g_autofree char *text = g_strdup_printf ("Turn aborted: %s", reason != NULL ? reason : "unknown");

  codex_lifecycle (ci, payload, text);
}

static void
codex_thread_name (CodexImport    *ci,
                   const LoomJson *payload)
{
  g_autoptr (LoomSessionRecord) meta = NULL;
  const char *name = loom_json_member_string (payload, "thread_name");

  if (name == NULL)
    name = loom_json_member_string (payload, "name");
  if (is_empty (name))
    return;
  meta = loom_session_record_new ();
  meta->title = g_strdup (name);
  codex_update_session (ci, meta);
}

static void
codex_subagent_activity (CodexImport    *ci,
                         const LoomJson *payload)
{
  g_autofree char *raw = loom_json_value_to_string (payload);
  g_autofree char *text = NULL;
  LoomEventDraft   event = { 0 };

  if (!loom_codex_session_ready (ci))
    return;
  text = g_strdup_printf ("Sub-agent %s %s",
                          loom_json_member_string (payload, "agent_path") ?:
                          loom_json_member_string (payload, "agent_thread_id") ?: "",
                          loom_json_member_string (payload, "kind") ?: "");
  event.kind = LOOM_EVENT_SUBAGENT;
  event.text = text;
  event.payload = raw;
  loom_codex_add_event (ci, &event);
}

static void
codex_api_error (CodexImport    *ci,
                 const LoomJson *payload)
{
  g_autofree char *raw = loom_json_value_to_string (payload);
  LoomEventDraft   event = { 0 };

  if (!loom_codex_session_ready (ci))
    return;
  event.kind = LOOM_EVENT_API_ERROR;
  event.text = loom_json_member_string (payload, "message");
  event.payload = raw;
  loom_codex_add_event (ci, &event);
}

/* event_msg types that repeat a response_item (double bookkeeping) or announce what a later item
 * records: imported through that item, never twice. */
static const char *const duplicate_events[] = { "user_message",
                                                "agent_message",
                                                "agent_message_delta",
                                                "agent_reasoning",
                                                "agent_reasoning_delta",
                                                "agent_reasoning_raw_content",
                                                "agent_reasoning_raw_content_delta",
                                                "agent_reasoning_section_break",
                                                "web_search_begin",
                                                "web_search_end",
                                                "context_compacted",
                                                "exec_command_begin",
                                                "exec_command_output_delta",
                                                "patch_apply_begin",
                                                "mcp_tool_call_begin",
                                                NULL };

static void
codex_event_msg (CodexImport    *ci,
                 const LoomJson *payload,
                 const LoomJson *record)
{
  const char *type = loom_json_member_string (payload, "type");

  if (type == NULL)
    {
      codex_add_raw (ci, record, "event_msg");
      return;
    }
  for (guint i = 0; duplicate_events[i] != NULL; i++)
    if (strcmp (type, duplicate_events[i]) == 0)
      return;

  if (strcmp (type, "token_count") == 0)
    codex_token_count (ci, payload);
  else if (strcmp (type, "exec_command_end") == 0)
    loom_codex_exec_command_end (ci, payload);
  else if (strcmp (type, "patch_apply_end") == 0)
    loom_codex_patch_apply_end (ci, payload);
  else if (strcmp (type, "mcp_tool_call_end") == 0)
    loom_codex_mcp_tool_call_end (ci, payload);
  else if (strcmp (type, "task_started") == 0)
    codex_lifecycle (ci, payload, "Turn started");
  else if (strcmp (type, "task_complete") == 0)
    codex_lifecycle (ci, payload, "Turn complete");
  else if (strcmp (type, "turn_aborted") == 0)
    codex_turn_aborted (ci, payload);
  else if (strcmp (type, "entered_review_mode") == 0)
    codex_lifecycle (ci, payload, "Review started");
  else if (strcmp (type, "exited_review_mode") == 0)
    codex_lifecycle (ci, payload, "Review finished");
  else if (strcmp (type, "thread_name_updated") == 0)
    codex_thread_name (ci, payload);
  else if (strcmp (type, "sub_agent_activity") == 0)
    codex_subagent_activity (ci, payload);
  else if (strcmp (type, "error") == 0 || strcmp (type, "stream_error") == 0)
    codex_api_error (ci, payload);
  else
    codex_add_raw (ci, record, type);
}

/* ——— other envelope types ——— */

/* turn_context: one per turn. Its model applies to the turn's assistant messages (it can change
 * from turn to turn); effort and collaboration mode give the session's agent_mode. */
static void
codex_turn_context (CodexImport    *ci,
                    const LoomJson *payload)
{
  const LoomJson  *collaboration = loom_json_member_object (payload, "collaboration_mode");
  const LoomJson  *settings = loom_json_member_object (collaboration, "settings");
  const char      *model = loom_json_member_string (payload, "model");
  const char      *cwd = loom_json_member_string (payload, "cwd");
  const char      *effort = loom_json_member_string (payload, "effort");
  const char      *mode = loom_json_member_string (collaboration, "mode");
  g_autofree char *agent_mode = NULL;

  if (model == NULL)
    model = loom_json_member_string (settings, "model");
  if (effort == NULL)
    effort = loom_json_member_string (settings, "reasoning_effort");
  if (!is_empty (model))
    {
      JsonArray *models = loom_json_get_array (ci->state, STATE_MODELS);
      gboolean   known = FALSE;

      json_object_set_string_member (ci->state, STATE_MODEL, model);
      if (models == NULL)
        {
          json_object_set_array_member (ci->state, STATE_MODELS, json_array_new ());
          models = loom_json_get_array (ci->state, STATE_MODELS);
        }
      for (guint i = 0; i < json_array_get_length (models) && !known; i++)
        known = g_strcmp0 (json_array_get_string_element (models, i), model) == 0;
      if (!known)
        json_array_add_string_element (models, model);
    }
  if (!is_empty (cwd))
    json_object_set_string_member (ci->state, STATE_CWD, cwd);

  if (!is_empty (mode) && g_strcmp0 (mode, "default") != 0)
    agent_mode = effort != NULL ? g_strdup_printf ("%s/%s", mode, effort) : g_strdup (mode);
  else
    agent_mode = g_strdup (effort);

  if (!loom_codex_session_ready (ci))
    return;
  if ((agent_mode != NULL &&
       g_strcmp0 (agent_mode, loom_json_get_string (ci->state, STATE_MODE)) != 0) ||
      (!is_empty (cwd) && !loom_json_get_int (ci->state, STATE_HAS_CWD, 0)))
    {
      g_autoptr (LoomSessionRecord) meta = loom_session_record_new ();

      if (agent_mode != NULL)
        {
          meta->agent_mode = g_strdup (agent_mode);
          json_object_set_string_member (ci->state, STATE_MODE, agent_mode);
        }
      if (!is_empty (cwd) && !loom_json_get_int (ci->state, STATE_HAS_CWD, 0))
        {
          meta->cwd = g_strdup (cwd);
          json_object_set_boolean_member (ci->state, STATE_HAS_CWD, TRUE);
        }
      codex_update_session (ci, meta);
    }
}

/* compacted{message, replacement_history[]…}: the boundary where Codex replaced the history with
 * a summary. The replacement history repeats earlier items: kept in the payload, not imported. */
static void
codex_compacted (CodexImport    *ci,
                 const LoomJson *payload)
{
  const char      *summary = loom_json_member_string (payload, "message");
  g_autofree char *raw = loom_json_value_to_string (payload);
  LoomEventDraft   event = { 0 };

  if (!loom_codex_session_ready (ci))
    return;
  event.kind = LOOM_EVENT_COMPACTION;
  event.text = !is_empty (summary) ? summary : "Context compacted";
  event.payload = raw;
  loom_codex_add_event (ci, &event);
}

/* ——— records ——— */

static void
codex_record_time (CodexImport    *ci,
                   const LoomJson *record)
{
  gint64 time = loom_time_from_iso (loom_json_member_string (record, "timestamp"));

  if (time != 0)
    {
      ci->time = time;
      json_object_set_int_member (ci->state, STATE_TIME, time);
    }
}

static void
codex_record_id (CodexImport *ci,
                 guint64      line)
{
  if (line == ci->line && ci->source_id != NULL)
    ci->index_in_line++;
  else
    ci->index_in_line = 0;
  ci->line = line;
  g_free (ci->source_id);
  ci->source_id = ci->index_in_line == 0
                    ? g_strdup_printf ("L%" G_GUINT64_FORMAT, line)
                    : g_strdup_printf ("L%" G_GUINT64_FORMAT ".%u", line, ci->index_in_line);
}

static void
codex_envelope (CodexImport    *ci,
                const char     *type,
                const LoomJson *payload,
                const LoomJson *record)
{
  if (strcmp (type, "session_meta") == 0)
    codex_session_meta (ci, payload);
  else if (strcmp (type, "turn_context") == 0)
    codex_turn_context (ci, payload);
  else if (strcmp (type, "response_item") == 0)
    codex_response_item (ci, payload, record);
  else if (strcmp (type, "event_msg") == 0)
    codex_event_msg (ci, payload, record);
  else if (strcmp (type, "compacted") == 0)
    codex_compacted (ci, payload);
  else
    codex_add_raw (ci, record, type); /* world_state, inter_agent_communication_metadata, … */
}

/* ResponseItem types that stand bare on a line before the envelope (and in TypeScript files). */
static gboolean
is_response_item_type (const char *type)
{
  static const char *const types[] = { "message",        "reasoning",  "agent_message",
                                       "ghost_snapshot", "compaction", NULL };

  for (guint i = 0; types[i] != NULL; i++)
    if (strcmp (type, types[i]) == 0)
      return TRUE;
  return g_str_has_suffix (type, "_call") || g_str_has_suffix (type, "_call_output");
}

/* Whether a record has one of the shapes Codex writes. */
static gboolean
is_codex_record (const LoomJson *object)
{
  const char *type = loom_json_member_string (object, "type");

  if (type != NULL && loom_json_member (object, "payload") != NULL)
    return TRUE;
  if (loom_json_member (object, "record_type") != NULL)
    return TRUE;
  if (type != NULL)
    return is_response_item_type (type);
  return loom_json_member_string (object, "id") != NULL &&
         loom_json_member (object, "timestamp") != NULL;
}

static void
codex_dispatch (CodexImport    *ci,
                const LoomJson *record)
{
  const char     *type = loom_json_member_string (record, "type");
  const LoomJson *payload;

  if (!loom_json_is_object (record))
    {
      loom_import_file_warn (ci->file, "not a JSON object");
      return;
    }
  /* With --source codex every .jsonl of a folder comes here, detected or not (~/.codex also
   * holds history.jsonl). A file not named like a rollout whose first record is not Codex's
   * is left alone rather than turned into a session of raw records. */
  if (ci->session == 0 && !ci->deleted && ci->name_id == NULL &&
      loom_json_get_string (ci->state, STATE_SESSION) == NULL && !is_codex_record (record))
    {
      loom_import_file_warn (ci->file, "not a Codex session file; skipped");
      ci->foreign = TRUE;
      return;
    }
  codex_record_time (ci, record);
  payload = loom_json_member (record, "payload");

  if (type != NULL && loom_json_is_object (payload))
    codex_envelope (ci, type, payload, record);
  else if (type != NULL && payload != NULL)
    codex_add_raw (ci, record, type); /* an envelope whose payload has the wrong type */
  else if (loom_json_member (record, "record_type") != NULL)
    ; /* pre-envelope {"record_type":"state"} snapshots: empty bookkeeping, nothing to show */
  else if (type != NULL)
    codex_response_item (ci, record, record); /* pre-envelope / TypeScript: a bare item */
  else if (loom_json_member_string (record, "id") != NULL &&
           loom_json_member (record, "timestamp") != NULL)
    codex_session_meta (ci, record); /* the pre-envelope first line */
  else
    codex_add_raw (ci, record, NULL);
}

/* The original TypeScript CLI: {session:{id, timestamp, instructions}, items:[…]}, rewritten
 * whole as the session grows. Items have no times: they take the session's. */
static gboolean
codex_import_document (CodexImport *ci,
                       GError     **error)
{
  const LoomJson *document = loom_import_file_read_document (ci->file, error);
  const LoomJson *session;
  const LoomJson *items;
  guint           n, done;

  if (document == NULL)
    return FALSE;
  if (!loom_json_is_object (document))
    {
      loom_import_file_warn (ci->file, "not a Codex session document");
      return TRUE;
    }
  session = loom_json_member_object (document, "session");
  items = loom_json_member_array (document, "items");
  if (session != NULL)
    {
      codex_record_time (ci, session);
      codex_session_meta (ci, session);
    }

  n = loom_json_length (items);
  /* A pass that is not a reset has already imported the first items. */
  done = (guint)CLAMP (loom_json_get_int (ci->state, STATE_ITEMS, 0), 0, n);
  for (guint i = done; i < n && ci->error == NULL; i++)
    {
      const LoomJson *item = loom_json_element (items, i);

      g_free (ci->source_id);
      ci->source_id = g_strdup_printf ("I%u", i);
      /* A null is what salvage leaves of an item it could not read, and has said so. */
      if (loom_json_type (item) == LOOM_JSON_NULL)
        continue;
      if (!loom_json_is_object (item))
        loom_import_file_warn (ci->file, "item %u is not a JSON object", i);
      else
        codex_dispatch (ci, item);
      if (ci->foreign)
        return TRUE;
    }
  json_object_set_int_member (ci->state, STATE_ITEMS, n);
  return TRUE;
}

static void
codex_flush_tokens (CodexImport *ci)
{
  JsonObject *tokens = loom_json_get_object (ci->state, STATE_TOKENS);
  gint64      input, cached, written;

  /* Every pass that touched the session sets the totals again: the framework recomputes a
   * touched session's totals from its messages unless told otherwise. */
  if (tokens == NULL || ci->session == 0 || ci->error != NULL)
    return;
  /*   input = input_tokens - cached_input_tokens - cache_write_input_tokens  (not below 0)
   *   cache_read = cached_input_tokens, cache_creation = cache_write_input_tokens,
   *   output = output_tokens (which already includes reasoning_output_tokens),
   *   reasoning = reasoning_output_tokens, when given. */
  input = loom_json_get_int (tokens, "input_tokens", 0);
  cached = loom_json_get_int (tokens, "cached_input_tokens", 0);
  written = loom_json_get_int (tokens, "cache_write_input_tokens", 0);
  loom_import_file_set_tokens (ci->file, ci->session, MAX (input - cached - written, 0),
                               loom_json_get_int (tokens, "output_tokens", 0), cached, written,
                               loom_json_get_int (tokens, "reasoning_output_tokens", -1));
}

/* The turns' models: a turn that ended before any reply names its model nowhere else. */
static void
codex_flush_models (CodexImport *ci)
{
  JsonArray *models = loom_json_get_array (ci->state, STATE_MODELS);
  g_autoptr (GPtrArray) names = NULL;

  if (models == NULL || ci->session == 0 || ci->error != NULL)
    return;
  names = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (models); i++)
    if (json_array_get_string_element (models, i) != NULL)
      g_ptr_array_add (names, (gpointer)json_array_get_string_element (models, i));
  g_ptr_array_add (names, NULL);
  loom_import_file_set_models (ci->file, ci->session, (const char *const *)names->pdata);
}

/* The id of the first session_meta (or of the bare first line before the envelope). */
static char *
first_meta_id (const LoomJson *record,
               gpointer        data)
{
  const char     *type = loom_json_member_string (record, "type");
  const LoomJson *payload = loom_json_member_object (record, "payload");
  const char     *id;

  if (g_strcmp0 (type, "session_meta") != 0)
    payload = type == NULL && loom_json_member (record, "timestamp") != NULL ? record : NULL;
  if (payload == NULL)
    return NULL;
  id = loom_json_member_string (payload, "id");
  return g_strdup (id != NULL ? id : loom_json_member_string (payload, "session_id"));
}

/* A file read on from a cursor an earlier version saved, which took the file name's id over
 * session_meta's when they disagreed: its session is re-keyed to session_meta's. */
static void
codex_check_identity (CodexImport *ci)
{
  const char      *known = loom_json_get_string (ci->state, STATE_SESSION);
  g_autofree char *id = NULL;

  if (loom_import_file_is_reset (ci->file) || loom_import_file_ids_checked (ci->file) ||
      known == NULL || ci->name_id == NULL || g_ascii_strcasecmp (known, ci->name_id) != 0 ||
      !(id = loom_import_file_find_first (ci->file, first_meta_id, NULL)) ||
      g_ascii_strcasecmp (id, known) == 0)
    return;
  if (loom_import_file_rekey (ci->file, CODEX_SOURCE, known, id, &ci->error))
    json_object_set_string_member (ci->state, STATE_SESSION, id);
}

static gboolean
codex_import_file (LoomImportFile *file,
                   GError        **error)
{
  CodexImport     ci = { 0 };
  const char     *path = loom_import_file_get_path (file);
  gboolean        ok = TRUE;
  const LoomJson *record = NULL;

  ci.file = file;
  ci.state = loom_import_file_get_state (file);
  ci.name_id = session_id_from_name (path);
  if (loom_import_file_is_reset (file))
    state_clear (ci.state);
  ci.time = loom_json_get_int (ci.state, STATE_TIME, 0);
  if (!g_str_has_suffix (path, ".json"))
    codex_check_identity (&ci);

  if (g_str_has_suffix (path, ".json"))
    ok = codex_import_document (&ci, error);
  else
    while (ci.error == NULL && !ci.foreign && loom_import_file_next_record (file, &record))
      {
        codex_record_id (&ci, loom_import_file_get_line (file));
        codex_dispatch (&ci, record);
      }

  codex_flush_tokens (&ci);
  codex_flush_models (&ci);
  if (ci.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&ci.error));
      ok = FALSE;
    }
  g_free (ci.name_id);
  g_free (ci.source_id);
  g_clear_pointer (&ci.embedded, loom_json_doc_free);
  return ok;
}

/* ——— finding and recognising files ——— */

static char **
codex_default_roots (void)
{
  const char      *codex_home = g_getenv ("CODEX_HOME");
  g_autofree char *home = !is_empty (codex_home)
                            ? g_strdup (codex_home)
                            : g_build_filename (g_get_home_dir (), ".codex", NULL);
  char           **roots = g_new0 (char *, 3);

  roots[0] = g_build_filename (home, "sessions", NULL);
  roots[1] = g_build_filename (home, "archived_sessions", NULL);
  return roots;
}

static gboolean
is_rollout_name (const char *name)
{
  return g_str_has_prefix (name, "rollout-") &&
         (g_str_has_suffix (name, ".jsonl") || g_str_has_suffix (name, ".json"));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *)a, *(char *const *)b);
}

/* Discovery's rules, which claims follows too: rollout files at any depth down to this one.
 * sessions/YYYY/MM/DD is a few levels; the limit only guards against odd trees. */
#define DISCOVER_DEPTH 8

/* Whether discovery enters a folder @depth levels below the root (the root is 0). */
static gboolean
enters_folder (guint depth)
{
  return depth <= DISCOVER_DEPTH;
}

static void
codex_discover_dir (const char *dir,
                    guint       depth,
                    GPtrArray  *files)
{
  g_autoptr (GDir) handle = NULL;
  g_autoptr (GPtrArray) names = NULL;
  const char *name;

  if (!enters_folder (depth) || (handle = g_dir_open (dir, 0, NULL)) == NULL)
    return;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char      *entry = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, entry, NULL);

      if (is_rollout_name (entry) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, g_steal_pointer (&path));
      else if (g_file_test (path, G_FILE_TEST_IS_DIR) &&
               !g_file_test (path, G_FILE_TEST_IS_SYMLINK)) /* no loops through links */
        codex_discover_dir (path, depth + 1, files);
    }
}

static void
codex_discover (const char *root,
                GPtrArray  *files)
{
  codex_discover_dir (root, 0, files);
}

static gboolean
codex_claims (const char *root,
              const char *path)
{
  g_auto (GStrv) parts = loom_importer_split_path (root, path);
  GStatBuf st;
  guint    n;

  if (parts == NULL)
    return FALSE;
  n = g_strv_length (parts);
  /* The file sits in the folder n - 1 levels down. Discovery takes a link to a rollout file
   * (not to a folder); a file that is gone was a plain one. */
  return enters_folder (n - 1) && is_rollout_name (parts[n - 1]) &&
         (g_lstat (path, &st) != 0 || g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

/* Whether the first "type" member of @line names an envelope type. serde writes the envelope as
 * {"timestamp", "type", "payload"}, so the top-level type comes before any nested one; quotes
 * inside string values are escaped and cannot match. */
static gboolean
line_has_envelope_type (const char *line,
                        gsize       len)
{
  static const char *const types[] = { "session_meta", "response_item", "event_msg",
                                       "turn_context", "compacted",     NULL };
  const char              *end = line + len;
  const char              *p = g_strstr_len (line, len, "\"type\"");

  if (p == NULL)
    return FALSE;
  p += strlen ("\"type\"");
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p >= end || *p++ != ':')
    return FALSE;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p >= end || *p++ != '"')
    return FALSE;
  for (guint i = 0; types[i] != NULL; i++)
    {
      gsize n = strlen (types[i]);

      if ((gsize)(end - p) > n && strncmp (p, types[i], n) == 0 && p[n] == '"')
        return TRUE;
    }
  return FALSE;
}

static gboolean
codex_detect (const char *path,
              const char *head,
              gsize       head_len)
{
  g_autofree char *name = g_path_get_basename (path);
  const char      *start = head;
  const char      *end = head + head_len;
  const char      *eol;
  gsize            line_len;

  if (head == NULL)
    return FALSE;
  if (head_len >= 3 && memcmp (head, "\xEF\xBB\xBF", 3) == 0)
    start += 3;
  while (start < end && g_ascii_isspace (*start))
    start++;
  if (start >= end || *start != '{')
    return FALSE;

  if (g_str_has_suffix (name, ".json"))
    return g_str_has_prefix (name, "rollout-") &&
           g_strstr_len (start, end - start, "\"session\"") != NULL;

  eol = memchr (start, '\n', end - start);
  line_len = (eol != NULL ? eol : end) - start;
  if (line_has_envelope_type (start, line_len) &&
      (eol == NULL || g_strstr_len (start, line_len, "\"payload\"") != NULL))
    return TRUE;

  /* Before the envelope: {"id":…, "timestamp":…, "instructions":…} in a rollout-*.jsonl. */
  if (g_str_has_prefix (name, "rollout-"))
    {
      const char *p = start + 1;

      while (p < end && g_ascii_isspace (*p))
        p++;
      return (gsize)(end - p) > 5 && strncmp (p, "\"id\"", 4) == 0 &&
             g_strstr_len (start, line_len, "\"timestamp\"") != NULL;
    }
  return FALSE;
}

static const LoomImporter importer = {
  .name = CODEX_SOURCE,
  .title = "Codex",
  .default_roots = codex_default_roots,
  .discover = codex_discover,
  .claims = codex_claims,
  .detect = codex_detect,
  .whole_document = FALSE,
  .import_file = codex_import_file,
};

const LoomImporter *
loom_importer_codex (void)
{
  return &importer;
}
