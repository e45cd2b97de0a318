/* loom-importer-claude.c — placeholder until the format lands; registered so the tree builds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-importer.h"

static const LoomImporter importer = { .name = "claude-code" };

const LoomImporter *
loom_importer_claude (void)
{
  return &importer;
}
