"""Extensions, created unbound; `create_app` binds them."""

from flask_babel import Babel
from flask_compress import Compress
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel()
compress = Compress()
# Writes are limited per client address (see WRITE_RATE_LIMIT); nothing is limited by default.
limiter = Limiter(key_func=get_remote_address, default_limits=[])


def write_limit() -> str:
    """The configured limit on writes (matches, hands) per client address."""
    from flask import current_app
    return str(current_app.config["WRITE_RATE_LIMIT"])


limit_writes = limiter.limit(write_limit, methods=["POST"])


def creation_limit() -> str:
    """New tables, matches and imports per client address: each costs rows that stay."""
    from flask import current_app
    return str(current_app.config["CREATE_RATE_LIMIT"])


def join_limit() -> str:
    """Join attempts per client address: codes cannot be guessed by trying them all."""
    from flask import current_app
    return str(current_app.config["JOIN_RATE_LIMIT"])


# one budget shared by every route that creates (a table, a match, an import, a rematch)
limit_creation = limiter.shared_limit(creation_limit, scope="create", methods=["POST"])


def referee_limit() -> str:
    """Referee questions per client address (REFEREE_RATE_LIMIT): each one costs CPU."""
    from flask import current_app
    return str(current_app.config["REFEREE_RATE_LIMIT"])


# one budget shared by every route that judges a question: the API, the page, its verdicts
limit_referee = limiter.shared_limit(referee_limit, scope="referee")
