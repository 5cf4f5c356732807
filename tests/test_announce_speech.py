import wave

import pytest

from eboard960.clock.announce import Speaker, number_words, spoken, symbols
from eboard960.errors import ClockError
from eboard960.position import StartPosition


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (0, "zero"), (7, "seven"), (13, "thirteen"), (20, "twenty"), (21, "twenty-one"),
        (100, "one hundred"), (101, "one hundred one"), (110, "one hundred ten"),
        (466, "four hundred sixty-six"), (518, "five hundred eighteen"),
        (960, "nine hundred sixty"), (999, "nine hundred ninety-nine"),
    ],
)
def test_number_words(n, words):
    assert number_words(n) == words


def test_every_position_number_has_its_own_words():
    spelled = [number_words(n) for n in range(961)]
    assert len(set(spelled)) == 961
    assert all("  " not in w and w == w.strip() for w in spelled)
    with pytest.raises(ClockError):
        number_words(1000)


def test_the_sentence_reads_the_rank_from_a1():
    position = StartPosition.from_rank("BRNNKBRQ")
    assert spoken(position, 466) == (
        "Position four hundred sixty-six: bishop, rook, knight, knight, king, bishop, rook, queen"
    )
    assert symbols(StartPosition.from_number(518)) == "♖♘♗♕♔♗♘♖"


def test_espeak_writes_the_announcement_to_a_wav_file(tmp_path):
    speaker = Speaker()
    if speaker.path is None:
        pytest.skip("espeak-ng is not installed")
    wav = tmp_path / "announce.wav"
    assert speaker.record(spoken(StartPosition.from_number(466), 466), wav)
    with wave.open(str(wav)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
    assert 2.0 < seconds < 20.0


def test_without_espeak_the_speaker_is_silent_with_a_note(tmp_path):
    speaker = Speaker(program="no-such-speech-program")
    assert speaker.note == "no-such-speech-program is not installed: announcing silently"
    speaker.say("Position one")
    assert not speaker.record("Position one", tmp_path / "x.wav")
    assert not (tmp_path / "x.wav").exists()
