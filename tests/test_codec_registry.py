"""The codec registry: a capture header's protocol name and settings to a codec."""

from __future__ import annotations

import inspect

import pytest

from eboard960.errors import ProtocolError
from eboard960.protocols import CODECS, codec_for, codec_settings


@pytest.mark.parametrize("name", sorted(CODECS))
def test_every_setting_the_registry_lists_is_one_the_codec_takes(name: str) -> None:
    parameters = inspect.signature(type(codec_for(name))).parameters
    assert codec_settings(name), f"{name}: a codec with no settings"
    for setting in codec_settings(name):
        codec_for(name, **{setting: parameters[setting].default})


def test_only_the_unknown_settings_are_named_with_the_codecs_own() -> None:
    with pytest.raises(ProtocolError) as error:
        codec_for("dgt", white_side="right", foo=1)
    assert str(error.value) == ("the dgt codec has no setting foo "
                                "(its settings: rotated, detect_rotation, white_side, update_mode)")


def test_an_unknown_protocol_is_named_with_the_known_ones() -> None:
    with pytest.raises(ProtocolError, match="unknown board protocol 'dgx' \\(known: chesslink, chessnut"):
        codec_settings("dgx")
