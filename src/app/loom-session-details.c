/* loom-session-details.c — every stored fact about one session, for the details pane.
 *
 * Each field is a row of the look of a libadwaita property row: a small title over a
 * selectable value, with a copy button where people paste the value elsewhere (the id, the
 * paths). Fields a session does not have are hidden rather than shown empty, so a simple
 * session stays a short list.
 *
 * The pane sits in a flap that is closed most of the time, yet the flap measures it on every
 * layout: the values are filled in when the pane is shown (mapped), not each time a session
 * is chosen, so that a closed pane costs nothing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "loom-markdown.h"
#include "loom-naming.h"
#include "loom-session-details.h"
#include "loom-session-row.h"
#include "loom-session-usage.h"
#include "loom-store-timeline-pages.h"

/* A long list of sub-agents is rare; the timeline links to each of them anyway. */
#define MAX_CHILDREN 50
/* A transcript names its tools: a hostile one, thousands of them. The most called show, the
 * rest are counted in one row. */
#define MAX_TOOLS    50
/* The most of a value the pane lays out, in bytes and in lines. */
#define VALUE_BYTES  4096
#define VALUE_LINES  8

typedef enum
{
  GROUP_SESSION,
  GROUP_ACTIVITY,
  GROUP_ORGANISATION,
  GROUP_TASK,
  GROUP_PROJECT,
  GROUP_SOURCE,
  N_GROUPS
} Group;

typedef enum
{
  FIELD_TITLE,
  FIELD_ID,
  FIELD_AGENT,
  FIELD_SELECTED_AGENT,
  FIELD_MODEL,
  FIELD_MODELS,
  FIELD_AGENT_MODE,
  FIELD_SESSION_TYPE,
  FIELD_CREATED,
  FIELD_UPDATED,
  FIELD_LAST_OPENED,
  FIELD_MESSAGES,
  FIELD_EVENTS,
  FIELD_TOOL_CALLS,
  FIELD_TOKENS,
  FIELD_FOLDER,
  FIELD_PINNED,
  FIELD_ARCHIVED,
  FIELD_TRASHED,
  FIELD_BACKUP,
  FIELD_BACKUP_AT,
  FIELD_TASK_OBJECTIVE,
  FIELD_TASK_STATUS,
  FIELD_PARENT,
  FIELD_FORK_SOURCE,
  FIELD_PROJECT,
  FIELD_CWD,
  FIELD_BRANCH,
  FIELD_COMMIT,
  FIELD_SOURCE_PATH,
  FIELD_SOURCE_ID,
  FIELD_AGENT_VERSION,
  N_FIELDS
} Field;

typedef enum
{
  FLAG_COPY = 1 << 0, /* a copy button */
  FLAG_OPEN = 1 << 1, /* an "Open" button for a related session */
  FLAG_MONO = 1 << 2, /* ids and hashes read best in monospace */
  FLAG_SHOW = 1 << 3, /* a "Show in Files" button for a path */
} FieldFlags;

static const struct
{
  const char *title;
  Group       group;
  FieldFlags  flags;
} fields[N_FIELDS] = {
  [FIELD_TITLE] = { N_ ("Title"), GROUP_SESSION, 0 },
  [FIELD_ID] = { N_ ("ID"), GROUP_SESSION, FLAG_COPY | FLAG_MONO },
  [FIELD_AGENT] = { N_ ("Agent"), GROUP_SESSION, 0 },
  [FIELD_SELECTED_AGENT] = { N_ ("Selected agent"), GROUP_SESSION, 0 },
  [FIELD_MODEL] = { N_ ("Model"), GROUP_SESSION, 0 },
  [FIELD_MODELS] = { N_ ("All models"), GROUP_SESSION, 0 },
  [FIELD_AGENT_MODE] = { N_ ("Agent mode"), GROUP_SESSION, 0 },
  [FIELD_SESSION_TYPE] = { N_ ("Session type"), GROUP_SESSION, 0 },
  [FIELD_CREATED] = { N_ ("Created"), GROUP_ACTIVITY, 0 },
  [FIELD_UPDATED] = { N_ ("Last activity"), GROUP_ACTIVITY, 0 },
  [FIELD_LAST_OPENED] = { N_ ("Last opened"), GROUP_ACTIVITY, 0 },
  [FIELD_MESSAGES] = { N_ ("Messages"), GROUP_ACTIVITY, 0 },
  [FIELD_EVENTS] = { N_ ("Events"), GROUP_ACTIVITY, 0 },
  [FIELD_TOOL_CALLS] = { N_ ("Tool calls"), GROUP_ACTIVITY, 0 },
  [FIELD_TOKENS] = { N_ ("Tokens"), GROUP_ACTIVITY, 0 },
  [FIELD_FOLDER] = { N_ ("Folder"), GROUP_ORGANISATION, 0 },
  [FIELD_PINNED] = { N_ ("Pinned"), GROUP_ORGANISATION, 0 },
  [FIELD_ARCHIVED] = { N_ ("Archived"), GROUP_ORGANISATION, 0 },
  [FIELD_TRASHED] = { N_ ("In the trash"), GROUP_ORGANISATION, 0 },
  [FIELD_BACKUP] = { N_ ("Backup"), GROUP_ORGANISATION, FLAG_COPY | FLAG_SHOW },
  [FIELD_BACKUP_AT] = { N_ ("Last backup"), GROUP_ORGANISATION, 0 },
  [FIELD_TASK_OBJECTIVE] = { N_ ("Task objective"), GROUP_TASK, 0 },
  [FIELD_TASK_STATUS] = { N_ ("Task status"), GROUP_TASK, 0 },
  [FIELD_PARENT] = { N_ ("Parent session"), GROUP_TASK, FLAG_OPEN },
  [FIELD_FORK_SOURCE] = { N_ ("Forked from"), GROUP_TASK, FLAG_OPEN },
  [FIELD_PROJECT] = { N_ ("Project"), GROUP_PROJECT, 0 },
  [FIELD_CWD] = { N_ ("Working folder"), GROUP_PROJECT, FLAG_COPY },
  [FIELD_BRANCH] = { N_ ("Branch"), GROUP_PROJECT, 0 },
  [FIELD_COMMIT] = { N_ ("Commit"), GROUP_PROJECT, FLAG_MONO },
  [FIELD_SOURCE_PATH] = { N_ ("Source file"), GROUP_SOURCE, FLAG_COPY },
  [FIELD_SOURCE_ID] = { N_ ("Session ID at the source"), GROUP_SOURCE, FLAG_COPY | FLAG_MONO },
  [FIELD_AGENT_VERSION] = { N_ ("Agent version"), GROUP_SOURCE, 0 },
};

struct _LoomSessionDetails
{
  GtkWidget parent_instance;

  LoomStore           *store;
  LoomSession         *session;
  gboolean             filled; /* the rows show the session */
  GtkWidget           *rows[N_FIELDS];
  GtkLabel            *values[N_FIELDS];
  GtkLabel            *notes[N_FIELDS];
  GtkWidget           *open_buttons[N_FIELDS];
  AdwPreferencesGroup *groups[N_GROUPS];
  GPtrArray           *tool_rows;
  GPtrArray           *child_rows;

  AdwPreferencesGroup *activity_group;
  AdwPreferencesGroup *children_group;
  AdwPreferencesGroup *organisation_group;
  AdwPreferencesGroup *project_group;
  AdwPreferencesGroup *session_group;
  AdwPreferencesGroup *source_group;
  GtkStack            *stack;
  AdwPreferencesGroup *task_group;
  AdwPreferencesGroup *tools_group;
};

G_DEFINE_FINAL_TYPE (LoomSessionDetails, loom_session_details, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

enum
{
  OPEN_SESSION,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint       signals[N_SIGNALS];

/* Rows */

static GtkWidget *
property_row_new (LoomSessionDetails *self,
                  Field               field)
{
  /* An AdwPreferencesRow, not a bare GtkListBoxRow: the group puts only those in its boxed
   * list. */
  GtkWidget *row = adw_preferences_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (_ (fields[field].title));
  GtkWidget *value = gtk_label_new (NULL);
  GtkWidget *note = gtk_label_new (NULL);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _ (fields[field].title));
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 8);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (text, GTK_ALIGN_CENTER);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "caption");
  gtk_widget_add_css_class (title, "dim-label");

  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_wrap (GTK_LABEL (value), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  loom_markdown_label_set_literal_wrap (GTK_LABEL (value));
  /* A path or a task can be long: a few lines of it, ellipsized, keep the pane readable. */
  gtk_label_set_lines (GTK_LABEL (value), VALUE_LINES);
  gtk_label_set_ellipsize (GTK_LABEL (value), PANGO_ELLIPSIZE_END);
  if (fields[field].flags & FLAG_MONO)
    gtk_widget_add_css_class (value, "monospace");

  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_widget_add_css_class (note, "caption");
  gtk_widget_add_css_class (note, "warning");
  gtk_widget_set_visible (note, FALSE);

  gtk_box_append (GTK_BOX (text), title);
  gtk_box_append (GTK_BOX (text), value);
  gtk_box_append (GTK_BOX (text), note);
  gtk_box_append (GTK_BOX (box), text);

  if (fields[field].flags & FLAG_COPY)
    {
      GtkWidget       *copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
      g_autofree char *tooltip = g_strdup_printf (_ ("Copy %s"), _ (fields[field].title));

      gtk_widget_set_valign (copy, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (copy, tooltip);
      gtk_accessible_update_property (GTK_ACCESSIBLE (copy), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                      -1);
      gtk_widget_add_css_class (copy, "flat");
      gtk_widget_add_css_class (copy, "circular");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (copy), "details.copy");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (copy), "i", (gint32)field);
      gtk_box_append (GTK_BOX (box), copy);
    }
  if (fields[field].flags & FLAG_SHOW)
    {
      GtkWidget *show = gtk_button_new_from_icon_name ("folder-open-symbolic");

      gtk_widget_set_valign (show, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (show, _ ("Show in Files"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (show), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _ ("Show the backup in Files"), -1);
      gtk_widget_add_css_class (show, "flat");
      gtk_widget_add_css_class (show, "circular");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (show), "details.show-file");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (show), "i", (gint32)field);
      gtk_box_append (GTK_BOX (box), show);
    }
  if (fields[field].flags & FLAG_OPEN)
    {
      GtkWidget *open = gtk_button_new_from_icon_name ("go-next-symbolic");

      gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (open, _ ("Open Session"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (open), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _ ("Open Session"), -1);
      gtk_widget_add_css_class (open, "flat");
      gtk_widget_add_css_class (open, "circular");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "details.open-session");
      /* The session to open is set with the session shown. */
      gtk_actionable_set_action_target (GTK_ACTIONABLE (open), "s", "");
      gtk_box_append (GTK_BOX (box), open);
      self->open_buttons[field] = open;
    }

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  self->values[field] = GTK_LABEL (value);
  self->notes[field] = GTK_LABEL (note);
  return row;
}

/* Shows @value in the field's row, or hides the row when there is none. */
static void
set_field (LoomSessionDetails *self,
           Field               field,
           const char         *value)
{
  /* What a transcript gave is bounded by the importer, but not in a store an earlier version
   * wrote: a label lays out all it is given. No real path or id comes near the bound. */
  g_autofree char *bounded = loom_naming_bound_path (value, VALUE_BYTES);
  gboolean         shown;

  if (bounded != NULL)
    value = bounded;
  shown = value != NULL && *value != '\0';

  gtk_label_set_text (self->values[field], shown ? value : "");
  gtk_widget_set_visible (self->rows[field], shown);
  gtk_widget_set_visible (GTK_WIDGET (self->notes[field]), FALSE);
  if (shown)
    {
      g_autofree char *label = g_strdup_printf ("%s: %s", _ (fields[field].title), value);

      gtk_accessible_update_property (GTK_ACCESSIBLE (self->rows[field]),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    }
}

static void
set_field_take (LoomSessionDetails *self,
                Field               field,
                char               *value)
{
  set_field (self, field, value);
  g_free (value);
}

static void
set_note (LoomSessionDetails *self,
          Field               field,
          const char         *note)
{
  gtk_label_set_text (self->notes[field], note);
  gtk_widget_set_visible (GTK_WIDGET (self->notes[field]), note != NULL);
}

/* Values */

static char *
format_date (gint64 ms)
{
  g_autoptr (GDateTime) when = NULL;

  if (ms <= 0 || !(when = g_date_time_new_from_unix_local (ms / 1000)))
    return NULL;
  /* Translators: a date and time in the details pane (strftime format). */
  return g_date_time_format (when, _ ("%B %-d, %Y, %H:%M"));
}

static char *
format_count (gint64 n)
{
  return g_strdup_printf ("%'" G_GINT64_FORMAT, n);
}

static const char *
yes_no (gboolean value)
{
  return value ? _ ("Yes") : _ ("No");
}

static char *
format_session_type (const char *type)
{
  if (type == NULL)
    return NULL;
  if (g_str_equal (type, "main"))
    return g_strdup (_ ("Main session"));
  if (g_str_equal (type, "subagent"))
    return g_strdup (_ ("Sub-agent"));
  if (g_str_equal (type, "fork"))
    return g_strdup (_ ("Fork"));
  return g_strdup (type);
}

static char *
format_tokens (const LoomSessionRecord *r)
{
  g_autofree char *in = NULL, *out = NULL, *read = NULL, *write = NULL;

  if (r->tokens_input + r->tokens_output + r->tokens_cache_read + r->tokens_cache_creation == 0)
    return NULL;
  in = format_count (r->tokens_input);
  out = format_count (r->tokens_output);
  read = format_count (r->tokens_cache_read);
  write = format_count (r->tokens_cache_creation);
  if (r->tokens_reasoning >= 0)
    {
      g_autofree char *reasoning = format_count (r->tokens_reasoning);

      /* Translators: token counts of a session: input, output and the part of it spent
       * reasoning, cache reads, cache writes. */
      return g_strdup_printf (_ ("%s in · %s out (%s reasoning) · %s cache read · "
                                 "%s cache written"),
                              in, out, reasoning, read, write);
    }
  /* Translators: token counts of a session: input, output, cache reads, cache writes. */
  return g_strdup_printf (_ ("%s in · %s out · %s cache read · %s cache written"), in, out, read,
                          write);
}

/* The models array, when it says more than the main model does. */
static char *
format_models (LoomSession *session)
{
  g_auto (GStrv) models = loom_session_usage_models (session);

  if (g_strv_length (models) < 2)
    return NULL;
  return g_strjoinv (", ", models);
}

/* A related session by its title, when the store still has it. */
static char *
related_session (LoomStore  *store,
                 const char *uuid)
{
  g_autoptr (LoomSession) session = NULL;

  if (uuid == NULL)
    return NULL;
  if (store != NULL && (session = loom_store_get_session (store, uuid, NULL)))
    {
      g_autofree char *title = loom_session_row_display_text (loom_session_get_title (session));

      return g_strdup_printf ("%s (%.8s)", title != NULL ? title : "", uuid);
    }
  return g_strdup (uuid);
}

/* Tools and sub-agents: as many rows as the session has. Rows are kept and hidden rather than
 * removed: a removed row may hold the keyboard focus, and GTK 4.8 mishandles that. */

static void
hide_rows_from (GPtrArray *rows,
                guint      first)
{
  for (guint i = first; i < rows->len; i++)
    gtk_widget_set_visible (rows->pdata[i], FALSE);
}

static GtkWidget *
tool_row_at (LoomSessionDetails *self,
             guint               index)
{
  GtkWidget *row;
  GtkWidget *label;

  if (index < self->tool_rows->len)
    return self->tool_rows->pdata[index];

  row = adw_action_row_new ();
  label = gtk_label_new (NULL);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  g_object_set_data (G_OBJECT (row), "loom-count-label", label);
  adw_preferences_group_add (self->tools_group, row);
  g_ptr_array_add (self->tool_rows, row);
  return row;
}

static GtkWidget *
child_row_at (LoomSessionDetails *self,
              guint               index)
{
  GtkWidget *row;
  GtkWidget *open;

  if (index < self->child_rows->len)
    return self->child_rows->pdata[index];

  row = adw_action_row_new ();
  open = gtk_button_new_from_icon_name ("go-next-symbolic");
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (open, _ ("Open Session"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (open), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Open Session"), -1);
  gtk_widget_add_css_class (open, "flat");
  gtk_widget_add_css_class (open, "circular");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "details.open-session");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (open), "s", "");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), open);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), open);
  g_object_set_data (G_OBJECT (row), "loom-open-button", open);
  adw_preferences_group_add (self->children_group, row);
  g_ptr_array_add (self->child_rows, row);
  return row;
}

static void
fill_tools (LoomSessionDetails *self,
            LoomSession        *session)
{
  g_autoptr (GArray) tools = loom_session_usage_tools (session);
  guint n_shown;

  n_shown = tools->len;
  if (tools->len > MAX_TOOLS + 1)
    {
      LoomToolUse others = { NULL, 0 };

      for (guint i = MAX_TOOLS; i < tools->len; i++)
        others.n_calls += MAX (g_array_index (tools, LoomToolUse, i).n_calls, 0);
      g_array_set_size (tools, MAX_TOOLS);
      /* Translators: the last row of a session's tools, counting the calls of the tools not
       * listed; %'u is how many tools those are. */
      others.name = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%'u Other Tool", "%'u Other Tools", n_shown - MAX_TOOLS),
        n_shown - MAX_TOOLS);
      /* The array frees this name with the tools' own. */
      g_array_append_val (tools, others);
    }

  for (guint i = 0; i < tools->len; i++)
    {
      const LoomToolUse *use = &g_array_index (tools, LoomToolUse, i);
      GtkWidget         *row = tool_row_at (self, i);
      g_autofree char   *number = format_count (use->n_calls);
      g_autofree char   *calls = NULL;
      g_autofree char   *name = loom_session_row_display_text (use->name);

      /* Translators: how many times a session called a tool. */
      calls = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s call", "%s calls",
                                            (gulong)MIN (use->n_calls, G_MAXULONG)),
                               number);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name != NULL ? name : "");
      gtk_label_set_text (g_object_get_data (G_OBJECT (row), "loom-count-label"), calls);
      gtk_widget_set_visible (row, TRUE);
    }
  hide_rows_from (self->tool_rows, tools->len);
  gtk_widget_set_visible (GTK_WIDGET (self->tools_group), tools->len > 0);
}

static void
fill_children (LoomSessionDetails *self,
               LoomStore          *store,
               LoomSession        *session)
{
  g_autoptr (GListModel) children = NULL;
  g_autoptr (GError) error = NULL;
  guint n;

  if (store != NULL)
    children = loom_store_list_child_sessions (store, loom_session_get_uuid (session), &error);
  if (error != NULL)
    g_debug ("Could not list the sub-agents of %s: %s", loom_session_get_uuid (session),
             error->message);

  n = children != NULL ? MIN (g_list_model_get_n_items (children), MAX_CHILDREN) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomSession) child = g_list_model_get_item (children, i);
      GtkWidget       *row = child_row_at (self, i);
      g_autofree char *created = format_date (loom_session_get_created_at (child));
      g_autofree char *title = loom_session_row_display_text (loom_session_get_title (child));

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title != NULL ? title : "");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), created != NULL ? created : "");
      gtk_actionable_set_action_target (g_object_get_data (G_OBJECT (row), "loom-open-button"), "s",
                                        loom_session_get_uuid (child));
      gtk_widget_set_visible (row, TRUE);
    }
  hide_rows_from (self->child_rows, n);
  gtk_widget_set_visible (GTK_WIDGET (self->children_group), n > 0);
}

/* Shows the session in the rows, once. */
static void
fill (LoomSessionDetails *self)
{
  LoomStore               *store = self->store;
  LoomSession             *session = self->session;
  const LoomSessionRecord *r;
  g_autofree char         *messages = NULL;
  g_autofree char         *events = NULL;
  g_autofree char         *tool_calls = NULL;
  gboolean                 task_shown;

  g_assert (LOOM_IS_SESSION_DETAILS (self));

  if (self->filled || session == NULL)
    return;
  self->filled = TRUE;

  r = loom_session_get_record (session);

  set_field_take (self, FIELD_TITLE, loom_session_row_display_text (r->title));
  set_field (self, FIELD_ID, r->uuid);
  set_field (self, FIELD_AGENT, loom_session_row_agent_name (r->source));
  set_field (self, FIELD_SELECTED_AGENT, r->selected_agent_id);
  set_field (self, FIELD_MODEL, r->model);
  set_field_take (self, FIELD_MODELS, format_models (session));
  set_field (self, FIELD_AGENT_MODE, r->agent_mode);
  set_field_take (self, FIELD_SESSION_TYPE, format_session_type (r->session_type));

  set_field_take (self, FIELD_CREATED, format_date (r->created_at));
  set_field_take (self, FIELD_UPDATED, format_date (r->updated_at));
  if (r->last_opened_at > 0)
    set_field_take (self, FIELD_LAST_OPENED, format_date (r->last_opened_at));
  else
    set_field (self, FIELD_LAST_OPENED, _ ("Never"));

  messages = format_count (r->message_count);
  if (r->n_user_messages + r->n_assistant_messages > 0)
    {
      g_autofree char *total = g_steal_pointer (&messages);
      g_autofree char *user = format_count (r->n_user_messages);
      g_autofree char *agent = format_count (r->n_assistant_messages);

      /* Translators: a session's message count, then how many were the person's and the
       * agent's. */
      messages = g_strdup_printf (_ ("%s (%s from you, %s from the agent)"), total, user, agent);
    }
  set_field (self, FIELD_MESSAGES, messages);
  events = format_count (r->event_count);
  set_field (self, FIELD_EVENTS, events);
  if (r->n_tool_calls > 0)
    tool_calls = format_count (r->n_tool_calls);
  if (r->n_tool_errors > 0)
    {
      g_autofree char *total = g_steal_pointer (&tool_calls);
      g_autofree char *failed = format_count (r->n_tool_errors);

      /* Translators: tool calls of a session, then how many of them failed. */
      tool_calls = g_strdup_printf (_ ("%s (%s failed)"), total != NULL ? total : "0", failed);
    }
  set_field (self, FIELD_TOOL_CALLS, tool_calls);
  set_field_take (self, FIELD_TOKENS, format_tokens (r));

  set_field (self, FIELD_FOLDER, r->folder_name != NULL ? r->folder_name : _ ("None"));
  set_field (self, FIELD_PINNED, yes_no (r->pinned));
  set_field (self, FIELD_ARCHIVED, yes_no (r->archived));
  /* Where the archive sweep put the session: what a person looks for once the agent has
   * deleted its own transcript. */
  set_field (self, FIELD_BACKUP, loom_session_get_backup_path (session));
  if (loom_session_get_backup_path (session) != NULL &&
      !g_file_test (loom_session_get_backup_path (session), G_FILE_TEST_EXISTS))
    set_note (self, FIELD_BACKUP, _ ("Not found: the backup was moved or its disk is not here"));
  /* Written by a sweep or by continuous backup; hidden for a session never backed up. */
  set_field_take (self, FIELD_BACKUP_AT,
                  r->backup_path != NULL ? format_date (r->backup_at) : NULL);
  if (r->trashed_at > 0)
    {
      g_autofree char *since = format_date (r->trashed_at);

      set_field_take (self, FIELD_TRASHED, g_strdup_printf (_ ("Yes, since %s"), since));
    }
  else
    set_field (self, FIELD_TRASHED, yes_no (FALSE));

  set_field (self, FIELD_TASK_OBJECTIVE, r->task_objective);
  set_field (self, FIELD_TASK_STATUS, r->task_status);
  set_field_take (self, FIELD_PARENT, related_session (store, r->parent_uuid));
  set_field_take (self, FIELD_FORK_SOURCE, related_session (store, r->fork_source_uuid));
  if (r->parent_uuid != NULL)
    gtk_actionable_set_action_target (GTK_ACTIONABLE (self->open_buttons[FIELD_PARENT]), "s",
                                      r->parent_uuid);
  if (r->fork_source_uuid != NULL)
    gtk_actionable_set_action_target (GTK_ACTIONABLE (self->open_buttons[FIELD_FORK_SOURCE]), "s",
                                      r->fork_source_uuid);
  task_shown = r->task_objective != NULL || r->task_status != NULL || r->parent_uuid != NULL ||
               r->fork_source_uuid != NULL;
  gtk_widget_set_visible (GTK_WIDGET (self->task_group), task_shown);

  set_field (self, FIELD_PROJECT, r->project_name != NULL ? r->project_name : r->project_path);
  set_field (self, FIELD_CWD, r->cwd);
  set_field (self, FIELD_BRANCH, r->git_branch);
  set_field (self, FIELD_COMMIT, r->git_commit);
  gtk_widget_set_visible (GTK_WIDGET (self->project_group),
                          r->project_name != NULL || r->project_path != NULL || r->cwd != NULL ||
                            r->git_branch != NULL || r->git_commit != NULL);

  set_field (self, FIELD_SOURCE_PATH, r->source_path);
  if (r->source_path != NULL && r->source_missing)
    set_note (self, FIELD_SOURCE_PATH,
              _ ("Source deleted: the agent removed this file; Intentloom History keeps its copy"));
  set_field (self, FIELD_SOURCE_ID, r->source_session_id);
  set_field (self, FIELD_AGENT_VERSION, r->agent_version);

  fill_tools (self, session);
  fill_children (self, store, session);
}

/* Public */

void
loom_session_details_set_session (LoomSessionDetails *self,
                                  LoomStore          *store,
                                  LoomSession        *session)
{
  g_return_if_fail (LOOM_IS_SESSION_DETAILS (self));
  g_return_if_fail (store == NULL || LOOM_IS_STORE (store));
  g_return_if_fail (session == NULL || LOOM_IS_SESSION (session));

  g_set_object (&self->store, store);
  g_set_object (&self->session, session);
  self->filled = FALSE;
  gtk_stack_set_visible_child_name (self->stack, session != NULL ? "details" : "empty");
  /* The same session again (a reload) is read again too: it may have been renamed, moved or
   * opened since. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    fill (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

LoomSession *
loom_session_details_get_session (LoomSessionDetails *self)
{
  g_return_val_if_fail (LOOM_IS_SESSION_DETAILS (self), NULL);
  return self->session;
}

const char *
loom_session_details_get_value (LoomSessionDetails *self,
                                const char         *title)
{
  g_return_val_if_fail (LOOM_IS_SESSION_DETAILS (self), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  /* What the pane shows once opened, whether it is open or not. */
  fill (self);

  for (guint i = 0; i < N_FIELDS; i++)
    {
      if (g_str_equal (_ (fields[i].title), title) || g_str_equal (fields[i].title, title))
        return gtk_widget_get_visible (self->rows[i]) ? gtk_label_get_text (self->values[i]) : NULL;
    }
  return NULL;
}

/* Actions */

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomSessionDetails *self = LOOM_SESSION_DETAILS (widget);
  gint32              field = g_variant_get_int32 (parameter);

  g_return_if_fail (field >= 0 && field < N_FIELDS);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          gtk_label_get_text (self->values[field]));
}

/* The backup's folder opened, or the folder that holds a .loombackup file. */
static void
show_file_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LoomSessionDetails *self = LOOM_SESSION_DETAILS (widget);
  gint32              field = g_variant_get_int32 (parameter);
  const char         *path;
  g_autofree char    *folder = NULL;
  g_autoptr (GFile) file = NULL;
  g_autofree char *uri = NULL;
  GtkRoot         *root = gtk_widget_get_root (widget);

  g_return_if_fail (field >= 0 && field < N_FIELDS);

  path = gtk_label_get_text (self->values[field]);
  if (*path == '\0')
    return;
  folder = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_strdup (path) : g_path_get_dirname (path);
  file = g_file_new_for_path (folder);
  uri = g_file_get_uri (file);
  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
}

static void
open_session_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  const char *uuid = g_variant_get_string (parameter, NULL);

  if (*uuid != '\0')
    g_signal_emit (widget, signals[OPEN_SESSION], 0, uuid);
}

static void
loom_session_details_map (GtkWidget *widget)
{
  fill (LOOM_SESSION_DETAILS (widget));

  GTK_WIDGET_CLASS (loom_session_details_parent_class)->map (widget);
}

static void
loom_session_details_dispose (GObject *object)
{
  LoomSessionDetails *self = (LoomSessionDetails *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SESSION_DETAILS);
  g_clear_object (&self->store);
  g_clear_object (&self->session);
  g_clear_pointer (&self->tool_rows, g_ptr_array_unref);
  g_clear_pointer (&self->child_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (loom_session_details_parent_class)->dispose (object);
}

static void
loom_session_details_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  LoomSessionDetails *self = LOOM_SESSION_DETAILS (object);

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
loom_session_details_class_init (LoomSessionDetailsClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_session_details_dispose;
  object_class->get_property = loom_session_details_get_property;
  widget_class->map = loom_session_details_map;

  properties[PROP_SESSION] = g_param_spec_object ("session", NULL, NULL, LOOM_TYPE_SESSION,
                                                  G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                                                    G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LoomSessionDetails::open-session:
   * @uuid: the session to show
   *
   * A person asked for a related session: the parent, the fork source or a sub-agent.
   */
  signals[OPEN_SESSION] = g_signal_new ("open-session", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                        G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-session-details.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, activity_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, children_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, organisation_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, project_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, session_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, source_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, stack);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, task_group);
  gtk_widget_class_bind_template_child (widget_class, LoomSessionDetails, tools_group);

  gtk_widget_class_install_action (widget_class, "details.copy", "i", copy_action);
  gtk_widget_class_install_action (widget_class, "details.open-session", "s", open_session_action);
  gtk_widget_class_install_action (widget_class, "details.show-file", "i", show_file_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
loom_session_details_init (LoomSessionDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->tool_rows = g_ptr_array_new ();
  self->child_rows = g_ptr_array_new ();
  self->groups[GROUP_SESSION] = self->session_group;
  self->groups[GROUP_ACTIVITY] = self->activity_group;
  self->groups[GROUP_ORGANISATION] = self->organisation_group;
  self->groups[GROUP_TASK] = self->task_group;
  self->groups[GROUP_PROJECT] = self->project_group;
  self->groups[GROUP_SOURCE] = self->source_group;

  for (guint i = 0; i < N_FIELDS; i++)
    {
      self->rows[i] = property_row_new (self, i);
      adw_preferences_group_add (self->groups[fields[i].group], self->rows[i]);
    }
}

GtkWidget *
loom_session_details_new (void)
{
  return g_object_new (LOOM_TYPE_SESSION_DETAILS, NULL);
}
