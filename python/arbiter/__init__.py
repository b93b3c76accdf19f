"""arbiter: chess and xiangqi game records read and judged by libarbiter (ctypes).

    import arbiter
    for g in arbiter.read("games.pgn.zst"):
        print(g.number, g.tags.get("White"), g.status, len(g.findings))
        for f in g.findings:
            print(f.line, f.column, f.severity, f.code, f.message)

read() takes a path ("-": standard input), bytes, or a binary file object, and yields
Game objects: tags (a dict, first value of a repeated name), moves(notation), plies,
findings and claims (lists of Finding), result, derived_result, derived_reason,
status, final_fen, and convert(to, notation) for the text "arbiter convert" writes.
The games are those of "arbiter check -j 1 --no-names --no-twins" (the library reads
no names across files and finds no twins).

The library is found through the environment variable ARBITER_LIB (a path to
libarbiter.so), else beside this package in a build tree (../../.libs), else as the
installed libarbiter.so.0. Only the Python standard library is used (ctypes).
"""

import ctypes
import os
from collections import namedtuple

__all__ = ["read", "Game", "Finding", "ArbiterError", "version", "library_path"]

Finding = namedtuple(
    "Finding",
    "code severity line column offset ply move message suggestions",
)
Finding.__doc__ = (
    "One finding or claim: code ('illegal-move'), severity ('error', 'warning', "
    "'info'), line and column (0 in a binary format: offset says where), byte offset, "
    "ply (0 when not about a move), move as written or None, message, suggestions "
    "(a tuple, best first)."
)


class ArbiterError(Exception):
    """An input that could not be opened or read, or an argument the library refused."""


def _candidates():
    env = os.environ.get("ARBITER_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    # a build tree: BUILD/.libs/libarbiter.so, the package in SRC/python/arbiter with
    # BUILD = SRC/build or SRC itself
    root = os.path.dirname(os.path.dirname(here))
    for build in (root, os.path.join(root, "build")):
        path = os.path.join(build, ".libs", "libarbiter.so.0")
        if os.path.exists(path):
            yield path
    yield "libarbiter.so.0"


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append(str(e))
    raise ImportError("libarbiter not found: " + "; ".join(errors))


_lib, library_path = _load()

_c = ctypes.c_char_p
_vp = ctypes.c_void_p
_sz = ctypes.c_size_t
_u = ctypes.c_uint
_u64 = ctypes.c_uint64


def _fn(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_version = _fn("arbiter_version", _c)
_last_error = _fn("arbiter_last_error", _c)
_open_file = _fn("arbiter_open_file", _vp, _c, _c, _c)
_open_buffer = _fn("arbiter_open_buffer", _vp, _c, _sz, _c, _c, _c)
_open_fd = _fn("arbiter_open_fd", _vp, ctypes.c_int, _c, _c, _c)
_source_format = _fn("arbiter_source_format", _c, _vp)
_next_game = _fn("arbiter_next_game", ctypes.c_int, _vp, ctypes.POINTER(_vp))
_source_error = _fn("arbiter_source_error", _c, _vp)
_close = _fn("arbiter_close", None, _vp)
_game_free = _fn("arbiter_game_free", None, _vp)
_game_file = _fn("arbiter_game_file", _c, _vp)
_game_number = _fn("arbiter_game_number", _u64, _vp)
_game_line = _fn("arbiter_game_line", _u, _vp)
_game_offset = _fn("arbiter_game_offset", _u64, _vp)
_game_variant = _fn("arbiter_game_variant", _c, _vp)
_tag_count = _fn("arbiter_game_tag_count", _sz, _vp)
_tag_name = _fn("arbiter_game_tag_name", _c, _vp, _sz)
_tag_value = _fn("arbiter_game_tag_value", _c, _vp, _sz)
_ply_count = _fn("arbiter_game_ply_count", _sz, _vp)
_move = _fn("arbiter_game_move", _c, _vp, _sz, _c)
_final_fen = _fn("arbiter_game_final_fen", _c, _vp)
_status = _fn("arbiter_game_status", _c, _vp)
_result = _fn("arbiter_game_result", _c, _vp)
_derived_result = _fn("arbiter_game_derived_result", _c, _vp)
_derived_reason = _fn("arbiter_game_derived_reason", _c, _vp)
_finding_count = _fn("arbiter_game_finding_count", _sz, _vp)
_finding = _fn("arbiter_game_finding", _vp, _vp, _sz)
_claim_count = _fn("arbiter_game_claim_count", _sz, _vp)
_claim = _fn("arbiter_game_claim", _vp, _vp, _sz)
_f_code = _fn("arbiter_finding_code", _c, _vp)
_f_severity = _fn("arbiter_finding_severity", _c, _vp)
_f_line = _fn("arbiter_finding_line", _u, _vp)
_f_column = _fn("arbiter_finding_column", _u, _vp)
_f_offset = _fn("arbiter_finding_offset", _u64, _vp)
_f_ply = _fn("arbiter_finding_ply", ctypes.c_int, _vp)
_f_move = _fn("arbiter_finding_move", _c, _vp)
_f_message = _fn("arbiter_finding_message", _c, _vp)
_f_nsugg = _fn("arbiter_finding_suggestion_count", _sz, _vp)
_f_sugg = _fn("arbiter_finding_suggestion", _c, _vp, _sz)
# the converted text is malloc'd: taken as a pointer, copied, then freed
_convert = _fn("arbiter_game_convert", _vp, _vp, _c, _c)
_free = _fn("arbiter_free", None, _vp)


def _s(b):
    return None if b is None else b.decode("utf-8", "replace")


def _b(s):
    return None if s is None else s.encode("utf-8")


def _error():
    return _s(_last_error()) or "libarbiter failed"


def version():
    """The library's version ("0.1.0")."""
    return _s(_version())


def _findings(h, count, get):
    out = []
    for i in range(count(h)):
        f = get(h, i)
        n = _f_nsugg(f)
        out.append(Finding(
            _f_code(f).decode(), _f_severity(f).decode(), _f_line(f), _f_column(f),
            _f_offset(f), _f_ply(f), _s(_f_move(f)), _s(_f_message(f)),
            tuple(_s(_f_sugg(f, k)) for k in range(n)),
        ))
    return out


class Game:
    """One game, read and replayed. Its data lives in the library until the object is
    garbage-collected (or close() is called)."""

    __slots__ = ("_h", "_tags", "_findings", "_claims", "_moves")

    def __init__(self, handle):
        self._h = handle
        self._tags = self._findings = self._claims = None
        self._moves = {}

    def close(self):
        """Free the game's memory now (the object is unusable after)."""
        if self._h:
            _game_free(self._h)
            self._h = None

    def __del__(self):
        h = getattr(self, "_h", None)
        if h and _game_free is not None:
            _game_free(h)
            self._h = None

    def _handle(self):
        if not self._h:
            raise ValueError("the game was closed")
        return self._h

    @property
    def file(self):
        return _s(_game_file(self._handle()))

    @property
    def number(self):
        """The game's number in its input, from 1."""
        return _game_number(self._handle())

    @property
    def line(self):
        return _game_line(self._handle())

    @property
    def offset(self):
        return _game_offset(self._handle())

    @property
    def variant(self):
        """"chess" or "xiangqi"."""
        return _game_variant(self._handle()).decode()

    @property
    def tags(self):
        """The tags as a dict (the first value of a repeated name), in input order."""
        if self._tags is None:
            h = self._handle()
            tags = {}
            for i in range(_tag_count(h)):
                tags.setdefault(_s(_tag_name(h, i)), _s(_tag_value(h, i)))
            self._tags = tags
        return self._tags

    @property
    def plies(self):
        """How many plies of the main line replayed."""
        return _ply_count(self._handle())

    def moves(self, notation=None):
        """The main line's replayed plies as a list of str: chess "san" (default),
        "lan", "uci", "san-ru", ..., "figurine"; xiangqi "wxf" (default), "vi",
        "chinese", "iccs", "ucci", "fsf-uci", "winboard", "fsf-san"."""
        got = self._moves.get(notation)
        if got is None:
            h = self._handle()
            n = _ply_count(h)
            key = _b(notation)
            got = []
            for i in range(n):
                m = _move(h, i, key)
                if m is None:
                    raise ArbiterError(_error())
                got.append(m.decode("utf-8", "replace"))
            self._moves[notation] = got
        return list(got)

    @property
    def findings(self):
        """The faults of the record (list of Finding), in input order."""
        if self._findings is None:
            self._findings = _findings(self._handle(), _finding_count, _finding)
        return self._findings

    @property
    def claims(self):
        """The claims: draws that could have been claimed, automatic ends."""
        if self._claims is None:
            self._claims = _findings(self._handle(), _claim_count, _claim)
        return self._claims

    @property
    def status(self):
        """"ok", "warnings" or "errors"."""
        return _status(self._handle()).decode()

    @property
    def result(self):
        """The result as written, or None."""
        return _s(_result(self._handle()))

    @property
    def derived_result(self):
        """What the board says ("1-0", "0-1", "1/2-1/2") or None."""
        return _s(_derived_result(self._handle()))

    @property
    def derived_reason(self):
        return _s(_derived_reason(self._handle()))

    @property
    def final_fen(self):
        return _s(_final_fen(self._handle()))

    def convert(self, to="pgn", notation=None):
        """The game as "arbiter convert --to TO -n NOTATION" writes it (pgn, wxf or
        dhtmlxq), as str."""
        p = _convert(self._handle(), _b(to), _b(notation))
        if not p:
            raise ArbiterError(_error())
        try:
            return ctypes.string_at(p).decode("utf-8", "replace")
        finally:
            _free(p)

    def __repr__(self):
        return "<arbiter.Game %s #%d %s %s>" % (self.file, self.number, self.variant, self.status)


def read(source, variant=None, from_=None, name=None):
    """Yield the games of source: a path (str or os.PathLike; "-" is standard input),
    bytes-like data, or a binary file object with a file descriptor. variant: "chess"
    or "xiangqi" for every PGN game (default: by its tags); from_: the format, as
    --from names it (default: detected). A read error after some games raises
    ArbiterError when reached."""
    keep = None
    if isinstance(source, (bytes, bytearray, memoryview)):
        keep = bytes(source)
        h = _open_buffer(keep, len(keep), _b(name or "buffer"), _b(from_), _b(variant))
    elif isinstance(source, (str, os.PathLike)):
        h = _open_file(os.fsencode(source), _b(from_), _b(variant))
    elif hasattr(source, "fileno"):
        h = _open_fd(source.fileno(), _b(name or getattr(source, "name", None)
                                         if isinstance(getattr(source, "name", None), str)
                                         else name), _b(from_), _b(variant))
    else:
        raise TypeError("read() takes a path, bytes or a binary file, not %r" % type(source))
    if not h:
        raise ArbiterError(_error())
    try:
        out = _vp()
        while True:
            got = _next_game(h, ctypes.byref(out))
            if got == 0:
                return
            if got < 0:
                raise ArbiterError(_s(_source_error(h)) or _error())
            yield Game(out.value)
    finally:
        _close(h)
        del keep
