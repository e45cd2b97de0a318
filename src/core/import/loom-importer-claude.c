/* loom-importer-claude.c — Claude Code: ~/.claude/projects/<project-dir>/<sessionId>.jsonl
 *
 * The field-level facts come from shared/FORMATS.md, section 1; the comments cite it as "F1.x".
 *
 * What becomes what:
 * - A main file is one session, keyed by the sessionId its records carry (F1.1): the id that
 *   `claude --resume <id>` takes, which opens <project-dir>/<id>.jsonl. Claude Code names the
 *   file after it, but a copied, exported or renamed transcript keeps it only in its records,
 *   so the file's name is only the last resort (no record has one). The file's path stays in
 *   source_path.
 * - One file can carry records of two sessionIds, and is still one transcript whose records
 *   stay together. Its session's id is
 *     1. the file's own name, when a record carries it: Claude Code writes a session to the
 *        file named after it. A conversation resumed by 1.0.x went on in a new file, the
 *        earlier session's records copied in first with their earlier id, the new one's after
 *        (fixture ids/claude-resumed); a plan-mode hand-off goes on in the same file
 *        under the successor's id (fixture two-session-ids, F1.5). Either way the other id is
 *        another session, whose own file has its name — taking the first record's would merge
 *        a resumed file into the session it was resumed from;
 *     2. else (the file renamed, copied or exported under a name none of its records has) the
 *        first record's: the session the transcript began as;
 *     3. else (no record has one yet) the file's name, which the next pass corrects.
 *   Earlier versions keyed every main file by its name: a session made so is re-keyed, not
 *   made again (loom_import_file_rekey ()).
 * - Sub-agents become child sessions ("subagent", parent = the main session's id), keyed
 *   "<sessionId>/agent-<agentId>" for agent files (2.0.x beside the session, newer builds in
 *   <sessionId>/subagents/) and for progress mirrors, "<sessionId>/sidechain-<root uuid>" for the
 *   inline sidechains of 1.0.x (one per chain that starts with parentUuid null). An agent
 *   file's own id is the agentId of its records (else its name, agent-<agentId>.jsonl) and its
 *   parent the sessionId they carry, the main session's (else the folder it is in). Claude
 *   Code resumes no sub-agent by itself: the parent's id is the one to resume.
 * - 2.1.x mirrors every sub-agent record inside the main file as progress/agent_progress
 *   (F1.4, F1.5). When the sub-agent's own file exists, the mirror is skipped: the file is the
 *   complete copy and counting both would double every tool call and token. When it does not
 *   (the builds that only mirrored), the child is built from the mirrored records instead.
 * - One message per assistant API message: the records of a streamed message share message.id
 *   (F1.3); the framework appends their text and keeps each usage count's largest value, the
 *   final one (a record's placeholder or partial usage does not lower it).
 * - User records that only carry tool_result blocks are tool results, not prompts; text typed
 *   while a tool ran, sent beside its result, is a prompt. isMeta, compaction summaries,
 *   slash-command XML and harness notices (hooks' words beside results too) are kept, flagged.
 * - Bookkeeping records (file-history-*, queue-operation, pr-link, last-prompt, titles, modes,
 *   attachments, progress) become lifecycle events; unknown types become raw events.
 *
 * Per-file state (kept between passes by the framework, so an appended file continues where the
 * last pass stopped): see the STATE_* keys below.
 *
 * Finding the files and recognising one as Claude's: loom-importer-claude-discovery.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-importer-claude-private.h"
#include "loom-time.h"

/* Whether the main session exists yet: files whose only records are summaries (1.0.x wrote the
 * titles of other sessions into files of their own) do not make a session. */
#define STATE_STARTED       "started"
/* Summary records seen before the session existed: {text, payload} objects. */
#define STATE_HELD          "held"
/* leafUuid → summary text, for summaries whose leaf had not been seen yet. */
#define STATE_SUMMARIES     "summaries"
/* The last record uuid of the main chain: a summary appended later may point at it. */
#define STATE_LAST_UUID     "last_uuid"
/* Titles by origin; the best one wins (custom > agent name > AI > summary). */
#define STATE_TITLE_CUSTOM  "title_custom"
#define STATE_TITLE_AGENT   "title_agent"
#define STATE_TITLE_AI      "title_ai"
#define STATE_TITLE_SUMMARY "title_summary"
/* For main files: the session's id, chosen by the rules above when the file is first read. */
#define STATE_SESSION_ID    "session_id"
/* For agent files: the parent's session id and the agent id, fixed by the first record. */
#define STATE_PARENT        "parent"
#define STATE_AGENT_ID      "agent_id"
/* Inline sidechain record uuid → the uuid of its chain's first record (1.0.x). */
#define STATE_SIDECHAINS    "sidechains"
/* tool_use id → tool name, for calls whose result has not arrived yet. */
#define STATE_OPEN_CALLS    "open_calls"

typedef struct
{
  char    *sid;        /* source_session_id */
  char    *parent_sid; /* NULL for the file's main session */
  gint64   row;        /* 0 until asked for this pass; -1: the person deleted it for good */
  gboolean own;        /* the file's own session (titles apply to it) */
  gboolean subagent;   /* a child session, even when its parent is not known */

  /* The latest values the records of this pass showed (F1.1: they can change mid-session). */
  char  *cwd;
  char  *git_branch;
  char  *version;
  char  *mode;
  gint64 first_time; /* of its records, Unix ms: a streamed message's later records */
  gint64 last_time;  /* leave no row of their own, yet they are activity */
} Session;

typedef struct
{
  LoomImportFile *file;
  JsonObject     *state;
  GError         *error; /* the first store failure; it stops the file */
  gint64          time;  /* the timestamp of the record being handled, Unix ms */

  char       *project_dir; /* where sibling agent files live */
  char       *file_stem;   /* a main file's name without .jsonl: its subagents/ folder's */
  char       *root_sid;    /* the main session's id (for an agent file: its parent's) */
  gboolean    agent_file;
  Session    *own;      /* NULL for an agent file until its first record */
  GHashTable *children; /* sid → Session: sidechains and mirrored agents */

  GHashTable *uuids; /* main-chain uuids of this pass, to place summaries */
  char       *last_uuid;
  GHashTable *agent_files; /* agentId → whether its own file exists (cached per pass) */
  GHashTable *mirrored;    /* uuids of mirrored sub-agent records handled this pass */
} Import;

static void dispatch_record (Import         *imp,
                             Session        *session,
                             const LoomJson *record);

/* ——— Small helpers ——— */

static Session *
session_new (const char *sid,
             const char *parent_sid,
             gboolean    own)
{
  Session *s = g_new0 (Session, 1);

  s->sid = g_strdup (sid);
  s->parent_sid = g_strdup (parent_sid);
  s->own = own;
  s->subagent = parent_sid != NULL;
  return s;
}

static void
session_free (gpointer data)
{
  Session *s = data;

  g_free (s->sid);
  g_free (s->parent_sid);
  g_free (s->cwd);
  g_free (s->git_branch);
  g_free (s->version);
  g_free (s->mode);
  g_free (s);
}

static void
replace_string (char      **slot,
                const char *value)
{
  if (value == NULL || *value == '\0' || g_strcmp0 (*slot, value) == 0)
    return;
  g_free (*slot);
  *slot = g_strdup (value);
}

static gboolean
str_equal0 (const char *a,
            const char *b)
{
  return a != NULL && b != NULL && strcmp (a, b) == 0;
}

static const char *
or_empty (const char *text)
{
  return text != NULL ? text : "";
}

static gint64
record_time (const LoomJson *record)
{
  return loom_time_from_iso (loom_json_member_string (record, "timestamp"));
}

static gboolean
get_bool (const LoomJson *object,
          const char     *member)
{
  return loom_json_member_int (object, member, 0) != 0;
}

/* The first line of @text, marked as going on when more follows: event texts are one line. */
static char *
one_line (const char *text)
{
  const char *start, *end, *rest;

  if (text == NULL)
    return NULL;
  for (start = text; *start != '\0' && g_ascii_isspace (*start); start++)
    ;
  end = strchr (start, '\n');
  if (end == NULL)
    return g_strchomp (g_strdup (start));
  for (rest = end; *rest != '\0' && g_ascii_isspace (*rest); rest++)
    ;
  if (*rest == '\0')
    return g_strchomp (g_strndup (start, (gsize)(end - start)));
  return g_strdup_printf ("%.*s …", (int)(end - start), start);
}

/* ——— State ——— */

static JsonObject *
state_object (Import     *imp,
              const char *name)
{
  JsonObject *object = loom_json_get_object (imp->state, name);

  if (object == NULL)
    {
      json_object_set_object_member (imp->state, name, json_object_new ());
      object = loom_json_get_object (imp->state, name);
    }
  return object;
}

static const char *
state_string (Import     *imp,
              const char *name)
{
  return loom_json_get_string (imp->state, name);
}

static gboolean
state_bool (Import     *imp,
            const char *name)
{
  return loom_json_get_int (imp->state, name, 0) != 0;
}

static void
state_set_string (Import     *imp,
                  const char *name,
                  const char *value)
{
  if (value != NULL)
    json_object_set_string_member (imp->state, name, value);
}

/* The agent's own title, best first (F1.4: custom-title is the person's /rename). */
static const char *
state_title (Import *imp)
{
  static const char *const order[] = {
    STATE_TITLE_CUSTOM,
    STATE_TITLE_AGENT,
    STATE_TITLE_AI,
    STATE_TITLE_SUMMARY,
  };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      const char *title = state_string (imp, order[i]);

      if (title != NULL && *title != '\0')
        return title;
    }
  return NULL;
}

/* ——— Writing ——— */

static gint64
session_row (Import  *imp,
             Session *s)
{
  LoomSessionRecord meta = { 0 };

  if (s->row != 0 || imp->error != NULL)
    return MAX (s->row, 0);

  meta.source_session_id = s->sid;
  meta.parent_uuid = s->parent_sid;
  meta.session_type = (char *)(s->subagent ? "subagent" : "main");
  /* The working folder names the project, which a new session is created with: linking it
   * later would cost an update that journals its pages (loom_import_file_session ()). */
  meta.cwd = s->cwd;
  meta.created_at = s->first_time;
  s->row = loom_import_file_session (imp->file, &meta, &imp->error);
  if (s->row == 0)
    s->row = -1; /* deleted for good, or failed: skip its records */
  return MAX (s->row, 0);
}

static gint64
add_message (Import                 *imp,
             Session                *s,
             const LoomMessageDraft *draft)
{
  gint64 row = session_row (imp, s);

  if (row <= 0 || imp->error != NULL)
    return 0;
  return loom_import_file_add_message (imp->file, row, draft, &imp->error);
}

static void
add_event (Import               *imp,
           Session              *s,
           const LoomEventDraft *draft)
{
  gint64 row = session_row (imp, s);

  if (row <= 0 || imp->error != NULL)
    return;
  loom_import_file_add_event (imp->file, row, draft, &imp->error);
}

/* A record kept whole as an event of @kind, shown as @text. */
static void
add_record_event (Import         *imp,
                  Session        *s,
                  const char     *kind,
                  const LoomJson *record,
                  const char     *text)
{
  LoomEventDraft   event = { 0 };
  g_autofree char *payload = loom_json_value_to_string (record);

  event.kind = kind;
  event.source_id = loom_json_member_string (record, "uuid");
  event.text = text;
  event.payload = payload;
  event.created_at = imp->time;
  add_event (imp, s, &event);
}

/* ——— Sessions of the file ——— */

static void
flush_held (Import  *imp,
            Session *s)
{
  JsonArray *held = loom_json_get_array (imp->state, STATE_HELD);

  for (guint i = 0; held != NULL && i < json_array_get_length (held); i++)
    {
      JsonNode   *element = json_array_get_element (held, i);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      LoomEventDraft event = { 0 };

      event.kind = LOOM_EVENT_LIFECYCLE;
      event.text = loom_json_get_string (item, "text");
      event.payload = loom_json_get_string (item, "payload");
      add_event (imp, s, &event);
    }
  json_object_remove_member (imp->state, STATE_HELD);
}

/* The main session, created on its first record that is not a summary. */
static Session *
own_session (Import *imp)
{
  if (!state_bool (imp, STATE_STARTED))
    {
      json_object_set_boolean_member (imp->state, STATE_STARTED, TRUE);
      flush_held (imp, imp->own);
    }
  return imp->own;
}

static const char *
record_session_id (const LoomJson *record)
{
  const char *id = loom_json_member_string (record, "sessionId");

  /* 2.1.2xx writes a snake_case copy too (F1.1). */
  if (id == NULL)
    id = loom_json_member_string (record, "session_id");
  return id != NULL && *id != '\0' ? id : NULL;
}

static char *
first_session_id (const LoomJson *record,
                  gpointer        data)
{
  return g_strdup (record_session_id (record));
}

/* An agent file that an earlier version keyed under @old_parent (its folder's name) whose
 * records name @new_parent: its session is re-keyed. FALSE: it keeps the old key. */
static gboolean
agent_file_rekey (Import     *imp,
                  const char *old_parent,
                  const char *new_parent)
{
  g_autofree char *old_sid = NULL;
  g_autofree char *new_sid = NULL;
  const char      *agent_id = state_string (imp, STATE_AGENT_ID);

  if (old_parent == NULL || new_parent == NULL || agent_id == NULL ||
      strcmp (old_parent, new_parent) == 0 || imp->error != NULL)
    return TRUE;
  old_sid = g_strdup_printf ("%s/agent-%s", old_parent, agent_id);
  new_sid = g_strdup_printf ("%s/agent-%s", new_parent, agent_id);
  return loom_import_file_rekey (imp->file, "claude-code", old_sid, new_sid, &imp->error);
}

/* The main session's id, by the rules at the top of the file; NULL when no record has one. */
static char *
main_session_id (Import     *imp,
                 const char *name)
{
  g_autofree char *first = loom_import_file_find_first (imp->file, first_session_id, NULL);

  if (first == NULL || strcmp (first, name) == 0)
    return g_steal_pointer (&first);
  if (loom_import_file_mentions (imp->file, "sessionId", name))
    return g_strdup (name);
  return g_steal_pointer (&first);
}

/* An agent file's session: "<parent sessionId>/agent-<agentId>", fixed by the first record. */
static Session *
agent_file_session (Import         *imp,
                    const LoomJson *record)
{
  g_autofree char *sid = NULL;
  const char      *parent, *agent_id;

  if (imp->own != NULL)
    return imp->own;

  if (state_string (imp, STATE_AGENT_ID) == NULL)
    {
      g_autofree char *base = g_path_get_basename (loom_import_file_get_path (imp->file));
      const char      *from_record = loom_json_member_string (record, "agentId");

      /* The name is agent-<id>.jsonl; the record's agentId says the same when present. */
      base[strlen (base) - strlen (".jsonl")] = '\0';
      state_set_string (imp, STATE_AGENT_ID,
                        from_record ? from_record
                                    : (g_str_has_prefix (base, "agent-") ? base + 6 : base));
      /* The parent is the sessionId the records carry; the folder's name only stands in. */
      state_set_string (imp, STATE_PARENT, record_session_id (record) ?: imp->root_sid);
      if (!agent_file_rekey (imp, imp->root_sid, state_string (imp, STATE_PARENT)))
        state_set_string (imp, STATE_PARENT, imp->root_sid);
    }

  parent = state_string (imp, STATE_PARENT);
  agent_id = state_string (imp, STATE_AGENT_ID);
  if (parent != NULL && g_strcmp0 (imp->root_sid, parent) != 0)
    {
      g_free (imp->root_sid);
      imp->root_sid = g_strdup (parent);
    }
  sid = parent ? g_strdup_printf ("%s/agent-%s", parent, agent_id)
               : g_strdup_printf ("agent-%s", agent_id);
  imp->own = session_new (sid, parent, TRUE);
  imp->own->subagent = TRUE;
  return imp->own;
}

static Session *
child_session (Import     *imp,
               const char *sid,
               Session    *parent)
{
  Session *child = g_hash_table_lookup (imp->children, sid);

  if (child == NULL)
    {
      /* The parent first, so that it is a real session rather than a placeholder; the
       * sub-agents of a session the person deleted for good go with it. */
      session_row (imp, parent);
      child = session_new (sid, parent->sid, FALSE);
      if (parent->row < 0)
        child->row = -1;
      g_hash_table_insert (imp->children, child->sid, child);
    }
  return child;
}

/* 1.0.x sub-agents live inline: each chain that starts with parentUuid null is one run (F1.5). */
static Session *
sidechain_session (Import         *imp,
                   const LoomJson *record)
{
  JsonObject      *chains = state_object (imp, STATE_SIDECHAINS);
  const char      *uuid = loom_json_member_string (record, "uuid");
  const char      *parent = loom_json_member_string (record, "parentUuid");
  const char      *root = parent ? loom_json_get_string (chains, parent) : NULL;
  g_autofree char *root_copy = NULL;
  g_autofree char *sid = NULL;

  if (root == NULL)
    root = uuid ? uuid : "unknown";
  root_copy = g_strdup (root);
  if (uuid != NULL)
    json_object_set_string_member (chains, uuid, root_copy);

  sid = g_strdup_printf ("%s/sidechain-%s", imp->root_sid, root_copy);
  return child_session (imp, sid, own_session (imp));
}

/* Which session a record of this file belongs to. */
static Session *
route (Import         *imp,
       const LoomJson *record,
       const char     *type)
{
  if (imp->agent_file)
    return agent_file_session (imp, record);
  if (get_bool (record, "isSidechain"))
    return sidechain_session (imp, record);
  if (str_equal0 (type, "summary") && !state_bool (imp, STATE_STARTED))
    return NULL; /* held until the session exists */
  return own_session (imp);
}

/* Session metadata from the envelope (F1.1). The main chain's uuids also place summaries. */
static void
note_envelope (Import         *imp,
               Session        *s,
               const LoomJson *record)
{
  const char *branch = loom_json_member_string (record, "gitBranch");
  const char *uuid = loom_json_member_string (record, "uuid");

  if (imp->time > 0)
    {
      s->first_time = s->first_time > 0 ? MIN (s->first_time, imp->time) : imp->time;
      s->last_time = MAX (s->last_time, imp->time);
    }
  replace_string (&s->cwd, loom_json_member_string (record, "cwd"));
  replace_string (&s->version, loom_json_member_string (record, "version"));
  replace_string (&s->mode, loom_json_member_string (record, "permissionMode"));
  /* "" and "HEAD" (detached) are not branches. */
  if (branch != NULL && strcmp (branch, "HEAD") != 0)
    replace_string (&s->git_branch, branch);

  if (s == imp->own && uuid != NULL && !imp->agent_file)
    {
      JsonObject *summaries = loom_json_get_object (imp->state, STATE_SUMMARIES);
      const char *summary = loom_json_get_string (summaries, uuid);

      g_hash_table_add (imp->uuids, g_strdup (uuid));
      g_free (imp->last_uuid);
      imp->last_uuid = g_strdup (uuid);
      if (summary != NULL)
        state_set_string (imp, STATE_TITLE_SUMMARY, summary);
    }
}

/* ——— Text ——— */

static gboolean
starts_with_any (const char        *text,
                 const char *const *prefixes)
{
  for (; *prefixes != NULL; prefixes++)
    if (g_str_has_prefix (text, *prefixes))
      return TRUE;
  return FALSE;
}

/* Why a user text is not a person's prompt, if it is not (F1.2). */
static guint
text_flags (const char *text)
{
  static const char *const command[] = {
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "Caveat: The messages below were generated by the user while running local commands",
    NULL,
  };
  static const char *const injected[] = {
    "<system-reminder>",
    "<task-notification>",
    "<agent-notification>",
    "[Request interrupted by user",
    NULL,
  };

  if (text == NULL)
    return 0;
  while (g_ascii_isspace (*text))
    text++;
  if (starts_with_any (text, command))
    return LOOM_MESSAGE_COMMAND;
  if (starts_with_any (text, injected))
    return LOOM_MESSAGE_INJECTED;
  return 0;
}

/* Whether a text beside tool results is a hook's words about the tool ("PostToolUse:Bash hook
 * feedback:", "Stop hook feedback:"): an event name, maybe ":" and a tool, then " hook ". */
static gboolean
is_hook_text (const char *text)
{
  static const char *const events[] = {
    "PreToolUse",   "PostToolUse",      "PostToolUseFailure", "PermissionRequest",
    "Notification", "UserPromptSubmit", "SessionStart",       "SessionEnd",
    "Stop",         "SubagentStart",    "SubagentStop",       "PreCompact",
    NULL,
  };

  while (g_ascii_isspace (*text))
    text++;
  for (guint i = 0; events[i] != NULL; i++)
    {
      const char *p = text;

      if (!g_str_has_prefix (p, events[i]))
        continue;
      p += strlen (events[i]);
      if (*p == ':')
        while (*p != '\0' && *p != ' ' && *p != '\n')
          p++;
      if (g_str_has_prefix (p, " hook "))
        return TRUE;
    }
  return FALSE;
}

static void
append_part (GString    *text,
             const char *part)
{
  if (part == NULL || *part == '\0')
    return;
  if (text->len > 0)
    g_string_append (text, "\n\n");
  g_string_append (text, part);
}

/* What a block shows as text in a message; NULL for blocks that become events. Placeholders
 * are written as the other importers write them ("[image]"), so that every agent reads alike. */
static const char *
block_text (const LoomJson *block)
{
  const char *type = loom_json_member_string (block, "type");

  if (str_equal0 (type, "text"))
    return loom_json_member_string (block, "text");
  if (str_equal0 (type, "image"))
    return "[image]";
  if (str_equal0 (type, "document"))
    return "[document]";
  return NULL;
}

/* A tool_result's content: a string, or text and image blocks (F1.2). */
static char *
tool_result_text (const LoomJson *block)
{
  const LoomJson *content = loom_json_member (block, "content");
  g_autoptr (GString) text = g_string_new (NULL);

  if (content == NULL)
    return g_strdup ("");
  if (loom_json_is_string (content))
    return g_strdup (loom_json_string (content));
  if (!loom_json_is_array (content))
    return g_strdup ("");

  for (gsize i = 0; i < loom_json_length (content); i++)
    {
      const LoomJson *element = loom_json_element (content, i);

      if (loom_json_is_object (element))
        append_part (text, block_text (element));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The one line a tool call shows: the command, the file, the pattern… */
static char *
tool_summary (const char     *name,
              const LoomJson *input)
{
  static const char *const keys[] = {
    "command",     "file_path", "notebook_path", "pattern", "query", "url",
    "description", "skill",     "path",          "prompt",  "plan",  NULL,
  };
  const LoomJson *todos;

  if (input == NULL)
    return NULL;
  if (str_equal0 (name, "TodoWrite") && (todos = loom_json_member_array (input, "todos")))
    return g_strdup_printf ("%" G_GSIZE_FORMAT " todos", loom_json_length (todos));

  for (guint i = 0; keys[i] != NULL; i++)
    {
      const char *value = loom_json_member_string (input, keys[i]);

      if (value != NULL && *value != '\0')
        return one_line (value);
    }

  for (gsize i = 0; i < loom_json_length (input); i++)
    {
      const char *value = loom_json_string (loom_json_element (input, i));

      if (value != NULL && *value != '\0')
        return one_line (value);
    }
  return NULL;
}

/* ——— user ——— */

static void
add_tool_result (Import         *imp,
                 Session        *s,
                 const LoomJson *block,
                 const LoomJson *record,
                 gboolean        single)
{
  JsonObject      *open_calls = state_object (imp, STATE_OPEN_CALLS);
  const LoomJson  *structured = loom_json_member (record, "toolUseResult");
  const char      *call_id = loom_json_member_string (block, "tool_use_id");
  g_autofree char *name = g_strdup (call_id ? loom_json_get_string (open_calls, call_id) : NULL);
  g_autofree char *text = tool_result_text (block);
  g_autofree char *payload = loom_json_value_to_string (block);
  LoomEventDraft   event = { 0 };

  /* The payload is the block; the tool's structured result (F1.2 toolUseResult: the patch, the
   * file, stdout and stderr) belongs to it when the record answers a single call. */
  if (single && structured != NULL && g_str_has_suffix (payload, "}"))
    {
      g_autofree char *extra = loom_json_value_to_string (structured);
      g_autofree char *block_only = g_steal_pointer (&payload);

      block_only[strlen (block_only) - 1] = '\0';
      payload = g_strdup_printf ("%s,\"toolUseResult\":%s}", block_only, extra);
    }

  if (call_id != NULL && name != NULL)
    json_object_remove_member (open_calls, call_id);

  event.kind = LOOM_EVENT_TOOL_RESULT;
  event.source_id = call_id;
  event.call_id = call_id;
  event.tool_name = name;
  event.is_error = get_bool (block, "is_error");
  event.text = text;
  event.payload = payload;
  event.created_at = imp->time;
  add_event (imp, s, &event);
}

static void
handle_user (Import         *imp,
             Session        *s,
             const LoomJson *record)
{
  const LoomJson  *message = loom_json_member_object (record, "message");
  const LoomJson  *content = loom_json_member (message, "content");
  LoomMessageDraft draft = LOOM_MESSAGE_DRAFT_INIT;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) typed = g_string_new (NULL);   /* beside results: what a person wrote */
  g_autoptr (GString) harness = g_string_new (NULL); /* beside results: notices, hooks */
  g_autoptr (GPtrArray) results = g_ptr_array_new ();
  g_autoptr (GPtrArray) others = g_ptr_array_new ();
  gboolean has_text = FALSE, has_typed = FALSE;
  guint    flags = 0;

  if (content == NULL)
    {
      loom_import_file_warn (imp->file, "a user record without message content was kept as is");
      add_record_event (imp, s, LOOM_EVENT_RAW, record, "user record without content");
      return;
    }

  if (loom_json_is_string (content))
    {
      g_string_append (text, loom_json_string (content));
      has_text = TRUE;
    }
  else if (loom_json_is_array (content))
    {
      for (gsize i = 0; i < loom_json_length (content); i++)
        {
          const LoomJson *element = loom_json_element (content, i);
          const LoomJson *block = loom_json_is_object (element) ? element : NULL;
          const char     *part = block ? block_text (block) : NULL;

          if (block != NULL && str_equal0 (loom_json_member_string (block, "type"), "tool_result"))
            g_ptr_array_add (results, (gpointer)element);
          else if (part != NULL)
            {
              gboolean is_text = str_equal0 (loom_json_member_string (block, "type"), "text");

              append_part (text, part);
              has_text = TRUE;
              if (is_text && (text_flags (part) != 0 || is_hook_text (part)))
                append_part (harness, part);
              else
                {
                  append_part (typed, part);
                  has_typed = has_typed || is_text;
                }
            }
          else
            g_ptr_array_add (others, (gpointer)element);
        }
    }
  else
    g_ptr_array_add (others, (gpointer)content);

  /* A person may write while a tool runs: Claude Code then sends what they typed in the record
   * that returns the tool's result. That text is their prompt, and comes after the result, as
   * the model read it; the harness's own words beside it stay flagged apart. */
  if (has_typed && results->len > 0 && !get_bool (record, "isMeta") &&
      !get_bool (record, "isCompactSummary"))
    {
      const char      *uuid = loom_json_member_string (record, "uuid");
      g_autofree char *harness_id = uuid ? g_strconcat (uuid, "#harness", NULL) : NULL;

      for (guint i = 0; i < results->len; i++)
        add_tool_result (imp, s, g_ptr_array_index (results, i), record, results->len == 1);
      if (harness->len > 0)
        {
          LoomMessageDraft context = LOOM_MESSAGE_DRAFT_INIT;
          guint            why = text_flags (harness->str);

          context.source_id = harness_id;
          context.role = "user";
          context.text = harness->str;
          context.flags = why != 0 ? why : LOOM_MESSAGE_INJECTED;
          context.created_at = imp->time;
          add_message (imp, s, &context);
        }
      draft.source_id = uuid;
      draft.role = "user";
      draft.text = typed->str;
      draft.created_at = imp->time;
      add_message (imp, s, &draft);
      /* Done with the text and the results: only other blocks are left. */
      g_ptr_array_set_size (results, 0);
      has_text = FALSE;
    }

  /* A record of tool results is the harness answering the model, not a prompt (F1.2); text
   * beside results (an interruption notice, a hook's words) is harness text too. */
  if (has_text)
    {
      flags = text_flags (text->str);
      if (get_bool (record, "isMeta"))
        flags |= LOOM_MESSAGE_META;
      if (get_bool (record, "isCompactSummary"))
        flags |= LOOM_MESSAGE_COMPACT_SUMMARY;
      if (results->len > 0)
        flags |= LOOM_MESSAGE_INJECTED;

      draft.source_id = loom_json_member_string (record, "uuid");
      draft.role = "user";
      draft.text = text->str;
      draft.flags = flags;
      draft.created_at = imp->time;
      add_message (imp, s, &draft);
    }

  for (guint i = 0; i < results->len; i++)
    add_tool_result (imp, s, g_ptr_array_index (results, i), record, results->len == 1);

  for (guint i = 0; i < others->len; i++)
    {
      LoomEventDraft   event = { 0 };
      g_autofree char *payload = loom_json_value_to_string (g_ptr_array_index (others, i));

      event.kind = LOOM_EVENT_RAW;
      event.text = "user content block of an unknown kind";
      event.payload = payload;
      event.created_at = imp->time;
      add_event (imp, s, &event);
    }
}

/* ——— assistant ——— */

static void
add_tool_use (Import         *imp,
              Session        *s,
              const LoomJson *block,
              const LoomJson *record,
              gint64          message_row)
{
  const LoomJson  *input_node = loom_json_member (block, "input");
  const LoomJson  *input = loom_json_is_object (input_node) ? input_node : NULL;
  const char      *id = loom_json_member_string (block, "id");
  const char      *name = loom_json_member_string (block, "name");
  g_autofree char *summary = tool_summary (name, input);
  g_autofree char *payload = loom_json_value_to_string (input_node);
  LoomEventDraft   event = { 0 };

  event.kind = LOOM_EVENT_TOOL_CALL;
  event.source_id = id;
  event.call_id = id;
  event.tool_name = name;
  event.text = summary;
  event.payload = payload;
  event.created_at = imp->time;
  event.message_id = message_row;
  add_event (imp, s, &event);

  if (id != NULL && name != NULL)
    json_object_set_string_member (state_object (imp, STATE_OPEN_CALLS), id, name);

  /* The tools that write files (F1.3) also say which file changed. */
  if (str_equal0 (name, "Edit") || str_equal0 (name, "MultiEdit") || str_equal0 (name, "Write") ||
      str_equal0 (name, "NotebookEdit"))
    {
      const char *path = loom_json_member_string (input, "file_path");
      const char *kind = str_equal0 (name, "Write") ? "write" : "edit";

      if (str_equal0 (name, "NotebookEdit"))
        {
          const char *edit_mode = loom_json_member_string (input, "edit_mode");

          path = loom_json_member_string (input, "notebook_path");
          if (str_equal0 (edit_mode, "insert") || str_equal0 (edit_mode, "delete"))
            kind = edit_mode;
        }
      event.kind = LOOM_EVENT_FILE_CHANGE;
      event.path = path;
      event.change_kind = kind;
      event.text = path;
      add_event (imp, s, &event);
    }

  /* Task (renamed Agent) starts a sub-agent (F1.3). */
  if (str_equal0 (name, "Task") || str_equal0 (name, "Agent"))
    {
      g_autofree char *text = NULL;
      const char      *description = loom_json_member_string (input, "description");
      const char      *agent_type = loom_json_member_string (input, "subagent_type");

      text = agent_type ? g_strdup_printf ("%s (%s)", description ? description : name, agent_type)
                        : g_strdup (description ? description : name);
      event.kind = LOOM_EVENT_SUBAGENT;
      event.path = NULL;
      event.change_kind = NULL;
      event.text = text;
      add_event (imp, s, &event);
    }
}

static void
add_reasoning (Import         *imp,
               Session        *s,
               const LoomJson *block,
               const LoomJson *record,
               const char     *key,
               guint           index,
               gint64          message_row)
{
  gboolean redacted = str_equal0 (loom_json_member_string (block, "type"), "redacted_thinking");
  g_autofree char *source_id = g_strdup_printf ("%s#%u", key, index);
  g_autofree char *payload = loom_json_value_to_string (block);
  LoomEventDraft   event = { 0 };

  event.kind = LOOM_EVENT_REASONING;
  event.source_id = source_id;
  event.text = redacted ? "[redacted thinking]" : loom_json_member_string (block, "thinking");
  event.payload = payload;
  event.created_at = imp->time;
  event.message_id = message_row;
  add_event (imp, s, &event);
}

static void
set_usage (LoomMessageDraft *draft,
           const LoomJson   *usage)
{
  if (usage == NULL)
    return;
  draft->input_tokens = loom_json_member_int (usage, "input_tokens", -1);
  draft->output_tokens = loom_json_member_int (usage, "output_tokens", -1);
  draft->cache_read_tokens = loom_json_member_int (usage, "cache_read_input_tokens", -1);
  draft->cache_creation_tokens = loom_json_member_int (usage, "cache_creation_input_tokens", -1);
}

static void
handle_assistant (Import         *imp,
                  Session        *s,
                  const LoomJson *record)
{
  const LoomJson  *message = loom_json_member_object (record, "message");
  const LoomJson  *content = loom_json_member (message, "content");
  const char      *uuid = loom_json_member_string (record, "uuid");
  const char      *model = loom_json_member_string (message, "model");
  gboolean         synthetic = str_equal0 (model, "<synthetic>");
  gboolean         api_error = get_bool (record, "isApiErrorMessage");
  LoomMessageDraft draft = LOOM_MESSAGE_DRAFT_INIT;
  g_autoptr (GString) text = g_string_new (NULL);
  const LoomJson *blocks = NULL;
  const char     *key;
  gint64          message_row;

  if (message == NULL)
    {
      loom_import_file_warn (imp->file, "an assistant record without a message was kept as is");
      add_record_event (imp, s, LOOM_EVENT_RAW, record, "assistant record without message");
      return;
    }

  if (loom_json_is_array (content))
    blocks = content;
  else if (loom_json_is_string (content))
    g_string_append (text, loom_json_string (content));

  for (guint i = 0; blocks != NULL && i < loom_json_length (blocks); i++)
    {
      const LoomJson *element = loom_json_element (blocks, i);

      if (loom_json_is_object (element) &&
          str_equal0 (loom_json_member_string (element, "type"), "text"))
        append_part (text, loom_json_member_string (element, "text"));
    }

  /* One message per API message: the streamed records share message.id (F1.3). */
  key = loom_json_member_string (message, "id");
  if (key == NULL)
    key = uuid;
  draft.source_id = key;
  draft.role = "assistant";
  draft.text = text->len > 0 ? text->str : NULL;
  draft.model = synthetic ? NULL : model;
  draft.created_at = imp->time;
  /* The harness's own replies (<synthetic>) are not the model's; errors are not replies. */
  if (api_error)
    draft.flags = LOOM_MESSAGE_API_ERROR;
  else if (synthetic)
    draft.flags = LOOM_MESSAGE_INJECTED;
  set_usage (&draft, loom_json_member_object (message, "usage"));
  message_row = add_message (imp, s, &draft);

  if (api_error)
    {
      LoomEventDraft   event = { 0 };
      g_autofree char *payload = loom_json_value_to_string (record);
      g_autofree char *error_text = NULL;
      const char      *error = loom_json_member_string (record, "error");

      error_text = text->len > 0 ? g_strdup (text->str)
                                 : g_strdup_printf ("API error: %s", error ? error : "unknown");
      event.kind = LOOM_EVENT_API_ERROR;
      event.source_id = uuid;
      event.text = error_text;
      event.payload = payload;
      event.created_at = draft.created_at;
      event.message_id = message_row;
      add_event (imp, s, &event);
    }

  for (guint i = 0; blocks != NULL && i < loom_json_length (blocks); i++)
    {
      const LoomJson *element = loom_json_element (blocks, i);
      const LoomJson *block = loom_json_is_object (element) ? element : NULL;
      const char     *type = loom_json_member_string (block, "type");

      if (str_equal0 (type, "text"))
        continue;
      if (str_equal0 (type, "thinking") || str_equal0 (type, "redacted_thinking"))
        add_reasoning (imp, s, element, record, uuid ? uuid : key, i, message_row);
      else if (str_equal0 (type, "tool_use"))
        add_tool_use (imp, s, block, record, message_row);
      else
        {
          LoomEventDraft   event = { 0 };
          g_autofree char *payload = loom_json_value_to_string (element);

          event.kind = LOOM_EVENT_RAW;
          event.text = type ? type : "assistant content block of an unknown kind";
          event.payload = payload;
          event.created_at = draft.created_at;
          event.message_id = message_row;
          add_event (imp, s, &event);
        }
    }
}

/* ——— system ——— */

/* The most specific message an api_error record holds (F1.4: error{status, error{error{…}}}). */
static const char *
api_error_message (const LoomJson *record)
{
  const LoomJson *error = loom_json_member_object (record, "error");
  const LoomJson *inner = loom_json_member_object (error, "error");
  const LoomJson *innermost = loom_json_member_object (inner, "error");
  const LoomJson *cause = loom_json_member_object (record, "cause");
  const char     *candidates[] = {
    loom_json_member_string (innermost, "message"), loom_json_member_string (inner, "message"),
    loom_json_member_string (error, "message"),     loom_json_member_string (record, "error"),
    loom_json_member_string (cause, "message"),     loom_json_member_string (cause, "code"),
    loom_json_member_string (record, "content"),
  };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL && *candidates[i] != '\0')
      return candidates[i];
  return "unknown error";
}

static void
handle_system (Import         *imp,
               Session        *s,
               const LoomJson *record)
{
  const char      *subtype = loom_json_member_string (record, "subtype");
  const char      *content = loom_json_member_string (record, "content");
  g_autofree char *text = NULL;

  if (str_equal0 (subtype, "compact_boundary"))
    {
      const LoomJson *meta = loom_json_member_object (record, "compactMetadata");
      const char     *trigger = loom_json_member_string (meta, "trigger");
      gint64          before = loom_json_member_int (meta, "preTokens", -1);

      text = before >= 0
               ? g_strdup_printf ("Conversation compacted (%s, %" G_GINT64_FORMAT " tokens before)",
                                  trigger ? trigger : "auto", before)
               : g_strdup_printf ("Conversation compacted (%s)", trigger ? trigger : "auto");
      add_record_event (imp, s, LOOM_EVENT_COMPACTION, record, text);
    }
  else if (str_equal0 (subtype, "microcompact_boundary"))
    add_record_event (imp, s, LOOM_EVENT_COMPACTION, record, "Old tool results compacted");
  else if (str_equal0 (subtype, "api_error"))
    {
      const LoomJson  *error = loom_json_member_object (record, "error");
      gint64           status = loom_json_member_int (error, "status", -1);
      gint64           attempt = loom_json_member_int (record, "retryAttempt", -1);
      gint64           max = loom_json_member_int (record, "maxRetries", -1);
      g_autofree char *status_text = status > 0 ? g_strdup_printf (" %" G_GINT64_FORMAT, status)
                                                : g_strdup ("");
      g_autofree char *attempt_text = attempt > 0 && max > 0
                                        ? g_strdup_printf (" (attempt %" G_GINT64_FORMAT
                                                           " of %" G_GINT64_FORMAT ")",
                                                           attempt, max)
                                        : g_strdup ("");

      text = g_strdup_printf ("API error%s%s: %s", status_text, attempt_text,
                              api_error_message (record));
      add_record_event (imp, s, LOOM_EVENT_API_ERROR, record, text);
    }
  else if (str_equal0 (subtype, "stop_hook_summary"))
    {
      const LoomJson *errors = loom_json_member_array (record, "hookErrors");

      text = g_strdup_printf ("Stop hooks: %" G_GINT64_FORMAT " ran, %" G_GSIZE_FORMAT " failed",
                              loom_json_member_int (record, "hookCount", 0),
                              loom_json_length (errors));
      add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
    }
  else if (str_equal0 (subtype, "turn_duration"))
    {
      text = g_strdup_printf ("Turn took %.1f s",
                              loom_json_member_int (record, "durationMs", 0) / 1000.0);
      add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
    }
  else if (content != NULL && *content != '\0')
    {
      /* Notices (local_command, away_summary, 1.0.x warnings) are system messages. */
      LoomMessageDraft draft = LOOM_MESSAGE_DRAFT_INIT;

      draft.source_id = loom_json_member_string (record, "uuid");
      draft.role = "system";
      draft.text = content;
      draft.flags = text_flags (content);
      draft.created_at = imp->time;
      add_message (imp, s, &draft);
    }
  else
    add_record_event (imp, s, LOOM_EVENT_RAW, record, subtype ? subtype : "system");
}

/* ——— progress (2.1.x) ——— */

/* Whether a sub-agent has a transcript of its own (F1.5: beside the session in 2.0.x, in
 * <sessionId>/subagents/ in newer builds). */
static gboolean
agent_file_exists (Import     *imp,
                   const char *agent_id)
{
  gpointer cached;
  gboolean exists;

  if (g_hash_table_lookup_extended (imp->agent_files, agent_id, NULL, &cached))
    return GPOINTER_TO_INT (cached);

  {
    g_autofree char *name = g_strdup_printf ("agent-%s.jsonl", agent_id);
    /* The folder is named as the session's file is, by Claude Code after the session. */
    g_autofree char *nested = g_build_filename (
      imp->project_dir, imp->file_stem ? imp->file_stem : imp->root_sid, "subagents", name, NULL);
    g_autofree char *beside = g_build_filename (imp->project_dir, name, NULL);

    exists = g_file_test (nested, G_FILE_TEST_IS_REGULAR) ||
             g_file_test (beside, G_FILE_TEST_IS_REGULAR);
  }
  g_hash_table_insert (imp->agent_files, g_strdup (agent_id), GINT_TO_POINTER (exists));
  return exists;
}

static void
handle_progress (Import         *imp,
                 Session        *s,
                 const LoomJson *record)
{
  const LoomJson  *data = loom_json_member_object (record, "data");
  const char      *type = loom_json_member_string (data, "type");
  const char      *agent_id = loom_json_member_string (data, "agentId");
  const LoomJson  *nested = loom_json_member (data, "message");
  g_autofree char *text = NULL;

  if (str_equal0 (type, "agent_progress") && agent_id != NULL && nested != NULL &&
      loom_json_is_object (nested) && imp->root_sid != NULL)
    {
      const char      *inner_uuid = loom_json_member_string (nested, "uuid");
      g_autofree char *sid = NULL;

      /* The mirror of a sub-agent that has its own file: that file is imported as the child,
       * and counting the mirror too would double its calls and tokens. */
      if (agent_file_exists (imp, agent_id))
        return;
      if (inner_uuid != NULL && !g_hash_table_add (imp->mirrored, g_strdup (inner_uuid)))
        return; /* the same sub-agent record mirrored twice */

      sid = g_strdup_printf ("%s/agent-%s", imp->root_sid, agent_id);
      dispatch_record (imp, child_session (imp, sid, s), nested);
      return;
    }

  text = g_strdup_printf ("Progress: %s", type ? type : "unknown");
  add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
}

/* ——— Titles, summaries and bookkeeping ——— */

/* A summary appended in a later pass may name a record an earlier pass read: the uuids of a
 * pass are not kept (a long session has thousands), so the bytes before are searched for the
 * record. A record of a sidechain would be taken too; they are seldom a summary's leaf. */
static gboolean
leaf_read_before (Import     *imp,
                  const char *leaf)
{
  return loom_import_file_read_before (imp->file, "uuid", leaf);
}

static void
handle_summary (Import         *imp,
                Session        *s,
                const LoomJson *record)
{
  const char      *summary = loom_json_member_string (record, "summary");
  const char      *leaf = loom_json_member_string (record, "leafUuid");
  g_autofree char *text = g_strdup_printf ("Summary: %s", summary ? summary : "");

  /* leafUuid often points into another session (F1.4): only a summary of this file's own
   * conversation names it. The leaf may come later in the file. */
  if (summary != NULL && leaf != NULL && !imp->agent_file)
    {
      const char *last = imp->last_uuid ? imp->last_uuid : state_string (imp, STATE_LAST_UUID);

      json_object_set_string_member (state_object (imp, STATE_SUMMARIES), leaf, summary);
      if (g_hash_table_contains (imp->uuids, leaf) || str_equal0 (leaf, last) ||
          leaf_read_before (imp, leaf))
        state_set_string (imp, STATE_TITLE_SUMMARY, summary);
    }

  if (s == NULL)
    {
      JsonArray       *held = loom_json_get_array (imp->state, STATE_HELD);
      JsonObject      *item = json_object_new ();
      g_autofree char *payload = loom_json_value_to_string (record);

      if (held == NULL)
        {
          json_object_set_array_member (imp->state, STATE_HELD, json_array_new ());
          held = loom_json_get_array (imp->state, STATE_HELD);
        }
      json_object_set_string_member (item, "text", text);
      json_object_set_string_member (item, "payload", payload);
      json_array_add_object_element (held, item);
      return;
    }
  add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
}

static void
handle_title (Import         *imp,
              Session        *s,
              const LoomJson *record,
              const char     *type)
{
  static const struct
  {
    const char *type, *member, *key, *label;
  } kinds[] = {
    { "custom-title", "customTitle", STATE_TITLE_CUSTOM, "Title" },
    { "agent-name", "agentName", STATE_TITLE_AGENT, "Agent name" },
    { "ai-title", "aiTitle", STATE_TITLE_AI, "AI title" },
  };
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const char *title;

      if (!str_equal0 (type, kinds[i].type))
        continue;
      title = loom_json_member_string (record, kinds[i].member);
      if (s == imp->own)
        state_set_string (imp, kinds[i].key, title);
      text = g_strdup_printf ("%s: %s", kinds[i].label, title ? title : "");
    }
  add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
}

static void
handle_mode (Import         *imp,
             Session        *s,
             const LoomJson *record,
             const char     *type)
{
  const char *mode = str_equal0 (type, "mode") ? loom_json_member_string (record, "mode")
                                               : loom_json_member_string (record, "permissionMode");
  g_autofree char *text = g_strdup_printf (
    "%s: %s", str_equal0 (type, "mode") ? "Mode" : "Permission mode", mode ? mode : "");

  replace_string (&s->mode, mode);
  add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
}

static char *
bookkeeping_text (const LoomJson *record,
                  const char     *type)
{
  if (str_equal0 (type, "file-history-snapshot"))
    {
      const LoomJson *snapshot = loom_json_member_object (record, "snapshot");
      const LoomJson *files = loom_json_member_object (snapshot, "trackedFileBackups");

      return g_strdup_printf ("File history %s (%" G_GSIZE_FORMAT " files)",
                              get_bool (record, "isSnapshotUpdate") ? "update" : "snapshot",
                              loom_json_length (files));
    }
  if (str_equal0 (type, "file-history-delta"))
    return g_strdup_printf ("File history: %s",
                            or_empty (loom_json_member_string (record, "trackingPath")));
  if (str_equal0 (type, "queue-operation"))
    {
      const char *content = loom_json_member_string (record, "content");

      return g_strdup_printf ("Queued input %s%s%s",
                              or_empty (loom_json_member_string (record, "operation")),
                              content ? ": " : "", content ? content : "");
    }
  if (str_equal0 (type, "pr-link"))
    return g_strdup_printf ("Pull request: %s",
                            or_empty (loom_json_member_string (record, "prUrl")));
  if (str_equal0 (type, "last-prompt"))
    return g_strdup_printf ("Last prompt: %s",
                            or_empty (loom_json_member_string (record, "lastPrompt")));
  if (str_equal0 (type, "attachment"))
    {
      const LoomJson *attachment = loom_json_member_object (record, "attachment");
      const char     *kind = loom_json_member_string (attachment, "type");
      const char     *hook = loom_json_member_string (attachment, "hookName");

      return g_strdup_printf ("Attachment: %s%s%s", kind ? kind : "unknown", hook ? " " : "",
                              or_empty (hook));
    }
  return g_strdup (type);
}

/* ——— Records ——— */

static gboolean
is_bookkeeping (const char *type)
{
  static const char *const types[] = {
    "file-history-snapshot", "file-history-delta", "queue-operation", "pr-link",
    "last-prompt",           "attachment",         "bridge-session",
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (str_equal0 (type, types[i]))
      return TRUE;
  return FALSE;
}

static void
dispatch_record (Import         *imp,
                 Session        *s,
                 const LoomJson *record)
{
  const char *type = loom_json_member_string (record, "type");
  gint64      outer_time = imp->time; /* a progress record dispatches the record it mirrors */

  imp->time = record_time (record);
  note_envelope (imp, s, record);

  if (str_equal0 (type, "user"))
    handle_user (imp, s, record);
  else if (str_equal0 (type, "assistant"))
    handle_assistant (imp, s, record);
  else if (str_equal0 (type, "system"))
    handle_system (imp, s, record);
  else if (str_equal0 (type, "progress"))
    handle_progress (imp, s, record);
  else if (str_equal0 (type, "summary"))
    handle_summary (imp, s, record);
  else if (str_equal0 (type, "custom-title") || str_equal0 (type, "agent-name") ||
           str_equal0 (type, "ai-title"))
    handle_title (imp, s, record, type);
  else if (str_equal0 (type, "mode") || str_equal0 (type, "permission-mode"))
    handle_mode (imp, s, record, type);
  else if (is_bookkeeping (type))
    {
      g_autofree char *text = bookkeeping_text (record, type);

      add_record_event (imp, s, LOOM_EVENT_LIFECYCLE, record, text);
    }
  else
    add_record_event (imp, s, LOOM_EVENT_RAW, record, type);

  imp->time = outer_time;
}

static void
process_record (Import         *imp,
                const LoomJson *record)
{
  const char *type;
  Session    *s;

  if (!loom_json_is_object (record))
    {
      loom_import_file_warn (imp->file, "a record that is not a JSON object was skipped");
      return;
    }
  type = loom_json_member_string (record, "type");
  if (type == NULL)
    {
      /* Every Claude Code record has a type (F1); this is some other file's line. */
      loom_import_file_warn (imp->file, "a record without a type was skipped");
      return;
    }

  s = route (imp, record, type);
  if (s == NULL)
    handle_summary (imp, NULL, record);
  else if (s->row >= 0)
    dispatch_record (imp, s, record);
}

/* Writes what the records of this pass said about each session they touched. */
static void
finish_session (Import  *imp,
                Session *s)
{
  LoomSessionRecord meta = { 0 };

  if (s == NULL || s->row <= 0 || imp->error != NULL)
    return;
  meta.source_session_id = s->sid;
  meta.parent_uuid = s->parent_sid;
  meta.session_type = (char *)(s->subagent ? "subagent" : "main");
  meta.cwd = s->cwd;
  meta.git_branch = s->git_branch;
  meta.agent_version = s->version;
  meta.agent_mode = s->mode;
  meta.created_at = s->first_time;
  meta.updated_at = s->last_time;
  if (s->own)
    meta.title = (char *)state_title (imp);
  loom_import_file_session (imp->file, &meta, &imp->error);
}

static void
import_init (Import         *imp,
             LoomImportFile *file)
{
  const char      *path = loom_import_file_get_path (file);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *dir = g_path_get_dirname (path);

  imp->file = file;
  imp->state = loom_import_file_get_state (file);
  imp->children = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, session_free);
  imp->uuids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp->agent_files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  imp->mirrored = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (loom_import_file_is_reset (file))
    {
      g_autoptr (GList) members = json_object_get_members (imp->state);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_remove_member (imp->state, l->data);
    }

  imp->agent_file = is_agent_file_name (name);
  if (!imp->agent_file)
    {
      g_autofree char *sid = NULL;

      name[strlen (name) - strlen (".jsonl")] = '\0';
      imp->project_dir = g_steal_pointer (&dir);
      imp->file_stem = g_strdup (name);
      sid = g_strdup (state_string (imp, STATE_SESSION_ID));
      if (sid == NULL && (sid = main_session_id (imp, name)) != NULL)
        {
          /* An earlier version keyed the file's session by its name. */
          if (!loom_import_file_rekey (file, "claude-code", name, sid, &imp->error))
            {
              g_free (sid);
              sid = g_strdup (name);
            }
          state_set_string (imp, STATE_SESSION_ID, sid);
        }
      imp->root_sid = g_strdup (sid ? sid : name);
      imp->own = session_new (imp->root_sid, NULL, TRUE);
      return;
    }

  /* <project>/<sessionId>/subagents/agent-<id>.jsonl names its parent; a 2.0.x agent file
   * beside the session only says it in its records (F1.5). */
  if (g_str_has_suffix (dir, G_DIR_SEPARATOR_S "subagents"))
    {
      g_autofree char *session_dir = g_path_get_dirname (dir);

      imp->root_sid = g_path_get_basename (session_dir);
      imp->project_dir = g_path_get_dirname (session_dir);
    }
  else
    imp->project_dir = g_steal_pointer (&dir);

  /* Saved by an earlier version, which took the parent from the folder's name. */
  if (!loom_import_file_ids_checked (file) && state_string (imp, STATE_PARENT) != NULL)
    {
      g_autofree char *parent = loom_import_file_find_first (file, first_session_id, NULL);
      g_autofree char *old_parent = g_strdup (state_string (imp, STATE_PARENT));

      if (parent != NULL && agent_file_rekey (imp, old_parent, parent))
        state_set_string (imp, STATE_PARENT, parent);
    }
}

static void
import_clear (Import *imp)
{
  g_clear_pointer (&imp->project_dir, g_free);
  g_clear_pointer (&imp->file_stem, g_free);
  g_clear_pointer (&imp->root_sid, g_free);
  g_clear_pointer (&imp->own, session_free);
  g_clear_pointer (&imp->children, g_hash_table_unref);
  g_clear_pointer (&imp->uuids, g_hash_table_unref);
  g_clear_pointer (&imp->last_uuid, g_free);
  g_clear_pointer (&imp->agent_files, g_hash_table_unref);
  g_clear_pointer (&imp->mirrored, g_hash_table_unref);
  g_clear_error (&imp->error);
}

static gboolean
claude_import_file (LoomImportFile *file,
                    GError        **error)
{
  const char     *path = loom_import_file_get_path (file);
  Import          imp = { 0 };
  const LoomJson *record = NULL;
  GHashTableIter  iter;
  gpointer        child;

  /* Folders handed over whole also hold the sub-agents' <agent>.meta.json companions. */
  if (!g_str_has_suffix (path, ".jsonl"))
    {
      if (!g_str_has_suffix (path, ".meta.json"))
        loom_import_file_warn (file, "not a Claude Code transcript (JSON Lines); skipped");
      return TRUE;
    }

  import_init (&imp, file);
  while (imp.error == NULL && loom_import_file_next_record (file, &record))
    process_record (&imp, record);

  finish_session (&imp, imp.own);
  g_hash_table_iter_init (&iter, imp.children);
  while (g_hash_table_iter_next (&iter, NULL, &child))
    finish_session (&imp, child);

  if (imp.last_uuid != NULL)
    state_set_string (&imp, STATE_LAST_UUID, imp.last_uuid);

  if (imp.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&imp.error));
      import_clear (&imp);
      return FALSE;
    }
  import_clear (&imp);
  return TRUE;
}

static const LoomImporter importer = {
  .name = "claude-code",
  .title = "Claude Code",
  .default_roots = loom_claude_default_roots,
  .discover = loom_claude_discover,
  .claims = loom_claude_claims,
  .detect = loom_claude_detect,
  .whole_document = FALSE,
  .import_file = claude_import_file,
};

const LoomImporter *
loom_importer_claude (void)
{
  return &importer;
}
