/* loom-types.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-types.h"

static const char *const collection_names[] = {
  [LOOM_COLLECTION_ALL] = "all",
  [LOOM_COLLECTION_RECENT] = "recent",
  [LOOM_COLLECTION_PINNED] = "pinned",
  [LOOM_COLLECTION_ACTIVE] = "active",
  [LOOM_COLLECTION_ARCHIVED] = "archived",
  [LOOM_COLLECTION_TRASH] = "trash",
  [LOOM_COLLECTION_EVERYTHING] = "everything",
};

static const char *const sort_names[] = {
  [LOOM_SORT_UPDATED] = "updated",
  [LOOM_SORT_CREATED] = "created",
  [LOOM_SORT_TITLE] = "title",
};

const char *
loom_collection_to_string (LoomCollection collection)
{
  g_return_val_if_fail (collection < G_N_ELEMENTS (collection_names), NULL);
  return collection_names[collection];
}

gboolean
loom_collection_from_string (const char     *name,
                             LoomCollection *collection)
{
  g_return_val_if_fail (collection != NULL, FALSE);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (collection_names); i++)
    {
      if (g_ascii_strcasecmp (name, collection_names[i]) == 0)
        {
          *collection = (LoomCollection)i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
loom_sort_to_string (LoomSort sort)
{
  g_return_val_if_fail (sort < G_N_ELEMENTS (sort_names), NULL);
  return sort_names[sort];
}

gboolean
loom_sort_from_string (const char *name,
                       LoomSort   *sort)
{
  g_return_val_if_fail (sort != NULL, FALSE);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (sort_names); i++)
    {
      if (g_ascii_strcasecmp (name, sort_names[i]) == 0)
        {
          *sort = (LoomSort)i;
          return TRUE;
        }
    }
  return FALSE;
}
