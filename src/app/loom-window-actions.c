/* loom-window-actions.c — the window's session actions.
 *
 * Every action goes through a core operation (rename, pin, archive, trash, move, the delete
 * plan), written in the store's worker (loom-store-async.h) so that the window keeps drawing
 * while an import holds the store, and reloads the window once the write lands. Moves,
 * archiving and trashing offer an undo toast that puts each session back exactly where it was
 * — its folder, archived, in the trash — from the states kept in the toast. Deleting for good
 * has no undo, so it asks first and lists what goes, from the core's dry run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-delete-dialog.h"
#include "loom-error.h"
#include "loom-move-dialog.h"
#include "loom-naming.h"
#include "loom-rename-dialog.h"
#include "loom-sidebar-row.h"
#include "loom-store-async.h"
#include "loom-window-actions.h"
#include "loom-window-private.h"

/* The undo toast on show or waiting to be, if any: a newer action's toast replaces it, so that
 * Undo never reverts an older action than the one just done. On the toast, what its Undo
 * restores. */
#define UNDO_TOAST_KEY         "loom-window-undo-toast"
#define UNDO_DATA_KEY          "loom-undo-data"
/* An undo toast shown for less than this is given the newer action's title and undo instead of
 * being replaced: it has most of its time left, and nothing flickers. */
#define UNDO_TOAST_SETTLE_USEC G_USEC_PER_SEC
/* Session titles are quoted in toasts up to this many characters. */
#define TOAST_TITLE_CHARS      40

/* ——— Session states and undo ——— */

/* Where a session is: what a move, archiving or trashing changes, and what undo restores. */
typedef struct
{
  char    *uuid;
  char    *title;
  gint64   folder_id;
  gboolean archived;
  gboolean trashed;
} SessionState;

static SessionState *
session_state_new (LoomSession *session)
{
  SessionState *state = g_new0 (SessionState, 1);

  state->uuid = g_strdup (loom_session_get_uuid (session));
  state->title = g_strdup (loom_session_get_title (session));
  state->folder_id = loom_session_get_folder_id (session);
  state->archived = loom_session_get_archived (session);
  state->trashed = loom_session_get_trashed (session);
  return state;
}

static void
session_state_free (gpointer data)
{
  SessionState *state = data;

  g_free (state->uuid);
  g_free (state->title);
  g_free (state);
}

static gboolean
session_state_equal (const SessionState *a,
                     const SessionState *b)
{
  return a->folder_id == b->folder_id && !a->archived == !b->archived && !a->trashed == !b->trashed;
}

/* A session that changes: where it was, which undo restores, and where it goes. */
typedef struct
{
  SessionState *from;
  SessionState *to;
} SessionChange;

static void
session_change_free (gpointer data)
{
  SessionChange *change = data;

  session_state_free (change->from);
  session_state_free (change->to);
  g_free (change);
}

/* The writes of one action or undo (loom-store-async.h), all asked at once: the store's worker
 * writes them in that order, after those of the actions before and before those of the actions
 * after, so that an Undo pressed before its action has landed lands after it. */
typedef struct
{
  GWeakRef   *window;  /* loom_window_begin_write() */
  const char *failure; /* what a toast says failed */
  gboolean    undoing;
  guint       n_pending;
  GError     *error; /* the first failure */
} ChangeWrites;

typedef enum
{
  WRITE_FOLDER,
  WRITE_ARCHIVED,
  WRITE_TRASHED,
} WriteKind;

typedef struct
{
  ChangeWrites *writes;
  WriteKind     kind;
  gint64        folder_id;
} ChangeWrite;

static ChangeWrites *
change_writes_new (LoomWindow *self,
                   const char *failure,
                   gboolean    undoing)
{
  ChangeWrites *writes = g_new0 (ChangeWrites, 1);

  writes->window = loom_window_begin_write (self);
  writes->failure = failure;
  writes->undoing = undoing;
  return writes;
}

/* Shows the first failure and reads the store again, once every write has called back. */
static void
change_writes_end (ChangeWrites *writes)
{
  g_autoptr (LoomWindow) self = loom_window_end_write (writes->window);

  if (self != NULL)
    {
      if (writes->error != NULL)
        loom_window_show_error (self, writes->failure, writes->error);
      loom_window_reload (self);
      loom_window_actions_update (self);
    }
  g_clear_error (&writes->error);
  g_free (writes);
}

static void
on_change_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  LoomStore    *store = LOOM_STORE (object);
  ChangeWrite  *write = user_data;
  ChangeWrites *writes = write->writes;
  g_autoptr (GError) error = NULL;
  gboolean ok = FALSE;

  switch (write->kind)
    {
    case WRITE_FOLDER:
      /* A folder deleted since cannot be gone back to: the session then stays out of any
       * folder, which is where deleting the folder put it. */
      ok = loom_store_move_session_finish (store, result, &error) ||
           (write->folder_id > 0 && g_error_matches (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND));
      break;
    case WRITE_ARCHIVED:
      ok = loom_store_set_archived_finish (store, result, &error);
      break;
    case WRITE_TRASHED:
      ok = loom_store_set_trashed_finish (store, result, &error);
      break;
    default:
      g_assert_not_reached ();
    }

  /* A session deleted for good since has nowhere to go back to. */
  if (!ok && writes->undoing && g_error_matches (error, LOOM_ERROR, LOOM_ERROR_NOT_FOUND))
    ok = TRUE;
  if (!ok && writes->error == NULL)
    writes->error = g_steal_pointer (&error);

  g_free (write);
  if (--writes->n_pending == 0)
    change_writes_end (writes);
}

static void
ask_write (LoomStore    *store,
           ChangeWrites *writes,
           WriteKind     kind,
           const char   *uuid,
           gint64        folder_id,
           gboolean      flag)
{
  ChangeWrite *write = g_new0 (ChangeWrite, 1);

  write->writes = writes;
  write->kind = kind;
  write->folder_id = folder_id;
  writes->n_pending++;

  switch (kind)
    {
    case WRITE_FOLDER:
      loom_store_move_session_async (store, uuid, folder_id, NULL, on_change_written_cb, write);
      break;
    case WRITE_ARCHIVED:
      loom_store_set_archived_async (store, uuid, flag, NULL, on_change_written_cb, write);
      break;
    case WRITE_TRASHED:
      loom_store_set_trashed_async (store, uuid, flag, NULL, on_change_written_cb, write);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Asks for the writes that take a session from @from to @to: what differs, nothing else. */
static void
ask_writes_between (LoomStore          *store,
                    ChangeWrites       *writes,
                    const SessionState *from,
                    const SessionState *to)
{
  if (from->folder_id != to->folder_id)
    ask_write (store, writes, WRITE_FOLDER, to->uuid, to->folder_id, FALSE);
  if (!from->archived != !to->archived)
    ask_write (store, writes, WRITE_ARCHIVED, to->uuid, 0, to->archived);
  if (!from->trashed != !to->trashed)
    ask_write (store, writes, WRITE_TRASHED, to->uuid, 0, to->trashed);
}

/* Writes @changes (SessionChange) forwards, or back when @undoing; the window is read again
 * once they have landed. */
static void
write_changes (LoomWindow *self,
               GPtrArray  *changes,
               const char *failure,
               gboolean    undoing)
{
  LoomStore    *store = loom_window_get_store (self);
  ChangeWrites *writes;

  g_assert (LOOM_IS_WINDOW (self));

  if (store == NULL || changes->len == 0)
    {
      loom_window_reload (self);
      loom_window_actions_update (self);
      return;
    }

  writes = change_writes_new (self, failure, undoing);
  for (guint i = 0; i < changes->len; i++)
    {
      const SessionChange *change = g_ptr_array_index (changes, i);

      if (undoing)
        ask_writes_between (store, writes, change->to, change->from);
      else
        ask_writes_between (store, writes, change->from, change->to);
    }
}

typedef void (*ChangeFunc) (SessionState *state,
                            gpointer      user_data);

/* Changes each session of @uuids as @change says, and returns the changes (SessionChange) of
 * the sessions that do change (maybe none). The sessions are read here, and their writes asked
 * for; they land a moment later (loom-store-async.h), and the window is read again then, so
 * that the caller's undo toast shows at once. A failure to read a session is shown and stops
 * there; what was asked until then is returned, so that it can still be undone. */
static GPtrArray *
change_sessions (LoomWindow        *self,
                 const char *const *uuids,
                 ChangeFunc         change,
                 gpointer           user_data)
{
  LoomStore *store = loom_window_get_store (self);
  GPtrArray *changes = g_ptr_array_new_with_free_func (session_change_free);
  g_autoptr (GError) error = NULL;

  g_assert (LOOM_IS_WINDOW (self));

  for (guint i = 0; store != NULL && uuids[i] != NULL; i++)
    {
      g_autoptr (LoomSession) session = NULL;
      SessionChange *step;

      if (!(session = loom_store_get_session (store, uuids[i], &error)))
        break;

      step = g_new0 (SessionChange, 1);
      step->from = session_state_new (session);
      step->to = session_state_new (session);
      change (step->to, user_data);
      if (session_state_equal (step->from, step->to))
        {
          session_change_free (step);
          continue;
        }
      g_ptr_array_add (changes, step);
    }

  if (error != NULL)
    loom_window_show_error (self, _ ("Could not move the sessions"), error);

  write_changes (self, changes, _ ("Could not move the sessions"), FALSE);
  return changes;
}

typedef struct
{
  GWeakRef   window;
  GPtrArray *changes;
} UndoData;

static void
undo_data_free (gpointer data)
{
  UndoData *undo = data;

  g_weak_ref_clear (&undo->window);
  g_ptr_array_unref (undo->changes);
  g_free (undo);
}

static void
on_undo_clicked_cb (AdwToast *toast,
                    gpointer  user_data)
{
  UndoData *undo = g_object_get_data (G_OBJECT (toast), UNDO_DATA_KEY);
  g_autoptr (LoomWindow) self = g_weak_ref_get (&undo->window);

  if (self == NULL || loom_window_get_store (self) == NULL)
    return;

  /* The toast goes a moment later: a newer action's toast must not take its place. */
  if (g_object_get_data (G_OBJECT (self), UNDO_TOAST_KEY) == toast)
    g_object_set_data (G_OBJECT (self), UNDO_TOAST_KEY, NULL);

  /* Back exactly what the action wrote, without reading the sessions first: the action's
   * writes may not have landed yet, and the undo's land after them. */
  write_changes (self, undo->changes, _ ("Could not undo"), TRUE);
}

static void
on_undo_toast_dismissed_cb (AdwToast   *toast,
                            LoomWindow *self)
{
  if (g_object_get_data (G_OBJECT (self), UNDO_TOAST_KEY) == toast)
    g_object_set_data (G_OBJECT (self), UNDO_TOAST_KEY, NULL);
}

/* Shows @title (markup) with an Undo button that reverts @changes; takes @changes. The toast
 * comes before any other waiting (loom-toast-queue.h). */
static void
show_undo_toast (LoomWindow *self,
                 const char *title,
                 GPtrArray  *changes)
{
  AdwToast *toast;
  AdwToast *previous;
  UndoData *undo;

  g_assert (LOOM_IS_WINDOW (self));

  undo = g_new0 (UndoData, 1);
  g_weak_ref_init (&undo->window, self);
  undo->changes = changes;

  previous = g_object_get_data (G_OBJECT (self), UNDO_TOAST_KEY);
  if (previous != NULL)
    {
      gint64 shown_at = loom_toast_queue_get_shown_at (self->toasts, previous);

      /* Still waiting, or just shown. */
      if (shown_at == 0 || g_get_monotonic_time () - shown_at < UNDO_TOAST_SETTLE_USEC)
        {
          adw_toast_set_title (previous, title);
          g_object_set_data_full (G_OBJECT (previous), UNDO_DATA_KEY, undo, undo_data_free);
          return;
        }
      adw_toast_dismiss (previous);
    }

  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _ ("_Undo"));
  g_object_set_data_full (G_OBJECT (toast), UNDO_DATA_KEY, undo, undo_data_free);
  g_signal_connect (toast, "button-clicked", G_CALLBACK (on_undo_clicked_cb), NULL);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (on_undo_toast_dismissed_cb), self, 0);
  g_object_set_data (G_OBJECT (self), UNDO_TOAST_KEY, toast);

  loom_toast_queue_add (self->toasts, toast, TRUE);
}

/* A session's title as a toast quotes it: its name without the date, which says nothing here,
 * cut at a word if long, and escaped, since a toast title is markup. */
static char *
toast_title_for (const char *title)
{
  g_autofree char *name = NULL;

  loom_naming_split_title (title, &name, NULL);
  if (*name == '\0')
    {
      g_free (name);
      name = g_strdup (title != NULL ? title : "");
    }

  if (g_utf8_strlen (name, -1) > TOAST_TITLE_CHARS)
    {
      g_autofree char *head = g_utf8_substring (name, 0, TOAST_TITLE_CHARS);
      char            *space = strrchr (head, ' ');

      if (space != NULL && space - head > TOAST_TITLE_CHARS / 2)
        *space = '\0';
      g_strchomp (head);
      g_free (name);
      name = g_strconcat (head, "…", NULL);
    }
  return g_markup_escape_text (name, -1);
}

/* ——— Moving ——— */

typedef struct
{
  LoomCollection target;
  gint64         folder_id;
} MoveTarget;

static void
move_change (SessionState *state,
             gpointer      user_data)
{
  const MoveTarget *move = user_data;

  switch (move->target)
    {
    /* Filed in a folder, or in none: back in All, so that it shows where it was put. */
    case LOOM_COLLECTION_ALL:
      state->folder_id = move->folder_id;
      state->archived = FALSE;
      state->trashed = FALSE;
      break;

    /* The folder stays, so that a restore brings the session back to it. */
    case LOOM_COLLECTION_ARCHIVED:
      state->archived = TRUE;
      state->trashed = FALSE;
      break;

    case LOOM_COLLECTION_TRASH:
      state->trashed = TRUE;
      break;

    case LOOM_COLLECTION_RECENT:
    case LOOM_COLLECTION_PINNED:
    case LOOM_COLLECTION_ACTIVE:
    case LOOM_COLLECTION_EVERYTHING:
    default:
      g_assert_not_reached ();
    }
}

static char *
describe_move (LoomWindow       *self,
               const MoveTarget *move,
               GPtrArray        *changes)
{
  const SessionState *first = ((SessionChange *)g_ptr_array_index (changes, 0))->from;
  g_autofree char    *title = toast_title_for (first->title);
  g_autofree char    *folder = NULL;
  g_autofree char    *escaped = NULL;
  guint               n = changes->len;

  switch (move->target)
    {
    case LOOM_COLLECTION_ARCHIVED:
      if (n == 1)
        return g_strdup_printf (_ ("“%s” archived"), title);
      return g_strdup_printf (ngettext ("%'u session archived", "%'u sessions archived", n), n);

    case LOOM_COLLECTION_TRASH:
      if (n == 1)
        return g_strdup_printf (_ ("“%s” moved to the trash"), title);
      return g_strdup_printf (
        ngettext ("%'u session moved to the trash", "%'u sessions moved to the trash", n), n);

    case LOOM_COLLECTION_ALL:
      if (move->folder_id == 0)
        {
          if (n == 1)
            return g_strdup_printf (_ ("“%s” moved to All Sessions"), title);
          return g_strdup_printf (
            ngettext ("%'u session moved to All Sessions", "%'u sessions moved to All Sessions", n),
            n);
        }
      folder = loom_window_dup_folder_name (self, move->folder_id);
      escaped = g_markup_escape_text (folder != NULL ? folder : "", -1);
      if (n == 1)
        /* Translators: a session's title, then a folder's name. */
        return g_strdup_printf (_ ("“%s” moved to “%s”"), title, escaped);
      return g_strdup_printf (
        ngettext ("%'u session moved to “%s”", "%'u sessions moved to “%s”", n), n, escaped);

    case LOOM_COLLECTION_RECENT:
    case LOOM_COLLECTION_PINNED:
    case LOOM_COLLECTION_ACTIVE:
    case LOOM_COLLECTION_EVERYTHING:
    default:
      g_assert_not_reached ();
    }
}

void
loom_window_move_sessions (LoomWindow        *self,
                           const char *const *uuids,
                           LoomCollection     target,
                           gint64             folder_id)
{
  MoveTarget move = { target, folder_id };
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (LOOM_IS_WINDOW (self));
  g_return_if_fail (uuids != NULL);
  g_return_if_fail (target == LOOM_COLLECTION_ALL || target == LOOM_COLLECTION_ARCHIVED ||
                    target == LOOM_COLLECTION_TRASH);
  g_return_if_fail (folder_id >= 0);

  changes = change_sessions (self, uuids, move_change, &move);
  if (changes->len == 0)
    return;

  title = describe_move (self, &move, changes);
  show_undo_toast (self, title, g_steal_pointer (&changes));
}

/* ——— The selection ——— */

/* The selected sessions' uuids, NULL-terminated; NULL when none is selected. */
static GStrv
dup_selected_uuids (LoomWindow *self)
{
  g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);
  GStrvBuilder *builder;
  GStrv         uuids;

  if (sessions->len == 0)
    return NULL;

  builder = g_strv_builder_new ();
  for (guint i = 0; i < sessions->len; i++)
    g_strv_builder_add (builder, loom_session_get_uuid (g_ptr_array_index (sessions, i)));
  uuids = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return uuids;
}

typedef gboolean (*SessionTest) (LoomSession *session);

static gboolean
all_sessions (GPtrArray  *sessions,
              SessionTest test)
{
  for (guint i = 0; i < sessions->len; i++)
    {
      if (!test (g_ptr_array_index (sessions, i)))
        return FALSE;
    }
  return sessions->len > 0;
}

static gboolean
is_archived_only (LoomSession *session)
{
  return loom_session_get_archived (session) && !loom_session_get_trashed (session);
}

/* The selected session, when exactly one is. */
static LoomSession *
dup_single_selected (LoomWindow *self)
{
  g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);

  if (sessions->len != 1)
    return NULL;
  return g_object_ref (g_ptr_array_index (sessions, 0));
}

/* ——— Session actions ——— */

static void
on_session_renamed_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr (LoomWindow) self = loom_window_end_write (user_data);
  g_autoptr (GError) error = NULL;

  if (!loom_store_rename_session_finish (LOOM_STORE (object), result, &error) && self != NULL)
    loom_window_show_error (self, _ ("Could not rename the session"), error);
  if (self != NULL)
    loom_window_reload (self);
}

static void
on_rename_response_cb (LoomWindow       *self,
                       const char       *response,
                       LoomRenameDialog *dialog)
{
  LoomSession     *session = loom_rename_dialog_get_session (dialog);
  g_autofree char *title = NULL;
  LoomStore       *store;

  if (!g_str_equal (response, "rename") || (store = loom_window_get_store (self)) == NULL)
    return;

  title = loom_rename_dialog_dup_title (dialog);
  if (title == NULL)
    return;

  loom_store_rename_session_async (store, loom_session_get_uuid (session), title, NULL,
                                   on_session_renamed_cb, loom_window_begin_write (self));
}

/* The first prompt, for naming; a session without one (or a store that fails to say) is named
 * from its title alone. */
static char *
find_first_prompt (LoomWindow  *self,
                   LoomSession *session)
{
  g_autoptr (GError) error = NULL;
  char *prompt;

  prompt = loom_store_find_first_prompt (loom_window_get_store (self),
                                         loom_session_get_uuid (session), &error);
  if (error != NULL)
    g_debug ("No name suggestion for %s: %s", loom_session_get_uuid (session), error->message);
  return prompt;
}

static void
session_rename_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (LoomSession) session = dup_single_selected (self);
  g_autofree char  *prompt = NULL;
  LoomRenameDialog *dialog;

  if (session == NULL || loom_window_get_store (self) == NULL)
    return;

  prompt = find_first_prompt (self, session);
  dialog = loom_rename_dialog_new (GTK_WINDOW (self), session, prompt);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_rename_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
session_copy_rename_command_action (GtkWidget  *widget,
                                    const char *action_name,
                                    GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (LoomSession) session = dup_single_selected (self);
  g_autofree char *prompt = NULL;
  g_autofree char *title = NULL;
  g_autofree char *command = NULL;

  if (session == NULL || loom_window_get_store (self) == NULL)
    return;

  /* The title a rename would propose, so that the agent and the history agree. */
  prompt = find_first_prompt (self, session);
  title = loom_naming_conventional_title (loom_session_get_title (session),
                                          loom_session_get_created_at (session), prompt);
  command = loom_naming_rename_command (title);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), command);

  loom_window_add_toast (self, adw_toast_new (_ ("Rename command copied")));
}

/* Pins or unpins sessions one after another, stopping at the first failure. */
typedef struct
{
  GWeakRef  *window; /* loom_window_begin_write() */
  LoomStore *store;
  GStrv      uuids;
  guint      next;
  gboolean   pin;
} PinRun;

static void pin_next (PinRun *run);

static void
on_pinned_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  PinRun *run = user_data;
  g_autoptr (GError) error = NULL;

  if (loom_store_set_pinned_finish (LOOM_STORE (object), result, &error))
    {
      run->next++;
      pin_next (run);
      return;
    }

  {
    g_autoptr (LoomWindow) self = loom_window_end_write (run->window);

    if (self != NULL)
      {
        loom_window_show_error (
          self, run->pin ? _ ("Could not pin the session") : _ ("Could not unpin the session"),
          error);
        loom_window_reload (self);
        loom_window_actions_update (self);
      }
  }
  g_object_unref (run->store);
  g_strfreev (run->uuids);
  g_free (run);
}

static void
pin_next (PinRun *run)
{
  if (run->uuids[run->next] != NULL)
    {
      loom_store_set_pinned_async (run->store, run->uuids[run->next], run->pin, NULL, on_pinned_cb,
                                   run);
      return;
    }

  {
    g_autoptr (LoomWindow) self = loom_window_end_write (run->window);

    if (self != NULL)
      {
        loom_window_reload (self);
        loom_window_actions_update (self);
      }
  }
  g_object_unref (run->store);
  g_strfreev (run->uuids);
  g_free (run);
}

static void
session_pin_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);
  LoomStore *store = loom_window_get_store (self);
  PinRun    *run;

  if (store == NULL || sessions->len == 0)
    return;

  run = g_new0 (PinRun, 1);
  run->window = loom_window_begin_write (self);
  run->store = g_object_ref (store);
  run->uuids = dup_selected_uuids (self);
  /* A mixed selection is pinned: the toggle settles on the state most of it is not in yet. */
  run->pin = !all_sessions (sessions, loom_session_get_pinned);
  pin_next (run);
}

static void
restore_from_archive_change (SessionState *state,
                             gpointer      user_data)
{
  state->archived = FALSE;
}

static void
restore_from_trash_change (SessionState *state,
                           gpointer      user_data)
{
  state->trashed = FALSE;
}

/* Brings the selection back from the archive or the trash, and offers to undo. */
static void
restore_selected (LoomWindow *self,
                  ChangeFunc  change,
                  gboolean    from_trash)
{
  g_auto (GStrv) uuids = dup_selected_uuids (self);
  g_autoptr (GPtrArray) changes = NULL;
  g_autofree char *title = NULL;
  g_autofree char *quoted = NULL;
  guint            n;

  if (uuids == NULL)
    return;

  changes = change_sessions (self, (const char *const *)uuids, change, NULL);
  if ((n = changes->len) == 0)
    return;

  quoted = toast_title_for (((SessionChange *)g_ptr_array_index (changes, 0))->from->title);
  if (from_trash)
    title = n == 1 ? g_strdup_printf (_ ("“%s” restored from the trash"), quoted)
                   : g_strdup_printf (ngettext ("%'u session restored from the trash",
                                                "%'u sessions restored from the trash", n),
                                      n);
  else
    title = n == 1 ? g_strdup_printf (_ ("“%s” restored from the archive"), quoted)
                   : g_strdup_printf (ngettext ("%'u session restored from the archive",
                                                "%'u sessions restored from the archive", n),
                                      n);
  show_undo_toast (self, title, g_steal_pointer (&changes));
}

/* Archive and Trash are toggles: a selection already wholly there is brought back, anything
 * else goes there. Either way the toast offers to undo. */
static void
toggle_removal (LoomWindow    *self,
                SessionTest    is_there,
                ChangeFunc     bring_back,
                LoomCollection target)
{
  g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);
  g_auto (GStrv) uuids = NULL;

  if (sessions->len == 0)
    return;

  if (all_sessions (sessions, is_there))
    {
      restore_selected (self, bring_back, target == LOOM_COLLECTION_TRASH);
      return;
    }

  uuids = dup_selected_uuids (self);
  loom_window_move_sessions (self, (const char *const *)uuids, target, 0);
}

static void
session_archive_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  toggle_removal (LOOM_WINDOW (widget), is_archived_only, restore_from_archive_change,
                  LOOM_COLLECTION_ARCHIVED);
}

static void
session_trash_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  toggle_removal (LOOM_WINDOW (widget), loom_session_get_trashed, restore_from_trash_change,
                  LOOM_COLLECTION_TRASH);
}

typedef struct
{
  GWeakRef *window; /* loom_window_begin_write() */
  guint     n_sessions;
} DeleteCall;

static void
on_deleted_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  DeleteCall *call = user_data;
  g_autoptr (LoomWindow) self = loom_window_end_write (call->window);
  g_autoptr (GError) error = NULL;
  guint    n = call->n_sessions;
  gboolean deleted;

  g_free (call);
  deleted = loom_store_execute_delete_finish (LOOM_STORE (object), result, &error);
  if (self == NULL)
    return;

  if (!deleted)
    {
      loom_window_show_error (self, _ ("Could not delete the sessions"), error);
    }
  else
    {
      loom_window_add_toast (
        self,
        adw_toast_new_format (ngettext ("%'u session deleted", "%'u sessions deleted", n), n));
    }

  loom_window_reload (self);
  loom_window_actions_update (self);
}

static void
on_delete_response_cb (LoomWindow       *self,
                       const char       *response,
                       LoomDeleteDialog *dialog)
{
  LoomDeletePlan *plan = loom_delete_dialog_get_plan (dialog);
  DeleteCall     *call;
  LoomStore      *store;

  if (!g_str_equal (response, "delete") || (store = loom_window_get_store (self)) == NULL)
    return;

  call = g_new0 (DeleteCall, 1);
  call->window = loom_window_begin_write (self);
  call->n_sessions = loom_delete_plan_get_n_sessions (plan);
  loom_store_execute_delete_async (store, plan, NULL, on_deleted_cb, call);
}

static void
show_delete_dialog (LoomWindow     *self,
                    LoomDeletePlan *plan,
                    gboolean        empty_trash)
{
  LoomDeleteDialog *dialog;

  dialog = loom_delete_dialog_new (GTK_WINDOW (self), plan, empty_trash);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_delete_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
session_delete_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_auto (GStrv) uuids = dup_selected_uuids (self);
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  LoomStore *store = loom_window_get_store (self);

  if (store == NULL || uuids == NULL)
    return;

  if (!(plan = loom_store_plan_delete (store, (const char *const *)uuids, &error)))
    {
      loom_window_show_error (self, _ ("Could not plan the deletion"), error);
      return;
    }
  show_delete_dialog (self, plan, FALSE);
}

static void
empty_trash_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (LoomDeletePlan) plan = NULL;
  g_autoptr (GError) error = NULL;
  LoomStore *store = loom_window_get_store (self);

  if (store == NULL)
    return;

  if (!(plan = loom_store_plan_empty_trash (store, &error)))
    {
      loom_window_show_error (self, _ ("Could not plan emptying the trash"), error);
      return;
    }
  if (loom_delete_plan_get_n_sessions (plan) == 0)
    {
      loom_window_add_toast (self, adw_toast_new (_ ("The trash is empty")));
      return;
    }
  show_delete_dialog (self, plan, TRUE);
}

static void
on_move_target_chosen_cb (LoomWindow     *self,
                          guint           target,
                          gint64          folder_id,
                          LoomMoveDialog *dialog)
{
  loom_window_move_sessions (self, loom_move_dialog_get_uuids (dialog), target, folder_id);
}

/* Where all of @sessions are, for the move dialog to mark; EVERYTHING when they differ. */
static void
common_place (GPtrArray      *sessions,
              LoomCollection *collection,
              gint64         *folder_id)
{
  for (guint i = 0; i < sessions->len; i++)
    {
      LoomSession   *session = g_ptr_array_index (sessions, i);
      LoomCollection here = LOOM_COLLECTION_ALL;
      gint64         folder = 0;

      if (loom_session_get_trashed (session))
        here = LOOM_COLLECTION_TRASH;
      else if (loom_session_get_archived (session))
        here = LOOM_COLLECTION_ARCHIVED;
      else
        folder = loom_session_get_folder_id (session);

      if (i > 0 && (here != *collection || folder != *folder_id))
        {
          *collection = LOOM_COLLECTION_EVERYTHING;
          *folder_id = 0;
          return;
        }
      *collection = here;
      *folder_id = folder;
    }
}

static void
session_move_to_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);
  g_auto (GStrv) uuids = dup_selected_uuids (self);
  g_autoptr (GListModel) folders = NULL;
  g_autoptr (GError) error = NULL;
  LoomStore      *store = loom_window_get_store (self);
  LoomCollection  collection = LOOM_COLLECTION_EVERYTHING;
  gint64          folder_id = 0;
  LoomMoveDialog *dialog;

  if (store == NULL || uuids == NULL)
    return;

  if (!(folders = loom_store_list_folders (store, &error)))
    {
      loom_window_show_error (self, _ ("Could not list the folders"), error);
      return;
    }

  common_place (sessions, &collection, &folder_id);
  dialog = loom_move_dialog_new (GTK_WINDOW (self), folders, (const char *const *)uuids, collection,
                                 folder_id);
  g_signal_connect_object (dialog, "target-chosen", G_CALLBACK (on_move_target_chosen_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
session_move_to_folder_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_auto (GStrv) uuids = dup_selected_uuids (self);
  gint64 folder_id = g_variant_get_int64 (parameter);

  if (uuids == NULL || folder_id < 0)
    return;

  loom_window_move_sessions (self, (const char *const *)uuids, LOOM_COLLECTION_ALL, folder_id);
}

/* The folder that holds the agent's file, when that file is still there. */
static GFile *
dup_source_folder (LoomSession *session)
{
  const LoomSessionRecord *record = loom_session_get_record (session);
  g_autoptr (GFile) file = NULL;

  if (record->source_path == NULL || record->source_missing)
    return NULL;

  file = g_file_new_for_path (record->source_path);
  return g_file_get_parent (file);
}

static void
session_open_source_folder_action (GtkWidget  *widget,
                                   const char *action_name,
                                   GVariant   *parameter)
{
  LoomWindow *self = LOOM_WINDOW (widget);
  g_autoptr (LoomSession) session = dup_single_selected (self);
  g_autoptr (GFile) folder = NULL;
  g_autofree char *uri = NULL;

  if (session == NULL || (folder = dup_source_folder (session)) == NULL)
    return;

  uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

/* ——— Installing and updating ——— */

void
loom_window_actions_class_init (GtkWidgetClass *widget_class)
{
  g_return_if_fail (g_type_is_a (G_TYPE_FROM_CLASS (widget_class), LOOM_TYPE_WINDOW));

  gtk_widget_class_install_action (widget_class, "session.rename", NULL, session_rename_action);
  gtk_widget_class_install_action (widget_class, "session.copy-rename-command", NULL,
                                   session_copy_rename_command_action);
  gtk_widget_class_install_action (widget_class, "session.pin", NULL, session_pin_action);
  gtk_widget_class_install_action (widget_class, "session.archive", NULL, session_archive_action);
  gtk_widget_class_install_action (widget_class, "session.trash", NULL, session_trash_action);
  gtk_widget_class_install_action (widget_class, "session.delete", NULL, session_delete_action);
  gtk_widget_class_install_action (widget_class, "session.move-to", NULL, session_move_to_action);
  gtk_widget_class_install_action (widget_class, "session.move-to-folder", "x",
                                   session_move_to_folder_action);
  gtk_widget_class_install_action (widget_class, "session.open-source-folder", NULL,
                                   session_open_source_folder_action);
  gtk_widget_class_install_action (widget_class, "win.empty-trash", NULL, empty_trash_action);
  loom_window_folder_actions_class_init (widget_class);
  loom_window_export_class_init (widget_class);
  loom_window_backup_class_init (widget_class);
}

static guint
trash_count (LoomWindow *self)
{
  GtkWidget *row;

  /* The sidebar counted it at the last reload; no need to ask the store at every click. */
  row = loom_sidebar_get_collection_row (self->sidebar, LOOM_COLLECTION_TRASH);
  if (row == NULL)
    return 0;
  return loom_sidebar_item_get_count (loom_sidebar_row_get_item (LOOM_SIDEBAR_ROW (row)));
}

void
loom_window_actions_update (LoomWindow *self)
{
  g_autoptr (GFile) source_folder = NULL;
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean   has_store, any, one;
  guint      n_selected;

  g_return_if_fail (LOOM_IS_WINDOW (self));

  /* Runs on every selection change: count, and read a session only when it is alone (a
   * select-all of a hundred thousand sessions must not read them all). */
  has_store = loom_window_get_store (self) != NULL;
  n_selected = loom_window_get_n_selected_sessions (self);
  any = has_store && n_selected > 0;
  one = has_store && n_selected == 1;
  if (one)
    {
      g_autoptr (GPtrArray) sessions = loom_window_get_selected_sessions (self);

      if (sessions->len == 1)
        source_folder = dup_source_folder (g_ptr_array_index (sessions, 0));
    }

  gtk_widget_action_set_enabled (widget, "session.rename", one);
  gtk_widget_action_set_enabled (widget, "session.copy-rename-command", one);
  gtk_widget_action_set_enabled (widget, "session.pin", any);
  gtk_widget_action_set_enabled (widget, "session.archive", any);
  gtk_widget_action_set_enabled (widget, "session.trash", any);
  gtk_widget_action_set_enabled (widget, "session.delete", any);
  gtk_widget_action_set_enabled (widget, "session.move-to", any);
  gtk_widget_action_set_enabled (widget, "session.move-to-folder", any);
  gtk_widget_action_set_enabled (widget, "session.open-source-folder", source_folder != NULL);
  gtk_widget_action_set_enabled (widget, "win.empty-trash", has_store && trash_count (self) > 0);
  loom_window_folder_actions_update (self);
  loom_window_export_update (self);
}
