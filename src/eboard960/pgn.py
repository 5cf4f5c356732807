"""PGN text as the standard writes it: python-chess's exporter with tag values escaped."""

from collections.abc import Iterable

import chess.pgn

_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": " ", "\r": " ", "\t": " "})


def tag_string(value: str) -> str:
    """`value` as a PGN tag's string (PGN standard 7 and 8.1): a backslash or a quote escaped, so that
    a player named `C:\\` cannot end the tag early, and line breaks made spaces, a tag being one line."""
    return value.translate(_ESCAPES)


class _Exporter(chess.pgn.StringExporter):
    def visit_header(self, tagname: str, tagvalue: str) -> None:
        super().visit_header(tagname, tag_string(tagvalue))


def pgn_text(games: Iterable[chess.pgn.Game]) -> str:
    """`games` as one PGN text, a blank line between them."""
    return "\n\n".join(game.accept(_Exporter(columns=None)) for game in games) + "\n"
