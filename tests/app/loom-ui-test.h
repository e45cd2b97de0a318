/* loom-ui-test.h — helpers shared by the UI tests: waiting on the main loop, finding what is on
 * screen, and saving screenshots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-application.h"
#include "loom-window.h"

#include "../common/loom-test-timeout.h"

G_BEGIN_DECLS

typedef gboolean (*LoomUiTestCondition) (gpointer data);

/* A wait's limit guards against a hang and nothing else: at least LOOM_TEST_GUARD_USEC, times
 * the multiplier of loom-test-timeout.h. */
void     loom_ui_test_set_wait_timeout (gint64 timeout_usec);
void     loom_ui_test_set_wake_up_interval (guint interval_msec);
gboolean loom_ui_test_wait_until (LoomUiTestCondition condition,
                                  gpointer            data);

gboolean loom_ui_test_is_mapped (gpointer data);
gboolean loom_ui_test_is_hidden (gpointer data);
gboolean loom_ui_test_is_null (gpointer data);

/* Waits until the store writes @window started (its actions run them in a worker) have landed
 * and the window has shown their outcome. */
void loom_ui_test_wait_for_writes (LoomWindow *window);

void loom_ui_test_on_after_paint (GdkFrameClock *frame_clock,
                                  guint         *n_frames);
void loom_ui_test_wait_for_frames (GtkWidget *widget,
                                   guint      n_frames);

void       loom_ui_test_collect_visible (GtkWidget *root,
                                         GType      type,
                                         GPtrArray *found);
GPtrArray *loom_ui_test_find_visible (GtkWidget *root,
                                      GType      type);
guint      loom_ui_test_count_visible (GtkWidget *root,
                                       GType      type);
GtkWidget *loom_ui_test_find_visible_status_page (GtkWidget  *root,
                                                  const char *title);
/* The first widget on screen under @root that is: a label reading @text; a button showing
 * @icon_name; a button labelled @label (mnemonic included, "_Undo"). NULL if none. */
GtkWidget *loom_ui_test_find_visible_label (GtkWidget  *root,
                                            const char *text);
GtkWidget *loom_ui_test_find_visible_button (GtkWidget  *root,
                                             const char *icon_name);
GtkWidget *loom_ui_test_find_visible_button_labelled (GtkWidget  *root,
                                                      const char *label);
/* The first widget of @type under @root, seen or not (a folded window keeps the other panes
 * off screen). */
GtkWidget *loom_ui_test_find_any (GtkWidget *root,
                                  GType      type);
GtkWindow *loom_ui_test_find_toplevel (GType type);

/* The application's settings for a test window of @width × @height that does not watch the
 * agents' folders (they are empty in the harness's HOME: not watching keeps the store as the
 * test made it), in the light style. The memory settings backend lives as long as the process,
 * so every test starts from here and ends with loom_ui_test_reset_settings(). */
void loom_ui_test_prepare_settings (int width,
                                    int height);
void loom_ui_test_reset_settings (void);

/* Switches @app to the light or dark @scheme ("light", "dark"), checks that libadwaita
 * followed, and waits for @widget to be drawn so. */
void loom_ui_test_set_style (LoomApplication *app,
                             GtkWidget       *widget,
                             const char      *scheme);
/* @name-light.png and @name-dark.png of @widget; the style is light again afterwards. */
void loom_ui_test_save_screenshots (LoomApplication *app,
                                    GtkWidget       *widget,
                                    const char      *name);

/* Resizes @window and waits for it to be drawn at that size. */
void     loom_ui_test_set_window_size (GtkWidget *window,
                                       int        width,
                                       int        height);
/* A key press as @widget's key bindings see it: finds the binding for @keyval with @modifiers
 * among its shortcut controllers and runs its action, as GTK does when the key reaches it (a
 * focused text entry would have had it first). FALSE when nothing is bound to it. */
gboolean loom_ui_test_press_key (GtkWidget      *widget,
                                 guint           keyval,
                                 GdkModifierType modifiers);

/* Runs @app as a person starts it: once its window is up, @window gets a reference to it and
 * @body runs from an idle callback; then the window is closed (Ctrl+W's action), which ends
 * g_application_run(). Fails the test unless @body ran and the run ended well. */
void loom_ui_test_run_app (LoomApplication *app,
                           LoomWindow     **window,
                           GSourceFunc      body,
                           gpointer         data);

void loom_ui_test_save_texture (GdkTexture *texture,
                                const char *name);
void loom_ui_test_save_screenshot (GtkWidget  *widget,
                                   const char *name);

G_END_DECLS
