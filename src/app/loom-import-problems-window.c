/* loom-import-problems-window.c — the records this run's imports could not take whole.
 *
 * Each warning of an import reads "FILE:LINE: what happened" (or "FILE: …" for a whole file),
 * as the command line prints it. Here the row leads with what happened, and says where below
 * it, with the file's name and line; the whole path is the row's tooltip, and "Copy All" gives
 * the warnings as the command line writes them, to paste into a report.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-import-problems-window.h"
#include "loom-toast-queue.h"

struct _LoomImportProblemsWindow
{
  AdwWindow parent_instance;

  LoomImportProblems *problems;

  GtkButton       *clear_button;
  GtkButton       *copy_button;
  GtkListView     *list_view;
  GtkStack        *stack;
  AdwToastOverlay *toast_overlay;
  LoomToastQueue  *toasts;
  AdwWindowTitle  *window_title;
};

G_DEFINE_FINAL_TYPE (LoomImportProblemsWindow, loom_import_problems_window, ADW_TYPE_WINDOW)

/* A warning's message follows its place in lower case; on a row of its own it starts a
 * sentence. Takes @text. */
static char *
capitalize (char *text)
{
  g_autofree char *lower = text;
  gunichar         first = g_utf8_get_char (text);
  char             upper[8] = {
    0,
  };

  if (*text == '\0' || !g_unichar_islower (first))
    return g_steal_pointer (&lower);
  g_unichar_to_utf8 (g_unichar_toupper (first), upper);
  return g_strconcat (upper, g_utf8_next_char (text), NULL);
}

void
loom_import_problem_split (const char *warning,
                           char      **what,
                           char      **where,
                           char      **path)
{
  /* The importers read only .jsonl and .json files; a folder's warning names the folder. The
   * first match is the path: a message may quote another. */
  static GRegex *file_regex, *folder_regex;
  g_autoptr (GMatchInfo) match = NULL;

  g_return_if_fail (warning != NULL);

  if (g_once_init_enter (&file_regex))
    g_once_init_leave (&file_regex, g_regex_new ("^(/.*?\\.jsonl?)(?::([0-9]+))?: (.+)$",
                                                 G_REGEX_OPTIMIZE, 0, NULL));
  if (g_once_init_enter (&folder_regex))
    g_once_init_leave (&folder_regex, g_regex_new ("^(/[^:]*): (.+)$", G_REGEX_OPTIMIZE, 0, NULL));

  if (g_regex_match (file_regex, warning, 0, &match))
    {
      g_autofree char *file = g_match_info_fetch (match, 1);
      g_autofree char *line = g_match_info_fetch (match, 2);
      g_autofree char *name = g_path_get_basename (file);

      *what = capitalize (g_match_info_fetch (match, 3));
      /* Translators: where an import problem is: a file's name and a line number. */
      *where = line != NULL && *line != '\0' ? g_strdup_printf (_ ("%s, line %s"), name, line)
                                             : g_steal_pointer (&name);
      *path = g_steal_pointer (&file);
      return;
    }
  g_clear_pointer (&match, g_match_info_free);

  if (g_regex_match (folder_regex, warning, 0, &match))
    {
      *path = g_match_info_fetch (match, 1);
      *what = capitalize (g_match_info_fetch (match, 2));
      *where = g_strdup (*path);
      return;
    }

  *what = g_strdup (warning);
  *where = NULL;
  *path = NULL;
}

/* A path as a person reads it: the home folder as "~". */
static char *
shorten_home (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize       length = strlen (home);

  if (length > 1 && strncmp (path, home, length) == 0 && path[length] == G_DIR_SEPARATOR)
    return g_strconcat ("~", path + length, NULL);
  return g_strdup (path);
}

/* A row: what happened, and below it where; the whole path is its tooltip, as the row shows
 * only the end of a long one. */
static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *what = gtk_label_new (NULL);
  GtkWidget *where = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);

  gtk_label_set_wrap (GTK_LABEL (what), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (what), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (what), 0.0f);
  gtk_box_append (GTK_BOX (box), what);

  gtk_label_set_ellipsize (GTK_LABEL (where), PANGO_ELLIPSIZE_START);
  gtk_label_set_xalign (GTK_LABEL (where), 0.0f);
  gtk_widget_add_css_class (where, "caption");
  gtk_widget_add_css_class (where, "dim-label");
  gtk_box_append (GTK_BOX (box), where);

  gtk_list_item_set_child (item, box);
  gtk_list_item_set_activatable (item, FALSE);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget       *box = gtk_list_item_get_child (item);
  GtkWidget       *what_label = gtk_widget_get_first_child (box);
  GtkWidget       *where_label = gtk_widget_get_next_sibling (what_label);
  const char      *warning = gtk_string_object_get_string (gtk_list_item_get_item (item));
  g_autofree char *what = NULL;
  g_autofree char *where = NULL;
  g_autofree char *path = NULL;
  g_autofree char *shown_path = NULL;

  loom_import_problem_split (warning, &what, &where, &path);

  /* The text comes from the agents' files and their names: plain text, never markup. */
  gtk_label_set_text (GTK_LABEL (what_label), what);
  gtk_widget_set_visible (where_label, where != NULL);
  if (path != NULL)
    {
      g_autofree char *folder = g_path_get_dirname (path);
      g_autofree char *short_folder = shorten_home (folder);

      /* The folder tells apart the agents and projects: a file's name alone may repeat. */
      shown_path = g_build_filename (short_folder, where, NULL);
    }
  gtk_label_set_text (GTK_LABEL (where_label), shown_path != NULL ? shown_path
                                               : where != NULL    ? where
                                                                  : "");
  gtk_widget_set_tooltip_text (box, path);
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL, what,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, path != NULL ? path : "",
                                  -1);
}

static void
update (LoomImportProblemsWindow *self)
{
  guint n_problems = g_list_model_get_n_items (loom_import_problems_get_model (self->problems));
  g_autofree char *subtitle = NULL;

  if (n_problems > 0)
    subtitle = g_strdup_printf (ngettext ("%'u problem", "%'u problems", n_problems), n_problems);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  gtk_stack_set_visible_child_name (self->stack, n_problems > 0 ? "list" : "empty");
  gtk_widget_set_sensitive (GTK_WIDGET (self->clear_button), n_problems > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), n_problems > 0);
}

static void
on_items_changed_cb (LoomImportProblemsWindow *self,
                     guint                     position,
                     guint                     removed,
                     guint                     added,
                     GListModel               *model)
{
  update (self);
}

static void
on_copy_clicked_cb (LoomImportProblemsWindow *self,
                    GtkButton                *button)
{
  g_autofree char *text = loom_import_problems_to_text (self->problems);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  loom_toast_queue_add (self->toasts, adw_toast_new (_ ("Copied")), FALSE);
}

static void
on_clear_clicked_cb (LoomImportProblemsWindow *self,
                     GtkButton                *button)
{
  loom_import_problems_clear (self->problems);
}

/* The keyboard starts in the list: on Clear, Enter would empty it. */
static void
loom_import_problems_window_map (GtkWidget *widget)
{
  LoomImportProblemsWindow *self = LOOM_IMPORT_PROBLEMS_WINDOW (widget);

  GTK_WIDGET_CLASS (loom_import_problems_window_parent_class)->map (widget);

  if (!gtk_widget_grab_focus (GTK_WIDGET (self->list_view)))
    gtk_window_set_focus (GTK_WINDOW (self), NULL);
}

static void
loom_import_problems_window_dispose (GObject *object)
{
  LoomImportProblemsWindow *self = LOOM_IMPORT_PROBLEMS_WINDOW (object);

  g_clear_object (&self->toasts);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_IMPORT_PROBLEMS_WINDOW);
  g_clear_object (&self->problems);

  G_OBJECT_CLASS (loom_import_problems_window_parent_class)->dispose (object);
}

static void
loom_import_problems_window_class_init (LoomImportProblemsWindowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_import_problems_window_dispose;
  widget_class->map = loom_import_problems_window_map;

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-import-problems-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomImportProblemsWindow, clear_button);
  gtk_widget_class_bind_template_child (widget_class, LoomImportProblemsWindow, copy_button);
  gtk_widget_class_bind_template_child (widget_class, LoomImportProblemsWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, LoomImportProblemsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LoomImportProblemsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, LoomImportProblemsWindow, window_title);
  gtk_widget_class_bind_template_callback (widget_class, on_clear_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked_cb);
}

static void
loom_import_problems_window_init (LoomImportProblemsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->toasts = loom_toast_queue_new (self->toast_overlay);
}

LoomImportProblemsWindow *
loom_import_problems_window_new (GtkWindow          *parent,
                                 LoomImportProblems *problems)
{
  LoomImportProblemsWindow *self;
  g_autoptr (GtkListItemFactory) factory = NULL;
  g_autoptr (GtkNoSelection) selection = NULL;
  GListModel *model;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (LOOM_IS_IMPORT_PROBLEMS (problems), NULL);

  self = g_object_new (LOOM_TYPE_IMPORT_PROBLEMS_WINDOW, "transient-for", parent, NULL);
  self->problems = g_object_ref (problems);
  model = loom_import_problems_get_model (problems);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  selection = gtk_no_selection_new (g_object_ref (model));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  g_signal_connect_object (model, "items-changed", G_CALLBACK (on_items_changed_cb), self,
                           G_CONNECT_SWAPPED);
  update (self);
  return self;
}
