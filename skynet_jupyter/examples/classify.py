"""A tiny keyword classifier: the program whose outputs the example metric scores.

``run(artifact, input)`` is what Skynet calls for each case; here the artifact
is a prompt whose lines map a label to its keywords (``billing: charge, invoice``).
"""


def run(artifact, input):
    text = input["text"].lower()
    for line in str(artifact).splitlines():
        label, _, words = line.partition(":")
        if any(word.strip() and word.strip() in text for word in words.split(",")):
            return label.strip()
    return "other"
