/* loom-export-assistant.c — the export assistant: choices, then one package per session.
 *
 * The choices are radio rows and a folder; the export itself is the core's
 * (loom_export_session_async()), one session at a time, so that the progress says which
 * session is being written and a cancel stops at once. The core reports progress from its
 * worker thread; a relay (loom-export-relay.h) brings it to the main thread.
 *
 * Encrypted (full detail and full mode only: an encrypted export is a whole backup), each
 * session is the core's backup instead (loom_backup_session_async()), one <uuid>.loombackup
 * file with the backup key, which is had from the keyring first, off the main thread
 * (loom-backup-key-task.h). Without it nothing is written: the export fails closed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "loom-backup-key-task.h"
#include "loom-backup.h"
#include "loom-export-assistant.h"
#include "loom-export-relay.h"
#include "loom-recovery-key-dialog.h"

struct _LoomExportAssistant
{
  AdwWindow parent_instance;

  LoomStore *store;
  GSettings *settings;
  GStrv      uuids;
  GStrv      titles;
  char      *destination;

  /* The export, while it runs. */
  LoomExportOptions     options;
  GCancellable         *cancellable;
  LoomExportRelay      *relay;
  char                 *hold_step;     /* tests: where the export waits */
  guint                 next_session;  /* the index of the session being written */
  GPtrArray            *results;       /* LoomExportResult, of the packages written */
  GPtrArray            *failures;      /* char *: a title, then its error message, … */
  GPtrArray            *backups;       /* LoomBackupResult, of the encrypted files written */
  LoomBackupKey        *key;           /* encrypting: the backup key, once had */
  char                 *error_message; /* what stopped the export before any session */
  char                 *shown_path;    /* what Open Folder opens and Copy Path copies */
  GtkFileChooserNative *chooser;
  guint                 running : 1;
  guint                 disposed : 1;
  guint                 cancelled : 1;
  guint                 close_when_stopped : 1;
  guint                 encrypting : 1;

  GtkProgressBar *artifact_bar;
  GtkWidget      *artifact_box;
  GtkLabel       *artifact_label;
  GtkButton      *back_button;
  GtkSpinButton  *budget_spin;
  GtkButton      *cancel_button;
  GtkWidget      *close_button;
  AdwActionRow   *encrypt_row;
  GtkSwitch      *encrypt_switch;
  GtkListBox     *counts_list;
  GtkCheckButton *detail_full_check;
  GtkCheckButton *detail_messages_check;
  GtkCheckButton *detail_tools_check;
  GtkWidget      *export_button;
  GtkListBox     *failures_list;
  AdwActionRow   *folder_row;
  GtkCheckButton *mode_compact_check;
  GtkCheckButton *mode_full_check;
  GtkCheckButton *mode_redacted_check;
  GtkWidget      *next_button;
  GtkLabel       *path_label;
  GtkProgressBar *progress_bar;
  AdwStatusPage  *progress_page;
  GtkSwitch      *remember_switch;
  GtkWidget      *result_buttons;
  AdwStatusPage  *result_page;
  GtkStack       *stack;
  AdwWindowTitle *window_title;
};

G_DEFINE_FINAL_TYPE (LoomExportAssistant, loom_export_assistant, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_PAGE,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The pages in the order they come; the last two are reached by exporting, not by Next. */
static const char *const pages[] = { "detail", "mode", "destination", "progress", "result" };

enum
{
  PAGE_DETAIL,
  PAGE_MODE,
  PAGE_DESTINATION,
  PAGE_PROGRESS,
  PAGE_RESULT,
  N_CHOICE_PAGES = PAGE_PROGRESS,
};

static void update_buttons (LoomExportAssistant *self);

/* ——— Pages and buttons ——— */

static guint
page_index (LoomExportAssistant *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    if (g_strcmp0 (name, pages[i]) == 0)
      return i;
  g_assert_not_reached ();
}

static void
show_page (LoomExportAssistant *self,
           guint                index)
{
  g_assert (index < G_N_ELEMENTS (pages));

  gtk_stack_set_visible_child_name (self->stack, pages[index]);
}

static void
on_page_changed_cb (LoomExportAssistant *self)
{
  GtkStackPage *page;
  guint         index;

  g_assert (LOOM_IS_EXPORT_ASSISTANT (self));

  index = page_index (self);
  page = gtk_stack_get_page (self->stack, gtk_stack_get_visible_child (self->stack));
  if (index < N_CHOICE_PAGES)
    {
      /* Translators: the assistant's subtitle: the page's name and where it comes. */
      g_autofree char *step = g_strdup_printf (
        _ ("%s · Step %u of %u"), gtk_stack_page_get_title (page), index + 1, N_CHOICE_PAGES);

      adw_window_title_set_subtitle (self->window_title, step);
    }
  else
    {
      adw_window_title_set_subtitle (self->window_title, NULL);
    }

  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
}

static void
update_buttons (LoomExportAssistant *self)
{
  guint    index = page_index (self);
  gboolean choosing = index < N_CHOICE_PAGES;
  gboolean has_destination = self->destination != NULL;
  gboolean has_path = self->shown_path != NULL;

  /* After a failure or a cancel, Back offers the choices again. */
  gboolean retry = index == PAGE_RESULT &&
                   (self->cancelled || self->failures->len > 0 || self->error_message != NULL);

  gtk_widget_set_visible (GTK_WIDGET (self->back_button), (choosing && index > 0) || retry);
  /* Cancel where the choices begin, and while the export runs; the later pages have the back
   * arrow, which a narrow window has room for beside the title, and Escape. */
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button),
                          index == PAGE_DETAIL || (index == PAGE_PROGRESS && self->running));
  gtk_widget_set_visible (self->next_button, choosing && index < PAGE_DESTINATION);
  gtk_widget_set_visible (self->export_button, index == PAGE_DESTINATION);
  gtk_widget_set_visible (self->close_button, index == PAGE_RESULT);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.back",
                                 (choosing && index > 0) || retry);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.next",
                                 choosing && index < PAGE_DESTINATION);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.export",
                                 index == PAGE_DESTINATION && has_destination);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.cancel",
                                 index != PAGE_PROGRESS || (self->running && !self->cancelled));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.open-folder", has_path);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.copy-path", has_path);
}

static void
update_folder_row (LoomExportAssistant *self)
{
  /* The folder's name first, which is what a long path would lose, then where it is. Row
   * texts are markup. */
  if (self->destination != NULL)
    {
      g_autofree char *name = g_path_get_basename (self->destination);
      g_autofree char *shown = NULL;
      g_autofree char *escaped_name = NULL;
      g_autofree char *escaped_shown = NULL;
      const char      *home = g_get_home_dir ();
      gsize            home_len = strlen (home);

      if (home_len > 1 && g_str_has_prefix (self->destination, home) &&
          (self->destination[home_len] == '/' || self->destination[home_len] == '\0'))
        shown = g_strconcat ("~", self->destination + home_len, NULL);
      else
        shown = g_strdup (self->destination);
      escaped_name = g_markup_escape_text (name, -1);
      escaped_shown = g_markup_escape_text (shown, -1);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->folder_row), escaped_name);
      adw_action_row_set_subtitle (self->folder_row, escaped_shown);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_row), self->destination);
    }
  else
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->folder_row), _ ("Folder"));
      adw_action_row_set_subtitle (self->folder_row, _ ("No folder chosen"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_row), NULL);
    }
}

/* An encrypted export is a whole backup, which a restore brings back as it was: the other
 * details and modes leave things out, so they untick the switch, and the row says why. */
static void
update_encrypt_row (LoomExportAssistant *self)
{
  gboolean whole;

  /* The checks toggle as the template lets go of them. */
  if (self->disposed || self->encrypt_switch == NULL || self->mode_full_check == NULL ||
      self->detail_full_check == NULL)
    return;
  whole = loom_export_assistant_get_detail (self) == LOOM_EXPORT_DETAIL_FULL &&
          loom_export_assistant_get_mode (self) == LOOM_EXPORT_MODE_FULL;
  if (!whole)
    gtk_switch_set_active (self->encrypt_switch, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->encrypt_row), whole);
  adw_action_row_set_subtitle (
    self->encrypt_row,
    whole ? _ ("One file per session that only your backup key or its recovery key opens")
          : _ ("Only a whole backup is encrypted: choose Full here and Full on the Detail Level "
               "page"));
}

/* ——— Progress and result ——— */

/* The steps of a package in the order the core takes them (loom-export.h), for the share of
 * a session that is done. */
static const char *const steps[] = {
  "conversation", "metadata", "session-data", "artifacts", "subagents", "manifest",
};

static void
show_progress (LoomExportAssistant *self,
               const char          *session_id,
               const char          *step,
               const char          *artifact,
               guint                n_done,
               guint                n_total)
{
  const char      *uuid = self->uuids[self->next_session];
  g_autofree char *name = artifact != NULL ? g_path_get_basename (artifact) : NULL;
  gboolean         copying = g_strcmp0 (step, "artifacts") == 0 && n_total > 0;

  /* The overall bar moves with the session's own steps; a sub-agent's package, within its
   * parent's, reports steps of its own, which would send it back. */
  if (uuid != NULL && g_strcmp0 (session_id, uuid) == 0 && step != NULL)
    {
      guint  n = g_strv_length (self->uuids);
      double share = -1.0;

      /* An encrypted backup's own steps (encrypt, verify) come after the package's: the bar
       * stays where the manifest left it. */
      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        if (g_str_equal (step, steps[i]))
          share = (i + (copying ? (double)n_done / n_total : 0.0)) / G_N_ELEMENTS (steps);
      if (share >= 0.0)
        gtk_progress_bar_set_fraction (self->progress_bar, (self->next_session + share) / n);
    }

  gtk_widget_set_visible (self->artifact_box, copying);
  if (copying)
    {
      /* Translators: the artifacts of a package, copied one after the other: "Artifact 3 of 12:
       * parser.c". */
      g_autofree char *text = g_strdup_printf (_ ("Artifact %'u of %'u: %s"),
                                               MIN (n_done + 1, n_total), n_total,
                                               name != NULL ? name : "");

      gtk_progress_bar_set_fraction (self->artifact_bar, MIN (1.0, (double)n_done / n_total));
      gtk_label_set_text (self->artifact_label, text);
    }
}

/* The latest report of the export's worker, relayed to the main thread. */
static void
on_export_progress (GObject                  *target,
                    const LoomExportProgress *progress)
{
  show_progress (LOOM_EXPORT_ASSISTANT (target), progress->session_id, progress->step,
                 progress->artifact, progress->n_artifacts_done, progress->n_artifacts_total);
}

static void
show_session_progress (LoomExportAssistant *self)
{
  guint            n = g_strv_length (self->uuids);
  g_autofree char *text = NULL;

  /* Translators: "Session 2 of 5: Fix the flaky login test - 2026-03-05". */
  text = g_strdup_printf (_ ("Session %'u of %'u: %s"), self->next_session + 1, n,
                          self->titles[self->next_session]);
  adw_status_page_set_description (self->progress_page, text);
  gtk_progress_bar_set_fraction (self->progress_bar, (double)self->next_session / n);
  gtk_widget_set_visible (self->artifact_box, FALSE);
}

static void
add_count_row (LoomExportAssistant *self,
               const char          *title,
               const char          *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  gtk_list_box_append (self->counts_list, row);
}

static void
add_failure_row (LoomExportAssistant *self,
                 const char          *title,
                 const char          *message)
{
  GtkWidget       *row = adw_action_row_new ();
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_message = g_markup_escape_text (message, -1);
  GtkWidget       *icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped_title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_message);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_add_css_class (icon, "error");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_append (self->failures_list, row);
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

/* The encrypted files' own sizes, which are what lies in the destination; the core reports
 * their plaintext's. */
static guint64
backups_size (LoomExportAssistant *self)
{
  guint64 n_bytes = 0;

  for (guint i = 0; i < self->backups->len; i++)
    {
      const LoomBackupResult *backup = g_ptr_array_index (self->backups, i);
      GStatBuf                st;

      if (g_stat (backup->path, &st) == 0)
        n_bytes += st.st_size;
    }
  return n_bytes;
}

/* The keyring failed before anything was written: the one thing to say. */
static void
show_stopped_result (LoomExportAssistant *self)
{
  g_autofree char *escaped = g_markup_escape_text (self->error_message, -1);

  g_clear_pointer (&self->shown_path, g_free);
  adw_status_page_set_icon_name (self->result_page, "dialog-error-symbolic");
  adw_status_page_set_title (self->result_page, _ ("Nothing Was Exported"));
  adw_status_page_set_description (self->result_page, escaped);
  gtk_widget_set_visible (GTK_WIDGET (self->path_label), FALSE);
  clear_list (self->counts_list);
  gtk_widget_set_visible (GTK_WIDGET (self->counts_list), FALSE);
  clear_list (self->failures_list);
  gtk_widget_set_visible (GTK_WIDGET (self->failures_list), FALSE);
  gtk_widget_set_visible (self->result_buttons, FALSE);
  show_page (self, PAGE_RESULT);
}

static void
show_result (LoomExportAssistant *self)
{
  guint            n_written = self->results->len + self->backups->len;
  guint            n_failed = self->failures->len / 2;
  const char      *key_id = self->key != NULL ? loom_backup_key_get_id (self->key) : NULL;
  guint            n_files = 0, n_redactions = 0, n_subagents = 0;
  guint            n_artifacts = 0, n_missing = 0;
  guint64          n_bytes = 0;
  g_autofree char *size = NULL;
  g_autofree char *files = NULL;

  for (guint i = 0; i < self->results->len; i++)
    {
      const LoomExportResult *result = g_ptr_array_index (self->results, i);

      n_files += result->n_files;
      n_bytes += result->n_bytes;
      n_redactions += result->n_redactions;
      n_subagents += result->n_subagents;
      n_artifacts += result->n_artifacts;
      n_missing += result->n_artifacts_missing;
    }
  for (guint i = 0; i < self->backups->len; i++)
    {
      const LoomBackupResult *backup = g_ptr_array_index (self->backups, i);

      n_files += backup->n_files;
      n_subagents += backup->n_subagents;
      n_artifacts += backup->n_artifacts;
    }
  if (self->backups->len > 0)
    n_bytes = backups_size (self);

  if (self->error_message != NULL)
    {
      show_stopped_result (self);
      return;
    }

  /* One package: its folder (or its encrypted file). Several: the destination. */
  g_clear_pointer (&self->shown_path, g_free);
  if (n_written == 1)
    self->shown_path = g_strdup (
      self->results->len > 0 ? ((LoomExportResult *)g_ptr_array_index (self->results, 0))->path
                             : ((LoomBackupResult *)g_ptr_array_index (self->backups, 0))->path);
  else if (n_written > 1)
    self->shown_path = g_strdup (self->destination);

  if (self->cancelled)
    {
      adw_status_page_set_icon_name (self->result_page, "process-stop-symbolic");
      adw_status_page_set_title (self->result_page, _ ("Export Cancelled"));
      adw_status_page_set_description (
        self->result_page,
        n_written == 0 ? _ ("Nothing was left in the destination")
                       : ngettext ("The package finished before the cancel was kept",
                                   "The packages finished before the cancel were kept", n_written));
    }
  else if (n_failed == 0)
    {
      g_autofree char *title = g_strdup_printf (
        ngettext ("Session Exported", "%'u Sessions Exported", n_written), n_written);

      g_autofree char *description = NULL;

      /* One package: its name, which the path below may cut. */
      if (self->backups->len > 0)
        {
          g_autofree char *name = g_path_get_basename (n_written == 1 ? self->shown_path
                                                                      : self->destination);
          g_autofree char *escaped = g_markup_escape_text (name, -1);

          /* Translators: "Encrypted with the backup key 3f2a…, in “Backups”"; the id is the one
           * the preferences and `loom backup-key status` show. */
          description = n_written == 1
                          ? g_strdup_printf (_ ("%s, encrypted with the backup key %s"), escaped,
                                             key_id)
                          : g_strdup_printf (_ ("Each in an encrypted file in “%s”, with the "
                                                "backup key %s"),
                                             escaped, key_id);
        }
      else if (n_written == 1)
        {
          g_autofree char *name = g_path_get_basename (self->shown_path);

          description = g_markup_escape_text (name, -1);
        }
      else
        {
          g_autofree char *name = g_path_get_basename (self->destination);
          g_autofree char *escaped = g_markup_escape_text (name, -1);

          /* Translators: where several packages went: "Each in its own folder in “Backups”". */
          description = g_strdup_printf (_ ("Each in its own folder in “%s”"), escaped);
        }
      adw_status_page_set_icon_name (self->result_page, "emblem-ok-symbolic");
      adw_status_page_set_title (self->result_page, title);
      adw_status_page_set_description (self->result_page, description);
    }
  else
    {
      g_autofree char *title = NULL;

      if (n_written == 0)
        title = g_strdup (ngettext ("The Session Could Not Be Exported",
                                    "The Sessions Could Not Be Exported", n_failed));
      else
        title = g_strdup_printf (ngettext ("%'u Session Could Not Be Exported",
                                           "%'u Sessions Could Not Be Exported", n_failed),
                                 n_failed);
      adw_status_page_set_icon_name (self->result_page, "dialog-warning-symbolic");
      adw_status_page_set_title (self->result_page, title);
      adw_status_page_set_description (self->result_page, NULL);
    }

  gtk_label_set_text (self->path_label, self->shown_path != NULL ? self->shown_path : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->path_label), self->shown_path);
  gtk_widget_set_visible (GTK_WIDGET (self->path_label), self->shown_path != NULL);

  clear_list (self->counts_list);
  if (n_written > 0)
    {
      g_autofree char *packages = g_strdup_printf ("%'u", n_written);
      g_autofree char *redactions = g_strdup_printf ("%'u", n_redactions);
      g_autofree char *subagents = g_strdup_printf ("%'u", n_subagents);

      files = g_strdup_printf ("%'u", n_files);
      size = g_format_size (n_bytes);
      if (self->backups->len > 0)
        {
          /* What is on disk first: the encrypted files, their key, their size; then what they
           * hold. */
          add_count_row (self, _ ("Encrypted Files"), packages);
          add_count_row (self, _ ("Backup Key"), key_id);
          add_count_row (self, _ ("Total Size"), size);
          add_count_row (self, _ ("Files Inside"), files);
        }
      else
        {
          if (n_written > 1)
            add_count_row (self, _ ("Packages"), packages);
          add_count_row (self, _ ("Files"), files);
          add_count_row (self, _ ("Total Size"), size);
        }
      if (n_redactions > 0)
        add_count_row (self, _ ("Secrets Redacted"), redactions);
      if (n_subagents > 0)
        add_count_row (self, _ ("Sub-Agent Sessions"), subagents);
      if (n_artifacts + n_missing > 0)
        {
          /* Translators: the files a session touched: those copied and those left out. */
          g_autofree char *artifacts = n_missing > 0
                                         ? g_strdup_printf (_ ("%'u copied, %'u left out"),
                                                            n_artifacts, n_missing)
                                         : g_strdup_printf ("%'u", n_artifacts);

          add_count_row (self, _ ("Artifacts"), artifacts);
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->counts_list), n_written > 0);

  clear_list (self->failures_list);
  for (guint i = 0; i + 1 < self->failures->len; i += 2)
    add_failure_row (self, g_ptr_array_index (self->failures, i),
                     g_ptr_array_index (self->failures, i + 1));
  gtk_widget_set_visible (GTK_WIDGET (self->failures_list), n_failed > 0);

  gtk_widget_set_visible (self->result_buttons, self->shown_path != NULL);
  show_page (self, PAGE_RESULT);
}

/* ——— The export ——— */

static void export_next (LoomExportAssistant *self);

static void
set_running (LoomExportAssistant *self,
             gboolean             running)
{
  if (self->running == !!running)
    return;
  self->running = !!running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* The sequence is over: finished, failed as far as it went, or cancelled. */
static void
export_stopped (LoomExportAssistant *self)
{
  if (self->relay != NULL)
    {
      loom_export_relay_stop (self->relay);
      g_clear_pointer (&self->relay, loom_export_relay_unref);
    }
  g_clear_object (&self->cancellable);
  set_running (self, FALSE);

  if (self->close_when_stopped)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  show_result (self);
}

/* One session is through, written (@error NULL) or not; the next one follows. */
static void
session_finished (LoomExportAssistant *self,
                  const GError        *error)
{
  /* A session written is in results or backups already. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* The core removed the partial package; the ones before it stay. */
      self->cancelled = TRUE;
    }
  else if (error != NULL)
    {
      g_ptr_array_add (self->failures, g_strdup (self->titles[self->next_session]));
      g_ptr_array_add (self->failures, g_strdup (error->message));
    }

  self->next_session++;
  /* The main window took the assistant with it: nothing is left to show the rest on. */
  if (self->disposed)
    {
      loom_export_relay_stop (self->relay);
      set_running (self, FALSE);
      return;
    }
  export_next (self);
}

static void
on_exported_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  /* The export's own reference: the assistant outlives a close asked while it ran. */
  g_autoptr (LoomExportAssistant) self = user_data;
  g_autoptr (LoomExportResult) written = NULL;
  g_autoptr (GError) error = NULL;

  written = loom_export_session_finish (LOOM_STORE (object), result, &error);
  if (written != NULL)
    g_ptr_array_add (self->results, g_steal_pointer (&written));
  session_finished (self, error);
}

static void
on_backed_up_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr (LoomExportAssistant) self = user_data;
  g_autoptr (LoomBackupResult) written = NULL;
  g_autoptr (GError) error = NULL;

  written = loom_backup_session_finish (LOOM_STORE (object), result, &error);
  if (written != NULL)
    g_ptr_array_add (self->backups, g_steal_pointer (&written));
  session_finished (self, error);
}

static void
export_next (LoomExportAssistant *self)
{
  if (self->cancelled || g_cancellable_is_cancelled (self->cancellable) ||
      self->uuids[self->next_session] == NULL)
    {
      if (g_cancellable_is_cancelled (self->cancellable) && self->uuids[self->next_session] != NULL)
        self->cancelled = TRUE;
      export_stopped (self);
      return;
    }

  show_session_progress (self);
  if (self->encrypting)
    {
      LoomBackupOptions options = LOOM_BACKUP_OPTIONS_INIT;

      /* The relay was attached to the export options; a backup reports the same progress. */
      options.key = self->key;
      options.progress = self->options.progress;
      options.progress_data = self->options.progress_data;
      loom_backup_session_async (self->store, self->uuids[self->next_session], self->destination,
                                 &options, self->cancellable, on_backed_up_cb, g_object_ref (self));
      return;
    }
  loom_export_session_async (self->store, self->uuids[self->next_session], self->destination,
                             &self->options, self->cancellable, on_exported_cb,
                             g_object_ref (self));
}

static void
on_key_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr (LoomExportAssistant) self = user_data;
  g_autoptr (GError) error = NULL;
  gboolean created = FALSE;

  self->key = loom_backup_key_task_finish (result, &created, &error);
  if (self->disposed)
    {
      loom_export_relay_stop (self->relay);
      set_running (self, FALSE);
      return;
    }
  if (self->key == NULL)
    {
      /* Fails closed: without the key nothing is written, not even in the clear. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->cancelled = TRUE;
      else
        self->error_message = g_strdup_printf (
          _ ("The sessions were to be encrypted, and the backup key could not be had: %s"),
          error->message);
      export_stopped (self);
      return;
    }
  /* Made by this export: the one time its recovery key is shown unasked. */
  if (created)
    loom_recovery_key_dialog_show (GTK_WINDOW (self), self->key);
  adw_status_page_set_title (self->progress_page, _ ("Exporting…"));
  export_next (self);
}

/* The destination the person chose is remembered when they asked for it, and forgotten when
 * they turned off the switch of the folder remembered before. */
static void
remember_destination (LoomExportAssistant *self)
{
  g_autofree char *saved = g_settings_get_string (self->settings, "export-folder");

  if (gtk_switch_get_active (self->remember_switch))
    g_settings_set_string (self->settings, "export-folder", self->destination);
  else if (g_strcmp0 (saved, self->destination) == 0)
    g_settings_set_string (self->settings, "export-folder", "");
}

/* The budget as a person reads a count: 32,000, the separator the locale's. */
static gboolean
on_budget_output_cb (GtkSpinButton *spin,
                     gpointer       user_data)
{
  g_autofree char *text = g_strdup_printf ("%'d", gtk_spin_button_get_value_as_int (spin));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

/* What a person typed, with or without separators: its digits. */
static int
on_budget_input_cb (GtkSpinButton *spin,
                    double        *value,
                    gpointer       user_data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  g_autoptr (GString) digits = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (g_ascii_isdigit (*p))
        g_string_append_c (digits, *p);
      else if (!g_unichar_isspace (g_utf8_get_char (p)) && !g_unichar_ispunct (g_utf8_get_char (p)))
        return GTK_INPUT_ERROR;
    }
  if (digits->len == 0 || digits->len > 9)
    return GTK_INPUT_ERROR;
  *value = g_ascii_strtod (digits->str, NULL);
  return TRUE;
}

static void
start_export (LoomExportAssistant *self)
{
  g_assert (!self->running);
  g_assert (self->destination != NULL);

  remember_destination (self);

  self->options = (LoomExportOptions)LOOM_EXPORT_OPTIONS_INIT;
  self->options.detail = loom_export_assistant_get_detail (self);
  self->options.mode = loom_export_assistant_get_mode (self);
  self->options.budget = (guint)gtk_spin_button_get_value_as_int (self->budget_spin);
  self->relay = loom_export_relay_new (G_OBJECT (self), on_export_progress);
  loom_export_relay_hold (self->relay, self->hold_step);
  loom_export_relay_attach (self->relay, &self->options);

  self->cancellable = g_cancellable_new ();
  self->cancelled = FALSE;
  self->next_session = 0;
  g_ptr_array_set_size (self->results, 0);
  g_ptr_array_set_size (self->failures, 0);
  g_ptr_array_set_size (self->backups, 0);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->key, loom_backup_key_free);
  self->encrypting = gtk_switch_get_active (self->encrypt_switch);

  set_running (self, TRUE);
  show_page (self, PAGE_PROGRESS);
  if (self->encrypting)
    {
      /* The key first: a keyring that fails stops the export before anything is written. */
      adw_status_page_set_title (self->progress_page, _ ("Preparing…"));
      adw_status_page_set_description (self->progress_page,
                                       _ ("Getting the backup key from the keyring"));
      gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
      gtk_widget_set_visible (self->artifact_box, FALSE);
      loom_backup_key_load_or_create_async (self->cancellable, on_key_ready_cb,
                                            g_object_ref (self));
      return;
    }
  adw_status_page_set_title (self->progress_page, _ ("Exporting…"));
  export_next (self);
}

/* Cancels the export under way; the page moves on once the core has cleaned up. */
static void
cancel_export (LoomExportAssistant *self)
{
  g_assert (self->running);

  self->cancelled = TRUE;
  adw_status_page_set_title (self->progress_page, _ ("Cancelling…"));
  g_cancellable_cancel (self->cancellable);
  /* A worker held for a test goes on, and meets the cancellation. */
  if (self->relay != NULL)
    loom_export_relay_hold (self->relay, NULL);
  update_buttons (self);
}

/* ——— Actions ——— */

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);
  guint                index = page_index (self);

  if (index > 0 && index < N_CHOICE_PAGES)
    show_page (self, index - 1);
  else if (index == PAGE_RESULT && !self->running)
    show_page (self, PAGE_DESTINATION);
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);
  guint                index = page_index (self);

  if (index < PAGE_DESTINATION)
    show_page (self, index + 1);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);

  if (self->destination == NULL || self->running || page_index (self) != PAGE_DESTINATION)
    return;
  start_export (self);
}

/* The Cancel button: stops a running export and stays to say so; closes
 * otherwise. */
static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);

  if (self->running)
    {
      if (!self->cancelled)
        cancel_export (self);
      return;
    }
  gtk_window_close (GTK_WINDOW (self));
}

static void
on_folder_chosen_cb (LoomExportAssistant  *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder != NULL ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        loom_export_assistant_set_destination (self, path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);

  if (self->chooser != NULL)
    return;

  /* Native, so that in a sandbox the portal grants access to the folder chosen. */
  self->chooser = gtk_file_chooser_native_new (_ ("Export To"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _ ("_Select"),
                                               _ ("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (self->destination != NULL)
    {
      g_autoptr (GFile) current = g_file_new_for_path (self->destination);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), current, NULL);
    }
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_folder_chosen_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);
  g_autoptr (GFile) folder = NULL;
  g_autofree char *uri = NULL;

  if (self->shown_path == NULL)
    return;

  folder = g_file_new_for_path (self->shown_path);
  /* One encrypted backup is a file: its folder is what to open. */
  if (!g_file_test (self->shown_path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr (GFile) parent = g_file_get_parent (folder);

      if (parent != NULL)
        g_set_object (&folder, parent);
    }
  uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

static void
copy_path_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (widget);

  if (self->shown_path == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->shown_path);
}

/* ——— GObject ——— */

/* Enter, unless the focused control takes it: moves on as the suggested button of the page
 * does. GtkWindow would activate the focused button instead (often Cancel, the first). */
static void
loom_export_assistant_activate_default (GtkWindow *window)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (window);
  guint                index = page_index (self);

  if (index < PAGE_DESTINATION)
    gtk_widget_activate_action (GTK_WIDGET (self), "assistant.next", NULL);
  else if (index == PAGE_DESTINATION)
    gtk_widget_activate_action (GTK_WIDGET (self), "assistant.export", NULL);
  else if (index == PAGE_RESULT)
    gtk_window_close (window);
}

static gboolean
loom_export_assistant_close_request (GtkWindow *window)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (window);

  /* Closing while a package is being written cancels it; the window goes once the core has
   * removed what it had written, so that nothing is left half-done behind it. */
  if (self->running)
    {
      self->close_when_stopped = TRUE;
      if (!self->cancelled)
        cancel_export (self);
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }

  return GTK_WINDOW_CLASS (loom_export_assistant_parent_class)->close_request (window);
}

static void
loom_export_assistant_dispose (GObject *object)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (object);

  self->disposed = TRUE;
  g_cancellable_cancel (self->cancellable);
  if (self->relay != NULL)
    loom_export_relay_hold (self->relay, NULL);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_EXPORT_ASSISTANT);

  G_OBJECT_CLASS (loom_export_assistant_parent_class)->dispose (object);
}

static void
loom_export_assistant_finalize (GObject *object)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (object);

  if (self->relay != NULL)
    {
      loom_export_relay_stop (self->relay);
      g_clear_pointer (&self->relay, loom_export_relay_unref);
    }
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->uuids, g_strfreev);
  g_clear_pointer (&self->titles, g_strfreev);
  g_clear_pointer (&self->destination, g_free);
  g_clear_pointer (&self->shown_path, g_free);
  g_clear_pointer (&self->hold_step, g_free);
  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->failures, g_ptr_array_unref);
  g_clear_pointer (&self->backups, g_ptr_array_unref);
  g_clear_pointer (&self->key, loom_backup_key_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (loom_export_assistant_parent_class)->finalize (object);
}

static void
loom_export_assistant_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  LoomExportAssistant *self = LOOM_EXPORT_ASSISTANT (object);

  switch (prop_id)
    {
    case PROP_PAGE:
      g_value_set_string (value, loom_export_assistant_get_page (self));
      break;

    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_export_assistant_class_init (LoomExportAssistantClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = loom_export_assistant_dispose;
  object_class->finalize = loom_export_assistant_finalize;
  object_class->get_property = loom_export_assistant_get_property;
  window_class->activate_default = loom_export_assistant_activate_default;
  window_class->close_request = loom_export_assistant_close_request;

  properties[PROP_PAGE] = g_param_spec_string (
    "page", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

#define BIND_CHILD(name) \
  gtk_widget_class_bind_template_child (widget_class, LoomExportAssistant, name)

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-export-assistant.ui");
  gtk_widget_class_bind_template_callback (widget_class, on_budget_output_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_budget_input_cb);
  BIND_CHILD (artifact_bar);
  BIND_CHILD (artifact_box);
  BIND_CHILD (artifact_label);
  BIND_CHILD (back_button);
  BIND_CHILD (budget_spin);
  BIND_CHILD (cancel_button);
  BIND_CHILD (close_button);
  BIND_CHILD (counts_list);
  BIND_CHILD (detail_full_check);
  BIND_CHILD (detail_messages_check);
  BIND_CHILD (detail_tools_check);
  BIND_CHILD (encrypt_row);
  BIND_CHILD (encrypt_switch);
  BIND_CHILD (export_button);
  BIND_CHILD (failures_list);
  BIND_CHILD (folder_row);
  BIND_CHILD (mode_compact_check);
  BIND_CHILD (mode_full_check);
  BIND_CHILD (mode_redacted_check);
  BIND_CHILD (next_button);
  BIND_CHILD (path_label);
  BIND_CHILD (progress_bar);
  BIND_CHILD (progress_page);
  BIND_CHILD (remember_switch);
  BIND_CHILD (result_buttons);
  BIND_CHILD (result_page);
  BIND_CHILD (stack);
  BIND_CHILD (window_title);

#undef BIND_CHILD

  gtk_widget_class_bind_template_callback (widget_class, on_page_changed_cb);

  gtk_widget_class_install_action (widget_class, "assistant.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "assistant.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "assistant.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "assistant.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "assistant.choose-folder", NULL,
                                   choose_folder_action);
  gtk_widget_class_install_action (widget_class, "assistant.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "assistant.copy-path", NULL, copy_path_action);

  /* Escape closes, which cancels an export under way (close_request). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
loom_export_assistant_init (LoomExportAssistant *self)
{
  self->results = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_export_result_free);
  self->failures = g_ptr_array_new_with_free_func (g_free);
  self->backups = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_backup_result_free);
  gtk_widget_init_template (GTK_WIDGET (self));

  {
    GtkCheckButton *choices[] = {
      self->detail_full_check, self->detail_messages_check, self->detail_tools_check,
      self->mode_full_check,   self->mode_redacted_check,   self->mode_compact_check,
    };

    for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
      g_signal_connect_object (choices[i], "toggled", G_CALLBACK (update_encrypt_row), self,
                               G_CONNECT_SWAPPED);
  }
  update_encrypt_row (self);
  update_folder_row (self);
  on_page_changed_cb (self);
}

LoomExportAssistant *
loom_export_assistant_new (GtkWindow         *parent,
                           LoomStore         *store,
                           GSettings         *settings,
                           const char *const *uuids,
                           const char *const *titles)
{
  LoomExportAssistant *self;
  g_autofree char     *saved = NULL;
  g_autofree char     *title = NULL;
  guint                n;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (uuids != NULL && uuids[0] != NULL, NULL);
  g_return_val_if_fail (
    titles != NULL && g_strv_length ((GStrv)titles) == g_strv_length ((GStrv)uuids), NULL);

  self = g_object_new (LOOM_TYPE_EXPORT_ASSISTANT, "transient-for", parent, NULL);
  self->store = g_object_ref (store);
  self->settings = g_object_ref (settings);
  self->uuids = g_strdupv ((GStrv)uuids);
  self->titles = g_strdupv ((GStrv)titles);

  n = g_strv_length (self->uuids);
  title = n == 1 ? g_strdup (_ ("Export Session"))
                 : g_strdup_printf (ngettext ("Export %'u Session", "Export %'u Sessions", n), n);
  adw_window_title_set_title (self->window_title, title);
  gtk_window_set_title (GTK_WINDOW (self), title);

  /* The Redact Secrets preference is the default mode. */
  loom_export_assistant_set_mode (
    self, g_settings_get_boolean (settings, "redact-secrets-on-export") ? LOOM_EXPORT_MODE_REDACTED
                                                                        : LOOM_EXPORT_MODE_FULL);

  /* The remembered folder is offered while it still is one; there is no default otherwise. */
  saved = g_settings_get_string (settings, "export-folder");
  if (saved[0] != '\0' && g_path_is_absolute (saved) && g_file_test (saved, G_FILE_TEST_IS_DIR))
    {
      loom_export_assistant_set_destination (self, saved);
      gtk_switch_set_active (self->remember_switch, TRUE);
    }

  return self;
}

const char *
loom_export_assistant_get_page (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

LoomExportDetail
loom_export_assistant_get_detail (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), LOOM_EXPORT_DETAIL_FULL);

  if (gtk_check_button_get_active (self->detail_messages_check))
    return LOOM_EXPORT_DETAIL_MESSAGES;
  if (gtk_check_button_get_active (self->detail_tools_check))
    return LOOM_EXPORT_DETAIL_TOOLS;
  return LOOM_EXPORT_DETAIL_FULL;
}

void
loom_export_assistant_set_detail (LoomExportAssistant *self,
                                  LoomExportDetail     detail)
{
  g_return_if_fail (LOOM_IS_EXPORT_ASSISTANT (self));

  switch (detail)
    {
    case LOOM_EXPORT_DETAIL_MESSAGES:
      gtk_check_button_set_active (self->detail_messages_check, TRUE);
      break;
    case LOOM_EXPORT_DETAIL_TOOLS:
      gtk_check_button_set_active (self->detail_tools_check, TRUE);
      break;
    case LOOM_EXPORT_DETAIL_FULL:
    default:
      gtk_check_button_set_active (self->detail_full_check, TRUE);
      break;
    }
}

LoomExportMode
loom_export_assistant_get_mode (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), LOOM_EXPORT_MODE_FULL);

  if (gtk_check_button_get_active (self->mode_redacted_check))
    return LOOM_EXPORT_MODE_REDACTED;
  if (gtk_check_button_get_active (self->mode_compact_check))
    return LOOM_EXPORT_MODE_COMPACT;
  return LOOM_EXPORT_MODE_FULL;
}

void
loom_export_assistant_set_mode (LoomExportAssistant *self,
                                LoomExportMode       mode)
{
  g_return_if_fail (LOOM_IS_EXPORT_ASSISTANT (self));

  switch (mode)
    {
    case LOOM_EXPORT_MODE_REDACTED:
      gtk_check_button_set_active (self->mode_redacted_check, TRUE);
      break;
    case LOOM_EXPORT_MODE_COMPACT:
      gtk_check_button_set_active (self->mode_compact_check, TRUE);
      break;
    case LOOM_EXPORT_MODE_FULL:
    default:
      gtk_check_button_set_active (self->mode_full_check, TRUE);
      break;
    }
}

const char *
loom_export_assistant_get_destination (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), NULL);

  return self->destination;
}

void
loom_export_assistant_set_destination (LoomExportAssistant *self,
                                       const char          *path)
{
  g_return_if_fail (LOOM_IS_EXPORT_ASSISTANT (self));
  g_return_if_fail (path == NULL || g_path_is_absolute (path));
  g_return_if_fail (!self->running);

  if (g_strcmp0 (self->destination, path) == 0)
    return;
  g_free (self->destination);
  self->destination = g_strdup (path);
  update_folder_row (self);
  update_buttons (self);
}

gboolean
loom_export_assistant_get_running (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), FALSE);

  return self->running;
}

void
loom_export_assistant_hold_export (LoomExportAssistant *self,
                                   const char          *step)
{
  g_return_if_fail (LOOM_IS_EXPORT_ASSISTANT (self));

  g_free (self->hold_step);
  self->hold_step = g_strdup (step);
  if (self->relay != NULL)
    loom_export_relay_hold (self->relay, step);
}

gboolean
loom_export_assistant_get_encrypt (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), FALSE);

  return gtk_switch_get_active (self->encrypt_switch);
}

gboolean
loom_export_assistant_get_can_encrypt (LoomExportAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_EXPORT_ASSISTANT (self), FALSE);

  return gtk_widget_get_sensitive (GTK_WIDGET (self->encrypt_row));
}

void
loom_export_assistant_set_encrypt (LoomExportAssistant *self,
                                   gboolean             encrypt)
{
  g_return_if_fail (LOOM_IS_EXPORT_ASSISTANT (self));
  g_return_if_fail (!self->running);

  /* As the switch does: only where the choices make a whole backup. */
  if (encrypt && !loom_export_assistant_get_can_encrypt (self))
    return;
  gtk_switch_set_active (self->encrypt_switch, encrypt);
}
