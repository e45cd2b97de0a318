/* loom-codex-test.h — what the Codex import tests share (test-import-codex.c on
 * fixtures/codex/, test-import-codex-variants.c on fixtures/codex-variants/): the numbers a
 * fixture file must give, the fixture of every test, and the tests that any folder of Codex
 * fixtures passes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "loom-import.h"
#include "loom-test-utils.h"

G_BEGIN_DECLS

/* What one fixture file gives once imported, as its folder's README.md counts it by hand. */
typedef struct
{
  const char *root;       /* below fixtures/; NULL for codex */
  const char *fixture;    /* below the root */
  const char *session_id; /* the agent's session id */
  const char *title;
  const char *cwd;
  const char *project;
  const char *git_branch;
  const char *git_commit;
  const char *agent_version;
  const char *agent_mode;
  const char *selected_agent_id;
  const char *model;
  const char *models; /* JSON array, in order of first use */
  const char *session_type;
  const char *parent; /* the parent's agent session id, or NULL */
  gint64      user, assistant, tool_calls, tool_results, tool_errors, reasoning;
  gint64      message_count, event_count;
  gint64      tokens_input, tokens_output, tokens_cache_read, tokens_cache_creation;
  const char *tokens_reasoning; /* JSON: a number, or null when no token count gives it */
  const char *tools_used;       /* JSON object */
  const char *created_at;
  const char *updated_at;
  guint       stored_messages; /* every message kept, injected context included */
  guint       injected;        /* of which flagged as not a prompt */
  guint       file_changes;
  guint       lifecycle;
  guint       raw;
  guint       warnings;
} Expected;

/* A folder of fixtures and the table of its numbers. */
typedef struct
{
  const char     *root; /* below fixtures/ */
  const Expected *expected;
  guint           n_expected;
} Table;

/* A fresh store in a temporary folder, and the statistics of the last import into it. */
typedef LoomTestStore Fixture;

char *fixture_in (const char *folder,
                  const char *relative);
/* The file of @e, below its root. */
char *expected_path (const Expected *e);

/* A test of @func on a fresh Fixture, with @data. */
void add_fixture_test (const char   *path,
                       gconstpointer data,
                       void (*func) (Fixture *,
                                     gconstpointer));

/* Imports @paths (or the format's default roots when NULL), as @source or detected when NULL,
 * into @f's store; @f->stats holds what it did. Fails if a file failed. */
void import_paths (Fixture           *f,
                   const char        *source,
                   const char *const *paths);
void import_path (Fixture    *f,
                  const char *source,
                  const char *path);

GHashTable *sessions_by_source_id (Fixture *f);
/* The session the agent calls @session_id, as JSON, with its timeline. */
char       *comparable_session (Fixture    *f,
                                const char *session_id);

/* @member of @object is the string @wanted, or null when @wanted is NULL. */
void assert_member_string (JsonObject *object,
                           const char *member,
                           const char *wanted);
void assert_member_int (JsonObject *object,
                        const char *member,
                        gint64      wanted);
void assert_json_equal (JsonNode   *node,
                        const char *wanted,
                        const char *what);
/* The session of @e among @sessions (from sessions_by_source_id ()) has all of @e's numbers. */
void assert_session (Fixture        *f,
                     GHashTable     *sessions,
                     const Expected *e);

void write_bytes (const char *path,
                  const char *bytes,
                  gsize       length);

/* Tests on one fixture file: @data is its Expected. */
void test_fixture (Fixture      *f,
                   gconstpointer data);
void test_incremental (Fixture      *f,
                       gconstpointer data);

/* Tests on a whole folder of fixtures: @data is its Table. */
void test_detect_folder (Fixture      *f,
                         gconstpointer data);
void test_import_twice (Fixture      *f,
                        gconstpointer data);
void test_fixtures_unchanged (Fixture      *f,
                              gconstpointer data);

/* g_test_init () in the time zone and the throwaway home the expected numbers are written for;
 * codex_test_run () runs the tests and removes that home. */
void codex_test_init (int    *argc,
                      char ***argv);
int  codex_test_run (void);

G_END_DECLS
