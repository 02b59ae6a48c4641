"""Calling a model: a litellm model string or dict, or a plain callable.

``complete(model, instructions, input, **options) -> ModelReply`` is what
``skynet.llm()`` calls once it knows which model answers (task or judge).

A model is one of:

- a litellm model string, ``"openai/gpt-4o-mini"``;
- a dict of litellm completion arguments, ``{"model": ..., "api_base": ...,
  "temperature": 0}`` (``input_cost_per_token`` / ``output_cost_per_token`` set
  a price litellm's map does not know);
- a callable ``(instructions, input)`` returning the reply as ``str``, or, to
  report usage or a price, a :class:`ModelReply` or a dict::

      {"text": "PASS", "input_tokens": 120, "output_tokens": 3, "cost_usd": 0.00002}

  ``"usage": {"prompt_tokens": ..., "completion_tokens": ...}`` may replace the
  two token counts, and ``"model": "gpt-4o-mini"`` (instead of ``cost_usd``)
  prices the tokens from litellm's map.  A plain ``str`` costs 0; tokens with
  no price make the cost unknown (``cost_usd=None``).  A returned chat
  completion object (litellm's or the OpenAI SDK's) is read the same way.

A callable model is local and always called, except a model that names its
request (``request_model()``: a ``StandInModel(cacheable=True)``): its calls
are looked up in the run cache and kept there, keyed on that name, the messages
and the options, as a litellm call is.

litellm (the optional extra ``[llm]``) is imported when a check or a call first
needs it (never by ``import skynet_jupyter``; ``litellm_import``).  A
call is retried for server errors and lost connections, not for client errors
or timeouts (``num_retries``, default 2, exponential backoff).  Rate limits
(429) go through the endpoint's shared limiter (``rate_limit``): paced, the
provider's ``Retry-After`` honoured, retried up to 8 times.  A
provider error ends as :class:`ModelCallError`, whose message is the
provider's with secrets redacted (``_secrets.redact``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.secrets import redact, secrets_in
from .call_error import ModelCallError
from .case_context import current_case
from .credentials import ModelKeyProblem, key_problem, missing_key
from .litellm_import import imported_litellm as _litellm
from .litellm_import import is_ready, warm_up
from .model_names import check_model, describe_model

if TYPE_CHECKING:
    from .call_cache import CachedReply, CallCache

__all__ = [
    "DEFAULT_RETRIES",
    "ModelCallError",
    "ModelReply",
    "check_model",
    "complete",
    "describe_model",
    "litellm_arguments",
    "messages_for",
    "render_input",
    "reply_from",
    "retry_policy",
    "warm_up",
]

DEFAULT_RETRIES = 2


@dataclass(frozen=True, slots=True)
class ModelReply:
    """A model's answer and what it cost (``cost_usd=None``: price unknown).

    ``retries``: the rate-limit (429) answers retried to get it.  ``stand_in``:
    the answer came from an offline stand-in, not a real model (reports say so).
    ``cached``: it came from a :class:`~.call_cache.CallCache`, and ``latency_ms``
    (with the tokens and cost) is what the call that made it measured.  ``setup_ms``:
    the time this call spent importing litellm (the process's first litellm call), which
    is not the model's and is left out of the case's run time.
    """

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0
    retries: int = 0
    stand_in: bool = False
    cached: bool = False
    latency_ms: float | None = None
    setup_ms: float = 0.0


# --- calling ----------------------------------------------------------------------


def complete(
    model: Any,
    instructions: str,
    input: Any = None,
    *,
    call_cache: CallCache | None = None,
    reuse: bool = True,
    **options: Any,
) -> ModelReply:
    """Ask ``model`` and return its reply with usage and price.

    ``options`` go to litellm (``temperature=0``, ``max_tokens=...``,
    ``num_retries=...``) or to a callable model that accepts them.  A litellm
    call is looked up in ``call_cache`` first (unless ``reuse`` is False) and
    its reply kept there; a callable model is always called.
    """
    if isinstance(model, str | Mapping):
        return _complete_litellm(
            check_model(model), instructions, input, options, call_cache, reuse
        )
    if callable(model):
        if call_cache is not None:
            named = getattr(model, "request_model", None)
            request = named() if callable(named) else None
            if request is not None:
                call = {"model": request, **options, "messages": messages_for(instructions, input)}
                return _complete_kept(model, call, instructions, input, options, call_cache, reuse)
        return _complete_callable(model, instructions, input, options)
    check_model(model)
    raise AssertionError("unreachable")


def render_input(input: Any) -> str:
    """The user message for ``input``: text as is, data as JSON (sets in a stable order)."""
    if isinstance(input, str):
        return input
    if isinstance(input, bytes):
        return input.decode("utf-8", errors="replace")
    from .call_cache import stable_text  # sets in one order: the same request after a restart

    if isinstance(input, Mapping | list | tuple):
        return json.dumps(input, ensure_ascii=False, indent=2, default=stable_text)
    return stable_text(input)


def messages_for(instructions: str, input: Any) -> list[dict[str, str]]:
    """System: the instructions; user: the input (the instructions alone, without input)."""
    if input is None:
        return [{"role": "user", "content": str(instructions)}]
    messages = []
    if instructions:
        messages.append({"role": "system", "content": str(instructions)})
    messages.append({"role": "user", "content": render_input(input)})
    return messages


def _reply_from_kept(kept: CachedReply, *, stand_in: bool = False) -> ModelReply:
    """The reply the call cache kept: its text, token counts and cost as first paid, and
    the time it took then, marked cached."""
    return ModelReply(
        kept.text,
        kept.input_tokens,
        kept.output_tokens,
        kept.cost_usd,
        stand_in=stand_in,
        cached=True,
        latency_ms=kept.latency_ms,
    )


def _complete_callable(
    model: Callable[..., Any], instructions: str, input: Any, options: dict[str, Any]
) -> ModelReply:
    if options:
        _check_accepts(model, options)
        answer = model(instructions, input, **options)
    else:
        answer = model(instructions, input)
    return reply_from(answer, describe_model(model))


def _complete_kept(
    model: Callable[..., Any],
    call: dict[str, Any],
    instructions: str,
    input: Any,
    options: dict[str, Any],
    call_cache: CallCache,
    reuse: bool,
) -> ModelReply:
    """A callable model that names its request: answered from ``call_cache`` when it holds
    the reply to ``call``, else asked, and its whole reply kept (as a litellm call's)."""
    from .call_cache import CachedReply, request_key

    if options:  # options it cannot take are refused as they are uncached: before a look-up
        _check_accepts(model, options)
    key = request_key(call)
    stand_in = bool(getattr(model, "stand_in", False))
    if reuse and key is not None:
        kept = call_cache.get(key)
        if kept is not None:
            return _reply_from_kept(kept, stand_in=stand_in)
    else:  # --fresh (or a request with no key): asked, and counted as asked
        call_cache.asked()
    started = time.perf_counter()
    reply = _complete_callable(model, instructions, input, options)
    latency_ms = (time.perf_counter() - started) * 1000.0
    if key is not None and reply.text.strip():
        found = CachedReply(
            reply.text, reply.input_tokens, reply.output_tokens, reply.cost_usd, latency_ms
        )
        call_cache.put(key, found)
    return dataclasses.replace(reply, latency_ms=latency_ms)


def _check_accepts(model: Callable[..., Any], options: dict[str, Any]) -> None:
    try:
        parameters = inspect.signature(model).parameters.values()
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return
    names = {p.name for p in parameters}
    unknown = sorted(set(options) - names)
    if unknown:
        raise TypeError(
            f"llm() got options {', '.join(unknown)}, but the model {describe_model(model)} "
            "does not accept them (give it **options, or call llm() without them)."
        )


def reply_from(answer: Any, source: str = "the model") -> ModelReply:
    """A :class:`ModelReply` from what a callable model returned."""
    if isinstance(answer, ModelReply):
        return answer
    if isinstance(answer, str):
        return ModelReply(text=answer)
    if isinstance(answer, Mapping):
        return _reply_from_mapping(answer, source)
    if hasattr(answer, "choices") and hasattr(answer, "usage"):
        return _reply_from_response(answer, getattr(answer, "model", None))
    if answer is None:
        raise TypeError(f"{source} returned None; a model returns the reply text (a str).")
    return ModelReply(text=str(answer))


def _reply_from_mapping(answer: Mapping[str, Any], source: str) -> ModelReply:
    if not isinstance(answer.get("text"), str):
        raise TypeError(
            f"{source} returned a dict without a 'text' string; return the reply text, or "
            "{'text': ..., 'input_tokens': ..., 'output_tokens': ..., 'cost_usd': ...}."
        )
    usage = answer.get("usage") or {}
    input_tokens = int(answer.get("input_tokens", usage.get("prompt_tokens", 0)) or 0)
    output_tokens = int(answer.get("output_tokens", usage.get("completion_tokens", 0)) or 0)
    if "cost_usd" in answer:
        cost = answer["cost_usd"]
        cost = None if cost is None else float(cost)
    elif input_tokens or output_tokens:
        name = answer.get("model")
        cost = _map_price(str(name), input_tokens, output_tokens) if name else None
    else:
        cost = 0.0
    return ModelReply(answer["text"], input_tokens, output_tokens, cost)


def _map_price(model: str, input_tokens: int, output_tokens: int) -> float | None:
    """The price of these tokens in litellm's map, or None when the model is not in it."""
    litellm = _litellm()
    try:
        prompt, completion = litellm.cost_per_token(
            model=model, prompt_tokens=input_tokens, completion_tokens=output_tokens
        )
    except Exception:  # litellm raises when the model is not in its map
        return None
    return float(prompt) + float(completion)


def _reply_from_response(response: Any, model: str | None) -> ModelReply:
    """Text, usage and price of a chat completion (litellm's or the OpenAI SDK's)."""
    choices = getattr(response, "choices", None) or []
    message = getattr(choices[0], "message", None) if choices else None
    text = getattr(message, "content", None) or ""
    usage = getattr(response, "usage", None)
    input_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
    output_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    hidden = getattr(response, "_hidden_params", None) or {}
    cost = hidden.get("response_cost") if isinstance(hidden, Mapping) else None
    if cost is None and (input_tokens or output_tokens):
        cost = _map_price(
            str(getattr(response, "model", None) or model), input_tokens, output_tokens
        )
    if not (input_tokens or output_tokens) and not cost:
        cost = None  # no usage reported: the call cost something we cannot know
    return ModelReply(text, input_tokens, output_tokens, None if cost is None else float(cost))


# --- litellm ----------------------------------------------------------------------

# Errors that retrying cannot fix, or that may already have been billed (timeouts).
_NOT_RETRIED = (
    "AuthenticationError",
    "BadRequestError",
    "NotFoundError",
    "ContentPolicyViolationError",
    "Timeout",
)
_LITELLM_PREFIX = re.compile(r"^\s*litellm\.\w+:\s*(?:\w+Error:\s*)?(?:\w+Exception\s*-\s*)?")


def retry_policy(retries: int) -> dict[str, int]:
    """litellm retry counts: ``retries`` for server errors and lost connections.

    Client errors (400, 401, 404) are not retried, nor are timeouts: the provider
    may have done, and billed, the work.  Nor are rate limits (429) by litellm:
    the endpoint's shared limiter retries them (``_rate_limit.send``), paced.
    """
    return {
        "RateLimitErrorRetries": 0,
        "InternalServerErrorRetries": retries,
        "ServiceUnavailableErrorRetries": retries,
        "TimeoutErrorRetries": 0,
        "AuthenticationErrorRetries": 0,
        "BadRequestErrorRetries": 0,
        "NotFoundErrorRetries": 0,
        "ContentPolicyViolationErrorRetries": 0,
        "DefaultRetries": retries,  # 502, lost connections, other provider failures
    }


def litellm_arguments(
    model: str | Mapping[str, Any], instructions: str, input: Any, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The keyword arguments of ``litellm.completion`` for one ``llm()`` call."""
    call: dict[str, Any] = {"retry_strategy": "exponential_backoff_retry"}
    call.update({"model": model} if isinstance(model, str) else model)
    call.update(options)
    if "messages" in call:
        raise TypeError("llm() builds the messages from instructions and input; drop 'messages'.")
    if call.get("stream"):
        raise TypeError("llm() returns the whole reply; streaming (stream=True) is not supported.")
    retries = call.pop("num_retries", DEFAULT_RETRIES)
    if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
        raise TypeError(f"num_retries must be a whole number of 0 or more, got {retries!r}.")
    # One retry layer per error, litellm's with this policy (429s: the endpoint's limiter,
    # which gets them with RateLimitErrorRetries 0): num_retries would also turn on the
    # HTTP client's own retries (doubling the attempts, and retrying timeouts).
    call.setdefault("retry_policy", retry_policy(retries))
    call.setdefault("max_retries", 0)
    call["messages"] = messages_for(instructions, input)
    return call


def _complete_litellm(
    model: str | Mapping[str, Any],
    instructions: str,
    input: Any,
    options: dict[str, Any],
    call_cache: CallCache | None = None,
    reuse: bool = True,
) -> ModelReply:
    call = litellm_arguments(model, instructions, input, options)
    key = None
    if call_cache is not None:
        from .call_cache import request_key

        key = request_key(call)
        kept = None
        if reuse and key is not None:
            kept = call_cache.get(key)
        else:  # --fresh (or a request with no key): asked, and counted as asked
            call_cache.asked()
        if kept is not None:
            return _reply_from_kept(kept)
    missing = missing_key(call)  # at a miss: a reply from the cache needs no key
    if missing is not None:
        raise ModelKeyProblem(describe_model(model), missing[1])
    started = time.perf_counter()
    reply, whole = _ask_litellm(model, call)
    if call_cache is not None and key is not None and whole:
        from .call_cache import CachedReply

        latency_ms = (time.perf_counter() - started) * 1000.0 - reply.setup_ms
        kept = CachedReply(
            reply.text, reply.input_tokens, reply.output_tokens, reply.cost_usd, latency_ms
        )
        call_cache.put(key, kept)
        reply = dataclasses.replace(reply, latency_ms=latency_ms)
    return reply


def _ask_litellm(model: str | Mapping[str, Any], call: dict[str, Any]) -> tuple[ModelReply, bool]:
    """The reply, and whether it is a whole answer that may be kept (:func:`_whole`)."""
    setup_ms = 0.0
    if not is_ready():  # the first miss: litellm is imported now (or its import finished)
        ctx = current_case.get()
        hold = None if ctx is None else ctx.hold_clock
        started = time.perf_counter()
        # Neither run time nor time toward the phase's limit (hold_clock stops it).
        with contextlib.nullcontext() if hold is None else hold():
            warm_up(model)
        setup_ms = (time.perf_counter() - started) * 1000.0
    litellm = _litellm()
    from . import rate_limit as _rate_limit  # one limiter per endpoint, shared by every thread

    try:
        sent = _rate_limit.send(call, lambda given=call: litellm.completion(**given))
    except _rate_limit.CallFailed as failed:
        error = _call_error(failed.error, model, call, failed.retries, failed.note)
        # A key missing or refused is a configuration problem: said once, the run stopped.
        problem = key_problem(failed.error, error.model, call, error.provider_message)
        raise (error if problem is None else problem) from None
    reply = _reply_from_response(sent.response, call["model"])
    if sent.retries or setup_ms:
        reply = dataclasses.replace(reply, retries=sent.retries, setup_ms=setup_ms)
    return reply, _whole(sent.response)


# Replies cut short: by the provider's filter, or at max_tokens.  Replayed from the cache they
# would stand for the model's answer in every later run, so they are never kept.
_CUT_SHORT = frozenset({"content_filter", "length"})


def _whole(response: Any) -> bool:
    """Whether ``response`` holds a whole answer: some text, neither filtered nor truncated."""
    choices = getattr(response, "choices", None) or []
    if not choices:
        return False
    finish = getattr(choices[0], "finish_reason", None)
    content = getattr(getattr(choices[0], "message", None), "content", None)
    return isinstance(content, str) and bool(content.strip()) and finish not in _CUT_SHORT


def _call_error(
    exc: BaseException,
    model: Any,
    call: Mapping[str, Any],
    rate_limit_retries: int = 0,
    note: str = "",
) -> ModelCallError:
    secrets = list(secrets_in(call))
    kind = type(exc).__name__
    message = getattr(exc, "message", None) or str(exc) or kind
    message = _LITELLM_PREFIX.sub("", str(message)).strip()
    status = getattr(exc, "status_code", None)
    lineage = {cls.__name__ for cls in type(exc).__mro__}
    retried = not lineage.intersection(_NOT_RETRIED) and status != 404
    policy = call.get("retry_policy")
    retries = 0
    if retried and isinstance(policy, Mapping):
        retries = policy.get(f"{kind}Retries", policy.get("DefaultRetries")) or 0
    if note:
        message = f"{message} {note}"
    return ModelCallError(
        describe_model(model),
        kind,
        redact(message, secrets),
        status if isinstance(status, int) else None,
        retries + rate_limit_retries,
    )
