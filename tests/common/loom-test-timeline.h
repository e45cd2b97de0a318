/* loom-test-timeline.h — long sessions for the timeline tests, written as an agent writes them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-store.h"

G_BEGIN_DECLS

/* The uuid Claude Code gives the long session, and the items its timeline shows per turn. */
#define LOOM_TEST_LONG_SESSION_ID     "7d1c4b2a-9e3f-4a58-b6c1-2f8e0d5a3c97"
#define LOOM_TEST_LONG_ITEMS_PER_TURN 4

/* Writes a Claude Code session of @n_turns turns under @dir (laid out like ~/.claude/projects)
 * and imports it into @store with the real importer. Each turn is a prompt, a reply streamed
 * as three records (thinking, text, a Bash or Edit call) and the call's result: four shown
 * items (the result shows inside its call). Returns the session's uuid in the store. */
char *loom_test_import_long_session (LoomStore  *store,
                                     const char *dir,
                                     guint       n_turns);

G_END_DECLS
