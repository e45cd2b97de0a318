/* test-backup-archive.c — real packages through the container of a backup and back.
 *
 * Sessions imported from the fixtures (with sub-agents, with artifacts) are exported into
 * packages, written as containers into memory, verified, extracted into empty folders that
 * then hold the same files byte for byte, and imported from there into an empty store. The
 * writer refuses a package with a link or a FIFO in it; verify refuses a container whose
 * package lost a file, gained one, or had a byte changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-backup-archive.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-export.h"
#include "loom-package-import.h"
#include "loom-test-utils.h"

typedef struct
{
  LoomTestStore base;
  char         *dir_b;
  char         *db_b;
  LoomStore    *store_b; /* empty, for the extracted packages */
  char         *dest;    /* the exported packages */
  char         *work;    /* the extracted ones */
  guint         n_extracted;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  loom_test_store_set_up (&f->base, data);
  f->store_b = loom_test_new_store (&f->dir_b, &f->db_b);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  f->work = g_build_filename (f->base.dir, "extracted", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
  g_assert_no_errno (g_mkdir (f->work, 0700));
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
  g_free (f->work);
  loom_test_store_tear_down (&f->base, data);
}

/* The container of the package folder @package, or NULL with @error. */
static GBytes *
write_container (const char *package,
                 guint      *n_files,
                 guint64    *n_bytes,
                 GError    **error)
{
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  int      fd = open (package, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  gboolean ok;

  g_assert_cmpint (fd, >=, 0);
  ok = loom_backup_archive_write (fd, out, n_files, n_bytes, NULL, error);
  close (fd);
  if (!ok)
    return NULL;
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static GBytes *
write_container_ok (const char *package)
{
  g_autoptr (GError) error = NULL;
  GBytes *bytes = write_container (package, NULL, NULL, &error);

  g_assert_no_error (error);
  return bytes;
}

static gboolean
verify_bytes (GBytes  *bytes,
              guint   *n_files,
              GError **error)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);

  return loom_backup_archive_verify (in, "test.loombackup", n_files, NULL, error);
}

/* Extracts @bytes into a new folder below f->work, whose path it returns. */
static char *
extract_ok (Fixture *f,
            GBytes  *bytes)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("%u", f->n_extracted++);
  char            *target = g_build_filename (f->work, name, NULL);
  int              fd;

  g_assert_no_errno (g_mkdir (target, 0700));
  fd = open (target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (loom_backup_archive_extract (in, "test.loombackup", fd, NULL, &error));
  g_assert_no_error (error);
  close (fd);
  return target;
}

/* Fails unless @a and @b hold the same folders and files, byte for byte. */
static void
assert_same_files (const char *a,
                   const char *b)
{
  g_autofree char *tree_a = loom_test_list_tree (a, TRUE);
  g_autofree char *tree_b = loom_test_list_tree (b, FALSE);
  g_autofree char *sized_b = loom_test_list_tree (b, TRUE);
  g_auto (GStrv) entries = g_strsplit (tree_b, "\n", -1);

  g_assert_cmpstr (tree_a, ==, sized_b);
  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_autofree char *path_a = NULL, *path_b = NULL, *data_a = NULL, *data_b = NULL;
      gsize            length_a, length_b;

      if (*entries[i] == '\0' || g_str_has_suffix (entries[i], "/"))
        continue;
      path_a = g_build_filename (a, entries[i], NULL);
      path_b = g_build_filename (b, entries[i], NULL);
      g_assert_true (g_file_get_contents (path_a, &data_a, &length_a, NULL));
      g_assert_true (g_file_get_contents (path_b, &data_b, &length_b, NULL));
      g_assert_cmpmem (data_a, length_a, data_b, length_b);
    }
}

/* The paths of the container's entries, in order, folders ending in "/". */
static GPtrArray *
list_entries (GBytes *bytes)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (LoomBackupArchiveReader) reader = loom_backup_archive_reader_new (in, "test");
  g_autoptr (GError) error = NULL;
  GPtrArray          *paths = g_ptr_array_new_with_free_func (g_free);
  LoomBackupEntryKind kind;
  const char         *path;
  guint64             size;

  while (loom_backup_archive_reader_next (reader, &kind, &path, &size, NULL, &error))
    g_ptr_array_add (paths, g_strconcat (path, kind == LOOM_BACKUP_ENTRY_FOLDER ? "/" : "", NULL));
  g_assert_no_error (error);
  g_assert_cmpint (kind, ==, LOOM_BACKUP_ENTRY_END);
  return paths;
}

/* Fails unless manifest.json comes first, then every folder right before what it holds, the
 * names of a folder in byte order. */
static void
assert_entry_order (GPtrArray *paths)
{
  g_autoptr (GHashTable) last = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_cmpuint (paths->len, >, 1);
  g_assert_cmpstr (paths->pdata[0], ==, "manifest.json");
  for (guint i = 1; i < paths->len; i++)
    {
      g_autofree char *path = g_strdup (paths->pdata[i]);
      const char      *before = paths->pdata[i - 1];
      const char      *slash;
      g_autofree char *folder = NULL;
      const char      *last_name;

      if (g_str_has_suffix (path, "/"))
        path[strlen (path) - 1] = '\0';
      slash = strrchr (path, '/');
      folder = slash != NULL ? g_strndup (path, (gsize)(slash - path + 1)) : g_strdup ("");
      g_assert_cmpstr (path, !=, "manifest.json");
      /* Inside a folder: right after it or after another entry inside it. */
      if (*folder != '\0')
        g_assert_true (g_str_has_prefix (before, folder));
      if ((last_name = g_hash_table_lookup (last, folder)) != NULL)
        g_assert_cmpint (strcmp (last_name, path), <, 0);
      g_hash_table_insert (last, g_strdup (folder), g_strdup (path));
    }
}

/* Exports @uuid, writes its container, verifies and extracts it, compares the copy with the
 * package and imports the copy into f->store_b; returns the import's result. */
static LoomPackageImportResult *
round_trip (Fixture    *f,
            const char *uuid)
{
  g_autoptr (LoomExportResult) result = loom_test_export_ok (f->base.store, uuid, f->dest, NULL);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) again = NULL;
  g_autoptr (GPtrArray) entries = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char         *copy = NULL;
  LoomPackageImportResult *imported = NULL;
  guint                    n_files = 0, n_verified = 0;
  guint64                  n_bytes = 0;

  g_test_message ("%s → %s", uuid, result->path);
  bytes = write_container (result->path, &n_files, &n_bytes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_files, ==, result->n_files);
  g_assert_cmpuint (n_bytes, ==, result->n_bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), 8, LOOM_BACKUP_ARCHIVE_MAGIC, 8);

  entries = list_entries (bytes);
  assert_entry_order (entries);

  g_assert_true (verify_bytes (bytes, &n_verified, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_verified, ==, result->n_files);

  copy = extract_ok (f, bytes);
  assert_same_files (result->path, copy);
  /* The same package gives the same bytes. */
  again = write_container_ok (copy);
  g_assert_true (g_bytes_equal (bytes, again));

  g_assert_true (loom_import_package (f->store_b, copy, &imported, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (imported);
  g_assert_cmpstr (imported->session_id, ==, result->session_id);
  g_assert_cmpuint (imported->n_files_verified + 1, ==, result->n_files);
  return imported;
}

static GPtrArray *
list_top_sessions (LoomStore *store)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;
  g_autoptr (GListModel) sessions = NULL;
  GPtrArray *uuids = g_ptr_array_new_with_free_func (g_free);

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

      if (loom_session_get_record (session)->parent_uuid == NULL)
        g_ptr_array_add (uuids, g_strdup (loom_session_get_uuid (session)));
    }
  return uuids;
}

static void
import_fixtures (Fixture           *f,
                 const char *const *relative)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; relative[i] != NULL; i++)
    g_ptr_array_add (paths, loom_test_fixture_path (relative[i], NULL));
  g_ptr_array_add (paths, NULL);
  loom_test_store_import_paths (&f->base, NULL, (const char *const *)paths->pdata);
}

static void
test_round_trip (Fixture      *f,
                 gconstpointer data)
{
  static const char *const fixtures[] = { "claude", "codex", "gemini", NULL };
  g_autoptr (GPtrArray) uuids = NULL;

  import_fixtures (f, fixtures);
  uuids = list_top_sessions (f->base.store);
  g_assert_cmpuint (uuids->len, >=, 5);
  for (guint i = 0; i < uuids->len; i++)
    {
      g_autoptr (LoomPackageImportResult) imported = round_trip (f, uuids->pdata[i]);
      g_autoptr (LoomSession)
        original = loom_store_get_session (f->base.store, uuids->pdata[i], NULL);
      g_autoptr (LoomSession) restored = loom_store_get_session (f->store_b, uuids->pdata[i], NULL);

      /* The session came back whole, from the extracted copy. */
      g_assert_nonnull (restored);
      g_assert_false (imported->already_stored);
      g_assert_cmpint (loom_session_get_record (restored)->message_count, ==,
                       loom_session_get_record (original)->message_count);
      g_assert_cmpstr (loom_session_get_title (restored), ==, loom_session_get_title (original));
    }
}

static void
test_subagents (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *claude = loom_test_fixture_path ("claude", "v2.1-progress", NULL);
  g_autofree char *codex = loom_test_fixture_path ("codex", "subagent", NULL);
  const char      *paths[] = { claude, codex, NULL };
  g_autoptr (GPtrArray) uuids = NULL;
  guint n_subagents = 0;

  loom_test_store_import_paths (&f->base, NULL, paths);
  uuids = list_top_sessions (f->base.store);
  for (guint i = 0; i < uuids->len; i++)
    {
      g_autoptr (LoomPackageImportResult) imported = round_trip (f, uuids->pdata[i]);

      n_subagents += imported->n_subagents;
    }
  /* The Claude Code session's and the Codex thread's, back in the second store. */
  g_assert_cmpuint (n_subagents, >=, 2);
}

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

#define ARTIFACT_SESSION "6d0c2b1a-3e4f-4a5b-9c8d-7e6f5a4b3c30"

/* A Claude Code session that read two files of a workspace, which its package then copies. */
static void
import_session_with_artifacts (Fixture *f)
{
  g_autofree char  *workspace = g_build_filename (f->base.dir, "workspace", NULL);
  g_autofree char  *a_c = g_build_filename (workspace, "src", "a.c", NULL);
  g_autofree char  *notes = g_build_filename (workspace, "docs", "説明.md", NULL);
  g_autofree char  *transcript = g_build_filename (f->base.dir, "claude", ARTIFACT_SESSION,
                                                   "transcript.jsonl", NULL);
  g_autofree char  *contents = NULL;
  static const char binary[] = { 'P', 'K', 3, 4, 0, 0, 'x', '\n' };

  write_file (a_c, "int a = 1;\n", -1);
  write_file (notes, binary, sizeof binary);
  contents = g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"1a\",\"parentUuid\":null,\"sessionId\":\"%s\","
    "\"cwd\":\"%s\",\"timestamp\":\"2026-05-01T10:00:01.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":\"Read them\"}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"2b\",\"parentUuid\":\"1a\",\"sessionId\":\"%s\","
    "\"cwd\":\"%s\",\"timestamp\":\"2026-05-01T10:00:02.000Z\","
    "\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"Read\","
    "\"input\":{\"file_path\":\"%s\"}},{\"type\":\"tool_use\",\"id\":\"toolu_02\","
    "\"name\":\"Read\",\"input\":{\"file_path\":\"%s\"}}]}}\n",
    ARTIFACT_SESSION, workspace, ARTIFACT_SESSION, workspace, a_c, notes);
  write_file (transcript, contents, -1);
  loom_test_store_import_path (&f->base, "claude-code", transcript);
}

static void
test_artifacts (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (LoomExportResult) result = NULL;
  g_autoptr (LoomPackageImportResult) imported = NULL;

  import_session_with_artifacts (f);
  result = loom_test_export_ok (f->base.store, ARTIFACT_SESSION, f->dest, NULL);
  g_assert_cmpuint (result->n_artifacts, ==, 2);
  loom_test_remove_tree (result->path);
  imported = round_trip (f, ARTIFACT_SESSION);
  g_assert_cmpuint (imported->n_messages, >, 0);
}

/* A package of the fixtures' first Claude Code session, in f->dest; its path. */
static char *
export_one (Fixture *f)
{
  static const char *const fixtures[] = { "claude", NULL };
  g_autoptr (GPtrArray) uuids = NULL;
  g_autoptr (LoomExportResult) result = NULL;

  import_fixtures (f, fixtures);
  uuids = list_top_sessions (f->base.store);
  result = loom_test_export_ok (f->base.store, uuids->pdata[0], f->dest, NULL);
  return g_strdup (result->path);
}

static void
assert_write_refused (const char *package,
                      gint        code,
                      const char *named)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) bytes = write_container (package, NULL, NULL, &error);

  g_assert_null (bytes);
  g_assert_error (error, LOOM_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, named));
}

/* Cancelled, each of them stops with G_IO_ERROR_CANCELLED and closes what it opened. */
static void
test_cancelled (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *package = export_one (f);
  g_autoptr (GBytes) bytes = write_container_ok (package);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *target = g_build_filename (f->work, "cancelled", NULL);
  guint            n_fds = loom_test_count_fds ();
  int              fd;

  g_cancellable_cancel (cancellable);
  fd = open (package, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_false (loom_backup_archive_write (fd, out, NULL, NULL, cancellable, &error));
  close (fd);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  in = g_memory_input_stream_new_from_bytes (bytes);
  g_assert_false (loom_backup_archive_verify (in, "test", NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&in);

  g_assert_no_errno (g_mkdir (target, 0700));
  in = g_memory_input_stream_new_from_bytes (bytes);
  fd = open (target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_false (loom_backup_archive_extract (in, "test", fd, cancellable, &error));
  close (fd);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (loom_test_count_fds (), ==, n_fds);
}

static void
test_writer_refuses (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *package = export_one (f);
  guint            n_fds = loom_test_count_fds ();
  g_autofree char *link = g_build_filename (package, "artifacts", "elsewhere", NULL);
  g_autofree char *fifo = g_build_filename (package, "artifacts", "fifo", NULL);
  g_autofree char *manifest = g_build_filename (package, "manifest.json", NULL);
  g_autofree char *moved = g_build_filename (f->base.dir, "manifest.json", NULL);

  g_assert_no_errno (symlink ("/etc", link));
  assert_write_refused (package, LOOM_ERROR_CORRUPT, "“artifacts/elsewhere”");
  g_assert_no_errno (g_unlink (link));

  /* Opened without blocking, refused without reading. */
  g_assert_no_errno (mkfifo (fifo, 0600));
  assert_write_refused (package, LOOM_ERROR_CORRUPT, "“artifacts/fifo”");
  g_assert_no_errno (g_unlink (fifo));

  /* A manifest.json that is a link is no package's. */
  g_assert_no_errno (g_rename (manifest, moved));
  g_assert_no_errno (symlink (moved, manifest));
  assert_write_refused (package, LOOM_ERROR_INVALID_ARGUMENT, "manifest.json");
  g_assert_no_errno (g_unlink (manifest));
  assert_write_refused (package, LOOM_ERROR_INVALID_ARGUMENT, "manifest.json");
  g_assert_no_errno (g_rename (moved, manifest));

  g_bytes_unref (write_container_ok (package));
  g_assert_cmpuint (loom_test_count_fds (), ==, n_fds);
}

static void
assert_verify_refused (GBytes     *bytes,
                       const char *named,
                       const char *why)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (verify_bytes (bytes, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, named));
  g_assert_nonnull (strstr (error->message, why));
}

static void
test_verify_refuses (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *package = export_one (f);
  g_autofree char *conversation = g_build_filename (package, "conversation.md", NULL);
  g_autofree char *metadata = g_build_filename (package, "metadata.json", NULL);
  g_autofree char *extra = g_build_filename (package, "artifacts", "extra.txt", NULL);
  g_autofree char *text = NULL;
  g_autofree char *metadata_text = NULL;
  g_autoptr (GBytes) bytes = write_container_ok (package);
  g_autoptr (GBytes) tampered = NULL;
  gsize             length, metadata_length;
  const guint8     *data8;
  gsize             size;
  const guint8     *found;
  static const char record[] = "\"type\":\"session\"";

  /* A byte of session.jsonl changed in the container itself. */
  data8 = g_bytes_get_data (bytes, &size);
  found = NULL;
  for (gsize i = 0; found == NULL && i + strlen (record) <= size; i++)
    {
      if (memcmp (data8 + i, record, strlen (record)) == 0)
        found = data8 + i;
    }
  g_assert_nonnull (found);
  {
    guint8 *copy = g_memdup2 (data8, size);

    copy[found - data8 + 2] ^= 0x20;
    tampered = g_bytes_new_take (copy, size);
  }
  assert_verify_refused (tampered, "“session.jsonl”", "SHA-256");
  g_clear_pointer (&tampered, g_bytes_unref);

  /* A byte of a file changed in the package, then written. */
  g_assert_true (g_file_get_contents (conversation, &text, &length, NULL));
  text[length / 2] ^= 0x01;
  write_file (conversation, text, (gssize)length);
  tampered = write_container_ok (package);
  assert_verify_refused (tampered, "“conversation.md”", "SHA-256");
  g_clear_pointer (&tampered, g_bytes_unref);

  /* Longer by a byte. */
  text[length / 2] ^= 0x01;
  {
    g_autofree char *longer = g_strconcat (text, "\n", NULL);

    write_file (conversation, longer, (gssize)length + 1);
  }
  tampered = write_container_ok (package);
  assert_verify_refused (tampered, "“conversation.md”", "size");
  g_clear_pointer (&tampered, g_bytes_unref);
  write_file (conversation, text, (gssize)length);

  /* A file the manifest lists is missing. */
  g_assert_true (g_file_get_contents (metadata, &metadata_text, &metadata_length, NULL));
  g_assert_no_errno (g_unlink (metadata));
  tampered = write_container_ok (package);
  assert_verify_refused (tampered, "“metadata.json”", "lacks");
  g_clear_pointer (&tampered, g_bytes_unref);
  write_file (metadata, metadata_text, (gssize)metadata_length);

  /* One it does not list is there. */
  write_file (extra, "not ours\n", -1);
  tampered = write_container_ok (package);
  assert_verify_refused (tampered, "“artifacts/extra.txt”", "does not list");
  g_clear_pointer (&tampered, g_bytes_unref);
  g_assert_no_errno (g_unlink (extra));

  /* Put back as it was, it verifies again. */
  tampered = write_container_ok (package);
  g_assert_true (g_bytes_equal (tampered, bytes));
  g_assert_true (verify_bytes (tampered, NULL, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/backup-archive/round-trip", test_round_trip);
  ADD ("/backup-archive/subagents", test_subagents);
  ADD ("/backup-archive/artifacts", test_artifacts);
  ADD ("/backup-archive/writer-refuses", test_writer_refuses);
  ADD ("/backup-archive/cancelled", test_cancelled);
  ADD ("/backup-archive/verify-refuses", test_verify_refuses);
#undef ADD

  return g_test_run ();
}
