/* loom-session-row.h — one session in the session list: title, project, agent and time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "loom-session.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SESSION_ROW (loom_session_row_get_type ())

G_DECLARE_FINAL_TYPE (LoomSessionRow, loom_session_row, LOOM, SESSION_ROW, GtkWidget)

GtkWidget   *loom_session_row_new (void);
LoomSession *loom_session_row_get_session (LoomSessionRow *self);
void         loom_session_row_set_session (LoomSessionRow *self,
                                           LoomSession    *session);

/* The name people know an agent by, for a session's source ("claude-code" → "Claude Code"). */
const char *loom_session_row_agent_name (const char *source);
/* @text (a title, a project's name) as a label shows it: one line of at most
 * LOOM_NAMING_TITLE_LIMIT characters. A store written before the importer bounded them may
 * hold a megabyte, which a label would lay out whole. NULL for NULL or nothing. */
char       *loom_session_row_display_text (const char *text);
/* A short, local form of @ms (Unix milliseconds) relative to @now_ms. */
char       *loom_session_row_format_time (gint64 ms,
                                          gint64 now_ms);

G_END_DECLS
