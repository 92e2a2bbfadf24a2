"""Files of an external repository, copied into this package for the wheel.

The wheel places a file at its path inside the workspace, so procgen's
library and assets, which live in the `@procgen` repository, are copied
under `envpool/procgen/`.  The assets come as one directory: some of their
names (`Player Blue/`, `$.png`) cannot appear on a genrule's command line.
"""

def _source_path(src, prefix):
    path = src.path
    start = path.find(prefix)
    if start < 0:
        fail("%s is not under %s" % (path, prefix))
    return path, start

def _package_file_impl(ctx):
    src = ctx.file.src
    out = ctx.actions.declare_file(ctx.attr.out)
    ctx.actions.run_shell(
        inputs = [src],
        outputs = [out],
        command = 'cp "$1" "$2"',
        arguments = [src.path, out.path],
        mnemonic = "CopyPackageFile",
    )
    return [DefaultInfo(files = depset([out]))]

package_file = rule(
    implementation = _package_file_impl,
    attrs = {
        "src": attr.label(allow_single_file = True, mandatory = True),
        "out": attr.string(mandatory = True),
    },
)

def _package_tree_impl(ctx):
    if not ctx.files.srcs:
        fail("no files under %s" % ctx.attr.src_dir)
    path, start = _source_path(ctx.files.srcs[0], ctx.attr.src_dir)
    src_dir = path[:start + len(ctx.attr.src_dir)]
    out = ctx.actions.declare_directory(ctx.attr.out)
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = [out],
        command = 'cp -R "$1/." "$2"',
        arguments = [src_dir, out.path],
        mnemonic = "CopyPackageTree",
    )
    return [DefaultInfo(files = depset([out]))]

package_tree = rule(
    implementation = _package_tree_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True, mandatory = True),
        "src_dir": attr.string(mandatory = True),
        "out": attr.string(mandatory = True),
    },
)
