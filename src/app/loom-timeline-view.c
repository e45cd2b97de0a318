/* loom-timeline-view.c — a session's conversation: messages, tool calls and events, in order.
 *
 * A GtkListView over a LoomTimelineModel: opening a session reads the keys of its items and
 * the first page, whatever its length, and rows are bound only as they scroll into view. The
 * rows never touch the store while binding; what they read on a click goes through the shared
 * LoomTimelineContext, which keeps it for when the row is recycled and bound again.
 *
 * While a search is over the timeline, its words are marked in the rows as they are built, and
 * a new search marks the rows on screen at once; a row off screen catches up when it comes back
 * into view (loom-search-marker.c), so a long session pays for what is seen only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "loom-importer.h"
#include "loom-style.h"
#include "loom-timeline-context.h"
#include "loom-timeline-model.h"
#include "loom-timeline-row.h"
#include "loom-timeline-view.h"

/* Long enough to find the hit after the jump, short enough not to linger. */
#define HIGHLIGHT_SECONDS 4

struct _LoomTimelineView
{
  GtkWidget parent_instance;

  LoomTimelineContext *context;
  LoomSession         *session;
  LoomTimelineModel   *model;
  GSettings           *settings;
  GHashTable          *bound_rows; /* LoomTimelineRow set */
  GdkFrameClock       *frame_clock;
  gulong               layout_handler;
  guint                highlight_id;
  /* Where the list was asked to scroll before it laid out its new model; -1: nowhere. */
  int                  early_position;
  guint                model_laid_out : 1;

  GtkRevealer       *end_revealer;
  GtkListView       *list_view;
  GtkScrolledWindow *scrolled_window;
  GtkStack          *stack;
  GtkRevealer       *start_revealer;
  AdwStatusPage     *status_page;
};

G_DEFINE_FINAL_TYPE (LoomTimelineView, loom_timeline_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

enum
{
  OPEN_SESSION,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

/* List items */

static void
on_setup_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             LoomTimelineView         *self)
{
  gtk_list_item_set_activatable (list_item, FALSE);
  gtk_list_item_set_selectable (list_item, FALSE);
  gtk_list_item_set_child (list_item, loom_timeline_row_new (self->context));
}

static void
on_bind_cb (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            LoomTimelineView         *self)
{
  GtkWidget *row = gtk_list_item_get_child (list_item);

  loom_timeline_row_set_item (LOOM_TIMELINE_ROW (row), gtk_list_item_get_item (list_item));
  g_hash_table_add (self->bound_rows, row);
}

static void
on_unbind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              LoomTimelineView         *self)
{
  GtkWidget *row = gtk_list_item_get_child (list_item);

  g_hash_table_remove (self->bound_rows, row);
  loom_timeline_row_set_item (LOOM_TIMELINE_ROW (row), NULL);
}

static void
update_highlights (LoomTimelineView *self)
{
  GHashTableIter iter;
  gpointer       row;

  g_hash_table_iter_init (&iter, self->bound_rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    loom_timeline_row_update_highlight (row);
}

static void scroll_to_position (LoomTimelineView *self,
                                guint             position);

/* After the list's layout, the rows it left on screen build their content; the frame clock
 * runs the layout again before painting when that changes their sizes. */
static void
on_frame_layout_cb (GdkFrameClock    *frame_clock,
                    LoomTimelineView *self)
{
  g_autoptr (GPtrArray) rows = loom_timeline_context_take_deferred (self->context);

  for (guint i = 0; i < rows->len; i++)
    loom_timeline_row_build (rows->pdata[i]);

  /* Asked to scroll a new model far down before it has laid the model out, GTK 4.8's list
   * shows the item for a frame, then puts its viewport back at the top while its rows stay
   * around the item: the timeline goes blank. Asked again once it knows the model, it stays. */
  if (self->model != NULL && !self->model_laid_out &&
      gtk_widget_get_mapped (GTK_WIDGET (self->list_view)))
    {
      int position = self->early_position;

      self->model_laid_out = TRUE;
      self->early_position = -1;
      if (position > 0)
        scroll_to_position (self, (guint)position);
    }
}

static void
loom_timeline_view_realize (GtkWidget *widget)
{
  LoomTimelineView *self = LOOM_TIMELINE_VIEW (widget);

  GTK_WIDGET_CLASS (loom_timeline_view_parent_class)->realize (widget);

  /* After the window's own handler, which allocates. */
  self->frame_clock = g_object_ref (gtk_widget_get_frame_clock (widget));
  self->layout_handler = g_signal_connect_after (self->frame_clock, "layout",
                                                 G_CALLBACK (on_frame_layout_cb), self);
}

static void
loom_timeline_view_unrealize (GtkWidget *widget)
{
  LoomTimelineView *self = LOOM_TIMELINE_VIEW (widget);

  g_clear_signal_handler (&self->layout_handler, self->frame_clock);
  g_clear_object (&self->frame_clock);

  GTK_WIDGET_CLASS (loom_timeline_view_parent_class)->unrealize (widget);
}

/* Scrolling */

static GtkAdjustment *
get_vadjustment (LoomTimelineView *self)
{
  return gtk_scrolled_window_get_vadjustment (self->scrolled_window);
}

static void
on_vadjustment_changed_cb (LoomTimelineView *self)
{
  GtkAdjustment *adjustment = get_vadjustment (self);
  double         value = gtk_adjustment_get_value (adjustment);
  double         page = gtk_adjustment_get_page_size (adjustment);
  double         lower = gtk_adjustment_get_lower (adjustment);
  double         upper = gtk_adjustment_get_upper (adjustment);

  /* Offered once the start or the end is more than a screen away. */
  gtk_revealer_set_reveal_child (self->start_revealer, value - lower > page);
  gtk_revealer_set_reveal_child (self->end_revealer, upper - (value + page) > page);
}

static void
scroll_to_position (LoomTimelineView *self,
                    guint             position)
{
  if (!self->model_laid_out)
    self->early_position = (int)position;
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", position);
}

void
loom_timeline_view_scroll_to_start (LoomTimelineView *self)
{
  g_return_if_fail (LOOM_IS_TIMELINE_VIEW (self));

  if (self->model == NULL)
    return;
  scroll_to_position (self, 0);
}

void
loom_timeline_view_scroll_to_end (LoomTimelineView *self)
{
  guint n_items;

  g_return_if_fail (LOOM_IS_TIMELINE_VIEW (self));

  if (self->model == NULL || (n_items = g_list_model_get_n_items (G_LIST_MODEL (self->model))) == 0)
    return;
  scroll_to_position (self, n_items - 1);
}

static gboolean
clear_highlight_cb (gpointer user_data)
{
  LoomTimelineView *self = user_data;

  self->highlight_id = 0;
  loom_timeline_context_set_highlight (self->context, -1);
  update_highlights (self);
  return G_SOURCE_REMOVE;
}

void
loom_timeline_view_scroll_to_seq (LoomTimelineView *self,
                                  gint64            seq,
                                  gboolean          highlight)
{
  g_autoptr (LoomTimelineItem) item = NULL;
  guint position;

  g_return_if_fail (LOOM_IS_TIMELINE_VIEW (self));

  if (self->model == NULL || g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0)
    return;

  position = loom_timeline_model_find_seq (self->model, seq);
  scroll_to_position (self, position);

  g_clear_handle_id (&self->highlight_id, g_source_remove);
  item = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  loom_timeline_context_set_highlight (self->context,
                                       highlight ? loom_timeline_item_get_data (item)->seq : -1);
  update_highlights (self);
  if (highlight)
    self->highlight_id = g_timeout_add_seconds (HIGHLIGHT_SECONDS, clear_highlight_cb, self);
}

/* Whether the item's row folds what it shows: tool calls and their kin, reasoning, and what was
 * kept without being said (injected context). */
static gboolean
is_foldable (LoomTimelineItem *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);

  if (d->is_message)
    return (d->flags & LOOM_MESSAGE_NOT_A_PROMPT) && !(d->flags & LOOM_MESSAGE_API_ERROR);
  return g_strcmp0 (d->kind, "tool_call") == 0 || g_strcmp0 (d->kind, "tool_result") == 0 ||
         g_strcmp0 (d->kind, "file_change") == 0 || g_strcmp0 (d->kind, "subagent") == 0 ||
         g_strcmp0 (d->kind, "reasoning") == 0;
}

void
loom_timeline_view_show_hit (LoomTimelineView *self,
                             gint64            seq)
{
  g_autoptr (LoomTimelineItem) item = NULL;
  GHashTableIter iter;
  gpointer       row;
  gint64         row_seq;

  g_return_if_fail (LOOM_IS_TIMELINE_VIEW (self));

  if (self->model == NULL || g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0)
    return;

  /* A tool's output or a thought folded away would hide the very words searched for. The
   * row opens as a click opens it, and stays so. */
  item = g_list_model_get_item (G_LIST_MODEL (self->model),
                                loom_timeline_model_find_seq (self->model, seq));
  if (item != NULL && is_foldable (item) &&
      !loom_timeline_context_get_state (self->context, item, LOOM_TIMELINE_STATE_EXPANDED, FALSE))
    {
      loom_timeline_context_set_state (self->context, item, LOOM_TIMELINE_STATE_EXPANDED, TRUE);

      /* A row that shows the item already shows it folded. */
      row_seq = loom_timeline_item_get_data (item)->seq;
      g_hash_table_iter_init (&iter, self->bound_rows);
      while (g_hash_table_iter_next (&iter, &row, NULL))
        {
          LoomTimelineItem *shown = loom_timeline_row_get_item (row);

          if (shown != NULL && loom_timeline_item_get_data (shown)->seq == row_seq)
            loom_timeline_row_rebuild (row);
        }
    }

  loom_timeline_view_scroll_to_seq (self, seq, TRUE);
}

void
loom_timeline_view_set_search (LoomTimelineView *self,
                               const char       *query)
{
  LoomSearchMarker *marker = loom_timeline_context_get_marker (self->context);
  g_autoptr (LoomSearchMarker) new_marker = NULL;
  GHashTableIter iter;
  gpointer       row;

  g_return_if_fail (LOOM_IS_TIMELINE_VIEW (self));

  if (query != NULL && *query == '\0')
    query = NULL;
  if (g_strcmp0 (query, marker != NULL ? loom_search_marker_get_query (marker) : NULL) == 0)
    return;

  /* A query without words to mark (only filters) marks nothing. */
  new_marker = query != NULL ? loom_search_marker_new (query) : NULL;
  if (new_marker == NULL && marker == NULL)
    return;
  loom_timeline_context_set_marker (self->context, new_marker);

  /* The rows on screen now; the others, bound around them, when they come into view. */
  g_hash_table_iter_init (&iter, self->bound_rows);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    loom_timeline_row_update_marks (row);
}

const char *
loom_timeline_view_get_search (LoomTimelineView *self)
{
  LoomSearchMarker *marker;

  g_return_val_if_fail (LOOM_IS_TIMELINE_VIEW (self), NULL);

  marker = loom_timeline_context_get_marker (self->context);
  return marker != NULL ? loom_search_marker_get_query (marker) : NULL;
}

static void
scroll_to_start_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  loom_timeline_view_scroll_to_start (LOOM_TIMELINE_VIEW (widget));
}

static void
scroll_to_end_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  loom_timeline_view_scroll_to_end (LOOM_TIMELINE_VIEW (widget));
}

/* The session */

static void
show_status (LoomTimelineView *self,
             const char       *icon_name,
             const char       *title,
             const char       *description)
{
  adw_status_page_set_icon_name (self->status_page, icon_name);
  adw_status_page_set_title (self->status_page, title);
  adw_status_page_set_description (self->status_page, description);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

/* Binds every row again, for a change that affects them all (showing reasoning). */
static void
rebind_all (LoomTimelineView *self)
{
  g_autoptr (GtkNoSelection) selection = NULL;

  if (self->model == NULL)
    return;
  gtk_list_view_set_model (self->list_view, NULL);
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
}

static void
on_show_reasoning_changed_cb (LoomTimelineView *self)
{
  loom_timeline_context_set_show_reasoning (
    self->context, g_settings_get_boolean (self->settings, "show-reasoning"));
  rebind_all (self);
}

void
loom_timeline_view_set_session (LoomTimelineView *self,
                                LoomStore        *store,
                                LoomSession      *session)
{
  g_autoptr (GError) error = NULL;

  g_return_if_fail (LOOM_IS_TIMELINE_VIEW (self));
  g_return_if_fail (store == NULL || LOOM_IS_STORE (store));
  g_return_if_fail (session == NULL || LOOM_IS_SESSION (session));
  g_return_if_fail (session == NULL || store != NULL);

  /* The same session again (a reload after an import): keep the place, the opened calls and
   * the rows, and show what was added. */
  if (session != NULL && self->session != NULL && self->model != NULL &&
      store == loom_timeline_context_get_store (self->context) &&
      g_strcmp0 (loom_session_get_uuid (session), loom_session_get_uuid (self->session)) == 0)
    {
      g_set_object (&self->session, session);
      loom_timeline_context_set_session_data (self->context, session);
      if (!loom_timeline_model_reload (self->model, &error))
        g_debug ("Could not reload the timeline of %s: %s", loom_session_get_uuid (session),
                 error->message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
      return;
    }

  /* Rows let go of the old items before the context forgets their state. */
  gtk_list_view_set_model (self->list_view, NULL);
  g_clear_object (&self->model);
  g_clear_handle_id (&self->highlight_id, g_source_remove);
  g_set_object (&self->session, session);
  loom_timeline_context_set_session (self->context, store, session);

  if (session == NULL)
    {
      show_status (self, "org.intentloom.History-symbolic", _ ("No Session Selected"),
                   _ ("Choose a session to read its conversation"));
    }
  else if (!(self->model = loom_timeline_model_new (store, loom_session_get_id (session), &error)))
    {
      show_status (self, "dialog-error-symbolic", _ ("Could Not Read the Session"), error->message);
    }
  else if (g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0)
    {
      show_status (self, "org.intentloom.History-symbolic", _ ("Nothing to Show"),
                   _ ("This session has no messages"));
    }
  else
    {
      g_autoptr (GtkNoSelection) selection = NULL;

      selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
      gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
      self->model_laid_out = FALSE;
      gtk_stack_set_visible_child_name (self->stack, "timeline");
      /* Through the list, not the adjustment: the list has not laid the new model out yet,
       * and GTK 4.8 warns when an adjustment points where no row is. */
      scroll_to_position (self, 0);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

LoomSession *
loom_timeline_view_get_session (LoomTimelineView *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_VIEW (self), NULL);
  return self->session;
}

GListModel *
loom_timeline_view_get_model (LoomTimelineView *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_VIEW (self), NULL);
  return self->model != NULL ? G_LIST_MODEL (self->model) : NULL;
}

static void
on_open_session_cb (LoomTimelineView *self,
                    const char       *uuid)
{
  g_signal_emit (self, signals[OPEN_SESSION], 0, uuid);
}

static void
loom_timeline_view_dispose (GObject *object)
{
  LoomTimelineView *self = (LoomTimelineView *)object;

  g_clear_handle_id (&self->highlight_id, g_source_remove);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_TIMELINE_VIEW);
  g_clear_object (&self->model);
  g_clear_object (&self->session);
  g_clear_object (&self->settings);
  g_clear_object (&self->context);
  g_clear_pointer (&self->bound_rows, g_hash_table_unref);

  G_OBJECT_CLASS (loom_timeline_view_parent_class)->dispose (object);
}

static void
loom_timeline_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  LoomTimelineView *self = LOOM_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_view_class_init (LoomTimelineViewClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_timeline_view_dispose;
  object_class->get_property = loom_timeline_view_get_property;
  widget_class->realize = loom_timeline_view_realize;
  widget_class->unrealize = loom_timeline_view_unrealize;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, LOOM_TYPE_SESSION,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LoomTimelineView::open-session:
   * @uuid: the session to show
   *
   * A person asked for another session: a sub-agent's, from its start in this one.
   */
  signals[OPEN_SESSION] = g_signal_new ("open-session", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                        G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-timeline-view.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineView, end_revealer);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineView, list_view);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineView, scrolled_window);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineView, stack);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineView, start_revealer);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineView, status_page);
  gtk_widget_class_bind_template_callback (widget_class, on_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_unbind_cb);

  gtk_widget_class_install_action (widget_class, "timeline.scroll-to-start", NULL,
                                   scroll_to_start_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-to-end", NULL,
                                   scroll_to_end_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static GtkShortcut *
key_shortcut (guint       keyval,
              const char *action_name)
{
  return gtk_shortcut_new (gtk_keyval_trigger_new (keyval, 0), gtk_named_action_new (action_name));
}

static void
loom_timeline_view_init (LoomTimelineView *self)
{
  GtkEventController *shortcuts;

  self->context = loom_timeline_context_new ();
  self->early_position = -1;
  self->bound_rows = g_hash_table_new (NULL, NULL);
  g_signal_connect_object (self->context, "open-session", G_CALLBACK (on_open_session_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_widget_init_template (GTK_WIDGET (self));
  loom_style_add (GTK_WIDGET (self), "/org/intentloom/History/ui/loom-timeline.css");

  self->settings = g_settings_new (APP_ID);
  loom_timeline_context_set_show_reasoning (
    self->context, g_settings_get_boolean (self->settings, "show-reasoning"));
  g_signal_connect_object (self->settings, "changed::show-reasoning",
                           G_CALLBACK (on_show_reasoning_changed_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (get_vadjustment (self), "value-changed",
                           G_CALLBACK (on_vadjustment_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (get_vadjustment (self), "changed",
                           G_CALLBACK (on_vadjustment_changed_cb), self, G_CONNECT_SWAPPED);

  /* Home and End go to the ends of the conversation, not only to the first or last row that
   * happens to be built. Captured so that they win over the list's own focus moves. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        key_shortcut (GDK_KEY_Home, "timeline.scroll-to-start"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        key_shortcut (GDK_KEY_End, "timeline.scroll-to-end"));
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), shortcuts);
}

GtkWidget *
loom_timeline_view_new (void)
{
  return g_object_new (LOOM_TYPE_TIMELINE_VIEW, NULL);
}
