/* loom-export-session-data.c — session.jsonl, the package's data for a machine.
 *
 * conversation.md is for people: formatted, some rows folded into others, counts left out.
 * A package that is to be imported back (`loom import PACKAGE_DIR`) needs the rows as the
 * store keeps them. session.jsonl holds them as JSON Lines: first a header, the session with
 * every field of its row; then each message and event of its timeline in seq order with every
 * column; then its summaries. Each line is written and dropped before the next is read, so the
 * memory used is that of the largest row, not of the session.
 *
 * The detail level applies here as in conversation.md: a person who exports "messages" expects
 * only the prompts and replies to leave the machine. At "tools" the tool calls, their results,
 * file changes and sub-agent starts come too; at "full" everything, summaries included. The
 * header says which, and keeps the session's counts as the store has them.
 *
 * Every text goes through the package's filter, so that a redacted package is redacted here
 * too. Ids (uuids, the agent's ids, call ids) and the store's own words (roles, kinds) are
 * not texts a person typed and are written as they are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-event-kinds.h"
#include "loom-export-private.h"
#include "loom-json-value.h"
#include "loom-store-package.h"

/* How often, in rows, the writer looks whether it was cancelled. */
#define CANCEL_CHECK_ROWS 64

typedef struct
{
  LoomExportDetail  detail;
  LoomExportFilter *filter;
  LoomExportFile   *out;
  GCancellable     *cancellable;
  guint64           n_rows;
  GString          *line; /* the row being written, reused from row to row */
} Writer;

static void
add_member (JsonBuilder *builder,
            const char  *name)
{
  json_builder_set_member_name (builder, name);
}

/* A string as it is: ids and the store's words. */
static void
add_word (JsonBuilder *builder,
          const char  *name,
          const char  *value)
{
  add_member (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* A text as the package shows it: through the filter. */
static void
add_text (Writer      *w,
          JsonBuilder *builder,
          const char  *name,
          const char  *value)
{
  g_autofree char *redacted = NULL;

  add_word (builder, name,
            value != NULL ? loom_export_filter_apply (w->filter, value, &redacted) : NULL);
}

/* A title as the package shows it. */
static void
add_title (Writer      *w,
           JsonBuilder *builder,
           const char  *name,
           const char  *value)
{
  g_autofree char *redacted = loom_export_filter_title (w->filter, value);

  add_word (builder, name, redacted != NULL ? redacted : value);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  add_member (builder, name);
  json_builder_add_int_value (builder, value);
}

/* A count the store may not know: null then. */
static void
add_count (JsonBuilder *builder,
           const char  *name,
           gint64       value)
{
  add_member (builder, name);
  if (value >= 0)
    json_builder_add_int_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_bool (JsonBuilder *builder,
          const char  *name,
          gboolean     value)
{
  add_member (builder, name);
  json_builder_add_boolean_value (builder, value);
}

/* A JSON text the store keeps (models, tools used) as the value it is, @fallback when it does
 * not parse as the expected type. */
static void
add_json (JsonBuilder *builder,
          const char  *name,
          const char  *text,
          gboolean     want_object)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  const LoomJson *value = NULL;

  if (text != NULL)
    value = loom_json_doc_parse (doc, text, strlen (text), NULL);
  add_member (builder, name);
  if (value != NULL && (want_object ? loom_json_is_object (value) : loom_json_is_array (value)))
    json_builder_add_value (builder, loom_json_value_to_node (value));
  else if (want_object)
    {
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
    }
  else
    {
      json_builder_begin_array (builder);
      json_builder_end_array (builder);
    }
}

static gboolean
write_line (Writer      *w,
            JsonBuilder *builder,
            GError     **error)
{
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autofree char *line = loom_json_write (root);

  return loom_export_file_write (w->out, line, -1, error) &&
         loom_export_file_write (w->out, "\n", 1, error);
}

static gboolean
write_header (Writer      *w,
              LoomStore   *store,
              LoomSession *session,
              GError     **error)
{
  const LoomSessionRecord *r = loom_session_get_record (session);
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autofree char *agent_title = NULL;
  gboolean         title_locked;

  if (!loom_store_get_session_naming (store, r->id, &title_locked, &agent_title, error))
    return FALSE;

  json_builder_begin_object (builder);
  add_word (builder, "type", "session");
  add_int (builder, "format_version", LOOM_EXPORT_SESSION_DATA_VERSION);
  add_word (builder, "detail", loom_export_detail_to_string (w->detail));
  add_word (builder, "uuid", r->uuid);
  add_word (builder, "source", r->source);
  add_word (builder, "source_session_id", r->source_session_id);
  add_title (w, builder, "title", r->title);
  add_bool (builder, "title_locked", title_locked);
  add_title (w, builder, "agent_title", agent_title);
  add_text (w, builder, "project_path", r->project_path);
  add_text (w, builder, "project_name", r->project_name);
  add_text (w, builder, "cwd", r->cwd);
  add_text (w, builder, "git_branch", r->git_branch);
  add_word (builder, "git_commit", r->git_commit);
  add_word (builder, "agent_version", r->agent_version);
  add_word (builder, "agent_mode", r->agent_mode);
  add_word (builder, "selected_agent_id", r->selected_agent_id);
  add_word (builder, "model", r->model);
  add_json (builder, "models", r->models_json, FALSE);
  add_int (builder, "created_at", r->created_at);
  add_int (builder, "updated_at", r->updated_at);
  add_int (builder, "last_opened_at", r->last_opened_at);
  add_int (builder, "archived_at", r->archived_at);
  add_int (builder, "trashed_at", r->trashed_at);
  add_bool (builder, "archived", r->archived);
  add_bool (builder, "pinned", r->pinned);
  add_text (w, builder, "folder", r->folder_name);
  add_word (builder, "session_type", r->session_type);
  add_word (builder, "parent_session_id", r->parent_uuid);
  add_word (builder, "fork_source_session_id", r->fork_source_uuid);
  add_text (w, builder, "task_objective", r->task_objective);
  add_word (builder, "task_status", r->task_status);
  add_json (builder, "tools_used", r->tools_used_json, TRUE);
  add_int (builder, "message_count", r->message_count);
  add_int (builder, "event_count", r->event_count);
  add_int (builder, "tokens_input", r->tokens_input);
  add_int (builder, "tokens_output", r->tokens_output);
  add_int (builder, "tokens_cache_read", r->tokens_cache_read);
  add_int (builder, "tokens_cache_creation", r->tokens_cache_creation);
  add_count (builder, "tokens_reasoning", r->tokens_reasoning);
  add_int (builder, "n_user_messages", r->n_user_messages);
  add_int (builder, "n_assistant_messages", r->n_assistant_messages);
  add_int (builder, "n_tool_calls", r->n_tool_calls);
  add_int (builder, "n_tool_results", r->n_tool_results);
  add_int (builder, "n_tool_errors", r->n_tool_errors);
  add_int (builder, "n_reasoning", r->n_reasoning);
  json_builder_end_object (builder);
  return write_line (w, builder, error);
}

/* Whether @row leaves the machine at the package's detail level (see the top of the file). */
static gboolean
row_wanted (const Writer       *w,
            const LoomStoreRow *row)
{
  if (w->detail >= LOOM_EXPORT_DETAIL_FULL)
    return TRUE;
  if (row->is_message)
    return (row->flags & LOOM_MESSAGE_NOT_A_PROMPT) == 0 &&
           (g_strcmp0 (row->role, "user") == 0 || g_strcmp0 (row->role, "assistant") == 0);
  return w->detail >= LOOM_EXPORT_DETAIL_TOOLS &&
         (g_strcmp0 (row->kind, LOOM_EVENT_TOOL_CALL) == 0 ||
          g_strcmp0 (row->kind, LOOM_EVENT_TOOL_RESULT) == 0 ||
          g_strcmp0 (row->kind, LOOM_EVENT_FILE_CHANGE) == 0 ||
          g_strcmp0 (row->kind, LOOM_EVENT_SUBAGENT) == 0);
}

/* A row's line, written member by member into the writer's buffer: a session's rows are most
 * of a package, and a tree of json-glib nodes for each (its strings copied into it, then
 * written out) cost more than all the rest of session.jsonl. The escaping is
 * loom_json_write ()'s, as the header's line is written. */

static void
line_begin (Writer     *w,
            const char *type)
{
  g_string_truncate (w->line, 0);
  g_string_append (w->line, "{\"type\":");
  loom_json_append_string (w->line, type, -1);
}

static void
line_member (Writer     *w,
             const char *name)
{
  g_string_append_len (w->line, ",\"", 2);
  g_string_append (w->line, name);
  g_string_append_len (w->line, "\":", 2);
}

static void
line_word (Writer     *w,
           const char *name,
           const char *value)
{
  line_member (w, name);
  if (value != NULL)
    loom_json_append_string (w->line, value, -1);
  else
    g_string_append (w->line, "null");
}

static void
line_text (Writer     *w,
           const char *name,
           const char *value)
{
  g_autofree char *redacted = NULL;

  line_word (w, name,
             value != NULL ? loom_export_filter_apply (w->filter, value, &redacted) : NULL);
}

static void
line_json_text (Writer     *w,
                const char *name,
                const char *value)
{
  g_autofree char *redacted = loom_export_filter_json_text (w->filter, value);

  line_word (w, name, redacted != NULL ? redacted : value);
}

static void
line_int (Writer     *w,
          const char *name,
          gint64      value)
{
  char digits[G_ASCII_DTOSTR_BUF_SIZE];

  line_member (w, name);
  g_string_append_len (w->line, digits,
                       g_snprintf (digits, sizeof digits, "%" G_GINT64_FORMAT, value));
}

static void
line_count (Writer     *w,
            const char *name,
            gint64      value)
{
  if (value >= 0)
    line_int (w, name, value);
  else
    {
      line_member (w, name);
      g_string_append_len (w->line, "null", 4);
    }
}

static void
line_bool (Writer     *w,
           const char *name,
           gboolean    value)
{
  line_member (w, name);
  g_string_append (w->line, value ? "true" : "false");
}

static gboolean
line_end (Writer  *w,
          GError **error)
{
  g_string_append (w->line, "}\n");
  return loom_export_file_write (w->out, w->line->str, (gssize)w->line->len, error);
}

static gboolean
write_row (const LoomStoreRow *row,
           gpointer            data,
           GError            **error)
{
  Writer *w = data;

  if (++w->n_rows % CANCEL_CHECK_ROWS == 0 &&
      g_cancellable_set_error_if_cancelled (w->cancellable, error))
    return FALSE;
  if (!row_wanted (w, row))
    return TRUE;

  line_begin (w, row->is_message ? "message" : "event");
  line_int (w, "seq", row->seq);
  if (row->is_message)
    {
      line_word (w, "role", row->role);
      line_int (w, "flags", row->flags);
      line_word (w, "source_id", row->source_id);
      line_word (w, "model", row->model);
      line_int (w, "created_at", row->created_at);
      line_count (w, "input_tokens", row->input_tokens);
      line_count (w, "output_tokens", row->output_tokens);
      line_count (w, "cache_read_tokens", row->cache_read_tokens);
      line_count (w, "cache_creation_tokens", row->cache_creation_tokens);
      line_count (w, "reasoning_tokens", row->reasoning_tokens);
      line_text (w, "text", row->text);
    }
  else
    {
      line_word (w, "kind", row->kind);
      line_count (w, "message_seq", row->message_seq);
      line_word (w, "call_id", row->call_id);
      line_word (w, "tool_name", row->tool_name);
      line_bool (w, "is_error", row->is_error);
      line_text (w, "path", row->path);
      line_word (w, "change_kind", row->change_kind);
      line_word (w, "source_id", row->source_id);
      line_int (w, "created_at", row->created_at);
      line_text (w, "text", row->text);
      line_json_text (w, "payload", row->payload);
      line_int (w, "payload_size", row->payload_size);
    }
  return line_end (w, error);
}

static gboolean
write_summary (const LoomStoreSummary *summary,
               gpointer                data,
               GError                **error)
{
  Writer *w = data;

  line_begin (w, "summary");
  line_word (w, "kind", summary->kind);
  line_word (w, "model", summary->model);
  line_int (w, "created_at", summary->created_at);
  line_text (w, "text", summary->text);
  return line_end (w, error);
}

gboolean
loom_export_write_session_data (LoomStore        *store,
                                LoomSession      *session,
                                LoomExportDetail  detail,
                                LoomExportFilter *filter,
                                LoomExportFile   *out,
                                GCancellable     *cancellable,
                                GError          **error)
{
  g_autoptr (GString) line = g_string_sized_new (4096);
  Writer w = { detail, filter, out, cancellable, 0, line };
  gint64 id = loom_session_get_id (session);

  return write_header (&w, store, session, error) &&
         loom_store_foreach_session_row (store, id, write_row, &w, error) &&
         (detail < LOOM_EXPORT_DETAIL_FULL ||
          loom_store_foreach_session_summary (store, id, write_summary, &w, error)) &&
         !g_cancellable_set_error_if_cancelled (cancellable, error);
}
