/* test-export-artifacts.c — a package's artifacts: which files a session touched, the changes it
 * made, and copying the files out of the workspace without ever leaving it.
 *
 * The copy runs on real folders: a workspace with links that lead out (to files and folders,
 * absolute and relative), paths that climb out with "..", absolute paths elsewhere, a FIFO, a
 * socket, /dev/null behind a link, files over the caps, a binary file, a deep path and a CJK
 * name. After it, nothing exists outside the destination that was not there before. The lists
 * are read from real transcripts of Claude Code, Codex and Gemini, imported into a real store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-export-artifacts.h"
#include "loom-safe-copy.h"
#include "loom-test-utils.h"

/* ——— Resolving a recorded path ——— */

static void
test_resolve (void)
{
  static const struct
  {
    const char *recorded;
    const char *workspace;
    const char *expected;
  } cases[] = {
    { "src/main.c", "/home/ada/loom", "src/main.c" },
    { "./src//main.c", "/home/ada/loom", "src/main.c" },
    { "/home/ada/loom/src/main.c", "/home/ada/loom", "src/main.c" },
    { "/home/ada/loom/src/main.c", "/home/ada/loom/", "src/main.c" },
    { "/home/ada//loom/./src/main.c", "/home/ada/loom", "src/main.c" },
    { "src/../README.md", "/home/ada/loom", "README.md" },
    { "/home/ada/loom/a/../b", "/home/ada/loom", "b" },
    { "/home/ada/loom/../loom/b", "/home/ada/loom", "b" },
    { "../secret", "/home/ada/loom", NULL },
    { "src/../../secret", "/home/ada/loom", NULL },
    { "/home/ada/loom/../secret", "/home/ada/loom", NULL },
    { "/home/ada/loomx/file", "/home/ada/loom", NULL },
    { "/home/ada/loom", "/home/ada/loom", NULL },
    { "/home/ada/loom/.", "/home/ada/loom", NULL },
    { ".", "/home/ada/loom", NULL },
    { "", "/home/ada/loom", NULL },
    { "/etc/passwd", "/home/ada/loom", NULL },
    { "/../../etc/passwd", "/", "etc/passwd" },
    { "/etc/passwd", NULL, NULL },
    { "/etc/passwd", "relative/workspace", NULL },
    { "docs/説明.md", NULL, "docs/説明.md" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *resolved = loom_artifact_resolve_path (cases[i].recorded,
                                                              cases[i].workspace);

      g_test_message ("%s in %s", cases[i].recorded, cases[i].workspace);
      g_assert_cmpstr (resolved, ==, cases[i].expected);
    }
}

/* ——— The confined copy ——— */

typedef struct
{
  char *root;      /* holds the three below and nothing else */
  char *workspace; /* root/workspace */
  char *outside;   /* root/outside: what links lead to */
  char *dest;      /* root/dest */
  int   workspace_fd;
  int   dest_fd;
} CopyFixture;

static void
write_file (const char *path,
            const char *contents,
            gssize      length)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}

static void
make_link (const char *target,
           const char *workspace,
           const char *name)
{
  g_autofree char *path = g_build_filename (workspace, name, NULL);

  g_assert_cmpint (symlink (target, path), ==, 0);
}

static void
copy_fixture_set_up (CopyFixture  *f,
                     gconstpointer data)
{
  g_autofree char   *secret = NULL;
  g_autofree char   *secret_folder = NULL;
  g_autofree char   *fifo = NULL;
  g_autofree char   *socket_path = NULL;
  g_autofree char   *binary = NULL;
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  char               big[4096];
  char               bytes[] = { 'P', 'K', 3, 4, 0, 0, 'x' };
  char              *p;
  int                fd;

  f->root = loom_test_make_tmpdir ();
  f->workspace = g_build_filename (f->root, "workspace", NULL);
  f->outside = g_build_filename (f->root, "outside", NULL);
  f->dest = g_build_filename (f->root, "dest", NULL);
  g_assert_cmpint (g_mkdir (f->dest, 0755), ==, 0);

  secret = g_build_filename (f->outside, "secret.txt", NULL);
  write_file (secret, "the outside's secret\n", -1);
  secret_folder = g_build_filename (f->outside, "folder", "inner.txt", NULL);
  write_file (secret_folder, "the outside's folder\n", -1);

#define WS(...) g_build_filename (f->workspace, __VA_ARGS__, NULL)
  p = WS ("a.txt");
  write_file (p, "hello\n", -1);
  g_free (p);
  p = WS ("sub", "abs.txt");
  write_file (p, "named by an absolute path\n", -1);
  g_free (p);
  p = WS ("sub2", "x.txt");
  write_file (p, "reached through ..\n", -1);
  g_free (p);
  p = WS ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "deep.txt");
  write_file (p, "deep\n", -1);
  g_free (p);
  p = WS ("ドキュメント", "説明.md");
  write_file (p, "# 説明\n日本語と español 🚀\n", -1);
  g_free (p);
  p = WS ("evil", "inner.txt");
  write_file (p, "a real folder in the workspace\n", -1);
  g_free (p);
  memset (big, 'x', sizeof big);
  p = WS ("big.txt");
  write_file (p, big, sizeof big);
  g_free (p);
  binary = WS ("image.bin");
  write_file (binary, bytes, sizeof bytes);

  make_link ("../outside/secret.txt", f->workspace, "link-file");
  make_link (secret, f->workspace, "link-file-abs");
  make_link ("../outside/folder", f->workspace, "link-dir");
  make_link (f->outside, f->workspace, "link-dir-abs");
  make_link ("/dev/null", f->workspace, "devnull");
  make_link ("a.txt", f->workspace, "link-inside");
  make_link ("../../outside", f->workspace, "sub/nested-link");

  fifo = WS ("fifo");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  socket_path = WS ("sock");
  if (strlen (socket_path) < sizeof address.sun_path)
    {
      strcpy (address.sun_path, socket_path);
      fd = socket (AF_UNIX, SOCK_STREAM, 0);
      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (bind (fd, (struct sockaddr *)&address, sizeof address), ==, 0);
      close (fd);
    }
#undef WS

  f->workspace_fd = open (f->workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (f->workspace_fd, >=, 0);
  f->dest_fd = open (f->dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (f->dest_fd, >=, 0);
}

static void
copy_fixture_tear_down (CopyFixture  *f,
                        gconstpointer data)
{
  close (f->workspace_fd);
  close (f->dest_fd);
  loom_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->workspace);
  g_free (f->outside);
  g_free (f->dest);
}

static void
copy_expect (CopyFixture        *f,
             LoomArtifactLimits *limits,
             const char         *recorded,
             LoomArtifactStatus  expected)
{
  g_autoptr (GError) error = NULL;
  LoomArtifactInfo info;

  g_test_message ("copying %s", recorded);
  g_assert_true (loom_artifact_copy (f->workspace_fd, recorded, f->workspace, f->dest_fd, limits,
                                     &info, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (loom_artifact_status_to_string (info.status), ==,
                   loom_artifact_status_to_string (expected));
  if (expected == LOOM_ARTIFACT_COPIED)
    {
      g_autofree char *copy = g_build_filename (f->dest, info.relative_path, NULL);
      g_autofree char *original = g_build_filename (f->workspace, info.relative_path, NULL);
      g_autofree char *sum = loom_test_file_checksum (original);
      g_autofree char *copy_sum = loom_test_file_checksum (copy);
      struct stat      st;

      g_assert_null (info.detail);
      g_assert_cmpstr (info.sha256, ==, copy_sum);
      g_assert_cmpstr (info.sha256, ==, sum);
      g_assert_cmpint (lstat (copy, &st), ==, 0);
      g_assert_true (S_ISREG (st.st_mode));
      g_assert_cmpuint (info.size, ==, (guint64)st.st_size);
    }
  else
    {
      g_assert_null (info.sha256);
      g_assert_nonnull (info.detail);
    }
  loom_artifact_info_clear (&info);
}

static void
test_copy_confined (CopyFixture  *f,
                    gconstpointer data)
{
  g_autofree char *root_before = loom_test_list_tree (f->root, FALSE);
  g_autofree char *outside_before = loom_test_list_tree (f->outside, FALSE);
  g_autofree char *absolute_inside = g_build_filename (f->workspace, "sub", "abs.txt", NULL);
  g_autofree char *absolute_outside = g_build_filename (f->outside, "secret.txt", NULL);
  g_autofree char *climbing = g_build_filename (f->workspace, "..", "outside", "secret.txt", NULL);
  g_autofree char *dest_tree = NULL;
  g_autofree char *root_after = NULL;
  g_autofree char *outside_after = NULL;
  guint            fds_before = loom_test_count_fds ();
  LoomArtifactLimits limits;

  loom_artifact_limits_init (&limits);
  g_assert_cmpuint (limits.max_file_size, ==, 10 * 1000 * 1000);
  g_assert_cmpuint (limits.max_total_size, ==, 200 * 1000 * 1000);
  limits.max_file_size = 1000;

  copy_expect (f, &limits, "a.txt", LOOM_ARTIFACT_COPIED);
  copy_expect (f, &limits, absolute_inside, LOOM_ARTIFACT_COPIED);
  copy_expect (f, &limits, "sub/../sub2/./x.txt", LOOM_ARTIFACT_COPIED);
  copy_expect (f, &limits, "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt", LOOM_ARTIFACT_COPIED);
  copy_expect (f, &limits, "ドキュメント/説明.md", LOOM_ARTIFACT_COPIED);
  copy_expect (f, &limits, "image.bin", LOOM_ARTIFACT_COPIED);

  copy_expect (f, &limits, "../outside/secret.txt", LOOM_ARTIFACT_OUTSIDE_WORKSPACE);
  copy_expect (f, &limits, "sub/../../outside/secret.txt", LOOM_ARTIFACT_OUTSIDE_WORKSPACE);
  copy_expect (f, &limits, climbing, LOOM_ARTIFACT_OUTSIDE_WORKSPACE);
  copy_expect (f, &limits, absolute_outside, LOOM_ARTIFACT_OUTSIDE_WORKSPACE);
  copy_expect (f, &limits, "/etc/passwd", LOOM_ARTIFACT_OUTSIDE_WORKSPACE);
  copy_expect (f, &limits, f->workspace, LOOM_ARTIFACT_OUTSIDE_WORKSPACE);

  copy_expect (f, &limits, "link-file", LOOM_ARTIFACT_SYMLINK);
  copy_expect (f, &limits, "link-file-abs", LOOM_ARTIFACT_SYMLINK);
  copy_expect (f, &limits, "link-dir/inner.txt", LOOM_ARTIFACT_SYMLINK);
  copy_expect (f, &limits, "link-dir-abs/secret.txt", LOOM_ARTIFACT_SYMLINK);
  copy_expect (f, &limits, "link-dir", LOOM_ARTIFACT_SYMLINK);
  copy_expect (f, &limits, "sub/nested-link/secret.txt", LOOM_ARTIFACT_SYMLINK);
  /* Even a link that stays inside is not followed: the file it names is copied on its own. */
  copy_expect (f, &limits, "link-inside", LOOM_ARTIFACT_SYMLINK);
  copy_expect (f, &limits, "devnull", LOOM_ARTIFACT_SYMLINK);

  copy_expect (f, &limits, "fifo", LOOM_ARTIFACT_NOT_A_REGULAR_FILE);
  copy_expect (f, &limits, "sock", LOOM_ARTIFACT_NOT_A_REGULAR_FILE);
  copy_expect (f, &limits, "sub", LOOM_ARTIFACT_NOT_A_REGULAR_FILE);

  copy_expect (f, &limits, "missing.txt", LOOM_ARTIFACT_MISSING);
  copy_expect (f, &limits, "nowhere/missing.txt", LOOM_ARTIFACT_MISSING);
  copy_expect (f, &limits, "a.txt/under-a-file", LOOM_ARTIFACT_MISSING);

  copy_expect (f, &limits, "big.txt", LOOM_ARTIFACT_TOO_LARGE);
  g_assert_cmpuint (loom_test_count_fds (), ==, fds_before);

  dest_tree = loom_test_list_tree (f->dest, FALSE);
  g_assert_cmpstr (dest_tree, ==,
                   "a.txt\n"
                   "d1/\nd1/d2/\nd1/d2/d3/\nd1/d2/d3/d4/\nd1/d2/d3/d4/d5/\nd1/d2/d3/d4/d5/d6/\n"
                   "d1/d2/d3/d4/d5/d6/d7/\nd1/d2/d3/d4/d5/d6/d7/d8/\nd1/d2/d3/d4/d5/d6/d7/d8/d9/\n"
                   "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/\nd1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt\n"
                   "image.bin\n"
                   "sub/\nsub/abs.txt\n"
                   "sub2/\nsub2/x.txt\n"
                   "ドキュメント/\nドキュメント/説明.md");

  /* Nothing appeared or changed anywhere but in the destination. */
  outside_after = loom_test_list_tree (f->outside, FALSE);
  g_assert_cmpstr (outside_after, ==, outside_before);
  root_after = loom_test_list_tree (f->root, FALSE);
  {
    g_auto (GStrv) before = g_strsplit (root_before, "\n", -1);
    g_auto (GStrv) after = g_strsplit (root_after, "\n", -1);

    for (guint i = 0; after[i] != NULL; i++)
      if (!g_str_has_prefix (after[i], "dest/"))
        g_assert_true (g_strv_contains ((const char *const *)before, after[i]));
    for (guint i = 0; before[i] != NULL; i++)
      g_assert_true (g_strv_contains ((const char *const *)after, before[i]));
  }
}

static void
test_copy_binary_and_caps (CopyFixture  *f,
                           gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char   *dest_tree = NULL;
  LoomArtifactLimits limits;
  LoomArtifactInfo   info;

  loom_artifact_limits_init (&limits);
  limits.exclude_binary = TRUE;
  g_assert_true (loom_artifact_copy (f->workspace_fd, "image.bin", f->workspace, f->dest_fd,
                                     &limits, &info, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (info.status, ==, LOOM_ARTIFACT_BINARY);
  g_assert_true (info.is_binary);
  g_assert_cmpuint (info.size, ==, 7);
  loom_artifact_info_clear (&info);

  g_assert_true (loom_artifact_copy (f->workspace_fd, "a.txt", f->workspace, f->dest_fd, &limits,
                                     &info, NULL, &error));
  g_assert_cmpint (info.status, ==, LOOM_ARTIFACT_COPIED);
  g_assert_false (info.is_binary);
  g_assert_cmpuint (info.size, ==, 6);
  g_assert_cmpstr (info.sha256, ==,
                   "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
  loom_artifact_info_clear (&info);
  g_assert_cmpuint (limits.total_size, ==, 6);

  /* The package's cap, with 6 bytes in it: 4096 more pass it, and 26 more pass 31. */
  limits.max_total_size = 4096;
  copy_expect (f, &limits, "big.txt", LOOM_ARTIFACT_TOO_LARGE);
  limits.max_total_size = 31;
  copy_expect (f, &limits, "sub/abs.txt", LOOM_ARTIFACT_TOO_LARGE);
  limits.max_total_size = 6 + 26 + 4;
  copy_expect (f, &limits, "sub/abs.txt", LOOM_ARTIFACT_COPIED);
  g_assert_cmpuint (limits.total_size, ==, 6 + 26);
  copy_expect (f, &limits, "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt", LOOM_ARTIFACT_TOO_LARGE);

  /* The same path twice is the caller's mistake: nothing is overwritten. */
  limits.max_total_size = 1000;
  g_assert_false (loom_artifact_copy (f->workspace_fd, "a.txt", f->workspace, f->dest_fd, &limits,
                                      &info, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS);
  g_clear_error (&error);
  loom_artifact_info_clear (&info);

  dest_tree = loom_test_list_tree (f->dest, FALSE);
  g_assert_cmpstr (dest_tree, ==, "a.txt\nsub/\nsub/abs.txt");
}

/* A link planted in the destination is not followed, and a cancelled copy leaves nothing. */
static void
test_copy_hostile_destination (CopyFixture  *f,
                               gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autofree char   *planted = g_build_filename (f->dest, "evil", NULL);
  g_autofree char   *outside_before = loom_test_list_tree (f->outside, FALSE);
  g_autofree char   *outside_after = NULL;
  g_autofree char   *dest_tree = NULL;
  g_autofree char   *dest_expected = NULL;
  LoomArtifactLimits limits;
  LoomArtifactInfo   info;
  guint              fds_before;

  fds_before = loom_test_count_fds ();
  loom_artifact_limits_init (&limits);
  g_assert_cmpint (symlink (f->outside, planted), ==, 0);
  g_assert_false (loom_artifact_copy (f->workspace_fd, "evil/inner.txt", f->workspace, f->dest_fd,
                                      &limits, &info, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);
  g_clear_error (&error);
  loom_artifact_info_clear (&info);
  outside_after = loom_test_list_tree (f->outside, FALSE);
  g_assert_cmpstr (outside_after, ==, outside_before);

  g_cancellable_cancel (cancellable);
  g_assert_false (loom_artifact_copy (f->workspace_fd, "d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/deep.txt",
                                      f->workspace, f->dest_fd, &limits, &info, cancellable,
                                      &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  loom_artifact_info_clear (&info);
  g_assert_cmpuint (limits.total_size, ==, 0);
  g_assert_cmpuint (loom_test_count_fds (), ==, fds_before);

  dest_tree = loom_test_list_tree (f->dest, FALSE);
  dest_expected = g_strconcat ("evil -> ", f->outside, NULL);
  g_assert_cmpstr (dest_tree, ==, dest_expected);
}

/* ——— Touched paths and changes of real sessions ——— */

static char *
describe_touched (GPtrArray *touched)
{
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < touched->len; i++)
    {
      LoomTouchedPath *t = g_ptr_array_index (touched, i);
      g_autofree char *how = loom_artifact_touch_to_string (t->how);

      g_string_append_printf (out, "%s (%s)\n", t->path, how);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

typedef struct
{
  const char *source;
  const char *fixture; /* below tests/import/fixtures */
  const char *session; /* the agent's session id */
  const char *touched; /* describe_touched () */
  const char *names;   /* the changes' names, one a line */
} SessionCase;

static void
test_session_artifacts (LoomTestStore *f,
                        gconstpointer  data)
{
  const SessionCase *c = data;
  g_autofree char   *path = loom_test_fixture_path (c->fixture, NULL);
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GPtrArray) touched = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (GString) names = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *described = NULL;
  const char      *cwd;

  loom_test_store_import_path (f, NULL, path);
  session = loom_test_find_session (f->store, c->session);
  g_assert_nonnull (session);
  cwd = loom_session_get_cwd (session);

  touched = loom_export_list_touched_paths (f->store, loom_session_get_uuid (session), cwd, &error);
  g_assert_no_error (error);
  described = describe_touched (touched);
  g_test_message ("touched in %s:\n%s", cwd, described);
  g_assert_cmpstr (described, ==, c->touched);

  changes = loom_export_list_changes (f->store, loom_session_get_uuid (session), cwd, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < changes->len; i++)
    {
      LoomArtifactChange *change = g_ptr_array_index (changes, i);

      g_test_message ("%s (%s):\n%s", change->name, change->kind, change->diff);
      g_assert_cmpuint (change->index, ==, i + 1);
      g_assert_true (g_str_has_prefix (change->diff, "--- "));
      g_assert_true (g_str_has_suffix (change->diff, "\n"));
      g_assert_true (g_utf8_validate (change->diff, -1, NULL));
      g_string_append_printf (names, "%s\n", change->name);
    }
  g_assert_cmpstr (names->str, ==, c->names);

  /* The package's one walk gives both, the same. */
  {
    g_autoptr (GPtrArray) both_touched = NULL;
    g_autoptr (GPtrArray) both_changes = NULL;
    g_autofree char *both_described = NULL;

    g_assert_true (loom_export_list_artifacts (f->store, loom_session_get_uuid (session), cwd,
                                               &both_touched, &both_changes, &error));
    g_assert_no_error (error);
    both_described = describe_touched (both_touched);
    g_assert_cmpstr (both_described, ==, described);
    g_assert_cmpuint (both_changes->len, ==, changes->len);
    for (guint i = 0; i < changes->len; i++)
      {
        LoomArtifactChange *a = g_ptr_array_index (changes, i);
        LoomArtifactChange *b = g_ptr_array_index (both_changes, i);

        g_assert_cmpstr (b->name, ==, a->name);
        g_assert_cmpstr (b->diff, ==, a->diff);
        g_assert_cmpstr (b->kind, ==, a->kind);
      }
  }
}

/* ——— A whole session, end to end ——— */

#define CRAFTED_SESSION "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"

static char *
claude_record (const char *type,
               const char *uuid,
               const char *parent,
               const char *workspace,
               const char *message)
{
  return g_strdup_printf ("{\"type\":\"%s\",\"uuid\":\"%s\",\"parentUuid\":%s%s%s,"
                          "\"sessionId\":\"" CRAFTED_SESSION "\",\"cwd\":\"%s\","
                          "\"timestamp\":\"2026-05-01T10:00:0%c.000Z\",\"message\":%s}\n",
                          type, uuid, parent ? "\"" : "", parent ? parent : "null",
                          parent ? "\"" : "", workspace, uuid[0], message);
}

static gboolean
have_patch (void)
{
  g_autofree char *path = g_find_program_in_path ("patch");

  return path != NULL;
}

static void
run_patch (const char *folder,
           const char *diff)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *diff_path = g_build_filename (folder, "..", "change.diff", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char      *argv[] = {
    "patch", "-p1", "--batch", "--forward", "-d", folder, "-i", diff_path, NULL
  };
  int status;

  /* patch is in every Debian build environment (dpkg-dev needs it); without it, only the
   * diff's text is checked. */
  if (!have_patch ())
    {
      g_test_message ("no patch program: the diff is not applied");
      return;
    }
  write_file (diff_path, diff, -1);
  g_assert_true (g_spawn_sync (NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  g_test_message ("patch: %s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* A session that names files every way an agent does, some of them out of the workspace: the
 * list has each file once, the copy takes only what lies inside, and the diffs apply. */
static void
test_crafted_session (LoomTestStore *f,
                      gconstpointer  data)
{
  g_autofree char *root = loom_test_make_tmpdir ();
  g_autofree char *workspace = g_build_filename (root, "workspace", NULL);
  g_autofree char *outside = g_build_filename (root, "outside", NULL);
  g_autofree char *dest = g_build_filename (root, "dest", NULL);
  g_autofree char *replay = g_build_filename (root, "replay", NULL);
  g_autofree char *project = g_build_filename (root, "claude", "-workspace", NULL);
  g_autofree char *transcript = g_build_filename (project, CRAFTED_SESSION ".jsonl", NULL);
  g_autofree char *a_c = g_build_filename (workspace, "src", "a.c", NULL);
  g_autofree char *notes = g_build_filename (workspace, "docs", "説明.md", NULL);
  g_autofree char *secret = g_build_filename (outside, "secret.txt", NULL);
  g_autofree char *replay_a_c = g_build_filename (replay, "src", "a.c", NULL);
  g_autofree char *replay_notes = g_build_filename (replay, "docs", "説明.md", NULL);
  g_autofree char *link = g_build_filename (workspace, "link-out", NULL);
  g_autofree char *weird = g_build_filename (workspace, ".hidden", "..we:ird?\aname.txt", NULL);
  g_autofree char *prompt = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *blocks = NULL;
  g_autofree char *described = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *dest_tree = NULL;
  g_autoptr (GPtrArray) touched = NULL;
  g_autoptr (GPtrArray) changes = NULL;
  g_autoptr (GError) error = NULL;
  static const LoomArtifactStatus statuses[] = {
    LOOM_ARTIFACT_COPIED,
    LOOM_ARTIFACT_OUTSIDE_WORKSPACE,
    LOOM_ARTIFACT_OUTSIDE_WORKSPACE,
    LOOM_ARTIFACT_SYMLINK,
    LOOM_ARTIFACT_COPIED,
    LOOM_ARTIFACT_MISSING,
    LOOM_ARTIFACT_COPIED,
  };
  LoomArtifactLimits  limits;
  LoomArtifactChange *change;
  int                 workspace_fd, dest_fd;

  write_file (a_c, "int a = 2;\n", -1);
  write_file (notes, "# 説明\n", -1);
  write_file (weird, "x\n", -1);
  write_file (secret, "the outside's secret\n", -1);
  write_file (replay_a_c, "int a = 1;\n", -1);
  g_assert_cmpint (g_mkdir (dest, 0755), ==, 0);
  g_assert_cmpint (symlink ("../outside", link), ==, 0);

  blocks = g_strdup_printf (
    "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Read\",\"input\":{\"file_path\":\"%s\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"Read\",\"input\":{\"file_path\":"
    "\"src/./a.c\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_3\",\"name\":\"Read\",\"input\":{\"file_path\":"
    "\"../outside/secret.txt\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_4\",\"name\":\"Read\",\"input\":{\"file_path\":\"%s\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_5\",\"name\":\"Read\",\"input\":{\"file_path\":"
    "\"link-out/secret.txt\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_6\",\"name\":\"Edit\",\"input\":{\"file_path\":\"%s\","
    "\"old_string\":\"int a = 1;\",\"new_string\":\"int a = 2;\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_7\",\"name\":\"Write\",\"input\":{\"file_path\":\"%s\","
    "\"content\":\"# 説明\\n\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_8\",\"name\":\"Read\",\"input\":{\"file_path\":"
    "\"missing.c\"}},"
    "{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"Write\",\"input\":{\"file_path\":"
    "\".hidden/..we:ird?\\u0007name.txt\",\"content\":\"x\\n\"}}",
    a_c, secret, a_c, notes);
  calls = g_strdup_printf ("{\"id\":\"msg_1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
                           "\"content\":[%s]}",
                           blocks);
  g_free (blocks);
  prompt = claude_record ("user", "1a", NULL, workspace,
                          "{\"role\":\"user\",\"content\":\"Tidy the project\"}");
  blocks = claude_record ("assistant", "2b", "1a", workspace, calls);
  contents = g_strconcat (prompt, blocks, NULL);
  write_file (transcript, contents, -1);

  loom_test_store_import_path (f, "claude-code", transcript);

  touched = loom_export_list_touched_paths (f->store, CRAFTED_SESSION, workspace, &error);
  g_assert_no_error (error);
  described = describe_touched (touched);
  expected = g_strdup_printf ("%s (read, edited)\n"
                              "../outside/secret.txt (read)\n"
                              "%s (read)\n"
                              "link-out/secret.txt (read)\n"
                              "%s (written)\n"
                              "missing.c (read)\n"
                              ".hidden/..we:ird?\aname.txt (written)\n",
                              a_c, secret, notes);
  g_assert_cmpstr (described, ==, expected);

  loom_artifact_limits_init (&limits);
  workspace_fd = open (workspace, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  dest_fd = open (dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpuint (touched->len, ==, G_N_ELEMENTS (statuses));
  for (guint i = 0; i < touched->len; i++)
    {
      LoomTouchedPath *t = g_ptr_array_index (touched, i);
      LoomArtifactInfo info;

      g_assert_true (loom_artifact_copy (workspace_fd, t->path, workspace, dest_fd, &limits, &info,
                                         NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (loom_artifact_status_to_string (info.status), ==,
                       loom_artifact_status_to_string (statuses[i]));
      loom_artifact_info_clear (&info);
    }
  close (workspace_fd);
  close (dest_fd);
  dest_tree = loom_test_list_tree (dest, FALSE);
  g_assert_cmpstr (dest_tree, ==,
                   ".hidden/\n.hidden/..we:ird?\aname.txt\ndocs/\ndocs/説明.md\nsrc/\nsrc/a.c");

  changes = loom_export_list_changes (f->store, CRAFTED_SESSION, workspace, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changes->len, ==, 3);
  change = g_ptr_array_index (changes, 0);
  g_assert_cmpstr (change->name, ==, "001-a.c.diff");
  g_assert_cmpstr (change->kind, ==, "edit");
  g_assert_cmpstr (change->diff, ==,
                   "--- a/src/a.c\n+++ b/src/a.c\n@@ -1,1 +1,1 @@\n-int a = 1;\n+int a = 2;\n");
  run_patch (replay, change->diff);
  change = g_ptr_array_index (changes, 1);
  g_assert_cmpstr (change->name, ==, "002-説明.md.diff");
  g_assert_cmpstr (change->diff, ==,
                   "--- /dev/null\n+++ b/docs/説明.md\n@@ -0,0 +1,1 @@\n+# 説明\n");
  run_patch (replay, change->diff);
  /* A change's file name is safe on any filesystem; the diff keeps the real path. */
  change = g_ptr_array_index (changes, 2);
  g_assert_cmpstr (change->name, ==, "003-we_ird__name.txt.diff");
  g_assert_true (
    g_str_has_prefix (change->diff, "--- /dev/null\n+++ b/.hidden/..we:ird?\aname.txt\n"));

  /* The diffs replayed on the file as it was give the files as they are. */
  g_free (contents);
  if (!have_patch ())
    {
      loom_test_remove_tree (root);
      return;
    }
  g_assert_true (g_file_get_contents (replay_a_c, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "int a = 2;\n");
  g_free (contents);
  g_assert_true (g_file_get_contents (replay_notes, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "# 説明\n");

  loom_test_remove_tree (root);
}

int
main (int   argc,
      char *argv[])
{
  static const SessionCase sessions[] = {
    {
      "claude",
      "claude/v2.1.2xx-titles",
      "8e3a6c1f-5b9d-4e72-a1c8-3f0b7d2e9a64",
      "/home/ada/src/loom/src/core/loom-import-file.c (read, edited)\n",
      "001-loom-import-file.c.diff\n",
    },
    {
      "claude",
      "claude/non-ascii",
      "3e6b9d2a-4c8f-4a17-b5e3-7d1a0c9f2e58",
      "/home/ada/プロジェクト/loom/src/説明.c (edited)\n",
      "001-説明.c.diff\n",
    },
    {
      "claude",
      "claude/v2.0-agent-files",
      "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80",
      "/home/ada/src/tide/src/export_csv.rs (created)\n",
      "001-export_csv.rs.diff\n",
    },
    {
      "claude",
      "claude/two-session-ids",
      "5a1e9c3b-7d2f-4b86-8e40-1c9f6a3d5b72",
      "/home/ada/src/loom/src/app/loom-sidebar.c (edited)\n",
      "001-loom-sidebar.c.diff\n",
    },
    {
      "codex",
      "codex/current",
      "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77",
      "/home/ada/src/loom/tests/import/test-import-codex.c (created)\n"
      "/home/ada/src/loom/tests/import/meson.build (edited)\n",
      "001-test-import-codex.c.diff\n"
      "002-meson.build.diff\n",
    },
    {
      "codex",
      "codex/subagent",
      "019d7a10-4c2b-7e01-9f10-00000000a002",
      "/home/ada/src/atlas/src/parser/ast.rs (edited)\n"
      "/home/ada/src/atlas/src/parser/syntax.rs (created)\n"
      "/home/ada/src/atlas/src/parser/legacy.rs (deleted)\n",
      "001-syntax.rs.diff\n"
      "002-legacy.rs.diff\n",
    },
    {
      "codex",
      "codex/legacy-0.4x",
      "0199e2c4-7a10-7d42-b3f1-5c6d7e8f9a0b",
      "/home/ada/src/taller/facturacion/src/iva.rs (edited)\n",
      "001-iva.rs.diff\n",
    },
    {
      "gemini",
      "gemini/jsonl",
      "8c1d4e2a-6f3b-4a5c-b7d8-9e0f1a2b3c4d",
      "/home/ada/src/atlas/src/atlas/cli.py (read)\n"
      "/home/ada/src/atlas/src/atlas/output.py (created)\n"
      "/home/ada/src/atlas/README.md (edited)\n",
      "001-output.py.diff\n"
      "002-README.md.diff\n",
    },
    {
      "gemini",
      "gemini/migrated",
      "77aa00bb-3c4d-4e5f-a6b7-c8d9e0f1a2b3",
      "/home/ada/src/kōan/CONTRIBUTING.ja.md (created)\n",
      "001-CONTRIBUTING.ja.md.diff\n",
    },
  };
  g_autofree char *fixtures = NULL;

  g_test_init (&argc, &argv, NULL);
  loom_core_init ();
  fixtures = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "import", "fixtures", NULL);
  g_setenv ("LOOM_TEST_FIXTURES", fixtures, FALSE);

  g_test_add_func ("/export/artifacts/resolve", test_resolve);
  g_test_add ("/export/artifacts/copy-confined", CopyFixture, NULL, copy_fixture_set_up,
              test_copy_confined, copy_fixture_tear_down);
  g_test_add ("/export/artifacts/copy-binary-and-caps", CopyFixture, NULL, copy_fixture_set_up,
              test_copy_binary_and_caps, copy_fixture_tear_down);
  g_test_add ("/export/artifacts/copy-hostile-destination", CopyFixture, NULL, copy_fixture_set_up,
              test_copy_hostile_destination, copy_fixture_tear_down);
  g_test_add ("/export/artifacts/crafted-session", LoomTestStore, NULL, loom_test_store_set_up,
              test_crafted_session, loom_test_store_tear_down);
  for (guint i = 0; i < G_N_ELEMENTS (sessions); i++)
    {
      g_autofree char *name = g_strdup_printf ("/export/artifacts/session/%s", sessions[i].fixture);

      g_test_add (name, LoomTestStore, &sessions[i], loom_test_store_set_up, test_session_artifacts,
                  loom_test_store_tear_down);
    }
  return g_test_run ();
}
