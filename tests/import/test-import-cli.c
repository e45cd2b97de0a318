/* test-import-cli.c — `loom import` as a person runs it: default folders, incremental passes,
 * warnings with file and line, deleted agent files, and the agents' files left untouched.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loom-claude-lines.h"
#include "loom-core.h"
#include "loom-test-utils.h"

typedef struct
{
  char    *dir;
  char    *db;
  char    *claude; /* CLAUDE_CONFIG_DIR */
  char    *session_file;
  char    *out;
  char    *err;
  gboolean mode_bound; /* run loom bound by file modes, root or not */
} Fixture;

/* Appends in place, as the agents do (a rename would look like a rewrite). */
static void
append_line (const char *path,
             char       *line)
{
  g_autofree char *owned = line;
  FILE            *fp = fopen (path, "ab");

  g_assert_nonnull (fp);
  fprintf (fp, "%s\n", owned);
  fclose (fp);
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
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
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->db);
  g_free (f->claude);
  g_free (f->session_file);
  g_free (f->out);
  g_free (f->err);
}

/* root reads any file whatever its mode. Without these capabilities in the bounding set it
 * reads what the mode allows, as anyone else: exec gives root no more than that set. */
static void
drop_read_override (gpointer data)
{
  if (getuid () == 0)
    {
      prctl (PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0);
      prctl (PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0);
    }
}

/* Whether loom, run bound by file modes, would be refused @path. */
static gboolean
refused_to_read (const char *path)
{
  const char *argv[] = { "cat", path, NULL };
  int         wait_status = 0;

  if (!g_spawn_sync (NULL, (char **)argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     drop_read_override, NULL, NULL, NULL, &wait_status, NULL))
    return FALSE;
  return !g_spawn_check_wait_status (wait_status, NULL);
}

/* Runs loom with the fixture's store and agent folders; nothing of the real HOME is read. */
static int
run_loom (Fixture *f,
          ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) envp = g_get_environ ();
  g_autofree char *empty = g_build_filename (f->dir, "nothing-here", NULL);
  int              wait_status = 0;
  const char      *arg;
  va_list          args;

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
  g_spawn_sync (NULL, (char **)argv->pdata, envp, G_SPAWN_DEFAULT,
                f->mode_bound ? drop_read_override : NULL, NULL, &f->out, &f->err, &wait_status,
                &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  return WEXITSTATUS (wait_status);
}

static JsonObject *
import_json (Fixture    *f,
             JsonParser *parser)
{
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (run_loom (f, "import", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static JsonObject *
only_session (Fixture    *f,
              JsonParser *parser)
{
  g_autoptr (GError) error = NULL;
  JsonArray *sessions;

  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  sessions = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
  return json_array_get_object_element (sessions, 0);
}

static void
test_default_roots_incremental (Fixture      *f,
                                gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  JsonObject      *stats, *session;

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
  g_assert_cmpint (
    json_object_get_int_member (json_object_get_object_member (session, "counts"), "user_messages"),
    ==, 2);
}

static void
test_warnings_name_file_and_line (Fixture      *f,
                                  gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *expected = NULL;
  JsonObject      *stats, *session;
  JsonArray       *warnings;
  gboolean         found = FALSE;

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
test_paths_and_errors (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *missing = g_build_filename (f->dir, "does-not-exist", NULL);
  g_autofree char *notes = g_build_filename (f->dir, "notes.json", NULL);
  g_autoptr (GError) error = NULL;

  /* A file named on the command line, format detected from its content. */
  g_assert_cmpint (run_loom (f, "import", f->session_file, NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "Sessions:  1 (1 new)"));

  g_assert_cmpint (run_loom (f, "import", "--source", "claude-code", f->session_file, NULL), ==, 0);
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
test_deleted_source_kept (Fixture      *f,
                          gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
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
test_deleted_session_stays_deleted (Fixture      *f,
                                    gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject      *session;
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

    append_line (agent,
                 g_strdup ("{\"type\":\"user\",\"uuid\":\"00000000-0000-4000-a000-000000000001\","
                           "\"parentUuid\":null,\"isSidechain\":true,\"agentId\":\"a1b2c3d4\","
                           "\"sessionId\":\"" CLAUDE_SESSION "\",\"timestamp\":"
                           "\"2026-11-20T11:00:00.000Z\",\"cwd\":\"/tmp/proj\","
                           "\"message\":{\"role\":\"user\",\"content\":\"Search the logs\"}}"));
  }
  import_json (f, parser);
  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (parser))), ==,
                    0);
}

/* Folders added in the app's preferences are imported by `loom import` too. */
static void
test_extra_folders (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *extra = g_build_filename (f->dir, "synced-from-laptop", NULL);
  g_autofree char *settings_dir = g_build_filename (f->dir, "glib-2.0", "settings", NULL);
  g_autofree char *keyfile = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *moved = NULL;
  g_autoptr (GError) error = NULL;
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

/* ——— Telling formats apart (loom-import-collect.c, each format's detect) ——— */

static char *
write_lines (const char *path,
             ...)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  va_list          args;
  char            *line;

  va_start (args, path);
  while ((line = va_arg (args, char *)) != NULL)
    {
      g_string_append (text, line);
      g_string_append_c (text, '\n');
      g_free (line);
    }
  va_end (args);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text->str, (gssize)text->len, &error);
  g_assert_no_error (error);
  return g_strdup (path);
}

/* A first line of @size bytes or more, as Claude Code writes before the first prompt when it
 * tracks many files: {"type":"file-history-snapshot","messageId":…,"snapshot":{…}}. */
static char *
long_snapshot_line (gsize size)
{
  GString *line = g_string_new ("{\"type\":\"file-history-snapshot\","
                                "\"messageId\":\"00000000-0000-4000-8000-000000000001\","
                                "\"snapshot\":{\"messageId\":"
                                "\"00000000-0000-4000-8000-000000000001\","
                                "\"trackedFileBackups\":{");

  for (guint i = 0; line->len < size; i++)
    g_string_append_printf (line,
                            "%s\"/tmp/proj/src/module-%04u/file.c\":{\"backupFileName\":"
                            "\"0123456789abcdef@v1\",\"version\":1,\"backupTime\":"
                            "\"2026-11-20T09:59:00.000Z\"}",
                            i == 0 ? "" : ",", i);
  g_string_append (line, "},\"timestamp\":\"2026-11-20T09:59:00.000Z\"},"
                         "\"isSnapshotUpdate\":false}");
  return g_string_free (line, FALSE);
}

static gboolean
has_warning (JsonObject *stats,
             const char *text)
{
  JsonArray *warnings = json_object_get_array_member (stats, "warnings");

  for (guint i = 0; i < json_array_get_length (warnings); i++)
    if (strstr (json_array_get_string_element (warnings, i), text) != NULL)
      return TRUE;
  return FALSE;
}

static JsonObject *
import_paths_json (Fixture    *f,
                   JsonParser *parser,
                   int         expected_status,
                   ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  const char *arg;
  va_list     args;

  va_start (args, expected_status);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (char *)arg);
  va_end (args);
  while (argv->len < 5)
    g_ptr_array_add (argv, NULL);

  g_assert_cmpint (run_loom (f, "import", "--json", argv->pdata[0], argv->pdata[1], argv->pdata[2],
                             argv->pdata[3], argv->pdata[4], NULL),
                   ==, expected_status);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static guint
n_sessions (Fixture *f)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  return json_array_get_length (json_node_get_array (json_parser_get_root (parser)));
}

/* A first line longer than the 64 KB detection reads: the file is still Claude Code's. */
static void
test_long_first_line (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *folder = g_build_filename (f->dir, "copied", NULL);
  g_autofree char *path = g_build_filename (folder, "-tmp-proj", CLAUDE_SESSION ".jsonl", NULL);
  g_autofree char *moved = NULL;
  g_autofree char *long_line = long_snapshot_line (100 * 1024);
  JsonObject      *stats, *session;

  g_assert_cmpint (g_remove (f->session_file), ==, 0);
  g_free (write_lines (path, g_strdup (long_line), claude_user_line (1, "Why is the build slow?"),
                       claude_assistant_line (2, "The linker runs twice."), NULL));

  /* In a folder, told apart by content. */
  stats = import_paths_json (f, parser, 0, folder, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "files"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 2);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (stats, "warnings")), ==, 0);
  session = only_session (f, parser);
  g_assert_cmpstr (json_object_get_string_member (session, "source"), ==, "claude-code");
  g_assert_cmpint (json_object_get_int_member (session, "message_count"), ==, 2);

  /* Named, under another name (a new store for a first read). */
  moved = g_build_filename (f->dir, "snapshot-first.jsonl", NULL);
  g_assert_cmpint (g_rename (path, moved), ==, 0);
  g_assert_cmpint (g_remove (f->db), ==, 0);
  stats = import_paths_json (f, parser, 0, moved, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "files"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 2);
  g_assert_false (has_warning (stats, "not a session file"));

  /* With --source, a folder's files are those the format recognises: this one is. */
  g_assert_cmpint (g_rename (moved, path), ==, 0);
  g_assert_cmpint (g_remove (f->db), ==, 0);
  stats = import_paths_json (f, parser, 0, "--source", "claude-code", folder, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "messages"), ==, 2);
}

/* Long first lines do not make Claude claim the other agents' files: a Codex session_meta line
 * of 100 KB whose instructions quote Claude's field names stays Codex's, and the fixtures of
 * Codex and Gemini stay theirs. */
static void
test_long_first_line_foreign (Fixture      *f,
                              gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *folder = g_build_filename (f->dir, "mixed", NULL);
  g_autofree char *codex = g_build_filename (folder,
                                             "rollout-2026-03-02T10-15-42-"
                                             "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a78.jsonl",
                                             NULL);
  g_autofree char *padding = g_strnfill (100 * 1024, 'q');
  g_autofree char *fixtures = NULL;
  g_autoptr (GError) error = NULL;
  JsonArray *sessions;

  g_assert_cmpint (g_remove (f->session_file), ==, 0);
  g_free (write_lines (codex,
                       g_strdup_printf ("{\"timestamp\":\"2026-03-02T10:15:42.118Z\","
                                        "\"type\":\"session_meta\",\"payload\":{\"id\":"
                                        "\"019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a78\",\"timestamp\":"
                                        "\"2026-03-02T10:15:42.118Z\",\"cwd\":\"/tmp/proj\","
                                        "\"originator\":\"codex_cli_rs\",\"cli_version\":"
                                        "\"0.104.0\",\"instructions\":\"Each record has "
                                        "\\\"parentUuid\\\" and \\\"sessionId\\\" %s\"}}",
                                        padding),
                       NULL));

  import_paths_json (f, parser, 0, folder, NULL);
  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  sessions = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
  g_assert_cmpstr (
    json_object_get_string_member (json_array_get_object_element (sessions, 0), "source"), ==,
    "codex");

  for (guint a = 0; a < 2; a++)
    {
      const char *agent = a == 0 ? "codex" : "gemini";

      g_clear_pointer (&fixtures, g_free);
      fixtures = g_build_filename (g_getenv ("LOOM_TEST_FIXTURES"), agent, NULL);
      g_assert_cmpint (g_remove (f->db), ==, 0);
      import_paths_json (f, parser, 0, fixtures, NULL);
      g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
      json_parser_load_from_data (parser, f->out, -1, &error);
      g_assert_no_error (error);
      sessions = json_node_get_array (json_parser_get_root (parser));
      g_assert_cmpuint (json_array_get_length (sessions), >, 0);
      for (guint i = 0; i < json_array_get_length (sessions); i++)
        g_assert_cmpstr (
          json_object_get_string_member (json_array_get_object_element (sessions, i), "source"), ==,
          agent);
    }
}

/* --source names the agent of a file no format recognises, not of a file another one does. */
static void
test_source_forced (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *gemini = g_build_filename (g_getenv ("LOOM_TEST_FIXTURES"), "gemini", "jsonl",
                                              "tmp", "atlas", "chats",
                                              "session-2025-11-02T08-15-8c1d4e2a.jsonl", NULL);
  g_autofree char *codex = g_build_filename (g_getenv ("LOOM_TEST_FIXTURES"), "codex", "current",
                                             "rollout-2026-03-02T10-15-42-"
                                             "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77.jsonl",
                                             NULL);
  g_autofree char *unknown = g_build_filename (f->dir, "future.jsonl", NULL);
  g_autofree char *expected = NULL;
  JsonObject      *stats;

  stats = import_paths_json (f, parser, 0, "--source", "claude-code", gemini, NULL);
  expected = g_strdup_printf ("%s: this is a Gemini CLI session file, not a claude-code one; "
                              "skipped",
                              gemini);
  g_assert_true (has_warning (stats, expected));
  g_assert_cmpint (json_object_get_int_member (stats, "files"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (stats, "files_failed"), ==, 0);
  g_assert_cmpuint (n_sessions (f), ==, 0);

  stats = import_paths_json (f, parser, 0, "--source", "claude-code", codex, NULL);
  g_assert_true (has_warning (stats, "this is a Codex session file, not a claude-code one"));
  g_assert_cmpuint (n_sessions (f), ==, 0);

  /* Records of types no version we know writes, without the envelope: no format recognises
   * them, and the user's word is taken. */
  g_free (write_lines (unknown, g_strdup ("{\"type\":\"hologram\",\"beam\":1}"),
                       g_strdup ("{\"type\":\"hologram\",\"beam\":2}"), NULL));
  stats = import_paths_json (f, parser, 0, unknown, NULL);
  g_assert_true (has_warning (stats, "not a session file of a known agent"));
  g_assert_cmpuint (n_sessions (f), ==, 0);

  stats = import_paths_json (f, parser, 0, "--source", "claude-code", unknown, NULL);
  g_assert_false (has_warning (stats, "skipped"));
  g_assert_cmpint (json_object_get_int_member (stats, "files_imported"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "records"), ==, 2);
  g_assert_cmpuint (n_sessions (f), ==, 1);
}

/* A FIFO would block a reader; it is named for what it is and not opened. */
static void
test_not_regular (Fixture      *f,
                  gconstpointer data)
{
  g_autofree char *fifo = g_build_filename (f->dir, "pipe.jsonl", NULL);
  g_autofree char *expected = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (run_loom (f, "import", fifo, NULL), ==, 1);
  expected = g_strdup_printf ("%s: not a regular file or folder", fifo);
  g_assert_nonnull (strstr (f->out, expected));
  g_assert_null (strstr (f->out, "no such file"));
}

/* A file that cannot be read fails the import the same way however it was reached: a warning
 * with the system's reason, a failed file in the summary, exit status 1. Run as root, loom is
 * given up the capabilities that let root read any file (drop_read_override ()). */
static void
test_unreadable (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *folder = g_path_get_dirname (f->session_file);
  g_autofree char *locked = g_build_filename (folder, "6a1d0b63-2c8f-4d66-8e1f-4b9c3e7e2d02.jsonl",
                                              NULL);
  g_autofree char *shut = g_build_filename (folder, "shut", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *expected_folder = NULL;
  JsonObject      *stats;

  g_free (write_lines (
    locked, claude_user_line_in ("6a1d0b63-2c8f-4d66-8e1f-4b9c3e7e2d02", 1, "Locked away"), NULL));
  g_assert_cmpint (g_mkdir (shut, 0700), ==, 0);
  g_assert_cmpint (g_chmod (locked, 0), ==, 0);
  g_assert_cmpint (g_chmod (shut, 0), ==, 0);
  if (!refused_to_read (locked))
    {
      g_chmod (shut, 0700);
      g_test_skip ("file modes do not stop this process from reading");
      return;
    }
  f->mode_bound = TRUE;
  expected = g_strdup_printf ("%s: not imported: %s", locked, g_strerror (EACCES));
  expected_folder = g_strdup_printf ("%s: not imported: %s", shut, g_strerror (EACCES));

  /* In a folder: the readable session is imported, the file and the folder it cannot read
   * are reported. */
  stats = import_paths_json (f, parser, 1, folder, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (stats, "files_failed"), ==, 2);
  g_assert_true (has_warning (stats, expected));
  g_assert_true (has_warning (stats, expected_folder));

  /* Named, with and without --source. */
  stats = import_paths_json (f, parser, 1, locked, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "files_failed"), ==, 1);
  g_assert_true (has_warning (stats, expected));
  g_assert_false (has_warning (stats, "not a session file"));

  stats = import_paths_json (f, parser, 1, "--source", "claude-code", locked, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "files_failed"), ==, 1);
  g_assert_true (has_warning (stats, "Permission denied"));

  /* The text summary counts it as failed. */
  g_assert_cmpint (run_loom (f, "import", locked, NULL), ==, 1);
  g_assert_nonnull (strstr (f->out, "1 failed"));

  g_assert_cmpint (g_chmod (shut, 0700), ==, 0);
}

/* A folder whose name is not UTF-8 (file names are bytes): the session imports, and every JSON
 * output stays UTF-8, as JSON must, with U+FFFD for the bytes. */
static void
test_json_from_bytes (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *folder = g_build_filename (f->dir, "proj-\xff\xfe", NULL);
  g_autofree char *moved = NULL;
  g_autofree char *name = g_path_get_basename (f->session_file);
  JsonObject      *stats;
  JsonArray       *sessions;

  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  moved = g_build_filename (folder, name, NULL);
  g_assert_cmpint (g_rename (f->session_file, moved), ==, 0);
  append_line (moved, g_strdup ("{\"type\": \"user\", this is not json"));

  stats = import_paths_json (f, parser, 0, folder, NULL);
  g_assert_true (g_utf8_validate (f->out, -1, NULL));
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (stats, "warnings")), ==,
                    1);

  g_assert_cmpint (run_loom (f, "sessions", "list", "--json", NULL), ==, 0);
  g_assert_true (g_utf8_validate (f->out, -1, NULL));
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  sessions = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (sessions), ==, 1);
  g_assert_nonnull (strstr (
    json_object_get_string_member (json_array_get_object_element (sessions, 0), "source_path"),
    "proj-\xef\xbf\xbd"));
}

/* The session whose source is @source in `loom sessions list --json`. */
static JsonObject *
session_of (JsonArray  *sessions,
            const char *source)
{
  for (guint i = 0; i < json_array_get_length (sessions); i++)
    {
      JsonObject *s = json_array_get_object_element (sessions, i);

      if (g_strcmp0 (json_object_get_string_member (s, "source"), source) == 0)
        return s;
    }
  g_error ("no %s session", source);
  return NULL;
}

/* tokens.reasoning, as scripts read it: the part of output each agent spent reasoning, null
 * where the agent does not tell it apart (Claude Code). The Gemini and Codex fixtures'
 * figures are summed by hand in their READMEs (gemini-variants/tokens, codex-variants/
 * token-placeholders); `loom sessions show` says it in words. */
static void
test_tokens_reasoning (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *gemini = g_build_filename (g_getenv ("LOOM_TEST_FIXTURES"), "gemini-variants",
                                              "tokens", NULL);
  g_autofree char *codex = g_build_filename (g_getenv ("LOOM_TEST_FIXTURES"), "codex-variants",
                                             "token-placeholders", NULL);
  g_autofree char *gemini_id = NULL;
  JsonObject      *stats, *tokens;
  JsonArray       *sessions;

  stats = import_paths_json (f, parser, 0, f->session_file, gemini, codex, NULL);
  g_assert_cmpint (json_object_get_int_member (stats, "sessions_new"), ==, 3);
  g_assert_cmpint (run_loom (f, "sessions", "list", "--all", "--json", NULL), ==, 0);
  json_parser_load_from_data (parser, f->out, -1, &error);
  g_assert_no_error (error);
  sessions = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (sessions), ==, 3);

  tokens = json_object_get_object_member (session_of (sessions, "claude-code"), "tokens");
  g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, 5);
  g_assert_true (json_object_has_member (tokens, "reasoning"));
  g_assert_true (json_object_get_null_member (tokens, "reasoning"));

  tokens = json_object_get_object_member (session_of (sessions, "codex"), "tokens");
  g_assert_cmpint (json_object_get_int_member (tokens, "input"), ==, 7616);
  g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, 1300);
  g_assert_cmpint (json_object_get_int_member (tokens, "cache_read"), ==, 16384);
  g_assert_cmpint (json_object_get_int_member (tokens, "reasoning"), ==, 650);

  tokens = json_object_get_object_member (session_of (sessions, "gemini"), "tokens");
  g_assert_cmpint (json_object_get_int_member (tokens, "input"), ==, 4340);
  g_assert_cmpint (json_object_get_int_member (tokens, "output"), ==, 850);
  g_assert_cmpint (json_object_get_int_member (tokens, "cache_read"), ==, 12900);
  g_assert_cmpint (json_object_get_int_member (tokens, "cache_creation"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (tokens, "reasoning"), ==, 450);
  gemini_id = g_strdup (json_object_get_string_member (session_of (sessions, "gemini"), "id"));

  g_assert_cmpint (run_loom (f, "sessions", "show", gemini_id, NULL), ==, 0);
  g_assert_nonnull (strstr (f->out, "4340 in, 850 out, 12900 cache read, 0 cache written"));
  g_assert_nonnull (strstr (f->out, "Reasoning tokens"));
  g_assert_nonnull (strstr (f->out, "450 of the output"));
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
  ADD ("/import-cli/default-roots-incremental", test_default_roots_incremental);
  ADD ("/import-cli/warnings-name-file-and-line", test_warnings_name_file_and_line);
  ADD ("/import-cli/paths-and-errors", test_paths_and_errors);
  ADD ("/import-cli/deleted-source-kept", test_deleted_source_kept);
  ADD ("/import-cli/deleted-session-stays-deleted", test_deleted_session_stays_deleted);
  ADD ("/import-cli/extra-folders-from-settings", test_extra_folders);
  ADD ("/import-cli/detect/long-first-line", test_long_first_line);
  ADD ("/import-cli/detect/long-first-line-foreign", test_long_first_line_foreign);
  ADD ("/import-cli/detect/source-forced", test_source_forced);
  ADD ("/import-cli/detect/not-regular", test_not_regular);
  ADD ("/import-cli/detect/unreadable", test_unreadable);
  ADD ("/import-cli/json-from-bytes", test_json_from_bytes);
  ADD ("/import-cli/tokens-reasoning", test_tokens_reasoning);
#undef ADD

  return g_test_run ();
}
