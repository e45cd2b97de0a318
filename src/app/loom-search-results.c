/* loom-search-results.c — the hits of a search of all history, grouped by session.
 *
 * Each query runs in the search worker's thread, a page of hits at a time: the first page as
 * soon as the entry has waited for the typing to pause, the next ones as the list scrolls near
 * its end. A new query cancels the searches of the last one; should one of them finish anyway,
 * its cancelled GCancellable tells the callback to drop what it found. The previous results
 * stay on screen until the new ones come, and a spinner shows only when that takes a while.
 *
 * Imports go on while results are shown (the source watcher follows the agents as they work):
 * loom_search_results_refresh() reads the query again, as many hits as are shown, and puts in
 * what changed only, so that the list keeps its scroll position and selection. A burst of
 * changes is gathered first, and a long import refreshes the results at most once a second.
 *
 * Choosing a result (a click, Enter, the arrow keys) reports "hit-activated": the window opens
 * the session and scrolls its timeline to the hit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "loom-error.h"
#include "loom-search-result-row.h"
#include "loom-search-results.h"
#include "loom-search-worker.h"
#include "loom-style.h"

/* A screenful several times over; later pages come as the list scrolls. */
#define PAGE_SIZE             100
/* Below this, a search goes from the last results to the new ones without a spinner. */
#define SEARCHING_DELAY_MSEC  250
/* An import's changes come in bursts: the results are read again once it pauses this long, and
 * no more often than every REFRESH_INTERVAL_MSEC while it goes on. */
#define REFRESH_DELAY_MSEC    300
#define REFRESH_INTERVAL_MSEC 1000

struct _LoomSearchResults
{
  GtkWidget parent_instance;

  LoomSearchWorker      *worker;
  LoomSearchResultModel *model;
  GtkSingleSelection    *selection;
  /* The searches of the current query; cancelled when the query changes. */
  GCancellable          *cancellable;

  char  *query;
  char  *summary;
  char  *error;
  guint  next_offset;
  guint  searching_delay_id;
  guint  refresh_id;
  gint64 last_refresh; /* monotonic µs */
  guint  n_refreshes;

  guint searching : 1;
  guint loading_more : 1;
  guint complete : 1;
  guint selecting : 1;
  /* The query is being read again, and should be once more when that is done. */
  guint refreshing : 1;
  guint refresh_again : 1;

  AdwStatusPage     *empty_page;
  AdwStatusPage     *error_page;
  GtkListView       *list_view;
  GtkScrolledWindow *scrolled_window;
  GtkSpinner        *spinner;
  GtkStack          *stack;
};

G_DEFINE_FINAL_TYPE (LoomSearchResults, loom_search_results, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_ERROR,
  PROP_QUERY,
  PROP_SEARCHING,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum
{
  HIT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void loom_search_results_load_page (LoomSearchResults *self);
static void on_vadjustment_changed_cb (LoomSearchResults *self);
static void take_refresh (LoomSearchResults *self,
                          LoomSearchPage    *page,
                          const GError      *error);

/* ——— State ——— */

static void
set_string (LoomSearchResults *self,
            char             **field,
            const char        *value,
            guint              prop_id)
{
  if (g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
set_searching (LoomSearchResults *self,
               gboolean           searching)
{
  searching = !!searching;
  if (self->searching == searching)
    return;

  self->searching = searching;
  if (!searching)
    {
      g_clear_handle_id (&self->searching_delay_id, g_source_remove);
      gtk_spinner_stop (self->spinner);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCHING]);
}

static void
update_summary (LoomSearchResults *self)
{
  g_autofree char *results = NULL;
  g_autofree char *sessions = NULL;
  g_autofree char *summary = NULL;
  guint            n_hits = loom_search_result_model_get_n_hits (self->model);
  guint            n_sessions = loom_search_result_model_get_n_sessions (self->model);

  if (self->query == NULL || self->error != NULL || self->searching)
    {
      set_string (self, &self->summary, NULL, PROP_SUMMARY);
      return;
    }

  if (self->complete)
    results = g_strdup_printf (ngettext ("%'u result", "%'u results", n_hits), n_hits);
  else
    /* Translators: more results than read so far, e.g. "100+ results". */
    results = g_strdup_printf (_ ("%'u+ results"), n_hits);
  sessions = g_strdup_printf (ngettext ("%'u session", "%'u sessions", n_sessions), n_sessions);
  /* Translators: e.g. "12 results in 3 sessions". */
  summary = g_strdup_printf (_ ("%s in %s"), results, sessions);
  set_string (self, &self->summary, summary, PROP_SUMMARY);
}

static void
show_error (LoomSearchResults *self,
            const GError      *error)
{
  g_autofree char *escaped = NULL;

  /* A malformed query is the person's to fix, and the core's message says how; anything else
   * is the store's fault. */
  adw_status_page_set_title (self->error_page,
                             g_error_matches (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT)
                               ? _ ("Check the Search")
                               : _ ("Search Failed"));
  /* The description is markup; the message may quote what was typed. */
  escaped = g_markup_escape_text (error->message, -1);
  adw_status_page_set_description (self->error_page, escaped);
  gtk_stack_set_visible_child_name (self->stack, "error");
  set_string (self, &self->error, error->message, PROP_ERROR);
}

static void
show_results (LoomSearchResults *self)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->model)) > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "results");
      return;
    }

  if (self->query != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (self->query, -1);
      g_autofree char *description = NULL;

      /* Translators: %s is what was searched for. */
      description = g_strdup_printf (_ ("Nothing in the history matches “%s”"), escaped);
      adw_status_page_set_description (self->empty_page, description);
    }
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static gboolean
searching_delay_cb (gpointer user_data)
{
  LoomSearchResults *self = user_data;

  self->searching_delay_id = 0;
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->stack, "searching");
  return G_SOURCE_REMOVE;
}

/* ——— Searching ——— */

typedef struct
{
  /* Not a reference: the widget cancels its searches when it goes, and a callback whose
   * search was cancelled does not look at it. */
  LoomSearchResults *self;
  GCancellable      *cancellable;
  guint              offset;
  gboolean           refresh;
} PageRequest;

static void
page_request_free (PageRequest *request)
{
  g_clear_object (&request->cancellable);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PageRequest, page_request_free)

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr (PageRequest) request = user_data;
  g_autoptr (LoomSearchPage) page = NULL;
  g_autoptr (GError) error = NULL;
  LoomSearchResults *self;

  page = loom_search_worker_search_finish (LOOM_SEARCH_WORKER (object), result, &error);

  /* A query typed over, or a widget gone. */
  if (g_cancellable_is_cancelled (request->cancellable))
    return;

  self = request->self;
  g_assert (LOOM_IS_SEARCH_RESULTS (self));
  g_assert (request->cancellable == self->cancellable);

  if (request->refresh)
    {
      take_refresh (self, page, error);
      return;
    }

  if (page == NULL && request->offset > 0)
    {
      /* The first pages stay: what failed is only more of them. */
      g_debug ("Could not read more results for “%s”: %s", self->query, error->message);
      self->loading_more = FALSE;
      self->complete = TRUE;
      update_summary (self);
      return;
    }

  if (page == NULL)
    {
      self->loading_more = FALSE;
      self->complete = TRUE;
      set_searching (self, FALSE);
      show_error (self, error);
      update_summary (self);
      return;
    }

  if (page->offset == 0)
    {
      self->selecting = TRUE;
      loom_search_result_model_clear (self->model);
      self->selecting = FALSE;
    }

  self->next_offset = page->offset + g_list_model_get_n_items (page->hits);
  self->complete = page->complete;
  self->loading_more = FALSE;
  loom_search_result_model_add_page (self->model, page);

  /* A new query starts at the top. Through the list, not the adjustment: the list has not laid
   * the new results out yet, and GTK 4.8 warns when an adjustment points where no row is. */
  if (page->offset == 0 && g_list_model_get_n_items (G_LIST_MODEL (self->model)) > 0)
    gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);

  set_searching (self, FALSE);
  set_string (self, &self->error, NULL, PROP_ERROR);
  show_results (self);
  update_summary (self);

  /* An import that came while the page was read is read in now. */
  if (self->refresh_again)
    loom_search_results_refresh (self);
}

static void
loom_search_results_load_page (LoomSearchResults *self)
{
  PageRequest *request;

  g_assert (LOOM_IS_SEARCH_RESULTS (self));
  g_assert (self->query != NULL && self->worker != NULL && self->cancellable != NULL);

  request = g_new0 (PageRequest, 1);
  request->self = self;
  request->cancellable = g_object_ref (self->cancellable);
  request->offset = self->next_offset;
  loom_search_worker_search_async (self->worker, self->query, NULL, self->next_offset, PAGE_SIZE,
                                   self->cancellable, page_cb, request);
}

/* ——— Following imports ——— */

/* The query read again: what changed goes into the list, the rest stays as it is. */
static void
take_refresh (LoomSearchResults *self,
              LoomSearchPage    *page,
              const GError      *error)
{
  self->refreshing = FALSE;
  self->n_refreshes++;

  if (page == NULL)
    {
      /* The results shown stay: they are only older than they might be. */
      g_debug ("Could not read “%s” again: %s", self->query, error->message);
    }
  else
    {
      gboolean changed;

      self->selecting = TRUE;
      changed = loom_search_result_model_replace (self->model, page);
      self->selecting = FALSE;
      self->next_offset = g_list_model_get_n_items (page->hits);
      self->complete = page->complete;
      if (changed)
        show_results (self);
      update_summary (self);
    }

  if (self->refresh_again)
    loom_search_results_refresh (self);
  else
    /* A page the list asked for meanwhile waited for this. */
    on_vadjustment_changed_cb (self);
}

static gboolean
refresh_cb (gpointer user_data)
{
  LoomSearchResults *self = user_data;
  PageRequest       *request;

  self->refresh_id = 0;

  /* A new query reads everything anyway; a page being read is followed by this. */
  if (self->query == NULL || self->worker == NULL || self->searching || self->error != NULL)
    return G_SOURCE_REMOVE;
  if (self->loading_more)
    {
      self->refresh_again = TRUE;
      return G_SOURCE_REMOVE;
    }

  self->refreshing = TRUE;
  self->refresh_again = FALSE;
  self->last_refresh = g_get_monotonic_time ();

  /* As many hits as are shown, so that none of them goes. */
  request = g_new0 (PageRequest, 1);
  request->self = self;
  request->cancellable = g_object_ref (self->cancellable);
  request->refresh = TRUE;
  loom_search_worker_search_async (self->worker, self->query, NULL, 0,
                                   MAX (self->next_offset, PAGE_SIZE), self->cancellable, page_cb,
                                   request);
  return G_SOURCE_REMOVE;
}

/* The next page, once the list has scrolled to within a screen of its end. */
static void
on_vadjustment_changed_cb (LoomSearchResults *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->scrolled_window);
  double         value = gtk_adjustment_get_value (adjustment);
  double         page = gtk_adjustment_get_page_size (adjustment);
  double         upper = gtk_adjustment_get_upper (adjustment);

  if (self->complete || self->loading_more || self->searching || self->refreshing ||
      self->query == NULL || self->worker == NULL || upper - (value + page) > page)
    return;

  self->loading_more = TRUE;
  loom_search_results_load_page (self);
}

static void
cancel_searches (LoomSearchResults *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  self->loading_more = FALSE;
  self->refreshing = FALSE;
  self->refresh_again = FALSE;
  set_searching (self, FALSE);
}

/* ——— Choosing a result ——— */

static void
emit_activated (LoomSearchResults *self,
                GObject           *item)
{
  LoomSearchHit *hit;

  g_assert (LOOM_IS_SEARCH_RESULTS (self));

  /* A session's header opens it at its first hit in the timeline. */
  if (LOOM_IS_SESSION (item))
    {
      const char *uuid = loom_session_get_uuid (LOOM_SESSION (item));

      hit = loom_search_result_model_get_first_hit (self->model, uuid);
      g_signal_emit (self, signals[HIT_ACTIVATED], 0, uuid,
                     hit != NULL ? loom_search_hit_get_data (hit)->seq : (gint64)0);
      return;
    }

  hit = LOOM_SEARCH_HIT (item);
  g_signal_emit (self, signals[HIT_ACTIVATED], 0, loom_search_hit_get_data (hit)->session_uuid,
                 loom_search_hit_get_data (hit)->seq);
}

static void
on_selection_changed_cb (LoomSearchResults  *self,
                         guint               position,
                         guint               n_items,
                         GtkSingleSelection *selection)
{
  GObject *item;

  g_assert (LOOM_IS_SEARCH_RESULTS (self));

  if (self->selecting || !(item = gtk_single_selection_get_selected_item (selection)))
    return;
  emit_activated (self, item);
}

/* Enter or a double click. */
static void
on_activate_cb (LoomSearchResults *self,
                guint              position,
                GtkListView       *list_view)
{
  g_autoptr (GObject) item = NULL;

  g_assert (LOOM_IS_SEARCH_RESULTS (self));

  item = g_list_model_get_item (G_LIST_MODEL (self->model), position);
  if (item != NULL)
    emit_activated (self, item);
}

/* A click on the result already chosen goes to it again: the reader may have scrolled the
 * timeline away from it since, and the selection does not change. */
static void
on_row_pressed_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   GtkListItem     *list_item)
{
  GtkWidget *row = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *self = gtk_widget_get_ancestor (row, LOOM_TYPE_SEARCH_RESULTS);
  GObject   *item = gtk_list_item_get_item (list_item);

  if (n_press == 1 && item != NULL && self != NULL && gtk_list_item_get_selected (list_item))
    emit_activated (LOOM_SEARCH_RESULTS (self), item);
}

static void
on_setup_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             LoomSearchResults        *self)
{
  GtkWidget  *row = loom_search_result_row_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_row_pressed_cb), list_item);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (click));
  gtk_list_item_set_child (list_item, row);
}

static void
on_bind_cb (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            LoomSearchResults        *self)
{
  loom_search_result_row_set_item (LOOM_SEARCH_RESULT_ROW (gtk_list_item_get_child (list_item)),
                                   gtk_list_item_get_item (list_item));
}

static void
on_unbind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              LoomSearchResults        *self)
{
  loom_search_result_row_set_item (LOOM_SEARCH_RESULT_ROW (gtk_list_item_get_child (list_item)),
                                   NULL);
}

/* ——— GObject ——— */

static void
loom_search_results_dispose (GObject *object)
{
  LoomSearchResults *self = LOOM_SEARCH_RESULTS (object);

  if (self->cancellable != NULL)
    cancel_searches (self);
  g_clear_handle_id (&self->searching_delay_id, g_source_remove);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_SEARCH_RESULTS);
  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_object (&self->worker);

  G_OBJECT_CLASS (loom_search_results_parent_class)->dispose (object);
}

static void
loom_search_results_finalize (GObject *object)
{
  LoomSearchResults *self = LOOM_SEARCH_RESULTS (object);

  g_free (self->query);
  g_free (self->summary);
  g_free (self->error);

  G_OBJECT_CLASS (loom_search_results_parent_class)->finalize (object);
}

static void
loom_search_results_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  LoomSearchResults *self = LOOM_SEARCH_RESULTS (object);

  switch (prop_id)
    {
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;

    case PROP_QUERY:
      g_value_set_string (value, self->query);
      break;

    case PROP_SEARCHING:
      g_value_set_boolean (value, self->searching);
      break;

    case PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_search_results_class_init (LoomSearchResultsClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GParamFlags     flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = loom_search_results_dispose;
  object_class->finalize = loom_search_results_finalize;
  object_class->get_property = loom_search_results_get_property;

  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, flags);
  properties[PROP_QUERY] = g_param_spec_string ("query", NULL, NULL, NULL, flags);
  properties[PROP_SEARCHING] = g_param_spec_boolean ("searching", NULL, NULL, FALSE, flags);
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LoomSearchResults::hit-activated:
   * @session_uuid: the session of the hit
   * @seq: the hit's place in the session's timeline; 0 for its title
   *
   * A result was chosen: a hit, or a session's header (its first hit then).
   */
  signals[HIT_ACTIVATED] = g_signal_new ("hit-activated", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                         G_TYPE_STRING, G_TYPE_INT64);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-search-results.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResults, empty_page);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResults, error_page);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResults, list_view);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResults, scrolled_window);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResults, spinner);
  gtk_widget_class_bind_template_child (widget_class, LoomSearchResults, stack);
  gtk_widget_class_bind_template_callback (widget_class, on_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_bind_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_setup_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_unbind_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loomsearchresults");
}

static void
loom_search_results_init (LoomSearchResults *self)
{
  GtkAdjustment *vadjustment;

  gtk_widget_init_template (GTK_WIDGET (self));
  loom_style_add (GTK_WIDGET (self), "/org/intentloom/History/ui/loom-search.css");
  loom_style_add (GTK_WIDGET (self), "/org/intentloom/History/ui/loom-agent-badge.css");

  self->complete = TRUE;
  self->model = loom_search_result_model_new ();
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (on_selection_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  vadjustment = gtk_scrolled_window_get_vadjustment (self->scrolled_window);
  g_signal_connect_object (vadjustment, "value-changed", G_CALLBACK (on_vadjustment_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (vadjustment, "changed", G_CALLBACK (on_vadjustment_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

/* ——— Public ——— */

GtkWidget *
loom_search_results_new (void)
{
  return g_object_new (LOOM_TYPE_SEARCH_RESULTS, NULL);
}

void
loom_search_results_set_store (LoomSearchResults *self,
                               LoomStore         *store)
{
  g_autofree char *query = NULL;

  g_return_if_fail (LOOM_IS_SEARCH_RESULTS (self));
  g_return_if_fail (store == NULL || LOOM_IS_STORE (store));

  if (store != NULL && self->worker != NULL &&
      g_strcmp0 (loom_store_get_path (store), loom_search_worker_get_store_path (self->worker)) ==
        0)
    return;

  /* The query runs again on the new store. */
  query = g_strdup (self->query);
  loom_search_results_set_query (self, "");
  g_clear_object (&self->worker);
  if (store != NULL)
    self->worker = loom_search_worker_new (loom_store_get_path (store));
  loom_search_results_set_query (self, query != NULL ? query : "");
}

void
loom_search_results_set_query (LoomSearchResults *self,
                               const char        *query)
{
  g_autofree char *stripped = NULL;

  g_return_if_fail (LOOM_IS_SEARCH_RESULTS (self));
  g_return_if_fail (query != NULL);

  stripped = g_strstrip (g_strdup (query));
  if (*stripped == '\0')
    g_clear_pointer (&stripped, g_free);

  if (g_strcmp0 (stripped, self->query) == 0)
    return;

  if (self->cancellable != NULL)
    cancel_searches (self);
  g_free (self->query);
  self->query = g_steal_pointer (&stripped);
  self->next_offset = 0;
  self->complete = TRUE;
  set_string (self, &self->error, NULL, PROP_ERROR);

  if (self->query == NULL || self->worker == NULL)
    {
      self->selecting = TRUE;
      loom_search_result_model_clear (self->model);
      self->selecting = FALSE;
      show_results (self);
    }
  else
    {
      self->cancellable = g_cancellable_new ();
      self->complete = FALSE;
      set_searching (self, TRUE);
      self->searching_delay_id = g_timeout_add (SEARCHING_DELAY_MSEC, searching_delay_cb, self);
      loom_search_results_load_page (self);
    }

  update_summary (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUERY]);
}

const char *
loom_search_results_get_query (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), NULL);

  return self->query;
}

gboolean
loom_search_results_get_searching (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), FALSE);

  return self->searching;
}

const char *
loom_search_results_get_summary (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), NULL);

  return self->summary;
}

const char *
loom_search_results_get_error (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), NULL);

  return self->error;
}

LoomSearchResultModel *
loom_search_results_get_model (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), NULL);

  return self->model;
}

void
loom_search_results_refresh (LoomSearchResults *self)
{
  gint64 now, due;

  g_return_if_fail (LOOM_IS_SEARCH_RESULTS (self));

  if (self->query == NULL || self->worker == NULL)
    return;
  if (self->refreshing)
    {
      self->refresh_again = TRUE;
      return;
    }
  if (self->refresh_id != 0)
    return;

  now = g_get_monotonic_time ();
  due = MAX (now + REFRESH_DELAY_MSEC * 1000, self->last_refresh + REFRESH_INTERVAL_MSEC * 1000);
  self->refresh_id = g_timeout_add ((guint)((due - now) / 1000), refresh_cb, self);
}

guint
loom_search_results_get_n_refreshes (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), 0);

  return self->n_refreshes;
}

gboolean
loom_search_results_activate_first (LoomSearchResults *self)
{
  g_autoptr (GObject) item = NULL;

  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), FALSE);

  /* The first hit, under its session's header. */
  if (self->error != NULL || !(item = g_list_model_get_item (G_LIST_MODEL (self->model), 1)))
    return FALSE;

  self->selecting = TRUE;
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), 1, TRUE);
  self->selecting = FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);
  emit_activated (self, item);
  return TRUE;
}

gboolean
loom_search_results_focus_first (LoomSearchResults *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_RESULTS (self), FALSE);

  if (self->error != NULL || g_list_model_get_n_items (G_LIST_MODEL (self->model)) == 0)
    return FALSE;

  gtk_widget_activate_action (GTK_WIDGET (self->list_view), "list.scroll-to-item", "u", 0);
  return gtk_widget_child_focus (GTK_WIDGET (self->list_view), GTK_DIR_TAB_FORWARD);
}
