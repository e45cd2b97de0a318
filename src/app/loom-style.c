/* loom-style.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-style.h"

void
loom_style_add (GtkWidget  *widget,
                const char *resource)
{
  g_autoptr (GtkCssProvider) provider = NULL;
  GdkDisplay *display;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (resource != NULL);

  display = gtk_widget_get_display (widget);

  /* The display keeps the provider; marking it with the resource's name makes it once. */
  if (g_object_get_data (G_OBJECT (display), resource) != NULL)
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, resource);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data (G_OBJECT (display), resource, GINT_TO_POINTER (TRUE));
}
