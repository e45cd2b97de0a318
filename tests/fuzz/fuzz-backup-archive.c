/* fuzz-backup-archive.c — the container of a backup (loom-backup-archive.h) on any bytes, as the
 * plaintext of a .loombackup: the reader, verify and extract into an empty folder. None of them
 * reads past the input or makes anything outside the folder; they agree on whether the bytes
 * are a container; and a container that verifies extracts into a package that writes and
 * verifies again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <unistd.h>

#include "loom-backup-archive.h"
#include "loom-error.h"
#include "loom-fuzz.h"
#include "loom-test-utils.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  return 0;
}

/* Reads every entry and every byte; TRUE when the whole is a container. */
static gboolean
read_all (GBytes *bytes,
          gsize   size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (LoomBackupArchiveReader) reader = loom_backup_archive_reader_new (in, "fuzz");
  g_autoptr (GError) error = NULL;
  LoomBackupEntryKind kind;
  const char         *path;
  guint64             entry_size;
  guint64             total = 0;
  guint8              buffer[4096];

  while (loom_backup_archive_reader_next (reader, &kind, &path, &entry_size, NULL, &error))
    {
      gssize n;

      g_assert_true (kind == LOOM_BACKUP_ENTRY_FOLDER || kind == LOOM_BACKUP_ENTRY_FILE);
      g_assert_true (g_utf8_validate (path, -1, NULL));
      g_assert_true (path[0] != '\0' && path[0] != '/');
      while ((n = loom_backup_archive_reader_read (reader, buffer, sizeof buffer, NULL, &error)) >
             0)
        total += (guint64)n;
      if (n < 0)
        break;
    }
  g_assert_cmpuint (total, <=, size);
  if (error != NULL)
    {
      g_assert_true (error->domain == LOOM_ERROR);
      return FALSE;
    }
  g_assert_cmpint (kind, ==, LOOM_BACKUP_ENTRY_END);
  return TRUE;
}

static gboolean
verify (GBytes *bytes)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr (GError) error = NULL;
  gboolean ok = loom_backup_archive_verify (in, "fuzz", NULL, NULL, &error);

  g_assert_true (ok == (error == NULL));
  if (error != NULL)
    g_assert_true (error->domain == LOOM_ERROR);
  return ok;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autofree char *sandbox = g_build_filename (loom_fuzz_tmpdir (), "sandbox", NULL);
  g_autofree char *target = g_build_filename (sandbox, "target", NULL);
  gboolean         is_container = read_all (bytes, size);
  gboolean         verified = verify (bytes);
  gboolean         extracted;
  int              fd;

  /* Verify reads through the same reader: it refuses all that the reader refuses. */
  g_assert_true (is_container || !verified);

  g_assert_cmpint (g_mkdir_with_parents (target, 0700), ==, 0);
  fd = open (target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  {
    g_autoptr (GInputStream) in = g_memory_input_stream_new_from_bytes (bytes);

    extracted = loom_backup_archive_extract (in, "fuzz", fd, NULL, &error);
  }
  g_assert_true (extracted == (error == NULL));
  /* What is not a container is never extracted whole; a container fails only on the file
   * system (a name longer than it allows). */
  if (!is_container)
    g_assert_false (extracted);
  else if (!extracted)
    g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);

  /* Nothing beside the target (a name may hold a newline: the sandbox's own names are read). */
  {
    g_autoptr (GDir) dir = g_dir_open (sandbox, 0, NULL);
    const char *name;

    g_assert_nonnull (dir);
    while ((name = g_dir_read_name (dir)) != NULL)
      g_assert_cmpstr (name, ==, "target");
  }

  /* A package that verified comes out as one: written again, it verifies again. */
  if (verified && extracted)
    {
      g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
      g_autoptr (GBytes) again = NULL;

      g_assert_true (loom_backup_archive_write (fd, out, NULL, NULL, NULL, NULL));
      g_assert_true (g_output_stream_close (out, NULL, NULL));
      again = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
      g_assert_true (verify (again));
    }
  close (fd);
  loom_test_remove_tree (sandbox);
  return 0;
}
