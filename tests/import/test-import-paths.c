/* test-import-paths.c — one file is one file, whichever path reaches it.
 *
 * A folder reached through a link, a relative path, "./" and "//": the files are those already
 * imported, unchanged, and nothing is stored twice (records without ids of their own, such as
 * Claude's snapshots, were). A store that keyed a file by a linked spelling takes it over. A
 * relative import does not leave sessions that another folder's import takes for gone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "loom-core.h"
#include "loom-import.h"
#include "loom-test-utils.h"

typedef struct
{
  char            *dir;
  char            *db;
  char            *real; /* the Claude fixtures, copied */
  char            *link; /* a link to @real */
  LoomStore       *store;
  LoomImportStats *stats;
  guint            n_files;
} Fixture;

static char *
fixture_path (const char *relative)
{
  return loom_test_fixture_path (relative, NULL);
}

/* Copies @from into @to, folders and files; returns how many .jsonl files. */
static guint
copy_tree (const char *from,
           const char *to)
{
  g_autoptr (GDir) listing = g_dir_open (from, 0, NULL);
  const char *name;
  guint       n = 0;

  g_assert_nonnull (listing);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        n += copy_tree (source, target);
      else
        {
          g_autofree char *contents = NULL;
          g_autoptr (GError) error = NULL;
          gsize length = 0;

          g_file_get_contents (source, &contents, &length, &error);
          g_assert_no_error (error);
          g_file_set_contents (target, contents, (gssize)length, &error);
          g_assert_no_error (error);
          n += g_str_has_suffix (name, ".jsonl");
        }
    }
  return n;
}

/* A .jsonl file somewhere below @dir. */
static char *
first_session_file (const char *dir)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      char            *found;

      if (g_str_has_suffix (name, ".jsonl"))
        return g_steal_pointer (&path);
      if (g_file_test (path, G_FILE_TEST_IS_DIR) && (found = first_session_file (path)) != NULL)
        return found;
    }
  return NULL;
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *claude = fixture_path ("claude");
  g_autoptr (GError) error = NULL;

  f->dir = loom_test_make_tmpdir ();
  f->db = g_build_filename (f->dir, "history.db", NULL);
  f->real = g_build_filename (f->dir, "real", NULL);
  f->link = g_build_filename (f->dir, "link", NULL);
  f->n_files = copy_tree (claude, f->real);
  g_assert_cmpuint (f->n_files, >, 5);
  g_assert_cmpint (symlink (f->real, f->link), ==, 0);
  f->store = loom_store_open (f->db, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_clear_pointer (&f->stats, loom_import_stats_free);
  g_assert_finalize_object (f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->db);
  g_free (f->real);
  g_free (f->link);
}

static void
import_paths (Fixture           *f,
              const char        *source,
              const char *const *paths)
{
  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_test_import_paths (f->store, source, paths);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
}

static void
import_path (Fixture    *f,
             const char *path)
{
  const char *paths[] = { path, NULL };

  import_paths (f, "claude-code", paths);
}

typedef struct
{
  gint64 sessions, messages, events, cursors;
  char  *texts; /* every message's text and every event's payload, in order */
} Rows;

static Rows
rows_now (Fixture *f)
{
  Rows rows = {
    loom_test_count_rows (f->db, "sessions"),
    loom_test_count_rows (f->db, "messages"),
    loom_test_count_rows (f->db, "events"),
    loom_test_count_rows (f->db, "import_cursors"),
    NULL,
  };
  /* A checksum of the texts: a streamed message read twice grows by its own text. */
  gint64 length = loom_test_query_int (f->db, "SELECT total (length (text)) FROM messages", NULL);
  gint64 payloads = loom_test_query_int (f->db, "SELECT total (length (payload)) FROM events",
                                         NULL);

  rows.texts = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, length, payloads);
  return rows;
}

static void
assert_rows_equal (const Rows *a,
                   const Rows *b)
{
  g_assert_cmpint (a->sessions, ==, b->sessions);
  g_assert_cmpint (a->messages, ==, b->messages);
  g_assert_cmpint (a->events, ==, b->events);
  g_assert_cmpint (a->cursors, ==, b->cursors);
  g_assert_cmpstr (a->texts, ==, b->texts);
}

/* Every session's path is below @folder, and none is taken for gone. */
static void
assert_paths_below (Fixture    *f,
                    const char *folder)
{
  g_autofree char *pattern = g_strdup_printf ("%s/*", folder);

  g_assert_cmpint (
    loom_test_query_int (f->db,
                         "SELECT count(*) FROM sessions"
                         " WHERE source_path IS NOT NULL AND source_path NOT GLOB ?1",
                         pattern),
    ==, 0);
  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM import_cursors"
                                        " WHERE source_path NOT GLOB ?1",
                                        pattern),
                   ==, 0);
  g_assert_cmpint (
    loom_test_query_int (f->db, "SELECT count(*) FROM sessions WHERE source_missing", NULL), ==, 0);
}

/* The folder, then through a link to it, "./" and "//" in the path, and a relative path. */
static void
test_spellings (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *dotted = g_strdup_printf ("%s/./link//", f->dir);
  g_autofree char *cwd = g_get_current_dir ();
  Rows             first, now;

  import_path (f, f->real);
  g_assert_cmpuint (f->stats->files_imported, ==, f->n_files);
  first = rows_now (f);
  g_assert_cmpint (first.cursors, ==, f->n_files);

  import_path (f, f->link);
  g_assert_cmpuint (f->stats->files_unchanged, ==, f->n_files);
  import_path (f, dotted);
  g_assert_cmpuint (f->stats->files_unchanged, ==, f->n_files);
  g_assert_cmpint (chdir (f->dir), ==, 0);
  import_path (f, "link");
  g_assert_cmpuint (f->stats->files_unchanged, ==, f->n_files);
  g_assert_cmpint (chdir (cwd), ==, 0);

  now = rows_now (f);
  assert_rows_equal (&first, &now);
  assert_paths_below (f, f->real);

  /* A file deleted is found gone below any spelling of its folder, trailing separators too. */
  {
    g_autofree char *gone = first_session_file (f->real);

    g_assert_cmpint (g_unlink (gone), ==, 0);
    import_path (f, dotted);
    g_assert_cmpuint (f->stats->sessions_missing, >=, 1);
  }
  g_free (first.texts);
  g_free (now.texts);
}

/* Both spellings named in one pass: each file is read once. */
static void
test_both_in_one_pass (Fixture      *f,
                       gconstpointer data)
{
  const char *paths[] = { f->link, f->real, NULL };
  Rows        both, alone;

  import_paths (f, "claude-code", paths);
  g_assert_cmpuint (f->stats->files_seen, ==, f->n_files);
  g_assert_cmpuint (f->stats->files_imported, ==, f->n_files);
  both = rows_now (f);

  /* The same files once, into a new store. */
  g_clear_pointer (&f->stats, loom_import_stats_free);
  g_assert_finalize_object (f->store);
  g_assert_cmpint (g_unlink (f->db), ==, 0);
  {
    g_autoptr (GError) error = NULL;

    f->store = loom_store_open (f->db, &error);
    g_assert_no_error (error);
  }
  import_path (f, f->real);
  alone = rows_now (f);
  assert_rows_equal (&both, &alone);
  assert_paths_below (f, f->real);
  g_free (both.texts);
  g_free (alone.texts);
}

/* A store made before paths were resolved keyed the files by the link they were reached by.
 * Reached the same way, they are found unchanged, and take the resolved name; reached by the
 * resolved one after, they still are. */
static void
test_store_keyed_by_link (Fixture      *f,
                          gconstpointer data)
{
  g_autofree char *to_link = NULL;
  Rows             first, now;

  import_path (f, f->real);
  first = rows_now (f);
  to_link = g_strdup_printf (
    "UPDATE import_cursors SET source_path = '%s' || substr (source_path, %u);"
    "UPDATE sessions SET source_path = '%s' || substr (source_path, %u)"
    " WHERE source_path IS NOT NULL;",
    f->link, (guint)strlen (f->real) + 1, f->link, (guint)strlen (f->real) + 1);
  loom_test_exec_sql (f->db, to_link);
  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM import_cursors"
                                        " WHERE source_path GLOB ?1 || '/*'",
                                        f->link),
                   ==, f->n_files);

  import_path (f, f->link);
  g_assert_cmpuint (f->stats->files_unchanged, ==, f->n_files);
  assert_paths_below (f, f->real);
  import_path (f, f->real);
  g_assert_cmpuint (f->stats->files_unchanged, ==, f->n_files);

  now = rows_now (f);
  assert_rows_equal (&first, &now);
  g_free (first.texts);
  g_free (now.texts);
}

/* A folder imported by a relative path, then another folder the same way from there: the
 * first folder's sessions are not taken for gone, and their paths are whole. */
static void
test_relative_folders (Fixture      *f,
                       gconstpointer data)
{
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *other = g_build_filename (f->dir, "other", NULL);
  g_autofree char *streamed = g_build_filename (f->real, "streamed-tool-error", NULL);
  g_autofree char *non_ascii = g_build_filename (f->real, "non-ascii", NULL);

  g_assert_cmpint (g_rename (non_ascii, other), ==, 0);
  g_assert_cmpint (chdir (streamed), ==, 0);
  import_path (f, ".");
  g_assert_cmpuint (f->stats->files_imported, >, 0);
  g_assert_cmpint (chdir (other), ==, 0);
  import_path (f, ".");
  g_assert_cmpuint (f->stats->files_imported, >, 0);
  g_assert_cmpuint (f->stats->sessions_missing, ==, 0);
  g_assert_cmpint (chdir (cwd), ==, 0);

  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT count(*) FROM sessions"
                                        " WHERE source_path NOT GLOB '/*'",
                                        NULL),
                   ==, 0);
  g_assert_cmpint (
    loom_test_query_int (f->db, "SELECT count(*) FROM sessions WHERE source_missing", NULL), ==, 0);
}

static void
add_test (const char *path,
          void (*func) (Fixture *,
                        gconstpointer))
{
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *home = g_dir_make_tmp ("loom-paths-home-XXXXXX", NULL);
  int              status;

  /* The agents' default roots point into a throwaway home. */
  g_assert_nonnull (home);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("CODEX_HOME", home, TRUE);
  g_setenv ("CLAUDE_CONFIG_DIR", home, TRUE);
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  add_test ("/import-paths/spellings", test_spellings);
  add_test ("/import-paths/both-in-one-pass", test_both_in_one_pass);
  add_test ("/import-paths/store-keyed-by-link", test_store_keyed_by_link);
  add_test ("/import-paths/relative-folders", test_relative_folders);

  status = g_test_run ();
  loom_test_remove_tree (home);
  return status;
}
