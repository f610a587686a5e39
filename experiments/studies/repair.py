"""Rebuilding a study folder's ``study.json`` from its shards (``mctslab study repair``).

Every shard file carries everything that determines it (``store.shard_metadata``): its
curve, the study seed, its block of runs. A damaged ``study.json`` therefore loses nothing:
given the study file, it is written again once every stored shard is found to belong to that
study; without one, it is rebuilt from the shards alone, with what they cannot tell (the
study's name, the order of its curves, a curve with no shard stored yet) chosen as below.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from bandits.plugins import PluginNotImported, reading_stored_results

from ..curves.curve import Curve
from ..runtime.lock import writing
from ..runtime.store import write_atomically
from .shards import plan_shards
from .store import STUDY_FILE, shard_store
from .study import DEFAULT_BLOCK, Study, describe, open_study


@dataclass(frozen=True)
class Repair:
    """What ``repair_study`` did."""

    study: Study
    shards: int  # shard files found, every one the study's
    kept: Path | None  # where the damaged study.json was moved, if there was one


def _stored_metadata(folder: Path) -> dict[str, dict]:
    """{shard key: metadata} of every readable shard file in ``folder``."""
    store = shard_store(folder)
    found = {}
    for path in sorted(Path(store.folder).glob("*.parquet")):
        stored = store.read(path.stem)
        if stored is not None and isinstance(stored.metadata, dict):
            found[path.stem] = stored.metadata
    return found


def _infer_block(metadata: list[dict]) -> int:
    """The runs per shard: first_run / block index of a shard past an instance's first, or
    the runs of a first shard shorter than its curve; when every curve fits in one shard, the
    default block if it yields the same shards, else the longest curve's runs."""
    blocks = {m["first_run"] // m["block"] for m in metadata if m["block"] > 0}
    blocks |= {m["n_runs"] for m in metadata
               if m["block"] == 0 and m["n_runs"] < m["curve"]["runs"]}
    if len(blocks) > 1:
        raise ValueError(f"the shards disagree on the runs per shard ({sorted(blocks)})")
    if blocks:
        return blocks.pop()
    longest = max(m["n_runs"] for m in metadata)
    return max(DEFAULT_BLOCK, longest)


def study_from_shards(folder: str | Path, trust_plugins: bool = False) -> tuple[Study, int]:
    """The study the shards in ``folder`` belong to, and how many there are: its curves
    (those with at least one shard stored, ordered by label), seed and runs per shard read
    from the files; its name the folder's. The shards record no plug-in: a curve of one is
    refused (``PluginNotImported``) unless ``trust_plugins``, which imports it."""
    with reading_stored_results(f"the shards in {folder}", None, trust_plugins):
        return _study_from_shards(Path(folder))


def _study_from_shards(folder: Path) -> tuple[Study, int]:
    found = _stored_metadata(folder)
    if not found:
        raise ValueError(f"{folder} holds no readable shard file: nothing to rebuild "
                         f"{STUDY_FILE} from; run the study again")
    metadata = list(found.values())
    seeds = {m.get("study_seed") for m in metadata}
    if len(seeds) != 1:
        raise ValueError(f"the shards in {folder} come from {len(seeds)} studies (seeds "
                         f"{sorted(map(str, seeds))}): give the study file with --study")
    try:
        curves = {json.dumps(m["curve"], sort_keys=True): Curve(**m["curve"]) for m in metadata}
        block = _infer_block(metadata)
        study = Study(tuple(sorted(curves.values(), key=describe)), seeds.pop(), block,
                      folder.resolve().name)
    except PluginNotImported:
        raise
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        raise ValueError(f"cannot rebuild {STUDY_FILE} from the shards in {folder} ({error}): "
                         f"give the study file with --study") from None
    return study, len(found)


def _foreign(folder: Path, study: Study) -> list[str]:
    """Keys of the shard files in ``folder`` that are not shards of ``study``."""
    planned = {shard.key: shard for curve in study.curves
               for shard in plan_shards(curve, study.block, study.seed)}
    foreign = []
    for key, metadata in _stored_metadata(folder).items():
        shard = planned.get(key)
        if shard is None or metadata.get("study_seed") != study.seed:
            foreign.append(key)
    return foreign


def repair_study(folder: str | Path, study: Study | None = None,
                 trust_plugins: bool = False) -> Repair:
    """Write ``folder/study.json`` for ``study`` (every shard stored must be one of its
    shards), or without one for the study the shards describe (``study_from_shards``). A
    ``study.json`` that reads as a study is replaced only when ``study`` is given; the one
    replaced is kept beside (``study.json.damaged``, or ``.replaced`` if it was sound).
    The plug-ins the stored files name are not imported unless ``trust_plugins``: the shards
    do not record them, so rebuilding a study of plug-ins from its shards alone needs it."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder: give a study's results folder")
    with writing(folder, can_wait=False):
        sound = True
        try:
            open_study(folder, trust_plugins)
        except PluginNotImported:
            raise
        except ValueError:
            sound = False
        if sound and study is None:
            raise ValueError(f"{folder / STUDY_FILE} is sound: nothing to repair (give "
                             f"--study STUDY.toml to describe the shards by that file)")
        if study is None:
            study, count = study_from_shards(folder, trust_plugins)
        else:
            foreign = _foreign(folder, study)
            if foreign:
                raise ValueError(
                    f"{len(foreign)} shard file(s) in {folder} are not shards of {study.name} "
                    f"(e.g. {foreign[0]}): check the study file, or rebuild from the shards "
                    f"alone (no --study)")
            count = len(_stored_metadata(folder))
        # outside the reading: a study rebuilt from the shards without --trust-plugins has no
        # plug-in (one would have been refused), with it or from --study its plug-ins may load
        text = json.dumps(study.to_dict(), indent=1, sort_keys=True) + "\n"
        path, kept = folder / STUDY_FILE, None
        if path.exists():
            kept = path.with_name(f"{STUDY_FILE}.{'replaced' if sound else 'damaged'}")
            path.replace(kept)
        write_atomically(path, text.encode())
    return Repair(study, count, kept)
