/* loom-delete-dialog.c — asks before deleting sessions for good, listing exactly what goes.
 *
 * The list is the core's dry run (LoomDeletePlan): the sessions by title, sub-agent sessions
 * included, and how many messages, events and search entries go with them. Executing the plan
 * removes those rows and no others, so what the dialog shows is what happens.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-delete-dialog.h"
#include "loom-session.h"

struct _LoomDeleteDialog
{
  AdwMessageDialog parent_instance;

  LoomDeletePlan *plan;

  GtkLabel   *rows_label;
  GtkListBox *session_list;
};

G_DEFINE_FINAL_TYPE (LoomDeleteDialog, loom_delete_dialog, ADW_TYPE_MESSAGE_DIALOG)

static void
loom_delete_dialog_dispose (GObject *object)
{
  LoomDeleteDialog *self = LOOM_DELETE_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_DELETE_DIALOG);
  g_clear_object (&self->plan);

  G_OBJECT_CLASS (loom_delete_dialog_parent_class)->dispose (object);
}

static void
loom_delete_dialog_class_init (LoomDeleteDialogClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_delete_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-delete-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomDeleteDialog, rows_label);
  gtk_widget_class_bind_template_child (widget_class, LoomDeleteDialog, session_list);
}

static void
loom_delete_dialog_init (LoomDeleteDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

static GtkWidget *
create_session_row (LoomSession *session)
{
  const LoomSessionRecord *record = loom_session_get_record (session);
  GtkWidget               *row = adw_action_row_new ();

  /* Titles are the agents' and the users' text, not markup. */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), loom_session_get_title (session));
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 2);
  if (g_strcmp0 (record->session_type, "subagent") == 0)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _ ("Sub-agent session"));
  else if (loom_session_get_project_name (session) != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), loom_session_get_project_name (session));

  return row;
}

static void
append_phrase (GString *text,
               char    *phrase)
{
  if (text->len > 0)
    /* Translators: the separator between "12 messages", "30 events", … */
    g_string_append (text, _ (", "));
  g_string_append (text, phrase);
  g_free (phrase);
}

char *
loom_delete_dialog_describe_rows (LoomDeletePlan *plan)
{
  GString *text = g_string_new (NULL);
  guint    n;

  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (plan), NULL);

  n = (guint)loom_delete_plan_count (plan, "messages");
  append_phrase (text, g_strdup_printf (ngettext ("%'u message", "%'u messages", n), n));
  n = (guint)loom_delete_plan_count (plan, "events");
  append_phrase (text, g_strdup_printf (ngettext ("%'u event", "%'u events", n), n));
  n = (guint)loom_delete_plan_count (plan, "search_index");
  append_phrase (text, g_strdup_printf (ngettext ("%'u search entry", "%'u search entries", n), n));

  /* Rarely there: said only when something of the kind goes. */
  if ((n = (guint)loom_delete_plan_count (plan, "artifacts")) > 0)
    append_phrase (text, g_strdup_printf (ngettext ("%'u artifact", "%'u artifacts", n), n));
  if ((n = (guint)loom_delete_plan_count (plan, "summaries")) > 0)
    append_phrase (text, g_strdup_printf (ngettext ("%'u summary", "%'u summaries", n), n));

  return g_string_free (text, FALSE);
}

LoomDeleteDialog *
loom_delete_dialog_new (GtkWindow      *parent,
                        LoomDeletePlan *plan,
                        gboolean        empty_trash)
{
  LoomDeleteDialog *self;
  g_autofree char  *rows = NULL;
  g_autofree char  *removed = NULL;
  guint             n_sessions;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LOOM_IS_DELETE_PLAN (plan), NULL);

  self = g_object_new (LOOM_TYPE_DELETE_DIALOG, "transient-for", parent, NULL);
  self->plan = g_object_ref (plan);
  n_sessions = loom_delete_plan_get_n_sessions (plan);

  if (empty_trash)
    {
      adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), _ ("Empty Trash?"));
      adw_message_dialog_set_response_label (ADW_MESSAGE_DIALOG (self), "delete",
                                             _ ("_Empty Trash"));
    }
  else if (n_sessions == 1)
    {
      adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (self), _ ("Delete Session Permanently?"));
    }
  else
    {
      adw_message_dialog_format_heading (ADW_MESSAGE_DIALOG (self),
                                         ngettext ("Delete %'u Session Permanently?",
                                                   "Delete %'u Sessions Permanently?", n_sessions),
                                         n_sessions);
    }

  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (self),
                               ngettext ("This session and everything recorded in it will be "
                                         "removed from the history. This cannot be undone. The "
                                         "agent’s own files are left as they are.",
                                         "These sessions and everything recorded in them will be "
                                         "removed from the history. This cannot be undone. The "
                                         "agents’ own files are left as they are.",
                                         n_sessions));

  for (guint i = 0; i < n_sessions; i++)
    gtk_list_box_append (self->session_list,
                         create_session_row (loom_delete_plan_get_session (plan, i)));

  rows = loom_delete_dialog_describe_rows (plan);
  /* Translators: %s lists what goes, as in "12 messages, 30 events, 42 search entries". */
  removed = g_strdup_printf (_ ("Also removed: %s."), rows);
  gtk_label_set_label (self->rows_label, removed);

  return self;
}

LoomDeletePlan *
loom_delete_dialog_get_plan (LoomDeleteDialog *self)
{
  g_return_val_if_fail (LOOM_IS_DELETE_DIALOG (self), NULL);

  return self->plan;
}
