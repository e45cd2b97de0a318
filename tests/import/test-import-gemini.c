/* test-import-gemini.c — Gemini CLI sessions: legacy documents, JSON Lines, sub-agents.
 *
 * The expected numbers come from reading the fixtures (tests/import/fixtures/gemini/README.md,
 * and tests/import/fixtures/gemini-variants/README.md for the variants of FORMATS.md §3 that
 * those do not show), not from running the importer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <unistd.h>
#include <utime.h>

#include "loom-core.h"
#include "loom-import.h"
#include "loom-importer.h"
#include "loom-store.h"
#include "loom-test-utils.h"

#define LEGACY_HASH            "1cc1d5fc80ebf9580a5adfc52aa8c2d78626dd581773fb32a4f226651f78717a"
#define LEGACY_NAME            "session-2025-09-14T10-02-3f2a9c1e.json"
#define ATLAS_ID               "8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d"
#define ATLAS_NAME             "session-2025-11-02T08-15-8c1d4e2a.jsonl"
#define CHILD_NAME             "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9.jsonl"
#define MIGRATED_HASH          "25f49f39dd2f489eefc56aff4fa7743a0f6cd213a10155390629a2b7bb69e658"
#define MIGRATED_NAME          "session-2025-08-30T16-40-77aa00bb"
#define VARIANTS               "gemini-variants"
#define INVESTIGATOR_PARENT_ID "6d7e8f90-1a2b-4c3d-9e4f-5a6b7c8d9e0f"
#define INVESTIGATOR_ID        "b7c8d9e0-f1a2-4b3c-8d4e-5f6a7b8c9d0e"
#define TOKENS_ID              "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a"
#define TOKENS_FILE \
  "tmp/1cc1d5fc80ebf9580a5adfc52aa8c2d78626dd581773fb32a4f226651f78717a/" \
  "chats/session-2025-12-05T14-00-3d4e5f6a.jsonl"
#define TWO_ON_A_LINE_FILE \
  "tmp/1cc1d5fc80ebf9580a5adfc52aa8c2d78626dd581773fb32a4f226651f78717a/" \
  "chats/session-2025-12-04T09-30-2c3d4e5f.jsonl"

typedef struct
{
  const char *source_session_id;
  gint64      user, assistant, tool_calls, tool_results, tool_errors, reasoning;
  gint64      message_count, event_count;
  gint64      tokens_in, tokens_out, tokens_cache_read, tokens_cache_creation;
  gint64      tokens_reasoning; /* -1: null */
  const char *tools_used;       /* JSON object */
  const char *model;
  const char *title; /* NULL: not checked */
  const char *cwd;   /* NULL: must be null */
  const char *session_type;
  const char *parent;     /* the parent's source session id, NULL: none */
  const char *created_at; /* NULL: not checked */
  const char *updated_at;
  const char *subagent_start; /* the one sub-agent start in the timeline, NULL: not checked */
} Expected;

static const Expected legacy_expected = {
  "3f2a9c1e-5b7d-4e2a-9c0f-1a2b3c4d5e6f",
  2,
  3,
  6,
  6,
  2,
  3,
  5,
  17,
  11056,
  746,
  19000,
  0,
  305,
  "{\"read_file\":1,\"run_shell_command\":2,\"replace\":2,\"write_file\":1}",
  "gemini-2.5-pro",
  "Fix Tokyo time zone date test - 2025-09-14",
  NULL,
  "main",
  NULL,
  "2025-09-14T10:02:11.512Z",
  "2025-09-14T10:09:47.030Z",
};

/* The same document as it was before the CLI rewrote it (legacy/…json.before). */
static const Expected legacy_before_expected = {
  "3f2a9c1e-5b7d-4e2a-9c0f-1a2b3c4d5e6f",
  1,
  2,
  3,
  3,
  1,
  3,
  3,
  9,
  8123,
  251,
  0,
  0,
  210,
  "{\"read_file\":1,\"run_shell_command\":1,\"replace\":1}",
  "gemini-2.5-pro",
  NULL,
  NULL,
  "main",
  NULL,
  "2025-09-14T10:02:11.512Z",
  "2025-09-14T10:03:10.950Z",
};

static const Expected atlas_expected = {
  ATLAS_ID,
  3,
  4,
  4,
  4,
  1,
  2,
  7,
  14,
  11730,
  618,
  18000,
  0,
  174,
  "{\"read_file\":1,\"write_file\":1,\"run_shell_command\":1,\"replace\":1}",
  "gemini-2.5-pro",
  "Add --json output to atlas list - 2025-11-02",
  "/home/ada/src/atlas",
  "main",
  NULL,
  "2025-11-02T08:15:03.120Z",
  "2025-11-02T08:19:30.100Z",
};

static const Expected child_expected = {
  "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9",
  1,
  2,
  3,
  3,
  0,
  1,
  3,
  7,
  4200,
  405,
  2900,
  0,
  25,
  "{\"glob\":1,\"search_file_content\":1,\"complete_task\":1}",
  "gemini-2.5-flash",
  "Find where `atlas list` formats its table output. - 2025-11-02",
  "/home/ada/src/atlas",
  "subagent",
  ATLAS_ID,
  "2025-11-02T08:16:00.000Z",
  "2025-11-02T08:16:15.002Z",
};

static const Expected migrated_expected = {
  "77aa00bb-3c4d-4e5f-a6b7-c8d9e0f1a2b3",
  2,
  2,
  1,
  1,
  0,
  0,
  4,
  3,
  2200,
  1050,
  1100,
  0,
  30,
  "{\"write_file\":1}",
  "gemini-2.5-flash",
  "Translate README to Japanese - 2025-08-30",
  NULL,
  "main",
  NULL,
  "2025-08-30T16:40:05.000Z",
  "2025-09-02T09:12:40.002Z",
};

static const Expected sync_expected = {
  "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  1,
  2,
  1,
  1,
  0,
  0,
  3,
  2,
  1600,
  150,
  800,
  0,
  0,
  "{\"search_file_content\":1}",
  "gemini-2.5-pro",
  "List the TODOs in src/ - 2025-10-05",
  NULL,
  "main",
  NULL,
  "2025-10-05T12:00:00.000Z",
  "2025-10-05T12:00:30.002Z",
};

/* The variants (fixtures/gemini-variants/README.md). */

static const Expected investigator_parent_expected = {
  INVESTIGATOR_PARENT_ID,
  1,
  2,
  1,
  1,
  0,
  1,
  3,
  4,
  5800,
  190,
  8000,
  0,
  90,
  "{\"codebase_investigator\":1}",
  "gemini-2.5-pro",
  "Where is the retry policy for deploys configured? - 2025-12-03",
  "/home/ada/src/orbit",
  "main",
  NULL,
  "2025-12-03T15:20:00.000Z",
  "2025-12-03T15:20:41.002Z",
  "Find where deploy retries are configured (sub-agent " INVESTIGATOR_ID ")",
};

static const Expected investigator_expected = {
  INVESTIGATOR_ID,
  1,
  2,
  2,
  2,
  0,
  0,
  3,
  4,
  4700,
  190,
  2500,
  0,
  20,
  "{\"search_file_content\":1,\"complete_task\":1}",
  "gemini-2.5-flash",
  "Find where deploy retries are configured - 2025-12-03",
  "/home/ada/src/orbit",
  "subagent",
  INVESTIGATOR_PARENT_ID,
  "2025-12-03T15:20:05.000Z",
  "2025-12-03T15:20:29.002Z",
};

static const Expected two_on_a_line_expected = {
  "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f",
  2,
  2,
  2,
  2,
  1,
  1,
  4,
  5,
  6350,
  120,
  5000,
  0,
  40,
  "{\"run_shell_command\":2}",
  "gemini-2.5-pro",
  "Run the import tests - 2025-12-04",
  "/home/ada/src/loom",
  "main",
  NULL,
  "2025-12-04T09:30:00.000Z",
  "2025-12-04T09:31:10.002Z",
};

/* tokens/: a message written three times (no tokens yet, its tokens, then zeros where a copy
 * lost them) and one written twice (its tokens, then a partial count), by hand:
 *   input      = Σ (input − cached + tool)  = (4000−1500+0) + (6200−5000+40) + (7000−6400+0)
 *                                           = 2500 + 1240 + 600 = 4340
 *   output     = Σ (output + thoughts)      = (120+300) + (80+0) + (200+150) = 850
 *   cache_read = Σ cached                   = 1500 + 5000 + 6400 = 12900
 *   reasoning  = Σ thoughts                 = 300 + 0 + 150 = 450
 * and input + cache_read + output = 18090 = Σ total (4420 + 6320 + 7350). */
static const Expected tokens_expected = {
  TOKENS_ID,
  2,
  3,
  0,
  0,
  0,
  2,
  5,
  2,
  4340,
  850,
  12900,
  0,
  450,
  "{}",
  "gemini-2.5-pro",
  "Why is the cache hit rate of the search index so low? - 2025-12-05",
  "/home/ada/src/loom",
  "main",
  NULL,
  "2025-12-05T14:00:00.000Z",
  "2025-12-05T14:01:20.002Z",
};

/* ——— Helpers ——— */

typedef struct
{
  char      *dir;
  char      *db_path;
  LoomStore *store;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  f->store = loom_test_new_store (&f->dir, &f->db_path);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_clear_object (&f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->db_path);
  g_free (f->dir);
}

/* The path of the elements given (NULL-terminated) below fixtures/gemini. */
#define fixture_path(...) loom_test_fixture_path ("gemini", __VA_ARGS__)

static LoomImportStats *
import_path (LoomStore  *store,
             const char *source,
             const char *path)
{
  const char *paths[] = { path, NULL };

  return loom_test_import_paths (store, source, paths);
}

static void
assert_no_warnings (LoomImportStats *stats)
{
  g_assert_cmpuint (stats->warnings->len, ==, 0);
  g_assert_cmpuint (stats->files_failed, ==, 0);
}

static void
assert_one_warning (LoomImportStats *stats,
                    const char      *expected_start)
{
  g_assert_cmpuint (stats->warnings->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (stats->warnings, 0), expected_start));
}

/* Every session of the store, as `loom sessions list --json` prints them. */
static JsonArray *
list_sessions (LoomStore *store)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) model = NULL;
  g_autoptr (GError) error = NULL;
  JsonArray *array = json_array_new ();

  query.collection = LOOM_COLLECTION_EVERYTHING;
  model = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (model, i);

      json_array_add_element (array, loom_session_to_json (session));
    }
  return array;
}

static char *
list_sessions_text (LoomStore *store)
{
  g_autoptr (JsonArray) array = list_sessions (store);
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_ARRAY);

  json_node_set_array (node, array);
  return json_to_string (node, TRUE);
}

static JsonObject *
find_session (JsonArray  *sessions,
              const char *source_session_id)
{
  for (guint i = 0; i < json_array_get_length (sessions); i++)
    {
      JsonObject *session = json_array_get_object_element (sessions, i);

      if (g_strcmp0 (
            json_object_get_string_member_with_default (session, "source_session_id", NULL),
            source_session_id) == 0)
        return session;
    }
  return NULL;
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  return json_object_get_string_member_with_default (object, member, NULL);
}

static void
assert_same_object (JsonObject *actual,
                    const char *expected_json)
{
  g_autoptr (JsonNode) expected_node = json_from_string (expected_json, NULL);
  JsonObject *expected = json_node_get_object (expected_node);
  g_autoptr (GList) members = json_object_get_members (expected);

  g_assert_cmpuint (json_object_get_size (actual), ==, json_object_get_size (expected));
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_test_message ("tools_used[%s]", (const char *)l->data);
      g_assert_true (json_object_has_member (actual, l->data));
      g_assert_cmpint (json_object_get_int_member (actual, l->data), ==,
                       json_object_get_int_member (expected, l->data));
    }
}

/* tokens.reasoning is @expected, or null for -1. */
static void
assert_reasoning (JsonObject *tokens,
                  gint64      expected)
{
  g_assert_true (json_object_has_member (tokens, "reasoning"));
  if (expected < 0)
    g_assert_true (json_object_get_null_member (tokens, "reasoning"));
  else
    g_assert_cmpint (json_object_get_int_member (tokens, "reasoning"), ==, expected);
}

static void
assert_session (JsonArray      *sessions,
                const Expected *e)
{
  JsonObject *s = find_session (sessions, e->source_session_id);
  JsonObject *counts, *tokens;

  g_test_message ("session %s", e->source_session_id);
  g_assert_nonnull (s);
  counts = json_object_get_object_member (s, "counts");
  tokens = json_object_get_object_member (s, "tokens");

  g_assert_cmpstr (get_string (s, "source"), ==, "gemini");
  g_assert_cmpint (json_object_get_int_member (counts, "user_messages"), ==, e->user);
  g_assert_cmpint (json_object_get_int_member (counts, "assistant_messages"), ==, e->assistant);
  g_assert_cmpint (json_object_get_int_member (counts, "tool_calls"), ==, e->tool_calls);
  g_assert_cmpint (json_object_get_int_member (counts, "tool_results"), ==, e->tool_results);
  g_assert_cmpint (json_object_get_int_member (counts, "tool_errors"), ==, e->tool_errors);
  g_assert_cmpint (json_object_get_int_member (counts, "reasoning"), ==, e->reasoning);
  g_assert_cmpint (json_object_get_int_member (s, "message_count"), ==, e->message_count);
  g_assert_cmpint (json_object_get_int_member (s, "event_count"), ==, e->event_count);
  g_assert_cmpint (json_object_get_int_member (tokens, "input"), ==, e->tokens_in);
  g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, e->tokens_out);
  g_assert_cmpint (json_object_get_int_member (tokens, "cache_read"), ==, e->tokens_cache_read);
  g_assert_cmpint (json_object_get_int_member (tokens, "cache_creation"), ==,
                   e->tokens_cache_creation);
  assert_reasoning (tokens, e->tokens_reasoning);
  assert_same_object (json_object_get_object_member (s, "tools_used"), e->tools_used);
  g_assert_cmpstr (get_string (s, "model"), ==, e->model);
  if (e->title != NULL)
    g_assert_cmpstr (get_string (s, "title"), ==, e->title);
  g_assert_cmpstr (get_string (s, "cwd"), ==, e->cwd);
  g_assert_cmpstr (get_string (s, "git_branch"), ==, NULL);
  g_assert_cmpstr (get_string (s, "session_type"), ==, e->session_type);
  if (e->created_at != NULL)
    g_assert_cmpstr (get_string (s, "created_at"), ==, e->created_at);
  if (e->updated_at != NULL)
    g_assert_cmpstr (get_string (s, "updated_at"), ==, e->updated_at);

  if (e->parent == NULL)
    g_assert_cmpstr (get_string (s, "parent_session_id"), ==, NULL);
  else
    {
      JsonObject *parent = find_session (sessions, e->parent);

      g_assert_nonnull (parent);
      g_assert_nonnull (get_string (s, "parent_session_id"));
      g_assert_cmpstr (get_string (s, "parent_session_id"), ==, get_string (parent, "id"));
    }
}

static void
assert_n_sessions (JsonArray *sessions,
                   guint      n)
{
  for (guint i = 0; i < json_array_get_length (sessions); i++)
    {
      JsonObject *s = json_array_get_object_element (sessions, i);

      g_test_message ("session %s from %s (%s)", get_string (s, "source_session_id"),
                      get_string (s, "source_path"), get_string (s, "source"));
    }
  g_assert_cmpuint (json_array_get_length (sessions), ==, n);
}

/* Copies the file or folder @from to @to, creating folders on the way. */
static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr (GError) error = NULL;

  if (g_file_test (from, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (from, 0, &error);
      const char *name;

      g_assert_no_error (error);
      g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child_from = g_build_filename (from, name, NULL);
          g_autofree char *child_to = g_build_filename (to, name, NULL);

          copy_tree (child_from, child_to);
        }
    }
  else
    {
      g_autofree char *contents = NULL;
      g_autofree char *parent = g_path_get_dirname (to);
      gsize            length;

      g_assert_true (g_file_get_contents (from, &contents, &length, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
      g_assert_true (g_file_set_contents (to, contents, (gssize)length, &error));
      g_assert_no_error (error);
    }
}

static void
write_bytes (const char *path,
             const char *data,
             gsize       length)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, data, (gssize)length, &error));
  g_assert_no_error (error);
}

/* Appends like the CLI does (fs.appendFileSync): same file, same inode. */
static void
append_bytes (const char *path,
              const char *data,
              gsize       length)
{
  FILE *stream = g_fopen (path, "ab");

  g_assert_nonnull (stream);
  g_assert_cmpuint (fwrite (data, 1, length, stream), ==, length);
  g_assert_cmpint (fclose (stream), ==, 0);
}

/* Moves the file's modification time forward so that the next pass sees a change. */
static void
bump_mtime (const char *path,
            gint        seconds)
{
  GStatBuf       st;
  struct utimbuf times;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  times.actime = st.st_atime;
  times.modtime = st.st_mtime + seconds;
  g_assert_cmpint (g_utime (path, &times), ==, 0);
}

static char *
query_text (const char *db_path,
            const char *sql)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char         *text = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    text = g_strdup ((const char *)sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return text;
}

/* ——— One fixture at a time, named and detected ——— */

typedef struct
{
  const char     *folder;
  const char     *source;
  guint           n_sessions;
  const Expected *expected[2];
  const char     *root;    /* below fixtures/, NULL: gemini */
  const char     *warning; /* the one warning, "<file below the folder>:<line>: <text>"
                                 * (its start), NULL: none */
} FolderCase;

/* The one sub-agent start of @e's timeline, as the person sees it. */
static void
assert_subagent_start (Fixture        *f,
                       const Expected *e)
{
  g_autofree char *sql = g_strdup_printf ("SELECT group_concat (e.text, ' | ') FROM events e"
                                          " JOIN sessions s ON s.id = e.session_id"
                                          " WHERE e.kind = 'subagent'"
                                          " AND s.source_session_id = '%s'",
                                          e->source_session_id);
  g_autofree char *text = query_text (f->db_path, sql);

  g_assert_cmpstr (text, ==, e->subagent_start);
}

/* fixtures/<root>/<folder>. */
static char *
folder_path (const FolderCase *c)
{
  const char *fixtures = g_getenv ("LOOM_TEST_FIXTURES");

  g_assert_nonnull (fixtures);
  return g_build_filename (fixtures, c->root != NULL ? c->root : "gemini", c->folder, NULL);
}

static void
test_folder (Fixture      *f,
             gconstpointer data)
{
  const FolderCase *c = data;
  g_autofree char  *path = folder_path (c);
  g_autoptr (LoomImportStats) stats = import_path (f->store, c->source, path);
  g_autoptr (JsonArray) sessions = list_sessions (f->store);

  if (c->warning != NULL)
    {
      g_autofree char *warning = g_build_filename (path, c->warning, NULL);

      assert_one_warning (stats, warning);
      g_assert_cmpuint (stats->files_failed, ==, 0);
    }
  else
    assert_no_warnings (stats);
  assert_n_sessions (sessions, c->n_sessions);
  for (guint i = 0; i < G_N_ELEMENTS (c->expected) && c->expected[i] != NULL; i++)
    {
      assert_session (sessions, c->expected[i]);
      if (c->expected[i]->subagent_start != NULL)
        assert_subagent_start (f, c->expected[i]);
    }
}

static const FolderCase legacy_named = { "legacy", "gemini", 1, { &legacy_expected } };
static const FolderCase legacy_detected = { "legacy", NULL, 1, { &legacy_expected } };
static const FolderCase jsonl_named = { "jsonl",
                                        "gemini",
                                        2,
                                        { &atlas_expected, &child_expected } };
static const FolderCase jsonl_detected = { "jsonl", NULL, 2, { &atlas_expected, &child_expected } };
static const FolderCase migrated_named = { "migrated", "gemini", 1, { &migrated_expected } };
static const FolderCase migrated_detected = { "migrated", NULL, 1, { &migrated_expected } };
static const FolderCase sync_named = { "sync", "gemini", 1, { &sync_expected } };
static const FolderCase sync_detected = { "sync", NULL, 1, { &sync_expected } };
static const FolderCase agent_id_named = { "agent-id",
                                           "gemini",
                                           2,
                                           { &investigator_parent_expected,
                                             &investigator_expected },
                                           VARIANTS };
static const FolderCase agent_id_detected = { "agent-id",
                                              NULL,
                                              2,
                                              { &investigator_parent_expected,
                                                &investigator_expected },
                                              VARIANTS };
static const FolderCase two_on_a_line_named = { "two-on-a-line",
                                                "gemini",
                                                1,
                                                { &two_on_a_line_expected },
                                                VARIANTS,
                                                TWO_ON_A_LINE_FILE
                                                ":4: 2 JSON values on one line" };
static const FolderCase two_on_a_line_detected = { "two-on-a-line",
                                                   NULL,
                                                   1,
                                                   { &two_on_a_line_expected },
                                                   VARIANTS,
                                                   TWO_ON_A_LINE_FILE
                                                   ":4: 2 JSON values on one line" };
static const FolderCase tokens_named = { "tokens", "gemini", 1, { &tokens_expected }, VARIANTS };
static const FolderCase tokens_detected = { "tokens", NULL, 1, { &tokens_expected }, VARIANTS };

/* A single session file named on the command line, its format detected from its content. */
static void
test_single_file_detected (Fixture      *f,
                           gconstpointer data)
{
  g_autofree char *path = fixture_path ("legacy", "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  g_autoptr (LoomImportStats) stats = import_path (f->store, NULL, path);
  g_autoptr (JsonArray) sessions = list_sessions (f->store);

  assert_no_warnings (stats);
  assert_n_sessions (sessions, 1);
  assert_session (sessions, &legacy_expected);
}

/* logs.json and checkpoint-*.json sit beside the sessions but are not sessions. */
static void
test_companions_ignored (Fixture      *f,
                         gconstpointer data)
{
  g_autofree char *logs = fixture_path ("legacy", "tmp", LEGACY_HASH, "logs.json", NULL);
  g_autofree char *checkpoint = fixture_path ("legacy", "tmp", LEGACY_HASH, "checkpoint-tokyo.json",
                                              NULL);
  const char      *paths[] = { logs, checkpoint, NULL };
  g_autoptr (LoomImportStats) named = loom_test_import_paths (f->store, "gemini", paths);
  g_autoptr (JsonArray) sessions = list_sessions (f->store);

  assert_no_warnings (named);
  assert_n_sessions (sessions, 0);
}

/* ——— Everything at once: twice, and after a touch ——— */

static const Expected *const all_expected[] = { &legacy_expected, &atlas_expected,
                                                &child_expected,  &migrated_expected,
                                                &sync_expected,   NULL };

static void
assert_all (LoomStore *store)
{
  g_autoptr (JsonArray) sessions = list_sessions (store);

  assert_n_sessions (sessions, 5);
  for (guint i = 0; all_expected[i] != NULL; i++)
    assert_session (sessions, all_expected[i]);
  loom_test_assert_index_in_sync (loom_store_get_path (store));
}

static void
test_idempotent (Fixture      *f,
                 gconstpointer data)
{
  g_autofree char *root = fixture_path (NULL);
  g_autofree char *copy = g_build_filename (f->dir, "gemini", NULL);
  g_autoptr (LoomImportStats) first = NULL;
  g_autoptr (LoomImportStats) second = NULL;
  g_autoptr (LoomImportStats) third = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *after_touch = NULL;
  g_autofree char *legacy = NULL;
  g_autofree char *atlas = NULL;
  gint64           n_messages, n_events;

  copy_tree (root, copy);
  first = import_path (f->store, "gemini", copy);
  assert_no_warnings (first);
  assert_all (f->store);
  before = list_sessions_text (f->store);
  n_messages = loom_test_count_rows (f->db_path, "messages");
  n_events = loom_test_count_rows (f->db_path, "events");

  second = import_path (f->store, "gemini", copy);
  assert_no_warnings (second);
  g_assert_cmpuint (second->files_unchanged, ==, second->files_seen);
  g_assert_cmpuint (second->messages, ==, 0);
  g_assert_cmpuint (second->events, ==, 0);
  after = list_sessions_text (f->store);
  g_assert_cmpstr (after, ==, before);

  /* A touched file is looked at again: the .json is read again from its start, the .jsonl from
   * where it stopped. Neither may change anything. */
  legacy = g_build_filename (copy, "legacy", "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  atlas = g_build_filename (copy, "jsonl", "tmp", "atlas", "chats", ATLAS_NAME, NULL);
  bump_mtime (legacy, 10);
  bump_mtime (atlas, 10);
  third = import_path (f->store, "gemini", copy);
  assert_no_warnings (third);
  g_assert_cmpuint (third->files_imported, ==, 2);
  after_touch = list_sessions_text (f->store);
  g_assert_cmpstr (after_touch, ==, before);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "messages"), ==, n_messages);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "events"), ==, n_events);
}

/* The agents' files are read, never written. */
static void
collect_checksums (const char *path,
                   GHashTable *sums)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          collect_checksums (child, sums);
        }
    }
  else
    g_hash_table_insert (sums, g_strdup (path), loom_test_file_checksum (path));
}

static void
test_bytes_unchanged (Fixture      *f,
                      gconstpointer data)
{
  g_autofree char *root = fixture_path (NULL);
  g_autoptr (GHashTable) before = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) after = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (LoomImportStats) named = NULL;
  g_autoptr (LoomImportStats) detected = NULL;
  GHashTableIter iter;
  gpointer       key, value;

  collect_checksums (root, before);
  named = import_path (f->store, "gemini", root);
  detected = import_path (f->store, NULL, root);
  collect_checksums (root, after);

  g_assert_cmpuint (g_hash_table_size (after), ==, g_hash_table_size (before));
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpstr (g_hash_table_lookup (after, key), ==, value);
}

/* ——— Incremental ——— */

typedef struct
{
  char      *contents;
  gsize      length;
  GPtrArray *line_ends; /* offsets just past each line's newline (or the end) */
} Lines;

static void
lines_load (Lines      *lines,
            const char *path)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &lines->contents, &lines->length, &error));
  g_assert_no_error (error);
  lines->line_ends = g_ptr_array_new ();
  for (gsize i = 0; i < lines->length; i++)
    if (lines->contents[i] == '\n' || i + 1 == lines->length)
      g_ptr_array_add (lines->line_ends, GSIZE_TO_POINTER (i + 1));
}

static void
lines_clear (Lines *lines)
{
  g_free (lines->contents);
  g_ptr_array_unref (lines->line_ends);
}

static gsize
lines_end (Lines *lines,
           guint  n)
{
  return n == 0 ? 0 : GPOINTER_TO_SIZE (g_ptr_array_index (lines->line_ends, n - 1));
}

/* The .jsonl grows one line per pass, the sub-agent's file is there from the start (so its
 * parent is a placeholder first). Every record that supersedes another arrives in a pass of its
 * own: the result must still be the single import's. */
static void
test_incremental_lines (Fixture      *f,
                        gconstpointer data)
{
  g_autofree char *tree = fixture_path ("jsonl", NULL);
  g_autofree char *copy = g_build_filename (f->dir, "jsonl", NULL);
  g_autofree char *source = fixture_path ("jsonl", "tmp", "atlas", "chats", ATLAS_NAME, NULL);
  g_autofree char *target = g_build_filename (copy, "tmp", "atlas", "chats", ATLAS_NAME, NULL);
  guint            step = GPOINTER_TO_UINT (data);
  Lines            lines;
  guint            n, done = 0;

  copy_tree (tree, copy);
  lines_load (&lines, source);
  n = lines.line_ends->len;
  g_assert_cmpuint (n, ==, 21);
  write_bytes (target, "", 0);

  while (done < n)
    {
      g_autoptr (LoomImportStats) stats = NULL;
      guint next = MIN (done + step, n);

      append_bytes (target, lines.contents + lines_end (&lines, done),
                    lines_end (&lines, next) - lines_end (&lines, done));
      bump_mtime (target, (gint)next);
      stats = import_path (f->store, "gemini", copy);
      assert_no_warnings (stats);
      done = next;
    }

  {
    g_autoptr (JsonArray) sessions = list_sessions (f->store);

    assert_n_sessions (sessions, 2);
    assert_session (sessions, &atlas_expected);
    assert_session (sessions, &child_expected);
  }
  lines_clear (&lines);
}

/* tokens/ growing one line per pass: a record that repeats a message's usage as zeros, or as a
 * partial count, arrives in a pass after the real figures, and keeps them. */
static void
test_tokens_every_line (Fixture      *f,
                        gconstpointer data)
{
  const char      *fixtures = g_getenv ("LOOM_TEST_FIXTURES");
  g_autofree char *source = g_build_filename (fixtures, VARIANTS, "tokens", TOKENS_FILE, NULL);
  g_autofree char *copy = g_build_filename (f->dir, "tokens", NULL);
  g_autofree char *target = g_build_filename (copy, TOKENS_FILE, NULL);
  g_autofree char *chats = g_path_get_dirname (target);
  g_autoptr (JsonArray) sessions = NULL;
  Lines lines;

  g_assert_cmpint (g_mkdir_with_parents (chats, 0700), ==, 0);
  lines_load (&lines, source);
  g_assert_cmpuint (lines.line_ends->len, ==, 12);
  write_bytes (target, "", 0);
  for (guint done = 0; done < lines.line_ends->len; done++)
    {
      g_autoptr (LoomImportStats) stats = NULL;

      append_bytes (target, lines.contents + lines_end (&lines, done),
                    lines_end (&lines, done + 1) - lines_end (&lines, done));
      bump_mtime (target, (gint)done + 1);
      stats = import_path (f->store, "gemini", copy);
      assert_no_warnings (stats);
    }

  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 1);
  assert_session (sessions, &tokens_expected);
  lines_clear (&lines);
}

/* A line written in two halves: the first half waits, unread, until the rest arrives. */
static void
test_incremental_half_line (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char *tree = fixture_path ("jsonl", NULL);
  g_autofree char *copy = g_build_filename (f->dir, "jsonl", NULL);
  g_autofree char *source = fixture_path ("jsonl", "tmp", "atlas", "chats", ATLAS_NAME, NULL);
  g_autofree char *target = g_build_filename (copy, "tmp", "atlas", "chats", ATLAS_NAME, NULL);
  g_autoptr (LoomImportStats) first = NULL;
  g_autoptr (LoomImportStats) second = NULL;
  g_autoptr (JsonArray) sessions = NULL;
  Lines lines;
  gsize cut;

  copy_tree (tree, copy);
  lines_load (&lines, source);
  /* In the middle of line 10, the gemini message with two tool calls. */
  cut = lines_end (&lines, 9) + (lines_end (&lines, 10) - lines_end (&lines, 9)) / 2;
  write_bytes (target, lines.contents, cut);
  first = import_path (f->store, "gemini", copy);
  g_assert_cmpuint (first->files_failed, ==, 0);

  append_bytes (target, lines.contents + cut, lines.length - cut);
  bump_mtime (target, 5);
  second = import_path (f->store, "gemini", copy);
  assert_no_warnings (second);

  sessions = list_sessions (f->store);
  assert_session (sessions, &atlas_expected);
  lines_clear (&lines);
}

/* The legacy document is rewritten whole by the CLI: the second pass reads it again and ends
 * with exactly what a single import of the final document gives. */
static void
test_legacy_rewrite (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *before = fixture_path ("legacy", LEGACY_NAME ".before", NULL);
  g_autofree char *final = fixture_path ("legacy", "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *target = g_build_filename (root, "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  g_autoptr (LoomImportStats) first = NULL;
  g_autoptr (LoomImportStats) second = NULL;
  g_autoptr (JsonArray) sessions_before = NULL;
  g_autoptr (JsonArray) sessions_after = NULL;

  copy_tree (before, target);
  first = import_path (f->store, "gemini", root);
  assert_no_warnings (first);
  sessions_before = list_sessions (f->store);
  assert_n_sessions (sessions_before, 1);
  assert_session (sessions_before, &legacy_before_expected);

  copy_tree (final, target);
  bump_mtime (target, 10);
  second = import_path (f->store, "gemini", root);
  assert_no_warnings (second);
  g_assert_cmpuint (second->files_imported, ==, 1);
  sessions_after = list_sessions (f->store);
  assert_n_sessions (sessions_after, 1);
  assert_session (sessions_after, &legacy_expected);
  g_assert_cmpstr (get_string (json_array_get_object_element (sessions_after, 0), "id"), ==,
                   get_string (json_array_get_object_element (sessions_before, 0), "id"));
  /* Read again after its rows were cleared, the newest ones: still every row searchable. */
  loom_test_assert_index_in_sync (f->db_path);
}

/* What the first half of the legacy document holds whole: the prompt and the first reply, with
 * its two thoughts, two tool calls and their results. The summary, at its end, is not there. */
static const Expected legacy_half_expected = {
  "3f2a9c1e-5b7d-4e2a-9c0f-1a2b3c4d5e6f",
  1,
  1,
  2,
  2,
  0,
  2,
  2,
  6,
  8123,
  251,
  0,
  0,
  210,
  "{\"read_file\":1,\"run_shell_command\":1}",
  "gemini-2.5-pro",
  NULL,
  NULL,
  "main",
  NULL,
  "2025-09-14T10:02:11.512Z",
  "2025-09-14T10:09:47.030Z",
};

/* Every row the whole legacy document gives: its five prompts and replies, three notices. */
#define LEGACY_MESSAGE_ROWS 8
#define LEGACY_EVENT_ROWS   17

/* Writes the first half of the legacy document (it ends on line 150, inside the third message)
 * to @target; returns the whole document. */
static char *
write_legacy_half (const char *target,
                   gsize      *length)
{
  g_autofree char *final = fixture_path ("legacy", "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  char            *contents = NULL;

  g_assert_true (g_file_get_contents (final, &contents, length, NULL));
  write_bytes (target, contents, *length / 2);
  return contents;
}

/* The CLI rewrites the legacy document in place: a pass can see it half-written. That pass
 * imports the messages it holds whole and says, by line, where the document stopped; the file
 * does not fail. The next pass, on the whole document, gives exactly what one import of it
 * gives, with nothing twice. */
static void
test_legacy_half_written (Fixture      *f,
                          gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *target = g_build_filename (root, "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  g_autofree char *warning = g_strdup_printf ("%s:150: the document ends here", target);
  g_autofree char *contents = NULL;
  g_autoptr (LoomImportStats) first = NULL;
  g_autoptr (LoomImportStats) second = NULL;
  g_autoptr (JsonArray) sessions_first = NULL;
  g_autoptr (JsonArray) sessions = NULL;
  gsize length;

  contents = write_legacy_half (target, &length);
  first = import_path (f->store, "gemini", root);
  assert_one_warning (first, warning);
  g_assert_cmpuint (first->files_failed, ==, 0);
  g_assert_cmpuint (first->files_imported, ==, 1);
  g_assert_cmpuint (first->messages, ==, 2);
  g_assert_cmpuint (first->events, ==, 6);
  sessions_first = list_sessions (f->store);
  assert_n_sessions (sessions_first, 1);
  assert_session (sessions_first, &legacy_half_expected);

  write_bytes (target, contents, length);
  bump_mtime (target, 10);
  second = import_path (f->store, "gemini", root);
  assert_no_warnings (second);
  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 1);
  assert_session (sessions, &legacy_expected);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "messages"), ==, LEGACY_MESSAGE_ROWS);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "events"), ==, LEGACY_EVENT_ROWS);
  loom_test_assert_index_in_sync (f->db_path);
}

/* An agent that crashed mid-write leaves its session half-written for good. What an earlier,
 * whole version gave stays: a damaged document only adds. Whole again, it reads as before. */
static void
test_legacy_truncated_later (Fixture      *f,
                             gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *target = g_build_filename (root, "tmp", LEGACY_HASH, "chats", LEGACY_NAME, NULL);
  g_autofree char *warning = g_strdup_printf ("%s:150: the document ends here", target);
  g_autofree char *contents = NULL;
  g_autofree char *before = NULL;
  g_autofree char *damaged = NULL;
  g_autofree char *after = NULL;
  g_autoptr (LoomImportStats) whole = NULL;
  g_autoptr (LoomImportStats) truncated = NULL;
  g_autoptr (LoomImportStats) again = NULL;
  gsize length;

  contents = write_legacy_half (target, &length);
  write_bytes (target, contents, length);
  whole = import_path (f->store, "gemini", root);
  assert_no_warnings (whole);
  before = list_sessions_text (f->store);

  write_bytes (target, contents, length / 2);
  bump_mtime (target, 10);
  truncated = import_path (f->store, "gemini", root);
  assert_one_warning (truncated, warning);
  g_assert_cmpuint (truncated->files_failed, ==, 0);
  g_assert_cmpuint (truncated->messages, ==, 0);
  g_assert_cmpuint (truncated->events, ==, 0);
  damaged = list_sessions_text (f->store);
  g_assert_cmpstr (damaged, ==, before);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "messages"), ==, LEGACY_MESSAGE_ROWS);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "events"), ==, LEGACY_EVENT_ROWS);
  loom_test_assert_index_in_sync (f->db_path);

  write_bytes (target, contents, length);
  bump_mtime (target, 20);
  again = import_path (f->store, "gemini", root);
  assert_no_warnings (again);
  g_assert_cmpuint (again->files_imported, ==, 1);
  after = list_sessions_text (f->store);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "messages"), ==, LEGACY_MESSAGE_ROWS);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "events"), ==, LEGACY_EVENT_ROWS);
  loom_test_assert_index_in_sync (f->db_path);
}

/* A legacy document with one message nested 5,000 deep: the others are imported, the warning
 * names the deep one's line, and the file does not fail. */
static void
test_legacy_deep_message (Fixture      *f,
                          gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *path = g_build_filename (root, "tmp", "0000", "chats",
                                            "session-2025-01-01T00-00-deep0001.json", NULL);
  g_autofree char *warning = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (JsonArray) sessions = NULL;
  JsonObject *counts;

  g_string_append (text, "{\n"
                         "  \"sessionId\": \"deep-1\",\n"
                         "  \"projectHash\": \"h\",\n"
                         "  \"startTime\": \"2025-01-01T00:00:00.000Z\",\n"
                         "  \"messages\": [\n"
                         "    {\n"
                         "      \"id\": \"a\",\n"
                         "      \"type\": \"user\",\n"
                         "      \"content\": \"before the deep one\"\n"
                         "    },\n"
                         "    {\n"
                         "      \"id\": \"deep\",\n"
                         "      \"type\": \"user\",\n"
                         "      \"content\": ");
  for (guint i = 0; i < 5000; i++)
    g_string_append_c (text, '[');
  for (guint i = 0; i < 5000; i++)
    g_string_append_c (text, ']');
  g_string_append (text, "\n"
                         "    },\n"
                         "    {\n"
                         "      \"id\": \"b\",\n"
                         "      \"type\": \"user\",\n"
                         "      \"content\": \"after the deep one\"\n"
                         "    }\n"
                         "  ]\n"
                         "}\n");
  write_bytes (path, text->str, text->len);

  stats = import_path (f->store, "gemini", root);
  warning = g_strdup_printf ("%s:11: element 1 of “messages” nests deeper than 512 levels and "
                             "was left out",
                             path);
  assert_one_warning (stats, warning);
  g_assert_cmpuint (stats->files_failed, ==, 0);
  g_assert_cmpuint (stats->files_imported, ==, 1);
  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 1);
  counts = json_object_get_object_member (json_array_get_object_element (sessions, 0), "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "user_messages"), ==, 2);
  g_assert_cmpint (loom_test_count_rows (f->db_path, "messages"), ==, 2);
  /* Nothing stands for the deep one but the warning. */
  g_assert_cmpint (loom_test_count_rows (f->db_path, "events"), ==, 0);
}

/* Invalid UTF-8 and an unpaired surrogate escape in a legacy document: replaced, and each
 * warning names the line where the first one is. */
static const char undecodable_json[] =
  "{\n"
  "  \"sessionId\": \"undecodable-1\",\n"
  "  \"projectHash\": \"h\",\n"
  "  \"messages\": [\n"
  "    {\"id\": \"a\", \"type\": \"user\", \"content\": \"caf\xe9\"},\n"
  "    {\"id\": \"b\", \"type\": \"user\", \"content\": \"fine\"},\n"
  "    {\"id\": \"c\", \"type\": \"user\", \"content\": \"half \\ud83d pair\"},\n"
  "    {\"id\": \"d\", \"type\": \"user\", \"content\": \"again \xff and \\udc00\"}\n"
  "  ]\n"
  "}\n";

static void
test_legacy_undecodable (Fixture      *f,
                         gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *path = g_build_filename (root, "tmp", "0000", "chats",
                                            "session-2025-01-01T00-00-undecod1.json", NULL);
  g_autofree char *utf8_warning = NULL;
  g_autofree char *surrogate_warning = NULL;
  g_autofree char *text_a = NULL;
  g_autofree char *text_c = NULL;
  g_autoptr (LoomImportStats) stats = NULL;

  write_bytes (path, undecodable_json, sizeof undecodable_json - 1);
  stats = import_path (f->store, "gemini", root);
  for (guint i = 0; i < stats->warnings->len; i++)
    g_test_message ("warning: %s", (const char *)g_ptr_array_index (stats->warnings, i));
  g_assert_cmpuint (stats->files_failed, ==, 0);
  g_assert_cmpuint (stats->warnings->len, ==, 2);
  utf8_warning = g_strdup_printf ("%s:5: invalid UTF-8 was replaced by U+FFFD", path);
  surrogate_warning = g_strdup_printf ("%s:7: unpaired surrogate escapes were replaced by U+FFFD",
                                       path);
  g_assert_cmpstr (g_ptr_array_index (stats->warnings, 0), ==, utf8_warning);
  g_assert_cmpstr (g_ptr_array_index (stats->warnings, 1), ==, surrogate_warning);

  g_assert_cmpint (loom_test_count_rows (f->db_path, "messages"), ==, 4);
  text_a = query_text (f->db_path, "SELECT text FROM messages WHERE source_id = 'a'");
  text_c = query_text (f->db_path, "SELECT text FROM messages WHERE source_id = 'c'");
  g_assert_cmpstr (text_a, ==, "caf\xef\xbf\xbd");
  g_assert_cmpstr (text_c, ==, "half \xef\xbf\xbd pair");
}

/* ——— Sub-agents ——— */

#define PARENT_META \
  "{\"sessionId\":\"parent-1\",\"projectHash\":\"h\",\"startTime\":\"2025-01-01T00:00:00.000Z\"," \
  "\"kind\":\"main\"}\n"
#define PARENT_PROMPT \
  "{\"id\":\"u1\",\"type\":\"user\",\"timestamp\":\"2025-01-01T00:00:01.000Z\"," \
  "\"content\":\"look around\"}\n"
#define INVESTIGATOR_CALL(id, agent, status) \
  "{\"id\":\"" id "\",\"name\":\"codebase_investigator\",\"args\":{\"objective\":\"map it\"}," \
  "\"status\":\"" status "\",\"agentId\":\"" agent "\"," \
  "\"description\":\"Investigating the code base\",\"timestamp\":\"2025-01-01T00:00:02.000Z\"," \
  "\"result\":[{\"functionResponse\":{\"id\":\"" id "\",\"name\":\"codebase_investigator\"," \
  "\"response\":{\"output\":\"done\"}}}]}"

/* The first record of g1: its sub-agent still running. */
static const char parent_first_pass[] = PARENT_META PARENT_PROMPT
  "{\"id\":\"g1\",\"type\":\"gemini\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"content\":\"\","
  "\"toolCalls\":[{\"id\":\"c1\",\"name\":\"codebase_investigator\","
  "\"args\":{\"objective\":\"map it\"},\"status\":\"executing\",\"agentId\":\"agent-1\","
  "\"description\":\"Investigating the code base\",\"timestamp\":\"2025-01-01T00:00:02.000Z\"}]}\n";

/* g1 again, finished, with a plain call and a second call to the same sub-agent; then g2, which
 * starts another sub-agent and names it only by its display name. */
static const char parent_second_pass[] =
  "{\"id\":\"g1\",\"type\":\"gemini\",\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"content\":\"\","
  "\"toolCalls\":[" INVESTIGATOR_CALL (
    "c1",
    "agent-1",
    "success") ","
               "{\"id\":\"c2\",\"name\":\"read_file\",\"args\":{\"absolute_path\":\"/a\"},\"status\":\"success\","
               "\"result\":[{\"functionResponse\":{\"id\":\"c2\",\"name\":\"read_file\","
               "\"response\":{\"output\":\"text\"}}}]}," INVESTIGATOR_CALL (
                 "c3",
                 "agent-1",
                 "success") "]}\n"
                            "{\"id\":\"g2\",\"type\":\"gemini\",\"timestamp\":\"2025-01-01T00:00:09.000Z\",\"content\":\"ok\","
                            "\"toolCalls\":[{\"id\":\"c4\",\"name\":\"codebase_investigator\",\"args\":{},"
                            "\"status\":\"success\",\"agentId\":\"agent-2\",\"displayName\":\"Codebase Investigator\","
                            "\"result\":[{\"functionResponse\":{\"id\":\"c4\",\"name\":\"codebase_investigator\","
                            "\"response\":{\"output\":\"done\"}}}]}]}\n";

/* The sub-agent's own session: its calls name itself, which starts nothing. */
static const char child_session[] =
  "{\"sessionId\":\"agent-1\",\"projectHash\":\"h\",\"startTime\":\"2025-01-01T00:00:03.000Z\","
  "\"kind\":\"subagent\"}\n"
  "{\"id\":\"s1\",\"type\":\"gemini\",\"timestamp\":\"2025-01-01T00:00:04.000Z\",\"content\":\"\","
  "\"toolCalls\":[{\"id\":\"k1\",\"name\":\"glob\",\"args\":{},\"status\":\"success\","
  "\"agentId\":\"agent-1\",\"resultDisplay\":\"3 files\"}]}\n";

#define PARENT_TIMELINE \
  "SELECT group_concat (kind || ':' || source_id, ' ') FROM (SELECT e.kind, e.source_id" \
  " FROM events e JOIN sessions s ON s.id = e.session_id" \
  " WHERE s.source_session_id = 'parent-1' ORDER BY e.seq)"

static void
assert_subagent_starts (Fixture *f)
{
  g_autofree char *timeline = query_text (f->db_path, PARENT_TIMELINE);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *first_call = NULL;

  g_assert_cmpstr (timeline, ==,
                   "tool_call:c1 subagent:agent-1 tool_result:c1 tool_call:c2 tool_result:c2 "
                   "tool_call:c3 tool_result:c3 tool_call:c4 subagent:agent-2 tool_result:c4");
  g_assert_cmpint (
    loom_test_query_int (f->db_path, "SELECT count(*) FROM events WHERE kind = 'subagent'", NULL),
    ==, 2);
  first = query_text (f->db_path, "SELECT text FROM events WHERE source_id = 'agent-1'");
  second = query_text (f->db_path, "SELECT text FROM events WHERE source_id = 'agent-2'");
  first_call = query_text (f->db_path, "SELECT call_id FROM events WHERE source_id = 'agent-1'");
  g_assert_cmpstr (first, ==, "Investigating the code base (sub-agent agent-1)");
  g_assert_cmpstr (second, ==, "Codebase Investigator (sub-agent agent-2)");
  g_assert_cmpstr (first_call, ==, "c1");
}

/* A tool call that carries agentId started a sub-agent: the parent's timeline marks it once per
 * agent, right after the call, however often the CLI writes the message again, and again when
 * the file is read anew. */
static void
test_subagent_start (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *parent = g_build_filename (root, "tmp", "0000", "chats",
                                              "session-2025-01-01T00-00-parent01.jsonl", NULL);
  g_autofree char *child = g_build_filename (root, "tmp", "0000", "chats", "parent-1",
                                             "agent-1.jsonl", NULL);
  g_autofree char *whole = g_strconcat (parent_first_pass, parent_second_pass, NULL);
  g_autoptr (LoomImportStats) first = NULL;
  g_autoptr (LoomImportStats) second = NULL;
  g_autoptr (LoomImportStats) third = NULL;
  g_autoptr (JsonArray) sessions = NULL;
  JsonObject *s;

  write_bytes (parent, parent_first_pass, sizeof parent_first_pass - 1);
  write_bytes (child, child_session, sizeof child_session - 1);
  first = import_path (f->store, "gemini", root);
  assert_no_warnings (first);
  g_assert_cmpint (
    loom_test_query_int (f->db_path, "SELECT count(*) FROM events WHERE kind = 'subagent'", NULL),
    ==, 1);

  append_bytes (parent, parent_second_pass, sizeof parent_second_pass - 1);
  bump_mtime (parent, 10);
  second = import_path (f->store, "gemini", root);
  assert_no_warnings (second);
  g_assert_cmpuint (second->files_imported, ==, 1);
  assert_subagent_starts (f);

  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 2);
  s = find_session (sessions, "parent-1");
  g_assert_cmpint (json_object_get_int_member (s, "event_count"), ==, 10);
  s = find_session (sessions, "agent-1");
  g_assert_cmpint (json_object_get_int_member (s, "event_count"), ==, 2);
  g_assert_cmpstr (get_string (s, "parent_session_id"), ==,
                   get_string (find_session (sessions, "parent-1"), "id"));

  /* Written anew (another inode): read from its start, the same timeline. */
  write_bytes (parent, whole, strlen (whole));
  bump_mtime (parent, 20);
  third = import_path (f->store, "gemini", root);
  assert_no_warnings (third);
  g_assert_cmpuint (third->files_imported, ==, 1);
  assert_subagent_starts (f);
}

/* A legacy session imported, then resumed: the CLI migrates it to a .jsonl beside the .json. The
 * session stays one session with the .jsonl's messages, each once. */
static void
test_migration_sequence (Fixture      *f,
                         gconstpointer data)
{
  g_autofree char *json = fixture_path ("migrated", "tmp", MIGRATED_HASH, "chats",
                                        MIGRATED_NAME ".json", NULL);
  g_autofree char *jsonl = fixture_path ("migrated", "tmp", MIGRATED_HASH, "chats",
                                         MIGRATED_NAME ".jsonl", NULL);
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *chats = g_build_filename (root, "tmp", MIGRATED_HASH, "chats", NULL);
  g_autofree char *json_copy = g_build_filename (chats, MIGRATED_NAME ".json", NULL);
  g_autofree char *jsonl_copy = g_build_filename (chats, MIGRATED_NAME ".jsonl", NULL);
  g_autoptr (LoomImportStats) first = NULL;
  g_autoptr (LoomImportStats) second = NULL;
  g_autoptr (JsonArray) sessions = NULL;
  g_autofree char *first_prompt = NULL;

  copy_tree (json, json_copy);
  first = import_path (f->store, "gemini", root);
  assert_no_warnings (first);

  copy_tree (jsonl, jsonl_copy);
  second = import_path (f->store, "gemini", root);
  assert_no_warnings (second);
  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 1);
  assert_session (sessions, &migrated_expected);

  first_prompt = query_text (f->db_path,
                             "SELECT text FROM messages"
                             " WHERE source_id = '9d1e2f3a-1111-4a2b-8c3d-4e5f6a7b8c9d'");
  /* The .jsonl's copy of a message the .json already gave leaves its text alone. */
  g_assert_cmpstr (first_prompt, ==, "Translate the README to Japanese — 日本語でお願いします");
}

/* ——— Wrong types everywhere ——— */

/* Every member of the wrong JSON type, records that are not objects, updates and rewinds that
 * are not what they should be: nothing crashes, what can be read is read, the rest is kept raw
 * or reported. */
static const char wrong_types_jsonl[] =
  "[1,2,3]\n"
  "{\"sessionId\":\"hostile-1\",\"projectHash\":\"abc\",\"startTime\":5,\"lastUpdated\":null,"
  "\"kind\":7,\"directories\":\"nope\",\"summary\":[\"x\"]}\n"
  "{\"id\":\"m1\",\"type\":\"user\",\"content\":{\"text\":\"object part\"},\"displayContent\":null,"
  "\"timestamp\":12}\n"
  "{\"id\":\"m2\",\"type\":\"gemini\",\"content\":[null,5,{\"text\":7},{\"inlineData\":\"x\"},"
  "{\"inlineData\":{\"mimeType\":\"application/pdf\",\"data\":\"\"}},\"plain part\"],"
  "\"toolCalls\":\"nope\",\"thoughts\":[1,\"a\",null,{\"subject\":5,\"description\":[\"d\"]}],"
  "\"tokens\":\"many\",\"model\":42}\n"
  "{\"id\":\"m3\",\"type\":\"gemini\",\"timestamp\":\"2025-01-01T00:00:00Z\","
  "\"toolCalls\":[null,5,"
  "{\"id\":7,\"name\":[],\"args\":\"str\",\"result\":\"s\",\"status\":3},"
  "{\"id\":\"c1\",\"name\":\"write_file\",\"args\":{\"file_path\":9},\"status\":\"success\","
  "\"result\":[{\"functionResponse\":\"x\"}]},"
  "{\"id\":\"c2\",\"name\":\"replace\",\"args\":{\"file_path\":\"/x\"},\"status\":\"success\","
  "\"result\":{\"functionResponse\":{\"id\":\"c2\",\"response\":{\"output\":{\"nested\":true}}}}}],"
  "\"tokens\":{\"input\":\"10\",\"output\":2.5,\"cached\":null}}\n"
  "{\"$set\":\"not an object\"}\n"
  "{\"$set\":{\"messages\":\"x\",\"summary\":5,\"directories\":[1,null,\"/a\"],"
  "\"lastUpdated\":\"garbage\"}}\n"
  "{\"$set\":{\"messages\":[5,{\"id\":9},{\"id\":\"m1\",\"type\":\"user\",\"content\":\"again\"}]}}\n"
  "{\"$rewindTo\":5}\n"
  "{\"$rewindTo\":\"m2\"}\n"
  "{\"id\":\"m4\",\"type\":\"mystery\",\"content\":\"?\"}\n"
  "{\"id\":\"m5\"}\n"
  "\"just a string\"\n"
  "null\n";

static const char wrong_types_json[] =
  "{\"sessionId\":\"hostile-2\",\"projectHash\":\"h\",\"startTime\":\"2025-01-01T00:00:00Z\","
  "\"messages\":"
  "[5,\"x\",{\"id\":\"a\",\"type\":\"user\",\"content\":\"hi\"}]}";

static const char not_an_object_json[] = "[{\"sessionId\":\"hostile-3\",\"projectHash\":\"h\"}]";

static void
test_wrong_types (Fixture      *f,
                  gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *chats = g_build_filename (root, "tmp", "0000", "chats", NULL);
  g_autofree char *jsonl = g_build_filename (chats, "session-2025-01-01T00-00-hostile1.jsonl",
                                             NULL);
  g_autofree char *json = g_build_filename (chats, "session-2025-01-01T00-00-hostile2.json", NULL);
  g_autofree char *array = g_build_filename (chats, "session-2025-01-01T00-00-hostile3.json", NULL);
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (JsonArray) sessions = NULL;
  JsonObject *s, *counts, *tokens;

  write_bytes (jsonl, wrong_types_jsonl, sizeof wrong_types_jsonl - 1);
  write_bytes (json, wrong_types_json, sizeof wrong_types_json - 1);
  write_bytes (array, not_an_object_json, sizeof not_an_object_json - 1);

  stats = import_path (f->store, "gemini", root);
  for (guint i = 0; i < stats->warnings->len; i++)
    g_test_message ("warning: %s", (const char *)g_ptr_array_index (stats->warnings, i));
  g_assert_cmpuint (stats->files_failed, ==, 0);
  /* At least: the record before the metadata, three thoughts and two tool calls that are not
   * objects, and two $set messages without an id. The file that is not a session is passed
   * over by detection (in a folder, --source only narrows which format may claim a file). */
  g_assert_cmpuint (stats->warnings->len, >=, 8);
  g_assert_cmpuint (stats->files_seen, ==, 2);

  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 2);

  s = find_session (sessions, "hostile-1");
  g_assert_nonnull (s);
  counts = json_object_get_object_member (s, "counts");
  tokens = json_object_get_object_member (s, "tokens");
  g_assert_cmpint (json_object_get_int_member (counts, "user_messages"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (counts, "assistant_messages"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (counts, "tool_calls"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (counts, "tool_results"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (counts, "tool_errors"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (counts, "reasoning"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (tokens, "input"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, 2);
  g_assert_cmpstr (get_string (s, "title"), ==, "object part - 2025-01-01");
  g_assert_cmpstr (get_string (s, "model"), ==, NULL);

  s = find_session (sessions, "hostile-2");
  g_assert_nonnull (s);
  counts = json_object_get_object_member (s, "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "user_messages"), ==, 1);
  /* The two messages that are not objects are kept as raw events. */
  g_assert_cmpint (json_object_get_int_member (s, "event_count"), ==, 2);
}

/* A session with no time anywhere: it is still a session. */
static const char no_times_json[] =
  "{\"sessionId\":\"timeless\",\"projectHash\":\"h\",\"messages\":"
  "[{\"id\":\"a\",\"type\":\"user\",\"content\":\"when was this?\"}]}";

static void
test_no_timestamps (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *root = g_build_filename (f->dir, "gemini", NULL);
  g_autofree char *path = g_build_filename (root, "tmp", "0000", "chats",
                                            "session-2025-01-01T00-00-timeless.json", NULL);
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (JsonArray) sessions = NULL;

  write_bytes (path, no_times_json, sizeof no_times_json - 1);
  stats = import_path (f->store, "gemini", root);
  for (guint i = 0; i < stats->warnings->len; i++)
    g_test_message ("warning: %s", (const char *)g_ptr_array_index (stats->warnings, i));
  g_assert_cmpuint (stats->files_failed, ==, 0);
  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 1);
  g_assert_cmpint (
    json_object_get_int_member (
      json_object_get_object_member (json_array_get_object_element (sessions, 0), "counts"),
      "user_messages"),
    ==, 1);
}

/* ——— Default roots ——— */

static void
test_default_roots (Fixture      *f,
                    gconstpointer data)
{
  g_autofree char *home = g_build_filename (f->dir, "home", NULL);
  g_autofree char *gemini_tmp = g_build_filename (home, ".gemini", "tmp", NULL);
  g_autofree char *legacy = fixture_path ("legacy", "tmp", NULL);
  g_autofree char *jsonl = fixture_path ("jsonl", "tmp", NULL);
  g_autofree char *migrated = fixture_path ("migrated", "tmp", NULL);
  g_autofree char *old_home = g_strdup (g_getenv ("GEMINI_CLI_HOME"));
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (JsonArray) sessions = NULL;

  copy_tree (legacy, gemini_tmp);
  copy_tree (jsonl, gemini_tmp);
  copy_tree (migrated, gemini_tmp);

  g_setenv ("GEMINI_CLI_HOME", home, TRUE);
  stats = loom_test_import_paths (f->store, "gemini", NULL);
  if (old_home != NULL)
    g_setenv ("GEMINI_CLI_HOME", old_home, TRUE);
  else
    g_unsetenv ("GEMINI_CLI_HOME");

  assert_no_warnings (stats);
  /* Discovery leaves out logs.json, the checkpoint and the migrated .json. */
  g_assert_cmpuint (stats->files_seen, ==, 4);
  sessions = list_sessions (f->store);
  assert_n_sessions (sessions, 4);
  assert_session (sessions, &legacy_expected);
  assert_session (sessions, &atlas_expected);
  assert_session (sessions, &child_expected);
  assert_session (sessions, &migrated_expected);
}

/* claims () says of each file what discover () says, on a tree with every name and place the
 * rules tell apart: sessions in chats and in the tree above, sub-agents, a migrated document,
 * the CLI's other files, too deep, links; from the temporary folder and from a chats folder.
 * A file that is gone is still claimed by its name, unless its migrated copy is there. */
static void
test_claims (Fixture      *f,
             gconstpointer data)
{
  static const char *const files[] = {
    /* Listed. */
    "h1/chats/session-2025-11-02T08-15-8c1d4e2a.jsonl",
    "h1/chats/session-2025-09-14T10-02-3f2a9c1e.json",
    "h1/chats/session-2025-08-30T16-40-77aa00bb.jsonl", "h1/chats/8c1d4e2a/5e6f7a8b.jsonl",
    "h1/chats/8c1d4e2a/session-q.jsonl", "h1/session-legacy.json", "a/b/c/d/session-deep.json",
    "a/b/c/d/chats/session-deep.jsonl",
    /* Not listed. */
    "h1/chats/session-2025-08-30T16-40-77aa00bb.json", "h1/chats/8c1d4e2a/5e6f7a8c.json",
    "h1/chats/8c1d4e2a/deeper/5e6f7a8d.jsonl", "h1/chats/notes.jsonl", "h1/logs.json",
    "h1/checkpoint-tokyo.json", "a/b/c/d/e/session-too-deep.json",
    "a/b/c/d/e/chats/session-too-deep.jsonl", NULL
  };
  const LoomImporter *gemini = loom_importer_gemini ();
  g_autofree char    *root = g_build_filename (f->dir, ".gemini", "tmp", NULL);
  g_autofree char    *chats = g_build_filename (root, "h1", "chats", NULL);
  g_autofree char    *gone = g_build_filename (root, files[0], NULL);
  g_autofree char    *migrated = g_build_filename (root, files[8], NULL);
  g_autofree char    *link = g_build_filename (chats, "session-link.jsonl", NULL);
  g_autofree char    *folder_link = g_build_filename (root, "h2", NULL);

  loom_test_make_files (root, files, "{}\n");
  g_assert_cmpint (symlink ("session-2025-11-02T08-15-8c1d4e2a.jsonl", link), ==, 0);
  g_assert_cmpint (symlink ("h1", folder_link), ==, 0);

  g_assert_cmpuint (loom_test_assert_claims_as_discovered (gemini, root), ==, 8);
  g_assert_cmpuint (loom_test_assert_claims_as_discovered (gemini, chats), ==, 5);

  g_assert_cmpint (g_remove (gone), ==, 0);
  g_assert_true (gemini->claims (root, gone));
  g_assert_cmpint (g_remove (migrated), ==, 0);
  g_assert_false (gemini->claims (root, migrated));
}

int
main (int   argc,
      char *argv[])
{
  /* Titles carry the creation date in local time. */
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(name, data, func) \
  g_test_add ("/import/gemini/" name, Fixture, data, fixture_set_up, func, fixture_tear_down)

  ADD ("legacy/named", &legacy_named, test_folder);
  ADD ("legacy/detected", &legacy_detected, test_folder);
  ADD ("legacy/single-file-detected", NULL, test_single_file_detected);
  ADD ("legacy/companions-ignored", NULL, test_companions_ignored);
  ADD ("legacy/rewrite", NULL, test_legacy_rewrite);
  ADD ("legacy/half-written", NULL, test_legacy_half_written);
  ADD ("legacy/truncated-later", NULL, test_legacy_truncated_later);
  ADD ("legacy/deep-message", NULL, test_legacy_deep_message);
  ADD ("legacy/undecodable", NULL, test_legacy_undecodable);
  ADD ("jsonl/named", &jsonl_named, test_folder);
  ADD ("jsonl/detected", &jsonl_detected, test_folder);
  ADD ("jsonl/incremental-halves", GUINT_TO_POINTER (10), test_incremental_lines);
  ADD ("jsonl/incremental-every-line", GUINT_TO_POINTER (1), test_incremental_lines);
  ADD ("jsonl/incremental-half-line", NULL, test_incremental_half_line);
  ADD ("jsonl/subagent-start", NULL, test_subagent_start);
  ADD ("migrated/named", &migrated_named, test_folder);
  ADD ("migrated/detected", &migrated_detected, test_folder);
  ADD ("migrated/sequence", NULL, test_migration_sequence);
  ADD ("sync/named", &sync_named, test_folder);
  ADD ("sync/detected", &sync_detected, test_folder);
  ADD ("variants/agent-id/named", &agent_id_named, test_folder);
  ADD ("variants/agent-id/detected", &agent_id_detected, test_folder);
  ADD ("variants/two-on-a-line/named", &two_on_a_line_named, test_folder);
  ADD ("variants/two-on-a-line/detected", &two_on_a_line_detected, test_folder);
  ADD ("variants/tokens/named", &tokens_named, test_folder);
  ADD ("variants/tokens/detected", &tokens_detected, test_folder);
  ADD ("variants/tokens/every-line", NULL, test_tokens_every_line);
  ADD ("hostile/wrong-types", NULL, test_wrong_types);
  ADD ("hostile/no-timestamps", NULL, test_no_timestamps);
  ADD ("all/idempotent", NULL, test_idempotent);
  ADD ("all/bytes-unchanged", NULL, test_bytes_unchanged);
  ADD ("all/default-roots", NULL, test_default_roots);
  ADD ("all/claims", NULL, test_claims);

#undef ADD
  return g_test_run ();
}
