"""Make this platform's compiled wheel from the pure one: the same files plus the syntax engine
that `tools/compile.sh --out DIR` built (its extension modules and their manifest), tagged for
this CPython and platform, with a new RECORD.

    python3 tools/release/compiled_wheel.py PURE_WHEEL ENGINE_DIR OUT_DIR

The tag is the plain platform one (e.g. cp311-cp311-linux_x86_64), which a package index does not
take for Linux: publishing needs a manylinux build (auditwheel or cibuildwheel), so build.sh
keeps this wheel apart from the ones it publishes (docs/decisions.md, "mypyc").
"""
from __future__ import annotations

import base64
import csv
import hashlib
import io
import sys
import sysconfig
import zipfile
from pathlib import Path


def platform_tag() -> str:
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{impl}-{plat}"


def record_row(name: str, data: bytes) -> list[str]:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]


def retag(wheel_metadata: bytes, tag: str) -> bytes:
    lines = []
    for line in wheel_metadata.decode("utf-8").splitlines():
        if line.startswith("Root-Is-Purelib:"):
            line = "Root-Is-Purelib: false"
        elif line.startswith("Tag:"):
            line = f"Tag: {tag}"
        lines.append(line)
    return ("\n".join(lines) + "\n").encode("utf-8")


def build(pure: Path, engine_dir: Path, out_dir: Path) -> Path:
    name, version = pure.name.split("-")[:2]
    dist_info = f"{name}-{version}.dist-info"
    added = sorted(p for p in engine_dir.rglob("*") if p.is_file())
    if not any(p.suffix in (".so", ".pyd") for p in added):
        raise SystemExit(f"compiled_wheel.py: no extension modules under {engine_dir} "
                         "(tools/compile.sh --out DIR builds them)")
    tag = platform_tag()
    target = out_dir / f"{name}-{version}-{tag}.whl"
    rows = []
    with zipfile.ZipFile(pure) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename == f"{dist_info}/RECORD":
                continue
            data = src.read(info)
            if info.filename == f"{dist_info}/WHEEL":
                data = retag(data, tag)
            dst.writestr(info, data)
            rows.append(record_row(info.filename, data))
        for p in added:
            arcname = p.relative_to(engine_dir).as_posix()
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if p.suffix in (".so", ".pyd") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            data = p.read_bytes()
            dst.writestr(info, data)
            rows.append(record_row(arcname, data))
        rows.append([f"{dist_info}/RECORD", "", ""])
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(rows)
        dst.writestr(f"{dist_info}/RECORD", text.getvalue())
    return target


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    out = build(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    print(f"compiled_wheel.py: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
