/* loom-search-result-model.c — search hits grouped by session, as one flat list.
 *
 * GTK 4.8 has no sectioned list models, so a group's header is an item of the list like its
 * hits: a LoomSession, then its LoomSearchHits. The core returns hits best first, a page at a
 * time; a group takes the place of its session's best hit, and a later page adds hits inside
 * the groups it already knows (each insertion reported as such, so that the list keeps its
 * scroll position and focus) and new groups at the end. The same query read again (an import
 * added hits) replaces the lot, keeping the objects that did not change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-search-result-model.h"

typedef struct
{
  LoomSession *session;
  GPtrArray   *hits; /* LoomSearchHit, by seq */
} Group;

struct _LoomSearchResultModel
{
  GObject parent_instance;

  GPtrArray  *groups;  /* Group, in the order of their best hit */
  GHashTable *by_uuid; /* session uuid → Group */
  guint       n_items;
  guint       n_hits;
};

static void list_model_iface_init (GListModelInterface *iface);

/* clang-format off */
G_DEFINE_FINAL_TYPE_WITH_CODE (LoomSearchResultModel, loom_search_result_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))
/* clang-format on */

static void
group_free (Group *group)
{
  g_clear_object (&group->session);
  g_clear_pointer (&group->hits, g_ptr_array_unref);
  g_free (group);
}

/* ——— GListModel ——— */

static GType
loom_search_result_model_get_item_type (GListModel *model)
{
  return G_TYPE_OBJECT;
}

static guint
loom_search_result_model_get_n_items (GListModel *model)
{
  return LOOM_SEARCH_RESULT_MODEL (model)->n_items;
}

static gpointer
loom_search_result_model_get_item (GListModel *model,
                                   guint       position)
{
  LoomSearchResultModel *self = LOOM_SEARCH_RESULT_MODEL (model);

  /* A few hundred hits in a few dozen groups: walking the groups costs less than keeping an
   * index up to date through insertions. */
  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *group = self->groups->pdata[i];

      if (position == 0)
        return g_object_ref (group->session);
      if (position <= group->hits->len)
        return g_object_ref (group->hits->pdata[position - 1]);
      position -= 1 + group->hits->len;
    }
  return NULL;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = loom_search_result_model_get_item_type;
  iface->get_n_items = loom_search_result_model_get_n_items;
  iface->get_item = loom_search_result_model_get_item;
}

/* ——— Groups ——— */

static guint
group_position (LoomSearchResultModel *self,
                Group                 *group)
{
  guint position = 0;

  for (guint i = 0; i < self->groups->len && self->groups->pdata[i] != group; i++)
    position += 1 + ((Group *)self->groups->pdata[i])->hits->len;
  return position;
}

static gint64
hit_seq (LoomSearchHit *hit)
{
  return loom_search_hit_get_data (hit)->seq;
}

/* Inserts @hit into @group in timeline order and returns its index there. */
static guint
group_insert (Group         *group,
              LoomSearchHit *hit)
{
  guint index = group->hits->len;

  while (index > 0 && hit_seq (group->hits->pdata[index - 1]) > hit_seq (hit))
    index--;
  g_ptr_array_insert (group->hits, (int)index, g_object_ref (hit));
  return index;
}

void
loom_search_result_model_add_page (LoomSearchResultModel *self,
                                   LoomSearchPage        *page)
{
  g_autoptr (GPtrArray) new_hits = g_ptr_array_new_with_free_func (g_object_unref);
  guint first_new_item;
  guint n_hits;

  g_return_if_fail (LOOM_IS_SEARCH_RESULT_MODEL (self));
  g_return_if_fail (page != NULL && page->hits != NULL && page->sessions != NULL);

  /* First the hits of the groups the list shows already, each reported where it goes; then
   * the new groups at the end, reported at once. A model must count what it has reported at
   * every step, so the new groups wait until the old ones are done. */
  n_hits = g_list_model_get_n_items (page->hits);
  for (guint i = 0; i < n_hits; i++)
    {
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (page->hits, i);
      Group *group = g_hash_table_lookup (self->by_uuid,
                                          loom_search_hit_get_data (hit)->session_uuid);
      guint  index;

      if (group == NULL)
        {
          g_ptr_array_add (new_hits, g_steal_pointer (&hit));
          continue;
        }

      index = group_insert (group, hit);
      self->n_items++;
      self->n_hits++;
      g_list_model_items_changed (G_LIST_MODEL (self), group_position (self, group) + 1 + index, 0,
                                  1);
    }

  first_new_item = self->n_items;
  for (guint i = 0; i < new_hits->len; i++)
    {
      LoomSearchHit *hit = new_hits->pdata[i];
      const char    *uuid = loom_search_hit_get_data (hit)->session_uuid;
      Group         *group = g_hash_table_lookup (self->by_uuid, uuid);
      LoomSession   *session;

      if (group != NULL)
        {
          group_insert (group, hit);
          self->n_items++;
          self->n_hits++;
          continue;
        }

      /* Gone between the search and the read of its sessions: nothing to open. */
      if (!(session = g_hash_table_lookup (page->sessions, uuid)))
        continue;

      group = g_new0 (Group, 1);
      group->session = g_object_ref (session);
      group->hits = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (group->hits, g_object_ref (hit));
      g_ptr_array_add (self->groups, group);
      g_hash_table_insert (self->by_uuid, (gpointer)loom_session_get_uuid (session), group);
      self->n_items += 2;
      self->n_hits++;
    }

  if (self->n_items > first_new_item)
    g_list_model_items_changed (G_LIST_MODEL (self), first_new_item, 0,
                                self->n_items - first_new_item);
}

static gboolean
same_session (LoomSession *a,
              LoomSession *b)
{
  return g_strcmp0 (loom_session_get_uuid (a), loom_session_get_uuid (b)) == 0 &&
         g_strcmp0 (loom_session_get_title (a), loom_session_get_title (b)) == 0 &&
         g_strcmp0 (loom_session_get_source (a), loom_session_get_source (b)) == 0 &&
         g_strcmp0 (loom_session_get_project_name (a), loom_session_get_project_name (b)) == 0 &&
         loom_session_get_created_at (a) == loom_session_get_created_at (b) &&
         loom_session_get_updated_at (a) == loom_session_get_updated_at (b);
}

static gboolean
same_hit (LoomSearchHit *a,
          LoomSearchHit *b)
{
  const LoomSearchHitData *x = loom_search_hit_get_data (a);
  const LoomSearchHitData *y = loom_search_hit_get_data (b);

  return x->item_id == y->item_id && x->seq == y->seq && x->created_at == y->created_at &&
         g_strcmp0 (x->session_uuid, y->session_uuid) == 0 &&
         g_strcmp0 (x->item_type, y->item_type) == 0 && g_strcmp0 (x->kind, y->kind) == 0 &&
         g_strcmp0 (x->tool_name, y->tool_name) == 0 && g_strcmp0 (x->snippet, y->snippet) == 0;
}

static char *
hit_key (LoomSearchHit *hit)
{
  const LoomSearchHitData *data = loom_search_hit_get_data (hit);

  return g_strdup_printf ("%s %s %" G_GINT64_FORMAT, data->session_uuid, data->item_type,
                          data->item_id);
}

/* The items in the list's order, unowned. */
static GPtrArray *
flatten (LoomSearchResultModel *self)
{
  GPtrArray *items = g_ptr_array_sized_new (self->n_items);

  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *group = self->groups->pdata[i];

      g_ptr_array_add (items, group->session);
      for (guint j = 0; j < group->hits->len; j++)
        g_ptr_array_add (items, group->hits->pdata[j]);
    }
  return items;
}

/* Puts @self's objects in @fresh where they show the same. */
static void
reuse_same (LoomSearchResultModel *self,
            LoomSearchResultModel *fresh)
{
  g_autoptr (GHashTable) hits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < self->groups->len; i++)
    {
      Group *group = self->groups->pdata[i];

      for (guint j = 0; j < group->hits->len; j++)
        g_hash_table_insert (hits, hit_key (group->hits->pdata[j]), group->hits->pdata[j]);
    }

  for (guint i = 0; i < fresh->groups->len; i++)
    {
      Group *group = fresh->groups->pdata[i];
      Group *old = g_hash_table_lookup (self->by_uuid, loom_session_get_uuid (group->session));

      if (old != NULL && same_session (old->session, group->session))
        g_set_object (&group->session, old->session);
      for (guint j = 0; j < group->hits->len; j++)
        {
          g_autofree char *key = hit_key (group->hits->pdata[j]);
          LoomSearchHit   *hit = g_hash_table_lookup (hits, key);

          if (hit != NULL && same_hit (hit, group->hits->pdata[j]))
            {
              g_object_unref (group->hits->pdata[j]);
              group->hits->pdata[j] = g_object_ref (hit);
            }
        }
    }

  /* The table's keys are the sessions' uuids: of the objects kept, now. */
  g_hash_table_remove_all (fresh->by_uuid);
  for (guint i = 0; i < fresh->groups->len; i++)
    {
      Group *group = fresh->groups->pdata[i];

      g_hash_table_insert (fresh->by_uuid, (gpointer)loom_session_get_uuid (group->session), group);
    }
}

gboolean
loom_search_result_model_replace (LoomSearchResultModel *self,
                                  LoomSearchPage        *page)
{
  g_autoptr (LoomSearchResultModel) fresh = NULL;
  g_autoptr (GPtrArray) before = NULL;
  g_autoptr (GPtrArray) after = NULL;
  GPtrArray  *old_groups;
  GHashTable *old_by_uuid;
  guint       same_start = 0, same_end = 0, n_before, n_after;

  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_MODEL (self), FALSE);
  g_return_val_if_fail (page != NULL && page->hits != NULL && page->sessions != NULL, FALSE);

  fresh = loom_search_result_model_new ();
  loom_search_result_model_add_page (fresh, page);
  reuse_same (self, fresh);

  before = flatten (self);
  after = flatten (fresh);
  n_before = before->len;
  n_after = after->len;
  while (same_start < MIN (n_before, n_after) &&
         before->pdata[same_start] == after->pdata[same_start])
    same_start++;
  if (same_start == n_before && same_start == n_after)
    return FALSE;
  while (same_end < MIN (n_before, n_after) - same_start &&
         before->pdata[n_before - 1 - same_end] == after->pdata[n_after - 1 - same_end])
    same_end++;

  /* The old groups go with @fresh, once the list has been told: it holds their objects. */
  old_groups = self->groups;
  old_by_uuid = self->by_uuid;
  self->groups = g_steal_pointer (&fresh->groups);
  self->by_uuid = g_steal_pointer (&fresh->by_uuid);
  fresh->groups = old_groups;
  fresh->by_uuid = old_by_uuid;
  self->n_items = fresh->n_items;
  self->n_hits = fresh->n_hits;
  g_list_model_items_changed (G_LIST_MODEL (self), same_start, n_before - same_start - same_end,
                              n_after - same_start - same_end);
  return TRUE;
}

void
loom_search_result_model_clear (LoomSearchResultModel *self)
{
  guint n_items;

  g_return_if_fail (LOOM_IS_SEARCH_RESULT_MODEL (self));

  n_items = self->n_items;
  if (n_items == 0)
    return;

  g_hash_table_remove_all (self->by_uuid);
  g_ptr_array_set_size (self->groups, 0);
  self->n_items = 0;
  self->n_hits = 0;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n_items, 0);
}

guint
loom_search_result_model_get_n_hits (LoomSearchResultModel *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_MODEL (self), 0);

  return self->n_hits;
}

guint
loom_search_result_model_get_n_sessions (LoomSearchResultModel *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_MODEL (self), 0);

  return self->groups->len;
}

LoomSearchHit *
loom_search_result_model_get_first_hit (LoomSearchResultModel *self,
                                        const char            *uuid)
{
  Group *group;

  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_MODEL (self), NULL);
  g_return_val_if_fail (uuid != NULL, NULL);

  group = g_hash_table_lookup (self->by_uuid, uuid);
  return group != NULL && group->hits->len > 0 ? group->hits->pdata[0] : NULL;
}

/* ——— GObject ——— */

static void
loom_search_result_model_finalize (GObject *object)
{
  LoomSearchResultModel *self = LOOM_SEARCH_RESULT_MODEL (object);

  g_clear_pointer (&self->by_uuid, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);

  G_OBJECT_CLASS (loom_search_result_model_parent_class)->finalize (object);
}

static void
loom_search_result_model_class_init (LoomSearchResultModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = loom_search_result_model_finalize;
}

static void
loom_search_result_model_init (LoomSearchResultModel *self)
{
  self->groups = g_ptr_array_new_with_free_func ((GDestroyNotify)group_free);
  self->by_uuid = g_hash_table_new (g_str_hash, g_str_equal);
}

LoomSearchResultModel *
loom_search_result_model_new (void)
{
  return g_object_new (LOOM_TYPE_SEARCH_RESULT_MODEL, NULL);
}
