/* loom-import-paths.c — one name for each agent file.
 *
 * Cursors and sessions are keyed by a file's path. The same file can be reached by many: a
 * relative path, "./" and "//" in it, a linked folder (a ~/.claude kept with one's dotfiles).
 * Reached by a new one, a file looked new: it was read again from its start without its rows
 * being cleared, and the records that have no id of their own (snapshots, a streamed message's
 * text) were stored twice. So every path a pass reads is made absolute and resolved, links and
 * all, the one name the file has whichever way it was reached.
 *
 * Stores made before kept the spelling of the day. A file whose resolved path has no cursor
 * takes over the cursor of the path it was reached by (loom-import.c), and the folders and
 * deleted files a pass names are kept in both spellings, so that sessions under either are
 * still found gone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "loom-import-private.h"

/* @path from the root, without the separators a folder may end with ("link//"): the last
 * component is then the folder's own name, not an empty one. */
static char *
absolute_path (const char *path)
{
  g_autofree char *cwd = NULL;
  char            *absolute;
  gsize            length;

  if (g_path_is_absolute (path))
    absolute = g_strdup (path);
  else
    {
      cwd = g_get_current_dir ();
      absolute = g_build_filename (cwd, path, NULL);
    }
  length = strlen (absolute);
  while (length > 1 && G_IS_DIR_SEPARATOR (absolute[length - 1]))
    absolute[--length] = '\0';
  return absolute;
}

/* realpath (), in GLib's memory; NULL when some part of @path does not exist. */
static char *
resolve (const char *path)
{
  char *resolved = realpath (path, NULL);
  char *copy;

  if (resolved == NULL)
    return NULL;
  copy = g_strdup (resolved);
  free (resolved);
  return copy;
}

/* A folder's resolved path, remembered in @folders: the files of a pass share a few hundred
 * folders, and resolving each file's whole path would stat every folder above it again. */
static const char *
resolve_folder (GHashTable *folders,
                const char *folder)
{
  char *resolved = g_hash_table_lookup (folders, folder);

  if (resolved == NULL && !g_hash_table_contains (folders, folder))
    {
      resolved = resolve (folder);
      g_hash_table_insert (folders, g_strdup (folder), resolved);
    }
  return resolved;
}

static char *
canonical_path_in (GHashTable *folders,
                   const char *path)
{
  g_autofree char *absolute = absolute_path (path);
  g_autofree char *folder = g_path_get_dirname (absolute);
  g_autofree char *name = g_path_get_basename (absolute);
  const char      *resolved_folder;
  struct stat      st;

  /* A link is followed to where it leads, which may be another folder altogether. */
  if (lstat (absolute, &st) == 0 && S_ISLNK (st.st_mode))
    {
      char *resolved = resolve (absolute);

      if (resolved != NULL)
        return resolved;
    }

  /* A file that is gone (the watcher's deleted ones) has a name in its folder all the same. */
  if (strcmp (name, ".") != 0 && strcmp (name, "..") != 0 &&
      (resolved_folder = resolve_folder (folders, folder)) != NULL)
    return g_build_filename (resolved_folder, name, NULL);

  {
    char *resolved = resolve (absolute);

    return resolved != NULL ? resolved : g_canonicalize_filename (absolute, NULL);
  }
}

/* Adds the resolved spelling of each of @paths beside it, once. */
static void
add_resolved (GHashTable *folders,
              GPtrArray  *paths)
{
  g_autoptr (GHashTable) present = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = paths->len;

  for (guint i = 0; i < n; i++)
    g_hash_table_add (present, g_ptr_array_index (paths, i));
  for (guint i = 0; i < n; i++)
    {
      char *resolved = canonical_path_in (folders, g_ptr_array_index (paths, i));

      if (g_hash_table_contains (present, resolved))
        {
          g_free (resolved);
          continue;
        }
      g_ptr_array_add (paths, resolved);
      g_hash_table_add (present, resolved);
    }
}

void
loom_import_canonicalize (GPtrArray *candidates,
                          GPtrArray *roots,
                          GPtrArray *deleted)
{
  g_autoptr (GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) twice = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < candidates->len; i++)
    {
      LoomImportCandidate *candidate = g_ptr_array_index (candidates, i);
      char                *resolved = canonical_path_in (folders, candidate->path);

      if (strcmp (resolved, candidate->path) != 0)
        {
          candidate->spelled = candidate->path;
          candidate->path = resolved;
        }
      else
        g_free (resolved);
    }

  /* Two spellings of one file in one pass read it once, as the first format to list it. */
  for (guint i = 0; i < candidates->len; i++)
    {
      LoomImportCandidate *candidate = g_ptr_array_index (candidates, i);

      if (g_hash_table_contains (seen, candidate->path))
        g_array_append_val (twice, i);
      else
        g_hash_table_add (seen, candidate->path);
    }
  for (guint i = twice->len; i > 0; i--)
    g_ptr_array_remove_index (candidates, g_array_index (twice, guint, i - 1));
  g_ptr_array_sort (candidates, loom_import_candidate_compare);

  add_resolved (folders, roots);
  add_resolved (folders, deleted);
}
