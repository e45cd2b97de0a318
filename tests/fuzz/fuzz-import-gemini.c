/* fuzz-import-gemini.c — one Gemini CLI session of any bytes, imported with the format forced
 * (`loom import --source gemini FILE`) into a fresh store and read back: a JSON Lines session,
 * or the legacy whole-document .json when the first line is not a JSON value of its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-fuzz.h"

#define SESSION \
  ".gemini/tmp/1cc1d5fc80ebf9580a5adfc52aa8c2d78626dd581773fb32a4f226651f78717a/chats/" \
  "session-2025-09-14T10-02-3f2a9c1e"

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
  loom_fuzz_import_json_or_jsonl ("gemini", SESSION, data, size);
  return 0;
}
