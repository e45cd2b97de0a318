/* loom-toast-queue.c — toasts shown one at a time, each once the one before has faded out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-toast-queue.h"

/* An urgent toast waits this long after the one on show appeared before that one makes way:
 * past its slide-in (300 ms), so that nothing of it is still moving when it fades. */
#define MAKE_WAY_AFTER_USEC (350 * G_TIME_SPAN_MILLISECOND)
/* The overlay lets go of a dismissed toast once it has faded out (300 ms). Should something
 * keep it alive, the next toast is shown this long after the dismissal all the same. */
#define GONE_AT_THE_LATEST_MSEC 1000

struct _LoomToastQueue
{
  GObject          parent_instance;

  AdwToastOverlay *overlay;           /* weak */
  GQueue           waiting;           /* owned AdwToast *, the urgent ones first */
  guint            n_urgent_waiting;

  /* The toast the overlay has: on show, then fading once dismissed. The overlay owns it. */
  AdwToast        *current;
  gint64           current_shown_at;
  gulong           current_dismissed_id;
  guint            current_urgent : 1;
  guint            current_dismissed : 1;

  guint            show_next_id;      /* idle: the next toast goes to the overlay */
  guint            make_way_id;       /* timeout: the toast on show makes way for an urgent one */
  guint            gone_id;           /* timeout: GONE_AT_THE_LATEST_MSEC after a dismissal */
};

G_DEFINE_FINAL_TYPE (LoomToastQueue, loom_toast_queue, G_TYPE_OBJECT)

static void schedule_show_next (LoomToastQueue *self);

static void
on_current_finalized (gpointer  data,
                      GObject  *where_the_toast_was)
{
  LoomToastQueue *self = data;

  self->current = NULL;
  self->current_dismissed_id = 0;
  g_clear_handle_id (&self->gone_id, g_source_remove);
  g_clear_handle_id (&self->make_way_id, g_source_remove);
  schedule_show_next (self);
}

/* The current toast is gone from the overlay: stop watching it. */
static void
forget_current (LoomToastQueue *self)
{
  if (self->current == NULL)
    return;
  if (self->current_dismissed_id != 0)
    g_signal_handler_disconnect (self->current, self->current_dismissed_id);
  self->current_dismissed_id = 0;
  g_object_weak_unref (G_OBJECT (self->current), on_current_finalized, self);
  self->current = NULL;
}

static gboolean
gone_at_the_latest_cb (gpointer data)
{
  LoomToastQueue *self = data;

  self->gone_id = 0;
  forget_current (self);
  schedule_show_next (self);
  return G_SOURCE_REMOVE;
}

static void
on_current_dismissed_cb (AdwToast       *toast,
                         LoomToastQueue *self)
{
  g_signal_handler_disconnect (toast, self->current_dismissed_id);
  self->current_dismissed_id = 0;
  self->current_dismissed = TRUE;
  g_clear_handle_id (&self->make_way_id, g_source_remove);
  self->gone_id = g_timeout_add (GONE_AT_THE_LATEST_MSEC, gone_at_the_latest_cb, self);
}

static gboolean
show_next_cb (gpointer data)
{
  LoomToastQueue *self = data;
  AdwToast *toast;

  self->show_next_id = 0;
  if (self->current != NULL || self->overlay == NULL ||
      (toast = g_queue_pop_head (&self->waiting)) == NULL)
    return G_SOURCE_REMOVE;

  self->current = toast;
  self->current_shown_at = g_get_monotonic_time ();
  self->current_urgent = self->n_urgent_waiting > 0;
  if (self->current_urgent)
    self->n_urgent_waiting--;
  self->current_dismissed = FALSE;
  self->current_dismissed_id = g_signal_connect (toast, "dismissed",
                                                 G_CALLBACK (on_current_dismissed_cb), self);
  g_object_weak_ref (G_OBJECT (toast), on_current_finalized, self);
  adw_toast_overlay_add_toast (self->overlay, toast);
  return G_SOURCE_REMOVE;
}

/* In an idle: a toast finalized or dismissed is still in the middle of the overlay's work. */
static void
schedule_show_next (LoomToastQueue *self)
{
  if (self->show_next_id == 0 && self->current == NULL && !g_queue_is_empty (&self->waiting))
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

  if (self->current == NULL || self->current_urgent || self->current_dismissed ||
      self->make_way_id != 0)
    return;
  wait = self->current_shown_at + MAKE_WAY_AFTER_USEC - g_get_monotonic_time ();
  self->make_way_id = g_timeout_add ((guint)(MAX (wait, 0) / G_TIME_SPAN_MILLISECOND),
                                     make_way_cb, self);
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

  return toast == self->current ? self->current_shown_at : 0;
}

static void
loom_toast_queue_dispose (GObject *object)
{
  LoomToastQueue *self = LOOM_TOAST_QUEUE (object);

  g_clear_handle_id (&self->show_next_id, g_source_remove);
  g_clear_handle_id (&self->make_way_id, g_source_remove);
  g_clear_handle_id (&self->gone_id, g_source_remove);
  forget_current (self);
  g_queue_clear_full (&self->waiting, g_object_unref);
  self->n_urgent_waiting = 0;
  if (self->overlay != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->overlay), (gpointer *)&self->overlay);
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
  return self;
}
