/* loom-folder.h — a folder (category) that sessions are filed in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_TYPE_FOLDER (loom_folder_get_type ())

G_DECLARE_FINAL_TYPE (LoomFolder, loom_folder, LOOM, FOLDER, GObject)

LoomFolder *loom_folder_new (gint64      id,
                             const char *name,
                             gint64      position,
                             gint64      n_sessions,
                             gint64      created_at);
gint64      loom_folder_get_id (LoomFolder *self);
const char *loom_folder_get_name (LoomFolder *self);
gint64      loom_folder_get_position (LoomFolder *self);
gint64      loom_folder_get_n_sessions (LoomFolder *self);
gint64      loom_folder_get_created_at (LoomFolder *self);
JsonNode   *loom_folder_to_json (LoomFolder *self);

G_END_DECLS
