/* loom-export-artifacts.c — the files a session touched, and the changes it made to them.
 *
 * The store hands over the events that name files one at a time (loom-store-artifacts.h); the
 * diffs are the timeline's own (loom_timeline_format_diff ()), given real hunk headers here so
 * that a .diff file of the package applies as well as it reads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-event-kinds.h"
#include "loom-export-artifacts.h"
#include "loom-json-value.h"
#include "loom-store-artifacts.h"
#include "loom-timeline-format.h"

/* A tool call's input that names a file is small; a larger one is not worth parsing. */
#define MAX_INPUT_SIZE  (1024 * 1024)
/* Claude Code's results hold the whole file an edit changed (originalFile). */
#define MAX_RESULT_SIZE (64 * 1024 * 1024)
/* Change file names stay short on every filesystem: the number says which change it is. */
#define MAX_NAME_BYTES  80

/* The tools that read a file and say which in their input; the tools that change files are
 * stored as file changes by the importers already. */
static const char *const reading_tools[] = {
  "Read",            /* Claude Code */
  "NotebookRead",    /* Claude Code, older */
  "read_file",       /* Gemini CLI */
  "read_many_files", /* Gemini CLI */
  "view_image",      /* Codex */
  NULL,
};

static const char *const path_members[] = {
  "file_path",
  "notebook_path",
  "absolute_path",
  "path",
};

void
loom_touched_path_free (LoomTouchedPath *touched)
{
  if (touched == NULL)
    return;
  g_free (touched->path);
  g_free (touched);
}

void
loom_artifact_change_free (LoomArtifactChange *change)
{
  if (change == NULL)
    return;
  g_free (change->name);
  g_free (change->path);
  g_free (change->kind);
  g_free (change->diff);
  g_free (change);
}

char *
loom_artifact_touch_to_string (LoomArtifactTouch how)
{
  static const char *const names[] = { "read", "written", "edited", "created", "deleted" };
  g_autoptr (GString) out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (how & (1 << i))
      {
        if (out->len > 0)
          g_string_append (out, ", ");
        g_string_append (out, names[i]);
      }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static const LoomJson *
parse_limited (LoomJsonDoc *doc,
               const char  *text,
               gsize        max_size)
{
  gsize length;

  if (text == NULL || (length = strlen (text)) > max_size)
    return NULL;
  return loom_json_doc_parse (doc, text, length, NULL);
}

static gboolean
is_notebook_edit (const LoomStoreFileEvent *event)
{
  return g_strcmp0 (event->tool_name, "NotebookEdit") == 0;
}

static gboolean
is_deletion (const LoomStoreFileEvent *event)
{
  /* NotebookEdit's "delete" deletes a cell, not the notebook. */
  return g_strcmp0 (event->change_kind, "delete") == 0 && !is_notebook_edit (event);
}

/* Whether a whole-file write made the file: Claude Code's result says "create", Gemini's diff
 * starts from line 0 of nothing. */
static gboolean
write_created (const LoomStoreFileEvent *event)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  const LoomJson *root;
  const char     *diff;

  if ((root = parse_limited (doc, event->result_payload, MAX_RESULT_SIZE)) != NULL &&
      g_strcmp0 (loom_json_member_string (loom_json_member_object (root, "toolUseResult"), "type"),
                 "create") == 0)
    return TRUE;
  if ((root = parse_limited (doc, event->payload, MAX_RESULT_SIZE)) != NULL &&
      (diff = loom_json_member_string (root, "fileDiff")) != NULL)
    return g_str_has_prefix (diff, "@@ -0,0 ") || strstr (diff, "\n@@ -0,0 ") != NULL;
  return FALSE;
}

static LoomArtifactTouch
change_touch (const LoomStoreFileEvent *event)
{
  const char *kind = event->change_kind;

  if (g_strcmp0 (kind, "add") == 0 || g_strcmp0 (kind, "rename") == 0)
    return LOOM_ARTIFACT_TOUCH_CREATED;
  if (is_deletion (event))
    return LOOM_ARTIFACT_TOUCH_DELETED;
  if (g_strcmp0 (kind, "write") == 0)
    return write_created (event) ? LOOM_ARTIFACT_TOUCH_CREATED : LOOM_ARTIFACT_TOUCH_WRITTEN;
  return LOOM_ARTIFACT_TOUCH_EDITED;
}

/* Touched paths */

typedef struct
{
  const char *workspace_path;
  GPtrArray  *paths; /* LoomTouchedPath */
  GHashTable *seen;  /* key → LoomTouchedPath, in paths */
} TouchedWalk;

static void
add_touched (TouchedWalk      *walk,
             const char       *path,
             LoomArtifactTouch how)
{
  g_autofree char *key = NULL;
  LoomTouchedPath *touched;

  if (path == NULL || *path == '\0')
    return;
  if (walk->workspace_path != NULL)
    key = loom_artifact_resolve_path (path, walk->workspace_path);
  if (key == NULL)
    key = g_path_is_absolute (path) ? g_canonicalize_filename (path, NULL) : g_strdup (path);

  if ((touched = g_hash_table_lookup (walk->seen, key)) != NULL)
    {
      touched->how |= how;
      return;
    }
  touched = g_new0 (LoomTouchedPath, 1);
  touched->path = g_strdup (path);
  touched->how = how;
  g_ptr_array_add (walk->paths, touched);
  g_hash_table_insert (walk->seen, g_steal_pointer (&key), touched);
}

/* read_many_files takes paths and glob patterns alike: a pattern names no one file. */
static gboolean
is_glob (const char *path)
{
  return strpbrk (path, "*?[{") != NULL;
}

static gboolean
collect_touched (const LoomStoreFileEvent *event,
                 gpointer                  user_data,
                 GError                  **error)
{
  TouchedWalk *walk = user_data;
  g_autoptr (LoomJsonDoc) doc = NULL;
  const LoomJson *input;
  const LoomJson *paths;

  if (g_strcmp0 (event->kind, LOOM_EVENT_FILE_CHANGE) == 0)
    {
      add_touched (walk, event->path, change_touch (event));
      return TRUE;
    }

  doc = loom_json_doc_new ();
  if ((input = parse_limited (doc, event->payload, MAX_INPUT_SIZE)) == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (path_members); i++)
    {
      const char *path = loom_json_member_string (input, path_members[i]);

      if (path != NULL)
        {
          add_touched (walk, path, LOOM_ARTIFACT_TOUCH_READ);
          return TRUE;
        }
    }
  if ((paths = loom_json_member_array (input, "paths")) != NULL)
    for (gsize i = 0; i < loom_json_length (paths); i++)
      {
        const char *path = loom_json_string (loom_json_element (paths, i));

        if (path != NULL && !is_glob (path))
          add_touched (walk, path, LOOM_ARTIFACT_TOUCH_READ);
      }
  return TRUE;
}

GPtrArray *
loom_export_list_touched_paths (LoomStore  *store,
                                const char *session_id,
                                const char *workspace_path,
                                GError    **error)
{
  g_autoptr (GPtrArray)
    paths = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_touched_path_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  TouchedWalk walk = { workspace_path, paths, seen };

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  if (!loom_store_foreach_file_event (store, session_id, reading_tools, collect_touched, &walk,
                                      error))
    return NULL;
  return g_steal_pointer (&paths);
}

/* Changes */

typedef struct
{
  gboolean known; /* the header gave line numbers */
  gint64   old_start;
  gint64   new_start;
  char    *heading; /* what follows the header: Codex's context line */
  GString *lines;
  gint64   n_old;
  gint64   n_new;
} Hunk;

static void
hunk_free (Hunk *hunk)
{
  g_free (hunk->heading);
  g_string_free (hunk->lines, TRUE);
  g_free (hunk);
}

static Hunk *
hunk_new (void)
{
  Hunk *hunk = g_new0 (Hunk, 1);

  hunk->lines = g_string_new (NULL);
  return hunk;
}

/* "-a[,b] +c[,d] @@rest" after the leading "@@ "; FALSE when it is no such header. */
static gboolean
parse_hunk_header (const char *text,
                   Hunk       *hunk)
{
  char *end;

  while (*text == ' ')
    text++;
  if (*text != '-' || !g_ascii_isdigit (text[1]))
    return FALSE;
  hunk->old_start = g_ascii_strtoll (text + 1, &end, 10);
  if (*end == ',')
    g_ascii_strtoll (end + 1, &end, 10);
  if (*end != ' ' || end[1] != '+' || !g_ascii_isdigit (end[2]))
    return FALSE;
  hunk->new_start = g_ascii_strtoll (end + 2, &end, 10);
  if (*end == ',')
    g_ascii_strtoll (end + 1, &end, 10);
  if (!g_str_has_prefix (end, " @@"))
    return FALSE;
  hunk->known = TRUE;
  hunk->heading = g_strdup (g_strstrip (end + 3));
  return TRUE;
}

/* The display diff's lines as hunks. Its "@@" lines start hunks, with or without numbers; a
 * single "@" line is a patch's own header ("*** Update File: …") and is dropped. */
static GPtrArray *
split_hunks (const char *body)
{
  g_autoptr (GPtrArray) hunks = g_ptr_array_new_with_free_func ((GDestroyNotify)hunk_free);
  g_auto (GStrv) lines = g_strsplit (body, "\n", -1);
  Hunk *hunk = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "@@"))
        {
          hunk = hunk_new ();
          if (!parse_hunk_header (line + 2, hunk))
            {
              g_autofree char *heading = g_strdup (line + 2);

              hunk->heading = g_strdup (g_strstrip (heading));
            }
          g_ptr_array_add (hunks, hunk);
          continue;
        }
      if (line[0] != '+' && line[0] != '-' && line[0] != ' ')
        continue;
      if (hunk == NULL)
        {
          hunk = hunk_new ();
          g_ptr_array_add (hunks, hunk);
        }
      /* The display turns patch's marker into a context line; it counts as no line. */
      if (g_str_equal (line, " \\ No newline at end of file"))
        {
          g_string_append (hunk->lines, line + 1);
          g_string_append_c (hunk->lines, '\n');
          continue;
        }
      if (line[0] != '+')
        hunk->n_old++;
      if (line[0] != '-')
        hunk->n_new++;
      g_string_append (hunk->lines, line);
      g_string_append_c (hunk->lines, '\n');
    }
  return g_steal_pointer (&hunks);
}

static gboolean
only_additions (GPtrArray *hunks)
{
  for (guint i = 0; i < hunks->len; i++)
    if (((Hunk *)g_ptr_array_index (hunks, i))->n_old > 0)
      return FALSE;
  return TRUE;
}

/* Hunks whose place was not recorded follow each other from line 1, where `patch` starts
 * looking for their context. */
static void
append_hunks (GString   *out,
              GPtrArray *hunks,
              gboolean   created)
{
  gint64 next_old = 1, delta = 0;

  for (guint i = 0; i < hunks->len; i++)
    {
      Hunk  *hunk = g_ptr_array_index (hunks, i);
      gint64 old_start, new_start;

      if (hunk->n_old == 0 && hunk->n_new == 0)
        continue;
      if (hunk->known)
        {
          old_start = hunk->old_start;
          new_start = hunk->new_start;
        }
      else if (created)
        {
          old_start = 0;
          new_start = 1;
        }
      else
        {
          old_start = next_old;
          new_start = old_start + delta;
          if (hunk->n_old == 0)
            old_start--;
          if (hunk->n_new == 0)
            new_start--;
        }
      g_string_append_printf (out,
                              "@@ -%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT " +%" G_GINT64_FORMAT
                              ",%" G_GINT64_FORMAT " @@",
                              old_start, hunk->n_old, new_start, hunk->n_new);
      if (hunk->heading != NULL && *hunk->heading != '\0')
        g_string_append_printf (out, " %s", hunk->heading);
      g_string_append_c (out, '\n');
      g_string_append (out, hunk->lines->str);
      next_old = MAX (old_start, 1) + hunk->n_old;
      delta += hunk->n_new - hunk->n_old;
    }
}

/* A name for a file in artifacts/changes/ that every filesystem takes: no separators, no
 * characters Windows refuses, no control characters, no leading dot, bounded. */
static char *
change_file_name (guint       index,
                  const char *path)
{
  g_autofree char *base = g_path_get_basename (path != NULL ? path : "");
  g_autofree char *valid = g_utf8_make_valid (base, -1);
  g_autoptr (GString) name = g_string_new (NULL);
  const char *p = valid;

  while (*p == '.')
    p++;
  for (; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gsize    length = (gsize)(g_utf8_next_char (p) - p);

      if (name->len + length > MAX_NAME_BYTES)
        break;
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || strchr ("/\\<>:\"|?*", (int)c))
        g_string_append_c (name, '_');
      else
        g_string_append_len (name, p, (gssize)length);
    }
  while (name->len > 0 && (name->str[name->len - 1] == ' ' || name->str[name->len - 1] == '.'))
    g_string_truncate (name, name->len - 1);
  if (name->len == 0 || g_str_equal (name->str, "/"))
    g_string_assign (name, "change");
  return g_strdup_printf ("%03u-%s.diff", index, name->str);
}

static char *
header_label (const char *path,
              const char *workspace_path,
              const char *side)
{
  g_autofree char *relative = loom_artifact_resolve_path (path, workspace_path);

  if (relative != NULL)
    return g_strconcat (side, relative, NULL);
  return g_strdup (path);
}

typedef struct
{
  const char         *workspace_path;
  GPtrArray          *changes; /* LoomArtifactChange */
  /* A Codex patch that moves a file is stored as its edit and then its rename, with the same
   * section: the edit waits here to become one diff with the rename. */
  LoomArtifactChange *pending;
  char               *pending_call_id;
  char               *pending_payload;
} ChangeWalk;

static void
flush_pending (ChangeWalk *walk)
{
  LoomArtifactChange *change = g_steal_pointer (&walk->pending);

  g_clear_pointer (&walk->pending_call_id, g_free);
  g_clear_pointer (&walk->pending_payload, g_free);
  if (change == NULL)
    return;
  change->index = walk->changes->len + 1;
  change->name = change_file_name (change->index, change->path);
  g_ptr_array_add (walk->changes, change);
}

static gboolean
collect_change (const LoomStoreFileEvent *event,
                gpointer                  user_data,
                GError                  **error)
{
  ChangeWalk      *walk = user_data;
  g_autofree char *body = NULL;
  g_autofree char *old_label = NULL;
  g_autofree char *new_label = NULL;
  g_autoptr (GPtrArray) hunks = NULL;
  g_autoptr (GString) diff = NULL;
  g_autofree char    *moved_from = NULL;
  const char         *from = event->path;
  gboolean            rename = g_strcmp0 (event->change_kind, "rename") == 0;
  gboolean            deleted = is_deletion (event);
  gboolean            created;
  LoomArtifactChange *change;

  if (g_strcmp0 (event->kind, LOOM_EVENT_FILE_CHANGE) != 0 || event->path == NULL)
    return TRUE;

  if (rename && walk->pending != NULL && event->call_id != NULL &&
      g_strcmp0 (walk->pending_call_id, event->call_id) == 0 &&
      g_strcmp0 (walk->pending_payload, event->payload) == 0)
    {
      from = moved_from = g_steal_pointer (&walk->pending->path);
      g_clear_pointer (&walk->pending, loom_artifact_change_free);
    }
  else if (rename)
    from = event->path; /* moved from where the event does not say */
  flush_pending (walk);

  body = loom_timeline_format_diff (event->payload, event->result_payload);
  if (body == NULL && !deleted && !rename)
    return TRUE;
  hunks = split_hunks (body != NULL ? body : "");
  created = g_strcmp0 (event->change_kind, "add") == 0 ||
            (g_strcmp0 (event->change_kind, "write") == 0 && only_additions (hunks));

  diff = g_string_new (NULL);
  old_label = created ? g_strdup ("/dev/null") : header_label (from, walk->workspace_path, "a/");
  new_label = deleted ? g_strdup ("/dev/null")
                      : header_label (event->path, walk->workspace_path, "b/");
  g_string_append_printf (diff, "--- %s\n+++ %s\n", old_label, new_label);
  if (!deleted)
    append_hunks (diff, hunks, created);

  change = g_new0 (LoomArtifactChange, 1);
  change->path = g_strdup (event->path);
  change->kind = g_strdup (event->change_kind);
  change->diff = g_string_free (g_steal_pointer (&diff), FALSE);
  walk->pending = change;
  walk->pending_call_id = g_strdup (event->call_id);
  walk->pending_payload = g_strdup (event->payload);
  if (rename)
    flush_pending (walk);
  return TRUE;
}

GPtrArray *
loom_export_list_changes (LoomStore  *store,
                          const char *session_id,
                          const char *workspace_path,
                          GError    **error)
{
  g_autoptr (GPtrArray)
    changes = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_artifact_change_free);
  ChangeWalk walk = { workspace_path, changes, NULL, NULL, NULL };
  gboolean   ok;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (session_id != NULL, NULL);

  ok = loom_store_foreach_file_event (store, session_id, NULL, collect_change, &walk, error);
  flush_pending (&walk);
  if (!ok)
    return NULL;
  return g_steal_pointer (&changes);
}

/* Both, in one walk */

typedef struct
{
  TouchedWalk *touched;
  ChangeWalk  *changes;
} ArtifactWalk;

static gboolean
collect_both (const LoomStoreFileEvent *event,
              gpointer                  user_data,
              GError                  **error)
{
  ArtifactWalk *walk = user_data;

  return collect_touched (event, walk->touched, error) &&
         (g_strcmp0 (event->kind, LOOM_EVENT_FILE_CHANGE) != 0 ||
          collect_change (event, walk->changes, error));
}

gboolean
loom_export_list_artifacts (LoomStore  *store,
                            const char *session_id,
                            const char *workspace_path,
                            GPtrArray **touched,
                            GPtrArray **changes,
                            GError    **error)
{
  g_autoptr (GPtrArray)
    paths = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_touched_path_free);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray)
    diffs = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_artifact_change_free);
  TouchedWalk  touched_walk = { workspace_path, paths, seen };
  ChangeWalk   change_walk = { workspace_path, diffs, NULL, NULL, NULL };
  ArtifactWalk walk = { &touched_walk, &change_walk };
  gboolean     ok;

  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (session_id != NULL, FALSE);
  g_return_val_if_fail (touched != NULL && changes != NULL, FALSE);

  ok = loom_store_foreach_file_event (store, session_id, reading_tools, collect_both, &walk, error);
  flush_pending (&change_walk);
  if (!ok)
    return FALSE;
  *touched = g_steal_pointer (&paths);
  *changes = g_steal_pointer (&diffs);
  return TRUE;
}
