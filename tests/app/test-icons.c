/* test-icons.c — every icon the app names can be found and loaded.
 *
 * On a fresh Debian 12 install the first-run page drew GTK's "image missing" placeholder where
 * the app's symbol should be: our icons are SVG only, and the SVG loader of GdkPixbuf
 * (librsvg2-common) is merely recommended by GTK, so `apt-get install --no-install-recommends`
 * leaves it out. Adwaita's own icons still showed because Adwaita ships PNG renderings beside
 * its SVGs. This test finds every icon name the UI templates and the app's sources use, looks
 * each up in the icon theme the running application sets up, and decodes the file the theme
 * picked the way GTK does: an icon that is missing, or whose format no loader reads, fails.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "loom-application.h"

/* The size the sidebar and the status pages ask for is between these; the theme picks a file
 * per size, so both ends are looked at. */
static const int icon_sizes[] = { 16, 128 };

static void
add_icon_names_from_ui (const char *resource_path,
                        GHashTable *names)
{
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GError) error = NULL;

  bytes = g_resources_lookup_data (resource_path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);

  regex = g_regex_new ("<property name=\"icon[-_]name\">([^<]+)</property>", 0, 0, &error);
  g_assert_no_error (error);
  g_regex_match_full (regex, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), 0, 0, &match,
                      &error);
  g_assert_no_error (error);
  for (; g_match_info_matches (match); g_match_info_next (match, NULL))
    g_hash_table_add (names, g_match_info_fetch (match, 1));
}

/* The templates, as the app loads them: from its resources. */
static void
add_icon_names_from_templates (GHashTable *names)
{
  static const char ui_dir[] = "/org/intentloom/History/ui/";
  g_auto (GStrv) children = NULL;
  g_autoptr (GError) error = NULL;
  guint n_templates = 0;

  children = g_resources_enumerate_children (ui_dir, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  for (guint i = 0; children[i] != NULL; i++)
    {
      g_autofree char *path = NULL;

      if (!g_str_has_suffix (children[i], ".ui"))
        continue;
      path = g_strconcat (ui_dir, children[i], NULL);
      add_icon_names_from_ui (path, names);
      n_templates++;
    }
  g_assert_cmpuint (n_templates, >, 10);
}

/* Icons the code sets itself (the sidebar's collections, the timeline's tool rows…): every
 * "…-symbolic" string literal of src/app. */
static void
add_icon_names_from_sources (GHashTable *names)
{
  g_autofree char *app_dir = NULL;
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GRegex) regex = NULL;
  g_autoptr (GError) error = NULL;
  const char *name;
  guint       n_sources = 0;

  app_dir = g_build_filename (g_getenv ("LOOM_TEST_SRCDIR"), "..", "src", "app", NULL);
  dir = g_dir_open (app_dir, 0, &error);
  g_assert_no_error (error);
  regex = g_regex_new ("\"([a-z0-9.-]+-symbolic)\"", 0, 0, &error);
  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      g_autoptr (GMatchInfo) match = NULL;

      if (!g_str_has_suffix (name, ".c"))
        continue;
      path = g_build_filename (app_dir, name, NULL);
      g_file_get_contents (path, &text, NULL, &error);
      g_assert_no_error (error);
      g_regex_match (regex, text, 0, &match);
      for (; g_match_info_matches (match); g_match_info_next (match, NULL))
        g_hash_table_add (names, g_match_info_fetch (match, 1));
      n_sources++;
    }
  g_assert_cmpuint (n_sources, >, 10);
}

static GBytes *
load_icon_file (GFile   *file,
                GError **error)
{
  g_autofree char *uri = g_file_get_uri (file);
  char            *contents = NULL;
  gsize            length = 0;

  if (g_str_has_prefix (uri, "resource://"))
    {
      g_autofree char *path = g_uri_unescape_string (uri + strlen ("resource://"), NULL);

      return g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
    }
  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, error))
    return NULL;
  return g_bytes_new_take (contents, length);
}

/* Decodes an icon file as GTK 4.8 does: PNG through GdkTexture, every other format (SVG, and
 * symbolic SVG, which GTK recolours after loading it) through GdkPixbuf's loaders. */
static gboolean
decode_icon (const char *file_name,
             GBytes     *bytes,
             int         size,
             GError    **error)
{
  g_autoptr (GdkPixbufLoader) loader = NULL;
  GdkPixbuf *pixbuf;

  if (g_str_has_suffix (file_name, ".png"))
    {
      g_autoptr (GdkTexture) texture = gdk_texture_new_from_bytes (bytes, error);

      return texture != NULL;
    }

  loader = gdk_pixbuf_loader_new ();
  gdk_pixbuf_loader_set_size (loader, size, size);
  if (!gdk_pixbuf_loader_write_bytes (loader, bytes, error))
    {
      gdk_pixbuf_loader_close (loader, NULL);
      return FALSE;
    }
  if (!gdk_pixbuf_loader_close (loader, error))
    return FALSE;
  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL || gdk_pixbuf_get_width (pixbuf) <= 0)
    {
      g_set_error (error, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_FAILED, "decoded to nothing");
      return FALSE;
    }
  return TRUE;
}

/* Returns a description of what is wrong with @icon_name, or NULL when it loads. */
static char *
check_icon (GtkIconTheme *theme,
            const char   *icon_name,
            int           size)
{
  g_autoptr (GtkIconPaintable) paintable = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *file_name = NULL;
  const char      *found_name;

  paintable = gtk_icon_theme_lookup_icon (theme, icon_name, NULL, size, 1, GTK_TEXT_DIR_NONE, 0);
  found_name = gtk_icon_paintable_get_icon_name (paintable);
  if (g_strcmp0 (found_name, "image-missing") == 0)
    return g_strdup_printf ("%s at %d px: not in the icon theme", icon_name, size);

  file = gtk_icon_paintable_get_file (paintable);
  if (file == NULL)
    return g_strdup_printf ("%s at %d px: the theme gave no file", icon_name, size);
  file_name = g_file_get_basename (file);

  bytes = load_icon_file (file, &error);
  if (bytes == NULL || !decode_icon (file_name, bytes, size, &error))
    {
      g_autofree char *uri = g_file_get_uri (file);

      return g_strdup_printf ("%s at %d px: %s cannot be loaded: %s", icon_name, size, uri,
                              error != NULL ? error->message : "no data");
    }
  return NULL;
}

static void
test_every_named_icon_loads (void)
{
  g_autoptr (LoomApplication) app = NULL;
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree const char **sorted = NULL;
  GtkIconTheme           *theme;
  guint                   n_names;

  /* Registering runs the application's startup, which adds its resources' icons to the icon
   * theme exactly as for a user; no window is needed. */
  app = loom_application_new (APP_ID, G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());

  add_icon_names_from_templates (names);
  add_icon_names_from_sources (names);
  /* The app's own icon: the about dialog and the window's icon. */
  g_hash_table_add (names, g_strdup (APP_ID));

  /* The app's own symbolic icon is the one a fresh install drew as missing: it must be among
   * the names, or this test would prove nothing about it. */
  g_assert_true (g_hash_table_contains (names, APP_ID "-symbolic"));

  sorted = (const char **)g_hash_table_get_keys_as_array (names, &n_names);
  g_qsort_with_data (sorted, n_names, sizeof (char *), (GCompareDataFunc)g_strcmp0, NULL);
  g_test_message ("%u icon names", n_names);

  for (guint i = 0; i < n_names; i++)
    for (guint s = 0; s < G_N_ELEMENTS (icon_sizes); s++)
      {
        char *problem = check_icon (theme, sorted[i], icon_sizes[s]);

        if (problem != NULL)
          g_ptr_array_add (problems, problem);
      }

  for (guint i = 0; i < problems->len; i++)
    g_test_message ("%s", (const char *)g_ptr_array_index (problems, i));
  if (problems->len > 0)
    g_test_fail_printf ("%u icons cannot be shown (the first: %s); is GdkPixbuf's SVG loader, "
                        "Debian's librsvg2-common, installed?",
                        problems->len, (const char *)g_ptr_array_index (problems, 0));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/app/icons/every-named-icon-loads", test_every_named_icon_loads);

  return g_test_run ();
}
