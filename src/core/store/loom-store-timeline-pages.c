/* loom-store-timeline-pages.c — reading a session's timeline in pieces, for the lazy model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "loom-error.h"
#include "loom-json-value.h"
#include "loom-store-private.h"
#include "loom-store-timeline-pages.h"

/* Sub-agent payloads are small; anything larger is not worth parsing to find a child. */
#define SUBAGENT_PAYLOAD_LIMIT (1024 * 1024)

/* The columns read_item() expects, for a messages/events union. */
#define ITEM_COLUMNS_MESSAGES \
  "SELECT id, seq, 1, role, NULL, flags, model, created_at, text, NULL, NULL, 0, NULL," \
  "       NULL, 0 FROM messages"
#define ITEM_COLUMNS_EVENTS \
  "SELECT id, seq, 0, NULL, kind, 0, NULL, created_at, text, tool_name, call_id, is_error," \
  "       path, change_kind, payload_size FROM events"

static char *
column_strdup (sqlite3_stmt *stmt,
               int           column)
{
  return g_strdup ((const char *)sqlite3_column_text (stmt, column));
}

static LoomTimelineItem *
read_item (sqlite3_stmt *stmt)
{
  LoomTimelineData data = {
    .id = sqlite3_column_int64 (stmt, 0),
    .seq = sqlite3_column_int64 (stmt, 1),
    .is_message = sqlite3_column_int (stmt, 2),
    .role = column_strdup (stmt, 3),
    .kind = column_strdup (stmt, 4),
    .flags = (guint)sqlite3_column_int (stmt, 5),
    .model = column_strdup (stmt, 6),
    .created_at = sqlite3_column_int64 (stmt, 7),
    .text = column_strdup (stmt, 8),
    .tool_name = column_strdup (stmt, 9),
    .call_id = column_strdup (stmt, 10),
    .is_error = sqlite3_column_int (stmt, 11),
    .path = column_strdup (stmt, 12),
    .change_kind = column_strdup (stmt, 13),
    .payload_size = sqlite3_column_int64 (stmt, 14),
  };

  return loom_timeline_item_new (&data);
}

static GPtrArray *
read_items (LoomStore    *self,
            sqlite3_stmt *stmt,
            const char   *doing,
            GError      **error)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (items, read_item (stmt));
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, doing);
      return NULL;
    }
  return g_steal_pointer (&items);
}

typedef enum
{
  EVENT_OTHER,
  EVENT_TOOL_CALL,
  EVENT_TOOL_RESULT,
  EVENT_STAND_IN, /* a file change or a sub-agent start: it shows its call */
  EVENT_API_ERROR,
} EventRole;

typedef struct
{
  gint64      seq;
  gint64      id;
  EventRole   role;
  const char *call_id; /* in the string chunk, or NULL */
  gint64      message_id;
} EventKey;

static EventRole
event_role (const char *kind)
{
  if (kind == NULL)
    return EVENT_OTHER;
  if (g_str_equal (kind, "tool_call"))
    return EVENT_TOOL_CALL;
  if (g_str_equal (kind, "tool_result"))
    return EVENT_TOOL_RESULT;
  if (g_str_equal (kind, "file_change") || g_str_equal (kind, "subagent"))
    return EVENT_STAND_IN;
  if (g_str_equal (kind, "api_error"))
    return EVENT_API_ERROR;
  return EVENT_OTHER;
}

/* Both reads see one snapshot of the store, even with an import committing meanwhile. */
static gboolean
read_event_keys (LoomStore    *self,
                 gint64        session_id,
                 GArray       *events,
                 GStringChunk *strings,
                 GError      **error)
{
  static const char sql[] = "SELECT seq, id, kind, call_id, ifnull (message_id, 0) FROM events"
                            " WHERE session_id = ?1 ORDER BY seq";
  sqlite3_stmt     *stmt;
  int               rc;

  if (!(stmt = loom_store_cached (self, sql, error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, session_id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *call_id = (const char *)sqlite3_column_text (stmt, 3);
      EventKey    key = {
        .seq = sqlite3_column_int64 (stmt, 0),
        .id = sqlite3_column_int64 (stmt, 1),
        .role = event_role ((const char *)sqlite3_column_text (stmt, 2)),
        /* Not _insert_const: it hashes every id to share copies, and ids are nearly unique. */
        .call_id = call_id != NULL ? g_string_chunk_insert (strings, call_id) : NULL,
        .message_id = sqlite3_column_int64 (stmt, 4),
      };

      g_array_append_val (events, key);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "read the timeline");
      return FALSE;
    }
  return TRUE;
}

GArray *
loom_store_read_timeline_keys (LoomStore *self,
                               gint64     session_id,
                               GError   **error)
{
  /* Messages with text, in order; flag 16 is LOOM_MESSAGE_API_ERROR. */
  static const char messages_sql[] = "SELECT seq, id, (flags & 16) <> 0 FROM messages"
                                     " WHERE session_id = ?1 AND text <> '' ORDER BY seq";
  g_autoptr (GArray) keys = NULL;
  g_autoptr (GArray) events = NULL;
  g_autoptr (GHashTable) shown_calls = NULL;
  g_autoptr (GHashTable) stood_in_calls = NULL;
  g_autoptr (GHashTable) reported_messages = NULL;
  GStringChunk *strings = NULL;
  gboolean      own_transaction;
  sqlite3_stmt *stmt = NULL;
  guint         e = 0;
  int           rc = SQLITE_DONE;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  own_transaction = sqlite3_get_autocommit (self->db);
  if (own_transaction && !loom_store_exec (self, "BEGIN", error))
    return NULL;

  /* Filtering here rather than with EXISTS per row: a session's events fit in memory, and one
   * pass over them is several times faster than an index lookup per result. */
  events = g_array_sized_new (FALSE, FALSE, sizeof (EventKey), 1024);
  strings = g_string_chunk_new (64 * 1024);
  if (!read_event_keys (self, session_id, events, strings, error))
    goto out;

  /* A result is shown inside its call, and an edit's or a sub-agent's call inside the file
   * change or the sub-agent start that stands for it: those stay out of the list. A synthetic
   * error message that an api_error event reports already is left out too: the event shows
   * it. */
  shown_calls = g_hash_table_new (g_str_hash, g_str_equal);
  stood_in_calls = g_hash_table_new (g_str_hash, g_str_equal);
  reported_messages = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < events->len; i++)
    {
      EventKey *key = &g_array_index (events, EventKey, i);

      if (key->call_id != NULL && (key->role == EVENT_TOOL_CALL || key->role == EVENT_STAND_IN))
        g_hash_table_add (shown_calls, (gpointer)key->call_id);
      if (key->call_id != NULL && key->role == EVENT_STAND_IN)
        g_hash_table_add (stood_in_calls, (gpointer)key->call_id);
      if (key->role == EVENT_API_ERROR && key->message_id != 0)
        g_hash_table_add (reported_messages, &key->message_id);
    }

  if (!(stmt = loom_store_cached (self, messages_sql, error)))
    goto out;
  sqlite3_bind_int64 (stmt, 1, session_id);

  /* Messages and events merge by seq, which they share. */
  keys = g_array_sized_new (FALSE, FALSE, sizeof (LoomTimelineKey), events->len);
  for (;;)
    {
      gboolean        have_message;
      LoomTimelineKey message = { 0 };

      rc = sqlite3_step (stmt);
      have_message = rc == SQLITE_ROW;
      if (have_message)
        {
          message.seq = sqlite3_column_int64 (stmt, 0);
          message.id = sqlite3_column_int64 (stmt, 1);
          message.is_message = TRUE;
        }

      for (; e < events->len; e++)
        {
          EventKey       *key = &g_array_index (events, EventKey, e);
          LoomTimelineKey event = { key->seq, key->id, FALSE };

          if (have_message && key->seq >= message.seq)
            break;
          if (key->call_id != NULL && ((key->role == EVENT_TOOL_RESULT &&
                                        g_hash_table_contains (shown_calls, key->call_id)) ||
                                       (key->role == EVENT_TOOL_CALL &&
                                        g_hash_table_contains (stood_in_calls, key->call_id))))
            continue;
          g_array_append_val (keys, event);
        }

      if (!have_message)
        break;
      if (sqlite3_column_int (stmt, 2) && g_hash_table_contains (reported_messages, &message.id))
        continue;
      g_array_append_val (keys, message);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "read the timeline");
      g_clear_pointer (&keys, g_array_unref);
    }

out:
  if (own_transaction)
    loom_store_exec (self, "COMMIT", NULL);
  g_string_chunk_free (strings);
  return g_steal_pointer (&keys);
}

GPtrArray *
loom_store_read_timeline_range (LoomStore *self,
                                gint64     session_id,
                                gint64     first_seq,
                                gint64     last_seq,
                                GError   **error)
{
  static const char sql[] = "SELECT * FROM (" ITEM_COLUMNS_MESSAGES
                            " WHERE session_id = ?1 AND seq BETWEEN ?2 AND ?3"
                            " UNION ALL " ITEM_COLUMNS_EVENTS
                            " WHERE session_id = ?1 AND seq BETWEEN ?2 AND ?3"
                            ") ORDER BY 2, 3 DESC, 1";
  sqlite3_stmt     *stmt;
  GPtrArray        *items;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(stmt = loom_store_cached (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_int64 (stmt, 2, first_seq);
  sqlite3_bind_int64 (stmt, 3, last_seq);
  items = read_items (self, stmt, "read the timeline", error);
  sqlite3_reset (stmt);
  return items;
}

GPtrArray *
loom_store_read_tool_results (LoomStore         *self,
                              gint64             session_id,
                              const char *const *call_ids,
                              GError           **error)
{
  /* The ids travel as one JSON array: a statement with a fixed text, whatever their number.
   * No ORDER BY: with one, SQLite walks the whole session in seq order instead of looking each
   * call id up in its index. */
  static const char sql[] = ITEM_COLUMNS_EVENTS
    " WHERE session_id = ?1 AND kind = 'tool_result'"
    "  AND call_id IN (SELECT value FROM json_each (?2))";
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *json = NULL;
  sqlite3_stmt    *stmt;
  GPtrArray       *items;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (call_ids == NULL || call_ids[0] == NULL)
    return g_ptr_array_new_with_free_func (g_object_unref);

  builder = json_builder_new ();
  json_builder_begin_array (builder);
  for (guint i = 0; call_ids[i] != NULL; i++)
    json_builder_add_string_value (builder, call_ids[i]);
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);

  if (!(stmt = loom_store_cached (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_text (stmt, 2, json, -1, SQLITE_STATIC);
  items = read_items (self, stmt, "read the tool results", error);
  sqlite3_reset (stmt);
  return items;
}

char *
loom_store_get_event_payload (LoomStore *self,
                              gint64     event_id,
                              GError   **error)
{
  static const char sql[] = "SELECT payload FROM events WHERE id = ?1";
  sqlite3_stmt     *stmt;
  char             *payload = NULL;
  int               rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(stmt = loom_store_cached (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, event_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    payload = column_strdup (stmt, 0);
  else if (rc == SQLITE_DONE)
    g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No event with row %" G_GINT64_FORMAT,
                 event_id);
  else
    loom_store_set_error (self, error, "read an event");
  sqlite3_reset (stmt);
  return payload;
}

GListModel *
loom_store_list_child_sessions (LoomStore  *self,
                                const char *id,
                                GError    **error)
{
  g_autofree char *sql = NULL;
  g_autoptr (LoomStoreBorrowed) stmt = NULL;
  gint64 rowid;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(rowid = loom_store_resolve_session (self, id, error)))
    return NULL;

  sql = g_strconcat (loom_store_session_select,
                     " WHERE s.parent_session_id = ?1 ORDER BY s.created_at, s.id", NULL);
  if (!(stmt = loom_store_cached_built (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, rowid);

  return loom_store_collect_sessions (self, stmt, "list the sub-agent sessions", error);
}

/* Sub-agents */

/* The object a payload holds, or NULL. A payload is the agent's text: it is read by core's
 * parser, whose depth limit keeps a hostile nesting from exhausting the stack. The object lives
 * in @doc until its next parse. */
static const LoomJson *
parse_object (LoomJsonDoc *doc,
              const char  *json)
{
  const LoomJson *root;
  gsize           length;

  if (json == NULL || (length = strlen (json)) > SUBAGENT_PAYLOAD_LIMIT)
    return NULL;
  root = loom_json_doc_parse (doc, json, length, NULL);
  return loom_json_is_object (root) ? root : NULL;
}

/* Runs @sql with the parent row id as ?1 and @value as ?2; returns the first uuid it gives. */
static char *
match_child (LoomStore  *self,
             const char *sql,
             gint64      parent_id,
             const char *value,
             GError    **error)
{
  sqlite3_stmt *stmt;
  char         *uuid = NULL;
  int           rc;

  if (value == NULL || *value == '\0')
    return NULL;
  if (!(stmt = loom_store_cached (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, parent_id);
  sqlite3_bind_text (stmt, 2, value, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    uuid = column_strdup (stmt, 0);
  else if (rc != SQLITE_DONE)
    loom_store_set_error (self, error, "find a sub-agent's session");
  sqlite3_reset (stmt);
  return uuid;
}

/* The agent id that a Claude Code Task result names (toolUseResult.agentId). */
static char *
result_agent_id (LoomStore  *self,
                 gint64      session_id,
                 const char *call_id,
                 GError    **error)
{
  /* INDEXED BY: for "ORDER BY seq", SQLite would walk the session's events instead. */
  static const char sql[] = "SELECT payload FROM events INDEXED BY events_call"
                            " WHERE session_id = ?1 AND call_id = ?2"
                            "  AND kind = 'tool_result' ORDER BY seq LIMIT 1";
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autofree char *payload = NULL;
  sqlite3_stmt    *stmt;
  const LoomJson  *object;
  int              rc;

  if (call_id == NULL)
    return NULL;
  if (!(stmt = loom_store_cached (self, sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, session_id);
  sqlite3_bind_text (stmt, 2, call_id, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    payload = column_strdup (stmt, 0);
  else if (rc != SQLITE_DONE)
    loom_store_set_error (self, error, "read a sub-agent's result");
  sqlite3_reset (stmt);

  if (!(object = parse_object (doc, payload)))
    return NULL;
  return g_strdup (
    loom_json_member_string (loom_json_member_object (object, "toolUseResult"), "agentId"));
}

char *
loom_store_find_subagent_session (LoomStore *self,
                                  gint64     event_id,
                                  GError   **error)
{
  static const char event_sql[] = "SELECT session_id, call_id, payload FROM events WHERE id = ?1";
  /* A Codex thread id is the child's own session id; Claude Code names agent files after the
   * agent id; a 1.0 sidechain is only known by the prompt it was given. */
  static const char by_thread_sql[] =
    "SELECT uuid FROM sessions WHERE parent_session_id = ?1"
    "  AND (source_session_id = ?2 OR substr (source_session_id, -length (?2) - 1) = '/' || ?2)"
    " ORDER BY id LIMIT 1";
  static const char by_agent_sql[] =
    "SELECT uuid FROM sessions WHERE parent_session_id = ?1"
    "  AND substr (source_session_id, -length (?2) - 7) = '/agent-' || ?2"
    " ORDER BY id LIMIT 1";
  static const char by_prompt_sql[] =
    "SELECT s.uuid FROM sessions s WHERE s.parent_session_id = ?1"
    "  AND (SELECT trim (m.text) FROM messages m WHERE m.session_id = s.id AND m.role = 'user'"
    "       ORDER BY m.seq LIMIT 1) = trim (?2)"
    " ORDER BY s.id LIMIT 1";
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autofree char *call_id = NULL;
  g_autofree char *payload = NULL;
  g_autofree char *agent_id = NULL;
  GError          *local_error = NULL;
  sqlite3_stmt    *stmt;
  const LoomJson  *object;
  gint64           session_id = 0;
  char            *uuid;
  int              rc;

  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);

  if (!(stmt = loom_store_cached (self, event_sql, error)))
    return NULL;
  sqlite3_bind_int64 (stmt, 1, event_id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      session_id = sqlite3_column_int64 (stmt, 0);
      call_id = column_strdup (stmt, 1);
      payload = column_strdup (stmt, 2);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW)
    {
      if (rc == SQLITE_DONE)
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND, "No event with row %" G_GINT64_FORMAT,
                     event_id);
      else
        loom_store_set_error (self, error, "read an event");
      return NULL;
    }

  object = parse_object (doc, payload);

  uuid = match_child (self, by_thread_sql, session_id,
                      loom_json_member_string (object, "agent_thread_id"), &local_error);
  if (uuid == NULL && local_error == NULL)
    {
      agent_id = result_agent_id (self, session_id, call_id, &local_error);
      if (local_error == NULL)
        uuid = match_child (self, by_agent_sql, session_id, agent_id, &local_error);
    }
  if (uuid == NULL && local_error == NULL)
    uuid = match_child (self, by_prompt_sql, session_id, loom_json_member_string (object, "prompt"),
                        &local_error);

  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      g_clear_pointer (&uuid, g_free);
    }
  return uuid;
}
