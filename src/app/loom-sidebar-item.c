/* loom-sidebar-item.c — one entry of the sidebar: a collection or a folder, with its count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-sidebar-item.h"

struct _LoomSidebarItem
{
  GObject parent_instance;

  LoomCollection collection;
  guint          count;
  /* Folders only: the store's id and the name, which a rename changes in place. */
  gint64         folder_id;
  char          *name;
};

G_DEFINE_FINAL_TYPE (LoomSidebarItem, loom_sidebar_item, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_COLLECTION,
  PROP_COUNT,
  PROP_FOLDER_ID,
  PROP_ICON_NAME,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct
{
  const char *title;
  const char *icon_name;
  const char *empty_title;
  const char *empty_description;
} CollectionInfo;

/* Indexed by LoomCollection. The strings are marked here and translated where they are read. */
static const CollectionInfo collection_info[] = {
  [LOOM_COLLECTION_ALL] = {
    N_("All Sessions"), "view-list-bullet-symbolic",
    N_("No Sessions"),
    N_("Archived sessions and sessions in the trash are listed apart"),
  },
  [LOOM_COLLECTION_RECENT] = {
    N_("Recent"), "document-open-recent-symbolic",
    N_("No Recent Sessions"),
    N_("Sessions updated in the last seven days appear here"),
  },
  [LOOM_COLLECTION_PINNED] = {
    N_("Pinned"), "view-pin-symbolic",
    N_("No Pinned Sessions"),
    N_("Pin the sessions you come back to, to keep them at hand here"),
  },
  [LOOM_COLLECTION_ACTIVE] = {
    N_("Active"), "media-playback-start-symbolic",
    N_("No Active Sessions"),
    N_("Sessions updated in the last 24 hours appear here"),
  },
  [LOOM_COLLECTION_ARCHIVED] = {
    N_("Archived"), "package-x-generic-symbolic",
    N_("No Archived Sessions"),
    N_("Older sessions move here, each with a verified backup"),
  },
  [LOOM_COLLECTION_TRASH] = {
    N_("Trash"), "user-trash-symbolic",
    N_("Trash Is Empty"),
    N_("Sessions moved to the trash stay here until it is emptied"),
  },
};

/* A folder lists the sessions of All that are filed in it. */
static const CollectionInfo folder_info = {
  NULL,
  "folder-symbolic",
  N_ ("Folder Is Empty"),
  N_ ("Drag sessions onto the folder, or choose “Move to…” in a session’s menu"),
};

static const CollectionInfo *
get_info (LoomSidebarItem *self)
{
  g_assert (LOOM_IS_SIDEBAR_ITEM (self));
  g_assert (self->collection < G_N_ELEMENTS (collection_info));

  if (self->folder_id > 0)
    return &folder_info;
  return &collection_info[self->collection];
}

static void
loom_sidebar_item_finalize (GObject *object)
{
  LoomSidebarItem *self = LOOM_SIDEBAR_ITEM (object);

  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (loom_sidebar_item_parent_class)->finalize (object);
}

static void
loom_sidebar_item_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  LoomSidebarItem *self = LOOM_SIDEBAR_ITEM (object);

  switch (prop_id)
    {
    case PROP_COLLECTION:
      g_value_set_uint (value, self->collection);
      break;

    case PROP_COUNT:
      g_value_set_uint (value, self->count);
      break;

    case PROP_FOLDER_ID:
      g_value_set_int64 (value, self->folder_id);
      break;

    case PROP_ICON_NAME:
      g_value_set_string (value, loom_sidebar_item_get_icon_name (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, loom_sidebar_item_get_title (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_sidebar_item_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  LoomSidebarItem *self = LOOM_SIDEBAR_ITEM (object);

  switch (prop_id)
    {
    case PROP_COLLECTION:
      self->collection = g_value_get_uint (value);
      break;

    case PROP_COUNT:
      loom_sidebar_item_set_count (self, g_value_get_uint (value));
      break;

    case PROP_FOLDER_ID:
      self->folder_id = g_value_get_int64 (value);
      break;

    case PROP_TITLE:
      loom_sidebar_item_set_title (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_sidebar_item_class_init (LoomSidebarItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = loom_sidebar_item_finalize;
  object_class->get_property = loom_sidebar_item_get_property;
  object_class->set_property = loom_sidebar_item_set_property;

  /* LoomCollection has no registered enum type in the core, so the property is a plain uint. */
  properties[PROP_COLLECTION] = g_param_spec_uint (
    "collection", NULL, NULL, 0, G_N_ELEMENTS (collection_info) - 1, LOOM_COLLECTION_ALL,
    G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_COUNT] = g_param_spec_uint ("count", NULL, NULL, 0, G_MAXUINT, 0,
                                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                G_PARAM_STATIC_STRINGS);

  /* 0 for a collection. */
  properties[PROP_FOLDER_ID] = g_param_spec_int64 ("folder-id", NULL, NULL, 0, G_MAXINT64, 0,
                                                   G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                     G_PARAM_STATIC_STRINGS);

  properties[PROP_ICON_NAME] = g_param_spec_string ("icon-name", NULL, NULL, NULL,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  /* A collection's title is fixed; a folder's is its name, and can be set. */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                  G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
loom_sidebar_item_init (LoomSidebarItem *self)
{
}

LoomSidebarItem *
loom_sidebar_item_new_for_collection (LoomCollection collection)
{
  g_return_val_if_fail (collection < G_N_ELEMENTS (collection_info), NULL);

  return g_object_new (LOOM_TYPE_SIDEBAR_ITEM, "collection", (guint)collection, NULL);
}

/* A folder is shown as All narrowed to the folder, so the window needs no special case for it. */
LoomSidebarItem *
loom_sidebar_item_new_for_folder (gint64      folder_id,
                                  const char *name)
{
  g_return_val_if_fail (folder_id > 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_object_new (LOOM_TYPE_SIDEBAR_ITEM, "collection", (guint)LOOM_COLLECTION_ALL,
                       "folder-id", folder_id, "title", name, NULL);
}

LoomCollection
loom_sidebar_item_get_collection (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), LOOM_COLLECTION_ALL);

  return self->collection;
}

gint64
loom_sidebar_item_get_folder_id (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), 0);

  return self->folder_id;
}

gboolean
loom_sidebar_item_is_folder (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), FALSE);

  return self->folder_id > 0;
}

const char *
loom_sidebar_item_get_title (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), NULL);

  if (self->folder_id > 0)
    return self->name;
  return _ (get_info (self)->title);
}

void
loom_sidebar_item_set_title (LoomSidebarItem *self,
                             const char      *title)
{
  g_return_if_fail (LOOM_IS_SIDEBAR_ITEM (self));

  /* A collection keeps its own title; only a folder's name is shown. */
  if (title == NULL || g_strcmp0 (self->name, title) == 0)
    return;

  g_free (self->name);
  self->name = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const char *
loom_sidebar_item_get_icon_name (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), NULL);

  return get_info (self)->icon_name;
}

const char *
loom_sidebar_item_get_empty_title (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), NULL);

  return _ (get_info (self)->empty_title);
}

const char *
loom_sidebar_item_get_empty_description (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), NULL);

  return _ (get_info (self)->empty_description);
}

guint
loom_sidebar_item_get_count (LoomSidebarItem *self)
{
  g_return_val_if_fail (LOOM_IS_SIDEBAR_ITEM (self), 0);

  return self->count;
}

void
loom_sidebar_item_set_count (LoomSidebarItem *self,
                             guint            count)
{
  g_return_if_fail (LOOM_IS_SIDEBAR_ITEM (self));

  if (self->count == count)
    return;

  self->count = count;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COUNT]);
}
