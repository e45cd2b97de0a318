/* loom-window.h — the main window: the collections, the session list and, later, the timeline.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-application.h"

G_BEGIN_DECLS

#define LOOM_TYPE_WINDOW (loom_window_get_type ())

G_DECLARE_FINAL_TYPE (LoomWindow, loom_window, LOOM, WINDOW, AdwApplicationWindow)

LoomWindow *loom_window_new       (LoomApplication *application);
/* NULL when the application could not open the store. */
LoomStore  *loom_window_get_store (LoomWindow      *self);
/* Reads the counts and the shown collection again from the store. */
void        loom_window_reload    (LoomWindow      *self);

G_END_DECLS
