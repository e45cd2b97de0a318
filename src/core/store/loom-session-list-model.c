/* loom-session-list-model.c — the sessions of a query as a lazy list model.
 *
 * A list of 100,000 sessions must open as fast as a list of ten. The store sorts and filters (in
 * SQL, with its indexes) and hands over only the row ids of the query's sessions, in order: one
 * narrow query, 800 kB for 100,000 sessions. The sessions themselves are read by id a page at a
 * time, when a list view asks for one, as fast deep in the list as at its top. A reload reads
 * the ids again and compares them, so that the change it reports is exact.
 *
 * A session that someone holds (a row, a selection, the timeline) keeps its object: reading
 * its page again updates that object in place, and its row follows through notifications.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-session-list-model.h"
#include "loom-store-session-ids.h"

#define PAGE_SIZE    LOOM_SESSION_LIST_MODEL_PAGE_SIZE
#define MAX_PAGES    LOOM_SESSION_LIST_MODEL_MAX_PAGES
/* A reload reads again only the pages used last (those the list view shows) and the first. */
#define RELOAD_PAGES 4

typedef struct
{
  guint      index;
  guint64    used;  /* the model's clock when last read from */
  GPtrArray *items; /* LoomSession, in order */
} Page;

/* One session object handed out, known by its row id as long as someone holds it. */
typedef struct
{
  LoomSessionListModel *model;
  LoomSession          *session;
  gint64                id;
} Alive;

struct _LoomSessionListModel
{
  GObject parent_instance;

  LoomStore       *store;
  LoomSessionQuery query;
  char            *source; /* owned copies of the query's strings */
  char            *project;

  GArray     *ids;     /* the sessions' row ids (gint64), in the query's order */
  guint64     stamp;   /* the store's change stamp when the ids were read */
  gint64      read_at; /* and the time, in monotonic microseconds */
  GHashTable *pages;   /* page index → Page */
  guint64     clock;
  GHashTable *alive; /* &Alive.id → Alive */
  guint       reload_id;

  guint n_page_loads;
};

static void loom_session_list_model_iface_init (GListModelInterface *iface);

/* clang-format off */
G_DEFINE_FINAL_TYPE_WITH_CODE (LoomSessionListModel, loom_session_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      loom_session_list_model_iface_init))
/* clang-format on */

enum
{
  PROP_0,
  PROP_N_ITEMS,
  PROP_STORE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
page_free (gpointer data)
{
  Page *page = data;

  g_ptr_array_unref (page->items);
  g_free (page);
}

static GHashTable *
pages_new (void)
{
  return g_hash_table_new_full (NULL, NULL, NULL, page_free);
}

/* ——— Session objects ——— */

/* Pages hold NULL where a session was deleted after the ids were read (until the reload). */
static void
unref_if_set (gpointer object)
{
  if (object != NULL)
    g_object_unref (object);
}

static void
alive_finalized_cb (gpointer data,
                    GObject *where_the_object_was)
{
  Alive *alive = data;

  g_hash_table_remove (alive->model->alive, &alive->id);
  g_free (alive);
}

static void
forget_alive (LoomSessionListModel *self,
              Alive                *alive)
{
  g_object_weak_unref (G_OBJECT (alive->session), alive_finalized_cb, alive);
  g_hash_table_remove (self->alive, &alive->id);
  g_free (alive);
}

/* Returns the object to list for @fresh, a session just read: the one already handed out for
 * it, brought up to date, or @fresh itself. */
static LoomSession *
adopt_session (LoomSessionListModel *self,
               LoomSession          *fresh)
{
  const LoomSessionRecord *record = loom_session_get_record (fresh);
  Alive                   *alive = g_hash_table_lookup (self->alive, &record->id);

  if (alive != NULL)
    {
      const LoomSessionRecord *known = loom_session_get_record (alive->session);

      /* LoomSession has no notification for "source deleted": rows learn it from a new
       * object, which the reload reports as a change at its position. */
      if (!known->source_missing == !record->source_missing)
        {
          loom_session_update (alive->session, record);
          return g_object_ref (alive->session);
        }
      forget_alive (self, alive);
    }

  alive = g_new0 (Alive, 1);
  alive->model = self;
  alive->session = fresh;
  alive->id = record->id;
  g_object_weak_ref (G_OBJECT (fresh), alive_finalized_cb, alive);
  g_hash_table_insert (self->alive, &alive->id, alive);

  return g_object_ref (fresh);
}

static gboolean
reload_idle_cb (gpointer user_data)
{
  LoomSessionListModel *self = user_data;
  g_autoptr (GError) error = NULL;

  self->reload_id = 0;
  if (!loom_session_list_model_reload (self, &error))
    g_warning ("Could not list the sessions again: %s", error->message);

  return G_SOURCE_REMOVE;
}

/* Reads the sessions at @position .. @position + @n_items - 1 by their ids, adopted, one per
 * position. A session deleted since the ids were read keeps its place, as its object when
 * someone holds one, else as NULL, until the reload that this schedules. */
static GPtrArray *
read_sessions (LoomSessionListModel *self,
               guint                 position,
               guint                 n_items,
               GError              **error)
{
  const gint64 *ids = &g_array_index (self->ids, gint64, position);
  g_autoptr (GPtrArray) sessions = NULL;
  GPtrArray *items;
  guint      next = 0;

  g_assert (position + n_items <= self->ids->len);

  if (!(sessions = loom_store_load_sessions (self->store, ids, n_items, error)))
    return NULL;

  items = g_ptr_array_new_full (n_items, unref_if_set);
  for (guint i = 0; i < n_items; i++)
    {
      LoomSession *session = next < sessions->len ? sessions->pdata[next] : NULL;
      Alive       *alive;

      if (session != NULL && loom_session_get_id (session) == ids[i])
        {
          g_ptr_array_add (items, adopt_session (self, session));
          next++;
          continue;
        }

      alive = g_hash_table_lookup (self->alive, &ids[i]);
      g_ptr_array_add (items, alive != NULL ? g_object_ref (alive->session) : NULL);
      if (self->reload_id == 0)
        self->reload_id = g_idle_add (reload_idle_cb, self);
    }

  return items;
}

/* ——— Pages ——— */

static Page *
load_page (LoomSessionListModel *self,
           guint                 index,
           GError              **error)
{
  guint      start = index * PAGE_SIZE;
  GPtrArray *items;
  Page      *page;

  g_assert (start < self->ids->len);

  if (!(items = read_sessions (self, start, MIN (PAGE_SIZE, self->ids->len - start), error)))
    return NULL;
  self->n_page_loads++;

  page = g_new0 (Page, 1);
  page->index = index;
  page->items = items;
  page->used = ++self->clock;
  return page;
}

static void
evict_pages (LoomSessionListModel *self)
{
  while (g_hash_table_size (self->pages) > MAX_PAGES)
    {
      GHashTableIter iter;
      Page          *page, *oldest = NULL;

      g_hash_table_iter_init (&iter, self->pages);
      while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&page))
        {
          if (oldest == NULL || page->used < oldest->used)
            oldest = page;
        }
      g_hash_table_remove (self->pages, GUINT_TO_POINTER (oldest->index));
    }
}

static Page *
get_page (LoomSessionListModel *self,
          guint                 index,
          GError              **error)
{
  Page *page = g_hash_table_lookup (self->pages, GUINT_TO_POINTER (index));

  if (page != NULL)
    {
      page->used = ++self->clock;
      return page;
    }

  if (!(page = load_page (self, index, error)))
    return NULL;
  g_hash_table_insert (self->pages, GUINT_TO_POINTER (index), page);
  evict_pages (self);
  return page;
}

/* The session at @position in @pages, or NULL when no page there is held. */
static LoomSession *
peek (GHashTable *pages,
      guint       position)
{
  Page *page = g_hash_table_lookup (pages, GUINT_TO_POINTER (position / PAGE_SIZE));

  if (page == NULL || position % PAGE_SIZE >= page->items->len)
    return NULL;
  return page->items->pdata[position % PAGE_SIZE];
}

/* ——— GListModel ——— */

static GType
loom_session_list_model_get_item_type (GListModel *model)
{
  return LOOM_TYPE_SESSION;
}

static guint
loom_session_list_model_get_n_items (GListModel *model)
{
  return LOOM_SESSION_LIST_MODEL (model)->ids->len;
}

static gpointer
loom_session_list_model_get_item (GListModel *model,
                                  guint       position)
{
  LoomSessionListModel *self = LOOM_SESSION_LIST_MODEL (model);
  g_autoptr (GError) error = NULL;
  LoomSession *session;
  Page        *page;

  if (position >= self->ids->len)
    return NULL;

  if (!(page = get_page (self, position / PAGE_SIZE, &error)))
    {
      g_warning ("Could not read the sessions from %u: %s", position, error->message);
      return NULL;
    }

  session = page->items->pdata[position % PAGE_SIZE];
  return session != NULL ? g_object_ref (session) : NULL;
}

static void
loom_session_list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = loom_session_list_model_get_item_type;
  iface->get_n_items = loom_session_list_model_get_n_items;
  iface->get_item = loom_session_list_model_get_item;
}

/* ——— GObject ——— */

static void
loom_session_list_model_dispose (GObject *object)
{
  LoomSessionListModel *self = LOOM_SESSION_LIST_MODEL (object);
  GHashTableIter        iter;
  Alive                *alive;

  g_clear_handle_id (&self->reload_id, g_source_remove);
  g_hash_table_remove_all (self->pages);

  /* Objects that outlive the model must not call back into it. */
  g_hash_table_iter_init (&iter, self->alive);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&alive))
    {
      g_object_weak_unref (G_OBJECT (alive->session), alive_finalized_cb, alive);
      g_hash_table_iter_remove (&iter);
      g_free (alive);
    }

  g_clear_object (&self->store);

  G_OBJECT_CLASS (loom_session_list_model_parent_class)->dispose (object);
}

static void
loom_session_list_model_finalize (GObject *object)
{
  LoomSessionListModel *self = LOOM_SESSION_LIST_MODEL (object);

  g_clear_pointer (&self->pages, g_hash_table_unref);
  g_clear_pointer (&self->alive, g_hash_table_unref);
  g_clear_pointer (&self->ids, g_array_unref);
  g_clear_pointer (&self->source, g_free);
  g_clear_pointer (&self->project, g_free);

  G_OBJECT_CLASS (loom_session_list_model_parent_class)->finalize (object);
}

static void
loom_session_list_model_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  LoomSessionListModel *self = LOOM_SESSION_LIST_MODEL (object);

  switch (prop_id)
    {
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->ids->len);
      break;

    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_list_model_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  LoomSessionListModel *self = LOOM_SESSION_LIST_MODEL (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_list_model_class_init (LoomSessionListModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = loom_session_list_model_dispose;
  object_class->finalize = loom_session_list_model_finalize;
  object_class->get_property = loom_session_list_model_get_property;
  object_class->set_property = loom_session_list_model_set_property;

  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);

  properties[PROP_STORE] = g_param_spec_object ("store", NULL, NULL, LOOM_TYPE_STORE,
                                                G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                  G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
loom_session_list_model_init (LoomSessionListModel *self)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;

  self->query = default_query;
  self->ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->pages = pages_new ();
  self->alive = g_hash_table_new (g_int64_hash, g_int64_equal);
}

/* ——— Public ——— */

/* The ids of the query, noting when they were read. */
static GArray *
read_ids (LoomSessionListModel *self,
          GError              **error)
{
  guint64 stamp = loom_store_get_change_stamp (self->store);
  GArray *ids;

  if ((ids = loom_store_list_session_ids (self->store, &self->query, error)) != NULL)
    {
      self->stamp = stamp;
      self->read_at = g_get_monotonic_time ();
    }
  return ids;
}

/* Whether the ids read last may be out of date. Recent and Active change with the time alone:
 * their ids are trusted for a second only. */
static gboolean
ids_may_have_changed (LoomSessionListModel *self)
{
  gboolean by_time = self->query.collection == LOOM_COLLECTION_RECENT ||
                     self->query.collection == LOOM_COLLECTION_ACTIVE;

  if (self->read_at == 0 || loom_store_get_change_stamp (self->store) != self->stamp)
    return TRUE;
  return by_time && g_get_monotonic_time () - self->read_at > G_USEC_PER_SEC;
}

static void
copy_query (LoomSessionListModel   *self,
            const LoomSessionQuery *query)
{
  static const LoomSessionQuery default_query = LOOM_SESSION_QUERY_INIT;
  char                         *source, *project;

  if (query == NULL)
    query = &default_query;

  /* @query may hold this model's own strings. */
  source = g_strdup (query->source);
  project = g_strdup (query->project);
  self->query = *query;
  g_free (self->source);
  g_free (self->project);
  self->source = source;
  self->project = project;
  self->query.source = self->source;
  self->query.project = self->project;
  self->query.offset = 0;
  self->query.limit = 0;
}

LoomSessionListModel *
loom_session_list_model_new (LoomStore              *store,
                             const LoomSessionQuery *query)
{
  LoomSessionListModel *self;
  g_autoptr (GError) error = NULL;
  GArray *ids;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);

  self = g_object_new (LOOM_TYPE_SESSION_LIST_MODEL, "store", store, NULL);
  copy_query (self, query);
  if ((ids = read_ids (self, &error)) != NULL)
    {
      g_array_unref (self->ids);
      self->ids = ids;
    }
  else
    {
      g_warning ("Could not list the sessions: %s", error->message);
    }

  return self;
}

LoomStore *
loom_session_list_model_get_store (LoomSessionListModel *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), NULL);

  return self->store;
}

const LoomSessionQuery *
loom_session_list_model_get_query (LoomSessionListModel *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), NULL);

  return &self->query;
}

gboolean
loom_session_list_model_set_query (LoomSessionListModel   *self,
                                   const LoomSessionQuery *query,
                                   GError                **error)
{
  g_autoptr (GArray) old = NULL;
  GArray *ids;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), FALSE);

  copy_query (self, query);

  /* Whatever happens, nothing of the old list may be shown as part of the new one. */
  g_hash_table_remove_all (self->pages);
  g_clear_handle_id (&self->reload_id, g_source_remove);
  ids = read_ids (self, error);

  old = g_steal_pointer (&self->ids);
  self->ids = ids != NULL ? ids : g_array_new (FALSE, FALSE, sizeof (gint64));
  if (old->len > 0 || self->ids->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old->len, self->ids->len);
  if (old->len != self->ids->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);

  return ids != NULL;
}

static gint
compare_used_desc (gconstpointer a,
                   gconstpointer b)
{
  const Page *page_a = *(Page *const *)a;
  const Page *page_b = *(Page *const *)b;

  return page_a->used < page_b->used ? 1 : page_a->used > page_b->used ? -1 : 0;
}

/* Where the session at @old_position went, given the change [prefix, old_n - suffix) →
 * [prefix, new_n - suffix); one inside the change is taken to where the change starts. */
static guint
map_position (guint old_position,
              guint prefix,
              guint suffix,
              guint old_n,
              guint new_n)
{
  if (old_position < prefix)
    return old_position;
  if (old_position >= old_n - suffix)
    return old_position - old_n + new_n;
  return prefix;
}

gboolean
loom_session_list_model_reload (LoomSessionListModel *self,
                                GError              **error)
{
  g_autoptr (GHashTable) old_pages = NULL;
  g_autoptr (GPtrArray) recent = NULL;
  g_autoptr (GArray) old_ids = NULL;
  g_autoptr (GArray) wanted = NULL;
  GArray        *new_ids;
  GHashTableIter iter;
  Page          *page;
  guint          old_n, new_n, common, prefix, suffix;
  guint          first_page = 0;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), FALSE);

  g_clear_handle_id (&self->reload_id, g_source_remove);

  /* Nothing written since the ids were read (the window reloads right after it set the store,
   * say): nothing to read again, not even the pages, whose sessions are as they were. */
  if (!ids_may_have_changed (self))
    return TRUE;

  if (!(new_ids = read_ids (self, error)))
    return FALSE;

  old_ids = g_steal_pointer (&self->ids);
  self->ids = new_ids;
  old_n = old_ids->len;
  new_n = new_ids->len;

  /* The change, exactly: the sessions before and after it are the same, in the same order. */
  common = MIN (old_n, new_n);
  for (prefix = 0; prefix < common; prefix++)
    {
      if (g_array_index (old_ids, gint64, prefix) != g_array_index (new_ids, gint64, prefix))
        break;
    }
  for (suffix = 0; suffix < common - prefix; suffix++)
    {
      if (g_array_index (old_ids, gint64, old_n - 1 - suffix) !=
          g_array_index (new_ids, gint64, new_n - 1 - suffix))
        break;
    }

  /* The pages used last are those on screen: they are read again where their sessions are
   * now, so that what the rows show is up to date. The others are dropped, to be read when
   * needed. The old pages hold their sessions meanwhile, so that the sessions keep their
   * objects. */
  recent = g_ptr_array_new ();
  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&page))
    g_ptr_array_add (recent, page);
  g_ptr_array_sort (recent, compare_used_desc);
  if (recent->len > RELOAD_PAGES)
    g_ptr_array_set_size (recent, RELOAD_PAGES);

  wanted = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (wanted, first_page);
  for (guint i = 0; i < recent->len; i++)
    {
      guint first = ((Page *)recent->pdata[i])->index * PAGE_SIZE;
      guint last = first + ((Page *)recent->pdata[i])->items->len - 1;
      guint new_first = map_position (first, prefix, suffix, old_n, new_n) / PAGE_SIZE;
      guint new_last = map_position (last, prefix, suffix, old_n, new_n) / PAGE_SIZE;

      g_array_append_val (wanted, new_first);
      g_array_append_val (wanted, new_last);
    }

  old_pages = g_steal_pointer (&self->pages);
  self->pages = pages_new ();
  for (guint i = 0; i < wanted->len; i++)
    {
      guint index = g_array_index (wanted, guint, i);

      if (index * PAGE_SIZE >= new_n ||
          g_hash_table_contains (self->pages, GUINT_TO_POINTER (index)))
        continue;
      if (!(page = load_page (self, index, error)))
        {
          g_hash_table_unref (self->pages);
          self->pages = g_steal_pointer (&old_pages);
          g_array_unref (self->ids);
          self->ids = g_steal_pointer (&old_ids);
          self->read_at = 0;
          return FALSE;
        }
      g_hash_table_insert (self->pages, GUINT_TO_POINTER (index), page);
    }

  /* A session whose source the agent deleted comes as a new object (see adopt_session()):
   * its place counts as changed, so that its row is made again. */
  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&page))
    {
      for (guint i = 0; i < page->items->len; i++)
        {
          guint        position = page->index * PAGE_SIZE + i;
          LoomSession *before;

          if (position >= prefix && position < new_n - suffix)
            continue;
          before = peek (old_pages, position < prefix ? position : position + old_n - new_n);
          if (before != NULL && before != page->items->pdata[i])
            {
              if (position < prefix)
                prefix = position;
              else
                suffix = new_n - 1 - position;
            }
        }
    }

  if (prefix + suffix < MAX (old_n, new_n))
    g_list_model_items_changed (G_LIST_MODEL (self), prefix, old_n - prefix - suffix,
                                new_n - prefix - suffix);
  if (old_n != new_n)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);

  return TRUE;
}

gboolean
loom_session_list_model_find (LoomSessionListModel *self,
                              const char           *uuid,
                              guint                *position)
{
  g_autoptr (GError) error = NULL;
  GHashTableIter iter;
  Page          *page;
  gint64         id;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), FALSE);
  g_return_val_if_fail (uuid != NULL, FALSE);

  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *)&page))
    {
      for (guint i = 0; i < page->items->len; i++)
        {
          LoomSession *session = page->items->pdata[i];

          if (session != NULL && g_strcmp0 (loom_session_get_uuid (session), uuid) == 0)
            {
              if (position != NULL)
                *position = page->index * PAGE_SIZE + i;
              return TRUE;
            }
        }
    }

  /* Not read yet: its row id, then its place among the ids, which is in memory. */
  if (!(id = loom_store_find_session_id (self->store, uuid, &error)))
    {
      if (error != NULL)
        g_warning ("Could not look for session %s: %s", uuid, error->message);
      return FALSE;
    }
  for (guint i = 0; i < self->ids->len; i++)
    {
      if (g_array_index (self->ids, gint64, i) == id)
        {
          if (position != NULL)
            *position = i;
          return TRUE;
        }
    }

  return FALSE;
}

GPtrArray *
loom_session_list_model_get_range (LoomSessionListModel *self,
                                   guint                 position,
                                   guint                 n_items,
                                   GError              **error)
{
  g_autoptr (GPtrArray) sessions = NULL;
  guint end;

  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), NULL);

  end = (guint)MIN ((guint64)position + n_items, self->ids->len);
  sessions = g_ptr_array_new_full (end > position ? end - position : 0, g_object_unref);

  for (guint i = position; i < end;)
    {
      LoomSession *session = peek (self->pages, i);
      g_autoptr (GPtrArray) read = NULL;
      guint stretch = i;

      if (session != NULL)
        {
          g_ptr_array_add (sessions, g_object_ref (session));
          i++;
          continue;
        }

      /* One read for the whole stretch that is not in memory; it stays out of the pages. */
      while (stretch < end && peek (self->pages, stretch) == NULL)
        stretch++;
      if (!(read = read_sessions (self, i, stretch - i, error)))
        return NULL;
      for (guint j = 0; j < read->len; j++)
        {
          if (read->pdata[j] != NULL)
            g_ptr_array_add (sessions, g_object_ref (read->pdata[j]));
        }
      i = stretch;
    }

  return g_steal_pointer (&sessions);
}

guint
loom_session_list_model_get_n_page_loads (LoomSessionListModel *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), 0);

  return self->n_page_loads;
}

guint
loom_session_list_model_get_n_cached_pages (LoomSessionListModel *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_LIST_MODEL (self), 0);

  return g_hash_table_size (self->pages);
}
