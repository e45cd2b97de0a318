/* loom-store.c — opening the store: location, permissions, pragmas, migrations and recovery.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-schema.h"
#include "loom-store-private.h"
#include "loom-store-search.h"
#include "loom-time.h"

G_DEFINE_FINAL_TYPE (LoomStore, loom_store, G_TYPE_OBJECT)

/* Added once by loom_core_init (), read by every connection the store opens after. */
G_LOCK_DEFINE_STATIC (hooks);
static const LoomStoreConnectionHook *hooks[LOOM_STORE_MAX_CONNECTION_HOOKS];
static guint                          n_hooks;

void
loom_store_add_connection_hook (const LoomStoreConnectionHook *hook)
{
  g_return_if_fail (hook != NULL && hook->connect != NULL);

  G_LOCK (hooks);
  for (guint i = 0; i < n_hooks; i++)
    if (hooks[i] == hook)
      {
        G_UNLOCK (hooks);
        return;
      }
  if (n_hooks < G_N_ELEMENTS (hooks))
    hooks[n_hooks++] = hook;
  else
    g_critical ("The store has room for %u connection hooks only", (guint)G_N_ELEMENTS (hooks));
  G_UNLOCK (hooks);
}

gboolean
loom_store_has_connection_hooks (void)
{
  gboolean any;

  G_LOCK (hooks);
  any = n_hooks > 0;
  G_UNLOCK (hooks);
  return any;
}

/* Runs every hook on the connection just opened, keeping what each will flush. */
static gboolean
connect_hooks (LoomStore *self,
               GError   **error)
{
  gboolean ok = TRUE;

  G_LOCK (hooks);
  for (guint i = 0; i < n_hooks && ok; i++)
    ok = hooks[i]->connect (self->db, &self->noted[i], error);
  G_UNLOCK (hooks);
  return ok;
}

gboolean
loom_store_flush_noted (LoomStore *self,
                        GError   **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->noted); i++)
    if (self->noted[i] != NULL && hooks[i]->flush != NULL &&
        !hooks[i]->flush (self->db, self->noted[i], error))
      return FALSE;
  return TRUE;
}

static gboolean
has_noted (LoomStore *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->noted); i++)
    if (self->noted[i] != NULL)
      return TRUE;
  return FALSE;
}

static void
forget_noted (LoomStore *self)
{
  /* Each went with the connection. */
  memset (self->noted, 0, sizeof self->noted);
}

static void
loom_store_finalize (GObject *object)
{
  LoomStore *self = (LoomStore *)object;

  if (has_noted (self) && self->db != NULL && !loom_store_flush_noted (self, NULL))
    g_warning ("The search index's new words were not all noted; prefix searches may miss "
               "some until the index is rebuilt");
  g_clear_pointer (&self->statements, g_hash_table_unref);
  g_clear_pointer (&self->built, g_hash_table_unref);
  g_clear_pointer (&self->db, sqlite3_close_v2);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->recovered_path, g_free);

  G_OBJECT_CLASS (loom_store_parent_class)->finalize (object);
}

static void
loom_store_class_init (LoomStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = loom_store_finalize;

  /* SQLite counts the memory it uses under a global mutex on every allocation; nothing here
   * reads the count, and an import allocates for every row and token. It can only be turned
   * off before SQLite starts: if something in the process started it first, it stays on. */
  sqlite3_config (SQLITE_CONFIG_MEMSTATUS, 0);
}

static void
loom_store_init (LoomStore *self)
{
  /* Keyed by the address of the SQL literal: hashing the text on every call would cost more
   * than the lookup saves on the import's hot path. */
  self->statements = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)sqlite3_finalize);
  self->built = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify)sqlite3_finalize);
}

static char *
default_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "intentloom-history", NULL);
}

char *
loom_store_default_path (void)
{
  g_autofree char *dir = NULL;
  const char      *env = g_getenv ("LOOM_DB");

  if (env != NULL && *env != '\0')
    return g_strdup (env);

  dir = default_dir ();
  return g_build_filename (dir, "history.db", NULL);
}

void
loom_store_set_error (LoomStore  *self,
                      GError    **error,
                      const char *doing)
{
  int       code = sqlite3_extended_errcode (self->db);
  LoomError loom_code = LOOM_ERROR_DATABASE;

  if ((code & 0xff) == SQLITE_CORRUPT || (code & 0xff) == SQLITE_NOTADB)
    loom_code = LOOM_ERROR_CORRUPT;
  else if ((code & 0xff) == SQLITE_CONSTRAINT)
    loom_code = LOOM_ERROR_EXISTS;

  g_set_error (error, LOOM_ERROR, loom_code, "Could not %s in “%s”: %s", doing, self->path,
               sqlite3_errmsg (self->db));
}

sqlite3_stmt *
loom_store_prepare (LoomStore  *self,
                    const char *sql,
                    GError    **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      loom_store_set_error (self, error, "prepare a query");
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

/* A statement of @cache, reset, or prepared once and kept under @sql (a copy of it when
 * @copy_key: the cache then owns its keys). */
static sqlite3_stmt *
reuse_or_prepare (LoomStore  *self,
                  GHashTable *cache,
                  const char *sql,
                  gboolean    copy_key,
                  GError    **error)
{
  sqlite3_stmt *stmt = g_hash_table_lookup (cache, sql);

  if (stmt != NULL)
    {
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      return stmt;
    }

  if (sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    {
      loom_store_set_error (self, error, "prepare a query");
      sqlite3_finalize (stmt);
      return NULL;
    }
  g_hash_table_insert (cache, copy_key ? g_strdup (sql) : (gpointer)sql, stmt);
  return stmt;
}

sqlite3_stmt *
loom_store_cached (LoomStore  *self,
                   const char *sql,
                   GError    **error)
{
  return reuse_or_prepare (self, self->statements, sql, FALSE, error);
}

/* A search's statements are built from its filters, and typing a query runs the same few over
 * and over: compiling one took a tenth of a search for a common word. The filters give a
 * bounded number of texts; the bound is there for a store open for weeks. */
#define MAX_BUILT_STATEMENTS 64

sqlite3_stmt *
loom_store_cached_built (LoomStore  *self,
                         const char *sql,
                         GError    **error)
{
  if (!g_hash_table_contains (self->built, sql) &&
      g_hash_table_size (self->built) >= MAX_BUILT_STATEMENTS)
    g_hash_table_remove_all (self->built);
  return reuse_or_prepare (self, self->built, sql, TRUE, error);
}

gboolean
loom_store_exec (LoomStore  *self,
                 const char *sql,
                 GError    **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) != SQLITE_OK)
    {
      loom_store_set_error (self, error, "update the store");
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_begin_read (LoomStore *self,
                       gboolean  *began,
                       GError   **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);
  g_return_val_if_fail (began != NULL, FALSE);

  *began = FALSE;
  if (!sqlite3_get_autocommit (self->db))
    return TRUE;
  if (!loom_store_exec (self, "BEGIN", error))
    return FALSE;
  *began = TRUE;
  return TRUE;
}

void
loom_store_end_read (LoomStore *self,
                     gboolean   began)
{
  g_return_if_fail (LOOM_IS_STORE (self));

  /* Nothing was written: ending it cannot fail in a way that loses anything. */
  if (began && sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

gboolean
loom_store_begin (LoomStore *self,
                  GError   **error)
{
  /* IMMEDIATE takes the write lock now, so busy_timeout applies instead of a late failure
   * when another process (the app and the CLI share the store) writes at the same time. */
  return loom_store_exec (self, "BEGIN IMMEDIATE", error);
}

/* Each import batch leaves a segment in the index. FTS5 merges them as it writes, unless told
 * to wait (loom_store_hold_index_merges ()), and left nine after a first import of 1.5 GB
 * when it did not wait. A phrase or an OR of a prefix's terms seeks in every segment, and
 * FTS5 reads a long list backwards (newest first) faster in one: merging them all once took
 * 4–6 s after that import, and made "null pointer" 30 % faster. Only when the import made
 * most of the index: merging rewrites all of it. */
#define MERGE_MIN_ENTRIES 10000

gboolean
loom_store_hold_index_merges (LoomStore *self,
                              GError   **error)
{
  return loom_store_exec (self,
                          "INSERT INTO search_index (search_index, rank)"
                          " VALUES ('automerge', 0)",
                          error);
}

gboolean
loom_store_resume_index_merges (LoomStore *self,
                                GError   **error)
{
  /* FTS5's default; a store that lost this (a crash during an import) still merges when a
   * level reaches crisismerge segments, and gets it back with the next import. */
  return loom_store_exec (self,
                          "INSERT INTO search_index (search_index, rank)"
                          " VALUES ('automerge', 4)",
                          error);
}

gboolean
loom_store_index_wants_merging (LoomStore *self,
                                guint64    added,
                                gboolean  *wants,
                                GError   **error)
{
  sqlite3_stmt *stmt;
  gint64        entries = 0;

  *wants = FALSE;
  if (added < MERGE_MIN_ENTRIES)
    return TRUE;
  if (!(stmt = loom_store_cached (self, "SELECT count(*) FROM search_entries", error)))
    return FALSE;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    entries = sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  *wants = (gint64)added * 2 >= entries;
  return TRUE;
}

/* A negative count merges every segment, as 'optimize' does, but stops after that many
 * pages; a positive one goes on with a merge under way and starts no other unless a level
 * holds four segments. So segments written between two steps (files that changed meanwhile)
 * are left for later instead of starting the merge over. FTS5's documented sign that a step
 * found nothing to do: fewer than two rows changed. */
gboolean
loom_store_merge_index_step (LoomStore *self,
                             gboolean   first,
                             guint      pages,
                             gboolean  *merged,
                             GError   **error)
{
  sqlite3_stmt *stmt;
  /* Unsigned: a count that wraps still gives the difference. */
  guint         before = (guint)sqlite3_total_changes (self->db);

  *merged = FALSE;
  if (!(stmt = loom_store_cached (self,
                                  "INSERT INTO search_index (search_index, rank)"
                                  " VALUES ('merge', ?)",
                                  error)))
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, first ? -(gint64)pages : (gint64)pages);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    {
      loom_store_set_error (self, error, "merging the search index");
      sqlite3_reset (stmt);
      return FALSE;
    }
  sqlite3_reset (stmt);
  *merged = (guint)sqlite3_total_changes (self->db) - before >= 2;
  return TRUE;
}

void
loom_store_map_for_searching (LoomStore *self)
{
  /* SQLite caps the map at 2 GB. A failure leaves reads as they were: slower, not wrong. */
  if (!self->mapped)
    self->mapped = loom_store_exec (self, "PRAGMA mmap_size = 2147418112", NULL);
}

gboolean
loom_store_commit (LoomStore *self,
                   GError   **error)
{
  if (!loom_store_flush_noted (self, error) || !loom_store_exec (self, "COMMIT", error))
    {
      loom_store_rollback (self);
      return FALSE;
    }
  return TRUE;
}

void
loom_store_rollback (LoomStore *self)
{
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Creates the file with 0600 before SQLite does, since SQLite would follow the umask. */
static gboolean
ensure_private_file (const char *path,
                     GError    **error)
{
  /* Only a file that does not exist yet is opened here. Closing any descriptor of a file drops
   * every POSIX lock the process holds on it, SQLite's included, and the app keeps a connection
   * open while each import pass opens another: another process (the CLI) then took itself for
   * the store's last user when it closed, checkpointed, removed the WAL under the connections
   * still open, and their next writes left the store malformed. */
  int fd = g_open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

  if (fd < 0 && errno == EEXIST)
    return TRUE;
  if (fd < 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not create the store “%s”: %s", path,
                   g_strerror (saved_errno));
      return FALSE;
    }
  close (fd);
  return TRUE;
}

static gboolean
ensure_private_dir (const char *path,
                    GError    **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *our_dir = default_dir ();

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not create the folder “%s”: %s", dir,
                   g_strerror (saved_errno));
      return FALSE;
    }

  /* Our own folder holds nothing but private history: keep it 0700 even if it was created
   * looser. A folder the user chose with --db is theirs to set. */
  if (g_strcmp0 (dir, our_dir) == 0 && g_chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not protect the folder “%s”: %s", dir,
                   g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/* Renames a broken store (and its WAL and shared-memory files) aside. Never deletes. */
static char *
move_aside (const char *path,
            GError    **error)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%SZ");
  g_autofree char *aside = NULL;

  for (guint i = 0; aside == NULL || g_file_test (aside, G_FILE_TEST_EXISTS); i++)
    {
      g_free (aside);
      aside = i == 0 ? g_strdup_printf ("%s.corrupt-%s", path, stamp)
                     : g_strdup_printf ("%s.corrupt-%s-%u", path, stamp, i);
    }

  if (g_rename (path, aside) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO,
                   "The store “%s” is damaged and could not be moved aside: %s", path,
                   g_strerror (saved_errno));
      return NULL;
    }

  for (guint i = 0; i < 2; i++)
    {
      const char      *suffix = i == 0 ? "-wal" : "-shm";
      g_autofree char *from = g_strconcat (path, suffix, NULL);
      g_autofree char *to = g_strconcat (aside, suffix, NULL);

      if (g_file_test (from, G_FILE_TEST_EXISTS))
        g_rename (from, to);
    }

  /* The front ends tell the person, naming the kept copy (loom_store_get_recovered_path()). */
  return g_steal_pointer (&aside);
}

typedef enum
{
  OPEN_OK,
  OPEN_FAILED,
  OPEN_DAMAGED,
} OpenResult;

/* @error is never NULL here: the caller needs to tell damage from other failures. */
static OpenResult
open_connection (LoomStore *self,
                 GError   **error)
{
  sqlite3_stmt *stmt = NULL;
  int           rc;
  int           version = 0;

  rc = sqlite3_open_v2 (self->path, &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not open the store “%s”: %s",
                   self->path, self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      return OPEN_FAILED;
    }

  sqlite3_extended_result_codes (self->db, TRUE);
  sqlite3_busy_timeout (self->db, 5000);
  if (!connect_hooks (self, error))
    return OPEN_FAILED;

  /* The version is read before anything could write: a newer store is left byte for byte. */
  rc = sqlite3_prepare_v2 (self->db, "PRAGMA user_version", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    version = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);

  if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
    return OPEN_DAMAGED;
  if (rc != SQLITE_ROW)
    {
      loom_store_set_error (self, error, "read the schema version");
      return OPEN_FAILED;
    }

  if (version > LOOM_STORE_SCHEMA_VERSION)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NEWER_SCHEMA,
                   "The store “%s” was written by a newer version of Intentloom History "
                   "(schema %d; this version understands up to %d). It was not changed.",
                   self->path, version, LOOM_STORE_SCHEMA_VERSION);
      return OPEN_FAILED;
    }

  /* A new store gets 8 KB pages: events and their payloads, and the search index's segments,
   * are mostly longer than a 4 KB page holds well, and a fresh import of the 200 MB bench
   * corpus took 6 % less time. A page size is fixed once the first table exists, so an older
   * store keeps its 4 KB. */
  if (version == 0 && !loom_store_exec (self, "PRAGMA page_size = 8192", error))
    return OPEN_FAILED;

  /* A store of the current version needs no transaction: taking one waited for any import
   * that held the store, up to the busy timeout, just to open it for reading. */
  if (version < LOOM_STORE_SCHEMA_VERSION && !loom_schema_migrate (self->db, self->path, error))
    {
      if (g_error_matches (*error, LOOM_ERROR, LOOM_ERROR_CORRUPT))
        {
          g_clear_error (error);
          return OPEN_DAMAGED;
        }
      /* A page that is damaged deeper in the file surfaces as a plain database error. */
      if ((sqlite3_errcode (self->db) & 0xff) == SQLITE_CORRUPT)
        {
          g_clear_error (error);
          return OPEN_DAMAGED;
        }
      return OPEN_FAILED;
    }

  /* WAL only once the schema is ours: switching rewrites the header, and a failed migration
   * must leave the file exactly as it was. A search reads a few pages of each of a thousand
   * candidates: SQLite's default 2 MB cache sent it to the kernel for them on every query. */
  if (!loom_store_exec (self,
                        "PRAGMA journal_mode = WAL;"
                        "PRAGMA synchronous = NORMAL;"
                        "PRAGMA foreign_keys = ON;"
                        "PRAGMA cache_size = -32768;",
                        error))
    {
      if (g_error_matches (*error, LOOM_ERROR, LOOM_ERROR_CORRUPT))
        {
          g_clear_error (error);
          return OPEN_DAMAGED;
        }
      return OPEN_FAILED;
    }

  return OPEN_OK;
}

LoomStore *
loom_store_open (const char *path,
                 GError    **error)
{
  g_autoptr (LoomStore) self = NULL;

  /* Without search's hook the store could not read or write its index: say so plainly rather
   * than fail later with "no such tokenizer". */
  if (!loom_store_has_connection_hooks ())
    {
      g_critical ("A store was opened before loom_core_init () (loom-core.h) set up its "
                  "connections");
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "The store cannot be opened: loom_core_init () was not called");
      return NULL;
    }

  self = g_object_new (LOOM_TYPE_STORE, NULL);
  self->path = path != NULL ? g_strdup (path) : loom_store_default_path ();

  if (!ensure_private_dir (self->path, error) || !ensure_private_file (self->path, error))
    return NULL;

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr (GError) local_error = NULL;
      OpenResult result = open_connection (self, &local_error);

      if (result == OPEN_OK)
        break;

      g_clear_pointer (&self->db, sqlite3_close_v2);
      forget_noted (self);
      if (result == OPEN_FAILED)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }

      if (attempt > 0)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The store “%s” could not be recreated", self->path);
          return NULL;
        }

      g_clear_pointer (&self->recovered_path, g_free);
      self->recovered_path = move_aside (self->path, error);
      if (self->recovered_path == NULL || !ensure_private_file (self->path, error))
        return NULL;
    }

  /* The file existed before with whatever mode it had; history is private. */
  if (g_chmod (self->path, 0600) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not protect the store “%s”: %s",
                   self->path, g_strerror (saved_errno));
      return NULL;
    }

  return g_steal_pointer (&self);
}

const char *
loom_store_get_path (LoomStore *self)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);
  return self->path;
}

const char *
loom_store_get_recovered_path (LoomStore *self)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), NULL);
  return self->recovered_path;
}

int
loom_store_get_schema_version (LoomStore *self)
{
  g_autoptr (sqlite3_stmt) stmt = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (self), -1);

  stmt = loom_store_prepare (self, "PRAGMA user_version", NULL);
  if (stmt == NULL || sqlite3_step (stmt) != SQLITE_ROW)
    return -1;
  return sqlite3_column_int (stmt, 0);
}

gboolean
loom_store_rebuild_index (LoomStore *self,
                          GError   **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  if (!loom_store_begin (self, error))
    return FALSE;
  if (!loom_store_exec (self, loom_schema_index_rebuild_sql, error))
    {
      loom_store_rollback (self);
      return FALSE;
    }
  return loom_store_commit (self, error);
}

gboolean
loom_store_begin_indexed (LoomStore *self,
                          GError   **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  if (!loom_store_begin (self, error))
    return FALSE;
  if (!loom_store_exec (self, loom_schema_index_defer_sql, error))
    {
      loom_store_rollback (self);
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_store_commit_indexed (LoomStore *self,
                           GError   **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (self), FALSE);

  if (!loom_store_exec (self, loom_schema_index_deferred_sql, error))
    {
      loom_store_rollback (self);
      return FALSE;
    }
  return loom_store_commit (self, error);
}
