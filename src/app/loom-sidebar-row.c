/* loom-sidebar-row.c — the row that shows one sidebar item: icon, title and count.
 *
 * A folder's row also has the folder's menu (Rename, Move Up, Move Down, Delete), and the Trash
 * row a menu to empty it, opened by a right click, a long press, or the Menu key and Shift+F10
 * when the row has the focus. The folder menu's row.* actions forward to the window's folder.*
 * actions with the folder's id, and are enabled per row, so that the first folder's Move Up is
 * greyed out rather than missing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-sidebar-row.h"

struct _LoomSidebarRow
{
  GtkListBoxRow parent_instance;

  LoomSidebarItem *item;
  /* Folders only, made the first time it opens. */
  GtkWidget       *menu;

  GtkLabel *count_label;
  GtkImage *icon;
  GtkLabel *title_label;
};

G_DEFINE_FINAL_TYPE (LoomSidebarRow, loom_sidebar_row, GTK_TYPE_LIST_BOX_ROW)

enum
{
  PROP_0,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
loom_sidebar_row_update_count (LoomSidebarRow *self)
{
  g_autofree char *count = NULL;
  g_autofree char *description = NULL;
  guint            n;

  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  n = loom_sidebar_item_get_count (self->item);
  count = g_strdup_printf ("%'u", n);
  gtk_label_set_label (self->count_label, count);
  /* An empty collection shows no "0": a column of zeros is noise in a sidebar. */
  gtk_widget_set_visible (GTK_WIDGET (self->count_label), n > 0);

  description = g_strdup_printf (ngettext ("%'u session", "%'u sessions", n), n);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description, -1);
}

static void
loom_sidebar_row_update_title (LoomSidebarRow *self)
{
  const char *title;

  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  title = loom_sidebar_item_get_title (self->item);
  gtk_label_set_label (self->title_label, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
}

/* Whether another folder row comes before (@step -1) or after (@step 1) this one. */
static gboolean
has_neighbour (LoomSidebarRow *self,
               int             step)
{
  GtkWidget *list_box = gtk_widget_get_parent (GTK_WIDGET (self));
  int        index = gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (self));

  if (!GTK_IS_LIST_BOX (list_box) || index + step < 0)
    return FALSE;
  return gtk_list_box_get_row_at_index (GTK_LIST_BOX (list_box), index + step) != NULL;
}

static gboolean
has_menu (LoomSidebarRow *self)
{
  return loom_sidebar_item_is_folder (self->item) ||
         loom_sidebar_item_get_collection (self->item) == LOOM_COLLECTION_TRASH;
}

static GMenuModel *
create_menu_model (LoomSidebarRow *self)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) edit = g_menu_new ();
  g_autoptr (GMenu) order = g_menu_new ();
  g_autoptr (GMenu) remove = g_menu_new ();

  if (!loom_sidebar_item_is_folder (self->item))
    {
      g_menu_append (menu, _ ("_Empty Trash…"), "win.empty-trash");
      return G_MENU_MODEL (g_steal_pointer (&menu));
    }

  g_menu_append (edit, _ ("_Rename…"), "row.rename");
  g_menu_append (order, _ ("Move _Up"), "row.move-up");
  g_menu_append (order, _ ("Move _Down"), "row.move-down");
  g_menu_append (remove, _ ("_Delete…"), "row.delete");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (order));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (remove));

  return G_MENU_MODEL (g_steal_pointer (&menu));
}

static void
loom_sidebar_row_popup_menu (LoomSidebarRow *self,
                             double          x,
                             double          y)
{
  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  /* A row made a moment ago (the folders were reordered) has no place on screen to point at
   * until it is laid out, and GTK cannot place a popover against it. */
  if (!has_menu (self) || gtk_widget_get_width (GTK_WIDGET (self)) == 0)
    return;

  if (self->menu == NULL)
    {
      g_autoptr (GMenuModel) model = create_menu_model (self);

      self->menu = gtk_popover_menu_new_from_model (model);
      gtk_popover_set_has_arrow (GTK_POPOVER (self->menu), FALSE);
      gtk_widget_set_halign (self->menu, GTK_ALIGN_START);
      gtk_widget_set_parent (self->menu, GTK_WIDGET (self));
    }

  /* The order of the folders may have changed since the row was made. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.move-up", has_neighbour (self, -1));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.move-down", has_neighbour (self, 1));

  if (x < 0 || y < 0)
    {
      x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      y = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->menu), &(GdkRectangle){ (int)x, (int)y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->menu));
}

static void
on_secondary_click_pressed_cb (LoomSidebarRow *self,
                               int             n_press,
                               double          x,
                               double          y,
                               GtkGesture     *gesture)
{
  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_CLAIMED);
  loom_sidebar_row_popup_menu (self, x, y);
}

static void
on_long_press_pressed_cb (LoomSidebarRow *self,
                          double          x,
                          double          y,
                          GtkGesture     *gesture)
{
  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  loom_sidebar_row_popup_menu (self, x, y);
}

static gboolean
menu_key_cb (GtkWidget *widget,
             GVariant  *args,
             gpointer   user_data)
{
  loom_sidebar_row_popup_menu (LOOM_SIDEBAR_ROW (widget), -1, -1);
  return TRUE;
}

static void
add_menu_key (GtkShortcutController *controller,
              guint                  keyval,
              GdkModifierType        modifiers)
{
  gtk_shortcut_controller_add_shortcut (
    controller, gtk_shortcut_new (gtk_keyval_trigger_new (keyval, modifiers),
                                  gtk_callback_action_new (menu_key_cb, NULL, NULL)));
}

static void
loom_sidebar_row_add_menu_controllers (LoomSidebarRow *self)
{
  GtkGesture         *click;
  GtkGesture         *long_press;
  GtkEventController *shortcuts;

  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (on_secondary_click_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  long_press = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (long_press), TRUE);
  g_signal_connect_object (long_press, "pressed", G_CALLBACK (on_long_press_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (long_press));

  shortcuts = gtk_shortcut_controller_new ();
  add_menu_key (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_Menu, 0);
  add_menu_key (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_F10, GDK_SHIFT_MASK);
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
}

static void
forward_folder_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  LoomSidebarRow  *self = LOOM_SIDEBAR_ROW (widget);
  g_autofree char *folder_action = NULL;

  g_assert (g_str_has_prefix (action_name, "row."));

  /* The menu closes first, so that a dialog the action opens gets the focus. */
  if (self->menu != NULL)
    gtk_popover_popdown (GTK_POPOVER (self->menu));

  folder_action = g_strconcat ("folder.", action_name + strlen ("row."), NULL);
  gtk_widget_activate_action (widget, folder_action, "x",
                              loom_sidebar_item_get_folder_id (self->item));
}

static void
loom_sidebar_row_constructed (GObject *object)
{
  LoomSidebarRow *self = LOOM_SIDEBAR_ROW (object);

  G_OBJECT_CLASS (loom_sidebar_row_parent_class)->constructed (object);

  g_assert (self->item != NULL);

  gtk_image_set_from_icon_name (self->icon, loom_sidebar_item_get_icon_name (self->item));
  g_signal_connect_object (self->item, "notify::title", G_CALLBACK (loom_sidebar_row_update_title),
                           self, G_CONNECT_SWAPPED);
  loom_sidebar_row_update_title (self);

  g_signal_connect_object (self->item, "notify::count", G_CALLBACK (loom_sidebar_row_update_count),
                           self, G_CONNECT_SWAPPED);
  loom_sidebar_row_update_count (self);

  if (has_menu (self))
    loom_sidebar_row_add_menu_controllers (self);
}

static void
loom_sidebar_row_dispose (GObject *object)
{
  LoomSidebarRow *self = LOOM_SIDEBAR_ROW (object);

  g_clear_pointer (&self->menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SIDEBAR_ROW);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (loom_sidebar_row_parent_class)->dispose (object);
}

static void
loom_sidebar_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  LoomSidebarRow *self = LOOM_SIDEBAR_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_sidebar_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  LoomSidebarRow *self = LOOM_SIDEBAR_ROW (object);

  switch (prop_id)
    {
    case PROP_ITEM:
      self->item = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_sidebar_row_class_init (LoomSidebarRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = loom_sidebar_row_constructed;
  object_class->dispose = loom_sidebar_row_dispose;
  object_class->get_property = loom_sidebar_row_get_property;
  object_class->set_property = loom_sidebar_row_set_property;

  properties[PROP_ITEM] = g_param_spec_object ("item", NULL, NULL, LOOM_TYPE_SIDEBAR_ITEM,
                                               G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                 G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-sidebar-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSidebarRow, count_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSidebarRow, icon);
  gtk_widget_class_bind_template_child (widget_class, LoomSidebarRow, title_label);

  gtk_widget_class_install_action (widget_class, "row.rename", NULL, forward_folder_action);
  gtk_widget_class_install_action (widget_class, "row.move-up", NULL, forward_folder_action);
  gtk_widget_class_install_action (widget_class, "row.move-down", NULL, forward_folder_action);
  gtk_widget_class_install_action (widget_class, "row.delete", NULL, forward_folder_action);
}

static void
loom_sidebar_row_init (LoomSidebarRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
loom_sidebar_row_new (LoomSidebarItem *item)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (item), NULL);

  return g_object_new (LOOM_TYPE_SIDEBAR_ROW, "item", item, NULL);
}

LoomSidebarItem *
loom_sidebar_row_get_item (LoomSidebarRow *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ROW (self), NULL);

  return self->item;
}

/* Opens the row's menu as the Menu key does; for tests and for the window's own shortcuts. */
void
loom_sidebar_row_show_menu (LoomSidebarRow *self)
{
  g_return_if_fail (LOOM_IS_SIDEBAR_ROW (self));

  loom_sidebar_row_popup_menu (self, -1, -1);
}

GtkPopover *
loom_sidebar_row_get_menu (LoomSidebarRow *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ROW (self), NULL);

  return self->menu != NULL ? GTK_POPOVER (self->menu) : NULL;
}
