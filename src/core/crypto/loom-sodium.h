/* loom-sodium.h — libsodium, initialised once for the whole process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Calls sodium_init () the first time, from whichever thread comes first. Every function of
 * crypto/ that uses libsodium calls this before. */
void loom_sodium_ensure_init (void);

G_END_DECLS
