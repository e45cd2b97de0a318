/* loom-style.h — the widgets' own style sheets.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Adds the style sheet at @resource to @widget's display, once per display: a widget whose
 * look is its own calls this when it is made. */
void loom_style_add (GtkWidget  *widget,
                     const char *resource);

G_END_DECLS
