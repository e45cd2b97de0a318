/* test-timeline-model.c — the lazy timeline model on imported sessions, short and very long.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-core.h"
#include "loom-error.h"
#include "loom-import.h"
#include "loom-importer.h"
#include "loom-store-timeline-pages.h"
#include "loom-test-timeline.h"
#include "loom-test-utils.h"
#include "loom-timeline-model.h"

typedef struct
{
  char      *dir;
  LoomStore *store;
} Fixture;

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autofree char *db_path = NULL;
  g_autoptr (GError) error = NULL;

  fixture->dir = loom_test_make_tmpdir ();
  db_path = g_build_filename (fixture->dir, "history.db", NULL);
  fixture->store = loom_store_open (db_path, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  g_assert_finalize_object (g_steal_pointer (&fixture->store));
  loom_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
}

static void
import_fixture (Fixture    *fixture,
                const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "import", "fixtures",
                                            "claude", name, NULL);
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;
  const char       *paths[] = { path, NULL };
  LoomImportOptions options = { "claude-code", paths };

  g_assert_true (loom_import_run (fixture->store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->files_failed, ==, 0);
}

static LoomTimelineModel *
open_model (Fixture    *fixture,
            const char *id)
{
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  LoomTimelineModel *model;

  session = loom_store_get_session (fixture->store, id, &error);
  g_assert_no_error (error);
  model = loom_timeline_model_new (fixture->store, loom_session_get_id (session), &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static const LoomTimelineData *
data_at (LoomTimelineModel *model,
         guint              position)
{
  g_autoptr (LoomTimelineItem) item = g_list_model_get_item (G_LIST_MODEL (model), position);

  g_assert_nonnull (item);
  /* The model holds the page, so the data outlives this reference. */
  return loom_timeline_item_get_data (item);
}

static LoomTimelineItem *
item_at (LoomTimelineModel *model,
         guint              position)
{
  g_autoptr (LoomTimelineItem) item = g_list_model_get_item (G_LIST_MODEL (model), position);

  return item;
}

/* streamed-tool-error: 17 stored items, of which the list shows 11. */
static void
test_streamed_tool_error (Fixture      *fixture,
                          gconstpointer user_data)
{
  g_autoptr (LoomTimelineModel) model = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char        *payload = NULL;
  const LoomTimelineData *d;
  LoomTimelineItem       *result;

  import_fixture (fixture, "streamed-tool-error");
  model = open_model (fixture, "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47");

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == LOOM_TYPE_TIMELINE_ITEM);
  /* Left out: the two assistant turns without text and the four results. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 11);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 11));

  d = data_at (model, 0);
  g_assert_true (d->is_message);
  g_assert_cmpstr (d->role, ==, "user");
  g_assert_cmpstr (d->text, ==, "Run the test suite and fix what fails");

  d = data_at (model, 1);
  g_assert_cmpstr (d->role, ==, "assistant");
  g_assert_cmpstr (d->text, ==, "Running the suite.");
  g_assert_cmpstr (data_at (model, 2)->kind, ==, "reasoning");

  /* The failing Bash call comes with its result. */
  d = data_at (model, 3);
  g_assert_false (d->is_message);
  g_assert_cmpstr (d->kind, ==, "tool_call");
  g_assert_cmpstr (d->tool_name, ==, "Bash");
  result = loom_timeline_model_item_get_result (item_at (model, 3));
  g_assert_nonnull (result);
  g_assert_cmpstr (loom_timeline_item_get_data (result)->kind, ==, "tool_result");
  g_assert_true (loom_timeline_item_get_data (result)->is_error);
  g_assert_nonnull (strstr (loom_timeline_item_get_data (result)->text, "FAIL"));

  /* The whole input, read on demand. */
  payload = loom_store_get_event_payload (fixture->store, d->id, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (payload, "--print-errorlogs"));
  g_clear_pointer (&payload, g_free);
  g_assert_null (loom_store_get_event_payload (fixture->store, 999999, &error));
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* The notice after the rejected call is flagged, and the session ends with the reply. */
  d = data_at (model, 7);
  g_assert_true (d->is_message);
  g_assert_cmpuint (d->flags & LOOM_MESSAGE_INJECTED, !=, 0);
  g_assert_cmpstr (data_at (model, 10)->text, ==, "All green now.");

  /* Seq lookups land on the item or on the last shown one before it. */
  g_assert_cmpuint (loom_timeline_model_find_seq (model, data_at (model, 3)->seq), ==, 3);
  g_assert_cmpuint (loom_timeline_model_find_seq (model, data_at (model, 3)->seq + 1), ==, 3);
  g_assert_cmpuint (loom_timeline_model_find_seq (model, 0), ==, 0);
  g_assert_cmpuint (loom_timeline_model_find_seq (model, G_MAXINT64), ==, 10);
}

/* v2.1-progress: sub-agents lead to their sessions; the compaction and the API errors show. */
static void
test_subagents (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (LoomTimelineModel) model = NULL;
  g_autoptr (GListModel) children = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) child_uuids = g_ptr_array_new ();
  guint n_items, n_subagents = 0, n_compactions = 0, n_api_errors = 0, n_tool_calls = 0;

  import_fixture (fixture, "v2.1-progress");
  model = open_model (fixture, "4b8d2e6f-1a3c-4f57-8e9b-2c6d0a4f8e31");

  children = loom_store_list_child_sessions (fixture->store, "4b8d2e6f-1a3c-4f57-8e9b-2c6d0a4f8e31",
                                             &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (children), ==, 2);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
  for (guint i = 0; i < n_items; i++)
    {
      LoomTimelineItem       *item = item_at (model, i);
      const LoomTimelineData *d = loom_timeline_item_get_data (item);

      if (d->is_message)
        continue;
      if (g_str_equal (d->kind, "subagent"))
        {
          const char *uuid = loom_timeline_model_item_get_child_uuid (item);

          n_subagents++;
          g_assert_nonnull (uuid);
          g_ptr_array_add (child_uuids, (gpointer)uuid);
          /* The agent's report is the result of the call the start stands for. */
          g_assert_nonnull (loom_timeline_model_item_get_result (item));
        }
      n_compactions += g_str_equal (d->kind, "compaction");
      n_api_errors += g_str_equal (d->kind, "api_error");
      n_tool_calls += g_str_equal (d->kind, "tool_call");
      g_assert_false (g_str_equal (d->kind, "tool_result"));
    }
  g_assert_cmpuint (n_subagents, ==, 2);
  g_assert_cmpuint (n_compactions, ==, 1);
  g_assert_cmpuint (n_api_errors, ==, 2);
  /* The two Task calls are shown by their sub-agent starts; the Bash call stays. */
  g_assert_cmpuint (n_tool_calls, ==, 1);

  /* Each start leads to a different child, and both are the session's children. */
  g_assert_cmpstr (child_uuids->pdata[0], !=, child_uuids->pdata[1]);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (LoomSession) child = g_list_model_get_item (children, i);

      g_assert_true (g_str_equal (loom_session_get_uuid (child), child_uuids->pdata[0]) ||
                     g_str_equal (loom_session_get_uuid (child), child_uuids->pdata[1]));
    }
}

/* v1.0 finds its sidechain by the prompt, v2.0 its agent file by the agent id. */
static void
test_subagent_generations (Fixture      *fixture,
                           gconstpointer user_data)
{
  static const struct
  {
    const char *fixture;
    const char *session;
    const char *child_source_id;
  } cases[] = {
    { "v1.0-inline-sidechain", "6f2c1a9e-3b7d-4e21-9c55-0a8d2f4e7b13",
      "6f2c1a9e-3b7d-4e21-9c55-0a8d2f4e7b13/sidechain-9e6c3a8d-4f1b-4d72-a3e9-5c2b8f6d1a34" },
    { "v2.0-agent-files", "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80",
      "1c9e5b7a-8d2f-4a63-b0e4-5f7a9c2d1e80/agent-a3f9c2d1" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (LoomTimelineModel) model = NULL;
      g_autoptr (LoomSession) child = NULL;
      g_autoptr (GError) error = NULL;
      guint n_items, n_found = 0, n_file_changes = 0;

      import_fixture (fixture, cases[c].fixture);
      model = open_model (fixture, cases[c].session);
      child = loom_store_get_session (fixture->store, cases[c].child_source_id, &error);
      g_assert_no_error (error);

      n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
      for (guint i = 0; i < n_items; i++)
        {
          LoomTimelineItem       *item = item_at (model, i);
          const LoomTimelineData *d = loom_timeline_item_get_data (item);

          if (!d->is_message && g_str_equal (d->kind, "subagent"))
            {
              g_assert_cmpstr (loom_timeline_model_item_get_child_uuid (item), ==,
                               loom_session_get_uuid (child));
              n_found++;
            }
          if (!d->is_message && g_str_equal (d->kind, "file_change"))
            {
              /* The edit shows once, as a file change with the call's result. */
              g_assert_nonnull (d->path);
              g_assert_nonnull (loom_timeline_model_item_get_result (item));
              n_file_changes++;
            }
        }
      g_assert_cmpuint (n_found, ==, 1);
      g_assert_cmpuint (n_file_changes, ==, 1);
    }
}

static void
on_items_changed_cb (GListModel *model,
                     guint       position,
                     guint       removed,
                     guint       added,
                     guint      *changes)
{
  changes[0] = position;
  changes[1] = removed;
  changes[2] = added;
  changes[3]++;
}

static void
import_dir (Fixture    *fixture,
            const char *dir)
{
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GError) error = NULL;
  const char       *paths[] = { dir, NULL };
  LoomImportOptions options = { "claude-code", paths };

  g_assert_true (loom_import_run (fixture->store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->files_failed, ==, 0);
}

/* A session that grows while shown: the model reads it again and says what changed. */
static void
test_reload (Fixture      *fixture,
             gconstpointer user_data)
{
  g_autofree char *source = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "import", "fixtures",
                                              "claude", "streamed-tool-error", "-home-ada-src-loom",
                                              "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47.jsonl", NULL);
  g_autofree char *agent_dir = g_build_filename (fixture->dir, "agent", NULL);
  g_autofree char *project = g_build_filename (agent_dir, "-home-ada-src-loom", NULL);
  g_autofree char *copy = g_build_filename (project, "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47.jsonl",
                                            NULL);
  g_autoptr (LoomTimelineModel) model = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  guint            changes[4] = { 0 };
  const char      *end = NULL;
  gsize            length = 0;

  g_assert_true (g_file_get_contents (source, &contents, &length, &error));
  g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);

  /* The first four records: the prompt, the streamed reply and the Bash call, no result yet. */
  end = contents;
  for (guint i = 0; i < 4; i++)
    end = strchr (end, '\n') + 1;
  g_assert_true (g_file_set_contents (copy, contents, end - contents, &error));
  g_assert_no_error (error);
  import_dir (fixture, agent_dir);

  model = open_model (fixture, "2d7f4a9c-6e1b-4c38-9f25-8a0e3b6d1c47");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  g_assert_cmpstr (data_at (model, 3)->kind, ==, "tool_call");
  g_assert_null (loom_timeline_model_item_get_result (item_at (model, 3)));

  /* Nothing changed: only the last page is offered again. */
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed_cb), changes);
  g_assert_true (loom_timeline_model_reload (model, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes[3], ==, 1);
  g_assert_cmpuint (changes[1], ==, changes[2]);

  /* The rest arrives. */
  g_assert_true (g_file_set_contents (copy, contents, length, &error));
  import_dir (fixture, agent_dir);
  g_assert_true (loom_timeline_model_reload (model, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changes[3], ==, 2);
  g_assert_cmpuint (changes[0] + changes[2], ==, 11);
  g_assert_cmpuint (changes[0] + changes[1], ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 11);
  g_assert_nonnull (loom_timeline_model_item_get_result (item_at (model, 3)));
  g_assert_cmpstr (data_at (model, 10)->text, ==, "All green now.");
}

/* 20,000 shown items: opening reads one page, reading reads only what is asked for, and a
 * scroll through all of them keeps a bounded number of pages. How long opening takes is the
 * benchmark's (bench/loom-bench-window: "long session, core model + 50 items"), against the
 * target of 150 ms for showing the session. */
static void
test_long_session (Fixture      *fixture,
                   gconstpointer user_data)
{
  const guint      n_turns = 5000;
  g_autofree char *agent_dir = g_build_filename (fixture->dir, "claude", NULL);
  g_autofree char *uuid = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  uuid = loom_test_import_long_session (fixture->store, agent_dir, n_turns);
  session = loom_store_get_session (fixture->store, uuid, &error);
  g_assert_no_error (error);

  /* Opened twice: the second time from a warm page cache, the same pages read. */
  for (guint run = 0; run < 2; run++)
    {
      g_autoptr (LoomTimelineModel) model = NULL;
      g_autoptr (LoomTimelineItem) first = NULL;
      g_autoptr (LoomTimelineItem) last = NULL;
      guint n_items;

      model = loom_timeline_model_new (fixture->store, loom_session_get_id (session), &error);
      g_assert_no_error (error);
      /* Opening reads no page at all: the count comes from the keys alone. */
      g_assert_cmpuint (loom_timeline_model_get_n_loaded_pages (model), ==, 0);
      n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
      /* What a first frame needs: the first page. */
      first = g_list_model_get_item (G_LIST_MODEL (model), 0);

      g_assert_cmpuint (n_items, ==, n_turns * LOOM_TEST_LONG_ITEMS_PER_TURN);
      g_assert_cmpuint (loom_timeline_model_get_n_loaded_pages (model), ==, 1);
      g_assert_cmpstr (loom_timeline_item_get_data (first)->role, ==, "user");

      last = g_list_model_get_item (G_LIST_MODEL (model), n_items - 1);
      g_assert_cmpstr (loom_timeline_item_get_data (last)->kind, ==, "tool_call");
      g_assert_nonnull (loom_timeline_model_item_get_result (last));
      g_assert_cmpuint (loom_timeline_model_get_n_loaded_pages (model), ==, 2);

      /* Scrolling through the whole session keeps only a bounded number of pages. */
      if (run == 0)
        {
          for (guint i = 0; i < n_items; i++)
            {
              g_autoptr (LoomTimelineItem) item = g_list_model_get_item (G_LIST_MODEL (model), i);
              const LoomTimelineData *d = loom_timeline_item_get_data (item);

              switch (i % LOOM_TEST_LONG_ITEMS_PER_TURN)
                {
                case 0:
                  g_assert_cmpstr (d->role, ==, "user");
                  break;
                case 1:
                  g_assert_cmpstr (d->role, ==, "assistant");
                  break;
                case 2:
                  g_assert_cmpstr (d->kind, ==, "reasoning");
                  break;
                default:
                  g_assert_true (g_str_equal (d->kind, "tool_call") ||
                                 g_str_equal (d->kind, "file_change"));
                  g_assert_nonnull (loom_timeline_model_item_get_result (item));
                  break;
                }
            }
          g_assert_cmpuint (loom_timeline_model_get_n_loaded_pages (model), <=, 32);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

  g_test_add ("/timeline-model/streamed-tool-error", Fixture, NULL, fixture_set_up,
              test_streamed_tool_error, fixture_tear_down);
  g_test_add ("/timeline-model/subagents", Fixture, NULL, fixture_set_up, test_subagents,
              fixture_tear_down);
  g_test_add ("/timeline-model/subagent-generations", Fixture, NULL, fixture_set_up,
              test_subagent_generations, fixture_tear_down);
  g_test_add ("/timeline-model/reload", Fixture, NULL, fixture_set_up, test_reload,
              fixture_tear_down);
  g_test_add ("/timeline-model/long-session", Fixture, NULL, fixture_set_up, test_long_session,
              fixture_tear_down);

  return g_test_run ();
}
