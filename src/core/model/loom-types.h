/* loom-types.h — forward declarations and enums shared by the core, the CLI and the app.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct _LoomDeletePlan LoomDeletePlan;
typedef struct _LoomFolder     LoomFolder;
typedef struct _LoomSession    LoomSession;
typedef struct _LoomStore      LoomStore;

/* The sidebar's collections. Every session is in All unless it is archived or trashed. */
typedef enum
{
  LOOM_COLLECTION_ALL,
  LOOM_COLLECTION_RECENT, /* updated in the last 7 days */
  LOOM_COLLECTION_PINNED,
  LOOM_COLLECTION_ACTIVE, /* updated in the last 24 hours */
  LOOM_COLLECTION_ARCHIVED,
  LOOM_COLLECTION_TRASH,
  LOOM_COLLECTION_EVERYTHING, /* archived and trashed too: `sessions list --all` */
} LoomCollection;

typedef enum
{
  LOOM_SORT_UPDATED,
  LOOM_SORT_CREATED,
  LOOM_SORT_TITLE,
} LoomSort;

const char *loom_collection_to_string (LoomCollection collection);
gboolean    loom_collection_from_string (const char     *name,
                                         LoomCollection *collection);
const char *loom_sort_to_string (LoomSort sort);
gboolean    loom_sort_from_string (const char *name,
                                   LoomSort   *sort);

G_END_DECLS
