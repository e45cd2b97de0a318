/* test-backup-archive-hostile.c — containers built by hand to break every rule of
 * loom-backup-archive.h.
 *
 * Each is read by the reader, verified and extracted into an empty folder of a sandbox: all
 * three refuse it with LOOM_ERROR_CORRUPT and the reason, and nothing appears in the sandbox
 * outside the target folder (nor at the absolute path a container names).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "loom-backup-archive-private.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-test-utils.h"

/* A container: its body of entries, and the files the manifest before them lists. */
typedef struct
{
  GByteArray *body;
  GString    *files; /* the manifest's "files" members, joined by commas */
  gboolean    ended;
} Builder;

static void
builder_init (Builder *b)
{
  b->body = g_byte_array_new ();
  b->files = g_string_new (NULL);
  b->ended = FALSE;
}

static void
put_header (GByteArray *bytes,
            guint8      kind,
            const char *path,
            gsize       length)
{
  guint8 header[3] = { kind, (guint8)(length >> 8), (guint8)length };

  g_byte_array_append (bytes, header, sizeof header);
  g_byte_array_append (bytes, (const guint8 *)path, (guint)length);
}

static void
put_size (GByteArray *bytes,
          guint64     size)
{
  guint8 size_bytes[8];

  for (guint i = 0; i < 8; i++)
    size_bytes[i] = (guint8)(size >> (56 - 8 * i));
  g_byte_array_append (bytes, size_bytes, sizeof size_bytes);
}

static void
add_folder (Builder    *b,
            const char *path)
{
  put_header (b->body, 1, path, strlen (path));
}

/* Lists @path in the manifest, once, when it is a path a manifest may list. */
static void
list_file (Builder    *b,
           const char *path,
           gsize       path_length,
           guint64     size,
           const char *sha256)
{
  g_autofree char *escaped = NULL;
  g_autofree char *member = NULL;

  if (loom_backup_archive_path_problem (path, path_length) != NULL ||
      g_str_equal (path, "manifest.json"))
    return;
  escaped = g_strescape (path, NULL);
  member = g_strdup_printf ("{\"path\":\"%s\",", escaped);
  if (strstr (b->files->str, member) != NULL)
    return;
  g_string_append_printf (b->files, "%s%s\"size\":%" G_GUINT64_FORMAT ",\"sha256\":\"%s\"}",
                          b->files->len > 0 ? "," : "", member, size, sha256);
}

/* A file holding @data at the @path_length bytes of @path, listed in the manifest when its
 * path can be. */
static void
add_file_len (Builder    *b,
              const char *path,
              gsize       path_length,
              const char *data)
{
  gsize length = strlen (data);

  put_header (b->body, 2, path, path_length);
  put_size (b->body, length);
  g_byte_array_append (b->body, (const guint8 *)data, (guint)length);
  {
    g_autofree char *sha256 = g_compute_checksum_for_string (G_CHECKSUM_SHA256, data, -1);

    list_file (b, path, path_length, length, sha256);
  }
}

static void
add_file (Builder    *b,
          const char *path,
          const char *data)
{
  add_file_len (b, path, strlen (path), data);
}

static void
add_end (Builder *b)
{
  put_header (b->body, 0, "", 0);
}

/* magic, manifest.json, the body. */
static GBytes *
builder_finish (Builder    *b,
                const char *magic)
{
  g_autofree char *manifest = g_strdup_printf ("{\"format_version\":1,\"files\":[%s]}",
                                               b->files->str);
  GByteArray      *bytes = g_byte_array_new ();

  g_byte_array_append (bytes, (const guint8 *)magic, 8);
  put_header (bytes, 2, "manifest.json", strlen ("manifest.json"));
  put_size (bytes, strlen (manifest));
  g_byte_array_append (bytes, (const guint8 *)manifest, (guint)strlen (manifest));
  g_byte_array_append (bytes, b->body->data, b->body->len);
  g_byte_array_unref (b->body);
  g_string_free (b->files, TRUE);
  return g_byte_array_free_to_bytes (bytes);
}

/* Reads the whole of @bytes, file contents too. */
static gboolean
read_all (GBytes  *bytes,
          guint   *n_entries,
          GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (LoomBackupArchiveReader) reader = loom_backup_archive_reader_new (in, "hostile");
  LoomBackupEntryKind kind;
  const char         *path;
  guint64             size;
  guint               n = 0;
  char                buffer[7];

  while (loom_backup_archive_reader_next (reader, &kind, &path, &size, NULL, error))
    {
      gssize got;

      n++;
      while ((got = loom_backup_archive_reader_read (reader, buffer, sizeof buffer, NULL, error)) >
             0)
        ;
      if (got < 0)
        return FALSE;
    }
  if (n_entries != NULL)
    *n_entries = n;
  return *error == NULL;
}

#define ESCAPE_NAME "loom-backup-archive-escape"

static void
assert_refused_everywhere (GBytes     *bytes,
                           const char *why,
                           const char *verify_why,
                           gboolean    extract)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *sandbox = loom_test_make_tmpdir ();
  g_autofree char *target = g_build_filename (sandbox, "target", NULL);
  g_autofree char *tree = NULL;
  g_autofree char *absolute = g_build_filename (g_get_tmp_dir (), ESCAPE_NAME, NULL);
  g_auto (GStrv) entries = NULL;
  guint n_fds = loom_test_count_fds ();

  g_assert_false (read_all (bytes, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
  g_test_message ("read: %s", error->message);
  g_assert_nonnull (strstr (error->message, why));
  g_assert_nonnull (strstr (error->message, "“hostile”"));
  g_assert_nonnull (strstr (error->message, " at byte "));
  g_clear_error (&error);

  {
    g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);

    g_assert_false (loom_backup_archive_verify (in, "hostile", NULL, NULL, &error));
    g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
    g_test_message ("verify: %s", error->message);
    g_assert_nonnull (strstr (error->message, verify_why != NULL ? verify_why : why));
    g_clear_error (&error);
  }

  if (extract)
    {
      g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
      int fd;

      g_assert_no_errno (g_mkdir (target, 0700));
      fd = open (target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      g_assert_cmpint (fd, >=, 0);
      g_assert_false (loom_backup_archive_extract (in, "hostile", fd, NULL, &error));
      close (fd);
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
      g_test_message ("extract: %s", error->message);
      g_assert_nonnull (strstr (error->message, why));

      /* Everything it made is inside the target: nothing beside it in the sandbox. */
      tree = loom_test_list_tree (sandbox, FALSE);
      entries = g_strsplit (tree, "\n", -1);
      for (guint i = 0; entries[i] != NULL; i++)
        g_assert_true (g_str_has_prefix (entries[i], "target/"));
      g_assert_cmpuint (loom_test_count_fds (), ==, n_fds);
      g_assert_false (g_file_test (absolute, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK));
    }
  loom_test_remove_tree (sandbox);
}

typedef struct
{
  const char *name;
  const char *why;
  void (*build) (Builder *b);
  const char *magic;      /* NULL: the right one */
  const char *verify_why; /* NULL: @why */
} Case;

static void
build_dotdot (Builder *b)
{
  add_folder (b, "a");
  add_file (b, "a/../" ESCAPE_NAME, "out");
}

static void
build_dotdot_first (Builder *b)
{
  add_file (b, "../" ESCAPE_NAME, "out");
}

static void
build_dot (Builder *b)
{
  add_folder (b, ".");
}

static void
build_absolute (Builder *b)
{
  g_autofree char *absolute = g_build_filename (g_get_tmp_dir (), ESCAPE_NAME, NULL);

  add_file (b, absolute, "out");
}

static void
build_empty (Builder *b)
{
  add_file (b, "", "nothing");
}

static void
build_empty_component (Builder *b)
{
  add_folder (b, "a");
  add_file (b, "a//b", "x");
}

static void
build_trailing_slash (Builder *b)
{
  add_folder (b, "a/");
}

static void
build_backslash (Builder *b)
{
  add_file (b, "..\\" ESCAPE_NAME, "out");
}

static void
build_nul (Builder *b)
{
  add_file_len (b, "a\0/../b", 7, "x");
}

static void
build_not_utf8 (Builder *b)
{
  add_file (b, "caf\xe9.txt", "x");
}

static void
build_too_long (Builder *b)
{
  g_autofree char *path = g_strnfill (4097, 'a');

  add_file (b, path, "x");
}

/* A length of 65,535 with nothing after it: refused before a byte of the path is awaited. */
static void
build_longest_length (Builder *b)
{
  static const guint8 header[3] = { 2, 0xff, 0xff };

  g_byte_array_append (b->body, header, sizeof header);
}

static void
build_too_deep (Builder *b)
{
  g_autoptr (GString) path = g_string_new ("d");

  /* 64 folders inside the top one are allowed; the 65th is not. */
  add_folder (b, path->str);
  for (guint i = 0; i < 65; i++)
    {
      g_string_append (path, "/d");
      add_folder (b, path->str);
    }
}

static void
build_duplicate_file (Builder *b)
{
  add_file (b, "a", "one");
  add_file (b, "a", "two");
}

static void
build_duplicate_folder (Builder *b)
{
  add_folder (b, "a");
  add_file (b, "a", "x");
}

static void
build_duplicate_manifest (Builder *b)
{
  add_file (b, "manifest.json", "{}");
}

static void
build_before_folder (Builder *b)
{
  add_file (b, "a/b", "x");
  add_folder (b, "a");
}

static void
build_below_file (Builder *b)
{
  add_file (b, "f", "x");
  add_file (b, "f/x", "y");
}

static void
build_unknown_kind (Builder *b)
{
  put_header (b->body, 3, "a", 1);
  add_end (b);
}

#define ZEROS "0000000000000000000000000000000000000000000000000000000000000000"

static void
build_size_past_end (Builder *b)
{
  list_file (b, "a", 1, 1000, ZEROS);
  put_header (b->body, 2, "a", 1);
  put_size (b->body, 1000);
  g_byte_array_append (b->body, (const guint8 *)"0123456789", 10);
}

static void
build_huge_size (Builder *b)
{
  list_file (b, "a", 1, 10, ZEROS);
  put_header (b->body, 2, "a", 1);
  put_size (b->body, G_MAXUINT64);
  g_byte_array_append (b->body, (const guint8 *)"0123456789", 10);
  add_end (b);
}

static void
build_no_end (Builder *b)
{
  add_folder (b, "a");
  add_file (b, "a/b", "x");
}

static void
build_cut_in_path (Builder *b)
{
  static const guint8 header[3] = { 2, 0, 10 };

  g_byte_array_append (b->body, header, sizeof header);
  g_byte_array_append (b->body, (const guint8 *)"abc", 3);
}

static void
build_cut_in_size (Builder *b)
{
  put_header (b->body, 2, "a", 1);
  g_byte_array_append (b->body, (const guint8 *)"\0\0\0", 3);
}

static void
build_trailing (Builder *b)
{
  add_file (b, "a", "x");
  add_end (b);
  g_byte_array_append (b->body, (const guint8 *)"x", 1);
}

static void
build_end_with_path (Builder *b)
{
  put_header (b->body, 0, "abc", 3);
}

static void
build_good (Builder *b)
{
  add_folder (b, "a");
  add_file (b, "a/b", "x");
  add_end (b);
}

static const Case cases[] = {
  { "dotdot", "“.” or “..” component", build_dotdot, NULL },
  { "dotdot-first", "“.” or “..” component", build_dotdot_first, NULL },
  { "dot", "“.” or “..” component", build_dot, NULL },
  { "absolute", "absolute", build_absolute, NULL },
  { "empty", "empty", build_empty, NULL },
  { "empty-component", "“a//b”: its path has an empty component", build_empty_component, NULL },
  { "trailing-slash", "empty component", build_trailing_slash, NULL },
  { "backslash", "backslash", build_backslash, NULL },
  { "nul", "NUL", build_nul, NULL },
  { "not-utf8", "not UTF-8", build_not_utf8, NULL },
  { "too-long", "longer than 4,096 bytes", build_too_long, NULL },
  { "longest-length", "longer than 4,096 bytes", build_longest_length, NULL },
  { "too-deep", "deeper than 64 folders", build_too_deep, NULL },
  { "duplicate-file", "“a”: its path is listed twice", build_duplicate_file, NULL },
  { "duplicate-folder", "listed twice", build_duplicate_folder, NULL },
  { "duplicate-manifest", "listed twice", build_duplicate_manifest, NULL },
  { "before-folder", "“a/b”: its folder is not listed before it", build_before_folder, NULL },
  { "below-file", "its folder is not listed before it", build_below_file, NULL },
  { "unknown-kind", "unknown kind", build_unknown_kind, NULL },
  { "size-past-end", "end before its size", build_size_past_end, NULL },
  { "huge-size", "end before its size", build_huge_size, NULL, "not the size" },
  { "no-end", "end before their end entry", build_no_end, NULL },
  { "cut-in-path", "end before their end entry", build_cut_in_path, NULL },
  { "cut-in-size", "end before their end entry", build_cut_in_size, NULL },
  { "trailing", "more follows its end entry", build_trailing, NULL },
  { "end-with-path", "end entry has a path", build_end_with_path, NULL },
  { "magic", "LOOMPKG1", build_good, "LOOMPKG2" },
};

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  Builder     b;
  g_autoptr (GBytes) bytes = NULL;

  builder_init (&b);
  c->build (&b);
  bytes = builder_finish (&b, c->magic != NULL ? c->magic : LOOM_BACKUP_ARCHIVE_MAGIC);
  assert_refused_everywhere (bytes, c->why, c->verify_why, TRUE);
}

/* The control: the same builder's well-formed container passes all three. */
static void
test_good (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GInputStream) in = NULL;
  g_autofree char *target = loom_test_make_tmpdir ();
  g_autofree char *file = g_build_filename (target, "a", "b", NULL);
  g_autofree char *contents = NULL;
  Builder          b;
  guint            n = 0;
  int              fd;

  builder_init (&b);
  build_good (&b);
  bytes = builder_finish (&b, LOOM_BACKUP_ARCHIVE_MAGIC);
  g_assert_true (read_all (bytes, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);

  in = g_memory_input_stream_new_from_bytes (bytes);
  g_assert_true (loom_backup_archive_verify (in, "good", &n, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);
  g_clear_object (&in);

  in = g_memory_input_stream_new_from_bytes (bytes);
  fd = open (target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_true (loom_backup_archive_extract (in, "good", fd, NULL, &error));
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "x");
  loom_test_remove_tree (target);
}

/* Links put in the target before the extract (by anyone who can write there) are not
 * followed: neither a folder's nor a file's name that a link holds already. */
static void
test_links_in_target (void)
{
  g_autofree char         *sandbox = loom_test_make_tmpdir ();
  g_autofree char         *target = g_build_filename (sandbox, "target", NULL);
  g_autofree char         *outside = g_build_filename (sandbox, "outside", NULL);
  g_autofree char         *folder_link = g_build_filename (target, "a", NULL);
  g_autofree char         *file_link = g_build_filename (target, "f", NULL);
  static const char *const containers[] = { "folder", "file" };

  g_assert_no_errno (g_mkdir (target, 0700));
  g_assert_no_errno (g_mkdir (outside, 0700));
  g_assert_no_errno (symlink ("../outside", folder_link));
  g_assert_no_errno (symlink ("../outside/f", file_link));
  for (guint i = 0; i < G_N_ELEMENTS (containers); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GInputStream) in = NULL;
      g_autofree char *tree = NULL;
      Builder          b;
      int              fd;

      builder_init (&b);
      if (i == 0)
        {
          add_folder (&b, "a");
          add_file (&b, "a/f", "out");
        }
      else
        add_file (&b, "f", "out");
      add_end (&b);
      bytes = builder_finish (&b, LOOM_BACKUP_ARCHIVE_MAGIC);
      in = g_memory_input_stream_new_from_bytes (bytes);
      fd = open (target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      g_assert_false (loom_backup_archive_extract (in, "hostile", fd, NULL, &error));
      close (fd);
      g_test_message ("%s: %s", containers[i], error->message);
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);
      tree = loom_test_list_tree (outside, FALSE);
      g_assert_cmpstr (tree, ==, "");
    }
  loom_test_remove_tree (sandbox);
}

static void
assert_verify_refused (GByteArray *bytes,
                       const char *why)
{
  g_autoptr (GBytes) container = g_byte_array_free_to_bytes (bytes);
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (container);
  g_autoptr (GError) error = NULL;

  g_assert_false (loom_backup_archive_verify (in, "hostile", NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
  g_test_message ("verify: %s", error->message);
  g_assert_nonnull (strstr (error->message, why));
}

/* A container with @manifest as its first file and nothing else. */
static GByteArray *
with_manifest (const char *manifest)
{
  GByteArray *bytes = g_byte_array_new ();

  g_byte_array_append (bytes, (const guint8 *)LOOM_BACKUP_ARCHIVE_MAGIC, 8);
  put_header (bytes, 2, "manifest.json", strlen ("manifest.json"));
  put_size (bytes, strlen (manifest));
  g_byte_array_append (bytes, (const guint8 *)manifest, (guint)strlen (manifest));
  put_header (bytes, 0, "", 0);
  return bytes;
}

/* What verify asks of the manifest beyond what the reader asks of the container. */
static void
test_verify_manifest (void)
{
  GByteArray *bytes;

  /* Not first. */
  bytes = g_byte_array_new ();
  g_byte_array_append (bytes, (const guint8 *)LOOM_BACKUP_ARCHIVE_MAGIC, 8);
  put_header (bytes, 1, "a", 1);
  put_header (bytes, 0, "", 0);
  assert_verify_refused (bytes, "does not begin with “manifest.json”");

  /* None at all. */
  bytes = g_byte_array_new ();
  g_byte_array_append (bytes, (const guint8 *)LOOM_BACKUP_ARCHIVE_MAGIC, 8);
  put_header (bytes, 0, "", 0);
  assert_verify_refused (bytes, "holds no package");

  /* Larger than any: refused from its size, before a byte of it is read or allocated. */
  bytes = g_byte_array_new ();
  g_byte_array_append (bytes, (const guint8 *)LOOM_BACKUP_ARCHIVE_MAGIC, 8);
  put_header (bytes, 2, "manifest.json", strlen ("manifest.json"));
  put_size (bytes, 64 * 1024 * 1024 + 1);
  assert_verify_refused (bytes, "larger than any package’s manifest");

  assert_verify_refused (with_manifest ("{\"format_version\":1,"), "it is not a manifest");
  assert_verify_refused (with_manifest ("[]"), "it is not a manifest");
  assert_verify_refused (with_manifest ("{\"format_version\":1,\"files\":[{\"path\":\"\xff\"}]}"),
                         "not UTF-8");
  assert_verify_refused (with_manifest ("{\"files\":[]}"), "it is not a manifest");
  assert_verify_refused (with_manifest ("{\"format_version\":1,\"files\":[{\"path\":\"../x\","
                                        "\"size\":0,\"sha256\":\"" ZEROS "\"}]}"),
                         "a path outside the package, “../x”");
  assert_verify_refused (with_manifest ("{\"format_version\":1,\"files\":[{\"path\":\"x\","
                                        "\"size\":-1,\"sha256\":\"" ZEROS "\"}]}"),
                         "“x”");
  assert_verify_refused (with_manifest ("{\"format_version\":1,\"files\":[{\"path\":\"x\","
                                        "\"size\":0,\"sha256\":\"abc\"}]}"),
                         "“x”");
  assert_verify_refused (with_manifest ("{\"format_version\":1,\"files\":[{\"path\":\"x\","
                                        "\"size\":0,\"sha256\":\"" ZEROS "\"},{\"path\":\"x\","
                                        "\"size\":0,\"sha256\":\"" ZEROS "\"}]}"),
                         "a file twice, “x”");
  /* Listed, not there. */
  assert_verify_refused (with_manifest ("{\"format_version\":1,\"files\":[{\"path\":\"x\","
                                        "\"size\":0,\"sha256\":\"" ZEROS "\"}]}"),
                         "lacks “x”");
}

/* The error names the offset where the entry begins. */
static void
test_offset (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autofree char *expected = NULL;
  Builder          b;
  gsize            manifest_length;

  builder_init (&b);
  add_folder (&b, "a");
  add_folder (&b, "a");
  add_end (&b);
  bytes = builder_finish (&b, LOOM_BACKUP_ARCHIVE_MAGIC);
  /* magic, the manifest's entry, the first folder's entry (3 + 1): the second begins there. */
  manifest_length = strlen ("{\"format_version\":1,\"files\":[]}");
  expected = g_strdup_printf ("at byte %" G_GSIZE_FORMAT " ",
                              8 + 3 + strlen ("manifest.json") + 8 + manifest_length + 4);
  g_assert_false (read_all (bytes, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, expected));
  g_assert_nonnull (strstr (error->message, "“a”"));
}

/* A million entries are the limit: one more is refused. Not extracted: a million folders
 * would only take time. */
static void
test_too_many_entries (void)
{
  g_autoptr (GBytes) at_limit = NULL;
  g_autoptr (GBytes) over = NULL;
  g_autoptr (GError) error = NULL;
  Builder b;
  guint   n = 0;

  builder_init (&b);
  /* manifest.json is the first of the million. */
  for (guint i = 1; i < 1000000; i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "%u", i);
      add_folder (&b, name);
    }
  {
    GByteArray *copy = g_byte_array_sized_new (b.body->len + 3);
    Builder     limit = { copy, g_string_new (b.files->str), FALSE };

    g_byte_array_append (copy, b.body->data, b.body->len);
    add_end (&limit);
    at_limit = builder_finish (&limit, LOOM_BACKUP_ARCHIVE_MAGIC);
  }
  add_folder (&b, "one-more");
  add_end (&b);
  over = builder_finish (&b, LOOM_BACKUP_ARCHIVE_MAGIC);

  g_assert_true (read_all (at_limit, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 1000000);
  assert_refused_everywhere (over, "more than 1,000,000 entries", NULL, FALSE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/backup-archive/hostile/", cases[i].name, NULL);

      g_test_add_data_func (path, &cases[i], test_case);
    }
  g_test_add_func ("/backup-archive/hostile/good", test_good);
  g_test_add_func ("/backup-archive/hostile/offset", test_offset);
  g_test_add_func ("/backup-archive/hostile/links-in-target", test_links_in_target);
  g_test_add_func ("/backup-archive/hostile/verify-manifest", test_verify_manifest);
  g_test_add_func ("/backup-archive/hostile/too-many-entries", test_too_many_entries);
  return g_test_run ();
}
