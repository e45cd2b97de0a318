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

/* Asks the keyring again whether it holds a backup key (in a thread); the window does when it
 * opens. While it asks, _get_backup_key_busy () is TRUE; then _get_backup_key_id () is the
 * key's id, or NULL when there is none or the keyring could not be asked (the row says why). */
void        loom_preferences_window_refresh_backup_key (LoomPreferencesWindow *self);
const char *loom_preferences_window_get_backup_key_id (LoomPreferencesWindow *self);
gboolean    loom_preferences_window_get_backup_key_busy (LoomPreferencesWindow *self);

G_END_DECLS
