/* test-export-package-artifacts.c — a package's artifacts/, written from a real workspace.
 *
 * A Claude Code session, imported into a real store, reads, edits and writes files of a crafted
 * workspace and names others it may not take: a link out, a path that climbs out with "..", an
 * absolute path elsewhere, a FIFO, a file over the cap, a missing file, and a file of its own at
 * changes/001-a.c.diff, the name of our first diff. The package holds exactly the copies of
 * what lies inside, the manifest lists every path with its status and hashes every file, the
 * diffs replay the session's changes with `patch -p1`, and nothing is created anywhere but in
 * the destination, not even when the export fails halfway.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-export.h"
#include "loom-safe-copy.h"
#include "loom-test-utils.h"

#define SESSION_ID        "6d0c2b1a-3e4f-4a5b-9c8d-7e6f5a4b3c2d"
#define LINKED_SESSION_ID "6d0c2b1a-3e4f-4a5b-9c8d-7e6f5a4b3c2e"
#define NO_CWD_SESSION_ID "6d0c2b1a-3e4f-4a5b-9c8d-7e6f5a4b3c2f"

/* Over the default cap of 10 MB by one byte; sparse, so that it costs nothing to make. */
#define BIG_SIZE (LOOM_ARTIFACT_DEFAULT_MAX_FILE_SIZE + 1)
/* A text the session reads last, larger than the file size limit of the failing export. */
#define LOG_SIZE (100 * 1024)

typedef struct
{
  LoomTestStore base;
  char         *root;      /* holds the four below and the transcripts, nothing else */
  char         *workspace; /* root/workspace */
  char         *outside;   /* root/outside: what the session may not take */
  char         *replay;    /* root/replay: the workspace as it was before the session */
  char         *dest;      /* base.dir/packages: outside root */
  gsize         log_length;
} Fixture;

static void
write_file (const char *path,
            const char *contents,
            gssize      length)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_path_get_dirname (path);

  g_assert_no_errno (g_mkdir_with_parents (folder, 0755));
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}

static char *
read_file (const char *path,
           gsize      *length)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

/* One line of a Claude Code transcript; without @cwd the record names no working folder. */
static char *
claude_record (const char *session_id,
               const char *type,
               const char *uuid,
               const char *parent,
               const char *cwd,
               const char *message)
{
  g_autofree char *parent_json = parent != NULL ? g_strdup_printf ("\"%s\"", parent)
                                                : g_strdup ("null");
  g_autofree char *cwd_json = cwd != NULL ? g_strdup_printf ("\"cwd\":\"%s\",", cwd)
                                          : g_strdup ("");

  return g_strdup_printf ("{\"type\":\"%s\",\"uuid\":\"%s\",\"parentUuid\":%s,"
                          "\"sessionId\":\"%s\",%s"
                          "\"timestamp\":\"2026-05-01T10:00:0%c.000Z\",\"message\":%s}\n",
                          type, uuid, parent_json, session_id, cwd_json, uuid[0], message);
}

static char *
tool_use (guint       n,
          const char *name,
          const char *path,
          const char *more)
{
  return g_strdup_printf ("{\"type\":\"tool_use\",\"id\":\"toolu_%02u\",\"name\":\"%s\","
                          "\"input\":{\"file_path\":\"%s\"%s}}",
                          n, name, path, more != NULL ? more : "");
}

/* The session's calls, in order: what the manifest lists, in the same order. */
static void
import_session (Fixture    *f,
                const char *session_id,
                const char *cwd)
{
  g_autofree char *a_c = g_build_filename (f->workspace, "src", "a.c", NULL);
  g_autofree char *notes = g_build_filename (f->workspace, "docs", "説明.md", NULL);
  g_autofree char *secret = g_build_filename (f->outside, "secret.txt", NULL);
  g_autofree char *folder = g_build_filename (f->root, "claude", session_id, NULL);
  g_autofree char *transcript = g_build_filename (folder, "transcript.jsonl", NULL);
  g_autoptr (GPtrArray) blocks = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *reply = NULL;
  g_autofree char *contents = NULL;
  guint            n = 1;

  g_ptr_array_add (blocks, tool_use (n++, "Read", a_c, NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Edit", a_c,
                                     ",\"old_string\":\"int a = 1;\","
                                     "\"new_string\":\"int a = 2;\""));
  g_ptr_array_add (blocks, tool_use (n++, "Write", notes, ",\"content\":\"# 説明\\n\""));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "changes/001-a.c.diff", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "link-out/secret.txt", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "../outside/secret.txt", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", secret, NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "fifo", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "big.log", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "image.bin", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "missing.c", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "link-file", NULL));
  g_ptr_array_add (blocks, tool_use (n++, "Read", "logs/run.txt", NULL));
  g_ptr_array_add (blocks, NULL);
  joined = g_strjoinv (",", (GStrv)blocks->pdata);
  calls = g_strdup_printf ("{\"id\":\"msg_1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
                           "\"content\":[%s]}",
                           joined);
  prompt = claude_record (session_id, "user", "1a", NULL, cwd,
                          "{\"role\":\"user\",\"content\":\"Tidy the project\"}");
  reply = claude_record (session_id, "assistant", "2b", "1a", cwd, calls);
  contents = g_strconcat (prompt, reply, NULL);
  write_file (transcript, contents, -1);
  loom_test_store_import_path (&f->base, "claude-code", transcript);
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *secret = NULL;
  g_autofree char *big = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *link = NULL;
  g_autoptr (GString) log = g_string_new (NULL);
  static const char binary[] = { 'P', 'K', 3, 4, 0, 0, 'x' };
  int               fd;

  loom_test_store_set_up (&f->base, data);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));

  f->root = loom_test_make_tmpdir ();
  f->workspace = g_build_filename (f->root, "workspace", NULL);
  f->outside = g_build_filename (f->root, "outside", NULL);
  f->replay = g_build_filename (f->root, "replay", NULL);

#define WS(...) g_build_filename (f->workspace, __VA_ARGS__, NULL)
#define PUT(contents, length, ...) \
  G_STMT_START \
  { \
    g_autofree char *path_ = WS (__VA_ARGS__); \
    write_file (path_, contents, length); \
  } \
  G_STMT_END

  PUT ("int a = 2;\n", -1, "src", "a.c");
  PUT ("# 説明\n", -1, "docs", "説明.md");
  PUT ("the workspace's own, not a diff of ours\n", -1, "changes", "001-a.c.diff");
  PUT (binary, sizeof binary, "image.bin");
  for (guint i = 0; log->len < LOG_SIZE; i++)
    g_string_append_printf (log, "line %u of the run\n", i);
  PUT (log->str, (gssize)log->len, "logs", "run.txt");
  f->log_length = log->len;

  big = WS ("big.log");
  fd = g_open (big, O_WRONLY | O_CREAT | O_EXCL, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_no_errno (ftruncate (fd, BIG_SIZE));
  close (fd);
  fifo = WS ("fifo");
  g_assert_no_errno (mkfifo (fifo, 0600));
  link = WS ("link-out");
  g_assert_no_errno (symlink ("../outside", link));
  g_free (link);
  link = WS ("link-file");
  g_assert_no_errno (symlink ("../outside/secret.txt", link));
#undef PUT
#undef WS

  secret = g_build_filename (f->outside, "secret.txt", NULL);
  write_file (secret, "the outside's secret\n", -1);

  /* The files as they were before the session changed them: a.c held 1, 説明.md was not. */
  {
    g_autofree char *old = g_build_filename (f->replay, "src", "a.c", NULL);

    write_file (old, "int a = 1;\n", -1);
  }
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  loom_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->workspace);
  g_free (f->outside);
  g_free (f->replay);
  g_free (f->dest);
  loom_test_store_tear_down (&f->base, data);
}

static JsonNode *
read_manifest (const char *package)
{
  g_autofree char *path = g_build_filename (package, "manifest.json", NULL);
  g_autoptr (GError) error = NULL;
  JsonNode *root = json_from_string (read_file (path, NULL), &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return root;
}

/* Every file of @package but the manifest is in its "files", with its size and hash, and there
 * is no other. */
static void
assert_files_verify (const char *package,
                     JsonObject *manifest)
{
  JsonArray       *files = json_object_get_array_member (manifest, "files");
  g_autofree char *tree = loom_test_list_tree (package, TRUE);
  g_auto (GStrv) entries = g_strsplit (tree, "\n", -1);
  guint n_files = 0;

  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_assert_null (strstr (entries[i], " -> "));
      if (!g_str_has_suffix (entries[i], "/") && !g_str_has_prefix (entries[i], "manifest.json "))
        n_files++;
    }
  g_assert_cmpuint (json_array_get_length (files), ==, n_files);
  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject      *file = json_array_get_object_element (files, i);
      g_autofree char *path = g_build_filename (package,
                                                json_object_get_string_member (file, "path"), NULL);
      g_autofree char *sum = loom_test_file_checksum (path);
      GStatBuf         st;

      g_assert_no_errno (g_lstat (path, &st));
      g_assert_true (S_ISREG (st.st_mode));
      g_assert_cmpint (json_object_get_int_member (file, "size"), ==, (gint64)st.st_size);
      g_assert_cmpstr (json_object_get_string_member (file, "sha256"), ==, sum);
    }
}

static JsonObject *
find_artifact (JsonObject *manifest,
               const char *path)
{
  JsonArray *artifacts = json_object_get_array_member (manifest, "artifacts");

  for (guint i = 0; i < json_array_get_length (artifacts); i++)
    {
      JsonObject *artifact = json_array_get_object_element (artifacts, i);

      if (g_str_equal (json_object_get_string_member (artifact, "path"), path))
        return artifact;
    }
  g_error ("%s is not in the manifest", path);
}

static char *
describe_how (JsonObject *artifact)
{
  JsonArray *how = json_object_get_array_member (artifact, "how");
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (how); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? "+" : "", json_array_get_string_element (how, i));
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
have_patch (void)
{
  g_autofree char *path = g_find_program_in_path ("patch");

  return path != NULL;
}

static void
run_patch (const char *folder,
           const char *diff_path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char      *argv[] = {
    "patch", "-p1", "--batch", "--forward", "-d", folder, "-i", diff_path, NULL
  };
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("patch %s: %s%s", diff_path, out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static LoomExportResult *
export_ok (Fixture                 *f,
           const char              *session_id,
           const LoomExportOptions *options)
{
  g_autoptr (LoomSession) session = loom_test_find_session (f->base.store, session_id);

  g_assert_nonnull (session);
  return loom_test_export_ok (f->base.store, loom_session_get_uuid (session), f->dest, options);
}

static void
test_package (Fixture      *f,
              gconstpointer data)
{
  static const struct
  {
    const char *path; /* NULL: the workspace's, then this name */
    const char *name;
    const char *how;
    const char *status;
  } expected[] = {
    { NULL, "src/a.c", "read+edited", "copied" },
    { NULL, "docs/説明.md", "written", "copied" },
    { "changes/001-a.c.diff", NULL, "read", "copied" },
    { "link-out/secret.txt", NULL, "read", "symlink" },
    { "../outside/secret.txt", NULL, "read", "outside-workspace" },
    { NULL, NULL, "read", "outside-workspace" }, /* the outside's secret, absolute */
    { "fifo", NULL, "read", "not-a-regular-file" },
    { "big.log", NULL, "read", "too-large" },
    { "image.bin", NULL, "read", "copied" },
    { "missing.c", NULL, "read", "missing" },
    { "link-file", NULL, "read", "symlink" },
    { "logs/run.txt", NULL, "read", "copied" },
  };
  g_autofree char *secret = g_build_filename (f->outside, "secret.txt", NULL);
  g_autofree char *root_before = NULL;
  g_autofree char *root_after = NULL;
  g_autofree char *files_tree = NULL;
  g_autofree char *changes_tree = NULL;
  g_autofree char *expected_files = NULL;
  g_autoptr (LoomExportResult) result = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GPtrArray) packages = NULL;
  JsonObject *manifest;
  JsonArray  *artifacts, *changes;
  guint       n_copied = 0, fds_before;

  import_session (f, SESSION_ID, f->workspace);
  root_before = loom_test_list_tree (f->root, TRUE);
  fds_before = loom_test_count_fds ();
  result = export_ok (f, SESSION_ID, NULL);
  g_assert_cmpuint (loom_test_count_fds (), ==, fds_before);

  /* Nothing changed anywhere but in the destination, which holds the package alone. */
  root_after = loom_test_list_tree (f->root, TRUE);
  g_assert_cmpstr (root_after, ==, root_before);
  {
    g_autofree char *dest_tree = loom_test_list_tree (f->dest, TRUE);
    g_autofree char *base = g_path_get_basename (result->path);

    g_assert_true (g_str_has_prefix (dest_tree, base));
    g_assert_null (strstr (dest_tree, ".partial-"));
  }

  /* Exactly the copies of what lies inside, at their paths below the workspace; the workspace's
   * own changes/ folder lands below files/, beside nothing of ours. */
  {
    g_autofree char *folder = g_build_filename (result->path, "artifacts", "files", NULL);

    files_tree = loom_test_list_tree (folder, TRUE);
  }
  expected_files = g_strdup_printf ("changes/\n"
                                    "changes/001-a.c.diff (40)\n"
                                    "docs/\n"
                                    "docs/説明.md (9)\n"
                                    "image.bin (7)\n"
                                    "logs/\n"
                                    "logs/run.txt (%" G_GSIZE_FORMAT ")\n"
                                    "src/\n"
                                    "src/a.c (11)",
                                    f->log_length);
  g_assert_cmpstr (files_tree, ==, expected_files);
  {
    g_autofree char *folder = g_build_filename (result->path, "artifacts", "changes", NULL);

    changes_tree = loom_test_list_tree (folder, TRUE);
  }
  g_assert_true (g_str_has_prefix (changes_tree, "001-a.c.diff ("));
  g_assert_nonnull (strstr (changes_tree, "\n002-説明.md.diff ("));
  g_assert_null (strchr (strstr (changes_tree, "\n002-") + 1, '\n'));

  root = read_manifest (result->path);
  manifest = json_node_get_object (root);
  assert_files_verify (result->path, manifest);

  /* Every path the session named, in its order, with its status. */
  artifacts = json_object_get_array_member (manifest, "artifacts");
  g_assert_cmpuint (json_array_get_length (artifacts), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject      *artifact = json_array_get_object_element (artifacts, i);
      g_autofree char *path = expected[i].path != NULL ? g_strdup (expected[i].path)
                              : expected[i].name != NULL
                                ? g_build_filename (f->workspace, expected[i].name, NULL)
                                : g_strdup (secret);
      g_autofree char *how = describe_how (artifact);
      const char      *status = json_object_get_string_member (artifact, "status");

      g_test_message ("%s: %s (%s)", path, status,
                      json_object_get_string_member_with_default (artifact, "reason", "-"));
      g_assert_cmpstr (json_object_get_string_member (artifact, "path"), ==, path);
      g_assert_cmpstr (how, ==, expected[i].how);
      g_assert_cmpstr (status, ==, expected[i].status);
      if (g_str_equal (status, "copied"))
        {
          const char      *package_path = json_object_get_string_member (artifact, "package_path");
          g_autofree char *relative = g_strdup (package_path + strlen ("artifacts/files/"));
          g_autofree char *copy = g_build_filename (result->path, package_path, NULL);
          g_autofree char *original = g_build_filename (f->workspace, relative, NULL);
          g_autofree char *copy_sum = loom_test_file_checksum (copy);
          g_autofree char *original_sum = loom_test_file_checksum (original);
          GStatBuf         st;

          n_copied++;
          g_assert_true (g_str_has_prefix (package_path, "artifacts/files/"));
          g_assert_cmpstr (json_object_get_string_member (artifact, "sha256"), ==, copy_sum);
          g_assert_cmpstr (copy_sum, ==, original_sum);
          g_assert_no_errno (g_stat (original, &st));
          g_assert_cmpint (json_object_get_int_member (artifact, "size"), ==, (gint64)st.st_size);
          g_assert_false (json_object_has_member (artifact, "reason"));
        }
      else
        {
          g_assert_true (json_object_get_null_member (artifact, "package_path"));
          g_assert_true (json_object_get_null_member (artifact, "sha256"));
          g_assert_nonnull (json_object_get_string_member (artifact, "reason"));
        }
    }
  /* Of what was left out, only a file found too large says how large it is. */
  g_assert_cmpint (json_object_get_int_member (find_artifact (manifest, "big.log"), "size"), ==,
                   BIG_SIZE);
  g_assert_true (json_object_get_null_member (find_artifact (manifest, "missing.c"), "size"));
  g_assert_nonnull (
    strstr (json_object_get_string_member (find_artifact (manifest, "big.log"), "reason"), "10"));

  g_assert_cmpint (json_object_get_int_member (manifest, "artifact_count"), ==, n_copied);
  g_assert_cmpuint (result->n_artifacts, ==, n_copied);
  g_assert_cmpuint (result->n_artifacts_missing, ==, G_N_ELEMENTS (expected) - n_copied);
  g_assert_cmpuint (result->n_files, ==,
                    json_array_get_length (json_object_get_array_member (manifest, "files")) + 1);

  /* The changes, listed with what they changed; replayed on the files as they were, they give
   * the files as the package holds them. */
  changes = json_object_get_array_member (manifest, "changes");
  g_assert_cmpuint (json_array_get_length (changes), ==, 2);
  {
    JsonObject      *first = json_array_get_object_element (changes, 0);
    JsonObject      *second = json_array_get_object_element (changes, 1);
    g_autofree char *a_c = g_build_filename (f->workspace, "src", "a.c", NULL);

    g_assert_cmpstr (json_object_get_string_member (first, "diff"), ==,
                     "artifacts/changes/001-a.c.diff");
    g_assert_cmpstr (json_object_get_string_member (first, "path"), ==, a_c);
    g_assert_cmpstr (json_object_get_string_member (first, "kind"), ==, "edit");
    g_assert_cmpstr (json_object_get_string_member (second, "diff"), ==,
                     "artifacts/changes/002-説明.md.diff");
  }
  if (!have_patch ())
    {
      g_test_message ("no patch program: the diffs are not applied");
      return;
    }
  for (guint i = 0; i < json_array_get_length (changes); i++)
    {
      g_autofree char *diff = g_build_filename (
        result->path,
        json_object_get_string_member (json_array_get_object_element (changes, i), "diff"), NULL);

      run_patch (f->replay, diff);
    }
  for (guint i = 0; i < 2; i++)
    {
      const char      *name = i == 0 ? "src/a.c" : "docs/説明.md";
      g_autofree char *replayed = g_build_filename (f->replay, name, NULL);
      g_autofree char *copy = g_build_filename (result->path, "artifacts", "files", name, NULL);
      g_autofree char *replayed_sum = loom_test_file_checksum (replayed);
      g_autofree char *copy_sum = loom_test_file_checksum (copy);

      g_assert_cmpstr (replayed_sum, ==, copy_sum);
    }
}

/* One cap for the whole package: once the copies hold it, the next files are too large, and
 * what does not fit a file's cap is left out on its own. */
static void
test_caps (Fixture      *f,
           gconstpointer data)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) result = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *files_tree = NULL;
  g_autofree char *a_c = g_build_filename (f->workspace, "src", "a.c", NULL);
  g_autofree char *notes = g_build_filename (f->workspace, "docs", "説明.md", NULL);
  JsonObject      *manifest;

  import_session (f, SESSION_ID, f->workspace);
  options.max_artifact_size = 1000;
  options.max_artifacts_size = 11 + 9 + 7; /* a.c, 説明.md, image.bin */
  result = export_ok (f, SESSION_ID, &options);
  root = read_manifest (result->path);
  manifest = json_node_get_object (root);
  assert_files_verify (result->path, manifest);

#define STATUS(path) json_object_get_string_member (find_artifact (manifest, path), "status")
#define REASON(path) json_object_get_string_member (find_artifact (manifest, path), "reason")
  g_assert_cmpstr (STATUS (a_c), ==, "copied");
  g_assert_cmpstr (STATUS (notes), ==, "copied");
  /* 40 bytes would take the package past its 27. */
  g_assert_cmpstr (STATUS ("changes/001-a.c.diff"), ==, "too-large");
  g_assert_nonnull (strstr (REASON ("changes/001-a.c.diff"), "package"));
  g_assert_cmpstr (STATUS ("image.bin"), ==, "copied");
  g_assert_cmpstr (STATUS ("big.log"), ==, "too-large");
  g_assert_cmpstr (STATUS ("logs/run.txt"), ==, "too-large");
  g_assert_nonnull (strstr (REASON ("logs/run.txt"), "file"));
#undef STATUS
#undef REASON

  g_assert_cmpuint (result->n_artifacts, ==, 3);
  {
    g_autofree char *folder = g_build_filename (result->path, "artifacts", "files", NULL);

    files_tree = loom_test_list_tree (folder, TRUE);
  }
  g_assert_cmpstr (files_tree, ==, "docs/\ndocs/説明.md (9)\nimage.bin (7)\nsrc/\nsrc/a.c (11)");
}

/* A workspace that is a link, and a session that recorded none: the package is written all
 * the same, every path listed, none copied, each with its reason; the diffs are there. */
static void
test_no_workspace (Fixture      *f,
                   gconstpointer data)
{
  g_autofree char *linked = g_build_filename (f->root, "linked-workspace", NULL);
  const struct
  {
    const char *session_id;
    const char *says;
  } cases[] = {
    { LINKED_SESSION_ID, "symbolic link" },
    { NO_CWD_SESSION_ID, "no workspace" },
  };

  g_assert_no_errno (symlink (f->workspace, linked));
  import_session (f, LINKED_SESSION_ID, linked);
  import_session (f, NO_CWD_SESSION_ID, NULL);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (LoomExportResult) result = export_ok (f, cases[c].session_id, NULL);
      g_autoptr (JsonNode) root = read_manifest (result->path);
      g_autofree char *files = g_build_filename (result->path, "artifacts", "files", NULL);
      JsonObject      *manifest = json_node_get_object (root);
      JsonArray       *artifacts = json_object_get_array_member (manifest, "artifacts");
      guint            n_missing = 0;

      assert_files_verify (result->path, manifest);
      /* Nothing could be copied: no files/ folder, empty. */
      g_assert_false (g_file_test (files, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (json_array_get_length (artifacts), ==, 12);
      for (guint i = 0; i < json_array_get_length (artifacts); i++)
        {
          JsonObject *artifact = json_array_get_object_element (artifacts, i);
          const char *status = json_object_get_string_member (artifact, "status");
          const char *reason = json_object_get_string_member (artifact, "reason");

          g_test_message ("%s: %s (%s)", json_object_get_string_member (artifact, "path"), status,
                          reason);
          if (g_str_equal (status, "missing"))
            {
              g_assert_nonnull (strstr (reason, cases[c].says));
              n_missing++;
            }
          else
            g_assert_cmpstr (status, ==, "outside-workspace");
        }
      /* The relative paths at least are taken as the workspace's. */
      g_assert_cmpuint (n_missing, >=, 8);
      g_assert_cmpint (json_object_get_int_member (manifest, "artifact_count"), ==, 0);
      g_assert_cmpuint (result->n_artifacts, ==, 0);
      g_assert_cmpuint (result->n_artifacts_missing, ==, 12);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (manifest, "changes")),
                        ==, 2);
    }
}

/* A copy that fails halfway (the file size limit, as a full disk would) fails the export, and
 * nothing is left: not the copies made before it, not their folders, not the package. */
static void
test_failed_copy (Fixture      *f,
                  gconstpointer data)
{
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char  *root_before = NULL;
  g_autofree char  *root_after = NULL;
  g_autofree char  *dest_tree = NULL;
  LoomExportResult *result = NULL;
  struct rlimit     saved, limit;
  guint             fds_before;
  gboolean          ok;

  import_session (f, SESSION_ID, f->workspace);
  session = loom_test_find_session (f->base.store, SESSION_ID);
  root_before = loom_test_list_tree (f->root, TRUE);
  fds_before = loom_test_count_fds ();

  /* Larger than conversation.md and every other file, smaller than logs/run.txt, copied last. */
  g_assert_no_errno (getrlimit (RLIMIT_FSIZE, &saved));
  limit = saved;
  limit.rlim_cur = LOG_SIZE / 2;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &limit));
  ok = loom_export_session (f->base.store, loom_session_get_uuid (session), f->dest, NULL, &result,
                            NULL, &error);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &saved));
  signal (SIGXFSZ, SIG_DFL);

  g_assert_false (ok);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "run.txt"));
  g_assert_null (result);
  g_assert_cmpuint (loom_test_count_fds (), ==, fds_before);
  dest_tree = loom_test_list_tree (f->dest, TRUE);
  g_assert_cmpstr (dest_tree, ==, "");
  root_after = loom_test_list_tree (f->root, TRUE);
  g_assert_cmpstr (root_after, ==, root_before);
}

/* The manifest, written after artifacts/, fails: the copies and the diffs go with the rest. */
static void
test_failed_manifest (Fixture      *f,
                      gconstpointer data)
{
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) first = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *manifest_path = NULL;
  g_autofree char *again = g_build_filename (f->base.dir, "again", NULL);
  g_autofree char *again_tree = NULL;
  g_autoptr (LoomSession) session = NULL;
  JsonArray        *files;
  LoomExportResult *result = NULL;
  struct rlimit     saved, limit;
  GStatBuf          st;
  goffset           largest = 0;
  gboolean          ok;

  /* Without logs/run.txt (over this cap), and with session.jsonl of the prompts and replies
   * only, the manifest is the package's largest file. */
  import_session (f, SESSION_ID, f->workspace);
  session = loom_test_find_session (f->base.store, SESSION_ID);
  options.max_artifact_size = 1000;
  options.detail = LOOM_EXPORT_DETAIL_MESSAGES;
  first = export_ok (f, SESSION_ID, &options);
  root = read_manifest (first->path);
  files = json_object_get_array_member (json_node_get_object (root), "files");
  for (guint i = 0; i < json_array_get_length (files); i++)
    largest = MAX (largest,
                   json_object_get_int_member (json_array_get_object_element (files, i), "size"));
  manifest_path = g_build_filename (first->path, "manifest.json", NULL);
  g_assert_no_errno (g_stat (manifest_path, &st));
  g_test_message ("largest file %" G_GINT64_FORMAT ", manifest %" G_GINT64_FORMAT, largest,
                  (gint64)st.st_size);
  g_assert_cmpint (st.st_size, >, largest + 1);

  g_assert_no_errno (g_mkdir (again, 0700));
  g_assert_no_errno (getrlimit (RLIMIT_FSIZE, &saved));
  limit = saved;
  limit.rlim_cur = (rlim_t)st.st_size - 1;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &limit));
  ok = loom_export_session (f->base.store, loom_session_get_uuid (session), again, &options,
                            &result, NULL, &error);
  g_assert_no_errno (setrlimit (RLIMIT_FSIZE, &saved));
  signal (SIGXFSZ, SIG_DFL);

  g_assert_false (ok);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "manifest.json"));
  g_assert_null (result);
  again_tree = loom_test_list_tree (again, TRUE);
  g_assert_cmpstr (again_tree, ==, "");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/export/package-artifacts/package", test_package);
  ADD ("/export/package-artifacts/caps", test_caps);
  ADD ("/export/package-artifacts/no-workspace", test_no_workspace);
  ADD ("/export/package-artifacts/failed-copy", test_failed_copy);
  ADD ("/export/package-artifacts/failed-manifest", test_failed_manifest);
#undef ADD

  return g_test_run ();
}
