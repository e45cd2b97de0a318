/* loom-session-row.c — one session in the session list: title, project, agent and time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-session-row.h"

struct _LoomSessionRow
{
  GtkWidget    parent_instance;

  LoomSession *session;

  GtkLabel    *missing_label;
  GtkImage    *pinned_icon;
  GtkLabel    *subtitle_label;
  GtkLabel    *time_label;
  GtkLabel    *title_label;
};

G_DEFINE_FINAL_TYPE (LoomSessionRow, loom_session_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
loom_session_row_agent_name (const char *source)
{
  static const struct {
    const char *source;
    const char *name;
  } agents[] = {
    { "claude-code", "Claude Code" },
    { "codex", "Codex" },
    { "gemini", "Gemini CLI" },
  };

  if (source == NULL)
    return _("Unknown Agent");

  for (guint i = 0; i < G_N_ELEMENTS (agents); i++)
    {
      if (g_str_equal (source, agents[i].source))
        return agents[i].name;
    }

  /* A source added to the core before it gets a name here is still better shown than hidden. */
  return source;
}

char *
loom_session_row_format_time (gint64 ms,
                              gint64 now_ms)
{
  g_autoptr(GDateTime) when = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autoptr(GDateTime) today = NULL;
  GTimeSpan since_midnight;

  if (ms <= 0)
    return g_strdup ("");

  when = g_date_time_new_from_unix_local (ms / 1000);
  now = g_date_time_new_from_unix_local (now_ms / 1000);
  if (when == NULL || now == NULL)
    return g_strdup ("");

  today = g_date_time_new_local (g_date_time_get_year (now),
                                 g_date_time_get_month (now),
                                 g_date_time_get_day_of_month (now),
                                 0, 0, 0);
  since_midnight = g_date_time_difference (when, today);

  if (since_midnight >= 0)
    /* Translators: the time of a session updated today, see strftime(3). */
    return g_date_time_format (when, _("%H:%M"));
  if (since_midnight >= -G_TIME_SPAN_DAY)
    return g_strdup (_("Yesterday"));
  if (since_midnight >= -6 * G_TIME_SPAN_DAY)
    /* Translators: the weekday of a session updated this week, see strftime(3). */
    return g_date_time_format (when, _("%A"));
  if (g_date_time_get_year (when) == g_date_time_get_year (now))
    /* Translators: the date of a session updated this year, see strftime(3). */
    return g_date_time_format (when, _("%b %-e"));

  /* Translators: the date of a session updated in an earlier year, see strftime(3). */
  return g_date_time_format (when, _("%b %-e, %Y"));
}

static void
loom_session_row_update (LoomSessionRow *self)
{
  g_autofree char *subtitle = NULL;
  g_autofree char *time = NULL;
  g_autofree char *full_time = NULL;
  g_autofree char *description = NULL;
  const char *title;
  const char *project;
  const char *agent;
  gint64 updated_at;
  gboolean missing;

  g_assert (LOOM_IS_SESSION_ROW (self));

  if (self->session == NULL)
    return;

  title = loom_session_get_title (self->session);
  if (title == NULL || *title == '\0')
    title = _("Untitled Session");
  project = loom_session_get_project_name (self->session);
  agent = loom_session_row_agent_name (loom_session_get_source (self->session));

  if (project != NULL && *project != '\0')
    /* Translators: a session's subtitle: its project, then the agent, e.g. "gtk · Codex". */
    subtitle = g_strdup_printf (_("%s · %s"), project, agent);
  else
    subtitle = g_strdup (agent);

  updated_at = loom_session_get_updated_at (self->session);
  if (updated_at <= 0)
    updated_at = loom_session_get_created_at (self->session);
  time = loom_session_row_format_time (updated_at, g_get_real_time () / 1000);
  if (updated_at > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (updated_at / 1000);

      if (when != NULL)
        /* Translators: the tooltip of a session's time, see strftime(3). */
        full_time = g_date_time_format (when, _("Updated %c"));
    }

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_label_set_label (self->time_label, time);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->time_label), full_time);
  gtk_widget_set_visible (GTK_WIDGET (self->pinned_icon),
                          loom_session_get_pinned (self->session));
  missing = loom_session_get_record (self->session)->source_missing;
  gtk_widget_set_visible (GTK_WIDGET (self->missing_label), missing);

  /* The row reads as one sentence to a screen reader rather than as four loose labels. */
  if (loom_session_get_pinned (self->session))
    /* Translators: read to screen reader users: a session's subtitle, its time, and that it
     * is pinned, e.g. "gtk · Codex, Yesterday, pinned". */
    description = g_strdup_printf (_("%s, %s, pinned"), subtitle, time);
  else
    description = g_strdup_printf ("%s, %s", subtitle, time);
  if (missing)
    {
      g_autofree char *with_missing = NULL;

      /* Translators: read to screen reader users after the rest of a session's description,
       * e.g. "gtk · Codex, Yesterday, source deleted". */
      with_missing = g_strdup_printf (_("%s, source deleted"), description);
      g_free (description);
      description = g_steal_pointer (&with_missing);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void
loom_session_row_dispose (GObject *object)
{
  LoomSessionRow *self = LOOM_SESSION_ROW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SESSION_ROW);
  /* dispose_template() only unparents the children bound by name; the layout's own go here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (loom_session_row_parent_class)->dispose (object);
}

static void
loom_session_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  LoomSessionRow *self = LOOM_SESSION_ROW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  LoomSessionRow *self = LOOM_SESSION_ROW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      loom_session_row_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_session_row_class_init (LoomSessionRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_session_row_dispose;
  object_class->get_property = loom_session_row_get_property;
  object_class->set_property = loom_session_row_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         LOOM_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/loom-session-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, missing_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, pinned_icon);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, time_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, title_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsessionrow");
}

static void
loom_session_row_init (LoomSessionRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
loom_session_row_new (void)
{
  return g_object_new (LOOM_TYPE_SESSION_ROW, NULL);
}

LoomSession *
loom_session_row_get_session (LoomSessionRow *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_ROW (self), NULL);

  return self->session;
}

void
loom_session_row_set_session (LoomSessionRow *self,
                              LoomSession    *session)
{
  g_return_if_fail (LOOM_IS_SESSION_ROW (self));
  g_return_if_fail (session == NULL || LOOM_IS_SESSION (session));

  if (self->session == session)
    return;

  /* Rows are recycled by the list view: follow only the session shown now. */
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_func (self->session, loom_session_row_update, self);

  g_set_object (&self->session, session);

  if (self->session != NULL)
    g_signal_connect_object (self->session, "notify",
                             G_CALLBACK (loom_session_row_update), self,
                             G_CONNECT_SWAPPED);

  loom_session_row_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}
