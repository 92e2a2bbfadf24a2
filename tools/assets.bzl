"""wheel_assets: data files of a reference package's wheel (models, meshes,
textures), copied into the calling package as assets/<path below `below`>, so
that the wheel ships them in the folder layout their files name each other by.

    wheel_assets(
        name = "assets",
        srcs = ["@dm_control//:suite_assets"],
        below = "dm_control/suite/",
    )

`drop` (optional) is a path part removed once from each copied path
(dm_control's soccer/assets/pitch/x.png -> soccer/pitch/x.png with
drop = "/assets/")."""

def _wheel_assets_impl(ctx):
    outputs = []
    commands = []
    below = ctx.attr.below
    for f in ctx.files.srcs:
        relative = f.path[f.path.index(below) + len(below):]
        if ctx.attr.drop:
            relative = relative.replace(ctx.attr.drop, "/", 1)
        out = ctx.actions.declare_file("assets/" + relative)
        outputs.append(out)
        commands.append("cp '%s' '%s'" % (f.path, out.path))
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = outputs,
        command = " && ".join(commands),
        mnemonic = "WheelAssets",
    )
    return [DefaultInfo(files = depset(outputs))]

wheel_assets = rule(
    implementation = _wheel_assets_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True),
        "below": attr.string(mandatory = True),
        "drop": attr.string(default = ""),
    },
)
