/* loom-timeline-search-bar.c — searching the open session, from hit to hit.
 *
 * A GtkSearchBar over the timeline: it searches the session the timeline shows with the same
 * query language as the search of all history (loom_store_search_session, in the search
 * worker's thread), counts the hits ("3 of 12") and goes from one to the next in timeline
 * order, reporting each as "hit-chosen" for the window to scroll to. It is also where a hit
 * chosen in the search of all history leaves the reader: the bar opens with that query, counted
 * from that hit, so that the next one is a key away.
 *
 * The count is exact, but comes in two steps for a session with many hits. The hits come
 * without snippets (loom_store_search_session_positions), yet tens of thousands still take a
 * while to read: the first thousand therefore come first ("1 of 1,000+"), to go from hit to
 * hit at once; all of them follow from a second worker, so that a search typed meanwhile does
 * not wait behind the count, and the count becomes exact ("1 of 5,000").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "loom-error.h"
#include "loom-search-worker.h"
#include "loom-timeline-search-bar.h"

/* The hits that come first; the rest are counted after (see above). */
#define FIRST_HITS 1000

struct _LoomTimelineSearchBar
{
  GtkWidget parent_instance;

  LoomSearchWorker *worker;
  /* Counts all the hits once the first ones are in: a connection of its own. */
  LoomSearchWorker *count_worker;
  char             *session_uuid;
  /* What the hits are of; NULL when nothing is searched. */
  char             *query;
  GCancellable     *cancellable;
  GArray           *seqs; /* gint64, ascending */
  int               position;
  char             *status;
  char             *error;
  /* Where to count from once the hits are in (a hit chosen elsewhere); -1: nowhere. */
  gint64            target_seq;

  guint complete : 1;
  guint counting : 1;
  guint searching : 1;
  /* The search was typed: its first hit is gone to as soon as it is found. */
  guint go_to_first : 1;
  guint setting_text : 1;

  GtkLabel       *count_label;
  GtkSearchEntry *entry;
  GtkSearchBar   *search_bar;
};

G_DEFINE_FINAL_TYPE (LoomTimelineSearchBar, loom_timeline_search_bar, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_OPEN,
  PROP_QUERY,
  PROP_SEARCHING,
  PROP_STATUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  HIT_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ——— State ——— */

static void
update_status (LoomTimelineSearchBar *self)
{
  g_autofree char *status = NULL;
  g_autofree char *total = NULL;
  gboolean         can_move;

  if (self->error != NULL)
    status = g_strdup (self->error);
  else if (self->query == NULL || self->searching)
    status = g_strdup ("");
  else if (self->seqs->len == 0)
    status = g_strdup (_ ("No matches"));
  else
    {
      total = self->complete ? g_strdup_printf ("%'u", self->seqs->len)
                             /* Translators: more matches than were counted, e.g. "1,000+". */
                             : g_strdup_printf (_ ("%'u+"), self->seqs->len);
      if (self->position < 0)
        /* Translators: %s is a number of matches in the session, e.g. "12". */
        status = g_strdup_printf (ngettext ("%s match", "%s matches", self->seqs->len), total);
      else
        /* Translators: the match gone to and how many there are, e.g. "3 of 12". */
        status = g_strdup_printf (_ ("%'d of %s"), self->position + 1, total);
    }

  gtk_label_set_label (self->count_label, status);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->count_label),
                               self->error != NULL ? self->error : NULL);
  if (self->error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->count_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "error");
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->count_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
    }

  can_move = self->seqs->len > 0 && self->error == NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline-search.next", can_move);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline-search.previous", can_move);

  if (g_strcmp0 (self->status, status) != 0)
    {
      g_free (self->status);
      self->status = g_steal_pointer (&status);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }
}

static void
set_searching (LoomTimelineSearchBar *self,
               gboolean               searching)
{
  searching = !!searching;
  if (self->searching == searching)
    return;

  self->searching = searching;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCHING]);
}

static void
go_to (LoomTimelineSearchBar *self,
       int                    position)
{
  g_assert (position >= 0 && (guint)position < self->seqs->len);

  self->position = position;
  update_status (self);
  g_signal_emit (self, signals[HIT_CHOSEN], 0, g_array_index (self->seqs, gint64, position));
}

/* ——— Searching ——— */

typedef struct
{
  /* Not a reference: the bar cancels its search when it goes, and a callback whose search was
   * cancelled does not look at it. */
  LoomTimelineSearchBar *self;
  GCancellable          *cancellable;
} SearchRequest;

static void
search_request_free (SearchRequest *request)
{
  g_clear_object (&request->cancellable);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SearchRequest, search_request_free)

static int
compare_seqs (gconstpointer a,
              gconstpointer b)
{
  gint64 sa = *(const gint64 *)a;
  gint64 sb = *(const gint64 *)b;

  return sa < sb ? -1 : sa > sb;
}

/* Takes the hits of @page, all of the session's or its first ones, in the timeline's order,
 * each place once; a title has no place in the timeline. */
static void
take_hits (LoomTimelineSearchBar *self,
           LoomSearchPage        *page)
{
  guint n_hits = g_list_model_get_n_items (page->hits);

  g_array_set_size (self->seqs, 0);
  for (guint i = 0; i < n_hits; i++)
    {
      g_autoptr (LoomSearchHit) hit = g_list_model_get_item (page->hits, i);
      gint64 seq = loom_search_hit_get_data (hit)->seq;

      if (seq > 0)
        g_array_append_val (self->seqs, seq);
    }
  g_array_sort (self->seqs, compare_seqs);
  for (guint i = 1; i < self->seqs->len;)
    {
      if (g_array_index (self->seqs, gint64, i) == g_array_index (self->seqs, gint64, i - 1))
        g_array_remove_index (self->seqs, i);
      else
        i++;
    }
  self->complete = page->complete;

  /* A hit chosen elsewhere is where the count starts; the timeline is already there. One
   * beyond the first hits waits for the rest. */
  if (self->target_seq >= 0)
    {
      for (guint i = 0; i < self->seqs->len; i++)
        {
          if (g_array_index (self->seqs, gint64, i) >= self->target_seq)
            {
              self->position = (int)i;
              self->target_seq = -1;
              break;
            }
        }
      if (self->complete)
        self->target_seq = -1;
    }
}

/* A search that failed: a malformed query says what to change; anything else is the store's
 * to explain. */
static void
take_error (LoomTimelineSearchBar *self,
            const GError          *error)
{
  g_free (self->error);
  self->error = g_error_matches (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT)
                  ? g_strdup (error->message)
                  : g_strdup_printf (_ ("Search failed: %s"), error->message);
  update_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUERY]);
}

static void
count_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr (SearchRequest) request = user_data;
  g_autoptr (LoomSearchPage) page = NULL;
  g_autoptr (GError) error = NULL;
  LoomTimelineSearchBar *self;
  gint64                 current;

  page = loom_search_worker_search_finish (LOOM_SEARCH_WORKER (object), result, &error);
  if (g_cancellable_is_cancelled (request->cancellable))
    return;

  self = request->self;
  g_assert (LOOM_IS_TIMELINE_SEARCH_BAR (self));
  self->counting = FALSE;

  /* The first hits stay, counted as they were: what failed is only the rest. */
  if (page == NULL)
    {
      g_debug ("Could not count the hits of “%s”: %s", self->query, error->message);
      return;
    }

  /* The hit gone to keeps its place: by its seq, should an import have added hits before it
   * between the two reads. */
  current = self->position >= 0 ? g_array_index (self->seqs, gint64, self->position) : -1;
  take_hits (self, page);
  for (guint i = 0; current >= 0 && i < self->seqs->len; i++)
    {
      if (g_array_index (self->seqs, gint64, i) >= current)
        {
          self->position = (int)i;
          break;
        }
    }
  if (self->position >= (int)self->seqs->len)
    self->position = (int)self->seqs->len - 1;
  update_status (self);
}

static void
search_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr (SearchRequest) request = user_data;
  g_autoptr (LoomSearchPage) page = NULL;
  g_autoptr (GError) error = NULL;
  LoomTimelineSearchBar *self;

  page = loom_search_worker_search_finish (LOOM_SEARCH_WORKER (object), result, &error);
  if (g_cancellable_is_cancelled (request->cancellable))
    return;

  self = request->self;
  g_assert (LOOM_IS_TIMELINE_SEARCH_BAR (self));
  set_searching (self, FALSE);

  if (page == NULL)
    {
      take_error (self, error);
      return;
    }

  take_hits (self, page);

  /* More than the first hits: all of them, counted in the background. */
  if (!self->complete)
    {
      SearchRequest *count = g_new0 (SearchRequest, 1);

      count->self = self;
      count->cancellable = g_object_ref (self->cancellable);
      self->counting = TRUE;
      loom_search_worker_search_async (self->count_worker, self->query, self->session_uuid, 0, 0,
                                       self->cancellable, count_cb, count);
    }

  if (self->go_to_first && self->seqs->len > 0)
    go_to (self, 0);
  else
    update_status (self);
  self->go_to_first = FALSE;
}

static void
cancel_search (LoomTimelineSearchBar *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  set_searching (self, FALSE);
}

/* Searches the session for @query from scratch; "" or no session leaves nothing to show. */
static void
run_search (LoomTimelineSearchBar *self,
            const char            *query,
            gint64                 target_seq,
            gboolean               go_to_first)
{
  g_autofree char *stripped = g_strstrip (g_strdup (query != NULL ? query : ""));
  SearchRequest   *request;

  cancel_search (self);
  g_clear_pointer (&self->query, g_free);
  g_clear_pointer (&self->error, g_free);
  g_array_set_size (self->seqs, 0);
  self->position = -1;
  self->complete = TRUE;
  self->counting = FALSE;
  /* A title (seq 0) has no place in the timeline to count from. */
  self->target_seq = target_seq > 0 ? target_seq : -1;
  self->go_to_first = !!go_to_first;

  if (*stripped == '\0' || self->session_uuid == NULL || self->worker == NULL)
    {
      update_status (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUERY]);
      return;
    }

  self->query = g_steal_pointer (&stripped);
  self->cancellable = g_cancellable_new ();
  set_searching (self, TRUE);
  update_status (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUERY]);

  request = g_new0 (SearchRequest, 1);
  request->self = self;
  request->cancellable = g_object_ref (self->cancellable);
  loom_search_worker_search_async (self->worker, self->query, self->session_uuid, 0, FIRST_HITS,
                                   self->cancellable, search_cb, request);
}

/* ——— Signals and actions ——— */

static void
on_search_changed_cb (LoomTimelineSearchBar *self,
                      GtkSearchEntry        *entry)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));

  g_assert (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  /* The text set for a hit chosen elsewhere is searched for already. */
  if (self->setting_text || g_strcmp0 (*text != '\0' ? text : NULL, self->query) == 0)
    return;

  run_search (self, text, -1, TRUE);
}

static void
on_entry_activate_cb (LoomTimelineSearchBar *self,
                      GtkSearchEntry        *entry)
{
  g_assert (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  loom_timeline_search_bar_next (self);
}

static void
on_next_match_cb (LoomTimelineSearchBar *self,
                  GtkSearchEntry        *entry)
{
  loom_timeline_search_bar_next (self);
}

static void
on_previous_match_cb (LoomTimelineSearchBar *self,
                      GtkSearchEntry        *entry)
{
  loom_timeline_search_bar_previous (self);
}

/* Escape in the entry. */
static void
on_stop_search_cb (LoomTimelineSearchBar *self,
                   GtkSearchEntry        *entry)
{
  g_assert (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  loom_timeline_search_bar_close (self);
}

static void
on_search_mode_changed_cb (LoomTimelineSearchBar *self,
                           GParamSpec            *pspec,
                           GtkSearchBar          *search_bar)
{
  g_assert (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  /* Closed (Escape, the close button): nothing more to search for until it opens again, with
   * the same text. */
  if (!gtk_search_bar_get_search_mode (search_bar))
    run_search (self, NULL, -1, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPEN]);
}

static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  LoomTimelineSearchBar *self = LOOM_TIMELINE_SEARCH_BAR (widget);

  if (g_str_equal (action_name, "timeline-search.next"))
    loom_timeline_search_bar_next (self);
  else
    loom_timeline_search_bar_previous (self);
}

/* ——— GObject ——— */

static void
loom_timeline_search_bar_dispose (GObject *object)
{
  LoomTimelineSearchBar *self = LOOM_TIMELINE_SEARCH_BAR (object);

  if (self->cancellable != NULL)
    cancel_search (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_TIMELINE_SEARCH_BAR);
  g_clear_object (&self->worker);
  g_clear_object (&self->count_worker);

  G_OBJECT_CLASS (loom_timeline_search_bar_parent_class)->dispose (object);
}

static void
loom_timeline_search_bar_finalize (GObject *object)
{
  LoomTimelineSearchBar *self = LOOM_TIMELINE_SEARCH_BAR (object);

  g_free (self->session_uuid);
  g_free (self->query);
  g_free (self->status);
  g_free (self->error);
  g_array_unref (self->seqs);

  G_OBJECT_CLASS (loom_timeline_search_bar_parent_class)->finalize (object);
}

static void
loom_timeline_search_bar_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  LoomTimelineSearchBar *self = LOOM_TIMELINE_SEARCH_BAR (object);

  switch (prop_id)
    {
    case PROP_OPEN:
      g_value_set_boolean (value, loom_timeline_search_bar_get_open (self));
      break;

    case PROP_QUERY:
      g_value_set_string (value, loom_timeline_search_bar_get_query (self));
      break;

    case PROP_SEARCHING:
      g_value_set_boolean (value, self->searching);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_search_bar_class_init (LoomTimelineSearchBarClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags     flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = loom_timeline_search_bar_dispose;
  object_class->finalize = loom_timeline_search_bar_finalize;
  object_class->get_property = loom_timeline_search_bar_get_property;

  properties[PROP_OPEN] = g_param_spec_boolean ("open", NULL, NULL, FALSE, flags);
  properties[PROP_QUERY] = g_param_spec_string ("query", NULL, NULL, NULL, flags);
  properties[PROP_SEARCHING] = g_param_spec_boolean ("searching", NULL, NULL, FALSE, flags);
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LoomTimelineSearchBar::hit-chosen:
   * @seq: the hit's place in the timeline
   *
   * The reader went to a hit: the next, the previous, or the first of a search just typed.
   */
  signals[HIT_CHOSEN] = g_signal_new ("hit-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-timeline-search-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineSearchBar, count_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineSearchBar, entry);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineSearchBar, search_bar);
  gtk_widget_class_bind_template_callback (widget_class, on_entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_next_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_previous_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_search_mode_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search_cb);

  gtk_widget_class_install_action (widget_class, "timeline-search.next", NULL, move_action);
  gtk_widget_class_install_action (widget_class, "timeline-search.previous", NULL, move_action);

  /* Shift+Enter goes back, as in the find bars of GNOME's editors. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_SHIFT_MASK,
                                       "timeline-search.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_SHIFT_MASK,
                                       "timeline-search.previous", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomtimelinesearchbar");
}

static void
loom_timeline_search_bar_init (LoomTimelineSearchBar *self)
{
  self->seqs = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->position = -1;
  self->target_seq = -1;
  self->complete = TRUE;

  /* Not gtk_search_bar_connect_entry(): it would take the focus whenever the bar opens, also
   * for a hit chosen in the results list, where the reader goes on with the arrow keys, and
   * empty the entry whenever it closes. Escape is handled below instead. */
  gtk_widget_init_template (GTK_WIDGET (self));
  update_status (self);
}

/* ——— Public ——— */

GtkWidget *
loom_timeline_search_bar_new (void)
{
  return g_object_new (LOOM_TYPE_TIMELINE_SEARCH_BAR, NULL);
}

void
loom_timeline_search_bar_set_store (LoomTimelineSearchBar *self,
                                    LoomStore             *store)
{
  g_return_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self));
  g_return_if_fail (store == NULL || LOOM_IS_STORE (store));

  if (store != NULL && self->worker != NULL &&
      g_strcmp0 (loom_store_get_path (store), loom_search_worker_get_store_path (self->worker)) ==
        0)
    return;

  run_search (self, NULL, -1, FALSE);
  g_clear_object (&self->worker);
  g_clear_object (&self->count_worker);
  if (store != NULL)
    {
      self->worker = loom_search_worker_new (loom_store_get_path (store));
      self->count_worker = loom_search_worker_new (loom_store_get_path (store));
    }
}

void
loom_timeline_search_bar_set_session (LoomTimelineSearchBar *self,
                                      const char            *session_uuid)
{
  g_return_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  if (g_strcmp0 (self->session_uuid, session_uuid) == 0)
    return;

  g_free (self->session_uuid);
  self->session_uuid = g_strdup (session_uuid);

  /* The same words in the session now shown: counted, but the reader starts at its top. */
  if (loom_timeline_search_bar_get_open (self))
    run_search (self, gtk_editable_get_text (GTK_EDITABLE (self->entry)), -1, FALSE);
}

void
loom_timeline_search_bar_open (LoomTimelineSearchBar *self)
{
  g_return_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  if (!loom_timeline_search_bar_get_open (self))
    {
      gtk_search_bar_set_search_mode (self->search_bar, TRUE);
      /* The text of the last time is searched for again. */
      run_search (self, gtk_editable_get_text (GTK_EDITABLE (self->entry)), -1, FALSE);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

void
loom_timeline_search_bar_close (LoomTimelineSearchBar *self)
{
  g_return_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
}

gboolean
loom_timeline_search_bar_get_open (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), FALSE);

  return gtk_search_bar_get_search_mode (self->search_bar);
}

void
loom_timeline_search_bar_show_hit (LoomTimelineSearchBar *self,
                                   const char            *session_uuid,
                                   const char            *query,
                                   gint64                 seq)
{
  g_return_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self));
  g_return_if_fail (session_uuid != NULL);
  g_return_if_fail (query != NULL);

  g_free (self->session_uuid);
  self->session_uuid = g_strdup (session_uuid);

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  /* The search first, so that the entry's "search-changed" finds it under way. Replacing the
   * text empties the entry for a moment, which it reports at once: that is no search. */
  run_search (self, query, seq, FALSE);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->entry)), query) != 0)
    {
      self->setting_text = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->entry), query);
      self->setting_text = FALSE;
    }
}

void
loom_timeline_search_bar_refresh (LoomTimelineSearchBar *self)
{
  SearchRequest *request;

  g_return_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self));

  /* Nothing counted, or a search or count under way, which reads the store as it is now. */
  if (self->query == NULL || self->error != NULL || self->searching || self->counting ||
      self->cancellable == NULL || self->count_worker == NULL)
    return;

  /* All the hits, as a count reads them: the one gone to keeps its place, and the count its
   * new total, without the bar going blank meanwhile. */
  request = g_new0 (SearchRequest, 1);
  request->self = self;
  request->cancellable = g_object_ref (self->cancellable);
  self->counting = TRUE;
  loom_search_worker_search_async (self->count_worker, self->query, self->session_uuid, 0, 0,
                                   self->cancellable, count_cb, request);
}

gboolean
loom_timeline_search_bar_next (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), FALSE);

  if (self->seqs->len == 0 || self->error != NULL)
    return FALSE;

  go_to (self, self->position < 0 ? 0 : (self->position + 1) % (int)self->seqs->len);
  return TRUE;
}

gboolean
loom_timeline_search_bar_previous (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), FALSE);

  if (self->seqs->len == 0 || self->error != NULL)
    return FALSE;

  go_to (self, self->position <= 0 ? (int)self->seqs->len - 1 : self->position - 1);
  return TRUE;
}

guint
loom_timeline_search_bar_get_n_hits (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), 0);

  return self->seqs->len;
}

int
loom_timeline_search_bar_get_position (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), -1);

  return self->position;
}

gint64
loom_timeline_search_bar_get_hit_seq (LoomTimelineSearchBar *self,
                                      guint                  index)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), -1);
  g_return_val_if_fail (index < self->seqs->len, -1);

  return g_array_index (self->seqs, gint64, index);
}

const char *
loom_timeline_search_bar_get_query (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), NULL);

  return self->error == NULL ? self->query : NULL;
}

gboolean
loom_timeline_search_bar_get_counting (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), FALSE);

  return self->counting;
}

gboolean
loom_timeline_search_bar_get_searching (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), FALSE);

  return self->searching;
}

const char *
loom_timeline_search_bar_get_status (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), NULL);

  return self->status;
}

GtkSearchEntry *
loom_timeline_search_bar_get_entry (LoomTimelineSearchBar *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_SEARCH_BAR (self), NULL);

  return self->entry;
}
