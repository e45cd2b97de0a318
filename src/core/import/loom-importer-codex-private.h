/* loom-importer-codex-private.h — what the Codex importer's files share: the per-file import
 * context, the per-file state it keeps between passes, and small tolerant JSON helpers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-importer.h"

G_BEGIN_DECLS

/* The per-file maps below only hold calls that wait for their result; a call that never gets
 * one must not make them grow without end. */
#define CODEX_MAX_PENDING 512

/* Per-file state members, kept between passes (loom_import_file_get_state). */
#define STATE_SESSION "session_id" /* the agent's session id this file belongs to */
#define STATE_MODEL   "model"      /* turn_context.model of the current turn */
#define STATE_MODELS  "models"     /* every turn_context.model, in order, once each */
#define STATE_CWD     "cwd"        /* turn_context.cwd, to resolve relative patch paths */
#define STATE_HAS_CWD "has_cwd"    /* the session's cwd is known (set once) */
#define STATE_MODE    "agent_mode" /* last agent_mode written, to avoid rewriting it per turn */
#define STATE_TIME    "time"       /* last record time: pre-envelope items have none */
#define STATE_CALLS   "calls"      /* call_id → tool name, until the result arrives */
#define STATE_FAILED  "failed"     /* call_id → TRUE/FALSE from exec_command_end & co. */
#define STATE_PATCHED "patched"    /* call_id → TRUE when its patch text gave file changes */
#define STATE_TOKENS  "tokens"     /* total_token_usage: each field's largest value */
#define STATE_ITEMS   "items"      /* TypeScript document: items already imported */

typedef struct
{
  LoomImportFile *file;
  JsonObject     *state;
  char           *name_id; /* the session id in the file name, if it has one */
  gint64          session; /* row id, 0 until known */
  gboolean        deleted; /* the person deleted the session for good */
  guint64         line;
  guint           index_in_line; /* several objects can share one physical line */
  char           *source_id;     /* "L12", "L12.1" or "I3": the current record's dedupe key */
  gint64          time;          /* the current record's time, or the last known one */
  gboolean        foreign;       /* not a Codex file after all: stop reading it */
  GError         *error;         /* a store failure: stop and roll the file back */
  LoomJsonDoc    *embedded;      /* JSON found inside a record's strings, NULL until needed */
} CodexImport;

static inline const char *
skip_blanks (const char *text)
{
  while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
    text++;
  return text;
}

static inline gboolean
is_empty (const char *text)
{
  return text == NULL || *text == '\0';
}

/* A member that is a boolean: 1 true, 0 false, -1 missing or of another type. */
static inline int
member_bool (const LoomJson *object,
             const char     *member)
{
  const LoomJson *value = loom_json_member (object, member);

  if (loom_json_type (value) != LOOM_JSON_BOOLEAN)
    return -1;
  return loom_json_true (value) ? 1 : 0;
}

/* The same for a map of the per-file state. */
static inline int
get_bool (JsonObject *object,
          const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return -1;
  return json_node_get_boolean (node) ? 1 : 0;
}

static inline gboolean
has_int (const LoomJson *object,
         const char     *member)
{
  return loom_json_member_int (object, member, G_MININT64) != G_MININT64;
}

/* loom-importer-codex.c */
gboolean loom_codex_session_ready (CodexImport *ci);
void     loom_codex_add_event (CodexImport    *ci,
                               LoomEventDraft *event);
char    *loom_codex_content_text (const LoomJson *content,
                                  gboolean       *injected,
                                  gboolean       *command);
void     loom_codex_state_set_string (CodexImport *ci,
                                      const char  *map,
                                      const char  *key,
                                      const char  *value);
void     loom_codex_state_set_bool (CodexImport *ci,
                                    const char  *map,
                                    const char  *key,
                                    gboolean     value);
void     loom_codex_state_remove (CodexImport *ci,
                                  const char  *map,
                                  const char  *key);

/* loom-importer-codex-tools.c */
void loom_codex_tool_call (CodexImport    *ci,
                           const LoomJson *payload,
                           const char     *type);
void loom_codex_tool_output (CodexImport    *ci,
                             const LoomJson *payload);
void loom_codex_exec_command_end (CodexImport    *ci,
                                  const LoomJson *payload);
void loom_codex_mcp_tool_call_end (CodexImport    *ci,
                                   const LoomJson *payload);
void loom_codex_patch_apply_end (CodexImport    *ci,
                                 const LoomJson *payload);

G_END_DECLS
