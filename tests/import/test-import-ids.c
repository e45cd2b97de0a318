/* test-import-ids.c — whose session a file is, and which file a session is: the id the agent
 * wrote in its records however the file is named (fixtures/ids/README.md), stores that keyed
 * sessions by file names re-keyed without losing what the person chose, and files that moved,
 * were rewritten in place, or came back after being marked missing.
 *
 * An "earlier version's store" is made here as that version left it: the same import, with the
 * session keyed by the file's name and the cursor's state without what this version adds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "loom-core.h"
#include "loom-import.h"
#include "loom-importer.h"
#include "loom-test-utils.h"

#define STREAMED \
  "claude/streamed-tool-error/-home-ada-src-loom/" \
  "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47.jsonl"
#define STREAMED_ID "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47"
#define PROGRESS    "claude/v2.1-progress/-home-ada-src-loom"
#define PROGRESS_ID "4b8d2e6f-1a3c-4f57-8e9b-2c6d0a4f8e31"
#define RESUMED     "ids/claude-resumed/-home-ada-src-loom"
#define EARLIER_ID  "7c2e4a91-5b3d-4f68-9a1e-2d8c6f0b3e57"
#define RESUMED_ID  "d3a86f12-9e4b-4c71-8b25-6f0e1a7c9d34"
#define CODEX "codex/current/rollout-2026-03-02T10-15-42-019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77.jsonl"
#define CODEX_ID    "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77"
#define CODEX_OTHER "019ca9f1-0000-7000-8000-000000000000"
#define GEMINI \
  "gemini/legacy/tmp/1cc1d5fc80ebf9580a5adfc52aa8c2d78626dd581773fb32a4f226651f78717a/" \
  "chats/session-2025-09-14T10-02-3f2a9c1e.json"
#define GEMINI_ID "3f2a9c1e-5b7d-4e2a-9c0f-1a2b3c4d5e6f"

typedef LoomTestStore Fixture;

/* Copies the fixture file @relative to @to (a file path), making its folders. */
static char *
copy_fixture_as (const char *relative,
                 const char *to)
{
  g_autofree char *from = loom_test_fixture_path (relative, NULL);
  g_autofree char *dir = g_path_get_dirname (to);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, (gssize)length, &error);
  g_assert_no_error (error);
  return g_strdup (to);
}

/* The session the agent calls @id, which must be there. */
static LoomSession *
session_of (Fixture    *f,
            const char *id)
{
  LoomSession *session = loom_test_find_session (f->store, id);

  if (session == NULL)
    g_error ("no session %s", id);
  return session;
}

static const LoomSessionRecord *
record_of (LoomSession *session)
{
  return loom_session_get_record (session);
}

static gint64
count_sessions (Fixture *f)
{
  return loom_test_count_rows (f->db, "sessions");
}

/* Makes the store what an earlier version left: the session @id keyed as @old_id (and its
 * children "@id/…" as "@old_id/…"), every cursor's state without the ids it keeps now. */
static void
make_earlier_store (Fixture    *f,
                    const char *id,
                    const char *old_id)
{
  g_autofree char *sessions = g_strdup_printf (
    "UPDATE sessions SET source_session_id = '%s' || substr (source_session_id, %u)"
    " WHERE source_session_id = '%s' OR source_session_id LIKE '%s/%%'",
    old_id, (guint)strlen (id) + 1, id, id);
  g_autofree char *codex = g_strdup_printf (
    "UPDATE import_cursors SET state = json_set (state, '$.session_id', '%s')"
    " WHERE source = 'codex'",
    old_id);
  /* An agent file in <old_id>/subagents/ took its parent from the folder's name. */
  g_autofree char *agents = g_strdup_printf (
    "UPDATE import_cursors SET state = json_set (state, '$.parent', '%s')"
    " WHERE source = 'claude-code' AND json_extract (state, '$.parent') = '%s'",
    old_id, id);

  loom_test_exec_sql (f->db, sessions);
  loom_test_exec_sql (f->db, "UPDATE import_cursors SET state = json_remove (state, '$.loom_ids')");
  /* Claude's main files did not keep their id; Codex kept the one it chose. */
  loom_test_exec_sql (f->db, "UPDATE import_cursors SET state = json_remove (state, '$.session_id')"
                             " WHERE source = 'claude-code'");
  loom_test_exec_sql (f->db, codex);
  loom_test_exec_sql (f->db, agents);
}

/* ——— The agent's own id ——— */

/* A transcript exported under another name keeps its id in its records only. */
static void
test_claude_renamed (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->dir, "backup", "-home-ada-src-loom",
                                              "exported-session.jsonl", NULL);
  g_autofree char *path = copy_fixture_as (STREAMED, target);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (LoomSession) by_cli = NULL;
  g_autoptr (GError) error = NULL;

  loom_test_store_import_path (f, NULL, path);
  g_assert_cmpint (count_sessions (f), ==, 1);
  session = session_of (f, STREAMED_ID);
  g_assert_cmpstr (record_of (session)->source_path, ==, path);
  g_assert_null (loom_test_find_session (f->store, "exported-session"));

  /* `loom sessions show <id>` finds it by the agent's id. */
  by_cli = loom_store_get_session (f->store, STREAMED_ID, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_session_get_uuid (by_cli), ==, loom_session_get_uuid (session));
  {
    const char      *argv[] = { g_getenv ("LOOM_CLI"), "--db",   f->db, "sessions", "show",
                                STREAMED_ID,           "--json", NULL };
    g_autofree char *out = NULL;
    int              status = -1;

    g_assert_nonnull (argv[0]);
    g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                 &out, NULL, &status, &error));
    g_assert_no_error (error);
    g_assert_cmpint (status, ==, 0);
    g_assert_nonnull (strstr (out, loom_session_get_uuid (session)));
  }
}

/* A renamed transcript whose first pass saw no sessionId yet (a file-history snapshot only):
 * its name stands in, and the pass that sees the id corrects it. */
static void
test_claude_id_comes_later (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char *from = loom_test_fixture_path (STREAMED, NULL);
  g_autofree char *path = g_build_filename (f->dir, "proj", "exported-session.jsonl", NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *rest = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSession) first = NULL;
  g_autoptr (LoomSession) then = NULL;
  const char *snapshot =
    "{\"type\":\"file-history-snapshot\",\"messageId\":\"m1\",\"snapshot\":{\"messageId\":\"m1\","
    "\"trackedFileBackups\":{},\"timestamp\":\"2026-01-01T00:00:00.000Z\"},"
    "\"isSnapshotUpdate\":false}\n";
  FILE *out;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, snapshot, -1, &error);
  g_assert_no_error (error);
  loom_test_store_import_path (f, "claude-code", path);
  first = session_of (f, "exported-session");

  /* Appended in place, as the agent writes: the pass reads on from the snapshot. */
  g_file_get_contents (from, &rest, NULL, &error);
  g_assert_no_error (error);
  out = fopen (path, "a");
  g_assert_nonnull (out);
  g_assert_cmpuint (fwrite (rest, 1, strlen (rest), out), ==, strlen (rest));
  fclose (out);
  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpuint (f->stats->files_imported, ==, 1);
  g_assert_cmpint (count_sessions (f), ==, 1);
  then = session_of (f, STREAMED_ID);
  g_assert_cmpstr (loom_session_get_uuid (then), ==, loom_session_get_uuid (first));
}

/* A conversation resumed by Claude Code 1.0.x: the new file carries the earlier session's
 * records first, with the earlier id. It is the session its name says, not the earlier one;
 * renamed, it is the first record's. */
static void
test_claude_resumed (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *folder = loom_test_fixture_path (RESUMED, NULL);
  g_autofree char *resumed_file = g_build_filename (folder, RESUMED_ID ".jsonl", NULL);
  g_autofree char *target = g_build_filename (f->dir, "copy", "resumed-backup.jsonl", NULL);
  g_autofree char *copy = NULL;
  g_autoptr (LoomSession) earlier = NULL;
  g_autoptr (LoomSession) resumed = NULL;
  g_autoptr (LoomSession) renamed = NULL;

  loom_test_store_import_path (f, "claude-code", folder);
  g_assert_cmpint (count_sessions (f), ==, 2);
  earlier = session_of (f, EARLIER_ID);
  resumed = session_of (f, RESUMED_ID);
  g_assert_cmpint (record_of (earlier)->n_user_messages, ==, 2);
  g_assert_cmpint (record_of (resumed)->n_user_messages, ==, 3);
  g_assert_cmpint (record_of (resumed)->n_assistant_messages, ==, 3);
  g_assert_cmpstr (record_of (resumed)->source_path, ==, resumed_file);
  g_assert_true (g_str_has_prefix (record_of (resumed)->title, "Keep the reader's last line"));

  /* Under a name that is none of its ids, in a store of its own. */
  g_clear_object (&earlier);
  g_clear_object (&resumed);
  g_assert_finalize_object (f->store);
  g_remove (f->db);
  f->store = loom_store_open (f->db, NULL);
  g_assert_nonnull (f->store);
  copy = copy_fixture_as (RESUMED "/" RESUMED_ID ".jsonl", target);
  loom_test_store_import_path (f, "claude-code", copy);
  g_assert_cmpint (count_sessions (f), ==, 1);
  renamed = session_of (f, EARLIER_ID);
  g_assert_cmpint (record_of (renamed)->n_user_messages, ==, 3);
}

/* Copies the v2.1 fixture's main file and its subagents folder under the name @name. */
static char *
copy_progress_as (Fixture    *f,
                  const char *name)
{
  g_autofree char *project = g_build_filename (f->dir, "renamed", "-home-ada-src-loom", NULL);
  g_autofree char *main_target = g_strdup_printf ("%s/%s.jsonl", project, name);
  g_autofree char *agents = loom_test_fixture_path (PROGRESS "/" PROGRESS_ID "/subagents", NULL);
  g_autoptr (GDir) listing = g_dir_open (agents, 0, NULL);
  const char *entry;

  g_free (copy_fixture_as (PROGRESS "/" PROGRESS_ID ".jsonl", main_target));
  g_assert_nonnull (listing);
  while ((entry = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *relative = g_strdup_printf ("%s/%s/subagents/%s", PROGRESS, PROGRESS_ID,
                                                   entry);
      g_autofree char *target = g_build_filename (project, name, "subagents", entry, NULL);

      g_free (copy_fixture_as (relative, target));
    }
  return g_steal_pointer (&project);
}

/* The sessions' agent ids and their parents' ids, sorted, one line each. */
static char *
session_ids (Fixture *f)
{
  g_autofree char *db = g_strdup (f->db);
  g_autoptr (GString) out = g_string_new (NULL);
  sqlite3      *handle = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db, &handle, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (handle,
                                       "SELECT s.source_session_id || ' < ' ||"
                                       "       ifnull (p.source_session_id, '-') || ' ' || s.uuid"
                                       " FROM sessions s"
                                       " LEFT JOIN sessions p ON p.id = s.parent_session_id"
                                       " ORDER BY 1",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_string_append_printf (out, "%s\n", (const char *)sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (handle);
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Without the uuids, which differ between stores. */
static char *
session_ids_only (Fixture *f)
{
  g_autofree char *ids = session_ids (f);
  g_auto (GStrv) lines = g_strsplit (ids, "\n", -1);
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    {
      char *space = strrchr (lines[i], ' ');

      g_string_append_len (out, lines[i], space - lines[i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Sub-agents: a renamed session with its subagents folder renamed alike. The agent file's own
 * id is its agentId, its parent the sessionId its records carry, not the folder's name. */
static void
test_claude_subagents_renamed (Fixture      *f,
                               gconstpointer data)
{
  g_autofree char *original = loom_test_fixture_path (PROGRESS, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *project = NULL;
  g_autofree char *got = NULL;

  loom_test_store_import_path (f, "claude-code", original);
  expected = session_ids_only (f);
  g_assert_true (strstr (expected, PROGRESS_ID "/agent-") != NULL);

  g_assert_finalize_object (f->store);
  g_remove (f->db);
  f->store = loom_store_open (f->db, NULL);
  project = copy_progress_as (f, "checkpoint-copy");
  loom_test_store_import_path (f, "claude-code", project);
  got = session_ids_only (f);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_codex_renamed (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *target = g_build_filename (
    f->dir, "sessions", "rollout-2026-03-02T10-15-42-" CODEX_OTHER ".jsonl", NULL);
  g_autofree char *path = copy_fixture_as (CODEX, target);
  g_autoptr (LoomSession) session = NULL;

  loom_test_store_import_path (f, "codex", path);
  g_assert_cmpint (count_sessions (f), ==, 1);
  session = session_of (f, CODEX_ID);
  g_assert_cmpstr (record_of (session)->source_path, ==, path);
}

static void
test_gemini_renamed (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->dir, "tmp", "0123abcd", "chats",
                                              "session-2025-09-14T10-02-00000000.json", NULL);
  g_autofree char *path = copy_fixture_as (GEMINI, target);
  g_autoptr (LoomSession) session = NULL;

  loom_test_store_import_path (f, "gemini", path);
  g_assert_cmpint (count_sessions (f), ==, 1);
  session = session_of (f, GEMINI_ID);
  g_assert_cmpstr (record_of (session)->source_path, ==, path);
}

/* ——— Stores keyed by file names ——— */

/* The next import re-keys the session an earlier version keyed by the file's name, though the
 * file did not change: the same row, with the person's title, folder and pin. */
static void
test_claude_migrated (Fixture      *f,
                      gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->dir, "backup", "-home-ada-src-loom",
                                              "exported-session.jsonl", NULL);
  g_autofree char *path = copy_fixture_as (STREAMED, target);
  g_autoptr (LoomSession) before = NULL;
  g_autoptr (LoomSession) after = NULL;
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *uuid = NULL;
  gint64           messages, events;

  loom_test_store_import_path (f, "claude-code", path);
  make_earlier_store (f, STREAMED_ID, "exported-session");
  before = session_of (f, "exported-session");
  uuid = g_strdup (loom_session_get_uuid (before));
  folder = loom_store_create_folder (f->store, "Kept", &error);
  g_assert_no_error (error);
  g_assert_true (loom_store_move_session (f->store, uuid, loom_folder_get_id (folder), &error));
  g_assert_true (loom_store_set_pinned (f->store, uuid, TRUE, &error));
  g_assert_true (loom_store_rename_session (f->store, uuid, "My export", &error));
  g_assert_no_error (error);
  messages = loom_test_count_rows (f->db, "messages");
  events = loom_test_count_rows (f->db, "events");

  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  g_assert_cmpint (count_sessions (f), ==, 1);
  g_assert_null (loom_test_find_session (f->store, "exported-session"));
  after = session_of (f, STREAMED_ID);
  g_assert_cmpstr (loom_session_get_uuid (after), ==, uuid);
  g_assert_cmpstr (record_of (after)->title, ==, "My export");
  g_assert_cmpint (record_of (after)->folder_id, ==, loom_folder_get_id (folder));
  g_assert_true (record_of (after)->pinned);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);

  /* Corrected once: the pass after finds the file unchanged. */
  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 1);
}

/* A session deleted for good under its file's name stays deleted under the agent's id, even
 * when its file is read again from its start. */
static void
test_claude_migrated_tombstone (Fixture      *f,
                                gconstpointer data)
{
  g_autofree char *target = g_build_filename (f->dir, "backup", "-home-ada-src-loom",
                                              "exported-session.jsonl", NULL);
  g_autofree char *path = copy_fixture_as (STREAMED, target);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  const char *ids[2] = { NULL, NULL };

  loom_test_store_import_path (f, "claude-code", path);
  make_earlier_store (f, STREAMED_ID, "exported-session");
  session = session_of (f, "exported-session");
  ids[0] = loom_session_get_uuid (session);
  plan = loom_store_plan_delete (f->store, ids, &error);
  g_assert_no_error (error);
  g_assert_true (loom_store_execute_delete (f->store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpint (count_sessions (f), ==, 0);

  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpint (count_sessions (f), ==, 0);
  loom_test_exec_sql (f->db, "DELETE FROM import_cursors");
  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpint (count_sessions (f), ==, 0);
}

/* A copy an earlier version keyed by its name, of a session whose own file is imported too:
 * the id is taken, and the copy keeps its key rather than merging into the other. */
static void
test_claude_migrated_taken (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char *project = g_build_filename (f->dir, "backup", "-home-ada-src-loom", NULL);
  g_autofree char *copy_target = g_build_filename (project, "exported-session.jsonl", NULL);
  g_autofree char *own_target = g_build_filename (project, STREAMED_ID ".jsonl", NULL);
  g_autofree char *copy = copy_fixture_as (STREAMED, copy_target);
  g_autofree char *own = NULL;
  g_autoptr (LoomSession) kept = NULL;
  g_autoptr (LoomSession) original = NULL;

  loom_test_store_import_path (f, "claude-code", copy);
  make_earlier_store (f, STREAMED_ID, "exported-session");
  own = copy_fixture_as (STREAMED, own_target);
  loom_test_store_import_path (f, "claude-code", own);
  g_assert_cmpint (count_sessions (f), ==, 2);

  loom_test_store_import_path (f, "claude-code", project);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  g_assert_cmpint (count_sessions (f), ==, 2);
  kept = session_of (f, "exported-session");
  original = session_of (f, STREAMED_ID);
  g_assert_cmpstr (record_of (kept)->source_path, ==, copy);
  g_assert_cmpstr (record_of (original)->source_path, ==, own);
  loom_test_store_import_path (f, "claude-code", project);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 2);
}

#define AGENTS    "claude/v2.0-agent-files/-home-ada-src-tide"
#define AGENTS_ID "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80"

/* An earlier version read a renamed session's agent files first: their parent, named by their
 * records, became a placeholder, and the main file its own session under its name. The main
 * session takes the id and the placeholder's sub-agents, and the placeholder goes. */
static void
test_claude_migrated_placeholder (Fixture      *f,
                                  gconstpointer data)
{
  g_autofree char  *project = g_build_filename (f->dir, "renamed", "-home-ada-src-tide", NULL);
  g_autofree char  *main_file = g_build_filename (project, "checkpoint-copy.jsonl", NULL);
  g_autofree char  *expected = NULL;
  g_autofree char  *got = NULL;
  const char *const agents[] = { "agent-7e1d0c42.jsonl", "agent-a3f9c2d1.jsonl" };
  g_autofree char  *placeholder = g_strdup_printf (
    "INSERT INTO sessions (uuid, source, source_session_id, title)"
    " VALUES ('00000000-0000-4000-8000-00000000face', 'claude-code', '%s',"
    "         'Session %s (not imported yet)');"
    "UPDATE sessions SET parent_session_id = last_insert_rowid ()"
    " WHERE source_session_id LIKE 'checkpoint-copy/agent-%%';"
    "UPDATE sessions SET source_session_id = '%s' || substr (source_session_id, 16)"
    " WHERE source_session_id LIKE 'checkpoint-copy/agent-%%';",
    AGENTS_ID, AGENTS_ID, AGENTS_ID);

  g_free (copy_fixture_as (AGENTS "/" AGENTS_ID ".jsonl", main_file));
  for (guint i = 0; i < G_N_ELEMENTS (agents); i++)
    {
      g_autofree char *relative = g_strdup_printf ("%s/%s", AGENTS, agents[i]);
      g_autofree char *target = g_build_filename (project, agents[i], NULL);

      g_free (copy_fixture_as (relative, target));
    }
  loom_test_store_import_path (f, "claude-code", project);
  expected = session_ids (f);
  make_earlier_store (f, AGENTS_ID, "checkpoint-copy");
  loom_test_exec_sql (f->db, placeholder);
  g_assert_cmpint (count_sessions (f), ==, 4);

  loom_test_store_import_path (f, "claude-code", project);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  g_assert_cmpint (count_sessions (f), ==, 3);
  got = session_ids (f);
  g_assert_cmpstr (got, ==, expected);
  loom_test_assert_index_in_sync (f->db);
}

/* An earlier version keyed the main file by its name and the agent file by its folder's. */
static void
test_claude_subagents_migrated (Fixture      *f,
                                gconstpointer data)
{
  g_autofree char *project = copy_progress_as (f, "checkpoint-copy");
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;

  loom_test_store_import_path (f, "claude-code", project);
  expected = session_ids (f);
  make_earlier_store (f, PROGRESS_ID, "checkpoint-copy");
  g_assert_null (loom_test_find_session (f->store, PROGRESS_ID));

  loom_test_store_import_path (f, "claude-code", project);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  got = session_ids (f);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_codex_migrated (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *target = g_build_filename (
    f->dir, "sessions", "rollout-2026-03-02T10-15-42-" CODEX_OTHER ".jsonl", NULL);
  g_autofree char *path = copy_fixture_as (CODEX, target);
  g_autoptr (LoomSession) before = NULL;
  g_autoptr (LoomSession) after = NULL;

  loom_test_store_import_path (f, "codex", path);
  make_earlier_store (f, CODEX_ID, CODEX_OTHER);
  before = session_of (f, CODEX_OTHER);

  loom_test_store_import_path (f, "codex", path);
  g_assert_cmpint (count_sessions (f), ==, 1);
  after = session_of (f, CODEX_ID);
  g_assert_cmpstr (loom_session_get_uuid (after), ==, loom_session_get_uuid (before));

  /* Read again from its start, it stays the one session. */
  loom_test_exec_sql (f->db, "DELETE FROM import_cursors");
  loom_test_store_import_path (f, "codex", path);
  g_assert_cmpint (count_sessions (f), ==, 1);
  g_clear_object (&after);
  after = session_of (f, CODEX_ID);
  g_assert_cmpstr (loom_session_get_uuid (after), ==, loom_session_get_uuid (before));
}

/* ——— Files that change in place, move, or come back ——— */

/* Forty prompts of about 300 bytes each, the twentieth naming @bird. */
static char *
prompts_file (const char *bird)
{
  GString *out = g_string_new (NULL);

  for (guint i = 1; i <= 40; i++)
    g_string_append_printf (
      out,
      "{\"parentUuid\":null,\"isSidechain\":false,\"type\":\"user\","
      "\"sessionId\":\"5e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b\",\"cwd\":\"/home/ada/src/loom\","
      "\"uuid\":\"00000000-0000-4000-8000-0000000000%02u\","
      "\"timestamp\":\"2026-02-01T10:%02u:00.000Z\","
      "\"message\":{\"role\":\"user\",\"content\":\"Prompt %02u is about the %s and the"
      " padding that makes each line long enough that the sample misses the middle.\"}}\n",
      i, i, i, i == 20 ? bird : "weather");
  return g_string_free (out, FALSE);
}

/* Written over in place at the same size, with a new time: the file is read again. */
static void
test_same_size_rewrite (Fixture      *f,
                        gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "proj",
                                            "5e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b.jsonl", NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *first = prompts_file ("kestrel");
  g_autofree char *second = prompts_file ("pelican");
  g_autoptr (GError) error = NULL;
  struct timespec times[2] = { { 0, UTIME_OMIT }, { 1767225600, 0 } };
  struct stat     before, after;
  FILE           *out;

  g_assert_cmpuint (strlen (first), ==, strlen (second));
  g_assert_cmpuint (strlen (first), >, 3 * 4096);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, first, -1, &error);
  g_assert_no_error (error);
  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpint (loom_test_count_matches (f->db, "kestrel"), ==, 1);

  /* The same inode, the same size: only the bytes and the time differ. */
  g_assert_cmpint (g_stat (path, &before), ==, 0);
  out = fopen (path, "r+");
  g_assert_nonnull (out);
  g_assert_cmpuint (fwrite (second, 1, strlen (second), out), ==, strlen (second));
  fclose (out);
  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
  g_assert_cmpint (g_stat (path, &after), ==, 0);
  g_assert_cmpuint (after.st_ino, ==, before.st_ino);
  g_assert_cmpint (after.st_size, ==, before.st_size);

  loom_test_store_import_path (f, "claude-code", path);
  g_assert_cmpuint (f->stats->files_imported, ==, 1);
  g_assert_cmpint (loom_test_count_matches (f->db, "pelican"), ==, 1);
  g_assert_cmpint (loom_test_count_matches (f->db, "kestrel"), ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, 40);
}

/* A file renamed within its folder is the same file (device and inode, and its bytes): it is
 * not read again. */
static void
test_moved_renamed (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *dir = g_build_filename (f->dir, "sessions", NULL);
  g_autofree char *from = g_build_filename (dir, "rollout-2026-03-02T10-15-42-" CODEX_ID ".jsonl",
                                            NULL);
  g_autofree char *to = g_build_filename (dir, "kept-rollout.jsonl", NULL);
  g_autoptr (LoomSession) before = NULL;
  g_autoptr (LoomSession) after = NULL;
  gint64 events;

  g_free (copy_fixture_as (CODEX, from));
  loom_test_store_import_path (f, "codex", dir);
  before = session_of (f, CODEX_ID);
  events = loom_test_count_rows (f->db, "events");

  g_assert_cmpint (g_rename (from, to), ==, 0);
  loom_test_store_import_path (f, "codex", dir);
  g_assert_cmpuint (f->stats->files_imported, ==, 0);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 1);
  g_assert_cmpuint (f->stats->sessions_missing, ==, 0);
  after = session_of (f, CODEX_ID);
  g_assert_cmpstr (loom_session_get_uuid (after), ==, loom_session_get_uuid (before));
  g_assert_cmpstr (record_of (after)->source_path, ==, to);
  g_assert_false (record_of (after)->source_missing);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);
  g_assert_cmpint (loom_test_count_rows (f->db, "import_cursors"), ==, 1);
}

/* What an earlier version left of a rollout archived and unarchived: the session pointing at
 * the archive, marked missing, and the file back where it was with its stale cursor, taken for
 * unchanged. A whole pass finds it by its name and content. */
static void
test_missing_after_move_repaired (Fixture      *f,
                                  gconstpointer data)
{
  g_autofree char *home = g_build_filename (f->dir, "codex-home", NULL);
  g_autofree char *day = g_build_filename (home, "sessions", "2026", "03", "02", NULL);
  g_autofree char *name = g_path_get_basename (CODEX);
  g_autofree char *path = g_build_filename (day, name, NULL);
  g_autofree char *archived = g_build_filename (home, "archived_sessions", name, NULL);
  g_autofree char *old_home = g_strdup (g_getenv ("CODEX_HOME"));
  g_autofree char *copy_cursor = NULL;
  g_autofree char *point = NULL;
  g_autoptr (LoomSession) session = NULL;
  gint64 messages;

  g_free (copy_fixture_as (CODEX, path));
  g_assert_cmpint (g_mkdir_with_parents (g_path_get_dirname (archived), 0700), ==, 0);
  g_setenv ("CODEX_HOME", home, TRUE);
  loom_test_store_import_paths (f, "codex", NULL);
  messages = loom_test_count_rows (f->db, "messages");

  copy_cursor = g_strdup_printf ("INSERT INTO import_cursors (source_path, source, device, inode,"
                                 " size, mtime, offset, line, prefix_hash, state, updated_at)"
                                 " SELECT '%s', source, device, inode + 1, size, mtime, offset,"
                                 " line, prefix_hash, state, updated_at FROM import_cursors",
                                 archived);
  point = g_strdup_printf ("UPDATE sessions SET source_path = '%s', source_missing = 1", archived);
  loom_test_exec_sql (f->db, copy_cursor);
  loom_test_exec_sql (f->db, point);

  loom_test_store_import_paths (f, "codex", NULL);
  session = session_of (f, CODEX_ID);
  g_assert_false (record_of (session)->source_missing);
  g_assert_cmpstr (record_of (session)->source_path, ==, path);
  g_assert_cmpuint (f->stats->files_imported, ==, 0);
  g_assert_cmpuint (f->stats->sessions_missing, ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->db, "import_cursors"), ==, 1);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);

  if (old_home != NULL)
    g_setenv ("CODEX_HOME", old_home, TRUE);
  else
    g_unsetenv ("CODEX_HOME");
}

/* Marked missing though its file is where it was, unchanged: a whole pass unmarks it. */
static void
test_missing_in_place_repaired (Fixture      *f,
                                gconstpointer data)
{
  g_autofree char *dir = g_build_filename (f->dir, "sessions", NULL);
  g_autofree char *path = g_build_filename (dir, "rollout-2026-03-02T10-15-42-" CODEX_ID ".jsonl",
                                            NULL);
  g_autoptr (LoomSession) session = NULL;

  g_free (copy_fixture_as (CODEX, path));
  loom_test_store_import_path (f, "codex", dir);
  loom_test_exec_sql (f->db, "UPDATE sessions SET source_missing = 1");

  loom_test_store_import_path (f, "codex", dir);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 1);
  session = session_of (f, CODEX_ID);
  g_assert_false (record_of (session)->source_missing);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, loom_test_store_set_up, func, loom_test_store_tear_down)
  ADD ("/import-ids/claude/renamed", test_claude_renamed);
  ADD ("/import-ids/claude/resumed", test_claude_resumed);
  ADD ("/import-ids/claude/id-comes-later", test_claude_id_comes_later);
  ADD ("/import-ids/claude/subagents-renamed", test_claude_subagents_renamed);
  ADD ("/import-ids/codex/renamed", test_codex_renamed);
  ADD ("/import-ids/gemini/renamed", test_gemini_renamed);
  ADD ("/import-ids/claude/migrated", test_claude_migrated);
  ADD ("/import-ids/claude/migrated-tombstone", test_claude_migrated_tombstone);
  ADD ("/import-ids/claude/migrated-taken", test_claude_migrated_taken);
  ADD ("/import-ids/claude/migrated-placeholder", test_claude_migrated_placeholder);
  ADD ("/import-ids/claude/subagents-migrated", test_claude_subagents_migrated);
  ADD ("/import-ids/codex/migrated", test_codex_migrated);
  ADD ("/import-ids/same-size-rewrite", test_same_size_rewrite);
  ADD ("/import-ids/moved/renamed", test_moved_renamed);
  ADD ("/import-ids/missing/after-move", test_missing_after_move_repaired);
  ADD ("/import-ids/missing/in-place", test_missing_in_place_repaired);
#undef ADD

  return g_test_run ();
}
