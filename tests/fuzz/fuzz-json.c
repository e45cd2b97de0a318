/* fuzz-json.c — loom_json_doc_parse () on any bytes: an error or a value every accessor can walk,
 * which writes back as JSON that parses to the same text again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-fuzz.h"
#include "loom-json-value.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  loom_fuzz_init ();
  return 0;
}

/* Reads every value once through the accessors the importers use. */
static void
walk (const LoomJson *value,
      guint           depth,
      gboolean        utf8)
{
  gsize length = loom_json_length (value);

  g_assert_cmpuint (depth, <=, LOOM_JSON_MAX_DEPTH + 1);
  (void)loom_json_int (value, 0);
  (void)loom_json_true (value);

  switch (loom_json_type (value))
    {
    case LOOM_JSON_STRING:
      /* Valid UTF-8 from valid UTF-8, \u escapes included; bytes of 0x80 and above are the
       * callers' to validate (loom-json-parser.c). */
      g_assert_cmpuint (length, ==, 0);
      g_assert_true (!utf8 || g_utf8_validate (loom_json_string (value), -1, NULL));
      break;

    case LOOM_JSON_ARRAY:
    case LOOM_JSON_OBJECT:
      for (gsize i = 0; i < length; i++)
        {
          const LoomJson *child = loom_json_element (value, i);

          g_assert_nonnull (child);
          if (loom_json_is_object (value))
            {
              const char     *name = loom_json_name (child);
              const LoomJson *found;

              g_assert_nonnull (name);
              g_assert_true (!utf8 || g_utf8_validate (name, -1, NULL));
              /* A name that came twice finds one of its members, by that name. */
              found = loom_json_member (value, name);
              g_assert_nonnull (found);
              g_assert_cmpstr (loom_json_name (found), ==, name);
            }
          else
            g_assert_null (loom_json_name (child));
          walk (child, depth + 1, utf8);
        }
      g_assert_null (loom_json_element (value, length));
      break;

    case LOOM_JSON_NULL:
    case LOOM_JSON_BOOLEAN:
    case LOOM_JSON_INT:
    case LOOM_JSON_DOUBLE:
    default:
      g_assert_cmpuint (length, ==, 0);
      g_assert_null (loom_json_string (value));
      break;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (LoomJsonDoc) again = loom_json_doc_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) node = NULL;
  g_autofree char *text = NULL;
  g_autofree char *written = NULL;
  g_autofree char *text_again = NULL;
  const LoomJson  *root;
  const LoomJson  *reparsed;
  gboolean         utf8 = g_utf8_validate_len ((const char *)data, size, NULL);

  /* The input is exactly @size bytes, without a NUL after them: the parser must not look. */
  root = loom_json_doc_parse (doc, (const char *)data, size, &error);
  if (root == NULL)
    {
      g_assert_error (error, LOOM_ERROR, LOOM_ERROR_PARSE);
      return 0;
    }
  g_assert_no_error (error);
  walk (root, 0, utf8);

  /* What it writes parses, and writes back byte for byte; json-glib's writer agrees. */
  text = loom_json_value_to_string (root);
  g_assert_nonnull (text);
  reparsed = loom_json_doc_parse (again, text, strlen (text), &error);
  g_assert_no_error (error);
  text_again = loom_json_value_to_string (reparsed);
  g_assert_cmpstr (text_again, ==, text);

  if (utf8)
    {
      node = loom_json_value_to_node (root);
      written = loom_json_write (node);
      g_assert_cmpstr (written, ==, text);
    }

  /* A document parses again into memory it reuses. */
  g_assert_nonnull (loom_json_doc_parse (doc, (const char *)data, size, NULL));
  return 0;
}
