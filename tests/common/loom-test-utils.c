/* loom-test-utils.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <libsecret/secret.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>

#include "loom-search-tokenizer.h"
#include "loom-test-utils.h"
#include "loom-time.h"

char *
loom_test_make_tmpdir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("loom-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
loom_test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_remove (path);
      return;
    }

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      loom_test_remove_tree (child);
    }
  g_rmdir (path);
}

LoomStore *
loom_test_new_store (char **dir,
                     char **db_path)
{
  g_autoptr (GError) error = NULL;
  LoomStore *store;

  *dir = loom_test_make_tmpdir ();
  *db_path = g_build_filename (*dir, "history.db", NULL);
  store = loom_store_open (*db_path, &error);
  g_assert_no_error (error);
  return store;
}

void
loom_test_store_set_up (LoomTestStore *f,
                        gconstpointer  data)
{
  f->store = loom_test_new_store (&f->dir, &f->db);
}

void
loom_test_store_tear_down (LoomTestStore *f,
                           gconstpointer  data)
{
  g_clear_pointer (&f->stats, loom_import_stats_free);
  g_assert_finalize_object (f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->db);
}

void
loom_test_store_import_paths (LoomTestStore     *f,
                              const char        *source,
                              const char *const *paths)
{
  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_test_import_paths (f->store, source, paths);
}

void
loom_test_store_import_path (LoomTestStore *f,
                             const char    *source,
                             const char    *path)
{
  const char *paths[] = { path, NULL };

  loom_test_store_import_paths (f, source, paths);
}

char *
loom_test_fixture_path (const char *first,
                        ...)
{
  const char *root = g_getenv ("LOOM_TEST_FIXTURES");
  g_autoptr (GPtrArray) parts = g_ptr_array_new ();
  const char *part;
  va_list     args;

  g_assert_nonnull (root);
  g_ptr_array_add (parts, (gpointer)root);
  va_start (args, first);
  for (part = first; part != NULL; part = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer)part);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **)parts->pdata);
}

LoomImportStats *
loom_test_import_paths (LoomStore         *store,
                        const char        *source,
                        const char *const *paths)
{
  LoomImportOptions options = { source, paths };
  LoomImportStats  *stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < stats->warnings->len; i++)
    g_test_message ("warning: %s", (const char *)g_ptr_array_index (stats->warnings, i));
  return stats;
}

char *
loom_test_add_session (LoomStore  *store,
                       const char *title,
                       const char *source,
                       const char *word,
                       guint       n_messages,
                       guint       n_events,
                       gint64      updated_at)
{
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
  g_autoptr (GError) error = NULL;

  record->title = g_strdup (title);
  record->source = g_strdup (source);
  record->source_session_id = g_uuid_string_random ();
  record->project_path = g_strdup ("/home/ada/src/loom");
  record->cwd = g_strdup ("/home/ada/src/loom");
  record->created_at = updated_at - 60 * 1000;
  record->updated_at = updated_at;
  g_assert_true (loom_store_insert_session (store, record, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < n_messages; i++)
    {
      g_autofree char *text = g_strdup_printf ("message %u about %s", i, word);
      gint64 id = loom_store_add_message (store, record->id, i % 2 ? "assistant" : "user", text,
                                          record->created_at + i, &error);
      g_assert_no_error (error);
      g_assert_cmpint (id, >, 0);
    }
  for (guint i = 0; i < n_events; i++)
    {
      g_autofree char *payload = g_strdup_printf ("{\"command\":\"grep %s\"}", word);
      gint64           id = loom_store_add_event (store, record->id, "tool_call", "Bash", payload,
                                                  record->created_at + i, &error);
      g_assert_no_error (error);
      g_assert_cmpint (id, >, 0);
    }

  return g_strdup (record->uuid);
}

LoomSession *
loom_test_find_session (LoomStore  *store,
                        const char *source_session_id)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

      if (g_strcmp0 (loom_session_get_record (session)->source_session_id, source_session_id) == 0)
        return g_steal_pointer (&session);
    }
  return NULL;
}

gint64
loom_test_query_int (const char *db_path,
                     const char *sql,
                     const char *text)
{
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64        value;

  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (text != NULL)
    sqlite3_bind_text (stmt, 1, text, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}

gint64
loom_test_count_rows (const char *db_path,
                      const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT count(*) FROM \"%s\"", table);

  return loom_test_query_int (db_path, sql, NULL);
}

gint64
loom_test_count_matches (const char *db_path,
                         const char *word)
{
  return loom_test_query_int (
    db_path, "SELECT count(*) FROM search_index WHERE search_index MATCH ?1", word);
}

char *
loom_test_file_checksum (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize            length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *)contents, length);
}

/* Written out here rather than taken from the schema, so that the test states independently
 * what the index should hold: each entry's row in search_entries … */
static const char expected_entries_sql[] =
  "SELECT (1 << 41) + id AS id, id AS session_id, 'title' AS kind, 0 AS created_at,"
  "       'xkindtitle xagent' || source AS facets"
  "  FROM sessions"
  " UNION ALL "
  "SELECT (1 << 40) + id, session_id,"
  "       'message:' || (CASE WHEN role = 'user' AND flags & 31 != 0 THEN 'context' ELSE role END),"
  "       created_at,"
  "       'xkind' || role || ' xagent' || (SELECT source FROM sessions s WHERE s.id = session_id)"
  "       || (CASE WHEN flags & 16 != 0 THEN ' xerror' ELSE '' END)"
  "  FROM messages"
  " UNION ALL "
  "SELECT id, session_id, 'event:' || kind, created_at,"
  "       'xkind' || kind || ' xagent' || (SELECT source FROM sessions s WHERE s.id = session_id)"
  "       || ifnull (' xtool' || lower (coalesce (tool_name, (SELECT c.tool_name FROM events c"
  "            WHERE c.session_id = events.session_id AND c.call_id = events.call_id"
  "              AND c.kind = 'tool_call'))), '')"
  "       || (CASE WHEN is_error = 1 OR kind = 'api_error' THEN ' xerror' ELSE '' END)"
  "  FROM events";

/* … and the text it indexes, with those facets. */
static const char expected_words_sql[] =
  "INSERT INTO temp.expected_words (rowid, title, body, facets)"
  " SELECT (1 << 41) + id, title, '', 'xkindtitle xagent' || source FROM sessions"
  " UNION ALL "
  "SELECT x.id, '', substr (text, 1, 65536), x.facets FROM messages m"
  "  JOIN search_entries x ON x.id = (1 << 40) + m.id"
  " UNION ALL "
  "SELECT x.id, '',"
  "       substr (ifnull (tool_name, '') || ' ' || ifnull (path, '') || ' ' || text, 1, 65536),"
  "       x.facets FROM events e JOIN search_entries x ON x.id = e.id";

static void
exec_or_fail (sqlite3    *db,
              const char *db_path,
              const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s: %s", db_path, sql, message);
}

static gint64
count_on (sqlite3    *db,
          const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64        value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

/* The index is contentless: what it holds is compared word by word — every term at every
 * position of every entry — with an index made here from the base tables. */
void
loom_test_assert_index_in_sync (const char *db_path)
{
  g_autofree char *missing = g_strdup_printf (
    "SELECT count(*) FROM (SELECT * FROM (%s) EXCEPT "
    "SELECT id, session_id, kind, created_at, facets FROM search_entries)",
    expected_entries_sql);
  g_autofree char *extra = g_strdup_printf (
    "SELECT count(*) FROM (SELECT id, session_id, kind, created_at, facets "
    "FROM search_entries EXCEPT SELECT * FROM (%s))",
    expected_entries_sql);
  static const char words_missing[] =
    "SELECT count(*) FROM (SELECT term, doc, col, offset FROM temp.expected_instances"
    " EXCEPT SELECT term, doc, col, offset FROM temp.instances)";
  static const char words_extra[] =
    "SELECT count(*) FROM (SELECT term, doc, col, offset FROM temp.instances"
    " EXCEPT SELECT term, doc, col, offset FROM temp.expected_instances)";
  sqlite3 *db = NULL;

  g_assert_cmpint (loom_test_query_int (db_path, missing, NULL), ==, 0);
  g_assert_cmpint (loom_test_query_int (db_path, extra, NULL), ==, 0);
  g_assert_cmpint (loom_test_query_int (db_path, "SELECT count(*) FROM index_deferred", NULL), ==,
                   0);

  g_assert_cmpint (sqlite3_open (db_path, &db), ==, SQLITE_OK);
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  exec_or_fail (db, db_path, "INSERT INTO search_index (search_index) VALUES ('integrity-check')");
  exec_or_fail (
    db, db_path,
    "CREATE VIRTUAL TABLE temp.expected_words USING fts5 (title, body, facets,"
    " tokenize = 'loom');"
    "CREATE VIRTUAL TABLE temp.instances USING fts5vocab (main, search_index, instance);"
    "CREATE VIRTUAL TABLE temp.expected_instances"
    "  USING fts5vocab (temp, expected_words, instance);");
  exec_or_fail (db, db_path, expected_words_sql);
  g_assert_cmpint (count_on (db, words_missing), ==, 0);
  g_assert_cmpint (count_on (db, words_extra), ==, 0);
  g_assert_cmpint (count_on (db, "SELECT count(*) FROM temp.instances"), ==,
                   count_on (db, "SELECT count(*) FROM temp.expected_instances"));
  /* Every term of the index is in search_terms, or a prefix search could miss it. */
  exec_or_fail (db, db_path,
                "CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab (main, search_index, row)");
  g_assert_cmpint (count_on (db, "SELECT count(*) FROM temp.vocabulary"
                                 " WHERE term NOT IN (SELECT term FROM search_terms)"),
                   ==, 0);
  sqlite3_close (db);
}

void
loom_test_make_files (const char        *root,
                      const char *const *relative,
                      const char        *contents)
{
  for (guint i = 0; relative[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (root, relative[i], NULL);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autoptr (GError) error = NULL;

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      g_file_set_contents (path, contents, -1, &error);
      g_assert_no_error (error);
    }
}

/* Checks @path against @listed, with @root spelt in a few ways that mean the same folder. */
static void
assert_claim (const LoomImporter *importer,
              const char         *root,
              const char         *path,
              GHashTable         *listed)
{
  g_autofree char *slashed = g_strconcat (root, "/", NULL);
  g_autofree char *dotted = g_strconcat (root, "/.", NULL);
  gboolean         expected = g_hash_table_contains (listed, path);

  if (importer->claims (root, path) != expected)
    g_error ("%s: claims () says %s, discover () %s", path, expected ? "no" : "yes",
             expected ? "lists it" : "does not");
  g_assert_true (importer->claims (slashed, path) == expected);
  g_assert_true (importer->claims (dotted, path) == expected);
}

static void
assert_claims_below (const LoomImporter *importer,
                     const char         *root,
                     const char         *dir,
                     GHashTable         *listed,
                     gboolean            follow)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf         st;

      g_assert_cmpint (g_lstat (path, &st), ==, 0);
      assert_claim (importer, root, path, listed);
      /* Behind a link to a folder too (but not through links behind it): discovery does not
       * go there, and claims () must agree. */
      if (S_ISDIR (st.st_mode) ||
          (follow && S_ISLNK (st.st_mode) && g_file_test (path, G_FILE_TEST_IS_DIR)))
        assert_claims_below (importer, root, path, listed, S_ISDIR (st.st_mode));
    }
}

guint
loom_test_assert_claims_as_discovered (const LoomImporter *importer,
                                       const char         *root)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *parent = g_path_get_dirname (root);
  g_autofree char *sibling = g_strconcat (root, "-sibling", NULL);

  g_assert_nonnull (importer->claims);
  importer->discover (root, files);
  for (guint i = 0; i < files->len; i++)
    g_hash_table_add (listed, g_ptr_array_index (files, i));

  assert_claims_below (importer, root, root, listed, TRUE);

  /* Nothing outside the root, nor the root itself. */
  g_assert_false (importer->claims (root, root));
  g_assert_false (importer->claims (root, parent));
  for (guint i = 0; i < files->len; i++)
    {
      const char      *path = g_ptr_array_index (files, i);
      g_autofree char *elsewhere = g_strconcat (sibling, path + strlen (root), NULL);

      g_assert_false (importer->claims (root, elsewhere));
    }
  return files->len;
}

void
loom_test_exec_sql (const char *db_path,
                    const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (db_path, &db), ==, SQLITE_OK);
  /* Only a guard: a watcher's pass may hold the store for a while on a busy machine. */
  sqlite3_busy_timeout (db, 60 * 1000);
  exec_or_fail (db, db_path, sql);
  sqlite3_close (db);
}

static void
list_tree_into (GPtrArray  *entries,
                const char *root,
                const char *relative,
                gboolean    with_sizes)
{
  g_autofree char *folder = relative ? g_build_filename (root, relative, NULL) : g_strdup (root);
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = relative ? g_build_filename (relative, name, NULL) : g_strdup (name);
      g_autofree char *path = g_build_filename (root, child, NULL);
      struct stat      st;

      g_assert_cmpint (lstat (path, &st), ==, 0);
      if (S_ISDIR (st.st_mode))
        {
          g_ptr_array_add (entries, g_strconcat (child, "/", NULL));
          list_tree_into (entries, root, child, with_sizes);
        }
      else if (S_ISLNK (st.st_mode))
        {
          g_autofree char *target = g_file_read_link (path, NULL);

          g_ptr_array_add (entries, g_strdup_printf ("%s -> %s", child, target));
        }
      else if (with_sizes)
        g_ptr_array_add (entries,
                         g_strdup_printf ("%s (%" G_GINT64_FORMAT ")", child, (gint64)st.st_size));
      else
        g_ptr_array_add (entries, g_strdup (child));
    }
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

char *
loom_test_list_tree (const char *root,
                     gboolean    with_sizes)
{
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);

  list_tree_into (entries, root, NULL, with_sizes);
  g_ptr_array_sort (entries, compare_entries);
  g_ptr_array_add (entries, NULL);
  return g_strjoinv ("\n", (GStrv)entries->pdata);
}

guint
loom_test_count_fds (void)
{
  g_autoptr (GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

LoomExportResult *
loom_test_export_ok (LoomStore               *store,
                     const char              *uuid,
                     const char              *dest,
                     const LoomExportOptions *options)
{
  g_autoptr (GError) error = NULL;
  LoomExportResult *result = NULL;

  g_assert_true (loom_export_session (store, uuid, dest, options, &result, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* ——— The harness's login keyring ——— */

static SecretCollection *
login_collection (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SecretService) service = secret_service_get_sync (SECRET_SERVICE_NONE, NULL, &error);
  SecretCollection *collection;

  g_assert_no_error (error);
  collection = secret_collection_for_alias_sync (service, SECRET_COLLECTION_DEFAULT,
                                                 SECRET_COLLECTION_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (collection);
  return collection;
}

void
loom_test_lock_login_keyring (void)
{
  g_autoptr (SecretCollection) collection = login_collection ();
  g_autoptr (GError) error = NULL;
  GList *objects = g_list_append (NULL, collection);

  g_assert_cmpint (secret_service_lock_sync (NULL, objects, NULL, NULL, &error), ==, 1);
  g_assert_no_error (error);
  g_list_free (objects);
}

void
loom_test_unlock_login_keyring (void)
{
  g_autoptr (SecretCollection) collection = login_collection ();
  g_autoptr (GDBusConnection) bus = NULL;
  g_autoptr (GVariant) session_reply = NULL;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) error = NULL;
  const char *password = g_getenv ("LOOM_TEST_KEYRING_PASSWORD");
  const char *session = NULL;

  g_assert_nonnull (password);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);

  session_reply = g_dbus_connection_call_sync (
    bus, "org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service",
    "OpenSession", g_variant_new ("(sv)", "plain", g_variant_new_string ("")), NULL,
    G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (session_reply, "(v&o)", NULL, &session);

  reply = g_dbus_connection_call_sync (
    bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
    "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface", "UnlockWithMasterPassword",
    g_variant_new ("(o(o@ay@ays))", g_dbus_proxy_get_object_path (G_DBUS_PROXY (collection)),
                   session, g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, "", 0, 1),
                   g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, password, strlen (password), 1),
                   "text/plain"),
    NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
}
