/* loom-export-private.h — the parts of an export that share its files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-export.h"
#include "loom-session.h"

G_BEGIN_DECLS

/* One file of a package being written: created new (O_EXCL, never through a link) in the
 * package's folder, written through a buffer, its size counted and its SHA-256 computed on the
 * way, so that the manifest never reads a file back. */
typedef struct _LoomExportFile LoomExportFile;

LoomExportFile *loom_export_file_create (int           dir_fd,
                                         const char   *name,
                                         GCancellable *cancellable,
                                         GError      **error);
gboolean        loom_export_file_write (LoomExportFile *self,
                                        const char     *data,
                                        gssize          length,
                                        GError        **error);
gboolean        loom_export_file_printf (LoomExportFile *self,
                                         GError        **error,
                                         const char     *format,
                                         ...) G_GNUC_PRINTF (3,
                                                             4);
/* Writes what is buffered and closes the file; its size and hash are known then. The package
 * is made durable whole before it is published (loom-export.c). */
gboolean        loom_export_file_close (LoomExportFile *self,
                                        GError        **error);
const char     *loom_export_file_get_name (LoomExportFile *self);
guint64         loom_export_file_get_size (LoomExportFile *self);
/* The hex SHA-256 of the contents, once closed. */
const char     *loom_export_file_get_sha256 (LoomExportFile *self);
/* Closes the descriptor if still open; the file stays where it is. */
void            loom_export_file_free (LoomExportFile *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomExportFile, loom_export_file_free)

/* What a package shows of the session's texts (loom-export-filter.c): each text as it is, or in
 * a redacted package a copy with its secrets replaced. One filter per package, shared by every
 * file written into it, so that a secret has the same placeholder everywhere. Every text taken
 * from the store goes through it before it is escaped or formatted for a file: detection works
 * on the decoded text. */
typedef struct _LoomExportFilter LoomExportFilter;
/* The counts of a filter at one moment, for a package inside a package (a sub-agent's) to
 * count only what was replaced since it began. */
typedef struct _LoomExportMark   LoomExportMark;

LoomExportFilter *loom_export_filter_new (LoomExportMode mode);
void              loom_export_filter_free (LoomExportFilter *self);
/* Whether texts are redacted; FALSE for a NULL filter. */
gboolean          loom_export_filter_redacts (LoomExportFilter *self);
/* A copy of @text with its secrets replaced; NULL when it is shown as it is (nothing found, or
 * the package is not redacted, or @self is NULL). */
char             *loom_export_filter_text (LoomExportFilter *self,
                                           const char       *text,
                                           gssize            length);
/* @text as the package shows it: @text itself, or the redacted copy, left in *@to_free (which
 * must be NULL) for the caller to free. */
const char       *loom_export_filter_apply (LoomExportFilter *self,
                                            const char       *text,
                                            char            **to_free);
/* Secrets replaced so far, each occurrence counted. */
guint             loom_export_filter_get_n_redactions (LoomExportFilter *self);
/* The session's title @title as the package shows it: redacted, and in a redacted package
 * without the fragment of a word that ends a title the store cut ("…"), which may be most of a
 * secret that detection can no longer recognise. NULL when it is shown as it is. */
char             *loom_export_filter_title (LoomExportFilter *self,
                                            const char       *title);
/* Whether @text holds a secret the package would replace; asking counts nothing. For names
 * (of artifacts, of diffs) that cannot be rewritten and are then left out. */
gboolean          loom_export_filter_finds_secret (LoomExportFilter *self,
                                                   const char       *text);
/* A LoomArtifactTransform: the @length bytes of @data, which may hold NULs, redacted by the
 * filter @user_data; NULL when nothing changed. */
char             *loom_export_filter_bytes (const char *data,
                                            gsize       length,
                                            gsize      *out_length,
                                            gpointer    user_data);
/* Replaces, in place, every string value below @node with what the package shows of it,
 * leaving out the members named in @skip_members (NULL-terminated, may be NULL) and all below
 * them: the package's own names and hashes. */
void              loom_export_filter_json (LoomExportFilter  *self,
                                           JsonNode          *node,
                                           const char *const *skip_members);
/* A copy of the JSON text @text with the secrets of its decoded strings replaced (a secret
 * escaped in JSON is not found in the text as it is), written anew; a text that does not parse
 * is filtered as a text. NULL when it is shown as it is. */
char             *loom_export_filter_json_text (LoomExportFilter *self,
                                                const char       *text);
/* Adds the manifest's "redactions" member to @builder, inside an object: null when the package
 * is not redacted, else {total, secrets, families: {family: occurrences}}, counting what was
 * replaced since @since (NULL: since the filter was made). Returns the total it wrote. */
guint             loom_export_filter_build_manifest (LoomExportFilter *self,
                                                     JsonBuilder      *builder,
                                                     LoomExportMark   *since);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomExportFilter, loom_export_filter_free)

LoomExportMark *loom_export_filter_mark (LoomExportFilter *self);
void            loom_export_mark_free (LoomExportMark *mark);
/* Takes what @self replaced since @since out of what the manifest of the package that began at
 * @package counts (its occurrences, not its distinct secrets): a compact package reads its
 * texts once to measure them before it writes them, and counts what it writes. */
void            loom_export_filter_discount (LoomExportFilter *self,
                                             LoomExportMark   *package,
                                             LoomExportMark   *since);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomExportMark, loom_export_mark_free)

/* Writes @session's timeline at @detail into @markdown as Markdown and, in the same pass, into
 * @html (may be NULL) as one self-contained page, a page of the timeline at a time, every text
 * through @filter (NULL: as it is). A sub-agent whose uuid is in @subagent_links (uuid -> its
 * package's folder below this package, "subagents/<name>"; may be NULL) is linked where it was
 * started, to the conversation of the same format in that folder. */
gboolean loom_export_write_conversation (LoomStore        *store,
                                         LoomSession      *session,
                                         LoomExportDetail  detail,
                                         LoomExportFilter *filter,
                                         GHashTable       *subagent_links,
                                         LoomExportFile   *markdown,
                                         LoomExportFile   *html,
                                         GCancellable     *cancellable,
                                         GError          **error);

/* Writes @session's compact conversation.md into @out (loom-export-compact.c): a header with
 * its objective, the files it touched, its outcome and the token estimate, then its prompts and
 * replies, each tool call as one line with its output bounded to its first and last lines, no
 * text twice, all within @options' budget by loom_export_estimate_tokens (); every text through
 * @filter, whose counts in the package begun at @package_mark (may be NULL) are those of what
 * is written. @options' detail "messages" leaves tool calls out. The estimate of the text
 * written goes in @estimated_tokens. */
gboolean loom_export_write_compact (LoomStore               *store,
                                    LoomSession             *session,
                                    const LoomExportOptions *options,
                                    LoomExportFilter        *filter,
                                    LoomExportMark          *package_mark,
                                    LoomExportFile          *out,
                                    guint                   *estimated_tokens,
                                    GCancellable            *cancellable,
                                    GError                 **error);

/* The version of session.jsonl's lines, written in its header. */
#define LOOM_EXPORT_SESSION_DATA_VERSION 1

/* Writes @session's rows into @out as session.jsonl (loom-export-session-data.c): a header
 * with every field of the session, then its messages and events in seq order with every
 * column the store keeps, those of @detail only, then its summaries; every text through
 * @filter. What `loom import PACKAGE_DIR` reads back. */
gboolean loom_export_write_session_data (LoomStore        *store,
                                         LoomSession      *session,
                                         LoomExportDetail  detail,
                                         LoomExportFilter *filter,
                                         LoomExportFile   *out,
                                         GCancellable     *cancellable,
                                         GError          **error);

/* The package's artifacts/ folder (loom-export-package-artifacts.c): files/ with the files the
 * session touched, copied from its workspace only, and changes/ with its changes as diffs. */
typedef struct _LoomPackageArtifacts LoomPackageArtifacts;

/* Writes artifacts/ into the package's folder @package_fd. Through @filter, in a redacted package, go the text files and the diffs; a
 * binary file is left out there, and so is a file or diff whose name holds a secret. A file that cannot be copied (not there, outside the workspace, over a cap…)
 * is listed with its reason, not an error; NULL with @error when writing the package failed or
 * was cancelled, and then nothing of artifacts/ is left. */
LoomPackageArtifacts *loom_package_artifacts_write (LoomStore               *store,
                                                    LoomSession             *session,
                                                    int                      package_fd,
                                                    const LoomExportOptions *options,
                                                    LoomExportFilter        *filter,
                                                    GCancellable            *cancellable,
                                                    GError                 **error);
/* Adds the manifest's "artifact_count", "artifacts" and "changes" members to @builder, inside
 * an object. */
void                  loom_package_artifacts_build_manifest (LoomPackageArtifacts *self,
                                                             JsonBuilder          *builder);
/* Adds an object {path, size, sha256} for each file of artifacts/ to @builder, inside an
 * array, each path after @prefix. */
void                  loom_package_artifacts_add_files (LoomPackageArtifacts *self,
                                                        JsonBuilder          *builder,
                                                        const char           *prefix);
guint                 loom_package_artifacts_get_n_copied (LoomPackageArtifacts *self);
/* The touched files that are not in the package, whatever the reason. */
guint                 loom_package_artifacts_get_n_missing (LoomPackageArtifacts *self);
/* The copies and the diffs. */
guint                 loom_package_artifacts_get_n_files (LoomPackageArtifacts *self);
guint64               loom_package_artifacts_get_n_bytes (LoomPackageArtifacts *self);
/* Removes what loom_package_artifacts_write () made, for a package that fails after it. */
void                  loom_package_artifacts_remove (LoomPackageArtifacts *self);
void                  loom_package_artifacts_free (LoomPackageArtifacts *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomPackageArtifacts, loom_package_artifacts_free)

/* Tells @options' progress function, if any, where the package of @session_id is
 * (LoomExportProgress). */
void loom_export_report (const LoomExportOptions *options,
                         const char              *session_id,
                         const char              *step,
                         const char              *artifact,
                         guint                    n_artifacts_done,
                         guint                    n_artifacts_total);

/* Sets @error to "Could not @what “@path” in the package: …" for @saved_errno; FALSE. */
gboolean loom_export_set_io_error (GError    **error,
                                   int         saved_errno,
                                   const char *what,
                                   const char *path);

/* How deep sub-agents of sub-agents go in a package: deeper than any agent nests them. */
#define LOOM_EXPORT_MAX_SUBAGENT_DEPTH 8

/* The files of one package in a folder of ours (loom-export-package.c): conversation.md,
 * conversation.html (but in a compact package), metadata.json, session.jsonl, artifacts/, subagents/<name>/ for each sub-agent the session
 * started (at the detail levels with tool calls), each a package of the same layout, and
 * manifest.json, which lists and hashes all of them. */
typedef struct _LoomPackageWriter LoomPackageWriter;

/* Writes the package of @session into the folder @dir_fd (borrowed), every file through
 * @filter. NULL with @error when it failed or was cancelled; nothing it made is left then. */
LoomPackageWriter *loom_package_writer_write (LoomStore               *store,
                                              LoomSession             *session,
                                              int                      dir_fd,
                                              const LoomExportOptions *options,
                                              LoomExportFilter        *filter,
                                              GCancellable            *cancellable,
                                              GError                 **error);
/* Removes every file and folder the writer made. */
void               loom_package_writer_remove (LoomPackageWriter *self);
void               loom_package_writer_free (LoomPackageWriter *self);
/* The package's figures, its sub-agents' included; the files count the manifests. */
guint              loom_package_writer_get_n_files (LoomPackageWriter *self);
guint64            loom_package_writer_get_n_bytes (LoomPackageWriter *self);
guint              loom_package_writer_get_n_artifacts (LoomPackageWriter *self);
guint              loom_package_writer_get_n_artifacts_missing (LoomPackageWriter *self);
guint              loom_package_writer_get_n_subagents (LoomPackageWriter *self);
/* What its manifest counts: the replacements in every other file of the package. */
guint              loom_package_writer_get_n_redactions (LoomPackageWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomPackageWriter, loom_package_writer_free)

G_END_DECLS
