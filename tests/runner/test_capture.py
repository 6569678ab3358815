"""Tests of bounded stream capture: spooling, the cap, searching and excerpts."""

from __future__ import annotations

from collections.abc import Iterable
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentic_evals.runner import capture
from agentic_evals.runner.capture import CapturedStream, StreamSink


def captured(
    chunks: Iterable[bytes], *, stream_cap: int = 2**20, spool_threshold: int = 2**20
) -> CapturedStream:
    sink = StreamSink(stream_cap=stream_cap, spool_threshold=spool_threshold)
    for chunk in chunks:
        sink.write(chunk)
    return sink.finish()


def test_small_stream_stays_in_memory() -> None:
    with captured([b"hello ", b"world"]) as stream:
        assert not stream.on_disk
        assert stream.read_all() == b"hello world"
        assert (stream.total_bytes, stream.kept_bytes, stream.truncated) == (11, 11, False)


def test_spools_to_disk_past_threshold() -> None:
    data = bytes(range(256)) * 1000
    with captured([data[:100_000], data[100_000:]], spool_threshold=50_000) as stream:
        assert stream.on_disk
        assert stream.read_all() == data
        assert stream.kept_bytes == len(data)


def test_cap_keeps_the_first_bytes_and_counts_the_rest() -> None:
    chunks = [b"a" * 700, b"b" * 700, b"c" * 700]
    with captured(chunks, stream_cap=1000, spool_threshold=100) as stream:
        assert stream.truncated
        assert stream.total_bytes == 2100
        assert stream.kept_bytes == 1000
        assert stream.read_all() == b"a" * 700 + b"b" * 300


def test_zero_cap_keeps_nothing() -> None:
    with captured([b"abc"], stream_cap=0) as stream:
        assert stream.read_all() == b""
        assert stream.total_bytes == 3
        assert stream.truncated


def test_negative_sizes_are_rejected() -> None:
    with pytest.raises(ValueError):
        StreamSink(stream_cap=-1)


def test_head_and_tail() -> None:
    with captured([b"0123456789"], spool_threshold=4) as stream:
        assert stream.head(3) == b"012"
        assert stream.tail(3) == b"789"
        assert stream.tail(100) == b"0123456789"
        assert stream.head(0) == b"" and stream.tail(0) == b""


def test_tail_is_of_kept_bytes_when_truncated() -> None:
    with captured([b"0123456789"], stream_cap=6) as stream:
        assert stream.tail(2) == b"45"


def test_contains_finds_needle_across_chunk_boundary_on_disk() -> None:
    size = 3 * capture.SEARCH_CHUNK
    data = bytearray(size)
    needle = b"NEEDLE-acrossboundary"
    boundary = capture.SEARCH_CHUNK
    data[boundary - 7 : boundary - 7 + len(needle)] = needle
    with captured([bytes(data)], stream_cap=size, spool_threshold=2**16) as stream:
        assert stream.on_disk
        assert stream.contains(needle)
        assert stream.contains(b"")
        assert not stream.contains(b"NEEDLE-elsewhere")


def test_contains_ignores_bytes_beyond_the_cap() -> None:
    with captured([b"x" * 100, b"secret"], stream_cap=100) as stream:
        assert not stream.contains(b"secret")


@given(
    data=st.binary(max_size=200),
    needle=st.binary(min_size=1, max_size=8),
    chunk=st.integers(min_value=1, max_value=16),
)
def test_contains_agrees_with_in_for_any_chunk_size(data: bytes, needle: bytes, chunk: int) -> None:
    with mock.patch.object(capture, "SEARCH_CHUNK", chunk):
        with captured([data], spool_threshold=32) as stream:
            assert stream.contains(needle) == (needle in data)


def test_non_utf8_bytes_survive_and_excerpt_replaces() -> None:
    with captured([b"ok \xff\xfe end"]) as stream:
        assert stream.read_all() == b"ok \xff\xfe end"
        assert stream.excerpt() == "ok \ufffd\ufffd end"


def test_excerpt_returns_short_text_whole() -> None:
    text = "x" * 20
    with captured([text.encode()]) as stream:
        assert stream.excerpt(limit_chars=10) == text


def test_excerpt_elides_the_middle() -> None:
    data = b"H" * 10 + b"m" * 1000 + b"T" * 10
    with captured([data], spool_threshold=64) as stream:
        assert stream.excerpt(limit_chars=10) == (
            "H" * 10 + "\n[... 1000 bytes omitted ...]\n" + "T" * 10
        )


def test_excerpt_counts_characters_not_bytes() -> None:
    text = "é" * 15  # 15 characters, 30 bytes: short enough for limit 10
    with captured([text.encode()]) as stream:
        assert stream.excerpt(limit_chars=10) == text
    long_text = "é" * 10 + "-" * 5 + "ü" * 10
    with captured([long_text.encode()]) as stream:
        assert stream.excerpt(limit_chars=10) == (
            "é" * 10 + "\n[... 5 bytes omitted ...]\n" + "ü" * 10
        )


def test_excerpt_notes_truncation() -> None:
    with captured([b"a" * 50], stream_cap=20) as stream:
        excerpt = stream.excerpt()
        assert excerpt.startswith("a" * 20)
        assert "truncated: 50 bytes written, only the first 20 kept" in excerpt


def test_excerpt_rejects_non_positive_limit() -> None:
    with captured([b"a"]) as stream, pytest.raises(ValueError):
        stream.excerpt(limit_chars=0)


def test_a_digest_is_kept_only_when_asked_for_and_covers_bytes_past_the_cap() -> None:
    import hashlib

    hashed = StreamSink(stream_cap=4, digest=True)
    plain = StreamSink(stream_cap=4)
    for sink in (hashed, plain):
        sink.write(b"abcdef")
        sink.write(b"gh")
    assert hashed.finish().sha256 == hashlib.sha256(b"abcdefgh").hexdigest()
    assert plain.finish().sha256 is None
