/* loom-json-salvage.c — rebuilding a whole document from the parts of it that parse.
 *
 * Agents rewrite their whole-document sessions in place, so a pass can read one half-written,
 * and one record the parser refuses must not cost the session. The scanner here only finds where
 * each part begins and ends — strings by their quotes, containers by their brackets — without
 * recursion, since a hostile record may nest a million levels deep; judging a part is left to
 * the real parser, one part at a time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-json-salvage.h"
#include "loom-json-value.h"

/* Member names are quoted in problems; a hostile one is cut to this many bytes. */
#define NAME_LIMIT 64

typedef struct
{
  const char  *text;
  gsize        length;
  gsize        pos;
  guint        max_depth;
  GPtrArray   *problems;
  GString     *out;
  LoomJsonDoc *scratch; /* judges each part on its own */

  /* Lines are counted once, forward, as problems need them. */
  gsize   counted_to;
  guint64 line;
} Salvage;

/* Why scanning stopped short of the root's end. */
typedef enum
{
  STOP_NONE,
  STOP_TRUNCATED, /* the text ends inside the document */
  STOP_SYNTAX,    /* something that is not JSON between parts */
} Stop;

void
loom_json_problem_free (gpointer problem)
{
  LoomJsonProblem *self = problem;

  if (self == NULL)
    return;
  g_free (self->message);
  g_free (self);
}

static guint64
line_at (Salvage *self,
         gsize    offset)
{
  if (offset < self->counted_to)
    {
      self->counted_to = 0;
      self->line = 1;
    }
  for (const char *p = self->text + self->counted_to, *end = self->text + offset;
       p < end && (p = memchr (p, '\n', (gsize)(end - p))) != NULL; p++)
    self->line++;
  self->counted_to = offset;
  return self->line;
}

static void add_problem (Salvage    *self,
                         gsize       offset,
                         const char *format,
                         ...) G_GNUC_PRINTF (3,
                                             4);

static void
add_problem (Salvage    *self,
             gsize       offset,
             const char *format,
             ...)
{
  LoomJsonProblem *problem = g_new0 (LoomJsonProblem, 1);
  va_list          args;

  problem->line = line_at (self, offset);
  va_start (args, format);
  problem->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (self->problems, problem);
}

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static void
skip_space (Salvage *self)
{
  while (self->pos < self->length && is_space (self->text[self->pos]))
    self->pos++;
}

/* Where a scalar stops: anything that may follow a value, or begin another. */
static gboolean
ends_scalar (char c)
{
  return is_space (c) || c == ',' || c == ']' || c == '}' || c == ':' || c == '"' || c == '[' ||
         c == '{';
}

/* @i is just past an opening quote. Sets @end just past the closing one; FALSE when the text
 * ends first. */
static gboolean
find_string_end (const char *text,
                 gsize       length,
                 gsize       i,
                 gsize      *end)
{
  const char *quote = NULL;

  /* The quote is searched again only once an escape has taken us past it, so a long string
   * full of escapes is still read once. */
  while (i < length)
    {
      const char *backslash;

      if (quote == NULL || quote < text + i)
        {
          quote = memchr (text + i, '"', length - i);
          if (quote == NULL)
            return FALSE;
        }
      backslash = memchr (text + i, '\\', (gsize)(quote - (text + i)));
      if (backslash == NULL)
        {
          *end = (gsize)(quote - text) + 1;
          return TRUE;
        }
      i = (gsize)(backslash - text) + 2; /* the escaped byte, whatever it is, is skipped */
    }
  return FALSE;
}

gboolean
loom_json_find_value_end (const char *text,
                          gsize       length,
                          gsize       start,
                          gsize      *end,
                          guint      *deepest)
{
  guint depth = 0;
  gsize i = start;

  *deepest = 0;
  if (start >= length)
    return FALSE;

  if (text[start] == '"')
    return find_string_end (text, length, start + 1, end);

  if (text[start] != '{' && text[start] != '[')
    {
      while (i < length && !ends_scalar (text[i]))
        i++;
      *end = i;
      return i < length; /* a document never ends in a scalar */
    }

  while (i < length)
    {
      switch (text[i])
        {
        case '"':
          if (!find_string_end (text, length, i + 1, &i))
            return FALSE;
          continue;

        case '{':
        case '[':
          depth++;
          *deepest = MAX (*deepest, depth);
          break;

        case '}':
        case ']':
          if (--depth == 0)
            {
              *end = i + 1;
              return TRUE;
            }
          break;

        default:
          break;
        }
      i++;
    }
  return FALSE;
}

/* Whether the part parses on its own. A byte order mark is allowed at the start of a text but
 * not inside a container, so a part that starts with one does not. */
static gboolean
part_parses (Salvage *self,
             gsize    start,
             gsize    end,
             GError **error)
{
  if (end > start && self->text[start] == '\xEF')
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_PARSE,
                           "a byte order mark inside the document");
      return FALSE;
    }
  return loom_json_doc_parse (self->scratch, self->text + start, end - start, error) != NULL;
}

/* The member's name as problems quote it, from the name's parsed text; NULL when the name
 * itself does not parse. */
static char *
describe_member (Salvage *self,
                 gsize    name_start,
                 gsize    name_end)
{
  const LoomJson *name = loom_json_doc_parse (self->scratch, self->text + name_start,
                                              name_end - name_start, NULL);
  const char     *string = loom_json_string (name);
  const char     *cut;

  if (string == NULL)
    return NULL;
  if (strlen (string) <= NAME_LIMIT)
    return g_strdup_printf ("“%s”", string);
  cut = g_utf8_find_prev_char (string, string + NAME_LIMIT + 1);
  return g_strdup_printf ("“%.*s…”", (int)(cut != NULL ? cut - string : NAME_LIMIT), string);
}

static Stop
stop_here (Salvage *self,
           gsize    offset)
{
  if (offset >= self->length)
    {
      add_problem (self, offset,
                   "the document ends here, before it is complete: what it holds from here on "
                   "was left out, and is read again when the file changes");
      ((LoomJsonProblem *)g_ptr_array_index (self->problems, self->problems->len - 1))->truncated =
        TRUE;
      return STOP_TRUNCATED;
    }
  add_problem (self, offset,
               "the document is not valid JSON from here on (unexpected byte 0x%02x): the rest "
               "was left out, and is read again when the file changes",
               (guchar)self->text[offset]);
  return STOP_SYNTAX;
}

/* A part ended at self->pos: what follows must be a comma before the next one or @closing. Sets
 * @closed at @closing. */
static Stop
after_part (Salvage  *self,
            char      closing,
            gboolean *closed)
{
  *closed = FALSE;
  skip_space (self);
  if (self->pos < self->length && self->text[self->pos] == closing)
    {
      self->pos++;
      *closed = TRUE;
      return STOP_NONE;
    }
  if (self->pos >= self->length || self->text[self->pos] != ',')
    return stop_here (self, self->pos);
  self->pos++;
  skip_space (self);
  /* No trailing comma: the parser refuses one. */
  if (self->pos >= self->length || self->text[self->pos] == closing)
    return stop_here (self, self->pos);
  return STOP_NONE;
}

/* One value that is kept or left out whole; @what names it in problems. @containers is how many
 * containers are open around it. An element left out leaves a null in its place (@prefix_start
 * is NULL for elements): importers name records by their position, and the records after it
 * must keep theirs, or a pass that does not clear would take them for others. */
static Stop
salvage_value (Salvage    *self,
               guint       containers,
               const char *what,
               const char *prefix_start,
               gsize       prefix_length,
               gboolean   *any_kept)
{
  g_autoptr (GError) error = NULL;
  gsize start = self->pos, end;
  guint deepest;

  if (!loom_json_find_value_end (self->text, self->length, start, &end, &deepest))
    return stop_here (self, self->length);
  if (end == start) /* a comma or a bracket where a value should be */
    return stop_here (self, start);
  self->pos = end;

  if (deepest + containers > self->max_depth)
    add_problem (self, start, "%s nests deeper than %u levels and was left out", what,
                 self->max_depth);
  else if (!part_parses (self, start, end, &error))
    add_problem (self, start,
                 "%s is not valid JSON and was left out: %s (counted from its "
                 "start)",
                 what, error->message);
  else
    {
      if (*any_kept)
        g_string_append_c (self->out, ',');
      *any_kept = TRUE;
      g_string_append_len (self->out, prefix_start, (gssize)prefix_length);
      g_string_append_len (self->out, self->text + start, (gssize)(end - start));
      return STOP_NONE;
    }

  if (prefix_start == NULL)
    {
      if (*any_kept)
        g_string_append_c (self->out, ',');
      *any_kept = TRUE;
      g_string_append (self->out, "null");
    }
  return STOP_NONE;
}

/* A member whose value is an array: its elements are the records, each kept or left out on its
 * own. The member is kept, empty if need be, so that its readers find the array. */
static Stop
salvage_array (Salvage    *self,
               const char *name,
               gsize       member_start,
               gboolean   *any_kept)
{
  gboolean kept_element = FALSE;
  gboolean closed = FALSE;
  Stop     stop = STOP_NONE;

  if (*any_kept)
    g_string_append_c (self->out, ',');
  *any_kept = TRUE;
  g_string_append_len (self->out, self->text + member_start,
                       (gssize)(self->pos + 1 - member_start));
  self->pos++; /* the [ */

  skip_space (self);
  if (self->pos < self->length && self->text[self->pos] == ']')
    {
      self->pos++;
      closed = TRUE;
    }
  else if (self->pos >= self->length)
    stop = stop_here (self, self->pos);

  for (guint index = 0; !closed && stop == STOP_NONE; index++)
    {
      g_autofree char *what = g_strdup_printf ("element %u of %s", index, name);

      stop = salvage_value (self, 2, what, NULL, 0, &kept_element);
      if (stop == STOP_NONE)
        stop = after_part (self, ']', &closed);
    }

  g_string_append_c (self->out, ']');
  return stop;
}

static Stop
salvage_member (Salvage  *self,
                gboolean *any_kept)
{
  g_autofree char *name = NULL;
  g_autofree char *what = NULL;
  gsize            member_start = self->pos, name_end;

  if (self->pos >= self->length || self->text[self->pos] != '"')
    return stop_here (self, self->pos);
  if (!find_string_end (self->text, self->length, self->pos + 1, &name_end))
    return stop_here (self, self->length);
  name = describe_member (self, member_start, name_end);

  self->pos = name_end;
  skip_space (self);
  if (self->pos >= self->length || self->text[self->pos] != ':')
    return stop_here (self, self->pos);
  self->pos++;
  skip_space (self);
  if (self->pos >= self->length)
    return stop_here (self, self->pos);

  /* A name that does not parse cannot be written back: its value goes with it. */
  if (name == NULL)
    {
      gsize start = self->pos, end;
      guint deepest;

      if (!loom_json_find_value_end (self->text, self->length, start, &end, &deepest))
        return stop_here (self, self->length);
      if (end == start)
        return stop_here (self, start);
      self->pos = end;
      add_problem (self, member_start, "a member whose name is not valid JSON was left out");
      return STOP_NONE;
    }

  if (self->text[self->pos] == '[')
    return salvage_array (self, name, member_start, any_kept);

  what = g_strdup_printf ("the member %s", name);
  return salvage_value (self, 1, what, self->text + member_start, self->pos - member_start,
                        any_kept);
}

char *
loom_json_salvage (const char *text,
                   gsize       length,
                   guint       max_depth,
                   GPtrArray  *problems)
{
  Salvage  self = { 0 };
  gboolean any_kept = FALSE;
  gboolean closed = FALSE;
  Stop     stop = STOP_NONE;

  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (problems != NULL, NULL);

  self.text = text;
  self.length = length;
  self.max_depth = max_depth;
  self.problems = problems;
  self.line = 1;

  if (length >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
    self.pos = 3;
  skip_space (&self);
  /* Only an object has parts that stand alone; the root itself is one container deep. */
  if (self.pos >= length || text[self.pos] != '{' || max_depth < 1)
    return NULL;
  self.pos++;

  self.out = g_string_new ("{");
  self.scratch = loom_json_doc_new ();

  skip_space (&self);
  if (self.pos < length && text[self.pos] == '}')
    {
      self.pos++;
      closed = TRUE;
    }
  while (!closed && stop == STOP_NONE)
    {
      stop = salvage_member (&self, &any_kept);
      if (stop == STOP_NONE)
        stop = after_part (&self, '}', &closed);
    }
  g_string_append_c (self.out, '}');

  skip_space (&self);
  if (closed && self.pos < length)
    add_problem (&self, self.pos, "text after the end of the document was left out");

  loom_json_doc_free (self.scratch);
  return g_string_free (self.out, FALSE);
}
