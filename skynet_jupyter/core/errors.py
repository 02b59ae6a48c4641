"""``DataError``: the data cannot give cases (a sentence in the reader's language).

Its own module so that the option rules (:mod:`.options`) and the data reader
(:mod:`.dataset`) can both use it without importing each other.
"""

from __future__ import annotations

from typing import Any

from ..i18n import catalog, t

__all__ = ["DataError"]


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

    def __reduce__(self) -> tuple[Any, ...]:
        # It crosses process boundaries (worker processes, Dask) with its fields intact.
        return (_rebuild_data_error, (self.message_id or self.args[0], self.fields))


def _rebuild_data_error(message: str, fields: dict[str, Any]) -> DataError:
    return DataError(message, **fields)
