/* test-export.c — session packages written from imported fixtures: their layout, hashes,
 * detail levels, names, and what a failed or cancelled export leaves (nothing).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-export.h"
#include "loom-test-utils.h"

typedef struct
{
  LoomTestStore base;
  char         *dest; /* an empty folder inside base.dir */
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  loom_test_store_set_up (&f->base, data);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_free (f->dest);
  loom_test_store_tear_down (&f->base, data);
}

static void
import_fixture (Fixture    *f,
                const char *agent,
                const char *name)
{
  g_autofree char *path = loom_test_fixture_path (agent, name, NULL);

  loom_test_store_import_path (&f->base, NULL, path);
}

static void
import_all_fixtures (Fixture *f)
{
  g_autofree char *claude = loom_test_fixture_path ("claude", NULL);
  g_autofree char *codex = loom_test_fixture_path ("codex", NULL);
  g_autofree char *gemini = loom_test_fixture_path ("gemini", NULL);
  const char      *paths[] = { claude, codex, gemini, NULL };

  loom_test_store_import_paths (&f->base, NULL, paths);
}

static GListModel *
list_sessions (Fixture *f)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  GListModel *sessions;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (f->base.store, &query, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), >, 0);
  return sessions;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

/* The names in @dir, sorted. */
static GPtrArray *
list_dir (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray  *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

static void
assert_empty_dir (const char *dir)
{
  g_autoptr (GPtrArray) names = list_dir (dir);

  for (guint i = 0; i < names->len; i++)
    g_test_message ("left behind: %s", (char *)names->pdata[i]);
  g_assert_cmpuint (names->len, ==, 0);
}

static LoomExportResult *
export_ok (Fixture         *f,
           const char      *uuid,
           const char      *dest,
           LoomExportDetail detail)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;

  options.detail = detail;
  return loom_test_export_ok (f->base.store, uuid, dest, &options);
}

static char *
read_package_file (const char *package,
                   const char *name,
                   gsize      *length)
{
  g_autofree char *path = g_build_filename (package, name, NULL);
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

static JsonObject *
read_json_object (const char *package,
                  const char *name)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = read_package_file (package, name, NULL);

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* Every file below @dir, as paths relative to the package (@prefix), into @files; fails on
 * anything that is neither a file nor a folder (a package holds no link, FIFO or device). */
static void
list_files_into (GPtrArray  *files,
                 const char *package,
                 const char *prefix)
{
  g_autofree char *dir = prefix != NULL ? g_build_filename (package, prefix, NULL)
                                        : g_strdup (package);
  g_autoptr (GPtrArray) names = list_dir (dir);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *relative = prefix != NULL ? g_build_filename (prefix, names->pdata[i], NULL)
                                                 : g_strdup (names->pdata[i]);
      g_autofree char *path = g_build_filename (package, relative, NULL);
      GStatBuf         st;

      g_assert_no_errno (g_lstat (path, &st));
      if (S_ISDIR (st.st_mode))
        list_files_into (files, package, relative);
      else
        {
          g_assert_true (S_ISREG (st.st_mode));
          g_ptr_array_add (files, g_steal_pointer (&relative));
        }
    }
}

/* Every file of the package but the manifest is listed in it with its true size and hash, and
 * the package holds nothing else, at any depth. Returns the bytes of the package. */
static guint64
assert_manifest_verifies (const char *package)
{
  g_autoptr (JsonObject) manifest = read_json_object (package, "manifest.json");
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  JsonArray       *files = json_object_get_array_member (manifest, "files");
  gsize            manifest_length = 0;
  g_autofree char *manifest_text = read_package_file (package, "manifest.json", &manifest_length);
  guint64          total = manifest_length;

  list_files_into (names, package, NULL);
  g_assert_nonnull (files);
  g_assert_cmpuint (json_array_get_length (files), ==, names->len - 1);
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject      *file = json_array_get_object_element (files, i);
      const char      *path = json_object_get_string_member (file, "path");
      gsize            length = 0;
      g_autofree char *contents = read_package_file (package, path, &length);
      g_autofree char *sha256 = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                                             (const guchar *)contents, length);

      g_assert_cmpstr (path, !=, "manifest.json");
      g_assert_true (g_ptr_array_find_with_equal_func (names, path, g_str_equal, NULL));
      g_assert_cmpint (json_object_get_int_member (file, "size"), ==, (gint64)length);
      g_assert_cmpstr (json_object_get_string_member (file, "sha256"), ==, sha256);
      total += length;
    }
  return total;
}

/* The fixtures' workspaces (/home/ada/…) are not on this machine: every file a session touched
 * is listed, none is copied, and its changes are there as diffs all the same. */
static void
assert_artifacts_listed_not_copied (JsonObject             *manifest,
                                    const LoomExportResult *result,
                                    guint                  *n_listed,
                                    guint                  *n_changes)
{
  JsonArray *artifacts = json_object_get_array_member (manifest, "artifacts");
  JsonArray *changes = json_object_get_array_member (manifest, "changes");
  JsonArray *files = json_object_get_array_member (manifest, "files");
  guint      n_diffs = 0;

  g_assert_cmpint (json_object_get_int_member (manifest, "artifact_count"), ==, 0);
  g_assert_cmpuint (result->n_artifacts, ==, 0);
  /* The result counts the sub-agents' packages too; the manifest lists the session's own. */
  if (result->n_subagents == 0)
    g_assert_cmpuint (result->n_artifacts_missing, ==, json_array_get_length (artifacts));
  else
    g_assert_cmpuint (result->n_artifacts_missing, >=, json_array_get_length (artifacts));
  for (guint i = 0; i < json_array_get_length (artifacts); i++)
    {
      JsonObject *artifact = json_array_get_object_element (artifacts, i);
      const char *status = json_object_get_string_member (artifact, "status");
      const char *reason = json_object_get_string_member (artifact, "reason");

      g_test_message ("%s: %s (%s)", json_object_get_string_member (artifact, "path"), status,
                      reason);
      g_assert_true (g_str_equal (status, "missing") || g_str_equal (status, "outside-workspace"));
      g_assert_nonnull (reason);
      g_assert_true (json_object_get_null_member (artifact, "sha256"));
      g_assert_true (json_object_get_null_member (artifact, "package_path"));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (artifact, "how")), >,
                        0);
    }
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      const char *path = json_object_get_string_member (json_array_get_object_element (files, i),
                                                        "path");

      g_assert_false (g_str_has_prefix (path, "artifacts/files/"));
      n_diffs += g_str_has_prefix (path, "artifacts/changes/");
    }
  g_assert_cmpuint (n_diffs, ==, json_array_get_length (changes));
  *n_listed += json_array_get_length (artifacts);
  *n_changes += n_diffs;
}

static void
test_package_layout (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  guint n_sessions, n_listed = 0, n_changes = 0, n_with_subagents = 0;

  import_all_fixtures (f);
  sessions = list_sessions (f);
  n_sessions = g_list_model_get_n_items (sessions);

  for (guint i = 0; i < n_sessions; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      const LoomSessionRecord *r = loom_session_get_record (session);
      g_autoptr (LoomExportResult)
        result = export_ok (f, r->uuid, f->dest, LOOM_EXPORT_DETAIL_FULL);
      g_autofree char *name = loom_export_package_name (r->title, r->created_at);
      g_autofree char *base = g_path_get_basename (result->path);
      g_autofree char *parent = g_path_get_dirname (result->path);
      g_autoptr (JsonObject) manifest = read_json_object (result->path, "manifest.json");
      g_autoptr (JsonObject) metadata = read_json_object (result->path, "metadata.json");
      g_autoptr (GPtrArray) names = list_dir (result->path);
      g_autofree char *conversation = read_package_file (result->path, "conversation.md", NULL);
      guint            n_subagents;

      g_test_message ("%s → %s", r->title, base);
      g_assert_cmpstr (parent, ==, f->dest);
      /* Two fixtures may share a title; the second then gets " (2)". */
      g_assert_true (g_str_has_prefix (base, name));
      g_assert_cmpstr (result->session_id, ==, r->uuid);

      /* A session that started sub-agents has their packages in subagents/. */
      n_subagents = json_array_get_length (json_object_get_array_member (manifest, "subagents"));
      g_assert_cmpuint (names->len, ==, n_subagents > 0 ? 7 : 6);
      g_assert_cmpstr (names->pdata[0], ==, "artifacts");
      g_assert_cmpstr (names->pdata[1], ==, "conversation.html");
      g_assert_cmpstr (names->pdata[2], ==, "conversation.md");
      g_assert_cmpstr (names->pdata[3], ==, "manifest.json");
      g_assert_cmpstr (names->pdata[4], ==, "metadata.json");
      g_assert_cmpstr (names->pdata[5], ==, "session.jsonl");
      if (n_subagents > 0)
        g_assert_cmpstr (names->pdata[6], ==, "subagents");
      g_assert_cmpuint (result->n_subagents, >=, n_subagents);
      n_with_subagents += n_subagents > 0;
      g_assert_cmpuint (result->n_files, ==,
                        json_array_get_length (json_object_get_array_member (manifest, "files")) +
                          1);
      g_assert_cmpuint (assert_manifest_verifies (result->path), ==, result->n_bytes);
      assert_artifacts_listed_not_copied (manifest, result, &n_listed, &n_changes);

      g_assert_cmpint (json_object_get_int_member (manifest, "format_version"), ==,
                       LOOM_EXPORT_FORMAT_VERSION);
      g_assert_cmpstr (json_object_get_string_member (manifest, "title"), ==, r->title);
      g_assert_cmpstr (json_object_get_string_member (manifest, "session_id"), ==, r->uuid);
      g_assert_cmpstr (json_object_get_string_member (manifest, "source"), ==, r->source);
      g_assert_cmpstr (
        json_object_get_string_member_with_default (manifest, "source_session_id", NULL), ==,
        r->source_session_id);
      g_assert_cmpint (json_object_get_int_member (manifest, "message_count"), ==,
                       r->message_count);
      g_assert_nonnull (json_object_get_object_member (manifest, "tools_used"));
      g_assert_cmpstr (json_object_get_string_member (manifest, "detail"), ==, "full");
      g_assert_cmpstr (json_object_get_string_member (manifest, "mode"), ==, "full");
      g_assert_nonnull (json_object_get_string_member (manifest, "exported_at"));
      g_assert_true (json_object_has_member (manifest, "created_at"));
      g_assert_true (json_object_has_member (manifest, "duration"));
      g_assert_true (json_object_has_member (manifest, "model"));
      g_assert_true (json_object_has_member (manifest, "agent"));
      g_assert_nonnull (json_object_get_string_member (manifest, "app_version"));

      /* metadata.json is the session as `loom sessions show --json` prints it. */
      g_assert_cmpstr (json_object_get_string_member (metadata, "id"), ==, r->uuid);
      g_assert_cmpint (json_object_get_int_member (metadata, "event_count"), ==, r->event_count);
      g_assert_true (json_object_has_member (metadata, "tokens"));
      g_assert_true (json_object_has_member (metadata, "task_objective"));
      g_assert_true (json_object_has_member (metadata, "folder"));

      g_assert_true (g_utf8_validate (conversation, -1, NULL));
      g_assert_true (g_str_has_prefix (conversation, "# "));
    }

  /* The fixtures touch files and change some, and start sub-agents: the lists above were not
   * all empty. */
  g_assert_cmpuint (n_listed, >, 0);
  g_assert_cmpuint (n_with_subagents, >, 0);
  g_assert_cmpuint (n_changes, >, 0);

  /* One package per session, and no temporary folder. */
  {
    g_autoptr (GPtrArray) packages = list_dir (f->dest);

    g_assert_cmpuint (packages->len, ==, n_sessions);
    for (guint i = 0; i < packages->len; i++)
      g_assert_false (g_str_has_prefix (packages->pdata[i], "."));
  }
}

static gsize
count (const char *haystack,
       const char *needle)
{
  gsize n = 0;

  for (const char *p = haystack; (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

static void
test_detail_levels (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  gboolean tools_added = FALSE, full_added = FALSE;

  import_all_fixtures (f);
  sessions = list_sessions (f);

  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      const char *uuid = loom_session_get_uuid (session);
      char       *texts[3] = { NULL };

      for (LoomExportDetail d = LOOM_EXPORT_DETAIL_MESSAGES; d <= LOOM_EXPORT_DETAIL_FULL; d++)
        {
          g_autofree char *dest = g_build_filename (f->dest, loom_export_detail_to_string (d),
                                                    NULL);
          g_autoptr (LoomExportResult) result = NULL;
          g_autoptr (JsonObject) manifest = NULL;

          g_mkdir (dest, 0700);
          result = export_ok (f, uuid, dest, d);
          {
            /* The body, after the header (which names the level). */
            g_autofree char *whole = read_package_file (result->path, "conversation.md", NULL);
            const char      *body = strstr (whole, "\n---\n\n");

            g_assert_nonnull (body);
            texts[d] = g_strdup (body);
          }
          manifest = read_json_object (result->path, "manifest.json");
          g_assert_cmpstr (json_object_get_string_member (manifest, "detail"), ==,
                           loom_export_detail_to_string (d));
        }

      /* Each level holds what the one below does, and more where the session has it. */
      g_assert_cmpuint (strlen (texts[0]), <=, strlen (texts[1]));
      g_assert_cmpuint (strlen (texts[1]), <=, strlen (texts[2]));
      g_assert_cmpuint (count (texts[0], "## User"), ==, count (texts[2], "## User"));
      g_assert_cmpuint (count (texts[0], "## Assistant"), ==, count (texts[2], "## Assistant"));

      /* messages: prompts and replies, nothing else. */
      g_assert_null (strstr (texts[0], "\n### "));
      /* tools: the calls; no reasoning, notice or error. */
      g_assert_null (strstr (texts[1], "\n### Reasoning"));
      g_assert_null (strstr (texts[1], "\n### Notice"));
      g_assert_null (strstr (texts[1], "\n### Compaction"));
      g_assert_cmpuint (count (texts[1], "\n### Tool:"), ==, count (texts[2], "\n### Tool:"));
      if (strstr (texts[1], "\n### Tool:") || strstr (texts[1], "\n### File:"))
        tools_added = TRUE;
      if (strstr (texts[2], "\n### Reasoning") || strstr (texts[2], "\n### Compaction") ||
          strstr (texts[2], "\n### Error") || strstr (texts[2], "\n### Notice"))
        full_added = TRUE;
      for (guint d = 0; d < G_N_ELEMENTS (texts); d++)
        g_free (texts[d]);
    }
  g_assert_true (tools_added);
  g_assert_true (full_added);
}

/* The whole of a tool call's input and output is written, not the text the store keeps for
 * the view: here a command whose output is known from the fixture. */
static void
test_tools_content (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (LoomExportResult) result = NULL;
  g_autofree char *text = NULL;

  import_fixture (f, "claude", "v2.1-progress");
  sessions = list_sessions (f);
  for (guint i = 0; i < g_list_model_get_n_items (sessions) && session == NULL; i++)
    {
      g_autoptr (LoomSession) s = g_list_model_get_item (sessions, i);

      if (g_str_has_prefix (loom_session_get_title (s), "Review the importer"))
        session = g_steal_pointer (&s);
    }
  g_assert_nonnull (session);

  result = export_ok (f, loom_session_get_uuid (session), f->dest, LOOM_EXPORT_DETAIL_TOOLS);
  text = read_package_file (result->path, "conversation.md", NULL);
  g_assert_nonnull (strstr (text, "### Tool: Bash"));
  g_assert_nonnull (strstr (text, "```text\ngh pr create --fill\n```"));
  g_assert_nonnull (strstr (text, "**Result**\n\n```text\nhttps://github.com/ada/loom/pull/42\n"));
  g_assert_nonnull (strstr (text, "### Sub-agent: Task"));
  g_assert_nonnull (strstr (text, "## User · 2026-02-10T12:00:00.000Z\n\nReview the importer"));
}

/* A tool's input and a reasoning longer than the store keeps as text are written whole, from
 * their payloads. */
static void
test_whole_payloads (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->base.store, "Long outputs - 2026-01-02",
                                                 "claude-code", "long", 2, 0, 1000);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GString) command = g_string_new ("{\"command\": \"echo ");
  g_autoptr (GString) reasoning = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  const char *levels[] = { "tools", "full" };
  char       *texts[2] = { NULL };

  session = loom_store_get_session (f->base.store, uuid, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (command, 'x');
  g_string_append (command, " COMMAND-END\"}");
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (reasoning, 'r');
  g_string_append (reasoning, " REASONING-END");
  loom_store_add_event (f->base.store, loom_session_get_id (session), "tool_call", "Bash",
                        command->str, 2000, &error);
  g_assert_no_error (error);
  loom_store_add_event (f->base.store, loom_session_get_id (session), "reasoning", NULL,
                        reasoning->str, 3000, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *dest = g_build_filename (f->dest, levels[i], NULL);
      g_autoptr (LoomExportResult) result = NULL;

      g_assert_no_errno (g_mkdir (dest, 0700));
      result = export_ok (f, uuid, dest,
                          i == 0 ? LOOM_EXPORT_DETAIL_TOOLS : LOOM_EXPORT_DETAIL_FULL);
      texts[i] = read_package_file (result->path, "conversation.md", NULL);
      assert_manifest_verifies (result->path);
    }
  g_assert_nonnull (strstr (texts[0], "x COMMAND-END"));
  g_assert_null (strstr (texts[0], "REASONING-END"));
  g_assert_nonnull (strstr (texts[1], "x COMMAND-END"));
  g_assert_nonnull (strstr (texts[1], "r REASONING-END"));
  g_free (texts[0]);
  g_free (texts[1]);
}

static void
assert_safe_name (const char *name)
{
  g_assert_true (g_utf8_validate (name, -1, NULL));
  g_assert_cmpuint (strlen (name), >, 0);
  g_assert_cmpuint (strlen (name), <=, LOOM_EXPORT_NAME_MAX_BYTES + 1);
  g_assert_null (strpbrk (name, "/\\:*?\"<>|"));
  g_assert_cmpint (name[0], !=, '.');
  g_assert_cmpint (name[0], !=, '-');
  g_assert_cmpint (name[strlen (name) - 1], !=, '.');
  g_assert_cmpint (name[strlen (name) - 1], !=, ' ');
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    g_assert_false (g_unichar_iscntrl (g_utf8_get_char (p)));
}

static void
test_names (void)
{
  static const struct
  {
    const char *title;
    gint64      created_at;
    const char *expected;
  } cases[] = {
    { "日本語のセッションを整理する - 2026-01-02", 0, "日本語のセッションを整理する - 2026-01-02" },
    { "Fix src/core/a.c and b\\c - 2026-01-02", 0, "Fix src-core-a.c and b-c - 2026-01-02" },
    { "../../etc/passwd - 2026-01-02", 0, "etc-passwd - 2026-01-02" },
    { "--rf * - 2026-01-02", 0, "rf - 2026-01-02" },
    { "..", 0, "Session" },
    { ".", 0, "Session" },
    { ".hidden plans - 2026-01-02", 0, "hidden plans - 2026-01-02" },
    { "tabs\tand\nnew\x01lines\x7f - 2026-01-02", 0, "tabs and new lines - 2026-01-02" },
    { "ends with dots... - 2026-01-02", 0, "ends with dots - 2026-01-02" },
    { "What? <b>Why</b>: \"this\" | that* - 2026-01-02", 0,
      "What- -b-Why--b-- -this- - that - 2026-01-02" },
    { "CON", 0, "_CON" },
    { "aux.txt", 0, "_aux.txt" },
    { "Console", 0, "Console" },
    { "", 0, "Session" },
    { "right\u202Eto left - 2026-01-02", 0, "rightto left - 2026-01-02" },
    /* NFD "é" comes out NFC, as a Mac would otherwise show it differently. */
    { "Cafe\xcc\x81 - 2026-01-02", 0, "Caf\xc3\xa9 - 2026-01-02" },
    { "Bad \xff byte - 2026-01-02", 0, "Bad \xef\xbf\xbd byte - 2026-01-02" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = loom_export_package_name (cases[i].title, cases[i].created_at);

      g_autofree char *shown = g_strescape (cases[i].title, NULL);

      g_test_message ("“%s” → “%s”", shown, name);
      g_assert_cmpstr (name, ==, cases[i].expected);
      assert_safe_name (name);
    }

  /* A title without a date gets the session's; one with a date keeps it, not doubled. */
  {
    g_autoptr (GDateTime) local = g_date_time_new_local (2025, 7, 14, 12, 0, 0);
    gint64           created = g_date_time_to_unix (local) * 1000;
    g_autofree char *undated = loom_export_package_name ("Plan the release", created);
    g_autofree char *dated = loom_export_package_name ("Plan the release - 2025-07-14", created);

    g_assert_cmpstr (undated, ==, "Plan the release - 2025-07-14");
    g_assert_cmpstr (dated, ==, "Plan the release - 2025-07-14");
  }

  /* A 1,000-character title is cut on a character boundary, and its date stays. */
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr (GString) title = g_string_new (NULL);
      g_autofree char *name = NULL;

      for (guint i = 0; i < 1000; i++)
        g_string_append (title, k == 0 ? "a" : "語");
      g_string_append (title, " - 2026-01-02");
      name = loom_export_package_name (title->str, 0);
      assert_safe_name (name);
      g_assert_true (g_str_has_suffix (name, " - 2026-01-02"));
      g_assert_cmpuint (strlen (name), <=, LOOM_EXPORT_NAME_MAX_BYTES);
      g_assert_cmpuint (strlen (name), >, LOOM_EXPORT_NAME_MAX_BYTES - 4);
    }
}

/* The same names on disk: a session renamed to each hostile title is exported under a safe
 * name inside the destination, and nowhere else. */
static void
test_names_on_disk (Fixture      *f,
                    gconstpointer data)
{
  static const char *const titles[] = {
    "漢字とかなのタイトル - 2026-01-02",
    "a/b/c - 2026-01-02",
    "../escape - 2026-01-02",
    ".. - 2026-01-02",
    ".dotfile - 2026-01-02",
    "bell\x07 and\x1b[31m escape - 2026-01-02",
  };
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) long_title = g_string_new (NULL);
  const char *uuid;

  import_fixture (f, "claude", "non-ascii");
  sessions = list_sessions (f);
  session = g_list_model_get_item (sessions, 0);
  uuid = loom_session_get_uuid (session);

  for (guint i = 0; i <= G_N_ELEMENTS (titles); i++)
    {
      g_autoptr (LoomExportResult) result = NULL;
      g_autofree char *base = NULL;
      g_autofree char *parent = NULL;
      g_autofree char *shown = NULL;
      const char      *title;

      if (i < G_N_ELEMENTS (titles))
        title = titles[i];
      else
        {
          for (guint k = 0; k < 1000; k++)
            g_string_append_unichar (long_title, 0x4e00 + k);
          title = long_title->str;
        }
      loom_store_rename_session (f->base.store, uuid, title, &error);
      g_assert_no_error (error);

      result = export_ok (f, uuid, f->dest, LOOM_EXPORT_DETAIL_MESSAGES);
      base = g_path_get_basename (result->path);
      parent = g_path_get_dirname (result->path);
      shown = g_strescape (title, NULL);
      g_test_message ("“%s” → “%s”", shown, base);
      g_assert_cmpstr (parent, ==, f->dest);
      assert_safe_name (base);
      g_assert_true (g_file_test (result->path, G_FILE_TEST_IS_DIR));
      assert_manifest_verifies (result->path);
    }
  {
    g_autoptr (GPtrArray) names = list_dir (f->dest);

    g_assert_cmpuint (names->len, ==, G_N_ELEMENTS (titles) + 1);
  }
}

static void
test_existing_name (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autofree char *name = NULL;
  g_autofree char *first_manifest = NULL;
  const char      *uuid;

  import_fixture (f, "claude", "non-ascii");
  sessions = list_sessions (f);
  session = g_list_model_get_item (sessions, 0);
  uuid = loom_session_get_uuid (session);
  name = loom_export_package_name (loom_session_get_title (session),
                                   loom_session_get_created_at (session));

  for (guint n = 1; n <= 3; n++)
    {
      g_autoptr (LoomExportResult) result = export_ok (f, uuid, f->dest, LOOM_EXPORT_DETAIL_FULL);
      g_autofree char *base = g_path_get_basename (result->path);
      g_autofree char *expected = n == 1 ? g_strdup (name) : g_strdup_printf ("%s (%u)", name, n);

      g_assert_cmpstr (base, ==, expected);
      if (n == 1)
        first_manifest = read_package_file (result->path, "manifest.json", NULL);
    }

  /* The first package is as it was written: nothing was written over it. */
  {
    g_autofree char *first = g_build_filename (f->dest, name, NULL);
    g_autofree char *again = read_package_file (first, "manifest.json", NULL);

    g_assert_cmpstr (again, ==, first_manifest);
  }

  /* A file, not a folder, under the name is not replaced either. */
  {
    g_autofree char *dest = g_build_filename (f->dest, "other", NULL);
    g_autofree char *file = g_build_filename (dest, name, NULL);
    g_autoptr (LoomExportResult) result = NULL;
    g_autoptr (GError) error = NULL;
    g_autofree char *contents = NULL;
    g_autofree char *base = NULL;

    g_assert_no_errno (g_mkdir (dest, 0700));
    g_file_set_contents (file, "mine", -1, &error);
    g_assert_no_error (error);
    result = export_ok (f, uuid, dest, LOOM_EXPORT_DETAIL_FULL);
    base = g_path_get_basename (result->path);
    g_assert_true (g_str_has_suffix (base, " (2)"));
    g_file_get_contents (file, &contents, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (contents, ==, "mine");
  }
}

static void
test_cancelled (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  LoomExportResult *result = NULL;

  import_fixture (f, "claude", "v2.1-progress");
  sessions = list_sessions (f);
  session = g_list_model_get_item (sessions, 0);

  /* Cancelled before it starts writing: the temporary folder it has made by then goes too. */
  g_cancellable_cancel (cancellable);
  g_assert_false (loom_export_session (f->base.store, loom_session_get_uuid (session), f->dest,
                                       NULL, &result, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (result);
  assert_empty_dir (f->dest);
}

/* A write that fails halfway (the file size limit, as a full disk would) leaves nothing. */
static void
test_failed_write (Fixture      *f,
                   gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  LoomExportResult *result = NULL;
  struct rlimit     saved, limit;
  gboolean          ok;

  import_fixture (f, "claude", "v2.1-progress");
  sessions = list_sessions (f);
  session = g_list_model_get_item (sessions, 0);

  g_assert_no_errno (getrlimit (RLIMIT_FSIZE, &saved));
  limit = saved;
  limit.rlim_cur = 512;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &limit));
  ok = loom_export_session (f->base.store, loom_session_get_uuid (session), f->dest, NULL, &result,
                            NULL, &error);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &saved));
  signal (SIGXFSZ, SIG_DFL);

  g_assert_false (ok);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);
  g_test_message ("%s", error->message);
  g_assert_null (result);
  assert_empty_dir (f->dest);

  /* A destination the export may not write into, when the permissions hold (not for root). */
  if (geteuid () != 0)
    {
      g_clear_error (&error);
      g_assert_no_errno (g_chmod (f->dest, 0500));
      ok = loom_export_session (f->base.store, loom_session_get_uuid (session), f->dest, NULL,
                                &result, NULL, &error);
      g_assert_no_errno (g_chmod (f->dest, 0700));
      g_assert_false (ok);
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);
      assert_empty_dir (f->dest);
    }
}

static void
test_destination (Fixture      *f,
                  gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autofree char *link = g_build_filename (f->base.dir, "link", NULL);
  g_autofree char *file = g_build_filename (f->base.dir, "file", NULL);
  g_autofree char *missing = g_build_filename (f->base.dir, "missing", NULL);
  const char      *uuid;
  struct
  {
    const char *path;
    int         code;
    const char *says;
  } cases[] = {
    { link, LOOM_ERROR_INVALID_ARGUMENT, "symbolic link" },
    { file, LOOM_ERROR_INVALID_ARGUMENT, "not a folder" },
    { missing, LOOM_ERROR_NOT_FOUND, "does not exist" },
  };

  import_fixture (f, "claude", "v2.1-progress");
  sessions = list_sessions (f);
  session = g_list_model_get_item (sessions, 0);
  uuid = loom_session_get_uuid (session);

  g_assert_no_errno (symlink (f->dest, link));
  g_assert_true (g_file_set_contents (file, "", 0, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      LoomExportResult *result = NULL;

      g_assert_false (
        loom_export_session (f->base.store, uuid, cases[i].path, NULL, &result, NULL, &error));
      g_assert_error (error, LOOM_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].says));
      g_assert_nonnull (strstr (error->message, cases[i].path));
      g_assert_null (result);
    }
  assert_empty_dir (f->dest);

  /* A mode that does not exist is refused, and so is a session that is not there. */
  {
    LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
    g_autoptr (GError) error = NULL;

    options.mode = (LoomExportMode)7;
    g_assert_false (
      loom_export_session (f->base.store, uuid, f->dest, &options, NULL, NULL, &error));
    g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "mode"));
    g_clear_error (&error);

    g_assert_false (
      loom_export_session (f->base.store, "ffffffff", f->dest, NULL, NULL, NULL, &error));
    g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  }
  assert_empty_dir (f->dest);
}

typedef struct
{
  LoomExportResult *result;
  gpointer          task; /* a weak pointer: the worker drops its reference after the callback */
} AsyncExport;

static void
on_exported (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  AsyncExport *state = user_data;
  g_autoptr (GError) error = NULL;

  state->result = loom_export_session_finish (LOOM_STORE (source), res, &error);
  g_assert_no_error (error);
  state->task = res;
  g_object_add_weak_pointer (G_OBJECT (res), &state->task);
}

/* Exports run in workers, several at once: each gets a name of its own, none is lost. */
static void
test_async (Fixture      *f,
            gconstpointer data)
{
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GHashTable) paths = g_hash_table_new (g_str_hash, g_str_equal);
  AsyncExport states[4] = { { NULL, NULL } };
  guint       n_done = 0;

  import_fixture (f, "claude", "v2.1-progress");
  sessions = list_sessions (f);
  session = g_list_model_get_item (sessions, 0);

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    loom_export_session_async (f->base.store, loom_session_get_uuid (session), f->dest, NULL, NULL,
                               on_exported, &states[i]);
  while (n_done < G_N_ELEMENTS (states))
    {
      g_main_context_iteration (NULL, TRUE);
      n_done = 0;
      for (guint i = 0; i < G_N_ELEMENTS (states); i++)
        n_done += states[i].result != NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      g_assert_true (g_file_test (states[i].result->path, G_FILE_TEST_IS_DIR));
      assert_manifest_verifies (states[i].result->path);
      g_assert_true (g_hash_table_add (paths, states[i].result->path));
    }
  {
    g_autoptr (GPtrArray) names = list_dir (f->dest);

    g_assert_cmpuint (names->len, ==, G_N_ELEMENTS (states));
  }

  /* The tasks, and the store they hold, go once the workers are done with them. */
  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      while (g_atomic_pointer_get (&states[i].task) != NULL)
        {
          g_main_context_iteration (NULL, FALSE);
          g_thread_yield ();
        }
      loom_export_result_free (states[i].result);
    }
}

/* Several sessions at once, on one worker (the caller's connection), two and four: a package
 * each, every one verifying, told in the order given; the same session twice gets two
 * packages; an unknown id fails alone. */
static void
test_batch (Fixture      *f,
            gconstpointer data)
{
  static const guint workers[] = { 1, 2, 4 };
  g_autoptr (GListModel) sessions = NULL;

  import_all_fixtures (f);
  sessions = list_sessions (f);
  for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
    {
      g_autofree char *dest = g_strdup_printf ("%s/batch-%u", f->base.dir, workers[w]);
      g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (GHashTable) paths = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr (GPtrArray) names = NULL;
      LoomExportResult **results = NULL;
      GError           **errors = NULL;
      guint              n_sessions = g_list_model_get_n_items (sessions);
      guint              n_ids;

      g_assert_no_errno (g_mkdir (dest, 0700));
      for (guint i = 0; i < n_sessions; i++)
        {
          g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

          g_ptr_array_add (ids, g_strdup (loom_session_get_uuid (session)));
        }
      g_ptr_array_add (ids, g_strdup (ids->pdata[0]));
      g_ptr_array_add (ids, g_strdup ("ffffffff-no-such-session"));
      n_ids = ids->len;
      g_ptr_array_add (ids, NULL);

      loom_export_sessions (f->base.store, (const char *const *)ids->pdata, dest, NULL, workers[w],
                            &results, &errors, NULL);
      for (guint i = 0; i < n_ids - 1; i++)
        {
          g_assert_no_error (errors[i]);
          g_assert_nonnull (results[i]);
          g_assert_cmpstr (results[i]->session_id, ==, ids->pdata[i]);
          g_assert_cmpuint (assert_manifest_verifies (results[i]->path), ==, results[i]->n_bytes);
          g_assert_true (g_hash_table_add (paths, results[i]->path));
        }
      g_assert_null (results[n_ids - 1]);
      g_assert_error (errors[n_ids - 1], LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
      names = list_dir (dest);
      g_assert_cmpuint (names->len, ==, n_ids - 1);
      loom_export_results_free (results, errors, n_ids);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/export/package-layout", test_package_layout);
  ADD ("/export/detail-levels", test_detail_levels);
  ADD ("/export/tools-content", test_tools_content);
  ADD ("/export/whole-payloads", test_whole_payloads);
  g_test_add_func ("/export/names", test_names);
  ADD ("/export/names-on-disk", test_names_on_disk);
  ADD ("/export/existing-name", test_existing_name);
  ADD ("/export/cancelled", test_cancelled);
  ADD ("/export/failed-write", test_failed_write);
  ADD ("/export/destination", test_destination);
  ADD ("/export/async", test_async);
  ADD ("/export/batch", test_batch);
#undef ADD

  return g_test_run ();
}
