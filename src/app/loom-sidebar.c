/* loom-sidebar.c — the collections (and, later, folders) that the session list shows.
 *
 * The list is a GtkListBox: it has few rows, activates them on a single click without selecting
 * on hover, and every row can become a drop target for the folders to come.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-sidebar.h"
#include "loom-sidebar-row.h"

struct _LoomSidebar
{
  GtkWidget   parent_instance;

  GListStore *items;

  GtkListBox *list_box;
};

G_DEFINE_FINAL_TYPE (LoomSidebar, loom_sidebar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SELECTED_ITEM,
  N_PROPS
};

enum {
  ITEM_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const LoomCollection shown_collections[] = {
  LOOM_COLLECTION_ALL,
  LOOM_COLLECTION_RECENT,
  LOOM_COLLECTION_PINNED,
  LOOM_COLLECTION_ACTIVE,
  LOOM_COLLECTION_ARCHIVED,
  LOOM_COLLECTION_TRASH,
};

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  return loom_sidebar_row_new (LOOM_SIDEBAR_ITEM (item));
}

static void
on_row_activated_cb (LoomSidebar   *self,
                     GtkListBoxRow *row,
                     GtkListBox    *list_box)
{
  g_assert (LOOM_IS_SIDEBAR (self));
  g_assert (LOOM_IS_SIDEBAR_ROW (row));

  g_signal_emit (self, signals[ITEM_ACTIVATED], 0,
                 loom_sidebar_row_get_item (LOOM_SIDEBAR_ROW (row)));
}

static void
on_row_selected_cb (LoomSidebar   *self,
                    GtkListBoxRow *row,
                    GtkListBox    *list_box)
{
  g_assert (LOOM_IS_SIDEBAR (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);
}

static void
loom_sidebar_dispose (GObject *object)
{
  LoomSidebar *self = LOOM_SIDEBAR (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SIDEBAR);
  /* dispose_template() only unparents the children bound by name; the layout's own go here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->items);

  G_OBJECT_CLASS (loom_sidebar_parent_class)->dispose (object);
}

static void
loom_sidebar_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  LoomSidebar *self = LOOM_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ITEM:
      g_value_set_object (value, loom_sidebar_get_selected_item (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_sidebar_class_init (LoomSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_sidebar_dispose;
  object_class->get_property = loom_sidebar_get_property;

  properties[PROP_SELECTED_ITEM] =
    g_param_spec_object ("selected-item", NULL, NULL,
                         LOOM_TYPE_SIDEBAR_ITEM,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted when the user picks an item (a click or Enter), as opposed to the selection moving:
   * a folded window follows the user to the session list only then. */
  signals[ITEM_ACTIVATED] =
    g_signal_new ("item-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, LOOM_TYPE_SIDEBAR_ITEM);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSidebar, list_box);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsidebar");
}

static void
loom_sidebar_init (LoomSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->items = g_list_store_new (LOOM_TYPE_SIDEBAR_ITEM);
  for (guint i = 0; i < G_N_ELEMENTS (shown_collections); i++)
    {
      g_autoptr(LoomSidebarItem) item = loom_sidebar_item_new_for_collection (shown_collections[i]);

      g_list_store_append (self->items, item);
    }

  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->items),
                           create_row_cb, NULL, NULL);
  gtk_list_box_select_row (self->list_box, gtk_list_box_get_row_at_index (self->list_box, 0));
}

GtkWidget *
loom_sidebar_new (void)
{
  return g_object_new (LOOM_TYPE_SIDEBAR, NULL);
}

gboolean
loom_sidebar_reload (LoomSidebar  *self,
                     LoomStore    *store,
                     GError      **error)
{
  guint n_items;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), FALSE);
  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(LoomSidebarItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);
      LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
      guint count = 0;

      query.collection = loom_sidebar_item_get_collection (item);
      if (!loom_store_count_sessions (store, &query, &count, error))
        return FALSE;

      loom_sidebar_item_set_count (item, count);
    }

  return TRUE;
}

LoomSidebarItem *
loom_sidebar_get_selected_item (LoomSidebar *self)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), NULL);

  row = gtk_list_box_get_selected_row (self->list_box);
  if (row == NULL)
    return NULL;

  return loom_sidebar_row_get_item (LOOM_SIDEBAR_ROW (row));
}

void
loom_sidebar_select_collection (LoomSidebar    *self,
                                LoomCollection  collection)
{
  guint n_items;

  g_return_if_fail (LOOM_IS_SIDEBAR (self));

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(LoomSidebarItem) item = g_list_model_get_item (G_LIST_MODEL (self->items), i);

      if (loom_sidebar_item_get_collection (item) == collection)
        {
          gtk_list_box_select_row (self->list_box,
                                   gtk_list_box_get_row_at_index (self->list_box, i));
          return;
        }
    }
}
