"""The slash commands' names and descriptions in every language, for Discord.

The words themselves live in the ``words`` package's catalogues (``words.i18n``); this
is the Discord face's side of them: names marked as ``locale_str`` where the commands
are declared (``pybabel extract`` reads them in ``cogs``, docs/LANGUAGES.md says how), and the
translator discord.py asks when it syncs the commands.
"""

from __future__ import annotations

import discord
from discord import app_commands

from words.i18n import ENGLISH, find


def slash(context: str, text: str) -> app_commands.locale_str:
    """A command's or an option's name (``context`` ``command`` or ``option``), so that
    the command ``end`` and the option ``end`` can translate apart. Descriptions and
    choices are plain ``locale_str``."""
    return app_commands.locale_str(text, context=context)


class CommandTranslator(app_commands.Translator):
    """discord.py's hook for the names and descriptions Discord shows: each ``locale_str``
    looked up in the catalogue of the Discord locale asked for (``es-419`` reads the
    Spanish one); None, Discord's own default, where a language has no words of its own."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translated(string, locale.value)


def translated(string: app_commands.locale_str, locale: str) -> str | None:
    """``string`` in ``locale``'s language, or None when English (or unknown) says it."""
    language = find(locale)
    if language is None or language is ENGLISH:
        return None
    context = string.extras.get("context")
    text = (
        language.translations.pgettext(context, string.message)
        if context
        else language.translations.gettext(string.message)
    )
    return text if text != string.message else None
