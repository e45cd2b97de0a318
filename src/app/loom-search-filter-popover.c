/* loom-search-filter-popover.c — the search's filters, chosen rather than typed.
 *
 * The query's text is the one truth of what is searched for: the popover reads its filters
 * from the text as it opens, and a choice writes "key:value" back into the text (in place of
 * the one it replaces), which the entry then shows and searches for. A value the popover does
 * not offer (typed by hand, say agent:claude or after:2026-10-01) shows as a choice of its own
 * rather than being lost.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-search-filter-popover.h"
#include "loom-search-query-text.h"
#include "loom-session-row.h"
#include "loom-store-projects.h"

/* As in the session list's filter menu: the projects with the most sessions, a list to read
 * rather than to scroll. */
#define MAX_PROJECTS 25

typedef enum
{
  FIELD_AGENT,
  FIELD_ROLE,
  FIELD_DATE,
  FIELD_PROJECT,
  FIELD_FOLDER,
  FIELD_PLACE,
  N_FIELDS
} FieldId;

typedef struct
{
  const char    *key;
  GtkDropDown   *dropdown;
  GtkStringList *labels;
  GPtrArray     *values;  /* char *, parallel to labels; NULL stands for no filter */
  guint          n_fixed; /* the choices always offered; a typed value goes after them */
} Field;

struct _LoomSearchFilterPopover
{
  GtkPopover parent_instance;

  Field    fields[N_FIELDS];
  char    *query;
  gboolean updating;

  GtkDropDown    *agent_dropdown;
  GtkDropDown    *date_dropdown;
  GtkCheckButton *errors_check;
  GtkDropDown    *folder_dropdown;
  GtkDropDown    *place_dropdown;
  GtkDropDown    *project_dropdown;
  GtkDropDown    *role_dropdown;
};

G_DEFINE_FINAL_TYPE (LoomSearchFilterPopover, loom_search_filter_popover, GTK_TYPE_POPOVER)

enum
{
  PROP_0,
  PROP_QUERY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *const field_keys[N_FIELDS] = {
  [FIELD_AGENT] = "agent",     [FIELD_ROLE] = "role",     [FIELD_DATE] = "after",
  [FIELD_PROJECT] = "project", [FIELD_FOLDER] = "folder", [FIELD_PLACE] = "in",
};

/* ——— Values ——— */

/* The value a filter stands for, whatever name it was typed under: agent:claude is
 * agent:claude-code, role:prompt is role:user (loom-search.c reads them so). */
static char *
canonical_value (const char *key,
                 const char *value)
{
  static const struct
  {
    const char *key;
    const char *alias;
    const char *value;
  } aliases[] = {
    { "agent", "claude", "claude-code" }, { "agent", "gemini-cli", "gemini" },
    { "role", "prompt", "user" },         { "role", "reply", "assistant" },
    { "in", "archive", "archived" },      { "has", "errors", "error" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    {
      if (g_str_equal (key, aliases[i].key) && g_ascii_strcasecmp (value, aliases[i].alias) == 0)
        return g_strdup (aliases[i].value);
    }
  return g_strdup (value);
}

static void
field_clear (Field *field)
{
  g_ptr_array_set_size (field->values, 0);
  gtk_string_list_splice (field->labels, 0, g_list_model_get_n_items (G_LIST_MODEL (field->labels)),
                          NULL);
}

/* Takes away the choices added for values typed by hand. */
static void
field_reset (Field *field)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (field->labels));

  if (n_items > field->n_fixed)
    {
      gtk_string_list_splice (field->labels, field->n_fixed, n_items - field->n_fixed, NULL);
      g_ptr_array_set_size (field->values, field->n_fixed);
    }
}

static void
field_add (Field      *field,
           const char *label,
           const char *value)
{
  gtk_string_list_append (field->labels, label);
  g_ptr_array_add (field->values, g_strdup (value));
}

/* Selects the choice for @value (NULL: none), adding it when the field does not offer it. */
static void
field_select (Field      *field,
              const char *value)
{
  g_autofree char *canonical = value != NULL ? canonical_value (field->key, value) : NULL;
  guint            index = field->values->len;

  for (guint i = 0; i < field->values->len; i++)
    {
      const char *candidate = field->values->pdata[i];

      if ((candidate == NULL && canonical == NULL) ||
          (candidate != NULL && canonical != NULL &&
           g_ascii_strcasecmp (candidate, canonical) == 0))
        {
          index = i;
          break;
        }
    }

  if (index == field->values->len)
    {
      if (g_str_equal (field->key, "after"))
        {
          /* Translators: a date typed by hand in after:, e.g. "Since 2026-10-01". */
          g_autofree char *label = g_strdup_printf (_ ("Since %s"), value);

          field_add (field, label, value);
        }
      else
        field_add (field, value, value);
    }
  gtk_drop_down_set_selected (field->dropdown, index);
}

/* The dates the date filter offers, for today: after:DATE, the start of that day. */
static void
fill_dates (Field *field)
{
  static const struct
  {
    const char *label;
    int         days;
  } presets[] = {
    { N_ ("Today"), 0 },
    { N_ ("Last 7 Days"), 6 },
    { N_ ("Last 30 Days"), 29 },
    { N_ ("Last 12 Months"), -1 },
  };
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();

  field_clear (field);
  field_add (field, _ ("Any Time"), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autoptr (GDateTime) day = presets[i].days >= 0
                                    ? g_date_time_add_days (now, -presets[i].days)
                                    : g_date_time_add_years (now, -1);
      g_autofree char *date = g_date_time_format (day, "%Y-%m-%d");

      field_add (field, _ (presets[i].label), date);
    }
  field->n_fixed = field->values->len;
}

static int
compare_project_names (gconstpointer a,
                       gconstpointer b)
{
  const LoomProjectSummary *pa = *(LoomProjectSummary *const *)a;
  const LoomProjectSummary *pb = *(LoomProjectSummary *const *)b;
  int                       cmp = g_utf8_collate (pa->name, pb->name);

  return cmp != 0 ? cmp : strcmp (pa->path, pb->path);
}

static void
fill_projects (Field     *field,
               LoomStore *store)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) projects = NULL;
  g_autoptr (GError) error = NULL;

  field_clear (field);
  field_add (field, _ ("Any Project"), NULL);
  field->n_fixed = 1;
  if (store == NULL)
    return;

  if (!(projects = loom_store_list_projects (store, &error)))
    {
      g_debug ("Could not list the projects for the search filters: %s", error->message);
      return;
    }

  g_ptr_array_set_size (projects, MIN (projects->len, MAX_PROJECTS));
  g_ptr_array_sort (projects, compare_project_names);
  for (guint i = 0; i < projects->len; i++)
    {
      LoomProjectSummary *summary = projects->pdata[i];
      guint               n = GPOINTER_TO_UINT (g_hash_table_lookup (names, summary->name));

      g_hash_table_insert (names, summary->name, GUINT_TO_POINTER (n + 1));
    }

  /* project: takes a name or a path: two projects of one name are told apart by their path. */
  for (guint i = 0; i < projects->len; i++)
    {
      LoomProjectSummary *summary = projects->pdata[i];

      if (GPOINTER_TO_UINT (g_hash_table_lookup (names, summary->name)) > 1)
        {
          g_autofree char *label = g_strdup_printf (_ ("%s (%s)"), summary->name, summary->path);

          field_add (field, label, summary->path);
        }
      else
        field_add (field, summary->name, summary->name);
    }
  field->n_fixed = field->values->len;
}

static void
fill_folders (Field     *field,
              LoomStore *store)
{
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (GError) error = NULL;
  guint n_folders;

  field_clear (field);
  field_add (field, _ ("Any Folder"), NULL);
  field->n_fixed = 1;
  if (store == NULL)
    return;

  if (!(folders = loom_store_list_folders (store, &error)))
    {
      g_debug ("Could not list the folders for the search filters: %s", error->message);
      return;
    }

  n_folders = g_list_model_get_n_items (folders);
  for (guint i = 0; i < n_folders; i++)
    {
      g_autoptr (LoomFolder) folder = g_list_model_get_item (folders, i);

      field_add (field, loom_folder_get_name (folder), loom_folder_get_name (folder));
    }
  field->n_fixed = field->values->len;
}

/* ——— Choosing ——— */

static void
set_query (LoomSearchFilterPopover *self,
           char                    *query)
{
  if (g_strcmp0 (self->query, query) == 0)
    {
      g_free (query);
      return;
    }

  g_free (self->query);
  self->query = query;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUERY]);
}

static void
on_selected_changed_cb (LoomSearchFilterPopover *self,
                        GParamSpec              *pspec,
                        GtkDropDown             *dropdown)
{
  Field *field = NULL;
  guint  selected;

  g_assert (LOOM_IS_SEARCH_FILTER_POPOVER (self));

  if (self->updating)
    return;

  for (guint i = 0; i < N_FIELDS; i++)
    {
      if (self->fields[i].dropdown == dropdown)
        field = &self->fields[i];
    }
  g_assert (field != NULL);

  selected = gtk_drop_down_get_selected (dropdown);
  if (selected >= field->values->len)
    return;

  set_query (self, loom_search_query_text_set_filter (self->query, field->key,
                                                      field->values->pdata[selected]));
}

static void
on_errors_toggled_cb (LoomSearchFilterPopover *self,
                      GtkCheckButton          *check)
{
  g_assert (LOOM_IS_SEARCH_FILTER_POPOVER (self));

  if (self->updating)
    return;

  set_query (self, loom_search_query_text_set_filter (
                     self->query, "has", gtk_check_button_get_active (check) ? "error" : NULL));
}

static void
on_clear_clicked_cb (LoomSearchFilterPopover *self,
                     GtkButton               *button)
{
  g_autofree char *query = NULL;

  g_assert (LOOM_IS_SEARCH_FILTER_POPOVER (self));

  query = loom_search_query_text_set_filter (self->query, "has", NULL);
  for (guint i = 0; i < N_FIELDS; i++)
    {
      char *next = loom_search_query_text_set_filter (query, field_keys[i], NULL);

      g_free (query);
      query = next;
    }

  self->updating = TRUE;
  for (guint i = 0; i < N_FIELDS; i++)
    field_select (&self->fields[i], NULL);
  gtk_check_button_set_active (self->errors_check, FALSE);
  self->updating = FALSE;

  set_query (self, g_steal_pointer (&query));
}

/* ——— GObject ——— */

static void
loom_search_filter_popover_dispose (GObject *object)
{
  LoomSearchFilterPopover *self = LOOM_SEARCH_FILTER_POPOVER (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SEARCH_FILTER_POPOVER);
  for (guint i = 0; i < N_FIELDS; i++)
    {
      g_clear_object (&self->fields[i].labels);
      g_clear_pointer (&self->fields[i].values, g_ptr_array_unref);
    }

  G_OBJECT_CLASS (loom_search_filter_popover_parent_class)->dispose (object);
}

static void
loom_search_filter_popover_finalize (GObject *object)
{
  LoomSearchFilterPopover *self = LOOM_SEARCH_FILTER_POPOVER (object);

  g_free (self->query);

  G_OBJECT_CLASS (loom_search_filter_popover_parent_class)->finalize (object);
}

static void
loom_search_filter_popover_get_property (GObject    *object,
                                         guint       prop_id,
                                         GValue     *value,
                                         GParamSpec *pspec)
{
  LoomSearchFilterPopover *self = LOOM_SEARCH_FILTER_POPOVER (object);

  switch (prop_id)
    {
    case PROP_QUERY:
      g_value_set_string (value, self->query);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_search_filter_popover_class_init (LoomSearchFilterPopoverClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_search_filter_popover_dispose;
  object_class->finalize = loom_search_filter_popover_finalize;
  object_class->get_property = loom_search_filter_popover_get_property;

  properties[PROP_QUERY] = g_param_spec_string (
    "query", NULL, NULL, "", G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-search-filter-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, agent_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, date_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, errors_check);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, folder_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, place_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, project_dropdown);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchFilterPopover, role_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, on_clear_clicked_cb);
}

static void
loom_search_filter_popover_init (LoomSearchFilterPopover *self)
{
  static const struct
  {
    FieldId     field;
    const char *label;
    const char *value;
  } choices[] = {
    { FIELD_AGENT, N_ ("Any Agent"), NULL },
    { FIELD_AGENT, NULL, "claude-code" },
    { FIELD_AGENT, NULL, "codex" },
    { FIELD_AGENT, NULL, "gemini" },
    { FIELD_ROLE, N_ ("Anything"), NULL },
    { FIELD_ROLE, N_ ("Prompts"), "user" },
    { FIELD_ROLE, N_ ("Replies"), "assistant" },
    { FIELD_ROLE, N_ ("Tool Calls"), "tool" },
    { FIELD_ROLE, N_ ("Reasoning"), "reasoning" },
    { FIELD_PLACE, N_ ("All but the Trash"), NULL },
    { FIELD_PLACE, N_ ("Pinned"), "pinned" },
    { FIELD_PLACE, N_ ("Archived"), "archived" },
    { FIELD_PLACE, N_ ("Trash"), "trash" },
  };
  GtkDropDown *dropdowns[N_FIELDS];

  gtk_widget_init_template (GTK_WIDGET (self));

  dropdowns[FIELD_AGENT] = self->agent_dropdown;
  dropdowns[FIELD_ROLE] = self->role_dropdown;
  dropdowns[FIELD_DATE] = self->date_dropdown;
  dropdowns[FIELD_PROJECT] = self->project_dropdown;
  dropdowns[FIELD_FOLDER] = self->folder_dropdown;
  dropdowns[FIELD_PLACE] = self->place_dropdown;

  self->query = g_strdup ("");
  self->updating = TRUE;
  for (guint i = 0; i < N_FIELDS; i++)
    {
      Field *field = &self->fields[i];

      field->key = field_keys[i];
      field->dropdown = dropdowns[i];
      field->labels = gtk_string_list_new (NULL);
      field->values = g_ptr_array_new_with_free_func (g_free);
      gtk_drop_down_set_model (field->dropdown, G_LIST_MODEL (field->labels));
      g_signal_connect_object (field->dropdown, "notify::selected",
                               G_CALLBACK (on_selected_changed_cb), self, G_CONNECT_SWAPPED);
    }

  /* The agents go by the names people know them by, as in the session list. */
  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    field_add (&self->fields[choices[i].field],
               choices[i].label != NULL ? _ (choices[i].label)
                                        : loom_session_row_agent_name (choices[i].value),
               choices[i].value);
  for (guint i = 0; i < N_FIELDS; i++)
    self->fields[i].n_fixed = self->fields[i].values->len;
  fill_dates (&self->fields[FIELD_DATE]);
  fill_projects (&self->fields[FIELD_PROJECT], NULL);
  fill_folders (&self->fields[FIELD_FOLDER], NULL);
  for (guint i = 0; i < N_FIELDS; i++)
    gtk_drop_down_set_selected (self->fields[i].dropdown, 0);
  self->updating = FALSE;

  g_signal_connect_object (self->errors_check, "toggled", G_CALLBACK (on_errors_toggled_cb), self,
                           G_CONNECT_SWAPPED);
}

/* ——— Public ——— */

GtkWidget *
loom_search_filter_popover_new (void)
{
  return g_object_new (LOOM_TYPE_SEARCH_FILTER_POPOVER, NULL);
}

void
loom_search_filter_popover_update (LoomSearchFilterPopover *self,
                                   LoomStore               *store,
                                   const char              *query)
{
  g_autofree char *errors = NULL;

  g_return_if_fail (LOOM_IS_SEARCH_FILTER_POPOVER (self));
  g_return_if_fail (store == NULL || LOOM_IS_STORE (store));
  g_return_if_fail (query != NULL);

  self->updating = TRUE;

  g_free (self->query);
  self->query = g_strdup (query);

  fill_dates (&self->fields[FIELD_DATE]);
  fill_projects (&self->fields[FIELD_PROJECT], store);
  fill_folders (&self->fields[FIELD_FOLDER], store);
  for (guint i = 0; i < N_FIELDS; i++)
    {
      g_autofree char *value = loom_search_query_text_get_filter (query, field_keys[i]);

      field_reset (&self->fields[i]);
      field_select (&self->fields[i], value);
    }
  errors = loom_search_query_text_get_filter (query, "has");
  gtk_check_button_set_active (self->errors_check, errors != NULL);

  self->updating = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUERY]);
}

const char *
loom_search_filter_popover_get_query (LoomSearchFilterPopover *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_FILTER_POPOVER (self), NULL);

  return self->query;
}

void
loom_search_filter_popover_choose (LoomSearchFilterPopover *self,
                                   const char              *key,
                                   guint                    index)
{
  g_return_if_fail (LOOM_IS_SEARCH_FILTER_POPOVER (self));
  g_return_if_fail (key != NULL);

  if (g_str_equal (key, "has"))
    {
      gtk_check_button_set_active (self->errors_check, index > 0);
      return;
    }

  for (guint i = 0; i < N_FIELDS; i++)
    {
      if (g_str_equal (self->fields[i].key, key))
        {
          g_return_if_fail (index < self->fields[i].values->len);
          gtk_drop_down_set_selected (self->fields[i].dropdown, index);
          return;
        }
    }
  g_return_if_reached ();
}

gboolean
loom_search_filter_popover_has_filters (const char *query)
{
  g_autofree char *errors = NULL;

  g_return_val_if_fail (query != NULL, FALSE);

  for (guint i = 0; i < N_FIELDS; i++)
    {
      g_autofree char *value = loom_search_query_text_get_filter (query, field_keys[i]);

      if (value != NULL)
        return TRUE;
    }
  errors = loom_search_query_text_get_filter (query, "has");
  return errors != NULL;
}
