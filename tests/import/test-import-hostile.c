/* test-import-hostile.c — hostile input is normal input: every hazard in one folder, imported
 * through a real format; each bad record is a warning naming file and line, everything readable
 * is imported, nothing crashes, and memory follows the largest record, not the file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sqlite3.h>

#include "loom-claude-lines.h"
#include "loom-core.h"
#include "loom-import.h"
#include "loom-naming.h"
#include "loom-test-utils.h"
#include "loom-timeline-item.h"

typedef struct
{
  char            *dir;
  char            *project;
  char            *db;
  LoomStore       *store;
  LoomImportStats *stats;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  f->dir = loom_test_make_tmpdir ();
  f->project = g_build_filename (f->dir, "projects", "-tmp-proj", NULL);
  g_assert_cmpint (g_mkdir_with_parents (f->project, 0700), ==, 0);
  f->db = g_build_filename (f->dir, "history.db", NULL);
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
  g_free (f->project);
  g_free (f->db);
}

/* Writes a session file named after @session, from lines joined by newlines (or not). */
static char *
write_session (Fixture    *f,
               const char *session,
               GString    *contents)
{
  g_autofree char *name = g_strconcat (session, ".jsonl", NULL);
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (f->project, name, NULL);

  g_file_set_contents (path, contents->str, (gssize)contents->len, &error);
  g_assert_no_error (error);
  return path;
}

static void
add_line (GString *contents,
          char    *line)
{
  g_string_append (contents, line);
  g_string_append_c (contents, '\n');
  g_free (line);
}

/* Imports the fixture's folder, as files of @source (NULL: each file's format detected). */
static void
import_as (Fixture    *f,
           const char *source)
{
  const char       *paths[] = { f->dir, NULL };
  LoomImportOptions options = { source, paths };
  g_autoptr (GError) error = NULL;

  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_import_stats_new ();
  g_assert_true (loom_import_run (f->store, &options, NULL, NULL, NULL, f->stats, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < f->stats->warnings->len; i++)
    g_test_message ("warning: %s", (const char *)g_ptr_array_index (f->stats->warnings, i));
}

static void
import (Fixture *f)
{
  import_as (f, NULL);
}

static gint64
messages_of (Fixture    *f,
             const char *session)
{
  g_autoptr (LoomSession) s = NULL;
  g_autoptr (GError) error = NULL;

  s = loom_store_get_session (f->store, session, &error);
  if (s == NULL)
    return -1;
  return loom_session_get_message_count (s);
}

static gboolean
warned (Fixture    *f,
        const char *path,
        guint       line,
        const char *words)
{
  g_autofree char *prefix = g_strdup_printf ("%s:%u: ", path, line);

  for (guint i = 0; i < f->stats->warnings->len; i++)
    {
      const char *warning = g_ptr_array_index (f->stats->warnings, i);

      if (g_str_has_prefix (warning, prefix) && strstr (warning, words) != NULL)
        return TRUE;
    }
  return FALSE;
}

#define S_NO_NEWLINE  "10000000-0000-4000-8000-000000000001"
#define S_TWO_ON_LINE "10000000-0000-4000-8000-000000000002"
#define S_BAD_UTF8    "10000000-0000-4000-8000-000000000003"
#define S_SURROGATE   "10000000-0000-4000-8000-000000000004"
#define S_DEEP        "10000000-0000-4000-8000-000000000005"
#define S_UNKNOWN     "10000000-0000-4000-8000-000000000006"
#define S_TRUNCATED   "10000000-0000-4000-8000-000000000007"
#define S_EMPTY       "10000000-0000-4000-8000-000000000008"
#define S_BINARY      "10000000-0000-4000-8000-000000000009"
#define S_MALFORMED   "10000000-0000-4000-8000-00000000000a"

static void
test_every_hazard (Fixture      *f,
                   gconstpointer data)
{
  g_autoptr (GString) c = g_string_new (NULL);
  g_autofree char *no_newline = NULL, *two = NULL, *utf8 = NULL, *surrogate = NULL;
  g_autofree char *deep = NULL, *unknown = NULL, *truncated = NULL, *empty = NULL;
  g_autofree char *binary = NULL, *malformed = NULL;
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr (GListModel) timeline = NULL;
  g_autoptr (GError) error = NULL;
  gboolean raw_kept = FALSE;

  add_line (c, claude_user_line_in (S_NO_NEWLINE, 1, "first"));
  g_string_append (c, claude_assistant_line_in (S_NO_NEWLINE, 2, "last, without a newline"));
  no_newline = write_session (f, S_NO_NEWLINE, c);

  g_string_truncate (c, 0);
  {
    g_autofree char *a = claude_user_line_in (S_TWO_ON_LINE, 1, "one");
    g_autofree char *b = claude_assistant_line_in (S_TWO_ON_LINE, 2, "two");
    g_string_append_printf (c, "%s%s\n", a, b);
  }
  two = write_session (f, S_TWO_ON_LINE, c);

  g_string_truncate (c, 0);
  add_line (c, claude_user_line_in (S_BAD_UTF8, 1, "caf\xe9 au lait"));
  add_line (c, claude_assistant_line_in (S_BAD_UTF8, 2, "日本語 and 😀 and \xef\xbf\xbd"));
  utf8 = write_session (f, S_BAD_UTF8, c);

  g_string_truncate (c, 0);
  add_line (c, claude_user_line_in (S_SURROGATE, 1, "lone \\\\ud800 \\ud800 surrogate"));
  surrogate = write_session (f, S_SURROGATE, c);

  g_string_truncate (c, 0);
  add_line (c, claude_user_line_in (S_DEEP, 1, "before the deep one"));
  g_string_append (c, "{\"type\":\"user\",\"sessionId\":\"" S_DEEP "\",\"x\":");
  for (guint i = 0; i < 50000; i++)
    g_string_append_c (c, '[');
  for (guint i = 0; i < 50000; i++)
    g_string_append_c (c, ']');
  g_string_append (c, "}\n");
  add_line (c, claude_assistant_line_in (S_DEEP, 3, "after the deep one"));
  deep = write_session (f, S_DEEP, c);

  g_string_truncate (c, 0);
  add_line (c, claude_user_line_in (S_UNKNOWN, 1, "a prompt"));
  add_line (c, g_strdup ("{\"type\":\"hologram\",\"sessionId\":\"" S_UNKNOWN "\","
                         "\"uuid\":\"abcdef00-0000-4000-8000-000000000001\","
                         "\"timestamp\":\"2026-11-20T10:05:00.000Z\",\"beam\":{\"x\":1}}"));
  unknown = write_session (f, S_UNKNOWN, c);

  g_string_truncate (c, 0);
  add_line (c, claude_user_line_in (S_TRUNCATED, 1, "complete"));
  g_string_append (c, "{\"type\":\"assistant\",\"sessionId\":\"" S_TRUNCATED "\",\"mess");
  truncated = write_session (f, S_TRUNCATED, c);

  g_string_truncate (c, 0);
  empty = write_session (f, S_EMPTY, c);

  g_string_truncate (c, 0);
  for (guint i = 0; i < 4096; i++)
    g_string_append_c (c, (char)((i * 37 + 11) % 256));
  binary = write_session (f, S_BINARY, c);

  g_string_truncate (c, 0);
  add_line (c, claude_user_line_in (S_MALFORMED, 1, "good"));
  add_line (c, g_strdup ("{\"type\":\"user\",\"message\":{\"content\": nope}}"));
  add_line (c, g_strdup ("[1, 2, 3]"));
  add_line (c, g_strdup ("{\"type\":\"assistant\",\"message\":\"not an object\"}"));
  add_line (c, g_strdup ("{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":42}}"));
  add_line (c, claude_assistant_line_in (S_MALFORMED, 6, "still good"));
  malformed = write_session (f, S_MALFORMED, c);

  before = loom_test_file_checksum (deep);
  import (f);
  after = loom_test_file_checksum (deep);
  g_assert_cmpstr (before, ==, after);

  g_assert_cmpint (messages_of (f, S_NO_NEWLINE), ==, 2);
  g_assert_cmpint (messages_of (f, S_TWO_ON_LINE), ==, 2);
  g_assert_true (warned (f, two, 1, "2 JSON values"));
  g_assert_cmpint (messages_of (f, S_BAD_UTF8), ==, 2);
  g_assert_true (warned (f, utf8, 1, "invalid UTF-8"));
  g_assert_cmpint (messages_of (f, S_SURROGATE), ==, 1);
  g_assert_true (warned (f, surrogate, 1, "surrogate"));
  g_assert_cmpint (messages_of (f, S_DEEP), ==, 2);
  g_assert_true (warned (f, deep, 2, "nests deeper"));
  g_assert_cmpint (messages_of (f, S_TRUNCATED), ==, 1);
  g_assert_true (warned (f, truncated, 2, "incomplete"));
  /* That one loses nothing: the app does not show it as a problem. */
  g_assert_cmpuint (f->stats->waiting->len, ==, 1);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (f->stats->waiting, 0), truncated));
  g_assert_nonnull (strstr (g_ptr_array_index (f->stats->waiting, 0), "incomplete"));
  g_assert_cmpint (messages_of (f, S_EMPTY), ==, -1);
  g_assert_cmpint (messages_of (f, S_BINARY), ==, -1);
  g_assert_cmpint (messages_of (f, S_MALFORMED), ==, 2);
  g_assert_true (warned (f, malformed, 2, "not valid JSON"));
  g_assert_cmpuint (f->stats->files_failed, ==, 0);

  /* The unknown record is kept, not dropped. */
  g_assert_cmpint (messages_of (f, S_UNKNOWN), ==, 1);
  timeline = loom_store_list_timeline (f->store, S_UNKNOWN, 0, 0, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (timeline); i++)
    {
      g_autoptr (LoomTimelineItem) item = g_list_model_get_item (timeline, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      if (!d->is_message && g_strcmp0 (d->kind, "raw") == 0)
        raw_kept = TRUE;
    }
  g_assert_true (raw_kept);

  /* The truncated line is read once the agent finishes it. */
  {
    g_autofree char *contents = NULL;
    g_autofree char *fixed = NULL;
    g_autofree char *reply = claude_assistant_line_in (S_TRUNCATED, 2, "finished");
    char            *cut;

    g_file_get_contents (truncated, &contents, NULL, &error);
    g_assert_no_error (error);
    cut = strrchr (contents, '\n');
    cut[1] = '\0';
    fixed = g_strconcat (contents, reply, "\n", NULL);
    g_file_set_contents (truncated, fixed, -1, &error);
    g_assert_no_error (error);
  }
  import (f);
  g_assert_cmpint (messages_of (f, S_TRUNCATED), ==, 2);
  g_assert_cmpuint (f->stats->files_imported, ==, 1);
}

/* A 100 MB line is one record: stored whole, shown and indexed by a bounded prefix. */
static void
test_hundred_megabyte_line (Fixture      *f,
                            gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->project, S_NO_NEWLINE ".jsonl", NULL);
  g_autofree char *block = g_malloc (1 << 20);
  g_autofree char *first = claude_user_line_in (S_NO_NEWLINE, 1, "show me the log");
  g_autofree char *last = claude_user_line_in (S_NO_NEWLINE, 3, "thanks");
  g_autofree char *head = claude_assistant_line_in (S_NO_NEWLINE, 2, "@@HUGE@@");
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  char *marker;
  FILE *fp;

  memset (block, 'z', 1 << 20);
  marker = strstr (head, "@@HUGE@@");
  *marker = '\0';

  fp = fopen (path, "wb");
  fprintf (fp, "%s\n%s", first, head);
  for (guint i = 0; i < 100; i++)
    fwrite (block, 1, 1 << 20, fp);
  fprintf (fp, "%s\n%s\n", marker + strlen ("@@HUGE@@"), last);
  fclose (fp);

  import (f);
  session = loom_store_get_session (f->store, S_NO_NEWLINE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_session_get_message_count (session), ==, 3);
  g_assert_cmpuint (f->stats->warnings->len, ==, 0);
}

/* Memory follows the largest record: 200 records of 1 MB each do not add up. How much the peak
 * grows depends on the allocator and SQLite's caches (some 50 MB here); what does not is that an
 * import that held the whole file, or a good part of it, grows by the file's size: the bound is
 * that, with a margin of several times over what the import needs. */
static void
test_memory_bounded (Fixture      *f,
                     gconstpointer data)
{
#if defined(__SANITIZE_ADDRESS__)
  /* AddressSanitizer keeps freed memory in quarantine: resident size says nothing here. */
  g_test_skip ("resident size is meaningless under AddressSanitizer");
#else
  g_autofree char *path = g_build_filename (f->project, S_TWO_ON_LINE ".jsonl", NULL);
  g_autofree char *text = g_malloc ((1 << 20) + 1);
  struct rusage    before, after;
  FILE            *fp;

  memset (text, 'q', 1 << 20);
  text[1 << 20] = '\0';
  fp = fopen (path, "wb");
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *line = claude_user_line_in (S_TWO_ON_LINE, i, text);
      fprintf (fp, "%s\n", line);
    }
  fclose (fp);
  g_clear_pointer (&text, g_free);

  getrusage (RUSAGE_SELF, &before);
  import (f);
  getrusage (RUSAGE_SELF, &after);
  g_test_message ("peak resident size grew by %ld KiB for a 200 MiB file",
                  after.ru_maxrss - before.ru_maxrss);
  g_assert_cmpint (messages_of (f, S_TWO_ON_LINE), ==, 200);
  g_assert_cmpint (after.ru_maxrss - before.ru_maxrss, <, 200 * 1024);
#endif
}

static guint
count_warnings (Fixture    *f,
                const char *words)
{
  guint n = 0;

  for (guint i = 0; i < f->stats->warnings->len; i++)
    if (strstr (g_ptr_array_index (f->stats->warnings, i), words) != NULL)
      n++;
  return n;
}

#define S_BEFORE  "20000000-0000-4000-8000-000000000001"
#define S_FAILING "20000000-0000-4000-8000-000000000002"
#define S_AFTER   "20000000-0000-4000-8000-000000000003"

/* A file that fails after writing part of itself takes its batch's transaction with it (files
 * have no savepoint of their own); the files before it in the batch are read again, and each
 * file's rows, counts and warnings come out once, as if the failing file had not been there. */
static void
test_failed_file_in_batch (Fixture      *f,
                           gconstpointer data)
{
  const char *sessions[] = { S_BEFORE, S_FAILING, S_AFTER };
  g_autoptr (GString) c = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (sessions); i++)
    {
      g_autofree char *path = NULL;

      g_string_truncate (c, 0);
      add_line (c, claude_user_line_in (sessions[i], 1, "fine"));
      add_line (c, g_strdup ("not json"));
      add_line (c, claude_assistant_line_in (sessions[i], 3, "fine too"));
      if (g_str_equal (sessions[i], S_FAILING))
        add_line (c, claude_user_line_in (sessions[i], 4, "poison"));
      path = write_session (f, sessions[i], c);
    }
  /* A real SQLite error in the middle of the second file, after its first rows. */
  loom_test_exec_sql (f->db,
                      "CREATE TRIGGER poison BEFORE INSERT ON messages WHEN new.text = 'poison'"
                      " BEGIN SELECT RAISE (ABORT, 'poisoned record'); END");

  import (f);
  g_assert_cmpint (messages_of (f, S_BEFORE), ==, 2);
  g_assert_cmpint (messages_of (f, S_FAILING), ==, -1);
  g_assert_cmpint (messages_of (f, S_AFTER), ==, 2);
  g_assert_cmpuint (f->stats->files_seen, ==, 3);
  g_assert_cmpuint (f->stats->files_imported, ==, 2);
  g_assert_cmpuint (f->stats->files_failed, ==, 1);
  g_assert_cmpuint (f->stats->sessions_new, ==, 2);
  g_assert_cmpuint (f->stats->messages, ==, 4);
  g_assert_cmpuint (f->stats->records, ==, 4);
  g_assert_cmpuint (count_warnings (f, "not valid JSON"), ==, 3);
  g_assert_cmpuint (count_warnings (f, "poisoned record"), ==, 1);
  g_assert_cmpuint (f->stats->warnings->len, ==, 4);
  loom_test_assert_index_in_sync (f->db);

  /* Nothing of the failed file was kept, its cursor neither: the next pass reads it whole. */
  loom_test_exec_sql (f->db, "DROP TRIGGER poison");
  import (f);
  g_assert_cmpint (messages_of (f, S_FAILING), ==, 3);
  g_assert_cmpuint (f->stats->files_imported, ==, 1);
  g_assert_cmpuint (f->stats->files_unchanged, ==, 2);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
  g_assert_cmpuint (f->stats->messages, ==, 3);
  loom_test_assert_index_in_sync (f->db);
}

#define S_BEING_WRITTEN "20000000-0000-4000-8000-000000000004"

/* A file that fails once all of it was read, its last line still being written: the next pass
 * reads it whole again, so its failure is the one warning of it, not that line. */
static void
test_failed_file_being_written (Fixture      *f,
                                gconstpointer data)
{
  g_autoptr (GString) c = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autofree char *line = NULL;

  add_line (c, claude_user_line_in (S_BEING_WRITTEN, 1, "fine"));
  add_line (c, claude_assistant_line_in (S_BEING_WRITTEN, 2, "fine too"));
  line = claude_user_line_in (S_BEING_WRITTEN, 3, "still being written");
  g_string_append_len (c, line, (gssize)strlen (line) / 2);
  path = write_session (f, S_BEING_WRITTEN, c);
  /* A real SQLite error when the file's cursor is written, after its last line was read. */
  loom_test_exec_sql (f->db, "CREATE TRIGGER poison BEFORE INSERT ON import_cursors"
                             " BEGIN SELECT RAISE (ABORT, 'poisoned cursor'); END");

  import (f);
  g_assert_cmpuint (f->stats->files_failed, ==, 1);
  g_assert_cmpint (messages_of (f, S_BEING_WRITTEN), ==, -1);
  g_assert_cmpuint (f->stats->warnings->len, ==, 1);
  g_assert_cmpuint (count_warnings (f, "poisoned cursor"), ==, 1);
  g_assert_cmpuint (f->stats->waiting->len, ==, 0);

  /* Once it can be read, the line being written is a note of the pass, and only that. */
  loom_test_exec_sql (f->db, "DROP TRIGGER poison");
  import (f);
  g_assert_cmpint (messages_of (f, S_BEING_WRITTEN), ==, 2);
  g_assert_cmpuint (f->stats->warnings->len, ==, 1);
  g_assert_true (warned (f, path, 3, "incomplete"));
  g_assert_cmpuint (f->stats->waiting->len, ==, 1);
}

#define S_PROMPTS_FIRST  "30000000-0000-4000-8000-000000000001"
#define S_PROMPTS_SECOND "30000000-0000-4000-8000-000000000002"
#define S_MEANWHILE      "30000000-0000-4000-8000-000000000003"

/* A session of 12,000 prompts: an import of it adds more entries than an import needs to
 * make before the index is merged (loom-import.c). */
static char *
write_many_prompts (Fixture    *f,
                    const char *session)
{
  g_autoptr (GString) contents = g_string_new (NULL);

  for (guint i = 1; i <= 12000; i++)
    {
      g_autofree char *text = g_strdup_printf ("prompt %u about the parser%u, the config of "
                                               "service %u and the migration of table %u; "
                                               "please check lifetime %u and borrow %u",
                                               i, i % 997, i % 89, i % 313, i, i % 7);

      add_line (contents, claude_user_line_in (session, i, text));
    }
  return write_session (f, session, contents);
}

/* The index's segments, as its table of b-tree entries lists them. */
static gint64
index_segments (Fixture *f)
{
  return loom_test_query_int (f->db, "SELECT count (DISTINCT segid) FROM search_index_idx", NULL);
}

/* An import that made most of the search index leaves it in one segment (merge_index () in
 * loom-import.c), and FTS5 merges as it writes again afterwards. The first import writes one
 * segment, the second another; the second made half of the index, so it merges them. */
static void
test_large_import_settles_index (Fixture      *f,
                                 gconstpointer data)
{
  g_autofree char *first = write_many_prompts (f, S_PROMPTS_FIRST);
  g_autofree char *second = NULL;

  import (f);
  second = write_many_prompts (f, S_PROMPTS_SECOND);
  import (f);
  g_assert_cmpuint (f->stats->messages, ==, 12000);
  loom_test_assert_index_in_sync (f->db);
  g_assert_cmpint (index_segments (f), ==, 1);
  g_assert_cmpint (loom_test_query_int (f->db,
                                        "SELECT v FROM search_index_config"
                                        " WHERE k = 'automerge'",
                                        NULL),
                   ==, 4);
}

typedef struct
{
  Fixture *f;
  guint    calls;
  guint    done;
} ChangedMeanwhile;

/* The pass asks for the files changed meanwhile before each batch, once its files are in, and
 * after each step of merging the index. Its files are one batch: the third look comes after
 * the merge's first step. */
static GStrv
take_changed_during_merge (gpointer user_data)
{
  ChangedMeanwhile *changed = user_data;
  g_autoptr (GString) contents = NULL;
  g_autofree char *path = NULL;

  if (++changed->calls != 3)
    return NULL;

  contents = g_string_new (NULL);
  add_line (contents, claude_user_line_in (S_MEANWHILE, 1, "written while the index merged"));
  path = write_session (changed->f, S_MEANWHILE, contents);
  return g_strdupv ((char *[]){ path, NULL });
}

static void
changed_done (gpointer user_data)
{
  ((ChangedMeanwhile *)user_data)->done++;
}

/* A session written while a large import merges the index comes in before the pass ends, not
 * after the merge, which takes seconds on a large history. */
static void
test_change_during_index_merge (Fixture      *f,
                                gconstpointer data)
{
  g_autofree char  *first = write_many_prompts (f, S_PROMPTS_FIRST);
  g_autofree char  *second = NULL;
  const char       *paths[] = { f->project, NULL };
  ChangedMeanwhile  changed = { f, 0, 0 };
  LoomImportOptions options = {
    NULL, paths, NULL, take_changed_during_merge, &changed, changed_done
  };
  g_autoptr (GError) error = NULL;

  import (f);
  second = write_many_prompts (f, S_PROMPTS_SECOND);
  g_clear_pointer (&f->stats, loom_import_stats_free);
  f->stats = loom_import_stats_new ();
  /* Files changed meanwhile are imported only from the agents' own folders. */
  g_setenv ("CLAUDE_CONFIG_DIR", f->dir, TRUE);
  g_assert_true (loom_import_run (f->store, &options, NULL, NULL, NULL, f->stats, &error));
  g_unsetenv ("CLAUDE_CONFIG_DIR");
  g_assert_no_error (error);
  g_assert_cmpuint (changed.calls, >, 3);
  g_assert_cmpuint (changed.done, ==, 1);
  g_assert_cmpuint (f->stats->messages, ==, 12001);
  g_assert_cmpint (messages_of (f, S_MEANWHILE), ==, 1);
  /* Its prompt, and its title made from it. */
  g_assert_cmpint (loom_test_count_matches (f->db, "merged"), ==, 2);
  loom_test_assert_index_in_sync (f->db);
  /* The two imports' segments merged into one. The merge went on without starting over for
   * the segment the change wrote, which FTS5 merges later, as it writes. */
  g_assert_cmpint (index_segments (f), ==, 2);
}

/* ——— Whole documents being written ——— */

/* A Gemini CLI legacy session (FORMATS.md §3.1) of two prompts, written as the agent writes it. */
#define LEGACY_DOCUMENT(id, second_type) \
  "{\n  \"sessionId\": \"" id "\",\n  \"projectHash\": \"a1b2\",\n" \
  "  \"startTime\": \"2025-09-14T10:02:11.512Z\",\n" \
  "  \"lastUpdated\": \"2025-09-14T10:09:47.030Z\",\n  \"messages\": [\n" \
  "    {\n      \"id\": \"m1\",\n      \"timestamp\": \"2025-09-14T10:02:11.600Z\",\n" \
  "      \"type\": \"user\",\n      \"content\": \"First prompt\"\n    },\n" \
  "    {\n      \"id\": \"m2\",\n      \"timestamp\": \"2025-09-14T10:03:11.600Z\",\n" \
  "      \"type\": " second_type ",\n      \"content\": \"Second prompt\"\n    }\n  ]\n}\n"

static char *
write_legacy (Fixture    *f,
              const char *name,
              const char *contents,
              gssize      length)
{
  g_autofree char *chats = g_build_filename (f->dir, "gemini", "tmp", "a1b2", "chats", NULL);
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (chats, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (chats, 0700), ==, 0);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  return path;
}

static gboolean
is_waiting (Fixture    *f,
            const char *path,
            const char *words)
{
  for (guint i = 0; i < f->stats->waiting->len; i++)
    {
      const char *warning = g_ptr_array_index (f->stats->waiting, i);

      if (g_str_has_prefix (warning, path) && strstr (warning, words) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* The agent rewrites such a document whole on every change: a pass can find it emptied or cut
 * short. That is said, but as the file still being written (LoomImportStats.waiting), which the
 * app does not list as a problem; a record that is broken in a whole document is a problem. */
static void
test_documents_being_written (Fixture      *f,
                              gconstpointer data)
{
  static const char whole[] = LEGACY_DOCUMENT ("c0000000-0000-4000-8000-000000000001", "\"user\"");
  static const char broken[] = LEGACY_DOCUMENT ("c0000000-0000-4000-8000-000000000003", "user");
  static const char other[] = LEGACY_DOCUMENT ("c0000000-0000-4000-8000-000000000002", "\"user\"");
  const char       *cut = strstr (whole, "\"Second prompt\"");
  g_autofree char  *cut_path = NULL;
  g_autofree char  *empty_path = NULL;
  g_autofree char  *broken_path = NULL;

  cut_path = write_legacy (f, "session-2025-09-14T10-02-c0000001.json", whole, cut - whole);
  empty_path = write_legacy (f, "session-2025-09-14T10-02-c0000002.json", other, -1);
  broken_path = write_legacy (f, "session-2025-09-14T10-02-c0000003.json", broken, -1);
  import (f);

  /* Cut short inside its second message: the first is in, the rest waits. */
  g_assert_true (warned (f, cut_path, 17, "ends here, before it is complete"));
  g_assert_true (is_waiting (f, cut_path, "ends here, before it is complete"));
  g_assert_cmpint (messages_of (f, "c0000000-0000-4000-8000-000000000001"), ==, 1);
  /* A record that is not JSON, with the document whole around it: a problem. */
  g_assert_true (warned (f, broken_path, 13, "is not valid JSON and was left out"));
  g_assert_false (is_waiting (f, broken_path, ""));
  g_assert_cmpint (messages_of (f, "c0000000-0000-4000-8000-000000000003"), ==, 1);
  g_assert_cmpint (messages_of (f, "c0000000-0000-4000-8000-000000000002"), ==, 2);
  g_assert_cmpuint (f->stats->warnings->len, ==, 2);
  g_assert_cmpuint (f->stats->waiting->len, ==, 1);

  /* Emptied before being written again: its messages stay, and the file waits. Found by its
   * place, as the watcher finds it, or with --source; a folder's files are told apart by their
   * content, and an empty one has none. */
  g_free (write_legacy (f, "session-2025-09-14T10-02-c0000002.json", "", 0));
  import_as (f, "gemini");
  g_assert_true (is_waiting (f, empty_path, "the file is empty"));
  g_assert_cmpint (messages_of (f, "c0000000-0000-4000-8000-000000000002"), ==, 2);
  g_assert_cmpuint (f->stats->warnings->len, ==, 1);
  g_assert_cmpuint (f->stats->waiting->len, ==, 1);
}

/* ——— Records over the size limit ——— */

#define MiB         (1024 * 1024)
#define S_OVER      "10000000-0000-4000-8000-00000000000b"
#define S_OVER_TAIL "10000000-0000-4000-8000-00000000000c"
#define CODEX_OVER  "019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a7b"

/* @line with its "@@PAD@@" grown to make it @total bytes long. */
static char *
padded (const char *line,
        gsize       total)
{
  const char *marker = strstr (line, "@@PAD@@");
  gsize       head, tail;
  char       *result;

  g_assert_nonnull (marker);
  head = (gsize)(marker - line);
  tail = strlen (marker + strlen ("@@PAD@@"));
  g_assert_cmpuint (total, >, head + tail);
  result = g_malloc (total + 1);
  memcpy (result, line, head);
  memset (result + head, 'z', total - head - tail);
  memcpy (result + total - tail, marker + strlen ("@@PAD@@"), tail + 1);
  return result;
}

/* The one warning of the pass is @expected, for the file @path. */
static void
assert_only_warning (Fixture    *f,
                     const char *path,
                     guint       line,
                     const char *expected)
{
  g_autofree char *whole = g_strdup_printf ("%s:%u: %s", path, line, expected);

  g_assert_cmpuint (f->stats->warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->stats->warnings, 0), ==, whole);
}

/* A JSON Lines record over the limit is a warning naming its line, read past without holding
 * it; the records after it are imported, and one just at the limit is no problem. */
static void
test_record_over_limit_claude (Fixture      *f,
                               gconstpointer data)
{
  g_autoptr (GString) contents = g_string_new (NULL);
  g_autofree char *huge = claude_assistant_line_in (S_OVER, 2, "@@PAD@@");
  g_autofree char *at_limit = claude_user_line_in (S_OVER, 5, "@@PAD@@");
  g_autofree char *path = NULL;

  g_setenv ("LOOM_MAX_RECORD_BYTES", "1048576", TRUE);
  add_line (contents, claude_user_line_in (S_OVER, 1, "show me the log"));
  add_line (contents, padded (huge, 3 * MiB));
  add_line (contents, claude_assistant_line_in (S_OVER, 3, "the log is long"));
  add_line (contents, claude_user_line_in (S_OVER, 4, "thanks"));
  add_line (contents, padded (at_limit, MiB));
  path = write_session (f, S_OVER, contents);
  import (f);
  g_unsetenv ("LOOM_MAX_RECORD_BYTES");

  assert_only_warning (f, path, 2, "a record of 3 MB is over the 1 MB limit; skipped");
  g_assert_cmpint (messages_of (f, S_OVER), ==, 4);
}

/* Over the limit and without its newline, the last line may still be being written: it waits,
 * as any incomplete last line does, and what came before it is imported. */
static void
test_record_over_limit_last_line (Fixture      *f,
                                  gconstpointer data)
{
  g_autoptr (GString) contents = g_string_new (NULL);
  g_autofree char *huge = claude_assistant_line_in (S_OVER_TAIL, 2, "@@PAD@@");
  g_autofree char *path = NULL;
  g_autofree char *huge_line = padded (huge, 3 * MiB);

  add_line (contents, claude_user_line_in (S_OVER_TAIL, 1, "show me the log"));
  g_string_append (contents, huge_line);
  g_setenv ("LOOM_MAX_RECORD_BYTES", "1048576", TRUE);
  path = write_session (f, S_OVER_TAIL, contents);
  import (f);

  assert_only_warning (f, path, 2,
                       "the last line is incomplete; it is read again when the "
                       "file grows");
  g_assert_true (is_waiting (f, path, "the last line is incomplete"));
  g_assert_cmpint (messages_of (f, S_OVER_TAIL), ==, 1);

  /* Whole at last: skipped, and the next record imported. */
  add_line (contents, g_strdup (""));
  add_line (contents, claude_user_line_in (S_OVER_TAIL, 3, "thanks"));
  g_free (write_session (f, S_OVER_TAIL, contents));
  import (f);
  g_unsetenv ("LOOM_MAX_RECORD_BYTES");

  assert_only_warning (f, path, 2, "a record of 3 MB is over the 1 MB limit; skipped");
  g_assert_cmpint (messages_of (f, S_OVER_TAIL), ==, 2);
}

static void
test_record_over_limit_codex (Fixture      *f,
                              gconstpointer data)
{
  g_autofree char *folder = g_build_filename (f->dir, "sessions", "2026", "03", "02", NULL);
  g_autofree char *path = g_build_filename (
    folder, "rollout-2026-03-02T10-15-42-" CODEX_OVER ".jsonl", NULL);
  g_autofree char *huge = NULL;
  g_autoptr (GString) contents = g_string_new (NULL);
  g_autoptr (GError) error = NULL;

#define CODEX_MESSAGE(time, role, kind, text) \
  "{\"timestamp\":\"2026-03-02T10:" time ".000Z\",\"type\":\"response_item\",\"payload\":" \
  "{\"type\":\"message\",\"role\":\"" role "\",\"content\":[{\"type\":\"" kind "\"," \
  "\"text\":\"" text "\"}]}}"

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_string_append (contents,
                   "{\"timestamp\":\"2026-03-02T10:15:42.118Z\",\"type\":\"session_meta\","
                   "\"payload\":{\"id\":\"" CODEX_OVER "\",\"timestamp\":"
                   "\"2026-03-02T10:15:42.118Z\",\"cwd\":\"/tmp/proj\",\"originator\":"
                   "\"codex-tui\",\"cli_version\":\"0.142.0\",\"source\":\"cli\"}}\n");
  g_string_append (contents, CODEX_MESSAGE ("16:00", "user", "input_text", "show me the log") "\n");
  huge = padded (CODEX_MESSAGE ("16:10", "assistant", "output_text", "@@PAD@@"), 3 * MiB);
  g_string_append_printf (contents, "%s\n", huge);
  g_string_append (contents,
                   CODEX_MESSAGE ("16:20", "assistant", "output_text", "the log is long") "\n");
  g_string_append (contents, CODEX_MESSAGE ("16:30", "user", "input_text", "thanks") "\n");
#undef CODEX_MESSAGE
  g_file_set_contents (path, contents->str, (gssize)contents->len, &error);
  g_assert_no_error (error);

  g_setenv ("LOOM_MAX_RECORD_BYTES", "1048576", TRUE);
  import_as (f, "codex");
  g_unsetenv ("LOOM_MAX_RECORD_BYTES");

  assert_only_warning (f, path, 3, "a record of 3 MB is over the 1 MB limit; skipped");
  g_assert_cmpint (messages_of (f, CODEX_OVER), ==, 3);
}

/* A whole-document session over the limit is never copied or parsed: a warning at its first
 * line, and the sessions beside it are imported. */
static void
test_document_over_limit_gemini (Fixture      *f,
                                 gconstpointer data)
{
  static const char document[] = LEGACY_DOCUMENT ("c0000000-0000-4000-8000-000000000004",
                                                  "\"@@PAD@@\"");
  static const char other[] = LEGACY_DOCUMENT ("c0000000-0000-4000-8000-000000000005", "\"user\"");
  g_autofree char  *huge = padded (document, 3 * MiB);
  g_autofree char  *huge_path = NULL;
  g_autofree char  *expected = NULL;

  huge_path = write_legacy (f, "session-2025-09-14T10-02-c0000004.json", huge, -1);
  g_free (write_legacy (f, "session-2025-09-14T10-02-c0000005.json", other, -1));
  g_setenv ("LOOM_MAX_RECORD_BYTES", "1048576", TRUE);
  import_as (f, "gemini");
  g_unsetenv ("LOOM_MAX_RECORD_BYTES");

  expected = g_strdup_printf ("%s:1: a document of 3 MB is over the 1 MB limit; skipped",
                              huge_path);
  g_assert_cmpstr (g_ptr_array_index (f->stats->warnings, 0), ==, expected);
  g_assert_cmpint (messages_of (f, "c0000000-0000-4000-8000-000000000004"), ==, -1);
  g_assert_cmpint (messages_of (f, "c0000000-0000-4000-8000-000000000005"), ==, 2);
  g_assert_cmpuint (f->stats->files_failed, ==, 0);
}

#define S_HUGE_TITLE "10000000-0000-4000-8000-0000000000f1"
#define MEGABYTE     (1024 * 1024)

/* Runs `loom --db … @args…` on the fixture's store; returns what it printed. */
static char *
run_loom (Fixture    *f,
          const char *first,
          ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char            *out = NULL;
  int              wait_status = 0;
  va_list          args;

  g_ptr_array_add (argv, (char *)g_getenv ("LOOM_CLI"));
  g_ptr_array_add (argv, (char *)"--db");
  g_ptr_array_add (argv, f->db);
  va_start (args, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *)arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_assert_nonnull (argv->pdata[0]);
  g_spawn_sync (NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                &wait_status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (wait_status, NULL))
    g_error ("loom failed: %s", err);
  return out;
}

/* A member of @object: a string no longer than @max_chars characters, valid UTF-8, one line
 * without control characters. */
static const char *
assert_bounded_member (JsonObject *object,
                       const char *name,
                       glong       max_chars)
{
  const char *value = json_object_get_string_member (object, name);

  g_assert_nonnull (value);
  g_assert_true (g_utf8_validate (value, -1, NULL));
  g_test_message ("%s: %ld characters", name, g_utf8_strlen (value, -1));
  g_assert_cmpint (g_utf8_strlen (value, -1), <=, max_chars);
  for (const char *p = value; *p != '\0'; p = g_utf8_next_char (p))
    g_assert_false (g_unichar_iscntrl (g_utf8_get_char (p)));
  return value;
}

/* An agent's title of a megabyte with newlines and control characters in it, a first prompt
 * of one megabyte-long word, a branch and a model as long, a working folder of 64 KiB: the
 * store keeps each bounded, and `loom sessions show --json` says so. */
static void
test_huge_metadata (Fixture      *f,
                    gconstpointer data)
{
  g_autoptr (GString) contents = g_string_new (NULL);
  g_autoptr (GString) title = g_string_new ("Hugetitle");
  g_autofree char *word = NULL;
  g_autofree char *branch = NULL;
  g_autofree char *model = NULL;
  g_autofree char *cwd = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSession) session = NULL;
  JsonObject *object;
  const char *value;

  while (title->len < MEGABYTE)
    g_string_append (title, " line\\n\\u0007 of a title\\t");
  word = g_strnfill (MEGABYTE, 'w');
  memcpy (word, "Hugeprompt", 10);
  branch = g_strnfill (MEGABYTE, 'b');
  model = g_strnfill (MEGABYTE, 'm');
  cwd = g_strnfill (64 * 1024, 'd');
  cwd[0] = '/';

  add_line (contents,
            g_strdup_printf (
              "{\"type\":\"user\",\"uuid\":\"00000000-0000-4000-8000-000000000001\","
              "\"parentUuid\":null,\"sessionId\":\"%s\",\"timestamp\":\"2026-11-20T10:00:00.000Z\","
              "\"cwd\":\"%s\",\"gitBranch\":\"%s\",\"version\":\"2.1.81\",\"isSidechain\":false,"
              "\"userType\":\"external\",\"message\":{\"role\":\"user\",\"content\":\"%s\"}}",
              S_HUGE_TITLE, cwd, branch, word));
  add_line (contents,
            g_strdup_printf (
              "{\"type\":\"assistant\",\"uuid\":\"00000000-0000-4000-9000-000000000002\","
              "\"parentUuid\":\"00000000-0000-4000-8000-000000000001\",\"sessionId\":\"%s\","
              "\"timestamp\":\"2026-11-20T10:00:30.000Z\",\"cwd\":\"%s\",\"version\":\"2.1.81\","
              "\"isSidechain\":false,\"userType\":\"external\",\"requestId\":\"req_1\","
              "\"message\":{\"model\":\"%s\",\"id\":\"msg_1\",\"type\":\"message\","
              "\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Done.\"}],"
              "\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":10,\"output_tokens\":5}}}",
              S_HUGE_TITLE, cwd, model));
  add_line (contents, g_strdup_printf ("{\"type\":\"custom-title\",\"customTitle\":\"%s\","
                                       "\"sessionId\":\"%s\"}",
                                       title->str, S_HUGE_TITLE));
  path = write_session (f, S_HUGE_TITLE, contents);
  import (f);
  g_assert_cmpuint (f->stats->sessions_touched, >=, 1);

  session = loom_store_get_session (f->store, S_HUGE_TITLE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (session);

  out = run_loom (f, "sessions", "show", loom_session_get_uuid (session), "--json", NULL);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  if (json_object_has_member (object, "session"))
    object = json_object_get_object_member (object, "session");

  /* The title: the agent's, cut; one line, its date kept apart. */
  value = assert_bounded_member (object, "title", LOOM_NAMING_TITLE_LIMIT + 13);
  g_test_message ("title: %s", value);
  g_assert_true (g_str_has_prefix (value, "Hugetitle line"));
  g_assert_true (g_str_has_suffix (value, " - 2026-11-20"));
  value = assert_bounded_member (object, "git_branch", LOOM_NAMING_TITLE_LIMIT);
  g_assert_true (g_str_has_suffix (value, "…"));
  value = assert_bounded_member (object, "model", 200);
  g_assert_true (g_str_has_prefix (value, "mmm"));
  value = assert_bounded_member (object, "cwd", LOOM_NAMING_PATH_LIMIT);
  g_assert_cmpuint (strlen (value), <=, LOOM_NAMING_PATH_LIMIT);
  g_assert_true (g_str_has_prefix (value, "/ddd"));

  /* The first prompt is all there, as the person wrote it. */
  g_assert_cmpint (messages_of (f, loom_session_get_uuid (session)), ==, 2);
  {
    g_autofree char *prompt = loom_store_find_first_prompt (
      f->store, loom_session_get_uuid (session), &error);
    g_autofree char *suggestion = loom_naming_suggest_name (prompt);

    g_assert_no_error (error);
    g_assert_cmpuint (strlen (prompt), ==, MEGABYTE);
    /* A name suggested from it is a name's length. */
    g_assert_nonnull (suggestion);
    g_assert_cmpint (g_utf8_strlen (suggestion, -1), <=, LOOM_NAMING_SUGGESTION_LIMIT);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  /* First, while the peak resident size still means something. */
  ADD ("/hostile/a-memory-bounded", test_memory_bounded);
  ADD ("/hostile/documents-being-written", test_documents_being_written);
  ADD ("/hostile/every-hazard", test_every_hazard);
  ADD ("/hostile/failed-file-in-batch", test_failed_file_in_batch);
  ADD ("/hostile/failed-file-being-written", test_failed_file_being_written);
  ADD ("/hostile/hundred-megabyte-line", test_hundred_megabyte_line);
  ADD ("/hostile/large-import-settles-index", test_large_import_settles_index);
  ADD ("/hostile/change-during-index-merge", test_change_during_index_merge);
  ADD ("/hostile/record-over-limit-claude", test_record_over_limit_claude);
  ADD ("/hostile/record-over-limit-last-line", test_record_over_limit_last_line);
  ADD ("/hostile/record-over-limit-codex", test_record_over_limit_codex);
  ADD ("/hostile/document-over-limit-gemini", test_document_over_limit_gemini);
  ADD ("/hostile/huge-metadata", test_huge_metadata);
#undef ADD

  return g_test_run ();
}
