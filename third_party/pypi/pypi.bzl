"""A pinned PyPI sdist or wheel, fetched by pip and exposed to Bazel.

    pypi_archive(
        name = "ale_py_src",
        package = "ale-py",
        version = "0.11.2",
        kind = "sdist",            # or "wheel"
        sha256 = "...",
        build_file = "//third_party/ale:ale.BUILD",
        strip_prefix = "ale_py-0.11.2",
    )

pip only names the package and version; the index is whatever pip is set up
to use on the machine.  The file's sha256 must match, so a different file can
never slip in.  What pip fetched is stored in the repository cache, so later
fetches (and offline rebuilds) reuse it without pip.

`files` extracts only the named members of the archive (paths inside it,
before `strip_prefix`), which saves unpacking a large data wheel for a few
of its files.
"""

# Extracts the named members of a zip or tar archive (argv: archive, prefix to
# strip, members...); a missing member is an error.
_EXTRACT_MEMBERS = """
import sys, tarfile, zipfile, os, shutil
archive, prefix, names = sys.argv[1], sys.argv[2], sys.argv[3:]
if zipfile.is_zipfile(archive):
    box = zipfile.ZipFile(archive)
    opener, listed = box.open, set(box.namelist())
else:
    box = tarfile.open(archive)
    opener, listed = box.extractfile, set(box.getnames())
missing = [n for n in names if n not in listed]
if missing:
    sys.exit("not in the archive: %s" % ", ".join(missing))
for name in names:
    out = name[len(prefix):].lstrip("/") if prefix and name.startswith(prefix) else name
    if os.path.dirname(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
    with opener(name) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
"""

def _pypi_archive_impl(ctx):
    python = ctx.os.environ.get("PYTHON_BIN_PATH", "") or str(ctx.which("python3"))
    # A wheel is a zip archive; Bazel picks the format from the extension.
    ext = "tar.gz" if ctx.attr.kind == "sdist" else "zip"
    archive = "archive." + ext

    # Reuse a file of this sha256 from the repository cache when there is one.
    cached = ctx.download(url = [], output = archive, sha256 = ctx.attr.sha256, allow_fail = True)
    if not cached.success:
        args = [python, "-m", "pip", "download", "--no-deps", "--quiet", "-d", "pip_download"]
        if ctx.attr.kind == "sdist":
            # Only this package as source; its build tools may come as wheels
            # (pip prepares the sdist's metadata in an isolated environment).
            args += ["--no-binary", ctx.attr.package]
        else:
            args += ["--only-binary", ":all:"]
            if ctx.attr.platform:
                args += ["--platform", ctx.attr.platform]
            if ctx.attr.python_version:
                args += ["--python-version", ctx.attr.python_version]
        args.append("%s==%s" % (ctx.attr.package, ctx.attr.version))
        result = ctx.execute(args, timeout = 1200)
        if result.return_code != 0:
            fail("pip could not fetch %s==%s:\n%s" % (ctx.attr.package, ctx.attr.version, result.stderr))
        listing = ctx.execute(["ls", "pip_download"]).stdout.strip().split("\n")
        if len(listing) != 1:
            fail("expected one file from pip, got %s" % listing)
        fetched = "pip_download/" + listing[0]
        digest = ctx.execute([python, "-c", "import hashlib,sys;print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())", fetched]).stdout.strip()
        if digest != ctx.attr.sha256:
            fail("%s==%s has sha256 %s, expected %s" % (ctx.attr.package, ctx.attr.version, digest, ctx.attr.sha256))

        # Copied through Bazel's downloader, which stores it in the repository cache.
        ctx.download(url = ["file://" + str(ctx.path(fetched))], output = archive, sha256 = ctx.attr.sha256)
        ctx.execute(["rm", "-rf", "pip_download"])
    if ctx.attr.files:
        result = ctx.execute([python, "-c", _EXTRACT_MEMBERS, archive, ctx.attr.strip_prefix] + ctx.attr.files)
        if result.return_code != 0:
            fail("%s==%s: %s" % (ctx.attr.package, ctx.attr.version, result.stderr))
    else:
        ctx.extract(archive, stripPrefix = ctx.attr.strip_prefix)
    ctx.delete(archive)
    if ctx.attr.build_file:
        ctx.symlink(ctx.attr.build_file, "BUILD.bazel")
    else:
        ctx.file("BUILD.bazel", "exports_files(glob(['**']))\n")

pypi_archive = repository_rule(
    implementation = _pypi_archive_impl,
    attrs = {
        "package": attr.string(mandatory = True),
        "version": attr.string(mandatory = True),
        "sha256": attr.string(mandatory = True),
        "kind": attr.string(default = "sdist", values = ["sdist", "wheel"]),
        "platform": attr.string(),
        "python_version": attr.string(),
        "strip_prefix": attr.string(),
        "files": attr.string_list(),
        "build_file": attr.label(allow_single_file = True),
    },
    # Not PYTHON_BIN_PATH: the interpreter only runs pip, and the archive is
    # the same whichever Python the wheel is built for (tools/build_wheels.py
    # switches it; declaring it would fetch every archive again each time).
)
