/* loom-application.c — the application: actions, settings, style and the one store.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-application.h"
#include "loom-backup-keeper-service.h"
#include "loom-core.h"
#include "loom-error.h"
#include "loom-preferences-window.h"
#include "loom-window.h"

struct _LoomApplication
{
  AdwApplication parent_instance;

  GSettings               *settings;
  LoomStore               *store;
  GError                  *store_error;
  LoomSourceWatcher       *watcher;
  LoomImportProblems      *import_problems;
  /* Continuous backup ("keep-backups"): runs in its own threads, told of each import pass. */
  LoomBackupKeeperService *keeper;

  /* The store is opened once per run, so its state is told once, not once per window. */
  guint told_store_state : 1;
};

G_DEFINE_FINAL_TYPE (LoomApplication, loom_application, ADW_TYPE_APPLICATION)

static gboolean
color_scheme_get_mapping (GValue   *value,
                          GVariant *variant,
                          gpointer  user_data)
{
  const char *scheme = g_variant_get_string (variant, NULL);

  /* On the default style manager, DEFAULT follows the system's preference (light when there is
   * none), which is what "default" promises in the schema. */
  if (g_strcmp0 (scheme, "light") == 0)
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_LIGHT);
  else if (g_strcmp0 (scheme, "dark") == 0)
    g_value_set_enum (value, ADW_COLOR_SCHEME_FORCE_DARK);
  else
    g_value_set_enum (value, ADW_COLOR_SCHEME_DEFAULT);

  return TRUE;
}

static void
loom_application_show_message (LoomApplication *self,
                               GtkWindow       *parent,
                               const char      *heading,
                               const char      *body)
{
  GtkWidget *dialog;

  g_assert (LOOM_IS_APPLICATION (self));

  dialog = adw_message_dialog_new (parent, heading, body);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Tells, once, what happened to the store: that it could not be opened at all, or that it was
 * unreadable and a fresh one replaced it. Either way the user's data is somewhere they need to
 * know about, so this is a dialog rather than a toast that can be missed. */
static void
loom_application_tell_store_state (LoomApplication *self,
                                   GtkWindow       *parent)
{
  g_assert (LOOM_IS_APPLICATION (self));

  if (self->told_store_state)
    return;
  self->told_store_state = TRUE;

  if (self->store == NULL)
    {
      g_autofree char *body = NULL;

      g_assert (self->store_error != NULL);

      /* The core's message already says what failed and on which file; the dialog adds only
       * what the user can do about it. */
      if (g_error_matches (self->store_error, LOOM_ERROR, LOOM_ERROR_NEWER_SCHEMA))
        body = g_strdup_printf (_ ("%s\n\nUpdate Intentloom History to open it."),
                                self->store_error->message);
      else
        body = g_strdup (self->store_error->message);

      loom_application_show_message (self, parent, _ ("Could Not Open History"), body);
    }
  else if (loom_store_get_recovered_path (self->store) != NULL)
    {
      g_autofree char *body = NULL;

      body = g_strdup_printf (_ ("The history could not be read, so a new, empty one was "
                                 "started in its place. The damaged file was kept as:\n\n%s"),
                              loom_store_get_recovered_path (self->store));
      loom_application_show_message (self, parent, _ ("History Was Damaged"), body);
    }
}

static void
loom_application_about (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  static const char *developers[] = { "Intentloom", NULL };
  LoomApplication   *self = user_data;
  GtkWindow         *parent;
  GtkWidget         *about;

  g_assert (LOOM_IS_APPLICATION (self));

  parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  about = g_object_new (
    ADW_TYPE_ABOUT_WINDOW, "application-name", _ ("Intentloom History"), "application-icon", APP_ID,
    "version", PACKAGE_VERSION, "developer-name", "Intentloom", "developers", developers,
    "license-type", GTK_LICENSE_GPL_3_0, "website", "https://intentloom.org/", "issue-url",
    "https://intentloom.org/issues", "copyright", "© 2026 Intentloom",
    /* Translators: Replace "translator-credits" with your name(s). */
    "translator-credits", _ ("translator-credits"), "transient-for", parent, "modal", TRUE, NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
loom_application_preferences (GSimpleAction *action,
                              GVariant      *parameter,
                              gpointer       user_data)
{
  LoomApplication       *self = user_data;
  LoomPreferencesWindow *preferences;

  g_assert (LOOM_IS_APPLICATION (self));

  /* Pressing Ctrl+comma again brings back the open window instead of stacking a second one. */
  for (const GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    {
      if (LOOM_IS_PREFERENCES_WINDOW (l->data))
        {
          gtk_window_present (GTK_WINDOW (l->data));
          return;
        }
    }

  preferences = loom_preferences_window_new (self->settings);
  gtk_window_set_transient_for (GTK_WINDOW (preferences),
                                gtk_application_get_active_window (GTK_APPLICATION (self)));
  /* Belonging to the application gives the window the application's shortcuts (Ctrl+Q). */
  gtk_application_add_window (GTK_APPLICATION (self), GTK_WINDOW (preferences));
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
loom_application_quit (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  LoomApplication *self = user_data;
  GList           *windows;

  g_assert (LOOM_IS_APPLICATION (self));

  /* Closing the windows, rather than g_application_quit(), lets each one save its state on the
   * way out; the application ends when the last one is gone. */
  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (const GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free (windows);
}

static const GActionEntry app_actions[] = {
  { .name = "about", .activate = loom_application_about },
  { .name = "preferences", .activate = loom_application_preferences },
  { .name = "quit", .activate = loom_application_quit },
};

static void
on_imported_cb (LoomApplication       *self,
                const LoomImportStats *stats,
                LoomSourceWatcher     *watcher)
{
  loom_import_problems_add (self->import_problems, stats);
}

/* What stops continuous backup (a keyring error, the folder gone) is told once, in the window
 * in front; without one it is only logged, by the service. */
static void
on_keeper_failed_cb (LoomApplication         *self,
                     const char              *message,
                     LoomBackupKeeperService *keeper)
{
  GtkWindow       *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  AdwToast        *toast;

  if (!LOOM_IS_WINDOW (window))
    return;
  /* A toast's title is markup; the message quotes titles and paths. */
  escaped = g_markup_escape_text (message, -1);
  title = g_strdup_printf (_ ("Backups not kept: %s"), escaped);
  toast = adw_toast_new (title);
  loom_window_add_toast (LOOM_WINDOW (window), toast);
}

static void
loom_application_activate (GApplication *application)
{
  LoomApplication *self = LOOM_APPLICATION (application);
  GtkWindow       *window;

  window = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (window == NULL)
    window = GTK_WINDOW (loom_window_new (self));

  gtk_window_present (window);
  loom_application_tell_store_state (self, window);
}

static void
loom_application_startup (GApplication *application)
{
  LoomApplication *self = LOOM_APPLICATION (application);
  AdwStyleManager *style_manager;

  /* Before the store below, and the workers' stores after it. */
  loom_core_init ();

  G_APPLICATION_CLASS (loom_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]){ "<Primary>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]){ "<Primary>comma", NULL });

  self->settings = g_settings_new (APP_ID);

  /* A GET binding keeps the style live: changing the preference restyles every window. */
  style_manager = adw_style_manager_get_default ();
  g_settings_bind_with_mapping (self->settings, "color-scheme", style_manager, "color-scheme",
                                G_SETTINGS_BIND_GET, color_scheme_get_mapping, NULL, NULL, NULL);

  /* One store for the whole run: windows only read from it on the UI thread. A failure is kept
   * and shown by the first window instead of ending the application. */
  self->store = loom_store_open (NULL, &self->store_error);
  if (self->store == NULL)
    {
      g_message ("Could not open the store: %s", self->store_error->message);
      return;
    }

  /* The watcher imports with a connection of its own in a worker thread; the windows reload
   * from the store when it says a pass changed something. Binding "watch-sources" last starts
   * it with the extra folders already known, and its first pass catches up with whatever the
   * agents wrote while the application was not running. */
  self->watcher = loom_source_watcher_new (loom_store_get_path (self->store));
  g_signal_connect_object (self->watcher, "imported", G_CALLBACK (on_imported_cb), self,
                           G_CONNECT_SWAPPED);
  g_settings_bind (self->settings, "extra-source-folders", self->watcher, "extra-folders",
                   G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "watch-sources", self->watcher, "watching", G_SETTINGS_BIND_GET);

  /* After each import pass: a session it changed is backed up once it has been quiet long
   * enough, which the service's own timer also catches. */
  self->keeper = loom_backup_keeper_service_new (self->store, self->settings);
  g_signal_connect_object (self->keeper, "failed", G_CALLBACK (on_keeper_failed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->watcher, "imported", G_CALLBACK (loom_backup_keeper_service_queue),
                           self->keeper, G_CONNECT_SWAPPED);
}

static void
loom_application_shutdown (GApplication *application)
{
  LoomApplication *self = LOOM_APPLICATION (application);

  /* A backup is cancelled between two files (it leaves nothing behind, and the previous backup
   * stays) and awaited, like the import pass below. */
  if (self->keeper != NULL)
    loom_backup_keeper_service_stop (self->keeper);

  /* A pass is cancelled between two files (each file is one transaction, so nothing is left
   * half-imported) and its result awaited, so that no thread outlives the application. */
  if (self->watcher != NULL)
    {
      g_settings_unbind (self->watcher, "watching");
      g_settings_unbind (self->watcher, "extra-folders");
      loom_source_watcher_stop (self->watcher);
    }

  G_APPLICATION_CLASS (loom_application_parent_class)->shutdown (application);
}

static void
loom_application_dispose (GObject *object)
{
  LoomApplication *self = LOOM_APPLICATION (object);

  /* The style manager outlives us, and its binding holds our settings. */
  if (self->settings != NULL)
    g_settings_unbind (adw_style_manager_get_default (), "color-scheme");

  g_clear_object (&self->keeper);
  g_clear_object (&self->watcher);
  g_clear_object (&self->import_problems);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (loom_application_parent_class)->dispose (object);
}

static void
loom_application_finalize (GObject *object)
{
  LoomApplication *self = LOOM_APPLICATION (object);

  g_clear_error (&self->store_error);

  G_OBJECT_CLASS (loom_application_parent_class)->finalize (object);
}

static void
loom_application_class_init (LoomApplicationClass *klass)
{
  GObjectClass      *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = loom_application_dispose;
  object_class->finalize = loom_application_finalize;

  app_class->activate = loom_application_activate;
  app_class->shutdown = loom_application_shutdown;
  app_class->startup = loom_application_startup;
}

static void
loom_application_init (LoomApplication *self)
{
  self->import_problems = loom_import_problems_new ();
}

LoomApplication *
loom_application_new (const char       *application_id,
                      GApplicationFlags flags)
{
  g_return_val_if_fail (application_id != NULL, NULL);

  return g_object_new (LOOM_TYPE_APPLICATION, "application-id", application_id, "flags", flags,
                       "resource-base-path", "/org/intentloom/History", NULL);
}

LoomStore *
loom_application_get_store (LoomApplication *self)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (self), NULL);

  return self->store;
}

const GError *
loom_application_get_store_error (LoomApplication *self)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (self), NULL);

  return self->store_error;
}

GSettings *
loom_application_get_settings (LoomApplication *self)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (self), NULL);

  return self->settings;
}

LoomSourceWatcher *
loom_application_get_source_watcher (LoomApplication *self)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (self), NULL);

  return self->watcher;
}

LoomImportProblems *
loom_application_get_import_problems (LoomApplication *self)
{
  g_return_val_if_fail (LOOM_IS_APPLICATION (self), NULL);

  return self->import_problems;
}
