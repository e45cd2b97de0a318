/* loom-export-render.h — the blocks a conversation is made of, and the renderers that write
 * them: conversation.md (loom-export-render-markdown.c) and conversation.html
 * (loom-export-render-html.c).
 *
 * The walk of the timeline (loom-export-conversation.c) decides what each detail level shows
 * and passes every text through the package's filter and without control characters; a
 * renderer only formats and escapes what it is given. Two files from one walk, so that they
 * cannot disagree on what the session said.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "loom-export-private.h"

G_BEGIN_DECLS

/* Where a heading stands: a message of the conversation ("##"), or an event inside it, a tool
 * call, a change, reasoning… ("###"). */
typedef enum
{
  LOOM_EXPORT_ENTRY_MESSAGE,
  LOOM_EXPORT_ENTRY_EVENT,
} LoomExportEntryKind;

/* One line of the header: "Session", the session's uuid. */
typedef struct
{
  const char *label;
  const char *value;
} LoomExportField;

typedef struct _LoomExportRenderer LoomExportRenderer;

typedef struct
{
  /* The start of the file: the session's title and its fields, in order. */
  gboolean (*header) (LoomExportRenderer    *self,
                      const char            *title,
                      const LoomExportField *fields,
                      guint                  n_fields,
                      GError               **error);
  /* A new entry: @label is one of the walk's own words ("User", "Tool"), never a text of the
   * session; @detail (a tool's name, a file) and @when (ISO 8601) may be NULL. */
  gboolean (*heading) (LoomExportRenderer *self,
                       LoomExportEntryKind kind,
                       const char         *label,
                       const char         *detail,
                       const char         *when,
                       GError            **error);
  /* A prompt or a reply: the agent's Markdown. */
  gboolean (*markdown) (LoomExportRenderer *self,
                        const char         *text,
                        GError            **error);
  /* @text shown verbatim, under @label (may be NULL); @info says what it is ("text", "diff",
   * "json"); @is_error for a result that failed. */
  gboolean (*verbatim) (LoomExportRenderer *self,
                        const char         *label,
                        const char         *info,
                        gboolean            is_error,
                        const char         *text,
                        GError            **error);
  /* The sub-agent session @uuid started here; @folder is its package's folder below this
   * package ("subagents/<name>"), NULL when it is not in the package. */
  gboolean (*subagent) (LoomExportRenderer *self,
                        const char         *uuid,
                        const char         *folder,
                        GError            **error);
  /* The end of the file (not closing it). */
  gboolean (*finish) (LoomExportRenderer *self,
                      GError            **error);
  void (*free) (LoomExportRenderer *self);
} LoomExportRendererClass;

/* A renderer writes into a file of the package it does not own. */
struct _LoomExportRenderer
{
  const LoomExportRendererClass *klass;
  LoomExportFile                *out;
};

LoomExportRenderer *loom_export_renderer_new_markdown (LoomExportFile *out);
LoomExportRenderer *loom_export_renderer_new_html (LoomExportFile *out);
void                loom_export_renderer_free (LoomExportRenderer *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomExportRenderer, loom_export_renderer_free)

/* The agent's Markdown @text as HTML (loom-export-html-markdown.c): md4c with raw HTML off, so
 * that a text can never add markup of its own, and every link and image checked against an
 * allow-list: a link keeps its address only when it is http, https, mailto or relative; an
 * image becomes a link to it (a page that loads nothing), or its description alone. */
char *loom_export_markdown_to_html (const char *text,
                                    gsize      *length);

/* @text escaped for HTML content and attributes, control characters but newlines and tabs
 * left out, appended to @out. */
void loom_export_html_escape (GString    *out,
                              const char *text,
                              gssize      length);

G_END_DECLS
