/* loom-export-name.c — a session's title as a folder name that every filesystem accepts.
 *
 * A package may be written to ext4 today and copied to a USB stick (FAT, exFAT), a Windows
 * share or a Mac tomorrow: the name is made safe for all of them at once rather than for the
 * filesystem it lands on first, so that it stays the same wherever it goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-export.h"
#include "loom-naming.h"

#define FALLBACK_NAME "Session"

/* Names Windows keeps for devices, with or without an extension. */
static const char *const reserved_names[] = {
  "CON",  "PRN",  "AUX",  "NUL",  "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7",
  "COM8", "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
};

static gboolean
is_refused (gunichar c)
{
  /* What Windows refuses in a name, '/' and '\\' first; the rest would be read as wildcards,
   * drive letters or redirections by the tools people use on the folder. */
  if (c < 0x80 && strchr ("/\\:*?\"<>|", (int)c) != NULL)
    return TRUE;
  return FALSE;
}

static gboolean
is_invisible (gunichar c)
{
  GUnicodeType type = g_unichar_type (c);

  /* Control characters, and format characters such as the bidirectional overrides, which can
   * make a name read as something else ("gpj.exe" shown as "exe.jpg"). */
  return type == G_UNICODE_CONTROL || type == G_UNICODE_FORMAT || type == G_UNICODE_UNASSIGNED ||
         type == G_UNICODE_SURROGATE || type == G_UNICODE_PRIVATE_USE;
}

/* @text with refused characters as '-', invisible ones dropped, white space runs one space. */
static GString *
clean (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *nfc = g_utf8_normalize (valid, -1, G_NORMALIZE_NFC);
  GString         *out = g_string_new (NULL);
  gboolean         space = FALSE;

  for (const char *p = nfc != NULL ? nfc : valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isspace (c))
        {
          space = out->len > 0;
          continue;
        }
      if (is_invisible (c))
        continue;
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      if (is_refused (c))
        g_string_append_c (out, '-');
      else
        g_string_append_unichar (out, c);
    }
  return out;
}

/* Drops leading dots, spaces and dashes (a hidden file, "." and "..", or a name a shell tool
 * would take for an option), trailing dots and spaces (Windows drops them itself, so two names
 * would meet), and cuts to @max_bytes on a character boundary. */
static void
trim (GString *name,
      gsize    max_bytes)
{
  gsize start = 0;

  while (start < name->len &&
         (name->str[start] == '.' || name->str[start] == ' ' || name->str[start] == '-'))
    start++;
  g_string_erase (name, 0, (gssize)start);

  if (name->len > max_bytes)
    {
      const char *end = g_utf8_find_prev_char (name->str, name->str + max_bytes + 1);

      g_string_truncate (name, end != NULL ? (gsize)(end - name->str) : 0);
    }

  while (name->len > 0 && (name->str[name->len - 1] == '.' || name->str[name->len - 1] == ' ' ||
                           name->str[name->len - 1] == '-'))
    g_string_truncate (name, name->len - 1);
}

static gboolean
is_reserved (const char *name)
{
  gsize stem = strcspn (name, ".");

  while (stem > 0 && name[stem - 1] == ' ')
    stem--;
  for (guint i = 0; i < G_N_ELEMENTS (reserved_names); i++)
    {
      if (strlen (reserved_names[i]) == stem &&
          g_ascii_strncasecmp (name, reserved_names[i], stem) == 0)
        return TRUE;
    }
  return FALSE;
}

char *
loom_export_package_name (const char *title,
                          gint64      created_at)
{
  g_autofree char *valid = title != NULL ? g_utf8_make_valid (title, -1) : NULL;
  g_autofree char *name_part = NULL;
  g_autofree char *date = NULL;
  g_autoptr (GString) name = NULL;
  gsize max_bytes = LOOM_EXPORT_NAME_MAX_BYTES;

  /* The convention's title ends in its date already: keep that one, else add the session's.
   * A title is made valid UTF-8 first: the naming helpers read it a character at a time. */
  if (valid == NULL || !loom_naming_split_title (valid, &name_part, &date))
    {
      g_clear_pointer (&name_part, g_free);
      name_part = g_strdup (valid != NULL ? valid : "");
      date = loom_naming_session_date (created_at, valid);
    }

  /* The date is ASCII and safe as it is; the name gives way to it when the title is long. */
  if (date != NULL)
    max_bytes -= strlen (" - ") + strlen (date);

  name = clean (name_part);
  trim (name, max_bytes);
  if (name->len == 0)
    g_string_assign (name, FALLBACK_NAME);
  if (date != NULL)
    g_string_append_printf (name, " - %s", date);
  if (is_reserved (name->str))
    g_string_prepend_c (name, '_');
  return g_string_free (g_steal_pointer (&name), FALSE);
}
