/* test-package-import.c — a package imported back: every fixture exported in full and imported
 * into an empty store gives the same sessions, counts, tokens and timelines; twice changes
 * nothing; a package that does not verify is refused, named, and leaves the store as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-export.h"
#include "loom-package-import.h"
#include "loom-store-package.h"
#include "loom-store-timeline-pages.h"
#include "loom-test-utils.h"
#include "loom-timeline-model.h"

typedef struct
{
  LoomTestStore base; /* store A: the fixtures imported from the agents' files */
  char         *dir_b;
  char         *db_b;
  LoomStore    *store_b; /* store B: empty, for the packages */
  char         *dest;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  loom_test_store_set_up (&f->base, data);
  f->store_b = loom_test_new_store (&f->dir_b, &f->db_b);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->store_b);
  loom_test_remove_tree (f->dir_b);
  g_free (f->dir_b);
  g_free (f->db_b);
  g_free (f->dest);
  loom_test_store_tear_down (&f->base, data);
}

/* A transcript that agents do write: texts with escaped NULs, lone surrogates, control
 * characters, CJK and right-to-left text, and a tool output far over what the store shows of
 * an event (its payload keeps it whole). */
static char *
write_hostile_transcript (const char *dir)
{
  static const char session_id[] = "7e1d2c3b-4a59-4f68-9e7d-8c6b5a4f3e2d";
  g_autofree char  *folder = g_build_filename (dir, "hostile", "-home-ada-src-odd", NULL);
  g_autofree char  *path = g_build_filename (folder, "hostile.jsonl", NULL);
  g_autoptr (GString) big = g_string_new (NULL);
  g_autoptr (GString) lines = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < 9000; i++)
    g_string_append_printf (big, "line %u of the output\\n", i);
  g_assert_no_errno (g_mkdir_with_parents (folder, 0700));
  g_string_append_printf (
    lines,
    "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/odd\",\"timestamp\":\"2026-05-02T10:00:01.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":\"请修复 \\u0000 the \\ud800 parser "
    "\\u202eevil\\u202c \\u0007 bell \\\"quoted\\\" back\\\\slash\"}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/odd\",\"timestamp\":\"2026-05-02T10:00:02.000Z\","
    "\"message\":{\"id\":\"msg_h1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"usage\":{\"input_tokens\":11,\"output_tokens\":22,\"cache_read_input_tokens\":33},"
    "\"content\":[{\"type\":\"thinking\",\"thinking\":\"think \\ud83d\\ude00 hard\"},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_h1\",\"name\":\"Bash\","
    "\"input\":{\"command\":\"seq 9000\"}}]}}\n"
    "{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"a1\",\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/odd\",\"timestamp\":\"2026-05-02T10:00:03.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
    "\"tool_use_id\":\"toolu_h1\",\"content\":\"%s\"}]}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"a2\",\"parentUuid\":\"u2\",\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/odd\",\"timestamp\":\"2026-05-02T10:00:04.000Z\","
    "\"message\":{\"id\":\"msg_h2\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"content\":[{\"type\":\"text\",\"text\":\"مرحبا — done.\"}]}}\n",
    session_id, session_id, session_id, big->str, session_id);
  g_file_set_contents (path, lines->str, (gssize)lines->len, &error);
  g_assert_no_error (error);
  return g_build_filename (dir, "hostile", NULL);
}

/* Every fixture folder the import tests read, and the hostile transcript above. */
static void
import_every_fixture (Fixture *f)
{
  static const char *const names[] = { "claude", "claude-variants", "codex", "codex-variants",
                                       "gemini", "gemini-variants", "ids" };
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_ptr_array_add (paths, loom_test_fixture_path (names[i], NULL));
  g_ptr_array_add (paths, write_hostile_transcript (f->base.dir));
  g_ptr_array_add (paths, NULL);
  loom_test_store_import_paths (&f->base, NULL, (const char *const *)paths->pdata);
}

static GListModel *
list_sessions (LoomStore *store)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  GListModel *sessions;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  return sessions;
}

static LoomExportResult *
export_ok (LoomStore       *store,
           const char      *uuid,
           const char      *dest,
           LoomExportDetail detail)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;

  options.detail = detail;
  return loom_test_export_ok (store, uuid, dest, &options);
}

static LoomPackageImportResult *
import_ok (LoomStore  *store,
           const char *package)
{
  g_autoptr (GError) error = NULL;
  LoomPackageImportResult *result = NULL;

  g_assert_true (loom_import_package (store, package, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* Every row of the session, one line each with every column, as the package keeps them. */
static gboolean
append_row (const LoomStoreRow *row,
            gpointer            data,
            GError            **error)
{
  g_string_append_printf (
    data,
    "%d seq=%" G_GINT64_FORMAT " role=%s kind=%s flags=%u src=%s model=%s at=%" G_GINT64_FORMAT
    " tok=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
    ",%" G_GINT64_FORMAT " mseq=%" G_GINT64_FORMAT " call=%s tool=%s err=%d path=%s change=%s"
    " size=%" G_GINT64_FORMAT "\ntext=%s\npayload=%s\n",
    row->is_message, row->seq, row->role, row->kind, row->flags, row->source_id, row->model,
    row->created_at, row->input_tokens, row->output_tokens, row->cache_read_tokens,
    row->cache_creation_tokens, row->reasoning_tokens, row->message_seq, row->call_id,
    row->tool_name, row->is_error, row->path, row->change_kind, row->payload_size, row->text,
    row->payload);
  return TRUE;
}

static char *
dump_rows (LoomStore *store,
           gint64     session_id)
{
  g_autoptr (GError) error = NULL;
  GString *out = g_string_new (NULL);

  g_assert_true (loom_store_foreach_session_row (store, session_id, append_row, out, &error));
  g_assert_no_error (error);
  return g_string_free (out, FALSE);
}

/* The timeline as the window shows it: every item's fields, text and payload, the result of
 * each call and the sub-agent it started. */
static char *
dump_timeline (LoomStore *store,
               gint64     session_id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomTimelineModel) model = loom_timeline_model_new (store, session_id, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (G_LIST_MODEL (model), i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);
      LoomTimelineItem       *result = loom_timeline_model_item_get_result (item);
      g_autofree char        *payload = NULL;

      if (!d->is_message)
        {
          payload = loom_store_get_event_payload (store, d->id, &error);
          g_assert_no_error (error);
        }
      g_string_append_printf (
        out,
        "%u: seq=%" G_GINT64_FORMAT " %s %s flags=%u model=%s at=%" G_GINT64_FORMAT
        " tool=%s call=%s err=%d path=%s change=%s size=%" G_GINT64_FORMAT " child=%s\n%s\n%s\n",
        i, d->seq, d->role, d->kind, d->flags, d->model, d->created_at, d->tool_name, d->call_id,
        d->is_error, d->path, d->change_kind, d->payload_size,
        loom_timeline_model_item_get_child_uuid (item), d->text, payload);
      if (result != NULL)
        g_string_append_printf (out, "  result: %s\n", loom_timeline_item_get_data (result)->text);
    }
  return g_string_free (out, FALSE);
}

static void
assert_same_session (LoomStore  *a,
                     LoomStore  *b,
                     const char *uuid)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSession) sa = loom_store_get_session (a, uuid, &error);
  g_autoptr (LoomSession) sb = loom_store_get_session (b, uuid, &error);
  const LoomSessionRecord *ra, *rb;
  g_autofree char         *agent_title_a = NULL, *agent_title_b = NULL;
  g_autofree char         *rows_a = NULL, *rows_b = NULL;
  g_autofree char         *timeline_a = NULL, *timeline_b = NULL;
  gboolean                 locked_a, locked_b;

  g_assert_no_error (error);
  g_assert_nonnull (sa);
  g_assert_nonnull (sb);
  ra = loom_session_get_record (sa);
  rb = loom_session_get_record (sb);

#define SAME_STR(field) g_assert_cmpstr (rb->field, ==, ra->field)
#define SAME_INT(field) g_assert_cmpint (rb->field, ==, ra->field)
  SAME_STR (uuid);
  SAME_STR (title);
  SAME_STR (source);
  SAME_STR (source_session_id);
  SAME_STR (project_path);
  SAME_STR (project_name);
  SAME_STR (cwd);
  SAME_STR (git_branch);
  SAME_STR (git_commit);
  SAME_STR (agent_version);
  SAME_STR (agent_mode);
  SAME_STR (selected_agent_id);
  SAME_STR (model);
  SAME_STR (models_json);
  SAME_INT (created_at);
  SAME_INT (updated_at);
  SAME_INT (last_opened_at);
  SAME_INT (archived_at);
  SAME_INT (trashed_at);
  SAME_INT (message_count);
  SAME_INT (event_count);
  SAME_STR (folder_name);
  SAME_INT (pinned);
  SAME_INT (archived);
  SAME_STR (session_type);
  SAME_STR (fork_source_uuid);
  SAME_STR (parent_uuid);
  SAME_STR (task_objective);
  SAME_STR (task_status);
  SAME_STR (tools_used_json);
  SAME_INT (tokens_input);
  SAME_INT (tokens_output);
  SAME_INT (tokens_cache_read);
  SAME_INT (tokens_cache_creation);
  SAME_INT (tokens_reasoning);
  SAME_INT (n_user_messages);
  SAME_INT (n_assistant_messages);
  SAME_INT (n_tool_calls);
  SAME_INT (n_tool_results);
  SAME_INT (n_tool_errors);
  SAME_INT (n_reasoning);
#undef SAME_STR
#undef SAME_INT
  /* The package is not the agent's file: the restored session names none. */
  g_assert_null (rb->source_path);

  g_assert_true (loom_store_get_session_naming (a, ra->id, &locked_a, &agent_title_a, &error));
  g_assert_true (loom_store_get_session_naming (b, rb->id, &locked_b, &agent_title_b, &error));
  g_assert_no_error (error);
  g_assert_cmpint (locked_b, ==, locked_a);
  g_assert_cmpstr (agent_title_b, ==, agent_title_a);

  rows_a = dump_rows (a, ra->id);
  rows_b = dump_rows (b, rb->id);
  g_assert_cmpstr (rows_b, ==, rows_a);
  timeline_a = dump_timeline (a, ra->id);
  timeline_b = dump_timeline (b, rb->id);
  g_assert_cmpstr (timeline_b, ==, timeline_a);
}

static guint
parent_depth (GHashTable *parents,
              const char *uuid)
{
  guint depth = 0;

  while ((uuid = g_hash_table_lookup (parents, uuid)) != NULL && depth < 100)
    depth++;
  return depth;
}

typedef struct
{
  char *uuid;
  char *package;
  guint depth;
} Exported;

static void
exported_free (Exported *e)
{
  g_free (e->uuid);
  g_free (e->package);
  g_free (e);
}

static int
by_depth (gconstpointer a,
          gconstpointer b)
{
  const Exported *ea = *(const Exported *const *)a;
  const Exported *eb = *(const Exported *const *)b;

  return (int)ea->depth - (int)eb->depth;
}

static const char *const tables[] = { "sessions", "messages", "events", "summaries", "folders" };

static char *
count_tables (const char *db)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    g_string_append_printf (out, "%s=%" G_GINT64_FORMAT " ", tables[i],
                            loom_test_count_rows (db, tables[i]));
  return g_string_free (out, FALSE);
}

/* Every fixture, exported in full and imported into an empty store: the same sessions, field
 * for field, row for row, and the same timelines; searchable; and a second import of every
 * package, into either store, changes nothing. */
static void
test_round_trip (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GPtrArray) exported = g_ptr_array_new_with_free_func ((GDestroyNotify)exported_free);
  g_autoptr (GHashTable) parents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomFolder) folder = NULL;
  g_autofree char *counts_a = NULL, *counts_b = NULL, *counts_again = NULL;
  guint            n, n_sub = 0, n_sub_imported = 0;

  import_every_fixture (f);
  sessions = list_sessions (f->base.store);
  n = g_list_model_get_n_items (sessions);
  g_assert_cmpuint (n, >, 20);

  /* What a person changes travels too: a name chosen, a folder, a pin, the archive. */
  {
    g_autoptr (LoomSession) first = g_list_model_get_item (sessions, 0);
    g_autoptr (LoomSession) second = g_list_model_get_item (sessions, 1);
    const char *uuid = loom_session_get_uuid (first);

    folder = loom_store_create_folder (f->base.store, "Keepers", &error);
    g_assert_no_error (error);
    g_assert_true (loom_store_rename_session (f->base.store, uuid, "Named by hand", &error));
    g_assert_true (
      loom_store_move_session (f->base.store, uuid, loom_folder_get_id (folder), &error));
    g_assert_true (loom_store_set_pinned (f->base.store, uuid, TRUE, &error));
    g_assert_true (loom_store_mark_opened (f->base.store, uuid, &error));
    g_assert_true (
      loom_store_set_archived (f->base.store, loom_session_get_uuid (second), TRUE, &error));
    g_assert_no_error (error);
  }
  g_clear_object (&sessions);
  sessions = list_sessions (f->base.store);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      const LoomSessionRecord *r = loom_session_get_record (session);

      if (r->parent_uuid != NULL)
        g_hash_table_insert (parents, g_strdup (r->uuid), g_strdup (r->parent_uuid));
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      const char *uuid = loom_session_get_uuid (session);
      g_autoptr (LoomExportResult)
        result = export_ok (f->base.store, uuid, f->dest, LOOM_EXPORT_DETAIL_FULL);
      Exported *e = g_new0 (Exported, 1);

      e->uuid = g_strdup (uuid);
      e->package = g_strdup (result->path);
      e->depth = parent_depth (parents, uuid);
      n_sub += e->depth > 0;
      g_ptr_array_add (exported, e);
    }
  /* Sub-agents among them, whose parents are restored first so that the link is kept. */
  g_assert_cmpuint (n_sub, >, 0);
  g_ptr_array_sort (exported, by_depth);

  /* A parent's package holds its sub-agents' packages: importing the parents brings every
   * session back, and a sub-agent's own package then finds its session there. */
  for (guint i = 0; i < exported->len; i++)
    {
      Exported *e = exported->pdata[i];
      g_autoptr (LoomPackageImportResult) result = import_ok (f->store_b, e->package);

      g_test_message ("%s ← %s", e->uuid, e->package);
      g_assert_cmpstr (result->session_id, ==, e->uuid);
      g_assert_cmpuint (result->n_files_verified, >=, 3);
      if (e->depth == 0)
        {
          g_assert_false (result->already_stored);
          n_sub_imported += result->n_subagents;
        }
      else
        {
          g_assert_true (result->already_stored);
          g_assert_cmpuint (result->n_subagents, ==, 0);
        }
    }
  g_assert_cmpuint (n_sub_imported, ==, n_sub);
  for (guint i = 0; i < exported->len; i++)
    assert_same_session (f->base.store, f->store_b, ((Exported *)exported->pdata[i])->uuid);

  counts_a = count_tables (f->base.db);
  counts_b = count_tables (f->db_b);
  g_assert_cmpstr (counts_b, ==, counts_a);
  /* Restored rows are found like imported ones. */
  loom_test_assert_index_in_sync (f->db_b);
  {
    static const char *const words[] = { "tokens", "importer", "parser", "请", "done" };

    for (guint i = 0; i < G_N_ELEMENTS (words); i++)
      g_assert_cmpint (loom_test_count_matches (f->db_b, words[i]), ==,
                       loom_test_count_matches (f->base.db, words[i]));
    g_assert_cmpint (loom_test_count_matches (f->db_b, "parser"), >, 0);
  }

  /* Twice, into the store restored and into the original: nothing changes. */
  for (guint i = 0; i < exported->len; i++)
    {
      Exported *e = exported->pdata[i];
      g_autoptr (LoomPackageImportResult) again_b = import_ok (f->store_b, e->package);
      g_autoptr (LoomPackageImportResult) again_a = import_ok (f->base.store, e->package);

      g_assert_true (again_b->already_stored);
      g_assert_true (again_a->already_stored);
      g_assert_cmpuint (again_b->n_messages + again_b->n_events, ==, 0);
    }
  counts_again = count_tables (f->db_b);
  g_assert_cmpstr (counts_again, ==, counts_b);
  g_free (counts_again);
  counts_again = count_tables (f->base.db);
  g_assert_cmpstr (counts_again, ==, counts_a);
}

/* A package at "messages" holds the prompts and replies only, and the session it restores
 * says so in its counts. */
static void
test_messages_detail (Fixture      *f,
                      gconstpointer data)
{
  g_autofree char *path = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  g_autoptr (LoomSession) original = NULL;
  g_autoptr (LoomSession) restored = NULL;
  g_autoptr (LoomExportResult) exported = NULL;
  g_autoptr (LoomPackageImportResult) result = NULL;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;

  loom_test_store_import_path (&f->base, NULL, path);
  sessions = list_sessions (f->base.store);
  original = g_list_model_get_item (sessions, 0);
  exported = export_ok (f->base.store, loom_session_get_uuid (original), f->dest,
                        LOOM_EXPORT_DETAIL_MESSAGES);
  result = import_ok (f->store_b, exported->path);
  g_assert_cmpuint (result->n_events, ==, 0);
  g_assert_cmpint (result->n_messages, ==, loom_session_get_record (original)->message_count);
  restored = loom_store_get_session (f->store_b, loom_session_get_uuid (original), &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_session_get_record (restored)->message_count, ==,
                   loom_session_get_record (original)->message_count);
  g_assert_cmpint (loom_session_get_record (restored)->event_count, ==, 0);
  g_assert_cmpint (loom_session_get_record (restored)->tokens_output, ==,
                   loom_session_get_record (original)->tokens_output);
  loom_test_assert_index_in_sync (f->db_b);
}

/* ——— Packages that do not verify ——— */

typedef void (*TamperFunc) (const char *package);

static void
rewrite_file (const char *package,
              const char *name,
              const char *contents,
              gssize      length)
{
  g_autofree char *path = g_build_filename (package, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}

static void
flip_byte (const char *package,
           const char *name)
{
  g_autofree char *path = g_build_filename (package, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  gsize length;

  g_file_get_contents (path, &text, &length, &error);
  g_assert_no_error (error);
  text[length / 2] ^= 0x01;
  rewrite_file (package, name, text, (gssize)length);
}

static void
flip_conversation_byte (const char *package)
{
  flip_byte (package, "conversation.md");
}

/* The page is hashed like every file: a page changed after the export is refused too. */
static void
flip_page_byte (const char *package)
{
  flip_byte (package, "conversation.html");
}

static void
remove_metadata (const char *package)
{
  g_autofree char *path = g_build_filename (package, "metadata.json", NULL);

  g_assert_no_errno (g_unlink (path));
}

/* Edits manifest.json with @func on its root object. */
static void
edit_manifest (const char *package,
               void (*func) (JsonObject *manifest))
{
  g_autofree char *path = g_build_filename (package, "manifest.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  func (json_node_get_object (json_parser_get_root (parser)));
  json_generator_set_root (generator, json_parser_get_root (parser));
  text = json_generator_to_data (generator, NULL);
  rewrite_file (package, "manifest.json", text, -1);
}

static void
escape_path (JsonObject *manifest)
{
  JsonArray *files = json_object_get_array_member (manifest, "files");

  json_object_set_string_member (json_array_get_object_element (files, 0), "path", "../escape");
}

static void
list_escape (const char *package)
{
  edit_manifest (package, escape_path);
}

static void
drop_session_data (JsonObject *manifest)
{
  JsonArray *files = json_object_get_array_member (manifest, "files");

  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      if (g_str_equal (
            json_object_get_string_member (json_array_get_object_element (files, i), "path"),
            "session.jsonl"))
        {
          json_array_remove_element (files, i);
          return;
        }
    }
  g_assert_not_reached ();
}

static void
unlist_session_data (const char *package)
{
  g_autofree char *path = g_build_filename (package, "session.jsonl", NULL);

  edit_manifest (package, drop_session_data);
  g_assert_no_errno (g_unlink (path));
}

static void
make_compact (JsonObject *manifest)
{
  json_object_set_string_member (manifest, "mode", "compact");
}

static void
mark_compact (const char *package)
{
  edit_manifest (package, make_compact);
}

static void
make_newer (JsonObject *manifest)
{
  json_object_set_int_member (manifest, "format_version", 99);
}

static void
mark_newer (const char *package)
{
  edit_manifest (package, make_newer);
}

static void
add_symlink (const char *package)
{
  g_autofree char *link = g_build_filename (package, "artifacts", "passwd", NULL);

  g_assert_no_errno (symlink ("/etc/passwd", link));
}

/* conversation.md itself becomes a link to a copy of it, elsewhere: same bytes, refused. */
static void
link_listed_file (const char *package)
{
  g_autofree char *path = g_build_filename (package, "conversation.md", NULL);
  g_autofree char *copy = g_strconcat (package, ".conversation.md", NULL);

  g_assert_no_errno (g_rename (path, copy));
  g_assert_no_errno (symlink (copy, path));
}

/* A manifest that verifies (the sizes and hashes made to match) over a session.jsonl whose
 * second half is not JSON: refused, and the rows written before it are rolled back. */
static void
corrupt_session_data (const char *package)
{
  g_autofree char *path = g_build_filename (package, "session.jsonl", NULL);
  g_autofree char *text = NULL;
  g_autofree char *sha256 = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *manifest_path = g_build_filename (package, "manifest.json", NULL);
  g_autofree char *manifest = NULL;
  JsonArray       *files;
  gsize            length;
  char            *cut;

  g_file_get_contents (path, &text, &length, &error);
  g_assert_no_error (error);
  cut = strchr (strchr (text, '\n') + 1, '\n') + 1; /* after the first message or event */
  memcpy (cut, "{\"type\":\"message\",", 18);
  length = (gsize)(cut - text) + 18 + 1;
  cut[18] = '\n';
  rewrite_file (package, "session.jsonl", text, (gssize)length);
  sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *)text, length);

  json_parser_load_from_file (parser, manifest_path, &error);
  g_assert_no_error (error);
  files = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "files");
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *file = json_array_get_object_element (files, i);

      if (g_str_equal (json_object_get_string_member (file, "path"), "session.jsonl"))
        {
          json_object_set_int_member (file, "size", (gint64)length);
          json_object_set_string_member (file, "sha256", sha256);
        }
    }
  json_generator_set_root (generator, json_parser_get_root (parser));
  manifest = json_generator_to_data (generator, NULL);
  rewrite_file (package, "manifest.json", manifest, -1);
}

typedef struct
{
  const char *name;
  TamperFunc  tamper;
  int         code;
  const char *named; /* what the message must name */
} Tampering;

static void
test_refused (Fixture      *f,
              gconstpointer data)
{
  static const Tampering tamperings[] = {
    { "one byte of conversation.md", flip_conversation_byte, LOOM_ERROR_CORRUPT,
      "conversation.md" },
    { "one byte of conversation.html", flip_page_byte, LOOM_ERROR_CORRUPT, "conversation.html" },
    { "metadata.json missing", remove_metadata, LOOM_ERROR_CORRUPT, "metadata.json" },
    { "../escape listed", list_escape, LOOM_ERROR_CORRUPT, "../escape" },
    { "a symlink in artifacts/", add_symlink, LOOM_ERROR_CORRUPT, "artifacts/passwd" },
    { "a listed file as a symlink", link_listed_file, LOOM_ERROR_CORRUPT, "conversation.md" },
    { "no session.jsonl", unlist_session_data, LOOM_ERROR_INVALID_ARGUMENT, "session.jsonl" },
    { "compact", mark_compact, LOOM_ERROR_INVALID_ARGUMENT, "compact" },
    { "a newer format", mark_newer, LOOM_ERROR_NEWER_SCHEMA, "99" },
    { "session.jsonl cut", corrupt_session_data, LOOM_ERROR_CORRUPT, "session.jsonl" },
  };
  g_autofree char *path = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autofree char *before = NULL;
  const char      *uuid;

  loom_test_store_import_path (&f->base, NULL, path);
  sessions = list_sessions (f->base.store);
  session = g_list_model_get_item (sessions, 0);
  uuid = loom_session_get_uuid (session);
  before = count_tables (f->db_b);
  /* A first read opens the store's WAL files, which it keeps: they are not the import's. */
  g_clear_object (&sessions);
  sessions = list_sessions (f->store_b);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (tamperings); i++)
    {
      g_autoptr (LoomExportResult)
        exported = export_ok (f->base.store, uuid, f->dest, LOOM_EXPORT_DETAIL_FULL);
      g_autoptr (GError) error = NULL;
      g_autofree char         *after = NULL;
      LoomPackageImportResult *result = NULL;
      guint                    n_fds = loom_test_count_fds ();

      g_test_message ("%s: %s", tamperings[i].name, exported->path);
      tamperings[i].tamper (exported->path);
      g_assert_false (loom_import_package (f->store_b, exported->path, &result, NULL, &error));
      g_assert_error (error, LOOM_ERROR, tamperings[i].code);
      g_test_message ("  %s", error->message);
      g_assert_nonnull (strstr (error->message, tamperings[i].named));
      g_assert_null (result);
      g_assert_cmpuint (loom_test_count_fds (), ==, n_fds);
      after = count_tables (f->db_b);
      g_assert_cmpstr (after, ==, before);
    }

  /* The package folder reached through a link is refused too. */
  {
    g_autoptr (LoomExportResult)
      exported = export_ok (f->base.store, uuid, f->dest, LOOM_EXPORT_DETAIL_FULL);
    g_autofree char *link = g_build_filename (f->base.dir, "link-to-package", NULL);
    g_autoptr (GError) error = NULL;

    g_assert_no_errno (symlink (exported->path, link));
    g_assert_false (loom_import_package (f->store_b, link, NULL, NULL, &error));
    g_assert_nonnull (strstr (error->message, "link"));
    /* Not the link: the package itself verifies and imports. */
    g_clear_error (&error);
    g_assert_true (loom_import_package (f->store_b, exported->path, NULL, NULL, &error));
    g_assert_no_error (error);
  }
}

/* A package made by hand around @session_data, its manifest true to it. */
static char *
make_package (const char *dir,
              const char *name,
              const char *session_data,
              gsize       length)
{
  g_autofree char *sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                         (const guchar *)session_data, length);
  g_autofree char *manifest = g_strdup_printf (
    "{\"format_version\": 1, \"mode\": \"full\", \"detail\": \"full\", \"files\": "
    "[{\"path\": \"session.jsonl\", \"size\": %" G_GSIZE_FORMAT ", \"sha256\": \"%s\"}]}",
    length, sha256);
  char *package = g_build_filename (dir, name, NULL);

  g_assert_no_errno (g_mkdir (package, 0700));
  rewrite_file (package, "session.jsonl", session_data, (gssize)length);
  rewrite_file (package, "manifest.json", manifest, -1);
  return package;
}

#define HEADER \
  "{\"type\":\"session\",\"format_version\":1,\"detail\":\"full\"," \
  "\"uuid\":\"0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8\",\"source\":\"codex\"," \
  "\"source_session_id\":\"hand-made\",\"title\":\"By hand - 2026-12-01\"}"

/* session.jsonl written by someone else: each is imported whole or refused whole, and a
 * refusal leaves the store as it was; none crashes or hangs. */
static void
test_hostile_session_data (Fixture      *f,
                           gconstpointer data)
{
  static const struct
  {
    const char *name;
    const char *text;
    gboolean    imports;
    guint64     n_rows;
  } cases[] = {
    { "header only", HEADER "\n", TRUE, 0 },
    { "no final newline",
      HEADER "\n{\"type\":\"message\",\"seq\":1,\"role\":\"user\","
             "\"text\":\"hello\"}",
      TRUE, 1 },
    { "wrong types everywhere",
      HEADER "\n{\"type\":\"message\",\"seq\":\"one\",\"role\":7,"
             "\"flags\":[],\"text\":{},\"input_tokens\":\"many\"}\n{\"type\":\"event\","
             "\"seq\":2,\"kind\":null,\"message_seq\":99,\"payload\":false}\n",
      TRUE, 2 },
    { "empty", "", FALSE, 0 },
    { "no header", "{\"type\":\"message\",\"seq\":1}\n", FALSE, 0 },
    { "a bad uuid",
      "{\"type\":\"session\",\"format_version\":1,\"uuid\":\"../x\","
      "\"source\":\"codex\"}\n",
      FALSE, 0 },
    { "a newer version",
      "{\"type\":\"session\",\"format_version\":2,"
      "\"uuid\":\"0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8\",\"source\":\"codex\"}\n",
      FALSE, 0 },
    { "an unknown line",
      HEADER "\n{\"type\":\"message\",\"seq\":1,\"role\":\"user\"}\n"
             "{\"type\":\"telemetry\"}\n",
      FALSE, 0 },
    { "the same message twice",
      HEADER "\n{\"type\":\"message\",\"seq\":1,\"role\":\"user\","
             "\"source_id\":\"m1\"}\n{\"type\":\"message\",\"seq\":2,\"role\":\"user\","
             "\"source_id\":\"m1\"}\n",
      FALSE, 0 },
    { "not JSON", HEADER "\n{\"type\":\"message\",\n", FALSE, 0 },
    { "two values on a line", HEADER " " HEADER "\n", FALSE, 0 },
  };
  g_autofree char *before = count_tables (f->db_b);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("case-%u", i);
      g_autofree char *package = make_package (f->base.dir, name, cases[i].text,
                                               strlen (cases[i].text));
      g_autoptr (GError) error = NULL;
      g_autoptr (LoomPackageImportResult) result = NULL;
      g_autofree char *after = NULL;
      gboolean         ok;

      g_test_message ("%s", cases[i].name);
      ok = loom_import_package (f->store_b, package, &result, NULL, &error);
      after = count_tables (f->db_b);
      if (cases[i].imports)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpuint (result->n_messages + result->n_events, ==, cases[i].n_rows);
          g_assert_cmpstr (result->session_id, ==, "0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8");
          loom_test_assert_index_in_sync (f->db_b);
          /* Gone again, for the next case to find an empty store. */
          {
            const char *const ids[] = { result->session_id, NULL };
            g_autoptr (LoomDeletePlan) plan = loom_store_plan_delete (f->store_b, ids, &error);

            g_assert_no_error (error);
            g_assert_true (loom_store_execute_delete (f->store_b, plan, &error));
            g_assert_no_error (error);
            loom_test_exec_sql (f->db_b, "DELETE FROM tombstones");
          }
        }
      else
        {
          g_assert_false (ok);
          g_assert_nonnull (error);
          g_test_message ("  %s", error->message);
          g_assert_nonnull (strstr (error->message, "session.jsonl"));
          g_assert_cmpstr (after, ==, before);
        }
    }
}

typedef struct
{
  LoomPackageImportResult *result;
  GError                  *error;
  gboolean                 done;
  gpointer                 task; /* NULL once the worker let it go, and the store with it */
} AsyncImport;

static void
on_imported (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  AsyncImport *state = user_data;

  state->result = loom_import_package_finish (LOOM_STORE (source), res, &state->error);
  state->done = TRUE;
  state->task = res;
  g_object_add_weak_pointer (G_OBJECT (res), &state->task);
}

static void
import_async (LoomStore    *store,
              const char   *package,
              GCancellable *cancellable,
              AsyncImport  *state)
{
  loom_import_package_async (store, package, cancellable, on_imported, state);
  while (!state->done)
    g_main_context_iteration (NULL, TRUE);
  while (g_atomic_pointer_get (&state->task) != NULL)
    {
      g_main_context_iteration (NULL, FALSE);
      g_thread_yield ();
    }
}

/* The app's way: in a thread, on a connection of its own; the caller's connection then reads
 * the session. Cancelled before it began, it writes nothing. */
static void
test_async (Fixture      *f,
            gconstpointer data)
{
  g_autofree char *path = loom_test_fixture_path ("claude", NULL);
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) first = NULL;
  g_autoptr (LoomExportResult) exported = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (LoomSession) restored = NULL;
  g_autoptr (GError) error = NULL;
  AsyncImport cancelled = { 0 }, imported = { 0 };

  loom_test_store_import_path (&f->base, NULL, path);
  sessions = list_sessions (f->base.store);
  first = g_list_model_get_item (sessions, 0);
  exported = export_ok (f->base.store, loom_session_get_uuid (first), f->dest,
                        LOOM_EXPORT_DETAIL_FULL);

  g_cancellable_cancel (cancellable);
  import_async (f->store_b, exported->path, cancellable, &cancelled);
  g_assert_error (cancelled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (cancelled.result);
  g_clear_error (&cancelled.error);
  g_assert_cmpint (loom_test_count_rows (f->db_b, "sessions"), ==, 0);

  import_async (f->store_b, exported->path, NULL, &imported);
  g_assert_no_error (imported.error);
  g_assert_nonnull (imported.result);
  g_assert_false (imported.result->already_stored);
  g_assert_cmpstr (imported.result->session_id, ==, loom_session_get_uuid (first));
  restored = loom_store_get_session (f->store_b, loom_session_get_uuid (first), &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_session_get_record (restored)->message_count, ==,
                   loom_session_get_record (first)->message_count);
  loom_package_import_result_free (imported.result);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/package-import/round-trip", test_round_trip);
  ADD ("/package-import/messages-detail", test_messages_detail);
  ADD ("/package-import/refused", test_refused);
  ADD ("/package-import/hostile-session-data", test_hostile_session_data);
  ADD ("/package-import/async", test_async);
  return g_test_run ();
}
