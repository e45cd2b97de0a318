/* loom-redact.c — the detectors behind loom-redact.h.
 *
 * One pass over the bytes. At each position a few cheap tests (the byte, whether the byte
 * before ends a run of the detector's alphabet) decide which detectors look further; a detector
 * reads a run of its alphabet that starts there, or a window of bounded size around it. Runs of
 * one alphabet that start at a boundary do not overlap, so each byte is read a bounded number of
 * times: no backtracking, no regular expressions, linear whatever the text.
 *
 * Families and their rules (the providers' published formats):
 *   aws-access-key-id       AKIA, ASIA, ABIA, ACCA + 16 of [A-Z2-7] (base32), 20 in all.
 *   aws-secret-access-key   40 of [A-Za-z0-9+/] with upper, lower and digit, entropy >= 4.0,
 *                           "secret" in the 128 bytes before and "aws", an access key id or
 *                           "accesskey" in the 256 before: alone it is any base64.
 *   google-api-key          AIza + 35 of [A-Za-z0-9_-] (Google Cloud and Google AI Studio,
 *                           i.e. Gemini, share the format).
 *   google-oauth-token      ya29. access tokens, GOCSPX- client secrets.
 *   azure-key               AccountKey= and SharedAccessKey= of connection strings, sig= of a
 *                           SAS URL (with sv= before it), Entra ID client secrets (xxxNQ~…).
 *   anthropic-key           sk-ant- + at least 32 of [A-Za-z0-9_-].
 *   openai-key              sk- (sk-proj-, sk-svcacct-, sk-admin-, legacy) + at least 32 of
 *                           [A-Za-z0-9_-] that look random (see looks_random ()).
 *   huggingface-token       hf_ + 30 to 40 letters and digits, mixed case.
 *   github-token            ghp_ gho_ ghu_ ghs_ ghr_ + 36 or more of [A-Za-z0-9];
 *                           github_pat_ + at least 70 of [A-Za-z0-9_]. The CRC32 in the last
 *                           six characters is not checked: GitHub does not publish its exact
 *                           encoding, and the structure alone is already unambiguous.
 *   gitlab-token            glpat- gldt- glrt- glptt- glft- glsoat- gloas- glcbt- glimt-
 *                           glagent- glwt- + at least 20 random [A-Za-z0-9_.-]; GR1348941 +20.
 *   slack-token             xoxb- xoxp- xoxa- xoxr- xoxs- xoxe- xapp- with digits.
 *   slack-webhook           the path after hooks.slack.com/services|workflows|triggers/.
 *   stripe-key              sk_live_ sk_test_ rk_live_ rk_test_ whsec_ + at least 16 random
 *                           (pk_ keys are public by design and kept).
 *   twilio-key              AC or SK + 32 lowercase hex with "twilio" within 256 bytes; an
 *                           auth token (32 lowercase hex) with "twilio" within 256 bytes and
 *                           "auth"/"token" or an account SID just before it.
 *   sendgrid-key            SG. + 22 + . + 43 of [A-Za-z0-9_-].
 *   npm-token               npm_ + 36 random [A-Za-z0-9].
 *   pypi-token              pypi-AgEIcHlwaS5vcmc (pypi.org) or pypi-AgENdGVzdC5weXBpLm9yZw
 *                           (test.pypi.org) macaroons, at least 70 in all.
 *   private-key             the body of a PEM block whose label has PRIVATE KEY (RSA, EC, DSA,
 *                           OPENSSH, ENCRYPTED, PGP …), with real or escaped ("\n") newlines
 *                           as in a service-account JSON; a block cut short (no END within
 *                           64 KiB) loses everything after its BEGIN line that can be base64.
 *   jwt                     eyJ….eyJ….signature whose header decodes to JSON with "alg".
 *   url-password            the password of scheme://user:password@host.
 *   password, secret        `KEY=value`, `KEY: value`, `"key": "value"`, `KEY := value` where
 *                           a word of KEY (split at _ - . and camelCase) names a password
 *                           (password passwd pwd pass passphrase) or a secret (secret token
 *                           auth authorization credential(s) bearer private, or key after
 *                           another word: api_key, stripe_key) and no word makes it something
 *                           else (id, name, url, path, count, hash, public, max, type …).
 *                           The value must look like a secret: no template or placeholder,
 *                           not a number, a path or a dotted identifier, a digit or three
 *                           classes of characters, and a Shannon entropy
 *                           H = -sum p(b) log2 p(b) over its bytes of at least 3.0 bits a
 *                           byte (8 bytes or more) — 2.5 bits for a password (6 bytes or
 *                           more), as passwords are short.
 * When a value found through its context (an assignment, a URL) is itself a provider's token,
 * the provider's family names it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-redact.h"

#include <string.h>

typedef enum
{
  FAMILY_AWS_ACCESS_KEY_ID,
  FAMILY_AWS_SECRET,
  FAMILY_GOOGLE_API_KEY,
  FAMILY_GOOGLE_OAUTH,
  FAMILY_AZURE,
  FAMILY_ANTHROPIC,
  FAMILY_OPENAI,
  FAMILY_HUGGINGFACE,
  FAMILY_GITHUB,
  FAMILY_GITLAB,
  FAMILY_SLACK,
  FAMILY_SLACK_WEBHOOK,
  FAMILY_STRIPE,
  FAMILY_TWILIO,
  FAMILY_SENDGRID,
  FAMILY_NPM,
  FAMILY_PYPI,
  FAMILY_PRIVATE_KEY,
  FAMILY_JWT,
  FAMILY_URL_PASSWORD,
  FAMILY_PASSWORD,
  FAMILY_SECRET,
  N_FAMILIES
} Family;

static const char *const family_names[N_FAMILIES + 1] = {
  "aws-access-key-id",
  "aws-secret-access-key",
  "google-api-key",
  "google-oauth-token",
  "azure-key",
  "anthropic-key",
  "openai-key",
  "huggingface-token",
  "github-token",
  "gitlab-token",
  "slack-token",
  "slack-webhook",
  "stripe-key",
  "twilio-key",
  "sendgrid-key",
  "npm-token",
  "pypi-token",
  "private-key",
  "jwt",
  "url-password",
  "password",
  "secret",
  NULL,
};

struct _LoomRedactor
{
  /* Family byte + the secret's bytes -> its placeholder. */
  GHashTable *placeholders;
  guint       distinct[N_FAMILIES];
  guint       count[N_FAMILIES];
  guint       total;
};

/* The alphabets of the runs the detectors read. */
typedef enum
{
  CHARSET_ALNUM,      /* [A-Za-z0-9] */
  CHARSET_WORD,       /* [A-Za-z0-9_] */
  CHARSET_B64URL,     /* [A-Za-z0-9_-] */
  CHARSET_B64URL_DOT, /* [A-Za-z0-9_.-] */
  CHARSET_B64,        /* [A-Za-z0-9+/] */
  CHARSET_AZURE,      /* [A-Za-z0-9_~.-] */
  CHARSET_WEBHOOK,    /* [A-Za-z0-9/] */
  CHARSET_KEY,        /* [A-Za-z0-9_.-], the name of an assignment */
} Charset;

static inline gboolean
in_charset (guchar  c,
            Charset charset)
{
  if (g_ascii_isalnum (c))
    return TRUE;
  switch (charset)
    {
    case CHARSET_ALNUM:
      return FALSE;
    case CHARSET_WORD:
      return c == '_';
    case CHARSET_B64URL:
      return c == '_' || c == '-';
    case CHARSET_B64URL_DOT:
    case CHARSET_KEY:
      return c == '_' || c == '-' || c == '.';
    case CHARSET_B64:
      return c == '+' || c == '/';
    case CHARSET_AZURE:
      return c == '_' || c == '-' || c == '.' || c == '~';
    case CHARSET_WEBHOOK:
      return c == '/';
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  const guchar *s;
  gsize         n;
  /* The first "-----END " at or after pem_end_from, or n: found once, reused by every BEGIN. */
  gsize         pem_end_from;
  gsize         pem_end;
  gboolean      pem_end_valid;
  /* A run of PEM body that was read and held no key: BEGINs inside it have none either. */
  gsize         pem_rejected_to;
} Scan;

typedef struct
{
  gsize  start;
  gsize  end;
  Family family;
} Match;

/* memmem () is a GNU extension; this is the same, over bytes. */
static const guchar *
find_bytes (const guchar *hay,
            gsize         n,
            const char   *needle,
            gsize         len)
{
  const guchar *end = hay + n;

  if (len == 0 || n < len)
    return len == 0 ? hay : NULL;
  for (const guchar *p = hay; (gsize)(end - p) >= len;)
    {
      p = memchr (p, needle[0], (gsize)(end - p) - len + 1);
      if (p == NULL)
        return NULL;
      if (memcmp (p, needle, len) == 0)
        return p;
      p++;
    }
  return NULL;
}

static inline gboolean
is_boundary (const Scan *scan,
             gsize       i,
             Charset     charset)
{
  return i == 0 || !in_charset (scan->s[i - 1], charset);
}

static inline gsize
run_end (const Scan *scan,
         gsize       i,
         Charset     charset)
{
  while (i < scan->n && in_charset (scan->s[i], charset))
    i++;
  return i;
}

static inline gboolean
has_prefix (const Scan *scan,
            gsize       i,
            const char *prefix)
{
  gsize len = strlen (prefix);

  return scan->n - i >= len && memcmp (scan->s + i, prefix, len) == 0;
}

static gboolean
window_has (const Scan *scan,
            gsize       from,
            gsize       to,
            const char *word)
{
  gsize len = strlen (word);

  if (to > scan->n)
    to = scan->n;
  for (gsize i = from; i + len <= to; i++)
    if (g_ascii_strncasecmp ((const char *)scan->s + i, word, len) == 0)
      return TRUE;
  return FALSE;
}

static inline gsize
back (gsize i,
      gsize distance)
{
  return i > distance ? i - distance : 0;
}

/* log2 without libm, which core does not link: the exponent from frexp-like scaling, the
 * mantissa through ln m = 2 atanh ((m - 1) / (m + 1)), ample precision for a threshold. */
static double
log2_of (double x)
{
  double e = 0;
  double y;
  double y2;
  double term;
  double sum = 0;

  g_assert (x > 0);
  while (x >= 2)
    {
      x /= 2;
      e++;
    }
  while (x < 1)
    {
      x *= 2;
      e--;
    }
  y = (x - 1) / (x + 1);
  y2 = y * y;
  term = y;
  for (guint k = 1; k < 30; k += 2)
    {
      sum += term / k;
      term *= y2;
    }
  return e + 2 * sum / G_LN2;
}

/* Shannon entropy of the bytes, in bits a byte. */
static double
entropy (const guchar *s,
         gsize         n)
{
  guint  freq[256] = { 0 };
  double h = 0;

  if (n == 0)
    return 0;
  for (gsize i = 0; i < n; i++)
    freq[s[i]]++;
  for (guint b = 0; b < 256; b++)
    if (freq[b] != 0)
      {
        double p = (double)freq[b] / (double)n;

        h -= p * log2_of (p);
      }
  return h;
}

enum
{
  CLASS_LOWER = 1 << 0,
  CLASS_UPPER = 1 << 1,
  CLASS_DIGIT = 1 << 2,
  CLASS_OTHER = 1 << 3,
};

static guint
classes (const guchar *s,
         gsize         n)
{
  guint found = 0;

  for (gsize i = 0; i < n; i++)
    {
      if (g_ascii_islower (s[i]))
        found |= CLASS_LOWER;
      else if (g_ascii_isupper (s[i]))
        found |= CLASS_UPPER;
      else if (g_ascii_isdigit (s[i]))
        found |= CLASS_DIGIT;
      else
        found |= CLASS_OTHER;
    }
  return found;
}

static guint
n_classes (guint found)
{
  return (guint)__builtin_popcount (found);
}

/* Random-looking: a digit and a letter, or both cases, and entropy of at least 3.5 bits a byte.
 * Keeps out identifiers (sk-learn-model-registry) and filler (xxxxxxxx, 00000000). */
static gboolean
looks_random (const guchar *s,
              gsize         n)
{
  guint    found = classes (s, n);
  gboolean letters_and_digits = (found & CLASS_DIGIT) != 0 &&
                                (found & (CLASS_LOWER | CLASS_UPPER)) != 0;
  gboolean both_cases = (found & CLASS_LOWER) != 0 && (found & CLASS_UPPER) != 0;

  return (letters_and_digits || both_cases) && entropy (s, n) >= 3.5;
}

static gboolean
all_of (const guchar *s,
        gsize         n,
        gboolean (*test) (guchar c))
{
  for (gsize i = 0; i < n; i++)
    if (!test (s[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_base32 (guchar c)
{
  return g_ascii_isupper (c) || (c >= '2' && c <= '7');
}

static gboolean
is_lower_hex (guchar c)
{
  return g_ascii_isdigit (c) || (c >= 'a' && c <= 'f');
}

static gboolean
is_alnum (guchar c)
{
  return g_ascii_isalnum (c);
}

/* The provider tokens: a prefix, then a run of an alphabet whose length is checked. */
typedef gboolean (*CheckFunc) (const guchar *token,
                               gsize         prefix_len,
                               gsize         len);

static gboolean
check_aws_key_id (const guchar *t,
                  gsize         p,
                  gsize         len)
{
  /* AWS's documentation key, AKIAIOSFODNN7EXAMPLE and its kin, is public. */
  return all_of (t + p, len - p, is_base32) && memcmp (t + len - 7, "EXAMPLE", 7) != 0;
}

static gboolean
check_random (const guchar *t,
              gsize         p,
              gsize         len)
{
  return looks_random (t + p, len - p);
}

static gboolean
check_alnum_random (const guchar *t,
                    gsize         p,
                    gsize         len)
{
  return all_of (t + p, len - p, is_alnum) && looks_random (t + p, len - p);
}

static gboolean
check_openai (const guchar *t,
              gsize         p,
              gsize         len)
{
  /* Anthropic's sk-ant- has its own rule, earlier in the table. */
  return !(len >= 7 && memcmp (t, "sk-ant-", 7) == 0) && looks_random (t + p, len - p);
}

static gboolean
check_huggingface (const guchar *t,
                   gsize         p,
                   gsize         len)
{
  guint found = classes (t + p, len - p);

  return all_of (t + p, len - p, is_alnum) && (found & CLASS_LOWER) && (found & CLASS_UPPER) &&
         entropy (t + p, len - p) >= 3.5;
}

static gboolean
check_sendgrid (const guchar *t,
                gsize         p,
                gsize         len)
{
  return t[25] == '.' && memchr (t + 3, '.', 22) == NULL && memchr (t + 26, '.', 43) == NULL;
}

static gboolean
check_slack (const guchar *t,
             gsize         p,
             gsize         len)
{
  return (classes (t + p, len - p) & CLASS_DIGIT) && entropy (t + p, len - p) >= 3.0;
}

static gboolean
twilio_near (const Scan *scan,
             gsize       start,
             gsize       end)
{
  return window_has (scan, back (start, 256), end + 256, "twilio");
}

typedef struct
{
  const char *prefix;
  Family      family;
  Charset     charset;
  guint16     min_len;
  guint16     max_len;
  CheckFunc   check;
} TokenRule;

static const TokenRule token_rules[] = {
  { "AKIA", FAMILY_AWS_ACCESS_KEY_ID, CHARSET_ALNUM, 20, 20, check_aws_key_id },
  { "ASIA", FAMILY_AWS_ACCESS_KEY_ID, CHARSET_ALNUM, 20, 20, check_aws_key_id },
  { "ABIA", FAMILY_AWS_ACCESS_KEY_ID, CHARSET_ALNUM, 20, 20, check_aws_key_id },
  { "ACCA", FAMILY_AWS_ACCESS_KEY_ID, CHARSET_ALNUM, 20, 20, check_aws_key_id },
  { "AIza", FAMILY_GOOGLE_API_KEY, CHARSET_B64URL, 39, 39, NULL },
  { "ya29.", FAMILY_GOOGLE_OAUTH, CHARSET_B64URL_DOT, 30, 4096, check_random },
  { "GOCSPX-", FAMILY_GOOGLE_OAUTH, CHARSET_B64URL, 35, 35, check_random },
  { "sk-ant-", FAMILY_ANTHROPIC, CHARSET_B64URL, 39, 512, check_random },
  { "sk-", FAMILY_OPENAI, CHARSET_B64URL, 35, 512, check_openai },
  { "hf_", FAMILY_HUGGINGFACE, CHARSET_WORD, 33, 43, check_huggingface },
  { "ghp_", FAMILY_GITHUB, CHARSET_WORD, 40, 255, check_alnum_random },
  { "gho_", FAMILY_GITHUB, CHARSET_WORD, 40, 255, check_alnum_random },
  { "ghu_", FAMILY_GITHUB, CHARSET_WORD, 40, 255, check_alnum_random },
  { "ghs_", FAMILY_GITHUB, CHARSET_WORD, 40, 255, check_alnum_random },
  { "ghr_", FAMILY_GITHUB, CHARSET_WORD, 40, 255, check_alnum_random },
  { "github_pat_", FAMILY_GITHUB, CHARSET_WORD, 81, 255, check_random },
  { "glpat-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 26, 255, check_random },
  { "gldt-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 25, 255, check_random },
  { "glrt-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 25, 255, check_random },
  { "glptt-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 26, 255, check_random },
  { "glft-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 25, 255, check_random },
  { "glsoat-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 27, 255, check_random },
  { "gloas-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 26, 255, check_random },
  { "glcbt-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 26, 255, check_random },
  { "glimt-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 26, 255, check_random },
  { "glagent-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 28, 255, check_random },
  { "glwt-", FAMILY_GITLAB, CHARSET_B64URL_DOT, 25, 255, check_random },
  { "GR1348941", FAMILY_GITLAB, CHARSET_B64URL, 29, 255, check_random },
  { "xoxb-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "xoxp-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "xoxa-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "xoxr-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "xoxs-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "xoxe.xoxp-", FAMILY_SLACK, CHARSET_B64URL_DOT, 25, 255, check_slack },
  { "xoxe-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "xapp-", FAMILY_SLACK, CHARSET_B64URL, 20, 255, check_slack },
  { "sk_live_", FAMILY_STRIPE, CHARSET_WORD, 24, 255, check_alnum_random },
  { "sk_test_", FAMILY_STRIPE, CHARSET_WORD, 24, 255, check_alnum_random },
  { "rk_live_", FAMILY_STRIPE, CHARSET_WORD, 24, 255, check_alnum_random },
  { "rk_test_", FAMILY_STRIPE, CHARSET_WORD, 24, 255, check_alnum_random },
  { "whsec_", FAMILY_STRIPE, CHARSET_WORD, 30, 255, check_alnum_random },
  { "SG.", FAMILY_SENDGRID, CHARSET_B64URL_DOT, 69, 69, check_sendgrid },
  { "npm_", FAMILY_NPM, CHARSET_WORD, 40, 40, check_alnum_random },
  { "pypi-AgEIcHlwaS5vcmc", FAMILY_PYPI, CHARSET_B64URL, 70, 4096, NULL },
  { "pypi-AgENdGVzdC5weXBpLm9yZw", FAMILY_PYPI, CHARSET_B64URL, 70, 4096, NULL },
};

/* Which bytes begin a rule's prefix, so that most positions skip the table. */
static guint8 rule_first[256];

static void
init_tables (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (gsize r = 0; r < G_N_ELEMENTS (token_rules); r++)
        rule_first[(guchar)token_rules[r].prefix[0]] = 1;
      g_once_init_leave (&done, 1);
    }
}

static gboolean
match_token_rules (const Scan *scan,
                   gsize       i,
                   Match      *match)
{
  if (!rule_first[scan->s[i]])
    return FALSE;
  for (gsize r = 0; r < G_N_ELEMENTS (token_rules); r++)
    {
      const TokenRule *rule = &token_rules[r];
      gsize            p = strlen (rule->prefix);
      gsize            end;
      gsize            len;

      if (!has_prefix (scan, i, rule->prefix) || !is_boundary (scan, i, rule->charset))
        continue;
      end = run_end (scan, i, rule->charset);
      len = end - i;
      if (len < rule->min_len || len > rule->max_len)
        continue;
      if (rule->check != NULL && !rule->check (scan->s + i, p, len))
        continue;
      match->start = i;
      match->end = end;
      match->family = rule->family;
      return TRUE;
    }
  return FALSE;
}

/* An AWS secret access key: nothing marks it but the words around it. */
static gboolean
match_aws_secret (const Scan *scan,
                  gsize       i,
                  Match      *match)
{
  const guchar *t = scan->s + i;
  guint         found;
  gsize         end;
  gsize         from;

  if (!in_charset (*t, CHARSET_B64) || !is_boundary (scan, i, CHARSET_B64))
    return FALSE;
  end = run_end (scan, i, CHARSET_B64);
  if (end - i != 40)
    return FALSE;
  found = classes (t, 40);
  if ((found & (CLASS_LOWER | CLASS_UPPER | CLASS_DIGIT)) !=
        (CLASS_LOWER | CLASS_UPPER | CLASS_DIGIT) ||
      entropy (t, 40) < 4.0 || memcmp (t + 30, "EXAMPLEKEY", 10) == 0)
    return FALSE;
  if (!window_has (scan, back (i, 128), i, "secret"))
    return FALSE;
  from = back (i, 256);
  if (!window_has (scan, from, i, "aws") && !window_has (scan, from, i, "akia") &&
      !window_has (scan, from, i, "asia") && !window_has (scan, from, i, "accesskey"))
    return FALSE;
  match->start = i;
  match->end = end;
  match->family = FAMILY_AWS_SECRET;
  return TRUE;
}

static gboolean
is_twilio_sid (const Scan *scan,
               gsize       i)
{
  return scan->n - i >= 34 && (scan->s[i] == 'A' || scan->s[i] == 'S') &&
         scan->s[i + 1] == (scan->s[i] == 'A' ? 'C' : 'K') &&
         all_of (scan->s + i + 2, 32, is_lower_hex);
}

/* Twilio's SIDs and auth tokens are plain hex: only the word twilio near them says what they
 * are. */
static gboolean
match_twilio (const Scan *scan,
              gsize       i,
              Match      *match)
{
  const guchar *t = scan->s + i;
  gsize         end;

  if (!g_ascii_isalnum (*t) || !is_boundary (scan, i, CHARSET_ALNUM))
    return FALSE;
  end = run_end (scan, i, CHARSET_ALNUM);
  if (end - i == 34 && is_twilio_sid (scan, i))
    {
      if (!twilio_near (scan, i, end))
        return FALSE;
    }
  else if (end - i == 32 && all_of (t, 32, is_lower_hex) &&
           classes (t, 32) == (CLASS_LOWER | CLASS_DIGIT) && entropy (t, 32) >= 3.0)
    {
      gboolean named = window_has (scan, back (i, 64), i, "auth") ||
                       window_has (scan, back (i, 64), i, "token");
      gboolean after_sid = FALSE;

      for (gsize j = back (i, 160); !named && !after_sid && j + 34 <= i; j++)
        after_sid = is_twilio_sid (scan, j);
      if (!(named || after_sid) || !twilio_near (scan, i, end))
        return FALSE;
    }
  else
    return FALSE;
  match->start = i;
  match->end = end;
  match->family = FAMILY_TWILIO;
  return TRUE;
}

/* Microsoft Entra ID (Azure AD) client secrets: three characters, a digit, "Q~", then 31 to 34. */
static gboolean
match_azure_client_secret (const Scan *scan,
                           gsize       i,
                           Match      *match)
{
  gsize end;

  if (scan->n - i < 40 || scan->s[i + 4] != 'Q' || scan->s[i + 5] != '~' ||
      !g_ascii_isdigit (scan->s[i + 3]) || !in_charset (scan->s[i], CHARSET_AZURE) ||
      !is_boundary (scan, i, CHARSET_AZURE))
    return FALSE;
  end = run_end (scan, i, CHARSET_AZURE);
  if (end - i < 37 || end - i > 40 || !looks_random (scan->s + i + 6, end - i - 6))
    return FALSE;
  match->start = i;
  match->end = end;
  match->family = FAMILY_AZURE;
  return TRUE;
}

static gsize
base64url_decode (const guchar *s,
                  gsize         n,
                  guchar       *out,
                  gsize         out_size)
{
  guint32 bits = 0;
  guint   n_bits = 0;
  gsize   written = 0;

  for (gsize i = 0; i < n && written < out_size; i++)
    {
      guchar c = s[i];
      guint  v;

      if (g_ascii_isupper (c))
        v = c - 'A';
      else if (g_ascii_islower (c))
        v = c - 'a' + 26;
      else if (g_ascii_isdigit (c))
        v = c - '0' + 52;
      else if (c == '-' || c == '+')
        v = 62;
      else if (c == '_' || c == '/')
        v = 63;
      else
        break;
      bits = (bits << 6) | v;
      n_bits += 6;
      if (n_bits >= 8)
        {
          n_bits -= 8;
          out[written++] = (guchar)(bits >> n_bits);
        }
    }
  return written;
}

/* A JSON Web Token: header.payload.signature, the first two base64url JSON objects. */
static gboolean
match_jwt (const Scan *scan,
           gsize       i,
           Match      *match)
{
  guchar header[384];
  gsize  header_len;
  gsize  dot1;
  gsize  dot2;
  gsize  end;

  if (!has_prefix (scan, i, "eyJ") || !is_boundary (scan, i, CHARSET_B64URL_DOT))
    return FALSE;
  dot1 = run_end (scan, i, CHARSET_B64URL);
  if (dot1 - i < 10 || dot1 >= scan->n || scan->s[dot1] != '.' ||
      !has_prefix (scan, dot1 + 1, "eyJ"))
    return FALSE;
  dot2 = run_end (scan, dot1 + 1, CHARSET_B64URL);
  if (dot2 - dot1 - 1 < 10 || dot2 >= scan->n || scan->s[dot2] != '.')
    return FALSE;
  end = run_end (scan, dot2 + 1, CHARSET_B64URL);
  header_len = base64url_decode (scan->s + i, MIN (dot1 - i, 512), header, sizeof header);
  if (header_len < 8 || header[0] != '{' || find_bytes (header, header_len, "\"alg\"", 5) == NULL)
    return FALSE;
  match->start = i;
  match->end = end;
  match->family = FAMILY_JWT;
  return TRUE;
}

/* The detectors that recognise a secret by what it is, starting at @i. */
static gboolean
match_specific (const Scan *scan,
                gsize       i,
                Match      *match)
{
  return match_token_rules (scan, i, match) || match_jwt (scan, i, match) ||
         match_twilio (scan, i, match) || match_aws_secret (scan, i, match) ||
         match_azure_client_secret (scan, i, match);
}

/* Azure connection strings and SAS URLs carry their keys behind fixed names. */
static gboolean
match_azure_named (const Scan *scan,
                   gsize       i,
                   Match      *match)
{
  gsize start;
  gsize end;

  if (has_prefix (scan, i, "AccountKey="))
    start = i + strlen ("AccountKey=");
  else if (has_prefix (scan, i, "SharedAccessKey="))
    start = i + strlen ("SharedAccessKey=");
  else if (has_prefix (scan, i, "sig=") && is_boundary (scan, i, CHARSET_ALNUM) &&
           window_has (scan, back (i, 512), i, "sv="))
    {
      start = i + 4;
      end = start;
      while (end < scan->n && end - start <= 256 &&
             (in_charset (scan->s[end], CHARSET_B64) || scan->s[end] == '%' || scan->s[end] == '='))
        end++;
      if (end - start < 40 || end - start > 256 || !looks_random (scan->s + start, end - start))
        return FALSE;
      goto found;
    }
  else
    return FALSE;
  end = run_end (scan, start, CHARSET_B64);
  if (end - start < 40 || !looks_random (scan->s + start, end - start))
    return FALSE;
  while (end < scan->n && scan->s[end] == '=' && end - start < 4096)
    end++;
found:
  match->start = start;
  match->end = end;
  match->family = FAMILY_AZURE;
  return TRUE;
}

static gboolean
match_slack_webhook (const Scan *scan,
                     gsize       i,
                     Match      *match)
{
  static const char *const paths[] = { "hooks.slack.com/services/", "hooks.slack.com/workflows/",
                                       "hooks.slack.com/triggers/" };
  gsize                    start = 0;
  gsize                    end;

  for (gsize p = 0; p < G_N_ELEMENTS (paths) && start == 0; p++)
    if (has_prefix (scan, i, paths[p]))
      start = i + strlen (paths[p]);
  if (start == 0)
    return FALSE;
  end = run_end (scan, start, CHARSET_WEBHOOK);
  if (end - start < 20 || memchr (scan->s + start, '/', end - start) == NULL ||
      !looks_random (scan->s + start, end - start))
    return FALSE;
  match->start = start;
  match->end = end;
  match->family = FAMILY_SLACK_WEBHOOK;
  return TRUE;
}

/* Skips what separates the lines of a PEM body: white space and the "\n" of a JSON string
 * shown as it is written (a service-account file printed by cat). */
static gsize
skip_pem_space (const Scan *scan,
                gsize       i,
                gsize       limit)
{
  while (i < limit)
    {
      if (g_ascii_isspace (scan->s[i]))
        i++;
      else if (i + 1 < limit && scan->s[i] == '\\' &&
               (scan->s[i + 1] == 'n' || scan->s[i + 1] == 'r'))
        i += 2;
      else
        break;
    }
  return i;
}

static gsize
trim_pem_space (const Scan *scan,
                gsize       start,
                gsize       end)
{
  while (end > start)
    {
      if (g_ascii_isspace (scan->s[end - 1]))
        end--;
      else if (end - start >= 2 && scan->s[end - 2] == '\\' &&
               (scan->s[end - 1] == 'n' || scan->s[end - 1] == 'r'))
        end -= 2;
      else
        break;
    }
  return end;
}

#define PEM_MAX (64 * 1024)

static gboolean
match_pem (Scan  *scan,
           gsize  i,
           Match *match)
{
  const guchar *label;
  gsize         label_len;
  gsize         body;
  gsize         end;
  gsize         alnum = 0;
  const guchar *close;

  if (!has_prefix (scan, i, "-----BEGIN "))
    return FALSE;
  label = scan->s + i + strlen ("-----BEGIN ");
  close = find_bytes (label, MIN (64, scan->n - (gsize)(label - scan->s)), "-----", 5);
  if (close == NULL)
    return FALSE;
  label_len = (gsize)(close - label);
  if (find_bytes (label, label_len, "PRIVATE KEY", 11) == NULL)
    return FALSE;
  body = (gsize)(close - scan->s) + 5;

  /* The first END after here, found once for every BEGIN before it. */
  if (!scan->pem_end_valid || scan->pem_end < body)
    {
      const guchar *found = find_bytes (scan->s + body, scan->n - body, "-----END ", 9);

      scan->pem_end = found != NULL ? (gsize)(found - scan->s) : scan->n;
      scan->pem_end_valid = TRUE;
    }
  if (scan->pem_end < scan->n && scan->pem_end - body <= PEM_MAX &&
      scan->n - scan->pem_end >= 9 + label_len &&
      memcmp (scan->s + scan->pem_end + 9, label, label_len) == 0)
    end = scan->pem_end;
  else
    {
      /* Cut short: everything that can belong to a body is taken, up to the cap. */
      if (body < scan->pem_rejected_to)
        return FALSE;
      end = body;
      while (end < scan->n && end - body < PEM_MAX &&
             (in_charset (scan->s[end], CHARSET_B64) || scan->s[end] == '=' ||
              g_ascii_isspace (scan->s[end]) || scan->s[end] == '\\' || scan->s[end] == ':' ||
              scan->s[end] == ',' ||
              (scan->s[end] == '-' && (end + 1 == scan->n || scan->s[end + 1] != '-'))))
        end++;
    }

  body = skip_pem_space (scan, body, end);
  end = trim_pem_space (scan, body, end);
  for (gsize j = body; j < end && alnum < 64; j++)
    alnum += g_ascii_isalnum (scan->s[j]) ? 1 : 0;
  if (alnum < 64)
    {
      scan->pem_rejected_to = MAX (scan->pem_rejected_to, end);
      return FALSE;
    }
  match->start = body;
  match->end = end;
  match->family = FAMILY_PRIVATE_KEY;
  return TRUE;
}

static const char *const placeholder_words[] = {
  "password",  "passwd",   "pass",     "secret", "changeme", "change_me",   "change-me",
  "example",   "redacted", "none",     "null",   "nil",      "true",        "false",
  "undefined", "required", "optional", "hidden", "masked",   "placeholder", "dummy",
  "test",      "string",   "foo",      "bar",    "user",     "username",    "admin",
  "root",      "default",  "token",    "apikey", "api_key",  "value",
};

static gboolean
is_template (const guchar *v,
             gsize         n)
{
  static const char *const inner[] = { "your",     "example", "placeholder", "changeme",
                                       "redacted", "xxxx",    "****",        "...",
                                       "here",     "dummy",   "<",           ">" };
  guint                    found;

  if (n == 0 || v[0] == '$' || v[0] == '<' || v[0] == '{' || v[0] == '*' || v[0] == '[' ||
      v[0] == '%' || v[0] == '/' || v[0] == '~' || (v[0] == '.' && n > 1 && v[1] == '/'))
    return TRUE;
  for (gsize w = 0; w < G_N_ELEMENTS (placeholder_words); w++)
    if (strlen (placeholder_words[w]) == n &&
        g_ascii_strncasecmp ((const char *)v, placeholder_words[w], n) == 0)
      return TRUE;
  for (gsize w = 0; w < G_N_ELEMENTS (inner); w++)
    {
      gsize len = strlen (inner[w]);

      for (gsize j = 0; j + len <= n; j++)
        if (g_ascii_strncasecmp ((const char *)v + j, inner[w], len) == 0)
          return TRUE;
    }
  /* One character repeated, or almost: xxxxxxxx, 00000000. */
  if (entropy (v, n) < 1.5)
    return TRUE;
  found = classes (v, n);
  return found == CLASS_DIGIT;
}

/* A value that is code, not data: self.password, process.env.TOKEN, os.environ. Names in code
 * have no digits; a password with a dot in it nearly always has. */
static gboolean
is_identifier (const guchar *v,
               gsize         n)
{
  gboolean at_start = TRUE;
  gboolean dotted = FALSE;

  for (gsize i = 0; i < n; i++)
    {
      if (v[i] == '.')
        {
          if (at_start)
            return FALSE;
          at_start = TRUE;
          dotted = TRUE;
        }
      else if (g_ascii_isalpha (v[i]) || v[i] == '_')
        at_start = FALSE;
      else
        return FALSE;
    }
  return dotted && !at_start;
}

typedef enum
{
  KEY_NONE,
  KEY_PASSWORD,
  KEY_SECRET,
} KeyKind;

static gboolean
word_in (const char        *word,
         const char *const *list,
         gsize              n_list)
{
  for (gsize i = 0; i < n_list; i++)
    if (strcmp (word, list[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Names written in one word, PGPASSWORD, authtoken, JWTSECRET, end with what they name. */
static gboolean
word_ends_in (const char        *word,
              const char *const *list,
              gsize              n_list)
{
  gsize len = strlen (word);

  for (gsize i = 0; i < n_list; i++)
    {
      gsize end = strlen (list[i]);

      if (len >= end && strcmp (word + len - end, list[i]) == 0)
        return TRUE;
    }
  return FALSE;
}

/* What the name of an assignment says its value is, read word by word. */
static KeyKind
classify_key (const guchar *k,
              gsize         n)
{
  static const char *const password_words[] = { "password", "passwd",     "pwd",
                                                "pass",     "passphrase", "passcode" };
  static const char *const secret_words[] = { "secret",        "token",      "auth",
                                              "authorization", "credential", "credentials",
                                              "bearer",        "private",    "apikey",
                                              "secretkey",     "accesskey",  "privatekey" };
  static const char *const password_suffixes[] = { "password", "passwd" };
  static const char *const secret_suffixes[] = { "secret", "token", "apikey" };
  static const char *const other_words[] = {
    "id",       "ids",      "name",     "names",     "type",        "url",         "uri",
    "path",     "file",     "dir",      "count",     "length",      "len",         "size",
    "limit",    "max",      "min",      "ttl",       "expiry",      "expires",     "expiration",
    "hash",     "sha",      "digest",   "endpoint",  "usage",       "hint",        "label",
    "field",    "policy",   "prompt",   "reset",     "header",      "format",      "version",
    "env",      "var",      "prefix",   "suffix",    "public",      "publishable", "primary",
    "foreign",  "sort",     "cache",    "partition", "idempotency", "lookup",      "map",
    "rotation", "strength", "required", "enabled",   "index",       "mode",        "placeholder",
    "regex",    "pattern",  "budget",   "user",      "username",    "kind",        "location",
    "store",    "manager",  "provider", "source",    "ref",         "method",      "scheme",
    "host",     "port",     "email",    "login",     "policy",      "flow",        "grant",
    "level",    "timeout",  "file",     "min",       "created",     "updated",
  };
  char     word[64];
  gsize    w = 0;
  guint    n_words = 0;
  gboolean password = FALSE;
  gboolean secret = FALSE;
  gboolean key_last = FALSE;

  for (gsize i = 0; i <= n; i++)
    {
      gboolean split = i == n || k[i] == '_' || k[i] == '-' || k[i] == '.' ||
                       (i > 0 && g_ascii_isupper (k[i]) && g_ascii_islower (k[i - 1]));

      if (split && w > 0)
        {
          word[w] = '\0';
          n_words++;
          key_last = strcmp (word, "key") == 0;
          if (word_in (word, other_words, G_N_ELEMENTS (other_words)))
            return KEY_NONE;
          password |= word_in (word, password_words, G_N_ELEMENTS (password_words)) ||
                      word_ends_in (word, password_suffixes, G_N_ELEMENTS (password_suffixes));
          secret |= word_in (word, secret_words, G_N_ELEMENTS (secret_words)) ||
                    word_ends_in (word, secret_suffixes, G_N_ELEMENTS (secret_suffixes));
          w = 0;
        }
      if (i < n && k[i] != '_' && k[i] != '-' && k[i] != '.' && w < sizeof word - 1)
        word[w++] = g_ascii_tolower (k[i]);
    }
  if (password)
    return KEY_PASSWORD;
  if (secret || (key_last && n_words > 1))
    return KEY_SECRET;
  return KEY_NONE;
}

static gboolean
ends_value (guchar c)
{
  return g_ascii_isspace (c) || strchr ("\"'`,;&<>()[]{}|\\", c) != NULL || c == '\0';
}

/* KEY=value, KEY: value, "key": "value", key := value. @i is the '=' or the ':'. */
static gboolean
match_assignment (const Scan *scan,
                  gsize       i,
                  Match      *match)
{
  const guchar *s = scan->s;
  gsize         k_end = i;
  gsize         k_start;
  gsize         v;
  gsize         v_end;
  guchar        quote = 0;
  KeyKind       kind;
  Match         inner;

  if (i + 1 < scan->n && (s[i + 1] == '=' || (s[i] == ':' && s[i + 1] == '/')))
    return FALSE;
  if (s[i] == '=' && i > 0 && strchr ("=!<>", s[i - 1]) != NULL)
    return FALSE;
  if (s[i] == '=' && k_end > 0 && s[k_end - 1] == ':')
    k_end--;
  while (k_end > 0 && i - k_end < 8 && (s[k_end - 1] == ' ' || s[k_end - 1] == '\t'))
    k_end--;
  if (k_end > 0 && (s[k_end - 1] == '"' || s[k_end - 1] == '\''))
    k_end--;
  k_start = k_end;
  while (k_start > 0 && k_end - k_start < 64 && in_charset (s[k_start - 1], CHARSET_KEY))
    k_start--;
  if (k_start == k_end || (k_start > 0 && in_charset (s[k_start - 1], CHARSET_KEY)))
    return FALSE;
  kind = classify_key (s + k_start, k_end - k_start);
  if (kind == KEY_NONE)
    return FALSE;

  v = i + 1;
  while (v < scan->n && v - i < 8 && (s[v] == ' ' || s[v] == '\t'))
    v++;
  if (v < scan->n && (s[v] == '"' || s[v] == '\'' || s[v] == '`'))
    quote = s[v++];
  /* Authorization: Bearer TOKEN, Basic BASE64. */
  if (scan->n - v > 7 && (g_ascii_strncasecmp ((const char *)s + v, "bearer ", 7) == 0 ||
                          g_ascii_strncasecmp ((const char *)s + v, "basic ", 6) == 0 ||
                          g_ascii_strncasecmp ((const char *)s + v, "token ", 6) == 0))
    {
      while (v < scan->n && s[v] != ' ')
        v++;
      v++;
    }
  v_end = v;
  while (v_end < scan->n && v_end - v <= 512)
    {
      guchar c = s[v_end];

      if (quote != 0 ? (c == quote || c == '\n' || c == '\r') : ends_value (c))
        break;
      if (quote == 0 && c == '=')
        {
          /* Padding ends a value; any other '=' starts the next assignment. */
          gsize pad = v_end;

          while (pad < scan->n && s[pad] == '=')
            pad++;
          if (pad == scan->n || ends_value (s[pad]))
            v_end = pad;
          break;
        }
      v_end++;
    }
  if (v_end - v > 512 || v >= scan->n)
    return FALSE;
  /* A provider's token is named by its provider: the main loop meets it next. */
  if (match_specific (scan, v, &inner))
    return FALSE;
  {
    const guchar *value = s + v;
    gsize         n = v_end - v;
    guint         found;

    /* Base64 padding says nothing about the value. */
    while (n > 0 && value[n - 1] == '=')
      n--;
    found = classes (value, n);
    double min_entropy = kind == KEY_PASSWORD ? 2.5 : 3.0;
    gsize  min_len = kind == KEY_PASSWORD ? 6 : 8;

    if (n < min_len || is_template (value, n) || is_identifier (value, n) ||
        find_bytes (value, n, "://", 3) != NULL)
      return FALSE;
    if (!(found & CLASS_DIGIT) && n_classes (found) < 3)
      return FALSE;
    if (entropy (value, n) < min_entropy)
      return FALSE;
    match->start = v;
    match->end = v_end;
    match->family = kind == KEY_PASSWORD ? FAMILY_PASSWORD : FAMILY_SECRET;
  }
  return TRUE;
}

static gboolean
ends_authority (guchar c)
{
  return g_ascii_isspace (c) || strchr ("/?#\"'`<>\\()[]{}", c) != NULL || c == '\0';
}

/* scheme://user:password@host — @i is the ':' of "://". */
static gboolean
match_url_password (const Scan *scan,
                    gsize       i,
                    Match      *match)
{
  const guchar *s = scan->s;
  gsize         scheme = i;
  gsize         start = i + 3;
  gsize         at = 0;
  gsize         colon = 0;
  gsize         end;
  Match         inner;

  while (scheme > 0 && i - scheme < 32 &&
         (g_ascii_isalnum (s[scheme - 1]) || strchr ("+.-", s[scheme - 1]) != NULL))
    scheme--;
  /* A scheme starts with a letter: what comes before it is not part of it, like the '+' that
   * starts every added line of a diff. */
  while (scheme < i && !g_ascii_isalpha (s[scheme]))
    scheme++;
  if (scheme == i)
    return FALSE;
  for (end = start; end < scan->n && end - start < 512 && !ends_authority (s[end]); end++)
    {
      if (s[end] == '@')
        at = end;
      else if (s[end] == ':' && colon == 0 && at == 0)
        colon = end;
    }
  if (at == 0 || colon == 0 || colon > at || at == colon + 1)
    return FALSE;
  if (is_template (s + colon + 1, at - colon - 1) || match_specific (scan, colon + 1, &inner))
    return FALSE;
  match->start = colon + 1;
  match->end = at;
  match->family = FAMILY_URL_PASSWORD;
  return TRUE;
}

static gboolean
match_at (Scan  *scan,
          gsize  i,
          Match *match)
{
  switch (scan->s[i])
    {
    case ':':
      if (scan->n - i >= 3 && scan->s[i + 1] == '/' && scan->s[i + 2] == '/')
        return match_url_password (scan, i, match);
      return match_assignment (scan, i, match);
    case '=':
      return match_assignment (scan, i, match);
    case '-':
      if (match_pem (scan, i, match))
        return TRUE;
      break;
    case 'h':
      if (match_slack_webhook (scan, i, match))
        return TRUE;
      break;
    case 'A':
    case 'S':
    case 's':
      if (match_azure_named (scan, i, match))
        return TRUE;
      break;
    default:
      break;
    }
  return match_specific (scan, i, match);
}

LoomRedactor *
loom_redactor_new (void)
{
  LoomRedactor *self = g_new0 (LoomRedactor, 1);

  init_tables ();
  self->placeholders = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                              (GDestroyNotify)g_bytes_unref, g_free);
  return self;
}

void
loom_redactor_free (LoomRedactor *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->placeholders);
  g_free (self);
}

static const char *
placeholder_for (LoomRedactor *self,
                 Family        family,
                 const guchar *secret,
                 gsize         len)
{
  g_autoptr (GBytes) key = NULL;
  guchar     *bytes = g_malloc (len + 1);
  const char *found;

  bytes[0] = (guchar)family;
  memcpy (bytes + 1, secret, len);
  key = g_bytes_new_take (bytes, len + 1);
  found = g_hash_table_lookup (self->placeholders, key);
  if (found == NULL)
    {
      char *placeholder = g_strdup_printf ("[REDACTED:%s-%u]", family_names[family],
                                           ++self->distinct[family]);

      g_hash_table_insert (self->placeholders, g_bytes_ref (key), placeholder);
      found = placeholder;
    }
  return found;
}

char *
loom_redactor_redact (LoomRedactor *self,
                      const char   *text,
                      gssize        length,
                      guint        *n_found)
{
  GString *out;
  Scan     scan = { 0 };
  gsize    copied = 0;
  guint    found = 0;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (n_found != NULL)
    *n_found = 0;
  if (text == NULL)
    return g_strdup ("");
  scan.s = (const guchar *)text;
  scan.n = length < 0 ? strlen (text) : (gsize)length;
  out = g_string_sized_new (scan.n + 1);

  for (gsize i = 0; i < scan.n;)
    {
      Match match;

      if (!match_at (&scan, i, &match))
        {
          i++;
          continue;
        }
      g_assert (match.start >= i && match.end > match.start && match.end <= scan.n);
      g_string_append_len (out, text + copied, (gssize)(match.start - copied));
      g_string_append (
        out, placeholder_for (self, match.family, scan.s + match.start, match.end - match.start));
      self->count[match.family]++;
      self->total++;
      found++;
      copied = i = match.end;
    }
  g_string_append_len (out, text + copied, (gssize)(scan.n - copied));
  if (n_found != NULL)
    *n_found = found;
  return g_string_free (out, FALSE);
}

const char *const *
loom_redactor_get_families (void)
{
  return family_names;
}

guint
loom_redactor_get_count (LoomRedactor *self,
                         const char   *family)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (family != NULL, 0);

  for (guint f = 0; f < N_FAMILIES; f++)
    if (strcmp (family_names[f], family) == 0)
      return self->count[f];
  return 0;
}

GHashTable *
loom_redactor_get_counts (LoomRedactor *self)
{
  GHashTable *counts;

  g_return_val_if_fail (self != NULL, NULL);

  counts = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint f = 0; f < N_FAMILIES; f++)
    if (self->count[f] != 0)
      g_hash_table_insert (counts, (gpointer)family_names[f], GUINT_TO_POINTER (self->count[f]));
  return counts;
}

guint
loom_redactor_get_total (LoomRedactor *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->total;
}

guint
loom_redactor_get_n_secrets (LoomRedactor *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return g_hash_table_size (self->placeholders);
}
