/* loom-timeline-message-row.c — a message, or the agent's reasoning, in the timeline.
 *
 * A person's prompts sit in a tinted bubble headed "You"; the agent's replies are plain text
 * under its name. What is kept but was not said by either (injected context, slash-command
 * output, the compaction summary) and the agent's reasoning start folded to one dim line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-importer.h"
#include "loom-markdown.h"
#include "loom-timeline-format.h"
#include "loom-timeline-loader.h"
#include "loom-timeline-message-row.h"

/* A pasted log can be megabytes: show a screenful of it until asked for the rest. */
#define HEAD_LINES        200
#define HEAD_CHARS        12000
/* Asked for the rest, still no more than a label lays out quickly; Copy takes all of it. */
#define ALL_LINES         2000
#define ALL_CHARS         32768
/* What md4c reads for each: it reads all it is given before the first block comes out.
 * Nesting is markup, not text, so the folded head reads well past its characters: the
 * words after 100,000 nested quotes are still in it. */
#define HEAD_SOURCE       (256 * 1024)
#define ALL_SOURCE        (4 * 1024 * 1024)
#define DESCRIPTION_CHARS 160

typedef enum
{
  KIND_USER,
  KIND_ASSISTANT,
  KIND_SYSTEM,
  KIND_FLAGGED,
  KIND_REASONING,
} MessageKind;

struct _LoomTimelineMessageRow
{
  GtkWidget parent_instance;

  LoomTimelineContext *context;
  LoomTimelineItem    *item;

  GtkLabel  *author_label;
  GtkBox    *body_box;
  GtkBox    *bubble;
  GtkButton *copy_button;
  GtkButton *expand_button;
  GtkLabel  *model_label;
  GtkButton *more_button;
  GtkLabel  *preview_label;
  GtkLabel  *time_label;

  GCancellable *parse_cancellable; /* the whole message being parsed in a worker */
};

G_DEFINE_FINAL_TYPE (LoomTimelineMessageRow, loom_timeline_message_row, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_CONTEXT,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static MessageKind
message_kind (const LoomTimelineData *d)
{
  if (!d->is_message)
    return KIND_REASONING;
  if (d->flags & LOOM_MESSAGE_NOT_A_PROMPT)
    return KIND_FLAGGED;
  if (g_strcmp0 (d->role, "user") == 0)
    return KIND_USER;
  if (g_strcmp0 (d->role, "assistant") == 0)
    return KIND_ASSISTANT;
  return KIND_SYSTEM;
}

static const char *
flag_title (guint flags)
{
  if (flags & LOOM_MESSAGE_COMPACT_SUMMARY)
    return _ ("Compaction summary");
  if (flags & LOOM_MESSAGE_COMMAND)
    return _ ("Slash command");
  if (flags & LOOM_MESSAGE_API_ERROR)
    return _ ("API error");
  if (flags & LOOM_MESSAGE_META)
    return _ ("Meta message");
  return _ ("Injected context");
}

static const char *
author_for (LoomTimelineContext    *context,
            const LoomTimelineData *d)
{
  switch (message_kind (d))
    {
    case KIND_USER:
      return _ ("You");
    case KIND_ASSISTANT:
      return loom_timeline_context_get_agent_name (context);
    case KIND_FLAGGED:
      return flag_title (d->flags);
    case KIND_REASONING:
      return _ ("Thinking");
    case KIND_SYSTEM:
    default:
      return _ ("System");
    }
}

/* The text on one line, whitespace collapsed, for previews and screen readers. */
static char *
one_line (const char *text,
          glong       max_chars)
{
  g_autoptr (GString) out = g_string_new (NULL);
  gboolean space = FALSE;
  glong    n = 0;

  for (const char *p = text != NULL ? text : ""; *p != '\0' && n < max_chars;
       p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar)-1 || c == (gunichar)-2)
        break;
      if (g_unichar_isspace (c))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        {
          g_string_append_c (out, ' ');
          n++;
          space = FALSE;
        }
      g_string_append_unichar (out, c);
      n++;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
loom_timeline_message_row_describe (LoomTimelineContext *context,
                                    LoomTimelineItem    *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  g_autofree char        *text = one_line (d->text, DESCRIPTION_CHARS);

  switch (message_kind (d))
    {
    case KIND_USER:
      /* Translators: the accessible label of a person's message in the timeline. */
      return g_strdup_printf (_ ("You said: %s"), text);
    case KIND_ASSISTANT:
      /* Translators: the first %s is the agent's name, the second its message. */
      return g_strdup_printf (_ ("%s said: %s"), loom_timeline_context_get_agent_name (context),
                              text);
    case KIND_REASONING:
      return g_strdup_printf (_ ("Reasoning: %s"), text);
    case KIND_FLAGGED:
      return g_strdup_printf ("%s: %s", flag_title (d->flags), text);
    case KIND_SYSTEM:
    default:
      return g_strdup_printf (_ ("System notice: %s"), text);
    }
}

static gboolean
is_expanded (LoomTimelineMessageRow *self)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (self->item);
  MessageKind             kind = message_kind (d);
  gboolean                fallback;

  if (kind != KIND_FLAGGED && kind != KIND_REASONING)
    return TRUE;
  fallback = kind == KIND_REASONING && loom_timeline_context_get_show_reasoning (self->context);
  return loom_timeline_context_get_state (self->context, self->item, LOOM_TIMELINE_STATE_EXPANDED,
                                          fallback);
}

static void
clear_body (LoomTimelineMessageRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->body_box))))
    gtk_box_remove (self->body_box, child);
}

static void on_markdown_parsed_cb (GObject      *source,
                                   GAsyncResult *result,
                                   gpointer      user_data);

static void
cancel_parse (LoomTimelineMessageRow *self)
{
  g_cancellable_cancel (self->parse_cancellable);
  g_clear_object (&self->parse_cancellable);
}

/* Builds what the state asks for: the preview line, or the rendered text (whole or its head).
 * A head is parsed here, within a frame; a long message shown whole is parsed in a worker
 * (loom-timeline-loader.h), its head shown meanwhile, the button waiting beside a spinner. */
static void
update_body (LoomTimelineMessageRow *self)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (self->item);
  MessageKind             kind = message_kind (d);
  gboolean                collapsible = kind == KIND_FLAGGED || kind == KIND_REASONING;
  gboolean                expanded = is_expanded (self);
  g_autofree char        *prefix = NULL;
  g_autofree char        *clean = NULL;
  g_autofree char        *untagged = NULL;
  const char             *text = d->text;
  gboolean show_more = loom_timeline_context_get_state (self->context, self->item,
                                                        LOOM_TIMELINE_STATE_SHOW_MORE, FALSE);
  gsize    length = d->text != NULL ? strlen (d->text) : 0;
  gsize    bound = show_more ? ALL_SOURCE : HEAD_SOURCE;
  gsize    left_out = 0;
  LoomTimelineLoader   *loader = loom_timeline_context_get_loader (self->context);
  LoomTimelineMarkdown *markdown = NULL;
  gboolean              loading = FALSE;
  gboolean              whole = FALSE;

  /* Past a head's source, the whole is the worker's to parse. */
  if (show_more && expanded && length > HEAD_SOURCE)
    {
      /* Messages and events are numbered apart. */
      gint64 key = (d->id << 1) | (d->is_message ? 1 : 0);

      if (!(markdown = loom_timeline_loader_lookup_markdown (loader, key)))
        {
          loading = TRUE;
          if (self->parse_cancellable == NULL)
            {
              self->parse_cancellable = g_cancellable_new ();
              loom_timeline_loader_parse_markdown_async (
                loader, key, g_object_ref (self->item), g_object_unref, d->text,
                d->is_message && (d->flags & LOOM_MESSAGE_COMMAND), ALL_SOURCE, ALL_CHARS,
                ALL_LINES, self->parse_cancellable, on_markdown_parsed_cb, self);
            }
        }
      show_more = FALSE;
      bound = HEAD_SOURCE;
    }

  clear_body (self);
  gtk_widget_set_visible (GTK_WIDGET (self->expand_button), collapsible);
  gtk_button_set_icon_name (self->expand_button,
                            expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  loom_timeline_set_tooltip (GTK_WIDGET (self->expand_button),
                             expanded ? _ ("Collapse") : _ ("Expand"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->expand_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  expanded ? _ ("Collapse") : _ ("Expand"), -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->expand_button), GTK_ACCESSIBLE_STATE_EXPANDED,
                               expanded, -1);

  /* Nothing past what md4c will read is looked at: a row of a 50 MB message binds as fast
   * as any other. */
  if (markdown != NULL)
    ;
  else if (length > bound)
    text = prefix = g_strndup (d->text, bound);
  clean = loom_timeline_format_strip_controls (text);
  if (clean != NULL)
    text = clean;
  /* Slash commands are stored as the XML the harness wrapped them in; people typed "/cost". */
  if (d->is_message && (d->flags & LOOM_MESSAGE_COMMAND) &&
      (untagged = loom_timeline_format_strip_tags (text)))
    text = untagged;

  if (!expanded)
    {
      g_autofree char *preview = one_line (text, 300);

      gtk_label_set_text (self->preview_label, preview);
      gtk_widget_set_visible (GTK_WIDGET (self->preview_label), TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->body_box), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->more_button), FALSE);
      return;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->preview_label), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->body_box), TRUE);
  whole = show_more || markdown != NULL;
  if (markdown != NULL)
    {
      gtk_box_append (self->body_box, loom_markdown_render_blocks (markdown->document));
      left_out = markdown->n_left_out;
    }
  else if (show_more)
    gtk_box_append (self->body_box,
                    loom_markdown_render_head (text, ALL_SOURCE, ALL_CHARS, ALL_LINES, &left_out));
  else
    gtk_box_append (self->body_box, loom_markdown_render_head (text, HEAD_SOURCE, HEAD_CHARS,
                                                               HEAD_LINES, &left_out));
  if (prefix != NULL)
    left_out += length - bound;
  gtk_widget_set_visible (GTK_WIDGET (self->more_button), !whole && left_out > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->more_button), !loading);

  /* Said in so many words: a message cut short must not pass for the whole of it. */
  if (loading)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *spinner = gtk_spinner_new ();
      GtkWidget *label = gtk_label_new (_ ("Loading…"));

      gtk_spinner_start (GTK_SPINNER (spinner));
      gtk_box_append (GTK_BOX (box), spinner);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      loom_search_marker_skip (label);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (self->body_box, box);
    }
  else if (left_out > 0)
    {
      g_autofree char *more = loom_timeline_format_left_out (left_out, FALSE);
      g_autofree char *note = NULL;
      GtkWidget       *label;

      if (whole)
        /* Translators: under the shown part of a very long message; %s is "… 49.9 MB more". */
        note = g_strdup_printf (_ ("%s, not shown. Copy takes the whole message."), more);
      label = gtk_label_new (note != NULL ? note : more);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "loom-left-out");
      loom_search_marker_skip (label);
      gtk_box_append (self->body_box, label);
    }
}

static void
on_markdown_parsed_cb (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr (LoomTimelineMarkdown) markdown = NULL;
  g_autoptr (GError) error = NULL;
  LoomTimelineMessageRow *self;

  markdown = loom_timeline_loader_parse_markdown_finish (LOOM_TIMELINE_LOADER (source), result,
                                                         &error);
  /* Cancelled: the row was recycled or disposed, and may be gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = LOOM_TIMELINE_MESSAGE_ROW (user_data);
  g_clear_object (&self->parse_cancellable);
  if (markdown == NULL)
    {
      g_warning ("Could not parse a message: %s", error->message);
      return;
    }
  if (self->item != NULL)
    {
      update_body (self);
      loom_timeline_context_mark (self->context, GTK_WIDGET (self));
    }
}

gboolean
loom_timeline_message_row_get_loading (LoomTimelineMessageRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_MESSAGE_ROW (self), FALSE);

  return self->parse_cancellable != NULL;
}

static void
on_expand_clicked_cb (LoomTimelineMessageRow *self)
{
  g_assert (LOOM_IS_TIMELINE_MESSAGE_ROW (self));

  if (self->item == NULL)
    return;
  loom_timeline_context_set_state (self->context, self->item, LOOM_TIMELINE_STATE_EXPANDED,
                                   !is_expanded (self));
  update_body (self);
  loom_timeline_context_mark (self->context, GTK_WIDGET (self));
}

static void
on_preview_released_cb (LoomTimelineMessageRow *self)
{
  on_expand_clicked_cb (self);
}

static void
on_more_clicked_cb (LoomTimelineMessageRow *self)
{
  g_assert (LOOM_IS_TIMELINE_MESSAGE_ROW (self));

  if (self->item == NULL)
    return;
  loom_timeline_context_set_state (self->context, self->item, LOOM_TIMELINE_STATE_SHOW_MORE, TRUE);
  update_body (self);
  loom_timeline_context_mark (self->context, GTK_WIDGET (self));
}

static void
on_copy_clicked_cb (LoomTimelineMessageRow *self)
{
  g_autoptr (GdkContentProvider) provider = NULL;
  g_autoptr (GBytes) bytes = NULL;
  const char *text;

  g_assert (LOOM_IS_TIMELINE_MESSAGE_ROW (self));

  if (self->item == NULL)
    return;
  text = loom_timeline_item_get_data (self->item)->text;
  if (text == NULL)
    return;
  /* The message's own bytes, kept by the item: no copy of megabytes on the UI thread. */
  bytes = g_bytes_new_with_free_func (text, strlen (text), g_object_unref,
                                      g_object_ref (self->item));
  provider = gdk_content_provider_new_for_bytes ("text/plain;charset=utf-8", bytes);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (self)), provider);
}

void
loom_timeline_message_row_set_item (LoomTimelineMessageRow *self,
                                    LoomTimelineItem       *item)
{
  static const char *const kind_classes[] = {
    "user", "assistant", "system", "flagged", "reasoning",
  };
  const LoomTimelineData *d;
  g_autofree char        *time = NULL;
  g_autofree char        *date_time = NULL;
  MessageKind             kind;
  gboolean                show_model;

  g_return_if_fail (LOOM_IS_TIMELINE_MESSAGE_ROW (self));
  g_return_if_fail (item == NULL || LOOM_IS_TIMELINE_ITEM (item));

  if (!g_set_object (&self->item, item))
    return;
  cancel_parse (self);

  for (guint i = 0; i < G_N_ELEMENTS (kind_classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->bubble), kind_classes[i]);

  if (item == NULL)
    {
      clear_body (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
      return;
    }

  d = loom_timeline_item_get_data (item);
  kind = message_kind (d);
  gtk_widget_add_css_class (GTK_WIDGET (self->bubble), kind_classes[kind]);

  gtk_label_set_text (self->author_label, author_for (self->context, d));
  show_model = kind == KIND_ASSISTANT && d->model != NULL && d->model[0] != '<';
  gtk_label_set_text (self->model_label, show_model ? d->model : "");
  gtk_widget_set_visible (GTK_WIDGET (self->model_label), show_model);

  time = loom_timeline_format_time (d->created_at);
  date_time = loom_timeline_format_date_time (d->created_at);
  gtk_label_set_text (self->time_label, time);
  loom_timeline_set_tooltip (GTK_WIDGET (self->time_label), date_time);

  update_body (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

static void
loom_timeline_message_row_dispose (GObject *object)
{
  LoomTimelineMessageRow *self = (LoomTimelineMessageRow *)object;

  cancel_parse (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_TIMELINE_MESSAGE_ROW);
  g_clear_object (&self->item);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (loom_timeline_message_row_parent_class)->dispose (object);
}

static void
loom_timeline_message_row_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  LoomTimelineMessageRow *self = LOOM_TIMELINE_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_message_row_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  LoomTimelineMessageRow *self = LOOM_TIMELINE_MESSAGE_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;
    case PROP_ITEM:
      loom_timeline_message_row_set_item (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_message_row_class_init (LoomTimelineMessageRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_timeline_message_row_dispose;
  object_class->get_property = loom_timeline_message_row_get_property;
  object_class->set_property = loom_timeline_message_row_set_property;

  properties[PROP_CONTEXT] = g_param_spec_object ("context", NULL, NULL, LOOM_TYPE_TIMELINE_CONTEXT,
                                                  G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                    G_PARAM_STATIC_STRINGS);
  properties[PROP_ITEM] = g_param_spec_object ("item", NULL, NULL, LOOM_TYPE_TIMELINE_ITEM,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                 G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-timeline-message-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, author_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, body_box);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, bubble);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, copy_button);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, expand_button);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, model_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, more_button);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, preview_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineMessageRow, time_label);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_expand_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_more_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_preview_released_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
loom_timeline_message_row_init (LoomTimelineMessageRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  loom_timeline_set_tooltip (GTK_WIDGET (self->copy_button), _ ("Copy Message"));
  /* Who spoke and when is no part of what they said, where a search finds its words. */
  loom_search_marker_skip (GTK_WIDGET (self->author_label));
  loom_search_marker_skip (GTK_WIDGET (self->model_label));
  loom_search_marker_skip (GTK_WIDGET (self->time_label));
}

GtkWidget *
loom_timeline_message_row_new (LoomTimelineContext *context)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (context), NULL);

  return g_object_new (LOOM_TYPE_TIMELINE_MESSAGE_ROW, "context", context, NULL);
}
