"""WAV loading: tiny built files (formats, loop points as ``GetWavinfo`` reads them, refusals), every sound of the
corpus paks, and hypothesis on random / mutated bytes (only ``FormatError``)."""

from __future__ import annotations

import struct
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assets_loader.errors import BadMagicError, FormatError, TruncatedError
from assets_loader.pak import load_pak
from assets_loader.wav import load_wav
from tests.builders.wav import (
    build_wav,
    chunk,
    cue_chunk,
    fmt_chunk,
    mark_chunk,
    pcm_bytes,
)
from tests.conftest import LQ1, QUAKEWORLD

RAMP = (np.arange(-64, 64, dtype=np.int16) * 256).astype(np.int16)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_8bit_samples_are_widened_like_the_mixer():
    snd = load_wav(build_wav(RAMP, rate=11025, bits=8), "ramp.wav")
    assert (snd.rate, snd.width, snd.num_samples, snd.loop_start) == (11025, 1, 128, None)
    assert snd.samples.dtype == np.int16
    np.testing.assert_array_equal(snd.samples, RAMP)     # RAMP's low bytes are 0: 8 bits keep it exactly
    assert snd.duration == pytest.approx(128 / 11025)


def test_16bit_samples_kept():
    values = np.array([0, 1, -1, 32767, -32768, 1234], np.int16)
    snd = load_wav(build_wav(values, rate=22050, bits=16))
    assert (snd.rate, snd.width) == (22050, 2)
    np.testing.assert_array_equal(snd.samples, values)


def test_cue_gives_loop_start():
    snd = load_wav(build_wav(RAMP, loop_start=40))
    assert snd.loop_start == 40 and snd.looped and snd.num_samples == 128


def test_mark_list_after_cue_cuts_the_sound_at_loop_end():
    snd = load_wav(build_wav(RAMP, bits=16, loop_start=10, loop_length=50))
    assert snd.loop_start == 10
    np.testing.assert_array_equal(snd.samples, RAMP[:60])


def test_list_before_cue_is_not_read():
    # GetWavinfo looks for the LIST only after the cue chunk.
    body = fmt_chunk() + mark_chunk(5) + cue_chunk(10) + chunk(b"data", pcm_bytes(RAMP, 8))
    snd = load_wav(chunk(b"RIFF", b"WAVE" + body))
    assert snd.loop_start == 10 and snd.num_samples == 128


def test_list_without_mark_is_ignored():
    other = chunk(b"LIST", b"INFO" + chunk(b"ICMT", b"a comment about nothing at all!!"))
    body = fmt_chunk() + cue_chunk(3) + other + chunk(b"data", pcm_bytes(RAMP, 8))
    snd = load_wav(chunk(b"RIFF", b"WAVE" + body))
    assert snd.loop_start == 3 and snd.num_samples == 128


def test_loop_longer_than_data_is_an_error():
    with pytest.raises(FormatError, match="cue loop start"):
        load_wav(build_wav(RAMP, loop_start=100, loop_length=100))


def test_loop_start_past_end_is_dropped_with_a_warning():
    with pytest.warns(UserWarning, match="loop start 500"):
        snd = load_wav(build_wav(RAMP, loop_start=500))
    assert snd.loop_start is None and snd.num_samples == 128


def test_chunks_are_found_in_any_order_and_odd_chunks_are_padded():
    body = chunk(b"junk", b"abc") + chunk(b"data", pcm_bytes(RAMP, 8)) + fmt_chunk(44100, 8)
    snd = load_wav(chunk(b"RIFF", b"WAVE" + body))
    assert snd.rate == 44100 and snd.num_samples == 128


def test_riff_length_may_be_wrong_inside_but_not_past_the_file():
    good = build_wav(RAMP)
    longer = good[:4] + struct.pack("<i", len(good) + 10) + good[8:]
    with pytest.raises(FormatError, match="RIFF"):
        load_wav(longer)
    shorter = good[:4] + struct.pack("<i", 4) + good[8:]    # the engine walks to the end of the file anyway
    assert load_wav(shorter).num_samples == 128


@pytest.mark.parametrize("data, error, match", [
    (b"", FormatError, "RIFF"),
    (chunk(b"RIFF", b"AVI " + fmt_chunk()), BadMagicError, "WAVE"),
    (chunk(b"RIFF", b"WAVE" + chunk(b"data", b"\0" * 8)), FormatError, "fmt"),
    (chunk(b"RIFF", b"WAVE" + fmt_chunk()), FormatError, "data"),
    (chunk(b"RIFF", b"WAVE" + fmt_chunk(tag=3) + chunk(b"data", b"\0" * 8)), FormatError, "PCM"),
    (chunk(b"RIFF", b"WAVE" + fmt_chunk(channels=2) + chunk(b"data", b"\0" * 8)), FormatError, "1 channel"),
    (chunk(b"RIFF", b"WAVE" + fmt_chunk(bits=24) + chunk(b"data", b"\0" * 9)), FormatError, "8 or 16"),
    (chunk(b"RIFF", b"WAVE" + fmt_chunk(rate=1) + chunk(b"data", b"\0" * 8)), FormatError, "sample rate"),
    (chunk(b"RIFF", b"WAVE" + fmt_chunk(bits=16) + chunk(b"data", b"\0")), FormatError, "at least one sample"),
    (chunk(b"RIFF", b"WAVE" + chunk(b"fmt ", b"\1\0")), TruncatedError, "channel count"),
])
def test_bad_files_raise_typed_errors(data, error, match):
    with pytest.raises(error, match=match):
        load_wav(data, "bad.wav")


def test_error_names_the_file():
    with pytest.raises(FormatError) as info:
        load_wav(b"RIFX", "sound/x.wav")
    assert info.value.path == "sound/x.wav"


def _corpus_wavs():
    for pak_path in (LQ1 / "pak0.pak", QUAKEWORLD / "id1" / "pak0.pak"):
        pak = load_pak(pak_path)
        for entry in pak.entries:
            if entry.name.lower().startswith("sound/") and entry.name.lower().endswith(".wav"):
                yield pak, entry.name


def test_every_corpus_sound_loads():
    loaded = 0
    rates = set()
    looped = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for pak, name in _corpus_wavs():
            snd = load_wav(pak.read(name), name)
            assert snd.num_samples > 0 and snd.width in (1, 2)
            assert snd.loop_start is None or 0 <= snd.loop_start < snd.num_samples
            rates.add(snd.rate)
            looped += snd.looped
            loaded += 1
    assert loaded == 136 + 79
    assert rates == {11025, 22050, 44100, 48000}
    assert looped == 12     # ambience, doors and lifts


def test_corpus_loop_point_matches_the_cue_chunk():
    pak = load_pak(LQ1 / "pak0.pak")
    data = pak.read("sound/doors/doormv1.wav")
    snd = load_wav(data, "doormv1.wav")
    cue = data.index(b"cue ")
    assert snd.loop_start == struct.unpack_from("<i", data, cue + 32)[0] == 10985


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_format_errors(data):
    try:
        load_wav(b"RIFF" + data)
    except FormatError:
        pass


@FUZZ
@given(st.data())
def test_mutated_files_raise_only_format_errors(draw):
    base = build_wav(RAMP[:40], bits=draw.draw(st.sampled_from([8, 16])), loop_start=5, loop_length=20)
    buf = bytearray(base)
    for _ in range(draw.draw(st.integers(1, 8))):
        buf[draw.draw(st.integers(0, len(buf) - 1))] = draw.draw(st.integers(0, 255))
    cut = draw.draw(st.integers(0, len(buf)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            snd = load_wav(bytes(buf[:cut]))
        except FormatError:
            return
    assert 0 < snd.num_samples <= len(buf)
    assert snd.loop_start is None or 0 <= snd.loop_start < snd.num_samples
