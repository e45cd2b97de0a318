/* test-backup-keeper-service.c — the app's continuous backup, driven by its settings, on a real
 * store of the fixtures and a real folder. No display: the service is GLib only.
 *
 * Off until "keep-backups" is on and "backup-folder" set; then a run at once, in a thread,
 * whose backups the store records; never two at once; with "encrypt-backups" and no keyring to
 * be had, nothing at all is written and the failure is told once, not at every run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>

#include "config.h"

#include "loom-backup-keeper-service.h"
#include "loom-core.h"
#include "loom-test-utils.h"
#include "loom-time.h"

#define DAY_MS (24 * 60 * 60 * (gint64)1000)

typedef struct
{
  LoomTestStore base;
  GSettings    *settings;
  char         *backups;
  guint         n_ran;
  guint         n_backed_up;
  guint         n_failed_signals;
  char         *failure;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *codex = loom_test_fixture_path ("codex", NULL);

  loom_test_store_set_up (&f->base, data);
  loom_test_store_import_path (&f->base, "codex", codex);
  f->backups = g_build_filename (f->base.dir, "backups", NULL);
  g_assert_no_errno (g_mkdir (f->backups, 0700));
  /* The memory backend: each test starts from the defaults. */
  f->settings = g_settings_new (APP_ID);
  g_settings_reset (f->settings, "keep-backups");
  g_settings_reset (f->settings, "backup-folder");
  g_settings_reset (f->settings, "encrypt-backups");
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_clear_object (&f->settings);
  g_free (f->backups);
  g_free (f->failure);
  loom_test_store_tear_down (&f->base, data);
}

static void
on_ran (LoomBackupKeeperService *keeper,
        guint                    n_backed_up,
        guint                    n_failed,
        Fixture                 *f)
{
  f->n_ran++;
  f->n_backed_up += n_backed_up;
}

static void
on_failed (LoomBackupKeeperService *keeper,
           const char              *message,
           Fixture                 *f)
{
  f->n_failed_signals++;
  g_free (f->failure);
  f->failure = g_strdup (message);
}

static LoomBackupKeeperService *
new_service (Fixture *f)
{
  LoomBackupKeeperService *keeper = loom_backup_keeper_service_new (f->base.store, f->settings);

  g_signal_connect (keeper, "ran", G_CALLBACK (on_ran), f);
  g_signal_connect (keeper, "failed", G_CALLBACK (on_failed), f);
  return keeper;
}

static void
wait_idle (LoomBackupKeeperService *keeper)
{
  while (loom_backup_keeper_service_is_running (keeper))
    g_main_context_iteration (NULL, TRUE);
}

/* A run's task holds the store as its source object; its worker thread lets go of the task just
 * after the callback has run here, so the tear-down's check that the store is freed waits for
 * that, and only that. */
static void
wait_store_released (Fixture *f)
{
  while (g_atomic_int_get ((int *)&G_OBJECT (f->base.store)->ref_count) > 1)
    g_thread_yield ();
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* Off by default, and with no folder; on, a run in the background, then nothing more to do. */
static void
test_plain (Fixture      *f,
            gconstpointer data)
{
  g_autoptr (LoomBackupKeeperService) keeper = new_service (f);
  guint n_first;

  g_settings_set_boolean (f->settings, "encrypt-backups", FALSE);
  loom_backup_keeper_service_queue (keeper);
  g_assert_false (loom_backup_keeper_service_is_running (keeper));
  g_settings_set_boolean (f->settings, "keep-backups", TRUE);
  /* No folder yet: never a silent default. */
  g_assert_false (loom_backup_keeper_service_is_running (keeper));
  g_assert_cmpuint (count_entries (f->backups), ==, 0);

  g_settings_set_string (f->settings, "backup-folder", f->backups);
  g_assert_true (loom_backup_keeper_service_is_running (keeper));
  /* Asked again while it runs: served after it, not beside it. */
  loom_backup_keeper_service_queue (keeper);
  g_assert_true (loom_backup_keeper_service_is_running (keeper));
  while (f->n_ran < 2)
    g_main_context_iteration (NULL, TRUE);
  wait_idle (keeper);

  n_first = f->n_backed_up;
  g_assert_cmpuint (n_first, >, 0);
  g_assert_cmpuint (count_entries (f->backups), ==, n_first);
  g_assert_cmpuint (f->n_failed_signals, ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->base.db, "backups"), >=, n_first);

  loom_backup_keeper_service_stop (keeper);
  loom_backup_keeper_service_queue (keeper);
  g_assert_false (loom_backup_keeper_service_is_running (keeper));
  g_assert_finalize_object (g_steal_pointer (&keeper));
  wait_store_released (f);
}

/* Encrypted with no keyring on the bus: nothing written, the failure told once. */
static void
test_encrypted_no_keyring (Fixture      *f,
                           gconstpointer data)
{
  g_autoptr (LoomBackupKeeperService) keeper = NULL;

  g_settings_set_string (f->settings, "backup-folder", f->backups);
  g_settings_set_boolean (f->settings, "keep-backups", TRUE);
  keeper = new_service (f);
  g_assert_true (loom_backup_keeper_service_is_running (keeper));
  wait_idle (keeper);
  g_assert_cmpuint (f->n_failed_signals, ==, 1);
  g_test_message ("%s", f->failure);
  g_assert_cmpuint (f->n_ran, ==, 0);

  loom_backup_keeper_service_queue (keeper);
  wait_idle (keeper);
  g_assert_cmpuint (f->n_failed_signals, ==, 1);
  g_assert_cmpuint (count_entries (f->backups), ==, 0);
  g_assert_cmpint (loom_test_count_rows (f->base.db, "backups"), ==, 0);
  loom_backup_keeper_service_stop (keeper);
  g_assert_finalize_object (g_steal_pointer (&keeper));
  wait_store_released (f);
}

int
main (int   argc,
      char *argv[])
{
  /* No secret service to be had, for real: the encrypted case must fail closed. */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/loom-test-bus", TRUE);
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/backup-keeper-service/plain", test_plain);
  ADD ("/backup-keeper-service/encrypted-no-keyring", test_encrypted_no_keyring);
#undef ADD

  return g_test_run ();
}
