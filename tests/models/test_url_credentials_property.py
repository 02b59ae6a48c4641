"""No credential in an ``api_base`` reaches the run cache's key text (issue 35), over
generated URLs: user information, credential query parameters, any secret; and the same
URL with another secret is the same request."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from skynet_jupyter.models.call_cache import request_key, request_text

BASE = {"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}
secrets = st.text(string.ascii_letters + string.digits, min_size=12, max_size=30).map(
    lambda text: "S3CR" + text
)
names = st.sampled_from(["key", "api-key", "api_key", "access_token", "sig", "token", "code"])


@st.composite
def urls(draw, secret: str) -> str:
    form = draw(st.sampled_from(["query", "user", "password", "both"]))
    path = draw(st.sampled_from(["/v1", "/openai/deployments/x", ""]))
    if form == "query":
        name = draw(names)
        return f"https://host.example{path}?x=1&{name}={secret}"
    if form == "user":
        return f"https://{secret}@host.example:8443{path}"
    if form == "password":
        return f"https://user:{secret}@host.example{path}"
    return f"https://user:a@{secret}@host.example{path}?key={secret}"


@settings(max_examples=200, deadline=None)
@given(data=st.data(), secret=secrets, other=secrets)
def test_no_url_secret_reaches_the_key_text(data, secret, other):
    url = data.draw(urls(secret))
    text = request_text({**BASE, "api_base": url})
    assert text is not None and secret not in text
    assert request_key({**BASE, "api_base": url.replace(secret, other)}) == request_key(
        {**BASE, "api_base": url}
    )
