/* loom-session.h — one imported agent session, as the CLI and the UI see it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "loom-session-record.h"
#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SESSION (loom_session_get_type ())

G_DECLARE_FINAL_TYPE (LoomSession, loom_session, LOOM, SESSION, GObject)

LoomSession             *loom_session_new (const LoomSessionRecord *record);
const LoomSessionRecord *loom_session_get_record (LoomSession *self);
void                     loom_session_update (LoomSession             *self,
                                              const LoomSessionRecord *record);

gint64      loom_session_get_id (LoomSession *self);
const char *loom_session_get_uuid (LoomSession *self);
const char *loom_session_get_title (LoomSession *self);
const char *loom_session_get_source (LoomSession *self);
const char *loom_session_get_project_name (LoomSession *self);
const char *loom_session_get_cwd (LoomSession *self);
const char *loom_session_get_model (LoomSession *self);
gint64      loom_session_get_created_at (LoomSession *self);
gint64      loom_session_get_updated_at (LoomSession *self);
gint64      loom_session_get_message_count (LoomSession *self);
gint64      loom_session_get_folder_id (LoomSession *self);
const char *loom_session_get_folder_name (LoomSession *self);
gboolean    loom_session_get_pinned (LoomSession *self);
gboolean    loom_session_get_archived (LoomSession *self);
gboolean    loom_session_get_trashed (LoomSession *self);
/* The latest backup an archive sweep wrote of the session, or NULL; its time (Unix ms), or 0. */
const char *loom_session_get_backup_path (LoomSession *self);
gint64      loom_session_get_backup_at (LoomSession *self);

/* The stable JSON form documented in the README (`loom sessions list --json`). */
JsonNode *loom_session_to_json (LoomSession *self);

G_END_DECLS
