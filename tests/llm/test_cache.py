"""The SQLite response cache: keys, storage, info/clear, policies, and several processes writing at once."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from debugtutor.errors import CacheMissError, InputError
from debugtutor.llm import CachePolicy, ChatMessage, GenerationSettings, ResponseCache, ScriptedModel
from debugtutor.llm.cache import CACHE_FILE_NAME, CachedCompletion, cache_key, default_cache_dir, sample_keys

HELLO = [ChatMessage(role="user", content="hello")]


def test_default_cache_dir_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUGTUTOR_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"
    assert ResponseCache().path == tmp_path / "elsewhere" / CACHE_FILE_NAME


def test_key_depends_on_model_messages_settings_and_sample() -> None:
    base = cache_key("m", HELLO, GenerationSettings(), None)
    assert base == cache_key("m", list(HELLO), GenerationSettings(), None)
    assert base != cache_key("other", HELLO, GenerationSettings(), None)
    assert base != cache_key("m", [ChatMessage(role="user", content="hello!")], GenerationSettings(), None)
    assert base != cache_key("m", HELLO, GenerationSettings(max_tokens=10), None)
    assert base != cache_key("m", HELLO, GenerationSettings(), 0)
    # n is not part of a sample's identity: sample 0 of n=2 is sample 0 of n=5.
    assert cache_key("m", HELLO, GenerationSettings(n=2), 0) == cache_key("m", HELLO, GenerationSettings(n=5), 0)


def test_sample_keys_only_for_sampled_requests() -> None:
    assert len(sample_keys("m", HELLO, GenerationSettings())) == 1
    assert len(set(sample_keys("m", HELLO, GenerationSettings(n=4)))) == 4
    assert len(set(sample_keys("m", HELLO, GenerationSettings(temperature=0.5)))) == 1
    assert sample_keys("m", HELLO, GenerationSettings(temperature=0.5)) != sample_keys("m", HELLO, GenerationSettings())


def test_put_get_info_clear(tmp_path: Path) -> None:
    store = ResponseCache(tmp_path / "c.sqlite3")
    assert store.info().entries == 0
    assert store.get_many(["a"]) == {}
    store.put_many("m", [("a", CachedCompletion("A", 3, 1)), ("b", CachedCompletion("B", 3, 2))])
    assert store.get_many(["a", "b", "c"]) == {"a": CachedCompletion("A", 3, 1), "b": CachedCompletion("B", 3, 2)}
    info = store.info()
    assert info.entries == 2 and info.size_bytes > 0 and info.path == str(tmp_path / "c.sqlite3")
    assert store.clear() == 2
    assert store.info().entries == 0
    assert store.get_many(["a"]) == {}


def test_database_is_in_wal_mode(tmp_path: Path) -> None:
    store = ResponseCache(tmp_path / "c.sqlite3")
    store.put_many("m", [("k", CachedCompletion("t", 1, 1))])
    with sqlite3.connect(store.path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def _write_many(path: str, worker: int, count: int) -> None:
    store = ResponseCache(Path(path))
    for index in range(count):
        store.put_many("m", [(f"{worker}-{index}", CachedCompletion(f"text {worker} {index}", 1, 1))])
        store.get_many([f"{worker}-{index}", f"{(worker + 1) % 4}-{index}"])


def test_concurrent_writer_processes_do_not_collide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # spawned children import this module by name (tests.llm.test_cache): the repository root must be on their path
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2]))
    path = tmp_path / "shared.sqlite3"
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_many, args=(str(path), worker, 60)) for worker in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=120)
    assert [process.exitcode for process in workers] == [0, 0, 0, 0]
    assert ResponseCache(path).info().entries == 240
    assert ResponseCache(path).get_many(["3-59"])["3-59"].text == "text 3 59"


def test_scripted_model_with_cache_calls_once() -> None:
    model = ScriptedModel(["first", "second"], cache=CachePolicy.NORMAL)
    assert model.generate_sync("q").texts == ["first"]
    again = model.generate_sync("q")
    assert again.texts == ["first"] and again.cached is True
    assert model.calls == 1


def test_cache_only_raises_on_a_miss_without_calling() -> None:
    model = ScriptedModel(["never"], cache="cache-only")
    with pytest.raises(CacheMissError, match="not in the response cache"):
        model.generate_sync("q")
    assert model.calls == 0


def test_partial_hits_only_generate_missing_samples() -> None:
    model = ScriptedModel(["a", "b", "c", "d"], cache=CachePolicy.NORMAL)
    sampled = GenerationSettings(n=2, temperature=0.9)
    assert model.generate_sync("q", sampled).texts == ["a", "b"]
    more = model.generate_sync("q", sampled.model_copy(update={"n": 3}))
    assert more.texts == ["a", "b", "c"]
    assert model.history[-1].settings.n == 1


def test_cache_policy_coercion() -> None:
    assert CachePolicy.coerce("no_cache") is CachePolicy.NO_CACHE
    assert CachePolicy.coerce(False) is CachePolicy.NO_CACHE
    assert CachePolicy.coerce(True) is CachePolicy.NORMAL
    with pytest.raises(InputError, match="unknown cache policy"):
        CachePolicy.coerce("sometimes")
