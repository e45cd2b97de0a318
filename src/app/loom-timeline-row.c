/* loom-timeline-row.c — one recycled row of the timeline list, whatever the item's kind.
 *
 * GtkListView hands a row items of every kind as it scrolls. The row keeps at most one child
 * per kind, made the first time it is needed, and shows the one the item asks for; a long
 * session thus scrolls on a few dozen rows of a few widgets each. The content is clamped to a
 * readable width, like a chat in Fractal.
 *
 * GTK 4.8's list binds about two hundred rows around what is shown but maps only the visible
 * ones. A row therefore builds its content once the list has placed it on screen, not when it
 * is bound: until then it only reserves an estimated height, so that the list knows roughly
 * where rows fall, and opening a long session lays out one screenful instead of two hundred
 * rows. New rows are mapped as soon as the list adds them, before it knows where they go, so
 * a mapped row waits in the context until the view builds it after the list's layout (see
 * loom_timeline_context_defer_build()). A row not built has no children at all, not even the
 * clamp: the list measures each of its two hundred rows on every layout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "loom-importer.h"
#include "loom-timeline-message-row.h"
#include "loom-timeline-notice-row.h"
#include "loom-timeline-row.h"
#include "loom-timeline-tool-row.h"

typedef enum
{
  CONTENT_MESSAGE,
  CONTENT_TOOL,
  CONTENT_NOTICE,
  N_CONTENTS
} ContentKind;

struct _LoomTimelineRow
{
  GtkWidget parent_instance;

  LoomTimelineContext *context;
  LoomTimelineItem    *item;

  GtkWidget  *clamp;
  GtkWidget  *box;
  GtkWidget  *contents[N_CONTENTS];
  char       *accessible_label;
  ContentKind shown;
  gboolean    content_bound; /* the shown content has the item */
  guint       marker_serial; /* of the search whose words the content marks */
};

G_DEFINE_FINAL_TYPE (LoomTimelineRow, loom_timeline_row, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_CONTEXT,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static ContentKind
content_kind (const LoomTimelineData *d)
{
  static const char *const tool_kinds[] = {
    "tool_call", "tool_result", "file_change", "subagent", NULL,
  };

  if (d->is_message)
    return (d->flags & LOOM_MESSAGE_API_ERROR) ? CONTENT_NOTICE : CONTENT_MESSAGE;
  if (d->kind != NULL && g_strv_contains (tool_kinds, d->kind))
    return CONTENT_TOOL;
  if (g_strcmp0 (d->kind, "reasoning") == 0)
    return CONTENT_MESSAGE;
  return CONTENT_NOTICE;
}

static GtkWidget *
ensure_content (LoomTimelineRow *self,
                ContentKind      kind)
{
  if (self->contents[kind] != NULL)
    return self->contents[kind];

  if (self->clamp == NULL)
    {
      self->clamp = adw_clamp_new ();
      adw_clamp_set_maximum_size (ADW_CLAMP (self->clamp), 860);
      adw_clamp_set_tightening_threshold (ADW_CLAMP (self->clamp), 600);
      gtk_widget_set_parent (self->clamp, GTK_WIDGET (self));

      self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      adw_clamp_set_child (ADW_CLAMP (self->clamp), self->box);
    }

  switch (kind)
    {
    case CONTENT_MESSAGE:
      self->contents[kind] = loom_timeline_message_row_new (self->context);
      break;
    case CONTENT_TOOL:
      self->contents[kind] = loom_timeline_tool_row_new (self->context);
      break;
    case CONTENT_NOTICE:
    case N_CONTENTS:
    default:
      self->contents[kind] = loom_timeline_notice_row_new (self->context);
      break;
    }
  gtk_box_append (GTK_BOX (self->box), self->contents[kind]);
  return self->contents[kind];
}

static void
set_content_item (GtkWidget        *content,
                  ContentKind       kind,
                  LoomTimelineItem *item)
{
  switch (kind)
    {
    case CONTENT_MESSAGE:
      loom_timeline_message_row_set_item (LOOM_TIMELINE_MESSAGE_ROW (content), item);
      break;
    case CONTENT_TOOL:
      loom_timeline_tool_row_set_item (LOOM_TIMELINE_TOOL_ROW (content), item);
      break;
    case CONTENT_NOTICE:
    case N_CONTENTS:
    default:
      loom_timeline_notice_row_set_item (LOOM_TIMELINE_NOTICE_ROW (content), item);
      break;
    }
}

static char *
describe (LoomTimelineRow  *self,
          ContentKind       kind,
          LoomTimelineItem *item)
{
  switch (kind)
    {
    case CONTENT_MESSAGE:
      return loom_timeline_message_row_describe (self->context, item);
    case CONTENT_TOOL:
      return loom_timeline_tool_row_describe (self->context, item);
    case CONTENT_NOTICE:
    case N_CONTENTS:
    default:
      return loom_timeline_notice_row_describe (self->context, item);
    }
}

void
loom_timeline_row_update_highlight (LoomTimelineRow *self)
{
  gboolean highlighted;

  g_return_if_fail (LOOM_IS_TIMELINE_ROW (self));

  highlighted = self->item != NULL && loom_timeline_item_get_data (self->item)->seq ==
                                        loom_timeline_context_get_highlight (self->context);
  if (highlighted)
    gtk_widget_add_css_class (GTK_WIDGET (self), "highlighted");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "highlighted");
}

const char *
loom_timeline_row_get_accessible_label (LoomTimelineRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_ROW (self), NULL);
  return self->accessible_label;
}

LoomTimelineItem *
loom_timeline_row_get_item (LoomTimelineRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_ROW (self), NULL);
  return self->item;
}

GtkWidget *
loom_timeline_row_get_content (LoomTimelineRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_ROW (self), NULL);
  return self->content_bound ? self->contents[self->shown] : NULL;
}

/* A rough height for a row not built yet: enough for the list to place the rows around it. */
static int
estimate_height (LoomTimelineItem *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  gsize                   length = d->text != NULL ? strlen (d->text) : 0;
  guint                   lines = 1;

  switch (content_kind (d))
    {
    case CONTENT_TOOL:
      return 44;
    case CONTENT_NOTICE:
      return g_strcmp0 (d->kind, "lifecycle") == 0 || g_strcmp0 (d->kind, "raw") == 0 ? 20 : 48;
    case CONTENT_MESSAGE:
    case N_CONTENTS:
    default:
      /* Rather too low than too high: a row that turns out shorter brings more rows into
       * view, and each round of that costs the list another layout. */
      if (!d->is_message || (d->flags & LOOM_MESSAGE_NOT_A_PROMPT))
        return 40;
      for (const char *p = d->text; p != NULL && *p != '\0' && lines < 12; p++)
        lines += *p == '\n';
      lines = MAX (lines, MIN (length / 120 + 1, 12));
      return 36 + 18 * lines;
    }
}

/* Marks the search's words in what the content shows: the row is on screen, or about to be. */
static void
mark_content (LoomTimelineRow *self)
{
  loom_timeline_context_mark (self->context, self->contents[self->shown]);
  self->marker_serial = loom_timeline_context_get_marker_serial (self->context);
}

static void
bind_content (LoomTimelineRow *self)
{
  ContentKind kind = content_kind (loom_timeline_item_get_data (self->item));

  for (guint i = 0; i < N_CONTENTS; i++)
    {
      if (self->contents[i] != NULL)
        gtk_widget_set_visible (self->contents[i], i == kind);
    }
  set_content_item (ensure_content (self, kind), kind, self->item);
  gtk_widget_set_visible (self->contents[kind], TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, -1);
  self->shown = kind;
  self->content_bound = TRUE;
  mark_content (self);

  /* Like the content, only for a row on screen: a row off screen is not read either. */
  g_free (self->accessible_label);
  self->accessible_label = describe (self, kind, self->item);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  self->accessible_label, -1);
}

static void
unbind_content (LoomTimelineRow *self)
{
  if (!self->content_bound)
    return;
  set_content_item (self->contents[self->shown], self->shown, NULL);
  self->content_bound = FALSE;
}

void
loom_timeline_row_set_item (LoomTimelineRow  *self,
                            LoomTimelineItem *item)
{
  g_return_if_fail (LOOM_IS_TIMELINE_ROW (self));
  g_return_if_fail (item == NULL || LOOM_IS_TIMELINE_ITEM (item));

  if (self->item == item)
    return;

  /* Unbinding lets the child drop what it built for the old item. */
  unbind_content (self);
  g_set_object (&self->item, item);

  if (self->accessible_label != NULL)
    {
      g_clear_pointer (&self->accessible_label, g_free);
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL);
    }

  if (item != NULL)
    {
      for (guint i = 0; i < N_CONTENTS; i++)
        {
          if (self->contents[i] != NULL)
            gtk_widget_set_visible (self->contents[i], FALSE);
        }
      gtk_widget_set_size_request (GTK_WIDGET (self), -1, estimate_height (item));
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        loom_timeline_context_defer_build (self->context, GTK_WIDGET (self));
    }
  else
    {
      loom_timeline_context_cancel_build (self->context, GTK_WIDGET (self));
    }

  loom_timeline_row_update_highlight (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
}

void
loom_timeline_row_update_marks (LoomTimelineRow *self)
{
  g_return_if_fail (LOOM_IS_TIMELINE_ROW (self));

  /* A row off screen catches up when it is mapped again. */
  if (self->content_bound && gtk_widget_get_mapped (GTK_WIDGET (self)) &&
      self->marker_serial != loom_timeline_context_get_marker_serial (self->context))
    mark_content (self);
}

void
loom_timeline_row_rebuild (LoomTimelineRow *self)
{
  g_return_if_fail (LOOM_IS_TIMELINE_ROW (self));

  if (!self->content_bound)
    return;
  unbind_content (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    bind_content (self);
  else
    gtk_widget_set_size_request (GTK_WIDGET (self), -1, estimate_height (self->item));
}

void
loom_timeline_row_build (LoomTimelineRow *self)
{
  g_return_if_fail (LOOM_IS_TIMELINE_ROW (self));

  if (self->item != NULL && !self->content_bound && gtk_widget_get_mapped (GTK_WIDGET (self)))
    bind_content (self);
}

static void
loom_timeline_row_map (GtkWidget *widget)
{
  LoomTimelineRow *self = LOOM_TIMELINE_ROW (widget);

  GTK_WIDGET_CLASS (loom_timeline_row_parent_class)->map (widget);

  if (self->item != NULL && !self->content_bound)
    loom_timeline_context_defer_build (self->context, widget);
  else
    loom_timeline_row_update_marks (self);
}

static void
loom_timeline_row_unmap (GtkWidget *widget)
{
  LoomTimelineRow *self = LOOM_TIMELINE_ROW (widget);

  loom_timeline_context_cancel_build (self->context, widget);

  GTK_WIDGET_CLASS (loom_timeline_row_parent_class)->unmap (widget);
}

static void
loom_timeline_row_dispose (GObject *object)
{
  LoomTimelineRow *self = (LoomTimelineRow *)object;

  if (self->context != NULL)
    loom_timeline_context_cancel_build (self->context, GTK_WIDGET (self));
  g_clear_pointer (&self->clamp, gtk_widget_unparent);
  g_clear_object (&self->item);
  g_clear_object (&self->context);
  g_clear_pointer (&self->accessible_label, g_free);

  G_OBJECT_CLASS (loom_timeline_row_parent_class)->dispose (object);
}

static void
loom_timeline_row_constructed (GObject *object)
{
  LoomTimelineRow *self = (LoomTimelineRow *)object;

  G_OBJECT_CLASS (loom_timeline_row_parent_class)->constructed (object);

  /* The rows need the context from the start: it is construct-only. */
  g_assert (self->context != NULL);
}

static void
loom_timeline_row_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  LoomTimelineRow *self = LOOM_TIMELINE_ROW (object);

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
loom_timeline_row_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  LoomTimelineRow *self = LOOM_TIMELINE_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;
    case PROP_ITEM:
      loom_timeline_row_set_item (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_row_class_init (LoomTimelineRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = loom_timeline_row_constructed;
  object_class->dispose = loom_timeline_row_dispose;
  object_class->get_property = loom_timeline_row_get_property;
  object_class->set_property = loom_timeline_row_set_property;
  widget_class->map = loom_timeline_row_map;
  widget_class->unmap = loom_timeline_row_unmap;

  properties[PROP_CONTEXT] = g_param_spec_object ("context", NULL, NULL, LOOM_TYPE_TIMELINE_CONTEXT,
                                                  G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                    G_PARAM_STATIC_STRINGS);
  properties[PROP_ITEM] = g_param_spec_object ("item", NULL, NULL, LOOM_TYPE_TIMELINE_ITEM,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                 G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timelinerow");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
loom_timeline_row_init (LoomTimelineRow *self)
{
}

GtkWidget *
loom_timeline_row_new (LoomTimelineContext *context)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (context), NULL);

  return g_object_new (LOOM_TYPE_TIMELINE_ROW, "context", context, NULL);
}
