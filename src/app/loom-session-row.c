/* loom-session-row.c — one session in the session list: title, agent, project, size and time,
 * and whether it is pinned, archived or kept after the agent deleted its file.
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
  const char  *agent_class;   /* the badge's colour class now applied */

  GtkLabel    *agent_label;
  GtkImage    *archived_icon;
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

/* The style class that colours an agent's badge; loom-session-row.css defines them. */
static const char *
agent_style_class (const char *source)
{
  static const char * const known[] = { "claude-code", "codex", "gemini" };

  for (guint i = 0; source != NULL && i < G_N_ELEMENTS (known); i++)
    {
      if (g_str_equal (source, known[i]))
        return known[i];
    }
  return "other-agent";
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
  g_autoptr(GString) description = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *messages = NULL;
  g_autofree char *time = NULL;
  const LoomSessionRecord *record;
  const char *title;
  const char *project;
  const char *agent;
  const char *agent_class;
  gint64 updated_at;
  guint n_messages;

  g_assert (LOOM_IS_SESSION_ROW (self));

  if (self->session == NULL)
    return;

  record = loom_session_get_record (self->session);
  title = loom_session_get_title (self->session);
  if (title == NULL || *title == '\0')
    title = _("Untitled Session");
  project = loom_session_get_project_name (self->session);
  agent = loom_session_row_agent_name (loom_session_get_source (self->session));

  n_messages = (guint)CLAMP (loom_session_get_message_count (self->session), 0, G_MAXUINT);
  messages = g_strdup_printf (ngettext ("%u message", "%u messages", n_messages), n_messages);
  if (project != NULL && *project != '\0')
    /* Translators: a session's subtitle: its project, then its size, e.g. "gtk · 42 messages". */
    subtitle = g_strdup_printf (_("%s · %s"), project, messages);
  else
    subtitle = g_strdup (messages);

  updated_at = loom_session_get_updated_at (self->session);
  if (updated_at <= 0)
    updated_at = loom_session_get_created_at (self->session);
  time = loom_session_row_format_time (updated_at, g_get_real_time () / 1000);

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_label_set_label (self->time_label, time);

  gtk_label_set_label (self->agent_label, agent);
  agent_class = agent_style_class (loom_session_get_source (self->session));
  if (agent_class != self->agent_class)
    {
      if (self->agent_class != NULL)
        gtk_widget_remove_css_class (GTK_WIDGET (self->agent_label), self->agent_class);
      gtk_widget_add_css_class (GTK_WIDGET (self->agent_label), agent_class);
      self->agent_class = agent_class;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->pinned_icon), record->pinned);
  gtk_widget_set_visible (GTK_WIDGET (self->archived_icon), record->archived);
  gtk_widget_set_visible (GTK_WIDGET (self->missing_label), record->source_missing);

  /* The row reads as one sentence to a screen reader rather than as loose labels. */
  description = g_string_new (NULL);
  /* Translators: read to screen reader users: a session's agent, subtitle and time, e.g.
   * "Codex, gtk · 42 messages, Yesterday". */
  g_string_printf (description, _("%s, %s, %s"), agent, subtitle, time);
  if (record->pinned)
    /* Translators: read to screen reader users after the rest of a session's description. */
    g_string_append (description, _(", pinned"));
  if (record->archived)
    /* Translators: read to screen reader users after the rest of a session's description. */
    g_string_append (description, _(", archived"));
  if (record->source_missing)
    /* Translators: read to screen reader users after the rest of a session's description. */
    g_string_append (description, _(", source deleted"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str,
                                  -1);
}

/* The tooltip of whatever part of the row is under the pointer. */
static gboolean
on_query_tooltip_cb (LoomSessionRow *self,
                     int             x,
                     int             y,
                     gboolean        keyboard_mode,
                     GtkTooltip     *tooltip,
                     gpointer        user_data)
{
  GtkWidget *picked;
  gint64 updated_at;

  if (self->session == NULL || keyboard_mode)
    return FALSE;

  picked = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  if (picked == NULL)
    return FALSE;

  if (picked == GTK_WIDGET (self->missing_label))
    {
      gtk_tooltip_set_text (tooltip, _("The agent deleted this session’s file; "
                                       "Intentloom History keeps its copy"));
      return TRUE;
    }
  if (picked == GTK_WIDGET (self->archived_icon))
    {
      gtk_tooltip_set_text (tooltip, _("Archived"));
      return TRUE;
    }
  if (picked == GTK_WIDGET (self->pinned_icon))
    {
      gtk_tooltip_set_text (tooltip, _("Pinned"));
      return TRUE;
    }
  if (picked == GTK_WIDGET (self->time_label))
    {
      g_autoptr(GDateTime) when = NULL;
      g_autofree char *text = NULL;

      updated_at = loom_session_get_updated_at (self->session);
      if (updated_at <= 0)
        updated_at = loom_session_get_created_at (self->session);
      if (updated_at <= 0 || !(when = g_date_time_new_from_unix_local (updated_at / 1000)))
        return FALSE;

      /* Translators: the tooltip of a session's time, see strftime(3). */
      text = g_date_time_format (when, _("Updated %c"));
      gtk_tooltip_set_text (tooltip, text);
      return TRUE;
    }

  return FALSE;
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
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, agent_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, archived_icon);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, missing_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, pinned_icon);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, time_label);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionRow, title_label);
  gtk_widget_class_bind_template_callback (widget_class, on_query_tooltip_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsessionrow");
}

/* The agents' badge colours are the row's own look; a provider for the display, added once. */
static void
loom_session_row_load_style (LoomSessionRow *self)
{
  static gboolean loaded;
  g_autoptr(GtkCssProvider) provider = NULL;

  if (loaded)
    return;
  loaded = TRUE;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider,
                                       "/org/intentloom/History/ui/loom-session-row.css");
  gtk_style_context_add_provider_for_display (gtk_widget_get_display (GTK_WIDGET (self)),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
loom_session_row_init (LoomSessionRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  loom_session_row_load_style (self);
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
