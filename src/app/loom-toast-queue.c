/* loom-toast-queue.c — toasts shown one at a time, each once the one before has faded out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-toast-queue.h"

/* An urgent toast waits this long after the one on show appeared before that one makes way:
 * past its slide-in (300 ms), so that nothing of it is still moving when it fades. */
#define MAKE_WAY_AFTER_USEC (350 * G_TIME_SPAN_MILLISECOND)
/* A dismissed toast fades out in 300 ms of the overlay's frames, and is looked for at each. An
 * overlay that draws no frames (one that was hidden meanwhile) is looked at this often. */
#define LOOK_AGAIN_MSEC     500
/* libadwaita 1.2 slides a toast in for this long (SHOW_DURATION in adw-toast-overlay.c): no toast
 * fades out while this queue hands the overlay a new one, so it never takes REPLACE_DURATION. */
#define SLIDE_IN_USEC       (300 * G_TIME_SPAN_MILLISECOND)

struct _LoomToastQueue
{
  GObject parent_instance;

  AdwToastOverlay *overlay; /* weak */
  GQueue           waiting; /* owned AdwToast *, the urgent ones first */
  guint            n_urgent_waiting;

  /* The overlay has a toast: on show, then fading once dismissed. */
  gboolean  busy;
  AdwToast *current; /* weak; the overlay owns it */
  gint64    current_shown_at;
  gulong    current_dismissed_id;
  gint64    current_slid_in_at; /* the overlay's frame time when its slide-in ends */
  guint     current_urgent : 1;
  guint     current_dismissed : 1;
  guint     current_sliding_in : 1;
  guint     current_dismiss_held : 1;
  gulong    overlay_unmap_id;

  guint show_next_id;  /* idle: the next toast goes to the overlay */
  guint make_way_id;   /* timeout: the toast on show makes way for an urgent one */
  guint fade_tick_id;  /* the overlay's frames, until its toast is gone */
  guint look_again_id; /* timeout: LOOK_AGAIN_MSEC, until its toast is gone */
  guint look_soon_id;  /* idle: without animations, it is gone at once */
  guint slide_tick_id; /* the overlay's frames, until its toast has slid in */
  guint release_id;    /* idle: a dismissal held back reaches the overlay */
};

G_DEFINE_FINAL_TYPE (LoomToastQueue, loom_toast_queue, G_TYPE_OBJECT)

static void schedule_show_next (LoomToastQueue *self);

/* The overlay's children are its content and a widget per toast it shows or fades out. */
static gboolean
overlay_shows_a_toast (AdwToastOverlay *overlay)
{
  GtkWidget *content = adw_toast_overlay_get_child (overlay);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (overlay)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != content)
      return TRUE;
  return FALSE;
}

static void
stop_waiting (LoomToastQueue *self)
{
  if (self->fade_tick_id != 0 && self->overlay != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->overlay), self->fade_tick_id);
  self->fade_tick_id = 0;
  g_clear_handle_id (&self->look_again_id, g_source_remove);
  g_clear_handle_id (&self->look_soon_id, g_source_remove);
}

static void
stop_sliding_in (LoomToastQueue *self)
{
  if (self->slide_tick_id != 0 && self->overlay != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->overlay), self->slide_tick_id);
  self->slide_tick_id = 0;
  self->current_sliding_in = FALSE;
}

/* The current toast has faded out: the next one may come. */
static void
current_gone (LoomToastQueue *self)
{
  stop_waiting (self);
  stop_sliding_in (self);
  g_clear_handle_id (&self->make_way_id, g_source_remove);
  g_clear_handle_id (&self->release_id, g_source_remove);
  self->current_dismiss_held = FALSE;
  if (self->current != NULL)
    {
      if (self->current_dismissed_id != 0)
        g_signal_handler_disconnect (self->current, self->current_dismissed_id);
      g_object_remove_weak_pointer (G_OBJECT (self->current), (gpointer *)&self->current);
    }
  self->current_dismissed_id = 0;
  self->current = NULL;
  self->busy = FALSE;
  schedule_show_next (self);
}

static void
look_for_toast (LoomToastQueue *self)
{
  if (self->overlay != NULL && overlay_shows_a_toast (self->overlay))
    return;
  current_gone (self);
}

/* The overlay takes a toast's widget away in the frame that ends its fade. */
static gboolean
fade_tick_cb (GtkWidget     *overlay,
              GdkFrameClock *frame_clock,
              gpointer       data)
{
  look_for_toast (data);
  return G_SOURCE_CONTINUE;
}

static gboolean
look_again_cb (gpointer data)
{
  look_for_toast (data);
  return G_SOURCE_CONTINUE;
}

static gboolean
look_soon_cb (gpointer data)
{
  LoomToastQueue *self = data;

  self->look_soon_id = 0;
  look_for_toast (self);
  return G_SOURCE_REMOVE;
}

/* Until the overlay has no toast left, no toast is handed to it. */
static void
wait_until_no_toast (LoomToastQueue *self)
{
  if (self->fade_tick_id == 0)
    self->fade_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->overlay), fade_tick_cb,
                                                       self, NULL);
  if (self->look_again_id == 0)
    self->look_again_id = g_timeout_add (LOOK_AGAIN_MSEC, look_again_cb, self);
  if (self->look_soon_id == 0)
    self->look_soon_id = g_idle_add (look_soon_cb, self);
}

/* The dismissal held back while the toast slid in now reaches the overlay, which fades the toast
 * out. The toast forgot its overlay when first dismissed, so adw_toast_dismiss () would do
 * nothing: the signal is emitted again as it was then. */
static gboolean
release_cb (gpointer data)
{
  LoomToastQueue *self = data;
  g_autoptr (AdwToast) toast = NULL;

  self->release_id = 0;
  self->current_dismiss_held = FALSE;
  if (self->current == NULL)
    {
      /* The overlay went, and its toast with it. */
      current_gone (self);
      return G_SOURCE_REMOVE;
    }
  toast = g_object_ref (self->current);
  g_signal_emit_by_name (toast, "dismissed");
  return G_SOURCE_REMOVE;
}

/* The toast's slide-in animation has finished: it may be dismissed. In an idle, after the frame
 * that ended the slide-in, so that the fade starts after it whatever order the overlay's frame
 * callbacks run in. */
static void
slid_in (LoomToastQueue *self)
{
  stop_sliding_in (self);
  if (self->current_dismiss_held && self->release_id == 0)
    self->release_id = g_idle_add (release_cb, self);
}

static gboolean
slide_tick_cb (GtkWidget     *overlay,
               GdkFrameClock *frame_clock,
               gpointer       data)
{
  LoomToastQueue *self = data;

  if (gdk_frame_clock_get_frame_time (frame_clock) < self->current_slid_in_at)
    return G_SOURCE_CONTINUE;
  /* The slide-in ends in this very frame: its animation reads the same frame time. */
  self->slide_tick_id = 0;
  slid_in (self);
  return G_SOURCE_REMOVE;
}

/* An overlay taken off screen ends its animations at once, and draws no more frames. */
static void
on_overlay_unmap_cb (GtkWidget      *overlay,
                     LoomToastQueue *self)
{
  if (self->current_sliding_in)
    slid_in (self);
}

/* The toast the overlay shows, which this queue hands it alone. */
static void
current_stops_answering (LoomToastQueue *self)
{
  GtkWidget *content = adw_toast_overlay_get_child (self->overlay);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->overlay)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != content)
      {
        gtk_widget_set_can_target (child, FALSE);
        gtk_widget_set_can_focus (child, FALSE);
      }
}

static void
on_current_dismissed_cb (AdwToast       *toast,
                         LoomToastQueue *self)
{
  /* libadwaita 1.2 frees a toast's state when its fade-out ends, but leaves the end of its
   * slide-in connected to that state. Both last 300 ms, so a toast dismissed as it appears —
   * Undo pressed at once, Escape, its close button — ends both in the same frame, and when the
   * fade's end runs first, the slide-in's end unrefs an animation through the freed state: the
   * application dies in adw_animation_skip (). libadwaita 1.3 fixed it (commit 1674ebc9,
   * "Prevent show_done from firing after hide_done"). Here the overlay does not hear of a
   * dismissal until the slide-in has ended: the emission stops before the overlay's handler
   * (connected after this one) and is made again once the toast has slid in (release_cb). The
   * toast stops answering meanwhile, as a fading one does, so that Undo is not pressed twice. */
  if (self->current_sliding_in && self->overlay != NULL)
    {
      g_signal_stop_emission_by_name (toast, "dismissed");
      self->current_dismissed = TRUE;
      self->current_dismiss_held = TRUE;
      g_clear_handle_id (&self->make_way_id, g_source_remove);
      current_stops_answering (self);
      return;
    }

  g_signal_handler_disconnect (toast, self->current_dismissed_id);
  self->current_dismissed_id = 0;
  self->current_dismissed = TRUE;
  g_clear_handle_id (&self->make_way_id, g_source_remove);
  /* The overlay hears of it after this handler: its toast is still there. */
  wait_until_no_toast (self);
}

static gboolean
show_next_cb (gpointer data)
{
  LoomToastQueue *self = data;
  AdwToast       *toast;

  self->show_next_id = 0;
  if (self->busy || self->overlay == NULL)
    return G_SOURCE_REMOVE;

  /* Whatever toast the overlay has must be gone first. */
  if (overlay_shows_a_toast (self->overlay))
    {
      self->busy = TRUE;
      wait_until_no_toast (self);
      return G_SOURCE_REMOVE;
    }
  if ((toast = g_queue_pop_head (&self->waiting)) == NULL)
    return G_SOURCE_REMOVE;

  self->busy = TRUE;
  self->current = toast;
  g_object_add_weak_pointer (G_OBJECT (toast), (gpointer *)&self->current);
  self->current_shown_at = g_get_monotonic_time ();
  self->current_urgent = self->n_urgent_waiting > 0;
  if (self->current_urgent)
    self->n_urgent_waiting--;
  self->current_dismissed = FALSE;
  self->current_dismissed_id = g_signal_connect (toast, "dismissed",
                                                 G_CALLBACK (on_current_dismissed_cb), self);
  adw_toast_overlay_add_toast (self->overlay, toast);

  /* The overlay slides the toast in from the frame time read here, unless it skips animations;
   * the time is read after it, so it is never the earlier of the two. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self->overlay)) &&
      adw_get_enable_animations (GTK_WIDGET (self->overlay)))
    {
      GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->overlay));

      self->current_slid_in_at = gdk_frame_clock_get_frame_time (clock) + SLIDE_IN_USEC;
      self->current_sliding_in = TRUE;
      self->slide_tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->overlay), slide_tick_cb,
                                                          self, NULL);
    }
  return G_SOURCE_REMOVE;
}

/* In an idle: a toast dismissed is still in the middle of the overlay's work. */
static void
schedule_show_next (LoomToastQueue *self)
{
  if (self->show_next_id == 0 && !self->busy && !g_queue_is_empty (&self->waiting))
    self->show_next_id = g_idle_add (show_next_cb, self);
}

static gboolean
make_way_cb (gpointer data)
{
  LoomToastQueue *self = data;

  self->make_way_id = 0;
  if (self->current != NULL && !self->current_dismissed)
    adw_toast_dismiss (self->current);
  return G_SOURCE_REMOVE;
}

/* The toast on show makes way for an urgent one, once it has slid in. */
static void
make_way (LoomToastQueue *self)
{
  gint64 wait;

  if (!self->busy || self->current == NULL || self->current_urgent || self->current_dismissed ||
      self->make_way_id != 0)
    return;
  wait = self->current_shown_at + MAKE_WAY_AFTER_USEC - g_get_monotonic_time ();
  self->make_way_id = g_timeout_add ((guint)(MAX (wait, 0) / G_TIME_SPAN_MILLISECOND), make_way_cb,
                                     self);
}

void
loom_toast_queue_add (LoomToastQueue *self,
                      AdwToast       *toast,
                      gboolean        urgent)
{
  g_return_if_fail (LOOM_IS_TOAST_QUEUE (self));
  g_return_if_fail (ADW_IS_TOAST (toast));

  if (urgent)
    {
      /* After the urgent ones already waiting: the latest of them is the newest news. */
      g_queue_push_nth (&self->waiting, toast, (int)self->n_urgent_waiting);
      self->n_urgent_waiting++;
      make_way (self);
    }
  else
    g_queue_push_tail (&self->waiting, toast);
  schedule_show_next (self);
}

gint64
loom_toast_queue_get_shown_at (LoomToastQueue *self,
                               AdwToast       *toast)
{
  g_return_val_if_fail (LOOM_IS_TOAST_QUEUE (self), 0);
  g_return_val_if_fail (ADW_IS_TOAST (toast), 0);

  return self->busy && toast == self->current ? self->current_shown_at : 0;
}

static void
loom_toast_queue_dispose (GObject *object)
{
  LoomToastQueue *self = LOOM_TOAST_QUEUE (object);

  g_queue_clear_full (&self->waiting, g_object_unref);
  self->n_urgent_waiting = 0;
  current_gone (self);
  g_clear_handle_id (&self->show_next_id, g_source_remove);
  if (self->overlay != NULL)
    {
      g_clear_signal_handler (&self->overlay_unmap_id, self->overlay);
      g_object_remove_weak_pointer (G_OBJECT (self->overlay), (gpointer *)&self->overlay);
    }
  self->overlay = NULL;

  G_OBJECT_CLASS (loom_toast_queue_parent_class)->dispose (object);
}

static void
loom_toast_queue_class_init (LoomToastQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = loom_toast_queue_dispose;
}

static void
loom_toast_queue_init (LoomToastQueue *self)
{
  g_queue_init (&self->waiting);
}

LoomToastQueue *
loom_toast_queue_new (AdwToastOverlay *overlay)
{
  LoomToastQueue *self;

  g_return_val_if_fail (ADW_IS_TOAST_OVERLAY (overlay), NULL);

  self = g_object_new (LOOM_TYPE_TOAST_QUEUE, NULL);
  self->overlay = overlay;
  g_object_add_weak_pointer (G_OBJECT (overlay), (gpointer *)&self->overlay);
  self->overlay_unmap_id = g_signal_connect (overlay, "unmap", G_CALLBACK (on_overlay_unmap_cb),
                                             self);
  return self;
}
