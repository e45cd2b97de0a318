/* loom-export-package.c — the files of one package, written into a folder of ours.
 *
 *   conversation.md, conversation.html, metadata.json,
 *   session.jsonl, artifacts/                                   the session's
 *   subagents/<Title - YYYY-MM-DD>/                             each sub-agent it started,
 *                                                               a package of the same layout
 *   manifest.json                                               last: it lists all the others
 *
 * A sub-agent's folder is named before the parent's conversation is written, so that the
 * conversation links it at the place it was started. Its package is written with the parent's
 * filter, so that a secret has one placeholder in the whole package; its manifest lists its own
 * files, and the parent's lists them too, below the sub-agent's folder, so that the parent
 * verifies whole. Everything is written relative to descriptors of our own folders, and what
 * was made is remembered so that a failure removes exactly that, sub-agents included.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-export-private.h"
#include "loom-store-timeline-pages.h"
#include "loom-time.h"

#define SUBAGENTS_FOLDER "subagents"
/* How many " (N)" names a sub-agent's folder tries. */
#define MAX_SUFFIX       999

struct _LoomPackageWriter
{
  int                   dir_fd; /* owned: the package's folder */
  GPtrArray            *files;  /* LoomExportFile in dir_fd, in the order they were made */
  LoomPackageArtifacts *artifacts;
  int                   subagents_fd;
  gboolean              made_subagents;
  GPtrArray            *children;    /* LoomPackageWriter, one per sub-agent */
  GPtrArray            *child_names; /* their folders' names in subagents/ */
  GPtrArray            *child_uuids;
  LoomExportMark       *mark;             /* the filter's counts when this package began */
  guint                 n_redactions;     /* what its manifest counts */
  guint                 estimated_tokens; /* a compact package's conversation.md */
};

gboolean
loom_export_set_io_error (GError    **error,
                          int         saved_errno,
                          const char *what,
                          const char *path)
{
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "Could not %s “%s” in the package: %s", what, path,
               g_strerror (saved_errno));
  return FALSE;
}

static LoomPackageWriter *
package_writer_new (int dir_fd)
{
  LoomPackageWriter *self = g_new0 (LoomPackageWriter, 1);

  self->dir_fd = dir_fd;
  self->subagents_fd = -1;
  self->files = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_export_file_free);
  self->children = g_ptr_array_new_with_free_func ((GDestroyNotify)loom_package_writer_free);
  self->child_names = g_ptr_array_new_with_free_func (g_free);
  self->child_uuids = g_ptr_array_new_with_free_func (g_free);
  return self;
}

void
loom_package_writer_free (LoomPackageWriter *self)
{
  if (self == NULL)
    return;
  if (self->subagents_fd >= 0)
    close (self->subagents_fd);
  if (self->dir_fd >= 0)
    close (self->dir_fd);
  g_ptr_array_unref (self->children);
  g_ptr_array_unref (self->child_names);
  g_ptr_array_unref (self->child_uuids);
  g_ptr_array_unref (self->files);
  g_clear_pointer (&self->artifacts, loom_package_artifacts_free);
  g_clear_pointer (&self->mark, loom_export_mark_free);
  g_free (self);
}

void
loom_package_writer_remove (LoomPackageWriter *self)
{
  g_return_if_fail (self != NULL);

  /* Only what we made, by the names we made it with; a folder someone else wrote into stays. */
  for (guint i = 0; i < self->children->len; i++)
    {
      loom_package_writer_remove (self->children->pdata[i]);
      unlinkat (self->subagents_fd, self->child_names->pdata[i], AT_REMOVEDIR);
    }
  g_ptr_array_set_size (self->children, 0);
  g_ptr_array_set_size (self->child_names, 0);
  if (self->made_subagents)
    unlinkat (self->dir_fd, SUBAGENTS_FOLDER, AT_REMOVEDIR);
  self->made_subagents = FALSE;
  if (self->artifacts != NULL)
    loom_package_artifacts_remove (self->artifacts);
  for (guint i = 0; i < self->files->len; i++)
    unlinkat (self->dir_fd, loom_export_file_get_name (self->files->pdata[i]), 0);
  g_ptr_array_set_size (self->files, 0);
}

static LoomExportFile *
create_file (LoomPackageWriter *self,
             const char        *name,
             GCancellable      *cancellable,
             GError           **error)
{
  LoomExportFile *file = loom_export_file_create (self->dir_fd, name, cancellable, error);

  /* Listed as soon as it exists, so that a failure while writing it removes it too. */
  if (file != NULL)
    g_ptr_array_add (self->files, file);
  return file;
}

static gboolean
write_json_file (LoomPackageWriter *self,
                 const char        *name,
                 JsonNode          *node,
                 GCancellable      *cancellable,
                 GError           **error)
{
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  LoomExportFile  *file;
  gsize            length;

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  text = json_generator_to_data (generator, &length);

  return (file = create_file (self, name, cancellable, error)) &&
         loom_export_file_write (file, text, (gssize)length, error) &&
         loom_export_file_write (file, "\n", 1, error) && loom_export_file_close (file, error);
}

/* The manifest */

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_time (JsonBuilder *builder,
          const char  *name,
          gint64       ms)
{
  g_autofree char *iso = ms != 0 ? loom_time_to_iso (ms) : NULL;

  add_string (builder, name, iso);
}

static void
add_file (JsonBuilder *builder,
          const char  *prefix,
          const char  *path,
          guint64      size,
          const char  *sha256)
{
  g_autofree char *full = g_strconcat (prefix, path, NULL);

  json_builder_begin_object (builder);
  add_string (builder, "path", full);
  add_int (builder, "size", (gint64)size);
  add_string (builder, "sha256", sha256);
  json_builder_end_object (builder);
}

/* Every file of the package below @self, manifests of sub-agents included, each path after
 * @prefix; the manifest of @self itself only when @with_manifest. */
static void
add_files (LoomPackageWriter *self,
           JsonBuilder       *builder,
           const char        *prefix,
           gboolean           with_manifest)
{
  for (guint i = 0; i < self->files->len; i++)
    {
      LoomExportFile *file = self->files->pdata[i];

      if (!with_manifest && g_str_equal (loom_export_file_get_name (file), "manifest.json"))
        continue;
      add_file (builder, prefix, loom_export_file_get_name (file), loom_export_file_get_size (file),
                loom_export_file_get_sha256 (file));
    }
  if (self->artifacts != NULL)
    loom_package_artifacts_add_files (self->artifacts, builder, prefix);
  for (guint i = 0; i < self->children->len; i++)
    {
      g_autofree char *child_prefix = g_strconcat (prefix, SUBAGENTS_FOLDER "/",
                                                   (char *)self->child_names->pdata[i], "/", NULL);

      add_files (self->children->pdata[i], builder, child_prefix, TRUE);
    }
}

/* The members of the manifest that hold what the package is made of, never a text of the
 * session: redaction leaves them (and all below them) as they are, so that they still name the
 * package's files. */
static const char *const manifest_own_members[] = {
  "format_version", "session_id", "exported_at", "package_path",     "sha256",
  "diff",           "detail",     "mode",        "redactions",       "files",
  "app_version",    "subagents",  "budget",      "estimated_tokens", NULL,
};

static JsonNode *
build_manifest (LoomPackageWriter       *self,
                LoomSession             *session,
                const LoomExportOptions *options,
                LoomExportFilter        *filter)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonParser) parser = json_parser_new ();
  const LoomSessionRecord *r = loom_session_get_record (session);
  JsonNode                *manifest;

  json_builder_begin_object (builder);
  add_int (builder, "format_version", LOOM_EXPORT_FORMAT_VERSION);
  add_string (builder, "title", r->title);
  add_string (builder, "session_id", r->uuid);
  add_string (builder, "source", r->source);
  add_string (builder, "source_session_id", r->source_session_id);
  add_time (builder, "exported_at", loom_time_now_ms ());
  add_string (builder, "model", r->model);
  add_string (builder, "agent", r->selected_agent_id != NULL ? r->selected_agent_id : r->source);
  add_string (builder, "agent_version", r->agent_version);
  add_int (builder, "message_count", r->message_count);
  loom_package_artifacts_build_manifest (self->artifacts, builder);

  json_builder_set_member_name (builder, "tools_used");
  if (r->tools_used_json != NULL &&
      json_parser_load_from_data (parser, r->tools_used_json, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    json_builder_add_value (builder, json_node_copy (json_parser_get_root (parser)));
  else
    {
      json_builder_begin_object (builder);
      json_builder_end_object (builder);
    }

  add_time (builder, "created_at", r->created_at);
  /* Seconds from the first record to the last; null when either time is unknown. */
  json_builder_set_member_name (builder, "duration");
  if (r->created_at != 0 && r->updated_at >= r->created_at)
    json_builder_add_int_value (builder, (r->updated_at - r->created_at) / 1000);
  else
    json_builder_add_null_value (builder);
  add_string (builder, "detail", loom_export_detail_to_string (options->detail));
  add_string (builder, "mode", loom_export_mode_to_string (options->mode));
  self->n_redactions = loom_export_filter_build_manifest (filter, builder, self->mark);
  /* A compact package's token budget and its conversation's estimate. */
  json_builder_set_member_name (builder, "budget");
  if (options->mode == LOOM_EXPORT_MODE_COMPACT)
    json_builder_add_int_value (builder, options->budget != 0 ? options->budget
                                                              : LOOM_EXPORT_DEFAULT_BUDGET);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "estimated_tokens");
  if (options->mode == LOOM_EXPORT_MODE_COMPACT)
    json_builder_add_int_value (builder, self->estimated_tokens);
  else
    json_builder_add_null_value (builder);

  /* The sub-agents' packages, for a reader and for the import, which brings them back after
   * their parent. Their titles are given in "title" of their own manifests. */
  json_builder_set_member_name (builder, "subagents");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->children->len; i++)
    {
      g_autofree char *path = g_build_filename (SUBAGENTS_FOLDER, self->child_names->pdata[i],
                                                NULL);

      json_builder_begin_object (builder);
      add_string (builder, "session_id", self->child_uuids->pdata[i]);
      add_string (builder, "path", path);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "files");
  json_builder_begin_array (builder);
  add_files (self, builder, "", FALSE);
  json_builder_end_array (builder);

  add_string (builder, "app_version", PACKAGE_VERSION);
  json_builder_end_object (builder);
  manifest = json_builder_get_root (builder);
  /* The texts of the session that the manifest repeats (its title, the paths it touched) are
   * shown as everywhere else in the package; its own names, hashes and figures are not texts
   * of the session. */
  loom_export_filter_json (filter, manifest, manifest_own_members);
  return manifest;
}

/* Sub-agents */

/* A new folder for a sub-agent in subagents/, named after its title, " (2)"… when two have
 * the same. */
static int
make_child_folder (LoomPackageWriter *self,
                   const char        *base,
                   char             **name,
                   GError           **error)
{
  for (guint n = 1; n <= MAX_SUFFIX; n++)
    {
      g_autofree char *candidate = n == 1 ? g_strdup (base) : g_strdup_printf ("%s (%u)", base, n);
      int              fd;

      if (mkdirat (self->subagents_fd, candidate, 0755) != 0)
        {
          if (errno == EEXIST)
            continue;
          loom_export_set_io_error (error, errno, "create a folder for a sub-agent in",
                                    SUBAGENTS_FOLDER);
          return -1;
        }
      fd = openat (self->subagents_fd, candidate, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0)
        {
          int saved = errno;

          unlinkat (self->subagents_fd, candidate, AT_REMOVEDIR);
          loom_export_set_io_error (error, saved, "open", candidate);
          return -1;
        }
      *name = g_steal_pointer (&candidate);
      return fd;
    }
  g_set_error (error, LOOM_ERROR, LOOM_ERROR_EXISTS, "Too many sub-agents named “%s”", base);
  return -1;
}

/* Names a folder for each sub-agent of @session, adding the sessions to @child_sessions and
 * their links to @links: they are written after the parent's conversation, which links them. */
static gboolean
name_children (LoomPackageWriter *self,
               LoomStore         *store,
               LoomSession       *session,
               LoomExportFilter  *filter,
               GPtrArray         *child_sessions,
               GHashTable        *links,
               GError           **error)
{
  g_autoptr (GListModel) children = NULL;
  guint n;

  if (!(children = loom_store_list_child_sessions (store, loom_session_get_uuid (session), error)))
    return FALSE;
  if ((n = g_list_model_get_n_items (children)) == 0)
    return TRUE;

  if (mkdirat (self->dir_fd, SUBAGENTS_FOLDER, 0755) != 0)
    return loom_export_set_io_error (error, errno, "create", SUBAGENTS_FOLDER);
  self->made_subagents = TRUE;
  self->subagents_fd = openat (self->dir_fd, SUBAGENTS_FOLDER,
                               O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (self->subagents_fd < 0)
    return loom_export_set_io_error (error, errno, "open", SUBAGENTS_FOLDER);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LoomSession) child = g_list_model_get_item (children, i);
      g_autofree char *redacted = loom_export_filter_title (filter, loom_session_get_title (child));
      const char      *title = redacted != NULL ? redacted : loom_session_get_title (child);
      g_autofree char *base = loom_export_package_name (title, loom_session_get_created_at (child));
      g_autofree char *name = NULL;
      int              fd = make_child_folder (self, base, &name, error);

      if (fd < 0)
        return FALSE;
      /* The folder is ours from now on, and removed on failure with the writer that fills it. */
      g_ptr_array_add (self->children, package_writer_new (fd));
      g_ptr_array_add (self->child_names, g_strdup (name));
      g_ptr_array_add (self->child_uuids, g_strdup (loom_session_get_uuid (child)));
      g_ptr_array_add (child_sessions, g_object_ref (child));
      g_hash_table_insert (links, g_strdup (loom_session_get_uuid (child)),
                           g_build_filename (SUBAGENTS_FOLDER, name, NULL));
    }
  return TRUE;
}

/* Writing */

void
loom_export_report (const LoomExportOptions *options,
                    const char              *session_id,
                    const char              *step,
                    const char              *artifact,
                    guint                    n_artifacts_done,
                    guint                    n_artifacts_total)
{
  LoomExportProgress progress = { session_id, step, artifact, n_artifacts_done, n_artifacts_total };

  if (options->progress != NULL)
    options->progress (&progress, options->progress_data);
}

/* @session as its package tells it: with LoomExportOptions.as_archived, archived since now, as
 * the sweep that writes the package is about to make it and its sub-agents. */
static LoomSession *
session_as_told (LoomSession             *session,
                 const LoomExportOptions *options)
{
  g_autoptr (LoomSessionRecord) archived = NULL;

  if (!options->as_archived || loom_session_get_archived (session))
    return g_object_ref (session);
  archived = loom_session_record_copy (loom_session_get_record (session));
  archived->archived = TRUE;
  archived->archived_at = g_get_real_time () / 1000;
  return loom_session_new (archived);
}

static gboolean
write_contents (LoomPackageWriter       *self,
                LoomStore               *store,
                LoomSession             *stored,
                const LoomExportOptions *options,
                LoomExportFilter        *filter,
                guint                    depth,
                GCancellable            *cancellable,
                GError                 **error)
{
  g_autoptr (LoomSession) session = session_as_told (stored, options);
  g_autoptr (GPtrArray) children = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GHashTable) links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (JsonNode) metadata = NULL;
  g_autoptr (JsonNode) manifest = NULL;
  const char     *uuid = loom_session_get_uuid (session);
  LoomExportFile *conversation;
  LoomExportFile *page = NULL;
  LoomExportFile *session_data;

  self->mark = loom_export_filter_mark (filter);

  /* The sub-agents a parent started go with it where its conversation shows them starting:
   * at the detail levels that show tool calls. A chain of them deeper than any agent makes is
   * cut, whatever a store says. A compact text shows each as one line instead. */
  if (options->detail >= LOOM_EXPORT_DETAIL_TOOLS && depth < LOOM_EXPORT_MAX_SUBAGENT_DEPTH &&
      options->mode != LOOM_EXPORT_MODE_COMPACT &&
      !name_children (self, store, session, filter, children, links, error))
    return FALSE;

  /* The conversation as Markdown and, written in the same pass, as a page a browser opens. A
   * compact package is a text for a model, which reads the Markdown (loom-export-compact.c). */
  loom_export_report (options, uuid, "conversation", NULL, 0, 0);
  if (!(conversation = create_file (self, "conversation.md", cancellable, error)))
    return FALSE;
  if (options->mode == LOOM_EXPORT_MODE_COMPACT)
    {
      if (!loom_export_write_compact (store, session, options, filter, self->mark, conversation,
                                      &self->estimated_tokens, cancellable, error) ||
          !loom_export_file_close (conversation, error))
        return FALSE;
    }
  else if (!(page = create_file (self, "conversation.html", cancellable, error)) ||
           !loom_export_write_conversation (store, session, options->detail, filter, links,
                                            conversation, page, cancellable, error) ||
           !loom_export_file_close (conversation, error) || !loom_export_file_close (page, error))
    return FALSE;

  loom_export_report (options, uuid, "metadata", NULL, 0, 0);
  metadata = loom_session_to_json (session);
  loom_export_filter_json (filter, metadata, (const char *const[]){ "id", NULL });
  if (!write_json_file (self, "metadata.json", metadata, cancellable, error))
    return FALSE;

  /* The rows as the store keeps them, for `loom import`; a compact package is a text for a
   * model, not a copy of the session. */
  loom_export_report (options, uuid, "session-data", NULL, 0, 0);
  if (options->mode != LOOM_EXPORT_MODE_COMPACT &&
      (!(session_data = create_file (self, "session.jsonl", cancellable, error)) ||
       !loom_export_write_session_data (store, session, options->detail, filter, session_data,
                                        cancellable, error) ||
       !loom_export_file_close (session_data, error)))
    return FALSE;

  if (!(self->artifacts = loom_package_artifacts_write (store, session, self->dir_fd, options,
                                                        filter, cancellable, error)))
    return FALSE;

  if (children->len > 0)
    loom_export_report (options, uuid, "subagents", NULL, 0, 0);
  for (guint i = 0; i < children->len; i++)
    {
      if (!write_contents (self->children->pdata[i], store, children->pdata[i], options, filter,
                           depth + 1, cancellable, error))
        return FALSE;
    }

  /* Last, so that it lists every other file; it does not list itself. */
  loom_export_report (options, uuid, "manifest", NULL, 0, 0);
  manifest = build_manifest (self, session, options, filter);
  if (!write_json_file (self, "manifest.json", manifest, cancellable, error))
    return FALSE;
  return TRUE;
}

LoomPackageWriter *
loom_package_writer_write (LoomStore               *store,
                           LoomSession             *session,
                           int                      dir_fd,
                           const LoomExportOptions *options,
                           LoomExportFilter        *filter,
                           GCancellable            *cancellable,
                           GError                 **error)
{
  LoomPackageWriter *self;
  int                fd;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (LOOM_IS_SESSION (session), NULL);
  g_return_val_if_fail (dir_fd >= 0, NULL);

  if ((fd = fcntl (dir_fd, F_DUPFD_CLOEXEC, 3)) < 0)
    {
      loom_export_set_io_error (error, errno, "open", ".");
      return NULL;
    }
  self = package_writer_new (fd);
  if (!write_contents (self, store, session, options, filter, 0, cancellable, error))
    {
      loom_package_writer_remove (self);
      g_clear_pointer (&self, loom_package_writer_free);
    }
  return self;
}

/* Figures, the sub-agents' included */

guint
loom_package_writer_get_n_files (LoomPackageWriter *self)
{
  guint n = self->files->len + loom_package_artifacts_get_n_files (self->artifacts);

  for (guint i = 0; i < self->children->len; i++)
    n += loom_package_writer_get_n_files (self->children->pdata[i]);
  return n;
}

guint64
loom_package_writer_get_n_bytes (LoomPackageWriter *self)
{
  guint64 n = loom_package_artifacts_get_n_bytes (self->artifacts);

  for (guint i = 0; i < self->files->len; i++)
    n += loom_export_file_get_size (self->files->pdata[i]);
  for (guint i = 0; i < self->children->len; i++)
    n += loom_package_writer_get_n_bytes (self->children->pdata[i]);
  return n;
}

guint
loom_package_writer_get_n_artifacts (LoomPackageWriter *self)
{
  guint n = loom_package_artifacts_get_n_copied (self->artifacts);

  for (guint i = 0; i < self->children->len; i++)
    n += loom_package_writer_get_n_artifacts (self->children->pdata[i]);
  return n;
}

guint
loom_package_writer_get_n_artifacts_missing (LoomPackageWriter *self)
{
  guint n = loom_package_artifacts_get_n_missing (self->artifacts);

  for (guint i = 0; i < self->children->len; i++)
    n += loom_package_writer_get_n_artifacts_missing (self->children->pdata[i]);
  return n;
}

guint
loom_package_writer_get_n_subagents (LoomPackageWriter *self)
{
  guint n = self->children->len;

  for (guint i = 0; i < self->children->len; i++)
    n += loom_package_writer_get_n_subagents (self->children->pdata[i]);
  return n;
}

guint
loom_package_writer_get_n_redactions (LoomPackageWriter *self)
{
  return self->n_redactions;
}
