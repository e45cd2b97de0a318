/* loom-session-list-rows.c — what a session row does: drag, session menu, a click.
 *
 * A row drags the selection it is part of (or itself alone) as the sessions' uuids, which the
 * sidebar's folders, Archived and Trash take. Its menu (right click, long press, the Menu key)
 * offers the window's session actions, on the selection.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-session-list-private.h"
#include "loom-session-row.h"

static GdkContentProvider *
on_drag_prepare_cb (GtkDragSource *source,
                    double         x,
                    double         y,
                    GtkListItem   *list_item)
{
  GtkWidget       *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  LoomSessionList *self = LOOM_SESSION_LIST (gtk_widget_get_ancestor (row, LOOM_TYPE_SESSION_LIST));
  LoomSession     *session = gtk_list_item_get_item (list_item);
  g_autoptr (GPtrArray) uuids = NULL;
  g_auto (GStrv) strv = NULL;

  if (session == NULL)
    return NULL;

  /* A selected row carries the whole selection along; another row goes alone. */
  if (gtk_list_item_get_selected (list_item))
    {
      uuids = loom_session_list_get_selected_uuids (self);
    }
  else
    {
      uuids = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (uuids, g_strdup (loom_session_get_uuid (session)));
    }
  g_ptr_array_add (uuids, NULL);
  strv = (GStrv)g_ptr_array_steal (uuids, NULL);

  return gdk_content_provider_new_typed (G_TYPE_STRV, strv);
}

static void
on_drag_begin_cb (GtkDragSource *source,
                  GdkDrag       *drag,
                  GtkListItem   *list_item)
{
  LoomSession *session = gtk_list_item_get_item (list_item);
  g_auto (GValue) value = G_VALUE_INIT;
  g_autofree char *text = NULL;
  GtkWidget       *label;
  guint            n = 1;

  g_value_init (&value, G_TYPE_STRV);
  if (gdk_content_provider_get_value (gdk_drag_get_content (drag), &value, NULL))
    n = g_strv_length (g_value_get_boxed (&value));

  if (n > 1)
    text = g_strdup_printf (ngettext ("%'u session", "%'u sessions", n), n);
  else if (session != NULL)
    text = loom_session_row_display_text (loom_session_get_title (session));

  /* What is being moved, where the pointer is: a title, or how many. */
  label = gtk_label_new (text);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_widget_add_css_class (label, "session-drag-icon");
  gtk_drag_icon_set_child (GTK_DRAG_ICON (gtk_drag_icon_get_for_drag (drag)), label);
}

static GMenuModel *
build_context_menu (LoomSessionList *self)
{
  g_autoptr (GPtrArray) sessions = NULL;
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) edit = g_menu_new ();
  g_autoptr (GMenu) file = g_menu_new ();
  g_autoptr (GMenu) source = g_menu_new ();
  g_autoptr (GMenu) remove = g_menu_new ();
  gboolean all_pinned = FALSE, all_archived = FALSE, all_trashed = FALSE;

  /* The toggles say what they will do to the sessions at hand. */
  if (loom_session_list_get_n_selected (self) <= MAX_KEPT_SELECTION)
    {
      sessions = loom_session_list_get_selected (self);
      all_pinned = all_archived = all_trashed = sessions->len > 0;
      for (guint i = 0; i < sessions->len; i++)
        {
          all_pinned &= loom_session_get_pinned (sessions->pdata[i]);
          all_archived &= loom_session_get_archived (sessions->pdata[i]);
          all_trashed &= loom_session_get_trashed (sessions->pdata[i]);
        }
    }

  g_menu_append (edit, _ ("_Rename…"), "session.rename");
  g_menu_append (edit, _ ("Copy Rename _Command"), "session.copy-rename-command");
  g_menu_append (file, all_pinned ? _ ("Un_pin") : _ ("_Pin"), "session.pin");
  g_menu_append (file, _ ("_Move to…"), "session.move-to");
  g_menu_append (file, all_archived ? _ ("Restore from _Archive") : _ ("_Archive"),
                 "session.archive");
  g_menu_append (source, _ ("_Export…"), "win.export-sessions");
  g_menu_append (source, _ ("_Open Source Folder"), "session.open-source-folder");
  g_menu_append (remove, all_trashed ? _ ("Restore from _Trash") : _ ("Move to _Trash"),
                 "session.trash");
  g_menu_append (remove, _ ("_Delete Permanently…"), "session.delete");

  g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (file));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (source));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (remove));
  return G_MENU_MODEL (menu);
}

/* Opens the session menu pointing at @x, @y of @widget, for the selection; a session not
 * selected becomes the selection first, as in Files. */
static void
loom_session_list_popup_menu (LoomSessionList *self,
                              GtkWidget       *widget,
                              guint            position,
                              double           x,
                              double           y)
{
  g_autoptr (GMenuModel) menu = NULL;
  GtkSelectionModel *selection = GTK_SELECTION_MODEL (self->selection);
  double             sx, sy;

  g_assert (LOOM_IS_SESSION_LIST (self));

  if (position != GTK_INVALID_LIST_POSITION &&
      !gtk_selection_model_is_selected (selection, position))
    gtk_selection_model_select_item (selection, position, TRUE);

  if (!gtk_widget_translate_coordinates (widget, GTK_WIDGET (self), x, y, &sx, &sy))
    sx = sy = 0;

  menu = build_context_menu (self);
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), menu);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle){ (int)sx, (int)sy, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
on_row_secondary_pressed_cb (GtkGestureClick *gesture,
                             int              n_press,
                             double           x,
                             double           y,
                             GtkListItem     *list_item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *self = gtk_widget_get_ancestor (row, LOOM_TYPE_SESSION_LIST);

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  loom_session_list_popup_menu (LOOM_SESSION_LIST (self), row,
                                gtk_list_item_get_position (list_item), x, y);
}

static void
on_row_long_pressed_cb (GtkGestureLongPress *gesture,
                        double               x,
                        double               y,
                        GtkListItem         *list_item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *self = gtk_widget_get_ancestor (row, LOOM_TYPE_SESSION_LIST);

  loom_session_list_popup_menu (LOOM_SESSION_LIST (self), row,
                                gtk_list_item_get_position (list_item), x, y);
}

/* A click on the session already shown shows it again: after going back in a folded window,
 * the selection does not change, but the user wants the timeline. */
static void
on_row_primary_pressed_cb (GtkGestureClick *gesture,
                           int              n_press,
                           double           x,
                           double           y,
                           GtkListItem     *list_item)
{
  GtkWidget       *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  LoomSessionList *self = LOOM_SESSION_LIST (gtk_widget_get_ancestor (row, LOOM_TYPE_SESSION_LIST));
  LoomSession     *session = gtk_list_item_get_item (list_item);
  GdkModifierType  state;

  state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  if (n_press != 1 || session == NULL || (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK)) != 0)
    return;

  if (gtk_list_item_get_selected (list_item) && loom_session_list_get_n_selected (self) == 1 &&
      g_strcmp0 (loom_session_get_uuid (session), self->activated_uuid) == 0)
    loom_session_list_activate (self, session);
}

void
loom_session_list_setup_row (LoomSessionList *self,
                             GtkListItem     *list_item)
{
  GtkWidget     *row = loom_session_row_new ();
  GtkGesture    *click;
  GtkGesture    *long_press;
  GtkDragSource *drag_source;

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_row_secondary_pressed_cb), list_item);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (click));

  long_press = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (long_press), TRUE);
  g_signal_connect (long_press, "pressed", G_CALLBACK (on_row_long_pressed_cb), list_item);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (long_press));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_row_primary_pressed_cb), list_item);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (click));

  drag_source = gtk_drag_source_new ();
  gtk_drag_source_set_actions (drag_source, GDK_ACTION_MOVE);
  g_signal_connect (drag_source, "prepare", G_CALLBACK (on_drag_prepare_cb), list_item);
  g_signal_connect (drag_source, "drag-begin", G_CALLBACK (on_drag_begin_cb), list_item);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (drag_source));

  gtk_list_item_set_child (list_item, row);
}

/* The Menu key and Shift+F10 open the menu of the focused row. */
void
loom_session_list_show_menu_action (GtkWidget  *widget,
                                    const char *action_name,
                                    GVariant   *parameter)
{
  LoomSessionList *self = LOOM_SESSION_LIST (widget);
  GtkRoot         *root = gtk_widget_get_root (widget);
  GtkWidget       *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget       *row = NULL;
  graphene_rect_t  bounds;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->list_view)))
    {
      /* The list view focuses the item's own widget, whose child is the row. */
      if (LOOM_IS_SESSION_ROW (focus))
        row = focus;
      else if (LOOM_IS_SESSION_ROW (gtk_widget_get_first_child (focus)))
        row = gtk_widget_get_first_child (focus);
      else
        row = gtk_widget_get_ancestor (focus, LOOM_TYPE_SESSION_ROW);
    }

  if (row != NULL && gtk_widget_compute_bounds (row, row, &bounds))
    {
      LoomSession *session = loom_session_row_get_session (LOOM_SESSION_ROW (row));
      guint        position = GTK_INVALID_LIST_POSITION;

      if (session != NULL)
        loom_session_list_model_find (self->model, loom_session_get_uuid (session), &position);
      loom_session_list_popup_menu (self, row, position, bounds.size.width / 2,
                                    bounds.size.height / 2);
    }
  else if (loom_session_list_get_n_selected (self) > 0)
    {
      loom_session_list_popup_menu (self, GTK_WIDGET (self->list_view), GTK_INVALID_LIST_POSITION,
                                    24, 24);
    }
}
