/* loom-core.h — getting libloom ready, once, before anything else of it is used.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Wires the layers of core together: search/ sets up every connection the store opens (its
 * tokenizer and ranking; store/loom-store-hooks.h). Every program that opens a store calls it
 * first, from its main (); calling it again does nothing. A store opened without it fails with
 * a critical warning. */
void loom_core_init (void);

G_END_DECLS
