/* test-cli.c — every `loom` command, run as a real process against a temporary store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>

#include "loom-backup-key.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-keyring.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-time.h"

typedef struct
{
  char      *dir;
  char      *path;
  LoomStore *store; /* the test's own connection, to set up and check */
  char      *out;
  char      *err;
  int        status;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  f->store = loom_test_new_store (&f->dir, &f->path);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_free (f->out);
  g_free (f->err);
}

/* Runs `loom --db PATH ARGS…` (or without --db when @path is NULL) and keeps its output. */
static int
run_loom_at (Fixture    *f,
             const char *path,
             ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envp = g_get_environ ();
  int         wait_status = 0;
  const char *arg;
  va_list     args;

  g_ptr_array_add (argv, (char *)g_getenv ("LOOM_CLI"));
  if (path != NULL)
    {
      g_ptr_array_add (argv, (char *)"--db");
      g_ptr_array_add (argv, (char *)path);
    }
  va_start (args, path);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  envp = g_environ_unsetenv (envp, "LOOM_DB");
  if (path == NULL)
    envp = g_environ_setenv (envp, "LOOM_DB", f->path, TRUE);

  g_spawn_sync (NULL, (char **)argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &f->out, &f->err,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  f->status = WEXITSTATUS (wait_status);
  return f->status;
}

#define run_loom(f, ...) run_loom_at ((f), (f)->path, __VA_ARGS__, NULL)

static JsonNode *
parse_out (Fixture *f)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static LoomSession *
reload (Fixture    *f,
        const char *uuid)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session = loom_store_get_session (f->store, uuid, &error);

  g_assert_no_error (error);
  return session;
}

static void
test_version_and_help (Fixture      *f,
                       gconstpointer data)
{
  static const char *const commands[][2] = {
    { "sessions", "list" },    { "sessions", "show" },
    { "sessions", "rename" },  { "sessions", "pin" },
    { "sessions", "unpin" },   { "sessions", "archive" },
    { "sessions", "restore" }, { "sessions", "trash" },
    { "sessions", "delete" },  { "sessions", "empty-trash" },
    { "sessions", "move" },    { "sessions", "export" },
    { "folders", "list" },     { "folders", "create" },
    { "folders", "rename" },   { "folders", "reorder" },
    { "folders", "delete" },   { "index", "rebuild" },
    { "import", NULL },        { "search", NULL },
  };

  g_assert_cmpint (run_loom (f, "--version"), ==, 0);
  g_assert_true (g_str_has_prefix (f->out, "loom 0."));

  g_assert_cmpint (run_loom (f, "--help"), ==, 0);
  g_assert_nonnull (strstr (f->out, "sessions"));
  g_assert_nonnull (strstr (f->out, "--db PATH"));

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (commands[i][1] != NULL)
        g_assert_cmpint (run_loom (f, commands[i][0], commands[i][1], "--help"), ==, 0);
      else
        g_assert_cmpint (run_loom (f, commands[i][0], "--help"), ==, 0);
      g_assert_nonnull (strstr (f->out, "Usage:"));
      g_assert_nonnull (strstr (f->out, commands[i][1] ? commands[i][1] : commands[i][0]));
      g_assert_cmpstr (f->err, ==, "");
    }
  g_assert_cmpint (run_loom (f, "sessions", "--help"), ==, 0);
  g_assert_nonnull (strstr (f->out, "empty-trash"));
  g_assert_cmpint (run_loom (f, "folders", "--help"), ==, 0);
  g_assert_nonnull (strstr (f->out, "reorder"));

  /* Mistakes: a usage error (2) on stderr, nothing on stdout. */
  g_assert_cmpint (run_loom (f, "frobnicate"), ==, 2);
  g_assert_nonnull (strstr (f->err, "unknown command"));
  g_assert_cmpstr (f->out, ==, "");
  g_assert_cmpint (run_loom (f, "--colour"), ==, 2);
  g_assert_cmpint (run_loom (f, "sessions", "list", "--bogus"), ==, 2);
  g_assert_nonnull (strstr (f->err, "--bogus"));
  g_assert_cmpint (run_loom (f, "sessions", "rename", "only-one-arg"), ==, 2);
  g_assert_cmpint (run_loom (f, "sessions", "list", "--collection", "nowhere"), ==, 2);
  g_assert_cmpint (run_loom_at (f, f->path, NULL), ==, 2);
}

static void
test_list_and_show (Fixture      *f,
                    gconstpointer data)
{
  gint64           now = loom_time_now_ms ();
  g_autofree char *a = loom_test_add_session (f->store, "Fix the parser - 2026-11-20",
                                              "claude-code", "x", 4, 2, now - 1000);
  g_autofree char *b = loom_test_add_session (f->store, "Plan the release - 2026-11-21", "codex",
                                              "y", 2, 0, now - 2000);
  g_autofree char *c = loom_test_add_session (f->store, "Old idea - 2026-10-01", "gemini", "z", 1,
                                              0, now - 3000);
  g_autoptr (JsonNode) list = NULL;
  g_autoptr (JsonNode) one = NULL;
  g_autoptr (GError) error = NULL;
  JsonArray  *array;
  JsonObject *object;

  g_assert_true (loom_store_set_trashed (f->store, c, TRUE, &error));

  g_assert_cmpint (run_loom (f, "sessions", "list"), ==, 0);
  g_assert_nonnull (strstr (f->out, "Fix the parser - 2026-11-20"));
  g_assert_nonnull (strstr (f->out, "Plan the release"));
  g_assert_null (strstr (f->out, "Old idea"));
  /* Most recently active first. */
  g_assert_true (strstr (f->out, "Fix the parser") < strstr (f->out, "Plan the release"));

  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json"), ==, 0);
  list = parse_out (f);
  array = json_node_get_array (list);
  g_assert_cmpuint (json_array_get_length (array), ==, 3);
  object = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (object, "id"), ==, a);
  g_assert_cmpstr (json_object_get_string_member (object, "source"), ==, "claude-code");
  g_assert_cmpint (json_object_get_int_member (object, "message_count"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (object, "event_count"), ==, 2);
  for (guint i = 0; i < 3; i++)
    {
      static const char *const members[] = {
        "id",
        "source",
        "source_session_id",
        "source_path",
        "parent_session_id",
        "title",
        "cwd",
        "git_branch",
        "model",
        "created_at",
        "updated_at",
        "message_count",
        "event_count",
        "tools_used",
        "counts",
        "tokens",
        "folder",
        "pinned",
        "archived",
        "trashed",
      };
      JsonObject *o = json_array_get_object_element (array, i);

      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        if (!json_object_has_member (o, members[m]))
          g_error ("session JSON lacks “%s”", members[m]);
    }

  g_assert_cmpint (run_loom (f, "sessions", "list", "--collection", "trash", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) trash = parse_out (f);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (trash)), ==, 1);
  }

  g_assert_cmpint (run_loom (f, "sessions", "list", "--agent", "codex", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) codex = parse_out (f);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (codex)), ==, 1);
  }

  g_assert_cmpint (run_loom (f, "sessions", "list", "--sort", "title", "--limit", "1"), ==, 0);
  g_assert_nonnull (strstr (f->out, "Fix the parser"));
  g_assert_null (strstr (f->out, "Plan the release"));

  g_assert_cmpint (run_loom (f, "sessions", "show", b, "--json"), ==, 0);
  one = parse_out (f);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (one), "title"), ==,
                   "Plan the release - 2026-11-21");
  {
    JsonObject *tokens = json_object_get_object_member (json_node_get_object (one), "tokens");
    static const char *const members[] = {
      "input", "output", "cache_read", "cache_creation", "reasoning",
    };

    g_assert_cmpuint (json_object_get_size (tokens), ==, G_N_ELEMENTS (members));
    for (guint m = 0; m < G_N_ELEMENTS (members); m++)
      g_assert_true (json_object_has_member (tokens, members[m]));
    /* Nothing reported it: null, not 0. */
    g_assert_true (json_object_get_null_member (tokens, "reasoning"));
  }
  g_clear_pointer (&one, json_node_unref);

  /* Once the agent reported it, a number, and the text says it. */
  {
    g_autofree char *sql = g_strdup_printf ("UPDATE sessions SET tokens_input = 400,"
                                            "  tokens_output = 90, tokens_reasoning = 60"
                                            " WHERE uuid = '%s'",
                                            b);
    JsonObject      *tokens;

    loom_test_exec_sql (f->path, sql);
    g_assert_cmpint (run_loom (f, "sessions", "show", b, "--json"), ==, 0);
    one = parse_out (f);
    tokens = json_object_get_object_member (json_node_get_object (one), "tokens");
    g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, 90);
    g_assert_cmpint (json_object_get_int_member (tokens, "reasoning"), ==, 60);
    g_clear_pointer (&one, json_node_unref);
    g_assert_cmpint (run_loom (f, "sessions", "show", b), ==, 0);
    g_assert_nonnull (strstr (f->out, "400 in, 90 out"));
    g_assert_nonnull (strstr (f->out, "60 of the output"));
  }

  /* The timeline comes with it, in order: 4 messages, then 2 tool calls. */
  g_assert_cmpint (run_loom (f, "sessions", "show", a, "--json"), ==, 0);
  one = parse_out (f);
  {
    JsonArray  *timeline = json_object_get_array_member (json_node_get_object (one), "timeline");
    JsonObject *first, *last;

    g_assert_cmpuint (json_array_get_length (timeline), ==, 6);
    first = json_array_get_object_element (timeline, 0);
    last = json_array_get_object_element (timeline, 5);
    g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "message");
    g_assert_cmpstr (json_object_get_string_member (first, "role"), ==, "user");
    g_assert_cmpstr (json_object_get_string_member (first, "text"), ==, "message 0 about x");
    g_assert_cmpstr (json_object_get_string_member (last, "kind"), ==, "tool_call");
    g_assert_cmpstr (json_object_get_string_member (last, "tool_name"), ==, "Bash");
  }

  /* By prefix, in text. */
  {
    g_autofree char *prefix = g_strndup (b, 8);

    g_assert_cmpint (run_loom (f, "sessions", "show", prefix), ==, 0);
    g_assert_nonnull (strstr (f->out, "Plan the release - 2026-11-21"));
    g_assert_nonnull (strstr (f->out, b));
  }

  g_assert_cmpint (run_loom (f, "sessions", "show", "00000000-missing"), ==, 1);
  g_assert_nonnull (strstr (f->err, "No session"));
  g_assert_cmpstr (f->out, ==, "");
}

static void
test_changes (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Untitled", "codex", "x", 1, 0,
                                                 loom_time_now_ms ());
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (LoomFolder) folder = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (run_loom (f, "sessions", "rename", uuid, "Tidy imports - 2026-11-29"), ==, 0);
  g_assert_nonnull (strstr (f->out, "Tidy imports - 2026-11-29"));
  session = reload (f, uuid);
  g_assert_cmpstr (loom_session_get_title (session), ==, "Tidy imports - 2026-11-29");
  g_clear_object (&session);

  g_assert_cmpint (run_loom (f, "sessions", "rename", uuid, "   "), ==, 1);
  g_assert_nonnull (strstr (f->err, "empty"));

  g_assert_cmpint (run_loom (f, "sessions", "pin", uuid, "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);
    g_assert_true (json_object_get_boolean_member (json_node_get_object (node), "pinned"));
  }
  session = reload (f, uuid);
  g_assert_true (loom_session_get_pinned (session));
  g_clear_object (&session);

  g_assert_cmpint (run_loom (f, "sessions", "unpin", uuid), ==, 0);
  session = reload (f, uuid);
  g_assert_false (loom_session_get_pinned (session));
  g_clear_object (&session);

  g_assert_cmpint (run_loom (f, "sessions", "archive", uuid), ==, 0);
  session = reload (f, uuid);
  g_assert_true (loom_session_get_archived (session));
  g_clear_object (&session);

  g_assert_cmpint (run_loom (f, "sessions", "trash", uuid), ==, 0);
  session = reload (f, uuid);
  g_assert_true (loom_session_get_trashed (session));
  g_clear_object (&session);

  /* Restore undoes the trash first, then the archive. */
  g_assert_cmpint (run_loom (f, "sessions", "restore", uuid), ==, 0);
  session = reload (f, uuid);
  g_assert_false (loom_session_get_trashed (session));
  g_assert_true (loom_session_get_archived (session));
  g_clear_object (&session);
  g_assert_cmpint (run_loom (f, "sessions", "restore", uuid), ==, 0);
  session = reload (f, uuid);
  g_assert_false (loom_session_get_archived (session));
  g_clear_object (&session);

  folder = loom_store_create_folder (f->store, "Refactors", &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_loom (f, "sessions", "move", uuid, "Refactors"), ==, 0);
  session = reload (f, uuid);
  g_assert_cmpint (loom_session_get_folder_id (session), ==, loom_folder_get_id (folder));
  g_clear_object (&session);

  g_assert_cmpint (run_loom (f, "sessions", "list", "--folder", "refactors", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);
    g_assert_cmpuint (json_array_get_length (json_node_get_array (node)), ==, 1);
  }

  g_assert_cmpint (run_loom (f, "sessions", "move", uuid, "Nowhere"), ==, 1);
  g_assert_nonnull (strstr (f->err, "No folder"));
  g_assert_cmpint (run_loom (f, "sessions", "move", uuid, "--no-folder"), ==, 0);
  session = reload (f, uuid);
  g_assert_cmpint (loom_session_get_folder_id (session), ==, 0);
  g_clear_object (&session);

  g_assert_cmpint (run_loom (f, "sessions", "pin", "feedface-none"), ==, 1);
  g_assert_nonnull (strstr (f->err, "No session"));
}

static void
test_delete (Fixture      *f,
             gconstpointer data)
{
  g_autofree char *doomed = loom_test_add_session (f->store, "Doomed", "claude-code", "marmalade",
                                                   3, 2, loom_time_now_ms ());
  g_autofree char *kept = loom_test_add_session (f->store, "Kept", "claude-code", "toast", 2, 1,
                                                 loom_time_now_ms ());
  g_autofree char *trashed = loom_test_add_session (f->store, "In the trash", "codex", "crumbs", 1,
                                                    1, loom_time_now_ms ());
  g_autoptr (JsonNode) plan = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *rows;

  g_assert_cmpint (run_loom (f, "sessions", "delete", "--dry-run", "--json", doomed), ==, 0);
  plan = parse_out (f);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (plan), "dry_run"));
  rows = json_object_get_object_member (json_node_get_object (plan), "rows");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (rows, "sessions")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (rows, "messages")), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (rows, "events")), ==, 2);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (rows, "search_index")), ==,
                    1 + 3 + 2);
  /* The dry-run removed nothing. */
  g_assert_cmpint (loom_test_count_rows (f->path, "sessions"), ==, 3);
  g_assert_cmpint (loom_test_count_matches (f->path, "marmalade"), ==, 5);

  g_assert_cmpint (run_loom (f, "sessions", "delete", "--dry-run", doomed), ==, 0);
  g_assert_nonnull (strstr (f->out, "Would delete 1 session"));
  g_assert_nonnull (strstr (f->out, "Doomed"));

  g_assert_cmpint (run_loom (f, "sessions", "delete", doomed), ==, 0);
  g_assert_nonnull (strstr (f->out, "Deleted 1 session"));
  g_assert_cmpint (loom_test_count_rows (f->path, "sessions"), ==, 2);
  g_assert_cmpint (loom_test_count_matches (f->path, "marmalade"), ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->path, "toast"), ==, 3);

  g_assert_cmpint (run_loom (f, "sessions", "delete", doomed), ==, 1);
  g_assert_nonnull (strstr (f->err, "No session"));

  g_assert_true (loom_store_set_trashed (f->store, trashed, TRUE, &error));
  g_assert_cmpint (run_loom (f, "sessions", "empty-trash", "--dry-run"), ==, 0);
  g_assert_nonnull (strstr (f->out, "In the trash"));
  g_assert_cmpint (loom_test_count_rows (f->path, "sessions"), ==, 2);
  g_assert_cmpint (run_loom (f, "sessions", "empty-trash", "--json"), ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->path, "sessions"), ==, 1);
  g_assert_cmpint (loom_test_count_matches (f->path, "crumbs"), ==, 0);
}

static void
test_folders (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Filed", "codex", "x", 1, 0,
                                                 loom_time_now_ms ());
  g_autoptr (JsonNode) list = NULL;
  g_autoptr (LoomSession) session = NULL;

  g_assert_cmpint (run_loom (f, "folders", "list"), ==, 0);
  g_assert_nonnull (strstr (f->err, "No folders"));

  g_assert_cmpint (run_loom (f, "folders", "create", "Bugs"), ==, 0);
  g_assert_cmpint (run_loom (f, "folders", "create", "Ideas", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "name"), ==,
                     "Ideas");
  }
  g_assert_cmpint (run_loom (f, "folders", "create", "bugs"), ==, 1);
  g_assert_nonnull (strstr (f->err, "already exists"));

  g_assert_cmpint (run_loom (f, "folders", "rename", "Bugs", "Bug hunts"), ==, 0);
  g_assert_cmpint (run_loom (f, "folders", "reorder", "Ideas", "0"), ==, 0);
  g_assert_cmpint (run_loom (f, "sessions", "move", uuid, "Bug hunts"), ==, 0);

  g_assert_cmpint (run_loom (f, "folders", "list", "--json"), ==, 0);
  list = parse_out (f);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (list)), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (json_node_get_array (list), 0), "name"),
                   ==, "Ideas");
  g_assert_cmpint (json_object_get_int_member (
                     json_array_get_object_element (json_node_get_array (list), 1), "sessions"),
                   ==, 1);

  g_assert_cmpint (run_loom (f, "folders", "delete", "Bug hunts"), ==, 0);
  g_assert_nonnull (strstr (f->out, "1 session left the folder and was kept"));
  session = reload (f, uuid);
  g_assert_cmpint (loom_session_get_folder_id (session), ==, 0);

  g_assert_cmpint (run_loom (f, "folders", "delete", "Bug hunts"), ==, 1);
  g_assert_cmpint (run_loom (f, "folders", "reorder", "Ideas", "first"), ==, 2);
}

static void
test_index_rebuild (Fixture      *f,
                    gconstpointer data)
{
  g_free (
    loom_test_add_session (f->store, "Indexed", "codex", "quokka", 2, 1, loom_time_now_ms ()));
  g_assert_cmpint (run_loom (f, "index", "rebuild"), ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->path, "quokka"), ==, 3);
}

static void
test_search (Fixture      *f,
             gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Quokka census - 2026-11-29", "codex",
                                                 "quokka", 3, 1, loom_time_now_ms ());
  g_autoptr (JsonNode) node = NULL;
  JsonArray  *array;
  JsonObject *hit;

  g_assert_cmpint (run_loom (f, "search", "quokka", "--json", "--limit", "2"), ==, 0);
  node = parse_out (f);
  array = json_node_get_array (node);
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  hit = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (hit, "session_id"), ==, uuid);
  g_assert_cmpstr (json_object_get_string_member (hit, "kind"), ==, "title");
  g_assert_nonnull (strstr (json_object_get_string_member (hit, "snippet"), "**Quokka**"));
  hit = json_array_get_object_element (array, 1);
  g_assert_cmpint (json_object_get_int_member (hit, "item_id"), >, 0);
  g_assert_cmpint (json_object_get_int_member (hit, "seq"), >, 0);
  g_assert_true (json_object_has_member (hit, "date"));

  /* Several words as several arguments; the text form names session, item, kind and date. */
  g_assert_cmpint (run_loom (f, "search", "message", "about", "quokka"), ==, 0);
  g_assert_nonnull (strstr (f->out, "«quokka»"));
  g_assert_nonnull (strstr (f->out, "prompt"));
  g_assert_nonnull (strstr (f->out, "#1"));

  g_assert_cmpint (run_loom (f, "search", "\"quokka"), ==, 1);
  g_assert_nonnull (strstr (f->err, "quote"));
  g_assert_cmpint (run_loom (f, "search", "zebra"), ==, 0);
  g_assert_nonnull (strstr (f->err, "No hits"));
  g_assert_cmpint (run_loom (f, "search", "--session", uuid, "grep"), ==, 0);
  g_assert_nonnull (strstr (f->out, "tool"));
}

/* LOOM_DB points the CLI at a store as --db does. */
static void
test_env_store (Fixture      *f,
                gconstpointer data)
{
  g_free (loom_test_add_session (f->store, "Through the environment", "codex", "x", 1, 0,
                                 loom_time_now_ms ()));
  g_assert_cmpint (run_loom_at (f, NULL, "sessions", "list", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "Through the environment"));
}

static void
test_newer_store_refused (Fixture      *f,
                          gconstpointer data)
{
  g_autofree char *future = g_build_filename (f->dir, "future.db", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  {
    g_autoptr (GError) error = NULL;
    g_autoptr (LoomStore) store = loom_store_open (future, &error);
    g_assert_no_error (error);
  }
  {
    /* Pretend a later version wrote it. */
    sqlite3 *db = NULL;

    g_assert_cmpint (sqlite3_open (future, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 999",
                                   NULL, NULL, NULL),
                     ==, SQLITE_OK);
    sqlite3_close (db);
  }
  before = loom_test_file_checksum (future);

  g_assert_cmpint (run_loom_at (f, future, "sessions", "list", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "newer version"));
  g_assert_cmpstr (f->out, ==, "");
  after = loom_test_file_checksum (future);
  g_assert_cmpstr (before, ==, after);
}

static void
test_export (Fixture      *f,
             gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Export me - 2026-11-29", "codex",
                                                 "parcel", 4, 2, 1000);
  g_autofree char *dest = g_build_filename (f->dir, "packages", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "missing", NULL);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *object, *package;
  JsonArray  *packages, *failed;

  g_assert_no_errno (g_mkdir (dest, 0700));

  /* --to is required: there is no default destination. */
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid), ==, 2);
  g_assert_nonnull (strstr (f->err, "--to"));
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest, "--detail", "some"), ==,
                   2);
  /* A budget is for compact packages only, and a positive integer. */
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest, "--budget", "5000"), ==,
                   2);
  g_assert_nonnull (strstr (f->err, "--mode compact"));
  g_assert_cmpint (
    run_loom (f, "sessions", "export", uuid, "--to", dest, "--mode", "compact", "--budget", "lots"),
    ==, 2);
  g_assert_cmpint (
    run_loom (f, "sessions", "export", uuid, "--to", dest, "--mode", "compact", "--budget", "-5"),
    ==, 2);
  /* Out of the bounds the core accepts: it fails, saying which. */
  g_assert_cmpint (
    run_loom (f, "sessions", "export", uuid, "--to", dest, "--mode", "compact", "--budget", "10"),
    ==, 1);
  g_assert_nonnull (strstr (f->err, "1000"));

  g_assert_cmpint (
    run_loom (f, "sessions", "export", uuid, "--to", dest, "--detail", "messages", "--json"), ==,
    0);
  root = parse_out (f);
  object = json_node_get_object (root);
  packages = json_object_get_array_member (object, "packages");
  failed = json_object_get_array_member (object, "failed");
  g_assert_cmpuint (json_array_get_length (packages), ==, 1);
  g_assert_cmpuint (json_array_get_length (failed), ==, 0);
  package = json_array_get_object_element (packages, 0);
  g_assert_cmpstr (json_object_get_string_member (package, "session_id"), ==, uuid);
  /* conversation.md and .html, metadata.json, session.jsonl and manifest.json. */
  g_assert_cmpint (json_object_get_int_member (package, "files"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (package, "bytes"), >, 0);
  g_assert_cmpint (json_object_get_int_member (package, "artifacts"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (package, "artifacts_missing"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (package, "redactions"), ==, 0);
  {
    g_autofree char *expected = g_build_filename (dest, "Export me - 2026-11-29", NULL);
    g_autofree char *manifest = g_build_filename (expected, "manifest.json", NULL);

    g_assert_cmpstr (json_object_get_string_member (package, "path"), ==, expected);
    g_assert_true (g_file_test (manifest, G_FILE_TEST_IS_REGULAR));
  }
  g_clear_pointer (&root, json_node_unref);

  /* One unknown session among good ones: the others are written, the status says it failed. */
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "ffffffff", "--to", dest, "--json"), ==,
                   1);
  root = parse_out (f);
  object = json_node_get_object (root);
  packages = json_object_get_array_member (object, "packages");
  failed = json_object_get_array_member (object, "failed");
  g_assert_cmpuint (json_array_get_length (packages), ==, 1);
  g_assert_true (g_str_has_suffix (
    json_object_get_string_member (json_array_get_object_element (packages, 0), "path"),
    "Export me - 2026-11-29 (2)"));
  g_assert_cmpuint (json_array_get_length (failed), ==, 1);
  g_assert_cmpstr (
    json_object_get_string_member (json_array_get_object_element (failed, 0), "session_id"), ==,
    "ffffffff");
  g_assert_nonnull (
    json_object_get_string_member (json_array_get_object_element (failed, 0), "error"));

  /* Without --json a line per package; a missing destination fails. */
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest), ==, 0);
  g_assert_nonnull (strstr (f->out, "Export me - 2026-11-29 (3)"));
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", missing), ==, 1);
  g_assert_nonnull (strstr (f->err, "does not exist"));
}

/* --mode redacted: the token the session holds is replaced in the package, and counted. */
static void
test_export_redacted (Fixture      *f,
                      gconstpointer data)
{
  const char      *token = "ghp_R8x2Lq7Vn4Tz9Kw3Pb6Yc1Md5Hs0Jf8Ga2Ue";
  g_autofree char *uuid = loom_test_add_session (f->store, "Redact me - 2026-11-29", "codex", token,
                                                 4, 0, 1000);
  g_autofree char *dest = g_build_filename (f->dir, "packages", NULL);
  g_autofree char *conversation = NULL;
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *package;

  g_assert_no_errno (g_mkdir (dest, 0700));
  g_assert_cmpint (
    run_loom (f, "sessions", "export", uuid, "--to", dest, "--mode", "redacted", "--json"), ==, 0);
  root = parse_out (f);
  package = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "packages"), 0);
  g_assert_cmpint (json_object_get_int_member (package, "redactions"), >=, 4);
  conversation = g_build_filename (json_object_get_string_member (package, "path"),
                                   "conversation.md", NULL);
  g_assert_true (g_file_get_contents (conversation, &text, NULL, NULL));
  g_assert_null (strstr (text, token));
  g_assert_nonnull (strstr (text, "[REDACTED:github-token-1]"));
}

/* --mode compact --budget: a package with the compact text under the budget, and no
 * session.jsonl. */
static void
test_export_compact (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Compact me - 2026-11-29", "codex",
                                                 "parcel", 40, 10, 1000);
  g_autofree char *dest = g_build_filename (f->dir, "packages", NULL);
  g_autofree char *manifest_path = NULL;
  g_autofree char *session_data = NULL;
  g_autofree char *conversation = NULL;
  g_autofree char *text = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (JsonNode) root = NULL;
  JsonObject *package, *manifest;
  const char *path;

  g_assert_no_errno (g_mkdir (dest, 0700));
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest, "--mode", "compact",
                             "--budget", "1500", "--json"),
                   ==, 0);
  root = parse_out (f);
  package = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "packages"), 0);
  path = json_object_get_string_member (package, "path");
  g_assert_cmpstr (json_object_get_string_member (package, "session_id"), ==, uuid);

  manifest_path = g_build_filename (path, "manifest.json", NULL);
  g_assert_true (json_parser_load_from_file (parser, manifest_path, NULL));
  manifest = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (manifest, "mode"), ==, "compact");
  g_assert_cmpint (json_object_get_int_member (manifest, "budget"), ==, 1500);
  g_assert_cmpint (json_object_get_int_member (manifest, "estimated_tokens"), <=, 1500);

  conversation = g_build_filename (path, "conversation.md", NULL);
  g_assert_true (g_file_get_contents (conversation, &text, NULL, NULL));
  g_assert_cmpuint (loom_export_estimate_tokens (text, -1), ==,
                    json_object_get_int_member (manifest, "estimated_tokens"));
  g_assert_true (g_str_has_prefix (text, "# Compact me - 2026-11-29\n"));
  session_data = g_build_filename (path, "session.jsonl", NULL);
  g_assert_false (g_file_test (session_data, G_FILE_TEST_EXISTS));
}

/* A session whose workspace is here: `--json` counts the files copied into artifacts/ and
 * those the session touched that are not there. */
static void
test_export_artifacts (Fixture      *f,
                       gconstpointer data)
{
  static const char session_id[] = "2f4e6a8c-1b3d-4f5a-9c7e-0d2b4f6a8c1e";
  g_autofree char  *workspace = g_build_filename (f->dir, "workspace", NULL);
  g_autofree char  *present = g_build_filename (workspace, "present.txt", NULL);
  g_autofree char  *transcript = g_build_filename (f->dir, "claude", "session.jsonl", NULL);
  g_autofree char  *folder = g_path_get_dirname (transcript);
  g_autofree char  *dest = g_build_filename (f->dir, "packages", NULL);
  g_autofree char  *lines = NULL;
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  const char *paths[] = { transcript, NULL };
  JsonObject *package;

  g_assert_no_errno (g_mkdir_with_parents (workspace, 0700));
  g_assert_no_errno (g_mkdir_with_parents (folder, 0700));
  g_assert_no_errno (g_mkdir (dest, 0700));
  g_file_set_contents (present, "here\n", -1, &error);
  g_assert_no_error (error);
  lines = g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"1a\",\"parentUuid\":null,\"sessionId\":\"%s\","
    "\"cwd\":\"%s\",\"timestamp\":\"2026-05-01T10:00:01.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":\"Read two files\"}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"2b\",\"parentUuid\":\"1a\",\"sessionId\":\"%s\","
    "\"cwd\":\"%s\",\"timestamp\":\"2026-05-01T10:00:02.000Z\","
    "\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Read\","
    "\"input\":{\"file_path\":\"present.txt\"}},{\"type\":\"tool_use\",\"id\":\"toolu_2\","
    "\"name\":\"Read\",\"input\":{\"file_path\":\"absent.txt\"}}]}}\n",
    session_id, workspace, session_id, workspace);
  g_file_set_contents (transcript, lines, -1, &error);
  g_assert_no_error (error);
  stats = loom_test_import_paths (f->store, "claude-code", paths);

  g_assert_cmpint (run_loom (f, "sessions", "export", session_id, "--to", dest, "--json"), ==, 0);
  root = parse_out (f);
  package = json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (root), "packages"), 0);
  g_assert_cmpint (json_object_get_int_member (package, "artifacts"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (package, "artifacts_missing"), ==, 1);
  /* conversation.md and .html, metadata.json, session.jsonl, manifest.json and the copy. */
  g_assert_cmpint (json_object_get_int_member (package, "files"), ==, 6);
  {
    g_autofree char *copy = g_build_filename (json_object_get_string_member (package, "path"),
                                              "artifacts", "files", "present.txt", NULL);

    g_assert_true (g_file_test (copy, G_FILE_TEST_IS_REGULAR));
  }
}

/* Exports the session @uuid of @f's store into @dest and returns the package's path. */
static char *
export_package (Fixture    *f,
                const char *uuid,
                const char *dest)
{
  g_autoptr (JsonNode) root = NULL;

  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest, "--json"), ==, 0);
  root = parse_out (f);
  return g_strdup (json_object_get_string_member (
    json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (root), "packages"), 0),
    "path"));
}

/* `loom import PACKAGE` into another store: once imported, then skipped; a package changed
 * after its export is refused, naming the file, and the store is left as it was. */
static void
test_import_package (Fixture      *f,
                     gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Take me home - 2026-11-30", "codex",
                                                 "homeward", 4, 3, 1000);
  g_autofree char *dest = g_build_filename (f->dir, "packages", NULL);
  g_autofree char *other = g_build_filename (f->dir, "other.db", NULL);
  g_autofree char *package = NULL;
  g_autofree char *tampered = NULL;
  g_autofree char *conversation = NULL;
  g_autofree char *text = NULL;
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *object, *entry;
  gsize       length;

  g_assert_no_errno (g_mkdir (dest, 0700));
  package = export_package (f, uuid, dest);

  g_assert_cmpint (run_loom_at (f, other, "import", package, "--json", NULL), ==, 0);
  root = parse_out (f);
  object = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (object, "packages_imported"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (object, "packages_skipped"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (object, "packages_refused"), ==, 0);
  /* The members `loom import` always had are there still. */
  g_assert_cmpint (json_object_get_int_member (object, "files"), ==, 0);
  entry = json_array_get_object_element (json_object_get_array_member (object, "packages"), 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "imported");
  g_assert_cmpstr (json_object_get_string_member (entry, "session_id"), ==, uuid);
  g_assert_cmpint (json_object_get_int_member (entry, "messages"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (entry, "events"), ==, 3);
  g_clear_pointer (&root, json_node_unref);
  g_assert_cmpint (loom_test_count_rows (other, "messages"), ==, 4);
  g_assert_cmpint (loom_test_count_matches (other, "homeward"), >, 0);

  g_assert_cmpint (run_loom_at (f, other, "sessions", "show", uuid, NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "Take me home - 2026-11-30"));

  /* Twice: nothing changes, and that is not a failure. */
  g_assert_cmpint (run_loom_at (f, other, "import", package, NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "already in the store"));
  g_assert_cmpint (loom_test_count_rows (other, "sessions"), ==, 1);
  g_assert_cmpint (loom_test_count_rows (other, "messages"), ==, 4);
  g_assert_cmpint (loom_test_count_rows (other, "events"), ==, 3);

  /* One byte of conversation.md changed: refused, the file named, exit 1. */
  tampered = export_package (f, uuid, dest);
  conversation = g_build_filename (tampered, "conversation.md", NULL);
  g_file_get_contents (conversation, &text, &length, &error);
  g_assert_no_error (error);
  text[length / 2] ^= 0x20;
  g_file_set_contents (conversation, text, (gssize)length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_loom_at (f, f->path, "import", tampered, NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "conversation.md"));
  g_assert_cmpint (run_loom_at (f, f->path, "import", tampered, "--json", NULL), ==, 1);
  root = parse_out (f);
  object = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (object, "packages_refused"), ==, 1);
  entry = json_array_get_object_element (json_object_get_array_member (object, "packages"), 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "status"), ==, "refused");
  g_assert_nonnull (strstr (json_object_get_string_member (entry, "error"), "conversation.md"));

  /* A good package and a tampered one at once: the good one is skipped (it is there), the
   * other refused, and the status says something failed. */
  g_assert_cmpint (run_loom_at (f, other, "import", package, tampered, NULL), ==, 1);
  g_assert_nonnull (strstr (f->out, "already in the store"));
  g_assert_nonnull (strstr (f->err, "conversation.md"));
  g_assert_cmpint (loom_test_count_rows (other, "sessions"), ==, 1);
}

/* `loom backup-key`: against the real gnome-keyring of tests/harness/loom-test-session, which
 * the test needs (tests/cli/meson.build runs it there as "cli-backup-key"). */
static void
test_backup_key (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (LoomBackupKey) read_back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *key_id = NULL;
  g_autofree char *created_recovery = NULL;
  g_auto (GStrv) ids = NULL;

  /* Only in the run that has the keyring to itself, even when the whole suite runs inside a
   * harness session. */
  if (g_getenv ("LOOM_TEST_SESSION") == NULL || g_getenv ("LOOM_TEST_CLI_KEYRING") == NULL)
    {
      g_test_skip ("needs the private keyring of tests/harness/loom-test-session");
      return;
    }
  ids = loom_keyring_list_key_ids (NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; ids[i] != NULL; i++)
    g_assert_true (loom_keyring_clear_secret (ids[i], NULL, NULL));

  g_assert_cmpint (run_loom (f, "backup-key", "status"), ==, 0);
  g_assert_nonnull (strstr (f->out, "No backup key"));
  g_assert_cmpint (run_loom (f, "backup-key", "status", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);
    JsonObject *object = json_node_get_object (node);

    g_assert_false (json_object_get_boolean_member (object, "exists"));
    g_assert_true (json_object_get_null_member (object, "key_id"));
  }
  /* No key: nothing to show, and a failure. */
  g_assert_cmpint (run_loom (f, "backup-key", "recovery"), ==, 1);
  g_assert_nonnull (strstr (f->err, "holds no backup key"));
  g_assert_cmpstr (f->out, ==, "");

  /* Created: the recovery key alone on standard output, the advice on standard error. */
  g_assert_cmpint (run_loom (f, "backup-key", "create"), ==, 0);
  g_assert_nonnull (strstr (f->err, "Write it down"));
  created_recovery = g_strdup (f->out);
  read_back = loom_backup_key_new_from_recovery (created_recovery, &error);
  g_assert_no_error (error);

  g_assert_cmpint (run_loom (f, "backup-key", "status", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);
    JsonObject *object = json_node_get_object (node);

    g_assert_true (json_object_get_boolean_member (object, "exists"));
    key_id = g_strdup (json_object_get_string_member (object, "key_id"));
  }
  g_assert_cmpstr (key_id, ==, loom_backup_key_get_id (read_back));
  g_assert_cmpint (run_loom (f, "backup-key", "status"), ==, 0);
  g_assert_nonnull (strstr (f->out, key_id));

  /* A second key is refused, and the first one kept. */
  g_assert_cmpint (run_loom (f, "backup-key", "create"), ==, 1);
  g_assert_nonnull (strstr (f->err, "already holds backup key"));
  g_assert_cmpstr (f->out, ==, "");
  g_assert_cmpint (run_loom (f, "backup-key", "status", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);

    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "key_id"), ==,
                     key_id);
  }

  /* The recovery key shown again is the same, and reads back to the key's id. */
  g_assert_cmpint (run_loom (f, "backup-key", "recovery"), ==, 0);
  g_assert_cmpstr (f->out, ==, created_recovery);
  g_clear_pointer (&read_back, loom_backup_key_free);
  read_back = loom_backup_key_new_from_recovery (f->out, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_backup_key_get_id (read_back), ==, key_id);

  g_assert_cmpint (run_loom (f, "backup-key", "recovery", "--json"), ==, 0);
  {
    g_autoptr (JsonNode) node = parse_out (f);
    JsonObject *object = json_node_get_object (node);
    g_autoptr (LoomBackupKey) from_json = NULL;

    g_assert_cmpstr (json_object_get_string_member (object, "key_id"), ==, key_id);
    from_json = loom_backup_key_new_from_recovery (
      json_object_get_string_member (object, "recovery_key"), &error);
    g_assert_no_error (error);
    g_assert_cmpstr (loom_backup_key_get_id (from_json), ==, key_id);
  }

  g_assert_cmpint (run_loom (f, "backup-key", "status", "extra"), ==, 2);
  g_assert_cmpint (run_loom (f, "backup-key", "rotate"), ==, 2);
}

/* `loom sessions export --encrypt` and `loom restore`: the key from the keyring (created when
 * there is none), one .loombackup file a session that shows nothing of it, restored into another
 * store; and with no keyring to reach, the export fails before anything is written. */
static void
test_export_encrypted (Fixture      *f,
                       gconstpointer data)
{
  g_autofree char *uuid = loom_test_add_session (f->store, "Encrypt me - 2026-11-29", "codex",
                                                 "parcel", 4, 2, 1000);
  g_autofree char *dest = g_build_filename (f->dir, "backups", NULL);
  g_autofree char *other = g_build_filename (f->dir, "other.db", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *no_bus = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = NULL;
  gsize length = 0;

  if (g_getenv ("LOOM_TEST_SESSION") == NULL || g_getenv ("LOOM_TEST_CLI_KEYRING") == NULL)
    {
      g_test_skip ("needs the private keyring of tests/harness/loom-test-session");
      return;
    }
  g_assert_no_errno (g_mkdir (dest, 0700));

  /* Only full: a part of a session encrypted would be restored as if it were all of it. */
  g_assert_cmpint (
    run_loom (f, "sessions", "export", uuid, "--to", dest, "--encrypt", "--mode", "redacted"), ==,
    2);

  /* No keyring on the bus: refused, and nothing written, not even a temporary file. */
  no_bus = g_strdup (g_getenv ("DBUS_SESSION_BUS_ADDRESS"));
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/loom-test-bus", TRUE);
  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest, "--encrypt"), ==, 1);
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", no_bus, TRUE);
  g_assert_nonnull (strstr (f->err, "keyring"));
  dir = g_dir_open (dest, 0, &error);
  g_assert_null (g_dir_read_name (dir));
  g_clear_pointer (&dir, g_dir_close);

  g_assert_cmpint (run_loom (f, "sessions", "export", uuid, "--to", dest, "--encrypt", "--json"),
                   ==, 0);
  expected = g_strdup_printf ("%s/%s.loombackup", dest, uuid);
  g_assert_true (g_file_get_contents (expected, &bytes, &length, &error));
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (bytes, "LOOMBKUP"));
  /* Nothing of the session in the clear: not its title, not its words, not a file name. */
  g_assert_null (g_strstr_len (bytes, (gssize)length, "Encrypt me"));
  g_assert_null (g_strstr_len (bytes, (gssize)length, "parcel"));
  g_assert_null (g_strstr_len (bytes, (gssize)length, "conversation.md"));

  /* Back, in another store, with the key in the keyring; a second time changes nothing. */
  g_assert_cmpint (run_loom_at (f, other, "restore", dest, "--json", NULL), ==, 0);
  {
    g_autoptr (JsonNode) root = parse_out (f);
    JsonObject *object = json_node_get_object (root);
    JsonArray  *restored = json_object_get_array_member (object, "restored");

    g_assert_cmpuint (json_array_get_length (restored), ==, 1);
    g_assert_cmpstr (json_array_get_string_element (restored, 0), ==, uuid);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "failed")), ==,
                      0);
  }
  g_assert_cmpint (run_loom_at (f, other, "restore", expected, "--json", NULL), ==, 0);
  {
    g_autoptr (JsonNode) root = parse_out (f);
    JsonObject *object = json_node_get_object (root);

    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "unchanged")),
                      ==, 1);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "restored")), ==,
                      0);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  if (g_getenv ("LOOM_CLI") == NULL)
    g_error ("LOOM_CLI must name the loom executable under test");

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/cli/version-and-help", test_version_and_help);
  ADD ("/cli/sessions/list-and-show", test_list_and_show);
  ADD ("/cli/sessions/changes", test_changes);
  ADD ("/cli/sessions/delete", test_delete);
  ADD ("/cli/folders", test_folders);
  ADD ("/cli/index/rebuild", test_index_rebuild);
  ADD ("/cli/search", test_search);
  ADD ("/cli/sessions/export", test_export);
  ADD ("/cli/sessions/export-artifacts", test_export_artifacts);
  ADD ("/cli/sessions/export-redacted", test_export_redacted);
  ADD ("/cli/sessions/export-compact", test_export_compact);
  ADD ("/cli/import/package", test_import_package);
  ADD ("/cli/store/env", test_env_store);
  ADD ("/cli/store/newer-refused", test_newer_store_refused);
  ADD ("/cli/backup-key", test_backup_key);
  ADD ("/cli/backup-key/export-encrypted", test_export_encrypted);
#undef ADD

  return g_test_run ();
}
