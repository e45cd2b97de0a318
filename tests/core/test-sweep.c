/* test-sweep.c — the archive sweep on a real store made from the agents' fixtures.
 *
 * The fixtures' sessions are months old; one session is added as active now, one old session
 * is put in the trash and one archived. The sweep must list exactly the old, live, top-level
 * sessions, oldest first; archive each only with its backup recorded, the package on disk
 * importing into a fresh store as an archived session; keep going past a session it cannot
 * back up; stop when cancelled, keeping what it did; and, when its folder turns read-only
 * half-way, archive nothing it could not write and verify.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE /* memmem () */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "loom-backup.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-package-import.h"
#include "loom-store-backups.h"
#include "loom-sweep.h"
#include "loom-test-utils.h"
#include "loom-time.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)

typedef struct
{
  LoomTestStore base;
  char         *backups;  /* base.dir/backups */
  char         *recent;   /* the uuid of the session active now */
  char         *trashed;  /* an old session in the trash */
  char         *archived; /* an old session archived by hand */
  gint64        now;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char  *claude = loom_test_fixture_path ("claude", NULL);
  g_autofree char  *codex = loom_test_fixture_path ("codex", NULL);
  const char *const paths[] = { claude, codex, NULL };
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;

  loom_test_store_set_up (&f->base, data);
  loom_test_store_import_paths (&f->base, NULL, paths);
  f->now = loom_time_now_ms ();
  f->recent = loom_test_add_session (f->base.store, "Active today", "codex", "fresh", 4, 0, f->now);

  /* The oldest two top-level sessions, the one in the trash and the other archived. */
  sessions = loom_store_list_sweep_candidates (f->base.store, f->now - 30 * DAY_MS, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), >=, 6);
  {
    g_autoptr (LoomSession) first = g_list_model_get_item (sessions, 0);
    g_autoptr (LoomSession) second = g_list_model_get_item (sessions, 1);

    f->trashed = g_strdup (loom_session_get_uuid (first));
    f->archived = g_strdup (loom_session_get_uuid (second));
  }
  g_assert_true (loom_store_set_trashed (f->base.store, f->trashed, TRUE, &error));
  g_assert_no_error (error);
  g_assert_true (loom_store_set_archived (f->base.store, f->archived, TRUE, &error));
  g_assert_no_error (error);

  f->backups = g_build_filename (f->base.dir, "backups", NULL);
  g_assert_no_errno (g_mkdir (f->backups, 0700));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  /* A test that made the folder read-only gives it back, for the removal. */
  g_chmod (f->backups, 0700);
  g_free (f->backups);
  g_free (f->recent);
  g_free (f->trashed);
  g_free (f->archived);
  loom_test_store_tear_down (&f->base, data);
}

static GPtrArray *
find_eligible (Fixture *f,
               guint    days,
               gint64   now)
{
  g_autoptr (GError) error = NULL;
  GPtrArray *eligible = loom_sweep_find_eligible (f->base.store, days, now, &error);

  g_assert_no_error (error);
  g_assert_nonnull (eligible);
  return eligible;
}

static gboolean
has_candidate (GPtrArray  *eligible,
               const char *uuid)
{
  for (guint i = 0; i < eligible->len; i++)
    if (g_str_equal (((LoomSweepCandidate *)g_ptr_array_index (eligible, i))->session_id, uuid))
      return TRUE;
  return FALSE;
}

/* The ids of @eligible, NULL-terminated, for loom_sweep_run (). */
static GStrv
candidate_ids (GPtrArray *eligible)
{
  GStrv ids = g_new0 (char *, eligible->len + 1);

  for (guint i = 0; i < eligible->len; i++)
    ids[i] = g_strdup (((LoomSweepCandidate *)g_ptr_array_index (eligible, i))->session_id);
  return ids;
}

static LoomSession *
reload (Fixture    *f,
        const char *uuid)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session = loom_store_get_session (f->base.store, uuid, &error);

  g_assert_no_error (error);
  return session;
}

/* The package at @path imports into a store of its own (which verifies every file against
 * the manifest) and brings @uuid back, archived when @archived. */
static void
assert_package_restores (const char *path,
                         const char *uuid,
                         gboolean    archived)
{
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) fresh = loom_test_new_store (&dir, &db);
  g_autoptr (LoomPackageImportResult) result = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (loom_import_package (fresh, path, &result, NULL, &error));
  g_assert_no_error (error);
  session = loom_store_get_session (fresh, uuid, &error);
  g_assert_no_error (error);
  g_assert_cmpint (loom_session_get_archived (session), ==, archived);
  g_clear_object (&session);
  g_clear_pointer (&result, loom_package_import_result_free);
  g_assert_finalize_object (g_steal_pointer (&fresh));
  loom_test_remove_tree (dir);
}

/* Every session the store says is archived with a backup has its package on disk, and it
 * verifies; every one left unarchived has no backup recorded. */
static void
assert_archived_have_backups (Fixture   *f,
                              GPtrArray *ids)
{
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (LoomSession) session = reload (f, g_ptr_array_index (ids, i));
      const char *path = loom_session_get_backup_path (session);

      if (!loom_session_get_archived (session))
        {
          g_assert_null (path);
          continue;
        }
      g_assert_nonnull (path);
      g_assert_cmpint (loom_session_get_backup_at (session), >, 0);
      g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
      /* A sub-agent, archived with its session, is in its session's package, which records
       * both as archived (LoomExportOptions.as_archived), as the store has them now. */
      assert_package_restores (path, loom_session_get_uuid (session), TRUE);
    }
}

static void
test_eligible (Fixture      *f,
               gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_autoptr (GPtrArray) later = NULL;
  g_autoptr (GListModel) all = NULL;
  g_autoptr (GError) error = NULL;
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  guint            n_expected = 0, n_subagents = 0;
  gint64           previous = 0;

  /* What the sweep must take, worked out from the sessions one by one. */
  query.collection = LOOM_COLLECTION_EVERYTHING;
  all = loom_store_list_sessions (f->base.store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (all, i);
      const LoomSessionRecord *r = loom_session_get_record (session);
      gboolean expected = !r->archived && r->trashed_at == 0 && r->parent_uuid == NULL &&
                          r->updated_at < f->now - 30 * DAY_MS;

      n_subagents += r->parent_uuid != NULL;
      n_expected += expected;
      g_assert_cmpint (has_candidate (eligible, r->uuid), ==, expected);
    }
  /* The fixtures hold sub-agents, for their exclusion to mean something. */
  g_assert_cmpuint (n_subagents, >, 0);
  g_assert_cmpuint (eligible->len, ==, n_expected);
  g_assert_false (has_candidate (eligible, f->recent));
  g_assert_false (has_candidate (eligible, f->trashed));
  g_assert_false (has_candidate (eligible, f->archived));

  /* Oldest first, with what the list shows. */
  for (guint i = 0; i < eligible->len; i++)
    {
      const LoomSweepCandidate *candidate = g_ptr_array_index (eligible, i);
      g_autoptr (LoomSession) session = reload (f, candidate->session_id);

      g_assert_cmpint (candidate->last_active, >=, previous);
      previous = candidate->last_active;
      g_assert_cmpint (candidate->last_active, ==, loom_session_get_updated_at (session));
      g_assert_cmpstr (candidate->title, ==, loom_session_get_title (session));
      g_assert_cmpuint (candidate->message_count, ==,
                        (guint64)loom_session_get_message_count (session));
      g_assert_cmpstr (candidate->model, ==, loom_session_get_model (session));
    }

  /* Forty days on, the session active today is old enough too; a threshold longer than the
   * store's history finds nothing. */
  later = find_eligible (f, 30, f->now + 40 * DAY_MS);
  g_assert_true (has_candidate (later, f->recent));
  g_assert_cmpuint (later->len, ==, eligible->len + 1);
  g_clear_pointer (&later, g_ptr_array_unref);
  later = find_eligible (f, 36500, f->now);
  g_assert_cmpuint (later->len, ==, 0);
}

static void
record_step (const LoomSweepProgress *progress,
             gpointer                 user_data)
{
  GString *steps = user_data;

  /* The package's own steps come as "backup" with their name; one line per sweep step. */
  if (progress->export_step == NULL)
    g_string_append_printf (steps, "%u/%u %s\n", progress->index, progress->total, progress->step);
}

static void
test_round_trip (Fixture      *f,
                 gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (GPtrArray) all_ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) again = NULL;
  g_autoptr (GString) steps = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GListModel) all = NULL;
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  guint            n_with_backup = 0;

  result = loom_sweep_run (f->base.store, (const char *const *)ids, f->backups, NULL, record_step,
                           steps, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_false (result->cancelled);
  g_assert_cmpuint (result->failed->len, ==, 0);
  g_assert_cmpuint (result->archived->len, ==, eligible->len);
  g_assert_cmpuint (result->packages->len, ==, eligible->len);
  g_assert_cmpuint (result->titles->len, ==, eligible->len);
  g_assert_nonnull (strstr (steps->str, "0/"));
  g_assert_nonnull (strstr (steps->str, " archive\n"));

  for (guint i = 0; i < eligible->len; i++)
    {
      const LoomSweepCandidate *candidate = g_ptr_array_index (eligible, i);
      g_autoptr (LoomSession) session = reload (f, candidate->session_id);
      const char      *package = g_ptr_array_index (result->packages, i);
      g_autofree char *parent = g_path_get_dirname (package);

      g_assert_cmpstr (g_ptr_array_index (result->archived, i), ==, candidate->session_id);
      g_assert_cmpstr (g_ptr_array_index (result->titles, i), ==, candidate->title);
      g_assert_cmpstr (parent, ==, f->backups);
      g_assert_true (loom_session_get_archived (session));
      g_assert_cmpstr (loom_session_get_backup_path (session), ==, package);
      assert_package_restores (package, candidate->session_id, TRUE);
    }

  /* The session active today, the trashed one and the one archived by hand were not touched;
   * the sub-agents went with their sessions, each with its package's path. */
  {
    g_autoptr (LoomSession) recent = reload (f, f->recent);
    g_autoptr (LoomSession) trashed = reload (f, f->trashed);
    g_autoptr (LoomSession) archived = reload (f, f->archived);

    g_assert_false (loom_session_get_archived (recent));
    g_assert_false (loom_session_get_archived (trashed));
    g_assert_null (loom_session_get_backup_path (recent));
    g_assert_null (loom_session_get_backup_path (trashed));
    g_assert_null (loom_session_get_backup_path (archived));
  }
  query.collection = LOOM_COLLECTION_EVERYTHING;
  all = loom_store_list_sessions (f->base.store, &query, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (all, i);
      const LoomSessionRecord *r = loom_session_get_record (session);

      /* Archived by hand, without a backup: not the sweep's. */
      if (!g_str_equal (r->uuid, f->archived))
        g_ptr_array_add (all_ids, g_strdup (r->uuid));
      if (r->parent_uuid != NULL && r->trashed_at == 0 && r->updated_at < f->now - 30 * DAY_MS)
        {
          g_autoptr (LoomSession) parent = reload (f, r->parent_uuid);

          g_assert_cmpint (r->archived, ==, loom_session_get_archived (parent));
          g_assert_cmpstr (r->backup_path, ==, loom_session_get_backup_path (parent));
        }
      n_with_backup += r->backup_path != NULL;
    }
  g_assert_cmpint (loom_test_count_rows (f->base.db, "backups"), ==, n_with_backup);
  assert_archived_have_backups (f, all_ids);

  /* Swept, they are no longer eligible. */
  again = find_eligible (f, 30, f->now);
  g_assert_cmpuint (again->len, ==, 0);
}

/* A session that cannot be backed up is reported and skipped; the others are archived. */
static void
test_failure_skipped (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  const LoomSweepCandidate *first = g_ptr_array_index (eligible, 0);
  const LoomSweepCandidate *second = g_ptr_array_index (eligible, 1);
  const char *const ids[] = { first->session_id, "ffffffff-0000", second->session_id, NULL };
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (GError) error = NULL;
  const LoomSweepFailure *failure;

  result = loom_sweep_run (f->base.store, ids, f->backups, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->archived->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (result->archived, 0), ==, first->session_id);
  g_assert_cmpstr (g_ptr_array_index (result->archived, 1), ==, second->session_id);
  g_assert_cmpuint (result->failed->len, ==, 1);
  failure = g_ptr_array_index (result->failed, 0);
  g_assert_cmpstr (failure->session_id, ==, "ffffffff-0000");
  g_assert_error (failure->error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
}

/* A destination that is not a folder of its own is refused before anything is done. */
static void
test_bad_destination (Fixture      *f,
                      gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autofree char *link = g_build_filename (f->base.dir, "link", NULL);
  g_autofree char *missing = g_build_filename (f->base.dir, "missing", NULL);
  g_autofree char *tree = NULL;
  g_autoptr (GPtrArray) after = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (symlink (f->backups, link));
  g_assert_null (
    loom_sweep_run (f->base.store, (const char *const *)ids, link, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (loom_sweep_run (f->base.store, (const char *const *)ids, missing, NULL, NULL, NULL,
                                 NULL, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_IO);

  tree = loom_test_list_tree (f->backups, FALSE);
  g_assert_cmpstr (tree, ==, "");
  after = find_eligible (f, 30, f->now);
  g_assert_cmpuint (after->len, ==, eligible->len);
}

typedef struct
{
  GCancellable *cancellable;
  guint         at_index;
} CancelAt;

static void
cancel_at (const LoomSweepProgress *progress,
           gpointer                 user_data)
{
  CancelAt *cancel = user_data;

  if (progress->index == cancel->at_index && g_strcmp0 (progress->step, "archive") == 0)
    g_cancellable_cancel (cancel->cancellable);
}

/* Cancelled during the second session: it is finished, the rest left as they were. */
static void
test_cancel (Fixture      *f,
             gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (GPtrArray) left = NULL;
  g_autoptr (GError) error = NULL;
  CancelAt cancel = { cancellable, 1 };

  result = loom_sweep_run (f->base.store, (const char *const *)ids, f->backups, NULL, cancel_at,
                           &cancel, cancellable, &error);
  g_assert_no_error (error);
  g_assert_true (result->cancelled);
  g_assert_cmpuint (result->archived->len, ==, 2);
  g_assert_cmpuint (result->failed->len, ==, 0);
  left = find_eligible (f, 30, f->now);
  g_assert_cmpuint (left->len, ==, eligible->len - 2);
  g_assert_true (has_candidate (left, ids[2]));
}

static void
cancel_in_backup (const LoomSweepProgress *progress,
                  gpointer                 user_data)
{
  CancelAt *cancel = user_data;

  if (progress->index == cancel->at_index && progress->export_step != NULL)
    g_cancellable_cancel (cancel->cancellable);
}

/* Cancelled while the second session's package is being written: that package goes, the
 * session stays as it was, the first one stays archived. */
static void
test_cancel_in_backup (Fixture      *f,
                       gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (LoomSession) second = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *tree = NULL;
  g_autofree char *first_name = NULL;
  CancelAt         cancel = { cancellable, 1 };

  result = loom_sweep_run (f->base.store, (const char *const *)ids, f->backups, NULL,
                           cancel_in_backup, &cancel, cancellable, &error);
  g_assert_no_error (error);
  g_assert_true (result->cancelled);
  g_assert_cmpuint (result->archived->len, ==, 1);
  g_assert_cmpuint (result->failed->len, ==, 0);
  second = reload (f, ids[1]);
  g_assert_false (loom_session_get_archived (second));
  g_assert_null (loom_session_get_backup_path (second));

  first_name = g_path_get_basename (g_ptr_array_index (result->packages, 0));
  tree = loom_test_list_tree (f->backups, FALSE);
  {
    g_auto (GStrv) lines = g_strsplit (tree, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (*lines[i] != '\0')
        g_assert_true (g_str_has_prefix (lines[i], first_name));
  }
}

typedef struct
{
  LoomSweepResult *result;
  gpointer         task; /* a weak pointer: the worker drops its reference after the callback */
} AsyncSweep;

static void
sweep_done (GObject      *source,
            GAsyncResult *res,
            gpointer      user_data)
{
  AsyncSweep *state = user_data;
  g_autoptr (GError) error = NULL;

  state->result = loom_sweep_run_finish (LOOM_STORE (source), res, &error);
  g_assert_no_error (error);
  state->task = res;
  g_object_add_weak_pointer (G_OBJECT (res), &state->task);
}

/* In a thread on a connection of its own; the caller's sees the archive after. */
static void
test_async (Fixture      *f,
            gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autoptr (GPtrArray) left = NULL;
  AsyncSweep state = { NULL, NULL };

  loom_sweep_run_async (f->base.store, (const char *const *)ids, f->backups, NULL, NULL, NULL, NULL,
                        sweep_done, &state);
  while (state.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (state.result->archived->len, ==, eligible->len);
  left = find_eligible (f, 30, f->now);
  g_assert_cmpuint (left->len, ==, 0);

  /* The task, and the store it holds, go once the worker is done with it. */
  while (g_atomic_pointer_get (&state.task) != NULL)
    {
      g_main_context_iteration (NULL, FALSE);
      g_thread_yield ();
    }
  loom_sweep_result_free (state.result);
}

/* A session's backups go with it when it is deleted for good. */
static void
test_backups_deleted_with_session (Fixture      *f,
                                   gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  const LoomSweepCandidate *first = g_ptr_array_index (eligible, 0);
  const char *const         ids[] = { first->session_id, NULL };
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  gint64 n_rows;

  result = loom_sweep_run (f->base.store, ids, f->backups, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->archived->len, ==, 1);
  n_rows = loom_test_count_rows (f->base.db, "backups");
  g_assert_cmpint (n_rows, >=, 1);

  plan = loom_store_plan_delete (f->base.store, ids, &error);
  g_assert_no_error (error);
  g_assert_true (loom_store_execute_delete (f->base.store, plan, &error));
  g_assert_no_error (error);
  g_assert_cmpint (loom_test_count_rows (f->base.db, "backups"), ==, 0);
}

/* Encrypted with a key: each backup is one <uuid>.loombackup, which shows neither the title
 * nor a file name, and restores with the key alone into a fresh store, archived. */
static void
test_encrypted (Fixture      *f,
                gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (LoomRestoreResult) restored = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) fresh = NULL;
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;
  const char *const  paths[] = { f->backups, NULL };

  result = loom_sweep_run (f->base.store, (const char *const *)ids, f->backups, key, NULL, NULL,
                           NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (result->failed->len, ==, 0);
  g_assert_cmpuint (result->archived->len, ==, eligible->len);
  for (guint i = 0; i < eligible->len; i++)
    {
      const LoomSweepCandidate *candidate = g_ptr_array_index (eligible, i);
      const char               *package = g_ptr_array_index (result->packages, i);
      g_autofree char          *name = g_path_get_basename (package);
      g_autofree char *expected = g_strconcat (candidate->session_id, LOOM_BACKUP_SUFFIX, NULL);
      g_autofree char *contents = NULL;
      g_autoptr (LoomSession) session = reload (f, candidate->session_id);
      gsize length = 0;

      g_assert_cmpstr (name, ==, expected);
      g_assert_cmpstr (loom_session_get_backup_path (session), ==, package);
      g_assert_true (loom_session_get_archived (session));
      g_assert_true (g_file_get_contents (package, &contents, &length, &error));
      g_assert_no_error (error);
      /* The title, and the package's file names, are not in the clear. */
      g_assert_null (memmem (contents, length, "manifest.json", strlen ("manifest.json")));
      g_assert_null (memmem (contents, length, candidate->title, strlen (candidate->title)));
    }
  /* Nothing in the clear beside them, not even a staging folder. */
  {
    g_autoptr (GDir) folder = g_dir_open (f->backups, 0, NULL);
    const char *entry;
    guint       n = 0;

    while ((entry = g_dir_read_name (folder)) != NULL)
      {
        g_assert_true (g_str_has_suffix (entry, LOOM_BACKUP_SUFFIX));
        n++;
      }
    g_assert_cmpuint (n, ==, eligible->len);
  }

  /* A new machine: the key, as its recovery key gives it, and the folder. */
  fresh = loom_test_new_store (&dir, &db);
  options.recovery_key = key;
  restored = loom_restore (fresh, paths, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (restored->failed->len, ==, 0);
  g_assert_cmpuint (restored->restored->len, ==, eligible->len);
  for (guint i = 0; i < eligible->len; i++)
    {
      const LoomSweepCandidate *candidate = g_ptr_array_index (eligible, i);
      g_autoptr (LoomSession)
        session = loom_store_get_session (fresh, candidate->session_id, &error);

      g_assert_no_error (error);
      g_assert_true (loom_session_get_archived (session));
      g_assert_cmpint (loom_session_get_message_count (session), ==,
                       (gint64)candidate->message_count);
    }
  g_clear_pointer (&restored, loom_restore_result_free);
  g_assert_finalize_object (g_steal_pointer (&fresh));
  loom_test_remove_tree (dir);
}

/* How the folder is made read-only for real: without write permission, or for root (whom
 * permissions do not stop) the immutable flag, where the file system has one. */
static gboolean
make_read_only (const char *path,
                gboolean    read_only)
{
  int      fd, flags = 0;
  gboolean ok;

  if (geteuid () != 0)
    return g_chmod (path, read_only ? 0500 : 0700) == 0;

  if ((fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return FALSE;
  ok = ioctl (fd, FS_IOC_GETFLAGS, &flags) == 0;
  if (ok)
    {
      flags = read_only ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
      ok = ioctl (fd, FS_IOC_SETFLAGS, &flags) == 0;
    }
  close (fd);
  return ok;
}

typedef struct
{
  const char *folder;
  gboolean    made;
} ReadOnlyAt;

static void
read_only_at_second (const LoomSweepProgress *progress,
                     gpointer                 user_data)
{
  ReadOnlyAt *at = user_data;

  if (progress->index == 1 && !at->made)
    at->made = make_read_only (at->folder, TRUE);
}

/* The folder turns read-only after the first backup: every later session is reported and
 * left unarchived, and nothing of theirs is in the folder. */
static void
test_read_only_half_way (Fixture      *f,
                         gconstpointer data)
{
  g_autoptr (GPtrArray) eligible = find_eligible (f, 30, f->now);
  g_auto (GStrv) ids = candidate_ids (eligible);
  g_autoptr (LoomSweepResult) result = NULL;
  g_autoptr (GPtrArray) all_ids = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *tree = NULL;
  g_autofree char *first_name = NULL;
  ReadOnlyAt       at = { f->backups, FALSE };

  if (!make_read_only (f->backups, TRUE))
    {
      g_test_skip ("Running as root on a file system without the immutable flag: nothing "
                   "really makes the backup folder read-only here");
      return;
    }
  g_assert_true (make_read_only (f->backups, FALSE));

  result = loom_sweep_run (f->base.store, (const char *const *)ids, f->backups, NULL,
                           read_only_at_second, &at, NULL, &error);
  g_assert_true (make_read_only (f->backups, FALSE));
  g_assert_no_error (error);
  g_assert_true (at.made);

  g_assert_cmpuint (result->archived->len, ==, 1);
  g_assert_cmpuint (result->failed->len, ==, eligible->len - 1);
  for (guint i = 0; i < result->failed->len; i++)
    {
      const LoomSweepFailure *failure = g_ptr_array_index (result->failed, i);

      g_test_message ("%s: %s", failure->session_id, failure->error->message);
      g_assert_cmpstr (failure->session_id, ==, ids[i + 1]);
      g_assert_nonnull (failure->error);
    }

  /* The folder holds the first package and nothing else, not even a temporary name. */
  first_name = g_path_get_basename (g_ptr_array_index (result->packages, 0));
  tree = loom_test_list_tree (f->backups, FALSE);
  g_assert_true (g_str_has_prefix (tree, first_name));
  {
    g_auto (GStrv) lines = g_strsplit (tree, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (*lines[i] != '\0')
        g_assert_true (g_str_has_prefix (lines[i], first_name));
  }

  for (guint i = 0; ids[i] != NULL; i++)
    g_ptr_array_add (all_ids, ids[i]);
  assert_archived_have_backups (f, all_ids);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/sweep/eligible", test_eligible);
  ADD ("/sweep/round-trip", test_round_trip);
  ADD ("/sweep/failure-skipped", test_failure_skipped);
  ADD ("/sweep/bad-destination", test_bad_destination);
  ADD ("/sweep/cancel", test_cancel);
  ADD ("/sweep/cancel-in-backup", test_cancel_in_backup);
  ADD ("/sweep/async", test_async);
  ADD ("/sweep/backups-deleted-with-session", test_backups_deleted_with_session);
  ADD ("/sweep/read-only-half-way", test_read_only_half_way);
  ADD ("/sweep/encrypted", test_encrypted);
#undef ADD

  return g_test_run ();
}
