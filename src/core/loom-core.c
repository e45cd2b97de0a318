/* loom-core.c — the top of core: the one place that knows every layer.
 *
 * The store is below search and cannot name it; search's hook is added from here instead. An
 * explicit call rather than a constructor in search/: libloom is a static library, and the
 * linker leaves out an object file nothing refers to, constructor and all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-core.h"
#include "loom-search-hook.h"

void
loom_core_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      loom_search_install_store_hook ();
      g_once_init_leave (&done, 1);
    }
}
