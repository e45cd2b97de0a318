/* loom-timeline-model.c — a session's timeline as a lazy GListModel of LoomTimelineItem.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-store-timeline-pages.h"
#include "loom-timeline-model.h"

/* A screenful is a few dozen rows: one page covers it, and scrolling reads the next. */
#define PAGE_SIZE 64
/* Enough for a fast scroll back and forth; a long session never sits in memory whole. */
#define MAX_PAGES 32

struct _LoomTimelineModel
{
  GObject parent_instance;

  LoomStore  *store;
  gint64      session_id;
  GArray     *keys;  /* LoomTimelineKey, in timeline order */
  GPtrArray **pages; /* per page: NULL, or its items */
  guint       n_pages;
  GQueue      loaded; /* page numbers (GUINT_TO_POINTER), most recently used first */
};

static void loom_timeline_model_list_model_init (GListModelInterface *iface);

/* clang-format off */
G_DEFINE_FINAL_TYPE_WITH_CODE (LoomTimelineModel, loom_timeline_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      loom_timeline_model_list_model_init))
/* clang-format on */

static GQuark result_quark;
static GQuark child_uuid_quark;

static void
loom_timeline_model_finalize (GObject *object)
{
  LoomTimelineModel *self = (LoomTimelineModel *)object;

  for (guint i = 0; i < self->n_pages; i++)
    g_clear_pointer (&self->pages[i], g_ptr_array_unref);
  g_free (self->pages);
  g_queue_clear (&self->loaded);
  g_clear_pointer (&self->keys, g_array_unref);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (loom_timeline_model_parent_class)->finalize (object);
}

static void
loom_timeline_model_class_init (LoomTimelineModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = loom_timeline_model_finalize;

  result_quark = g_quark_from_static_string ("loom-timeline-result");
  child_uuid_quark = g_quark_from_static_string ("loom-timeline-child-uuid");
}

static void
loom_timeline_model_init (LoomTimelineModel *self)
{
  g_queue_init (&self->loaded);
}

/* Pages */

static gboolean
has_call (const LoomTimelineData *data)
{
  return !data->is_message && data->call_id != NULL &&
         (g_strcmp0 (data->kind, "tool_call") == 0 || g_strcmp0 (data->kind, "file_change") == 0 ||
          g_strcmp0 (data->kind, "subagent") == 0);
}

/* Reads the results of the page's calls and the sessions of its sub-agents, and hangs them on
 * the items, so that binding a row never goes back to the store. */
static void
attach_companions (LoomTimelineModel *self,
                   GPtrArray         *items)
{
  g_autoptr (GPtrArray) call_ids = g_ptr_array_new ();
  g_autoptr (GPtrArray) results = NULL;
  g_autoptr (GHashTable) by_call = NULL;
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      const LoomTimelineData *data = loom_timeline_item_get_data (items->pdata[i]);

      if (has_call (data))
        g_ptr_array_add (call_ids, data->call_id);

      if (!data->is_message && g_strcmp0 (data->kind, "subagent") == 0)
        {
          g_autoptr (GError) child_error = NULL;
          char *uuid = loom_store_find_subagent_session (self->store, data->id, &child_error);

          if (child_error != NULL)
            g_debug ("No session for sub-agent event %" G_GINT64_FORMAT ": %s", data->id,
                     child_error->message);
          if (uuid != NULL)
            g_object_set_qdata_full (items->pdata[i], child_uuid_quark, uuid, g_free);
        }
    }
  if (call_ids->len == 0)
    return;
  g_ptr_array_add (call_ids, NULL);

  results = loom_store_read_tool_results (self->store, self->session_id,
                                          (const char *const *)call_ids->pdata, &error);
  if (results == NULL)
    {
      g_debug ("Could not read tool results: %s", error->message);
      return;
    }

  /* The first result of a call is its answer; later ones (a retried call) are rare. */
  by_call = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < results->len; i++)
    {
      const LoomTimelineData *data = loom_timeline_item_get_data (results->pdata[i]);
      LoomTimelineItem       *known = g_hash_table_lookup (by_call, data->call_id);

      if (known == NULL || loom_timeline_item_get_data (known)->seq > data->seq)
        g_hash_table_insert (by_call, data->call_id, results->pdata[i]);
    }
  for (guint i = 0; i < items->len; i++)
    {
      const LoomTimelineData *data = loom_timeline_item_get_data (items->pdata[i]);
      LoomTimelineItem       *result;

      if (has_call (data) && (result = g_hash_table_lookup (by_call, data->call_id)))
        g_object_set_qdata_full (items->pdata[i], result_quark, g_object_ref (result),
                                 g_object_unref);
    }
}

static LoomTimelineItem *
placeholder_item (const LoomTimelineKey *key,
                  const char            *why)
{
  LoomTimelineData data = {
    .id = key->id,
    .seq = key->seq,
    .is_message = FALSE,
    .kind = g_strdup ("raw"),
    .text = g_strdup (why),
  };

  return loom_timeline_item_new (&data);
}

static guint64
key_hash (gint64   id,
          gboolean is_message)
{
  return ((guint64)id << 1) | (is_message ? 1 : 0);
}

static GPtrArray *
load_page (LoomTimelineModel *self,
           guint              page)
{
  guint                  first = page * PAGE_SIZE;
  guint                  last = MIN (first + PAGE_SIZE, self->keys->len) - 1;
  const LoomTimelineKey *first_key = &g_array_index (self->keys, LoomTimelineKey, first);
  const LoomTimelineKey *last_key = &g_array_index (self->keys, LoomTimelineKey, last);
  g_autoptr (GPtrArray) range = NULL;
  g_autoptr (GHashTable) by_key = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *items;

  range = loom_store_read_timeline_range (self->store, self->session_id, first_key->seq,
                                          last_key->seq, &error);

  /* The range also holds the items the list leaves out (results inside their calls). */
  by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; range != NULL && i < range->len; i++)
    {
      const LoomTimelineData *data = loom_timeline_item_get_data (range->pdata[i]);
      gint64                 *key = g_new (gint64, 1);

      *key = (gint64)key_hash (data->id, data->is_message);
      g_hash_table_insert (by_key, key, range->pdata[i]);
    }

  items = g_ptr_array_new_full (last - first + 1, g_object_unref);
  for (guint i = first; i <= last; i++)
    {
      const LoomTimelineKey *key = &g_array_index (self->keys, LoomTimelineKey, i);
      gint64                 hash = (gint64)key_hash (key->id, key->is_message);
      LoomTimelineItem      *item = g_hash_table_lookup (by_key, &hash);

      /* The session changed under us (deleted, re-imported): keep the positions stable and
       * say so, rather than shifting the list while it is shown. */
      if (item != NULL)
        g_ptr_array_add (items, g_object_ref (item));
      else
        g_ptr_array_add (
          items, placeholder_item (key, error ? error->message : "This item is no longer stored"));
    }

  attach_companions (self, items);
  return items;
}

static GPtrArray *
get_page (LoomTimelineModel *self,
          guint              page)
{
  g_assert (page < self->n_pages);

  if (self->pages[page] != NULL)
    {
      GList *link = g_queue_find (&self->loaded, GUINT_TO_POINTER (page));

      g_queue_unlink (&self->loaded, link);
      g_queue_push_head_link (&self->loaded, link);
      return self->pages[page];
    }

  while (self->loaded.length >= MAX_PAGES)
    {
      guint oldest = GPOINTER_TO_UINT (g_queue_pop_tail (&self->loaded));

      g_clear_pointer (&self->pages[oldest], g_ptr_array_unref);
    }

  self->pages[page] = load_page (self, page);
  g_queue_push_head (&self->loaded, GUINT_TO_POINTER (page));
  return self->pages[page];
}

/* GListModel */

static GType
loom_timeline_model_get_item_type (GListModel *model)
{
  return LOOM_TYPE_TIMELINE_ITEM;
}

static guint
loom_timeline_model_get_n_items (GListModel *model)
{
  return LOOM_TIMELINE_MODEL (model)->keys->len;
}

static gpointer
loom_timeline_model_get_item (GListModel *model,
                              guint       position)
{
  LoomTimelineModel *self = LOOM_TIMELINE_MODEL (model);
  GPtrArray         *page;

  if (position >= self->keys->len)
    return NULL;

  page = get_page (self, position / PAGE_SIZE);
  return g_object_ref (page->pdata[position % PAGE_SIZE]);
}

static void
loom_timeline_model_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = loom_timeline_model_get_item_type;
  iface->get_n_items = loom_timeline_model_get_n_items;
  iface->get_item = loom_timeline_model_get_item;
}

/* Public */

LoomTimelineModel *
loom_timeline_model_new (LoomStore *store,
                         gint64     session_id,
                         GError   **error)
{
  g_autoptr (LoomTimelineModel) self = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (session_id > 0, NULL);

  self = g_object_new (LOOM_TYPE_TIMELINE_MODEL, NULL);
  self->store = g_object_ref (store);
  self->session_id = session_id;
  if (!(self->keys = loom_store_read_timeline_keys (store, session_id, error)))
    return NULL;
  self->n_pages = (self->keys->len + PAGE_SIZE - 1) / PAGE_SIZE;
  self->pages = g_new0 (GPtrArray *, MAX (self->n_pages, 1));
  return g_steal_pointer (&self);
}

static gboolean
keys_equal (const LoomTimelineKey *a,
            const LoomTimelineKey *b)
{
  return a->seq == b->seq && a->id == b->id && !a->is_message == !b->is_message;
}

gboolean
loom_timeline_model_reload (LoomTimelineModel *self,
                            GError           **error)
{
  g_autoptr (GArray) keys = NULL;
  guint n_old, n_new, common, first_changed;

  g_return_val_if_fail (LOOM_IS_TIMELINE_MODEL (self), FALSE);

  if (!(keys = loom_store_read_timeline_keys (self->store, self->session_id, error)))
    return FALSE;

  n_old = self->keys->len;
  n_new = keys->len;
  for (common = 0; common < MIN (n_old, n_new); common++)
    {
      if (!keys_equal (&g_array_index (self->keys, LoomTimelineKey, common),
                       &g_array_index (keys, LoomTimelineKey, common)))
        break;
    }

  /* The page before the change is read again too: its calls may have got their results. */
  first_changed = common >= PAGE_SIZE ? (common / PAGE_SIZE - 1) * PAGE_SIZE : 0;
  if (common == n_old && common == n_new && n_old > 0)
    first_changed = (n_old - 1) / PAGE_SIZE * PAGE_SIZE;

  for (guint page = first_changed / PAGE_SIZE; page < self->n_pages; page++)
    {
      if (self->pages[page] == NULL)
        continue;
      g_queue_remove (&self->loaded, GUINT_TO_POINTER (page));
      g_clear_pointer (&self->pages[page], g_ptr_array_unref);
    }

  g_array_unref (self->keys);
  self->keys = g_steal_pointer (&keys);
  self->n_pages = (n_new + PAGE_SIZE - 1) / PAGE_SIZE;
  self->pages = g_renew (GPtrArray *, self->pages, MAX (self->n_pages, 1));
  for (guint page = first_changed / PAGE_SIZE; page < MAX (self->n_pages, 1); page++)
    self->pages[page] = NULL;

  if (n_old - first_changed > 0 || n_new - first_changed > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), first_changed, n_old - first_changed,
                                n_new - first_changed);
  return TRUE;
}

LoomStore *
loom_timeline_model_get_store (LoomTimelineModel *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_MODEL (self), NULL);
  return self->store;
}

gint64
loom_timeline_model_get_session_id (LoomTimelineModel *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_MODEL (self), 0);
  return self->session_id;
}

guint
loom_timeline_model_find_seq (LoomTimelineModel *self,
                              gint64             seq)
{
  guint low = 0;
  guint high;

  g_return_val_if_fail (LOOM_IS_TIMELINE_MODEL (self), 0);

  /* The last key with key.seq <= seq: binary search over the sorted keys. */
  high = self->keys->len;
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (g_array_index (self->keys, LoomTimelineKey, middle).seq <= seq)
        low = middle + 1;
      else
        high = middle;
    }
  return low > 0 ? low - 1 : 0;
}

guint
loom_timeline_model_get_n_loaded_pages (LoomTimelineModel *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_MODEL (self), 0);
  return self->loaded.length;
}

LoomTimelineItem *
loom_timeline_model_item_get_result (LoomTimelineItem *item)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_ITEM (item), NULL);
  return result_quark ? g_object_get_qdata (G_OBJECT (item), result_quark) : NULL;
}

const char *
loom_timeline_model_item_get_child_uuid (LoomTimelineItem *item)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_ITEM (item), NULL);
  return child_uuid_quark ? g_object_get_qdata (G_OBJECT (item), child_uuid_quark) : NULL;
}
