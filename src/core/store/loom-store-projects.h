/* loom-store-projects.h — the projects that sessions belong to, for filtering by project.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"

G_BEGIN_DECLS

typedef struct
{
  char *name;       /* what people call it: the folder's name */
  char *path;       /* unique; two projects may share a name */
  guint n_sessions; /* sessions not in the trash */
} LoomProjectSummary;

void loom_project_summary_free (LoomProjectSummary *summary);

/* The projects that have sessions outside the trash, most sessions first (then by name), as
 * a GPtrArray of LoomProjectSummary. */
GPtrArray *loom_store_list_projects (LoomStore *self,
                                     GError   **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomProjectSummary, loom_project_summary_free)

G_END_DECLS
