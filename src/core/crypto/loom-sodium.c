/* loom-sodium.c — libsodium's one-time initialisation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <sodium.h>

#include "loom-sodium.h"

void
loom_sodium_ensure_init (void)
{
  static gsize initialised = 0;

  if (g_once_init_enter (&initialised))
    {
      /* sodium_init () fails only when it cannot find a source of randomness: no key could be
       * made then, and carrying on would make weak ones. */
      if (sodium_init () < 0)
        g_error ("libsodium could not be initialised: this system gives it no randomness");
      g_once_init_leave (&initialised, 1);
    }
}
