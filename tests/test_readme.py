"""Every page a user reads (README.md and docs/*.md) works as written.

Per page: its ```python blocks run in order in one namespace; its ```mlir blocks parse and
verify; every `cfmem` and `xdsl-opt` command of its ```sh and ```console blocks names a real
subcommand, real option flags and registered passes, and the cheap ones run (in a scratch
directory that sees the repository's examples/, benchmarks/ and bench/, with the venv's bin on
PATH) and exit 0; every file the page names under the repository's folders exists; every
relative link resolves, to a heading where it names one."""

import functools
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.passes import PassPipeline

from cfmem.ir_io import make_context, parse_module
from cfmem.passes import PASSES
from conftest import DOC_PAGES, ROOT

BIN = Path(sys.executable).parent  # the venv's bin: cfmem and xdsl-opt
PROGRAMS = ("cfmem", "xdsl-opt")
# Commands left to the static checks: each takes seconds to minutes (upstream MLIR's JIT, a
# compile per budget or tile size, a search up to its time limit, matplotlib pictures, every
# strategy under every mode), where the commands that run take about a second each.
SLOW = ("check-mlir", "check-arena", "--budget-sweep", "--tile", "--strategy search", "--png", "--timeline",
        "--compare")
OUTPUT_OPTIONS = ("-o", "--graph", "--png", "--csv", "--timeline")
FILE_SUFFIXES = (".mlir", ".onnx", ".tflite", ".csv", ".npz", ".json", ".bin", ".png")
# Folders of the repository whose files the pages name.
NAMED_PATH = re.compile(r"(?<![\w./<-])((?:examples|benchmarks|bench|tests|lit_tests|docs|cfmem)/[\w.*/-]*[\w*/])")


def page_id(page: Path) -> str:
    return str(page.relative_to(ROOT))


pages = pytest.mark.parametrize("page", DOC_PAGES, ids=page_id)


def blocks(text: str, *languages: str) -> list[str]:
    """The bodies of the fenced blocks of these languages, in order."""
    return [body for language, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.M | re.S) if language in languages]


def commands(text: str) -> list[list[str]]:
    """The cfmem and xdsl-opt commands of the page's ```sh and ```console blocks, as words."""
    found = []
    for language in ("sh", "console"):
        for body in blocks(text, language):
            for line in body.splitlines():
                if language == "console":
                    if not line.startswith("$ "):
                        continue  # the command's output
                    line = line[2:]
                words = shlex.split(line, comments=True)
                if words and words[0] in PROGRAMS:
                    found.append(words)
    return found


def prose(text: str) -> str:
    """The page without its fenced blocks and inline code."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def check_embedding(printed: list[str]) -> None:
    nn_arena, plain_arena = printed  # wakeword's nn plan, then the bufferized upstream program's
    assert re.fullmatch(r"\d+ : i64", nn_arena) and int(nn_arena.split()[0]) > 1_000_000
    assert plain_arena == "640 : i64"  # five 128-byte buffers, two of them a carried one's slots


PRINTED: dict[str, Callable[[list[str]], None]] = {"docs/embedding.md": check_embedding}


@pages
def test_python_snippets_run(page, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    printed = []
    for code in blocks(page.read_text(), "python"):
        exec(compile(code, str(page), "exec"), namespace)
        printed.append(capsys.readouterr().out.strip())
    if page_id(page) in PRINTED:
        PRINTED[page_id(page)](printed)


@pages
def test_mlir_snippets_parse_and_verify(page):
    for code in blocks(page.read_text(), "mlir"):
        parse_module(code, str(page), ctx=make_context())


@functools.cache
def help_text(*program: str) -> str:
    res = subprocess.run([*program, "--help"], capture_output=True, text=True, env=venv_env())
    assert res.returncode == 0, f"{' '.join(program)} --help: {res.stderr}"
    return res.stdout


def venv_env() -> dict[str, str]:
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def program_of(words: list[str]) -> tuple[str, ...]:
    """`cfmem SUB` or `xdsl-opt`: what the command's --help describes."""
    return (words[0], words[1]) if words[0] == "cfmem" else (words[0],)


@pages
def test_commands_name_real_subcommands_options_passes_and_files(page):
    text = page.read_text()
    for words in commands(text):
        shown = " ".join(words)
        program = program_of(words)
        usage = help_text(*program)
        for word, value in zip(words, [*words[1:], ""]):
            if re.fullmatch(r"--?[a-z][\w-]*", word):
                assert re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", usage), f"{shown}: {' '.join(program)} has no {word}"
            if word in ("-p", "--passes"):
                PassPipeline.parse_spec(PASSES, value)  # unknown passes and options raise
            if word.startswith(("examples/", "benchmarks/", "bench/")):
                assert (ROOT / word).exists(), f"{shown}: no {word}"
    # A command named in the prose's inline code names a real subcommand too.
    for sub in re.findall(r"`cfmem ([a-z][a-z-]*)", text):
        help_text("cfmem", sub)


def run_inputs_exist(words: list[str], cwd: Path) -> bool:
    """Whether every file the command reads is there (user files like `model.onnx` are not)."""
    return all((cwd / word).exists() for before, word in zip(["", *words], words) if word.endswith(FILE_SUFFIXES) and before not in OUTPUT_OPTIONS)


@pages
def test_cheap_commands_run(page, tmp_path):
    for folder in ("examples", "benchmarks", "bench"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    for words in commands(page.read_text()):
        shown = " ".join(words)
        if any(marker in shown for marker in SLOW) or not run_inputs_exist(words, tmp_path):
            continue
        res = subprocess.run(words, capture_output=True, text=True, cwd=tmp_path, env=venv_env(), timeout=300)
        assert res.returncode == 0, f"{shown}: {res.stderr}"


@pages
def test_named_paths_exist(page):
    for named in set(NAMED_PATH.findall(page.read_text())):
        assert list(ROOT.glob(named.rstrip("/"))), f"{page_id(page)} names {named}, which does not exist"


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of the page's headings; a repeated heading's get -1, -2, ... as on GitHub."""
    found: set[str] = set()
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.M | re.S)
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        name = base = slug(heading)
        repeat = 0
        while name in found:
            repeat += 1
            name = f"{base}-{repeat}"
        found.add(name)
    return found


@pages
def test_relative_links_resolve(page):
    for target in re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", prose(page.read_text())):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page_id(page)} links to {target}: no such file"
        if anchor:
            assert anchor in anchors(linked), f"{page_id(page)} links to {target}: no such heading"
