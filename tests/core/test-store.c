/* test-store.c — the store: location, permissions, schema, migrations, recovery, operations.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-import.h"
#include "loom-search-tokenizer.h"
#include "loom-search.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-time.h"

#define MINUTE_MS (60 * (gint64)1000)
#define DAY_MS    (24 * 60 * MINUTE_MS)

static char *data_home;

typedef struct
{
  char      *dir;
  char      *path;
  LoomStore *store;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  f->store = loom_test_new_store (&f->dir, &f->path);
  g_assert_nonnull (f->store);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static void
exec_raw (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  char    *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

/* FTS5's memory for pending terms (loom-schema.c), 0 when left at its default. */
static gint64
index_hashsize (const char *path)
{
  return loom_test_query_int (path,
                              "SELECT ifnull ((SELECT v FROM search_index_config"
                              " WHERE k = 'hashsize'), 0)",
                              NULL);
}

static guint
count_in (LoomStore     *store,
          LoomCollection collection)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  guint n = G_MAXUINT;

  query.collection = collection;
  g_assert_true (loom_store_count_sessions (store, &query, &n, &error));
  g_assert_no_error (error);
  return n;
}

/* A store of the first release opens upgraded: its rows kept, its search index rebuilt in the
 * current layout (rowid ranges, facets, contentless, its terms listed) and searchable with
 * filters and prefixes. */
static void
test_upgrade_from_v1 (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autofree char *fixture = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "core", "fixtures",
                                               "store-v1.db", NULL);
  g_autoptr (GFile) from = g_file_new_for_path (fixture);
  g_autoptr (GFile) to = g_file_new_for_path (path);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GListModel) hits = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (loom_test_count_rows (path, "messages"), ==, 11);

  store = loom_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_store_get_schema_version (store), ==, LOOM_STORE_SCHEMA_VERSION);
  /* New stores get 8 KB pages; an old one keeps the size it was made with. */
  g_assert_cmpint (loom_test_query_int (path, "PRAGMA page_size", NULL), ==, 4096);
  g_assert_cmpint (loom_test_count_rows (path, "sessions"), ==, 2);
  g_assert_cmpint (loom_test_count_rows (path, "messages"), ==, 11);
  g_assert_cmpint (loom_test_count_rows (path, "events"), ==, 12);
  loom_test_assert_index_in_sync (path);

  hits = loom_store_search (store, "コメント", 0, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (hits), >, 0);
  g_clear_object (&hits);
  hits = loom_store_search (store, "fail tool:bash has:error", 0, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (hits), >, 0);
  g_clear_object (&hits);
  /* A prefix is read from the terms the migration listed from the index. */
  hits = loom_store_search (store, "fai* has:error", 0, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (hits), >, 0);
  g_clear_object (&hits);

  g_clear_object (&store);
  loom_test_remove_tree (dir);
}

/* The agent files store-v6.db was imported from (fixtures/README.md): where they were, below
 * /tmp/loom-v6, and the fixture each is a copy of, below tests/import/fixtures. */
#define V6_ROOT "/tmp/loom-v6"
#define V6_LEGACY \
  "tmp/1cc1d5fc80ebf9580a5adfc52aa8c2d78626dd581773fb32a4f226651f78717a/chats/" \
  "session-2025-09-14T10-02-3f2a9c1e.json"
#define V6_ATLAS "tmp/atlas/chats/session-2025-11-02T08-15-8c1d4e2a.jsonl"
#define V6_CHILD \
  "tmp/atlas/chats/8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d/" \
  "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9.jsonl"
#define V6_CODEX  "rollout-2026-03-02T10-15-42-019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77.jsonl"
#define V6_CLAUDE "-home-ada-src-loom/2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47.jsonl"

static const struct
{
  const char *copy;    /* below V6_ROOT, and below the test's folder */
  const char *fixture; /* below tests/import/fixtures */
  gboolean    cursor;  /* imported: the store has a cursor for it */
} v6_files[] = {
  { "claude/" V6_CLAUDE, "claude/streamed-tool-error/" V6_CLAUDE, TRUE },
  { "codex/" V6_CODEX, "codex/current/" V6_CODEX, TRUE },
  { "gemini-jsonl/tmp/atlas/.project_root", "gemini/jsonl/tmp/atlas/.project_root", FALSE },
  { "gemini-jsonl/" V6_ATLAS, "gemini/jsonl/" V6_ATLAS, TRUE },
  { "gemini-jsonl/" V6_CHILD, "gemini/jsonl/" V6_CHILD, TRUE },
  { "gemini-legacy/" V6_LEGACY, "gemini/legacy/" V6_LEGACY, TRUE },
};

static gint64
v6_tokens (const char *db,
           const char *column,
           const char *source_session_id)
{
  g_autofree char *sql = g_strdup_printf ("SELECT ifnull (%s, -1) FROM sessions"
                                          " WHERE source_session_id = ?1",
                                          column);

  return loom_test_query_int (db, sql, source_session_id);
}

/* A store of version 6 opens upgraded: Gemini's input no longer counts its cached part, even
 * before anything is read again, and reasoning is null until known. The agents' files have not
 * changed since they were imported, yet the next import reads the Codex and Gemini ones again,
 * once, to fill the reasoning in: into the same sessions, with nothing doubled. Claude's, whose
 * reasoning is never told apart, is left alone. */
static void
test_upgrade_from_v6 (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autofree char *agents = g_build_filename (dir, "agents", NULL);
  g_autofree char *fixture = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "core", "fixtures",
                                               "store-v6.db", NULL);
  g_autofree char *uuids_before = NULL;
  g_autofree char *uuids_after = NULL;
  g_autoptr (GFile) from = g_file_new_for_path (fixture);
  g_autoptr (GFile) to = g_file_new_for_path (path);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (GError) error = NULL;
  const char *roots[5];
  sqlite3    *db = NULL;
  gint64      n_messages, n_events;

  g_assert_true (g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  /* The files, at a place of this test's own, unchanged since the import as far as the cursors
   * can tell: same bytes, and their device, inode and time. */
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  for (guint i = 0; i < G_N_ELEMENTS (v6_files); i++)
    {
      g_autofree char *source = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "import",
                                                  "fixtures", v6_files[i].fixture, NULL);
      g_autofree char *copy = g_build_filename (agents, v6_files[i].copy, NULL);
      g_autofree char *folder = g_path_get_dirname (copy);
      g_autofree char *old_path = g_build_filename (V6_ROOT, v6_files[i].copy, NULL);
      g_autofree char *contents = NULL;
      char            *sql;
      gsize            length = 0;
      struct stat      st;

      g_assert_true (g_file_get_contents (source, &contents, &length, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
      g_assert_true (g_file_set_contents (copy, contents, (gssize)length, &error));
      g_assert_no_error (error);
      g_assert_cmpint (stat (copy, &st), ==, 0);
      if (!v6_files[i].cursor)
        continue;
      sql = sqlite3_mprintf ("UPDATE import_cursors SET source_path = %Q, device = %lld,"
                             "  inode = %lld, mtime = %lld WHERE source_path = %Q;"
                             "UPDATE sessions SET source_path = %Q WHERE source_path = %Q;",
                             copy, (long long)st.st_dev, (long long)st.st_ino,
                             (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
                             old_path, copy, old_path);
      g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_changes (db), ==, 1);
      sqlite3_free (sql);
    }
  sqlite3_close (db);
  g_assert_cmpint (loom_test_query_int (path, "PRAGMA user_version", NULL), ==, 6);
  g_assert_cmpint (loom_test_query_int (path,
                                        "SELECT count(*) FROM import_cursors"
                                        " WHERE source_path LIKE '" V6_ROOT "/%'",
                                        NULL),
                   ==, 0);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d"), ==,
                   29730);
  n_messages = loom_test_count_rows (path, "messages");
  n_events = loom_test_count_rows (path, "events");
  g_assert_cmpint (n_messages, ==, 38);
  g_assert_cmpint (n_events, ==, 67);
  uuids_before = g_strdup_printf (
    "%" G_GINT64_FORMAT, loom_test_query_int (path, "SELECT sum (id) FROM sessions", NULL));
  {
    g_autoptr (LoomStore) check = loom_store_open (path, &error);

    g_assert_no_error (error);
    g_assert_cmpint (loom_store_get_schema_version (check), ==, LOOM_STORE_SCHEMA_VERSION);
  }
  /* Version 8: no sweep has written a backup yet. */
  g_assert_cmpint (loom_test_count_rows (path, "backups"), ==, 0);

  /* Upgraded: Gemini's input without its cached part (fixtures/gemini/README.md: atlas
   * 29730 − 18000, its sub-agent 7100 − 2900, legacy 30056 − 19000), the others as they were;
   * reasoning unknown everywhere yet. */
  g_assert_cmpint (v6_tokens (path, "tokens_input", "8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d"), ==,
                   11730);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9"), ==,
                   4200);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "3f2a9c1e-5b7d-4e2a-9c0f-1a2b3c4d5e6f"), ==,
                   11056);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77"), ==,
                   12952);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47"), ==,
                   20);
  g_assert_cmpint (loom_test_query_int (path,
                                        "SELECT count(*) FROM sessions"
                                        " WHERE tokens_reasoning IS NOT NULL",
                                        NULL),
                   ==, 0);
  /* What every cursor matched with is gone: each file is read again from its start. */
  g_assert_cmpint (loom_test_query_int (path,
                                        "SELECT count(*) FROM import_cursors"
                                        " WHERE prefix_hash IS NULL",
                                        NULL),
                   ==, 5);
  g_assert_cmpint (loom_test_query_int (path,
                                        "SELECT count(*) FROM import_cursors"
                                        " WHERE prefix_hash IS NULL AND source = 'claude-code'",
                                        NULL),
                   ==, 1);

  store = loom_store_open (path, &error);
  g_assert_no_error (error);
  roots[0] = g_build_filename (agents, "claude", NULL);
  roots[1] = g_build_filename (agents, "codex", NULL);
  roots[2] = g_build_filename (agents, "gemini-jsonl", NULL);
  roots[3] = g_build_filename (agents, "gemini-legacy", NULL);
  roots[4] = NULL;
  {
    LoomImportOptions options = { NULL, roots };

    stats = loom_import_stats_new ();
    g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (stats->files_failed, ==, 0);
    g_assert_cmpuint (stats->warnings->len, ==, 0);
    /* Every file is read again from its start, as a rewritten one is. */
    g_assert_cmpuint (stats->files_unchanged, ==, 0);
    g_assert_cmpuint (stats->files_imported, ==, 5);
    g_clear_pointer (&stats, loom_import_stats_free);

    /* Once: the next pass finds every file unchanged. */
    stats = loom_import_stats_new ();
    g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (stats->files_unchanged, ==, 5);
  }
  for (guint i = 0; i < 4; i++)
    g_free ((char *)roots[i]);

  /* The same sessions and rows, and the reasoning filled in: Σ thoughts for Gemini (130 + 44,
   * 25, 210 + 95), Codex's last reasoning_output_tokens; Claude's stays null. */
  g_assert_cmpint (loom_test_count_rows (path, "sessions"), ==, 5);
  g_assert_cmpint (loom_test_count_rows (path, "messages"), ==, n_messages);
  g_assert_cmpint (loom_test_count_rows (path, "events"), ==, n_events);
  uuids_after = g_strdup_printf ("%" G_GINT64_FORMAT,
                                 loom_test_query_int (path, "SELECT sum (id) FROM sessions", NULL));
  g_assert_cmpstr (uuids_after, ==, uuids_before);
  g_assert_cmpint (v6_tokens (path, "tokens_reasoning", "8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d"), ==,
                   174);
  g_assert_cmpint (v6_tokens (path, "tokens_reasoning", "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9"), ==,
                   25);
  g_assert_cmpint (v6_tokens (path, "tokens_reasoning", "3f2a9c1e-5b7d-4e2a-9c0f-1a2b3c4d5e6f"), ==,
                   305);
  g_assert_cmpint (v6_tokens (path, "tokens_reasoning", "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77"), ==,
                   1040);
  g_assert_cmpint (v6_tokens (path, "tokens_reasoning", "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47"), ==,
                   -1);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d"), ==,
                   11730);
  g_assert_cmpint (v6_tokens (path, "tokens_input", "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77"), ==,
                   12952);
  loom_test_assert_index_in_sync (path);

  g_clear_object (&store);
  loom_test_remove_tree (dir);
}

/* The default location is private: 0700 folder, 0600 file, whatever the umask says. */
static void
test_default_location_permissions (void)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = g_build_filename (data_home, "intentloom-history", "history.db",
                                                NULL);
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  struct stat      st;
  mode_t           old_mask = umask (0);

  g_unsetenv ("LOOM_DB");
  path = loom_store_default_path ();
  g_assert_cmpstr (path, ==, expected);

  store = loom_store_open (NULL, &error);
  umask (old_mask);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_store_get_path (store), ==, expected);

  dir = g_path_get_dirname (expected);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (expected, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_finalize_object (g_steal_pointer (&store));

  /* A looser folder and file are tightened when the store opens. */
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  g_assert_cmpint (g_chmod (expected, 0644), ==, 0);
  store = loom_store_open (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_cmpint (g_stat (expected, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

static void
test_env_override (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "nested", "elsewhere.db", NULL);
  g_autofree char *resolved = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;

  g_setenv ("LOOM_DB", path, TRUE);
  resolved = loom_store_default_path ();
  g_assert_cmpstr (resolved, ==, path);
  store = loom_store_open (NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_store_get_path (store), ==, path);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_unsetenv ("LOOM_DB");

  g_assert_finalize_object (g_steal_pointer (&store));
  loom_test_remove_tree (dir);
}

static void
test_schema (Fixture      *f,
             gconstpointer data)
{
  static const char *const tables[] = {
    "projects",  "sessions",       "messages",   "events",       "folders",        "artifacts",
    "summaries", "import_cursors", "tombstones", "search_index", "search_entries",
  };
  static const char *const session_columns[] = {
    "title",
    "uuid",
    "agent_mode",
    "selected_agent_id",
    "created_at",
    "updated_at",
    "last_opened_at",
    "message_count",
    "event_count",
    "folder_id",
    "pinned",
    "archived",
    "session_type",
    "fork_source_session_id",
    "parent_session_id",
    "task_objective",
    "task_status",
    "tools_used",
    "source",
    "source_path",
    "source_session_id",
    "project_id",
    "cwd",
    "git_branch",
    "git_commit",
    "model",
    "models",
    "tokens_input",
    "tokens_output",
    "tokens_cache_read",
    "tokens_cache_creation",
    "trashed_at",
  };
  sqlite3 *db = NULL;
  gboolean any = TRUE;

  g_assert_cmpint (loom_store_get_schema_version (f->store), ==, LOOM_STORE_SCHEMA_VERSION);
  g_assert_true (loom_store_has_sessions (f->store, &any, NULL));
  g_assert_false (any);
  g_assert_cmpint (loom_test_query_int (f->path, "PRAGMA page_size", NULL), ==, 8192);

  g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      sqlite3_stmt *stmt = NULL;

      sqlite3_prepare_v2 (db, "SELECT count(*) FROM sqlite_schema WHERE name = ?", -1, &stmt, NULL);
      sqlite3_bind_text (stmt, 1, tables[i], -1, SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, 1);
      sqlite3_finalize (stmt);
    }
  for (guint i = 0; i < G_N_ELEMENTS (session_columns); i++)
    {
      sqlite3_stmt *stmt = NULL;

      sqlite3_prepare_v2 (db, "SELECT count(*) FROM pragma_table_info('sessions') WHERE name = ?",
                          -1, &stmt, NULL);
      sqlite3_bind_text (stmt, 1, session_columns[i], -1, SQLITE_STATIC);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      if (sqlite3_column_int (stmt, 0) != 1)
        g_error ("sessions has no column %s", session_columns[i]);
      sqlite3_finalize (stmt);
    }
  /* Nothing fires per message, event (schema v5) or session (v6) inserted: a trigger would
   * make SQLite journal every page an import's insert changes. Their writers index them in
   * bulk. */
  {
    sqlite3_stmt *stmt = NULL;

    g_assert_cmpint (sqlite3_prepare_v2 (db,
                                         "SELECT count(*) FROM sqlite_schema"
                                         " WHERE type = 'trigger'"
                                         " AND tbl_name IN ('messages', 'events', 'sessions')"
                                         " AND sql LIKE '%AFTER INSERT%'",
                                         -1, &stmt, NULL),
                     ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpint (sqlite3_column_int (stmt, 0), ==, 0);
    sqlite3_finalize (stmt);
  }
  sqlite3_close (db);

  /* WAL, so that the app and the CLI can use the store at the same time. */
  {
    sqlite3_stmt *stmt = NULL;

    sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READONLY, NULL);
    sqlite3_prepare_v2 (db, "PRAGMA journal_mode", -1, &stmt, NULL);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *)sqlite3_column_text (stmt, 0), ==, "wal");
    sqlite3_finalize (stmt);
    sqlite3_close (db);
  }
}

/* Opening a store of the current version again changes nothing and migrates nothing. */
static void
test_reopen_keeps_data (Fixture      *f,
                        gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Kept - 2026-11-01", "codex", "kept", 2,
                                                 1, loom_time_now_ms ());
  g_autoptr (LoomStore) again = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  again = loom_store_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_store_get_schema_version (again), ==, LOOM_STORE_SCHEMA_VERSION);
  session = loom_store_get_session (again, uuid, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Kept - 2026-11-01");
  g_assert_cmpint (loom_session_get_message_count (session), ==, 2);
}

/* A store of the current version opens while another writer holds it (an import in the app,
 * the CLI's): opening takes no write lock, and reads go on beside the writer. The writer keeps
 * its lock all along: an open that wrote would wait for it until its busy timeout and fail. */
static void
test_open_beside_writer (Fixture      *f,
                         gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Beside - 2026-11-01", "codex", "x", 2,
                                                 1, loom_time_now_ms ());
  g_autoptr (LoomStore) again = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  sqlite3 *writer = NULL;

  g_assert_cmpint (sqlite3_open (f->path, &writer), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (writer, "BEGIN IMMEDIATE", NULL, NULL, NULL), ==, SQLITE_OK);

  again = loom_store_open (f->path, &error);
  g_assert_no_error (error);
  session = loom_store_get_session (again, uuid, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Beside - 2026-11-01");

  g_assert_cmpint (sqlite3_exec (writer, "ROLLBACK", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (writer);
}

/* Opening the store again in a process that has it open already (the app keeps a connection
 * while each import pass opens one) must not drop the locks SQLite holds on it: closing any
 * descriptor of a file releases all of a process's locks on it. Another process (the CLI)
 * then took itself for the store's last user when it closed, checkpointed, and removed the WAL
 * under the open connections, and their next writes left the store malformed. */
static void
test_locks_kept_across_opens (Fixture      *f,
                              gconstpointer data)
{
  g_autofree char *wal = g_strconcat (f->path, "-wal", NULL);
  g_autofree char *uuid = loom_test_add_session (f->store, "Locked - 2026-11-01", "codex", "x", 2,
                                                 1, loom_time_now_ms ());
  const char      *argv[] = {
    "python3",
    "-c",
    "import sqlite3, sys\n"
    "c = sqlite3.connect (sys.argv[1])\n"
    "c.execute ('SELECT count(*) FROM sessions').fetchone ()\n"
    "c.close ()\n",
    f->path,
    NULL,
  };
  g_autoptr (LoomStore) again = NULL;
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  g_assert_true (g_file_test (wal, G_FILE_TEST_EXISTS));
  again = loom_store_open (f->path, &error);
  g_assert_no_error (error);

  /* Another process opens the store and closes it: it is not the last. */
  if (!g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                     &wait_status, &error))
    {
      g_test_skip ("python3 is not there to play another process");
      return;
    }
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  g_assert_true (g_file_test (wal, G_FILE_TEST_EXISTS));

  g_free (
    loom_test_add_session (again, "After - 2026-11-01", "codex", "y", 2, 1, loom_time_now_ms ()));
  g_free (loom_test_add_session (f->store, "After too - 2026-11-01", "codex", "z", 2, 1,
                                 loom_time_now_ms ()));
  g_assert_cmpint (loom_test_query_int (f->path, "SELECT count(*) FROM sessions", NULL), ==, 3);
  g_assert_cmpint (loom_test_query_int (f->path,
                                        "SELECT count(*) FROM pragma_integrity_check"
                                        " WHERE integrity_check != 'ok'",
                                        NULL),
                   ==, 0);
  g_assert_nonnull (uuid);
}

/* A migration that fails rolls back whole: the file is as it was. */
static void
test_failed_migration_rolls_back (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "old.db", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;

  /* A version-0 file that already has a table the migration wants to create. */
  exec_raw (path, "CREATE TABLE folders (x); INSERT INTO folders VALUES (42);");
  before = loom_test_file_checksum (path);

  store = loom_store_open (path, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE);
  g_assert_null (store);
  g_assert_nonnull (strstr (error->message, path));

  after = loom_test_file_checksum (path);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpint (loom_test_count_rows (path, "folders"), ==, 1);
  {
    g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (listing)) != NULL)
      g_assert_null (strstr (name, ".corrupt"));
  }

  loom_test_remove_tree (dir);
}

static void
test_newer_schema_refused (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "future.db", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) listing = NULL;
  guint n_files = 0;

  exec_raw (path, "CREATE TABLE sessions (id INTEGER PRIMARY KEY, future TEXT);"
                  "INSERT INTO sessions VALUES (1, 'from the future');"
                  "PRAGMA user_version = 99;");
  before = loom_test_file_checksum (path);

  store = loom_store_open (path, &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NEWER_SCHEMA);
  g_assert_null (store);
  g_assert_nonnull (strstr (error->message, "newer"));
  g_assert_nonnull (strstr (error->message, path));

  after = loom_test_file_checksum (path);
  g_assert_cmpstr (before, ==, after);

  /* Nothing renamed aside, nothing added beside it. */
  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);

  loom_test_remove_tree (dir);
}

static void
check_recovery (const char *dir,
                const char *path,
                const char *original_checksum)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *kept_checksum = NULL;
  const char      *kept;

  store = loom_store_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (store);

  kept = loom_store_get_recovered_path (store);
  g_assert_nonnull (kept);
  g_assert_true (g_str_has_prefix (kept, path));
  g_assert_nonnull (strstr (kept, ".corrupt-"));
  kept_checksum = loom_test_file_checksum (kept);
  g_assert_cmpstr (kept_checksum, ==, original_checksum);

  /* The fresh store works. */
  g_assert_cmpint (loom_store_get_schema_version (store), ==, LOOM_STORE_SCHEMA_VERSION);
  g_free (
    loom_test_add_session (store, "After recovery", "gemini", "fresh", 1, 0, loom_time_now_ms ()));
  g_assert_cmpuint (count_in (store, LOOM_COLLECTION_ALL), ==, 1);
}

static void
test_garbage_file_kept (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autofree char *checksum = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) garbage = g_string_new (NULL);

  for (guint i = 0; i < 2000; i++)
    g_string_append (garbage, "this is not a database, it is a shopping list\n");
  g_file_set_contents (path, garbage->str, garbage->len, &error);
  g_assert_no_error (error);
  checksum = loom_test_file_checksum (path);

  check_recovery (dir, path, checksum);
  loom_test_remove_tree (dir);
}

/* A real store whose pages were overwritten: the header is fine, the schema is not. */
static void
test_damaged_pages_kept (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autofree char *checksum = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize length = 0;

  {
    g_autoptr (LoomStore) store = loom_store_open (path, &error);
    g_assert_no_error (error);
    g_free (loom_test_add_session (store, "Doomed", "codex", "doomed", 3, 3, loom_time_now_ms ()));
    /* Closing the last connection folds the WAL back into the file. */
  }

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 8192);
  /* Keep the 100-byte header, scribble over the rest of page 1 (the schema) and page 2. */
  for (gsize i = 100; i < 8192; i++)
    contents[i] = (char)(i * 7);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  checksum = loom_test_file_checksum (path);

  check_recovery (dir, path, checksum);
  loom_test_remove_tree (dir);
}

static void
test_collections (Fixture      *f,
                  gconstpointer data)
{
  gint64           now = loom_time_now_ms ();
  gboolean         any = TRUE;
  g_autofree char *fresh = loom_test_add_session (f->store, "Fresh", "claude-code", "a", 1, 0,
                                                  now - MINUTE_MS);
  g_autofree char *week = loom_test_add_session (f->store, "This week", "codex", "b", 1, 0,
                                                 now - 3 * DAY_MS);
  g_autofree char *old = loom_test_add_session (f->store, "Old", "gemini", "c", 1, 0,
                                                now - 40 * DAY_MS);
  g_autofree char *archived = loom_test_add_session (f->store, "Archived", "codex", "d", 1, 0,
                                                     now - 2 * DAY_MS);
  g_autofree char *trashed = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (loom_store_has_sessions (f->store, &any, &error));
  g_assert_true (any);
  trashed = loom_test_add_session (f->store, "Trashed", "codex", "e", 1, 0, now - 2 * MINUTE_MS);

  g_assert_true (loom_store_set_pinned (f->store, old, TRUE, &error));
  g_assert_true (loom_store_set_archived (f->store, archived, TRUE, &error));
  g_assert_true (loom_store_set_trashed (f->store, trashed, TRUE, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_ALL), ==, 3);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_RECENT), ==, 2);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_ACTIVE), ==, 1);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_PINNED), ==, 1);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_ARCHIVED), ==, 1);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_TRASH), ==, 1);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_EVERYTHING), ==, 5);

  /* Restoring brings them back. */
  g_assert_true (loom_store_set_archived (f->store, archived, FALSE, &error));
  g_assert_true (loom_store_set_trashed (f->store, trashed, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_ALL), ==, 5);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_TRASH), ==, 0);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_ARCHIVED), ==, 0);
}

static char **
list_titles (LoomStore              *store,
             const LoomSessionQuery *query)
{
  g_autoptr (GListModel) model = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  model = loom_store_list_sessions (store, query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (model, i);
      g_strv_builder_add (builder, loom_session_get_title (session));
    }
  return g_strv_builder_end (builder);
}

static void
test_sort_filter_paginate (Fixture      *f,
                           gconstpointer data)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  gint64           now = loom_time_now_ms ();
  g_auto (GStrv) titles = NULL;

  g_free (loom_test_add_session (f->store, "beta", "codex", "x", 0, 0, now - 3 * MINUTE_MS));
  g_free (loom_test_add_session (f->store, "Alpha", "claude-code", "x", 0, 0, now - MINUTE_MS));
  g_free (loom_test_add_session (f->store, "gamma", "codex", "x", 0, 0, now - 2 * MINUTE_MS));

  titles = list_titles (f->store, &query);
  g_assert_cmpstrv (titles, ((const char *const[]){ "Alpha", "gamma", "beta", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  query.sort = LOOM_SORT_TITLE;
  titles = list_titles (f->store, &query);
  g_assert_cmpstrv (titles, ((const char *const[]){ "Alpha", "beta", "gamma", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  query.ascending = TRUE;
  titles = list_titles (f->store, &query);
  g_assert_cmpstrv (titles, ((const char *const[]){ "gamma", "beta", "Alpha", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  query.sort = LOOM_SORT_CREATED;
  query.ascending = FALSE;
  query.limit = 2;
  query.offset = 1;
  titles = list_titles (f->store, &query);
  g_assert_cmpstrv (titles, ((const char *const[]){ "gamma", "beta", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  query = (LoomSessionQuery)LOOM_SESSION_QUERY_INIT;
  query.source = "codex";
  titles = list_titles (f->store, &query);
  g_assert_cmpstrv (titles, ((const char *const[]){ "gamma", "beta", NULL }));
  g_clear_pointer (&titles, g_strfreev);

  query.source = NULL;
  query.project = "loom";
  titles = list_titles (f->store, &query);
  g_assert_cmpuint (g_strv_length (titles), ==, 3);
  g_clear_pointer (&titles, g_strfreev);
  query.project = "elsewhere";
  titles = list_titles (f->store, &query);
  g_assert_cmpuint (g_strv_length (titles), ==, 0);
}

static void
test_ids (Fixture      *f,
          gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Find me", "codex", "x", 0, 0,
                                                 loom_time_now_ms ());
  g_autoptr (LoomSession) by_uuid = NULL;
  g_autoptr (LoomSession) by_prefix = NULL;
  g_autoptr (LoomSession) by_source = NULL;
  g_autoptr (LoomSession) missing = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *prefix = g_strndup (uuid, 8);

  by_uuid = loom_store_get_session (f->store, uuid, &error);
  g_assert_no_error (error);
  by_prefix = loom_store_get_session (f->store, prefix, &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_session_get_id (by_uuid), ==, loom_session_get_id (by_prefix));

  by_source = loom_store_get_session (f->store,
                                      loom_session_get_record (by_uuid)->source_session_id, &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_session_get_id (by_uuid), ==, loom_session_get_id (by_source));

  missing = loom_store_get_session (f->store, "ffffffff-not-there", &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_null (missing);
  g_clear_error (&error);

  /* Too short to be a prefix. */
  g_assert_null (loom_store_get_session (f->store, "a", &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
}

static void
test_ambiguous_prefix (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (LoomSessionRecord) record = loom_session_record_new ();

      record->uuid = g_strdup_printf ("abcd%u000-0000-4000-8000-000000000000", i);
      record->title = g_strdup ("Twin");
      record->source = g_strdup ("codex");
      g_assert_true (loom_store_insert_session (f->store, record, &error));
    }

  g_assert_null (loom_store_get_session (f->store, "abcd", &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_AMBIGUOUS);
}

static void
test_rename_pin_move (Fixture      *f,
                      gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Before", "codex", "x", 0, 0,
                                                 loom_time_now_ms ());
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (
    loom_store_rename_session (f->store, uuid, "  Fix the parser - 2026-11-29 ", &error));
  g_assert_no_error (error);
  g_assert_false (loom_store_rename_session (f->store, uuid, "   ", &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_true (loom_store_set_pinned (f->store, uuid, TRUE, &error));
  folder = loom_store_create_folder (f->store, "Parsers", &error);
  g_assert_no_error (error);
  g_assert_true (loom_store_move_session (f->store, uuid, loom_folder_get_id (folder), &error));
  g_assert_true (loom_store_mark_opened (f->store, uuid, &error));
  g_assert_no_error (error);

  session = loom_store_get_session (f->store, uuid, &error);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Fix the parser - 2026-11-29");
  g_assert_true (loom_session_get_pinned (session));
  g_assert_cmpstr (loom_session_get_folder_name (session), ==, "Parsers");
  g_assert_cmpint (loom_session_get_record (session)->last_opened_at, >, 0);
  g_clear_object (&session);

  /* A folder that does not exist is refused; no folder takes it out again. */
  g_assert_false (loom_store_move_session (f->store, uuid, 4242, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (loom_store_move_session (f->store, uuid, 0, &error));
  session = loom_store_get_session (f->store, uuid, &error);
  g_assert_cmpint (loom_session_get_folder_id (session), ==, 0);
  g_assert_null (loom_session_get_folder_name (session));
}

static void
test_folders (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *a = loom_test_add_session (f->store, "A", "codex", "x", 0, 0,
                                              loom_time_now_ms ());
  g_autofree char *b = loom_test_add_session (f->store, "B", "codex", "x", 0, 0,
                                              loom_time_now_ms ());
  g_autoptr (LoomFolder) work = NULL;
  g_autoptr (LoomFolder) home = NULL;
  g_autoptr (LoomFolder) found = NULL;
  g_autoptr (LoomFolder) dup = NULL;
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (LoomFolder) first = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  guint released = 0;

  work = loom_store_create_folder (f->store, "Work", &error);
  home = loom_store_create_folder (f->store, "Home", &error);
  g_assert_no_error (error);

  dup = loom_store_create_folder (f->store, "work", &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS);
  g_assert_null (dup);
  g_clear_error (&error);
  g_assert_null (loom_store_create_folder (f->store, " ", &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  found = loom_store_find_folder (f->store, "WORK", &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_folder_get_id (found), ==, loom_folder_get_id (work));
  g_clear_object (&found);

  g_assert_true (loom_store_rename_folder (f->store, loom_folder_get_id (work), "Job", &error));
  g_assert_false (loom_store_rename_folder (f->store, loom_folder_get_id (work), "home", &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS);
  g_clear_error (&error);

  g_assert_true (loom_store_move_session (f->store, a, loom_folder_get_id (work), &error));
  g_assert_true (loom_store_move_session (f->store, b, loom_folder_get_id (work), &error));
  found = loom_store_find_folder (f->store, "Job", &error);
  g_assert_cmpint (loom_folder_get_n_sessions (found), ==, 2);

  /* Reorder: Home to the top. */
  g_assert_true (loom_store_reorder_folder (f->store, loom_folder_get_id (home), 0, &error));
  folders = loom_store_list_folders (f->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (folders), ==, 2);
  first = g_list_model_get_item (folders, 0);
  g_assert_cmpstr (loom_folder_get_name (first), ==, "Home");

  /* Deleting the folder keeps its sessions. */
  g_assert_true (loom_store_delete_folder (f->store, loom_folder_get_id (work), &released, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (released, ==, 2);
  session = loom_store_get_session (f->store, a, &error);
  g_assert_nonnull (session);
  g_assert_cmpint (loom_session_get_folder_id (session), ==, 0);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_ALL), ==, 2);
  g_assert_null (loom_store_find_folder (f->store, "Job", &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
}

static const char *const counted_tables[] = {
  "sessions", "messages", "events", "artifacts", "summaries", "search_index",
};

/* The index is contentless and has no rows to count: search_entries has one per entry. */
static gint64
count_table_rows (const char *path,
                  const char *table)
{
  return loom_test_count_rows (path,
                               g_str_equal (table, "search_index") ? "search_entries" : table);
}

/* The dry-run lists exactly the rows that deleting then removes: no more, no fewer. */
static void
test_delete_plan_exact (Fixture      *f,
                        gconstpointer data)
{
  g_autofree char *doomed = loom_test_add_session (f->store, "Doomed", "claude-code", "xylophone",
                                                   5, 4, loom_time_now_ms ());
  g_autofree char *kept = loom_test_add_session (f->store, "Kept", "claude-code", "kazoo", 3, 2,
                                                 loom_time_now_ms ());
  g_autoptr (LoomSessionRecord) child = loom_session_record_new ();
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  gint64      before[G_N_ELEMENTS (counted_tables)];
  const char *ids[] = { doomed, NULL };

  /* A sub-agent session goes with its parent. */
  child->title = g_strdup ("Sub-agent");
  child->source = g_strdup ("claude-code");
  child->parent_uuid = g_strdup (doomed);
  child->session_type = g_strdup ("subagent");
  g_assert_true (loom_store_insert_session (f->store, child, &error));
  g_assert_cmpint (
    loom_store_add_message (f->store, child->id, "assistant", "xylophone child", 0, &error), >, 0);
  g_assert_no_error (error);

  for (guint t = 0; t < G_N_ELEMENTS (counted_tables); t++)
    before[t] = count_table_rows (f->path, counted_tables[t]);
  g_assert_cmpint (loom_test_count_matches (f->path, "xylophone"), ==, 5 + 4 + 1);

  plan = loom_store_plan_delete (f->store, ids, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loom_delete_plan_get_n_sessions (plan), ==, 2);
  g_assert_cmpuint (loom_delete_plan_count (plan, "sessions"), ==, 2);
  g_assert_cmpuint (loom_delete_plan_count (plan, "messages"), ==, 6);
  g_assert_cmpuint (loom_delete_plan_count (plan, "events"), ==, 4);
  g_assert_cmpuint (loom_delete_plan_count (plan, "search_index"), ==, 2 + 6 + 4);

  /* Planning alone removes nothing. */
  for (guint t = 0; t < G_N_ELEMENTS (counted_tables); t++)
    g_assert_cmpint (count_table_rows (f->path, counted_tables[t]), ==, before[t]);

  g_assert_true (loom_store_execute_delete (f->store, plan, &error));
  g_assert_no_error (error);

  for (guint t = 0; t < G_N_ELEMENTS (counted_tables); t++)
    {
      gint64 after = count_table_rows (f->path, counted_tables[t]);
      g_assert_cmpint (before[t] - after, ==,
                       (gint64)loom_delete_plan_count (plan, counted_tables[t]));
    }

  /* Nothing searchable is left behind, the other session is untouched, and the agent's
   * session is remembered so an import will not bring it back. */
  g_assert_cmpint (loom_test_count_matches (f->path, "xylophone"), ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->path, "kazoo"), ==, 3 + 2);
  g_assert_cmpint (loom_test_count_rows (f->path, "tombstones"), ==, 1);
  {
    g_autoptr (LoomSession) still = loom_store_get_session (f->store, kept, &error);
    g_assert_no_error (error);
    g_assert_cmpint (loom_session_get_message_count (still), ==, 3);
  }
}

/* If the session grows between the dry-run and the deletion, nothing is deleted. */
static void
test_delete_plan_stale (Fixture      *f,
                        gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Growing", "codex", "grow", 2, 0,
                                                 loom_time_now_ms ());
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  const char *ids[] = { uuid, NULL };

  plan = loom_store_plan_delete (f->store, ids, &error);
  g_assert_no_error (error);

  session = loom_store_get_session (f->store, uuid, &error);
  g_assert_cmpint (
    loom_store_add_message (f->store, loom_session_get_id (session), "user", "one more", 0, &error),
    >, 0);

  g_assert_false (loom_store_execute_delete (f->store, plan, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_FAILED);
  g_assert_cmpint (loom_test_count_rows (f->path, "sessions"), ==, 1);
  g_assert_cmpint (loom_test_count_rows (f->path, "messages"), ==, 3);
}

static void
test_empty_trash (Fixture      *f,
                  gconstpointer data)
{
  g_autofree char *a = loom_test_add_session (f->store, "A", "codex", "alpha", 2, 1,
                                              loom_time_now_ms ());
  g_autofree char *b = loom_test_add_session (f->store, "B", "codex", "bravo", 2, 1,
                                              loom_time_now_ms ());
  g_autofree char *c = loom_test_add_session (f->store, "C", "codex", "charlie", 2, 1,
                                              loom_time_now_ms ());
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (loom_store_set_trashed (f->store, a, TRUE, &error));
  g_assert_true (loom_store_set_trashed (f->store, c, TRUE, &error));

  plan = loom_store_plan_empty_trash (f->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (loom_delete_plan_get_n_sessions (plan), ==, 2);
  g_assert_true (loom_store_execute_delete (f->store, plan, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_EVERYTHING), ==, 1);
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_TRASH), ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->path, "alpha OR charlie"), ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->path, "bravo"), ==, 3);
}

/* Deleting a message sets its events' message_id to NULL (a foreign key); SQLite finds them
 * through events_message, not by reading every event of every session. */
static void
test_message_delete_reads_no_events (Fixture      *f,
                                     gconstpointer data)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_free (
    loom_test_add_session (f->store, "Many events", "codex", "bulk", 2, 2000, loom_time_now_ms ()));

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  g_assert_cmpint (sqlite3_exec (db,
                                 "PRAGMA foreign_keys = ON;"
                                 "UPDATE events SET message_id = (SELECT min (id) FROM messages)"
                                 " WHERE id = (SELECT min (id) FROM events)",
                                 NULL, NULL, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "DELETE FROM messages WHERE id = (SELECT min (id)"
                                       " FROM messages)",
                                       -1, &stmt, NULL),
                   ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  /* Without the index, about one step per event. */
  g_assert_cmpint (sqlite3_stmt_status (stmt, SQLITE_STMTSTATUS_FULLSCAN_STEP, FALSE), <, 10);
  sqlite3_finalize (stmt);

  g_assert_cmpint (loom_test_count_rows (f->path, "messages"), ==, 1);
  g_assert_cmpint (loom_test_count_rows (f->path, "events"), ==, 2000);
  sqlite3_close (db);
  loom_test_assert_index_in_sync (f->path);
}

/* The index is derived: deleting it all and rebuilding gives the same answers. */
static void
test_rebuild_index (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  g_free (
    loom_test_add_session (f->store, "Café crème", "codex", "naïve", 4, 3, loom_time_now_ms ()));
  g_assert_cmpint (loom_test_count_matches (f->path, "naive"), ==, 7);
  g_assert_cmpint (loom_test_count_matches (f->path, "cafe"), ==, 1);

  g_assert_cmpint (index_hashsize (f->path), ==, 16 << 20);
  exec_raw (f->path, "INSERT INTO search_index (search_index) VALUES ('delete-all')");
  g_assert_cmpint (loom_test_count_matches (f->path, "naive"), ==, 0);

  g_assert_true (loom_store_rebuild_index (f->store, &error));
  g_assert_no_error (error);
  g_assert_cmpint (loom_test_count_matches (f->path, "naive"), ==, 7);
  g_assert_cmpint (loom_test_count_matches (f->path, "cafe"), ==, 1);
  /* The new table has the store's own settings. */
  g_assert_cmpint (index_hashsize (f->path), ==, 16 << 20);
  /* The rebuild noted its terms again (search_terms was emptied with the index). */
  loom_test_assert_index_in_sync (f->path);
}

/* The app and the CLI use one store at once: a second connection sees the first's writes. */
static void
test_two_connections (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (LoomStore) other = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *uuid = NULL;

  other = loom_store_open (f->path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_in (other, LOOM_COLLECTION_ALL), ==, 0);

  uuid = loom_test_add_session (f->store, "Shared", "codex", "x", 1, 0, loom_time_now_ms ());
  g_assert_cmpuint (count_in (other, LOOM_COLLECTION_ALL), ==, 1);
  g_assert_true (loom_store_set_pinned (other, uuid, TRUE, &error));
  g_assert_cmpuint (count_in (f->store, LOOM_COLLECTION_PINNED), ==, 1);
}

static void
test_session_json (Fixture      *f,
                   gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Json", "gemini", "x", 2, 1,
                                                 1764441748123);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object;

  session = loom_store_get_session (f->store, uuid, &error);
  node = loom_session_to_json (session);
  object = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (object, "id"), ==, uuid);
  g_assert_cmpstr (json_object_get_string_member (object, "source"), ==, "gemini");
  g_assert_cmpstr (json_object_get_string_member (object, "updated_at"), ==,
                   "2025-11-29T18:42:28.123Z");
  g_assert_cmpint (json_object_get_int_member (object, "message_count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (object, "event_count"), ==, 1);
  g_assert_true (
    json_object_has_member (json_object_get_object_member (object, "counts"), "tool_errors"));
  g_assert_true (
    json_object_has_member (json_object_get_object_member (object, "tokens"), "cache_read"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (object, "parent_session_id")));
  g_assert_cmpstr (json_object_get_string_member (object, "project"), ==, "loom");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  /* GLib caches the XDG folders on first use: point them somewhere private before that. */
  data_home = g_dir_make_tmp ("loom-test-data-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_unsetenv ("LOOM_DB");

  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  g_test_add_func ("/store/location/default-permissions", test_default_location_permissions);
  g_test_add_func ("/store/location/env-override", test_env_override);
  g_test_add ("/store/schema/v1", Fixture, NULL, fixture_set_up, test_schema, fixture_tear_down);
  g_test_add ("/store/schema/message-delete-reads-no-events", Fixture, NULL, fixture_set_up,
              test_message_delete_reads_no_events, fixture_tear_down);
  g_test_add ("/store/schema/reopen", Fixture, NULL, fixture_set_up, test_reopen_keeps_data,
              fixture_tear_down);
  g_test_add ("/store/schema/open-beside-writer", Fixture, NULL, fixture_set_up,
              test_open_beside_writer, fixture_tear_down);
  g_test_add ("/store/schema/locks-kept-across-opens", Fixture, NULL, fixture_set_up,
              test_locks_kept_across_opens, fixture_tear_down);
  g_test_add_func ("/store/schema/failed-migration-rolls-back", test_failed_migration_rolls_back);
  g_test_add_func ("/store/schema/upgrade-from-v6", test_upgrade_from_v6);
  g_test_add_func ("/store/schema/newer-refused-unchanged", test_newer_schema_refused);
  g_test_add_func ("/store/schema/upgrade-from-v1", test_upgrade_from_v1);
  g_test_add_func ("/store/recovery/garbage-file", test_garbage_file_kept);
  g_test_add_func ("/store/recovery/damaged-pages", test_damaged_pages_kept);
  g_test_add ("/store/sessions/collections", Fixture, NULL, fixture_set_up, test_collections,
              fixture_tear_down);
  g_test_add ("/store/sessions/sort-filter-paginate", Fixture, NULL, fixture_set_up,
              test_sort_filter_paginate, fixture_tear_down);
  g_test_add ("/store/sessions/ids", Fixture, NULL, fixture_set_up, test_ids, fixture_tear_down);
  g_test_add ("/store/sessions/ambiguous-prefix", Fixture, NULL, fixture_set_up,
              test_ambiguous_prefix, fixture_tear_down);
  g_test_add ("/store/sessions/rename-pin-move", Fixture, NULL, fixture_set_up,
              test_rename_pin_move, fixture_tear_down);
  g_test_add ("/store/sessions/json", Fixture, NULL, fixture_set_up, test_session_json,
              fixture_tear_down);
  g_test_add ("/store/folders", Fixture, NULL, fixture_set_up, test_folders, fixture_tear_down);
  g_test_add ("/store/delete/plan-is-exact", Fixture, NULL, fixture_set_up, test_delete_plan_exact,
              fixture_tear_down);
  g_test_add ("/store/delete/stale-plan-refused", Fixture, NULL, fixture_set_up,
              test_delete_plan_stale, fixture_tear_down);
  g_test_add ("/store/delete/empty-trash", Fixture, NULL, fixture_set_up, test_empty_trash,
              fixture_tear_down);
  g_test_add ("/store/index/rebuild", Fixture, NULL, fixture_set_up, test_rebuild_index,
              fixture_tear_down);
  g_test_add ("/store/concurrency/two-connections", Fixture, NULL, fixture_set_up,
              test_two_connections, fixture_tear_down);

  status = g_test_run ();
  loom_test_remove_tree (data_home);
  g_free (data_home);
  return status;
}
