/* loom-export-conversation.c — a session's timeline as conversation.md and conversation.html.
 *
 * One walk of the timeline decides what each detail level shows and passes every text through
 * the package's filter; the blocks it makes go to a renderer for each file
 * (loom-export-render.h), so that the two files show the same at every level.
 *
 * The timeline is read through the same lazy model the window shows, one item at a time, so
 * that a session of any length is written with only a few pages of it in memory. Where the
 * store keeps a bounded text (events), the text comes from the event's whole payload instead:
 * a package is the unabridged history, not the view of it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-event-kinds.h"
#include "loom-export-render.h"
#include "loom-naming.h"
#include "loom-store-timeline-pages.h"
#include "loom-time.h"
#include "loom-timeline-format.h"
#include "loom-timeline-model.h"

/* The store keeps at most 64 KiB of an event's text (its writer's bound); a text about that
 * long may have been cut, and its payload is then written beside it. */
#define STORED_TEXT_CUT_AT (64 * 1024 - 4)

/* Longest tool or file name put in a heading, in characters. */
#define HEADING_LIMIT 200

typedef struct
{
  LoomStore          *store;
  LoomExportDetail    detail;
  LoomExportFilter   *filter;
  GHashTable         *subagent_links; /* uuid -> folder below the package, may be NULL */
  LoomExportRenderer *renderers[2];   /* Markdown, then HTML when it is written */
  guint               n_renderers;
} Writer;

static char *
read_payload (Writer *w,
              gint64  event_id)
{
  g_autoptr (GError) error = NULL;
  char *payload;

  if (event_id <= 0)
    return NULL;
  /* A payload that cannot be read leaves the stored text, which is still worth writing. */
  if (!(payload = loom_store_get_event_payload (w->store, event_id, &error)) && error != NULL)
    g_debug ("Could not read the payload of event %" G_GINT64_FORMAT ": %s", event_id,
             error->message);
  return payload;
}

/* Every block goes to each renderer in turn: conversation.md and conversation.html are written
 * in the same pass. */
#define RENDER(w, method, ...) \
  G_STMT_START \
  { \
    for (guint r_ = 0; r_ < (w)->n_renderers; r_++) \
      { \
        LoomExportRenderer *renderer_ = (w)->renderers[r_]; \
        if (!renderer_->klass->method (renderer_, __VA_ARGS__)) \
          return FALSE; \
      } \
  } \
  G_STMT_END

/* @text in a block that shows it verbatim, whatever it holds. */
static gboolean
write_fenced (Writer     *w,
              const char *label,
              const char *info,
              gboolean    is_error,
              const char *text,
              GError    **error)
{
  g_autofree char *redacted = NULL;
  g_autofree char *stripped = NULL;

  text = loom_export_filter_apply (w->filter, text, &redacted);
  stripped = loom_timeline_format_strip_controls (text);
  RENDER (w, verbatim, label, info, is_error, stripped != NULL ? stripped : text, error);
  return TRUE;
}

static gboolean
write_heading (Writer                 *w,
               LoomExportEntryKind     kind,
               const char             *label,
               const char             *detail,
               const LoomTimelineData *data,
               GError                **error)
{
  g_autofree char *redacted = NULL;
  g_autofree char *line = loom_naming_bound_line (
    loom_export_filter_apply (w->filter, detail, &redacted), HEADING_LIMIT);
  g_autofree char *when = data->created_at != 0 ? loom_time_to_iso (data->created_at) : NULL;

  RENDER (w, heading, kind, label, line, when, error);
  return TRUE;
}

/* What a message is at the detail levels: a prompt or reply at every level, the rest only in
 * the full history. NULL: not written at @detail. */
static const char *
message_label (const LoomTimelineData *data,
               LoomExportDetail        detail)
{
  const char *label;

  if ((data->flags & LOOM_MESSAGE_NOT_A_PROMPT) == 0 && g_strcmp0 (data->role, "user") == 0)
    return "User";
  if ((data->flags & LOOM_MESSAGE_NOT_A_PROMPT) == 0 && g_strcmp0 (data->role, "assistant") == 0)
    return "Assistant";

  if (data->flags & LOOM_MESSAGE_COMPACT_SUMMARY)
    label = "Compaction summary";
  else if (data->flags & LOOM_MESSAGE_API_ERROR)
    label = "Error";
  else if (data->flags & LOOM_MESSAGE_COMMAND)
    label = "Command";
  else
    label = "Notice";
  return detail >= LOOM_EXPORT_DETAIL_FULL ? label : NULL;
}

static gboolean
write_message (Writer                 *w,
               const LoomTimelineData *data,
               GError                **error)
{
  const char      *label = message_label (data, w->detail);
  g_autofree char *redacted = NULL;
  g_autofree char *untagged = NULL;
  g_autofree char *stripped = NULL;
  const char      *text;

  if (label == NULL || data->text == NULL)
    return TRUE;

  if (!write_heading (w, LOOM_EXPORT_ENTRY_MESSAGE, label, NULL, data, error))
    return FALSE;
  /* A prompt and a reply are Markdown already, and are written as they are; what the harness
   * wrapped in tags (slash commands) reads better without them. */
  text = loom_export_filter_apply (w->filter, data->text, &redacted);
  untagged = loom_timeline_format_strip_tags (text);
  text = untagged != NULL ? untagged : text;
  /* Terminal escapes pasted into a prompt would show as boxes, or recolour a terminal that
   * prints the file. */
  if ((stripped = loom_timeline_format_strip_controls (text)) != NULL)
    text = stripped;
  RENDER (w, markdown, text, error);
  return TRUE;
}

/* The whole output of a call's result: from its payload, else its stored text. */
static gboolean
write_result (Writer           *w,
              LoomTimelineItem *result,
              GError          **error)
{
  const LoomTimelineData *data;
  g_autofree char        *payload = NULL;
  g_autofree char        *output = NULL;

  if (result == NULL)
    return TRUE;
  data = loom_timeline_item_get_data (result);
  payload = read_payload (w, data->id);
  output = loom_timeline_format_result_output (payload);
  return write_fenced (w, data->is_error ? "Result (error)" : "Result", "text", data->is_error,
                       output != NULL ? output : (data->text != NULL ? data->text : ""), error);
}

static gboolean
write_tool_call (Writer                 *w,
                 LoomTimelineItem       *item,
                 const LoomTimelineData *data,
                 GError                **error)
{
  g_autofree char *payload = read_payload (w, data->id);
  g_autofree char *input = loom_timeline_format_input (payload);

  return write_heading (w, LOOM_EXPORT_ENTRY_EVENT, "Tool", data->tool_name, data, error) &&
         write_fenced (w, "Input", "text", FALSE,
                       input != NULL ? input : (data->text != NULL ? data->text : ""), error) &&
         write_result (w, loom_timeline_model_item_get_result (item), error);
}

static gboolean
write_file_change (Writer                 *w,
                   LoomTimelineItem       *item,
                   const LoomTimelineData *data,
                   GError                **error)
{
  LoomTimelineItem *result = loom_timeline_model_item_get_result (item);
  g_autofree char  *payload = read_payload (w, data->id);
  g_autofree char  *result_payload = NULL;
  g_autofree char  *diff = NULL;
  g_autofree char  *what = NULL;

  if (result != NULL)
    result_payload = read_payload (w, loom_timeline_item_get_data (result)->id);
  diff = loom_timeline_format_diff (payload, result_payload);
  what = g_strdup_printf ("%s%s%s", data->change_kind != NULL ? data->change_kind : "change",
                          data->path != NULL ? " " : "", data->path != NULL ? data->path : "");

  if (!write_heading (w, LOOM_EXPORT_ENTRY_EVENT, "File", what, data, error))
    return FALSE;
  if (diff != NULL)
    return write_fenced (w, NULL, "diff", FALSE, diff, error);
  return write_fenced (w, NULL, "text", FALSE, data->text != NULL ? data->text : "", error);
}

static gboolean
write_subagent (Writer                 *w,
                LoomTimelineItem       *item,
                const LoomTimelineData *data,
                GError                **error)
{
  g_autofree char *payload = read_payload (w, data->id);
  g_autofree char *prompt = loom_timeline_format_subagent_prompt (payload);
  const char      *child = loom_timeline_model_item_get_child_uuid (item);
  const char      *folder = NULL;

  if (!write_heading (w, LOOM_EXPORT_ENTRY_EVENT, "Sub-agent", data->tool_name, data, error))
    return FALSE;
  /* A sub-agent whose conversation is in the package is linked where it was started. */
  if (child != NULL && w->subagent_links != NULL)
    folder = g_hash_table_lookup (w->subagent_links, child);
  if (child != NULL)
    RENDER (w, subagent, child, folder, error);
  return write_fenced (w, "Task", "text", FALSE,
                       prompt != NULL ? prompt : (data->text != NULL ? data->text : ""), error) &&
         write_result (w, loom_timeline_model_item_get_result (item), error);
}

/* Reasoning, compactions, errors and what the importer kept whole: in the full history. */
static gboolean
write_other_event (Writer                 *w,
                   const LoomTimelineData *data,
                   GError                **error)
{
  const char      *label;
  g_autofree char *payload = NULL;

  if (w->detail < LOOM_EXPORT_DETAIL_FULL)
    return TRUE;

  if (g_strcmp0 (data->kind, LOOM_EVENT_REASONING) == 0)
    label = "Reasoning";
  else if (g_strcmp0 (data->kind, LOOM_EVENT_COMPACTION) == 0)
    label = "Compaction";
  else if (g_strcmp0 (data->kind, LOOM_EVENT_API_ERROR) == 0)
    label = "Error";
  else
    label = "Notice";

  if (!write_heading (w, LOOM_EXPORT_ENTRY_EVENT, label,
                      g_str_equal (label, "Notice") ? data->kind : NULL, data, error))
    return FALSE;

  /* A record the importer did not understand is kept whole as its payload: that is what it
   * says, not the line the view shows for it. */
  if (g_strcmp0 (data->kind, LOOM_EVENT_RAW) == 0 && (payload = read_payload (w, data->id)))
    return write_fenced (w, NULL, "json", FALSE, payload, error);
  if (!write_fenced (w, NULL, "text", FALSE, data->text != NULL ? data->text : "", error))
    return FALSE;
  /* A long reasoning cut by the store is whole in its payload, as the agent wrote it. */
  if (data->text != NULL && strlen (data->text) >= STORED_TEXT_CUT_AT &&
      data->payload_size > (gint64)strlen (data->text) && (payload = read_payload (w, data->id)))
    return write_fenced (w, "Whole record", "json", FALSE, payload, error);
  return TRUE;
}

static gboolean
write_event (Writer           *w,
             LoomTimelineItem *item,
             GError          **error)
{
  const LoomTimelineData *data = loom_timeline_item_get_data (item);

  if (g_strcmp0 (data->kind, LOOM_EVENT_TOOL_CALL) == 0 ||
      g_strcmp0 (data->kind, LOOM_EVENT_FILE_CHANGE) == 0 ||
      g_strcmp0 (data->kind, LOOM_EVENT_SUBAGENT) == 0 ||
      g_strcmp0 (data->kind, LOOM_EVENT_TOOL_RESULT) == 0)
    {
      if (w->detail < LOOM_EXPORT_DETAIL_TOOLS)
        return TRUE;
      if (g_str_equal (data->kind, LOOM_EVENT_TOOL_CALL))
        return write_tool_call (w, item, data, error);
      if (g_str_equal (data->kind, LOOM_EVENT_FILE_CHANGE))
        return write_file_change (w, item, data, error);
      if (g_str_equal (data->kind, LOOM_EVENT_SUBAGENT))
        return write_subagent (w, item, data, error);
      /* A result whose call is not in the session (cut off by a compaction). */
      return write_heading (w, LOOM_EXPORT_ENTRY_EVENT, "Tool result", data->tool_name, data,
                            error) &&
             write_result (w, item, error);
    }
  return write_other_event (w, data, error);
}

static gboolean
write_header (Writer      *w,
              LoomSession *session,
              GError     **error)
{
  const LoomSessionRecord *r = loom_session_get_record (session);
  g_autofree char         *redacted_title = NULL;
  g_autofree char         *redacted_cwd = NULL;
  g_autofree char         *title = NULL;
  const char *cwd = r->cwd != NULL ? loom_export_filter_apply (w->filter, r->cwd, &redacted_cwd)
                                   : NULL;
  g_autofree char *created = r->created_at != 0 ? loom_time_to_iso (r->created_at) : NULL;
  g_autofree char *agent = NULL;
  LoomExportField  fields[7];
  guint            n = 0;

  redacted_title = loom_export_filter_title (w->filter, r->title);
  title = loom_naming_bound_line (redacted_title != NULL ? redacted_title : r->title,
                                  LOOM_NAMING_TITLE_LIMIT);
  fields[n++] = (LoomExportField){ "Session", r->uuid };
  if (r->source != NULL)
    {
      agent = g_strdup_printf ("%s%s%s", r->source, r->agent_version != NULL ? " " : "",
                               r->agent_version != NULL ? r->agent_version : "");
      fields[n++] = (LoomExportField){ "Agent", agent };
    }
  if (r->model != NULL)
    fields[n++] = (LoomExportField){ "Model", r->model };
  if (r->project_name != NULL)
    fields[n++] = (LoomExportField){ "Project", r->project_name };
  if (cwd != NULL)
    fields[n++] = (LoomExportField){ "Folder", cwd };
  if (created != NULL)
    fields[n++] = (LoomExportField){ "Created", created };
  fields[n++] = (LoomExportField){ "Detail", loom_export_detail_to_string (w->detail) };
  g_assert (n <= G_N_ELEMENTS (fields));

  RENDER (w, header, title != NULL ? title : "Untitled session", fields, n, error);
  return TRUE;
}

void
loom_export_renderer_free (LoomExportRenderer *self)
{
  if (self != NULL)
    self->klass->free (self);
}

gboolean
loom_export_write_conversation (LoomStore        *store,
                                LoomSession      *session,
                                LoomExportDetail  detail,
                                LoomExportFilter *filter,
                                GHashTable       *subagent_links,
                                LoomExportFile   *markdown,
                                LoomExportFile   *html,
                                GCancellable     *cancellable,
                                GError          **error)
{
  g_autoptr (LoomTimelineModel) timeline = NULL;
  g_autoptr (LoomExportRenderer) markdown_renderer = NULL;
  g_autoptr (LoomExportRenderer) html_renderer = NULL;
  Writer w = { store, detail, filter, subagent_links, { NULL, NULL }, 0 };
  guint  n_items;

  g_assert (LOOM_IS_STORE (store));
  g_assert (LOOM_IS_SESSION (session));
  g_assert (markdown != NULL);

  markdown_renderer = loom_export_renderer_new_markdown (markdown);
  w.renderers[w.n_renderers++] = markdown_renderer;
  if (html != NULL)
    {
      html_renderer = loom_export_renderer_new_html (html);
      w.renderers[w.n_renderers++] = html_renderer;
    }

  if (!(timeline = loom_timeline_model_new (store, loom_session_get_id (session), error)))
    return FALSE;
  if (!write_header (&w, session, error))
    return FALSE;

  n_items = g_list_model_get_n_items (G_LIST_MODEL (timeline));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (G_LIST_MODEL (timeline), i);
      const LoomTimelineData *data = loom_timeline_item_get_data (item);
      gboolean                ok;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      ok = data->is_message ? write_message (&w, data, error) : write_event (&w, item, error);
      if (!ok)
        return FALSE;
    }
  RENDER (&w, finish, error);
  return TRUE;
}
