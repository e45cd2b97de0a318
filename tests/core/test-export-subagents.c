/* test-export-subagents.c — a session's sub-agents travel in its package.
 *
 * Real transcripts with sub-agents (a Claude Code session whose Task calls left files in
 * subagents/, a Codex thread that spawned another) are imported into a real store and
 * exported: each sub-agent is a package of the same layout in subagents/<title>/, linked from
 * the parent's conversation where it was started, listed and hashed in the parent's manifest
 * too; the messages level, which shows no tool calls, leaves them out. The package imports back
 * into an empty store whole, every sub-agent linked to its parent again; a tampered or crafted
 * sub-agent is refused, named, and nothing is written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-export.h"
#include "loom-package-import.h"
#include "loom-store-timeline-pages.h"
#include "loom-test-utils.h"

typedef struct
{
  LoomTestStore base;
  char         *dir_b;
  char         *db_b;
  LoomStore    *store_b; /* empty, for the packages */
  char         *dest;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *claude = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  g_autofree char *codex = loom_test_fixture_path ("codex", "subagent", NULL);
  const char      *paths[] = { claude, codex, NULL };

  loom_test_store_set_up (&f->base, data);
  f->store_b = loom_test_new_store (&f->dir_b, &f->db_b);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
  loom_test_store_import_paths (&f->base, NULL, paths);
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

/* The sessions of the store that started sub-agents and have no parent themselves. */
static GPtrArray *
list_parents (LoomStore *store)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (GListModel) sessions = NULL;
  GPtrArray *parents = g_ptr_array_new_with_free_func (g_object_unref);

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      g_autoptr (GListModel) children = NULL;

      if (loom_session_get_record (session)->parent_uuid != NULL)
        continue;
      children = loom_store_list_child_sessions (store, loom_session_get_uuid (session), &error);
      g_assert_no_error (error);
      if (g_list_model_get_n_items (children) > 0)
        g_ptr_array_add (parents, g_steal_pointer (&session));
    }
  return parents;
}

static guint
count_children (LoomStore  *store,
                const char *uuid)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GListModel) children = loom_store_list_child_sessions (store, uuid, &error);

  g_assert_no_error (error);
  return g_list_model_get_n_items (children);
}

static JsonObject *
read_manifest (const char *package)
{
  g_autofree char *path = g_build_filename (package, "manifest.json", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
read_text (const char *package,
           const char *name)
{
  g_autofree char *path = g_build_filename (package, name, NULL);
  g_autoptr (GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);

  g_assert_nonnull (file);
  return g_strndup (g_mapped_file_get_contents (file), g_mapped_file_get_length (file));
}

/* Whether the manifest's "files" lists @path; its size and hash are then those of the file. */
static gboolean
lists_file (JsonObject *manifest,
            const char *package,
            const char *path)
{
  JsonArray *files = json_object_get_array_member (manifest, "files");

  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject      *file = json_array_get_object_element (files, i);
      g_autofree char *full = NULL;
      g_autofree char *sha256 = NULL;

      if (g_strcmp0 (json_object_get_string_member (file, "path"), path) != 0)
        continue;
      full = g_build_filename (package, path, NULL);
      sha256 = loom_test_file_checksum (full);
      g_assert_cmpstr (json_object_get_string_member (file, "sha256"), ==, sha256);
      return TRUE;
    }
  return FALSE;
}

/* The sub-agents of @parent in its package @package, which is at @prefix in the package
 * @top_package (whose manifest is @top), at every depth; returns how many. */
static guint
assert_subagents_packaged (LoomStore  *store,
                           const char *parent,
                           const char *package,
                           const char *top_package,
                           JsonObject *top,
                           const char *prefix)
{
  g_autoptr (JsonObject) manifest = read_manifest (package);
  g_autofree char *conversation = read_text (package, "conversation.md");
  g_autofree char *page = read_text (package, "conversation.html");
  JsonArray       *subagents = json_object_get_array_member (manifest, "subagents");
  guint            n = json_array_get_length (subagents);

  g_assert_cmpstr (json_object_get_string_member (manifest, "session_id"), ==, parent);
  g_assert_cmpuint (n, ==, count_children (store, parent));
  for (guint i = 0; i < n; i++)
    {
      JsonObject      *entry = json_array_get_object_element (subagents, i);
      const char      *uuid = json_object_get_string_member (entry, "session_id");
      const char      *path = json_object_get_string_member (entry, "path");
      g_autofree char *child = g_build_filename (package, path, NULL);
      g_autofree char *link = g_strconcat (path, "/conversation.md", NULL);
      g_autofree char *escaped = g_uri_escape_string (link, "/", TRUE);
      g_autofree char *markdown = g_strdup_printf ("Session %s: [its conversation](%s)", uuid,
                                                   escaped);
      g_autofree char *page_link = g_strconcat (path, "/conversation.html", NULL);
      g_autofree char *page_escaped = g_uri_escape_string (page_link, "/", TRUE);
      g_autofree char *anchor = g_strdup_printf ("Session <code>%s</code>: <a href=\"%s\">", uuid,
                                                 page_escaped);
      g_autofree char *in_top = g_strconcat (prefix, link, NULL);
      g_autofree char *manifest_in_top = g_strconcat (prefix, path, "/manifest.json", NULL);
      g_autofree char *child_prefix = g_strconcat (prefix, path, "/", NULL);
      g_autoptr (JsonObject) child_manifest = read_manifest (child);
      g_autofree char *before = NULL;
      g_autoptr (LoomSession) session = loom_store_get_session (store, uuid, NULL);

      g_test_message ("%s → %s", uuid, path);
      g_assert_nonnull (session);
      g_assert_cmpstr (loom_session_get_record (session)->parent_uuid, ==, parent);
      g_assert_true (g_str_has_prefix (path, "subagents/"));
      g_assert_cmpstr (json_object_get_string_member (child_manifest, "session_id"), ==, uuid);

      /* The same layout, and the parent's conversation links it where it was started: after
       * a sub-agent's heading, before the next heading. */
      for (guint k = 0; k < 5; k++)
        {
          static const char *const names[] = { "conversation.md", "conversation.html",
                                               "metadata.json", "session.jsonl", "artifacts" };
          g_autofree char         *file = g_build_filename (child, names[k], NULL);

          g_assert_true (g_file_test (file, G_FILE_TEST_EXISTS));
        }
      g_assert_nonnull (strstr (conversation, markdown));
      before = g_strndup (conversation, (gsize)(strstr (conversation, markdown) - conversation));
      g_assert_nonnull (g_strrstr (before, "\n### "));
      g_assert_true (g_str_has_prefix (g_strrstr (before, "\n### "), "\n### Sub-agent"));
      /* The page links the sub-agent's page, in the entry of the sub-agent. */
      g_assert_nonnull (strstr (page, anchor));
      g_clear_pointer (&before, g_free);
      before = g_strndup (page, (gsize)(strstr (page, anchor) - page));
      g_assert_nonnull (g_strrstr (before, "<details class=\"event "));
      g_assert_true (g_str_has_prefix (g_strrstr (before, "<details class=\"event "),
                                       "<details class=\"event sub-agent\""));

      /* Its files are listed twice: in its own manifest, and in the top package's, which so
       * verifies whole. */
      g_assert_true (lists_file (child_manifest, child, "conversation.md"));
      g_assert_true (lists_file (child_manifest, child, "conversation.html"));
      g_assert_true (lists_file (top, top_package, in_top));
      g_assert_true (lists_file (top, top_package, manifest_in_top));
      n += assert_subagents_packaged (store, uuid, child, top_package, top, child_prefix);
    }
  return n;
}

static void
test_subagents_in_package (Fixture      *f,
                           gconstpointer data)
{
  g_autoptr (GPtrArray) parents = list_parents (f->base.store);
  guint n_total = 0;

  /* The Claude Code session and the Codex thread. */
  g_assert_cmpuint (parents->len, ==, 2);
  for (guint i = 0; i < parents->len; i++)
    {
      const char *uuid = loom_session_get_uuid (parents->pdata[i]);
      g_autoptr (LoomExportResult)
        result = loom_test_export_ok (f->base.store, uuid, f->dest, NULL);
      g_autoptr (JsonObject) top = read_manifest (result->path);
      guint n;

      n = assert_subagents_packaged (f->base.store, uuid, result->path, result->path, top, "");
      g_assert_cmpuint (n, >, 0);
      g_assert_cmpuint (result->n_subagents, ==, n);
      n_total += n;
    }
  g_assert_cmpuint (n_total, >=, 2);
}

static void
test_messages_leaves_them_out (Fixture      *f,
                               gconstpointer data)
{
  g_autoptr (GPtrArray) parents = list_parents (f->base.store);
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;

  options.detail = LOOM_EXPORT_DETAIL_MESSAGES;
  for (guint i = 0; i < parents->len; i++)
    {
      g_autoptr (LoomExportResult) result = loom_test_export_ok (
        f->base.store, loom_session_get_uuid (parents->pdata[i]), f->dest, &options);
      g_autoptr (JsonObject) manifest = read_manifest (result->path);
      g_autofree char *folder = g_build_filename (result->path, "subagents", NULL);

      g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (
        json_array_get_length (json_object_get_array_member (manifest, "subagents")), ==, 0);
      g_assert_cmpuint (result->n_subagents, ==, 0);
    }
}

static char *
export_first_parent (Fixture *f,
                     char   **uuid)
{
  g_autoptr (GPtrArray) parents = list_parents (f->base.store);
  g_autoptr (LoomExportResult) result = NULL;

  g_assert_cmpuint (parents->len, >, 0);
  *uuid = g_strdup (loom_session_get_uuid (parents->pdata[0]));
  result = loom_test_export_ok (f->base.store, *uuid, f->dest, NULL);
  return g_strdup (result->path);
}

static void
test_imports_back (Fixture      *f,
                   gconstpointer data)
{
  g_autoptr (GPtrArray) parents = list_parents (f->base.store);

  for (guint i = 0; i < parents->len; i++)
    {
      const char *uuid = loom_session_get_uuid (parents->pdata[i]);
      guint       n_children = count_children (f->base.store, uuid);
      g_autoptr (LoomExportResult)
        exported = loom_test_export_ok (f->base.store, uuid, f->dest, NULL);
      g_autoptr (LoomPackageImportResult) result = NULL;
      g_autoptr (LoomPackageImportResult) again = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (loom_import_package (f->store_b, exported->path, &result, NULL, &error));
      g_assert_no_error (error);
      g_assert_false (result->already_stored);
      g_assert_cmpstr (result->session_id, ==, uuid);
      g_assert_cmpuint (result->n_subagents, ==, exported->n_subagents);
      /* Each sub-agent is linked to its parent again, with its rows. */
      g_assert_cmpuint (count_children (f->store_b, uuid), ==, n_children);
      {
        g_autoptr (GListModel)
          children = loom_store_list_child_sessions (f->base.store, uuid, &error);

        for (guint k = 0; k < g_list_model_get_n_items (children); k++)
          {
            g_autoptr (LoomSession) a = g_list_model_get_item (children, k);
            g_autoptr (LoomSession)
              b = loom_store_get_session (f->store_b, loom_session_get_uuid (a), &error);

            g_assert_no_error (error);
            g_assert_nonnull (b);
            g_assert_cmpstr (loom_session_get_record (b)->parent_uuid, ==, uuid);
            g_assert_cmpint (loom_session_get_record (b)->message_count, ==,
                             loom_session_get_record (a)->message_count);
            g_assert_cmpint (loom_session_get_record (b)->event_count, ==,
                             loom_session_get_record (a)->event_count);
            g_assert_cmpint (loom_session_get_record (b)->tokens_output, ==,
                             loom_session_get_record (a)->tokens_output);
          }
      }

      /* Twice: nothing changes. */
      g_assert_true (loom_import_package (f->store_b, exported->path, &again, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (again->already_stored);
      g_assert_cmpuint (again->n_subagents, ==, 0);
    }
  g_assert_cmpint (loom_test_count_rows (f->db_b, "sessions"), ==,
                   loom_test_count_rows (f->base.db, "sessions"));
}

/* A sub-agent's file changed after the export: the parent's manifest names it, and nothing is
 * written, not even the parent. */
static void
test_tampered_subagent_refused (Fixture      *f,
                                gconstpointer data)
{
  g_autofree char *uuid = NULL;
  g_autofree char *package = export_first_parent (f, &uuid);
  g_autoptr (JsonObject) manifest = read_manifest (package);
  const char *path = json_object_get_string_member (
    json_array_get_object_element (json_object_get_array_member (manifest, "subagents"), 0),
    "path");
  g_autofree char *conversation = g_build_filename (package, path, "conversation.md", NULL);
  g_autofree char *listed = g_strconcat (path, "/conversation.md", NULL);
  g_autoptr (GError) error = NULL;
  LoomPackageImportResult *result = NULL;
  FILE                    *file;

  g_assert_no_errno (g_chmod (conversation, 0600));
  file = g_fopen (conversation, "a");
  g_assert_nonnull (file);
  fputs ("edited\n", file);
  fclose (file);

  g_assert_false (loom_import_package (f->store_b, package, &result, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, listed));
  g_assert_null (result);
  g_assert_cmpint (loom_test_count_rows (f->db_b, "sessions"), ==, 0);
}

/* A manifest that lists a sub-agent outside the package, or one whose manifest it does not
 * hash, is refused before anything is read. */
static void
rewrite_manifest (const char *package,
                  const char *subagent_path)
{
  g_autoptr (JsonObject) manifest = read_manifest (package);
  g_autoptr (JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *path = g_build_filename (package, "manifest.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *entry = json_array_get_object_element (
    json_object_get_array_member (manifest, "subagents"), 0);

  json_object_set_string_member (entry, "path", subagent_path);
  json_node_set_object (root, manifest);
  text = json_to_string (root, TRUE);
  g_assert_no_errno (g_chmod (path, 0600));
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
test_crafted_subagent_refused (Fixture      *f,
                               gconstpointer data)
{
  static const char *const crafted[] = { "../elsewhere", "/etc", "subagents/../../x",
                                         "subagents/not-listed" };

  for (guint i = 0; i < G_N_ELEMENTS (crafted); i++)
    {
      g_autofree char *uuid = NULL;
      g_autofree char *package = export_first_parent (f, &uuid);
      g_autoptr (GError) error = NULL;
      LoomPackageImportResult *result = NULL;

      rewrite_manifest (package, crafted[i]);
      g_assert_false (loom_import_package (f->store_b, package, &result, NULL, &error));
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
      g_test_message ("%s: %s", crafted[i], error->message);
      g_assert_nonnull (strstr (error->message, crafted[i]));
      g_assert_cmpint (loom_test_count_rows (f->db_b, "sessions"), ==, 0);
    }
}

static void
record_progress (const LoomExportProgress *progress,
                 gpointer                  user_data)
{
  GPtrArray *steps = user_data;

  g_assert_nonnull (progress->session_id);
  if (g_str_equal (progress->step, "artifacts"))
    {
      g_assert_nonnull (progress->artifact);
      g_assert_cmpuint (progress->n_artifacts_done, <, progress->n_artifacts_total);
    }
  else
    g_assert_null (progress->artifact);
  g_ptr_array_add (steps, g_strdup_printf ("%s %s", progress->session_id, progress->step));
}

static guint
count_steps (GPtrArray  *steps,
             const char *step)
{
  guint n = 0;

  for (guint i = 0; i < steps->len; i++)
    n += g_str_has_suffix (steps->pdata[i], step);
  return n;
}

/* Progress is told for each step of each package, a sub-agent's between its parent's
 * "subagents" and "manifest", and for each artifact. */
static void
test_progress (Fixture      *f,
               gconstpointer data)
{
  g_autoptr (GPtrArray) parents = list_parents (f->base.store);
  g_autoptr (GPtrArray) steps = g_ptr_array_new_with_free_func (g_free);
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  const char       *uuid = loom_session_get_uuid (parents->pdata[0]);
  g_autoptr (LoomExportResult) result = NULL;
  g_autofree char *first = g_strdup_printf ("%s conversation", uuid);
  g_autofree char *subagents = g_strdup_printf ("%s subagents", uuid);
  g_autofree char *last = g_strdup_printf ("%s manifest", uuid);
  guint            n_artifacts = 0, at_subagents = 0;

  options.progress = record_progress;
  options.progress_data = steps;
  result = loom_test_export_ok (f->base.store, uuid, f->dest, &options);

  g_assert_cmpstr (steps->pdata[0], ==, first);
  g_assert_cmpstr (steps->pdata[steps->len - 1], ==, last);
  g_assert_true (g_ptr_array_find_with_equal_func (steps, subagents, g_str_equal, &at_subagents));
  for (guint i = at_subagents + 1; i < steps->len - 1; i++)
    g_assert_false (g_str_has_prefix (steps->pdata[i], uuid));
  g_assert_cmpuint (count_steps (steps, " manifest"), ==, 1 + result->n_subagents);
  g_assert_cmpuint (count_steps (steps, " conversation"), ==, 1 + result->n_subagents);
  n_artifacts = count_steps (steps, " artifacts");
  g_assert_cmpuint (n_artifacts, ==, result->n_artifacts + result->n_artifacts_missing);
  g_assert_cmpuint (n_artifacts, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/export/subagents/in-package", test_subagents_in_package);
  ADD ("/export/subagents/messages-leaves-them-out", test_messages_leaves_them_out);
  ADD ("/export/subagents/imports-back", test_imports_back);
  ADD ("/export/subagents/tampered-refused", test_tampered_subagent_refused);
  ADD ("/export/subagents/crafted-refused", test_crafted_subagent_refused);
  ADD ("/export/subagents/progress", test_progress);
#undef ADD

  return g_test_run ();
}
