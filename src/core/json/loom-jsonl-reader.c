/* loom-jsonl-reader.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loom-error.h"
#include "loom-json-value.h"
#include "loom-jsonl-reader.h"

/* The depth guard before parsing must refuse what the parser would, so that a deep record is
 * reported as too deep rather than as invalid JSON. */
G_STATIC_ASSERT (LOOM_JSONL_MAX_DEPTH <= LOOM_JSON_MAX_DEPTH)
;

/* Lines are read this much at a time, and a line is gathered from the chunks only up to the
 * record limit: getline () would have held a line of any size whole. */
#define READ_CHUNK (64 * 1024)

struct _LoomJsonlReader
{
  FILE           *fp;
  char           *path;
  LoomJsonDoc    *doc; /* holds the last value parsed, until the next parse */
  const LoomJson *current;

  char   *line; /* the current physical line, without its newline */
  gsize   capacity;
  gsize   len;
  guint64 line_size;  /* of the whole line, when it was too large to hold */
  guint64 max_record; /* loom_max_record_bytes () */

  char       *chunk;       /* read from fp, READ_CHUNK bytes at a time */
  gsize       chunk_start; /* the next byte of it not yet taken */
  gsize       chunk_end;
  char       *valid; /* a repaired copy when the line was not valid UTF-8 */
  const char *text;  /* line or valid */

  GArray  *ends; /* gsize: where each value on the line ends */
  guint    next_value;
  gboolean next_parsed; /* current is that value already: the line parsed whole */

  guint64  line_no; /* of the current line */
  guint64  lines_consumed;
  guint64  offset;   /* after the last consumed line */
  guint64  position; /* of the next byte not taken from the chunk, counted */
  guint64  records;
  gboolean pending_tail;
};

LoomJsonlReader *
loom_jsonl_reader_new (const char *path,
                       guint64     offset,
                       guint64     line,
                       GError    **error)
{
  g_autoptr (LoomJsonlReader) self = g_new0 (LoomJsonlReader, 1);

  g_return_val_if_fail (path != NULL, NULL);

  self->path = g_strdup (path);
  self->offset = offset;
  self->position = offset;
  self->line_no = line;
  self->lines_consumed = line;
  self->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->doc = loom_json_doc_new ();
  self->chunk = g_malloc (READ_CHUNK);
  self->max_record = loom_max_record_bytes ();

  /* Read-only, always: the agents' files are never ours to change. */
  self->fp = fopen (path, "rbe");
  if (self->fp == NULL)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not open “%s”: %s", path,
                   g_strerror (saved_errno));
      return NULL;
    }
  if (offset > 0 && fseeko (self->fp, (off_t)offset, SEEK_SET) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not seek in “%s”: %s", path,
                   g_strerror (saved_errno));
      return NULL;
    }
  return g_steal_pointer (&self);
}

void
loom_jsonl_reader_free (LoomJsonlReader *self)
{
  if (self == NULL)
    return;
  if (self->fp != NULL)
    fclose (self->fp);
  g_clear_pointer (&self->doc, loom_json_doc_free);
  g_clear_pointer (&self->ends, g_array_unref);
  g_free (self->line);
  g_free (self->chunk);
  g_free (self->valid);
  g_free (self->path);
  g_free (self);
}

static gsize
find_byte (const char *text,
           gsize       len,
           gsize       from,
           char        c)
{
  const char *found = memchr (text + from, c, len - from);

  return found != NULL ? (gsize)(found - text) : len;
}

/* Where the string whose contents start at @i ends: the index of its closing quote, or @len.
 * Strings are most of a line's bytes, so they are skipped with memchr, and *@quote and
 * *@backslash remember its last answers (the first of each at or after where it looked), so
 * that the escapes of a long string do not each rescan it up to its closing quote. */
static gsize
string_end (const char *text,
            gsize       len,
            gsize       i,
            gsize      *quote,
            gsize      *backslash)
{
  for (;;)
    {
      if (*quote < i)
        *quote = find_byte (text, len, i, '"');
      if (*backslash < i)
        *backslash = find_byte (text, len, i, '\\');
      if (*quote < *backslash)
        return *quote;
      if (*backslash >= len)
        return len;
      /* An escape: the byte after the backslash, whatever it is, is taken as it is. */
      i = *backslash + 2;
      if (i >= len)
        return len;
    }
}

int
loom_jsonl_split_values (const char *text,
                         gsize       len,
                         int         max_depth,
                         gsize      *ends,
                         int         max_values)
{
  gboolean in_string = FALSE;
  gboolean in_value = FALSE;
  gsize    quote = 0, backslash = 0;
  int      depth = 0;
  int      n = 0;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      switch (c)
        {
        case '"':
          in_value = TRUE;
          i = string_end (text, len, i + 1, &quote, &backslash);
          in_string = i >= len;
          break;

        case '{':
        case '[':
          if (++depth > max_depth)
            return -1;
          in_value = TRUE;
          break;

        case '}':
        case ']':
          depth--;
          if (depth <= 0)
            {
              depth = 0;
              if (n < max_values)
                ends[n] = i + 1;
              n++;
              in_value = FALSE;
            }
          break;

        case ' ':
        case '\t':
        case '\r':
          break;

        default:
          in_value = TRUE;
          break;
        }
    }

  /* Whatever follows the last complete value (a scalar, or an unterminated object) is one
   * more value, which the parser will judge. */
  if (in_value || depth > 0 || in_string)
    {
      if (n < max_values)
        ends[n] = len;
      n++;
    }
  return MIN (n, max_values);
}

static int
hex_value (char c)
{
  return g_ascii_xdigit_value (c);
}

static guint
read_escape (const char *p)
{
  return (guint)(hex_value (p[2]) << 12 | hex_value (p[3]) << 8 | hex_value (p[4]) << 4 |
                 hex_value (p[5]));
}

static gboolean
is_u_escape (const char *p,
             const char *end)
{
  return end - p >= 6 && p[0] == '\\' && p[1] == 'u' && g_ascii_isxdigit (p[2]) &&
         g_ascii_isxdigit (p[3]) && g_ascii_isxdigit (p[4]) && g_ascii_isxdigit (p[5]);
}

guint
loom_jsonl_fix_surrogates (char *text,
                           gsize len)
{
  return loom_jsonl_fix_surrogates_full (text, len, NULL);
}

guint
loom_jsonl_fix_surrogates_full (char  *text,
                                gsize  len,
                                gsize *first_fixed)
{
  char *end = text + len;
  char *p = text;
  guint fixed = 0;

  /* Only escapes matter, and most of a line has none: memchr jumps from one to the next. */
  while (p < end && (p = memchr (p, '\\', (gsize)(end - p))) != NULL)
    {
      guint unit;

      if (!is_u_escape (p, end))
        {
          p += 2; /* past the escaped character, which may be a backslash */
          continue;
        }

      unit = read_escape (p);
      if (unit >= 0xD800 && unit <= 0xDBFF && is_u_escape (p + 6, end) &&
          read_escape (p + 6) >= 0xDC00 && read_escape (p + 6) <= 0xDFFF)
        {
          p += 12; /* a proper pair */
          continue;
        }
      if (unit >= 0xD800 && unit <= 0xDFFF)
        {
          if (fixed == 0 && first_fixed != NULL)
            *first_fixed = (gsize)(p - text);
          memcpy (p, "\\uFFFD", 6);
          fixed++;
        }
      p += 6;
    }
  return fixed;
}

guint64
loom_max_record_bytes (void)
{
  const char *value = g_getenv ("LOOM_MAX_RECORD_BYTES");
  guint64     bytes;

  if (value != NULL && g_ascii_string_to_unsigned (value, 10, 1, G_MAXUINT64, &bytes, NULL))
    return MIN (bytes, LOOM_MAX_RECORD_BYTES_DEFAULT);
  return LOOM_MAX_RECORD_BYTES_DEFAULT;
}

/* Sizes as people read them: whole megabytes, or a tenth of one below ten. */
static char *
format_megabytes (guint64 bytes)
{
  const guint64 mb = 1024 * 1024;

  if (bytes < mb / 10)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", bytes);
  if (bytes % mb == 0 || bytes >= 10 * mb)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " MB", (bytes + mb / 2) / mb);
  return g_strdup_printf ("%.1f MB", (double)bytes / (double)mb);
}

char *
loom_record_too_large_message (const char *what,
                               guint64     size)
{
  g_autofree char *size_text = format_megabytes (size);
  g_autofree char *limit_text = format_megabytes (loom_max_record_bytes ());

  return g_strdup_printf ("a %s of %s is over the %s limit; skipped", what, size_text, limit_text);
}

/* Appends @n bytes to the line, unless the line is already over the limit: then they are only
 * counted. */
static void
take_bytes (LoomJsonlReader *self,
            const char      *bytes,
            gsize            n)
{
  self->line_size += n;
  if (self->line_size > self->max_record + 2) /* with room for its "\r\n" */
    {
      /* Nothing of it is kept, or the largest line would stay allocated to the end. */
      if (self->capacity > READ_CHUNK)
        {
          g_clear_pointer (&self->line, g_free);
          self->capacity = 0;
        }
      self->len = 0;
      return;
    }
  if (self->len + n + 1 > self->capacity)
    {
      self->capacity = MAX (self->capacity * 2, self->len + n + 1);
      self->line = g_realloc (self->line, self->capacity);
    }
  memcpy (self->line + self->len, bytes, n);
  self->len += n;
}

/* Reads the next physical line. Returns FALSE at the end of the file or on error. A line over
 * the record limit is read to its end and *@too_large set, with only its start kept. */
static gboolean
read_line (LoomJsonlReader *self,
           gboolean        *has_newline,
           gboolean        *too_large,
           GError         **error)
{
  gboolean any = FALSE;

  self->len = 0;
  self->line_size = 0;
  *has_newline = FALSE;
  for (;;)
    {
      const char *start, *newline;
      gsize       n;

      if (self->chunk_start == self->chunk_end)
        {
          gsize got = fread (self->chunk, 1, READ_CHUNK, self->fp);

          if (got == 0)
            {
              if (ferror (self->fp))
                {
                  int saved_errno = errno;
                  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not read “%s”: %s",
                               self->path, g_strerror (saved_errno));
                  return FALSE;
                }
              break;
            }
          self->chunk_start = 0;
          self->chunk_end = got;
        }

      any = TRUE;
      start = self->chunk + self->chunk_start;
      newline = memchr (start, '\n', self->chunk_end - self->chunk_start);
      n = newline != NULL ? (gsize)(newline - start) + 1 : self->chunk_end - self->chunk_start;
      take_bytes (self, start, n);
      self->chunk_start += n;
      self->position += n;
      if (newline != NULL)
        {
          *has_newline = TRUE;
          break;
        }
    }
  if (!any)
    return FALSE;

  /* Even empty, the line is a string: the repairs below write in it. */
  if (self->line == NULL)
    {
      self->capacity = 1;
      self->line = g_malloc (self->capacity);
    }
  if (*has_newline && self->len > 0 && self->line[self->len - 1] == '\n')
    self->len--;
  if (self->len > 0 && self->line[self->len - 1] == '\r')
    self->len--;
  self->line[self->len] = '\0';

  /* The size of the record, without its line ending. */
  if (self->line_size <= self->max_record + 2)
    self->line_size = self->len;
  else if (*has_newline)
    self->line_size--;
  *too_large = self->line_size > self->max_record;
  return TRUE;
}

/* Goes back to @position, for a line read again later. */
static void
seek_back (LoomJsonlReader *self,
           guint64          position)
{
  self->chunk_start = self->chunk_end = 0;
  if (fseeko (self->fp, (off_t)position, SEEK_SET) == 0)
    self->position = position;
}

static gboolean
is_blank (const char *text,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

static gboolean
value_bounds (LoomJsonlReader *self,
              guint            index,
              gsize           *start,
              gsize           *length)
{
  gsize begin = index == 0 ? 0 : g_array_index (self->ends, gsize, index - 1);
  gsize end = g_array_index (self->ends, gsize, index);

  while (begin < end && g_ascii_isspace (self->text[begin]))
    begin++;
  /* A byte order mark alone is no value: json-glib skipped it, found nothing and said nothing. */
  if (end - begin >= 3 && memcmp (self->text + begin, "\xef\xbb\xbf", 3) == 0 &&
      is_blank (self->text + begin + 3, end - begin - 3))
    begin = end;
  *start = begin;
  *length = end - begin;
  return *length > 0;
}

/* Replaces the current value, as JsonParser replaced its root on every load. */
static gboolean
parse_value (LoomJsonlReader *self,
             gsize            start,
             gsize            length,
             GError         **error)
{
  self->current = loom_json_doc_parse (self->doc, self->text + start, length, error);
  return self->current != NULL;
}

/* A last line without a newline may still be being written: it is taken only when every
 * value on it parses. */
static gboolean
tail_is_complete (LoomJsonlReader *self)
{
  if (self->next_parsed)
    return TRUE;
  for (guint i = 0; i < self->ends->len; i++)
    {
      gsize start, length;

      if (value_bounds (self, i, &start, &length) && !parse_value (self, start, length, NULL))
        return FALSE;
    }
  return TRUE;
}

#define ONES  G_GUINT64_CONSTANT (0x0101010101010101)
#define HIGHS G_GUINT64_CONSTANT (0x8080808080808080)

/* g_utf8_validate_len (), which refuses NUL bytes too, but quicker on the plain ASCII that
 * four fifths of a transcript's bytes are: those are skipped eight at a time, up to the first
 * word with a byte of 0x80 or above, or a NUL. */
static gboolean
is_valid_utf8 (const char *text,
               gsize       len)
{
  const char *p = text;
  const char *end = text + len;

  for (; end - p >= 8; p += 8)
    {
      guint64 word;

      memcpy (&word, p, sizeof word);
      if (((word | ((word - ONES) & ~word)) & HIGHS) != 0)
        break;
    }
  return g_utf8_validate_len (p, (gsize)(end - p), NULL);
}

/* Prepares the values of a freshly read line. Returns a problem to report, or NULL. */
static char *
prepare_line (LoomJsonlReader *self)
{
  g_autoptr (GString) problem = NULL;
  gsize max_values;
  guint fixed;
  int   n;

  g_clear_pointer (&self->valid, g_free);
  self->text = self->line;
  g_array_set_size (self->ends, 0);
  self->next_value = 0;
  self->next_parsed = FALSE;

  if (!is_valid_utf8 (self->line, self->len))
    {
      self->valid = g_utf8_make_valid (self->line, (gssize)self->len);
      self->text = self->valid;
      self->len = strlen (self->valid);
      problem = g_string_new ("invalid UTF-8 was replaced by U+FFFD");
    }

  fixed = loom_jsonl_fix_surrogates ((char *)self->text, self->len);
  if (fixed > 0)
    {
      if (problem == NULL)
        problem = g_string_new (NULL);
      else
        g_string_append (problem, "; ");
      g_string_append_printf (problem, "%u unpaired surrogate escape(s) were replaced by U+FFFD",
                              fixed);
    }

  /* Nearly every line is one value, and parsing it whole settles that without splitting the
   * line first. Anything else (several values, nesting too deep, not JSON) is split, and each
   * value parsed and reported on its own, as if this had not been tried. */
  if (parse_value (self, 0, self->len, NULL))
    {
      gsize end = self->len;

      g_array_append_val (self->ends, end);
      self->next_parsed = TRUE;
      return problem ? g_string_free (g_steal_pointer (&problem), FALSE) : NULL;
    }

  /* Most lines hold one value; a few hold two. Count first, then collect. */
  max_values = 4;
  for (;;)
    {
      g_array_set_size (self->ends, max_values);
      n = loom_jsonl_split_values (self->text, self->len, LOOM_JSONL_MAX_DEPTH,
                                   (gsize *)(gpointer)self->ends->data, (int)max_values);
      if (n < 0 || (gsize)n < max_values)
        break;
      max_values *= 4;
    }

  if (n < 0)
    {
      g_array_set_size (self->ends, 0);
      return g_strdup_printf ("the record nests deeper than %d levels and was skipped",
                              LOOM_JSONL_MAX_DEPTH);
    }
  g_array_set_size (self->ends, (guint)n);

  if (n > 1)
    {
      if (problem == NULL)
        problem = g_string_new (NULL);
      else
        g_string_append (problem, "; ");
      g_string_append_printf (problem, "%d JSON values on one line, read one by one", n);
    }

  return problem ? g_string_free (g_steal_pointer (&problem), FALSE) : NULL;
}

LoomJsonlResult
loom_jsonl_reader_next (LoomJsonlReader *self,
                        const LoomJson **record,
                        char           **problem,
                        GError         **error)
{
  g_return_val_if_fail (self != NULL, LOOM_JSONL_ERROR);

  *record = NULL;
  *problem = NULL;

  for (;;)
    {
      gboolean has_newline = FALSE;
      gboolean too_large = FALSE;
      guint64  line_start;

      while (self->next_value < self->ends->len)
        {
          g_autoptr (GError) parse_error = NULL;
          gsize start, length;

          if (self->next_parsed)
            {
              self->next_parsed = FALSE;
              self->next_value++;
              *record = self->current;
              self->records++;
              return LOOM_JSONL_RECORD;
            }
          if (!value_bounds (self, self->next_value++, &start, &length))
            continue;
          if (!parse_value (self, start, length, &parse_error))
            {
              *problem = g_strdup_printf ("not valid JSON (%s)", parse_error->message);
              return LOOM_JSONL_BAD;
            }
          *record = self->current;
          self->records++;
          return LOOM_JSONL_RECORD;
        }

      if (self->pending_tail)
        return LOOM_JSONL_END;

      line_start = self->position;
      if (!read_line (self, &has_newline, &too_large, error))
        return error != NULL && *error != NULL ? LOOM_JSONL_ERROR : LOOM_JSONL_END;
      self->line_no++;

      if (too_large && has_newline)
        {
          self->offset = self->position;
          self->lines_consumed = self->line_no;
          *problem = loom_record_too_large_message ("record", self->line_size);
          return LOOM_JSONL_BAD;
        }
      if (too_large)
        {
          /* Still being written, perhaps, as any last line without a newline: it is skipped
           * once it is whole, and nothing of it is parsed meanwhile. */
          self->pending_tail = TRUE;
          self->line_no--;
          seek_back (self, line_start);
          return LOOM_JSONL_END;
        }

      if (is_blank (self->line, self->len))
        {
          if (has_newline)
            {
              self->offset = self->position;
              self->lines_consumed = self->line_no;
            }
          continue;
        }

      *problem = prepare_line (self);

      if (!has_newline && self->ends->len > 0 && !tail_is_complete (self))
        {
          /* Half written, probably: read it again when the file grows. */
          g_clear_pointer (problem, g_free);
          g_array_set_size (self->ends, 0);
          self->pending_tail = TRUE;
          self->line_no--;
          seek_back (self, line_start);
          return LOOM_JSONL_END;
        }

      self->offset = self->position;
      self->lines_consumed = self->line_no;
      if (*problem != NULL)
        return LOOM_JSONL_BAD;
    }
}

guint64
loom_jsonl_reader_get_line (LoomJsonlReader *self)
{
  return self->line_no;
}

guint64
loom_jsonl_reader_get_offset (LoomJsonlReader *self)
{
  return self->offset;
}

guint64
loom_jsonl_reader_get_lines_consumed (LoomJsonlReader *self)
{
  return self->lines_consumed;
}

guint64
loom_jsonl_reader_get_records (LoomJsonlReader *self)
{
  return self->records;
}

gboolean
loom_jsonl_reader_has_pending_tail (LoomJsonlReader *self)
{
  return self->pending_tail;
}
