/* fuzz-import-claude.c — one Claude Code transcript of any bytes, imported with the format
 * forced (`loom import --source claude-code FILE`) into a fresh store and read back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-fuzz.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  loom_fuzz_import ("claude-code",
                    ".claude/projects/-home-ada-src-loom/"
                    "5f0c9a52-1b7e-4c55-9d0e-3a8b2f6d1c01.jsonl",
                    data, size);
  return 0;
}
