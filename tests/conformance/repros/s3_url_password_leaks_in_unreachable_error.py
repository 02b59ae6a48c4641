"""Claim 6 (#46 run log) + no secret in any output: sj.history(log="s3://...")
unreachable is one sentence naming the URL; "a password written in the URL is never
shown".

Path: sj.history(log="s3://user:PASSWORD@bucket/runs") (s3fs installed, the [remote]
extra), AWS_ENDPOINT_URL pointing at a closed port.

Expected: RunLogUnreachable whose message shows the URL as
s3://user:[redacted]@bucket/runs and nowhere the password.
Observed: the URL in the sentence is redacted, but the quoted cause (botocore's
ParamValidationError 'Invalid bucket name "user:PASSWORD@bucket"') carries the
password in clear. The same leak is in the recording warning of sj.evaluate with
sj.configure(run_log="s3://alice:PASSWORD@bucket/runs") ("This run was not recorded in the
run log s3://alice:[redacted]@... (ParamValidationError: ... Invalid bucket name "alice:PASSWORD@bucket"").
Exits 1 while the bug is present.
"""

import os
import sys

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["AWS_ENDPOINT_URL"] = "http://127.0.0.1:9"
os.environ.setdefault("AWS_ACCESS_KEY_ID", "AKIAEXAMPLEEXAMPLE")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "example-secret-example-secret")
import skynet_jupyter as sj

if __name__ == "__main__":
    secret = "Hunter2Passw0rdXYZ"
    try:
        sj.history(log=f"s3://alice:{secret}@bucket/runs")
        print("no error raised")
        sys.exit(0)
    except Exception as e:
        text = f"{type(e).__name__}: {e}"
        print(text.replace(secret, "<<PASSWORD>>")[:400])
        sys.exit(1 if secret in text or secret in repr(e) else 0)
