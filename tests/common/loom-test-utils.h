/* loom-test-utils.h — small helpers shared by the test programs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-export.h"
#include "loom-import.h"
#include "loom-importer.h"
#include "loom-store.h"

G_BEGIN_DECLS

/* A fresh temporary folder, removed with its contents by loom_test_remove_tree(). */
char *loom_test_make_tmpdir (void);
void  loom_test_remove_tree (const char *path);

/* A fresh store: a new temporary folder in *@dir (for loom_test_remove_tree()) and the store
 * opened as history.db in it, whose path goes in *@db_path. */
LoomStore *loom_test_new_store (char **dir,
                                char **db_path);

/* The fixture of the tests that import: a fresh store in a temporary folder, and the
 * statistics of the last import into it. */
typedef struct
{
  char            *dir;
  char            *db;
  LoomStore       *store;
  LoomImportStats *stats;
} LoomTestStore;

/* A GTestFixtureFunc pair: a store made with loom_test_new_store (), which the tear-down
 * finalizes (it fails if anything still holds it) and removes with its folder. */
void loom_test_store_set_up (LoomTestStore *f,
                             gconstpointer  data);
void loom_test_store_tear_down (LoomTestStore *f,
                                gconstpointer  data);

/* loom_test_import_paths () into @f's store, the statistics kept in @f->stats (those of the
 * import before freed). */
void loom_test_store_import_paths (LoomTestStore     *f,
                                   const char        *source,
                                   const char *const *paths);
/* The same for the one file or folder @path. */
void loom_test_store_import_path (LoomTestStore *f,
                                  const char    *source,
                                  const char    *path);

/* The path of @first and the elements after it (NULL-terminated) below LOOM_TEST_FIXTURES,
 * which must be set; LOOM_TEST_FIXTURES itself when @first is NULL. */
char *loom_test_fixture_path (const char *first,
                              ...) G_GNUC_NULL_TERMINATED;

/* Imports @paths as `loom import` does (as @source, or detected when NULL; the formats' default
 * roots when @paths is NULL) into @store, failing on an error, and logs each warning with
 * g_test_message (). Returns the pass's statistics. */
LoomImportStats *loom_test_import_paths (LoomStore         *store,
                                         const char        *source,
                                         const char *const *paths);

/* Adds a session with @n_messages messages (alternating user/assistant, the text containing
 * @word) and @n_events events; returns its uuid. */
char *loom_test_add_session (LoomStore  *store,
                             const char *title,
                             const char *source,
                             const char *word,
                             guint       n_messages,
                             guint       n_events,
                             gint64      updated_at);

/* The session the agent calls @source_session_id, wherever it lies (the Trash, the archive),
 * or NULL. */
LoomSession *loom_test_find_session (LoomStore  *store,
                                     const char *source_session_id);

/* The first column of the one row @sql gives, with @text bound to ?1 unless NULL, read through
 * a separate read-only connection that knows the search tokenizer. */
gint64 loom_test_query_int (const char *db_path,
                            const char *sql,
                            const char *text);

/* Counts the rows of a table through a separate read-only connection. */
gint64 loom_test_count_rows (const char *db_path,
                             const char *table);
gint64 loom_test_count_matches (const char *db_path,
                                const char *word);
char  *loom_test_file_checksum (const char *path);

/* Makes each of the NULL-terminated @relative paths below @root, with its folders, as a small
 * file holding @contents. */
void loom_test_make_files (const char        *root,
                           const char *const *relative,
                           const char        *contents);

/* Fails unless @importer's claims () says of every entry below @root (files, folders, links,
 * and what lies behind links to folders) what its discover () says: listed or not. Returns how
 * many files discover () listed. */
guint loom_test_assert_claims_as_discovered (const LoomImporter *importer,
                                             const char         *root);

/* Runs @sql on the store at @db_path through a connection of its own, and fails unless it
 * succeeds: for what no operation does, such as a trigger that makes writes fail. */
void loom_test_exec_sql (const char *db_path,
                         const char *sql);

/* Fails unless the search index holds exactly one entry per session title, message and event,
 * with their current text, and FTS5's own integrity check passes. */
void loom_test_assert_index_in_sync (const char *db_path);

/* Every entry below @root, relative, sorted, one a line: "dir/" for folders, "name -> target"
 * for links, and files by name, with " (SIZE)" when @with_sizes. A test compares two of them to
 * see that nothing was created, removed or changed in a folder it must not touch. */
char *loom_test_list_tree (const char *root,
                           gboolean    with_sizes);

/* Exports the session @uuid into @dest with @options (NULL: the defaults), asserting that the
 * package was written; the result is the caller's. */
LoomExportResult *loom_test_export_ok (LoomStore               *store,
                                       const char              *uuid,
                                       const char              *dest,
                                       const LoomExportOptions *options);

/* How many descriptors the process holds: code that stops early must close what it opened. */
guint loom_test_count_fds (void);

/* Locks the login collection of the harness's keyring (tests/harness/loom-test-session), and
 * unlocks it again with its password (LOOM_TEST_KEYRING_PASSWORD), through gnome-keyring's own
 * interface for that: a prompt, which secret_service_unlock_sync () asks for, cannot come in the
 * harness. */
void loom_test_lock_login_keyring (void);
void loom_test_unlock_login_keyring (void);

G_END_DECLS
