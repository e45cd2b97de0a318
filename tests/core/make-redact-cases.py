#!/usr/bin/env python3
# make-redact-cases.py — writes redact-cases.txt, the labelled test set of test-redact.c.
#
# Every case is built from the providers' published token formats with a fixed seed, so the
# file is the same on every run: python3 tests/core/make-redact-cases.py > tests/core/redact-cases.txt
#
# A line is FAMILY <TAB> EXPECTED <TAB> TEXT, escaped as g_strcompress () reads them (\n, \t,
# \\, octal \NNN for other bytes). EXPECTED is the whole redacted text of a true positive, or
# "=" for a false-positive case, whose text must come back unchanged; FAMILY then names the
# family the near miss imitates ("none" for text that imitates none in particular).
#
# SPDX-License-Identifier: GPL-3.0-or-later

import base64
import json
import random
import string
import sys

rng = random.Random(17)

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
B32 = UPPER + '234567'
B64URL = ALNUM + '-_'
B64 = ALNUM + '+/'
HEX = '0123456789abcdef'


def rand(alphabet, n):
    return ''.join(rng.choice(alphabet) for _ in range(n))


def mixed(alphabet, n):
    """A random string with upper, lower and digit, as real tokens nearly always are."""
    while True:
        s = rand(alphabet, n)
        if any(c in UPPER for c in s) and any(c in LOWER for c in s) and any(c in DIGITS for c in s):
            return s


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip('=')


cases = []


def positive(family, *parts):
    """parts: strings and (family, secret) pairs."""
    numbers = {}
    counters = {}
    text = []
    expected = []
    for part in parts:
        if isinstance(part, tuple):
            fam, secret = part
            key = (fam, secret)
            if key not in numbers:
                counters[fam] = counters.get(fam, 0) + 1
                numbers[key] = counters[fam]
            text.append(secret)
            expected.append(f'[REDACTED:{fam}-{numbers[key]}]')
        else:
            text.append(part)
            expected.append(part)
    cases.append((family, ''.join(expected), ''.join(text)))


def negative(family, text):
    cases.append((family, None, text))


def contexts(family, secret, var, extra=()):
    """The places people paste a token: a prompt, a shell, JSON, a .env file, a header."""
    s = (family, secret)
    out = [
        ('Here is my key: ', s, ' — can you check why the request fails?'),
        ('export ', var, '=', s, '\n'),
        (var, '=', s, '\n# added by setup\n'),
        ('{"', var.lower(), '": "', s, '", "debug": false}'),
        ("curl -sS -H 'Authorization: Bearer ", s, "' https://api.example.com/v1/me"),
        ('I pasted ', s, ' into the config but it still says 401.'),
        ('```\n', s, '\n```'),
        ('$ echo "', s, '" | tool login --stdin'),
        ('token=', s, '&page=2'),
        ('  ', var.lower(), ': "', s, '"\n'),
    ]
    for pattern in out + list(extra):
        positive(family, *pattern)


# --- AWS --------------------------------------------------------------------------------------
for n in range(14):
    prefix = 'AKIA' if n % 3 else 'ASIA'
    key = prefix + rand(B32, 16)
    if n < 10:
        contexts('aws-access-key-id', key, 'AWS_ACCESS_KEY_ID') if n == 0 else None
    positive('aws-access-key-id', 'aws configure set aws_access_key_id ', ('aws-access-key-id', key))
    positive('aws-access-key-id', 'the failing key is ', ('aws-access-key-id', key), '.')
negative('aws-access-key-id', 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE')
negative('aws-access-key-id', 'AKIA' + rand(B32, 15) + ' is too short')
negative('aws-access-key-id', 'id AKIA' + rand(B32, 17))
negative('aws-access-key-id', 'user AIDA' + rand(B32, 16) + ' has the role')
negative('aws-access-key-id', 'AKIA' + 'abcdefghijklmnop')
negative('aws-access-key-id', 'AKIA' + '0189' * 4)
negative('aws-access-key-id', 'const AKIA_PREFIX = "AKIA";')

for n in range(24):
    key = 'AKIA' + rand(B32, 16)
    secret = mixed(B64, 40)
    forms = [
        ('[default]\naws_access_key_id = ', ('aws-access-key-id', key), '\naws_secret_access_key = ',
         ('aws-secret-access-key', secret), '\n'),
        ('export AWS_SECRET_ACCESS_KEY=', ('aws-secret-access-key', secret), '\n'),
        ('{"Credentials": {"AccessKeyId": "', ('aws-access-key-id', key), '", "SecretAccessKey": "',
         ('aws-secret-access-key', secret), '", "Expiration": "2026-12-03T15:00:00Z"}}'),
        ('My AWS secret key is ', ('aws-secret-access-key', secret), ', why does s3 ls say denied?'),
    ]
    positive('aws-secret-access-key', *forms[n % 4])
negative('aws-secret-access-key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')
for n in range(6):
    negative('aws-secret-access-key', 'blob ' + mixed(B64, 40) + ' in the cache')
    negative('aws-secret-access-key', 'aws secret rotated in commit ' + rand(HEX, 40))

# --- Google -----------------------------------------------------------------------------------
for n in range(3):
    contexts('google-api-key', 'AIza' + rand(B64URL, 35), 'GEMINI_API_KEY' if n else 'GOOGLE_API_KEY')
for n in range(4):
    positive('google-api-key', 'https://maps.googleapis.com/maps/api/geocode/json?address=x&key=',
             ('google-api-key', 'AIza' + rand(B64URL, 35)))
negative('google-api-key', 'AIza' + rand(B64URL, 34))
negative('google-api-key', 'const AIzaSyExample = 1;')
for n in range(6):
    positive('google-oauth-token', 'Authorization: Bearer ',
             ('google-oauth-token', 'ya29.a0' + mixed(B64URL, 150)))
    positive('google-oauth-token', '"client_secret": "', ('google-oauth-token', 'GOCSPX-' + mixed(B64URL, 28)), '"')
negative('google-oauth-token', 'ya29.short')
negative('google-oauth-token', 'GOCSPX-xxxxxxxxxxxxxxxxxxxxxxxxxxxx')

# --- Azure ------------------------------------------------------------------------------------
for n in range(8):
    account_key = base64.b64encode(rng.randbytes(64)).decode()
    positive('azure-key', 'DefaultEndpointsProtocol=https;AccountName=loomdata;AccountKey=',
             ('azure-key', account_key), ';EndpointSuffix=core.windows.net')
    sas_key = base64.b64encode(rng.randbytes(32)).decode()
    positive('azure-key', 'Endpoint=sb://loom.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=',
             ('azure-key', sas_key))
    sig = base64.b64encode(rng.randbytes(32)).decode().replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')
    positive('azure-key', 'https://loom.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31&sig=',
             ('azure-key', sig))
    client = rand(ALNUM, 3) + rng.choice(DIGITS) + 'Q~' + mixed(ALNUM + '_~.-', 34)
    positive('azure-key', 'AZURE_CLIENT_SECRET=', ('azure-key', client))
negative('azure-key', 'AccountKey=<your key>;EndpointSuffix=core.windows.net')
negative('azure-key', 'DefaultEndpointsProtocol=https;AccountName=x;AccountKey=;')
negative('azure-key', 'the sig=' + base64.b64encode(rng.randbytes(32)).decode() + ' field of a message')
negative('azure-key', 'UseDevelopmentStorage=true')

# --- AI providers -----------------------------------------------------------------------------
for n in range(3):
    contexts('anthropic-key', 'sk-ant-api03-' + mixed(B64URL, 93) + 'AA', 'ANTHROPIC_API_KEY')
positive('anthropic-key', 'claude setup-token printed ', ('anthropic-key', 'sk-ant-oat01-' + mixed(B64URL, 95)))
positive('anthropic-key', 'admin key ', ('anthropic-key', 'sk-ant-admin01-' + mixed(B64URL, 93)))
negative('anthropic-key', 'ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')
negative('anthropic-key', 'keys look like sk-ant-... and start with sk-ant-api03-')

for n in range(2):
    contexts('openai-key', 'sk-proj-' + mixed(B64URL, 156), 'OPENAI_API_KEY')
contexts('openai-key', 'sk-' + mixed(ALNUM, 20) + 'T3BlbkFJ' + mixed(ALNUM, 20), 'OPENAI_API_KEY')
positive('openai-key', 'service account: ', ('openai-key', 'sk-svcacct-' + mixed(B64URL, 120)))
positive('openai-key', 'admin: ', ('openai-key', 'sk-admin-' + mixed(B64URL, 120)))
negative('openai-key', 'pip install sk-learn-pipeline-model-selection-tutorial')
negative('openai-key', 'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')
negative('openai-key', 'the key starts with sk- or sk-proj-, never sk-1234')
negative('openai-key', 'see sk-ant-api03-short')

for n in range(3):
    contexts('huggingface-token', 'hf_' + mixed(ALNUM, 34), 'HF_TOKEN')
negative('huggingface-token', 'from huggingface_hub import hf_hub_download')
negative('huggingface-token', 'HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')
negative('huggingface-token', 'hf_transfer_enabled_for_large_model_downloads=1')

# --- Forges -----------------------------------------------------------------------------------
for prefix in ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']:
    contexts('github-token', prefix + mixed(ALNUM, 36), 'GITHUB_TOKEN')
contexts('github-token', 'github_pat_' + mixed(ALNUM, 22) + '_' + mixed(ALNUM, 59), 'GH_TOKEN')
for n in range(4):
    token = 'ghs_' + mixed(ALNUM, 36)
    positive('github-token', 'git clone https://x-access-token:', ('github-token', token), '@github.com/loom/history.git')
    positive('github-token', 'git remote set-url origin https://', ('github-token', token), '@github.com/loom/history.git')
negative('github-token', 'the id ghp_' + rand(ALNUM, 35) + ' is one short')
negative('github-token', 'GITHUB_TOKEN=ghp_' + 'x' * 36)
negative('github-token', 'export GITHUB_TOKEN=ghp_YOUR_TOKEN_HERE')
negative('github-token', 'tokens begin with ghp_, gho_, ghu_, ghs_ or ghr_')
negative('github-token', 'def ghp_token_from_environment_variable_or_config(): pass')

for prefix in ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'gloas-']:
    contexts('gitlab-token', prefix + mixed(B64URL, 20), 'GITLAB_TOKEN')
positive('gitlab-token', 'new routable token ', ('gitlab-token', 'glpat-' + mixed(B64URL, 27) + '.01.' + rand(HEX, 9)))
positive('gitlab-token', 'gitlab-runner register --registration-token ', ('gitlab-token', 'GR1348941' + mixed(B64URL, 20)))
negative('gitlab-token', 'GITLAB_TOKEN=glpat-xxxxxxxxxxxxxxxxxxxx')
negative('gitlab-token', 'a glpat-token is a personal access token')

# --- Chat, payment, mail ------------------------------------------------------------------------
for prefix in ['xoxb-', 'xoxp-', 'xoxa-', 'xoxs-']:
    token = prefix + rand(DIGITS, 12) + '-' + rand(DIGITS, 13) + '-' + mixed(ALNUM, 24)
    contexts('slack-token', token, 'SLACK_BOT_TOKEN')
positive('slack-token', 'socket mode: ', ('slack-token', 'xapp-1-A' + rand(UPPER + DIGITS, 10) + '-' + rand(DIGITS, 13) + '-' + rand(HEX, 64)))
negative('slack-token', 'SLACK_BOT_TOKEN=xoxb-your-bot-token-here')
negative('slack-token', 'xoxb-123 is not a token')
for n in range(16):
    path = 'T' + rand(UPPER + DIGITS, 10) + '/B' + rand(UPPER + DIGITS, 10) + '/' + mixed(ALNUM, 24)
    forms = [
        ('curl -X POST -d \'{"text":"hi"}\' https://hooks.slack.com/services/', ('slack-webhook', path)),
        ('SLACK_WEBHOOK_URL=https://hooks.slack.com/services/', ('slack-webhook', path), '\n'),
        ('{"webhook": "https://hooks.slack.com/services/', ('slack-webhook', path), '"}'),
        ('post to https://hooks.slack.com/services/', ('slack-webhook', path), ' when the build fails'),
    ]
    positive('slack-webhook', *forms[n % 4])
negative('slack-webhook', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX')
negative('slack-webhook', 'see https://hooks.slack.com/services/ for the docs')

for prefix in ['sk_live_', 'sk_test_', 'rk_live_', 'whsec_']:
    contexts('stripe-key', prefix + mixed(ALNUM, 24 if prefix != 'whsec_' else 32), 'STRIPE_SECRET_KEY')
positive('stripe-key', 'stripe.api_key = "', ('stripe-key', 'sk_live_51' + mixed(ALNUM, 97)), '"')
negative('stripe-key', 'STRIPE_PUBLISHABLE_KEY=pk_live_' + mixed(ALNUM, 24))
negative('stripe-key', 'STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx')
negative('stripe-key', 'use sk_live_ keys only in production')

for n in range(20):
    sid = 'AC' + rand(HEX, 32)
    token = rand(HEX, 32)
    forms = [
        ('TWILIO_ACCOUNT_SID=', ('twilio-key', sid), '\nTWILIO_AUTH_TOKEN=', ('twilio-key', token), '\n'),
        ('from twilio.rest import Client\nclient = Client("', ('twilio-key', sid), '", "', ('twilio-key', token), '")'),
        ('twilio api:core:messages:create --from +15005550006 --account-sid ', ('twilio-key', sid)),
        ('Twilio API key ', ('twilio-key', 'SK' + rand(HEX, 32)), ' and secret in the vault'),
        ('curl -u ', ('twilio-key', sid), ':', ('twilio-key', token), ' https://api.twilio.com/2010-04-01/Accounts'),
    ]
    positive('twilio-key', *forms[n % 5])
negative('twilio-key', 'row AC' + rand(HEX, 32) + ' of the table')
negative('twilio-key', 'md5 token checksum ' + rand(HEX, 32))
negative('twilio-key', 'twilio docs: an Account SID looks like ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX')

for n in range(2):
    contexts('sendgrid-key', 'SG.' + mixed(B64URL, 22) + '.' + mixed(B64URL, 43), 'SENDGRID_API_KEY')
negative('sendgrid-key', 'SG.' + mixed(B64URL, 21) + '.' + mixed(B64URL, 43))
negative('sendgrid-key', 'the SG.example.com server')

# --- Registries -------------------------------------------------------------------------------
for n in range(2):
    token = 'npm_' + mixed(ALNUM, 36)
    contexts('npm-token', token, 'NPM_TOKEN',
             extra=[('//registry.npmjs.org/:_authToken=', ('npm-token', token), '\n')])
negative('npm-token', 'npm_config_registry=https://registry.npmjs.org/')
negative('npm-token', 'the id npm_' + mixed(ALNUM, 35) + ' is one short')
for n in range(2):
    contexts('pypi-token', 'pypi-AgEIcHlwaS5vcmc' + mixed(B64URL, 140), 'TWINE_PASSWORD',
             extra=[('[pypi]\n  username = __token__\n  password = ', ('pypi-token', 'pypi-AgENdGVzdC5weXBpLm9yZw' + mixed(B64URL, 140)), '\n')])
negative('pypi-token', 'pip install pypi-simple-index-mirror')
negative('pypi-token', 'every token starts with pypi-AgEIcHlwaS5vcmc')

# --- Private keys -----------------------------------------------------------------------------
def pem_body(n_bytes, sep='\n'):
    data = base64.b64encode(rng.randbytes(n_bytes)).decode()
    return sep.join(data[i:i + 64] for i in range(0, len(data), 64))


for label in ['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'DSA PRIVATE KEY']:
    for n in range(3):
        body = pem_body(rng.choice([121, 400, 1190]))
        forms = [
            ('$ cat ~/.ssh/id_rsa\n-----BEGIN ' + label + '-----\n', ('private-key', body), '\n-----END ' + label + '-----\n'),
            ('Why does this key not load?\n\n-----BEGIN ' + label + '-----\n', ('private-key', body), '\n-----END ' + label + '-----'),
            ('key = """-----BEGIN ' + label + '-----\n', ('private-key', body), '\n-----END ' + label + '-----"""'),
        ]
        positive('private-key', *forms[n])
for n in range(6):
    body = pem_body(1190, sep='\\n')
    sa = ('{\n  "type": "service_account",\n  "project_id": "loom-prod",\n  "private_key_id": "' + rand(HEX, 40) +
          '",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n')
    positive('private-key', sa, ('private-key', body), '\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "x@loom-prod.iam.gserviceaccount.com"\n}')
for n in range(4):
    body = pem_body(300)
    positive('private-key', 'head -c 400 key.pem\n-----BEGIN RSA PRIVATE KEY-----\n', ('private-key', body), '\n[output truncated]')
negative('private-key', '-----BEGIN PUBLIC KEY-----\n' + pem_body(270) + '\n-----END PUBLIC KEY-----')
negative('private-key', '-----BEGIN CERTIFICATE-----\n' + pem_body(900) + '\n-----END CERTIFICATE-----')
negative('private-key', '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----')
negative('private-key', 'the file should start with -----BEGIN RSA PRIVATE KEY----- and end with the END line')
negative('private-key', '-----BEGIN OPENSSH PRIVATE KEY-----\n<paste your key here>\n-----END OPENSSH PRIVATE KEY-----')

# --- JWT --------------------------------------------------------------------------------------
for n in range(18):
    header = b64url(json.dumps({'alg': rng.choice(['HS256', 'RS256', 'ES256']), 'typ': 'JWT'}).encode())
    payload = b64url(json.dumps({'sub': rand(DIGITS, 8), 'name': 'Ada', 'iat': 1764770000 + n}).encode())
    sig = b64url(rng.randbytes(rng.choice([32, 64, 256])))
    jwt = header + '.' + payload + '.' + sig
    forms = [
        ('Authorization: Bearer ', ('jwt', jwt)),
        ('{"access_token": "', ('jwt', jwt), '", "token_type": "Bearer"}'),
        ('decode this: ', ('jwt', jwt), '.'),
        ('Cookie: session=', ('jwt', jwt), '; Path=/'),
        ('const t = "', ('jwt', jwt), '";'),
        ('jwt.io says ', ('jwt', jwt), ' is invalid'),
    ]
    positive('jwt', *forms[n % 6])
negative('jwt', b64url(b'{"a":1,"b":2}') + '.' + b64url(b'{"c":3,"d":4}') + '.xyz')
negative('jwt', 'the header eyJhbGciOiJIUzI1NiJ9 alone')
negative('jwt', 'eyJ is the base64 of {"')

# --- URLs with credentials ----------------------------------------------------------------------
PW = ALNUM + '!^*_+-.~'
for n in range(24):
    pw = rng.choice(LOWER) + rand(PW, rng.randint(7, 23))
    forms = [
        ('DATABASE_URL=postgres://app:', ('url-password', pw), '@db.internal:5432/app\n'),
        ('mysql://root:', ('url-password', pw), '@127.0.0.1:3306/shop'),
        ('client = MongoClient("mongodb+srv://ada:', ('url-password', pw), '@cluster0.ab1cd.mongodb.net/?retryWrites=true")'),
        ('REDIS_URL=redis://:', ('url-password', pw), '@cache:6379/0'),
        ('amqp://loom:', ('url-password', pw), '@rabbit.internal:5672/'),
        ('git clone https://deploy:', ('url-password', pw), '@git.example.org/loom.git'),
    ]
    positive('url-password', *forms[n % 6])
for text in ['postgres://user:password@localhost/db', 'DATABASE_URL=postgres://app:${DB_PASSWORD}@db/app',
             'mysql://root:<password>@localhost', 'redis://:****@cache:6379', 'ssh://git@github.com:22/loom/history.git',
             'git@github.com:loom/history.git', 'mailto:ada@example.com', 'https://ada@example.com/profile',
             'http://[::1]:8080/health', 'https://example.com/a:b@c', 'postgres://localhost:5432/app',
             'amqp://guest:changeme@localhost:5672/']:
    negative('url-password', text)

# --- Assignments ------------------------------------------------------------------------------
PWCHARS = ALNUM + '!@#^*_+-.~'
for n in range(30):
    pw = rng.choice(UPPER + LOWER) + mixed(PWCHARS, rng.randint(9, 17))
    forms = [
        ('password: ', ('password', pw), '\n'),
        ('PGPASSWORD=', ('password', pw), ' psql -h db -U app'),
        ('mysql -u root --password=', ('password', pw), ' shop'),
        ('{"username": "ada", "password": "', ('password', pw), '"}'),
        ('DB_PASS=', ('password', pw), '\n'),
        ('spring.datasource.password=', ('password', pw), '\n'),
        ('my login is ada, Password: ', ('password', pw), ' — please try it'),
        ('  db_password = "', ('password', pw), '"\n'),
        ('POSTGRES_PASSWORD: ', ('password', pw), '\n'),
        ('passphrase := "', ('password', pw), '"'),
    ]
    positive('password', *forms[n % 10])
for text in ['password: ${DB_PASSWORD}', 'PASSWORD=changeme', 'password = getpass.getpass()', 'password: string',
             'if password == confirm:', 'password: <your password here>', 'password: ********',
             'passwordless=true', 'password_min_length=12', 'PWD=/home/ada/src/loom', 'password_hash=$2b$12$abc',
             'password=os.environ["DB_PASSWORD"]', 'password: required', 'password: null', "password: ''",
             'Password reset link sent', 'const password = form.password.value;', 'password: hunter',
             'password = input("Password: ")', 'DB_PASSWORD=your_password_here']:
    negative('password', text)

for n in range(30):
    value = rng.choice([mixed(ALNUM, 32), rand(HEX, 40), base64.b64encode(rng.randbytes(32)).decode(),
                        mixed(ALNUM + '-_', 48)])
    forms = [
        ('SESSION_SECRET=', ('secret', value), '\n'),
        ('JWT_SECRET=', ('secret', value), '\n'),
        ('SECRET_KEY_BASE=', ('secret', value), '\n'),
        ('ENCRYPTION_KEY=', ('secret', value), '\n'),
        ('"apiKey": "', ('secret', value), '"'),
        ('curl -H "x-api-key: ', ('secret', value), '" https://api.example.com'),
        ('authToken: \'', ('secret', value), '\''),
        ('CLIENT_SECRET=', ('secret', value), '\n'),
        ('Authorization: Bearer ', ('secret', value), '\n'),
        ('aws_session_token = ', ('secret', value), '\n'),
    ]
    positive('secret', *forms[n % 10])
for text in ['token_count: 12345', 'max_tokens=4096', '"input_tokens": 1532', 'tokenizer: bert-base-uncased',
             'PRIMARY_KEY=id', 'SECRET_NAME=prod-db-credentials', 'AUTH_URL=https://auth.example.com',
             'PUBLIC_KEY=' + mixed(ALNUM, 40), 'API_KEY=your-api-key-here', 'TOKEN=xxxxxxxxxxxxxxxx',
             'SECRET_KEY=REPLACE_ME', 'token: null', 'secret: false', 'token = self.token',
             'const token = req.headers.authorization;', 'session_token_ttl: 3600', 'key: "ArrowUp"',
             'cache_key=user-1234', 'secret_id: ' + rand(HEX, 32), 'token_type: Bearer',
             'Authorization: Bearer <token>', 'TOKEN_URL=https://oauth2.googleapis.com/token',
             'auth: { user, pass }', 'SECRET_KEY=${SECRET_KEY}', '"token": "{{ secrets.GITHUB_TOKEN }}"']:
    negative('secret', text)

# --- What is not a secret at all -------------------------------------------------------------------
for n in range(8):
    negative('none', 'commit ' + rand(HEX, 40) + '\nAuthor: Ada <ada@example.com>')
    negative('none', 'session ' + '-'.join(rand(HEX, k) for k in (8, 4, 4, 4, 12)) + ' imported')
    negative('none', 'sha256:' + rand(HEX, 64))
    negative('none', 'data:image/png;base64,' + base64.b64encode(rng.randbytes(300)).decode())
    negative('none', 'integrity="sha512-' + base64.b64encode(rng.randbytes(64)).decode() + '"')
for text in ['The quick brown fox jumps over the lazy dog.', 'getUserAccessToken(session)', 'tokenizeSecretSharingScheme',
             'Refactor loom_store_open to take a GError', 'See https://docs.github.com/en/authentication',
             'café 東京 naïve — “quoted”', 'pip install huggingface_hub==0.26.2', 'SK-II skincare', 'ACME Corp',
             'npm install --save-dev @types/node', 'x = {"alg": "none"}', '-----BEGIN PGP SIGNATURE-----',
             'ghp is short for GitHub personal', 'error: key "AKIA" not found', 'https://example.com/?token=',
             'the password field is empty', 'use a secret manager', 'Bearer tokens expire after an hour']:
    negative('none', text)


def escape(text):
    out = []
    for byte in text.encode('utf-8'):
        c = chr(byte)
        if c == '\\':
            out.append('\\\\')
        elif c == '\n':
            out.append('\\n')
        elif c == '\t':
            out.append('\\t')
        elif c == '\r':
            out.append('\\r')
        elif byte < 0x20 or byte >= 0x7f:
            out.append('\\%03o' % byte)
        else:
            out.append(c)
    return ''.join(out)


print('# redact-cases.txt — written by make-redact-cases.py; see there for the format.')
for family, expected, text in cases:
    print(f'{family}\t{"=" if expected is None else escape(expected)}\t{escape(text)}')
