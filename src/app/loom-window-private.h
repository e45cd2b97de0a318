/* loom-window-private.h — what the parts of LoomWindow share: its structure and inner calls.
 *
 * The window is split by concern: loom-window.c composes the panes and follows the selection,
 * loom-window-import.c shows the background imports and runs the imports the user asks for
 * (a folder, the sample history), loom-window-actions.c holds the session actions and
 * loom-window-folder-actions.c the folder actions, loom-window-export.c the way to the export
 * assistant, loom-window-backup.c the ways to the archive sweep and the restore. Every store write goes through
 * loom-store-async.h, so that the UI thread never waits for the store's write lock.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-import-problems.h"
#include "loom-session-details.h"
#include "loom-session-list.h"
#include "loom-sidebar.h"
#include "loom-timeline-search-bar.h"
#include "loom-timeline-view.h"
#include "loom-toast-queue.h"
#include "loom-window.h"

G_BEGIN_DECLS

struct _LoomWindow
{
  AdwApplicationWindow parent_instance;

  GSettings         *settings;
  LoomStore         *store;
  LoomSourceWatcher *watcher;
  /* The session the content pane shows; it may have left the list since. */
  LoomSession       *shown_session;
  /* What the content pane shows of it. The list's reloads bring the session itself up to date,
   * so it cannot tell whether an import added to what is shown. */
  LoomSessionRecord *shown_record;

  /* Every toast of the window goes through it (loom-toast-queue.h). */
  LoomToastQueue *toasts;

  /* Imports the user asked for (a folder, the samples), cancelled when the window goes. */
  GCancellable    *import_cancellable;
  GtkNativeDialog *folder_chooser;

  /* What imports could not take whole; a toast says when there are new ones. */
  LoomImportProblems *import_problems;
  AdwToast           *problems_toast;        /* while it is shown */
  guint               n_problems_toasted;    /* the problems it counts */
  char               *problems_toast_result; /* the long pass it also tells of, or NULL */
  GtkWindow          *problems_window;       /* while it is open */

  guint   progress_delay_id;
  guint   pulse_id;
  guint   live_reload_id;
  char   *last_import_error;
  guint   progress_shown : 1;
  guint   long_import : 1;
  guint   user_import_running : 1;
  /* The problems of an import the user asked for are being listed: its toast tells of them. */
  guint   adding_own_problems : 1;
  /* A key that moves the list's selection is being handled. */
  guint   moving_by_key : 1;
  /* Store writes started and not yet called back (loom_window_begin_write()). */
  guint   n_pending_writes;
  /* Folder moves asked, the first being written (loom-window-folder-actions.c). */
  GArray *folder_moves;

  GtkWidget             *content_pane;
  GtkStack              *content_stack;
  AdwWindowTitle        *content_title;
  LoomSessionDetails    *details;
  GtkToggleButton       *details_button;
  GtkProgressBar        *empty_progress;
  AdwFlap               *flap;
  AdwLeaflet            *leaflet;
  GtkWidget             *list_pane;
  GtkProgressBar        *list_progress;
  LoomSessionList       *session_list;
  AdwStatusPage         *several_page;
  GtkMenuButton         *session_menu_button;
  LoomSidebar           *sidebar;
  GtkWidget             *sidebar_pane;
  GtkStack              *stack;
  LoomTimelineSearchBar *timeline_search;
  LoomTimelineView      *timeline_view;
  AdwToastOverlay       *toast_overlay;
  AdwStatusPage         *unavailable_page;
};

/* loom-window.c */
void        loom_window_show_error (LoomWindow   *self,
                                    const char   *what,
                                    const GError *error);
void        loom_window_reload_following_import (LoomWindow *self);
/* A store write the window starts (loom-store-async.h) is counted from here until its callback
 * calls loom_window_end_write() on what this returns: the window may be gone by then, and the
 * write lands all the same. loom_window_end_write() returns the window (a reference) or NULL. */
GWeakRef   *loom_window_begin_write (LoomWindow *self);
LoomWindow *loom_window_end_write (GWeakRef *ref);

/* loom-window-folder-actions.c */
void  loom_window_folder_actions_class_init (GtkWidgetClass *widget_class);
void  loom_window_folder_actions_update (LoomWindow *self);
/* The name of the folder with @folder_id, or NULL when there is none. */
char *loom_window_dup_folder_name (LoomWindow *self,
                                   gint64      folder_id);

/* loom-window-export.c: win.export-sessions (Ctrl+E) opens the export assistant on the
 * selected sessions; the update enables it while there are some. */
void loom_window_export_class_init (GtkWidgetClass *widget_class);
void loom_window_export_update (LoomWindow *self);

/* loom-window-backup.c: win.archive-old-sessions (Ctrl+Alt+A) opens the sweep assistant,
 * win.restore-backup asks for backups and restores them; the window reloads after either. */
void loom_window_backup_class_init (GtkWidgetClass *widget_class);

/* loom-window-import.c */
void loom_window_import_class_init (GtkWidgetClass *widget_class);
void loom_window_import_dispose (LoomWindow *self);
void loom_window_set_watcher (LoomWindow        *self,
                              LoomSourceWatcher *watcher);
void loom_window_set_import_problems (LoomWindow         *self,
                                      LoomImportProblems *problems);
void loom_window_update_progress (LoomWindow *self);
void loom_window_set_progress_at_once (gboolean at_once);

G_END_DECLS
