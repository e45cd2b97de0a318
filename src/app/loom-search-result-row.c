/* loom-search-result-row.c — one row of the search results: a session's header, or a hit.
 *
 * The list recycles rows between headers and hits as it scrolls, so one row class shows
 * either, and binding one only sets labels: everything it shows came with the page of hits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-search-format.h"
#include "loom-search-result-row.h"
#include "loom-session-row.h"

/* Three lines of the results pane hold fewer. */
#define SNIPPET_CHARS 400

struct _LoomSearchResultRow
{
  GtkWidget parent_instance;

  GObject    *item;
  char       *accessible_label;
  const char *agent_class;

  GtkLabel  *agent_label;
  GtkWidget *header;
  GtkWidget *hit;
  GtkLabel  *hit_time_label;
  GtkLabel  *kind_label;
  GtkLabel  *project_label;
  GtkLabel  *session_time_label;
  GtkLabel  *snippet_label;
  GtkLabel  *title_label;
};

G_DEFINE_FINAL_TYPE (LoomSearchResultRow, loom_search_result_row, GTK_TYPE_WIDGET)

/* The style class that colours an agent's badge, as in the session list; loom-search.css
 * gives them the same colours. */
static const char *
agent_style_class (const char *source)
{
  static const char *const known[] = { "claude-code", "codex", "gemini" };

  for (guint i = 0; source != NULL && i < G_N_ELEMENTS (known); i++)
    {
      if (g_str_equal (source, known[i]))
        return known[i];
    }
  return "other-agent";
}

static void
set_accessible_label (LoomSearchResultRow *self,
                      char                *label)
{
  g_free (self->accessible_label);
  self->accessible_label = label;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label != NULL ? label : "", -1);
}

static void
show_session (LoomSearchResultRow *self,
              LoomSession         *session)
{
  g_autofree char *project = loom_session_row_display_text (
    loom_session_get_project_name (session));
  g_autofree char *title = loom_session_row_display_text (loom_session_get_title (session));
  const char      *agent = loom_session_row_agent_name (loom_session_get_source (session));
  const char      *agent_class = agent_style_class (loom_session_get_source (session));
  g_autofree char *time = NULL;
  gint64           updated_at;

  updated_at = loom_session_get_updated_at (session);
  if (updated_at <= 0)
    updated_at = loom_session_get_created_at (session);
  time = loom_session_row_format_time (updated_at, g_get_real_time () / 1000);

  gtk_label_set_label (self->title_label, title != NULL ? title : "");
  gtk_label_set_label (self->session_time_label, time);
  gtk_label_set_label (self->agent_label, agent);
  gtk_label_set_label (self->project_label, project != NULL ? project : "");

  if (agent_class != self->agent_class)
    {
      if (self->agent_class != NULL)
        gtk_widget_remove_css_class (GTK_WIDGET (self->agent_label), self->agent_class);
      gtk_widget_add_css_class (GTK_WIDGET (self->agent_label), agent_class);
      self->agent_class = agent_class;
    }

  gtk_widget_set_visible (self->header, TRUE);
  gtk_widget_set_visible (self->hit, FALSE);
  gtk_widget_remove_css_class (GTK_WIDGET (self), "hit");
  gtk_widget_add_css_class (GTK_WIDGET (self), "header");

  set_accessible_label (
    self, project != NULL && *project != '\0'
            /* Translators: what a screen reader says of a session in the search
                         * results: its title, agent, project and last activity. */
            ? g_strdup_printf (_ ("Session %s, %s, %s, %s"), title != NULL ? title : "", agent,
                               project, time)
            : g_strdup_printf (_ ("Session %s, %s, %s"), title != NULL ? title : "", agent, time));
}

/* The core's snippet is some words around the match, but a word of a transcript can be 64 KiB
 * long (the index keeps that much of a text), and the label lays out all it is given before
 * it ellipsizes three lines of it. At most @max_chars characters of it, then, its marks not
 * counted (a mark left open is closed by the formatting), "…" when it is cut. */
static char *
bound_snippet (const char *snippet,
               glong       max_chars)
{
  glong n = 0;

  if (snippet == NULL)
    return NULL;
  for (const char *p = snippet; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (*p == LOOM_SEARCH_MARK_START[0] || *p == LOOM_SEARCH_MARK_END[0])
        continue;
      if (++n > max_chars)
        return g_strdup_printf ("%.*s…", (int)(p - snippet), snippet);
    }
  return g_strdup (snippet);
}

static void
show_hit (LoomSearchResultRow *self,
          LoomSearchHit       *hit)
{
  const LoomSearchHitData *data = loom_search_hit_get_data (hit);
  g_autofree char         *kind = loom_search_format_kind (data);
  g_autofree char         *snippet = bound_snippet (data->snippet, SNIPPET_CHARS);
  g_autofree char         *markup = loom_search_format_snippet_markup (snippet);
  g_autofree char         *text = loom_search_format_snippet_text (snippet);
  g_autofree char         *time = loom_session_row_format_time (data->created_at,
                                                                g_get_real_time () / 1000);

  gtk_label_set_label (self->kind_label, kind);
  gtk_label_set_label (self->hit_time_label, time);
  gtk_label_set_markup (self->snippet_label, markup);

  gtk_widget_set_visible (self->header, FALSE);
  gtk_widget_set_visible (self->hit, TRUE);
  gtk_widget_remove_css_class (GTK_WIDGET (self), "header");
  gtk_widget_add_css_class (GTK_WIDGET (self), "hit");

  /* Translators: what a screen reader says of a search hit: its kind, its time, then the
   * words around the match. */
  set_accessible_label (self, g_strdup_printf (_ ("%s, %s: %s"), kind, time, text));
}

void
loom_search_result_row_set_item (LoomSearchResultRow *self,
                                 GObject             *item)
{
  g_return_if_fail (LOOM_IS_SEARCH_RESULT_ROW (self));
  g_return_if_fail (item == NULL || LOOM_IS_SESSION (item) || LOOM_IS_SEARCH_HIT (item));

  if (!g_set_object (&self->item, item) || item == NULL)
    return;

  if (LOOM_IS_SESSION (item))
    show_session (self, LOOM_SESSION (item));
  else
    show_hit (self, LOOM_SEARCH_HIT (item));
}

GObject *
loom_search_result_row_get_item (LoomSearchResultRow *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_ROW (self), NULL);

  return self->item;
}

GtkLabel *
loom_search_result_row_get_snippet_label (LoomSearchResultRow *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_ROW (self), NULL);

  return self->snippet_label;
}

const char *
loom_search_result_row_get_accessible_label (LoomSearchResultRow *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULT_ROW (self), NULL);

  return self->accessible_label;
}

static void
loom_search_result_row_dispose (GObject *object)
{
  LoomSearchResultRow *self = LOOM_SEARCH_RESULT_ROW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SEARCH_RESULT_ROW);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (loom_search_result_row_parent_class)->dispose (object);
}

static void
loom_search_result_row_finalize (GObject *object)
{
  LoomSearchResultRow *self = LOOM_SEARCH_RESULT_ROW (object);

  g_free (self->accessible_label);

  G_OBJECT_CLASS (loom_search_result_row_parent_class)->finalize (object);
}

static void
loom_search_result_row_class_init (LoomSearchResultRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_search_result_row_dispose;
  object_class->finalize = loom_search_result_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-search-result-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, agent_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, header);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, hit);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, hit_time_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, kind_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, project_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, session_time_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, snippet_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResultRow, title_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsearchresultrow");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
loom_search_result_row_init (LoomSearchResultRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
loom_search_result_row_new (void)
{
  return g_object_new (LOOM_TYPE_SEARCH_RESULT_ROW, NULL);
}
