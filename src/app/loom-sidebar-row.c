/* loom-sidebar-row.c — the row that shows one sidebar item: icon, title and count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-sidebar-row.h"

struct _LoomSidebarRow
{
  GtkListBoxRow    parent_instance;

  LoomSidebarItem *item;

  GtkLabel        *count_label;
  GtkImage        *icon;
  GtkLabel        *title_label;
};

G_DEFINE_FINAL_TYPE (LoomSidebarRow, loom_sidebar_row, GTK_TYPE_LIST_BOX_ROW)

enum {
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
  guint n;

  g_assert (LOOM_IS_SIDEBAR_ROW (self));

  n = loom_sidebar_item_get_count (self->item);
  count = g_strdup_printf ("%u", n);
  gtk_label_set_label (self->count_label, count);
  /* An empty collection shows no "0": a column of zeros is noise in a sidebar. */
  gtk_widget_set_visible (GTK_WIDGET (self->count_label), n > 0);

  description = g_strdup_printf (ngettext ("%u session", "%u sessions", n), n);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void
loom_sidebar_row_constructed (GObject *object)
{
  LoomSidebarRow *self = LOOM_SIDEBAR_ROW (object);

  G_OBJECT_CLASS (loom_sidebar_row_parent_class)->constructed (object);

  g_assert (self->item != NULL);

  gtk_image_set_from_icon_name (self->icon, loom_sidebar_item_get_icon_name (self->item));
  gtk_label_set_label (self->title_label, loom_sidebar_item_get_title (self->item));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  loom_sidebar_item_get_title (self->item),
                                  -1);

  g_signal_connect_object (self->item, "notify::count",
                           G_CALLBACK (loom_sidebar_row_update_count), self,
                           G_CONNECT_SWAPPED);
  loom_sidebar_row_update_count (self);
}

static void
loom_sidebar_row_dispose (GObject *object)
{
  LoomSidebarRow *self = LOOM_SIDEBAR_ROW (object);

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
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = loom_sidebar_row_constructed;
  object_class->dispose = loom_sidebar_row_dispose;
  object_class->get_property = loom_sidebar_row_get_property;
  object_class->set_property = loom_sidebar_row_set_property;

  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL,
                         LOOM_TYPE_SIDEBAR_ITEM,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-sidebar-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSidebarRow, count_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSidebarRow, icon);
  gtk_widget_class_bind_template_child (widget_class, LoomSidebarRow, title_label);
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

  return g_object_new (LOOM_TYPE_SIDEBAR_ROW,
                       "item", item,
                       NULL);
}

LoomSidebarItem *
loom_sidebar_row_get_item (LoomSidebarRow *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ROW (self), NULL);

  return self->item;
}
