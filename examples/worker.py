#!/usr/bin/env python3
"""A hookrt worker in Python (standard library only): a guard that blocks `rm -rf`.

Configure it as {"type": "worker", "command": "python3 examples/worker.py"} in a native file,
or as a Claude command hook with "worker": true. One request per line on stdin
({"id", "event", "payload"}), one answer per line on stdout ({"id", "exitCode", "stdout",
"stderr"}); requests are answered concurrently by a thread pool, in any order.
"""
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

out_lock = threading.Lock()


def handle(event, payload):
    """Return (exit_code, stdout, stderr) for one request, like a command hook's run."""
    command = (payload.get("tool_input") or {}).get("command", "")
    if event == "PreToolUse" and "rm -rf" in command:
        return 2, "", "rm -rf is not allowed here"
    if event == "PreToolUse" and command.startswith("git push"):
        answer = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                                          "permissionDecisionReason": "pushing needs a human"}}
        return 0, answer, ""
    return 0, "", ""


def answer(req):
    rid = req.get("id")
    try:
        code, stdout, stderr = handle(req.get("event", ""), req.get("payload") or {})
        reply = {"id": rid, "exitCode": code, "stdout": stdout, "stderr": stderr}
    except Exception as e:  # a failing handler is a non-blocking error, as exit 1
        reply = {"id": rid, "exitCode": 1, "stderr": str(e)}
    with out_lock:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


def main():
    with ThreadPoolExecutor(max_workers=16) as pool:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
            except ValueError:
                print("worker.py: ignoring a line that is not JSON", file=sys.stderr, flush=True)
                continue
            pool.submit(answer, req)


if __name__ == "__main__":
    main()
