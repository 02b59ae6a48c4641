"""``ModelCallError``: a model call failed at the provider (said with secrets redacted).

Below ``llm`` (which raises it) and ``credentials`` (whose key problems are one too),
so that neither imports the other.  Its public home is ``models.llm``.
"""

from __future__ import annotations

__all__ = ["ModelCallError"]


class ModelCallError(RuntimeError):
    """A model call failed at the provider (after the retries that apply).

    ``status_code`` is the HTTP status when there was one, ``kind`` litellm's
    name for the error (``RateLimitError``, ``AuthenticationError``, ...),
    ``provider_message`` what the provider said, with secrets redacted.
    """

    def __init__(
        self,
        model: str,
        kind: str,
        provider_message: str,
        status_code: int | None = None,
        retries: int = 0,
    ) -> None:
        self.model = model
        self.kind = kind
        self.provider_message = provider_message
        self.status_code = status_code
        self.retries = retries
        status = f"HTTP {status_code} " if status_code else ""
        after = f" after {retries} {'retry' if retries == 1 else 'retries'}" if retries else ""
        super().__init__(
            f"The model {model} failed{after} ({status}{kind}): {provider_message}".rstrip()
        )
