/* loom-schema.c — the schema's versions and the migration runner.
 *
 * Each migration is one step from version N-1 to N. They run in a single transaction, so a
 * failure leaves the store exactly as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"
#include "loom-schema.h"
#include "loom-event-kinds.h"
#include "loom-search-index.h"
#include "loom-store.h"

/* The search index is derived data. Rows map to base rows through their rowid so that the
 * triggers can delete an entry without scanning the index. Version 1 mapped message m → 4·m,
 * event e → 4·e + 1, session title s → 4·s + 2; version 2 uses ranges (loom-search-index.h). */
#define INDEX_BODY_LIMIT "65536"

#define SEARCH_INDEX_TABLE_V1 \
  "CREATE VIRTUAL TABLE search_index USING fts5 (" \
  "  title, body, session_id UNINDEXED, kind UNINDEXED, created_at UNINDEXED," \
  "  tokenize = 'loom'" \
  ");"

/* Facets are words that filters look for (loom-search-index.h). The unindexed columns come
 * first: a search reads them for every candidate, and after a long body they would sit on its
 * last overflow page, reached only by walking the chain. */
#define SEARCH_INDEX_TABLE_V2 \
  "CREATE VIRTUAL TABLE search_index USING fts5 (" \
  "  session_id UNINDEXED, kind UNINDEXED, created_at UNINDEXED, title, body, facets," \
  "  tokenize = 'loom'" \
  ");"

static const char schema_v1[] =
  "CREATE TABLE projects ("
  "  id INTEGER PRIMARY KEY,"
  "  path TEXT NOT NULL UNIQUE,"
  "  name TEXT NOT NULL,"
  "  created_at INTEGER NOT NULL DEFAULT 0"
  ");"

  "CREATE TABLE folders ("
  "  id INTEGER PRIMARY KEY,"
  "  name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),"
  "  position INTEGER NOT NULL DEFAULT 0,"
  "  created_at INTEGER NOT NULL DEFAULT 0"
  ");"

  "CREATE TABLE sessions ("
  "  id INTEGER PRIMARY KEY,"
  "  uuid TEXT NOT NULL UNIQUE,"
  "  title TEXT NOT NULL DEFAULT '',"
  "  title_locked INTEGER NOT NULL DEFAULT 0," /* a person chose it: imports keep it */
  "  agent_title TEXT,"                        /* the agent's own name for the session */
  "  source TEXT NOT NULL,"
  "  source_path TEXT,"
  "  source_session_id TEXT,"
  "  source_missing INTEGER NOT NULL DEFAULT 0,"
  "  project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,"
  "  cwd TEXT,"
  "  git_branch TEXT,"
  "  git_commit TEXT,"
  "  agent_version TEXT,"
  "  agent_mode TEXT,"
  "  selected_agent_id TEXT,"
  "  model TEXT,"
  "  models TEXT NOT NULL DEFAULT '[]',"
  "  created_at INTEGER NOT NULL DEFAULT 0,"
  "  updated_at INTEGER NOT NULL DEFAULT 0,"
  "  last_opened_at INTEGER NOT NULL DEFAULT 0,"
  "  archived_at INTEGER NOT NULL DEFAULT 0,"
  "  trashed_at INTEGER NOT NULL DEFAULT 0,"
  "  message_count INTEGER NOT NULL DEFAULT 0,"
  "  event_count INTEGER NOT NULL DEFAULT 0,"
  "  folder_id INTEGER REFERENCES folders(id) ON DELETE SET NULL,"
  "  pinned INTEGER NOT NULL DEFAULT 0,"
  "  archived INTEGER NOT NULL DEFAULT 0,"
  "  session_type TEXT NOT NULL DEFAULT 'main',"
  "  fork_source_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,"
  "  parent_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,"
  "  task_objective TEXT,"
  "  task_status TEXT,"
  "  tools_used TEXT NOT NULL DEFAULT '{}',"
  "  tokens_input INTEGER NOT NULL DEFAULT 0,"
  "  tokens_output INTEGER NOT NULL DEFAULT 0,"
  "  tokens_cache_read INTEGER NOT NULL DEFAULT 0,"
  "  tokens_cache_creation INTEGER NOT NULL DEFAULT 0,"
  "  n_user_messages INTEGER NOT NULL DEFAULT 0,"
  "  n_assistant_messages INTEGER NOT NULL DEFAULT 0,"
  "  n_tool_calls INTEGER NOT NULL DEFAULT 0,"
  "  n_tool_results INTEGER NOT NULL DEFAULT 0,"
  "  n_tool_errors INTEGER NOT NULL DEFAULT 0,"
  "  n_reasoning INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE UNIQUE INDEX sessions_source_id ON sessions (source, source_session_id)"
  "  WHERE source_session_id IS NOT NULL;"
  "CREATE INDEX sessions_updated ON sessions (updated_at DESC);"
  /* The collections (All, Recent, Active, Archived, Trash) are ranges of this one. */
  "CREATE INDEX sessions_collection ON sessions (trashed_at, archived, updated_at);"
  "CREATE INDEX sessions_created ON sessions (created_at DESC);"
  "CREATE INDEX sessions_folder ON sessions (folder_id) WHERE folder_id IS NOT NULL;"
  "CREATE INDEX sessions_parent ON sessions (parent_session_id)"
  "  WHERE parent_session_id IS NOT NULL;"
  "CREATE INDEX sessions_fork ON sessions (fork_source_session_id)"
  "  WHERE fork_source_session_id IS NOT NULL;"
  "CREATE INDEX sessions_project ON sessions (project_id);"
  /* A file read again clears what it gave before, found by its path. */
  "CREATE INDEX sessions_source_path ON sessions (source_path) WHERE source_path IS NOT NULL;"

  /* seq orders messages and events together in one timeline. */
  "CREATE TABLE messages ("
  "  id INTEGER PRIMARY KEY,"
  "  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
  "  seq INTEGER NOT NULL,"
  "  role TEXT NOT NULL,"
  "  flags INTEGER NOT NULL DEFAULT 0,"
  "  source_id TEXT,"
  "  model TEXT,"
  "  created_at INTEGER NOT NULL DEFAULT 0,"
  "  text TEXT NOT NULL DEFAULT '',"
  "  input_tokens INTEGER," /* usage of this model response, if known */
  "  output_tokens INTEGER,"
  "  cache_read_tokens INTEGER,"
  "  cache_creation_tokens INTEGER"
  ");"
  "CREATE INDEX messages_session ON messages (session_id, seq);"
  "CREATE UNIQUE INDEX messages_source ON messages (session_id, source_id)"
  "  WHERE source_id IS NOT NULL;"

  "CREATE TABLE events ("
  "  id INTEGER PRIMARY KEY,"
  "  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
  "  seq INTEGER NOT NULL,"
  "  kind TEXT NOT NULL,"
  "  message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,"
  "  call_id TEXT,"
  "  tool_name TEXT,"
  "  is_error INTEGER NOT NULL DEFAULT 0,"
  "  path TEXT,"
  "  change_kind TEXT,"
  "  source_id TEXT,"
  "  created_at INTEGER NOT NULL DEFAULT 0,"
  "  text TEXT NOT NULL DEFAULT ''," /* bounded, for display and search */
  "  payload TEXT,"                  /* complete, for export */
  "  payload_size INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE INDEX events_session ON events (session_id, seq);"
  "CREATE INDEX events_call ON events (session_id, call_id) WHERE call_id IS NOT NULL;"
  "CREATE UNIQUE INDEX events_source ON events (session_id, kind, source_id)"
  "  WHERE source_id IS NOT NULL;"

  "CREATE TABLE artifacts ("
  "  id INTEGER PRIMARY KEY,"
  "  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
  "  path TEXT NOT NULL,"
  "  kind TEXT NOT NULL DEFAULT 'file',"
  "  size INTEGER NOT NULL DEFAULT 0,"
  "  sha256 TEXT,"
  "  content BLOB,"
  "  created_at INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE INDEX artifacts_session ON artifacts (session_id);"

  "CREATE TABLE summaries ("
  "  id INTEGER PRIMARY KEY,"
  "  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
  "  kind TEXT NOT NULL DEFAULT 'summary',"
  "  text TEXT NOT NULL,"
  "  model TEXT,"
  "  created_at INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE INDEX summaries_session ON summaries (session_id);"

  /* One cursor per agent file: enough to tell an append from a rewrite. */
  "CREATE TABLE import_cursors ("
  "  source_path TEXT PRIMARY KEY,"
  "  source TEXT NOT NULL,"
  "  session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,"
  "  device INTEGER NOT NULL DEFAULT 0,"
  "  inode INTEGER NOT NULL DEFAULT 0,"
  "  size INTEGER NOT NULL DEFAULT 0,"
  "  mtime INTEGER NOT NULL DEFAULT 0,"
  "  offset INTEGER NOT NULL DEFAULT 0,"
  "  line INTEGER NOT NULL DEFAULT 0,"
  "  prefix_hash TEXT,"
  "  state TEXT,"
  "  updated_at INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE INDEX import_cursors_session ON import_cursors (session_id);"

  /* A session deleted for good is remembered so that the next import does not bring it back. */
  "CREATE TABLE tombstones ("
  "  source TEXT NOT NULL,"
  "  source_session_id TEXT NOT NULL,"
  "  deleted_at INTEGER NOT NULL,"
  "  PRIMARY KEY (source, source_session_id)"
  ") WITHOUT ROWID;"

  /* The tokenizer is ours (loom-search-tokenizer.c): unicode61 with diacritics folded, text
   * without spaces split per character, camelCase indexed by its parts. */
  SEARCH_INDEX_TABLE_V1

  "CREATE TRIGGER messages_index_insert AFTER INSERT ON messages BEGIN"
  "  INSERT INTO search_index (rowid, title, body, session_id, kind, created_at)"
  "  VALUES (new.id * 4, '', substr (new.text, 1, " INDEX_BODY_LIMIT "), new.session_id,"
  "          'message:' || new.role, new.created_at);"
  "END;"
  "CREATE TRIGGER messages_index_delete AFTER DELETE ON messages BEGIN"
  "  DELETE FROM search_index WHERE rowid = old.id * 4;"
  "END;"
  /* Streamed records touch a message many times without changing its text: no reindexing. */
  "CREATE TRIGGER messages_index_update AFTER UPDATE OF text, role ON messages"
  "  WHEN old.text IS NOT new.text OR old.role IS NOT new.role BEGIN"
  "  DELETE FROM search_index WHERE rowid = old.id * 4;"
  "  INSERT INTO search_index (rowid, title, body, session_id, kind, created_at)"
  "  VALUES (new.id * 4, '', substr (new.text, 1, " INDEX_BODY_LIMIT "), new.session_id,"
  "          'message:' || new.role, new.created_at);"
  "END;"

  "CREATE TRIGGER events_index_insert AFTER INSERT ON events BEGIN"
  "  INSERT INTO search_index (rowid, title, body, session_id, kind, created_at)"
  "  VALUES (new.id * 4 + 1, '',"
  "          substr (ifnull (new.tool_name, '') || ' ' || ifnull (new.path, '') || ' ' || new.text, 1, " INDEX_BODY_LIMIT
  "),"
  "          new.session_id, 'event:' || new.kind, new.created_at);"
  "END;"
  "CREATE TRIGGER events_index_delete AFTER DELETE ON events BEGIN"
  "  DELETE FROM search_index WHERE rowid = old.id * 4 + 1;"
  "END;"
  "CREATE TRIGGER events_index_update AFTER UPDATE OF text, tool_name, path ON events"
  "  WHEN old.text IS NOT new.text OR old.tool_name IS NOT new.tool_name"
  "    OR old.path IS NOT new.path BEGIN"
  "  DELETE FROM search_index WHERE rowid = old.id * 4 + 1;"
  "  INSERT INTO search_index (rowid, title, body, session_id, kind, created_at)"
  "  VALUES (new.id * 4 + 1, '',"
  "          substr (ifnull (new.tool_name, '') || ' ' || ifnull (new.path, '') || ' ' || new.text, 1, " INDEX_BODY_LIMIT
  "),"
  "          new.session_id, 'event:' || new.kind, new.created_at);"
  "END;"

  "CREATE TRIGGER sessions_index_insert AFTER INSERT ON sessions BEGIN"
  "  INSERT INTO search_index (rowid, title, body, session_id, kind, created_at)"
  "  VALUES (new.id * 4 + 2, new.title, '', new.id, 'title', new.created_at);"
  "END;"
  "CREATE TRIGGER sessions_index_delete AFTER DELETE ON sessions BEGIN"
  "  DELETE FROM search_index WHERE rowid = old.id * 4 + 2;"
  "END;"
  "CREATE TRIGGER sessions_index_update AFTER UPDATE OF title ON sessions"
  "  WHEN old.title IS NOT new.title BEGIN"
  "  DELETE FROM search_index WHERE rowid = old.id * 4 + 2;"
  "  INSERT INTO search_index (rowid, title, body, session_id, kind, created_at)"
  "  VALUES (new.id * 4 + 2, new.title, '', new.id, 'title', new.created_at);"
  "END;";

/* What an index entry holds for each kind of base row; shared by the triggers, the bulk
 * indexing at the end of an import batch and the rebuild. */
#define AGENT_FACET(session) \
  "' " LOOM_FACET_AGENT "' || (SELECT source FROM sessions WHERE sessions.id = " session ")"
#define TITLE_ENTRY_COLUMNS \
  "title, '', '" LOOM_FACET_KIND "title " LOOM_FACET_AGENT "' || source, id, 'title', created_at"
#define MESSAGE_ENTRY_COLUMNS \
  "'', substr (text, 1, " INDEX_BODY_LIMIT ")," \
  " '" LOOM_FACET_KIND "' || role || " AGENT_FACET ( \
    "messages.session_id") " ||" \
                           "   (CASE WHEN flags & 16 != 0 THEN ' " LOOM_FACET_ERROR \
                           "' ELSE '' END)," \
                           " session_id, 'message:' || role, created_at"
/* A tool's result names its tool only through the call it answers. */
#define EVENT_TOOL \
  "lower (coalesce (tool_name, (SELECT c.tool_name FROM events c" \
  "  WHERE c.session_id = events.session_id AND c.call_id = events.call_id" \
  "    AND c.kind = 'tool_call' AND events.call_id IS NOT NULL)))"
#define EVENT_ENTRY_COLUMNS \
  "'', substr (ifnull (tool_name, '') || ' ' || ifnull (path, '') || ' ' || text, 1, " INDEX_BODY_LIMIT \
  ")," \
  " '" LOOM_FACET_KIND "' || kind || " AGENT_FACET ( \
    "events.session_id") " ||" \
                         "   ifnull (' " LOOM_FACET_TOOL "' || " EVENT_TOOL ", '') ||" \
                         "   (CASE WHEN is_error = 1 OR kind = 'api_error' THEN ' " LOOM_FACET_ERROR \
                         "' ELSE '' END)," \
                         " session_id, 'event:' || kind, created_at"
#define ENTRY_INSERT \
  "INSERT INTO search_index (rowid, title, body, facets, session_id, kind, created_at) "
#define MESSAGES_FROM LOOM_INDEX_MESSAGES_FROM_SQL
#define TITLES_FROM   LOOM_INDEX_TITLES_FROM_SQL

/* Version 2: two indexes for the sidebar's counts, and three changes to the search index.
 *
 * Filters that are properties of the entry itself (its kind, agent and tool, an error) are
 * also words of a third column, facets, so that "error agent:codex" is one FTS5 query rather
 * than reading every entry with "error" to look at its session.
 *
 * Entries get their rowid in three ranges (loom-search-index.h): events, then messages, then
 * session titles, each in the order of its base table. The first page of a search for a
 * common word reads the newest entries of each range, which FTS5 seeks to directly; with
 * v1's interleaved 4·id + kind, finding the newest messages meant reading past every event.
 *
 * Imports index in bulk. FTS5 flushes its pending terms at the end of every statement inside
 * a savepoint, so indexing a row per trigger wrote and merged a tiny segment per record —
 * about half of the import's time. During an import batch, index_deferred holds the last
 * message and event ids indexed before the batch; the triggers leave newer rows alone and
 * loom_store_commit_indexed () indexes them in bulk before the batch commits, so no reader
 * ever sees a row without its entry. Rows of the batch never hit the index twice either,
 * however often streamed records update them. */
#define NOT_DEFERRED(base) \
  "NOT EXISTS (SELECT 1 FROM index_deferred WHERE base = '" base "' AND new.id > after_id)"

G_STATIC_ASSERT (LOOM_MESSAGE_API_ERROR == 16)
; /* in MESSAGE_ENTRY_COLUMNS */

static const char schema_v2[] =
  /* The sidebar counts Pinned and each folder at start-up; without these, both read every
   * session (51 ms of 100,000 for Pinned). */
  "CREATE INDEX sessions_pinned ON sessions (trashed_at, updated_at) WHERE pinned = 1;"
  "DROP INDEX sessions_folder;"
  "CREATE INDEX sessions_folder ON sessions (folder_id, trashed_at, archived, updated_at)"
  "  WHERE folder_id IS NOT NULL;"

  "CREATE TABLE index_deferred ("
  "  base TEXT PRIMARY KEY," /* 'messages' or 'events' */
  "  after_id INTEGER NOT NULL"
  ") WITHOUT ROWID;"

  "DROP TRIGGER messages_index_insert;"
  "DROP TRIGGER messages_index_update;"
  "DROP TRIGGER messages_index_delete;"
  "DROP TRIGGER events_index_insert;"
  "DROP TRIGGER events_index_update;"
  "DROP TRIGGER events_index_delete;"
  "DROP TRIGGER sessions_index_insert;"
  "DROP TRIGGER sessions_index_update;"
  "DROP TRIGGER sessions_index_delete;"

  "CREATE TRIGGER messages_index_insert AFTER INSERT ON messages"
  "  WHEN " NOT_DEFERRED (
    "messages") " BEGIN"
                "  " ENTRY_INSERT "SELECT " MESSAGES_FROM " + id, " MESSAGE_ENTRY_COLUMNS
                " FROM messages WHERE id = new.id;"
                "END;"
                "CREATE TRIGGER messages_index_delete AFTER DELETE ON messages BEGIN"
                "  DELETE FROM search_index WHERE rowid = " MESSAGES_FROM " + old.id;"
                "END;"
                /* Streamed records touch a message many times without changing its text: no reindexing. */
                "CREATE TRIGGER messages_index_update AFTER UPDATE OF text, role, flags ON messages"
                "  WHEN (old.text IS NOT new.text OR old.role IS NOT new.role OR old.flags IS NOT new.flags)"
                "   AND " NOT_DEFERRED (
                  "messages") " BEGIN"
                              "  DELETE FROM search_index WHERE rowid = " MESSAGES_FROM " + old.id;"
                              "  " ENTRY_INSERT "SELECT " MESSAGES_FROM
                              " + id, " MESSAGE_ENTRY_COLUMNS " FROM messages WHERE id = new.id;"
                              "END;"

                              "CREATE TRIGGER events_index_insert AFTER INSERT ON events"
                              "  WHEN " NOT_DEFERRED (
                                "events") " BEGIN"
                                          "  " ENTRY_INSERT "SELECT id, " EVENT_ENTRY_COLUMNS
                                          " FROM events"
                                          "  WHERE id = new.id;"
                                          "END;"
                                          "CREATE TRIGGER events_index_delete AFTER DELETE ON events BEGIN"
                                          "  DELETE FROM search_index WHERE rowid = old.id;"
                                          "END;"
                                          "CREATE TRIGGER events_index_update AFTER UPDATE OF text, tool_name, path, is_error ON events"
                                          "  WHEN (old.text IS NOT new.text OR old.tool_name IS NOT new.tool_name"
                                          "        OR old.path IS NOT new.path OR old.is_error IS NOT new.is_error)"
                                          "   AND " NOT_DEFERRED (
                                            "events") " BEGIN"
                                                      "  DELETE FROM search_index WHERE rowid = old.id;"
                                                      "  " ENTRY_INSERT
                                                      "SELECT id, " EVENT_ENTRY_COLUMNS
                                                      " FROM events"
                                                      "  WHERE id = new.id;"
                                                      "END;"

                                                      "CREATE TRIGGER sessions_index_insert AFTER INSERT ON sessions BEGIN"
                                                      "  " ENTRY_INSERT "SELECT " TITLES_FROM
                                                      " + id, " TITLE_ENTRY_COLUMNS " FROM sessions"
                                                      "  WHERE id = new.id;"
                                                      "END;"
                                                      "CREATE TRIGGER sessions_index_delete AFTER DELETE ON sessions BEGIN"
                                                      "  DELETE FROM search_index WHERE rowid = " TITLES_FROM
                                                      " + old.id;"
                                                      "END;"
                                                      "CREATE TRIGGER sessions_index_update AFTER UPDATE OF title ON sessions"
                                                      "  WHEN old.title IS NOT new.title BEGIN"
                                                      "  DELETE FROM search_index WHERE rowid = " TITLES_FROM
                                                      " + old.id;"
                                                      "  " ENTRY_INSERT "SELECT " TITLES_FROM
                                                      " + id, " TITLE_ENTRY_COLUMNS " FROM sessions"
                                                      "  WHERE id = new.id;"
                                                      "END;"

                                                      /* Every entry moves to its new rowid: a new index is faster than deleting entries one by
   * one from the old. */
                                                      "DROP TABLE search_index;" SEARCH_INDEX_TABLE_V2 ENTRY_INSERT
                                                      "SELECT id, " EVENT_ENTRY_COLUMNS
                                                      " FROM events;" ENTRY_INSERT
                                                      "SELECT " MESSAGES_FROM
                                                      " + id, " MESSAGE_ENTRY_COLUMNS
                                                      " FROM messages;" ENTRY_INSERT
                                                      "SELECT " TITLES_FROM
                                                      " + id, " TITLE_ENTRY_COLUMNS
                                                      " FROM sessions;";

/* Version 3: a contentless index. Version 2's FTS5 table kept its own copy of every entry's
 * text (557 MB of a 2.5 GB store made from a 1.5 GB corpus), written again by every import
 * and read whole — overflow pages and all — whenever a search looked at a candidate's kind or
 * session. The text is in the base tables already; the index now holds only the words
 * (content = '', and no column sizes, which nothing ranks by), and search_entries, a narrow
 * table, holds what a search needs of each entry before it has chosen its page: the session,
 * the kind, the time.
 *
 * A contentless FTS5 table forgets an entry only when told the exact text it was made from.
 * The base row's old values give the title and body, but the facets come from other rows too
 * (the session's agent, the call a result answers) that may be gone by then — a session's
 * messages are deleted after the session — so search_entries keeps each entry's facets.
 *
 * The kind of a message that is not a person's prompt (injected context, commands) is
 * 'message:context', so that ranking and role:user need not read the message. */
#define NOT_A_PROMPT_SQL "31"
G_STATIC_ASSERT (LOOM_MESSAGE_NOT_A_PROMPT == 31)
;

#define SEARCH_INDEX_TABLE_V3 \
  "CREATE VIRTUAL TABLE search_index USING fts5 (" \
  "  title, body, facets, content = '', columnsize = 0, tokenize = 'loom'" \
  ");"

/* The index's terms, for prefix queries (loom-search-terms.h); head: for a camelCase or
 * numbered word indexed whole (parserWrite, parser1073), the length of its first part, else 0. */
#define SEARCH_TERMS_TABLE \
  "CREATE TABLE search_terms (" \
  "  term TEXT PRIMARY KEY," \
  "  head INTEGER NOT NULL DEFAULT 0" \
  ") WITHOUT ROWID;"

/* Fills search_terms from the index itself, where the tokenizer could not note them. */
#define SEARCH_TERMS_FROM_INDEX \
  "CREATE VIRTUAL TABLE temp.loom_vocabulary USING fts5vocab (main, search_index, row);" \
  "INSERT OR IGNORE INTO search_terms (term) SELECT term FROM temp.loom_vocabulary;" \
  "DROP TABLE temp.loom_vocabulary;"

#define SEARCH_ENTRIES_TABLE \
  "CREATE TABLE search_entries (" \
  "  id INTEGER PRIMARY KEY," /* the entry's rowid in search_index */ \
  "  session_id INTEGER NOT NULL," \
  "  kind TEXT NOT NULL," \
  "  created_at INTEGER NOT NULL," /* 0 for titles: the session's own, read when needed */ \
  "  facets TEXT NOT NULL" \
  ");"

#define MESSAGE_BODY LOOM_INDEX_MESSAGE_BODY
#define EVENT_BODY   LOOM_INDEX_EVENT_BODY

/* An entry's row in search_entries, then its words, for the base rows the caller's WHERE
 * clause picks (the words reuse the facets just written). CROSS JOIN keeps the base table the
 * outer loop: SQLite would otherwise walk search_entries from the batch's first id, through
 * every message and title entry. */
#define MESSAGE_ENTRY_INSERT \
  "INSERT INTO search_entries (id, session_id, kind, created_at, facets)" \
  " SELECT " MESSAGES_FROM " + id, session_id," \
  "  'message:' || (CASE WHEN role = 'user' AND flags & " NOT_A_PROMPT_SQL " != 0" \
  "                 THEN 'context' ELSE role END), created_at," \
  "  '" LOOM_FACET_KIND "' || role || " AGENT_FACET ( \
    "messages.session_id") " ||" \
                           "   (CASE WHEN flags & 16 != 0 THEN ' " LOOM_FACET_ERROR \
                           "' ELSE '' END)" \
                           " FROM messages "
#define WORDS_INTO "INSERT INTO search_index (rowid, title, body, facets)"
#define MESSAGE_WORDS \
  " SELECT x.id, '', " MESSAGE_BODY ("m") ", x.facets FROM messages m" \
                                          " CROSS JOIN search_entries x ON x.id = " MESSAGES_FROM \
                                          " + m.id "
#define MESSAGE_WORDS_INSERT WORDS_INTO MESSAGE_WORDS
#define EVENT_ENTRY_INSERT \
  "INSERT INTO search_entries (id, session_id, kind, created_at, facets)" \
  " SELECT id, session_id, 'event:' || kind, created_at," \
  "  '" LOOM_FACET_KIND "' || kind || " AGENT_FACET ( \
    "events.session_id") " ||" \
                         "   ifnull (' " LOOM_FACET_TOOL "' || " EVENT_TOOL ", '') ||" \
                         "   (CASE WHEN is_error = 1 OR kind = 'api_error' THEN ' " LOOM_FACET_ERROR \
                         "' ELSE '' END)" \
                         " FROM events "
#define EVENT_WORDS \
  " SELECT x.id, '', " EVENT_BODY ("e") ", x.facets FROM events e" \
                                        " CROSS JOIN search_entries x ON x.id = e.id "
#define EVENT_WORDS_INSERT WORDS_INTO EVENT_WORDS
#define TITLE_ENTRY_INSERT \
  "INSERT INTO search_entries (id, session_id, kind, created_at, facets)" \
  " SELECT " TITLES_FROM " + id, id, 'title', 0," \
  "  '" LOOM_FACET_KIND "title " LOOM_FACET_AGENT "' || source FROM sessions "
#define TITLE_WORDS \
  " SELECT x.id, s.title, '', x.facets FROM sessions s" \
  " CROSS JOIN search_entries x ON x.id = " TITLES_FROM " + s.id "
#define TITLE_WORDS_INSERT WORDS_INTO TITLE_WORDS

/* Forgetting the entry of base row @id made from @title and @body: a no-op for a row never
 * indexed (one added and removed inside the same import batch). */
#define ENTRY_FORGET(id, title, body) \
  "INSERT INTO search_index (search_index, rowid, title, body, facets)" \
  " SELECT 'delete', id, " title ", " body ", facets FROM search_entries WHERE id = " id ";" \
  "DELETE FROM search_entries WHERE id = " id ";"

static const char schema_v3[] =
  "DROP TRIGGER messages_index_insert;"
  "DROP TRIGGER messages_index_update;"
  "DROP TRIGGER messages_index_delete;"
  "DROP TRIGGER events_index_insert;"
  "DROP TRIGGER events_index_update;"
  "DROP TRIGGER events_index_delete;"
  "DROP TRIGGER sessions_index_insert;"
  "DROP TRIGGER sessions_index_update;"
  "DROP TRIGGER sessions_index_delete;"
  "DROP TABLE search_index;" SEARCH_INDEX_TABLE_V3 SEARCH_ENTRIES_TABLE SEARCH_TERMS_TABLE

  "CREATE TRIGGER messages_index_insert AFTER INSERT ON messages"
  "  WHEN " NOT_DEFERRED (
    "messages") " BEGIN"
                "  " MESSAGE_ENTRY_INSERT "WHERE id = new.id;"
                "  " MESSAGE_WORDS_INSERT "WHERE m.id = new.id;"
                "END;"
                "CREATE TRIGGER messages_index_delete AFTER DELETE ON messages BEGIN"
                "  " ENTRY_FORGET (
                  MESSAGES_FROM " + old.id",
                  "''",
                  MESSAGE_BODY (
                    "old")) "END;"
                            /* Streamed records touch a message many times without changing its text: no reindexing. */
                            "CREATE TRIGGER messages_index_update AFTER UPDATE OF text, role, flags ON messages"
                            "  WHEN (old.text IS NOT new.text OR old.role IS NOT new.role OR old.flags IS NOT new.flags)"
                            "   AND " NOT_DEFERRED (
                              "messages") " BEGIN"
                                          "  " ENTRY_FORGET (
                                            MESSAGES_FROM " + old.id",
                                            "''",
                                            MESSAGE_BODY (
                                              "old")) "  " MESSAGE_ENTRY_INSERT "WHERE id = new.id;"
                                                      "  " MESSAGE_WORDS_INSERT
                                                      "WHERE m.id = new.id;"
                                                      "END;"

                                                      "CREATE TRIGGER events_index_insert AFTER INSERT ON events"
                                                      "  WHEN " NOT_DEFERRED (
                                                        "events") " BEGIN"
                                                                  "  " EVENT_ENTRY_INSERT
                                                                  "WHERE id = new.id;"
                                                                  "  " EVENT_WORDS_INSERT
                                                                  "WHERE e.id = new.id;"
                                                                  "END;"
                                                                  "CREATE TRIGGER events_index_delete AFTER DELETE ON events BEGIN"
                                                                  "  " ENTRY_FORGET (
                                                                    "old.id",
                                                                    "''",
                                                                    EVENT_BODY (
                                                                      "old")) "END;"
                                                                              "CREATE TRIGGER events_index_update AFTER UPDATE OF text, tool_name, path, is_error ON events"
                                                                              "  WHEN (old.text IS NOT new.text OR old.tool_name IS NOT new.tool_name"
                                                                              "        OR old.path IS NOT new.path OR old.is_error IS NOT new.is_error)"
                                                                              "   AND " NOT_DEFERRED (
                                                                                "events") " BEGIN"
                                                                                          "  " ENTRY_FORGET (
                                                                                            "old.id",
                                                                                            "''",
                                                                                            EVENT_BODY (
                                                                                              "old")) "  " EVENT_ENTRY_INSERT
                                                                                                      "WHERE id = new.id;"
                                                                                                      "  " EVENT_WORDS_INSERT
                                                                                                      "WHERE e.id = new.id;"
                                                                                                      "END;"

                                                                                                      "CREATE TRIGGER sessions_index_insert AFTER INSERT ON sessions BEGIN"
                                                                                                      "  " TITLE_ENTRY_INSERT
                                                                                                      "WHERE id = new.id;"
                                                                                                      "  " TITLE_WORDS_INSERT
                                                                                                      "WHERE s.id = new.id;"
                                                                                                      "END;"
                                                                                                      "CREATE TRIGGER sessions_index_delete AFTER DELETE ON sessions BEGIN"
                                                                                                      "  " ENTRY_FORGET (
                                                                                                        TITLES_FROM
                                                                                                        " + old.id",
                                                                                                        "old.title",
                                                                                                        "''") "END;"
                                                                                                              "CREATE TRIGGER sessions_index_update AFTER UPDATE OF title ON sessions"
                                                                                                              "  WHEN old.title IS NOT new.title BEGIN"
                                                                                                              "  " ENTRY_FORGET (
                                                                                                                TITLES_FROM
                                                                                                                " + old.id",
                                                                                                                "old.title",
                                                                                                                "''") "  " TITLE_ENTRY_INSERT
                                                                                                                      "WHERE id = new.id;"
                                                                                                                      "  " TITLE_WORDS_INSERT
                                                                                                                      "WHERE s.id = new.id;"
                                                                                                                      "END;"

  /* In rowid order, events then messages then titles: FTS5 writes out what it holds whenever
   * a rowid goes down. */
  EVENT_ENTRY_INSERT ";" EVENT_WORDS_INSERT ";" MESSAGE_ENTRY_INSERT ";" MESSAGE_WORDS_INSERT ";" TITLE_ENTRY_INSERT ";" TITLE_WORDS_INSERT
                                                                                                                      ";"
                                                                                                                      "INSERT INTO search_index (search_index) VALUES ('optimize');" SEARCH_TERMS_FROM_INDEX;

/* Version 4: an index for the events of a message, and session titles indexed with the
 * batch too.
 *
 * Each new session wrote its title to the index at once, and again when the import named it.
 * From then on FTS5 was part of the transaction, and every later statement that opened a
 * savepoint (any insert into a table with a unique index) made it write what it held as a
 * segment of its own: a tenth of an import's time.
 *
 * Sessions added during the batch are indexed at its end like messages and events. A session
 * from before the batch that is renamed during it (a sub-agent's placeholder parent, named
 * when the parent's own file comes) is noted in index_retitled with the title its entry was
 * made from, which is what FTS5 needs to forget the entry; the batch's end re-indexes it. */
#define BATCH_RUNNING      "EXISTS (SELECT 1 FROM index_deferred WHERE base = 'sessions')"
#define RETITLED_TITLE(id) "(SELECT title FROM index_retitled WHERE id = " id ")"

/* FTS5 writes what it holds as a new segment whenever its pending terms pass 1 MB, and
 * merges those segments later: an import's batch made many small ones. With 16 MB it writes
 * fewer, larger ones (200 MB corpus: 12.0 s -> 11.1 s); they still go out at every commit,
 * so the memory is held only during a batch. A rebuild makes the table anew and sets it again. */
#define SEARCH_INDEX_CONFIG \
  "INSERT INTO search_index (search_index, rank) VALUES ('hashsize', 16777216);"

static const char schema_v4[] = SEARCH_INDEX_CONFIG
  /* Deleting a message sets its events' message_id to NULL (a foreign key), and without an
   * index SQLite found those events by reading the whole events table: a second per message
   * of a 2 GB store, when a rewritten file was read again or a session deleted for good. */
  "CREATE INDEX events_message ON events (message_id) WHERE message_id IS NOT NULL;"

  "CREATE TABLE index_retitled ("
  "  id INTEGER PRIMARY KEY," /* the session */
  "  title TEXT NOT NULL"     /* the title its index entry was made from */
  ");"

  "DROP TRIGGER sessions_index_insert;"
  "DROP TRIGGER sessions_index_update;"
  "DROP TRIGGER sessions_index_delete;"
  "CREATE TRIGGER sessions_index_insert AFTER INSERT ON sessions"
  "  WHEN NOT " BATCH_RUNNING " BEGIN"
  "  " TITLE_ENTRY_INSERT "WHERE id = new.id;"
  "  " TITLE_WORDS_INSERT "WHERE s.id = new.id;"
  "END;"
  "CREATE TRIGGER sessions_index_update AFTER UPDATE OF title ON sessions"
  "  WHEN old.title IS NOT new.title AND NOT " BATCH_RUNNING " BEGIN"
  "  " ENTRY_FORGET (
    TITLES_FROM " + old.id",
    "old.title",
    "''") "  " TITLE_ENTRY_INSERT "WHERE id = new.id;"
          "  " TITLE_WORDS_INSERT "WHERE s.id = new.id;"
          "END;"
          /* The first old title is the indexed one: a later rename in the same batch keeps it. */
          "CREATE TRIGGER sessions_index_update_deferred AFTER UPDATE OF title ON sessions"
          "  WHEN old.title IS NOT new.title AND EXISTS (SELECT 1 FROM index_deferred"
          "   WHERE base = 'sessions' AND new.id <= after_id) BEGIN"
          "  INSERT OR IGNORE INTO index_retitled (id, title) VALUES (old.id, old.title);"
          "END;"
          "CREATE TRIGGER sessions_index_delete AFTER DELETE ON sessions BEGIN"
          "  " ENTRY_FORGET (TITLES_FROM " + old.id",
                             "coalesce (" RETITLED_TITLE ("old.id") ", old.title)",
                             "''") "  DELETE FROM index_retitled WHERE id = old.id;"
                                   "END;";

/* Version 5: new messages and events are indexed only in bulk.
 *
 * Their insert triggers indexed a row at once unless a batch was deferring (NOT_DEFERRED). An
 * import defers always, so the triggers only ever asked index_deferred and did nothing; yet a
 * statement with a trigger is one SQLite must be able to undo halfway, so every insert first
 * copied each page it was about to change to a statement journal. Without them a first import
 * of 200 MB takes 14 % less CPU, half of it in the kernel. Every writer of messages and events
 * now does so in a transaction that indexes in bulk (loom_store_begin_indexed ()); sessions,
 * few, keep their trigger. */
static const char schema_v5[] = "DROP TRIGGER messages_index_insert;"
                                "DROP TRIGGER events_index_insert;";

/* Version 6: new sessions too. Their insert trigger made SQLite journal every page a new
 * session's row and indexes took, and the importer's first update of a session, which links it
 * to its project and parent, did the same for its foreign keys. Sessions are now created with
 * their links, and their titles indexed in bulk like the rest (loom_store_insert_session () in
 * an indexed transaction); only retitling keeps its triggers. */
static const char schema_v6[] = "DROP TRIGGER sessions_index_insert;";

/* Version 7: the reasoning part of the output, and Gemini's input without its cached part.
 *
 * Codex and Gemini tell how much of the output was reasoning (reasoning_output_tokens,
 * thoughts); Claude does not, so NULL says "not reported" for a session and a message alike.
 * Gemini's input counted the cached prompt, which cache_read counts again; Claude's and Codex's
 * never did. Messages of Gemini keep their cached part, so their input is corrected here, and
 * the sessions' sums with it, even for files the agent has since deleted.
 *
 * Reasoning cannot be derived from what is stored, and a pass skips a file that did not change
 * (its cursor's size and time match): no import would ever fill it in. So the cursors of Codex
 * and Gemini files lose what they matched with, and the next pass reads each such file again
 * from its start, as it reads a rewritten one: it first clears what the file gave, then
 * imports it anew into the same sessions, which keep their ids, folders and names. Claude's
 * files are read again too, though their reasoning stays NULL: this version also counts a
 * prompt typed beside a tool result as the person's and keeps the largest of a repeated usage,
 * and only a new reading corrects what an earlier version stored. */
static const char schema_v7[] =
  "ALTER TABLE sessions ADD COLUMN tokens_reasoning INTEGER;"
  "ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER;"
  "UPDATE messages SET input_tokens = max (input_tokens - cache_read_tokens, 0)"
  " WHERE input_tokens IS NOT NULL AND cache_read_tokens IS NOT NULL"
  "   AND session_id IN (SELECT id FROM sessions WHERE source = 'gemini');"
  "UPDATE sessions SET tokens_input ="
  "  (SELECT ifnull (sum (input_tokens), 0) FROM messages WHERE session_id = sessions.id)"
  " WHERE source = 'gemini' AND EXISTS (SELECT 1 FROM messages WHERE session_id = sessions.id"
  "   AND (input_tokens IS NOT NULL OR output_tokens IS NOT NULL));"
  "UPDATE import_cursors SET mtime = -1, prefix_hash = NULL;";

/* Version 8: the backups an archive sweep wrote (loom-sweep.h), one row per backup, so that a
 * session archived by a sweep tells where its backup is. The row goes with its session: a
 * backup outlives the session it holds, but not the store's memory of it. key_id names the
 * backup key of an encrypted one and is NULL for a plain package. */
static const char schema_v8[] =
  "CREATE TABLE backups ("
  "  id INTEGER PRIMARY KEY,"
  "  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
  "  path TEXT NOT NULL,"
  "  key_id TEXT,"
  "  written_at INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE INDEX backups_session ON backups (session_id, written_at);";

const char loom_schema_index_defer_sql[] =
  "DELETE FROM index_deferred;"
  "DELETE FROM index_retitled;"
  "INSERT INTO index_deferred (base, after_id)"
  "  VALUES ('messages', (SELECT ifnull (max (id), 0) FROM messages)),"
  "         ('events', (SELECT ifnull (max (id), 0) FROM events)),"
  "         ('sessions', (SELECT ifnull (max (id), 0) FROM sessions));";

#define DEFERRED_AFTER(base) "(SELECT after_id FROM index_deferred WHERE base = '" base "')"
#define TITLE_DEFERRED(id) \
  id " > " DEFERRED_AFTER ("sessions") " OR " id " IN (SELECT id FROM index_retitled)"

/* The entries first, then every word in one statement, in rowid order: events, messages,
 * titles (see above). FTS5 writes what it holds as a segment whenever a statement opens a
 * savepoint, as any later multi-row statement of the batch does: one statement of words
 * writes one segment per batch, where a statement per table wrote three. */
const char loom_schema_index_deferred_sql[] = EVENT_ENTRY_INSERT
  "WHERE id > " DEFERRED_AFTER ("events") ";" MESSAGE_ENTRY_INSERT "WHERE id > " DEFERRED_AFTER (
    "messages") ";"
                "INSERT INTO search_index (search_index, rowid, title, body, facets)"
                " SELECT 'delete', x.id, r.title, '', x.facets FROM index_retitled r"
                " JOIN search_entries x ON x.id = " TITLES_FROM " + r.id;"
                "DELETE FROM search_entries WHERE id IN (SELECT " TITLES_FROM
                " + id FROM index_retitled);" TITLE_ENTRY_INSERT "WHERE " TITLE_DEFERRED (
                  "id") ";" WORDS_INTO EVENT_WORDS
                        "WHERE e.id > " DEFERRED_AFTER (
                          "events") " UNION ALL" MESSAGE_WORDS
                                    "WHERE m.id > " DEFERRED_AFTER (
                                      "messages") " UNION ALL" TITLE_WORDS
                                                  "WHERE " TITLE_DEFERRED (
                                                    "s.id") ";"
                                                            "DELETE FROM index_retitled;"
                                                            "DELETE FROM index_deferred;";

/* The store's connection notes the terms as it indexes them (loom-search-terms.h). */
const char loom_schema_index_rebuild_sql[] =
  "DROP TABLE search_index;" SEARCH_INDEX_TABLE_V3 SEARCH_INDEX_CONFIG "DELETE FROM search_entries;"
  "DELETE FROM search_terms;" EVENT_ENTRY_INSERT ";" EVENT_WORDS_INSERT ";" MESSAGE_ENTRY_INSERT
  ";" MESSAGE_WORDS_INSERT ";" TITLE_ENTRY_INSERT ";" TITLE_WORDS_INSERT ";"
  "INSERT INTO search_index (search_index) VALUES ('optimize');";

static const char *const migrations[] = {
  NULL, /* version 0: the empty database */
  schema_v1, schema_v2, schema_v3, schema_v4, schema_v5, schema_v6, schema_v7, schema_v8,
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == LOOM_STORE_SCHEMA_VERSION + 1)
;

static gboolean
exec_sql (sqlite3    *db,
          const char *sql,
          const char *path,
          GError    **error)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not update the store “%s”: %s",
                   path, message);
      sqlite3_free (message);
      return FALSE;
    }
  return TRUE;
}

static int
read_user_version (sqlite3 *db)
{
  sqlite3_stmt *stmt = NULL;
  int           version = -1;

  if (sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);
  return version;
}

gboolean
loom_schema_migrate (sqlite3    *db,
                     const char *path,
                     GError    **error)
{
  g_autofree char *set_version = NULL;
  int              version;

  g_assert (db != NULL);

  if (!exec_sql (db, "BEGIN IMMEDIATE", path, error))
    return FALSE;

  /* Read again inside the transaction: another process may have migrated meanwhile. */
  version = read_user_version (db);
  if (version < 0 || version > LOOM_STORE_SCHEMA_VERSION)
    {
      exec_sql (db, "ROLLBACK", path, NULL);
      g_set_error (error, LOOM_ERROR, version < 0 ? LOOM_ERROR_CORRUPT : LOOM_ERROR_NEWER_SCHEMA,
                   "The store “%s” has schema version %d; this version of Intentloom History "
                   "understands up to %d",
                   path, version, LOOM_STORE_SCHEMA_VERSION);
      return FALSE;
    }

  if (version == LOOM_STORE_SCHEMA_VERSION)
    return exec_sql (db, "COMMIT", path, error);

  for (int v = version + 1; v <= LOOM_STORE_SCHEMA_VERSION; v++)
    {
      if (!exec_sql (db, migrations[v], path, error))
        {
          exec_sql (db, "ROLLBACK", path, NULL);
          return FALSE;
        }
    }

  set_version = g_strdup_printf ("PRAGMA user_version = %d", LOOM_STORE_SCHEMA_VERSION);
  if (!exec_sql (db, set_version, path, error) || !exec_sql (db, "COMMIT", path, error))
    {
      exec_sql (db, "ROLLBACK", path, NULL);
      return FALSE;
    }
  return TRUE;
}
