"""docs/protocol.md's examples, replayed against a fresh daemon: the
documented replies must be exactly what perch answers."""

import json
import os

from harness import REPO, check, test


def documented_exchanges():
    """Each ```jsonl block of docs/protocol.md as a list of (request, reply)."""
    text = open(os.path.join(REPO, "docs", "protocol.md"), encoding="utf-8").read()
    blocks = []
    for chunk in text.split("```jsonl")[1:]:
        body = chunk.split("```", 1)[0]
        lines = [l for l in body.splitlines() if l.strip()]
        pairs = []
        for sent, answer in zip(lines[0::2], lines[1::2]):
            check(sent.startswith("> ") and answer.startswith("< "),
                  "docs/protocol.md: expected a '> ' line then a '< ' line, got %r / %r" % (sent, answer))
            pairs.append((sent[2:], answer[2:]))
        blocks.append(pairs)
    check(blocks, "docs/protocol.md has no ```jsonl examples")
    return blocks


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@test
def protocol_doc_examples_are_what_perch_answers(t):
    p = t.start_perch()
    for pairs in documented_exchanges():
        replies = p.raw([sent for sent, _ in pairs])
        for (sent, expected), got in zip(pairs, replies):
            check(compact(json.loads(expected)) == (got if isinstance(got, str) else compact(got)),
                  "docs/protocol.md example %s\n  documented: %s\n  perch said: %s"
                  % (sent, expected, got if isinstance(got, str) else compact(got)))
