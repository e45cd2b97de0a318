/* test-search.c — the query language and the index: every filter, phrases, prefixes,
 * exclusions, diacritics, text without spaces, identifiers and paths, ranking, deletion and
 * rebuilding.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <sqlite3.h>
#include <string.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-search-marks.h"
#include "loom-search-tokenizer.h"
#include "loom-search.h"
#include "loom-test-utils.h"
#include "loom-time.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)

typedef struct
{
  char      *dir;
  char      *path;
  LoomStore *store;
  char      *migration; /* codex, project "billing", folder "Work", pinned */
  char      *cafe;      /* claude-code, project "webapp", archived */
  char      *japanese;  /* gemini, project "webapp" */
  char      *trashed;   /* codex, in the trash */
  gint64     edit_call; /* an Edit call of "migration" and its result */
  gint64     edit_result;
} Fixture;

static gint64 base_time;

static gint64
add_session (Fixture    *f,
             const char *title,
             const char *source,
             const char *project,
             const char *model,
             gint64      created_at,
             char      **uuid)
{
  g_autoptr (LoomSessionRecord) r = loom_session_record_new ();
  g_autoptr (GError) error = NULL;

  r->title = g_strdup (title);
  r->source = g_strdup (source);
  r->source_session_id = g_uuid_string_random ();
  r->project_path = g_strdup_printf ("/home/ada/src/%s", project);
  r->model = g_strdup (model);
  r->models_json = g_strdup_printf ("[\"%s\"]", model);
  r->created_at = created_at;
  r->updated_at = created_at;
  g_assert_true (loom_store_insert_session (f->store, r, &error));
  g_assert_no_error (error);
  *uuid = g_strdup (r->uuid);
  return r->id;
}

static void
message (Fixture    *f,
         gint64      session,
         const char *role,
         const char *text,
         gint64      when)
{
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (loom_store_add_message (f->store, session, role, text, when, &error), >, 0);
  g_assert_no_error (error);
}

static gint64
event (Fixture    *f,
       gint64      session,
       const char *kind,
       const char *tool,
       const char *text,
       gint64      when)
{
  g_autoptr (GError) error = NULL;
  gint64 id = loom_store_add_event (f->store, session, kind, tool, text, when, &error);

  g_assert_no_error (error);
  g_assert_cmpint (id, >, 0);
  return id;
}

static void
exec_sql (Fixture    *f,
          const char *sql)
{
  sqlite3           *db = NULL;
  LoomSearchTermLog *terms;

  /* As the store does: the terms this write indexes are noted for prefix searches. */
  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_nonnull (terms = loom_search_tokenizer_register_logged (db, NULL));
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_true (loom_search_term_log_flush (terms, db, NULL));
  sqlite3_close (db);
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomFolder) work = NULL;
  gint64           s, error_event;
  g_autofree char *sql = NULL;

  f->dir = loom_test_make_tmpdir ();
  f->path = g_build_filename (f->dir, "history.db", NULL);
  f->store = loom_store_open (f->path, &error);
  g_assert_no_error (error);

  s = add_session (f, "Fix the billing migration - 2026-10-05", "codex", "billing", "gpt-5",
                   base_time - 40 * DAY_MS, &f->migration);
  message (f, s, "user", "The payment_service migration fails on production",
           base_time - 40 * DAY_MS);
  message (f, s, "assistant", "The migration adds a NOT NULL column without a default",
           base_time - 40 * DAY_MS + 1000);
  event (f, s, "tool_call", "Bash", "psql -f db/migrations/0042_add_currency.sql",
         base_time - 40 * DAY_MS + 2000);
  error_event = event (f, s, "tool_result", "Bash", "ERROR: column currency contains null values",
                       base_time - 40 * DAY_MS + 3000);
  event (f, s, "reasoning", NULL, "The migration must backfill before adding the constraint",
         base_time - 40 * DAY_MS + 4000);
  f->edit_call = event (f, s, "tool_call", "Edit", "src/auth/login.c PaymentService::charge",
                        base_time - 40 * DAY_MS + 5000);
  f->edit_result = event (f, s, "tool_result", "Edit", "patched the file",
                          base_time - 40 * DAY_MS + 6000);

  s = add_session (f, "Café crème layout - 2026-11-01", "claude-code", "webapp", "claude-opus-4",
                   base_time - 5 * DAY_MS, &f->cafe);
  message (f, s, "user", "Make the café page look like the naïve mock-up", base_time - 5 * DAY_MS);
  message (f, s, "assistant", "I changed the layout of the cafe page", base_time - 5 * DAY_MS + 1);
  event (f, s, "tool_call", "Bash", "npm run migration-check", base_time - 5 * DAY_MS + 2);

  s = add_session (f, "日本語のコメント - 2026-11-20", "gemini", "webapp", "gemini-2.5-pro",
                   base_time - DAY_MS, &f->japanese);
  message (f, s, "user", "日本語のコメントを直してください", base_time - DAY_MS);
  message (f, s, "assistant", "コメントを修正しました。migration は不要です。",
           base_time - DAY_MS + 1);

  s = add_session (f, "Old migration notes - 2026-09-01", "codex", "billing", "gpt-5",
                   base_time - 80 * DAY_MS, &f->trashed);
  message (f, s, "user", "migration notes for the archive", base_time - 80 * DAY_MS);

  work = loom_store_create_folder (f->store, "Work", &error);
  g_assert_true (
    loom_store_move_session (f->store, f->migration, loom_folder_get_id (work), &error));
  g_assert_true (loom_store_set_pinned (f->store, f->migration, TRUE, &error));
  g_assert_true (loom_store_set_archived (f->store, f->cafe, TRUE, &error));
  g_assert_true (loom_store_set_trashed (f->store, f->trashed, TRUE, &error));
  g_assert_no_error (error);

  /* The core's plain add_event has no error flag; set it as an importer would. */
  sql = g_strdup_printf ("UPDATE events SET is_error = 1 WHERE id = %" G_GINT64_FORMAT,
                         error_event);
  exec_sql (f, sql);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->store);
  loom_test_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->migration);
  g_free (f->cafe);
  g_free (f->japanese);
  g_free (f->trashed);
}

/* The hits of @query as "session-letter:kind" strings, in rank order. */
static char *
hits (Fixture    *f,
      const char *query)
{
  g_autoptr (GListModel) model = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) out = g_string_new (NULL);

  model = loom_store_search (f->store, query, 0, 50, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (model, i);
      const LoomSearchHitData *d = loom_search_hit_get_data (hit);
      char                     letter = g_str_equal (d->session_uuid, f->migration)  ? 'M'
                                        : g_str_equal (d->session_uuid, f->cafe)     ? 'C'
                                        : g_str_equal (d->session_uuid, f->japanese) ? 'J'
                                                                                     : 'T';

      g_string_append_printf (out, "%s%c:%s", out->len ? " " : "", letter, d->kind);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static guint
count (Fixture    *f,
       const char *query)
{
  g_autoptr (GListModel) model = NULL;
  g_autoptr (GError) error = NULL;

  model = loom_store_search (f->store, query, 0, 0, &error);
  g_assert_no_error (error);
  return g_list_model_get_n_items (model);
}

static void
assert_refused (Fixture    *f,
                const char *query,
                const char *words)
{
  g_autoptr (GListModel) model = NULL;
  g_autoptr (GError) error = NULL;

  model = loom_store_search (f->store, query, 0, 10, &error);
  g_assert_null (model);
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  if (strstr (error->message, words) == NULL)
    g_error ("“%s” was refused with “%s”, expected it to mention “%s”", query, error->message,
             words);
  g_assert_null (strstr (error->message, "SQL"));
  g_assert_null (strstr (error->message, "fts5"));
}

static void
test_words_phrases_prefix_or_not (Fixture      *f,
                                  gconstpointer data)
{
  g_autofree char *h = NULL;

  /* The trashed session is not searched unless asked. */
  g_assert_cmpuint (count (f, "migration"), ==, 6);
  g_assert_cmpuint (count (f, "migration in:trash"), ==, 2);

  g_assert_cmpuint (count (f, "\"NOT NULL column\""), ==, 1);
  g_assert_cmpuint (count (f, "\"column NOT NULL\""), ==, 0);
  g_assert_cmpuint (count (f, "migra*"), >=, 6);
  g_assert_cmpuint (count (f, "backfill constraint"), ==, 1);
  g_assert_cmpuint (count (f, "backfill unicorn"), ==, 0);
  g_assert_cmpuint (count (f, "backfill OR unicorn"), ==, 1);
  g_assert_cmpuint (count (f, "unicorn OR layout"), ==, 2);
  h = hits (f, "migration -production -backfill -psql -npm");
  g_assert_true (g_str_has_prefix (h, "M:title "));
  g_assert_cmpuint (strlen (h), ==, strlen ("M:title J:reply M:reply"));
  g_assert_nonnull (strstr (h, "J:reply"));
  g_assert_nonnull (strstr (h, "M:reply"));
}

static gint64
query_number (Fixture    *f,
              const char *sql)
{
  return loom_test_query_int (f->path, sql, NULL);
}

/* A prefix is searched as the OR of its terms from search_terms: a camelCase word needs its
 * own term only for a prefix longer than its first part; a prefix with too many terms is left
 * to FTS5. Either way it finds what FTS5's own prefix query finds. */
static void
test_prefix_terms (Fixture      *f,
                   gconstpointer data)
{
  g_autofree char *uuid = NULL;
  gint64           s = add_session (f, "Prefixes", "codex", "billing", "gpt-5", base_time, &uuid);
  g_autoptr (GError) error = NULL;

  message (f, s, "user", "call parserWrite now", base_time);
  message (f, s, "user", "the zorbleframe thing", base_time + 1);
  message (f, s, "assistant", "ZorbleWidget renders", base_time + 2);
  message (f, s, "assistant", "see parser1073 and sha256 in loadConfig1407", base_time + 3);
  for (guint i = 0; i < 201; i++)
    {
      g_autofree char *text = g_strdup_printf ("capword%c%c", 'a' + i / 26, 'a' + i % 26);

      message (f, s, "assistant", text, base_time + 4 + i);
    }
  g_assert_finalize_object (f->store);
  f->store = loom_store_open (f->path, &error);
  g_assert_no_error (error);

  g_assert_cmpint (query_number (f, "SELECT head FROM search_terms WHERE term = 'parserwrite'"), ==,
                   strlen ("parser"));
  g_assert_cmpint (query_number (f, "SELECT head FROM search_terms WHERE term = 'parser'"), ==, 0);
  g_assert_cmpint (query_number (f, "SELECT head FROM search_terms WHERE term = 'zorbleframe'"), ==,
                   0);
  loom_test_assert_index_in_sync (f->path);

  g_assert_cmpuint (count (f, "pars*"), ==, 2);
  g_assert_cmpint (query_number (f, "SELECT head FROM search_terms WHERE term = 'parser1073'"), ==,
                   strlen ("parser"));
  g_assert_cmpuint (count (f, "1073"), ==, 1);
  g_assert_cmpuint (count (f, "parser1073"), ==, 1);
  g_assert_cmpuint (count (f, "parser10*"), ==, 1);
  g_assert_cmpuint (count (f, "sha"), ==, 1);
  g_assert_cmpint (query_number (f, "SELECT head FROM search_terms WHERE term = 'config1407'"), ==,
                   strlen ("config"));
  g_assert_cmpuint (count (f, "confi*"), ==, 1);
  g_assert_cmpuint (count (f, "config14*"), ==, 1);
  g_assert_cmpuint (count (f, "1407"), ==, 1);
  g_assert_cmpuint (count (f, "parserw*"), ==, 1);
  g_assert_cmpuint (count (f, "parserx*"), ==, 0);
  g_assert_cmpuint (count (f, "zorb*"), ==, 2);
  g_assert_cmpuint (count (f, "zorblef*"), ==, 1);
  g_assert_cmpuint (count (f, "zorblew*"), ==, 1);
  g_assert_cmpuint (count (f, "Zorble*"), ==, 2);
  g_assert_cmpuint (count (f, "zorb* -widget"), ==, 1);
  g_assert_cmpuint (count (f, "parserw* OR zorblef*"), ==, 2);
  g_assert_cmpuint (count (f, "capword*"), ==, 201);
  g_assert_cmpuint (count (f, "capworda*"), ==, 26);
}

/* Notes @length bytes of @term in @log, and in @expected (term → smallest head) as the log
 * should. */
static void
note_term (LoomSearchTermLog *log,
           GHashTable        *expected,
           const char        *term,
           int                length,
           int                head)
{
  char    *key = g_strndup (term, (gsize)length);
  gpointer known;

  loom_search_term_log_add (log, term, length, head);
  if (!g_hash_table_lookup_extended (expected, key, NULL, &known) || head < GPOINTER_TO_INT (known))
    g_hash_table_insert (expected, g_strdup (key), GINT_TO_POINTER (head));
  g_free (key);
}

/* Flushes @log into the emptied search_terms, as a batch's commit does, and checks that it
 * wrote @expected (term → head), no more, no less. */
static void
assert_flushed (Fixture           *f,
                LoomSearchTermLog *log,
                GHashTable        *expected)
{
  g_autoptr (GError) error = NULL;
  sqlite3      *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint         n_rows = 0;

  g_assert_cmpint (sqlite3_open (f->path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "DELETE FROM search_terms; BEGIN", NULL, NULL, NULL), ==,
                   SQLITE_OK);
  g_assert_true (loom_search_term_log_flush (log, db, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT term, head FROM search_terms", -1, &stmt, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *term = (const char *)sqlite3_column_text (stmt, 0);
      gpointer    head;

      if (!g_hash_table_lookup_extended (expected, term, NULL, &head))
        g_error ("search_terms has “%.40s”, never noted", term);
      g_assert_cmpint (sqlite3_column_int (stmt, 1), ==, GPOINTER_TO_INT (head));
      n_rows++;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  g_assert_cmpuint (n_rows, ==, g_hash_table_size (expected));
}

/* The log keeps each term's smallest head, reads a term's bytes without a NUL after them, and
 * starts afresh after a flush. */
static void
test_term_log_heads (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  static const char  text[] = "parser1073 parserWrite zorble";
  LoomSearchTermLog *log = loom_search_term_log_new ();

  note_term (log, expected, "parserwrite", strlen ("parserwrite"), 6);
  note_term (log, expected, "parserwrite", strlen ("parserwrite"), 9);
  note_term (log, expected, text, strlen ("parser1073"), 6);
  note_term (log, expected, text, strlen ("parser"), 0);
  note_term (log, expected, text, strlen ("pars"), 0);
  note_term (log, expected, text + strlen ("parser1073 "), strlen ("parserWrite"), 6);
  note_term (log, expected, text + strlen ("parser1073 parserWrite "), strlen ("zorble"), 0);
  note_term (log, expected, text, strlen ("parser"), 3);
  note_term (log, expected, text, strlen ("parser1073"), 0);
  g_assert_cmpuint (g_hash_table_size (expected), ==, 6);
  assert_flushed (f, log, expected);

  /* The flush forgot the terms: a flush of nothing writes nothing. */
  g_hash_table_remove_all (expected);
  assert_flushed (f, log, expected);
  note_term (log, expected, "parserwrite", strlen ("parserwrite"), 9);
  note_term (log, expected, "zorble", strlen ("zorble"), 2);
  assert_flushed (f, log, expected);

  loom_search_term_log_free (log);
}

/* Short terms and long ones, unlike only after the first bytes; enough to grow the log's table
 * past the size it keeps between batches, twice, seen again and again with random heads. */
static void
test_term_log_many_terms (Fixture      *f,
                          gconstpointer data)
{
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (1073);
  LoomSearchTermLog *log = loom_search_term_log_new ();
  const guint        n_terms = 200000;

  for (guint round = 0; round < 2; round++)
    {
      for (guint i = 0; i < 3 * n_terms; i++)
        {
          /* Up to 40 zeros, then the term's number in letters: all unlike, of every length. */
          guint number = i < n_terms ? i : (guint)g_rand_int_range (rand, 0, (gint32)n_terms);
          char  term[64];
          int   length = (int)(number % 41);

          memset (term, '0', (gsize)length);
          do
            term[length++] = (char)('a' + number % 26);
          while ((number /= 26) > 0);
          note_term (log, expected, term, length, g_rand_int_range (rand, 0, 10));
        }
      g_assert_cmpuint (g_hash_table_size (expected), ==, n_terms);
      assert_flushed (f, log, expected);
      g_hash_table_remove_all (expected);
    }

  loom_search_term_log_free (log);
}

/* Terms of tens of KB, which the log stores apart from the short ones. */
static void
test_term_log_long_terms (Fixture      *f,
                          gconstpointer data)
{
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  LoomSearchTermLog *log = loom_search_term_log_new ();
  g_autofree char   *long_term = g_malloc (100001);

  memset (long_term, '-', 100000);
  long_term[100000] = 'y';
  for (int i = 0; i < 26; i++)
    {
      char letter = (char)('a' + i);

      /* Alike but for the last byte, or the first, or the length. */
      long_term[39999] = letter;
      note_term (log, expected, long_term, 40000, i);
      note_term (log, expected, long_term + 39999, 40000, i);
      note_term (log, expected, &letter, 1, 0);
      note_term (log, expected, long_term, 20000 + i, i);
    }
  /* Alike at both ends, unlike only in the middle. */
  for (int length = 17; length <= 40; length++)
    for (int i = 0; i < 3; i++)
      {
        char term[40];

        memset (term, 'm', (gsize)length);
        term[length / 2] = (char)('a' + i);
        note_term (log, expected, term, length, i);
      }
  note_term (log, expected, long_term, 100001, 7);
  note_term (log, expected, long_term, 100000, 8);
  note_term (log, expected, long_term, 100001, 3);
  g_assert_cmpuint (g_hash_table_size (expected), ==, 4 * 26 + 24 * 3 + 2);
  assert_flushed (f, log, expected);

  loom_search_term_log_free (log);
}

/* A flush that fails keeps the terms for the next. */
static void
test_term_log_flush_error (Fixture      *f,
                           gconstpointer data)
{
  g_autoptr (GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GError) error = NULL;
  LoomSearchTermLog *log = loom_search_term_log_new ();
  sqlite3           *elsewhere = NULL;

  note_term (log, expected, "parser", strlen ("parser"), 0);
  note_term (log, expected, "parser1073", strlen ("parser1073"), 6);

  g_assert_cmpint (sqlite3_open (":memory:", &elsewhere), ==, SQLITE_OK);
  g_assert_false (loom_search_term_log_flush (log, elsewhere, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE);
  sqlite3_close (elsewhere);
  assert_flushed (f, log, expected);

  loom_search_term_log_free (log);
}

static void
test_diacritics_cjk_identifiers (Fixture      *f,
                                 gconstpointer data)
{
  g_assert_cmpuint (count (f, "cafe"), ==, 3);
  g_assert_cmpuint (count (f, "café"), ==, 3);
  g_assert_cmpuint (count (f, "naive"), ==, 1);
  g_assert_cmpuint (count (f, "creme"), ==, 1);

  /* Text without spaces: any substring. */
  g_assert_cmpuint (count (f, "コメント"), ==, 3);
  g_assert_cmpuint (count (f, "直して"), ==, 1);
  g_assert_cmpuint (count (f, "日本語"), ==, 2);
  g_assert_cmpuint (count (f, "修正"), ==, 1);

  /* Identifiers and paths by their parts, and whole. */
  g_assert_cmpuint (count (f, "payment_service"), ==, 1);
  g_assert_cmpuint (count (f, "payment"), ==, 2);
  g_assert_cmpuint (count (f, "service"), ==, 2);
  g_assert_cmpuint (count (f, "PaymentService"), ==, 1);
  g_assert_cmpuint (count (f, "src/auth/login.c"), ==, 1);
  g_assert_cmpuint (count (f, "login.c"), ==, 1);
  g_assert_cmpuint (count (f, "0042_add_currency.sql"), ==, 1);
}

static void
test_filters (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *after = NULL;
  g_autofree char *before = NULL;
  g_autofree char *sql = NULL;
  g_autofree char *day = loom_time_to_date (base_time - 10 * DAY_MS);

  g_assert_cmpuint (count (f, "migration agent:codex"), ==, 4);
  g_assert_cmpuint (count (f, "migration agent:gemini"), ==, 1);
  g_assert_cmpuint (count (f, "migration agent:claude"), ==, 1);
  g_assert_cmpuint (count (f, "migration project:billing"), ==, 4);
  g_assert_cmpuint (count (f, "migration project:WEBAPP"), ==, 2);
  g_assert_cmpuint (count (f, "migration folder:work"), ==, 4);
  g_assert_cmpuint (count (f, "tool:bash"), ==, 3);
  g_assert_cmpuint (count (f, "migration tool:Bash"), ==, 1); /* "migrations" is another word */
  g_assert_cmpuint (count (f, "migration role:user"), ==, 1);
  g_assert_cmpuint (count (f, "migration role:assistant"), ==, 2);
  g_assert_cmpuint (count (f, "migration role:tool"), ==, 1);
  g_assert_cmpuint (count (f, "migration role:reasoning"), ==, 1);
  g_assert_cmpuint (count (f, "model:opus"), ==, count (f, "model:claude-opus"));
  g_assert_cmpuint (count (f, "cafe model:opus"), ==, 3);
  g_assert_cmpuint (count (f, "cafe model:gpt"), ==, 0);
  g_assert_cmpuint (count (f, "migration in:archived"), ==, 1);
  g_assert_cmpuint (count (f, "migration in:pinned"), ==, 4);
  g_assert_cmpuint (count (f, "has:error"), ==, 1);
  g_assert_cmpuint (count (f, "null has:error"), ==, 1);

  /* Prefixes take another path (one scan of the index): filters still apply. */
  g_assert_cmpuint (count (f, "migra* project:billing"), >, 0);
  g_assert_cmpuint (count (f, "migra* project:billing") + count (f, "migra* project:webapp"), ==,
                    count (f, "migra*"));
  g_assert_cmpuint (count (f, "migra* agent:codex"), ==, count (f, "migra* project:billing"));
  g_assert_cmpuint (count (f, "migra* in:trash"), ==, 2);

  /* A result names its tool only through its call, as Claude Code writes them. */
  sql = g_strdup_printf ("UPDATE events SET call_id = 'call-7' WHERE id IN (%" G_GINT64_FORMAT
                         ", %" G_GINT64_FORMAT ");"
                         "UPDATE events SET tool_name = NULL WHERE id = %" G_GINT64_FORMAT,
                         f->edit_call, f->edit_result, f->edit_result);
  exec_sql (f, sql);
  g_assert_cmpuint (count (f, "patched tool:edit"), ==, 1);
  g_assert_cmpuint (count (f, "patched tool:bash"), ==, 0);
  g_assert_cmpuint (count (f, "patched role:tool"), ==, 1);

  after = g_strdup_printf ("migration after:%s", day);
  before = g_strdup_printf ("migration before:%s", day);
  g_assert_cmpuint (count (f, after), ==, 2);
  g_assert_cmpuint (count (f, before), ==, 4);
}

static void
test_malformed_queries (Fixture      *f,
                        gconstpointer data)
{
  assert_refused (f, "\"unclosed phrase", "quote");
  assert_refused (f, "OR migration", "OR needs");
  assert_refused (f, "migration OR", "OR needs");
  assert_refused (f, "-migration", "not only what to leave out");
  assert_refused (f, "", "Type a word");
  assert_refused (f, "   ", "Type a word");
  assert_refused (f, "agent:cobol x", "Unknown agent");
  assert_refused (f, "role:wizard x", "role:user");
  assert_refused (f, "after:yesterday x", "not a date");
  assert_refused (f, "in:attic x", "in:archived");
  assert_refused (f, "has:cake x", "has:error");
  assert_refused (f, "agent: x", "needs a value");

  /* FTS5 syntax typed by a person is searched for, never interpreted. */
  g_assert_cmpuint (count (f, "NEAR(migration column)"), ==, 0);
  g_assert_cmpuint (count (f, "migration AND"), ==, 0);
  g_assert_cmpuint (count (f, "title:migration"), ==, 0);
  assert_refused (f, "\"\"", "Type a word");
  g_assert_cmpuint (count (f, "migration ^ * ( ) :"), ==, 6);
  g_assert_cmpuint (count (f, "std::vector"), ==, 0);
}

static void
test_ranking (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *h = hits (f, "migration");

  /* The title first, then a person's prompt and the replies, tool output last; on equal
   * footing the more recent first. */
  g_assert_true (g_str_has_prefix (h, "M:title"));
  g_assert_nonnull (strstr (h, "M:prompt"));
  g_assert_true (strstr (h, "M:prompt") < strstr (h, "C:tool"));
  g_assert_true (strstr (h, "M:reply") < strstr (h, "C:tool"));
}

/* Deleting a session leaves nothing of it to be found; rebuilding gives the same answers. */
static void
test_delete_and_rebuild (Fixture      *f,
                         gconstpointer data)
{
  static const char *const queries[] = {
    "migration", "cafe", "コメント", "payment", "tool:bash", "\"NOT NULL\"", "migra*",
  };
  g_autoptr (GPtrArray) before = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  const char *ids[] = { NULL, NULL };

  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    g_ptr_array_add (before, hits (f, queries[i]));

  exec_sql (f, "INSERT INTO search_index (search_index) VALUES ('delete-all')");
  g_assert_cmpuint (count (f, "migration"), ==, 0);
  g_assert_true (loom_store_rebuild_index (f->store, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autofree char *after = hits (f, queries[i]);
      g_assert_cmpstr (after, ==, g_ptr_array_index (before, i));
    }

  ids[0] = f->migration;
  plan = loom_store_plan_delete (f->store, ids, &error);
  g_assert_true (loom_store_execute_delete (f->store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count (f, "payment"), ==, 0);
  g_assert_cmpuint (count (f, "backfill"), ==, 0);
  g_assert_cmpuint (count (f, "psql"), ==, 0);
  g_assert_cmpuint (count (f, "billing"), ==, 0);
  g_assert_cmpint (loom_test_count_matches (f->path, "payment OR backfill OR billing"), ==, 0);
}

static void
test_within_session (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GListModel) model = NULL;
  g_autoptr (GError) error = NULL;

  model = loom_store_search_session (f->store, f->migration, "migration", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (model, i);
      const LoomSearchHitData *d = loom_search_hit_get_data (hit);

      g_assert_cmpstr (d->session_uuid, ==, f->migration);
      g_assert_nonnull (strstr (d->snippet, LOOM_SEARCH_MARK_START));
      if (!g_str_equal (d->kind, "title"))
        g_assert_cmpint (d->seq, >, 0);
    }
  g_clear_object (&model);

  /* Positions only: the same hits in the same order, without snippets. */
  {
    g_autoptr (GListModel) positions = NULL;

    g_clear_object (&model);
    model = loom_store_search_session (f->store, f->migration, "migration", 0, &error);
    positions = loom_store_search_session_positions (f->store, f->migration, "migration", 0,
                                                     &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_list_model_get_n_items (positions), ==, g_list_model_get_n_items (model));
    for (guint i = 0; i < g_list_model_get_n_items (model); i++)
      {
        g_autoptr (LoomSearchHit) a = g_list_model_get_item (model, i);
        g_autoptr (LoomSearchHit) b = g_list_model_get_item (positions, i);
        const LoomSearchHitData *x = loom_search_hit_get_data (a);
        const LoomSearchHitData *y = loom_search_hit_get_data (b);

        g_assert_cmpstr (x->item_type, ==, y->item_type);
        g_assert_cmpint (x->item_id, ==, y->item_id);
        g_assert_cmpint (x->seq, ==, y->seq);
        g_assert_cmpstr (x->session_uuid, ==, y->session_uuid);
        g_assert_null (y->snippet);
      }
  }
  g_clear_object (&model);

  /* A session opened from the Trash is searched like any other. */
  model = loom_store_search_session (f->store, f->trashed, "migration", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
}

/* Marking words needs no store: the same tokenizer finds them, folded, inside identifiers and
 * by prefix, and gives their places in bytes. */
static void
test_marks_without_store (void)
{
  static const char    *words[] = { "cafe", "config", "pars" };
  static const gboolean prefix[] = { FALSE, FALSE, TRUE };
  static const char     text[] = "Un Café, loadConfig parser1073 \002cafe";
  static const guint    expected[] = { 3, 8, 10, 20, 21, 31, 33, 37 };
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomSearchMarks) marks = NULL;
  g_autoptr (GArray) found = NULL;
  g_autoptr (GArray) none = NULL;

  marks = loom_search_marks_new (words, prefix, G_N_ELEMENTS (words), &error);
  g_assert_no_error (error);
  g_assert_nonnull (marks);

  found = loom_search_marks_find (marks, text);
  g_assert_cmpuint (found->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < found->len; i++)
    g_assert_cmpuint (g_array_index (found, guint, i), ==, expected[i]);

  none = loom_search_marks_find (marks, "nothing searched here");
  g_assert_cmpuint (none->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  base_time = loom_time_now_ms ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/search/words-phrases-prefix-or-not", test_words_phrases_prefix_or_not);
  ADD ("/search/prefix-terms", test_prefix_terms);
  ADD ("/search/term-log/heads", test_term_log_heads);
  ADD ("/search/term-log/many-terms", test_term_log_many_terms);
  ADD ("/search/term-log/long-terms", test_term_log_long_terms);
  ADD ("/search/term-log/flush-error", test_term_log_flush_error);
  ADD ("/search/diacritics-cjk-identifiers", test_diacritics_cjk_identifiers);
  ADD ("/search/filters", test_filters);
  ADD ("/search/malformed-queries", test_malformed_queries);
  ADD ("/search/ranking", test_ranking);
  ADD ("/search/delete-and-rebuild", test_delete_and_rebuild);
  ADD ("/search/within-session", test_within_session);
#undef ADD
  g_test_add_func ("/search/marks-without-store", test_marks_without_store);

  return g_test_run ();
}
