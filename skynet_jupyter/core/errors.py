"""``DataError``: the data cannot give cases (a sentence in the reader's language).

Its own module so that the option rules (:mod:`.options`) and the data reader
(:mod:`.dataset`) can both use it without importing each other.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..i18n import catalog, t

__all__ = ["DataError", "UnknownColumn"]


class DataError(ValueError):
    """The data cannot give cases: the message says what is wrong and how to fix it.

    Raised with a message id and its fields (``DataError("data.no_file",
    path=...)``), it shows in any language with :meth:`message`; ``str(error)``
    is the sentence in the language of the run that raised it (``i18n.language``;
    English outside a run), as for :class:`~skynet_jupyter.core.contract.ContractError`.
    Raised with a finished sentence, it is that sentence in every language.
    """

    def __init__(self, message_id: str, /, **fields: Any) -> None:
        # A finished sentence (no such id) is kept as it is.
        self.message_id = message_id if message_id in catalog("en") else None
        self.fields = fields
        super().__init__(self.message() if self.message_id else message_id)

    def message(self, lang: str | None = None) -> str:
        """The reason, in ``lang``."""
        if self.message_id is None:
            return str(self.args[0])
        return t(self.message_id, lang, **self.fields)

    def for_command(self, lang: str | None = None) -> str:
        """The reason as a magic or ``skynet-check`` says it (options as ``--outputs``)."""
        return self.message(lang)

    def __reduce__(self) -> tuple[Any, ...]:
        # It crosses process boundaries (worker processes, Dask) with its fields intact.
        return (_rebuild_data_error, (self.message_id or self.args[0], self.fields))


def _rebuild_data_error(message: str, fields: dict[str, Any]) -> DataError:
    return DataError(message, **fields)


class UnknownColumn(DataError):
    """An option names a column the data does not have: the option, the column, the
    nearest real one (a typo's likely fix) and every column there is.

    ``str()`` and :meth:`message` name the option as a keyword (``outputs``);
    :meth:`for_command` as a magic's or ``skynet-check``'s option (``--outputs``).
    """

    def __init__(self, option: str, name: str, columns: list[Any]) -> None:
        self.option, self.name, self.columns = option, name, [str(c) for c in columns]
        close = difflib.get_close_matches(str(name), self.columns, n=1, cutoff=0.6)
        self.close = close[0] if close else None
        super().__init__("data.unknown_column", name=name, columns=", ".join(self.columns))

    def message(self, lang: str | None = None) -> str:
        return self._said(self.option, lang)

    def for_command(self, lang: str | None = None) -> str:
        """The sentence with the option as a command line spells it: ``--output-column``."""
        return self._said("--" + self.option.replace("_", "-"), lang)

    def _said(self, option: str, lang: str | None) -> str:
        close = t("magic.did_you_mean", lang, name=self.close) if self.close else ""
        fields = {"option": option, "name": self.name, "columns": ", ".join(self.columns)}
        return t("data.unknown_column", lang, close=close, **fields)

    def __reduce__(self) -> tuple[Any, ...]:
        return (UnknownColumn, (self.option, self.name, self.columns))
