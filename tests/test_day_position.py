import datetime
import hashlib
import hmac
import os
import stat
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eboard960.cli import main
from eboard960.clock.day import (
    DayError,
    commitment,
    day_position,
    event_positions,
    read_secret,
    write_new_secret,
)

SECRET_A = bytes(range(32))
SECRET_B = hashlib.sha256(b"another tournament").digest()
DAY = datetime.date(2026, 11, 22)


def reference(secret, date_text, round_number, allowed):
    """The scheme as written in the README, re-done with struct and hmac.digest."""
    counter = 0
    while True:
        msg = (b"eboard960 day position v1\x00" + date_text.encode() + b"\x00"
               + str(round_number).encode() + b"\x00" + struct.pack(">I", counter))
        for value in struct.unpack(">16H", hmac.digest(secret, msg, "sha256")):
            if value < 65536 // len(allowed) * len(allowed):
                return sorted(allowed)[value % len(allowed)]
        counter += 1


@pytest.mark.parametrize("secret", [SECRET_A, SECRET_B])
@pytest.mark.parametrize("round_number", [1, 2, 7])
def test_vectors_match_an_independent_computation(secret, round_number):
    expected = reference(secret, "2026-11-22", round_number, range(960))
    assert day_position(secret, DAY, round_number) == expected


@settings(max_examples=60)
@given(
    st.binary(min_size=16, max_size=40),
    st.dates(),
    st.integers(1, 500),
    st.sets(st.integers(0, 959), max_size=950),
)
def test_any_inputs_match_the_reference_and_honour_exclusions(secret, date, rnd, exclude):
    number = day_position(secret, date, rnd, exclude)
    assert number not in exclude
    assert number == reference(secret, date.isoformat(), rnd, set(range(960)) - exclude)


def test_heavy_rejection_path_uses_later_counter_blocks():
    # 641 allowed: 65536 % 641 = 154 values rejected; with one allowed number,
    # nothing is rejected and the answer is forced.
    allowed = set(range(641))
    for rnd in range(1, 40):
        assert day_position(SECRET_A, DAY, rnd, set(range(641, 960))) == reference(
            SECRET_A, "2026-11-22", rnd, allowed)
    assert day_position(SECRET_A, DAY, 1, set(range(960)) - {17}) == 17


def test_same_inputs_same_position_and_each_input_matters():
    base = day_position(SECRET_A, DAY, 3)
    assert base == day_position(bytes(range(32)), datetime.date(2026, 11, 22), 3)
    changed = {
        day_position(SECRET_B, DAY, 3),
        day_position(SECRET_A, DAY + datetime.timedelta(days=1), 3),
        day_position(SECRET_A, DAY, 4),
    }
    # deterministic: these fixed inputs all give positions different from the base
    assert base not in changed


def test_no_repeat_excludes_earlier_rounds():
    rounds = event_positions(SECRET_A, DAY, 40, {518}, no_repeat=True)
    assert len(set(rounds)) == 40 and 518 not in rounds
    assert rounds[0] == day_position(SECRET_A, DAY, 1, {518})
    assert rounds[5] == day_position(SECRET_A, DAY, 6, {518, *rounds[:5]})
    with pytest.raises(DayError, match="need more"):
        event_positions(SECRET_A, DAY, 12, set(range(950)), no_repeat=True)


def test_commitment_is_sha256_over_tag_and_secret():
    assert commitment(SECRET_A) == hashlib.sha256(
        b"eboard960 secret commitment v1\x00" + SECRET_A).hexdigest()


def test_new_secret_file_is_private_and_never_overwritten(tmp_path):
    path = tmp_path / "secret.hex"
    secret = write_new_secret(path)
    assert len(secret) == 32 and read_secret(path) == secret
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with pytest.raises(DayError, match="never overwritten"):
        write_new_secret(path)
    assert read_secret(path) == secret


def test_a_secret_file_with_a_byte_order_mark_reads_as_its_hex(tmp_path):
    """Notepad's byte order mark was refused as "'ascii' codec can't decode byte 0xef in position 0"."""
    path = tmp_path / "s"
    path.write_bytes(b"\xef\xbb\xbf" + SECRET_A.hex().encode() + b"\r\n")
    assert read_secret(path) == SECRET_A
    path.write_bytes(b"\xe9" + SECRET_A.hex().encode())
    with pytest.raises(DayError, match=r"^secret file '.*' must hold hex digits only$"):
        read_secret(path)


@pytest.mark.parametrize(
    ("content", "fragment"), [("zz" * 32, "hex digits only"), ("ab" * 8 + "a", "hex digits"),
                              ("ab" * 15, "at least 16")])
def test_bad_secret_files(tmp_path, content, fragment):
    path = tmp_path / "s"
    path.write_text(content)
    with pytest.raises(DayError, match=fragment):
        read_secret(path)
    with pytest.raises(DayError, match="does not exist"):
        read_secret(tmp_path / "missing")


# ----- the command ------------------------------------------------------------------------


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "secret.hex"
    path.write_text(SECRET_A.hex()[:32] + "\n" + SECRET_A.hex()[32:] + "\n")
    return path


def test_cli_shows_the_day_position(secret_file, capsys):
    assert main(["day", "--secret-file", str(secret_file), "--date", "2026-11-22",
                 "--round", "2"]) == 0
    expected = reference(SECRET_A, "2026-11-22", 2, range(960))
    assert f"2026-11-22 round 2: position {expected} " in capsys.readouterr().out


def test_cli_rounds_without_repeats(secret_file, capsys):
    assert main(["day", "--secret-file", str(secret_file), "--date", "2026-11-22",
                 "--rounds", "9", "--no-repeat", "--exclude", "518,0-9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    numbers = [int(line.split()[4]) for line in lines]
    assert numbers == event_positions(SECRET_A, DAY, 9, {518, *range(10)}, no_repeat=True)
    assert main(["day", "--secret-file", str(secret_file), "--date", "2026-11-22",
                 "--round", "9", "--no-repeat", "--exclude", "518,0-9"]) == 0
    assert f"position {numbers[-1]} " in capsys.readouterr().out


def test_cli_rounds_far_on_draw_only_the_rounds_listed(secret_file, capsys, monkeypatch):
    """Without --no-repeat each round stands alone: `--round 10**12 --rounds 10**12` drew every round from 1
    first, and never answered."""
    import eboard960.cli.day as day_cli

    drawn = []
    monkeypatch.setattr(day_cli, "day_position", lambda *args: drawn.append(args[2]) or day_position(*args))
    far = 10**6  # the old way drew a million rounds first: seconds; at 10**12, never an answer
    assert main(["day", "--secret-file", str(secret_file), "--date", "2026-11-22", "--round", str(far),
                 "--rounds", str(far + 1)]) == 0
    numbers = [int(line.split()[4]) for line in capsys.readouterr().out.splitlines()]
    assert drawn == [far, far + 1]
    assert numbers == [reference(SECRET_A, "2026-11-22", n, range(960)) for n in (far, far + 1)]


def test_cli_round_and_rounds_list_rounds_r_to_n(secret_file, capsys):
    """`--round 3 --rounds 5` lists rounds 3, 4 and 5 (with --no-repeat, earlier rounds still count)."""
    day = ["day", "--secret-file", str(secret_file), "--date", "2026-11-22"]
    assert main([*day, "--round", "3", "--rounds", "5", "--no-repeat"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2].rstrip(":") for line in lines] == ["3", "4", "5"]
    positions = event_positions(SECRET_A, DAY, 5, set(), no_repeat=True)
    assert [int(line.split()[4]) for line in lines] == positions[2:]
    assert main([*day, "--round", "6", "--rounds", "5"]) == 2
    assert capsys.readouterr().err == (
        "eboard960 day: --round 6 comes after the last round listed, --rounds 5\n")
    with pytest.raises(SystemExit):
        main(["day", "--help"])
    assert "list rounds R..N (R from --round, default 1)" in " ".join(capsys.readouterr().out.split())


def test_cli_commit_and_verify(secret_file, tmp_path, capsys):
    assert main(["day", "commit", "--secret-file", str(secret_file)]) == 0
    published = capsys.readouterr().out.strip()
    assert published == commitment(SECRET_A)
    number = day_position(SECRET_A, DAY, 3)
    ok = ["day", "verify", "--secret-file", str(secret_file), "--commitment", published,
          "--date", "2026-11-22", "--round", "3", "--position", str(number)]
    assert main(ok) == 0
    assert "position OK" in capsys.readouterr().out
    wrong_position = [*ok[:-1], str((number + 1) % 960)]
    assert main(wrong_position) == 1
    assert "FAILED" in capsys.readouterr().out
    wrong = tmp_path / "wrong.hex"
    wrong.write_text(SECRET_B.hex())
    assert main(["day", "verify", "--secret-file", str(wrong), "--commitment", published]) == 1
    assert "does not match" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--secret-file", "/nonexistent/s"], "does not exist"),
        (["--secret-file", "{s}", "--date", "22/11/2026"], "not a date"),
        (["--secret-file", "{s}", "--date", ""], "'' is not a date"),  # an unset $DATE: today, silently
        (["--secret-file", "{s}", "--date", "2026-11-22", "--position", "620"],
         "--commitment and --position are checked by `day verify`"),  # shown, never checked
        (["--secret-file", "{s}", "--round", "0"], "1 or more"),
        (["--secret-file", "{s}", "--exclude", "0-959"], "none of the 960"),
        (["--secret-file", "{s}", "--exclude", "²"], "bad position number or range '²'"),
        (["verify", "--secret-file", "{s}"], "needs --commitment"),
        (["verify", "--secret-file", "{s}", "--commitment", "xyz"],
         "--commitment 'xyz' is not a hex commitment"),
        (["verify", "--secret-file", "{s}", "--commitment", "ab" * 31],
         "is not a hex commitment (64 hex digits"),
        (["verify", "--secret-file", "{s}", "--commitment", "g" * 64], "is not a hex commitment"),
    ],
)
def test_cli_user_mistakes_are_one_line(secret_file, capsys, argv, fragment):
    argv = [arg.replace("{s}", str(secret_file)) for arg in argv]
    assert main(["day", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("eboard960 day: ") and fragment in err and err.count("\n") == 1


def test_the_readme_test_vectors():
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert commitment(SECRET_A) in text
    rounds = [day_position(SECRET_A, DAY, r) for r in (1, 2, 3)]
    assert rounds == [196, 945, 620]
    assert "round 3: 620 (RBNQKRBN)" in text.replace("\n", " ")
    assert event_positions(SECRET_A, DAY, 3, {518}, no_repeat=True) == [206, 17, 698]
