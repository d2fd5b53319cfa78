"""The grader's side of the harness protocol (grader/harness/harness_main.cpp).

Records arrive on a pipe as lines ``<hex HMAC-SHA256(key, json)> <json>``. A
record counts only if its signature is right and its sequence number is the
next one expected; anything else on the channel is tampering.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field

KEY_BYTES = 32
KEY_FD_ENV = "SCANLAB_GRADER_KEY_FD"
RESULT_FD_ENV = "SCANLAB_GRADER_RESULT_FD"
MAX_LINE = 1 << 20  # one record never comes near this; longer lines are tampering


def sign(key: bytes, payload: bytes) -> str:
    return hmac.new(key, payload, hashlib.sha256).hexdigest()


def encode(key: bytes, record: dict) -> bytes:
    """A valid record line (used by the self-tests)."""
    payload = json.dumps(record, separators=(",", ":")).encode()
    return sign(key, payload).encode() + b" " + payload + b"\n"


@dataclass
class Ended:
    name: str
    result: str  # pass | fail | skip
    ms: int
    failures: list[dict]
    measured: list[str] = field(default_factory=list)  # what the test measured, for the report
    findings: list[dict] = field(default_factory=list)  # the simulator's records of its findings (scanlab_findings/records.py)


@dataclass
class RecordStream:
    key: bytes
    plan: list[str] | None = None
    current: str | None = None  # started, not ended
    ended: dict[str, Ended] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    complete_count: int | None = None
    tampered: str | None = None
    _seq: int = 0
    _buf: bytes = b""

    def feed(self, data: bytes) -> list[dict]:
        """Consume bytes from the pipe; returns the valid records completed by them."""
        self._buf += data
        records = []
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if len(self._buf) > MAX_LINE:
                    self._tamper("an oversized line appeared on the result channel")
                    self._buf = b""
                break
            line, self._buf = self._buf[:nl], self._buf[nl + 1 :]
            rec = self._verify(line)
            if rec is not None:
                self._apply(rec)
                records.append(rec)
        return records

    def finish(self) -> None:
        if self._buf.strip():
            self._tamper("an unterminated record was left on the result channel")
        self._buf = b""

    def _tamper(self, why: str) -> None:
        if self.tampered is None:
            where = f" during {self.current}" if self.current else ""
            self.tampered = f"{why}{where}"

    def _verify(self, line: bytes) -> dict | None:
        sig, sep, payload = line.partition(b" ")
        if not sep or len(sig) != 64:
            self._tamper("a malformed record was written")
            return None
        try:
            good = hmac.compare_digest(sig.decode("ascii"), sign(self.key, payload))
        except UnicodeDecodeError:
            good = False
        if not good:
            self._tamper("a record with a wrong signature was written")
            return None
        try:
            rec = json.loads(payload.decode("utf-8", errors="replace"))
        except json.JSONDecodeError:
            self._tamper("a signed record did not parse")
            return None
        if not isinstance(rec, dict) or rec.get("seq") != self._seq:
            self._tamper("a signed record arrived out of sequence (replayed?)")
            return None
        self._seq += 1
        return rec

    def _apply(self, rec: dict) -> None:
        kind = rec.get("type")
        if kind == "plan":
            self.plan = [str(t) for t in rec.get("tests", [])]
        elif kind == "start":
            self.current = str(rec.get("test"))
        elif kind == "end":
            name = str(rec.get("test"))
            self.ended[name] = Ended(name, str(rec.get("result")), int(rec.get("ms", 0)),
                                     list(rec.get("failures", [])), [str(m) for m in rec.get("measured", [])],
                                     [f for f in rec.get("findings", []) if isinstance(f, dict)])
            self.order.append(name)
            self.current = None
        elif kind == "complete":
            self.complete_count = int(rec.get("count", -1))
