/* loom-preferences-window.h — the preferences, each bound to its GSettings key.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LOOM_TYPE_PREFERENCES_WINDOW (loom_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (LoomPreferencesWindow, loom_preferences_window, LOOM, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

LoomPreferencesWindow *loom_preferences_window_new (GSettings *settings);
/* Adds @path to the extra source folders (what choosing a folder in the dialog does). */
void                   loom_preferences_window_add_folder (LoomPreferencesWindow *self,
                                                           const char            *path);

G_END_DECLS
