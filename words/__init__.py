"""Every word the bot says, in every language, with no front end's markup: the faces
(the Discord cogs, and any other) turn these sentences and :class:`~words.cards.Card`
values into their own messages, marking names, mentions and times as they show them
(``words.marks``)."""
