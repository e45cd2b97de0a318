/* loom-toast-queue.h — toasts shown one at a time, each once the one before has faded out.
 *
 * libadwaita 1.2's own queue shows a toast while the one before still fades. Such a toast slides
 * in for 500 ms, and when it is dismissed in its first 200 ms (Escape, its close button, a
 * newer toast in its place) it is freed before its slide-in ends, which then writes into the
 * freed memory. And a toast of high priority sends the one on show back to the queue: gone
 * before that one has faded, it has the overlay show it again while it still fades, and abort.
 * This queue hands the overlay one toast at a time, and only once the one before is gone. Even
 * alone, a toast dismissed as it appears can end its fade in the frame that ends its slide-in,
 * and crash the same way: the overlay hears of a dismissal only once the toast has slid in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LOOM_TYPE_TOAST_QUEUE (loom_toast_queue_get_type ())

G_DECLARE_FINAL_TYPE (LoomToastQueue, loom_toast_queue, LOOM, TOAST_QUEUE, GObject)

LoomToastQueue *loom_toast_queue_new (AdwToastOverlay *overlay);
/* Shows @toast after those added before it, or, @urgent (an offer to undo what was just done),
 * before them, the one on show making way unless it is urgent too. Takes @toast. A toast that
 * waits has not been shown: change it in place rather than dismiss it. */
void            loom_toast_queue_add (LoomToastQueue *self,
                                      AdwToast       *toast,
                                      gboolean        urgent);
/* When @toast, added and not dismissed, was shown (monotonic time), or 0 while it waits. */
gint64          loom_toast_queue_get_shown_at (LoomToastQueue *self,
                                               AdwToast       *toast);

G_END_DECLS
