/* loom-json-parser.c — JSON text to json-glib trees, and trees back to compact text.
 *
 * json-glib's JsonParser tokenises through a copy of GScanner, emits a GObject signal for every
 * member and element, and recurses without a limit; on agent transcripts it was most of the
 * importer's parsing time. This parser builds the same JsonNode trees in a single pass with an
 * explicit stack, and treats its input as hostile: every read is bounded by the length, nesting
 * stops at LOOM_JSON_MAX_DEPTH with an error, and no byte is scanned twice for the same thing,
 * so a 100 MB string costs linear time.
 *
 * Where it agrees with json-glib 1.6, on purpose: integers that fit a gint64 become INT64
 * values and every other number a double (so -0 is the integer 0 and 1e3 the double 1000,
 * and 1e400 is infinity); a repeated member name keeps the first position and the last value;
 * \u0000 ends the string there, since JsonNode strings are C strings; raw control characters
 * inside strings are taken as they are, because json-glib took them and old imports hold
 * them; a leading byte order mark is skipped; input holding a NUL byte is refused.
 *
 * Where it follows RFC 8259 instead: integers beyond gint64 become doubles (json-glib wrapped
 * them around); single quotes, comments, hexadecimal and other malformed numbers, unknown
 * escapes and anything after the value are errors; an unpaired surrogate escape becomes U+FFFD
 * exactly as loom_jsonl_fix_surrogates() rewrites it (json-glib wrote invalid UTF-8 or failed).
 * Bytes of 0x80 and above are copied through unchecked: callers validate UTF-8 beforehand,
 * and nothing here depends on it for memory safety.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "loom-error.h"
#include "loom-json-parser.h"

/* A growable byte buffer that starts on the stack: most strings and member names are short,
 * and one parse must not cost a malloc per string before json-glib's own copy. */
typedef struct
{
  char  *data;
  gsize  len;
  gsize  size;
  gsize  bound;  /* the most the current string can need: it decodes to fewer bytes */
  char   small[1024];
} Scratch;

/* Past this a buffer is given back after use, so one huge string does not stay allocated
 * for the rest of the record. */
#define SCRATCH_KEEP (1 << 20)

typedef struct
{
  JsonObject *object;   /* exactly one of the two */
  JsonArray  *array;
  JsonNode   *node;     /* the node that holds it */
  guint       repeats;  /* member names that came again */
  GHashTable *later;    /* name → last node, for repeats past MAX_CHEAP_REPEATS */
} Frame;

/* json_object_set_member() walks the member list to replace a repeated name, so many repeats
 * in one object would take quadratic time. The first few are left to it; after that, repeated
 * names collect in Frame.later and the object is rebuilt once when it closes. */
#define MAX_CHEAP_REPEATS 8

typedef struct
{
  const char  *start;
  const char  *p;
  const char  *end;
  GError     **error;

  /* The first '"' and '\\' at or after where they were last looked for (end when none):
   * strings are scanned with memchr, and remembering what it found keeps a long string with
   * many escapes from being rescanned to its closing quote at every escape. */
  const char  *quote;
  const char  *backslash;

  JsonNode    *root;
  Scratch      key;    /* the member name the next value belongs to */
  Scratch      text;   /* the string value being decoded */

  /* The open containers. The parser lives on the C stack, and a malloc of its size per record
   * showed in profiles, so the first levels are inline and deeper ones go to the heap. */
  Frame       *stack;
  guint        depth;
  guint        stack_size;
  Frame        shallow[32];
} Parser;

static void
scratch_init (Scratch *s)
{
  s->data = s->small;
  s->len = 0;
  s->size = sizeof s->small;
  s->bound = G_MAXSIZE;
}

static void
scratch_clear (Scratch *s)
{
  if (s->data != s->small)
    g_free (s->data);
  scratch_init (s);
}

/* Makes room for @extra more bytes and a terminating NUL. Doubling keeps growth linear; the
 * bound keeps a 100 MB string from taking 128 MB. */
static char *
scratch_reserve (Scratch *s,
                 gsize    extra)
{
  if (G_UNLIKELY (s->size - s->len <= extra))
    {
      gsize needed = s->len + extra + 1;
      gsize size = MAX (MIN (s->size * 2, s->bound), needed);

      if (s->data == s->small)
        {
          s->data = g_malloc (size);
          memcpy (s->data, s->small, s->len);
        }
      else
        s->data = g_realloc (s->data, size);
      s->size = size;
    }
  return s->data + s->len;
}

static inline void
scratch_append (Scratch    *s,
                const char *bytes,
                gsize       n)
{
  memcpy (scratch_reserve (s, n), bytes, n);
  s->len += n;
}

static gboolean
fail (Parser     *self,
      const char *at,
      const char *what)
{
  g_set_error (self->error, LOOM_ERROR, LOOM_ERROR_PARSE, "%s at byte %" G_GSIZE_FORMAT, what,
               (gsize)(at - self->start));
  return FALSE;
}

static gboolean
fail_unexpected (Parser     *self,
                 const char *expected)
{
  unsigned char c;

  if (self->p >= self->end)
    {
      g_set_error (self->error, LOOM_ERROR, LOOM_ERROR_PARSE,
                   "unexpected end of the text at byte %" G_GSIZE_FORMAT ", expected %s",
                   (gsize)(self->p - self->start), expected);
      return FALSE;
    }
  c = (unsigned char)*self->p;
  if (c > 0x20 && c < 0x7f)
    g_set_error (self->error, LOOM_ERROR, LOOM_ERROR_PARSE,
                 "unexpected “%c” at byte %" G_GSIZE_FORMAT ", expected %s", c,
                 (gsize)(self->p - self->start), expected);
  else
    g_set_error (self->error, LOOM_ERROR, LOOM_ERROR_PARSE,
                 "unexpected byte 0x%02x at byte %" G_GSIZE_FORMAT ", expected %s", c,
                 (gsize)(self->p - self->start), expected);
  return FALSE;
}

static inline void
skip_space (Parser *self)
{
  const char *p = self->p;

  while (p < self->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  self->p = p;
}

/* ——— Strings ——— */

static inline const char *
find_quote (Parser     *self,
            const char *from)
{
  if (self->quote < from)
    {
      self->quote = memchr (from, '"', (gsize)(self->end - from));
      if (self->quote == NULL)
        self->quote = self->end;
    }
  return self->quote;
}

static inline const char *
find_backslash (Parser     *self,
                const char *from)
{
  if (self->backslash < from)
    {
      self->backslash = memchr (from, '\\', (gsize)(self->end - from));
      if (self->backslash == NULL)
        self->backslash = self->end;
    }
  return self->backslash;
}

/* The four hex digits at @p, or -1. The caller has checked that they are within the text. */
static int
read_hex4 (const char *p)
{
  int value = 0;

  for (int i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (p[i]);

      if (digit < 0)
        return -1;
      value = value << 4 | digit;
    }
  return value;
}

static void
append_utf8 (Scratch  *out,
             gunichar  c)
{
  char *p = scratch_reserve (out, 4);

  out->len += (gsize)g_unichar_to_utf8 (c, p);
}

/* Decodes the escape at @p (a backslash) into @out. Returns where decoding goes on, or NULL. */
static const char *
decode_escape (Parser     *self,
               const char *p,
               Scratch    *out)
{
  int unit, low;
  char c;

  if (self->end - p < 2)
    {
      fail (self, p, "unterminated escape");
      return NULL;
    }
  switch (p[1])
    {
    case '"':  c = '"'; break;
    case '\\': c = '\\'; break;
    case '/':  c = '/'; break;
    case 'b':  c = '\b'; break;
    case 'f':  c = '\f'; break;
    case 'n':  c = '\n'; break;
    case 'r':  c = '\r'; break;
    case 't':  c = '\t'; break;

    case 'u':
      if (self->end - p < 6 || (unit = read_hex4 (p + 2)) < 0)
        {
          fail (self, p, "a \\u escape needs four hex digits");
          return NULL;
        }
      /* Pairs as loom_jsonl_fix_surrogates() pairs them, so that a line reads the same
       * whether the reader repaired it first or not: a high surrogate takes the low one
       * right after it, and any other surrogate becomes U+FFFD on its own. */
      if (unit >= 0xD800 && unit <= 0xDBFF && self->end - p >= 12 && p[6] == '\\' &&
          p[7] == 'u' && (low = read_hex4 (p + 8)) >= 0xDC00 && low <= 0xDFFF)
        {
          append_utf8 (out, 0x10000 + (((gunichar)unit - 0xD800) << 10) +
                            ((gunichar)low - 0xDC00));
          return p + 12;
        }
      if (unit >= 0xD800 && unit <= 0xDFFF)
        unit = 0xFFFD;
      /* \u0000 goes in as a NUL byte: the C string json-glib keeps ends there, as it did
       * when json-glib parsed it. */
      append_utf8 (out, (gunichar)unit);
      return p + 6;

    default:
      fail (self, p, "invalid escape");
      return NULL;
    }
  scratch_append (out, &c, 1);
  return p + 2;
}

/* Decodes the string whose opening quote is at self->p into @out, NUL-terminated, and moves
 * past its closing quote. */
static gboolean
parse_string (Parser  *self,
              Scratch *out)
{
  const char *open = self->p;
  const char *p = open + 1;

  out->len = 0;
  /* Every escape decodes to fewer bytes than it takes, and the last one may reserve four. */
  out->bound = (gsize)(self->end - p) + 8;
  for (;;)
    {
      const char *quote = find_quote (self, p);
      const char *backslash = find_backslash (self, p);
      const char *stop;
      gboolean closes;

      if (quote == self->end && backslash == self->end)
        break;
      closes = quote < backslash;
      stop = closes ? quote : backslash;

      scratch_append (out, p, (gsize)(stop - p));
      if (closes)
        {
          out->data[out->len] = '\0';
          self->p = stop + 1;
          return TRUE;
        }
      p = decode_escape (self, stop, out);
      if (p == NULL)
        return FALSE;
    }
  return fail (self, open, "unterminated string");
}

/* ——— Numbers ——— */

static gboolean
skip_digits (Parser *self)
{
  const char *p = self->p;

  while (p < self->end && g_ascii_isdigit (*p))
    p++;
  if (p == self->p)
    return FALSE;
  self->p = p;
  return TRUE;
}

/* Reads a number in RFC 8259's grammar. Sets *@is_int and *@integer when it is an integer
 * that fits a gint64, else *@number. */
static gboolean
parse_number (Parser   *self,
              gboolean *is_int,
              gint64   *integer,
              double   *number)
{
  const char *start = self->p;
  gboolean negative = FALSE, overflow = FALSE;
  guint64 magnitude = 0;

  if (*self->p == '-')
    {
      negative = TRUE;
      self->p++;
    }
  if (self->p < self->end && *self->p == '0')
    self->p++;
  else if (self->p < self->end && *self->p >= '1' && *self->p <= '9')
    {
      for (; self->p < self->end && g_ascii_isdigit (*self->p); self->p++)
        {
          guint digit = (guint)(*self->p - '0');

          if (magnitude > (G_MAXUINT64 - digit) / 10)
            overflow = TRUE;
          else
            magnitude = magnitude * 10 + digit;
        }
    }
  else
    return fail (self, start, "a number needs a digit");

  *is_int = TRUE;
  if (self->p < self->end && *self->p == '.')
    {
      self->p++;
      if (!skip_digits (self))
        return fail (self, start, "a number needs a digit after its decimal point");
      *is_int = FALSE;
    }
  if (self->p < self->end && (*self->p == 'e' || *self->p == 'E'))
    {
      self->p++;
      if (self->p < self->end && (*self->p == '+' || *self->p == '-'))
        self->p++;
      if (!skip_digits (self))
        return fail (self, start, "a number needs a digit in its exponent");
      *is_int = FALSE;
    }

  if (*is_int && !overflow)
    {
      if (!negative && magnitude <= (guint64)G_MAXINT64)
        {
          *integer = (gint64)magnitude;
          return TRUE;
        }
      if (negative && magnitude <= (guint64)G_MAXINT64 + 1)
        {
          *integer = magnitude == (guint64)G_MAXINT64 + 1 ? G_MININT64 : -(gint64)magnitude;
          return TRUE;
        }
    }

  /* strtod needs a NUL after the number; the text has none of its own. */
  *is_int = FALSE;
  {
    gsize n = (gsize)(self->p - start);
    char small[64];
    g_autofree char *large = NULL;
    char *copy = n < sizeof small ? small : (large = g_malloc (n + 1));

    memcpy (copy, start, n);
    copy[n] = '\0';
    *number = g_ascii_strtod (copy, NULL);
  }
  return TRUE;
}

/* ——— Building the tree ——— */

typedef enum
{
  VALUE_NULL,
  VALUE_BOOLEAN,
  VALUE_INT,
  VALUE_DOUBLE,
  VALUE_STRING,
  VALUE_OBJECT,
  VALUE_ARRAY,
} ValueKind;

typedef struct
{
  ValueKind kind;
  union
  {
    gboolean    boolean;
    gint64      integer;
    double      number;
    const char *string;
    JsonObject *object;  /* owned */
    JsonArray  *array;   /* owned */
  } v;
} Value;

/* Gives @node the value, taking the value's reference to a container. */
static JsonNode *
init_node (JsonNode    *node,
           const Value *value)
{
  switch (value->kind)
    {
    case VALUE_NULL:
      return json_node_init_null (node);
    case VALUE_BOOLEAN:
      return json_node_init_boolean (node, value->v.boolean);
    case VALUE_INT:
      return json_node_init_int (node, value->v.integer);
    case VALUE_DOUBLE:
      return json_node_init_double (node, value->v.number);
    case VALUE_STRING:
      return json_node_init_string (node, value->v.string);
    case VALUE_OBJECT:
      json_node_init_object (node, value->v.object);
      json_object_unref (value->v.object);
      return node;
    case VALUE_ARRAY:
      json_node_init_array (node, value->v.array);
      json_array_unref (value->v.array);
      return node;
    default:
      g_assert_not_reached ();
    }
}

/* Puts a value in the object at the top of the stack under the pending member name. Returns
 * the node that holds a container; NULL for other values. */
static JsonNode *
place_member (Parser      *self,
              Frame       *frame,
              const Value *value)
{
  JsonObject *object = frame->object;
  const char *name = self->key.data;
  gboolean container = value->kind == VALUE_OBJECT || value->kind == VALUE_ARRAY;
  JsonNode *node;
  guint size;

  if (frame->repeats >= MAX_CHEAP_REPEATS &&
      ((frame->later != NULL && g_hash_table_contains (frame->later, name)) ||
       json_object_has_member (object, name)))
    {
      if (frame->later == NULL)
        frame->later = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify)json_node_unref);
      node = init_node (json_node_alloc (), value);
      g_hash_table_replace (frame->later, g_strdup (name), node);
      return container ? node : NULL;
    }

  /* The setters that take a value rather than a node skip a lookup that
   * json_object_set_member() makes; a repeat shows as a size that did not grow. */
  size = json_object_get_size (object);
  switch (value->kind)
    {
    case VALUE_NULL:
      json_object_set_null_member (object, name);
      break;
    case VALUE_BOOLEAN:
      json_object_set_boolean_member (object, name, value->v.boolean);
      break;
    case VALUE_INT:
      json_object_set_int_member (object, name, value->v.integer);
      break;
    case VALUE_DOUBLE:
      json_object_set_double_member (object, name, value->v.number);
      break;
    case VALUE_STRING:
      json_object_set_string_member (object, name, value->v.string);
      break;
    case VALUE_OBJECT:
      json_object_set_object_member (object, name, value->v.object);
      break;
    case VALUE_ARRAY:
      json_object_set_array_member (object, name, value->v.array);
      break;
    default:
      g_assert_not_reached ();
    }
  if (json_object_get_size (object) == size)
    frame->repeats++;
  return container ? json_object_get_member (object, name) : NULL;
}

/* Puts a value where the text has it: the root, the next element, or the pending member.
 * Returns the node that holds a container; NULL for other values. */
static JsonNode *
place (Parser      *self,
       const Value *value)
{
  Frame *frame;
  JsonNode *node;

  if (self->depth == 0)
    return self->root = init_node (json_node_alloc (), value);

  frame = &self->stack[self->depth - 1];
  if (frame->object != NULL)
    return place_member (self, frame, value);

  node = init_node (json_node_alloc (), value);
  json_array_add_element (frame->array, node);
  return node;
}

/* Closes the container at the top of the stack. An object that collected late repeats is
 * rebuilt: each name at its first position, with its last value. */
static void
pop (Parser *self)
{
  Frame *frame = &self->stack[--self->depth];
  JsonObject *rebuilt;
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;

  if (frame->later == NULL)
    return;

  rebuilt = json_object_new ();
  json_object_iter_init_ordered (&iter, frame->object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      JsonNode *last = g_hash_table_lookup (frame->later, name);

      json_object_set_member (rebuilt, name, json_node_ref (last != NULL ? last : member));
    }
  json_node_set_object (frame->node, rebuilt);
  json_object_unref (rebuilt);
  g_clear_pointer (&frame->later, g_hash_table_unref);
}

/* Reads `"name" :` into self->key. */
static gboolean
parse_member_name (Parser *self)
{
  skip_space (self);
  if (self->p >= self->end || *self->p != '"')
    return fail_unexpected (self, "a member name");
  if (!parse_string (self, &self->key))
    return FALSE;
  skip_space (self);
  if (self->p >= self->end || *self->p != ':')
    return fail_unexpected (self, "“:”");
  self->p++;
  return TRUE;
}

static gboolean
match_literal (Parser     *self,
               const char *word)
{
  gsize n = strlen (word);

  if ((gsize)(self->end - self->p) < n || memcmp (self->p, word, n) != 0)
    return fail_unexpected (self, "a value");
  self->p += n;
  return TRUE;
}

/* Reads one value at self->p and places it. A container is placed and pushed, and its first
 * member name read; *@more is then TRUE, meaning a value is expected next. */
static gboolean
parse_value (Parser   *self,
             gboolean *more)
{
  const char *word = NULL;
  Value value;

  *more = FALSE;
  skip_space (self);
  if (self->p >= self->end)
    return fail_unexpected (self, "a value");

  switch (*self->p)
    {
    case '{':
    case '[':
      if (self->depth >= LOOM_JSON_MAX_DEPTH)
        return fail (self, self->p, "nested deeper than " G_STRINGIFY (LOOM_JSON_MAX_DEPTH)
                                    " levels");
      {
        gboolean is_object = *self->p == '{';
        Frame *frame;

        JsonNode *node;

        value.kind = is_object ? VALUE_OBJECT : VALUE_ARRAY;
        if (is_object)
          value.v.object = json_object_new ();
        else
          value.v.array = json_array_new ();
        node = place (self, &value);

        if (self->depth == self->stack_size)
          {
            Frame *bigger = g_new (Frame, self->stack_size * 2);

            memcpy (bigger, self->stack, self->depth * sizeof (Frame));
            if (self->stack != self->shallow)
              g_free (self->stack);
            self->stack = bigger;
            self->stack_size *= 2;
          }
        frame = &self->stack[self->depth++];
        frame->object = is_object ? value.v.object : NULL;
        frame->array = is_object ? NULL : value.v.array;
        frame->node = node;
        frame->repeats = 0;
        frame->later = NULL;

        self->p++;
        skip_space (self);
        if (self->p < self->end && *self->p == (is_object ? '}' : ']'))
          {
            self->p++;
            pop (self);
            return TRUE;
          }
        if (is_object && !parse_member_name (self))
          return FALSE;
        *more = TRUE;
        return TRUE;
      }

    case '"':
      if (!parse_string (self, &self->text))
        return FALSE;
      value.kind = VALUE_STRING;
      value.v.string = self->text.data;
      place (self, &value);
      if (self->text.size > SCRATCH_KEEP)
        scratch_clear (&self->text);
      return TRUE;

    case 't':
      value.kind = VALUE_BOOLEAN;
      value.v.boolean = TRUE;
      word = "true";
      break;

    case 'f':
      value.kind = VALUE_BOOLEAN;
      value.v.boolean = FALSE;
      word = "false";
      break;

    case 'n':
      value.kind = VALUE_NULL;
      word = "null";
      break;

    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        gboolean is_int;

        if (!parse_number (self, &is_int, &value.v.integer, &value.v.number))
          return FALSE;
        value.kind = is_int ? VALUE_INT : VALUE_DOUBLE;
        place (self, &value);
        return TRUE;
      }

    default:
      return fail_unexpected (self, "a value");
    }

  if (!match_literal (self, word))
    return FALSE;
  place (self, &value);
  return TRUE;
}

/* After a value: a comma and what follows it, the ends of containers, or the end of the text.
 * Returns TRUE with *@more set when another value is expected. */
static gboolean
parse_after_value (Parser   *self,
                   gboolean *more)
{
  *more = FALSE;
  while (self->depth > 0)
    {
      Frame *frame = &self->stack[self->depth - 1];

      skip_space (self);
      if (self->p < self->end && *self->p == ',')
        {
          self->p++;
          if (frame->object != NULL && !parse_member_name (self))
            return FALSE;
          *more = TRUE;
          return TRUE;
        }
      if (self->p < self->end && *self->p == (frame->object != NULL ? '}' : ']'))
        {
          self->p++;
          pop (self);
          continue;
        }
      return fail_unexpected (self, frame->object != NULL ? "“,” or “}”" : "“,” or “]”");
    }

  skip_space (self);
  if (self->p < self->end)
    return fail_unexpected (self, "the end of the text");
  return TRUE;
}

JsonNode *
loom_json_parse (const char  *text,
                 gsize        length,
                 GError     **error)
{
  Parser parser;
  Parser *self = &parser;
  const char *nul;
  gboolean ok, more;
  JsonNode *root;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (text == NULL)
    text = "";
  nul = memchr (text, '\0', length);
  if (nul != NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_PARSE, "a NUL byte at byte %" G_GSIZE_FORMAT,
                   (gsize)(nul - text));
      return NULL;
    }

  self->start = text;
  self->p = text;
  self->end = text + length;
  self->error = error;
  self->quote = text;
  self->backslash = text;
  self->root = NULL;
  self->stack = self->shallow;
  self->depth = 0;
  self->stack_size = G_N_ELEMENTS (self->shallow);
  scratch_init (&self->key);
  scratch_init (&self->text);

  if (length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    self->p += 3;

  do
    ok = parse_value (self, &more) && (more || parse_after_value (self, &more));
  while (ok && more);

  root = g_steal_pointer (&self->root);
  if (!ok)
    {
      for (guint i = 0; i < self->depth; i++)
        g_clear_pointer (&self->stack[i].later, g_hash_table_unref);
      g_clear_pointer (&root, json_node_unref);
    }
  scratch_clear (&self->key);
  scratch_clear (&self->text);
  if (self->stack != self->shallow)
    g_free (self->stack);
  return root;
}

/* ——— Writing ——— */

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
 * not valid JSON; it is escaped here. Payloads are long and mostly plain, so runs are found
 * eight bytes at a time. */
static void
write_string (GString    *out,
              const char *s)
{
  const char *end = s + strlen (s);
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
        case '"':  g_string_append_len (out, "\\\"", 2); break;
        case '\\': g_string_append_len (out, "\\\\", 2); break;
        case '\b': g_string_append_len (out, "\\b", 2); break;
        case '\f': g_string_append_len (out, "\\f", 2); break;
        case '\n': g_string_append_len (out, "\\n", 2); break;
        case '\r': g_string_append_len (out, "\\r", 2); break;
        case '\t': g_string_append_len (out, "\\t", 2); break;
        default:
          {
            static const char hex[] = "0123456789abcdef";
            char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf] };

            g_string_append_len (out, u, sizeof u);
          }
          break;
        }
      run = ++p;
    }
  g_string_append_len (out, run, end - run);
}

static void
write_int (GString *out,
           gint64   value)
{
  char buffer[24];
  char *p = buffer + sizeof buffer;
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
write_double (GString *out,
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

/* Recursive: trees come from loom_json_parse(), which bounds their depth, or from importers,
 * which wrap those in a level or two. */
static void
write_node (GString  *out,
            JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;
        gboolean first = TRUE;

        g_string_append_c (out, '{');
        json_object_iter_init_ordered (&iter, json_node_get_object (node));
        while (json_object_iter_next_ordered (&iter, &name, &member))
          {
            if (!first)
              g_string_append_c (out, ',');
            first = FALSE;
            g_string_append_c (out, '"');
            write_string (out, name);
            g_string_append_len (out, "\":", 2);
            write_node (out, member);
          }
        g_string_append_c (out, '}');
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

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
          write_int (out, json_node_get_int (node));
          return;
        case G_TYPE_DOUBLE:
          write_double (out, json_node_get_double (node));
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
          write_string (out, json_node_get_string (node));
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

char *
loom_json_write (JsonNode *node)
{
  GString *out;

  g_return_val_if_fail (node != NULL, NULL);

  out = g_string_sized_new (128);
  write_node (out, node);
  return g_string_free (out, FALSE);
}
