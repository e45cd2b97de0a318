/* loom-fuzz.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "loom-core.h"
#include "loom-fuzz.h"
#include "loom-import.h"
#include "loom-json-value.h"
#include "loom-session.h"
#include "loom-store.h"
#include "loom-test-utils.h"

static char *tmpdir;

void
loom_fuzz_init (void)
{
  loom_core_init ();

  g_log_set_always_fatal (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  /* The importers read nothing but the file they are given, but nothing may reach the real
   * home folder's agents or store either. */
  g_setenv ("HOME", loom_fuzz_tmpdir (), TRUE);
  g_setenv ("XDG_DATA_HOME", loom_fuzz_tmpdir (), TRUE);
  g_setenv ("XDG_CONFIG_HOME", loom_fuzz_tmpdir (), TRUE);
  g_setenv ("XDG_CACHE_HOME", loom_fuzz_tmpdir (), TRUE);
}

static void
remove_tmpdir (void)
{
  if (tmpdir != NULL)
    loom_test_remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);
}

const char *
loom_fuzz_tmpdir (void)
{
  g_autoptr (GError) error = NULL;

  if (tmpdir != NULL)
    return tmpdir;
  /* Memory rather than disk where there is one: a store is written for every input. */
  if (g_getenv ("TMPDIR") == NULL && g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR))
    g_setenv ("TMPDIR", "/dev/shm", TRUE);
  tmpdir = g_dir_make_tmp ("loom-fuzz-XXXXXX", &error);
  g_assert_no_error (error);
  atexit (remove_tmpdir);
  return tmpdir;
}

void
loom_fuzz_write_file (const char    *path,
                      const uint8_t *data,
                      size_t         size)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  /* Not g_file_set_contents (): its rename would leave a new inode every time, and the
   * importers' cursors would see a rewrite where a test wants plain bytes. */
  {
    FILE *fp = fopen (path, "wb");

    g_assert_nonnull (fp);
    g_assert_cmpuint (fwrite (data, 1, size, fp), ==, size);
    g_assert_cmpint (fclose (fp), ==, 0);
  }
}

/* The bytes of a store just created: a copy for every input is far quicker than creating the
 * schema again, and no input sees what the one before it imported. */
static GBytes *
template_store (void)
{
  static GBytes *template;

  if (template == NULL)
    {
      g_autofree char *path = g_build_filename (loom_fuzz_tmpdir (), "template.db", NULL);
      g_autoptr (GError) error = NULL;
      LoomStore *store;
      char      *contents;
      gsize      length;

      store = loom_store_open (path, &error);
      g_assert_no_error (error);
      g_object_unref (store);
      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);
      template = g_bytes_new_take (contents, length);
      g_remove (path);
    }
  return template;
}

/* Reads back what the import wrote, as `loom sessions list --json` and the timeline do. */
static void
read_back (LoomStore *store)
{
  LoomSessionQuery query = { 0 };
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
      g_autoptr (JsonNode) json = loom_session_to_json (session);
      g_autoptr (GListModel) timeline = NULL;

      g_assert_nonnull (json);
      timeline = loom_store_list_timeline (store, loom_session_get_uuid (session), 0, 0, &error);
      g_assert_no_error (error);
      g_assert_nonnull (timeline);
    }
}

void
loom_fuzz_import (const char    *source,
                  const char    *relative_path,
                  const uint8_t *data,
                  size_t         size)
{
  g_autofree char  *path = g_build_filename (loom_fuzz_tmpdir (), relative_path, NULL);
  g_autofree char  *db = g_build_filename (loom_fuzz_tmpdir (), "history.db", NULL);
  g_autofree char  *wal = g_strconcat (db, "-wal", NULL);
  g_autofree char  *shm = g_strconcat (db, "-shm", NULL);
  const char       *paths[] = { path, NULL };
  LoomImportOptions options = { source, paths };
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;
  GBytes *template = template_store ();
  LoomStore *store;

  loom_fuzz_write_file (path, data, size);
  loom_fuzz_write_file (db, g_bytes_get_data (template, NULL), g_bytes_get_size (template));
  store = loom_store_open (db, &error);
  g_assert_no_error (error);

  /* A file the format cannot read at all fails the file, not the pass. */
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  /* Even forced, a file that is plainly another agent's is skipped, with a warning. */
  g_assert_cmpuint (stats->files_seen + (stats->warnings->len > 0 ? 1 : 0), >=, 1);
  /* Every warning names the file it is about. */
  for (guint i = 0; i < stats->warnings->len; i++)
    g_assert_true (g_str_has_prefix (g_ptr_array_index (stats->warnings, i), path));
  g_assert_cmpuint (stats->waiting->len, <=, stats->warnings->len);

  read_back (store);

  g_object_unref (store);
  g_remove (path);
  g_remove (db);
  g_remove (wal);
  g_remove (shm);
}

gboolean
loom_fuzz_looks_like_jsonl (const uint8_t *data,
                            size_t         size)
{
  static LoomJsonDoc *doc;
  const uint8_t      *newline = memchr (data, '\n', size);

  if (doc == NULL)
    doc = loom_json_doc_new ();
  return loom_json_doc_parse (doc, (const char *)data,
                              newline != NULL ? (gsize)(newline - data) : size, NULL) != NULL;
}

void
loom_fuzz_import_json_or_jsonl (const char    *source,
                                const char    *relative_stem,
                                const uint8_t *data,
                                size_t         size)
{
  g_autofree char *relative_path = g_strconcat (
    relative_stem, loom_fuzz_looks_like_jsonl (data, size) ? ".jsonl" : ".json", NULL);

  loom_fuzz_import (source, relative_path, data, size);
}
