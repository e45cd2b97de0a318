/* loom-backup-keeper-service.c — the backup keeper run in the background for the app.
 *
 * Every run is a GTask thread on a connection of its own (loom_backup_keep_up_async ()), so the
 * window never waits for a backup, nor for the keyring: with "encrypt-backups" the key is
 * loaded in that thread too, and a keyring that fails ends the run before anything is written,
 * never with a backup in the clear. Runs never overlap: a request while one runs is kept and
 * served once it ends. A failure that stops runs is told once ("failed"), not every few minutes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-backup-keeper-service.h"
#include "loom-backup-keeper.h"
#include "loom-time.h"

/* Often enough that a session quiet for ten minutes is backed up within a quarter of an hour;
 * a run that finds nothing due costs one query. */
#define PERIOD_SECONDS (3 * 60)

struct _LoomBackupKeeperService
{
  GObject parent_instance;

  LoomStore    *store;
  GSettings    *settings;
  GCancellable *cancellable; /* of the run going on, or NULL */
  GHashTable   *told;        /* the failure messages told since the last good run */
  guint         timeout_id;
  guint         pending : 1; /* asked for while a run was going on */
  guint         stopped : 1;
};

G_DEFINE_FINAL_TYPE (LoomBackupKeeperService, loom_backup_keeper_service, G_TYPE_OBJECT)

enum
{
  RAN,
  FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
is_on (LoomBackupKeeperService *self)
{
  g_autofree char *folder = g_settings_get_string (self->settings, "backup-folder");
  gboolean         keep = g_settings_get_boolean (self->settings, "keep-backups");

  /* Every key read, each time: some backends tell changes only of keys that were read. */
  g_settings_get_boolean (self->settings, "encrypt-backups");
  return !self->stopped && keep && folder[0] != '\0';
}

static void
tell_once (LoomBackupKeeperService *self,
           const char              *message)
{
  if (g_hash_table_contains (self->told, message))
    return;
  g_hash_table_add (self->told, g_strdup (message));
  g_message ("Continuous backup: %s", message);
  g_signal_emit (self, signals[FAILED], 0, message);
}

static void start_run (LoomBackupKeeperService *self);

static void
run_done (GObject      *source,
          GAsyncResult *res,
          gpointer      user_data)
{
  g_autoptr (LoomBackupKeeperService) self = user_data;
  g_autoptr (LoomKeeperResult) result = NULL;
  g_autoptr (GError) error = NULL;

  g_clear_object (&self->cancellable);
  result = loom_backup_keep_up_finish (LOOM_STORE (source), res, &error);
  if (result == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        tell_once (self, error->message);
    }
  else
    {
      /* A session that fails keeps its previous backup and is tried again at the next run; the
       * first failure is what the person can act on (a full disk, a folder turned read-only). */
      if (result->failed->len > 0)
        {
          const LoomKeeperFailure *failure = g_ptr_array_index (result->failed, 0);
          g_autofree char         *message = NULL;

          for (guint i = 0; i < result->failed->len; i++)
            {
              const LoomKeeperFailure *each = g_ptr_array_index (result->failed, i);

              g_debug ("Could not back up %s: %s", each->session_id, each->error->message);
            }
          message = g_strdup_printf (
            g_dngettext (GETTEXT_PACKAGE, "%u session could not be backed up: %s",
                         "%u sessions could not be backed up: %s", result->failed->len),
            result->failed->len, failure->error->message);
          tell_once (self, message);
        }
      else
        g_hash_table_remove_all (self->told);
      g_signal_emit (self, signals[RAN], 0, result->backed_up->len, result->failed->len);
    }

  if (self->pending && is_on (self))
    start_run (self);
}

static void
start_run (LoomBackupKeeperService *self)
{
  g_autofree char *folder = g_settings_get_string (self->settings, "backup-folder");
  gboolean         encrypt = g_settings_get_boolean (self->settings, "encrypt-backups");

  g_assert (self->cancellable == NULL);

  self->pending = FALSE;
  self->cancellable = g_cancellable_new ();
  loom_backup_keep_up_async (self->store, folder, NULL, encrypt, LOOM_BACKUP_KEEPER_QUIET_MS,
                             loom_time_now_ms (), NULL, NULL, self->cancellable, run_done,
                             g_object_ref (self));
}

void
loom_backup_keeper_service_queue (LoomBackupKeeperService *self)
{
  g_return_if_fail (LOOM_IS_BACKUP_KEEPER_SERVICE (self));

  if (!is_on (self))
    return;
  if (self->cancellable != NULL)
    self->pending = TRUE;
  else
    start_run (self);
}

gboolean
loom_backup_keeper_service_is_running (LoomBackupKeeperService *self)
{
  g_return_val_if_fail (LOOM_IS_BACKUP_KEEPER_SERVICE (self), FALSE);

  return self->cancellable != NULL;
}

static gboolean
on_timeout (gpointer user_data)
{
  loom_backup_keeper_service_queue (user_data);
  return G_SOURCE_CONTINUE;
}

/* The timer runs while keeping is on; turning it off, or changing where or how, also stops the
 * run going on, which is started again with the new settings when keeping is still on. */
static void
on_settings_changed (LoomBackupKeeperService *self,
                     const char              *key,
                     GSettings               *settings)
{
  gboolean on = is_on (self);

  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      self->pending = on;
    }
  g_hash_table_remove_all (self->told);

  if (on && self->timeout_id == 0)
    self->timeout_id = g_timeout_add_seconds (PERIOD_SECONDS, on_timeout, self);
  else if (!on)
    g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (on)
    loom_backup_keeper_service_queue (self);
}

void
loom_backup_keeper_service_stop (LoomBackupKeeperService *self)
{
  g_return_if_fail (LOOM_IS_BACKUP_KEEPER_SERVICE (self));

  self->stopped = TRUE;
  self->pending = FALSE;
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  /* The run ends at the next file; its callback clears the cancellable. */
  while (self->cancellable != NULL)
    g_main_context_iteration (NULL, TRUE);
}

static void
loom_backup_keeper_service_dispose (GObject *object)
{
  LoomBackupKeeperService *self = LOOM_BACKUP_KEEPER_SERVICE (object);

  /* A run holds a reference: disposal means none is going on. */
  g_assert (self->cancellable == NULL);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (loom_backup_keeper_service_parent_class)->dispose (object);
}

static void
loom_backup_keeper_service_finalize (GObject *object)
{
  LoomBackupKeeperService *self = LOOM_BACKUP_KEEPER_SERVICE (object);

  g_hash_table_unref (self->told);

  G_OBJECT_CLASS (loom_backup_keeper_service_parent_class)->finalize (object);
}

static void
loom_backup_keeper_service_class_init (LoomBackupKeeperServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = loom_backup_keeper_service_dispose;
  object_class->finalize = loom_backup_keeper_service_finalize;

  signals[RAN] = g_signal_new ("ran", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                               NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                  NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
loom_backup_keeper_service_init (LoomBackupKeeperService *self)
{
  self->told = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

LoomBackupKeeperService *
loom_backup_keeper_service_new (LoomStore *store,
                                GSettings *settings)
{
  LoomBackupKeeperService *self;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (LOOM_TYPE_BACKUP_KEEPER_SERVICE, NULL);
  self->store = g_object_ref (store);
  self->settings = g_object_ref (settings);
  g_signal_connect_object (settings, "changed::keep-backups", G_CALLBACK (on_settings_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::backup-folder", G_CALLBACK (on_settings_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::encrypt-backups", G_CALLBACK (on_settings_changed),
                           self, G_CONNECT_SWAPPED);
  /* The first run at once: sessions that went quiet while the application was not running. */
  on_settings_changed (self, NULL, settings);
  return self;
}
