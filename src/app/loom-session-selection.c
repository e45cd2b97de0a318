/* loom-session-selection.c — a multi-selection that never reads the list it selects in.
 *
 * GtkMultiSelection (GTK 4.8) remembers the selected items themselves, so that an item that
 * leaves and comes back stays selected. To do so it asks the model for every item it selects
 * and, when a selected item leaves, for every item added in the same change: Ctrl+A or a
 * reload that drops a selected session would read all of a 100,000-session list, page after
 * page. This selection holds positions only (a GtkBitset); the session list selects again by
 * uuid after a reload, within the pages it has read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-session-selection.h"

struct _LoomSessionSelection
{
  GObject parent_instance;

  GListModel *model;
  GtkBitset  *selected;
};

static void loom_session_selection_list_model_init (GListModelInterface *iface);
static void loom_session_selection_selection_model_init (GtkSelectionModelInterface *iface);

/* clang-format off */
G_DEFINE_FINAL_TYPE_WITH_CODE (LoomSessionSelection, loom_session_selection, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      loom_session_selection_list_model_init)
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SELECTION_MODEL,
                                                      loom_session_selection_selection_model_init))
/* clang-format on */

enum
{
  PROP_0,
  PROP_MODEL,
  PROP_N_ITEMS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ——— GListModel: the model's items, as they are ——— */

static GType
loom_session_selection_get_item_type (GListModel *list)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (list);

  return self->model != NULL ? g_list_model_get_item_type (self->model) : G_TYPE_OBJECT;
}

static guint
loom_session_selection_get_n_items (GListModel *list)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (list);

  return self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
}

static gpointer
loom_session_selection_get_item (GListModel *list,
                                 guint       position)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (list);

  return self->model != NULL ? g_list_model_get_item (self->model, position) : NULL;
}

static void
loom_session_selection_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = loom_session_selection_get_item_type;
  iface->get_n_items = loom_session_selection_get_n_items;
  iface->get_item = loom_session_selection_get_item;
}

/* ——— GtkSelectionModel: positions only ——— */

static gboolean
loom_session_selection_is_selected (GtkSelectionModel *model,
                                    guint              position)
{
  return gtk_bitset_contains (LOOM_SESSION_SELECTION (model)->selected, position);
}

static GtkBitset *
loom_session_selection_get_selection_in_range (GtkSelectionModel *model,
                                               guint              position,
                                               guint              n_items)
{
  return gtk_bitset_ref (LOOM_SESSION_SELECTION (model)->selected);
}

/* GtkSelectionModel's own select_item(), select_all() and the others come down to this. */
static gboolean
loom_session_selection_set_selection (GtkSelectionModel *model,
                                      GtkBitset         *selected,
                                      GtkBitset         *mask)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (model);
  g_autoptr (GtkBitset) changes = NULL;
  guint n_items = loom_session_selection_get_n_items (G_LIST_MODEL (self));
  guint min, max;

  /* changes = (selected XOR self->selected) AND mask, within the list */
  changes = gtk_bitset_copy (self->selected);
  gtk_bitset_difference (changes, selected);
  gtk_bitset_intersect (changes, mask);
  if (!gtk_bitset_is_empty (changes) && gtk_bitset_get_maximum (changes) >= n_items)
    gtk_bitset_remove_range_closed (changes, n_items, gtk_bitset_get_maximum (changes));
  if (gtk_bitset_is_empty (changes))
    return TRUE;

  min = gtk_bitset_get_minimum (changes);
  max = gtk_bitset_get_maximum (changes);
  gtk_bitset_difference (self->selected, changes);
  gtk_selection_model_selection_changed (model, min, max - min + 1);

  return TRUE;
}

static void
loom_session_selection_selection_model_init (GtkSelectionModelInterface *iface)
{
  iface->is_selected = loom_session_selection_is_selected;
  iface->get_selection_in_range = loom_session_selection_get_selection_in_range;
  iface->set_selection = loom_session_selection_set_selection;
}

static void
on_items_changed_cb (LoomSessionSelection *self,
                     guint                 position,
                     guint                 removed,
                     guint                 added,
                     GListModel           *model)
{
  /* Removed sessions leave the selection; the others keep their place. */
  gtk_bitset_splice (self->selected, position, removed, added);
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* ——— GObject ——— */

static void
loom_session_selection_dispose (GObject *object)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (object);

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed_cb, self);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (loom_session_selection_parent_class)->dispose (object);
}

static void
loom_session_selection_finalize (GObject *object)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (object);

  g_clear_pointer (&self->selected, gtk_bitset_unref);

  G_OBJECT_CLASS (loom_session_selection_parent_class)->finalize (object);
}

static void
loom_session_selection_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, loom_session_selection_get_n_items (G_LIST_MODEL (self)));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_selection_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  LoomSessionSelection *self = LOOM_SESSION_SELECTION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      loom_session_selection_set_model (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_selection_class_init (LoomSessionSelectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = loom_session_selection_dispose;
  object_class->finalize = loom_session_selection_finalize;
  object_class->get_property = loom_session_selection_get_property;
  object_class->set_property = loom_session_selection_set_property;

  properties[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);

  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
loom_session_selection_init (LoomSessionSelection *self)
{
  self->selected = gtk_bitset_new_empty ();
}

LoomSessionSelection *
loom_session_selection_new (GListModel *model)
{
  g_return_val_if_fail (model == NULL || G_IS_LIST_MODEL (model), NULL);

  return g_object_new (LOOM_TYPE_SESSION_SELECTION, "model", model, NULL);
}

GListModel *
loom_session_selection_get_model (LoomSessionSelection *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_SELECTION (self), NULL);

  return self->model;
}

void
loom_session_selection_set_model (LoomSessionSelection *self,
                                  GListModel           *model)
{
  guint n_before, n_after;

  g_return_if_fail (LOOM_IS_SESSION_SELECTION (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  n_before = loom_session_selection_get_n_items (G_LIST_MODEL (self));
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed_cb, self);
  g_set_object (&self->model, model);
  if (self->model != NULL)
    g_signal_connect_object (self->model, "items-changed", G_CALLBACK (on_items_changed_cb), self,
                             G_CONNECT_SWAPPED);
  n_after = loom_session_selection_get_n_items (G_LIST_MODEL (self));

  gtk_bitset_remove_all (self->selected);
  if (n_before > 0 || n_after > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_before, n_after);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
  if (n_before != n_after)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}
