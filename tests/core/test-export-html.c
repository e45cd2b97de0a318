/* test-export-html.c — conversation.html: every fixture at every detail level gives a page
 * that runs nothing and loads nothing, made only of the tags we write, with the same entries as
 * conversation.md; and what an agent writes to attack a page (raw HTML, script links, remote
 * images, code that closes its block) comes out as text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gstdio.h>
#include <string.h>

#include "loom-core.h"
#include "loom-export-render.h"
#include "loom-export.h"
#include "loom-test-utils.h"

#define CSP \
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src " \
  "'unsafe-inline'; img-src data:\">"

/* The labels of the headings, as conversation.md writes them after "## " or "### ", and the
 * classes conversation.html gives the same entries. */
static const struct
{
  const char *md;
  const char *html;
} entries[] = {
  { "## User", "<article class=\"message user\">" },
  { "## Assistant", "<article class=\"message assistant\">" },
  { "## Compaction summary", "<article class=\"message compaction-summary\">" },
  { "## Error", "<article class=\"message error\">" },
  { "## Command", "<article class=\"message command\">" },
  { "## Notice", "<article class=\"message notice\">" },
  { "### Tool", "<details class=\"event tool\">" },
  { "### Tool result", "<details class=\"event tool-result\">" },
  { "### File", "<details class=\"event file\">" },
  { "### Sub-agent", "<details class=\"event sub-agent\" open>" },
  { "### Reasoning", "<details class=\"event reasoning\">" },
  { "### Compaction", "<details class=\"event compaction\">" },
  { "### Error", "<details class=\"event error\">" },
  { "### Notice", "<details class=\"event notice\">" },
};

/* The tags the page is made of: ours and md4c's. */
static const char *const allowed_tags[] = {
  "html", "head",    "meta",    "title",      "style",  "body", "main",  "header", "h1",
  "h2",   "h3",      "h4",      "h5",         "h6",     "dl",   "dt",    "dd",     "article",
  "div",  "details", "summary", "span",       "time",   "pre",  "code",  "p",      "a",
  "ul",   "ol",      "li",      "em",         "strong", "del",  "table", "thead",  "tbody",
  "tr",   "th",      "td",      "blockquote", "hr",     "br",   "input", NULL,
};

typedef struct
{
  LoomTestStore base;
  char         *dest;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  loom_test_store_set_up (&f->base, data);
  f->dest = g_build_filename (f->base.dir, "packages", NULL);
  g_assert_no_errno (g_mkdir (f->dest, 0700));
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_free (f->dest);
  loom_test_store_tear_down (&f->base, data);
}

static char *
read_package_file (const char *package,
                   const char *name)
{
  g_autofree char *path = g_build_filename (package, name, NULL);
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* Lines of @md that are the heading @heading: followed by its detail, its time or nothing, not
 * by more of a longer label ("### Tool result" is not "### Tool"). */
static guint
count_headings (const char *md,
                const char *heading)
{
  g_autofree char *needle = g_strconcat ("\n", heading, NULL);
  guint            n = 0;

  for (const char *p = strstr (md, needle); p != NULL; p = strstr (p + 1, needle))
    {
      const char *after = p + strlen (needle);

      n += *after == '\n' || *after == ':' || g_str_has_prefix (after, " ·");
    }
  return n;
}

static guint
count (const char *text,
       const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (text, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* Every tag of @html is one we write, and none has an event handler or loads anything. */
static void
assert_only_our_tags (const char *html)
{
  for (const char *p = strchr (html, '<'); p != NULL; p = strchr (p + 1, '<'))
    {
      const char      *name = p[1] == '/' ? p + 2 : p + 1;
      const char      *end = strchr (p, '>');
      gsize            length = strspn (name, "abcdefghijklmnopqrstuvwxyz0123456789");
      g_autofree char *tag = NULL;
      g_autofree char *tag_name = g_strndup (name, length);

      if (g_str_has_prefix (p, "<!DOCTYPE html>"))
        continue;
      g_assert_nonnull (end);
      tag = g_ascii_strdown (p, end - p);
      if (!g_strv_contains (allowed_tags, tag_name))
        g_error ("A tag of the page that is not ours: %s", tag);
      g_assert_null (strstr (tag, " on"));
      g_assert_null (strstr (tag, "src="));
      g_assert_null (strstr (tag, "style="));
      g_assert_null (strstr (tag, "javascript:"));
    }
}

/* What every page must be, and the same entries as the Markdown beside it. */
static void
assert_page (const char *package)
{
  g_autofree char *html = read_package_file (package, "conversation.html");
  g_autofree char *md = read_package_file (package, "conversation.md");
  g_autofree char *lower = g_ascii_strdown (html, -1);

  g_assert_true (g_utf8_validate (html, -1, NULL));
  g_assert_true (g_str_has_prefix (html, "<!DOCTYPE html>\n"));
  g_assert_true (g_str_has_suffix (html, "</html>\n"));
  g_assert_nonnull (strstr (html, "<meta charset=\"utf-8\">"));
  g_assert_nonnull (strstr (html, CSP));
  g_assert_nonnull (strstr (html, "<meta name=\"color-scheme\" content=\"light dark\">"));
  g_assert_cmpuint (count (lower, "<style"), ==, 1);
  g_assert_null (strstr (lower, "<script"));
  g_assert_null (strstr (lower, "src=\"http"));
  g_assert_null (strstr (lower, "javascript:"));
  g_assert_null (strstr (lower, "<img"));
  g_assert_null (strstr (lower, "<iframe"));
  g_assert_null (strstr (lower, "@import"));
  g_assert_null (strstr (lower, "url("));
  assert_only_our_tags (html);

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    g_assert_cmpuint (count_headings (md, entries[i].md), ==, count (html, entries[i].html));
  /* Every entry opened is closed, and nothing else. */
  g_assert_cmpuint (count (html, "<article "), ==, count (html, "</article>"));
  g_assert_cmpuint (count (html, "<details "), ==, count (html, "</details>"));
  g_assert_cmpuint (count (html, "<pre"), ==, count (html, "</pre>"));
}

static void
assert_subagent_pages (const char *package)
{
  g_autofree char *subagents = g_build_filename (package, "subagents", NULL);
  g_autoptr (GDir) dir = g_dir_open (subagents, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (subagents, name, NULL);

      assert_page (child);
      assert_subagent_pages (child);
    }
}

static void
test_every_fixture (Fixture      *f,
                    gconstpointer data)
{
  static const char *const      names[] = { "claude", "claude-variants", "codex", "codex-variants",
                                            "gemini", "gemini-variants", "ids" };
  static const LoomExportDetail details[] = { LOOM_EXPORT_DETAIL_MESSAGES, LOOM_EXPORT_DETAIL_TOOLS,
                                              LOOM_EXPORT_DETAIL_FULL };
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  LoomSessionQuery query = LOOM_SESSION_QUERY_INIT;
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (GError) error = NULL;
  guint n_pages = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_ptr_array_add (paths, loom_test_fixture_path (names[i], NULL));
  g_ptr_array_add (paths, NULL);
  loom_test_store_import_paths (&f->base, NULL, (const char *const *)paths->pdata);
  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (f->base.store, &query, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), >, 20);

  for (guint d = 0; d < G_N_ELEMENTS (details); d++)
    {
      g_autofree char *dest = g_build_filename (f->dest, loom_export_detail_to_string (details[d]),
                                                NULL);

      g_assert_no_errno (g_mkdir (dest, 0700));
      for (guint i = 0; i < g_list_model_get_n_items (sessions); i++)
        {
          g_autoptr (LoomSession) session = g_list_model_get_item (sessions, i);
          LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
          g_autoptr (LoomExportResult) result = NULL;

          options.detail = details[d];
          result = loom_test_export_ok (f->base.store, loom_session_get_uuid (session), dest,
                                        &options);
          g_test_message ("%s at %s", result->path, loom_export_detail_to_string (details[d]));
          assert_page (result->path);
          assert_subagent_pages (result->path);
          n_pages++;
        }
    }
  g_assert_cmpuint (n_pages, ==, 3 * g_list_model_get_n_items (sessions));
}

/* What an agent's text holds when someone tries: raw HTML, a script link, an image from the
 * network; a reply with code that would close the page's block; a tool whose output is HTML. */
static char *
write_hostile_transcript (const char *dir)
{
  static const char session_id[] = "3f0e9c1a-5b7d-4e2f-9a8c-6d4b2e1f0a93";
  g_autofree char  *folder = g_build_filename (dir, "hostile", "-home-ada-src-page", NULL);
  g_autofree char  *path = g_build_filename (folder, "hostile.jsonl", NULL);
  g_autofree char  *lines = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_no_errno (g_mkdir_with_parents (folder, 0700));
  lines = g_strdup_printf (
    "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/page\",\"timestamp\":\"2026-05-03T09:00:01.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":\"Look: <script>alert(1)</script> "
    "<SCRIPT>alert(3)</SCRIPT> <script type=module>alert(4)</script> and "
    "<img src=x onerror=alert(1)> then [x](javascript:alert(1)) and "
    "[y](JaVaScRiPt:alert(2)) and ![i](http://example.com/t.png) but "
    "[docs](https://example.org/a?b=1&c=2) stays\"}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/page\",\"timestamp\":\"2026-05-03T09:00:02.000Z\","
    "\"message\":{\"id\":\"msg_p1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_p1\",\"name\":\"Bash\","
    "\"input\":{\"command\":\"cat page.html\"}}]}}\n"
    "{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"a1\",\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/page\",\"timestamp\":\"2026-05-03T09:00:03.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
    "\"tool_use_id\":\"toolu_p1\",\"content\":\"</code></pre></details><script>steal()</script>"
    "\"}]}}\n"
    "{\"type\":\"assistant\",\"uuid\":\"a2\",\"parentUuid\":\"u2\",\"sessionId\":\"%s\","
    "\"cwd\":\"/home/ada/src/page\",\"timestamp\":\"2026-05-03T09:00:04.000Z\","
    "\"message\":{\"id\":\"msg_p2\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\","
    "\"content\":[{\"type\":\"text\",\"text\":\"Here:\\n\\n```html\\n<button onclick=evil()>Go"
    "\\n<SCRIPT>evil()</SCRIPT>\\n```\\n\\nDone.\"}]}}\n",
    session_id, session_id, session_id, session_id);
  g_file_set_contents (path, lines, -1, &error);
  g_assert_no_error (error);
  return g_build_filename (dir, "hostile", NULL);
}

static void
test_hostile (Fixture      *f,
              gconstpointer data)
{
  g_autofree char *transcript = write_hostile_transcript (f->base.dir);
  g_autoptr (LoomSession) session = NULL;
  LoomExportOptions options = LOOM_EXPORT_OPTIONS_INIT;
  g_autoptr (LoomExportResult) result = NULL;
  g_autofree char *html = NULL;
  g_autofree char *md = NULL;

  loom_test_store_import_path (&f->base, "claude-code", transcript);
  session = loom_store_get_session (f->base.store, "3f0e9c1a-5b7d-4e2f-9a8c-6d4b2e1f0a93", NULL);
  g_assert_nonnull (session);
  options.detail = LOOM_EXPORT_DETAIL_TOOLS;
  result = loom_test_export_ok (f->base.store, loom_session_get_uuid (session), f->dest, &options);
  assert_page (result->path);
  html = read_package_file (result->path, "conversation.html");
  md = read_package_file (result->path, "conversation.md");

  /* The walk takes bare tags out of a message (slash commands are wrapped in them), for both
   * files alike; the Markdown keeps the rest as the agent wrote it, the page shows it as text. */
  g_assert_nonnull (strstr (md, "Look: alert(1) <SCRIPT>alert(3)</SCRIPT> <script type=module>"));
  g_assert_nonnull (strstr (html, "Look: alert(1) &lt;SCRIPT&gt;alert(3)&lt;/SCRIPT&gt; "
                                  "&lt;script type=module&gt;alert(4)"));
  g_assert_nonnull (strstr (html, "&lt;img src=x onerror=alert(1)&gt;"));
  /* A script link keeps its text and loses its address, whatever its case. */
  g_assert_nonnull (strstr (html, "<a>x</a>"));
  g_assert_nonnull (strstr (html, "<a>y</a>"));
  /* A remote image is a link to it, loaded from nowhere; an https link stays, escaped. */
  g_assert_nonnull (strstr (html, "<a class=\"image\" href=\"http://example.com/t.png\">i</a>"));
  g_assert_nonnull (strstr (html, "<a href=\"https://example.org/a?b=1&amp;c=2\">docs</a>"));
  /* Code in a reply is md4c's block, its text escaped; a tool's output is escaped in ours. */
  g_assert_nonnull (strstr (html, "<pre><code class=\"language-html\">&lt;button "
                                  "onclick=evil()&gt;Go\n&lt;SCRIPT&gt;evil()&lt;/SCRIPT&gt;\n"
                                  "</code></pre>"));
  g_assert_nonnull (strstr (html, "&lt;/code&gt;&lt;/pre&gt;&lt;/details&gt;&lt;script&gt;"
                                  "steal()&lt;/script&gt;"));
  g_assert_nonnull (strstr (html, "<span class=\"label\">Tool</span>: <span class=\"detail\">"
                                  "Bash</span>"));

  /* The same conversation: one prompt and two replies in each, and the tool call. */
  g_assert_cmpuint (count_headings (md, "## User"), ==, 1);
  g_assert_cmpuint (count (html, "<article class=\"message user\">"), ==, 1);
  g_assert_cmpuint (count_headings (md, "## Assistant"), ==,
                    count (html, "<article class=\"message assistant\">"));
  g_assert_cmpuint (count_headings (md, "### Tool"), ==, 1);
  g_assert_cmpuint (count (html, "<details class=\"event tool\">"), ==, 1);
}

/* The allow-list of addresses on what people and agents write, and on what a browser would
 * still run: every scheme spelled as md4c decodes it (entities, angle brackets, spaces). */
static void
test_links (void)
{
  static const struct
  {
    const char *markdown;
    const char *html;
  } cases[] = {
    { "<javascript:alert(1)>", "<p><a>javascript:alert(1)</a></p>\n" },
    { "[a](java&#115;cript:alert(1))", "<p><a>a</a></p>\n" },
    { "[a](JAVASCRIPT&colon;alert(1))", "<p><a>a</a></p>\n" },
    { "[a](<javascript:alert(1)>)", "<p><a>a</a></p>\n" },
    { "[a](  javascript:alert(1))", "<p><a>a</a></p>\n" },
    { "[a](vbscript:msgbox)", "<p><a>a</a></p>\n" },
    { "[a](data:text/html,hi)", "<p><a>a</a></p>\n" },
    { "[a](file:///etc/passwd)", "<p><a>a</a></p>\n" },
    { "![](javascript:alert(1))", "<p><span class=\"image\">image</span></p>\n" },
    { "![chart](data:image/png;base64,AAAA)", "<p><span class=\"image\">chart</span></p>\n" },
    { "![i](https://example.com/t.png \"T\")",
      "<p><a class=\"image\" href=\"https://example.com/t.png\" title=\"T\">i</a></p>\n" },
    /* A link cannot hold a link: the image in it is its description. */
    { "[![i](http://x/y.png)](https://z)",
      "<p><a href=\"https://z\"><span class=\"image\">i</span></a></p>\n" },
    { "[b](foo.md \"t\\\"x\")", "<p><a href=\"foo.md\" title=\"t&quot;x\">b</a></p>\n" },
    { "[x](#frag) [y](/abs:path) [z](./a:b)",
      "<p><a href=\"#frag\">x</a> <a href=\"/abs:path\">y</a> <a href=\"./a:b\">z</a></p>\n" },
    { "a@b.org and https://x.org/?q=<s>",
      "<p><a href=\"mailto:a@b.org\">a@b.org</a> and <a href=\"https://x.org/?q=\">"
      "https://x.org/?q=</a>&lt;s&gt;</p>\n" },
    { "<b onclick=x()>bold</b> &lt;i&gt;",
      "<p>&lt;b onclick=x()&gt;bold&lt;/b&gt; &lt;i&gt;</p>\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize            length = 0;
      g_autofree char *html = loom_export_markdown_to_html (cases[i].markdown, &length);

      g_test_message ("%s", cases[i].markdown);
      g_assert_cmpstr (html, ==, cases[i].html);
      g_assert_cmpuint (length, ==, strlen (html));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  loom_core_init ();

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/export-html/every-fixture", test_every_fixture);
  ADD ("/export-html/hostile", test_hostile);
#undef ADD
  g_test_add_func ("/export-html/links", test_links);

  return g_test_run ();
}
