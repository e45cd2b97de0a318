/* loom-timeline-notice-row.c — the small print of a timeline: lifecycle records, compactions,
 * API errors.
 *
 * Lifecycle records (a turn's duration, a hook, a title) are a dim line; a compaction divides
 * the conversation it summarised from what follows; an API error stands out in the error
 * colour, since the agent's work stopped there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-markdown.h"
#include "loom-timeline-format.h"
#include "loom-timeline-notice-row.h"

#define DESCRIPTION_CHARS 160
/* A notice is a line or a paragraph; an API error's message or a hook's output can be
 * megabytes, and a label lays out all it is given. Past these, a note says how much more. */
#define NOTE_BYTES        2000
#define ERROR_BYTES       8000
/* The importer keeps an event's text to 64 KiB; its payload says about how long it was. */
#define STORED_TEXT_BOUND (65536 - 4)

typedef enum
{
  NOTICE_NOTE,
  NOTICE_DIVIDER,
  NOTICE_ERROR,
} NoticeKind;

struct _LoomTimelineNoticeRow
{
  GtkWidget parent_instance;

  LoomTimelineContext *context;
  LoomTimelineItem    *item;

  GtkLabel *divider_detail;
  GtkLabel *divider_label;
  GtkLabel *error_label;
  GtkLabel *error_time;
  GtkLabel *error_title;
  GtkImage *note_icon;
  GtkLabel *note_label;
  GtkLabel *note_time;
  GtkStack *stack;
};

G_DEFINE_FINAL_TYPE (LoomTimelineNoticeRow, loom_timeline_notice_row, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_CONTEXT,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static NoticeKind
notice_kind (const LoomTimelineData *d)
{
  if (d->is_message || g_strcmp0 (d->kind, "api_error") == 0)
    return NOTICE_ERROR;
  if (g_strcmp0 (d->kind, "compaction") == 0)
    return NOTICE_DIVIDER;
  return NOTICE_NOTE;
}

/* "Conversation compacted (manual, 48210 tokens before)" says its title twice: keep the
 * parenthesis. Other agents store the summary itself, which is worth a line. */
/* At most @max_chars characters of @text. g_utf8_substring() walks past the end of a shorter
 * string, so the length is checked first. */
static char *
prefix_chars (const char *text,
              glong       max_chars)
{
  return g_utf8_substring (text, 0, MIN (max_chars, g_utf8_strlen (text, -1)));
}

static char *
compaction_detail (const char *text)
{
  static const char prefix[] = "Conversation compacted";
  g_autofree char  *rest = NULL;

  if (text == NULL)
    return g_strdup ("");
  if (!g_str_has_prefix (text, prefix))
    return g_strstrip (g_strdup (text));

  rest = g_strstrip (g_strdup (text + strlen (prefix)));
  if (rest[0] == '(' && g_str_has_suffix (rest, ")"))
    return g_strndup (rest + 1, strlen (rest) - 2);
  return g_steal_pointer (&rest);
}

static const char *
note_text (const LoomTimelineData *d,
           char                  **owned)
{
  if (g_strcmp0 (d->kind, "raw") == 0)
    {
      /* Translators: a record of a kind the importer did not know; %s is its type. */
      *owned = g_strdup_printf (_ ("Unrecognised record: %s"), d->text != NULL ? d->text : "");
      return *owned;
    }
  if ((*owned = loom_timeline_format_strip_controls (d->text)))
    return *owned;
  return d->text != NULL ? d->text : "";
}

char *
loom_timeline_notice_row_describe (LoomTimelineContext *context,
                                   LoomTimelineItem    *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  g_autofree char        *owned = NULL;
  g_autofree char        *detail = NULL;
  g_autofree char        *text = NULL;

  switch (notice_kind (d))
    {
    case NOTICE_DIVIDER:
      detail = compaction_detail (d->text);
      if (*detail == '\0')
        return g_strdup (_ ("Conversation compacted"));
      return g_strdup_printf (_ ("Conversation compacted: %s"), detail);

    case NOTICE_ERROR:
      text = prefix_chars (d->text != NULL ? d->text : "", DESCRIPTION_CHARS);
      return g_strdup_printf (_ ("API error: %s"), text);

    case NOTICE_NOTE:
    default:
      return prefix_chars (note_text (d, &owned), DESCRIPTION_CHARS);
    }
}

/* How long the whole of an event's text was, when the store kept only part of it; else 0. */
static guint64
whole_size (const LoomTimelineData *d)
{
  if (d->is_message || d->text == NULL || strlen (d->text) < STORED_TEXT_BOUND)
    return 0;
  return d->payload_size > 0 ? (guint64)d->payload_size : 0;
}

void
loom_timeline_notice_row_set_item (LoomTimelineNoticeRow *self,
                                   LoomTimelineItem      *item)
{
  const LoomTimelineData *d;
  g_autofree char        *time = NULL;
  g_autofree char        *date_time = NULL;
  g_autofree char        *owned = NULL;
  g_autofree char        *detail = NULL;
  g_autofree char        *line = NULL;
  const char             *text;

  g_return_if_fail (LOOM_IS_TIMELINE_NOTICE_ROW (self));
  g_return_if_fail (item == NULL || LOOM_IS_TIMELINE_ITEM (item));

  if (!g_set_object (&self->item, item))
    return;
  if (item == NULL)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
      return;
    }

  d = loom_timeline_item_get_data (item);
  time = loom_timeline_format_time (d->created_at);
  date_time = loom_timeline_format_date_time (d->created_at);

  switch (notice_kind (d))
    {
    case NOTICE_DIVIDER:
      detail = compaction_detail (d->text);
      if ((owned = loom_timeline_format_bounded (detail, NOTE_BYTES, whole_size (d))))
        {
          g_free (detail);
          detail = g_steal_pointer (&owned);
        }
      gtk_label_set_text (self->divider_detail, detail);
      gtk_widget_set_visible (GTK_WIDGET (self->divider_detail), *detail != '\0');
      loom_timeline_set_tooltip (GTK_WIDGET (self->divider_detail), detail);
      gtk_stack_set_visible_child_name (self->stack, "divider");
      break;

    case NOTICE_ERROR:
      if (!(owned = loom_timeline_format_strip_controls (d->text)))
        owned = g_strdup (d->text != NULL ? d->text : "");
      if ((detail = loom_timeline_format_bounded (owned, ERROR_BYTES, whole_size (d))))
        {
          g_free (owned);
          owned = g_steal_pointer (&detail);
        }
      gtk_label_set_text (self->error_label, owned);
      loom_markdown_label_set_wrap_for (self->error_label, owned);
      gtk_label_set_text (self->error_time, time);
      loom_timeline_set_tooltip (GTK_WIDGET (self->error_time), date_time);
      gtk_stack_set_visible_child_name (self->stack, "error");
      break;

    case NOTICE_NOTE:
    default:
      text = note_text (d, &owned);
      if ((detail = loom_timeline_format_bounded (text, NOTE_BYTES, whole_size (d))))
        text = detail;
      /* The note is one line: a line break in a title shows as a glyph there. */
      text = line = g_strdelimit (g_strdup (text), "\n\r\t", ' ');
      gtk_image_set_from_icon_name (self->note_icon, g_strcmp0 (d->kind, "raw") == 0
                                                       ? "text-x-generic-symbolic"
                                                       : "document-open-recent-symbolic");
      gtk_label_set_text (self->note_label, text);
      loom_timeline_set_tooltip (GTK_WIDGET (self->note_label), text);
      gtk_label_set_text (self->note_time, time);
      loom_timeline_set_tooltip (GTK_WIDGET (self->note_time), date_time);
      gtk_stack_set_visible_child_name (self->stack, "note");
      break;
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

static void
loom_timeline_notice_row_dispose (GObject *object)
{
  LoomTimelineNoticeRow *self = (LoomTimelineNoticeRow *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_TIMELINE_NOTICE_ROW);
  g_clear_object (&self->item);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (loom_timeline_notice_row_parent_class)->dispose (object);
}

static void
loom_timeline_notice_row_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  LoomTimelineNoticeRow *self = LOOM_TIMELINE_NOTICE_ROW (object);

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
loom_timeline_notice_row_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  LoomTimelineNoticeRow *self = LOOM_TIMELINE_NOTICE_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;
    case PROP_ITEM:
      loom_timeline_notice_row_set_item (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_notice_row_class_init (LoomTimelineNoticeRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_timeline_notice_row_dispose;
  object_class->get_property = loom_timeline_notice_row_get_property;
  object_class->set_property = loom_timeline_notice_row_set_property;

  properties[PROP_CONTEXT] = g_param_spec_object ("context", NULL, NULL, LOOM_TYPE_TIMELINE_CONTEXT,
                                                  G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                    G_PARAM_STATIC_STRINGS);
  properties[PROP_ITEM] = g_param_spec_object ("item", NULL, NULL, LOOM_TYPE_TIMELINE_ITEM,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                 G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-timeline-notice-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, divider_detail);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, divider_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, error_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, error_time);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, error_title);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, note_icon);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, note_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, note_time);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineNoticeRow, stack);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
loom_timeline_notice_row_init (LoomTimelineNoticeRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The row's own words and times: a search marks only what the agent recorded. */
  loom_search_marker_skip (GTK_WIDGET (self->divider_label));
  loom_search_marker_skip (GTK_WIDGET (self->error_time));
  loom_search_marker_skip (GTK_WIDGET (self->error_title));
  loom_search_marker_skip (GTK_WIDGET (self->note_time));
}

GtkWidget *
loom_timeline_notice_row_new (LoomTimelineContext *context)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (context), NULL);

  return g_object_new (LOOM_TYPE_TIMELINE_NOTICE_ROW, "context", context, NULL);
}
