"""Toolchain images: the package's recipes, tags pinned to a hash of the recipe, build, list and clean.

Images form one chain so that disk use stays small: root (Debian bookworm) -> base (sandbox user, step
agent) -> hls (gcc, make) -> rtl (iverilog, verilator, yosys), and hls -> cuda (nvcc). The root is
`debian:bookworm-slim` where a registry is reachable, or an image made here with debootstrap and
`docker import`; the Dockerfiles build on either (`ARG ROOT`, `ARG BASE`).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import shutil
import socket
import subprocess
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from .engine import LABEL_TOOL, TOOL, remove_orphans

RECIPES = Path(__file__).resolve().parent / "recipes"
REPOSITORY = "hwrepair"
PARENTS: dict[str, str | None] = {"base": None, "hls": "base", "rtl": "hls", "cuda": "hls"}
TOOLCHAINS = ("hls", "rtl", "cuda")
CUDA_HOME_TOOLCHAINS = frozenset({"cuda"})  # images whose steps see the host's CUDA toolkit, mounted read-only
DEFAULT_BUILD = ("hls", "rtl")
LABEL_IMAGE = "org.hwrepair.image"
LABEL_RECIPE = "org.hwrepair.recipe"
LABEL_ROOT = "org.hwrepair.root"
ROOT_SUITE = "bookworm"
REGISTRY_ROOT = "debian:bookworm-slim"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
# Bump when `debootstrap_root` changes what goes into the root image.
ROOT_RECIPE = ("debootstrap", "1", ROOT_SUITE, "minbase", "no-doc-man-info-locale")
BUILD_TIMEOUT = 1800.0
T = TypeVar("T")


class ImageError(RuntimeError):
    """An image could not be built, found or removed."""


def recipe_files(name: str) -> list[tuple[str, bytes]]:
    """The files of one recipe, sorted; caches and hidden files are not part of it."""
    root = RECIPES / name
    if not (root / "Dockerfile").is_file():
        raise ImageError(f"no recipe {name!r} (known: {', '.join(PARENTS)})")
    return [(path.relative_to(root).as_posix(), path.read_bytes()) for path in sorted(root.rglob("*"))
            if path.is_file() and path.suffix != ".pyc"
            and not any(p.startswith(".") or p == "__pycache__" for p in path.relative_to(root).parts)]


@cache
def recipe_hash(name: str) -> str:
    """A hash of the recipe and of every recipe it builds on."""
    parent = PARENTS[name]
    h = hashlib.sha256((recipe_hash(parent) if parent else "root").encode())
    for rel, data in recipe_files(name):
        h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()[:12]


def image_tag(name: str) -> str:
    """The pinned tag of a toolchain image, e.g. `hwrepair/hls:0123456789ab`."""
    return f"{REPOSITORY}/{name}:{recipe_hash(name)}"


def root_tag() -> str:
    digest = hashlib.sha256("\0".join(ROOT_RECIPE).encode()).hexdigest()[:12]
    return f"{REPOSITORY}/root:{ROOT_SUITE}-{digest}"


def chain(names: Iterable[str]) -> list[str]:
    """The images to build for `names`, parents first."""
    order: list[str] = []
    for name in names:
        if name not in PARENTS:
            raise ImageError(f"no image {name!r} (known: {', '.join(PARENTS)})")
        parent = PARENTS[name]
        order += [n for n in [*chain([parent] if parent else []), name] if n not in order]
    return order


def context_tar(name: str) -> io.BytesIO:
    """The build context: exactly the files the recipe hash covers."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for rel, data in recipe_files(name):
            info = tarfile.TarInfo(rel)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    buf.seek(0)
    return buf


def with_deadline(call: Callable[[], T], seconds: float, what: str) -> T:
    """Run a Docker call that has no timeout of its own; a wedged engine becomes an ImageError."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise ImageError(f"{what}: the Docker engine did not finish within {seconds:.0f}s")
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def exists(api: Any, ref: str) -> bool:
    import docker

    try:
        api.inspect_image(ref)
    except docker.errors.ImageNotFound:
        return False
    return True


def image_size(api: Any, ref: str) -> int:
    return int(api.inspect_image(ref)["Size"])


@dataclass(frozen=True, slots=True)
class Built:
    """One image of a build: its tag, how long it took (None: already there) and its sizes."""

    name: str
    tag: str
    seconds: float | None
    size: int
    own: int
    note: str = ""


def build(api: Any, names: Iterable[str], *, root: str, mirror: str = DEFAULT_MIRROR, force: bool = False,
          network: str | None = None, log: Callable[[str], None] = print) -> list[Built]:
    """Build the images `names` need, parents first; images already tagged are kept unless `force`."""
    order = chain(names)
    done = [ensure_root(api, root, mirror, log)]
    for name in order:
        parent = PARENTS[name]
        parent_ref = done[0].tag if parent is None else image_tag(parent)
        tag = image_tag(name)
        start = time.monotonic()
        seconds: float | None = None
        if force or not exists(api, tag):
            log(f"building {tag} on {parent_ref} ...")
            build_one(api, name, parent_ref, done[0].tag, network, log)
            seconds = time.monotonic() - start
        size = image_size(api, tag)
        done.append(Built(name, tag, seconds, size, size - image_size(api, parent_ref)))
    return done


def ensure_root(api: Any, root: str, mirror: str, log: Callable[[str], None]) -> Built:
    """The root image: made with debootstrap (`root == "debootstrap"`) or an image from a registry."""
    start = time.monotonic()
    seconds: float | None = None
    ref = root_tag() if root == "debootstrap" else root
    if not exists(api, ref):
        if root == "debootstrap":
            debootstrap_root(api, ref, mirror, log)
        else:
            log(f"pulling {ref} ...")
            repository, _, tag = ref.partition(":")
            with_deadline(lambda: api.pull(repository, tag=tag or "latest"), 600, f"pulling {ref}")
        seconds = time.monotonic() - start
    note = f"debootstrap {ROOT_SUITE} (minbase) from {mirror}" if root == "debootstrap" else "from a registry"
    return Built("root", ref, seconds, image_size(api, ref), image_size(api, ref), note)


def build_one(api: Any, name: str, parent_ref: str, root_ref: str, network: str | None,
              log: Callable[[str], None]) -> None:
    args = {"ROOT": parent_ref} if PARENTS[name] is None else {"BASE": parent_ref}
    labels = {LABEL_TOOL: TOOL, LABEL_IMAGE: name, LABEL_RECIPE: recipe_hash(name), LABEL_ROOT: root_ref}
    lines: list[str] = []
    stream = api.build(fileobj=context_tar(name), custom_context=True, tag=image_tag(name), buildargs=args,
                       labels=labels, rm=True, forcerm=True, pull=False, decode=True, network_mode=network,
                       timeout=BUILD_TIMEOUT)
    for chunk in stream:
        if "error" in chunk:
            tail = "".join(lines[-15:])
            raise ImageError(f"building {image_tag(name)} failed: {chunk['error'].strip()}\n{tail}")
        text = chunk.get("stream", "")
        if text:
            lines.append(text)
            if text.startswith("Step "):
                log("  " + text.strip())


def debootstrap_root(api: Any, ref: str, mirror: str, log: Callable[[str], None]) -> None:
    """Debian bookworm from the Debian mirror, without documentation, imported as `ref`."""
    tool = shutil.which("debootstrap")
    if tool is None or os.geteuid() != 0:
        raise ImageError("the root image is made with debootstrap, which needs root and the debootstrap package "
                         "(apt-get install debootstrap); where a registry is reachable use "
                         f"--root {REGISTRY_ROOT} instead")
    with tempfile.TemporaryDirectory(prefix="hwrepair-root-") as tmp:
        target = Path(tmp) / "rootfs"
        log(f"debootstrap {ROOT_SUITE} from {mirror} (a few minutes) ...")
        done = subprocess.run([tool, "--variant=minbase", ROOT_SUITE, str(target), mirror],
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT)
        if done.returncode != 0:
            raise ImageError(f"debootstrap failed:\n{(done.stdout + done.stderr)[-2000:]}")
        prune_root(target)
        log(f"importing {ref} ...")
        tar = subprocess.Popen(["tar", "--numeric-owner", "-C", str(target), "-c", "."], stdout=subprocess.PIPE)
        changes = [f"LABEL {LABEL_TOOL}={TOOL} {LABEL_IMAGE}=root {LABEL_ROOT}=debootstrap",
                   "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 'CMD ["/bin/bash"]']
        try:
            with_deadline(lambda: api.import_image_from_stream(tar.stdout, repository=ref.split(":")[0],
                                                               tag=ref.split(":")[1], changes=changes),
                          BUILD_TIMEOUT, f"importing {ref}")
        finally:
            tar.kill()
            tar.wait()


def prune_root(target: Path) -> None:
    """What a container never needs: package caches, manuals, translations (copyright files stay)."""
    doomed = [entry for sub in ("usr/share/man", "usr/share/info", "usr/share/locale", "var/lib/apt/lists",
                                "var/cache/apt") for entry in (target / sub).glob("*")]
    for package in (target / "usr/share/doc").glob("*"):
        if package.is_dir() and not package.is_symlink():
            doomed += [entry for entry in package.iterdir() if entry.name != "copyright"]
    for entry in doomed:
        shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()


def tool_images(api: Any) -> list[dict[str, Any]]:
    """Every image the tool made (its label), newest first, untagged leftovers included."""
    found = api.images(filters={"label": f"{LABEL_TOOL}={TOOL}"})
    return sorted(found, key=lambda i: i.get("Created", 0), reverse=True)


def describe(image: dict[str, Any]) -> tuple[str, str, str]:
    labels = image.get("Labels") or {}
    name = labels.get(LABEL_IMAGE, "?")
    tags = [t for t in image.get("RepoTags") or [] if t != "<none>:<none>"]
    tag = tags[0] if tags else f"<untagged {image['Id'][7:19]}>"
    current = tag == image_tag(name) if name in PARENTS else tag == root_tag() if name == "root" else False
    return name, tag, "current" if current else "stale"


def clean(api: Any, *, stale_only: bool, log: Callable[[str], None] = print) -> tuple[int, int]:
    """Remove the tool's leftover containers and its images; nothing without the tool's label."""
    containers = remove_orphans(api, include_stopped=True)
    removed = 0
    for image in tool_images(api):
        name, tag, state = describe(image)
        if stale_only and state == "current":
            continue
        try:
            api.remove_image(image["Id"], force=True)
        except Exception as exc:  # still used by a running container, or already gone with a child
            if "No such image" not in str(exc):
                log(f"kept {tag}: {exc}")
            continue
        removed += 1
        log(f"removed {tag} ({name})")
    return containers, removed


def mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


def images_main(argv: list[str]) -> int:
    """`hwrepair images build|list|clean`: the Docker sandbox's toolchain images."""
    parser = argparse.ArgumentParser(prog="hwrepair images", description=images_main.__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the toolchain images (default: hls rtl; cuda is a few GB)")
    b.add_argument("names", nargs="*", metavar="NAME", help=f"images to build: {', '.join(TOOLCHAINS)}")
    b.add_argument("--root", default=None, metavar="debootstrap|IMAGE",
                   help=f"Debian bookworm root: made here with debootstrap (the default when it is installed and "
                        f"this runs as root), or an image such as {REGISTRY_ROOT}")
    b.add_argument("--mirror", default=DEFAULT_MIRROR, help="Debian mirror for debootstrap (default: %(default)s)")
    b.add_argument("--network", default=None, metavar="MODE",
                   help="network mode of the build containers, e.g. host where the default bridge has no route")
    b.add_argument("--force", action="store_true", help="rebuild even when the pinned tag exists (not the root)")
    sub.add_parser("list", help="list the images the tool made, with their sizes")
    c = sub.add_parser("clean", help="remove the images and leftover containers the tool made, nothing else")
    c.add_argument("--stale", action="store_true", help="keep the images of the current recipes")
    args = parser.parse_args(argv)
    import docker

    try:
        api = docker.from_env(timeout=60).api
        if args.command == "build":
            _build_command(api, args)
        elif args.command == "list":
            _list_command(api)
        else:
            containers, removed = clean(api, stale_only=args.stale)
            print(f"removed {containers} containers and {removed} images")
    except (ImageError, docker.errors.DockerException) as exc:
        print(f"hwrepair images {args.command}: {exc}")
        return 1
    return 0


def _build_command(api: Any, args: argparse.Namespace) -> None:
    root = args.root or ("debootstrap" if shutil.which("debootstrap") and os.geteuid() == 0 else REGISTRY_ROOT)
    start = time.monotonic()
    built = build(api, args.names or DEFAULT_BUILD, root=root, mirror=args.mirror, force=args.force,
                  network=args.network)
    for item in built:
        when = "up to date" if item.seconds is None else f"built in {item.seconds:.1f}s"
        own = "" if item.name == "root" else f" (+{mb(item.own)} of its own)"
        print(f"{item.name:<5} {item.tag:<40} {when:<18} size {mb(item.size)}{own}  {item.note}".rstrip())
    print(f"disk: {mb(sum(item.own for item in built))} for {len(built)} images, shared layers counted once; "
          f"total {time.monotonic() - start:.1f}s on {socket.gethostname()}")


def _list_command(api: Any) -> None:
    images = tool_images(api)
    if not images:
        print("no hwrepair images; build them with `hwrepair images build`")
    for image in images:
        name, tag, state = describe(image)
        created = time.strftime("%Y-%m-%d %H:%M", time.localtime(image.get("Created", 0)))
        print(f"{name:<5} {tag:<40} {state:<8} {mb(int(image.get('Size', 0))):>10}  {created}")
    for name in TOOLCHAINS:
        if not exists(api, image_tag(name)):
            print(f"{name:<5} {image_tag(name):<40} missing")


if __name__ == "__main__":
    import sys

    sys.exit(images_main(sys.argv[1:]))
