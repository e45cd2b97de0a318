/* loom-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-session.h"
#include "loom-time.h"

struct _LoomSession
{
  GObject            parent_instance;
  LoomSessionRecord *record;
};

G_DEFINE_FINAL_TYPE (LoomSession, loom_session, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_UUID,
  PROP_TITLE,
  PROP_SOURCE,
  PROP_PROJECT_NAME,
  PROP_CREATED_AT,
  PROP_UPDATED_AT,
  PROP_MESSAGE_COUNT,
  PROP_FOLDER_ID,
  PROP_FOLDER_NAME,
  PROP_PINNED,
  PROP_ARCHIVED,
  PROP_TRASHED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
loom_session_finalize (GObject *object)
{
  LoomSession *self = (LoomSession *)object;

  g_clear_pointer (&self->record, loom_session_record_free);

  G_OBJECT_CLASS (loom_session_parent_class)->finalize (object);
}

static void
loom_session_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  LoomSession             *self = LOOM_SESSION (object);
  const LoomSessionRecord *r = self->record;

  switch (prop_id)
    {
    case PROP_UUID:
      g_value_set_string (value, r->uuid);
      break;
    case PROP_TITLE:
      g_value_set_string (value, r->title);
      break;
    case PROP_SOURCE:
      g_value_set_string (value, r->source);
      break;
    case PROP_PROJECT_NAME:
      g_value_set_string (value, r->project_name);
      break;
    case PROP_CREATED_AT:
      g_value_set_int64 (value, r->created_at);
      break;
    case PROP_UPDATED_AT:
      g_value_set_int64 (value, r->updated_at);
      break;
    case PROP_MESSAGE_COUNT:
      g_value_set_int64 (value, r->message_count);
      break;
    case PROP_FOLDER_ID:
      g_value_set_int64 (value, r->folder_id);
      break;
    case PROP_FOLDER_NAME:
      g_value_set_string (value, r->folder_name);
      break;
    case PROP_PINNED:
      g_value_set_boolean (value, r->pinned);
      break;
    case PROP_ARCHIVED:
      g_value_set_boolean (value, r->archived);
      break;
    case PROP_TRASHED:
      g_value_set_boolean (value, r->trashed_at != 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_class_init (LoomSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags   flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = loom_session_finalize;
  object_class->get_property = loom_session_get_property;

  properties[PROP_UUID] = g_param_spec_string ("uuid", NULL, NULL, NULL, flags);
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  properties[PROP_SOURCE] = g_param_spec_string ("source", NULL, NULL, NULL, flags);
  properties[PROP_PROJECT_NAME] = g_param_spec_string ("project-name", NULL, NULL, NULL, flags);
  properties[PROP_CREATED_AT] = g_param_spec_int64 ("created-at", NULL, NULL, 0, G_MAXINT64, 0,
                                                    flags);
  properties[PROP_UPDATED_AT] = g_param_spec_int64 ("updated-at", NULL, NULL, 0, G_MAXINT64, 0,
                                                    flags);
  properties[PROP_MESSAGE_COUNT] = g_param_spec_int64 ("message-count", NULL, NULL, 0, G_MAXINT64,
                                                       0, flags);
  properties[PROP_FOLDER_ID] = g_param_spec_int64 ("folder-id", NULL, NULL, 0, G_MAXINT64, 0,
                                                   flags);
  properties[PROP_FOLDER_NAME] = g_param_spec_string ("folder-name", NULL, NULL, NULL, flags);
  properties[PROP_PINNED] = g_param_spec_boolean ("pinned", NULL, NULL, FALSE, flags);
  properties[PROP_ARCHIVED] = g_param_spec_boolean ("archived", NULL, NULL, FALSE, flags);
  properties[PROP_TRASHED] = g_param_spec_boolean ("trashed", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
loom_session_init (LoomSession *self)
{
}

LoomSession *
loom_session_new (const LoomSessionRecord *record)
{
  LoomSession *self;

  g_return_val_if_fail (record != NULL, NULL);

  self = g_object_new (LOOM_TYPE_SESSION, NULL);
  self->record = loom_session_record_copy (record);
  return self;
}

const LoomSessionRecord *
loom_session_get_record (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record;
}

/* Replaces the data after the store changed the row, and notifies only what changed, so that
 * list rows bound to a property redraw just where needed. */
void
loom_session_update (LoomSession             *self,
                     const LoomSessionRecord *record)
{
  g_autoptr (LoomSessionRecord) old = NULL;

  g_return_if_fail (LOOM_IS_SESSION (self));
  g_return_if_fail (record != NULL);

  old = g_steal_pointer (&self->record);
  self->record = loom_session_record_copy (record);

  g_object_freeze_notify (G_OBJECT (self));
#define NOTIFY_IF_STR(field, prop) \
  if (g_strcmp0 (old->field, record->field) != 0) \
    g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
#define NOTIFY_IF(expr_old, expr_new, prop) \
  if ((expr_old) != (expr_new)) \
    g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  NOTIFY_IF_STR (uuid, PROP_UUID)
  NOTIFY_IF_STR (title, PROP_TITLE)
  NOTIFY_IF_STR (source, PROP_SOURCE)
  NOTIFY_IF_STR (project_name, PROP_PROJECT_NAME)
  NOTIFY_IF_STR (folder_name, PROP_FOLDER_NAME)
  NOTIFY_IF (old->created_at, record->created_at, PROP_CREATED_AT)
  NOTIFY_IF (old->updated_at, record->updated_at, PROP_UPDATED_AT)
  NOTIFY_IF (old->message_count, record->message_count, PROP_MESSAGE_COUNT)
  NOTIFY_IF (old->folder_id, record->folder_id, PROP_FOLDER_ID)
  NOTIFY_IF (!!old->pinned, !!record->pinned, PROP_PINNED)
  NOTIFY_IF (!!old->archived, !!record->archived, PROP_ARCHIVED)
  NOTIFY_IF (old->trashed_at != 0, record->trashed_at != 0, PROP_TRASHED)
#undef NOTIFY_IF
#undef NOTIFY_IF_STR
  g_object_thaw_notify (G_OBJECT (self));
}

gint64
loom_session_get_id (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), 0);
  return self->record->id;
}
const char *
loom_session_get_uuid (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->uuid;
}
const char *
loom_session_get_title (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->title;
}
const char *
loom_session_get_source (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->source;
}
const char *
loom_session_get_project_name (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->project_name;
}
const char *
loom_session_get_cwd (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->cwd;
}
const char *
loom_session_get_model (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->model;
}
gint64
loom_session_get_created_at (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), 0);
  return self->record->created_at;
}
gint64
loom_session_get_updated_at (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), 0);
  return self->record->updated_at;
}
gint64
loom_session_get_message_count (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), 0);
  return self->record->message_count;
}
gint64
loom_session_get_folder_id (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), 0);
  return self->record->folder_id;
}
const char *
loom_session_get_folder_name (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->folder_name;
}
gboolean
loom_session_get_pinned (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), FALSE);
  return self->record->pinned;
}
gboolean
loom_session_get_archived (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), FALSE);
  return self->record->archived;
}
gboolean
loom_session_get_trashed (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), FALSE);
  return self->record->trashed_at != 0;
}

const char *
loom_session_get_backup_path (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), NULL);
  return self->record->backup_path;
}

gint64
loom_session_get_backup_at (LoomSession *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION (self), 0);
  return self->record->backup_at;
}
