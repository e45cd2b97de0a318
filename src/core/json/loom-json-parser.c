/* loom-json-parser.c — JSON text to LoomJson values in an arena, fast and safe on hostile input.
 *
 * json-glib's JsonParser tokenises through a copy of GScanner, emits a GObject signal for every
 * member and element, and recurses without a limit; and its trees cost a hash table per object
 * and an allocation per member to build and to free again. This parser reads the text in a
 * single pass with an explicit stack, into memory a LoomJsonDoc reuses from one record to the
 * next. It treats its input as hostile: every read is bounded by the length, nesting stops at
 * LOOM_JSON_MAX_DEPTH with an error, and no byte is scanned twice for the same thing, so a
 * 100 MB string costs linear time.
 *
 * Where it agrees with json-glib 1.6, on purpose: integers that fit a gint64 become INT64
 * values and every other number a double (so -0 is the integer 0 and 1e3 the double 1000,
 * and 1e400 is infinity); a repeated member name keeps the first position and the last value;
 * raw control characters inside strings are taken as they are, because json-glib took them and
 * old imports hold them; a leading byte order mark is skipped; input holding a NUL byte is
 * refused.
 *
 * Where it follows RFC 8259 instead: integers beyond gint64 become doubles (json-glib wrapped
 * them around); single quotes, comments, hexadecimal and other malformed numbers, unknown
 * escapes and anything after the value are errors; an unpaired surrogate escape becomes U+FFFD
 * exactly as loom_jsonl_fix_surrogates() rewrites it (json-glib wrote invalid UTF-8 or failed);
 * and \u0000 becomes U+FFFD, in values and member names alike. Strings leave here as C strings,
 * so a NUL would end them there, as it ended json-glib's, and what followed would be lost
 * without a word; the replacement character keeps the rest, as it does for invalid UTF-8.
 * Bytes of 0x80 and above are copied through unchecked: callers validate UTF-8 beforehand,
 * and nothing here depends on it for memory safety.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-json-private.h"

/* A growable byte buffer for strings with escapes, which decode to fewer bytes than the text
 * holds. Most are short, so it starts inline. */
typedef struct
{
  char *data;
  gsize len;
  gsize size;
  gsize bound; /* the most the current string can need: it decodes to fewer bytes */
  char  small[1024];
} Scratch;

/* Past this a buffer is given back after use, so one huge string does not stay allocated
 * until the next one. */
#define SCRATCH_KEEP (1 << 20)

/* The arena: chunks that double in size, of which one is kept from parse to parse. */
typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk *next; /* the one filled before */
  gsize  size;
  gsize  used;
  gsize  padding; /* keeps the data after the header 16-byte aligned */
};

#define CHUNK_FIRST       (64 * 1024)
#define CHUNK_KEEP        (1024 * 1024)
#define CHUNK_DATA(chunk) ((char *)(chunk) + sizeof (Chunk))

/* An open array or object. Its values gather in LoomJsonDoc.pending until it closes, when
 * they are copied to the arena side by side. */
typedef struct
{
  gsize       first; /* where its values start in pending */
  const char *name;  /* its own name in the object around it */
  guint32     name_length;
  gboolean    is_object;
} Frame;

struct _LoomJsonDoc
{
  Chunk *chunk; /* the one allocations come from */

  LoomJson *pending;
  gsize     n_pending;
  gsize     pending_size;
  GSList   *handed_over; /* pending buffers that became a container's values: see pop () */

  Frame *stack;
  guint  stack_size;

  Scratch text;
};

/* Past this many pending values (a 64 MB array of numbers, say) the buffer is given back. */
#define PENDING_KEEP (64 * 1024)

/* A container of this many values or more keeps them where they gathered, rather than in a copy
 * in the arena: a hundred megabytes of tiny values would otherwise need twice the memory. */
#define PENDING_HAND_OVER (64 * 1024)

typedef struct
{
  LoomJsonDoc *doc;
  const char  *start;
  const char  *p;
  const char  *end;
  GError     **error;

  /* The first '"' and '\\' at or after where they were last looked for (end when none):
   * strings are scanned with memchr, and remembering what it found keeps a long string with
   * many escapes from being rescanned to its closing quote at every escape. */
  const char *quote;
  const char *backslash;

  const char *key; /* the member name the next value belongs to, in the arena */
  guint32     key_length;

  guint           depth;
  const LoomJson *root;
} Parser;

/* ——— Memory ——— */

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

G_GNUC_NO_INLINE static Chunk *
arena_grow (LoomJsonDoc *doc,
            gsize        size)
{
  gsize  chunk_size = doc->chunk != NULL ? doc->chunk->size * 2 : CHUNK_FIRST;
  Chunk *chunk;

  chunk_size = MAX (chunk_size, size);
  chunk = g_malloc (sizeof (Chunk) + chunk_size);
  chunk->next = doc->chunk;
  chunk->size = chunk_size;
  chunk->used = 0;
  doc->chunk = chunk;
  return chunk;
}

/* @size bytes, 8-aligned, until the next parse. */
static inline void *
arena_alloc (LoomJsonDoc *doc,
             gsize        size)
{
  Chunk *chunk = doc->chunk;
  void  *memory;

  size = (size + 7) & ~(gsize)7;
  if (G_UNLIKELY (chunk == NULL || chunk->size - chunk->used < size))
    chunk = arena_grow (doc, size);
  memory = CHUNK_DATA (chunk) + chunk->used;
  chunk->used += size;
  return memory;
}

/* Frees all chunks but the largest one that is not huge, so that records of a common size
 * reuse it and one record of a hundred megabytes does not keep them. */
static void
arena_reset (LoomJsonDoc *doc)
{
  Chunk *keep = NULL;
  Chunk *chunk = doc->chunk;

  g_slist_free_full (g_steal_pointer (&doc->handed_over), g_free);

  while (chunk != NULL)
    {
      Chunk *next = chunk->next;

      if (keep == NULL && chunk->size <= CHUNK_KEEP)
        keep = chunk;
      else
        g_free (chunk);
      chunk = next;
    }
  if (keep != NULL)
    {
      keep->next = NULL;
      keep->used = 0;
    }
  doc->chunk = keep;
}

static const char *
arena_strndup (LoomJsonDoc *doc,
               const char  *text,
               gsize        length)
{
  char *copy = arena_alloc (doc, length + 1);

  memcpy (copy, text, length);
  copy[length] = '\0';
  return copy;
}

LoomJsonDoc *
loom_json_doc_new (void)
{
  LoomJsonDoc *doc = g_new0 (LoomJsonDoc, 1);

  scratch_init (&doc->text);
  return doc;
}

void
loom_json_doc_free (LoomJsonDoc *doc)
{
  if (doc == NULL)
    return;
  arena_reset (doc);
  g_free (doc->chunk);
  g_free (doc->pending);
  g_free (doc->stack);
  scratch_clear (&doc->text);
  g_free (doc);
}

/* ——— Errors ——— */

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
append_utf8 (Scratch *out,
             gunichar c)
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
  int  unit, low;
  char c;

  if (self->end - p < 2)
    {
      fail (self, p, "unterminated escape");
      return NULL;
    }
  switch (p[1])
    {
    case '"':
      c = '"';
      break;
    case '\\':
      c = '\\';
      break;
    case '/':
      c = '/';
      break;
    case 'b':
      c = '\b';
      break;
    case 'f':
      c = '\f';
      break;
    case 'n':
      c = '\n';
      break;
    case 'r':
      c = '\r';
      break;
    case 't':
      c = '\t';
      break;

    case 'u':
      if (self->end - p < 6 || (unit = read_hex4 (p + 2)) < 0)
        {
          fail (self, p, "a \\u escape needs four hex digits");
          return NULL;
        }
      /* Pairs as loom_jsonl_fix_surrogates() pairs them, so that a line reads the same
       * whether the reader repaired it first or not: a high surrogate takes the low one
       * right after it, and any other surrogate becomes U+FFFD on its own. */
      if (unit >= 0xD800 && unit <= 0xDBFF && self->end - p >= 12 && p[6] == '\\' && p[7] == 'u' &&
          (low = read_hex4 (p + 8)) >= 0xDC00 && low <= 0xDFFF)
        {
          append_utf8 (out, 0x10000 + (((gunichar)unit - 0xD800) << 10) + ((gunichar)low - 0xDC00));
          return p + 12;
        }
      /* A NUL would end the C string that every consumer reads (the message text, the event
       * text, the stored payload, a member name) and lose what follows without a word; U+FFFD
       * keeps the rest, as it does for invalid UTF-8. Its three bytes fit in the escape's six. */
      if (unit == 0 || (unit >= 0xD800 && unit <= 0xDFFF))
        unit = 0xFFFD;
      append_utf8 (out, (gunichar)unit);
      return p + 6;

    default:
      fail (self, p, "invalid escape");
      return NULL;
    }
  scratch_append (out, &c, 1);
  return p + 2;
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
  gboolean    negative = FALSE, overflow = FALSE;
  guint64     magnitude = 0;

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
    gsize            n = (gsize)(self->p - start);
    char             small[64];
    g_autofree char *large = NULL;
    char            *copy = n < sizeof small ? small : (large = g_malloc (n + 1));

    memcpy (copy, start, n);
    copy[n] = '\0';
    *number = g_ascii_strtod (copy, NULL);
  }
  return TRUE;
}

/* Reads the string whose opening quote is at self->p into the arena, NUL-terminated, and moves
 * past its closing quote. Most strings hold no escape: they are copied once, straight from the
 * text; the others are decoded first. */
static gboolean
parse_string (Parser      *self,
              const char **string,
              gsize       *length)
{
  Scratch    *out = &self->doc->text;
  const char *open = self->p;
  const char *p = open + 1;

  {
    const char *quote = find_quote (self, p);

    if (quote < find_backslash (self, p))
      {
        *string = arena_strndup (self->doc, p, (gsize)(quote - p));
        *length = (gsize)(quote - p);
        self->p = quote + 1;
        return TRUE;
      }
  }

  out->len = 0;
  /* Every escape decodes to fewer bytes than it takes, and the last one may reserve four. */
  out->bound = (gsize)(self->end - p) + 8;
  for (;;)
    {
      const char *quote = find_quote (self, p);
      const char *backslash = find_backslash (self, p);
      const char *stop;
      gboolean    closes;

      if (quote == self->end && backslash == self->end)
        break;
      closes = quote < backslash;
      stop = closes ? quote : backslash;

      scratch_append (out, p, (gsize)(stop - p));
      if (closes)
        {
          /* The text holds no NUL (see loom_json_doc_parse ()) and no escape decodes to one
           * (see decode_escape ()), so the C string is the whole string. */
          *length = out->len;
          *string = arena_strndup (self->doc, out->data, *length);
          self->p = stop + 1;
          if (out->size > SCRATCH_KEEP)
            scratch_clear (out);
          return TRUE;
        }
      p = decode_escape (self, stop, out);
      if (p == NULL)
        return FALSE;
    }
  return fail (self, open, "unterminated string");
}

/* ——— Building the values ——— */

/* Puts a finished value where the text has it: the root, or the next value of the open
 * container. A value in an object takes the pending member name, unless it is a container,
 * which took it when it opened. */
static void
place (Parser   *self,
       LoomJson *value)
{
  LoomJsonDoc *doc = self->doc;
  Frame       *frame;

  if (self->depth == 0)
    {
      LoomJson *root = arena_alloc (doc, sizeof *root);

      *root = *value;
      self->root = root;
      return;
    }

  frame = &doc->stack[self->depth - 1];
  if (frame->is_object && value->name == NULL)
    {
      value->name = self->key;
      value->name_length = self->key_length;
    }
  if (G_UNLIKELY (doc->n_pending == doc->pending_size))
    {
      doc->pending_size = MAX (doc->pending_size * 2, 64);
      doc->pending = g_renew (LoomJson, doc->pending, doc->pending_size);
    }
  doc->pending[doc->n_pending++] = *value;
}

static gboolean
same_name (const LoomJson *a,
           const LoomJson *b)
{
  return a->name_length == b->name_length && memcmp (a->name, b->name, a->name_length) == 0;
}

/* Beyond this many members a table finds repeated names; below it, comparing each name with
 * those before it is quicker, and the lengths differ more often than not. */
#define MAX_PAIRWISE_MEMBERS 32

/* Keeps each member name once, at its first position with its last value, as json-glib did.
 * Returns how many members are left. */
static gsize
merge_repeated_names (LoomJson *members,
                      gsize     n)
{
  g_autoptr (GHashTable) seen = NULL;
  gsize kept = 0;

  if (n > MAX_PAIRWISE_MEMBERS)
    seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize i = 0; i < n; i++)
    {
      gsize at = kept;

      if (seen != NULL)
        {
          gpointer index;

          if (g_hash_table_lookup_extended (seen, members[i].name, NULL, &index))
            at = GPOINTER_TO_SIZE (index);
          else
            g_hash_table_insert (seen, (gpointer)members[i].name, GSIZE_TO_POINTER (kept));
        }
      else
        {
          for (gsize j = 0; j < kept; j++)
            if (same_name (&members[j], &members[i]))
              {
                at = j;
                break;
              }
        }

      if (at == kept)
        members[kept++] = members[i];
      else
        {
          const char *name = members[at].name;

          members[at] = members[i];
          members[at].name = name;
        }
    }
  return kept;
}

/* Closes the container at the top of the stack: its values move from pending to the arena, side
 * by side (a great many stay where they are), and it takes its place in the container around
 * it. */
static void
pop (Parser *self)
{
  LoomJsonDoc *doc = self->doc;
  Frame       *frame = &doc->stack[--self->depth];
  gsize        n = doc->n_pending - frame->first;
  LoomJson     value = { 0 };
  LoomJson    *children = NULL;

  if (n >= PENDING_HAND_OVER && frame->first <= n / 4)
    {
      /* The buffer becomes the values' home until the next parse; the few values before them
       * (of the containers around this one) move to a new one instead. */
      LoomJson *buffer = doc->pending;

      children = buffer + frame->first;
      doc->handed_over = g_slist_prepend (doc->handed_over, buffer);
      doc->pending_size = MAX (frame->first * 2, 64);
      doc->pending = g_new (LoomJson, doc->pending_size);
      memcpy (doc->pending, buffer, frame->first * sizeof (LoomJson));
    }
  else if (n > 0)
    {
      children = arena_alloc (doc, n * sizeof (LoomJson));
      memcpy (children, doc->pending + frame->first, n * sizeof (LoomJson));
    }
  doc->n_pending = frame->first;
  if (frame->is_object && n > 1)
    n = merge_repeated_names (children, n);

  value.name = frame->name;
  value.name_length = frame->name_length;
  value.type = frame->is_object ? LOOM_JSON_OBJECT : LOOM_JSON_ARRAY;
  value.length = n;
  value.v.children = children;
  place (self, &value);
}

/* Reads `"name" :` into self->key. */
static gboolean
parse_member_name (Parser *self)
{
  gsize length;

  skip_space (self);
  if (self->p >= self->end || *self->p != '"')
    return fail_unexpected (self, "a member name");
  if (!parse_string (self, &self->key, &length))
    return FALSE;
  if (length > G_MAXUINT32)
    return fail (self, self->p, "a member name longer than 4 GB");
  self->key_length = (guint32)length;
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

/* Opens the array or object at self->p. */
static void
push (Parser  *self,
      gboolean is_object)
{
  LoomJsonDoc *doc = self->doc;
  Frame       *frame;

  if (self->depth == doc->stack_size)
    {
      doc->stack_size = MAX (doc->stack_size * 2, 32);
      doc->stack = g_renew (Frame, doc->stack, doc->stack_size);
    }
  frame = &doc->stack[self->depth];
  frame->first = doc->n_pending;
  frame->is_object = is_object;
  /* The name it has in the object around it: the pending key, before its own members'. */
  if (self->depth > 0 && doc->stack[self->depth - 1].is_object)
    {
      frame->name = self->key;
      frame->name_length = self->key_length;
    }
  else
    {
      frame->name = NULL;
      frame->name_length = 0;
    }
  self->depth++;
}

/* Reads one value at self->p and places it. A container is pushed and its first member name
 * read; *@more is then TRUE, meaning a value is expected next. */
static gboolean
parse_value (Parser   *self,
             gboolean *more)
{
  const char *word = NULL;
  LoomJson    value = { 0 };

  *more = FALSE;
  skip_space (self);
  if (self->p >= self->end)
    return fail_unexpected (self, "a value");

  switch (*self->p)
    {
    case '{':
    case '[':
      if (self->depth >= LOOM_JSON_MAX_DEPTH)
        return fail (self, self->p,
                     "nested deeper than " G_STRINGIFY (LOOM_JSON_MAX_DEPTH) " levels");
      {
        gboolean is_object = *self->p == '{';

        push (self, is_object);
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
      if (!parse_string (self, &value.v.string, &value.length))
        return FALSE;
      value.type = LOOM_JSON_STRING;
      place (self, &value);
      return TRUE;

    case 't':
      value.type = LOOM_JSON_BOOLEAN;
      value.v.boolean = TRUE;
      word = "true";
      break;

    case 'f':
      value.type = LOOM_JSON_BOOLEAN;
      value.v.boolean = FALSE;
      word = "false";
      break;

    case 'n':
      value.type = LOOM_JSON_NULL;
      word = "null";
      break;

    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      {
        gboolean is_int;

        if (!parse_number (self, &is_int, &value.v.integer, &value.v.number))
          return FALSE;
        value.type = is_int ? LOOM_JSON_INT : LOOM_JSON_DOUBLE;
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
      Frame *frame = &self->doc->stack[self->depth - 1];

      skip_space (self);
      if (self->p < self->end && *self->p == ',')
        {
          self->p++;
          if (frame->is_object && !parse_member_name (self))
            return FALSE;
          *more = TRUE;
          return TRUE;
        }
      if (self->p < self->end && *self->p == (frame->is_object ? '}' : ']'))
        {
          self->p++;
          pop (self);
          continue;
        }
      return fail_unexpected (self, frame->is_object ? "“,” or “}”" : "“,” or “]”");
    }

  skip_space (self);
  if (self->p < self->end)
    return fail_unexpected (self, "the end of the text");
  return TRUE;
}

const LoomJson *
loom_json_doc_parse (LoomJsonDoc *doc,
                     const char  *text,
                     gsize        length,
                     GError     **error)
{
  Parser      parser = { 0 };
  Parser     *self = &parser;
  const char *nul;
  gboolean    ok, more;

  g_return_val_if_fail (doc != NULL, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  arena_reset (doc);
  doc->n_pending = 0;
  if (doc->pending_size > PENDING_KEEP)
    {
      g_clear_pointer (&doc->pending, g_free);
      doc->pending_size = 0;
    }

  if (text == NULL)
    text = "";
  nul = memchr (text, '\0', length);
  if (nul != NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_PARSE, "a NUL byte at byte %" G_GSIZE_FORMAT,
                   (gsize)(nul - text));
      return NULL;
    }

  self->doc = doc;
  self->start = text;
  self->p = text;
  self->end = text + length;
  self->error = error;
  self->quote = text;
  self->backslash = text;

  if (length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    self->p += 3;

  do
    ok = parse_value (self, &more) && (more || parse_after_value (self, &more));
  while (ok && more);

  return ok ? self->root : NULL;
}
