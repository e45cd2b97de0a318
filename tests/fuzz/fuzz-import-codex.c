/* fuzz-import-codex.c — one Codex CLI rollout of any bytes, imported with the format forced
 * (`loom import --source codex FILE`) into a fresh store and read back: a JSON Lines rollout, or
 * the first CLI's whole-document .json when the first line is not a JSON value of its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-fuzz.h"

#define ROLLOUT \
  ".codex/sessions/2026/03/02/rollout-2026-03-02T10-15-42-019ca9f1-5d2e-7c31-9a4b-3e0f6d1c2a77"

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
  loom_fuzz_import_json_or_jsonl ("codex", ROLLOUT, data, size);
  return 0;
}
