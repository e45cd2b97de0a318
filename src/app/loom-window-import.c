/* loom-window-import.c — imports as the window shows them: the background imports of the source
 * watcher, and the imports the user asks for (a folder, a package, the sample history).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "loom-import.h"
#include "loom-package-import.h"
#include "loom-import-problems-window.h"
#include "loom-search-results.h"
#include "loom-window-private.h"

/* A pass that ends within this time shows no progress at all: most live passes take a few
 * milliseconds, and a bar flashing at every change would only distract. */
#define PROGRESS_DELAY_MSEC 500
#define PULSE_MSEC          150
/* While a long import runs, the list is read again this often, to show the sessions it brings
 * as it commits them (every half second or so). A session an agent writes meanwhile is shown
 * as soon as it is in ("changes-imported"). */
#define LIVE_RELOAD_MSEC    700

/* The sample history is compiled into the application (loom-samples.gresource.xml), so that it
 * is there however the application was installed, or not installed at all. */
#define SAMPLES_RESOURCE "/org/intentloom/History/samples"

/* ——— Progress ——— */

static gboolean
pulse_cb (gpointer user_data)
{
  LoomWindow *self = user_data;

  gtk_progress_bar_pulse (self->empty_progress);
  gtk_progress_bar_pulse (self->list_progress);
  return G_SOURCE_CONTINUE;
}

static gboolean
live_reload_cb (gpointer user_data)
{
  loom_window_reload_following_import (LOOM_WINDOW (user_data));
  return G_SOURCE_CONTINUE;
}

void
loom_window_update_progress (LoomWindow *self)
{
  gboolean shown;
  double   fraction = 0.0;

  g_assert (LOOM_IS_WINDOW (self));

  shown = self->progress_shown || self->user_import_running;

  /* The list follows a long import instead of waiting for its end: the sessions it brings show
   * as they come. */
  if (shown && self->live_reload_id == 0)
    self->live_reload_id = g_timeout_add (LIVE_RELOAD_MSEC, live_reload_cb, self);
  else if (!shown)
    g_clear_handle_id (&self->live_reload_id, g_source_remove);

  /* An import the user asked for reports no progress of its own: its bar pulses. */
  if (self->watcher != NULL && !self->user_import_running)
    fraction = loom_source_watcher_get_progress (self->watcher);

  gtk_widget_set_visible (GTK_WIDGET (self->empty_progress), shown);
  gtk_widget_set_visible (GTK_WIDGET (self->list_progress), shown);

  /* Progress is counted in whole files: until the first one is done (a single big file, say),
   * the bar pulses to show that something is going on. */
  if (shown && fraction <= 0.0)
    {
      if (self->pulse_id == 0)
        self->pulse_id = g_timeout_add (PULSE_MSEC, pulse_cb, self);
      return;
    }

  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_progress_bar_set_fraction (self->empty_progress, fraction);
  gtk_progress_bar_set_fraction (self->list_progress, fraction);
}

/* A Details button on @toast, for the problems it tells of. */
static void
offer_problems (AdwToast *toast)
{
  adw_toast_set_button_label (toast, _ ("_Details"));
  adw_toast_set_action_name (toast, "win.show-import-problems");
}

/* What an import did (a whole sentence), and how many problems it had. */
static char *
with_problems (const char *result,
               guint       n_problems)
{
  /* Translators: %s says what was imported (a whole sentence), %'u how many problems (bad
   * records, each named in the details) it had. */
  return g_strdup_printf (ngettext ("%s, with %'u problem", "%s, with %'u problems", n_problems),
                          result, n_problems);
}

/* ——— Background imports ——— */

static gboolean progress_at_once;

/* For tests: what a long pass shows cannot be tested by making a pass last longer than the
 * delay, which no size of pass does on every machine (nor a wait for the delay, on a busy one).
 * With @at_once, every pass shows its progress from its start. */
void
loom_window_set_progress_at_once (gboolean at_once)
{
  progress_at_once = at_once;
}

static gboolean
progress_delay_cb (gpointer user_data)
{
  LoomWindow *self = user_data;

  self->progress_delay_id = 0;
  self->progress_shown = TRUE;
  loom_window_update_progress (self);
  return G_SOURCE_REMOVE;
}

static void
on_importing_changed_cb (LoomWindow        *self,
                         GParamSpec        *pspec,
                         LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  if (loom_source_watcher_get_importing (watcher))
    {
      self->long_import = FALSE;
      if (progress_at_once && !self->progress_shown)
        progress_delay_cb (self);
      else if (self->progress_delay_id == 0 && !self->progress_shown)
        self->progress_delay_id = g_timeout_add (PROGRESS_DELAY_MSEC, progress_delay_cb, self);
      return;
    }

  g_clear_handle_id (&self->progress_delay_id, g_source_remove);
  /* "imported" follows: a pass the user saw going gets a word on how it ended. */
  self->long_import = self->progress_shown;
  self->progress_shown = FALSE;
  loom_window_update_progress (self);
}

static void
on_progress_changed_cb (LoomWindow        *self,
                        GParamSpec        *pspec,
                        LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  if (!self->progress_shown)
    return;
  loom_window_update_progress (self);

  /* A long import commits what it read every half second or so: search results shown
   * meanwhile follow it (at most once a second, see loom-search-results.c), as the list does
   * (live_reload_cb ()). */
  if (loom_session_list_get_searching (self->session_list))
    loom_search_results_refresh (
      LOOM_SEARCH_RESULTS (loom_session_list_get_search_results (self->session_list)));
}

static void
on_imported_cb (LoomWindow            *self,
                const LoomImportStats *stats,
                LoomSourceWatcher     *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  g_clear_pointer (&self->last_import_error, g_free);

  /* Most passes find nothing new: the list is read again only when the store changed. */
  if (stats->sessions_touched > 0 || stats->sessions_missing > 0)
    loom_window_reload (self);

  if (self->long_import && stats->sessions_new > 0)
    {
      g_autofree char *title = NULL;

      title = g_strdup_printf (
        ngettext ("Imported %'u new session", "Imported %'u new sessions", stats->sessions_new),
        stats->sessions_new);
      /* The pass's problems were listed just before (the application hears of the pass
       * first): one toast tells of both, and keeps its Details. */
      if (self->problems_toast != NULL)
        {
          g_autofree char *both = with_problems (title, self->n_problems_toasted);

          adw_toast_set_title (self->problems_toast, both);
          g_free (self->problems_toast_result);
          self->problems_toast_result = g_steal_pointer (&title);
        }
      else
        loom_window_add_toast (self, adw_toast_new (title));
    }
  self->long_import = FALSE;
}

/* A session an agent wrote during a long pass was imported while the pass runs: the list
 * shows it now, not at the next reload. */
static void
on_changes_imported_cb (LoomWindow        *self,
                        LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  loom_window_reload_following_import (self);
}

static void
on_import_failed_cb (LoomWindow        *self,
                     const GError      *error,
                     LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));

  self->long_import = FALSE;

  /* Every change would fail the same way again: say it once, until a pass succeeds. */
  if (g_strcmp0 (self->last_import_error, error->message) == 0)
    return;
  g_free (self->last_import_error);
  self->last_import_error = g_strdup (error->message);
  loom_window_show_error (self, _ ("Could not import sessions"), error);
}

void
loom_window_set_watcher (LoomWindow        *self,
                         LoomSourceWatcher *watcher)
{
  g_assert (LOOM_IS_WINDOW (self));
  g_assert (self->watcher == NULL);

  if (watcher == NULL)
    return;

  self->watcher = g_object_ref (watcher);
  g_signal_connect_object (watcher, "notify::importing", G_CALLBACK (on_importing_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "notify::progress", G_CALLBACK (on_progress_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "changes-imported", G_CALLBACK (on_changes_imported_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "imported", G_CALLBACK (on_imported_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (watcher, "import-failed", G_CALLBACK (on_import_failed_cb), self,
                           G_CONNECT_SWAPPED);

  /* The application starts its first pass before any window exists. */
  if (loom_source_watcher_get_importing (watcher))
    on_importing_changed_cb (self, NULL, watcher);
}

/* ——— Problems ——— */

static void
on_problems_toast_dismissed_cb (LoomWindow *self,
                                AdwToast   *toast)
{
  self->problems_toast = NULL;
  self->n_problems_toasted = 0;
  g_clear_pointer (&self->problems_toast_result, g_free);
}

/* One toast counts the problems that came while it is shown: a pass over a damaged folder, or
 * an agent writing bad lines one after another, must not queue a toast for each. */
static void
on_problems_added_cb (LoomWindow         *self,
                      guint               n_added,
                      LoomImportProblems *problems)
{
  g_autofree char *title = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  /* Someone who has the list open sees them come in. */
  if (self->problems_window != NULL || self->adding_own_problems)
    return;

  self->n_problems_toasted += n_added;
  /* Problems that come after a long pass's toast took them in keep its sentence. */
  if (self->problems_toast_result != NULL)
    title = with_problems (self->problems_toast_result, self->n_problems_toasted);
  else
    title = g_strdup_printf (
      ngettext ("%'u import problem", "%'u import problems", self->n_problems_toasted),
      self->n_problems_toasted);
  if (self->problems_toast != NULL)
    {
      adw_toast_set_title (self->problems_toast, title);
      return;
    }

  self->problems_toast = adw_toast_new (title);
  offer_problems (self->problems_toast);
  g_signal_connect_object (self->problems_toast, "dismissed",
                           G_CALLBACK (on_problems_toast_dismissed_cb), self, G_CONNECT_SWAPPED);
  loom_window_add_toast (self, self->problems_toast);
}

void
loom_window_set_import_problems (LoomWindow         *self,
                                 LoomImportProblems *problems)
{
  g_assert (LOOM_IS_WINDOW (self));
  g_assert (self->import_problems == NULL);

  self->import_problems = g_object_ref (problems);
  g_signal_connect_object (problems, "added", G_CALLBACK (on_problems_added_cb), self,
                           G_CONNECT_SWAPPED);
}

static void
show_import_problems_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);

  if (self->import_problems == NULL)
    return;

  /* The toast stays: its own button dismisses it, and dismissing it here while it still slides
   * in makes libadwaita 1.2 free it twice. */
  if (self->problems_window == NULL)
    {
      self->problems_window = GTK_WINDOW (
        loom_import_problems_window_new (GTK_WINDOW (self), self->import_problems));
      g_object_add_weak_pointer (G_OBJECT (self->problems_window),
                                 (gpointer *)&self->problems_window);
    }
  gtk_window_present (self->problems_window);
}

/* ——— Imports the user asks for ——— */

typedef struct
{
  LoomWindow *window;
  char       *name; /* what the toast calls the folder */
  gboolean    samples;
} UserImport;

static void
user_import_free (UserImport *import)
{
  g_clear_object (&import->window);
  g_free (import->name);
  g_free (import);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (UserImport, user_import_free)

static void
loom_window_set_user_import_running (LoomWindow *self,
                                     gboolean    running)
{
  g_assert (LOOM_IS_WINDOW (self));

  self->user_import_running = !!running;
  /* One import at a time: a second one would only wait for the first one's locks. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-folder",
                                 !running && self->store != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.load-samples",
                                 !running && self->store != NULL);
  loom_window_update_progress (self);
}

/* @n_problems: how many new ones the import listed. */
static char *
describe_user_import (const UserImport      *import,
                      const LoomImportStats *stats,
                      guint                  n_problems)
{
  g_autofree char *result = NULL;

  if (import->samples && stats->sessions_touched == 0)
    result = g_strdup (_ ("The sample history is already loaded"));
  else if (import->samples)
    result = g_strdup_printf (
      ngettext ("Loaded %'u sample session", "Loaded %'u sample sessions", stats->sessions_touched),
      stats->sessions_touched);
  else if (stats->sessions_new > 0)
    result = g_strdup_printf (ngettext ("Imported %'u session from “%s”",
                                        "Imported %'u sessions from “%s”", stats->sessions_new),
                              stats->sessions_new, import->name);
  else if (stats->sessions_touched > 0)
    result = g_strdup_printf (ngettext ("Updated %'u session from “%s”",
                                        "Updated %'u sessions from “%s”", stats->sessions_touched),
                              stats->sessions_touched, import->name);
  else if (stats->files_unchanged > 0)
    result = g_strdup_printf (_ ("The sessions in “%s” were already imported"), import->name);
  else
    result = g_strdup_printf (_ ("No sessions found in “%s”"), import->name);

  if (stats->files_failed == 0 && n_problems == 0)
    return g_steal_pointer (&result);

  if (stats->files_failed == 0)
    return with_problems (result, n_problems);

  /* Translators: %s says what was imported (a whole sentence), %'u how many files failed. */
  return g_strdup_printf (ngettext ("%s. %'u file could not be read",
                                    "%s. %'u files could not be read", stats->files_failed),
                          result, stats->files_failed);
}

static void
user_import_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr (UserImport) import = user_data;
  g_autoptr (LoomImportStats) stats = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  LoomWindow      *self = import->window;
  AdwToast        *toast;
  guint            n_problems;

  stats = loom_import_run_finish (result, &error);

  /* The window was closed while the import ran (which cancels it): nobody is there to tell. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      !gtk_widget_get_visible (GTK_WIDGET (self)) || self->store == NULL)
    return;

  loom_window_set_user_import_running (self, FALSE);

  if (stats == NULL)
    {
      loom_window_show_error (self,
                              import->samples ? _ ("Could not load the sample history")
                                              : _ ("Could not import the folder"),
                              error);
      return;
    }

  for (guint i = 0; i < stats->warnings->len; i++)
    g_debug ("Import of %s: %s", import->name, (const char *)stats->warnings->pdata[i]);

  /* The import's own toast tells of its problems, not a second one. */
  self->adding_own_problems = TRUE;
  n_problems = loom_import_problems_add (self->import_problems, stats);
  self->adding_own_problems = FALSE;

  loom_window_reload (self);
  if (import->samples)
    loom_sidebar_select_collection (self->sidebar, LOOM_COLLECTION_ALL);

  title = describe_user_import (import, stats, n_problems);
  escaped = g_markup_escape_text (title, -1);
  toast = adw_toast_new (escaped);
  if (n_problems > 0)
    offer_problems (toast);
  loom_window_add_toast (self, toast);
}

static void
loom_window_start_import (LoomWindow *self,
                          const char *path,
                          gboolean    samples)
{
  LoomImportOptions options = { NULL, (const char *const[]){ path, NULL } };
  UserImport       *import;

  g_assert (LOOM_IS_WINDOW (self));
  g_assert (self->store != NULL);

  import = g_new0 (UserImport, 1);
  import->window = g_object_ref (self);
  import->name = g_filename_display_basename (path);
  import->samples = samples;

  if (self->import_cancellable == NULL)
    self->import_cancellable = g_cancellable_new ();

  loom_window_set_user_import_running (self, TRUE);
  /* The import writes through a connection of its own, in a worker thread; the window reads
   * the result once it is done. */
  loom_import_run_async (loom_store_get_path (self->store), &options, self->import_cancellable,
                         user_import_cb, import);
}

/* A package (loom-package-import.h) chosen in "Import Folder…": verified whole, then its
 * session and its sub-agents' written back, as `loom import PACKAGE_DIR` does. */
static void
package_import_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr (UserImport) import = user_data;
  g_autoptr (LoomPackageImportResult) imported = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *title = NULL;
  g_autofree char *escaped = NULL;
  LoomWindow      *self = import->window;

  imported = loom_import_package_finish (LOOM_STORE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      !gtk_widget_get_visible (GTK_WIDGET (self)) || self->store == NULL)
    return;

  loom_window_set_user_import_running (self, FALSE);
  if (imported == NULL)
    {
      /* The refusal names the file that did not verify: the person may have a good copy. */
      loom_window_show_error (self, _ ("Could not import the package"), error);
      return;
    }

  loom_window_reload (self);
  if (imported->already_stored)
    title = g_strdup_printf (_ ("“%s” is already in your history"), imported->title);
  else if (imported->n_subagents > 0)
    title = g_strdup_printf (
      ngettext ("Imported “%s” and %'u sub-agent’s session from its package",
                "Imported “%s” and %'u sub-agents’ sessions from its package",
                imported->n_subagents),
      imported->title, imported->n_subagents);
  else
    title = g_strdup_printf (_ ("Imported “%s” from its package"), imported->title);
  escaped = g_markup_escape_text (title, -1);
  loom_window_add_toast (self, adw_toast_new (escaped));
}

static void
loom_window_start_package_import (LoomWindow *self,
                                  const char *path)
{
  UserImport *import = g_new0 (UserImport, 1);

  import->window = g_object_ref (self);
  import->name = g_filename_display_basename (path);
  if (self->import_cancellable == NULL)
    self->import_cancellable = g_cancellable_new ();
  loom_window_set_user_import_running (self, TRUE);
  loom_import_package_async (self->store, path, self->import_cancellable, package_import_cb,
                             import);
}

static void
on_folder_chosen_cb (LoomWindow           *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  g_autoptr (GFile) folder = NULL;
  g_autofree char *path = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->folder_chooser);

  if (folder == NULL || self->store == NULL || self->user_import_running)
    return;

  path = g_file_get_path (folder);
  if (path == NULL)
    {
      loom_window_add_toast (self, adw_toast_new (_ ("Only local folders can be imported")));
      return;
    }

  /* A folder holding a manifest is a package, as for `loom import`. */
  if (loom_package_looks_like_package (path))
    loom_window_start_package_import (self, path);
  else
    loom_window_start_import (self, path, FALSE);
}

static void
import_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LoomWindow           *self = LOOM_WINDOW (widget);
  GtkFileChooserNative *chooser;

  if (self->folder_chooser != NULL)
    {
      gtk_native_dialog_show (self->folder_chooser);
      return;
    }

  chooser = gtk_file_chooser_native_new (_ ("Import Folder"), GTK_WINDOW (self),
                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Import"),
                                         _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_folder_chosen_cb), self,
                           G_CONNECT_SWAPPED);
  self->folder_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->folder_chooser);
}

/* Copies the resource folder @resource_path into @dir, leaving alone the files that are already
 * there with the same contents: an unchanged file is then not imported again. */
static gboolean
extract_resource_tree (const char *resource_path,
                       const char *dir,
                       GError    **error)
{
  g_auto (GStrv) children = NULL;

  children = g_resources_enumerate_children (resource_path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (children == NULL)
    return FALSE;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _ ("Could not create the folder %s: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }

  for (guint i = 0; children[i] != NULL; i++)
    {
      g_autofree char *child_resource = g_build_path ("/", resource_path, children[i], NULL);
      g_autofree char *name = g_strdup (children[i]);
      g_autofree char *child_path = NULL;
      g_autoptr (GBytes) bytes = NULL;
      g_autofree char *existing = NULL;
      gsize            existing_len = 0;

      /* Folders are listed with a trailing slash. */
      if (g_str_has_suffix (name, "/"))
        {
          name[strlen (name) - 1] = '\0';
          child_path = g_build_filename (dir, name, NULL);
          if (!extract_resource_tree (child_resource, child_path, error))
            return FALSE;
          continue;
        }

      child_path = g_build_filename (dir, name, NULL);
      bytes = g_resources_lookup_data (child_resource, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
      if (bytes == NULL)
        return FALSE;

      if (g_file_get_contents (child_path, &existing, &existing_len, NULL) &&
          existing_len == g_bytes_get_size (bytes) &&
          memcmp (existing, g_bytes_get_data (bytes, NULL), existing_len) == 0)
        continue;

      if (!g_file_set_contents_full (child_path, g_bytes_get_data (bytes, NULL),
                                     (gssize)g_bytes_get_size (bytes),
                                     G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
        return FALSE;
    }

  return TRUE;
}

static void
load_samples_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  LoomWindow      *self = LOOM_WINDOW (widget);
  g_autofree char *store_dir = NULL;
  g_autofree char *samples_dir = NULL;
  g_autoptr (GError) error = NULL;

  if (self->store == NULL || self->user_import_running)
    return;

  /* The samples live beside the store rather than in a temporary folder: the sessions keep a
   * source file that exists, which "Open Source Folder" can show and the next import finds
   * unchanged. They are a few dozen kilobytes. */
  store_dir = g_path_get_dirname (loom_store_get_path (self->store));
  samples_dir = g_build_filename (store_dir, "samples", NULL);
  if (!extract_resource_tree (SAMPLES_RESOURCE, samples_dir, &error))
    {
      loom_window_show_error (self, _ ("Could not load the sample history"), error);
      return;
    }

  loom_window_start_import (self, samples_dir, TRUE);
}

void
loom_window_import_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.import-folder", NULL, import_folder_action);
  gtk_widget_class_install_action (widget_class, "win.load-samples", NULL, load_samples_action);
  gtk_widget_class_install_action (widget_class, "win.show-import-problems", NULL,
                                   show_import_problems_action);
}

void
loom_window_import_dispose (LoomWindow *self)
{
  g_assert (LOOM_IS_WINDOW (self));

  /* The watcher outlives the window, and reports until the application shuts down. */
  if (self->watcher != NULL)
    g_signal_handlers_disconnect_by_data (self->watcher, self);
  g_clear_object (&self->watcher);
  g_clear_handle_id (&self->progress_delay_id, g_source_remove);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
  g_clear_handle_id (&self->live_reload_id, g_source_remove);
  g_clear_pointer (&self->last_import_error, g_free);

  if (self->problems_toast != NULL)
    g_signal_handlers_disconnect_by_data (self->problems_toast, self);
  self->problems_toast = NULL;
  g_clear_pointer (&self->problems_toast_result, g_free);
  if (self->problems_window != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->problems_window),
                                    (gpointer *)&self->problems_window);
      gtk_window_destroy (self->problems_window);
      self->problems_window = NULL;
    }
  g_clear_object (&self->import_problems);

  if (self->folder_chooser != NULL)
    gtk_native_dialog_destroy (self->folder_chooser);
  g_clear_object (&self->folder_chooser);

  /* The import holds the window until it returns; cancelled, it returns between two files. */
  g_cancellable_cancel (self->import_cancellable);
  g_clear_object (&self->import_cancellable);
}
