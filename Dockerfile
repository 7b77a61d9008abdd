# The bot in a container: a slim Python, the locked dependencies in a layer of their own,
# the source run from where it is copied (as from a checkout), a user of its own (never
# root), and var/ (the SQLite database, the health note) as a volume. With PostgreSQL
# (compose.yaml), set DATABASE_URL instead. See docs/HOSTING.md, "Docker".
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 domino
# FriBiDi lets Pillow lay out right-to-left names (Arabic letters joined) through libraqm.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# The lock alone first: this layer is rebuilt only when the lock changes, not with every
# change to the source. Its hashes put pip in hash-checking mode.
COPY requirements/bot.txt requirements/bot.txt
RUN pip install --require-hashes -r requirements/bot.txt

COPY bot bot
COPY cogs cogs
COPY discord_face discord_face
COPY words words
COPY rendering rendering
COPY data data
COPY web web

# The default database, sqlite:///var/domino.db, is relative to this folder; the source
# stays root's, only var/ is the bot's to write.
RUN mkdir var && chown domino:domino var
VOLUME ["/app/var"]
USER domino

# `docker stop` sends SIGTERM, which the bot answers by finishing what is in flight and
# closing its store; exec form, so Python is process 1 and gets the signal itself.
STOPSIGNAL SIGTERM
# Healthy while the bot is connected to Discord: it renews a note in var/ that this reads.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["python", "-m", "bot"]
