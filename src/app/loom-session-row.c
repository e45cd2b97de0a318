/* loom-session-row.c — one session in the session list: title, agent, project, size and time,
 * and whether it is pinned, archived or kept after the agent deleted its file.
 *
 * GTK 4.8's list view makes and binds about two hundred rows around what it shows, whatever
 * the height of the list, and maps them all before its first layout unmaps those off screen. A
 * row therefore builds its labels only once the list has left it on screen: until then it is
 * an empty widget of a row's height, cheap to make, bind and measure, and the first frame of a
 * long history lays out one screenful of rows instead of two hundred. Like the timeline's
 * rows, a mapped row waits for the end of the frame's layout (the frame clock's "layout",
 * after the window's own handler) to see whether it is still mapped: the rows of a window wait
 * together, in a set kept with its frame clock, whose one handler builds them. A handler of
 * each row's own would not do: rows are mapped during that very signal as the list is
 * allocated, and a handler connected during an emission misses it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-importer.h"
#include "loom-naming.h"
#include "loom-session-row.h"
#include "loom-style.h"

/* The height of a row not built yet, until a built one tells the real one (this is it with
 * GNOME's default font): rows of every session are of one height, a title over a caption. */
#define ESTIMATED_HEIGHT 46

struct _LoomSessionRow
{
  GtkWidget parent_instance;

  LoomSession   *session;
  const char    *agent_class; /* the badge's colour class now applied */
  GdkFrameClock *frame_clock; /* while waiting to be built */

  /* NULL until built (see build_content()). */
  GtkWidget *content;
  GtkLabel  *agent_label;
  GtkImage  *archived_icon;
  GtkLabel  *missing_label;
  GtkImage  *pinned_icon;
  GtkLabel  *project_label; /* "gtk": gives way first when the row is narrow */
  GtkLabel  *size_label;    /* "· 42 messages" */
  GtkLabel  *time_label;
  GtkLabel  *title_label;
};

G_DEFINE_FINAL_TYPE (LoomSessionRow, loom_session_row, GTK_TYPE_WIDGET)

/* The height of a built row, learnt from the first one built; 0 until then. */
static int built_height;

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
loom_session_row_agent_name (const char *source)
{
  const LoomImporter *importer;

  if (source == NULL)
    return _ ("Unknown Agent");
  /* A source added to the core before it gets a name there is still better shown than hidden. */
  importer = loom_importer_find (source);
  return importer != NULL ? importer->title : source;
}

char *
loom_session_row_display_text (const char *text)
{
  return loom_naming_bound_line (text, LOOM_NAMING_TITLE_LIMIT);
}

/* The style class that colours an agent's badge; loom-agent-badge.css defines them. */
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

char *
loom_session_row_format_time (gint64 ms,
                              gint64 now_ms)
{
  g_autoptr (GDateTime) when = NULL;
  g_autoptr (GDateTime) now = NULL;
  g_autoptr (GDateTime) today = NULL;
  GTimeSpan since_midnight;

  if (ms <= 0)
    return g_strdup ("");

  when = g_date_time_new_from_unix_local (ms / 1000);
  now = g_date_time_new_from_unix_local (now_ms / 1000);
  if (when == NULL || now == NULL)
    return g_strdup ("");

  today = g_date_time_new_local (g_date_time_get_year (now), g_date_time_get_month (now),
                                 g_date_time_get_day_of_month (now), 0, 0, 0);
  since_midnight = g_date_time_difference (when, today);

  if (since_midnight >= 0)
    /* Translators: the time of a session updated today, see strftime(3). */
    return g_date_time_format (when, _ ("%H:%M"));
  if (since_midnight >= -G_TIME_SPAN_DAY)
    return g_strdup (_ ("Yesterday"));
  if (since_midnight >= -6 * G_TIME_SPAN_DAY)
    /* Translators: the weekday of a session updated this week, see strftime(3). */
    return g_date_time_format (when, _ ("%A"));
  if (g_date_time_get_year (when) == g_date_time_get_year (now))
    /* Translators: the date of a session updated this year, see strftime(3). */
    return g_date_time_format (when, _ ("%b %-e"));

  /* Translators: the date of a session updated in an earlier year, see strftime(3). */
  return g_date_time_format (when, _ ("%b %-e, %Y"));
}

static void
loom_session_row_update (LoomSessionRow *self)
{
  g_autoptr (GString) description = NULL;
  g_autofree char         *subtitle = NULL;
  g_autofree char         *size = NULL;
  g_autofree char         *messages = NULL;
  g_autofree char         *time = NULL;
  g_autofree char         *title = NULL;
  g_autofree char         *project = NULL;
  const LoomSessionRecord *record;
  const char              *agent;
  const char              *agent_class;
  gint64                   updated_at;
  guint                    n_messages;

  g_assert (LOOM_IS_SESSION_ROW (self));

  /* A row off screen shows nothing, to nobody: its labels wait for it to be built. */
  if (self->session == NULL || self->content == NULL)
    return;

  record = loom_session_get_record (self->session);
  title = loom_session_row_display_text (loom_session_get_title (self->session));
  if (title == NULL)
    title = g_strdup (_ ("Untitled Session"));
  project = loom_session_row_display_text (loom_session_get_project_name (self->session));
  agent = loom_session_row_agent_name (loom_session_get_source (self->session));

  n_messages = (guint)CLAMP (loom_session_get_message_count (self->session), 0, G_MAXUINT);
  messages = g_strdup_printf (ngettext ("%'u message", "%'u messages", n_messages), n_messages);
  if (project != NULL && *project != '\0')
    {
      /* Translators: a session's subtitle: its project, then its size, e.g. "gtk · 42 messages". */
      subtitle = g_strdup_printf (_ ("%s · %s"), project, messages);
      /* Translators: the part of a session's subtitle after its project ("gtk · 42 messages"
       * above), shown apart so that a narrow row shortens the project's name, not this. */
      size = g_strdup_printf (_ ("· %s"), messages);
    }
  else
    subtitle = g_strdup (messages);

  updated_at = loom_session_get_updated_at (self->session);
  if (updated_at <= 0)
    updated_at = loom_session_get_created_at (self->session);
  time = loom_session_row_format_time (updated_at, g_get_real_time () / 1000);

  gtk_label_set_label (self->title_label, title);
  gtk_label_set_label (self->project_label, size != NULL ? project : "");
  gtk_widget_set_visible (GTK_WIDGET (self->project_label), size != NULL);
  gtk_label_set_label (self->size_label, size != NULL ? size : messages);
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
  g_string_printf (description, _ ("%s, %s, %s"), agent, subtitle, time);
  if (record->pinned)
    /* Translators: read to screen reader users after the rest of a session's description. */
    g_string_append (description, _ (", pinned"));
  if (record->archived)
    /* Translators: read to screen reader users after the rest of a session's description. */
    g_string_append (description, _ (", archived"));
  if (record->source_missing)
    /* Translators: read to screen reader users after the rest of a session's description. */
    g_string_append (description, _ (", source deleted"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str, -1);
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
  gint64     updated_at;

  if (self->session == NULL || self->content == NULL || keyboard_mode)
    return FALSE;

  picked = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  if (picked == NULL)
    return FALSE;

  if (picked == GTK_WIDGET (self->missing_label))
    {
      gtk_tooltip_set_text (tooltip, _ ("The agent deleted this session’s file; "
                                        "Intentloom History keeps its copy"));
      return TRUE;
    }
  if (picked == GTK_WIDGET (self->archived_icon))
    {
      gtk_tooltip_set_text (tooltip, _ ("Archived"));
      return TRUE;
    }
  if (picked == GTK_WIDGET (self->pinned_icon))
    {
      gtk_tooltip_set_text (tooltip, _ ("Pinned"));
      return TRUE;
    }
  if (picked == GTK_WIDGET (self->time_label))
    {
      g_autoptr (GDateTime) when = NULL;
      g_autofree char *text = NULL;

      updated_at = loom_session_get_updated_at (self->session);
      if (updated_at <= 0)
        updated_at = loom_session_get_created_at (self->session);
      if (updated_at <= 0 || !(when = g_date_time_new_from_unix_local (updated_at / 1000)))
        return FALSE;

      /* Translators: the tooltip of a session's time, see strftime(3). */
      text = g_date_time_format (when, _ ("Updated %c"));
      gtk_tooltip_set_text (tooltip, text);
      return TRUE;
    }

  return FALSE;
}

/* ——— Building on screen ——— */

static GtkLabel *
caption_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "dim-label");
  return GTK_LABEL (label);
}

static GtkImage *
state_icon (const char *icon_name,
            const char *accessible_label)
{
  GtkWidget *image = gtk_image_new_from_icon_name (icon_name);

  gtk_widget_set_visible (image, FALSE);
  gtk_image_set_pixel_size (GTK_IMAGE (image), 12);
  gtk_widget_add_css_class (image, "dim-label");
  gtk_accessible_update_property (GTK_ACCESSIBLE (image), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  accessible_label, -1);
  return GTK_IMAGE (image);
}

/* Made in code, not from a GtkBuilder file: rows are built one at a time as they come on
 * screen, and GtkBuilder parses its XML again for each (a template is parsed once per class),
 * which costs a row 0.7 ms, twenty times what making its widgets does. */
static void
build_content (LoomSessionRow *self)
{
  GtkGrid   *grid = GTK_GRID (gtk_grid_new ());
  GtkWidget *caption = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *states = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *subtitle;
  int        height;

  g_assert (LOOM_IS_SESSION_ROW (self));
  g_assert (self->content == NULL);

  gtk_grid_set_column_spacing (grid, 12);
  gtk_grid_set_row_spacing (grid, 4);
  gtk_widget_set_margin_top (GTK_WIDGET (grid), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (grid), 6);

  self->title_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->title_label), TRUE);
  gtk_label_set_xalign (self->title_label, 0);
  gtk_label_set_ellipsize (self->title_label, PANGO_ELLIPSIZE_END);
  gtk_grid_attach (grid, GTK_WIDGET (self->title_label), 0, 0, 1, 1);

  self->time_label = caption_label (NULL);
  gtk_label_set_xalign (self->time_label, 1);
  gtk_widget_set_valign (GTK_WIDGET (self->time_label), GTK_ALIGN_BASELINE);
  gtk_widget_add_css_class (GTK_WIDGET (self->time_label), "numeric");
  gtk_grid_attach (grid, GTK_WIDGET (self->time_label), 1, 0, 1, 1);

  /* Which agent ran the session, told apart by colour at a glance and by name. */
  self->agent_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_valign (GTK_WIDGET (self->agent_label), GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (GTK_WIDGET (self->agent_label), "agent-badge");
  gtk_box_append (GTK_BOX (caption), GTK_WIDGET (self->agent_label));

  /* The project gives way to the size and the marks after it when the row is narrow; the two
   * sit a space apart, like the words of one label. */
  subtitle = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_hexpand (subtitle, TRUE);
  self->project_label = caption_label (NULL);
  gtk_label_set_xalign (self->project_label, 0);
  gtk_label_set_ellipsize (self->project_label, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (subtitle), GTK_WIDGET (self->project_label));
  self->size_label = caption_label (NULL);
  gtk_label_set_xalign (self->size_label, 0);
  gtk_box_append (GTK_BOX (subtitle), GTK_WIDGET (self->size_label));
  gtk_box_append (GTK_BOX (caption), subtitle);

  /* The agent deleted its file (Claude Code cleans up after 30 days); our copy stays, and the
   * row says so. */
  self->missing_label = caption_label (_ ("Source deleted"));
  gtk_widget_set_visible (GTK_WIDGET (self->missing_label), FALSE);
  gtk_box_append (GTK_BOX (caption), GTK_WIDGET (self->missing_label));
  gtk_grid_attach (grid, caption, 0, 1, 1, 1);

  self->archived_icon = state_icon ("package-x-generic-symbolic", _ ("Archived"));
  self->pinned_icon = state_icon ("view-pin-symbolic", _ ("Pinned"));
  gtk_widget_set_halign (states, GTK_ALIGN_END);
  gtk_widget_set_valign (states, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (states), GTK_WIDGET (self->archived_icon));
  gtk_box_append (GTK_BOX (states), GTK_WIDGET (self->pinned_icon));
  gtk_grid_attach (grid, states, 1, 1, 1, 1);

  self->content = GTK_WIDGET (grid);
  gtk_widget_set_parent (self->content, GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, -1);
  loom_session_row_update (self);

  /* Ellipsized, the labels make a row's height the same whatever its width and its text. */
  gtk_widget_measure (self->content, GTK_ORIENTATION_VERTICAL, -1, NULL, &height, NULL, NULL);
  built_height = height;
}

#define WAITING_KEY "loom-session-rows-waiting"

static void
on_frame_layout_cb (GdkFrameClock *frame_clock,
                    GHashTable    *waiting)
{
  g_autoptr (GPtrArray) rows = NULL;
  GHashTableIter iter;
  gpointer       row;

  if (g_hash_table_size (waiting) == 0)
    return;

  rows = g_ptr_array_new_full (g_hash_table_size (waiting), g_object_unref);
  g_hash_table_iter_init (&iter, waiting);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    g_ptr_array_add (rows, g_object_ref (row));

  /* Building one row may unmap another: each is looked at as it comes. */
  for (guint i = 0; i < rows->len; i++)
    {
      LoomSessionRow *self = rows->pdata[i];

      if (!g_hash_table_remove (waiting, self))
        continue;
      g_clear_object (&self->frame_clock);
      if (self->content == NULL && gtk_widget_get_mapped (GTK_WIDGET (self)))
        build_content (self);
    }
}

/* The rows of @frame_clock's window waiting to be built, and the handler that builds them, made
 * with the first row to wait. */
static GHashTable *
get_waiting (GdkFrameClock *frame_clock)
{
  GHashTable *waiting = g_object_get_data (G_OBJECT (frame_clock), WAITING_KEY);

  if (waiting == NULL)
    {
      waiting = g_hash_table_new (NULL, NULL);
      g_object_set_data_full (G_OBJECT (frame_clock), WAITING_KEY, waiting,
                              (GDestroyNotify)g_hash_table_unref);
      /* After the window's handler, which allocates the list and so unmaps the rows it leaves
       * off screen. Connected during a layout, it misses that one: ask for another. */
      g_signal_connect_after (frame_clock, "layout", G_CALLBACK (on_frame_layout_cb), waiting);
      gdk_frame_clock_request_phase (frame_clock, GDK_FRAME_CLOCK_PHASE_LAYOUT);
    }
  return waiting;
}

static void
stop_waiting (LoomSessionRow *self)
{
  if (self->frame_clock == NULL)
    return;
  g_hash_table_remove (get_waiting (self->frame_clock), self);
  g_clear_object (&self->frame_clock);
}

static void
loom_session_row_map (GtkWidget *widget)
{
  LoomSessionRow *self = LOOM_SESSION_ROW (widget);
  GdkFrameClock  *frame_clock;

  GTK_WIDGET_CLASS (loom_session_row_parent_class)->map (widget);

  /* A row is mapped either as the list adds it, which queues an allocation, or by the
   * allocation: either way a layout comes, in this frame. */
  if (self->content == NULL && self->frame_clock == NULL &&
      (frame_clock = gtk_widget_get_frame_clock (widget)) != NULL)
    {
      self->frame_clock = g_object_ref (frame_clock);
      g_hash_table_add (get_waiting (frame_clock), self);
    }
}

static void
loom_session_row_unmap (GtkWidget *widget)
{
  stop_waiting (LOOM_SESSION_ROW (widget));

  GTK_WIDGET_CLASS (loom_session_row_parent_class)->unmap (widget);
}

/* ——— Object ——— */

static void
loom_session_row_dispose (GObject *object)
{
  LoomSessionRow *self = LOOM_SESSION_ROW (object);

  stop_waiting (self);
  g_clear_pointer (&self->content, gtk_widget_unparent);
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
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_session_row_dispose;
  object_class->get_property = loom_session_row_get_property;
  object_class->set_property = loom_session_row_set_property;
  widget_class->map = loom_session_row_map;
  widget_class->unmap = loom_session_row_unmap;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, LOOM_TYPE_SESSION,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsessionrow");
}

static void
loom_session_row_init (LoomSessionRow *self)
{
  loom_style_add (GTK_WIDGET (self), "/org/intentloom/History/ui/loom-agent-badge.css");
  gtk_widget_set_size_request (GTK_WIDGET (self), -1,
                               built_height > 0 ? built_height : ESTIMATED_HEIGHT);

  /* One tooltip handler for the row, asked only when the pointer rests on it: setting a
   * tooltip on each row as it is bound costs a round trip to the display server. */
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip_cb), NULL);
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
    g_signal_connect_object (self->session, "notify", G_CALLBACK (loom_session_row_update), self,
                             G_CONNECT_SWAPPED);

  loom_session_row_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}
