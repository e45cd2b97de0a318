/* loom-sweep-assistant.c — the archive sweep's assistant: age, sessions, folder, progress,
 * summary.
 *
 * The core does the sweep (loom_sweep_run_async ()): each approved session backed up,
 * verified, then archived, one after the other, on a connection of its own. The assistant
 * only gathers the choices and shows what the worker reports, through a relay
 * (loom-backup-relay.h). The eligible sessions are looked for in a thread as well, on a
 * connection of its own: on a large store the query takes a moment, and the window must go
 * on drawing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-backup-key-task.h"
#include "loom-backup-relay.h"
#include "loom-recovery-key-dialog.h"
#include "loom-sweep-assistant.h"
#include "loom-sweep.h"

struct _LoomSweepAssistant
{
  AdwWindow parent_instance;

  LoomStore *store;
  GSettings *settings;
  char      *destination;

  /* The eligible sessions of the last look, and the age they were looked for at. */
  GPtrArray    *candidates;  /* LoomSweepCandidate */
  GPtrArray    *checks;      /* GtkCheckButton, one per candidate, the same order */
  guint         listed_days; /* 0: not looked for yet */
  GCancellable *list_cancellable;
  guint         n_selected;

  /* The sweep, while it runs, and what it did. */
  GCancellable         *cancellable;
  LoomBackupRelay      *relay;
  char                 *hold_step;
  LoomBackupKey        *key;
  GStrv                 swept_ids;
  LoomSweepResult      *result;
  char                 *error_message; /* the sweep could not start: why */
  GtkFileChooserNative *chooser;
  GPtrArray            *summary_lists; /* the widgets added to summary_box */
  guint                 running : 1;
  guint                 cancelled : 1;
  guint                 disposed : 1;
  guint                 close_when_stopped : 1;

  GtkButton           *archive_button;
  GtkButton           *back_button;
  GtkButton           *cancel_button;
  GtkWidget           *close_button;
  GtkSpinButton       *days_spin;
  AdwStatusPage       *empty_page;
  GtkSwitch           *encrypt_switch;
  AdwActionRow        *folder_row;
  AdwStatusPage       *list_error_page;
  GtkSpinner          *loading_spinner;
  GtkWidget           *next_button;
  GtkWidget           *open_folder_button;
  GtkProgressBar      *progress_bar;
  AdwStatusPage       *progress_page;
  GtkSwitch           *remember_switch;
  AdwStatusPage       *result_page;
  AdwPreferencesGroup *sessions_group;
  GtkStack            *sessions_stack;
  GtkStack            *stack;
  GtkLabel            *step_label;
  GtkWidget           *summary_box;
  AdwWindowTitle      *window_title;
};

G_DEFINE_FINAL_TYPE (LoomSweepAssistant, loom_sweep_assistant, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_PAGE,
  PROP_RUNNING,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  SWEPT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *const pages[] = { "threshold", "sessions", "destination", "progress",
                                     "summary" };

enum
{
  PAGE_THRESHOLD,
  PAGE_SESSIONS,
  PAGE_DESTINATION,
  PAGE_PROGRESS,
  PAGE_SUMMARY,
  N_CHOICE_PAGES = PAGE_PROGRESS,
};

static void update_buttons (LoomSweepAssistant *self);
static void cancel_sweep (LoomSweepAssistant *self);

/* ——— Pages and buttons ——— */

static guint
page_index (LoomSweepAssistant *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    if (g_strcmp0 (name, pages[i]) == 0)
      return i;
  g_assert_not_reached ();
}

static void
show_page (LoomSweepAssistant *self,
           guint               index)
{
  g_assert (index < G_N_ELEMENTS (pages));

  gtk_stack_set_visible_child_name (self->stack, pages[index]);
}

static gboolean
loading (LoomSweepAssistant *self)
{
  return self->list_cancellable != NULL;
}

static void
on_page_changed_cb (LoomSweepAssistant *self)
{
  GtkStackPage *page;
  guint         index;

  g_assert (LOOM_IS_SWEEP_ASSISTANT (self));

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
update_buttons (LoomSweepAssistant *self)
{
  guint    index = page_index (self);
  gboolean choosing = index < N_CHOICE_PAGES;
  gboolean can_next = (index == PAGE_THRESHOLD) ||
                      (index == PAGE_SESSIONS && !loading (self) && self->n_selected > 0);

  gtk_widget_set_visible (GTK_WIDGET (self->back_button), choosing && index > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button),
                          index == PAGE_THRESHOLD || (index == PAGE_PROGRESS && self->running));
  gtk_widget_set_visible (self->next_button, choosing && index < PAGE_DESTINATION);
  gtk_widget_set_visible (GTK_WIDGET (self->archive_button), index == PAGE_DESTINATION);
  gtk_widget_set_visible (self->close_button, index == PAGE_SUMMARY);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.back", choosing && index > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.next", can_next);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.archive",
                                 index == PAGE_DESTINATION && self->destination != NULL &&
                                   self->n_selected > 0 && !self->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.cancel",
                                 index != PAGE_PROGRESS || (self->running && !self->cancelled));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.select-all",
                                 self->candidates->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.select-none",
                                 self->candidates->len > 0);
}

static char *
shown_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize       home_len = strlen (home);

  if (home_len > 1 && g_str_has_prefix (path, home) &&
      (path[home_len] == '/' || path[home_len] == '\0'))
    return g_strconcat ("~", path + home_len, NULL);
  return g_strdup (path);
}

static void
update_folder_row (LoomSweepAssistant *self)
{
  if (self->destination != NULL)
    {
      g_autofree char *name = g_path_get_basename (self->destination);
      g_autofree char *shown = shown_path (self->destination);
      g_autofree char *escaped_name = g_markup_escape_text (name, -1);
      g_autofree char *escaped_shown = g_markup_escape_text (shown, -1);

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

/* ——— The eligible sessions ——— */

static char *
format_day (gint64 unix_ms)
{
  g_autoptr (GDateTime) time = g_date_time_new_from_unix_local (unix_ms / 1000);

  return time != NULL ? g_date_time_format (time, "%e %b %Y") : g_strdup ("");
}

static void
update_total (LoomSweepAssistant *self)
{
  g_autofree char *text = NULL;

  /* Translators: the eligible sessions of the sweep, and how many are ticked. */
  text = g_strdup_printf (
    ngettext ("%'u session, %'u selected", "%'u sessions, %'u selected", self->candidates->len),
    self->candidates->len, self->n_selected);
  adw_preferences_group_set_description (self->sessions_group, text);
  update_buttons (self);
}

static void
on_check_toggled (GtkCheckButton     *check,
                  LoomSweepAssistant *self)
{
  if (gtk_check_button_get_active (check))
    self->n_selected++;
  else
    self->n_selected--;
  update_total (self);
}

static void
clear_rows (LoomSweepAssistant *self)
{
  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkWidget *row = gtk_widget_get_ancestor (self->checks->pdata[i], ADW_TYPE_ACTION_ROW);

      g_signal_handlers_disconnect_by_data (self->checks->pdata[i], self);
      adw_preferences_group_remove (self->sessions_group, row);
    }
  g_ptr_array_set_size (self->checks, 0);
  g_ptr_array_set_size (self->candidates, 0);
  self->n_selected = 0;
}

static GtkWidget *
candidate_row_new (LoomSweepAssistant       *self,
                   const LoomSweepCandidate *candidate)
{
  GtkWidget       *row = adw_action_row_new ();
  GtkWidget       *check = gtk_check_button_new ();
  g_autofree char *day = format_day (candidate->last_active);
  g_autofree char *messages = NULL;
  g_autofree char *subtitle = NULL;
  const char      *title = candidate->title != NULL && candidate->title[0] != '\0'
                             ? candidate->title
                             : _ ("Untitled session");

  messages = g_strdup_printf (ngettext ("%'" G_GUINT64_FORMAT " message",
                                        "%'" G_GUINT64_FORMAT " messages",
                                        (gulong)MIN (candidate->message_count, G_MAXULONG)),
                              candidate->message_count);
  /* Translators: a session to archive: "Last active 3 May 2026 · 42 messages · claude-opus". */
  subtitle = candidate->model != NULL
               ? g_strdup_printf (_ ("Last active %s · %s · %s"), g_strstrip (day), messages,
                                  candidate->model)
               : g_strdup_printf (_ ("Last active %s · %s"), g_strstrip (day), messages);

  /* Titles come from transcripts: plain text, never markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_RELATION_LABELLED_BY, row,
                                  NULL, -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  g_object_set_data_full (G_OBJECT (check), "loom-uuid", g_strdup (candidate->session_id), g_free);
  g_signal_connect (check, "toggled", G_CALLBACK (on_check_toggled), self);
  g_ptr_array_add (self->checks, check);
  return row;
}

static void
find_eligible_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  const char *path = task_data;
  guint       days = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (task), "loom-days"));
  g_autoptr (LoomStore) store = NULL;
  GError    *error = NULL;
  GPtrArray *found;

  store = loom_store_open (path, &error);
  if (store == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  found = loom_sweep_find_eligible (store, days, g_get_real_time () / 1000, &error);
  if (found == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, found, (GDestroyNotify)g_ptr_array_unref);
}

static void
on_eligible_found (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr (LoomSweepAssistant) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) found = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_task_get_cancellable (G_TASK (result)) != self->list_cancellable || self->disposed)
    return;
  g_clear_object (&self->list_cancellable);
  gtk_spinner_stop (self->loading_spinner);

  if (found == NULL)
    {
      self->listed_days = 0;
      adw_status_page_set_description (self->list_error_page, error->message);
      gtk_stack_set_visible_child_name (self->sessions_stack, "error");
    }
  else if (found->len == 0)
    {
      /* Translators: the sweep's empty state; %u is the age in days. */
      g_autofree char *text = g_strdup_printf (
        ngettext ("No sessions older than %u day. Nothing to archive.",
                  "No sessions older than %u days. Nothing to archive.", self->listed_days),
        self->listed_days);

      adw_status_page_set_description (self->empty_page, text);
      gtk_stack_set_visible_child_name (self->sessions_stack, "empty");
    }
  else
    {
      for (guint i = 0; i < found->len; i++)
        {
          LoomSweepCandidate *candidate = g_ptr_array_steal_index (found, i--);

          g_ptr_array_add (self->candidates, candidate);
          adw_preferences_group_add (self->sessions_group, candidate_row_new (self, candidate));
          self->n_selected++;
        }
      gtk_stack_set_visible_child_name (self->sessions_stack, "list");
    }
  update_total (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* Looks for the eligible sessions again when the age changed since the last look. */
static void
list_eligible (LoomSweepAssistant *self)
{
  guint days = loom_sweep_assistant_get_days (self);
  g_autoptr (GTask) task = NULL;

  if (days == self->listed_days && !loading (self))
    return;

  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  clear_rows (self);
  self->listed_days = days;
  self->list_cancellable = g_cancellable_new ();
  gtk_stack_set_visible_child_name (self->sessions_stack, "loading");
  gtk_spinner_start (self->loading_spinner);

  task = g_task_new (NULL, self->list_cancellable, on_eligible_found, g_object_ref (self));
  g_task_set_source_tag (task, list_eligible);
  g_task_set_task_data (task, g_strdup (loom_store_get_path (self->store)), g_free);
  g_object_set_data (G_OBJECT (task), "loom-days", GUINT_TO_POINTER (days));
  g_task_run_in_thread (task, find_eligible_thread);
  update_buttons (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

/* ——— Progress ——— */

static void
on_sweep_progress (GObject                *target,
                   const LoomBackupReport *report)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (target);
  g_autofree char    *text = NULL;
  const char         *step;
  double              share = 0.0;

  if (report->total == 0)
    return;

  /* Translators: "Session 2 of 5: Fix the flaky login test". */
  text = g_strdup_printf (_ ("Session %'u of %'u: %s"), report->index + 1, report->total,
                          report->name != NULL ? report->name : "");
  adw_status_page_set_description (self->progress_page, text);

  if (g_strcmp0 (report->step, "verify") == 0)
    {
      step = _ ("Verifying the backup");
      share = 0.6;
    }
  else if (g_strcmp0 (report->step, "archive") == 0)
    {
      step = _ ("Archiving the session");
      share = 0.9;
    }
  else
    {
      step = _ ("Writing the backup");
      share = 0.2;
    }
  gtk_label_set_text (self->step_label, step);
  gtk_progress_bar_set_fraction (self->progress_bar, (report->index + share) / report->total);
}

/* ——— Summary ——— */

static void
clear_summary (LoomSweepAssistant *self)
{
  for (guint i = 0; i < self->summary_lists->len; i++)
    gtk_box_remove (GTK_BOX (self->summary_box), self->summary_lists->pdata[i]);
  g_ptr_array_set_size (self->summary_lists, 0);
}

static GtkListBox *
add_summary_list (LoomSweepAssistant *self,
                  const char         *heading)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (heading);
  GtkWidget *list = gtk_list_box_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_add_css_class (label, "heading");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, heading,
                                  -1);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), list);
  gtk_box_append (GTK_BOX (self->summary_box), box);
  g_ptr_array_add (self->summary_lists, box);
  return GTK_LIST_BOX (list);
}

static void
add_row (GtkListBox *list,
         const char *title,
         const char *subtitle,
         const char *icon_name,
         const char *icon_class)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
    }
  if (icon_name != NULL)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name (icon_name);

      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL, "", -1);
      if (icon_class != NULL)
        gtk_widget_add_css_class (icon, icon_class);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  gtk_list_box_append (list, row);
}

static void
show_summary (LoomSweepAssistant *self)
{
  LoomSweepResult *result = self->result;
  guint            n_archived = result != NULL ? result->archived->len : 0;
  guint            n_failed = result != NULL ? result->failed->len : 0;
  g_autofree char *title = NULL;
  const char      *icon;
  g_autofree char *description = NULL;

  clear_summary (self);

  if (self->error_message != NULL)
    {
      icon = "dialog-error-symbolic";
      title = g_strdup (_ ("Nothing Was Archived"));
      description = g_markup_escape_text (self->error_message, -1);
    }
  else if (self->cancelled || (result != NULL && result->cancelled))
    {
      icon = "process-stop-symbolic";
      title = g_strdup (_ ("Sweep Cancelled"));
      description = g_strdup (n_archived == 0
                                ? _ ("No session was archived")
                                : ngettext ("The session archived before the "
                                            "cancel stays archived, with its backup",
                                            "The sessions archived before the "
                                            "cancel stay archived, with their backups",
                                            n_archived));
    }
  else if (n_failed == 0)
    {
      icon = "emblem-ok-symbolic";
      title = g_strdup_printf (
        ngettext ("%'u Session Archived", "%'u Sessions Archived", n_archived), n_archived);
      description = g_strdup (_ ("Each was backed up and its backup verified first"));
    }
  else
    {
      icon = "dialog-warning-symbolic";
      title = g_strdup_printf (ngettext ("%'u Session Could Not Be Archived",
                                         "%'u Sessions Could Not Be Archived", n_failed),
                               n_failed);
      description = g_strdup_printf (
        ngettext ("%'u archived; the one that failed stays where it was, not archived",
                  "%'u archived; those that failed stay where they were, not archived", n_failed),
        n_archived);
    }
  adw_status_page_set_icon_name (self->result_page, icon);
  adw_status_page_set_title (self->result_page, title);
  adw_status_page_set_description (self->result_page, description);

  /* What failed first: it is what the person has to act on. */
  if (n_failed > 0)
    {
      GtkListBox *failures = add_summary_list (self, _ ("Not Archived"));

      for (guint i = 0; i < n_failed; i++)
        {
          const LoomSweepFailure *failure = g_ptr_array_index (result->failed, i);

          add_row (failures,
                   failure->title != NULL && failure->title[0] != '\0' ? failure->title
                                                                       : failure->session_id,
                   failure->error != NULL ? failure->error->message : NULL, "dialog-error-symbolic",
                   "error");
        }
    }

  if (n_archived > 0)
    {
      GtkListBox      *archived = add_summary_list (self, _ ("Archived"));
      GtkListBox      *packages = add_summary_list (self, _ ("Backups Written"));
      g_autofree char *artifacts = g_strdup_printf ("%'u", result->n_artifacts);
      GtkListBox      *counts = add_summary_list (self, _ ("Artifacts"));

      for (guint i = 0; i < n_archived; i++)
        {
          const char *session_title = g_ptr_array_index (result->titles, i);

          add_row (archived,
                   session_title != NULL && session_title[0] != '\0' ? session_title
                                                                     : _ ("Untitled session"),
                   NULL, "emblem-ok-symbolic", "success");
        }
      for (guint i = 0; i < result->packages->len; i++)
        {
          const char      *path = g_ptr_array_index (result->packages, i);
          g_autofree char *name = g_path_get_basename (path);

          add_row (packages, name, path, NULL, NULL);
        }
      add_row (counts, _ ("Files backed up from the sessions’ workspaces"), NULL, NULL, NULL);
      {
        GtkWidget *row = gtk_widget_get_last_child (GTK_WIDGET (counts));
        GtkWidget *label = gtk_label_new (artifacts);

        gtk_widget_add_css_class (label, "dim-label");
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
      }
    }
  gtk_widget_set_visible (self->open_folder_button, n_archived > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "assistant.open-folder", n_archived > 0);
  show_page (self, PAGE_SUMMARY);
}

/* ——— The sweep ——— */

static void
set_running (LoomSweepAssistant *self,
             gboolean            running)
{
  if (self->running == !!running)
    return;
  self->running = !!running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
sweep_stopped (LoomSweepAssistant *self)
{
  if (self->relay != NULL)
    {
      loom_backup_relay_stop (self->relay);
      g_clear_pointer (&self->relay, loom_backup_relay_unref);
    }
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->key, loom_backup_key_free);
  set_running (self, FALSE);
  /* Archived sessions leave the main list: it reloads. */
  g_signal_emit (self, signals[SWEPT], 0);

  if (self->close_when_stopped)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  /* What was swept is not eligible any more. */
  self->listed_days = 0;
  show_summary (self);
}

static void
on_swept (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr (LoomSweepAssistant) self = user_data;
  g_autoptr (GError) error = NULL;

  g_clear_pointer (&self->result, loom_sweep_result_free);
  self->result = loom_sweep_run_finish (LOOM_STORE (object), result, &error);
  if (self->result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->cancelled = TRUE;
      else
        self->error_message = g_strdup (error->message);
    }
  if (self->disposed)
    {
      set_running (self, FALSE);
      return;
    }
  sweep_stopped (self);
}

static void
run_sweep (LoomSweepAssistant *self)
{
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      self->cancelled = TRUE;
      sweep_stopped (self);
      return;
    }
  adw_status_page_set_title (self->progress_page, _ ("Archiving…"));
  loom_sweep_run_async (self->store, (const char *const *)self->swept_ids, self->destination,
                        self->key, loom_backup_relay_sweep_progress, self->relay, self->cancellable,
                        on_swept, g_object_ref (self));
}

static void
on_key_ready (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr (LoomSweepAssistant) self = user_data;
  g_autoptr (GError) error = NULL;
  gboolean created = FALSE;

  self->key = loom_backup_key_task_finish (result, &created, &error);
  if (self->disposed)
    {
      set_running (self, FALSE);
      return;
    }
  if (self->key == NULL)
    {
      /* Fails closed: no key, no backup, nothing archived. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->cancelled = TRUE;
      else
        self->error_message = g_strdup_printf (
          _ ("The backups were to be encrypted, and the backup key could not be "
             "had: %s"),
          error->message);
      sweep_stopped (self);
      return;
    }
  /* Made by this sweep: the one time its recovery key is shown unasked. */
  if (created)
    loom_recovery_key_dialog_show (GTK_WINDOW (self), self->key);
  run_sweep (self);
}

static void
remember_destination (LoomSweepAssistant *self)
{
  g_autofree char *saved = g_settings_get_string (self->settings, "backup-folder");

  if (gtk_switch_get_active (self->remember_switch))
    g_settings_set_string (self->settings, "backup-folder", self->destination);
  else if (g_strcmp0 (saved, self->destination) == 0)
    g_settings_set_string (self->settings, "backup-folder", "");
}

static void
start_sweep (LoomSweepAssistant *self)
{
  g_autoptr (GStrvBuilder) ids = g_strv_builder_new ();

  g_assert (!self->running);
  g_assert (self->destination != NULL);

  remember_destination (self);
  for (guint i = 0; i < self->checks->len; i++)
    if (gtk_check_button_get_active (self->checks->pdata[i]))
      g_strv_builder_add (ids, ((LoomSweepCandidate *)self->candidates->pdata[i])->session_id);
  g_clear_pointer (&self->swept_ids, g_strfreev);
  self->swept_ids = g_strv_builder_end (ids);

  g_clear_pointer (&self->result, loom_sweep_result_free);
  g_clear_pointer (&self->error_message, g_free);
  self->cancelled = FALSE;
  self->cancellable = g_cancellable_new ();
  self->relay = loom_backup_relay_new (G_OBJECT (self), on_sweep_progress);
  loom_backup_relay_hold (self->relay, self->hold_step);

  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  adw_status_page_set_description (self->progress_page, NULL);
  set_running (self, TRUE);
  show_page (self, PAGE_PROGRESS);

  if (gtk_switch_get_active (self->encrypt_switch))
    {
      gtk_label_set_text (self->step_label, _ ("Getting the backup key from the keyring"));
      adw_status_page_set_title (self->progress_page, _ ("Preparing…"));
      loom_backup_key_load_or_create_async (self->cancellable, on_key_ready, g_object_ref (self));
    }
  else
    {
      gtk_label_set_text (self->step_label, "");
      run_sweep (self);
    }
}

static void
cancel_sweep (LoomSweepAssistant *self)
{
  g_assert (self->running);

  self->cancelled = TRUE;
  adw_status_page_set_title (self->progress_page, _ ("Cancelling…"));
  g_cancellable_cancel (self->cancellable);
  if (self->relay != NULL)
    loom_backup_relay_hold (self->relay, NULL);
  update_buttons (self);
}

/* ——— Actions ——— */

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (widget);
  guint               index = page_index (self);

  if (index > 0 && index < N_CHOICE_PAGES)
    show_page (self, index - 1);
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (widget);
  guint               index = page_index (self);

  if (index == PAGE_THRESHOLD)
    {
      gtk_spin_button_update (self->days_spin);
      show_page (self, PAGE_SESSIONS);
      list_eligible (self);
    }
  else if (index == PAGE_SESSIONS && !loading (self) && self->n_selected > 0)
    {
      show_page (self, PAGE_DESTINATION);
    }
}

static void
archive_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (widget);

  if (self->destination == NULL || self->running || self->n_selected == 0 ||
      page_index (self) != PAGE_DESTINATION)
    return;
  start_sweep (self);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (widget);

  if (self->running)
    {
      if (!self->cancelled)
        cancel_sweep (self);
      return;
    }
  gtk_window_close (GTK_WINDOW (self));
}

static void
select_all_or_none (LoomSweepAssistant *self,
                    gboolean            active)
{
  for (guint i = 0; i < self->checks->len; i++)
    gtk_check_button_set_active (self->checks->pdata[i], active);
}

static void
select_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  select_all_or_none (LOOM_SWEEP_ASSISTANT (widget), TRUE);
}

static void
select_none_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  select_all_or_none (LOOM_SWEEP_ASSISTANT (widget), FALSE);
}

static void
on_folder_chosen_cb (LoomSweepAssistant   *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = folder != NULL ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        loom_sweep_assistant_set_destination (self, path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (widget);

  if (self->chooser != NULL)
    return;

  /* Native, so that in a sandbox the portal grants access to the folder chosen. */
  self->chooser = gtk_file_chooser_native_new (_ ("Back Up To"), GTK_WINDOW (self),
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
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (widget);
  g_autoptr (GFile) folder = NULL;
  g_autofree char *uri = NULL;

  if (self->destination == NULL)
    return;
  folder = g_file_new_for_path (self->destination);
  uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

/* ——— GObject ——— */

static void
loom_sweep_assistant_activate_default (GtkWindow *window)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (window);
  guint               index = page_index (self);

  if (index < PAGE_DESTINATION)
    gtk_widget_activate_action (GTK_WIDGET (self), "assistant.next", NULL);
  else if (index == PAGE_DESTINATION)
    gtk_widget_activate_action (GTK_WIDGET (self), "assistant.archive", NULL);
  else if (index == PAGE_SUMMARY)
    gtk_window_close (window);
}

static gboolean
loom_sweep_assistant_close_request (GtkWindow *window)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (window);

  /* Closing while a sweep runs cancels it; the window goes once the core has stopped, so
   * that no session is left half-swept behind it. */
  if (self->running)
    {
      self->close_when_stopped = TRUE;
      if (!self->cancelled)
        cancel_sweep (self);
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }

  return GTK_WINDOW_CLASS (loom_sweep_assistant_parent_class)->close_request (window);
}

static void
loom_sweep_assistant_dispose (GObject *object)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (object);

  self->disposed = TRUE;
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->list_cancellable);
  if (self->relay != NULL)
    loom_backup_relay_hold (self->relay, NULL);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->checks != NULL)
    for (guint i = 0; i < self->checks->len; i++)
      g_signal_handlers_disconnect_by_data (self->checks->pdata[i], self);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  g_clear_pointer (&self->summary_lists, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SWEEP_ASSISTANT);

  G_OBJECT_CLASS (loom_sweep_assistant_parent_class)->dispose (object);
}

static void
loom_sweep_assistant_finalize (GObject *object)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (object);

  if (self->relay != NULL)
    {
      loom_backup_relay_stop (self->relay);
      g_clear_pointer (&self->relay, loom_backup_relay_unref);
    }
  g_clear_object (&self->cancellable);
  g_clear_object (&self->list_cancellable);
  g_clear_object (&self->store);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->destination, g_free);
  g_clear_pointer (&self->hold_step, g_free);
  g_clear_pointer (&self->candidates, g_ptr_array_unref);
  g_clear_pointer (&self->key, loom_backup_key_free);
  g_clear_pointer (&self->swept_ids, g_strfreev);
  g_clear_pointer (&self->result, loom_sweep_result_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (loom_sweep_assistant_parent_class)->finalize (object);
}

static void
loom_sweep_assistant_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  LoomSweepAssistant *self = LOOM_SWEEP_ASSISTANT (object);

  switch (prop_id)
    {
    case PROP_PAGE:
      g_value_set_string (value, loom_sweep_assistant_get_page (self));
      break;

    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, loading (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_sweep_assistant_class_init (LoomSweepAssistantClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = loom_sweep_assistant_dispose;
  object_class->finalize = loom_sweep_assistant_finalize;
  object_class->get_property = loom_sweep_assistant_get_property;
  window_class->activate_default = loom_sweep_assistant_activate_default;
  window_class->close_request = loom_sweep_assistant_close_request;

  properties[PROP_PAGE] = g_param_spec_string (
    "page", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SWEPT] = g_signal_new ("swept", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                 NULL, NULL, G_TYPE_NONE, 0);

#define BIND_CHILD(name) \
  gtk_widget_class_bind_template_child (widget_class, LoomSweepAssistant, name)

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-sweep-assistant.ui");
  BIND_CHILD (archive_button);
  BIND_CHILD (back_button);
  BIND_CHILD (cancel_button);
  BIND_CHILD (close_button);
  BIND_CHILD (days_spin);
  BIND_CHILD (empty_page);
  BIND_CHILD (encrypt_switch);
  BIND_CHILD (folder_row);
  BIND_CHILD (list_error_page);
  BIND_CHILD (loading_spinner);
  BIND_CHILD (next_button);
  BIND_CHILD (open_folder_button);
  BIND_CHILD (progress_bar);
  BIND_CHILD (progress_page);
  BIND_CHILD (remember_switch);
  BIND_CHILD (result_page);
  BIND_CHILD (sessions_group);
  BIND_CHILD (sessions_stack);
  BIND_CHILD (stack);
  BIND_CHILD (step_label);
  BIND_CHILD (summary_box);
  BIND_CHILD (window_title);

#undef BIND_CHILD

  gtk_widget_class_bind_template_callback (widget_class, on_page_changed_cb);

  gtk_widget_class_install_action (widget_class, "assistant.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "assistant.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "assistant.archive", NULL, archive_action);
  gtk_widget_class_install_action (widget_class, "assistant.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "assistant.select-all", NULL, select_all_action);
  gtk_widget_class_install_action (widget_class, "assistant.select-none", NULL, select_none_action);
  gtk_widget_class_install_action (widget_class, "assistant.choose-folder", NULL,
                                   choose_folder_action);
  gtk_widget_class_install_action (widget_class, "assistant.open-folder", NULL, open_folder_action);

  /* Escape closes, which cancels a sweep under way (close_request). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
loom_sweep_assistant_init (LoomSweepAssistant *self)
{
  self->candidates = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_sweep_candidate_free);
  self->checks = g_ptr_array_new ();
  self->summary_lists = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  update_folder_row (self);
  on_page_changed_cb (self);
}

LoomSweepAssistant *
loom_sweep_assistant_new (GtkWindow *parent,
                          LoomStore *store,
                          GSettings *settings)
{
  LoomSweepAssistant *self;
  g_autofree char    *saved = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (LOOM_TYPE_SWEEP_ASSISTANT, "transient-for", parent, NULL);
  self->store = g_object_ref (store);
  self->settings = g_object_ref (settings);

  loom_sweep_assistant_set_days (self, g_settings_get_uint (settings, "archive-after-days"));
  gtk_switch_set_active (self->encrypt_switch,
                         g_settings_get_boolean (settings, "encrypt-backups"));

  /* The backup folder of the preferences while it still is one; never a default otherwise. */
  saved = g_settings_get_string (settings, "backup-folder");
  if (saved[0] != '\0' && g_path_is_absolute (saved) && g_file_test (saved, G_FILE_TEST_IS_DIR))
    {
      loom_sweep_assistant_set_destination (self, saved);
      gtk_switch_set_active (self->remember_switch, TRUE);
    }

  return self;
}

const char *
loom_sweep_assistant_get_page (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

guint
loom_sweep_assistant_get_days (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), 0);

  return (guint)gtk_spin_button_get_value_as_int (self->days_spin);
}

void
loom_sweep_assistant_set_days (LoomSweepAssistant *self,
                               guint               days)
{
  g_return_if_fail (LOOM_IS_SWEEP_ASSISTANT (self));

  gtk_spin_button_set_value (self->days_spin, days);
}

gboolean
loom_sweep_assistant_get_loading (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), FALSE);

  return loading (self);
}

guint
loom_sweep_assistant_get_n_eligible (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), 0);

  return self->candidates->len;
}

guint
loom_sweep_assistant_get_n_selected (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), 0);

  return self->n_selected;
}

void
loom_sweep_assistant_set_selected (LoomSweepAssistant *self,
                                   const char         *uuid,
                                   gboolean            selected)
{
  g_return_if_fail (LOOM_IS_SWEEP_ASSISTANT (self));
  g_return_if_fail (uuid != NULL);

  for (guint i = 0; i < self->checks->len; i++)
    if (g_strcmp0 (g_object_get_data (self->checks->pdata[i], "loom-uuid"), uuid) == 0)
      gtk_check_button_set_active (self->checks->pdata[i], selected);
}

const char *
loom_sweep_assistant_get_destination (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), NULL);

  return self->destination;
}

void
loom_sweep_assistant_set_destination (LoomSweepAssistant *self,
                                      const char         *path)
{
  g_return_if_fail (LOOM_IS_SWEEP_ASSISTANT (self));
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
loom_sweep_assistant_get_encrypt (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), FALSE);

  return gtk_switch_get_active (self->encrypt_switch);
}

void
loom_sweep_assistant_set_encrypt (LoomSweepAssistant *self,
                                  gboolean            encrypt)
{
  g_return_if_fail (LOOM_IS_SWEEP_ASSISTANT (self));

  gtk_switch_set_active (self->encrypt_switch, encrypt);
}

gboolean
loom_sweep_assistant_get_running (LoomSweepAssistant *self)
{
  g_return_val_if_fail (LOOM_IS_SWEEP_ASSISTANT (self), FALSE);

  return self->running;
}

void
loom_sweep_assistant_hold_sweep (LoomSweepAssistant *self,
                                 const char         *step)
{
  g_return_if_fail (LOOM_IS_SWEEP_ASSISTANT (self));

  g_free (self->hold_step);
  self->hold_step = g_strdup (step);
  if (self->relay != NULL)
    loom_backup_relay_hold (self->relay, step);
}
