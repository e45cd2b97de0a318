/* test-import-cli.c — `loom import` as a person runs it: default folders, incremental passes,
 * warnings with file and line, deleted agent files, and the agents' files left untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "loom-claude-lines.h"
#include "loom-test-utils.h"

typedef struct
{
  char *dir;
  char *db;
  char *claude;        /* CLAUDE_CONFIG_DIR */
  char *session_file;
  char *out;
  char *err;
} Fixture;

/* Appends in place, as the agents do (a rename would look like a rewrite). */
static void
append_line (const char *path,
             char       *line)
{
  g_autofree char *owned = line;
  FILE *fp = fopen (path, "ab");

  g_assert_nonnull (fp);
  fprintf (fp, "%s\n", owned);
  fclose (fp);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *project = NULL;

  f->dir = loom_test_make_tmpdir ();
  f->db = g_build_filename (f->dir, "history.db", NULL);
  f->claude = g_build_filename (f->dir, "claude", NULL);
  project = g_build_filename (f->claude, "projects", "-tmp-proj", NULL);
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  f->session_file = g_build_filename (project, CLAUDE_SESSION ".jsonl", NULL);

  append_line (f->session_file, claude_user_line (1, "Why does the parser drop the last line?"));
  append_line (f->session_file, claude_assistant_line (2, "Because the file has no newline."));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->db);
  g_free (f->claude);
  g_free (f->session_file);
  g_free (f->out);
  g_free (f->err);
}

/* Runs loom with the fixture's store and agent folders; nothing of the real HOME is read. */
static int
run_loom (Fixture *f,
          ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  g_autofree char *empty = g_build_filename (f->dir, "nothing-here", NULL);
  int wait_status = 0;
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (char *)g_getenv ("LOOM_CLI"));
  g_ptr_array_add (argv, (char *)"--db");
  g_ptr_array_add (argv, f->db);
  va_start (args, f);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  envp = g_environ_setenv (envp, "CLAUDE_CONFIG_DIR", f->claude, TRUE);
  envp = g_environ_setenv (envp, "CODEX_HOME", empty, TRUE);
  envp = g_environ_setenv (envp, "HOME", f->dir, TRUE);
  envp = g_environ_unsetenv (envp, "LOOM_DB");
  /* The app's settings, as a key file the test can write: see test_extra_folders. */
  envp = g_environ_setenv (envp, "GSETTINGS_BACKEND", "keyfile", TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", f->dir, TRUE);

  g_clear_pointer (&f->out, g_free);
  g_clear_pointer (&f->err, g_free);
  g_spawn_sync (NULL, (char **)argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, &f->out, &f->err,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  return WEXITSTATUS (wait_status);
}

static JsonObject *
import_json (Fixture    *f,
             JsonParser *parser)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run_loom (f, "import", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static JsonObject *
only_session (Fixture    *f,
              JsonParser *parser)
{
  g_autoptr(GError) error = NULL;
  JsonArray *sessions;

  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  sessions = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
  return json_array_get_object_element (sessions, 0);
}

static void
test_default_roots_incremental (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  JsonObject *stats, *session;

  before = loom_test_file_checksum (f->session_file);
  stats = import_json (f, parser);
  g_assert_cmpint (json_object_get_int_member (stats, "files"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (stats, "files_failed"), ==, 0);
  after = loom_test_file_checksum (f->session_file);
  g_assert_cmpstr (before, ==, after);

  session = only_session (f, parser);
  g_assert_cmpstr (json_object_get_string_member (session, "source"), ==, "claude-code");
  g_assert_cmpstr (json_object_get_string_member (session, "source_session_id"), ==,
                   CLAUDE_SESSION);
  g_assert_cmpint (json_object_get_int_member (session, "message_count"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (session, "title"), ==,
                   "Why does the parser drop the last line? - 2026-11-20");

  /* Again: nothing new is read or added. */
  stats = import_json (f, parser);
  g_assert_cmpint (json_object_get_int_member (stats, "files_unchanged"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (stats, "records"), ==, 0);

  /* The agent goes on: only the new records are read. */
  append_line (f->session_file, claude_user_line (3, "And the fix?"));
  stats = import_json (f, parser);
  g_assert_cmpint (json_object_get_int_member (stats, "records"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 0);
  session = only_session (f, parser);
  g_assert_cmpint (json_object_get_int_member (session, "message_count"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (
                     json_object_get_object_member (session, "counts"), "user_messages"), ==, 2);
}

static void
test_warnings_name_file_and_line (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *expected = NULL;
  JsonObject *stats, *session;
  JsonArray *warnings;
  gboolean found = FALSE;

  append_line (f->session_file, g_strdup ("{\"type\": \"user\", this is not json"));
  append_line (f->session_file, claude_user_line (4, "Still imported after the bad line"));

  stats = import_json (f, parser);
  g_assert_cmpint (json_object_get_int_member (stats, "files_failed"), ==, 0);
  warnings = json_object_get_array_member (stats, "warnings");
  expected = g_strdup_printf ("%s:3: not valid JSON", f->session_file);
  for (guint i = 0; i < json_array_get_length (warnings); i++)
    if (g_str_has_prefix (json_array_get_string_element (warnings, i), expected))
      found = TRUE;
  g_assert_true (found);

  session = only_session (f, parser);
  g_assert_cmpint (json_object_get_int_member (session, "message_count"), ==, 3);

  /* The text summary lists the warning too. */
  append_line (f->session_file, g_strdup ("{broken again"));
  g_assert_cmpint (run_loom (f, "import", NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "Warnings:  1"));
  g_assert_nonnull (strstr (f->out, ":5: not valid JSON"));
}

static void
test_paths_and_errors (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *missing = g_build_filename (f->dir, "does-not-exist", NULL);
  g_autofree char *notes = g_build_filename (f->dir, "notes.json", NULL);
  g_autoptr(GError) error = NULL;

  /* A file named on the command line, format detected from its content. */
  g_assert_cmpint (run_loom (f, "import", f->session_file, NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "Sessions:  1 (1 new)"));

  g_assert_cmpint (run_loom (f, "import", "--source", "claude-code", f->session_file, NULL), ==,
                   0);
  g_assert_nonnull (strstr (f->out, "1 unchanged"));

  /* A file of no known agent is named and skipped. */
  g_file_set_contents (notes, "{\"shopping\": [\"eggs\"]}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (run_loom (f, "import", notes, NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "not a session file of a known agent"));

  g_assert_cmpint (run_loom (f, "import", missing, NULL), ==, 1);
  g_assert_nonnull (strstr (f->out, "no such file or folder"));

  g_assert_cmpint (run_loom (f, "import", "--source", "cobol", NULL), ==, 1);
  g_assert_nonnull (strstr (f->err, "Unknown agent"));
}

/* Claude Code deletes its transcripts after 30 days; ours stays, marked. */
static void
test_deleted_source_kept (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *stats, *session;

  import_json (f, parser);
  g_assert_cmpint (g_remove (f->session_file), ==, 0);

  stats = import_json (f, parser);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_missing"), ==, 1);
  session = only_session (f, parser);
  g_assert_true (json_object_get_boolean_member (session, "source_missing"));
  g_assert_cmpint (json_object_get_int_member (session, "message_count"), ==, 2);
}

/* A session deleted for good does not come back with the next import. */
static void
test_deleted_session_stays_deleted (Fixture       *f,
                                    gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *session;
  g_autofree char *id = NULL;

  import_json (f, parser);
  session = only_session (f, parser);
  id = g_strdup (json_object_get_string_member (session, "id"));
  g_assert_cmpint (run_loom (f, "sessions", "delete", id, NULL), ==, 0);

  append_line (f->session_file, claude_user_line (5, "The agent keeps writing"));
  /* A sub-agent file that appears afterwards does not bring its parent back either. */
  {
    g_autofree char *dir = g_path_get_dirname (f->session_file);
    g_autofree char *agent = g_build_filename (dir, "agent-a1b2c3d4.jsonl", NULL);

    append_line (agent, g_strdup ("{\"type\":\"user\",\"uuid\":\"00000000-0000-4000-a000-000000000001\","
                                  "\"parentUuid\":null,\"isSidechain\":true,\"agentId\":\"a1b2c3d4\","
                                  "\"sessionId\":\"" CLAUDE_SESSION "\",\"timestamp\":"
                                  "\"2026-11-20T11:00:00.000Z\",\"cwd\":\"/tmp/proj\","
                                  "\"message\":{\"role\":\"user\",\"content\":\"Search the logs\"}}"));
  }
  import_json (f, parser);
  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (parser))),
                    ==, 0);
}

/* Folders added in the app's preferences are imported by `loom import` too. */
static void
test_extra_folders (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *extra = g_build_filename (f->dir, "synced-from-laptop", NULL);
  g_autofree char *settings_dir = g_build_filename (f->dir, "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *moved = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *stats;

  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    {
      g_test_skip ("the app's settings schema is not built (-Dgui=false)");
      return;
    }

  /* The session now lives only in the extra folder. */
  g_assert_cmpint (g_mkdir_with_parents (extra, 0700), ==, 0);
  moved = g_build_filename (extra, CLAUDE_SESSION ".jsonl", NULL);
  g_assert_cmpint (g_rename (f->session_file, moved), ==, 0);

  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  contents = g_strdup_printf ("[org/intentloom/History]\nextra-source-folders=['%s']\n", extra);
  g_file_set_contents (keyfile, contents, -1, &error);
  g_assert_no_error (error);

  stats = import_json (f, parser);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 2);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("LOOM_CLI") == NULL)
    g_error ("LOOM_CLI must name the loom executable under test");

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/import-cli/default-roots-incremental", test_default_roots_incremental);
  ADD ("/import-cli/warnings-name-file-and-line", test_warnings_name_file_and_line);
  ADD ("/import-cli/paths-and-errors", test_paths_and_errors);
  ADD ("/import-cli/deleted-source-kept", test_deleted_source_kept);
  ADD ("/import-cli/deleted-session-stays-deleted", test_deleted_session_stays_deleted);
  ADD ("/import-cli/extra-folders-from-settings", test_extra_folders);
#undef ADD

  return g_test_run ();
}
