/* loom-search-hook.h — what search/ sets up on every connection of the store: the index's
 * tokenizer, which notes the terms it indexes, and the ranking functions. Inside core only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Adds search's hook to the store's (loom-store-hooks.h); loom_core_init () calls it. */
void loom_search_install_store_hook (void);

G_END_DECLS
