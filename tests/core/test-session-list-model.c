/* test-session-list-model.c — the lazy list of a query's sessions, on a store of 10,000.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <sqlite3.h>
#include <string.h>

#include "loom-core.h"
#include "loom-search-tokenizer.h"
#include "loom-session-list-model.h"
#include "loom-store-session-ids.h"
#include "loom-store-projects.h"
#include "loom-test-utils.h"

#define N_SESSIONS 10000
#define PAGE_SIZE  LOOM_SESSION_LIST_MODEL_PAGE_SIZE
#define BASE_MS    ((gint64)1700000000000)
#define MINUTE_MS  ((gint64)60 * 1000)

static const char *const sources[] = { "claude-code", "codex", "gemini" };

/* Built once: 10,000 sessions take a few seconds to insert, and every test only reads them
 * (or changes them in a copy). */
static char *template_dir;
static char *template_path;

typedef struct
{
  char                 *dir;
  char                 *path;
  LoomStore            *store;
  LoomSessionListModel *model;
  GArray               *changes; /* guint triples: position, removed, added */
} Fixture;

static void
exec_raw (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;
  char    *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_true (loom_search_tokenizer_register (db, NULL));
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
  sqlite3_close (db);
}

/* Session i (0-based) was updated i minutes after BASE_MS, so the default order (newest
 * first) lists it at position N - 1 - i. It was created in the opposite order, and its title
 * sorts by (i * 7919) mod N, a permutation, so that each sort order is a different list. */
static void
build_template (void)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) sql = g_string_new ("BEGIN;");

  template_dir = loom_test_make_tmpdir ();
  template_path = g_build_filename (template_dir, "history.db", NULL);
  store = loom_store_open (template_path, &error);
  g_assert_no_error (error);
  g_clear_object (&store);

  g_string_append (sql, "INSERT INTO projects (path, name) VALUES"
                        " ('/home/ada/src/gtk', 'gtk'), ('/home/ada/src/loom', 'loom'),"
                        " ('/home/bob/gtk', 'gtk');");
  for (guint i = 0; i < N_SESSIONS; i++)
    g_string_append_printf (sql,
                            "INSERT INTO sessions (uuid, title, source, project_id, created_at,"
                            "                      updated_at, message_count)"
                            " VALUES ('uuid-%05u', 'Session %05u', '%s', %u, %" G_GINT64_FORMAT
                            ", %" G_GINT64_FORMAT ", %u);",
                            i, (i * 7919) % N_SESSIONS, sources[i % 3], 1 + i % 3,
                            BASE_MS + (gint64)(N_SESSIONS - i) * MINUTE_MS,
                            BASE_MS + (gint64)i * MINUTE_MS, i % 50);
  g_string_append (sql, "COMMIT;");
  exec_raw (template_path, sql->str);
}

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     Fixture    *f)
{
  guint change[] = { position, removed, added };

  /* A model must already be in its new state when it reports a change. */
  g_assert_cmpuint (position + added, <=, g_list_model_get_n_items (model));
  g_array_append_vals (f->changes, change, 3);
}

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize            length;

  f->dir = loom_test_make_tmpdir ();
  f->path = g_build_filename (f->dir, "history.db", NULL);
  g_assert_true (g_file_get_contents (template_path, &contents, &length, &error));
  g_assert_true (g_file_set_contents (f->path, contents, length, &error));
  g_assert_no_error (error);

  f->store = loom_store_open (f->path, &error);
  g_assert_no_error (error);
  f->model = loom_session_list_model_new (f->store, NULL);
  f->changes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_signal_connect (f->model, "items-changed", G_CALLBACK (on_items_changed_cb), f);
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_assert_finalize_object (f->model);
  g_assert_finalize_object (f->store);
  g_array_unref (f->changes);
  loom_test_remove_tree (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static char *
uuid_of (guint i)
{
  return g_strdup_printf ("uuid-%05u", i);
}

static void
assert_uuid_at (LoomSessionListModel *model,
                guint                 position,
                guint                 i)
{
  g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (model), position);
  g_autofree char *expected = uuid_of (i);

  g_assert_nonnull (session);
  g_assert_cmpstr (loom_session_get_uuid (session), ==, expected);
}

static void
assert_changes (Fixture     *f,
                const guint *expected,
                guint        n_expected)
{
  g_assert_cmpuint (f->changes->len, ==, n_expected);
  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (g_array_index (f->changes, guint, i), ==, expected[i]);
  g_array_set_size (f->changes, 0);
}

/* The count comes at once; rows are read only where asked for, a page at a time. */
static void
test_lazy (Fixture      *f,
           gconstpointer data)
{
  GListModel *model = G_LIST_MODEL (f->model);

  g_assert_true (g_list_model_get_item_type (model) == LOOM_TYPE_SESSION);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS);
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, 0);

  assert_uuid_at (f->model, 0, N_SESSIONS - 1);
  assert_uuid_at (f->model, 1, N_SESSIONS - 2);
  assert_uuid_at (f->model, PAGE_SIZE - 1, N_SESSIONS - PAGE_SIZE);
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, 1);

  assert_uuid_at (f->model, 5000, N_SESSIONS - 1 - 5000);
  assert_uuid_at (f->model, 5001, N_SESSIONS - 1 - 5001);
  assert_uuid_at (f->model, N_SESSIONS - 1, 0);
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, 3);
  g_assert_cmpuint (loom_session_list_model_get_n_cached_pages (f->model), ==, 3);

  g_assert_null (g_list_model_get_item (model, N_SESSIONS));
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, 3);

  /* Reading everything keeps only a bounded number of pages. */
  for (guint i = 0; i < N_SESSIONS; i++)
    assert_uuid_at (f->model, i, N_SESSIONS - 1 - i);
  g_assert_cmpuint (loom_session_list_model_get_n_cached_pages (f->model), ==,
                    LOOM_SESSION_LIST_MODEL_MAX_PAGES);
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), <=,
                    3 + N_SESSIONS / PAGE_SIZE);
  g_assert_cmpuint (f->changes->len, ==, 0);
}

/* A session someone holds keeps its object when its page is read again, even after the page
 * was dropped; one nobody holds is let go. */
static void
test_identity (Fixture      *f,
               gconstpointer data)
{
  GListModel *model = G_LIST_MODEL (f->model);
  g_autoptr (LoomSession) held = g_list_model_get_item (model, 10);
  LoomSession *weak = g_list_model_get_item (model, 11);
  g_autoptr (LoomSession) again = NULL;

  g_object_add_weak_pointer (G_OBJECT (weak), (gpointer *)&weak);
  g_object_unref (weak);
  g_assert_nonnull (weak); /* the page holds it */

  /* Read far enough to drop the first page. */
  for (guint i = 1; i <= LOOM_SESSION_LIST_MODEL_MAX_PAGES; i++)
    g_object_unref (g_list_model_get_item (model, i * PAGE_SIZE));
  g_assert_null (weak);

  again = g_list_model_get_item (model, 10);
  g_assert_true (again == held);
}

static void
set_sort (Fixture *f,
          LoomSort sort,
          gboolean ascending)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GError) error = NULL;

  query.sort = sort;
  query.ascending = ascending;
  g_assert_true (loom_session_list_model_set_query (f->model, &query, &error));
  g_assert_no_error (error);
}

static void
test_sort (Fixture      *f,
           gconstpointer data)
{
  static const guint replaced[] = { 0, N_SESSIONS, N_SESSIONS };
  GListModel        *model = G_LIST_MODEL (f->model);
  guint              positions[] = { 0, 1, 4999, 5000, N_SESSIONS - 1 };

  set_sort (f, LOOM_SORT_CREATED, FALSE);
  assert_changes (f, replaced, 3);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS);
  for (guint i = 0; i < G_N_ELEMENTS (positions); i++)
    assert_uuid_at (f->model, positions[i], positions[i]);

  set_sort (f, LOOM_SORT_UPDATED, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (positions); i++)
    assert_uuid_at (f->model, positions[i], positions[i]);

  /* Title "Session k" belongs to the session i with i * 7919 ≡ k (mod N); 7919 * 7679 ≡ 1. */
  set_sort (f, LOOM_SORT_TITLE, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (positions); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (model, positions[i]);
      g_autofree char *title = g_strdup_printf ("Session %05u", positions[i]);

      g_assert_cmpstr (loom_session_get_title (session), ==, title);
      assert_uuid_at (f->model, positions[i], (guint)(((guint64)positions[i] * 7679) % N_SESSIONS));
    }
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), <=, 3 * 4);
}

static void
test_filter (Fixture      *f,
             gconstpointer data)
{
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  GListModel      *model = G_LIST_MODEL (f->model);
  g_autoptr (GPtrArray) projects = NULL;
  g_autoptr (GError) error = NULL;

  query.source = "codex";
  g_assert_true (loom_session_list_model_set_query (f->model, &query, &error));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS / 3);
  g_assert_cmpstr (loom_session_list_model_get_query (f->model)->source, ==, "codex");
  for (guint i = 0; i < g_list_model_get_n_items (model); i += 97)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (model, i);

      g_assert_cmpstr (loom_session_get_source (session), ==, "codex");
    }

  /* A project by its path is exactly one project; by its name, all of that name. */
  query.source = NULL;
  query.project = "/home/ada/src/gtk";
  g_assert_true (loom_session_list_model_set_query (f->model, &query, &error));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS / 3 + 1);
  query.project = "gtk";
  g_assert_true (loom_session_list_model_set_query (f->model, &query, &error));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2 * (N_SESSIONS / 3) + 1);

  query.project = NULL;
  query.collection = LOOM_COLLECTION_PINNED;
  g_assert_true (loom_session_list_model_set_query (f->model, &query, &error));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_null (g_list_model_get_item (model, 0));

  projects = loom_store_list_projects (f->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (projects->len, ==, 3);
  for (guint i = 0; i < projects->len; i++)
    {
      LoomProjectSummary *summary = projects->pdata[i];

      g_assert_cmpuint (summary->n_sessions, ==, i == 0 ? N_SESSIONS / 3 + 1 : N_SESSIONS / 3);
    }
  g_assert_cmpstr (((LoomProjectSummary *)projects->pdata[0])->path, ==, "/home/ada/src/gtk");
  /* Equal counts: by name, so the two named "gtk" stay together. */
  g_assert_cmpstr (((LoomProjectSummary *)projects->pdata[1])->name, ==, "gtk");
  g_assert_cmpstr (((LoomProjectSummary *)projects->pdata[2])->name, ==, "loom");
}

static void
on_notify_cb (GObject    *object,
              GParamSpec *pspec,
              guint      *n_notifies)
{
  (*n_notifies)++;
}

static void
reload (Fixture *f)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (loom_session_list_model_reload (f->model, &error));
  g_assert_no_error (error);
}

/* A reload says what changed, as narrowly as it can tell, and nothing when nothing moved. */
static void
test_reload (Fixture      *f,
             gconstpointer data)
{
  GListModel *model = G_LIST_MODEL (f->model);
  g_autoptr (LoomSession) top = g_list_model_get_item (model, 0);
  g_autoptr (LoomSession) middle = g_list_model_get_item (model, 5000);
  g_autoptr (GError) error = NULL;
  g_autofree char *uuid = NULL;
  guint            n_notifies = 0;
  guint            loads;

  /* Nothing changed: nothing is even read again. */
  loads = loom_session_list_model_get_n_page_loads (f->model);
  reload (f);
  assert_changes (f, NULL, 0);
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, loads);

  /* Pinning changes no order: the held object says so, the model reports nothing. */
  g_signal_connect (top, "notify::pinned", G_CALLBACK (on_notify_cb), &n_notifies);
  g_assert_true (loom_store_set_pinned (f->store, loom_session_get_uuid (top), TRUE, &error));
  reload (f);
  assert_changes (f, NULL, 0);
  g_assert_cmpuint (n_notifies, ==, 1);
  g_assert_true (loom_session_get_pinned (top));
  {
    g_autoptr (LoomSession) same = g_list_model_get_item (model, 0);

    g_assert_true (same == top);
  }

  /* A session trashed near the top: one removed there. */
  uuid = uuid_of (N_SESSIONS - 1 - 3);
  g_assert_true (loom_store_set_trashed (f->store, uuid, TRUE, &error));
  reload (f);
  assert_changes (f, (const guint[]){ 3, 1, 0 }, 3);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS - 1);
  assert_uuid_at (f->model, 3, N_SESSIONS - 1 - 4);
  g_assert_true (loom_store_set_trashed (f->store, uuid, FALSE, &error));
  reload (f);
  assert_changes (f, (const guint[]){ 3, 0, 1 }, 3);
  g_clear_pointer (&uuid, g_free);

  /* A session further down becomes the newest: the stretch between is reported. */
  exec_raw (f->path, "UPDATE sessions SET updated_at = 1800000000000 WHERE uuid = 'uuid-09990'");
  reload (f);
  assert_changes (f, (const guint[]){ 0, 10, 10 }, 3);
  assert_uuid_at (f->model, 0, 9990);
  assert_uuid_at (f->model, 1, N_SESSIONS - 1);
  assert_uuid_at (f->model, 10, 9989);

  /* A new session on top. */
  exec_raw (f->path, "INSERT INTO sessions (uuid, title, source, updated_at)"
                     " VALUES ('uuid-new', 'New', 'codex', 1900000000000)");
  reload (f);
  assert_changes (f, (const guint[]){ 0, 0, 1 }, 3);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS + 1);

  /* A session trashed far from any page read: reported exactly all the same. Before it: the
   * new one, 9990, 9999 … 9991, 9989 … 101. */
  loads = loom_session_list_model_get_n_page_loads (f->model);
  g_assert_true (loom_store_set_trashed (f->store, "uuid-00100", TRUE, &error));
  reload (f);
  assert_changes (f, (const guint[]){ 2 + 9 + 9889, 1, 0 }, 3);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_SESSIONS);
  /* Only the first page and the pages used last were read again (each maybe across two). */
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model) - loads, <=, 1 + 2 * 4);

  /* A query that no longer matches anything. */
  exec_raw (f->path, "UPDATE sessions SET archived = 1");
  reload (f);
  assert_changes (f, (const guint[]){ 0, N_SESSIONS, 0 }, 3);
  g_assert_null (g_list_model_get_item (model, 0));
  g_assert_true (LOOM_IS_SESSION (middle));
}

static void
test_find_and_range (Fixture      *f,
                     gconstpointer data)
{
  g_autoptr (GPtrArray) range = NULL;
  g_autoptr (GError) error = NULL;
  guint position = G_MAXUINT;
  guint loads;

  /* Anywhere in the list, without reading its pages. */
  g_assert_true (loom_session_list_model_find (f->model, "uuid-09999", &position));
  g_assert_cmpuint (position, ==, 0);
  g_assert_true (loom_session_list_model_find (f->model, "uuid-09500", &position));
  g_assert_cmpuint (position, ==, 499);
  g_assert_true (loom_session_list_model_find (f->model, "uuid-00010", &position));
  g_assert_cmpuint (position, ==, N_SESSIONS - 11);
  g_assert_false (loom_session_list_model_find (f->model, "uuid-none", &position));
  g_assert_false (loom_session_list_model_find (f->model, "uuid-0001", &position));
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, 0);
  g_object_unref (g_list_model_get_item (G_LIST_MODEL (f->model), 0));
  g_object_unref (g_list_model_get_item (G_LIST_MODEL (f->model), 2 * PAGE_SIZE));

  /* A long range across pages held and not held, read by stretches outside the pages. */
  loads = loom_session_list_model_get_n_page_loads (f->model);
  range = loom_session_list_model_get_range (f->model, 150, 3000, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (range->len, ==, 3000);
  for (guint i = 0; i < range->len; i++)
    {
      g_autofree char *expected = uuid_of (N_SESSIONS - 1 - 150 - i);

      g_assert_cmpstr (loom_session_get_uuid (range->pdata[i]), ==, expected);
    }
  g_assert_cmpuint (loom_session_list_model_get_n_page_loads (f->model), ==, loads);

  g_clear_pointer (&range, g_ptr_array_unref);
  range = loom_session_list_model_get_range (f->model, N_SESSIONS - 2, 10, &error);
  g_assert_cmpuint (range->len, ==, 2);
}

/* The ids the model lists must be the sessions loom_store_list_sessions() lists, in its order,
 * for every collection, order and filter: loom-store-session-ids.c writes its own query. */
static void
test_same_as_store (void)
{
  static const char *const titles[] = { "alpha", "Beta", "beta", "Gamma", "alpha" };
  static const char *const projects[] = { "gtk", "loom", NULL };
  g_autofree char         *dir = loom_test_make_tmpdir ();
  g_autofree char         *path = g_build_filename (dir, "history.db", NULL);
  g_autoptr (GString) sql = g_string_new ("BEGIN;");
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  gint64 now = g_get_real_time () / 1000;
  guint  n_compared = 0;

  store = loom_store_open (path, &error);
  g_assert_no_error (error);
  g_string_append (sql, "INSERT INTO projects (path, name) VALUES ('/src/gtk', 'gtk'),"
                        " ('/src/loom', 'loom');"
                        "INSERT INTO folders (name) VALUES ('Work'), ('Home');");
  for (guint i = 0; i < 300; i++)
    {
      /* Ties in every order, so that the tie-break (the row id) is compared too. */
      gint64 updated = now - (gint64)(i / 3) * 3 * 3600 * 1000;
      gint64 created = updated - (gint64)(i % 4) * 3600 * 1000;

      g_string_append_printf (sql,
                              "INSERT INTO sessions (uuid, title, source, project_id, folder_id,"
                              " created_at, updated_at, pinned, archived, trashed_at)"
                              " VALUES ('u%u', '%s %u', '%s', %s, %s, %" G_GINT64_FORMAT
                              ", %" G_GINT64_FORMAT ", %d, %d, %d);",
                              i, titles[i % G_N_ELEMENTS (titles)], i % 7, sources[i % 3],
                              projects[i % 3] == NULL ? "NULL"
                              : i % 3 == 0            ? "1"
                                                      : "2",
                              i % 5 == 0   ? "1"
                              : i % 5 == 1 ? "2"
                                           : "NULL",
                              created, updated, i % 4 == 0, i % 6 == 0, i % 9 == 0 ? 1 : 0);
    }
  g_string_append (sql, "COMMIT;");
  g_clear_object (&store);
  exec_raw (path, sql->str);
  store = loom_store_open (path, &error);
  g_assert_no_error (error);

  for (LoomCollection collection = LOOM_COLLECTION_ALL; collection <= LOOM_COLLECTION_EVERYTHING;
       collection++)
    for (LoomSort sort = LOOM_SORT_UPDATED; sort <= LOOM_SORT_TITLE; sort++)
      for (guint variant = 0; variant < 12; variant++)
        {
          LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
          g_autoptr (GListModel) sessions = NULL;
          g_autoptr (GArray) ids = NULL;
          guint n_sessions = 0;

          query.collection = collection;
          query.sort = sort;
          query.ascending = variant % 2;
          query.folder_id = variant / 2 == 1 ? 1 : 0;
          query.source = variant / 2 == 2 ? "codex" : NULL;
          query.project = variant / 2 == 3 ? "gtk" : variant / 2 == 4 ? "/src/loom" : NULL;
          if (variant / 2 == 5)
            {
              query.folder_id = 2;
              query.source = "gemini";
              query.project = "loom";
            }

          sessions = loom_store_list_sessions (store, &query, &error);
          g_assert_no_error (error);
          ids = loom_store_list_session_ids (store, &query, &error);
          g_assert_no_error (error);
          g_assert_true (loom_store_count_sessions (store, &query, &n_sessions, &error));
          g_assert_cmpuint (ids->len, ==, g_list_model_get_n_items (sessions));
          g_assert_cmpuint (ids->len, ==, n_sessions);
          for (guint i = 0; i < ids->len; i++)
            {
              g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);

              g_assert_cmpint (g_array_index (ids, gint64, i), ==, loom_session_get_id (session));
            }
          n_compared += ids->len;
        }
  /* Not a comparison of empty lists. */
  g_assert_cmpuint (n_compared, >, 5000);

  /* And the sessions read by id come in the order asked for, without the unknown ones. */
  {
    const gint64 ids[] = { 5, 3, 999, 4 };
    g_autoptr (GPtrArray)
      sessions = loom_store_load_sessions (store, ids, G_N_ELEMENTS (ids), &error);

    g_assert_no_error (error);
    g_assert_cmpuint (sessions->len, ==, 3);
    g_assert_cmpint (loom_session_get_id (sessions->pdata[0]), ==, 5);
    g_assert_cmpint (loom_session_get_id (sessions->pdata[1]), ==, 3);
    g_assert_cmpint (loom_session_get_id (sessions->pdata[2]), ==, 4);
    g_assert_cmpint (loom_store_find_session_id (store, "u4", &error), ==, 5);
    g_assert_cmpint (loom_store_find_session_id (store, "u", &error), ==, 0);
    g_assert_no_error (error);
  }

  g_clear_object (&store);
  loom_test_remove_tree (dir);
}

/* Sessions may outlive their model (the timeline holds one). */
static void
test_outlive (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomStore) store = loom_store_open (template_path, &error);
  LoomSessionListModel *model = loom_session_list_model_new (store, NULL);
  LoomSession          *session = g_list_model_get_item (G_LIST_MODEL (model), 42);

  g_assert_finalize_object (model);
  g_assert_finalize_object (session);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  build_template ();

  g_test_add ("/session-list-model/lazy", Fixture, NULL, fixture_set_up, test_lazy,
              fixture_tear_down);
  g_test_add ("/session-list-model/identity", Fixture, NULL, fixture_set_up, test_identity,
              fixture_tear_down);
  g_test_add ("/session-list-model/sort", Fixture, NULL, fixture_set_up, test_sort,
              fixture_tear_down);
  g_test_add ("/session-list-model/filter", Fixture, NULL, fixture_set_up, test_filter,
              fixture_tear_down);
  g_test_add ("/session-list-model/reload", Fixture, NULL, fixture_set_up, test_reload,
              fixture_tear_down);
  g_test_add ("/session-list-model/find-and-range", Fixture, NULL, fixture_set_up,
              test_find_and_range, fixture_tear_down);
  g_test_add_func ("/session-list-model/outlive", test_outlive);
  g_test_add_func ("/session-list-model/same-as-store", test_same_as_store);

  status = g_test_run ();

  loom_test_remove_tree (template_dir);
  g_free (template_path);
  g_free (template_dir);
  return status;
}
