/* loom-session-record.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-session-record.h"

/* Every string member, so that copy and clear cannot forget one. */
/* clang-format off */
#define LOOM_SESSION_RECORD_STRINGS(X) \
  X (uuid) X (title) X (source) X (source_path) X (source_session_id) X (project_path) \
  X (project_name) X (cwd) X (git_branch) X (git_commit) X (agent_version) X (agent_mode) \
  X (selected_agent_id) X (model) X (models_json) X (folder_name) X (session_type) \
  X (fork_source_uuid) X (parent_uuid) X (task_objective) X (task_status) X (tools_used_json) \
  X (backup_path)
/* clang-format on */

LoomSessionRecord *
loom_session_record_new (void)
{
  LoomSessionRecord *record = g_new0 (LoomSessionRecord, 1);

  record->tokens_reasoning = -1;
  return record;
}

LoomSessionRecord *
loom_session_record_copy (const LoomSessionRecord *record)
{
  LoomSessionRecord *copy;

  g_return_val_if_fail (record != NULL, NULL);

  copy = g_memdup2 (record, sizeof *record);
#define COPY_STRING(field) copy->field = g_strdup (record->field);
  LOOM_SESSION_RECORD_STRINGS (COPY_STRING)
#undef COPY_STRING
  return copy;
}

void
loom_session_record_clear (LoomSessionRecord *record)
{
  g_return_if_fail (record != NULL);

#define CLEAR_STRING(field) g_clear_pointer (&record->field, g_free);
  LOOM_SESSION_RECORD_STRINGS (CLEAR_STRING)
#undef CLEAR_STRING
  memset (record, 0, sizeof *record);
}

void
loom_session_record_free (LoomSessionRecord *record)
{
  if (record == NULL)
    return;
  loom_session_record_clear (record);
  g_free (record);
}
