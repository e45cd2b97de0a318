/* loom-sweep-assistant.h — the archive sweep (loom-sweep.h), as an assistant.
 *
 * Its pages: the age a session must have (the Archive Sessions After preference first), the
 * eligible sessions to approve, the backup folder (the backup-folder preference when set;
 * else chosen, and remembered when asked) and whether to encrypt (encrypt-backups first), the
 * progress, and the summary: sessions archived, backups written, artifacts backed up, failures
 * and their reasons. Listing and sweeping run in worker threads on connections of their own;
 * the backup key is asked of the keyring in a thread too, and when the sweep creates it, its
 * recovery key is shown once.
 *
 * Actions ("assistant."): back, next, archive, cancel (stops a running sweep, or closes),
 * select-all, select-none, choose-folder, open-folder. Enter moves on, Escape cancels and
 * closes. Signal: swept, once a sweep is over (the main window reloads its list).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-store.h"

G_BEGIN_DECLS

#define LOOM_TYPE_SWEEP_ASSISTANT (loom_sweep_assistant_get_type ())

G_DECLARE_FINAL_TYPE (LoomSweepAssistant, loom_sweep_assistant, LOOM, SWEEP_ASSISTANT, AdwWindow)

LoomSweepAssistant *loom_sweep_assistant_new (GtkWindow *parent,
                                              LoomStore *store,
                                              GSettings *settings);

/* "threshold", "sessions", "destination", "progress" or "summary". */
const char *loom_sweep_assistant_get_page (LoomSweepAssistant *self);
guint       loom_sweep_assistant_get_days (LoomSweepAssistant *self);
void        loom_sweep_assistant_set_days (LoomSweepAssistant *self,
                                           guint               days);
/* Whether the eligible sessions are still being looked for. */
gboolean    loom_sweep_assistant_get_loading (LoomSweepAssistant *self);
guint       loom_sweep_assistant_get_n_eligible (LoomSweepAssistant *self);
guint       loom_sweep_assistant_get_n_selected (LoomSweepAssistant *self);
/* Ticks or unticks the eligible session @uuid. */
void        loom_sweep_assistant_set_selected (LoomSweepAssistant *self,
                                               const char         *uuid,
                                               gboolean            selected);
/* The folder the backups go to, or NULL; setting it is what the folder chooser does. */
const char *loom_sweep_assistant_get_destination (LoomSweepAssistant *self);
void        loom_sweep_assistant_set_destination (LoomSweepAssistant *self,
                                                  const char         *path);
gboolean    loom_sweep_assistant_get_encrypt (LoomSweepAssistant *self);
void        loom_sweep_assistant_set_encrypt (LoomSweepAssistant *self,
                                              gboolean            encrypt);
gboolean    loom_sweep_assistant_get_running (LoomSweepAssistant *self);
/* For tests: sweeps started from now on wait at their reports of @step ("backup", "verify",
 * "archive") until this is called with NULL, or the sweep is cancelled. */
void        loom_sweep_assistant_hold_sweep (LoomSweepAssistant *self,
                                             const char         *step);

G_END_DECLS
