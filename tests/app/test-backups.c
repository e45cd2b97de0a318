/* test-backups.c — archive sweeps, restores and the backup key, as a person goes through them.
 *
 * The real application on a store of the Claude Code and Codex fixtures, the harness's real
 * gnome-keyring and real folders: the Backups preferences create a backup key in the keyring
 * and show its recovery key; the sweep assistant (Ctrl+Alt+A) lists the old sessions, backs
 * the approved ones up into a folder, encrypted, and archives them, one of them failing for a
 * reason the summary gives; nothing eligible gives the empty state; a cancel, or Escape, stops
 * the sweep with no session archived without its backup; the swept sessions leave the main
 * list, and their details say where their backups are. A restore into a fresh store brings
 * every backup of a folder back, a second changes nothing, and backups of a key the keyring
 * does not hold are opened with the recovery key typed in (a typo caught by its checksum
 * first), which is then kept in the keyring. Run again on a session bus with no keyring
 * service (LOOM_TEST_EMPTY_BUS), the preferences say why there is no key and an encrypted
 * sweep fails closed. Screenshots of every page, light and dark, go to tests/app/screenshots/
 * in the build folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-application.h"
#include "loom-backup-key.h"
#include "loom-backup.h"
#include "loom-core.h"
#include "loom-import.h"
#include "loom-preferences-window.h"
#include "loom-restore-window.h"
#include "loom-session-details.h"
#include "loom-session.h"
#include "loom-store.h"
#include "loom-sweep-assistant.h"
#include "loom-sweep.h"
#include "loom-test-utils.h"
#include "loom-window.h"

#include "loom-ui-test.h"

#define WIDTH  560
#define HEIGHT 620

typedef struct _Fixture Fixture;
typedef void (*TestBody) (Fixture *fixture);

struct _Fixture
{
  char            *dir;
  char            *db_path;
  char            *dest; /* the backup folder: empty at the start */
  LoomApplication *app;
  LoomWindow      *window;
  TestBody         body;
};

static char *
fixture_path (const char *name)
{
  const char *srcdir = g_getenv ("LOOM_TEST_SRCDIR");

  g_assert_nonnull (srcdir);
  return g_build_filename (srcdir, "import", "fixtures", name, NULL);
}

static void
prepare_store (const char *db_path)
{
  g_autofree char  *claude = fixture_path ("claude");
  g_autofree char  *codex = fixture_path ("codex");
  const char       *paths[] = { claude, codex, NULL };
  LoomImportOptions options = { NULL, paths };
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;

  store = loom_store_open (db_path, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats->sessions_new, >, 5);
}

static void
fixture_set_up (Fixture      *fixture,
                gconstpointer user_data)
{
  g_autoptr (GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("loom-test-backups-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->db_path = g_build_filename (fixture->dir, "history.db", NULL);
  fixture->dest = g_build_filename (fixture->dir, "backups", NULL);
  g_assert_cmpint (g_mkdir (fixture->dest, 0700), ==, 0);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);
  prepare_store (fixture->db_path);
  loom_ui_test_prepare_settings (1280, 800);
}

static void
fixture_tear_down (Fixture      *fixture,
                   gconstpointer user_data)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  if (fixture->window != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->window));
  if (fixture->app != NULL)
    g_assert_finalize_object (g_steal_pointer (&fixture->app));

  g_settings_reset (settings, "backup-folder");
  g_settings_reset (settings, "encrypt-backups");
  g_settings_reset (settings, "keep-backups");
  g_settings_reset (settings, "archive-after-days");
  loom_ui_test_reset_settings ();
  g_unsetenv ("LOOM_DB");
  loom_test_remove_tree (fixture->dir);
  g_clear_pointer (&fixture->db_path, g_free);
  g_clear_pointer (&fixture->dest, g_free);
  g_clear_pointer (&fixture->dir, g_free);
}

static gboolean
run_body_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 2);
  fixture->body (fixture);
  return G_SOURCE_REMOVE;
}

static void
fixture_run (Fixture *fixture,
             TestBody body)
{
  fixture->app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  fixture->body = body;
  loom_ui_test_run_app (fixture->app, &fixture->window, run_body_cb, fixture);
}

/* ——— Helpers ——— */

#define NARROW_WIDTH 360

/* @name-light/-dark; the assistant windows also at their narrowest, @name-narrow-…. */
static void
save_screenshots (Fixture    *fixture,
                  GtkWidget  *widget,
                  const char *name)
{
  loom_ui_test_save_screenshots (fixture->app, widget, name);
  if (LOOM_IS_SWEEP_ASSISTANT (widget) || LOOM_IS_RESTORE_WINDOW (widget))
    {
      g_autofree char *narrow = g_strconcat (name, "-narrow", NULL);

      loom_ui_test_set_window_size (widget, NARROW_WIDTH, HEIGHT);
      loom_ui_test_save_screenshots (fixture->app, widget, narrow);
      loom_ui_test_set_window_size (widget, WIDTH, HEIGHT);
    }
}

typedef struct
{
  const char *heading;
} DialogWait;

static AdwMessageDialog *
find_dialog (const char *heading)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)) &&
          g_strcmp0 (adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (window)), heading) == 0)
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

static gboolean
dialog_is_open (gpointer data)
{
  return find_dialog (data) != NULL;
}

static AdwMessageDialog *
wait_for_dialog (const char *heading)
{
  AdwMessageDialog *dialog;

  g_assert_true (loom_ui_test_wait_until (dialog_is_open, (gpointer)heading));
  dialog = find_dialog (heading);
  loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
  return dialog;
}

static gboolean
dialog_is_gone (gpointer data)
{
  GtkWidget **dialog = data;

  return *dialog == NULL || !gtk_widget_get_visible (*dialog);
}

/* Clicks the button of @dialog labelled @label, as a person does, and waits until the dialog
 * is off the screen. */
static void
respond (AdwMessageDialog *dialog,
         const char       *label)
{
  g_autoptr (GtkWidget) held = g_object_ref (GTK_WIDGET (dialog));
  GtkWidget *button = loom_ui_test_find_visible_button_labelled (GTK_WIDGET (dialog), label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (loom_ui_test_wait_until (dialog_is_gone, &held));
}

/* The monospace label of a recovery key dialog: the recovery key, as written down (its line
 * breaks between groups read as the hyphens they stand for). */
static char *
recovery_text (AdwMessageDialog *dialog)
{
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (GTK_WIDGET (dialog), GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_has_css_class (labels->pdata[i], "monospace"))
      return g_strdelimit (g_strdup (gtk_label_get_text (labels->pdata[i])), "\n", '-');
  g_assert_not_reached ();
}

static AdwActionRow *
find_row (GtkWidget  *root,
          const char *title)
{
  g_autoptr (GPtrArray) rows = loom_ui_test_find_visible (root, ADW_TYPE_ACTION_ROW);

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (rows->pdata[i]), title) == 0)
      return rows->pdata[i];
  return NULL;
}

static gboolean
shows_label_prefix (GtkWidget  *root,
                    const char *prefix)
{
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    if (g_str_has_prefix (gtk_label_get_text (labels->pdata[i]), prefix))
      return TRUE;
  return FALSE;
}

static guint
count_entries (const char *dir,
               const char *suffix)
{
  g_autoptr (GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;
  guint       n = 0;

  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    if (suffix == NULL || g_str_has_suffix (name, suffix))
      n++;
  return n;
}

/* ——— The preferences: a real key in the keyring, and its recovery key ——— */

static gboolean
key_not_busy (gpointer data)
{
  return !loom_preferences_window_get_backup_key_busy (data);
}

static void
preferences_body (Fixture *fixture)
{
  GtkWindow        *prefs;
  AdwActionRow     *key_row;
  AdwActionRow     *folder_row;
  AdwMessageDialog *dialog;
  g_autofree char  *first = NULL;
  g_autofree char  *keyring_id = NULL;
  g_autoptr (LoomBackupKey) key = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (fixture->window), "app.preferences", NULL));
  prefs = loom_ui_test_find_toplevel (LOOM_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (prefs);
  g_assert_true (loom_ui_test_wait_until (key_not_busy, prefs));
  loom_ui_test_wait_for_frames (GTK_WIDGET (prefs), 2);

  /* Nothing yet: no key, no folder (never a silent default), encryption on. */
  key_row = find_row (GTK_WIDGET (prefs), "Backup Key");
  folder_row = find_row (GTK_WIDGET (prefs), "Backup _Folder");
  g_assert_nonnull (key_row);
  g_assert_nonnull (folder_row);
  g_assert_null (loom_preferences_window_get_backup_key_id (LOOM_PREFERENCES_WINDOW (prefs)));
  g_assert_cmpstr (adw_action_row_get_subtitle (key_row), ==, "No backup key yet");
  g_assert_cmpstr (adw_action_row_get_subtitle (folder_row), ==, "Not chosen");
  g_assert_true (g_settings_get_boolean (settings, "encrypt-backups"));
  /* Continuous backup is off until the person turns it on; its switch is the setting. */
  {
    AdwActionRow *keep_row = find_row (GTK_WIDGET (prefs), "_Keep Backups Up to Date");
    GtkWidget    *keep_switch;

    g_assert_nonnull (keep_row);
    g_assert_false (g_settings_get_boolean (settings, "keep-backups"));
    keep_switch = adw_action_row_get_activatable_widget (keep_row);
    gtk_switch_set_active (GTK_SWITCH (keep_switch), TRUE);
    g_assert_true (g_settings_get_boolean (settings, "keep-backups"));
    gtk_switch_set_active (GTK_SWITCH (keep_switch), FALSE);
    g_assert_false (g_settings_get_boolean (settings, "keep-backups"));
  }
  g_assert_nonnull (
    loom_ui_test_find_visible_button_labelled (GTK_WIDGET (prefs), "C_reate Backup Key…"));
  /* The Backups group is further down the page: its shot is of it scrolled into view. */
  gtk_widget_grab_focus (GTK_WIDGET (key_row));
  loom_ui_test_wait_for_frames (GTK_WIDGET (prefs), 3);
  save_screenshots (fixture, GTK_WIDGET (prefs), "backups-preferences-no-key");

  /* Created: in the keyring, and its recovery key shown once, which is that key. */
  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (prefs), "preferences.create-backup-key", NULL));
  dialog = wait_for_dialog ("Your Recovery Key");
  keyring_id = loom_backup_key_find_id (NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (keyring_id);
  first = recovery_text (dialog);
  key = loom_backup_key_new_from_recovery (first, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (loom_backup_key_get_id (key), ==, keyring_id);
  g_assert_nonnull (loom_ui_test_find_visible_button_labelled (GTK_WIDGET (dialog), "_Copy"));
  save_screenshots (fixture, GTK_WIDGET (dialog), "backups-recovery-key");
  respond (dialog, "I Have Written It _Down");

  g_assert_true (loom_ui_test_wait_until (key_not_busy, prefs));
  g_assert_cmpstr (loom_preferences_window_get_backup_key_id (LOOM_PREFERENCES_WINDOW (prefs)), ==,
                   keyring_id);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (key_row), keyring_id));
  g_assert_nonnull (
    loom_ui_test_find_visible_button_labelled (GTK_WIDGET (prefs), "Show Recovery _Key…"));

  /* A folder chosen is shown. */
  g_settings_set_string (settings, "backup-folder", fixture->dest);
  loom_ui_test_wait_for_frames (GTK_WIDGET (prefs), 2);
  g_assert_cmpstr (adw_action_row_get_subtitle (folder_row), ==, fixture->dest);
  save_screenshots (fixture, GTK_WIDGET (prefs), "backups-preferences-key");

  /* Shown again, after a confirmation: the same key. */
  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (prefs), "preferences.show-recovery-key", NULL));
  dialog = wait_for_dialog ("Show the Recovery Key?");
  save_screenshots (fixture, GTK_WIDGET (dialog), "backups-recovery-confirm");
  respond (dialog, "_Show");
  dialog = wait_for_dialog ("Your Recovery Key");
  {
    g_autofree char *again = recovery_text (dialog);

    g_assert_cmpstr (again, ==, first);
  }
  respond (dialog, "I Have Written It _Down");

  g_object_add_weak_pointer (G_OBJECT (prefs), (gpointer *)&prefs);
  gtk_window_close (prefs);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &prefs));
}

static void
test_preferences (Fixture      *fixture,
                  gconstpointer user_data)
{
  fixture_run (fixture, preferences_body);
}

/* ——— The sweep ——— */

static LoomSweepAssistant *
find_sweep (void)
{
  GtkWindow *window = loom_ui_test_find_toplevel (LOOM_TYPE_SWEEP_ASSISTANT);

  return window != NULL ? LOOM_SWEEP_ASSISTANT (window) : NULL;
}

static gboolean
sweep_is_open (gpointer data)
{
  return find_sweep () != NULL;
}

static LoomSweepAssistant *
open_sweep (Fixture *fixture)
{
  LoomSweepAssistant *assistant;

  g_assert_true (loom_ui_test_press_key (GTK_WIDGET (fixture->window), GDK_KEY_a,
                                         GDK_CONTROL_MASK | GDK_ALT_MASK));
  g_assert_true (loom_ui_test_wait_until (sweep_is_open, NULL));
  assistant = find_sweep ();
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (assistant)) ==
                 GTK_WINDOW (fixture->window));
  loom_ui_test_set_window_size (GTK_WIDGET (assistant), WIDTH, HEIGHT);
  g_assert_cmpstr (loom_sweep_assistant_get_page (assistant), ==, "threshold");
  return assistant;
}

static void
close_sweep (LoomSweepAssistant *assistant)
{
  g_object_add_weak_pointer (G_OBJECT (assistant), (gpointer *)&assistant);
  g_assert_true (loom_ui_test_press_key (GTK_WIDGET (assistant), GDK_KEY_Escape, 0));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &assistant));
}

static void
activate (GtkWidget  *widget,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (widget, action, NULL));
  loom_ui_test_wait_for_frames (widget, 2);
}

static gboolean
sweep_listed (gpointer data)
{
  return !loom_sweep_assistant_get_loading (data);
}

typedef struct
{
  LoomSweepAssistant *assistant;
  const char         *page;
} PageWait;

static gboolean
sweep_on_page (gpointer data)
{
  PageWait *wait = data;

  return g_strcmp0 (loom_sweep_assistant_get_page (wait->assistant), wait->page) == 0;
}

static void
wait_for_sweep_page (LoomSweepAssistant *assistant,
                     const char         *page)
{
  PageWait wait = { assistant, page };

  g_assert_true (loom_ui_test_wait_until (sweep_on_page, &wait));
  loom_ui_test_wait_for_frames (GTK_WIDGET (assistant), 2);
}

static gboolean
shows_first_session (gpointer data)
{
  return shows_label_prefix (data, "Session 1 of ");
}

/* Whether the main window's session list shows @uuid. */
static gboolean
list_shows (LoomWindow *window,
            const char *uuid)
{
  g_autoptr (GPtrArray) lists = loom_ui_test_find_visible (GTK_WIDGET (window), GTK_TYPE_LIST_VIEW);

  for (guint i = 0; i < lists->len; i++)
    {
      GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (lists->pdata[i]));

      for (guint j = 0; model != NULL && j < g_list_model_get_n_items (model); j++)
        {
          g_autoptr (GObject) item = g_list_model_get_item (model, j);

          if (LOOM_IS_SESSION (item) &&
              g_strcmp0 (loom_session_get_uuid (LOOM_SESSION (item)), uuid) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

typedef struct
{
  LoomWindow *window;
  const char *uuid;
} ListWait;

static gboolean
list_left (gpointer data)
{
  ListWait *wait = data;

  return !list_shows (wait->window, wait->uuid);
}

/* The uuids of the eligible sessions, as the store has them, oldest first. */
static GPtrArray *
eligible_ids (LoomWindow *window,
              guint       days)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) found = loom_sweep_find_eligible (loom_window_get_store (window), days,
                                                          g_get_real_time () / 1000, &error);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  g_assert_no_error (error);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (ids, g_strdup (((LoomSweepCandidate *)found->pdata[i])->session_id));
  return ids;
}

static LoomSession *
get_session (LoomWindow *window,
             const char *uuid)
{
  g_autoptr (GError) error = NULL;
  LoomSession *session = loom_store_get_session (loom_window_get_store (window), uuid, &error);

  g_assert_no_error (error);
  g_assert_nonnull (session);
  return session;
}

/* The names a backup may take: its own and 98 more (loom-backup-files.c). */
#define N_BLOCKERS 99

/* Every page, the sweep for real, encrypted: one session left out by the person, one failing
 * (a file of its backup's name is in the way), the others archived with verified backups. */
static void
sweep_body (Fixture *fixture)
{
  LoomSweepAssistant *assistant;
  GtkWidget          *widget;
  g_autoptr (GPtrArray) ids = eligible_ids (fixture->window, 30);
  const char       *kept, *blocked;
  g_autofree char  *blocker = NULL;
  guint             n_eligible;
  AdwMessageDialog *recovery;
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  g_assert_cmpuint (ids->len, >=, 4);
  kept = ids->pdata[0];
  blocked = ids->pdata[1];
  /* A backup never replaces a file: it takes the next free name, "<id> (2).loombackup" and
   * on; with every one of them taken, that session's backup fails. */
  blocker = g_strconcat (fixture->dest, "/", blocked, LOOM_BACKUP_SUFFIX, NULL);
  for (guint n = 1; n <= N_BLOCKERS; n++)
    {
      g_autofree char *name = n == 1 ? g_strdup (blocker)
                                     : g_strdup_printf ("%s/%s (%u)%s", fixture->dest, blocked, n,
                                                        LOOM_BACKUP_SUFFIX);

      g_assert_true (g_file_set_contents (name, "not a backup", -1, NULL));
    }

  /* In the main list, before. */
  for (guint i = 0; i < ids->len; i++)
    g_assert_true (list_shows (fixture->window, ids->pdata[i]));

  assistant = open_sweep (fixture);
  widget = GTK_WIDGET (assistant);

  /* a. The age: the preference's. */
  g_assert_cmpuint (loom_sweep_assistant_get_days (assistant), ==, 30);
  save_screenshots (fixture, widget, "sweep-threshold");
  g_assert_true (loom_ui_test_press_key (widget, GDK_KEY_Return, 0) ||
                 gtk_widget_activate_action (widget, "assistant.next", NULL));
  wait_for_sweep_page (assistant, "sessions");

  /* b. The eligible sessions, every one ticked; none, then all, then all but one. */
  g_assert_true (loom_ui_test_wait_until (sweep_listed, assistant));
  loom_ui_test_wait_for_frames (widget, 2);
  n_eligible = loom_sweep_assistant_get_n_eligible (assistant);
  g_assert_cmpuint (n_eligible, ==, ids->len);
  g_assert_cmpuint (loom_sweep_assistant_get_n_selected (assistant), ==, n_eligible);
  activate (widget, "assistant.select-none");
  g_assert_cmpuint (loom_sweep_assistant_get_n_selected (assistant), ==, 0);
  g_assert_false (
    gtk_widget_is_sensitive (loom_ui_test_find_visible_button_labelled (widget, "_Next")));
  activate (widget, "assistant.select-all");
  loom_sweep_assistant_set_selected (assistant, kept, FALSE);
  loom_ui_test_wait_for_frames (widget, 2);
  g_assert_cmpuint (loom_sweep_assistant_get_n_selected (assistant), ==, n_eligible - 1);
  {
    g_autofree char *total = g_strdup_printf ("%u sessions, %u selected", n_eligible,
                                              n_eligible - 1);

    g_assert_nonnull (loom_ui_test_find_visible_label (widget, total));
  }
  save_screenshots (fixture, widget, "sweep-sessions");
  activate (widget, "assistant.next");
  g_assert_cmpstr (loom_sweep_assistant_get_page (assistant), ==, "destination");

  /* c. No folder was chosen before: none is offered, and Archive waits for one. */
  g_assert_null (loom_sweep_assistant_get_destination (assistant));
  g_assert_true (loom_sweep_assistant_get_encrypt (assistant));
  g_assert_false (
    gtk_widget_is_sensitive (loom_ui_test_find_visible_button_labelled (widget, "_Archive")));
  save_screenshots (fixture, widget, "sweep-destination-none");
  loom_sweep_assistant_set_destination (assistant, fixture->dest);
  {
    /* Remember This Folder, then Encrypt, in the page's order. */
    g_autoptr (GPtrArray) switches = loom_ui_test_find_visible (widget, GTK_TYPE_SWITCH);

    g_assert_cmpuint (switches->len, ==, 2);
    g_assert_false (gtk_switch_get_active (switches->pdata[0]));
    gtk_switch_set_active (switches->pdata[0], TRUE);
  }
  save_screenshots (fixture, widget, "sweep-destination");

  /* d. The progress, held at the first report. */
  loom_sweep_assistant_hold_sweep (assistant, "backup");
  activate (widget, "assistant.archive");
  g_assert_true (loom_sweep_assistant_get_running (assistant));
  /* A key made by this sweep shows its recovery key once. */
  if (loom_ui_test_wait_until (shows_first_session, assistant) &&
      (recovery = find_dialog ("Your Recovery Key")) != NULL)
    respond (recovery, "I Have Written It _Down");
  g_assert_true (loom_ui_test_wait_until (shows_first_session, assistant));
  save_screenshots (fixture, widget, "sweep-progress");
  loom_sweep_assistant_hold_sweep (assistant, NULL);

  /* e. The summary. */
  wait_for_sweep_page (assistant, "summary");
  g_assert_false (loom_sweep_assistant_get_running (assistant));
  save_screenshots (fixture, widget, "sweep-summary");
  {
    g_autofree char *title = g_strdup_printf ("1 Session Could Not Be Archived");

    g_assert_nonnull (loom_ui_test_find_visible_label (widget, title));
  }
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Archived"));
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Backups Written"));
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Not Archived"));
  g_assert_nonnull (loom_ui_test_find_visible_button_labelled (widget, "_Open Folder"));

  /* On disk: one encrypted backup per archived session, and the blockers untouched. */
  g_assert_cmpuint (count_entries (fixture->dest, LOOM_BACKUP_SUFFIX), ==,
                    N_BLOCKERS + n_eligible - 2);
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (blocker, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "not a backup");
  }
  /* In the store: archived with the backup's path; the unticked one and the failed one not. */
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (LoomSession) session = get_session (fixture->window, ids->pdata[i]);
      gboolean swept = i >= 2;

      g_assert_cmpint (loom_session_get_archived (session), ==, swept);
      if (swept)
        {
          g_autofree char *expected = g_strconcat (fixture->dest, "/", (char *)ids->pdata[i],
                                                   LOOM_BACKUP_SUFFIX, NULL);

          g_assert_cmpstr (loom_session_get_backup_path (session), ==, expected);
          g_assert_true (g_file_test (expected, G_FILE_TEST_IS_REGULAR));
        }
    }
  {
    g_autofree char *saved = g_settings_get_string (settings, "backup-folder");

    g_assert_cmpstr (saved, ==, fixture->dest);
  }
  close_sweep (assistant);

  /* The details of a swept session say where its backup is; those of the unticked one do
   * not. */
  {
    g_autoptr (GtkWidget) details_window = g_object_ref_sink (adw_window_new ());
    LoomSessionDetails *details = LOOM_SESSION_DETAILS (loom_session_details_new ());
    g_autoptr (LoomSession) swept = get_session (fixture->window, ids->pdata[2]);
    g_autoptr (LoomSession) unticked = get_session (fixture->window, kept);

    gtk_window_set_default_size (GTK_WINDOW (details_window), 400, 900);
    adw_window_set_content (ADW_WINDOW (details_window), GTK_WIDGET (details));
    gtk_window_present (GTK_WINDOW (details_window));
    loom_session_details_set_session (details, loom_window_get_store (fixture->window), swept);
    loom_ui_test_wait_for_frames (details_window, 3);
    g_assert_cmpstr (loom_session_details_get_value (details, "Backup"), ==,
                     loom_session_get_backup_path (swept));
    g_assert_nonnull (loom_ui_test_find_visible_button (details_window, "folder-open-symbolic"));
    {
      /* The row is in the Organisation group, below the fold: scrolled to for its shot. */
      GtkWidget     *value = loom_ui_test_find_visible_label (details_window,
                                                              loom_session_get_backup_path (swept));
      GtkWidget     *scrolled = gtk_widget_get_ancestor (value, GTK_TYPE_SCROLLED_WINDOW);
      GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (
        GTK_SCROLLED_WINDOW (scrolled));
      graphene_point_t point;

      g_assert_true (gtk_widget_compute_point (
        value, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
        &GRAPHENE_POINT_INIT (0, 0), &point));
      gtk_adjustment_set_value (adjustment, point.y - 300);
      loom_ui_test_wait_for_frames (details_window, 3);
    }
    save_screenshots (fixture, details_window, "sweep-session-details");
    loom_session_details_set_session (details, loom_window_get_store (fixture->window), unticked);
    loom_ui_test_wait_for_frames (details_window, 3);
    g_assert_null (loom_session_details_get_value (details, "Backup"));
    gtk_window_destroy (GTK_WINDOW (details_window));
  }

  /* The main list reloaded: what was archived left it, the two others stay; a second look
   * finds only those two. */
  for (guint i = 0; i < ids->len; i++)
    {
      ListWait wait = { fixture->window, ids->pdata[i] };

      if (i >= 2)
        g_assert_true (loom_ui_test_wait_until (list_left, &wait));
      else
        g_assert_true (list_shows (fixture->window, ids->pdata[i]));
    }
  {
    g_autoptr (GPtrArray) left = eligible_ids (fixture->window, 30);

    g_assert_cmpuint (left->len, ==, 2);
  }
}

static void
test_sweep (Fixture      *fixture,
            gconstpointer user_data)
{
  fixture_run (fixture, sweep_body);
}

/* Nothing old enough: the empty state says so, and nothing can be archived. */
static void
sweep_empty_body (Fixture *fixture)
{
  LoomSweepAssistant *assistant = open_sweep (fixture);
  GtkWidget          *widget = GTK_WIDGET (assistant);

  loom_sweep_assistant_set_days (assistant, 3650);
  activate (widget, "assistant.next");
  g_assert_true (loom_ui_test_wait_until (sweep_listed, assistant));
  loom_ui_test_wait_for_frames (widget, 2);
  g_assert_cmpuint (loom_sweep_assistant_get_n_eligible (assistant), ==, 0);
  g_assert_nonnull (loom_ui_test_find_visible_label (
    widget, "No sessions older than 3650 days. Nothing to archive."));
  g_assert_false (
    gtk_widget_is_sensitive (loom_ui_test_find_visible_button_labelled (widget, "_Next")));
  save_screenshots (fixture, widget, "sweep-empty");
  close_sweep (assistant);
}

static void
test_sweep_empty (Fixture      *fixture,
                  gconstpointer user_data)
{
  fixture_run (fixture, sweep_empty_body);
}

/* A cancel while the first backup is written: the sweep stops, the assistant says so, and no
 * session is archived without its backup. */
static void
sweep_cancel_body (Fixture *fixture)
{
  LoomSweepAssistant *assistant = open_sweep (fixture);
  GtkWidget          *widget = GTK_WIDGET (assistant);
  g_autoptr (GPtrArray) ids = eligible_ids (fixture->window, 30);
  guint n_archived = 0;

  activate (widget, "assistant.next");
  g_assert_true (loom_ui_test_wait_until (sweep_listed, assistant));
  activate (widget, "assistant.next");
  loom_sweep_assistant_set_destination (assistant, fixture->dest);
  loom_sweep_assistant_set_encrypt (assistant, FALSE);
  loom_sweep_assistant_hold_sweep (assistant, "backup");
  activate (widget, "assistant.archive");
  g_assert_true (loom_ui_test_wait_until (shows_first_session, assistant));
  activate (widget, "assistant.cancel");
  wait_for_sweep_page (assistant, "summary");
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Sweep Cancelled"));
  save_screenshots (fixture, widget, "sweep-cancelled");

  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (LoomSession) session = get_session (fixture->window, ids->pdata[i]);

      if (loom_session_get_archived (session))
        {
          n_archived++;
          g_assert_nonnull (loom_session_get_backup_path (session));
          g_assert_true (g_file_test (loom_session_get_backup_path (session), G_FILE_TEST_EXISTS));
        }
    }
  g_assert_cmpuint (n_archived, <, ids->len);
  close_sweep (assistant);
}

static void
test_sweep_cancel (Fixture      *fixture,
                   gconstpointer user_data)
{
  fixture_run (fixture, sweep_cancel_body);
}

/* Escape while a backup is being written: the sweep is cancelled, the window goes once the
 * core has stopped, and every session archived has its backup. */
static void
sweep_escape_body (Fixture *fixture)
{
  LoomSweepAssistant *assistant = open_sweep (fixture);
  GtkWidget          *widget = GTK_WIDGET (assistant);
  g_autoptr (GPtrArray) ids = eligible_ids (fixture->window, 30);
  guint n_archived = 0;

  activate (widget, "assistant.next");
  g_assert_true (loom_ui_test_wait_until (sweep_listed, assistant));
  activate (widget, "assistant.next");
  loom_sweep_assistant_set_destination (assistant, fixture->dest);
  loom_sweep_assistant_set_encrypt (assistant, FALSE);
  loom_sweep_assistant_hold_sweep (assistant, "backup");
  activate (widget, "assistant.archive");
  g_assert_true (loom_ui_test_wait_until (shows_first_session, assistant));
  g_assert_true (loom_sweep_assistant_get_running (assistant));
  close_sweep (assistant);

  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (LoomSession) session = get_session (fixture->window, ids->pdata[i]);

      if (loom_session_get_archived (session))
        {
          n_archived++;
          g_assert_true (g_file_test (loom_session_get_backup_path (session), G_FILE_TEST_EXISTS));
        }
    }
  g_assert_cmpuint (n_archived, <, ids->len);
}

static void
test_sweep_escape (Fixture      *fixture,
                   gconstpointer user_data)
{
  fixture_run (fixture, sweep_escape_body);
}

/* ——— Restore ——— */

/* Backups of every session of a second store made from the fixtures, in @dir: plain, or
 * encrypted with @key. Returns how many; @ids (may be NULL) gets their sessions' uuids. */
static guint
write_backups (Fixture             *fixture,
               const char          *dir,
               const LoomBackupKey *key,
               GPtrArray           *ids)
{
  g_autofree char *other = g_build_filename (fixture->dir, key != NULL ? "b.db" : "a.db", NULL);
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) found = NULL;
  LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;

  prepare_store (other);
  store = loom_store_open (other, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  found = loom_sweep_find_eligible (store, 1, g_get_real_time () / 1000, &error);
  g_assert_no_error (error);
  options.key = key;
  for (guint i = 0; i < found->len; i++)
    {
      g_autoptr (LoomBackupResult) result = NULL;

      g_assert_true (loom_backup_session (store,
                                          ((LoomSweepCandidate *)found->pdata[i])->session_id, dir,
                                          &options, &result, NULL, &error));
      g_assert_no_error (error);
    }
  return found->len;
}

typedef struct
{
  LoomRestoreWindow *window;
  const char        *page;
} RestoreWait;

static gboolean
restore_on_page (gpointer data)
{
  RestoreWait *wait = data;

  return g_strcmp0 (loom_restore_window_get_page (wait->window), wait->page) == 0 &&
         !loom_restore_window_get_running (wait->window);
}

static gboolean
shows_first_backup (gpointer data)
{
  return shows_label_prefix (data, "Backup 1 of ");
}

/* Restores @path as choosing it after Restore from Backup… does; @fixture's screenshots of
 * the progress, held at the first backup, when @progress_shot is not NULL. */
static LoomRestoreWindow *
restore_shot (Fixture    *fixture,
              const char *path,
              const char *progress_shot)
{
  const char        *paths[] = { path, NULL };
  LoomRestoreWindow *window;
  RestoreWait        wait = { NULL, "summary" };

  loom_window_restore_backups (fixture->window, paths);
  window = LOOM_RESTORE_WINDOW (loom_ui_test_find_toplevel (LOOM_TYPE_RESTORE_WINDOW));
  g_assert_nonnull (window);
  if (progress_shot != NULL)
    {
      loom_restore_window_hold (window, TRUE);
      loom_ui_test_set_window_size (GTK_WIDGET (window), WIDTH, HEIGHT);
      g_assert_true (loom_ui_test_wait_until (shows_first_backup, window));
      g_assert_cmpstr (loom_restore_window_get_page (window), ==, "progress");
      g_assert_true (loom_restore_window_get_running (window));
      save_screenshots (fixture, GTK_WIDGET (window), progress_shot);
      loom_restore_window_hold (window, FALSE);
    }
  loom_ui_test_set_window_size (GTK_WIDGET (window), WIDTH, HEIGHT);
  wait.window = window;
  if (!loom_restore_window_get_asking (window))
    g_assert_true (loom_ui_test_wait_until (restore_on_page, &wait) ||
                   loom_restore_window_get_asking (window));
  return window;
}

static LoomRestoreWindow *
restore (Fixture    *fixture,
         const char *path)
{
  return restore_shot (fixture, path, NULL);
}

static void
close_restore (LoomRestoreWindow *window)
{
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *)&window);
  g_assert_true (loom_ui_test_press_key (GTK_WIDGET (window), GDK_KEY_Escape, 0));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &window));
}

static gboolean
restore_done (gpointer data)
{
  RestoreWait wait = { data, "summary" };

  return restore_on_page (&wait);
}

/* A folder of plain packages into a fresh store; then again, which changes nothing. */
static void
restore_body (Fixture *fixture)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "plain", NULL);
  g_autoptr (GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  guint              n = write_backups (fixture, dir, NULL, ids);
  LoomRestoreWindow *window;

  g_assert_cmpuint (n, >, 3);
  window = restore_shot (fixture, dir, "restore-progress");
  g_assert_true (loom_ui_test_wait_until (restore_done, window));
  loom_ui_test_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (loom_restore_window_get_n_restored (window), ==, n);
  g_assert_cmpuint (loom_restore_window_get_n_failed (window), ==, 0);
  {
    g_autofree char *title = g_strdup_printf ("%u Sessions Restored", n);

    g_assert_nonnull (loom_ui_test_find_visible_label (GTK_WIDGET (window), title));
  }
  save_screenshots (fixture, GTK_WIDGET (window), "restore-summary");
  close_restore (window);

  /* The main window, empty before, lists what came back. */
  for (guint i = 0; i < ids->len; i++)
    {
      ListWait wait = { fixture->window, ids->pdata[i] };

      g_assert_false (list_left (&wait));
    }

  window = restore (fixture, dir);
  g_assert_true (loom_ui_test_wait_until (restore_done, window));
  loom_ui_test_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (loom_restore_window_get_n_restored (window), ==, 0);
  g_assert_cmpuint (loom_restore_window_get_n_unchanged (window), ==, n);
  g_assert_nonnull (
    loom_ui_test_find_visible_label (GTK_WIDGET (window), "Everything Was Here Already"));
  save_screenshots (fixture, GTK_WIDGET (window), "restore-unchanged");
  close_restore (window);
}

/* The application opens a store of its own, empty: what a new computer has. */
static void
use_fresh_store (Fixture *fixture)
{
  g_free (fixture->db_path);
  fixture->db_path = g_build_filename (fixture->dir, "fresh.db", NULL);
  g_setenv ("LOOM_DB", fixture->db_path, TRUE);
}

static void
test_restore (Fixture      *fixture,
              gconstpointer user_data)
{
  use_fresh_store (fixture);
  fixture_run (fixture, restore_body);
}

static gboolean
restore_asking (gpointer data)
{
  return loom_restore_window_get_asking (data);
}

static GtkEntry *
dialog_entry (AdwMessageDialog *dialog)
{
  g_autoptr (GPtrArray) entries = loom_ui_test_find_visible (GTK_WIDGET (dialog), GTK_TYPE_ENTRY);

  g_assert_cmpuint (entries->len, ==, 1);
  return entries->pdata[0];
}

/* Backups of a key that is not in the keyring: the recovery key is asked for; a typo is caught
 * by its checksum before anything is tried; the right one restores them all, and is kept. */
static void
restore_recovery_body (Fixture *fixture)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "encrypted", NULL);
  g_autoptr (LoomBackupKey) key = loom_backup_key_generate ();
  char              *text = loom_backup_key_dup_recovery (key);
  g_autofree char   *typo = g_strdup (text);
  guint              n = write_backups (fixture, dir, key, NULL);
  LoomRestoreWindow *window;
  AdwMessageDialog  *dialog;
  GtkEntry          *entry;
  g_autoptr (LoomBackupKey) kept = NULL;
  g_autoptr (GError) error = NULL;

  /* One character changed to another of the alphabet. */
  typo[0] = typo[0] == 'A' ? 'B' : 'A';

  window = restore (fixture, dir);
  g_assert_true (loom_ui_test_wait_until (restore_asking, window));
  dialog = wait_for_dialog ("Recovery Key Needed");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), loom_backup_key_get_id (key)));
  entry = dialog_entry (dialog);
  gtk_editable_set_text (GTK_EDITABLE (entry), typo);
  loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
  g_assert_false (adw_message_dialog_get_response_enabled (dialog, "use"));
  {
    g_autoptr (LoomBackupKey) wrong = loom_backup_key_new_from_recovery (typo, &error);

    g_assert_null (wrong);
    g_assert_nonnull (error);
    g_assert_nonnull (loom_ui_test_find_visible_label (GTK_WIDGET (dialog), error->message));
    g_clear_error (&error);
  }
  save_screenshots (fixture, GTK_WIDGET (dialog), "restore-recovery-typo");
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  loom_backup_key_free_text (text);
  loom_ui_test_wait_for_frames (GTK_WIDGET (dialog), 2);
  g_assert_true (adw_message_dialog_get_response_enabled (dialog, "use"));
  save_screenshots (fixture, GTK_WIDGET (dialog), "restore-recovery");
  respond (dialog, "_Restore");

  g_assert_true (loom_ui_test_wait_until (restore_done, window));
  loom_ui_test_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (loom_restore_window_get_n_restored (window), ==, n);
  g_assert_cmpuint (loom_restore_window_get_n_failed (window), ==, 0);
  save_screenshots (fixture, GTK_WIDGET (window), "restore-recovered");
  close_restore (window);

  /* Kept in the keyring: the next restore needs no recovery key. */
  kept = loom_backup_key_load (loom_backup_key_get_id (key), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (kept);
}

static void
test_restore_recovery (Fixture      *fixture,
                       gconstpointer user_data)
{
  use_fresh_store (fixture);
  fixture_run (fixture, restore_recovery_body);
}

static gboolean
file_chooser_is_open (gpointer data)
{
  return loom_ui_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG) != NULL;
}

/* One .loombackup file, as picked after Restore from Backup Files…: the chooser is asked for
 * files (several, .loombackup), and the file alone restores its session with the keyring's
 * key. The native chooser falls back to GTK's own dialog here (no portal on the bus), whose
 * choices are looked at, then cancelled; a file cannot be picked in it headless, so the
 * restore is started as its answer would: through loom_window_restore_backups (). */
static void
restore_file_body (Fixture *fixture)
{
  g_autofree char *dir = g_build_filename (fixture->dir, "usb-stick", NULL);
  g_autoptr (LoomBackupKey) key = NULL;
  g_autofree char *uuid = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char   *name = NULL;
  g_autofree char   *path = NULL;
  LoomRestoreWindow *window;
  GtkWindow         *chooser;
  gboolean           created = FALSE;
  guint              n;

  key = loom_backup_key_load_or_create (&created, NULL, &error);
  g_assert_no_error (error);
  n = write_backups (fixture, dir, key, NULL);
  g_assert_cmpuint (n, >, 1);

  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.restore-backup-files", NULL));
  g_assert_true (loom_ui_test_wait_until (file_chooser_is_open, NULL));
  chooser = loom_ui_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)), ==,
                   GTK_FILE_CHOOSER_ACTION_OPEN);
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (chooser)));
  g_assert_cmpstr (
    gtk_file_filter_get_name (gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser))), ==,
    "Encrypted Backups");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  loom_ui_test_wait_for_frames (GTK_WIDGET (fixture->window), 2);
  g_assert_null (loom_ui_test_find_toplevel (LOOM_TYPE_RESTORE_WINDOW));

  {
    g_autoptr (GDir) handle = g_dir_open (dir, 0, &error);

    g_assert_no_error (error);
    name = g_strdup (g_dir_read_name (handle));
  }
  g_assert_true (g_str_has_suffix (name, LOOM_BACKUP_SUFFIX));
  uuid = g_strndup (name, strlen (name) - strlen (LOOM_BACKUP_SUFFIX));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  window = restore (fixture, path);
  g_assert_true (loom_ui_test_wait_until (restore_done, window));
  loom_ui_test_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (loom_restore_window_get_n_restored (window), ==, 1);
  g_assert_cmpuint (loom_restore_window_get_n_failed (window), ==, 0);
  save_screenshots (fixture, GTK_WIDGET (window), "restore-one-file");
  close_restore (window);
  {
    ListWait wait = { fixture->window, uuid };

    g_assert_false (list_left (&wait));
  }
}

static void
test_restore_file (Fixture      *fixture,
                   gconstpointer user_data)
{
  use_fresh_store (fixture);
  fixture_run (fixture, restore_file_body);
}

/* ——— Without a keyring service ——— */

/* The preferences say the keyring could not be asked, and why, rather than "No backup key
 * yet", which would offer to make a key where it cannot be kept. */
static void
no_keyring_preferences_body (Fixture *fixture)
{
  GtkWindow    *prefs;
  AdwActionRow *key_row;

  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (fixture->window), "app.preferences", NULL));
  prefs = loom_ui_test_find_toplevel (LOOM_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (prefs);
  g_assert_true (loom_ui_test_wait_until (key_not_busy, prefs));
  loom_ui_test_wait_for_frames (GTK_WIDGET (prefs), 2);
  key_row = find_row (GTK_WIDGET (prefs), "Backup Key");
  g_test_message ("backup key row: %s", adw_action_row_get_subtitle (key_row));
  g_assert_null (loom_preferences_window_get_backup_key_id (LOOM_PREFERENCES_WINDOW (prefs)));
  /* The core's message, which says what to do. */
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (key_row), "keyring"));
  g_assert_null (
    loom_ui_test_find_visible_button_labelled (GTK_WIDGET (prefs), "C_reate Backup Key…"));
  g_assert_null (
    loom_ui_test_find_visible_button_labelled (GTK_WIDGET (prefs), "Show Recovery _Key…"));
  /* Asked again, the same answer. */
  g_assert_nonnull (loom_ui_test_find_visible_button_labelled (GTK_WIDGET (prefs), "_Try Again"));
  g_assert_true (
    gtk_widget_activate_action (GTK_WIDGET (prefs), "preferences.refresh-backup-key", NULL));
  g_assert_true (loom_ui_test_wait_until (key_not_busy, prefs));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (key_row), "keyring"));
  gtk_widget_grab_focus (GTK_WIDGET (key_row));
  loom_ui_test_wait_for_frames (GTK_WIDGET (prefs), 3);
  save_screenshots (fixture, GTK_WIDGET (prefs), "backups-preferences-no-keyring");

  g_object_add_weak_pointer (G_OBJECT (prefs), (gpointer *)&prefs);
  gtk_window_close (prefs);
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_null, &prefs));
}

static void
test_no_keyring_preferences (Fixture      *fixture,
                             gconstpointer user_data)
{
  fixture_run (fixture, no_keyring_preferences_body);
}

/* An encrypted sweep fails closed: it says why, writes nothing and archives nothing. */
static void
no_keyring_sweep_body (Fixture *fixture)
{
  LoomSweepAssistant *assistant = open_sweep (fixture);
  GtkWidget          *widget = GTK_WIDGET (assistant);
  g_autoptr (GPtrArray) ids = eligible_ids (fixture->window, 30);

  activate (widget, "assistant.next");
  g_assert_true (loom_ui_test_wait_until (sweep_listed, assistant));
  activate (widget, "assistant.next");
  loom_sweep_assistant_set_destination (assistant, fixture->dest);
  g_assert_true (loom_sweep_assistant_get_encrypt (assistant));
  activate (widget, "assistant.archive");
  wait_for_sweep_page (assistant, "summary");
  g_assert_nonnull (loom_ui_test_find_visible_label (widget, "Nothing Was Archived"));
  save_screenshots (fixture, widget, "sweep-no-keyring");

  g_assert_cmpuint (count_entries (fixture->dest, NULL), ==, 0);
  for (guint i = 0; i < ids->len; i++)
    {
      g_autoptr (LoomSession) session = get_session (fixture->window, ids->pdata[i]);

      g_assert_false (loom_session_get_archived (session));
    }
  close_sweep (assistant);
}

static void
test_no_keyring_sweep (Fixture      *fixture,
                       gconstpointer user_data)
{
  fixture_run (fixture, no_keyring_sweep_body);
}

/* A session bus of our own on which nothing runs and nothing can be started (its
 * configuration names no folder of services): no keyring daemon can answer, nor be started by
 * activation. Returns the daemon; *@address is where it listens. */
static GSubprocess *
start_empty_bus (const char *dir,
                 char      **address)
{
  g_autofree char *config_path = g_build_filename (dir, "empty-bus.conf", NULL);
  g_autofree char *config = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GDataInputStream) lines = NULL;
  GSubprocess *daemon;

  config = g_strdup_printf (
    "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
    " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
    "<busconfig>\n"
    "  <type>session</type>\n"
    "  <listen>unix:tmpdir=%s</listen>\n"
    "  <policy context=\"default\">\n"
    "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
    "    <allow eavesdrop=\"true\"/>\n"
    "    <allow own=\"*\"/>\n"
    "  </policy>\n"
    "</busconfig>\n",
    dir);
  g_assert_true (g_file_set_contents (config_path, config, -1, &error));
  daemon = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "dbus-daemon", "--config-file",
                             config_path, "--nofork", "--nopidfile", "--print-address=1", NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (daemon));
  *address = g_data_input_stream_read_line (lines, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*address);
  return daemon;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr (GSubprocess) empty_bus = NULL;
  g_autofree char *bus_dir = NULL;
  int              status;

  /* Run again by the backups-no-keyring test: on a bus of its own, before anything connects
   * to the harness's, for the fail-closed cases. */
  if (g_getenv ("LOOM_TEST_EMPTY_BUS") != NULL)
    {
      g_autofree char *address = NULL;

      /* Directly in /tmp: the harness's TMPDIR makes a socket path longer than a socket
       * address may be. */
      bus_dir = g_mkdtemp (g_strdup ("/tmp/loom-bus-XXXXXX"));
      g_assert_nonnull (bus_dir);
      empty_bus = start_empty_bus (bus_dir, &address);
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", address, TRUE);
      /* Nor is the accessibility bus on it. */
      g_setenv ("GTK_A11Y", "none", TRUE);
    }

  loom_core_init ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  if (empty_bus != NULL)
    {
      ADD ("/backups/no-keyring/preferences", test_no_keyring_preferences);
      ADD ("/backups/no-keyring/sweep", test_no_keyring_sweep);
      status = g_test_run ();
      g_subprocess_force_exit (empty_bus);
      g_subprocess_wait (empty_bus, NULL, NULL);
      loom_test_remove_tree (bus_dir);
      return status;
    }

  ADD ("/backups/preferences", test_preferences);
  ADD ("/backups/sweep", test_sweep);
  ADD ("/backups/sweep-empty", test_sweep_empty);
  ADD ("/backups/sweep-cancel", test_sweep_cancel);
  ADD ("/backups/sweep-escape", test_sweep_escape);
  ADD ("/backups/restore", test_restore);
  ADD ("/backups/restore-recovery", test_restore_recovery);
  ADD ("/backups/restore-file", test_restore_file);

#undef ADD

  return g_test_run ();
}
