/* loom-store-naming.h — what the title convention (loom-naming.h) reads from the store.
 *
 * The convention itself is plain text work and lives in model/; finding the prompt a name is
 * suggested from means reading a session's timeline, which is the store's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-types.h"

G_BEGIN_DECLS

/* The text of the first prompt the person typed in session @id (not injected context, commands
 * or summaries); NULL without error when there is none. */
char *loom_store_find_first_prompt (LoomStore  *store,
                                    const char *id,
                                    GError    **error);

G_END_DECLS
