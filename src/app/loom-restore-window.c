/* loom-restore-window.c — backups restored, then what came of each.
 *
 * The window is built in code: two pages, the progress and the summary, each a status page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-backup-key-task.h"
#include "loom-backup-relay.h"
#include "loom-backup.h"
#include "loom-error.h"
#include "loom-recovery-key-dialog.h"
#include "loom-restore-window.h"

struct _LoomRestoreWindow
{
  AdwWindow parent_instance;

  LoomStore       *store;
  GStrv            paths;
  GCancellable    *cancellable;
  LoomBackupRelay *relay;
  LoomBackupKey   *recovery_key; /* typed by the person, for the second try */
  /* What all the tries did, merged: LoomRestoreItem each. */
  GPtrArray       *restored;
  GPtrArray       *unchanged;
  GPtrArray       *failed;
  GPtrArray       *missing_key_ids; /* char * */
  guint            running : 1;
  guint            asking : 1;
  guint            asked : 1; /* the recovery key was asked for once already */
  guint            cancelled : 1;
  guint            disposed : 1;
  guint            start_id;

  AdwWindowTitle *window_title;
  GtkWidget      *cancel_button;
  GtkWidget      *close_button;
  GtkStack       *stack;
  AdwStatusPage  *progress_page;
  GtkProgressBar *progress_bar;
  GtkLabel       *path_label;
  AdwStatusPage  *summary_page;
  GtkBox         *summary_box;
};

G_DEFINE_FINAL_TYPE (LoomRestoreWindow, loom_restore_window, ADW_TYPE_WINDOW)

enum
{
  PROP_0,
  PROP_PAGE,
  PROP_RUNNING,
  PROP_ASKING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  RESTORED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void start_restore (LoomRestoreWindow *self,
                           GStrv              paths);

static void
restore_item_free (LoomRestoreItem *item)
{
  g_free (item->path);
  g_free (item->session_id);
  g_free (item->title);
  g_clear_error (&item->error);
  g_free (item);
}

static void
set_running (LoomRestoreWindow *self,
             gboolean           running)
{
  if (self->running == !!running)
    return;
  self->running = !!running;
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (self->close_button, !running);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
set_asking (LoomRestoreWindow *self,
            gboolean           asking)
{
  if (self->asking == !!asking)
    return;
  self->asking = !!asking;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ASKING]);
}

/* ——— Progress ——— */

static void
on_restore_progress (GObject                *target,
                     const LoomBackupReport *report)
{
  LoomRestoreWindow *self = LOOM_RESTORE_WINDOW (target);
  g_autofree char   *name = report->name != NULL ? g_path_get_basename (report->name) : NULL;
  g_autofree char   *text = NULL;

  if (report->total == 0)
    return;
  /* Translators: "Backup 2 of 5: 5d0c7f5e-….loombackup". */
  text = g_strdup_printf (_ ("Backup %'u of %'u: %s"), report->index + 1, report->total,
                          name != NULL ? name : "");
  gtk_label_set_text (self->path_label, text);
  gtk_progress_bar_set_fraction (self->progress_bar, (double)report->index / report->total);
}

/* ——— Summary ——— */

static GtkListBox *
add_list (LoomRestoreWindow *self,
          const char        *heading)
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
  gtk_box_append (self->summary_box, box);
  return GTK_LIST_BOX (list);
}

static void
add_item_row (GtkListBox            *list,
              const LoomRestoreItem *item,
              gboolean               failed)
{
  GtkWidget       *row = adw_action_row_new ();
  g_autofree char *name = g_path_get_basename (item->path);
  const char      *title = item->title != NULL && item->title[0] != '\0' ? item->title : name;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  /* The backup's own name, which the end of a long path would lose; the path in full in the
   * tooltip. */
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               failed && item->error != NULL ? item->error->message : name);
  gtk_widget_set_tooltip_text (row, item->path);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), failed ? 0 : 1);
  if (failed)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");

      gtk_widget_add_css_class (icon, "error");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  gtk_list_box_append (list, row);
}

static void
show_summary (LoomRestoreWindow *self)
{
  guint            n_restored = self->restored->len;
  guint            n_unchanged = self->unchanged->len;
  guint            n_failed = self->failed->len;
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  GtkWidget       *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->summary_box))) != NULL)
    gtk_box_remove (self->summary_box, child);

  if (self->cancelled)
    {
      adw_status_page_set_icon_name (self->summary_page, "process-stop-symbolic");
      title = g_strdup (_ ("Restore Cancelled"));
    }
  else if (n_failed == 0)
    {
      adw_status_page_set_icon_name (self->summary_page, "emblem-ok-symbolic");
      title = n_restored > 0 ? g_strdup_printf (ngettext ("%'u Session Restored",
                                                          "%'u Sessions Restored", n_restored),
                                                n_restored)
                             : g_strdup (_ ("Everything Was Here Already"));
    }
  else
    {
      adw_status_page_set_icon_name (self->summary_page, "dialog-warning-symbolic");
      title = g_strdup_printf (ngettext ("%'u Backup Could Not Be Restored",
                                         "%'u Backups Could Not Be Restored", n_failed),
                               n_failed);
    }
  /* Translators: the restore's counts: "3 restored · 2 unchanged · 1 failed". */
  description = g_strdup_printf (_ ("%'u restored · %'u unchanged · %'u failed"), n_restored,
                                 n_unchanged, n_failed);
  adw_status_page_set_title (self->summary_page, title);
  adw_status_page_set_description (self->summary_page, description);

  if (n_failed > 0)
    {
      GtkListBox *list = add_list (self, _ ("Not Restored"));

      for (guint i = 0; i < n_failed; i++)
        add_item_row (list, self->failed->pdata[i], TRUE);
    }
  if (n_restored > 0)
    {
      GtkListBox *list = add_list (self, _ ("Restored"));

      for (guint i = 0; i < n_restored; i++)
        add_item_row (list, self->restored->pdata[i], FALSE);
    }
  if (n_unchanged > 0)
    {
      GtkListBox *list = add_list (self, _ ("Already Here, Unchanged"));

      for (guint i = 0; i < n_unchanged; i++)
        add_item_row (list, self->unchanged->pdata[i], FALSE);
    }

  gtk_stack_set_visible_child_name (self->stack, "summary");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
}

/* ——— The restore, and the second try with the recovery key ——— */

static void
take_items (GPtrArray *into,
            GPtrArray *from)
{
  for (guint i = 0; i < from->len; i++)
    g_ptr_array_add (into, g_steal_pointer (&from->pdata[i]));
  /* Their free function must not run on what was taken. */
  g_ptr_array_set_free_func (from, NULL);
}

static void
restore_over (LoomRestoreWindow *self)
{
  if (self->relay != NULL)
    {
      loom_backup_relay_stop (self->relay);
      g_clear_pointer (&self->relay, loom_backup_relay_unref);
    }
  set_running (self, FALSE);
  g_signal_emit (self, signals[RESTORED], 0);
  show_summary (self);
}

static void
on_key_kept (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (LoomRestoreWindow) self = user_data;
  g_autoptr (GError) error = NULL;

  if (!loom_backup_key_store_finish (result, &error) && !self->disposed &&
      !g_error_matches (error, LOOM_ERROR, LOOM_ERROR_EXISTS))
    {
      g_autofree char *message = g_strdup_printf (
        _ ("The recovery key opened the backups, but could not be kept in the keyring: %s"),
        error->message);
      GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _ ("Key Not Kept"), message);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _ ("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

static void
on_recovery_key_given (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr (LoomRestoreWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GStrvBuilder) retry = g_strv_builder_new ();
  g_auto (GStrv) paths = NULL;
  gboolean keep = FALSE;

  g_clear_pointer (&self->recovery_key, loom_backup_key_free);
  self->recovery_key = loom_recovery_key_ask_finish (result, &keep, &error);
  set_asking (self, FALSE);
  if (self->disposed)
    return;
  if (self->recovery_key == NULL)
    {
      restore_over (self);
      return;
    }
  if (keep)
    loom_backup_key_store_async (self->recovery_key, NULL, on_key_kept, g_object_ref (self));

  /* The backups that failed for want of a key go again; the others keep their result. */
  for (guint i = 0; i < self->failed->len;)
    {
      LoomRestoreItem *item = self->failed->pdata[i];

      if (g_error_matches (item->error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND))
        {
          g_strv_builder_add (retry, item->path);
          g_ptr_array_remove_index (self->failed, i);
        }
      else
        i++;
    }
  paths = g_strv_builder_end (retry);
  g_ptr_array_set_size (self->missing_key_ids, 0);
  start_restore (self, paths);
}

static void
on_restored (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr (LoomRestoreWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LoomRestoreResult) done = loom_restore_finish (LOOM_STORE (object), result, &error);

  if (self->disposed)
    return;
  if (done == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->cancelled = TRUE;
      else
        {
          LoomRestoreItem *item = g_new0 (LoomRestoreItem, 1);

          item->path = g_strjoinv (", ", self->paths);
          item->error = g_steal_pointer (&error);
          g_ptr_array_add (self->failed, item);
        }
      restore_over (self);
      return;
    }

  take_items (self->restored, done->restored);
  take_items (self->unchanged, done->unchanged);
  take_items (self->failed, done->failed);
  if (done->missing_key_ids != NULL)
    for (guint i = 0; i < done->missing_key_ids->len; i++)
      g_ptr_array_add (self->missing_key_ids, g_strdup (done->missing_key_ids->pdata[i]));

  /* A new computer: the keyring does not have the key yet. Asked for once; a key that does
   * not open them leaves them failed, with the reason. */
  if (self->missing_key_ids->len > 0 && !self->asked && !self->cancelled)
    {
      g_ptr_array_add (self->missing_key_ids, NULL);
      self->asked = TRUE;
      set_asking (self, TRUE);
      gtk_label_set_text (self->path_label, _ ("Waiting for the recovery key"));
      loom_recovery_key_ask_async (GTK_WINDOW (self),
                                   (const char *const *)self->missing_key_ids->pdata, NULL,
                                   on_recovery_key_given, g_object_ref (self));
      g_ptr_array_remove_index (self->missing_key_ids, self->missing_key_ids->len - 1);
      return;
    }
  restore_over (self);
}

static void
start_restore (LoomRestoreWindow *self,
               GStrv              paths)
{
  LoomRestoreOptions options = LOOM_RESTORE_OPTIONS_INIT;

  if (paths == NULL || paths[0] == NULL)
    {
      restore_over (self);
      return;
    }
  if (self->relay == NULL)
    self->relay = loom_backup_relay_new (G_OBJECT (self), on_restore_progress);
  options.recovery_key = self->recovery_key;
  options.progress = loom_backup_relay_restore_progress;
  options.progress_data = self->relay;
  set_running (self, TRUE);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  /* The options are copied by the core before the call returns: the recovery key stays ours,
   * and lives as long as the window. */
  loom_restore_async (self->store, (const char *const *)paths, &options, self->cancellable,
                      on_restored, g_object_ref (self));
}

/* ——— Window ——— */

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  LoomRestoreWindow *self = LOOM_RESTORE_WINDOW (widget);

  if (self->running)
    {
      self->cancelled = TRUE;
      adw_status_page_set_title (self->progress_page, _ ("Cancelling…"));
      g_cancellable_cancel (self->cancellable);
      if (self->relay != NULL)
        loom_backup_relay_hold (self->relay, NULL);
      return;
    }
  gtk_window_close (GTK_WINDOW (self));
}

static gboolean
loom_restore_window_close_request (GtkWindow *window)
{
  LoomRestoreWindow *self = LOOM_RESTORE_WINDOW (window);

  /* A restore under way is cancelled; what it wrote is whole (each session in its own
   * transaction), and the window goes at once. */
  g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (loom_restore_window_parent_class)->close_request (window);
}

static void
loom_restore_window_dispose (GObject *object)
{
  LoomRestoreWindow *self = LOOM_RESTORE_WINDOW (object);

  self->disposed = TRUE;
  g_clear_handle_id (&self->start_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  if (self->relay != NULL)
    loom_backup_relay_stop (self->relay);

  G_OBJECT_CLASS (loom_restore_window_parent_class)->dispose (object);
}

static void
loom_restore_window_finalize (GObject *object)
{
  LoomRestoreWindow *self = LOOM_RESTORE_WINDOW (object);

  g_clear_pointer (&self->relay, loom_backup_relay_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->paths, g_strfreev);
  g_clear_pointer (&self->recovery_key, loom_backup_key_free);
  g_clear_pointer (&self->restored, g_ptr_array_unref);
  g_clear_pointer (&self->unchanged, g_ptr_array_unref);
  g_clear_pointer (&self->failed, g_ptr_array_unref);
  g_clear_pointer (&self->missing_key_ids, g_ptr_array_unref);

  G_OBJECT_CLASS (loom_restore_window_parent_class)->finalize (object);
}

static void
loom_restore_window_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  LoomRestoreWindow *self = LOOM_RESTORE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PAGE:
      g_value_set_string (value, loom_restore_window_get_page (self));
      break;

    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;

    case PROP_ASKING:
      g_value_set_boolean (value, self->asking);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_restore_window_class_init (LoomRestoreWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = loom_restore_window_dispose;
  object_class->finalize = loom_restore_window_finalize;
  object_class->get_property = loom_restore_window_get_property;
  window_class->close_request = loom_restore_window_close_request;

  properties[PROP_PAGE] = g_param_spec_string (
    "page", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                     G_PARAM_STATIC_STRINGS);
  properties[PROP_ASKING] = g_param_spec_boolean ("asking", NULL, NULL, FALSE,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[RESTORED] = g_signal_new ("restored", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "restore.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
loom_restore_window_init (LoomRestoreWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *clamp;
  GtkWidget *inner;
  GtkWidget *scrolled;

  self->restored = g_ptr_array_new_with_free_func ((GDestroyNotify)restore_item_free);
  self->unchanged = g_ptr_array_new_with_free_func ((GDestroyNotify)restore_item_free);
  self->failed = g_ptr_array_new_with_free_func ((GDestroyNotify)restore_item_free);
  self->missing_key_ids = g_ptr_array_new_with_free_func (g_free);
  self->cancellable = g_cancellable_new ();

  gtk_window_set_title (GTK_WINDOW (self), _ ("Restore from Backup"));
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 560);
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 360);

  self->window_title = ADW_WINDOW_TITLE (adw_window_title_new (_ ("Restore from Backup"), NULL));
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), GTK_WIDGET (self->window_title));
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  self->cancel_button = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->cancel_button), "restore.cancel");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), self->cancel_button);
  self->close_button = gtk_button_new_with_mnemonic (_ ("C_lose"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->close_button), "window.close");
  gtk_widget_add_css_class (self->close_button, "suggested-action");
  gtk_widget_set_visible (self->close_button, FALSE);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->close_button);
  gtk_box_append (GTK_BOX (box), header);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_set_transition_type (self->stack, GTK_STACK_TRANSITION_TYPE_CROSSFADE);

  /* The progress. */
  self->progress_page = ADW_STATUS_PAGE (adw_status_page_new ());
  adw_status_page_set_icon_name (self->progress_page, "folder-download-symbolic");
  adw_status_page_set_title (self->progress_page, _ ("Restoring…"));
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 360);
  inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  self->progress_bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress_bar),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _ ("Progress of the restore"), -1);
  self->path_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->path_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->path_label), "caption");
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (self->progress_bar));
  gtk_box_append (GTK_BOX (inner), GTK_WIDGET (self->path_label));
  adw_clamp_set_child (ADW_CLAMP (clamp), inner);
  adw_status_page_set_child (self->progress_page, clamp);
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->progress_page), "progress");

  /* The summary. */
  self->summary_page = ADW_STATUS_PAGE (adw_status_page_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->summary_page), "compact");
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 480);
  self->summary_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 18));
  adw_clamp_set_child (ADW_CLAMP (clamp), GTK_WIDGET (self->summary_box));
  adw_status_page_set_child (self->summary_page, clamp);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->summary_page));
  gtk_stack_add_named (self->stack, scrolled, "summary");

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->stack));
  adw_window_set_content (ADW_WINDOW (self), box);
}

static gboolean
start_cb (gpointer data)
{
  LoomRestoreWindow *self = data;

  self->start_id = 0;
  start_restore (self, self->paths);
  return G_SOURCE_REMOVE;
}

LoomRestoreWindow *
loom_restore_window_new (GtkWindow         *parent,
                         LoomStore         *store,
                         const char *const *paths)
{
  LoomRestoreWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);

  self = g_object_new (LOOM_TYPE_RESTORE_WINDOW, "transient-for", parent, NULL);
  self->store = g_object_ref (store);
  self->paths = g_strdupv ((GStrv)paths);
  /* From the main loop, once the caller has the window: a test may hold it first. */
  self->relay = loom_backup_relay_new (G_OBJECT (self), on_restore_progress);
  self->start_id = g_idle_add (start_cb, self);
  set_running (self, TRUE);
  return self;
}

void
loom_restore_window_hold (LoomRestoreWindow *self,
                          gboolean           hold)
{
  g_return_if_fail (LOOM_IS_RESTORE_WINDOW (self));

  if (self->relay != NULL)
    loom_backup_relay_hold (self->relay, hold ? "" : NULL);
}

const char *
loom_restore_window_get_page (LoomRestoreWindow *self)
{
  g_return_val_if_fail (LOOM_IS_RESTORE_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (self->stack);
}

gboolean
loom_restore_window_get_running (LoomRestoreWindow *self)
{
  g_return_val_if_fail (LOOM_IS_RESTORE_WINDOW (self), FALSE);

  return self->running;
}

gboolean
loom_restore_window_get_asking (LoomRestoreWindow *self)
{
  g_return_val_if_fail (LOOM_IS_RESTORE_WINDOW (self), FALSE);

  return self->asking;
}

guint
loom_restore_window_get_n_restored (LoomRestoreWindow *self)
{
  g_return_val_if_fail (LOOM_IS_RESTORE_WINDOW (self), 0);

  return self->restored->len;
}

guint
loom_restore_window_get_n_unchanged (LoomRestoreWindow *self)
{
  g_return_val_if_fail (LOOM_IS_RESTORE_WINDOW (self), 0);

  return self->unchanged->len;
}

guint
loom_restore_window_get_n_failed (LoomRestoreWindow *self)
{
  g_return_val_if_fail (LOOM_IS_RESTORE_WINDOW (self), 0);

  return self->failed->len;
}
