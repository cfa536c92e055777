"""Settings for Cardlab: one module, configured by the environment.

Two modes, chosen by ``DJANGO_ENV``:

- ``development`` (default): DEBUG on, a built-in secret key, SQLite in ``var/`` and kombu's
  filesystem broker in ``var/celery/``, so ``./run.sh`` works on a bare machine with no servers.
- ``production``: DEBUG off, ``DJANGO_SECRET_KEY`` required, HTTPS everywhere (HSTS, secure
  cookies, SSL redirect behind a proxy that sets ``X-Forwarded-Proto``). In this mode
  ``python manage.py check --deploy`` reports no issues.

``DATABASE_URL`` (PostgreSQL, say) and ``CELERY_BROKER_URL`` (Redis, say) scale either mode out.
The full list of variables is in docs/configuration.md.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Django's generic classes take their type arguments at run time too (ModelAdmin[Card],
# UserCreationForm[User]), as django-stubs declares them for mypy.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

# Runtime state (SQLite file, broker queue) lives in var/, which git ignores.
VAR_DIR = Path(os.environ.get("CARDLAB_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

ENV_MUST_BE = "DJANGO_ENV must be 'development' or 'production', not {value!r}."
SECRET_KEY_REQUIRED = (
    "DJANGO_SECRET_KEY must be set when DEBUG is off (production). "
    "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(64))'"
)
BOOL_MUST_BE = "{name} must be a boolean (1/0, true/false, yes/no, on/off), not {value!r}."
PSEUDO_LOCALE_NOT_IN_PRODUCTION = (
    "CARDLAB_PSEUDO_LOCALE is a development aid (every text rewritten to look translated): "
    "turn it off in production.")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable; a typo is an error, not a silent default."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(BOOL_MUST_BE.format(name=name, value=raw))


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable into a list, dropping blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(ENV_MUST_BE.format(value=DJANGO_ENV))
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION)



def local_secret_key(path: Path) -> str:
    """The key in ``path``, made once (random, readable by this user only) if it is missing.

    For a server run on this machine with DEBUG off (``./run.sh``): sessions and signed values
    survive restarts, and no key is written in the code or the environment."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass   # made before, or by another process starting at the same moment
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(64))
    for _ in range(50):      # another process may be between creating and writing it
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise ImproperlyConfigured(f"{path} is empty: delete it and start again.")


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(SECRET_KEY_REQUIRED)
    # Development: a built-in key with DEBUG on; with DEBUG off (./run.sh serving on this
    # machine), a key generated once into var/.
    SECRET_KEY = ("django-insecure-cardlab-development-key-do-not-use-in-production" if DEBUG
                  else local_secret_key(VAR_DIR / "secret_key"))

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", default="" if PRODUCTION else "localhost,127.0.0.1,[::1]"
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# --- Applications ---------------------------------------------------------------------------

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "django.forms",   # the widgets' templates, for FORM_RENDERER below
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "accounts",
    "common",     # what every app shares: the language door, stored pages, throttles …
    "cards",
    "decks",
    "collection",
    "work",       # leased work: the protocol, fair dispatch, the reaper and the CPU cap
    "simulations",
    "balance",
    "play",
    "tools",    # benchmarks and stress tools (manage.py bench_*, loadtest): not the site
    "config",   # the site itself: the cache table's migration, the static files' check
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.RejectNulCharactersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the header's switcher (a cookie), then Accept-Language; an old
    # ``?lang=zh`` link overrides both for its one request.
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.LangQueryMiddleware",
    # A query string over 4,096 characters: the site's 414, before anything reads it.
    "config.middleware.LongQueryStringMiddleware",
    # A form over DATA_UPLOAD_MAX_MEMORY_SIZE: the site's 413 page, before CSRF reads it.
    "config.middleware.FormBodyTooLargeMiddleware",
    # An API method the endpoint does not serve (TRACE): 405 before authentication.
    "config.middleware.ApiMethodNotAllowedMiddleware",
    "config.middleware.RejectEmptyApiQueryValuesMiddleware",
    "django.middleware.common.CommonMiddleware",
    # 304 Not Modified for a GET whose ETag the browser already holds (API lists, card images,
    # stored pages: common/page_cache.py).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "config.context_processors.language_switch",
                "config.context_processors.csrf_placeholder",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # The tags every app's pages use, with no {% load %}: the page's language and a
            # percent (common), the game's words through their one door (cards.game_words).
            "builtins": ["common.templatetags.site", "cards.templatetags.game_words"],
        },
    },
]

# Forms render through TEMPLATES, so ``{{ field.as_field_group }}`` uses the project's
# templates/forms/field.html: one field group for every page's form.
FORM_RENDERER = "common.form_renderer.FormRenderer"

# --- Database -------------------------------------------------------------------------------

DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, whose per-request health check asks the server only when its socket
    # has something to say (config/postgresql/base.py): one round trip less on every page.
    DATABASES["default"]["ENGINE"] = "config.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the Celery workers write to one file: WAL lets readers run beside a
    # writer, IMMEDIATE takes the write lock up front (no deadlock on upgrade), and the timeout
    # makes a busy writer wait instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ------------------------------------------------------------------------------------
# Throttle counters and the reaper's "soon" flag must be shared by every server and worker
# process: Redis when one is configured (CACHE_URL, else a redis:// broker URL), otherwise a
# table in the database, which `manage.py migrate` creates (config/migrations). Both backends
# (config/cache.py) keep a counter's expiry when it is incremented, so a throttle's window ends
# when its Retry-After says.

CACHE_URL = os.environ.get("CACHE_URL") or (
    os.environ.get("CELERY_BROKER_URL", "") if os.environ.get("CELERY_BROKER_URL", "")
    .startswith(("redis://", "rediss://")) else "")
if CACHE_URL:
    CACHES: dict[str, dict[str, object]] = {"default": {
        "BACKEND": "config.cache.SharedRedisCache", "LOCATION": CACHE_URL,
        # Processes that share one Redis but not one site (parallel test processes) each
        # keep their keys apart by prefix; clear() empties only its own prefix.
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "cardlab-cache")}}
else:
    # Past MAX_ENTRIES rows the table drops a third of its keys, live throttle counters
    # included; Django's 300 would let a burst of distinct names and addresses wipe them.
    CACHES = {"default": {"BACKEND": "config.cache.SharedDatabaseCache",
                          "LOCATION": "cardlab_cache", "OPTIONS": {"MAX_ENTRIES": 100_000}}}
# Rendered pages kept in each web process (common/page_cache.py): the busiest pages are served
# from memory until what they show changes (their stamp moves) or they age out.
PAGE_CACHE_SECONDS = int(os.environ.get("CARDLAB_PAGE_CACHE_SECONDS", "600"))
# Multiplies every throttle's count (common/throttles.py); only the API contract test raises it.
THROTTLE_SCALE = 1
# A throttle's rate by its scope, replacing the default in common/ or accounts/throttles.py: e.g.
# {"login-pair": "5/10min", "reset-recipient": "3/hour"}. Simulation submissions have their own
# setting (SIMULATIONS_SUBMIT_RATE).
THROTTLE_RATES: dict[str, str] = {}

# --- Passwords, language, time ----------------------------------------------------------------

# Every log-in (page, API basic auth, admin) is decided here, which counts failures
# (accounts/auth.py).
AUTHENTICATION_BACKENDS = ["accounts.auth.ThrottledModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    # Django's rule, its message translated by the site (accounts/password_validation.py).
    {"NAME": "accounts.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The site speaks English and Simplified Chinese (the game's rule book is Chinese). Translations
# live in locale/<language>/LC_MESSAGES/django.po; the compiled .mo files are committed beside
# them, so no gettext tools are needed to run the site.
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365   # the switcher's choice is remembered for a year
# A development pseudo-locale, en-xa: every translated text visibly rewritten, so a page in it
# shows what bypasses translation (docs/languages.md, config/pseudo_locale.py). Its catalogues
# are generated into var/ (python -m config.translations pseudo); config.apps installs the rest.
PSEUDO_LOCALE = env_bool("CARDLAB_PSEUDO_LOCALE", default=False)
if PSEUDO_LOCALE:
    if PRODUCTION:
        raise ImproperlyConfigured(PSEUDO_LOCALE_NOT_IN_PRODUCTION)
    from config.pseudo_locale import PSEUDO_LANGUAGE_ENTRY, pseudo_catalogue_folder

    LANGUAGES.append(PSEUDO_LANGUAGE_ENTRY)
    LOCALE_PATHS.append(pseudo_catalogue_folder(VAR_DIR))
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # collectstatic fills it; WhiteNoise warns if
# it is missing. With DEBUG off and nothing collected, the check cardlab.W001 says so.
# With DEBUG off (production, ./run.sh) the site serves hashed, compressed files collected by
# `collectstatic` (./run.sh runs it); with DEBUG on (./run.sh --dev, tests) WhiteNoise serves the
# apps' and static/ folders directly, so no build step is needed.
COLLECTED_STATIC = PRODUCTION or not DEBUG
WHITENOISE_USE_FINDERS = not COLLECTED_STATIC
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if COLLECTED_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}

# Request bodies above this are refused (deck lists and card edits are small).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024  # 1 MiB
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# --- Security (production) ------------------------------------------------------------------

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

if PRODUCTION:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients).
    if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- Logging --------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"django": {"level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")}},
}

# --- Django REST framework and the OpenAPI schema -------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "config.schema.SiteAutoSchema",  # documents every error response
    # Basic auth first: DRF answers a failed authentication with the first class's challenge
    # (401 and WWW-Authenticate), which session auth does not have (it would be a bare 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.auth.ThrottledBasicAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # The API reads JSON bodies only (anything else is a 415), refusing NUL and lone surrogates
    # anywhere in them with a 400 (common/parsers.py). Form encodings are left out on purpose:
    # DRF reads an empty form value as "not sent", so a blank field that JSON refuses would be
    # quietly replaced by its default.
    "DEFAULT_PARSER_CLASSES": ["common.parsers.JSONParser"],
    # OPTIONS describes the endpoint, not its fields (the schema does that): config/metadata.py.
    "DEFAULT_METADATA_CLASS": "config.metadata.EndpointMetadata",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Cardlab API",
    "DESCRIPTION": "The card catalogue, decks and simulated matches of Cardlab.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc are served from drf-spectacular-sidecar: nothing loads from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies get components of their own, so fields that refuse "" say minLength 1.
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        # Two fields named "kind" (a card's, a simulation's): name both enums explicitly.
        "CardKindEnum": "cards.models.Kind",
        "SimulationKindEnum": "simulations.models.RunKind",
        "SimulationAgentEnum": "rules.ai.agents.AGENT_NAMES",
        # Two fields named "method": how a rate's interval was computed, how runs compare.
        "RateMethodEnum": "rules.lab.intervals.RATE_METHODS",
        "ComparisonMethodEnum": "simulations.comparison.METHODS",
        # A balance search's objective: asked for (input) and kept (the job).
        "BalanceObjectiveEnum": "balance.models.Objective",
    },
    # The live streams of a game (a seat's, a spectator's), plain async views, written into
    # the schema (play/streams/schema.py, play/spectators/schema.py).
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "play.streams.schema.stream_path",
                             "play.spectators.schema.spectator_stream_path"],
    # Numbers in addresses (common/converters.py): larger ones name nothing and are a 404.
    "PATH_CONVERTER_OVERRIDES": {"dbint": {"type": "integer", "minimum": 0,
                                           "maximum": 2**31 - 1}},
}

# --- Celery ---------------------------------------------------------------------------------
# Read by config/celery.py (namespace "CELERY"). Task results are stored in the project's own
# models, so Celery keeps none.

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    # A broker that needs no server: messages are files in var/celery/queue. The web process
    # and the worker processes on this machine share the folder. kombu's own filesystem
    # transport lets a worker read a message still being written and die of it (kombu #1551);
    # config.broker writes whole files and claims them by renaming (same folders and options).
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    # Exchange bindings go to var/celery/control (kombu's default is ./control, in the cwd).
    _celery_dir = VAR_DIR / "celery"
    for _sub in ("queue", "processed", "control"):
        (_celery_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_dir / "queue"),
        "data_folder_out": str(_celery_dir / "queue"),
        "processed_folder": str(_celery_dir / "processed"),
        "control_folder": str(_celery_dir / "control"),
        "store_processed": False,  # True keeps every message ever sent: useful only to debug
        # An idle worker looks for new files this often (kombu's default is 1 s, which a
        # simulation of many short chunks would feel as a pause between chunks).
        "polling_interval": 0.1,
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = False  # never: tests and development use real workers
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Workers consume this queue (`celery -A config worker` listens to it by default). Tests and the
# benchmark give each run of theirs a queue of its own so nobody else's worker takes their tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CARDLAB_CELERY_QUEUE", "celery")

# --- E-mail (password resets) -------------------------------------------------------------
# With EMAIL_HOST set, mail goes out by SMTP; otherwise each message is written to a file in
# var/mail/ (development: open the newest file to follow a password-reset link).
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
    EMAIL_TIMEOUT = 20
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = VAR_DIR / "mail"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Cardlab <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24   # a reset link works for a day

# --- Simulations ----------------------------------------------------------------------------
# Limits and timings of the simulation service (simulations/) and of the work protocol every
# kind of work follows (work/: leases, the reaper, the broker's depth, the CPU cap). Every value
# can be set from the environment (CARDLAB_SIMULATIONS_<NAME>); simulations/conf.py and
# work/conf.py document each one.


def _env_number(name: str, default: float) -> float:
    raw = os.environ.get(f"CARDLAB_SIMULATIONS_{name}")
    return type(default)(raw) if raw not in (None, "") else default


SIMULATIONS_MAX_GAMES = _env_number("MAX_GAMES", 100_000)          # games in one run, all pairings
SIMULATIONS_MAX_ACTIVE_PER_USER = _env_number("MAX_ACTIVE_PER_USER", 3)  # queued or running
SIMULATIONS_MAX_CPU_HOURS = _env_number("MAX_CPU_HOURS", 12.0)  # a user's work in flight, CPU h
SIMULATIONS_SUBMIT_RATE = os.environ.get("CARDLAB_SIMULATIONS_SUBMIT_RATE", "30/hour")
SIMULATIONS_LEASE_SECONDS = _env_number("LEASE_SECONDS", 60.0)      # a silent chunk is lost after
SIMULATIONS_HEARTBEAT_SECONDS = _env_number("HEARTBEAT_SECONDS", 5.0)
SIMULATIONS_STALL_SECONDS = _env_number("STALL_SECONDS", 120.0)     # no work anywhere for this long
SIMULATIONS_QUEUE_LEASE_SECONDS = _env_number("QUEUE_LEASE_SECONDS", 3600.0)
SIMULATIONS_REAP_SECONDS = _env_number("REAP_SECONDS", 15.0)        # reaper period in each worker
SIMULATIONS_MAX_ATTEMPTS = _env_number("MAX_ATTEMPTS", 3)
SIMULATIONS_CHUNK_PAUSE = _env_number("CHUNK_PAUSE", 0.0)           # fault tests only
SIMULATIONS_WORKERS = _env_number("WORKERS", 2)     # worker processes the time estimates assume
SIMULATIONS_QUEUE_DEPTH = _env_number("QUEUE_DEPTH", 0)  # broker messages (0: one per worker)
SIMULATIONS_CHUNK_SECONDS = _env_number("CHUNK_SECONDS", 1.0)  # a chunk: this long on a worker
