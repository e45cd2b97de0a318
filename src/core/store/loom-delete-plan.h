/* loom-delete-plan.h — exactly what a permanent deletion removes, row by row.
 *
 * The dry-run of `sessions delete` prints it, the UI shows it in the confirmation dialog, and
 * executing a plan removes those rows and nothing else.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "loom-types.h"

G_BEGIN_DECLS

#define LOOM_TYPE_DELETE_PLAN (loom_delete_plan_get_type ())

G_DECLARE_FINAL_TYPE (LoomDeletePlan, loom_delete_plan, LOOM, DELETE_PLAN, GObject)

LoomDeletePlan    *loom_delete_plan_new (void);
void               loom_delete_plan_add_session (LoomDeletePlan *self,
                                                 LoomSession    *session);
/* Declares a table so that it is reported even when no row of it goes. */
void               loom_delete_plan_add_table (LoomDeletePlan *self,
                                               const char     *table);
void               loom_delete_plan_add_row (LoomDeletePlan *self,
                                             const char     *table,
                                             gint64          rowid);
guint              loom_delete_plan_get_n_sessions (LoomDeletePlan *self);
LoomSession       *loom_delete_plan_get_session (LoomDeletePlan *self,
                                                 guint           position);
/* The tables the plan touches, in the order they are reported. */
const char *const *loom_delete_plan_get_tables (LoomDeletePlan *self);
const gint64      *loom_delete_plan_get_rows (LoomDeletePlan *self,
                                              const char     *table,
                                              gsize          *n_rows);
gsize              loom_delete_plan_count (LoomDeletePlan *self,
                                           const char     *table);
JsonNode          *loom_delete_plan_to_json (LoomDeletePlan *self);

G_END_DECLS
