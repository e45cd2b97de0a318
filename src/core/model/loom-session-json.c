/* loom-session-json.c — the stable JSON form of a session (documented in README.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-session.h"
#include "loom-time.h"

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_bool (JsonBuilder *builder,
          const char  *name,
          gboolean     value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_boolean_value (builder, value);
}

static void
add_time (JsonBuilder *builder,
          const char  *name,
          gint64       ms)
{
  g_autofree char *iso = loom_time_to_iso (ms);

  add_string (builder, name, iso);
}

/* Embeds a JSON text we stored ourselves; falls back to @fallback if it does not parse. */
static void
add_json_text (JsonBuilder *builder,
               const char  *name,
               const char  *text,
               const char  *fallback)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root = NULL;

  json_builder_set_member_name (builder, name);
  if (text != NULL && json_parser_load_from_data (parser, text, -1, NULL))
    root = json_parser_get_root (parser);
  if (root == NULL && json_parser_load_from_data (parser, fallback, -1, NULL))
    root = json_parser_get_root (parser);
  if (root != NULL)
    json_builder_add_value (builder, json_node_copy (root));
  else
    json_builder_add_null_value (builder);
}

JsonNode *
loom_session_to_json (LoomSession *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  const LoomSessionRecord *r;

  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);

  r = loom_session_get_record (self);

  json_builder_begin_object (builder);
  add_string (builder, "id", r->uuid);
  add_string (builder, "title", r->title);
  add_string (builder, "source", r->source);
  add_string (builder, "source_session_id", r->source_session_id);
  add_string (builder, "source_path", r->source_path);
  add_bool (builder, "source_missing", r->source_missing);
  add_string (builder, "parent_session_id", r->parent_uuid);
  add_string (builder, "fork_source_session_id", r->fork_source_uuid);
  add_string (builder, "session_type", r->session_type);
  add_string (builder, "project", r->project_name);
  add_string (builder, "project_path", r->project_path);
  add_string (builder, "cwd", r->cwd);
  add_string (builder, "git_branch", r->git_branch);
  add_string (builder, "git_commit", r->git_commit);
  add_string (builder, "agent_version", r->agent_version);
  add_string (builder, "agent_mode", r->agent_mode);
  add_string (builder, "selected_agent_id", r->selected_agent_id);
  add_string (builder, "model", r->model);
  add_json_text (builder, "models", r->models_json, "[]");
  add_time (builder, "created_at", r->created_at);
  add_time (builder, "updated_at", r->updated_at);
  add_time (builder, "last_opened_at", r->last_opened_at);
  add_time (builder, "archived_at", r->archived_at);
  add_time (builder, "trashed_at", r->trashed_at);
  add_int (builder, "message_count", r->message_count);
  add_int (builder, "event_count", r->event_count);
  json_builder_set_member_name (builder, "folder_id");
  if (r->folder_id > 0)
    json_builder_add_int_value (builder, r->folder_id);
  else
    json_builder_add_null_value (builder);
  add_string (builder, "folder", r->folder_name);
  add_bool (builder, "pinned", r->pinned);
  add_bool (builder, "archived", r->archived);
  add_bool (builder, "trashed", r->trashed_at != 0);
  add_string (builder, "task_objective", r->task_objective);
  add_string (builder, "task_status", r->task_status);
  add_json_text (builder, "tools_used", r->tools_used_json, "{}");

  json_builder_set_member_name (builder, "counts");
  json_builder_begin_object (builder);
  add_int (builder, "user_messages", r->n_user_messages);
  add_int (builder, "assistant_messages", r->n_assistant_messages);
  add_int (builder, "tool_calls", r->n_tool_calls);
  add_int (builder, "tool_results", r->n_tool_results);
  add_int (builder, "tool_errors", r->n_tool_errors);
  add_int (builder, "reasoning", r->n_reasoning);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "tokens");
  json_builder_begin_object (builder);
  add_int (builder, "input", r->tokens_input);
  add_int (builder, "output", r->tokens_output);
  add_int (builder, "cache_read", r->tokens_cache_read);
  add_int (builder, "cache_creation", r->tokens_cache_creation);
  /* Part of output, not added to it; null where the agent does not tell it apart (Claude). */
  json_builder_set_member_name (builder, "reasoning");
  if (r->tokens_reasoning >= 0)
    json_builder_add_int_value (builder, r->tokens_reasoning);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
