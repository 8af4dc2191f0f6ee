"""The stdio transport of the language server: reading LSP frames robustly, and the server's
lifetime (it ends on ``exit``, at the EOF of stdin and when the editor's process dies).

pygls's reader trusts its input: a bad ``Content-Length`` leaves it deaf, an absurd one makes
it allocate that many bytes, and a message whose params do not match the protocol's types is
never answered (its id is lost inside the JSON decoding).  Here:

* ``FrameParser`` (pure, fed bytes) accepts CRLF or LF header lines, skips garbage up to the
  next ``Content-Length`` header, refuses a length that is not a decimal number or is above
  ``MAX_FRAME`` without allocating it, and gives back a frame's tail when its body turns out
  not to be JSON but holds the next header (a ``Content-Length`` that was too long);
* ``serve_stdio`` reads stdin in a thread of its own, so ``exit``, EOF, ``$/cancelRequest``
  and the death of the ``initialize`` ``processId`` take effect within a second whatever the
  event loop is doing; messages are decoded there and handed to the event loop, where a
  request whose params cannot be read gets a JSON-RPC error response.
"""
from __future__ import annotations

import gc
import json
import logging
import os
import re
import select
import sys
import threading
import time
from collections.abc import Callable

from .pipes import write_all

log = logging.getLogger("puppet-ls")

# Larger frames are refused unread: a Puppet file of more than 64 MiB is not something to
# hold in an editor's language server (documents above puppet.documents.maxSize are kept but
# not analysed; this is the transport's own ceiling).
MAX_FRAME = 64 * 1024 * 1024
MAX_HEADER = 8 * 1024
# A pause this long inside a message body means its Content-Length was too long.
STALL_SECONDS = 0.5
_HEADER_NAME = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_LENGTH = re.compile(rb"[ \t]*(\d{1,15})[ \t]*")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


class FrameParser:
    """Bytes in, frame bodies (or complaints) out.  ``feed`` returns a list of
    ``("body", bytes)`` and ``("error", text)`` events in input order."""

    def __init__(self, max_frame: int = MAX_FRAME):
        self.max_frame = max_frame
        self.buf = bytearray()
        self.need: int | None = None        # body length being waited for

    def feed(self, data: bytes) -> list:
        self.buf += data
        out: list = []
        while True:
            if self.need is not None:
                if len(self.buf) < self.need:
                    break
                body = bytes(self.buf[:self.need])
                del self.buf[:self.need]
                self.need = None
                out.append(("body", body))
                continue
            if not self._header(out):
                break
        return out

    def _header(self, out: list) -> bool:
        """Parse one header block at the front of the buffer; False when more input is needed."""
        m = _HEADER_NAME.search(self.buf)
        if m is None:
            # keep a tail that may be the start of a header cut by the read
            keep = 32
            if len(self.buf) > keep:
                junk = bytes(self.buf[:-keep])
                if junk.strip():
                    out.append(("error", f"skipped {len(junk)} bytes that are not an LSP header"))
                del self.buf[:-keep]
            return False
        if m.start() > 0:
            junk = bytes(self.buf[:m.start()])
            # a Content-Type line before Content-Length is legal: only complain about garbage
            if junk.strip() and not junk.lower().lstrip().startswith(b"content-type"):
                out.append(("error", f"skipped {len(junk)} bytes before a Content-Length header"))
            del self.buf[:m.start()]
        # the header block ends at the first empty line (CRLF or LF line ends are accepted)
        end = _blank_line(self.buf)
        if end is None:
            if len(self.buf) > MAX_HEADER:
                out.append(("error", "a header block longer than 8 KiB; skipping it"))
                del self.buf[:len(b"content-length:")]
                return True
            return False
        head_end, body_start = end
        length = None
        bad = None
        for line in bytes(self.buf[:head_end]).split(b"\n"):
            line = line.rstrip(b"\r")
            hm = _HEADER_NAME.match(line)
            if hm is None:
                continue
            lm = _LENGTH.fullmatch(line[hm.end():])
            if lm is None:
                bad = f"invalid Content-Length {line[hm.end():].strip()[:40]!r}"
            else:
                length = int(lm.group(1))
            break
        if bad is None and length is not None:
            if length == 0:
                bad = "Content-Length 0 (an empty message)"
            elif length > self.max_frame:
                bad = f"Content-Length {length} exceeds the limit of {self.max_frame} bytes; message refused"
        if bad is not None or length is None:
            out.append(("error", (bad or "a header block without Content-Length") + "; waiting for the next header"))
            del self.buf[:head_end]
            return True
        del self.buf[:body_start]
        self.need = length
        return True

    def stalled(self) -> list:
        """No input came for a while: if a body is still awaited but what has arrived holds
        the next header, the Content-Length was too long; give up that frame and read on from
        the header (clients write a message at once, so a pause inside a body means that)."""
        if self.need is None:
            return []
        m = _HEADER_NAME.search(self.buf, 1)
        if m is None:
            return []
        self.need = None
        del self.buf[:m.start()]
        return [("error", "a message shorter than its Content-Length; skipped")] + self.feed(b"")

    def reject(self, body: bytes) -> None:
        """``body`` was not a message: when it holds a header (its Content-Length was too
        long and swallowed the next message), read again from that header."""
        m = _HEADER_NAME.search(body, 1)
        if m is not None:
            self.buf[0:0] = body[m.start():]


def _blank_line(buf: bytearray):
    """(end of the headers, start of the body) at the first empty line, or None."""
    best = None
    for sep in (b"\r\n\r\n", b"\n\n", b"\r\n\n", b"\n\r\n"):
        i = buf.find(sep, 0, MAX_HEADER + 4)
        if i >= 0 and (best is None or i < best[0]):
            best = (i, i + len(sep))
    return best


# ---- the process --------------------------------------------------------------------------------

def configure_process(log_file: str | None) -> None:
    """Logging (to stderr or a file, never stdout), the thread switch interval and the
    collector's thresholds of the server's process."""
    handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    logging.getLogger("puppet-ls").setLevel(logging.INFO)
    # pygls logs every message it sends at INFO: far too much, and slow for big documents.
    logging.getLogger("pygls").setLevel(logging.WARNING)
    # Analyses run in worker threads; a shorter switch interval than Python's 5 ms hands the
    # interpreter back to the reader and the event loop sooner, so ordinary requests are not
    # queued behind seconds of analysis of a large document.
    sys.setswitchinterval(0.001)
    # The collector's default thresholds make a full collection every few hundred thousand
    # allocations; with the trees of open documents and the index alive, each one walks them
    # all (tens of milliseconds, every few keystrokes while typing in a large file).  The
    # server makes no reference cycles it relies on the collector for at that rate.
    gc.set_threshold(20_000, 50, 1000)


# ---- lifetime -----------------------------------------------------------------------------------

class Lifetime:
    """Ends the process (status 0 after ``shutdown``, 1 otherwise, as the protocol says) and
    runs the registered clean-ups first (killing the evaluation worker)."""

    def __init__(self) -> None:
        self.shutdown_requested = False
        self.cleanups: list[Callable[[], None]] = []
        self._watching: int | None = None

    def end(self, why: str, status: int | None = None) -> None:
        if status is None:
            status = 0 if self.shutdown_requested else 1
        log.info("exiting (%s), status %d", why, status)
        for fn in self.cleanups:
            try:
                fn()
            except Exception:   # one failed clean-up must not stop the others, nor the exit
                log.exception("clean-up at exit failed")
        try:
            sys.stdout.flush()
        except (OSError, ValueError):   # the client closed the pipe, or stdout is closed
            pass
        logging.shutdown()
        os._exit(status)

    def watch_parent(self, pid) -> None:
        """End when process ``pid`` (the editor, from ``initialize``) dies."""
        if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or self._watching is not None:
            return
        self._watching = pid

        def watch():
            while True:
                time.sleep(0.2)
                if not _alive(pid):
                    self.end(f"the editor process {pid} is gone")
        threading.Thread(target=watch, name="puppet-ls-parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    try:
        # a dead child not yet reaped by its own parent is a zombie: gone for our purposes
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return stat[stat.rfind(b")") + 2:][:1] != b"Z"
    except OSError:
        return True


# ---- the writer ---------------------------------------------------------------------------------

def encode(message: dict) -> bytes:
    """One message as it goes to the client (as pygls writes it: ASCII JSON, both headers)."""
    body = json.dumps(message).encode()
    return (f"Content-Length: {len(body)}\r\n"
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n").encode() + body


class MessageWriter:
    """pygls's writer interface over stdout: every byte of a message, one message at a time.

    With ``PYTHONUNBUFFERED`` set (common in containers and CI), ``sys.stdout.buffer`` is the
    raw file, whose ``write`` may take only part of a message larger than the pipe's buffer
    (when a signal or a stop interrupts it); pygls's own writer ignored the count, and a
    completion list of 111 KB reached the client with another message inside it.  Responses
    come from the request threads and the event loop at once, hence the lock."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            write_all(self._stream, data)

    def close(self) -> None:
        with self._lock:
            self._stream.close()


# ---- the reader ---------------------------------------------------------------------------------

NOT_JSON = object()     # what the reader hands on for a frame whose body is not JSON


class StdinReader:
    """Reads stdin in a thread of its own and hands each decoded message (``NOT_JSON`` for a
    frame that is not JSON) to a sink, in input order.  Until a sink is attached the messages
    are held, for ``take`` (the early front, before the event loop exists) and then for the
    sink, first.  ``exit``, EOF, ``$/cancelRequest`` and the editor's death act here at once."""

    def __init__(self, lifetime: Lifetime, stdin_fd: int = 0) -> None:
        self.lifetime = lifetime
        self.stdin_fd = stdin_fd
        self.on_cancel: Callable[[object], None] | None = None
        self._lock = threading.Condition()
        self._sink: Callable[[object], object] | None = None
        self._held: list = []
        self._woken = False

    def start(self) -> None:
        threading.Thread(target=self._read, name="puppet-ls-stdin", daemon=True).start()

    def take(self, timeout: float | None = None):
        """The next held message (None after ``timeout`` or a ``wake``)."""
        with self._lock:
            if not self._held and not self._woken:
                self._lock.wait(timeout)
            self._woken = False
            return self._held.pop(0) if self._held else None

    def wake(self) -> None:
        """Make a waiting ``take`` return."""
        with self._lock:
            self._woken = True
            self._lock.notify_all()

    def attach(self, sink: Callable[[object], object], first: list) -> None:
        """From now on hand messages to ``sink``: ``first``, then those held, then the rest."""
        with self._lock:
            for item in [*first, *self._held]:
                sink(item)
            self._held.clear()
            self._sink = sink

    def _put(self, item) -> None:
        with self._lock:
            if self._sink is not None:
                self._sink(item)
            else:
                self._held.append(item)
                self._lock.notify_all()

    def _read(self) -> None:
        parser = FrameParser()
        lifetime = self.lifetime
        while True:
            try:
                readable, _, _ = select.select([self.stdin_fd], [], [], STALL_SECONDS)
                if not readable:
                    events = parser.stalled()
                else:
                    data = os.read(self.stdin_fd, 1 << 16)
                    if not data:
                        lifetime.end("stdin closed")
                        return
                    events = parser.feed(data)
            except OSError as exc:
                lifetime.end(f"stdin failed: {exc}")
                return
            for kind, value in events:
                if kind == "error":
                    log.warning("LSP input: %s", value)
                    continue
                try:
                    raw = json.loads(value)
                except (ValueError, RecursionError) as exc:
                    parser.reject(value)
                    log.warning("LSP input: a message that is not JSON (%s)", str(exc)[:200])
                    self._put(NOT_JSON)
                    continue
                if not _early(raw, lifetime, self.on_cancel):
                    self._put(raw)


def serve_stdio(protocol, lifetime: Lifetime, on_cancel: Callable[[object], None] | None = None,
                stdin_fd: int = 0, stdout=None, reader: StdinReader | None = None,
                writer: MessageWriter | None = None, replay: list | None = None) -> None:
    """Run ``protocol`` (a pygls JsonRPCProtocol) over stdin/stdout until the process ends:
    with the ``reader`` and ``writer`` already started (early.py) when given, and the messages
    of ``replay`` handled first."""
    # (imported here: the early front uses this module's reader and writer before the server
    # loads, and asyncio would add 20-40 ms to its path to the first answers)
    import asyncio
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    protocol.set_writer(writer or MessageWriter(stdout or sys.stdout.buffer))

    def deliver(raw) -> None:
        if raw is NOT_JSON:
            send_error(protocol, None, PARSE_ERROR, "Parse error: the message is not JSON")
        else:
            dispatch(protocol, raw)

    if reader is None:
        reader = StdinReader(lifetime, stdin_fd)
        reader.start()
    reader.on_cancel = on_cancel
    reader.attach(lambda raw: loop.call_soon_threadsafe(deliver, raw), replay or [])
    try:
        loop.run_forever()
    finally:
        lifetime.end("the event loop stopped")


def _early(raw, lifetime: Lifetime, on_cancel) -> bool:
    """Messages acted on in the reader thread, whatever the event loop is doing; True when the
    message needs nothing more."""
    if not isinstance(raw, dict):
        return False
    method = raw.get("method")
    if method == "exit":
        lifetime.end("exit")
        return True
    if method == "shutdown" and "id" in raw:
        lifetime.shutdown_requested = True
    elif method == "initialize" and isinstance(raw.get("params"), dict):
        lifetime.watch_parent(raw["params"].get("processId"))
    elif method == "$/cancelRequest" and on_cancel is not None and isinstance(raw.get("params"), dict):
        try:
            on_cancel(raw["params"].get("id"))
        except Exception:
            log.exception("cancelling failed")
    return False


def send_error(protocol, msg_id, code: int, message: str) -> None:
    protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


def dispatch(protocol, raw) -> None:
    """Hand one decoded message to pygls; a request pygls cannot read gets an error response
    instead of silence."""
    is_request = isinstance(raw, dict) and "id" in raw and "method" in raw
    if not isinstance(raw, dict) or raw.get("jsonrpc") != "2.0" or \
            ("method" in raw and not isinstance(raw.get("method"), str)):
        log.warning("LSP input: not a JSON-RPC 2.0 message")
        msg_id = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), (int, str)) else None
        send_error(protocol, msg_id, INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message")
        return
    if is_request and (not isinstance(raw["id"], (int, str)) or isinstance(raw["id"], bool)):
        send_error(protocol, None, INVALID_REQUEST, "Invalid request: the id must be a number or a string")
        return
    if "method" not in raw and str(raw.get("id", "")).startswith("puppet-ls-early-"):
        return      # the answer to a request of the early front (early.REQUEST_PREFIX)
    if raw.get("method") == "initialize":
        protocol.puppet_ls_initialize_params = raw.get("params")
    try:
        try:
            message = protocol.structure_message(raw)
        except Exception:
            if raw.get("method") != "initialize":
                raise
            message = protocol.structure_message(_salvage_initialize(protocol, raw))
    except Exception as exc:  # noqa: BLE001 - isolation boundary: a message that cannot be read gets an error reply
        text = _why(exc.__cause__ or exc)
        if is_request:
            send_error(protocol, raw["id"], INVALID_PARAMS, f"Invalid params for {raw['method']}: {text}")
        else:
            log.warning("ignoring a %s notification with invalid params: %s", raw.get("method"), text)
        return
    try:
        protocol.handle_message(message)
    except Exception:
        log.exception("handling %s failed", raw.get("method"))
        if is_request:
            send_error(protocol, raw["id"], -32603, "Internal error")


def initialize_params(protocol):
    """The params of the ``initialize`` request ``protocol`` was given, as the client sent them."""
    return getattr(protocol, "puppet_ls_initialize_params", None)


def _salvage_initialize(protocol, raw: dict) -> dict:
    """A newer client may list enum values this protocol version does not know (a symbol
    kind, a markup kind) in its capabilities: rather than refusing to start, drop the
    capability groups that cannot be read (each tried alone) and keep the rest."""
    from lsprotocol import types as lsp
    params = raw.get("params")
    caps = params.get("capabilities") if isinstance(params, dict) else None
    if not isinstance(caps, dict):
        return raw
    kept: dict = {}
    for section, value in caps.items():
        if not isinstance(value, dict):
            continue
        kept[section] = {}
        for key, sub in value.items():
            try:
                protocol._converter.structure({section: {key: sub}}, lsp.ClientCapabilities)
                kept[section][key] = sub
            except Exception:  # noqa: BLE001 - whatever the converter raises, the capability is unreadable
                log.warning("initialize: ignoring the client capability %s.%s, which cannot be read", section, key)
    assert isinstance(params, dict)   # caps was found in it
    return {**raw, "params": {**params, "capabilities": kept}}


def _why(exc: BaseException) -> str:
    """A short reason from a structuring error (cattrs says where in the message it failed)."""
    try:
        from cattrs import transform_error
        found = transform_error(exc, path="$")
        if found:
            return "; ".join(found[:3])[:300]
    except Exception:  # noqa: BLE001, S110 - describing an error must not fail: the plain text below
        pass
    return (str(exc).splitlines() or [type(exc).__name__])[0][:300]



def strict_converter():
    """pygls's converter, minus cattrs's coercions: it turns ``5`` into ``"5"`` and ``"3"`` or
    ``0.5`` into integers, answering a wrong request as if it were another; here a string
    must be a string and a whole number a whole number, or the request gets InvalidParams."""
    from pygls.protocol import default_converter
    converter = default_converter()

    def strict_str(value, type_):
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {type(value).__name__}")
        return value if type_ is str else type_(value)      # a str enum checks its values

    def strict_int(value, type_):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"expected a whole number, got {type(value).__name__}")
        return value if type_ is int else type_(value)      # an int enum checks its values

    def strict_bool(value, _type):
        if not isinstance(value, bool):
            raise TypeError(f"expected true or false, got {type(value).__name__}")
        return value

    converter.register_structure_hook(str, strict_str)
    converter.register_structure_hook(bool, strict_bool)     # bool derives from int
    converter.register_structure_hook(int, strict_int)
    return converter
