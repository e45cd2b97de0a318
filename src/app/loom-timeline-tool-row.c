/* loom-timeline-tool-row.c — a tool call, file change or sub-agent start, folded to one line.
 *
 * Folded, a row is the tool's name and what it acted on (the command, the file). Opened, it
 * shows the input (read from the store then, and only then), the result it came with, and for
 * a file change the diff. A failed call says so in colour, with an icon and in words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-markdown.h"
#include "loom-timeline-format.h"
#include "loom-timeline-model.h"
#include "loom-timeline-tool-row.h"

/* Long outputs fold to their first lines; "Show More" brings the rest. */
#define OUTPUT_HEAD_LINES 12
#define OUTPUT_HEAD_CHARS 2400
#define INPUT_HEAD_LINES 40
#define INPUT_HEAD_CHARS 6000
#define DIFF_HEAD_LINES 60
#define DIFF_HEAD_CHARS 12000
/* Unfolded, a label still lays out only so much at once: GtkLabel takes seconds on 10,000
 * lines, and Pango half a second on 100,000 characters each of the times GTK measures it.
 * The rest is one "Copy All" away. */
#define ALL_LINES 1000
#define ALL_CHARS 32768
/* What md4c reads of a sub-agent's task or report (see loom-timeline-message-row.c). */
#define HEAD_SOURCE (256 * 1024)
#define ALL_SOURCE (4 * 1024 * 1024)
#define DESCRIPTION_CHARS 120
/* The importer keeps an event's text to 64 KiB (cut on a character boundary). */
#define STORED_TEXT_BOUND (65536 - 4)

struct _LoomTimelineToolRow
{
  GtkWidget            parent_instance;

  LoomTimelineContext *context;
  LoomTimelineItem    *item;

  GtkBox              *card;
  GtkImage            *chevron_image;
  GtkBox              *details_box;
  GtkImage            *icon_image;
  GtkLabel            *name_label;
  GtkButton           *open_button;
  GtkRevealer         *revealer;
  GtkImage            *status_image;
  GtkLabel            *summary_label;
  GtkButton           *toggle_button;
};

G_DEFINE_FINAL_TYPE (LoomTimelineToolRow, loom_timeline_tool_row, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_CONTEXT,
  PROP_EXPANDED,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
is_kind (const LoomTimelineData *d,
         const char             *kind)
{
  return g_strcmp0 (d->kind, kind) == 0;
}

static gboolean
item_failed (LoomTimelineItem *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  LoomTimelineItem *result = loom_timeline_model_item_get_result (item);

  return d->is_error || (result != NULL && loom_timeline_item_get_data (result)->is_error);
}

static char *
capitalize (const char *word)
{
  if (word == NULL || *word == '\0')
    return g_strdup ("");
  return g_strdup_printf ("%c%s", g_ascii_toupper (word[0]), word + 1);
}

/* The bold name at the start of the row. */
static char *
title_for (const LoomTimelineData *d)
{
  if (is_kind (d, "subagent"))
    return g_strdup (_("Sub-agent"));
  if (d->tool_name != NULL)
    return g_strdup (d->tool_name);
  if (is_kind (d, "file_change"))
    return d->change_kind != NULL ? capitalize (d->change_kind) : g_strdup (_("File change"));
  if (is_kind (d, "tool_result"))
    return g_strdup (_("Tool result"));
  return g_strdup (_("Tool"));
}

/* What it acted on: the file of a change, the command or path of a call. */
static char *
summary_for (LoomTimelineContext    *context,
             const LoomTimelineData *d)
{
  g_autofree char *summary = NULL;
  g_autofree char *clean = NULL;

  if (is_kind (d, "file_change") && d->path != NULL)
    return loom_timeline_context_display_path (context, d->path);

  clean = loom_timeline_format_strip_controls (d->text);
  summary = loom_timeline_format_summary (clean != NULL ? clean : d->text);
  /* A path inside the session's folder reads best relative to it, as in the agent. */
  if (summary[0] == '/')
    return loom_timeline_context_display_path (context, summary);
  return g_steal_pointer (&summary);
}

char *
loom_timeline_tool_row_describe (LoomTimelineContext *context,
                                 LoomTimelineItem    *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  g_autofree char *title = title_for (d);
  g_autofree char *summary = summary_for (context, d);
  g_autofree char *text = NULL;

  if (g_utf8_strlen (summary, -1) > DESCRIPTION_CHARS)
    {
      g_autofree char *head = g_utf8_substring (summary, 0, DESCRIPTION_CHARS);

      g_free (summary);
      summary = g_strconcat (head, "…", NULL);
    }

  if (is_kind (d, "subagent"))
    /* Translators: the accessible label of a sub-agent's start; %s is its task. */
    text = g_strdup_printf (_("Sub-agent: %s"), summary);
  else if (is_kind (d, "file_change"))
    /* Translators: the first %s is the tool ("Edit"), the second the file. */
    text = g_strdup_printf (_("File change %s: %s"), title, summary);
  else if (is_kind (d, "tool_result"))
    text = g_strdup_printf (_("Tool result %s: %s"), title, summary);
  else
    /* Translators: the first %s is the tool ("Bash"), the second what it ran ("make"). */
    text = g_strdup_printf (_("Tool call %s: %s"), title, summary);

  if (item_failed (item))
    /* Translators: appended to a tool call's accessible label when it failed. */
    return g_strdup_printf (_("%s, failed"), text);
  return g_steal_pointer (&text);
}

/* Details */

static GtkWidget *
section_heading (const char *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 4);
  loom_search_marker_skip (label);
  return label;
}

static GtkWidget *
code_box (const char *text,
          const char *css_class,
          gboolean    error)
{
  GtkWidget *label = gtk_label_new (NULL);
  g_autofree char *clean = loom_timeline_format_strip_controls (text);

  /* set_text: tool output is never markup. */
  gtk_label_set_text (GTK_LABEL (label), clean != NULL ? clean : text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  loom_markdown_label_set_wrap_for (GTK_LABEL (label), clean != NULL ? clean : text);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  loom_markdown_label_set_literal_wrap (GTK_LABEL (label));
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, css_class);
  /* Not libadwaita's "error", which would colour the text itself. */
  if (error)
    gtk_widget_add_css_class (label, "failed");
  return label;
}

static GtkWidget *
diff_run_label (GString    *run,
                const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_text (GTK_LABEL (label), run->str);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  loom_markdown_label_set_literal_wrap (GTK_LABEL (label));
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, css_class);
  g_string_truncate (run, 0);
  return label;
}

GtkWidget *
loom_timeline_diff_view_new (const char *diff)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char *clean = loom_timeline_format_strip_controls (diff);
  g_auto(GStrv) lines = g_strsplit (clean != NULL ? clean : diff != NULL ? diff : "", "\n", -1);
  g_autoptr(GString) run = g_string_new (NULL);
  const char *run_class = NULL;

  gtk_widget_add_css_class (box, "diff");
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Changes"), -1);

  /* One label per run of lines of one kind keeps long diffs to a few widgets. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *line_class;

      switch (line[0])
        {
        case '+':
          line_class = "diff-added";
          break;
        case '-':
          line_class = "diff-removed";
          break;
        case '@':
          line_class = "diff-hunk";
          break;
        default:
          line_class = "diff-context";
          break;
        }

      if (run_class != NULL && g_strcmp0 (run_class, line_class) != 0)
        gtk_box_append (GTK_BOX (box), diff_run_label (run, run_class));
      if (run->len > 0)
        g_string_append_c (run, '\n');
      g_string_append (run, line);
      run_class = line_class;
    }
  if (run_class != NULL)
    gtk_box_append (GTK_BOX (box), diff_run_label (run, run_class));

  return box;
}

static void
on_show_more_clicked_cb (GtkButton           *button,
                         LoomTimelineToolRow *self);

static void
on_copy_all_clicked_cb (GtkButton *button)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)),
                          g_object_get_data (G_OBJECT (button), "loom-text"));
}

static GtkWidget *
note_label (const char *text)
{
  GtkWidget *note = gtk_label_new (text);

  gtk_widget_add_css_class (note, "caption");
  gtk_widget_add_css_class (note, "dim-label");
  gtk_widget_add_css_class (note, "loom-left-out");
  /* Beside the buttons, in the room they leave: wrapped, GTK would give it its narrowest. */
  gtk_label_set_ellipsize (GTK_LABEL (note), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (note, TRUE);
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  loom_search_marker_skip (note);
  return note;
}

/* How much of a text shows, and how long it is: what the buttons under it say. */
typedef struct
{
  guint    n_lines;        /* in the whole text (as far as it is known) */
  guint    n_shown_lines;
  guint64  size;           /* of the whole text, in bytes */
  guint64  shown_size;
  gboolean estimate;       /* the whole text could not be read: @size is its payload's */
} FoldState;

/* Under folded text: "Show All 40 Lines" (or "Show More" for a huge text, with how much is
 * left); once unfolded, "Show Less", and for a text too long to lay out at once, how much
 * shows and "Copy All". */
static void
add_fold_buttons (LoomTimelineToolRow *self,
                  gboolean             showing_all,
                  const FoldState     *fold,
                  const char          *whole_text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button;
  g_autofree char *label = NULL;
  g_autofree char *note = NULL;
  gboolean huge = fold->n_lines > ALL_LINES || fold->size > ALL_CHARS;

  if (showing_all)
    label = g_strdup (_("Show Less"));
  else if (!huge)
    /* Translators: under a folded tool output; %'u is its number of lines, grouped (1,234). */
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Show All %'u Line",
                                          "Show All %'u Lines", fold->n_lines), fold->n_lines);
  else
    label = g_strdup (_("Show More"));

  button = gtk_button_new_with_label (label);
  gtk_widget_add_css_class (button, "flat");
  g_signal_connect (button, "clicked", G_CALLBACK (on_show_more_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), button);

  if (showing_all && whole_text != NULL)
    {
      button = gtk_button_new_with_label (_("Copy All"));
      gtk_widget_add_css_class (button, "flat");
      g_object_set_data_full (G_OBJECT (button), "loom-text", g_strdup (whole_text), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (on_copy_all_clicked_cb), NULL);
      gtk_box_append (GTK_BOX (box), button);
    }

  if (fold->shown_size < fold->size && (showing_all || huge))
    {
      if (showing_all && fold->n_shown_lines < fold->n_lines && !fold->estimate)
        /* Translators: under a very long tool output shown in part. */
        note = g_strdup_printf (_("Showing the first %'u of %'u lines"), fold->n_shown_lines,
                                fold->n_lines);
      else if (showing_all && !fold->estimate)
        {
          g_autofree char *shown = g_format_size (fold->shown_size);
          g_autofree char *size = g_format_size (fold->size);

          /* Translators: under a very long tool output shown in part: "Showing the first
           * 100.0 kB of 50.0 MB". */
          note = g_strdup_printf (_("Showing the first %s of %s"), shown, size);
        }
      else
        note = loom_timeline_format_left_out (fold->size - fold->shown_size, fold->estimate);
      gtk_box_append (GTK_BOX (box), note_label (note));
    }
  gtk_box_append (self->details_box, box);
}

/* Adds @text, folded to its head unless the row shows everything, and even then no more than
 * a label lays out quickly. @size is the whole text's, when @text is only the stored part of
 * it (then @estimate: it is the payload's size), else 0. Returns whether it added fold
 * buttons. */
static gboolean
add_folded (LoomTimelineToolRow *self,
            const char          *text,
            guint                max_lines,
            gsize                max_chars,
            const char          *css_class,
            gboolean             error,
            gboolean             is_diff,
            guint64              size,
            gboolean             estimate)
{
  gboolean show_all = loom_timeline_context_get_state (self->context, self->item,
                                                       LOOM_TIMELINE_STATE_SHOW_MORE, FALSE);
  g_autofree char *head = NULL;
  g_autofree char *most = NULL;
  const char *shown;
  FoldState fold = { 0 };

  head = loom_timeline_format_head (text, max_lines, max_chars, &fold.n_lines);
  if (head == NULL)
    shown = text;
  else if (!show_all)
    shown = head;
  else if ((most = loom_timeline_format_head (text, ALL_LINES, ALL_CHARS, NULL)))
    shown = most;
  else
    shown = text;

  gtk_box_append (self->details_box,
                  is_diff ? loom_timeline_diff_view_new (shown)
                          : code_box (shown, css_class, error));

  fold.shown_size = strlen (shown);
  fold.size = MAX (size, strlen (text));
  fold.estimate = estimate && fold.size > strlen (text);
  fold.n_shown_lines = fold.n_lines;
  if (shown != text)
    loom_timeline_format_head (shown, G_MAXUINT, G_MAXSIZE, &fold.n_shown_lines);
  if (head != NULL || fold.shown_size < fold.size)
    add_fold_buttons (self, show_all, &fold, most != NULL ? text : NULL);
  return head != NULL;
}

static void
add_result (LoomTimelineToolRow *self,
            LoomTimelineItem    *result,
            const char          *title)
{
  const LoomTimelineData *r = loom_timeline_item_get_data (result);
  const char *text = r->text != NULL && *r->text != '\0' ? r->text : _("(no output)");
  g_autofree char *whole = NULL;
  gboolean cut = strlen (text) >= STORED_TEXT_BOUND;
  guint64 size = 0;

  /* The stored text stops at its bound; asked for all of it, read the payload. Until then
   * (or when the payload says nothing more), its size tells about how much is left. */
  if (cut && loom_timeline_context_get_state (self->context, self->item,
                                              LOOM_TIMELINE_STATE_SHOW_MORE, FALSE))
    {
      const char *payload = loom_timeline_context_get_payload (self->context, r->id);

      whole = loom_timeline_format_result_output (payload);
      if (whole != NULL && strlen (whole) > strlen (text))
        text = whole;
    }
  if (cut && text != whole && r->payload_size > 0)
    size = (guint64)r->payload_size;

  gtk_box_append (self->details_box,
                  section_heading (r->is_error ? _("Error") : title));
  add_folded (self, text, OUTPUT_HEAD_LINES, OUTPUT_HEAD_CHARS, "output", r->is_error, FALSE,
              size, TRUE);
}

static void
add_call_details (LoomTimelineToolRow    *self,
                  const LoomTimelineData *d,
                  LoomTimelineItem       *result)
{
  const char *payload = loom_timeline_context_get_payload (self->context, d->id);
  g_autofree char *input = loom_timeline_format_input (payload != NULL ? payload : d->text);

  gtk_box_append (self->details_box, section_heading (_("Input")));
  add_folded (self, input, INPUT_HEAD_LINES, INPUT_HEAD_CHARS, "input", FALSE, FALSE, 0,
              FALSE);

  if (result != NULL)
    add_result (self, result, _("Output"));
  else
    gtk_box_append (self->details_box, section_heading (_("No result was recorded")));
}

static void
add_file_change_details (LoomTimelineToolRow    *self,
                         const LoomTimelineData *d,
                         LoomTimelineItem       *result)
{
  const char *payload = loom_timeline_context_get_payload (self->context, d->id);
  const char *result_payload = NULL;
  g_autofree char *diff = NULL;

  if (result != NULL)
    result_payload = loom_timeline_context_get_payload (self->context,
                                                        loom_timeline_item_get_data (result)->id);
  diff = loom_timeline_format_diff (payload, result_payload);

  if (d->path != NULL)
    {
      GtkWidget *path = gtk_label_new (d->path);

      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_wrap (GTK_LABEL (path), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (path), PANGO_WRAP_CHAR);
      gtk_label_set_selectable (GTK_LABEL (path), TRUE);
      loom_markdown_label_set_literal_wrap (GTK_LABEL (path));
      gtk_widget_add_css_class (path, "caption");
      gtk_widget_add_css_class (path, "dim-label");
      gtk_box_append (self->details_box, path);
    }

  if (diff != NULL && *diff != '\0')
    add_folded (self, diff, DIFF_HEAD_LINES, DIFF_HEAD_CHARS, NULL, FALSE, TRUE, 0, FALSE);
  else
    {
      g_autofree char *input = loom_timeline_format_input (payload != NULL ? payload : d->text);

      gtk_box_append (self->details_box, section_heading (_("Input")));
      add_folded (self, input, INPUT_HEAD_LINES, INPUT_HEAD_CHARS, "input", FALSE, FALSE, 0,
                  FALSE);
    }

  /* "The file was updated" says nothing the diff does not; a failure does. */
  if (result != NULL && loom_timeline_item_get_data (result)->is_error)
    add_result (self, result, _("Output"));
}

static void
add_markdown (LoomTimelineToolRow *self,
              const char          *text)
{
  g_autofree char *clean = loom_timeline_format_strip_controls (text);
  g_autofree char *folded = NULL;
  gsize left_out = 0;
  gboolean show_all = loom_timeline_context_get_state (self->context, self->item,
                                                       LOOM_TIMELINE_STATE_SHOW_MORE, FALSE);
  FoldState fold = { 0 };

  if (clean != NULL)
    text = clean;
  if (show_all)
    gtk_box_append (self->details_box,
                    loom_markdown_render_head (text, ALL_SOURCE, ALL_CHARS, ALL_LINES, &left_out));
  else
    gtk_box_append (self->details_box,
                    loom_markdown_render_head (text, HEAD_SOURCE, INPUT_HEAD_CHARS,
                                               INPUT_HEAD_LINES, &left_out));

  /* Buttons when some of it is left out, or when it is unfolded from a fold. */
  folded = loom_timeline_format_head (text, INPUT_HEAD_LINES, INPUT_HEAD_CHARS, &fold.n_lines);
  if (left_out > 0 || (show_all && folded != NULL))
    {
      fold.n_shown_lines = fold.n_lines;
      fold.size = text != NULL ? strlen (text) : 0;
      fold.shown_size = fold.size - left_out;
      add_fold_buttons (self, show_all, &fold, show_all && left_out > 0 ? text : NULL);
    }
}

static void
add_subagent_details (LoomTimelineToolRow    *self,
                      const LoomTimelineData *d,
                      LoomTimelineItem       *result)
{
  const char *payload = loom_timeline_context_get_payload (self->context, d->id);
  g_autofree char *prompt = loom_timeline_format_subagent_prompt (payload);

  gtk_box_append (self->details_box, section_heading (_("Task")));
  add_markdown (self, prompt);
  if (result != NULL)
    {
      const LoomTimelineData *r = loom_timeline_item_get_data (result);

      gtk_box_append (self->details_box,
                      section_heading (r->is_error ? _("Error") : _("Report")));
      add_markdown (self, r->text);
    }
}

static void
clear_details (LoomTimelineToolRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->details_box))))
    gtk_box_remove (self->details_box, child);
}

static void
build_details (LoomTimelineToolRow *self)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (self->item);
  LoomTimelineItem *result = loom_timeline_model_item_get_result (self->item);

  clear_details (self);
  if (is_kind (d, "file_change"))
    add_file_change_details (self, d, result);
  else if (is_kind (d, "subagent"))
    add_subagent_details (self, d, result);
  else if (is_kind (d, "tool_result"))
    add_result (self, self->item, _("Output"));
  else
    add_call_details (self, d, result);
}

static void
on_show_more_clicked_cb (GtkButton           *button,
                         LoomTimelineToolRow *self)
{
  gboolean show_all;

  if (self->item == NULL)
    return;
  show_all = loom_timeline_context_get_state (self->context, self->item,
                                              LOOM_TIMELINE_STATE_SHOW_MORE, FALSE);
  loom_timeline_context_set_state (self->context, self->item, LOOM_TIMELINE_STATE_SHOW_MORE,
                                   !show_all);
  /* The button is among what is rebuilt: finish its signal first. */
  g_object_ref (button);
  build_details (self);
  loom_timeline_context_mark (self->context, GTK_WIDGET (self->details_box));
  g_object_unref (button);
}

/* Expanding */

gboolean
loom_timeline_tool_row_get_expanded (LoomTimelineToolRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self), FALSE);

  if (self->item == NULL)
    return FALSE;
  return loom_timeline_context_get_state (self->context, self->item,
                                          LOOM_TIMELINE_STATE_EXPANDED, FALSE);
}

/* Shows the state of the bound item; @animate only when a person toggled it. */
static void
sync_expanded (LoomTimelineToolRow *self,
               gboolean             animate)
{
  gboolean expanded = loom_timeline_tool_row_get_expanded (self);

  gtk_image_set_from_icon_name (self->chevron_image,
                                expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  if (expanded)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->card), "expanded");
      build_details (self);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->card), "expanded");

  /* Always a slide, but instant when binding: GTK 4.8's revealer keeps the room of a hidden
   * child with the "none" transition. */
  gtk_revealer_set_transition_duration (self->revealer, animate ? 200 : 0);
  gtk_revealer_set_reveal_child (self->revealer, expanded);
  /* Folded, nothing of the details is kept: recycled rows stay light. */
  if (!expanded && !animate)
    clear_details (self);

  gtk_accessible_update_state (GTK_ACCESSIBLE (self->toggle_button),
                               GTK_ACCESSIBLE_STATE_EXPANDED, expanded, -1);
}

void
loom_timeline_tool_row_set_expanded (LoomTimelineToolRow *self,
                                     gboolean             expanded)
{
  g_return_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self));

  if (self->item == NULL || loom_timeline_tool_row_get_expanded (self) == !!expanded)
    return;
  loom_timeline_context_set_state (self->context, self->item, LOOM_TIMELINE_STATE_EXPANDED,
                                   expanded);
  sync_expanded (self, gtk_widget_get_mapped (GTK_WIDGET (self)));
  if (expanded)
    loom_timeline_context_mark (self->context, GTK_WIDGET (self->details_box));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

static void
on_toggle_clicked_cb (LoomTimelineToolRow *self)
{
  g_assert (LOOM_IS_TIMELINE_TOOL_ROW (self));

  loom_timeline_tool_row_set_expanded (self, !loom_timeline_tool_row_get_expanded (self));
}

static void
on_open_clicked_cb (LoomTimelineToolRow *self)
{
  const char *uuid;

  g_assert (LOOM_IS_TIMELINE_TOOL_ROW (self));

  if (self->item != NULL && (uuid = loom_timeline_model_item_get_child_uuid (self->item)))
    loom_timeline_context_open_session (self->context, uuid);
}

void
loom_timeline_tool_row_set_item (LoomTimelineToolRow *self,
                                 LoomTimelineItem    *item)
{
  const LoomTimelineData *d;
  g_autofree char *title = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *date_time = NULL;
  gboolean failed, file;

  g_return_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self));
  g_return_if_fail (item == NULL || LOOM_IS_TIMELINE_ITEM (item));

  if (!g_set_object (&self->item, item))
    return;

  if (item == NULL)
    {
      clear_details (self);
      gtk_revealer_set_transition_duration (self->revealer, 0);
      gtk_revealer_set_reveal_child (self->revealer, FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
      return;
    }

  d = loom_timeline_item_get_data (item);
  title = title_for (d);
  summary = summary_for (self->context, d);
  failed = item_failed (item);
  file = is_kind (d, "file_change") || is_kind (d, "tool_call") || is_kind (d, "tool_result");

  gtk_image_set_from_icon_name (self->icon_image,
                                loom_timeline_format_tool_icon (d->tool_name, d->kind,
                                                                d->change_kind));
  gtk_label_set_text (self->name_label, title);
  gtk_label_set_text (self->summary_label, summary);
  /* Commands and paths read best in monospace; a sub-agent's task is prose. */
  if (file)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "monospace");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->summary_label), "monospace");

  gtk_widget_set_visible (GTK_WIDGET (self->status_image), failed);
  if (failed)
    gtk_widget_add_css_class (GTK_WIDGET (self->card), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->card), "error");

  gtk_widget_set_visible (GTK_WIDGET (self->open_button),
                          loom_timeline_model_item_get_child_uuid (item) != NULL);

  date_time = loom_timeline_format_date_time (d->created_at);
  loom_timeline_set_tooltip (GTK_WIDGET (self->toggle_button), date_time);
  if (failed)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->toggle_button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("Failed"), -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->toggle_button),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  sync_expanded (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

static void
loom_timeline_tool_row_dispose (GObject *object)
{
  LoomTimelineToolRow *self = (LoomTimelineToolRow *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_TIMELINE_TOOL_ROW);
  g_clear_object (&self->item);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (loom_timeline_tool_row_parent_class)->dispose (object);
}

static void
loom_timeline_tool_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  LoomTimelineToolRow *self = LOOM_TIMELINE_TOOL_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;
    case PROP_EXPANDED:
      g_value_set_boolean (value, loom_timeline_tool_row_get_expanded (self));
      break;
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_tool_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  LoomTimelineToolRow *self = LOOM_TIMELINE_TOOL_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;
    case PROP_EXPANDED:
      loom_timeline_tool_row_set_expanded (self, g_value_get_boolean (value));
      break;
    case PROP_ITEM:
      loom_timeline_tool_row_set_item (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_tool_row_class_init (LoomTimelineToolRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_timeline_tool_row_dispose;
  object_class->get_property = loom_timeline_tool_row_get_property;
  object_class->set_property = loom_timeline_tool_row_set_property;

  properties[PROP_CONTEXT] =
    g_param_spec_object ("context", NULL, NULL,
                         LOOM_TYPE_TIMELINE_CONTEXT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXPANDED] =
    g_param_spec_boolean ("expanded", NULL, NULL,
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ITEM] =
    g_param_spec_object ("item", NULL, NULL,
                         LOOM_TYPE_TIMELINE_ITEM,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/intentloom/History/ui/"
                                               "loom-timeline-tool-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, card);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, chevron_image);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, details_box);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, icon_image);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, open_button);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, revealer);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, status_image);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, toggle_button);
  gtk_widget_class_bind_template_callback (widget_class, on_open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_toggle_clicked_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
loom_timeline_tool_row_init (LoomTimelineToolRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
loom_timeline_tool_row_new (LoomTimelineContext *context)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (context), NULL);

  return g_object_new (LOOM_TYPE_TIMELINE_TOOL_ROW, "context", context, NULL);
}
