/* loom-session-record.h — the plain data of one session, as stored.
 *
 * Importers fill one of these and hand it to the store; the store reads rows back into them and
 * LoomSession wraps one for the CLI and the UI. Times are Unix milliseconds (UTC), 0 = unknown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64 id;   /* store row id, 0 until stored */
  char  *uuid; /* our stable id, shown to people and scripts */
  char  *title;

  char    *source; /* "claude-code", "codex", "gemini", … */
  char    *source_path;
  char    *source_session_id;
  gboolean source_missing; /* the agent deleted its file; our copy stays */

  char *project_path;
  char *project_name;
  char *cwd;
  char *git_branch;
  char *git_commit;
  char *agent_version;
  char *agent_mode;        /* model tier, e.g. "opus", "high" */
  char *selected_agent_id; /* which agent ran the session */
  char *model;             /* the main model */
  char *models_json;       /* JSON array of every model seen */

  gint64 created_at;
  gint64 updated_at;
  gint64 last_opened_at;
  gint64 archived_at;
  gint64 trashed_at;

  gint64 message_count;
  gint64 event_count;

  gint64   folder_id; /* 0 = no folder */
  char    *folder_name;
  gboolean pinned;
  gboolean archived;

  char *session_type; /* "main", "subagent", "fork" */
  char *fork_source_uuid;
  char *parent_uuid;
  char *task_objective;
  char *task_status;
  char *tools_used_json; /* JSON object: tool name → number of calls */

  gint64 tokens_input;
  gint64 tokens_output;
  gint64 tokens_cache_read;
  gint64 tokens_cache_creation;
  gint64 tokens_reasoning; /* the part of output spent reasoning; -1: not reported */

  gint64 n_user_messages;
  gint64 n_assistant_messages;
  gint64 n_tool_calls;
  gint64 n_tool_results;
  gint64 n_tool_errors;
  gint64 n_reasoning;

  /* The latest backup an archive sweep wrote (loom-sweep.h): a package folder or a
   * .loombackup file, and when; NULL and 0 when there is none. Read from the store only. */
  char  *backup_path;
  gint64 backup_at;
} LoomSessionRecord;

LoomSessionRecord *loom_session_record_new (void);
LoomSessionRecord *loom_session_record_copy (const LoomSessionRecord *record);
void               loom_session_record_free (LoomSessionRecord *record);
void               loom_session_record_clear (LoomSessionRecord *record);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSessionRecord, loom_session_record_free)

G_END_DECLS
