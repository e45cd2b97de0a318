/* loom-ui-test.c — helpers shared by the UI tests: waiting on the main loop, finding what is on
 * screen, and saving screenshots.
 *
 * Each UI test drives the real application on a real X server; these are the few things every
 * one of them needs, kept in one place so that they stay the same everywhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "loom-ui-test.h"

/* Only a guard against a hang (loom-test-timeout.h): llvmpipe, a busy CI machine and the
 * sanitizers are slow, and a test checks what happened, never how soon. A test that waits on
 * slower work (an import, a large store) may set a longer one. */
static gint64 wait_timeout_usec = 0;
static guint  wake_up_interval_msec = 20;

/* Sets how long loom_ui_test_wait_until() waits before giving up. */
void
loom_ui_test_set_wait_timeout (gint64 timeout_usec)
{
  wait_timeout_usec = loom_test_guard_usec (MAX (timeout_usec, LOOM_TEST_GUARD_USEC));
}

/* Sets how often loom_ui_test_wait_until() wakes up to check its condition while nothing else
 * happens. */
void
loom_ui_test_set_wake_up_interval (guint interval_msec)
{
  wake_up_interval_msec = interval_msec;
}

static gboolean
wake_up_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* Iterates the main context until @condition holds or the time is up; the periodic wake-up
 * keeps a blocking iteration from sleeping past the deadline. */
gboolean
loom_ui_test_wait_until (LoomUiTestCondition condition,
                         gpointer            data)
{
  gint64   deadline;
  guint    wake_up = g_timeout_add (wake_up_interval_msec, wake_up_cb, NULL);
  gboolean met;

  if (wait_timeout_usec == 0)
    wait_timeout_usec = loom_test_guard_usec (LOOM_TEST_GUARD_USEC);
  deadline = g_get_monotonic_time () + wait_timeout_usec;
  while (!(met = condition (data)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (wake_up);
  return met;
}

/* Conditions for loom_ui_test_wait_until() that most tests wait on. */
gboolean
loom_ui_test_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

gboolean
loom_ui_test_is_hidden (gpointer data)
{
  return !gtk_widget_get_visible (GTK_WIDGET (data));
}

/* @data points at a pointer that something (a weak pointer, a callback) clears. */
gboolean
loom_ui_test_is_null (gpointer data)
{
  return *(gpointer *)data == NULL;
}

static gboolean
has_no_pending_writes (gpointer data)
{
  return !loom_window_has_pending_writes (LOOM_WINDOW (data));
}

void
loom_ui_test_wait_for_writes (LoomWindow *window)
{
  g_assert_true (loom_ui_test_wait_until (has_no_pending_writes, window));
}

/* Counts frames: connect it to a frame clock's "after-paint" with a guint to count in. */
void
loom_ui_test_on_after_paint (GdkFrameClock *frame_clock,
                             guint         *n_frames)
{
  (*n_frames)++;
}

typedef struct
{
  GtkWidget *widget;
  guint      n_frames;
  guint      wanted;
} FrameWait;

static gboolean
has_painted (gpointer data)
{
  FrameWait *wait = data;

  if (wait->n_frames < wait->wanted)
    gtk_widget_queue_draw (wait->widget);
  return wait->n_frames >= wait->wanted;
}

/* Waits until @widget is mapped and has painted a few more frames, so that what it shows has
 * caught up with the last change (a reload, a new style). */
void
loom_ui_test_wait_for_frames (GtkWidget *widget,
                              guint      n_frames)
{
  FrameWait      wait = { widget, 0, n_frames };
  GdkFrameClock *frame_clock;
  gulong         handler;

  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_mapped, widget));

  frame_clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (frame_clock);
  handler = g_signal_connect (frame_clock, "after-paint", G_CALLBACK (loom_ui_test_on_after_paint),
                              &wait.n_frames);
  g_assert_true (loom_ui_test_wait_until (has_painted, &wait));
  g_signal_handler_disconnect (frame_clock, handler);
}

/* The widgets of @type under @root that a user can see: mapped and not hidden by their parent
 * (GtkListView keeps spare rows that are not child-visible). Adds them to @found in tree order. */
void
loom_ui_test_collect_visible (GtkWidget *root,
                              GType      type,
                              GPtrArray *found)
{
  if (!gtk_widget_get_mapped (root) || !gtk_widget_get_child_visible (root))
    return;

  if (g_type_is_a (G_OBJECT_TYPE (root), type))
    g_ptr_array_add (found, root);

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    loom_ui_test_collect_visible (child, type, found);
}

/* The same, in a new array (free it; the widgets are not referenced). */
GPtrArray *
loom_ui_test_find_visible (GtkWidget *root,
                           GType      type)
{
  GPtrArray *found = g_ptr_array_new ();

  loom_ui_test_collect_visible (root, type, found);
  return found;
}

/* How many visible widgets of @type there are under @root. */
guint
loom_ui_test_count_visible (GtkWidget *root,
                            GType      type)
{
  g_autoptr (GPtrArray) found = loom_ui_test_find_visible (root, type);

  return found->len;
}

/* The visible status page under @root with @title, or NULL: empty states are told apart by
 * their title. */
GtkWidget *
loom_ui_test_find_visible_status_page (GtkWidget  *root,
                                       const char *title)
{
  g_autoptr (GPtrArray) pages = loom_ui_test_find_visible (root, ADW_TYPE_STATUS_PAGE);

  for (guint i = 0; i < pages->len; i++)
    {
      if (g_strcmp0 (adw_status_page_get_title (pages->pdata[i]), title) == 0)
        return pages->pdata[i];
    }
  return NULL;
}

/* The first visible toplevel window of @type (a dialog, the preferences), or NULL. */
GtkWindow *
loom_ui_test_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* owned by GTK */
  guint       n_items = g_list_model_get_n_items (toplevels);

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (g_type_is_a (G_OBJECT_TYPE (window), type) &&
          gtk_widget_get_visible (GTK_WIDGET (window)))
        return window;
    }
  return NULL;
}

/* Writes @texture as @name.png to the screenshots folder: app/screenshots/ under
 * LOOM_TEST_BUILDDIR when the harness sets it, else screenshots/ beside the program. */
void
loom_ui_test_save_texture (GdkTexture *texture,
                           const char *name)
{
  g_autofree char *dir = NULL;
  g_autofree char *file_name = NULL;
  g_autofree char *path = NULL;

  if (g_getenv ("LOOM_TEST_BUILDDIR") != NULL)
    dir = g_build_filename (g_getenv ("LOOM_TEST_BUILDDIR"), "app", "screenshots", NULL);
  else
    dir = g_test_build_filename (G_TEST_BUILT, "screenshots", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  file_name = g_strconcat (name, ".png", NULL);
  path = g_build_filename (dir, file_name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

/* Renders @widget (a window) as it is on screen, once it has caught up, and saves it as
 * @name.png for a person to look at. */
/* What @widget drew in its last frame. GTK drops a widget's drawing as soon as something
 * queues a redraw (a spinner turning, a list the watcher reloads), and a paintable of it is
 * empty until the next frame; so this waits for frames until there is a drawing to take. */
static GskRenderNode *
take_last_drawing (GtkWidget *widget,
                   int        width,
                   int        height)
{
  for (guint attempt = 0; attempt < 100; attempt++)
    {
      g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
      g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
      GskRenderNode *node;

      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      if (node != NULL)
        return node;
      loom_ui_test_wait_for_frames (widget, 1);
    }
  g_error ("%s drew nothing in 100 frames", G_OBJECT_TYPE_NAME (widget));
}

void
loom_ui_test_save_screenshot (GtkWidget  *widget,
                              const char *name)
{
  GtkNative *native = gtk_widget_get_native (widget);
  g_autoptr (GskRenderNode) drawing = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int width, height;

  g_assert_nonnull (native);
  loom_ui_test_wait_for_frames (GTK_WIDGET (native), 3);

  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  drawing = take_last_drawing (widget, width, height);
  if (GTK_IS_NATIVE (widget))
    node = g_steal_pointer (&drawing);
  else
    {
      /* A pane has no background of its own: the window's colour goes under it. */
      g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
      GdkRGBA background;

      g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget),
                                                     "window_bg_color", &background));
      gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
      gtk_snapshot_append_node (snapshot, drawing);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }

  texture = gsk_renderer_render_texture (gtk_native_get_renderer (native), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  loom_ui_test_save_texture (texture, name);
}

void
loom_ui_test_set_window_size (GtkWidget *window,
                              int        width,
                              int        height)
{
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  loom_ui_test_wait_for_frames (window, 3);
}

gboolean
loom_ui_test_press_key (GtkWidget      *widget,
                        guint           keyval,
                        GdkModifierType modifiers)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);
  guint n_controllers = g_list_model_get_n_items (controllers);

  for (guint c = 0; c < n_controllers; c++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, c);
      guint n_shortcuts;

      /* Key bindings live in shortcut controllers, which list them. */
      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;

      n_shortcuts = g_list_model_get_n_items (G_LIST_MODEL (controller));
      for (guint i = 0; i < n_shortcuts; i++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), i);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers)
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                                 GTK_SHORTCUT_ACTION_EXCLUSIVE, widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }

  return FALSE;
}

void
loom_ui_test_prepare_settings (int width,
                               int height)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  g_settings_set_boolean (settings, "watch-sources", FALSE);
  g_settings_set_int (settings, "window-width", width);
  g_settings_set_int (settings, "window-height", height);
  g_settings_reset (settings, "window-maximized");
  g_settings_reset (settings, "color-scheme");
}

void
loom_ui_test_reset_settings (void)
{
  g_autoptr (GSettings) settings = g_settings_new (APP_ID);

  g_settings_reset (settings, "watch-sources");
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

void
loom_ui_test_set_style (LoomApplication *app,
                        GtkWidget       *widget,
                        const char      *scheme)
{
  g_settings_set_string (loom_application_get_settings (app), "color-scheme", scheme);
  g_assert_cmpint (adw_style_manager_get_dark (adw_style_manager_get_default ()), ==,
                   g_str_equal (scheme, "dark"));
  loom_ui_test_wait_for_frames (widget, 3);
}

void
loom_ui_test_save_screenshots (LoomApplication *app,
                               GtkWidget       *widget,
                               const char      *name)
{
  g_autofree char *light = g_strconcat (name, "-light", NULL);
  g_autofree char *dark = g_strconcat (name, "-dark", NULL);

  loom_ui_test_set_style (app, widget, "light");
  loom_ui_test_save_screenshot (widget, light);
  loom_ui_test_set_style (app, widget, "dark");
  loom_ui_test_save_screenshot (widget, dark);
  loom_ui_test_set_style (app, widget, "light");
}

typedef struct
{
  LoomWindow **window;
  GSourceFunc  body;
  gpointer     data;
  gboolean     ran;
} AppRun;

static gboolean
run_app_body_cb (gpointer user_data)
{
  AppRun    *run = user_data;
  GtkWidget *window = GTK_WIDGET (*run->window);

  run->body (run->data);

  /* Ctrl+W's action: closing the last window ends g_application_run(); the application then
   * stops its watcher and waits for a pass that still runs. */
  g_assert_true (gtk_widget_activate_action (window, "window.close", NULL));
  g_assert_true (loom_ui_test_wait_until (loom_ui_test_is_hidden, window));
  run->ran = TRUE;
  return G_SOURCE_REMOVE;
}

static void
on_app_activate_cb (GApplication *application,
                    AppRun       *run)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  g_assert_true (LOOM_IS_WINDOW (window));
  g_assert_null (*run->window);
  *run->window = g_object_ref (LOOM_WINDOW (window));
  g_idle_add (run_app_body_cb, run);
}

void
loom_ui_test_run_app (LoomApplication *app,
                      LoomWindow     **window,
                      GSourceFunc      body,
                      gpointer         data)
{
  AppRun run = { window, body, data, FALSE };
  gulong activate;

  activate = g_signal_connect_after (app, "activate", G_CALLBACK (on_app_activate_cb), &run);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 0, NULL), ==, 0);
  g_signal_handler_disconnect (app, activate);
  g_assert_true (run.ran);
}

GtkWidget *
loom_ui_test_find_visible_label (GtkWidget  *root,
                                 const char *text)
{
  g_autoptr (GPtrArray) labels = loom_ui_test_find_visible (root, GTK_TYPE_LABEL);

  for (guint i = 0; i < labels->len; i++)
    {
      if (g_strcmp0 (gtk_label_get_label (labels->pdata[i]), text) == 0)
        return labels->pdata[i];
    }
  return NULL;
}

GtkWidget *
loom_ui_test_find_visible_button (GtkWidget  *root,
                                  const char *icon_name)
{
  g_autoptr (GPtrArray) buttons = loom_ui_test_find_visible (root, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_button_get_icon_name (buttons->pdata[i]), icon_name) == 0)
        return buttons->pdata[i];
    }
  return NULL;
}

GtkWidget *
loom_ui_test_find_visible_button_labelled (GtkWidget  *root,
                                           const char *label)
{
  g_autoptr (GPtrArray) buttons = loom_ui_test_find_visible (root, GTK_TYPE_BUTTON);

  for (guint i = 0; i < buttons->len; i++)
    {
      if (g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), label) == 0)
        return buttons->pdata[i];
    }
  return NULL;
}

GtkWidget *
loom_ui_test_find_any (GtkWidget *root,
                       GType      type)
{
  if (g_type_is_a (G_OBJECT_TYPE (root), type))
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = loom_ui_test_find_any (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}
