/* loom-codex-test.c — what the two Codex test programs share: the fixture (a fresh store per
 * test), importing, reading the sessions back, and the tests that run on any folder of Codex
 * fixtures and its table of numbers (each file alone, the folder detected, imported twice, in
 * two passes, never written to).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-codex-test.h"
#include "loom-core.h"
#include "loom-import.h"
#include "loom-test-utils.h"
#include "loom-timeline-item.h"

/* @relative below fixtures/@folder; the folder itself when @relative is NULL. */
char *
fixture_in (const char *folder,
            const char *relative)
{
  return loom_test_fixture_path (folder, relative, NULL);
}

char *
expected_path (const Expected *e)
{
  return fixture_in (e->root != NULL ? e->root : "codex", e->fixture);
}

void
import_paths (Fixture           *f,
              const char        *source,
              const char *const *paths)
{
  loom_test_store_import_paths (f, source, paths);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
}

void
import_path (Fixture    *f,
             const char *source,
             const char *path)
{
  const char *paths[] = { path, NULL };

  import_paths (f, source, paths);
}

/* Every session (archived and trashed ones too) as JSON, keyed by the agent's session id. */
GHashTable *
sessions_by_source_id (Fixture *f)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify)json_node_unref);

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (f->store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      JsonNode   *json = loom_session_to_json (session);
      const char *id = json_object_get_string_member (json_node_get_object (json),
                                                      "source_session_id");

      g_hash_table_insert (table, g_strdup (id), json);
    }
  return table;
}

/* The whole list, as `loom sessions list --json` prints it. */
static char *
sessions_json (Fixture *f)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonArray) array = json_array_new ();
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_ARRAY);

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (f->store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

      json_array_add_element (array, loom_session_to_json (session));
    }
  json_node_set_array (root, array);
  return loom_json_to_string (root);
}

void
assert_member_string (JsonObject *object,
                      const char *member,
                      const char *wanted)
{
  JsonNode *node = json_object_get_member (object, member);

  g_assert_nonnull (node);
  if (wanted == NULL)
    {
      if (!JSON_NODE_HOLDS_NULL (node))
        g_error ("%s: expected null, got “%s”", member, json_node_get_string (node));
      return;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    g_error ("%s: expected “%s”, got null", member, wanted);
  g_assert_cmpstr (json_node_get_string (node), ==, wanted);
}

void
assert_member_int (JsonObject *object,
                   const char *member,
                   gint64      wanted)
{
  if (json_object_get_int_member (object, member) != wanted)
    g_error ("%s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT, member, wanted,
             json_object_get_int_member (object, member));
}

/* Compares JSON values, object members in any order. */
void
assert_json_equal (JsonNode   *node,
                   const char *wanted,
                   const char *what)
{
  g_autoptr (JsonNode) expected_node = json_from_string (wanted, NULL);
  g_autofree char *got = loom_json_to_string (node);

  g_assert_nonnull (expected_node);
  if (!json_node_equal (node, expected_node))
    g_error ("%s: expected %s, got %s", what, wanted, got);
}

typedef struct
{
  guint messages;
  guint injected;
  guint file_changes;
  guint lifecycle;
  guint raw;
} TimelineCounts;

static TimelineCounts
timeline_counts (Fixture    *f,
                 const char *uuid)
{
  g_autoptr (GListModel) timeline = NULL;
  g_autoptr (GError) error = NULL;
  TimelineCounts counts = { 0 };

  timeline = loom_store_list_timeline (f->store, uuid, 0, 0, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      if (d->is_message)
        {
          counts.messages++;
          if (d->flags & LOOM_MESSAGE_NOT_A_PROMPT)
            counts.injected++;
        }
      else if (g_strcmp0 (d->kind, LOOM_EVENT_FILE_CHANGE) == 0)
        counts.file_changes++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_LIFECYCLE) == 0)
        counts.lifecycle++;
      else if (g_strcmp0 (d->kind, LOOM_EVENT_RAW) == 0)
        counts.raw++;
    }
  return counts;
}

void
assert_session (Fixture        *f,
                GHashTable     *sessions,
                const Expected *e)
{
  JsonNode      *node = g_hash_table_lookup (sessions, e->session_id);
  JsonObject    *s, *counts, *tokens;
  TimelineCounts timeline;

  g_test_message ("checking %s", e->fixture);
  g_assert_nonnull (node);
  s = json_node_get_object (node);
  counts = json_object_get_object_member (s, "counts");
  tokens = json_object_get_object_member (s, "tokens");

  assert_member_string (s, "source", "codex");
  assert_member_string (s, "title", e->title);
  assert_member_string (s, "cwd", e->cwd);
  assert_member_string (s, "project", e->project);
  assert_member_string (s, "git_branch", e->git_branch);
  assert_member_string (s, "git_commit", e->git_commit);
  assert_member_string (s, "agent_version", e->agent_version);
  assert_member_string (s, "agent_mode", e->agent_mode);
  assert_member_string (s, "selected_agent_id", e->selected_agent_id);
  assert_member_string (s, "model", e->model);
  assert_member_string (s, "session_type", e->session_type);
  assert_member_string (s, "created_at", e->created_at);
  assert_member_string (s, "updated_at", e->updated_at);
  g_assert_true (
    g_str_has_suffix (json_object_get_string_member (s, "source_path"), strrchr (e->fixture, '/')));
  assert_json_equal (json_object_get_member (s, "models"), e->models, "models");
  assert_json_equal (json_object_get_member (s, "tools_used"), e->tools_used, "tools_used");

  assert_member_int (counts, "user_messages", e->user);
  assert_member_int (counts, "assistant_messages", e->assistant);
  assert_member_int (counts, "tool_calls", e->tool_calls);
  assert_member_int (counts, "tool_results", e->tool_results);
  assert_member_int (counts, "tool_errors", e->tool_errors);
  assert_member_int (counts, "reasoning", e->reasoning);
  assert_member_int (s, "message_count", e->message_count);
  assert_member_int (s, "event_count", e->event_count);
  assert_member_int (tokens, "input", e->tokens_input);
  assert_member_int (tokens, "output", e->tokens_output);
  assert_member_int (tokens, "cache_read", e->tokens_cache_read);
  assert_member_int (tokens, "cache_creation", e->tokens_cache_creation);
  g_assert_nonnull (e->tokens_reasoning);
  g_assert_true (json_object_has_member (tokens, "reasoning"));
  assert_json_equal (json_object_get_member (tokens, "reasoning"), e->tokens_reasoning,
                     "tokens.reasoning");

  if (e->parent != NULL)
    {
      JsonNode *parent = g_hash_table_lookup (sessions, e->parent);

      g_assert_nonnull (parent);
      assert_member_string (s, "parent_session_id",
                            json_object_get_string_member (json_node_get_object (parent), "id"));
    }
  else
    assert_member_string (s, "parent_session_id", NULL);

  timeline = timeline_counts (f, json_object_get_string_member (s, "id"));
  g_assert_cmpuint (timeline.messages, ==, e->stored_messages);
  g_assert_cmpuint (timeline.injected, ==, e->injected);
  g_assert_cmpuint (timeline.file_changes, ==, e->file_changes);
  g_assert_cmpuint (timeline.lifecycle, ==, e->lifecycle);
  g_assert_cmpuint (timeline.raw, ==, e->raw);
}

/* Each fixture alone, named as codex and detected from its content: the README's numbers. */
void
test_fixture (Fixture      *f,
              gconstpointer data)
{
  const Expected  *e = data;
  g_autofree char *path = expected_path (e);
  const char      *sources[] = { "codex", NULL };

  for (guint s = 0; s < G_N_ELEMENTS (sources); s++)
    {
      g_autoptr (GHashTable) sessions = NULL;
      g_autofree char *dir = g_build_filename (f->dir, sources[s] ? "named" : "detected", NULL);
      g_autofree char *db = g_build_filename (dir, "history.db", NULL);

      /* A store per pass: the second one proves detection on its own. */
      g_assert_finalize_object (f->store);
      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      f->store = loom_store_open (db, NULL);
      g_assert_nonnull (f->store);

      import_path (f, sources[s], path);
      g_assert_cmpuint (f->stats->files_imported, ==, 1);
      g_assert_cmpuint (f->stats->warnings->len, ==, e->warnings);
      sessions = sessions_by_source_id (f);
      g_assert_cmpuint (g_hash_table_size (sessions), ==, e->parent != NULL ? 2 : 1);
      assert_session (f, sessions, e);
      loom_test_assert_index_in_sync (db);
    }
}

/* The whole folder without --source: every file is recognised as Codex, none is lost. */
void
test_detect_folder (Fixture      *f,
                    gconstpointer data)
{
  const Table     *table = data;
  g_autofree char *root = fixture_in (table->root, NULL);
  g_autoptr (GHashTable) sessions = NULL;

  import_path (f, NULL, root);
  g_assert_cmpuint (f->stats->files_imported, ==, table->n_expected);
  sessions = sessions_by_source_id (f);
  g_assert_cmpuint (g_hash_table_size (sessions), ==, table->n_expected);
  for (guint i = 0; i < table->n_expected; i++)
    assert_session (f, sessions, &table->expected[i]);
}

/* Importing again changes nothing: same sessions, same rows, nothing read. */
void
test_import_twice (Fixture      *f,
                   gconstpointer data)
{
  const Table     *table = data;
  g_autofree char *root = fixture_in (table->root, NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gint64           messages, events;

  import_path (f, "codex", root);
  before = sessions_json (f);
  messages = loom_test_count_rows (f->db, "messages");
  events = loom_test_count_rows (f->db, "events");

  import_path (f, "codex", root);
  g_assert_cmpuint (f->stats->files_unchanged, ==, table->n_expected);
  g_assert_cmpuint (f->stats->messages, ==, 0);
  g_assert_cmpuint (f->stats->events, ==, 0);
  after = sessions_json (f);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpint (loom_test_count_rows (f->db, "messages"), ==, messages);
  g_assert_cmpint (loom_test_count_rows (f->db, "events"), ==, events);
}

static const char *
or_empty (const char *text)
{
  return text != NULL ? text : "";
}

/* Everything a reader of the timeline sees, one line per message or event. */
static void
append_timeline (Fixture    *f,
                 const char *uuid,
                 GString    *out)
{
  g_autoptr (GListModel) timeline = NULL;
  g_autoptr (GError) error = NULL;

  timeline = loom_store_list_timeline (f->store, uuid, 0, 0, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      g_string_append_printf (
        out, "%s|%s|%u|%s|%" G_GINT64_FORMAT "|%s|%s|%d|%s|%" G_GINT64_FORMAT "|%s\n",
        or_empty (d->is_message ? d->role : d->kind), or_empty (d->model), d->flags,
        or_empty (d->tool_name), d->created_at, or_empty (d->call_id), or_empty (d->path),
        d->is_error, or_empty (d->change_kind), d->payload_size, or_empty (d->text));
    }
}

/* The session as JSON and its timeline, without what depends on where it was imported. */
char *
comparable_session (Fixture    *f,
                    const char *session_id)
{
  g_autoptr (GHashTable) sessions = sessions_by_source_id (f);
  JsonNode        *node = g_hash_table_lookup (sessions, session_id);
  g_autofree char *uuid = NULL;
  g_autofree char *json = NULL;
  JsonObject      *object;
  GString         *out;

  g_assert_nonnull (node);
  object = json_node_get_object (node);
  uuid = g_strdup (json_object_get_string_member (object, "id"));
  json_object_remove_member (object, "id");
  json_object_remove_member (object, "source_path");
  json_object_remove_member (object, "parent_session_id");
  json = loom_json_to_string (node);
  out = g_string_new (json);
  g_string_append_c (out, '\n');
  append_timeline (f, uuid, out);
  return g_string_free (out, FALSE);
}

void
write_bytes (const char *path,
             const char *bytes,
             gsize       length)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, bytes, (gssize)length, &error);
  g_assert_no_error (error);
}

static void
append_bytes (const char *path,
              const char *bytes,
              gsize       length)
{
  FILE *file = g_fopen (path, "ab");

  g_assert_nonnull (file);
  g_assert_cmpuint (fwrite (bytes, 1, length, file), ==, length);
  g_assert_cmpint (fclose (file), ==, 0);
}

/* Imports @contents in two passes, cut at byte @cut, into a fresh store; returns the session. */
static char *
import_in_two_passes (const char *name,
                      const char *session_id,
                      const char *contents,
                      gsize       length,
                      gsize       cut,
                      gint64     *rows)
{
  Fixture          f = { 0 };
  g_autofree char *sessions = NULL;
  g_autofree char *path = NULL;
  char            *result;

  loom_test_store_set_up (&f, NULL);
  sessions = g_build_filename (f.dir, "sessions", NULL);
  g_assert_cmpint (g_mkdir_with_parents (sessions, 0700), ==, 0);
  path = g_build_filename (sessions, name, NULL);

  write_bytes (path, contents, cut);
  import_path (&f, "codex", path);
  append_bytes (path, contents + cut, length - cut);
  import_path (&f, "codex", path);

  result = comparable_session (&f, session_id);
  loom_test_assert_index_in_sync (f.db);
  rows[0] = loom_test_count_rows (f.db, "messages");
  rows[1] = loom_test_count_rows (f.db, "events");
  loom_test_store_tear_down (&f, NULL);
  return result;
}

/* A session that grows between imports — after every line, and with its last line half
 * written — ends exactly as a single import of the whole file (resumes included). */
void
test_incremental (Fixture      *f,
                  gconstpointer data)
{
  const Expected  *e = data;
  g_autofree char *path = expected_path (e);
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *contents = NULL;
  g_autofree char *reference = NULL;
  g_autoptr (GError) error = NULL;
  gint64 reference_rows[2];
  gsize  length = 0;
  guint  cuts = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);

  import_path (f, "codex", path);
  reference = comparable_session (f, e->session_id);
  reference_rows[0] = loom_test_count_rows (f->db, "messages");
  reference_rows[1] = loom_test_count_rows (f->db, "events");

  for (const char *line = contents; line < contents + length;)
    {
      const char *eol = memchr (line, '\n', contents + length - line);
      const char *next = eol != NULL ? eol + 1 : contents + length;
      gsize       cuts_here[] = { (gsize)(line - contents) + (gsize)(next - line) / 2,
                                  (gsize)(next - contents) };

      for (guint c = 0; c < G_N_ELEMENTS (cuts_here); c++)
        {
          g_autofree char *got = NULL;
          gint64           rows[2];

          if (cuts_here[c] == 0 || cuts_here[c] >= length)
            continue;
          got = import_in_two_passes (name, e->session_id, contents, length, cuts_here[c], rows);
          if (g_strcmp0 (got, reference) != 0)
            g_error ("cut at byte %" G_GSIZE_FORMAT ":\n  got      %s\n  expected %s", cuts_here[c],
                     got, reference);
          g_assert_cmpint (rows[0], ==, reference_rows[0]);
          g_assert_cmpint (rows[1], ==, reference_rows[1]);
          cuts++;
        }
      line = next;
    }
  g_test_message ("%u cuts", cuts);
  g_assert_cmpuint (cuts, >, 10);
}

static void
collect_files (const char *dir,
               GPtrArray  *files)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          collect_files (path, files);
          g_free (path);
        }
      else
        g_ptr_array_add (files, path);
    }
}

/* The agents' files are read, never written: same bytes after every kind of import. */
void
test_fixtures_unchanged (Fixture      *f,
                         gconstpointer data)
{
  const Table     *table = data;
  g_autofree char *root = fixture_in (table->root, NULL);
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) sums = g_ptr_array_new_with_free_func (g_free);

  collect_files (root, files);
  g_assert_cmpuint (files->len, >=, table->n_expected);
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (sums, loom_test_file_checksum (g_ptr_array_index (files, i)));

  import_path (f, "codex", root);
  import_path (f, NULL, root);
  import_path (f, "codex", root);

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *sum = loom_test_file_checksum (g_ptr_array_index (files, i));

      g_assert_cmpstr (sum, ==, g_ptr_array_index (sums, i));
    }
}

void
add_fixture_test (const char   *path,
                  gconstpointer data,
                  void (*func) (Fixture *,
                                gconstpointer))
{
  g_test_add (path, Fixture, data, loom_test_store_set_up, func, loom_test_store_tear_down);
}

/* The throwaway home of codex_test_init (), removed by codex_test_run (). */
static char *test_home;

void
codex_test_init (int    *argc,
                 char ***argv)
{
  /* Titles carry the creation date in local time; the expected ones are written for UTC. The
   * default roots of every agent point into a throwaway home. */
  g_setenv ("TZ", "UTC", TRUE);
  test_home = g_dir_make_tmp ("loom-codex-home-XXXXXX", NULL);
  g_assert_nonnull (test_home);
  g_setenv ("HOME", test_home, TRUE);
  g_setenv ("CODEX_HOME", test_home, TRUE);
  g_setenv ("CLAUDE_CONFIG_DIR", test_home, TRUE);

  g_test_init (argc, argv, NULL);
  loom_core_init ();
}

int
codex_test_run (void)
{
  int status = g_test_run ();

  loom_test_remove_tree (test_home);
  g_clear_pointer (&test_home, g_free);
  return status;
}
