"""The board profiles are consistent: what the transport uses, the GATT table offers."""

from __future__ import annotations

import pytest

from eboard960.ble.profiles import PROFILES, profile_for
from eboard960.errors import TransportError
from eboard960.protocols import CODECS


@pytest.mark.parametrize("profile", PROFILES.values(), ids=lambda p: p.board)
def test_profile_matches_its_gatt_table(profile: object) -> None:
    table = {c.uuid: c for c in profile.characteristics}
    write = table[profile.write]
    assert write.write if profile.write_with_response else write.write_without_response
    assert all(table[uuid].notify for uuid in profile.notify)
    assert {uuid for _prefix, uuid in profile.notify_routes} <= set(profile.notify)
    assert profile.advertised_service in profile.services
    assert profile.board in CODECS
    assert profile.matches_name(profile.emulated_name)
    assert all(uuid == uuid.lower() and len(uuid) == 36 for uuid in table)


def test_routes_send_frames_to_their_characteristic() -> None:
    chessnut = PROFILES["chessnut"]
    position_frame = bytes([0x01, 0x24]) + bytes(36)
    assert chessnut.route(position_frame).startswith("1b7e8262")
    assert chessnut.route(bytes([0x23, 0x01, 0x00])).startswith("1b7e8273")
    assert PROFILES["pegasus"].route(b"\x86\x00\x43") == PROFILES["pegasus"].notify[0]


def test_unknown_board_is_a_one_line_error() -> None:
    with pytest.raises(TransportError, match="'dgt' is not a Bluetooth LE board"):
        profile_for("dgt")
