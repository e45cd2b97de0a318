/* test-session-details-backup.c — a session's details show its last backup: when, and where.
 *
 * A real store, a backup recorded as continuous backup records it, the details pane in a real
 * window on the harness's X server; a session never backed up shows no such row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <adwaita.h>
#include <string.h>

#include "loom-core.h"
#include "loom-session-details.h"
#include "loom-store-backups.h"
#include "loom-test-utils.h"
#include "loom-time.h"
#include "loom-ui-test.h"

static void
test_last_backup (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *db = NULL;
  g_autoptr (LoomStore) store = loom_test_new_store (&dir, &db);
  g_autofree char *backed_up = NULL;
  g_autofree char *never = NULL;
  g_autofree char *path = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget  *window = gtk_window_new ();
  GtkWidget  *details = loom_session_details_new ();
  const char *value;

  backed_up = loom_test_add_session (store, "Keep the backups - 2026-03-05", "codex", "keep", 4, 0,
                                     loom_time_now_ms () - 60 * 60 * 1000);
  never = loom_test_add_session (store, "Never backed up - 2026-03-05", "codex", "never", 2, 0,
                                 loom_time_now_ms () - 60 * 60 * 1000);
  path = g_build_filename (dir, "backups", "Keep the backups - 2026-03-05", NULL);
  g_assert_true (loom_store_record_backup (store, backed_up, path, NULL, &error));
  g_assert_no_error (error);

  gtk_window_set_default_size (GTK_WINDOW (window), 520, 800);
  gtk_window_set_child (GTK_WINDOW (window), details);
  session = loom_store_get_session (store, backed_up, &error);
  g_assert_no_error (error);
  loom_session_details_set_session (LOOM_SESSION_DETAILS (details), store, session);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, details));
  loom_ui_test_wait_for_frames (details, 2);

  value = loom_session_details_get_value (LOOM_SESSION_DETAILS (details), "Last backup");
  g_assert_nonnull (value);
  g_test_message ("Last backup: %s", value);
  /* The time in its row, the path in the "Backup" row beside it. */
  g_assert_null (strstr (value, path));
  g_assert_cmpstr (loom_session_details_get_value (LOOM_SESSION_DETAILS (details), "Backup"), ==,
                   path);
  /* The group that holds the row, below the first screenful of the pane. */
  {
    g_autoptr (GPtrArray) groups = loom_ui_test_find_visible (details, ADW_TYPE_PREFERENCES_GROUP);
    GtkWidget *organisation = NULL;

    for (guint i = 0; i < groups->len; i++)
      if (g_strcmp0 (adw_preferences_group_get_title (groups->pdata[i]), "Organisation") == 0)
        organisation = groups->pdata[i];
    g_assert_nonnull (organisation);
    g_assert_nonnull (loom_ui_test_find_visible_label (organisation, value));
    loom_ui_test_save_screenshot (organisation, "session-details-last-backup");
  }

  g_clear_object (&session);
  session = loom_store_get_session (store, never, &error);
  g_assert_no_error (error);
  loom_session_details_set_session (LOOM_SESSION_DETAILS (details), store, session);
  g_assert_null (loom_session_details_get_value (LOOM_SESSION_DETAILS (details), "Last backup"));
  g_assert_null (loom_session_details_get_value (LOOM_SESSION_DETAILS (details), "Backup"));

  loom_session_details_set_session (LOOM_SESSION_DETAILS (details), NULL, NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&session);
  g_assert_finalize_object (g_steal_pointer (&store));
  loom_test_remove_tree (dir);
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

  g_test_add_func ("/app/session-details/last-backup", test_last_backup);

  return g_test_run ();
}
