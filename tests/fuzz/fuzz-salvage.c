/* fuzz-salvage.c — the salvage of a whole document that does not parse (loom-json-salvage.h):
 * whatever the bytes, NULL or a text loom_json_doc_parse () accepts, with problems by line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-fuzz.h"
#include "loom-json-salvage.h"
#include "loom-json-value.h"
#include "loom-jsonl-reader.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  return 0;
}

static guint64
count_lines (const uint8_t *data,
             size_t         size)
{
  guint64 lines = 1;

  for (size_t i = 0; i < size; i++)
    lines += data[i] == '\n';
  return lines;
}

static void
salvage (const uint8_t *data,
         size_t         size,
         guint          max_depth)
{
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func (loom_json_problem_free);
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  guint64          lines = count_lines (data, size);
  const LoomJson  *root;

  text = loom_json_salvage ((const char *)data, size, max_depth, problems);
  for (guint i = 0; i < problems->len; i++)
    {
      LoomJsonProblem *problem = g_ptr_array_index (problems, i);

      g_assert_cmpuint (problem->line, >=, 1);
      g_assert_cmpuint (problem->line, <=, lines);
      g_assert_nonnull (problem->message);
      g_assert_true (g_utf8_validate (problem->message, -1, NULL));
    }
  if (text == NULL)
    return;

  root = loom_json_doc_parse (doc, text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_true (loom_json_is_object (root));
}

int
LLVMFuzzerTestOneInput (const uint8_t *raw,
                        size_t         raw_size)
{
  g_autofree char *text = NULL;
  const uint8_t   *data;
  gsize            size;
  gsize            end = 0;
  guint            deepest = 0;

  /* What loom_import_file_read_document () hands salvage: valid UTF-8 without unpaired
   * surrogate escapes. */
  if (g_utf8_validate_len ((const char *)raw, raw_size, NULL))
    text = g_strndup ((const char *)raw, raw_size);
  else
    text = g_utf8_make_valid ((const char *)raw, (gssize)raw_size);
  size = strlen (text);
  loom_jsonl_fix_surrogates (text, size);
  data = (const uint8_t *)text;

  salvage (data, size, LOOM_JSON_MAX_DEPTH);
  /* A shallow limit reaches the paths that leave a record out for its depth. */
  salvage (data, size, 3);

  for (gsize start = 0; start < size && start < 4; start++)
    if (loom_json_find_value_end ((const char *)data, size, start, &end, &deepest))
      g_assert_cmpuint (end, <=, size);
  return 0;
}
