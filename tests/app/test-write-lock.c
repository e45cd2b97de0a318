/* test-write-lock.c — the window keeps drawing while another connection holds the store's
 * write lock, and what it was asked to write lands once the lock is released.
 *
 * An import writes in long transactions on a connection of its own. Here a second SQLite
 * connection to the store's file takes the write lock (BEGIN IMMEDIATE) for 3 s, as such an
 * import would, and the window is asked to move a session into a folder meanwhile. While the
 * move waits for the lock, the window's frame clock must keep ticking (the UI thread serves),
 * and the lock is released from the main loop itself: a window that waited for the lock on its
 * own thread would hold the release back. Once released, the move lands: in the store, in the
 * sidebar's count and in the folder's list. Nothing here measures time: ticks are counted, and
 * waits only guard against a hang (loom-test-timeout.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <sqlite3.h>

#include "loom-application.h"
#include "loom-core.h"
#include "loom-session-row.h"
#include "loom-sidebar.h"
#include "loom-store.h"
#include "loom-test-utils.h"
#include "loom-window.h"

#include "loom-ui-test.h"

/* How long the other connection holds the lock; the store's busy timeout is longer. */
#define LOCK_HOLD_MSEC          3000
/* Ticks the window's frame clock must give while the move waits: far fewer than it gives in
 * the time the lock is held, even on a slow, busy machine, and more than a window that blocked
 * once for the whole wait could. */
#define MIN_TICKS_WHILE_WAITING 10

#define MOVED_TITLE "Fix the flaky login test"

typedef struct
{
  char            *dir;
  char            *db_path;
  LoomApplication *app;
  LoomWindow      *window;

  gint64 work_id;
  char  *moved; /* the session moved into Work */

  sqlite3 *locker; /* the second connection, while it holds the write lock */
  gboolean released;
  gboolean pending_at_release;
  guint    ticks_while_waiting;
} Fixture;

static char *
add_session (LoomStore  *store,
             const char *title,
             guint       age_hours)
{
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
  g_autoptr (GError) error = NULL;
  gint64 now = g_get_real_time () / 1000;

  record->title = g_strdup (title);
  record->source = g_strdup ("claude-code");
  record->source_session_id = g_uuid_string_random ();
  record->project_name = g_strdup ("intentloom-history");
  record->project_path = g_strdup ("/home/ada/src/intentloom-history");
  record->created_at = now - age_hours * 3600 * 1000;
  record->updated_at = record->created_at;
  g_assert_true (loom_store_insert_session (store, record, &error));
  g_assert_no_error (error);
  return g_strdup (record->uuid);
}

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (LoomFolder) work = NULL;
  g_autoptr (GError) error = NULL;

  /* TMPDIR is inside the harness's throwaway folder, so this never reaches a real store. */
  fixture->dir = g_dir_make_tmp ("loom-test-write-lock-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);

  store = loom_store_open (fixture->db_path, &error);
  g_assert_no_error (error);
  work = loom_store_create_folder (store, "Work", &error);
  g_assert_no_error (error);
  fixture->work_id = loom_folder_get_id (work);
  fixture->moved = add_session (store, MOVED_TITLE, 1);
  g_free (add_session (store, "Port the settings page to libadwaita", 3));
  g_free (add_session (store, "Draft the release notes", 5));

  loom_ui_test_prepare_settings (1100, 720);
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  g_assert_null (fixture->locker);
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  loom_ui_test_reset_settings ();
  g_unsetenv ("LOOM_DB");
  loom_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->db_path, g_free);
  g_clear_pointer (&fixture->dir, g_free);
  g_clear_pointer (&fixture->moved, g_free);
}

/* ——— The other connection ——— */

static void
exec_sql (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s failed: %s", sql, message);
}

static void
take_write_lock (Fixture *fixture)
{
  g_assert_cmpint (
    sqlite3_open_v2 (fixture->db_path, &fixture->locker, SQLITE_OPEN_READWRITE, NULL), ==,
    SQLITE_OK);
  /* As an import's batch does: the write lock taken at once, held to the commit. */
  exec_sql (fixture->locker, "BEGIN IMMEDIATE");
}

/* From the main loop: it runs only if the UI thread is free to run it. */
static gboolean
release_write_lock_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  /* The move is still waiting for the lock: nothing could have written it yet. */
  fixture->pending_at_release = loom_window_has_pending_writes (fixture->window);
  exec_sql (fixture->locker, "COMMIT");
  g_assert_cmpint (sqlite3_close (fixture->locker), ==, SQLITE_OK);
  fixture->locker = NULL;
  fixture->released = TRUE;
  return G_SOURCE_REMOVE;
}

/* Counts the frames the window's clock gives while a write of the window waits. */
static gboolean
on_tick_cb (GtkWidget     *widget,
            GdkFrameClock *frame_clock,
            gpointer       user_data)
{
  Fixture *fixture = user_data;

  if (fixture->locker != NULL && loom_window_has_pending_writes (fixture->window))
    fixture->ticks_while_waiting++;
  return G_SOURCE_CONTINUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *)data;
}

/* ——— The window ——— */

static GtkSelectionModel *
session_selection (GtkWidget *window)
{
  g_autoptr (GPtrArray) lists = loom_ui_test_find_visible (window, GTK_TYPE_LIST_VIEW);

  for (guint i = 0; i < lists->len; i++)
    {
      GtkSelectionModel *model = gtk_list_view_get_model (lists->pdata[i]);
      g_autoptr (GObject) first = NULL;

      if (model != NULL && (first = g_list_model_get_item (G_LIST_MODEL (model), 0)) != NULL &&
          LOOM_IS_SESSION (first))
        return model;
    }
  g_assert_not_reached ();
}

static void
select_session (Fixture    *fixture,
                const char *uuid)
{
  GtkWidget         *window = GTK_WIDGET (fixture->window);
  GtkSelectionModel *selection = session_selection (window);
  guint              n_items = g_list_model_get_n_items (G_LIST_MODEL (selection));

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (LoomSession) session = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (loom_session_get_uuid (session), uuid))
        {
          g_assert_true (gtk_selection_model_select_item (selection, i, TRUE));
          /* Showing the session writes when it was opened: that lands before the lock. */
          loom_ui_test_wait_for_writes (fixture->window);
          loom_ui_test_wait_for_frames (window, 2);
          return;
        }
    }
  g_error ("Session %s is not listed", uuid);
}

static guint
sidebar_count (Fixture *fixture,
               gint64   folder_id)
{
  LoomSidebar *sidebar = LOOM_SIDEBAR (
    loom_ui_test_find_any (GTK_WIDGET (fixture->window), LOOM_TYPE_SIDEBAR));
  GListModel *folders = loom_sidebar_get_folders (sidebar);

  for (guint i = 0; i < g_list_model_get_n_items (folders); i++)
    {
      g_autoptr (LoomSidebarItem) item = g_list_model_get_item (folders, i);

      if (loom_sidebar_item_get_folder_id (item) == folder_id)
        return loom_sidebar_item_get_count (item);
    }
  g_assert_not_reached ();
}

static gint64
stored_folder_of (Fixture    *fixture,
                  const char *uuid)
{
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;

  session = loom_store_get_session (loom_window_get_store (fixture->window), uuid, &error);
  g_assert_no_error (error);
  return loom_session_get_folder_id (session);
}

typedef struct
{
  GtkWidget  *root;
  const char *text;
} LabelWait;

static gboolean
shows_label (gpointer data)
{
  LabelWait *wait = data;

  return loom_ui_test_find_visible_label (wait->root, wait->text) != NULL;
}

static gboolean
run_body_cb (gpointer user_data)
{
  Fixture     *fixture = user_data;
  GtkWidget   *window = GTK_WIDGET (fixture->window);
  LoomSidebar *sidebar = LOOM_SIDEBAR (loom_ui_test_find_any (window, LOOM_TYPE_SIDEBAR));
  LabelWait    toast = { window, "“Fix the flaky login test” moved to “Work”" };
  g_autoptr (GPtrArray) rows = NULL;
  guint tick_id;

  loom_ui_test_wait_for_frames (window, 2);
  select_session (fixture, fixture->moved);
  g_assert_cmpint (stored_folder_of (fixture, fixture->moved), ==, 0);
  g_assert_cmpuint (sidebar_count (fixture, fixture->work_id), ==, 0);

  /* The lock is held, the move asked for: the action returns without waiting for the lock. */
  take_write_lock (fixture);
  tick_id = gtk_widget_add_tick_callback (window, on_tick_cb, fixture, NULL);
  g_timeout_add (LOCK_HOLD_MSEC, release_write_lock_cb, fixture);
  g_assert_true (
    gtk_widget_activate_action (window, "session.move-to-folder", "x", fixture->work_id));
  g_assert_true (loom_window_has_pending_writes (fixture->window));
  g_assert_cmpint (stored_folder_of (fixture, fixture->moved), ==, 0);

  g_assert_true (loom_ui_test_wait_until (is_true, &fixture->released));
  gtk_widget_remove_tick_callback (window, tick_id);
  g_test_message ("%u frames while the move waited for the lock", fixture->ticks_while_waiting);
  g_assert_true (fixture->pending_at_release);
  g_assert_cmpuint (fixture->ticks_while_waiting, >=, MIN_TICKS_WHILE_WAITING);

  /* Released, the move lands: in the store, in the sidebar, in the folder's list, and the
   * toast offers to undo it. */
  loom_ui_test_wait_for_writes (fixture->window);
  g_assert_cmpint (stored_folder_of (fixture, fixture->moved), ==, fixture->work_id);
  g_assert_cmpuint (sidebar_count (fixture, fixture->work_id), ==, 1);
  g_assert_true (loom_ui_test_wait_until (shows_label, &toast));

  g_assert_true (loom_sidebar_select_folder (sidebar, fixture->work_id));
  loom_ui_test_wait_for_frames (window, 3);
  rows = loom_ui_test_find_visible (window, LOOM_TYPE_SESSION_ROW);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_nonnull (loom_ui_test_find_visible_label (rows->pdata[0], MOVED_TITLE));
  loom_ui_test_save_screenshot (window, "write-lock-moved");

  return G_SOURCE_REMOVE;
}

static void
test_move_while_locked (Fixture      *fixture,
                        gconstpointer user_data)
{
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

int
main (int   argc,
      char *argv[])
{
  /* The cairo renderer draws the first frame fastest under Xvfb, and gives stable screenshots. */
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  loom_core_init ();
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add ("/app/write-lock/move", Fixture, NULL, fixture_set_up, test_move_while_locked,
              fixture_tear_down);

  return g_test_run ();
}
