/* test-window.c — the application shell as a user meets it: empty, then with sessions.
 *
 * Runs the real application and window on a real X server (Xvfb, from the test harness) against
 * a throwaway SQLite store, drives them through their actions, checks what is on screen, and
 * saves screenshots to tests/app/screenshots/ in the build folder for a person to look at.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "loom-application.h"
#include "loom-core.h"
#include "loom-import-problems-window.h"
#include "loom-preferences-window.h"
#include "loom-session-row.h"
#include "loom-sidebar.h"
#include "loom-sidebar-row.h"
#include "loom-store.h"
#include "loom-window.h"

#include "loom-ui-test.h"

/* Generous: llvmpipe and a busy CI machine can be slow to draw the first frame. */
#define WAIT_TIMEOUT_USEC loom_test_guard_usec (LOOM_TEST_GUARD_USEC)

/* Helpers: finding widgets (the common helpers are in loom-ui-test.c) */

static gboolean
shows_sidebar (gpointer data)
{
  return loom_ui_test_count_visible (data, LOOM_TYPE_SIDEBAR) == 1;
}

/* Fixture: a fresh store folder and a running application */

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *db_path;
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
};

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GSettings) settings = NULL;
  g_autoptr (GError) error = NULL;

  /* TMPDIR is inside the harness's throwaway folder, so this never reaches a real store. */
  fixture->dir = g_dir_make_tmp ("loom-test-window-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);

  /* The memory settings backend lives as long as the process: start each test afresh. */
  settings = g_settings_new (APP_ID);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "window-maximized");
  g_settings_reset (settings, "color-scheme");
}

/* The test body runs inside g_application_run(), from an idle callback once the window is open,
 * so that the application starts up and shuts down exactly as it does for a user. */
static gboolean
run_body_cb (gpointer user_data)
{
  Fixture   *fixture = user_data;
  GtkWidget *window = GTK_WIDGET (fixture->window);

  loom_ui_test_wait_for_frames (window, 2);
  fixture->body (fixture);

  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture *fixture,
             TestBody body)
{
  /* Non-unique: each test starts its own instance on the private bus. */
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;

  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      g_assert_cmpint (g_remove (child), ==, 0);
    }
  g_assert_cmpint (g_rmdir (path), ==, 0);
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  /* Once closed, nothing may hold the window, nor the application once it has shut down. */
  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  g_unsetenv ("LOOM_DB");
  remove_tree (fixture->dir);
  g_clear_pointer (&fixture->db_path, g_free);
  g_clear_pointer (&fixture->dir, g_free);
}

static void
insert_session (LoomStore  *store,
                const char *title,
                const char *source,
                const char *project,
                gint64      age_hours,
                gboolean    pinned)
{
  g_autoptr (LoomSessionRecord) record = loom_session_record_new ();
  g_autoptr (GError) error = NULL;
  gint64 now = g_get_real_time () / 1000;

  record->title = g_strdup (title);
  record->source = g_strdup (source);
  if (project != NULL)
    {
      record->project_name = g_strdup (project);
      record->project_path = g_build_filename ("/home/ada/src", project, NULL);
    }
  record->created_at = now - (age_hours + 2) * 3600 * 1000;
  record->updated_at = now - age_hours * 3600 * 1000;
  record->message_count = 12;

  g_assert_true (loom_store_insert_session (store, record, &error));
  g_assert_no_error (error);
  g_assert_nonnull (record->uuid);

  if (pinned)
    {
      g_assert_true (loom_store_set_pinned (store, record->uuid, TRUE, &error));
      g_assert_no_error (error);
    }
}

static LoomSidebarRow *
find_sidebar_row (GtkWidget     *root,
                  LoomCollection collection)
{
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (root, LOOM_TYPE_SIDEBAR_ROW);

  for (guint i = 0; i < rows->len; i++)
    {
      LoomSidebarItem *item = loom_sidebar_row_get_item (rows->pdata[i]);

      if (loom_sidebar_item_get_collection (item) == collection)
        return rows->pdata[i];
    }
  return NULL;
}

/* The count a sidebar row shows, as the user reads it: an empty collection shows none. */
static guint
sidebar_count (GtkWidget     *window,
               LoomCollection collection)
{
  LoomSidebarRow *row = find_sidebar_row (window, collection);
  g_autoptr (GPtrArray) labels = NULL;
  GtkLabel *count_label;

  g_assert_nonnull (row);
  labels = loom_ui_test_find_visible (GTK_WIDGET (row), GTK_TYPE_LABEL);
  g_assert_cmpuint (labels->len, >=, 1);
  if (labels->len == 1)
    return 0;

  /* The title, then the count. */
  g_assert_cmpuint (labels->len, ==, 2);
  count_label = labels->pdata[1];
  g_assert_cmpuint (loom_sidebar_item_get_count (loom_sidebar_row_get_item (row)), ==,
                    atoi (gtk_label_get_label (count_label)));
  return atoi (gtk_label_get_label (count_label));
}

static void
select_collection (GtkWidget     *window,
                   LoomCollection collection)
{
  g_autoptr (GPtrArray) sidebars = loom_ui_test_find_visible (window, LOOM_TYPE_SIDEBAR);

  g_assert_cmpuint (sidebars->len, ==, 1);
  loom_sidebar_select_collection (sidebars->pdata[0], collection);
  loom_ui_test_wait_for_frames (window, 2);
}

/* Tests */

static void
assert_accel (LoomApplication *app,
              const char      *action,
              const char      *accel)
{
  g_auto (GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), action);

  g_assert_true (g_strv_contains ((const char *const *)accels, accel));
}

static void
shell_body (Fixture *fixture)
{
  GtkWidget   *window;
  GtkWindow   *dialog;
  GtkWindow   *help_overlay;
  AdwComboRow *style_row;
  GtkWidget   *back_button;
  LoomStore   *store;
  g_autoptr (GPtrArray) combo_rows = NULL;

  window = GTK_WIDGET (fixture->window);
  store = loom_window_get_store (fixture->window);
  g_assert_true (LOOM_IS_STORE (store));
  g_assert_cmpstr (loom_store_get_path (store), ==, fixture->db_path);
  g_assert_null (loom_store_get_recovered_path (store));

  /* The shortcuts the help overlay promises. Ctrl+W is a binding of the window class. */
  assert_accel (fixture->app, "app.quit", "<Control>q");
  assert_accel (fixture->app, "app.preferences", "<Control>comma");
  assert_accel (fixture->app, "win.show-help-overlay", "<Control>question");

  /* A new user sees the welcome, not an empty sidebar. */
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "No Sessions Yet"));
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 0);
  loom_ui_test_set_style (fixture->app, window, "light");
  loom_ui_test_save_screenshot (window, "empty-light");
  loom_ui_test_set_style (fixture->app, window, "dark");
  loom_ui_test_save_screenshot (window, "empty-dark");
  loom_ui_test_set_style (fixture->app, window, "light");

  /* About */
  g_assert_true (gtk_widget_activate_action (window, "app.about", NULL));
  dialog = loom_ui_test_find_toplevel (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (window));
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (dialog)), ==, PACKAGE_VERSION);
  loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "about");
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  gtk_window_close (dialog);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &dialog));

  /* Preferences: changing the style there restyles the application at once. */
  g_assert_true (gtk_widget_activate_action (window, "app.preferences", NULL));
  dialog = loom_ui_test_find_toplevel (LOOM_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (window));
  loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
  g_assert_true (gtk_widget_activate_action (window, "app.preferences", NULL));
  g_assert_true (loom_ui_test_find_toplevel (LOOM_TYPE_PREFERENCES_WINDOW) == dialog);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (fixture->app))),
                    ==, 2);
  combo_rows = loom_ui_test_find_visible (GTK_WIDGET (dialog), ADW_TYPE_COMBO_ROW);
  g_assert_cmpuint (combo_rows->len, ==, 1);
  style_row = combo_rows->pdata[0];
  g_assert_cmpuint (adw_combo_row_get_selected (style_row), ==, 1);
  /* The archive sweep's age is offered, now that sweeps exist (the Backups group; its own
   * test is test-backups.c); the export's settings are: its default mode and the folder the
   * assistant offers first. */
  {
    g_autoptr (GPtrArray)
      rows = loom_ui_test_find_visible (GTK_WIDGET (dialog), ADW_TYPE_ACTION_ROW);
    AdwActionRow *export_folder_row = NULL;
    gboolean      redact_row = FALSE;
    gboolean      archive_row = FALSE;

    g_assert_cmpuint (rows->len, >, 0);
    for (guint i = 0; i < rows->len; i++)
      {
        const char *title = adw_preferences_row_get_title (rows->pdata[i]);

        archive_row |= g_str_equal (title, "_Archive Sessions After");
        redact_row |= g_str_equal (title, "Redact _Secrets");
        if (g_str_equal (title, "Export _Folder"))
          export_folder_row = rows->pdata[i];
      }
    g_assert_true (redact_row);
    g_assert_true (archive_row);
    g_assert_nonnull (export_folder_row);
    g_assert_cmpstr (adw_action_row_get_subtitle (export_folder_row), ==, "Chosen at each export");
    loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "preferences");

    /* A remembered folder is shown, and forgotten by its button. */
    {
      g_autoptr (GSettings) settings = g_settings_new (APP_ID);
      g_autofree char *saved = NULL;

      g_settings_set_string (settings, "export-folder", "/srv/backups/agents");
      loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
      g_assert_cmpstr (adw_action_row_get_subtitle (export_folder_row), ==, "/srv/backups/agents");
      loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "preferences-export-folder");
      g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (dialog), "preferences.clear-export-folder", NULL));
      saved = g_settings_get_string (settings, "export-folder");
      g_assert_cmpstr (saved, ==, "");
      g_assert_cmpstr (adw_action_row_get_subtitle (export_folder_row), ==,
                       "Chosen at each export");
    }
  }
  adw_combo_row_set_selected (style_row, 2);
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));
  adw_combo_row_set_selected (style_row, 1);
  g_assert_false (adw_style_manager_get_dark (adw_style_manager_get_default ()));

  /* Extra source folders: added as the folder chooser would, listed, removed by their button. */
  {
    g_autoptr (GSettings) settings = g_settings_new (APP_ID);
    g_auto (GStrv) folders = NULL;
    guint rows_before = loom_ui_test_count_visible (GTK_WIDGET (dialog), ADW_TYPE_ACTION_ROW);

    loom_preferences_window_add_folder (LOOM_PREFERENCES_WINDOW (dialog), "/srv/agents/claude");
    loom_preferences_window_add_folder (LOOM_PREFERENCES_WINDOW (dialog), "/srv/agents/claude");
    folders = g_settings_get_strv (settings, "extra-source-folders");
    g_assert_cmpstrv (folders, ((const char *const[]){ "/srv/agents/claude", NULL }));
    loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
    g_assert_cmpuint (loom_ui_test_count_visible (GTK_WIDGET (dialog), ADW_TYPE_ACTION_ROW), ==,
                      rows_before + 1);
    loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "preferences-extra-folder");

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "preferences.remove-folder",
                                               "s", "/srv/agents/claude"));
    g_clear_pointer (&folders, g_strfreev);
    folders = g_settings_get_strv (settings, "extra-source-folders");
    g_assert_cmpuint (g_strv_length (folders), ==, 0);
    loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
    g_assert_cmpuint (loom_ui_test_count_visible (GTK_WIDGET (dialog), ADW_TYPE_ACTION_ROW), ==,
                      rows_before);
  }
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  gtk_window_close (dialog);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &dialog));

  /* Keyboard shortcuts, loaded by GtkApplication from the resource. */
  g_assert_true (gtk_widget_activate_action (window, "win.show-help-overlay", NULL));
  help_overlay = GTK_WINDOW (
    gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_nonnull (help_overlay);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, help_overlay));
  loom_ui_test_save_screenshot (GTK_WIDGET (help_overlay), "shortcuts");
  gtk_window_close (help_overlay);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_hidden, help_overlay));

  /* Sessions arrive: the window shows them once reloaded. */
  insert_session (store, "Fix the flaky login test - 2026-11-29", "claude-code", "webapp", 1, TRUE);
  insert_session (store, "Port the settings page to libadwaita - 2026-11-28", "codex", "gnome-app",
                  20, FALSE);
  insert_session (store, "Explain the build failure on arm64 - 2026-11-26", "gemini", "toolchain",
                  70, FALSE);
  insert_session (store,
                  "Refactor the importer so that huge JSONL lines are streamed instead of "
                  "read whole into memory - 2026-11-02",
                  "claude-code", "intentloom-history", 24 * 27, FALSE);
  insert_session (store, "Draft the release notes - 2025-12-15", "codex", NULL, 24 * 349, FALSE);
  loom_window_reload (fixture->window);
  loom_ui_test_wait_for_frames (window, 3);

  g_assert_null (loom_ui_test_find_visible_status_page (window, "No Sessions Yet"));
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 1);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 5);
  g_assert_cmpuint (sidebar_count (window, LOOM_COLLECTION_ALL), ==, 5);
  g_assert_cmpuint (sidebar_count (window, LOOM_COLLECTION_RECENT), ==, 3);
  g_assert_cmpuint (sidebar_count (window, LOOM_COLLECTION_PINNED), ==, 1);
  g_assert_cmpuint (sidebar_count (window, LOOM_COLLECTION_ACTIVE), ==, 2);
  g_assert_cmpuint (sidebar_count (window, LOOM_COLLECTION_TRASH), ==, 0);
  loom_ui_test_save_screenshot (window, "sessions-light");
  loom_ui_test_set_style (fixture->app, window, "dark");
  loom_ui_test_save_screenshot (window, "sessions-dark");
  loom_ui_test_set_style (fixture->app, window, "light");

  /* The sidebar chooses what the list shows. */
  select_collection (window, LOOM_COLLECTION_PINNED);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 1);
  select_collection (window, LOOM_COLLECTION_TRASH);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 0);
  g_assert_nonnull (loom_ui_test_find_visible_status_page (window, "Trash Is Empty"));
  loom_ui_test_save_screenshot (window, "collection-empty");
  select_collection (window, LOOM_COLLECTION_ALL);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 5);

  /* A narrow window folds: the sidebar alone, then the list after picking a collection. */
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 640);
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 0);
  loom_ui_test_save_screenshot (window, "sessions-narrow");

  gtk_widget_activate (GTK_WIDGET (find_sidebar_row (window, LOOM_COLLECTION_RECENT)));
  loom_ui_test_wait_for_frames (window, 3);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SIDEBAR), ==, 0);
  g_assert_cmpuint (loom_ui_test_count_visible (window, LOOM_TYPE_SESSION_ROW), ==, 3);
  loom_ui_test_save_screenshot (window, "sessions-narrow-list");

  back_button = loom_ui_test_find_visible_button (window, "go-previous-symbolic");
  g_assert_nonnull (back_button);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (back_button), ==, "Back");
  /* Activating a button presses it for a moment before it reports the click. */
  gtk_widget_activate (back_button);
  g_assert_true (loom_ui_test_wait_until (shows_sidebar, window));
}

static void
test_window_shell (Fixture      *fixture,
                   gconstpointer user_data)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  fixture_run (fixture, shell_body);

  /* The window was left narrow: the next start opens it so. */
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 400);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 640);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
}

static AdwMessageDialog *
wait_for_message_dialog (void)
{
  AdwMessageDialog *dialog = NULL;
  gint64            deadline = g_get_monotonic_time () + WAIT_TIMEOUT_USEC;

  while (dialog == NULL && g_get_monotonic_time () < deadline)
    {
      dialog = (AdwMessageDialog *)loom_ui_test_find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (dialog);
  loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
  return dialog;
}

static void
on_response_cb (AdwMessageDialog *dialog,
                const char       *response,
                char            **out)
{
  g_assert_null (*out);
  *out = g_strdup (response);
}

/* Escape, as a user dismisses it: the dialog answers with its close response and goes away. */
static void
close_message_dialog (AdwMessageDialog *dialog)
{
  g_autofree char *response = NULL;

  g_signal_connect (dialog, "response", G_CALLBACK (on_response_cb), &response);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *)&dialog);
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &dialog));
  g_assert_cmpstr (response, ==, "close");
}

static void
newer_store_body (Fixture *fixture)
{
  AdwMessageDialog *dialog;

  g_assert_null (loom_window_get_store (fixture->window));
  g_assert_nonnull (
    loom_ui_test_find_visible_status_page (GTK_WIDGET (fixture->window), "History Unavailable"));

  dialog = wait_for_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Could Not Open History");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "newer version"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), fixture->db_path));
  loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "store-newer-dialog");
  close_message_dialog (dialog);
  loom_ui_test_save_screenshot (GTK_WIDGET (fixture->window), "store-unavailable");
}

static void
test_window_newer_store (Fixture      *fixture,
                         gconstpointer user_data)
{
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize            before_len, after_len;
  sqlite3         *db = NULL;

  /* A store written by a later version: the application must refuse it and leave it as it is. */
  g_assert_cmpint (sqlite3_open (fixture->db_path, &db), ==, SQLITE_OK);
  g_assert_cmpint (
    sqlite3_exec (db, "CREATE TABLE future (x); PRAGMA user_version = 999;", NULL, NULL, NULL), ==,
    SQLITE_OK);
  sqlite3_close (db);
  g_assert_true (g_file_get_contents (fixture->db_path, &before, &before_len, NULL));

  fixture_run (fixture, newer_store_body);

  g_assert_true (g_file_get_contents (fixture->db_path, &after, &after_len, NULL));
  g_assert_cmpmem (before, before_len, after, after_len);
}

static void
damaged_store_body (Fixture *fixture)
{
  AdwMessageDialog *dialog;
  const char       *recovered;

  recovered = loom_store_get_recovered_path (loom_window_get_store (fixture->window));
  g_assert_nonnull (recovered);
  g_assert_true (g_file_test (recovered, G_FILE_TEST_IS_REGULAR));

  /* The user learns where the old data went, and starts from the welcome page. */
  dialog = wait_for_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "History Was Damaged");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), recovered));
  loom_ui_test_save_screenshot (GTK_WIDGET (dialog), "store-damaged-dialog");
  close_message_dialog (dialog);
  g_assert_nonnull (
    loom_ui_test_find_visible_status_page (GTK_WIDGET (fixture->window), "No Sessions Yet"));
}

static void
test_window_damaged_store (Fixture      *fixture,
                           gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) garbage = g_string_new (NULL);

  for (guint i = 0; i < 512; i++)
    g_string_append (garbage, "this is not an SQLite database\n");
  g_file_set_contents (fixture->db_path, garbage->str, garbage->len, &error);
  g_assert_no_error (error);

  fixture_run (fixture, damaged_store_body);
}

static gint64
local_ms (int year,
          int month,
          int day,
          int hour,
          int minute)
{
  g_autoptr (GDateTime) when = g_date_time_new_local (year, month, day, hour, minute, 0);

  return g_date_time_to_unix (when) * 1000;
}

/* What the time column says, relative to Sunday 2026-11-29, 15:00 local time. */
static void
test_session_row_format_time (void)
{
  gint64 now = local_ms (2026, 11, 29, 15, 0);
  static const struct
  {
    int         year, month, day, hour, minute;
    const char *expected;
  } cases[] = {
    { 2026, 11, 29, 14, 5, "14:05" },        { 2026, 11, 29, 0, 0, "00:00" },
    { 2026, 11, 28, 23, 59, "Yesterday" },   { 2026, 11, 28, 0, 0, "Yesterday" },
    { 2026, 11, 27, 23, 59, "Friday" },      { 2026, 11, 23, 0, 0, "Monday" },
    { 2026, 11, 22, 12, 0, "Nov 22" },       { 2026, 3, 4, 9, 30, "Mar 4" },
    { 2025, 12, 15, 9, 30, "Dec 15, 2025" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;

      text = loom_session_row_format_time (
        local_ms (cases[i].year, cases[i].month, cases[i].day, cases[i].hour, cases[i].minute),
        now);
      g_assert_cmpstr (text, ==, cases[i].expected);
    }

  /* Unknown times stay blank rather than showing 1970. */
  g_assert_cmpstr (loom_session_row_format_time (0, now), ==, "");
}

static void
test_session_row_agent_name (void)
{
  g_assert_cmpstr (loom_session_row_agent_name ("claude-code"), ==, "Claude Code");
  g_assert_cmpstr (loom_session_row_agent_name ("codex"), ==, "Codex");
  g_assert_cmpstr (loom_session_row_agent_name ("gemini"), ==, "Gemini CLI");
  g_assert_cmpstr (loom_session_row_agent_name ("aider"), ==, "aider");
}

/* ——— Import problems ——— */

static void
on_problems_added_cb (LoomImportProblems *problems,
                      guint               n_added,
                      guint              *total)
{
  *total += n_added;
}

static const char *
problem_at (LoomImportProblems *problems,
            guint               position)
{
  return gtk_string_list_get_string (GTK_STRING_LIST (loom_import_problems_get_model (problems)),
                                     position);
}

static guint
n_problems (LoomImportProblems *problems)
{
  return g_list_model_get_n_items (loom_import_problems_get_model (problems));
}

static void
test_import_problems_list (void)
{
  g_autoptr (LoomImportProblems) problems = loom_import_problems_new ();
  g_autoptr (LoomImportStats) first = loom_import_stats_new ();
  g_autoptr (LoomImportStats) second = loom_import_stats_new ();
  g_autoptr (LoomImportStats) many = loom_import_stats_new ();
  g_autofree char *text = NULL;
  guint            total = 0;

  g_signal_connect (problems, "added", G_CALLBACK (on_problems_added_cb), &total);

  /* A line being written is no problem; the same warning twice is one; a name that is not
   * UTF-8 shows its bytes as \xNN, and two such names stay two. */
  g_ptr_array_add (first->warnings, g_strdup ("/h/a.jsonl:2: not valid JSON (x)"));
  g_ptr_array_add (first->warnings, g_strdup ("/h/a.jsonl:9: the last line is incomplete"));
  g_ptr_array_add (first->waiting, g_strdup ("/h/a.jsonl:9: the last line is incomplete"));
  g_ptr_array_add (first->warnings, g_strdup ("/h/a.jsonl:2: not valid JSON (x)"));
  g_ptr_array_add (first->warnings, g_strdup ("/h/b\xff.jsonl:1: invalid UTF-8 was replaced"));
  g_ptr_array_add (first->warnings, g_strdup ("/h/b\xfe.jsonl:1: invalid UTF-8 was replaced"));
  g_assert_cmpuint (loom_import_problems_add (problems, first), ==, 3);
  g_assert_cmpuint (total, ==, 3);
  g_assert_cmpuint (n_problems (problems), ==, 3);
  g_assert_cmpstr (problem_at (problems, 0), ==, "/h/a.jsonl:2: not valid JSON (x)");
  g_assert_cmpstr (problem_at (problems, 1), ==, "/h/b\\xff.jsonl:1: invalid UTF-8 was replaced");
  g_assert_cmpstr (problem_at (problems, 2), ==, "/h/b\\xfe.jsonl:1: invalid UTF-8 was replaced");

  /* A later pass: what is listed already is not listed again; the new comes first. */
  g_ptr_array_add (second->warnings, g_strdup ("/h/a.jsonl:2: not valid JSON (x)"));
  g_assert_cmpuint (loom_import_problems_add (problems, second), ==, 0);
  g_assert_cmpuint (total, ==, 3);
  g_ptr_array_add (second->warnings, g_strdup ("/h/c.json: not imported: Permission denied"));
  g_assert_cmpuint (loom_import_problems_add (problems, second), ==, 1);
  g_assert_cmpstr (problem_at (problems, 0), ==, "/h/c.json: not imported: Permission denied");
  text = loom_import_problems_to_text (problems);
  g_assert_cmpstr (text, ==,
                   "/h/c.json: not imported: Permission denied\n"
                   "/h/a.jsonl:2: not valid JSON (x)\n"
                   "/h/b\\xff.jsonl:1: invalid UTF-8 was replaced\n"
                   "/h/b\\xfe.jsonl:1: invalid UTF-8 was replaced\n");

  /* At most LOOM_IMPORT_PROBLEMS_MAX are kept, the newest; one that was dropped is new again. */
  for (guint i = 0; i < LOOM_IMPORT_PROBLEMS_MAX + 5; i++)
    g_ptr_array_add (many->warnings, g_strdup_printf ("/h/many.jsonl:%u: bad", i + 1));
  g_assert_cmpuint (loom_import_problems_add (problems, many), ==, LOOM_IMPORT_PROBLEMS_MAX);
  g_assert_cmpuint (n_problems (problems), ==, LOOM_IMPORT_PROBLEMS_MAX);
  g_assert_cmpstr (problem_at (problems, 0), ==, "/h/many.jsonl:1: bad");
  g_ptr_array_set_size (second->warnings, 0);
  g_ptr_array_add (second->warnings, g_strdup ("/h/a.jsonl:2: not valid JSON (x)"));
  g_assert_cmpuint (loom_import_problems_add (problems, second), ==, 1);
  g_assert_cmpuint (n_problems (problems), ==, LOOM_IMPORT_PROBLEMS_MAX);
  g_assert_cmpstr (problem_at (problems, 0), ==, "/h/a.jsonl:2: not valid JSON (x)");
  g_assert_cmpstr (problem_at (problems, LOOM_IMPORT_PROBLEMS_MAX - 1), ==,
                   "/h/many.jsonl:999: bad");

  loom_import_problems_clear (problems);
  g_assert_cmpuint (n_problems (problems), ==, 0);
  g_assert_cmpuint (loom_import_problems_add (problems, second), ==, 1);
}

static void
test_import_problem_split (void)
{
  static const struct
  {
    const char *warning;
    const char *what;
    const char *where;
    const char *path;
  } cases[] = {
    { "/h/p/s.jsonl:14: not valid JSON (unexpected “o”)", "Not valid JSON (unexpected “o”)",
      "s.jsonl, line 14", "/h/p/s.jsonl" },
    { "/h/p/s.json: not imported: Permission denied", "Not imported: Permission denied", "s.json",
      "/h/p/s.json" },
    /* The path ends at its first .json or .jsonl that a colon follows; a message may quote
     * another file, and a folder may have .json in its name. */
    { "/h/x.json/s.jsonl:3: see /h/y.jsonl: it differs", "See /h/y.jsonl: it differs",
      "s.jsonl, line 3", "/h/x.json/s.jsonl" },
    { "/h/.gemini/tmp: Could not list the folder: Permission denied",
      "Could not list the folder: Permission denied", "/h/.gemini/tmp", "/h/.gemini/tmp" },
    { "ÉTAT: something else", "ÉTAT: something else", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *what = NULL;
      g_autofree char *where = NULL;
      g_autofree char *path = NULL;

      loom_import_problem_split (cases[i].warning, &what, &where, &path);
      g_assert_cmpstr (what, ==, cases[i].what);
      g_assert_cmpstr (where, ==, cases[i].where);
      g_assert_cmpstr (path, ==, cases[i].path);
    }
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
  loom_ui_test_set_wait_timeout (WAIT_TIMEOUT_USEC);

  /* Screenshots must not catch a crossfade half-way. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  g_test_add_func ("/app/session-row/format-time", test_session_row_format_time);
  g_test_add_func ("/app/session-row/agent-name", test_session_row_agent_name);
  g_test_add_func ("/app/import-problems/list", test_import_problems_list);
  g_test_add_func ("/app/import-problems/split", test_import_problem_split);
  g_test_add ("/app/window/shell", Fixture, NULL, fixture_set_up, test_window_shell,
              fixture_tear_down);
  g_test_add ("/app/window/newer-store", Fixture, NULL, fixture_set_up, test_window_newer_store,
              fixture_tear_down);
  g_test_add ("/app/window/damaged-store", Fixture, NULL, fixture_set_up, test_window_damaged_store,
              fixture_tear_down);

  return g_test_run ();
}
