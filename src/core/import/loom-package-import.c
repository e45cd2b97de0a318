/* loom-package-import.c — verifying a session package and writing its session back.
 *
 * A package comes from anywhere: a backup disk, a colleague, a download. Nothing in it is
 * trusted before it verifies. Every file is reached from a descriptor of the package's folder,
 * one component at a time with O_NOFOLLOW, so that a link (or a folder swapped for one while
 * we read) cannot lead the import out of the package; the manifest's paths must be plain
 * relative paths. session.jsonl is hashed again as it is read into the store, and the
 * transaction is rolled back unless it is still the file that verified.
 *
 * The export layer is above this one, so nothing of it is included here: the reader below
 * knows the layout from the manifest and the lines from their "type".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-event-kinds.h"
#include "loom-json-value.h"
#include "loom-jsonl-reader.h"
#include "loom-package-import.h"
#include "loom-sha256.h"
#include "loom-store-package.h"
#include "loom-store-writer.h"

/* The version of session.jsonl's lines this import reads (its header's format_version). */
#define SESSION_DATA_VERSION 1
/* A manifest lists files, not contents: anything larger is not one of ours. */
#define MANIFEST_MAX_BYTES   (64 * 1024 * 1024)
/* Folders of a package nest a few levels (artifacts/files/… mirrors a workspace). */
#define MAX_DEPTH            64
#define READ_CHUNK           (64 * 1024)
#define CANCEL_CHECK_LINES   64

void
loom_package_import_result_free (LoomPackageImportResult *result)
{
  if (result == NULL)
    return;
  g_free (result->session_id);
  g_free (result->title);
  g_free (result);
}

static gboolean
set_errno_error (GError    **error,
                 int         saved_errno,
                 const char *doing,
                 const char *name)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not %s “%s” in the package: %s", doing,
               name, g_strerror (saved_errno));
  return FALSE;
}

static void
close_fd (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

/* ——— The folder, confined ——— */

/* A manifest path is plain: relative, no empty, "." or ".." component, valid UTF-8. */
static gboolean
path_is_plain (const char *path)
{
  g_auto (GStrv) parts = NULL;

  if (path == NULL || *path == '\0' || *path == '/' || strlen (path) > 4096 ||
      !g_utf8_validate (path, -1, NULL))
    return FALSE;
  parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*parts[i] == '\0' || g_str_equal (parts[i], ".") || g_str_equal (parts[i], ".."))
        return FALSE;
    }
  return TRUE;
}

/* Opens the regular file (or with @directory, the folder) at the plain path @path below
 * @dir_fd, never through a link; -1 with @error naming it otherwise. */
static int
open_confined_at (int         dir_fd,
                  const char *path,
                  gboolean    directory,
                  GError    **error)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  int         fd = dup (dir_fd);
  struct stat st;

  if (fd < 0)
    {
      set_errno_error (error, errno, "open", path);
      return -1;
    }
  for (guint i = 0; parts[i] != NULL; i++)
    {
      gboolean last = parts[i + 1] == NULL;
      /* O_NONBLOCK: a FIFO put in a package must not hang the import on its open. */
      int      next = openat (fd, parts[i],
                              O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY |
                                (last && !directory ? O_NONBLOCK : O_DIRECTORY));
      int      saved = errno;

      close (fd);
      if (next < 0)
        {
          if (saved == ELOOP || saved == ENOTDIR)
            g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                         "“%s” in the package leads through a link or a file: refused", path);
          else if (saved == ENOENT)
            g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                         "“%s” is listed in the package’s manifest but is not there", path);
          else
            set_errno_error (error, saved, "open", path);
          return -1;
        }
      fd = next;
    }
  if (fstat (fd, &st) != 0 || (directory ? !S_ISDIR (st.st_mode) : !S_ISREG (st.st_mode)))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“%s” in the package is not a %s: refused", path,
                   directory ? "folder" : "regular file");
      close (fd);
      return -1;
    }
  return fd;
}

static int
open_confined (int         dir_fd,
               const char *path,
               GError    **error)
{
  return open_confined_at (dir_fd, path, FALSE, error);
}

/* Refuses a package in which some entry is a link, a device, a FIFO or a socket: a package
 * we wrote holds none, and a link is how a crafted one would lead a later reader out. */
static gboolean
check_tree (int           dir_fd,
            const char   *prefix,
            guint         depth,
            GCancellable *cancellable,
            GError      **error)
{
  int            fd;
  DIR           *dir;
  struct dirent *entry;
  gboolean       ok = TRUE;

  if (depth > MAX_DEPTH)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“%s” in the package nests more than %u folders deep: refused", prefix,
                   MAX_DEPTH);
      return FALSE;
    }
  if ((fd = dup (dir_fd)) < 0 || !(dir = fdopendir (fd)))
    {
      int saved = errno;

      if (fd >= 0)
        close (fd);
      return set_errno_error (error, saved, "list", *prefix ? prefix : ".");
    }

  while (ok && (errno = 0, entry = readdir (dir)) != NULL)
    {
      g_autofree char *name = NULL;
      struct stat      st;

      if (g_str_equal (entry->d_name, ".") || g_str_equal (entry->d_name, ".."))
        continue;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      name = *prefix ? g_strconcat (prefix, "/", entry->d_name, NULL) : g_strdup (entry->d_name);
      if (fstatat (dirfd (dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        ok = set_errno_error (error, errno, "look at", name);
      else if (S_ISLNK (st.st_mode))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "“%s” in the package is a symbolic link: refused", name);
          ok = FALSE;
        }
      else if (S_ISDIR (st.st_mode))
        {
          int sub = openat (dirfd (dir), entry->d_name,
                            O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

          if (sub < 0)
            ok = set_errno_error (error, errno, "open", name);
          else
            {
              ok = check_tree (sub, name, depth + 1, cancellable, error);
              close (sub);
            }
        }
      else if (!S_ISREG (st.st_mode))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "“%s” in the package is not a regular file: refused", name);
          ok = FALSE;
        }
    }
  if (ok && errno != 0)
    ok = set_errno_error (error, errno, "list", *prefix ? prefix : ".");
  closedir (dir);
  return ok;
}

/* Reads the whole of the small file @name of the package. */
static char *
read_small_file (int         dir_fd,
                 const char *name,
                 gsize       max_bytes,
                 gsize      *length,
                 GError    **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  int     fd = open_confined (dir_fd, name, error);
  guint8  chunk[READ_CHUNK];
  ssize_t n;

  if (fd < 0)
    return NULL;
  while ((n = read (fd, chunk, sizeof chunk)) != 0)
    {
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          set_errno_error (error, errno, "read", name);
          close (fd);
          return NULL;
        }
      if (bytes->len + (gsize)n > max_bytes)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "“%s” in the package is larger than any package’s: refused", name);
          close (fd);
          return NULL;
        }
      g_byte_array_append (bytes, chunk, (guint)n);
    }
  close (fd);
  *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *)"", 1);
  return (char *)g_byte_array_free (g_steal_pointer (&bytes), FALSE);
}

/* Checks the file @path against its @size and @sha256 (hex), streaming it. */
static gboolean
verify_file (int           dir_fd,
             const char   *path,
             gint64        size,
             const char   *sha256,
             GCancellable *cancellable,
             GError      **error)
{
  g_autoptr (LoomSha256) checksum = loom_sha256_new ();
  guint8  chunk[READ_CHUNK];
  guint64 total = 0;
  ssize_t n;
  int     fd = open_confined (dir_fd, path, error);

  if (fd < 0)
    return FALSE;
  while ((n = read (fd, chunk, sizeof chunk)) != 0)
    {
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          set_errno_error (error, errno, "read", path);
          close (fd);
          return FALSE;
        }
      total += (guint64)n;
      loom_sha256_update (checksum, chunk, (gsize)n);
      if (total > (guint64)size)
        break; /* larger than listed: no need to read the rest */
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          close (fd);
          return FALSE;
        }
    }
  close (fd);
  if (total != (guint64)size)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“%s” in the package is not the size its manifest lists: refused", path);
      return FALSE;
    }
  if (g_ascii_strcasecmp (loom_sha256_get_string (checksum), sha256) != 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“%s” in the package does not match its manifest’s SHA-256: refused", path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
is_sha256_hex (const char *text)
{
  if (text == NULL || strlen (text) != 64)
    return FALSE;
  for (const char *p = text; *p; p++)
    {
      if (!g_ascii_isxdigit (*p))
        return FALSE;
    }
  return TRUE;
}

gboolean
loom_package_looks_like_package (const char *path)
{
  int         fd;
  struct stat st;
  gboolean    found;

  g_return_val_if_fail (path != NULL, FALSE);

  if ((fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    return FALSE;
  found = fstatat (fd, "manifest.json", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG (st.st_mode);
  close (fd);
  return found;
}

/* What the verified manifest says. */
typedef struct
{
  char      *session_sha256;
  gint64     session_size;
  guint      n_files;
  GPtrArray *subagents; /* the plain paths of the sub-agents' packages below this one */
} Manifest;

static void
manifest_clear (Manifest *m)
{
  g_clear_pointer (&m->session_sha256, g_free);
  g_clear_pointer (&m->subagents, g_ptr_array_unref);
}

/* The manifest's "subagents" (absent in packages of earlier versions): each a folder below
 * the package whose manifest the package's own lists, @listed, so that verifying the parent
 * verified the sub-agent whole. */
static gboolean
read_subagents (const LoomJson *root,
                GHashTable     *listed,
                Manifest       *m,
                GError        **error)
{
  const LoomJson *subagents = loom_json_member_array (root, "subagents");

  m->subagents = g_ptr_array_new_with_free_func (g_free);
  for (gsize i = 0; subagents != NULL && i < loom_json_length (subagents); i++)
    {
      const char      *path = loom_json_member_string (loom_json_element (subagents, i), "path");
      g_autofree char *manifest = path != NULL ? g_strconcat (path, "/manifest.json", NULL) : NULL;

      if (!path_is_plain (path))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The package’s manifest lists the sub-agent “%s”, a path outside the "
                       "package: refused",
                       path != NULL ? path : "(none)");
          return FALSE;
        }
      if (!g_hash_table_contains (listed, manifest))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The package’s manifest lists the sub-agent “%s”, whose own manifest it "
                       "does not list: refused",
                       path);
          return FALSE;
        }
      g_ptr_array_add (m->subagents, g_strdup (path));
    }
  return TRUE;
}

/* Reads manifest.json and, with @verify, verifies every file it lists; a sub-agent's package
 * that its parent's manifest verified is not hashed twice. */
static gboolean
verify_package (int           dir_fd,
                gboolean      verify,
                Manifest     *m,
                GCancellable *cancellable,
                GError      **error)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GError) parse_error = NULL;
  g_autofree char *text = NULL;
  const LoomJson  *root, *files;
  const char      *mode;
  gint64           version;
  gsize            length;

  if (!(text = read_small_file (dir_fd, "manifest.json", MANIFEST_MAX_BYTES, &length, error)))
    return FALSE;
  if (!(root = loom_json_doc_parse (doc, text, length, &parse_error)) ||
      !loom_json_is_object (root))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“manifest.json” in the package is not a manifest: %s",
                   parse_error != NULL ? parse_error->message : "not an object");
      return FALSE;
    }
  version = loom_json_member_int (root, "format_version", 0);
  if (version < 1)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“manifest.json” in the package has no format_version: not a package");
      return FALSE;
    }
  if (version > LOOM_PACKAGE_FORMAT_VERSION)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NEWER_SCHEMA,
                   "The package is of format %" G_GINT64_FORMAT ", newer than the %d this "
                   "version of loom reads",
                   version, LOOM_PACKAGE_FORMAT_VERSION);
      return FALSE;
    }
  mode = loom_json_member_string (root, "mode");
  if (g_strcmp0 (mode, "compact") == 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The package is compact, a text for a language model: it cannot be imported "
                   "back; export the session in mode “full”");
      return FALSE;
    }
  if (!(files = loom_json_member_array (root, "files")))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“manifest.json” in the package lists no files");
      return FALSE;
    }

  /* Every listed path is checked before any file is read: a manifest that names a path out of
   * the folder is refused as such, whatever else it lists. */
  for (gsize i = 0; i < loom_json_length (files); i++)
    {
      const LoomJson *file = loom_json_element (files, i);
      const char     *path = loom_json_member_string (file, "path");

      if (!path_is_plain (path) || g_str_equal (path, "manifest.json"))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The package’s manifest lists “%s”, a path outside the package: refused",
                       path != NULL ? path : "(none)");
          return FALSE;
        }
      if (!is_sha256_hex (loom_json_member_string (file, "sha256")) ||
          loom_json_type (loom_json_member (file, "size")) != LOOM_JSON_INT ||
          loom_json_member_int (file, "size", -1) < 0 || !g_hash_table_add (seen, (gpointer)path))
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The package’s manifest lists “%s” without a size and a SHA-256, or twice",
                       path);
          return FALSE;
        }
      if (g_str_equal (path, "session.jsonl"))
        {
          m->session_sha256 = g_ascii_strdown (loom_json_member_string (file, "sha256"), -1);
          m->session_size = loom_json_member_int (file, "size", -1);
        }
    }
  if (!g_hash_table_contains (seen, "session.jsonl"))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT,
                   "The package has no “session.jsonl”: it was written by an older version of "
                   "loom and holds only what a person reads; export the session again");
      return FALSE;
    }

  if (!read_subagents (root, seen, m, error))
    return FALSE;

  m->n_files = (guint)loom_json_length (files);
  if (!verify)
    return TRUE;
  if (!check_tree (dir_fd, "", 0, cancellable, error))
    return FALSE;
  for (gsize i = 0; i < loom_json_length (files); i++)
    {
      const LoomJson *file = loom_json_element (files, i);

      if (!verify_file (dir_fd, loom_json_member_string (file, "path"),
                        loom_json_member_int (file, "size", -1),
                        loom_json_member_string (file, "sha256"), cancellable, error))
        return FALSE;
    }
  return TRUE;
}

/* ——— session.jsonl, a line at a time ——— */

typedef struct
{
  int         fd;
  guint8      buffer[READ_CHUNK];
  gsize       pos, len;
  gboolean    eof;
  GString    *line;
  guint64     n_line;
  guint64     max_line;
  LoomSha256 *checksum; /* of every byte read, checked against the manifest at the end */
  guint64     n_bytes;
} LineReader;

/* The next line (without its newline) in reader->line: 1; 0 at the end; -1 on an error. */
static int
next_line (LineReader *r,
           GError    **error)
{
  g_string_truncate (r->line, 0);
  for (;;)
    {
      guint8 *newline;

      if (r->pos == r->len)
        {
          ssize_t n;

          if (r->eof)
            break;
          n = read (r->fd, r->buffer, sizeof r->buffer);
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0)
            {
              set_errno_error (error, errno, "read", "session.jsonl");
              return -1;
            }
          r->pos = 0;
          r->len = (gsize)n;
          r->eof = n == 0;
          loom_sha256_update (r->checksum, r->buffer, (gsize)n);
          r->n_bytes += (guint64)n;
          continue;
        }
      newline = memchr (r->buffer + r->pos, '\n', r->len - r->pos);
      if (newline != NULL)
        {
          g_string_append_len (r->line, (const char *)r->buffer + r->pos,
                               newline - (r->buffer + r->pos));
          r->pos = (gsize)(newline - r->buffer) + 1;
          r->n_line++;
          return 1;
        }
      g_string_append_len (r->line, (const char *)r->buffer + r->pos, r->len - r->pos);
      r->pos = r->len;
      if (r->line->len > r->max_line)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "Line %" G_GUINT64_FORMAT " of “session.jsonl” in the package is over "
                       "the record limit: refused",
                       r->n_line + 1);
          return -1;
        }
    }
  if (r->line->len == 0)
    return 0;
  r->n_line++;
  return 1;
}

static char *
member_json (const LoomJson *object,
             const char     *name,
             gboolean        want_object)
{
  const LoomJson *value = want_object ? loom_json_member_object (object, name)
                                      : loom_json_member_array (object, name);

  return value != NULL ? loom_json_value_to_string (value) : NULL;
}

#define STR(name) g_strdup (loom_json_member_string (header, name))

/* The session of the header line, or NULL with @error. */
static LoomSessionRecord *
read_header (const LoomJson *header,
             gboolean       *title_locked,
             char          **agent_title,
             gboolean       *full,
             GError        **error)
{
  g_autoptr (LoomSessionRecord) r = loom_session_record_new ();

  if (g_strcmp0 (loom_json_member_string (header, "type"), "session") != 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“session.jsonl” in the package does not begin with its session");
      return NULL;
    }
  if (loom_json_member_int (header, "format_version", 0) != SESSION_DATA_VERSION)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_NEWER_SCHEMA,
                   "“session.jsonl” in the package is of a version this loom does not read");
      return NULL;
    }
  r->uuid = STR ("uuid");
  r->source = STR ("source");
  if (r->uuid == NULL || !g_uuid_string_is_valid (r->uuid) || r->source == NULL ||
      *r->source == '\0')
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“session.jsonl” in the package names no session (a uuid and a source)");
      return NULL;
    }
  r->source_session_id = STR ("source_session_id");
  r->title = STR ("title");
  *title_locked = loom_json_true (loom_json_member (header, "title_locked"));
  *agent_title = STR ("agent_title");
  r->project_path = STR ("project_path");
  r->project_name = STR ("project_name");
  r->cwd = STR ("cwd");
  r->git_branch = STR ("git_branch");
  r->git_commit = STR ("git_commit");
  r->agent_version = STR ("agent_version");
  r->agent_mode = STR ("agent_mode");
  r->selected_agent_id = STR ("selected_agent_id");
  r->model = STR ("model");
  r->models_json = member_json (header, "models", FALSE);
  r->created_at = loom_json_member_int (header, "created_at", 0);
  r->updated_at = loom_json_member_int (header, "updated_at", 0);
  r->last_opened_at = loom_json_member_int (header, "last_opened_at", 0);
  r->archived_at = loom_json_member_int (header, "archived_at", 0);
  r->trashed_at = loom_json_member_int (header, "trashed_at", 0);
  r->archived = loom_json_true (loom_json_member (header, "archived"));
  r->pinned = loom_json_true (loom_json_member (header, "pinned"));
  r->folder_name = STR ("folder");
  r->session_type = STR ("session_type");
  r->parent_uuid = STR ("parent_session_id");
  r->fork_source_uuid = STR ("fork_source_session_id");
  r->task_objective = STR ("task_objective");
  r->task_status = STR ("task_status");
  r->tools_used_json = member_json (header, "tools_used", TRUE);
  r->message_count = loom_json_member_int (header, "message_count", 0);
  r->event_count = loom_json_member_int (header, "event_count", 0);
  r->tokens_input = loom_json_member_int (header, "tokens_input", 0);
  r->tokens_output = loom_json_member_int (header, "tokens_output", 0);
  r->tokens_cache_read = loom_json_member_int (header, "tokens_cache_read", 0);
  r->tokens_cache_creation = loom_json_member_int (header, "tokens_cache_creation", 0);
  r->tokens_reasoning = loom_json_member_int (header, "tokens_reasoning", -1);
  r->n_user_messages = loom_json_member_int (header, "n_user_messages", 0);
  r->n_assistant_messages = loom_json_member_int (header, "n_assistant_messages", 0);
  r->n_tool_calls = loom_json_member_int (header, "n_tool_calls", 0);
  r->n_tool_results = loom_json_member_int (header, "n_tool_results", 0);
  r->n_tool_errors = loom_json_member_int (header, "n_tool_errors", 0);
  r->n_reasoning = loom_json_member_int (header, "n_reasoning", 0);
  *full = g_strcmp0 (loom_json_member_string (header, "detail"), "full") == 0;
  return g_steal_pointer (&r);
}

#undef STR

static void
read_row (const LoomJson *line,
          gboolean        is_message,
          LoomStoreRow   *row)
{
  *row = (LoomStoreRow){ .is_message = is_message };
  row->seq = loom_json_member_int (line, "seq", 0);
  row->source_id = loom_json_member_string (line, "source_id");
  row->created_at = loom_json_member_int (line, "created_at", 0);
  row->text = loom_json_member_string (line, "text");
  if (is_message)
    {
      row->role = loom_json_member_string (line, "role");
      row->flags = (guint)loom_json_member_int (line, "flags", 0);
      row->model = loom_json_member_string (line, "model");
      row->input_tokens = loom_json_member_int (line, "input_tokens", -1);
      row->output_tokens = loom_json_member_int (line, "output_tokens", -1);
      row->cache_read_tokens = loom_json_member_int (line, "cache_read_tokens", -1);
      row->cache_creation_tokens = loom_json_member_int (line, "cache_creation_tokens", -1);
      row->reasoning_tokens = loom_json_member_int (line, "reasoning_tokens", -1);
      row->message_seq = -1;
    }
  else
    {
      row->kind = loom_json_member_string (line, "kind");
      row->message_seq = loom_json_member_int (line, "message_seq", -1);
      row->call_id = loom_json_member_string (line, "call_id");
      row->tool_name = loom_json_member_string (line, "tool_name");
      row->is_error = loom_json_true (loom_json_member (line, "is_error"));
      row->path = loom_json_member_string (line, "path");
      row->change_kind = loom_json_member_string (line, "change_kind");
      row->payload = loom_json_member_string (line, "payload");
      row->payload_size = loom_json_member_int (line, "payload_size", 0);
    }
}

typedef struct
{
  LoomStoreWriter         *writer;
  LineReader               reader;
  LoomJsonDoc             *doc;
  LoomPackageImportResult *result;
} Import;

static const LoomJson *
parse_line (Import  *im,
            GError **error)
{
  g_autoptr (GError) parse_error = NULL;
  const LoomJson *value;

  value = loom_json_doc_parse (im->doc, im->reader.line->str, im->reader.line->len, &parse_error);
  if (value == NULL || !loom_json_is_object (value))
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "Line %" G_GUINT64_FORMAT " of “session.jsonl” in the package is not a "
                   "record: %s",
                   im->reader.n_line, parse_error ? parse_error->message : "not an object");
      return NULL;
    }
  return value;
}

/* A row the store refused (one that repeats another's agent id, say) is named by its line. */
static gboolean
prefix_line_error (Import  *im,
                   GError **error)
{
  g_prefix_error (
    error, "Line %" G_GUINT64_FORMAT " of “session.jsonl” in the package: ", im->reader.n_line);
  return FALSE;
}

/* Writes the session and its rows; TRUE with result->already_stored when it was there. */
static gboolean
write_session (Import       *im,
               GCancellable *cancellable,
               GError      **error)
{
  g_autoptr (LoomSessionRecord) record = NULL;
  g_autofree char *agent_title = NULL;
  const LoomJson  *line;
  gboolean         title_locked, full;
  gint64           session_id;
  int              got;

  if ((got = next_line (&im->reader, error)) <= 0)
    {
      if (got == 0)
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                     "“session.jsonl” in the package is empty");
      return FALSE;
    }
  if (!(line = parse_line (im, error)) ||
      !(record = read_header (line, &title_locked, &agent_title, &full, error)))
    return FALSE;
  im->result->session_id = g_strdup (record->uuid);
  im->result->title = g_strdup (record->title);

  session_id = loom_store_writer_find_package_session (im->writer, record->uuid, record->source,
                                                       record->source_session_id, error);
  if (session_id < 0)
    return FALSE;
  if (session_id > 0)
    {
      im->result->already_stored = TRUE;
      return TRUE;
    }
  if (!(session_id = loom_store_writer_restore_session (im->writer, record, title_locked,
                                                        agent_title, error)))
    return FALSE;

  while ((got = next_line (&im->reader, error)) > 0)
    {
      const char *type;

      if (im->reader.n_line % CANCEL_CHECK_LINES == 0 &&
          g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!(line = parse_line (im, error)))
        return FALSE;
      type = loom_json_member_string (line, "type");
      if (g_strcmp0 (type, "message") == 0 || g_strcmp0 (type, "event") == 0)
        {
          LoomStoreRow row;

          read_row (line, g_str_equal (type, "message"), &row);
          if (!loom_store_writer_restore_row (im->writer, session_id, &row, error))
            return prefix_line_error (im, error);
          (*(row.is_message ? &im->result->n_messages : &im->result->n_events))++;
        }
      else if (g_strcmp0 (type, "summary") == 0)
        {
          LoomStoreSummary summary = {
            loom_json_member_string (line, "kind"),
            loom_json_member_string (line, "text"),
            loom_json_member_string (line, "model"),
            loom_json_member_int (line, "created_at", 0),
          };

          if (!loom_store_writer_restore_summary (im->writer, session_id, &summary, error))
            return prefix_line_error (im, error);
          im->result->n_summaries++;
        }
      else
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "Line %" G_GUINT64_FORMAT " of “session.jsonl” in the package is a "
                       "record of an unknown type",
                       im->reader.n_line);
          return FALSE;
        }
    }
  if (got < 0)
    return FALSE;

  /* A package of part of the timeline (detail "messages" or "tools") keeps the original's
   * counts in its header; the rows restored are counted again, as an import counts them, so
   * that the session says what it holds. The tokens are the agent's, and stay. */
  if (!full &&
      (!loom_store_writer_recount_session (im->writer, session_id, LOOM_MESSAGE_NOT_A_PROMPT,
                                           LOOM_MESSAGE_API_ERROR, error) ||
       !loom_store_writer_set_tokens (im->writer, session_id, record->tokens_input,
                                      record->tokens_output, record->tokens_cache_read,
                                      record->tokens_cache_creation, record->tokens_reasoning,
                                      error)))
    return FALSE;
  return TRUE;
}

/* Reads the rest of session.jsonl, so that its hash covers the whole file; it must then be
 * the file that verified, or it changed since. */
static gboolean
check_session_data_unchanged (Import         *im,
                              const Manifest *m,
                              GError        **error)
{
  while (!im->reader.eof)
    {
      int got = next_line (&im->reader, error);

      if (got < 0)
        return FALSE;
      if (got == 0)
        break;
    }
  if ((gint64)im->reader.n_bytes != m->session_size ||
      g_strcmp0 (loom_sha256_get_string (im->reader.checksum), m->session_sha256) != 0)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "“session.jsonl” in the package changed while it was imported: refused");
      return FALSE;
    }
  return TRUE;
}

/* The package in @dir_fd and the sub-agents' packages below it, written into the batch of
 * @writer: the parent first, so that each sub-agent finds the parent it links to. Fills
 * @result for the package itself; counts into @n_written the sessions written (none when all
 * were stored already) and into @n_subagents the sub-agents written. */
static gboolean
import_tree (LoomStoreWriter         *writer,
             int                      dir_fd,
             gboolean                 verify,
             guint                    depth,
             LoomPackageImportResult *result,
             guint                   *n_written,
             guint                   *n_subagents,
             GCancellable            *cancellable,
             GError                 **error)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (LoomSha256) checksum = loom_sha256_new ();
  Manifest m = { 0 };
  Import   im = { 0 };
  gboolean ok = FALSE;

  if (!verify_package (dir_fd, verify, &m, cancellable, error))
    goto out;
  result->n_files_verified = m.n_files;

  if ((im.reader.fd = open_confined (dir_fd, "session.jsonl", error)) < 0)
    goto out;
  im.writer = writer;
  im.doc = doc;
  im.result = result;
  im.reader.line = g_string_new (NULL);
  im.reader.checksum = checksum;
  im.reader.max_line = loom_max_record_bytes ();

  if (!write_session (&im, cancellable, error))
    goto out;
  if (!result->already_stored)
    {
      if (!check_session_data_unchanged (&im, &m, error))
        goto out;
      (*n_written)++;
    }

  for (guint i = 0; i < m.subagents->len; i++)
    {
      const char *path = m.subagents->pdata[i];
      g_autoptr (LoomPackageImportResult) child = g_new0 (LoomPackageImportResult, 1);
      int child_fd;

      /* A chain of sub-agents deeper than any agent makes is a crafted package. */
      if (depth + 1 > LOOM_PACKAGE_MAX_SUBAGENT_DEPTH)
        {
          g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                       "The sub-agent “%s” of the package is nested more than %u deep: refused",
                       path, LOOM_PACKAGE_MAX_SUBAGENT_DEPTH);
          goto out;
        }
      if ((child_fd = open_confined_at (dir_fd, path, TRUE, error)) < 0)
        goto out;
      ok = import_tree (writer, child_fd, FALSE, depth + 1, child, n_written, n_subagents,
                        cancellable, error);
      close (child_fd);
      if (!ok)
        {
          g_prefix_error (error, "The sub-agent “%s”: ", path);
          goto out;
        }
      ok = FALSE;
      *n_subagents += !child->already_stored;
    }
  ok = TRUE;

out:
  if (im.reader.line != NULL)
    g_string_free (im.reader.line, TRUE);
  if (im.reader.fd > 0)
    close_fd (&im.reader.fd);
  manifest_clear (&m);
  return ok;
}

/* Opens the package folder @dir itself, not through a link: a link named like a package is
 * not one. */
static int
open_package_folder (const char *dir,
                     GError    **error)
{
  int dir_fd = open (dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

  if (dir_fd < 0)
    {
      int saved = errno;

      g_set_error (error, LOOM_ERROR, saved == ENOENT ? LOOM_ERROR_NOT_FOUND : LOOM_ERROR_IO,
                   "Could not open the package “%s”: %s", dir,
                   saved == ELOOP ? "it is a symbolic link" : g_strerror (saved));
    }
  return dir_fd;
}

gboolean
loom_package_verify (const char   *dir,
                     guint        *n_files,
                     GCancellable *cancellable,
                     GError      **error)
{
  Manifest m = { 0 };
  gboolean ok;
  int      dir_fd;

  g_return_val_if_fail (dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((dir_fd = open_package_folder (dir, error)) < 0)
    return FALSE;
  ok = verify_package (dir_fd, TRUE, &m, cancellable, error);
  if (ok && n_files != NULL)
    *n_files = m.n_files;
  manifest_clear (&m);
  close_fd (&dir_fd);
  return ok;
}

gboolean
loom_import_package (LoomStore                *store,
                     const char               *dir,
                     LoomPackageImportResult **result,
                     GCancellable             *cancellable,
                     GError                  **error)
{
  g_autoptr (LoomPackageImportResult) res = g_new0 (LoomPackageImportResult, 1);
  g_autoptr (LoomStoreWriter) writer = NULL;
  guint n_written = 0;
  int   dir_fd;

  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (dir != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((dir_fd = open_package_folder (dir, error)) < 0)
    return FALSE;

  /* One batch: the sessions and all their rows or nothing, indexed for search before it
   * commits. The parent's manifest lists its sub-agents' files too: verifying it verifies the
   * whole package before anything is read into the store. */
  writer = loom_store_writer_new (store);
  if (!loom_store_writer_begin_batch (writer, error) ||
      !import_tree (writer, dir_fd, TRUE, 0, res, &n_written, &res->n_subagents, cancellable,
                    error))
    {
      loom_store_writer_rollback (writer);
      close_fd (&dir_fd);
      return FALSE;
    }
  close_fd (&dir_fd);
  res->already_stored = n_written == 0;
  if (res->already_stored)
    loom_store_writer_rollback (writer);
  else if (!loom_store_writer_commit_batch (writer, error))
    return FALSE;

  if (result != NULL)
    *result = g_steal_pointer (&res);
  return TRUE;
}

/* ——— In a thread ——— */

typedef struct
{
  char *db_path;
  char *dir;
} ImportRequest;

static void
import_request_free (ImportRequest *request)
{
  g_free (request->db_path);
  g_free (request->dir);
  g_free (request);
}

static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ImportRequest *request = task_data;
  g_autoptr (LoomStore) store = NULL;
  g_autoptr (GError) error = NULL;
  LoomPackageImportResult *result = NULL;

  /* A LoomStore is used by one thread at a time: the caller's stays with the window. */
  if (!(store = loom_store_open (request->db_path, &error)) ||
      !loom_import_package (store, request->dir, &result, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, result, (GDestroyNotify)loom_package_import_result_free);
}

void
loom_import_package_async (LoomStore          *store,
                           const char         *dir,
                           GCancellable       *cancellable,
                           GAsyncReadyCallback callback,
                           gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;
  ImportRequest *request;

  g_return_if_fail (LOOM_IS_STORE (store));
  g_return_if_fail (dir != NULL);

  request = g_new0 (ImportRequest, 1);
  request->db_path = g_strdup (loom_store_get_path (store));
  request->dir = g_strdup (dir);
  task = g_task_new (store, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_import_package_async);
  g_task_set_task_data (task, request, (GDestroyNotify)import_request_free);
  g_task_run_in_thread (task, import_thread);
}

LoomPackageImportResult *
loom_import_package_finish (LoomStore    *store,
                            GAsyncResult *result,
                            GError      **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_import_package_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
