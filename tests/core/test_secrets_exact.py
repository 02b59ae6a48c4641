"""Redaction, exactly: each shape of secret, where it stops, and what stays readable.

test_secrets.py follows secrets through real paths (a shell, a report, the CLI);
here each function's result is pinned whole, on short texts (one pattern scan)
and long ones (the substring look), with no secret left in the environment or
remembered from another test.
"""

from __future__ import annotations

import os
import pickle

import pytest

from skynet_jupyter.core import secrets as _secrets
from skynet_jupyter.core.secrets import (
    REDACTED,
    ModelArguments,
    Redactor,
    known_secrets,
    masked,
    protect_model,
    redact,
    remember_secrets,
    safe_repr,
    secret_name,
    secrets_in,
)

PAD = "." * 300  # past the short-text length: the long texts' look


@pytest.fixture(autouse=True)
def nothing_known(monkeypatch):
    """No secret-looking environment variable, no model's secret remembered."""
    for name, value in os.environ.items():
        if _secrets._SECRET_NAME.search(name) or ("://" in value and "@" in value):
            monkeypatch.delenv(name)
    monkeypatch.setattr(_secrets, "_known_secrets", set())


SHAPES = [
    ("Authorization: Bearer abcdef123", "Authorization: Bearer [redacted]"),
    ("bearer abcdef", "bearer [redacted]"),
    ("Bearer abcde", "Bearer abcde"),  # too short to be a token
    ("Basic dXNlcjpwYXNz", "Basic [redacted]"),
    ("Basic short12", "Basic short12"),
    ("api_key=abcd", "api_key=[redacted]"),
    ("api_key=abc", "api_key=abc"),
    ('"x-api-key": "zzzz9999"', '"x-api-key": "[redacted]"'),
    ("Token: ABCDEFG", "Token: [redacted]"),
    ("password: [redacted]", "password: [redacted]"),
    ("secret=Bearer xyz", "secret=Bearer xyz"),
    ("https://x.com/a?key=AAAA&sig=BBB", "https://x.com/a?key=[redacted]&sig=[redacted]"),
    ("see sk-abcdefgh now", "see sk-[redacted] now"),
    ("sk-abcdefg", "sk-abcdefg"),
    ("pk-ant-12345678", "pk-[redacted]"),
    ("rk-12345678", "rk-[redacted]"),
    ("AIza" + "A" * 20, REDACTED),
    ("AIza" + "A" * 19, "AIza" + "A" * 19),
    ("ghp_" + "a" * 20, REDACTED),
    ("gho_" + "a" * 19, "gho_" + "a" * 19),
    ("xoxb-1234567890", REDACTED),
    ("xoxb-123456789", "xoxb-123456789"),
    ("hf_" + "b" * 20, REDACTED),
    ("AKIA" + "B" * 16, REDACTED),
    ("ASIA" + "C" * 16, REDACTED),
    ("AKIA" + "B" * 15, "AKIA" + "B" * 15),
    ("redis://:s3cretpw@host", "redis://:[redacted]@host"),
    ("http://user:pw@host/x", "http://user:[redacted]@host/x"),
    ("a plain sentence", "a plain sentence"),
]


@pytest.mark.parametrize(("text", "shown"), SHAPES, ids=[text for text, _ in SHAPES])
def test_each_shape_of_secret_is_redacted_in_short_and_long_texts(text, shown):
    assert redact(text) == shown
    assert redact(PAD + text) == PAD + shown
    assert redact(text + " " + PAD) == shown + " " + PAD


def test_a_long_text_with_every_hint_word_is_still_looked_at():
    words = " ".join(_secrets._MAYBE_SECRET)
    assert redact(f"{PAD}{words} sk-abcdefgh12") == f"{PAD}{words} sk-[redacted]"


def test_given_and_remembered_secrets_go_in_any_text():
    given = "opaque-value-1"
    assert redact(f"x {given} y {given}", [given]) == "x [redacted] y [redacted]"
    assert redact(f"{PAD}{given}", [given]) == PAD + REDACTED
    assert redact("abc12 here", ["abc12"]) == "abc12 here"  # too short to hide: a word
    remember_secrets({"api_key": "remembered-1"})
    assert redact("got remembered-1") == "got [redacted]"


def test_the_environment_secrets_are_named_or_in_urls(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok123456")
    monkeypatch.setenv("SHORT_SECRET", "six666")  # just long enough
    monkeypatch.setenv("OTHER_API_KEY", "abcde")  # too short
    monkeypatch.setenv("DB_URL", "postgres://u:longpass@h/x")
    monkeypatch.setenv("DB3_URL", "postgres://u:pass12@h/x")  # just long enough
    monkeypatch.setenv("DB2_URL", "postgres://u:short@h/x")  # too short
    monkeypatch.setenv("PLAIN_SETTING", "value123456")
    monkeypatch.setenv("MAIL_SERVER", "user@example.org")  # an @ but no URL
    remember_secrets({"api_key": "from-a-model-12"})
    known = known_secrets(["", "abc", "given-one-xyz1234", "given7!", "given6"])
    assert known[:5] == ["given-one-xyz1234", "from-a-model-12", "tok123456", "longpass", "given7!"]
    assert sorted(known[5:]) == ["given6", "pass12", "six666"]  # as long: in any order
    assert redact("tok123456 longpass value123456 abcde") == (
        "[redacted] [redacted] value123456 abcde"
    )


MODEL = {
    "model": "openai/x",
    "api_key": "key-12345678",
    "api_key_unset": "",
    "api_base": "http://u:pw123456@h/v1",
    "extra_headers": {
        "Authorization": "Bearer tok12345",
        "Accept": "application/json",
        "X-Thing": "abcdefg",
        "X-Short": "abc",
        "X-Count": 5,
    },
    "fallbacks": [{"token": "ttt111"}, ("http://a:b1b2b3b4@h",)],
    "headers": [{"X-Org": "org-secret-1"}],
    "proxy_headers": ({"X-Proxy": "proxy-secret-1"},),
    "auth": "[redacted]",
    "timeout": 3,
}


def test_a_models_secrets_are_found_under_keys_headers_and_urls():
    assert list(secrets_in(MODEL)) == [
        "key-12345678",
        "",
        "pw123456",
        "Bearer tok12345",
        "tok12345",
        "abcdefg",
        "abc",
        "ttt111",
        "b1b2b3b4",
        "org-secret-1",
        "proxy-secret-1",
    ]
    assert list(secrets_in(" Bearer  tok ", headers=False)) == []
    assert list(secrets_in({"h": {"x": " Bearer  tok99 "}}, headers=True)) == [
        " Bearer  tok99 ",
        "tok99",
    ]
    assert list(secrets_in({"api_key": "Token two words"})) == ["Token two words", "two words"]
    remember_secrets(MODEL)
    assert _secrets._known_secrets == {
        "key-12345678",
        "pw123456",
        "Bearer tok12345",
        "tok12345",
        "abcdefg",
        "ttt111",
        "b1b2b3b4",
        "org-secret-1",
        "proxy-secret-1",
    }
    remember_secrets({"model": "m"})  # nothing to remember: nothing changes
    assert len(_secrets._known_secrets) == 9


def test_a_masked_model_keeps_everything_but_its_secrets():
    assert masked(MODEL) == {
        "model": "openai/x",
        "api_key": REDACTED,
        "api_key_unset": "",
        "api_base": "http://u:[redacted]@h/v1",
        "extra_headers": {
            "Authorization": REDACTED,
            "Accept": "application/json",
            "X-Thing": REDACTED,
            "X-Short": REDACTED,
            "X-Count": 5,
        },
        "fallbacks": [{"token": REDACTED}, ("http://a:[redacted]@h",)],
        "headers": [{"X-Org": REDACTED}],
        "proxy_headers": ({"X-Proxy": REDACTED},),
        "auth": REDACTED,
        "timeout": 3,
    }
    assert type(masked(MODEL)["fallbacks"][1]) is tuple
    assert masked(None) is None and masked(2.5) == 2.5


def test_a_safe_repr_shows_the_masked_model():
    shown = safe_repr(MODEL)
    assert shown == repr(masked(MODEL))
    # A header's token, quoted under a plain key: the model's own secrets go too.
    quoting = {"extra_headers": {"Authorization": "Bearer tok-quoted-1"}, "note": "tok-quoted-1"}
    assert safe_repr(quoting) == (
        "{'extra_headers': {'Authorization': '[redacted]'}, 'note': '[redacted]'}"
    )
    assert safe_repr("http://u:pw123456@h") == "'http://u:[redacted]@h'"
    assert safe_repr(["sk-abcdefgh12"]) == "['sk-[redacted]']"


def test_model_arguments_show_no_secret_and_bring_them_along_in_a_pickle():
    arguments = ModelArguments(model="m", api_key="pickled-key-1")
    assert repr(arguments) == str(arguments) == "{'model': 'm', 'api_key': '[redacted]'}"
    assert _secrets._known_secrets == {"pickled-key-1"}
    _secrets._known_secrets.clear()
    copy = pickle.loads(pickle.dumps(arguments))
    assert type(copy) is ModelArguments and copy == {"model": "m", "api_key": "pickled-key-1"}
    assert _secrets._known_secrets == {"pickled-key-1"}  # rebuilt through __init__


def test_protect_model_wraps_dicts_and_remembers_url_passwords():
    wrapped = protect_model({"api_key": "protected-1"})
    assert type(wrapped) is ModelArguments and wrapped == {"api_key": "protected-1"}
    assert protect_model(wrapped) is wrapped
    url = "http://u:url-pass-1@h"
    assert protect_model(url) is url
    assert _secrets._known_secrets == {"protected-1", "url-pass-1"}
    assert protect_model(7) == 7


def test_secret_names():
    assert [
        secret_name(n)
        for n in ("api_key", "API-KEY", "aws_secret_access_key", "model", "session_key", "pwd")
    ] == [True, True, True, False, True, False]


def test_a_redactor_remembers_short_texts_only():
    redactor = Redactor(["cached-secret"])
    assert redactor("a cached-secret") == "a [redacted]"
    assert redactor("a cached-secret") == "a [redacted]"
    long = PAD + "cached-secret"
    assert redactor(long) == PAD + REDACTED
    edge = "e" * (_secrets._SHORT_TEXT - 1) + "!"  # exactly the short length
    assert redactor(edge) == edge
    assert redactor._seen == {"a cached-secret": "a [redacted]", edge: edge}

    class Text(str):
        pass

    assert redactor(Text("b cached-secret")) == "b [redacted]"
    assert "b cached-secret" not in redactor._seen  # a subclass is never remembered
    redactor._seen["planted"] = "what it made"  # what is remembered is what it answers
    assert redactor("planted") == "what it made"


def test_a_full_redactor_stops_remembering():
    redactor = Redactor()
    redactor._seen = {str(n): str(n) for n in range(_secrets._REMEMBERED - 1)}
    assert redactor("one more") == "one more"
    assert "one more" in redactor._seen
    assert redactor("and another") == "and another"
    assert "and another" not in redactor._seen
    assert len(redactor._seen) == _secrets._REMEMBERED


def test_a_redactor_tells_which_texts_it_leaves_alone():
    redactor = Redactor(["left-secret"])
    assert redactor.leaves_alone(["a", "b", "a plain sentence"])
    assert redactor.leaves_alone(["ke", "y"])  # joined apart: no word across texts
    assert redactor.leaves_alone(["a", "o", "b"])  # nor with what joins them ("xox")
    assert redactor.leaves_alone(["same"] * 10)
    assert not redactor.leaves_alone(["same"] * 10 + ["the TOKEN"])
    assert not redactor.leaves_alone(["x", "the left-secret here"])
    assert not redactor.leaves_alone(["x", "http://h"])
    assert not redactor.leaves_alone(["fine"] * 300 + ["Bearer"])  # past the sample
    assert redactor.leaves_alone([])
