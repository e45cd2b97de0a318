/* loom-importer-codex.c — placeholder until the format lands; registered so the tree builds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-importer.h"

static const LoomImporter importer = { .name = "codex" };

const LoomImporter *
loom_importer_codex (void)
{
  return &importer;
}
