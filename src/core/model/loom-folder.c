/* loom-folder.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-folder.h"
#include "loom-time.h"

struct _LoomFolder
{
  GObject parent_instance;
  gint64  id;
  char   *name;
  gint64  position;
  gint64  n_sessions;
  gint64  created_at;
};

G_DEFINE_FINAL_TYPE (LoomFolder, loom_folder, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_POSITION,
  PROP_N_SESSIONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
loom_folder_finalize (GObject *object)
{
  LoomFolder *self = (LoomFolder *)object;

  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (loom_folder_parent_class)->finalize (object);
}

static void
loom_folder_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  LoomFolder *self = LOOM_FOLDER (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_int64 (value, self->id);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_POSITION:
      g_value_set_int64 (value, self->position);
      break;

    case PROP_N_SESSIONS:
      g_value_set_int64 (value, self->n_sessions);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_folder_class_init (LoomFolderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags   flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = loom_folder_finalize;
  object_class->get_property = loom_folder_get_property;

  properties[PROP_ID] = g_param_spec_int64 ("id", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_POSITION] = g_param_spec_int64 ("position", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                                                  flags);
  properties[PROP_N_SESSIONS] = g_param_spec_int64 ("n-sessions", NULL, NULL, 0, G_MAXINT64, 0,
                                                    flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
loom_folder_init (LoomFolder *self)
{
}

LoomFolder *
loom_folder_new (gint64      id,
                 const char *name,
                 gint64      position,
                 gint64      n_sessions,
                 gint64      created_at)
{
  LoomFolder *self;

  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (LOOM_TYPE_FOLDER, NULL);
  self->id = id;
  self->name = g_strdup (name);
  self->position = position;
  self->n_sessions = n_sessions;
  self->created_at = created_at;
  return self;
}

gint64
loom_folder_get_id (LoomFolder *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER (self), 0);
  return self->id;
}

const char *
loom_folder_get_name (LoomFolder *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER (self), NULL);
  return self->name;
}

gint64
loom_folder_get_position (LoomFolder *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER (self), 0);
  return self->position;
}

gint64
loom_folder_get_n_sessions (LoomFolder *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER (self), 0);
  return self->n_sessions;
}

gint64
loom_folder_get_created_at (LoomFolder *self)
{
  g_return_val_if_fail (LOOM_IS_FOLDER (self), 0);
  return self->created_at;
}

JsonNode *
loom_folder_to_json (LoomFolder *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autofree char *created = NULL;

  g_return_val_if_fail (LOOM_IS_FOLDER (self), NULL);

  created = loom_time_to_iso (self->created_at);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, self->id);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, self->name);
  json_builder_set_member_name (builder, "position");
  json_builder_add_int_value (builder, self->position);
  json_builder_set_member_name (builder, "sessions");
  json_builder_add_int_value (builder, self->n_sessions);
  json_builder_set_member_name (builder, "created_at");
  if (created != NULL)
    json_builder_add_string_value (builder, created);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
