/* loom-session-list-private.h — what the parts of LoomSessionList share.
 *
 * loom-session-list.c holds the pane, its queries and its selection; loom-session-list-rows.c
 * what a row does: drag, session menu, activation by click.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "loom-search-filter-popover.h"
#include "loom-search-results.h"
#include "loom-session-list.h"
#include "loom-session-selection.h"

G_BEGIN_DECLS

/* A reload keeps a selection up to this size, and the session menu looks at the state of the
 * sessions of a selection up to this size: beyond it, reading every selected session costs
 * more than it is worth. */
#define MAX_KEPT_SELECTION 1000

struct _LoomSessionList
{
  GtkWidget parent_instance;

  LoomStore            *store;
  LoomSessionListModel *model;
  LoomSessionSelection *selection;
  GtkWidget            *context_menu;

  LoomCollection collection;
  gint64         folder_id;
  char          *folder_name;
  LoomSort       sort;
  char          *agent;   /* a source; NULL: every agent */
  char          *project; /* a project's path; NULL: every project */
  char          *project_name;
  char          *title;
  char          *subtitle;
  guint          search_cleared_id;
  /* The session last reported by "session-activated", to report each choice once. */
  char          *activated_uuid;

  guint restoring : 1;
  guint failed : 1;
  /* The entry holds a query: the pane shows its results instead of the list. */
  guint searching : 1;

  GtkWidget               *clear_filters_button;
  AdwStatusPage           *empty_page;
  AdwStatusPage           *error_page;
  GtkWidget               *empty_trash_button;
  GtkMenuButton           *filter_button;
  GtkListView             *list_view;
  GMenu                   *project_section;
  GtkSearchEntry          *search_entry;
  GtkMenuButton           *search_filter_button;
  LoomSearchFilterPopover *search_filter_popover;
  LoomSearchResults       *search_results;
  GtkMenuButton           *sort_button;
  GtkStack                *stack;
  GtkWidget               *toolbar;
};

/* loom-session-list.c */
/* Reports @session as chosen ("session-activated"). */
void       loom_session_list_activate (LoomSessionList *self,
                                       LoomSession     *session);
/* The uuids of the selected sessions, in list order. */
GPtrArray *loom_session_list_get_selected_uuids (LoomSessionList *self);

/* loom-session-list-rows.c */
void loom_session_list_setup_row (LoomSessionList *self,
                                  GtkListItem     *list_item);
void loom_session_list_show_menu_action (GtkWidget  *widget,
                                         const char *action_name,
                                         GVariant   *parameter);

G_END_DECLS
