/* test-naming.c — the title convention `<descriptive name> - YYYY-MM-DD`: splitting, suggesting
 * a name from a prompt, building a title back, and finding the prompt in a real store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <sqlite3.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-importer.h"
#include "loom-naming.h"
#include "loom-search-tokenizer.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-time.h"

static void
test_is_date (void)
{
  g_assert_true (loom_naming_is_date ("2026-11-29"));
  g_assert_true (loom_naming_is_date ("2024-02-29"));
  g_assert_false (loom_naming_is_date ("2025-02-29"));
  g_assert_false (loom_naming_is_date ("2026-13-01"));
  g_assert_false (loom_naming_is_date ("2026-11-00"));
  g_assert_false (loom_naming_is_date ("2026-11-3"));
  g_assert_false (loom_naming_is_date ("2026/11/29"));
  g_assert_false (loom_naming_is_date ("2026-11-29 "));
  g_assert_false (loom_naming_is_date (""));
  g_assert_false (loom_naming_is_date (NULL));
}

static void
test_split_title (void)
{
  static const struct
  {
    const char *title;
    gboolean    dated;
    const char *name;
    const char *date;
  } cases[] = {
    { "Fix the flaky login test - 2026-11-29", TRUE, "Fix the flaky login test", "2026-11-29" },
    /* Dashes inside the name stay; only the last separator counts. */
    { "Port GTK3 - GTK4 dialogs - 2026-01-02", TRUE, "Port GTK3 - GTK4 dialogs", "2026-01-02" },
    { "Fix the build – 2026-11-29", TRUE, "Fix the build", "2026-11-29" },
    { "Fix the build — 2026-11-29", TRUE, "Fix the build", "2026-11-29" },
    { "  Fix   the\nbuild  -  2026-11-29 ", TRUE, "Fix the build", "2026-11-29" },
    { "2026-11-29", TRUE, "", "2026-11-29" },
    { "- 2026-11-29", TRUE, "", "2026-11-29" },
    /* What the importer writes when it knows no date. */
    { "Untitled session - undated", FALSE, "Untitled session", NULL },
    /* Not the convention: the whole title is the name. */
    { "Release 2026-11-29", FALSE, "Release 2026-11-29", NULL },
    { "Fix it -2026-11-29", FALSE, "Fix it -2026-11-29", NULL },
    { "Fix it - 2026-13-29", FALSE, "Fix it - 2026-13-29", NULL },
    { "Mostly undated", FALSE, "Mostly undated", NULL },
    { "Fix the build", FALSE, "Fix the build", NULL },
    { "", FALSE, "", NULL },
    { NULL, FALSE, "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *date = NULL;

      g_assert_cmpint (loom_naming_split_title (cases[i].title, &name, &date), ==, cases[i].dated);
      g_assert_cmpstr (name, ==, cases[i].name);
      g_assert_cmpstr (date, ==, cases[i].date);
    }

  /* Either part may be left out. */
  g_assert_true (loom_naming_split_title ("A - 2026-11-29", NULL, NULL));
}

static void
test_suggest_name (void)
{
  static const struct
  {
    const char *prompt;
    const char *name;
  } cases[] = {
    { "fix the flaky login test", "Fix the flaky login test" },
    { "Can you fix the flaky login test? It fails on CI.", "Fix the flaky login test" },
    { "Hi! Could you please port the settings page to libadwaita.",
      "Port the settings page to libadwaita" },
    { "I want you to explain why the arm64 build fails", "Explain why the arm64 build fails" },
    { "Please help me understand `loom-store.c`", "Understand loom-store.c" },
    /* A full stop inside a word does not end the sentence. */
    { "update README.md with the new flags. Then commit.", "Update README.md with the new flags" },
    /* Headings, bullets and code blocks are skipped to the first words. */
    { "\n\n# Refactor the importer\n\nIt reads whole lines.", "Refactor the importer" },
    { "```\nmake: *** [all] Error 2\n```\nwhy does make fail here?", "Why does make fail here" },
    { "1. add a --json flag to loom sessions list", "Add a --json flag to loom sessions list" },
    /* Long prompts are cut at a word boundary, never on a dangling "the". */
    { "refactor the importer so that huge JSONL lines are streamed instead of read whole into "
      "memory, and add a test",
      "Refactor the importer so that huge JSONL lines" },
    { "some words first", "Some words first" },
    { "éditer le fichier de configuration", "Éditer le fichier de configuration" },
    /* Nothing to name. */
    { "please", NULL },
    { "   \n\t ", NULL },
    { "```\nonly code\n```", NULL },
    { "", NULL },
    { NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = loom_naming_suggest_name (cases[i].prompt);

      g_assert_cmpstr (name, ==, cases[i].name);
      if (name != NULL)
        g_assert_cmpint (g_utf8_strlen (name, -1), <=, LOOM_NAMING_SUGGESTION_LIMIT);
    }

  /* Invalid UTF-8 gives nothing rather than garbage in a title. */
  g_assert_null (loom_naming_suggest_name ("fix \xff\xfe the build"));
}

static void
test_propose_name (void)
{
  g_autofree char *kept = NULL;
  g_autofree char *suggested = NULL;
  g_autofree char *cut = NULL;
  g_autofree char *fallback = NULL;
  g_autofree char *plain = NULL;

  g_assert_true (loom_naming_is_placeholder_name (""));
  g_assert_true (loom_naming_is_placeholder_name (NULL));
  g_assert_true (loom_naming_is_placeholder_name ("Untitled session"));
  g_assert_true (loom_naming_is_placeholder_name ("Refactor the importer so that…"));
  g_assert_false (loom_naming_is_placeholder_name ("Refactor the importer"));

  /* A person's name is kept; a stand-in gives way to a suggestion from the prompt. */
  kept = loom_naming_propose_name ("Login bug - 2026-11-29", "can you fix the login bug");
  g_assert_cmpstr (kept, ==, "Login bug");
  suggested = loom_naming_propose_name ("Untitled session - 2026-11-29", "fix the login bug");
  g_assert_cmpstr (suggested, ==, "Fix the login bug");
  cut = loom_naming_propose_name ("Could you refactor the importer so that huge JSONL…"
                                  " - 2026-11-29",
                                  "Could you refactor the importer so that huge JSONL lines are "
                                  "streamed");
  g_assert_cmpstr (cut, ==, "Refactor the importer so that huge JSONL lines");
  fallback = loom_naming_propose_name ("Untitled session - undated", NULL);
  g_assert_cmpstr (fallback, ==, "Untitled session");
  plain = loom_naming_propose_name ("Release notes", "write them");
  g_assert_cmpstr (plain, ==, "Release notes");
}

static void
test_build_title (void)
{
  static const struct
  {
    const char *name;
    const char *date;
    const char *title;
  } cases[] = {
    { "Fix the login test", "2026-11-29", "Fix the login test - 2026-11-29" },
    { "  Fix  the\nlogin test ", "2026-11-29", "Fix the login test - 2026-11-29" },
    /* The date is kept apart: one typed into the name is not doubled. */
    { "Fix the login test - 2025-01-01", "2026-11-29", "Fix the login test - 2026-11-29" },
    { "Fix the login test -", "2026-11-29", "Fix the login test - 2026-11-29" },
    { "Fix the login test", NULL, "Fix the login test" },
    { "Fix the login test", "someday", "Fix the login test" },
    { "   ", "2026-11-29", NULL },
    { " - 2026-11-29", "2026-11-29", NULL },
    { NULL, "2026-11-29", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *title = loom_naming_build_title (cases[i].name, cases[i].date);

      g_assert_cmpstr (title, ==, cases[i].title);
    }
}

static void
test_session_title (void)
{
  g_autoptr (GDateTime) local = g_date_time_new_local (2026, 11, 29, 23, 30, 0);
  gint64           created_at = g_date_time_to_unix (local) * 1000;
  g_autofree char *date = NULL;
  g_autofree char *from_title = NULL;
  g_autofree char *none = NULL;
  g_autofree char *title = NULL;
  g_autofree char *untitled = NULL;
  g_autofree char *command = NULL;

  /* The creation date, in local time, wins over whatever date the title shows. */
  date = loom_naming_session_date (created_at, "Old name - 2020-01-01");
  g_assert_cmpstr (date, ==, "2026-11-29");
  from_title = loom_naming_session_date (0, "Old name - 2020-01-01");
  g_assert_cmpstr (from_title, ==, "2020-01-01");
  none = loom_naming_session_date (0, "Old name");
  g_assert_null (none);

  title = loom_naming_conventional_title ("Untitled session - undated", created_at,
                                          "please fix the login test");
  g_assert_cmpstr (title, ==, "Fix the login test - 2026-11-29");
  untitled = loom_naming_conventional_title ("", created_at, NULL);
  g_assert_cmpstr (untitled, ==, "Untitled session - 2026-11-29");

  command = loom_naming_rename_command ("Fix the\nlogin test - 2026-11-29");
  g_assert_cmpstr (command, ==, "/rename Fix the login test - 2026-11-29");
}

static void
set_message_flags (const char *db_path,
                   const char *text,
                   guint       flags)
{
  g_autofree char *sql = NULL;
  sqlite3         *db = NULL;

  g_assert_cmpint (sqlite3_open (db_path, &db), ==, SQLITE_OK);
  /* A message's flags are part of its search entry: the index's tokenizer must be there. */
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  sql = sqlite3_mprintf ("UPDATE messages SET flags = %u WHERE text = %Q", flags, text);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_free (g_steal_pointer (&sql));
  sqlite3_close (db);
}

/* The first prompt the person typed: not injected context, not the assistant, not an event. */
static void
test_find_first_prompt (void)
{
  g_autofree char *dir = loom_test_make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *uuid = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *prompt = NULL;
  g_autofree char *none = NULL;
  gint64           now = loom_time_now_ms ();
  gint64           session_id;

  store = loom_store_open (path, &error);
  g_assert_no_error (error);

  uuid = loom_test_add_session (store, "Untitled session - undated", "claude-code", "x", 0, 3, now);
  {
    g_autoptr (LoomSession) session = loom_store_get_session (store, uuid, &error);

    g_assert_no_error (error);
    session_id = loom_session_get_id (session);
  }

  /* Events only: no prompt, and no error either. */
  none = loom_store_find_first_prompt (store, uuid, &error);
  g_assert_no_error (error);
  g_assert_null (none);

  g_assert_cmpint (
    loom_store_add_message (store, session_id, "user", "<system-reminder>ctx", now + 10, &error), >,
    0);
  g_assert_cmpint (
    loom_store_add_message (store, session_id, "assistant", "Hello", now + 11, &error), >, 0);
  g_assert_cmpint (loom_store_add_message (store, session_id, "user", "  \n ", now + 12, &error), >,
                   0);
  g_assert_cmpint (
    loom_store_add_message (store, session_id, "user", "fix the login test", now + 13, &error), >,
    0);
  g_assert_cmpint (
    loom_store_add_message (store, session_id, "user", "and the docs", now + 14, &error), >, 0);
  g_assert_no_error (error);
  set_message_flags (path, "<system-reminder>ctx", LOOM_MESSAGE_INJECTED);

  prompt = loom_store_find_first_prompt (store, uuid, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (prompt, ==, "fix the login test");

  empty = loom_store_find_first_prompt (store, "no-such-session", &error);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_assert_null (empty);

  g_assert_finalize_object (g_steal_pointer (&store));
  loom_test_remove_tree (dir);
}

/* A line of metadata as the store keeps it: valid, one line, of a sane length. */
static void
test_bound_line (void)
{
  g_autofree char *word = g_strnfill (1024 * 1024, 'w');
  g_autofree char *spaces = g_strnfill (1024 * 1024, ' ');
  g_autofree char *cut = NULL;
  g_autofree char *line = NULL;
  g_autofree char *exact = g_strnfill (10, 'x');
  g_autofree char *trailing = g_strconcat ("abc", spaces, NULL);
  g_autofree char *all_spaces = NULL;

  g_assert_null (loom_naming_bound_line (NULL, 10));
  g_assert_null (loom_naming_bound_line (" \n\t ", 10));
  line = loom_naming_bound_line ("  Fix\nthe\x07 login\r\n test  ", 100);
  g_assert_cmpstr (line, ==, "Fix the login test");
  g_clear_pointer (&line, g_free);

  /* A bad byte is a replacement character, not the end of the line. */
  line = loom_naming_bound_line ("caf\xe9 au lait", 100);
  g_assert_cmpstr (line, ==, "caf\xef\xbf\xbd au lait");
  g_clear_pointer (&line, g_free);

  /* A megabyte-long word: the first characters and "…", LOOM_NAMING_TITLE_LIMIT in all. */
  cut = loom_naming_bound_line (word, LOOM_NAMING_TITLE_LIMIT);
  g_assert_cmpint (g_utf8_strlen (cut, -1), ==, LOOM_NAMING_TITLE_LIMIT);
  g_assert_true (g_str_has_suffix (cut, "…"));
  g_assert_true (g_str_has_prefix (cut, "www"));
  g_clear_pointer (&cut, g_free);

  /* Cut at a character, never inside one. */
  {
    g_autoptr (GString) wide = g_string_new (NULL);

    for (guint i = 0; i < 1000; i++)
      g_string_append (wide, "\xc3\xa9");
    cut = loom_naming_bound_line (wide->str, 7);
    g_assert_cmpstr (cut, ==, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9…");
    g_clear_pointer (&cut, g_free);
  }

  /* Exactly the limit is not cut; white space after it is no cut either. */
  line = loom_naming_bound_line (exact, 10);
  g_assert_cmpstr (line, ==, exact);
  g_clear_pointer (&line, g_free);
  line = loom_naming_bound_line (trailing, 3);
  g_assert_cmpstr (line, ==, "abc");
  g_clear_pointer (&line, g_free);
  /* Cut after a space: no space before the "…". */
  line = loom_naming_bound_line ("ab cd ef", 4);
  g_assert_cmpstr (line, ==, "ab…");
  g_clear_pointer (&line, g_free);
  all_spaces = loom_naming_bound_line (spaces, 10);
  g_assert_null (all_spaces);
}

static void
test_bound_path (void)
{
  g_autofree char *long_path = g_strnfill (64 * 1024, 'd');
  g_autofree char *path = NULL;

  g_assert_null (loom_naming_bound_path (NULL, 100));
  /* A path's own spaces stay. */
  path = loom_naming_bound_path ("/home/me/My  Project", 100);
  g_assert_cmpstr (path, ==, "/home/me/My  Project");
  g_clear_pointer (&path, g_free);
  path = loom_naming_bound_path ("/tmp/caf\xe9", 100);
  g_assert_true (g_utf8_validate (path, -1, NULL));
  g_assert_true (g_str_has_prefix (path, "/tmp/caf"));
  g_clear_pointer (&path, g_free);

  path = loom_naming_bound_path (long_path, LOOM_NAMING_PATH_LIMIT);
  g_assert_cmpuint (strlen (path), <=, LOOM_NAMING_PATH_LIMIT);
  g_assert_true (g_str_has_suffix (path, "…"));
  g_assert_true (g_utf8_validate (path, -1, NULL));
}

/* A prompt of megabytes suggests a name as quickly as any: only its start is read, and
 * nothing in it is quadratic (a line of backticks once was, a million erases). */
static void
test_suggest_name_huge (void)
{
  g_autofree char *ticks = g_strnfill (4 * 1024 * 1024, '`');
  g_autofree char *word = g_strnfill (1024 * 1024, 'w');
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  g_assert_null (loom_naming_suggest_name (ticks));
  memcpy (ticks + 4 * 1024 * 1024 - 10, "late words", 10);
  g_assert_null (loom_naming_suggest_name (ticks));

  name = loom_naming_suggest_name (word);
  g_assert_nonnull (name);
  g_assert_cmpint (g_utf8_strlen (name, -1), <=, LOOM_NAMING_SUGGESTION_LIMIT);
  g_assert_true (g_str_has_prefix (name, "Www"));

  /* A title built from a pasted megabyte is a line of a title's length. */
  title = loom_naming_build_title (word, "2026-11-20");
  g_assert_cmpint (g_utf8_strlen (title, -1), ==, LOOM_NAMING_TITLE_LIMIT + 13);
  g_assert_true (g_str_has_suffix (title, "… - 2026-11-20"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  g_test_add_func ("/naming/is-date", test_is_date);
  g_test_add_func ("/naming/split-title", test_split_title);
  g_test_add_func ("/naming/suggest-name", test_suggest_name);
  g_test_add_func ("/naming/propose-name", test_propose_name);
  g_test_add_func ("/naming/build-title", test_build_title);
  g_test_add_func ("/naming/session-title", test_session_title);
  g_test_add_func ("/naming/find-first-prompt", test_find_first_prompt);
  g_test_add_func ("/naming/bound-line", test_bound_line);
  g_test_add_func ("/naming/bound-path", test_bound_path);
  g_test_add_func ("/naming/suggest-name-huge", test_suggest_name_huge);

  return g_test_run ();
}
