/* loom-session-details.h — every stored fact about one session, for the details pane.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SESSION_DETAILS (loom_session_details_get_type ())

G_DECLARE_FINAL_TYPE (LoomSessionDetails, loom_session_details, LOOM, SESSION_DETAILS, GtkWidget)

GtkWidget   *loom_session_details_new (void);
/* @store is read for the names of related sessions and the list of sub-agents, when the pane
 * is shown (mapped) or asked for a value. */
void         loom_session_details_set_session (LoomSessionDetails *self,
                                               LoomStore          *store,
                                               LoomSession        *session);
LoomSession *loom_session_details_get_session (LoomSessionDetails *self);
/* The text a field shows, shown or not yet, by its title ("Working folder"), or NULL when the
 * field is hidden or unknown: for tests and accessibility checks. */
const char  *loom_session_details_get_value (LoomSessionDetails *self,
                                             const char         *title);

G_END_DECLS
