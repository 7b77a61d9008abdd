# The bot in a container: a slim Python, a user of its own (never root), and the folder
# the SQLite database lives in as a volume. Provided as is: see "Running in a container"
# in the README. With PostgreSQL (compose.yaml), set DATABASE_URL instead.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 domino

WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rendering ./rendering
COPY data ./data
RUN pip install . && rm -rf /src

USER domino
WORKDIR /home/domino
# The default database, sqlite:///var/domino.db, is relative to this folder.
RUN mkdir var
VOLUME ["/home/domino/var"]

CMD ["python", "-m", "bot"]
