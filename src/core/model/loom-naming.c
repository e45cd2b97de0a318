/* loom-naming.c — the title convention, `<descriptive name> - YYYY-MM-DD`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "loom-naming.h"
#include "loom-time.h"

#define DATE_LENGTH      10
/* What the importer writes when a session has neither a name nor a date. */
#define PLACEHOLDER_NAME "Untitled session"
#define UNDATED          "undated"

/* How much of a prompt a suggested name is looked for in. */
#define SUGGEST_SOURCE_BYTES 8192

/* Openings that ask rather than name. Matched case-insensitively at the start, repeatedly, so
 * that "Hi! Could you please fix…" comes down to "fix…". Longer openings first. */
static const char *const fillers[] = {
  "i would like you to",
  "i'd like you to",
  "i want you to",
  "i need you to",
  "i need help with",
  "i'd like to",
  "i want to",
  "we need to",
  "help me",
  "can you",
  "could you",
  "would you",
  "will you",
  "can u",
  "please",
  "pls",
  "kindly",
  "let's",
  "lets",
  "thank you",
  "thanks",
  "hello",
  "hey",
  "hi",
  "okay",
  "ok",
  "so",
};

/* Words that a name cut short should not end on. */
static const char *const dangling_words[] = {
  "a",    "an", "and", "as", "at", "but",  "by",  "for", "from", "in",
  "into", "of", "on",  "or", "so", "that", "the", "to",  "with",
};

gboolean
loom_naming_is_date (const char *text)
{
  int year, month, day;

  if (text == NULL || strlen (text) != DATE_LENGTH)
    return FALSE;

  for (guint i = 0; i < DATE_LENGTH; i++)
    {
      if (i == 4 || i == 7)
        {
          if (text[i] != '-')
            return FALSE;
        }
      else if (!g_ascii_isdigit (text[i]))
        {
          return FALSE;
        }
    }

  year = atoi (text);
  month = atoi (text + 5);
  day = atoi (text + 8);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 &&
         day <= g_date_get_days_in_month (month, year);
}

/* Runs of white space and control characters (newlines, tabs) become one space; the ends are
 * trimmed. A title is one line. */
static char *
collapse_space (const char *text)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c) || g_unichar_iscntrl (c))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_unichar (out, c);
    }

  return g_string_free (out, FALSE);
}

char *
loom_naming_bound_line (const char *text,
                        glong       max_chars)
{
  g_autoptr (GString) out = NULL;
  gboolean space = FALSE;
  gboolean cut = FALSE;
  gsize    cut_at = 0; /* the length of @out at max_chars - 1 characters */
  glong    n = 0;

  g_return_val_if_fail (max_chars >= 2, NULL);

  if (text == NULL)
    return NULL;
  out = g_string_new (NULL);
  for (const char *p = text; *p != '\0' && !cut;)
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      /* A byte that starts no character stands for one, as g_utf8_make_valid() has it. */
      if (c == (gunichar)-1 || c == (gunichar)-2)
        {
          c = 0xFFFD;
          p++;
        }
      else
        p = g_utf8_next_char (p);

      if (g_unichar_isspace (c) || g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029)
        {
          space = out->len > 0;
          continue;
        }
      for (guint i = space ? 0 : 1; i < 2; i++)
        {
          if (n == max_chars)
            {
              cut = TRUE;
              break;
            }
          if (i == 0)
            g_string_append_c (out, ' ');
          else
            g_string_append_unichar (out, c);
          if (++n == max_chars - 1)
            cut_at = out->len;
        }
      space = FALSE;
    }

  if (cut)
    {
      g_string_truncate (out, cut_at);
      if (out->len > 0 && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append (out, "…");
    }
  if (out->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
loom_naming_bound_path (const char *text,
                        gsize       max_bytes)
{
  g_autofree char *valid = NULL;
  const char      *end;
  gsize            length;

  g_return_val_if_fail (max_bytes >= 8, NULL);

  if (text == NULL)
    return NULL;
  length = strnlen (text, max_bytes + 1);
  if (length <= max_bytes && g_utf8_validate_len (text, length, NULL))
    return g_strndup (text, length);

  /* Made valid from a prefix only: a bad byte never costs more than the rest of the cut. */
  valid = g_utf8_make_valid (text, MIN (length, max_bytes));
  if (length <= max_bytes)
    return g_steal_pointer (&valid);
  /* Cut at a character boundary with room for "…" (3 bytes). */
  end = valid + MIN (strlen (valid), max_bytes - 3);
  while (end > valid && (*end & 0xC0) == 0x80)
    end--;
  return g_strdup_printf ("%.*s…", (int)(end - valid), valid);
}

/* The length of the separator that ends just before @end: " - ", or the en or em dash that text
 * editors and phones substitute for the hyphen; 0 when there is none. A title that is a date
 * alone ("- 2026-11-29") has no space before its dash. */
static gsize
separator_length (const char *text,
                  gsize       end)
{
  static const char *const dashes[] = { "-", "–", "—" };

  for (guint i = 0; i < G_N_ELEMENTS (dashes); i++)
    {
      gsize len = strlen (dashes[i]) + 1;

      if (end < len || text[end - 1] != ' ' || strncmp (text + end - len, dashes[i], len - 1) != 0)
        continue;
      if (end == len)
        return len;
      if (text[end - len - 1] == ' ')
        return len + 1;
    }
  return 0;
}

gboolean
loom_naming_split_title (const char *title,
                         char      **name,
                         char      **date)
{
  g_autofree char *clean = collapse_space (title);
  gsize            len = strlen (clean);
  gsize            tail = len, separator = 0;
  gboolean         dated = FALSE;

  if (len >= DATE_LENGTH && loom_naming_is_date (clean + len - DATE_LENGTH))
    {
      tail = len - DATE_LENGTH;
      dated = TRUE;
    }
  else if (g_str_has_suffix (clean, UNDATED))
    {
      tail = len - strlen (UNDATED);
    }

  /* A bare date is a date without a name; any other tail needs its separator. */
  if (tail > 0 && tail < len)
    separator = separator_length (clean, tail);
  if (tail == len || (tail > 0 && separator == 0))
    {
      if (name != NULL)
        *name = g_steal_pointer (&clean);
      if (date != NULL)
        *date = NULL;
      return FALSE;
    }

  if (date != NULL)
    *date = dated ? g_strdup (clean + tail) : NULL;
  if (name != NULL)
    *name = g_strstrip (g_strndup (clean, tail - separator));
  return dated;
}

static gboolean
starts_with_word (const char *text,
                  const char *word)
{
  gsize len = strlen (word);

  /* Only a whole word: "so" must not eat the start of "some". */
  return g_ascii_strncasecmp (text, word, len) == 0 &&
         (text[len] == '\0' || !g_unichar_isalnum (g_utf8_get_char (text + len)));
}

static const char *
skip_fillers (const char *text)
{
  gboolean changed = TRUE;

  while (changed)
    {
      changed = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (fillers); i++)
        {
          if (!starts_with_word (text, fillers[i]))
            continue;

          text += strlen (fillers[i]);
          while (*text != '\0' && strchr (" ,.!:;-", *text) != NULL)
            text++;
          changed = TRUE;
          break;
        }
    }
  return text;
}

/* The first line that says something: not blank, not inside or opening a code block. */
static char *
first_prose_line (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean in_code = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      while (*line == ' ' || *line == '\t')
        line++;
      if (g_str_has_prefix (line, "```") || g_str_has_prefix (line, "~~~"))
        {
          in_code = !in_code;
          continue;
        }
      if (in_code)
        continue;

      /* Headings, quotes, list bullets and numbers dress a line; they are not its words. */
      while (*line != '\0' && strchr ("#>*-+ \t", *line) != NULL)
        line++;
      if (g_ascii_isdigit (*line))
        {
          const char *p = line;

          while (g_ascii_isdigit (*p))
            p++;
          if ((*p == '.' || *p == ')') && p[1] == ' ')
            line = p + 2;
        }

      if (*line != '\0')
        return g_strdup (line);
    }
  return NULL;
}

/* In one pass: erasing each match in turn is quadratic on a line of a million backticks. */
static void
remove_all (GString    *string,
            const char *needle)
{
  gsize needle_len = strlen (needle);
  char *to = string->str;

  for (const char *from = string->str; *from != '\0';)
    {
      if (strncmp (from, needle, needle_len) == 0)
        {
          from += needle_len;
          continue;
        }
      *to++ = *from++;
    }
  *to = '\0';
  string->len = to - string->str;
}

static void
trim_end (GString *name)
{
  gboolean changed = TRUE;

  while (changed && name->len > 0)
    {
      const char *last_space;

      changed = FALSE;
      while (name->len > 0 && strchr (" .,;:!?-\"'(", name->str[name->len - 1]) != NULL)
        {
          g_string_truncate (name, name->len - 1);
          changed = TRUE;
        }

      last_space = strrchr (name->str, ' ');
      if (last_space == NULL)
        break;
      for (guint i = 0; i < G_N_ELEMENTS (dangling_words); i++)
        {
          if (g_ascii_strcasecmp (last_space + 1, dangling_words[i]) == 0)
            {
              g_string_truncate (name, last_space - name->str);
              changed = TRUE;
              break;
            }
        }
    }
}

char *
loom_naming_suggest_name (const char *text)
{
  g_autofree char *source = NULL;
  g_autofree char *line = NULL;
  g_autofree char *collapsed = NULL;
  g_autoptr (GString) name = NULL;
  const char *start;
  gunichar    first;

  if (text == NULL)
    return NULL;
  /* A name is in the first lines: a prompt of megabytes is not split, searched and copied
   * whole for them. A character cut in two at the end does not count against it. */
  if (strnlen (text, SUGGEST_SOURCE_BYTES + 1) > SUGGEST_SOURCE_BYTES)
    {
      const char *end = text + SUGGEST_SOURCE_BYTES;

      while (end > text && (*end & 0xC0) == 0x80)
        end--;
      text = source = g_strndup (text, end - text);
    }
  if (!g_utf8_validate (text, -1, NULL))
    return NULL;
  if ((line = first_prose_line (text)) == NULL)
    return NULL;

  collapsed = collapse_space (line);
  name = g_string_new (skip_fillers (collapsed));
  /* Markdown emphasis and code marks would show literally in a title. */
  remove_all (name, "`");
  remove_all (name, "**");

  /* The first sentence. A full stop inside a word ("README.md", "e.g.") does not end one. */
  for (const char *p = name->str; *p != '\0'; p++)
    {
      if (strchr (".?!", *p) != NULL && p != name->str && (p[1] == ' ' || p[1] == '\0'))
        {
          g_string_truncate (name, p - name->str);
          break;
        }
    }

  if (g_utf8_strlen (name->str, -1) > LOOM_NAMING_SUGGESTION_LIMIT)
    {
      const char      *cut = g_utf8_offset_to_pointer (name->str, LOOM_NAMING_SUGGESTION_LIMIT);
      g_autofree char *head = g_strndup (name->str, cut - name->str);
      const char      *last_space = strrchr (head, ' ');

      /* At a word boundary, unless that would leave too little of the sentence. */
      if (last_space != NULL &&
          g_utf8_strlen (head, last_space - head) > LOOM_NAMING_SUGGESTION_LIMIT / 2)
        g_string_truncate (name, last_space - head);
      else
        g_string_truncate (name, cut - name->str);
    }

  trim_end (name);
  start = name->str;
  if (*start == '\0')
    return NULL;

  first = g_utf8_get_char (start);
  if (g_unichar_islower (first))
    {
      g_autoptr (GString) capitalised = g_string_new (NULL);

      g_string_append_unichar (capitalised, g_unichar_totitle (first));
      g_string_append (capitalised, g_utf8_next_char (start));
      return g_string_free (g_steal_pointer (&capitalised), FALSE);
    }
  return g_string_free (g_steal_pointer (&name), FALSE);
}

gboolean
loom_naming_is_placeholder_name (const char *name)
{
  g_autofree char *clean = collapse_space (name);

  return *clean == '\0' || g_ascii_strcasecmp (clean, PLACEHOLDER_NAME) == 0 ||
         g_str_has_suffix (clean, "…") || g_str_has_suffix (clean, "...");
}

char *
loom_naming_propose_name (const char *title,
                          const char *first_prompt)
{
  g_autofree char *name = NULL;
  g_autofree char *suggestion = NULL;

  loom_naming_split_title (title, &name, NULL);
  if (!loom_naming_is_placeholder_name (name))
    return g_steal_pointer (&name);

  suggestion = loom_naming_suggest_name (first_prompt);
  if (suggestion != NULL)
    return g_steal_pointer (&suggestion);

  /* Nothing better: a cut prompt is still more of a name than nothing. */
  return g_steal_pointer (&name);
}

char *
loom_naming_session_date (gint64      created_at,
                          const char *title)
{
  char *date = NULL;

  if (created_at > 0)
    return loom_time_to_date (created_at);

  loom_naming_split_title (title, NULL, &date);
  return date;
}

char *
loom_naming_build_title (const char *name,
                         const char *date)
{
  g_autofree char *clean = NULL;
  gsize            len;

  g_autofree char *whole = NULL;

  /* The name alone: a date typed at its end would otherwise appear twice. A title is one
   * line of a sane length, whatever was typed or pasted. */
  loom_naming_split_title (name, &whole, NULL);
  if (!(clean = loom_naming_bound_line (whole, LOOM_NAMING_TITLE_LIMIT)))
    return NULL;
  len = strlen (clean);
  while (len > 0 && (clean[len - 1] == '-' || clean[len - 1] == ' '))
    clean[--len] = '\0';
  if (len == 0)
    return NULL;

  if (loom_naming_is_date (date))
    return g_strdup_printf ("%s - %s", clean, date);
  return g_steal_pointer (&clean);
}

char *
loom_naming_conventional_title (const char *title,
                                gint64      created_at,
                                const char *first_prompt)
{
  g_autofree char *name = loom_naming_propose_name (title, first_prompt);
  g_autofree char *date = loom_naming_session_date (created_at, title);
  char            *result;

  result = loom_naming_build_title (name, date);
  if (result == NULL)
    result = loom_naming_build_title (PLACEHOLDER_NAME, date);
  return result;
}

char *
loom_naming_rename_command (const char *title)
{
  g_autofree char *clean = collapse_space (title);

  /* One line: the agent reads the command up to the end of the line. */
  return g_strconcat ("/rename ", clean, NULL);
}
