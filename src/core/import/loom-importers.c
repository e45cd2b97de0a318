/* loom-importers.c — the registry of agent formats.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-importer.h"

const LoomImporter *const *
loom_importers (void)
{
  static const LoomImporter *importers[4];
  static gsize               initialized = 0;

  /* Imports run in worker threads: fill the table once, safely. */
  if (g_once_init_enter (&initialized))
    {
      importers[0] = loom_importer_claude ();
      importers[1] = loom_importer_codex ();
      importers[2] = loom_importer_gemini ();
      importers[3] = NULL;
      g_once_init_leave (&initialized, 1);
    }
  return importers;
}

const LoomImporter *
loom_importer_find (const char *name)
{
  const LoomImporter *const *importers = loom_importers ();

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; importers[i] != NULL; i++)
    if (g_strcmp0 (importers[i]->name, name) == 0)
      return importers[i];
  return NULL;
}
