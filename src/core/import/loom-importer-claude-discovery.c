/* loom-importer-claude-discovery.c — Claude Code: finding its session files under
 * ~/.claude/projects, and recognising a file as one of its transcripts.
 *
 * The field-level facts come from shared/FORMATS.md, section 1; the comments cite it as "F1.x".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/stat.h>

#include "loom-importer-claude-private.h"
#include "loom-json-salvage.h"

static gboolean
is_hex (char c)
{
  return g_ascii_isxdigit (c);
}

/* Claude Code names main session files by their UUID v4 (F1). */
static gboolean
is_uuid (const char *text,
         gsize       len)
{
  if (len != 36)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (text[i] != '-')
            return FALSE;
        }
      else if (!is_hex (text[i]))
        return FALSE;
    }
  return TRUE;
}

static gboolean
is_main_file_name (const char *name)
{
  gsize len = strlen (name);

  return g_str_has_suffix (name, ".jsonl") && is_uuid (name, len - strlen (".jsonl"));
}

char **
loom_claude_default_roots (void)
{
  const char *config = g_getenv ("CLAUDE_CONFIG_DIR");
  char      **roots = g_new0 (char *, 2);

  if (config != NULL && *config != '\0')
    roots[0] = g_build_filename (config, "projects", NULL);
  else
    roots[0] = g_build_filename (g_get_home_dir (), ".claude", "projects", NULL);
  return roots;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *)a, *(const char *const *)b);
}

/* Discovery's rules, which claims follows too. Sessions are <project>/<uuid>.jsonl, with
 * agent-*.jsonl beside them and in <project>/<uuid>/subagents/ (F1.5), three folders down; the
 * rest of the depth is margin for layouts to come. Only those names count: the same tree holds
 * prompt history, tool outputs and metadata files. */
#define DISCOVER_DEPTH 5

/* Whether discovery enters a folder @depth levels below the root (the root is 0). */
static gboolean
enters_folder (guint depth)
{
  return depth <= DISCOVER_DEPTH;
}

static gboolean
is_session_file_name (const char *name)
{
  return is_main_file_name (name) || is_agent_file_name (name);
}

static void
discover_dir (const char *dir,
              GPtrArray  *files,
              guint       depth)
{
  g_autoptr (GDir) listing = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) subdirs = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (!enters_folder (depth) || !(listing = g_dir_open (dir, 0, NULL)))
    return;
  while ((name = g_dir_read_name (listing)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      const char      *entry = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, entry, NULL);
      struct stat      st;

      /* lstat: links are not followed, out of the tree or round in circles. */
      if (lstat (path, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        g_ptr_array_add (subdirs, g_steal_pointer (&path));
      else if (S_ISREG (st.st_mode) && is_session_file_name (entry))
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
  for (guint i = 0; i < subdirs->len; i++)
    discover_dir (g_ptr_array_index (subdirs, i), files, depth + 1);
}

void
loom_claude_discover (const char *root,
                      GPtrArray  *files)
{
  discover_dir (root, files, 0);
}

gboolean
loom_claude_claims (const char *root,
                    const char *path)
{
  g_auto (GStrv) parts = loom_importer_split_path (root, path);
  struct stat st;
  guint       n;

  if (parts == NULL)
    return FALSE;
  n = g_strv_length (parts);
  /* The file sits in the folder n - 1 levels down; a file that is gone was a plain one. */
  return enters_folder (n - 1) && is_session_file_name (parts[n - 1]) &&
         (lstat (path, &st) != 0 || S_ISREG (st.st_mode));
}

static gboolean
has_member (const LoomJson *object,
            const char     *name)
{
  return loom_json_member (object, name) != NULL;
}

/* Claude records carry a type and the envelope's threading fields or sessionId (F1.1, F1.4);
 * file-history records name the message they back up instead. Codex wraps everything in
 * payload; Gemini's metadata line has no type and its messages no sessionId. */
static gboolean
looks_like_record (const LoomJson *record)
{
  const char *type = loom_json_member_string (record, "type");

  if (type == NULL || has_member (record, "payload") || has_member (record, "projectHash"))
    return FALSE;
  if (has_member (record, "parentUuid") || has_member (record, "leafUuid") ||
      has_member (record, "isSidechain") || has_member (record, "sessionId"))
    return TRUE;
  if (g_str_has_prefix (type, "file-history-"))
    return has_member (record, "snapshot") || has_member (record, "trackingPath");
  return FALSE;
}

/* What the members of a record's line show, when the line is longer than the head. */
typedef struct
{
  char    *type;
  gboolean foreign;  /* Codex's payload or Gemini's projectHash */
  gboolean envelope; /* a threading field or sessionId */
  gboolean backup;   /* a file-history record's snapshot or trackingPath */
} ClaudeHeadMembers;

/* The end of the JSON value (a member name too) that starts at @p; NULL when the head ends
 * inside it. */
static const char *
skip_head_value (const char *p,
                 const char *end)
{
  gsize value_end;
  guint deepest;

  if (!loom_json_find_value_end (p, (gsize)(end - p), 0, &value_end, &deepest))
    return NULL;
  return p + value_end;
}

static const char *
skip_head_space (const char *p,
                 const char *end)
{
  while (p < end && g_ascii_isspace (*p))
    p++;
  return p;
}

static gboolean
is_member_name (const char *name,
                gsize       length,
                const char *wanted)
{
  return strlen (wanted) == length && memcmp (name, wanted, length) == 0;
}

/* The top-level members of the object that starts the head, as far as the head goes: a
 * 0.4–1.5 MB line (a pasted image, a file-history snapshot of hundreds of files) is cut
 * inside one of its values, which is skipped, not searched, so that a Gemini or Codex
 * session that merely quotes Claude's field names is not taken for Claude's. FALSE when the
 * head is not the start of a JSON object. */
static gboolean
scan_head_members (const char        *head,
                   const char        *end,
                   ClaudeHeadMembers *members)
{
  const char *p = skip_head_space (head, end);

  g_assert (members->type == NULL);

  if (p >= end || *p != '{')
    return FALSE;
  p++;

  for (;;)
    {
      const char *name, *name_end, *value_end;
      gsize       length;

      p = skip_head_space (p, end);
      if (p >= end || *p == '}')
        return TRUE;
      if (*p != '"')
        return FALSE;
      name = p + 1;
      if (!(name_end = skip_head_value (p, end)))
        return TRUE;
      length = (gsize)(name_end - 1 - name);

      p = skip_head_space (name_end, end);
      if (p >= end)
        return TRUE;
      if (*p != ':')
        return FALSE;
      p = skip_head_space (p + 1, end);
      if (p >= end)
        return TRUE;

      /* A member whose name the head shows counts even when its value is cut. */
      if (is_member_name (name, length, "payload") || is_member_name (name, length, "projectHash"))
        members->foreign = TRUE;
      else if (is_member_name (name, length, "parentUuid") ||
               is_member_name (name, length, "leafUuid") ||
               is_member_name (name, length, "isSidechain") ||
               is_member_name (name, length, "sessionId"))
        members->envelope = TRUE;
      else if (is_member_name (name, length, "snapshot") ||
               is_member_name (name, length, "trackingPath"))
        members->backup = TRUE;

      if (!(value_end = skip_head_value (p, end)))
        return TRUE;
      if (is_member_name (name, length, "type") && *p == '"' && members->type == NULL)
        members->type = g_strndup (p + 1, (gsize)(value_end - 1 - (p + 1)));

      p = skip_head_space (value_end, end);
      if (p >= end)
        return TRUE;
      if (*p == ',')
        p++;
      else if (*p != '}')
        return FALSE;
    }
}

/* A first line longer than the head, judged as looks_like_record () judges a whole one, by
 * the members the head shows: Claude writes the type and envelope before the message, and a
 * file-history record its type before its snapshot. */
static gboolean
head_line_looks_like_record (const char *head,
                             const char *end)
{
  ClaudeHeadMembers members = {
    NULL,
  };
  gboolean claude;

  claude = scan_head_members (head, end, &members) && members.type != NULL && !members.foreign &&
           (members.envelope ||
            (g_str_has_prefix (members.type, "file-history-") && members.backup));
  g_free (members.type);
  return claude;
}

gboolean
loom_claude_detect (const char *path,
                    const char *head,
                    gsize       head_len)
{
  const char *line = head, *end = head + head_len;
  g_autoptr (LoomJsonDoc) doc = NULL;
  gboolean unparsed_record = FALSE;

  if (!g_str_has_suffix (path, ".jsonl"))
    return FALSE;

  /* The first complete line that parses, as the reader would parse it, decides. */
  while (line < end)
    {
      const char     *newline = memchr (line, '\n', (gsize)(end - line));
      const LoomJson *root;

      if (newline == NULL)
        break;
      if (newline - line > 1)
        {
          if (doc == NULL)
            doc = loom_json_doc_new ();
          root = loom_json_doc_parse (doc, line, (gsize)(newline - line), NULL);
          if (loom_json_is_object (root))
            return looks_like_record (root);
          /* Two records on one line: the reader keeps the first. */
          unparsed_record = unparsed_record || head_line_looks_like_record (line, newline);
        }
      line = newline + 1;
    }

  /* Else a line longer than the head (or the last one, without its newline) decides. */
  return unparsed_record || head_line_looks_like_record (line, end);
}
