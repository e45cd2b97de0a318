/* loom-delete-plan.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-delete-plan.h"
#include "loom-session.h"

struct _LoomDeletePlan
{
  GObject     parent_instance;
  GPtrArray  *sessions; /* LoomSession */
  GPtrArray  *tables;   /* table names, in the order first seen */
  GHashTable *rows;     /* table name → GArray of gint64 */
};

G_DEFINE_FINAL_TYPE (LoomDeletePlan, loom_delete_plan, G_TYPE_OBJECT)

static void
loom_delete_plan_finalize (GObject *object)
{
  LoomDeletePlan *self = (LoomDeletePlan *)object;

  g_clear_pointer (&self->sessions, g_ptr_array_unref);
  g_clear_pointer (&self->tables, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_hash_table_unref);

  G_OBJECT_CLASS (loom_delete_plan_parent_class)->finalize (object);
}

static void
loom_delete_plan_class_init (LoomDeletePlanClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = loom_delete_plan_finalize;
}

static void
loom_delete_plan_init (LoomDeletePlan *self)
{
  self->sessions = g_ptr_array_new_with_free_func (g_object_unref);
  self->tables = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->tables, NULL);
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_array_unref);
}

LoomDeletePlan *
loom_delete_plan_new (void)
{
  return g_object_new (LOOM_TYPE_DELETE_PLAN, NULL);
}

void
loom_delete_plan_add_session (LoomDeletePlan *self,
                              LoomSession    *session)
{
  g_return_if_fail (LOOM_IS_DELETE_PLAN (self));
  g_return_if_fail (LOOM_IS_SESSION (session));

  g_ptr_array_add (self->sessions, g_object_ref (session));
}

static GArray *
ensure_table (LoomDeletePlan *self,
              const char     *table)
{
  GArray *rows = g_hash_table_lookup (self->rows, table);

  if (rows == NULL)
    {
      char *name = g_strdup (table);

      /* Keep the list NULL-terminated for loom_delete_plan_get_tables(). */
      g_ptr_array_index (self->tables, self->tables->len - 1) = name;
      g_ptr_array_add (self->tables, NULL);
      rows = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (self->rows, name, rows);
    }
  return rows;
}

void
loom_delete_plan_add_table (LoomDeletePlan *self,
                            const char     *table)
{
  g_return_if_fail (LOOM_IS_DELETE_PLAN (self));
  g_return_if_fail (table != NULL);

  ensure_table (self, table);
}

void
loom_delete_plan_add_row (LoomDeletePlan *self,
                          const char     *table,
                          gint64          rowid)
{
  g_return_if_fail (LOOM_IS_DELETE_PLAN (self));
  g_return_if_fail (table != NULL);

  g_array_append_val (ensure_table (self, table), rowid);
}

guint
loom_delete_plan_get_n_sessions (LoomDeletePlan *self)
{
  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (self), 0);
  return self->sessions->len;
}

LoomSession *
loom_delete_plan_get_session (LoomDeletePlan *self,
                              guint           position)
{
  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (self), NULL);
  g_return_val_if_fail (position < self->sessions->len, NULL);
  return g_ptr_array_index (self->sessions, position);
}

const char *const *
loom_delete_plan_get_tables (LoomDeletePlan *self)
{
  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (self), NULL);
  return (const char *const *)self->tables->pdata;
}

const gint64 *
loom_delete_plan_get_rows (LoomDeletePlan *self,
                           const char     *table,
                           gsize          *n_rows)
{
  GArray *rows;

  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (self), NULL);
  g_return_val_if_fail (table != NULL, NULL);

  rows = g_hash_table_lookup (self->rows, table);
  if (n_rows != NULL)
    *n_rows = rows ? rows->len : 0;
  return rows ? (const gint64 *)(gpointer)rows->data : NULL;
}

gsize
loom_delete_plan_count (LoomDeletePlan *self,
                        const char     *table)
{
  gsize n = 0;

  loom_delete_plan_get_rows (self, table, &n);
  return n;
}

JsonNode *
loom_delete_plan_to_json (LoomDeletePlan *self)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (self), NULL);

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "sessions");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->sessions->len; i++)
    {
      LoomSession *session = g_ptr_array_index (self->sessions, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, loom_session_get_uuid (session));
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, loom_session_get_title (session));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "rows");
  json_builder_begin_object (builder);
  for (guint i = 0; i + 1 < self->tables->len; i++)
    {
      const char *table = g_ptr_array_index (self->tables, i);
      GArray     *rows = g_hash_table_lookup (self->rows, table);

      json_builder_set_member_name (builder, table);
      json_builder_begin_array (builder);
      for (guint j = 0; j < rows->len; j++)
        json_builder_add_int_value (builder, g_array_index (rows, gint64, j));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}
