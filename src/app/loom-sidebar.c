/* loom-sidebar.c — the collections and the folders that the session list shows.
 *
 * Two GtkListBoxes under one selection: the collections, then, under a "Folders" header with its
 * New Folder button, the folders. List boxes suit a sidebar of a few dozen rows: a single click
 * activates, hovering selects nothing, and every row can be a drop target. Two of them keep the
 * header a header (a row would take part in keyboard navigation and selection), and let each list
 * be announced as what it is; the arrow keys still cross from one to the other.
 *
 * Drops: sessions dragged from the list (a G_TYPE_STRV of their uuids) can be dropped on a folder
 * (filed there), on Archived or Trash, or on All Sessions, which means "no folder, not archived,
 * not in the trash" — the plain state a session starts in. The sidebar only reports the drop as
 * "sessions-dropped"; the window moves the sessions and offers to undo.
 *
 * Counting a hundred thousand sessions takes a while, and the first frame of the window need
 * not wait for it: until the sidebar has been drawn once, a reload counts only the trash (the
 * window enables Empty Trash by it), and the rest right after that first drawing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-sidebar.h"
#include "loom-sidebar-row.h"
#include "loom-style.h"

struct _LoomSidebar
{
  GtkWidget parent_instance;

  GListStore    *items;
  GListStore    *folders;
  LoomStore     *store;       /* of the last reload, for the counts left for later */
  GdkFrameClock *frame_clock; /* while waiting for the end of a frame to count */
  gulong         paint_handler;
  /* Set while the sidebar moves the selection itself, so that only the end result is reported. */
  guint          changing_selection : 1;
  guint          drawn : 1;
  guint          counts_pending : 1;

  GtkListBox *folder_list;
  GtkListBox *list_box;
};

G_DEFINE_FINAL_TYPE (LoomSidebar, loom_sidebar, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SELECTED_ITEM,
  N_PROPS
};

enum
{
  ITEM_ACTIVATED,
  SESSIONS_DROPPED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

static const LoomCollection shown_collections[] = {
  LOOM_COLLECTION_ALL,    LOOM_COLLECTION_RECENT,   LOOM_COLLECTION_PINNED,
  LOOM_COLLECTION_ACTIVE, LOOM_COLLECTION_ARCHIVED, LOOM_COLLECTION_TRASH,
};

static gpointer
list_store_peek (GListStore *store,
                 guint       position)
{
  g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (store), position);

  /* The store keeps it alive; only its address is wanted. */
  return item;
}

/* ——— Drops ——— */

/* Sessions are moved, not copied; a drag source that offers only copying is still welcome. */
static GdkDragAction
preferred_action (GtkDropTarget *target)
{
  GdkDrop *drop = gtk_drop_target_get_current_drop (target);

  if (drop == NULL || (gdk_drop_get_actions (drop) & GDK_ACTION_MOVE) != 0)
    return GDK_ACTION_MOVE;
  return GDK_ACTION_COPY;
}

static GdkDragAction
on_drop_enter_cb (GtkDropTarget *target,
                  double         x,
                  double         y,
                  gpointer       user_data)
{
  return preferred_action (target);
}

static gboolean
on_drop_cb (GtkDropTarget *target,
            const GValue  *value,
            double         x,
            double         y,
            LoomSidebar   *self)
{
  GtkWidget         *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (target));
  LoomSidebarItem   *item;
  const char *const *uuids;

  g_assert (LOOM_IS_SIDEBAR (self));
  g_assert (LOOM_IS_SIDEBAR_ROW (row));

  uuids = g_value_get_boxed (value);
  if (uuids == NULL || uuids[0] == NULL)
    return FALSE;

  item = loom_sidebar_row_get_item (LOOM_SIDEBAR_ROW (row));
  g_signal_emit (self, signals[SESSIONS_DROPPED], 0, uuids,
                 (guint)loom_sidebar_item_get_collection (item),
                 loom_sidebar_item_get_folder_id (item));
  return TRUE;
}

static gboolean
accepts_drops (LoomSidebarItem *item)
{
  switch (loom_sidebar_item_get_collection (item))
    {
    case LOOM_COLLECTION_ALL:
    case LOOM_COLLECTION_ARCHIVED:
    case LOOM_COLLECTION_TRASH:
      return TRUE;

    /* Recent and Active follow the dates, Pinned is a toggle: nothing to drop into. */
    case LOOM_COLLECTION_RECENT:
    case LOOM_COLLECTION_PINNED:
    case LOOM_COLLECTION_ACTIVE:
    case LOOM_COLLECTION_EVERYTHING:
    default:
      return FALSE;
    }
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  LoomSidebar *self = user_data;
  GtkWidget   *row = loom_sidebar_row_new (LOOM_SIDEBAR_ITEM (item));

  if (accepts_drops (item))
    {
      GtkDropTarget *target = gtk_drop_target_new (G_TYPE_STRV, GDK_ACTION_MOVE | GDK_ACTION_COPY);

      g_signal_connect (target, "enter", G_CALLBACK (on_drop_enter_cb), NULL);
      g_signal_connect (target, "motion", G_CALLBACK (on_drop_enter_cb), NULL);
      /* The row dies with the sidebar: no reference is needed either way. */
      g_signal_connect (target, "drop", G_CALLBACK (on_drop_cb), self);
      gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (target));
    }

  return row;
}

/* ——— Selection across the two lists ——— */

static GtkListBoxRow *
get_selected_row (LoomSidebar *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list_box);

  if (row == NULL)
    row = gtk_list_box_get_selected_row (self->folder_list);
  return row;
}

/* A list box in browse mode refuses to unselect; going through "none" is the way to clear it
 * without letting a user click it empty. */
static void
clear_selection (GtkListBox *list_box)
{
  if (gtk_list_box_get_selected_row (list_box) == NULL)
    return;

  gtk_list_box_set_selection_mode (list_box, GTK_SELECTION_NONE);
  gtk_list_box_set_selection_mode (list_box, GTK_SELECTION_BROWSE);
}

static GtkListBox *
other_list (LoomSidebar *self,
            GtkListBox  *list_box)
{
  return list_box == self->list_box ? self->folder_list : self->list_box;
}

/* Selects @row and clears the other list, reporting nothing: the caller decides. */
static void
select_row_quietly (LoomSidebar   *self,
                    GtkListBoxRow *row)
{
  GtkListBox *list_box = GTK_LIST_BOX (gtk_widget_get_parent (GTK_WIDGET (row)));
  gboolean    was_changing = self->changing_selection;

  self->changing_selection = TRUE;
  clear_selection (other_list (self, list_box));
  gtk_list_box_select_row (list_box, row);
  self->changing_selection = was_changing;
}

static void
select_row (LoomSidebar   *self,
            GtkListBoxRow *row)
{
  GtkListBoxRow *before = get_selected_row (self);

  select_row_quietly (self, row);
  if (get_selected_row (self) != before)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);
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

  /* A row going away takes its selection with it; the reload that removed it picks another. */
  if (self->changing_selection || row == NULL)
    return;

  self->changing_selection = TRUE;
  clear_selection (other_list (self, list_box));
  self->changing_selection = FALSE;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);
}

/* The arrow keys go on from the last collection to the first folder and back, selecting as they
 * go, as they do within one list. */
static gboolean
on_keynav_failed_cb (LoomSidebar     *self,
                     GtkDirectionType direction,
                     GtkListBox      *list_box)
{
  GtkListBoxRow *row = NULL;

  g_assert (LOOM_IS_SIDEBAR (self));

  if (list_box == self->list_box && direction == GTK_DIR_DOWN)
    row = gtk_list_box_get_row_at_index (self->folder_list, 0);
  else if (list_box == self->folder_list && direction == GTK_DIR_UP)
    row = gtk_list_box_get_row_at_index (self->list_box, G_N_ELEMENTS (shown_collections) - 1);

  if (row == NULL)
    return FALSE;

  gtk_widget_grab_focus (GTK_WIDGET (row));
  select_row (self, row);
  return TRUE;
}

/* ——— Counts ——— */

static gboolean
count_item (LoomSidebarItem *item,
            LoomStore       *store,
            GError         **error)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  guint            count = 0;

  /* A folder's count is what the folder lists (All narrowed to it), not every session filed in
   * it: a count that disagrees with the list it opens would look like a bug. */
  query.collection = loom_sidebar_item_get_collection (item);
  query.folder_id = loom_sidebar_item_get_folder_id (item);
  if (!loom_store_count_sessions (store, &query, &count, error))
    return FALSE;
  loom_sidebar_item_set_count (item, count);
  return TRUE;
}

static void
stop_waiting (LoomSidebar *self)
{
  g_clear_signal_handler (&self->paint_handler, self->frame_clock);
  g_clear_object (&self->frame_clock);
}

/* Counts the sessions of every collection and folder, or, with @all FALSE, only the trash. */
static gboolean
update_counts (LoomSidebar *self,
               gboolean     all,
               GError     **error)
{
  GListStore *stores[] = { self->items, self->folders };

  g_assert (LOOM_IS_SIDEBAR (self));
  g_assert (LOOM_IS_STORE (self->store));

  stop_waiting (self);
  self->counts_pending = !all;

  for (guint s = 0; s < G_N_ELEMENTS (stores); s++)
    {
      guint n_items = g_list_model_get_n_items (G_LIST_MODEL (stores[s]));

      for (guint i = 0; i < n_items; i++)
        {
          LoomSidebarItem *item = list_store_peek (stores[s], i);

          if (!all && (loom_sidebar_item_get_folder_id (item) > 0 ||
                       loom_sidebar_item_get_collection (item) != LOOM_COLLECTION_TRASH))
            continue;
          if (!count_item (item, self->store, error))
            return FALSE;
        }
    }
  return TRUE;
}

static void
on_after_paint_cb (LoomSidebar   *self,
                   GdkFrameClock *frame_clock)
{
  g_autoptr (GError) error = NULL;

  g_assert (LOOM_IS_SIDEBAR (self));

  if (!update_counts (self, TRUE, &error))
    g_warning ("Could not count the sessions: %s", error->message);
}

static void
loom_sidebar_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  LoomSidebar   *self = LOOM_SIDEBAR (widget);
  GdkFrameClock *frame_clock;

  GTK_WIDGET_CLASS (loom_sidebar_parent_class)->snapshot (widget, snapshot);

  /* Once this frame is on screen: not in an idle, which a busy frame clock can hold off for
   * as long as something animates. */
  self->drawn = TRUE;
  if (self->counts_pending && self->paint_handler == 0 &&
      (frame_clock = gtk_widget_get_frame_clock (widget)) != NULL)
    {
      self->frame_clock = g_object_ref (frame_clock);
      self->paint_handler = g_signal_connect_object (
        frame_clock, "after-paint", G_CALLBACK (on_after_paint_cb), self, G_CONNECT_SWAPPED);
    }
}

/* ——— Object ——— */

static void
loom_sidebar_dispose (GObject *object)
{
  LoomSidebar *self = LOOM_SIDEBAR (object);
  GtkWidget   *child;

  stop_waiting (self);

  /* Disposing the lists unselects their rows: nobody is listening any more. */
  self->changing_selection = TRUE;
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SIDEBAR);
  /* dispose_template() only unparents the children bound by name; the layout's own go here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->items);
  g_clear_object (&self->folders);
  g_clear_object (&self->store);

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
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_sidebar_dispose;
  object_class->get_property = loom_sidebar_get_property;
  widget_class->snapshot = loom_sidebar_snapshot;

  properties[PROP_SELECTED_ITEM] = g_param_spec_object (
    "selected-item", NULL, NULL, LOOM_TYPE_SIDEBAR_ITEM,
    G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted when the user picks an item (a click or Enter), as opposed to the selection moving:
   * a folded window follows the user to the session list only then. */
  signals[ITEM_ACTIVATED] = g_signal_new ("item-activated", G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                          LOOM_TYPE_SIDEBAR_ITEM);

  /**
   * LoomSidebar::sessions-dropped:
   * @uuids: the dropped sessions' uuids
   * @target: LOOM_COLLECTION_ARCHIVED, LOOM_COLLECTION_TRASH, or LOOM_COLLECTION_ALL for a
   *   folder (@folder_id) or for All Sessions (@folder_id 0: out of any folder)
   * @folder_id: the folder's id, or 0
   *
   * Sessions were dropped on a row. LoomCollection has no GType, so @target is a uint.
   */
  signals[SESSIONS_DROPPED] = g_signal_new (
    "sessions-dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
    G_TYPE_NONE, 3, G_TYPE_STRV | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_UINT, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSidebar, folder_list);
  gtk_widget_class_bind_template_child (widget_class, LoomSidebar, list_box);
  gtk_widget_class_bind_template_callback (widget_class, on_keynav_failed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsidebar");
}

static void
loom_sidebar_init (LoomSidebar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  loom_style_add (GTK_WIDGET (self), "/org/intentloom/History/ui/loom-sidebar.css");

  self->items = g_list_store_new (LOOM_TYPE_SIDEBAR_ITEM);
  for (guint i = 0; i < G_N_ELEMENTS (shown_collections); i++)
    {
      g_autoptr (LoomSidebarItem)
        item = loom_sidebar_item_new_for_collection (shown_collections[i]);

      g_list_store_append (self->items, item);
    }
  self->folders = g_list_store_new (LOOM_TYPE_SIDEBAR_ITEM);

  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (self->items), create_row_cb, self, NULL);
  gtk_list_box_bind_model (self->folder_list, G_LIST_MODEL (self->folders), create_row_cb, self,
                           NULL);
  gtk_list_box_select_row (self->list_box, gtk_list_box_get_row_at_index (self->list_box, 0));
}

GtkWidget *
loom_sidebar_new (void)
{
  return g_object_new (LOOM_TYPE_SIDEBAR, NULL);
}

/* Makes the folder rows match @folders (LoomFolder, in the store's order), keeping the items of
 * folders that stay (renamed in place) and replacing only the range that differs, so that the
 * rows of untouched folders, and the focus on them, stay. */
static void
loom_sidebar_update_folders (LoomSidebar *self,
                             GListModel  *folders)
{
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  guint n_new = g_list_model_get_n_items (folders);
  g_autoptr (GHashTable) by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr (GPtrArray) items = g_ptr_array_new_full (n_new, g_object_unref);
  guint prefix = 0, suffix = 0;

  for (guint i = 0; i < n_old; i++)
    {
      LoomSidebarItem *item = list_store_peek (self->folders, i);
      gint64           id = loom_sidebar_item_get_folder_id (item);

      g_hash_table_insert (by_id, g_memdup2 (&id, sizeof id), item);
    }

  for (guint i = 0; i < n_new; i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);
      gint64           id = loom_folder_get_id (folder);
      LoomSidebarItem *item = g_hash_table_lookup (by_id, &id);

      if (item != NULL)
        {
          g_ptr_array_add (items, g_object_ref (item));
          loom_sidebar_item_set_title (item, loom_folder_get_name (folder));
        }
      else
        {
          item = loom_sidebar_item_new_for_folder (id, loom_folder_get_name (folder));
          g_ptr_array_add (items, item);
        }
    }

  while (prefix < MIN (n_old, n_new) &&
         list_store_peek (self->folders, prefix) == items->pdata[prefix])
    prefix++;
  while (suffix < MIN (n_old, n_new) - prefix &&
         list_store_peek (self->folders, n_old - 1 - suffix) == items->pdata[n_new - 1 - suffix])
    suffix++;

  if (prefix + suffix < MAX (n_old, n_new))
    g_list_store_splice (self->folders, prefix, n_old - prefix - suffix, items->pdata + prefix,
                         n_new - prefix - suffix);
}

gboolean
loom_sidebar_reload (LoomSidebar *self,
                     LoomStore   *store,
                     GError     **error)
{
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (LoomSidebarItem) selected = NULL;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), FALSE);
  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_set_object (&self->store, store);

  if (!(folders = loom_store_list_folders (store, error)))
    return FALSE;

  /* Rows that are replaced lose their selection: put it back on the same folder's new row, or,
   * when the folder is gone, on All Sessions. Only a real change is reported. */
  if (loom_sidebar_get_selected_item (self) != NULL)
    selected = g_object_ref (loom_sidebar_get_selected_item (self));

  self->changing_selection = TRUE;
  loom_sidebar_update_folders (self, folders);
  self->changing_selection = FALSE;

  if (selected != NULL && loom_sidebar_get_selected_item (self) == NULL)
    {
      guint position;

      if (g_list_store_find (self->folders, selected, &position))
        select_row_quietly (self, gtk_list_box_get_row_at_index (self->folder_list, position));
      else
        select_row_quietly (self, gtk_list_box_get_row_at_index (self->list_box, 0));
    }
  if (loom_sidebar_get_selected_item (self) != selected)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);

  /* After drawing, the counts are worth their time at once; before, the snapshot asks. */
  return update_counts (self, self->drawn, error);
}

LoomSidebarItem *
loom_sidebar_get_selected_item (LoomSidebar *self)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), NULL);

  row = get_selected_row (self);
  if (row == NULL)
    return NULL;

  return loom_sidebar_row_get_item (LOOM_SIDEBAR_ROW (row));
}

void
loom_sidebar_select_collection (LoomSidebar   *self,
                                LoomCollection collection)
{
  guint n_items;

  g_return_if_fail (LOOM_IS_SIDEBAR (self));

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 0; i < n_items; i++)
    {
      if (loom_sidebar_item_get_collection (list_store_peek (self->items, i)) == collection)
        {
          select_row (self, gtk_list_box_get_row_at_index (self->list_box, i));
          return;
        }
    }
}

gboolean
loom_sidebar_select_folder (LoomSidebar *self,
                            gint64       folder_id)
{
  GtkWidget *row;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), FALSE);

  row = loom_sidebar_get_folder_row (self, folder_id);
  if (row == NULL)
    return FALSE;

  select_row (self, GTK_LIST_BOX_ROW (row));
  return TRUE;
}

GtkWidget *
loom_sidebar_get_folder_row (LoomSidebar *self,
                             gint64       folder_id)
{
  guint n_items;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), NULL);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->folders));
  for (guint i = 0; i < n_items; i++)
    {
      if (loom_sidebar_item_get_folder_id (list_store_peek (self->folders, i)) == folder_id)
        return GTK_WIDGET (gtk_list_box_get_row_at_index (self->folder_list, i));
    }
  return NULL;
}

GtkWidget *
loom_sidebar_get_collection_row (LoomSidebar   *self,
                                 LoomCollection collection)
{
  guint n_items;

  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), NULL);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  for (guint i = 0; i < n_items; i++)
    {
      if (loom_sidebar_item_get_collection (list_store_peek (self->items, i)) == collection)
        return GTK_WIDGET (gtk_list_box_get_row_at_index (self->list_box, i));
    }
  return NULL;
}

GListModel *
loom_sidebar_get_folders (LoomSidebar *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR (self), NULL);

  return G_LIST_MODEL (self->folders);
}
