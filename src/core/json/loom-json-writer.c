/* loom-json-writer.c — compact JSON text for LoomJson values and json-glib trees.
 *
 * Payloads keep the bytes they had when importers wrote them with JsonGenerator, so both kinds
 * of tree are written the same way, except where JsonGenerator wrote invalid JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "loom-json-private.h"

#define ONES  G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS G_GUINT64_CONSTANT (0x8080808080808080)

/* Whether any of the eight bytes in @word needs an escape: below 0x20, '"', '\\' or DEL. Each
 * test is exact about whether some byte matches, which is all the caller asks. */
static inline gboolean
needs_escape (guint64 word)
{
  guint64 below_space = (word - ONES * 0x20) & ~word;
  guint64 quote = word ^ (ONES * '"');
  guint64 backslash = word ^ (ONES * '\\');
  guint64 del = word ^ (ONES * 0x7f);

  quote = (quote - ONES) & ~quote;
  backslash = (backslash - ONES) & ~backslash;
  del = (del - ONES) & ~del;
  return ((below_space | quote | backslash | del) & HIGHS) != 0;
}

/* Escapes as JsonGenerator does, so stored payloads keep their bytes: the two short escapes
 * for '"' and '\\', \b \f \n \r \t, \u00xx in lower case for the other control characters
 * and DEL, everything else (UTF-8 included) as it is. JsonGenerator leaves 0x1f raw, which is
 * not valid JSON; it is escaped here. No string holds a NUL, since the parser reads \u0000 as
 * U+FFFD, which goes out as itself like any other UTF-8. Payloads are long and mostly plain,
 * so runs are found eight bytes at a time. */
static void
append_escaped (GString    *out,
                const char *s,
                gsize       length)
{
  const char *end = s + length;
  const char *run = s;
  const char *p = s;

  while (p < end)
    {
      unsigned char c;

      if (end - p >= 8)
        {
          guint64 word;

          memcpy (&word, p, sizeof word);
          if (!needs_escape (word))
            {
              p += 8;
              continue;
            }
        }

      c = (unsigned char)*p;
      if (G_LIKELY (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f))
        {
          p++;
          continue;
        }

      g_string_append_len (out, run, p - run);
      switch (c)
        {
        case '"':
          g_string_append_len (out, "\\\"", 2);
          break;
        case '\\':
          g_string_append_len (out, "\\\\", 2);
          break;
        case '\b':
          g_string_append_len (out, "\\b", 2);
          break;
        case '\f':
          g_string_append_len (out, "\\f", 2);
          break;
        case '\n':
          g_string_append_len (out, "\\n", 2);
          break;
        case '\r':
          g_string_append_len (out, "\\r", 2);
          break;
        case '\t':
          g_string_append_len (out, "\\t", 2);
          break;
        default:
          {
            static const char hex[] = "0123456789abcdef";
            char              u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

            g_string_append_len (out, u, sizeof u);
          }
          break;
        }
      run = ++p;
    }
  g_string_append_len (out, run, end - run);
}

static void
append_int (GString *out,
            gint64   value)
{
  char    buffer[24];
  char   *p = buffer + sizeof buffer;
  /* Through the unsigned magnitude, so that G_MININT64 does not overflow. */
  guint64 magnitude = value < 0 ? (guint64)0 - (guint64)value : (guint64)value;

  do
    {
      *--p = (char)('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude > 0);
  if (value < 0)
    *--p = '-';
  g_string_append_len (out, p, buffer + sizeof buffer - p);
}

/* %.17g as JsonGenerator writes it, with ".0" so that a whole double reads back as a double.
 * JsonGenerator also appends ".0" after an exponent ("1e+17.0") and writes "inf.0", neither
 * of which parses; here an exponent stands alone, infinities are written as numbers that
 * overflow back to them, and NaN, which JSON lacks, as null. */
static void
append_double (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (value))
    {
      g_string_append_len (out, "null", 4);
      return;
    }
  if (isinf (value))
    {
      g_string_append (out, value > 0 ? "1e999" : "-1e999");
      return;
    }
  g_ascii_dtostr (buffer, sizeof buffer, value);
  g_string_append (out, buffer);
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append_len (out, ".0", 2);
}

/* ——— json-glib trees ——— */

/* Recursive: trees are importers' state objects, a few levels deep, or values that came from
 * loom_json_doc_parse (), which bounds their depth. */
static void
write_node (GString  *out,
            JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char    *name;
        JsonNode      *member;
        gboolean       first = TRUE;

        g_string_append_c (out, '{');
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            g_string_append_c (out, '"');
            append_escaped (out, name, strlen (name));
            g_string_append_len (out, "\":", 2);
            write_node (out, member);
          }
        g_string_append_c (out, '}');
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint      n = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < n; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            write_node (out, json_array_get_element (array, i));
          }
        g_string_append_c (out, ']');
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          append_int (out, json_node_get_int (node));
          return;
        case G_TYPE_DOUBLE:
          append_double (out, json_node_get_double (node));
          return;
        case G_TYPE_BOOLEAN:
          if (json_node_get_boolean (node))
            g_string_append_len (out, "true", 4);
          else
            g_string_append_len (out, "false", 5);
          return;
        case G_TYPE_STRING:
          /* A string node set to NULL would crash JsonGenerator; null is what it means. */
          if (json_node_get_string (node) == NULL)
            break;
          g_string_append_c (out, '"');
          append_escaped (out, json_node_get_string (node), strlen (json_node_get_string (node)));
          g_string_append_c (out, '"');
          return;
        default:
          break;
        }
      g_string_append_len (out, "null", 4);
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append_len (out, "null", 4);
      break;
    }
}

void
loom_json_append_string (GString    *out,
                         const char *text,
                         gssize      length)
{
  g_return_if_fail (out != NULL && text != NULL);

  g_string_append_c (out, '"');
  append_escaped (out, text, length < 0 ? strlen (text) : (gsize)length);
  g_string_append_c (out, '"');
}

char *
loom_json_write (JsonNode *node)
{
  GString *out;

  g_return_val_if_fail (node != NULL, NULL);

  out = g_string_sized_new (128);
  write_node (out, node);
  return g_string_free (out, FALSE);
}

/* ——— LoomJson values ——— */

/* Recursive: values come from loom_json_doc_parse (), which bounds their depth. */
static void
append_value (GString        *out,
              const LoomJson *value)
{
  switch ((LoomJsonType)value->type)
    {
    case LOOM_JSON_OBJECT:
    case LOOM_JSON_ARRAY:
      {
        gboolean is_object = value->type == LOOM_JSON_OBJECT;

        g_string_append_c (out, is_object ? '{' : '[');
        for (gsize i = 0; i < value->length; i++)
          {
            const LoomJson *child = &value->v.children[i];

            if (i > 0)
              g_string_append_c (out, ',');
            if (is_object)
              {
                g_string_append_c (out, '"');
                append_escaped (out, child->name, child->name_length);
                g_string_append_len (out, "\":", 2);
              }
            append_value (out, child);
          }
        g_string_append_c (out, is_object ? '}' : ']');
      }
      break;

    case LOOM_JSON_STRING:
      g_string_append_c (out, '"');
      append_escaped (out, value->v.string, value->length);
      g_string_append_c (out, '"');
      break;

    case LOOM_JSON_INT:
      append_int (out, value->v.integer);
      break;

    case LOOM_JSON_DOUBLE:
      append_double (out, value->v.number);
      break;

    case LOOM_JSON_BOOLEAN:
      if (value->v.boolean)
        g_string_append_len (out, "true", 4);
      else
        g_string_append_len (out, "false", 5);
      break;

    case LOOM_JSON_NULL:
    default:
      g_string_append_len (out, "null", 4);
      break;
    }
}

char *
loom_json_value_to_string (const LoomJson *value)
{
  GString *out;

  if (value == NULL)
    return NULL;
  /* Most payloads are a block or a record: a few hundred bytes to a few kilobytes. */
  out = g_string_sized_new (value->type == LOOM_JSON_STRING ? value->length + 16 : 256);
  append_value (out, value);
  return g_string_free (out, FALSE);
}
